<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>gpu_wizard</name>
    <message>
        <location filename="../../ui/i18n.py" line="223"/>
        <source> ({why})</source>
        <translation>（{why}）</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="241"/>
        <source> A reboot usually fixes this; `gpu-wizard diagnose` finds the cause.</source>
        <translation>通常重启即可解决；`gpu-wizard diagnose` 可以找出原因。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="226"/>
        <source> No package name is known for this distribution: use NVIDIA's installer for R{branch}.</source>
        <translation>不知道此发行版上的软件包名称：请使用 NVIDIA 的 R{branch} 安装程序。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="225"/>
        <source> No package name is known for {os}: use NVIDIA's installer for R{branch}.</source>
        <translation>不知道 {os} 上的软件包名称：请使用 NVIDIA 的 R{branch} 安装程序。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="224"/>
        <source> R{max_branch} is the last branch that supports {cap_gpus}.</source>
        <translation>R{max_branch} 是支持 {cap_gpus} 的最后一个分支。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="198"/>
        <source> The GPU works for CUDA programs built for it.</source>
        <translation>此 GPU 可以运行为它编译的 CUDA 程序。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="234"/>
        <source> and Python {python}</source>
        <translation> 和 Python {python}</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="235"/>
        <source> for Python {python}</source>
        <translation>（Python {python}）</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="233"/>
        <source> on Windows</source>
        <translation>（Windows 驱动）</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="236"/>
        <source> with Python {python}</source>
        <translation> 和 Python {python}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="354"/>
        <source>&amp;Advanced</source>
        <translation>高级(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="305"/>
        <source>&amp;Cancel</source>
        <translation>取消(&amp;C)</translation>
    </message>
    <message>
        <location filename="../../ui/wizard.py" line="126"/>
        <source>&amp;Close</source>
        <translation>关闭(&amp;C)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="213"/>
        <source>&amp;Copy commands</source>
        <translation>复制命令(&amp;C)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="195"/>
        <source>&amp;Demo machines:</source>
        <translation>演示机器(&amp;D)：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="211"/>
        <source>&amp;Diagnose</source>
        <translation>诊断(&amp;D)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="206"/>
        <source>&amp;Error text or log:</source>
        <translation>错误文本或日志(&amp;E)：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="215"/>
        <source>&amp;Export as script…</source>
        <translation>导出为脚本(&amp;E)…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="201"/>
        <source>&amp;Findings:</source>
        <translation>发现(&amp;F)：</translation>
    </message>
    <message>
        <location filename="../../ui/wizard.py" line="127"/>
        <source>&amp;Finish</source>
        <translation>完成(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="364"/>
        <source>&amp;GPU shown:</source>
        <translation>显示的 GPU(&amp;G)：</translation>
    </message>
    <message>
        <location filename="../../ui/wizard.py" line="159"/>
        <source>&amp;Keep installing</source>
        <translation>继续安装(&amp;K)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="199"/>
        <source>&amp;Language:</source>
        <translation>语言(&amp;L)：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="204"/>
        <source>&amp;Later</source>
        <translation>稍后(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="363"/>
        <source>&amp;Load per test:</source>
        <translation>每项测试负载时长(&amp;L)：</translation>
    </message>
    <message>
        <location filename="../../ui/wizard.py" line="124"/>
        <source>&amp;Next &gt;</source>
        <translation>下一步(&amp;N) &gt;</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="197"/>
        <source>&amp;Open a file…</source>
        <translation>打开文件(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="209"/>
        <source>&amp;Open a log…</source>
        <translation>打开日志(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="203"/>
        <source>&amp;Re-scan</source>
        <translation>重新扫描(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="307"/>
        <source>&amp;Retry failed step</source>
        <translation>重试失败的步骤(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="205"/>
        <source>&amp;Save snapshot…</source>
        <translation>保存快照(&amp;S)…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="369"/>
        <source>&amp;Start</source>
        <translation>开始(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../ui/wizard.py" line="158"/>
        <source>&amp;Stop and close</source>
        <translation>停止并关闭(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="311"/>
        <source>&amp;Troubleshoot this error</source>
        <translation>排查此错误(&amp;T)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="122"/>
        <source>&amp;What a real install would do:</source>
        <translation>实际安装将执行的操作(&amp;W)：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="122"/>
        <source>&amp;What was done:</source>
        <translation>已完成的操作(&amp;W)：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="354"/>
        <source>(stopped early)</source>
        <translation>（提前停止）</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="222"/>
        <source>; {why}</source>
        <translation>；{why}</translation>
    </message>
    <message>
        <location filename="../../ui/wizard.py" line="125"/>
        <source>&lt; &amp;Back</source>
        <translation>&lt; 上一步(&amp;B)</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="108"/>
        <source>A WSL library file that should be a link is a copy.</source>
        <translation>WSL 中本应是符号链接的库文件是一个副本。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="193"/>
        <source>A driver of {need} or newer is needed (the wizard was told not to change the driver).</source>
        <translation>需要 {need} 或更新版本的驱动（已设置向导不更改驱动）。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="290"/>
        <source>A step failed: {step}. Read the log, then Retry or Troubleshoot.</source>
        <translation>步骤失败：{step}。请阅读日志，然后重试或排查。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="193"/>
        <source>A walkthrough has no GPU to test, and the report recorded no verification.</source>
        <translation>查看模式下没有可测试的 GPU，且报告中没有记录验证结果。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="365"/>
        <source>A&amp;pply</source>
        <translation>应用(&amp;P)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="283"/>
        <source>All steps finished.</source>
        <translation>所有步骤已完成。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="357"/>
        <source>Also install the CUDA &amp;toolkit (nvcc):</source>
        <translation>同时安装 CUDA 工具包（nvcc）(&amp;T)：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="185"/>
        <source>Also possible</source>
        <translation>其他可能</translation>
    </message>
    <message>
        <location filename="../../ui/wizard.py" line="156"/>
        <source>An installation is running</source>
        <translation>正在安装</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="297"/>
        <source>As recorded on the user's machine (nothing ran here):</source>
        <translation>用户机器上记录的情况（此处未执行任何操作）：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/log_view.py" line="356"/>
        <source>Auto-scroll paused: follow the end</source>
        <translation>自动滚动已暂停：跟随末尾</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="368"/>
        <source>Back to the recommendation</source>
        <translation>恢复为推荐值</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="20"/>
        <source>Bandwidth</source>
        <translation>带宽</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="375"/>
        <source>Bandwidth against the theoretical ceiling</source>
        <translation>带宽与理论上限对比</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="169"/>
        <source>Blackwell GPUs need NVIDIA's open kernel modules; the proprietary module is loaded.</source>
        <translation>Blackwell GPU 需要 NVIDIA 的开源内核模块；当前加载的是专有模块。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="218"/>
        <source>Blackwell GPUs need the open kernel module</source>
        <translation>Blackwell GPU 需要开源内核模块</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="192"/>
        <source>Building the plan…</source>
        <translation>正在制定计划…</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="196"/>
        <source>CPU build chosen: the driver is left as it is.</source>
        <translation>已选择 CPU 版：驱动保持不变。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="182"/>
        <source>CPU build, as chosen. PyTorch {version} CPU build{for_python}.</source>
        <translation>按你的选择使用 CPU 版。PyTorch {version} CPU 版{for_python}。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="18"/>
        <source>CUDA and cuDNN</source>
        <translation>CUDA 与 cuDNN</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="298"/>
        <source>CUDA runtime {v}</source>
        <translation>CUDA 运行时 {v}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="349"/>
        <source>CUDA toolkit</source>
        <translation>CUDA 工具包</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="106"/>
        <source>CUDA_HOME points to a folder that does not exist.</source>
        <translation>CUDA_HOME 指向的文件夹不存在。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="306"/>
        <source>Cancel the installation</source>
        <translation>取消安装</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="287"/>
        <source>Cancelled. Press Retry to continue from the step that was stopped.</source>
        <translation>已取消。按“重试”从中断的步骤继续。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="134"/>
        <source>Cancelling: stopping the running command…</source>
        <translation>正在取消：停止正在运行的命令…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="314"/>
        <source>Change it, or press Reset to go back to the recommendation.</source>
        <translation>请修改它，或按“重置”恢复为推荐值。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="155"/>
        <source>Chart: {title}</source>
        <translation>图表：{title}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="366"/>
        <source>Check these choices</source>
        <translation>检查这些选项</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="198"/>
        <source>Check with:</source>
        <translation>可用以下命令检查：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="44"/>
        <source>Clocks</source>
        <translation>频率</translation>
    </message>
    <message>
        <location filename="../../ui/wizard.py" line="130"/>
        <source>Close the wizard</source>
        <translation>关闭向导</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="212"/>
        <source>Commands and explanation of the selected step</source>
        <translation>所选步骤的命令与说明</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="342"/>
        <source>Compatibility data: {v}</source>
        <translation>兼容性数据：{v}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="218"/>
        <source>Confirm the plan</source>
        <translation>确认计划</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="22"/>
        <source>Container</source>
        <translation>容器</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="120"/>
        <source>Copies from ordinary (pageable) memory are slow; pinned memory is fast.</source>
        <translation>从普通（可分页）内存复制较慢；锁页内存较快。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="117"/>
        <source>Copies to and from the GPU run at the speed the link allows.</source>
        <translation>与 GPU 之间的数据复制达到链路允许的速度。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="118"/>
        <source>Copies to the GPU are slower than the PCIe link allows.</source>
        <translation>向 GPU 复制数据的速度低于 PCIe 链路允许的速度。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="214"/>
        <source>Copy all commands to the clipboard</source>
        <translation>将所有命令复制到剪贴板</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="160"/>
        <source>Could not tell the compute capability of {gpus}; kernels cannot be checked for it. Use --assume-gpu with a name or a compute capability such as 8.9.</source>
        <translation>无法确定 {gpus} 的计算能力，无法检查是否有对应的内核。请用 --assume-gpu 指定 GPU 名称或计算能力（如 8.9）。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="197"/>
        <source>Decided once a Python with PyTorch wheels is chosen.</source>
        <translation>选定有 PyTorch 安装包的 Python 之后再决定。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="196"/>
        <source>Demo machines</source>
        <translation>演示机器</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="204"/>
        <source>Detect again</source>
        <translation>重新检测</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="187"/>
        <source>Detect, recommend, plan, install, then verify and stress the GPU.</source>
        <translation>检测、推荐、计划、安装，然后验证并对 GPU 进行压力测试。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="199"/>
        <source>Detected</source>
        <translation>检测值</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="200"/>
        <source>Detected facts</source>
        <translation>检测结果</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="126"/>
        <source>Detection failed: {error}</source>
        <translation>检测失败：{error}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="192"/>
        <source>Detection finished: {n} findings.</source>
        <translation>检测完成：{n} 条发现。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="213"/>
        <source>Diagnosis</source>
        <translation>诊断</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="17"/>
        <source>Driver</source>
        <translation>驱动</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="165"/>
        <source>Driver R{current_branch} no longer supports {gpus}; R{max_branch} is the last branch that does.</source>
        <translation>驱动 R{current_branch} 已不再支持 {gpus}；R{max_branch} 是最后一个支持的分支。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="166"/>
        <source>Driver {current} predates the newest GPU here; it needs R{min_branch} or newer.</source>
        <translation>驱动 {current} 早于这里最新的 GPU；需要 R{min_branch} 或更新版本。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="167"/>
        <source>Driver {driver} cannot run PyTorch {newest}+{index}; it needs {need} or newer{where}. {torch} is the newest this driver runs.</source>
        <translation>驱动 {driver} 无法运行 PyTorch {newest}+{index}；需要 {need} 或更新版本{where}。{torch} 是此驱动能运行的最新版本。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="171"/>
        <source>Driver {driver} runs CUDA {cuda} only through minor-version compatibility (CUDA {major}.x on a driver at or above {need_min}): PyTorch works; a few newer CUDA features and PTX JIT need {need_full} or newer.</source>
        <translation>驱动 {driver} 只能通过次版本兼容运行 CUDA {cuda}（驱动不低于 {need_min} 时可运行 CUDA {major}.x）：PyTorch 可以正常工作；少数较新的 CUDA 功能和 PTX JIT 需要 {need_full} 或更新版本。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="283"/>
        <source>Dry run finished: nothing was changed.</source>
        <translation>演练结束：未做任何更改。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="293"/>
        <source>Dry run: </source>
        <translation>演练：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="141"/>
        <source>Dry run: nothing was changed on this computer.</source>
        <translation>演练：本计算机上未做任何更改。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="198"/>
        <source>Dry run: nothing will be changed on this computer.</source>
        <translation>演练：不会更改本计算机上的任何内容。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="208"/>
        <source>Error text</source>
        <translation>错误文本</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="209"/>
        <source>Every step and command, before anything runs.</source>
        <translation>在执行任何操作之前，列出每个步骤和命令。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="191"/>
        <source>Evidence:</source>
        <translation>证据：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="157"/>
        <source>Export &amp;report…</source>
        <translation>导出报告(&amp;R)…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="160"/>
        <source>Export the plan as a script</source>
        <translation>将计划导出为脚本</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="216"/>
        <source>Export the plan as a shell script</source>
        <translation>将计划导出为 Shell 脚本</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="92"/>
        <source>Export the report</source>
        <translation>导出报告</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="212"/>
        <source>Find the cause</source>
        <translation>查找原因</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="202"/>
        <source>Findings</source>
        <translation>发现</translation>
    </message>
    <message>
        <location filename="../../ui/wizard.py" line="131"/>
        <source>Finish</source>
        <translation>完成</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="196"/>
        <source>Fix:</source>
        <translation>修复：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/log_view.py" line="357"/>
        <source>Follow the end of the log</source>
        <translation>跟随日志末尾</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/log_view.py" line="356"/>
        <source>Following the end</source>
        <translation>正在跟随末尾</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="22"/>
        <source>Free disk</source>
        <translation>可用磁盘空间</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="40"/>
        <source>From GPU</source>
        <translation>传出 GPU</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="17"/>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <location filename="../../ui/wizard.py" line="123"/>
        <source>GPU Setup Wizard</source>
        <translation>GPU 配置向导</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="20"/>
        <source>GPU device</source>
        <translation>GPU 设备</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="84"/>
        <source>GPU memory (device to device)</source>
        <translation>GPU 显存（设备到设备）</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="121"/>
        <source>GPU memory bandwidth is below the expected peak.</source>
        <translation>GPU 显存带宽低于预期峰值。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="134"/>
        <source>GPU memory: {v:.0f} GB/s</source>
        <translation>GPU 显存：{v:.0f} GB/s</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="365"/>
        <source>GPU shown in the charts</source>
        <translation>图表中显示的 GPU</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="41"/>
        <source>GPU temperature</source>
        <translation>GPU 温度</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="82"/>
        <source>GPU to host (pinned)</source>
        <translation>GPU 到主机（锁页内存）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="24"/>
        <source>GPU usable from PyTorch</source>
        <translation>PyTorch 能否使用 GPU</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="219"/>
        <source>GPUs older than Turing need the proprietary kernel module</source>
        <translation>早于 Turing 的 GPU 需要专有内核模块</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="93"/>
        <source>HTML report (*.html);;Markdown (*.md);;JSON (*.json)</source>
        <translation>HTML 报告 (*.html);;Markdown (*.md);;JSON (*.json)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="360"/>
        <source>HTTPS &amp;proxy:</source>
        <translation>HTTPS 代理(&amp;P)：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="83"/>
        <source>Host to GPU (pageable)</source>
        <translation>主机到 GPU（可分页内存）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="82"/>
        <source>Host to GPU (pinned)</source>
        <translation>主机到 GPU（锁页内存）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="132"/>
        <source>Host to GPU: {v:.1f} GB/s</source>
        <translation>主机到 GPU：{v:.1f} GB/s</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="217"/>
        <source>I have read the plan: r&amp;un it</source>
        <translation>我已阅读计划：执行(&amp;U)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="217"/>
        <source>I have read the plan: r&amp;un it as a dry run</source>
        <translation>我已阅读计划：以演练方式执行(&amp;U)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="301"/>
        <source>Install</source>
        <translation>安装</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="301"/>
        <source>Install (dry run)</source>
        <translation>安装（演练）</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="188"/>
        <source>Install driver branch R{branch} ({flavour} kernel module): {why}; R{branch} runs {torch}+{index} with {compat} compatibility.{cap}{no_package}</source>
        <translation>安装驱动分支 R{branch}（{flavour}内核模块）：{why}；R{branch} 以{compat}兼容方式运行 {torch}+{index}。{cap}{no_package}</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="192"/>
        <source>Install the NVIDIA Windows driver {need} or newer (from nvidia.com or Windows Update); now: {now}{why_paren}.</source>
        <translation>请安装 {need} 或更新版本的 NVIDIA Windows 驱动（从 nvidia.com 或 Windows 更新获取）；当前：{now}{why_paren}。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/log_view.py" line="358"/>
        <source>Installation log</source>
        <translation>安装日志</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="186"/>
        <source>Keep driver {current}: it runs {torch}+{index} ({compat} compatibility).{cap}</source>
        <translation>保留驱动 {current}：它可以运行 {torch}+{index}（{compat}兼容）。{cap}</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="191"/>
        <source>Keep driver {current}: it runs {torch}+{index}.</source>
        <translation>保留驱动 {current}：它可以运行 {torch}+{index}。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="22"/>
        <source>Kernel</source>
        <translation>内核</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="21"/>
        <source>Kernel module</source>
        <translation>内核模块</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="200"/>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="107"/>
        <source>Little free disk space for the toolkit.</source>
        <translation>工具包可用的磁盘空间不足。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="368"/>
        <source>Load duration per test</source>
        <translation>每项测试的负载时长</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="113"/>
        <source>Logs (*.log *.txt);;All files (*)</source>
        <translation>日志 (*.log *.txt);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="188"/>
        <source>Looking at this computer…</source>
        <translation>正在检查本计算机…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="137"/>
        <source>Looking for the cause…</source>
        <translation>正在查找原因…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="214"/>
        <source>Make a &amp;plan of this fix</source>
        <translation>将此修复生成计划(&amp;P)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="137"/>
        <source>Matrix multiply: {v:.0f} TFLOP/s ({dtype})</source>
        <translation>矩阵乘法：{v:.0f} TFLOP/s（{dtype}）</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="41"/>
        <source>Memory clock</source>
        <translation>显存频率</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="39"/>
        <source>Memory controller</source>
        <translation>显存控制器</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="43"/>
        <source>Memory used</source>
        <translation>显存占用</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="185"/>
        <source>Most likely cause</source>
        <translation>最可能的原因</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="359"/>
        <source>NVIDIA &amp;repository mirror:</source>
        <translation>NVIDIA 软件源镜像(&amp;R)：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="349"/>
        <source>NVIDIA driver</source>
        <translation>NVIDIA 驱动</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="176"/>
        <source>NVIDIA has no package repository for {os}; the toolkit would come from the runfile.</source>
        <translation>NVIDIA 没有适用于 {os} 的软件包仓库；工具包将通过 runfile 安装。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="277"/>
        <source>NVML failed</source>
        <translation>NVML 失败</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="20"/>
        <source>Newest CUDA it supports</source>
        <translation>支持的最高 CUDA 版本</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="179"/>
        <source>Newest release with kernels for {gpus} on {os}{and_python}: {version}+{index} (CUDA {cuda}); the driver fully supports it.</source>
        <translation>在 {os}{and_python} 上为 {gpus} 提供内核的最新版本：{version}+{index}（CUDA {cuda}）；驱动完全支持它。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="181"/>
        <source>Newest release with kernels for {gpus} on {os}{and_python}: {version}+{index} (CUDA {cuda}); the driver needs a driver for it.</source>
        <translation>在 {os}{and_python} 上为 {gpus} 提供内核的最新版本：{version}+{index}（CUDA {cuda}）；需要更新的驱动才能运行它。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="180"/>
        <source>Newest release with kernels for {gpus} on {os}{and_python}: {version}+{index} (CUDA {cuda}); the driver runs (minor-version compatibility) it.</source>
        <translation>在 {os}{and_python} 上为 {gpus} 提供内核的最新版本：{version}+{index}（CUDA {cuda}）；驱动可以运行它（次版本兼容）。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/log_view.py" line="354"/>
        <source>Next</source>
        <translation>下一个</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/log_view.py" line="355"/>
        <source>Next match</source>
        <translation>下一个匹配</translation>
    </message>
    <message>
        <location filename="../../ui/wizard.py" line="128"/>
        <source>Next page</source>
        <translation>下一页</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="206"/>
        <source>No CUDA toolkit without an NVIDIA GPU.</source>
        <translation>没有 NVIDIA GPU，不需要 CUDA 工具包。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="184"/>
        <source>No GPU is visible because the NVIDIA driver is not working: fix it first, then ask again. Until then: the CPU build. PyTorch {version} CPU build{for_python}.</source>
        <translation>NVIDIA 驱动无法工作，所以看不到 GPU：请先修复驱动，再重新计算。在此之前使用 CPU 版。PyTorch {version} CPU 版{for_python}。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="185"/>
        <source>No NVIDIA GPU found: the CPU build of PyTorch. PyTorch {version} CPU build{for_python}.</source>
        <translation>未找到 NVIDIA GPU：使用 CPU 版 PyTorch。PyTorch {version} CPU 版{for_python}。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="88"/>
        <source>No NVIDIA GPU was found.</source>
        <translation>未找到 NVIDIA GPU。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="177"/>
        <source>No NVIDIA GPU was found; PyTorch will run on the CPU. If a GPU is installed, check that it is seated and powered (lspci lists it).</source>
        <translation>未找到 NVIDIA GPU；PyTorch 将在 CPU 上运行。如果装有 GPU，请检查它是否插好并已供电（lspci 能列出它）。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="194"/>
        <source>No NVIDIA GPU: no driver needed.</source>
        <translation>没有 NVIDIA GPU：不需要驱动。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="161"/>
        <source>No PyTorch release from {oldest} on ships kernels for {gpus} on {os}{with_python}. Use the CPU build, or build PyTorch from source for this GPU.</source>
        <translation>从 {oldest} 起，没有任何 PyTorch 版本在 {os}{with_python} 上为 {gpus} 提供内核。请使用 CPU 版，或为此 GPU 从源码编译 PyTorch。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="210"/>
        <source>No cuDNN: CPU build.</source>
        <translation>无 cuDNN：CPU 版。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="211"/>
        <source>No cuDNN: no PyTorch GPU build.</source>
        <translation>无 cuDNN：没有可用的 PyTorch GPU 版本。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="138"/>
        <source>No file chosen</source>
        <translation>未选择文件</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="181"/>
        <source>No known cause matched this text.</source>
        <translation>没有已知原因与此文本匹配。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="134"/>
        <source>No plan: {error}</source>
        <translation>无法制定计划：{error}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="192"/>
        <source>No recommendation: {error}</source>
        <translation>无法给出推荐：{error}</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="158"/>
        <source>No target Python was found; the newest PyTorch is assumed. Use --python-version X.Y to solve for yours.</source>
        <translation>未找到目标 Python；按最新版 PyTorch 计算。可用 --python-version X.Y 指定你的 Python 版本。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="183"/>
        <source>No usable NVIDIA GPU was identified: CPU build. PyTorch {version} CPU build{for_python}.</source>
        <translation>未识别出可用的 NVIDIA GPU：使用 CPU 版。PyTorch {version} CPU 版{for_python}。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="262"/>
        <source>None</source>
        <translation>（版本未知）</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="205"/>
        <source>Not available: {why}.</source>
        <translation>不可用：{why}。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="207"/>
        <source>Not chosen: no PyTorch build uses this GPU.</source>
        <translation>未选择：没有 PyTorch 版本能使用此 GPU。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="19"/>
        <source>Not verified.</source>
        <translation>尚未验证。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/base.py" line="56"/>
        <source>Note: {note}</source>
        <translation>备注：{note}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="170"/>
        <source>Nothing detected</source>
        <translation>未检测到任何内容</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="188"/>
        <source>Nothing is installed: check the GPU, PyTorch and the bandwidth.</source>
        <translation>不安装任何内容：检查 GPU、PyTorch 和带宽。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="356"/>
        <source>Nothing runs in a walkthrough.</source>
        <translation>查看模式下不会执行任何操作。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="295"/>
        <source>Nothing to install.</source>
        <translation>没有需要安装的内容。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="202"/>
        <source>Nothing to install: everything is in place. Next goes on to the verification.</source>
        <translation>无需安装：一切已就绪。点击“下一步”进行验证。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="183"/>
        <source>Nothing to report: detection found no problems.</source>
        <translation>一切正常：检测未发现问题。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="151"/>
        <source>Nothing was installed in this session.</source>
        <translation>本次会话未安装任何内容。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="164"/>
        <source>One driver cannot serve all GPUs: {conflict}. Use the newest GPU alone, or a separate machine.</source>
        <translation>一个驱动无法同时支持所有 GPU：{conflict}。请单独使用最新的 GPU，或换一台机器。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="185"/>
        <source>Only verify what is installed</source>
        <translation>仅验证已安装的内容</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="309"/>
        <source>Open &amp;session folder</source>
        <translation>打开会话文件夹(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="113"/>
        <source>Open a log</source>
        <translation>打开日志</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="210"/>
        <source>Open a log file</source>
        <translation>打开日志文件</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="124"/>
        <source>Open a snapshot or report</source>
        <translation>打开快照或报告</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="198"/>
        <source>Open a snapshot or report file</source>
        <translation>打开快照或报告文件</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="310"/>
        <source>Open the folder with this session's logs</source>
        <translation>打开包含本次会话日志的文件夹</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="17"/>
        <source>Operating system and WSL</source>
        <translation>操作系统与 WSL</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="252"/>
        <source>Optional (the PyTorch wheel brings its own CUDA runtime); if you want nvcc: </source>
        <translation>可选（PyTorch 安装包自带 CUDA 运行时）；如果需要 nvcc：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="304"/>
        <source>Overall progress</source>
        <translation>总体进度</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="358"/>
        <source>P&amp;yPI mirror URL:</source>
        <translation>PyPI 镜像地址(&amp;Y)：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="44"/>
        <source>PCIe throughput</source>
        <translation>PCIe 吞吐量</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="189"/>
        <source>Paste an error message or open a log; get the cause and a fix.</source>
        <translation>粘贴错误信息或打开日志；获取原因和修复方法。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="205"/>
        <source>Paste an error message or open a log; the wizard finds the cause and a fix.</source>
        <translation>粘贴错误信息或打开日志；向导会找出原因和修复方法。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="207"/>
        <source>Paste the error here, e.g. the last lines of a failed training run.</source>
        <translation>在此粘贴错误，例如训练失败时的最后几行输出。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="250"/>
        <source>Plain `pip install torch` on Windows installs the CPU-only build. Use the command below (it installs from the {index} index).</source>
        <translation>在 Windows 上直接运行 `pip install torch` 会安装仅 CPU 版。请使用下面的命令（它从 {index} 索引安装）。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="251"/>
        <source>Plain `pip install torch` would install {newest}+{plain}, which cannot use the GPU here. Use the command below ({torch} from the {index} index).</source>
        <translation>直接运行 `pip install torch` 会安装 {newest}+{plain}，它无法使用这里的 GPU。请使用下面的命令（从 {index} 索引安装 {torch}）。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="208"/>
        <source>Plan</source>
        <translation>计划</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="171"/>
        <source>Plan exported: {path}</source>
        <translation>计划已导出：{path}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="211"/>
        <source>Plan steps</source>
        <translation>计划步骤</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="43"/>
        <source>Power</source>
        <translation>功耗</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="40"/>
        <source>Power draw</source>
        <translation>功耗</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="159"/>
        <source>PowerShell scripts (*.ps1)</source>
        <translation>PowerShell 脚本 (*.ps1)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="358"/>
        <source>Press Start to test the GPU.</source>
        <translation>按“开始”测试 GPU。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/log_view.py" line="352"/>
        <source>Previous</source>
        <translation>上一个</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/log_view.py" line="353"/>
        <source>Previous match</source>
        <translation>上一个匹配</translation>
    </message>
    <message>
        <location filename="../../ui/wizard.py" line="129"/>
        <source>Previous page</source>
        <translation>上一页</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="362"/>
        <source>Proves PyTorch uses the GPU at the speed the hardware allows.</source>
        <translation>证明 PyTorch 能以硬件允许的速度使用 GPU。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="349"/>
        <source>PyTorch</source>
        <translation>PyTorch</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="359"/>
        <source>PyTorch &amp;index URL:</source>
        <translation>PyTorch 索引地址(&amp;I)：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="356"/>
        <source>PyTorch &amp;version:</source>
        <translation>PyTorch 版本(&amp;V)：</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="125"/>
        <source>PyTorch cannot use the GPU.</source>
        <translation>PyTorch 无法使用 GPU。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="101"/>
        <source>PyTorch is installed but cannot use the GPU.</source>
        <translation>已安装 PyTorch，但无法使用 GPU。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="100"/>
        <source>PyTorch is not installed in the target Python.</source>
        <translation>目标 Python 中未安装 PyTorch。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="157"/>
        <source>PyTorch publishes CUDA wheels for x86_64 and aarch64 only; this machine is {arch}.</source>
        <translation>PyTorch 只为 x86_64 和 aarch64 发布 CUDA 版安装包；本机是 {arch}。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="16"/>
        <source>PyTorch runs on the GPU at full speed.</source>
        <translation>PyTorch 在 GPU 上全速运行。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="17"/>
        <source>PyTorch runs on the GPU, with warnings.</source>
        <translation>PyTorch 可在 GPU 上运行，但有警告。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="123"/>
        <source>PyTorch uses the GPU and its results are correct.</source>
        <translation>PyTorch 正在使用 GPU，且计算结果正确。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="356"/>
        <source>PyTorch va&amp;riant:</source>
        <translation>PyTorch 变体(&amp;R)：</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="162"/>
        <source>PyTorch {newest} has no kernels for {gpus}; {covering} is the newest release that does.</source>
        <translation>PyTorch {newest} 没有 {gpus} 的内核；{covering} 是仍支持它的最新版本。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="248"/>
        <source>PyTorch {newest} needs Python {py_min} or newer; with Python {python} the newest is {torch}.</source>
        <translation>PyTorch {newest} 需要 Python {py_min} 或更新版本；使用 Python {python} 时最新可用的是 {torch}。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="163"/>
        <source>PyTorch {torch}+{index} has no kernels for {gpus}; the choice below serves every GPU. Hide the older GPU (CUDA_VISIBLE_DEVICES) to use newer wheels.</source>
        <translation>PyTorch {torch}+{index} 没有 {gpus} 的内核；下面的选择适用于所有 GPU。若要使用更新的安装包，请用 CUDA_VISIBLE_DEVICES 隐藏较旧的 GPU。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="139"/>
        <source>PyTorch {v}</source>
        <translation>PyTorch {v}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="23"/>
        <source>Python</source>
        <translation>Python</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="18"/>
        <source>Python and PyTorch</source>
        <translation>Python 与 PyTorch</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="246"/>
        <source>Python {python} is newer than PyTorch supports (the newest release supports {py_min}-{py_max}); {torch} is the newest with wheels for it.</source>
        <translation>Python {python} 比 PyTorch 支持的版本更新（最新的 PyTorch 支持 {py_min}-{py_max}）；{torch} 是有对应安装包的最新版本。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="247"/>
        <source>Python {python} is newer than any PyTorch release supports (newest: {newest}, Python {py_min}-{py_max}). Use Python {py_max}.</source>
        <translation>Python {python} 比所有 PyTorch 版本支持的都新（最新：{newest}，支持 Python {py_min}-{py_max}）。请使用 Python {py_max}。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="249"/>
        <source>Python {python} is older than any PyTorch release from 2.0 on supports. Use Python {py_max}.</source>
        <translation>Python {python} 比 PyTorch 2.0 及之后所有版本支持的都旧。请使用 Python {py_max}。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="189"/>
        <source>Reading the recorded machine…</source>
        <translation>正在读取已记录的机器…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="347"/>
        <source>Recommendation</source>
        <translation>推荐</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="353"/>
        <source>Recommendation details</source>
        <translation>推荐详情</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="342"/>
        <source>Recommended for this machine.</source>
        <translation>为本机推荐。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="109"/>
        <source>Report written: {path}</source>
        <translation>报告已写入：{path}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="367"/>
        <source>Rese&amp;t</source>
        <translation>重置(&amp;T)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="203"/>
        <source>Restart &amp;now</source>
        <translation>立即重启(&amp;N)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="214"/>
        <source>Restart later: the wizard will continue with the verification after the restart.</source>
        <translation>稍后重启：重启后向导将继续进行验证。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="200"/>
        <source>Restart needed</source>
        <translation>需要重启</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="285"/>
        <source>Restart the computer to use the new driver.</source>
        <translation>请重启计算机以使用新驱动。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="354"/>
        <source>Result: {verdict}</source>
        <translation>结果：{verdict}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="308"/>
        <source>Retry the failed step</source>
        <translation>重试失败的步骤</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="210"/>
        <source>Rights</source>
        <translation>权限</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="98"/>
        <source>Running inside a container: the driver belongs to the host.</source>
        <translation>正在容器中运行：驱动属于宿主机。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="293"/>
        <source>Running: {step}</source>
        <translation>正在运行：{step}</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="216"/>
        <source>R{current_branch} does not support {gpus}</source>
        <translation>R{current_branch} 不支持 {gpus}</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="199"/>
        <source>R{max_branch} is the last driver branch for {gpus}. The GPU works for CUDA programs built for it.</source>
        <translation>R{max_branch} 是 {gpus} 的最后一个驱动分支。此 GPU 可以运行为它编译的 CUDA 程序。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="371"/>
        <source>S&amp;top</source>
        <translation>停止(&amp;T)</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="41"/>
        <source>SM clock</source>
        <translation>SM 频率</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="116"/>
        <source>Save a snapshot</source>
        <translation>保存快照</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="160"/>
        <source>Save a snapshot of this machine</source>
        <translation>保存本机的快照</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="159"/>
        <source>Save s&amp;napshot…</source>
        <translation>保存快照(&amp;N)…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="119"/>
        <source>Saving the snapshot…</source>
        <translation>正在保存快照…</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/log_view.py" line="351"/>
        <source>Search the log</source>
        <translation>搜索日志</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/log_view.py" line="350"/>
        <source>Search the log (Ctrl+F)</source>
        <translation>搜索日志（Ctrl+F）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="21"/>
        <source>Secure Boot</source>
        <translation>安全启动</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="95"/>
        <source>Secure Boot is on: the NVIDIA kernel module must be signed.</source>
        <translation>安全启动已开启：NVIDIA 内核模块必须签名。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="178"/>
        <source>Set up an NVIDIA GPU for PyTorch, and prove it runs at full speed.</source>
        <translation>为 PyTorch 配置 NVIDIA GPU，并证明它能全速运行。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="185"/>
        <source>Set up this computer</source>
        <translation>配置本计算机</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="104"/>
        <source>Several CUDA toolkits are installed.</source>
        <translation>安装了多个 CUDA 工具包。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="159"/>
        <source>Shell scripts (*.sh)</source>
        <translation>Shell 脚本 (*.sh)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="355"/>
        <source>Show advanced choices</source>
        <translation>显示高级选项</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="145"/>
        <source>Snapshot saved: {path}</source>
        <translation>快照已保存：{path}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="116"/>
        <source>Snapshots (*.json)</source>
        <translation>快照 (*.json)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="125"/>
        <source>Snapshots and reports (*.json);;All files (*)</source>
        <translation>快照和报告 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="18"/>
        <source>Something does not work yet.</source>
        <translation>仍有部分功能无法正常工作。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="370"/>
        <source>Start the test</source>
        <translation>开始测试</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="293"/>
        <source>Starting…</source>
        <translation>正在启动…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="20"/>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="210"/>
        <source>Step</source>
        <translation>步骤</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="303"/>
        <source>Steps</source>
        <translation>步骤</translation>
    </message>
    <message>
        <location filename="../../ui/wizard.py" line="157"/>
        <source>Stop the running step and close? You can resume later: finished steps are skipped.</source>
        <translation>停止正在运行的步骤并关闭吗？稍后可以继续：已完成的步骤会被跳过。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="372"/>
        <source>Stop the test</source>
        <translation>停止测试</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="232"/>
        <source>Stopping…</source>
        <translation>正在停止…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="154"/>
        <source>Summary</source>
        <translation>总结</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="190"/>
        <source>Support: see a user's machine page by page, read-only. Or try a demo machine.</source>
        <translation>技术支持：逐页只读查看用户的机器。也可以试用演示机器。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="21"/>
        <source>System</source>
        <translation>系统</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="209"/>
        <source>System cuDNN {version} ({package}) matches CUDA {cuda} and supports every GPU here; PyTorch keeps using its own cuDNN {wheel_cudnn}.</source>
        <translation>系统 cuDNN {version}（{package}）与 CUDA {cuda} 匹配，并支持这里的所有 GPU；PyTorch 仍使用自带的 cuDNN {wheel_cudnn}。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="358"/>
        <source>Target &amp;virtual environment:</source>
        <translation>目标虚拟环境(&amp;V)：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="44"/>
        <source>Temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="351"/>
        <source>Testing the GPU…</source>
        <translation>正在测试 GPU…</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="174"/>
        <source>The CUDA toolkit cannot be installed: {why}.</source>
        <translation>无法安装 CUDA 工具包：{why}。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="103"/>
        <source>The CUDA toolkit is newer than the driver supports.</source>
        <translation>CUDA 工具包版本高于驱动所支持的版本。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="115"/>
        <source>The GPU cannot be used.</source>
        <translation>无法使用该 GPU。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="128"/>
        <source>The GPU gave wrong results in a numeric check.</source>
        <translation>GPU 在数值检查中给出了错误结果。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="114"/>
        <source>The GPU is usable.</source>
        <translation>GPU 可用。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="135"/>
        <source>The GPU ran at its power limit.</source>
        <translation>GPU 以其功耗上限运行。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="129"/>
        <source>The GPU runs at full speed under load.</source>
        <translation>GPU 在负载下全速运行。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="136"/>
        <source>The GPU slowed down because it got too hot.</source>
        <translation>GPU 因过热而降速。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="132"/>
        <source>The GPU stayed idle while it should have been busy.</source>
        <translation>GPU 在应当繁忙时处于空闲状态。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="134"/>
        <source>The GPU was held back by its power limit.</source>
        <translation>GPU 受功耗上限限制。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="97"/>
        <source>The GPU's PCIe link runs narrower than it can.</source>
        <translation>GPU 的 PCIe 链路宽度低于其支持的宽度。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="116"/>
        <source>The GPU's compute mode forbids running programs on it.</source>
        <translation>GPU 的计算模式禁止在其上运行程序。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="133"/>
        <source>The GPU's power limit is set below its default.</source>
        <translation>GPU 的功耗上限被设置得低于默认值。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="242"/>
        <source>The NVIDIA driver</source>
        <translation>NVIDIA 驱动</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="90"/>
        <source>The NVIDIA driver is installed but not loaded.</source>
        <translation>NVIDIA 驱动已安装，但未加载。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="89"/>
        <source>The NVIDIA driver is not installed.</source>
        <translation>未安装 NVIDIA 驱动。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="243"/>
        <source>The NVIDIA driver {current}</source>
        <translation>NVIDIA 驱动 {current} </translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="93"/>
        <source>The NVIDIA management library (NVML) could not start.</source>
        <translation>NVIDIA 管理库（NVML）无法启动。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="119"/>
        <source>The PCIe link runs below its full speed or width.</source>
        <translation>PCIe 链路未以其最高速度或宽度运行。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="339"/>
        <source>The advanced choices do not work on this machine (see below).</source>
        <translation>这些高级选项在本机上不可用（见下文）。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="172"/>
        <source>The architecture list of {torch}+{index} on {os} is {confidence}, not read from the build itself; the verify step checks it on this machine.</source>
        <translation>{os} 上 {torch}+{index} 的架构列表是{confidence}的，并非从构建本身读取；验证步骤会在本机上检查。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="122"/>
        <source>The bandwidth test failed.</source>
        <translation>带宽测试失败。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="155"/>
        <source>The commands are on the clipboard.</source>
        <translation>命令已复制到剪贴板。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="302"/>
        <source>The confirmed plan runs step by step. You can cancel at any time.</source>
        <translation>已确认的计划将逐步执行。您可以随时取消。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="155"/>
        <source>The diagnosis failed: {error}</source>
        <translation>诊断失败：{error}</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="168"/>
        <source>The driver works but its version is unknown; the choice below assumes a current R{branch} driver. Run `nvidia-smi` and check its version against the minimum below.</source>
        <translation>驱动可以工作，但版本未知；下面的选择假定是较新的 R{branch} 驱动。请运行 `nvidia-smi`，将其版本与下面的最低版本比较。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="91"/>
        <source>The driver's library and kernel module versions differ; a reboot usually fixes this.</source>
        <translation>驱动库与内核模块版本不一致；通常重启即可解决。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="102"/>
        <source>The installed PyTorch has no kernels for this GPU.</source>
        <translation>已安装的 PyTorch 不包含此 GPU 的内核。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="99"/>
        <source>The installed PyTorch is a CPU-only build.</source>
        <translation>已安装的 PyTorch 是仅 CPU 版本。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="195"/>
        <source>The installed driver is not working; `gpu-wizard diagnose` says why and how to fix it.</source>
        <translation>已安装的驱动无法工作；`gpu-wizard diagnose` 会说明原因和修复方法。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="185"/>
        <source>The installer stopped with an error: {error}</source>
        <translation>安装程序因错误而停止：{error}</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="96"/>
        <source>The kernel headers are missing; the driver cannot be built for this kernel.</source>
        <translation>缺少内核头文件；无法为此内核构建驱动。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="105"/>
        <source>The library search path points at an old CUDA version.</source>
        <translation>库搜索路径指向旧版 CUDA。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="130"/>
        <source>The load test failed.</source>
        <translation>负载测试失败。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="131"/>
        <source>The load test gave no result.</source>
        <translation>负载测试没有结果。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="121"/>
        <source>The log cannot be read: {error}</source>
        <translation>无法读取日志：{error}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="201"/>
        <source>The new driver is used after a restart. Restart now? The wizard continues with the verification when you start it again.</source>
        <translation>新驱动在重启后生效。现在重启吗？再次启动向导时将继续进行验证。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="170"/>
        <source>The open kernel module is loaded, but a GPU here is older than Turing and needs the proprietary module.</source>
        <translation>当前加载的是开源内核模块，但这里有一块早于 Turing 的 GPU，需要专有模块。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="94"/>
        <source>The open-source nouveau driver is loaded and blocks the NVIDIA driver.</source>
        <translation>已加载开源 nouveau 驱动，它会阻止 NVIDIA 驱动。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="113"/>
        <source>The report could not be written: {error}</source>
        <translation>无法写入报告：{error}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="169"/>
        <source>The script could not be written: {error}</source>
        <translation>无法写入脚本：{error}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="149"/>
        <source>The snapshot could not be saved: {error}</source>
        <translation>无法保存快照：{error}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="155"/>
        <source>The verdict, and what changed.</source>
        <translation>结论，以及所做的更改。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="254"/>
        <source>The verification could not run: {error}</source>
        <translation>无法运行验证：{error}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="118"/>
        <source>There is no recommendation to plan from.</source>
        <translation>没有可用于制定计划的推荐。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="313"/>
        <source>This choice cannot be used:</source>
        <translation>此选项无法使用：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="157"/>
        <source>This file cannot be opened: {error}</source>
        <translation>无法打开此文件：{error}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="164"/>
        <source>This fix cannot be turned into a plan: {error}</source>
        <translation>无法将此修复生成计划：{error}</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="155"/>
        <source>This operating system has no NVIDIA CUDA wheels; only the CPU build of PyTorch can be installed.</source>
        <translation>此操作系统没有 NVIDIA CUDA 版的 PyTorch 安装包；只能安装 CPU 版 PyTorch。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="173"/>
        <source>This wheel has no compiled kernels for one GPU; the driver compiles them from PTX at first use (slow start).</source>
        <translation>此安装包没有为其中一块 GPU 编译好的内核；驱动会在首次使用时从 PTX 编译（启动较慢）。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="184"/>
        <source>This wizard will:</source>
        <translation>本向导将：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="269"/>
        <source>Time left: {t}</source>
        <translation>剩余时间：{t}</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="40"/>
        <source>To GPU</source>
        <translation>传入 GPU</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="23"/>
        <source>Toolkit</source>
        <translation>工具包</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="357"/>
        <source>Toolkit install &amp;method:</source>
        <translation>工具包安装方式(&amp;M)：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="204"/>
        <source>Troubleshoot</source>
        <translation>故障排查</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="186"/>
        <source>Troubleshoot an error</source>
        <translation>排查错误</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="312"/>
        <source>Troubleshoot this error</source>
        <translation>排查此错误</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="215"/>
        <source>Turn the fix into a plan</source>
        <translation>将修复方法生成计划</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="190"/>
        <source>Under WSL 2 the driver lives on Windows: install or update the NVIDIA Windows driver to {need} or newer (now: {now}{why_note}). Never install a Linux NVIDIA driver inside WSL.</source>
        <translation>在 WSL 2 下，驱动位于 Windows：请安装 NVIDIA Windows 驱动或将其更新到 {need} 或更新版本（当前：{now}{why_note}）。切勿在 WSL 内安装 Linux 版 NVIDIA 驱动。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="189"/>
        <source>Under WSL 2 the driver lives on Windows: keep the Windows driver {current} (it is at least {need}). Never install a Linux NVIDIA driver inside WSL.</source>
        <translation>在 WSL 2 下，驱动位于 Windows：保留 Windows 驱动 {current}（不低于 {need}）。切勿在 WSL 内安装 Linux 版 NVIDIA 驱动。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="20"/>
        <source>Under load</source>
        <translation>负载测试</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="187"/>
        <source>Upgrade to driver branch R{branch} ({flavour} kernel module): {why}; R{branch} runs {torch}+{index} with {compat} compatibility.{cap}{no_package}</source>
        <translation>升级到驱动分支 R{branch}（{flavour}内核模块）：{why}；R{branch} 以{compat}兼容方式运行 {torch}+{index}。{cap}{no_package}</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="39"/>
        <source>Used</source>
        <translation>已用</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="43"/>
        <source>Utilization</source>
        <translation>利用率</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="376"/>
        <source>Verdicts</source>
        <translation>结论</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="361"/>
        <source>Verify and stress</source>
        <translation>验证与压力测试</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="20"/>
        <source>Version</source>
        <translation>版本</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="348"/>
        <source>Versions that work together on this machine, and why.</source>
        <translation>在本机上可以协同工作的版本，以及原因。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="22"/>
        <source>WSL</source>
        <translation>WSL</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="156"/>
        <source>WSL 1 cannot use the GPU. Convert this distribution to WSL 2: wsl --set-version &lt;distro&gt; 2</source>
        <translation>WSL 1 无法使用 GPU。请将此发行版转换为 WSL 2：wsl --set-version &lt;distro&gt; 2</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="111"/>
        <source>WSL 2 cannot see the GPU (/dev/dxg is missing).</source>
        <translation>WSL 2 无法看到 GPU（缺少 /dev/dxg）。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="109"/>
        <source>WSL 2 may use too little memory for training.</source>
        <translation>WSL 2 可用内存可能不足以进行训练。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="110"/>
        <source>WSL is not installed.</source>
        <translation>未安装 WSL。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/base.py" line="52"/>
        <source>Walkthrough of a recorded machine: {machine}, recorded {when} ({file}). Read-only: nothing runs on this computer; installs are a dry run.</source>
        <translation>正在查看已记录的机器：{machine}，记录于 {when}（{file}）。只读：本机不会执行任何操作；安装为演练。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="352"/>
        <source>Warnings</source>
        <translation>警告</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="177"/>
        <source>Welcome</source>
        <translation>欢迎</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="199"/>
        <source>What</source>
        <translation>项目</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="198"/>
        <source>What this computer has now. Nothing has been changed.</source>
        <translation>本计算机的当前状态。尚未做任何更改。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="178"/>
        <source>What to do: {hint}</source>
        <translation>处理方法：{hint}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="156"/>
        <source>What was done</source>
        <translation>已完成的操作</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="328"/>
        <source>Why:</source>
        <translation>原因：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="335"/>
        <source>Working out what fits this machine…</source>
        <translation>正在计算适合本机的配置…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="337"/>
        <source>You changed the advanced choices: press Apply to check them.</source>
        <translation>您修改了高级选项：请按“应用”进行检查。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="259"/>
        <source>administrator</source>
        <translation>管理员</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="22"/>
        <source>already done</source>
        <translation>已完成（跳过）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/base.py" line="51"/>
        <source>an unknown time</source>
        <translation>未知时间</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="293"/>
        <source>bundled with PyTorch</source>
        <translation>随 PyTorch 附带</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="22"/>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="349"/>
        <source>cuDNN</source>
        <translation>cuDNN</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="126"/>
        <source>cuDNN is not available to PyTorch.</source>
        <translation>PyTorch 无法使用 cuDNN。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="208"/>
        <source>cuDNN {version} comes with the PyTorch wheel (a pip dependency); no system cuDNN is needed.</source>
        <translation>cuDNN {version} 随 PyTorch 安装包提供（pip 依赖）；不需要系统 cuDNN。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="21"/>
        <source>done</source>
        <translation>完成</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="220"/>
        <source>driver {current} cannot run PyTorch {why_torch}+{why_index}, the newest for this GPU</source>
        <translation>驱动 {current} 无法运行此 GPU 可用的最新版本 PyTorch {why_torch}+{why_index}</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="221"/>
        <source>driver {current} cannot run PyTorch {why_torch}+{why_index}, the newest for this GPU (it runs {why_runs} at most)</source>
        <translation>驱动 {current} 无法运行此 GPU 可用的最新版本 PyTorch {why_torch}+{why_index}（它最多能运行 {why_runs}）</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="214"/>
        <source>driver {current} is not usable</source>
        <translation>驱动 {current} 不可用</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="217"/>
        <source>driver {current} predates this GPU (it needs R{min_branch} or newer)</source>
        <translation>驱动 {current} 早于此 GPU（需要 R{min_branch} 或更新版本）</translation>
    </message>
    <message>
        <location filename="../../ui/wizard.py" line="123"/>
        <source>dry run</source>
        <translation>演练</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="230"/>
        <source>every GPU here</source>
        <translation>这里的所有 GPU</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="21"/>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="34"/>
        <source>fine</source>
        <translation>正常</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="278"/>
        <source>from secondary sources</source>
        <translation>来自二手资料</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="275"/>
        <source>full</source>
        <translation>完全</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="278"/>
        <source>inferred</source>
        <translation>推断</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="289"/>
        <source>install CUDA {v}</source>
        <translation>安装 CUDA {v}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="278"/>
        <source>install the driver</source>
        <translation>安装驱动</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="182"/>
        <source>install with a live log, asking for administrator rights only where needed</source>
        <translation>安装时实时显示日志，仅在需要时请求管理员权限</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="27"/>
        <source>installed, not loaded</source>
        <translation>已安装，未加载</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="277"/>
        <source>keep the installed driver</source>
        <translation>保留已安装的驱动</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="28"/>
        <source>library and kernel module differ</source>
        <translation>库与内核模块不一致</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="188"/>
        <source>line {n}</source>
        <translation>第 {n} 行</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="179"/>
        <source>look at this computer: GPU, driver, CUDA, Python and PyTorch</source>
        <translation>检查本计算机：GPU、驱动、CUDA、Python 和 PyTorch</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="253"/>
        <source>matches the CUDA {wheel} runtime inside the PyTorch wheel (for building extensions)</source>
        <translation>与 PyTorch 安装包内的 CUDA {wheel} 运行时一致（用于编译扩展）</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="275"/>
        <source>minor-version</source>
        <translation>次版本</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="184"/>
        <source>needs administrator rights</source>
        <translation>需要管理员权限</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="286"/>
        <source>needs at least {v}</source>
        <translation>至少需要 {v}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="34"/>
        <source>needs attention</source>
        <translation>需要注意</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="30"/>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="259"/>
        <source>no CUDA toolkit in {repo} is both supported by the GPUs and at most CUDA {max_cuda} (the driver's limit)</source>
        <translation>{repo} 中没有既被这些 GPU 支持、又不高于 CUDA {max_cuda}（驱动上限）的 CUDA 工具包</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="260"/>
        <source>no CUDA toolkit is both supported by the GPUs and at most CUDA {max_cuda} (the driver's limit)</source>
        <translation>没有既被这些 GPU 支持、又不高于 CUDA {max_cuda}（驱动上限）的 CUDA 工具包</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="213"/>
        <source>no NVIDIA driver is installed</source>
        <translation>未安装 NVIDIA 驱动</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="302"/>
        <source>no PyTorch release can use this GPU here</source>
        <translation>没有可在此处使用该 GPU 的 PyTorch 版本</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="277"/>
        <source>no communication</source>
        <translation>无法通信</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="232"/>
        <source>no driver branch supports all these GPUs (one needs R{min_branch} or newer, another ends at R{max_branch})</source>
        <translation>没有一个驱动分支支持所有这些 GPU（一块需要 R{min_branch} 或更新版本，另一块止于 R{max_branch}）</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="258"/>
        <source>no driver to run it</source>
        <translation>没有能运行它的驱动</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="261"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="32"/>
        <source>none (optional: PyTorch brings its own CUDA runtime)</source>
        <translation>无（可选：PyTorch 自带 CUDA 运行时）</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="228"/>
        <source>none seen</source>
        <translation>未检测到</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="34"/>
        <source>not detected</source>
        <translation>未检测到</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="27"/>
        <source>not installed</source>
        <translation>未安装</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="277"/>
        <source>not loaded</source>
        <translation>未加载</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/bandwidth.py" line="33"/>
        <source>not measured</source>
        <translation>未测量</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="291"/>
        <source>not needed: the PyTorch wheel brings its own CUDA runtime</source>
        <translation>不需要：PyTorch 安装包自带 CUDA 运行时</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="28"/>
        <source>not responding</source>
        <translation>无响应</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="279"/>
        <source>nothing to do</source>
        <translation>无需操作</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="23"/>
        <source>nvcc</source>
        <translation>nvcc</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="175"/>
        <source>nvcc {version} differs from the wheel's CUDA {wheel}; extensions still build within CUDA {major}.x.</source>
        <translation>nvcc {version} 与安装包的 CUDA {wheel} 不同；在 CUDA {major}.x 范围内扩展仍可编译。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="92"/>
        <source>nvidia-smi cannot talk to the driver.</source>
        <translation>nvidia-smi 无法与驱动通信。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="276"/>
        <source>open</source>
        <translation>开源</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="21"/>
        <source>passed</source>
        <translation>通过</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="34"/>
        <source>problem</source>
        <translation>有问题</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="276"/>
        <source>proprietary</source>
        <translation>专有</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="29"/>
        <source>provided by the Windows host</source>
        <translation>由 Windows 主机提供</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="180"/>
        <source>recommend versions that work together, and say why</source>
        <translation>推荐可协同工作的版本，并说明原因</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="251"/>
        <source>recommended</source>
        <translation>推荐</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="143"/>
        <source>retrying from the failed step</source>
        <translation>从失败的步骤重试</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="21"/>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="156"/>
        <source>seconds</source>
        <translation>秒</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="181"/>
        <source>show every command before anything runs; you confirm</source>
        <translation>在执行前显示每条命令，由您确认</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="21"/>
        <source>skipped</source>
        <translation>已跳过</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="293"/>
        <source>system package</source>
        <translation>系统软件包</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="183"/>
        <source>test the GPU under load with live charts, and write a report</source>
        <translation>用实时图表对 GPU 进行负载测试，并生成报告</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="278"/>
        <source>the Windows host provides the driver</source>
        <translation>驱动由 Windows 主机提供</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="257"/>
        <source>the closest to the wheel's CUDA {wheel}, which the GPUs here cannot use</source>
        <translation>最接近安装包 CUDA {wheel} 的版本（这里的 GPU 无法使用该版本）</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="256"/>
        <source>the closest to the wheel's CUDA {wheel}, which the {repo} repository does not carry</source>
        <translation>最接近安装包 CUDA {wheel} 的版本（{repo} 仓库不提供该版本）</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="215"/>
        <source>the installed driver is not working ({state}) and its version is unknown</source>
        <translation>已安装的驱动无法工作（{state}），且版本未知</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="238"/>
        <source>the newest</source>
        <translation>最新版</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="255"/>
        <source>the newest CUDA {major}.x the driver supports (the wheel's CUDA {wheel} is newer than the driver's limit, {max_cuda})</source>
        <translation>驱动支持的最新 CUDA {major}.x（安装包的 CUDA {wheel} 超过了驱动上限 {max_cuda}）</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="254"/>
        <source>the newest the driver supports</source>
        <translation>驱动支持的最新版本</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="231"/>
        <source>these GPUs need different kernel modules (open required by one, impossible on another)</source>
        <translation>这些 GPU 需要不同的内核模块（一块必须用开源模块，另一块不能用）</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="240"/>
        <source>this system</source>
        <translation>此系统</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="29"/>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="277"/>
        <source>upgrade the driver</source>
        <translation>升级驱动</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="278"/>
        <source>verified</source>
        <translation>已核实</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="277"/>
        <source>version mismatch</source>
        <translation>版本不一致</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="21"/>
        <source>waiting</source>
        <translation>等待中</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="21"/>
        <source>warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="27"/>
        <source>working</source>
        <translation>正常</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="258"/>
        <source>would run (dry run)</source>
        <translation>将会执行（演练）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="30"/>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="227"/>
        <source>{current}</source>
        <translation>{current}</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="229"/>
        <source>{gpu}</source>
        <translation>{gpu}</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="159"/>
        <source>{gpu} is a Jetson/Tegra GPU: use NVIDIA JetPack's PyTorch builds, not these wheels.</source>
        <translation>{gpu} 是 Jetson/Tegra GPU：请使用 NVIDIA JetPack 提供的 PyTorch，而不是这些安装包。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="237"/>
        <source>{newest}</source>
        <translation>{newest}</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/log_view.py" line="316"/>
        <source>{n} matches</source>
        <translation>{n} 个匹配</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="367"/>
        <source>{n} s</source>
        <translation>{n} 秒</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="196"/>
        <source>{n} steps; {r} need administrator rights (you will be asked once).</source>
        <translation>共 {n} 个步骤；其中 {r} 个需要管理员权限（只会询问一次）。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="203"/>
        <source>{opt}CUDA {version} (installer): {why}.</source>
        <translation>{opt}CUDA {version}（安装程序）：{why}。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="202"/>
        <source>{opt}CUDA {version} (runfile): {why}.</source>
        <translation>{opt}CUDA {version}（runfile）：{why}。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="204"/>
        <source>{opt}CUDA {version} from NVIDIA's Windows installer: {why}.</source>
        <translation>{opt}来自 NVIDIA Windows 安装程序的 CUDA {version}：{why}。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="200"/>
        <source>{opt}{package} from NVIDIA's {repo} repository: {why}.</source>
        <translation>{opt}来自 NVIDIA {repo} 仓库的 {package}：{why}。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="201"/>
        <source>{opt}{package} from NVIDIA's {repo} repository: {why}. The WSL repository never installs a driver.</source>
        <translation>{opt}来自 NVIDIA {repo} 仓库的 {package}：{why}。WSL 仓库从不安装驱动。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="239"/>
        <source>{os}</source>
        <translation>{os}</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="245"/>
        <source>{subject} is installed but not working ({state}), so no GPU is visible.{hint}</source>
        <translation>{subject}已安装但无法工作（{state}），因此看不到 GPU。{hint}</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="244"/>
        <source>{subject} is installed but not working ({state}).{hint}</source>
        <translation>{subject}已安装但无法工作（{state}）。{hint}</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/bandwidth.py" line="35"/>
        <source>{v:.1f} of {c:.1f} {u} ({p:.0f}%)</source>
        <translation>{v:.1f} / {c:.1f} {u}（{p:.0f}%）</translation>
    </message>
</context>
</TS>
