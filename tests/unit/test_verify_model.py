"""The Verification model: the JSON contract the GUI and the report read."""
import json
import subprocess
import sys
from pathlib import Path

from app.verify.model import LAYER_NAMES, Verification, worst

ROOT = Path(__file__).resolve().parents[2]
FIX = ROOT / "tests" / "fixtures" / "verify"


def _within(a, b) -> bool:
    """Is `a` contained in `b` (b may have extra keys with their defaults)?"""
    if isinstance(a, dict):
        return isinstance(b, dict) and all(k in b and _within(v, b[k]) for k, v in a.items()) and \
            all(b[k] in ({}, [], None, "") for k in set(b) - set(a))
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(_within(x, y) for x, y in zip(a, b))
    return a == b


def test_recorded_json_round_trips_exactly():
    for name in ("h200_quick.json", "h200_long.json"):
        raw = json.loads((FIX / name).read_text())
        v = Verification.from_json(raw)
        assert _within(raw, v.to_json()), name  # every recorded value kept; newer fields (Check.params) default
        assert Verification.from_json(v.to_json()) == v
        assert [x.name for x in v.layers] == list(LAYER_NAMES)
        assert v.format == "gpu-wizard-verification/1"


def test_unknown_keys_and_missing_ones_load():
    v = Verification.from_json({"layers": [{"name": "device", "status": "skip", "reason": "x", "future": 1}], "new_key": 2})
    assert v.layer("device").reason == "x" and v.layer("load") is None and v.status == "skip"


def test_worst_status():
    assert worst([]) == "skip" and worst(["pass", "skip"]) == "pass" and worst(["pass", "fail", "warn"]) == "fail"


def test_the_wizard_side_never_imports_torch():
    code = ("import sys, app.verify.session, app.verify.sampler, app.verify.runner, app.verify.verdicts, app.commands.verify; "
            "bad=[m for m in sys.modules if m.split('.')[0] in ('torch','PySide6') or m == 'app.verify.probe']; "
            "print(bad); sys.exit(1 if bad else 0)")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
