"""Start the wizard's window: `gpu-wizard` with no subcommand calls `run_gui()`.

Fast first page: only Qt and the Welcome page's needs are imported before the window shows;
detection starts on the System page, on a worker thread.
"""
from __future__ import annotations

import os
import sys
import time
from typing import TYPE_CHECKING, Optional, Sequence

if TYPE_CHECKING:
    from ui.state import PageId

_T0 = time.perf_counter()
SMOKE_ENV = "GPU_WIZARD_SMOKE_TEST"  # installers/smoke.py: print when the first window shows, then quit


def since_launch_s() -> float:
    """Seconds since this process started (Linux: /proc; elsewhere: since ui.main was imported)."""
    try:
        with open("/proc/self/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        with open("/proc/uptime") as f:
            uptime = float(f.read().split()[0])
        return uptime - int(fields[19]) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return time.perf_counter() - _T0


def tune_interpreter() -> None:
    """Engine work runs on worker threads in this process (log streaming, NVML sampling). With
    Python's default 5 ms GIL switch interval the GUI thread can wait 5 ms each time it needs
    the GIL back during one paint; 1 ms keeps repaints well inside the 50 ms budget."""
    sys.setswitchinterval(0.001)


def make_app(argv: Optional[Sequence[str]] = None):
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    if app is None:
        QGuiApplication.setHighDpiScaleFactorRoundingPolicy(Qt.HighDpiScaleFactorRoundingPolicy.PassThrough)
        app = QApplication(list(argv or [sys.argv[0]]))
        app.setApplicationName("gpu-wizard")
        app.setApplicationDisplayName("GPU Setup Wizard")
        app.setDesktopFileName("gpu-wizard")
    return app


def build_wizard(snapshot: Optional[str] = None, lang: Optional[str] = None, assume_driver: Optional[str] = None,
                 assume_gpus: tuple[str, ...] = (), python_version: Optional[str] = None, services=None,
                 state_dir: Optional[str] = None):
    """The wizard window for these options (tests and the screenshot script use this too)."""
    from ui import engine
    from ui.i18n import Translator, normalise_lang, system_language
    from ui.state import Session, walkthrough_start
    from ui.wizard import Services, Wizard

    app = make_app()
    translator = getattr(app, "_gpu_wizard_translator", None)
    if translator is None:
        translator = Translator(app)
        app._gpu_wizard_translator = translator
    translator.set_language(normalise_lang(lang) if lang else system_language())
    session = Session(lang=translator.lang,
                      overrides={"assume_driver": assume_driver, "assume_gpus": tuple(assume_gpus),
                                 "python_version": python_version})
    services = services or Services(state_dir=state_dir)
    start: Optional[PageId] = None
    from ui.fleet_dialog import is_fleet_report

    fleet = snapshot if snapshot and is_fleet_report(snapshot) else None  # `gpu-wizard fleet.html`: its hosts
    if fleet:
        snapshot = None
    if snapshot:
        source, system, report = engine.load_source(snapshot)  # SnapshotError: one clear line
        engine.open_recorded(session, services, source, system, report)
        start = walkthrough_start(report) if report else None  # a snapshot: Welcome offers its paths
    else:
        start = _resume(session, services)
    w = Wizard(session, services, translator, start_page=start)
    from ui.password_dialog import install_password_prompt

    install_password_prompt(w)  # root steps ask through the window's own dialog (or polkit's)
    if fleet:
        from app.system import SnapshotError
        from ui.fleet_dialog import FleetReportError, open_if_fleet

        try:
            open_if_fleet(w, fleet)
        except FleetReportError as e:
            raise SnapshotError(str(e)) from None
    return w


def _resume(session, services) -> Optional[PageId]:
    """Where a run that asked for a restart goes on: its run state (app/run/resume.py), or once an old
    window's resume.json. After the restart: the verification (the run stops waiting); before it ("Later"):
    the Welcome page offers the restart."""
    from app.restart import resume_due
    from app.run import resume
    from ui.pages.install_page import remove_autostart, resume_path
    from ui.state import current_boot_id

    point = resume.waiting_for_restart(services.sessions_dir) or resume.read_legacy(resume_path(services.state_dir))
    if point is None:
        return None
    session.session_dir = point.session_dir
    if not resume_due(point.boot_id, current_boot_id()):
        session.pending_restart = point  # the autostart entry stays: the restart still continues at verification
        return None
    session.resumed = True
    session.path = "setup"
    resume.restarted(point)
    remove_autostart(services.autostart_dir)
    return "verify"


def run_gui(snapshot: Optional[str] = None, lang: Optional[str] = None, assume_driver: Optional[str] = None,
            assume_gpus: tuple[str, ...] = (), python_version: Optional[str] = None) -> int:
    tune_interpreter()
    app = make_app()
    from app.system import SnapshotError

    try:
        wizard = build_wizard(snapshot, lang, assume_driver, assume_gpus, python_version)
    except SnapshotError as e:
        sys.stderr.write(f"gpu-wizard: error: {e}\n")
        return 2
    wizard.show()
    import gc

    gc.freeze()  # start-up objects never die: keep them out of the collector's full passes
    if os.environ.get(SMOKE_ENV):
        from PySide6.QtCore import QTimer

        def shown() -> None:
            print(f"first window shown {since_launch_s() * 1000:.0f} ms after launch", flush=True)
            wizard.close()
            app.quit()

        QTimer.singleShot(0, shown)
    rc = app.exec()
    wizard.shutdown()
    return int(rc)
