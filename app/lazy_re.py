"""Regular expressions compiled on first use. A module-level `re.compile` runs when the module is imported, and
detection imports the parsers of every fallback (nvidia-smi's table, lspci) that a machine answering through NVML
and sysfs never calls: on the H200 those patterns were about 4 ms of a cold `gpu-wizard detect` (issue 24)."""
from __future__ import annotations

import re
from typing import Any, cast

__all__ = ["compile_later"]


class _Later:
    __slots__ = ("_args", "_compiled")

    def __init__(self, pattern: str, flags: int) -> None:
        self._args = (pattern, flags)
        self._compiled: re.Pattern[str] | None = None

    def __getattr__(self, name: str) -> Any:  # match, search, sub, ...: the compiled pattern's own
        compiled = self._compiled
        if compiled is None:
            compiled = self._compiled = re.compile(*self._args)
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"compile_later({self._args[0]!r}, {self._args[1]!r})"


def compile_later(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """A stand-in for `re.compile(pattern, flags)` that compiles on its first method call (match, search, sub, ...).
    For module-level patterns called as methods only: `re.sub(p, ...)` and `isinstance(p, re.Pattern)` need the real
    one."""
    return cast("re.Pattern[str]", _Later(pattern, flags))
