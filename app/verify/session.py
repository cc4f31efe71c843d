"""One verify run: NVML facts and the sampler in this process, the probe in the target Python,
verdicts at the end. The GUI and `gpu-wizard verify` both use this.

Blocking (CLI, or a GUI worker thread):
    v = run_verification(VerifyOptions(python="/path/venv/bin/python", seconds=2, quick=False),
                         on_progress=lambda ev: ..., on_sample=lambda s: ...)

In the background, with cancel (GUI):
    run = VerifyRun(options, on_progress=..., on_sample=..., on_done=lambda v: ...)
    run.start()          # returns at once; callbacks come from worker threads (the GUI's bridge
    run.cancel()         # turns them into Qt signals); cancel kills the probe's process group
    v = run.wait(timeout)  # the Verification (cancelled=True when stopped)

`on_progress(event)` gets the probe's events as dicts: {"event": "progress", "layer", "gpu",
"step", "message", "fraction"}, {"event": "result", "kind", "gpu", "data"}, {"event": "error", ...}.
`on_sample(Sample)` gets every NVML sample (about 10 per second per GPU).
"""
from __future__ import annotations

import datetime as _dt
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Optional

from app.model import ModelError
from app.verify import burn_verdicts, verdicts
from app.verify.burnin import BurnTracker
from app.verify.model import (Bandwidth, BurnIn, Compute, DeviceInfo, GpuResult, NumericCheck, Sample,
                              SamplerStats, TorchReport, Verification)
from app.verify.runner import ProbeOutcome, ProbeRunner, default_python, probe_argv
from app.verify.sampler import Sampler

COMPUTE_MODES = {0: "Default", 1: "Exclusive_Thread", 2: "Prohibited", 3: "Exclusive_Process"}


@dataclass(frozen=True)
class VerifyOptions:
    python: Optional[str] = None  # the target interpreter; None: the wizard's own
    seconds: Optional[float] = None  # sustained load per matmul dtype and per conv layout
    quick: bool = False
    gpus: str = "all"
    sample_interval_s: float = 0.1
    timeout_s: Optional[float] = None  # None: from the work asked for
    keep_samples: bool = True
    burn_in_s: Optional[float] = None  # a burn-in of this long after the layers (they run quick then)
    kmsg_path: str = "/dev/kmsg"  # where Xid lines are read when NVML's events do not work
    max_samples: int = 24000  # kept in the Verification (a long burn-in keeps fewer, evenly)
    mirrors: Any = None  # app.choices.Mirrors the suggested fix's pip command uses (proxy, CA, mirrors); None: the config's


def config_mirrors() -> Any:
    from app.choices import Mirrors

    try:
        from app.config import load_config, mirrors_from

        return mirrors_from(load_config())
    except Exception:  # an unreadable config file: no mirrors (the failure being reported still shows)
        return Mirrors()


Fixer = Callable[..., str]  # (python, nvml facts, python version, mirrors=) -> the command that installs PyTorch


def plain_fix(python: str, _nvml: Optional[dict[str, Any]] = None, _python_version: Optional[str] = None,
              platform: str = "linux", mirrors: Any = None) -> str:
    """`pip install --upgrade torch` into `python` with the run's mirrors, proxy and CA bundle (`mirrors`;
    None: the config file's): the fix when nothing better is known. The command line and the window pass
    app.pipeline.torch_fix_command, which names the build recommend() picks (verify sits below recommend
    and does not import it)."""
    from app.install_command import torch_install

    mirrors = mirrors if mirrors is not None else config_mirrors()
    return torch_install(python, ("torch",), None, mirrors, upgrade=True).shown("windows" if platform == "windows" else "linux")


def _nvml_devices(nvml: Optional[dict[str, Any]]) -> list[dict[str, Any]]:
    if not nvml or nvml.get("error"):
        return []
    return [d for d in nvml.get("devices") or [] if isinstance(d, dict) and not d.get("error")]


def driver_cuda_version(nvml: Optional[dict[str, Any]]) -> Optional[str]:
    v = (nvml or {}).get("cuda_driver_version")
    if isinstance(v, int) and v > 0:
        return f"{v // 1000}.{(v % 1000) // 10}"
    return None


