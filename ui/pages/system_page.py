"""System: the detected facts, grouped, each group with a status icon; findings in plain words."""
from __future__ import annotations


from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QListView, QFileDialog, QHBoxLayout, QHeaderView, QLabel, QListWidget, QListWidgetItem, QPushButton,
                               QSplitter, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget)

from app.facts import Facts
from ui.i18n import N_, engine_text, hint_text, tr
from ui.page_states import SystemState
from ui.pages.base import BasePage
from ui.state import gpu_line
from ui.widgets.icons import status_icon

GROUP_TITLES = {"gpu": N_("GPU"), "driver": N_("Driver"), "os": N_("Operating system and WSL"),
                "cuda": N_("CUDA and cuDNN"), "python": N_("Python and PyTorch")}
LABELS = {  # FactRow labels (ui/state.py group_facts) in the user's language
    "State": N_("State"), "Version": N_("Version"), "Newest CUDA it supports": N_("Newest CUDA it supports"),
    "Kernel module": N_("Kernel module"), "Secure Boot": N_("Secure Boot"), "System": N_("System"),
    "Kernel": N_("Kernel"), "WSL": N_("WSL"), "Container": N_("Container"), "Free disk": N_("Free disk"),
    "Toolkit": N_("Toolkit"), "nvcc": N_("nvcc"), "cuDNN": N_("cuDNN"), "Python": N_("Python"),
    "PyTorch": N_("PyTorch"), "GPU usable from PyTorch": N_("GPU usable from PyTorch"),
}
VALUES = {  # values that are words, not numbers
    "ok": N_("working"), "not_installed": N_("not installed"), "not_loaded": N_("installed, not loaded"),
    "mismatch": N_("library and kernel module differ"), "no_communication": N_("not responding"),
    "nvml_failed": N_("NVML failed"), "host": N_("provided by the Windows host"), "unknown": N_("unknown"),
    "yes": N_("yes"), "no": N_("no"), "not installed": N_("not installed"), "open": N_("open"),
    "proprietary": N_("proprietary"), "none (optional: PyTorch brings its own CUDA runtime)":
        N_("none (optional: PyTorch brings its own CUDA runtime)"),
}
STATUS_TEXT = {"ok": N_("fine"), "warning": N_("needs attention"), "error": N_("problem"), "unknown": N_("not detected")}


