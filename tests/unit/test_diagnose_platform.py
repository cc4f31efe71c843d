"""The machine a fix is written for (app.diagnose.platform): the text's own clues first (paths, prompts, DLL
names, package-manager commands, Docker Desktop), this machine's facts second; a text from another machine
is never decided by this machine's facts, and the answer says which machine it assumed. Each platform gets
its own fix: apt/dnf/zypper/pacman, WSL (Windows side vs the distro), Windows (no sudo), a container (host vs
image), macOS (no NVIDIA CUDA at all). Real texts from tests/fixtures (their SOURCE.md) where they exist."""
from __future__ import annotations

from pathlib import Path

import pytest

from app.choices import Choices, Mirrors
from app.diagnose import diagnose, fix_plan
from app.diagnose.platform import infer_platform, python_env
from app.facts import DriverInfo, EnvInfo, Facts, Gpu, OsInfo, PythonEnv, TorchInfo
from diagnose_helpers import recommender

FIX = Path(__file__).resolve().parent.parent / "fixtures"


def real(name: str) -> str:
    path = next(FIX.glob(f"errors*/{name}"))
    return "\n".join(x for x in path.read_text(encoding="utf-8").split("\n") if not x.startswith(("# source:", "# expect:")))


def ubuntu(**kw) -> Facts:
    return Facts(source="test", os=OsInfo(package_manager="apt", id="ubuntu", version_id="24.04", kernel="6.8.0-45-generic"),
                 env=EnvInfo(variables={"HOME": "/home/me"}), **kw)


def argvs(m) -> list[tuple[str, ...]]:
    return [a for s in m.fix_steps for a in s.argv]


@pytest.mark.parametrize("name,os_,container", [
    ("cudnn_dll_winerror126_textgen.txt", "windows", None),  # E:\...\torch\lib\cudnn_cnn_infer64_8.dll
    ("unavail_no_driver_assert_mac.txt", "macos", None),  # /Users/.../anaconda/lib/python3.6
    ("wsl_linux_driver_dkms_headers.txt", "wsl", None),  # a microsoft-standard-WSL2 kernel
    ("docker_no_gpu_driver_bundlesdf.txt", "linux", "docker"),
    ("dkms_zen_kernel_update.txt", "linux", None),
])
def test_the_platform_comes_from_the_text(name, os_, container):
    p = infer_platform(real(name))
    assert (p.os, p.container, p.source) == (os_, container, "text"), p


def test_package_managers_and_docker_desktop_from_the_text():
    assert infer_platform(real("dkms_zen_kernel_update.txt")).package_manager == "pacman"
    assert infer_platform("sudo dnf install akmod-nvidia\nError: Problem: conflicting requests").package_manager == "dnf"
    assert infer_platform("sudo zypper install nvidia-video-G06\nProblem: nothing provides").package_manager == "zypper"
    dd = infer_platform("docker: Error response from daemon: could not select device driver \"\" with capabilities: [[gpu]].\n"
                        "Docker Desktop 4.30.0 (149282)")
    assert (dd.os, dd.container, dd.tags[:2]) == ("windows", "docker_desktop", ("docker_desktop", "container"))


def test_a_line_that_only_probes_for_wsl_is_not_wsl():
    probe = "DEBUG checking for WSL... not detected\nRuntimeError: Found no NVIDIA driver on your system."
    assert infer_platform(probe).os == "linux"
    assert infer_platform("Linux 5.15.153.1-microsoft-standard-WSL2 x86_64").os == "wsl"
    # "wsl" as a folder of a path is no probe's word: ldconfig's warning about WSL's own libcuda is WSL (microsoft/WSL#11229)
    assert infer_platform(real("wsl_ldconfig_not_symlink.txt")).os == "wsl"


@pytest.mark.parametrize("name,os_,container,clue", [
    # nvidia-container-cli's "WSL environment detected" (AbdBarho/stable-diffusion-webui-docker#117, xencon/aixcl#142)
    ("wsl_no_adapters_compose_wsl1.txt", "wsl", "docker", "wsl_container_cli"),
    ("wsl_no_adapters_one_line.txt", "wsl", "docker", "wsl_container_cli"),
    # cmd.exe's "not recognized as an internal or external command" in Chinese (jiangsutx/SPMC_VideoSR#2)
    ("smi_not_internal_command_zh.txt", "windows", None, "windows_console"),
    # the paging file, os error 1455: Windows alone has it (Comfy-Org/ComfyUI#8065)
    ("pagefile_comfy_os_error.txt", "windows", None, "windows_console"),
])
def test_the_platform_comes_from_the_texts_own_words(name, os_, container, clue):
    p = infer_platform(real(name))
    assert (p.os, p.container, p.source) == (os_, container, "text") and clue in p.clues, p


