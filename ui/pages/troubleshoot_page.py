"""Troubleshoot: paste an error or open a log; the diagnosis with its evidence; a button that
turns its fix into a plan (shown on the Plan page; nothing runs before the user confirms); the
network settings when the wizard's own downloads failed (proxy, mirror, certificates); the report
for support. Next goes on to the Summary: never a dead end."""
from __future__ import annotations

import functools
import html
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (QFileDialog, QHBoxLayout, QLabel, QPlainTextEdit, QPushButton, QSplitter, QTextBrowser,
                               QVBoxLayout, QWidget)

from ui import engine
from ui.i18n import N_, diag_text, evidence_text, tr
from ui.page_states import TroubleshootState
from ui.pages.base import BasePage

# diagnosis categories (app/diagnose) whose fix is a setting of the window: the proxy, a mirror, the
# certificate bundle (Recommendation page, Advanced)
NETWORK_WORDS = ("network", "proxy", "tls", "ssl", "certificate", "mirror", "dns", "connect", "offline", "download")


def is_network_match(m: Any) -> bool:
    text = " ".join(str(getattr(m, k, "") or "") for k in ("category", "subcode", "rule")).lower()
    return any(w in text for w in NETWORK_WORDS)


def network_field(m: Any) -> str:
    """Which setting fixes this download failure: the certificate bundle, the proxy, or a mirror."""
    text = " ".join(str(getattr(m, k, "") or "") for k in ("subcode", "rule")).lower()
    if any(w in text for w in ("tls", "ssl", "cert")):
        return "ca_bundle"
    if "proxy" in text:
        return "proxy"
    return "pypi"


NETWORK_FIX = {  # the window's fix for the wizard's own download failures: a setting here, never a terminal
    "ca_bundle": N_("Give the wizard your organisation's certificate bundle: press “Network settings”, choose the CA "
                    "file (your IT department has it), then Apply. Check the computer's date and time too. Do not turn "
                    "certificate checks off."),
    "proxy": N_("Enter your network's proxy: press “Network settings”, fill in HTTPS proxy (e.g. "
                "http://proxy.example.com:8080), then Apply."),
    "pypi": N_("The download server could not be reached. Press “Network settings” to use a mirror or a proxy your "
               "network allows, then Apply; or try again when the connection works."),
}


MAX_LOG_BYTES = 1024 * 1024  # the box shows a log's last MiB (errors are at the end); the engine reads it all


def _said(shown: str, english: str) -> str:
    """HTML for an engine sentence: translated, with the engine's English as its tooltip."""
    if shown == english:
        return html.escape(english)
    return f"<span title=\"{html.escape(english, quote=True)}\">{html.escape(shown)}</span>"


def read_log(path: str) -> str:
    """The log's text (its last 16 MiB), undecodable bytes replaced: never fails on odd input."""
    with open(path, "rb") as f:
        f.seek(0, 2)
        size = f.tell()
        f.seek(max(0, size - MAX_LOG_BYTES))
        return f.read().decode("utf-8", errors="replace")


