"""A live log view fast for hundreds of thousands of lines.

Qt's item views walk every row on each insert (QListView/QTreeView ask the model about each
row: 0.4 s per batch at 100,000 lines from Python). This view keeps the lines in plain Python
lists and paints only the rows on screen, so appending a batch costs O(batch) and a repaint
O(visible rows), whatever the length. Long lines wrap at the view's width (continuation rows
indented), so the cause at the end of a pip line is on screen; a prefix sum of rows per line keeps
that O(batch) on append and one pass on a resize. stderr lines are coloured. Auto-scroll follows the end
until the user scrolls up to read, and resumes when they return to the bottom (or press
"Follow"). Search finds the next/previous matching line; lines can be selected (mouse, Shift,
keyboard) and copied.
"""
from __future__ import annotations

from bisect import bisect_right
from typing import Iterable, Optional

from PySide6.QtCore import QEvent, QRect, Qt, Signal
from PySide6.QtGui import (QColor, QFontDatabase, QGuiApplication, QKeyEvent, QKeySequence, QMouseEvent, QPainter,
                           QPalette, QShortcut)
from PySide6.QtWidgets import QAbstractScrollArea, QHBoxLayout, QLabel, QLineEdit, QPushButton, QVBoxLayout, QWidget

from ui.i18n import tr

MAX_LINE_CHARS = 2000  # a single huge line (a progress bar without newlines) is cut for display


