"""Run: the step runner, downloads, file edits with backup, the session folder, the privileged
helper and the plan executor. See executor.py for the event API the CLI and the GUI use."""
from .events import Event, EventError, LineEvent, PlanFinished, ProgressEvent, StepFinished, StepStarted, \
    event_from_json, event_to_json
from .executor import Executor, undo_edits
from .state import RunState, StateError, StepState
from .runner import CancelToken, CommandOutcome, Line, Progress, run_command
from .session import Session, latest_unfinished, sessions_dir

__all__ = ["Executor", "Event", "StepStarted", "LineEvent", "ProgressEvent", "StepFinished", "PlanFinished",
           "undo_edits", "CancelToken", "CommandOutcome", "Line", "Progress", "run_command", "Session",
           "latest_unfinished", "sessions_dir", "EventError", "event_from_json", "event_to_json", "RunState",
           "StateError", "StepState"]
