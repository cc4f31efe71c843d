"""Welcome: what the wizard does, which path to take, which language, which machine."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QButtonGroup, QComboBox, QFileDialog, QHBoxLayout, QLabel, QListWidget,
                               QListWidgetItem, QPushButton, QRadioButton, QVBoxLayout, QWidget)

from ui import engine
from ui.i18n import N_, tr
from ui.page_states import WelcomeState
from ui.pages.base import BasePage
from ui.state import PathId
from ui.widgets.banner import Banner


PATH_ORDER: tuple[PathId, ...] = ("setup", "verify", "troubleshoot", "walkthrough")


class WelcomePage(BasePage):
    page_id = "welcome"

    def __init__(self, wizard):
        super().__init__(wizard)
        self.state = WelcomeState(path=self.session.path,
                                  file=self.session.source.path if self.session.source.recorded else None)
        self.started_recorded = self.session.source.recorded  # `--snapshot FILE`: every path stays on it
        # started again after "Restart later": the install is done, the driver waits for the restart
        self.pending = QWidget(self)
        self.pending.setObjectName("pending_restart")
        pv = QVBoxLayout(self.pending)
        pv.setContentsMargins(0, 0, 0, 6)
        self.pending_text = Banner(self.pending)
        self.pending_text.setObjectName("pending_restart_text")
        pv.addWidget(self.pending_text)
        prow = QHBoxLayout()
        self.restart_btn = QPushButton(self.pending)
        self.restart_btn.setObjectName("pending_restart_now")
        self.restart_btn.setAutoDefault(False)  # restarting closes every program: never the Enter answer
        self.restart_btn.clicked.connect(self._restart_now)
        self.verify_now_btn = QPushButton(self.pending)
        self.verify_now_btn.setObjectName("pending_verify_now")
        self.verify_now_btn.setAutoDefault(False)
        self.verify_now_btn.clicked.connect(self._verify_now)
        prow.addWidget(self.restart_btn)
        prow.addWidget(self.verify_now_btn)
        prow.addStretch(1)
        pv.addLayout(prow)
        self.pending.setVisible(self.session.pending_restart is not None)
        self.layout_.addWidget(self.pending)
        self.intro = QLabel(self)
        self.intro.setWordWrap(True)
        self.intro.setTextFormat(Qt.TextFormat.RichText)
        self.layout_.addWidget(self.intro)

        self.paths_box = QWidget(self)
        pl = QVBoxLayout(self.paths_box)
        pl.setContentsMargins(0, 8, 0, 8)
        self.path_group = QButtonGroup(self)
        self.path_buttons: dict[str, QRadioButton] = {}
        self.path_help: dict[str, QLabel] = {}
        for i, pid in enumerate(PATH_ORDER):
            rb = QRadioButton(self.paths_box)
            rb.setObjectName(f"path_{pid}")
            self.path_group.addButton(rb, i)
            self.path_buttons[pid] = rb
            help_ = QLabel(self.paths_box)
            help_.setWordWrap(True)
            help_.setIndent(24)
            help_.setObjectName(f"path_help_{pid}")
            self.path_help[pid] = help_
            pl.addWidget(rb)
            pl.addWidget(help_)
        self.path_buttons[self.state.path].setChecked(True)
        self._style_radios()
        self.path_group.idToggled.connect(self._path_toggled)
        self.layout_.addWidget(self.paths_box)

        # recorded machine: a demo, or a file
        self.file_row = QWidget(self)
        fl = QVBoxLayout(self.file_row)
        fl.setContentsMargins(24, 0, 0, 0)
        self.demo_label = QLabel(self.file_row)
        self.demo_list = QListWidget(self.file_row)
        self.demo_list.setObjectName("demo_list")
        rows = min(8, max(1, len(self.state.demos)))
        self.demo_list.setFixedHeight((self.demo_list.fontMetrics().height() + 4) * rows + 2 * self.demo_list.frameWidth() + 6)
        for p in self.state.demos:
            it = QListWidgetItem(p.stem)
            it.setData(Qt.ItemDataRole.UserRole, str(p))
            self.demo_list.addItem(it)
        self.demo_label.setBuddy(self.demo_list)
        self.demo_list.currentItemChanged.connect(self._demo_selected)
        self.demo_list.itemClicked.connect(self._demo_chosen)  # a click (or Enter) opens it
        self.demo_list.itemActivated.connect(self._demo_chosen)
        row = QHBoxLayout()  # always shown: support opens a user's report in one click
        row.setContentsMargins(24, 0, 0, 0)
        self.open_btn = QPushButton(self)
        self.open_btn.setObjectName("open_file")
        self.open_btn.clicked.connect(self._open_file)
        self.file_label = QLabel(self)
        self.file_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        row.addWidget(self.open_btn)
        row.addWidget(self.file_label, 1)
        fl.addWidget(self.demo_label)
        fl.addWidget(self.demo_list)
        self.layout_.addLayout(row)
        self.layout_.addWidget(self.file_row)
        self.layout_.addStretch(1)

        form = QHBoxLayout()
        self.lang_label = QLabel(self)
        self.lang = QComboBox(self)
        self.lang.setObjectName("language")
        self.lang.addItem("English", "en")
        self.lang.addItem("简体中文", "zh_CN")
        self.lang.setCurrentIndex(1 if self.session.lang == "zh_CN" else 0)
        self.lang.currentIndexChanged.connect(self._lang_changed)
        self.lang_label.setBuddy(self.lang)
        form.addWidget(self.lang_label)
        form.addWidget(self.lang)
        form.addStretch(1)
        self.layout_.addLayout(form)
        self._sync()

    # --- state ---------------------------------------------------------------------------
    def _path_toggled(self, idx: int, on: bool) -> None:
        if on:
            self.state.path = PATH_ORDER[idx]
            self._sync()

    def _demo_selected(self, item: Optional[QListWidgetItem], _prev=None) -> None:
        if item is not None:  # arrow keys: select only (Next or Enter opens it)
            self.state.file = item.data(Qt.ItemDataRole.UserRole)
            self._sync()

    def _demo_chosen(self, item: Optional[QListWidgetItem]) -> None:
        if item is not None:
            self.choose_file(item.data(Qt.ItemDataRole.UserRole))

    def _restart_now(self) -> None:
        """One click: the computer restarts; the autostart entry written when the install asked
        brings the wizard back at the verification."""
        from app import restart
        from ui.pages.install_page import start_detached, write_autostart

        try:
            write_autostart(self.w.services.autostart_dir)  # in case it was removed meanwhile
        except OSError:
            pass
        if self.w.services.reboot is not None:
            self.w.services.reboot()
        elif not start_detached(restart.restart_argv()):
            self.show_error(tr("The computer could not be restarted from here: restart it from the system menu. "
                               "The wizard continues with the verification after the restart."))

    def _verify_now(self) -> None:
        """Check now what works before the restart (PyTorch, the CPU side); the restart still
        continues at the verification."""
        self.state.path = "setup"
        self.path_buttons["setup"].setChecked(True)
        if not self.validatePage():
            return
        self.w.jump_to("verify")

    FILE_FILTER = N_("Reports and snapshots (*.html *.htm *.json);;All files (*)")

    def file_dialog(self) -> QFileDialog:
        dlg = QFileDialog(self, tr("Open a snapshot or report"), str(Path.home()), tr(self.FILE_FILTER))
        dlg.setObjectName("open_file_dialog")
        dlg.setFileMode(QFileDialog.FileMode.ExistingFile)
        dlg.setAcceptMode(QFileDialog.AcceptMode.AcceptOpen)
        dlg.fileSelected.connect(self.choose_file)
        return dlg

    def _open_file(self) -> None:
        self._dialog = self.file_dialog()
        self._dialog.open()

    def choose_file(self, path: str) -> bool:
        """A file chosen (a demo clicked, a file opened): open it at once, on its recorded result."""
        from ui.fleet_dialog import FleetReportError, open_if_fleet  # a fleet report: its hosts, each one click away

        try:
            if open_if_fleet(self.w, path) is not None:
                return True
        except FleetReportError as e:
            self.show_error(tr("This file cannot be opened: {error}").format(error=str(e)))
            return False
        self.state.file = path
        if self.state.path != "walkthrough":
            self.path_buttons["walkthrough"].setChecked(True)
        self._sync()
        if self.w.current_page_id != "welcome":
            return False
        if not self.validatePage():
            return False
        from ui.state import walkthrough_start

        self.w.jump_to(walkthrough_start(self.session.report_data))
        return True

    def next_page(self):
        if self.state.path == "walkthrough" and self.session.source.recorded:
            from ui.state import walkthrough_start

            return walkthrough_start(self.session.report_data)
        return None

    def _sync(self) -> None:
        walk = self.state.path == "walkthrough"
        self.file_row.setVisible(walk or bool(self.session.source.recorded))
        self.file_label.setText(Path(self.state.file).name if self.state.file else "")
        self.completeChanged.emit()

    def _style_radios(self) -> None:
        """Radio buttons drawn from the palette's text colour: visible on a dark theme too (the
        style's own ring is a shade of the background there)."""
        from PySide6.QtGui import QPalette

        pal = self.palette()
        ring = pal.color(QPalette.ColorRole.WindowText).name()
        base = pal.color(QPalette.ColorRole.Base).name()
        dot = pal.color(QPalette.ColorRole.Highlight).name()
        self.paths_box.setStyleSheet(
            "QRadioButton::indicator { width: 12px; height: 12px; border-radius: 8px; "
            f"border: 2px solid {ring}; background: {base}; }}"
            "QRadioButton::indicator:checked { background: qradialgradient(cx:0.5, cy:0.5, radius:0.5, fx:0.5, fy:0.5, "
            f"stop:0 {dot}, stop:0.55 {dot}, stop:0.65 {base}, stop:1 {base}); }}"
            f"QRadioButton::indicator:focus {{ border-color: {dot}; }}")

    def changeEvent(self, e) -> None:  # noqa: N802
        from PySide6.QtCore import QEvent

        if e.type() == QEvent.Type.PaletteChange and hasattr(self, "paths_box"):
            self._style_radios()
        super().changeEvent(e)

    def _lang_changed(self, _i: int) -> None:
        self.w.set_language(self.lang.currentData())

    def isComplete(self) -> bool:  # noqa: N802
        return self.state.can_continue()

    def validatePage(self) -> bool:  # noqa: N802
        """Opening the chosen file happens here (fast: one JSON read); detection runs later."""
        self.clear_error()
        s = self.session
        s.path = self.state.path
        if self.state.file and (self.state.path == "walkthrough" or self.started_recorded):
            if self.state.file != s.source.path:
                try:
                    source, system, report = engine.load_source(self.state.file)
                except (ValueError, OSError) as e:
                    self.show_error(tr("This file cannot be opened: {error}").format(error=str(e)))
                    return False
                engine.open_recorded(s, self.w.services, source, system, report)
                s.path = self.state.path
        elif s.source.recorded and not self.started_recorded:
            # a demo was opened here, then the user chose to work on this computer after all
            from ui.state import Source

            s.source, s.report_data = Source(), None
            self.w.services.system = self.w.services.report = None
            s.facts = s.recommendation = s.plan = s.install = s.verification = s.diagnosis = None
            s.plan_confirmed, s.plan_basis = False, None
            self.state.file = None
        self.w.retranslate()
        return True

    # --- text ----------------------------------------------------------------------------
    def retranslate(self) -> None:
        self.setTitle(tr("Welcome"))
        self.setSubTitle(tr("Set up an NVIDIA GPU for PyTorch, and prove it runs at full speed."))
        steps = [tr("look at this computer: GPU, driver, CUDA, Python and PyTorch"),
                 tr("recommend versions that work together, and say why"),
                 tr("show every command before anything runs; you confirm"),
                 tr("install with a live log, asking for administrator rights only where needed"),
                 tr("test the GPU under load with live charts, and write a report")]
        self.intro.setText(tr("This wizard will:") + "<ol>" + "".join(f"<li>{x}</li>" for x in steps) + "</ol>")
        names = {"setup": tr("Set up this computer"), "verify": tr("Only verify what is installed"),
                 "troubleshoot": tr("Troubleshoot an error"), "walkthrough": tr("Open a snapshot or report")}
        helps = {"setup": tr("Detect, recommend, plan, install, then verify and stress the GPU."),
                 "verify": tr("Nothing is installed: check the GPU, PyTorch and the bandwidth."),
                 "troubleshoot": tr("Paste an error message or open a log; get the cause and a fix."),
                 "walkthrough": tr("Support: see a user's machine page by page, read-only. Or try a demo machine.")}
        for pid in PATH_ORDER:
            self.path_buttons[pid].setText(names[pid])
            self.path_buttons[pid].setAccessibleName(names[pid])
            self.path_help[pid].setText(helps[pid])
        self.demo_label.setText(tr("&Demo machines:"))
        self.demo_list.setAccessibleName(tr("Demo machines"))
        self.open_btn.setText(tr("&Open a file…"))
        self.open_btn.setAccessibleName(tr("Open a snapshot or report file"))
        if self.session.pending_restart is not None:
            self.pending_text.show_message(tr(
                "The installation finished and waits for a restart: the new driver is used only after the "
                "computer restarts. Restart now, and the wizard opens again by itself and goes on with the "
                "verification."), "warning")
        self.restart_btn.setText(tr("&Restart the computer now"))
        self.restart_btn.setAccessibleName(tr("Restart the computer now and continue with the verification afterwards"))
        self.verify_now_btn.setText(tr("Verify now, before the restart"))
        self.lang_label.setText(tr("&Language:"))
        self.lang.setAccessibleName(tr("Language"))
        self._sync()
