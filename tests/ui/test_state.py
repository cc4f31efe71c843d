"""The Qt-free page states: progress and time left, retry ids, resume file, grouping, formats."""
from __future__ import annotations

from dataclasses import dataclass

from app.facts import Facts, Finding
from tests.ui.fakes import h200_facts
from ui.state import (InstallState, SampleSeries, format_duration, format_when, group_facts, group_of,
                      machine_summary, next_page)


@dataclass
class _S:
    id: str
    title: str
    weight: int
    needs_root: bool = False


def test_progress_and_time_left_from_step_weights_then_runner_progress():
    st = InstallState.from_steps([_S("a", "A", 1), _S("b", "B", 3)])
    assert st.fraction() == 0 and st.time_left_s(now=0) is None
    st.start_step("a", now=0.0)
    st.finish_step("a", "ok", now=10.0)  # 1 weight in 10 s
    st.start_step("b", now=10.0)
    assert st.fraction() == 0.25
    assert st.time_left_s(now=15.0) == 25.0  # 3 weights at 10 s each, 5 s already spent on it
    st.overall = 0.5  # the runner says half of everything is done (pip progress inside b)
    assert st.fraction() == 0.5
    assert st.time_left_s(now=20.0) == 20.0  # 20 s for the first half
    st.finish_step("b", "error", "exit 100", now=21.0)
    assert st.failed.id == "b" and st.remaining_ids() == ["b"]
    st.reset_for_retry()
    assert st.step("b").status == "pending" and st.overall is None and st.step("a").status == "ok"


def test_grouping_shows_detection_status_per_group():
    groups = {g.key: g for g in group_facts(h200_facts())}
    assert list(groups) == ["gpu", "driver", "os", "cuda", "python"]
    assert groups["driver"].status == "warning"  # the nouveau finding belongs to the driver group
    assert groups["gpu"].status == "ok"
    empty = {g.key: g for g in group_facts(Facts())}
    assert empty["gpu"].status == "unknown" and empty["python"].status == "unknown"
    assert group_of(Finding("wsl_memory_low", "warning", "")) == "os"
    assert group_of(Finding("torch_cpu_build", "warning", "")) == "python"
    assert group_of(Finding("ld_conf_stale_cuda", "warning", "")) == "cuda"


def test_small_formats_and_sequence():
    assert format_duration(None) == "—" and format_duration(75) == "1 min 15 s" and format_duration(3700) == "1 h 01 min"
    assert format_when("2026-11-29T15:52:46+00:00") == "2026-11-29 15:52 UTC"
    assert format_when("garbage") == "garbage"
    assert machine_summary(h200_facts()) == "NVIDIA H200 · Ubuntu 22.04.5 LTS"
    assert next_page("setup", "plan") == "install" and next_page("verify", "system") == "verify"
    assert next_page("setup", "troubleshoot") == "plan"  # reached from a failure: its fix is planned
    assert next_page("setup", "summary") is None
    s = SampleSeries(capacity=3)
    for i in range(5):
        s.add(i, {"util_pct": i, "power_w": True})
    assert s.t == [2.0, 3.0, 4.0] and s.values["util_pct"] == [2.0, 3.0, 4.0]


def test_verify_reason_codes_follow_the_layer_sentence():
    from app.verify.model import Check, Layer
    from ui.pages.verify_page import reason_code

    info = Check("pageable_slow", "pass", "Pageable is slower.")
    assert reason_code(Layer("bandwidth", "pass", "GPU 0: 55 GB/s pinned.", checks=(info,))) == "bandwidth_ok"
    warn = Check("pcie_link_degraded", "warn", "Link at x8.")
    assert reason_code(Layer("bandwidth", "warn", "Link at x8.", checks=(info, warn))) == "pcie_link_degraded"
    assert reason_code(Layer("load", "fail", "Something else.", checks=(warn,))) is None
