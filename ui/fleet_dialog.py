"""The fleet report in the window: support staff open fleet.html or fleet.json (Open a file…, or
`gpu-wizard FILE`) and see one row per host (GPUs, verification, plan, lagging peers); a double
click, or Open, opens that host's own report (the one beside the fleet report) as a walkthrough.

Qt-free reading is app.fleet.report.load_fleet_report; every sentence is the message catalogue's
(report.fleet_*), in the window's language.
"""
from __future__ import annotations

from typing import Any, Optional

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QAbstractItemView, QDialog, QDialogButtonBox, QLabel, QPushButton, QTreeWidget,
                               QTreeWidgetItem, QVBoxLayout)

from app import messages
from app.fleet.report import FleetReportError, is_fleet_report, load_fleet_report
from ui.i18n import current_language

__all__ = ["FleetDialog", "FleetReportError", "open_if_fleet", "is_fleet_report"]

STATUS_MARK = {"pass": "✓", "warn": "!", "fail": "✗"}


def say(code: str, **params: Any) -> str:
    return messages.render("report", code, params, current_language())


def _count(code: str, n: int) -> str:
    return say(code + "_one", n=n) if n == 1 else say(code, n=n)


def _gpus(row: dict[str, Any]) -> str:
    names: dict[str, int] = {}
    for g in row.get("gpus") or []:
        if isinstance(g, dict) and g.get("name"):
            names[g["name"]] = names.get(g["name"], 0) + 1
    return ", ".join(f"{n}× {k}" if n > 1 else k for k, n in names.items()) or "—"


def _verification(row: dict[str, Any]) -> tuple[str, str]:
    """(status word code, sentence) of a host's verification."""
    st = (row.get("verification") or {}).get("status")
    if st in ("pass", "warn", "fail"):
        return st, f"{STATUS_MARK[st]} {say('fleet_window_verified_' + st)}"
    return "none", say("fleet_not_verified")


