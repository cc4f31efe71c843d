"""Verification: what `verify` proved about the GPU stack, as one frozen, JSON-able value.

This is the contract the GUI's verify page and the report consume (`gpu-wizard verify --json`
prints `Verification.to_json()`). Add fields with defaults; never rename or remove one.
Units are in the names: `_gbps` is 10^9 bytes per second, `_tflops` 10^12 floating-point
operations per second, `_mib` 2^20 bytes, `_mbps` 10^6 bytes per second (NVML's PCIe
counters are KB/s; the sampler converts), `_w` watts, `_mhz`, `_c` degrees Celsius, `_s`, `_ms`.

Shape:
    Verification
      layers[]    one per layer, in order device, bandwidth, pytorch, load: the worst over all
                  GPUs, with `checks[]` naming which GPU each finding is about
      gpus[]      one GpuResult per GPU: device facts, bandwidth, compute, numerics, its own layers
      bandwidth   the first GPU's Bandwidth (the headline; every GPU's is in gpus[])
      compute     the first GPU's Compute (likewise)
      torch       what the target Python's PyTorch said (or that it is missing, with the fix)
      samples[]   NVML samples taken in the wizard's process during the run, every GPU
      sampler     how the sampler ran (rate, its own CPU cost, or why it did not run)
      burn_in     the burn-in (`verify --burn-in DURATION`), or None: its phases, every GPU's summary
                  beside its ceilings, the faults and signs of trouble on the time axis (events[]), the
                  rates per second (rates[]), and between GPUs the P2P pairs and the all-reduce
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Optional

from app.model import Model

FORMAT = "gpu-wizard-verification/1"
LAYER_NAMES: tuple[str, ...] = ("device", "bandwidth", "pytorch", "load")
BURN_LAYERS: tuple[str, ...] = ("burnin", "interconnect")  # after the four, when a burn-in ran (interconnect: 2+ GPUs)
LayerName = Literal["device", "bandwidth", "pytorch", "load", "burnin", "interconnect"]
Status = Literal["pass", "warn", "fail", "skip"]
STATUS_ORDER: dict[str, int] = {"skip": 0, "pass": 1, "warn": 2, "fail": 3}
MATMUL_DTYPES: tuple[str, ...] = ("bf16", "fp16", "tf32", "fp32")


def worst(statuses) -> str:
    """The most serious of some statuses (fail > warn > pass > skip); "skip" for none."""
    out = "skip"
    for s in statuses:
        if STATUS_ORDER.get(s, 0) > STATUS_ORDER[out]:
            out = s
    return out


@dataclass(frozen=True)
class Check(Model):
    """One verdict inside a layer, with a stable code tests and translations can key on."""

    code: str  # "pcie_link_degraded", "h2d_below_link", "pageable_slow", "power_limit_low", "throttled_thermal",
    #            "idle_under_load", "arch_not_covered", "numerics_wrong", "torch_missing", "compute_prohibited", ...
    status: Status
    message: str  # plain words, English
    gpu_index: Optional[int] = None
    hint: Optional[str] = None  # what to do about it; a command where there is one
    value: Optional[float] = None  # the measured figure the check is about
    limit: Optional[float] = None  # the figure it was held against
    params: dict[str, str] = field(default_factory=dict)  # the figures of message (and hint), to say them in any language


@dataclass(frozen=True)
class Layer(Model):
    name: LayerName
    status: Status
    reason: str  # one plain sentence: the most serious check's message, or what passed
    details: tuple[str, ...] = ()  # more lines for the user (figures, the other checks)
    checks: tuple[Check, ...] = ()
    reason_code: str = ""  # the catalogue code of `reason` when no check says it (a skip): "check.<code>"
    reason_params: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class DeviceInfo(Model):
    """One GPU as PyTorch (in the target env) and NVML (in the wizard) see it."""

    index: int  # CUDA index in the probe (the probe runs with CUDA_DEVICE_ORDER=PCI_BUS_ID)
    name: str = ""
    nvml_index: Optional[int] = None
    uuid: Optional[str] = None
    bus_id: Optional[str] = None
    compute_capability: Optional[str] = None  # "9.0"
    sm_count: Optional[int] = None
    memory_total_mib: Optional[int] = None
    l2_cache_mib: Optional[float] = None
    sm_clock_mhz: Optional[int] = None  # current, when read
    mem_clock_mhz: Optional[int] = None
    sm_clock_max_mhz: Optional[int] = None
    mem_clock_max_mhz: Optional[int] = None
    memory_bus_width_bits: Optional[int] = None
    pcie_gen_current: Optional[int] = None
    pcie_gen_max: Optional[int] = None
    pcie_width_current: Optional[int] = None
    pcie_width_max: Optional[int] = None
    ecc_enabled: Optional[bool] = None
    compute_mode: Optional[str] = None  # "Default", "Exclusive_Thread", "Prohibited", "Exclusive_Process"
    persistence_mode: Optional[bool] = None
    power_limit_w: Optional[float] = None
    power_default_limit_w: Optional[float] = None
    driver_version: Optional[str] = None
    error: Optional[str] = None  # the device could not be used (context creation failed, ...)


@dataclass(frozen=True)
class CopyRate(Model):
    """Copy rates at one transfer size. D2D counts bytes read plus bytes written."""

    size_mib: float
    h2d_pinned_gbps: Optional[float] = None
    d2h_pinned_gbps: Optional[float] = None
    h2d_pageable_gbps: Optional[float] = None
    d2h_pageable_gbps: Optional[float] = None
    d2d_gbps: Optional[float] = None


@dataclass(frozen=True)
class Bandwidth(Model):
    """Best rate over the sizes tried (D2D: over sizes well past the L2 cache), and the ceilings."""

    gpu_index: int = 0
    h2d_pinned_gbps: Optional[float] = None
    d2h_pinned_gbps: Optional[float] = None
    h2d_pageable_gbps: Optional[float] = None
    d2h_pageable_gbps: Optional[float] = None
    d2d_gbps: Optional[float] = None  # (read + write) bytes / time
    pcie_theoretical_gbps: Optional[float] = None  # from the link's max generation and width, per direction
    pcie_current_gbps: Optional[float] = None  # the same for the link as it ran (under load)
    memory_theoretical_gbps: Optional[float] = None  # NVML memory clock x bus width x 2 (double data rate)
    per_size: tuple[CopyRate, ...] = ()
    method: str = ""
    error: Optional[str] = None


@dataclass(frozen=True)
class Conv2dResult(Model):
    dtype: str = ""
    shape: str = ""  # "N=64 C=256 H=56 W=56 K=256 3x3"
    nchw_tflops: Optional[float] = None
    channels_last_tflops: Optional[float] = None
    channels_last_speedup: Optional[float] = None  # channels_last / NCHW
    error: Optional[str] = None


@dataclass(frozen=True)
class GraphResult(Model):
    """A small launch-bound model: one forward pass eager, and replayed as a CUDA graph."""

    model: str = ""  # "MLP 8x Linear(512) batch 64"
    eager_ms: Optional[float] = None
    graph_ms: Optional[float] = None
    graph_speedup: Optional[float] = None  # eager / graph
    error: Optional[str] = None


@dataclass(frozen=True)
class Compute(Model):
    gpu_index: int = 0
    matmul_tflops: dict[str, float] = field(default_factory=dict)  # "bf16"/"fp16"/"tf32"/"fp32" -> TFLOP/s (median)
    matmul_best_tflops: dict[str, float] = field(default_factory=dict)  # best timed chunk per dtype
    matmul_size: Optional[int] = None  # n of the n x n x n products
    unsupported: tuple[str, ...] = ()  # dtypes this GPU has no fast path for (bf16/tf32 need cc 8.0)
    conv2d: Conv2dResult = field(default_factory=Conv2dResult)
    cuda_graph: GraphResult = field(default_factory=GraphResult)
    seconds: float = 0.0  # wall time the sustained load ran
    errors: tuple[str, ...] = ()


@dataclass(frozen=True)
class NumericCheck(Model):
    """An operation on the GPU held against a float64 CPU reference: ||out - ref|| / ||ref||."""

    op: str  # "matmul", "conv2d"
    dtype: str  # "fp32", "tf32", "fp16", "bf16"
    rel_error: Optional[float] = None  # None: NaN/Inf in the output, or it did not run
    tolerance: float = 0.0
    ok: bool = False
    error: Optional[str] = None


@dataclass(frozen=True)
class GpuResult(Model):
    index: int
    device: DeviceInfo
    bandwidth: Bandwidth = field(default_factory=Bandwidth)
    compute: Compute = field(default_factory=Compute)
    numerics: tuple[NumericCheck, ...] = ()
    layers: tuple[Layer, ...] = ()


@dataclass(frozen=True)
class TorchReport(Model):
    python: str = ""  # the interpreter the probe ran in
    python_version: Optional[str] = None
    installed: Optional[bool] = None  # None: the probe did not get that far
    version: Optional[str] = None
    cuda: Optional[str] = None  # torch.version.cuda; None for a CPU build
    cudnn: Optional[str] = None  # "9.19.0"
    cudnn_available: Optional[bool] = None
    available: Optional[bool] = None  # torch.cuda.is_available()
    device_count: Optional[int] = None
    arch_list: tuple[str, ...] = ()
    error: Optional[str] = None  # import error or CUDA init warning, verbatim (short)
    fix_command: Optional[str] = None  # set when PyTorch is missing or cannot use the GPU


@dataclass(frozen=True)
class Sample(Model):
    t_s: float  # seconds since the run started
    gpu_index: int  # NVML index
    util_pct: Optional[float] = None
    mem_util_pct: Optional[float] = None
    mem_used_mib: Optional[float] = None
    power_w: Optional[float] = None
    power_limit_w: Optional[float] = None
    sm_clock_mhz: Optional[int] = None
    mem_clock_mhz: Optional[int] = None
    temp_c: Optional[float] = None
    pcie_rx_mbps: Optional[float] = None  # GPU receives (host -> device), 10^6 B/s
    pcie_tx_mbps: Optional[float] = None
    pcie_gen_current: Optional[int] = None
    pcie_width_current: Optional[int] = None
    throttle_reasons: tuple[str, ...] = ()  # "sw_power_cap", "hw_slowdown", "sw_thermal", "hw_thermal", ...
    phase: Optional[str] = None  # what the probe was doing: "bandwidth", "load", "memtest", "matmul_bf16", ...
    # health counters (read while a burn-in runs; None where the GPU or driver has no such counter)
    fan_pct: Optional[float] = None
    ecc_corrected: Optional[int] = None  # volatile totals since the driver loaded (single-bit, corrected)
    ecc_uncorrected: Optional[int] = None  # double-bit, uncorrected
    retired_pages: Optional[int] = None  # pages retired (single- and double-bit causes), older GPUs
    retired_pending: Optional[int] = None  # 1: a retirement waits for the next driver load
    remapped_cor: Optional[int] = None  # rows remapped after corrected errors (A100 and later)
    remapped_unc: Optional[int] = None  # rows remapped after uncorrected errors
    remap_pending: Optional[int] = None
    remap_failure: Optional[int] = None  # 1: the remapper ran out of spare rows
    pcie_replay: Optional[int] = None  # PCIe replay counter (link-level retransmissions)


@dataclass(frozen=True)
class SamplerStats(Model):
    ran: bool = False
    reason: str = ""  # why it did not run (no NVML, no GPU)
    interval_s: float = 0.1
    rate_hz: Optional[float] = None  # achieved
    count: int = 0
    cpu_pct_of_core: Optional[float] = None  # the sampler thread's CPU time / wall time x 100
    pcie_every_s: Optional[float] = None  # how often PCIe rx/tx were refreshed (NVML blocks ~20 ms per read)
    health_every_s: Optional[float] = None  # burn-in: how often the ECC/remap/replay counters were read
    error: str = ""  # a reading that failed while it ran, or a part it stopped reading (the health counters), and why


HEALTH_COUNTERS: tuple[str, ...] = ("ecc_corrected", "ecc_uncorrected", "retired_pages", "retired_pending",
                                     "remapped_cor", "remapped_unc", "remap_pending", "remap_failure", "pcie_replay")


@dataclass(frozen=True)
class PhaseSpan(Model):
    phase: str  # "p2p", "allreduce", "memtest", "matmul_bf16", ..., "membw"
    t0_s: float
    t1_s: float
    planned_s: float = 0.0


@dataclass(frozen=True)
class BurnEvent(Model):
    """A fault or a sign of trouble, at its time on the run's clock (what the charts mark)."""

    t_s: float
    kind: str  # "mismatch", "memtest", "xid", "ecc_corrected", "ecc_uncorrected", "retired_pages",
    #            "remap", "remap_failure", "pcie_replay", "link_drop", "thermal", "power_brake", "error"
    gpu_index: Optional[int] = None  # CUDA index (the probe's and the report's)
    phase: Optional[str] = None
    count: int = 1  # how many (wrong elements, new ECC errors, replays ...)
    value: Optional[float] = None  # the figure at that time (temperature, link width, Xid number)
    detail: str = ""  # the Xid's text from the driver, the pattern, the error's first line


