"""Charts as inline SVG, drawn here from the numbers (no library, no script, no external file).

`line_chart` draws metrics over time (one polyline per GPU, optional limit lines);
`bar_chart` draws measured rates against their theoretical ceilings. Both return one `<svg>`
element as text, with `data-*` attributes that say what was drawn (tests check them, and a
chart with no data says so in words instead of drawing an empty frame). Long series are
reduced to at most `max_points` per line by keeping each bucket's min and max, so spikes stay
visible and the file stays small.
"""
from __future__ import annotations

import math
from html import escape
from typing import Iterable, Optional, Sequence

PALETTE = ("#2563eb", "#dc2626", "#059669", "#d97706", "#7c3aed", "#0891b2", "#be185d", "#4d7c0f")
FONT = "font-family='-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif'"


def _fmt(v: float) -> str:
    if v == 0:
        return "0"
    a = abs(v)
    if a >= 1000:
        return f"{v:,.0f}"
    if a >= 100:
        return f"{v:.0f}"
    if a >= 10:
        return f"{v:.1f}".rstrip("0").rstrip(".")
    return f"{v:.2f}".rstrip("0").rstrip(".")


def nice_ceiling(v: float) -> float:
    """The next 'round' number at or above v (1, 2, 2.5, 5 x 10^n)."""
    if v <= 0 or not math.isfinite(v):
        return 1.0
    exp = math.floor(math.log10(v))
    base = 10 ** exp
    for m in (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10):
        if m * base >= v * 0.9999:
            return m * base
    return 10 * base


def nice_step(raw: float) -> float:
    """A tick step of 1, 2, 2.5 or 5 x 10^n at or above `raw`."""
    if raw <= 0 or not math.isfinite(raw):
        return 1.0
    base = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 2.5, 5, 10):
        if m * base >= raw * 0.9999:
            return m * base
    return 10 * base


def decimate(points: Sequence[tuple[float, float]], max_points: int) -> list[tuple[float, float]]:
    """At most ~max_points points: each bucket keeps its min and max (in time order)."""
    pts = list(points)
    if len(pts) <= max_points or max_points < 4:
        return pts
    buckets = max_points // 2
    size = len(pts) / buckets
    out: list[tuple[float, float]] = []
    for b in range(buckets):
        chunk = pts[int(b * size):int((b + 1) * size)] or []
        if not chunk:
            continue
        lo = min(chunk, key=lambda p: p[1])
        hi = max(chunk, key=lambda p: p[1])
        out.extend(sorted({lo, hi}, key=lambda p: p[0]))
    if out[-1] != pts[-1]:
        out.append(pts[-1])
    return out


def _raw(v: float) -> str:
    """A number for a data-* attribute: exact enough to check, short."""
    return f"{round(v, 3):g}" if abs(v) < 1e6 else f"{v:.0f}"


def _empty(title: str, width: int, height: int, why: str, kind: str) -> str:
    return (f"<svg xmlns='http://www.w3.org/2000/svg' class='chart chart-empty' data-kind='{kind}' data-points='0' "
            f"viewBox='0 0 {width} {height}' width='100%' role='img' aria-label='{escape(title)}: {escape(why)}'>"
            f"<rect x='0.5' y='0.5' width='{width - 1}' height='{height - 1}' fill='#fafafa' stroke='#d4d4d8'/>"
            f"<text x='{width / 2}' y='{height / 2}' text-anchor='middle' {FONT} font-size='13' fill='#71717a'>"
            f"{escape(title)}: {escape(why)}</text></svg>")


PHASE_FILL = {"memtest": "#ccfbf1", "matmul": "#fef3c7", "membw": "#e0e7ff", "p2p": "#fce7f3", "allreduce": "#f3e8ff",
              "bandwidth": "#dcfce7", "load": "#fef9c3"}
MARK_COLOURS = {"fail": "#b91c1c", "warn": "#c2410c"}


