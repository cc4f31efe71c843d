"""Live charts of the verification samples (pyqtgraph), and bandwidth bars against ceilings.

The charts redraw from `SampleSeries` (ui/state.py) at most at the rate `refresh()` is called
(the Verify page calls it from a 10 Hz bridge tick); pyqtgraph clips and downsamples, so a
long run costs no more per frame than a short one.
"""
from __future__ import annotations

from typing import Optional

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPalette
from PySide6.QtWidgets import QGridLayout, QSizePolicy, QWidget

from ui.i18n import N_, tr
from ui.state import CHARTS, SampleSeries

pg.setConfigOptions(antialias=False, useOpenGL=False)

LINE_COLOURS = ("#1e88e5", "#f4511e", "#43a047")
METRIC_LABELS = {
    "util_pct": N_("GPU"), "mem_util_pct": N_("Memory controller"), "mem_used_mib": N_("Used"),
    "power_w": N_("Power draw"), "pcie_rx_mbps": N_("To GPU"), "pcie_tx_mbps": N_("From GPU"),
    "sm_clock_mhz": N_("SM clock"), "mem_clock_mhz": N_("Memory clock"),
}
CHART_TITLES = {"utilization": N_("Utilization"), "memory": N_("Memory used"), "power": N_("Power"),
                "pcie": N_("PCIe throughput"), "clocks": N_("Clocks")}
assert set(CHART_TITLES) == {c[0] for c in CHARTS}


class ChartPanel(QWidget):
    def __init__(self, parent: Optional[QWidget] = None):
        super().__init__(parent)
        self.plots: dict[str, pg.PlotWidget] = {}
        self.curves: dict[str, pg.PlotDataItem] = {}
        self.legends: dict[str, pg.LegendItem] = {}
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        for i, (key, _title, unit, _scale, metrics) in enumerate(CHARTS):
            w = pg.PlotWidget(self)
            w.setMinimumHeight(120)
            w.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
            w.setMouseEnabled(x=False, y=False)
            w.hideButtons()
            w.setMenuEnabled(False)
            pi = w.getPlotItem()
            pi.setClipToView(True)
            pi.setDownsampling(auto=True, mode="peak")
            pi.showGrid(x=True, y=True, alpha=0.2)
            pi.setLabel("left", units=None, text=unit)
            if key == "utilization":
                pi.setYRange(0, 100, padding=0.02)
            else:
                pi.enableAutoRange(axis="y", enable=True)
                pi.setLimits(yMin=0)
            self.legends[key] = pi.addLegend(offset=(5, 5), labelTextSize="8pt")
            for j, m in enumerate(metrics):
                c = pi.plot([], [], pen=pg.mkPen(LINE_COLOURS[j % len(LINE_COLOURS)], width=2), name=m)
                self.curves[m] = c
            self.plots[key] = w
            grid.addWidget(w, i // 2, i % 2)
        self._apply_palette()
        self.retranslate()

    def refresh(self, series: SampleSeries) -> None:
        if not len(series):
            for c in self.curves.values():
                c.setData([], [])
            return
        t = np.asarray(series.t, dtype=float)
        for _key, _t, _unit, scale, metrics in CHARTS:
            for m in metrics:
                y = np.asarray(series.values[m], dtype=float) * scale
                self.curves[m].setData(t, y, connect="finite")

    def _apply_palette(self) -> None:
        pal = self.palette()
        bg = pal.color(QPalette.ColorRole.Base)
        fg = pal.color(QPalette.ColorRole.Text)
        for w in self.plots.values():
            w.setBackground(bg)
            pi = w.getPlotItem()
            for ax in ("left", "bottom"):
                a = pi.getAxis(ax)
                a.setPen(pg.mkPen(fg))
                a.setTextPen(pg.mkPen(fg))
            pi.titleLabel.setAttr("color", fg.name())
        for lg in self.legends.values():
            lg.setLabelTextColor(fg)

    def changeEvent(self, e) -> None:  # noqa: N802
        from PySide6.QtCore import QEvent

        if e.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        elif e.type() == QEvent.Type.PaletteChange:
            self._apply_palette()
        super().changeEvent(e)

    def retranslate(self) -> None:
        fg = self.palette().color(QPalette.ColorRole.Text).name()
        for key, _title, unit, _scale, metrics in CHARTS:
            w = self.plots[key]
            title = tr(CHART_TITLES[key])
            w.getPlotItem().setTitle(f"{title} ({unit})", color=fg, size="10pt")
            w.setAccessibleName(tr("Chart: {title}").format(title=title))
            w.getPlotItem().setLabel("bottom", tr("seconds"))
            lg = self.legends[key]
            for sample, label in lg.items:
                for m in metrics:
                    if self.curves[m] is sample.item:
                        label.setText(tr(METRIC_LABELS[m]))


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
        from PySide6.QtCore import QSize

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
            colour = QColor("#43a047" if frac >= 0.7 else "#fb8c00" if frac >= 0.4 else "#e53935")
            colour.setAlpha(150)
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
