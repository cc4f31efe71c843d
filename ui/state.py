"""Qt-free state of the wizard and of each page (typed, testable without a display).

The page sequence is data: `PAGE_IDS` is the one ordered list of pages, and each path the
user can take on the Welcome page is an ordered list of those ids (`SEQUENCES`). Pages are
thin QWizardPages over the state objects here; nothing in this module imports Qt.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Optional

from app.choices import Choices
from app.facts import Facts, Finding
from app.recommendation import Recommendation
from app.run.events import Event, LineEvent, ProgressEvent, StepFinished, StepStarted
from app.run.record import RunRecord, StepRecord
from app.run.record import StepStatus as _StepStatus
from app.run.resume import RestartPoint

PageId = Literal["welcome", "system", "recommendation", "plan", "install", "verify", "summary", "troubleshoot"]
PathId = Literal["setup", "verify", "troubleshoot", "walkthrough"]

PAGE_IDS: tuple[PageId, ...] = ("welcome", "system", "recommendation", "plan", "install", "verify", "summary", "troubleshoot")

SEQUENCES: dict[PathId, tuple[PageId, ...]] = {
    "setup": ("welcome", "system", "recommendation", "plan", "install", "verify", "summary"),
    "verify": ("welcome", "system", "verify", "summary"),
    "troubleshoot": ("welcome", "troubleshoot", "plan", "install", "verify", "summary"),
    "walkthrough": ("welcome", "system", "recommendation", "plan", "install", "verify", "summary"),
}


def next_page(path: PathId, current: PageId) -> Optional[PageId]:
    seq = SEQUENCES[path]
    if current not in seq:  # e.g. Troubleshoot reached from a failure: continue with its plan
        seq = next((q for q in (SEQUENCES["troubleshoot"], SEQUENCES["setup"]) if current in q), ())
    if current not in seq:
        return None
    i = seq.index(current)
    return seq[i + 1] if i + 1 < len(seq) else None


def walkthrough_start(report: Optional[dict]) -> PageId:
    """A report opens on its recorded result (the verification, else the summary of what ran);
    a snapshot on the machine's facts. The step list reaches every other page."""
    if not report:
        return "system"
    if report.get("verification") is not None:
        return "verify"
    if report.get("steps") or report.get("diagnosis") is not None:
        return "summary"
    return "system"


# ---------------------------------------------------------------------------------------------
# Where the facts come from

@dataclass(frozen=True)
class Source:
    """This machine, or a recorded one (a snapshot, or a report's JSON): read-only walkthrough
    and dry-run installs for a recorded one."""

    kind: Literal["live", "snapshot", "report"] = "live"
    path: Optional[str] = None
    created: Optional[str] = None
    note: Optional[str] = None  # the snapshot's own note
    machine: Optional[str] = None  # a report's one-line machine description

    @property
    def recorded(self) -> bool:
        return self.kind != "live"

    @property
    def name(self) -> str:
        return Path(self.path).name if self.path else ""


def format_when(iso: Optional[str]) -> str:
    """'2026-11-29T15:52:46+00:00' → '2026-11-29 15:52 UTC' (other offsets kept as written)."""
    if not iso:
        return ""
    import datetime as _dt

    try:
        t = _dt.datetime.fromisoformat(iso.replace("Z", "+00:00"))
    except ValueError:
        return iso
    if t.tzinfo is None:
        return t.strftime("%Y-%m-%d %H:%M")
    off = t.utcoffset()
    if off is not None and off.total_seconds() == 0:
        return t.strftime("%Y-%m-%d %H:%M UTC")
    return t.strftime("%Y-%m-%d %H:%M UTC%z")


def machine_summary(facts: Optional[Facts], driver: str = "") -> str:
    """One line naming the machine: 'NVIDIA GeForce RTX 4090 · Ubuntu 24.04 LTS'; with `driver` (a
    template with {version}, in the window's language) its driver and CUDA version after the GPU."""
    if facts is None:
        return ""
    parts = []
    if facts.gpus:
        names = [g.name for g in facts.gpus]
        parts.append(names[0] if len(set(names)) == 1 and len(names) == 1 else
                     (f"{len(names)}× {names[0]}" if len(set(names)) == 1 else ", ".join(names)))
    d = facts.driver
    if driver and d is not None and d.version:
        parts.append(driver.format(version=d.version) + (f" (CUDA {d.cuda_version})" if d.cuda_version else ""))
    osname = facts.os.pretty_name or " ".join(x for x in (facts.os.id, facts.os.version_id) if x)
    if osname:
        parts.append(osname + (" (WSL2)" if facts.os.wsl == 2 and "WSL" not in osname else ""))
    return " · ".join(parts)