def test_a_redacted_mac_home_and_a_report_line_name_the_platform():
    # Fannovel16/comfy_controlnet_preprocessors#51: the user wrote {user} for the name
    assert infer_platform('File "/Users/{user}/miniconda3/envs/sdweb/lib/python3.10/site-packages/torch/cuda/__init__.py"').os == "macos"
    assert infer_platform("Environment / Hardware Specs:\n\nOS: Windows\n\nGPU: NVIDIA GeForce RTX 5080").os == "windows"  # pytorch#180101
    assert infer_platform("The OS: Windows-like naming is confusing").os != "windows"


def test_the_user_saying_windows_is_windows_but_a_comparison_is_not():
    said = infer_platform("I am running this on windows, using cpu works, but is very slow.")  # nagadomi/nunif#308
    assert (said.os, said.clues) == ("windows", ("windows_said",))
    for text in ("It works on Windows but fails on this box.", "tested on windows/linux", "Installed in Windows Subsystem for Linux"):
        assert infer_platform(text).os != "windows", text
    assert infer_platform("I'm using Windows with WSL1\nError response from daemon").os == "wsl"


def test_the_failing_environment_is_the_tracebacks_interpreter_never_the_systems():
    assert python_env('File "/home/u/proj/.venv/lib/python3.12/site-packages/torch/__init__.py"')[:2] == \
        ("/home/u/proj/.venv/bin/python", "venv")
    assert python_env('File "/home/u/miniconda3/envs/sd/lib/python3.10/site-packages/torch/cuda/__init__.py"')[:2] == \
        ("/home/u/miniconda3/envs/sd/bin/python", "conda")
    assert python_env('File "/usr/lib/python3/dist-packages/torch/__init__.py"')[:2] == (None, "system")
    assert python_env('File "/home/u/.local/lib/python3.11/site-packages/torch/__init__.py"')[:2] == (None, "system")
    assert python_env(r'File "C:\Users\a\gpu\venv\Lib\site-packages\torch\__init__.py"')[:2] == (r"C:\Users\a\gpu\venv\Scripts\python.exe", "venv")
    assert python_env(r'File "C:\Users\a\miniconda3\envs\x\Lib\site-packages\torch\cuda.py"')[:2] == (r"C:\Users\a\miniconda3\envs\x\python.exe", "conda")
    # a Python of its own (no Scripts\): ComfyUI portable's python_embeded, WinPython, or a folder whose python.exe the text runs
    assert python_env(r'Error loading "E:\Comfyui\ComfyUI_windows_portable\python_embeded\Lib\site-packages\torch\lib\shm.dll"')[:2] == \
        (r"E:\Comfyui\ComfyUI_windows_portable\python_embeded\python.exe", "embedded")
    assert python_env(r'File "C:\WPy64-31241\python-3.12.4.amd64\Lib\site-packages\torch\x.py"')[0] == r"C:\WPy64-31241\python-3.12.4.amd64\python.exe"
    ran = 'D:\\sd\\py\\python.exe main.py\nFile "D:\\sd\\py\\Lib\\site-packages\\torch\\x.py"'
    assert python_env(ran)[:2] == (r"D:\sd\py\python.exe", "embedded")
    venv_ran = 'D:\\sd\\py\\Scripts\\python.exe main.py\nD:\\sd\\py\\python.exe\nFile "D:\\sd\\py\\Lib\\site-packages\\torch\\x.py"'
    assert python_env(venv_ran)[:2] == (r"D:\sd\py\Scripts\python.exe", "venv")
    p = infer_platform('File "/usr/lib/python3/dist-packages/torch/__init__.py"', ubuntu(), venv_python="/home/me/.venvs/gpu/bin/python")
    assert (p.python, p.python_kind) == ("/home/me/.venvs/gpu/bin/python", "plan_venv")  # the plan's venv instead


