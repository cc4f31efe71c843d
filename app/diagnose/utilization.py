"""Low GPU utilization: five dimensions held against live measurements.

Input: the verification sampler's samples (app.verify.model.Sample values, or plain dicts with
the same keys: util_pct, mem_util_pct, power_w, power_limit_w, sm_clock_mhz, throttle_reasons,
gpu_index, t_s), optionally the Facts (default power limit, max SM clock) and the user's text
(a profiler table or training script shows `num_workers=0`, `.item()`, ...).

What NVML can tell, and how each dimension reads it:
  data_loading       util swings between busy and idle (the GPU waits for batches): many samples
                     near 0% between busy ones, or a low mean with bursts.
  host_device_sync   util steadily in the middle (30-80%) with little spread: the CPU waits for
                     the GPU and then the GPU for the CPU (.item(), .cpu(), synchronize in the loop).
  launch_overhead    util reads high but power stays far below the limit at full clocks: many tiny
                     kernels keep the "busy" flag set while the SMs idle (NVML util is the fraction
                     of time any kernel runs, not how full the GPU is).
  memory_bound       memory-controller util high relative to SM util and moderate power: the
                     kernels wait on memory (NCHW convolutions, fp32 where bf16 would do).
  power_clock_limits throttle reasons present under load, power limit below the default, or SM
                     clocks well below the maximum while busy.
"""
from __future__ import annotations

import re
import statistics
from dataclasses import dataclass
from typing import Any, Literal, Optional

from app.diagnose.model import UtilDimension, UtilizationAnalysis

_POWER_REASONS = {"sw_power_cap", "hw_power_brake", "power_cap", "hw_power_brake_slowdown"}
_Status = Literal["likely", "possible", "unlikely", "unknown"]
_THERMAL_REASONS = {"sw_thermal", "hw_thermal", "hw_slowdown", "sw_thermal_slowdown", "hw_thermal_slowdown"}


def _get(s: Any, key: str) -> Any:
    return s.get(key) if isinstance(s, dict) else getattr(s, key, None)


def _num(v: Any) -> Optional[float]:
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def _pct(part: int, whole: int) -> str:
    return f"{100.0 * part / whole:.0f}%" if whole else "0%"


def _from_verification(v: Any) -> tuple[list, dict[int, dict]]:
    """Samples and per-GPU device limits from a Verification (value or its JSON)."""
    if isinstance(v, dict):
        samples = v.get("samples") or []
        gpus = v.get("gpus") or []
        dev = {int(g.get("index", i)): (g.get("device") or {}) for i, g in enumerate(gpus) if isinstance(g, dict)}
    else:
        samples = list(getattr(v, "samples", ()) or ())
        dev = {g.index: g.device.to_json() for g in getattr(v, "gpus", ())}
    return list(samples), dev


@dataclass
class _Run:
    """The figures of one GPU's samples that the five dimensions read."""
    util: list[float]
    mem: list[float]
    clocks: list[float]
    reasons: list[tuple]
    limits: list[float]
    mean_u: float
    med_u: float
    low: int
    high: int
    busy: int
    idle_between: int
    spread: float
    limit: Optional[float]
    p_mean: Optional[float]
    default_limit: Optional[float]
    max_clock: Optional[float]
    text: str  # the user's text, lower-cased

    @property
    def n(self) -> int:
        return len(self.util)

    @property
    def power_frac(self) -> Optional[float]:
        return (self.p_mean / self.limit) if (self.p_mean is not None and self.limit) else None


def _series(rows: list, key: str) -> list[float]:
    return [x for x in (_num(_get(s, key)) for s in rows) if x is not None]


def _gpu_limits(facts: Any, devices: dict[int, dict], gpu_index: Optional[int]) -> tuple[Optional[float], Optional[float]]:
    """(default power limit W, maximum SM clock MHz) of the GPU: from the facts, else the verification's device."""
    gpu = None
    if facts is not None:
        gpu = next((g for g in getattr(facts, "gpus", ()) if gpu_index is None or g.index == gpu_index), None)
    dev = devices.get(gpu_index if gpu_index is not None else 0) or (next(iter(devices.values())) if devices else {})
    default_limit = (getattr(gpu, "power_default_limit_w", None) if gpu is not None else None) or dev.get("power_default_limit_w")
    max_clock = (getattr(gpu, "sm_clock_max_mhz", None) if gpu is not None else None) or dev.get("sm_clock_max_mhz")
    return default_limit, max_clock


