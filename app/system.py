"""The only layer that touches the machine.

`System` is a protocol with two implementations: `LiveSystem` (this machine) and
`SnapshotSystem` (a recorded snapshot, format 1, see DESIGN.md). `RecordingSystem` wraps a
live one and writes down every answer, which is how `gpu-wizard snapshot` records exactly
what detection read, and nothing more.
"""
from __future__ import annotations

import datetime as _dt
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable, Iterable, Optional, Protocol, runtime_checkable

from app.fileio import JsonError, loads
from app.model import Record, record
from app.nvml_live import read_nvml as read_nvml, start_nvml_early as start_nvml_early  # this layer's, kept apart to start first
from app.tools import find_tool

SNAPSHOT_FORMAT = "gpu-wizard-snapshot/1"
DEFAULT_TIMEOUT_S = 10.0
MAX_FILE_BYTES = 4 * 1024 * 1024  # detection never needs more of one file


class SnapshotError(ValueError):
    """A snapshot that cannot be used: the message is one clear line for the user."""


@record
class CommandResult(Record):
    """What one command answered: its exit status, its output and how long it took."""

    rc: int  # 127: not installed; 124: timed out
    stdout: str = ""
    stderr: str = ""
    timed_out: bool = False
    duration_s: float = 0.0

    @property
    def ok(self) -> bool:
        return self.rc == 0 and not self.timed_out

    def to_json(self) -> dict[str, Any]:
        return {"rc": self.rc, "stdout": self.stdout, "stderr": self.stderr}


NOT_INSTALLED = CommandResult(rc=127, stderr="command not found")


def command_key(argv: Iterable[str]) -> str:
    return " ".join(argv)


def decode_output(data: bytes | None) -> str:
    """Command output as text: UTF-8 where it is, replacement characters where it is not.
    UTF-16 (what Windows' wsl.exe prints) is recognised by its BOM or its NUL bytes."""
    if not data:
        return ""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return data.decode("utf-16", errors="replace")
    if len(data) >= 4 and data[1::2].count(0) > len(data) // 4 and data[0] != 0:
        return data.decode("utf-16-le", errors="replace")
    return data.decode("utf-8", errors="replace")


@runtime_checkable
class System(Protocol):
    platform: str  # "linux" or "windows"

    def read_text(self, path: str) -> Optional[str]: ...
    def exists(self, path: str) -> bool: ...
    def list_dir(self, path: str) -> Optional[list[str]]: ...
    def readlink(self, path: str) -> Optional[str]: ...
    def run(self, argv: list[str], timeout: float = DEFAULT_TIMEOUT_S) -> CommandResult: ...
    def getenv(self, name: str) -> Optional[str]: ...
    def which(self, name: str) -> Optional[str]: ...
    def nvml(self) -> Optional[dict[str, Any]]: ...
    def disk_free_mib(self, path: str) -> Optional[int]: ...
    def now(self) -> str: ...


def _utc_now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat()


