"""The page states are Qt-free (issue 24): tests/unit/page_states_cases.py runs every page's state in a process
where importing PySide6, shiboken6 or pyqtgraph fails, and none of them is loaded at the end. The block itself is
shown to bite (a page module, which is Qt, cannot be imported there)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
QT = ("PySide6", "shiboken6", "pyqtgraph")
CHILD = """
import json, sys, traceback
sys.path.insert(0, {root!r})


class NoQt:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {qt!r}:
            raise ImportError("blocked for this test: " + name)
        return None


sys.meta_path.insert(0, NoQt())
out = {{}}
try:
    import PySide6  # noqa: F401
    out["_block"] = "PySide6 imported"
except ImportError:
    out["_block"] = "ok"
try:
    import ui.pages.plan_page  # noqa: F401  a page is Qt: it must not load here
    out["_page"] = "a page module imported without Qt"
except ImportError as e:
    out["_page"] = "ok" if "blocked" in str(e) else str(e)
from tests.unit.page_states_cases import CASES
for name, case in CASES.items():
    try:
        case()
        out[name] = "ok"
    except Exception:
        out[name] = traceback.format_exc(limit=4)
out["_loaded"] = sorted(m for m in sys.modules if m.split(".")[0] in {qt!r})
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def results() -> dict:
    env = dict(os.environ, GPU_WIZARD_COMPAT_DIR=str(ROOT / "tests" / "fixtures" / "compat-pinned"), GPU_WIZARD_LIVE="0")
    env.pop("QT_QPA_PLATFORM", None)
    r = subprocess.run([sys.executable, "-c", CHILD.format(root=str(ROOT), qt=QT)], capture_output=True, text=True,
                       timeout=300, cwd=ROOT, env=env)
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


def test_qt_cannot_be_imported_in_the_child(results):
    assert results["_block"] == "ok" and results["_page"] == "ok"
    assert results["_loaded"] == []


@pytest.mark.parametrize("case", ["welcome", "system", "recommendation", "plan", "verify", "verify_strip", "summary", "troubleshoot", "session"])
def test_page_state_without_qt(results, case):
    assert results[case] == "ok", results[case]