def _run(rows: list, util: list[float], facts: Any, devices: dict[int, dict], gpu_index: Optional[int], text: str) -> _Run:
    power, limits = _series(rows, "power_w"), _series(rows, "power_limit_w")
    default_limit, max_clock = _gpu_limits(facts, devices, gpu_index)
    return _Run(util=util, mem=_series(rows, "mem_util_pct"), clocks=_series(rows, "sm_clock_mhz"),
                reasons=[tuple(_get(s, "throttle_reasons") or ()) for s in rows], limits=limits,
                mean_u=statistics.fmean(util), med_u=statistics.median(util), low=sum(1 for u in util if u < 15),
                high=sum(1 for u in util if u >= 80), busy=sum(1 for u in util if u >= 5),
                idle_between=sum(1 for a, b, c in zip(util, util[1:], util[2:]) if a >= 50 and b < 15 and c >= 50),
                spread=statistics.pstdev(util) if len(util) > 1 else 0.0, limit=statistics.median(limits) if limits else None,
                p_mean=statistics.fmean(power) if power else None, default_limit=default_limit, max_clock=max_clock,
                text=text.lower())


def _data_loading(r: _Run) -> UtilDimension:
    n = r.n
    ev = [f"{n} samples: mean util {r.mean_u:.0f}%, median {r.med_u:.0f}%, {_pct(r.low, n)} of samples under 15%, {_pct(r.high, n)} at 80% or more"]
    if r.idle_between:
        ev.append(f"{r.idle_between} times the GPU dropped to idle between busy samples (waiting for the next batch)")
    hint = re.search(r"num_workers\s*=\s*0\b|pin_memory\s*=\s*false", r.text)
    if hint:
        ev.append(f"the text sets {hint.group(0)}")
    if (r.low >= 0.25 * n and r.high >= 0.15 * n) or r.idle_between >= max(2, n // 20) or (r.mean_u < 40 and r.busy and max(r.util) >= 80):
        st: _Status = "likely"
    elif hint or r.mean_u < 50:
        st = "possible"
    else:
        st = "unlikely"
    return UtilDimension(name="data_loading", status=st,
                         message={"likely": "The GPU waits for input: utilization drops to idle between batches.",
                                  "possible": "Utilization is low; the GPU may be waiting for input."}.get(st, "No sign of the GPU waiting for input."),
                         fix="DataLoader(num_workers=4 or more, pin_memory=True, persistent_workers=True, prefetch_factor=4); move decoding/augmentation off the main process; non_blocking=True on .to(device).",
                         evidence=tuple(ev),
                         commands=(("nvidia-smi", "dmon", "-s", "u", "-d", "1"), ("py-spy", "top", "--pid", "<training PID>")))


def _host_device_sync(r: _Run) -> UtilDimension:
    ev = [f"utilization spread (standard deviation) {r.spread:.0f} points around a median of {r.med_u:.0f}%"]
    sync_hint = re.search(r"\.item\(\)|\.cpu\(\)|synchronize|cudastreamsynchronize|\.tolist\(\)|print\(loss", r.text)
    if sync_hint:
        ev.append(f"the text shows {sync_hint.group(0)} (each one makes the CPU wait for the GPU)")
    if 25 <= r.med_u <= 80 and r.spread <= 20:
        st: _Status = "likely" if sync_hint else "possible"
    elif sync_hint:
        st = "possible"
    else:
        st = "unlikely"
    return UtilDimension(name="host_device_sync", status=st,
                         message="Steady mid-level utilization: the CPU and GPU take turns waiting for each other (synchronising calls in the loop)." if st != "unlikely" else "No sign of frequent host-device synchronisation.",
                         fix="Remove .item(), .cpu(), print(tensor) and torch.cuda.synchronize() from the hot loop (log every N steps); keep metrics on the GPU; use non_blocking copies from pinned memory.",
                         evidence=tuple(ev),
                         commands=(("{python}", "-c", "import torch; torch.cuda.set_sync_debug_mode('warn')  # in the script: warns on every synchronising call"),))


def _launch_overhead(r: _Run) -> UtilDimension:
    ev = []
    frac = r.power_frac
    if frac is not None and r.p_mean is not None and r.limit:
        ev.append(f"mean power {r.p_mean:.0f} W of a {r.limit:.0f} W limit ({frac * 100:.0f}%) at mean util {r.mean_u:.0f}%")
    if frac is not None and r.mean_u >= 70 and frac < 0.45:
        st: _Status = "likely"
    elif frac is not None and r.mean_u >= 50 and frac < 0.6:
        st = "possible"
    elif frac is None:
        st = "unknown"
    else:
        st = "unlikely"
    return UtilDimension(name="launch_overhead", status=st,
                         message="Utilization reads high while power stays low: many small kernels, each too short to fill the GPU; launch overhead dominates." if st in ("likely", "possible") else ("No power figures (or no power limit) to tell." if st == "unknown" else "Power follows utilization: kernels fill the GPU."),
                         fix="Batch more work per kernel (bigger batch), use torch.compile (mode='reduce-overhead' uses CUDA graphs) or capture the step with torch.cuda.graphs; fuse small ops.",
                         evidence=tuple(ev),
                         commands=(("{python}", "-m", "torch.utils.bottleneck", "<your_script.py>"),))


def _memory_bound(r: _Run) -> UtilDimension:
    ev = []
    mean_mem = statistics.fmean(r.mem) if r.mem else None
    if mean_mem is not None:
        ev.append(f"memory-controller util {mean_mem:.0f}% against SM util {r.mean_u:.0f}%")
    layout_hint = re.search(r"channels_last|nchw|conv2d|float32|fp32", r.text)
    if layout_hint:
        ev.append(f"the text mentions {layout_hint.group(0)}")
    frac = r.power_frac
    if mean_mem is not None and mean_mem >= 60 and (frac is None or frac < 0.85):
        st: _Status = "likely"
    elif mean_mem is not None and mean_mem >= 40 and mean_mem >= 0.6 * r.mean_u:
        st = "possible"
    elif mean_mem is None:
        st = "unknown"
    else:
        st = "unlikely"
    return UtilDimension(name="memory_bound", status=st,
                         message="The kernels wait on memory bandwidth rather than compute." if st in ("likely", "possible") else ("No memory-controller readings to tell." if st == "unknown" else "Memory bandwidth is not the limit."),
                         fix="Use channels_last for convolutions (model.to(memory_format=torch.channels_last) and the inputs), bf16/fp16 autocast to halve the bytes moved, and fused optimizers (fused=True).",
                         evidence=tuple(ev),
                         commands=(("nvidia-smi", "dmon", "-s", "u", "-d", "1"),))


def _throttling(r: _Run, ev: list[str]) -> tuple[_Status, bool, int]:
    """The power/thermal throttling seen under load: (status so far, the GPU runs at its rated power, power-capped samples)."""
    busy_rows = [(u, x) for u, x in zip(r.util, r.reasons) if u >= 50]
    thr_power = sum(1 for _, x in busy_rows if set(x) & _POWER_REASONS)
    thr_thermal = sum(1 for _, x in busy_rows if set(x) & _THERMAL_REASONS)
    st: _Status = "unlikely" if (r.limits or r.reasons) else "unknown"
    lowered = bool(r.limit and r.default_limit and r.limit < 0.9 * r.default_limit)
    at_rated_power = bool(r.limit and r.default_limit and not lowered)
    if busy_rows and thr_thermal >= max(1, 0.2 * len(busy_rows)):
        ev.append(f"under load, {_pct(thr_thermal, len(busy_rows))} of samples were slowed for temperature")
        st = "likely"
    if busy_rows and thr_power:
        share = _pct(thr_power, len(busy_rows))
        if lowered:
            ev.append(f"under load, {share} of samples were power-capped")
        elif at_rated_power and r.default_limit:
            ev.append(f"under load, {share} of samples ran at the power cap, which is the default {r.default_limit:.0f} W: "
                      "the GPU works at its rated power (full speed for this card)")
        else:
            ev.append(f"under load, {share} of samples were power-capped (is the limit below the default? nvidia-smi -q -d POWER)")
            if thr_power >= 0.2 * len(busy_rows) and st != "likely":
                st = "possible"
    if lowered and r.limit and r.default_limit:
        ev.append(f"power limit {r.limit:.0f} W is below the default {r.default_limit:.0f} W (sudo nvidia-smi -pl {r.default_limit:.0f} restores it)")
        st = "likely"
    return st, at_rated_power, thr_power


def _power_clock_limits(r: _Run) -> UtilDimension:
    ev: list[str] = []
    st, at_rated_power, thr_power = _throttling(r, ev)
    if r.clocks and r.max_clock:
        busy_clocks = [c for c, u in zip(r.clocks, r.util) if u >= 50] or r.clocks
        cm = statistics.median(busy_clocks)
        if cm < 0.7 * r.max_clock:
            ev.append(f"median SM clock under load {cm:.0f} MHz, {100 * cm / r.max_clock:.0f}% of the {r.max_clock} MHz maximum")
            if not (at_rated_power and thr_power):
                st = "likely" if st in ("likely", "possible") else "possible"
    return UtilDimension(name="power_clock_limits", status=st,
                         message="The GPU is held back by its power limit or temperature." if st in ("likely", "possible") else ("No power or throttle readings to tell." if st == "unknown" else "No power or thermal throttling seen."),
                         fix="Restore the default power limit (sudo nvidia-smi -pl <default W>), improve cooling/airflow, check that a laptop runs on mains power in its performance mode.",
                         evidence=tuple(ev),
                         commands=(("nvidia-smi", "-q", "-d", "PERFORMANCE,POWER,CLOCK"),))


def _summary(r: _Run, likely: list[str]) -> str:
    if r.med_u >= 90 and not likely:
        return (f"Utilization is high (median {r.med_u:.0f}%, mean {r.mean_u:.0f}% including idle moments); "
                "nothing holds the GPU back.")
    if likely:
        return f"Mean utilization {r.mean_u:.0f}%; most likely held back by: {', '.join(likely)}."
    return f"Mean utilization {r.mean_u:.0f}%; no single cause stands out (see the possible ones)."


def analyze_utilization(samples: Any, facts: Any = None, text: str = "", gpu_index: Optional[int] = None) -> UtilizationAnalysis:
    """`samples`: a list of sample dicts / Sample values, or a whole Verification (value or JSON),
    whose device figures (default power limit, maximum SM clock) then inform the power verdict."""
    devices: dict[int, dict] = {}
    if isinstance(samples, dict) or hasattr(samples, "samples"):
        samples, devices = _from_verification(samples)
    rows = [s for s in samples if s is not None]
    if gpu_index is None:
        idxs = [_get(s, "gpu_index") for s in rows if _get(s, "gpu_index") is not None]
        gpu_index = max(set(idxs), key=idxs.count) if idxs else None
    if gpu_index is not None:
        rows = [s for s in rows if _get(s, "gpu_index") in (None, gpu_index)]
    util = _series(rows, "util_pct")
    if not util:
        return UtilizationAnalysis(samples=len(rows), summary="No utilization figures in the samples.")
    r = _run(rows, util, facts, devices, gpu_index, text)
    dims = [_data_loading(r), _host_device_sync(r), _launch_overhead(r), _memory_bound(r), _power_clock_limits(r)]
    order = {"likely": 0, "possible": 1, "unknown": 2, "unlikely": 3}
    dims.sort(key=lambda d: order[d.status])
    likely: list[str] = [d.name for d in dims if d.status == "likely"]
    return UtilizationAnalysis(samples=len(rows), busy_samples=r.busy, util_mean_pct=round(r.mean_u, 1),
                               util_median_pct=round(r.med_u, 1), power_mean_w=round(r.p_mean, 1) if r.p_mean is not None else None,
                               power_limit_w=r.limit, dimensions=tuple(dims), summary=_summary(r, likely))


_DMON_HEADER = re.compile(r"^#\s*gpu\s+(.+)$", re.IGNORECASE)
_DMON_KEYS = {"pwr": "power_w", "sm": "util_pct", "mem": "mem_util_pct", "pclk": "sm_clock_mhz", "mclk": "mem_clock_mhz",
              "gtemp": "temp_c", "temp": "temp_c", "rxpci": "pcie_rx_mbps", "txpci": "pcie_tx_mbps"}


def parse_dmon(text: str) -> list[dict]:
    """Samples from `nvidia-smi dmon` output (what users paste): one dict per data row with the
    sampler's keys (util_pct from the sm column, power_w, mem_util_pct, sm_clock_mhz, ...).
    A `pviol` (power violation %) above 0 is read as the sw_power_cap throttle reason."""
    cols: list[str] = []
    out: list[dict] = []
    t = 0.0
    for line in text.splitlines():
        m = _DMON_HEADER.match(line.strip())
        if m:
            cols = ["gpu"] + m.group(1).split()
            continue
        if not cols or line.lstrip().startswith("#"):
            continue
        parts = line.split()
        if len(parts) < len(cols) // 2 or not parts[0].isdigit():
            continue
        row: dict = {"gpu_index": int(parts[0]), "t_s": t, "throttle_reasons": []}
        for name, val in zip(cols[1:], parts[1:]):
            key = _DMON_KEYS.get(name.lower())
            try:
                num = float(val)
            except ValueError:
                continue
            if key:
                row[key] = num
            elif name.lower() == "pviol" and num > 0:
                row["throttle_reasons"].append("sw_power_cap")
            elif name.lower() == "tviol" and num > 0:
                row["throttle_reasons"].append("sw_thermal")
        out.append(row)
        t += 1.0
    return out