class TroubleshootPage(BasePage):
    page_id = "troubleshoot"

    def __init__(self, wizard):
        super().__init__(wizard)
        self.state = TroubleshootState()
        self.input_label = QLabel(self)
        self.input = QPlainTextEdit(self)
        self.input.setObjectName("error_text")
        self.input.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.input_label.setBuddy(self.input)
        row = QHBoxLayout()
        self.open_btn = QPushButton(self)
        self.open_btn.setObjectName("open_log")
        self.open_btn.clicked.connect(self._open_log)
        self.diagnose_btn = QPushButton(self)
        self.diagnose_btn.setObjectName("diagnose")
        self.diagnose_btn.setEnabled(False)
        self.input.textChanged.connect(lambda: self.diagnose_btn.setEnabled(bool(self.input.toPlainText().strip())))
        self.diagnose_btn.clicked.connect(lambda: self.diagnose())
        row.addWidget(self.open_btn)
        row.addStretch(1)
        row.addWidget(self.diagnose_btn)
        top = QWidget(self)
        tl = QVBoxLayout(top)
        tl.setContentsMargins(0, 0, 0, 0)
        tl.addWidget(self.input_label)
        tl.addWidget(self.input, 1)
        tl.addLayout(row)
        self.result = QTextBrowser(self)
        self.result.setObjectName("diagnosis")
        self.result.setOpenLinks(False)
        bottom = QWidget(self)
        bl = QVBoxLayout(bottom)
        bl.setContentsMargins(0, 0, 0, 0)
        bl.addWidget(self.result, 1)
        fix_row = QHBoxLayout()
        self.report_btn = QPushButton(self)
        self.report_btn.setObjectName("export_report_troubleshoot")
        self.report_btn.clicked.connect(lambda: self.w.pages["summary"].ask_export_report(self))
        self.network_btn = QPushButton(self)
        self.network_btn.setObjectName("network_settings")
        self.network_btn.clicked.connect(self.open_network_settings)
        self.network_btn.hide()
        self.fix_btn = QPushButton(self)
        self.fix_btn.setObjectName("make_fix_plan")
        self.fix_btn.clicked.connect(self.make_fix_plan)
        self.fix_btn.setEnabled(False)
        fix_row.addWidget(self.report_btn)
        fix_row.addStretch(1)
        fix_row.addWidget(self.network_btn)
        fix_row.addWidget(self.fix_btn)
        bl.addLayout(fix_row)
        split = QSplitter(Qt.Orientation.Vertical, self)
        split.addWidget(top)
        split.addWidget(bottom)
        split.setSizes([250, 400])
        self.layout_.addWidget(split, 1)

    def enter(self) -> None:
        if self.state.diagnosis is None and self.session.report_data:
            from app.diagnose.model import Diagnosis

            recorded = engine.report_value(self.session.report_data, "diagnosis", Diagnosis)
            if recorded is not None:  # a report's walkthrough: the diagnosis the user's wizard made
                self._got(recorded)
                return
        if self.session.error_text and not self.input.toPlainText().strip():
            self.input.setPlainText(self.session.error_text)
            self.diagnose()

    def _open_log(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, tr("Open a log"), "", tr("Logs (*.log *.txt);;All files (*)"))
        if path:
            self.open_log(path)

    def open_log(self, path: str) -> None:
        try:
            text = read_log(path)
        except OSError as e:
            self.show_error(tr("The log cannot be read: {error}").format(error=e.strerror or str(e)))
            return
        self.input.blockSignals(True)
        self.input.setPlainText(text)
        self.input.blockSignals(False)
        self.diagnose(path=path)  # the engine reads the whole file, in bounded chunks

    def diagnose(self, path: str | None = None) -> None:
        text = self.input.toPlainText()
        if not text.strip() or self.state.busy:
            return
        self.state.text = text
        self.state.busy = True
        self.clear_error()
        self.diagnose_btn.setEnabled(False)
        self.input.textChanged.connect(lambda: self.diagnose_btn.setEnabled(bool(self.input.toPlainText().strip())))
        self.fix_btn.setEnabled(False)
        self.result.setPlainText(tr("Looking for the cause…"))
        # the run's choices (mirrors, proxy, CA bundle, venv) and recommendation: the fix installs where this run would
        run = functools.partial(self.w.services.diagnose_file if path else self.w.services.diagnose, path or text,
                                self.session.facts, choices=self.session.choices, recommendation=self._recommendation())
        self.tasks.submit(run, on_done=self._got, on_error=self._failed)

    def _recommendation(self):
        """The recommendation the window holds for this machine's facts (None before there is one)."""
        return self.session.recommendation if self.session.facts is not None else None

    def _got(self, d: Any) -> None:
        self.state.busy = False
        self.state.diagnosis = self.session.diagnosis = d
        self.diagnose_btn.setEnabled(True)
        self.fix_btn.setEnabled(self.state.has_fix and not self.session.read_only)
        top = self.state.top
        self.network_btn.setVisible(top is not None and is_network_match(top) and not self.session.read_only)
        self.show_state()
        self.completeChanged.emit()

    def _failed(self, message: str, _d: str) -> None:
        self.state.busy = False
        self.diagnose_btn.setEnabled(True)
        self.result.setPlainText("")
        self.show_error(tr("The diagnosis failed: {error}").format(error=message))

    def make_fix_plan(self) -> None:
        d = self.state.diagnosis
        if d is None:
            return
        try:
            plan = engine.fix_plan(d, self.session.facts)
        except Exception as e:  # noqa: BLE001 - shown to the user
            self.show_error(tr("This fix cannot be turned into a plan: {error}").format(error=str(e)))
            return
        self.session.plan = plan
        self.session.plan_basis = ("fix", d)
        self.session.plan_confirmed = False
        if self.session.path != "setup":
            self.session.path = "troubleshoot"
        self.w.jump_to("plan")

    def open_network_settings(self) -> None:
        """The wizard's own download failed (proxy, mirror, certificates): the fields that fix it."""
        top = self.state.top
        self.w.jump_to("recommendation")
        self.w.pages["recommendation"].show_network_settings(network_field(top) if top is not None else "proxy")

    def next_page(self):
        return "summary"  # the verdict and the report; a fix goes by its button to the Plan

    def isComplete(self) -> bool:  # noqa: N802
        return not self.state.busy

    def show_state(self) -> None:  # not QWidget.render
        d = self.state.diagnosis
        e = html.escape
        if d is None:
            self.result.setHtml("")
            return
        if not d.matches:  # the engine's line may name a command: the window says what to do here
            self.result.setHtml("<p>" + e(tr("No known GPU setup error was recognised in this text.")) + "</p><p>"
                                + e(tr("Paste more of the output (the lines before the error help), or export the "
                                       "report and send it to support.")) + "</p>")
            return
        out = []
        for i, m in enumerate(d.matches[:3]):
            head = tr("Most likely cause") if i == 0 else tr("Also possible")
            cause = _said(diag_text(getattr(m, "root_cause_code", ""), "root_cause", getattr(m, "params", None), m.root_cause), m.root_cause)
            out.append(f"<h3>{e(head)} ({m.confidence * 100:.0f}%)</h3><p><b>{cause}</b></p>")
            if m.excerpt:
                line = tr("line {n}").format(n=m.line) if m.line else ""
                out.append(f"<pre style='white-space: pre-wrap'>{e(m.excerpt)}</pre><p><i>{e(line)}</i></p>")
            if m.evidence:
                out.append("<p>" + e(tr("Evidence:")) + "</p><ul>")
                for ev in m.evidence:
                    mark = "✔" if ev.supports else "✘"
                    out.append(f"<li>{mark} {e(evidence_text(ev))}</li>")
                out.append("</ul>")
            fix = _said(diag_text(getattr(m, "fix_code", ""), "fix", getattr(m, "params", None), m.fix), m.fix)
            if is_network_match(m) and not self.session.read_only:
                fix = e(tr(NETWORK_FIX[network_field(m)]))  # the setting in this window, not a command to type
            out.append("<p>" + e(tr("Fix:")) + " " + fix + "</p>")
        self.result.setHtml("".join(out))

    def retranslate(self) -> None:
        self.setTitle(tr("Troubleshoot"))
        self.setSubTitle(tr("Paste an error message or open a log; the wizard finds the cause and a fix."))
        self.input_label.setText(tr("&Error text or log:"))
        self.input.setPlaceholderText(tr("Paste the error here, e.g. the last lines of a failed training run."))
        self.input.setAccessibleName(tr("Error text"))
        self.open_btn.setText(tr("&Open a log…"))
        self.open_btn.setAccessibleName(tr("Open a log file"))
        self.diagnose_btn.setText(tr("&Diagnose"))
        self.diagnose_btn.setAccessibleName(tr("Find the cause"))
        self.result.setAccessibleName(tr("Diagnosis"))
        self.fix_btn.setText(tr("Make a &plan of this fix"))
        self.fix_btn.setAccessibleName(tr("Turn the fix into a plan"))
        self.report_btn.setText(tr("Export &report…"))
        self.report_btn.setAccessibleName(tr("Export the report for support"))
        self.network_btn.setText(tr("&Network settings"))
        self.network_btn.setAccessibleName(tr("Open the proxy, mirror and certificate settings"))
        self.show_state()
