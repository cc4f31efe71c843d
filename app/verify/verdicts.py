"""Verdicts: pure functions from measured results to pass / warn / fail / skip, in plain words.

Nothing here touches the machine; every function takes model values (or plain numbers) and
is tested on recorded results (tests/fixtures/verify/) and synthetic bad cases.

Ceilings:
- PCIe, per direction: GT/s per lane x lanes x encoding / 8. Gen 1: 2.5, 2: 5, 3: 8, 4: 16,
  5: 32, 6: 64 GT/s. Encoding 8b/10b for gen 1-2 and 128b/130b from gen 3 (gen 6 counted the same
  way: its FLIT mode's overhead is of that order). Gen 5 x16 = 63.0 GB/s. Real copies reach about
  80-90% of it (packet headers, flow control), so "under 70%" means something is wrong.
- Memory: NVML's max memory clock x 2 (double data rate) x bus width / 8. NVML reports HBM and
  GDDR clocks at half the data rate per pin, so the factor is 2 for both. H200: 3201 MHz x 2 x
  6016 bit / 8 = 4814 GB/s, the datasheet's 4.8 TB/s. (RTX 4090: 10501 x 2 x 384 / 8 = 1008 GB/s,
  its datasheet figure.) D2D copies are counted as bytes read plus bytes written.
"""
from __future__ import annotations

from statistics import mean, median
from typing import Optional, Sequence

from app import messages
from app.verify.model import (LAYER_NAMES, Bandwidth, Check, Compute, DeviceInfo, GpuResult, Layer, NumericCheck,
                              Sample, TorchReport, worst)

PCIE_GTS = {1: 2.5, 2: 5.0, 3: 8.0, 4: 16.0, 5: 32.0, 6: 64.0, 7: 128.0}
H2D_MIN_FRACTION = 0.70  # pinned host->device copies under this share of the link: warn
PAGEABLE_MIN_FRACTION = 0.50  # pageable under this share of pinned: a tip to use pin_memory (still a pass)
PAGEABLE_WARN_FRACTION = 0.10  # under this share something else is wrong (memory pressure, NUMA): warn
# (healthy H200 hosts measured 13% to 29% of pinned, with the host's memory shared by other work)
D2D_MIN_FRACTION = 0.60  # device copies under this share of the memory's peak: warn
POWER_LIMIT_MIN_FRACTION = 0.95  # a limit under 95% of the default is a cap someone set
IDLE_UTIL_PCT = 10.0  # mean utilization under this while the load ran: "near 0%"
THROTTLE_SHARE = 0.10  # a slowdown reason seen in this share of load samples counts
THERMAL_REASONS = ("hw_slowdown", "sw_thermal", "hw_thermal", "hw_power_brake")
LOAD_PHASES = ("load",)
LINK_PHASES = ("bandwidth", "load")


# ---------------------------------------------------------------- ceilings

def pcie_gbps(gen: Optional[int], width: Optional[int]) -> Optional[float]:
    """Theoretical one-direction PCIe rate in GB/s (10^9 B/s), or None when unknown."""
    if not gen or not width or gen not in PCIE_GTS:
        return None
    encoding = 8 / 10 if gen <= 2 else 128 / 130
    return round(PCIE_GTS[gen] * width * encoding / 8, 2)


def memory_peak_gbps(mem_clock_max_mhz: Optional[float], bus_width_bits: Optional[int]) -> Optional[float]:
    """Peak memory bandwidth in GB/s from NVML's max memory clock and bus width (x2: double data rate)."""
    if not mem_clock_max_mhz or not bus_width_bits:
        return None
    return round(mem_clock_max_mhz * 1e6 * 2 * bus_width_bits / 8 / 1e9, 1)


def link_name(gen: Optional[int], width: Optional[int]) -> str:
    g = {1: "1.0", 2: "2.0", 3: "3.0", 4: "4.0", 5: "5.0", 6: "6.0"}.get(gen or 0, str(gen))
    return f"PCIe {g} x{width}" if gen and width else "the PCIe link"


from app.compat.arch import arch_covers  # noqa: E402,F401  (one home for arch coverage, sm_XYa/f included)


