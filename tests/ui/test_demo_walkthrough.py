"""The bundled demo snapshots and a report's JSON, through the real engine (detect, recommend,
plan), installs as a labelled dry run; a walkthrough banner says whose machine it is."""
from __future__ import annotations

import json

import pytest
from PySide6.QtWidgets import QWizard

from app.paths import demo_snapshots
from ui import engine
from ui.main import build_wizard
from ui.wizard import Services

DEMOS = demo_snapshots()


def _next(qtbot, w, expect, timeout=10000):
    qtbot.waitUntil(lambda: w.button(QWizard.WizardButton.NextButton).isEnabled(), timeout=timeout)
    w.next()
    assert w.current_page_id == expect


def _wizard(qtbot, tmp_path, snapshot, lang="en"):
    services = Services(state_dir=str(tmp_path / "state"),
                        install_backend=lambda s: engine.DryRunBackend(step_delay_s=0.0))
    w = build_wizard(snapshot=str(snapshot), lang=lang, services=services)
    qtbot.addWidget(w)
    w.show()
    return w


def test_demo_snapshots_are_bundled():
    assert len(DEMOS) >= 3


@pytest.mark.parametrize("snap", DEMOS, ids=[p.stem for p in DEMOS])
def test_each_demo_walks_the_whole_wizard_as_a_dry_run(qtbot, tmp_path, snap):
    w = _wizard(qtbot, tmp_path, snap)
    assert w.session.dry_run and "dry run" in w.windowTitle()
    _next(qtbot, w, "system")
    sysp = w.pages["system"]
    qtbot.waitUntil(sysp.isComplete, timeout=10000)
    banner = sysp.source_banner
    assert banner.isVisibleTo(sysp)
    assert snap.name in banner.text.text() and "Read-only" in banner.text.text()
    gpu_name = w.session.facts.gpus[0].name
    assert gpu_name in banner.text.text()
    _next(qtbot, w, "recommendation")
    rec = w.pages["recommendation"]
    qtbot.waitUntil(lambda: rec.state.recommendation is not None or bool(rec.state.error), timeout=10000)
    assert rec.state.recommendation is not None, rec.state.error
    assert rec.state.recommendation.pytorch.version
    _next(qtbot, w, "plan")
    plan = w.pages["plan"]
    qtbot.waitUntil(lambda: plan.state.plan is not None, timeout=10000)
    assert plan.tree.topLevelItemCount() == len(plan.state.steps) > 0
    assert "dry run" in w.button(QWizard.WizardButton.NextButton).text()  # pressing it confirms the plan
    _next(qtbot, w, "install")
    inst = w.pages["install"]
    qtbot.waitUntil(lambda: inst.result == "ok", timeout=10000)
    assert inst.log.model.lines[0].startswith("[dry run]")
    assert all(line.startswith("[dry run]") for line in inst.log.model.lines)
    assert "Dry run finished" in inst.status.text()
    _next(qtbot, w, "verify")
    ver = w.pages["verify"]
    ver.start()  # nothing to replay in a plain snapshot: says so, runs nothing
    assert not ver.state.running and ver.error_banner.isVisibleTo(ver)
    _next(qtbot, w, "summary")
    assert "Dry run" in w.pages["summary"].detail.text()


def test_incompatible_choice_refused_by_the_real_engine(qtbot, tmp_path):
    snap = next(p for p in DEMOS if "h200" in p.name)
    w = _wizard(qtbot, tmp_path, snap)
    _next(qtbot, w, "system")
    _next(qtbot, w, "recommendation")
    rec = w.pages["recommendation"]
    qtbot.waitUntil(rec.isComplete, timeout=10000)
    rec.torch_version.setCurrentText("1.0")
    rec.apply_choices()
    qtbot.waitUntil(lambda: not rec.state.busy, timeout=10000)
    assert rec.refused.isVisibleTo(rec) and "1.0" in rec.refused.text()
    assert not w.button(QWizard.WizardButton.NextButton).isEnabled()


def test_report_json_opens_as_a_walkthrough_with_recorded_results(qtbot, tmp_path):
    from app.report import build_report, write_report
    from tests.ui.fakes import synthetic_verification

    snap = next(p for p in DEMOS if "h200" in p.name)
    data = json.loads(snap.read_text())
    src, system, _ = engine.load_source(str(snap))
    facts = engine.detect_facts(system)
    rec = engine.recommend(facts, __import__("app.choices", fromlist=["Choices"]).Choices())
    plan = engine.build_plan(facts, rec, __import__("app.choices", fromlist=["Choices"]).Choices())
    report = build_report(facts=facts, recommendation=rec, plan=plan, verification=synthetic_verification(),
                          snapshot=data)
    path = tmp_path / "report.json"
    write_report(report, path, "json")
    w = _wizard(qtbot, tmp_path, path)
    assert w.session.source.kind == "report"
    assert w.current_page_id == "verify"  # a report opens on its recorded result
    ver = w.pages["verify"]
    assert ver.state.verification is not None
    w.jump_to("system")  # the step list reaches every page
    qtbot.waitUntil(w.pages["system"].isComplete, timeout=10000)
    assert "Walkthrough" in w.pages["system"].source_banner.text.text()
    _next(qtbot, w, "recommendation")
    assert w.pages["recommendation"].state.recommendation.pytorch.version == rec.pytorch.version
    _next(qtbot, w, "plan")
    assert [s.id for s in w.pages["plan"].state.steps] == [s.id for s in plan.steps]
    _next(qtbot, w, "install")
    qtbot.waitUntil(lambda: w.pages["install"].result == "ok", timeout=10000)
    w.next()  # back to the verification, met before: gone back to
    qtbot.waitUntil(lambda: w.current_page_id == "verify", timeout=5000)
    assert ver.state.verification is not None and len(ver.state.series) == 100  # the recorded run, shown
    assert ver.layers.count() == 4


