"""The one home of version arithmetic: driver, CUDA, PyTorch, compute-capability and Python
versions as comparable tuples, and Python tags ("3.13t" free-threaded builds included).

Every module that compares versions imports from here; nothing else parses them."""
from __future__ import annotations

import functools
import re
from typing import Optional

_NUM = re.compile(r"\d+")


@functools.lru_cache(maxsize=8192)
def vkey(version: Optional[str]) -> tuple[int, ...]:
    """'580.159.04' -> (580, 159, 4); '12.8' -> (12, 8); '3.13t' -> (3, 13); junk -> (). Comparable tuples."""
    if not version:
        return ()
    head = str(version).strip().split("+")[0].split(" ")[0]
    return tuple(int(p) for p in _NUM.findall(head))


def major_minor(version: Optional[str]) -> Optional[str]:
    k = vkey(version)
    if len(k) < 2:
        return None
    return f"{k[0]}.{k[1]}"


@functools.lru_cache(maxsize=1024)
def cc_key(cc: str) -> tuple[int, int]:
    k = vkey(cc)
    if not k:
        return (-1, -1)  # junk sorts below every real capability and matches none
    return (k[0], k[1] if len(k) > 1 else 0)


def branch_of(driver_version: Optional[str]) -> Optional[str]:
    k = vkey(driver_version)
    return str(k[0]) if k else None


def version_tuple(v: Optional[str]) -> Optional[tuple[int, ...]]:
    """Like vkey for a version that must start with a digit; None when it does not."""
    if not v or not re.match(r"\s*\d", str(v)):
        return None
    return vkey(v) or None


# ---------------------------------------------------------------- Python

_PY_DOTTED = re.compile(r"^(?:python\s*)?(\d+)\.(\d+)(?:\.\d+)?([a-z]*)$", re.I)
_PY_CP = re.compile(r"^(?:cp|py)(\d)(\d+)([a-z]*)$", re.I)


def python_tag(value: Optional[str]) -> Optional[str]:
    """'3.13', '3.13.1', 'cp313', '3.13t', '3.13.0t', 'cp313t', '3.13+freethreaded' -> '3.13' / '3.13t'.
    None for anything that is not a CPython X.Y (with an optional free-threaded 't')."""
    if not value:
        return None
    s = str(value).strip()
    s = re.sub(r"(?i)\s*[-+ ]?(free-?threaded|freethreading|nogil)$", "t", s)
    m = _PY_DOTTED.match(s) or _PY_CP.match(s)
    if not m or m.group(3).lower() not in ("", "t"):
        return None
    return f"{int(m.group(1))}.{int(m.group(2))}{m.group(3).lower()}"


def is_free_threaded(tag: Optional[str]) -> bool:
    return bool(tag) and str(tag).endswith("t")


def python_base(tag: Optional[str]) -> Optional[str]:
    """'3.13t' -> '3.13' (the interpreter version without the ABI flag)."""
    return str(tag).rstrip("t") if tag else None


def cp_tag(tag: Optional[str]) -> Optional[str]:
    """'3.13t' -> 'cp313t', '3.12' -> 'cp312': the wheel's Python/ABI tag."""
    t = python_tag(tag)
    if not t:
        return None
    k = vkey(t)
    return f"cp{k[0]}{k[1]}" + ("t" if t.endswith("t") else "")
