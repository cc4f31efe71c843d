"""Live charts of the verification samples (pyqtgraph), and bandwidth bars against ceilings.

The charts redraw from `SampleSeries` (ui/state.py) at most at the rate `refresh()` is called
(the Verify page calls it from a 10 Hz bridge tick); pyqtgraph clips and downsamples, so a
long run costs no more per frame than a short one.
"""
from __future__ import annotations

import math
from html import escape
from typing import Optional

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF, QTimer
from PySide6.QtGui import QBrush, QColor, QFontMetrics, QPalette
from PySide6.QtWidgets import QGraphicsItem, QGridLayout, QSizePolicy, QWidget

from ui.i18n import N_, tr
from ui.state import CHARTS, SampleSeries
from ui.widgets.phases import PHASE_COLOURS, PHASE_NAMES, phase_colour, phase_name  # noqa: F401

pg.setConfigOptions(antialias=False, useOpenGL=False)

LINE_COLOURS = ("#1e88e5", "#f4511e", "#43a047")
COLUMNS = 3
UTIL_TOP = 105.0  # a line at 100% stays visible above the frame
WINDOW_S = 60.0  # seconds shown at most while a run streams
STEP_S = 10.0  # the time axis grows (and then moves) in steps of this
TURN_MS = 25  # paint_in_turns: between two groups of charts (at 0 ms, the next may come before one is painted)
MARK_COLOURS = {"fail": "#d32f2f", "warn": "#ef6c00"}
RATE_COLOURS = ("#1e88e5", "#f4511e", "#43a047", "#8e24aa", "#00897b", "#6d4c41", "#c0ca33", "#546e7a")
RATE_ORDER = ("fp8", "bf16", "fp16", "tf32", "fp32", "triad", "copy")  # a series keeps its colour whenever it appears


def rate_colour(name: str) -> str:
    i = RATE_ORDER.index(name) if name in RATE_ORDER else len(RATE_ORDER) + sum(map(ord, name))
    return RATE_COLOURS[i % len(RATE_COLOURS)]


def cached_label(line: pg.InfiniteLine) -> pg.InfiniteLine:
    """A labelled line's text painted once into a pixmap, not laid out again at every repaint of its chart
    (a chart repaints at each new sample; four labelled lines cost ~10 ms a frame in the rates' chart)."""
    label = getattr(line, "label", None)
    if label is not None:
        label.textItem.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
    return line


def phase_legend_entries(names: list[str]) -> list[tuple[str, str]]:
    """(colour, words) per colour of the phases `names`, in order: phases shaded alike share one entry,
    "matrix products fp8/bf16/fp16" (a burn-in's matrix products are one colour, one entry per precision
    made the legend longer than a 1366 px window)."""
    by_colour: dict[str, list[str]] = {}
    for name in dict.fromkeys(names):
        by_colour.setdefault(phase_colour(name), []).append(name)
    out = []
    for colour, members in by_colour.items():
        bases = {m.partition("_")[0] for m in members}
        if len(members) > 1 and len(bases) == 1 and all("_" in m for m in members):
            words = phase_name(bases.pop()) + " " + "/".join(m.partition("_")[2] for m in members)
        else:
            words = " / ".join(phase_name(m) for m in members)
        out.append((colour, words))
    return out


def _figure(v: float) -> str:
    return f"{v:,.1f}".rstrip("0").rstrip(".")


CEILING_COLOUR = "#d32f2f"


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
CEILING_NAMES = {"PCIe link": N_("PCIe link"), "power limit": N_("power limit"), "GPU memory": N_("GPU memory")}
MEASURED_NAMES = {"to GPU": N_("to GPU"), "from GPU": N_("from GPU")}


