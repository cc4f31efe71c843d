"""Recording a snapshot of a System (what `gpu-wizard snapshot` writes and `fleet detect` records per
host): detection runs through a RecordingSystem, and the result is redacted unless asked not to be
(`fleet detect` keeps an unredacted copy of mode 0600 for planning; the shared one is redacted)."""
from __future__ import annotations

from typing import Any, Optional


def record_snapshot(system: Any, *, torch: bool = False, python: Optional[str] = None, note: str = "",
                    redact: bool = True) -> dict:
    from app.detect import detect
    from app.system import RecordingSystem

    rec = RecordingSystem(system)
    detect(rec, torch_probe=torch, python=python)
    data = rec.snapshot(note=note)
    if redact:
        data = redact_recorded(data, system)
    return data


def redact_recorded(data: dict, system: Any = None) -> dict:
    """The shared (redacted) form of a recorded snapshot; recording this machine also learns its user,
    host name and secret-looking variables."""
    from app.report.redact import redact_snapshot
    from app.system import LiveSystem

    live = isinstance(system, LiveSystem)
    return redact_snapshot(data, live=live, system=system if live else None)
