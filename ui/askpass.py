"""sudo's askpass program (SUDO_ASKPASS): the wizard's own password dialog, run by sudo as the user.

`main([prompt])` prints the password on stdout and returns 0, or returns 1 for Cancel (sudo then
runs nothing). It asks the running window first (GPU_WIZARD_ASKPASS_SOCKET: the window's modal
dialog counts the tries); when no window listens, it shows `PasswordDialog` itself and counts the
tries of one sudo run by its parent process (sudo calls it once per try). Started as the bundle's
own binary in askpass mode (installers/entry.py) or by installers/helper/gpu-wizard-askpass.
"""
from __future__ import annotations

import os
import sys
import tempfile
from typing import Optional

from app.run import askpass


def _tries_file() -> Optional[str]:
    """Where this sudo run's tries are counted: a private folder, one file per sudo process."""
    ppid = os.getppid()
    try:
        with open(f"/proc/{ppid}/stat") as fh:
            started = fh.read().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        started = "0"
    d = os.path.join(tempfile.gettempdir(), f"gpu-wizard-askpass-{os.getuid()}")
    try:
        os.mkdir(d, 0o700)
    except FileExistsError:
        pass
    except OSError:
        return None
    st = os.lstat(d)
    if st.st_uid != os.getuid() or st.st_mode & 0o077 or not os.path.isdir(d):
        return None
    return os.path.join(d, f"{ppid}-{started}")


def next_attempt() -> int:
    path = _tries_file()
    if path is None:
        return 1
    try:
        with open(path) as fh:
            n = int(fh.read().strip() or 0) + 1
    except (OSError, ValueError):
        n = 1
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
        with os.fdopen(fd, "w") as fh:
            fh.write(str(n))
    except OSError:
        pass
    return n


def ask_standalone(prompt: str, attempt: int) -> Optional[str]:
    from PySide6.QtCore import Qt

    from ui.i18n import Translator, system_language
    from ui.main import make_app
    from ui.password_dialog import PasswordDialog

    app = make_app()
    Translator(app).set_language(system_language())
    dlg = PasswordDialog(prompt, attempt)
    dlg.setWindowFlag(Qt.WindowType.WindowStaysOnTopHint, True)  # sudo's question comes first
    dlg.show()
    dlg.raise_()
    dlg.activateWindow()
    ok = dlg.exec() == PasswordDialog.DialogCode.Accepted
    return dlg.take_password() if ok else None


def main(argv: list[str]) -> int:
    prompt = argv[0] if argv else ""
    sock = os.environ.get(askpass.SOCKET_ENV)
    answer = askpass.ask_window(sock, prompt) if sock else None
    if answer is None:
        try:
            answer = askpass.Answer(ask_standalone(prompt, next_attempt()))
        except Exception as e:  # noqa: BLE001 - no display, no Qt: one line, and sudo runs nothing
            sys.stderr.write(f"gpu-wizard askpass: cannot show the password dialog: {e}\n")
            return 1
    if answer.password is None:
        return 1
    sys.stdout.write(answer.password + "\n")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
