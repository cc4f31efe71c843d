"""One session folder per run: commands.log (time, argv, exit code, duration), output.log,
plan.json, facts.json, state.json (for resume), downloads/, backups/ (user-owned files)."""
from __future__ import annotations

import datetime as _dt
import errno
import json
import os
import re
import secrets
import stat
import threading
import time
from pathlib import Path
from typing import Any, Optional, TextIO

from app.fileio import loads, read_json, write_json_atomic

from .state import STATE_FORMAT, RunState, StateError

__all__ = ["STATE_FORMAT", "RunState", "StateError", "Session", "SessionBusy", "SessionUntrusted",
           "latest_unfinished", "sessions_dir", "trust_problem"]
ROOT_SESSIONS = "/var/lib/gpu-wizard/sessions"
MAX_JSON_BYTES = 64 << 20


class SessionBusy(Exception):
    """Another run holds the session folder's lock (one line naming its process)."""


class SessionUntrusted(Exception):
    """Root will not use a session folder a user could have written (one line)."""


def _euid() -> Optional[int]:
    return os.geteuid() if hasattr(os, "geteuid") else None


def trust_problem(path: str | os.PathLike, files: tuple[str, ...] = ("plan.json", "state.json", "facts.json",
                                                                    "backups", "backups/backups.json")) -> Optional[str]:
    """Why root must not use this session folder (None: it may). Every folder from / down to it and
    every file root reads from it must belong to root and be writable by nobody else (a sticky
    folder such as /tmp may lie on the way)."""
    if _euid() != 0:
        return None
    p = Path(os.path.abspath(path))
    chain = [*reversed(p.parents), p]
    for i, d in enumerate(chain):
        try:
            st = os.lstat(d)
        except OSError as e:
            return f"{d}: {e.strerror}"
        if stat.S_ISLNK(st.st_mode):
            if st.st_uid == 0 and i < len(chain) - 1 and not _user_writable_dir(os.lstat(d.parent)):
                continue  # a root-owned link in a root-owned folder (e.g. /var/run): fine
            return f"{d} is a symbolic link"
        sticky_ok = st.st_mode & stat.S_ISVTX and st.st_uid == 0 and d != p
        if st.st_uid != 0:
            return f"{d} belongs to uid {st.st_uid}"
        if st.st_mode & 0o022 and not sticky_ok:
            return f"{d} can be changed by other users (mode {st.st_mode & 0o777:o})"
    for name in files:
        f = p / name
        try:
            st = os.lstat(f)
        except FileNotFoundError:
            continue
        except OSError as e:
            return f"{f}: {e.strerror}"
        if stat.S_ISLNK(st.st_mode):
            return f"{f} is a symbolic link"
        if st.st_uid != 0:
            return f"{f} belongs to uid {st.st_uid}"
        if st.st_mode & 0o022:
            return f"{f} can be changed by other users"
    return None


def _user_writable_dir(st: os.stat_result) -> bool:
    return st.st_uid != 0 or bool(st.st_mode & 0o022 and not st.st_mode & stat.S_ISVTX)
_CRED = re.compile(r"(://)[^/@\s:]+:[^/@\s]+@")  # user:password@ in mirror/proxy URLs


def redact(text: str) -> str:
    return _CRED.sub(r"\1***:***@", text)


def sessions_dir(override: Optional[str] = None) -> Path:
    if override:
        return Path(override).expanduser()
    env = os.environ.get("GPU_WIZARD_SESSIONS")
    if env:
        return Path(env).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    default = Path(base) / "gpu-wizard" / "sessions"
    if _euid() == 0:
        # root with a user's HOME (sudo -E): a folder that user controls is no place for root's sessions
        probe = default
        while not probe.exists() and probe != probe.parent:
            probe = probe.parent
        if trust_problem(probe, files=()):
            return Path(ROOT_SESSIONS)
    return default


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="milliseconds")


