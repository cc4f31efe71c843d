"""Detection: an ordered chain of small probes → Facts. (Being built: see issue 2.)"""
from __future__ import annotations

from typing import Optional

from app.facts import Facts


def detect(system, *, torch_probe: bool = False, python: Optional[str] = None) -> Facts:
    """Detect everything about the machine behind `system` (live or snapshot). Never raises
    for a broken machine: problems become findings. `torch_probe` also runs the selected
    Python (`python`, default: the first found) to read its torch."""
    return Facts(source="live" if system.__class__.__name__ == "LiveSystem" else f"snapshot:{getattr(system, 'name', '')}",
                 created=system.now())