def phase_fill(phase: str) -> str:
    return PHASE_FILL.get(phase.split("_")[0], "#f4f4f5")


def line_chart(series: Sequence[tuple[str, Sequence[tuple[float, float]]]], *, title: str, unit: str,
               y_max: Optional[float] = None, limits: Iterable[tuple[float, str]] = (), width: int = 720,
               height: int = 240, max_points: int = 400, metric: str = "",
               spans: Iterable[tuple[str, float, float]] = (), marks: Iterable[tuple[float, str, str]] = (),
               t_range: Optional[tuple[float, float]] = None) -> str:
    """Metrics over time. `series`: (label, [(t_s, value), ...]); `limits`: horizontal lines
    (value, label), e.g. the power limit; `spans`: shaded phases (name, t0, t1), named along the top;
    `marks`: vertical lines on the time axis (t, label, "fail"|"warn"), e.g. a result mismatch;
    `t_range`: the time axis (else the series' own)."""
    series = [(lab, [(float(t), float(v)) for t, v in pts if v is not None and t is not None
                     and math.isfinite(float(v)) and math.isfinite(float(t))]) for lab, pts in series]
    series = [(lab, pts) for lab, pts in series if pts]
    if not series:
        return _empty(title, width, height, "no samples", "line")
    limits = [(float(v), lab) for v, lab in limits if v is not None and math.isfinite(float(v))]
    spans = [(str(n), float(a), float(b)) for n, a, b in spans if b > a]
    marks = [(float(t), str(lab), str(sev)) for t, lab, sev in marks]
    ml, mr, mt, mb = 62, 16, 30, 38
    pw, ph = width - ml - mr, height - mt - mb
    t0 = min(p[0] for _, pts in series for p in pts)
    t1 = max(p[0] for _, pts in series for p in pts)
    if t_range is not None:
        t0, t1 = float(t_range[0]), float(t_range[1])
    if t1 <= t0:
        t1 = t0 + 1.0
    top = max([p[1] for _, pts in series for p in pts] + [v for v, _ in limits] + [0.0])
    if y_max is not None and y_max >= top:
        ymax, ystep = y_max, y_max / 4
    else:
        ystep = nice_step((top * 1.05 if top > 0 else 1.0) / 5)
        ymax = ystep * math.ceil((top * 1.05 if top > 0 else 1.0) / ystep)

    def X(t: float) -> float:
        return ml + (min(max(t, t0), t1) - t0) / (t1 - t0) * pw

    def Y(v: float) -> float:
        return mt + ph - max(0.0, min(v, ymax)) / ymax * ph

    total = sum(len(p) for _, p in series)
    parts = [f"<svg xmlns='http://www.w3.org/2000/svg' class='chart chart-line' data-kind='line' data-metric='{escape(metric)}' "
             f"data-series='{len(series)}' data-points='{total}' viewBox='0 0 {width} {height}' width='100%' role='img' "
             f"aria-label='{escape(title)}'>",
             f"<rect x='0' y='0' width='{width}' height='{height}' fill='#ffffff'/>",
             f"<text x='{ml}' y='18' {FONT} font-size='13' font-weight='600' fill='#18181b'>{escape(title)}"
             f"<tspan font-weight='400' fill='#71717a'> ({escape(unit)})</tspan></text>"]
    parts += _spans(spans, X, mt, ph)
    for i in range(int(round(ymax / ystep)) + 1):  # grid and y labels
        v = ystep * i
        y = Y(v)
        parts.append(f"<line x1='{ml}' y1='{y:.1f}' x2='{ml + pw}' y2='{y:.1f}' stroke='#e4e4e7' stroke-width='1'/>")
        parts.append(f"<text x='{ml - 6}' y='{y + 4:.1f}' text-anchor='end' {FONT} font-size='11' fill='#52525b'>{_fmt(v)}</text>")
    span = t1 - t0
    step = nice_step(span / 6)
    t = math.ceil(t0 / step) * step
    while t <= t1 + 1e-9:
        x = X(t)
        parts.append(f"<line x1='{x:.1f}' y1='{mt + ph}' x2='{x:.1f}' y2='{mt + ph + 4}' stroke='#a1a1aa'/>")
        parts.append(f"<text x='{x:.1f}' y='{mt + ph + 16}' text-anchor='middle' {FONT} font-size='11' fill='#52525b'>{_fmt(t)}</text>")
        t += step
    parts.append(f"<text x='{ml + pw}' y='{height - 4}' text-anchor='end' {FONT} font-size='11' fill='#71717a'>time (s)</text>")
    parts.append(f"<line x1='{ml}' y1='{mt + ph}' x2='{ml + pw}' y2='{mt + ph}' stroke='#71717a'/>")
    parts.append(f"<line x1='{ml}' y1='{mt}' x2='{ml}' y2='{mt + ph}' stroke='#71717a'/>")
    label_y = -1e9  # labels from the top down, each at least a line below the one above it (89 and 95 °C)
    for v, lab in sorted(limits, key=lambda vl: -vl[0]):
        y = Y(v)
        label_y = max(y - 4, label_y + 13)
        parts.append(f"<line class='limit' x1='{ml}' y1='{y:.1f}' x2='{ml + pw}' y2='{y:.1f}' stroke='#f97316' "
                     f"stroke-dasharray='6 4' stroke-width='1.5' data-value='{_raw(v)}'/>")
        parts.append(f"<text x='{ml + pw - 4}' y='{label_y:.1f}' text-anchor='end' {FONT} font-size='11' fill='#c2410c'>"
                     f"{escape(lab)} {_fmt(v)}</text>")
    parts += _marks(marks, X, mt, ph)
    lx = ml + 8
    for i, (lab, pts) in enumerate(series):
        color = PALETTE[i % len(PALETTE)]
        pts = decimate(sorted(pts), max_points)
        coords = " ".join(f"{X(a):.1f},{Y(b):.1f}" for a, b in pts)
        vals = [b for _, b in pts]
        parts.append(f"<polyline class='series' data-label='{escape(lab)}' data-n='{len(pts)}' "
                     f"data-min='{_raw(min(vals))}' data-max='{_raw(max(vals))}' fill='none' stroke='{color}' "
                     f"stroke-width='1.8' stroke-linejoin='round' points='{coords}'/>")
        if len(series) > 1 or lab:
            parts.append(f"<rect x='{lx}' y='{mt + 4}' width='10' height='10' fill='{color}'/>"
                         f"<text x='{lx + 14}' y='{mt + 13}' {FONT} font-size='11' fill='#27272a'>{escape(lab)}</text>")
            lx += 22 + 7 * len(lab)
    parts.append("</svg>")
    return "".join(parts)


