"""Compatibility knowledge base: typed rows from `resources/compat/*.json` and plain queries.
No "best" logic here; `app.recommend` decides.

The names below load app/compat/db.py (the whole compat database) on first use: detection imports the GPU
tables (app.compat.gpus) and arch coverage without it."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from app.compat.db import (CompatDataError, CompatDB, ComputeCapability, CudaRelease, TorchRelease, TorchVariant,
                               branch_of, cc_key, load_db, major_minor, vkey)

__all__ = ["CompatDB", "CompatDataError", "ComputeCapability", "CudaRelease", "TorchRelease", "TorchVariant",
           "branch_of", "cc_key", "load_db", "major_minor", "vkey"]


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from app.compat import db

    return getattr(db, name)