# ---------------------------------------------------------------------------------------------
# System page: facts grouped, each group with a status

Status = Literal["ok", "warning", "error", "unknown"]
GROUPS = ("gpu", "driver", "os", "cuda", "python")

_GROUP_OF_PREFIX = (
    ("gpu", "gpu"), ("no_nvidia", "gpu"), ("pci", "gpu"), ("driver", "driver"), ("nouveau", "driver"),
    ("secure_boot", "driver"), ("kernel", "driver"), ("nvml", "driver"), ("smi", "driver"), ("module", "driver"),
    ("nvidia", "driver"), ("virtualization", "os"),
    ("wsl", "os"), ("windows", "os"), ("os", "os"), ("disk", "os"), ("low_disk", "os"), ("container", "os"),
    ("cuda", "cuda"), ("cudnn", "cuda"), ("toolkit", "cuda"), ("ld_", "cuda"), ("multiple_cuda", "cuda"),
    ("env", "cuda"), ("nvcc", "cuda"), ("path", "cuda"),
    ("python", "python"), ("torch", "python"), ("pip", "python"), ("venv", "python"), ("conda", "python"),
)


def group_of(finding: Finding) -> str:
    for prefix, group in _GROUP_OF_PREFIX:
        if finding.code.startswith(prefix):
            return group
    return "os"


@dataclass(frozen=True)
class FactRow:
    label: str  # English label, translated by the page (see ui/pages/system_page.py LABELS)
    value: str


@dataclass(frozen=True)
class FactGroup:
    key: str  # one of GROUPS
    status: Status
    rows: tuple[FactRow, ...]
    findings: tuple[Finding, ...]


def _worst(findings: tuple[Finding, ...], base: Status) -> Status:
    sev = {f.severity for f in findings}
    if "error" in sev:
        return "error"
    if "warning" in sev:
        return "warning"
    return base


def _yn(v: Optional[bool]) -> str:
    return "—" if v is None else ("yes" if v else "no")


def gpu_line(g, compute: str = "compute capability {cc}", pcie: str = "PCIe {gen}.0 x{width}") -> str:
    """One GPU's row: its name, then compute capability, architecture, memory and PCIe link (the two
    worded figures' templates come in the window's language)."""
    detail = ", ".join(x for x in (
        compute.format(cc=g.compute_capability) if g.compute_capability else "",
        g.architecture or "",
        f"{g.memory_total_mib} MiB" if g.memory_total_mib else "",
        pcie.format(gen=g.pcie_gen_current, width=g.pcie_width_current) if g.pcie_gen_current and g.pcie_width_current else "",
    ) if x)
    return g.name + (f" ({detail})" if detail else "")


