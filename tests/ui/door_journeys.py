"""Run by tests/ui/test_door_journeys.py inside tests/realsudo.py's namespace, as the password user
(not collected on its own). The workstation and WSL 2 journeys of tests/ui/test_journeys.py, clicked
the same way, except that one root step of each plan runs for real: the real executor, real sudo,
the window's own password dialog (typed, then Enter: no extra click), the real helper as root:
- workstation: install_driver, `apt-get install -y nvidia-driver-580-open` from a local apt
  repository the namespace was given (a small package of that name);
- wsl2: fix_wsl_libcuda_links, the links, ld.wsl.conf, wsl.conf and ldconfig.
The other steps (downloads, pip) stay with the journey's fake runner. Each prints its clicks and
the time from the Install click to the root step running."""
from __future__ import annotations

import json
import os
import threading
import time

from PySide6.QtCore import Qt

from app.paths import demo_snapshots
from app.plan import Plan
from app.run import CancelToken, Executor, Session
from tests.ui.test_journeys import MAX_CLICKS, Clicks, JourneyRunner, _machine_services, _rtx4090_without_driver, _walk_to_install
from ui.main import build_wizard

PASSWORD = os.environ.get("DOOR_PASSWORD", "")


class RealRootRunner(JourneyRunner):
    """The journey's runner, but step `real` goes through the real executor and privilege."""

    def __init__(self, real: str, sessions: str):
        super().__init__()
        self.real = real
        self.sessions = sessions
        self.result = None
        self.root_started: float | None = None  # when root answered: the step runs from here

    def run(self, plan, listener, cancel, only=None) -> str:
        from app.run.events import LineEvent, PlanFinished, StepFinished, StepStarted
        from tests.ui.fakes import record_restart_wait

        self.plans.append(plan)
        reboot = False

        def inner(ev):  # the real step's events, as they are; the plan's end is this runner's to say
            if not isinstance(ev, PlanFinished):
                listener(ev)
        for n, s in enumerate(plan.steps):
            if only is not None and s.id not in only:
                continue
            if s.id == self.real:
                token = CancelToken()
                threading.Thread(target=lambda: cancel.wait() and token.cancel(), daemon=True).start()
                ex = Executor(Plan(steps=(s,)), Session.create(self.sessions), listener=inner, cancel=token)
                orig = ex._run_argv

                def timed(*a, **k):  # when root answered (the helper's "ready"): the root step runs from here
                    try:
                        return orig(*a, **k)
                    finally:
                        if self.root_started is None:
                            self.root_started = getattr(ex._privilege, "started_s", None)
                ex._run_argv = timed  # type: ignore[method-assign]
                self.result = ex.run()
                if self.result.status not in ("ok", "reboot_required"):
                    listener(PlanFinished(self.result.status, self.result.message, s.id, self.result.session_dir))
                    return self.result.status
                reboot = reboot or s.reboot_required
                continue
            listener(StepStarted(s.id, n, len(plan.steps), s.title, s.needs_root))
            for argv in s.commands:
                listener(LineEvent(s.id, "stdout", "$ " + " ".join(argv)))
            listener(StepFinished(s.id, "ok", ""))
            reboot = reboot or s.reboot_required
        status = "ok"
        if reboot:
            self.session_dir = record_restart_wait(plan, [s.id for s in plan.steps])
            status = "reboot_required"
        listener(PlanFinished(status, "", None, self.session_dir or ""))
        return status


def _type_password(qtbot, w, t_install: float) -> float:
    asker = w._password_asker
    qtbot.waitUntil(lambda: asker.dialog is not None and asker.dialog.isVisible(), timeout=60000)
    shown = time.monotonic() - t_install
    dlg = asker.dialog
    assert dlg.windowModality() == Qt.WindowModality.WindowModal and dlg.parent() is w
    qtbot.keyClicks(dlg.field, PASSWORD)
    qtbot.keyClick(dlg.field, Qt.Key.Key_Return)  # Enter is OK: typing, not a click
    return shown


def _install_with_password(qtbot, clicks: Clicks, w, runner: RealRootRunner) -> tuple[float, float]:
    plan_page = w.pages["plan"]
    t0 = [0.0]
    orig = clicks.click

    def click(widget):  # the Install click starts the clock
        if w.current_page_id == "plan":
            t0[0] = time.monotonic()
        orig(widget)
    clicks.click = click  # type: ignore[method-assign]
    _walk_to_install(qtbot, clicks, w)
    clicks.click = orig  # type: ignore[method-assign]
    shown = _type_password(qtbot, w, t0[0])
    inst = w.pages["install"]
    qtbot.waitUntil(lambda: inst.result is not None, timeout=120000)
    assert inst.result in ("ok", "reboot_required"), (runner.result.message if runner.result else "", inst.log.model.lines[-20:])
    assert runner.plans == [plan_page.state.plan]
    assert runner.root_started is not None
    return shown, runner.root_started - t0[0]


