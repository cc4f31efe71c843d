"""Run: the step runner, downloads, file edits with backup, the session folder, the privileged
helper and the plan executor. See executor.py for the event API the CLI and the GUI use."""
from .executor import (Event, Executor, LineEvent, PlanFinished, ProgressEvent, StepFinished, StepStarted,
                       undo_edits)
from .runner import CancelToken, CommandOutcome, Line, Progress, run_command
from .session import Session, latest_unfinished, sessions_dir

__all__ = ["Executor", "Event", "StepStarted", "LineEvent", "ProgressEvent", "StepFinished", "PlanFinished",
           "undo_edits", "CancelToken", "CommandOutcome", "Line", "Progress", "run_command", "Session",
           "latest_unfinished", "sessions_dir"]
