"""Install: runs the confirmed plan on a worker thread; step list, progress with time left,
live log; cancel, retry the failed step, open the session folder; reboot prompt and resume."""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any, Optional

from PySide6.QtCore import QProcess, Qt, QTimer, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (QListView, QHBoxLayout, QLabel, QListWidget, QListWidgetItem, QMessageBox, QProgressBar,
                               QPushButton, QSplitter)

from ui.bridge import RunBridge, Task
from app import restart
from app.messages import status_word
from app.run.events import Event, LineEvent, PlanFinished, StepFinished
from ui.i18n import current_language, plan_text, tr
from ui.pages.base import BasePage
from ui.state import InstallState, format_bytes, format_duration
from ui.widgets.icons import status_icon
from ui.widgets.log_view import LogView


def resume_path(state_dir: Optional[str] = None) -> Path:
    """Where round 3's window kept its own resume file (read once by ui.main; the run state says it now)."""
    base = state_dir or os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(base) / "gpu-wizard" / "resume.json"


def autostart_path(autostart_dir: Optional[str] = None) -> Path:
    return restart.autostart_path(autostart_dir)


def launch_command() -> list[str]:
    """How to start this wizard again (the bundle's program, the installed console script, or
    this Python with the package)."""
    if getattr(sys, "frozen", False):
        return [sys.executable]
    argv0 = os.path.abspath(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    if os.path.basename(argv0).startswith("gpu-wizard") and os.access(argv0, os.X_OK):
        return [argv0]
    return [sys.executable, "-m", "app"]


def start_detached(argv: list[str]) -> bool:
    """Start a program that outlives the wizard (the OS's restart command)."""
    return bool(QProcess.startDetached(argv[0], argv[1:]))


def write_autostart(autostart_dir: Optional[str] = None) -> Path:
    """A one-shot login entry for this OS (app.restart) that opens the wizard after the restart."""
    return restart.write_autostart(launch_command(), autostart_dir)


def remove_autostart(autostart_dir: Optional[str] = None) -> None:
    restart.remove_autostart(autostart_dir)


class InstallPage(BasePage):
    page_id = "install"

    def __init__(self, wizard):
        super().__init__(wizard)
        self.state = InstallState()
        self.bridge: Optional[RunBridge] = None
        self.task: Optional[Task] = None
        self.backend: Any = None
        self._ran_plan: Any = None
        self.result: Optional[str] = None  # how the run ended (PlanFinished.status), None while it runs
        self._then: list = []  # called once the run has ended (closing the window after Stop)
        self.status = QLabel(self)
        self.status.setWordWrap(True)
        self.progress = QProgressBar(self)
        self.progress.setObjectName("install_progress")
        self.progress.setRange(0, 1000)
        self.time_left = QLabel(self)
        self.activity = QLabel(self)  # what the running command says now (pip's and apt's own progress)
        self.activity.setObjectName("install_activity")
        self.activity.setTextFormat(Qt.TextFormat.PlainText)
        self.activity.setMinimumWidth(10)
        top = QHBoxLayout()
        top.addWidget(self.progress, 1)
        top.addWidget(self.time_left)
        self.layout_.addWidget(self.status)
        self.layout_.addLayout(top)
        self.layout_.addWidget(self.activity)
        self.steps = QListWidget(self)
        self.steps.setObjectName("install_steps")
        self.steps.setWordWrap(True)
        self.steps.setResizeMode(QListView.ResizeMode.Adjust)  # re-wrap items when the width changes
        self.steps.setMinimumWidth(220)
        self.log = LogView(self)
        self.log.setObjectName("install_log")
        split = QSplitter(Qt.Orientation.Horizontal, self)
        split.addWidget(self.steps)
        split.addWidget(self.log)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 3)
        split.setSizes([300, 700])
        self.layout_.addWidget(split, 1)
        row = QHBoxLayout()
        self.cancel_btn = QPushButton(self)
        self.cancel_btn.setObjectName("cancel_install")
        self.cancel_btn.clicked.connect(self.cancel)
        self.retry_btn = QPushButton(self)
        self.retry_btn.setObjectName("retry_step")
        self.retry_btn.clicked.connect(self.retry)
        self.folder_btn = QPushButton(self)
        self.folder_btn.setObjectName("open_session")
        self.folder_btn.clicked.connect(self.open_session_folder)
        self.trouble_btn = QPushButton(self)
        self.trouble_btn.setObjectName("troubleshoot_failure")
        self.trouble_btn.clicked.connect(self.troubleshoot)
        for b in (self.cancel_btn, self.retry_btn, self.folder_btn, self.trouble_btn):
            row.addWidget(b)
        row.addStretch(1)
        self.layout_.addLayout(row)
        self.tick = QTimer(self)
        self.tick.setInterval(1000)
        self.tick.timeout.connect(self._update_progress)
        self._buttons()

    # --- running -------------------------------------------------------------------------
    def enter(self) -> None:
        plan = self.session.plan
        if plan is None or plan is self._ran_plan:
            self._buttons()
            return
        if not self.session.plan_confirmed and not self.session.read_only:  # only the plan the user saw and pressed Install on runs
            self.show_error(tr("No plan was confirmed: go back to the Plan page."))
            return
        self.state = InstallState.from_steps(plan.steps)
        self.session.install = self.state
        self.log.clear()
        self._fill_steps()
        self.backend = None  # a new plan: a new run (and, for the real runner, a new session folder)
        if not plan.steps:  # nothing to do: nothing runs
            self._ran_plan = plan
            self.result = self.state.status = "ok"
            self._buttons()
            self.retranslate_status()
            self.completeChanged.emit()
            return
        self._start(None)

    def _start(self, only: Optional[list[str]]) -> None:
        self.clear_error()
        self.result = None
        self._ran_plan = self.session.plan
        if self.backend is None:  # a retry keeps its backend: the same session, finished steps kept
            self.backend = self.w.services.backend_for(self.session)
        if self.bridge is not None:
            self.bridge.deleteLater()
        self.bridge = RunBridge(self)
        self.bridge.events.connect(self._events)
        self.bridge.start()
        self.tick.start()
        self.task = self.tasks.submit(self.backend.run, self.session.plan, self.bridge, only=only,
                                      on_done=self._task_ended, on_error=self._crashed)
        self._buttons()
        self._update_progress()
        self.completeChanged.emit()  # Back and Next wait while it runs

    def _task_ended(self, _result: Any = None) -> None:
        """The worker is done (its last events may have come a moment before): buttons follow."""
        self._buttons()
        self.completeChanged.emit()

    def cancel(self) -> None:
        if self.task is not None and self.task.is_running():
            self.state.cancelled = True
            self.task.cancel()
            self.status.setText(tr("Cancelling: stopping the running command…"))
            self.cancel_btn.setEnabled(False)

    def retry(self) -> None:
        if self.running:
            return
        only = self.state.remaining_ids()
        self.state.reset_for_retry()
        self._fill_steps()
        self.log.append_lines([("stdout", "— " + tr("retrying from the failed step") + " —")])
        self._start(only)

    @property
    def running(self) -> bool:
        """Until the run says it finished (its worker thread may end a moment later)."""
        return self.task is not None and self.task.is_running() and self.result is None

    def _events(self, batch: list[Event]) -> None:
        """A batch of the run's events (ui.bridge.RunBridge): folded into the run record, then drawn once."""
        lines: list[tuple[str, str]] = []
        changed: list[str] = []
        ended: Optional[PlanFinished] = None
        for ev in batch:
            step = self.state.apply(ev)
            if step is not None and step.id not in changed:
                changed.append(step.id)
            if isinstance(ev, LineEvent) and ev.final:
                lines.append((ev.stream, ev.text))
            elif isinstance(ev, StepFinished) and ev.status == "error" and step is not None:
                lines += self._failure_lines(step)
            elif isinstance(ev, PlanFinished):
                ended = ev
        if lines:
            self.log.append_lines(lines)
        for sid in changed:
            self._refresh_step(sid)
        self._show_activity()
        self._update_progress()
        if ended is not None:
            self._finished(ended)

    def _failure_lines(self, step) -> list[tuple[str, str]]:
        """A failed step's output was streamed line by line: not repeated; one separator line says which
        step failed and why (its details only when the step printed nothing)."""
        out = [] if step.streamed else [("stderr", line) for line in step.details.splitlines()[-20:]]
        title = plan_text(step.title_code, step.params, step.title or step.id)
        said = (tr("— {step} failed: {message} —").format(step=title, message=step.message) if step.message
                else tr("— {step} failed —").format(step=title))
        return out + [("stderr", said)]

    def _show_activity(self) -> None:
        """What the running command says now: pip's download in the window's words (bytes, percent, time
        left once a rate was measured, never a guess), else the command's own latest words."""
        x = self.state.transfer
        if x is not None and x.now is not None and time.monotonic() - x.now < 1.0:
            self._show_transfer(x)
        else:
            text = " ".join(self.state.activity.split())
            fm = self.activity.fontMetrics()
            self.activity.setText(fm.elidedText(text, Qt.TextElideMode.ElideMiddle, max(50, self.activity.width())))
            self.activity.setToolTip(text)

    def _show_transfer(self, x) -> None:
        if x.total:
            txt = tr("Downloading {file}: {done} of {total} ({percent}%)").format(
                file="{file}", done=format_bytes(x.done), total=format_bytes(x.total), percent=f"{x.fraction * 100:.0f}")
        else:
            txt = tr("Downloading {file}: {done}").format(file="{file}", done=format_bytes(x.done))
        left = x.time_left_s()
        if left is not None:
            txt += " · " + tr("{t} left for this file").format(t=format_duration(left))
        # a long wheel name is shortened, never the figures
        fm = self.activity.fontMetrics()
        room = max(60, self.activity.width() - fm.horizontalAdvance(txt.replace("{file}", "")) - 8)
        self.activity.setText(txt.replace("{file}", fm.elidedText(x.name or "…", Qt.TextElideMode.ElideMiddle, room)))
        self.activity.setToolTip(txt.replace("{file}", x.name))

    def _finished(self, ev: PlanFinished) -> None:
        self.result = ev.status
        self._stop_bridge()
        self.session.session_dir = ev.session_dir or getattr(self.backend, "session_dir", None) or self.session.session_dir
        if ev.status == "error" and ev.message and not (self.state.failed and ev.message.endswith(self.state.failed.message)):
            self.log.append_lines([("stderr", ev.message)])  # a failure outside any step (the helper, the disk)
        self._fill_steps()
        self._update_progress()
        self._buttons()
        self.completeChanged.emit()
        if ev.status == "reboot_required" and not self.session.dry_run:
            self.ask_reboot()
        then, self._then = self._then, []
        for fn in then:
            fn()

    def when_finished(self, fn) -> None:
        """Call `fn` once the running install has ended (at once when none runs)."""
        if self.running:
            self._then.append(fn)
        else:
            fn()

    def _crashed(self, message: str, details: str) -> None:
        self.log.append_lines([("stderr", line) for line in details.splitlines()[-20:]])
        self.show_error(tr("The installer stopped with an error: {error}").format(error=message))
        ev = PlanFinished("error", "")
        self.state.apply(ev)
        self._finished(ev)

    def _stop_bridge(self) -> None:
        self.tick.stop()
        if self.bridge is not None:
            self.bridge.stop()

    # --- reboot and resume ---------------------------------------------------------------
    def ask_reboot(self, box: Optional[QMessageBox] = None) -> Optional[bool]:
        """The run state (state.json: reboot_required, the boot id) says where the next start goes on; the
        one-shot login entry starts the wizard after the restart."""
        try:
            write_autostart(self.w.services.autostart_dir)
        except OSError:
            pass  # no autostart: starting the wizard by hand continues all the same
        box = box or QMessageBox(self)
        box.setIcon(QMessageBox.Icon.Question)
        box.setWindowTitle(tr("Restart needed"))
        box.setText(tr("The new driver is used after a restart. Restart now? The wizard continues with the "
                       "verification when you start it again."))
        now = box.addButton(tr("Restart &now"), QMessageBox.ButtonRole.AcceptRole)
        later = box.addButton(tr("&Later"), QMessageBox.ButtonRole.RejectRole)
        box.setDefaultButton(later)  # restarting closes every program: never the Enter answer
        box.setEscapeButton(later)
        self._reboot_box = box
        box.finished.connect(lambda _r: self._reboot_answer(box.clickedButton() is now))
        box.open()
        return None

    def _reboot_answer(self, now: bool) -> None:
        if now:
            if self.w.services.reboot is not None:
                self.w.services.reboot()
            else:
                start_detached(restart.restart_argv())  # systemctl reboot, or shutdown.exe /r /t 0 on Windows
        else:
            self.show_error(tr("Restart later: the wizard will continue with the verification after the restart."), "warning")

    # --- other actions -------------------------------------------------------------------
    def open_session_folder(self) -> None:
        d = self.session.session_dir
        if d:
            QDesktopServices.openUrl(QUrl.fromLocalFile(d))

    def _failure_text(self) -> None:
        failed = self.state.failed or next(  # a cancelled password says why, for Troubleshoot too
            (s for s in self.state.steps if s.status == "cancelled" and s.message and s.message != "cancelled"), None)
        lines = self.log.model.lines[-400:]
        self.session.error_text = "\n".join(lines)
        if failed is not None and failed.message:
            self.session.error_text += "\n" + failed.message

    def troubleshoot(self) -> None:
        self._failure_text()
        self.w.jump_to("troubleshoot")

    def next_page(self):
        """A failed step: Next goes on to Troubleshoot (its cause, a fix, the report); stopped:
        to the Summary. Never a dead end."""
        if self.running:
            return None
        if self.result == "error":
            return "troubleshoot"
        if self.result == "cancelled":
            return "summary"
        return None

    def validatePage(self) -> bool:  # noqa: N802
        if self.running:
            return False
        if self.result == "error":
            self._failure_text()
        return True

    def isComplete(self) -> bool:  # noqa: N802
        if self.running:
            return False
        if self.session.read_only and self.result is not None:
            return True  # a walkthrough shows what happened, then moves on
        if self.result in ("error", "cancelled"):
            return True  # on to Troubleshoot / the Summary
        return self.result == "reboot_required" or (self.result == "ok" and (self.state.finished_ok or not self.state.steps))

    def shutdown(self) -> None:
        if self.task is not None:
            self.task.cancel()
        self._stop_bridge()

    # --- rendering -----------------------------------------------------------------------
    def _fill_steps(self) -> None:
        self.steps.clear()
        for s in self.state.steps:
            it = QListWidgetItem()
            it.setData(Qt.ItemDataRole.UserRole, s.id)
            self.steps.addItem(it)
            self._render_item(it, s)

    def _refresh_step(self, step_id: str) -> None:
        for i, s in enumerate(self.state.steps):
            if s.id == step_id:
                self._render_item(self.steps.item(i), s)

    def _render_item(self, it: QListWidgetItem, s) -> None:
        word = status_word(s.status, current_language())  # the catalogue's one word list
        icon = s.status
        if s.status == "ok" and type(self.backend).__name__ == "DryRunBackend":
            word, icon = tr("would run (dry run)"), "info"  # nothing ran: never shown as done
        shown = plan_text(s.title_code, s.params, s.title)
        title = shown + (" (" + tr("administrator") + ")" if s.needs_root else "")
        it.setText(f"{title}\n{word}" + (f": {s.message}" if s.message and s.status in ("error", "cancelled") and s.message != "cancelled" else ""))
        it.setIcon(status_icon(icon))
        it.setToolTip(s.title if shown != s.title else "")
        it.setData(Qt.ItemDataRole.AccessibleTextRole, f"{shown}: {word}")

    def _update_progress(self) -> None:
        self.progress.setValue(int(self.state.fraction() * 1000))
        self.progress.setFormat(f"{self.state.fraction() * 100:.0f}%")
        left = self.state.time_left_s()
        running = self.running or (self.bridge is not None and self.bridge.active)
        # time left only when it is known (a rate seen inside this run), never a dash or a guess
        self.time_left.setText(tr("Time left: {t}").format(t=format_duration(left)) if running and left is not None else "")
        if not running:
            self.activity.setText("")
        self.retranslate_status()

    def _buttons(self) -> None:
        running = self.running
        failed = self.result in ("error", "cancelled")
        self.cancel_btn.setEnabled(running)
        self.retry_btn.setEnabled(failed and not running and not self.session.read_only)
        self.trouble_btn.setVisible(self.result == "error")
        self.folder_btn.setEnabled(bool(self.session.session_dir))

    def retranslate_status(self) -> None:
        dry = self.session.dry_run
        if self.result in ("ok", "reboot_required"):
            txt = tr("Dry run finished: nothing was changed.") if dry else tr("All steps finished.")
            if self.result == "reboot_required" and not dry:
                txt += " " + tr("Restart the computer to use the new driver.")
        elif self.result == "cancelled":
            txt = tr("Cancelled. Press Retry to continue from the step that was stopped, or Next for the summary.")
        elif self.result == "error":
            f = self.state.failed
            txt = tr("A step failed: {step}. Read the log, then Retry, or press Next to find the cause and a fix.").format(step=plan_text(f.title_code, f.params, f.title) if f else "?")
        elif self.running:
            cur = next((s for s in self.state.steps if s.status == "running"), None)
            txt = (tr("Dry run: ") if dry else "") + (tr("Running: {step}").format(step=plan_text(cur.title_code, cur.params, cur.title)) if cur else tr("Starting…"))
        else:
            txt = tr("Nothing to install.") if not self.state.steps else ""
        if self.result is not None and type(self.backend).__name__ == "RecordedBackend":
            txt = tr("As recorded on the user's machine (nothing ran here):") + " " + txt
        self.status.setText(txt)

    def retranslate(self) -> None:
        self.setTitle(tr("Install") if not self.session.dry_run else tr("Install (dry run)"))
        self.setSubTitle(tr("The confirmed plan runs step by step. You can cancel at any time."))
        self.steps.setAccessibleName(tr("Steps"))
        self.progress.setAccessibleName(tr("Overall progress"))
        self.cancel_btn.setText(tr("&Cancel"))
        self.cancel_btn.setAccessibleName(tr("Cancel the installation"))
        self.retry_btn.setText(tr("&Retry failed step"))
        self.retry_btn.setAccessibleName(tr("Retry the failed step"))
        self.folder_btn.setText(tr("Open &session folder"))
        self.folder_btn.setAccessibleName(tr("Open the folder with this session's logs"))
        self.trouble_btn.setText(tr("&Troubleshoot this error"))
        self.trouble_btn.setAccessibleName(tr("Troubleshoot this error"))
        if self.state.steps:
            self._fill_steps()
        self.retranslate_status()