# ---------------------------------------------------------------- helpers

def _fmt(x: Optional[float], unit: str = "", digits: int = 1) -> str:
    if x is None:
        return "?"
    return f"{x:,.{digits}f}{unit}"


def _gpu_name(d: DeviceInfo) -> str:
    return f"GPU {d.index} ({d.name})" if d.name else f"GPU {d.index}"


def _pct(x: float) -> str:
    return f"{x:.0%}"


def _link(name: str, gen: Optional[int], width: Optional[int]) -> dict[str, str]:
    """A link's name as a figure ("PCIe 5.0 x16"), or the clause for an unknown one."""
    return {name: link_name(gen, width)} if gen and width else {name + "_code": "link_unknown"}


def _check(code: str, status: str, *, gpu_index: Optional[int] = None, hint: Optional[str] = None,
           value: Optional[float] = None, limit: Optional[float] = None, text_code: Optional[str] = None,
           extra: Optional[dict] = None, **params) -> Check:
    """A check by its code and figures: its sentence (and hint, where the catalogue has one; else `hint`,
    a command) from the message catalogue, so every language says the same figures."""
    p = {k: str(v) for k, v in {**params, **(extra or {})}.items() if v is not None}
    if text_code:
        p["text_code"] = text_code
    return Check(code=code, status=status, gpu_index=gpu_index, value=value, limit=limit, params=p,  # type: ignore[arg-type]
                 message=messages.render("check", code, p, "en", fallback=code),
                 hint=messages.render_hint("check", code, p, "en", fallback=hint))


def samples_for(samples: Sequence[Sample], nvml_index: Optional[int], phases: Sequence[str]) -> list[Sample]:
    if nvml_index is None:
        return []
    return [s for s in samples if s.gpu_index == nvml_index and s.phase in phases]


def layer_from_checks(name: str, checks: Sequence[Check], skip_reason: str, details: Sequence[str] = ()) -> Layer:
    if not checks:
        return Layer(name=name, status="skip", reason=skip_reason, details=tuple(details))  # type: ignore[arg-type]
    status = worst(c.status for c in checks)
    lead = next((c for c in checks if c.status == status and c.code.endswith("_ok")), None) \
        or next(c for c in checks if c.status == status)
    others = [c.message for c in checks if c is not lead and c.status != "skip"]
    return Layer(name=name, status=status, reason=lead.message, details=tuple(others) + tuple(details),  # type: ignore[arg-type]
                 checks=tuple(checks))


# ---------------------------------------------------------------- device layer

def device_checks(d: DeviceInfo) -> list[Check]:
    out: list[Check] = []
    g = d.index
    if d.compute_mode == "Prohibited":
        out.append(_check("compute_prohibited", "fail", gpu_index=g, gpu=_gpu_name(d),
                          hint=f"sudo nvidia-smi -i {d.nvml_index if d.nvml_index is not None else g} -c DEFAULT"))
    elif d.error:
        text = d.error
        if d.compute_mode and d.compute_mode.startswith("Exclusive") and "busy" in text.lower():
            out.append(_check("device_unusable", "fail", gpu_index=g, gpu=_gpu_name(d), text_code="device_unusable_exclusive"))
        else:
            out.append(_check("device_unusable", "fail", gpu_index=g, gpu=_gpu_name(d), error=text.splitlines()[0][:300]))
    if d.power_limit_w and d.power_default_limit_w and d.power_limit_w < POWER_LIMIT_MIN_FRACTION * d.power_default_limit_w:
        out.append(_check("power_limit_low", "warn", gpu_index=g, value=d.power_limit_w, limit=d.power_default_limit_w,
                          gpu=_gpu_name(d), limit_w=f"{d.power_limit_w:g}", default_w=f"{d.power_default_limit_w:g}",
                          hint=f"sudo nvidia-smi -i {d.nvml_index if d.nvml_index is not None else g} -pl {d.power_default_limit_w:g}"))
    if not out:
        out.append(_check("device_ok", "pass", gpu_index=g, gpu=_gpu_name(d),
                          cc_code="device_cc" if d.compute_capability else "", compute_capability=d.compute_capability,
                          sms_code="device_sms" if d.sm_count else "", sm_count=d.sm_count,
                          mem_code="device_mem" if d.memory_total_mib else "",
                          mem_gib=f"{d.memory_total_mib / 1024:.0f}" if d.memory_total_mib else None))
    return out