def test_a_text_from_another_machine_is_not_decided_by_this_machines_facts():
    win = real("cudnn_dll_winerror126_textgen.txt")
    d = diagnose(win, ubuntu(driver=DriverInfo(state="ok", version="570.133.07")))
    assert d.platform.foreign and d.platform.os == "windows" and d.facts_source is None
    m = d.top
    assert m.evidence[0].key == "platform" and "another machine" in m.evidence[0].message
    assert not any(e.source == "facts" for e in m.evidence)
    assert all(s.manual for s in m.fix_steps) and fix_plan(d, ubuntu()) == []  # nothing runs here for that machine
    other_home = "Traceback (most recent call last):\n  File \"/home/alice/proj/run.py\", line 3\nRuntimeError: Found no NVIDIA driver on your system."
    assert diagnose(other_home, ubuntu()).platform.foreign
    assert not diagnose(other_home.replace("alice", "me"), ubuntu()).platform.foreign


def test_bare_metal_texts_are_not_container_failures_because_the_wizard_runs_in_a_container():
    here = Facts(source="test", os=OsInfo(package_manager="apt", id="ubuntu", container="docker"), driver=DriverInfo(state="not_installed"))
    host = "$ sudo nvidia-smi\nsudo: nvidia-smi: command not found\n$ sudo modprobe nvidia\nmodprobe: FATAL: Module nvidia not found"
    d = diagnose(host, here)
    assert d.top.category == "driver_missing" and d.top.subcode != "container_without_gpu" and d.platform.foreign
    plain = diagnose("bash: nvidia-smi: command not found", here)  # nothing says where: this machine, a container
    assert plain.top.subcode == "container_without_gpu" and plain.platform.source == "facts" and plain.platform.container == "docker"


def test_macos_is_told_plainly_there_is_no_nvidia_cuda_and_gets_the_macos_build():
    d = diagnose(real("unavail_no_driver_assert_mac.txt"), recommender=recommender)
    m = d.top
    assert d.platform.os == "macos" and m.fix_code == "platform~macos" and "does not exist on macOS" in m.fix
    (step,) = [s for s in m.fix_steps if s.kind == "install_pytorch"]
    argv = step.argv[0]
    assert argv[0] == "/Users/tesfaz1/anaconda/bin/python" and "torch" in argv and "--index-url" not in argv
    assert step.manual  # run on that Mac, not here


def test_windows_gets_no_linux_module_commands_and_powershell_lines():
    text = "RuntimeError: CUDA error: unknown error\nCUDA kernel errors might be asynchronously reported\n" \
           r'  File "C:\Users\a\sd\venv\lib\site-packages\torch\cuda\__init__.py", line 293, in _lazy_init'
    m = diagnose(text).top
    assert m.category == "cuda_error_unknown" and m.fix_code.endswith("~windows")
    assert not any(a[0] in ("rmmod", "modprobe", "systemctl", "apt-get") for a in argvs(m))
    assert "rmmod" not in m.fix and "Windows" in m.fix
    from app.commands.diagnose import format_text

    out = format_text(diagnose(text))
    assert "shutdown.exe /r /t 0" in out and "sudo" not in out.split("Steps:")[1]


def test_docker_desktop_installs_no_container_toolkit():
    text = ("docker: Error response from daemon: could not select device driver \"\" with capabilities: [[gpu]].\n"
            "PS C:\\Users\\a> docker version\nServer: Docker Desktop 4.30.0 (149282)")
    m = diagnose(text).top
    assert m.category == "container_toolkit_missing" and "Docker Desktop" in m.fix
    assert not any("nvidia-container-toolkit" in a for a in argvs(m))
    assert {s.id for s in m.fix_steps} >= {"install_windows_driver", "enable_docker_wsl_engine"}
    assert all(s.where == "windows" for s in m.fix_steps)


def test_wsl_puts_the_driver_on_windows_and_the_rest_in_the_distro():
    wsl = Facts(source="test", os=OsInfo(package_manager="apt", id="ubuntu", wsl=2, kernel="5.15.153.1-microsoft-standard-WSL2"),
                driver=DriverInfo(state="host"))
    d = diagnose("RuntimeError: The NVIDIA driver on your system is too old (found version 11040).", wsl, recommender=recommender)
    m = d.top
    assert m.category == "driver_insufficient" and d.platform.os == "wsl"
    drv = [s for s in m.fix_steps if s.id == "install_windows_driver"]
    assert drv and drv[0].where == "windows" and drv[0].manual
    assert not any(a[0] == "apt-get" and any("nvidia-driver" in x for x in a) for a in argvs(m))  # never a Linux driver in WSL


