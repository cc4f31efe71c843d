"""Verdicts on recorded H200 results and on synthetic bad cases (no GPU needed)."""
import json
from pathlib import Path

import pytest

from app.verify import verdicts
from app.verify.model import (Bandwidth, Compute, DeviceInfo, GpuResult, NumericCheck, Sample, TorchReport,
                              Verification)
from app.verify.session import rejudge

FIX = Path(__file__).resolve().parents[1] / "fixtures"
H200_NVML = json.loads((FIX / "real/h200/pynvml.out").read_text())["gpus"][0]


def _load(name):
    return Verification.loads((FIX / "verify" / name).read_text())


def _codes(layer):
    return {c.code for c in layer.checks}


# ---------------------------------------------------------------- ceilings

@pytest.mark.parametrize("gen,width,gbps", [
    (1, 1, 0.25), (2, 8, 4.0), (3, 16, 15.75), (4, 16, 31.51), (5, 16, 63.02), (5, 8, 31.51), (6, 16, 126.03),
])
def test_pcie_rate_per_generation_and_width(gen, width, gbps):
    assert verdicts.pcie_gbps(gen, width) == pytest.approx(gbps, abs=0.01)


def test_pcie_rate_unknown():
    assert verdicts.pcie_gbps(None, 16) is None and verdicts.pcie_gbps(5, 0) is None and verdicts.pcie_gbps(9, 16) is None


def test_memory_peak_from_the_recorded_h200_nvml_matches_its_datasheet():
    # NVML on the H200: max memory clock 3201 MHz, bus width 6016 bits; datasheet: 4.8 TB/s
    peak = verdicts.memory_peak_gbps(H200_NVML["memclkmax"], H200_NVML["buswidth"])
    assert peak == pytest.approx(4814.3, abs=0.1)
    assert abs(peak - 4800) / 4800 < 0.01
    assert verdicts.memory_peak_gbps(None, 6016) is None


@pytest.mark.parametrize("arch,cc,covered", [
    (["sm_75", "sm_80", "sm_86", "sm_90", "sm_100", "sm_120"], "9.0", True),  # the H200's torch 2.11 list
    (["sm_50", "sm_60", "sm_70", "sm_80"], "8.6", True),  # sm_80 code runs on 8.6
    (["sm_50", "sm_60", "sm_70", "sm_75", "sm_80", "sm_86", "sm_90"], "12.0", False),  # RTX 50 on an old build
    (["sm_80", "compute_90"], "12.0", True),  # PTX is compiled by the driver for newer GPUs
    (["sm_90a"], "9.0", True), (["sm_90a"], "10.0", False),
    (["sm_37", "sm_50"], "3.5", False),
    ([], "9.0", None),
])
def test_arch_list_covers_device(arch, cc, covered):
    assert verdicts.arch_covers(arch, cc) is covered


# ---------------------------------------------------------------- the recorded H200 runs

@pytest.mark.parametrize("name", ["h200_quick.json", "h200_long.json"])
def test_recorded_h200_runs_judge_the_same_again(name):
    v = _load(name)
    again = rejudge(v)
    assert [(x.name, x.status) for x in again.layers] == [(x.name, x.status) for x in v.layers]
    st = {x.name: x.status for x in again.layers}
    assert st["device"] == "pass" and st["pytorch"] == "pass" and st["load"] == "pass"
    # pageable copies run at under a third of pinned there: normal, so a pass that carries the pin_memory tip
    assert st["bandwidth"] == "pass"
    bw = again.layer("bandwidth")
    assert _codes(bw) == {"pageable_slow", "bandwidth_ok"}
    assert next(c.status for c in bw.checks if c.code == "pageable_slow") == "pass"
    assert "pin_memory=True" in next(c.hint for c in bw.checks if c.code == "pageable_slow")
    # the power limit is the default one: being held at it under load is not a warning
    assert "at_power_limit" in _codes(again.layer("load"))


