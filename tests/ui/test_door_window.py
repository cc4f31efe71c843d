"""The window's password dialog with real sudo: the real askpass program (the checkout's
installers/helper/gpu-wizard-askpass), started by real sudo for the real executor's first root
step, asks the running window over its private socket; the test answers the window's dialog with
qtbot: a wrong password once (the dialog says so and asks again), then the right one, and root
writes the step's files; Cancel runs nothing and says "You cancelled the password".

Each case runs tests/ui/door_window.py in a private namespace of its own (tests/realsudo.py), as a
user whose sudo asks for a password, on a pty (so the dialog is used even from a terminal)."""
from __future__ import annotations

import pytest

from tests import realsudo
from tests.realsudo import CHECKOUT, PASSWORD, run_door

pytestmark = realsudo.marks()


@pytest.mark.parametrize("case", ["test_wrong_password_once_then_right", "test_cancel_runs_nothing_and_says_so"])
def test_window_password_dialog_with_real_sudo(case):
    r = run_door({"argv": [f"{CHECKOUT}/.venv/bin/python", "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", "--color=no",
                           f"tests/ui/door_window.py::{case}"],
                  "cwd": CHECKOUT, "timeout_s": 180,
                  "env": {"DOOR_PASSWORD": PASSWORD, "QT_QPA_PLATFORM": "offscreen", "PYTHONDONTWRITEBYTECODE": "1"}})
    assert r["rc"] == 0, r["transcript"][-4000:]
    assert "1 passed" in r["transcript"] and PASSWORD not in r["transcript"]
    assert r["stopped"] == []
