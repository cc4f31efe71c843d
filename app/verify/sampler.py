"""NVML sampler in the wizard's process: a background thread reads every GPU at 10 Hz (or
faster) and hands each `Sample` to a callback (the GUI's live charts) and to a list.

    s = Sampler(on_sample=callback, interval_s=0.1)
    if s.start():       # False (with s.reason) when NVML or a GPU is missing: a no-op
        ...
    stats = s.stop()    # joins the thread; SamplerStats with the achieved rate and CPU cost

Cheap by design: handles are looked up once; each tick makes about eight NVML calls per GPU
(utilization, memory, power, clocks, temperature, clock event reasons, PCIe byte counters).
Values that change rarely (power limit, PCIe link generation and width) are re-read once a
second. PCIe rx/tx come from NVML's cumulative byte counters (field values
NVML_FI_DEV_PCIE_COUNT_RX/TX_BYTES, rate = difference over time, read every 0.5 s: that one
call costs ~170 us of CPU, measured on the H200 with driver 580) where the driver has them;
else from nvmlDeviceGetPcieThroughput, which measures over a 20 ms window per call and costs
CPU, so it is refreshed once a second too. `SamplerStats.pcie_every_s` says how fresh they are.
The thread's own CPU time (time.thread_time) over wall time gives `cpu_pct_of_core`.

A burn-in also asks for `health=True`: every `health_every_s` (0: every tick) one more field-values
call per GPU reads the ECC, retirement, row-remap and PCIe replay counters, and the fan
(app.verify.health.HealthReader); the GPU's temperature thresholds are read once (`thresholds`), and
`on_xid` starts an Xid watcher (NVML events, else the kernel log). `max_keep` bounds the samples kept:
past it every other one is dropped and the rest kept at half the rate (the callback still sees all).
"""
from __future__ import annotations

import threading
import time
from typing import Any, Callable, Optional

from app.verify.health import HealthReader, XidCallback, XidWatcher
from app.verify.model import Sample, SamplerStats

# NVML clock event ("throttle") reason bits: nvml.h nvmlClocksEventReason*
THROTTLE_BITS: tuple[tuple[int, str], ...] = (
    (0x1, "gpu_idle"),
    (0x2, "applications_clocks_setting"),
    (0x4, "sw_power_cap"),
    (0x8, "hw_slowdown"),
    (0x10, "sync_boost"),
    (0x20, "sw_thermal"),
    (0x40, "hw_thermal"),
    (0x80, "hw_power_brake"),
    (0x100, "display_clock_setting"),
)


MAX_FAILED = 20  # ticks in a row that raise before the sampler gives up (2 s at 10 Hz)
HEALTH_CPU_SHARE = 0.0025  # the health counters may cost this share of a core (0.25%); read less often if more
FI_PCIE_TX_BYTES = 197  # nvml.h NVML_FI_DEV_PCIE_COUNT_TX_BYTES
FI_PCIE_RX_BYTES = 198  # NVML_FI_DEV_PCIE_COUNT_RX_BYTES


def throttle_names(mask: Optional[int]) -> tuple[str, ...]:
    if not mask:
        return ()
    return tuple(name for bit, name in THROTTLE_BITS if mask & bit)


def _why(e: BaseException) -> str:
    text = (str(e) or "").splitlines()[0][:200] if str(e) else ""
    return f"{type(e).__name__}: {text}" if text else type(e).__name__


def _import_nvml() -> Any:
    import pynvml  # nvidia-ml-py

    return pynvml


