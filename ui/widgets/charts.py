"""Live charts of the verification samples (pyqtgraph), and bandwidth bars against ceilings.

The charts redraw from `SampleSeries` (ui/state.py) at most at the rate `refresh()` is called
(the Verify page calls it from a 10 Hz bridge tick); pyqtgraph clips and downsamples, so a
long run costs no more per frame than a short one.
"""
from __future__ import annotations

import math
from typing import Optional

import numpy as np
import pyqtgraph as pg
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QGridLayout, QSizePolicy, QWidget

from ui.i18n import N_, tr
from ui.state import CHARTS, SampleSeries

pg.setConfigOptions(antialias=False, useOpenGL=False)

LINE_COLOURS = ("#1e88e5", "#f4511e", "#43a047")
COLUMNS = 3
UTIL_TOP = 105.0  # a line at 100% stays visible above the frame
WINDOW_S = 60.0  # seconds shown
STEP_S = 10.0  # the time window moves in steps of this


def nice_ceiling(v: float) -> float:
    """1, 2, 2.5, 5 × 10^n at or above v (axis tops that read well)."""
    if v <= 0 or not math.isfinite(v):
        return 1.0
    exp = math.floor(math.log10(v))
    for m in (1, 2, 2.5, 5, 10):
        if m * 10 ** exp >= v:
            return m * 10 ** exp
    return 10 ** (exp + 1)
METRIC_LABELS = {
    "util_pct": N_("GPU"), "mem_util_pct": N_("Memory controller"), "mem_used_mib": N_("Used"),
    "power_w": N_("Power draw"), "pcie_rx_mbps": N_("To GPU"), "pcie_tx_mbps": N_("From GPU"),
    "sm_clock_mhz": N_("SM clock"), "mem_clock_mhz": N_("Memory clock"), "temp_c": N_("GPU temperature"),
}
CHART_TITLES = {"utilization": N_("Utilization"), "memory": N_("Memory used"), "power": N_("Power"),
                "pcie": N_("PCIe throughput"), "clocks": N_("Clocks"), "temperature": N_("Temperature")}
assert set(CHART_TITLES) == {c[0] for c in CHARTS}


class ChartPanel(QWidget):
    def __init__(self, parent: Optional[QWidget] = None):
        super().__init__(parent)
        self.plots: dict[str, pg.PlotWidget] = {}
        self.ranges: dict[str, tuple[float, float]] = {}  # chart key -> (x max, y max) shown
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
            # fixed ranges that move in steps: axes are re-laid out only when a range changes
            # (a few times a minute), not on every refresh; repainting axis text 10 times a
            # second per chart costs more than the curves
            pi.disableAutoRange()
            pi.setRange(xRange=(0, WINDOW_S), yRange=(0, UTIL_TOP if key == "utilization" else 1), padding=0)
            self.legends[key] = pi.addLegend(offset=(-5, 5), labelTextSize="8pt")
            for j, m in enumerate(metrics):
                c = pi.plot([], [], pen=pg.mkPen(LINE_COLOURS[j % len(LINE_COLOURS)], width=2), name=m)
                self.curves[m] = c
            self.plots[key] = w
            grid.addWidget(w, i // COLUMNS, i % COLUMNS)
        self._apply_palette()
        self.retranslate()

    def refresh(self, series: SampleSeries, fit: bool = False) -> None:
        """Redraw from `series`. `fit`: show the whole run (a finished or recorded one) rather
        than the live 60-second window."""
        if not len(series):
            for c in self.curves.values():
                c.setData([], [])
            for key, *_ in CHARTS:
                self._set_range(key, WINDOW_S, UTIL_TOP if key == "utilization" else 1)
            return
        t = np.asarray(series.t, dtype=float)
        x_max = max(WINDOW_S, math.ceil(t[-1] / STEP_S) * STEP_S)
        if fit:
            self.ranges.clear()
        changes = 0
        for key, _t, _unit, scale, metrics in CHARTS:
            y_top = 0.0
            for m in metrics:
                y = np.asarray(series.values[m], dtype=float) * scale
                self.curves[m].setData(t, y, connect="finite")
                finite = y[np.isfinite(y)]
                if finite.size:
                    y_top = max(y_top, float(finite.max()))
            y_max = UTIL_TOP if key == "utilization" else nice_ceiling(y_top * 1.1)
            # while streaming, re-lay out at most one chart's axes per refresh (10 Hz): six at
            # once cost ~40 ms on a slow machine; the others follow within a second
            if fit or changes == 0:
                changes += self._set_range(key, x_max, y_max, x_min=0.0 if fit else None)

    def _set_range(self, key: str, x_max: float, y_max: float, x_min: Optional[float] = None) -> int:
        """Set a chart's visible range; returns 1 when it changed (its axes are re-laid out)."""
        old = self.ranges.get(key)
        if old is not None and old[0] == x_max and y_max <= old[1]:
            return 0  # grows only (within a run), so the axes stay still
        y_max = max(y_max, old[1]) if old is not None and old[0] == x_max else y_max
        self.ranges[key] = (x_max, y_max)
        x0 = x_max - WINDOW_S if x_min is None else x_min
        self.plots[key].getPlotItem().setRange(xRange=(x0, x_max), yRange=(0, y_max), padding=0)
        return 1

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
        legend_bg = QColor(bg)
        legend_bg.setAlpha(210)
        for lg in self.legends.values():
            lg.setLabelTextColor(fg)
            lg.setBrush(pg.mkBrush(legend_bg))

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