def test_bad_file_is_one_clear_error(qtbot, tmp_path):
    from app.system import SnapshotError

    bad = tmp_path / "broken.json"
    bad.write_bytes(b"\xff\xfe not json")
    with pytest.raises(SnapshotError):
        build_wizard(snapshot=str(bad), lang="en", services=Services(state_dir=str(tmp_path)))
    # from the Welcome page: shown on the page, nothing lost
    w = build_wizard(lang="en", services=Services(state_dir=str(tmp_path)))
    qtbot.addWidget(w)
    w.show()
    page = w.pages["welcome"]
    page.choose_file(str(bad))
    assert not page.validatePage()
    assert page.error_banner.isVisibleTo(page) and "broken.json" in page.error_banner.text.text()
    assert w.current_page_id == "welcome"


def test_assume_overrides_reach_the_system_page(qtbot, tmp_path):
    snap = next(p for p in DEMOS if "rtx3060" in p.name)
    services = Services(state_dir=str(tmp_path))
    w = build_wizard(snapshot=str(snap), lang="en", assume_driver="550.54.14", assume_gpus=("RTX 4090",),
                     services=services)
    qtbot.addWidget(w)
    w.show()
    w.next()
    qtbot.waitUntil(w.pages["system"].isComplete, timeout=10000)
    facts = w.session.facts
    assert facts.driver.version == "550.54.14" and "4090" in facts.gpus[0].name
    assert facts.overrides  # shown as assumed, for honesty in reports


def test_report_walkthrough_shows_the_recorded_install_with_its_log(qtbot, tmp_path):
    from app.report import build_report, write_report
    from app.report.demo import demo_facts, demo_plan, write_demo_session

    session = write_demo_session(tmp_path / "session", log_lines=500, fail=True)
    report = build_report(facts=demo_facts(), plan=demo_plan(), session=str(session))
    path = tmp_path / "failed-report.json"
    write_report(report, path, "json")
    w = _wizard(qtbot, tmp_path, path)
    w.services.install_backend = None  # the wizard's own choice for a report: replay its outcomes
    from app.plan.model import Plan

    w.session.plan = w.services.report["plan"]
    assert isinstance(w.session.plan, Plan)
    w.session.plan_confirmed = True
    w.jump_to("install")
    inst = w.pages["install"]
    qtbot.waitUntil(lambda: inst.result is not None, timeout=10000)
    assert inst.result == "error"
    assert "As recorded on the user's machine" in inst.status.text()
    assert inst.log.model.lines[0].startswith("[recorded]")
    assert any(inst.log.model.is_err)  # the failure's log excerpt, from the report
    assert not inst.retry_btn.isEnabled()  # nothing re-runs in a walkthrough
    assert inst.isComplete()  # and the walkthrough goes on to the verification


def test_report_walkthrough_shows_the_recorded_diagnosis(qtbot, tmp_path):
    from app.report import build_report, write_report
    from app.report.demo import demo_diagnosis, demo_facts

    report = build_report(facts=demo_facts(), diagnosis=demo_diagnosis())
    path = tmp_path / "diag-report.json"
    write_report(report, path, "json")
    w = _wizard(qtbot, tmp_path, path)
    w.jump_to("troubleshoot")
    page = w.pages["troubleshoot"]
    assert page.state.diagnosis is not None and page.state.diagnosis.matches
    assert page.state.diagnosis.matches[0].root_cause[:20] in page.result.toPlainText()


def test_windows_demo_plan_exports_powershell(qtbot, tmp_path):
    snap = next(p for p in DEMOS if "windows" in p.name)
    w = _wizard(qtbot, tmp_path, snap)
    for page in ("system", "recommendation", "plan"):
        _next(qtbot, w, page)
    plan = w.pages["plan"]
    qtbot.waitUntil(lambda: plan.state.plan is not None, timeout=10000)
    out = tmp_path / "plan.ps1"
    plan.export_script(str(out))
    text = out.read_text(encoding="utf-8")
    assert not text.startswith("#!/usr/bin/env bash") and "wsl" in text.lower()


def test_demo_then_back_to_this_computer(qtbot, tmp_path):
    w = build_wizard(lang="en", services=Services(state_dir=str(tmp_path),
                                                  install_backend=lambda s: engine.DryRunBackend(0.0)))
    qtbot.addWidget(w)
    w.show()
    page = w.pages["welcome"]
    page.choose_file(str(DEMOS[0]))  # a demo chosen opens at once
    assert w.current_page_id == "system"
    assert w.session.dry_run and w.session.source.path == str(DEMOS[0])
    qtbot.waitUntil(w.pages["system"].isComplete, timeout=10000)
    w.back()
    page.path_buttons["setup"].setChecked(True)
    _next(qtbot, w, "system")
    assert not w.session.dry_run and w.session.source.kind == "live"
    qtbot.waitUntil(w.pages["system"].isComplete, timeout=60000)
    assert w.session.facts.source == "live"


def test_html_report_opens_as_a_walkthrough(qtbot, tmp_path):
    from app.report import build_report, write_report
    from app.report.demo import demo_facts

    path = tmp_path / "report.html"
    write_report(build_report(facts=demo_facts()), path, "html")
    w = _wizard(qtbot, tmp_path, path)
    assert w.session.source.kind == "report" and w.session.dry_run
    w.next()
    qtbot.waitUntil(w.pages["system"].isComplete, timeout=10000)
    assert w.session.facts.gpus  # the facts embedded in the HTML report
