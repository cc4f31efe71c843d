"""The burn-in without a broken GPU: every watched signal (an Xid through NVML's events and through the
kernel log, an ECC delta, row remapping, a PCIe replay, a thermal throttle reason, the power brake, a link
that trains down, a result mismatch, a memory-test error) driven through a scripted NVML and a fake
probe, each checked in the verdict (and on the time axis: events); a cancel leaves a valid partial
result; the real H200 recording judges the same way again."""
from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from app.verify import burn_verdicts as BV
from app.verify.burnin import BurnTracker, DurationError, parse_duration
from app.verify.health import bus_key, check_field_ids, parse_kmsg_xid
from app.verify.model import Sample, Verification
from app.verify.session import VerifyOptions, VerifyRun, rejudge
from app.verify.verdicts import check_text
from tests.unit.burn_fakes import ScriptedNvml, fake_probe, nvml_facts, phase_events, when

FIX = Path(__file__).resolve().parent.parent / "fixtures" / "verify"
PHASES = [("memtest", 0.4), ("matmul_bf16", 0.8), ("matmul_fp32", 0.4), ("membw", 0.4)]


@pytest.mark.parametrize("text,want", [("10m", 600), ("2h", 7200), ("90s", 90), ("90", 90), ("1.5h", 5400),
                                       (" 5 min ", 300), ("30 seconds", 30), ("72h", 259200)])
def test_durations(text, want):
    assert parse_duration(text) == want


@pytest.mark.parametrize("text", ["", "m", "10x", "0", "-5m", "73h", "1e3", "ten minutes"])
def test_bad_durations_say_what_to_give(text):
    with pytest.raises(DurationError, match="10m|72 h"):
        parse_duration(text)


def test_field_ids_are_nvml_s_own():
    pynvml = pytest.importorskip("pynvml")
    assert check_field_ids(pynvml) == []


def test_kernel_log_xid_lines():
    # the driver's own format (NVIDIA's Xid documentation), as /dev/kmsg carries it after its "pri,seq,ts,-;" head
    line = "3,1754,9123456789,-;NVRM: Xid (PCI:0000:3b:00): 79, pid=2201, name=python3, GPU has fallen off the bus."
    assert parse_kmsg_xid(line) == ("0000:3b:00", 79, "pid=2201, name=python3, GPU has fallen off the bus.")
    assert parse_kmsg_xid("NVRM: Xid (PCI:0000:1a:00): 48, pid=1, DBE (0x1,0x2)")[1] == 48
    assert parse_kmsg_xid("usb 1-1: new device") is None
    assert bus_key("00000000:3B:00.0") == bus_key("0000:3b:00") == "3b:00"


def run(tmp_path, events, *, gpus=1, nvml=None, during=None, kmsg=None, hang=False, cancel_after=None):
    """A VerifyRun with a burn-in through the fake probe and the scripted NVML; `during(nvml, run)` acts
    while it runs (changes the GPU's answers)."""
    nv = nvml or ScriptedNvml(gpus)
    py = fake_probe(tmp_path, events, gpus=gpus, hang=hang)
    kpath = str(kmsg or tmp_path / "kmsg")
    if kmsg is None:
        Path(kpath).write_text("")
    r = VerifyRun(VerifyOptions(python=py, burn_in_s=2.0, kmsg_path=kpath), nvml_reader=lambda: nvml_facts(gpus), nvml_module=nv)
    r.start()
    if during is not None:
        during(nv, r)
    if cancel_after is not None:
        time.sleep(cancel_after)
        r.cancel()
    v = r.wait(60)
    assert v is not None
    return v


def burn_checks(v: Verification) -> dict[str, object]:
    layer = v.layer("burnin")
    assert layer is not None
    return {c.code: c for c in layer.checks}


def test_a_healthy_gpu_held_its_cap_in_plain_words(tmp_path):
    v = run(tmp_path, phase_events(PHASES))
    b = v.burn_in
    assert b is not None and [p.phase for p in b.phases] == [p for p, _s in PHASES]
    checks = burn_checks(v)
    assert v.layer("burnin").status == "pass"
    ok = checks["burn_ok"]
    assert "held 1,980 MHz at its 700 W power cap for" in ok.message and ok.message.endswith(": normal.")
    assert "bf16 650.0/989.5 TFLOP/s (66%)" in checks["burn_rates"].message
    assert "slowdown at 89 °C, shutdown at 95 °C" in checks["burn_heat"].message
    assert "none wrong" in checks["burn_checked"].message
    zh = check_text(ok, "zh_CN")
    assert "700 W" in zh and "1,980 MHz" in zh and "正常" in zh
    assert b.gpus[0].temp_slowdown_c == 89 and b.xid_source == "nvml_events"
    assert Verification.loads(v.dumps()) == v  # the whole result round-trips


