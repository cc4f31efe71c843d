"""A measured rate drawn as a bar against its theoretical ceiling (no pyqtgraph needed)."""
from __future__ import annotations

from typing import Optional

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPalette
from PySide6.QtWidgets import QSizePolicy, QWidget

from ui.i18n import tr


class BandwidthBar(QWidget):
    """One measured rate as a bar against its theoretical ceiling."""

    def __init__(self, parent: Optional[QWidget] = None):
        super().__init__(parent)
        self.label = ""
        self.value: Optional[float] = None
        self.ceiling: Optional[float] = None
        self.unit = "GB/s"
        self.setMinimumHeight(26)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setFocusPolicy(Qt.FocusPolicy.TabFocus)

    def set_values(self, label: str, value: Optional[float], ceiling: Optional[float]) -> None:
        self.label, self.value, self.ceiling = label, value, ceiling
        self.setAccessibleName(self.text())
        self.update()

    def text(self) -> str:
        if self.value is None:
            return f"{self.label}: " + tr("not measured")
        if self.ceiling:
            return f"{self.label}: " + tr("{v:.1f} of {c:.1f} {u} ({p:.0f}%)").format(
                v=self.value, c=self.ceiling, u=self.unit, p=100 * self.value / self.ceiling)
        return f"{self.label}: {self.value:.1f} {self.unit}"

    def sizeHint(self):  # noqa: N802
        return QSize(300, max(26, self.fontMetrics().height() + 10))

    def paintEvent(self, _e) -> None:  # noqa: N802
        p = QPainter(self)
        pal = self.palette()
        r = QRectF(self.rect()).adjusted(0.5, 0.5, -0.5, -0.5)
        p.setPen(pal.color(QPalette.ColorRole.Mid))
        p.setBrush(pal.color(QPalette.ColorRole.Base))
        p.drawRoundedRect(r, 3, 3)
        if self.value is not None and self.ceiling:
            frac = max(0.0, min(1.0, self.value / self.ceiling))
            # one neutral colour: whether a figure is good enough is app.verify's verdict (shown
            # beside the bars), not the bar's to judge (pageable copies are slower by nature)
            colour = QColor(pal.color(QPalette.ColorRole.Highlight))
            colour.setAlpha(110)
            fill = QRectF(r.x(), r.y(), r.width() * frac, r.height())
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(colour)
            p.drawRoundedRect(fill, 3, 3)
        p.setPen(pal.color(QPalette.ColorRole.Text))
        p.drawText(r.adjusted(8, 0, -8, 0), Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, self.text())
        if self.hasFocus():
            p.setPen(pal.color(QPalette.ColorRole.Highlight))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawRoundedRect(r, 3, 3)
        p.end()