@pytest.mark.parametrize("pm,want", [
    ("apt", ("apt-get", "install", "-y", "nvidia-container-toolkit")),
    ("dnf", ("dnf", "install", "-y", "nvidia-container-toolkit")),
    ("zypper", ("zypper", "--non-interactive", "install", "nvidia-container-toolkit")),
    ("pacman", ("pacman", "-S", "--needed", "--noconfirm", "nvidia-container-toolkit")),
])
def test_each_package_manager_gets_its_own_command(pm, want):
    f = Facts(source="test", os=OsInfo(package_manager=pm))
    m = diagnose(real("docker_no_gpu_driver_bundlesdf.txt"), f).top
    assert want in argvs(m)
    assert ("nvidia-ctk", "runtime", "configure", "--runtime=docker") in argvs(m)
    others = {"apt": "apt-get", "dnf": "dnf", "zypper": "zypper", "pacman": "pacman"}
    assert not any(a[0] in set(others.values()) - {others[pm]} for a in argvs(m))


def test_secure_boot_without_an_enrolled_key_enrolls_the_mok_with_the_reboot():
    f = ubuntu(driver=DriverInfo(state="not_loaded", secure_boot=True))
    for name in ("secureboot_required_key.txt", "secureboot_insmod_key_rejected.txt"):
        m = diagnose(real(name), f).top
        ids = [s.id for s in m.fix_steps]
        assert m.category == "secure_boot"
        assert ids.index("enroll_mok_key") < ids.index("reboot_to_enroll_key") < ids.index("enable_nvidia_module"), ids
        assert ("mokutil", "--import", "/var/lib/shim-signed/mok/MOK.der") in argvs(m)
        assert "MOK manager" in next(s.why for s in m.fix_steps if s.id == "reboot_to_enroll_key")
        assert ("dkms", "autoinstall") not in argvs(m)  # rebuilding cannot help an unenrolled key
    debian = Facts(source="test", os=OsInfo(package_manager="apt", id="debian"), driver=DriverInfo(state="not_loaded", secure_boot=True))
    assert ("mokutil", "--import", "/var/lib/dkms/mok.pub") in argvs(diagnose(real("secureboot_required_key.txt"), debian).top)
    smi = diagnose("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest "
                   "NVIDIA driver is installed and running.", f).top
    assert smi.subcode == "unsigned_module" and ("mokutil", "--import", "/var/lib/shim-signed/mok/MOK.der") in argvs(smi)


def test_a_reinstall_goes_into_the_plans_venv_with_the_runs_mirrors_never_the_system_python(tmp_path):
    ca = tmp_path / "corp-ca.pem"
    ca.write_text("-----BEGIN CERTIFICATE-----\n", encoding="utf-8")
    system = PythonEnv(path="/usr/bin/python3", version="3.12.3", kind="system",
                       torch=TorchInfo(version="2.5.1+cpu", cuda=None, available=False))
    f = ubuntu(python=system, pythons=(system,), gpus=(Gpu(index=0, name="NVIDIA GeForce RTX 4090", compute_capability="8.9"),),
               driver=DriverInfo(state="ok", version="570.133.07", cuda_version="12.8", modules_loaded=("nvidia", "nvidia_uvm")))
    choices = Choices(venv_path=str(tmp_path / "gpu"), mirrors=Mirrors(
        pypi_index_url="https://pypi.corp.example/simple", pytorch_index_url="https://mirror.corp.example/whl",
        https_proxy="http://proxy.corp.example:3128", ca_bundle=str(ca)))
    text = ('  File "/usr/lib/python3/dist-packages/torch/cuda/__init__.py", line 284, in _lazy_init\n'
            '    raise AssertionError("Torch not compiled with CUDA enabled")\nAssertionError: Torch not compiled with CUDA enabled')
    d = diagnose(text, f, choices=choices, recommender=recommender)
    steps = fix_plan(d, f)
    assert [s.kind for s in steps] == ["create_venv", "install_pytorch"], [s.id for s in steps]
    venv_py = str(tmp_path / "gpu" / "bin" / "python")
    assert steps[0].commands == (("/usr/bin/python3", "-m", "venv", str(tmp_path / "gpu")),)
    argv = steps[1].commands[0]
    assert argv[0] == venv_py and "/usr/bin/python3" not in argv[1:]
    assert argv[argv.index("--index-url") + 1].startswith("https://mirror.corp.example/whl/cu")
    assert argv[argv.index("--extra-index-url") + 1] == "https://pypi.corp.example/simple" and argv[argv.index("--cert") + 1] == str(ca)
    for s in steps:
        assert s.env["HTTPS_PROXY"] == "http://proxy.corp.example:3128" and s.env["SSL_CERT_FILE"] == str(ca) and not s.needs_root
