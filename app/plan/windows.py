"""Steps on the Windows host: get the NVIDIA Windows driver recent enough for CUDA in WSL 2,
turn on the Windows features WSL 2 needs, install or convert a distro, update WSL, then hand
over to the Linux side inside the distro.

Only the steps that change Windows itself (DISM features, `wsl --update`) need administrator
rights; the runner asks for them through UAC for those steps alone (`needs_root`). Every
command is a fixed argv list: the distro name is checked against WSL's own naming rule first.
"""
from __future__ import annotations

import re
from typing import Optional

from app.choices import Choices
from app.detect.windows import DRIVER_DOWNLOAD_URL
from app.detect.wsl import wsl_memory_target_mib
from app.facts import Facts, WslDistro
from app.recommendation import Recommendation

from .common import said_notes
from .model import Check, Step
from .wsl import memory_step

DEFAULT_DISTRO = "Ubuntu-24.04"
WSL_FEATURES = ("Microsoft-Windows-Subsystem-Linux", "VirtualMachinePlatform")
# WSL distro names: letters, digits, '.', '-', '_' (what `wsl --install -d` and `--set-version` accept).
DISTRO_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
# The least driver for CUDA in WSL 2 when the recommendation gives none: the CUDA 12.x
# minor-version-compatibility floor on Windows (NVIDIA's Table 2; reference/compat-notes.md).
FALLBACK_MIN_DRIVER = "527.41"
# The wizard's Linux side, run inside the distro once it exists.
LINUX_SIDE_CMD = ("gpu-wizard", "install")


from app.compat.version import version_tuple as _version_tuple  # noqa: E402  (one version module)


def driver_too_old(current: Optional[str], minimum: Optional[str]) -> bool:
    cur, low = _version_tuple(current), _version_tuple(minimum)
    if cur is None:
        return True
    return low is not None and cur < low


def pick_distro(facts: Facts, choices: Choices) -> tuple[str, Optional[WslDistro]]:
    """The distro the Linux side runs in: the user's choice, else the default WSL 2 Ubuntu, else
    any Ubuntu (converted to WSL 2 if needed), else a fresh Ubuntu-24.04."""
    distros = list(facts.windows.distros) if facts.windows else []
    wanted = choices.wsl_distro
    if wanted and DISTRO_NAME_RE.match(wanted):
        return wanted, next((d for d in distros if d.name == wanted), None)
    usable = [d for d in distros if d.name.lower().startswith("ubuntu")]
    for d in sorted(usable, key=lambda d: (d.version != 2, not d.default)):
        if DISTRO_NAME_RE.match(d.name):
            return d.name, d
    return DEFAULT_DISTRO, None


