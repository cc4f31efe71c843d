"""What every page shares: the session, the worker tasks, a banner, re-translation."""
from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import QFrame, QScrollArea, QVBoxLayout, QWidget, QWizardPage

from ui.i18n import tr
from ui.state import PageId, format_when, machine_summary
from ui.widgets.banner import Banner

if TYPE_CHECKING:
    from ui.wizard import Wizard


def join_sentences(parts) -> str:
    """Sentences (or a label and its text) one after another: a space after English punctuation,
    none after a Chinese full stop or colon."""
    out = ""
    for p in parts:
        if not p:
            continue
        if out and not out.endswith(("。", "：", "！", "？", "；", "）")):
            out += " "
        out += p
    return out


class BasePage(QWizardPage):
    page_id: PageId = "welcome"

    def __init__(self, wizard: "Wizard"):
        super().__init__()
        self.w = wizard
        self.session = wizard.session
        self.tasks = wizard.tasks
        self.setObjectName(f"page_{self.page_id}")
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        self.source_banner = Banner(self)
        self.source_banner.setObjectName("source_banner")
        outer.addWidget(self.source_banner)
        self.error_banner = Banner(self)
        outer.addWidget(self.error_banner)
        # the page's content scrolls inside the page when the window is short (a 1366x768 laptop,
        # 200% scaling): Back/Next stay on screen
        self.scroll_area = QScrollArea(self)
        self.scroll_area.setObjectName("page_scroll")
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll_area.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.body = QWidget()
        self.body.setMinimumSize(480, 300)
        self.scroll_area.setWidget(self.body)
        outer.addWidget(self.scroll_area, 1)
        self.layout_ = QVBoxLayout(self.body)
        self.layout_.setContentsMargins(0, 4, 0, 0)

    # --- helpers ------------------------------------------------------------------------
    def show_error(self, message: str, kind: str = "error") -> None:
        self.error_banner.show_message(message, kind)

    def clear_error(self) -> None:
        self.error_banner.hide()

    def update_source_banner(self) -> None:
        src = self.session.source
        if not src.recorded:
            self.source_banner.hide()
            return
        # said from the recorded facts in the window's language (the report's own line is English)
        machine = machine_summary(self.session.facts, tr("driver {version}")) or src.machine or src.name
        when = format_when(src.created) or tr("an unknown time")
        text = tr("Walkthrough of a recorded machine: {machine}, recorded {when} ({file}). "
                  "Read-only: nothing runs on this computer; installs are a dry run.").format(
            machine=machine, when=when, file=src.name)
        if src.note:
            text += " " + tr("Note: {note}").format(note=src.note)
        self.source_banner.show_message(text, "info")

    # --- Qt -----------------------------------------------------------------------------
    def initializePage(self) -> None:  # noqa: N802
        self.update_source_banner()
        if self.session.source.recorded:
            self.retranslate()  # the words for a recorded machine ("the recorded machine", not "this computer")
        self.enter()

    def enter(self) -> None:
        """Called each time the page is shown going forward."""

    def next_page(self) -> Optional[PageId]:
        """Where Next goes from here when it is not the path's next page (None: the path's)."""
        return None

    def retranslate(self) -> None:
        """Set every visible text (called at build and on every language change)."""

    def changeEvent(self, e: QEvent) -> None:  # noqa: N802
        if e.type() == QEvent.Type.LanguageChange:
            self.retranslate()
            if self.session.source.recorded:
                self.update_source_banner()
        super().changeEvent(e)

    def shutdown(self) -> None:
        """Stop timers and work (the window is closing)."""