def test_recorded_h200_figures_against_their_ceilings_and_references():
    v = _load("h200_long.json")
    b, c = v.bandwidth, v.compute
    assert b.pcie_theoretical_gbps == pytest.approx(63.02, abs=0.01)
    assert b.memory_theoretical_gbps == pytest.approx(4814.3, abs=0.1)
    assert b.h2d_pinned_gbps / b.pcie_theoretical_gbps > verdicts.H2D_MIN_FRACTION
    ref = [json.loads(x) for x in (FIX / "verify/h200_ref_copy.jsonl").read_text().splitlines() if '"ref"' in x][0]
    assert b.h2d_pinned_gbps >= 0.95 * ref["h2d_pinned_gbps"]
    assert b.d2d_gbps >= 0.95 * ref["d2d_gbps"]
    mm = json.loads((FIX / "verify/h200_ref_matmul.json").read_text())["matmul_best_tflops"]
    assert c.matmul_tflops["bf16"] >= 0.95 * mm["bf16"]
    assert set(c.matmul_tflops) == {"bf16", "fp16", "tf32", "fp32"}
    assert c.conv2d.channels_last_tflops > c.conv2d.nchw_tflops
    assert c.cuda_graph.graph_ms < c.cuda_graph.eager_ms
    assert all(n.ok for n in v.gpus[0].numerics) and len(v.gpus[0].numerics) == 6
    load = [s for s in v.samples if s.phase == "load"]
    utils = sorted(s.util_pct for s in load)
    assert len(load) > 100 and utils[len(utils) // 2] > 90
    assert v.sampler.rate_hz >= 10 and v.sampler.cpu_pct_of_core < 1.0


# ---------------------------------------------------------------- synthetic bad cases

def h200_device(**kw):
    base = dict(index=0, name="NVIDIA H200", nvml_index=0, compute_capability="9.0", sm_count=132, memory_total_mib=143771,
                pcie_gen_current=5, pcie_gen_max=5, pcie_width_current=16, pcie_width_max=16, mem_clock_max_mhz=3201,
                memory_bus_width_bits=6016, power_limit_w=700.0, power_default_limit_w=700.0, compute_mode="Default")
    base.update(kw)
    return DeviceInfo(**base)


def good_torch(**kw):
    base = dict(python="/venv/bin/python", installed=True, version="2.11.0+cu130", cuda="13.0", cudnn="9.19.0",
                cudnn_available=True, available=True, device_count=1, arch_list=("sm_80", "sm_90"))
    base.update(kw)
    return TorchReport(**base)


def bw(h2d=55.4, page=40.0, d2d=4260.0):
    return Bandwidth(gpu_index=0, h2d_pinned_gbps=h2d, d2h_pinned_gbps=h2d, h2d_pageable_gbps=page, d2h_pageable_gbps=page,
                     d2d_gbps=d2d, pcie_theoretical_gbps=63.02, memory_theoretical_gbps=4814.3)


def samples(phase="load", n=30, **kw):
    base = dict(util_pct=99.0, pcie_gen_current=5, pcie_width_current=16, power_w=690.0, temp_c=65.0)
    base.update(kw)
    return [Sample(t_s=i * 0.1, gpu_index=0, phase=phase, **base) for i in range(n)]


def judge(device=None, band=None, compute=None, numerics=(), torch=None, smp=()):
    g = GpuResult(index=0, device=device or h200_device(), bandwidth=band or bw(),
                  compute=compute or Compute(matmul_tflops={"bf16": 670.0}), numerics=tuple(numerics))
    _, layers = verdicts.judge([g], torch or good_torch(), list(smp))
    return {x.name: x for x in layers}


def test_a_healthy_gpu_passes_every_layer():
    L = judge(smp=samples("bandwidth") + samples("load"))
    assert {k: v.status for k, v in L.items()} == {"device": "pass", "bandwidth": "pass", "pytorch": "pass", "load": "pass"}
    assert "63.0 GB/s" in L["bandwidth"].reason and "PCIe 5.0 x16" in L["bandwidth"].reason


def test_x8_link_under_load_warns_and_explains_the_slow_h2d():
    L = judge(band=bw(h2d=26.0, page=20.0), smp=samples("bandwidth", pcie_width_current=8) + samples("load", pcie_width_current=8))
    b = L["bandwidth"]
    assert b.status == "warn"
    assert {"pcie_link_degraded", "h2d_below_link"} <= _codes(b)
    link = next(c for c in b.checks if c.code == "pcie_link_degraded")
    assert "x8 of x16" in link.message and "PCIe 5.0 x8" in link.message
    h2d = next(c for c in b.checks if c.code == "h2d_below_link")
    assert "41%" in h2d.message and "below its maximum" in h2d.message


def test_an_idle_link_trained_down_is_not_a_fault():
    # links drop to gen 1 when idle to save power: only samples taken under load count
    L = judge(smp=samples("pytorch", pcie_gen_current=1) + samples("bandwidth") + samples("load"))
    assert L["bandwidth"].status == "pass"


def test_power_cap_below_default_warns_in_device_and_load():
    L = judge(device=h200_device(power_limit_w=300.0),
              smp=samples("load", throttle_reasons=("sw_power_cap",), power_w=299.0))
    assert L["device"].status == "warn" and "power_limit_low" in _codes(L["device"])
    assert "300 W" in L["device"].reason and "700 W" in L["device"].reason
    assert L["device"].checks[0].hint == "sudo nvidia-smi -i 0 -pl 700"
    assert L["load"].status == "warn" and "power_capped" in _codes(L["load"])


def test_zero_utilization_while_work_is_submitted_fails():
    L = judge(smp=samples("load", util_pct=0.0))
    assert L["load"].status == "fail"
    assert "idle_under_load" in _codes(L["load"]) and "near 0%" in L["load"].reason


def test_thermal_throttling_warns():
    L = judge(smp=samples("load", throttle_reasons=("hw_thermal", "sw_thermal"), temp_c=92.0))
    assert L["load"].status == "warn" and "throttled_thermal" in _codes(L["load"])
    assert "92 °C" in L["load"].reason


def test_pageable_below_half_of_pinned_is_a_tip_not_a_fault():
    L = judge(band=bw(page=16.0))
    assert L["bandwidth"].status == "pass" and "pageable_slow" in _codes(L["bandwidth"])
    assert "pin_memory=True" in next(c.hint for c in L["bandwidth"].checks if c.code == "pageable_slow")


def test_pageable_far_below_pinned_warns():
    L = judge(band=bw(page=5.0))
    assert L["bandwidth"].status == "warn" and "pageable_slow" in _codes(L["bandwidth"])


def test_slow_device_memory_warns():
    L = judge(band=bw(d2d=1500.0))
    assert "d2d_below_peak" in _codes(L["bandwidth"])


def test_wrong_numerical_results_fail():
    bad = [NumericCheck(op="matmul", dtype="bf16", rel_error=0.9, tolerance=0.03, ok=False),
           NumericCheck(op="conv2d", dtype="tf32", rel_error=None, tolerance=0.005, ok=False)]
    L = judge(numerics=bad)
    p = L["pytorch"]
    assert p.status == "fail" and _codes(p) == {"numerics_wrong"}
    assert "relative error 0.9" in p.reason
    assert any("NaN" in d for d in p.details)


def test_arch_list_missing_the_device_fails():
    L = judge(device=h200_device(compute_capability="12.0", name="NVIDIA GeForce RTX 5090"),
              torch=good_torch(arch_list=("sm_50", "sm_80", "sm_90")))
    assert L["pytorch"].status == "fail" and "arch_not_covered" in _codes(L["pytorch"])
    assert "12.0" in L["pytorch"].reason


def test_compute_mode_prohibited_explains_available_but_nothing_runs():
    d = h200_device(compute_mode="Prohibited", error="RuntimeError: CUDA error: all CUDA-capable devices are busy or unavailable")
    L = judge(device=d)
    assert L["device"].status == "fail"
    c = L["device"].checks[0]
    assert c.code == "compute_prohibited" and "no program may run" in c.message and c.hint == "sudo nvidia-smi -i 0 -c DEFAULT"


def test_torch_missing_cpu_build_and_unavailable_fail_with_the_fix():
    L = judge(torch=TorchReport(python="/v/bin/python", installed=False, fix_command="/v/bin/python -m pip install torch"))
    assert L["pytorch"].status == "fail" and "Install it with: /v/bin/python -m pip install torch" in L["pytorch"].reason
    L = judge(torch=good_torch(cuda=None, version="2.13.0+cpu", fix_command="x"))
    assert _codes(L["pytorch"]) == {"torch_cpu_build"} and "CPU-only" in L["pytorch"].reason
    L = judge(torch=good_torch(available=False, error="The NVIDIA driver on your system is too old (found version 11040)."))
    assert _codes(L["pytorch"]) == {"cuda_unavailable"} and "too old" in L["pytorch"].reason


def test_load_errors_fail():
    L = judge(compute=Compute(errors=("bf16 matrix products: OutOfMemoryError: CUDA out of memory",)))
    assert L["load"].status == "fail" and "out of memory" in L["load"].reason


def test_every_gpu_is_judged_and_the_worst_wins():
    g0 = GpuResult(index=0, device=h200_device(), bandwidth=bw(), compute=Compute(matmul_tflops={"bf16": 670.0}))
    g1 = GpuResult(index=1, device=h200_device(index=1, nvml_index=1, power_limit_w=350.0), bandwidth=bw(),
                   compute=Compute(gpu_index=1, matmul_tflops={"bf16": 400.0}))
    judged, layers = verdicts.judge([g0, g1], good_torch(device_count=2), [])
    assert [x.layers[0].status for x in judged] == ["pass", "warn"]
    dev = layers[0]
    assert dev.status == "warn" and "GPU 1" in dev.reason
    assert {c.gpu_index for c in dev.checks} == {0, 1}


def test_no_gpu_every_layer_skips_with_a_reason():
    layers = verdicts.no_gpu_layers("No NVIDIA GPU found", TorchReport(installed=True, version="2.13.0+cpu", cuda=None))
    assert [x.status for x in layers] == ["skip"] * 4
    assert all(x.reason for x in layers) and "CPU-only" in layers[2].reason
