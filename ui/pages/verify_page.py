"""Verify and stress: live charts while the GPU is under load, bandwidth against the
theoretical ceilings, and each layer's verdict (all judged by app.verify, shown here)."""
from __future__ import annotations

import math
from typing import Any, Optional

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QApplication, QListView, QComboBox, QGroupBox, QHBoxLayout, QLabel, QListWidget, QListWidgetItem, QPushButton,
                               QSplitter, QVBoxLayout, QWidget)

from ui import engine
from ui.bridge import SampleBridge, Task
from app.verify.verdicts import layer_reason
from ui.i18n import N_, current_language, tr
from ui.page_states import VerifyState, strip_cells
from ui.pages.base import BasePage
from ui.state import DURATIONS_S
from ui.widgets.bandwidth import BandwidthBar
from ui.widgets.phases import phase_name
from ui.widgets.icons import status_icon

LAYER_TITLES = {"device": N_("GPU device"), "bandwidth": N_("Bandwidth"), "pytorch": N_("PyTorch"), "load": N_("Under load"),
                "burnin": N_("Burn-in"), "interconnect": N_("Between the GPUs")}
BURN_S = (0, 60, 600, 1800, 3600, 7200)  # the burn-in choices (0: none)
VERDICT = {"pass": N_("passed"), "warn": N_("warning"), "fail": N_("failed"), "skip": N_("skipped")}


def burn_severity(e: Any) -> str:
    """fail for a fault (wrong results, uncorrectable errors, an Xid no program causes), warn else."""
    from app.verify.burn_verdicts import event_severity

    return event_severity(e.kind, e.value)


PASS_CODES = {"device": "device_ok", "bandwidth": "bandwidth_ok", "pytorch": "torch_ok", "load": "load_ok"}


def reason_code(layer) -> Optional[str]:
    """The check code the layer's reason sentence comes from (to translate it), if any."""
    same = next((c.code for c in layer.checks if c.message == layer.reason), None)
    if same:
        return same
    return PASS_CODES.get(layer.name) if layer.status == "pass" else None


BANDWIDTH_LABELS = {"Host to GPU (pinned)": N_("Host to GPU (pinned)"), "GPU to host (pinned)": N_("GPU to host (pinned)"),
                    "Host to GPU (pageable)": N_("Host to GPU (pageable)"),
                    "GPU memory (device to device)": N_("GPU memory (device to device)")}


