"""Burn-in verdicts: pure functions from a `BurnIn` (app.verify.model) to checks in plain words, each
with its figures beside the GPU's own ceilings (catalogue "check.burn_*", "check.p2p_*",
"check.allreduce_*"; English and 简体中文 from one template each).

Per GPU, the worst first: wrong results (a mismatch against the reference, a memory word read back
wrong) and uncorrectable ECC errors fail; an Xid fails unless it is one programs cause (13, 31, 43, 45);
corrected ECC errors, remapped rows, retired pages, PCIe replays, a link that trained down, thermal
slowdown, the hardware power brake, a temperature near the slowdown threshold and a rate far under
the datasheet warn. A GPU with none of these passes: "held 1,980 MHz at its 700 W cap for 10 min:
normal", with its rates, heat and checks beside its ceilings.
"""
from __future__ import annotations

import datetime as _dt
from typing import Optional, Sequence

from app.verify.model import BurnEvent, BurnGpu, BurnIn, Check, Layer
from app.verify.verdicts import _check, _fmt, _pct, layer_from_checks

HOT_MARGIN_C = 5.0  # this close to the slowdown threshold warns
THERMAL_MIN_S = 5.0  # thermal slowdown for at least this long (or 2% of the load) counts
SLOW_SHARE = 0.40  # a precision under this share of its datasheet peak warns
P2P_MIN_SHARE = 0.50  # a pair (or the all-reduce) under this share of its link's ceiling warns
PROGRAM_XIDS = {13, 31, 43, 45}  # raised by what a program did (or by its being killed): warn
KNOWN_XIDS = {13, 31, 43, 45, 48, 61, 62, 63, 64, 69, 74, 79, 92, 94, 95, 119, 120, 154}
COUNTER_CODES = {"ecc_uncorrected": ("burn_ecc_uncorrected", "fail"), "ecc_corrected": ("burn_ecc_corrected", "warn"),
                 "remap": ("burn_remap", "warn"),
                 "retired_pages": ("burn_retired", "warn"), "pcie_replay": ("burn_pcie_replay", "warn")}


FAULT_KINDS = {"mismatch", "memtest", "ecc_uncorrected", "remap_failure", "error"}


def event_severity(kind: str, value: Optional[float] = None) -> str:
    """An event on the time axis: "fail" for a fault (wrong results, uncorrectable errors, an Xid no
    program causes), "warn" for a sign of trouble."""
    if kind in FAULT_KINDS or (kind == "xid" and int(value or 0) not in PROGRAM_XIDS):
        return "fail"
    return "warn"


# ---------------------------------------------------------------- how figures are said

def duration(seconds: Optional[float]) -> str:
    """600 -> '10 min', 372 -> '6 min 12 s', 45 -> '45 s', 5400 -> '1 h 30 min' (unit symbols: the same in
    every language)."""
    s = int(round(seconds or 0))
    h, rem = divmod(s, 3600)
    m, sec = divmod(rem, 60)
    if h:
        return f"{h} h" + (f" {m} min" if m else "")
    if m:
        return f"{m} min" + (f" {sec} s" if sec and m < 10 else "")
    return f"{sec} s"


def clock_time(started: Optional[str], t_s: float) -> str:
    """The wall-clock time (HH:MM:SS, the recording's own time zone) t_s seconds after `started`;
    without a start, the time into the run ('+6 min 12 s')."""
    try:
        t0 = _dt.datetime.fromisoformat(str(started))
    except (TypeError, ValueError):
        return "+" + duration(t_s)
    return (t0 + _dt.timedelta(seconds=t_s)).strftime("%H:%M:%S")


def _name(g: BurnGpu) -> str:
    return f"GPU {g.index} ({g.name})" if g.name else f"GPU {g.index}"


def _mine(b: BurnIn, g: BurnGpu, kind: str) -> list[BurnEvent]:
    return [e for e in b.events if e.kind == kind and e.gpu_index == g.index]


# ---------------------------------------------------------------- faults

