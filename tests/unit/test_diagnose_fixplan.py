"""fix_plan(diagnosis, facts): the fix as the plan's Step values, shaped so the runner and the
privileged helper accept them; what the helper would refuse stays manual."""
from pathlib import Path

from app.diagnose import diagnose, fix_plan
from diagnose_helpers import diagnose as diagnose_rec
from app.facts import CudaInfo, DriverInfo, Facts, Gpu, OsInfo, PackageInfo, PythonEnv, TorchInfo
from app.plan.model import Step, validate_step
from app.run.privileged import argv_allowed, check_edit

ERRORS = Path(__file__).resolve().parent.parent / "fixtures" / "errors"


def text(name: str) -> str:
    return (ERRORS / name).read_text(encoding="utf-8").partition("\n")[2]


def assert_runnable(steps):
    assert steps
    for s in steps:
        assert isinstance(s, Step)
        assert validate_step(s) == [], (s.id, validate_step(s))
        if s.needs_root:
            for argv in s.commands:
                assert argv_allowed(s.kind, argv), (s.kind, argv)
            for e in s.edits:
                check_edit(s.kind, e)


def test_nouveau_fix_is_blacklist_then_reboot():
    f = Facts(os=OsInfo(package_manager="apt", id="ubuntu", version_id="22.04"), driver=DriverInfo(state="not_installed", nouveau_loaded=True))
    d = diagnose(text("nouveau_installer_apollo.txt"), f)
    steps = fix_plan(d, f)
    assert_runnable(steps)
    (s,) = steps
    assert s.kind == "blacklist_nouveau" and s.commands == (("update-initramfs", "-u"),)
    assert s.edits[0].path == "/etc/modprobe.d/blacklist-nouveau.conf" and "blacklist nouveau" in s.edits[0].content
    assert s.reboot_required  # the reboot FixStep folds into the step before it


def test_wsl_linux_driver_purge():
    f = Facts(os=OsInfo(wsl=2, package_manager="apt"), driver=DriverInfo(state="host"),
              cuda=CudaInfo(packages=(PackageInfo("nvidia-utils-535", "535.183.01-0ubuntu1"), PackageInfo("cuda-toolkit-12-4", "12.4.1-1"))))
    d = diagnose(text("wsl_gpu_blocked_linux_utils.txt"), f)
    steps = fix_plan(d, f)
    assert_runnable(steps)
    assert steps[0].kind == "wsl_fix" and steps[0].commands == (("apt-get", "purge", "-y", "nvidia-utils-535"),)


def test_toolkit_and_env_for_nvcc():
    t = TorchInfo(version="2.7.1+cu128", cuda="12.8", available=True, arch_list=("sm_86",))
    py = PythonEnv(path="/home/u/venv/bin/python", version="3.12.3", torch=t)
    f = Facts(os=OsInfo(package_manager="apt", id="ubuntu", version_id="24.04"), python=py, pythons=(py,),
              gpus=(Gpu(index=0, name="NVIDIA GeForce RTX 3090", compute_capability="8.6"),), driver=DriverInfo(state="ok", version="570.133.07"))
    d = diagnose(text("nvcc_flash_attn_uv_wrapped.txt"), f)
    steps = fix_plan(d, f)
    assert_runnable(steps)
    kinds = [s.kind for s in steps]
    assert kinds[0] == "install_toolkit" and steps[0].commands[0][:3] == ("apt-get", "install", "-y")
    assert "write_env" in kinds
    env = steps[kinds.index("write_env")]
    assert env.edits[0].path == "/etc/profile.d/cuda.sh" and env.commands == (("ldconfig",),)


def test_pytorch_reinstall_runs_unprivileged_in_the_venv():
    t = TorchInfo(version="2.5.1+cu124", cuda="12.4", available=True, arch_list=("sm_50", "sm_60", "sm_70", "sm_75", "sm_80", "sm_86", "sm_90"))
    py = PythonEnv(path="/home/u/venv/bin/python", version="3.12.3", kind="venv", torch=t)
    f = Facts(os=OsInfo(package_manager="apt", id="ubuntu", version_id="24.04", arch="x86_64"), python=py, pythons=(py,),
              gpus=(Gpu(index=0, name="NVIDIA GeForce RTX 5090", compute_capability="12.0"),),
              driver=DriverInfo(state="ok", version="580.95.05", cuda_version="13.0"))
    d = diagnose_rec(text("nki_sm120_warning_docker.txt"), f)
    m = d.matches[0]
    assert m.category == "no_kernel_image"
    assert any("The wheel that fits" in e.message for e in m.evidence)
    steps = fix_plan(d, f)
    assert_runnable(steps)
    s = steps[0]
    assert s.kind == "install_pytorch" and not s.needs_root
    argv = s.commands[0]
    assert argv[0] == "/opt/venv/bin/python" and "--index-url" in argv  # the environment the traceback's files are in
    assert argv[argv.index("--index-url") + 1].startswith("https://download.pytorch.org/whl/cu")