class LogModel:
    """The lines (plain lists: appending is O(batch), never O(total))."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.is_err: list[bool] = []
        self.longest = 0

    def append(self, batch: Iterable[tuple[str, str]]) -> int:
        n0 = len(self.lines)
        for stream, text in batch:
            err = stream == "stderr"
            for part in (text.splitlines() or [""]):
                if len(part) > MAX_LINE_CHARS:
                    part = part[:MAX_LINE_CHARS] + " …"
                self.lines.append(part)
                self.is_err.append(err)
                if len(part) > self.longest:
                    self.longest = len(part)
        return len(self.lines) - n0

    def clear(self) -> None:
        self.lines.clear()
        self.is_err.clear()
        self.longest = 0

    def find(self, needle: str, start: int, backwards: bool = False) -> Optional[int]:
        if not needle or not self.lines:
            return None
        n = needle.lower()
        count = len(self.lines)
        step = -1 if backwards else 1
        i = start
        for _ in range(count):
            i = (i + step) % count
            if n in self.lines[i].lower():
                return i
        return None

    def count_matches(self, needle: str, limit: int = 100_000) -> int:
        if not needle:
            return 0
        n = needle.lower()
        c = 0
        for line in self.lines:
            if n in line.lower():
                c += 1
                if c >= limit:
                    break
        return c


class LogCanvas(QAbstractScrollArea):
    """Paints the visible lines of a LogModel; one scroll step is one line."""

    currentChanged = Signal(int)

    def __init__(self, model: LogModel, parent: Optional[QWidget] = None):
        super().__init__(parent)
        self.model = model
        self.current = -1
        self.anchor = -1  # selection is the range anchor..current
        self.err_colour = QColor("#c62828")
        self.wrap = True
        self.cols = 0  # characters per row when wrapping (0: not measured yet)
        self.row_start: list[int] = [0]  # row_start[i]: first visual row of line i (len = lines + 1)
        self.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.viewport().setCursor(Qt.CursorShape.IBeamCursor)
        self.verticalScrollBar().setSingleStep(1)
        # always there: the text width (and so the wrapping) never flips as lines arrive
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        self.horizontalScrollBar().setSingleStep(20)
        self._update_metrics()

    # --- geometry ------------------------------------------------------------------------
    def _update_metrics(self) -> None:
        fm = self.fontMetrics()
        self.line_h = max(1, fm.lineSpacing())
        self.char_w = max(1, fm.horizontalAdvance("M"))
        self.char_wf = max(1.0, fm.horizontalAdvance("M" * 100) / 100)  # fractional advance: 7.22 px, not 7

    def visible_rows(self) -> int:
        return max(1, self.viewport().height() // self.line_h)

    # --- wrapping: visual rows ------------------------------------------------------------
    INDENT = 2  # continuation rows start two characters in

    def _rows_of(self, n: int) -> int:
        c = self.cols
        if not self.wrap or c <= self.INDENT + 1 or n <= c:
            return 1
        return 1 + -(-(n - c) // (c - self.INDENT))

    def sync_rows(self) -> None:
        """Extend the row index over lines appended since (O(batch))."""
        lines, rs = self.model.lines, self.row_start
        if len(rs) - 1 > len(lines):  # cleared
            self.row_start = rs = [0]
        for i in range(len(rs) - 1, len(lines)):
            rs.append(rs[-1] + self._rows_of(len(lines[i])))

    def _cols_for_width(self) -> int:
        return max(1, int((self.viewport().width() - 8) / self.char_wf))

    def _rewrap(self) -> None:
        cols = self._cols_for_width()
        if cols != self.cols:
            self.cols = cols
            self.row_start = [0]
        self.sync_rows()

    @property
    def total_rows(self) -> int:
        return self.row_start[-1] if len(self.row_start) - 1 == len(self.model.lines) else len(self.model.lines)

    def line_of_row(self, row: int) -> tuple[int, int]:
        """(line index, segment) of a visual row."""
        i = max(0, bisect_right(self.row_start, row) - 1)
        return i, row - self.row_start[i]

    def first_row_of(self, line: int) -> int:
        return self.row_start[max(0, min(line, len(self.row_start) - 1))]

    def segment(self, text: str, k: int) -> str:
        c = self.cols
        if not self.wrap or k == 0 and len(text) <= c:
            return text
        if k == 0:
            return text[:c]
        w = c - self.INDENT
        return " " * self.INDENT + text[c + (k - 1) * w: c + k * w]

    def update_scrollbars(self) -> None:
        self._rewrap()
        vis = self.visible_rows()
        vs = self.verticalScrollBar()
        vs.setPageStep(vis)
        vs.setRange(0, max(0, self.total_rows - vis))
        hs = self.horizontalScrollBar()
        hs.setPageStep(self.viewport().width())
        longest = 0 if self.wrap else self.model.longest * self.char_w + 8
        hs.setRange(0, max(0, longest - self.viewport().width()))

    def resizeEvent(self, e) -> None:  # noqa: N802
        follow_end = self.verticalScrollBar().value() >= self.verticalScrollBar().maximum()
        super().resizeEvent(e)
        self.update_scrollbars()
        if follow_end:
            self.verticalScrollBar().setValue(self.verticalScrollBar().maximum())

    def changeEvent(self, e) -> None:  # noqa: N802
        if e.type() == QEvent.Type.FontChange:
            self._update_metrics()
            self.cols = 0
            self.update_scrollbars()
        super().changeEvent(e)

    def row_at(self, y: int) -> int:
        """The line under the point y."""
        return self.line_of_row(self.verticalScrollBar().value() + max(0, y) // self.line_h)[0]

    # --- painting ------------------------------------------------------------------------
    def paintEvent(self, _e) -> None:  # noqa: N802
        p = QPainter(self.viewport())
        pal = self.palette()
        p.fillRect(self.viewport().rect(), pal.color(QPalette.ColorRole.Base))
        if self.wrap and self._cols_for_width() != self.cols:
            self.update_scrollbars()  # the viewport changed width without a resize of the area
        self.sync_rows()
        first = self.verticalScrollBar().value()
        x0 = 4 - self.horizontalScrollBar().value()
        lines, errs = self.model.lines, self.model.is_err
        last = min(self.total_rows, first + self.visible_rows() + 1)
        lo, hi = sorted((self.anchor, self.current)) if self.current >= 0 else (-1, -1)
        if lo < 0:
            lo = hi = self.current
        text_c = pal.color(QPalette.ColorRole.Text)
        sel_bg = pal.color(QPalette.ColorRole.Highlight)
        sel_fg = pal.color(QPalette.ColorRole.HighlightedText)
        w = self.viewport().width()
        line, seg = self.line_of_row(first) if lines else (0, 0)
        for row in range(first, last):
            if line >= len(lines):
                break
            y = (row - first) * self.line_h
            selected = lo <= line <= hi and line >= 0
            if selected:
                p.fillRect(QRect(0, y, w, self.line_h), sel_bg)
            p.setPen(sel_fg if selected else (self.err_colour if errs[line] else text_c))
            p.drawText(x0, y + self.fontMetrics().ascent(), self.segment(lines[line], seg))
            seg += 1
            if seg >= self.row_start[line + 1] - self.row_start[line]:
                line, seg = line + 1, 0
        p.end()

    # --- selection and keyboard ----------------------------------------------------------
    def set_current(self, row: int, extend: bool = False) -> None:
        n = len(self.model.lines)
        if n == 0:
            return
        row = max(0, min(n - 1, row))
        self.current = row
        if not extend:
            self.anchor = row
        self.ensure_visible(row)
        self.viewport().update()
        self.currentChanged.emit(row)

    def ensure_visible(self, line: int, center: bool = False) -> None:
        self.sync_rows()
        vs = self.verticalScrollBar()
        vis = self.visible_rows()
        row = self.first_row_of(line)
        end = self.first_row_of(line + 1) - 1 if line + 1 < len(self.row_start) else row
        if center:
            vs.setValue(row - vis // 2)
        elif row < vs.value():
            vs.setValue(row)
        elif end >= vs.value() + vis:
            vs.setValue(end - vis + 1)

    def selected_rows(self) -> range:
        if self.current < 0:
            return range(0)
        lo, hi = sorted((self.anchor if self.anchor >= 0 else self.current, self.current))
        return range(lo, hi + 1)

    def mousePressEvent(self, e: QMouseEvent) -> None:  # noqa: N802
        if e.button() == Qt.MouseButton.LeftButton:
            self.set_current(self.row_at(int(e.position().y())), extend=bool(e.modifiers() & Qt.KeyboardModifier.ShiftModifier))
        super().mousePressEvent(e)

    def mouseMoveEvent(self, e: QMouseEvent) -> None:  # noqa: N802
        if e.buttons() & Qt.MouseButton.LeftButton:
            self.set_current(self.row_at(int(e.position().y())), extend=True)

    def keyPressEvent(self, e: QKeyEvent) -> None:  # noqa: N802
        k = e.key()
        ext = bool(e.modifiers() & Qt.KeyboardModifier.ShiftModifier)
        cur = self.current if self.current >= 0 else self.verticalScrollBar().value()
        moves: dict[int, int] = {Qt.Key.Key_Up: cur - 1, Qt.Key.Key_Down: cur + 1, Qt.Key.Key_PageUp: cur - self.visible_rows(),
                 Qt.Key.Key_PageDown: cur + self.visible_rows(), Qt.Key.Key_Home: 0,
                 Qt.Key.Key_End: len(self.model.lines) - 1}
        if k in moves:
            self.set_current(moves[k], extend=ext)
        elif e.matches(QKeySequence.StandardKey.SelectAll):
            self.anchor, self.current = 0, len(self.model.lines) - 1
            self.viewport().update()
        elif e.matches(QKeySequence.StandardKey.Copy):
            self.copy()
        else:
            super().keyPressEvent(e)

    def copy(self) -> str:
        text = "\n".join(self.model.lines[r] for r in self.selected_rows())
        QGuiApplication.clipboard().setText(text)
        return text


class SearchBox(QLineEdit):
    """The log's search field: Enter finds the next match (Shift+Enter the previous one) and stops there, so it
    never also presses the window's default button (a QLineEdit leaves Enter to its dialog)."""

    findNext = Signal()  # noqa: N815 - Qt signal naming
    findPrevious = Signal()  # noqa: N815

    def keyPressEvent(self, e: QKeyEvent) -> None:  # noqa: N802
        if e.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            (self.findPrevious if e.modifiers() & Qt.KeyboardModifier.ShiftModifier else self.findNext).emit()
            e.accept()
            return
        super().keyPressEvent(e)


