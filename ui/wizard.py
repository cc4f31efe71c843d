"""The wizard window: the pages in the order the chosen path gives (ui/state.py SEQUENCES)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from PySide6.QtCore import QEvent, QSize, Qt, QTimer
from PySide6.QtGui import QCloseEvent, QGuiApplication, QIcon
from PySide6.QtWidgets import QListWidget, QListWidgetItem, QMessageBox, QWidget, QWizard

from app.paths import resource
from ui import engine
from ui.bridge import Tasks
from ui.i18n import N_, Translator, tr
from ui.state import PAGE_IDS, SEQUENCES, PageId, Session, next_page

PAGE_NAMES = {"welcome": N_("Welcome"), "system": N_("System"), "recommendation": N_("Recommendation"),
              "plan": N_("Plan"), "install": N_("Install"), "verify": N_("Verify"), "summary": N_("Summary"),
              "troubleshoot": N_("Troubleshoot")}
PREFERRED_SIZE = QSize(1280, 900)


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
    state_dir: Optional[str] = None  # where round 3's window kept resume.json (read once; default: XDG state dir)
    sessions_dir: Optional[str] = None  # install sessions (default: app.run.session.sessions_dir())
    autostart_dir: Optional[str] = None  # where the resume-after-restart autostart entry goes (default: XDG)
    reboot: Optional[Callable[[], Any]] = None  # restarts the computer (default: systemctl reboot)
    restart_wsl: Optional[Callable[[], Any]] = None  # restarts WSL 2 (default: wsl.exe --shutdown through interop)
    extra: dict = field(default_factory=dict)

    def backend_for(self, session: Session):
        if self.install_backend is not None:
            return self.install_backend(session)
        if session.dry_run:
            if self.report and self.report.get("steps"):
                return engine.RecordedBackend(self.report)  # a report: what the user's run did
            return engine.DryRunBackend()
        return engine.EngineBackend(session.facts, sessions_base=self.sessions_dir)

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
        self.setOption(QWizard.WizardOption.NoCancelButtonOnLastPage, True)  # Summary: Finish only
        self.steps_nav = QListWidget(self)
        self.steps_nav.setObjectName("step_list")
        self.steps_nav.setFrameShape(QListWidget.Shape.NoFrame)
        self.steps_nav.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.steps_nav.itemClicked.connect(self._nav_clicked)
        self.steps_nav.itemActivated.connect(self._nav_clicked)
        self.setSideWidget(self.steps_nav)
        self.fit_to_screen()
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
        self.currentIdChanged.connect(self._page_changed)
        for page in self.pages.values():  # after QWizard's own: our button rules get the last word
            page.completeChanged.connect(self.update_controls)
        self.retranslate()

    def fit_to_screen(self, avail=None) -> None:
        """The preferred size where the screen has room; else the screen's free area (a laptop at
        1366x768 with a panel, 1920x1080 at 200% scaling). Pages scroll inside when short."""
        if avail is None:
            screen = self.screen() or QGuiApplication.primaryScreen()
            avail = screen.availableGeometry() if screen is not None else None
        w, h = PREFERRED_SIZE.width(), PREFERRED_SIZE.height()
        if avail is not None and avail.width() > 0:
            frame_h = 36  # the title bar the window manager adds
            w = min(w, int(avail.width() * 0.96))
            h = min(h, int(avail.height() * 0.9), int(avail.height() - frame_h - 8))
        self.setMinimumSize(QSize(min(560, w), min(400, h)))
        self.resize(w, h)

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
        page = self.pages.get(cur)
        try:
            nxt = page.next_page() if page is not None else None  # e.g. a failed install: Troubleshoot
            nxt = nxt or next_page(self.session.path, cur)
        except Exception:  # noqa: BLE001 - never raise into Qt's C++ (it would abort the process)
            return -1
        return PAGE_IDS.index(nxt) if nxt else -1

    def jump_to(self, page: PageId) -> None:
        """Go to `page` now (Troubleshoot from a failure, Plan from a diagnosis, a page of the step
        list). A page already in the history is gone back to and entered again with what changed
        (QWizard refuses to meet a page twice going forward)."""
        target = PAGE_IDS.index(page)
        if target == self.currentId():
            self.pages[page].initializePage()
            return
        if target in self.visitedIds():
            while self.currentId() != target and len(self.visitedIds()) > 1:
                self.back()
            self.pages[page].initializePage()
            self.update_controls()
            return
        self._jump = page
        try:
            self.next()
        finally:
            self._jump = None
            self.refresh_buttons()  # QWizard chose Next/Finish while the jump's target was nextId()

    go_to = jump_to

    def refresh_buttons(self) -> None:
        """Make QWizard re-decide Next/Finish/Close for the current page (setFinalPage re-runs its
        button update; the page's own final state is left as it was)."""
        page = self.currentPage()
        if page is not None and not page.isFinalPage():
            page.setFinalPage(True)
            page.setFinalPage(False)
        elif page is not None:
            page.setFinalPage(False)
        self.update_controls()

    def validateCurrentPage(self) -> bool:  # noqa: N802 - Qt override, called by next()
        """Next to a page already in the history (Troubleshoot → Summary seen before) goes back
        to it instead: QWizard never meets a page twice going forward."""
        if self._jump is not None:
            return True  # a jump (step list, Troubleshoot) confirms nothing: the page is only left
        if not super().validateCurrentPage():
            return False
        if self._jump is None:
            nid = self.nextId()
            if nid != -1 and nid in self.visitedIds() and nid != self.currentId():
                QTimer.singleShot(0, lambda p=self.page_id(nid): self.jump_to(p))
                return False
        return True

    # --- the step list and the buttons -----------------------------------------------------
    def nav_pages(self) -> tuple[PageId, ...]:
        seq = SEQUENCES[self.session.path]
        if "troubleshoot" not in seq:  # reachable from any failure (and, in a walkthrough, any time)
            seq = seq + ("troubleshoot",)
        return seq

    def busy(self) -> Optional[str]:
        """What is running that closing or leaving would stop: "install", "verify" or None."""
        if self.install_running():
            return "install"
        ver = self.pages.get("verify")
        if ver is not None and ver.state.running and not self.session.source.recorded:
            return "verify"
        return None

    def _page_changed(self, _id: int) -> None:
        self.update_controls()
        QTimer.singleShot(0, self._focus_content)

    def _focus_content(self) -> None:
        """Tab starts in the page, not on Back/Next/Close."""
        page = self.currentPage()
        if page is None or not page.isVisible():
            return
        w: Optional[QWidget] = page.nextInFocusChain()
        for _ in range(200):
            if w is None or w is page:
                break
            if (page.isAncestorOf(w) and w.isVisible() and w.isEnabled()
                    and bool(w.focusPolicy() & Qt.FocusPolicy.TabFocus)):
                w.setFocus(Qt.FocusReason.TabFocusReason)
                return
            w = w.nextInFocusChain()

    def update_controls(self) -> None:
        """QWizard enables Back whenever there is history: not during a live install."""
        cur = self.current_page_id
        busy = self.busy()
        back = self.button(QWizard.WizardButton.BackButton)
        if back is not None and busy == "install":
            back.setEnabled(False)
        self._fill_nav(cur, busy)

    def _fill_nav(self, cur: PageId, busy: Optional[str]) -> None:
        seq = self.nav_pages()
        visited = {self.page_id(i) for i in self.visitedIds()}
        free = self.session.source.recorded  # a walkthrough: every page, any order
        self.steps_nav.blockSignals(True)
        self.steps_nav.clear()
        for pid in seq:
            it = QListWidgetItem(tr(PAGE_NAMES[pid]))
            it.setData(Qt.ItemDataRole.UserRole, pid)
            reachable = not busy and (free or pid in visited) and pid != cur
            flags = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable if (reachable or pid == cur) else Qt.ItemFlag.NoItemFlags
            it.setFlags(flags)
            if pid == cur:
                f = it.font()
                f.setBold(True)
                it.setFont(f)
                it.setText("▸ " + it.text())
            it.setData(Qt.ItemDataRole.AccessibleTextRole,
                       tr(PAGE_NAMES[pid]) + (", " + tr("current page") if pid == cur else ""))
            self.steps_nav.addItem(it)
            if pid == cur:
                self.steps_nav.setCurrentItem(it)
        self.steps_nav.blockSignals(False)
        fm = self.steps_nav.fontMetrics()
        widest = max((fm.horizontalAdvance("▸ " + tr(PAGE_NAMES[p])) for p in seq), default=80)
        f = self.steps_nav.font()
        f.setBold(True)
        from PySide6.QtGui import QFontMetrics

        widest = max(widest, max((QFontMetrics(f).horizontalAdvance("▸ " + tr(PAGE_NAMES[p])) for p in seq), default=80))
        self.steps_nav.setFixedWidth(min(220, widest + 24))

    def _nav_clicked(self, item: QListWidgetItem) -> None:
        pid = item.data(Qt.ItemDataRole.UserRole)
        if not pid or pid == self.current_page_id or self.busy():
            return
        if not (item.flags() & Qt.ItemFlag.ItemIsEnabled):
            return
        self.jump_to(pid)

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
        self.steps_nav.setAccessibleName(tr("Steps of the wizard"))
        if self.pages:
            self._fill_nav(self.current_page_id, self.busy())
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

    def ask_stop(self, then=None) -> None:
        """Closing while an install or a test runs: ask first (never half-install by a stray Esc).
        "Keep" is the default and the Escape answer; stopping is never the default button."""
        what = self.busy()
        box = QMessageBox(self)
        box.setIcon(QMessageBox.Icon.Warning)
        if what == "install":
            box.setWindowTitle(tr("An installation is running"))
            box.setText(tr("Stop the running step and close? You can resume later: finished steps are skipped."))
            keep = box.addButton(tr("&Keep installing"), QMessageBox.ButtonRole.RejectRole)
        else:
            box.setWindowTitle(tr("A test is running"))
            box.setText(tr("Stop the GPU test and close the wizard?"))
            keep = box.addButton(tr("&Keep testing"), QMessageBox.ButtonRole.RejectRole)
        stop = box.addButton(tr("&Stop and close"), QMessageBox.ButtonRole.DestructiveRole)
        box.setDefaultButton(keep)
        box.setEscapeButton(keep)
        self._close_box = box

        def answered(_r: int) -> None:
            if box.clickedButton() is not stop:
                return
            if what == "install":
                page = self.pages["install"]
                page.when_finished(self.close)
                page.cancel()
            else:
                page = self.pages["verify"]
                page.stop()
                QTimer.singleShot(0, self.close)

        box.finished.connect(answered)
        box.open()

    ask_stop_install = ask_stop

    def anything_chosen(self) -> bool:
        """What closing now would lose: a choice made (a path other than setting up, the recommendation's form,
        a fact overridden), a plan built, an install or a test run, an error pasted. A walkthrough of a
        recorded machine loses nothing but an error pasted into it."""
        s = self.session
        if s.error_text.strip():
            return True
        if s.source.recorded:
            return False
        from app.choices import Choices

        rec_page = self.pages.get("recommendation")
        dirty = bool(rec_page is not None and getattr(rec_page.state, "dirty", False))
        return (s.path != "setup" or s.choices != Choices() or any(v for v in s.overrides.values()) or dirty or s.plan is not None
                or s.install is not None or s.verification is not None)

    _close_confirmed = False

    def ask_close(self, then: Callable[[], object]) -> None:
        """Escape (or Close) once something was chosen: ask first. "Keep working" is the default and the
        Escape answer, so a second Escape never closes."""
        box = QMessageBox(self)
        box.setIcon(QMessageBox.Icon.Question)
        box.setWindowTitle(tr("Close the wizard?"))
        box.setText(tr("What you chose here is not kept when the wizard closes. An installation that already ran "
                       "is kept: its finished steps are skipped next time."))
        keep = box.addButton(tr("&Keep working"), QMessageBox.ButtonRole.RejectRole)
        close = box.addButton(tr("&Close the wizard"), QMessageBox.ButtonRole.DestructiveRole)
        box.setDefaultButton(keep)
        box.setEscapeButton(keep)
        self._close_box = box

        def answered(_r: int) -> None:
            if box.clickedButton() is close:
                self._close_confirmed = True
                QTimer.singleShot(0, then)

        box.finished.connect(answered)
        box.open()

    def _must_ask(self) -> bool:
        return not self._close_confirmed and self.anything_chosen()

    def closeEvent(self, e: QCloseEvent) -> None:  # noqa: N802
        if self.busy():
            e.ignore()
            self.ask_stop()
            return
        if e.spontaneous() and self._must_ask():  # the title bar's close button, not a program closing the window
            e.ignore()
            self.ask_close(self.close)
            return
        self._close_confirmed = True  # closing is decided: QDialog's closeEvent calls reject(), which must not ask
        self.shutdown()
        super().closeEvent(e)

    def reject(self) -> None:
        """Escape and the Close button."""
        if self.busy():
            self.ask_stop()
            return
        if self._must_ask():
            self.ask_close(self.reject)
            return
        self.shutdown()
        super().reject()

    def done(self, r: int) -> None:
        self.shutdown()
        super().done(r)
