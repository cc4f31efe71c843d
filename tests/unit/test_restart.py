"""Restart and resume on each OS (app/restart.py): on Windows "Restart now" runs shutdown.exe, the boot id
changes across a restart (so the resume fires) and the one-shot login entry is a .cmd in the Startup
folder; on Linux systemctl, /proc's boot_id and an XDG .desktop entry. The window and the executor use
these same functions."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from app import restart


def test_restart_command_per_os():
    assert restart.restart_argv("windows") == ["shutdown.exe", "/r", "/t", "0"]
    assert restart.restart_argv("win32") == ["shutdown.exe", "/r", "/t", "0"]
    assert restart.restart_argv("linux") == ["systemctl", "reboot"]


def test_windows_boot_id_changes_across_a_restart_and_not_within_a_boot(monkeypatch):
    clock = {"now": 1_764_500_000.0}
    monkeypatch.setattr(restart.time, "time", lambda: clock["now"])
    booted = clock["now"] - 3600.0  # up for an hour
    before = restart.boot_id("windows", uptime_s=lambda: clock["now"] - booted)
    clock["now"] += 42.7  # later in the same boot (uptime and wall clock move together, with jitter)
    assert restart.boot_id("windows", uptime_s=lambda: clock["now"] - booted + 0.004) == before
    clock["now"] += 600.0
    after = restart.boot_id("windows", uptime_s=lambda: 95.0)  # restarted: up for 95 s
    assert before and after and after != before
    assert restart.resume_due(before, after) and not restart.resume_due(before, before)


def test_the_executor_and_the_window_share_the_boot_id(monkeypatch):
    from app.run import executor
    import ui.state  # noqa: F401  (Qt-free module)

    monkeypatch.setattr(restart, "boot_id", lambda *a, **k: "boot-123")
    assert executor.boot_id() == "boot-123"
    from ui.state import current_boot_id

    assert current_boot_id() == "boot-123"


def test_linux_boot_id_from_proc(tmp_path):
    p = tmp_path / "boot_id"
    p.write_text("0f5c2d1e-aaaa-bbbb-cccc-123456789abc\n")
    assert restart.boot_id("linux", proc_path=str(p)) == "0f5c2d1e-aaaa-bbbb-cccc-123456789abc"
    assert restart.boot_id("linux", proc_path=str(tmp_path / "none")) is None
    assert restart.resume_due(None, None)  # cannot tell: go on to verification (safe either way)


def test_windows_autostart_is_a_startup_folder_cmd_that_starts_the_wizard(tmp_path):
    launch = [r"C:\Program Files\GPU Wizard\gpu-wizard.exe", "--lang", "zh_CN", "100%"]
    path = restart.write_autostart(launch, str(tmp_path), "windows")
    assert path == tmp_path / "gpu-wizard-resume.cmd"
    text = path.read_bytes().decode("utf-8")
    assert text.endswith("\r\n") and "\n" not in text.replace("\r\n", "")
    assert 'start "" "C:\\Program Files\\GPU Wizard\\gpu-wizard.exe" "--lang" "zh_CN" "100%%"' in text
    assert 'del "%~f0"' in text  # one-shot
    restart.remove_autostart(str(tmp_path), "windows")
    assert not path.exists()
    with pytest.raises(ValueError):
        restart.autostart_text(['a"b'], "windows")
    startup = restart.autostart_dir("windows", {"APPDATA": r"C:\Users\u\AppData\Roaming"})
    assert startup.parts[-4:] == ("Microsoft", "Windows", "Start Menu", "Programs", "Startup")[-4:]


def test_linux_autostart_is_an_xdg_entry(tmp_path):
    path = restart.write_autostart([sys.executable, "-m", "app"], str(tmp_path), "linux")
    assert path.name == "gpu-wizard-resume.desktop"
    text = path.read_text()
    assert f"Exec={sys.executable} -m app" in text and "X-GNOME-Autostart-enabled=true" in text
    assert restart.autostart_dir("linux", {"XDG_CONFIG_HOME": "/x/cfg"}) == Path("/x/cfg/autostart")


def test_install_page_restarts_with_the_os_command(monkeypatch):
    """The window's "Restart now" asks app.restart for the command (no systemctl hard-coded)."""
    src = (Path(restart.__file__).resolve().parents[1] / "ui" / "pages" / "install_page.py").read_text(encoding="utf-8")
    assert '"systemctl"' not in src and "start_detached(restart.restart_argv())" in src
    r = subprocess.run([sys.executable, "-c", "import app.restart as r, sys; sys.platform = 'win32'; print(r.restart_argv())"],
                       capture_output=True, text=True, timeout=60, cwd=str(Path(restart.__file__).resolve().parents[1]))
    assert r.stdout.strip() == "['shutdown.exe', '/r', '/t', '0']"
