"""A real venv without pip (what `python3 -m venv` leaves on Debian/Ubuntu before pythonX.Y-venv is
installed) is not "done": the plan's create_venv step runs and repairs it in place, keeping what
was in it; a working venv is then done."""
from __future__ import annotations

import shutil
import subprocess
import sys
import venv as venv_mod

import pytest

from app.choices import Choices
from app.facts import Facts, OsInfo, PythonEnv
from app.plan import Plan, build_plan, is_done
from app.recommendation import Recommendation, TorchChoice
from app.run import Executor, Session
from app.system import LiveSystem

pytestmark = pytest.mark.integration


def _base_python() -> str:
    return getattr(sys, "_base_executable", None) or shutil.which("python3") or sys.executable


def test_a_venv_without_pip_is_repaired_in_place(tmp_path):
    base = _base_python()
    if subprocess.run([base, "-c", "import ensurepip, venv"], capture_output=True).returncode != 0:
        pytest.skip(f"{base} has no ensurepip here (Debian/Ubuntu: pythonX.Y-venv), so no venv can get pip")
    target = tmp_path / "venv"
    venv_mod.EnvBuilder(with_pip=False).create(target)  # the broken venv: a Python, no pip
    py = target / "bin" / "python"
    keep = target / "lib" / "keep-me.txt"
    keep.write_text("the user's own file\n")
    assert subprocess.run([str(py), "-m", "pip", "--version"], capture_output=True).returncode != 0

    facts = Facts(os=OsInfo(platform="linux", id="debian", version_id="12", package_manager="apt"),
                  python=PythonEnv(path=base, version=f"{sys.version_info[0]}.{sys.version_info[1]}", kind="system",
                                   venv_ok=True))
    rec = Recommendation(pytorch=TorchChoice(version="2.13.0", index="cpu", packages=("torch==2.13.0",)))
    full = build_plan(facts, rec, Choices(venv_path=str(target)))
    assert "install_python_venv" not in [s.id for s in full.steps]  # this Python can make venvs
    step = full.step("create_venv")
    live = LiveSystem()
    assert not is_done(step, live), "a venv whose pip does not run must not count as done"

    events = []
    result = Executor(Plan(steps=(step,)), Session.create(tmp_path / "sessions"), listener=events.append).run()
    assert result.status == "ok", result.message
    assert [e.status for e in events if e.type == "step_finished"] == ["ok"]
    r = subprocess.run([str(py), "-m", "pip", "--version"], capture_output=True, text=True)
    assert r.returncode == 0 and str(target) in r.stdout, r.stdout + r.stderr
    assert keep.read_text() == "the user's own file\n"
    assert is_done(step, live)
    # and the next run skips it
    events2 = []
    Executor(Plan(steps=(step,)), Session.create(tmp_path / "sessions"), listener=events2.append).run()
    assert [e.status for e in events2 if e.type == "step_finished"] == ["skipped"]
