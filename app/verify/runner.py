"""Start the verify probe inside the target Python and read its JSON lines.

`ProbeRunner(python, args).run(on_event)` starts `<python> -u <probe.py> ...` (argv list, its own
process group, LC_ALL=C, CUDA_DEVICE_ORDER=PCI_BUS_ID so its CUDA indices follow NVML's order),
passes every well-formed event to `on_event` as it arrives, and returns a `ProbeOutcome`.
Lines that are not one JSON object with an "event" key (a library printing to stdout, a line cut
off by a crash) are ignored and counted. A timeout or `cancel()` kills the whole process group.
A probe that dies without its "done" line is a crash: the outcome carries the stderr tail.
"""
from __future__ import annotations

import collections
import os
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional

from app import fileio
from app.system import kill_process_group


def _probe_path() -> str:
    """probe.py beside this file; in a PyInstaller bundle, the copy the spec puts under
    <bundle>/app/verify/ as data (modules inside the bundle's archive have no file to run)."""
    here = Path(__file__).with_name("probe.py")
    frozen = getattr(sys, "_MEIPASS", None)
    if not here.is_file() and frozen:
        bundled = Path(frozen) / "app" / "verify" / "probe.py"
        if bundled.is_file():
            return str(bundled)
    return str(here)


PROBE_PATH = _probe_path()
STDERR_TAIL_LINES = 40
MAX_LINE_CHARS = 1 << 20  # one event line never needs more; longer is garbage


def parse_line(line: str) -> Optional[dict[str, Any]]:
    """One probe event from one stdout line, or None for anything else."""
    line = line.strip()
    if not line.startswith("{") or len(line) > MAX_LINE_CHARS:
        return None
    try:
        obj = fileio.loads(line)
    except (ValueError, RecursionError):
        return None
    if not isinstance(obj, dict) or not isinstance(obj.get("event"), str):
        return None
    return obj


def parse_stream(lines) -> tuple[list[dict[str, Any]], int]:
    """All events in an iterable of lines, and how many lines were ignored."""
    events, ignored = [], 0
    for line in lines:
        ev = parse_line(line)
        if ev is None:
            if line.strip():
                ignored += 1
        else:
            events.append(ev)
    return events, ignored


@dataclass
class ProbeOutcome:
    events: list[dict[str, Any]] = field(default_factory=list)
    rc: Optional[int] = None
    done: bool = False  # the probe printed its "done" line
    timed_out: bool = False
    cancelled: bool = False
    ignored_lines: int = 0
    stderr_tail: str = ""
    duration_s: float = 0.0
    error: Optional[str] = None  # set when the run failed as a whole (could not start, crash, timeout)

    @property
    def ok(self) -> bool:
        return self.error is None


def probe_argv(python: str, seconds: Optional[float] = None, quick: bool = False, gpus: str = "all",
               sizes_mib: Optional[list[float]] = None, skip: tuple[str, ...] = (),
               burn_in_s: Optional[float] = None) -> list[str]:
    argv = [python, "-u", PROBE_PATH]
    if seconds is not None:
        argv += ["--seconds", f"{float(seconds):g}"]
    if quick:
        argv.append("--quick")
    if gpus != "all":
        argv += ["--gpus", gpus]
    if sizes_mib:
        argv += ["--sizes-mib", ",".join(f"{s:g}" for s in sizes_mib)]
    if skip:
        argv += ["--skip", ",".join(skip)]
    if burn_in_s:
        argv += ["--burn-in", f"{float(burn_in_s):g}"]
    return argv