class SystemPage(BasePage):
    page_id = "system"

    def __init__(self, wizard):
        super().__init__(wizard)
        self.state = SystemState()
        self.status = QLabel(self)
        self.status.setWordWrap(True)
        self.tree = QTreeWidget(self)
        self.tree.setObjectName("facts_tree")
        self.tree.setColumnCount(2)
        self.tree.header().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        self.tree.header().setStretchLastSection(True)
        self.tree.setAlternatingRowColors(True)
        self.findings_label = QLabel(self)
        self.findings = QListWidget(self)
        self.findings.setObjectName("findings")
        self.findings.setWordWrap(True)
        self.findings.setResizeMode(QListView.ResizeMode.Adjust)  # re-wrap items when the width changes
        self.findings_label.setBuddy(self.findings)
        split = QSplitter(Qt.Orientation.Vertical, self)
        split.addWidget(self.tree)
        lower = QWidget(self)
        ll = QVBoxLayout(lower)
        ll.setContentsMargins(0, 0, 0, 0)
        ll.addWidget(self.findings_label)
        ll.addWidget(self.findings)
        split.addWidget(lower)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        self.rescan_btn = QPushButton(self)
        self.rescan_btn.setObjectName("rescan")
        self.rescan_btn.clicked.connect(self.rescan)
        self.save_btn = QPushButton(self)
        self.save_btn.setObjectName("save_snapshot")
        self.save_btn.clicked.connect(self._save_snapshot)
        row = QHBoxLayout()
        row.addWidget(self.status, 1)
        row.addWidget(self.rescan_btn)
        row.addWidget(self.save_btn)
        self.layout_.addLayout(row)
        self.layout_.addWidget(split, 1)

    def enter(self) -> None:
        if self.session.facts is None:
            self.rescan()
        else:
            self.state.facts = self.session.facts
            self.show_state()

    def rescan(self) -> None:
        if self.state.scanning:
            return
        self.state.scanning = True
        self.clear_error()
        self.rescan_btn.setEnabled(False)
        self.completeChanged.emit()
        self.retranslate()
        svc = self.w.services
        system = svc.system if svc.system is not None or svc.report is not None else svc.get_system()
        self.tasks.submit(svc.detect, system, self.session.overrides, svc.report, on_done=self._detected, on_error=self._failed)

    def _detected(self, facts: Facts) -> None:
        self.state.scanning = False
        self.state.facts = self.session.facts = facts
        # new facts: whatever came after them is stale
        self.session.recommendation = None
        if not self.session.plan_confirmed:
            self.session.plan = None
        self.rescan_btn.setEnabled(True)
        self.update_source_banner()
        self.show_state()
        self.completeChanged.emit()

    def _failed(self, message: str, _details: str) -> None:
        self.state.scanning = False
        self.rescan_btn.setEnabled(True)
        self.show_error(tr("Detection failed: {error}").format(error=message))
        self.retranslate()
        self.completeChanged.emit()

    def _save_snapshot(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, tr("Save a snapshot"), "gpu-wizard-snapshot.json", tr("Snapshots (*.json)"))
        if path:
            self.save_snapshot_to(path)

    def save_snapshot_to(self, path: str):
        from ui import engine

        self.save_btn.setEnabled(False)
        return self.tasks.submit(engine.save_snapshot, self.w.services.get_system() if self.w.services.report is None
                                 else self.w.services.system, path,
                                 on_done=lambda p: self._saved(p), on_error=lambda m, d: self._save_failed(m))

    def _saved(self, path: str) -> None:
        self.save_btn.setEnabled(True)
        self.show_error(tr("Snapshot saved: {path}").format(path=path), "ok")

    def _save_failed(self, message: str) -> None:
        self.save_btn.setEnabled(True)
        self.show_error(tr("The snapshot could not be saved: {error}").format(error=message))

    def isComplete(self) -> bool:  # noqa: N802
        return self.state.facts is not None and not self.state.scanning

    # --- rendering -----------------------------------------------------------------------
    def show_state(self) -> None:  # not QWidget.render
        self.tree.clear()
        self.findings.clear()
        facts = self.state.facts
        for g in self.state.groups:
            top = QTreeWidgetItem([tr(GROUP_TITLES[g.key]), tr(STATUS_TEXT[g.status])])
            top.setIcon(0, status_icon(g.status))
            top.setData(0, Qt.ItemDataRole.AccessibleTextRole, f"{tr(GROUP_TITLES[g.key])}: {tr(STATUS_TEXT[g.status])}")
            font = top.font(0)
            font.setBold(True)
            top.setFont(0, font)
            for r in g.rows:
                label = tr(LABELS[r.label]) if r.label in LABELS else r.label
                value = tr(VALUES[r.value]) if r.value in VALUES else r.value
                gpu = next((x for x in facts.gpus if g.key == "gpu" and r.label == f"GPU {x.index}"), None) if facts else None
                if gpu is not None:
                    value = gpu_line(gpu, tr("compute capability {cc}"), tr("PCIe {gen}.0 x{width}"))
                QTreeWidgetItem(top, [label, value])
            if not g.rows:
                QTreeWidgetItem(top, [tr("Nothing detected"), ""])
            v = self.session.verification
            if g.key == "python" and v is not None and getattr(v.torch, "version", None):
                # a report: detection ran before the verification, maybe with another Python; both said
                py = getattr(v, "python", None) or ""
                QTreeWidgetItem(top, [tr("PyTorch used by the verification"), v.torch.version + (f" ({py})" if py else "")])
            self.tree.addTopLevelItem(top)
            top.setExpanded(True)
        facts = self.state.facts
        if facts is not None:
            for f in facts.findings:
                text = engine_text(f.code, f.message, params=getattr(f, "params", None))
                hint = hint_text(f.code, f.hint, params=getattr(f, "params", None))
                if hint:
                    text += "\n" + tr("What to do: {hint}").format(hint=hint)
                it = QListWidgetItem(status_icon(f.severity if f.severity != "info" else "info"), text)
                it.setToolTip("\n".join(((f.message,) if text.split("\n")[0] != f.message else ()) + tuple(f.evidence)))
                self.findings.addItem(it)
            if not facts.findings:
                self.findings.addItem(QListWidgetItem(status_icon("ok"), tr("Nothing to report: detection found no problems.")))
        self.retranslate_status()

    def retranslate_status(self) -> None:
        if self.state.scanning:
            self.status.setText(tr("Looking at this computer…") if not self.session.source.recorded
                                else tr("Reading the recorded machine…"))
        elif self.state.facts is not None:
            n = len(self.state.facts.findings)
            txt = tr("Detection finished: 1 finding.") if n == 1 else tr("Detection finished: {n} findings.").format(n=n)
            if self.session.source.kind == "report":
                txt = (tr("As the user's wizard detected it: 1 finding.") if n == 1 else
                       tr("As the user's wizard detected it: {n} findings.").format(n=n))
            self.status.setText(txt)
        else:
            self.status.setText("")

    def retranslate(self) -> None:
        self.setTitle(tr("System"))
        self.setSubTitle(tr("What this computer has now. Nothing has been changed.") if not self.session.source.recorded
                         else tr("What the recorded machine had. Nothing is changed on it or here."))
        self.tree.setHeaderLabels([tr("What"), tr("Detected")])
        self.tree.setAccessibleName(tr("Detected facts"))
        self.findings_label.setText(tr("&Findings:"))
        self.findings.setAccessibleName(tr("Findings"))
        self.rescan_btn.setText(tr("&Re-scan"))
        self.rescan_btn.setAccessibleName(tr("Detect again"))
        self.save_btn.setText(tr("&Save snapshot…"))
        self.save_btn.setAccessibleName(tr("Save a snapshot of this machine"))
        if self.state.facts is not None and not self.state.scanning:
            self.show_state()
        else:
            self.retranslate_status()
