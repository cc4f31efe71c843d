"""Plan: every step, its commands and why, which need administrator rights; copy or export
as a script. Nothing runs until the user presses Install (the Next button of this page: pressing
it is the confirmation). The plan shown is always the one built from the current facts,
recommendation and choices: any change rebuilds it before it can run."""
from __future__ import annotations

from typing import Any, Optional

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase, QGuiApplication
from PySide6.QtWidgets import (QFileDialog, QHBoxLayout, QHeaderView, QLabel, QPlainTextEdit, QPushButton,
                               QSplitter, QTreeWidget, QTreeWidgetItem)

from ui import engine
from app import messages
from ui.i18n import current_language, tr
from ui.page_states import PlanState, step_title, step_why
from ui.pages.base import BasePage, join_sentences
from ui.widgets.icons import status_icon


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
        row.addWidget(self.copy_btn)
        row.addWidget(self.export_btn)
        row.addStretch(1)
        self.layout_.addLayout(row)

    def current_basis(self) -> tuple:
        s = self.session
        return (s.facts, s.recommendation, s.choices)

    def plan_is_current(self) -> bool:
        """The session's plan was built from what the user sees now (or is a fix / recorded plan)."""
        s = self.session
        b = s.plan_basis
        if s.plan is None or b is None:
            return False
        if b[0] in ("fix", "report"):
            return True
        facts, rec, choices = self.current_basis()
        return len(b) == 3 and b[0] is facts and b[1] is rec and b[2] == choices

    def enter(self) -> None:
        s = self.session
        self.state.confirmed = False
        s.plan_confirmed = False
        self.clear_error()
        if self.plan_is_current():
            self._got(s.plan, s.plan_basis)
            return
        s.plan = None  # stale: built from other choices; never shown, never run
        self.state.plan = None
        self.tree.clear()
        self.detail.setPlainText("")
        if s.report_data:
            from app.plan.model import Plan

            recorded = engine.report_value(s.report_data, "plan", Plan)
            if recorded is not None:
                self._got(recorded, ("report",))
                return
            if s.source.kind == "report":  # never a plan built on the viewer's machine
                self.show_error(tr("The report holds no plan: the user's wizard did not plan an install."), "info")
                self.retranslate_status()
                self.completeChanged.emit()
                return
        if s.facts is None or s.recommendation is None:
            self._prepare()  # reached from the step list (a walkthrough: any page, any order): detect and recommend first
            return
        self.state.busy = True
        self.retranslate_status()
        self.completeChanged.emit()
        basis = self.current_basis()
        def done(plan: Any) -> None:
            self._got(plan, basis)

        self.tasks.submit(self.w.services.build_plan, *basis, on_done=done, on_error=self._failed)

    def _prepare(self) -> None:
        """The facts and the recommendation the plan needs, as the System and Recommendation pages would make them
        (with the session's choices), then the plan: the page never waits on pages that were skipped."""
        s, svc = self.session, self.w.services
        self.state.busy = True
        self.retranslate_status()
        self.completeChanged.emit()
        if s.facts is None:
            system = svc.system if svc.system is not None or svc.report is not None else svc.get_system()

            def detected(facts) -> None:
                if s.facts is None:
                    s.facts = facts
                self._prepare()
            self.tasks.submit(svc.detect, system, s.overrides, svc.report, on_done=detected, on_error=self._failed)
            return

        def recommended(rec) -> None:
            self.state.busy = False
            if s.recommendation is None and not rec.refused:
                s.recommendation = rec
            if s.recommendation is None:
                self.show_error(tr("There is no recommendation to plan from."))
                self.retranslate_status()
                self.completeChanged.emit()
                return
            self.enter()
        self.tasks.submit(svc.recommend, s.facts, s.choices, on_done=recommended, on_error=self._failed)

    def _got(self, plan: Any, basis: Any = None) -> None:
        if basis is not None and len(basis) == 3 and basis != self.current_basis():
            return  # built from choices changed since: another build is on its way or due
        self.state.busy = False
        self.state.plan = self.session.plan = plan
        self.session.plan_basis = basis
        self.show_state()
        self.completeChanged.emit()

    def validatePage(self) -> bool:  # noqa: N802
        """Pressing Install is the confirmation of exactly the plan on screen."""
        if not self.state.can_run() or self.state.plan is not self.session.plan or not self.plan_is_current():
            return False
        self.state.confirmed = True
        self.session.plan_confirmed = True
        return True

    def _failed(self, message: str, _d: str) -> None:
        self.state.busy = False
        self.show_error(tr("No plan: {error}").format(error=message))
        self.retranslate_status()
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
            from app.fileio import write_atomic

            write_atomic(path, engine.plan_script(self.state.plan))
        except OSError as e:
            self.show_error(tr("The script could not be written: {error}").format(error=e.strerror or str(e)))
            return
        self.show_error(tr("Plan exported: {path}").format(path=path), "ok")

    # --- rendering -----------------------------------------------------------------------
    def show_state(self) -> None:  # not QWidget.render
        self._next_text()
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
        first = self.tree.topLevelItem(0)
        if first is not None:
            self.tree.setCurrentItem(first)
        self.retranslate_status()

    def retranslate_status(self) -> None:
        if self.state.busy:
            self.status.setText(tr("Building the plan…"))
            return
        steps = self.state.steps
        n_root = sum(1 for s in steps if s.needs_root)
        parts = [tr("1 step.") if len(steps) == 1 else tr("{n} steps.").format(n=len(steps))]
        if n_root == 1:
            parts.append(tr("It needs administrator rights: you will be asked for your password once.") if len(steps) == 1
                         else tr("1 of them needs administrator rights: you will be asked for your password once."))
        elif n_root:
            parts.append(tr("{r} of them need administrator rights: you will be asked for your password once.").format(r=n_root))
        else:
            parts.append(tr("None needs administrator rights."))
        if self.session.source.kind == "report" and self.session.plan_basis and self.session.plan_basis[0] == "report":
            parts.append(tr("The plan as the user's wizard made it, on the user's machine."))
        elif self.session.dry_run:
            parts.append(tr("Dry run: nothing will be changed on this computer."))
        elif steps:
            parts.append(tr("Press Install to run this plan."))
        txt = join_sentences(parts)
        warnings = self.plan_warnings()
        for w in warnings:
            txt += "\n⚠ " + w
        if self.state.plan is not None and not steps:
            txt = tr("Nothing to install: everything is in place. Next goes on to the verification.")
            for w in warnings:
                txt += "\n⚠ " + w
        self.status.setText(txt if self.state.plan is not None else "")

    def plan_warnings(self) -> list[str]:
        """The plan's warnings that the Recommendation page has not already said (in the user's language)."""
        rec = self.session.recommendation
        said = {w.message for w in getattr(rec, "warnings", ())} if rec is not None else set()
        plan = self.state.plan
        shown = messages.plan_warnings(plan, current_language()) if plan is not None else []
        return [x for w, x in zip(getattr(plan, "warnings", ()) or (), shown) if w not in said]

    def _next_text(self) -> None:
        """The Next button of this page says what it does: it runs the plan shown."""
        from PySide6.QtWidgets import QWizard

        if not self.state.steps:
            text = tr("&Next >")
        elif self.session.source.kind == "report" and (self.session.plan_basis or ("",))[0] == "report":
            text = tr("&Show what happened >")
        elif self.session.dry_run:
            text = tr("&Run as a dry run >")
        else:
            text = tr("&Install >")
        self.setButtonText(QWizard.WizardButton.NextButton, text)

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
        self._next_text()
        if self.state.plan is not None:
            self.show_state()
        else:
            self.retranslate_status()
