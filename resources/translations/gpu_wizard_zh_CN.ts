<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>gpu_wizard</name>
    <message>
        <location filename="../../ui/i18n.py" line="228"/>
        <source> ({why})</source>
        <translation>（{why}）</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="246"/>
        <source> A reboot usually fixes this; `gpu-wizard diagnose` finds the cause.</source>
        <translation>通常重启即可解决；`gpu-wizard diagnose` 可以找出原因。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="231"/>
        <source> No package name is known for this distribution: use NVIDIA's installer for R{branch}.</source>
        <translation>不知道此发行版上的软件包名称：请使用 NVIDIA 的 R{branch} 安装程序。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="230"/>
        <source> No package name is known for {os}: use NVIDIA's installer for R{branch}.</source>
        <translation>不知道 {os} 上的软件包名称：请使用 NVIDIA 的 R{branch} 安装程序。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="229"/>
        <source> R{max_branch} is the last branch that supports {cap_gpus}.</source>
        <translation>R{max_branch} 是支持 {cap_gpus} 的最后一个分支。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="203"/>
        <source> The GPU works for CUDA programs built for it.</source>
        <translation>此 GPU 可以运行为它编译的 CUDA 程序。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="239"/>
        <source> and Python {python}</source>
        <translation> 和 Python {python}</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="240"/>
        <source> for Python {python}</source>
        <translation>（Python {python}）</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="238"/>
        <source> on Windows</source>
        <translation>（Windows 驱动）</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="241"/>
        <source> with Python {python}</source>
        <translation> 和 Python {python}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="370"/>
        <source>&amp;Advanced</source>
        <translation>高级(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="395"/>
        <source>&amp;Cancel</source>
        <translation>取消(&amp;C)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="376"/>
        <source>&amp;Certificate bundle (CA file):</source>
        <translation>证书包（CA 文件）(&amp;C)：</translation>
    </message>
    <message>
        <location filename="../../ui/wizard.py" line="266"/>
        <source>&amp;Close</source>
        <translation>关闭(&amp;C)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="270"/>
        <source>&amp;Copy commands</source>
        <translation>复制命令(&amp;C)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="225"/>
        <source>&amp;Demo machines:</source>
        <translation>演示机器(&amp;D)：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="253"/>
        <source>&amp;Diagnose</source>
        <translation>诊断(&amp;D)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="248"/>
        <source>&amp;Error text or log:</source>
        <translation>错误文本或日志(&amp;E)：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="272"/>
        <source>&amp;Export as script…</source>
        <translation>导出为脚本(&amp;E)…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="210"/>
        <source>&amp;Findings:</source>
        <translation>发现(&amp;F)：</translation>
    </message>
    <message>
        <location filename="../../ui/wizard.py" line="267"/>
        <source>&amp;Finish</source>
        <translation>完成(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="372"/>
        <source>&amp;GPU shown:</source>
        <translation>显示的 GPU(&amp;G)：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="261"/>
        <source>&amp;Install &gt;</source>
        <translation>安装(&amp;I) &gt;</translation>
    </message>
    <message>
        <location filename="../../ui/wizard.py" line="302"/>
        <source>&amp;Keep installing</source>
        <translation>继续安装(&amp;K)</translation>
    </message>
    <message>
        <location filename="../../ui/wizard.py" line="306"/>
        <source>&amp;Keep testing</source>
        <translation>继续测试(&amp;K)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="229"/>
        <source>&amp;Language:</source>
        <translation>语言(&amp;L)：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="262"/>
        <source>&amp;Later</source>
        <translation>稍后(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="371"/>
        <source>&amp;Load per test:</source>
        <translation>每项测试负载时长(&amp;L)：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="260"/>
        <source>&amp;Network settings</source>
        <translation>网络设置(&amp;N)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="255"/>
        <source>&amp;Next &gt;</source>
        <translation>下一步(&amp;N) &gt;</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="227"/>
        <source>&amp;Open a file…</source>
        <translation>打开文件(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="251"/>
        <source>&amp;Open a log…</source>
        <translation>打开日志(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="212"/>
        <source>&amp;Re-scan</source>
        <translation>重新扫描(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="397"/>
        <source>&amp;Retry failed step</source>
        <translation>重试失败的步骤(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="259"/>
        <source>&amp;Run as a dry run &gt;</source>
        <translation>演练运行(&amp;R) &gt;</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="214"/>
        <source>&amp;Save snapshot…</source>
        <translation>保存快照(&amp;S)…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="257"/>
        <source>&amp;Show what happened &gt;</source>
        <translation>查看发生了什么(&amp;S) &gt;</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="377"/>
        <source>&amp;Start</source>
        <translation>开始(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../ui/wizard.py" line="307"/>
        <source>&amp;Stop and close</source>
        <translation>停止并关闭(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="203"/>
        <source>&amp;Troubleshoot</source>
        <translation>故障排除(&amp;T)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="401"/>
        <source>&amp;Troubleshoot this error</source>
        <translation>排查此错误(&amp;T)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="162"/>
        <source>&amp;What a real install would do:</source>
        <translation>实际安装将执行的操作(&amp;W)：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="160"/>
        <source>&amp;What was done on the user's machine:</source>
        <translation>在用户机器上做了什么(&amp;W)：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="162"/>
        <source>&amp;What was done:</source>
        <translation>已完成的操作(&amp;W)：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="362"/>
        <source>(stopped early)</source>
        <translation>（提前停止）</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="267"/>
        <source>(version unknown)</source>
        <translation>（版本未知）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="231"/>
        <source>1 of them needs administrator rights: you will be asked for your password once.</source>
        <translation>其中 1 个需要管理员权限：会请您输入一次密码。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="228"/>
        <source>1 step.</source>
        <translation>1 个步骤。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="227"/>
        <source>; {why}</source>
        <translation>；{why}</translation>
    </message>
    <message>
        <location filename="../../ui/wizard.py" line="265"/>
        <source>&lt; &amp;Back</source>
        <translation>&lt; 上一步(&amp;B)</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="355"/>
        <source>A CUDA toolkit is installed, but the build did not find nvcc: it is not on PATH and CUDA_HOME is not set.</source>
        <translation>CUDA 工具包已安装，但编译时找不到 nvcc：它不在 PATH 中，且未设置 CUDA_HOME。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="2029"/>
        <source>A GPU kernel hit an assertion (`{assertion}`): a bug in the data or model code, not in the GPU setup. Most often an index out of range, e.g. a token id larger than the embedding table or a class label outside the number of classes.</source>
        <translation>GPU 内核触发了断言（`{assertion}`）：这是数据或模型代码中的错误，不是 GPU 环境的问题。最常见的是索引越界，例如 token id 大于嵌入表，或类别标签超出类别数。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="2063"/>
        <source>A GPU kernel read or wrote outside its memory: usually a bug in a custom CUDA extension or a library, sometimes an unstable GPU (overclock, power).</source>
        <translation>某个 GPU 内核读写了其内存之外的地址：通常是自定义 CUDA 扩展或某个库的错误，有时是 GPU 不稳定（超频、供电）。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="1915"/>
        <source>A Linux NVIDIA driver is being installed inside WSL. In WSL the driver comes from Windows (through /usr/lib/wsl/lib); a Linux driver cannot build or load for the WSL kernel and its nvidia-smi and libraries shadow the working ones.</source>
        <translation>正在 WSL 中安装 Linux NVIDIA 驱动。在 WSL 中驱动来自 Windows（通过 /usr/lib/wsl/lib）；Linux 驱动无法为 WSL 内核编译或加载，而且它的 nvidia-smi 和库会遮盖正常工作的那些。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="111"/>
        <source>A WSL library file that should be a link is a copy.</source>
        <translation>WSL 中本应是符号链接的库文件是一个副本。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="2191"/>
        <source>A compiled extension ({so}) was built against a different PyTorch (or C++ ABI) than the one installed, so a PyTorch symbol it needs does not exist.</source>
        <translation>某个编译扩展（{so}）是针对另一个 PyTorch（或 C++ ABI）编译的，与已安装的不同，因此它需要的某个 PyTorch 符号不存在。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="198"/>
        <source>A driver of {need} or newer is needed (the wizard was told not to change the driver).</source>
        <translation>需要 {need} 或更新版本的驱动（已设置向导不更改驱动）。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="154"/>
        <source>A library asked for cuDNN {major} and the dynamic loader could not find it: cuDNN {major} is not installed, or it is installed where the loader does not look (e.g. inside a pip wheel not on LD_LIBRARY_PATH). cuDNN 8 and cuDNN 9 have different file names, so having one does not satisfy a program built for the other.</source>
        <translation>某个库需要 cuDNN {major}，但动态加载器找不到它：cuDNN {major} 未安装，或安装在加载器不查找的位置（例如不在 LD_LIBRARY_PATH 中的 pip wheel 里）。cuDNN 8 和 cuDNN 9 的文件名不同，装了其中一个并不能满足为另一个编译的程序。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="380"/>
        <source>A step failed: {step}. Read the log, then Retry, or press Next to find the cause and a fix.</source>
        <translation>有步骤失败：{step}。请查看日志，然后重试，或按“下一步”查找原因和修复方法。</translation>
    </message>
    <message>
        <location filename="../../ui/wizard.py" line="304"/>
        <source>A test is running</source>
        <translation>测试正在运行</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="199"/>
        <source>A walkthrough has no GPU to test, and the report recorded no verification.</source>
        <translation>查看模式下没有可测试的 GPU，且报告中没有记录验证结果。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="381"/>
        <source>A&amp;pply</source>
        <translation>应用(&amp;P)</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="343"/>
        <source>Add NVIDIA's package repository ({repo})</source>
        <translation>添加 NVIDIA 软件包仓库（{repo}）</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="344"/>
        <source>Add NVIDIA's package repository ({repo}, your mirror)</source>
        <translation>添加 NVIDIA 软件包仓库（{repo}，您的镜像）</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="2098"/>
        <source>Add NVIDIA's repository for this exact distribution and release (the cuda-keyring package), run apt-get update, then install a package name that repository lists (apt-cache search cuda-toolkit); the wizard's plan does all of this.</source>
        <translation>为这个确切的发行版和版本添加 NVIDIA 仓库（cuda-keyring 软件包），运行 apt-get update，然后安装该仓库中列出的软件包名（apt-cache search cuda-toolkit）；向导的计划会完成这一切。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="197"/>
        <source>Add the directory holding libcudnn*.so.{major} to LD_LIBRARY_PATH (or /etc/ld.so.conf.d and run ldconfig).</source>
        <translation>把存放 libcudnn*.so.{major} 的目录加入 LD_LIBRARY_PATH（或写入 /etc/ld.so.conf.d 并运行 ldconfig）。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="373"/>
        <source>All steps finished.</source>
        <translation>所有步骤已完成。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="373"/>
        <source>Also install the CUDA &amp;toolkit (nvcc):</source>
        <translation>同时安装 CUDA 工具包（nvcc）(&amp;T)：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="226"/>
        <source>Also possible</source>
        <translation>其他可能</translation>
    </message>
    <message>
        <location filename="../../ui/wizard.py" line="300"/>
        <source>An installation is running</source>
        <translation>正在安装</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="387"/>
        <source>As recorded on the user's machine (nothing ran here):</source>
        <translation>用户机器上记录的情况（此处未执行任何操作）：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="182"/>
        <source>As recorded on the user's machine; nothing ran on this computer.</source>
        <translation>这是用户机器上的记录；本机没有运行任何内容。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="199"/>
        <source>As the user's wizard detected it: 1 finding.</source>
        <translation>用户的向导检测到的情况：1 项发现。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="200"/>
        <source>As the user's wizard detected it: {n} findings.</source>
        <translation>用户的向导检测到的情况：{n} 项发现。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/log_view.py" line="356"/>
        <source>Auto-scroll paused: follow the end</source>
        <translation>自动滚动已暂停：跟随末尾</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="384"/>
        <source>Back to the recommendation</source>
        <translation>恢复为推荐值</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="20"/>
        <source>Bandwidth</source>
        <translation>带宽</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="383"/>
        <source>Bandwidth against the theoretical ceiling</source>
        <translation>带宽与理论上限对比</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="1502"/>
        <source>Blacklist nouveau, rebuild the initramfs and reboot, then install the NVIDIA driver.</source>
        <translation>将 nouveau 加入黑名单，重新生成 initramfs 并重启，然后安装 NVIDIA 驱动。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="1220"/>
        <source>Blacklist nouveau, rebuild the initramfs and reboot.</source>
        <translation>将 nouveau 加入黑名单，重新生成 initramfs 并重启。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="174"/>
        <source>Blackwell GPUs need NVIDIA's open kernel modules; the proprietary module is loaded.</source>
        <translation>Blackwell GPU 需要 NVIDIA 的开源内核模块；当前加载的是专有模块。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="223"/>
        <source>Blackwell GPUs need the open kernel module</source>
        <translation>Blackwell GPU 需要开源内核模块</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="358"/>
        <source>Build tools find the toolkit through CUDA_HOME and PATH; programs find its libraries through the linker cache. Everything points at {link}, so a later upgrade only moves that link.</source>
        <translation>构建工具通过 CUDA_HOME 和 PATH 找到工具包；程序通过链接器缓存找到它的库。所有设置都指向 {link}，以后升级只需移动这个链接。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="302"/>
        <source>Building a CUDA extension needs the CUDA compiler (nvcc) from a CUDA toolkit, and none was found (not installed, or not on PATH / CUDA_HOME). PyTorch wheels bring the CUDA runtime but not nvcc.</source>
        <translation>编译 CUDA 扩展需要 CUDA 工具包中的 CUDA 编译器（nvcc），但没有找到（未安装，或不在 PATH / CUDA_HOME 中）。PyTorch wheel 自带 CUDA 运行时，但不带 nvcc。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="224"/>
        <source>Building the plan…</source>
        <translation>正在制定计划…</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="201"/>
        <source>CPU build chosen: the driver is left as it is.</source>
        <translation>已选择 CPU 版：驱动保持不变。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="187"/>
        <source>CPU build, as chosen. PyTorch {version} CPU build{for_python}.</source>
        <translation>按你的选择使用 CPU 版。PyTorch {version} CPU 版{for_python}。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="18"/>
        <source>CUDA and cuDNN</source>
        <translation>CUDA 与 cuDNN</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="391"/>
        <source>CUDA cannot run under WSL 1. The conversion keeps your files; it can take several minutes.</source>
        <translation>CUDA 无法在 WSL 1 下运行。转换会保留您的文件；可能需要几分钟。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="1744"/>
        <source>CUDA could not initialise: the nvidia_uvm module is not loaded (or is stuck after suspend/resume).</source>
        <translation>CUDA 无法初始化：nvidia_uvm 模块未加载（或在休眠/唤醒后卡住）。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="761"/>
        <source>CUDA found no usable GPU for this process: CUDA_VISIBLE_DEVICES hides them (an index that does not exist, or empty), the nvidia_uvm module is not loaded, the GPU's compute mode is Prohibited, or the driver is not loaded.</source>
        <translation>CUDA 没有为此进程找到可用的 GPU：CUDA_VISIBLE_DEVICES 隐藏了它们（编号不存在或为空）、nvidia_uvm 模块未加载、GPU 的计算模式为 Prohibited，或驱动未加载。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="1703"/>
        <source>CUDA reported an unknown error. Most often the nvidia_uvm module is in a bad state after suspend/resume, the GPU fell off the bus or was reset (Xid errors in dmesg), or the GPU memory was exhausted under WSL; rarely a hardware fault.</source>
        <translation>CUDA 报告了未知错误。最常见的原因是休眠/唤醒后 nvidia_uvm 模块状态异常、GPU 从总线上掉线或被重置（dmesg 中有 Xid 错误），或在 WSL 中 GPU 显存耗尽；少数情况下是硬件故障。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="314"/>
        <source>CUDA runtime {v}</source>
        <translation>CUDA 运行时 {v}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="365"/>
        <source>CUDA toolkit</source>
        <translation>CUDA 工具包</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="1999"/>
        <source>CUDA was initialised in the parent and then used in a forked child (DataLoader workers, multiprocessing): each child that touches CUDA needs its own context, which fork cannot give, and children that do create one each hold hundreds of MiB.</source>
        <translation>CUDA 在父进程中初始化后又在 fork 出的子进程中使用（DataLoader 工作进程、multiprocessing）：每个使用 CUDA 的子进程都需要自己的上下文，而 fork 无法提供；真正创建了上下文的子进程每个都会占用数百 MiB。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="387"/>
        <source>CUDA works only under WSL 2.</source>
        <translation>CUDA 只能在 WSL 2 下运行。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="109"/>
        <source>CUDA_HOME points to a folder that does not exist.</source>
        <translation>CUDA_HOME 指向的文件夹不存在。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="691"/>
        <source>CUDA_VISIBLE_DEVICES hides the GPUs from this process (an empty value, -1, or an index that does not exist here).</source>
        <translation>CUDA_VISIBLE_DEVICES 对此进程隐藏了 GPU（值为空、-1，或是此处不存在的编号）。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="396"/>
        <source>Cancel the installation</source>
        <translation>取消安装</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="377"/>
        <source>Cancelled. Press Retry to continue from the step that was stopped, or Next for the summary.</source>
        <translation>已取消。按“重试”从被停止的步骤继续，或按“下一步”查看总结。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="188"/>
        <source>Cancelling: stopping the running command…</source>
        <translation>正在取消：停止正在运行的命令…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="330"/>
        <source>Change it, or press Reset to go back to the recommendation.</source>
        <translation>请修改它，或按“重置”恢复为推荐值。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="155"/>
        <source>Chart: {title}</source>
        <translation>图表：{title}</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="762"/>
        <source>Check CUDA_VISIBLE_DEVICES (unset it, or use an index nvidia-smi lists), load nvidia_uvm, and set the compute mode to Default.</source>
        <translation>检查 CUDA_VISIBLE_DEVICES（取消它，或使用 nvidia-smi 列出的编号），加载 nvidia_uvm，并把计算模式设为 Default。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="1377"/>
        <source>Check its size and sha256 against NVIDIA's published checksum, free disk space, and download it again (with resume).</source>
        <translation>对照 NVIDIA 公布的校验和检查其大小和 sha256，释放磁盘空间，然后重新下载（支持断点续传）。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="1262"/>
        <source>Check ls -l /dev/nvidia*; reinstalling the driver (or its udev rules) restores the permissions; reboot.</source>
        <translation>检查 ls -l /dev/nvidia*；重装驱动（或其 udev 规则）可恢复权限；然后重启。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="2222"/>
        <source>Check temperatures and power (reseat the card and its power cables, try another PSU rail), update the system BIOS, and as a test limit the clocks (sudo nvidia-smi -lgc 300,1500); reboot to bring the GPU back.</source>
        <translation>检查温度和供电（重新插好显卡及其电源线，换用电源的另一路输出），更新系统 BIOS，并作为测试限制频率（sudo nvidia-smi -lgc 300,1500）；重启以恢复 GPU。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="369"/>
        <source>Check that PyTorch works</source>
        <translation>检查 PyTorch 能否运行</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="367"/>
        <source>Check that PyTorch works on the GPU</source>
        <translation>检查 PyTorch 能否在 GPU 上运行</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="722"/>
        <source>Check that the GPU is seated and enabled (lspci -nn | grep -i nvidia); in a VM pass the device through, in a container run with --gpus all; on a laptop choose the discrete/NVIDIA GPU mode.</source>
        <translation>检查 GPU 是否插好并已启用（lspci -nn | grep -i nvidia）；虚拟机中请直通设备，容器中用 --gpus all 运行；笔记本上选择独立显卡/NVIDIA GPU 模式。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="1290"/>
        <source>Check that the driver is loaded (lsmod | grep nvidia) and that your user can open /dev/nvidia*; reinstall the driver if libnvidia-ml is missing.</source>
        <translation>检查驱动是否已加载（lsmod | grep nvidia）以及您的用户能否打开 /dev/nvidia*；如果缺少 libnvidia-ml，请重装驱动。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="392"/>
        <source>Check that {name} sees the GPU</source>
        <translation>检查 {name} 能否看到 GPU</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="382"/>
        <source>Check these choices</source>
        <translation>检查这些选项</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="44"/>
        <source>Clocks</source>
        <translation>频率</translation>
    </message>
    <message>
        <location filename="../../ui/wizard.py" line="273"/>
        <source>Close the wizard</source>
        <translation>关闭向导</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="269"/>
        <source>Commands and explanation of the selected step</source>
        <translation>所选步骤的命令与说明</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="358"/>
        <source>Compatibility data: {v}</source>
        <translation>兼容性数据：{v}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="22"/>
        <source>Container</source>
        <translation>容器</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="390"/>
        <source>Convert {name} to WSL 2</source>
        <translation>将 {name} 转换为 WSL 2</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="123"/>
        <source>Copies from ordinary (pageable) memory are slow; pinned memory is fast.</source>
        <translation>从普通（可分页）内存复制较慢；锁页内存较快。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="120"/>
        <source>Copies to and from the GPU run at the speed the link allows.</source>
        <translation>与 GPU 之间的数据复制达到链路允许的速度。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="121"/>
        <source>Copies to the GPU are slower than the PCIe link allows.</source>
        <translation>向 GPU 复制数据的速度低于 PCIe 链路允许的速度。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="271"/>
        <source>Copy all commands to the clipboard</source>
        <translation>将所有命令复制到剪贴板</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="165"/>
        <source>Could not tell the compute capability of {gpus}; kernels cannot be checked for it. Use --assume-gpu with a name or a compute capability such as 8.9.</source>
        <translation>无法确定 {gpus} 的计算能力，无法检查是否有对应的内核。请用 --assume-gpu 指定 GPU 名称或计算能力（如 8.9）。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="361"/>
        <source>Create the Python environment {venv}</source>
        <translation>创建 Python 环境 {venv}</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="202"/>
        <source>Decided once a Python with PyTorch wheels is chosen.</source>
        <translation>选定有 PyTorch 安装包的 Python 之后再决定。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="226"/>
        <source>Demo machines</source>
        <translation>演示机器</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="213"/>
        <source>Detect again</source>
        <translation>重新检测</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="217"/>
        <source>Detect, recommend, plan, install, then verify and stress the GPU.</source>
        <translation>检测、推荐、计划、安装，然后验证并对 GPU 进行压力测试。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="208"/>
        <source>Detected</source>
        <translation>检测值</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="209"/>
        <source>Detected facts</source>
        <translation>检测结果</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="126"/>
        <source>Detection failed: {error}</source>
        <translation>检测失败：{error}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="197"/>
        <source>Detection finished: 1 finding.</source>
        <translation>检测完成：1 项发现。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="197"/>
        <source>Detection finished: {n} findings.</source>
        <translation>检测完成：{n} 条发现。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="255"/>
        <source>Diagnosis</source>
        <translation>诊断</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="17"/>
        <source>Driver</source>
        <translation>驱动</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="170"/>
        <source>Driver R{current_branch} no longer supports {gpus}; R{max_branch} is the last branch that does.</source>
        <translation>驱动 R{current_branch} 已不再支持 {gpus}；R{max_branch} 是最后一个支持的分支。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="171"/>
        <source>Driver {current} predates the newest GPU here; it needs R{min_branch} or newer.</source>
        <translation>驱动 {current} 早于这里最新的 GPU；需要 R{min_branch} 或更新版本。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="172"/>
        <source>Driver {driver} cannot run PyTorch {newest}+{index}; it needs {need} or newer{where}. {torch} is the newest this driver runs.</source>
        <translation>驱动 {driver} 无法运行 PyTorch {newest}+{index}；需要 {need} 或更新版本{where}。{torch} 是此驱动能运行的最新版本。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="176"/>
        <source>Driver {driver} runs CUDA {cuda} only through minor-version compatibility (CUDA {major}.x on a driver at or above {need_min}): PyTorch works; a few newer CUDA features and PTX JIT need {need_full} or newer.</source>
        <translation>驱动 {driver} 只能通过次版本兼容运行 CUDA {cuda}（驱动不低于 {need_min} 时可运行 CUDA {major}.x）：PyTorch 可以正常工作；少数较新的 CUDA 功能和 PTX JIT 需要 {need_full} 或更新版本。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="373"/>
        <source>Dry run finished: nothing was changed.</source>
        <translation>演练结束：未做任何更改。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="383"/>
        <source>Dry run: </source>
        <translation>演练：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="184"/>
        <source>Dry run: nothing was changed on this computer.</source>
        <translation>演练：本计算机上未做任何更改。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="239"/>
        <source>Dry run: nothing will be changed on this computer.</source>
        <translation>演练：不会更改本计算机上的任何内容。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="1644"/>
        <source>Enrol the DKMS/MOK signing key (mokutil --import, then confirm in the MOK manager at the next boot), or use your distribution's pre-signed NVIDIA packages, or turn Secure Boot off in the firmware.</source>
        <translation>登记 DKMS/MOK 签名密钥（mokutil --import，然后在下次启动时在 MOK 管理器中确认），或使用发行版预先签名的 NVIDIA 软件包，或在固件中关闭 Secure Boot。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="1216"/>
        <source>Enrol the module-signing key (mokutil --import, confirm at next boot) or use your distribution's signed driver packages.</source>
        <translation>登记模块签名密钥（mokutil --import，下次启动时确认），或使用发行版已签名的驱动软件包。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="250"/>
        <source>Error text</source>
        <translation>错误文本</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="266"/>
        <source>Every step and command, before anything runs.</source>
        <translation>在执行任何操作之前，列出每个步骤和命令。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="233"/>
        <source>Evidence:</source>
        <translation>证据：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="199"/>
        <source>Export &amp;report…</source>
        <translation>导出报告(&amp;R)…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="189"/>
        <source>Export the plan as a script</source>
        <translation>将计划导出为脚本</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="273"/>
        <source>Export the plan as a shell script</source>
        <translation>将计划导出为 Shell 脚本</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="127"/>
        <source>Export the report</source>
        <translation>导出报告</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="259"/>
        <source>Export the report for support</source>
        <translation>导出报告给技术支持</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="1122"/>
        <source>Find out why the module is not loaded (dmesg, `sudo modprobe nvidia`); rebuild it for the running kernel (install the kernel headers and reinstall the driver / `sudo dkms autoinstall`), then reboot.</source>
        <translation>查明模块为何未加载（dmesg、`sudo modprobe nvidia`）；为当前内核重新编译它（安装内核头文件并重装驱动 / `sudo dkms autoinstall`），然后重启。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="254"/>
        <source>Find the cause</source>
        <translation>查找原因</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="204"/>
        <source>Find the cause of the failure</source>
        <translation>查找失败原因</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="211"/>
        <source>Findings</source>
        <translation>发现</translation>
    </message>
    <message>
        <location filename="../../ui/wizard.py" line="274"/>
        <source>Finish</source>
        <translation>完成</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="376"/>
        <source>Fix the 'libcuda.so.1 is not a symbolic link' warning</source>
        <translation>修复“libcuda.so.1 is not a symbolic link”警告</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="239"/>
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
        <location filename="../../resources/diagnose/rules.json" line="1452"/>
        <source>Free space (or point the installer's temporary directory at a bigger disk with --tmpdir) and run it again.</source>
        <translation>释放空间（或用 --tmpdir 把安装程序的临时目录指向更大的磁盘），然后重新运行。</translation>
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
        <location filename="../../ui/wizard.py" line="263"/>
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
        <location filename="../../ui/i18n.py" line="124"/>
        <source>GPU memory bandwidth is below the expected peak.</source>
        <translation>GPU 显存带宽低于预期峰值。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="175"/>
        <source>GPU memory: {v:.0f} GB/s</source>
        <translation>GPU 显存：{v:.0f} GB/s</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="373"/>
        <source>GPU shown in the charts</source>
        <translation>图表中显示的 GPU</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="385"/>
        <source>GPU support in WSL 2 needs a recent WSL and kernel (5.10.43.3 or newer).</source>
        <translation>WSL 2 中的 GPU 支持需要较新的 WSL 和内核（5.10.43.3 或更新）。</translation>
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
        <location filename="../../ui/i18n.py" line="224"/>
        <source>GPUs older than Turing need the proprietary kernel module</source>
        <translation>早于 Turing 的 GPU 需要专有内核模块</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="128"/>
        <source>HTML report (*.html);;Markdown (*.md);;JSON (*.json)</source>
        <translation>HTML 报告 (*.html);;Markdown (*.md);;JSON (*.json)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="376"/>
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
        <location filename="../../ui/pages/summary_page.py" line="173"/>
        <source>Host to GPU: {v:.1f} GB/s</source>
        <translation>主机到 GPU：{v:.1f} GB/s</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="1567"/>
        <source>If Secure Boot is on, sign the module with a Machine Owner Key and enrol it (or use your distribution's signed driver packages); if nouveau is loaded, blacklist it first.</source>
        <translation>如果开启了 Secure Boot，用机器所有者密钥（MOK）为模块签名并登记该密钥（或使用发行版已签名的驱动软件包）；如果加载了 nouveau，先将其加入黑名单。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="1780"/>
        <source>Ignore the warning, or (as administrator on Windows) replace libcuda.so and libcuda.so.1 in C:\Windows\System32\lxss\lib with links to libcuda.so.1.1; a Windows driver update puts the copies back.</source>
        <translation>忽略该警告，或（在 Windows 上以管理员身份）把 C:\Windows\System32\lxss\lib 中的 libcuda.so 和 libcuda.so.1 换成指向 libcuda.so.1.1 的链接；Windows 驱动更新后会再放回副本。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="368"/>
        <source>Imports torch in the new environment and multiplies matrices on every GPU; the full speed test follows in Verify.</source>
        <translation>在新环境中导入 torch，并在每块 GPU 上做矩阵乘法；完整的速度测试在“验证”中进行。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="370"/>
        <source>Imports torch in the new environment and multiplies matrices; the full speed test follows in Verify.</source>
        <translation>在新环境中导入 torch 并做矩阵乘法；完整的速度测试在“验证”中进行。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="1779"/>
        <source>In WSL, /usr/lib/wsl/lib is the Windows driver's folder (C:\Windows\System32\lxss\lib) mounted read-only; it holds libcuda.so and libcuda.so.1 as copies, not symbolic links, so ldconfig warns every time it runs. It is a harmless warning unless a program then loads a wrong libcuda.</source>
        <translation>在 WSL 中，/usr/lib/wsl/lib 是以只读方式挂载的 Windows 驱动文件夹（C:\Windows\System32\lxss\lib）；其中的 libcuda.so 和 libcuda.so.1 是副本而不是符号链接，所以 ldconfig 每次运行都会警告。除非之后有程序加载了错误的 libcuda，否则这个警告无害。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="373"/>
        <source>Inside WSL 2 the GPU is driven by the Windows driver, which WSL maps in as /usr/lib/wsl/lib/libcuda.so. A Linux driver installed here shadows that library, and CUDA stops working.</source>
        <translation>在 WSL 2 中，GPU 由 Windows 驱动驱动，WSL 将其映射为 /usr/lib/wsl/lib/libcuda.so。在这里安装的 Linux 驱动会遮盖该库，导致 CUDA 无法工作。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="393"/>
        <source>Inside WSL 2 the Windows driver appears as /usr/lib/wsl/lib (libcuda, nvidia-smi); this shows it works before the Linux side installs anything.</source>
        <translation>在 WSL 2 中，Windows 驱动表现为 /usr/lib/wsl/lib（libcuda、nvidia-smi）；这一步在 Linux 部分安装任何东西之前确认它可用。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="549"/>
        <source>Inside WSL, nvidia-smi and CUDA reach the GPU through the Windows NVIDIA driver (its libraries in /usr/lib/wsl/lib and the /dev/dxg bridge). This failure means the Windows driver is missing or too old, the GPU bridge is absent, or a Linux nvidia-smi/driver from a distribution package runs instead of the one in /usr/lib/wsl/lib.</source>
        <translation>在 WSL 中，nvidia-smi 和 CUDA 通过 Windows 的 NVIDIA 驱动访问 GPU（其库位于 /usr/lib/wsl/lib，并经由 /dev/dxg 桥接）。此故障说明 Windows 驱动缺失或太旧、GPU 桥接不存在，或运行的是发行版软件包中的 Linux nvidia-smi/驱动，而不是 /usr/lib/wsl/lib 中的那个。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="391"/>
        <source>Install</source>
        <translation>安装</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="391"/>
        <source>Install (dry run)</source>
        <translation>安装（演练）</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="593"/>
        <source>Install a CUDA build of PyTorch from the PyTorch index for your driver.</source>
        <translation>从 PyTorch 软件源安装适合您驱动的 CUDA 版 PyTorch。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="303"/>
        <source>Install a CUDA toolkit whose major.minor matches your PyTorch's CUDA, then set CUDA_HOME and PATH to it (or install a prebuilt wheel of the package instead of building it).</source>
        <translation>安装主次版本号与 PyTorch 的 CUDA 一致的 CUDA 工具包，然后把 CUDA_HOME 和 PATH 指向它（或改装该软件包的预编译 wheel，不再从源码编译）。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="22"/>
        <source>Install a PyTorch build whose architecture list includes this GPU (for RTX 50-series / Blackwell: a cu128 or newer wheel).</source>
        <translation>安装架构列表包含此 GPU 的 PyTorch 版本（RTX 50 系列 / Blackwell：cu128 或更新的 wheel）。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="446"/>
        <source>Install a newer CUDA toolkit (matching your PyTorch's CUDA) and build with it, or build for an older architecture the toolkit knows (TORCH_CUDA_ARCH_LIST) at the cost of speed.</source>
        <translation>安装更新的 CUDA 工具包（与 PyTorch 的 CUDA 匹配）并用它编译，或为工具包认识的较旧架构编译（TORCH_CUDA_ARCH_LIST），但速度会受影响。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="359"/>
        <source>Install cuDNN ({package})</source>
        <translation>安装 cuDNN（{package}）</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="155"/>
        <source>Install cuDNN {major} (system package or the nvidia-cudnn pip wheel matching your CUDA major), or add the directory that holds it to LD_LIBRARY_PATH.</source>
        <translation>安装 cuDNN {major}（系统软件包，或与您的 CUDA 主版本匹配的 nvidia-cudnn pip wheel），或把它所在的目录加入 LD_LIBRARY_PATH。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="193"/>
        <source>Install driver branch R{branch} ({flavour} kernel module): {why}; R{branch} runs {torch}+{index} with {compat} compatibility.{cap}{no_package}</source>
        <translation>安装驱动分支 R{branch}（{flavour}内核模块）：{why}；R{branch} 以{compat}兼容方式运行 {torch}+{index}。{cap}{no_package}</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="550"/>
        <source>Install or update the NVIDIA driver on Windows (the only driver WSL needs), run `wsl --update` and `wsl --shutdown` in Windows, remove Linux NVIDIA driver packages from the distribution, and try /usr/lib/wsl/lib/nvidia-smi.</source>
        <translation>在 Windows 上安装或更新 NVIDIA 驱动（WSL 只需要这一个驱动），在 Windows 中运行 `wsl --update` 和 `wsl --shutdown`，从发行版中删除 Linux NVIDIA 驱动软件包，并试用 /usr/lib/wsl/lib/nvidia-smi。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="263"/>
        <source>Install the CUDA runtime's NVRTC for your CUDA major (pip install nvidia-cuda-nvrtc-cu12, or the toolkit) and make sure its lib directory is on the loader path; a libnvrtc.so symlink to libnvrtc.so.&lt;major&gt; may be needed.</source>
        <translation>安装与您的 CUDA 主版本对应的 CUDA 运行时 NVRTC（pip install nvidia-cuda-nvrtc-cu12，或工具包），并确保其 lib 目录在加载器路径中；可能需要一个指向 libnvrtc.so.&lt;major&gt; 的 libnvrtc.so 符号链接。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="373"/>
        <source>Install the CUDA toolkit matching PyTorch's CUDA ({torch_cuda}), or install a prebuilt wheel of the package instead.</source>
        <translation>安装与 PyTorch 的 CUDA（{torch_cuda}）匹配的 CUDA 工具包，或改装该软件包的预编译 wheel。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="394"/>
        <source>Install the CUDA toolkit {built} and point CUDA_HOME (and PATH) at it for the build, or install the PyTorch build for CUDA {found} instead.</source>
        <translation>安装 CUDA 工具包 {built} 并在编译时把 CUDA_HOME（和 PATH）指向它，或改装 CUDA {found} 版本的 PyTorch。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="352"/>
        <source>Install the CUDA {version} toolkit (runfile, toolkit only)</source>
        <translation>安装 CUDA {version} 工具包（runfile，仅工具包）</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="354"/>
        <source>Install the CUDA {version} toolkit ({package})</source>
        <translation>安装 CUDA {version} 工具包（{package}）</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="380"/>
        <source>Install the NVIDIA Windows driver {minimum} or newer (you have {have})</source>
        <translation>安装 NVIDIA Windows 驱动 {minimum} 或更新版本（当前：{have}）</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="197"/>
        <source>Install the NVIDIA Windows driver {need} or newer (from nvidia.com or Windows Update); now: {now}{why_paren}.</source>
        <translation>请安装 {need} 或更新版本的 NVIDIA Windows 驱动（从 nvidia.com 或 Windows 更新获取）；当前：{now}{why_paren}。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="532"/>
        <source>Install the NVIDIA driver (or load its module: `sudo modprobe nvidia`), check `nvidia-smi`, and in a container run with --gpus all.</source>
        <translation>安装 NVIDIA 驱动（或加载其模块：`sudo modprobe nvidia`），检查 `nvidia-smi`；在容器中用 --gpus all 运行。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="650"/>
        <source>Install the NVIDIA driver the wizard recommends, then reboot.</source>
        <translation>安装向导推荐的 NVIDIA 驱动，然后重启。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="339"/>
        <source>Install the NVIDIA driver {branch}({flavour} kernel modules)</source>
        <translation>安装 NVIDIA 驱动 {branch}（{flavour}内核模块）</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="388"/>
        <source>Install {name} in WSL</source>
        <translation>在 WSL 中安装 {name}</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="363"/>
        <source>Install {packages} ({index} build)</source>
        <translation>安装 {packages}（{index} 版本）</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/log_view.py" line="358"/>
        <source>Installation log</source>
        <translation>安装日志</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="230"/>
        <source>It needs administrator rights: you will be asked for your password once.</source>
        <translation>它需要管理员权限：会请您输入一次密码。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="191"/>
        <source>Keep driver {current}: it runs {torch}+{index} ({compat} compatibility).{cap}</source>
        <translation>保留驱动 {current}：它可以运行 {torch}+{index}（{compat}兼容）。{cap}</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="196"/>
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
        <location filename="../../ui/pages/welcome_page.py" line="230"/>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="378"/>
        <source>Let WSL 2 use {gb} GB of memory</source>
        <translation>允许 WSL 2 使用 {gb} GB 内存</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="110"/>
        <source>Little free disk space for the toolkit.</source>
        <translation>工具包可用的磁盘空间不足。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="376"/>
        <source>Load duration per test</source>
        <translation>每项测试的负载时长</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="617"/>
        <source>Load it (sudo modprobe nvidia) and read dmesg if that fails (Secure Boot, a kernel update without a rebuilt module, nouveau).</source>
        <translation>加载它（sudo modprobe nvidia）；如果失败，查看 dmesg（Secure Boot、内核更新后模块未重新编译、nouveau）。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="673"/>
        <source>Load it: sudo modprobe nvidia_uvm (and make it load at boot via /etc/modules-load.d).</source>
        <translation>加载它：sudo modprobe nvidia_uvm（并通过 /etc/modules-load.d 让它开机加载）。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="140"/>
        <source>Logs (*.log *.txt);;All files (*)</source>
        <translation>日志 (*.log *.txt);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="193"/>
        <source>Looking at this computer…</source>
        <translation>正在检查本计算机…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="164"/>
        <source>Looking for the cause…</source>
        <translation>正在查找原因…</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="386"/>
        <source>Make WSL 2 the default for new distros</source>
        <translation>将 WSL 2 设为新发行版的默认版本</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="256"/>
        <source>Make a &amp;plan of this fix</source>
        <translation>将此修复生成计划(&amp;P)</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="219"/>
        <source>Make the driver's libcuda.so (or the CUDA runtime's libnvrtc) visible to the loader: install the driver, or add its directory (WSL: /usr/lib/wsl/lib) to the loader path and run ldconfig.</source>
        <translation>让加载器能找到驱动的 libcuda.so（或 CUDA 运行时的 libnvrtc）：安装驱动，或把其目录（WSL：/usr/lib/wsl/lib）加入加载器路径并运行 ldconfig。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="941"/>
        <source>Make the input contiguous (x.contiguous()), try a smaller batch, update PyTorch (it brings a newer cuDNN), or as a workaround set torch.backends.cudnn.enabled = False for that layer.</source>
        <translation>让输入连续（x.contiguous()），尝试更小的批次，更新 PyTorch（它带来更新的 cuDNN），或作为临时办法对该层设置 torch.backends.cudnn.enabled = False。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="178"/>
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
        <location filename="../../ui/pages/troubleshoot_page.py" line="226"/>
        <source>Most likely cause</source>
        <translation>最可能的原因</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="375"/>
        <source>NVIDIA &amp;repository mirror:</source>
        <translation>NVIDIA 软件源镜像(&amp;R)：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="365"/>
        <source>NVIDIA driver</source>
        <translation>NVIDIA 驱动</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="181"/>
        <source>NVIDIA has no package repository for {os}; the toolkit would come from the runfile.</source>
        <translation>NVIDIA 没有适用于 {os} 的软件包仓库；工具包将通过 runfile 安装。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="346"/>
        <source>NVIDIA publishes the CUDA packages in its own repository; dnf checks them against NVIDIA's key.</source>
        <translation>NVIDIA 在自己的仓库中发布 CUDA 软件包；dnf 会用 NVIDIA 的密钥校验它们。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="345"/>
        <source>NVIDIA publishes the CUDA packages in its own repository; its keyring package lets apt check that every package really comes from NVIDIA.</source>
        <translation>NVIDIA 在自己的仓库中发布 CUDA 软件包；其密钥环软件包让 apt 能够核实每个软件包确实来自 NVIDIA。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="1261"/>
        <source>NVML could not open the GPU device files: wrong permissions on /dev/nvidia* (or a broken nvidia-persistenced).</source>
        <translation>NVML 无法打开 GPU 设备文件：/dev/nvidia* 的权限不对（或 nvidia-persistenced 出了问题）。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="1289"/>
        <source>NVML could not start: {reason}.</source>
        <translation>NVML 无法启动：{reason}。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="282"/>
        <source>NVML failed</source>
        <translation>NVML 失败</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="1239"/>
        <source>NVML started but could not open the GPU device files. Inside a container this is usually the runtime losing its device-cgroup rules (e.g. after `systemctl daemon-reload` on the host with cgroups managed by systemd); on a host, wrong permissions on /dev/nvidia*.</source>
        <translation>NVML 已启动，但无法打开 GPU 设备文件。在容器中，这通常是运行时丢失了设备 cgroup 规则（例如在由 systemd 管理 cgroup 的主机上执行了 `systemctl daemon-reload`）；在主机上则是 /dev/nvidia* 的权限不对。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="20"/>
        <source>Newest CUDA it supports</source>
        <translation>支持的最高 CUDA 版本</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="184"/>
        <source>Newest release with kernels for {gpus} on {os}{and_python}: {version}+{index} (CUDA {cuda}); the driver fully supports it.</source>
        <translation>在 {os}{and_python} 上为 {gpus} 提供内核的最新版本：{version}+{index}（CUDA {cuda}）；驱动完全支持它。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="186"/>
        <source>Newest release with kernels for {gpus} on {os}{and_python}: {version}+{index} (CUDA {cuda}); the driver needs a driver for it.</source>
        <translation>在 {os}{and_python} 上为 {gpus} 提供内核的最新版本：{version}+{index}（CUDA {cuda}）；需要更新的驱动才能运行它。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="185"/>
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
        <location filename="../../ui/wizard.py" line="271"/>
        <source>Next page</source>
        <translation>下一页</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="372"/>
        <source>No CUDA toolkit is installed, so there is no nvcc to build the extension. PyTorch wheels bring the CUDA runtime but not the compiler.</source>
        <translation>没有安装 CUDA 工具包，因此没有 nvcc 来编译扩展。PyTorch wheel 自带 CUDA 运行时，但不带编译器。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="211"/>
        <source>No CUDA toolkit without an NVIDIA GPU.</source>
        <translation>没有 NVIDIA GPU，不需要 CUDA 工具包。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="189"/>
        <source>No GPU is visible because the NVIDIA driver is not working: fix it first, then ask again. Until then: the CPU build. PyTorch {version} CPU build{for_python}.</source>
        <translation>NVIDIA 驱动无法工作，所以看不到 GPU：请先修复驱动，再重新计算。在此之前使用 CPU 版。PyTorch {version} CPU 版{for_python}。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="190"/>
        <source>No NVIDIA GPU found: the CPU build of PyTorch. PyTorch {version} CPU build{for_python}.</source>
        <translation>未找到 NVIDIA GPU：使用 CPU 版 PyTorch。PyTorch {version} CPU 版{for_python}。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="91"/>
        <source>No NVIDIA GPU was found.</source>
        <translation>未找到 NVIDIA GPU。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="182"/>
        <source>No NVIDIA GPU was found; PyTorch will run on the CPU. If a GPU is installed, check that it is seated and powered (lspci lists it).</source>
        <translation>未找到 NVIDIA GPU；PyTorch 将在 CPU 上运行。如果装有 GPU，请检查它是否插好并已供电（lspci 能列出它）。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="199"/>
        <source>No NVIDIA GPU: no driver needed.</source>
        <translation>没有 NVIDIA GPU：不需要驱动。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="649"/>
        <source>No NVIDIA driver is installed on this machine.</source>
        <translation>这台机器上没有安装 NVIDIA 驱动。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="166"/>
        <source>No PyTorch release from {oldest} on ships kernels for {gpus} on {os}{with_python}. Use the CPU build, or build PyTorch from source for this GPU.</source>
        <translation>从 {oldest} 起，没有任何 PyTorch 版本在 {os}{with_python} 上为 {gpus} 提供内核。请使用 CPU 版，或为此 GPU 从源码编译 PyTorch。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="215"/>
        <source>No cuDNN: CPU build.</source>
        <translation>无 cuDNN：CPU 版。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="216"/>
        <source>No cuDNN: no PyTorch GPU build.</source>
        <translation>无 cuDNN：没有可用的 PyTorch GPU 版本。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="220"/>
        <source>No known GPU setup error was recognised in this text.</source>
        <translation>在这段文字中没有识别出已知的 GPU 配置错误。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="140"/>
        <source>No plan was confirmed: go back to the Plan page.</source>
        <translation>尚未确认计划：请返回“计划”页。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="168"/>
        <source>No plan: {error}</source>
        <translation>无法制定计划：{error}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="198"/>
        <source>No recommendation: {error}</source>
        <translation>无法给出推荐：{error}</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="161"/>
        <source>No target Python was found; the newest PyTorch is assumed. Use --python-version X.Y to solve for yours.</source>
        <translation>未找到目标 Python；按最新版 PyTorch 计算。可用 --python-version X.Y 指定你的 Python 版本。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="188"/>
        <source>No usable NVIDIA GPU was identified: CPU build. PyTorch {version} CPU build{for_python}.</source>
        <translation>未识别出可用的 NVIDIA GPU：使用 CPU 版。PyTorch {version} CPU 版{for_python}。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="235"/>
        <source>None needs administrator rights.</source>
        <translation>都不需要管理员权限。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="210"/>
        <source>Not available: {why}.</source>
        <translation>不可用：{why}。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="212"/>
        <source>Not chosen: no PyTorch build uses this GPU.</source>
        <translation>未选择：没有 PyTorch 版本能使用此 GPU。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="19"/>
        <source>Not verified.</source>
        <translation>尚未验证。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/base.py" line="65"/>
        <source>Note: {note}</source>
        <translation>备注：{note}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="170"/>
        <source>Nothing detected</source>
        <translation>未检测到任何内容</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="218"/>
        <source>Nothing is installed: check the GPU, PyTorch and the bandwidth.</source>
        <translation>不安装任何内容：检查 GPU、PyTorch 和带宽。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="364"/>
        <source>Nothing runs in a walkthrough.</source>
        <translation>查看模式下不会执行任何操作。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="385"/>
        <source>Nothing to install.</source>
        <translation>没有需要安装的内容。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="245"/>
        <source>Nothing to install: everything is in place. Next goes on to the verification.</source>
        <translation>无需安装：一切已就绪。点击“下一步”进行验证。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="188"/>
        <source>Nothing to report: detection found no problems.</source>
        <translation>一切正常：检测未发现问题。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="193"/>
        <source>Nothing was installed in this session.</source>
        <translation>本次会话未安装任何内容。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="381"/>
        <source>On Windows the NVIDIA driver also serves CUDA inside WSL 2; it must be at least {minimum} for the PyTorch build the wizard chose. NVIDIA's download page opens; run its installer, then start the wizard again.</source>
        <translation>在 Windows 上，NVIDIA 驱动也为 WSL 2 中的 CUDA 服务；对于向导选择的 PyTorch 版本，它至少需要 {minimum}。将打开 NVIDIA 下载页面；运行其安装程序后，请重新启动向导。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="169"/>
        <source>One driver cannot serve all GPUs: {conflict}. Use the newest GPU alone, or a separate machine.</source>
        <translation>一个驱动无法同时支持所有 GPU：{conflict}。请单独使用最新的 GPU，或换一台机器。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="215"/>
        <source>Only verify what is installed</source>
        <translation>仅验证已安装的内容</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="399"/>
        <source>Open &amp;session folder</source>
        <translation>打开会话文件夹(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="140"/>
        <source>Open a log</source>
        <translation>打开日志</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="252"/>
        <source>Open a log file</source>
        <translation>打开日志文件</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="134"/>
        <source>Open a snapshot or report</source>
        <translation>打开快照或报告</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="228"/>
        <source>Open a snapshot or report file</source>
        <translation>打开快照或报告文件</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="400"/>
        <source>Open the folder with this session's logs</source>
        <translation>打开包含本次会话日志的文件夹</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="261"/>
        <source>Open the proxy, mirror and certificate settings</source>
        <translation>打开代理、镜像和证书设置</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="17"/>
        <source>Operating system and WSL</source>
        <translation>操作系统与 WSL</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="257"/>
        <source>Optional (the PyTorch wheel brings its own CUDA runtime); if you want nvcc: </source>
        <translation>可选（PyTorch 安装包自带 CUDA 运行时）；如果需要 nvcc：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="394"/>
        <source>Overall progress</source>
        <translation>总体进度</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="374"/>
        <source>P&amp;yPI mirror URL:</source>
        <translation>PyPI 镜像地址(&amp;Y)：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="44"/>
        <source>PCIe throughput</source>
        <translation>PCIe 吞吐量</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="348"/>
        <source>Packages come from {url} instead of NVIDIA's server; they are still checked against NVIDIA's signing key.</source>
        <translation>软件包从 {url} 而不是 NVIDIA 的服务器下载；仍会用 NVIDIA 的签名密钥校验。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="219"/>
        <source>Paste an error message or open a log; get the cause and a fix.</source>
        <translation>粘贴错误信息或打开日志；获取原因和修复方法。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="247"/>
        <source>Paste an error message or open a log; the wizard finds the cause and a fix.</source>
        <translation>粘贴错误信息或打开日志；向导会找出原因和修复方法。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="221"/>
        <source>Paste more of the output (the lines before the error help), or export the report and send it to support.</source>
        <translation>请粘贴更多输出（错误之前的几行很有帮助），或导出报告发给技术支持。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="249"/>
        <source>Paste the error here, e.g. the last lines of a failed training run.</source>
        <translation>在此粘贴错误，例如训练失败时的最后几行输出。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="255"/>
        <source>Plain `pip install torch` on Windows installs the CPU-only build. Use the command below (it installs from the {index} index).</source>
        <translation>在 Windows 上直接运行 `pip install torch` 会安装仅 CPU 版。请使用下面的命令（它从 {index} 索引安装）。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="256"/>
        <source>Plain `pip install torch` would install {newest}+{plain}, which cannot use the GPU here. Use the command below ({torch} from the {index} index).</source>
        <translation>直接运行 `pip install torch` 会安装 {newest}+{plain}，它无法使用这里的 GPU。请使用下面的命令（从 {index} 索引安装 {torch}）。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="265"/>
        <source>Plan</source>
        <translation>计划</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="200"/>
        <source>Plan exported: {path}</source>
        <translation>计划已导出：{path}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="268"/>
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
        <location filename="../../ui/pages/plan_page.py" line="188"/>
        <source>PowerShell scripts (*.ps1)</source>
        <translation>PowerShell 脚本 (*.ps1)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="241"/>
        <source>Press Install to run this plan.</source>
        <translation>按“安装”运行此计划。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="366"/>
        <source>Press Start to test the GPU.</source>
        <translation>按“开始”测试 GPU。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="241"/>
        <source>Press “Network settings” to enter a proxy, a mirror or your organisation's certificate bundle; the plan is then made again with them.</source>
        <translation>按“网络设置”填写代理、镜像或贵单位的证书包；计划会据此重新生成。</translation>
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
        <location filename="../../ui/wizard.py" line="272"/>
        <source>Previous page</source>
        <translation>上一页</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="370"/>
        <source>Proves PyTorch uses the GPU at the speed the hardware allows.</source>
        <translation>证明 PyTorch 能以硬件允许的速度使用 GPU。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="365"/>
        <source>PyTorch</source>
        <translation>PyTorch</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="375"/>
        <source>PyTorch &amp;index URL:</source>
        <translation>PyTorch 索引地址(&amp;I)：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="372"/>
        <source>PyTorch &amp;version:</source>
        <translation>PyTorch 版本(&amp;V)：</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="128"/>
        <source>PyTorch cannot use the GPU.</source>
        <translation>PyTorch 无法使用 GPU。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="531"/>
        <source>PyTorch could not reach an NVIDIA driver: the driver is not installed, its kernel module is not loaded, or (in a container) the GPU was not passed in.</source>
        <translation>PyTorch 无法连接 NVIDIA 驱动：驱动未安装、其内核模块未加载，或（在容器中）GPU 没有传入。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="362"/>
        <source>PyTorch goes into its own virtual environment, so it cannot clash with the system's Python packages and can be removed by deleting one folder. An existing one is reused.</source>
        <translation>PyTorch 安装到独立的虚拟环境中，不会与系统的 Python 软件包冲突，删除一个文件夹即可移除。已有的环境会被复用。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="104"/>
        <source>PyTorch is installed but cannot use the GPU.</source>
        <translation>已安装 PyTorch，但无法使用 GPU。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="103"/>
        <source>PyTorch is not installed in the target Python.</source>
        <translation>目标 Python 中未安装 PyTorch。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="117"/>
        <source>PyTorch itself covers this GPU, so the kernel that is missing comes from a compiled extension (a package built with nvcc for other GPUs).</source>
        <translation>PyTorch 本身支持此 GPU，所以缺少的内核来自某个编译扩展（一个用 nvcc 为其他 GPU 编译的软件包）。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="342"/>
        <source>PyTorch needs an NVIDIA driver new enough for its CUDA runtime.</source>
        <translation>PyTorch 需要足够新的 NVIDIA 驱动来支持其 CUDA 运行时。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="160"/>
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
        <location filename="../../ui/pages/system_page.py" line="175"/>
        <source>PyTorch used by the verification</source>
        <translation>验证时使用的 PyTorch</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="126"/>
        <source>PyTorch uses the GPU and its results are correct.</source>
        <translation>PyTorch 正在使用 GPU，且计算结果正确。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="372"/>
        <source>PyTorch va&amp;riant:</source>
        <translation>PyTorch 变体(&amp;R)：</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="167"/>
        <source>PyTorch {newest} has no kernels for {gpus}; {covering} is the newest release that does.</source>
        <translation>PyTorch {newest} 没有 {gpus} 的内核；{covering} 是仍支持它的最新版本。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="253"/>
        <source>PyTorch {newest} needs Python {py_min} or newer; with Python {python} the newest is {torch}.</source>
        <translation>PyTorch {newest} 需要 Python {py_min} 或更新版本；使用 Python {python} 时最新可用的是 {torch}。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="168"/>
        <source>PyTorch {torch}+{index} has no kernels for {gpus}; the choice below serves every GPU. Hide the older GPU (CUDA_VISIBLE_DEVICES) to use newer wheels.</source>
        <translation>PyTorch {torch}+{index} 没有 {gpus} 的内核；下面的选择适用于所有 GPU。若要使用更新的安装包，请用 CUDA_VISIBLE_DEVICES 隐藏较旧的 GPU。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="180"/>
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
        <location filename="../../ui/i18n.py" line="251"/>
        <source>Python {python} is newer than PyTorch supports (the newest release supports {py_min}-{py_max}); {torch} is the newest with wheels for it.</source>
        <translation>Python {python} 比 PyTorch 支持的版本更新（最新的 PyTorch 支持 {py_min}-{py_max}）；{torch} 是有对应安装包的最新版本。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="252"/>
        <source>Python {python} is newer than any PyTorch release supports (newest: {newest}, Python {py_min}-{py_max}). Use Python {py_max}.</source>
        <translation>Python {python} 比所有 PyTorch 版本支持的都新（最新：{newest}，支持 Python {py_min}-{py_max}）。请使用 Python {py_max}。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="254"/>
        <source>Python {python} is older than any PyTorch release from 2.0 on supports. Use Python {py_max}.</source>
        <translation>Python {python} 比 PyTorch 2.0 及之后所有版本支持的都旧。请使用 Python {py_max}。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="194"/>
        <source>Reading the recorded machine…</source>
        <translation>正在读取已记录的机器…</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="1049"/>
        <source>Reboot. If the mismatch survives a reboot, rebuild the initramfs (sudo update-initramfs -u) so it holds the new module, then reboot again.</source>
        <translation>重启。如果重启后仍不一致，重新生成 initramfs（sudo update-initramfs -u）使其包含新模块，然后再次重启。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="118"/>
        <source>Rebuild the extension for this GPU: set TORCH_CUDA_ARCH_LIST to its compute capability (e.g. "8.6") and reinstall it from source with --no-build-isolation, or install a prebuilt wheel that lists this architecture.</source>
        <translation>为此 GPU 重新编译扩展：把 TORCH_CUDA_ARCH_LIST 设为其计算能力（如 "8.6"），用 --no-build-isolation 从源码重新安装；或安装列出此架构的预编译 wheel。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="363"/>
        <source>Recommendation</source>
        <translation>推荐</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="369"/>
        <source>Recommendation details</source>
        <translation>推荐详情</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="358"/>
        <source>Recommended for this machine.</source>
        <translation>为本机推荐。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="349"/>
        <source>Refresh the package index</source>
        <translation>刷新软件包索引</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="2192"/>
        <source>Reinstall the extension built for exactly this PyTorch version, CUDA and C++ ABI (a prebuilt wheel that names them, or pip install --no-build-isolation --no-cache-dir to rebuild it against the installed torch).</source>
        <translation>重新安装正好为此 PyTorch 版本、CUDA 和 C++ ABI 编译的扩展（注明这些的预编译 wheel，或用 pip install --no-build-isolation --no-cache-dir 针对已安装的 torch 重新编译）。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="1745"/>
        <source>Reload it: sudo rmmod nvidia_uvm; sudo modprobe nvidia_uvm (or reboot).</source>
        <translation>重新加载它：sudo rmmod nvidia_uvm; sudo modprobe nvidia_uvm（或重启）。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="1704"/>
        <source>Reload nvidia_uvm (sudo rmmod nvidia_uvm &amp;&amp; sudo modprobe nvidia_uvm) or reboot; look for Xid lines in dmesg; on WSL restart it with `wsl --shutdown`.</source>
        <translation>重新加载 nvidia_uvm（sudo rmmod nvidia_uvm &amp;&amp; sudo modprobe nvidia_uvm）或重启；在 dmesg 中查找 Xid 行；在 WSL 中用 `wsl --shutdown` 重启它。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="374"/>
        <source>Remove leftover Linux driver libraries inside WSL</source>
        <translation>删除 WSL 内残留的 Linux 驱动库</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="333"/>
        <source>Remove old CUDA toolkits: {folders}</source>
        <translation>删除旧的 CUDA 工具包：{folders}</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="335"/>
        <source>Remove stale CUDA paths from the environment</source>
        <translation>从环境中删除失效的 CUDA 路径</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="372"/>
        <source>Remove the Linux NVIDIA driver installed inside WSL</source>
        <translation>删除安装在 WSL 内的 Linux NVIDIA 驱动</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="1916"/>
        <source>Remove the Linux NVIDIA driver packages from the distribution (keep only the Windows driver); install the CUDA toolkit from NVIDIA's wsl-ubuntu repository (cuda-toolkit-X-Y, never `cuda` or `cuda-drivers`).</source>
        <translation>从发行版中删除 Linux NVIDIA 驱动软件包（只保留 Windows 驱动）；从 NVIDIA 的 wsl-ubuntu 仓库安装 CUDA 工具包（cuda-toolkit-X-Y，绝不要装 `cuda` 或 `cuda-drivers`）。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="2143"/>
        <source>Remove the old NVIDIA packages (sudo apt-get purge the package named in the message and its branch), then install the driver from one source only.</source>
        <translation>删除旧的 NVIDIA 软件包（sudo apt-get purge 消息中提到的软件包及其分支），然后只从一个来源安装驱动。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="145"/>
        <source>Report written: {path}</source>
        <translation>报告已写入：{path}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="131"/>
        <source>Reports and snapshots (*.html *.htm *.json);;All files (*)</source>
        <translation>报告和快照 (*.html *.htm *.json);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="2064"/>
        <source>Rerun with CUDA_LAUNCH_BLOCKING=1 to find the kernel; update PyTorch and the extension; check dmesg for Xid errors and run the wizard's verification (load test) to rule out hardware.</source>
        <translation>设置 CUDA_LAUNCH_BLOCKING=1 重新运行以找到该内核；更新 PyTorch 和扩展；在 dmesg 中查找 Xid 错误，并运行向导的验证（负载测试）以排除硬件问题。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="383"/>
        <source>Rese&amp;t</source>
        <translation>重置(&amp;T)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="261"/>
        <source>Restart &amp;now</source>
        <translation>立即重启(&amp;N)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="277"/>
        <source>Restart later: the wizard will continue with the verification after the restart.</source>
        <translation>稍后重启：重启后向导将继续进行验证。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="258"/>
        <source>Restart needed</source>
        <translation>需要重启</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="375"/>
        <source>Restart the computer to use the new driver.</source>
        <translation>请重启计算机以使用新驱动。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="1240"/>
        <source>Restart the container; for a lasting fix use the NVIDIA Container Toolkit's CDI mode or pass the /dev/nvidia* devices explicitly, or set the runtime's cgroup driver to cgroupfs.</source>
        <translation>重启容器；要长期解决，请使用 NVIDIA Container Toolkit 的 CDI 模式或显式传入 /dev/nvidia* 设备，或把运行时的 cgroup 驱动设为 cgroupfs。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="362"/>
        <source>Result: {verdict}</source>
        <translation>结果：{verdict}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="398"/>
        <source>Retry the failed step</source>
        <translation>重试失败的步骤</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="267"/>
        <source>Rights</source>
        <translation>权限</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="1969"/>
        <source>Run /usr/lib/wsl/lib/nvidia-smi directly; remove Linux NVIDIA utility packages; update (or roll back) the Windows NVIDIA driver. CUDA programs often still work when only nvidia-smi crashes.</source>
        <translation>直接运行 /usr/lib/wsl/lib/nvidia-smi；删除 Linux NVIDIA 工具软件包；更新（或回退）Windows NVIDIA 驱动。只有 nvidia-smi 崩溃时，CUDA 程序往往仍能工作。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="2030"/>
        <source>Run once on the CPU (or with CUDA_LAUNCH_BLOCKING=1) to get the exact failing line, then check the indices/labels it uses (max token id &lt; vocabulary size, labels &lt; number of classes).</source>
        <translation>在 CPU 上（或设置 CUDA_LAUNCH_BLOCKING=1）运行一次，找到确切的出错行，然后检查它用到的索引/标签（最大 token id &lt; 词表大小，标签 &lt; 类别数）。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="101"/>
        <source>Running inside a container: the driver belongs to the host.</source>
        <translation>正在容器中运行：驱动属于宿主机。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="383"/>
        <source>Running: {step}</source>
        <translation>正在运行：{step}</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="221"/>
        <source>R{current_branch} does not support {gpus}</source>
        <translation>R{current_branch} 不支持 {gpus}</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="204"/>
        <source>R{max_branch} is the last driver branch for {gpus}. The GPU works for CUDA programs built for it.</source>
        <translation>R{max_branch} 是 {gpus} 的最后一个驱动分支。此 GPU 可以运行为它编译的 CUDA 程序。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="379"/>
        <source>S&amp;top</source>
        <translation>停止(&amp;T)</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="41"/>
        <source>SM clock</source>
        <translation>SM 频率</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="152"/>
        <source>Save a snapshot</source>
        <translation>保存快照</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="202"/>
        <source>Save a snapshot of this machine</source>
        <translation>保存本机的快照</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="201"/>
        <source>Save s&amp;napshot…</source>
        <translation>保存快照(&amp;N)…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="155"/>
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
        <location filename="../../resources/diagnose/rules.json" line="1643"/>
        <source>Secure Boot is on and the kernel refused a module that is not signed by a trusted key (the NVIDIA module built by DKMS or the runfile is signed by nothing, or by a key not yet enrolled).</source>
        <translation>Secure Boot 已开启，内核拒绝了一个没有用受信任密钥签名的模块（DKMS 或 runfile 编译的 NVIDIA 模块没有签名，或所用密钥尚未登记）。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="1614"/>
        <source>Secure Boot is on, and the freshly built NVIDIA module is not signed by a key the firmware trusts, so the kernel refuses to load it.</source>
        <translation>Secure Boot 已开启，而新编译的 NVIDIA 模块没有用固件信任的密钥签名，所以内核拒绝加载它。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="98"/>
        <source>Secure Boot is on: the NVIDIA kernel module must be signed.</source>
        <translation>安全启动已开启：NVIDIA 内核模块必须签名。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="1329"/>
        <source>See the out-of-memory analysis: the numbers in the message tell apart a model too big for the card, fragmentation, another process holding memory, a leak, and child processes holding contexts.</source>
        <translation>请看显存不足分析：消息中的数字可以区分模型对显卡来说太大、显存碎片、其他进程占用显存、内存泄漏，以及子进程占用上下文。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="356"/>
        <source>Set CUDA_HOME to the toolkit and put its bin directory on PATH, then build again.</source>
        <translation>把 CUDA_HOME 设为工具包目录，并把其 bin 目录加入 PATH，然后重新编译。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="357"/>
        <source>Set CUDA_HOME, PATH and the library path</source>
        <translation>设置 CUDA_HOME、PATH 和库路径</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="697"/>
        <source>Set the compute mode back to Default: sudo nvidia-smi -c DEFAULT.</source>
        <translation>把计算模式改回 Default：sudo nvidia-smi -c DEFAULT。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="208"/>
        <source>Set up an NVIDIA GPU for PyTorch, and prove it runs at full speed.</source>
        <translation>为 PyTorch 配置 NVIDIA GPU，并证明它能全速运行。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="215"/>
        <source>Set up this computer</source>
        <translation>配置本计算机</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="107"/>
        <source>Several CUDA toolkits are installed.</source>
        <translation>安装了多个 CUDA 工具包。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="334"/>
        <source>Several CUDA toolkits side by side are the usual cause of 'wrong nvcc' and library mix-ups. Only these go: {removes}.</source>
        <translation>多个 CUDA 工具包并存，通常会导致“nvcc 版本不对”和库混用。只删除以下内容：{removes}。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="188"/>
        <source>Shell scripts (*.sh)</source>
        <translation>Shell 脚本 (*.sh)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="371"/>
        <source>Show advanced choices</source>
        <translation>显示高级选项</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="145"/>
        <source>Snapshot saved: {path}</source>
        <translation>快照已保存：{path}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="152"/>
        <source>Snapshots (*.json)</source>
        <translation>快照 (*.json)</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="18"/>
        <source>Something does not work yet.</source>
        <translation>仍有部分功能无法正常工作。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="378"/>
        <source>Start the test</source>
        <translation>开始测试</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="383"/>
        <source>Starting…</source>
        <translation>正在启动…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="20"/>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="267"/>
        <source>Step</source>
        <translation>步骤</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="393"/>
        <source>Steps</source>
        <translation>步骤</translation>
    </message>
    <message>
        <location filename="../../ui/wizard.py" line="268"/>
        <source>Steps of the wizard</source>
        <translation>向导的步骤</translation>
    </message>
    <message>
        <location filename="../../ui/wizard.py" line="305"/>
        <source>Stop the GPU test and close the wizard?</source>
        <translation>停止 GPU 测试并关闭向导？</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="717"/>
        <source>Stop the other process or set the compute mode to Default (sudo nvidia-smi -c DEFAULT).</source>
        <translation>停止另一个进程，或把计算模式设为 Default（sudo nvidia-smi -c DEFAULT）。</translation>
    </message>
    <message>
        <location filename="../../ui/wizard.py" line="301"/>
        <source>Stop the running step and close? You can resume later: finished steps are skipped.</source>
        <translation>停止正在运行的步骤并关闭吗？稍后可以继续：已完成的步骤会被跳过。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="380"/>
        <source>Stop the test</source>
        <translation>停止测试</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="240"/>
        <source>Stopping…</source>
        <translation>正在停止…</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="196"/>
        <source>Summary</source>
        <translation>总结</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="220"/>
        <source>Support: see a user's machine page by page, read-only. Or try a demo machine.</source>
        <translation>技术支持：逐页只读查看用户的机器。也可以试用演示机器。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="21"/>
        <source>System</source>
        <translation>系统</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="214"/>
        <source>System cuDNN {version} ({package}) matches CUDA {cuda} and supports every GPU here; PyTorch keeps using its own cuDNN {wheel_cudnn}.</source>
        <translation>系统 cuDNN {version}（{package}）与 CUDA {cuda} 匹配，并支持这里的所有 GPU；PyTorch 仍使用自带的 cuDNN {wheel_cudnn}。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="374"/>
        <source>Target &amp;virtual environment:</source>
        <translation>目标虚拟环境(&amp;V)：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="44"/>
        <source>Temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="359"/>
        <source>Testing the GPU…</source>
        <translation>正在测试 GPU…</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="179"/>
        <source>The CUDA toolkit cannot be installed: {why}.</source>
        <translation>无法安装 CUDA 工具包：{why}。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="106"/>
        <source>The CUDA toolkit is newer than the driver supports.</source>
        <translation>CUDA 工具包版本高于驱动所支持的版本。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="393"/>
        <source>The CUDA toolkit that builds the extension (nvcc {found}, found through CUDA_HOME or PATH) is not the CUDA PyTorch was built with ({built}); PyTorch refuses to build against a different major version.</source>
        <translation>编译扩展所用的 CUDA 工具包（nvcc {found}，通过 CUDA_HOME 或 PATH 找到）不是 PyTorch 编译时所用的 CUDA（{built}）；PyTorch 拒绝针对不同的主版本编译。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="118"/>
        <source>The GPU cannot be used.</source>
        <translation>无法使用该 GPU。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="131"/>
        <source>The GPU gave wrong results in a numeric check.</source>
        <translation>GPU 在数值检查中给出了错误结果。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="716"/>
        <source>The GPU is in an exclusive compute mode and another process already holds it.</source>
        <translation>GPU 处于独占计算模式，且已被另一个进程占用。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="1810"/>
        <source>The GPU is not shared with WSL: the Windows driver puts it in TCC / datacenter mode (common on L40S, A100 and other server GPUs on Windows Server), the WSL or Windows build is too old, or a Linux nvidia-smi from a distribution package is used instead of the one in /usr/lib/wsl/lib.</source>
        <translation>GPU 没有共享给 WSL：Windows 驱动让它处于 TCC / 数据中心模式（在 Windows Server 上的 L40S、A100 等服务器 GPU 上很常见）、WSL 或 Windows 版本太旧，或使用的是发行版软件包中的 Linux nvidia-smi，而不是 /usr/lib/wsl/lib 中的那个。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="117"/>
        <source>The GPU is usable.</source>
        <translation>GPU 可用。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="138"/>
        <source>The GPU ran at its power limit.</source>
        <translation>GPU 以其功耗上限运行。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="1328"/>
        <source>The GPU ran out of memory.</source>
        <translation>GPU 显存耗尽。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="132"/>
        <source>The GPU runs at full speed under load.</source>
        <translation>GPU 在负载下全速运行。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="139"/>
        <source>The GPU slowed down because it got too hot.</source>
        <translation>GPU 因过热而降速。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="135"/>
        <source>The GPU stayed idle while it should have been busy.</source>
        <translation>GPU 在应当繁忙时处于空闲状态。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="2221"/>
        <source>The GPU stopped answering on the PCIe bus (Xid 79): usually a power or thermal problem (power supply, power cables, overheating), a loose card or riser, or an old system BIOS; on laptops also a power-management switch of the discrete GPU. CUDA then reports unknown errors.</source>
        <translation>GPU 在 PCIe 总线上停止响应（Xid 79）：通常是供电或散热问题（电源、电源线、过热）、显卡或转接卡松动，或系统 BIOS 过旧；在笔记本上也可能是独立显卡的电源管理开关。之后 CUDA 会报告未知错误。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="137"/>
        <source>The GPU was held back by its power limit.</source>
        <translation>GPU 受功耗上限限制。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="100"/>
        <source>The GPU's PCIe link runs narrower than it can.</source>
        <translation>GPU 的 PCIe 链路宽度低于其支持的宽度。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="119"/>
        <source>The GPU's compute mode forbids running programs on it.</source>
        <translation>GPU 的计算模式禁止在其上运行程序。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="696"/>
        <source>The GPU's compute mode is Prohibited: no process may create a CUDA context on it.</source>
        <translation>GPU 的计算模式为 Prohibited：任何进程都不能在其上创建 CUDA 上下文。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="136"/>
        <source>The GPU's power limit is set below its default.</source>
        <translation>GPU 的功耗上限被设置得低于默认值。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="389"/>
        <source>The Linux side (CUDA toolkit if wanted, PyTorch) runs inside a WSL 2 distro; {name} is the one NVIDIA's wsl-ubuntu packages are built for.</source>
        <translation>Linux 部分（需要时的 CUDA 工具包、PyTorch）在 WSL 2 发行版中运行；NVIDIA 的 wsl-ubuntu 软件包正是为 {name} 构建的。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="247"/>
        <source>The NVIDIA driver</source>
        <translation>NVIDIA 驱动</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="616"/>
        <source>The NVIDIA driver is installed but its kernel module is not loaded, so CUDA finds no GPU.</source>
        <translation>NVIDIA 驱动已安装，但其内核模块未加载，所以 CUDA 找不到 GPU。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="93"/>
        <source>The NVIDIA driver is installed but not loaded.</source>
        <translation>NVIDIA 驱动已安装，但未加载。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="92"/>
        <source>The NVIDIA driver is not installed.</source>
        <translation>未安装 NVIDIA 驱动。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="248"/>
        <source>The NVIDIA driver {current}</source>
        <translation>NVIDIA 驱动 {current} </translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="1566"/>
        <source>The NVIDIA installer built its kernel module but the kernel refused to load it. The usual reasons: Secure Boot rejects the unsigned module, nouveau holds the GPU, or the module was built against the wrong kernel sources.</source>
        <translation>NVIDIA 安装程序编译好了内核模块，但内核拒绝加载它。常见原因：Secure Boot 拒绝未签名的模块、nouveau 占用着 GPU，或模块是针对错误的内核源码编译的。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="96"/>
        <source>The NVIDIA management library (NVML) could not start.</source>
        <translation>NVIDIA 管理库（NVML）无法启动。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="1219"/>
        <source>The NVIDIA module cannot bind the GPU because nouveau holds it.</source>
        <translation>NVIDIA 模块无法绑定 GPU，因为 nouveau 占用着它。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="1212"/>
        <source>The NVIDIA module is not loaded because it could not be built for the running kernel: that kernel's headers are missing (typical right after a kernel update).</source>
        <translation>NVIDIA 模块未加载，因为无法为当前内核编译它：缺少该内核的头文件（内核更新后很常见）。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="1215"/>
        <source>The NVIDIA module is not loaded: Secure Boot refuses it because it is not signed by an enrolled key.</source>
        <translation>NVIDIA 模块未加载：Secure Boot 拒绝了它，因为它没有用已登记的密钥签名。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="1048"/>
        <source>The NVIDIA user-space libraries and the loaded kernel module are different versions: the driver was upgraded (often by unattended upgrades) and the old module is still loaded, or an old module is baked into the initramfs.</source>
        <translation>NVIDIA 用户态库与已加载的内核模块版本不同：驱动已升级（常由自动更新完成）但旧模块仍在运行，或旧模块被打包进了 initramfs。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="122"/>
        <source>The PCIe link runs below its full speed or width.</source>
        <translation>PCIe 链路未以其最高速度或宽度运行。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="366"/>
        <source>The PyTorch build matching this GPU and driver.</source>
        <translation>与此 GPU 和驱动匹配的 PyTorch 版本。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="377"/>
        <source>The Windows driver puts plain copies of libcuda in /usr/lib/wsl/lib, so ldconfig complains on every package install. A folder of links to the same files gives ldconfig what it expects; nothing about the driver changes.</source>
        <translation>Windows 驱动在 /usr/lib/wsl/lib 中放的是 libcuda 的普通副本，因此每次安装软件包时 ldconfig 都会报警。一个指向相同文件的链接文件夹能满足 ldconfig 的要求；驱动本身不做任何改动。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="355"/>
        <source>The advanced choices do not work on this machine: see the red text under the cards.</source>
        <translation>这些高级选项在此机器上不可用：请看卡片下方的红色文字。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="177"/>
        <source>The architecture list of {torch}+{index} on {os} is {confidence}, not read from the build itself; the verify step checks it on this machine.</source>
        <translation>{os} 上 {torch}+{index} 的架构列表是{confidence}的，并非从构建本身读取；验证步骤会在本机上检查。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="1424"/>
        <source>The archive inside the runfile is missing (its checksum is that of empty data): the download stopped early.</source>
        <translation>runfile 内的压缩包缺失（其校验和是空数据的校验和）：下载提前中断了。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="125"/>
        <source>The bandwidth test failed.</source>
        <translation>带宽测试失败。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="77"/>
        <source>The code that ran (the PyTorch wheel, or a compiled extension) contains no GPU code for this GPU's compute capability.</source>
        <translation>运行的代码（PyTorch wheel 或某个编译扩展）不含适用于此 GPU 计算能力的 GPU 代码。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="184"/>
        <source>The commands are on the clipboard.</source>
        <translation>命令已复制到剪贴板。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="392"/>
        <source>The confirmed plan runs step by step. You can cancel at any time.</source>
        <translation>已确认的计划将逐步执行。您可以随时取消。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="184"/>
        <source>The diagnosis failed: {error}</source>
        <translation>诊断失败：{error}</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="1451"/>
        <source>The disk filled up while the CUDA installer extracted or copied files (the toolkit needs several GB in /tmp and in /usr/local).</source>
        <translation>CUDA 安装程序解压或复制文件时磁盘已满（工具包在 /tmp 和 /usr/local 中各需要数 GB 空间）。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="1421"/>
        <source>The disk is nearly full: the runfile was truncated while saving or cannot be extracted. Running it with --override does not cure this.</source>
        <translation>磁盘快满了：runfile 在保存时被截断，或无法解压。用 --override 运行也解决不了。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="173"/>
        <source>The driver works but its version is unknown; the choice below assumes a current R{branch} driver. Run `nvidia-smi` and check its version against the minimum below.</source>
        <translation>驱动可以工作，但版本未知；下面的选择假定是较新的 R{branch} 驱动。请运行 `nvidia-smi`，将其版本与下面的最低版本比较。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="94"/>
        <source>The driver's library and kernel module versions differ; a reboot usually fixes this.</source>
        <translation>驱动库与内核模块版本不一致；通常重启即可解决。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="162"/>
        <source>The driver's version could not be read; it supports CUDA {cuda}, so it is at least {floor}, and the choice below assumes that.</source>
        <translation>无法读取驱动版本；它支持 CUDA {cuda}，因此版本至少为 {floor}，以下推荐以此为准。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="105"/>
        <source>The installed PyTorch has no kernels for this GPU.</source>
        <translation>已安装的 PyTorch 不包含此 GPU 的内核。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="479"/>
        <source>The installed PyTorch is a CPU-only build (often what plain `pip install torch` gives on Windows, or a conda CPU package), so it cannot use any GPU.</source>
        <translation>已安装的 PyTorch 是仅 CPU 版本（在 Windows 上直接 `pip install torch` 或 conda 的 CPU 包常常如此），因此无法使用任何 GPU。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="592"/>
        <source>The installed PyTorch is a CPU-only build, so CUDA is never available to it.</source>
        <translation>已安装的 PyTorch 是仅 CPU 版本，因此它永远无法使用 CUDA。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="102"/>
        <source>The installed PyTorch is a CPU-only build.</source>
        <translation>已安装的 PyTorch 是仅 CPU 版本。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="21"/>
        <source>The installed PyTorch wheel has no kernels for this GPU's compute capability: it was built for older architectures only.</source>
        <translation>已安装的 PyTorch wheel 没有适用于此 GPU 计算能力的内核：它只为较旧的架构编译。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="200"/>
        <source>The installed driver is not working; `gpu-wizard diagnose` says why and how to fix it.</source>
        <translation>已安装的驱动无法工作；`gpu-wizard diagnose` 会说明原因和修复方法。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="445"/>
        <source>The installed nvcc is too old to compile for sm_{arch}: each CUDA toolkit knows only the GPU architectures that existed when it was released (e.g. sm_89 needs CUDA 11.8, sm_120 needs CUDA 12.8).</source>
        <translation>已安装的 nvcc 太旧，无法为 sm_{arch} 编译：每个 CUDA 工具包只认识其发布时已有的 GPU 架构（例如 sm_89 需要 CUDA 11.8，sm_120 需要 CUDA 12.8）。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="239"/>
        <source>The installer stopped with an error: {error}</source>
        <translation>安装程序因错误而停止：{error}</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="99"/>
        <source>The kernel headers are missing; the driver cannot be built for this kernel.</source>
        <translation>缺少内核头文件；无法为此内核构建驱动。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="108"/>
        <source>The library search path points at an old CUDA version.</source>
        <translation>库搜索路径指向旧版 CUDA。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="133"/>
        <source>The load test failed.</source>
        <translation>负载测试失败。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="134"/>
        <source>The load test gave no result.</source>
        <translation>负载测试没有结果。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="148"/>
        <source>The log cannot be read: {error}</source>
        <translation>无法读取日志：{error}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="259"/>
        <source>The new driver is used after a restart. Restart now? The wizard continues with the verification when you start it again.</source>
        <translation>新驱动在重启后生效。现在重启吗？再次启动向导时将继续进行验证。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="672"/>
        <source>The nvidia_uvm kernel module is not loaded; CUDA needs it to create a context (it is often missing after suspend/resume or on headless servers without the udev rule).</source>
        <translation>nvidia_uvm 内核模块未加载；CUDA 需要它来创建上下文（休眠/唤醒之后，或在没有相应 udev 规则的无显示器服务器上，它常常缺失）。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="175"/>
        <source>The open kernel module is loaded, but a GPU here is older than Turing and needs the proprietary module.</source>
        <translation>当前加载的是开源内核模块，但这里有一块早于 Turing 的 GPU，需要专有模块。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="1501"/>
        <source>The open-source nouveau driver has claimed the GPU, so the NVIDIA driver cannot install or bind to it.</source>
        <translation>开源的 nouveau 驱动占用了 GPU，所以 NVIDIA 驱动无法安装或绑定到它。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="97"/>
        <source>The open-source nouveau driver is loaded and blocks the NVIDIA driver.</source>
        <translation>已加载开源 nouveau 驱动，它会阻止 NVIDIA 驱动。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="237"/>
        <source>The plan as the user's wizard made it, on the user's machine.</source>
        <translation>这是用户的向导在用户机器上制定的计划。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="193"/>
        <source>The program was built for cuDNN {major}, but a different cuDNN major is installed: cuDNN 8 and 9 are not interchangeable (different file names and APIs).</source>
        <translation>程序是为 cuDNN {major} 编译的，但安装的是另一个 cuDNN 主版本：cuDNN 8 和 9 不能互换（文件名和 API 都不同）。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="976"/>
        <source>The program's CUDA runtime is newer than the installed NVIDIA driver supports.</source>
        <translation>程序的 CUDA 运行时比已安装的 NVIDIA 驱动所支持的更新。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="149"/>
        <source>The report could not be written: {error}</source>
        <translation>无法写入报告：{error}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="135"/>
        <source>The report holds no plan: the user's wizard did not plan an install.</source>
        <translation>报告中没有计划：用户的向导没有制定安装计划。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="157"/>
        <source>The report holds no recommendation: the user's wizard did not get that far.</source>
        <translation>报告中没有推荐：用户的向导没有进行到这一步。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="353"/>
        <source>The runfile installs the toolkit without a package repository. It is checked against NVIDIA's published checksum before it runs (a corrupt download is the usual cause of 'gzip: stdin: invalid compressed data'), and only the toolkit is installed, never its bundled driver.</source>
        <translation>runfile 无需软件包仓库即可安装工具包。运行前会用 NVIDIA 公布的校验和检查它（下载损坏通常是“gzip: stdin: invalid compressed data”的原因），并且只安装工具包，绝不安装其附带的驱动。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="1376"/>
        <source>The runfile is corrupt or incomplete: the download stopped early, the disk filled up while saving it, or what was saved is an error page instead of the installer. Running it with --override does not cure this.</source>
        <translation>runfile 已损坏或不完整：下载提前中断、保存时磁盘已满，或保存下来的是错误页面而不是安装程序。用 --override 运行也解决不了。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="198"/>
        <source>The script could not be written: {error}</source>
        <translation>无法写入脚本：{error}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="149"/>
        <source>The snapshot could not be saved: {error}</source>
        <translation>无法保存快照：{error}</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="355"/>
        <source>The toolkit (nvcc, headers, libraries) is only needed to build CUDA code such as PyTorch extensions. The versioned {package} package installs it without touching the driver.</source>
        <translation>工具包（nvcc、头文件、库）只在编译 CUDA 代码（如 PyTorch 扩展）时需要。带版本号的 {package} 软件包会安装它，且不改动驱动。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="356"/>
        <source>The toolkit (nvcc, headers, libraries) is only needed to build CUDA code. {package} installs it without touching the driver.</source>
        <translation>工具包（nvcc、头文件、库）只在编译 CUDA 代码时需要。{package} 会安装它，且不改动驱动。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="197"/>
        <source>The verdict, and what changed.</source>
        <translation>结论，以及所做的更改。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="262"/>
        <source>The verification could not run: {error}</source>
        <translation>无法运行验证：{error}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="211"/>
        <source>The wizard could not download what it needs. Enter your proxy, a mirror or your organisation's certificate bundle, press Apply, then Next: the plan is made again with them.</source>
        <translation>向导无法下载所需内容。请填写代理、镜像或贵单位的证书包，按“应用”，再按“下一步”：计划会据此重新生成。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="140"/>
        <source>There is no recommendation to plan from.</source>
        <translation>没有可用于制定计划的推荐。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="336"/>
        <source>These entries point at CUDA folders that are gone or belong to another version, so programs could load the wrong libraries. Each file is backed up first.</source>
        <translation>这些条目指向已不存在或属于其他版本的 CUDA 文件夹，程序可能因此加载错误的库。每个文件都会先备份。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="375"/>
        <source>These libraries would be loaded instead of the Windows driver's libcuda in /usr/lib/wsl/lib.</source>
        <translation>这些库会取代 /usr/lib/wsl/lib 中 Windows 驱动的 libcuda 被加载。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="329"/>
        <source>This choice cannot be used:</source>
        <translation>此选项无法使用：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="189"/>
        <source>This file cannot be opened: {error}</source>
        <translation>无法打开此文件：{error}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="193"/>
        <source>This fix cannot be turned into a plan: {error}</source>
        <translation>无法将此修复生成计划：{error}</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="721"/>
        <source>This machine shows no NVIDIA GPU at all: none is installed, it is switched off in the firmware (or by a laptop's hybrid-graphics setting), or, in a virtual machine or container, it was not passed through.</source>
        <translation>这台机器上完全看不到 NVIDIA GPU：没有安装、在固件中被关闭（或被笔记本的混合显卡设置关闭），或在虚拟机/容器中没有直通。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="158"/>
        <source>This operating system has no NVIDIA CUDA wheels; only the CPU build of PyTorch can be installed.</source>
        <translation>此操作系统没有 NVIDIA CUDA 版的 PyTorch 安装包；只能安装 CPU 版 PyTorch。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="178"/>
        <source>This wheel has no compiled kernels for one GPU; the driver compiles them from PTX at first use (slow start).</source>
        <translation>此安装包没有为其中一块 GPU 编译好的内核；驱动会在首次使用时从 PTX 编译（启动较慢）。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="214"/>
        <source>This wizard will:</source>
        <translation>本向导将：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="359"/>
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
        <location filename="../../ui/pages/recommendation_page.py" line="373"/>
        <source>Toolkit install &amp;method:</source>
        <translation>工具包安装方式(&amp;M)：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="246"/>
        <source>Troubleshoot</source>
        <translation>故障排查</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="216"/>
        <source>Troubleshoot an error</source>
        <translation>排查错误</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="402"/>
        <source>Troubleshoot this error</source>
        <translation>排查此错误</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="337"/>
        <source>Turn off the nouveau driver</source>
        <translation>停用 nouveau 驱动</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="382"/>
        <source>Turn on the Windows features WSL 2 needs</source>
        <translation>启用 WSL 2 所需的 Windows 功能</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="257"/>
        <source>Turn the fix into a plan</source>
        <translation>将修复方法生成计划</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="2142"/>
        <source>Two sets of NVIDIA packages want the same file ({path}, owned by {pkg}): driver packages from different sources (the distribution, a PPA, NVIDIA's repository) or different branches are mixed.</source>
        <translation>两组 NVIDIA 软件包要写同一个文件（{path}，属于 {pkg}）：混用了来自不同来源（发行版、PPA、NVIDIA 仓库）或不同分支的驱动软件包。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="195"/>
        <source>Under WSL 2 the driver lives on Windows: install or update the NVIDIA Windows driver to {need} or newer (now: {now}{why_note}). Never install a Linux NVIDIA driver inside WSL.</source>
        <translation>在 WSL 2 下，驱动位于 Windows：请安装 NVIDIA Windows 驱动或将其更新到 {need} 或更新版本（当前：{now}{why_note}）。切勿在 WSL 内安装 Linux 版 NVIDIA 驱动。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="194"/>
        <source>Under WSL 2 the driver lives on Windows: keep the Windows driver {current} (it is at least {need}). Never install a Linux NVIDIA driver inside WSL.</source>
        <translation>在 WSL 2 下，驱动位于 Windows：保留 Windows 驱动 {current}（不低于 {need}）。切勿在 WSL 内安装 Linux 版 NVIDIA 驱动。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="20"/>
        <source>Under load</source>
        <translation>负载测试</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="480"/>
        <source>Uninstall it and install a CUDA build of PyTorch from the PyTorch index for your driver.</source>
        <translation>卸载它，并从 PyTorch 软件源安装适合您驱动的 CUDA 版 PyTorch。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="692"/>
        <source>Unset CUDA_VISIBLE_DEVICES, or set it to an index nvidia-smi -L lists (indexes restart at 0 inside the process).</source>
        <translation>取消 CUDA_VISIBLE_DEVICES，或把它设为 nvidia-smi -L 列出的编号（进程内编号从 0 重新开始）。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="384"/>
        <source>Update WSL and its Linux kernel</source>
        <translation>更新 WSL 及其 Linux 内核</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="1869"/>
        <source>Update Windows and WSL (wsl --update), install the current Windows NVIDIA driver, use the stock WSL kernel, then `wsl --shutdown` and start the distribution again.</source>
        <translation>更新 Windows 和 WSL（wsl --update），安装最新的 Windows NVIDIA 驱动，使用官方 WSL 内核，然后 `wsl --shutdown` 并重新启动发行版。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="977"/>
        <source>Upgrade the NVIDIA driver (on WSL: the Windows driver), or install a PyTorch build for an older CUDA that this driver supports.</source>
        <translation>升级 NVIDIA 驱动（WSL 上：Windows 驱动），或安装此驱动支持的较旧 CUDA 版本的 PyTorch。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="340"/>
        <source>Upgrade the NVIDIA driver {branch}({flavour} kernel modules)</source>
        <translation>升级 NVIDIA 驱动 {branch}（{flavour}内核模块）</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="192"/>
        <source>Upgrade to driver branch R{branch} ({flavour} kernel module): {why}; R{branch} runs {torch}+{index} with {compat} compatibility.{cap}{no_package}</source>
        <translation>升级到驱动分支 R{branch}（{flavour}内核模块）：{why}；R{branch} 以{compat}兼容方式运行 {torch}+{index}。{cap}{no_package}</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="78"/>
        <source>Use a PyTorch build (and rebuild custom CUDA extensions) for this GPU's compute capability; for an extension set TORCH_CUDA_ARCH_LIST to the GPU's capability before building.</source>
        <translation>使用适合此 GPU 计算能力的 PyTorch 版本（并重新编译自定义 CUDA 扩展）；编译扩展前把 TORCH_CUDA_ARCH_LIST 设为此 GPU 的计算能力。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="1811"/>
        <source>Use the WDDM driver mode on Windows where the GPU allows it (nvidia-smi -g 0 -dm 0 as administrator, then restart), update Windows, WSL (wsl --update) and the Windows NVIDIA driver, and remove any Linux NVIDIA driver packages from the distribution.</source>
        <translation>在 GPU 允许时让 Windows 使用 WDDM 驱动模式（以管理员身份运行 nvidia-smi -g 0 -dm 0，然后重启），更新 Windows、WSL（wsl --update）和 Windows NVIDIA 驱动，并从发行版中删除所有 Linux NVIDIA 驱动软件包。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="2000"/>
        <source>Use the spawn start method (multiprocessing.set_start_method('spawn') or DataLoader(multiprocessing_context='spawn')) and keep CUDA work in the main process.</source>
        <translation>使用 spawn 启动方式（multiprocessing.set_start_method('spawn') 或 DataLoader(multiprocessing_context='spawn')），并把 CUDA 工作留在主进程中。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="347"/>
        <source>Use your mirror for NVIDIA's repository</source>
        <translation>为 NVIDIA 仓库使用您的镜像</translation>
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
        <location filename="../../ui/pages/verify_page.py" line="384"/>
        <source>Verdicts</source>
        <translation>结论</translation>
    </message>
    <message>
        <location filename="../../ui/wizard.py" line="18"/>
        <source>Verify</source>
        <translation>验证</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="369"/>
        <source>Verify and stress</source>
        <translation>验证与压力测试</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="20"/>
        <source>Version</source>
        <translation>版本</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="364"/>
        <source>Versions that work together on this machine, and why.</source>
        <translation>在本机上可以协同工作的版本，以及原因。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="22"/>
        <source>WSL</source>
        <translation>WSL</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="159"/>
        <source>WSL 1 cannot use the GPU. Convert this distribution to WSL 2: wsl --set-version &lt;distro&gt; 2</source>
        <translation>WSL 1 无法使用 GPU。请将此发行版转换为 WSL 2：wsl --set-version &lt;distro&gt; 2</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="114"/>
        <source>WSL 2 cannot see the GPU (/dev/dxg is missing).</source>
        <translation>WSL 2 无法看到 GPU（缺少 /dev/dxg）。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="112"/>
        <source>WSL 2 may use too little memory for training.</source>
        <translation>WSL 2 可用内存可能不足以进行训练。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="379"/>
        <source>WSL 2 may use {current_mib} MiB now; training needs room for the data loaders and pinned buffers, about twice the GPU's memory. The setting lives in your Windows user's .wslconfig.</source>
        <translation>WSL 2 目前最多可用 {current_mib} MiB；训练需要为数据加载器和锁页缓冲区留出空间，约为 GPU 显存的两倍。该设置保存在您 Windows 用户的 .wslconfig 中。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="383"/>
        <source>WSL 2 runs Linux in a light virtual machine: Windows needs 'Windows Subsystem for Linux' and 'Virtual Machine Platform' switched on. Windows asks for administrator approval for this step only.</source>
        <translation>WSL 2 在轻量虚拟机中运行 Linux：Windows 需要启用“适用于 Linux 的 Windows 子系统”和“虚拟机平台”。只有这一步 Windows 会请求管理员批准。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="113"/>
        <source>WSL is not installed.</source>
        <translation>未安装 WSL。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="1868"/>
        <source>WSL's GPU bridge (/dev/dxg, the dxgkrnl driver) is missing or failing, so nothing in Linux can reach the GPU: the Windows build or WSL version is too old for GPU support, the Windows NVIDIA driver is missing, or the WSL kernel is a custom one without dxgkrnl.</source>
        <translation>WSL 的 GPU 桥接（/dev/dxg，dxgkrnl 驱动）缺失或出错，Linux 中任何程序都无法访问 GPU：Windows 版本或 WSL 版本太旧不支持 GPU、缺少 Windows NVIDIA 驱动，或 WSL 内核是不含 dxgkrnl 的自定义内核。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/base.py" line="61"/>
        <source>Walkthrough of a recorded machine: {machine}, recorded {when} ({file}). Read-only: nothing runs on this computer; installs are a dry run.</source>
        <translation>正在查看已记录的机器：{machine}，记录于 {when}（{file}）。只读：本机不会执行任何操作；安装为演练。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="368"/>
        <source>Warnings</source>
        <translation>警告</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="207"/>
        <source>Welcome</source>
        <translation>欢迎</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="208"/>
        <source>What</source>
        <translation>项目</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="207"/>
        <source>What this computer has now. Nothing has been changed.</source>
        <translation>本计算机的当前状态。尚未做任何更改。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="183"/>
        <source>What to do: {hint}</source>
        <translation>处理方法：{hint}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/summary_page.py" line="198"/>
        <source>What was done</source>
        <translation>已完成的操作</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="1427"/>
        <source>What was saved is a web page (an error or login page), not the installer: the download link was wrong or needed a redirect.</source>
        <translation>保存下来的是网页（错误页或登录页），不是安装程序：下载链接错误或需要跳转。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="344"/>
        <source>Why:</source>
        <translation>原因：</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="351"/>
        <source>Working out what fits this machine…</source>
        <translation>正在计算适合本机的配置…</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="360"/>
        <source>You asked for cuDNN as a system library (for software outside PyTorch; PyTorch's wheels bring their own).</source>
        <translation>您选择了将 cuDNN 安装为系统库（供 PyTorch 以外的软件使用；PyTorch 的 wheel 自带 cuDNN）。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="353"/>
        <source>You changed the advanced choices: press Apply to check them.</source>
        <translation>您修改了高级选项：请按“应用”进行检查。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="348"/>
        <source>administrator</source>
        <translation>管理员</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="23"/>
        <source>already done</source>
        <translation>已完成（跳过）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/base.py" line="60"/>
        <source>an unknown time</source>
        <translation>未知时间</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="2097"/>
        <source>apt does not know the package {pkg}: NVIDIA's CUDA repository is not set up for this distribution (or `apt-get update` was not run after adding it), or that version is not published for this OS release.</source>
        <translation>apt 不认识软件包 {pkg}：没有为此发行版设置 NVIDIA 的 CUDA 仓库（或添加后没有运行 `apt-get update`），或该版本没有为此系统版本发布。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="350"/>
        <source>apt must read the new repository's package list before it can install from it.</source>
        <translation>apt 必须先读取新仓库的软件包列表，才能从中安装。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="309"/>
        <source>bundled with PyTorch</source>
        <translation>随 PyTorch 附带</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="23"/>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="365"/>
        <source>cuDNN</source>
        <translation>cuDNN</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="940"/>
        <source>cuDNN has no algorithm for this exact call: the input shape, dtype or memory layout is not supported (e.g. a non-contiguous input, a very large batch), the cuDNN version is too old for the GPU, or the GPU ran out of memory while cuDNN picked an algorithm.</source>
        <translation>cuDNN 对这次调用没有可用的算法：输入的形状、数据类型或内存布局不受支持（例如非连续输入、极大的批次），cuDNN 版本对此 GPU 来说太旧，或 cuDNN 选择算法时 GPU 显存耗尽。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="129"/>
        <source>cuDNN is not available to PyTorch.</source>
        <translation>PyTorch 无法使用 cuDNN。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="218"/>
        <source>cuDNN itself was found, but a library it needs ({dep}) was not: libcuda.so comes with the NVIDIA driver (in WSL from /usr/lib/wsl/lib), libnvrtc with the CUDA runtime.</source>
        <translation>找到了 cuDNN，但找不到它需要的库（{dep}）：libcuda.so 随 NVIDIA 驱动提供（WSL 中位于 /usr/lib/wsl/lib），libnvrtc 随 CUDA 运行时提供。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="262"/>
        <source>cuDNN was found, but the CUDA runtime compiler library it needs ({dep}) was not: cuDNN 8's runtime-compiled kernels load libnvrtc, which comes with the CUDA runtime (a pip nvidia-cuda-nvrtc wheel or the toolkit).</source>
        <translation>找到了 cuDNN，但找不到它需要的 CUDA 运行时编译库（{dep}）：cuDNN 8 的运行时编译内核会加载 libnvrtc，它随 CUDA 运行时提供（pip 的 nvidia-cuda-nvrtc wheel 或工具包）。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="196"/>
        <source>cuDNN {major} is installed but not where the dynamic loader looks.</source>
        <translation>cuDNN {major} 已安装，但不在动态加载器查找的位置。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="213"/>
        <source>cuDNN {version} comes with the PyTorch wheel (a pip dependency); no system cuDNN is needed.</source>
        <translation>cuDNN {version} 随 PyTorch 安装包提供（pip 依赖）；不需要系统 cuDNN。</translation>
    </message>
    <message>
        <location filename="../../ui/wizard.py" line="242"/>
        <source>current page</source>
        <translation>当前页</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="399"/>
        <source>default</source>
        <translation>默认</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="351"/>
        <source>dnf must read the new repository's package list before it can install from it.</source>
        <translation>dnf 必须先读取新仓库的软件包列表，才能从中安装。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="22"/>
        <source>done</source>
        <translation>完成</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="225"/>
        <source>driver {current} cannot run PyTorch {why_torch}+{why_index}, the newest for this GPU</source>
        <translation>驱动 {current} 无法运行此 GPU 可用的最新版本 PyTorch {why_torch}+{why_index}</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="226"/>
        <source>driver {current} cannot run PyTorch {why_torch}+{why_index}, the newest for this GPU (it runs {why_runs} at most)</source>
        <translation>驱动 {current} 无法运行此 GPU 可用的最新版本 PyTorch {why_torch}+{why_index}（它最多能运行 {why_runs}）</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="219"/>
        <source>driver {current} is not usable</source>
        <translation>驱动 {current} 不可用</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="222"/>
        <source>driver {current} predates this GPU (it needs R{min_branch} or newer)</source>
        <translation>驱动 {current} 早于此 GPU（需要 R{min_branch} 或更新版本）</translation>
    </message>
    <message>
        <location filename="../../ui/wizard.py" line="263"/>
        <source>dry run</source>
        <translation>演练</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="235"/>
        <source>every GPU here</source>
        <translation>这里的所有 GPU</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="22"/>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="34"/>
        <source>fine</source>
        <translation>正常</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="283"/>
        <source>from secondary sources</source>
        <translation>来自二手资料</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="280"/>
        <source>full</source>
        <translation>完全</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="283"/>
        <source>inferred</source>
        <translation>推断</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="305"/>
        <source>install CUDA {v}</source>
        <translation>安装 CUDA {v}</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="294"/>
        <source>install the driver</source>
        <translation>安装驱动</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="212"/>
        <source>install with a live log, asking for administrator rights only where needed</source>
        <translation>安装时实时显示日志，仅在需要时请求管理员权限</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="27"/>
        <source>installed, not loaded</source>
        <translation>已安装，未加载</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="293"/>
        <source>keep the installed driver</source>
        <translation>保留已安装的驱动</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="28"/>
        <source>library and kernel module differ</source>
        <translation>库与内核模块不一致</translation>
    </message>
    <message>
        <location filename="../../ui/pages/troubleshoot_page.py" line="230"/>
        <source>line {n}</source>
        <translation>第 {n} 行</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="209"/>
        <source>look at this computer: GPU, driver, CUDA, Python and PyTorch</source>
        <translation>检查本计算机：GPU、驱动、CUDA、Python 和 PyTorch</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="258"/>
        <source>matches the CUDA {wheel} runtime inside the PyTorch wheel (for building extensions)</source>
        <translation>与 PyTorch 安装包内的 CUDA {wheel} 运行时一致（用于编译扩展）</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="280"/>
        <source>minor-version</source>
        <translation>次版本</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="216"/>
        <source>needs administrator rights</source>
        <translation>需要管理员权限</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="302"/>
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
        <location filename="../../ui/i18n.py" line="264"/>
        <source>no CUDA toolkit in {repo} is both supported by the GPUs and at most CUDA {max_cuda} (the driver's limit)</source>
        <translation>{repo} 中没有既被这些 GPU 支持、又不高于 CUDA {max_cuda}（驱动上限）的 CUDA 工具包</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="265"/>
        <source>no CUDA toolkit is both supported by the GPUs and at most CUDA {max_cuda} (the driver's limit)</source>
        <translation>没有既被这些 GPU 支持、又不高于 CUDA {max_cuda}（驱动上限）的 CUDA 工具包</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="218"/>
        <source>no NVIDIA driver is installed</source>
        <translation>未安装 NVIDIA 驱动</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="318"/>
        <source>no PyTorch release can use this GPU here</source>
        <translation>没有可在此处使用该 GPU 的 PyTorch 版本</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="282"/>
        <source>no communication</source>
        <translation>无法通信</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="237"/>
        <source>no driver branch supports all these GPUs (one needs R{min_branch} or newer, another ends at R{max_branch})</source>
        <translation>没有一个驱动分支支持所有这些 GPU（一块需要 R{min_branch} 或更新版本，另一块止于 R{max_branch}）</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="263"/>
        <source>no driver to run it</source>
        <translation>没有能运行它的驱动</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="266"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="32"/>
        <source>none (optional: PyTorch brings its own CUDA runtime)</source>
        <translation>无（可选：PyTorch 自带 CUDA 运行时）</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="233"/>
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
        <location filename="../../ui/i18n.py" line="282"/>
        <source>not loaded</source>
        <translation>未加载</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/bandwidth.py" line="33"/>
        <source>not measured</source>
        <translation>未测量</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="307"/>
        <source>not needed: the PyTorch wheel brings its own CUDA runtime</source>
        <translation>不需要：PyTorch 安装包自带 CUDA 运行时</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="28"/>
        <source>not responding</source>
        <translation>无响应</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="295"/>
        <source>nothing to do</source>
        <translation>无需操作</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="338"/>
        <source>nouveau (the open-source driver) is using the GPU; the NVIDIA driver can only load once it is blacklisted and the initramfs (the early boot image) no longer contains it.</source>
        <translation>nouveau（开源驱动）正在占用 GPU；只有将其加入黑名单、并且 initramfs（早期启动镜像）不再包含它之后，NVIDIA 驱动才能加载。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="23"/>
        <source>nvcc</source>
        <translation>nvcc</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="180"/>
        <source>nvcc {version} differs from the wheel's CUDA {wheel}; extensions still build within CUDA {major}.x.</source>
        <translation>nvcc {version} 与安装包的 CUDA {wheel} 不同；在 CUDA {major}.x 范围内扩展仍可编译。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="1121"/>
        <source>nvidia-smi (NVML) could not talk to the NVIDIA kernel module: it is not loaded (not built for the running kernel after a kernel update, refused by Secure Boot, or blocked by nouveau).</source>
        <translation>nvidia-smi（NVML）无法与 NVIDIA 内核模块通信：模块未加载（内核更新后未针对当前内核编译、被 Secure Boot 拒绝，或被 nouveau 阻挡）。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="95"/>
        <source>nvidia-smi cannot talk to the driver.</source>
        <translation>nvidia-smi 无法与驱动通信。</translation>
    </message>
    <message>
        <location filename="../../resources/diagnose/rules.json" line="1968"/>
        <source>nvidia-smi crashed. In WSL this happens with some Windows driver releases (the WSL nvidia-smi comes from the Windows driver) or when a Linux nvidia-smi from a distribution package is run instead of /usr/lib/wsl/lib/nvidia-smi.</source>
        <translation>nvidia-smi 崩溃了。在 WSL 中，某些 Windows 驱动版本会出现这种情况（WSL 的 nvidia-smi 来自 Windows 驱动），或者运行的是发行版软件包中的 Linux nvidia-smi，而不是 /usr/lib/wsl/lib/nvidia-smi。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="281"/>
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
        <location filename="../../ui/i18n.py" line="281"/>
        <source>proprietary</source>
        <translation>专有</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="29"/>
        <source>provided by the Windows host</source>
        <translation>由 Windows 主机提供</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="210"/>
        <source>recommend versions that work together, and say why</source>
        <translation>推荐可协同工作的版本，并说明原因</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="267"/>
        <source>recommended</source>
        <translation>推荐</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="197"/>
        <source>retrying from the failed step</source>
        <translation>从失败的步骤重试</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="22"/>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/charts.py" line="156"/>
        <source>seconds</source>
        <translation>秒</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="211"/>
        <source>show every command before anything runs; you confirm</source>
        <translation>在执行前显示每条命令，由您确认</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="21"/>
        <source>skipped</source>
        <translation>已跳过</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="309"/>
        <source>system package</source>
        <translation>系统软件包</translation>
    </message>
    <message>
        <location filename="../../ui/pages/welcome_page.py" line="213"/>
        <source>test the GPU under load with live charts, and write a report</source>
        <translation>用实时图表对 GPU 进行负载测试，并生成报告</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="294"/>
        <source>the Windows host provides the driver</source>
        <translation>驱动由 Windows 主机提供</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="262"/>
        <source>the closest to the wheel's CUDA {wheel}, which the GPUs here cannot use</source>
        <translation>最接近安装包 CUDA {wheel} 的版本（这里的 GPU 无法使用该版本）</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="261"/>
        <source>the closest to the wheel's CUDA {wheel}, which the {repo} repository does not carry</source>
        <translation>最接近安装包 CUDA {wheel} 的版本（{repo} 仓库不提供该版本）</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="220"/>
        <source>the installed driver is not working ({state}) and its version is unknown</source>
        <translation>已安装的驱动无法工作（{state}），且版本未知</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="243"/>
        <source>the newest</source>
        <translation>最新版</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="260"/>
        <source>the newest CUDA {major}.x the driver supports (the wheel's CUDA {wheel} is newer than the driver's limit, {max_cuda})</source>
        <translation>驱动支持的最新 CUDA {major}.x（安装包的 CUDA {wheel} 超过了驱动上限 {max_cuda}）</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="259"/>
        <source>the newest the driver supports</source>
        <translation>驱动支持的最新版本</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="236"/>
        <source>these GPUs need different kernel modules (open required by one, impossible on another)</source>
        <translation>这些 GPU 需要不同的内核模块（一块必须用开源模块，另一块不能用）</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="245"/>
        <source>this system</source>
        <translation>此系统</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="29"/>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <location filename="../../ui/pages/recommendation_page.py" line="293"/>
        <source>upgrade the driver</source>
        <translation>升级驱动</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="283"/>
        <source>verified</source>
        <translation>已核实</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="282"/>
        <source>version mismatch</source>
        <translation>版本不一致</translation>
    </message>
    <message>
        <location filename="../../ui/pages/install_page.py" line="22"/>
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
        <location filename="../../ui/pages/install_page.py" line="346"/>
        <source>would run (dry run)</source>
        <translation>将会执行（演练）</translation>
    </message>
    <message>
        <location filename="../../ui/pages/system_page.py" line="30"/>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="232"/>
        <source>{current}</source>
        <translation>{current}</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="234"/>
        <source>{gpu}</source>
        <translation>{gpu}</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="164"/>
        <source>{gpu} is a Jetson/Tegra GPU: use NVIDIA JetPack's PyTorch builds, not these wheels.</source>
        <translation>{gpu} 是 Jetson/Tegra GPU：请使用 NVIDIA JetPack 提供的 PyTorch，而不是这些安装包。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="242"/>
        <source>{newest}</source>
        <translation>{newest}</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/log_view.py" line="316"/>
        <source>{n} matches</source>
        <translation>{n} 个匹配</translation>
    </message>
    <message>
        <location filename="../../ui/pages/verify_page.py" line="375"/>
        <source>{n} s</source>
        <translation>{n} 秒</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="228"/>
        <source>{n} steps.</source>
        <translation>{n} 个步骤。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="208"/>
        <source>{opt}CUDA {version} (installer): {why}.</source>
        <translation>{opt}CUDA {version}（安装程序）：{why}。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="207"/>
        <source>{opt}CUDA {version} (runfile): {why}.</source>
        <translation>{opt}CUDA {version}（runfile）：{why}。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="209"/>
        <source>{opt}CUDA {version} from NVIDIA's Windows installer: {why}.</source>
        <translation>{opt}来自 NVIDIA Windows 安装程序的 CUDA {version}：{why}。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="205"/>
        <source>{opt}{package} from NVIDIA's {repo} repository: {why}.</source>
        <translation>{opt}来自 NVIDIA {repo} 仓库的 {package}：{why}。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="206"/>
        <source>{opt}{package} from NVIDIA's {repo} repository: {why}. The WSL repository never installs a driver.</source>
        <translation>{opt}来自 NVIDIA {repo} 仓库的 {package}：{why}。WSL 仓库从不安装驱动。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="244"/>
        <source>{os}</source>
        <translation>{os}</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="364"/>
        <source>{reason}</source>
        <translation>{reason}</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="365"/>
        <source>{reason} Packages come from {url}.</source>
        <translation>{reason} 软件包来自 {url}。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="341"/>
        <source>{reason} The new driver is used after a restart.</source>
        <translation>{reason} 新驱动在重启后生效。</translation>
    </message>
    <message>
        <location filename="../../ui/pages/plan_page.py" line="233"/>
        <source>{r} of them need administrator rights: you will be asked for your password once.</source>
        <translation>其中 {r} 个需要管理员权限：会请您输入一次密码。</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="250"/>
        <source>{subject} is installed but not working ({state}), so no GPU is visible.{hint}</source>
        <translation>{subject}已安装但无法工作（{state}），因此看不到 GPU。{hint}</translation>
    </message>
    <message>
        <location filename="../../ui/i18n.py" line="249"/>
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