def _match_nvml(probe_dev: dict[str, Any], nvml_devs: list[dict[str, Any]]) -> Optional[dict[str, Any]]:
    uuid = (probe_dev.get("uuid") or "").lower()
    if uuid:
        for d in nvml_devs:
            if (d.get("uuid") or "").lower() == uuid:
                return d
    bus = (probe_dev.get("bus_id") or "").lower()
    if bus:
        for d in nvml_devs:
            if (d.get("pci_bus_id") or "").lower().endswith(bus[-12:]):
                return d
    idx = probe_dev.get("index")
    if len(nvml_devs) == 1 or idx is not None:  # the probe runs with CUDA_DEVICE_ORDER=PCI_BUS_ID: same order
        return next((d for d in nvml_devs if d.get("index") == idx), None)
    return None


def device_info(index: int, probe_dev: Optional[dict[str, Any]], nv: Optional[dict[str, Any]], driver: Optional[str]) -> DeviceInfo:
    p = probe_dev or {}
    nv = nv or {}
    cc = p.get("compute_capability")
    if not cc and isinstance(nv.get("compute_capability"), (list, tuple)) and len(nv["compute_capability"]) == 2:
        cc = "{}.{}".format(*nv["compute_capability"])

    def mw(key):
        v = nv.get(key)
        return round(v / 1000.0, 1) if isinstance(v, (int, float)) else None

    mem = p.get("memory_total_mib")
    if mem is None and isinstance(nv.get("memory_total_bytes"), int):
        mem = nv["memory_total_bytes"] // (1 << 20)
    ecc = nv.get("ecc_current")
    pm = nv.get("persistence_mode")
    mode = nv.get("compute_mode")
    return DeviceInfo(
        index=index, name=p.get("name") or nv.get("name") or "", nvml_index=nv.get("index"),
        uuid=p.get("uuid") or nv.get("uuid"), bus_id=nv.get("pci_bus_id") or p.get("bus_id"),
        compute_capability=cc, sm_count=p.get("sm_count"), memory_total_mib=mem, l2_cache_mib=p.get("l2_cache_mib"),
        sm_clock_max_mhz=nv.get("sm_clock_max_mhz"), mem_clock_max_mhz=nv.get("memory_clock_max_mhz"),
        memory_bus_width_bits=nv.get("memory_bus_width_bits"),
        pcie_gen_current=nv.get("pcie_gen_current"), pcie_gen_max=nv.get("pcie_gen_max"),
        pcie_width_current=nv.get("pcie_width_current"), pcie_width_max=nv.get("pcie_width_max"),
        ecc_enabled=bool(ecc) if ecc is not None else None,
        compute_mode=COMPUTE_MODES.get(mode) if isinstance(mode, int) else None,
        persistence_mode=bool(pm) if pm is not None else None,
        power_limit_w=mw("power_limit_mw"), power_default_limit_w=mw("power_default_limit_mw"),
        driver_version=driver, error=p.get("error"))


def _safe(cls, data, default):
    try:
        return cls.from_json(data)
    except (ModelError, TypeError, ValueError):
        return default


@dataclass
class _Collected:
    """The probe's results by kind and GPU, read once from its events."""

    torch: dict[str, Any]
    devices: dict[int, dict[str, Any]]
    numerics: dict[int, list[NumericCheck]]
    bandwidth: dict[int, dict[str, Any]]
    compute: dict[int, dict[str, Any]]
    layer_errors: dict[tuple[str, Optional[int]], list[str]]


def _collect(events: list[dict[str, Any]]) -> _Collected:
    c = _Collected({}, {}, {}, {}, {}, {})
    for ev in events:
        kind, gpu = ev.get("kind"), ev.get("gpu")
        data = ev.get("data")
        if ev.get("event") == "result":
            if kind == "torch" and isinstance(data, dict):
                c.torch = data
            elif not isinstance(gpu, int):
                continue
            elif kind == "device" and isinstance(data, dict):
                c.devices[gpu] = data
            elif kind == "numerics" and isinstance(data, list):
                c.numerics[gpu] = [n for n in (_safe(NumericCheck, x, None) for x in data) if n is not None]
            elif kind == "bandwidth" and isinstance(data, dict):
                c.bandwidth[gpu] = data
            elif kind == "compute" and isinstance(data, dict):
                c.compute[gpu] = data
        elif ev.get("event") == "error":
            msg = str(ev.get("message") or "")
            c.layer_errors.setdefault((str(ev.get("layer")), gpu if isinstance(gpu, int) else None), []).append(msg)
    return c


