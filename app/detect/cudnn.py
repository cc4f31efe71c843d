"""cuDNN: cudnn_version.h, libcudnn.so.N (ldconfig cache or library dirs), packages."""
from __future__ import annotations

import re
from typing import Optional

HEADER_CANDIDATES = ("/usr/include/cudnn_version.h", "/usr/include/x86_64-linux-gnu/cudnn_version_v9.h",
                     "/usr/include/x86_64-linux-gnu/cudnn_version_v8.h", "/usr/local/cuda/include/cudnn_version.h")
LIB_DIRS = ("/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/local/cuda/lib64", "/usr/lib/aarch64-linux-gnu")
LDCONFIG_ARGV = ["ldconfig", "-p"]


def parse_cudnn_header(text: Optional[str]) -> Optional[str]:
    vals = {}
    for k in ("MAJOR", "MINOR", "PATCHLEVEL"):
        m = re.search(rf"#define\s+CUDNN_{k}\s+(\d+)", text or "")
        if not m:
            return None
        vals[k] = m.group(1)
    return f"{vals['MAJOR']}.{vals['MINOR']}.{vals['PATCHLEVEL']}"


def parse_ldconfig_libs(text: str, prefix: str = "libcudnn.so.") -> list[str]:
    """Paths of `prefix*` libraries in `ldconfig -p` output."""
    out = []
    for line in (text or "").splitlines():
        m = re.match(r"\s*(\S+)\s+\(.*\)\s+=>\s+(\S+)", line)
        if m and m.group(1).startswith(prefix) and m.group(2) not in out:
            out.append(m.group(2))
    return out


def libs_in_dirs(system, dirs=LIB_DIRS) -> list[str]:
    out = []
    for d in dirs:
        for e in system.list_dir(d) or []:
            if re.fullmatch(r"libcudnn\.so\.\d+(\.\d+)*", e):
                out.append(f"{d}/{e}")
    return out


def version_from_libs(libs: list[str]) -> Optional[str]:
    best = None
    for p in libs:
        m = re.search(r"libcudnn\.so\.(\d+(?:\.\d+){0,2})$", p)
        if m and (best is None or len(m.group(1)) > len(best)):
            best = m.group(1)
    return best