class VerifyPage(BasePage):
    page_id = "verify"

    def __init__(self, wizard):
        super().__init__(wizard)
        self.state = VerifyState()
        self.bridge: Optional[SampleBridge] = None
        self.task: Optional[Task] = None
        self._progress_msg = ""
        row = QHBoxLayout()
        self.duration_label = QLabel(self)
        self.duration = QComboBox(self)
        self.duration.setObjectName("duration")
        for s in DURATIONS_S:
            self.duration.addItem("", s)
        self.duration.setCurrentIndex(DURATIONS_S.index(5))
        self.duration_label.setBuddy(self.duration)
        self.burn_label, self.burn = self._burn_choice()
        self._run: Any = None  # the app.verify VerifyRun while one runs (its burn-in tracker feeds the charts)
        self.gpu_label = QLabel(self)
        self.gpu_combo = QComboBox(self)
        self.gpu_combo.setObjectName("gpu")
        self.gpu_label.setBuddy(self.gpu_combo)
        self.gpu_combo.currentIndexChanged.connect(self._gpu_chosen)
        self.start_btn = QPushButton(self)
        self.start_btn.setObjectName("start_verify")
        self.start_btn.clicked.connect(self.start)
        self.stop_btn = QPushButton(self)
        self.stop_btn.setObjectName("stop_verify")
        self.stop_btn.clicked.connect(self.stop)
        self.trouble_btn = QPushButton(self)
        self.trouble_btn.setObjectName("troubleshoot_verify")
        self.trouble_btn.clicked.connect(self.troubleshoot)
        self.trouble_btn.hide()
        self.status = QLabel(self)
        self.status.setWordWrap(True)
        row.addWidget(self.duration_label)
        row.addWidget(self.duration)
        row.addWidget(self.burn_label)
        row.addWidget(self.burn)
        row.addWidget(self.gpu_label)
        row.addWidget(self.gpu_combo)
        row.addWidget(self.start_btn)
        row.addWidget(self.stop_btn)
        row.addWidget(self.status, 1)
        row.addWidget(self.trouble_btn)
        self.layout_.addLayout(row)
        # the charts (pyqtgraph + numpy, ~0.5 s to import) are built when the page is first shown,
        # so the wizard's first window opens fast
        self.charts = None
        self.charts_holder = QWidget(self)
        holder = QVBoxLayout(self.charts_holder)
        holder.setContentsMargins(0, 0, 0, 0)
        self.gpu_strip = QLabel(self.charts_holder)  # every GPU side by side through a burn-in
        self.gpu_strip.setObjectName("gpu_strip")
        self.gpu_strip.setTextFormat(Qt.TextFormat.RichText)
        self.gpu_strip.setWordWrap(True)
        self.gpu_strip.hide()
        holder.addWidget(self.gpu_strip)
        bottom = self._bottom()
        self.split = QSplitter(Qt.Orientation.Vertical, self)
        self.split.addWidget(self.charts_holder)
        self.split.addWidget(bottom)
        self.split.setStretchFactor(0, 3)
        self.split.setStretchFactor(1, 2)
        self.split.setSizes([600, 400])
        self.layout_.addWidget(self.split, 1)
        self._buttons()
        self._sync_gpus()

    def _bottom(self) -> QWidget:
        """Under the charts: the bandwidth bars beside the verdicts."""
        bottom = QWidget(self)
        bot = QHBoxLayout(bottom)
        bot.setContentsMargins(0, 0, 0, 0)
        self.bw_box = QGroupBox(bottom)
        bl = QVBoxLayout(self.bw_box)
        self.bars = [BandwidthBar(self.bw_box) for _ in range(4)]
        for b in self.bars:
            bl.addWidget(b)
        bl.addStretch(1)
        self.layers_box = QGroupBox(bottom)
        ll = QVBoxLayout(self.layers_box)
        self.layers = QListWidget(self.layers_box)
        self.layers.setObjectName("verdicts")
        self.layers.setWordWrap(True)
        self.layers.setResizeMode(QListView.ResizeMode.Adjust)  # re-wrap items when the width changes
        ll.addWidget(self.layers)
        bot.addWidget(self.bw_box, 1)
        bot.addWidget(self.layers_box, 1)
        return bottom

    def _burn_choice(self) -> tuple[QLabel, QComboBox]:
        label, combo = QLabel(self), QComboBox(self)
        combo.setObjectName("burn_in")
        for b in BURN_S:
            combo.addItem("", b)
        label.setBuddy(combo)
        return label, combo

    # --- flow ----------------------------------------------------------------------------
    def ensure_charts(self):
        if self.charts is None:
            from ui.widgets.charts import ChartPanel

            self.charts = ChartPanel(self.charts_holder)
            self.charts.setObjectName("charts")
            holder = self.charts_holder.layout()
            if holder is not None:
                holder.addWidget(self.charts)
        return self.charts

    def enter(self) -> None:
        self.ensure_charts()
        s = self.session
        if s.verification is None and self.state.verification is not None and not self.state.running:
            self.state.verification = None  # another machine was opened since: its results are gone
            self.state.clear()
            self.ensure_charts().refresh(self.state.series)
            self.render_result()
        if s.verification is None and s.source.recorded:
            s.verification = engine.verification_from_report(s.report_data)
        if s.verification is not None and self.state.verification is None:
            self.show_result(s.verification, replayed=True)
        self._buttons()
        self.retranslate_status()
        if self.should_autostart():  # the default path needs no Start: it begins on arrival
            self.start()
        self._pending_restart_notice()

    def _pending_restart_notice(self) -> None:
        s = self.session
        if s.pending_restart is not None and not s.source.recorded:
            self.show_error(tr("The computer has not restarted since the driver was installed: the GPU checks can fail "
                               "until it does. After the restart the wizard verifies again by itself."), "warning")

    def should_autostart(self) -> bool:
        s = self.session
        return (not s.source.recorded and not self.state.running and self.state.verification is None
                and s.verification is None and self.state.error is None)
    def start(self) -> None:
        if self.state.running:
            return
        runner = self._runner()
        if runner is None:
            self.show_error(tr("A walkthrough has no GPU to test, and the report recorded no verification."), "info")
            return
        self.clear_error()
        self._pending_restart_notice()
        self.state.error = None
        self.state.seconds = float(self.duration.currentData())
        self.state.burn_s = float(self.burn.currentData() or 0)
        self._run = None
        self.state.clear()
        self.state.verification = None
        self.state.running = True
        self._progress_msg = ""
        self._ceilings(None)
        charts = self.ensure_charts()
        charts.refresh(self.state.series)
        charts.rates_reserved = self.state.burn_s > 0  # their place is kept: no relayout when the first rate comes
        for unit in ("tflops", "gbps"):
            charts.set_rates({}, unit)
        charts.set_marks([])
        self._strip((), None)  # the last run's verdicts go: nothing is judged yet
        self.layers.clear()
        self.bridge = SampleBridge(100, self)
        self.bridge.samples.connect(self._on_samples)
        self.bridge.start()
        self.task = self.tasks.submit(runner, self.bridge, self.state.seconds, on_done=self._done, on_error=self._failed)
        self._buttons()
        self.retranslate_status()
        self.completeChanged.emit()  # Next waits for the result

    def _runner(self):
        svc = self.w.services
        if svc.verify_runner is not None:
            return svc.verify_runner
        s = self.session
        if s.source.recorded:
            recorded = engine.verification_from_report(s.report_data)
            if recorded is None or not recorded.samples:
                return None
            return lambda listener, seconds, cancel: engine.replay_verification(recorded, listener, cancel)
        python = engine.target_python(s.choices.venv_path)
        gpus = len(s.facts.gpus) if s.facts else 0
        burn = self.state.burn_s or None
        return lambda listener, seconds, cancel: engine.run_verification(
            listener, seconds, cancel, python=python, gpu_count=gpus, on_progress=self._progress, burn_in_s=burn,
            on_run=self._set_run)

    def _set_run(self, run: Any) -> None:  # worker thread: only store; the 10 Hz tick reads it
        self._run = run

    def _progress(self, ev: dict) -> None:  # worker thread: only store, the 10 Hz tick shows it
        if ev.get("event") == "progress" and ev.get("message"):
            self._progress_msg = str(ev["message"])

    def stop(self) -> None:
        if self.task is not None and self.task.is_running():
            self.task.cancel()
            self.status.setText(tr("Stopping…"))

    def _on_samples(self, batch: list) -> None:
        self.state.add_samples(batch)
        self._sync_gpus()
        tracker = getattr(self._run, "burn", None)
        self._ticks = getattr(self, "_ticks", 0) + 1
        # one pass of the event loop paints a few charts, never all: half of the samples' charts per tick
        # (each at 5 Hz), and twice a second the burn-in's rates and strip instead (its rates come once a second)
        if tracker is not None and self._ticks % 5 == 0:
            live = tracker.live()
            self._burn_view(live.events, live.rates, live.thresholds, None, live)
            if live.phase:
                self._progress_msg = tr("Burn-in: {phase}").format(phase=phase_name(live.phase))
        else:
            self.ensure_charts().refresh(self.state.series, part=True)
        if self._progress_msg:
            self.status.setText(self._progress_msg)

    # --- a burn-in: every GPU side by side, faults on the time axis, rates against the datasheet ---
    def _burn_view(self, events, rates, thresholds: dict, burn: Any, live: Any = None) -> None:
        """Draw what a burn-in has (`live` from its tracker, or `burn`, the finished BurnIn) for the GPU shown."""
        charts = self.ensure_charts()
        g = self.state.gpu_index
        nv = self._nvml_index(g, burn)
        charts.set_marks([(e.t_s, burn_severity(e)) for e in events if e.gpu_index in (g, None)])
        th = thresholds.get(nv) or {}
        gb = next((x for x in getattr(burn, "gpus", ()) if x.index == g), None)
        charts.set_thresholds(th.get("slowdown") or (gb.temp_slowdown_c if gb else None),
                              th.get("shutdown") or (gb.temp_shutdown_c if gb else None))
        mine = [r for r in rates if r.gpu_index == g]
        peak = self._peak(g, gb)
        t_end = self.state.series.t[-1] if len(self.state.series) else 1.0
        # as the other charts: the axis grows in 10 s steps while streaming (a moving axis is re-laid out)
        x_range = (0.0, max(1.0, t_end if burn is not None else math.ceil(t_end / 10.0) * 10.0))
        for unit in ("tflops", "gbps"):
            series: dict[str, tuple[list[float], list[float]]] = {}
            for r in mine:
                if r.unit == unit:
                    t, y = series.setdefault(r.series or r.phase.replace("matmul_", ""), ([], []))
                    t.append(r.t_s)
                    y.append(r.value)
            peaks = dict(peak[0]) if unit == "tflops" else {k: peak[1] for k in ("triad", "copy") if peak[1]}
            charts.set_rates(series, unit, peaks, x_range)
        self._strip(events, burn, live)

    def _peak(self, g: int, gb: Any) -> tuple[dict[str, float], Optional[float]]:
        """(datasheet TFLOP/s per precision, memory GB/s) of GPU g: the burn-in's own, else the table's."""
        if gb is not None and (gb.peak_tflops or gb.peak_mem_gbps):
            return dict(gb.peak_tflops), gb.peak_mem_gbps
        from app.verify.peaks import lookup

        p = lookup(self._gpu_name(g))
        return (dict(p.tflops), p.mem_gbps) if p else ({}, None)

    def _nvml_index(self, g: int, burn: Any) -> int:
        gb = next((x for x in getattr(burn, "gpus", ()) if x.index == g), None)
        return gb.nvml_index if gb is not None and gb.nvml_index is not None else g

    def _gpu_name(self, g: int) -> str:
        facts = self.session.facts
        fg = next((x for x in getattr(facts, "gpus", ()) if x.index == g), None) if facts else None
        return getattr(fg, "name", "") or "NVIDIA H200"

    def _strip(self, events, burn: Any, live: Any = None) -> None:
        """One cell per GPU, side by side: its live figures, that the burn-in runs (its phase and time) until
        it ends, then its verdict; and its faults (the cells come from ui.page_states.strip_cells)."""
        from ui.widgets.icons import COLOURS

        cells = strip_cells(self.state, events, burn, live)
        if not cells:
            self.gpu_strip.hide()
            return
        html = []
        for c in cells:
            if c.status == "running":
                word, colour = c.live_text(phase_name), COLOURS["running" if c.seen == "pass" else c.seen]
            else:
                word, colour = tr(VERDICT.get(c.status, c.status)), COLOURS.get(c.status, "#757575")
            figs = " · ".join(f"{v:,.0f} {u}" for v, u in c.figures)
            html.append(f"<td style='padding:2px 14px 2px 4px'><b>GPU {c.gpu}</b> <span style='color:{colour}'>● {word}</span>"
                        f"<br>{figs}<br>" + tr("{faults} faults, {warnings} warnings").format(faults=c.faults, warnings=c.warnings)
                        + "</td>")
        self.gpu_strip.setText("<table><tr>" + "".join(html) + "</tr></table>")
        self.gpu_strip.setVisible(len(cells) > 1 or self.state.burn_s > 0 or burn is not None)

    def _done(self, v: Any) -> None:
        self._stop_bridge()
        self.state.running = False
        if v is not None:
            self.session.verification = v
            self.show_result(v)
        self._buttons()
        self.completeChanged.emit()

    def _failed(self, message: str, _d: str) -> None:
        self._stop_bridge()
        self.state.running = False
        self.state.error = message
        self.gpu_strip.hide()  # it said the burn-in runs: the error below says why it does not
        self.show_error(tr("The verification could not run: {error}").format(error=message))
        self._buttons()
        self.retranslate_status()
        self.completeChanged.emit()

    def _stop_bridge(self) -> None:
        if self.bridge is not None:
            self.bridge.stop()

    def _ceilings(self, v: Any = None) -> None:
        """The lines each chart is read against: the PCIe link, the power limit, the GPU's memory
        (the verification's own figures; before it, the detected GPU's)."""
        charts = self.ensure_charts()
        g = self.state.gpu_index
        pcie = power = mem = None
        if v is not None:
            gr = next((x for x in getattr(v, "gpus", ()) if x.index == g), None)
            bw = gr.bandwidth if gr is not None else v.bandwidth
            pcie = bw.pcie_theoretical_gbps
            if gr is not None:
                power = gr.device.power_limit_w
                mem = gr.device.memory_total_mib / 1024 if gr.device.memory_total_mib else None
        facts = self.session.facts
        fg = next((x for x in getattr(facts, "gpus", ()) if x.index == g), None) if facts else None
        if fg is not None:
            if mem is None and fg.memory_total_mib:
                mem = fg.memory_total_mib / 1024
            if pcie is None and fg.pcie_gen_current and fg.pcie_width_current:
                from app.verify.verdicts import pcie_gbps

                pcie = pcie_gbps(fg.pcie_gen_current, fg.pcie_width_current)
        charts.set_ceilings(pcie_gbps=pcie, power_w=power, memory_gib=mem)
        if v is not None:
            gr = next((x for x in getattr(v, "gpus", ()) if x.index == g), None)
            bw = gr.bandwidth if gr is not None else v.bandwidth
            charts.set_measured([("pcie", bw.h2d_pinned_gbps, "to GPU"), ("pcie", bw.d2h_pinned_gbps, "from GPU")])
        else:
            charts.set_measured([])

    def show_result(self, v: Any, replayed: bool = False) -> None:
        self.state.verification = v
        self._buttons()
        burn = getattr(v, "burn_in", None)
        if replayed or not len(self.state.series) or burn is not None:  # a burn-in: the whole run as kept, not the last minutes
            self.state.clear()
            self.state.add_samples(list(getattr(v, "samples", ())))
        self._sync_gpus()
        self._ceilings(v)
        self.ensure_charts().refresh(self.state.series, fit=True)  # the whole run, now it is over
        if burn is not None:
            self._burn_view(burn.events, burn.rates, {}, burn)
        else:
            self.ensure_charts().rates_reserved = False
            for unit in ("tflops", "gbps"):
                self.ensure_charts().set_rates({}, unit)
            self.ensure_charts().set_marks([])
            self.gpu_strip.setVisible(False)
        self.render_result()
        self.ensure_charts().paint_in_turns()

    def _sync_gpus(self) -> None:
        """The GPU choice appears when the samples cover more than one GPU."""
        gpus = self.state.gpus
        if [self.gpu_combo.itemData(i) for i in range(self.gpu_combo.count())] != gpus:
            self.gpu_combo.blockSignals(True)
            self.gpu_combo.clear()
            for g in gpus:
                self.gpu_combo.addItem(f"GPU {g}", g)
            self.gpu_combo.setCurrentIndex(max(0, self.gpu_combo.findData(self.state.gpu_index)))
            self.gpu_combo.blockSignals(False)
        multi = len(gpus) > 1
        self.gpu_label.setVisible(multi)
        self.gpu_combo.setVisible(multi)

    def _gpu_chosen(self, _i: int) -> None:
        g = self.gpu_combo.currentData()
        if g is None or g == self.state.gpu_index:
            return
        self.state.gpu_index = int(g)
        charts = self.ensure_charts()
        self._ceilings(self.state.verification)
        charts.ranges.clear()
        charts.refresh(self.state.series, fit=not self.state.running)
        burn = getattr(self.state.verification, "burn_in", None)
        if burn is not None:
            self._burn_view(burn.events, burn.rates, {}, burn)

    def failure_text(self) -> str:
        """What went wrong, as text for Troubleshoot: the probe's errors, PyTorch's own error,
        every failed or warned check."""
        v = self.state.verification
        if v is None:
            return ""
        lines = list(v.errors)
        if v.torch.error:
            lines.append(v.torch.error)
        for layer in v.layers:
            for c in layer.checks:
                if c.status in ("fail", "warn"):
                    lines.append(f"{layer.name}: {c.message}")
        return "\n".join(lines)

    def troubleshoot(self) -> None:
        self.session.error_text = self.failure_text()
        self.w.jump_to("troubleshoot")

    def isComplete(self) -> bool:  # noqa: N802
        return not self.state.running

    def shutdown(self) -> None:
        if self.task is not None:
            self.task.cancel()
        self._stop_bridge()

    # --- rendering -----------------------------------------------------------------------
    def render_result(self) -> None:
        v = self.state.verification
        for bar, row in zip(self.bars, self.state.bandwidth_rows() or [(k, None, None) for k in BANDWIDTH_LABELS]):
            label, val, ceil = row
            bar.set_values(tr(BANDWIDTH_LABELS[label]), val, ceil)
        self.layers.clear()
        if v is not None:
            for layer in v.layers:
                title = tr(LAYER_TITLES.get(layer.name, layer.name))
                verdict = tr(VERDICT.get(layer.status, layer.status))
                reason = layer_reason(layer, current_language())
                it = QListWidgetItem(status_icon(layer.status), tr("{title}: {verdict}").format(title=title, verdict=verdict) + f"\n{reason}")
                it.setToolTip("\n".join((layer.reason,) * (reason != layer.reason) + tuple(layer.details)))
                self.layers.addItem(it)
        self.retranslate_status()

    def _buttons(self) -> None:
        v = self.state.verification
        self.trouble_btn.setVisible(v is not None and v.status == "fail" and not self.state.running
                                    and bool(self.failure_text()))
        running = self.state.running
        keep = self.stop_btn if running else self.start_btn
        keep.setEnabled(True)
        # the control with the focus is about to be disabled: hand the focus to the one that stays,
        # else Qt passes it down the page and the page scrolls away from the result line
        if QApplication.focusWidget() in (self.start_btn, self.stop_btn, self.duration) and not keep.hasFocus():
            keep.setFocus(Qt.FocusReason.OtherFocusReason)
        self.start_btn.setEnabled(not running)
        self.stop_btn.setEnabled(running)
        self.duration.setEnabled(not running)
        self.burn.setEnabled(not running)

    def retranslate_status(self) -> None:
        v = self.state.verification
        if self.state.running:
            self.status.setText(self._progress_msg or tr("Testing the GPU…"))
        elif v is not None:
            overall = tr(VERDICT.get(v.status, v.status))
            self.status.setText(tr("Result: {verdict}").format(verdict=overall) + (" " + tr("(stopped early)") if v.cancelled else ""))
        elif self.session.source.recorded:
            self.status.setText(tr("Nothing runs in a walkthrough."))
        else:
            self.status.setText(tr("Press Start to test the GPU."))

    def retranslate(self) -> None:
        self.setTitle(tr("Verify and stress"))
        self.setSubTitle(tr("Proves PyTorch uses the GPU at the speed the hardware allows."))
        self.duration_label.setText(tr("&Load per test:"))
        self.gpu_label.setText(tr("&GPU shown:"))
        self.gpu_combo.setAccessibleName(tr("GPU shown in the charts"))
        for i, s in enumerate(DURATIONS_S):
            self.duration.setItemText(i, tr("{n} s").format(n=s))
        self.duration.setAccessibleName(tr("Load duration per test"))
        self.burn_label.setText(tr("&Burn-in:"))
        for i, b in enumerate(BURN_S):
            self.burn.setItemText(i, tr("none") if not b else (tr("{n} min").format(n=b // 60) if b < 3600 else tr("{n} h").format(n=b // 3600)))
        self.burn.setAccessibleName(tr("Burn-in after the tests: every GPU at full load, each result checked"))
        self.start_btn.setText(tr("&Start"))
        self.start_btn.setAccessibleName(tr("Start the test"))
        self.stop_btn.setText(tr("S&top"))
        self.stop_btn.setAccessibleName(tr("Stop the test"))
        self.trouble_btn.setText(tr("&Troubleshoot this error"))
        self.trouble_btn.setAccessibleName(tr("Troubleshoot this error"))
        self.bw_box.setTitle(tr("Bandwidth against the theoretical ceiling"))
        self.layers_box.setTitle(tr("Verdicts"))
        self.layers.setAccessibleName(tr("Verdicts"))
        self.render_result()
