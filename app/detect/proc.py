"""/proc/driver/nvidia/version and /sys/module/nvidia/version: the loaded kernel module."""
from __future__ import annotations

import re
from typing import Optional

from app.model import Record, record

PROC_VERSION = "/proc/driver/nvidia/version"
SYS_MODULE_VERSION = "/sys/module/nvidia/version"


@record
class ProcDriver(Record):
    """The loaded kernel module, as /proc/driver/nvidia/version says."""

    version: Optional[str] = None
    kernel_module: Optional[str] = None  # "open" | "proprietary"
    arch: Optional[str] = None  # "x86_64", "aarch64"
    gcc: Optional[str] = None


def parse_proc_driver_version(text: Optional[str]) -> Optional[ProcDriver]:
    """'NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release Build ...'
    (open) or 'NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.129.03  Thu Oct 19 ...'
    (proprietary). None when the text has no NVRM line."""
    if not text:
        return None
    line = next((ln for ln in text.splitlines() if "NVRM version" in ln), None)
    if line is None:
        return None
    m = re.search(r"Kernel Module(?: for [\w-]+)?\s+([0-9]+\.[0-9]+(?:\.[0-9]+)?)", line)
    version = m.group(1) if m else None
    kind = "open" if "Open Kernel Module" in line else ("proprietary" if "Kernel Module" in line else None)
    am = re.search(r"(?:for|UNIX)\s+(x86_64|aarch64|ppc64le|arm64)", line)
    gm = re.search(r"gcc version\s+([0-9][0-9.]*)", text)
    return ProcDriver(version=version, kernel_module=kind, arch=am.group(1) if am else None, gcc=gm.group(1) if gm else None)


def parse_sys_module_version(text: Optional[str]) -> Optional[str]:
    v = (text or "").strip()
    return v if re.fullmatch(r"[0-9]+\.[0-9]+(?:\.[0-9]+)?", v) else None


def parse_gpu_information(text: Optional[str]) -> dict[str, str]:
    """/proc/driver/nvidia/gpus/<bus>/information: 'Model: NVIDIA H200' etc."""
    out: dict[str, str] = {}
    for line in (text or "").splitlines():
        k, sep, v = line.partition(":")
        if sep and k.strip():
            out[k.strip()] = v.strip()
    return out