class PhaseBands(pg.GraphicsObject):
    """The test phases shaded behind a chart's curves: (t0, t1, colour) bands across the whole height,
    painted by one item (a LinearRegionItem per band and chart cost ~2 ms each to make, and each moved one
    asked its chart to lay out again)."""

    def __init__(self) -> None:
        super().__init__()
        self.bands: tuple[tuple[float, float, str], ...] = ()
        self._brushes: dict[str, QBrush] = {}
        self.setZValue(-10)

    def set_bands(self, bands: tuple[tuple[float, float, str], ...]) -> None:
        if bands != self.bands:
            self.prepareGeometryChange()
            self.bands = bands
            self.update()

    def _brush(self, colour: str) -> QBrush:
        if colour not in self._brushes:
            c = QColor(colour)
            c.setAlpha(34)
            self._brushes[colour] = QBrush(c)
        return self._brushes[colour]

    def boundingRect(self) -> QRectF:  # noqa: N802
        if not self.bands:
            return QRectF()
        view = self.viewRect()
        if view is None:
            return QRectF()
        x0, x1 = min(b[0] for b in self.bands), max(b[1] for b in self.bands)
        return QRectF(x0, view.top(), max(0.0, x1 - x0), view.height()).normalized()

    def viewRangeChanged(self) -> None:  # noqa: N802 - the bands span the view's height: it changed
        self.prepareGeometryChange()
        super().viewRangeChanged()

    def paint(self, p, *_args) -> None:
        view = self.viewRect()
        if view is None:
            return
        # filled in whole device pixels (a rect through the view's scaling is filled as a path: ~5x slower)
        to_device = p.transform()
        p.resetTransform()
        x0, x1 = view.left(), view.right()
        for t0, t1, colour in self.bands:
            if t1 < x0 or t0 > x1:
                continue  # off the chart
            rect = QRectF(max(t0, x0), view.top(), min(t1, x1) - max(t0, x0), view.height()).normalized()
            p.fillRect(to_device.mapRect(rect).toAlignedRect(), self._brush(colour))
        p.setTransform(to_device)