def _torch_report(data: dict[str, Any], python: str, nvml: Optional[dict[str, Any]], fixer: Fixer,
                  mirrors: Any = None) -> TorchReport:
    tr = TorchReport(
        python=data.get("python") or python, python_version=data.get("python_version"),
        installed=data.get("installed"), version=data.get("version"), cuda=data.get("cuda"),
        cudnn=data.get("cudnn"), cudnn_available=data.get("cudnn_available"),
        available=data.get("available"), device_count=data.get("device_count"),
        arch_list=tuple(x for x in data.get("arch_list") or () if isinstance(x, str)),
        error=(data.get("error") or None))
    if tr.installed is False or (tr.installed and (not tr.cuda or not tr.available)):
        try:
            fix = fixer(tr.python or python, nvml, tr.python_version, mirrors=mirrors)
        except Exception:  # noqa: BLE001 - a broken fixer must not hide the failure being reported
            fix = plain_fix(tr.python or python, mirrors=mirrors)
        tr = tr.replace(fix_command=fix)
    return tr


def _gpu_result(i: int, c: _Collected, nvml_devs: list[dict[str, Any]], driver: Optional[str],
                samples: list[Sample]) -> GpuResult:
    pd = c.devices.get(i)
    nv = _match_nvml(pd or {"index": i}, nvml_devs)
    dev = device_info(i, pd, nv, driver)
    b = c.bandwidth.get(i)
    if b is not None:
        band = _safe(Bandwidth, {**b, "gpu_index": i}, Bandwidth(gpu_index=i, error="unreadable result"))
    else:
        errs = c.layer_errors.get(("bandwidth", i))
        band = Bandwidth(gpu_index=i, error=errs[0] if errs else None)
    band = band.replace(pcie_theoretical_gbps=verdicts.pcie_gbps(dev.pcie_gen_max, dev.pcie_width_max),
                        memory_theoretical_gbps=verdicts.memory_peak_gbps(dev.mem_clock_max_mhz, dev.memory_bus_width_bits))
    gen, width = verdicts.link_under_load(dev, samples)
    band = band.replace(pcie_current_gbps=verdicts.pcie_gbps(gen or dev.pcie_gen_current, width or dev.pcie_width_current))
    comp = c.compute.get(i)
    if comp is not None:
        comp = {**comp, "conv2d": comp.get("conv2d") or {}, "cuda_graph": comp.get("cuda_graph") or {}}
        compute = _safe(Compute, {**comp, "gpu_index": i}, Compute(gpu_index=i, errors=("unreadable result",)))
    else:
        compute = Compute(gpu_index=i)
    load_errs = tuple(c.layer_errors.get(("load", None), [])) + tuple(c.layer_errors.get(("load", i), []))
    if load_errs:
        compute = compute.replace(errors=tuple(compute.errors) + load_errs)
    return GpuResult(index=i, device=dev, bandwidth=band, compute=compute, numerics=tuple(c.numerics.get(i, ())))


def _no_gpu(nvml: Optional[dict[str, Any]], tr: TorchReport) -> tuple:
    nv_err = (nvml or {}).get("error")
    if nvml is None:
        code, params = "no_gpu_no_nvml", {}
    elif nv_err:
        code, params = "no_gpu_nvml_error", {"error": str(nv_err)}
    else:
        code, params = "no_gpu", {}
    from app import messages

    reason = messages.render("check", code, params, "en", fallback="No NVIDIA GPU found")
    return verdicts.no_gpu_layers(reason, tr, code, params)