def group_facts(facts: Facts) -> tuple[FactGroup, ...]:
    """Shows the detected values; the status of a group is the worst finding detection made
    about it (the GUI judges nothing itself), or 'unknown' when nothing was detected."""
    by_group: dict[str, list[Finding]] = {g: [] for g in GROUPS}
    for f in facts.findings:
        by_group[group_of(f)].append(f)
    out = []
    # GPU
    rows = []
    for g in facts.gpus:
        rows.append(FactRow(f"GPU {g.index}", gpu_line(g)))
    out.append(FactGroup("gpu", _worst(tuple(by_group["gpu"]), "ok" if facts.gpus else "unknown"), tuple(rows), tuple(by_group["gpu"])))
    # Driver
    d = facts.driver
    rows = [FactRow("State", d.state)]
    if d.version:
        rows.append(FactRow("Version", d.version))
    if d.cuda_version:
        rows.append(FactRow("Newest CUDA it supports", d.cuda_version))
    if d.kernel_module:
        rows.append(FactRow("Kernel module", d.kernel_module))
    if d.secure_boot is not None:
        rows.append(FactRow("Secure Boot", _yn(d.secure_boot)))
    base: Status = {"ok": "ok", "host": "ok", "unknown": "unknown"}.get(d.state, "error")  # type: ignore[assignment]
    out.append(FactGroup("driver", _worst(tuple(by_group["driver"]), base), tuple(rows), tuple(by_group["driver"])))
    # OS / WSL
    o = facts.os
    rows = []
    name = o.pretty_name or " ".join(x for x in (o.id, o.version_id) if x)
    if name:
        rows.append(FactRow("System", name))
    if o.kernel:
        rows.append(FactRow("Kernel", o.kernel))
    if o.wsl:
        rows.append(FactRow("WSL", str(o.wsl)))
    if o.container:
        rows.append(FactRow("Container", o.container))
    if o.free_disk_mib is not None:
        rows.append(FactRow("Free disk", f"{o.free_disk_mib / 1024:.1f} GiB"))
    out.append(FactGroup("os", _worst(tuple(by_group["os"]), "ok" if name else "unknown"), tuple(rows), tuple(by_group["os"])))
    # CUDA and cuDNN
    c = facts.cuda
    rows = [FactRow("Toolkit", f"{t.version or '?'} ({t.path})") for t in c.toolkits]
    if c.nvcc_version:
        rows.append(FactRow("nvcc", c.nvcc_version))
    if c.cudnn.version:
        rows.append(FactRow("cuDNN", c.cudnn.version))
    if not rows:
        rows.append(FactRow("Toolkit", "none (optional: PyTorch brings its own CUDA runtime)"))
    out.append(FactGroup("cuda", _worst(tuple(by_group["cuda"]), "ok"), tuple(rows), tuple(by_group["cuda"])))
    # Python and PyTorch
    rows = []
    p = facts.python
    if p:
        rows.append(FactRow("Python", f"{p.version or '?'} ({p.path})"))
        t = p.torch
        if t and t.version:
            rows.append(FactRow("PyTorch", t.version + (f", CUDA {t.cuda}" if t.cuda else ", CPU only")))
            if t.available is not None:
                rows.append(FactRow("GPU usable from PyTorch", _yn(t.available)))
        else:
            rows.append(FactRow("PyTorch", "not installed"))
    out.append(FactGroup("python", _worst(tuple(by_group["python"]), "ok" if p else "unknown"), tuple(rows), tuple(by_group["python"])))
    return tuple(out)


# ---------------------------------------------------------------------------------------------
# Install page: the run record (app/run/record.py) folded from the run's events, with what only the
# window shows: time left, the running command's own words, a download's bytes; retry

StepStatus = _StepStatus  # the one vocabulary: pending, running, and the engine's ok, skipped, error, cancelled


@dataclass
class InstallState(RunRecord):
    """The window's reducer: `apply(event)` for every event of app/run/events.py, as the executor (or a dry
    run, or a recorded replay) emits them; the same fold the report makes of the session's journal."""

    cancelled: bool = False  # the user pressed Cancel
    activity: str = ""  # what the running command says now (a line redrawn in place, a progress message)
    transfer: Optional["Transfer"] = None  # the download running inside the current step

    @classmethod
    def from_steps(cls, steps) -> "InstallState":
        return cls.for_plan(steps)  # type: ignore[return-value]

    def apply(self, ev: Event, now: Optional[float] = None) -> Optional[StepRecord]:
        now = time.monotonic() if now is None else now
        step = super().apply(ev, now)
        if isinstance(ev, StepStarted):
            self.activity, self.transfer = "", None
        elif isinstance(ev, LineEvent) and not ev.final:
            self.activity = ev.text
        elif isinstance(ev, ProgressEvent):
            if ev.done_bytes is not None:  # pip's own download progress: said with bytes, in the window's words
                self.transfer = self.transfer or Transfer()
                self.transfer.update(ev.name, ev.done_bytes, ev.total_bytes, now)
            elif ev.message:
                self.activity = ev.message
        return step

    def start_step(self, step_id: str, now: Optional[float] = None) -> None:
        s = self.step(step_id)
        self.apply(StepStarted(step_id, self.steps.index(s) if s else 0, len(self.steps), s.title if s else ""), now)

    def finish_step(self, step_id: str, status: str, message: str = "", now: Optional[float] = None) -> None:
        self.apply(StepFinished(step_id, status, message), now)

    @property
    def reboot_needed(self) -> bool:
        return self.reboot_pending

    @property
    def total_weight(self) -> float:
        return sum(s.weight for s in self.steps) or 1.0

    def fraction(self) -> float:
        done = sum(s.weight for s in self.steps if s.done)
        f = done / self.total_weight
        if self.overall is not None:
            f = max(f, self.overall)
        return min(f, 1.0)

    def time_left_s(self, now: Optional[float] = None) -> Optional[float]:
        """Remaining weight at the rate seen so far; None until one step has finished."""
        now = time.monotonic() if now is None else now
        if self.overall is not None and self.started is not None and 0.02 <= self.overall < 1.0:
            elapsed = now - self.started  # the runner's progress moves inside long steps too
            return max(elapsed / self.overall - elapsed, 0.0)
        finished = [s for s in self.steps if s.status == "ok" and s.started is not None and s.finished is not None]
        if not finished:
            return None
        spent = sum(s.finished - s.started for s in finished if s.finished is not None and s.started is not None)
        rate = sum(s.weight for s in finished) / max(spent, 1e-3)  # weight per second
        left = sum(s.weight for s in self.steps if not s.done) / rate
        running = next((s for s in self.steps if s.status == "running" and s.started is not None), None)
        if running is not None:
            left -= min(now - running.started, running.weight / rate)  # type: ignore[operator]
        return max(left, 0.0)

    def remaining_ids(self) -> list[str]:
        """What a retry (or resume) runs: the failed or cancelled step and everything after it."""
        return [s.id for s in self.steps if not s.done]

    def reset_for_retry(self) -> None:
        self.overall = None
        self.status, self.message, self.failed_step = "new", "", None
        for s in self.steps:
            if s.status in ("error", "cancelled", "running"):
                s.status, s.message, s.details, s.started, s.finished = "pending", "", "", None, None
        self.cancelled = False


