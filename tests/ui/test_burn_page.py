"""The Verify page through a burn-in: the duration choice reaches the run, every GPU side by side, the
faults on the time axis of the GPU shown, the temperature thresholds, the rates against the datasheet,
live (from the run's tracker) and finished; the same in 简体中文."""
from __future__ import annotations

import sys
from pathlib import Path

from app.verify.model import Verification

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "tests" / "fixtures" / "verify" / "demo_burnin_2gpu.json"
sys.path.insert(0, str(ROOT / "bench"))


def demo() -> Verification:
    return Verification.loads(DEMO.read_text(encoding="utf-8"))


def test_a_finished_burn_in_side_by_side(qtbot, make_wizard):
    w, _s, _r = make_wizard()
    page = w.pages["verify"]
    page.show_result(demo(), replayed=True)
    charts = page.charts
    assert page.gpu_strip.isVisibleTo(page)
    strip = page.gpu_strip.text()
    assert "GPU 0" in strip and "GPU 1" in strip and "passed" in strip and "failed" in strip
    assert {k[1] for k in charts.rate_curves if k[0] == "tflops"} == {"fp8", "bf16", "fp16", "tf32", "fp32"}
    assert charts.rate_plots["tflops"].isVisibleTo(page) and charts.rate_plots["gbps"].isVisibleTo(page)
    assert [v for v, _l in charts.thresholds] == [89.0, 95.0]
    assert charts.marks == []  # GPU 0 had no fault
    page.gpu_combo.setCurrentIndex(1)
    sev = dict(charts.marks)
    mismatch = next(e for e in demo().burn_in.events if e.kind == "mismatch")
    assert sev[mismatch.t_s] == "fail" and "warn" in sev.values()  # the thermal slowdown, the ECC rise
    phases = [name for name, _a, _b in charts._phase_spans]
    assert phases[:3] == ["p2p", "allreduce", "memtest"] and "membw" in phases
    # precisions held to the same datasheet peak share one dashed line, named by both (two labels overlapped)
    h200 = Verification.loads((DEMO.parent / "h200_burnin90.json").read_text(encoding="utf-8"))
    page.show_result(h200, replayed=True)
    labels = [item.label.toPlainText() for item in charts._peak_items["tflops"]]
    assert labels == ["fp32 datasheet 67", "tf32 datasheet 494.5", "bf16, fp16 datasheet 989.5", "fp8 datasheet 1,979"], labels
    assert [item.label.toPlainText() for item in charts._peak_items["gbps"]] == ["triad datasheet 4,800"]


def test_the_burn_in_choice_reaches_the_run_and_the_tracker_feeds_the_page(qtbot, make_wizard):
    from bench_burn_window import replayer

    w, services, _r = make_wizard()
    page = w.pages["verify"]
    v = demo()
    seen = {}

    def runner(listener, seconds, cancel):
        seen["burn_s"] = page.state.burn_s
        return replayer(v, 400.0, page)(listener, seconds, cancel)
    services.verify_runner = runner
    w.jump_to("verify")
    qtbot.waitUntil(lambda: not page.state.running, timeout=20000)
    page.burn.setCurrentIndex(page.burn.findData(600))
    page.start()
    qtbot.waitUntil(lambda: not page.state.running, timeout=30000)
    assert seen["burn_s"] == 600
    assert page.charts.rate_curves and "1 faults" in page.gpu_strip.text()
    assert page.state.verification is not None and page.state.verification.burn_in is not None


def test_the_page_in_chinese(qtbot, make_wizard):
    w, _s, _r = make_wizard(lang="zh_CN")
    page = w.pages["verify"]
    page.show_result(demo(), replayed=True)
    assert "烤机" in page.burn_label.text() and "通过" in page.gpu_strip.text() and "失败" in page.gpu_strip.text()
    assert page.burn.itemText(page.burn.findData(600)) == "10 分钟"
    assert "矩阵乘法" in page.charts.rate_plots["tflops"].getPlotItem().titleLabel.text


