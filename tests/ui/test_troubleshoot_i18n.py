"""Troubleshoot in Simplified Chinese: a match's root cause and fix are its rules.json template
(by Match.root_cause_code / fix_code) translated through the catalogue and filled with Match.params;
the engine's English stays as the tooltip, and is shown as it is in English or when a code is unknown."""
from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import QCoreApplication

from app import messages
from app.diagnose import diagnose as real_diagnose
from tests.ui.test_troubleshoot_page import _to_troubleshoot
from tests.unit.test_diagnose_i18n_codes import fill
from app.diagnose.engine import text_template
from ui.i18n import Translator, diag_text

ERRORS = Path(__file__).resolve().parents[1] / "fixtures" / "errors"
CJK = re.compile(r"[\u4e00-\u9fff]")
FIELD = re.compile(r"\{([a-z_]+)\}")


def test_every_rule_sentence_has_a_chinese_template_with_the_same_figures():
    from app import messages

    en = {k: v for k, v in messages.catalogue("en")["messages"].items() if k.startswith("diagnose.")}
    assert len(en) > 100
    for key, src in en.items():
        zh = messages.template(key, "zh_CN")
        assert zh and zh != src and CJK.search(zh), key
        assert set(FIELD.findall(zh)) == set(FIELD.findall(src)), key


def test_every_fixture_match_in_chinese_and_english(qapp):
    t = Translator(QCoreApplication.instance())
    seen = 0
    try:
        for f in sorted(ERRORS.glob("*.txt")):
            for m in real_diagnose(f.read_text(encoding="utf-8", errors="replace")).matches:
                for name, code, english in (("root_cause", m.root_cause_code, m.root_cause), ("fix", m.fix_code, m.fix)):
                    t.set_language("zh_CN")
                    said = diag_text(code, name, m.params, english)
                    assert code, (f.name, m.rule, name)
                    assert said != english and CJK.search(said), (f.name, code, said)
                    assert "{" not in FIELD.sub("", said.replace(english, "")) or "{" in english
                    from app import messages  # an OOM verdict's sentence is the catalogue's (app.diagnose.oom.TEXTS)

                    tmpl = messages.template(f"diagnose.{code}.{name}", "en") if code.startswith("oom.") else text_template(code, name)
                    for k in FIELD.findall(tmpl or ""):  # the figures appear as they are
                        assert m.params[k] in said, (f.name, code, k)
                    t.set_language("en")
                    assert diag_text(code, name, m.params, english) == english
                    seen += 1
    finally:
        t.set_language("en")
    assert seen > 100


def test_missing_code_or_figure_keeps_the_english(qapp):
    t = Translator(QCoreApplication.instance())
    try:
        assert t.set_language("zh_CN")
        assert diag_text("no_such_rule", "root_cause", {}, "English.") == "English."
        assert diag_text("", "fix", {}, "English.") == "English."
        assert diag_text("cudnn_lib_not_found", "root_cause", {}, "A library asked for cuDNN 8 ...") == "A library asked for cuDNN 8 ..."
        said = diag_text("cudnn_lib_not_found", "root_cause", {"major": "8"}, "x")
        assert "cuDNN 8" in said and CJK.search(said) and "{" not in said
    finally:
        t.set_language("en")


def _tooltips(doc) -> list[str]:
    out = []
    block = doc.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            frag = it.fragment()
            if frag.isValid() and frag.charFormat().toolTip():
                out.append(frag.charFormat().toolTip())
            it += 1
        block = block.next()
    return out


def test_troubleshoot_page_in_chinese_then_english(qtbot, make_wizard):
    w, _s, _r = make_wizard(lang="zh_CN", diagnose=real_diagnose)
    page = _to_troubleshoot(qtbot, w)
    page.input.setPlainText((ERRORS / "cudnn_ops_infer8_whisper.txt").read_text(encoding="utf-8", errors="replace"))
    page.diagnose()
    qtbot.waitUntil(lambda: page.state.diagnosis is not None, timeout=10000)
    m = page.state.diagnosis.matches[0]
    assert m.root_cause_code and m.params.get("major") == "8", (m.rule, m.params)
    shown = page.result.toPlainText()
    assert m.root_cause not in shown and m.fix not in shown
    zh = fill(messages.template(f"diagnose.{m.root_cause_code}.root_cause", "zh_CN"), m.params)
    assert CJK.search(zh) and zh in shown
    assert fill(messages.template(f"diagnose.{m.fix_code}.fix", "zh_CN"), m.params) in shown
    tips = _tooltips(page.result.document())
    assert m.root_cause in tips and m.fix in tips  # the engine's English, for reference
    w.set_language("en")
    qtbot.waitUntil(lambda: m.root_cause in page.result.toPlainText(), timeout=2000)
    assert m.fix in page.result.toPlainText() and not _tooltips(page.result.document())
