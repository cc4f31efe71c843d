"""A coloured strip across the top of a page: whose machine this is, dry run, read-only."""
from __future__ import annotations

from typing import Optional

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QWidget

from ui.widgets.icons import status_icon

_BG = {"info": ("#e3f2fd", "#0d2a45"), "warning": ("#fff3e0", "#4a2c00"), "error": ("#ffebee", "#4a0d0d"),
       "ok": ("#e8f5e9", "#113a17")}


class Banner(QFrame):
    def __init__(self, parent: Optional[QWidget] = None):
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.icon = QLabel(self)
        self.text = QLabel(self)
        self.text.setWordWrap(True)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(10, 6, 10, 6)
        lay.addWidget(self.icon, 0, Qt.AlignmentFlag.AlignTop)
        lay.addWidget(self.text, 1)
        self.kind = "info"
        self._recolouring = False
        self.setAutoFillBackground(True)
        self.hide()

    def show_message(self, text: str, kind: str = "info") -> None:
        self.kind = kind
        self.text.setText(text)
        self.setAccessibleName(text)
        self.icon.setPixmap(status_icon(kind).pixmap(20, 20))
        self._apply_colours()
        self.show()

    def event(self, e) -> bool:  # follow a light/dark switch of the desktop (Qt sends it to event())
        from PySide6.QtCore import QEvent

        if e.type() == QEvent.Type.ApplicationPaletteChange and not self._recolouring:
            self._apply_colours()
        return super().event(e)

    def _apply_colours(self) -> None:
        from PySide6.QtWidgets import QApplication

        pal = QPalette(QApplication.palette())
        dark = pal.color(QPalette.ColorRole.Window).lightness() < 128
        light_bg, dark_bg = _BG.get(self.kind, _BG["info"])
        pal.setColor(QPalette.ColorRole.Window, QColor(dark_bg if dark else light_bg))
        pal.setColor(QPalette.ColorRole.WindowText, QColor("#ffffff" if dark else "#000000"))
        self._recolouring = True
        try:
            self.setPalette(pal)
        finally:
            self._recolouring = False
