"""`--lang zh_CN` (and GPU_WIZARD_LANG / the locale) on every subcommand: the text output says the engine's
findings, reasons, warnings, steps, checks and diagnoses in Chinese with their figures, and none of the
engine's English sentences is left in it. English stays exactly as before."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from app import messages as M
from app.cli import main
from app.paths import demo_snapshots

CJK = re.compile(r"[\u4e00-\u9fff]")
ROOT = Path(__file__).resolve().parents[2]
VERIFY = ROOT / "tests" / "fixtures" / "verify"
ERRORS = ROOT / "tests" / "fixtures" / "errors"
SNAPS = demo_snapshots()


def _run(capsys, monkeypatch, argv, env=None):
    for var in M.ENV_VARS:
        monkeypatch.delenv(var, raising=False)
    for k, v in (env or {}).items():
        monkeypatch.setenv(k, v)
    rc = main(argv)
    out = capsys.readouterr().out
    return rc, out


def _json(capsys, monkeypatch, argv):
    rc, out = _run(capsys, monkeypatch, argv + ["--json"])
    assert rc in (0, 1), out
    return json.loads(out)


@pytest.mark.parametrize("snap", SNAPS, ids=[p.stem for p in SNAPS])
def test_detect_recommend_plan_install_in_chinese(capsys, monkeypatch, snap):
    s = ["--snapshot", str(snap)]
    facts = _json(capsys, monkeypatch, ["detect", *s])
    rec = _json(capsys, monkeypatch, ["recommend", *s])
    plan = _json(capsys, monkeypatch, ["plan", *s])

    _rc, out = _run(capsys, monkeypatch, ["detect", *s, "--lang", "zh_CN"])
    assert CJK.search(out)
    for f in facts["findings"]:
        assert f["message"] not in out, f["code"]
        assert M.render("finding", f["code"], f["params"], "zh_CN") in out
    for g in facts["gpus"]:
        assert g["name"] in out and (g.get("compute_capability") or "") in out

    _rc, out = _run(capsys, monkeypatch, ["recommend", *s, "--lang", "zh_CN"])
    for w in rec["warnings"]:
        assert w["message"] not in out, w["code"]
    for a in rec["alternatives"]:
        assert a["reason"] not in out, a["reason_code"]
    for part in ("pytorch", "driver", "cuda_toolkit", "cudnn"):
        if rec[part]["reason"]:
            assert rec[part]["reason"].strip() not in out, part
    if rec["pytorch"]["version"]:
        assert rec["pytorch"]["version"] in out and rec["pytorch"]["command"] in out  # the figures and the command as they are

    for argv in (["plan", *s], ["install", "--dry-run", *s]):
        _rc, out = _run(capsys, monkeypatch, argv + ["--lang", "zh_CN"])
        assert CJK.search(out)
        for w in plan["warnings"]:
            assert w not in out, (argv[0], w)
        for st in plan["steps"]:
            assert st["title"] not in out and st["why"] not in out, (argv[0], st["id"])
            for n in st["notes"]:
                assert n not in out, (argv[0], st["id"], n)
            assert M.render("plan", st["title_code"], st["params"], "zh_CN") in out


@pytest.mark.parametrize("argv", [["detect"], ["recommend"], ["plan"], ["install", "--dry-run"]])
def test_the_language_comes_from_the_flag_then_the_environment(capsys, monkeypatch, argv):
    s = ["--snapshot", str(SNAPS[0])]
    _rc, english = _run(capsys, monkeypatch, argv + s)
    assert not CJK.search(english)
    for env in ({"GPU_WIZARD_LANG": "zh_CN"}, {"LANG": "zh_CN.UTF-8"}, {"LC_ALL": "zh_CN.UTF-8", "LANG": "en_US.UTF-8"},
                {"LC_MESSAGES": "zh_CN.UTF-8"}):
        _rc, out = _run(capsys, monkeypatch, argv + s, env)
        assert CJK.search(out), env
    _rc, out = _run(capsys, monkeypatch, argv + s + ["--lang", "en"], {"LANG": "zh_CN.UTF-8"})
    assert out == english  # the flag wins
    _rc, out = _run(capsys, monkeypatch, argv + s, {"LC_ALL": "C", "LANG": "zh_CN.UTF-8"})
    assert out == english  # LC_ALL=C: English
    _rc, out = _run(capsys, monkeypatch, [argv[0], "--lang", "zh_CN", *argv[1:], *s])
    assert CJK.search(out)  # the global option before the subcommand works too


@pytest.mark.parametrize("name", ["h200_quick.json", "h200x2_quick.json"])
def test_verify_verdicts_in_chinese_keep_the_measured_figures(capsys, monkeypatch, name):
    v = _json(capsys, monkeypatch, ["verify", "--rejudge", str(VERIFY / name)])
    _rc, out = _run(capsys, monkeypatch, ["verify", "--rejudge", str(VERIFY / name), "--lang", "zh_CN"])
    assert out.count("\n") > 8 and CJK.search(out)
    for layer in v["layers"]:
        for c in layer["checks"]:
            assert c["message"] not in out, c["code"]
            for k, val in c["params"].items():  # 55.4 GB/s, 88%, 664.0 TFLOP/s ... as measured
                if re.search(r"\d", val) and val in c["message"]:
                    assert val in out, (c["code"], k, val)
        for d in layer["details"]:
            assert d not in out, d
    b = v["gpus"][0]["bandwidth"]
    assert f"{b['h2d_pinned_gbps']} GB/s" in out


def test_diagnose_in_chinese(capsys, monkeypatch):
    seen = 0
    for f in sorted(ERRORS.glob("*.txt"))[:25]:
        d = _json(capsys, monkeypatch, ["diagnose", "--no-detect", "--text-file", str(f)])
        _rc, out = _run(capsys, monkeypatch, ["diagnose", "--no-detect", "--text-file", str(f), "--lang", "zh_CN"])
        for m in d["matches"]:
            if m["root_cause_code"]:
                assert m["root_cause"] not in out and m["fix"] not in out, (f.name, m["rule"])
                assert "原因：" in out and "解决：" in out
                seen += 1
    assert seen > 10


def test_english_output_is_unchanged_by_the_catalogue(capsys, monkeypatch):
    """The English text is the engine's English: every sentence the JSON holds appears as it is."""
    s = ["--snapshot", str(next(p for p in SNAPS if "rtx3060" in p.name))]
    facts = _json(capsys, monkeypatch, ["detect", *s])
    _rc, out = _run(capsys, monkeypatch, ["detect", *s])
    assert all(f["message"] in out for f in facts["findings"]) and facts["findings"]
    plan = _json(capsys, monkeypatch, ["plan", *s])
    _rc, out = _run(capsys, monkeypatch, ["plan", *s])
    assert all(st["title"] in out for st in plan["steps"])
