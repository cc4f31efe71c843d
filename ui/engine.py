"""The GUI's one door into the engine (app/). Plain Python, no Qt: every function here is
blocking and is called on a worker thread through ui.bridge.Tasks.

The GUI shows what these return; it never decides compatibility itself. An engine part
that is missing raises `EngineUnavailable` with a plain message the page shows.
"""
from __future__ import annotations

import importlib
import shlex
import threading
import time
from pathlib import Path
from typing import Any, Callable, Optional, Protocol

from app.choices import Choices
from app.facts import Facts
from app.recommendation import Recommendation
from ui.state import Source


class EngineUnavailable(RuntimeError):
    """This part of the engine is not available in this build."""


def _module(name: str):
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name and (e.name == name or name.startswith(e.name)):
            raise EngineUnavailable(f"{name} is not available in this build") from None
        raise


# ---------------------------------------------------------------------------------------------
# Sources: this machine, a snapshot, or a report's JSON

def _is_report(path: Path) -> bool:
    try:
        with open(path, "rb") as f:
            head = f.read(4096).decode("utf-8-sig", errors="replace").lstrip()
    except OSError:
        return False
    return head.startswith("<") or '"gpu-wizard-report/' in head


def load_source(path: str) -> tuple[Source, Any, Optional[dict]]:
    """(Source, System or None, report or None) for a snapshot file, or a report (its .json or
    the .html that embeds it). Raises app.system.SnapshotError (one clear line) otherwise.
    The report dict is app.report.load_report_json's: typed stage values where they load."""
    from app.system import SnapshotSystem, load_snapshot_data

    p = Path(path)
    if _is_report(p):
        report = _module("app.report").load_report_json(p)
        snap = report.get("snapshot")
        system = SnapshotSystem(snap, name=p.name) if isinstance(snap, dict) else None
        if system is None and report.get("facts") is None:
            from app.system import SnapshotError

            raise SnapshotError(f"{p.name} is a report without the machine's facts or snapshot")
        return Source("report", str(p), report.get("created"), machine=report.get("machine") or None), system, report
    data = load_snapshot_data(p)
    note = data.get("note") if isinstance(data.get("note"), str) and data.get("note") else None
    return Source("snapshot", str(p), data.get("created"), note), SnapshotSystem(data, name=p.name), None


def open_recorded(session: Any, services: Any, source: Source, system: Any, report: Optional[dict]) -> None:
    """Make a loaded snapshot or report the session's machine: everything computed for another
    machine is dropped; a report's recorded facts are its facts (nothing detected here)."""
    session.source, session.report_data = source, report
    services.system, services.report = system, report
    session.facts = session.recommendation = session.plan = session.install = session.verification = None
    session.diagnosis, session.plan_basis, session.plan_confirmed, session.error_text = None, None, False, ""
    session.path = "walkthrough"
    if report is not None and report_value(report, "facts", Facts) is not None:
        session.facts = detect_facts(system, session.overrides, report)
    if report is not None:
        session.verification = verification_from_report(report)


def report_value(report: Optional[dict], key: str, cls: Any) -> Any:
    """A stage value from a loaded report, typed (None when absent or unreadable)."""
    v = (report or {}).get(key)
    if isinstance(v, dict):
        try:
            return cls.from_json(v)
        except Exception:  # noqa: BLE001 - an older/newer shape: show what the engine can
            return None
    return v


def live_system():
    from app.system import LiveSystem

    return LiveSystem()


def detect_facts(system: Any, overrides: Optional[dict] = None, report: Optional[dict] = None, torch: bool = True) -> Facts:
    recorded = report_value(report, "facts", Facts) if report is not None else None
    if recorded is not None:  # a report: the facts as the user's wizard saw them
        facts = recorded
    else:
        from app.detect import detect

        facts = detect(system, torch_probe=torch)
    ov = {k: v for k, v in (overrides or {}).items() if v}
    if ov:
        mod = _module("app.overrides")
        facts = mod.apply_overrides(facts, **ov)
    return facts


