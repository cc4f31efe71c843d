"""The live-index cache: a folder of JSON entries (one per URL), trusted only as far as its owner.

- The folder is opened once (no link followed) and used through its descriptor; it must belong to the
  current user (or be a root-owned sticky folder such as /tmp) and be writable by no one else unless sticky.
  Root never uses a folder under a user's home (`sudo -E` keeps HOME): root's cache is
  /var/cache/gpu-wizard/index (created root-owned, 0700, every parent root-owned), or none.
- An entry is read only when it is a regular file owned by the current user and writable by no one
  else; anything else (another user's file in a shared folder, a link, a FIFO) is not there.
- Entries are written under a random exclusive name (O_EXCL|O_NOFOLLOW), fsynced, and renamed into place
  inside that folder: never through a link, never half a file. A write that fails only costs a request.
- A `fetched` time in the future is stale (a clock cannot have read it yet).
"""
from __future__ import annotations

import os
import stat
import threading
from pathlib import Path
from typing import Any, Mapping, Optional

from app import fileio

ROOT_CACHE = "/var/cache/gpu-wizard/index"
MAX_ENTRY = 48 << 20
CLOCK_SKEW_S = 120.0  # a `fetched` time further in the future than this is stale
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)


def euid() -> Optional[int]:
    return os.geteuid() if hasattr(os, "geteuid") else None


def default_dir(env: Optional[Mapping[str, str]] = None) -> Optional[Path]:
    """Where this user's cache lives: $GPU_WIZARD_CACHE_DIR, else the user cache folder; root: ROOT_CACHE."""
    env = os.environ if env is None else env
    if env.get("GPU_WIZARD_CACHE_DIR"):
        return Path(env["GPU_WIZARD_CACHE_DIR"])
    if euid() == 0:
        return Path(ROOT_CACHE)
    if os.name == "nt" and env.get("LOCALAPPDATA"):
        return Path(env["LOCALAPPDATA"]) / "gpu-wizard" / "cache" / "index"
    return Path(env.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "gpu-wizard" / "index"


def _folder_ok(st: os.stat_result, me: Optional[int]) -> bool:
    if not stat.S_ISDIR(st.st_mode):
        return False
    if me is None:  # Windows: no owners to compare here (the folder is under the user's profile)
        return True
    if st.st_uid == me:
        return not (st.st_mode & 0o022) or bool(st.st_mode & stat.S_ISVTX)
    return st.st_uid == 0 and bool(st.st_mode & stat.S_ISVTX)  # /tmp-like: entries are checked one by one


def _entry_ok(st: os.stat_result, me: Optional[int]) -> bool:
    if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_ENTRY:
        return False
    return me is None or (st.st_uid == me and not st.st_mode & 0o022)


def _root_parents_ok(path: Path) -> bool:
    """Every folder above root's cache is root-owned and writable by no one else (or sticky)."""
    for p in list(path.parents)[::-1]:
        try:
            st = os.lstat(p)
        except OSError:
            return False
        if stat.S_ISLNK(st.st_mode):
            st = os.stat(p)  # /var/cache may be a link on some systems: its target must be root's too
        if st.st_uid != 0 or (st.st_mode & 0o022 and not st.st_mode & stat.S_ISVTX):
            return False
    return True


class IndexCache:
    """One cache folder; `read`/`write` JSON documents by key. Unusable folder: every read misses."""

    def __init__(self, path: Optional[Path]):
        self.path = Path(path) if path else None
        self.problem: Optional[str] = None
        self._dfd: Optional[int] = None
        self._opened = False
        self._lock = threading.Lock()

    def _dir(self) -> Optional[int]:
        with self._lock:
            if not self._opened:
                self._dfd = self._open_dir()
                self._opened = True
            return self._dfd

    def _open_dir(self) -> Optional[int]:
        if self.path is None:
            return None
        me = euid()
        try:
            if not os.path.lexists(self.path):
                self.path.mkdir(parents=True, mode=0o700)
            if me == 0 and not _root_parents_ok(self.path):
                self.problem = f"{self.path}: a folder above it is not root's alone; no cache is used"
                return None
            if not os.supports_dir_fd >= {os.open, os.rename, os.unlink} or os.name == "nt":
                return None  # no descriptor-relative calls here: path-based, see _open_path
            fd = os.open(self.path, os.O_RDONLY | _DIRECTORY | _NOFOLLOW)
        except OSError as e:
            self.problem = f"{self.path}: {e.strerror or e}"
            return None
        st = os.fstat(fd)
        if not _folder_ok(st, me):
            os.close(fd)
            self.problem = f"{self.path} belongs to someone else or others can write it; no cache is used"
            return None
        return fd

    def usable(self) -> bool:
        return self._dir() is not None or (self.path is not None and os.name == "nt" and self.problem is None)

    def close(self) -> None:
        if self._dfd is not None:
            os.close(self._dfd)
            self._dfd = None

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001 - interpreter shutdown
            pass

    def read(self, key: str) -> Optional[dict[str, Any]]:
        dfd = self._dir()
        try:
            if dfd is not None:
                fd = os.open(key, os.O_RDONLY | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0), dir_fd=dfd)
            elif self.path is not None and os.name == "nt" and self.problem is None:
                fd = os.open(self.path / key, os.O_RDONLY | getattr(os, "O_BINARY", 0))
            else:
                return None
        except OSError:
            return None
        try:
            st = os.fstat(fd)
            if not _entry_ok(st, euid()):
                return None
            with os.fdopen(fd, "rb", closefd=False) as fh:
                raw = fh.read(MAX_ENTRY + 1)
        except OSError:
            return None
        finally:
            os.close(fd)
        try:
            doc = fileio.loads(raw.decode("utf-8"))
        except (ValueError, UnicodeDecodeError):
            return None
        return doc if isinstance(doc, dict) else None

    def write(self, key: str, doc: dict[str, Any]) -> bool:
        dfd = self._dir()
        if dfd is None and not (self.path is not None and os.name == "nt" and self.problem is None):
            return False
        try:  # app.fileio: random O_EXCL|O_NOFOLLOW name in this very folder, fsync, rename
            if dfd is not None:
                fileio.write_json_atomic("", doc, indent=None, mode=0o600, keep_mode=False, dir_fd=dfd, name=key)
            else:
                fileio.write_json_atomic(self.path / key, doc, indent=None, mode=0o600, keep_mode=False)  # type: ignore[operator]
            return True
        except OSError:
            return False

    def remove(self, key: str) -> None:
        dfd = self._dir()
        try:
            if dfd is not None:
                os.unlink(key, dir_fd=dfd)
            elif self.path is not None and os.name == "nt":
                os.unlink(self.path / key)
        except OSError:
            pass
