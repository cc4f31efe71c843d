"""One run at a time changes this computer as administrator.

Two runs that both need root (two `install --yes`, each with its own new session; a window and a
terminal; two users) would each run their whole plan: two package managers, two edits of one file.
So root itself holds a machine-wide lock while it works for a run: the privileged helper from its
start to its end, or the wizard when it already runs as root, from its first root step to the end
of the run. The lock is an flock on /run/gpu-wizard/root.lock (root's folder, 0755; the file 0600,
never followed through a link), so it ends with the process that held it: a killed run leaves no
stale lock. A second run is told, in one line, who holds it (pid, user, command, since when)."""
from __future__ import annotations

import errno
import os
import stat
import sys
import threading
import time
from typing import Optional

LOCK_DIR = "/run/gpu-wizard" if os.path.isdir("/run") else "/var/run/gpu-wizard"
LOCK_NAME = "root.lock"
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


class MachineBusy(Exception):
    """Another run holds the machine lock; `holder` says who (pid, user, command, since when)."""

    def __init__(self, holder: str):
        super().__init__(f"another run is changing this computer as administrator ({holder})")
        self.holder = holder


class MachineLock:
    """One holder's share of this process's machine lock: the flock ends when the last share is
    released (or garbage collected), so a run that forgets close() cannot keep it for the process."""

    def __init__(self, fd: Optional[int], key: str = ""):
        self.fd = fd
        self._key = key

    def release(self) -> None:
        if self.fd is None:
            return
        self.fd = None
        with _HELD_GUARD:
            held = _HELD.get(self._key)
            if held is None:
                return
            held[1] -= 1
            if held[1] > 0:
                return
            del _HELD[self._key]
        try:
            os.close(held[0])  # closing the descriptor ends the flock
        except OSError:
            pass

    def __del__(self) -> None:
        self.release()


# The lock is between processes: a second acquire in the process that holds it shares it (an flock is
# per open file, so a second descriptor of this process would otherwise find its own process "busy").
_HELD: dict[str, list[int]] = {}  # lock folder -> [descriptor, shares]
_HELD_GUARD = threading.Lock()


def held_here() -> bool:
    """Whether this process holds the machine lock."""
    return bool(_HELD)


def _user() -> str:
    for k in ("SUDO_USER", "PKEXEC_UID_NAME"):
        if os.environ.get(k):
            return os.environ[k]
    uid = os.environ.get("PKEXEC_UID") or os.environ.get("SUDO_UID")
    try:
        import pwd

        return pwd.getpwuid(int(uid) if uid and uid.isdigit() else os.getuid()).pw_name
    except (ImportError, KeyError, ValueError):
        return uid or "root"


def _holder_text() -> str:
    cmd = " ".join(os.path.basename(a) if i == 0 else a for i, a in enumerate(sys.argv[:4]))[:120]
    return f"pid {os.getpid()}, user {_user()}, {cmd or 'gpu-wizard'}, since {time.strftime('%H:%M:%S')}"


def _lock_dir(path: str) -> int:
    """root's lock folder, made if missing; refused when it is a link or others can change it."""
    try:
        os.mkdir(path, 0o755)
    except FileExistsError:
        pass
    fd = os.open(path, os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC)
    st = os.fstat(fd)
    if st.st_uid != 0 or st.st_mode & 0o022 or not stat.S_ISDIR(st.st_mode):
        os.close(fd)
        raise OSError(errno.EPERM, f"{path} is not root's own folder; the machine lock is not taken there")
    return fd


def acquire(lock_dir: str = LOCK_DIR) -> MachineLock:
    """The machine lock (root only; without root, or without flock, a no-op lock). MachineBusy
    when another process holds it; within the process that holds it, one more share."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return MachineLock(None)
    try:
        import fcntl
    except ImportError:  # no flock here
        return MachineLock(None)
    with _HELD_GUARD:
        held = _HELD.get(lock_dir)
        if held is not None:
            held[1] += 1
            return MachineLock(held[0], lock_dir)
        fd = _take(lock_dir, fcntl)
        _HELD[lock_dir] = [fd, 1]
    return MachineLock(fd, lock_dir)


def _take(lock_dir: str, fcntl) -> int:
    dfd = _lock_dir(lock_dir)
    try:
        fd = os.open(LOCK_NAME, os.O_RDWR | os.O_CREAT | _NOFOLLOW | _CLOEXEC, 0o600, dir_fd=dfd)
    finally:
        os.close(dfd)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, f"{lock_dir}/{LOCK_NAME} is not a file")
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise MachineBusy(_holder(fd)) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, (_holder_text() + "\n").encode("utf-8", "replace"), 0)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _holder(fd: int, wait: float = 2.0) -> str:
    """Who holds the lock, in its own line. The holder writes that line right after it takes the lock, so a file
    still empty (or cut short) is read again for a moment before it is called a process that did not say."""
    deadline = time.monotonic() + wait
    while True:
        raw = os.pread(fd, 400, 0)
        if raw.endswith(b"\n") or len(raw) >= 400 or time.monotonic() >= deadline:
            return raw.decode("utf-8", "replace").strip() or "a process that did not say who it is"
        time.sleep(0.01)