def assemble(outcome: ProbeOutcome, nvml: Optional[dict[str, Any]], python: str, samples: list[Sample],
             sampler: SamplerStats, options: VerifyOptions, started: str, duration_s: float,
             facts_gpu_count: int = 0, fixer: Fixer = plain_fix, burn: Optional[BurnTracker] = None) -> Verification:
    """Turn the probe's events, NVML facts and samples into a judged Verification (pure). `burn`: the
    burn-in's tracker, whose BurnIn (judged, its own layers after the four) the Verification carries."""
    nvml_devs = _nvml_devices(nvml)
    driver = (nvml or {}).get("driver_version")
    c = _collect(outcome.events)
    errors: list[str] = []
    if outcome.error and not outcome.cancelled:
        tail = f"\n{outcome.stderr_tail}" if outcome.stderr_tail else ""
        errors.append(outcome.error + tail)
    tr = _torch_report(c.torch, python, nvml, fixer, options.mirrors)
    # the GPUs: what the probe used; else what NVML lists (so the device layer still speaks)
    indices = sorted(c.devices) if c.devices else [int(d.get("index", i)) for i, d in enumerate(nvml_devs)]
    gpus = [_gpu_result(i, c, nvml_devs, driver, samples) for i in indices]
    any_gpu = bool(gpus) or bool(tr.device_count) or facts_gpu_count > 0
    skip_reasons: dict[str, str] = {}
    if outcome.cancelled:
        skip_reasons = {n: "cancelled before this layer finished" for n in ("device", "bandwidth", "pytorch", "load")}
    judged: tuple[GpuResult, ...] = ()
    if not any_gpu:
        layers = _no_gpu(nvml, tr)
    else:
        judged, layers = verdicts.judge(gpus, tr, samples, skip_reasons)
        if errors:  # the probe crashed or timed out: every layer it did not finish fails with the text
            first = errors[0].splitlines()[0]
            layers = tuple(x.replace(status="fail", reason=first, details=tuple(x.details) + (errors[0],))
                           if x.status == "skip" else x for x in layers)
    burn_in = None
    if burn is not None and judged:
        burn.map_gpus({g.index: g.device.nvml_index for g in judged if g.device.nvml_index is not None})
        burn_in = burn.result(judged, samples, cancelled=outcome.cancelled)
        layers = tuple(layers) + burn_verdicts.burn_layers(burn_in)
    head = judged[0] if judged else None
    return Verification(
        created=started, duration_s=round(duration_s, 2), python=tr.python or python, quick=options.quick,
        seconds=options.seconds or (1.0 if options.quick else 2.0), layers=layers, gpus=judged,
        bandwidth=head.bandwidth if head else Bandwidth(), compute=head.compute if head else Compute(),
        torch=tr, samples=tuple(samples), sampler=sampler, cancelled=outcome.cancelled, errors=tuple(errors),
        burn_in=burn_in)


def _default_timeout(options: VerifyOptions, gpu_count: int) -> float:
    seconds = options.seconds if options.seconds is not None else (1.0 if options.quick else 2.0)
    per_gpu = 60.0 if options.quick else 180.0
    burn = 1.2 * options.burn_in_s + 240.0 + 60.0 * gpu_count * gpu_count if options.burn_in_s else 0.0
    return 120.0 + per_gpu * max(1, gpu_count) + 8 * seconds * 2 + burn