@dataclass(frozen=True)
class BurnRate(Model):
    t_s: float
    gpu_index: int
    phase: str
    value: float
    unit: str = "tflops"  # "tflops" or "gbps"
    series: str = ""  # the precision ("bf16") or the memory kernel ("triad", "copy")


@dataclass(frozen=True)
class BurnPhase(Model):
    """One GPU's result in one phase, as the probe measured it."""

    phase: str
    gpu_index: int
    unit: str = "tflops"
    value: Optional[float] = None  # median rate over the phase
    best: Optional[float] = None
    checks: int = 0  # results held against the reference (memtest: passes)
    mismatches: int = 0  # wrong elements (memtest: wrong words)
    check_s: Optional[float] = None  # time the checks took (left out of the rate)
    dtype: Optional[str] = None  # the precision, or the memory kernel ("triad", "copy")
    size: Optional[int] = None
    reference_rel_error: Optional[float] = None  # the reference against float64 on the CPU
    reference_ok: Optional[bool] = None
    bytes: Optional[int] = None  # memtest: bytes tested
    share_of_total: Optional[float] = None
    passes: Optional[int] = None
    array_mib: Optional[float] = None


@dataclass(frozen=True)
class BurnGpu(Model):
    """One GPU through the burn-in: what it did beside its own ceilings."""

    index: int  # CUDA index
    nvml_index: Optional[int] = None
    name: str = ""
    load_s: float = 0.0  # seconds of load phases sampled
    # ceilings
    power_limit_w: Optional[float] = None
    sm_clock_max_mhz: Optional[int] = None
    temp_slowdown_c: Optional[float] = None
    temp_shutdown_c: Optional[float] = None
    temp_max_operating_c: Optional[float] = None
    peak_tflops: dict[str, float] = field(default_factory=dict)  # datasheet, dense, per precision
    peak_mem_gbps: Optional[float] = None
    peak_source: str = ""
    # under load
    sm_clock_median_mhz: Optional[float] = None
    sm_clock_min_mhz: Optional[float] = None
    power_median_w: Optional[float] = None
    power_max_w: Optional[float] = None
    util_median_pct: Optional[float] = None
    temp_max_c: Optional[float] = None
    temp_max_t_s: Optional[float] = None
    fan_max_pct: Optional[float] = None
    throttle_s: dict[str, float] = field(default_factory=dict)  # reason -> seconds under load
    first_thermal_t_s: Optional[float] = None
    counters: dict[str, list[int]] = field(default_factory=dict)  # counter -> [at start, at end]
    link_gen_max: Optional[int] = None
    link_width_max: Optional[int] = None
    link_gen_min: Optional[int] = None  # the lowest seen under load
    link_width_min: Optional[int] = None
    tflops: dict[str, float] = field(default_factory=dict)  # median per precision
    mem_gbps: Optional[float] = None  # the triad
    mem_copy_gbps: Optional[float] = None  # a device copy (read + write)
    checks: int = 0
    mismatches: int = 0
    memtest_bytes: Optional[int] = None
    memtest_share: Optional[float] = None
    memtest_passes: int = 0
    memtest_errors: int = 0
    watched: dict[str, str] = field(default_factory=dict)  # signal -> "yes", or why it was not watched

    def delta(self, counter: str) -> Optional[int]:
        v = self.counters.get(counter)
        return v[1] - v[0] if v and len(v) == 2 else None


