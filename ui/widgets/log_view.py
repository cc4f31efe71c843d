"""A live log view fast for hundreds of thousands of lines.

A list model over plain Python lists (one row per line, uniform row height) instead of a text
document: appending a batch costs O(batch), scrolling costs only the visible rows. stderr lines
are coloured. Auto-scroll follows the end until the user scrolls up to read, and resumes when
they return to the bottom (or press "Follow"). Search finds the next/previous matching line.
"""
from __future__ import annotations

from typing import Any, Iterable, Optional

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QColor, QFontDatabase, QGuiApplication, QKeySequence, QPalette, QShortcut
from PySide6.QtWidgets import (QAbstractItemView, QHBoxLayout, QLabel, QLineEdit, QListView, QPushButton,
                               QVBoxLayout, QWidget)

from ui.i18n import tr

MAX_LINE_CHARS = 2000  # a single huge line (a progress bar without newlines) is cut for display


class LogModel(QAbstractListModel):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.lines: list[str] = []
        self.is_err: list[bool] = []
        self.err_colour = QColor("#c62828")

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.lines)

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        r = index.row()
        if role == Qt.ItemDataRole.DisplayRole:
            return self.lines[r]
        if role == Qt.ItemDataRole.ForegroundRole and self.is_err[r]:
            return self.err_colour
        if role == Qt.ItemDataRole.AccessibleTextRole:
            return ("stderr: " if self.is_err[r] else "") + self.lines[r]
        return None

    def append(self, batch: Iterable[tuple[str, str]]) -> int:
        new_lines, new_err = [], []
        for stream, text in batch:
            for part in (text.splitlines() or [""]):
                new_lines.append(part if len(part) <= MAX_LINE_CHARS else part[:MAX_LINE_CHARS] + " …")
                new_err.append(stream == "stderr")
        if not new_lines:
            return 0
        first = len(self.lines)
        self.beginInsertRows(QModelIndex(), first, first + len(new_lines) - 1)
        self.lines.extend(new_lines)
        self.is_err.extend(new_err)
        self.endInsertRows()
        return len(new_lines)

    def clear(self) -> None:
        self.beginResetModel()
        self.lines.clear()
        self.is_err.clear()
        self.endResetModel()

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


class LogView(QWidget):
    followChanged = Signal(bool)

    def __init__(self, parent: Optional[QWidget] = None):
        super().__init__(parent)
        self.model = LogModel(self)
        self.view = QListView(self)
        self.view.setModel(self.model)
        self.view.setUniformItemSizes(True)
        self.view.setLayoutMode(QListView.LayoutMode.SinglePass)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.search = QLineEdit(self)
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
        bar.addStretch(0)
        bar.addWidget(self.follow_btn)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addLayout(bar)
        lay.addWidget(self.view, 1)

        self._follow = True
        self._programmatic = False
        sb = self.view.verticalScrollBar()
        sb.valueChanged.connect(self._on_scrolled)
        sb.rangeChanged.connect(self._on_range)
        self.search.returnPressed.connect(self.find_next)
        self.search.textChanged.connect(self._on_search_text)
        self.next_btn.clicked.connect(self.find_next)
        self.prev_btn.clicked.connect(self.find_prev)
        self.follow_btn.clicked.connect(self.set_follow)
        QShortcut(QKeySequence.StandardKey.Find, self, activated=self.search.setFocus)
        QShortcut(QKeySequence.StandardKey.FindNext, self, activated=self.find_next)
        QShortcut(QKeySequence.StandardKey.FindPrevious, self, activated=self.find_prev)
        QShortcut(QKeySequence.StandardKey.Copy, self.view, activated=self.copy_selection)
        self._update_colours()
        self.retranslate()

    # --- content -------------------------------------------------------------------------
    def append_lines(self, batch: list[tuple[str, str]]) -> None:
        self.model.append(batch)

    def clear(self) -> None:
        self.model.clear()

    def line_count(self) -> int:
        return len(self.model.lines)

    def copy_selection(self) -> None:
        rows = sorted(i.row() for i in self.view.selectionModel().selectedIndexes())
        QGuiApplication.clipboard().setText("\n".join(self.model.lines[r] for r in rows))

    # --- auto-scroll ---------------------------------------------------------------------
    @property
    def following(self) -> bool:
        return self._follow

    def set_follow(self, on: bool = True) -> None:
        self._follow = bool(on)
        self.follow_btn.setChecked(self._follow)
        if self._follow:
            self._scroll_to_end()
        self.followChanged.emit(self._follow)
        self.retranslate()

    def _scroll_to_end(self) -> None:
        sb = self.view.verticalScrollBar()
        self._programmatic = True
        sb.setValue(sb.maximum())
        self._programmatic = False

    def _on_range(self, _min: int, _max: int) -> None:
        if self._follow:
            self._scroll_to_end()

    def _on_scrolled(self, value: int) -> None:
        if self._programmatic:
            return
        at_end = value >= self.view.verticalScrollBar().maximum()
        if at_end != self._follow:
            self.set_follow(at_end)

    # --- search --------------------------------------------------------------------------
    def _on_search_text(self, text: str) -> None:
        n = self.model.count_matches(text) if len(text) >= 2 else 0
        self.matches.setText(tr("{n} matches").format(n=n) if text else "")

    def _find(self, backwards: bool) -> Optional[int]:
        cur = self.view.currentIndex().row()
        start = cur if cur >= 0 else (len(self.model.lines) if backwards else -1)
        row = self.model.find(self.search.text(), start, backwards)
        if row is not None:
            if self._follow:
                self.set_follow(False)
            idx = self.model.index(row)
            self.view.setCurrentIndex(idx)
            self.view.scrollTo(idx, QAbstractItemView.ScrollHint.PositionAtCenter)
        return row

    def find_next(self) -> Optional[int]:
        return self._find(False)

    def find_prev(self) -> Optional[int]:
        return self._find(True)

    # --- look and language ---------------------------------------------------------------
    def _update_colours(self) -> None:
        dark = self.palette().color(QPalette.ColorRole.Base).lightness() < 128
        self.model.err_colour = QColor("#ff8a80" if dark else "#c62828")

    def changeEvent(self, e) -> None:  # noqa: N802 - Qt override
        from PySide6.QtCore import QEvent

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