def _spans(spans: Sequence[tuple[str, float, float]], X, mt: float, ph: float) -> list[str]:
    """Shaded phases behind the curves, each named at its top when it is wide enough."""
    out = []
    for name, a, b in spans:
        x0, x1 = X(a), X(b)
        out.append(f"<rect class='phase' data-phase='{escape(name)}' data-t0='{_raw(a)}' data-t1='{_raw(b)}' x='{x0:.1f}' "
                   f"y='{mt}' width='{max(0.5, x1 - x0):.1f}' height='{ph}' fill='{phase_fill(name)}' opacity='0.7'/>")
        if x1 - x0 > 7 * len(name):
            out.append(f"<text x='{(x0 + x1) / 2:.1f}' y='{mt + ph - 4}' text-anchor='middle' {FONT} font-size='9.5' "
                       f"fill='#52525b'>{escape(name)}</text>")
    return out


def _marks(marks: Sequence[tuple[float, str, str]], X, mt: float, ph: float) -> list[str]:
    """Faults on the time axis: a vertical line, a triangle under the axis, the label on hover (title)."""
    out = []
    for t, lab, sev in marks:
        x, c = X(t), MARK_COLOURS.get(sev, "#c2410c")
        out.append(f"<g class='mark' data-t='{_raw(t)}' data-severity='{escape(sev)}' data-label='{escape(lab)}'>"
                   f"<title>{escape(lab)}</title><line x1='{x:.1f}' y1='{mt}' x2='{x:.1f}' y2='{mt + ph}' stroke='{c}' "
                   f"stroke-width='1.5' stroke-dasharray='3 2'/><path d='M{x - 5:.1f},{mt + ph + 9} L{x + 5:.1f},{mt + ph + 9} "
                   f"L{x:.1f},{mt + ph + 1} Z' fill='{c}'/></g>")
    return out