class VerifyRun:
    def __init__(self, options: VerifyOptions = VerifyOptions(), on_progress: Optional[Callable[[dict], None]] = None,
                 on_sample: Optional[Callable[[Sample], None]] = None, on_done: Optional[Callable[[Verification], None]] = None,
                 nvml_reader: Optional[Callable[[], Optional[dict[str, Any]]]] = None, nvml_module: Any = None,
                 facts_gpu_count: int = 0, fixer: Fixer = plain_fix):
        self.options = options
        self.on_progress = on_progress
        self.on_sample = on_sample
        self.on_done = on_done
        self._nvml_reader = nvml_reader
        self._nvml_module = nvml_module
        self._facts_gpu_count = facts_gpu_count
        self._runner: Optional[ProbeRunner] = None
        self._cancelled = threading.Event()
        self._thread: Optional[threading.Thread] = None
        self._phase: Optional[str] = None
        self.result: Optional[Verification] = None
        self.fixer = fixer
        self.burn: Optional[BurnTracker] = None  # while a burn-in runs: what it has seen so far
        self._t0 = 0.0

    def cancel(self) -> None:
        self._cancelled.set()
        if self._runner is not None:
            self._runner.cancel()

    def start(self) -> None:
        self._thread = threading.Thread(target=self.run, name="gpu-wizard-verify", daemon=True)
        self._thread.start()

    @property
    def running(self) -> bool:
        """True from start() until the Verification is ready (on_done has been called)."""
        return self._thread is not None and self._thread.is_alive()

    def wait(self, timeout: Optional[float] = None) -> Optional[Verification]:
        if self._thread is not None:
            self._thread.join(timeout)
        return self.result

    def _on_event(self, ev: dict) -> None:
        if ev.get("event") == "progress" and isinstance(ev.get("layer"), str):
            self._phase = ev["layer"]
        if ev.get("event") == "burn" and ev.get("kind") == "phase":
            self._phase = ev.get("phase") if isinstance(ev.get("phase"), str) else None
        if self.burn is not None:
            self.burn.on_event(ev, time.monotonic() - self._t0)
        if self.on_progress is not None:
            self.on_progress(ev)

    def _on_sample(self, s: Sample) -> None:
        if self.burn is not None:
            self.burn.on_sample(s)
        if self.on_sample is not None:
            self.on_sample(s)

    def _on_xid(self, t: float, nvml_index: Optional[int], xid: int, text: str) -> None:
        if self.burn is not None:
            self.burn.on_xid(t - self._t0, nvml_index, xid, text)

    def _sampler(self, nvml: Optional[dict[str, Any]]) -> Sampler:
        opts = self.options
        burn = bool(opts.burn_in_s)
        sampler = Sampler(on_sample=self._on_sample, interval_s=opts.sample_interval_s, nvml=self._nvml_module,
                          phase=lambda: self._phase, keep=opts.keep_samples, t0=self._t0, health=burn,
                          on_xid=self._on_xid if burn else None, kmsg_path=opts.kmsg_path,
                          max_keep=opts.max_samples if burn else 0)
        if _nvml_devices(nvml) or self._nvml_module is not None:
            sampler.start()
        else:
            sampler.reason = "no NVIDIA GPU visible to NVML" if nvml is not None else "NVML is not available"
        if self.burn is not None:
            self.burn.thresholds = dict(sampler.thresholds)
            x = sampler.xid
            self.burn.xid_source = x.source if x is not None else ""
            self.burn.xid_note = x.note if x is not None else (sampler.reason or "NVML is not available")
            self.burn.links = read_links(sampler, nvml)
        return sampler

    def run(self) -> Verification:
        opts = self.options
        started = _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat()
        self._t0 = t0 = time.monotonic()
        if self._nvml_reader is not None:
            nvml = self._nvml_reader()
        else:
            from app.detect.nvml import read_nvml

            nvml = read_nvml()
        python = opts.python or default_python()
        if opts.burn_in_s:
            local = _dt.datetime.now().astimezone().replace(microsecond=0).isoformat()  # "at 14:02" in the user's time
            self.burn = BurnTracker(opts.burn_in_s, started=local)
        sampler = self._sampler(nvml)
        timeout = opts.timeout_s or _default_timeout(opts, len(_nvml_devices(nvml)))
        argv = probe_argv(python, seconds=opts.seconds, quick=opts.quick or bool(opts.burn_in_s), gpus=opts.gpus,
                          burn_in_s=opts.burn_in_s)
        self._runner = ProbeRunner(argv, timeout_s=timeout)
        if self._cancelled.is_set():
            self._runner.cancel()
        try:
            outcome = self._runner.run(self._on_event)
        finally:
            self._phase = None
            stats = sampler.stop()
        if self.burn is not None:
            self.burn.sampler_note = "" if stats.ran else (stats.reason or "no sample was taken")
            self.burn.health_note = sampler.health_note if stats.ran else ""
        v = assemble(outcome, nvml, python, list(sampler.samples), stats, opts, started, time.monotonic() - t0,
                     self._facts_gpu_count, fixer=self.fixer, burn=self.burn)
        self.result = v
        if self.on_done is not None:
            try:
                self.on_done(v)
            except Exception:
                pass
        return v