def fault_checks(b: BurnIn, g: BurnGpu) -> list[Check]:
    out: list[Check] = []
    name, i = _name(g), g.index
    for e in _mine(b, g, "mismatch"):
        if e.detail == "reference":
            r = next((x for x in b.results if x.gpu_index == i and x.phase == e.phase), None)
            out.append(_check("burn_reference_wrong", "fail", gpu_index=i, gpu=name, phase=e.phase,
                              rel_error=f"{r.reference_rel_error:.2g}" if r and r.reference_rel_error is not None else "NaN",
                              when=clock_time(b.started, e.t_s)))
    wrong = [e for e in _mine(b, g, "mismatch") if e.detail != "reference"]
    if wrong:
        phases = ", ".join(dict.fromkeys(str(e.phase) for e in wrong))
        out.append(_check("burn_mismatch", "fail", gpu_index=i, value=float(sum(e.count for e in wrong)), gpu=name,
                          count=f"{sum(e.count for e in wrong):,}", times=str(len(wrong)), phases=phases,
                          when=clock_time(b.started, wrong[0].t_s), after=duration(wrong[0].t_s - _t0(b))))
    bad_mem = _mine(b, g, "memtest")
    if bad_mem:
        out.append(_check("burn_memtest", "fail", gpu_index=i, value=float(sum(e.count for e in bad_mem)), gpu=name,
                          count=f"{sum(e.count for e in bad_mem):,}", pattern=bad_mem[0].detail or "?",
                          offset=f"{int(bad_mem[0].value or 0):#x}", when=clock_time(b.started, bad_mem[0].t_s)))
    for e in _mine(b, g, "error"):
        out.append(_check("burn_error", "fail", gpu_index=i, gpu=name, phase=e.phase or "?", error=e.detail or "?"))
    out += xid_checks(b, g)
    out += counter_checks(b, g)
    return out


def _t0(b: BurnIn) -> float:
    load = [p.t0_s for p in b.phases if p.phase not in ("p2p", "allreduce")]
    return min(load) if load else (b.phases[0].t0_s if b.phases else 0.0)


def xid_checks(b: BurnIn, g: BurnGpu) -> list[Check]:
    out: list[Check] = []
    by: dict[int, list[BurnEvent]] = {}
    for e in b.events:
        if e.kind == "xid" and (e.gpu_index == g.index or (e.gpu_index is None and len(b.gpus) == 1)):
            by.setdefault(int(e.value or 0), []).append(e)
    for xid, evs in sorted(by.items()):
        status = "warn" if xid in PROGRAM_XIDS else "fail"
        out.append(_check("burn_xid", status, gpu_index=g.index, value=float(xid), gpu=_name(g), xid=str(xid),
                          times=str(len(evs)), when=clock_time(b.started, evs[0].t_s),
                          meaning_code=f"xid_{xid}" if xid in KNOWN_XIDS else "xid_other",
                          text_code="burn_xid_text" if evs[0].detail else None, text=evs[0].detail or None))
    return out


def counter_checks(b: BurnIn, g: BurnGpu) -> list[Check]:
    out: list[Check] = []
    for kind, (_c, status) in COUNTER_CODES.items():
        evs = _mine(b, g, kind)
        if not evs:
            continue
        code = ("burn_ecc_uncorrected" if kind == "ecc_uncorrected" else "burn_ecc_corrected" if kind == "ecc_corrected"
                else "burn_remap" if kind == "remap" else "burn_retired" if kind == "retired_pages" else "burn_pcie_replay")
        n = sum(e.count for e in evs)
        out.append(_check(code, status, gpu_index=g.index, value=float(n), gpu=_name(g), count=f"{n:,}",
                          when=clock_time(b.started, evs[0].t_s)))
    failed = _mine(b, g, "remap_failure")
    if failed:
        out.append(_check("burn_remap_failure", "fail", gpu_index=g.index, gpu=_name(g), when=clock_time(b.started, failed[0].t_s)))
    drop = _mine(b, g, "link_drop")
    if drop:
        out.append(_check("burn_link_drop", "warn", gpu_index=g.index, gpu=_name(g), link=drop[0].detail,
                          when=clock_time(b.started, drop[0].t_s)))
    return out


# ---------------------------------------------------------------- heat, power, speed

def heat_checks(b: BurnIn, g: BurnGpu) -> list[Check]:
    out: list[Check] = []
    thermal_s = sum(v for k, v in g.throttle_s.items() if k in ("sw_thermal", "hw_thermal", "hw_slowdown"))
    if g.first_thermal_t_s is not None and g.load_s and (thermal_s >= THERMAL_MIN_S or thermal_s >= 0.02 * g.load_s):
        ev = next((e for e in _mine(b, g, "thermal")), None)
        temp = ev.value if ev is not None and ev.value is not None else g.temp_max_c
        out.append(_check("burn_thermal", "warn", gpu_index=g.index, value=thermal_s, gpu=_name(g),
                          after=duration(g.first_thermal_t_s - _t0(b)), temp=_fmt(temp, digits=0),
                          share=_pct(thermal_s / g.load_s), slow_at_code="burn_slowdown_at" if g.temp_slowdown_c else "",
                          slowdown=_fmt(g.temp_slowdown_c, digits=0) if g.temp_slowdown_c else None))
    elif g.temp_max_c is not None and g.temp_slowdown_c and g.temp_max_c >= g.temp_slowdown_c - HOT_MARGIN_C:
        out.append(_check("burn_hot", "warn", gpu_index=g.index, value=g.temp_max_c, limit=g.temp_slowdown_c, gpu=_name(g),
                          temp=_fmt(g.temp_max_c, digits=0), slowdown=_fmt(g.temp_slowdown_c, digits=0)))
    brake = _mine(b, g, "power_brake")
    if brake:
        out.append(_check("burn_power_brake", "warn", gpu_index=g.index, gpu=_name(g), when=clock_time(b.started, brake[0].t_s)))
    for dt, rate in sorted(g.tflops.items()):
        peak = g.peak_tflops.get(dt)
        if peak and rate < SLOW_SHARE * peak:
            out.append(_check("burn_slow", "warn", gpu_index=g.index, value=rate, limit=peak, gpu=_name(g), dtype=dt,
                              rate=_fmt(rate), share=_pct(rate / peak), peak=_fmt(peak)))
    if g.util_median_pct is not None and g.load_s >= 3 and g.util_median_pct < 10:
        out.append(_check("burn_idle", "fail", gpu_index=g.index, value=g.util_median_pct, gpu=_name(g),
                          util=_fmt(g.util_median_pct, digits=0)))
    return out