def bar_chart(bars: Sequence[tuple], *, title: str, unit: str,
              width: int = 720, bar_height: int = 22, metric: str = "") -> str:
    """Horizontal bars: (label, measured, ceiling[, judged]). The ceiling is drawn as a pale bar
    behind the measured one with a marker, and the percentage of the ceiling is printed. A judged
    bar (the default) below 60% of its ceiling is red; an unjudged one (pageable copies, which
    never reach the link's ceiling) stays neutral."""
    bars = [(b[0], float(b[1]), (float(b[2]) if b[2] else None), bool(b[3]) if len(b) > 3 else True) for b in bars
            if b[1] is not None and math.isfinite(float(b[1]))]
    if not bars:
        return _empty(title, width, 80, "not measured", "bar")
    ml, mr, mt = 200, 120, 30
    pw = width - ml - mr
    height = mt + len(bars) * (bar_height + 12) + 10
    top = nice_ceiling(max([b[1] for b in bars] + [b[2] for b in bars if b[2]] + [0.0]) or 1.0)
    parts = [f"<svg xmlns='http://www.w3.org/2000/svg' class='chart chart-bar' data-kind='bar' data-metric='{escape(metric)}' "
             f"data-bars='{len(bars)}' data-points='{len(bars)}' viewBox='0 0 {width} {height}' width='100%' role='img' "
             f"aria-label='{escape(title)}'>",
             f"<rect x='0' y='0' width='{width}' height='{height}' fill='#ffffff'/>",
             f"<text x='8' y='18' {FONT} font-size='13' font-weight='600' fill='#18181b'>{escape(title)}"
             f"<tspan font-weight='400' fill='#71717a'> ({escape(unit)})</tspan></text>"]
    for i, (lab, v, c, judged) in enumerate(bars):
        y = mt + i * (bar_height + 12)
        w = max(1.0, v / top * pw)
        parts.append(f"<text x='{ml - 8}' y='{y + bar_height * 0.7:.1f}' text-anchor='end' {FONT} font-size='12' "
                     f"fill='#27272a'>{escape(lab)}</text>")
        if c:
            cw = c / top * pw
            parts.append(f"<rect class='ceiling' x='{ml}' y='{y}' width='{cw:.1f}' height='{bar_height}' fill='#e0e7ff' "
                         f"data-value='{_raw(c)}'/>")
            parts.append(f"<line x1='{ml + cw:.1f}' y1='{y - 3}' x2='{ml + cw:.1f}' y2='{y + bar_height + 3}' "
                         f"stroke='#4338ca' stroke-width='2'/>")
        pct = f" · {v / c * 100:.0f}% of {_fmt(c)}" if c else ""
        color = "#93c5fd" if not judged else ("#2563eb" if not c or v / c >= 0.6 else "#dc2626")
        parts.append(f"<rect class='bar' data-label='{escape(lab)}' data-value='{_raw(v)}' x='{ml}' y='{y + 4}' "
                     f"width='{w:.1f}' height='{bar_height - 8}' fill='{color}'/>")
        parts.append(f"<text x='{ml + max(w, (c or 0) / top * pw) + 6:.1f}' y='{y + bar_height * 0.7:.1f}' {FONT} "
                     f"font-size='12' fill='#18181b'>{_fmt(v)}{escape(pct)}</text>")
    parts.append("</svg>")
    return "".join(parts)
