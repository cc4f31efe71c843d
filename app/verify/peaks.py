"""Datasheet peaks (resources/verify/peaks.json): what a GPU's maker says it does at most, dense, per
precision, and its memory bandwidth. A burn-in's rates are drawn and said against them; a GPU the
table lacks has no compute peak (its memory peak then comes from NVML's clock and bus width)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Optional

from app.fileio import read_json
from app.paths import resource


@dataclass(frozen=True)
class Peak:
    tflops: dict[str, float] = field(default_factory=dict)
    mem_gbps: Optional[float] = None
    source: str = ""


@lru_cache(maxsize=1)
def _table() -> tuple[tuple[re.Pattern, Peak], ...]:
    try:
        doc = read_json(resource("verify", "peaks.json"))
        rows = doc["gpus"] if doc.get("format") == "gpu-wizard-peaks/1" else []
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return ()
    out = []
    for r in rows:
        try:
            tf = {str(k): float(v) for k, v in (r.get("tflops") or {}).items()}
            mem = float(r["mem_gbps"]) if r.get("mem_gbps") else None
            out.append((re.compile(str(r["pattern"])), Peak(tflops=tf, mem_gbps=mem, source=str(r.get("source") or ""))))
        except (KeyError, TypeError, ValueError, re.error):
            continue
    return tuple(out)


def lookup(name: Optional[str]) -> Optional[Peak]:
    """The datasheet peak of the GPU NVML names `name` ("NVIDIA H200"), or None."""
    if not name:
        return None
    n = name.strip()
    return next((p for rx, p in _table() if rx.search(n)), None)
