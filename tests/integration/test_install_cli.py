"""`gpu-wizard install --yes --session DIR` end to end in a real process: live output, failure
exit code, resume of the half-finished session, --json summary, --undo."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from app.plan import Check, Edit, Plan, Step
from app.run import Session

pytestmark = pytest.mark.integration


def _cli(*args, env=None):
    return subprocess.run([sys.executable, "-m", "app", *args], capture_output=True, text=True, timeout=120, env=env)


def test_install_yes_fails_then_resumes_and_undoes(tmp_path):
    a, flag, home = tmp_path / "a", tmp_path / "flag", tmp_path / "home"
    home.mkdir()
    rc_file = home / ".bashrc"
    rc_file.write_text("export PATH=/usr/local/cuda-11.8/bin:$PATH\nalias x=y\n")
    plan = Plan(steps=(
        Step(id="create_a", kind="install_pytorch", title="Create a", why="t", commands=(("touch", str(a)),),
             done_when=(Check("path_exists", (str(a),)),)),
        Step(id="remove_stale_cuda_env", kind="cleanup_cuda", title="Clean rc", why="t", backups=(str(rc_file),),
             edits=(Edit(str(rc_file), mode="remove_lines", lines=("export PATH=/usr/local/cuda-11.8/bin:$PATH",), needs_root=False),)),
        Step(id="check_flag", kind="install_pytorch", title="Check the flag", why="t",
             commands=((sys.executable, "-c", "import os,sys; print('looking'); sys.exit(0 if os.path.exists(sys.argv[1]) else 5)", str(flag)),)),
    ))
    session = Session.create(tmp_path / "sessions")
    session.write_json("plan.json", plan.to_json())
    r = _cli("install", "--yes", "--session", str(session.dir))
    assert r.returncode == 1, r.stderr
    assert "==> [1/3] Create a" in r.stdout and "    looking" in r.stdout and "FAILED: python" in r.stdout
    assert "failed: Check the flag" in r.stdout and str(session.dir) in r.stdout
    assert rc_file.read_text() == "alias x=y\n"
    flag.touch()
    r = _cli("--json", "install", "--yes", "--session", str(session.dir))
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["status"] == "ok" and out["steps"]["check_flag"]["status"] == "ok"
    assert "Resuming the unfinished session" in r.stderr and "skipped: already done" in r.stderr
    r = _cli("--json", "install", "--undo", "--session", str(session.dir))
    assert r.returncode == 0 and json.loads(r.stdout)["restored"] == [str(rc_file)]
    assert rc_file.read_text() == "export PATH=/usr/local/cuda-11.8/bin:$PATH\nalias x=y\n"


def test_install_without_yes_refuses_on_a_pipe(tmp_path):
    session = Session.create(tmp_path / "sessions")
    session.write_json("plan.json", Plan(steps=(Step(id="create_a", kind="install_pytorch", title="a", why="t",
                                                     commands=(("true",),)),)).to_json())
    r = _cli("install", "--session", str(session.dir))
    assert r.returncode == 2 and "without --yes" in r.stderr
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "plan.json").write_text("{broken")
    r = _cli("install", "--yes", "--session", str(bad))
    assert r.returncode == 2 and "not a usable plan" in r.stderr and "Traceback" not in r.stderr