def save_snapshot(system: Any, path: str, note: str = "") -> str:
    """Record this machine, redacted (user and host names, home paths, addresses, serials,
    secrets), as `gpu-wizard snapshot` does; or copy the loaded snapshot as it is."""
    from app.system import SnapshotSystem, write_json_atomic

    if isinstance(system, SnapshotSystem):
        write_json_atomic(path, system.data)
        return path
    data = _module("app.commands.snapshot").record(system, torch=False, note=note, redact=True)
    write_json_atomic(path, data)
    return path


# ---------------------------------------------------------------------------------------------
# Recommend and plan

def recommend(facts: Facts, choices: Choices) -> Recommendation:
    """app.pipeline's recommend stage (the one the command line uses): the solve over the compat data as the
    live PyTorch/PyPI/NVIDIA indexes correct it (runs in the page's background task; off with "live_index":
    false or GPU_WIZARD_LIVE=0)."""
    pipeline = _module("app.pipeline")
    try:
        cfg = _module("app.config").load_config()
    except Exception:  # noqa: BLE001 - a broken config file is reported where mirrors are read; live reads stay on
        cfg = None
    return pipeline.recommend_stage(facts, choices, config=cfg)


def build_plan(facts: Facts, rec: Recommendation, choices: Choices):
    """app.pipeline's plan stage, from the recommendation the Recommendation page showed."""
    pipeline = _module("app.pipeline")
    try:
        return pipeline.plan_stage(facts, rec, choices)
    except ImportError as e:
        raise EngineUnavailable(f"app.plan.build_plan is not available in this build: {e}") from None


def script_suffix(plan: Any) -> str:
    return ".ps1" if getattr(plan, "platform", "") == "windows" else ".sh"


def _script_module(plan: Any):
    return _module("app.plan.script_ps" if getattr(plan, "platform", "") == "windows" else "app.plan.script")


def step_script(plan: Any, step: Any, index: int = 1) -> str:
    """One step as the exported script runs it (the script's own builder: downloads fetched and
    checked before they are used; `sudo` only for a Linux step that needs root, never on
    Windows), without the header comments the page already shows."""
    try:
        mod = _script_module(plan)
        lines = mod._step_lines(index, step)
        skip = {f"# {step.title}", *mod._comment(step.why)}
    except (EngineUnavailable, AttributeError, ValueError):
        lines = [("sudo " if step.needs_root and getattr(plan, "platform", "") != "windows" else "") + shlex.join(a)
                 for a in step.commands]
        skip = set()
    out = [ln.replace('"${SUDO[@]}" ', "sudo ") for ln in lines
           if ln.strip() and not ln.startswith("# --- Step") and ln not in skip]
    return "\n".join(out)


def pasteable_script(plan: Any) -> str:
    """The whole plan as one block that runs as pasted into a terminal: bash runs the exported
    script from a here-document (its `set -e` and `exit` stay inside; stdin stays the terminal's),
    PowerShell runs it in a child PowerShell (an `exit` never closes the user's window)."""
    script = plan_script(plan).rstrip("\n")
    if getattr(plan, "platform", "") == "windows":
        return "powershell.exe -NoProfile -ExecutionPolicy Bypass -Command {\n" + script + "\n}\n"
    tag = "GPU_WIZARD_PLAN"
    while tag in script:
        tag += "_"
    return f"bash -c \"$(cat <<'{tag}'\n{script}\n{tag}\n)\"\n"


def plan_script(plan: Any) -> str:
    """The plan as a script: PowerShell for a Windows host, else bash (the engine's own export
    when it has one)."""
    if getattr(plan, "platform", "") == "windows":
        return _module("app.plan.script_ps").plan_to_powershell(plan)
    try:
        mod = _module("app.plan.script")
        for name in ("plan_to_script", "to_script", "plan_script", "render_script"):
            if hasattr(mod, name):
                return getattr(mod, name)(plan)
    except EngineUnavailable:
        pass
    lines = ["#!/usr/bin/env bash", "# GPU Setup Wizard plan. Review before running.", "set -euo pipefail", ""]
    for s in getattr(plan, "steps", ()):
        lines.append(f"# --- {s.id}: {s.title}")
        for w in s.why.splitlines():
            lines.append(f"# {w}")
        for argv in s.commands:
            cmd = shlex.join(argv)
            lines.append(("sudo " if s.needs_root else "") + cmd)
        lines.append("")
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# Install: backends the Install page drives on a worker thread

