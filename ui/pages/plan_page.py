"""Plan: every step, its commands and why, which need administrator rights; copy or export
as a script. Nothing runs until the user ticks the confirmation and presses Next."""
from __future__ import annotations

import shlex
from dataclasses import dataclass
from typing import Any, Optional

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase, QGuiApplication
from PySide6.QtWidgets import (QCheckBox, QFileDialog, QHBoxLayout, QHeaderView, QLabel, QPlainTextEdit, QPushButton,
                               QSplitter, QTreeWidget, QTreeWidgetItem)

from ui import engine
from ui.i18n import plan_text, tr
from ui.pages.base import BasePage
from ui.widgets.icons import status_icon


@dataclass
class PlanState:
    """Qt-free: the plan shown and whether the user confirmed it."""

    plan: Any = None
    confirmed: bool = False
    busy: bool = False

    @property
    def steps(self) -> tuple:
        return tuple(getattr(self.plan, "steps", ()) or ())

    def can_run(self) -> bool:
        """Nothing runs before the user confirms; an empty plan (nothing to do) needs no confirming."""
        return self.plan is not None and not self.busy and (self.confirmed or not self.steps)

    def step_text(self, step) -> str:
        """What the detail pane shows for a step (commands in shell quoting, copyable)."""
        out = [step_title(step), "", step_why(step), ""]
        for n in getattr(step, "notes", ()):
            out.append(n)
        for d in getattr(step, "downloads", ()):
            out.append(f"download {d.url}" + (f"  (sha256 {d.sha256})" if d.sha256 else ""))
        for e in getattr(step, "edits", ()):
            out.append(e.describe())
        for r in getattr(step, "removes", ()):
            out.append(f"remove {r}")
        for argv in step.commands:
            out.append(("sudo " if step.needs_root else "") + shlex.join(argv))
        return "\n".join(out).strip() + "\n"

    def all_commands(self) -> str:
        lines = []
        for s in self.steps:
            lines.append(f"# {s.id}: {s.title}")
            lines.extend(("sudo " if s.needs_root else "") + shlex.join(a) for a in s.commands)
        return "\n".join(lines) + "\n"


def step_title(step) -> str:
    """A step's title in the current language (the engine's English when no template fits)."""
    return plan_text(getattr(step, "title_code", ""), getattr(step, "params", None), step.title)


def step_why(step) -> str:
    return plan_text(getattr(step, "why_code", ""), getattr(step, "params", None), step.why)


