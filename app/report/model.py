"""Report model: everything support staff need about one machine, as one frozen, JSON-able value.

The stage values (facts, recommendation, plan, verification, diagnosis, the snapshot) are kept
as their JSON form (`to_json()` output): a report written by a newer wizard still loads in an
older one, and the report never has to import a stage that is not installed. `load_report_json`
turns them back into typed values where the stage's model exists.

`gpu-wizard report --format json` writes `Report.to_json()`; the HTML report embeds the same
JSON (a non-executed `application/json` block), so either file opens in walkthrough mode.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Optional

from app.model import Model

REPORT_FORMAT = "gpu-wizard-report/2"  # /1 said a step's status in words of its own ("done", "failed")

# The one vocabulary of app/run/events.py (STEP_STATES; a run's: RUN_STATUSES)
StepStatus = Literal["pending", "running", "ok", "skipped", "error", "cancelled"]
# Report format 1's words, read as the vocabulary's (an older report opens in walkthrough)
OLD_STEP_WORDS: dict[Any, str] = {"done": "ok", "failed": "error", "unknown": "pending"}
OLD_RUN_WORDS: dict[Any, Optional[str]] = {"done": "ok", "failed": "error", "reboot required": "reboot_required", "unknown": None}


@dataclass(frozen=True)
class StepOutcome(Model):
    """One plan step and what happened when it ran (or that it has not run)."""

    id: str
    title: str = ""
    status: StepStatus = "pending"
    why: str = ""
    kind: str = ""
    needs_root: bool = False
    commands: tuple[str, ...] = ()  # each argv shown as a copyable line
    rc: Optional[int] = None
    duration_s: Optional[float] = None
    message: str = ""  # "apt-get failed with exit code 100"
    started: Optional[str] = None
    finished: Optional[str] = None


@dataclass(frozen=True)
class LogExcerpt(Model):
    """A bounded window of a log: around the failure when there is one, else its last lines."""

    source: str  # "output.log"
    text: str  # the lines, newline-separated
    first_line: int = 1  # 1-based line number of the first line in `text`
    last_line: int = 0
    total_lines: int = 0
    focus_line: Optional[int] = None  # the failure line, highlighted
    reason: str = ""  # "around the failure of step install_toolkit", "last lines"
    full_log: Optional[str] = None  # where the full log is (the session folder)
    truncated: bool = False  # lines were left out (only the window is here)


@dataclass(frozen=True)
class SessionInfo(Model):
    """The install run's session folder (commands.log, output.log, plan.json, facts.json, state.json)."""

    path: str
    status: Optional[str] = None  # RunState.status (RUN_STATUSES); None: the run state could not be read
    started: Optional[str] = None
    finished: Optional[str] = None
    files: tuple[str, ...] = ()  # the files the folder holds
    commands_run: int = 0
    commands_failed: int = 0
    output_lines: int = 0


@dataclass(frozen=True)
class Redaction(Model):
    redacted: bool = True
    placeholders: dict[str, int] = field(default_factory=dict)  # kind -> how many distinct values
    note: str = ""


@dataclass(frozen=True)
class Report(Model):
    format: str = REPORT_FORMAT
    created: Optional[str] = None
    generator: str = ""  # "gpu-wizard 0.1.0"
    title: str = "GPU Setup Wizard report"
    machine: str = ""  # one line: "NVIDIA H200 · driver 580.159.04 · CUDA 13.0 · Ubuntu 24.04"
    overall: Literal["pass", "warn", "fail", "unknown"] = "unknown"
    headline: tuple[str, ...] = ()  # the few lines a reader needs first
    redaction: Redaction = field(default_factory=Redaction)
    facts: Optional[dict[str, Any]] = None
    recommendation: Optional[dict[str, Any]] = None
    plan: Optional[dict[str, Any]] = None
    steps: tuple[StepOutcome, ...] = ()
    session: Optional[SessionInfo] = None
    logs: tuple[LogExcerpt, ...] = ()
    verification: Optional[dict[str, Any]] = None
    diagnosis: Optional[dict[str, Any]] = None
    snapshot: Optional[dict[str, Any]] = None  # redacted format-1 snapshot (opens in walkthrough)
    notes: tuple[str, ...] = ()  # what could not be read, and why
    lang: str = "en"  # the language it is written in ("en", "zh_CN"): labels and the engine's sentences


def upgrade_report_json(data: dict[str, Any]) -> dict[str, Any]:
    """A format-1 report's JSON with its status words said in the one vocabulary (format 2)."""
    if data.get("format") != "gpu-wizard-report/1":
        return data
    steps = [dict(st, status=OLD_STEP_WORDS.get(st.get("status"), st.get("status"))) if isinstance(st, dict) else st
             for st in data.get("steps") or ()]
    out = dict(data, format=REPORT_FORMAT, steps=steps)
    if isinstance(data.get("session"), dict):
        old = data["session"].get("status")
        out["session"] = dict(data["session"], status=OLD_RUN_WORDS.get(old, old))
    return out