class Session:
    def __init__(self, path: str | os.PathLike):
        self.dir = Path(path)
        self.name = self.dir.name
        self._lock = threading.Lock()
        self._out: Optional[TextIO] = None
        self._last_flush = 0.0
        self._lock_fd: Optional[int] = None
        self._lock_depth = 0
        self.disk_error: Optional[str] = None  # set when a log write failed (disk full): said once

    # -- one run at a time ----------------------------------------------------------------
    def acquire(self) -> None:
        """Take the session's lock (fcntl) or raise SessionBusy naming the process holding it.
        Re-entrant within this object; released by release() or when the process ends."""
        if self._lock_fd is not None:
            self._lock_depth += 1
            return
        try:
            import fcntl
        except ImportError:  # Windows: msvcrt locking on the same file
            fcntl = None  # type: ignore[assignment]
        path = self.dir / "lock"
        fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0), 0o600)
        try:
            if fcntl is not None:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except (BlockingIOError, PermissionError):
                    raise SessionBusy(f"another run (pid {self._holder(fd)}) is using the session {self.dir}; "
                                      "wait for it to finish or stop it first") from None
            else:
                import msvcrt

                try:
                    msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
                except OSError:
                    raise SessionBusy(f"another run is using the session {self.dir}") from None
            try:  # who holds it, for the message another run gives (a full disk only loses that)
                os.ftruncate(fd, 0)
                os.write(fd, f"{os.getpid()}\n".encode())
            except OSError:
                pass
        except BaseException:
            os.close(fd)
            raise
        self._lock_fd = fd
        self._lock_depth = 1

    @staticmethod
    def _holder(fd: int) -> str:
        try:
            os.lseek(fd, 0, 0)
            txt = os.read(fd, 32).decode("ascii", "replace").strip()
            return txt if txt.isdigit() else "unknown"
        except OSError:
            return "unknown"

    def release(self) -> None:
        if self._lock_fd is None:
            return
        self._lock_depth -= 1
        if self._lock_depth > 0:
            return
        fd, self._lock_fd = self._lock_fd, None
        try:
            os.ftruncate(fd, 0)
        except OSError:
            pass
        os.close(fd)  # closing drops the flock

    def trust_problem(self) -> Optional[str]:
        return trust_problem(self.dir)

    def check_trusted(self) -> None:
        why = self.trust_problem()
        if why:
            raise SessionUntrusted(f"as root the wizard does not use {self.dir}: {why} (a user could have "
                                   "changed its plan or backups); start a new session with --new")

    @classmethod
    def create(cls, base: Optional[str | os.PathLike] = None, label: str = "install") -> "Session":
        root = Path(base) if base else sessions_dir()
        root.mkdir(parents=True, exist_ok=True)
        stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
        path = root / f"{stamp}-{label}-{secrets.token_hex(2)}"
        path.mkdir(mode=0o700)
        s = cls(path)
        (path / "commands.log").touch()
        (path / "output.log").touch()
        return s

    @classmethod
    def open(cls, path: str | os.PathLike) -> "Session":
        p = Path(path)
        if not (p / "plan.json").is_file():
            raise FileNotFoundError(f"{p} is not a wizard session (no plan.json)")
        return cls(p)

    @property
    def downloads(self) -> Path:
        return self.dir / "downloads"

    @property
    def backups(self) -> Path:
        return self.dir / "backups"

    def write_json(self, name: str, data: Any) -> None:
        write_json_atomic(self.dir / name, data, mode=0o644)

    def read_json(self, name: str) -> Any:
        try:
            p = self.dir / name
            if p.stat().st_size > MAX_JSON_BYTES:
                return None
            return read_json(p, limit=MAX_JSON_BYTES)
        except (OSError, UnicodeError, ValueError):
            return None

    def log_command(self, step_id: str, argv: list[str], rc: Optional[int], duration_s: float, note: str = "") -> None:
        # argv as a JSON list: one line per command even when an argument holds a newline
        line = f"{_now()}\t{step_id}\trc={rc if rc is not None else '-'}\t{duration_s:.2f}s\t{redact(json.dumps(argv))}"
        if note:
            line += f"\t# {redact(note)}"
        with self._lock:
            try:
                with open(self.dir / "commands.log", "a", encoding="utf-8") as fh:
                    fh.write(line + "\n")
            except OSError as e:
                self._disk_failed(e)

    def log_event(self, ev) -> None:
        """Append a step-level event to events.jsonl (the journal the report reads back)."""
        from .events import event_to_json

        line = json.dumps(event_to_json(ev), ensure_ascii=False)
        with self._lock:
            try:
                with open(self.dir / "events.jsonl", "a", encoding="utf-8") as fh:
                    fh.write(redact(line) + "\n")
            except OSError as e:
                self._disk_failed(e)

    def read_events(self, limit: int = 100_000) -> list:
        """The journal's events; damaged lines (a kill mid-write) are skipped."""
        from .events import EventError, event_from_json

        out: list[Any] = []
        try:
            fh = open(self.dir / "events.jsonl", encoding="utf-8", errors="replace")
        except OSError:
            return out
        with fh:
            for i, raw in enumerate(fh):
                if i >= limit:
                    break
                try:
                    out.append(event_from_json(loads(raw)))
                except (ValueError, EventError):
                    continue
        return out

    def _disk_failed(self, e: OSError) -> None:
        """A log write failed (a full disk): keep running, remember it once (the caller says it)."""
        if self.disk_error is None:
            why = "no space left on the disk" if e.errno == errno.ENOSPC else (e.strerror or str(e))
            self.disk_error = f"cannot write to the session folder {self.dir}: {why}"

    def write_output(self, step_id: str, stream: str, text: str) -> None:
        with self._lock:
            try:
                if self._out is None:
                    self._out = open(self.dir / "output.log", "a", encoding="utf-8", errors="replace")
                self._out.write(f"[{step_id}] {'! ' if stream == 'stderr' else ''}{redact(text)}\n")
                now = time.monotonic()
                if now - self._last_flush > 0.5:
                    self._out.flush()
                    self._last_flush = now
            except OSError as e:
                self._disk_failed(e)
                self._drop_out()

    def _drop_out(self) -> None:
        if self._out is not None:
            try:
                self._out.close()
            except OSError:
                pass
            self._out = None

    def flush(self) -> None:
        with self._lock:
            if self._out is not None:
                try:
                    self._out.flush()
                except OSError as e:
                    self._disk_failed(e)
                    self._drop_out()

    def close(self) -> None:
        with self._lock:
            if self._out is not None:
                try:
                    self._out.close()
                except OSError as e:
                    self._disk_failed(e)
                self._out = None

    def load_state(self) -> RunState:
        """The typed run state; a fresh one when there is none yet. StateError when state.json is
        damaged or of a format this wizard does not read (never silently a fresh state)."""
        p = self.dir / "state.json"
        try:
            raw = p.read_bytes()
        except FileNotFoundError:
            return RunState()
        except OSError as e:
            raise StateError(f"cannot read {p}: {e.strerror}") from None
        if len(raw) > MAX_JSON_BYTES:
            raise StateError(f"{p} is too large to be a run state")
        try:
            data = loads(raw.decode("utf-8"))
        except (UnicodeError, ValueError):
            raise StateError(f"{p} is damaged (not JSON); start a new session with --new") from None
        try:
            return RunState.from_json(data)
        except StateError as e:
            raise StateError(f"{p}: {e}") from None

    def save_state(self, state) -> None:
        st = state if isinstance(state, RunState) else RunState.from_json(state)
        st.updated = _now()
        if isinstance(state, dict):
            state["updated"] = st.updated
        self.write_json("state.json", st.to_json())


def latest_unfinished(base: Optional[str | os.PathLike] = None) -> Optional[Session]:
    """The newest session whose plan did not finish (error, cancelled, reboot pending, interrupted)."""
    root = Path(base) if base else sessions_dir()
    if not root.is_dir():
        return None
    for p in sorted(root.iterdir(), reverse=True):
        if not (p / "plan.json").is_file():
            continue
        s = Session(p)
        try:
            st = s.load_state()
        except StateError:
            return s  # resuming it says what is wrong with it
        if st.status != "ok":
            return s
        return None  # the newest one finished: nothing to resume
    return None
