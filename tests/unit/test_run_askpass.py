"""The window's end of sudo's askpass (app/run/askpass.py): tries counted per sudo run, Cancel
remembered, a private folder, and no answer for anyone but this user."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from app.run import askpass
from app.run.askpass import PromptServer, WindowPrompt, ask_window


def _server(answers):
    seen = []
    it = iter(answers)
    s = PromptServer(WindowPrompt(lambda prompt, n: seen.append((prompt, n)) or next(it)))
    s.start()
    return s, seen


def test_tries_are_counted_and_cancel_is_remembered():
    s, seen = _server(["wrong", "right", None])
    try:
        assert ask_window(s.path, "[sudo] password for a: ").password == "wrong"
        assert ask_window(s.path, "[sudo] password for a: ").password == "right"
        assert [n for _, n in seen] == [1, 2] and not s.cancelled
        s.start()  # a new sudo run: its tries count from one
        assert ask_window(s.path, "p").password is None and s.cancelled and seen[-1] == ("p", 1)
    finally:
        s.close()
    assert not os.path.exists(s.dir)  # nothing left behind


def test_the_folder_is_private_and_a_missing_window_is_no_answer(tmp_path):
    s, _ = _server(["x"])
    try:
        assert (os.stat(s.dir).st_mode & 0o777) == 0o700 and (os.stat(s.path).st_mode & 0o777) == 0o600
    finally:
        s.close()
    assert ask_window(s.path, "p") is None  # nobody listens: the program shows its own dialog
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o777)
    shared.chmod(0o777)
    assert ask_window(str(shared / "socket"), "p") is None  # never a password question into a shared folder


def test_a_window_that_fails_or_goes_away_is_a_cancel_not_a_second_dialog():
    def boom(prompt, n):
        raise RuntimeError("the dialog could not open")
    s = PromptServer(WindowPrompt(boom))
    s.start()
    try:
        assert ask_window(s.path, "p").password is None and s.cancelled
    finally:
        s.close()


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="acting as another user needs root")
def test_another_user_gets_no_answer():
    """Even with the folder opened up, a program of another user id is answered with nothing."""
    s, seen = _server(["secret"])
    try:
        os.chmod(s.dir, 0o755)
        os.chmod(s.path, 0o777)
        code = ("import socket, sys\nc = socket.socket(socket.AF_UNIX)\nc.connect(sys.argv[1])\ntry:\n"
                "    c.sendall(b'{\"prompt\": \"p\"}\\n')\n    print(repr(c.recv(100)))\n"
                "except OSError:\n    print(repr(b''))\n")
        py = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable  # stdlib only: any checkout
        r = subprocess.run([py, "-I", "-c", code, s.path], capture_output=True, text=True, timeout=30,
                           user=54321, group=54321, extra_groups=[])
        assert r.stdout.strip() == "b''" and seen == [], r.stderr
    finally:
        s.close()


def test_askpass_program_is_one_executable():
    prog, env = askpass.askpass_program(frozen=False)
    assert os.access(prog, os.X_OK) and prog.endswith("installers/helper/gpu-wizard-askpass")
    assert env[askpass.PYTHON_ENV] == sys.executable and env[askpass.ASKPASS_ENV] == "1"
    assert askpass.askpass_program(frozen=True, executable="/opt/gpu-wizard/gpu-wizard") == \
        ("/opt/gpu-wizard/gpu-wizard", {askpass.ASKPASS_ENV: "1"})
