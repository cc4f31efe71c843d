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
from .model import Check, Step, coded_step
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
    # 1. the NVIDIA Windows driver: the only driver, for Windows and for WSL 2
    steps: list[Step] = [s for s in (_driver_step(facts, rec),) if s]
    # 2. Windows features (administrator: UAC), then a restart: nothing WSL-related works before it, the
    # next run plans the rest
    wsl_missing = not (win and win.wsl_installed)
    if wsl_missing or facts.finding("wsl_vmp_missing") is not None:
        return steps + [_features_step(facts, choices, wsl_missing)]
    # 3. WSL itself up to date, WSL 2 by default
    if wsl_missing or facts.finding("wsl_update_needed") or facts.finding("wsl_kernel_old"):
        steps.append(coded_step("update_wsl", "windows_host", "update_wsl", "update_wsl_why", needs_root=True, weight=3,
                                timeout_s=1200, commands=(("wsl", "--update"),)))
    if wsl_missing or (win and win.wsl_default_version != 2):
        steps.append(coded_step("set_wsl_default_version", "windows_host", "set_wsl_default_version", "set_wsl_default_version_why",
                                timeout_s=120, commands=(("wsl", "--set-default-version", "2"),)))
    # 4. the distro: install one (its first start asks for a user name: the next run continues), or convert it
    name, existing = pick_distro(facts, choices)
    if existing is None:
        return steps + [_install_distro_step(name, [s.id for s in steps if s.id in ("update_wsl", "set_wsl_default_version")])]
    if existing.version != 2:
        steps.append(coded_step("set_wsl_distro_version", "windows_host", "set_wsl_distro_version", "set_wsl_distro_version_why",
                                {"name": name}, weight=6, timeout_s=3600, commands=(("wsl", "--set-version", name, "2"),)))
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
    steps.append(coded_step(
        "check_wsl_gpu", "windows_host", "check_wsl_gpu", "check_wsl_gpu_why", {"name": name}, weight=1, timeout_s=120,
        commands=(("wsl", "-d", name, "--", "/usr/lib/wsl/lib/nvidia-smi"),),
        after=tuple(s.id for s in steps if s.id in ("update_wsl", "set_wsl_distro_version")),
        **said_notes(("note_continue_inside_distro", {"command": ' '.join(linux_side_argv(name))})),
    ))
    return steps


def _driver_step(facts: Facts, rec: Recommendation) -> Optional[Step]:
    minimum = rec.driver.min_version or FALLBACK_MIN_DRIVER
    if facts.driver.state == "ok" and not driver_too_old(facts.driver.version, minimum):
        return None
    return coded_step(
        "update_nvidia_windows_driver", "windows_host", "update_nvidia_windows_driver", "update_nvidia_windows_driver_why",
        {"minimum": str(minimum), "have": facts.driver.version or "none"}, weight=1, timeout_s=60,
        commands=(("rundll32", "url.dll,FileProtocolHandler", DRIVER_DOWNLOAD_URL),),
        **said_notes(("note_windows_driver_pick", {})),
    )


def _features_step(facts: Facts, choices: Choices, wsl_missing: bool) -> Step:
    feats = WSL_FEATURES if wsl_missing else ("VirtualMachinePlatform",)
    return coded_step(
        "enable_wsl_features", "windows_host", "enable_wsl_features", "enable_wsl_features_why",
        needs_root=True, weight=5, timeout_s=1200,
        commands=tuple(("dism.exe", "/online", "/enable-feature", f"/featurename:{f}", "/all", "/norestart") for f in feats),
        reboot_required=True,
        # 3010 = ERROR_SUCCESS_REBOOT_REQUIRED: the feature is on after the restart
        ok_exit_codes=(0, 3010), reboot_exit_codes=(3010,),
        done_when=(Check("command_ok", ("wsl", "--status")),),  # wsl.exe answers: the features are on
        **said_notes(("note_dism_3010", {}), ("note_after_restart", {"name": pick_distro(facts, choices)[0]})),
    )


def _install_distro_step(name: str, before: list[str]) -> Step:
    return coded_step(
        "install_wsl_distro", "windows_host", "install_wsl_distro", "install_wsl_distro_why", {"name": name},
        weight=8, timeout_s=1800, after=tuple(before),
        commands=(("wsl", "--install", "-d", name, "--no-launch"),),
        done_when=(Check("command_ok", ("wsl", "-d", name, "--", "true")),),
        **said_notes(("note_first_start", {"name": name}), ("note_continue_inside_it", {"command": ' '.join(linux_side_argv(name))})),
    )


def linux_side_argv(distro: str, extra: tuple[str, ...] = ()) -> tuple[str, ...]:
    """argv that runs the wizard's Linux side inside `distro`, streaming its output to this window."""
    if not DISTRO_NAME_RE.match(distro):
        raise ValueError(f"not a WSL distro name: {distro!r}")
    return ("wsl", "-d", distro, "--", *LINUX_SIDE_CMD, *extra)
