"""Compatibility knowledge base: typed rows from `resources/compat/*.json` and plain queries.
No "best" logic here; `app.recommend` decides."""
from app.compat.db import (  # noqa: F401
    CompatDB,
    CompatDataError,
    ComputeCapability,
    CudaRelease,
    TorchRelease,
    TorchVariant,
    branch_of,
    cc_key,
    load_db,
    major_minor,
    vkey,
)

__all__ = ["CompatDB", "CompatDataError", "ComputeCapability", "CudaRelease", "TorchRelease", "TorchVariant",
           "branch_of", "cc_key", "load_db", "major_minor", "vkey"]
