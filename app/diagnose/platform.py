"""Which machine an error text comes from: the platform a fix must be written for.

`infer_platform(text, facts)` reads the text's own clues first (paths, prompts, DLL names, `C:\\`,
`/mnt/c`, Docker Desktop, package-manager commands, a traceback's site-packages folder) and the facts
of this machine second. When the text shows another machine than the facts (another OS, another
package manager, another home folder, a bare-metal host while this wizard runs in a container), the
text is *foreign*: this machine's facts must not decide the cause, and the answer says so.

The result is a `Platform` (app.diagnose.model): the OS (linux, wsl, windows, macos), the package
manager, the container, the failing Python environment, where the answer came from, and the clues.
`Platform.tags` orders the names fix entries are looked up by, most specific first.
"""
from __future__ import annotations

import re
from typing import Literal, Optional, cast

from app.diagnose.gates import Gated
from app.diagnose.model import Platform
from app.facts import Facts

OsName = Literal["linux", "wsl", "windows", "macos"]
Source = Literal["text", "facts", "default"]

# (clue name, pattern) per platform, matched on the raw text (before any cleaning). Each pattern is a
# thing only that platform prints or has: a drive path, a DLL, a WSL kernel, a macOS framework path.
_WSL = (
    ("wsl_kernel", r"microsoft-standard(?:-wsl2)?|[\w.]-microsoft\b"),  # a kernel release (4.4.0-19041-Microsoft), not --microsoft
    ("wsl_libs", r"/usr/lib/wsl/(?:lib|drivers)"),
    ("mnt_c", r"(?<![\w.])/mnt/[a-z]/(?:Users|Windows|Program)"),
    ("wsl_command", r"\bwsl(?:\.exe)? (?:--|-[a-z] )|\\\\wsl(?:\.localhost|\$)\\"),
    ("dxg", r"/dev/dxg\b|\blibdxcore\b|\bdxgkrnl\b"),
    ("wsl_distro", r"\bWSL_DISTRO_NAME\b|\bWSL ?2\b(?! *(?:is )?not)"),
    ("wsl_said", r"\b(?:in|under|inside|within|from|with|using|via|on) (?:(?:an? |my )?(?:ubuntu|debian|linux) (?:\d[\d.]* )?(?:in|on|under) )?WSL ?[12]?\b(?! *(?:is )?not)"),
    # the container toolkit's own words when the engine runs inside WSL (Docker Desktop's WSL backend, docker in a distro)
    ("wsl_container_cli", r"\bWSL environment detected\b"),
    # a Linux shell prompt on a host with Windows' default computer name (DESKTOP-XXXXXXX): a WSL distro takes it as its hostname
    ("wsl_prompt", r"\b[a-z_][\w-]*@(?-i:DESKTOP|LAPTOP)-[A-Z0-9]{7}:"),
)
_WINDOWS = (
    ("drive_path", r"(?<![\w/\\])[A-Za-z]:\\(?:[\w$ .()+\-]+\\)*[\w$ .()+\-]*"),
    ("drive_path", r"(?<![\w/])[A-Za-z]:/(?:Users|Program Files|ProgramData|Windows|Python\d*|AppData)/"),
    ("winerror", r"\[WinError \d+\]|\bWinError\b"),
    ("dll", r"\b[\w.\-]+\.dll\b"),
    ("powershell", r"(?:^|\n)\s*PS [A-Za-z]:\\|is not recognized as (?:the name of a cmdlet|an internal or external command)"),
    ("windows_wheel", r"\bwin_amd64\b|\bwin32\b|\\Scripts\\(?:python|pip)"),
    ("windows_named", r"\bWindows (?:1[01]|Server(?: 20\d\d)?|7|8\.1)\b|\bDLL load failed\b|\bWin(?:10|11)\b|(?:^|\n)[^\w\n]*OS(?: Name)?:[ \t]*(?:Microsoft )?Windows\b"),
    # the user saying where it runs ("I am running this on windows"), never a comparison ("works on Windows but")
    ("windows_said", r"\b(?:running|run|runs|using|use|installed|install(?:ing)?|am|I'm|i'm|we're|work(?:ing)?) (?:it |this |that |them |everything )?"
                     r"(?:on|under|in) (?:a |my |the )?(?:windows|win ?1[01])\b(?! (?:subsystem|but|and linux|or linux))(?! ?/ ?(?:linux|wsl))"),
    # or naming the machine as theirs: "my Windows(11) PC", "my windows 10 laptop"
    ("windows_said", r"\bmy (?:windows|win) ?\(?(?:1[01]|7|8\.1)?\)? ?(?:pc|laptop|machine|computer|desktop|notebook|workstation)\b"),
    # cmd.exe's "is not recognized as an internal or external command", in the consoles' languages (zh, ja, de, fr, es, pt,
    # ru, it), and the paging file Windows alone has (os error 1455)
    ("windows_console", r"不是内部或外部命令|不是內部或外部命令|内部コマンドまたは外部コマンド|ist entweder falsch geschrieben oder konnte nicht gefunden werden|"
                        r"n'est pas reconnu en tant que commande interne|no se reconoce como un comando interno|"
                        r"n[ãa]o [ée] reconhecido como um comando interno|не является внутренней или внешней|"
                        r"non [èe] riconosciuto come comando interno|\bpaging file is too small\b|\bos error 1455\b|页面文件太小|分页文件太小"),
)
_MACOS = (
    ("mac_home", r"(?<![A-Za-z]:)(?<![\w/\\.])/Users/(?:[\w.\-]+|\{\w+\}|<\w+>)/"),  # a redacted {user} or <user> too
    ("mac_paths", r"/opt/homebrew/|/usr/local/Cellar/|/Library/Frameworks/Python\.framework|/Library/Developer/CommandLineTools"),
    # macOS in a sentence of another script too ("我的macOS版本"): an ASCII word boundary, not \b
    ("darwin", r"\bdarwin\b|(?<![A-Za-z0-9_])macOS(?![A-Za-z0-9_])|\bMac ?OS ?X\b|\b(?-i:OS ?X)\b|\bmacosx_\d+_\d+|arm64-apple|\bApple M[1-5]\b|\bApple silicon\b|"
               r"\bMacBook\b|\biMac\b|\bMac (?:mini|Studio|Pro)\b|\.dylib\b|\bosx-(?:arm)?64\b"),
    # the user naming the machine: "on an M1 Mac", "I'm using Mac", "Mac M3" (never a MAC address)
    ("mac_said", r"\b(?-i:M[1-5])(?: (?-i:Pro|Max|Ultra))? (?-i:Mac)\b|\b(?-i:Mac) ?(?-i:M[1-5])\b|"
                 r"\b(?:on|using|use|with|my) (?:an? |my |the )?(?-i:Mac)\b(?! ?address)"),
)
_DOCKER_DESKTOP = r"\bDocker Desktop\b|\bdocker-desktop\b|dockerDesktopLinuxEngine|//\./pipe/docker|\bcom\.docker\.backend\b"
_CONTAINER = (
    ("kubernetes", r"\bkubectl\b|\bkubelet\b|\bnvidia-device-plugin\b|\bk8s-device-plugin\b|\bkind: Pod\b|\bpods?/[\w.\-]+|\bFailedCreatePodSandBox\b"),
    ("podman", r"\bpodman\b"),
    ("apptainer", r"\b(?:singularity|apptainer) (?:exec|run|shell|pull)\b"),
    ("docker", r"\bdocker(?:-compose| compose| run| exec| build| start| pull)\b|\bdocker: Error response from daemon\b|"
               r"\bError response from daemon\b|\bnvidia-container-cli\b|/\.dockerenv\b|(?:^|\n)\s*(?-i:FROM) [\w./\-]+:[\w.\-]+|"
               r"\bDockerfile\b|\bOCI runtime\b|\broot@[0-9a-f]{12}:"),
)
_PKG = (
    ("apt", r"\bapt(?:-get)? (?:-y )?(?:install|update|upgrade|remove|purge|autoremove)\b|\bdpkg\b|/etc/apt/|\bUbuntu\b|\bDebian\b|"
            r"\bLinux Mint\b|\bPop!_OS\b|\bKubuntu\b|\bubuntu-drivers\b|\bupdate-initramfs\b|\b\d+\.\d+\.\d+-\d+-generic\b|/dist-packages/"),
    ("dnf", r"\b(?:dnf|yum) (?:-y )?(?:install|update|upgrade|remove|module|config-manager)\b|\brpm -[qiUe]|\bRHEL\b|\bRed Hat\b|"
            r"\bRocky Linux\b|\bAlmaLinux\b|\bCentOS\b|\bFedora\b|\.el[789](?:_\d+)?\.x86_64|\.fc\d\d\.|\bakmods?\b|\bdracut\b"),
    ("zypper", r"\bzypper\b|\bopenSUSE\b|\bSLES\b|\bSUSE Linux\b|-default\b.*\bkmp\b"),
    ("pacman", r"\bpacman -S|\bpacman\b|\byay -S|\bparu -S|\bmakepkg\b|\bArch Linux\b|\bManjaro\b|\bEndeavourOS\b|\bCachyOS\b|"
               r"\b\d+\.\d+\.\d+(?:\.\w+)?-arch\d-\d\b|\.pkg\.tar\.zst\b|-zen\d-\d-zen\b"),
)
# the host's own actions, never done inside a container: a text showing them is from the host
_BARE_METAL = Gated(
    r"\bNVRM:|\bnvidia-installer\b|\bdkms (?:install|build|autoinstall|status)\b|\bubuntu-drivers\b|\bmokutil\b|"
    r"\bmodprobe\b|\binsmod\b|\bupdate-initramfs\b|\bsystemctl (?:restart|status|start) (?!docker|containerd)|"
    r"(?:sudo )?apt(?:-get)? install [^\n]*nvidia-driver|\bBIOS\b|\bSecure Boot\b|\bsudo\b|but can be installed with|"
    r"\b[a-z_][\w-]*@[\w-]+:~\$", re.IGNORECASE, single_line=True)
