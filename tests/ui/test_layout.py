"""The window fits the screens people have (a 1366x768 laptop with a panel; 1920x1080 at 200%,
which is 960x540 in Qt's units), long pages scroll inside, help text reads at ≥ 4.5:1, the radio
buttons show on a dark theme, and Tab starts in the page, not on Back/Next/Close."""
from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QRect
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QWizard


def _lum(c: QColor) -> float:
    def ch(v: float) -> float:
        v /= 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
    return 0.2126 * ch(c.red()) + 0.7152 * ch(c.green()) + 0.0722 * ch(c.blue())


def contrast(a: QColor, b: QColor) -> float:
    la, lb = sorted((_lum(a), _lum(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


@pytest.mark.parametrize("avail", [QRect(0, 0, 1366, 768 - 32), QRect(0, 0, 960, 540 - 16)],
                         ids=["1366x768-with-panel", "1920x1080-at-200%"])
def test_window_and_buttons_fit_the_screen_on_every_page(qtbot, make_wizard, avail):
    w, _s, _r = make_wizard()
    w.fit_to_screen(avail)
    qtbot.wait(10)
    assert w.width() <= avail.width() and w.height() + 36 <= avail.height()  # 36: the title bar
    assert w.minimumSizeHint().width() <= avail.width() and w.minimumSizeHint().height() + 36 <= avail.height()
    for page in ("welcome", "system", "recommendation", "plan", "install", "verify", "summary"):
        if page != "welcome":
            qtbot.waitUntil(lambda: w.button(QWizard.WizardButton.NextButton).isEnabled(), timeout=10000)
            w.next()
        assert w.current_page_id == page
        qtbot.wait(20)
        for b in (QWizard.WizardButton.NextButton, QWizard.WizardButton.FinishButton, QWizard.WizardButton.CancelButton):
            btn = w.button(b)
            if btn.isVisible():
                r = QRect(btn.mapTo(w, QPoint(0, 0)), btn.size())
                assert w.rect().contains(r), (page, b, r, w.rect())
        p = w.currentPage()
        assert p.height() <= w.height()  # long content scrolls inside the page, the page never grows the window
    qtbot.waitUntil(lambda: not w.pages["verify"].state.running, timeout=10000)


def test_help_text_contrast_is_at_least_4_5(qtbot, make_wizard):
    w, _s, _r = make_wizard()
    for help_ in w.pages["welcome"].path_help.values():
        pal = help_.palette()
        group = QPalette.ColorGroup.Active if help_.isEnabled() else QPalette.ColorGroup.Disabled
        fg = pal.color(group, help_.foregroundRole())
        bg = pal.color(group, QPalette.ColorRole.Window)
        assert contrast(fg, bg) >= 4.5, (help_.text(), fg.name(), bg.name())


def test_radio_buttons_show_on_a_dark_theme(qtbot, make_wizard):
    app = QApplication.instance()
    old = app.palette()
    dark = QPalette()
    for role, colour in ((QPalette.ColorRole.Window, "#202124"), (QPalette.ColorRole.Base, "#121212"),
                         (QPalette.ColorRole.Text, "#e8eaed"), (QPalette.ColorRole.WindowText, "#e8eaed"),
                         (QPalette.ColorRole.Button, "#303134"), (QPalette.ColorRole.Highlight, "#8ab4f8")):
        dark.setColor(role, QColor(colour))
    try:
        app.setPalette(dark)
        w, _s, _r = make_wizard()
        qtbot.wait(20)
        rb = w.pages["welcome"].path_buttons["verify"]  # an unchecked one: only its ring shows it
        img = rb.grab().toImage()
        bg = QColor("#202124")
        from PySide6.QtWidgets import QStyle, QStyleOptionButton

        opt = QStyleOptionButton()
        rb.initStyleOption(opt)
        ind = rb.style().subElementRect(QStyle.SubElement.SE_RadioButtonIndicator, opt, rb)  # the ring, not the text
        assert ind.width() > 4 and ind.right() < rb.fontMetrics().horizontalAdvance(rb.text()) + ind.right()
        best = max(contrast(QColor(img.pixel(x, y)), bg) for x in range(max(0, ind.left()), min(img.width(), ind.right() + 1))
                   for y in range(max(0, ind.top()), min(img.height(), ind.bottom() + 1)))
        assert best >= 3.0, best  # WCAG's 3:1 for the parts of a control
    finally:
        app.setPalette(old)


def test_tab_starts_in_the_page_content(qtbot, make_wizard):
    w, _s, _r = make_wizard()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is not None, timeout=2000)
    qtbot.wait(20)
    f = QApplication.focusWidget()
    assert w.currentPage().isAncestorOf(f), f
    w.next()
    qtbot.waitUntil(lambda: w.pages["system"].isComplete(), timeout=10000)
    qtbot.wait(20)
    f = QApplication.focusWidget()
    assert f is not None and w.currentPage().isAncestorOf(f) and f not in [
        w.button(b) for b in (QWizard.WizardButton.NextButton, QWizard.WizardButton.BackButton, QWizard.WizardButton.CancelButton)]


def test_a_short_window_keeps_the_result_line_in_view_while_verifying(qtbot, make_wizard):
    """1920x1080 at 200%: the Verify page scrolls inside. Starting the test disables the control that
    had the focus; the focus must not fall down the page and scroll the result line out of view."""
    w, _s, _r = make_wizard()
    w.fit_to_screen(QRect(0, 0, 960, 540 - 16))
    w.show()
    qtbot.waitExposed(w)
    for _ in range(5):
        qtbot.waitUntil(lambda: w.button(QWizard.WizardButton.NextButton).isEnabled(), timeout=10000)
        w.next()
    assert w.current_page_id == "verify"
    ver = w.pages["verify"]
    bar = ver.scroll_area.verticalScrollBar()
    assert bar.maximum() > 0  # the page is longer than the window: it scrolls
    qtbot.waitUntil(lambda: not ver.state.running, timeout=20000)
    w.activateWindow()
    ver.duration.setFocus()
    bar.setValue(0)
    ver.start()
    qtbot.wait(50)
    assert ver.state.running and bar.value() == 0, bar.value()
    assert ver.stop_btn.hasFocus()  # the focus went to what can be pressed now
    qtbot.waitUntil(lambda: not ver.state.running, timeout=20000)
    qtbot.wait(50)
    assert bar.value() == 0 and ver.start_btn.hasFocus()
