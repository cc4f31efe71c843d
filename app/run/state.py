"""The run state of a session folder (state.json): one typed, versioned value.

`RunState.from_json` reads the current format and every older one (format 1: the same keys as
plain dicts, no per-step phases; format 2: no per-step start time, duration or exit code); anything
else is a `StateError` saying why, never a guess. Resume, the window and the report read this type;
its status words are app/run/events.py's (one vocabulary).
A step's `phase` says how far it got: "started" → "downloads" → "edits" → "commands" → done. A
step counts as done only when its status is "ok", written after its last command finished.
Each command is recorded before it starts (`command_started`) and after it ends (`commands_done`), so a
resume knows which commands finished (never run again) and which one was begun (app/run/executor.py
decides by the step's kind whether that one runs again).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Optional

from .events import RUN_STATUSES, STEP_STATES

STATE_FORMAT = "gpu-wizard-state/3"
OLDER_FORMATS = ("gpu-wizard-state/1", "gpu-wizard-state/2")
STEP_STATUSES = tuple(s for s in STEP_STATES if s != "pending")  # a step in state.json has begun
PHASES = ("started", "downloads", "edits", "commands", "finished")


class StateError(ValueError):
    """state.json cannot be used (one line: which file and why)."""


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S")


@dataclass
class StepState:
    status: str = "running"
    message: str = ""
    at: str = ""
    phase: str = "started"
    commands_done: int = 0  # commands of this step that finished (in this attempt)
    attempts: int = 0
    started: str = ""  # when its last attempt began (format 3)
    duration_s: Optional[float] = None  # how long its last attempt ran (format 3)
    rc: Optional[int] = None  # the exit code of its last command (format 3; None: none ran)
    command_started: Optional[int] = None  # the command begun and not yet recorded as ended (recorded first)

    def to_json(self) -> dict:
        return {"status": self.status, "message": self.message, "at": self.at, "phase": self.phase,
                "commands_done": self.commands_done, "attempts": self.attempts, "started": self.started,
                "duration_s": self.duration_s, "rc": self.rc, "command_started": self.command_started}

    @classmethod
    def from_json(cls, d: Any, sid: str = "?") -> "StepState":
        if isinstance(d, str):  # very old shapes: {"id": "ok"}
            d = {"status": d}
        if not isinstance(d, dict):
            raise StateError(f"step {sid}: not an object")
        st = d.get("status", "running")
        if st not in STEP_STATUSES:
            raise StateError(f"step {sid}: unknown status {str(st)[:40]!r}")
        phase = d.get("phase") or ("finished" if st in ("ok", "skipped") else "started")
        if phase not in PHASES:
            raise StateError(f"step {sid}: unknown phase {str(phase)[:40]!r}")
        n = d.get("commands_done", 0)
        a = d.get("attempts", 0)
        if not isinstance(n, int) or isinstance(n, bool) or not isinstance(a, int) or isinstance(a, bool):
            raise StateError(f"step {sid}: commands_done/attempts must be whole numbers")
        msg, at, started = d.get("message", ""), d.get("at", ""), d.get("started", "")
        dur, rc = d.get("duration_s"), d.get("rc")
        if dur is not None and (not isinstance(dur, (int, float)) or isinstance(dur, bool) or dur < 0):
            raise StateError(f"step {sid}: duration_s must be a number of seconds")
        if rc is not None and (not isinstance(rc, int) or isinstance(rc, bool)):
            raise StateError(f"step {sid}: rc must be a whole number")
        begun = d.get("command_started")
        if begun is not None and (not isinstance(begun, int) or isinstance(begun, bool) or begun < 0):
            raise StateError(f"step {sid}: command_started must be a whole number")
        return cls(st, msg if isinstance(msg, str) else str(msg), at if isinstance(at, str) else "", phase, n, a,
                   started if isinstance(started, str) else "", None if dur is None else float(dur), rc, begun)

    @property
    def finished_ok(self) -> bool:
        return self.status == "ok"

    @property
    def interrupted(self) -> bool:
        """Began in some earlier attempt and never ended ok (killed, failed or cancelled half-way)."""
        return self.status not in ("ok", "skipped")


@dataclass
class RunState:
    status: str = "new"
    steps: dict[str, StepState] = field(default_factory=dict)
    reboot_pending: bool = False
    boot_id: Optional[str] = None
    root_edits: bool = False
    failed_step: Optional[str] = None
    updated: str = ""
    owner_pid: Optional[int] = None  # the process that ran it last
    format: str = STATE_FORMAT

    def to_json(self) -> dict:
        return {"format": STATE_FORMAT, "status": self.status,
                "steps": {k: v.to_json() for k, v in self.steps.items()},
                "reboot_pending": self.reboot_pending, "boot_id": self.boot_id, "root_edits": self.root_edits,
                "failed_step": self.failed_step, "updated": self.updated, "owner_pid": self.owner_pid}

    @classmethod
    def from_json(cls, d: Any) -> "RunState":
        if d is None:
            return cls()
        if not isinstance(d, dict):
            raise StateError("state.json is not an object")
        fmt = d.get("format")
        if fmt not in (STATE_FORMAT, *OLDER_FORMATS):
            raise StateError(f"state.json has format {str(fmt)[:60]!r}; this wizard reads {STATE_FORMAT} "
                             f"and {', '.join(OLDER_FORMATS)} (start a new session with --new)")
        status = d.get("status", "new")
        if status not in RUN_STATUSES:
            raise StateError(f"state.json: unknown status {str(status)[:40]!r}")
        steps_raw = d.get("steps") or {}
        if not isinstance(steps_raw, dict):
            raise StateError("state.json: 'steps' is not an object")
        steps = {str(k): StepState.from_json(v, str(k)) for k, v in steps_raw.items()}
        boot = d.get("boot_id")
        failed = d.get("failed_step")
        pid = d.get("owner_pid")
        updated = d.get("updated")
        return cls(status=status, steps=steps, reboot_pending=bool(d.get("reboot_pending")),
                   boot_id=boot if isinstance(boot, str) else None, root_edits=bool(d.get("root_edits")),
                   failed_step=failed if isinstance(failed, str) else None,
                   updated=updated if isinstance(updated, str) else "",
                   owner_pid=pid if isinstance(pid, int) and not isinstance(pid, bool) else None)

    def step(self, sid: str) -> Optional[StepState]:
        return self.steps.get(sid)

    def begin(self, sid: str) -> StepState:
        """A new attempt at a step: running from its first phase, nothing of the last attempt kept."""
        s = self.mark(sid, "running", "", "started")
        s.attempts += 1
        s.commands_done, s.started, s.duration_s, s.rc, s.command_started = 0, s.at, None, None, None
        return s

    def end(self, sid: str, status: str, message: str = "", duration_s: Optional[float] = None,
            rc: Optional[int] = None) -> StepState:
        """A step's attempt ended (status: STEP_STATUSES), with how long it ran and its last exit code."""
        s = self.mark(sid, status, message, "finished" if status in ("ok", "skipped") else None)
        s.command_started = None
        if duration_s is not None:
            s.duration_s = round(duration_s, 3)
        if rc is not None:
            s.rc = rc
        return s

    def mark(self, sid: str, status: str, message: str = "", phase: Optional[str] = None) -> StepState:
        s = self.steps.get(sid) or StepState()
        s.status, s.message, s.at = status, message, _now()
        if phase:
            s.phase = phase
        elif status in ("ok", "skipped"):
            s.phase = "finished"
        self.steps[sid] = s
        return s