def rates_text(g: BurnGpu) -> str:
    """'bf16 673 of 989.5 TFLOP/s (68%), fp32 51.2 of 67 (76%)': figures only, said alike in every language."""
    parts = []
    for dt in ("fp8", "bf16", "fp16", "tf32", "fp32"):
        if dt in g.tflops:
            peak = g.peak_tflops.get(dt)
            parts.append(f"{dt} {_fmt(g.tflops[dt])}" + (f"/{_fmt(peak)} TFLOP/s ({_pct(g.tflops[dt] / peak)})" if peak else " TFLOP/s"))
    return ", ".join(parts)


def pass_checks(b: BurnIn, g: BurnGpu) -> list[Check]:
    """The healthy GPU's sentences: what it held, its rates, its heat, what was checked."""
    out: list[Check] = []
    name, i = _name(g), g.index
    ran = duration(g.load_s or b.ran_s)
    capped = g.throttle_s.get("sw_power_cap", 0.0) >= 0.3 * g.load_s if g.load_s else False
    clock = _fmt(g.sm_clock_median_mhz, digits=0)
    if g.sm_clock_median_mhz is None:  # nothing sampled (no NVML): what ran, not what it held
        out.append(_check("burn_ok", "pass", gpu_index=i, gpu=name, text_code="burn_ok_unsampled", duration=duration(b.ran_s)))
    elif capped and g.power_limit_w:
        out.append(_check("burn_ok", "pass", gpu_index=i, gpu=name, clock=clock, limit_w=_fmt(g.power_limit_w, digits=0),
                          duration=ran))
    else:
        out.append(_check("burn_ok", "pass", gpu_index=i, gpu=name, text_code="burn_ok_clock", clock=clock,
                          clock_max=_fmt(g.sm_clock_max_mhz, digits=0), power=_fmt(g.power_median_w, digits=0),
                          limit_w=_fmt(g.power_limit_w, digits=0), duration=ran))
    if g.tflops or g.mem_gbps:
        out.append(_check("burn_rates", "pass", gpu_index=i, gpu=name, rates=rates_text(g) or "-",
                          mem=_fmt(g.mem_gbps, digits=0), mem_peak=_fmt(g.peak_mem_gbps, digits=0),
                          mem_share=_pct(g.mem_gbps / g.peak_mem_gbps) if g.mem_gbps and g.peak_mem_gbps else "?",
                          copied_code="burn_copy" if g.mem_copy_gbps else "",
                          copy=_fmt(g.mem_copy_gbps, digits=0) if g.mem_copy_gbps else None))
    if g.temp_max_c is not None:
        out.append(_check("burn_heat", "pass", gpu_index=i, gpu=name, temp=_fmt(g.temp_max_c, digits=0),
                          slowdown=_fmt(g.temp_slowdown_c, digits=0), shutdown=_fmt(g.temp_shutdown_c, digits=0),
                          power=_fmt(g.power_max_w, digits=0), limit_w=_fmt(g.power_limit_w, digits=0),
                          fan_part_code="burn_fan" if g.fan_max_pct is not None else "",
                          fan=_fmt(g.fan_max_pct, digits=0) if g.fan_max_pct is not None else None))
    out.append(_check("burn_checked", "pass", gpu_index=i, gpu=name, checks=f"{g.checks:,}",
                      mem_code="burn_checked_mem" if g.memtest_bytes else "",
                      gib=f"{(g.memtest_bytes or 0) / (1 << 30):,.0f}" if g.memtest_bytes else None,
                      share=_pct(g.memtest_share) if g.memtest_bytes and g.memtest_share else None,
                      passes=f"{g.memtest_passes:,}" if g.memtest_bytes else None))
    return out