class RunListener(Protocol):
    """What a backend calls while it runs (ui.bridge.RunBridge implements it)."""

    def step_started(self, step_id: str) -> None: ...
    def output(self, step_id: str, stream: str, text: str) -> None: ...
    def step_finished(self, step_id: str, status: str, message: str = "") -> None: ...
    def reboot_required(self) -> None: ...
    def progress(self, step_id: str, overall: float) -> None: ...
    def finished(self, status: str) -> None: ...


class InstallBackend(Protocol):
    session_dir: Optional[str]

    def run(self, plan: Any, listener: RunListener, cancel: threading.Event, only: Optional[list[str]] = None) -> str:
        """Run the plan's steps (or only those ids), blocking; returns "ok", "failed" or "cancelled"."""
        ...


class DryRunBackend:
    """A recorded machine is never changed: walks the plan and says what each step would run,
    every line labelled as a dry run."""

    def __init__(self, step_delay_s: float = 0.25):
        self.step_delay_s = step_delay_s
        self.session_dir: Optional[str] = None

    def run(self, plan: Any, listener: RunListener, cancel: threading.Event, only: Optional[list[str]] = None) -> str:
        reboot = False
        for index, s in enumerate(getattr(plan, "steps", ()), 1):
            if only is not None and s.id not in only:
                continue
            if cancel.is_set():
                listener.finished("cancelled")
                return "cancelled"
            listener.step_started(s.id)
            listener.output(s.id, "stdout", f"[dry run] {s.title}")
            listener.output(s.id, "stdout", "[dry run] would run:")
            for part in step_script(plan, s, index).splitlines():  # as the exported script runs it
                listener.output(s.id, "stdout", "[dry run]     " + part)
            if cancel.wait(self.step_delay_s):
                listener.step_finished(s.id, "cancelled", "cancelled")
                listener.finished("cancelled")
                return "cancelled"
            listener.step_finished(s.id, "ok", "dry run")
            reboot = reboot or bool(getattr(s, "reboot_required", False))
        if reboot:
            listener.output("", "stdout", "[dry run] a real install would ask to restart the computer here")
        listener.finished("ok")
        return "ok"


class RecordedBackend:
    """A report's walkthrough: replays what happened on the user's machine (each step's
    recorded outcome, and the log excerpt the report kept), running nothing."""

    STATUS = {"done": "ok", "failed": "failed", "skipped": "skipped", "cancelled": "cancelled"}

    def __init__(self, report: dict):
        self.report = report
        self.session_dir: Optional[str] = None

    def run(self, plan: Any, listener: RunListener, cancel: threading.Event, only: Optional[list[str]] = None) -> str:
        steps = tuple(self.report.get("steps") or ())
        logs = tuple(self.report.get("logs") or ())
        listener.output("", "stdout", "[recorded] what happened on the user's machine, from the report; nothing runs here")
        result = "ok"
        for o in steps:
            status = self.STATUS.get(getattr(o, "status", ""), None)
            if status is None:  # never reached on the user's machine
                continue
            listener.step_started(o.id)
            for line in getattr(o, "commands", ()) or ():
                listener.output(o.id, "stdout", "[recorded] ran: " + line)
            if status == "failed":
                for ex in logs:
                    listener.output(o.id, "stdout", f"[recorded] {ex.source}, lines {ex.first_line}-{ex.last_line}"
                                    + (f" ({ex.reason})" if ex.reason else ""))
                    for n, line in enumerate(ex.text.splitlines(), start=ex.first_line):
                        # output.log marks stderr lines "[step] ! ..."; the report marks the failure line
                        err = n == ex.focus_line or "] ! " in line[:80] or "E: " in line or "error" in line.lower()
                        listener.output(o.id, "stderr" if err else "stdout", line)
                result = "failed"
            listener.step_finished(o.id, status, getattr(o, "message", "") or "")
            if status in ("failed", "cancelled"):
                result = status
                break
        listener.finished(result)
        return result


