"""The one runner: argv lists only (never a shell), LC_ALL=C, stdout and stderr streamed line by
line to a callback, carriage-return progress folded into one updating line, progress parsed from
apt's status fd, pip and percentages, a timeout, and cancel that kills the whole process group.

Callbacks are called from reader threads, but never two at once (one lock serialises them), so a
listener needs no locking of its own. Memory stays flat: only the last lines are kept (for the
error details), everything else goes to the callback.
"""
from __future__ import annotations

import codecs
import os
import re
import signal
import subprocess
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Callable, Optional, Sequence

from app.tools import find_tool, with_system_dirs

TAIL_LINES = 60
_READ = 65536
_MAX_LINE = 1 << 20


@dataclass(frozen=True)
class Line:
    stream: str  # "stdout", "stderr", or "status" (apt's status fd)
    text: str
    final: bool = True  # False: a carriage-return progress update that replaces the line on screen


@dataclass(frozen=True)
class Progress:
    fraction: Optional[float]  # 0..1 within this command; None: unknown, only a message
    message: str = ""
    done_bytes: Optional[int] = None  # a download inside the command: bytes so far and of how many
    total_bytes: Optional[int] = None  # (None: the server did not say)
    name: str = ""  # what is being downloaded (pip's file name), for the window's own words


@dataclass
class CommandOutcome:
    argv: list[str]
    rc: Optional[int]
    duration_s: float = 0.0
    timed_out: bool = False
    cancelled: bool = False
    tail: list[str] = field(default_factory=list)
    error: Optional[str] = None  # could not start
    ok_codes: tuple[int, ...] = (0,)  # exit codes that mean success (the step's ok_exit_codes)

    @property
    def ok(self) -> bool:
        return self.rc in self.ok_codes and not self.timed_out and not self.cancelled and self.error is None

    @property
    def message(self) -> str:
        prog = os.path.basename(self.argv[0]) if self.argv else "command"
        if self.error:
            return f"{prog} could not start: {self.error}"
        if self.cancelled:
            return f"{prog} was cancelled"
        if self.timed_out:
            return f"{prog} did not finish in time and was stopped"
        if self.rc == 0:
            return f"{prog} finished"
        if self.rc in self.ok_codes:
            return f"{prog} finished (exit code {self.rc}, which it uses for success)"
        if self.rc is not None and self.rc < 0:
            return f"{prog} was killed by signal {-self.rc}"
        return f"{prog} failed with exit code {self.rc}"

    @property
    def details(self) -> str:
        return "\n".join(self.tail)


