""""Copy commands" gives text that runs as pasted into a terminal: the downloads are fetched and
checked before a command uses them (a local HTTP server here), `set -e` and `exit` stay inside
(the user's shell survives a failing step), and a Windows plan is PowerShell with no `sudo`."""
from __future__ import annotations

import hashlib
import http.server
import shutil
import subprocess
import threading
from functools import partial

import pytest
from PySide6.QtGui import QGuiApplication

from app.plan.model import Download, Plan, Step


@pytest.fixture
def server(tmp_path):
    root = tmp_path / "www"
    root.mkdir()
    (root / "driver.run").write_bytes(b"#!/bin/sh\necho installer-ran\n")
    handler = partial(http.server.SimpleHTTPRequestHandler, directory=str(root))
    handler.log_message = lambda *a, **k: None
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    t = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    t.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}", root
    httpd.shutdown()
    t.join(5)


def _plan(url: str, sha: str, out) -> Plan:
    return Plan(platform="linux", steps=(
        Step(id="fetch_and_run", title="Run the downloaded installer", why="test", kind="run_runfile",
             downloads=(Download(name="driver.run", url=url + "/driver.run", sha256=sha),),
             commands=(("sh", "@download:driver.run"), ("sh", "-c", f"echo second >> {out}"))),
        Step(id="later", title="Later step", why="test", kind="verify", commands=(("sh", "-c", f"echo third >> {out}"),)),
    ))


@pytest.mark.skipif(not shutil.which("curl"), reason="the exported script downloads with curl; not installed here")
def test_copied_commands_run_as_pasted_with_their_downloads(qtbot, make_wizard, server, tmp_path):
    url, root = server
    out = tmp_path / "out.txt"
    sha = hashlib.sha256((root / "driver.run").read_bytes()).hexdigest()
    w, _s, _r = make_wizard(plan=_plan(url, sha, out))
    for _ in range(3):
        qtbot.waitUntil(lambda: w.button(w.WizardButton.NextButton).isEnabled(), timeout=5000)
        w.next()
    page = w.pages["plan"]
    qtbot.waitUntil(lambda: page.state.plan is not None, timeout=5000)
    page.copy_commands()
    text = QGuiApplication.clipboard().text()
    assert "@download:" not in text and not any(ln.startswith(("sudo ", '"${SUDO[@]}"')) for ln in text.splitlines())
    assert text.index("fetch driver.run") < text.index('sh "$DL"/driver.run')  # fetched and checked first
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "GPU_WIZARD_DOWNLOADS": str(tmp_path / "dl")}
    # pasted into an interactive shell: the shell reads the text as typed lines, then goes on
    r = subprocess.run(["bash", "--norc", "-i"], input=text + "echo shell-still-here\n", capture_output=True, text=True,
                       env=env, timeout=60, cwd=tmp_path)
    assert "installer-ran" in r.stdout and "All steps finished." in r.stdout, r.stdout + r.stderr
    assert out.read_text().split() == ["second", "third"]
    assert "shell-still-here" in r.stdout
    # a checksum that does not match: nothing runs it, and the user's shell is still there
    out.unlink()
    w.session.plan = page.state.plan = _plan(url, "0" * 64, out)
    r = subprocess.run(["bash", "--norc", "-i"], input=page.state.all_commands() + "echo shell-still-here\n",
                       capture_output=True, text=True, env=env, timeout=60, cwd=tmp_path)
    assert "installer-ran" not in r.stdout and "checksum mismatch" in r.stderr and not out.exists()
    assert "shell-still-here" in r.stdout


def test_windows_steps_copy_as_powershell_without_sudo(qtbot, make_wizard):
    plan = Plan(platform="windows", steps=(
        Step(id="enable_wsl_features", title="Turn on WSL", why="test", kind="windows_feature", needs_root=True,
             commands=(("dism.exe", "/online", "/enable-feature", "/featurename:VirtualMachinePlatform", "/all", "/norestart"),),
             ok_exit_codes=(0, 3010)),))
    w, _s, _r = make_wizard(plan=plan)
    for _ in range(3):
        qtbot.waitUntil(lambda: w.button(w.WizardButton.NextButton).isEnabled(), timeout=5000)
        w.next()
    page = w.pages["plan"]
    qtbot.waitUntil(lambda: page.state.plan is not None, timeout=5000)
    text = page.state.all_commands()
    assert text.startswith("powershell.exe") and "sudo" not in text and "dism.exe" in text
    detail = page.detail.toPlainText()
    assert "sudo" not in detail and "dism.exe" in detail
