"""The three users' journeys, walked by clicking the window's real buttons (qtbot.mouseClick).

Every click is counted; each journey must reach its end in at most five, with no terminal:
- workstation: an RTX 4090 with no driver. Detection, recommendation and plan are the real
  engine's on a recorded machine; the steps that need root or the network (driver, venv, pip)
  go to a fake runner. The driver asks for a restart; the wizard comes back by itself (its
  autostart entry) at the verification, which starts by itself.
- wsl2: the WSL 2 laptop demo, the same way, no restart.
- support: an HTML report made by `gpu-wizard report` from real recordings (the H200's
  snapshot and verification), opened from the Welcome page's "Open a file…"; the walkthrough
  opens on the recorded verification; nothing is computed on the viewer's machine.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox, QFileDialog, QLineEdit, QWizard

from app.paths import demo_snapshots
from app.system import SnapshotSystem
from tests.ui.fakes import FakeVerifier
from ui.main import build_wizard
from ui.wizard import Services

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"
MAX_CLICKS = 5


class Clicks:
    """Clicks real widgets with the mouse and counts them."""

    def __init__(self, qtbot):
        self.qtbot = qtbot
        self.n = 0

    def click(self, widget) -> None:
        assert widget.isVisible() and widget.isEnabled(), f"{widget.objectName() or widget.text()} cannot be clicked"
        self.n += 1
        self.qtbot.mouseClick(widget, Qt.MouseButton.LeftButton)

    def next(self, w, timeout: int = 20000) -> None:
        nxt = w.button(QWizard.WizardButton.NextButton)
        self.qtbot.waitUntil(lambda: nxt.isVisible() and nxt.isEnabled(), timeout=timeout)
        self.click(nxt)


class JourneyRunner:
    """Stands in for the executor where a step needs root or the network: records the plan it was given,
    emits each step's events as the executor does, and leaves the run state the executor leaves when a
    step asks for a restart (a real session folder whose RunState waits for it)."""

    def __init__(self):
        self.plans: list = []
        self.session_dir = None

    def run(self, plan, listener, cancel, only=None) -> str:
        from app.run.events import LineEvent, PlanFinished, ProgressEvent, StepFinished, StepStarted
        from tests.ui.fakes import record_restart_wait

        self.plans.append(plan)
        total = sum(s.weight for s in plan.steps) or 1.0
        done = 0.0
        reboot = False
        for n, s in enumerate(plan.steps):
            if only is not None and s.id not in only:
                continue
            listener(StepStarted(s.id, n, len(plan.steps), s.title, s.needs_root))
            for argv in s.commands:
                listener(LineEvent(s.id, "stdout", "$ " + " ".join(argv)))
            done += s.weight
            listener(ProgressEvent(s.id, 1.0, done / total))
            listener(StepFinished(s.id, "ok", ""))
            reboot = reboot or s.reboot_required
        status = "ok"
        if reboot:
            self.session_dir = record_restart_wait(plan, [s.id for s in plan.steps])
            status = "reboot_required"
        listener(PlanFinished(status, "", None, self.session_dir or ""))
        return status


def _machine_services(tmp_path, snapshot: dict, runner: JourneyRunner) -> Services:
    """This computer is the recorded one (the engine reads it as if live); root/network steps are faked."""
    return Services(system=SnapshotSystem(snapshot, name="this-machine"), install_backend=lambda s: runner,
                    verify_runner=FakeVerifier(), state_dir=str(tmp_path / "state"),
                    autostart_dir=str(tmp_path / "autostart"), reboot=lambda: None)


def _rtx4090_without_driver() -> dict:
    """The workstation demo's machine (Ubuntu 24.04, an RTX 4090) before any NVIDIA driver: what
    detection has then is `lspci -nn` (AD102 [GeForce RTX 4090] is 10de:2684 in the PCI ID
    repository, https://pci-ids.ucw.cz/read/PC/10de/2684) and the system files."""
    demo = next(p for p in demo_snapshots() if "workstation-rtx4090" in p.name)
    data = json.loads(demo.read_text(encoding="utf-8"))
    data["commands"] = {"lspci -nn": {"rc": 0, "stderr": "", "stdout":
                        "01:00.0 VGA compatible controller [0300]: NVIDIA Corporation AD102 [GeForce RTX 4090] [10de:2684] (rev a1)\n"
                        "01:00.1 Audio device [0403]: NVIDIA Corporation AD102 High Definition Audio Controller [10de:22ba] (rev a1)\n"}}
    data["nvml"] = None
    data["note"] = "journey test: the RTX 4090 workstation before its driver"
    return data


def _walk_to_install(qtbot, clicks: Clicks, w) -> None:
    assert w.current_page_id == "welcome"
    clicks.next(w)  # Welcome: "Set up this computer" is the default path
    assert w.current_page_id == "system"
    clicks.next(w)  # System: detection finished
    assert w.current_page_id == "recommendation"
    clicks.next(w)  # Recommendation: as recommended
    assert w.current_page_id == "plan"
    plan_page = w.pages["plan"]
    qtbot.waitUntil(lambda: plan_page.state.plan is not None, timeout=20000)
    assert w.button(QWizard.WizardButton.NextButton).text() == "&Install >"
    clicks.next(w)  # Plan: Install (pressing it is the confirmation)
    assert w.current_page_id == "install"


def test_journey_workstation_rtx4090_without_driver(qtbot, tmp_path, monkeypatch):
    runner = JourneyRunner()
    services = _machine_services(tmp_path, _rtx4090_without_driver(), runner)
    reboots = []
    services.reboot = lambda: reboots.append(True)
    clicks = Clicks(qtbot)
    w = build_wizard(lang="en", services=services)
    qtbot.addWidget(w)
    w.show()
    _walk_to_install(qtbot, clicks, w)
    shown = w.pages["plan"].state.plan
    assert any(s.reboot_required for s in shown.steps) and any("driver" in s.id for s in shown.steps)
    inst = w.pages["install"]
    qtbot.waitUntil(lambda: inst.result == "reboot_required", timeout=20000)
    assert runner.plans == [shown]  # the plan run is the plan shown, object for object
    qtbot.waitUntil(lambda: getattr(inst, "_reboot_box", None) is not None and inst._reboot_box.isVisible(), timeout=5000)
    box = inst._reboot_box
    assert box.defaultButton() is not None and box.defaultButton().text() != "Restart &now"  # Enter never restarts
    now = next(b for b in box.buttons() if b.text() == "Restart &now")
    clicks.click(now)
    assert reboots == [True]
    autostart = tmp_path / "autostart" / "gpu-wizard-resume.desktop"
    assert autostart.exists() and "Exec=" in autostart.read_text()
    w.close()
    # the restart: another boot; the login session starts the autostart entry (no click)
    import ui.state

    monkeypatch.setattr(ui.state, "current_boot_id", lambda: "boot-after-the-restart")
    w2 = build_wizard(lang="en", services=_machine_services(tmp_path, _rtx4090_without_driver(), JourneyRunner()))
    qtbot.addWidget(w2)
    w2.show()
    assert w2.current_page_id == "verify" and w2.session.resumed
    assert not autostart.exists()  # one-shot: gone once used
    ver = w2.pages["verify"]
    qtbot.waitUntil(lambda: ver.state.running, timeout=5000)  # started by itself
    assert not w2.button(QWizard.WizardButton.NextButton).isEnabled()  # Next waits for the result
    qtbot.waitUntil(lambda: ver.state.verification is not None and not ver.state.running, timeout=20000)
    assert ver.layers.count() == len(ver.state.verification.layers) > 0
    print(f"journey workstation: {clicks.n} clicks")
    assert clicks.n <= MAX_CLICKS


def test_journey_wsl2_laptop(qtbot, tmp_path):
    demo = next(p for p in demo_snapshots() if "wsl2" in p.name)
    runner = JourneyRunner()
    services = _machine_services(tmp_path, json.loads(demo.read_text(encoding="utf-8")), runner)
    clicks = Clicks(qtbot)
    w = build_wizard(lang="en", services=services)
    qtbot.addWidget(w)
    w.show()
    _walk_to_install(qtbot, clicks, w)
    assert w.session.facts.os.wsl == 2
    shown = w.pages["plan"].state.plan
    inst = w.pages["install"]
    qtbot.waitUntil(lambda: inst.result == "ok", timeout=20000)
    assert runner.plans == [shown]
    assert not inst.state.reboot_needed
    clicks.next(w)  # Install finished: on to the verification, which starts by itself
    ver = w.pages["verify"]
    assert w.current_page_id == "verify"
    qtbot.waitUntil(lambda: ver.state.verification is not None and not ver.state.running, timeout=20000)
    print(f"journey wsl2: {clicks.n} clicks")
    assert clicks.n <= MAX_CLICKS
    # the memory setting needs WSL restarted: a button, not `wsl.exe --shutdown` typed on Windows
    restarted = []
    services.restart_wsl = lambda: restarted.append(True)
    clicks.next(w)
    summ = w.pages["summary"]
    assert any(s.id == "configure_wsl_memory" for s in shown.steps)
    assert summ.wsl_btn.isVisible()
    clicks.click(summ.wsl_btn)
    box = summ._wsl_box
    assert box.defaultButton().text() == "&Later"
    clicks.click(next(b for b in box.buttons() if b.text() == "&Restart WSL"))
    assert restarted == [True]


@pytest.fixture(scope="module")
def h200_report(tmp_path_factory) -> Path:
    """An HTML report as the user's `gpu-wizard report` writes it, from real recordings."""
    out = tmp_path_factory.mktemp("report") / "gpu-wizard-report.html"
    r = subprocess.run([sys.executable, "-m", "app", "report", "--snapshot", str(FIXTURES / "real" / "h200" / "snapshot-h200.json"),
                        "--verification", str(FIXTURES / "verify" / "h200_quick.json"), "-o", str(out)],
                       capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    return out


def _no_computing_here(services: Services) -> list:
    """Detection, recommendation and planning must not run for a report: its values are recorded."""
    called = []

    def boom(name):
        def f(*a, **k):
            called.append(name)
            raise AssertionError(f"{name} ran on the viewer's machine")
        return f

    services.recommend = boom("recommend")
    services.build_plan = boom("build_plan")
    return called


def test_journey_support_opens_a_report(qtbot, tmp_path, h200_report):
    services = Services(state_dir=str(tmp_path / "state"))
    called = _no_computing_here(services)
    clicks = Clicks(qtbot)
    w = build_wizard(lang="en", services=services)
    qtbot.addWidget(w)
    w.show()
    welcome = w.pages["welcome"]
    clicks.click(welcome.open_btn)  # "Open a file…", on the first page
    dlg = welcome._dialog
    assert isinstance(dlg, QFileDialog) and dlg.isVisible()
    assert "*.html" in dlg.nameFilters()[0]  # reports, not only snapshots
    dlg.setDirectory(str(h200_report.parent))
    name = dlg.findChild(QLineEdit, "fileNameEdit")
    name.setText(h200_report.name)  # typing the name (no click)
    box = dlg.findChild(QDialogButtonBox)
    clicks.click(box.button(QDialogButtonBox.StandardButton.Open))
    qtbot.waitUntil(lambda: w.current_page_id == "verify", timeout=10000)
    ver = w.pages["verify"]
    v = ver.state.verification
    assert v is not None and v.status == "pass" and ver.layers.count() == len(v.layers)
    assert "Result:" in ver.status.text() and not ver.state.running  # the recorded result, nothing ran here
    print(f"journey support: {clicks.n} clicks")
    assert clicks.n <= MAX_CLICKS
    _walkthrough_is_one_machine(qtbot, w, called)


def test_support_opens_a_report_given_on_the_command_line(qtbot, tmp_path, h200_report):
    """The file manager's "Open with" (the desktop entry's %f): `gpu-wizard FILE`, no click at all."""
    from app.cli import _file_argument

    argv = _file_argument([str(h200_report)])
    assert argv == ["--snapshot", str(h200_report)]
    services = Services(state_dir=str(tmp_path / "state"))
    called = _no_computing_here(services)
    w = build_wizard(snapshot=argv[1], lang="en", services=services)
    qtbot.addWidget(w)
    w.show()
    assert w.current_page_id == "verify" and w.pages["verify"].state.verification is not None
    _walkthrough_is_one_machine(qtbot, w, called)


def _walkthrough_is_one_machine(qtbot, w, called) -> None:
    """Every page by the step list: the recorded machine only, and no two pages disagree."""
    nav = w.steps_nav
    rep = w.session.report_data
    facts = rep["facts"]

    def go(pid):
        item = next(nav.item(i) for i in range(nav.count()) if nav.item(i).data(Qt.ItemDataRole.UserRole) == pid)
        assert item.flags() & Qt.ItemFlag.ItemIsEnabled, pid
        rect = nav.visualItemRect(item)
        qtbot.mouseClick(nav.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
        qtbot.waitUntil(lambda: w.current_page_id == pid, timeout=5000)

    go("system")
    sysp = w.pages["system"]
    qtbot.waitUntil(sysp.isComplete, timeout=10000)
    assert w.session.facts.gpus[0].name == facts.gpus[0].name
    shown = "\n".join(sysp.tree.topLevelItem(i).child(j).text(1) for i in range(sysp.tree.topLevelItemCount())
                      for j in range(sysp.tree.topLevelItem(i).childCount()))
    torch_v = w.session.verification.torch.version
    if facts.python and facts.python.torch and facts.python.torch.version:
        assert facts.python.torch.version in shown
    if torch_v:  # the PyTorch that passed the verification is on the System page too: no contradiction
        assert torch_v in shown
    go("recommendation")
    assert w.pages["recommendation"].state.recommendation == rep["recommendation"]
    go("plan")
    plan = w.pages["plan"].state.plan
    if rep.get("plan") is not None:
        assert plan == rep["plan"]
    home = str(Path.home())
    assert home == "/" or all(home not in " ".join(" ".join(c) for c in s.commands) for s in getattr(plan, "steps", ()))
    go("summary")
    summ = w.pages["summary"]
    assert summ.headline.text() == "PyTorch runs on the GPU at full speed."
    assert "What a real install would do" not in summ.changes_label.text()
    assert called == []
    assert w.button(QWizard.WizardButton.FinishButton).isVisible()  # the last page: Finish, and only it
    assert not (w.button(QWizard.WizardButton.FinishButton).isVisible() and w.button(QWizard.WizardButton.CancelButton).isVisible())


def test_changed_choice_rebuilds_the_plan_and_the_plan_run_is_the_plan_shown(qtbot, make_wizard):
    """Confirm a plan once, go back, choose the CPU build: the Plan is built again from the new
    choice before it can run, and the runner gets exactly the plan on screen."""
    from app.plan.model import Plan, Step

    def build_plan(facts, rec, choices):
        variant = choices.torch_variant or rec.pytorch.index
        steps = [Step(id="install_pytorch", title=f"Install torch ({variant} build)", why="test", kind="install_pytorch",
                      commands=(("pip", "install", "torch", "--index-url", f"https://download.pytorch.org/whl/{variant}"),))]
        if variant != "cpu":
            steps.insert(0, Step(id="install_driver", title="Install the driver", why="test", kind="install_driver",
                                 commands=(("apt-get", "install", "-y", "nvidia-driver-580-open"),), needs_root=True))
        return Plan(steps=tuple(steps))

    runner = JourneyRunner()
    w, _s, _r = make_wizard(runner=runner, build_plan=build_plan)
    clicks = Clicks(qtbot)
    _walk_to_install(qtbot, clicks, w)
    inst = w.pages["install"]
    qtbot.waitUntil(lambda: inst.result == "ok" and not inst.running, timeout=10000)
    first = runner.plans[-1]
    assert [s.id for s in first.steps] == ["install_driver", "install_pytorch"]
    w.jump_to("recommendation")  # the step list / Back
    rec = w.pages["recommendation"]
    rec.adv_toggle.setChecked(True)
    rec.torch_variant.setCurrentText("cpu")
    assert not rec.isComplete()  # edited, not applied: Next waits
    qtbot.mouseClick(rec.apply_btn, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(rec.isComplete, timeout=5000)
    assert w.session.plan is None  # the old plan is gone: it can never run
    clicks.next(w)
    plan_page = w.pages["plan"]
    qtbot.waitUntil(lambda: plan_page.state.plan is not None, timeout=5000)
    shown = plan_page.state.plan
    assert [s.id for s in shown.steps] == ["install_pytorch"] and "cpu" in shown.steps[0].title
    assert plan_page.tree.topLevelItemCount() == 1 and "cpu" in plan_page.tree.topLevelItem(0).text(1)
    clicks.next(w)  # Install
    qtbot.waitUntil(lambda: inst.result == "ok" and len(runner.plans) == 2, timeout=10000)
    assert runner.plans[-1] is shown


def test_back_waits_during_a_live_install_and_closing_asks_with_keep_as_default(qtbot, make_wizard):
    from tests.ui.fakes import FakeRunner
    from PySide6.QtWidgets import QMessageBox

    runner = FakeRunner(block_on="install_thing1")
    w, _s, _r = make_wizard(runner=runner)
    _walk_to_install(qtbot, Clicks(qtbot), w)
    qtbot.waitUntil(runner.blocked.is_set, timeout=5000)
    qtbot.wait(50)
    assert not w.button(QWizard.WizardButton.BackButton).isEnabled()
    assert not w.button(QWizard.WizardButton.NextButton).isEnabled()
    assert not any(w.steps_nav.item(i).flags() & Qt.ItemFlag.ItemIsEnabled for i in range(w.steps_nav.count())
                   if w.steps_nav.item(i).data(Qt.ItemDataRole.UserRole) != "install")
    w.reject()  # Escape
    box = w._close_box
    assert box.isVisible() and box.buttonRole(box.defaultButton()) == QMessageBox.ButtonRole.RejectRole
    assert box.escapeButton() is box.defaultButton()
    box.defaultButton().click()
    assert w.isVisible() and w.pages["install"].running
    w.pages["install"].cancel()
    qtbot.waitUntil(lambda: not w.pages["install"].running, timeout=5000)
    assert w.button(QWizard.WizardButton.BackButton).isEnabled()


def test_failed_install_reaches_troubleshoot_fix_plan_and_report(qtbot, make_wizard, tmp_path):
    """A failure is never a dead end: Next → Troubleshoot (the error diagnosed) → its fix as a plan
    (the button works though Plan was met before) → and the report from Troubleshoot."""
    from app.diagnose import diagnose as real_diagnose
    from tests.ui.fakes import FakeRunner

    runner = FakeRunner(fail_once=("install_thing2",))
    w, _s, _r = make_wizard(runner=runner, diagnose=real_diagnose)
    clicks = Clicks(qtbot)
    _walk_to_install(qtbot, clicks, w)
    inst = w.pages["install"]
    qtbot.waitUntil(lambda: inst.result == "error" and not inst.running, timeout=5000)
    # the runner's failure text is an apt one the rules know; make it a PyTorch one with a fix
    inst.log.append_lines([("stderr", "RuntimeError: CUDA error: no kernel image is available for execution on the device")])
    clicks.next(w)
    assert w.current_page_id == "troubleshoot"
    ts = w.pages["troubleshoot"]
    qtbot.waitUntil(lambda: ts.state.diagnosis is not None, timeout=10000)
    assert w.button(QWizard.WizardButton.NextButton).isEnabled()  # on to the Summary
    assert ts.report_btn.isVisible() and ts.report_btn.isEnabled()
    out = tmp_path / "report.html"
    w.pages["summary"].export_report(str(out), ts)
    qtbot.waitUntil(out.exists, timeout=20000)
    if ts.state.has_fix:
        clicks.click(ts.fix_btn)
        assert w.current_page_id == "plan"  # not "Page 3 already met"
        assert w.pages["plan"].state.plan is w.session.plan and w.session.plan_basis[0] == "fix"
    else:
        clicks.next(w)
        assert w.current_page_id == "summary"


def test_closing_during_a_running_verification_asks_keep_is_the_default(qtbot, make_wizard):
    from PySide6.QtWidgets import QMessageBox

    w, _s, _r = make_wizard()
    w.pages["welcome"].path_buttons["verify"].setChecked(True)
    clicks = Clicks(qtbot)
    clicks.next(w)
    clicks.next(w)
    ver = w.pages["verify"]
    qtbot.waitUntil(lambda: ver.state.running, timeout=5000)
    assert not w.button(QWizard.WizardButton.NextButton).isEnabled()
    w.close()  # the window's close button
    box = w._close_box
    assert w.isVisible() and box.isVisible() and box.windowTitle() == "A test is running"
    assert box.buttonRole(box.defaultButton()) == QMessageBox.ButtonRole.RejectRole and box.escapeButton() is box.defaultButton()
    box.defaultButton().click()
    assert w.isVisible()
    qtbot.waitUntil(lambda: not ver.state.running, timeout=10000)
    assert w.button(QWizard.WizardButton.NextButton).isEnabled()


def test_relaunch_before_the_restart_offers_it_in_one_click(qtbot, tmp_path, monkeypatch):
    """"Later" to the restart, then the wizard started again in the same boot: it knows the saved
    session, says the restart is still needed, and one click restarts (the autostart entry then
    continues at the verification); or it verifies now, saying the GPU checks wait for the restart."""
    import ui.state

    monkeypatch.setattr(ui.state, "current_boot_id", lambda: "the-same-boot")  # the boot the install saved is the boot it starts in
    runner = JourneyRunner()
    services = _machine_services(tmp_path, _rtx4090_without_driver(), runner)
    clicks = Clicks(qtbot)
    w = build_wizard(lang="en", services=services)
    qtbot.addWidget(w)
    w.show()
    assert not w.pages["welcome"].pending.isVisible()  # nothing saved yet: no offer
    _walk_to_install(qtbot, clicks, w)
    inst = w.pages["install"]
    qtbot.waitUntil(lambda: getattr(inst, "_reboot_box", None) is not None and inst._reboot_box.isVisible(), timeout=20000)
    clicks.click(next(b for b in inst._reboot_box.buttons() if b.text() == "&Later"))
    session_dir = w.session.session_dir
    w.close()
    autostart = tmp_path / "autostart" / "gpu-wizard-resume.desktop"
    assert autostart.exists()

    for lang, word in (("zh_CN", "重启"), ("en", "restart")):
        reboots: list = []
        s2 = _machine_services(tmp_path, _rtx4090_without_driver(), JourneyRunner())
        s2.reboot = lambda: reboots.append(True)
        w2 = build_wizard(lang=lang, services=s2)
        qtbot.addWidget(w2)
        w2.show()
        welcome = w2.pages["welcome"]
        assert w2.current_page_id == "welcome" and not w2.session.resumed
        assert w2.session.pending_restart is not None and w2.session.session_dir == session_dir
        assert welcome.pending.isVisible() and word in welcome.pending_text.text.text()
        assert not welcome.restart_btn.isDefault() and not welcome.restart_btn.autoDefault()  # Enter never restarts
        again = Clicks(qtbot)
        again.click(welcome.restart_btn)
        assert reboots == [True] and again.n == 1 and autostart.exists()  # the restart continues at verification
        if lang == "en":
            again.click(welcome.verify_now_btn)
            assert w2.current_page_id == "verify"
            ver = w2.pages["verify"]
            assert ver.error_banner.isVisible() and "not restarted" in ver.error_banner.text.text()
            qtbot.waitUntil(lambda: ver.state.verification is not None and not ver.state.running, timeout=20000)
        w2.close()
    from app.run.session import Session

    st = Session(session_dir).load_state()
    assert st.status == "reboot_required" and st.reboot_pending  # the run state still waits for the real restart