class EventForwarder:
    """The executor's events (app.run.executor) → the listener. A failed step's output was already
    streamed line by line: it is not repeated; one separator line says which step failed and why
    (its details only when the step printed nothing). Live (not final) lines, e.g. a progress bar
    redrawn in place, and the executor's progress messages become the step's activity text."""

    def __init__(self, listener: Any):
        self.listener = listener
        self.streamed: set[str] = set()
        self.said: set[str] = set()

    def __call__(self, ev: Any) -> None:
        listener = self.listener
        kind = getattr(ev, "type", "")
        if kind == "step_started":
            listener.step_started(ev.step_id)
        elif kind == "line":
            if ev.final:
                self.streamed.add(ev.step_id)
                listener.output(ev.step_id, ev.stream, ev.text)
            elif hasattr(listener, "activity"):
                listener.activity(ev.step_id, ev.text)
        elif kind == "progress":
            listener.progress(ev.step_id, ev.overall)
            if getattr(ev, "done_bytes", None) is not None and hasattr(listener, "transfer"):
                # pip's own download progress: the window says it in its language, with bytes
                listener.transfer(ev.step_id, ev.name, ev.done_bytes, ev.total_bytes)
            elif getattr(ev, "message", "") and hasattr(listener, "activity"):
                listener.activity(ev.step_id, ev.message)
        elif kind == "step_finished":
            if ev.status == "error":
                if ev.details and ev.step_id not in self.streamed:
                    for line in ev.details.splitlines()[-20:]:
                        listener.output(ev.step_id, "stderr", line)
                listener.output(ev.step_id, "stderr", f"— {ev.step_id} failed: {ev.message} —" if ev.message
                                else f"— {ev.step_id} failed —")
                self.said.add(ev.message)
            listener.step_finished(ev.step_id, EngineBackend.STATUS.get(ev.status, "failed"), ev.message)


class EngineBackend:
    """The real executor from app/run (argv only, session folder, privileged helper), its
    events forwarded to the listener. A retry re-opens the same session folder: the executor
    skips the steps that finished and continues with the failed one."""

    STATUS = {"ok": "ok", "skipped": "skipped", "error": "failed", "cancelled": "cancelled"}

    def __init__(self, facts: Optional[Facts] = None, sessions_base: Optional[str] = None):
        self.facts = facts
        self.sessions_base = sessions_base
        self.session_dir: Optional[str] = None

    def run(self, plan: Any, listener: RunListener, cancel: threading.Event, only: Optional[list[str]] = None) -> str:
        run = _module("app.run")
        if self.session_dir:
            session = run.Session.open(self.session_dir)
        else:
            session = run.Session.create(self.sessions_base, label="install")
            self.session_dir = str(session.dir)
        token = run.CancelToken()
        done = threading.Event()

        def watch() -> None:
            while not done.is_set():
                if cancel.wait(0.1):
                    token.cancel()
                    return

        on_event = EventForwarder(listener)

        watcher = threading.Thread(target=watch, name="gpu-wizard-cancel-watch", daemon=True)
        watcher.start()
        try:
            ex = run.Executor(plan, session, listener=on_event, cancel=token,
                              facts_json=self.facts.to_json() if self.facts is not None else None)
            result = ex.run()
        finally:
            done.set()
            watcher.join(1)
        self.session_dir = result.session_dir or self.session_dir
        if result.status == "reboot_required":
            listener.reboot_required()
            status = "ok"
        else:
            status = {"ok": "ok", "cancelled": "cancelled"}.get(result.status, "failed")
        if status == "failed" and result.message and result.message not in on_event.said:
            listener.output("", "stderr", result.message)
        listener.finished(status)
        return status


# ---------------------------------------------------------------------------------------------
# Verify

class SampleListener(Protocol):
    def sample(self, t_s: float, values: dict) -> None: ...


def target_python(venv_path: Optional[str]) -> Optional[str]:
    """The venv's interpreter when it exists (after an install), else None (the engine's default)."""
    if not venv_path:
        return None
    import os

    p = Path(os.path.expanduser(venv_path)) / "bin" / "python"
    return str(p) if p.exists() else None