# "wsl" as a word of a probe's message, never a folder of a path (/usr/lib/wsl/lib/libcuda.so.1 is not a symbolic link)
_WSL_PROBE = re.compile(r"(?:check|probe|detect|look)\w*\b[^\n]{0,40}(?<![/\\])\bwsl\b(?![/\\])[^\n]{0,40}(?:not|false|no\b|none)|"
                        r"(?<![/\\])\bwsl\b(?![/\\])[^\n]{0,30}(?:not detected|not found|=\s*false|: false|is not)|\bis_?wsl\b\s*[=:]\s*(?:false|0)",
                        re.IGNORECASE)
_DISTRO = (
    ("ubuntu", r"\bUbuntu\b|\b\d+\.\d+\.\d+-\d+-generic\b|/var/lib/shim-signed/|\bubuntu-drivers\b|\bPop!_OS\b|\bLinux Mint\b"),
    ("debian", r"\bDebian\b|\b\d+\.\d+\.\d+-\d+-amd64\b|\+deb\d+"),
    ("fedora", r"\bFedora\b|\.fc\d\d\.|\bakmods?\b|\bRPM Fusion\b"),
    ("rhel", r"\bRHEL\b|\bRed Hat\b|\bRocky Linux\b|\bAlmaLinux\b|\bCentOS\b|\.el[789]"),
    ("opensuse", r"\bopenSUSE\b|\bSLES\b|\bSUSE\b"),
    ("arch", r"\bArch Linux\b|\bManjaro\b|\bEndeavourOS\b|\bCachyOS\b|-arch\d-\d\b|\bpacman\b"),
)
# a traceback's package folder: the environment root before lib/pythonX.Y/site-packages (POSIX) or Lib\site-packages
_SITE_POSIX = Gated(r"(?P<root>(?:/[\w.+@~\-]+)+?)/lib(?:64)?/python3(?:\.\d+)?t?/(?P<kind>site|dist)-packages/", single_line=True)
_SITE_WIN = Gated(r"(?P<root>[A-Za-z]:\\(?:[\w.+@ ()\-]+\\)*?[\w.+@ ()\-]+)\\Lib\\site-packages\\", re.IGNORECASE, single_line=True)
_CONDA = re.compile(r"(?:^|[/\\])(?:ana|mini)conda\d?(?:[/\\]|$)|(?:^|[/\\])(?:miniforge\d?|mambaforge|micromamba|\.conda|conda)(?:[/\\]|$)|"
                    r"[/\\]envs[/\\][\w.\-]+$|^/opt/conda", re.IGNORECASE)