def test_a_result_mismatch_fails_with_its_time(tmp_path):
    v = run(tmp_path, phase_events(PHASES, mismatch_in="matmul_bf16"))
    c = burn_checks(v)["burn_mismatch"]
    assert c.status == "fail" and v.layer("burnin").status == "fail"
    assert "12 result mismatches in matmul_bf16 (in 1 of the checks)" in c.message and "the GPU computes wrong under load" in c.message
    ev = next(e for e in v.burn_in.events if e.kind == "mismatch")
    span = next(p for p in v.burn_in.phases if p.phase == "matmul_bf16")
    assert span.t0_s <= ev.t_s <= span.t1_s + 0.2  # marked inside its phase on the time axis
    assert c.params["when"] in c.message and "burn_ok" not in burn_checks(v)
    assert v.burn_in.gpus[0].mismatches == 12


def _later(fn, delay=0.6):
    def during(nv, r):
        when(lambda: r.burn is not None and r.burn.phase is not None)
        time.sleep(delay)
        fn(nv)
    return during


def test_an_xid_through_nvml_events_fails(tmp_path):
    v = run(tmp_path, phase_events(PHASES), during=_later(lambda nv: nv.xid(0, 79)))
    c = burn_checks(v)["burn_xid"]
    assert c.status == "fail" and "Xid 79" in c.message and "fallen off the bus" in c.message
    assert "从总线上掉线" in check_text(c, "zh_CN")
    assert any(e.kind == "xid" and e.value == 79 for e in v.burn_in.events)


def test_an_xid_from_the_kernel_log_where_events_do_not_work(tmp_path):
    kmsg = tmp_path / "kmsg"
    kmsg.write_text("6,1,1,-;NVRM: Xid (PCI:0000:18:00): 31, pid=9, old line from before the run\n")

    def later(nv):
        with open(kmsg, "a") as f:
            f.write("3,1754,9123456789,-;NVRM: Xid (PCI:0000:18:00): 48, pid=2201, name=python3, DBE (0x0,0x1)\n")
    v = run(tmp_path, phase_events(PHASES), nvml=ScriptedNvml(1, events=False), kmsg=kmsg, during=_later(later))
    assert v.burn_in.xid_source == "kernel_log" and "NOT_SUPPORTED" in v.burn_in.xid_note
    xids = [c for c in v.layer("burnin").checks if c.code == "burn_xid"]
    assert [c.params["xid"] for c in xids] == ["48"]  # not the line from before the run
    assert xids[0].status == "fail" and "DBE" in xids[0].message


def test_no_xid_source_is_said(tmp_path):
    v = run(tmp_path, phase_events(PHASES), nvml=ScriptedNvml(1, events=False), kmsg=tmp_path / "no-such-kmsg")
    c = burn_checks(v)["burn_xid_unwatched"]
    assert c.status == "skip" and "no-such-kmsg" in c.message and v.layer("burnin").status == "pass"


@pytest.mark.parametrize("change,code,status", [
    (dict(ecc_uncorrected=2), "burn_ecc_uncorrected", "fail"),
    (dict(ecc_corrected=5), "burn_ecc_corrected", "warn"),
    (dict(remapped_cor=1), "burn_remap", "warn"),
    (dict(remap_failure=1), "burn_remap_failure", "fail"),
    (dict(pcie_replay=40), "burn_pcie_replay", "warn"),
    (dict(reasons=0x4 | 0x20, temp=88), "burn_thermal", "warn"),
    (dict(reasons=0x80), "burn_power_brake", "warn"),
    (dict(width=8), "burn_link_drop", "warn"),
])
def test_each_watched_signal_is_a_verdict(tmp_path, change, code, status):
    v = run(tmp_path, phase_events(PHASES), during=_later(lambda nv: nv.set(0, **change)))
    checks = burn_checks(v)
    assert code in checks, sorted(checks)
    c = checks[code]
    assert c.status == status and v.layer("burnin").status == status
    assert "burn_ok" not in checks and "burn_rates" in checks  # the figures stay beside the fault
    zh = check_text(c, "zh_CN")
    assert zh != c.message and all(v in zh for k, v in c.params.items() if k in ("count", "when", "temp"))
    kind = {"burn_ecc_uncorrected": "ecc_uncorrected", "burn_ecc_corrected": "ecc_corrected", "burn_remap": "remap",
            "burn_remap_failure": "remap_failure", "burn_pcie_replay": "pcie_replay", "burn_thermal": "thermal",
            "burn_power_brake": "power_brake", "burn_link_drop": "link_drop"}[code]
    assert any(e.kind == kind for e in v.burn_in.events)  # on the time axis