class ChartPanel(QWidget):
    def __init__(self, parent: Optional[QWidget] = None):
        super().__init__(parent)
        self.plots: dict[str, pg.PlotWidget] = {}
        self.ranges: dict[str, tuple[float, float]] = {}  # chart key -> (x max, y max) shown
        self.curves: dict[str, pg.PlotDataItem] = {}
        self.legends: dict[str, pg.LegendItem] = {}
        self.ceilings: dict[str, tuple[float, str]] = {}  # chart key -> (value in the chart's unit, label)
        self._ceiling_items: dict[str, pg.InfiniteLine] = {}
        self._phase_items: dict[str, PhaseBands] = {}  # one per chart: every phase's band
        self._phase_spans: list[tuple[str, float, float]] = []
        self.measured: list[tuple[str, float, str]] = []  # (chart key, value, label) drawn over the copy tests
        self._measured_items: list = []
        self._measured_drawn: Optional[tuple] = None  # (figures, their band, the axis span) as drawn
        self.thresholds: list[tuple[float, str]] = []  # the temperature chart's slowdown/shutdown lines
        self._turn = 0  # the chart whose axes may be re-laid out first at the next streaming refresh
        self._half = 0  # the half of the charts the last partial refresh drew
        self._threshold_items: list = []
        self.marks: list[tuple[float, str]] = []  # (t, "fail"|"warn"): faults on every chart's time axis
        self._mark_items: list = []
        self.rate_curves: dict[tuple[str, str], pg.PlotDataItem] = {}
        self._peak_items: dict[str, list] = {"tflops": [], "gbps": []}
        self._peaks_drawn: dict[str, dict] = {}
        self.rates_reserved = False  # the rates' plots stay shown while they have none (see set_rates)
        self._waiting: list[list[pg.PlotWidget]] = []  # paint_in_turns: the groups of charts still to paint
        self._turns = QTimer(self)
        self._turns.setSingleShot(True)
        self._turns.timeout.connect(self._next_turn)
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        for i, (key, _title, unit, _scale, metrics) in enumerate(CHARTS):
            w = self._plot_widget()
            pi = w.getPlotItem()
            pi.setClipToView(True)
            pi.setDownsampling(auto=True, mode="peak")
            pi.showGrid(x=True, y=True, alpha=0.2)
            pi.setLabel("left", units=None, text=unit)
            # fixed ranges that move in steps: axes are re-laid out only when a range changes
            # (a few times a minute), not on every refresh; repainting axis text 10 times a
            # second per chart costs more than the curves
            pi.disableAutoRange()
            pi.setRange(xRange=(0, STEP_S), yRange=(0, UTIL_TOP if key == "utilization" else 1), padding=0)
            self.legends[key] = pi.addLegend(offset=(-5, 5), labelTextSize="8pt")
            self.legends[key].hide()  # the curves are named in the title: nothing covers the plot
            for j, m in enumerate(metrics):
                c = pi.plot([], [], pen=pg.mkPen(LINE_COLOURS[j % len(LINE_COLOURS)], width=2), name=m)
                self.curves[m] = c
            band = PhaseBands()
            pi.addItem(band, ignoreBounds=True)
            self._phase_items[key] = band
            self.plots[key] = w
            grid.addWidget(w, i // COLUMNS, i % COLUMNS)
        self.rate_plots = {"tflops": self._rates_plot(), "gbps": self._rates_plot()}
        row = (len(CHARTS) + COLUMNS - 1) // COLUMNS
        grid.addWidget(self.rate_plots["tflops"], row, 0, 1, COLUMNS - 1)
        grid.addWidget(self.rate_plots["gbps"], row, COLUMNS - 1)
        from PySide6.QtWidgets import QLabel

        self.phase_legend = QLabel(self)
        self.phase_legend.setObjectName("phase_legend")
        self.phase_legend.setTextFormat(pg.QtCore.Qt.TextFormat.RichText)
        self.phase_legend.setWordWrap(True)  # unwrapped, ten phases made the page wider than a 1366 px window
        grid.addWidget(self.phase_legend, (len(CHARTS) + COLUMNS - 1) // COLUMNS + 1, 0, 1, COLUMNS)
        self._apply_palette()
        self.retranslate()

    def refresh(self, series: SampleSeries, fit: bool = False, part: bool = False) -> None:
        """Redraw from `series`. `fit`: show the whole run (a finished or recorded one) rather
        than the live 60-second window. `part` (a run streaming): half of the charts, the other half at
        the next call, so one pass of the event loop paints three charts, never six (each ~3 ms, more on
        a busy machine)."""
        if not len(series):
            for c in self.curves.values():
                c.setData([], [])
            for key, *_ in CHARTS:
                self._set_range(key, STEP_S, UTIL_TOP if key == "utilization" else 1)
                self._show_values(key, False)  # an empty chart: no "0.8 W" ticks
            self._draw_phases([])
            return
        t = np.asarray(series.t, dtype=float)
        # the axis fits the run: it grows with it, then shows the last minute; a finished run whole
        x_max = max(STEP_S, math.ceil(t[-1] / STEP_S) * STEP_S)
        if fit:
            self.ranges.clear()
            x_max = max(1.0, float(math.ceil(t[-1])))
        if series.power_limit_w and "power" not in self.ceilings:
            self.ceilings["power"] = (series.power_limit_w, "power limit")
        self._draw_ceilings()
        self._x_span = (0.0 if fit else max(0.0, x_max - WINDOW_S), x_max)  # what the axes will show
        keys = {c[0] for c in CHARTS}
        if part and not fit:
            self._half = 1 - self._half
            keys = {c[0] for c in CHARTS[self._half::2]}
        self._draw_phases(series.phase_spans(), keys)
        wanted: list[tuple[str, float, float]] = []
        for key, _t, _unit, scale, metrics in CHARTS:
            if key not in keys:
                continue
            y_top = 0.0
            for m in metrics:
                y = np.asarray(series.values[m], dtype=float) * scale
                self.curves[m].setData(t, y, connect="finite")
                finite = y[np.isfinite(y)]
                if finite.size:
                    y_top = max(y_top, float(finite.max()))
            self._show_values(key, y_top > 0 or key == "utilization")
            ceiling = self.ceilings.get(key, (0.0, ""))[0]
            if key == "temperature" and self.thresholds:
                ceiling = max([ceiling] + [v for v, _l in self.thresholds])
            top = max(y_top * 1.1, ceiling * 1.08) if key != "utilization" else 0
            measured = max((v for k, v, _l in self.measured if k == key), default=0.0)
            top = max(top, measured * 1.1)
            y_max = UTIL_TOP if key == "utilization" else nice_ceiling(top)
            wanted.append((key, x_max, y_max))
        if fit:
            for key, xm, ym in wanted:
                self._set_range(key, xm, ym, x_min=0.0)
            return
        # while streaming, re-lay out at most one chart's axes per refresh (10 Hz): six at once cost
        # ~40 ms on a slow machine. The charts take turns, so none waits behind the others: the first
        # chart to change after the last one re-laid out goes, and the rest follow within a second
        n = len(wanted)
        for k in range(n):
            i = (self._turn + k) % n
            key, xm, ym = wanted[i]
            if self._set_range(key, xm, ym):
                self._turn = (i + 1) % n
                break

    def paint_in_turns(self) -> None:
        """After a redraw of every chart (a finished run, its whole length): paint them over three passes of
        the event loop, not one (eight charts with new axes took ~200 ms in one pass on a busy machine). What
        they show is set already; only their painting waits, each group for the one before."""
        self._paint_now()  # a turn still pending: its charts first
        if not self.isVisible():
            return  # nothing is painted now anyway
        self._waiting = [[self.plots[c[0]] for c in CHARTS[1::2]], list(self.rate_plots.values())]
        for group in self._waiting:
            for w in group:
                w.setUpdatesEnabled(False)
        self._turns.start(TURN_MS)

    def _next_turn(self) -> None:
        if self._waiting:
            for w in self._waiting.pop(0):
                w.setUpdatesEnabled(True)  # repaints it
        if self._waiting:
            self._turns.start(TURN_MS)

    def _paint_now(self) -> None:
        while self._waiting:
            for w in self._waiting.pop(0):
                w.setUpdatesEnabled(True)
        self._turns.stop()

    def hideEvent(self, e) -> None:  # noqa: N802 - hidden (the window closed): nothing waits for a turn
        self._paint_now()
        super().hideEvent(e)

    def _set_range(self, key: str, x_max: float, y_max: float, x_min: Optional[float] = None) -> int:
        """Set a chart's visible range; returns 1 when it changed (its axes are re-laid out)."""
        old = self.ranges.get(key)
        if old is not None and old[0] == x_max and y_max <= old[1]:
            return 0  # grows only (within a run), so the axes stay still
        y_max = max(y_max, old[1]) if old is not None and old[0] == x_max else y_max
        self.ranges[key] = (x_max, y_max)
        x0 = max(0.0, x_max - WINDOW_S) if x_min is None else x_min
        self.plots[key].getPlotItem().setRange(xRange=(x0, x_max), yRange=(0, y_max), padding=0)
        return 1

    def _show_values(self, key: str, on: bool) -> None:
        ax = self.plots[key].getPlotItem().getAxis("left")
        if ax.style.get("showValues", True) != on:
            ax.setStyle(showValues=on)

    # --- ceilings, test phases, the copy tests' own figures ---------------------------------
    def set_ceilings(self, pcie_gbps: Optional[float] = None, power_w: Optional[float] = None,
                     memory_gib: Optional[float] = None) -> None:
        """Dashed labelled lines: the PCIe link's theoretical rate, the power limit, the GPU's memory."""
        self.ceilings.clear()
        if pcie_gbps:
            self.ceilings["pcie"] = (float(pcie_gbps), "PCIe link")
        if power_w:
            self.ceilings["power"] = (float(power_w), "power limit")
        if memory_gib:
            self.ceilings["memory"] = (float(memory_gib), "GPU memory")
        self.ranges.clear()
        self._draw_ceilings()

    def _draw_ceilings(self) -> None:
        for key, item in list(self._ceiling_items.items()):
            if key not in self.ceilings or item.value() != self.ceilings[key][0]:
                self.plots[key].getPlotItem().removeItem(item)
                del self._ceiling_items[key]
        for key, (value, label) in self.ceilings.items():
            if key in self._ceiling_items:
                continue
            unit = next(c[2] for c in CHARTS if c[0] == key)
            line = pg.InfiniteLine(pos=value, angle=0, movable=False,
                                   pen=pg.mkPen(CEILING_COLOUR, width=1, style=pg.QtCore.Qt.PenStyle.DashLine),
                                   label=f"{tr(CEILING_NAMES[label])} {value:.1f} {unit}" if value < 100 else
                                   f"{tr(CEILING_NAMES[label])} {value:.0f} {unit}",
                                   labelOpts={"position": 0.6, "color": CEILING_COLOUR, "anchors": [(0.5, 1), (0.5, 1)]})
            self.plots[key].getPlotItem().addItem(cached_label(line), ignoreBounds=True)
            self._ceiling_items[key] = line

    # --- a burn-in: thresholds, faults on the time axis, rates against the datasheet -------------
    def _plot_widget(self) -> pg.PlotWidget:
        """A chart as every chart here is: at least 120 px high, growing, no mouse zoom, no menu."""
        w = pg.PlotWidget(self)
        w.setMinimumHeight(120)
        w.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        w.setMouseEnabled(x=False, y=False)
        w.hideButtons()
        w.setMenuEnabled(False)
        # an axis draws its grid across the whole plot, so every new sample repainted it: its text and lines
        # replayed ~2 ms per axis per frame. Cached as a pixmap, it is redrawn only when its range or size changes
        for name in ("left", "bottom"):
            w.getPlotItem().getAxis(name).setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        # the left axis as wide as five digits and its unit, whatever its ticks: sized by its tick text, it
        # changed width with its range, and the chart was laid out and painted twice more each time
        left = w.getPlotItem().getAxis("left")
        fm = QFontMetrics(left.style.get("tickFont") or w.font())
        left.setWidth(fm.horizontalAdvance("88888") + left.style["tickTextOffset"][0] + max(0, left.style["tickLength"])
                      + int(fm.height() * 1.3))
        return w

    def _rates_plot(self) -> pg.PlotWidget:
        w = self._plot_widget()
        w.getPlotItem().showGrid(x=True, y=True, alpha=0.2)
        w.getPlotItem().setClipToView(True)
        w.hide()  # shown when a burn-in reports rates
        return w

    def set_thresholds(self, slowdown: Optional[float] = None, shutdown: Optional[float] = None) -> None:
        """The GPU's own slowdown and shutdown temperatures, dashed on the temperature chart."""
        wanted = [(float(v), lab) for v, lab in ((slowdown, "slowdown"), (shutdown, "shutdown")) if v]
        if wanted == self.thresholds and (self._threshold_items or not wanted):
            return
        pi = self.plots["temperature"].getPlotItem()
        for item in self._threshold_items:
            pi.removeItem(item)
        self._threshold_items = []
        self.thresholds = [(float(v), lab) for v, lab in ((slowdown, "slowdown"), (shutdown, "shutdown")) if v]
        for value, lab in self.thresholds:
            words = tr("slowdown") if lab == "slowdown" else tr("shutdown")
            line = pg.InfiniteLine(pos=value, angle=0, movable=False,
                                   pen=pg.mkPen(CEILING_COLOUR, width=1, style=pg.QtCore.Qt.PenStyle.DashLine),
                                   label=f"{words} {value:.0f} °C",
                                   labelOpts={"position": 0.25 if lab == "slowdown" else 0.75, "color": CEILING_COLOUR})
            pi.addItem(cached_label(line), ignoreBounds=True)
            self._threshold_items.append(line)
        self.ranges.pop("temperature", None)

    def set_marks(self, marks: list[tuple[float, str]]) -> None:
        """Faults and signs of trouble as vertical lines on every chart (red: a fault, orange: a warning)."""
        marks = [(float(t), sev) for t, sev in marks]
        if marks == self.marks:
            return
        for pi, item in self._mark_items:
            pi.removeItem(item)
        self._mark_items = []
        self.marks = marks
        for w in list(self.plots.values()) + list(self.rate_plots.values()):
            pi = w.getPlotItem()
            for t, sev in marks:
                line = pg.InfiniteLine(pos=t, angle=90, movable=False,
                                       pen=pg.mkPen(MARK_COLOURS.get(sev, "#ef6c00"), width=2, style=pg.QtCore.Qt.PenStyle.DotLine))
                pi.addItem(line, ignoreBounds=True)
                self._mark_items.append((pi, line))

    def set_rates(self, series: dict[str, tuple[list[float], list[float]]], unit: str,
                  peaks: Optional[dict[str, float]] = None, x_range: Optional[tuple[float, float]] = None) -> None:
        """The burn-in's rates over time in `unit` ("tflops": one curve per precision; "gbps": per memory
        kernel), each with its datasheet peak dashed; the plot is hidden while it has none, unless
        `rates_reserved` (a burn-in is asked: its place is kept from the start, so the charts above are not
        laid out again, all repainted at once, when the first rate comes)."""
        w = self.rate_plots[unit]
        pi = w.getPlotItem()
        if not series and not self.rates_reserved:
            w.hide()
            return
        w.show()
        if pi.getAxis("left").style.get("showValues", True) != bool(series):
            pi.getAxis("left").setStyle(showValues=bool(series))  # an empty place kept: no figures on its axis
        for key in [k for k in self.rate_curves if k[0] == unit and k[1] not in series]:
            pi.removeItem(self.rate_curves.pop(key))
        order = sorted(series, key=lambda n: (RATE_ORDER.index(n) if n in RATE_ORDER else 99, n))
        for name in order:
            t, y = series[name]
            c = self.rate_curves.get((unit, name))
            if c is None:
                c = pi.plot([], [], pen=pg.mkPen(rate_colour(name), width=2))
                self.rate_curves[(unit, name)] = c
            if getattr(c, "_drawn", None) != (len(t), t[-1] if t else None, y[-1] if y else None):
                c.setData(t, y)  # only when a rate came: setting the same data repaints the chart all the same
                c._drawn = (len(t), t[-1] if t else None, y[-1] if y else None)
        shown = {k: v for k, v in (peaks or {}).items() if k in series and v}
        if shown != self._peaks_drawn.get(unit):  # redrawn only when they change
            for item in self._peak_items[unit]:
                pi.removeItem(item)
            self._peak_items[unit] = []
            alike: dict[float, list[str]] = {}  # one line per peak: kernels held to the same figure share it
            for name, value in sorted(shown.items(), key=lambda x: (x[1], RATE_ORDER.index(x[0]) if x[0] in RATE_ORDER else 99)):
                alike.setdefault(value, []).append(name)
            for k, (value, names_) in enumerate(sorted(alike.items())):
                line = pg.InfiniteLine(pos=value, angle=0, movable=False,
                                       pen=pg.mkPen(CEILING_COLOUR, width=1, style=pg.QtCore.Qt.PenStyle.DashLine),
                                       label=f"{', '.join(names_)} {tr('datasheet')} {_figure(value)}",  # staggered: close peaks stay readable
                                       labelOpts={"position": min(0.9, 0.3 + 0.19 * k), "color": CEILING_COLOUR})  # clear of the y axis
                pi.addItem(cached_label(line), ignoreBounds=True)
                self._peak_items[unit].append(line)
            self._peaks_drawn[unit] = shown
        top = nice_ceiling(max([max(y) for _t, y in series.values() if y] + list(shown.values()) + [1.0]) * 1.08)
        timed = [t for t, _y in series.values() if t]
        xr = x_range or ((min(t[0] for t in timed), max(t[-1] for t in timed)) if timed else (0.0, 1.0))
        if getattr(w, "_range", None) != (xr, top):
            pi.setRange(xRange=xr, yRange=(0, top), padding=0)
            w._range = (xr, top)
        names = " &nbsp;".join(f"<span style='color:{rate_colour(n)}'>━ {n}</span>" for n in order)
        title = (tr("Matrix products") + " (TFLOP/s)") if unit == "tflops" else (tr("Memory bandwidth") + " (GB/s)")
        text = f"{title}<br><span style='font-size:8pt'>{names}</span>"
        if getattr(w, "_title", None) != text:
            pi.setTitle(text, color=self.palette().color(QPalette.ColorRole.Text).name(), size="10pt")
            w._title = text

    def _draw_phases(self, spans: list[tuple[str, float, float]], keys: Optional[set[str]] = None) -> None:
        """Each test phase shaded behind the curves of the charts `keys` (default: all) and named in the
        legend (the probe says which it is in, per sample). One item per chart paints every band: while
        a run streams, the newest band grows by a repaint of that item, no item is made or moved."""
        bands = tuple((t0, t1, phase_colour(name)) for name, t0, t1 in spans)
        for key, band in self._phase_items.items():
            if keys is None or key in keys:
                band.set_bands(bands)
        if spans == self._phase_spans:
            return
        old = self._phase_spans
        names_changed = [x[0] for x in old] != [x[0] for x in spans]
        self._phase_spans = list(spans)
        if names_changed:
            self.phases_changed(spans)
        self._draw_measured()  # the copy tests' figures sit over their band (redrawn only when it moved)

    def phases_changed(self, spans: list[tuple[str, float, float]]) -> None:
        """The phase legend under the charts names each shaded band (in its colour). It wraps between
        its entries, never inside one, so it fits a narrow window whatever the phases (a burn-in has ten)."""
        parts = [f"<span style='white-space:nowrap'><span style='color:{colour}'>■</span>&nbsp;{escape(words)}</span>"
                 for colour, words in phase_legend_entries([name for name, _t0, _t1 in spans])]
        self.phase_legend.setText((tr("Test phases:") + " " + " &nbsp; ".join(parts)) if parts else "")

    def set_measured(self, items: list[tuple[str, float, str]]) -> None:
        """The copy tests' own measured rates, drawn over their phase: the 10 Hz sampler misses
        most of each burst, so the curve alone would understate what the link did."""
        self.measured = [(k, float(v), lab) for k, v, lab in items if v]
        self.ranges.clear()
        self._draw_measured()

    def _draw_measured(self) -> None:
        span = next(((t0, t1) for name, t0, t1 in self._phase_spans if name == "bandwidth"), None)
        drawn = (tuple(self.measured), span, getattr(self, "_x_span", None))
        if drawn == self._measured_drawn:
            return  # as drawn (this runs at every refresh while a run streams)
        self._measured_drawn = drawn
        for pi, item in self._measured_items:
            pi.removeItem(item)
        self._measured_items = []
        if span is None:
            return
        t0, t1 = span
        by_key: dict[str, list[tuple[int, float, str]]] = {}
        for i, (key, value, label) in enumerate(self.measured):
            by_key.setdefault(key, []).append((i, value, label))
        for key, items in by_key.items():
            pi = self.plots[key].getPlotItem()
            for i, value, _label in items:
                colour = LINE_COLOURS[i % len(LINE_COLOURS)]
                seg = pi.plot([t0, t1], [value, value], pen=pg.mkPen(colour, width=3, style=pg.QtCore.Qt.PenStyle.DotLine))
                self._measured_items.append((pi, seg))
            # one label beside the copy tests' band: what they measured (the sampler sees ~1 in 10 bursts)
            figures = " / ".join(f"{v:.1f}" for _i, v, _l in items)
            # centred on the band, anchored at the band's place across the chart (0 at the left edge,
            # 1 at the right): the label stays inside however narrow the chart is (200% scaling)
            x0, x1 = getattr(self, "_x_span", None) or pi.viewRange()[0]
            mid = (t0 + t1) / 2
            frac = min(1.0, max(0.0, (mid - x0) / (x1 - x0))) if x1 > x0 else 0.0
            text = pg.TextItem(f"{tr('copy tests')}: {figures}",
                               color=LINE_COLOURS[items[0][0] % len(LINE_COLOURS)], anchor=(frac, 0))
            text.setPos(mid, max(v for _i, v, _l in items))
            pi.addItem(text, ignoreBounds=True)
            self._measured_items.append((pi, text))

    def _apply_palette(self) -> None:
        pal = self.palette()
        bg = pal.color(QPalette.ColorRole.Base)
        fg = pal.color(QPalette.ColorRole.Text)
        for w in list(self.plots.values()) + list(getattr(self, "rate_plots", {}).values()):
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
            names = " &nbsp;".join(f"<span style='color:{LINE_COLOURS[j % len(LINE_COLOURS)]}'>━ {tr(METRIC_LABELS[m])}</span>"
                                   for j, m in enumerate(metrics)) if len(metrics) > 1 else ""
            # the curves' names under the title, not in a legend box over the curves
            w.getPlotItem().setTitle(f"{title} ({unit})" + (f"<br><span style='font-size:8pt'>{names}</span>" if names else ""),
                                     color=fg, size="10pt")
            w.setAccessibleName(tr("Chart: {title}").format(title=title))
            w.getPlotItem().setLabel("bottom", tr("seconds"))
            lg = self.legends[key]
            for sample, label in lg.items:
                for m in metrics:
                    if self.curves[m] is sample.item:
                        label.setText(tr(METRIC_LABELS[m]))
