"""`report --snapshot REPORT` (a report written on the user's machine, .json or .html) keeps the user's
recorded answer: the recommendation and facts it holds, never a new solve with today's data or indexes.
A plain snapshot is solved through app.pipeline, as `recommend` solves it."""
from __future__ import annotations

import json
from pathlib import Path

from app.cli import main

H200 = Path(__file__).resolve().parents[1] / "fixtures" / "real" / "h200" / "snapshot-h200.json"


def _report(tmp_path, src, name, *extra):
    out = tmp_path / name
    assert main(["report", "--snapshot", str(src), "-o", str(out), "--json", *extra]) == 0
    return out


def test_report_of_a_snapshot_is_the_recommend_answer(tmp_path, capsys):
    out = _report(tmp_path, H200, "first.json")
    capsys.readouterr()
    assert main(["recommend", "--snapshot", str(H200), "--json"]) == 0
    rec = json.loads(capsys.readouterr().out)
    data = json.loads(out.read_text(encoding="utf-8"))
    assert (data["recommendation"]["pytorch"]["version"], data["recommendation"]["pytorch"]["index"]) == \
        (rec["pytorch"]["version"], rec["pytorch"]["index"])


def test_report_of_a_recorded_report_keeps_the_recorded_answer(tmp_path, capsys):
    first = _report(tmp_path, H200, "first.json")
    data = json.loads(first.read_text(encoding="utf-8"))
    # what an older wizard told the user: a different release and build than today's solve gives
    rec = data["recommendation"]
    assert rec["pytorch"]["version"] != "2.12.1"
    rec["pytorch"].update(version="2.12.1", index="cu126")
    rec["summary"] = "PyTorch 2.12.1+cu126 (recorded)"
    recorded = tmp_path / "recorded.json"
    recorded.write_text(json.dumps(data), encoding="utf-8")
    again = json.loads(_report(tmp_path, recorded, "again.json").read_text(encoding="utf-8"))
    assert (again["recommendation"]["pytorch"]["version"], again["recommendation"]["pytorch"]["index"]) == ("2.12.1", "cu126")
    assert again["recommendation"]["summary"] == "PyTorch 2.12.1+cu126 (recorded)"
    assert again["facts"]["gpus"] == data["facts"]["gpus"]
    # --assume-* changes the machine: then it is solved again, as `recommend` would
    changed = json.loads(_report(tmp_path, recorded, "changed.json", "--assume-gpu", "RTX 4090").read_text(encoding="utf-8"))
    assert changed["recommendation"]["pytorch"]["version"] != "2.12.1"