def watch_checks(b: BurnIn, g: BurnGpu) -> list[Check]:
    """What could not be watched on this GPU (skip: said, not held against it)."""
    out: list[Check] = []
    if not b.xid_source:
        out.append(_check("burn_xid_unwatched", "skip", gpu_index=g.index, gpu=_name(g), why=b.xid_note or "?"))
    w = g.watched
    missing: list[str] = [k for k in ("ecc_uncorrected", "pcie_replay") if k in w and w[k] != "yes"]
    if w.get("remapped_unc") != "yes" and w.get("retired_pages") != "yes" and "remapped_unc" in w:
        missing.append("remapped_unc")  # a GPU has one of the two (row remapping since the A100)
    for k in missing:
        out.append(_check("burn_counter_unwatched", "skip", gpu_index=g.index, gpu=_name(g), counter=k))
    return out


def gpu_checks(b: BurnIn, g: BurnGpu) -> list[Check]:
    """The faults and warnings first; a GPU with none says it held up. Its figures beside its ceilings
    (rates, heat) either way."""
    bad = fault_checks(b, g) + heat_checks(b, g)
    said = pass_checks(b, g)
    if bad:
        said = [c for c in said if c.code in ("burn_rates", "burn_heat")]
    return bad + said + watch_checks(b, g)


# ---------------------------------------------------------------- between GPUs

def interconnect_checks(b: BurnIn) -> list[Check]:
    out: list[Check] = []
    for p in b.p2p:
        a, c = str(p.src), str(p.dst)
        if p.ok is False:
            out.append(_check("p2p_corrupt", "fail", gpu_index=p.src, src=a, dst=c))
            continue
        share = p.gbps / p.ceiling_gbps if p.gbps and p.ceiling_gbps else None
        status = "warn" if share is not None and share < P2P_MIN_SHARE else "pass"
        out.append(_check("p2p_pair", status, gpu_index=p.src, value=p.gbps, limit=p.ceiling_gbps, src=a, dst=c,
                          gbps=_fmt(p.gbps), bidir=_fmt(p.bidir_gbps), latency=_fmt(p.latency_us),
                          over_code="p2p_over" if p.link and p.ceiling_gbps else "", link=p.link or None,
                          share=_pct(share) if share is not None else None, ceiling=_fmt(p.ceiling_gbps) if p.ceiling_gbps else None,
                          text_code="p2p_slow" if status == "warn" else None,
                          peer_code="" if p.peer is not False else "p2p_no_peer"))
    ar = b.allreduce
    if ar is not None and ar.skipped:
        out.append(_check("allreduce_skipped", "skip", why=ar.skipped))
    elif ar is not None and ar.ok is False:
        out.append(_check("allreduce_wrong", "fail", n=str(ar.gpus)))
    elif ar is not None and ar.busbw_gbps is not None:
        share = ar.busbw_gbps / ar.ceiling_gbps if ar.ceiling_gbps else None
        status = "warn" if share is not None and share < P2P_MIN_SHARE else "pass"
        out.append(_check("allreduce", status, value=ar.busbw_gbps, limit=ar.ceiling_gbps, n=str(ar.gpus),
                          backend=ar.backend.upper() or "NCCL", busbw=_fmt(ar.busbw_gbps), size=_fmt(ar.size_mib, digits=0),
                          vs_code="allreduce_ceiling" if ar.ceiling_gbps else "",
                          ceiling=_fmt(ar.ceiling_gbps) if ar.ceiling_gbps else None, share=_pct(share) if share is not None else None))
    return out


# ---------------------------------------------------------------- the layers

def burn_layers(b: BurnIn) -> tuple[Layer, ...]:
    """The "burnin" layer (every GPU's checks) and, with 2+ GPUs, the "interconnect" layer."""
    checks: list[Check] = []
    for g in b.gpus:
        checks += gpu_checks(b, g)
    if b.cancelled:
        checks.append(_check("burn_cancelled", "skip", ran=duration(b.ran_s), asked=duration(b.seconds)))
    layers = [layer_from_checks("burnin", checks, "not run")]
    if len(b.gpus) > 1 or b.p2p or b.allreduce is not None:
        layers.append(layer_from_checks("interconnect", interconnect_checks(b), "not measured"))
    return tuple(layers)


def gpu_verdict(b: BurnIn, index: int) -> tuple[str, Sequence[Check]]:
    """(status, checks) of one GPU (CUDA index): the window's and the report's per-GPU cards."""
    from app.verify.model import worst

    g = next((x for x in b.gpus if x.index == index), None)
    if g is None:
        return "skip", ()
    cs = gpu_checks(b, g)
    return worst(c.status for c in cs), cs
