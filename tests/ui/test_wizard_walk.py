"""Walk the wizard page by page with fake engine parts and a fake runner."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWizard

from tests.ui.fakes import FakeRunner, make_plan
from ui.state import PAGE_IDS, SEQUENCES


def _next(qtbot, w, expect: str, timeout=5000):
    qtbot.waitUntil(lambda: w.button(QWizard.WizardButton.NextButton).isEnabled(), timeout=timeout)
    qtbot.mouseClick(w.button(QWizard.WizardButton.NextButton), Qt.MouseButton.LeftButton)
    assert w.current_page_id == expect


def test_setup_path_walks_every_page(qtbot, make_wizard, tmp_path):
    w, services, runner = make_wizard()
    assert w.current_page_id == "welcome"
    _next(qtbot, w, "system")
    sysp = w.pages["system"]
    qtbot.waitUntil(lambda: sysp.isComplete(), timeout=5000)
    assert sysp.tree.topLevelItemCount() == 5  # GPU, driver, OS, CUDA, Python
    assert "NVIDIA H200" in sysp.tree.topLevelItem(0).child(0).text(1)
    assert sysp.findings.count() == 2
    _next(qtbot, w, "recommendation")
    rec = w.pages["recommendation"]
    qtbot.waitUntil(lambda: rec.isComplete(), timeout=5000)
    assert "2.9.1" in rec.cards["pytorch"][1].text()
    assert "Newest PyTorch" in rec.cards["pytorch"][1].text()
    _next(qtbot, w, "plan")
    plan = w.pages["plan"]
    qtbot.waitUntil(lambda: plan.tree.topLevelItemCount() == 4, timeout=5000)
    # nothing runs before the user presses Install: the plan page's Next button says so
    assert w.button(QWizard.WizardButton.NextButton).text() == "&Install >"
    assert runner.runs == []
    assert plan.tree.topLevelItem(1).text(2) == "administrator"
    assert "echo 'step 0'" in plan.detail.toPlainText() or "echo" in plan.detail.toPlainText()
    script = tmp_path / "plan.sh"
    plan.export_script(str(script))
    text = script.read_text()
    assert text.startswith("#!/usr/bin/env bash") and "echo 'step 1'" in text and "install_thing3" in text
    pass  # pressing Install (Next) confirms the plan
    _next(qtbot, w, "install")
    inst = w.pages["install"]
    qtbot.waitUntil(lambda: inst.result == "ok", timeout=5000)
    assert inst.log.line_count() == 4 * 50
    assert inst.progress.value() == 1000
    assert all(s.status == "ok" for s in inst.state.steps)
    _next(qtbot, w, "verify")
    ver = w.pages["verify"]
    qtbot.mouseClick(ver.start_btn, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: ver.state.verification is not None, timeout=10000)
    assert len(ver.state.series) == 100
    assert ver.layers.count() == 4
    assert ver.bars[0].value == pytest.approx(53.1)
    _next(qtbot, w, "summary")
    summ = w.pages["summary"]
    assert summ.headline.text() == "PyTorch runs on the GPU, with warnings."
    assert summ.changes.count() == 4


def test_failing_step_then_retry_runs_only_the_rest(qtbot, make_wizard):
    runner = FakeRunner(fail_once=("install_thing2",))
    w, _s, _r = make_wizard(runner=runner)
    w.session.path = "setup"
    for page in ("system", "recommendation", "plan"):
        _next(qtbot, w, page)
    pass  # pressing Install (Next) confirms the plan
    _next(qtbot, w, "install")
    inst = w.pages["install"]
    qtbot.waitUntil(lambda: inst.result == "error", timeout=5000)
    assert [s.status for s in inst.state.steps] == ["ok", "ok", "error", "pending"]
    assert inst.isComplete() and inst.next_page() == "troubleshoot"  # never a dead end
    assert inst.retry_btn.isEnabled() and inst.trouble_btn.isVisibleTo(inst)
    errs = [i for i, e in enumerate(inst.log.model.is_err) if e]
    assert inst.log.model.lines[errs[-2]].startswith("E: Unable to locate package")
    assert inst.log.model.lines[errs[-1]] == "— Install thing 2 failed: exit status 100 —"  # once, after its output
    qtbot.mouseClick(inst.retry_btn, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: inst.result == "ok", timeout=5000)
    assert runner.runs == [None, ["install_thing2", "install_thing3"]]
    assert inst.isComplete()


def test_cancel_stops_the_run_and_retry_resumes(qtbot, make_wizard):
    runner = FakeRunner(block_on="install_thing1")
    w, _s, _r = make_wizard(runner=runner)
    for page in ("system", "recommendation", "plan"):
        _next(qtbot, w, page)
    pass  # pressing Install (Next) confirms the plan
    _next(qtbot, w, "install")
    inst = w.pages["install"]
    qtbot.waitUntil(runner.blocked.is_set, timeout=5000)
    qtbot.waitUntil(lambda: inst.cancel_btn.isEnabled(), timeout=5000)
    qtbot.mouseClick(inst.cancel_btn, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: inst.result == "cancelled", timeout=5000)
    assert inst.state.step("install_thing1").status == "cancelled"
    assert inst.retry_btn.isEnabled()
    inst.retry()
    qtbot.waitUntil(lambda: inst.result == "ok", timeout=5000)
    assert runner.runs[-1] == ["install_thing1", "install_thing2", "install_thing3"]


def test_reboot_prompt_and_next_start_opens_verification_from_the_run_state(qtbot, make_wizard, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QMessageBox

    from app.run.session import Session

    runner = FakeRunner(reboot_after="install_thing0")
    w, services, _r = make_wizard(runner=runner)
    for page in ("system", "recommendation", "plan"):
        _next(qtbot, w, page)
    pass  # pressing Install (Next) confirms the plan
    _next(qtbot, w, "install")
    inst = w.pages["install"]
    qtbot.waitUntil(lambda: inst.result == "reboot_required", timeout=5000)
    box = inst._reboot_box
    assert isinstance(box, QMessageBox) and box.isVisible()
    later = [b for b in box.buttons() if box.buttonRole(b) == QMessageBox.ButtonRole.RejectRole][0]
    later.click()
    assert w.session.session_dir == runner.session_dir
    assert not (tmp_path / "state" / "gpu-wizard" / "resume.json").exists()  # the run state says it, once
    state = Session(runner.session_dir).load_state()
    assert state.status == "reboot_required" and state.reboot_pending
    # the next start after a reboot (another boot id) resumes at verification
    import ui.main
    import ui.state

    monkeypatch.setattr(ui.state, "current_boot_id", lambda: "another-boot")
    monkeypatch.setattr(ui.main, "build_wizard", ui.main.build_wizard)
    from ui.main import build_wizard
    from ui.wizard import Services

    w2 = build_wizard(lang="en", services=Services(state_dir=str(tmp_path / "state"), detect=services.detect,
                                                   verify_runner=services.verify_runner))
    qtbot.addWidget(w2)
    w2.show()
    assert w2.current_page_id == "verify"
    assert w2.session.resumed and w2.session.session_dir == runner.session_dir
    assert not Session(runner.session_dir).load_state().reboot_pending  # resumed once: the run no longer waits
    w2.shutdown()
    w3 = build_wizard(lang="en", services=Services(state_dir=str(tmp_path / "state"), detect=services.detect))
    qtbot.addWidget(w3)
    w3.show()
    assert w3.current_page_id == "welcome" and not w3.session.resumed
    w3.shutdown()


def test_an_old_resume_file_still_continues_once(qtbot, tmp_path, monkeypatch):
    """Round 3's window wrote resume.json beside the run state: read once, then gone."""
    import json

    import ui.state
    from ui.main import build_wizard
    from ui.wizard import Services

    old = tmp_path / "state" / "gpu-wizard" / "resume.json"
    old.parent.mkdir(parents=True)
    old.write_text(json.dumps({"page": "verify", "session_dir": None, "boot_id": "boot-before", "snapshot": None,
                               "written": None}))
    monkeypatch.setattr(ui.state, "current_boot_id", lambda: "boot-after")
    from tests.ui.fakes import FakeVerifier, h200_facts

    w = build_wizard(lang="en", services=Services(state_dir=str(tmp_path / "state"), detect=lambda *a: h200_facts(),
                                                  verify_runner=FakeVerifier()))
    qtbot.addWidget(w)
    w.show()
    assert w.current_page_id == "verify" and w.session.resumed and not old.exists()
    w.shutdown()