class CancelToken:
    """Shared between the executor, the runner and the GUI's Cancel button. Thread-safe."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def cancel(self) -> None:
        self._event.set()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()

    def wait(self, timeout: float) -> bool:
        return self._event.wait(timeout)


# --- progress parsers ------------------------------------------------------------------

_APT_STATUS = re.compile(r"^(pmstatus|dlstatus):[^:]*:([0-9.]+):(.*)$")
_PERCENT = re.compile(r"(?<![\d.])(\d{1,3}(?:\.\d+)?)\s?%")
_PIP_RAW = re.compile(r"^Progress (\d+) of (\d+)$")  # pip >= 24.1, --progress-bar=raw
_PIP_DOWNLOADING = re.compile(r"^Downloading (\S+)")
_PIP_STAGES = (("Collecting ", 0.1), ("Downloading ", 0.3), ("Installing collected packages", 0.8),
               ("Successfully installed", 1.0))


def parse_apt_status(text: str) -> Optional[Progress]:
    """apt's APT::Status-Fd lines: 'pmstatus:cuda-nvcc-12-8:42.8571:Unpacking cuda-nvcc-12-8 (amd64)'.
    Downloads (dlstatus) count as the first 30%, installing as the rest."""
    m = _APT_STATUS.match(text.strip())
    if not m:
        return None
    pct = min(100.0, max(0.0, float(m.group(2)))) / 100.0
    kind = m.group(1)
    frac = 0.3 * pct if kind == "dlstatus" else 0.3 + 0.7 * pct
    return Progress(frac, m.group(3).strip())


def parse_pip_line(text: str) -> Optional[Progress]:
    t = text.strip()
    for prefix, frac in _PIP_STAGES:
        if t.startswith(prefix):
            return Progress(frac if prefix != "Collecting " and prefix != "Downloading " else None, t[:120])
    return None


class PipProgress:
    """pip's machine-readable download progress (`--progress-bar=raw`, pip >= 24.1): each
    "Downloading <url or file> (<size>)" line names the file, then "Progress <done> of <total>"
    lines (total 0: unknown) count its bytes. The download is the step's 10%..80% (resolving before,
    unpacking after); the fraction never moves back when the next file starts, the bytes do."""

    def __init__(self) -> None:
        self.name = ""
        self.best = 0.0

    def __call__(self, text: str) -> Optional[Progress]:
        t = text.strip()
        m = _PIP_RAW.match(t)
        if m is None:
            d = _PIP_DOWNLOADING.match(t)
            if d:
                self.name = d.group(1).rsplit("/", 1)[-1].split("#", 1)[0]
            prog = parse_pip_line(t)
            if prog is not None and prog.fraction is not None:
                self.best = max(self.best, prog.fraction)
            return prog
        done, total = int(m.group(1)), int(m.group(2))
        if total > 0:
            self.best = max(self.best, 0.1 + 0.7 * min(done, total) / total)
        size = f"{done >> 20} of {total >> 20} MiB" if total > 0 else f"{done >> 20} MiB"
        return Progress(self.best or None, f"{self.name or 'download'}: {size}", done_bytes=done,
                        total_bytes=total or None, name=self.name)


def parse_percent(text: str) -> Optional[Progress]:
    m = _PERCENT.search(text)
    if not m:
        return None
    v = float(m.group(1))
    return Progress(v / 100.0, text.strip()[:120]) if 0 <= v <= 100 else None


def _is_apt(argv: Sequence[str]) -> bool:
    return os.path.basename(argv[0]) in ("apt-get", "apt") and len(argv) > 1


def _is_pip(argv: Sequence[str]) -> bool:
    return "pip" in argv[:4] or (len(argv) > 2 and argv[1:3] == ["-m", "pip"])


_DIST_INFO = re.compile(r"^pip-(\d+)\.(\d+)")


def pip_version(python: str) -> Optional[tuple[int, int]]:
    """The (major, minor) of the pip a venv's interpreter runs, read from its dist-info folder next to
    it (no child process); None when that is not a venv's python or pip is not there."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(python)))
    libs = [os.path.join(root, "Lib", "site-packages")]  # Windows
    try:
        libs += [os.path.join(root, "lib", d, "site-packages") for d in os.listdir(os.path.join(root, "lib"))
                 if d.startswith("python")]
    except OSError:
        pass
    found = []
    for lib in libs:
        try:
            found += [(int(m.group(1)), int(m.group(2))) for m in map(_DIST_INFO.match, os.listdir(lib)) if m]
        except OSError:
            continue
    return max(found) if found else None


def with_pip_progress(argv: Sequence[str]) -> list[str]:
    """`python -m pip install ...` with `--progress-bar=raw` when that pip has it (pip >= 24.1):
    machine-readable download progress, as apt gets its status fd. Like that fd it is the runner's
    channel to the child, not part of the command shown or exported (which must run with any pip)."""
    argv = list(argv)
    if (len(argv) > 3 and argv[1:4] == ["-m", "pip", "install"] and not any(a.startswith("--progress-bar") for a in argv)
            and (pip_version(argv[0]) or (0, 0)) >= (24, 1)):
        return [*argv[:4], "--progress-bar=raw", *argv[4:]]
    return argv


# --- the runner ----------------------------------------------------------------------

def _program(name: str, path: str) -> Optional[str]:
    """The program to start for a bare name (found in PATH or the sbin folders); None leaves
    paths and unknown names to Popen itself."""
    return None if (os.sep in name or (os.altsep and os.altsep in name)) else find_tool(name, path)


