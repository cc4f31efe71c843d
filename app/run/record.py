"""The one record of a run: the plan's steps, each in the one status vocabulary (app/run/events.py
STEP_STATES), folded from the run's events by one reducer.

    record = RunRecord.for_plan(plan.steps)
    record.apply(event)                      # the window, live, as each event arrives (ui/state.py)
    from_session(dir).record                 # the report: plan.json + events.jsonl + state.json, typed

The same `apply` serves the window (events as they come from the executor, a dry run or a recorded
replay) and the report (events read back from the session's journal); the run state (RunState) has
the last word on each step's status where it is readable, because resume trusts it too.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Literal, Optional

from .events import CommandFinished, Event, LineEvent, PlanFinished, ProgressEvent, StepFinished, StepStarted
from .session import Session
from .state import RunState, StateError

StepStatus = Literal["pending", "running", "ok", "skipped", "error", "cancelled"]
RunStatus = Literal["new", "running", "ok", "error", "cancelled", "reboot_required", "interrupted"]
ENDED = ("ok", "skipped", "error", "cancelled")  # events.STEP_STATUSES, as a step's final word
DONE = ("ok", "skipped")  # a step that needs nothing more


@dataclass
class StepRecord:
    id: str
    title: str = ""
    title_code: str = ""  # the plan step's (the catalogue says it in any language)
    params: dict[str, Any] = field(default_factory=dict)
    kind: str = ""
    needs_root: bool = False
    weight: float = 1.0
    commands: tuple[tuple[str, ...], ...] = ()  # the plan's argv lists
    status: StepStatus = "pending"
    message: str = ""
    details: str = ""  # a failure's output tail
    started: Optional[float] = None  # the applier's clock (the window's monotonic time)
    finished: Optional[float] = None
    started_at: str = ""  # wall-clock times from the run state (the report)
    finished_at: str = ""
    duration_s: Optional[float] = None
    rc: Optional[int] = None  # the exit code of its last command
    streamed: bool = False  # it printed output lines of its own
    commands_run: int = 0
    commands_failed: int = 0

    @property
    def done(self) -> bool:
        return self.status in DONE


def _step_from_plan(s: Any) -> StepRecord:
    return StepRecord(id=s.id, title=s.title, title_code=getattr(s, "title_code", "") or "",
                      params=dict(getattr(s, "params", None) or {}), kind=getattr(s, "kind", "") or "",
                      needs_root=bool(getattr(s, "needs_root", False)), weight=max(float(getattr(s, "weight", 1) or 1), 0.1),
                      commands=tuple(tuple(a) for a in getattr(s, "commands", ()) or ()))


@dataclass
class RunRecord:
    steps: list[StepRecord] = field(default_factory=list)
    status: RunStatus = "new"
    message: str = ""
    failed_step: Optional[str] = None
    session_dir: str = ""
    reboot_pending: bool = False
    overall: Optional[float] = None  # the executor's own overall progress (0..1, within long steps too)
    started: Optional[float] = None
    commands: list[CommandFinished] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._by_id = {s.id: s for s in self.steps}

    @classmethod
    def for_plan(cls, plan_steps: Iterable[Any]) -> "RunRecord":
        return cls([_step_from_plan(s) for s in plan_steps])

    def step(self, step_id: str) -> Optional[StepRecord]:
        return self._by_id.get(step_id)

    def _ensure(self, step_id: str, title: str = "") -> Optional[StepRecord]:
        """The step an event is about; one the plan does not list (a repair step the executor put first,
        an older run resumed) joins the record. Events outside any step ("") have none."""
        if not step_id:
            return None
        s = self._by_id.get(step_id)
        if s is None:
            s = StepRecord(step_id, title=title)
            self.steps.append(s)
            self._by_id[step_id] = s
        return s

    # -- the reducer ----------------------------------------------------------------------------
    def apply(self, ev: Event, now: Optional[float] = None) -> Optional[StepRecord]:
        """Fold one event into the record; returns the step it changed (None: the run as a whole)."""
        if isinstance(ev, StepStarted):
            return self._started(ev, now)
        if isinstance(ev, LineEvent):
            s = self._ensure(ev.step_id)
            if s is not None and ev.final:
                s.streamed = True
            return s
        if isinstance(ev, ProgressEvent):
            self.overall = ev.overall
            return self._ensure(ev.step_id)
        if isinstance(ev, CommandFinished):
            return self._command(ev)
        if isinstance(ev, StepFinished):
            return self._finished(ev, now)
        if isinstance(ev, PlanFinished):
            self._plan_finished(ev)
        return None

    def _started(self, ev: StepStarted, now: Optional[float]) -> Optional[StepRecord]:
        s = self._ensure(ev.step_id, ev.title)
        if s is None:
            return None
        if self.started is None:
            self.started = now
        self.status = "running"
        s.status, s.message, s.details, s.started, s.finished, s.duration_s = "running", "", "", now, None, None
        s.needs_root = s.needs_root or ev.needs_root
        return s

    def _command(self, ev: CommandFinished) -> Optional[StepRecord]:
        self.commands.append(ev)
        s = self._ensure(ev.step_id)
        if s is not None:
            s.commands_run += 1
            s.commands_failed += not ev.ok
            s.rc = ev.rc
            s.duration_s = round((s.duration_s or 0.0) + ev.duration_s, 3)
        return s

    def _finished(self, ev: StepFinished, now: Optional[float]) -> Optional[StepRecord]:
        s = self._ensure(ev.step_id)
        if s is None:
            return None
        s.status, s.message, s.details, s.finished = ev.status, ev.message, ev.details, now  # type: ignore[assignment]
        if ev.duration_s:
            s.duration_s = round(ev.duration_s, 3)
        elif now is not None and s.started is not None:
            s.duration_s = round(now - s.started, 3)
        return s

    def _plan_finished(self, ev: PlanFinished) -> None:
        self.status, self.message, self.failed_step = ev.status, ev.message, ev.failed_step  # type: ignore[assignment]
        self.session_dir = ev.session_dir or self.session_dir
        self.reboot_pending = ev.status == "reboot_required"
        for s in self.steps:  # a step the run left running ended with the run
            if s.status == "running":
                s.status = "cancelled" if ev.status == "cancelled" else "error"

    # -- the run state --------------------------------------------------------------------------
    def settle(self, state: RunState) -> None:
        """The run state has the last word (what resume will do): each step's status and message, its
        times, duration and exit code where state.json has them, and the run's status."""
        for sid, st in state.steps.items():
            s = self._ensure(sid)
            if s is None:
                continue
            s.status = st.status  # type: ignore[assignment]
            s.message = st.message or s.message
            s.started_at = st.started or s.started_at
            s.finished_at = st.at if st.status in ENDED else ""
            s.duration_s = st.duration_s if st.duration_s is not None else s.duration_s
            s.rc = st.rc if st.rc is not None else s.rc
        self.status = state.status  # type: ignore[assignment]
        self.failed_step = state.failed_step
        self.reboot_pending = state.reboot_pending
        if state.failed_step and (s := self.step(state.failed_step)) is not None and s.status not in ("error", "cancelled"):
            s.status = "cancelled" if state.status == "cancelled" else "error"

    @property
    def failed(self) -> Optional[StepRecord]:
        return next((s for s in self.steps if s.status == "error"), None)

    @property
    def finished_ok(self) -> bool:
        return bool(self.steps) and all(s.done for s in self.steps)

    @property
    def running(self) -> bool:
        return any(s.status == "running" for s in self.steps)