class LiveSystem:
    """This machine. Every command has a timeout; a hung one is killed with its process group."""

    def __init__(self, platform: Optional[str] = None, nvml_reader: Optional[Callable[[], Optional[dict]]] = None):
        self.platform = platform or ("windows" if sys.platform.startswith("win") else "linux")
        self._nvml_reader = nvml_reader
        self._nvml_cache: Optional[dict] = None
        self._nvml_done = False
        self._started: dict[tuple[str, ...], CommandResult | tuple[subprocess.Popen, float]] = {}

    def read_text(self, path: str) -> Optional[str]:
        try:
            with open(path, "rb") as fh:
                data = fh.read(MAX_FILE_BYTES)
        except (OSError, ValueError):
            return None
        return decode_output(data) if data else ""

    def exists(self, path: str) -> bool:
        return os.path.lexists(path)

    def list_dir(self, path: str) -> Optional[list[str]]:
        try:
            return sorted(os.listdir(path))
        except OSError:
            return None

    def readlink(self, path: str) -> Optional[str]:
        try:
            return os.readlink(path)
        except OSError:
            return None

    def run(self, argv: list[str], timeout: float = DEFAULT_TIMEOUT_S) -> CommandResult:
        if not argv:
            raise ValueError("empty argv")
        started = self._started.pop(tuple(argv), None)
        if started is None:
            started = self._spawn(argv)
        if isinstance(started, CommandResult):
            return started
        return self._collect(*started, timeout)

    def start(self, argvs: Iterable[list[str]]) -> None:
        """Start these commands now, each on its own; the first run() of the same argv takes its answer (its
        timeout counts from then). For the commands detection will run and nothing else decides: app/cli.py
        starts the Python probes before the program's imports (issue 24)."""
        for argv in argvs:
            if argv and tuple(argv) not in self._started:
                self._started[tuple(argv)] = self._spawn(argv)

    def _spawn(self, argv: list[str]) -> CommandResult | tuple[subprocess.Popen, float]:
        exe = find_tool(argv[0])
        if not exe:
            return NOT_INSTALLED
        env = dict(os.environ, LC_ALL="C", LANG="C")
        start = time.monotonic()
        kwargs: dict[str, Any] = {}
        if self.platform == "windows":
            kwargs["creationflags"] = getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0) | getattr(subprocess, "CREATE_NO_WINDOW", 0)
        else:
            kwargs["start_new_session"] = True
        try:
            proc = subprocess.Popen([exe, *argv[1:]], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, env=env, **kwargs)
        except OSError as e:
            return CommandResult(rc=126, stderr=str(e), duration_s=time.monotonic() - start)
        return proc, start

    @staticmethod
    def _collect(proc: subprocess.Popen, start: float, timeout: float) -> CommandResult:
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            kill_process_group(proc)
            try:
                out, err = proc.communicate(timeout=2)
            except (subprocess.TimeoutExpired, ValueError):
                out, err = b"", b""
            return CommandResult(rc=124, stdout=decode_output(out), stderr=decode_output(err) + f"\n[timed out after {timeout:g} s]",
                                 timed_out=True, duration_s=time.monotonic() - start)
        return CommandResult(rc=proc.returncode, stdout=decode_output(out), stderr=decode_output(err),
                             duration_s=time.monotonic() - start)

    def getenv(self, name: str) -> Optional[str]:
        return os.environ.get(name)

    def which(self, name: str) -> Optional[str]:
        return find_tool(name)

    def nvml(self) -> Optional[dict[str, Any]]:
        if not self._nvml_done:
            reader = self._nvml_reader
            if reader is None:
                reader = read_nvml
            self._nvml_cache = reader()
            self._nvml_done = True
        return self._nvml_cache

    def disk_free_mib(self, path: str) -> Optional[int]:
        p = Path(path)
        while not p.exists() and p != p.parent:
            p = p.parent
        try:
            return shutil.disk_usage(p).free // (1024 * 1024)
        except OSError:
            return None

    def now(self) -> str:
        return _utc_now()


def kill_process_group(proc: subprocess.Popen) -> None:
    """SIGKILL the process and everything it started (its own process group: start it with
    start_new_session=True); on Windows, the process itself."""
    if proc.poll() is not None and not hasattr(os, "killpg"):
        return
    try:
        if hasattr(os, "killpg"):
            os.killpg(proc.pid, signal.SIGKILL)
        else:
            proc.kill()
    except (ProcessLookupError, PermissionError, OSError):
        try:
            proc.kill()
        except OSError:
            pass


