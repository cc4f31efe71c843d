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
from app.run.events import LineEvent, Listener, PlanFinished, StepFinished, StepStarted
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
    from app.fileio import write_json_atomic
    from app.system import SnapshotSystem

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
# Install: backends the Install page drives on a worker thread. Each calls the listener (ui.bridge.RunBridge)
# with the events of app/run/events.py, the executor's own vocabulary, and returns how the run ended
# (PlanFinished.status: "ok", "error", "cancelled", "reboot_required").

class InstallBackend(Protocol):
    session_dir: Optional[str]

    def run(self, plan: Any, listener: Listener, cancel: threading.Event, only: Optional[list[str]] = None) -> str:
        """Run the plan's steps (or only those ids), blocking; its last event is a PlanFinished."""
        ...


def _started(plan: Any, s: Any) -> StepStarted:
    steps = tuple(getattr(plan, "steps", ()))
    return StepStarted(s.id, steps.index(s) if s in steps else 0, len(steps), s.title, bool(getattr(s, "needs_root", False)))


class DryRunBackend:
    """A recorded machine is never changed: walks the plan and says what each step would run,
    every line labelled as a dry run."""

    def __init__(self, step_delay_s: float = 0.25):
        self.step_delay_s = step_delay_s
        self.session_dir: Optional[str] = None

    def run(self, plan: Any, listener: Listener, cancel: threading.Event, only: Optional[list[str]] = None) -> str:
        reboot = False
        for index, s in enumerate(getattr(plan, "steps", ()), 1):
            if only is not None and s.id not in only:
                continue
            if cancel.is_set():
                return self._end(listener, "cancelled")
            listener(_started(plan, s))
            listener(LineEvent(s.id, "stdout", f"[dry run] {s.title}"))
            listener(LineEvent(s.id, "stdout", "[dry run] would run:"))
            for part in step_script(plan, s, index).splitlines():  # as the exported script runs it
                listener(LineEvent(s.id, "stdout", "[dry run]     " + part))
            if cancel.wait(self.step_delay_s):
                listener(StepFinished(s.id, "cancelled", "cancelled"))
                return self._end(listener, "cancelled", s.id)
            listener(StepFinished(s.id, "ok", "dry run"))
            reboot = reboot or bool(getattr(s, "reboot_required", False))
        if reboot:
            listener(LineEvent("", "stdout", "[dry run] a real install would ask to restart the computer here"))
        return self._end(listener, "ok")

    @staticmethod
    def _end(listener: Listener, status: str, failed: Optional[str] = None) -> str:
        listener(PlanFinished(status, "", failed))
        return status


class RecordedBackend:
    """A report's walkthrough: replays what happened on the user's machine (each step's
    recorded outcome, and the log excerpt the report kept), running nothing."""

    def __init__(self, report: dict):
        self.report = report
        self.session_dir: Optional[str] = None

    def run(self, plan: Any, listener: Listener, cancel: threading.Event, only: Optional[list[str]] = None) -> str:
        steps = tuple(self.report.get("steps") or ())
        logs = tuple(self.report.get("logs") or ())
        listener(LineEvent("", "stdout", "[recorded] what happened on the user's machine, from the report; nothing runs here"))
        result, failed = "ok", None
        for n, o in enumerate(steps):
            if o.status in ("pending", "running"):  # never reached (or never ended) on the user's machine
                continue
            listener(StepStarted(o.id, n, len(steps), o.title or o.id, o.needs_root))
            for line in o.commands or ():
                listener(LineEvent(o.id, "stdout", "[recorded] ran: " + line))
            if o.status == "error":
                for ex in logs:
                    self._excerpt(listener, o.id, ex)
            listener(StepFinished(o.id, o.status, o.message or "", "", o.duration_s or 0.0))
            if o.status in ("error", "cancelled"):
                result, failed = o.status, o.id
                break
        listener(PlanFinished(result, "", failed))
        return result

    @staticmethod
    def _excerpt(listener: Listener, step_id: str, ex: Any) -> None:
        listener(LineEvent(step_id, "stdout", f"[recorded] {ex.source}, lines {ex.first_line}-{ex.last_line}"
                           + (f" ({ex.reason})" if ex.reason else "")))
        for n, line in enumerate(ex.text.splitlines(), start=ex.first_line):
            # output.log marks stderr lines "[step] ! ..."; the report marks the failure line
            err = n == ex.focus_line or "] ! " in line[:80] or "E: " in line or "error" in line.lower()
            listener(LineEvent(step_id, "stderr" if err else "stdout", line))


class EngineBackend:
    """The real executor from app/run (argv only, session folder, privileged helper), its events
    handed to the listener as they are. A retry re-opens the same session folder: the executor
    skips the steps that finished and continues with the failed one."""

    def __init__(self, facts: Optional[Facts] = None, sessions_base: Optional[str] = None):
        self.facts = facts
        self.sessions_base = sessions_base
        self.session_dir: Optional[str] = None

    def run(self, plan: Any, listener: Listener, cancel: threading.Event, only: Optional[list[str]] = None) -> str:
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

        watcher = threading.Thread(target=watch, name="gpu-wizard-cancel-watch", daemon=True)
        watcher.start()
        try:
            ex = run.Executor(plan, session, listener=listener, cancel=token,
                              facts_json=self.facts.to_json() if self.facts is not None else None)
            result = ex.run()  # its last event, PlanFinished, has reached the listener
        finally:
            done.set()
            watcher.join(1)
        self.session_dir = result.session_dir or self.session_dir
        return result.status


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
                     on_progress: Optional[Callable[[dict], None]] = None, gpu_count: int = 0,
                     burn_in_s: Optional[float] = None, on_run: Optional[Callable[[Any], None]] = None):
    """Runs app.verify on this machine (blocking, on a worker thread), streaming NVML samples
    to `listener`; `cancel` stops the probe (its process group is killed)."""
    session = _module("app.verify.session")

    def on_sample(s: Any) -> None:
        listener.sample(float(s.t_s), s.to_json())

    from app.pipeline import torch_fix_command

    run = session.VerifyRun(session.VerifyOptions(python=python, seconds=seconds, burn_in_s=burn_in_s), on_progress=on_progress,
                            on_sample=on_sample, facts_gpu_count=gpu_count, fixer=torch_fix_command)
    if on_run is not None:
        on_run(run)
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
    from app.plan import platform_of
    from app.plan.model import Plan

    platform = platform_of(facts) if facts is not None else "linux"  # a Windows host's fix is shown as PowerShell
    if fn is not None:
        steps = fn(diagnosis, facts)
        if isinstance(steps, Plan):
            return steps
        if not steps:
            raise EngineUnavailable("this diagnosis has no fix the wizard can run")
        return Plan(steps=tuple(steps), platform=platform)
    steps = getattr(diagnosis, "fix_steps", None) or getattr(diagnosis, "steps", None)
    if steps:
        return Plan(steps=tuple(steps), platform=platform)
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
