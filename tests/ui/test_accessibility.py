"""Every control a user can reach has an accessible name; the window has a sensible minimum
size; pages follow a dark palette; keyboard focus moves through a page's controls."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import (QAbstractButton, QAbstractItemView, QAbstractScrollArea, QApplication, QComboBox, QLabel,
                               QLineEdit, QWizard)

CONTROLS = (QAbstractButton, QLineEdit, QComboBox, QAbstractItemView, QAbstractScrollArea)


def _walk(qtbot, w, upto):
    order = ["welcome", "system", "recommendation", "plan"]
    for _p in order[1:order.index(upto) + 1]:
        qtbot.waitUntil(lambda: w.button(QWizard.WizardButton.NextButton).isEnabled(), timeout=5000)
        w.next()
    if upto == "plan":
        qtbot.waitUntil(lambda: w.pages["plan"].state.plan is not None, timeout=5000)


def _unnamed(page) -> list[str]:
    buddies = {id(lab.buddy()) for lab in page.findChildren(QLabel) if lab.buddy() is not None}
    out = []
    from PySide6.QtWidgets import QWidget

    for c in page.findChildren(QWidget):
        if not isinstance(c, CONTROLS):
            continue
        if not c.isVisibleTo(page) or c.focusPolicy() == Qt.FocusPolicy.NoFocus:
            continue
        if c.parent() is not None and isinstance(c.parent(), (QComboBox, QAbstractScrollArea)) and not isinstance(c, QAbstractScrollArea):
            continue  # the inner parts of a composite control
        if isinstance(c, QAbstractScrollArea) and isinstance(c.parent(), QComboBox):
            continue
        name = c.accessibleName() or (c.text() if isinstance(c, QAbstractButton) else "")
        if not name and id(c) not in buddies:
            out.append(f"{type(c).__name__} {c.objectName()!r}")
    return out


@pytest.mark.parametrize("page", ["welcome", "system", "recommendation", "plan"])
def test_controls_have_accessible_names(qtbot, make_wizard, page):
    w, _s, _r = make_wizard()
    _walk(qtbot, w, page)
    if page == "recommendation":
        w.pages["recommendation"].adv_toggle.setChecked(True)
    assert _unnamed(w.currentPage()) == []


def test_install_verify_summary_troubleshoot_controls_named(qtbot, make_wizard):
    w, _s, _r = make_wizard()
    _walk(qtbot, w, "plan")
    pass  # pressing Install (Next) confirms the plan
    w.next()
    inst = w.pages["install"]
    qtbot.waitUntil(lambda: inst.result == "ok", timeout=5000)
    assert _unnamed(inst) == []
    w.next()
    assert _unnamed(w.pages["verify"]) == []
    w.next()
    assert _unnamed(w.pages["summary"]) == []
    w.jump_to("troubleshoot")
    assert _unnamed(w.pages["troubleshoot"]) == []


def test_minimum_size_and_keyboard_focus_chain(qtbot, make_wizard):
    w, _s, _r = make_wizard()
    assert w.minimumWidth() <= 640 and w.minimumHeight() <= 480  # fits a short laptop screen, 200% scaling
    w.resize(w.minimumSize())
    page = w.currentPage()
    start = w.pages["welcome"].path_buttons["setup"]
    seen, cur = [], start.nextInFocusChain()
    for _ in range(2000):  # the Tab order: every focusable, visible widget once round the chain
        if cur is start:
            break
        if cur.isVisible() and cur.isEnabled() and cur.focusPolicy() & Qt.FocusPolicy.TabFocus:
            seen.append(cur.objectName() or type(cur).__name__)
        cur = cur.nextInFocusChain()
    assert "language" in seen and "demo_list" not in seen  # hidden until a walkthrough is chosen
    assert start.isChecked() and start.focusPolicy() & Qt.FocusPolicy.TabFocus  # Tab enters the path group at
    # the chosen path; arrow keys move between the paths (Qt's behaviour for exclusive radio buttons)
    assert any("wizard" in s for s in seen)  # the wizard's Next/Close buttons
    assert page is w.currentPage()


def test_dark_palette_is_followed(qtbot, make_wizard):
    app = QApplication.instance()
    old = app.palette()
    dark = QPalette()
    for role, colour in ((QPalette.ColorRole.Window, "#202124"), (QPalette.ColorRole.Base, "#121212"),
                         (QPalette.ColorRole.Text, "#e8eaed"), (QPalette.ColorRole.WindowText, "#e8eaed")):
        dark.setColor(role, QColor(colour))
    try:
        app.setPalette(dark)
        w, _s, _r = make_wizard()
        qtbot.wait(10)
        log = w.pages["install"].log
        assert log.view.err_colour.lightness() > 128  # a light red on a dark background
        verify = w.pages["verify"]
        charts = verify.ensure_charts()
        qtbot.wait(10)
        bg = charts.plots["power"].backgroundBrush().color()
        assert bg.lightness() < 64
        w.pages["welcome"].error_banner.show_message("x", "info")
        assert w.pages["welcome"].error_banner.palette().color(QPalette.ColorRole.Window).lightness() < 100
    finally:
        app.setPalette(old)


def test_banner_recolours_when_the_desktop_switches_to_dark(qtbot):
    from ui.widgets.banner import Banner

    app = QApplication.instance()
    old = app.palette()
    b = Banner()
    qtbot.addWidget(b)
    b.show_message("hello", "warning")
    light_bg = b.palette().color(QPalette.ColorRole.Window)
    dark = QPalette()
    dark.setColor(QPalette.ColorRole.Window, QColor("#202124"))
    try:
        app.setPalette(dark)
        qtbot.waitUntil(lambda: b.palette().color(QPalette.ColorRole.Window) != light_bg, timeout=2000)
        assert b.palette().color(QPalette.ColorRole.Window).lightness() < 100
    finally:
        app.setPalette(old)


def test_log_and_charts_recolour_on_a_live_switch(qtbot):
    from ui.widgets.charts import ChartPanel
    from ui.widgets.log_view import LogView

    app = QApplication.instance()
    old = app.palette()
    log, charts = LogView(), ChartPanel()
    qtbot.addWidget(log)
    qtbot.addWidget(charts)
    log.show()
    charts.show()
    assert log.view.err_colour.lightness() < 128
    dark = QPalette()
    for role, colour in ((QPalette.ColorRole.Window, "#202124"), (QPalette.ColorRole.Base, "#121212"),
                         (QPalette.ColorRole.Text, "#e8eaed")):
        dark.setColor(role, QColor(colour))
    try:
        app.setPalette(dark)
        qtbot.waitUntil(lambda: log.view.err_colour.lightness() > 128, timeout=2000)
        qtbot.waitUntil(lambda: charts.plots["power"].backgroundBrush().color().lightness() < 64, timeout=2000)
    finally:
        app.setPalette(old)