def test_verify_only_path_skips_install(qtbot, make_wizard):
    w, _s, runner = make_wizard()
    w.pages["welcome"].path_buttons["verify"].setChecked(True)
    _next(qtbot, w, "system")
    _next(qtbot, w, "verify")
    ver = w.pages["verify"]
    qtbot.mouseClick(ver.start_btn, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: ver.stop_btn.isEnabled(), timeout=5000)
    qtbot.mouseClick(ver.stop_btn, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not ver.state.running, timeout=5000)
    assert ver.state.verification is not None and ver.state.verification.cancelled
    _next(qtbot, w, "summary")
    assert runner.runs == []


def test_refused_choice_is_shown_and_blocks_confirmation(qtbot, make_wizard):
    w, services, _r = make_wizard()
    _next(qtbot, w, "system")
    _next(qtbot, w, "recommendation")
    rec = w.pages["recommendation"]
    qtbot.waitUntil(rec.isComplete, timeout=5000)
    rec.adv_toggle.setChecked(True)
    rec.torch_version.setCurrentText("1.0")
    assert not rec.isComplete(), "edited but not applied"
    qtbot.mouseClick(rec.apply_btn, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not rec.state.busy, timeout=5000)
    assert rec.refused.isVisibleTo(rec)
    assert "PyTorch 1.0 has no build" in rec.refused.text()
    assert not rec.isComplete()
    assert not w.button(QWizard.WizardButton.NextButton).isEnabled()
    assert services.recommend.calls[-1].torch_version == "1.0"
    qtbot.mouseClick(rec.reset_btn, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(rec.isComplete, timeout=5000)
    assert not rec.refused.isVisibleTo(rec)


def test_sequences_are_data_over_known_pages():
    for _path, seq in SEQUENCES.items():
        assert seq[0] == "welcome"
        assert set(seq) <= set(PAGE_IDS)
        assert len(seq) == len(set(seq))


def test_plan_confirmation_is_reset_when_coming_back(qtbot, make_wizard):
    w, _s, runner = make_wizard(plan=make_plan(2))
    for page in ("system", "recommendation", "plan"):
        _next(qtbot, w, page)
    pass  # pressing Install (Next) confirms the plan
    w.back()
    w.next()
    assert w.current_page_id == "plan" and not w.session.plan_confirmed


def test_empty_plan_needs_no_confirmation_and_runs_nothing(qtbot, make_wizard):
    from app.plan.model import Plan

    w, _s, runner = make_wizard(plan=Plan(steps=(), warnings=("Nothing to do.",)))
    for page in ("system", "recommendation", "plan"):
        _next(qtbot, w, page)
    plan = w.pages["plan"]
    qtbot.waitUntil(lambda: plan.state.plan is not None, timeout=5000)
    assert "Nothing to install" in plan.status.text()
    assert w.button(QWizard.WizardButton.NextButton).text() == "&Next >"
    _next(qtbot, w, "install")
    assert w.pages["install"].isComplete() and runner.runs == []
    _next(qtbot, w, "verify")


def test_closing_during_a_real_install_asks_first(qtbot, make_wizard):
    from PySide6.QtWidgets import QMessageBox

    runner = FakeRunner(block_on="install_thing0")
    w, _s, _r = make_wizard(runner=runner)
    for page in ("system", "recommendation", "plan"):
        _next(qtbot, w, page)
    pass  # pressing Install (Next) confirms the plan
    _next(qtbot, w, "install")
    qtbot.waitUntil(runner.blocked.is_set, timeout=5000)
    w.reject()  # Esc or the Close button
    box = w._close_box
    assert w.isVisible() and box.isVisible()
    keep = [b for b in box.buttons() if box.buttonRole(b) == QMessageBox.ButtonRole.RejectRole][0]
    keep.click()
    assert w.isVisible() and w.pages["install"].running
    w.close()
    stop = [b for b in w._close_box.buttons() if w._close_box.buttonRole(b) == QMessageBox.ButtonRole.DestructiveRole][0]
    stop.click()
    qtbot.waitUntil(lambda: not w.isVisible(), timeout=5000)
    assert w.pages["install"].result == "cancelled"