def device_details(d: DeviceInfo, lang: str = "en") -> list[str]:
    def t(key: str, **p) -> str:
        return messages.render("check", f"detail_{key}", p, lang, fallback=key)

    bits = []
    if d.driver_version:
        bits.append(t("driver", version=d.driver_version))
    if d.pcie_gen_max:
        bits.append(t("link_max", link=link_name(d.pcie_gen_max, d.pcie_width_max)))
    if d.ecc_enabled is not None:
        bits.append(t("ecc_on") if d.ecc_enabled else t("ecc_off"))
    if d.compute_mode:
        bits.append(t("compute_mode", mode=d.compute_mode))
    if d.persistence_mode is not None:
        bits.append(t("persistence_on") if d.persistence_mode else t("persistence_off"))
    if d.sm_clock_max_mhz:
        bits.append(t("sm_clock_max", mhz=d.sm_clock_max_mhz))
    if d.mem_clock_max_mhz:
        bits.append(t("mem_clock_max", mhz=d.mem_clock_max_mhz))
    if d.power_limit_w:
        bits.append(t("power_limit", w=f"{d.power_limit_w:g}"))
    return [t("device", index=d.index, bits=t("sep").join(bits))] if bits else []


# ---------------------------------------------------------------- bandwidth layer

def link_under_load(d: DeviceInfo, samples: Sequence[Sample]) -> tuple[Optional[int], Optional[int]]:
    """Highest generation and width seen while copies or load ran (idle links train down to save power)."""
    busy = samples_for(samples, d.nvml_index, LINK_PHASES)
    gens = [s.pcie_gen_current for s in busy if s.pcie_gen_current]
    widths = [s.pcie_width_current for s in busy if s.pcie_width_current]
    return (max(gens) if gens else None, max(widths) if widths else None)


