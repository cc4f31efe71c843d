"""Finding system programs the way root would, for any user.

A normal Debian/Ubuntu user's PATH has no sbin folders, yet the programs the wizard reads or runs
(`ldconfig`, `modprobe`, `dkms`, `lspci`, `mokutil`, `update-initramfs`, ...) live there. Every
place that starts a program by name resolves it here: PATH first, then the system folders."""
from __future__ import annotations

import os
import shutil
import sys
from typing import Optional, Sequence

SYSTEM_DIRS = ("/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin")


def find_tool(name: str, path: Optional[str] = None) -> Optional[str]:
    """Absolute path of the program `name`, or None. `path` replaces $PATH for the first look;
    the system folders are always looked in after it (not on Windows)."""
    if not name:
        return None
    if os.path.isabs(name):
        return name if os.path.isfile(name) and os.access(name, os.X_OK) else None
    if os.sep in name or (os.altsep and os.altsep in name):
        return shutil.which(name)
    found = shutil.which(name, path=path)
    if found or sys.platform.startswith("win"):
        return found
    return shutil.which(name, path=os.pathsep.join(SYSTEM_DIRS))


def resolve_argv(argv: Sequence[str], path: Optional[str] = None) -> list[str]:
    """argv with its program made absolute where it can be found (unchanged otherwise, so the
    caller's 'not installed' handling still sees the name)."""
    out = [str(a) for a in argv]
    if out and out[0]:
        exe = find_tool(out[0], path)
        if exe:
            out[0] = exe
    return out


def with_system_dirs(path_value: Optional[str]) -> str:
    """A PATH value with the system folders appended where missing (for child processes)."""
    parts = [p for p in (path_value or "").split(os.pathsep) if p]
    if sys.platform.startswith("win"):
        return os.pathsep.join(parts)
    return os.pathsep.join(parts + [d for d in SYSTEM_DIRS if d not in parts])
