"""/proc/modules: which kernel modules are loaded (nvidia, nvidia_uvm, nvidia_drm, nouveau)."""
from __future__ import annotations

from typing import Optional

PROC_MODULES = "/proc/modules"
NVIDIA_MODULES = ("nvidia", "nvidia_uvm", "nvidia_drm", "nvidia_modeset", "nvidia_peermem")


def parse_proc_modules(text: Optional[str]) -> set[str]:
    out: set[str] = set()
    for line in (text or "").splitlines():
        name = line.split(" ", 1)[0].strip()
        if name and name.replace("_", "").isalnum():
            out.add(name)
    return out
