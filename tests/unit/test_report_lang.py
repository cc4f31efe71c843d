"""Reports in Simplified Chinese: `report --lang zh_CN` (or the locale) writes HTML and Markdown whose
labels and engine sentences (findings, reasons, warnings, steps, verdicts with their figures, the
diagnosis) are Chinese, with nothing of the engine's English left; English reports are unchanged."""
from __future__ import annotations

import ast
import html
import json
import re
from pathlib import Path

import pytest

from app import messages as M
from app.cli import main
from app.detect import detect
from app.paths import demo_snapshots
from app.report import build_report, render
from app.report.words import _PREFIX, label_key
from app.system import SnapshotSystem
from tests.unit.test_report_build import planted_session

CJK = re.compile(r"[\u4e00-\u9fff]")
ROOT = Path(__file__).resolve().parents[2]


def _pieces(tmp_path):
    from app.compat import load_db
    from app.diagnose import diagnose
    from app.plan import build_plan
    from app.recommend import recommend
    from app.verify.model import Verification
    from app.verify.session import rejudge

    snap = next(p for p in demo_snapshots() if "rtx3060" in p.name)
    facts = detect(SnapshotSystem(json.loads(snap.read_text(encoding="utf-8"))))
    rec = recommend(facts, load_db(use_user_bundle=False))
    plan = build_plan(facts, rec)
    ver = rejudge(Verification.loads((ROOT / "tests" / "fixtures" / "verify" / "h200_quick.json").read_text()))
    diag = diagnose((ROOT / "tests" / "fixtures" / "errors" / "cudnn_ops_infer8_whisper.txt").read_text(), None)
    return dict(facts=facts, recommendation=rec, plan=plan, verification=ver, diagnosis=diag, session=planted_session(tmp_path))


def _english_sentences(p) -> list[str]:
    f, r, pl, v, d = (x.to_json() for x in (p["facts"], p["recommendation"], p["plan"], p["verification"], p["diagnosis"]))
    out = [x["message"] for x in f["findings"]] + [x["hint"] for x in f["findings"] if x.get("hint")]
    out += [w["message"] for w in r["warnings"]] + [r[k]["reason"].strip() for k in ("pytorch", "driver", "cuda_toolkit", "cudnn") if r[k]["reason"]]
    out += [s["title"] for s in pl["steps"]] + [s["why"] for s in pl["steps"]]
    out += [layer["reason"] for layer in v["layers"]] + [d2 for layer in v["layers"] for d2 in layer["details"]]
    out += [m[k] for m in d["matches"] if m.get("root_cause_code") for k in ("root_cause", "fix")]
    return [s for s in out if s]


@pytest.mark.parametrize("fmt", ["html", "md"])
def test_a_chinese_report_says_everything_in_chinese(tmp_path, fmt):
    p = _pieces(tmp_path)
    zh = render(build_report(**p, lang="zh_CN", redact=False), fmt)
    text = html.unescape(re.sub(r"<script type='application/json'.*?</script>", "", zh, flags=re.S))  # the embedded data stays as it is
    assert len(CJK.findall(text)) > 500
    left = [s for s in _english_sentences(p) if s in text]
    assert left == []
    for h in ("机器", "推荐", "计划与执行情况", "验证", "诊断"):
        assert h in text, h
    assert "55.4 GB/s" in text and "88%" in text  # the measured figures, as measured
    if fmt == "html":
        assert "<html lang='zh-CN'>" in zh


@pytest.mark.parametrize("fmt", ["html", "md"])
def test_an_english_report_is_unchanged(tmp_path, fmt):
    p = _pieces(tmp_path)
    en = render(build_report(**p, created="2026-12-01T00:00:00+00:00", redact=False), fmt)
    assert not CJK.search(en)
    text = html.unescape(en)
    f, r, pl = p["facts"], p["recommendation"], p["plan"]
    shown = [x.message for x in f.findings] + [w.message for w in r.warnings] + [s.title for s in pl.steps] + \
        [layer.reason for layer in p["verification"].layers] + [m.root_cause for m in p["diagnosis"].matches]
    missing = [s for s in shown if s not in text]
    assert shown and missing == []


def test_every_report_label_has_both_languages():
    """Every _t("label") the report code uses (read from its source) is in the catalogue in both languages,
    with the same placeholders."""
    labels = set()
    for f in sorted((ROOT / "app" / "report").glob("*.py")):
        for n in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "_t" and n.args \
                    and isinstance(n.args[0], ast.Constant) and isinstance(n.args[0].value, str):
                body = _PREFIX.match(n.args[0].value).group(2)
                if body.strip():
                    labels.add(body)
    assert len(labels) > 150
    missing = [x for x in labels if not (M.has("report", label_key(x), "en") and M.has("report", label_key(x), "zh_CN"))]
    assert missing == []
    for x in labels:
        assert M.names(M.template("report." + label_key(x), "zh_CN")) == M.names(x), x


def test_report_command_takes_the_language(tmp_path, monkeypatch):
    snap = next(p for p in demo_snapshots() if "rtx3060" in p.name)
    for var in M.ENV_VARS:
        monkeypatch.delenv(var, raising=False)
    out = tmp_path / "r.md"
    assert main(["report", "-o", str(out), "--snapshot", str(snap), "--lang", "zh_CN"]) == 0
    assert "## 机器" in out.read_text(encoding="utf-8")
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    assert main(["report", "-o", str(out), "--snapshot", str(snap)]) == 0
    assert "## 机器" in out.read_text(encoding="utf-8")
    assert main(["report", "-o", str(out), "--snapshot", str(snap), "--lang", "en"]) == 0
    assert "## Machine" in out.read_text(encoding="utf-8")