@dataclass(frozen=True)
class P2PPair(Model):
    src: int
    dst: int
    gbps: Optional[float] = None  # one way, src -> dst
    bidir_gbps: Optional[float] = None  # both ways at once, summed
    latency_us: Optional[float] = None  # a 4-byte copy, as the host sees it
    peer: Optional[bool] = None  # direct peer access (cudaDeviceCanAccessPeer)
    ok: Optional[bool] = None  # the copied bytes arrived intact
    link: str = ""  # "NVLink x18 (NVSwitch)", "PCIe 5.0 x16", ...
    topology: str = ""  # NVML's common ancestor: "nvlink", "same_board", "one_switch", "switches", "host_bridge", "numa_node", "system"
    ceiling_gbps: Optional[float] = None  # one way


@dataclass(frozen=True)
class AllReduce(Model):
    gpus: int = 0
    size_mib: Optional[float] = None
    algbw_gbps: Optional[float] = None
    busbw_gbps: Optional[float] = None  # algbw x 2(n-1)/n, as nccl-tests reports it
    ok: Optional[bool] = None  # the sum was right
    backend: str = ""
    ceiling_gbps: Optional[float] = None  # the slowest pair's one-way link
    skipped: str = ""  # why it did not run


@dataclass(frozen=True)
class BurnIn(Model):
    seconds: float = 0.0  # asked for
    ran_s: float = 0.0
    cancelled: bool = False
    dtypes: tuple[str, ...] = ()
    phases: tuple[PhaseSpan, ...] = ()
    gpus: tuple[BurnGpu, ...] = ()
    results: tuple[BurnPhase, ...] = ()
    events: tuple[BurnEvent, ...] = ()
    rates: tuple[BurnRate, ...] = ()
    p2p: tuple[P2PPair, ...] = ()
    allreduce: Optional[AllReduce] = None
    xid_source: str = ""  # "nvml_events", "kernel_log", or "" (not watched: xid_note says why)
    xid_note: str = ""
    started: Optional[str] = None  # wall-clock time of t_s = 0 (ISO 8601), for "at 14:02"
    sampler_note: str = ""  # why clocks, heat and power were not sampled ("": they were)
    health_note: str = ""  # why the ECC, row-remap and PCIe replay counters were not read ("": they were)


@dataclass(frozen=True)
class Verification(Model):
    format: str = FORMAT
    created: Optional[str] = None
    duration_s: float = 0.0
    python: str = ""
    quick: bool = False
    seconds: float = 0.0  # sustained load asked for, per phase set
    layers: tuple[Layer, ...] = ()
    gpus: tuple[GpuResult, ...] = ()
    bandwidth: Bandwidth = field(default_factory=Bandwidth)
    compute: Compute = field(default_factory=Compute)
    torch: TorchReport = field(default_factory=TorchReport)
    samples: tuple[Sample, ...] = ()
    sampler: SamplerStats = field(default_factory=SamplerStats)
    cancelled: bool = False
    errors: tuple[str, ...] = ()  # probe crash, timeout: with the stderr tail
    burn_in: Optional[BurnIn] = None

    @property
    def status(self) -> str:
        return worst(layer.status for layer in self.layers)

    def layer(self, name: str) -> Optional[Layer]:
        return next((x for x in self.layers if x.name == name), None)
