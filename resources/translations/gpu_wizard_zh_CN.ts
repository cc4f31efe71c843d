<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>gpu_wizard</name>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="413"/>
        <source>&amp;Advanced</source>
        <translation>高级(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="508"/>
        <source>&amp;Burn-in:</source>
        <translation>烤机(&amp;B)：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="439"/>
        <source>&amp;Cancel</source>
        <translation>取消(&amp;C)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="419"/>
        <source>&amp;Certificate bundle (CA file):</source>
        <translation>证书包（CA 文件）(&amp;C)：</translation>
    </message>
    <message>
        <location filename="../../ui/wizard.py" line="288"/>
        <source>&amp;Close</source>
        <translation>关闭(&amp;C)</translation>
    </message>
    <message>
        <location filename="../../ui/wizard.py" line="378"/>
        <source>&amp;Close the wizard</source>
        <translation>关闭向导(&amp;C)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="272"/>
        <source>&amp;Copy commands</source>
        <translation>复制命令(&amp;C)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="293"/>
        <source>&amp;Demo machines:</source>
        <translation>演示机器(&amp;D)：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="260"/>
        <source>&amp;Diagnose</source>
        <translation>诊断(&amp;D)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="255"/>
        <source>&amp;Error text or log:</source>
        <translation>错误文本或日志(&amp;E)：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="274"/>
        <source>&amp;Export as script…</source>
        <translation>导出为脚本(&amp;E)…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="203"/>
        <source>&amp;Findings:</source>
        <translation>发现(&amp;F)：</translation>
    </message>
    <message>
        <location filename="../../ui/wizard.py" line="289"/>
        <source>&amp;Finish</source>
        <translation>完成(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="503"/>
        <source>&amp;GPU shown:</source>
        <translation>显示的 GPU(&amp;G)：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="263"/>
        <source>&amp;Install &gt;</source>
        <translation>安装(&amp;I) &gt;</translation>
    </message>
    <message>
        <location filename="../../ui/wizard.py" line="324"/>
        <source>&amp;Keep installing</source>
        <translation>继续安装(&amp;K)</translation>
    </message>
    <message>
        <location filename="../../ui/wizard.py" line="328"/>
        <source>&amp;Keep testing</source>
        <translation>继续测试(&amp;K)</translation>
    </message>
    <message>
        <location filename="../../ui/wizard.py" line="377"/>
        <source>&amp;Keep working</source>
        <translation>继续使用(&amp;K)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="305"/>
        <source>&amp;Language:</source>
        <translation>语言(&amp;L)：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="302"/>
        <source>&amp;Later</source>
        <translation>稍后(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="502"/>
        <source>&amp;Load per test:</source>
        <translation>每项测试负载时长(&amp;L)：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="267"/>
        <source>&amp;Network settings</source>
        <translation>网络设置(&amp;N)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="257"/>
        <source>&amp;Next &gt;</source>
        <translation>下一步(&amp;N) &gt;</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="295"/>
        <source>&amp;Open a file…</source>
        <translation>打开文件(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="258"/>
        <source>&amp;Open a log…</source>
        <translation>打开日志(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="205"/>
        <source>&amp;Re-scan</source>
        <translation>重新扫描(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="106"/>
        <source>&amp;Restart WSL</source>
        <translation>重启 WSL(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="302"/>
        <source>&amp;Restart the computer now</source>
        <translation>立即重启计算机(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="441"/>
        <source>&amp;Retry failed step</source>
        <translation>重试失败的步骤(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="261"/>
        <source>&amp;Run as a dry run &gt;</source>
        <translation>演练运行(&amp;R) &gt;</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="207"/>
        <source>&amp;Save snapshot…</source>
        <translation>保存快照(&amp;S)…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="259"/>
        <source>&amp;Show what happened &gt;</source>
        <translation>查看发生了什么(&amp;S) &gt;</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="512"/>
        <source>&amp;Start</source>
        <translation>开始(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../ui/wizard.py" line="329"/>
        <source>&amp;Stop and close</source>
        <translation>停止并关闭(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="211"/>
        <source>&amp;Troubleshoot</source>
        <translation>故障排除(&amp;T)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="445"/>
        <source>&amp;Troubleshoot this error</source>
        <translation>排查此错误(&amp;T)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="165"/>
        <source>&amp;What a real install would do:</source>
        <translation>实际安装将执行的操作(&amp;W)：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="163"/>
        <source>&amp;What was done on the user's machine:</source>
        <translation>在用户机器上做了什么(&amp;W)：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="165"/>
        <source>&amp;What was done:</source>
        <translation>已完成的操作(&amp;W)：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="493"/>
        <source>(stopped early)</source>
        <translation>（提前停止）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="223"/>
        <source>1 of them needs administrator rights: you will be asked for your password once.</source>
        <translation>其中 1 个需要管理员权限：会请您输入一次密码。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="220"/>
        <source>1 step.</source>
        <translation>1 个步骤。</translation>
    </message>
    <message>
        <location filename="../../ui/wizard.py" line="287"/>
        <source>&lt; &amp;Back</source>
        <translation>&lt; 上一步(&amp;B)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="424"/>
        <source>A step failed: {step}. Read the log, then Retry, or press Next to find the cause and a fix.</source>
        <translation>有步骤失败：{step}。请查看日志，然后重试，或按“下一步”查找原因和修复方法。</translation>
    </message>
    <message>
        <location filename="../../ui/wizard.py" line="326"/>
        <source>A test is running</source>
        <translation>测试正在运行</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="189"/>
        <source>A walkthrough has no GPU to test, and the report recorded no verification.</source>
        <translation>查看模式下没有可测试的 GPU，且报告中没有记录验证结果。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="424"/>
        <source>A&amp;pply</source>
        <translation>应用(&amp;P)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="417"/>
        <source>All steps finished.</source>
        <translation>所有步骤已完成。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="416"/>
        <source>Also install the CUDA &amp;toolkit (nvcc):</source>
        <translation>同时安装 CUDA 工具包（nvcc）(&amp;T)：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="234"/>
        <source>Also possible</source>
        <translation>其他可能</translation>
    </message>
    <message>
        <location filename="../../ui/wizard.py" line="322"/>
        <source>An installation is running</source>
        <translation>正在安装</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="431"/>
        <source>As recorded on the user's machine (nothing ran here):</source>
        <translation>用户机器上记录的情况（此处未执行任何操作）：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="188"/>
        <source>As recorded on the user's machine; nothing ran on this computer.</source>
        <translation>这是用户机器上的记录；本机没有运行任何内容。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="191"/>
        <source>As the user's wizard detected it: 1 finding.</source>
        <translation>用户的向导检测到的情况：1 项发现。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="192"/>
        <source>As the user's wizard detected it: {n} findings.</source>
        <translation>用户的向导检测到的情况：{n} 项发现。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/log_view.py" line="449"/>
        <source>Auto-scroll paused: follow the end</source>
        <translation>自动滚动已暂停：跟随末尾</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="427"/>
        <source>Back to the recommendation</source>
        <translation>恢复为推荐值</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="23"/>
        <source>Bandwidth</source>
        <translation>带宽</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="518"/>
        <source>Bandwidth against the theoretical ceiling</source>
        <translation>带宽与理论上限对比</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="24"/>
        <source>Between the GPUs</source>
        <translation>GPU 之间</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="216"/>
        <source>Building the plan…</source>
        <translation>正在制定计划…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="24"/>
        <source>Burn-in</source>
        <translation>烤机</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="511"/>
        <source>Burn-in after the tests: every GPU at full load, each result checked</source>
        <translation>测试之后烤机：每块 GPU 满载运行，每个结果都核对</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="252"/>
        <source>Burn-in: {phase}</source>
        <translation>烤机：{phase}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="17"/>
        <source>CUDA and cuDNN</source>
        <translation>CUDA 与 cuDNN</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="345"/>
        <source>CUDA runtime {v}</source>
        <translation>CUDA 运行时 {v}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="408"/>
        <source>CUDA toolkit</source>
        <translation>CUDA 工具包</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="440"/>
        <source>Cancel the installation</source>
        <translation>取消安装</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="421"/>
        <source>Cancelled. Press Retry to continue from the step that was stopped, or Next for the summary.</source>
        <translation>已取消。按“重试”从被停止的步骤继续，或按“下一步”查看总结。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="176"/>
        <source>Cancelling: stopping the running command…</source>
        <translation>正在取消：停止正在运行的命令…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="233"/>
        <source>Certificates (*.pem *.crt *.cer);;All files (*)</source>
        <translation>证书 (*.pem *.crt *.cer);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="368"/>
        <source>Change it, or press Reset to go back to the recommendation.</source>
        <translation>请修改它，或按“重置”恢复为推荐值。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="425"/>
        <source>Chart: {title}</source>
        <translation>图表：{title}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="425"/>
        <source>Check these choices</source>
        <translation>检查这些选项</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="232"/>
        <source>Choose the certificate bundle</source>
        <translation>选择证书包</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="60"/>
        <source>Clocks</source>
        <translation>频率</translation>
    </message>
    <message>
        <location filename="../../ui/wizard.py" line="295"/>
        <source>Close the wizard</source>
        <translation>关闭向导</translation>
    </message>
    <message>
        <location filename="../../ui/wizard.py" line="374"/>
        <source>Close the wizard?</source>
        <translation>关闭向导？</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="271"/>
        <source>Commands and explanation of the selected step</source>
        <translation>所选步骤的命令与说明</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="401"/>
        <source>Compatibility data: {v}</source>
        <translation>兼容性数据：{v}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="21"/>
        <source>Container</source>
        <translation>容器</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="273"/>
        <source>Copy all commands to the clipboard</source>
        <translation>将所有命令复制到剪贴板</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="294"/>
        <source>Demo machines</source>
        <translation>演示机器</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="206"/>
        <source>Detect again</source>
        <translation>重新检测</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="285"/>
        <source>Detect, recommend, plan, install, then verify and stress the GPU.</source>
        <translation>检测、推荐、计划、安装，然后验证并对 GPU 进行压力测试。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="201"/>
        <source>Detected</source>
        <translation>检测值</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="202"/>
        <source>Detected facts</source>
        <translation>检测结果</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="113"/>
        <source>Detection failed: {error}</source>
        <translation>检测失败：{error}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="189"/>
        <source>Detection finished: 1 finding.</source>
        <translation>检测完成：1 项发现。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="189"/>
        <source>Detection finished: {n} findings.</source>
        <translation>检测完成：{n} 条发现。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="262"/>
        <source>Diagnosis</source>
        <translation>诊断</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="243"/>
        <source>Downloading {file}: {done}</source>
        <translation>正在下载 {file}：{done}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="240"/>
        <source>Downloading {file}: {done} of {total} ({percent}%)</source>
        <translation>正在下载 {file}：{done} / {total}（{percent}%）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="16"/>
        <source>Driver</source>
        <translation>驱动</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="417"/>
        <source>Dry run finished: nothing was changed.</source>
        <translation>演练结束：未做任何更改。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="427"/>
        <source>Dry run: </source>
        <translation>演练：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="190"/>
        <source>Dry run: nothing was changed on this computer.</source>
        <translation>演练：本计算机上未做任何更改。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="231"/>
        <source>Dry run: nothing will be changed on this computer.</source>
        <translation>演练：不会更改本计算机上的任何内容。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="45"/>
        <source>Enter your network's proxy: press “Network settings”, fill in HTTPS proxy (e.g. http://proxy.example.com:8080), then Apply.</source>
        <translation>请填写您网络的代理：按“网络设置”，填写 HTTPS 代理（例如 http://proxy.example.com:8080），再按“应用”。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="257"/>
        <source>Error text</source>
        <translation>错误文本</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="268"/>
        <source>Every step and command, before anything runs.</source>
        <translation>在执行任何操作之前，列出每个步骤和命令。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="241"/>
        <source>Evidence:</source>
        <translation>证据：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="207"/>
        <source>Export &amp;report…</source>
        <translation>导出报告(&amp;R)…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="180"/>
        <source>Export the plan as a script</source>
        <translation>将计划导出为脚本</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="275"/>
        <source>Export the plan as a shell script</source>
        <translation>将计划导出为 Shell 脚本</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="130"/>
        <source>Export the report</source>
        <translation>导出报告</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="266"/>
        <source>Export the report for support</source>
        <translation>导出报告给技术支持</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="261"/>
        <source>Find the cause</source>
        <translation>查找原因</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="214"/>
        <source>Find the cause of the failure</source>
        <translation>查找失败原因</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="204"/>
        <source>Findings</source>
        <translation>发现</translation>
    </message>
    <message>
        <location filename="../../ui/wizard.py" line="296"/>
        <source>Finish</source>
        <translation>完成</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="249"/>
        <source>Fix:</source>
        <translation>修复：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/log_view.py" line="450"/>
        <source>Follow the end of the log</source>
        <translation>跟随日志末尾</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/log_view.py" line="449"/>
        <source>Following the end</source>
        <translation>正在跟随末尾</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="21"/>
        <source>Free disk</source>
        <translation>可用磁盘空间</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="56"/>
        <source>From GPU</source>
        <translation>传出 GPU</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="16"/>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <location filename="../../ui/wizard.py" line="285"/>
        <source>GPU Setup Wizard</source>
        <translation>GPU 配置向导</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="23"/>
        <source>GPU device</source>
        <translation>GPU 设备</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="62"/>
        <source>GPU memory</source>
        <translation>显存</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="49"/>
        <source>GPU memory (device to device)</source>
        <translation>GPU 显存（设备到设备）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="179"/>
        <source>GPU memory: {v:.0f} GB/s</source>
        <translation>GPU 显存：{v:.0f} GB/s</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="504"/>
        <source>GPU shown in the charts</source>
        <translation>图表中显示的 GPU</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="57"/>
        <source>GPU temperature</source>
        <translation>GPU 温度</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="47"/>
        <source>GPU to host (pinned)</source>
        <translation>GPU 到主机（锁页内存）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="23"/>
        <source>GPU usable from PyTorch</source>
        <translation>PyTorch 能否使用 GPU</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/phases.py" line="12"/>
        <source>GPU-to-GPU copies</source>
        <translation>GPU 间复制</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="42"/>
        <source>Give the wizard your organisation's certificate bundle: press “Network settings”, choose the CA file (your IT department has it), then Apply. Check the computer's date and time too. Do not turn certificate checks off.</source>
        <translation>请把贵单位的证书包交给向导：按“网络设置”，选择 CA 文件（可向 IT 部门索取），再按“应用”。同时检查电脑的日期和时间。不要关闭证书校验。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="131"/>
        <source>HTML report (*.html);;Markdown (*.md);;JSON (*.json)</source>
        <translation>HTML 报告 (*.html);;Markdown (*.md);;JSON (*.json)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="419"/>
        <source>HTTPS &amp;proxy:</source>
        <translation>HTTPS 代理(&amp;P)：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="48"/>
        <source>Host to GPU (pageable)</source>
        <translation>主机到 GPU（可分页内存）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="47"/>
        <source>Host to GPU (pinned)</source>
        <translation>主机到 GPU（锁页内存）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="177"/>
        <source>Host to GPU: {v:.1f} GB/s</source>
        <translation>主机到 GPU：{v:.1f} GB/s</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="435"/>
        <source>Install</source>
        <translation>安装</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="435"/>
        <source>Install (dry run)</source>
        <translation>安装（演练）</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/log_view.py" line="451"/>
        <source>Installation log</source>
        <translation>安装日志</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="349"/>
        <source>Installed inside Ubuntu under WSL 2, as the plan sets up.</source>
        <translation>按计划安装在 WSL 2 中的 Ubuntu 里。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="222"/>
        <source>It needs administrator rights: you will be asked for your password once.</source>
        <translation>它需要管理员权限：会请您输入一次密码。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="21"/>
        <source>Kernel</source>
        <translation>内核</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="20"/>
        <source>Kernel module</source>
        <translation>内核模块</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="306"/>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="507"/>
        <source>Load duration per test</source>
        <translation>每项测试的负载时长</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="143"/>
        <source>Logs (*.log *.txt);;All files (*)</source>
        <translation>日志 (*.log *.txt);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="185"/>
        <source>Looking at this computer…</source>
        <translation>正在检查本计算机…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="167"/>
        <source>Looking for the cause…</source>
        <translation>正在查找原因…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="263"/>
        <source>Make a &amp;plan of this fix</source>
        <translation>将此修复生成计划(&amp;P)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="182"/>
        <source>Matrix multiply: {v:.0f} TFLOP/s ({dtype})</source>
        <translation>矩阵乘法：{v:.0f} TFLOP/s（{dtype}）</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="305"/>
        <source>Matrix products</source>
        <translation>矩阵乘法</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="305"/>
        <source>Memory bandwidth</source>
        <translation>显存带宽</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="57"/>
        <source>Memory clock</source>
        <translation>显存频率</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="55"/>
        <source>Memory controller</source>
        <translation>显存控制器</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="59"/>
        <source>Memory used</source>
        <translation>显存占用</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="35"/>
        <source>Minor-version compatibility: a driver for CUDA 12.0 or later runs programs built with any CUDA 12.x (the same for 13.x).</source>
        <translation>次版本兼容：支持 CUDA 12.0 或更高版本的驱动可以运行用任意 CUDA 12.x 构建的程序（13.x 同理）。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="234"/>
        <source>Most likely cause</source>
        <translation>最可能的原因</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="418"/>
        <source>NVIDIA &amp;repository mirror:</source>
        <translation>NVIDIA 软件源镜像(&amp;R)：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="408"/>
        <source>NVIDIA driver</source>
        <translation>NVIDIA 驱动</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="28"/>
        <source>NVML failed</source>
        <translation>NVML 失败</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="19"/>
        <source>Newest CUDA it supports</source>
        <translation>支持的最高 CUDA 版本</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/log_view.py" line="447"/>
        <source>Next</source>
        <translation>下一个</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/log_view.py" line="448"/>
        <source>Next match</source>
        <translation>下一个匹配</translation>
    </message>
    <message>
        <location filename="../../ui/wizard.py" line="293"/>
        <source>Next page</source>
        <translation>下一页</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="228"/>
        <source>No known GPU setup error was recognised in this text.</source>
        <translation>在这段文字中没有识别出已知的 GPU 配置错误。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="133"/>
        <source>No plan was confirmed: go back to the Plan page.</source>
        <translation>尚未确认计划：请返回“计划”页。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="159"/>
        <source>No plan: {error}</source>
        <translation>无法制定计划：{error}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="219"/>
        <source>No recommendation: {error}</source>
        <translation>无法给出推荐：{error}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="227"/>
        <source>None needs administrator rights.</source>
        <translation>都不需要管理员权限。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="27"/>
        <source>Not verified.</source>
        <translation>尚未验证。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/base.py" line="79"/>
        <source>Note: {note}</source>
        <translation>备注：{note}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="161"/>
        <source>Nothing detected</source>
        <translation>未检测到任何内容</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="286"/>
        <source>Nothing is installed: check the GPU, PyTorch and the bandwidth.</source>
        <translation>不安装任何内容：检查 GPU、PyTorch 和带宽。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="495"/>
        <source>Nothing runs in a walkthrough.</source>
        <translation>查看模式下不会执行任何操作。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="429"/>
        <source>Nothing to install.</source>
        <translation>没有需要安装的内容。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="239"/>
        <source>Nothing to install: everything is in place. Next goes on to the verification.</source>
        <translation>无需安装：一切已就绪。点击“下一步”进行验证。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="180"/>
        <source>Nothing to report: detection found no problems.</source>
        <translation>一切正常：检测未发现问题。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="200"/>
        <source>Nothing was installed in this session.</source>
        <translation>本次会话未安装任何内容。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="283"/>
        <source>Only verify what is installed</source>
        <translation>仅验证已安装的内容</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="443"/>
        <source>Open &amp;session folder</source>
        <translation>打开会话文件夹(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="143"/>
        <source>Open a log</source>
        <translation>打开日志</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="259"/>
        <source>Open a log file</source>
        <translation>打开日志文件</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="171"/>
        <source>Open a snapshot or report</source>
        <translation>打开快照或报告</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="296"/>
        <source>Open a snapshot or report file</source>
        <translation>打开快照或报告文件</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="444"/>
        <source>Open the folder with this session's logs</source>
        <translation>打开包含本次会话日志的文件夹</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="268"/>
        <source>Open the proxy, mirror and certificate settings</source>
        <translation>打开代理、镜像和证书设置</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="16"/>
        <source>Operating system and WSL</source>
        <translation>操作系统与 WSL</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="438"/>
        <source>Overall progress</source>
        <translation>总体进度</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="417"/>
        <source>P&amp;yPI mirror URL:</source>
        <translation>PyPI 镜像地址(&amp;Y)：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="62"/>
        <source>PCIe link</source>
        <translation>PCIe 链路</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="60"/>
        <source>PCIe throughput</source>
        <translation>PCIe 吞吐量</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="158"/>
        <source>PCIe {gen}.0 x{width}</source>
        <translation>PCIe {gen}.0 x{width}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="33"/>
        <source>PTX: GPU code the driver compiles for this GPU the first time a program runs (a slower start).</source>
        <translation>PTX：程序第一次运行时由驱动为此 GPU 编译的 GPU 代码（启动会慢一些）。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="287"/>
        <source>Paste an error message or open a log; get the cause and a fix.</source>
        <translation>粘贴错误信息或打开日志；获取原因和修复方法。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="254"/>
        <source>Paste an error message or open a log; the wizard finds the cause and a fix.</source>
        <translation>粘贴错误信息或打开日志；向导会找出原因和修复方法。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="229"/>
        <source>Paste more of the output (the lines before the error help), or export the report and send it to support.</source>
        <translation>请粘贴更多输出（错误之前的几行很有帮助），或导出报告发给技术支持。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="256"/>
        <source>Paste the error here, e.g. the last lines of a failed training run.</source>
        <translation>在此粘贴错误，例如训练失败时的最后几行输出。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="267"/>
        <source>Plan</source>
        <translation>计划</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="192"/>
        <source>Plan exported: {path}</source>
        <translation>计划已导出：{path}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="270"/>
        <source>Plan steps</source>
        <translation>计划步骤</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="59"/>
        <source>Power</source>
        <translation>功耗</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="56"/>
        <source>Power draw</source>
        <translation>功耗</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="179"/>
        <source>PowerShell scripts (*.ps1)</source>
        <translation>PowerShell 脚本 (*.ps1)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="233"/>
        <source>Press Install to run this plan.</source>
        <translation>按“安装”运行此计划。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="497"/>
        <source>Press Start to test the GPU.</source>
        <translation>按“开始”测试 GPU。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/log_view.py" line="445"/>
        <source>Previous</source>
        <translation>上一个</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/log_view.py" line="446"/>
        <source>Previous match</source>
        <translation>上一个匹配</translation>
    </message>
    <message>
        <location filename="../../ui/wizard.py" line="294"/>
        <source>Previous page</source>
        <translation>上一页</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="501"/>
        <source>Proves PyTorch uses the GPU at the speed the hardware allows.</source>
        <translation>证明 PyTorch 能以硬件允许的速度使用 GPU。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="408"/>
        <source>PyTorch</source>
        <translation>PyTorch</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="418"/>
        <source>PyTorch &amp;index URL:</source>
        <translation>PyTorch 索引地址(&amp;I)：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="415"/>
        <source>PyTorch &amp;version:</source>
        <translation>PyTorch 版本(&amp;V)：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/phases.py" line="10"/>
        <source>PyTorch check</source>
        <translation>PyTorch 检查</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="24"/>
        <source>PyTorch runs on the GPU at full speed.</source>
        <translation>PyTorch 在 GPU 上全速运行。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="25"/>
        <source>PyTorch runs on the GPU, with warnings.</source>
        <translation>PyTorch 可在 GPU 上运行，但有警告。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="166"/>
        <source>PyTorch used by the verification</source>
        <translation>验证时使用的 PyTorch</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="415"/>
        <source>PyTorch va&amp;riant:</source>
        <translation>PyTorch 变体(&amp;R)：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="184"/>
        <source>PyTorch {v}</source>
        <translation>PyTorch {v}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="22"/>
        <source>Python</source>
        <translation>Python</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="17"/>
        <source>Python and PyTorch</source>
        <translation>Python 与 PyTorch</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="186"/>
        <source>Reading the recorded machine…</source>
        <translation>正在读取已记录的机器…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="406"/>
        <source>Recommendation</source>
        <translation>推荐</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="412"/>
        <source>Recommendation details</source>
        <translation>推荐详情</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="400"/>
        <source>Recommended for this machine.</source>
        <translation>为本机推荐。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="148"/>
        <source>Report written: {path}</source>
        <translation>报告已写入：{path}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="168"/>
        <source>Reports and snapshots (*.html *.htm *.json);;All files (*)</source>
        <translation>报告和快照 (*.html *.htm *.json);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="426"/>
        <source>Rese&amp;t</source>
        <translation>重置(&amp;T)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="212"/>
        <source>Restart &amp;WSL…</source>
        <translation>重启 WSL(&amp;W)…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="301"/>
        <source>Restart &amp;now</source>
        <translation>立即重启(&amp;N)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="103"/>
        <source>Restart WSL</source>
        <translation>重启 WSL</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="213"/>
        <source>Restart WSL so its new settings apply</source>
        <translation>重启 WSL，使新设置生效</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="317"/>
        <source>Restart later: the wizard will continue with the verification after the restart.</source>
        <translation>稍后重启：重启后向导将继续进行验证。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="298"/>
        <source>Restart needed</source>
        <translation>需要重启</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="303"/>
        <source>Restart the computer now and continue with the verification afterwards</source>
        <translation>立即重启计算机，重启后继续验证</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="419"/>
        <source>Restart the computer to use the new driver.</source>
        <translation>请重启计算机以使用新驱动。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="493"/>
        <source>Result: {verdict}</source>
        <translation>结果：{verdict}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="442"/>
        <source>Retry the failed step</source>
        <translation>重试失败的步骤</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="269"/>
        <source>Rights</source>
        <translation>权限</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="427"/>
        <source>Running: {step}</source>
        <translation>正在运行：{step}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="514"/>
        <source>S&amp;top</source>
        <translation>停止(&amp;T)</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="57"/>
        <source>SM clock</source>
        <translation>SM 频率</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="155"/>
        <source>Save a snapshot</source>
        <translation>保存快照</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="210"/>
        <source>Save a snapshot of this machine</source>
        <translation>保存本机的快照</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="209"/>
        <source>Save s&amp;napshot…</source>
        <translation>保存快照(&amp;N)…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="158"/>
        <source>Saving the snapshot…</source>
        <translation>正在保存快照…</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/log_view.py" line="444"/>
        <source>Search the log</source>
        <translation>搜索日志</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/log_view.py" line="443"/>
        <source>Search the log (Ctrl+F)</source>
        <translation>搜索日志（Ctrl+F）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="20"/>
        <source>Secure Boot</source>
        <translation>安全启动</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="276"/>
        <source>Set up an NVIDIA GPU for PyTorch, and prove it runs at full speed.</source>
        <translation>为 PyTorch 配置 NVIDIA GPU，并证明它能全速运行。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="283"/>
        <source>Set up this computer</source>
        <translation>配置本计算机</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="179"/>
        <source>Shell scripts (*.sh)</source>
        <translation>Shell 脚本 (*.sh)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="414"/>
        <source>Show advanced choices</source>
        <translation>显示高级选项</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="132"/>
        <source>Snapshot saved: {path}</source>
        <translation>快照已保存：{path}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="155"/>
        <source>Snapshots (*.json)</source>
        <translation>快照 (*.json)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="26"/>
        <source>Something does not work yet.</source>
        <translation>仍有部分功能无法正常工作。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="513"/>
        <source>Start the test</source>
        <translation>开始测试</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="427"/>
        <source>Starting…</source>
        <translation>正在启动…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="19"/>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="269"/>
        <source>Step</source>
        <translation>步骤</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="437"/>
        <source>Steps</source>
        <translation>步骤</translation>
    </message>
    <message>
        <location filename="../../ui/wizard.py" line="290"/>
        <source>Steps of the wizard</source>
        <translation>向导的步骤</translation>
    </message>
    <message>
        <location filename="../../ui/wizard.py" line="327"/>
        <source>Stop the GPU test and close the wizard?</source>
        <translation>停止 GPU 测试并关闭向导？</translation>
    </message>
    <message>
        <location filename="../../ui/wizard.py" line="323"/>
        <source>Stop the running step and close? You can resume later: finished steps are skipped.</source>
        <translation>停止正在运行的步骤并关闭吗？稍后可以继续：已完成的步骤会被跳过。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="515"/>
        <source>Stop the test</source>
        <translation>停止测试</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="239"/>
        <source>Stopping…</source>
        <translation>正在停止…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="204"/>
        <source>Summary</source>
        <translation>总结</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="288"/>
        <source>Support: see a user's machine page by page, read-only. Or try a demo machine.</source>
        <translation>技术支持：逐页只读查看用户的机器。也可以试用演示机器。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="20"/>
        <source>System</source>
        <translation>系统</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="417"/>
        <source>Target &amp;virtual environment:</source>
        <translation>目标虚拟环境(&amp;V)：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="60"/>
        <source>Temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="349"/>
        <source>Test phases:</source>
        <translation>测试阶段：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="490"/>
        <source>Testing the GPU…</source>
        <translation>正在测试 GPU…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="397"/>
        <source>The advanced choices do not work on this machine: see the red text under the cards.</source>
        <translation>这些高级选项在此机器上不可用：请看卡片下方的红色文字。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="175"/>
        <source>The commands are on the clipboard.</source>
        <translation>命令已复制到剪贴板。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="156"/>
        <source>The computer could not be restarted from here: restart it from the system menu. The wizard continues with the verification after the restart.</source>
        <translation>无法从这里重启计算机：请从系统菜单重启。重启后向导会继续进行验证。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="177"/>
        <source>The computer has not restarted since the driver was installed: the GPU checks can fail until it does. After the restart the wizard verifies again by itself.</source>
        <translation>安装驱动后计算机尚未重启：在重启之前，GPU 检查可能失败。重启后向导会自动再次验证。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="436"/>
        <source>The confirmed plan runs step by step. You can cancel at any time.</source>
        <translation>已确认的计划将逐步执行。您可以随时取消。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="191"/>
        <source>The diagnosis failed: {error}</source>
        <translation>诊断失败：{error}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="47"/>
        <source>The download server could not be reached. Press “Network settings” to use a mirror or a proxy your network allows, then Apply; or try again when the connection works.</source>
        <translation>无法连接下载服务器。请按“网络设置”使用您网络允许的镜像或代理，再按“应用”；或在网络恢复后重试。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="298"/>
        <source>The installation finished and waits for a restart: the new driver is used only after the computer restarts. Restart now, and the wizard opens again by itself and goes on with the verification.</source>
        <translation>安装已完成，正在等待重启：新驱动只有在计算机重启后才会生效。现在重启后，向导会自动再次打开并继续进行验证。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="278"/>
        <source>The installer stopped with an error: {error}</source>
        <translation>安装程序因错误而停止：{error}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="151"/>
        <source>The log cannot be read: {error}</source>
        <translation>无法读取日志：{error}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="299"/>
        <source>The new driver is used after a restart. Restart now? The wizard continues with the verification when you start it again.</source>
        <translation>新驱动在重启后生效。现在重启吗？再次启动向导时将继续进行验证。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="229"/>
        <source>The plan as the user's wizard made it, on the user's machine.</source>
        <translation>这是用户的向导在用户机器上制定的计划。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="152"/>
        <source>The report could not be written: {error}</source>
        <translation>无法写入报告：{error}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="97"/>
        <source>The report holds no plan: the user's wizard did not plan an install.</source>
        <translation>报告中没有计划：用户的向导没有制定安装计划。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="161"/>
        <source>The report holds no recommendation: the user's wizard did not get that far.</source>
        <translation>报告中没有推荐：用户的向导没有进行到这一步。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="199"/>
        <source>The report records no install steps.</source>
        <translation>报告中没有记录安装步骤。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="190"/>
        <source>The script could not be written: {error}</source>
        <translation>无法写入脚本：{error}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="136"/>
        <source>The snapshot could not be saved: {error}</source>
        <translation>无法保存快照：{error}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="205"/>
        <source>The verdict, and what changed.</source>
        <translation>结论，以及所做的更改。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="342"/>
        <source>The verification could not run: {error}</source>
        <translation>无法运行验证：{error}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="242"/>
        <source>The wizard could not download what it needs. Enter your proxy, a mirror or your organisation's certificate bundle, press Apply, then Next: the plan is made again with them.</source>
        <translation>向导无法下载所需内容。请填写代理、镜像或贵单位的证书包，按“应用”，再按“下一步”：计划会据此重新生成。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="133"/>
        <source>There is no recommendation to plan from.</source>
        <translation>没有可用于制定计划的推荐。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="367"/>
        <source>This choice cannot be used:</source>
        <translation>此选项无法使用：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="190"/>
        <source>This file cannot be opened: {error}</source>
        <translation>无法打开此文件：{error}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="200"/>
        <source>This fix cannot be turned into a plan: {error}</source>
        <translation>无法将此修复生成计划：{error}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="282"/>
        <source>This wizard will:</source>
        <translation>本向导将：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="401"/>
        <source>Time left: {t}</source>
        <translation>剩余时间：{t}</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="56"/>
        <source>To GPU</source>
        <translation>传入 GPU</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="22"/>
        <source>Toolkit</source>
        <translation>工具包</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="416"/>
        <source>Toolkit install &amp;method:</source>
        <translation>工具包安装方式(&amp;M)：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="253"/>
        <source>Troubleshoot</source>
        <translation>故障排查</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="284"/>
        <source>Troubleshoot an error</source>
        <translation>排查错误</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="446"/>
        <source>Troubleshoot this error</source>
        <translation>排查此错误</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="264"/>
        <source>Turn the fix into a plan</source>
        <translation>将修复方法生成计划</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="23"/>
        <source>Under load</source>
        <translation>负载测试</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="55"/>
        <source>Used</source>
        <translation>已用</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="59"/>
        <source>Utilization</source>
        <translation>利用率</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="519"/>
        <source>Verdicts</source>
        <translation>结论</translation>
    </message>
    <message>
        <location filename="../../ui/wizard.py" line="18"/>
        <source>Verify</source>
        <translation>验证</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="500"/>
        <source>Verify and stress</source>
        <translation>验证与压力测试</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="304"/>
        <source>Verify now, before the restart</source>
        <translation>重启前先验证</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="19"/>
        <source>Version</source>
        <translation>版本</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="407"/>
        <source>Versions that work together on this machine, and why.</source>
        <translation>在本机上可以协同工作的版本，以及原因。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="21"/>
        <source>WSL</source>
        <translation>WSL</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="104"/>
        <source>WSL uses its new memory setting after it restarts. Restarting WSL closes every Linux window, this wizard too; open Ubuntu again afterwards. Restart WSL now?</source>
        <translation>WSL 重启后才会使用新的内存设置。重启 WSL 会关闭所有 Linux 窗口，包括本向导；之后请重新打开 Ubuntu。现在重启 WSL 吗？</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="186"/>
        <source>WSL uses its new memory setting after it restarts: press Restart WSL, or restart Windows.</source>
        <translation>WSL 重启后才会使用新的内存设置：请按“重启 WSL”，或重启 Windows。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/base.py" line="75"/>
        <source>Walkthrough of a recorded machine: {machine}, recorded {when} ({file}). Read-only: nothing runs on this computer; installs are a dry run.</source>
        <translation>正在查看已记录的机器：{machine}，记录于 {when}（{file}）。只读：本机不会执行任何操作；安装为演练。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="411"/>
        <source>Warnings</source>
        <translation>警告</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="275"/>
        <source>Welcome</source>
        <translation>欢迎</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="201"/>
        <source>What</source>
        <translation>项目</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="200"/>
        <source>What the recorded machine had. Nothing is changed on it or here.</source>
        <translation>已记录的机器当时的状态。不会更改它，也不会更改本机。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="199"/>
        <source>What this computer has now. Nothing has been changed.</source>
        <translation>本计算机的当前状态。尚未做任何更改。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="175"/>
        <source>What to do: {hint}</source>
        <translation>处理方法：{hint}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="206"/>
        <source>What was done</source>
        <translation>已完成的操作</translation>
    </message>
    <message>
        <location filename="../../ui/wizard.py" line="375"/>
        <source>What you chose here is not kept when the wizard closes. An installation that already ran is kept: its finished steps are skipped next time.</source>
        <translation>关闭向导后，这里所做的选择不会保留。已经运行的安装会保留：下次会跳过已完成的步骤。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="382"/>
        <source>Why:</source>
        <translation>原因：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="393"/>
        <source>Working out what fits this machine…</source>
        <translation>正在计算适合本机的配置…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="395"/>
        <source>You changed the advanced choices: press Apply to check them.</source>
        <translation>您修改了高级选项：请按“应用”进行检查。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="389"/>
        <source>administrator</source>
        <translation>管理员</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/phases.py" line="12"/>
        <source>all-reduce</source>
        <translation>All-reduce</translation>
    </message>
    <message>
        <location filename="../../ui/pages/base.py" line="74"/>
        <source>an unknown time</source>
        <translation>未知时间</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="340"/>
        <source>bundled with PyTorch</source>
        <translation>随 PyTorch 附带</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="158"/>
        <source>compute capability {cc}</source>
        <translation>计算能力 {cc}</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="382"/>
        <source>copy tests</source>
        <translation>拷贝测试</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="408"/>
        <source>cuDNN</source>
        <translation>cuDNN</translation>
    </message>
    <message>
        <location filename="../../ui/wizard.py" line="256"/>
        <source>current page</source>
        <translation>当前页</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="294"/>
        <source>datasheet</source>
        <translation>规格书</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/phases.py" line="10"/>
        <source>device check</source>
        <translation>设备检查</translation>
    </message>
    <message>
        <location filename="../../ui/pages/base.py" line="73"/>
        <source>driver {version}</source>
        <translation>驱动 {version}</translation>
    </message>
    <message>
        <location filename="../../ui/wizard.py" line="285"/>
        <source>dry run</source>
        <translation>演练</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="26"/>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="33"/>
        <source>fine</source>
        <translation>正常</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="63"/>
        <source>from GPU</source>
        <translation>从 GPU</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="336"/>
        <source>install CUDA {v}</source>
        <translation>安装 CUDA {v}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="325"/>
        <source>install the driver</source>
        <translation>安装驱动</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="280"/>
        <source>install with a live log, asking for administrator rights only where needed</source>
        <translation>安装时实时显示日志，仅在需要时请求管理员权限</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="26"/>
        <source>installed, not loaded</source>
        <translation>已安装，未加载</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="324"/>
        <source>keep the installed driver</source>
        <translation>保留已安装的驱动</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="27"/>
        <source>library and kernel module differ</source>
        <translation>库与内核模块不一致</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="238"/>
        <source>line {n}</source>
        <translation>第 {n} 行</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/phases.py" line="11"/>
        <source>load test</source>
        <translation>负载测试</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="277"/>
        <source>look at this computer: GPU, driver, CUDA, Python and PyTorch</source>
        <translation>检查本计算机：GPU、驱动、CUDA、Python 和 PyTorch</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/phases.py" line="11"/>
        <source>matrix products</source>
        <translation>矩阵乘法</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/phases.py" line="12"/>
        <source>memory bandwidth</source>
        <translation>显存带宽</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/phases.py" line="11"/>
        <source>memory test</source>
        <translation>显存测试</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="208"/>
        <source>needs administrator rights</source>
        <translation>需要管理员权限</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="333"/>
        <source>needs at least {v}</source>
        <translation>至少需要 {v}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="33"/>
        <source>needs attention</source>
        <translation>需要注意</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="29"/>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="353"/>
        <source>no PyTorch release can use this GPU here</source>
        <translation>没有可在此处使用该 GPU 的 PyTorch 版本</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="510"/>
        <source>none</source>
        <translation>不烤机</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="31"/>
        <source>none (optional: PyTorch brings its own CUDA runtime)</source>
        <translation>无（可选：PyTorch 自带 CUDA 运行时）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="33"/>
        <source>not detected</source>
        <translation>未检测到</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="26"/>
        <source>not installed</source>
        <translation>未安装</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/bandwidth.py" line="33"/>
        <source>not measured</source>
        <translation>未测量</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="338"/>
        <source>not needed: the PyTorch wheel brings its own CUDA runtime</source>
        <translation>不需要：PyTorch 安装包自带 CUDA 运行时</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="27"/>
        <source>not responding</source>
        <translation>无响应</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="326"/>
        <source>nothing to do</source>
        <translation>无需操作</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="22"/>
        <source>nvcc</source>
        <translation>nvcc</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="29"/>
        <source>open</source>
        <translation>开源</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="26"/>
        <source>passed</source>
        <translation>通过</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="62"/>
        <source>power limit</source>
        <translation>功率上限</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="33"/>
        <source>problem</source>
        <translation>有问题</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="30"/>
        <source>proprietary</source>
        <translation>专有</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="28"/>
        <source>provided by the Windows host</source>
        <translation>由 Windows 主机提供</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="278"/>
        <source>recommend versions that work together, and say why</source>
        <translation>推荐可协同工作的版本，并说明原因</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="298"/>
        <source>recommended</source>
        <translation>推荐</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="185"/>
        <source>retrying from the failed step</source>
        <translation>从失败的步骤重试</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="426"/>
        <source>seconds</source>
        <translation>秒</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="279"/>
        <source>show every command before anything runs; you confirm</source>
        <translation>在执行前显示每条命令，由您确认</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="240"/>
        <source>shutdown</source>
        <translation>关机</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="26"/>
        <source>skipped</source>
        <translation>已跳过</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="240"/>
        <source>slowdown</source>
        <translation>降频</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="30"/>
        <source>sm_{a}{b}: compute capability {a}.{b}, the GPU's generation; a PyTorch build runs only on the generations it was built for.</source>
        <translation>sm_{a}{b}：计算能力 {a}.{b}，即 GPU 的架构代次；PyTorch 版本只能在其构建时支持的代次上运行。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="340"/>
        <source>system package</source>
        <translation>系统软件包</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="281"/>
        <source>test the GPU under load with live charts, and write a report</source>
        <translation>用实时图表对 GPU 进行负载测试，并生成报告</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="325"/>
        <source>the Windows host provides the driver</source>
        <translation>驱动由 Windows 主机提供</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="63"/>
        <source>to GPU</source>
        <translation>到 GPU</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="28"/>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="324"/>
        <source>upgrade the driver</source>
        <translation>升级驱动</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="26"/>
        <source>warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="26"/>
        <source>working</source>
        <translation>正常</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="387"/>
        <source>would run (dry run)</source>
        <translation>将会执行（演练）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="29"/>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="325"/>
        <source>{faults} faults, {warnings} warnings</source>
        <translation>{faults} 个故障，{warnings} 个警告</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="510"/>
        <source>{n} h</source>
        <translation>{n} 小时</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/log_view.py" line="409"/>
        <source>{n} matches</source>
        <translation>{n} 个匹配</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="510"/>
        <source>{n} min</source>
        <translation>{n} 分钟</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="506"/>
        <source>{n} s</source>
        <translation>{n} 秒</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="220"/>
        <source>{n} steps.</source>
        <translation>{n} 个步骤。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="225"/>
        <source>{r} of them need administrator rights: you will be asked for your password once.</source>
        <translation>其中 {r} 个需要管理员权限：会请您输入一次密码。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="466"/>
        <source>{title}: {verdict}</source>
        <translation>{title}：{verdict}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="246"/>
        <source>{t} left for this file</source>
        <translation>此文件还需 {t}</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/bandwidth.py" line="35"/>
        <source>{v:.1f} of {c:.1f} {u} ({p:.0f}%)</source>
        <translation>{v:.1f} / {c:.1f} {u}（{p:.0f}%）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="223"/>
        <source>— {step} failed —</source>
        <translation>— {step} 失败 —</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="222"/>
        <source>— {step} failed: {message} —</source>
        <translation>— {step} 失败：{message} —</translation>
    </message>
</context>
</TS>
