"""A real venv and a real `pip install torch==2.13.0` through the wizard's plan, executor and runner,
with the log streamed line by line; then a second run finds every install step done.

The CPU build of torch 2.13.0 comes from pip's own configuration when that gives it (a local wheel
in find-links), else from PyTorch's CPU index, as a user's plan would; where neither can be had
the test skips with the reason (tests/torch_cpu.py); never PyPI's multi-GB CUDA build."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from app.choices import Choices
from app.facts import Facts, OsInfo, PythonEnv
from app.plan import build_plan, is_done
from app.recommendation import Recommendation, TorchChoice
from app.run import Executor, Session
from app.system import LiveSystem
from tests.torch_cpu import TORCH, TORCH_VERSION, cpu_torch_source

pytestmark = pytest.mark.integration


def _base_python() -> str:
    # the interpreter the test venv was made from (a venv of a venv would work too, but this is what users have)
    return getattr(sys, "_base_executable", None) or shutil.which("python3") or sys.executable


def test_real_venv_and_pip_install_torch(tmp_path):
    extra, reason = cpu_torch_source()
    if extra is None:
        pytest.skip(reason)
    index_url = extra[extra.index("--index-url") + 1] if "--index-url" in extra else None
    venv = tmp_path / "venv"
    facts = Facts(os=OsInfo(platform="linux", id="debian", version_id="12", package_manager="apt"),
                  python=PythonEnv(path=_base_python(), version=f"{sys.version_info[0]}.{sys.version_info[1]}", kind="system"))
    rec = Recommendation(pytorch=TorchChoice(version=TORCH_VERSION, index="cpu", index_url=index_url,
                                             packages=(TORCH,)))
    plan = build_plan(facts, rec, Choices(venv_path=str(venv)))
    assert [s.id for s in plan.steps] == ["create_venv", "install_pytorch", "verify_pytorch"]
    live = LiveSystem()
    assert not any(is_done(s, live) for s in plan.steps)

    events = []
    session = Session.create(tmp_path / "sessions")
    result = Executor(plan, session, listener=events.append, facts_json=facts.to_json()).run()
    lines = [(e.step_id, e.stream, e.text) for e in events if e.type == "line"]
    assert result.status == "ok", (result.message, lines[-20:])
    # streamed while it ran, tagged by step and stream
    pip_lines = [t for sid, _, t in lines if sid == "install_pytorch"]
    assert any("torch-2.13.0" in t for t in pip_lines)
    assert any(t.startswith("Successfully installed") and "torch-2.13.0" in t for t in pip_lines)
    assert any(t.startswith("torch 2.13.0") for sid, _, t in lines if sid == "verify_pytorch")
    # pip's stages became progress
    assert any(e.type == "progress" and e.step_id == "install_pytorch" and e.fraction == 0.8 for e in events)
    order = [e.type for e in events]
    assert order[0] == "step_started" and order[-1] == "plan_finished"
    # the session folder
    cmds = (session.dir / "commands.log").read_text().splitlines()
    assert len(cmds) == 3 and all("\trc=0\t" in c for c in cmds)
    assert json.loads(cmds[1].split("\t")[4])[1:5] == ["-m", "pip", "install", "--disable-pip-version-check"]
    out = (session.dir / "output.log").read_text()
    assert "[install_pytorch] " in out and "Successfully installed" in out
    assert json.loads((session.dir / "plan.json").read_text())["steps"][1]["id"] == "install_pytorch"
    assert json.loads((session.dir / "facts.json").read_text())["python"]["path"] == _base_python()
    assert json.loads((session.dir / "state.json").read_text())["status"] == "ok"

    # the real thing is there
    r = subprocess.run([str(venv / "bin/python"), "-c", "import torch; print(torch.__version__)"], capture_output=True, text=True)
    assert r.stdout.startswith("2.13.0")

    # second run: create_venv and install_pytorch are done; only the check runs again
    assert is_done(plan.step("create_venv"), live) and is_done(plan.step("install_pytorch"), live)
    events2 = []
    r2 = Executor(plan, Session.create(tmp_path / "sessions"), listener=events2.append).run()
    assert r2.status == "ok"
    fin = {e.step_id: e.status for e in events2 if e.type == "step_finished"}
    assert fin == {"create_venv": "skipped", "install_pytorch": "skipped", "verify_pytorch": "ok"}