@dataclass
class Transfer:
    """One download inside a running step (pip's raw progress): bytes so far, of how many, and the
    rate seen since it started, so its time left is said only once it is known (a total and a second
    of measured rate), never guessed."""

    name: str = ""
    done: int = 0
    total: Optional[int] = None
    t0: Optional[float] = None
    d0: int = 0
    now: Optional[float] = None

    def update(self, name: str, done: int, total: Optional[int], now: Optional[float] = None) -> None:
        now = time.monotonic() if now is None else now
        if name != self.name or done < self.done or self.t0 is None:  # the next file
            self.name, self.t0, self.d0 = name, now, done
        self.done, self.total, self.now = done, total, now

    @property
    def fraction(self) -> Optional[float]:
        return min(1.0, self.done / self.total) if self.total else None

    def rate(self) -> Optional[float]:
        """Bytes per second, once at least a second and some bytes were seen."""
        if self.t0 is None or self.now is None or self.now - self.t0 < 1.0 or self.done <= self.d0:
            return None
        return (self.done - self.d0) / (self.now - self.t0)

    def time_left_s(self) -> Optional[float]:
        r = self.rate()
        if r is None or not self.total or self.done >= self.total:
            return None
        return (self.total - self.done) / r


def format_bytes(n: Optional[int]) -> str:
    if n is None:
        return "?"
    if n >= 1 << 30:
        return f"{n / (1 << 30):.2f} GB"
    if n >= 1 << 20:
        return f"{n / (1 << 20):.1f} MB"
    return f"{max(n, 0) / 1024:.0f} KB"


def format_duration(seconds: Optional[float]) -> str:
    if seconds is None:
        return "—"
    s = int(round(seconds))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s // 3600} h {(s % 3600) // 60:02d} min"


# ---------------------------------------------------------------------------------------------
# Resume after a reboot: the run state says where (app/run/resume.py)

def current_boot_id() -> Optional[str]:
    """This boot's id on Linux and Windows alike (app.restart, the same the executor pauses on)."""
    from app.restart import boot_id

    return boot_id()


# ---------------------------------------------------------------------------------------------
# Verify page: samples for the charts

# (chart key, title (English; translated by the page), unit, scale, metric names plotted).
# Metric names are app.verify.model.Sample's fields; `scale` converts to the chart's unit.
CHARTS: tuple[tuple[str, str, str, float, tuple[str, ...]], ...] = (
    ("utilization", "Utilization", "%", 1.0, ("util_pct", "mem_util_pct")),
    ("memory", "Memory used", "GiB", 1 / 1024, ("mem_used_mib",)),
    ("power", "Power", "W", 1.0, ("power_w",)),
    ("pcie", "PCIe throughput", "GB/s", 1 / 1000, ("pcie_rx_mbps", "pcie_tx_mbps")),
    ("clocks", "Clocks", "MHz", 1.0, ("sm_clock_mhz", "mem_clock_mhz")),
    ("temperature", "Temperature", "°C", 1.0, ("temp_c",)),
)
CHART_METRICS = tuple(m for c in CHARTS for m in c[4])


