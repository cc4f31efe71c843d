"""The pages on the real engine parts: the executor (real commands, a real session folder,
failure, retry in the same session), verification on this GPU-less machine, report export,
saving a snapshot."""
from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtWidgets import QWizard

from app.plan.model import Plan, Step
from app.system import load_snapshot_data
from ui import engine


def _to_install(qtbot, w):
    for p in ("system", "recommendation", "plan"):
        qtbot.waitUntil(lambda: w.button(QWizard.WizardButton.NextButton).isEnabled(), timeout=10000)
        w.next()
        assert w.current_page_id == p
    qtbot.waitUntil(lambda: w.pages["plan"].state.plan is not None, timeout=10000)
    pass  # pressing Install (Next) confirms the plan
    w.next()
    assert w.current_page_id == "install"
    return w.pages["install"]


def test_real_executor_streams_fails_and_retries_in_the_same_session(qtbot, make_wizard, tmp_path):
    flag = tmp_path / "second-try"
    plan = Plan(steps=(
        Step(id="create_venv", title="Say hello", why="A real command.", kind="create_venv",
             commands=(("sh", "-c", "echo hello; echo warning >&2"),)),
        Step(id="install_pytorch", title="Fail once", why="Fails until the flag file exists.", kind="install_pytorch",
             commands=(("sh", "-c", f"test -e {flag} || {{ echo 'E: no such package' >&2; exit 100; }}; echo fixed"),)),
    ))
    made = []

    def new_backend(session):  # as Services.backend_for does: a new backend each time it is asked
        made.append(engine.EngineBackend(sessions_base=str(tmp_path / "sessions")))
        return made[-1]

    w, _s, _r = make_wizard(plan=plan, install_backend=None)
    w.services.install_backend = new_backend
    inst = _to_install(qtbot, w)
    qtbot.waitUntil(lambda: inst.result is not None, timeout=20000)
    assert inst.result == "error"
    assert [s.status for s in inst.state.steps] == ["ok", "error"]
    lines = inst.log.model.lines
    assert "hello" in lines and "E: no such package" in lines
    assert inst.log.model.is_err[lines.index("E: no such package")]
    backend = made[-1]
    session = Path(backend.session_dir)
    assert (session / "plan.json").exists() and (session / "commands.log").exists()
    assert inst.folder_btn.isEnabled()
    flag.touch()
    inst.retry()
    qtbot.waitUntil(lambda: inst.result == "ok", timeout=20000)
    assert len(made) == 1 and backend.session_dir == str(session)  # resumed in the same session folder
    assert len(list((tmp_path / "sessions").iterdir())) == 1
    assert "fixed" in inst.log.model.lines
    assert inst.state.step("install_pytorch").status == "ok"


def test_verify_page_runs_the_real_verification_on_this_machine(qtbot, make_wizard):
    w, _s, _r = make_wizard(verify_runner=None)
    w.pages["welcome"].path_buttons["verify"].setChecked(True)
    for _p in ("system", "verify"):
        qtbot.waitUntil(lambda: w.button(QWizard.WizardButton.NextButton).isEnabled(), timeout=10000)
        w.next()
    page = w.pages["verify"]
    page.duration.setCurrentIndex(0)
    page.start()
    qtbot.waitUntil(lambda: not page.state.running, timeout=60000)
    v = page.state.verification
    assert v is not None and [layer.name for layer in v.layers] == ["device", "bandwidth", "pytorch", "load"]
    assert page.layers.count() == 4
    # no GPU here: every layer says why it could not run; nothing is faked
    assert all(layer.status in ("skip", "fail") for layer in v.layers)


def test_summary_exports_a_real_report_and_system_saves_a_snapshot(qtbot, tmp_path):
    from app.paths import demo_snapshots
    from ui.main import build_wizard
    from ui.wizard import Services

    snap = next(p for p in demo_snapshots() if "rtx3060" in p.name)
    w = build_wizard(snapshot=str(snap), lang="en", services=Services(state_dir=str(tmp_path)))
    qtbot.addWidget(w)
    w.show()
    qtbot.waitUntil(lambda: w.button(QWizard.WizardButton.NextButton).isEnabled(), timeout=5000)
    w.next()
    sysp = w.pages["system"]
    qtbot.waitUntil(sysp.isComplete, timeout=10000)
    out = tmp_path / "copy.json"
    sysp.save_snapshot_to(str(out))
    qtbot.waitUntil(out.exists, timeout=5000)
    assert load_snapshot_data(out) == load_snapshot_data(snap)
    summary = w.pages["summary"]
    w.jump_to("summary")  # the step list reaches every page of a walkthrough
    assert w.current_page_id == "summary"
    html = tmp_path / "report.html"
    summary.export_report(str(html))
    qtbot.waitUntil(lambda: summary.report_btn.isEnabled(), timeout=20000)
    assert html.exists(), summary.error_banner.text.text()
    text = html.read_text(encoding="utf-8")
    assert "RTX 3060" in text and "<html" in text.lower()
    md = tmp_path / "report.md"
    summary.export_report(str(md))
    qtbot.waitUntil(lambda: summary.report_btn.isEnabled() and md.exists(), timeout=20000)
    js = tmp_path / "report.json"
    summary.export_report(str(js))
    qtbot.waitUntil(lambda: summary.report_btn.isEnabled() and js.exists(), timeout=20000)
    assert json.loads(js.read_text())["format"].startswith("gpu-wizard-report/")


def test_this_machine_is_detected_on_the_system_page(qtbot, tmp_path):
    """No snapshot: the real detection of this (GPU-less) machine, on a worker thread."""
    from ui.main import build_wizard
    from ui.wizard import Services

    w = build_wizard(lang="en", services=Services(state_dir=str(tmp_path)))
    qtbot.addWidget(w)
    w.show()
    assert not w.session.dry_run and "dry run" not in w.windowTitle()
    w.next()
    page = w.pages["system"]
    assert not page.isComplete()  # detecting: Next waits, the window does not
    qtbot.waitUntil(page.isComplete, timeout=60000)
    facts = w.session.facts
    assert facts.source == "live" and page.tree.topLevelItemCount() == 5
    assert not page.source_banner.isVisibleTo(page)
    if not facts.gpus:
        assert page.tree.topLevelItem(0).text(1) in ("not detected", "needs attention")  # no_nvidia_gpu is a warning


def test_snapshot_of_this_machine_is_recorded_redacted(tmp_path):
    import getpass
    import socket

    out = tmp_path / "me.json"
    engine.save_snapshot(engine.live_system(), str(out))
    text = out.read_text(encoding="utf-8")
    data = load_snapshot_data(out)  # a valid format-1 snapshot
    assert data["format"].startswith("gpu-wizard-snapshot/")
    host = socket.gethostname()
    if len(host) > 3:
        assert host not in text
    user = getpass.getuser()
    if len(user) > 3:
        assert f"/home/{user}" not in text
