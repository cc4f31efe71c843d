"""The Recommendation page says the engine's reasons and warnings in Simplified Chinese: each has a
stable code and its figures (params); the message catalogue (app.messages; its own checks are in
tests/unit/test_messages.py) formats them, and the engine's English sentence stays available as the
tooltip. English UI: the engine's sentences as they are."""
from __future__ import annotations

import html
import re

import pytest
from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QWizard

from app.compat import load_db
from app.paths import demo_snapshots
from app import messages
from app.recommend import recommend
from tests.unit.test_recommend_i18n_params import ALL, _items
from ui import engine
from ui.i18n import Translator, rec_text
from ui.main import build_wizard
from ui.wizard import Services

CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture(scope="module")
def machine_table():
    db = load_db(use_user_bundle=False)
    return [(rid, recommend(f, db, ch)) for rid, f, ch in ALL]


def _window_english(code, params, english):
    """The English the window says: the catalogue's "@gui" wording where it has one (no CLI flag)."""
    key = (params or {}).get("text_code") or code
    if key and messages.has("rec", key + "@gui", "en"):
        return messages.render("rec", key + "@gui", {k: v for k, v in params.items() if k != "text_code"}, "en")
    return english


def test_zh_cn_says_every_reason_and_warning_in_chinese(qapp, machine_table):
    t = Translator(QCoreApplication.instance())
    try:
        assert t.set_language("zh_CN")
        for rid, rec in machine_table:
            for kind, code, params, english in _items(rec):
                said = rec_text(code, params, english)
                assert said != english and CJK.search(said), (rid, kind, code, said)
                assert "{" not in said and "}" not in said
                for k, v in params.items():  # the figures appear as they are
                    if not k.endswith("_code") and k not in messages.catalogue("zh_CN")["values"] and \
                            k in messages.names(messages.template("rec." + (params.get("text_code") or code), "zh_CN")):
                        assert v in said, (rid, code, k, v, said)
        t.set_language("en")
        for _rid, rec in machine_table:
            for _kind, code, params, english in _items(rec):
                assert rec_text(code, params, english) == _window_english(code, params, english)
    finally:
        t.set_language("en")


def test_unknown_code_or_missing_figure_keeps_the_english(qapp):
    t = Translator(QCoreApplication.instance())
    try:
        t.set_language("zh_CN")
        assert rec_text("some_future_code", {"x": "1"}, "Plain English.") == "Plain English."
        assert rec_text("driver_keep", {"current": "580.95.05"}, "Keep driver 580.95.05: ...") == "Keep driver 580.95.05: ..."
        assert rec_text(None, {}, "No code.") == "No code."
        assert rec_text("cudnn_bundled", {"version": "9.10.2.21"}, "x") == "cuDNN 9.10.2.21 随 PyTorch 安装包提供（pip 依赖）；不需要系统 cuDNN。"
    finally:
        t.set_language("en")


def _rec_page(qtbot, tmp_path, snap, lang):
    services = Services(state_dir=str(tmp_path / "state"), install_backend=lambda s: engine.DryRunBackend(step_delay_s=0.0))
    w = build_wizard(snapshot=str(snap), lang=lang, services=services)
    qtbot.addWidget(w)
    w.show()
    for expect in ("system", "recommendation"):
        qtbot.waitUntil(lambda: w.button(QWizard.WizardButton.NextButton).isEnabled(), timeout=10000)
        w.next()
        assert w.current_page_id == expect
    page = w.pages["recommendation"]
    qtbot.waitUntil(lambda: page.state.recommendation is not None or bool(page.state.error), timeout=10000)
    assert page.state.recommendation is not None, page.state.error
    return w, page


DEMOS = demo_snapshots()


@pytest.mark.parametrize("snap", DEMOS, ids=[p.stem for p in DEMOS])
def test_recommendation_page_in_chinese_and_english(qtbot, tmp_path, snap):
    w, page = _rec_page(qtbot, tmp_path, snap, "zh_CN")
    rec = page.state.recommendation
    parts = {"driver": rec.driver, "toolkit": rec.cuda_toolkit, "cudnn": rec.cudnn, "pytorch": rec.pytorch}
    for key, part in parts.items():
        lab = page.cards[key][1]
        assert part.reason_code, (key, part.reason)
        assert html.escape(part.reason) not in lab.text(), f"{key}: English reason shown in zh_CN"
        said = lab.text().split("<span>", 1)[1]
        assert CJK.search(said), (key, said)
        assert lab.toolTip() == part.reason  # the engine's sentence, for reference
    assert page.warnings.count() == len(rec.warnings)
    for i, wr in enumerate(rec.warnings):
        item = page.warnings.item(i)
        assert item.text() != wr.message and CJK.search(item.text()), (wr.code, item.text())
        assert item.toolTip() == _window_english(wr.code, wr.params, wr.message)

    w.set_language("en")  # switching at run time re-renders in English
    qtbot.waitUntil(lambda: page.title() == "Recommendation", timeout=2000)
    for key, part in parts.items():
        lab = page.cards[key][1]
        assert html.escape(part.reason) in lab.text() and lab.toolTip() == ""
    for i, wr in enumerate(rec.warnings):
        assert page.warnings.item(i).text() == _window_english(wr.code, wr.params, wr.message)
        assert page.warnings.item(i).toolTip() == ""


def test_recommendation_page_in_english_from_the_start(qtbot, tmp_path):
    snap = next(p for p in DEMOS if "rtx3060" in p.name)
    _w, page = _rec_page(qtbot, tmp_path, snap, "en")
    rec = page.state.recommendation
    for key, part in {"driver": rec.driver, "toolkit": rec.cuda_toolkit, "cudnn": rec.cudnn, "pytorch": rec.pytorch}.items():
        assert html.escape(part.reason) in page.cards[key][1].text()
        assert not CJK.search(page.cards[key][1].text())
    assert [page.warnings.item(i).text() for i in range(page.warnings.count())] == [
        _window_english(x.code, x.params, x.message) for x in rec.warnings]


def test_zh_cn_says_refused_choices_in_chinese(qapp):
    """A refused --torch-version/--variant ("This choice cannot be used") is said from its code in Chinese."""
    from app.choices import Choices
    from tests.unit.test_recommend_machines import RTX5090, machine

    rec = recommend(machine("u2404", [RTX5090], "580.95.05", "3.12", kernel_module="open"), load_db(use_user_bundle=False),
                    Choices(torch_version="2.99", torch_variant="cu126"))
    assert len(rec.refused) == len(rec.refused_detail) == 2
    t = Translator(QCoreApplication.instance())
    try:
        assert t.set_language("zh_CN")
        for english, d in zip(rec.refused, rec.refused_detail):
            said = rec_text(d.code, d.params, english)
            assert said != english and CJK.search(said) and "{" not in said, said
        t.set_language("en")
        for english, d in zip(rec.refused, rec.refused_detail):
            assert rec_text(d.code, d.params, english) == english
    finally:
        t.set_language("en")