class SnapshotSystem:
    """A recorded machine. Paths absent from the snapshot do not exist; commands absent are
    not installed (rc 127). Extension keys beyond format 1's: "which", "disk_free_mib"."""

    def __init__(self, data: dict[str, Any], name: str = "snapshot"):
        self.data = data
        self.name = name
        self.platform = data.get("platform") or "linux"
        self.files: dict[str, str] = data.get("files") or {}
        self.dirs: dict[str, list[str]] = data.get("dirs") or {}
        self.links: dict[str, str] = data.get("links") or {}
        self.env: dict[str, str] = data.get("env") or {}
        self.commands: dict[str, dict] = data.get("commands") or {}
        self._which: dict[str, Optional[str]] = data.get("which") or {}
        self._disk: dict[str, int] = data.get("disk_free_mib") or {}

    @classmethod
    def load(cls, path: str | os.PathLike) -> "SnapshotSystem":
        return cls(load_snapshot_data(path), name=Path(path).name)

    @property
    def created(self) -> Optional[str]:
        return self.data.get("created")

    def read_text(self, path: str) -> Optional[str]:
        v = self.files.get(path)
        return v if isinstance(v, str) else None

    def exists(self, path: str) -> bool:
        if path in self.files or path in self.dirs or path in self.links:
            return True
        parent, _, base = path.rstrip("/").rpartition("/")
        entries = self.dirs.get(parent or "/")
        return bool(entries and base in entries)

    def list_dir(self, path: str) -> Optional[list[str]]:
        v = self.dirs.get(path.rstrip("/") or "/")
        return sorted(v) if isinstance(v, list) else None

    def readlink(self, path: str) -> Optional[str]:
        return self.links.get(path)

    def run(self, argv: list[str], timeout: float = DEFAULT_TIMEOUT_S) -> CommandResult:
        rec = self.commands.get(command_key(argv))
        if not isinstance(rec, dict):
            return NOT_INSTALLED
        rc = rec.get("rc", 0)
        rc = rc if isinstance(rc, int) else 1
        return CommandResult(rc=rc, stdout=str(rec.get("stdout") or ""), stderr=str(rec.get("stderr") or ""),
                             timed_out=bool(rec.get("timed_out")) or rc == 124)

    def getenv(self, name: str) -> Optional[str]:
        v = self.env.get(name)
        return v if isinstance(v, str) else None

    def which(self, name: str) -> Optional[str]:
        if name in self._which:
            return self._which[name]
        for key in self.commands:
            first = key.split(" ", 1)[0]
            if first == name or first.endswith("/" + name) or first.endswith("\\" + name):
                return first if first != name else f"/usr/bin/{name}"
        return None

    def nvml(self) -> Optional[dict[str, Any]]:
        v = self.data.get("nvml")
        return v if isinstance(v, dict) else None

    def disk_free_mib(self, path: str) -> Optional[int]:
        p = path
        while True:
            if p in self._disk:
                v = self._disk[p]
                return v if isinstance(v, int) else None
            if p in ("/", ""):
                return None
            p = p.rsplit("/", 1)[0] or "/"

    def now(self) -> str:
        return self.created or _utc_now()


def read_utf8_file(path: str | os.PathLike, what: str, error: Optional[type[Exception]] = None) -> str:
    """A whole file as text for the loaders (snapshots, reports): a missing, unreadable or non-UTF-8
    file raises `error` (SnapshotError by default) with one clear line naming it as `what`."""
    err = error or SnapshotError
    p = Path(path)
    try:
        raw = p.read_bytes()
    except FileNotFoundError:
        raise err(f"{what} not found: {p}") from None
    except OSError as e:
        raise err(f"cannot read {what} {p}: {e.strerror or e}") from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise err(f"{p.name} is not a {what}: it is not UTF-8 text") from None


def load_snapshot_data(path: str | os.PathLike) -> dict[str, Any]:
    """Read and check a snapshot file; raise SnapshotError with one clear line."""
    p = Path(path)
    text = read_utf8_file(p, "snapshot")
    try:
        data = loads(text)
    except json.JSONDecodeError as e:
        cut = e.pos >= len(text.rstrip()) - 1 or e.msg.startswith("Unterminated string")
        what = e.msg if isinstance(e, JsonError) else "truncated" if cut else "not valid JSON"
        raise SnapshotError(f"{p.name} is not a usable snapshot: the JSON is {what} (line {e.lineno}, column {e.colno})") from None
    return validate_snapshot(data, p.name)


