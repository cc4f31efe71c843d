"""Summary: the verdict, what was changed, export the report and the snapshot."""
from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QHBoxLayout, QLabel, QListWidget, QListWidgetItem, QPushButton

from ui import engine
from ui.i18n import N_, tr
from ui.page_states import SummaryState
from ui.pages.base import BasePage
from ui.widgets.icons import status_icon

WSL_RESTART_STEPS = ("configure_wsl_memory",)  # plan steps whose setting WSL reads when it starts


def wsl_exe() -> str:
    import shutil

    return shutil.which("wsl.exe") or "/mnt/c/Windows/System32/wsl.exe"


HEADLINES = {"pass": N_("PyTorch runs on the GPU at full speed."),
             "warn": N_("PyTorch runs on the GPU, with warnings."),
             "fail": N_("Something does not work yet."),
             "skip": N_("Not verified.")}


class SummaryPage(BasePage):
    page_id = "summary"

    def __init__(self, wizard):
        super().__init__(wizard)
        self.state = SummaryState()
        self.headline = QLabel(self)
        self.headline.setObjectName("verdict")
        self.headline.setWordWrap(True)
        f = self.headline.font()
        f.setPointSizeF(f.pointSizeF() * 1.4)
        f.setBold(True)
        self.headline.setFont(f)
        self.icon = QLabel(self)
        top = QHBoxLayout()
        top.addWidget(self.icon)
        top.addWidget(self.headline, 1)
        self.layout_.addLayout(top)
        self.detail = QLabel(self)
        self.detail.setWordWrap(True)
        self.detail.setTextFormat(Qt.TextFormat.RichText)
        self.layout_.addWidget(self.detail)
        self.changes_label = QLabel(self)
        self.changes = QListWidget(self)
        self.changes.setObjectName("changes")
        self.changes_label.setBuddy(self.changes)
        self.layout_.addWidget(self.changes_label)
        self.layout_.addWidget(self.changes, 1)
        row = QHBoxLayout()
        self.report_btn = QPushButton(self)
        self.report_btn.setObjectName("export_report")
        self.report_btn.clicked.connect(self._export_report)
        self.snapshot_btn = QPushButton(self)
        self.snapshot_btn.setObjectName("export_snapshot")
        self.snapshot_btn.clicked.connect(self._export_snapshot)
        self.trouble_btn = QPushButton(self)
        self.trouble_btn.setObjectName("troubleshoot_summary")
        self.trouble_btn.clicked.connect(lambda: self.w.jump_to("troubleshoot"))
        self.wsl_btn = QPushButton(self)
        self.wsl_btn.setObjectName("restart_wsl")
        self.wsl_btn.clicked.connect(self.ask_restart_wsl)
        self.wsl_btn.hide()
        row.addWidget(self.report_btn)
        row.addWidget(self.snapshot_btn)
        row.addStretch(1)
        row.addWidget(self.wsl_btn)
        row.addWidget(self.trouble_btn)
        self.layout_.addLayout(row)

    def enter(self) -> None:
        s = self.session
        rep = s.report_data or {}
        self.state = SummaryState(s.verification, s.install, s.dry_run)
        if s.source.kind == "report":  # what happened there, never a dry run made here
            from app.plan.model import Plan

            self.state.recorded_steps = tuple(rep.get("steps") or ())
            self.state.recorded_plan = engine.report_value(rep, "plan", Plan)
            self.state.install = None
        self.show_state()

    def wsl_restart_needed(self) -> bool:
        """A setting WSL reads at its start was changed here (its memory in .wslconfig)."""
        s = self.session
        if s.dry_run or s.facts is None or s.facts.os.wsl != 2 or s.install is None:
            return False
        return any(st.id in WSL_RESTART_STEPS and st.status == "ok" for st in s.install.steps)

    def ask_restart_wsl(self) -> None:
        from PySide6.QtWidgets import QMessageBox

        box = QMessageBox(self)
        box.setIcon(QMessageBox.Icon.Question)
        box.setWindowTitle(tr("Restart WSL"))
        box.setText(tr("WSL uses its new memory setting after it restarts. Restarting WSL closes every Linux window, "
                       "this wizard too; open Ubuntu again afterwards. Restart WSL now?"))
        now = box.addButton(tr("&Restart WSL"), QMessageBox.ButtonRole.AcceptRole)
        later = box.addButton(tr("&Later"), QMessageBox.ButtonRole.RejectRole)
        box.setDefaultButton(later)  # it closes every Linux program: never the Enter answer
        box.setEscapeButton(later)
        self._wsl_box = box

        def answered(_r: int) -> None:
            if box.clickedButton() is now:
                if self.w.services.restart_wsl is not None:
                    self.w.services.restart_wsl()
                else:
                    from PySide6.QtCore import QProcess

                    QProcess.startDetached(wsl_exe(), ["--shutdown"])

        box.finished.connect(answered)
        box.open()

    def _export_report(self) -> None:
        self.ask_export_report(self)

    def ask_export_report(self, page=None) -> None:
        """Export the report from here or from any page that offers it (Troubleshoot)."""
        page = page or self
        path, _flt = QFileDialog.getSaveFileName(page, tr("Export the report"), "gpu-wizard-report.html",
                                                 tr("HTML report (*.html);;Markdown (*.md);;JSON (*.json)"))
        if path:
            self.export_report(path, page)

    def export_report(self, path: str, page=None):
        s = self.session
        page = page or self
        system = self.w.services.system
        snap = getattr(system, "data", None)
        self.report_btn.setEnabled(False)
        return self.tasks.submit(engine.export_report, path, None, facts=s.facts, recommendation=s.recommendation,
                                 plan=s.plan, verification=s.verification, diagnosis=s.diagnosis,
                                 session_dir=s.session_dir, snapshot=snap, live=not s.source.recorded,
                                 on_done=lambda p: self._exported(p, page), on_error=lambda m, d: self._export_failed(m, page))

    def _exported(self, path: str, page=None) -> None:
        self.report_btn.setEnabled(True)
        (page or self).show_error(tr("Report written: {path}").format(path=path), "ok")

    def _export_failed(self, message: str, page=None) -> None:
        self.report_btn.setEnabled(True)
        (page or self).show_error(tr("The report could not be written: {error}").format(error=message))

    def _export_snapshot(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, tr("Save a snapshot"), "gpu-wizard-snapshot.json", tr("Snapshots (*.json)"))
        if path:
            self.w.pages["system"].save_snapshot_to(path)
            self.show_error(tr("Saving the snapshot…"), "info")

    def show_state(self) -> None:  # not QWidget.render
        recorded = bool(self.state.recorded_steps) or self.session.source.kind == "report"
        if recorded:
            self.changes_label.setText(tr("&What was done on the user's machine:"))
        else:
            self.changes_label.setText(tr("&What a real install would do:") if self.state.dry_run else tr("&What was done:"))
        self.trouble_btn.setVisible(self.state.verdict == "fail" and self.w.current_page_id == "summary")
        self.wsl_btn.setVisible(self.wsl_restart_needed())
        v = self.state.verdict
        self.icon.setPixmap(status_icon(v).pixmap(40, 40))
        self.headline.setText(tr(HEADLINES.get(v, HEADLINES["skip"])))
        self.headline.setAccessibleName(self.headline.text())
        parts = []
        ver = self.state.verification
        if ver is not None:
            b, c = ver.bandwidth, ver.compute
            if b.h2d_pinned_gbps:
                parts.append(tr("Host to GPU: {v:.1f} GB/s").format(v=b.h2d_pinned_gbps))
            if b.d2d_gbps:
                parts.append(tr("GPU memory: {v:.0f} GB/s").format(v=b.d2d_gbps))
            best = max(c.matmul_tflops.items(), key=lambda kv: kv[1], default=None)
            if best:
                parts.append(tr("Matrix multiply: {v:.0f} TFLOP/s ({dtype})").format(v=best[1], dtype=best[0]))
            if ver.torch.version:
                parts.append(tr("PyTorch {v}").format(v=html.escape(ver.torch.version)))
        if self.wsl_restart_needed():
            parts.append(tr("WSL uses its new memory setting after it restarts: press Restart WSL, or restart Windows."))
        if recorded or self.session.source.kind == "report":
            parts.append(tr("As recorded on the user's machine; nothing ran on this computer."))
        elif self.state.dry_run:
            parts.append(tr("Dry run: nothing was changed on this computer."))
        self.detail.setText("<br>".join(parts))
        self.changes.clear()
        for status, title in self.state.changes():
            if self.state.dry_run and not recorded:  # nothing ran: say what a real install would do
                self.changes.addItem(QListWidgetItem(status_icon("info"), title))
            else:
                self.changes.addItem(QListWidgetItem(status_icon(status), title))
        if not self.state.changes():
            none = tr("The report records no install steps.") if self.session.source.kind == "report" \
                else tr("Nothing was installed in this session.")
            self.changes.addItem(QListWidgetItem(status_icon("info"), none))

    def retranslate(self) -> None:
        self.setTitle(tr("Summary"))
        self.setSubTitle(tr("The verdict, and what changed."))
        self.changes.setAccessibleName(tr("What was done"))
        self.report_btn.setText(tr("Export &report…"))
        self.report_btn.setAccessibleName(tr("Export the report"))
        self.snapshot_btn.setText(tr("Save s&napshot…"))
        self.snapshot_btn.setAccessibleName(tr("Save a snapshot of this machine"))
        self.trouble_btn.setText(tr("&Troubleshoot"))
        self.wsl_btn.setText(tr("Restart &WSL…"))
        self.wsl_btn.setAccessibleName(tr("Restart WSL so its new settings apply"))
        self.trouble_btn.setAccessibleName(tr("Find the cause of the failure"))
        self.show_state()