class ProbeRunner:
    """One probe run. Thread-safe `cancel()`; `run()` blocks until the probe ends."""

    def __init__(self, argv: list[str], timeout_s: float = 600.0, env: Optional[dict[str, str]] = None):
        self.argv = list(argv)
        self.timeout_s = float(timeout_s)
        self.env = env
        self._cancel = threading.Event()
        self._proc: Optional[subprocess.Popen] = None
        self._lock = threading.Lock()

    def cancel(self) -> None:
        self._cancel.set()
        with self._lock:
            if self._proc is not None:
                kill_process_group(self._proc)

    def _environment(self) -> dict[str, str]:
        env = dict(os.environ if self.env is None else self.env)
        env["LC_ALL"] = "C"
        env["PYTHONUNBUFFERED"] = "1"
        env["PYTHONIOENCODING"] = "utf-8"
        env.setdefault("CUDA_DEVICE_ORDER", "PCI_BUS_ID")
        return env

    def run(self, on_event: Optional[Callable[[dict[str, Any]], None]] = None) -> ProbeOutcome:
        out = ProbeOutcome()
        t0 = time.monotonic()
        if self._cancel.is_set():
            out.cancelled, out.error = True, "cancelled before it started"
            return out
        kwargs: dict[str, Any] = {}
        if os.name == "posix":
            kwargs["start_new_session"] = True
        else:  # pragma: no cover - Windows
            kwargs["creationflags"] = getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0)
        try:
            proc = subprocess.Popen(self.argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    env=self._environment(), **kwargs)
        except OSError as e:
            out.error = f"could not start {self.argv[0]}: {e.strerror or e}"
            out.rc = 127
            return out
        with self._lock:
            self._proc = proc
        if self._cancel.is_set():
            kill_process_group(proc)
        tail: collections.deque[str] = collections.deque(maxlen=STDERR_TAIL_LINES)

        def read_stderr():
            assert proc.stderr is not None
            for raw in iter(proc.stderr.readline, b""):
                tail.append(raw.decode("utf-8", errors="replace").rstrip())

        err_thread = threading.Thread(target=read_stderr, name="verify-probe-stderr", daemon=True)
        err_thread.start()
        timer = threading.Timer(self.timeout_s, self._on_timeout, args=(proc, out))
        timer.daemon = True
        timer.start()
        try:
            assert proc.stdout is not None
            for raw in iter(proc.stdout.readline, b""):
                line = raw.decode("utf-8", errors="replace")
                ev = parse_line(line)
                if ev is None:
                    if line.strip():
                        out.ignored_lines += 1
                    continue
                out.events.append(ev)
                if ev.get("event") == "done":
                    out.done = True
                if on_event is not None:
                    try:
                        on_event(ev)
                    except Exception:  # a consumer's bug must not kill the run or leave the probe behind
                        pass
            proc.wait()
        finally:
            timer.cancel()
            if proc.poll() is None:
                kill_process_group(proc)
                proc.wait()
            err_thread.join(timeout=5)
            for s in (proc.stdout, proc.stderr):
                try:
                    s and s.close()
                except OSError:
                    pass
        out.rc = proc.returncode
        out.stderr_tail = "\n".join(tail)[-4000:]
        out.duration_s = time.monotonic() - t0
        if self._cancel.is_set():
            out.cancelled = True
            out.error = "cancelled"
        elif out.timed_out:
            out.error = f"the probe did not finish within {self.timeout_s:g} s and was stopped"
        elif not out.done:
            last = next((e.get("message") for e in reversed(out.events) if e.get("event") == "error"), None)
            why = f"exit code {out.rc}" if out.rc is not None and out.rc >= 0 else f"killed by signal {-(out.rc or 0)}"
            out.error = f"the probe stopped before it finished ({why})" + (f": {last.splitlines()[0]}" if last else "")
        return out

    def _on_timeout(self, proc: subprocess.Popen, out: ProbeOutcome) -> None:
        out.timed_out = True
        kill_process_group(proc)


def default_python() -> str:
    """This interpreter; in a frozen bundle (where sys.executable is the wizard itself) the
    python3 on PATH."""
    if getattr(sys, "frozen", False):
        import shutil

        return shutil.which("python3") or shutil.which("python") or "python3"
    return sys.executable


def target_python(sessions: Optional[str] = None, default_venv: Optional[str] = None) -> tuple[str, str]:
    """(interpreter, where it came from) of the Python that holds the PyTorch the wizard set up:
    the venv of the newest session's plan that installs PyTorch, else the plan's default venv
    (~/.venvs/gpu), else this interpreter (`default_python()`; the wizard's own has no torch)."""

    from app.choices import Choices
    from app.plan.common import expand_venv, venv_python
    from app.run.session import sessions_dir

    def usable(p: Optional[str]) -> bool:
        return bool(p and os.path.isabs(p) and os.path.isfile(p) and os.access(p, os.X_OK))

    try:
        base = sessions_dir(sessions)
        dirs = sorted((d for d in base.iterdir() if d.is_dir()), key=lambda d: d.stat().st_mtime, reverse=True)
    except OSError:
        dirs = []
    for d in dirs[:50]:
        try:
            plan = fileio.loads((d / "plan.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        for step in (plan.get("steps") or ()) if isinstance(plan, dict) else ():
            cmds = step.get("commands") if isinstance(step, dict) else None
            if step.get("kind") == "install_pytorch" and cmds and isinstance(cmds[0], list) and cmds[0]:
                argv = [str(a) for a in cmds[0]]
                py = argv[argv.index("--python") + 1] if "--python" in argv[:-1] else argv[0]  # uv pip install --python PY
                if usable(py):
                    return py, f"the PyTorch venv of session {d.name}"
    venv = expand_venv(default_venv or Choices().venv_path)
    py = venv_python(venv, "windows" if sys.platform.startswith("win") else "linux")
    if usable(py):
        return py, f"the wizard's PyTorch venv {venv}"
    return default_python(), "this interpreter (no PyTorch venv of the wizard's found)"
