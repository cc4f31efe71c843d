"""An older recorded verification (its checks carry codes but not the figures of their sentences)
is said in 简体中文 too: the figures are derived again from the recorded measurements, kept only
where they give exactly the recorded English sentence; statuses stay as recorded. The recordings
are the real H200 ones (tests/fixtures/verify/SOURCE.md), none of which stored params."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from app.verify.model import Verification
from app.verify.session import with_params
from app.verify.verdicts import check_text, layer_reason

ROOT = Path(__file__).resolve().parents[2]
VERIFY = ROOT / "tests" / "fixtures" / "verify"
RECORDED = ("h200_quick.json", "h200_long.json", "h200x2_quick.json")
CJK = re.compile(r"[\u4e00-\u9fff]")
ENGLISH_WORDS = re.compile(r"\b(?:host-to-GPU|compute capability|matrix products|sees \d|samples under load|of pinned)\b")


def _load(name: str) -> Verification:
    return Verification.loads((VERIFY / name).read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", RECORDED)
def test_recorded_checks_get_their_figures_back(name):
    v = _load(name)
    assert all(not c.params for layer in v.layers for c in layer.checks)  # as recorded: no figures
    w = with_params(v)
    assert [(layer.name, layer.status, layer.reason) for layer in w.layers] == \
        [(layer.name, layer.status, layer.reason) for layer in v.layers]  # as recorded
    for old, new in zip(v.layers, w.layers):
        assert [(c.code, c.status, c.message) for c in new.checks] == [(c.code, c.status, c.message) for c in old.checks]
        for c in new.checks:
            assert c.params, c.code
            assert check_text(c, "en") == c.message
            zh = check_text(c, "zh_CN")
            assert CJK.search(zh) and not ENGLISH_WORDS.search(zh), zh
        zh_reason = layer_reason(new, "zh_CN")
        assert CJK.search(zh_reason) and not ENGLISH_WORDS.search(zh_reason), zh_reason
        assert ENGLISH_WORDS.search(layer_reason(old, "zh_CN"))  # before: English in a Chinese window


def test_a_sentence_the_rules_no_longer_say_stays_english_and_only_that_one():
    v = _load("h200_quick.json")
    layers = []
    for layer in v.layers:  # as if an older rule had worded (or judged) the pageable copy otherwise
        checks = tuple(c.replace(message=c.message.replace("14.3 GB/s", "14.9 GB/s")) if c.code == "pageable_slow" else c
                       for c in layer.checks)
        layers.append(layer.replace(checks=checks))
    w = with_params(v.replace(layers=tuple(layers)))
    checks = {c.code: c for layer in w.layers for c in layer.checks}
    assert not checks["pageable_slow"].params and check_text(checks["pageable_slow"], "zh_CN") == checks["pageable_slow"].message
    assert "14.9 GB/s" in checks["pageable_slow"].message  # never a figure the recording did not say
    assert all(c.params for code, c in checks.items() if code != "pageable_slow")


def test_nothing_to_derive_from_leaves_it_as_recorded():
    v = _load("h200_quick.json")
    bare = v.replace(gpus=())
    assert with_params(bare) is bare


@pytest.fixture(scope="module")
def h200_report(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("report") / "gpu-wizard-report.html"
    r = subprocess.run([sys.executable, "-m", "app", "report", "--snapshot", str(ROOT / "tests" / "fixtures" / "real" / "h200" / "snapshot-h200.json"),
                        "--verification", str(VERIFY / "h200_quick.json"), "-o", str(out)],
                       capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    return out


def test_walkthrough_verify_page_in_chinese_from_an_older_report(qtbot, tmp_path, h200_report):
    from ui.main import build_wizard
    from ui.wizard import Services

    w = build_wizard(snapshot=str(h200_report), lang="zh_CN", services=Services(state_dir=str(tmp_path / "state")))
    qtbot.addWidget(w)
    w.show()
    ver = w.pages["verify"]
    qtbot.waitUntil(lambda: ver.state.verification is not None, timeout=10000)
    texts = [ver.layers.item(i).text() for i in range(ver.layers.count())]
    assert len(texts) == 4
    for t in texts:
        assert CJK.search(t.split("\n", 1)[1]) and not ENGLISH_WORDS.search(t), t
    assert [layer.status for layer in ver.state.verification.layers] == \
        [layer["status"] for layer in json.loads((VERIFY / "h200_quick.json").read_text())["layers"]]  # as recorded


def test_report_of_an_older_verification_in_chinese(tmp_path):
    out = tmp_path / "r.md"
    r = subprocess.run([sys.executable, "-m", "app", "report", "--lang", "zh_CN", "--snapshot",
                        str(ROOT / "tests" / "fixtures" / "real" / "h200" / "snapshot-h200.json"),
                        "--verification", str(VERIFY / "h200_quick.json"), "-o", str(out)],
                       capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    rows = [ln for ln in out.read_text(encoding="utf-8").splitlines() if ln.startswith("| ") and ("通过" in ln or "警告" in ln)]
    assert len(rows) >= 4 and not any(ENGLISH_WORDS.search(ln) for ln in rows), rows
