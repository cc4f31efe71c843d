"""The one home of "does this build run on that GPU": a CUDA architecture list (the wheel's
`torch.cuda.get_arch_list()` — 'sm_80', 'sm_90a', 'sm_100f', 'compute_90' — or the data's
'8.0' style) against a compute capability. Used by detection, the solve, verify and diagnose.

Rules (NVIDIA CUDA C++ Programming Guide, "Binary compatibility" and "Feature availability":
https://docs.nvidia.com/cuda/cuda-c-programming-guide/#binary-compatibility):
- sm_XY cubin runs on X.Z for Z >= Y (same major);
- sm_XYa (architecture-specific) runs on X.Y only;
- sm_XYf (family-specific) runs on the same major at X.Y or later minors;
- compute_XY (PTX) is JIT-compiled by the driver for any X.Y or newer GPU (arch/family PTX: never forward).
"""
from __future__ import annotations

import re
from typing import Iterable, Literal, Optional

from app.compat.version import cc_key

_CODE = re.compile(r"^(sm|compute)_(\d+)(\d)([af]?)$")
_DOTTED = re.compile(r"^(\d+)\.(\d+)([af]?)$")


def parse_arch(code: str) -> Optional[tuple[str, tuple[int, int], str]]:
    """'sm_90a' -> ('sm', (9, 0), 'a'); 'compute_120' -> ('compute', (12, 0), ''); '8.6' -> ('sm', (8, 6), '')."""
    s = str(code).strip().lower()
    m = _CODE.match(s)
    if m:
        return m.group(1), (int(m.group(2)), int(m.group(3))), m.group(4)
    m = _DOTTED.match(s)
    if m:
        return "sm", (int(m.group(1)), int(m.group(2))), m.group(3)
    return None


def _cc(cc: Optional[str]) -> Optional[tuple[int, int]]:
    m = re.match(r"^\s*(\d+)(?:\.(\d+))?\s*$", str(cc or ""))
    return (int(m.group(1)), int(m.group(2) or 0)) if m else None


def coverage(arch_list: Iterable[str], cc: Optional[str], ptx: Iterable[str] = ()) -> Optional[Literal["sass", "ptx"]]:
    """'sass' when a cubin in the list runs on `cc`, 'ptx' when only PTX can be JIT-compiled for it,
    None when neither (or `cc` is unreadable). `ptx` lists PTX targets given apart ('12.0' style)."""
    g = _cc(cc)
    if g is None:
        return None
    how: Optional[str] = None
    for code in list(arch_list) + [f"compute_{p.replace('.', '')}" if "." in str(p) else str(p) for p in ptx]:
        p = parse_arch(code)
        if p is None:
            continue
        kind, (am, an), suffix = p
        if kind == "sm":
            if (suffix == "a" and (am, an) == g) or (suffix != "a" and am == g[0] and an <= g[1]):
                return "sass"
        elif not suffix and (am, an) <= g:
            how = "ptx"
    return how  # type: ignore[return-value]


def arch_covers(arch_list: Iterable[str], cc: Optional[str]) -> Optional[bool]:
    """Does a build with this arch list run on compute capability `cc` ("8.6")? None when either is unknown."""
    arch_list = list(arch_list or ())
    if _cc(cc) is None or not arch_list:
        return None
    return coverage(arch_list, cc) is not None


def sm_code(cc: str) -> str:
    """'8.9' -> 'sm_89'."""
    k = cc_key(cc)
    return f"sm_{k[0]}{k[1]}"