def test_counters_held_against_their_first_reading(tmp_path):
    nv = ScriptedNvml(1)
    nv.set(0, ecc_corrected=1000, pcie_replay=77)  # what the GPU had before this run is not its fault
    v = run(tmp_path, phase_events(PHASES), nvml=nv)
    assert v.layer("burnin").status == "pass"
    assert v.burn_in.gpus[0].counters["ecc_corrected"] == [1000, 1000]


def test_a_cancel_leaves_a_valid_partial_result(tmp_path):
    v = run(tmp_path, phase_events([("memtest", 0.3), ("matmul_bf16", 30.0)]), hang=True, cancel_after=2.0)
    b = v.burn_in
    assert v.cancelled and b is not None and b.cancelled
    assert [p.phase for p in b.phases] == ["memtest", "matmul_bf16"]
    c = burn_checks(v)["burn_cancelled"]
    assert c.status == "skip" and "stopped after" in c.message
    again = Verification.loads(v.dumps())
    assert again == v and rejudge(again).layer("burnin") is not None
    from app.report import build_report
    from app.report.render_html import render_html

    html = render_html(build_report(verification=v, redact=False, live=False))
    assert "burn" in html.lower()


def test_two_gpus_side_by_side_and_their_links(tmp_path):
    ev = phase_events(PHASES, gpus=2)
    pairs = [{"src": a, "dst": b, "gbps": 380.0, "bidir_gbps": 700.0, "latency_us": 9.5, "peer": True, "ok": True}
             for a, b in ((0, 1), (1, 0))]
    ev.insert(1, (0.0, {"event": "result", "kind": "p2p", "data": pairs}))
    ev.insert(2, (0.0, {"event": "result", "kind": "allreduce", "data": {"gpus": 2, "size_mib": 512, "backend": "nccl",
                                                                          "algbw_gbps": 340.0, "busbw_gbps": 340.0, "ok": True}}))
    v = run(tmp_path, ev, gpus=2)
    b = v.burn_in
    assert [g.index for g in b.gpus] == [0, 1]
    oks = [c for c in v.layer("burnin").checks if c.code == "burn_ok"]
    assert [c.gpu_index for c in oks] == [0, 1]
    inter = v.layer("interconnect")
    assert inter is not None and inter.status == "pass"
    p2p = [c for c in inter.checks if c.code == "p2p_pair"]
    assert len(p2p) == 2 and "380.0 GB/s one way" in p2p[0].message
    ar = next(c for c in inter.checks if c.code == "allreduce")
    assert "340.0 GB/s bus bandwidth" in ar.message


def test_pair_ceilings_from_the_topology():
    from app.verify.topology import pair_link

    assert pair_link(0, 1, 0, 0, 18, "9.0", (5, 16), (5, 16)).ceiling_gbps == 450.0  # NVSwitch, 18 links
    direct = pair_link(0, 1, 0, 12, 0, "8.0", (4, 16), (4, 16))
    assert direct.ceiling_gbps == 300.0 and direct.link == "NVLink x12"
    pcie = pair_link(0, 1, 30, 0, 0, "8.9", (4, 16), (4, 8))
    assert pcie.ceiling_gbps == 15.75 and pcie.link == "PCIe 4.0 x8" and pcie.topology == "host_bridge"


def test_interconnect_verdicts_against_ceilings():
    from app.verify.model import AllReduce, BurnGpu, BurnIn, P2PPair

    b = BurnIn(gpus=(BurnGpu(index=0), BurnGpu(index=1)),
               p2p=(P2PPair(src=0, dst=1, gbps=100.0, bidir_gbps=150.0, latency_us=12.0, peer=True, ok=True,
                            link="NVLink x18 (NVSwitch)", ceiling_gbps=450.0),
                    P2PPair(src=1, dst=0, gbps=20.0, bidir_gbps=30.0, latency_us=30.0, peer=False, ok=False)),
               allreduce=AllReduce(gpus=2, size_mib=512, busbw_gbps=360.0, ok=True, backend="nccl", ceiling_gbps=450.0))
    cs = {(c.code, c.params.get("src")): c for c in BV.interconnect_checks(b)}
    slow = cs[("p2p_pair", "0")]
    assert slow.status == "warn" and "only 100.0 GB/s" in slow.message and "22% of its 450.0 GB/s" in slow.message
    assert cs[("p2p_corrupt", "1")].status == "fail"
    ar = cs[("allreduce", None)]
    assert ar.status == "pass" and "80% of the 450.0 GB/s link" in ar.message