def validate_snapshot(data: Any, name: str = "snapshot") -> dict[str, Any]:
    if not isinstance(data, dict):
        raise SnapshotError(f"{name} is not a snapshot: expected a JSON object")
    fmt = data.get("format")
    report = fmt is None or (isinstance(fmt, str) and fmt.startswith("gpu-wizard-report/"))
    if report and isinstance(data.get("snapshot"), dict):  # a report's JSON embeds the user's snapshot
        return validate_snapshot(data["snapshot"], name)
    if not isinstance(fmt, str) or not fmt.startswith("gpu-wizard-snapshot/"):
        raise SnapshotError(f"{name} is not a gpu-wizard snapshot (format is {fmt!r}, expected {SNAPSHOT_FORMAT!r})")
    if fmt != SNAPSHOT_FORMAT:
        raise SnapshotError(f"{name} has snapshot format {fmt!r}; this wizard reads {SNAPSHOT_FORMAT!r}: update the wizard")
    for key, typ in (("files", dict), ("dirs", dict), ("links", dict), ("env", dict), ("commands", dict)):
        if key in data and data[key] is not None and not isinstance(data[key], typ):
            raise SnapshotError(f"{name}: key {key!r} must be an object")
    for k, v in (data.get("files") or {}).items():
        if not isinstance(v, str):
            raise SnapshotError(f"{name}: files[{k!r}] must be text")
    for k, v in (data.get("commands") or {}).items():
        if not isinstance(v, dict):
            raise SnapshotError(f"{name}: commands[{k!r}] must be an object with rc, stdout, stderr")
    if data.get("platform") not in (None, "linux", "windows"):
        raise SnapshotError(f"{name}: platform must be 'linux' or 'windows'")
    return data


class RecordingSystem:
    """Wraps a System and records every answer into snapshot format 1."""

    def __init__(self, inner: System):
        self.inner = inner
        self.platform = inner.platform
        self._lock = threading.Lock()
        self.files: dict[str, str] = {}
        self.dirs: dict[str, list[str]] = {}
        self.links: dict[str, str] = {}
        self.env: dict[str, str] = {}
        self.commands: dict[str, dict] = {}
        self.which_: dict[str, Optional[str]] = {}
        self.disk: dict[str, int] = {}
        self.nvml_data: Optional[dict] = None
        self._nvml_read = False

    def read_text(self, path: str) -> Optional[str]:
        v = self.inner.read_text(path)
        if v is not None:
            with self._lock:
                self.files[path] = v
        return v

    def exists(self, path: str) -> bool:
        v = self.inner.exists(path)
        if v:
            with self._lock:
                link = self.inner.readlink(path)
                if link is not None:
                    self.links[path] = link
                elif path not in self.files and path not in self.dirs:
                    entries = self.inner.list_dir(path)
                    if entries is not None:
                        self.dirs[path] = entries
                    else:
                        self.files.setdefault(path, "")
        return v

    def list_dir(self, path: str) -> Optional[list[str]]:
        v = self.inner.list_dir(path)
        if v is not None:
            with self._lock:
                self.dirs[path] = list(v)
        return v

    def readlink(self, path: str) -> Optional[str]:
        v = self.inner.readlink(path)
        if v is not None:
            with self._lock:
                self.links[path] = v
        return v

    def run(self, argv: list[str], timeout: float = DEFAULT_TIMEOUT_S) -> CommandResult:
        r = self.inner.run(argv, timeout)
        if r.rc != 127:
            rec = r.to_json()
            if r.timed_out:
                rec["timed_out"] = True
            with self._lock:
                self.commands[command_key(argv)] = rec
        return r

    def getenv(self, name: str) -> Optional[str]:
        v = self.inner.getenv(name)
        if v is not None:
            with self._lock:
                self.env[name] = v
        return v

    def which(self, name: str) -> Optional[str]:
        v = self.inner.which(name)
        with self._lock:
            self.which_[name] = v
        return v

    def nvml(self) -> Optional[dict[str, Any]]:
        v = self.inner.nvml()
        with self._lock:
            self.nvml_data = v
            self._nvml_read = True
        return v

    def disk_free_mib(self, path: str) -> Optional[int]:
        v = self.inner.disk_free_mib(path)
        if v is not None:
            with self._lock:
                self.disk[path] = v
        return v

    def now(self) -> str:
        return self.inner.now()

    def snapshot(self, note: str = "") -> dict[str, Any]:
        from app import __version__

        snap: dict[str, Any] = {
            "format": SNAPSHOT_FORMAT,
            "platform": self.platform,
            "created": self.inner.now(),
            "recorder": f"gpu-wizard {__version__}",
            "files": dict(sorted(self.files.items())),
            "dirs": dict(sorted(self.dirs.items())),
            "links": dict(sorted(self.links.items())),
            "env": dict(sorted(self.env.items())),
            "commands": dict(sorted(self.commands.items())),
            "nvml": self.nvml_data,
            "which": dict(sorted(self.which_.items())),
            "disk_free_mib": dict(sorted(self.disk.items())),
        }
        if note:
            snap["note"] = note
        return snap
