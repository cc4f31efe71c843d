"""Run by tests/ui/test_door_window.py inside tests/realsudo.py's namespace, as the password user
(never collected on its own: its name is not test_*.py). The real window's password dialog,
answered with qtbot, for real sudo started by the real executor: the askpass program sudo runs
is the checkout's installers/helper/gpu-wizard-askpass, which asks this window over its socket."""
from __future__ import annotations

import os
import threading

import pytest
from PySide6.QtCore import Qt

from app.plan import Plan, Step
from app.plan.common import LDCONF_FILE, PROFILE_FILE
from app.plan.env import LDCONF_CONTENT, PROFILE_CONTENT
from app.plan.model import Edit
from app.run import Executor, Session

PASSWORD = os.environ.get("DOOR_PASSWORD", "")


def env_plan() -> Plan:
    return Plan(steps=(Step(id="write_cuda_env", kind="write_env", title="Set CUDA_HOME", why="t", needs_root=True,
                            edits=(Edit(PROFILE_FILE, content=PROFILE_CONTENT), Edit(LDCONF_FILE, content=LDCONF_CONTENT)),
                            backups=(PROFILE_FILE, LDCONF_FILE), commands=(("ldconfig",),)),))


@pytest.fixture
def window(qtbot):
    from PySide6.QtWidgets import QMainWindow

    from ui.password_dialog import install_password_prompt

    w = QMainWindow()
    qtbot.addWidget(w)
    w.show()
    install_password_prompt(w)
    return w


def _run_in_background(tmp_path):
    out: dict = {}
    session = Session.create(tmp_path / "sessions")

    def go():
        out["ex"] = ex = Executor(env_plan(), session)
        out["result"] = ex.run()  # the executor picks the privilege itself: sudo with the window's dialog
    t = threading.Thread(target=go, daemon=True)
    t.start()
    return t, out


def _dialog(qtbot, window, timeout=60000):
    qtbot.waitUntil(lambda: window._password_asker.dialog is not None and window._password_asker.dialog.isVisible(),
                    timeout=timeout)
    return window._password_asker.dialog


def _type_and_ok(qtbot, dlg, text: str, enter: bool = False) -> None:
    qtbot.keyClicks(dlg.field, text)
    if enter:
        qtbot.keyClick(dlg.field, Qt.Key.Key_Return)
    else:
        qtbot.mouseClick(dlg.buttons.button(dlg.buttons.StandardButton.Ok), Qt.MouseButton.LeftButton)


def test_wrong_password_once_then_right(qtbot, window, tmp_path):
    t, out = _run_in_background(tmp_path)
    first = _dialog(qtbot, window)
    door = out["ex"]._privilege
    assert door.how == "sudo (password dialog)" and door.launcher[:3] == ["sudo", "-A", "--"]
    assert door.env["SUDO_ASKPASS"].endswith("installers/helper/gpu-wizard-askpass") and door.launcher[3] == "/usr/bin/python3"
    assert not first.retry.isVisible() and first.windowModality() == Qt.WindowModality.WindowModal
    _type_and_ok(qtbot, first, "not-the-password")
    qtbot.waitUntil(lambda: window._password_asker.dialog is not first, timeout=30000)
    second = _dialog(qtbot, window)
    assert second.retry.isVisible() and "try 2 of 3" in second.retry.text()
    _type_and_ok(qtbot, second, PASSWORD, enter=True)
    qtbot.waitUntil(lambda: not t.is_alive(), timeout=60000)
    r = out["result"]
    assert r.status == "ok", r.message
    assert os.stat(PROFILE_FILE).st_uid == 0 and "export CUDA_HOME=" in open(PROFILE_FILE).read()


def test_cancel_runs_nothing_and_says_so(qtbot, window, tmp_path):
    t, out = _run_in_background(tmp_path)
    dlg = _dialog(qtbot, window)
    qtbot.mouseClick(dlg.buttons.button(dlg.buttons.StandardButton.Cancel), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not t.is_alive(), timeout=60000)
    r = out["result"]
    assert r.status == "cancelled" and "You cancelled the password" in r.message
    assert not os.path.exists(PROFILE_FILE) and not os.path.exists(LDCONF_FILE)  # nothing half-done