# an NVIDIA Jetson board (L4T, JetPack, a Tegra kernel, a Jetson module's name): the machine itself, never a
# word alone ("a wheel built for Jetson" on an ARM server is no Jetson)
_JETSON = Gated(
    r"\bjetson[ _-]?(?:nano|orin|xavier|tx[12]|agx|nx|thor)|\b(?:agx|nx|nano)[ _-]?orin\b|\borin[ _-]?(?:nano|nx|agx)\b|"
    r"\bjetpack\b|\bl4t\b|-tegra\b|\bnv_tegra_release\b|\bnvidia-l4t-|\(nvgpu\)|\btegra[ _-]?(?:x[12]|186|194|234)\b",
    re.IGNORECASE, single_line=True)
_JETSON_GPU = re.compile(r"\b(?:orin|xavier|tegra|jetson|thor)\b", re.IGNORECASE)  # a Jetson's GPU name (nvgpu)
# the failing program's framework, read on the raw text (a glog prefix such as `tensorflow/stream_executor/...` is cut
# from the cleaned one): another framework's own names, and PyTorch's
_FRAMEWORKS = (
    ("tensorflow", r"\btensorflow\b|\btf\.(?:config|test|keras|compat)\b|stream_executor|\bcuda_dnn\.cc\b"),
    ("jax", r"\bjaxlib\b|\bxla_bridge\b"),
    ("onnxruntime", r"\bonnxruntime\b"),
    ("paddle", r"\bpaddle(?:paddle)?\b"),
    ("mxnet", r"\bmxnet\b"),
    ("caffe", r"\bcaffe\b(?!2)"),
    ("cupy", r"\bcupy\b"),
    ("cuda_program", r"\bdeviceQuery\b|\bgpu[_-]burn\b|\bdarknet\b"),
)
_TORCH_WORDS = Gated(r"\btorch\b|pytorch|caffe2|\bc10\b", re.IGNORECASE, single_line=True)
_HOME = Gated(r"(?<![\w.])/home/([a-z_][\w.\-]{0,31})/", single_line=True)