class LogView(QWidget):
    followChanged = Signal(bool)

    def __init__(self, parent: Optional[QWidget] = None):
        super().__init__(parent)
        self.model = LogModel()
        self.view = LogCanvas(self.model, self)
        self.search = SearchBox(self)
        self.search.setClearButtonEnabled(True)
        self.prev_btn = QPushButton(self)
        self.next_btn = QPushButton(self)
        self.matches = QLabel(self)
        self.follow_btn = QPushButton(self)
        self.follow_btn.setCheckable(True)
        self.follow_btn.setChecked(True)
        bar = QHBoxLayout()
        bar.setContentsMargins(0, 0, 0, 0)
        bar.addWidget(self.search, 1)
        bar.addWidget(self.prev_btn)
        bar.addWidget(self.next_btn)
        bar.addWidget(self.matches)
        bar.addWidget(self.follow_btn)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addLayout(bar)
        lay.addWidget(self.view, 1)

        self._follow = True
        self._programmatic = False
        sb = self.view.verticalScrollBar()
        sb.valueChanged.connect(self._on_scrolled)
        sb.valueChanged.connect(lambda _v: self.view.viewport().update())
        self.view.horizontalScrollBar().valueChanged.connect(lambda _v: self.view.viewport().update())
        self.search.findNext.connect(self.find_next)
        self.search.findPrevious.connect(self.find_prev)
        self.search.textChanged.connect(self._on_search_text)
        self.next_btn.clicked.connect(self.find_next)
        self.prev_btn.clicked.connect(self.find_prev)
        self.follow_btn.clicked.connect(self.set_follow)
        for key, slot in ((QKeySequence.StandardKey.Find, self.search.setFocus), (QKeySequence.StandardKey.FindNext, self.find_next),
                          (QKeySequence.StandardKey.FindPrevious, self.find_prev)):
            QShortcut(key, self).activated.connect(slot)
        self._update_colours()
        self.retranslate()

    # --- content -------------------------------------------------------------------------
    def append_lines(self, batch: list[tuple[str, str]]) -> None:
        if not self.model.append(batch):
            return
        self._programmatic = True
        try:
            self.view.update_scrollbars()
            if self._follow:
                sb = self.view.verticalScrollBar()
                sb.setValue(sb.maximum())
        finally:
            self._programmatic = False
        self.view.viewport().update()

    def clear(self) -> None:
        self.model.clear()
        self.view.row_start = [0]
        self.view.current = self.view.anchor = -1
        self.view.update_scrollbars()
        self.view.viewport().update()

    def line_count(self) -> int:
        return len(self.model.lines)

    def copy_selection(self) -> str:
        return self.view.copy()

    # --- auto-scroll ---------------------------------------------------------------------
    @property
    def following(self) -> bool:
        return self._follow

    def set_follow(self, on: bool = True) -> None:
        self._follow = bool(on)
        self.follow_btn.setChecked(self._follow)
        if self._follow:
            sb = self.view.verticalScrollBar()
            self._programmatic = True
            sb.setValue(sb.maximum())
            self._programmatic = False
        self.followChanged.emit(self._follow)
        self.retranslate()

    def _on_scrolled(self, value: int) -> None:
        if self._programmatic:
            return
        at_end = value >= self.view.verticalScrollBar().maximum()
        if at_end != self._follow:
            self.set_follow(at_end)

    # --- search --------------------------------------------------------------------------
    LIVE_COUNT_MAX_LINES = 200_000  # counting on every keystroke costs ~8 ms per 100,000 lines

    def _on_search_text(self, text: str) -> None:
        if len(self.model.lines) > self.LIVE_COUNT_MAX_LINES:
            self.matches.setText("")  # a very long log: counted when the user searches (Enter)
            return
        self._count(text)

    def _count(self, text: str) -> None:
        n = self.model.count_matches(text) if len(text) >= 2 else 0
        self.matches.setText(tr("{n} matches").format(n=n) if text else "")

    def _find(self, backwards: bool) -> Optional[int]:
        cur = self.view.current
        start = cur if cur >= 0 else (len(self.model.lines) if backwards else -1)
        row = self.model.find(self.search.text(), start, backwards)
        if not self.matches.text():
            self._count(self.search.text())
        if row is not None:
            if self._follow:
                self.set_follow(False)
            self.view.set_current(row)
            self.view.ensure_visible(row, center=True)
        return row

    def find_next(self) -> Optional[int]:
        return self._find(False)

    def find_prev(self) -> Optional[int]:
        return self._find(True)

    # --- look and language ---------------------------------------------------------------
    def _update_colours(self) -> None:
        dark = self.palette().color(QPalette.ColorRole.Base).lightness() < 128
        self.view.err_colour = QColor("#ff8a80" if dark else "#c62828")

    def changeEvent(self, e) -> None:  # noqa: N802
        if e.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        elif e.type() == QEvent.Type.PaletteChange:
            self._update_colours()
        super().changeEvent(e)

    def retranslate(self) -> None:
        self.search.setPlaceholderText(tr("Search the log (Ctrl+F)"))
        self.search.setAccessibleName(tr("Search the log"))
        self.prev_btn.setText(tr("Previous"))
        self.prev_btn.setAccessibleName(tr("Previous match"))
        self.next_btn.setText(tr("Next"))
        self.next_btn.setAccessibleName(tr("Next match"))
        self.follow_btn.setText(tr("Following the end") if self._follow else tr("Auto-scroll paused: follow the end"))
        self.follow_btn.setAccessibleName(tr("Follow the end of the log"))
        self.view.setAccessibleName(tr("Installation log"))
        self._on_search_text(self.search.text())
