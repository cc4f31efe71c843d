"""Small things a user meets in the window, each through real key presses and clicks (pytest-qt):
Escape asks before closing on every page once anything was chosen (and a second Escape keeps the window);
Enter in the install log's search box searches and stays on the page; a walkthrough's step list reaches the
Plan page directly and it plans (never "There is no recommendation to plan from" with Next disabled); a
customer snapshot's plan never uses the viewer's home folder."""
from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QWizard

from app.paths import resource
from tests.ui.fakes import FakeRunner
from ui import engine
from ui.main import build_wizard
from ui.wizard import Services


def _next(qtbot, w, timeout=10000):
    qtbot.waitUntil(lambda: w.button(QWizard.WizardButton.NextButton).isEnabled(), timeout=timeout)
    w.next()


def _escape_asks_and_keeps(qtbot, w) -> None:
    qtbot.keyClick(w, Qt.Key.Key_Escape)
    box = w._close_box
    qtbot.waitUntil(box.isVisible, timeout=3000)
    assert box.buttonRole(box.defaultButton()) == QMessageBox.ButtonRole.RejectRole and box.escapeButton() is box.defaultButton()
    qtbot.keyClick(box, Qt.Key.Key_Escape)  # a second Escape answers "Keep working"
    qtbot.waitUntil(lambda: not box.isVisible(), timeout=3000)
    assert w.isVisible()


def test_escape_with_nothing_chosen_closes(qtbot, make_wizard):
    w, _s, _r = make_wizard()
    qtbot.keyClick(w, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not w.isVisible(), timeout=3000)


def test_escape_asks_on_every_page_once_something_was_chosen(qtbot, make_wizard):
    w, _s, _r = make_wizard(runner=FakeRunner(lines_per_step=2))
    _next(qtbot, w)  # Welcome → System
    _next(qtbot, w)  # → Recommendation
    rec = w.pages["recommendation"]
    qtbot.waitUntil(rec.isComplete, timeout=5000)
    rec.want_toolkit.setChecked(not rec.want_toolkit.isChecked())  # a choice, not applied yet
    _escape_asks_and_keeps(qtbot, w)
    qtbot.mouseClick(rec.apply_btn, Qt.MouseButton.LeftButton)  # now applied
    qtbot.waitUntil(lambda: rec.isComplete() and not rec.state.dirty, timeout=5000)
    seen = []
    while True:
        seen.append(w.current_page_id)
        _escape_asks_and_keeps(qtbot, w)
        if w.current_page_id == "summary":
            break
        if w.current_page_id == "install":
            qtbot.waitUntil(lambda: w.pages["install"].result is not None, timeout=10000)
        if w.current_page_id == "verify":
            w.pages["verify"].start()
            qtbot.waitUntil(lambda: not w.pages["verify"].state.running, timeout=20000)
        _next(qtbot, w, timeout=20000)
    assert seen == ["recommendation", "plan", "install", "verify", "summary"]
    qtbot.keyClick(w, Qt.Key.Key_Escape)
    box = w._close_box
    close = [b for b in box.buttons() if box.buttonRole(b) == QMessageBox.ButtonRole.DestructiveRole][0]
    qtbot.mouseClick(close, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not w.isVisible(), timeout=3000)


def test_enter_in_the_log_search_searches_and_stays_on_the_page(qtbot, make_wizard):
    w, _s, _r = make_wizard(runner=FakeRunner(lines_per_step=5))
    for _ in range(4):
        _next(qtbot, w)
    inst = w.pages["install"]
    qtbot.waitUntil(lambda: inst.result is not None, timeout=10000)
    assert w.button(QWizard.WizardButton.NextButton).isEnabled()  # Enter would press it, were it let through
    log = inst.log
    log.search.setFocus()
    qtbot.keyClicks(log.search, "line 3")
    qtbot.keyClick(log.search, Qt.Key.Key_Return)
    assert w.current_page_id == "install"
    first = log.view.current
    assert first >= 0 and "line 3" in log.model.lines[first]
    qtbot.keyClick(log.search, Qt.Key.Key_Enter)  # the keypad's Enter too: the next match
    second = log.view.current
    assert second > first and "line 3" in log.model.lines[second] and w.current_page_id == "install"
    qtbot.keyClick(log.search, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)  # back to the previous one
    assert log.view.current == first


def _walkthrough(qtbot, tmp_path, snapshot: str, lang: str = "en"):
    services = Services(state_dir=str(tmp_path / "state"), install_backend=lambda s: engine.DryRunBackend(step_delay_s=0.0))
    w = build_wizard(snapshot=snapshot, lang=lang, services=services)
    qtbot.addWidget(w)
    w.show()
    return w


def _click_step(qtbot, w, page: str) -> None:
    nav = w.steps_nav
    item = next(nav.item(i) for i in range(nav.count()) if nav.item(i).data(Qt.ItemDataRole.UserRole) == page)
    assert item.flags() & Qt.ItemFlag.ItemIsEnabled, page
    rect = nav.visualItemRect(item)
    qtbot.mouseClick(nav.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert w.current_page_id == page


@pytest.mark.parametrize("snap", ["workstation-rtx4090-ubuntu2404.json", "wsl2-laptop-rtx4070-ubuntu2204.json"])
def test_a_walkthrough_step_list_goes_straight_to_a_plan(qtbot, tmp_path, snap):
    w = _walkthrough(qtbot, tmp_path, str(resource("snapshots", snap)))
    assert w.current_page_id == "welcome"
    _click_step(qtbot, w, "plan")  # the System and Recommendation pages never shown
    plan = w.pages["plan"]
    qtbot.waitUntil(lambda: plan.state.plan is not None or bool(plan.error_banner.isVisibleTo(plan)), timeout=20000)
    assert plan.state.plan is not None and plan.state.steps, plan.status.text()
    assert w.button(QWizard.WizardButton.NextButton).isEnabled()
    assert "no recommendation" not in plan.status.text()


def test_a_snapshot_plan_never_uses_the_viewers_home(qtbot, tmp_path, monkeypatch):
    """The viewer's HOME is a folder of their own; the snapshot records its user's HOME (/home/alex) or none
    (then ~ stays, and the plan's warning says what it stands for)."""
    viewer = tmp_path / "viewer-home"
    viewer.mkdir()
    monkeypatch.setenv("HOME", str(viewer))
    for snap, home in (("wsl2-laptop-rtx4070-ubuntu2204.json", "/home/alex"), ("workstation-rtx4090-ubuntu2404.json", None)):
        data = json.loads(resource("snapshots", snap).read_text(encoding="utf-8"))
        assert (data.get("env") or {}).get("HOME") == home
        w = _walkthrough(qtbot, tmp_path, str(resource("snapshots", snap)))
        _click_step(qtbot, w, "plan")
        plan = w.pages["plan"]
        qtbot.waitUntil(lambda: plan.state.plan is not None, timeout=20000)
        text = json.dumps(plan.state.plan.to_json()) + engine.pasteable_script(plan.state.plan) + plan.detail.toPlainText()
        assert str(viewer) not in text
        venv = plan.state.plan.step("create_venv")
        assert venv.commands[0][-1] == (f"{home}/.venvs/gpu" if home else "~/.venvs/gpu")
        if home is None:
            assert "warn_home_unknown" in [n.code for n in plan.state.plan.warning_codes]
            assert '"$HOME"/.venvs/gpu' in engine.pasteable_script(plan.state.plan)  # the script runs in its runner's home
        w.close()