def _compiled(table: tuple[tuple[str, str], ...]) -> tuple[tuple[str, Gated], ...]:
    return tuple((name, Gated(rx, re.IGNORECASE, single_line=True)) for name, rx in table)


_WSL_RX, _WINDOWS_RX, _MACOS_RX, _CONTAINER_RX, _PKG_RX, _DISTRO_RX, _FRAMEWORK_RX = (
    _compiled(t) for t in (_WSL, _WINDOWS, _MACOS, _CONTAINER, _PKG, _DISTRO, _FRAMEWORKS))
_DOCKER_DESKTOP_RX = Gated(_DOCKER_DESKTOP, re.IGNORECASE, single_line=True)


def _clues(text: str, table: tuple[tuple[str, Gated], ...]) -> list[str]:
    return list(dict.fromkeys(name for name, rx in table if rx.search(text)))


_EMBEDDED_DIR = re.compile(r"^(?:python[_ ]?embedd?ed|python-\d[\w.]*|wpy\d*[\w.\-]*)$", re.IGNORECASE)


def _embedded_python(root: str, text: str) -> bool:
    """Is the folder holding Lib\\site-packages a Python of its own, its python.exe in the folder itself (an embeddable
    or portable Python: ComfyUI's python_embeded, WinPython's python-3.x), not a venv (Scripts\\python.exe)? By the
    folder's name, or by the text running `<folder>\\python.exe` itself (and never its Scripts\\ one)."""
    name = root.rstrip("\\").rsplit("\\", 1)[-1]
    if _EMBEDDED_DIR.match(name):
        return True
    low, base = text.lower(), "\\" + name.lower() + "\\"
    return base + "python.exe" in low and base + "scripts\\" not in low


def python_env(text: str) -> tuple[Optional[str], Optional[str], Optional[str]]:
    """(interpreter, kind, os) of the environment a traceback's files are in: kind venv, conda, system or
    embedded (a portable Python, its python.exe beside Lib\\site-packages); os windows or posix. (None, None,
    None) when the text names no package folder."""
    m = _SITE_WIN.search(text)
    if m:
        root = m.group("root")
        low = root.lower()
        if _CONDA.search(root):
            return root + "\\python.exe", "conda", "windows"
        if re.search(r"\\python\d*(?:-32)?$|\\programs\\python\\|\\windowsapps\\", low):
            return root + "\\python.exe", "system", "windows"
        if _embedded_python(root, text):  # a program's own Python (ComfyUI's portable python_embeded, WinPython)
            return root + "\\python.exe", "embedded", "windows"
        return root + "\\Scripts\\python.exe", "venv", "windows"
    m = _SITE_POSIX.search(text)
    if m:
        root = m.group("root")
        if m.group("kind") == "dist" or root in ("/usr", "/usr/local", "/opt/homebrew") or root.endswith("/.local") \
                or root.startswith("/Library/Frameworks/") or root.startswith("/System/"):
            return None, "system", "posix"  # the system's own Python (or its user site): never pip into it
        kind = "conda" if _CONDA.search(root) else "venv"
        return root + "/bin/python", kind, "posix"
    return None, None, None


def _facts_os(facts: Facts) -> str:
    if facts.os.platform == "windows":
        return "windows"
    if facts.os.wsl:
        return "wsl"
    return "linux" if facts.os.platform == "linux" else "other"


def _text_os(text: str) -> tuple[Optional[str], list[str]]:
    wsl_text = text if "wsl" not in text.lower() else _WSL_PROBE.sub(" ", text)
    wsl = _clues(wsl_text, _WSL_RX)
    if wsl:
        return "wsl", wsl
    win = _clues(text, _WINDOWS_RX)
    mac = _clues(text, _MACOS_RX)
    if win and (len(win) >= len(mac) or "drive_path" in win):
        return "windows", win
    if mac:
        return "macos", mac
    return None, []