@dataclass
class SampleSeries:
    """The last `capacity` samples of one GPU's metrics, time in seconds from the start."""

    capacity: int = 3000
    t: list[float] = field(default_factory=list)
    values: dict[str, list[float]] = field(default_factory=lambda: {m: [] for m in CHART_METRICS})
    phases: list[Optional[str]] = field(default_factory=list)  # what the probe was doing at each sample
    power_limit_w: Optional[float] = None  # the latest the sampler saw

    def add(self, t: float, sample: dict[str, Any]) -> None:
        self.t.append(float(t))
        for m in CHART_METRICS:
            v = sample.get(m)
            self.values[m].append(float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else float("nan"))
        ph = sample.get("phase")
        self.phases.append(ph if isinstance(ph, str) and ph else None)
        lim = sample.get("power_limit_w")
        if isinstance(lim, (int, float)) and not isinstance(lim, bool) and lim > 0:
            self.power_limit_w = float(lim)
        if len(self.t) > self.capacity:
            cut = len(self.t) - self.capacity
            del self.t[:cut]
            del self.phases[:cut]
            for m in CHART_METRICS:
                del self.values[m][:cut]

    def clear(self) -> None:
        self.t.clear()
        self.phases.clear()
        self.power_limit_w = None
        for v in self.values.values():
            v.clear()

    def phase_spans(self, min_samples: int = 3) -> list[tuple[str, float, float]]:
        """(phase, first t, last t) of each run of samples in one test phase; runs shorter than
        `min_samples` (a probe's brief switch) are left out."""
        spans: list[tuple[str, float, float, int]] = []
        for t, ph in zip(self.t, self.phases):
            if ph is None:
                continue
            if spans and spans[-1][0] == ph:
                name, t0, _t1, n = spans[-1]
                spans[-1] = (name, t0, t, n + 1)
            else:
                spans.append((ph, t, t, 1))
        return [(name, t0, t1) for name, t0, t1, n in spans if n >= min_samples]

    def __len__(self) -> int:
        return len(self.t)


def sample_dict(sample: Any) -> tuple[float, int, dict[str, Any]]:
    """(t_s, gpu_index, metrics) from an app.verify Sample or a plain dict."""
    if isinstance(sample, dict):
        d = sample
    else:
        d = {m: getattr(sample, m, None) for m in (*CHART_METRICS, "t_s", "gpu_index", "phase", "power_limit_w")}
    return float(d.get("t_s") or 0.0), int(d.get("gpu_index") or 0), d


DURATIONS_S = (2, 5, 10, 30)  # sustained load per test (app.verify VerifyOptions.seconds)


# ---------------------------------------------------------------------------------------------
# The whole session

@dataclass
class Session:
    """Everything the pages share, passed typed (never by string keys)."""

    path: PathId = "setup"
    source: Source = field(default_factory=Source)
    overrides: dict[str, Any] = field(default_factory=dict)
    lang: str = "en"
    facts: Optional[Facts] = None
    choices: Choices = field(default_factory=Choices)
    recommendation: Optional[Recommendation] = None
    plan: Any = None  # app.plan.model.Plan
    plan_confirmed: bool = False
    plan_basis: Any = None  # what the plan was built from: (facts, recommendation, choices), ("fix", diagnosis) or ("report",)
    install: Optional[InstallState] = None
    session_dir: Optional[str] = None
    verification: Any = None  # app.verify model
    diagnosis: Any = None  # app.diagnose model
    error_text: str = ""
    report_data: Optional[dict[str, Any]] = None  # a report's JSON, in a walkthrough
    resumed: bool = False
    # an install that asked for a restart, answered "Later", and the wizard started again before it: where
    # its run state waits (the autostart entry stays, so the restart still continues at verification)
    pending_restart: Optional[RestartPoint] = None

    @property
    def dry_run(self) -> bool:
        """A recorded machine is never changed: installs are a labelled dry run."""
        return self.source.recorded

    @property
    def read_only(self) -> bool:
        return self.source.recorded