def test_the_real_h200_recording_judges_the_same_again():
    v = Verification.loads((FIX / "h200_burnin45.json").read_text(encoding="utf-8"))
    again = rejudge(v)
    assert [x.name for x in again.layers] == [x.name for x in v.layers] == ["device", "bandwidth", "pytorch", "load", "burnin"]
    g = again.burn_in.gpus[0]
    assert g.tflops["bf16"] == pytest.approx(650.26) and g.memtest_share == pytest.approx(0.937)
    assert g.checks > 1000 and g.mismatches == 0 and again.burn_in.xid_source == "nvml_events"
    rates = next(c for c in again.layer("burnin").checks if c.code == "burn_rates")
    assert "fp8 1,182.2/1,979.0 TFLOP/s (60%)" in rates.message
    ref = next(json.loads(x) for x in (FIX / "h200_burn_ref.jsonl").read_text().splitlines() if x.startswith('{"ref"'))
    for dt in ("bf16", "fp16", "tf32", "fp32"):  # the burn-in's rates within 5% of cuBLAS held alike
        assert abs(g.tflops[dt] - ref["tflops"][dt]) / ref["tflops"][dt] < 0.05


def test_the_sampled_h200_burn_in_holds_against_its_own_reference():
    """The 90 s H200 burn-in with the fixed sampler (bench/h200_last_call.sh): 10 Hz samples through the whole
    run, its clock, power and heat read; judged again the same; its rates within 5% of the same run's
    cuBLAS and torch._scaled_mm references, never above the datasheet."""
    v = Verification.loads((FIX / "h200_burnin90.json").read_text(encoding="utf-8"))
    again = rejudge(v)
    assert [(c.code, c.status) for c in again.layer("burnin").checks] == [(c.code, c.status) for c in v.layer("burnin").checks]
    assert len(v.samples) > 1000 and {s.phase for s in v.samples} >= {"memtest", "matmul_bf16", "membw"}
    g = again.burn_in.gpus[0]
    assert g.sm_clock_median_mhz == pytest.approx(1455.0) and 600 < g.power_median_w <= g.power_max_w < 720
    assert g.temp_max_c and g.temp_max_c < g.temp_slowdown_c and g.mismatches == 0 and g.checks > 1000
    texts = [check_text(c, lang) for c in again.layer("burnin").checks for lang in ("en", "zh_CN")]
    assert not any("?" in t for t in texts) and any("held 1,455 MHz at its 700 W power cap" in t for t in texts), texts
    refs = [json.loads(x) for x in (FIX / "h200_burnin90_ref.jsonl").read_text().splitlines() if x.startswith('{"ref"')]
    ref = {**refs[0]["tflops"], "fp8": next(r for r in refs if r["ref"] == "torch_fp8_ref")["tflops"]["fp8"]}
    for dt, want in ref.items():
        assert abs(g.tflops[dt] - want) / want < 0.05, (dt, g.tflops[dt], want)
        assert g.tflops[dt] < g.peak_tflops[dt]
    assert abs(g.mem_gbps - refs[0]["triad_gbps"]) / refs[0]["triad_gbps"] < 0.1 and g.mem_gbps < g.peak_mem_gbps


