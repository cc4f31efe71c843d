"""Status icons drawn with QPainter (crisp at any DPI, no image files, colour-blind safe:
each status has its own shape, not only its own colour)."""
from __future__ import annotations

from functools import lru_cache

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QIcon, QPainter, QPainterPath, QPen, QPixmap

COLOURS = {
    "ok": "#2e7d32", "pass": "#2e7d32",
    "warning": "#ef6c00", "warn": "#ef6c00",
    "error": "#c62828", "fail": "#c62828",
    "unknown": "#757575", "skip": "#757575", "skipped": "#757575", "pending": "#9e9e9e",
    "running": "#1565c0", "cancelled": "#757575", "info": "#1565c0", "admin": "#6a1b9a",
}


def _draw(status: str, size: int) -> QPixmap:
    pm = QPixmap(size, size)
    pm.fill(Qt.GlobalColor.transparent)
    p = QPainter(pm)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    c = QColor(COLOURS.get(status, "#757575"))
    m = size * 0.08
    r = QRectF(m, m, size - 2 * m, size - 2 * m)
    white = QPen(QColor("white"), max(1.5, size / 9), Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap, Qt.PenJoinStyle.RoundJoin)
    s = size
    if status in ("warning", "warn"):
        path = QPainterPath()
        path.moveTo(s / 2, m)
        path.lineTo(s - m, s - m)
        path.lineTo(m, s - m)
        path.closeSubpath()
        p.fillPath(path, QBrush(c))
        p.setPen(white)
        p.drawLine(QPointF(s / 2, s * 0.38), QPointF(s / 2, s * 0.66))
        p.drawPoint(QPointF(s / 2, s * 0.80))
    elif status == "pending":
        p.setPen(QPen(c, max(1.0, s / 10)))
        p.drawEllipse(r.adjusted(s * .1, s * .1, -s * .1, -s * .1))
    elif status == "admin":
        path = QPainterPath()  # a shield
        path.moveTo(s / 2, m)
        path.lineTo(s - m * 1.5, s * 0.22)
        path.quadTo(s - m * 1.5, s * 0.75, s / 2, s - m)
        path.quadTo(m * 1.5, s * 0.75, m * 1.5, s * 0.22)
        path.closeSubpath()
        p.fillPath(path, QBrush(c))
    else:
        p.setBrush(QBrush(c))
        p.setPen(Qt.PenStyle.NoPen)
        if status in ("error", "fail"):
            oct_ = QPainterPath()
            import math
            for i in range(8):
                a = math.pi / 8 + i * math.pi / 4
                pt = QPointF(s / 2 + (s / 2 - m) * math.cos(a), s / 2 + (s / 2 - m) * math.sin(a))
                oct_.moveTo(pt) if i == 0 else oct_.lineTo(pt)
            oct_.closeSubpath()
            p.drawPath(oct_)
        else:
            p.drawEllipse(r)
        p.setPen(white)
        if status in ("ok", "pass"):
            p.drawPolyline([QPointF(s * .28, s * .52), QPointF(s * .44, s * .68), QPointF(s * .72, s * .36)])
        elif status in ("error", "fail"):
            p.drawLine(QPointF(s * .34, s * .34), QPointF(s * .66, s * .66))
            p.drawLine(QPointF(s * .66, s * .34), QPointF(s * .34, s * .66))
        elif status == "running":
            p.drawLine(QPointF(s * .5, s * .28), QPointF(s * .5, s * .5))
            p.drawLine(QPointF(s * .5, s * .5), QPointF(s * .68, s * .6))
        elif status in ("cancelled", "skipped", "skip"):
            p.drawLine(QPointF(s * .3, s * .5), QPointF(s * .7, s * .5))
        elif status == "info":
            p.drawLine(QPointF(s * .5, s * .45), QPointF(s * .5, s * .72))
            p.drawPoint(QPointF(s * .5, s * .3))
        else:  # unknown
            f = p.font()
            f.setPixelSize(int(s * .7))
            f.setBold(True)
            p.setFont(f)
            p.drawText(r, Qt.AlignmentFlag.AlignCenter, "?")
    p.end()
    return pm


@lru_cache(maxsize=None)
def status_icon(status: str) -> QIcon:
    icon = QIcon()
    for size in (16, 24, 32, 48):
        icon.addPixmap(_draw(status, size))
    return icon