def run_command(argv: Sequence[str], *, on_line: Optional[Callable[[Line], None]] = None,
                on_progress: Optional[Callable[[Progress], None]] = None,
                env: Optional[dict[str, str]] = None, cwd: Optional[str] = None,
                timeout_s: Optional[float] = None, cancel: Optional[CancelToken] = None,
                apt_status: bool = True, kill_grace_s: float = 3.0,
                on_start: Optional[Callable[[subprocess.Popen], None]] = None,
                ok_codes: Sequence[int] = (0,)) -> CommandOutcome:
    """Run one argv to the end (or timeout, or cancel). Never raises for a failing command."""
    argv = [str(a) for a in argv]
    if not argv or not argv[0]:
        raise ValueError("empty argv")
    full_env = dict(os.environ)
    full_env.update(env or {})
    full_env["LC_ALL"] = "C"
    full_env["LANG"] = "C"
    full_env["PATH"] = with_system_dirs(full_env.get("PATH"))  # ldconfig, modprobe, dkms: sbin for any user
    status_r = status_w = None
    run_argv = list(argv)
    if apt_status and _is_apt(argv):
        status_r, status_w = os.pipe()
        run_argv = [argv[0], "-o", f"APT::Status-Fd={status_w}", *argv[1:]]
    elif _is_pip(argv):
        run_argv = with_pip_progress(argv)
    lock = threading.Lock()
    tail: deque[str] = deque(maxlen=TAIL_LINES)
    pip = PipProgress() if _is_pip(argv) else None
    start = time.monotonic()

    callback_errors: list[BaseException] = []

    def emit(line: Line) -> None:
        # the readers must never die: a listener that fails (a full disk under the log, a closed
        # window) would leave the child blocked on a full pipe. Its lines are still read and kept.
        with lock:
            raw = pip is not None and _PIP_RAW.match(line.text.strip()) is not None
            if line.final and line.stream != "status" and not raw:
                tail.append(line.text)
            prog: Optional[Progress] = None
            try:
                if line.stream == "status":
                    prog = parse_apt_status(line.text)
                elif pip is not None and line.final:
                    prog = pip(line.text)
                elif not line.final:
                    prog = parse_percent(line.text)
            except (ValueError, OverflowError):
                prog = None
            if callback_errors:
                return
            try:
                if line.stream != "status" and on_line is not None:
                    # pip's raw progress lines are progress, not output: the log shows them as one
                    # updating line (as a terminal would), never thousands of "Progress n of m"
                    on_line(Line(line.stream, prog.message if prog else line.text, final=False) if raw else line)
                if prog is not None and on_progress is not None:
                    on_progress(prog)
            except Exception as e:  # noqa: BLE001 - remembered, the output keeps draining
                callback_errors.append(e)

    try:
        proc = subprocess.Popen(run_argv, executable=_program(run_argv[0], full_env["PATH"]), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                env=full_env, cwd=cwd, start_new_session=True,
                                pass_fds=(status_w,) if status_w is not None else ())
    except OSError as e:
        for fd in (status_r, status_w):
            if fd is not None:
                os.close(fd)
        return CommandOutcome(argv=run_argv, rc=None, error=e.strerror or str(e), duration_s=time.monotonic() - start,
                              ok_codes=tuple(ok_codes))
    if status_w is not None:
        os.close(status_w)
    if on_start is not None:
        on_start(proc)
    readers = _start_readers(proc, status_r, emit)
    timed_out = cancelled = False
    deadline = None if not timeout_s else start + timeout_s
    exited = threading.Event()  # set the moment the process ends: no polling delay on exit
    threading.Thread(target=_wait_then_set, args=(proc, exited), daemon=True).start()
    try:
        while not exited.wait(0.05):
            if cancel is not None and cancel.cancelled:
                cancelled = True
            elif deadline is not None and time.monotonic() > deadline:
                timed_out = True
            if cancelled or timed_out:
                kill_group(proc, kill_grace_s)
                break
    except BaseException:  # Ctrl-C in the wizard: the child runs in its own session, so stop it here
        kill_group(proc, kill_grace_s)
        raise
    proc.wait()
    for t in readers:
        t.join(timeout=5)
    # once the main process is gone, a child still holding the pipes is killed too
    if any(t.is_alive() for t in readers):
        kill_group(proc, 0)
        for t in readers:
            t.join(timeout=2)
    for f in (proc.stdout, proc.stderr):
        try:
            if f is not None:
                f.close()
        except OSError:
            pass
    if status_r is not None:
        try:
            os.close(status_r)
        except OSError:
            pass
    if timed_out:
        emit(Line("stderr", f"[stopped after {timeout_s:g} s: the time limit for this step]"))
    if callback_errors:
        cb_err = callback_errors[0]
        tail.append(f"[the wizard could not show or log this command's output: {type(cb_err).__name__}: {cb_err}]")
    return CommandOutcome(argv=run_argv, rc=proc.returncode, duration_s=time.monotonic() - start,
                          timed_out=timed_out, cancelled=cancelled, tail=list(tail), ok_codes=tuple(ok_codes))