@dataclass
class SessionRecord:
    """A session folder read back, typed: its record, the plan as written (JSON), and what could not be read."""

    path: Path
    record: RunRecord
    plan: Optional[dict[str, Any]]
    facts: Optional[dict[str, Any]]
    state: Optional[RunState]  # None: no state.json, or one this wizard cannot read (`problems` says why)
    files: tuple[str, ...]
    problems: tuple[str, ...] = ()


def from_session(path: str | Path, plan: Optional[dict[str, Any]] = None) -> SessionRecord:
    """Read a session folder: the steps of `plan` (else of its plan.json), events.jsonl folded by the reducer,
    state.json settled on top. Missing or damaged files are said in `problems`, never a guess."""
    d = Path(path)
    sess = Session(d)
    files = tuple(sorted(x.name for x in d.iterdir() if x.is_file()))
    problems: list[str] = []
    if plan is None:
        written = sess.read_json("plan.json")
        plan = written if isinstance(written, dict) else None
    facts = sess.read_json("facts.json")
    rec = RunRecord.for_plan(plan_steps(plan))
    for ev in sess.read_events():
        rec.apply(ev)
    state: Optional[RunState] = None
    if "state.json" in files:
        try:
            state = sess.load_state()
        except StateError as e:
            problems.append(str(e))
    if state is not None:
        rec.settle(state)
    return SessionRecord(d, rec, plan, facts if isinstance(facts, dict) else None, state, files, tuple(problems))


def plan_steps(plan: Optional[dict[str, Any]]) -> list[Any]:
    """The plan's steps, typed (app.plan.model.Step) where they load; a step the model refuses keeps its id."""
    from app.model import ModelError
    from app.plan.model import Step  # only a session read back needs the plan's model

    out: list[Any] = []
    for raw in (plan or {}).get("steps") or ():
        if not isinstance(raw, dict) or not isinstance(raw.get("id"), str) or not raw["id"]:
            continue
        try:
            out.append(Step.from_json(raw))
        except (ModelError, TypeError, ValueError):
            out.append(StepRecord(raw["id"], title=str(raw.get("title") or "")))
    return out
