"""The wizard's own password dialog as sudo's askpass program, and the window's end of it.

sudo -A runs SUDO_ASKPASS (one executable path) with the prompt as its one argument, once per try
(three tries), and reads the password from its stdout; an exit code other than 0 means "cancelled"
(sudo then says "no password was provided" and runs nothing). Our program is the bundle's own binary
in askpass mode (ASKPASS_ENV set) or, in a checkout, installers/helper/gpu-wizard-askpass; it is
ui/askpass.py, which asks the running window first, over a private socket, so the window's own
modal dialog asks and counts the tries ("that password was not accepted"); without a window
(`gpu-wizard install` started from a desktop, no terminal) it shows a dialog of its own.

The socket lives in a folder only this user can enter (0700, in XDG_RUNTIME_DIR or the temp folder);
the window answers only a peer of its own user id (SO_PEERCRED) and forgets each password once sent.
No password is ever logged, stored or put in an environment variable.

Qt-free: the window registers a `WindowPrompt` (ui/password_dialog.py); the engine only calls it.
"""
from __future__ import annotations

import json
import os
import shutil
import socket
import struct
import sys
import tempfile
import threading
from dataclasses import dataclass
from typing import Callable, Optional

from app import fileio

ASKPASS_ENV = "GPU_WIZARD_ASKPASS"  # set: the bundle's binary (or the checkout's script) is sudo's askpass
SOCKET_ENV = "GPU_WIZARD_ASKPASS_SOCKET"  # where the running window answers
PYTHON_ENV = "GPU_WIZARD_PYTHON"  # the checkout's script runs the window's own interpreter (as the user)
MAX_TRIES = 3  # sudo's passwd_tries default
_MAX_MSG = 1 << 16


@dataclass
class Answer:
    password: Optional[str]  # None: cancelled


@dataclass
class WindowPrompt:
    """The window's password dialog: `ask(prompt, attempt)` blocks (any thread) until the user
    answers; None is Cancel. `lang()` is the window's language (for the sentences said after)."""
    ask: Callable[[str, int], Optional[str]]
    lang: Callable[[], str] = lambda: "en"
    cancel_all: Callable[[], None] = lambda: None  # the run was cancelled: close an open dialog


_window: dict[str, Optional[WindowPrompt]] = {"prompt": None}


def set_window_prompt(prompt: Optional[WindowPrompt]) -> None:
    """The window is up (or gone, with None): root requests ask through its dialog."""
    _window["prompt"] = prompt


def window_prompt() -> Optional[WindowPrompt]:
    return _window["prompt"]


def askpass_program(frozen: Optional[bool] = None, executable: Optional[str] = None) -> tuple[str, dict[str, str]]:
    """SUDO_ASKPASS and the environment it needs: the bundle's own binary in askpass mode, else the
    checkout's small script, which runs this interpreter on ui/askpass.py (as the user, not root)."""
    frozen = getattr(sys, "frozen", False) if frozen is None else frozen
    executable = executable or sys.executable
    if frozen:
        return executable, {ASKPASS_ENV: "1"}
    here = os.path.dirname(os.path.abspath(__file__))
    script = os.path.join(os.path.dirname(os.path.dirname(here)), "installers", "helper", "gpu-wizard-askpass")
    return script, {ASKPASS_ENV: "1", PYTHON_ENV: executable}


def _private_dir() -> str:
    base = os.environ.get("XDG_RUNTIME_DIR")
    if not base or not os.path.isdir(base) or os.stat(base).st_uid != os.getuid():
        base = None
    return tempfile.mkdtemp(prefix="gpu-wizard-askpass-", dir=base)  # 0700, a new name


def _peer_uid(conn: socket.socket) -> Optional[int]:
    try:
        creds = conn.getsockopt(socket.SOL_SOCKET, getattr(socket, "SO_PEERCRED", 17), struct.calcsize("3i"))
        return struct.unpack("3i", creds)[1]
    except OSError:
        return None


def _read_line(conn: socket.socket) -> bytes:
    buf = b""
    while b"\n" not in buf and len(buf) < _MAX_MSG:
        b = conn.recv(4096)
        if not b:
            break
        buf += b
    return buf.split(b"\n", 1)[0]


class PromptServer:
    """The window's end: answers each askpass call with the dialog's answer, counting the tries of
    one sudo run. `cancelled` tells the wizard the user pressed Cancel (not a refusal of sudo's)."""

    def __init__(self, prompt: WindowPrompt):
        self.prompt = prompt
        self.dir = ""
        self.path = ""  # the socket, once started (nothing is made before sudo is about to ask)
        self.sock: Optional[socket.socket] = None
        self.attempts = 0
        self.cancelled = False
        self._closed = False
        self._thread: Optional[threading.Thread] = None

    def start(self) -> None:
        """A new sudo run begins: its tries count from one (the socket is made on the first start)."""
        self.attempts = 0
        self.cancelled = False
        if self.sock is None and not self._closed:
            self.dir = _private_dir()
            self.path = os.path.join(self.dir, "socket")
            self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            self.sock.bind(self.path)
            os.chmod(self.path, 0o600)
            self.sock.listen(4)
        if self._thread is None and self.sock is not None:
            self._thread = threading.Thread(target=self._serve, name="gpu-wizard-askpass", daemon=True)
            self._thread.start()

    def _serve(self) -> None:
        while self.sock is not None:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            with conn:
                self._answer(conn)

    def _answer(self, conn: socket.socket) -> None:
        if _peer_uid(conn) != os.getuid():
            return  # not this user's program: no answer at all
        try:
            req = fileio.loads(_read_line(conn) or b"{}")
            text = str(req.get("prompt") or "")[:500]
        except (ValueError, AttributeError, OSError):
            return
        self.attempts += 1
        try:
            password = None if self.cancelled else self.prompt.ask(text, self.attempts)
        except Exception:  # noqa: BLE001 - a dialog that failed is a cancel, never a hang
            password = None
        if password is None:
            self.cancelled = True
        msg = {"cancel": True} if password is None else {"password": password}
        try:
            conn.sendall(json.dumps(msg).encode("utf-8") + b"\n")
        except OSError:
            pass
        password = None
        msg.clear()

    def close(self) -> None:
        self._closed = True
        sock, self.sock = self.sock, None
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)  # wakes the accept() waiting in the server thread
            except OSError:
                pass
            try:
                sock.close()
            except OSError:
                pass
        if self.dir:
            shutil.rmtree(self.dir, ignore_errors=True)


def ask_window(socket_path: str, prompt: str, timeout_s: float = 3600.0) -> Optional[Answer]:
    """The askpass program's side: ask the running window. None when no window listens there (the
    program then shows a dialog of its own); Answer(None) when the user cancelled, or when the
    window went away while it asked (closing the wizard is no reason for a second dialog)."""
    try:
        st = os.lstat(os.path.dirname(socket_path))
        if st.st_uid != os.getuid() or st.st_mode & 0o077:
            return None  # not our private folder: never send a password question there
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(5)
        s.connect(socket_path)
    except OSError:
        return None
    with s:
        try:
            s.settimeout(timeout_s)
            s.sendall(json.dumps({"prompt": prompt}).encode("utf-8") + b"\n")
            reply = fileio.loads(_read_line(s) or b"{}")
        except (OSError, ValueError):
            return Answer(None)
    pw = reply.get("password") if isinstance(reply, dict) else None
    return Answer(pw) if isinstance(pw, str) else Answer(None)
