"""`gpu-wizard verify` without --python checks the venv holding the PyTorch the wizard installed,
not the wizard's own interpreter: the newest session's plan, else the default venv, else itself."""
import json
import os
import sys
import venv

from app.verify.runner import default_python, target_python


def _session(base, name, argv, mtime):
    d = base / name
    d.mkdir(parents=True)
    (d / "plan.json").write_text(json.dumps({"steps": [{"id": "create_venv", "kind": "create_venv", "commands": [["python3", "-m", "venv", "x"]]},
                                                       {"id": "install_pytorch", "kind": "install_pytorch", "commands": [argv]}]}))
    os.utime(d, (mtime, mtime))


def test_newest_session_wins_then_default_venv_then_self(tmp_path, monkeypatch):
    monkeypatch.delenv("GPU_WIZARD_SESSIONS", raising=False)
    old, new = tmp_path / "old", tmp_path / "new"
    for v in (old, new):
        venv.EnvBuilder(with_pip=False).create(v)
    sessions = tmp_path / "sessions"
    _session(sessions, "s1", [str(old / "bin/python"), "-m", "pip", "install", "torch==2.13.0"], 1_000_000)
    _session(sessions, "s2", ["/usr/bin/uv", "pip", "install", "--python", str(new / "bin/python"), "torch"], 2_000_000)
    (sessions / "broken").mkdir()
    (sessions / "broken" / "plan.json").write_text("{ not json")
    py, where = target_python(str(sessions), default_venv=str(tmp_path / "none"))
    assert py == str(new / "bin/python") and "s2" in where
    # a session whose venv is gone is passed over
    _session(sessions, "s3", [str(tmp_path / "gone/bin/python"), "-m", "pip", "install", "torch"], 3_000_000)
    assert target_python(str(sessions), default_venv=str(tmp_path / "none"))[0] == str(new / "bin/python")
    # no session: the plan's default venv when it exists
    assert target_python(str(tmp_path / "nosessions"), default_venv=str(old))[0] == str(old / "bin/python")
    # nothing: this interpreter
    assert target_python(str(tmp_path / "nosessions"), default_venv=str(tmp_path / "none"))[0] == default_python() == sys.executable