def test_the_strip_says_the_burn_in_runs_until_it_ends(qtbot, make_wizard):
    """The recorded H200 burn-in replayed through the page (a real BurnTracker the page reads): while it runs
    each GPU's cell says so, with the phase and the time done, never "passed"; at the end, its verdict."""
    from bench_burn_window import replayer
    from app.verify.session import rejudge

    w, services, _r = make_wizard()
    page = w.pages["verify"]
    v = rejudge(Verification.loads((DEMO.parent / "h200_burnin90.json").read_text(encoding="utf-8")))
    services.verify_runner = lambda listener, seconds, cancel: replayer(v, 25.0, page)(listener, seconds, cancel)
    w.jump_to("verify")
    qtbot.waitUntil(lambda: not page.state.running, timeout=20000)
    page.burn.setCurrentIndex(page.burn.findData(600))
    page.start()
    seen: list[str] = []

    def into_the_load() -> bool:
        seen.append(page.gpu_strip.text())
        return "burn-in running: matrix products" in seen[-1]
    qtbot.waitUntil(into_the_load, timeout=30000)
    assert page.state.running and page.gpu_strip.isVisibleTo(page)
    assert " of 1 min 30 s" in seen[-1], seen[-1]  # the tracker's own plan: 90 s of load
    qtbot.waitUntil(lambda: not page.state.running, timeout=30000)
    assert not [t for t in seen if "passed" in t], [t for t in seen if "passed" in t][:1]
    assert any("testing; the burn-in follows" in t for t in seen)  # the layers before it: no verdict either
    done = page.gpu_strip.text()
    assert "passed" in done and "running" not in done and "0 faults, 0 warnings" in done


def test_a_finished_run_is_painted_in_turns_and_all_of_it(qtbot, make_wizard):
    """The finished result's charts are painted over a few passes of the event loop (never left unpainted:
    all of them paint again within a moment, and at once when the window hides)."""
    w, _s, _r = make_wizard()
    w.show()
    page = w.pages["verify"]
    w.jump_to("verify")
    qtbot.waitUntil(lambda: not page.state.running, timeout=20000)
    page.show_result(demo(), replayed=True)
    charts = page.charts
    views = list(charts.plots.values()) + list(charts.rate_plots.values())
    waiting = [v for v in views if not v.updatesEnabled()]
    assert waiting and len(waiting) < len(views)  # the first group paints now, the rest after
    qtbot.waitUntil(lambda: all(v.updatesEnabled() for v in views), timeout=2000)
    page.show_result(demo(), replayed=True)
    w.hide()
    assert all(v.updatesEnabled() for v in views) and not charts._turns.isActive()


def test_a_burn_in_keeps_the_rates_place_from_the_start(qtbot, make_wizard):
    """Asked for a burn-in, the rates' charts are there (empty) before the first rate, so the charts above are
    not laid out again when it comes; without one they are hidden."""
    w, services, _r = make_wizard()
    page = w.pages["verify"]
    started = []

    def runner(listener, seconds, cancel):
        started.append(page.charts.rate_plots["tflops"].isVisibleTo(page))
        return None
    services.verify_runner = runner
    w.jump_to("verify")
    qtbot.waitUntil(lambda: not page.state.running, timeout=20000)
    page.burn.setCurrentIndex(page.burn.findData(600))
    page.start()
    assert page.charts.rate_plots["tflops"].isVisibleTo(page) and page.charts.rate_plots["gbps"].isVisibleTo(page)
    assert not page.charts.rate_curves
    qtbot.waitUntil(lambda: not page.state.running, timeout=20000)
    page.burn.setCurrentIndex(page.burn.findData(0))
    page.start()
    assert not page.charts.rate_plots["tflops"].isVisibleTo(page)
    qtbot.waitUntil(lambda: not page.state.running, timeout=20000)
    assert started == [False, True, False]
