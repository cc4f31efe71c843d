"""Run: the step runner, downloads, file edits with backup, the session folder, the privileged
helper and the plan executor. See executor.py for the event API the CLI and the GUI use.

The names below load on first use: the window imports the run record (events, state, record) at
start-up without the executor, its downloads (requests) and the privileged helper's client."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .events import (Event, EventError, LineEvent, PlanFinished, ProgressEvent, StepFinished, StepStarted,
                         event_from_json, event_to_json)
    from .executor import Executor, undo_edits
    from .runner import CancelToken, CommandOutcome, Line, Progress, run_command
    from .session import Session, latest_unfinished, sessions_dir
    from .state import RunState, StateError, StepState

__all__ = ["Executor", "Event", "StepStarted", "LineEvent", "ProgressEvent", "StepFinished", "PlanFinished",
           "undo_edits", "CancelToken", "CommandOutcome", "Line", "Progress", "run_command", "Session",
           "latest_unfinished", "sessions_dir", "EventError", "event_from_json", "event_to_json", "RunState",
           "StateError", "StepState"]


def __getattr__(name: str) -> Any:
    if name in ("Executor", "undo_edits"):
        from . import executor as mod
    elif name in ("CancelToken", "CommandOutcome", "Line", "Progress", "run_command"):
        from . import runner as mod  # type: ignore[no-redef]
    elif name in ("Session", "latest_unfinished", "sessions_dir"):
        from . import session as mod  # type: ignore[no-redef]
    elif name in ("RunState", "StateError", "StepState"):
        from . import state as mod  # type: ignore[no-redef]
    elif name in __all__:
        from . import events as mod  # type: ignore[no-redef]
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(mod, name)