def bandwidth_checks(d: DeviceInfo, b: Optional[Bandwidth], samples: Sequence[Sample]) -> list[Check]:
    out: list[Check] = []
    g = d.index
    if b is None or (b.h2d_pinned_gbps is None and b.d2d_gbps is None):
        if b is not None and b.error:
            out.append(_check("bandwidth_error", "fail", gpu_index=g, gpu=_gpu_name(d), error=b.error.splitlines()[0][:300]))
        return out
    gen, width = link_under_load(d, samples)
    degraded = False
    if gen and width and d.pcie_gen_max and d.pcie_width_max:
        if gen < d.pcie_gen_max or width < d.pcie_width_max:
            degraded = True
            what = ("link_lanes_gen" if gen < d.pcie_gen_max else "link_lanes") if width < d.pcie_width_max else "link_gen"
            out.append(_check("pcie_link_degraded", "warn", gpu_index=g,
                              value=pcie_gbps(gen, width), limit=pcie_gbps(d.pcie_gen_max, d.pcie_width_max),
                              gpu=_gpu_name(d), what_code=what, link=link_name(gen, width), link_max=link_name(d.pcie_gen_max, d.pcie_width_max),
                              extra={**(dict(width=width, width_max=d.pcie_width_max) if "lanes" in what else {}),
                                     **(dict(gen=gen, gen_max=d.pcie_gen_max) if "gen" in what else {})}))
    ceiling = b.pcie_theoretical_gbps
    h2d = b.h2d_pinned_gbps
    if h2d is not None and ceiling:
        frac = h2d / ceiling
        if frac < H2D_MIN_FRACTION:
            out.append(_check("h2d_below_link", "warn", gpu_index=g, value=h2d, limit=ceiling, gpu=_gpu_name(d),
                              h2d=_fmt(h2d), share=_pct(frac), ceiling=_fmt(ceiling),
                              cause_code="h2d_cause_degraded" if degraded else "",
                              extra=_link("link", d.pcie_gen_max, d.pcie_width_max)))
    pin, page = b.h2d_pinned_gbps, b.h2d_pageable_gbps
    if pin and page is not None and page < PAGEABLE_MIN_FRACTION * pin:
        # Pageable copies go through a staging buffer, so a third of pinned is normal on healthy machines
        # (the H200 here: 29%). That is advice, not a fault; only a far lower share is a warning.
        out.append(_check("pageable_slow", "warn" if page < PAGEABLE_WARN_FRACTION * pin else "pass",
                          gpu_index=g, value=page, limit=pin, page=_fmt(page), share=_pct(page / pin), pin=_fmt(pin)))
    peak = b.memory_theoretical_gbps
    if b.d2d_gbps is not None and peak and b.d2d_gbps < D2D_MIN_FRACTION * peak:
        out.append(_check("d2d_below_peak", "warn", gpu_index=g, value=b.d2d_gbps, limit=peak, gpu=_gpu_name(d),
                          d2d=_fmt(b.d2d_gbps, digits=0), share=_pct(b.d2d_gbps / peak), peak=_fmt(peak, digits=0)))
    if not any(c.status in ("warn", "fail") for c in out):  # the pass summary leads; a pin_memory tip stays beside it
        p: dict = {"gpu": _gpu_name(d)}
        if h2d is not None:
            p.update(h2d_code="bw_h2d", h2d_value=_fmt(h2d), h2d_share_code="bw_h2d_share" if ceiling else "")
            if ceiling:
                p.update(h2d_frac=_pct(h2d / ceiling), ceiling=_fmt(ceiling), **_link("link", d.pcie_gen_max, d.pcie_width_max))
        if b.d2d_gbps is not None:
            p.update(d2d_code="bw_d2d", d2d_value=_fmt(b.d2d_gbps, digits=0), d2d_share_code="bw_d2d_share" if peak else "")
            if peak:
                p.update(d2d_frac=_pct(b.d2d_gbps / peak), peak=_fmt(peak, digits=0))
        shape = "bandwidth_ok" if h2d is not None and b.d2d_gbps is not None else ("bandwidth_ok_h2d" if h2d is not None else "bandwidth_ok_d2d")
        out.append(_check("bandwidth_ok", "pass", gpu_index=g, text_code=shape, extra=p))
    return out


# ---------------------------------------------------------------- PyTorch layer

def torch_checks(t: TorchReport, devices: Sequence[DeviceInfo], numerics: dict[int, Sequence[NumericCheck]]) -> list[Check]:
    out: list[Check] = []
    if t.installed is False:
        out.append(_check("torch_missing", "fail", hint=t.fix_command, python=t.python, python_code=None if t.python else "target_python",
                          install_code="torch_install_with" if t.fix_command else "", fix=t.fix_command))
        return out
    if t.installed is None:
        return out
    if not t.cuda:
        out.append(_check("torch_cpu_build", "fail", hint=t.fix_command, torch=t.version,
                          replace_code="torch_replace_with" if t.fix_command else "", fix=t.fix_command))
        return out
    if not t.available:
        out.append(_check("cuda_unavailable", "fail", hint=t.fix_command, torch=t.version, cuda=t.cuda,
                          why_code="cuda_unavailable_why" if t.error else "", error=t.error.splitlines()[0][:300] if t.error else None))
        return out
    for d in devices:
        cov = arch_covers(t.arch_list, d.compute_capability)
        if cov is False:
            out.append(_check("arch_not_covered", "fail", gpu_index=d.index, hint=t.fix_command, gpu=_gpu_name(d),
                              compute_capability=d.compute_capability, arch_list=", ".join(t.arch_list)))
    for g, checks in sorted(numerics.items()):
        for c in checks:
            if not c.ok:
                what = "num_failed" if c.error else ("num_nan" if c.rel_error is None else "num_wrong")
                out.append(_check("numerics_wrong", "fail", gpu_index=g, value=c.rel_error, limit=c.tolerance,
                                  op_code="op_conv" if c.op == "conv2d" else "op_matmul", dtype=c.dtype, index=g, what_code=what,
                                  error=c.error.splitlines()[0][:200] if c.error else None,
                                  rel_error=f"{c.rel_error:.2g}" if c.rel_error is not None and not c.error else None,
                                  tolerance=f"{c.tolerance:g}" if c.rel_error is not None and not c.error else None))
    if t.cudnn_available is False:
        out.append(_check("cudnn_missing", "warn"))
    if not any(c.status in ("warn", "fail") for c in out):  # the pass summary leads; a pin_memory tip stays beside it
        n = sum(len(v) for v in numerics.values())
        out.append(_check("torch_ok", "pass", torch=t.version, cuda=t.cuda, cudnn_code="torch_ok_cudnn" if t.cudnn else "",
                          cudnn_version=t.cudnn, count=t.device_count, checked_code="torch_ok_checked" if n else "",
                          n=n if n else None))
    return out


