"""Restarting the computer and continuing after it, for each OS, from one place.

- `boot_id()`: something that changes when the machine restarts (Linux: the kernel's boot_id; Windows:
  the boot time from the uptime counter, to the minute). The executor pauses a plan on it and the
  window decides on it whether it is starting after the restart.
- `restart_argv()`: the command that restarts now (Linux: `systemctl reboot`; Windows: `shutdown.exe
  /r /t 0`).
- `write_autostart()` / `remove_autostart()`: a one-shot entry that opens the wizard at the next login
  (Linux: an XDG autostart .desktop file; Windows: a .cmd in the user's Startup folder).
"""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Callable, Optional, Sequence

from app.fileio import write_atomic

ENTRY = "gpu-wizard-resume"


def platform_name(platform: Optional[str] = None) -> str:
    p = platform or sys.platform
    return "windows" if p.startswith("win") or p == "windows" else "linux"


def windows_boot_id(now_s: float, uptime_s: float) -> str:
    """The boot time rounded to the nearest minute (the wall clock and the uptime counter drift apart
    by milliseconds, so two calls in one boot agree)."""
    return "boot-%d" % int((now_s - uptime_s + 30) // 60)


def _windows_uptime_s() -> float:
    import ctypes

    tick = ctypes.windll.kernel32.GetTickCount64  # type: ignore[attr-defined]
    tick.restype = ctypes.c_ulonglong
    return float(tick()) / 1000.0


def boot_id(platform: Optional[str] = None, uptime_s: Optional[Callable[[], float]] = None,
            proc_path: str = "/proc/sys/kernel/random/boot_id") -> Optional[str]:
    """None when it cannot be read (then a restart cannot be told from a restart of the wizard)."""
    if platform_name(platform) == "windows":
        try:
            return windows_boot_id(time.time(), (uptime_s or _windows_uptime_s)())
        except (AttributeError, OSError, ValueError):
            return None
    try:
        with open(proc_path, encoding="ascii") as fh:
            return fh.read().strip() or None
    except OSError:
        return None


def resume_due(saved: Optional[str], now: Optional[str]) -> bool:
    """Whether a start continues after the restart: the boot changed, or it cannot be told (then the
    wizard goes on to verification, which is safe to run before the restart too)."""
    return saved is None or now is None or saved != now


def restart_argv(platform: Optional[str] = None) -> list[str]:
    if platform_name(platform) == "windows":
        return ["shutdown.exe", "/r", "/t", "0"]
    return ["systemctl", "reboot"]


def autostart_dir(platform: Optional[str] = None, environ: Optional[dict] = None) -> Path:
    env = os.environ if environ is None else environ
    home = os.path.expanduser("~")
    if platform_name(platform) == "windows":
        appdata = env.get("APPDATA") or os.path.join(home, "AppData", "Roaming")
        return Path(appdata) / "Microsoft" / "Windows" / "Start Menu" / "Programs" / "Startup"
    return Path(env.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")) / "autostart"


def autostart_path(directory: Optional[str] = None, platform: Optional[str] = None) -> Path:
    base = Path(directory) if directory else autostart_dir(platform)
    return base / (f"{ENTRY}.cmd" if platform_name(platform) == "windows" else f"{ENTRY}.desktop")


def _desktop_quote(arg: str) -> str:
    if arg and all(c.isalnum() or c in "/._-+=:," for c in arg):
        return arg
    return '"' + "".join("\\" + c if c in '"`$\\' else c for c in arg) + '"'


def _cmd_quote(arg: str) -> str:
    """One cmd.exe word: double quotes, %-signs doubled so no variable expands; a double quote
    cannot be written inside one and is refused."""
    if '"' in arg or "\n" in arg or "\r" in arg:
        raise ValueError(f"cannot start {arg!r} from a .cmd file")
    return '"' + arg.replace("%", "%%") + '"'


def autostart_text(launch: Sequence[str], platform: Optional[str] = None) -> str:
    if platform_name(platform) == "windows":
        # `start ""` returns at once, so the login is not held up; the file removes itself first
        return ("@echo off\r\n" "del \"%~f0\"\r\n" "start \"\" " + " ".join(_cmd_quote(a) for a in launch) + "\r\n")
    exe = " ".join(_desktop_quote(a) for a in launch)
    return ("[Desktop Entry]\nType=Application\nName=GPU Setup Wizard (continue after restart)\n"
            f"Exec={exe}\nIcon=gpu-wizard\nTerminal=false\nNoDisplay=true\nX-GNOME-Autostart-enabled=true\n")


def write_autostart(launch: Sequence[str], directory: Optional[str] = None, platform: Optional[str] = None) -> Path:
    """A one-shot login entry: after the restart the wizard opens by itself and continues with the
    verification (the wizard removes the entry when it starts; the Windows one also removes itself)."""
    path = autostart_path(directory, platform)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, autostart_text(launch, platform))
    return path


def remove_autostart(directory: Optional[str] = None, platform: Optional[str] = None) -> None:
    try:
        autostart_path(directory, platform).unlink()
    except OSError:
        pass
