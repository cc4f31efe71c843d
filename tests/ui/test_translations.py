"""Both languages load and the Simplified Chinese catalogue covers every string in ui/."""
from __future__ import annotations

import importlib.util
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QTranslator
from PySide6.QtWidgets import QAbstractButton, QGroupBox, QLabel, QWizard

ROOT = Path(__file__).resolve().parents[2]
TS = ROOT / "resources" / "translations" / "gpu_wizard_zh_CN.ts"
QM = ROOT / "resources" / "translations" / "gpu_wizard_zh_CN.qm"


def _update_ts():
    spec = importlib.util.spec_from_file_location("update_ts", ROOT / "resources" / "translations" / "update_ts.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_every_tr_string_has_a_chinese_translation_in_the_ts():
    strings = _update_ts().extract()
    assert len(strings) > 200
    messages = {}
    for m in ET.parse(TS).getroot().iter("message"):
        t = m.find("translation")
        messages[m.findtext("source")] = ("" if t is None or t.get("type") == "unfinished" else (t.text or ""))
    missing = [s for s in strings if not messages.get(s, "").strip()]
    assert missing == [], f"untranslated (run resources/translations/update_ts.py): {missing[:10]}"


def test_compiled_qm_translates_every_string(qapp):
    strings = _update_ts().extract()
    tr = QTranslator()
    assert tr.load(str(QM))
    untranslated = [s for s in strings if not tr.translate("gpu_wizard", s)]
    assert untranslated == [], f"the .qm is older than the .ts? {untranslated[:10]}"
    assert tr.translate("gpu_wizard", "Welcome") == "欢迎"


def test_format_placeholders_survive_translation():
    import re

    trans = _update_ts().load_translations()
    for src, zh in trans.items():
        assert sorted(re.findall(r"\{[^}]*\}", src)) == sorted(re.findall(r"\{[^}]*\}", zh)), src
        assert src.count("&") == zh.count("&") or "&" not in src, f"keyboard accelerator lost in {src!r}"


def _visible_texts(w) -> list[str]:
    out = [w.windowTitle()]
    page = w.currentPage()
    out += [page.title(), page.subTitle()]
    for cls in (QLabel, QAbstractButton, QGroupBox):
        for child in page.findChildren(cls):
            if not child.isVisibleTo(page):
                continue
            out.append(child.title() if isinstance(child, QGroupBox) else child.text())
    return [t for t in out if t]


@pytest.mark.parametrize("page", ["welcome", "system", "recommendation", "plan"])
def test_chinese_covers_the_visible_strings_and_switches_at_run_time(qtbot, make_wizard, page):
    w, _s, _r = make_wizard(lang="zh_CN")
    order = ["welcome", "system", "recommendation", "plan"]
    for p in order[1:order.index(page) + 1]:
        qtbot.waitUntil(lambda: w.button(QWizard.WizardButton.NextButton).isEnabled(), timeout=5000)
        w.next()
        assert w.current_page_id == p
    qtbot.waitUntil(lambda: w.currentPage().isComplete() or (page == "plan" and bool(w.currentPage().state.steps)), timeout=5000)
    trans = _update_ts().load_translations()
    english = set(trans)
    texts = _visible_texts(w)
    still_english = [t for t in texts if t in english and trans[t] != t]
    assert still_english == [], f"shown in English while the language is zh_CN: {still_english}"
    assert w.windowTitle().startswith("GPU 配置向导")
    # switch at run time: every page re-translates itself
    w.set_language("en")  # Qt posts LanguageChange to every widget
    qtbot.waitUntil(lambda: w.currentPage().title() in {"Welcome", "System", "Recommendation", "Plan"}, timeout=2000)
    assert w.button(QWizard.WizardButton.NextButton).text() == ("&Install >" if page == "plan" else "&Next >")
    assert not [t for t in _visible_texts(w) if t in set(trans.values()) and t not in english]
    w.set_language("zh_CN")
    qtbot.waitUntil(lambda: w.button(QWizard.WizardButton.NextButton).text()
                    == ("安装(&I) >" if page == "plan" else "下一步(&N) >"), timeout=2000)
    w.set_language("en")


def test_language_from_the_system_locale(monkeypatch):
    from ui.i18n import normalise_lang, system_language

    monkeypatch.setenv("LC_ALL", "zh_CN.UTF-8")
    assert system_language() == "zh_CN"
    monkeypatch.setenv("LC_ALL", "de_DE.UTF-8")
    assert system_language() == "en"
    assert normalise_lang("zh-Hans") == "zh_CN"
    assert normalise_lang(None) == "en"


def test_engine_text_translated_by_code_else_english(qapp):
    from ui.i18n import Translator, engine_text

    t = Translator(QCoreApplication.instance())
    t.set_language("en")
    assert engine_text("pageable_slow", "Copies reach 16.1 GB/s.", domain="check") == "Copies reach 16.1 GB/s."  # the engine's figures
    t.set_language("zh_CN")
    assert engine_text("pageable_slow", "Copies reach 16.1 GB/s.", domain="check") == "从普通（可分页）内存复制较慢；锁页内存较快。"
    try:
        from app import messages

        assert engine_text("nouveau_loaded", "nouveau is loaded") == messages.template("finding.nouveau_loaded", "zh_CN")
        assert "已加载开源 nouveau 驱动" in engine_text("nouveau_loaded", "nouveau is loaded")
        assert engine_text("some_new_code", "Plain English.") == "Plain English."
    finally:
        t.set_language("en")
