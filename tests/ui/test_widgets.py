"""Log view with 100,000+ lines, charts fed synthetic samples, bridge batching, leak guard."""
from __future__ import annotations

import math
import threading
import time

import pytest
from PySide6.QtCore import QThread, QTimer

from tests.ui.conftest import live_qt_leaks
from ui.bridge import RunBridge, SampleBridge, Tasks
from ui.state import SampleSeries
from ui.widgets.bandwidth import BandwidthBar
from ui.widgets.charts import ChartPanel
from ui.widgets.log_view import LogView


def test_log_view_takes_100k_lines_fast_with_colour_search_and_follow(qtbot):
    view = LogView()
    qtbot.addWidget(view)
    view.resize(700, 400)
    view.show()
    t = time.perf_counter()
    for b in range(100):  # 100 batches of 1,000 lines, as the bridge delivers them
        view.append_lines([("stderr" if i % 100 == 0 else "stdout", f"batch {b} line {i} Unpacking libcudnn9") for i in range(1000)])
    qtbot.wait(20)
    assert view.line_count() == 100_000
    assert time.perf_counter() - t < 10  # generous: CI machines are slow; bench/bench_gui.py measures
    m = view.model
    assert m.is_err[0] and not m.is_err[1]  # stderr lines are painted in the error colour
    view.view.repaint()
    sb = view.view.verticalScrollBar()
    assert view.following and sb.value() == sb.maximum()
    # the user scrolls up to read: following pauses, new lines do not move the view
    sb.setValue(sb.maximum() // 2)
    assert not view.following
    before = sb.value()
    view.append_lines([("stdout", "more")] * 500)
    qtbot.wait(10)
    assert sb.value() == before and not view.following
    assert "paused" in view.follow_btn.text()
    view.set_follow(True)
    assert sb.value() == sb.maximum()
    # search: next/previous matching line, wraps around
    view.search.setText("batch 77 line 5 ")
    row = view.find_next()
    assert m.lines[row] == "batch 77 line 5 Unpacking libcudnn9"
    assert not view.following  # jumping to a match pauses following
    assert view.find_next() == row  # the only match: wraps to itself
    assert "1 matches" == view.matches.text()
    view.search.setText("no such text")
    assert view.find_next() is None
    # select three lines with Shift+Down and copy them
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication

    view.view.setFocus()
    qtbot.keyClick(view.view, Qt.Key.Key_Down, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClick(view.view, Qt.Key.Key_Down, Qt.KeyboardModifier.ShiftModifier)
    assert len(view.view.selected_rows()) == 3
    text = view.copy_selection()
    assert text.splitlines()[0] == "batch 77 line 5 Unpacking libcudnn9"
    assert QGuiApplication.clipboard().text() == text


def test_log_view_survives_odd_lines(qtbot):
    view = LogView()
    qtbot.addWidget(view)
    view.append_lines([("stdout", "x" * 100_000), ("stderr", "a\r\nb\n"), ("stdout", ""), ("stdout", "\ufffd\x00bin")])
    assert view.line_count() == 5
    assert len(view.model.lines[0]) < 3000


def test_charts_take_synthetic_samples(qtbot):
    panel = ChartPanel()
    qtbot.addWidget(panel)
    panel.show()
    s = SampleSeries(capacity=500)
    for i in range(1000):
        s.add(i * 0.1, {"util_pct": 50 + 40 * math.sin(i / 20), "mem_util_pct": 30, "mem_used_mib": 2048 + i,
                        "power_w": 300.0, "pcie_rx_mbps": 25_000.0, "pcie_tx_mbps": None, "sm_clock_mhz": 1980,
                        "mem_clock_mhz": 2619})
    assert len(s) == 500 and s.t[0] == pytest.approx(50.0)
    panel.refresh(s)
    x, y = panel.curves["pcie_rx_mbps"].xData, panel.curves["pcie_rx_mbps"].yData
    assert len(x) == 500 and y[0] == pytest.approx(25.0)  # MB/s shown as GB/s
    y = panel.curves["mem_used_mib"].yData
    assert y[-1] == pytest.approx((2048 + 999) / 1024)
    y = panel.curves["pcie_tx_mbps"].yData
    assert all(math.isnan(v) for v in y)  # missing values are gaps, not zeros
    # while streaming, one chart's axes move per refresh; all follow within a few refreshes
    assert len(panel.ranges) == 1
    for _ in range(6):
        panel.refresh(s)
    assert panel.ranges["utilization"] == (100.0, 105.0)  # the 60 s window that ends after the last sample
    assert panel.ranges["pcie"][1] == 50.0 and panel.ranges["power"][1] == 500.0
    panel.refresh(s, fit=True)  # a finished run: the whole run at once
    lo, hi = panel.plots["power"].getPlotItem().viewRange()[0]
    assert lo == pytest.approx(0.0) and hi == pytest.approx(100.0)
    s.clear()
    panel.refresh(s)


def test_a_fast_stream_starves_no_chart(qtbot):
    """A stream whose time axis moves at every refresh (a replay sped up, or a busy machine's late
    batches): the charts take turns to re-lay out their axes, so the last one (temperature) shows its
    data within a few refreshes. Before, the first chart to change took every turn and the temperature
    chart stayed at its empty 0-1 range, its curve off screen."""
    from ui.widgets.charts import STEP_S

    panel = ChartPanel()
    qtbot.addWidget(panel)
    panel.show()
    s = SampleSeries(capacity=2000)
    t = 0.0
    for _refresh in range(12):
        for _ in range(int(STEP_S * 10) + 1):  # more than one axis step of samples per refresh
            s.add(t, {"util_pct": 99.0, "mem_util_pct": 30, "mem_used_mib": 2048, "power_w": 690.0, "pcie_rx_mbps": 10.0,
                      "pcie_tx_mbps": 10.0, "sm_clock_mhz": 1455, "mem_clock_mhz": 3201, "temp_c": 60.0})
            t += 0.1
        panel.refresh(s)
    assert panel.ranges["temperature"][1] >= 60.0, panel.ranges
    assert panel.ranges["temperature"][0] >= t - 2 * STEP_S * 6  # and it keeps up with the run, not its first seconds


def test_bandwidth_bar_text(qtbot):
    bar = BandwidthBar()
    qtbot.addWidget(bar)
    bar.set_values("Host to GPU (pinned)", 53.1, 63.0)
    assert bar.text() == "Host to GPU (pinned): 53.1 of 63.0 GB/s (84%)"
    assert bar.accessibleName() == bar.text()
    bar.set_values("D2D", None, 4800.0)
    assert "not measured" in bar.text()
    bar.show()
    bar.repaint()


def test_run_bridge_batches_events_in_order_from_another_thread(qtbot):
    from app.run.events import LineEvent, PlanFinished, StepFinished, StepStarted

    bridge = RunBridge()
    got: list = []
    bridge.events.connect(lambda batch: got.append(list(batch)))
    bridge.start()
    sent = [StepStarted("a", 0, 1, "A"), *[LineEvent("a", "stdout", f"line {i}") for i in range(10_000)],
            StepFinished("a", "ok"), PlanFinished("ok")]

    def work():
        for ev in sent:
            bridge(ev)

    t = threading.Thread(target=work)
    t.start()
    t.join()
    qtbot.waitUntil(lambda: bool(got) and isinstance(got[-1][-1], PlanFinished), timeout=3000)
    bridge.stop()
    flat = [ev for batch in got for ev in batch]
    assert flat == sent and all(a is b for a, b in zip(flat, sent))  # the same objects, in order, none lost
    assert len(got) < 100  # batched, not one signal per event


def test_sample_bridge_and_tasks_deliver_on_the_gui_thread(qtbot):
    tasks = Tasks()
    results = []
    gui = QThread.currentThread()

    def on_done(v):
        results.append((v, QThread.currentThread() is gui))

    tasks.submit(lambda: 41 + 1, on_done=on_done)
    tasks.submit(lambda: None, on_done=on_done)
    errs = []
    tasks.submit(lambda: 1 / 0, on_error=lambda m, d: errs.append(m))
    qtbot.waitUntil(lambda: len(results) == 2 and len(errs) == 1, timeout=3000)
    assert sorted(results, key=str) == sorted([(42, True), (None, True)], key=str)
    assert "division by zero" in errs[0]
    cancel_seen = []

    def slow(cancel):
        cancel_seen.append(cancel.wait(5))

    task = tasks.submit(slow)
    task.cancel()
    assert tasks.shutdown(3000)
    assert cancel_seen == [True] and not tasks.busy
    sb = SampleBridge(50)
    batches = []
    sb.samples.connect(batches.append)
    sb.start()
    for i in range(30):
        sb.sample(i * 0.1, {"util_pct": i})
    qtbot.waitUntil(lambda: sum(map(len, batches)) == 30, timeout=2000)
    sb.stop()


def test_leak_guard_catches_a_running_timer_and_thread(qtbot):
    timer = QTimer()
    timer.start(1000)
    thread = QThread()
    thread.start()
    leaks = live_qt_leaks()
    assert any("QTimer" in x for x in leaks) and any("QThread" in x for x in leaks)
    timer.stop()
    thread.quit()
    thread.wait()
    assert live_qt_leaks() == []


def test_shutdown_does_not_destroy_a_thread_that_ignores_cancel(qtbot):
    import ui.bridge as bridge

    tasks = Tasks()
    release = threading.Event()
    tasks.submit(lambda: release.wait(5))  # takes no `cancel`: cannot be stopped early
    assert tasks.shutdown(timeout_ms=50) is False
    assert len(bridge._ORPHANS) == 1
    tasks.deleteLater()
    release.set()
    qtbot.waitUntil(lambda: not bridge._ORPHANS, timeout=5000)


def test_verify_page_shows_one_gpu_of_several(qtbot, make_wizard):
    from tests.ui.fakes import synthetic_verification

    v = synthetic_verification(50)
    two = v.replace(samples=v.samples + tuple(s.replace(gpu_index=1, power_w=111.0) for s in v.samples))
    w, _s, _r = make_wizard()
    page = w.pages["verify"]
    assert not page.gpu_combo.isVisibleTo(page)
    page.show_result(two, replayed=True)
    assert page.gpu_combo.isVisibleTo(page) and page.gpu_combo.count() == 2
    assert page.state.gpus == [0, 1] and len(page.state.series) == 50
    page.gpu_combo.setCurrentIndex(1)
    assert page.state.gpu_index == 1
    assert set(page.charts.curves["power_w"].yData) == {111.0}


def test_charts_fit_the_run_draw_ceilings_phases_and_the_copy_tests(qtbot):
    """A 16 s run fills the axis; the PCIe link, power limit and GPU memory are labelled lines; each
    test phase is a shaded band named in the legend; the copy tests' own rates are drawn over their
    phase; an empty chart shows no tick values."""
    panel = ChartPanel()
    qtbot.addWidget(panel)
    panel.show()
    panel.refresh(SampleSeries())
    assert not panel.plots["power"].getPlotItem().getAxis("left").style["showValues"]  # no "0.8 W" on nothing
    s = SampleSeries()
    for i in range(161):  # 16 s at 10 Hz: 4 s PyTorch check, 6 s copies, 6 s load
        phase = "pytorch" if i < 40 else "bandwidth" if i < 100 else "load"
        s.add(i * 0.1, {"util_pct": 90.0 if phase == "load" else 10.0, "mem_used_mib": 4096.0, "power_w": 300.0,
                        "power_limit_w": 450.0, "pcie_rx_mbps": 4000.0 if phase == "bandwidth" else 0.0,
                        "phase": phase})
    panel.set_ceilings(pcie_gbps=31.5, memory_gib=24.0)
    panel.set_measured([("pcie", 26.1, "to GPU"), ("pcie", 25.9, "from GPU")])
    panel.refresh(s, fit=True)
    lo, hi = panel.plots["utilization"].getPlotItem().viewRange()[0]
    assert lo == pytest.approx(0.0) and hi == pytest.approx(16.0)  # the run, not a fixed minute
    assert panel.plots["power"].getPlotItem().getAxis("left").style["showValues"]
    lines = {k: (item.value(), item.label.toPlainText()) for k, item in panel._ceiling_items.items()}
    assert lines["pcie"][0] == 31.5 and "PCIe link" in lines["pcie"][1]
    assert lines["power"][0] == 450.0 and "power limit" in lines["power"][1]  # from the sampler's own reading
    assert lines["memory"][0] == 24.0
    assert panel.ranges["pcie"][1] >= 31.5 and panel.ranges["power"][1] >= 450.0  # the ceiling is on screen
    assert [p[0] for p in panel._phase_spans] == ["pytorch", "bandwidth", "load"]
    assert all(name in panel.phase_legend.text() for name in ("PyTorch check", "copy tests", "load test"))
    texts = [it.toPlainText() for _pi, it in panel._measured_items if hasattr(it, "toPlainText")]
    assert texts and "26.1" in texts[0] and "25.9" in texts[0]
    segs = [it for _pi, it in panel._measured_items if not hasattr(it, "toPlainText")]
    x, y = segs[0].xData, segs[0].yData
    assert x[0] == pytest.approx(4.0) and x[-1] == pytest.approx(9.9) and y[0] == pytest.approx(26.1)


def test_copy_tests_label_stays_inside_a_narrow_chart(qtbot):
    """At 200% scaling a chart is narrow: the copy tests' label must not run past its right edge."""
    from PySide6.QtCore import QRectF

    panel = ChartPanel()
    qtbot.addWidget(panel)
    panel.resize(900, 420)  # three charts a row: ~290 px each
    panel.show()
    qtbot.waitExposed(panel)
    s = SampleSeries()
    for i in range(191):  # 19 s: 6 s PyTorch check, copies 7..10 s (the band ends past the middle), load
        phase = "pytorch" if i < 70 else "bandwidth" if i < 100 else "load"
        s.add(i * 0.1, {"util_pct": 50.0, "pcie_rx_mbps": 4000.0 if phase == "bandwidth" else 0.0, "phase": phase})
    panel.set_ceilings(pcie_gbps=63.0)
    panel.set_measured([("pcie", 55.4, "to GPU"), ("pcie", 55.3, "from GPU")])
    panel.refresh(s, fit=True)
    qtbot.wait(50)
    plot = panel.plots["pcie"]
    vb = plot.getPlotItem().getViewBox()
    text = next(it for _pi, it in panel._measured_items if hasattr(it, "toPlainText"))
    box = text.mapRectToScene(text.boundingRect())
    view = vb.mapRectToScene(vb.boundingRect())
    assert isinstance(box, QRectF) and box.width() > 0
    assert box.left() >= view.left() - 1 and box.right() <= view.right() + 1, (box, view)



def test_log_view_find_shortcuts_reach_the_search(qtbot):
    """Ctrl+F puts the cursor in the search field; Find next / previous (F3, Shift+F3) jump between matches."""
    from PySide6.QtGui import QKeySequence
    from PySide6.QtWidgets import QApplication

    view = LogView()
    qtbot.addWidget(view)
    view.resize(700, 400)
    view.show()
    view.append_lines([("stdout", f"line {i}{' needle' if i in (10, 20) else ''}") for i in range(50)])
    view.activateWindow()

    def press(std: QKeySequence.StandardKey) -> None:
        view.view.setFocus()
        qtbot.waitUntil(lambda: QApplication.focusWidget() is view.view, timeout=2000)
        combo = QKeySequence(std)[0]
        qtbot.keyClick(view.view, combo.key(), combo.keyboardModifiers())

    press(QKeySequence.StandardKey.Find)
    qtbot.waitUntil(lambda: QApplication.focusWidget() is view.search, timeout=2000)
    qtbot.keyClicks(view.search, "needle")
    press(QKeySequence.StandardKey.FindNext)
    assert view.view.current == 10
    press(QKeySequence.StandardKey.FindNext)
    assert view.view.current == 20
    press(QKeySequence.StandardKey.FindPrevious)
    assert view.view.current == 10