def test_the_ten_minute_h200_burn_in_holds_against_its_own_reference():
    """The 10-minute H200 burn-in (bench/bench_burnin_device.sh start 10m, then finish): 10 Hz samples for the
    whole run at under 1% of a core, every phase there, the verdict in words judged again the same, no fault, and
    every rate within 5% of the same run's cuBLAS and full-grid triad references (never above the datasheet)."""
    import gzip

    v = Verification.loads(gzip.decompress((FIX / "h200_burnin600.json.gz").read_bytes()).decode("utf-8"))
    again = rejudge(v)
    assert [(c.code, c.status) for c in again.layer("burnin").checks] == [(c.code, c.status) for c in v.layer("burnin").checks]
    assert v.status == "pass" and v.burn_in.ran_s >= 600 and not v.burn_in.cancelled
    assert [p.phase for p in v.burn_in.phases] == ["memtest", "matmul_fp8", "matmul_bf16", "matmul_fp16", "matmul_tf32",
                                                   "matmul_fp32", "membw"]
    assert len(v.samples) > 5900 and v.sampler.rate_hz > 9.5 and v.sampler.cpu_pct_of_core < 1.0
    g = again.burn_in.gpus[0]
    assert g.load_s >= 600 and g.mismatches == 0 and g.checks > 10000 and g.memtest_errors == 0 and g.memtest_passes > 100
    assert g.temp_max_c < g.temp_slowdown_c and g.power_max_w < 1.02 * g.power_limit_w
    texts = [check_text(c, lang) for c in again.layer("burnin").checks for lang in ("en", "zh_CN")]
    assert any("held 1,455 MHz at its 700 W power cap for 10 min: normal" in t for t in texts), texts
    assert any("10 min" in t and "正常" in t for t in texts), texts
    ref = next(json.loads(x) for x in (FIX / "h200_burnin600_ref.jsonl").read_text().splitlines() if x.startswith('{"ref"'))
    for dt, want in ref["tflops"].items():
        assert abs(g.tflops[dt] - want) / want < 0.05 and g.tflops[dt] < g.peak_tflops[dt], (dt, g.tflops[dt], want)
    for mine, want in ((g.mem_gbps, ref["triad_gbps"]), (g.mem_copy_gbps, ref["copy_gbps"])):
        assert abs(mine - want) / want < 0.05 and mine < g.peak_mem_gbps, (mine, want)


def test_the_report_draws_one_line_for_peaks_alike():
    from app.report.burn_html import burn_html

    html = burn_html(Verification.loads((FIX / "h200_burnin90.json").read_text(encoding="utf-8")).to_json())
    assert "bf16, fp16 datasheet" in html and "fp8 datasheet" in html  # bf16 and fp16 share 989.5: one label