def run_verification(options: VerifyOptions = VerifyOptions(), on_progress: Optional[Callable[[dict], None]] = None,
                     on_sample: Optional[Callable[[Sample], None]] = None, **kwargs: Any) -> Verification:
    return VerifyRun(options, on_progress=on_progress, on_sample=on_sample, **kwargs).run()


def read_links(sampler: Sampler, nvml: Optional[dict[str, Any]]) -> dict[tuple[int, int], Any]:
    """NVML's topology between every pair of the sampled GPUs (2+), by NVML indices."""
    handles = sampler.handles
    if len(handles) < 2 or sampler.nvml is None:
        return {}
    from app.verify.topology import read_topology

    devs = {d.get("index"): d for d in _nvml_devices(nvml)}
    cc = next((d.get("compute_capability") for d in devs.values() if d.get("compute_capability")), None)
    cc_s = "{}.{}".format(*cc) if isinstance(cc, (list, tuple)) and len(cc) == 2 else None
    pcie = {i: (devs.get(i, {}).get("pcie_gen_max"), devs.get(i, {}).get("pcie_width_max")) for i, _h in handles}
    try:
        return {(p.a, p.b): p for p in read_topology(sampler.nvml, handles, cc_s, pcie)}
    except Exception:  # noqa: BLE001 - no topology: the pairs are still measured, without ceilings
        return {}


def rejudge(v: Verification) -> Verification:
    """Apply the current verdicts to a saved Verification (results and samples as recorded)."""
    if not v.gpus:
        return v
    judged, layers = verdicts.judge(v.gpus, v.torch, v.samples)
    burn = v.burn_in
    if burn is not None:
        burn = _unsampled(burn, v.sampler)
        layers = tuple(layers) + burn_verdicts.burn_layers(burn)
    return v.replace(gpus=judged, layers=layers, burn_in=burn)


def _unsampled(b: BurnIn, stats: SamplerStats) -> BurnIn:
    """A recording whose sampler took no sample (before BurnIn.sampler_note was kept): its counters were
    never read, whatever the recording says of them, and the note says so."""
    if stats.count or b.sampler_note:
        return b
    note = stats.reason or "the NVML sampler took no sample"
    gpus = tuple(g.replace(watched={k: (w if k == "xid" or w == "yes" else "not read") for k, w in g.watched.items()})
                 for g in b.gpus)
    return b.replace(sampler_note=note, gpus=gpus)


def with_params(v: Verification) -> Verification:
    """A recorded Verification as recorded (statuses, sentences), with the figures of its sentences
    restored where an older recording lacks them, so they can be said in any language: judging the
    recorded measurements again gives each check's params, and they are kept only where they say
    exactly the recorded English sentence (a verdict rule changed since: that check keeps English)."""
    from app import messages

    if not v.gpus or all(c.params for layer in v.layers for c in layer.checks):
        return v
    try:
        _judged, layers = verdicts.judge(v.gpus, v.torch, v.samples)
    except Exception:  # noqa: BLE001 - an old or partial recording: say it as recorded
        return v
    said: dict[tuple[str, str], dict[str, str]] = {}
    for layer in layers:
        for c in layer.checks:
            said.setdefault((c.code, c.message), dict(c.params))
        if layer.reason_code:
            said.setdefault(("layer:" + layer.reason_code, layer.reason), dict(layer.reason_params))

    def restored(code: str, message: str, params: dict[str, str], key: str) -> dict[str, str]:
        if params or not code:
            return params
        p = said.get((key, message))
        if p is None:
            return params
        return p if messages.render("check", code, p, "en", fallback=None) == message else params

    new_layers = []
    for layer in v.layers:
        checks = tuple(c.replace(params=restored(c.code, c.message, c.params, c.code)) for c in layer.checks)
        rp = restored(layer.reason_code, layer.reason, layer.reason_params, "layer:" + layer.reason_code)
        new_layers.append(layer.replace(checks=checks, reason_params=rp))
    return v.replace(layers=tuple(new_layers))
