"""Every fix step of every rule, written for every platform, is runnable as shown: the steps the wizard may
run pass the privileged helper's allow-list and become a bash script `bash -n` accepts; Windows-side steps
become a PowerShell script that PowerShell's grammar parses (tree-sitter-powershell, the test extra), a hostile
interpreter path planted in it staying inside one literal; no step keeps a placeholder; every step knows the
machine it runs on (`runs_on`), and neither it nor the plan Step it becomes (its commands and the files it
edits) holds another machine's command (apt on Fedora, ldconfig or dkms on Windows, a Linux driver inside WSL,
the container toolkit for Docker Desktop, CUDA on macOS)."""
from __future__ import annotations

import json
import shutil
import subprocess
from functools import lru_cache

import pytest

from app.diagnose import evidence as ev
from app.diagnose.engine import load_rules
from app.diagnose.fixplan import _to_step, is_runnable
from app.diagnose.model import Platform
from app.diagnose.rules import rule_parts
from app.diagnose.sides import LINUX_PROGRAMS, LINUX_SIDES, belongs_elsewhere
from app.diagnose.steps import build_steps, finish, platform_entry, pred
from app.diagnose.values import values as fill_values
from app.facts import CudaInfo, DriverInfo, Facts, Gpu, OsInfo, PackageInfo, PythonEnv, TorchInfo
from app.paths import resource
from app.plan.model import Plan, validate_step
from app.plan.script import plan_to_script
from app.plan.script_ps import plan_to_powershell
from app.run.privileged import argv_allowed
from diagnose_helpers import recommender
from ps_grammar import hostile, markers, problems

RULES = json.loads(resource("diagnose", "rules.json").read_text(encoding="utf-8"))
TORCH = TorchInfo(version="2.5.1+cu124", cuda="12.4", cudnn="9.1.0", available=True, arch_list=("sm_80", "sm_86", "sm_90"))
GPU = (Gpu(index=0, name="NVIDIA GeForce RTX 4090", compute_capability="8.9"),)


def _linux(pm: str, distro: str, **os_kw) -> Facts:
    py = PythonEnv(path="/home/u/.venvs/gpu/bin/python", version="3.12.3", kind="venv", torch=TORCH)
    return Facts(source="test", os=OsInfo(package_manager=pm, id=distro, version_id="24.04", kernel="6.8.0-45-generic", **os_kw),
                 python=py, pythons=(py,), gpus=GPU, driver=DriverInfo(state="ok", version="550.120", cuda_version="12.4"),
                 cuda=CudaInfo(packages=(PackageInfo("nvidia-utils-550", "550.120-0ubuntu1"),)))


