"""Low GPU utilization: the five dimensions against sampler-shaped measurements. The dmon rows are
real (tests/fixtures/errors/util_dmon_deepspeech.txt, source on its first line); the series below
are built to exercise one dimension each."""
from pathlib import Path

from app.diagnose import analyze_utilization, diagnose
from app.diagnose.utilization import parse_dmon
from app.facts import Facts, Gpu

DMON = (Path(__file__).resolve().parent.parent / "fixtures" / "errors" / "util_dmon_deepspeech.txt").read_text()


def status(a, name):
    return next(d.status for d in a.dimensions if d.name == name)


def test_parse_real_dmon_output():
    rows = parse_dmon(DMON)
    assert [r["gpu_index"] for r in rows] == [0, 1, 2, 3]
    assert rows[0]["util_pct"] == 25 and rows[0]["power_w"] == 111 and rows[0]["sm_clock_mhz"] == 1683
    assert rows[3]["mem_util_pct"] == 6 and rows[3]["throttle_reasons"] == []
    a = analyze_utilization(rows, gpu_index=0)
    assert a.util_mean_pct == 25
    assert status(a, "data_loading") in ("likely", "possible")
    assert status(a, "memory_bound") == "unlikely"  # 7% memory-controller util


def _series(util, power=None, limit=300.0, mem=None, reasons=None, clock=1800):
    out = []
    for i, u in enumerate(util):
        out.append({"t_s": i * 0.1, "gpu_index": 0, "util_pct": u, "power_w": (power[i] if power else 40 + 2.5 * u),
                    "power_limit_w": limit, "mem_util_pct": (mem[i] if mem else u * 0.3), "sm_clock_mhz": clock,
                    "throttle_reasons": list(reasons[i]) if reasons else []})
    return out


def test_bursty_utilization_points_at_data_loading():
    util = [95, 97, 2, 1, 0, 96, 94, 3, 0, 1] * 6
    a = analyze_utilization(_series(util))
    assert a.dimensions[0].name == "data_loading" and a.dimensions[0].status == "likely"
    assert "num_workers" in a.dimensions[0].fix


def test_steady_middle_with_item_calls_points_at_sync():
    util = [52, 55, 50, 53, 51, 54, 50, 52] * 8
    a = analyze_utilization(_series(util), text="for x, y in loader:\n    loss = step(x, y)\n    print(loss.item())")
    assert status(a, "host_device_sync") == "likely"


def test_busy_flag_with_low_power_points_at_launch_overhead():
    util = [92, 95, 93, 94] * 10
    a = analyze_utilization(_series(util, power=[80.0] * 40, limit=350.0))
    assert status(a, "launch_overhead") == "likely"
    assert "CUDA graphs" in next(d.fix for d in a.dimensions if d.name == "launch_overhead")


def test_memory_controller_busy_points_at_memory_bound():
    util = [70] * 30
    a = analyze_utilization(_series(util, mem=[78] * 30, power=[220.0] * 30, limit=350.0), text="nn.Conv2d on NCHW float32")
    assert status(a, "memory_bound") == "likely"
    assert "channels_last" in next(d.fix for d in a.dimensions if d.name == "memory_bound")


def test_power_cap_and_lowered_limit_points_at_power():
    util = [99] * 40
    reasons = [("sw_power_cap",)] * 30 + [()] * 10
    facts = Facts(gpus=(Gpu(index=0, name="NVIDIA GeForce RTX 4090", power_default_limit_w=450.0, sm_clock_max_mhz=2520),))
    a = analyze_utilization(_series(util, power=[300.0] * 40, limit=300.0, reasons=reasons, clock=1500), facts=facts)
    assert a.dimensions[0].name == "power_clock_limits" and a.dimensions[0].status == "likely"
    ev = " ".join(a.dimensions[0].evidence)
    assert "300 W is below the default 450 W" in ev and "power-capped" in ev


def test_full_utilization_says_so():
    a = analyze_utilization(_series([99] * 50, power=[440.0] * 50, limit=450.0, mem=[30] * 50))
    assert "nothing holds the GPU back" in a.summary


def test_verification_sample_values_are_accepted():
    from app.verify.model import Sample

    samples = [Sample(t_s=i * 0.1, gpu_index=0, util_pct=float(u), power_w=60.0, power_limit_w=300.0, mem_util_pct=5.0)
               for i, u in enumerate([90, 0, 0, 95, 0, 1, 92, 0] * 5)]
    d = diagnose("", samples=samples)
    assert d.matches == () and d.utilization is not None
    assert d.utilization.samples == 40 and d.utilization.dimensions[0].status == "likely"


def test_no_figures():
    a = analyze_utilization([{"gpu_index": 0}])
    assert a.dimensions == () and "No utilization" in a.summary


def test_pasted_dmon_table_gets_the_analysis():
    d = diagnose(DMON.partition("\n")[2])
    assert d.matches == () and d.utilization is not None and d.utilization.samples == 1  # GPU 0's row


VERIFY = Path(__file__).resolve().parent.parent / "fixtures" / "verify"


def test_real_h200_stress_run_is_at_full_speed():
    """809 NVML samples recorded on a real H200 during `verify --seconds 10` (tests/fixtures/verify):
    under load it sits at its power cap, which is the default 700 W: that is full speed, not a limit."""
    import json

    v = json.loads((VERIFY / "h200_long.json").read_text())
    a = analyze_utilization(v)
    assert a.samples == 809 and a.util_median_pct >= 90
    power = next(d for d in a.dimensions if d.name == "power_clock_limits")
    assert power.status == "unlikely"
    assert any("default 700 W" in e and "rated power" in e for e in power.evidence)
    assert "nothing holds the GPU back" in a.summary
    # the same samples with a lowered limit on record are a real limit
    lowered = [dict(s, power_limit_w=450.0) for s in v["samples"]]
    facts = Facts(gpus=(Gpu(index=0, name="NVIDIA H200", power_default_limit_w=700.0, sm_clock_max_mhz=1980),))
    b = analyze_utilization(lowered, facts=facts)
    assert b.dimensions[0].name == "power_clock_limits" and b.dimensions[0].status == "likely"


def test_verification_value_is_accepted():
    from app.verify.model import Verification

    v = Verification.loads((VERIFY / "h200_quick.json").read_text())
    a = analyze_utilization(v)
    assert a.samples == len(v.samples) > 0 and a.dimensions