def run_verification(listener: SampleListener, seconds: float, cancel: threading.Event, python: Optional[str] = None,
                     on_progress: Optional[Callable[[dict], None]] = None, gpu_count: int = 0):
    """Runs app.verify on this machine (blocking, on a worker thread), streaming NVML samples
    to `listener`; `cancel` stops the probe (its process group is killed)."""
    session = _module("app.verify.session")

    def on_sample(s: Any) -> None:
        listener.sample(float(s.t_s), s.to_json())

    run = session.VerifyRun(session.VerifyOptions(python=python, seconds=seconds), on_progress=on_progress,
                            on_sample=on_sample, facts_gpu_count=gpu_count)
    run.start()
    while run._thread is not None and run._thread.is_alive():
        if cancel.wait(0.1):
            run.cancel()
            run.wait(30)
            break
    return run.wait(30)


def replay_verification(verification: Any, listener: SampleListener, cancel: threading.Event, speed: float = 10.0):
    """Plays a recorded verification's samples back (walkthrough), `speed` times faster."""
    start = time.monotonic()
    for s in getattr(verification, "samples", ()):
        delay = s.t_s / speed - (time.monotonic() - start)
        if delay > 0 and cancel.wait(delay):
            break
        listener.sample(s.t_s, s.to_json())
    return verification


def verification_from_report(report: Optional[dict]):
    from app.verify.model import Verification
    from app.verify.session import with_params

    v = report_value(report, "verification", Verification)
    return with_params(v) if hasattr(v, "gpus") else v  # an older recording: its figures, to say it in any language


# ---------------------------------------------------------------------------------------------
# Diagnose and report

def _recommender(choices: Optional[Choices]):
    """The solve the diagnosis asks for facts it has no recommendation for (the GPU a message names): the
    pipeline's recommend stage on the compat data (no live index read: a diagnosis answers at once)."""
    pipeline = _module("app.pipeline")

    def solve(facts: Facts):
        return pipeline.recommend_stage(facts, choices or Choices(), live=False)

    return solve


def diagnose(text: str, facts: Optional[Facts], choices: Optional[Choices] = None, recommendation: Any = None):
    """The diagnosis of a pasted text, with the run's choices (mirrors, proxy, CA bundle, venv) and the
    recommendation the window holds, so its fix steps are the ones this run would write."""
    mod = _module("app.diagnose")
    fn = getattr(mod, "diagnose", None)
    if fn is None:
        raise EngineUnavailable("app.diagnose is not available in this build")
    return fn(text, facts, choices=choices, recommendation=recommendation, recommender=_recommender(choices))


def diagnose_file(path: str, facts: Optional[Facts], choices: Optional[Choices] = None, recommendation: Any = None):
    """A whole log, read in bounded chunks by the engine (a 50 MB log stays cheap)."""
    mod = _module("app.diagnose")
    fn = getattr(mod, "diagnose_file", None)
    if fn is None:
        raise EngineUnavailable("app.diagnose is not available in this build")
    return fn(path, facts, choices=choices, recommendation=recommendation, recommender=_recommender(choices))


def fix_plan(diagnosis: Any, facts: Optional[Facts]):
    """The diagnosis's fix as a Plan the Plan page shows (nothing runs before confirm)."""
    mod = _module("app.diagnose")
    fn = getattr(mod, "fix_plan", None)
    from app.plan.model import Plan

    if fn is not None:
        steps = fn(diagnosis, facts)
        if isinstance(steps, Plan):
            return steps
        if not steps:
            raise EngineUnavailable("this diagnosis has no fix the wizard can run")
        return Plan(steps=tuple(steps))
    steps = getattr(diagnosis, "fix_steps", None) or getattr(diagnosis, "steps", None)
    if steps:
        return Plan(steps=tuple(steps))
    raise EngineUnavailable("this diagnosis has no fix the wizard can run")


def export_report(path: str, fmt: Optional[str] = None, *, facts: Optional[Facts] = None, recommendation: Any = None,
                  plan: Any = None, verification: Any = None, diagnosis: Any = None, session_dir: Optional[str] = None,
                  snapshot: Optional[dict] = None, live: bool = True) -> str:
    """Write the report (redacted, as app.report does by default) to `path`; the format from
    `fmt` or the extension (.html, .md, .json)."""
    rep = _module("app.report")
    report = rep.build_report(facts=facts, recommendation=recommendation, plan=plan, session=session_dir,
                              verification=verification, diagnosis=diagnosis, snapshot=snapshot, live=live)
    rep.write_report(report, path, fmt)
    return path