# ---------------------------------------------------------------- load layer

def load_checks(d: DeviceInfo, c: Optional[Compute], samples: Sequence[Sample]) -> list[Check]:
    out: list[Check] = []
    g = d.index
    if c is None:
        return out
    for e in c.errors:
        out.append(_check("load_error", "fail", gpu_index=g, gpu=_gpu_name(d), error=e.splitlines()[0][:300]))
    busy = samples_for(samples, d.nvml_index, LOAD_PHASES)
    if len(busy) >= 3:
        utils = [s.util_pct for s in busy if s.util_pct is not None]
        if utils and mean(utils) < IDLE_UTIL_PCT:
            out.append(_check("idle_under_load", "fail", gpu_index=g, value=round(mean(utils), 1), limit=IDLE_UTIL_PCT,
                              gpu=_gpu_name(d), util=f"{mean(utils):.0f}"))
        thermal = [s for s in busy if any(r in THERMAL_REASONS for r in s.throttle_reasons)]
        if len(thermal) >= THROTTLE_SHARE * len(busy) and thermal:
            reasons = sorted({r for s in thermal for r in s.throttle_reasons if r in THERMAL_REASONS})
            temps = [s.temp_c for s in busy if s.temp_c is not None]
            out.append(_check("throttled_thermal", "warn", gpu_index=g, value=len(thermal) / len(busy), gpu=_gpu_name(d),
                              reasons=", ".join(reasons), hot_code="thermal_hot" if temps else "",
                              temp=f"{max(temps):.0f}" if temps else None, share=_pct(len(thermal) / len(busy))))
        capped = [s for s in busy if "sw_power_cap" in s.throttle_reasons]
        low_limit = bool(d.power_limit_w and d.power_default_limit_w and d.power_limit_w < POWER_LIMIT_MIN_FRACTION * d.power_default_limit_w)
        if capped and not low_limit and len(capped) >= THROTTLE_SHARE * len(busy):
            out.append(_check("at_power_limit", "pass", gpu_index=g, value=len(capped) / len(busy), gpu=_gpu_name(d),
                              share=_pct(len(capped) / len(busy))))
        if capped and low_limit and len(capped) >= THROTTLE_SHARE * len(busy):
            out.append(_check("power_capped", "warn", gpu_index=g, value=d.power_limit_w, limit=d.power_default_limit_w,
                              gpu=_gpu_name(d), limit_w=f"{d.power_limit_w:g}", default_w=f"{d.power_default_limit_w:g}",
                              share=_pct(len(capped) / len(busy))))
    if not c.matmul_tflops and not c.errors:
        out.append(_check("load_no_result", "fail", gpu_index=g, gpu=_gpu_name(d)))
    if not any(x.status in ("warn", "fail") for x in out) and c.matmul_tflops:
        rates = ", ".join(f"{k} {_fmt(v)}" for k, v in c.matmul_tflops.items())
        utils = [s.util_pct for s in busy if s.util_pct is not None] if busy else []
        out.append(_check("load_ok", "pass", gpu_index=g, gpu=_gpu_name(d), rates=rates,
                          extra_code="load_ok_util" if utils else "", util=f"{median(utils):.0f}" if utils else None))
    return out