class PlanPage(BasePage):
    page_id = "plan"

    def __init__(self, wizard):
        super().__init__(wizard)
        self.state = PlanState()
        self.status = QLabel(self)
        self.status.setWordWrap(True)
        self.layout_.addWidget(self.status)
        self.tree = QTreeWidget(self)
        self.tree.setObjectName("plan_steps")
        self.tree.setColumnCount(3)
        self.tree.setRootIsDecorated(False)
        self.tree.header().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        self.tree.header().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.tree.header().setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        self.tree.currentItemChanged.connect(self._show_step)
        self.detail = QPlainTextEdit(self)
        self.detail.setObjectName("step_detail")
        self.detail.setReadOnly(True)
        self.detail.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse | Qt.TextInteractionFlag.TextSelectableByKeyboard)
        split = QSplitter(Qt.Orientation.Vertical, self)
        split.addWidget(self.tree)
        split.addWidget(self.detail)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        self.layout_.addWidget(split, 1)
        row = QHBoxLayout()
        self.copy_btn = QPushButton(self)
        self.copy_btn.setObjectName("copy_commands")
        self.copy_btn.clicked.connect(self.copy_commands)
        self.export_btn = QPushButton(self)
        self.export_btn.setObjectName("export_script")
        self.export_btn.clicked.connect(self._export)
        self.confirm = QCheckBox(self)
        self.confirm.setObjectName("confirm_plan")
        self.confirm.toggled.connect(self._confirm)
        row.addWidget(self.copy_btn)
        row.addWidget(self.export_btn)
        row.addStretch(1)
        row.addWidget(self.confirm)
        self.layout_.addLayout(row)

    def enter(self) -> None:
        s = self.session
        self.state.confirmed = False
        self.confirm.setChecked(False)
        if s.plan is not None:
            self._got(s.plan)
            return
        if s.report_data:
            from app.plan.model import Plan

            recorded = engine.report_value(s.report_data, "plan", Plan)
            if recorded is not None:
                self._got(recorded)
                return
        if s.facts is None or s.recommendation is None:
            self.show_error(tr("There is no recommendation to plan from."))
            return
        self.state.busy = True
        self.clear_error()
        self.retranslate_status()
        self.tasks.submit(self.w.services.build_plan, s.facts, s.recommendation, s.choices,
                          on_done=self._got, on_error=self._failed)

    def _got(self, plan: Any) -> None:
        self.state.busy = False
        self.state.plan = self.session.plan = plan
        self.render()
        self.completeChanged.emit()

    def _failed(self, message: str, _d: str) -> None:
        self.state.busy = False
        self.show_error(tr("No plan: {error}").format(error=message))
        self.retranslate_status()
        self.completeChanged.emit()

    def _confirm(self, on: bool) -> None:
        self.state.confirmed = on
        self.session.plan_confirmed = on
        self.completeChanged.emit()

    def isComplete(self) -> bool:  # noqa: N802
        return self.state.can_run()

    def _show_step(self, item: Optional[QTreeWidgetItem], _prev=None) -> None:
        if item is None:
            self.detail.setPlainText("")
            return
        step = self.state.steps[item.data(0, Qt.ItemDataRole.UserRole)]
        self.detail.setPlainText(self.state.step_text(step))

    def copy_commands(self) -> None:
        QGuiApplication.clipboard().setText(self.state.all_commands())
        self.show_error(tr("The commands are on the clipboard."), "ok")

    def _export(self) -> None:
        suffix = engine.script_suffix(self.state.plan)
        flt = tr("PowerShell scripts (*.ps1)") if suffix == ".ps1" else tr("Shell scripts (*.sh)")
        path, _ = QFileDialog.getSaveFileName(self, tr("Export the plan as a script"), "gpu-wizard-plan" + suffix, flt)
        if path:
            self.export_script(path)

    def export_script(self, path: str) -> None:
        try:
            with open(path, "w", encoding="utf-8") as f:
                f.write(engine.plan_script(self.state.plan))
        except OSError as e:
            self.show_error(tr("The script could not be written: {error}").format(error=e.strerror or str(e)))
            return
        self.show_error(tr("Plan exported: {path}").format(path=path), "ok")

    # --- rendering -----------------------------------------------------------------------
    def render(self) -> None:
        self.confirm.setVisible(bool(self.state.steps))
        self.tree.clear()
        for i, s in enumerate(self.state.steps):
            title = step_title(s)
            it = QTreeWidgetItem([str(i + 1), title, tr("administrator") if s.needs_root else ""])
            it.setData(0, Qt.ItemDataRole.UserRole, i)
            if s.needs_root:
                it.setIcon(2, status_icon("admin"))
            why = step_why(s)
            # the engine's English stays at hand: as the tooltip, under the translated why
            it.setToolTip(1, why if why == s.why and title == s.title else f"{why}\n\n{s.title}\n{s.why}")
            it.setData(1, Qt.ItemDataRole.AccessibleTextRole,
                       title + (", " + tr("needs administrator rights") if s.needs_root else ""))
            self.tree.addTopLevelItem(it)
        if self.tree.topLevelItemCount():
            self.tree.setCurrentItem(self.tree.topLevelItem(0))
        self.retranslate_status()

    def retranslate_status(self) -> None:
        if self.state.busy:
            self.status.setText(tr("Building the plan…"))
            return
        steps = self.state.steps
        n_root = sum(1 for s in steps if s.needs_root)
        txt = tr("{n} steps; {r} need administrator rights (you will be asked once).").format(n=len(steps), r=n_root)
        if self.session.dry_run:
            txt += " " + tr("Dry run: nothing will be changed on this computer.")
        for w in getattr(self.state.plan, "warnings", ()) or ():
            txt += "\n⚠ " + w
        if self.state.plan is not None and not steps:
            txt = tr("Nothing to install: everything is in place. Next goes on to the verification.")
            for w in getattr(self.state.plan, "warnings", ()) or ():
                txt += "\n⚠ " + w
        self.status.setText(txt if self.state.plan is not None else "")

    def retranslate(self) -> None:
        self.setTitle(tr("Plan"))
        self.setSubTitle(tr("Every step and command, before anything runs."))
        self.tree.setHeaderLabels(["#", tr("Step"), tr("Rights")])
        self.tree.setAccessibleName(tr("Plan steps"))
        self.detail.setAccessibleName(tr("Commands and explanation of the selected step"))
        self.copy_btn.setText(tr("&Copy commands"))
        self.copy_btn.setAccessibleName(tr("Copy all commands to the clipboard"))
        self.export_btn.setText(tr("&Export as script…"))
        self.export_btn.setAccessibleName(tr("Export the plan as a shell script"))
        self.confirm.setText(tr("I have read the plan: r&un it") if not self.session.dry_run else tr("I have read the plan: r&un it as a dry run"))
        self.confirm.setAccessibleName(tr("Confirm the plan"))
        if self.state.plan is not None:
            self.render()
        else:
            self.retranslate_status()
