"""The verify probe: runs INSIDE the target Python environment (the one that holds torch), as
a subprocess of the wizard, and prints one JSON object per line on stdout.

Standalone on purpose: only the standard library and torch. The wizard never imports this
module (it would pull torch into the wizard's process); it runs the file by path:

    <target python> -u probe.py [--seconds N] [--quick] [--gpus 0,1] [--sizes-mib 1,16,256]

Protocol (every line one JSON object with an "event" key; anything else on stdout, such as a
library's print, is to be ignored by the reader):
    {"event": "hello", "probe": 1, "python": "...", "python_version": "3.12.3", "pid": 123}
    {"event": "progress", "layer": "bandwidth", "gpu": 0, "step": "h2d_pinned", "message": "...", "fraction": 0.4}
    {"event": "result", "kind": "torch", "data": {...}}            what PyTorch is (or why it is missing)
    {"event": "result", "kind": "device", "gpu": 0, "data": {...}}  torch.cuda.get_device_properties
    {"event": "result", "kind": "numerics", "gpu": 0, "data": [...]}
    {"event": "result", "kind": "bandwidth", "gpu": 0, "data": {...}}
    {"event": "result", "kind": "compute", "gpu": 0, "data": {...}}
    {"event": "error", "layer": "load", "gpu": 0, "message": "..."}  a step failed; the probe goes on
    {"event": "done", "seconds": 12.3}
Field names match app/verify/model.py. Timing uses CUDA events after warm-up; inputs are
random (never zeros: zeros run faster than real data and hide unwritten outputs).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import platform
import sys
import time
import traceback
import warnings
from typing import Any, Optional

PROBE_VERSION = 1
MIB = 1 << 20
_out = sys.stdout


def emit(event, **fields):
    fields["event"] = event
    try:
        line = json.dumps(fields, allow_nan=False, default=str)
    except ValueError:  # a NaN or Inf slipped in: send it as null rather than invalid JSON
        line = json.dumps(_clean(fields), default=str)
    _out.write(line + "\n")
    _out.flush()


def _clean(v):
    if isinstance(v, float) and not math.isfinite(v):
        return None
    if isinstance(v, dict):
        return {k: _clean(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_clean(x) for x in v]
    return v


def progress(layer, step, message, gpu=None, fraction=None):
    emit("progress", layer=layer, gpu=gpu, step=step, message=message, fraction=fraction)


def error(layer, message, gpu=None):
    emit("error", layer=layer, gpu=gpu, message=str(message)[-2000:])


def _short(e):
    text = f"{type(e).__name__}: {e}".strip()
    return text[:1500]


# ---------------------------------------------------------------- PyTorch layer: what it is

def torch_info():
    info = {"python": sys.executable, "python_version": platform.python_version(), "installed": False}
    try:
        import torch  # noqa: F401
    except Exception as e:  # ModuleNotFoundError, or a broken install (missing libcudnn, ...)
        info["error"] = _short(e)
        return None, info
    import torch

    info["installed"] = True
    info["version"] = getattr(torch, "__version__", None)
    info["cuda"] = getattr(torch.version, "cuda", None)
    caught = []
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            info["available"] = bool(torch.cuda.is_available())
        except Exception as e:
            info["available"] = False
            caught.append(_short(e))
        try:
            info["device_count"] = int(torch.cuda.device_count()) if info["available"] else 0
        except Exception as e:
            info["device_count"] = 0
            caught.append(_short(e))
    caught += [str(x.message) for x in w if "cuda" in str(x.message).lower() or "driver" in str(x.message).lower()]
    try:
        info["arch_list"] = list(torch.cuda.get_arch_list()) if info["cuda"] else []
    except Exception:
        info["arch_list"] = []
    try:
        info["cudnn_available"] = bool(torch.backends.cudnn.is_available())
        v = torch.backends.cudnn.version() if info["cudnn_available"] else None
        if v:
            # 91900 -> 9.19.0 (cuDNN 9 encodes major*10000 + minor*100 + patch; 8 used *1000 + *100)
            info["cudnn"] = (f"{v // 10000}.{(v % 10000) // 100}.{v % 100}" if v >= 90000
                             else f"{v // 1000}.{(v % 1000) // 100}.{v % 100}")
    except Exception:
        info["cudnn_available"] = False
    if caught:
        info["error"] = " | ".join(dict.fromkeys(caught))[:1500]
    return torch, info


def device_props(torch, i):
    p = torch.cuda.get_device_properties(i)
    d = {
        "index": i,
        "name": p.name,
        "compute_capability": f"{p.major}.{p.minor}",
        "sm_count": p.multi_processor_count,
        "memory_total_mib": int(p.total_memory // MIB),
    }
    l2 = getattr(p, "L2_cache_size", None)
    if l2:
        d["l2_cache_mib"] = round(l2 / MIB, 2)
    uuid = getattr(p, "uuid", None)
    if uuid is not None:
        s = str(uuid)
        d["uuid"] = s if s.startswith(("GPU-", "MIG-")) else "GPU-" + s
    dom, bus, dev = (getattr(p, "pci_domain_id", None), getattr(p, "pci_bus_id", None), getattr(p, "pci_device_id", None))
    if bus is not None and dev is not None:
        d["bus_id"] = f"{dom or 0:08x}:{bus:02x}:{dev:02x}.0"
    return d


# ---------------------------------------------------------------- numerics

# ||out - ref|| / ||ref|| bounds, with room over what correct hardware gives at these sizes
# (fp32 ~1e-6, tf32 ~3e-4, fp16 ~5e-4, bf16 ~4e-3): a wrong kernel lands near 1, not near these.
TOLERANCE = {"fp32": 1e-4, "tf32": 5e-3, "fp16": 5e-3, "bf16": 3e-2}


def _dtype(torch, name):
    return {"bf16": torch.bfloat16, "fp16": torch.float16, "tf32": torch.float32, "fp32": torch.float32}[name]


def _rel_err(torch, out, ref):
    out64 = out.detach().to("cpu", torch.float64)
    if not bool(torch.isfinite(out64).all()):
        return None
    den = float(torch.linalg.vector_norm(ref))
    return float(torch.linalg.vector_norm(out64 - ref)) / (den or 1.0)


def supported_dtypes(torch, cc):
    major = int(cc.split(".")[0])
    out = ["fp32"]
    if major >= 8:
        out = ["bf16", "fp16", "tf32", "fp32"]
    elif cc >= "5.3" or major >= 6:
        out = ["fp16", "fp32"]
    return out


def _precision(torch, name):
    tf32 = name == "tf32"
    torch.backends.cuda.matmul.allow_tf32 = tf32
    torch.backends.cudnn.allow_tf32 = tf32


def check_numerics(torch, dev, dtypes):
    results = []
    gen = torch.Generator().manual_seed(int(time.time() * 1000) % (2**31))  # fresh inputs every run
    n = 512
    for name in dtypes:
        r = {"op": "matmul", "dtype": name, "tolerance": TOLERANCE[name], "ok": False, "rel_error": None}
        try:
            _precision(torch, name)
            dt = _dtype(torch, name)
            a = torch.randn(n, n, generator=gen).to(dt)
            b = torch.randn(n, n, generator=gen).to(dt)
            ref = a.double() @ b.double()  # the same rounded inputs, float64 on the CPU
            out = torch.full((n, n), float("nan"), dtype=dt, device=dev)  # poison: every element must be written
            torch.matmul(a.to(dev), b.to(dev), out=out)
            torch.cuda.synchronize(dev)
            err = _rel_err(torch, out, ref)
            r["rel_error"] = err
            r["ok"] = err is not None and err <= TOLERANCE[name]
        except Exception as e:
            r["error"] = _short(e)
        results.append(r)
    # cuDNN convolution, fp32 (cuDNN may use TF32 for fp32 convolutions: hold it to that bound) and the
    # half type the tensor cores use
    conv_types = ["tf32"] + [t for t in ("bf16", "fp16") if t in dtypes][:1]
    for name in conv_types:
        r = {"op": "conv2d", "dtype": name, "tolerance": TOLERANCE[name], "ok": False, "rel_error": None}
        try:
            _precision(torch, name)
            dt = _dtype(torch, name)
            x = torch.randn(4, 32, 32, 32, generator=gen).to(dt)
            w = torch.randn(64, 32, 3, 3, generator=gen).to(dt)
            ref = torch.nn.functional.conv2d(x.double(), w.double(), padding=1)
            out = torch.nn.functional.conv2d(x.to(dev), w.to(dev), padding=1)
            torch.cuda.synchronize(dev)
            err = _rel_err(torch, out, ref)
            r["rel_error"] = err
            r["ok"] = err is not None and err <= TOLERANCE[name]
        except Exception as e:
            r["error"] = _short(e)
        results.append(r)
    _precision(torch, "fp32")
    return results


# ---------------------------------------------------------------- bandwidth

def _time_copies(torch, dev, dst, src, reps):
    stream = torch.cuda.current_stream(dev)
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    start.record(stream)
    for _ in range(reps):
        dst.copy_(src, non_blocking=True)
    end.record(stream)
    end.synchronize()
    return start.elapsed_time(end) / 1000.0


def measure_copy(torch, dev, dst, src, nbytes, budget_bytes, trials, factor=1.0):
    """Best of `trials` timings, each of enough copies to move about `budget_bytes`.
    Returns GB/s (10^9 B/s), counting `factor` x nbytes per copy."""
    reps = max(2, min(500, int(budget_bytes // max(nbytes, 1))))
    dst.copy_(src, non_blocking=True)  # warm-up (page-locks nothing; pins nothing; maps the pages)
    torch.cuda.synchronize(dev)
    best = 0.0
    for _ in range(trials):
        t = _time_copies(torch, dev, dst, src, reps)
        if t > 0:
            best = max(best, factor * nbytes * reps / t / 1e9)
    return round(best, 2)


def bandwidth(torch, dev, sizes_mib, quick, l2_mib, free_bytes):
    per_size = []
    budget = (1 if quick else 4) * 1024 * MIB
    trials = 3 if quick else 5
    steps = len(sizes_mib)
    for k, mib in enumerate(sizes_mib):
        nbytes = int(mib * MIB)
        if 3 * nbytes > free_bytes * 0.8:
            continue
        progress("bandwidth", "copy", f"copies of {mib:g} MiB", gpu=dev.index, fraction=k / steps)
        row = {"size_mib": mib}
        d_a = torch.empty(nbytes, dtype=torch.uint8, device=dev)
        d_b = torch.empty(nbytes, dtype=torch.uint8, device=dev)
        d_a.random_(0, 255)
        try:
            pinned = torch.empty(nbytes, dtype=torch.uint8, pin_memory=True)
            pinned.fill_(7)
            row["h2d_pinned_gbps"] = measure_copy(torch, dev, d_a, pinned, nbytes, budget, trials)
            row["d2h_pinned_gbps"] = measure_copy(torch, dev, pinned, d_a, nbytes, budget, trials)
            del pinned
        except Exception as e:
            error("bandwidth", f"pinned copies of {mib:g} MiB: {_short(e)}", gpu=dev.index)
        try:
            pageable = torch.empty(nbytes, dtype=torch.uint8)
            pageable.fill_(7)  # touch every page so the copy measures copying, not page faults
            row["h2d_pageable_gbps"] = measure_copy(torch, dev, d_a, pageable, nbytes, budget, max(2, trials - 2))
            row["d2h_pageable_gbps"] = measure_copy(torch, dev, pageable, d_a, nbytes, budget, max(2, trials - 2))
            del pageable
        except Exception as e:
            error("bandwidth", f"pageable copies of {mib:g} MiB: {_short(e)}", gpu=dev.index)
        try:
            row["d2d_gbps"] = measure_copy(torch, dev, d_b, d_a, nbytes, budget * 8, trials, factor=2.0)
        except Exception as e:
            error("bandwidth", f"device copies of {mib:g} MiB: {_short(e)}", gpu=dev.index)
        del d_a, d_b
        per_size.append(row)
    torch.cuda.empty_cache()
    out: dict[str, Any] = {"per_size": per_size,
           "method": "CUDA events around repeated copy_ after a warm-up; best of several timings; "
                     "D2D counts bytes read plus bytes written; D2D headline only from sizes >= 4x L2"}
    for key in ("h2d_pinned_gbps", "d2h_pinned_gbps", "h2d_pageable_gbps", "d2h_pageable_gbps"):
        vals = [r[key] for r in per_size if r.get(key)]
        out[key] = max(vals) if vals else None
    big = [r["d2d_gbps"] for r in per_size if r.get("d2d_gbps") and r["size_mib"] >= 4 * (l2_mib or 0)]
    anyd = [r["d2d_gbps"] for r in per_size if r.get("d2d_gbps")]
    out["d2d_gbps"] = max(big) if big else (anyd[-1] if anyd else None)
    return out


# ---------------------------------------------------------------- sustained load

class Timer:
    """Per-device chunk timing with CUDA events."""

    def __init__(self, torch, dev):
        self.torch, self.dev = torch, dev
        self.start = torch.cuda.Event(enable_timing=True)
        self.end = torch.cuda.Event(enable_timing=True)

    def begin(self):
        self.start.record(self.torch.cuda.current_stream(self.dev))

    def finish(self):
        self.end.record(self.torch.cuda.current_stream(self.dev))

    def seconds(self):
        self.end.synchronize()
        return self.start.elapsed_time(self.end) / 1000.0


def run_phase(torch, devs, make_work, flops_per_call, seconds, warmup=3, chunk_s=0.05):
    """Drive `make_work(dev)` callables on every device at once for about `seconds`; return
    {dev.index: (median TFLOP/s over chunks, best chunk TFLOP/s)}. Work is launched in chunks sized
    to about `chunk_s`, all devices' chunks queued before any is waited on."""
    works = {d.index: make_work(d) for d in devs}
    calls = {}
    for d in devs:  # warm-up (cuBLAS handles, autotuning) and a first estimate of the chunk size
        for _ in range(warmup):
            works[d.index]()
        torch.cuda.synchronize(d)
        t = Timer(torch, d)
        t.begin()
        works[d.index]()
        t.finish()
        one = max(t.seconds(), 1e-6)
        calls[d.index] = max(1, min(2000, int(chunk_s / one)))
    rates: dict[int, list[float]] = {d.index: [] for d in devs}
    t_end = time.perf_counter() + seconds
    while True:
        timers = []
        for d in devs:
            t = Timer(torch, d)
            t.begin()
            for _ in range(calls[d.index]):
                works[d.index]()
            t.finish()
            timers.append((d, t))
        for d, t in timers:
            s = t.seconds()
            if s > 0:
                rates[d.index].append(flops_per_call * calls[d.index] / s / 1e12)
        if time.perf_counter() >= t_end:
            break
    out: dict[int, tuple[Optional[float], Optional[float]]] = {}
    for i, r in rates.items():
        r.sort()
        out[i] = (round(r[len(r) // 2], 2), round(r[-1], 2)) if r else (None, None)
    return out


def matmul_load(torch, devs, dtypes, n, seconds):
    out: dict[int, dict[str, Any]] = {d.index: {} for d in devs}
    for _k, name in enumerate(dtypes):
        progress("load", "matmul", f"{name} matrix products {n}x{n}x{n} for {seconds:g} s", fraction=None)
        _precision(torch, name)
        dt = _dtype(torch, name)

        def make(dev, dt=dt):
            a = torch.randn(n, n, device=dev, dtype=torch.float32).to(dt)
            b = torch.randn(n, n, device=dev, dtype=torch.float32).to(dt)
            c = torch.empty(n, n, device=dev, dtype=dt)
            return lambda: torch.matmul(a, b, out=c)

        try:
            res = run_phase(torch, devs, make, 2.0 * n ** 3, seconds)
            for i, (med, best) in res.items():
                out[i][name] = (med, best)
        except Exception as e:
            error("load", f"{name} matrix products: {_short(e)}")
        torch.cuda.empty_cache()
    _precision(torch, "fp32")
    return out


def conv_load(torch, devs, dtypes, seconds):
    dt_name = "bf16" if "bf16" in dtypes else ("fp16" if "fp16" in dtypes else "fp32")
    dt = _dtype(torch, dt_name)
    N, C, H, W, K, R = 32, 256, 56, 56, 256, 3
    flops = 2.0 * N * K * H * W * C * R * R  # stride 1, padding 1: output is H x W
    shape = f"N={N} C={C} H={H} W={W} K={K} {R}x{R} {dt_name}"
    torch.backends.cudnn.benchmark = True
    out: dict[int, dict[str, Any]] = {d.index: {"dtype": dt_name, "shape": shape} for d in devs}
    for fmt in ("nchw", "channels_last"):
        progress("load", "conv2d", f"conv2d {fmt} {shape} for {seconds:g} s")

        def make(dev, fmt=fmt):
            mf = torch.channels_last if fmt == "channels_last" else torch.contiguous_format
            conv = torch.nn.Conv2d(C, K, R, padding=1, bias=False).to(dev, dt).to(memory_format=mf)
            x = torch.randn(N, C, H, W, device=dev).to(dt).contiguous(memory_format=mf)

            def work():
                with torch.no_grad():
                    conv(x)
            return work

        try:
            res = run_phase(torch, devs, make, flops, seconds)
            for i, (med, _best) in res.items():
                out[i][f"{fmt}_tflops"] = med
        except Exception as e:
            for d in devs:
                out[d.index]["error"] = f"{fmt}: {_short(e)}"
        torch.cuda.empty_cache()
    for o in out.values():
        if o.get("nchw_tflops") and o.get("channels_last_tflops"):
            o["channels_last_speedup"] = round(o["channels_last_tflops"] / o["nchw_tflops"], 2)
    return out


def graph_load(torch, devs, reps):
    out = {}
    width, depth, batch = 512, 8, 64
    desc = f"MLP {depth}x Linear({width})+ReLU batch {batch} fp32, forward"
    for dev in devs:
        r: dict[str, Any] = {"model": desc}
        try:
            progress("load", "cuda_graph", f"small model eager vs CUDA graph on GPU {dev.index}", gpu=dev.index)
            layers = []
            for _ in range(depth):
                layers += [torch.nn.Linear(width, width), torch.nn.ReLU()]
            model = torch.nn.Sequential(*layers).to(dev).eval()
            x = torch.randn(batch, width, device=dev)
            # everything on this GPU's own current stream: a graph replayed while another GPU is current
            # is queued on that GPU's stream, and the synchronize below would not wait for it
            with torch.cuda.device(dev), torch.no_grad():
                s = torch.cuda.Stream(dev)
                s.wait_stream(torch.cuda.current_stream(dev))
                with torch.cuda.stream(s):
                    for _ in range(3):
                        model(x)
                torch.cuda.current_stream(dev).wait_stream(s)
                torch.cuda.synchronize(dev)
                # eager: the host launches each kernel (measured on the host clock: launch cost is the point)
                t0 = time.perf_counter()
                for _ in range(reps):
                    model(x)
                torch.cuda.synchronize(dev)
                eager = (time.perf_counter() - t0) / reps
                g = torch.cuda.CUDAGraph()
                # capture on this GPU's side stream: torch.cuda.graph's default capture stream is made
                # once, on the first GPU, and would leave another GPU's kernels out of the graph
                with torch.cuda.graph(g, stream=s):
                    model(x)
                g.replay()
                torch.cuda.synchronize(dev)
                t0 = time.perf_counter()
                for _ in range(reps):
                    g.replay()
                torch.cuda.synchronize(dev)
                graph = (time.perf_counter() - t0) / reps
            r["eager_ms"] = round(eager * 1000, 4)
            r["graph_ms"] = round(graph * 1000, 4)
            r["graph_speedup"] = round(eager / graph, 2) if graph > 0 else None
        except Exception as e:
            r["error"] = _short(e)
        out[dev.index] = r
    return out


# ---------------------------------------------------------------- main

def parse_args(argv):
    p = argparse.ArgumentParser(description="gpu-wizard verify probe (JSON lines on stdout)")
    p.add_argument("--seconds", type=float, default=None, help="sustained load per matmul dtype (default 2, quick 1)")
    p.add_argument("--quick", action="store_true")
    p.add_argument("--gpus", default="all", help="CUDA indices, comma separated, or 'all'")
    p.add_argument("--sizes-mib", default=None, help="copy sizes in MiB, comma separated")
    p.add_argument("--skip", default="", help="layers to skip: bandwidth,load (device and pytorch always run)")
    p.add_argument("--burn-in", type=float, default=None, metavar="SECONDS",
                   help="after the layers, a burn-in of this many seconds on every GPU at once (burn_probe.py)")
    return p.parse_args(argv)


def burn_in(torch, usable, props, seconds):
    """The burn-in (burn_probe.py, beside this file: run by path, this file's folder is importable)."""
    here = os.path.dirname(os.path.abspath(__file__))
    if here not in sys.path:
        sys.path.insert(0, here)
    try:
        import burn_probe
    except Exception as e:
        error("burnin", f"the burn-in could not start: {_short(e)}")
        return
    burn_probe.run_burnin(torch, usable, props, seconds, emit, error)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    t_start = time.perf_counter()
    emit("hello", probe=PROBE_VERSION, python=sys.executable, python_version=platform.python_version(), pid=os.getpid())
    progress("pytorch", "import", "importing torch")
    torch, info = torch_info()
    emit("result", kind="torch", data=info)
    if torch is None or not info.get("available"):
        emit("done", seconds=round(time.perf_counter() - t_start, 3))
        return 0
    count = info.get("device_count") or 0
    wanted = list(range(count)) if args.gpus == "all" else [int(x) for x in args.gpus.split(",") if x.strip()]
    wanted = [i for i in wanted if 0 <= i < count]
    skip = {s.strip() for s in args.skip.split(",") if s.strip()}
    seconds = args.seconds if args.seconds is not None else (1.0 if args.quick else 2.0)
    if args.sizes_mib:
        sizes = [float(x) for x in args.sizes_mib.split(",") if x.strip()]
    else:
        sizes = [4, 64, 1024] if args.quick else [1, 4, 16, 64, 256, 1024]

    usable = []
    props = {}
    for i in wanted:
        progress("device", "properties", f"GPU {i}", gpu=i)
        try:
            d = device_props(torch, i)
        except Exception as e:
            d = {"index": i, "error": _short(e)}
        try:  # the first allocation creates the context: this is where compute mode Prohibited,
            dev = torch.device("cuda", i)  # a busy exclusive GPU or a bad driver shows
            torch.ones(1, device=dev).add_(1)
            torch.cuda.synchronize(dev)
            free, _total = torch.cuda.mem_get_info(dev)
            d["memory_free_mib"] = int(free // MIB)
            usable.append(dev)
        except Exception as e:
            d["error"] = _short(e)
        props[i] = d
        emit("result", kind="device", gpu=i, data=d)

    for dev in usable:
        cc = props[dev.index].get("compute_capability", "0.0")
        dtypes = supported_dtypes(torch, cc)
        progress("pytorch", "numerics", f"matmul and cuDNN conv2d against a float64 reference on GPU {dev.index}", gpu=dev.index)
        try:
            emit("result", kind="numerics", gpu=dev.index, data=check_numerics(torch, dev, dtypes))
        except Exception as e:
            error("pytorch", f"numerics: {_short(e)}", gpu=dev.index)
        if "bandwidth" not in skip:
            try:
                free, _ = torch.cuda.mem_get_info(dev)
                data = bandwidth(torch, dev, sizes, args.quick, props[dev.index].get("l2_cache_mib"), free)
                emit("result", kind="bandwidth", gpu=dev.index, data=data)
            except Exception as e:
                error("bandwidth", _short(e) + "\n" + traceback.format_exc(limit=3), gpu=dev.index)

    if "load" not in skip and usable:
        t0 = time.perf_counter()
        dtypes_by = {d.index: supported_dtypes(torch, props[d.index].get("compute_capability", "0.0")) for d in usable}
        common = [t for t in ("bf16", "fp16", "tf32", "fp32") if all(t in v for v in dtypes_by.values())]
        min_mem = min(props[d.index].get("memory_free_mib", 0) for d in usable)
        n = 8192 if min_mem >= 6 * 1024 else 4096
        compute = {d.index: {"gpu_index": d.index, "matmul_tflops": {}, "matmul_best_tflops": {}, "matmul_size": n,
                             "unsupported": [t for t in ("bf16", "fp16", "tf32", "fp32") if t not in dtypes_by[d.index]],
                             "errors": []} for d in usable}
        try:
            mm = matmul_load(torch, usable, common, n, seconds)
            for i, per in mm.items():
                for name, (med, best) in per.items():
                    if med is not None:
                        compute[i]["matmul_tflops"][name] = med
                        compute[i]["matmul_best_tflops"][name] = best
        except Exception as e:
            error("load", f"matrix products: {_short(e)}")
        try:
            conv = conv_load(torch, usable, common, seconds)
            for i, c in conv.items():
                compute[i]["conv2d"] = c
        except Exception as e:
            error("load", f"conv2d: {_short(e)}")
        try:
            gr = graph_load(torch, usable, 50 if args.quick else 200)
            for i, g in gr.items():
                compute[i]["cuda_graph"] = g
        except Exception as e:
            error("load", f"CUDA graph: {_short(e)}")
        for i, c in compute.items():
            c["seconds"] = round(time.perf_counter() - t0, 2)
            emit("result", kind="compute", gpu=i, data=c)
    if args.burn_in and usable:
        burn_in(torch, usable, props, args.burn_in)
    emit("done", seconds=round(time.perf_counter() - t_start, 3))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception as e:  # the reader turns this into a failed layer with the text
        error("probe", _short(e) + "\n" + traceback.format_exc(limit=5))
        sys.exit(1)