def _start_readers(proc: subprocess.Popen, status_r: Optional[int], emit: Callable[[Line], None]) -> list[threading.Thread]:
    """One started thread per pipe (stdout, stderr and the status pipe when there is one), each feeding `emit`."""
    assert proc.stdout is not None and proc.stderr is not None  # run_command opens both as pipes
    fds = [(proc.stdout.fileno(), "stdout"), (proc.stderr.fileno(), "stderr")] + ([(status_r, "status")] if status_r is not None else [])
    readers = [threading.Thread(target=_pump, args=(fd, stream, emit), daemon=True) for fd, stream in fds]
    for t in readers:
        t.start()
    return readers


def _wait_then_set(proc: subprocess.Popen, done: threading.Event) -> None:
    proc.wait()
    done.set()


def kill_group(proc: subprocess.Popen, grace_s: float = 3.0) -> None:
    """SIGTERM the whole process group, then SIGKILL whatever is left after `grace_s`."""
    if not hasattr(os, "killpg"):  # Windows: the whole tree with taskkill
        subprocess.run(["taskkill", "/T", "/F", "/PID", str(proc.pid)], capture_output=True)
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
        return
    pgid = proc.pid
    for sig, wait in ((signal.SIGTERM, grace_s), (signal.SIGKILL, 2.0)):
        try:
            os.killpg(pgid, sig)
        except (ProcessLookupError, PermissionError):
            break
        end = time.monotonic() + wait
        while time.monotonic() < end:
            if proc.returncode is not None and not _group_alive(pgid):
                return
            time.sleep(0.02)
    try:
        proc.wait(timeout=2)
    except subprocess.TimeoutExpired:
        pass


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
        return True
    except (ProcessLookupError, PermissionError):
        return False


def _pump(fd: int, stream: str, emit: Callable[[Line], None]) -> None:
    """Read raw bytes, split on \\n and \\r, decode UTF-8 leniently, emit Lines."""
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    buf = ""
    while True:
        try:
            chunk = os.read(fd, _READ)
        except OSError:
            break
        if not chunk:
            break
        buf += decoder.decode(chunk)
        buf = _split(buf, stream, emit)
        if len(buf) > _MAX_LINE:  # a "line" without end (binary output): pass it on in pieces
            emit(Line(stream, buf[:_MAX_LINE], True))
            buf = buf[_MAX_LINE:]
    buf += decoder.decode(b"", final=True)
    if buf:
        emit(Line(stream, buf.rstrip("\r"), True))


def _split(buf: str, stream: str, emit: Callable[[Line], None]) -> str:
    start = 0
    n = len(buf)
    while start < n:
        nl = buf.find("\n", start)
        cr = buf.find("\r", start)
        if nl < 0 and cr < 0:
            break
        if cr >= 0 and (nl < 0 or cr < nl):
            if cr + 1 < n and buf[cr + 1] == "\n":  # CRLF: a normal line end
                emit(Line(stream, buf[start:cr], True))
                start = cr + 2
                continue
            if cr + 1 >= n:  # lone \r at the end of the chunk: wait to see whether \n follows
                break
            seg = buf[start:cr]
            if seg:
                emit(Line(stream, seg, False))
            start = cr + 1
            continue
        emit(Line(stream, buf[start:nl], True))
        start = nl + 1
    return buf[start:]