class FleetDialog(QDialog):
    """The hosts of one fleet report; opening a host hands its report to the wizard."""

    def __init__(self, wizard: Any, path: str, report: dict[str, Any]):
        super().__init__(wizard)
        self.setObjectName("fleet_dialog")
        self.w, self.path, self.report = wizard, path, report
        self.setWindowModality(Qt.WindowModality.NonModal)
        lay = QVBoxLayout(self)
        self.summary = QLabel(self)
        self.summary.setObjectName("fleet_summary")
        self.summary.setWordWrap(True)
        lay.addWidget(self.summary)
        self.hint = QLabel(self)
        self.hint.setWordWrap(True)
        lay.addWidget(self.hint)
        self.hosts = QTreeWidget(self)
        self.hosts.setObjectName("fleet_hosts")
        self.hosts.setRootIsDecorated(False)
        self.hosts.setAlternatingRowColors(True)
        self.hosts.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.hosts.itemDoubleClicked.connect(lambda item, _col: self.open_host(item))
        self.hosts.currentItemChanged.connect(lambda *_: self._sync())
        lay.addWidget(self.hosts, 1)
        self.error = QLabel(self)
        self.error.setObjectName("fleet_error")
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #b91c1c")
        self.error.hide()
        lay.addWidget(self.error)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        self.open_btn = QPushButton(self)
        self.open_btn.setObjectName("fleet_open_host")
        self.open_btn.clicked.connect(lambda: self.open_host(self.hosts.currentItem()))
        buttons.addButton(self.open_btn, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.close)
        lay.addWidget(buttons)
        self.resize(960, 480)
        self.retranslate()
        first = self.hosts.topLevelItem(0)
        if first is not None:
            self.hosts.setCurrentItem(first)

    def retranslate(self) -> None:
        s = self.report.get("summary") or {}
        rows = self.report["hosts"]
        n = int(s.get("hosts", len(rows)) or 0)
        self.setWindowTitle(say("fleet_title", hosts=_count("fleet_n_hosts", n)))
        self.summary.setText(say("fleet_summary", hosts=_count("fleet_n_hosts", n), gpus=_count("fleet_n_gpus", int(s.get("gpus", 0) or 0)),
                                 verified=s.get("verified", 0), failed=s.get("failed", 0), lagging=s.get("lagging", 0)))
        self.hint.setText(say("fleet_window_hint"))
        self.open_btn.setText(say("fleet_window_open"))
        self.open_btn.setAccessibleName(say("fleet_window_open"))
        cols = [say("fleet_col_host"), say("fleet_col_gpus"), say("fleet_col_driver"), say("fleet_window_col_verification"),
                say("fleet_col_plan"), say("fleet_col_flags")]
        self.hosts.setHeaderLabels(cols)
        self.hosts.setAccessibleName(say("fleet_window_hosts"))
        current = self.current_host()
        self.hosts.clear()
        for row in rows:
            status, ver_text = _verification(row)
            flags = [f.get("text", "") for f in row.get("flags") or [] if isinstance(f, dict)]
            item = QTreeWidgetItem([row["host"], _gpus(row), str(row.get("driver") or "—"), ver_text,
                                    str(row.get("plan") or ""), say("fleet_window_lagging") if flags else ""])
            item.setData(0, Qt.ItemDataRole.UserRole, row["host"])
            item.setData(3, Qt.ItemDataRole.UserRole, status)
            if flags:
                item.setToolTip(5, "\n".join(flags))
                item.setData(5, Qt.ItemDataRole.UserRole, [f.get("code") for f in row["flags"] if isinstance(f, dict)])
            if not row.get("report_path") and not row.get("can_render"):
                item.setToolTip(0, say("fleet_window_no_report", host=row["host"]))
            self.hosts.addTopLevelItem(item)
            if row["host"] == current:
                self.hosts.setCurrentItem(item)
        for i in range(len(cols)):
            self.hosts.resizeColumnToContents(i)
            self.hosts.setColumnWidth(i, self.hosts.columnWidth(i) + 14)
        self._sync()

    def current_host(self) -> Optional[str]:
        item = self.hosts.currentItem() if hasattr(self, "hosts") else None
        return item.data(0, Qt.ItemDataRole.UserRole) if item is not None else None

    def row_of(self, host: Optional[str]) -> Optional[dict[str, Any]]:
        return next((r for r in self.report["hosts"] if r["host"] == host), None)

    def _sync(self) -> None:
        row = self.row_of(self.current_host())
        self.open_btn.setEnabled(bool(row and (row.get("report_path") or row.get("can_render"))))

    def open_host(self, item: Optional[QTreeWidgetItem]) -> bool:
        """The host's own report, opened in the wizard as a walkthrough (Welcome's own path)."""
        if item is None:
            return False
        row = self.row_of(item.data(0, Qt.ItemDataRole.UserRole))
        if row is None:
            return False
        if not row.get("report_path"):
            from PySide6.QtWidgets import QApplication

            from app.fleet.report import ensure_host_report

            QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)  # a host's report, written on demand (~0.3 s)
            try:
                ensure_host_report(self.report, row["host"])
            finally:
                QApplication.restoreOverrideCursor()
        if not row.get("report_path"):
            self.error.setText(say("fleet_window_no_report", host=row["host"]))
            self.error.show()
            return False
        self.error.hide()
        welcome = self.w.pages.get("welcome")
        if self.w.current_page_id != "welcome":
            self.w.jump_to("welcome")
        opened = bool(welcome.choose_file(row["report_path"]))
        if not opened:
            self.error.setText(say("fleet_window_cannot_open", host=row["host"]))
            self.error.show()
        return opened


def open_if_fleet(wizard: Any, path: str) -> Optional[FleetDialog]:
    """When `path` is a fleet report: show its hosts (and return the dialog); else None.
    Raises FleetReportError (one line) for a fleet report that does not read."""
    if not is_fleet_report(path):
        return None
    report = load_fleet_report(path)
    old = getattr(wizard, "_fleet_dialog", None)
    if old is not None:
        old.close()
    dlg = FleetDialog(wizard, path, report)
    wizard._fleet_dialog = dlg
    dlg.show()
    dlg.raise_()
    return dlg

