"""The wizard's side of a burn-in: durations, and the tracker that turns the probe's burn events, every
NVML sample and every Xid into one `BurnIn` (app.verify.model) with every GPU's summary beside its
ceilings and each fault on the time axis.

    tracker = BurnTracker(seconds=600, started="2026-12-02T14:00:00+00:00", thresholds={0: {...}})
    tracker.on_event(ev, t_s)       # the probe's {"event": "burn"|"result"|"error", ...} lines
    tracker.on_sample(sample)       # every sample (the sampler's callback: nothing is lost to thinning)
    tracker.on_xid(t_s, nvml_index, xid, text)
    burn = tracker.result(gpus, samples, cancelled=False)   # gpus: the judged GpuResults (names, ceilings)

Counters (ECC, retired pages, row remapping, PCIe replays) are held against their first reading, so a
count the GPU had before the burn-in is no fault of this run; each rise becomes an event at its time.
"""
from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field
from statistics import median
from typing import Any, Optional, Sequence

from app.model import ModelError
from app.verify.model import (HEALTH_COUNTERS, AllReduce, BurnEvent, BurnGpu, BurnIn, BurnPhase, BurnRate, GpuResult,
                              P2PPair, PhaseSpan, Sample)
from app.verify import peaks

DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(s|sec|secs|seconds?|m|min|mins|minutes?|h|hr|hrs|hours?)?\s*$", re.I)
MAX_BURN_S = 72 * 3600.0
LOAD_PREFIXES = ("memtest", "matmul", "membw")
THERMAL = ("sw_thermal", "hw_thermal", "hw_slowdown")
MAX_RATES_PER_GPU = 4000  # rates kept per GPU (one a second: past an hour, every other one)
COUNTER_EVENT = {"ecc_corrected": "ecc_corrected", "ecc_uncorrected": "ecc_uncorrected", "retired_pages": "retired_pages",
                 "retired_pending": "retired_pages", "remapped_cor": "remap", "remapped_unc": "remap",
                 "remap_pending": "remap", "remap_failure": "remap_failure", "pcie_replay": "pcie_replay"}


class DurationError(ValueError):
    pass


@dataclass(frozen=True)
class BurnLive:
    phase: Optional[str]
    spans: tuple[PhaseSpan, ...]
    events: tuple[BurnEvent, ...]
    rates: tuple[BurnRate, ...]
    thresholds: dict[int, dict[str, Optional[float]]]
    seconds: float = 0.0  # the load asked for (its phases' planned time)


def parse_duration(text: str) -> float:
    """'10m' -> 600, '2h' -> 7200, '90s' or '90' -> 90, '1.5h' -> 5400. DurationError for anything else
    (no number, a unit we do not know, zero, more than 72 h)."""
    m = DURATION.match(str(text))
    if not m:
        raise DurationError(f"{text!r}: give a duration such as 10m, 2h or 90s")
    n = float(m.group(1))
    unit = (m.group(2) or "s").lower()[0]
    seconds = n * {"s": 1, "m": 60, "h": 3600}[unit]
    if not 0 < seconds <= MAX_BURN_S:
        raise DurationError(f"{text!r}: a burn-in runs between 1 s and 72 h")
    return seconds


def is_load_phase(phase: Optional[str]) -> bool:
    return bool(phase) and str(phase).startswith(LOAD_PREFIXES)


@dataclass
class _GpuWatch:
    """Online state of one GPU (NVML index), updated from every sample."""

    first: dict[str, int] = field(default_factory=dict)
    last: dict[str, int] = field(default_factory=dict)
    prev_t: Optional[float] = None
    throttle_s: dict[str, float] = field(default_factory=dict)
    thermal_on: bool = False
    brake_on: bool = False
    first_thermal: Optional[float] = None
    temp_max: Optional[float] = None
    temp_max_t: Optional[float] = None
    fan_max: Optional[float] = None
    gen_max: Optional[int] = None
    width_max: Optional[int] = None
    gen_min: Optional[int] = None
    width_min: Optional[int] = None
    low_link: int = 0  # consecutive load samples below the link's best
    link_dropped: bool = False
    load_s: float = 0.0