def load_details(c: Compute, d: Optional[DeviceInfo] = None, samples: Sequence[Sample] = (), lang: str = "en") -> list[str]:
    def t(key: str, **p) -> str:
        return messages.render("check", f"detail_{key}", p, lang, fallback=key)

    out = []
    busy = samples_for(samples, d.nvml_index, LOAD_PHASES) if d is not None else []
    clocks = sorted(s.sm_clock_mhz for s in busy if s.sm_clock_mhz)
    if clocks:
        top = t("clock_top", mhz=d.sm_clock_max_mhz) if d is not None and d.sm_clock_max_mhz else ""
        power = [s.power_w for s in busy if s.power_w is not None]
        temps = [s.temp_c for s in busy if s.temp_c is not None]
        extra = (t("power_up_to", w=f"{max(power):.0f}") if power else "") + (t("temp_up_to", c=f"{max(temps):.0f}") if temps else "")
        out.append(t("clock", index=c.gpu_index, mhz=clocks[len(clocks) // 2], top=top, extra=extra))
    cv = c.conv2d
    if cv.nchw_tflops is not None and cv.channels_last_tflops is not None:
        out.append(t("conv", index=c.gpu_index, dtype=cv.dtype, nchw=_fmt(cv.nchw_tflops), cl=_fmt(cv.channels_last_tflops),
                     speedup=_fmt(cv.channels_last_speedup, digits=2)))
    gr = c.cuda_graph
    if gr.eager_ms is not None and gr.graph_ms is not None:
        out.append(t("graph", index=c.gpu_index, eager=f"{gr.eager_ms:.3f}", graph=f"{gr.graph_ms:.3f}",
                     speedup=_fmt(gr.graph_speedup, digits=2)))
    return out


# ---------------------------------------------------------------- whole run

def _measured(b: Bandwidth) -> bool:
    return bool(b.per_size or b.error or b.h2d_pinned_gbps is not None or b.d2d_gbps is not None)


def judge_gpu(g: GpuResult, t: TorchReport, samples: Sequence[Sample]) -> GpuResult:
    d = g.device
    layers = (
        layer_from_checks("device", device_checks(d), "not checked", device_details(d)),
        layer_from_checks("bandwidth", bandwidth_checks(d, g.bandwidth if _measured(g.bandwidth) else None, samples),
                          "not measured"),
        layer_from_checks("pytorch", torch_checks(t, [d], {g.index: g.numerics}), "not checked"),
        layer_from_checks("load", load_checks(d, g.compute if (g.compute.matmul_tflops or g.compute.errors) else None, samples),
                          "not run", load_details(g.compute, d, samples)),
    )
    return g.replace(layers=layers)


def no_gpu_layers(reason: str, t: TorchReport, reason_code: str = "", reason_params: Optional[dict] = None) -> tuple[Layer, ...]:
    """Every layer skipped, each saying why (the CI path). `reason_code`/`reason_params`: the catalogue code of
    `reason` ("check.<code>"), so the layers say it in any language."""
    rp = {k: str(v) for k, v in (reason_params or {}).items() if v is not None}
    p = {**rp, "reason_code": reason_code} if reason_code else {}

    def said(code: str, english: str, **more) -> tuple[str, dict]:
        if not reason_code:
            return "", {}
        params = {**p, **{k: str(v) for k, v in more.items() if v is not None}}
        return code, params

    if t.installed is False:
        tr = f"{reason}; PyTorch is not installed in {t.python or 'the target Python'} either."
        tc, tp = said("skip_torch_missing", tr, python=t.python or None, python_code=None if t.python else "target_python")
    elif t.installed and t.version:
        build = "a CPU-only build" if not t.cuda else f"built for CUDA {t.cuda}"
        tr = f"{reason}; PyTorch {t.version} ({build}) has no GPU to use."
        tc, tp = said("skip_torch_no_gpu", tr, torch=t.version, build_code="build_cpu_only" if not t.cuda else "build_cuda", cuda=t.cuda)
    else:
        tr = reason
        tc, tp = (reason_code, rp) if reason_code else ("", {})
    bc, bp = said("skip_no_copies", "")
    lc, lp = said("skip_no_load", "")
    return (
        Layer(name="device", status="skip", reason=reason, reason_code=reason_code, reason_params=rp),
        Layer(name="bandwidth", status="skip", reason=f"{reason}: no copies to measure.", reason_code=bc, reason_params=bp),
        Layer(name="pytorch", status="skip", reason=tr, reason_code=tc, reason_params=tp),
        Layer(name="load", status="skip", reason=f"{reason}: no load to run.", reason_code=lc, reason_params=lp),
    )


def judge(gpus: Sequence[GpuResult], t: TorchReport, samples: Sequence[Sample],
          skip_reasons: Optional[dict[str, str]] = None) -> tuple[tuple[GpuResult, ...], tuple[Layer, ...]]:
    """Per-GPU layers, and the overall layers (each the worst over the GPUs, all their checks kept).
    `skip_reasons` gives the reason for a layer that was not run at all (cancelled, --quick without it...)."""
    skip_reasons = skip_reasons or {}
    judged = tuple(judge_gpu(g, t, samples) for g in gpus)
    overall = []
    for name in LAYER_NAMES:
        per = [next(x for x in g.layers if x.name == name) for g in judged]
        checks = list({(c.code, c.message): c for x in per for c in x.checks}.values())
        if name == "pytorch" and not judged:
            checks = torch_checks(t, [], {})
        details = [dl for x in per for dl in x.details if dl not in {c.message for c in checks}]
        reason = skip_reasons.get(name) or next((x.reason for x in per if x.status == "skip"), "not run")
        layer = layer_from_checks(name, checks, reason, details)
        if layer.status != "skip" and len(judged) > 1 and layer.status == "pass":
            layer = layer.replace(reason=f"All {len(judged)} GPUs passed. " + " ".join(c.message for c in checks))
        overall.append(layer)
    return judged, tuple(overall)


# ---------------------------------------------------------------- in the user's language

SKIP_CODES = {"not checked": "skip_not_checked", "not measured": "skip_not_measured", "not run": "skip_not_run",
              "cancelled before this layer finished": "skip_cancelled"}


def check_text(c: Check, lang: str) -> str:
    """A check's sentence in `lang`, with its figures (its English message when the catalogue lacks it)."""
    if messages.normalise_lang(lang) == "en":
        return c.message
    return messages.render("check", c.code, c.params, lang, fallback=c.message)


def check_hint(c: Check, lang: str) -> Optional[str]:
    if messages.normalise_lang(lang) == "en" or not c.hint:
        return c.hint
    return messages.render_hint("check", c.code, c.params, lang, fallback=c.hint)


def details_in(v, lang: str) -> dict[str, str]:
    """English detail line → the same line in `lang`, for every GPU of a Verification (the details are
    pure functions of what was measured, so they are said again rather than translated)."""
    if messages.normalise_lang(lang) == "en":
        return {}
    out: dict[str, str] = {}
    for g in v.gpus:
        pairs = [(device_details(g.device), device_details(g.device, lang)),
                 (load_details(g.compute, g.device, v.samples), load_details(g.compute, g.device, v.samples, lang))]
        for en, said in pairs:
            out.update(zip(en, said))
    for layer in v.layers:
        for c in layer.checks:
            out.setdefault(c.message, check_text(c, lang))
    return out


def layer_reason(layer: Layer, lang: str) -> str:
    """A layer's one sentence in `lang`: the check it comes from, the multi-GPU pass summary, or a skip reason."""
    if messages.normalise_lang(lang) == "en":
        return layer.reason
    if layer.reason_code:
        return messages.render("check", layer.reason_code, layer.reason_params, lang, fallback=layer.reason)
    lead = next((c for c in layer.checks if c.message == layer.reason), None)
    if lead is not None:
        return check_text(lead, lang)
    if layer.status == "pass" and layer.checks and layer.reason.startswith("All "):
        n = layer.reason.split(" ", 2)[1]
        said = messages.render("check", "all_passed", {"count": n}, lang, fallback="")
        if said:
            return " ".join([said] + [check_text(c, lang) for c in layer.checks])
    code = SKIP_CODES.get(layer.reason)
    return messages.render("check", code, {}, lang, fallback=layer.reason) if code else layer.reason
