"""GUI test fixtures: offscreen Qt, and a guard that fails any test leaking a running QThread
or an active QTimer (every page must stop its work when the window closes)."""
from __future__ import annotations

import gc
import os

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

NO_QT = ""
try:
    import ui  # noqa: E402,F401 - first: works around PySide6 6.12.0 on Python 3.11 (see ui/__init__.py)

    from PySide6.QtCore import QCoreApplication, QThread, QTimer  # noqa: E402
    from PySide6.QtWidgets import QApplication  # noqa: E402
except ImportError as e:  # a machine without Qt's system libraries (libGL, libEGL, fontconfig, xcb ...)
    NO_QT = f"Qt cannot load here ({e}); scripts/sysdeps.sh installs the system libraries it needs"

if NO_QT:
    class _NoQtModule(pytest.Module):
        """Every GUI test module here is reported skipped, with the reason, instead of erroring."""

        def collect(self):
            pytest.skip(NO_QT, allow_module_level=True)

    def pytest_pycollect_makemodule(module_path, parent):
        return _NoQtModule.from_parent(parent, path=module_path)


def live_qt_leaks() -> list[str]:
    leaks = []
    for obj in gc.get_objects():
        try:
            if isinstance(obj, QThread) and obj is not QThread.currentThread() and obj.isRunning():
                leaks.append(f"running QThread {obj!r}")
            elif isinstance(obj, QTimer) and obj.isActive():
                leaks.append(f"active QTimer {obj!r} (parent {obj.parent()!r})")
        except RuntimeError:  # the C++ object is already gone: not a leak
            continue
    return leaks


@pytest.fixture(autouse=True)
def no_leaked_threads_or_timers(qapp):
    yield
    for w in QApplication.topLevelWidgets():
        w.close()
    for _ in range(3):
        QCoreApplication.processEvents()
    leaks = live_qt_leaks()
    assert not leaks, "test leaked Qt threads/timers: " + "; ".join(leaks)


@pytest.fixture(autouse=True)
def own_sessions_folder(tmp_path, monkeypatch):
    """Install sessions (and the run states a start-up resumes from) live in the test's own folder."""
    monkeypatch.setenv("GPU_WIZARD_SESSIONS", str(tmp_path / "sessions"))


@pytest.fixture
def make_wizard(qtbot, tmp_path):
    """Build a wizard with fake engine parts; returns (wizard, services)."""
    from tests.ui.fakes import FakeRecommend, FakeRunner, FakeVerifier, h200_facts, make_plan
    from ui.main import build_wizard
    from ui.wizard import Services

    made = []

    def make(snapshot=None, lang="en", facts=None, runner=None, plan=None, **kw):
        f = facts or h200_facts()
        runner = runner or FakeRunner()
        services = Services(install_backend=lambda s: runner, verify_runner=FakeVerifier(), state_dir=str(tmp_path / "state"),
                            detect=kw.pop("detect", lambda system, overrides, report: f),
                            recommend=kw.pop("recommend", FakeRecommend()),
                            build_plan=kw.pop("build_plan", lambda facts, rec, choices: plan or make_plan()))
        for k, v in kw.items():
            setattr(services, k, v)
        w = build_wizard(snapshot=snapshot, lang=lang, services=services)
        qtbot.addWidget(w)
        w.show()
        made.append(w)
        return w, services, runner

    yield make
    for w in made:
        if w.translator is not None and w.translator.lang != "en":
            w.set_language("en")  # the app's translators outlive the window: the next test starts in English
        w.shutdown()
