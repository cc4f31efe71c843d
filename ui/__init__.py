"""The PySide6 wizard. Only this package imports Qt; app/ never does."""
from __future__ import annotations

import sys


def _keep_none_alive() -> None:
    """PySide6 6.12.0 returns None (from void methods) and True/False without a new reference.
    On Python 3.12+ these are immortal and nothing happens; on 3.11 each call takes a reference
    away, and after a few thousand calls the interpreter aborts ("none_dealloc: deallocating
    None", "bool_dealloc"). Give them a reference count no session can use up (a plain counter
    in the object header)."""
    if sys.version_info >= (3, 12) or sys.implementation.name != "cpython":
        return
    import ctypes

    for singleton in (None, True, False):
        ctypes.c_ssize_t.from_address(id(singleton)).value += 1 << 40


_keep_none_alive()