def test_manual_steps_stay_out_of_the_plan():
    f = Facts(os=OsInfo(package_manager="apt"), driver=DriverInfo(state="not_loaded", secure_boot=True))
    d = diagnose(text("secureboot_required_key.txt"), f)
    m = d.matches[0]
    assert m.fix_steps and all(s.manual for s in m.fix_steps)  # mokutil: the user runs it
    assert fix_plan(d, f) == []


def test_nothing_matched_no_plan():
    assert fix_plan(diagnose("all fine"), None) == []


def test_no_apt_steps_on_windows():
    f = Facts(os=OsInfo(platform="windows", id="windows"), driver=DriverInfo(state="ok", version="537.13"))
    d = diagnose(text("drv_insuff_onnxruntime.txt"), f)
    m = d.matches[0]
    assert m.category == "driver_insufficient"
    assert not any(s.argv and s.argv[0][0] == "apt-get" for s in m.fix_steps)


def test_runnable_steps_agree_with_fix_plan():
    f = Facts(os=OsInfo(package_manager="apt", id="ubuntu", version_id="22.04"), driver=DriverInfo(state="not_installed", nouveau_loaded=True))
    m = diagnose(text("nouveau_installer_apollo.txt"), f).matches[0]
    assert [s.id for s in m.runnable_steps] == [s.id for s in fix_plan(diagnose(text("nouveau_installer_apollo.txt"), f), f)]
    oom = diagnose(text("oom_new_format_fragmented_lerf.txt")).matches[0]
    assert oom.fix_steps and oom.runnable_steps == ()  # the allocator setting goes in the user's own shell


def test_runfile_checksum_step_names_the_file():
    d = diagnose("sh cuda_12.8.1_570.124.06_linux.run\nVerifying archive integrity...  100%  Error in MD5 checksums: "
                 "0f3a is different from 9c1d\n")
    m = d.matches[0]
    assert m.category == "runfile_gzip_invalid"
    assert ("sha256sum", "cuda_12.8.1_570.124.06_linux.run") in [s.argv[0] for s in m.fix_steps if s.argv]
    assert "--override" in m.root_cause  # the wrong cure is named


def test_a_windows_machine_gets_no_linux_step_in_its_fix_plan():
    """nvcc not found, diagnosed on Windows: the toolkit and CUDA_HOME steps are Windows' own (no /etc/profile.d,
    no ldconfig in the plan), and a Linux-only step built for Windows would never run (i22contact saw one)."""
    from app.diagnose.fixplan import is_runnable
    from app.diagnose.model import FixStep
    from app.diagnose.sides import belongs_elsewhere

    win = Facts(os=OsInfo(platform="windows", id="windows"), gpus=(Gpu(index=0, name="NVIDIA GeForce RTX 4070", compute_capability="8.9"),),
                driver=DriverInfo(state="ok", version="560.94", cuda_version="12.6"),
                python=PythonEnv(path=r"C:\Users\u\venv\Scripts\python.exe", version="3.12.4", kind="venv",
                                 torch=TorchInfo(version="2.5.1+cu124", cuda="12.4", available=True)))
    seen = 0
    for name in ("nvcc_cuda_home_not_set_ci.txt", "nvcc_flash_attn_pip_linux.txt", "nvcc_powershell_not_recognized.txt"):
        d = diagnose_rec(text(name), win)
        if d.platform.os != "windows":
            continue  # the text itself says it comes from Linux: its steps are for that machine
        seen += 1
        m = d.top
        assert m is not None and m.category == "nvcc_not_found", name
        assert all(s.runs_on in ("windows", "") and belongs_elsewhere(s) is None for s in m.fix_steps), (name, m.fix_steps)
        for st in fix_plan(d, win):
            assert not any(c and c[0] in ("ldconfig", "dkms", "apt-get") for c in st.commands), (name, st.id)
            assert not any(e.path.startswith("/etc") for e in st.edits), (name, st.id)
    assert seen >= 2
    bad = FixStep(id="write_cuda_env", title="t", why="w", kind="write_env", env={"CUDA_HOME": "/usr/local/cuda"}, needs_root=True,
                  runs_on="windows")
    assert belongs_elsewhere(bad) == "a write_env step on windows" and not is_runnable(bad)
    assert is_runnable(bad.replace(runs_on="linux"))
    assert belongs_elsewhere(FixStep(id="x", title="t", why="w", argv=(("winget", "install", "x"),), runs_on="wsl")) is not None
