"""The wizard's own password dialog: what the window shows when sudo asks (app/run/askpass.py).

`PasswordDialog` is one question: the password of this user, OK/Cancel (Enter is OK). From the
second try on it says the last password was not accepted (sudo allows three). The same dialog
serves the window (window-modal over it, through `install_password_prompt`) and the standalone
askpass program (ui/askpass.py) when no window runs. The password is never logged or kept: the
field is cleared once it was read. Words from the catalogue (cli.door_dialog_*), both languages.
"""
from __future__ import annotations

import getpass
import threading
from typing import Any, Optional

from PySide6.QtCore import QObject, Qt, QThread, Signal, Slot
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QLineEdit, QVBoxLayout, QWidget

from app import messages
from app.run import askpass
from ui.i18n import current_language


def say(key: str, **params: Any) -> str:
    return messages.cli(key, current_language(), **params)


def _user() -> str:
    try:
        return getpass.getuser()
    except (OSError, KeyError):
        return "?"


class PasswordDialog(QDialog):
    def __init__(self, prompt: str = "", attempt: int = 1, tries: int = askpass.MAX_TRIES,
                 parent: Optional[QWidget] = None):
        super().__init__(parent)
        self.setObjectName("password_dialog")
        self.setWindowTitle(say("door_dialog_title"))
        lay = QVBoxLayout(self)
        text = QLabel(say("door_dialog_text", user=_user()), self)
        text.setWordWrap(True)
        text.setTextFormat(Qt.TextFormat.PlainText)
        lay.addWidget(text)
        self.retry = QLabel(say("door_dialog_retry", attempt=str(attempt), tries=str(tries)), self)
        self.retry.setObjectName("password_retry")
        self.retry.setWordWrap(True)
        self.retry.setTextFormat(Qt.TextFormat.PlainText)
        self.retry.setStyleSheet("color: #b00020; font-weight: bold")
        self.retry.setVisible(attempt > 1)
        lay.addWidget(self.retry)
        self.field = QLineEdit(self)
        self.field.setObjectName("password_field")
        self.field.setEchoMode(QLineEdit.EchoMode.Password)
        self.field.setPlaceholderText(say("door_dialog_placeholder"))
        self.field.setAccessibleName(say("door_dialog_placeholder"))
        lay.addWidget(self.field)
        if prompt.strip():
            asked = QLabel(say("door_dialog_asked_by", prompt=prompt.strip()[:200]), self)
            asked.setTextFormat(Qt.TextFormat.PlainText)  # sudo's text is data, never markup
            asked.setStyleSheet("color: palette(mid)")
            lay.addWidget(asked)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setObjectName("password_ok")
        self.buttons.button(QDialogButtonBox.StandardButton.Cancel).setObjectName("password_cancel")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        lay.addWidget(self.buttons)
        self.setMinimumWidth(420)
        self.field.setFocus()

    def take_password(self) -> str:
        """The typed password, once: the field is emptied."""
        pw = self.field.text()
        self.field.clear()
        return pw


class _Asker(QObject):
    """Lives in the window's thread; opens the dialog there for a question from any thread."""

    asked = Signal(str, int, object)

    def __init__(self, window: QWidget):
        super().__init__(window)
        self.window = window
        self.dialog: Optional[PasswordDialog] = None
        self.asked.connect(self._show)

    @Slot(str, int, object)
    def _show(self, prompt: str, attempt: int, box: dict) -> None:
        dlg = PasswordDialog(prompt, attempt, parent=self.window)
        dlg.setWindowModality(Qt.WindowModality.WindowModal)
        self.dialog = dlg

        def done(result: int) -> None:
            box["answer"] = dlg.take_password() if result == QDialog.DialogCode.Accepted else None
            box["event"].set()
            self.dialog = None
            dlg.deleteLater()
        dlg.finished.connect(done)
        dlg.destroyed.connect(lambda *_: box["event"].set())  # the window went away: a cancel
        dlg.open()

    def ask(self, prompt: str, attempt: int) -> Optional[str]:
        box: dict = {"event": threading.Event(), "answer": None}
        if QThread.currentThread() is self.thread():  # never block the window's own thread waiting for itself
            dlg = PasswordDialog(prompt, attempt, parent=self.window)
            return dlg.take_password() if dlg.exec() == QDialog.DialogCode.Accepted else None
        self.asked.emit(prompt, attempt, box)
        box["event"].wait()
        return box["answer"]

    def cancel_open(self) -> None:
        if self.dialog is not None:
            self.dialog.reject()


def install_password_prompt(window: QWidget) -> _Asker:
    """From now on root steps of this window ask through its own dialog (unless polkit asks)."""
    asker = _Asker(window)
    askpass.set_window_prompt(askpass.WindowPrompt(asker.ask, current_language, asker.cancel_open))
    window.destroyed.connect(lambda *_: askpass.set_window_prompt(None))
    window._password_asker = asker  # type: ignore[attr-defined]  # tests find the open dialog here
    return asker