class BurnTracker:
    def __init__(self, seconds: float, started: Optional[str] = None,
                 thresholds: Optional[dict[int, dict[str, Optional[float]]]] = None, xid_source: str = "", xid_note: str = ""):
        self.seconds = float(seconds)
        self.started = started
        self.thresholds = thresholds or {}
        self.xid_source, self.xid_note = xid_source, xid_note
        self._lock = threading.Lock()
        self.events: list[BurnEvent] = []
        self.rates: list[BurnRate] = []
        self.results: list[BurnPhase] = []
        self.p2p: list[P2PPair] = []
        self.allreduce: Optional[AllReduce] = None
        self.dtypes: tuple[str, ...] = ()
        self.spans: list[PhaseSpan] = []
        self.phase: Optional[str] = None
        self._phase_t0 = 0.0
        self._planned = 0.0
        self._watch: dict[int, _GpuWatch] = {}
        self._nvml_of: dict[int, int] = {}  # CUDA index -> NVML index, when known
        self._rate_every: dict[int, int] = {}
        self._rate_n: dict[int, int] = {}
        self.last_t = 0.0
        self.links: dict[tuple[int, int], Any] = {}  # (NVML a, NVML b) -> topology.PairLink
        self.sampler_note = ""  # set at the end: why nothing was sampled (then no figure of heat or clocks is judged)
        self.health_note = ""  # set at the end: why the health counters were not read

    # ------------------------------------------------------------ the probe's events
    def on_event(self, ev: dict[str, Any], t_s: float) -> None:
        with self._lock:
            self.last_t = max(self.last_t, t_s)
            kind = ev.get("kind")
            if ev.get("event") == "burn":
                self._burn_event(kind, ev, t_s)
            elif ev.get("event") == "result" and kind in ("burn_phase", "p2p", "allreduce"):
                self._result(kind, ev)
            elif ev.get("event") == "error" and ev.get("layer") == "burnin":
                self.events.append(BurnEvent(t_s=round(t_s, 2), kind="error", gpu_index=_int(ev.get("gpu")), phase=self.phase,
                                             detail=str(ev.get("message") or "").splitlines()[0][:300] if ev.get("message") else ""))

    def _burn_event(self, kind: Any, ev: dict[str, Any], t: float) -> None:
        gpu = _int(ev.get("gpu"))
        if kind == "plan":
            self.dtypes = tuple(str(x) for x in ev.get("dtypes") or () if isinstance(x, str))
        elif kind == "phase":
            self._close_phase(t)
            name = ev.get("phase")
            self.phase = str(name) if isinstance(name, str) and name else None
            self._phase_t0, self._planned = t, _float(ev.get("seconds")) or 0.0
        elif kind == "rate" and gpu is not None and _float(ev.get("value")) is not None:
            self._add_rate(BurnRate(t_s=round(t, 2), gpu_index=gpu, phase=str(ev.get("phase") or self.phase or ""),
                                    value=float(ev["value"]), unit="gbps" if ev.get("unit") == "gbps" else "tflops",
                                    series=str(ev.get("series") or "")))
        elif kind == "mismatch":
            detail = "reference" if ev.get("reference") else ""
            self.events.append(BurnEvent(t_s=round(t, 2), kind="mismatch", gpu_index=gpu, phase=str(ev.get("phase") or self.phase),
                                         count=max(1, _int(ev.get("count")) or 1), detail=detail))
        elif kind == "memtest" and (_int(ev.get("errors")) or 0) > 0:
            off = _int(ev.get("first_offset"))
            self.events.append(BurnEvent(t_s=round(t, 2), kind="memtest", gpu_index=gpu, phase="memtest",
                                         count=_int(ev.get("errors")) or 1, value=float(off) if off is not None else None,
                                         detail=str(ev.get("pattern") or "")))

    def _close_phase(self, t: float) -> None:
        if self.phase is not None:
            self.spans.append(PhaseSpan(phase=self.phase, t0_s=round(self._phase_t0, 2), t1_s=round(t, 2),
                                        planned_s=self._planned))
        self.phase = None

    def _add_rate(self, r: BurnRate) -> None:
        every = self._rate_every.setdefault(r.gpu_index, 1)
        n = self._rate_n.get(r.gpu_index, 0)
        self._rate_n[r.gpu_index] = n + 1
        if n % every:
            return
        self.rates.append(r)
        mine = [x for x in self.rates if x.gpu_index == r.gpu_index]
        if len(mine) > MAX_RATES_PER_GPU:  # keep every other one from now on, and of what is kept
            drop = set(map(id, mine[1::2]))
            self.rates = [x for x in self.rates if id(x) not in drop]
            self._rate_every[r.gpu_index] = every * 2

    def _result(self, kind: str, ev: dict[str, Any]) -> None:
        data = ev.get("data")
        try:
            if kind == "burn_phase" and isinstance(data, dict) and _int(ev.get("gpu")) is not None:
                self.results.append(BurnPhase.from_json({**data, "gpu_index": int(ev["gpu"])}))
            elif kind == "p2p" and isinstance(data, list):
                self.p2p = [P2PPair.from_json(x) for x in data if isinstance(x, dict)]
            elif kind == "allreduce" and isinstance(data, dict):
                self.allreduce = AllReduce.from_json(data)
        except (ModelError, TypeError, ValueError):
            self.events.append(BurnEvent(t_s=round(self.last_t, 2), kind="error", detail=f"unreadable {kind} result"))

    # ------------------------------------------------------------ every sample
    def on_sample(self, s: Sample) -> None:
        with self._lock:
            w = self._watch.setdefault(s.gpu_index, _GpuWatch())
            dt = (s.t_s - w.prev_t) if w.prev_t is not None and s.t_s > w.prev_t else 0.0
            w.prev_t = s.t_s
            self._counters(w, s)
            if not is_load_phase(s.phase):
                return
            w.load_s += dt
            for r in s.throttle_reasons:
                w.throttle_s[r] = w.throttle_s.get(r, 0.0) + dt
            self._throttle(w, s)
            if s.temp_c is not None and (w.temp_max is None or s.temp_c > w.temp_max):
                w.temp_max, w.temp_max_t = float(s.temp_c), s.t_s
            if s.fan_pct is not None:
                w.fan_max = max(w.fan_max or 0.0, float(s.fan_pct))
            self._link(w, s)

    def _counters(self, w: _GpuWatch, s: Sample) -> None:
        for name in HEALTH_COUNTERS:
            v = getattr(s, name)
            if v is None:
                continue
            w.first.setdefault(name, int(v))
            before = w.last.get(name, w.first[name])
            w.last[name] = int(v)
            if v > before:
                self.events.append(BurnEvent(t_s=round(s.t_s, 2), kind=COUNTER_EVENT[name], gpu_index=self._cuda(s.gpu_index),
                                             phase=s.phase, count=int(v) - before, value=float(v), detail=name))

    def _throttle(self, w: _GpuWatch, s: Sample) -> None:
        thermal = [r for r in s.throttle_reasons if r in THERMAL]
        if thermal and not w.thermal_on:
            if w.first_thermal is None:
                w.first_thermal = s.t_s
            self.events.append(BurnEvent(t_s=round(s.t_s, 2), kind="thermal", gpu_index=self._cuda(s.gpu_index), phase=s.phase,
                                         value=float(s.temp_c) if s.temp_c is not None else None, detail=",".join(thermal)))
        w.thermal_on = bool(thermal)
        brake = "hw_power_brake" in s.throttle_reasons
        if brake and not w.brake_on:
            self.events.append(BurnEvent(t_s=round(s.t_s, 2), kind="power_brake", gpu_index=self._cuda(s.gpu_index), phase=s.phase,
                                         value=s.power_w))
        w.brake_on = brake

    def _link(self, w: _GpuWatch, s: Sample) -> None:
        gen, width = s.pcie_gen_current, s.pcie_width_current
        if not gen or not width:
            return
        w.gen_max, w.width_max = max(w.gen_max or 0, gen), max(w.width_max or 0, width)
        w.gen_min = gen if w.gen_min is None else min(w.gen_min, gen)
        w.width_min = width if w.width_min is None else min(w.width_min, width)
        low = width < (w.width_max or 0) or gen < (w.gen_max or 0)
        w.low_link = w.low_link + 1 if low else 0
        if w.low_link == 3 and not w.link_dropped:  # three samples in a row: not a reading caught mid-change
            w.link_dropped = True
            self.events.append(BurnEvent(t_s=round(s.t_s, 2), kind="link_drop", gpu_index=self._cuda(s.gpu_index), phase=s.phase,
                                         value=float(width), detail=f"gen {gen} x{width} (was gen {w.gen_max} x{w.width_max})"))

    def on_xid(self, t_s: float, nvml_index: Optional[int], xid: int, text: str) -> None:
        with self._lock:
            self.events.append(BurnEvent(t_s=round(t_s, 2), kind="xid", gpu_index=self._cuda(nvml_index) if nvml_index is not None else None,
                                         phase=self.phase, value=float(xid), detail=text[:300]))

    def map_gpus(self, cuda_to_nvml: dict[int, int]) -> None:
        """Which NVML index each CUDA index is (events from samples are said by CUDA index)."""
        self._nvml_of = dict(cuda_to_nvml)

    def _cuda(self, nvml_index: int) -> int:
        return next((c for c, n in self._nvml_of.items() if n == nvml_index), nvml_index)

    def live(self) -> "BurnLive":
        """What a window shows while the burn-in runs (a copy: the tracker goes on in its threads)."""
        with self._lock:
            spans = list(self.spans) + ([PhaseSpan(phase=self.phase, t0_s=round(self._phase_t0, 2), t1_s=round(self.last_t, 2))]
                                        if self.phase else [])
            return BurnLive(phase=self.phase, spans=tuple(spans), events=tuple(self.events), rates=tuple(self.rates),
                            thresholds=dict(self.thresholds), seconds=self.seconds)

    # ------------------------------------------------------------ the end
    def result(self, gpus: Sequence[GpuResult], samples: Sequence[Sample], cancelled: bool = False) -> BurnIn:
        with self._lock:
            if self.phase is not None:
                self._close_phase(self.last_t)
            summaries = tuple(self._gpu(g, samples) for g in gpus)
            ran = sum(s.t1_s - s.t0_s for s in self.spans if is_load_phase(s.phase))
            pairs = tuple(self._with_link(p) for p in self.p2p)
            ar = self.allreduce
            if ar is not None and ar.ceiling_gbps is None and pairs:
                ceilings = [p.ceiling_gbps for p in pairs if p.ceiling_gbps]
                ar = ar.replace(ceiling_gbps=min(ceilings) if ceilings else None)
            return BurnIn(seconds=self.seconds, ran_s=round(ran, 1), cancelled=cancelled, dtypes=self.dtypes,
                          phases=tuple(self.spans), gpus=summaries, results=tuple(self.results),
                          events=tuple(sorted(self.events, key=lambda e: e.t_s)), rates=tuple(self.rates),
                          p2p=pairs, allreduce=ar, xid_source=self.xid_source,
                          xid_note=self.xid_note, started=self.started, sampler_note=self.sampler_note,
                          health_note=self.health_note)

    def _with_link(self, p: P2PPair) -> P2PPair:
        link = self.links.get((self._nvml_of.get(p.src, p.src), self._nvml_of.get(p.dst, p.dst)))
        if link is None or p.ceiling_gbps is not None:
            return p
        return p.replace(link=link.link, topology=link.topology, ceiling_gbps=link.ceiling_gbps)

    def _gpu(self, g: GpuResult, samples: Sequence[Sample]) -> BurnGpu:
        d = g.device
        nv = d.nvml_index if d.nvml_index is not None else g.index
        w = self._watch.get(nv, _GpuWatch())
        th = self.thresholds.get(nv, {})
        mine = [s for s in samples if s.gpu_index == nv and is_load_phase(s.phase)]
        mm = [s for s in mine if str(s.phase).startswith("matmul")] or mine
        res = [r for r in self.results if r.gpu_index == g.index]
        peak = peaks.lookup(d.name)
        mem_peak = peak.mem_gbps if peak and peak.mem_gbps else g.bandwidth.memory_theoretical_gbps
        mt = [r for r in res if r.phase == "memtest"]
        limit = next((s.power_limit_w for s in reversed(mine) if s.power_limit_w), None) or d.power_limit_w
        return BurnGpu(
            index=g.index, nvml_index=d.nvml_index, name=d.name, load_s=round(w.load_s, 1), power_limit_w=limit,
            sm_clock_max_mhz=d.sm_clock_max_mhz, temp_slowdown_c=th.get("slowdown"), temp_shutdown_c=th.get("shutdown"),
            temp_max_operating_c=th.get("gpu_max"), peak_tflops=dict(peak.tflops) if peak else {}, peak_mem_gbps=mem_peak,
            peak_source=peak.source if peak else ("NVML memory clock x bus width" if mem_peak else ""),
            sm_clock_median_mhz=_med([s.sm_clock_mhz for s in mm]), sm_clock_min_mhz=_min([s.sm_clock_mhz for s in mm]),
            power_median_w=_med([s.power_w for s in mm]), power_max_w=_max([s.power_w for s in mine]),
            util_median_pct=_med([s.util_pct for s in mm]), temp_max_c=w.temp_max, temp_max_t_s=w.temp_max_t, fan_max_pct=w.fan_max,
            throttle_s={k: round(v, 1) for k, v in sorted(w.throttle_s.items())}, first_thermal_t_s=w.first_thermal,
            counters={k: [w.first[k], w.last.get(k, w.first[k])] for k in w.first}, link_gen_max=w.gen_max,
            link_width_max=w.width_max, link_gen_min=w.gen_min, link_width_min=w.width_min,
            tflops=_best_of(res),
            mem_gbps=_med([r.value for r in res if r.phase == "membw" and r.dtype != "copy"]),
            mem_copy_gbps=_med([r.value for r in res if r.phase == "membw" and r.dtype == "copy"]),
            checks=sum(r.checks for r in res if r.phase != "memtest"),
            mismatches=sum(e.count for e in self.events if e.kind == "mismatch" and e.gpu_index == g.index),
            memtest_bytes=max((r.bytes or 0 for r in mt), default=None) or None,
            memtest_share=max((r.share_of_total or 0.0 for r in mt), default=None) or None,
            memtest_passes=sum(r.passes or 0 for r in mt),
            memtest_errors=sum(e.count for e in self.events if e.kind == "memtest" and e.gpu_index == g.index),
            watched=self._watched(w))

    def _watched(self, w: _GpuWatch) -> dict[str, str]:
        """Each health counter: "yes", "not reported by this GPU" (it was read and has none), or
        "not read" (nothing was sampled, or the counters could not be read: the BurnIn's notes say why)."""
        out = {"xid": "yes" if self.xid_source else (self.xid_note or "not watched")}
        unread = w.prev_t is None or bool(self.sampler_note or self.health_note)
        for name in ("ecc_uncorrected", "remapped_unc", "retired_pages", "pcie_replay"):
            out[name] = "yes" if name in w.first else "not read" if unread else "not reported by this GPU"
        return out


def _best_of(res: Sequence[BurnPhase]) -> dict[str, float]:
    """A precision measured in several cycles: the median of its cycles' medians."""
    by: dict[str, list[float]] = {}
    for r in res:
        if r.dtype and r.value is not None and r.unit == "tflops" and r.phase.startswith("matmul"):
            by.setdefault(r.dtype, []).append(r.value)
    return {k: round(median(v), 2) for k, v in by.items()}


def _med(xs: Sequence[Optional[float]]) -> Optional[float]:
    v = [float(x) for x in xs if x is not None]
    return round(median(v), 1) if v else None


def _min(xs: Sequence[Optional[float]]) -> Optional[float]:
    v = [float(x) for x in xs if x is not None]
    return min(v) if v else None


def _max(xs: Sequence[Optional[float]]) -> Optional[float]:
    v = [float(x) for x in xs if x is not None]
    return max(v) if v else None


def _int(v: Any) -> Optional[int]:
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def _float(v: Any) -> Optional[float]:
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None