def test_tracker_keeps_counters_through_thinning():
    t = BurnTracker(60)
    t.on_event({"event": "burn", "kind": "phase", "phase": "matmul_bf16", "seconds": 60}, 0.0)
    for k in range(50):
        t.on_sample(Sample(t_s=k * 0.1, gpu_index=0, phase="matmul_bf16", ecc_corrected=k // 10, throttle_reasons=("sw_power_cap",)))
    evs = [e for e in t.events if e.kind == "ecc_corrected"]
    assert [e.t_s for e in evs] == [1.0, 2.0, 3.0, 4.0] and all(e.count == 1 for e in evs)
    assert t._watch[0].throttle_s["sw_power_cap"] == pytest.approx(4.9)


def test_the_report_draws_phases_thresholds_peaks_and_faults():
    import re

    from app.report.burn_html import burn_charts, burn_html
    from app.report.words import LANG

    v = Verification.loads((FIX / "demo_burnin_2gpu.json").read_text(encoding="utf-8")).to_json()
    charts = {re.search(r"data-metric='(\w+)'", c).group(1): c for c in burn_charts(v)}
    assert set(charts) == {"burn_clock", "burn_temp", "burn_power", "burn_util", "burn_tflops", "burn_membw"}
    phases = [p["phase"] for p in v["burn_in"]["phases"]]
    for svg in charts.values():
        assert re.findall(r"data-phase='(\w+)'", svg) == phases  # every phase shaded, in order
        assert "data-severity='fail'" in svg  # the mismatch, on every chart's time axis
    mismatch = next(e for e in v["burn_in"]["events"] if e["kind"] == "mismatch")
    assert f"data-t='{mismatch['t_s']:g}' data-severity='fail'" in charts["burn_temp"]
    assert sorted(re.findall(r"class='limit'[^>]*data-value='([\d.]+)'", charts["burn_temp"])) == ["89", "95"]
    ys = [float(y) for y in re.findall(r"<text x='[\d.]+' y='([\d.]+)'[^>]*fill='#c2410c'>", charts["burn_temp"])]
    assert len(ys) == 2 and abs(ys[0] - ys[1]) >= 13  # 89 and 95 °C sit 6 px apart: their labels do not overlap
    assert "data-value='989.5'" in charts["burn_tflops"] and "data-value='4800'" in charts["burn_membw"]
    assert "data-value='700'" in charts["burn_power"] and charts["burn_clock"].count("class='series'") == 2  # side by side
    tok = LANG.set("zh_CN")
    try:
        zh = burn_html(v)
    finally:
        LANG.reset(tok)
    assert "烤机" in zh and "GPU 之间" in zh and "data-status='fail'" in zh and zh.count("class='card burn-gpu'") == 2


def test_a_burn_in_without_samples_says_so():
    from app.report.burn_html import burn_html

    v = rejudge(Verification.loads((FIX / "h200_burnin45.json").read_text(encoding="utf-8")))
    ok = next(c for c in v.layer("burnin").checks if c.code == "burn_ok")
    assert ok.params["text_code"] == "burn_ok_unsampled_why" and "?" not in ok.message
    assert "were not sampled (the NVML sampler took no sample)" in ok.message
    html = burn_html(v.to_json())
    assert "No NVML samples" in html and "data-metric='burn_tflops'" in html and "data-metric='burn_clock'" not in html


def test_no_verdict_shows_a_question_mark_for_a_figure_not_measured():
    """Every burn-in sentence with its figures missing one by one (no power, no clock top, no memory rate or
    peak, no thresholds, no pattern, no phase, no latency, ...): what was not measured is said in words."""
    from app.verify.model import AllReduce, BurnEvent, BurnGpu, BurnIn, P2PPair

    full = dict(index=0, name="NVIDIA H200", load_s=60.0, power_limit_w=700.0, sm_clock_max_mhz=1980, temp_slowdown_c=89.0,
                temp_shutdown_c=95.0, peak_tflops={"bf16": 989.5}, peak_mem_gbps=4800.0, sm_clock_median_mhz=1755.0,
                power_median_w=650.0, power_max_w=690.0, util_median_pct=99.0, temp_max_c=70.0, tflops={"bf16": 650.0},
                mem_gbps=4000.0, checks=100, watched={"xid": "yes", "ecc_uncorrected": "not read", "pcie_replay": "yes",
                                                      "remapped_unc": "not read", "retired_pages": "not read"})
    optional = ("power_limit_w", "sm_clock_max_mhz", "temp_slowdown_c", "temp_shutdown_c", "peak_mem_gbps", "sm_clock_median_mhz",
                "power_median_w", "power_max_w", "mem_gbps", "temp_max_c")
    events = (BurnEvent(t_s=20.0, kind="memtest", gpu_index=0, count=3, value=None, detail=""),
              BurnEvent(t_s=21.0, kind="error", gpu_index=0, phase=None, detail=""),
              BurnEvent(t_s=22.0, kind="thermal", gpu_index=0, value=None))
    pairs = (P2PPair(src=0, dst=1), P2PPair(src=1, dst=0, gbps=300.0), P2PPair(src=1, dst=0, gbps=30.0, ceiling_gbps=450.0, link="NVLink"))
    seen = 0
    for drop in (None,) + optional + ("tflops", "peak_tflops"):
        g = BurnGpu(**{**full, **({drop: {} if drop in ("tflops", "peak_tflops") else None} if drop else {})})
        g = g.replace(throttle_s={"sw_thermal": 30.0}, first_thermal_t_s=22.0) if drop == "temp_max_c" else g
        b = BurnIn(seconds=60, ran_s=60, gpus=(g, g.replace(index=1)), events=events, p2p=pairs, xid_source="",
                   allreduce=AllReduce(gpus=2, busbw_gbps=300.0, backend="nccl"))
        for layer in BV.burn_layers(b):
            for c in layer.checks:
                for lang in ("en", "zh_CN"):
                    text = check_text(c, lang)
                    seen += 1
                    assert "?" not in text and "None" not in text and "{" not in text, (drop, c.code, lang, text)
    assert seen > 200
    b = BurnIn(seconds=60, ran_s=60, gpus=(BurnGpu(**{**full, "power_median_w": None}),))
    ok = next(c for c in BV.burn_layers(b)[0].checks if c.code == "burn_ok")
    assert ok.message.endswith("for 1 min (its power draw was not measured): normal.") and "功耗未测得" in check_text(ok, "zh_CN")


def test_the_recorded_h200_run_without_samples_says_what_was_not_read():
    """The first H200 burn-in lost its sampler at the first tick: judged again it says its clocks, heat, power
    and counters were not read, never that the GPU lacks the counters nor "held ? MHz"."""
    v = rejudge(Verification.loads((FIX / "h200_burnin45.json").read_text(encoding="utf-8")))
    texts = [check_text(c, lang) for c in v.layer("burnin").checks for lang in ("en", "zh_CN")]
    assert not any("?" in t for t in texts) and not any("reports no" in t or "不提供" in t for t in texts), texts
    assert any("its ECC error counter was not read" in t for t in texts)