def test_workstation_journey_with_a_real_root_step(qtbot, tmp_path):
    runner = RealRootRunner("install_driver", str(tmp_path / "sessions"))
    services = _machine_services(tmp_path, _rtx4090_without_driver(), runner)
    reboots: list = []
    services.reboot = lambda: reboots.append(True)
    clicks = Clicks(qtbot)
    w = build_wizard(lang="en", services=services)
    qtbot.addWidget(w)
    w.show()
    shown, root_s = _install_with_password(qtbot, clicks, w, runner)
    assert os.path.exists("/usr/share/doc/nvidia-driver-580-open/installed-by-gwdoor")
    assert os.stat("/usr/share/doc/nvidia-driver-580-open/installed-by-gwdoor").st_uid == 0
    inst = w.pages["install"]
    qtbot.waitUntil(lambda: getattr(inst, "_reboot_box", None) is not None and inst._reboot_box.isVisible(), timeout=5000)
    clicks.click(next(b for b in inst._reboot_box.buttons() if b.text() == "Restart &now"))
    assert reboots == [True]
    print(json.dumps({"journey": "workstation", "clicks": clicks.n, "password_typed": 1, "dialog_shown_s": round(shown, 3),
                      "install_to_root_step_s": round(root_s, 3)}))
    assert clicks.n <= MAX_CLICKS


def _wsl2_window(qtbot, tmp_path):
    demo = next(p for p in demo_snapshots() if "wsl2" in p.name)
    runner = RealRootRunner("fix_wsl_libcuda_links", str(tmp_path / "sessions"))
    services = _machine_services(tmp_path, json.loads(demo.read_text(encoding="utf-8")), runner)
    w = build_wizard(lang="en", services=services)
    qtbot.addWidget(w)
    w.show()
    return w, Clicks(qtbot), runner


def test_wsl2_journey_with_a_real_root_step(qtbot, tmp_path):
    w, clicks, runner = _wsl2_window(qtbot, tmp_path)
    shown, root_s = _install_with_password(qtbot, clicks, w, runner)
    link = "/usr/local/lib/wsl-driver-links/libcuda.so.1"
    assert os.readlink(link) == "/usr/lib/wsl/lib/libcuda.so.1.1" and os.lstat(link).st_uid == 0
    assert "ldconfig = false" in open("/etc/wsl.conf").read().replace("ldconfig=false", "ldconfig = false")
    clicks.next(w)  # Install finished: on to the verification
    ver = w.pages["verify"]
    qtbot.waitUntil(lambda: ver.state.verification is not None and not ver.state.running, timeout=20000)
    print(json.dumps({"journey": "wsl2", "clicks": clicks.n, "password_typed": 1, "dialog_shown_s": round(shown, 3),
                      "install_to_root_step_s": round(root_s, 3)}))
    assert clicks.n <= MAX_CLICKS


def test_cancel_in_the_dialog_then_retry(qtbot, tmp_path):
    """Cancel in the window's password dialog: the step did not run, the Install page says why in the
    catalogue's words (not a raw sudo line), Troubleshoot names it; Retry asks again and runs it."""
    from PySide6.QtWidgets import QDialogButtonBox

    from app.messages import cli

    w, clicks, runner = _wsl2_window(qtbot, tmp_path)
    _walk_to_install(qtbot, clicks, w)
    asker = w._password_asker
    qtbot.waitUntil(lambda: asker.dialog is not None and asker.dialog.isVisible(), timeout=60000)
    qtbot.mouseClick(asker.dialog.buttons.button(QDialogButtonBox.StandardButton.Cancel), Qt.MouseButton.LeftButton)
    inst = w.pages["install"]
    qtbot.waitUntil(lambda: inst.result is not None and not inst.running, timeout=60000)
    assert inst.result == "cancelled"
    said = cli("door_cancelled", "en")
    items = [inst.steps.item(i).text() for i in range(inst.steps.count())]
    assert any(said in t for t in items), items
    assert not os.path.exists("/etc/ld.so.conf.d/ld.wsl.conf")  # nothing half-done
    inst._failure_text()
    from app.diagnose import diagnose

    d = diagnose(w.session.error_text)
    assert d.matches and d.matches[0].rule == "admin_password_cancelled"
    assert inst.retry_btn.isEnabled()
    qtbot.mouseClick(inst.retry_btn, Qt.MouseButton.LeftButton)
    _type_password(qtbot, w, time.monotonic())
    qtbot.waitUntil(lambda: inst.result == "ok" and not inst.running, timeout=60000)
    assert os.stat("/etc/ld.so.conf.d/ld.wsl.conf").st_uid == 0
