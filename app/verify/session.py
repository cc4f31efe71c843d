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
from app.verify import verdicts
from app.verify.model import (Bandwidth, Compute, DeviceInfo, GpuResult, NumericCheck, Sample,
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
    mirrors: Any = None  # app.choices.Mirrors the suggested fix's pip command uses (proxy, CA, mirrors); None: the config's


def _config_mirrors() -> Any:
    from app.choices import Mirrors

    try:
        from app.config import load_config, mirrors_from

        return mirrors_from(load_config())
    except Exception:  # an unreadable config file: no mirrors (the failure being reported still shows)
        return Mirrors()


def fix_command(python: str, nvml: Optional[dict[str, Any]], python_version: Optional[str] = None,
                platform: str = "linux", mirrors: Any = None) -> str:
    """The pip command that installs the PyTorch build recommend() picks for this driver, these GPUs
    and this Python into `python`, with the run's mirrors, proxy and CA bundle (`mirrors`; None: the
    config file's); the plain `pip install --upgrade torch` (with the same) when it cannot tell."""
    from app.install_command import torch_install

    mirrors = mirrors if mirrors is not None else _config_mirrors()
    plain = torch_install(python, ("torch",), None, mirrors, upgrade=True).shown("windows" if platform == "windows" else "linux")
    try:
        from app.compat import load_db
        from app.detect.nvml import parse_nvml
        from app.facts import DriverInfo, Facts, OsInfo, PythonEnv
        from app.recommend import recommend

        driver = (nvml or {}).get("driver_version")
        facts = Facts(os=OsInfo(platform="windows" if platform == "windows" else "linux"),
                      driver=DriverInfo(state="ok" if driver else "unknown", version=driver,
                                        cuda_version=driver_cuda_version(nvml)),
                      gpus=tuple(parse_nvml(nvml)),
                      python=PythonEnv(path=python, version=python_version))
        if not facts.gpus:  # no GPU seen: do not steer towards a CPU build
            return plain
        torch = recommend(facts, load_db()).pytorch
    except Exception:  # a broken data bundle must not hide the failure being reported
        return plain
    if not torch.packages:
        return plain
    return torch_install(python, torch.packages, torch.index_url, mirrors, upgrade=True).shown(
        "windows" if platform == "windows" else "linux")


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
    return DeviceInfo(
        index=index, name=p.get("name") or nv.get("name") or "", nvml_index=nv.get("index"),
        uuid=p.get("uuid") or nv.get("uuid"), bus_id=nv.get("pci_bus_id") or p.get("bus_id"),
        compute_capability=cc, sm_count=p.get("sm_count"), memory_total_mib=mem, l2_cache_mib=p.get("l2_cache_mib"),
        sm_clock_max_mhz=nv.get("sm_clock_max_mhz"), mem_clock_max_mhz=nv.get("memory_clock_max_mhz"),
        memory_bus_width_bits=nv.get("memory_bus_width_bits"),
        pcie_gen_current=nv.get("pcie_gen_current"), pcie_gen_max=nv.get("pcie_gen_max"),
        pcie_width_current=nv.get("pcie_width_current"), pcie_width_max=nv.get("pcie_width_max"),
        ecc_enabled=bool(ecc) if ecc is not None else None,
        compute_mode=COMPUTE_MODES.get(nv.get("compute_mode")) if nv.get("compute_mode") is not None else None,
        persistence_mode=bool(pm) if pm is not None else None,
        power_limit_w=mw("power_limit_mw"), power_default_limit_w=mw("power_default_limit_mw"),
        driver_version=driver, error=p.get("error"))


def _safe(cls, data, default):
    try:
        return cls.from_json(data)
    except (ModelError, TypeError, ValueError):
        return default


def assemble(outcome: ProbeOutcome, nvml: Optional[dict[str, Any]], python: str, samples: list[Sample],
             sampler: SamplerStats, options: VerifyOptions, started: str, duration_s: float,
             facts_gpu_count: int = 0) -> Verification:
    """Turn the probe's events, NVML facts and samples into a judged Verification (pure)."""
    nvml_devs = _nvml_devices(nvml)
    driver = (nvml or {}).get("driver_version")
    torch_data: dict[str, Any] = {}
    dev_data: dict[int, dict[str, Any]] = {}
    numerics: dict[int, list[NumericCheck]] = {}
    bw: dict[int, dict[str, Any]] = {}
    comp: dict[int, dict[str, Any]] = {}
    errors: list[str] = []
    layer_errors: dict[tuple[str, Optional[int]], list[str]] = {}
    for ev in outcome.events:
        kind, gpu = ev.get("kind"), ev.get("gpu")
        data = ev.get("data")
        if ev.get("event") == "result":
            if kind == "torch" and isinstance(data, dict):
                torch_data = data
            elif not isinstance(gpu, int):
                continue
            elif kind == "device" and isinstance(data, dict):
                dev_data[gpu] = data
            elif kind == "numerics" and isinstance(data, list):
                numerics[gpu] = [c for c in (_safe(NumericCheck, x, None) for x in data) if c is not None]
            elif kind == "bandwidth" and isinstance(data, dict):
                bw[gpu] = data
            elif kind == "compute" and isinstance(data, dict):
                comp[gpu] = data
        elif ev.get("event") == "error":
            msg = str(ev.get("message") or "")
            layer_errors.setdefault((str(ev.get("layer")), gpu if isinstance(gpu, int) else None), []).append(msg)
    if outcome.error and not outcome.cancelled:
        tail = f"\n{outcome.stderr_tail}" if outcome.stderr_tail else ""
        errors.append(outcome.error + tail)

    tr = TorchReport(
        python=torch_data.get("python") or python, python_version=torch_data.get("python_version"),
        installed=torch_data.get("installed"), version=torch_data.get("version"), cuda=torch_data.get("cuda"),
        cudnn=torch_data.get("cudnn"), cudnn_available=torch_data.get("cudnn_available"),
        available=torch_data.get("available"), device_count=torch_data.get("device_count"),
        arch_list=tuple(x for x in torch_data.get("arch_list") or () if isinstance(x, str)),
        error=(torch_data.get("error") or None))
    if tr.installed is False or (tr.installed and (not tr.cuda or not tr.available)):
        tr = tr.replace(fix_command=fix_command(tr.python or python, nvml, tr.python_version, mirrors=options.mirrors))

    # the GPUs: what the probe used; else what NVML lists (so the device layer still speaks)
    if dev_data:
        indices = sorted(dev_data)
    else:
        indices = [int(d.get("index", i)) for i, d in enumerate(nvml_devs)]
    gpus = []
    for i in indices:
        pd = dev_data.get(i)
        nv = _match_nvml(pd or {"index": i}, nvml_devs)
        dev = device_info(i, pd, nv, driver)
        b = bw.get(i)
        if b is not None:
            band = _safe(Bandwidth, {**b, "gpu_index": i}, Bandwidth(gpu_index=i, error="unreadable result"))
        else:
            errs = layer_errors.get(("bandwidth", i))
            band = Bandwidth(gpu_index=i, error=errs[0] if errs else None)
        band = band.replace(pcie_theoretical_gbps=verdicts.pcie_gbps(dev.pcie_gen_max, dev.pcie_width_max),
                            memory_theoretical_gbps=verdicts.memory_peak_gbps(dev.mem_clock_max_mhz, dev.memory_bus_width_bits))
        gen, width = verdicts.link_under_load(dev, samples)
        band = band.replace(pcie_current_gbps=verdicts.pcie_gbps(gen or dev.pcie_gen_current, width or dev.pcie_width_current))
        c = comp.get(i)
        if c is not None:
            c = dict(c)
            c.setdefault("conv2d", {})
            c.setdefault("cuda_graph", {})
            compute = _safe(Compute, {**c, "gpu_index": i}, Compute(gpu_index=i, errors=("unreadable result",)))
        else:
            compute = Compute(gpu_index=i)
        load_errs = tuple(layer_errors.get(("load", None), [])) + tuple(layer_errors.get(("load", i), []))
        if load_errs:
            compute = compute.replace(errors=tuple(compute.errors) + load_errs)
        gpus.append(GpuResult(index=i, device=dev, bandwidth=band, compute=compute, numerics=tuple(numerics.get(i, ()))))

    any_gpu = bool(gpus) or bool(tr.device_count) or facts_gpu_count > 0
    skip_reasons: dict[str, str] = {}
    if outcome.cancelled:
        skip_reasons = {n: "cancelled before this layer finished" for n in ("device", "bandwidth", "pytorch", "load")}
    if not any_gpu:
        nv_err = (nvml or {}).get("error")
        if nvml is None:
            code, params = "no_gpu_no_nvml", {}
        elif nv_err:
            code, params = "no_gpu_nvml_error", {"error": str(nv_err)}
        else:
            code, params = "no_gpu", {}
        from app import messages

        reason = messages.render("check", code, params, "en", fallback="No NVIDIA GPU found")
        layers = verdicts.no_gpu_layers(reason, tr, code, params)
        judged: tuple[GpuResult, ...] = ()
    else:
        judged, layers = verdicts.judge(gpus, tr, samples, skip_reasons)
        if errors:  # the probe crashed or timed out: every layer it did not finish fails with the text
            first = errors[0].splitlines()[0]
            layers = tuple(x.replace(status="fail", reason=first, details=tuple(x.details) + (errors[0],))
                           if x.status == "skip" else x for x in layers)
    head = judged[0] if judged else None
    return Verification(
        created=started, duration_s=round(duration_s, 2), python=tr.python or python, quick=options.quick,
        seconds=options.seconds or (1.0 if options.quick else 2.0), layers=layers, gpus=judged,
        bandwidth=head.bandwidth if head else Bandwidth(), compute=head.compute if head else Compute(),
        torch=tr, samples=tuple(samples), sampler=sampler, cancelled=outcome.cancelled, errors=tuple(errors))


def _default_timeout(options: VerifyOptions, gpu_count: int) -> float:
    seconds = options.seconds if options.seconds is not None else (1.0 if options.quick else 2.0)
    per_gpu = 60.0 if options.quick else 180.0
    return 120.0 + per_gpu * max(1, gpu_count) + 8 * seconds * 2


class VerifyRun:
    def __init__(self, options: VerifyOptions = VerifyOptions(), on_progress: Optional[Callable[[dict], None]] = None,
                 on_sample: Optional[Callable[[Sample], None]] = None, on_done: Optional[Callable[[Verification], None]] = None,
                 nvml_reader: Optional[Callable[[], Optional[dict[str, Any]]]] = None, nvml_module: Any = None,
                 facts_gpu_count: int = 0):
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
        if self.on_progress is not None:
            self.on_progress(ev)

    def run(self) -> Verification:
        opts = self.options
        started = _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat()
        t0 = time.monotonic()
        if self._nvml_reader is not None:
            nvml = self._nvml_reader()
        else:
            from app.detect.nvml import read_nvml

            nvml = read_nvml()
        python = opts.python or default_python()
        sampler = Sampler(on_sample=self.on_sample, interval_s=opts.sample_interval_s, nvml=self._nvml_module,
                          phase=lambda: self._phase, keep=opts.keep_samples, t0=t0)
        if _nvml_devices(nvml) or self._nvml_module is not None:
            sampler.start()
        else:
            sampler.reason = "no NVIDIA GPU visible to NVML" if nvml is not None else "NVML is not available"
        timeout = opts.timeout_s or _default_timeout(opts, len(_nvml_devices(nvml)))
        argv = probe_argv(python, seconds=opts.seconds, quick=opts.quick, gpus=opts.gpus)
        self._runner = ProbeRunner(argv, timeout_s=timeout)
        if self._cancelled.is_set():
            self._runner.cancel()
        try:
            outcome = self._runner.run(self._on_event)
        finally:
            self._phase = None
            stats = sampler.stop()
        v = assemble(outcome, nvml, python, list(sampler.samples), stats, opts, started, time.monotonic() - t0,
                     self._facts_gpu_count)
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


def rejudge(v: Verification) -> Verification:
    """Apply the current verdicts to a saved Verification (results and samples as recorded)."""
    if not v.gpus:
        return v
    judged, layers = verdicts.judge(v.gpus, v.torch, v.samples)
    return v.replace(gpus=judged, layers=layers)


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
