"""The wizard window: the pages in the order the chosen path gives (ui/state.py SEQUENCES)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from PySide6.QtCore import QEvent, QSize
from PySide6.QtGui import QCloseEvent, QIcon
from PySide6.QtWidgets import QWizard

from app.paths import resource
from ui import engine
from ui.bridge import Tasks
from ui.i18n import Translator, tr
from ui.state import PAGE_IDS, PageId, Session, next_page


@dataclass
class Services:
    """The engine pieces the pages call; tests swap in fakes (e.g. a fake install runner)."""

    system: Any = None  # app.system.System; None: this machine (made on first use)
    report: Optional[dict] = None  # a report's JSON in a walkthrough
    install_backend: Optional[Callable[[Session], Any]] = None  # Session -> InstallBackend
    verify_runner: Optional[Callable[..., Any]] = None  # (listener, seconds, cancel) -> Verification
    detect: Callable[..., Any] = engine.detect_facts
    recommend: Callable[..., Any] = engine.recommend
    build_plan: Callable[..., Any] = engine.build_plan
    diagnose: Callable[..., Any] = engine.diagnose
    diagnose_file: Callable[..., Any] = engine.diagnose_file
    state_dir: Optional[str] = None  # where resume.json goes (default: XDG state dir)
    extra: dict = field(default_factory=dict)

    def backend_for(self, session: Session):
        if self.install_backend is not None:
            return self.install_backend(session)
        if session.dry_run:
            if self.report and self.report.get("steps"):
                return engine.RecordedBackend(self.report)  # a report: what the user's run did
            return engine.DryRunBackend()
        return engine.EngineBackend(session.facts)

    def get_system(self):
        if self.system is None:
            self.system = engine.live_system()
        return self.system


def _page_classes() -> dict[str, type]:
    from ui.pages.install_page import InstallPage
    from ui.pages.plan_page import PlanPage
    from ui.pages.recommendation_page import RecommendationPage
    from ui.pages.summary_page import SummaryPage
    from ui.pages.system_page import SystemPage
    from ui.pages.troubleshoot_page import TroubleshootPage
    from ui.pages.verify_page import VerifyPage
    from ui.pages.welcome_page import WelcomePage

    return {"welcome": WelcomePage, "system": SystemPage, "recommendation": RecommendationPage, "plan": PlanPage,
            "install": InstallPage, "verify": VerifyPage, "summary": SummaryPage, "troubleshoot": TroubleshootPage}


class Wizard(QWizard):
    def __init__(self, session: Session, services: Services, translator: Optional[Translator] = None,
                 start_page: Optional[PageId] = None):
        super().__init__()
        self.session = session
        self.services = services
        self.translator = translator
        self.tasks = Tasks(self)
        self._jump: Optional[PageId] = None
        self.setObjectName("gpu_wizard")
        self.setWizardStyle(QWizard.WizardStyle.ModernStyle)
        self.setOption(QWizard.WizardOption.NoBackButtonOnStartPage, True)
        self.setOption(QWizard.WizardOption.HaveHelpButton, False)
        self.setMinimumSize(QSize(820, 600))
        self.resize(1040, 760)
        icon = resource("icons", "gpu-wizard.svg")
        if icon.exists():
            self.setWindowIcon(QIcon(str(icon)))
        self.pages: dict[str, Any] = {}
        classes = _page_classes()
        for i, pid in enumerate(PAGE_IDS):
            page = classes[pid](self)
            self.pages[pid] = page
            self.setPage(i, page)
            page.retranslate()
        start = start_page or "welcome"
        self.setStartId(PAGE_IDS.index(start))
        self.retranslate()

    # --- sequence ------------------------------------------------------------------------
    def page_id(self, qt_id: Optional[int] = None) -> PageId:
        i = self.currentId() if qt_id is None else qt_id
        return PAGE_IDS[i] if 0 <= i < len(PAGE_IDS) else "welcome"

    @property
    def current_page_id(self) -> PageId:
        return self.page_id()

    def nextId(self) -> int:  # noqa: N802 - Qt override
        if self._jump is not None:
            return PAGE_IDS.index(self._jump)
        cur = self.page_id()
        nxt = next_page(self.session.path, cur)
        return PAGE_IDS.index(nxt) if nxt else -1

    def jump_to(self, page: PageId) -> None:
        """Go to `page` now (Troubleshoot from a failure, Plan from a diagnosis)."""
        self._jump = page
        try:
            self.next()
        finally:
            self._jump = None

    # --- language, closing ---------------------------------------------------------------
    def set_language(self, lang: str) -> None:
        if self.translator is not None:
            self.translator.set_language(lang)
            self.session.lang = self.translator.lang

    def retranslate(self) -> None:
        self.setWindowTitle(tr("GPU Setup Wizard") + (" — " + tr("dry run") if self.session.dry_run else ""))
        self.setButtonText(QWizard.WizardButton.NextButton, tr("&Next >"))
        self.setButtonText(QWizard.WizardButton.BackButton, tr("< &Back"))
        self.setButtonText(QWizard.WizardButton.CancelButton, tr("&Close"))
        self.setButtonText(QWizard.WizardButton.FinishButton, tr("&Finish"))
        for which, name in ((QWizard.WizardButton.NextButton, tr("Next page")),
                            (QWizard.WizardButton.BackButton, tr("Previous page")),
                            (QWizard.WizardButton.CancelButton, tr("Close the wizard")),
                            (QWizard.WizardButton.FinishButton, tr("Finish"))):
            b = self.button(which)
            if b is not None:
                b.setAccessibleName(name)

    def changeEvent(self, e: QEvent) -> None:  # noqa: N802
        if e.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(e)

    def shutdown(self) -> None:
        for p in self.pages.values():
            p.shutdown()
        self.tasks.shutdown()

    def install_running(self) -> bool:
        page = self.pages.get("install")
        return bool(page is not None and page.running and not self.session.dry_run)

    def ask_stop_install(self) -> None:
        """Closing while a real install runs: ask first (never half-install by a stray Esc)."""
        from PySide6.QtWidgets import QMessageBox

        box = QMessageBox(self)
        box.setIcon(QMessageBox.Icon.Warning)
        box.setWindowTitle(tr("An installation is running"))
        box.setText(tr("Stop the running step and close? You can resume later: finished steps are skipped."))
        stop = box.addButton(tr("&Stop and close"), QMessageBox.ButtonRole.DestructiveRole)
        box.addButton(tr("&Keep installing"), QMessageBox.ButtonRole.RejectRole)
        self._close_box = box

        def answered(_r: int) -> None:
            if box.clickedButton() is stop:
                page = self.pages["install"]
                page.cancel()
                page.bridge.runFinished.connect(lambda _s: self.close())

        box.finished.connect(answered)
        box.open()

    def closeEvent(self, e: QCloseEvent) -> None:  # noqa: N802
        if self.install_running():
            e.ignore()
            self.ask_stop_install()
            return
        self.shutdown()
        super().closeEvent(e)

    def reject(self) -> None:
        if self.install_running():
            self.ask_stop_install()
            return
        self.shutdown()
        super().reject()

    def done(self, r: int) -> None:
        self.shutdown()
        super().done(r)