WIN_PY = r"C:\Users\a b\sd\venv\Scripts\python.exe"
# a user folder no Windows path can make harmless by chance: quotes, $(), backticks, ';' (a path holds no <>:"|?*)
HOSTILE_PY = "C:\\Users\\" + hostile("py", one_line=True, without='<>:"|?*/\\{}') + "\\venv\\Scripts\\python.exe"
# name -> (the assumed platform, the facts of the machine the text comes from)
MACHINES = {
    "ubuntu": (Platform(os="linux", package_manager="apt", distro="ubuntu", source="facts"), _linux("apt", "ubuntu")),
    "debian": (Platform(os="linux", package_manager="apt", distro="debian", source="facts"), _linux("apt", "debian")),
    "fedora": (Platform(os="linux", package_manager="dnf", distro="fedora", source="facts"), _linux("dnf", "fedora")),
    "rhel": (Platform(os="linux", package_manager="dnf", distro="rhel", source="facts"), _linux("dnf", "rhel")),
    "opensuse": (Platform(os="linux", package_manager="zypper", distro="opensuse", source="text"), _linux("zypper", "opensuse-leap")),
    "arch": (Platform(os="linux", package_manager="pacman", distro="arch", source="text"), _linux("pacman", "arch")),
    "jetson": (Platform(os="linux", package_manager="apt", distro="ubuntu", board="jetson", source="text"), _linux("apt", "ubuntu")),
    "wsl": (Platform(os="wsl", package_manager="apt", distro="ubuntu", source="facts"), _linux("apt", "ubuntu", wsl=2)),
    "windows": (Platform(os="windows", python=WIN_PY, python_kind="venv", source="text"),
                Facts(source="test", os=OsInfo(platform="windows", id="windows"), gpus=GPU,
                      python=PythonEnv(path=WIN_PY, version="3.12.3", kind="venv", torch=TORCH),
                      driver=DriverInfo(state="ok", version="552.22", cuda_version="12.4"))),
    "windows_hostile_path": (Platform(os="windows", python=HOSTILE_PY, python_kind="venv", source="text"),
                             Facts(source="test", os=OsInfo(platform="windows", id="windows"), gpus=GPU,
                                   python=PythonEnv(path=HOSTILE_PY, version="3.12.3", kind="venv", torch=TORCH),
                                   driver=DriverInfo(state="ok", version="552.22", cuda_version="12.4"))),
    "macos": (Platform(os="macos", python="/Users/a/venv/bin/python", python_kind="venv", source="text"), None),
    "docker": (Platform(os="linux", package_manager="apt", container="docker", python="/opt/venv/bin/python", python_kind="venv",
                        source="text"), _linux("apt", "ubuntu")),
    "docker_desktop": (Platform(os="windows", container="docker_desktop", source="text"), None),
    "podman": (Platform(os="linux", package_manager="dnf", container="podman", source="text"), _linux("dnf", "fedora")),
    "kubernetes": (Platform(os="linux", package_manager="apt", container="kubernetes", source="text"), _linux("apt", "ubuntu")),
    "conda_linux": (Platform(os="linux", package_manager="apt", distro="ubuntu", python="/home/u/miniconda3/envs/t/bin/python",
                             python_kind="conda", source="text"), _linux("apt", "ubuntu")),
    "conda_windows": (Platform(os="windows", python=r"C:\Users\a b\miniconda3\envs\t\python.exe", python_kind="conda",
                               source="text"), None),
}
GROUPS = {"major": "9", "kver": "6.8.0-45-generic", "max": "12", "pkg": "nvidia-driver-535", "sm": "sm_120", "lib": "libcudnn.so.9",
          "need": "12.8", "built": "12.4", "found": "11.8", "compiled": "8.9.2", "runtime": "8.5.0", "host": "download.pytorch.org"}


@lru_cache(maxsize=None)
def _rec(name: str):
    facts = MACHINES[name][1]
    return recommender(facts) if facts is not None else None


def _steps_for(name: str):
    """(code, FixStep) of every rule part's fix, as the engine builds it for that machine."""
    rb = load_rules()
    platform, facts = MACHINES[name]
    glob = platform_entry({"platforms": rb.platforms or {}}, platform)
    out = []
    for r in RULES["rules"]:
        for code, part in rule_parts(r):
            ctx = ev.Context(facts=facts, text="", groups=dict(GROUPS), recommendation=_rec(name), platform=platform)
            if "@" in code and not pred(part["when"], ctx):
                continue  # a redirect's fix only where its predicate holds (nvidia-smi failing inside WSL)
            pe = platform_entry(part, platform)
            if pe is not None and "fix_steps" in pe[1]:
                specs, c = pe[1]["fix_steps"], f"{code}~{pe[0]}"
            elif glob is not None:
                specs, c = glob[1]["fix_steps"], f"platform~{glob[0]}"
            else:
                specs, c = part.get("fix_steps") or [], code
            vals = fill_values(ctx, dict(GROUPS), "")
            steps, dropped = build_steps(specs, ctx, vals, c, rb.fixes)
            out += [(c, s) for s in finish(steps, dropped, platform)]
    return out


LINUX_PM = {"apt-get": "apt", "dnf": "dnf", "zypper": "zypper", "pacman": "pacman", "mkinitcpio": "pacman"}
LINUX_ONLY = {"apt-get", "dnf", "zypper", "pacman", "modprobe", "rmmod", "dkms", "mokutil", "update-initramfs", "dracut",
              "mkinitcpio", "systemctl", "ldconfig", "nvidia-ctk", "kmodgenca", "akmods"}


def _side(platform: Platform) -> str:
    """The machine a step with no `where` runs on: the text's own."""
    return "container" if platform.container and platform.container != "docker_desktop" else platform.os