def build_windows_plan(facts: Facts, rec: Recommendation, choices: Choices) -> list[Step]:
    if facts.os.platform != "windows":
        return []
    win = facts.windows
    steps: list[Step] = []

    # 1. the NVIDIA Windows driver: the only driver, for Windows and for WSL 2
    minimum = rec.driver.min_version or FALLBACK_MIN_DRIVER
    if facts.driver.state != "ok" or driver_too_old(facts.driver.version, minimum):
        have = facts.driver.version or "none"
        steps.append(Step(
            id="update_nvidia_windows_driver", kind="windows_host", needs_root=False, weight=1, timeout_s=60,
            title=f"Install the NVIDIA Windows driver {minimum} or newer (you have {have})",
            title_code="update_nvidia_windows_driver", why_code="update_nvidia_windows_driver_why",
            params={"minimum": str(minimum), "have": have},
            why="On Windows the NVIDIA driver also serves CUDA inside WSL 2; it must be at least "
                f"{minimum} for the PyTorch build the wizard chose. NVIDIA's download page opens; run its installer, "
                "then start the wizard again.",
            commands=(("rundll32", "url.dll,FileProtocolHandler", DRIVER_DOWNLOAD_URL),),
            **said_notes(("note_windows_driver_pick", {})),
        ))

    # 2. Windows features (administrator: UAC), then a restart
    wsl_missing = not (win and win.wsl_installed)
    vmp_missing = facts.finding("wsl_vmp_missing") is not None
    if wsl_missing or vmp_missing:
        feats = WSL_FEATURES if wsl_missing else ("VirtualMachinePlatform",)
        steps.append(Step(
            id="enable_wsl_features", kind="windows_host", needs_root=True, weight=5, timeout_s=1200,
            title="Turn on the Windows features WSL 2 needs",
            title_code="enable_wsl_features", why_code="enable_wsl_features_why",
            why="WSL 2 runs Linux in a light virtual machine: Windows needs 'Windows Subsystem for Linux' and "
                "'Virtual Machine Platform' switched on. Windows asks for administrator approval for this step only.",
            commands=tuple(("dism.exe", "/online", "/enable-feature", f"/featurename:{f}", "/all", "/norestart") for f in feats),
            reboot_required=True,
            # 3010 = ERROR_SUCCESS_REBOOT_REQUIRED: the feature is on after the restart
            ok_exit_codes=(0, 3010), reboot_exit_codes=(3010,),
            done_when=(Check("command_ok", ("wsl", "--status")),),  # wsl.exe answers: the features are on
            **said_notes(("note_dism_3010", {}), ("note_after_restart", {"name": pick_distro(facts, choices)[0]})),
        ))
        # Nothing WSL-related works before the restart: the next run plans the rest.
        return steps

    # 3. WSL itself up to date, WSL 2 by default
    if wsl_missing or facts.finding("wsl_update_needed") or facts.finding("wsl_kernel_old"):
        steps.append(Step(
            id="update_wsl", kind="windows_host", needs_root=True, weight=3, timeout_s=1200,
            title="Update WSL and its Linux kernel", title_code="update_wsl", why_code="update_wsl_why",
            why="GPU support in WSL 2 needs a recent WSL and kernel (5.10.43.3 or newer).",
            commands=(("wsl", "--update"),),
        ))
    if wsl_missing or (win and win.wsl_default_version != 2):
        steps.append(Step(
            id="set_wsl_default_version", kind="windows_host", needs_root=False, timeout_s=120,
            title="Make WSL 2 the default for new distros",
            title_code="set_wsl_default_version", why_code="set_wsl_default_version_why",
            why="CUDA works only under WSL 2.",
            commands=(("wsl", "--set-default-version", "2"),),
        ))

    # 4. the distro: install one, or convert the chosen one to WSL 2
    name, existing = pick_distro(facts, choices)
    if existing is None:
        steps.append(Step(
            id="install_wsl_distro", kind="windows_host", needs_root=False, weight=8, timeout_s=1800,
            title=f"Install {name} in WSL",
            title_code="install_wsl_distro", why_code="install_wsl_distro_why", params={"name": name},
            why=f"The Linux side (CUDA toolkit if wanted, PyTorch) runs inside a WSL 2 distro; {name} is the one NVIDIA's "
                "wsl-ubuntu packages are built for.",
            commands=(("wsl", "--install", "-d", name, "--no-launch"),),
            done_when=(Check("command_ok", ("wsl", "-d", name, "--", "true")),),
            **said_notes(("note_first_start", {"name": name}), ("note_continue_inside_it", {"command": ' '.join(linux_side_argv(name))})),
        ))
        # A fresh distro needs its first start (user name and password) before anything runs in it.
        return steps
    elif existing.version != 2:
        steps.append(Step(
            id="set_wsl_distro_version", kind="windows_host", needs_root=False, weight=6, timeout_s=3600,
            title=f"Convert {name} to WSL 2",
            title_code="set_wsl_distro_version", why_code="set_wsl_distro_version_why", params={"name": name},
            why="CUDA cannot run under WSL 1. The conversion keeps your files; it can take several minutes.",
            commands=(("wsl", "--set-version", name, "2"),),
        ))

    # 5. memory WSL 2 may use (the .wslconfig in the user's profile; no administrator rights)
    host = facts.os.memory_total_mib
    gmem = [g.memory_total_mib for g in facts.gpus if g.memory_total_mib]
    if host and facts.os.wslconfig_path:
        limit = facts.os.wsl_memory_limit_mib
        target = wsl_memory_target_mib(host // 2, limit, host, gmem)
        if target:
            steps.append(memory_step(facts.os.wslconfig_path, target, limit, limit or host // 2, kind="windows_host",
                                     after="note_wsl_shutdown_windows"))

    # 6. hand over to the Linux side inside the distro
    steps.append(Step(
        id="check_wsl_gpu", kind="windows_host", needs_root=False, weight=1, timeout_s=120,
        title=f"Check that {name} sees the GPU",
        title_code="check_wsl_gpu", why_code="check_wsl_gpu_why", params={"name": name},
        why="Inside WSL 2 the Windows driver appears as /usr/lib/wsl/lib (libcuda, nvidia-smi); this shows it works "
            "before the Linux side installs anything.",
        commands=(("wsl", "-d", name, "--", "/usr/lib/wsl/lib/nvidia-smi"),),
        **said_notes(("note_continue_inside_distro", {"command": ' '.join(linux_side_argv(name))})),
    ))
    return steps


def linux_side_argv(distro: str, extra: tuple[str, ...] = ()) -> tuple[str, ...]:
    """argv that runs the wizard's Linux side inside `distro`, streaming its output to this window."""
    if not DISTRO_NAME_RE.match(distro):
        raise ValueError(f"not a WSL distro name: {distro!r}")
    return ("wsl", "-d", distro, "--", *LINUX_SIDE_CMD, *extra)
