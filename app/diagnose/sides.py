"""Which machine a fix step runs on, and what belongs to one machine only.

`runs_on(where, platform)` resolves a step's `where` (windows, host, image, firmware, or "" for the machine the
text comes from) on the assumed platform; `belongs_elsewhere(step)` says why a step holds another machine's
command or a step kind whose builder writes Linux files (None: it does not). Such a step is a defect of the rule
base (tests/unit/test_diagnose_fix_runnable.py checks every rule for every platform) and is never run.
"""
from __future__ import annotations

import re
from typing import Optional

from app.diagnose.model import FixStep, Platform

# commands and step kinds that exist on one side only
LINUX_PROGRAMS = frozenset({
    "apt", "apt-get", "apt-mark", "dpkg", "dnf", "yum", "rpm", "zypper", "pacman", "mkinitcpio", "modprobe", "rmmod", "insmod",
    "lsmod", "dkms", "mokutil", "update-initramfs", "dracut", "systemctl", "ldconfig", "nvidia-ctk", "kmodgenca", "akmods",
    "ubuntu-drivers", "sudo", "ln", "sh", "bash", "lspci", "dmesg", "journalctl"})
WINDOWS_PROGRAMS = frozenset({"powershell", "pwsh", "winget", "wsl", "setx", "reg", "bcdedit", "pnputil", "dism"})  # shutdown.exe: by its .exe (Linux has a shutdown too)
# plan step kinds whose builder writes Linux files or runs Linux commands (/etc/profile.d and ldconfig, modprobe.d and
# the initramfs, DKMS, apt/dnf)
LINUX_KINDS = frozenset({"cleanup_cuda", "add_repo", "set_repo_mirror", "update_index", "blacklist_nouveau", "run_runfile",
                         "write_env", "install_cudnn", "install_python_tools", "wsl_fix", "repair_packages",
                         "install_container_toolkit", "rebuild_kernel_module", "fix_packages"})
LINUX_SIDES = ("linux", "wsl", "container", "image")


def runs_on(where: str, platform: Optional[Platform]) -> str:
    """The machine a step for `where` runs on, on the assumed platform: linux, wsl, windows, macos, container
    (inside it), image (its Dockerfile) or firmware; a container's host is Linux, or Docker Desktop's Windows/macOS."""
    p = platform or Platform()
    if where in ("windows", "image", "firmware"):
        return where
    if where == "host":
        return p.os if p.container == "docker_desktop" else ("wsl" if p.os == "wsl" else "linux")
    if p.container and p.container != "docker_desktop":
        return "container"
    return p.os


def _program(argv: tuple[str, ...]) -> str:
    name = argv[0].replace("\\", "/").rsplit("/", 1)[-1].lower() if argv and argv[0] else ""
    return name[:-4] if name.endswith(".exe") else name


def belongs_elsewhere(step: FixStep) -> Optional[str]:
    """Why `step` holds something of another machine than the one it runs on (None: it does not): a Linux command
    or step kind on Windows or macOS, a Windows command or a Windows path on a Linux side."""
    side = step.runs_on
    if not side or side == "firmware":
        return None
    for argv in step.argv:
        prog, first = _program(argv), argv[0] if argv else ""
        windows_path = bool(re.match(r"[A-Za-z]:[\\/]", first)) or first.lower().endswith(".exe")
        if side in ("windows", "macos") and prog in LINUX_PROGRAMS:
            return f"{prog} on {side}"
        if side != "windows" and (prog in WINDOWS_PROGRAMS or windows_path):
            return f"{first} on {side}"
        if side == "windows" and first.startswith("/"):
            return f"{first} on windows"
    if side in ("windows", "macos") and step.kind in LINUX_KINDS:
        return f"a {step.kind} step on {side}"
    return None