def _text_container(text: str) -> tuple[Optional[str], list[str]]:
    if _DOCKER_DESKTOP_RX.search(text):
        return "docker_desktop", ["docker_desktop"]
    for name, rx in _CONTAINER_RX:
        if rx.search(text):
            return name, [name]
    return None, []


def _first(text: str, table) -> Optional[str]:
    found = _clues(text, table)
    return found[0] if found else None


def _foreign(facts: Facts, os_: Optional[str], pm: Optional[str], text: str, container: Optional[str]) -> list[str]:
    """Why the text comes from another machine than the one `facts` describe ([] when it may be this one)."""
    why: list[str] = []
    here = _facts_os(facts)
    if os_ and os_ != here and not ({os_, here} <= {"windows", "wsl"}) and not (os_ == "linux" and here == "wsl"):
        why.append(f"os:{os_}!={here}")
    fpm = facts.os.package_manager
    fpm = "dnf" if fpm == "yum" else fpm
    if pm and fpm and pm != fpm and here in ("linux", "wsl"):
        why.append(f"package_manager:{pm}!={fpm}")
    home = facts.env.variables.get("HOME") if facts.env else None
    users = set(_HOME.findall(text))
    if home and home.startswith("/home/") and users and home.split("/")[2] not in users:
        why.append("home_folder")
    if facts.os.container and not container and _BARE_METAL.search(text):
        why.append("bare_metal_host")
    return why


def framework(text: str) -> Optional[str]:
    """The failing program's framework when it is not PyTorch (None: PyTorch, or the text does not say)."""
    if _TORCH_WORDS.search(text):
        return None
    return _first(text, _FRAMEWORK_RX)


def _board(text: str, facts: Optional[Facts]) -> Optional[str]:
    """"jetson" when the text (or, for a text from this machine, the facts) shows an NVIDIA Jetson board."""
    if _JETSON.search(text):
        return "jetson"
    if facts is not None and (any(_JETSON_GPU.search(g.name or "") for g in facts.gpus) or "-tegra" in (facts.os.kernel or "")):
        return "jetson"
    return None


def infer_platform(text: str, facts: Optional[Facts] = None, *, venv_python: Optional[str] = None) -> Platform:
    """The machine the text most likely comes from (see the module's docstring). `venv_python`: the
    interpreter of the plan's venv, the target when the text names no environment of its own."""
    text = text or ""
    os_, clues = _text_os(text)
    container, cclues = _text_container(text)
    if container == "docker_desktop" and os_ is None:
        os_ = "macos" if _clues(text, _MACOS_RX) else "windows"
    pm = _first(text, _PKG_RX) if os_ in (None, "linux", "wsl") else None
    distro = _first(text, _DISTRO_RX) if os_ in (None, "linux", "wsl") else None
    if os_ is None and (pm or distro):
        os_ = "linux"
    py, kind, py_os = python_env(text)
    if os_ is None and py_os == "windows":
        os_ = "windows"
    clues = clues + cclues + ([pm] if pm else []) + ([f"{kind}_python"] if kind else [])
    foreign = _foreign(facts, os_, pm, text, container) if facts is not None else []
    if facts is not None and not foreign:  # this machine (as far as the text tells): the facts fill in the rest
        here = _facts_os(facts)
        source = "text" if clues else "facts"
        os_ = os_ or (here if here != "other" else "linux")
        if os_ == here or {os_, here} <= {"linux", "wsl"}:
            pm = pm or ({"yum": "dnf"}.get(facts.os.package_manager or "", facts.os.package_manager))
            distro = distro or (facts.os.id or None)
            container = container or facts.os.container
        if py is None and kind is None and facts.python is not None and facts.python.kind in ("venv", "conda", "wizard"):
            py, kind = facts.python.path, facts.python.kind
    else:
        source = "text" if clues else "default"
    if py is None and venv_python and not foreign and (("\\" in venv_python) == (os_ == "windows")):
        py, kind = venv_python, "plan_venv"  # the plan's venv: never the system's own Python
    os_name = cast(OsName, os_ if os_ in ("wsl", "windows", "macos") else "linux")
    board = _board(text, None if foreign else facts) if os_name == "linux" else None
    return Platform(board=board, framework=framework(text), os=os_name, package_manager=pm if os_name in ("linux", "wsl") else None, container=container,
                    python=py, python_kind=kind, distro=distro, source=cast(Source, source), foreign=bool(foreign),
                    clues=tuple(dict.fromkeys(clues + foreign)))