def _check_side(where: str, platform: Platform, s, st) -> None:
    """The step knows where it runs, and it and its plan Step hold nothing of another machine."""
    want = {"": _side(platform), "windows": "windows", "image": "image", "firmware": "firmware"}.get(s.where)
    if s.where == "host":
        want = platform.os if platform.container == "docker_desktop" else ("wsl" if platform.os == "wsl" else "linux")
    assert s.runs_on == want, (where, s.where, s.runs_on, want)
    assert belongs_elsewhere(s) is None, (where, belongs_elsewhere(s))
    progs = {a[0].replace("\\", "/").rsplit("/", 1)[-1] for a in st.commands if a}
    if s.runs_on in ("windows", "macos"):
        assert not progs & (LINUX_ONLY | LINUX_PROGRAMS), (where, progs)  # no ldconfig, dkms or apt for Windows or a Mac
        if s.kind != "write_config":  # the wizard's own config file, where app.config.config_path() puts it on that OS
            assert not any(e.path.startswith("/") for e in st.edits), (where, [e.path for e in st.edits])
    if s.runs_on in LINUX_SIDES:
        assert not any(":\\" in e.path for e in st.edits), where


@pytest.mark.parametrize("name", sorted(MACHINES))
def test_every_rules_fix_is_runnable_as_shown_on(name, tmp_path):
    platform, _facts = MACHINES[name]
    steps = _steps_for(name)
    assert steps, name
    runnable, windows_side = [], []
    for code, s in steps:
        where = f"{name}: {code}.{s.id}"
        for argv in s.argv:
            assert argv and all(a and "{" not in a and "}" not in a for a in argv), (where, argv)
        _check_side(where, platform, s, _to_step(s))
        if not s.manual and s.kind != "reboot":
            assert is_runnable(s), where
            st = _to_step(s)
            assert validate_step(st) == [], (where, validate_step(st))
            if st.needs_root:
                assert all(argv_allowed(st.kind, a) for a in st.commands), where
            runnable.append(st)
        if s.runs_on == "windows" and (s.argv or s.env):
            windows_side.append(_to_step(s.replace(manual=False)))
        progs = {a[0] for a in s.argv}
        if s.runs_on in ("windows", "macos"):
            assert not progs & LINUX_ONLY, (where, progs)  # no Linux package or module command for Windows or a Mac
        elif s.where not in ("host",) and not platform.container:
            for p in progs & set(LINUX_PM):
                assert LINUX_PM[p] == platform.package_manager, (where, p)  # the machine's own package manager
        if platform.os == "wsl":
            assert not any(a[0] == "apt-get" and a[1] == "install" and any("nvidia-driver" in x for x in a) for a in s.argv), where
        if platform.container == "docker_desktop":
            assert not any("nvidia-container-toolkit" in x for a in s.argv for x in a), where
        if platform.os == "macos":
            assert not any("--index-url" in a for a in s.argv), where  # no CUDA build for a Mac
    if runnable and platform.os != "windows":
        script = tmp_path / "fix.sh"
        script.write_text(plan_to_script(Plan(steps=tuple(runnable))), encoding="utf-8")
        r = subprocess.run(["bash", "-n", str(script)], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
    if platform.os == "windows":  # what the wizard runs on Windows is written for PowerShell
        assert all(any(w.id == st.id for w in windows_side) for st in runnable), name
    if windows_side:
        text = plan_to_powershell(Plan(steps=tuple(windows_side), platform="windows"))
        planted = ["py"] if markers("py")[0] in text else []
        assert problems(text, planted) == [], (name, problems(text, planted))
        if name == "windows_hostile_path":
            assert planted  # the hostile interpreter path reached the script


def test_the_machines_cover_every_platform_entry_the_rules_and_fixes_name():
    fixes = json.loads(resource("diagnose", "fixes.json").read_text(encoding="utf-8"))["fixes"]
    tags = {t for e in fixes.values() for t in e} - {"*"}
    for r in RULES["rules"]:
        for _c, part in rule_parts(r):
            tags |= set((part.get("platforms") or {}))
    covered = {t for p, _f in MACHINES.values() for t in p.tags}
    assert tags <= covered, tags - covered


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is needed to check the scripts")
def test_a_broken_script_is_caught(tmp_path):
    bad = tmp_path / "bad.sh"
    bad.write_text("if then fi\n", encoding="utf-8")
    assert subprocess.run(["bash", "-n", str(bad)], capture_output=True).returncode != 0  # the check above can fail
