"""The habits the tools keep (pyproject.toml; scripts/test.sh runs them before pytest): ruff is clean on
app/, ui/ and tests/, the import contracts hold (no Qt in app/, stages in order, base modules import no
stage), mypy is clean on app/ — and each one does fail on a planted fault."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def _tool(name: str) -> str:
    exe = BIN / name
    if not exe.exists():
        pytest.skip(f"{name} is not installed (it comes with the test extra: pip install -e .[test])")
    return str(exe)


def _copy(tmp_path: Path) -> Path:
    dst = tmp_path / "repo"
    shutil.copytree(ROOT / "app", dst / "app", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "ui", dst / "ui", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", dst / "pyproject.toml")
    return dst


def test_ruff_is_clean_and_catches_a_planted_fault(tmp_path):
    ruff = _tool("ruff")
    r = subprocess.run([ruff, "check", "-q", "app", "ui", "tests"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    bad = tmp_path / "bad.py"
    bad.write_text("import os\n\ndef f(x=[]):\n    return undefined_name\n")
    r = subprocess.run([ruff, "check", "--config", str(ROOT / "pyproject.toml"), str(bad)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 1 and "F401" in r.stdout and "F821" in r.stdout and "B006" in r.stdout


@pytest.mark.parametrize("planted, contract", [
    ("app/detect/zz_planted.py", "Stages in order"),  # detection importing the planner
    ("app/messages_planted.py", "never imports Qt"),
    ("app/choices_planted.py", None),
])
def test_import_contracts_hold_and_catch_a_planted_import(tmp_path, planted, contract):
    lint = _tool("lint-imports")
    r = subprocess.run([lint, "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and "0 broken" in r.stdout, r.stdout[-2000:]
    repo = _copy(tmp_path)
    if contract is None:  # a base module importing a stage
        text = (repo / "app" / "choices.py").read_text() + "\nfrom app.plan import build_plan  # noqa\n"
        (repo / "app" / "choices.py").write_text(text)
        contract = "base modules"
    else:
        (repo / planted).write_text("import app.plan\n" if "detect" in planted else "from PySide6 import QtCore\n")
    env = {"PYTHONPATH": str(repo), "PATH": "/usr/bin:/bin"}
    r = subprocess.run([lint, "--no-cache"], cwd=repo, capture_output=True, text=True, timeout=300, env=env)
    assert r.returncode == 1 and "BROKEN" in r.stdout, r.stdout[-2000:]
    broken = [ln for ln in r.stdout.splitlines() if " BROKEN" in ln]
    assert any(contract in ln for ln in broken), broken


def test_mypy_is_clean_and_catches_a_planted_type_error(tmp_path):
    mypy = _tool("mypy")
    r = subprocess.run([mypy], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-3000:]
    repo = _copy(tmp_path)
    (repo / "app" / "zz_planted.py").write_text("from app.facts import Gpu\n\n\ndef f() -> int:\n    return Gpu(index='0', name=1).index\n")
    r = subprocess.run([mypy, "--cache-dir", str(tmp_path / "cache"), "app/zz_planted.py"], cwd=repo, capture_output=True,
                       text=True, timeout=600)
    assert r.returncode == 1 and "zz_planted.py" in r.stdout and "arg-type" in r.stdout, r.stdout[-2000:]