class Sampler:
    def __init__(self, on_sample: Optional[Callable[[Sample], None]] = None, interval_s: float = 0.1,
                 nvml: Any = None, phase: Optional[Callable[[], Optional[str]]] = None, keep: bool = True,
                 t0: Optional[float] = None, pcie: str = "auto", slow_every_s: float = 1.0,
                 pcie_every_s: float = 0.5, health: bool = False, health_every_s: float = 0.0,
                 on_xid: Optional[XidCallback] = None, kmsg_path: str = "/dev/kmsg", max_keep: int = 0):
        self.on_sample = on_sample
        self.interval_s = max(0.01, float(interval_s))
        self._nvml = nvml
        self._phase = phase
        self.keep = keep
        self.pcie_mode = pcie  # "auto" (counters, else the 20 ms throughput call once a second), "counters", "throughput", "off"
        self.slow_every_s = slow_every_s
        self.pcie_every_s = pcie_every_s  # the counters' field-value call costs ~170 us of CPU (H200, driver 580)
        self.samples: list[Sample] = []
        self.reason = ""
        self._thread: Optional[threading.Thread] = None
        self._stop = threading.Event()
        self._handles: list[tuple[int, Any]] = []
        self._t0 = t0
        self._cpu_s = 0.0
        self._wall_s = 0.0
        self._count = 0
        self._ticks = 0
        self._pcie: dict[int, tuple[Optional[float], Optional[float]]] = {}
        self._pcie_prev: dict[int, tuple[float, int, int]] = {}
        self._counters_ok: dict[int, bool] = {}
        self._slow: dict[int, tuple[Any, Any, Any]] = {}
        self._last_slow = 0.0
        self._reason_fn: Optional[str] = "nvmlDeviceGetCurrentClocksEventReasons"
        self._inited = False
        self.health, self.health_every_s = health, health_every_s
        self._health: Optional[HealthReader] = None
        self._health_last: dict[int, tuple[float, dict]] = {}
        self._health_cpu: list[float] = []
        self.thresholds: dict[int, dict[str, Optional[float]]] = {}  # NVML index -> slowdown/shutdown/gpu_max °C
        self.on_xid, self.kmsg_path = on_xid, kmsg_path
        self.xid: Optional[XidWatcher] = None
        self.max_keep, self._keep_every = max_keep, 1
        self.error = ""  # the first reading that raised while it ran ("TypeError: ...")
        self.health_note = ""  # why the health counters stopped being read, when they did
        self._failed = 0
        self._started_at: Optional[float] = None
        self._asked_s = 0.0  # from start() to stop(): what the rate and the CPU share are over

    # ------------------------------------------------------------ lifecycle
    def start(self) -> bool:
        """Start sampling. False, with `reason` set, when there is nothing to sample."""
        if self._thread is not None:
            return True
        try:
            n = self._nvml if self._nvml is not None else _import_nvml()
        except Exception as e:
            self.reason = f"NVML is not available (nvidia-ml-py: {type(e).__name__}: {e})"
            return False
        try:
            n.nvmlInit()
        except Exception as e:
            self.reason = f"NVML could not start: {type(e).__name__}: {e}"
            return False
        self._nvml, self._inited = n, True
        try:
            count = n.nvmlDeviceGetCount()
            for i in range(count):
                try:
                    self._handles.append((i, n.nvmlDeviceGetHandleByIndex(i)))
                except Exception:
                    continue
        except Exception as e:
            self.reason = f"NVML lists no GPU: {type(e).__name__}: {e}"
        if not self._handles:
            self.reason = self.reason or "no NVIDIA GPU visible to NVML"
            self._shutdown()
            return False
        if self._t0 is None:
            self._t0 = time.monotonic()
        self._start_watch()
        self._stop.clear()
        self._started_at = time.monotonic()
        self._thread = threading.Thread(target=self._loop, name="gpu-wizard-nvml-sampler", daemon=True)
        self._thread.start()
        return True

    def _start_watch(self) -> None:
        if self.health:
            self._health = HealthReader(self._nvml)
            for index, h in self._handles:
                self.thresholds[index] = self._health.thresholds(h)
        if self.on_xid is not None:
            self.xid = XidWatcher(self._nvml, self._handles, self.on_xid, kmsg_path=self.kmsg_path)
            self.xid.start()

    def stop(self, timeout: float = 5.0) -> SamplerStats:
        if self._thread is not None:
            if self._started_at is not None:
                self._asked_s = time.monotonic() - self._started_at
            self._stop.set()
            self._thread.join(timeout)
            self._thread = None
            if self.xid is not None:
                self.xid.stop()
            self._shutdown()
        return self.stats()

    def _shutdown(self) -> None:
        if self._inited:
            try:
                self._nvml.nvmlShutdown()
            except Exception:
                pass
            self._inited = False

    @property
    def handles(self) -> list[tuple[int, Any]]:
        """(NVML index, handle) of every GPU sampled (while it runs)."""
        return list(self._handles)

    @property
    def nvml(self) -> Any:
        return self._nvml if self._inited else None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def stats(self) -> SamplerStats:
        """The achieved rate and CPU share over the whole time it was asked to sample (start to stop), so a
        thread that stopped early shows as the few ticks it made, not as a fast one."""
        ran = self._count > 0
        wall = max(self._wall_s, self._asked_s) if not self.running else self._wall_s
        reason = "" if ran else (self.reason or (f"no sample was taken: {self.error}" if self.error else ""))
        return SamplerStats(
            ran=ran, reason=reason, interval_s=self.interval_s,
            rate_hz=round(self._ticks / wall, 2) if wall > 0 else None, count=self._count,
            cpu_pct_of_core=round(100.0 * self._cpu_s / wall, 3) if wall > 0 else None,
            pcie_every_s=self._pcie_every() if ran else None,
            health_every_s=max(self.interval_s, self.health_every_s) if ran and self._health is not None else None,
            error=self.error or self.health_note)

    def _pcie_every(self) -> Optional[float]:
        if self.pcie_mode == "off":
            return None
        if self.pcie_mode != "throughput" and self._counters_ok and all(self._counters_ok.values()):
            return max(self.interval_s, self.pcie_every_s)
        return self.slow_every_s

    # ------------------------------------------------------------ the thread
    def _loop(self) -> None:
        cpu0, wall0 = time.thread_time(), time.monotonic()
        next_t = wall0
        try:
            while not self._stop.is_set():
                try:
                    self._tick()
                    self._failed = 0
                except Exception as e:  # noqa: BLE001 - a reading nobody foresaw: said, never a silent dead thread
                    if self._fault(e):
                        break
                self._cpu_s = time.thread_time() - cpu0
                self._wall_s = time.monotonic() - wall0
                next_t += self.interval_s
                delay = next_t - time.monotonic()
                if delay < 0:  # fell behind (a slow NVML call): start the schedule again from now
                    next_t, delay = time.monotonic(), 0
                if self._stop.wait(delay):
                    break
        finally:
            self._cpu_s = time.thread_time() - cpu0
            self._wall_s = time.monotonic() - wall0

    def _fault(self, e: Exception) -> bool:
        """A tick that raised: kept in `error` (the first one), and True (stop) once MAX_FAILED ticks in a
        row have failed, with `reason` saying so."""
        self._failed += 1
        if not self.error:
            self.error = _why(e)
        if self._failed < MAX_FAILED:
            return False
        self.reason = f"the NVML sampler stopped after {self._failed} failed readings in a row: {self.error}"
        return True

    def _get(self, fn: str, *args: Any) -> Any:
        try:
            return getattr(self._nvml, fn)(*args)
        except Exception:
            return None

    def _pcie_counters(self, h: Any) -> Optional[tuple[int, int]]:
        """Cumulative (rx, tx) PCIe bytes from NVML field values, or None where unsupported."""
        n = self._nvml
        try:
            vals = n.nvmlDeviceGetFieldValues(h, [FI_PCIE_RX_BYTES, FI_PCIE_TX_BYTES])
        except Exception:
            return None
        out = []
        for v in vals:
            if getattr(v, "nvmlReturn", 1) != 0:
                return None
            out.append(int(getattr(v.value, "ullVal", 0)))
        return (out[0], out[1]) if len(out) == 2 else None

    def _tick(self) -> None:
        now = time.monotonic()
        t = now - (self._t0 or 0.0)
        phase = None
        if self._phase is not None:
            try:
                phase = self._phase()
            except Exception:
                phase = None
        slow = now - self._last_slow >= self.slow_every_s
        if slow:
            self._last_slow = now
        self._ticks += 1
        keep = self.keep and (self._ticks - 1) % self._keep_every == 0
        for index, h in self._handles:
            s = self._sample(index, h, now, t, phase, slow)
            self._count += 1
            if keep:
                self.samples.append(s)
            if self.on_sample is not None:
                try:
                    self.on_sample(s)
                except Exception:
                    pass
        if self.max_keep and len(self.samples) > self.max_keep:  # a long run: keep half, at half the rate
            self.samples = self.samples[::2]
            self._keep_every *= 2

    def _refresh_pcie(self, index: int, h: Any, now: float, slow: bool) -> None:
        n = self._nvml
        prev = self._pcie_prev.get(index)
        due = prev is None or now - prev[0] >= self.pcie_every_s - 1e-3
        if self.pcie_mode in ("auto", "counters") and self._counters_ok.get(index, True) and due:
            c = self._pcie_counters(h)
            if c is None:
                self._counters_ok[index] = False
            else:
                self._counters_ok[index] = True
                self._pcie_prev[index] = (now, c[0], c[1])
                if prev is not None and now > prev[0] and c[0] >= prev[1] and c[1] >= prev[2]:
                    dt = now - prev[0]
                    self._pcie[index] = (round((c[0] - prev[1]) / dt / 1e6, 3), round((c[1] - prev[2]) / dt / 1e6, 3))
        if (self.pcie_mode == "throughput" or (self.pcie_mode == "auto" and not self._counters_ok.get(index, True))) \
                and (slow or index not in self._pcie):
            rx = self._get("nvmlDeviceGetPcieThroughput", h, getattr(n, "NVML_PCIE_UTIL_RX_BYTES", 1))
            tx = self._get("nvmlDeviceGetPcieThroughput", h, getattr(n, "NVML_PCIE_UTIL_TX_BYTES", 0))
            self._pcie[index] = (rx / 1000.0 if rx is not None else None, tx / 1000.0 if tx is not None else None)

    def _health_values(self, index: int, h: Any, now: float) -> dict:
        if self._health is None:
            return {}
        last = self._health_last.get(index)
        if last is not None and now - last[0] < self.health_every_s - 1e-3:
            return last[1]
        c0 = time.thread_time()
        try:
            values = self._health.read(index, h)
        except Exception as e:  # noqa: BLE001 - the counters are off from here on, and why is said; samples go on
            self._health, self.health_note = None, f"the health counters could not be read: {_why(e)}"
            return {}
        self._health_cpu.append(time.thread_time() - c0)
        if len(self._health_cpu) == 5 * max(1, len(self._handles)):  # what one read costs here: keep it in budget
            per_s = sorted(self._health_cpu)[len(self._health_cpu) // 2] * len(self._handles)
            self.health_every_s = max(self.health_every_s, round(per_s / HEALTH_CPU_SHARE, 2))
        self._health_last[index] = (now, values)
        return values

    def _sample(self, index: int, h: Any, now: float, t: float, phase: Optional[str], slow: bool) -> Sample:
        n = self._nvml
        if slow or index not in self._slow:
            self._slow[index] = (
                self._get("nvmlDeviceGetEnforcedPowerLimit", h),
                self._get("nvmlDeviceGetCurrPcieLinkGeneration", h),
                self._get("nvmlDeviceGetCurrPcieLinkWidth", h),
            )
        limit, gen, width = self._slow[index]
        self._refresh_pcie(index, h, now, slow)
        util = self._get("nvmlDeviceGetUtilizationRates", h)
        mem = self._get("nvmlDeviceGetMemoryInfo", h)
        power = self._get("nvmlDeviceGetPowerUsage", h)
        mask = self._get(self._reason_fn, h) if self._reason_fn else None
        if mask is None and self._reason_fn == "nvmlDeviceGetCurrentClocksEventReasons":
            self._reason_fn = "nvmlDeviceGetCurrentClocksThrottleReasons"  # older nvidia-ml-py
            mask = self._get(self._reason_fn, h)
        rx_mbps, tx_mbps = self._pcie.get(index, (None, None))
        return Sample(
            t_s=round(t, 3), gpu_index=index,
            util_pct=float(util.gpu) if util is not None else None,
            mem_util_pct=float(util.memory) if util is not None else None,
            mem_used_mib=round(mem.used / 1048576.0, 1) if mem is not None else None,
            power_w=round(power / 1000.0, 1) if power is not None else None,
            power_limit_w=round(limit / 1000.0, 1) if limit is not None else None,
            sm_clock_mhz=self._get("nvmlDeviceGetClockInfo", h, getattr(n, "NVML_CLOCK_SM", 1)),
            mem_clock_mhz=self._get("nvmlDeviceGetClockInfo", h, getattr(n, "NVML_CLOCK_MEM", 2)),
            temp_c=self._get("nvmlDeviceGetTemperature", h, getattr(n, "NVML_TEMPERATURE_GPU", 0)),
            pcie_rx_mbps=rx_mbps, pcie_tx_mbps=tx_mbps,
            pcie_gen_current=gen, pcie_width_current=width,
            throttle_reasons=throttle_names(mask), phase=phase, **self._health_values(index, h, now))
