"""One event vocabulary for a run: the executor emits these, the GUI's bridge turns them into Qt
signals, the CLI prints them, the session folder keeps the step-level ones (events.jsonl) and the
report reads them back. Each is a frozen dataclass with a `type` string; `event_to_json` /
`event_from_json` carry them across a process boundary (checked: a damaged line is an EventError,
never a half-built event).

    StepStarted(step_id, index, total, title, needs_root)
    LineEvent(step_id, stream, text, final)          final=False: replaces the previous line
    ProgressEvent(step_id, fraction, overall, message, done_bytes, total_bytes, name)   bytes: a download inside it
    CommandFinished(step_id, argv, rc, ok, duration_s, note)          one command (a download, an edit) of a step
    StepFinished(step_id, status, message, details, duration_s)   status: STEP_STATUSES
    PlanFinished(status, message, failed_step, session_dir)       status: PLAN_STATUSES

**One status vocabulary.** A step is `pending` (not reached), `running`, or ended as the engine says
(`STEP_STATUSES`): the window, the report, the run state and the CLI use these words and no others
(`STEP_STATES`); a run's are `RUN_STATUSES`. The catalogue says each in English and 简体中文
(`values.status`, app.messages.status_word). app/run/record.py folds these events into the one record
of a run that the window shows and the report renders.

The privileged helper's protocol (app/run/privileged.py) carries LineEvent's and ProgressEvent's
fields under the same names ("stream", "text", "final"; "fraction", "message").
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Callable, Optional, Union

EVENTS_FORMAT = 1
STEP_STATUSES = ("ok", "skipped", "error", "cancelled")  # how a step ends
STEP_STATES = ("pending", "running", *STEP_STATUSES)  # all a step can be, for everyone
PLAN_STATUSES = ("ok", "error", "cancelled", "reboot_required")  # how a run ends
RUN_STATUSES = ("new", "running", *PLAN_STATUSES, "interrupted")  # all a run can be (RunState.status)
STREAMS = ("stdout", "stderr", "status")


class EventError(ValueError):
    """A serialised event that is not one (one line)."""


@dataclass(frozen=True)
class StepStarted:
    step_id: str
    index: int
    total: int
    title: str
    needs_root: bool = False
    type: str = field(default="step_started", init=False)


@dataclass(frozen=True)
class LineEvent:
    step_id: str
    stream: str
    text: str
    final: bool = True
    type: str = field(default="line", init=False)


@dataclass(frozen=True)
class ProgressEvent:
    step_id: str
    fraction: Optional[float]  # within the step, None when unknown
    overall: float  # 0..1 over the whole plan, by step weight
    message: str = ""
    done_bytes: Optional[int] = None  # a download inside the step (pip's raw progress): bytes so far,
    total_bytes: Optional[int] = None  # of how many (None: unknown),
    name: str = ""  # and of which file
    type: str = field(default="progress", init=False)


@dataclass(frozen=True)
class CommandFinished:
    step_id: str
    argv: tuple[str, ...]  # as run (a download is ("download", url), a file edit ("edit", mode, path))
    rc: Optional[int] = None  # None: never started
    ok: bool = True  # judged by the step's own exit codes (ok_exit_codes, reboot_exit_codes)
    duration_s: float = 0.0
    note: str = ""  # "timed out", "sha256 …, verified by …"
    type: str = field(default="command_finished", init=False)


@dataclass(frozen=True)
class StepFinished:
    step_id: str
    status: str  # ok, skipped, error, cancelled
    message: str = ""
    details: str = ""
    duration_s: float = 0.0
    type: str = field(default="step_finished", init=False)


@dataclass(frozen=True)
class PlanFinished:
    status: str  # ok, error, cancelled, reboot_required
    message: str = ""
    failed_step: Optional[str] = None
    session_dir: str = ""
    type: str = field(default="plan_finished", init=False)


Event = Union[StepStarted, LineEvent, ProgressEvent, CommandFinished, StepFinished, PlanFinished]
Listener = Callable[[Event], None]


EVENT_TYPES: dict[str, type] = {"step_started": StepStarted, "line": LineEvent, "progress": ProgressEvent,
                                "command_finished": CommandFinished, "step_finished": StepFinished,
                                "plan_finished": PlanFinished}
JOURNALED = ("step_started", "command_finished", "step_finished", "plan_finished")  # what the session folder keeps


def event_to_json(ev: Event) -> dict[str, Any]:
    d = {f.name: getattr(ev, f.name) for f in fields(ev)}
    if "argv" in d:
        d["argv"] = list(d["argv"])
    d["type"] = ev.type
    d["v"] = EVENTS_FORMAT
    return d


_TYPES: dict[str, Any] = {"step_id": str, "index": int, "total": int, "title": str, "needs_root": bool, "stream": str, "text": str,
          "final": bool, "fraction": (float, type(None)), "overall": float, "message": str, "status": str,
          "details": str, "duration_s": float, "failed_step": (str, type(None)), "session_dir": str,
          "done_bytes": (int, type(None)), "total_bytes": (int, type(None)), "name": str, "argv": tuple,
          "rc": (int, type(None)), "note": str, "ok": bool}


def event_from_json(d: Any) -> Event:
    if not isinstance(d, dict):
        raise EventError("an event is a JSON object")
    cls = EVENT_TYPES.get(d.get("type"))  # type: ignore[arg-type]
    if cls is None:
        raise EventError(f"unknown event type {str(d.get('type'))[:40]!r}")
    kw: dict[str, Any] = {}
    for f in fields(cls):
        if f.name == "type" or f.name not in d:
            continue
        v = d[f.name]
        want: Any = _TYPES.get(f.name, object)
        if want in (float, (float, type(None))) and isinstance(v, int) and not isinstance(v, bool):
            v = float(v)
        if want is tuple and isinstance(v, list) and all(isinstance(a, str) for a in v):
            v = tuple(v)
        if not isinstance(v, want) or (isinstance(v, bool) and (want is int or want == (int, type(None)))):
            raise EventError(f"{cls.__name__}.{f.name}: wrong type ({type(v).__name__})")
        kw[f.name] = v
    try:
        ev = cls(**kw)
    except TypeError as e:
        raise EventError(f"{cls.__name__}: {e}") from None
    status = getattr(ev, "status", None)
    if cls is StepFinished and status not in STEP_STATUSES or cls is PlanFinished and status not in PLAN_STATUSES:
        raise EventError(f"{cls.__name__}: unknown status {str(status)[:40]!r}")
    if cls is LineEvent and ev.stream not in STREAMS:
        raise EventError(f"LineEvent: unknown stream {ev.stream[:40]!r}")
    return ev
