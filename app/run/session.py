"""One session folder per run: commands.log (time, argv, exit code, duration), output.log,
plan.json, facts.json, state.json (for resume), downloads/, backups/ (user-owned files)."""
from __future__ import annotations

import datetime as _dt
import json
import os
import re
import secrets
import threading
import time
from pathlib import Path
from typing import Any, Optional

from app.system import write_json_atomic

STATE_FORMAT = "gpu-wizard-state/1"
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
    return Path(base) / "gpu-wizard" / "sessions"


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="milliseconds")


class Session:
    def __init__(self, path: str | os.PathLike):
        self.dir = Path(path)
        self.name = self.dir.name
        self._lock = threading.Lock()
        self._out = None
        self._last_flush = 0.0

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
        write_json_atomic(self.dir / name, data)

    def read_json(self, name: str) -> Any:
        try:
            return json.loads((self.dir / name).read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            return None

    def log_command(self, step_id: str, argv: list[str], rc: Optional[int], duration_s: float, note: str = "") -> None:
        # argv as a JSON list: one line per command even when an argument holds a newline
        line = f"{_now()}\t{step_id}\trc={rc if rc is not None else '-'}\t{duration_s:.2f}s\t{redact(json.dumps(argv))}"
        if note:
            line += f"\t# {redact(note)}"
        with self._lock, open(self.dir / "commands.log", "a", encoding="utf-8") as fh:
            fh.write(line + "\n")

    def write_output(self, step_id: str, stream: str, text: str) -> None:
        with self._lock:
            if self._out is None:
                self._out = open(self.dir / "output.log", "a", encoding="utf-8", errors="replace")
            self._out.write(f"[{step_id}] {'! ' if stream == 'stderr' else ''}{redact(text)}\n")
            now = time.monotonic()
            if now - self._last_flush > 0.5:
                self._out.flush()
                self._last_flush = now

    def flush(self) -> None:
        with self._lock:
            if self._out is not None:
                self._out.flush()

    def close(self) -> None:
        with self._lock:
            if self._out is not None:
                self._out.close()
                self._out = None

    def load_state(self) -> dict:
        st = self.read_json("state.json")
        if not isinstance(st, dict) or st.get("format") != STATE_FORMAT:
            return {"format": STATE_FORMAT, "status": "new", "steps": {}, "reboot_pending": False, "boot_id": None}
        st.setdefault("steps", {})
        return st

    def save_state(self, state: dict) -> None:
        state["updated"] = _now()
        self.write_json("state.json", state)


def latest_unfinished(base: Optional[str | os.PathLike] = None) -> Optional[Session]:
    """The newest session whose plan did not finish (error, cancelled, reboot pending, interrupted)."""
    root = Path(base) if base else sessions_dir()
    if not root.is_dir():
        return None
    for p in sorted(root.iterdir(), reverse=True):
        if not (p / "plan.json").is_file():
            continue
        s = Session(p)
        st = s.load_state()
        if st.get("status") != "ok":
            return s
        return None  # the newest one finished: nothing to resume
    return None
