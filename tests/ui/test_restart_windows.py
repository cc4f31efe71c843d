"""On Windows, "Restart now" runs shutdown.exe (never systemctl), the resume entry is a Startup-folder .cmd,
and the next start after the restart (the boot id from the uptime counter changed) opens verification."""
from __future__ import annotations


from PySide6.QtWidgets import QMessageBox, QWizard

from app import restart
from tests.ui.fakes import FakeRunner


def test_windows_restart_now_and_resume(qtbot, make_wizard, tmp_path, monkeypatch):
    import ui.pages.install_page as ip

    monkeypatch.setattr(restart, "platform_name", lambda p=None: "windows")
    boot = {"id": restart.windows_boot_id(1_764_500_000.0, 3600.0)}
    monkeypatch.setattr(restart, "boot_id", lambda *a, **k: boot["id"])
    started = []
    monkeypatch.setattr(ip, "start_detached", lambda argv: started.append(list(argv)) or True)
    w, services, _r = make_wizard(runner=FakeRunner(reboot_after="install_thing0"), autostart_dir=str(tmp_path / "Startup"))
    assert services.reboot is None  # the default: the OS's own restart command
    for page in ("system", "recommendation", "plan", "install"):
        qtbot.waitUntil(lambda: w.button(QWizard.WizardButton.NextButton).isEnabled(), timeout=5000)
        w.next()
        assert w.current_page_id == page
    inst = w.pages["install"]
    qtbot.waitUntil(lambda: inst.result == "reboot_required" and getattr(inst, "_reboot_box", None) is not None, timeout=5000)
    entry = tmp_path / "Startup" / "gpu-wizard-resume.cmd"
    assert entry.exists() and "start \"\"" in entry.read_text()
    now = [b for b in inst._reboot_box.buttons() if inst._reboot_box.buttonRole(b) == QMessageBox.ButtonRole.AcceptRole][0]
    now.click()
    assert started == [["shutdown.exe", "/r", "/t", "0"]]

    boot["id"] = restart.windows_boot_id(1_764_500_900.0, 40.0)  # after the restart
    from ui.main import build_wizard
    from ui.wizard import Services

    w2 = build_wizard(lang="en", services=Services(state_dir=str(tmp_path / "state"), detect=services.detect,
                                                   verify_runner=services.verify_runner, autostart_dir=str(tmp_path / "Startup")))
    qtbot.addWidget(w2)
    w2.show()
    assert w2.current_page_id == "verify" and w2.session.resumed
    assert not entry.exists()
    w2.shutdown()
