"""Burn-in workloads: run INSIDE the target Python by probe.py (`--burn-in SECONDS`), never imported by
the wizard. Standalone like probe.py: the standard library and torch only.

Every GPU at once, one thread each, phase by phase (all GPUs in the same phase at the same time, so
the wizard shades one timeline for all of them):

    p2p          (2+ GPUs) copy bandwidth one way and both ways, and latency, between every ordered pair
    allreduce    (2+ GPUs, NCCL) all-reduce bus bandwidth, one process per GPU (torch.distributed)
    memtest      patterns written over most of the free memory, then read back (like memtest86's tests)
    matmul_<dt>  matrix products in each precision the GPU has (fp8 where torch._scaled_mm runs); one
                 product in CHECK_EVERY held against a reference computed once at the start of the
                 phase, and that reference itself held against float64 on the CPU
    membw        a memory-bound triad a = b + s*c over arrays far past the L2, checked the same way

The phases repeat in cycles of at most CYCLE_S, so a two-hour burn-in goes through all of them
twelve times. A mismatch is a fault: it is counted per GPU and sent at once, with its phase.

Events (through the probe's `emit`, one JSON line each; the wizard stamps them with its own clock):
    {"event": "burn", "kind": "plan", "phases": [{"phase": "memtest", "seconds": 60.0}, ...], "gpus": [0]}
    {"event": "burn", "kind": "phase", "phase": "matmul_bf16", "seconds": 112.5}
    {"event": "burn", "kind": "rate", "gpu": 0, "phase": "matmul_bf16", "value": 712.3, "unit": "tflops"}
    {"event": "burn", "kind": "mismatch", "gpu": 0, "phase": "matmul_bf16", "count": 12, "checks": 40}
    {"event": "burn", "kind": "memtest", "gpu": 0, "passes": 6, "bytes": 1.3e11, "errors": 0, "pattern": ...}
    {"event": "result", "kind": "burn_phase", "gpu": 0, "data": {"phase", "value", "unit", "checks", ...}}
    {"event": "result", "kind": "p2p", "data": [{"src": 0, "dst": 1, "gbps", "bidir_gbps", "latency_us", "peer"}]}
    {"event": "result", "kind": "allreduce", "data": {"gpus", "size_mib", "algbw_gbps", "busbw_gbps", "ok"}}
    {"event": "error", "layer": "burnin", "gpu": 0, "message": "..."}
"""
from __future__ import annotations

import math
import os
import subprocess
import sys
import tempfile
import threading
import time

MIB = 1 << 20
GIB = 1 << 30
CYCLE_S = 600.0  # one cycle of every phase at most this long
MIN_PHASE_S = 3.0
SHARES = (("memtest", 0.10), ("matmul", 0.75), ("membw", 0.15))
CHECK_EVERY = 16  # one product (or triad) in this many is held against the reference
CHUNK_S = 0.25  # work queued between two waits
RATE_EVERY_S = 1.0  # one rate event per GPU per this
# a result differs from the reference when |out - ref| > RTOL * (|ref| + rms(ref)): two units in the
# last place of the output type, so a different summation order passes and a flipped high bit does not
RTOL = {"bf16": 2.0 ** -7, "fp16": 2.0 ** -9, "tf32": 1e-4, "fp32": 1e-5, "fp8": 2.0 ** -7}
# the reference against float64 on the CPU, ||out - ref|| / ||ref|| (as probe.TOLERANCE, fp8 as bf16)
REF_TOLERANCE = {"fp32": 1e-4, "tf32": 5e-3, "fp16": 5e-3, "bf16": 3e-2, "fp8": 3e-2}
PATTERNS = ("0x00000000", "0xffffffff", "0xaaaaaaaa", "0x55555555", "address", "address_inverted")


def _short(e):
    return f"{type(e).__name__}: {e}".strip()[:1500]


class Out:
    """The probe's emit/error, safe from several threads (a line is never interleaved with another)."""

    def __init__(self, emit, error):
        self._emit, self._error = emit, error
        self._lock = threading.Lock()

    def emit(self, event, **fields):
        with self._lock:
            self._emit(event, **fields)

    def error(self, message, gpu=None):
        with self._lock:
            self._error("burnin", message, gpu=gpu)


# ---------------------------------------------------------------- the plan

def burn_dtypes(torch, cc):
    """The precisions to hold, fastest first: fp8 (cc >= 8.9, where torch has _scaled_mm), bf16, fp16,
    tf32 (cc >= 8.0), fp32."""
    major, minor = (int(x) for x in (cc or "0.0").split(".")[:2])
    out = []
    if (major, minor) >= (8, 9) and hasattr(torch, "_scaled_mm") and hasattr(torch, "float8_e4m3fn"):
        out.append("fp8")
    if major >= 8:
        out += ["bf16", "fp16", "tf32"]
    elif (major, minor) >= (5, 3):
        out.append("fp16")
    return out + ["fp32"]


def plan_phases(seconds, dtypes, multi):
    """[(phase, seconds)]: the measurement phases for several GPUs, then cycles of memtest, matmul per
    precision and membw that add up to `seconds`."""
    phases = [("p2p", 0.0), ("allreduce", 0.0)] if multi else []
    seconds = max(float(seconds), MIN_PHASE_S * (len(dtypes) + 2))
    cycles = max(1, math.ceil(seconds / CYCLE_S - 1e-9))
    per = seconds / cycles
    for _ in range(cycles):
        for name, share in SHARES:
            if name == "matmul":
                phases += [(f"matmul_{d}", round(max(MIN_PHASE_S, per * share / len(dtypes)), 2)) for d in dtypes]
            else:
                phases.append((name, round(max(MIN_PHASE_S, per * share), 2)))
    return phases


# ---------------------------------------------------------------- timing and sustained work

def _sync(torch, dev):
    if dev.type == "cuda":
        torch.cuda.synchronize(dev)


class _Clock:
    """Time of a chunk of work less the time its checks took (CUDA events on a GPU, the host clock else)."""

    def __init__(self, torch, dev):
        self.torch, self.cuda = torch, dev.type == "cuda"
        self.marks = []

    def _event(self):
        e = self.torch.cuda.Event(enable_timing=True)
        e.record()
        return e

    def begin(self):
        self.marks, self.t0 = [], time.perf_counter()
        self.start = self._event() if self.cuda else None

    def check(self, fn):
        a = self._event() if self.cuda else time.perf_counter()
        out = fn()
        self.marks.append((a, self._event() if self.cuda else None))
        return out

    def seconds(self):
        """After the chunk was waited for: (work seconds, check seconds)."""
        if not self.cuda:
            return time.perf_counter() - self.t0, 0.0
        start = self.start
        assert start is not None, "begin() starts the chunk"
        end = self._event()
        end.synchronize()
        total = start.elapsed_time(end) / 1000.0
        checks = sum(a.elapsed_time(b) for a, b in self.marks) / 1000.0
        return max(total - checks, 1e-9), checks


def sustain(torch, dev, step, check, per_call, unit, phase, seconds, out, stop=None, series=None):
    """Call `step()` for about `seconds`, `check()` (a device count of wrong elements, added up on the
    device) after one call in CHECK_EVERY and the last of each chunk; one rate event per RATE_EVERY_S.
    `per_call`: FLOP (unit "tflops") or bytes (unit "gbps") per call. The rate is the work's own: the
    checks' time (CUDA events around each) is left out. Returns the phase's summary."""
    scale = 1e12 if unit == "tflops" else 1e9
    step()
    _sync(torch, dev)
    t = time.perf_counter()
    step()
    _sync(torch, dev)
    calls = max(1, min(5000, int(CHUNK_S / max(time.perf_counter() - t, 1e-6))))
    bad = torch.zeros((), dtype=torch.int64, device=dev)
    clock = _Clock(torch, dev)
    rates, window, checks, faults, check_s = [], [], 0, 0, 0.0
    t_end = time.perf_counter() + seconds
    last_rate = time.perf_counter()
    while time.perf_counter() < t_end and not (stop is not None and stop.is_set()):
        clock.begin()
        for k in range(calls):
            step()
            if (k + 1) % CHECK_EVERY == 0 or k == calls - 1:
                clock.check(lambda: bad.add_(check()))
                checks += 1
        found = int(bad.item())  # waits for the chunk
        dt, ct = clock.seconds()
        check_s += ct
        if found:
            faults += found
            bad.zero_()
            out.emit("burn", kind="mismatch", gpu=dev.index, phase=phase, count=found, checks=checks)
        window.append(per_call * calls / dt / scale)
        if time.perf_counter() - last_rate >= RATE_EVERY_S:
            value = sorted(window)[len(window) // 2]
            rates.append(value)
            out.emit("burn", kind="rate", gpu=dev.index, phase=phase, value=round(value, 2), unit=unit, series=series)
            window, last_rate = [], time.perf_counter()
    rates += [sorted(window)[len(window) // 2]] if window and not rates else []
    rates.sort()
    return {"phase": phase, "unit": unit, "checks": checks, "mismatches": faults, "check_s": round(check_s, 3),
            "value": round(rates[len(rates) // 2], 2) if rates else None, "best": round(rates[-1], 2) if rates else None}


# ---------------------------------------------------------------- matrix products

def _dt(torch, name):
    return {"bf16": torch.bfloat16, "fp16": torch.float16, "tf32": torch.float32, "fp32": torch.float32,
            "fp8": torch.bfloat16}[name]


def matmul_operands(torch, dev, name, n, seed):
    """(a, b, product(out)) for one precision: random inputs (never zeros: zeros run faster and hide
    unwritten outputs); fp8 through torch._scaled_mm with bf16 output (b column-major, as it wants)."""
    gen = torch.Generator(device=dev).manual_seed(seed)
    torch.backends.cuda.matmul.allow_tf32 = name == "tf32"
    if name == "fp8":
        a = torch.randn(n, n, device=dev, generator=gen).to(torch.float8_e4m3fn)
        b = torch.randn(n, n, device=dev, generator=gen).to(torch.float8_e4m3fn).t()
        one = torch.ones((), device=dev)

        def fp8(out):
            try:
                return torch._scaled_mm(a, b, scale_a=one, scale_b=one, out_dtype=torch.bfloat16, out=out)
            except TypeError:  # a torch without the out= form
                return out.copy_(torch._scaled_mm(a, b, scale_a=one, scale_b=one, out_dtype=torch.bfloat16))
        return a, b, fp8
    dt = _dt(torch, name)
    a = torch.randn(n, n, device=dev, generator=gen).to(dt)
    b = torch.randn(n, n, device=dev, generator=gen).to(dt)
    return a, b, lambda out: torch.matmul(a, b, out=out)


def reference_error(torch, a, b, ref, rows=8):
    """||ref - a.b|| / ||a.b|| on a corner of the product, a.b in float64 on the CPU (the inputs as the
    GPU has them, rounded to their type)."""
    ea = a[:rows, :].to("cpu", torch.float64)
    eb = b[:, :rows].to("cpu", torch.float64)
    exact = ea @ eb
    got = ref[:rows, :rows].to("cpu", torch.float64)
    if not bool(torch.isfinite(got).all()):
        return None
    return float(torch.linalg.vector_norm(got - exact)) / (float(torch.linalg.vector_norm(exact)) or 1.0)


def mismatch_counter(torch, ref, rtol):
    """check(out) -> a device count of the elements of `out` that differ from `ref` (NaN counts)."""
    r = ref.float()
    thr = ((r.abs() + float(torch.sqrt(torch.mean(r * r)))) * rtol).to(ref.dtype)
    del r
    diff = torch.empty_like(ref)

    def count(out):
        torch.sub(out, ref, out=diff)
        diff.abs_()
        ok = diff <= thr
        return torch.count_nonzero(ok.logical_not_())
    return count


def matmul_phase(torch, dev, name, n, seconds, out, stop=None):
    phase = f"matmul_{name}"
    a, b, product = matmul_operands(torch, dev, name, n, seed=1000 + (dev.index or 0))
    ref = torch.empty(n, n, device=dev, dtype=_dt(torch, name))
    product(ref)
    _sync(torch, dev)
    err = reference_error(torch, a, b, ref)
    ref_ok = err is not None and err <= REF_TOLERANCE[name]
    if not ref_ok:
        out.emit("burn", kind="mismatch", gpu=dev.index, phase=phase, count=1, checks=0, reference=True,
                 rel_error=err)
    work = torch.empty_like(ref)
    count = mismatch_counter(torch, ref, RTOL[name])
    res = sustain(torch, dev, lambda: product(work), lambda: count(work), 2.0 * n ** 3, "tflops", phase, seconds, out, stop,
                  series=name)
    res.update(dtype=name, size=n, reference_rel_error=err, reference_ok=ref_ok)
    if not ref_ok:
        res["mismatches"] += 1
    torch.backends.cuda.matmul.allow_tf32 = False
    return res


def matmul_size(free_bytes):
    return 8192 if free_bytes >= 6 * GIB else (4096 if free_bytes >= 1 * GIB else 1024)


# ---------------------------------------------------------------- memory-bound triad

def membw_phase(torch, dev, seconds, out, free_bytes, stop=None):
    """Half the time the triad a = b + 3 c (STREAM's), half a device copy a = b, over float32 arrays of
    up to 2 GiB each (4 arrays: a, b, c and the triad's reference). Two results: kernel "triad"
    (3 x bytes a call: two reads, a write) and "copy" (2 x bytes: a read, a write)."""
    nbytes = int(max(16 * MIB, min(2 * GIB, free_bytes // 10)))
    n = nbytes // 4
    gen = torch.Generator(device=dev).manual_seed(2000 + (dev.index or 0))
    b = torch.rand(n, device=dev, generator=gen)
    c = torch.rand(n, device=dev, generator=gen)
    a = torch.empty_like(b)
    ref = torch.add(b, c, alpha=3.0)

    def triad():
        torch.add(b, c, alpha=3.0, out=a)

    results = []
    for kernel, step, check, per_call in (("triad", triad, lambda: torch.count_nonzero(a != ref), 3.0 * nbytes),
                                          ("copy", lambda: a.copy_(b), lambda: torch.count_nonzero(a != b), 2.0 * nbytes)):
        res = sustain(torch, dev, step, check, per_call, "gbps", "membw", seconds / 2, out, stop, series=kernel)
        res.update(array_mib=round(nbytes / MIB, 1), dtype=kernel)
        results.append(res)
    return results


# ---------------------------------------------------------------- memory test

def _pattern_value(name):
    v = int(name, 16)
    return v - (1 << 32) if v >= 1 << 31 else v  # as int32


def _key(chunk_index, pass_index, inverted):
    k = (chunk_index * 0x9E3779B1 + pass_index * 0x85EBCA6B) & 0xFFFFFFFF
    k = k ^ 0xFFFFFFFF if inverted else k
    return k - (1 << 32) if k >= 1 << 31 else k


def memtest_alloc(torch, dev, free_bytes, chunk_bytes=GIB, reserve=None):
    """int32 chunks over the free memory less a reserve (the address pattern's base, a scratch chunk,
    the libraries' own workspaces): returns (chunks, base, scratch)."""
    reserve = reserve if reserve is not None else max(int(1.5 * GIB), free_bytes // 25)
    elems = chunk_bytes // 4
    base = torch.arange(elems, dtype=torch.int32, device=dev)
    scratch = torch.empty(elems, dtype=torch.int32, device=dev)
    chunks = []
    budget = free_bytes - reserve - 2 * chunk_bytes
    while budget >= chunk_bytes:
        try:
            chunks.append(torch.empty(elems, dtype=torch.int32, device=dev))
        except RuntimeError:  # another process took memory meanwhile: test what we have
            break
        budget -= chunk_bytes
    return chunks, base, scratch


def memtest_pass(torch, chunks, base, scratch, pattern, pass_index):
    """Write `pattern` over every chunk, then read every chunk back: (wrong words, first wrong byte
    offset or None). All chunks are written before any is read, so each word holds its value for a
    whole pass."""
    addressed = pattern.startswith("address")
    for i, ch in enumerate(chunks):
        if addressed:
            torch.bitwise_xor(base, _key(i, pass_index, pattern.endswith("inverted")), out=ch)
        else:
            ch.fill_(_pattern_value(pattern))
    wrong, first = 0, None
    for i, ch in enumerate(chunks):
        if addressed:
            torch.bitwise_xor(ch, base, out=scratch)
            bad = scratch != _key(i, pass_index, pattern.endswith("inverted"))
        else:
            bad = ch != _pattern_value(pattern)
        n = int(torch.count_nonzero(bad))
        if n:
            wrong += n
            if first is None:
                first = i * ch.numel() * 4 + int(torch.nonzero(bad)[0]) * 4
    return wrong, first


def memtest_phase(torch, dev, seconds, out, free_bytes, total_bytes, stop=None, chunk_bytes=GIB):
    t_end = time.perf_counter() + seconds
    chunks, base, scratch = memtest_alloc(torch, dev, free_bytes, chunk_bytes)
    tested = sum(c.numel() * 4 for c in chunks)
    passes = errors = 0
    t0 = time.perf_counter()
    while chunks and time.perf_counter() < t_end and not (stop is not None and stop.is_set()):
        pattern = PATTERNS[passes % len(PATTERNS)]
        wrong, first = memtest_pass(torch, chunks, base, scratch, pattern, passes)
        passes += 1
        if wrong:
            errors += wrong
            out.emit("burn", kind="memtest", gpu=dev.index, pattern=pattern, passes=passes, bytes=tested,
                     errors=wrong, first_offset=first)
        elif passes % len(PATTERNS) == 0:
            out.emit("burn", kind="memtest", gpu=dev.index, pattern=pattern, passes=passes, bytes=tested, errors=0)
    _sync(torch, dev)
    dt = time.perf_counter() - t0
    del chunks, base, scratch
    return {"phase": "memtest", "unit": "gbps", "bytes": tested, "share_of_total": round(tested / total_bytes, 3) if total_bytes else None,
            "passes": passes, "mismatches": errors, "checks": passes,
            "value": round(2.0 * tested * passes / dt / 1e9, 1) if dt > 0 and passes else None}


# ---------------------------------------------------------------- several GPUs

def _wall_copies(torch, devs, dst, src, reps):
    for d in devs:
        torch.cuda.synchronize(d)
    t = time.perf_counter()
    for _ in range(reps):
        for x, y in zip(dst, src):
            x.copy_(y, non_blocking=True)
    for d in devs:
        torch.cuda.synchronize(d)
    return time.perf_counter() - t


def p2p_pair(torch, a, b, nbytes=256 * MIB, reps=20):
    """One ordered pair: GB/s a -> b, both ways at once (sum), and the latency of a 4-byte copy (us)."""
    src = torch.empty(nbytes, dtype=torch.uint8, device=a).fill_(1)
    dst = torch.empty(nbytes, dtype=torch.uint8, device=b)
    back = torch.empty(nbytes, dtype=torch.uint8, device=a)
    dst.copy_(src)
    one = _wall_copies(torch, (a, b), [dst], [src], reps)
    both = _wall_copies(torch, (a, b), [dst, back], [src, dst], reps)
    s4, d4 = torch.ones(1, dtype=torch.int32, device=a), torch.empty(1, dtype=torch.int32, device=b)
    lat = _wall_copies(torch, (a, b), [d4], [s4], 200) / 200
    ok = bool(torch.equal(dst[:MIB].cpu(), src[:MIB].cpu()))
    return {"src": a.index, "dst": b.index, "peer": bool(torch.cuda.can_device_access_peer(a.index, b.index)),
            "gbps": round(nbytes * reps / one / 1e9, 2), "bidir_gbps": round(2 * nbytes * reps / both / 1e9, 2),
            "latency_us": round(lat * 1e6, 2), "ok": ok, "size_mib": nbytes // MIB}


def p2p_phase(torch, devs, out):
    pairs = []
    for a in devs:
        for b in devs:
            if a.index == b.index:
                continue
            try:
                pairs.append(p2p_pair(torch, a, b))
            except Exception as e:
                out.error(f"P2P {a.index} -> {b.index}: {_short(e)}", gpu=a.index)
            torch.cuda.empty_cache()
    out.emit("result", kind="p2p", data=pairs)
    return pairs


def allreduce_rank(rank, world, init, size_mib, backend, device=None, reps=20):
    """One rank of the all-reduce (its own process, on CUDA device `device`): checks the sum, then times
    `reps` all-reduces."""
    import torch
    import torch.distributed as dist

    dist.init_process_group(backend, init_method=init, rank=rank, world_size=world)
    dev = torch.device("cuda", rank if device is None else device) if backend == "nccl" else torch.device("cpu")
    if dev.type == "cuda":
        torch.cuda.set_device(dev)
    n = int(size_mib * MIB) // 4
    x = torch.full((n,), float(rank + 1), device=dev)
    dist.all_reduce(x)
    ok = bool(torch.all(x == world * (world + 1) / 2))
    for _ in range(3):
        dist.all_reduce(x)
    _sync(torch, dev)
    dist.barrier()
    t = time.perf_counter()
    for _ in range(reps):
        dist.all_reduce(x)
    _sync(torch, dev)
    dt = (time.perf_counter() - t) / reps
    dist.destroy_process_group()
    algbw = n * 4 / dt / 1e9
    return {"rank": rank, "gpus": world, "size_mib": size_mib, "backend": backend, "ok": ok, "seconds": dt,
            "algbw_gbps": round(algbw, 2), "busbw_gbps": round(algbw * 2 * (world - 1) / world, 2)}


def allreduce_phase(torch, devs, out, size_mib=512, backend="nccl", timeout=180):
    """All-reduce bus bandwidth through NCCL, one process per GPU (nccl-tests' busbw = algbw x 2(n-1)/n)."""
    import torch.distributed as dist

    if backend == "nccl" and not (dist.is_available() and dist.is_nccl_available()):
        out.emit("result", kind="allreduce", data={"gpus": len(devs), "skipped": "this PyTorch has no NCCL"})
        return None
    world = len(devs)
    with tempfile.TemporaryDirectory(prefix="gpu-wizard-allreduce-") as tmp:
        init = "file://" + os.path.join(tmp, "rendezvous")
        env = dict(os.environ, NCCL_NVLS_ENABLE="0", TORCH_SYMM_MEM_DISABLE_MULTICAST="1", NVSHMEM_DISABLE_NVLS="1")
        procs = [subprocess.Popen([sys.executable, os.path.abspath(__file__), "--allreduce-rank", str(r), str(world), init,
                                   str(size_mib), backend, str(devs[r].index if devs[r].index is not None else r)],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
                 for r in range(world)]
        results, errs = [], []
        for p in procs:
            try:
                so, se = p.communicate(timeout=timeout)
            except subprocess.TimeoutExpired:
                p.kill()
                so, se = p.communicate()
            line = next((x for x in so.decode("utf-8", "replace").splitlines() if x.startswith("allreduce-rank ")), None)
            if p.returncode == 0 and line:
                results.append(_rank_line(line))
            else:
                errs.append(se.decode("utf-8", "replace").strip().splitlines()[-1:] or [f"exit code {p.returncode}"])
    if errs or not results:
        out.error(f"all-reduce: {(errs[0] if errs else ['no result'])[0][:300]}")
        return None
    slowest = max(results, key=lambda r: r["seconds"])
    data = {k: slowest[k] for k in ("gpus", "size_mib", "backend", "algbw_gbps", "busbw_gbps")}
    data["ok"] = all(r["ok"] for r in results)
    out.emit("result", kind="allreduce", data=data)
    return data


# ---------------------------------------------------------------- the whole burn-in

def _on_every(devs, fn, out):
    """fn(dev) on every GPU at once, one thread each; {index: result}. An exception is that GPU's error."""
    results = {}

    def run(dev):
        try:
            import torch

            with torch.cuda.device(dev):
                results[dev.index] = fn(dev)
        except Exception as e:
            out.error(_short(e), gpu=dev.index)

    threads = [threading.Thread(target=run, args=(d,), name=f"burn-{d.index}", daemon=True) for d in devs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def run_phase(torch, devs, phase, seconds, out, free, total):
    if phase == "memtest":
        def fn(d):
            torch.cuda.empty_cache()
            return memtest_phase(torch, d, seconds, out, torch.cuda.mem_get_info(d)[0], total[d.index])
    elif phase == "membw":
        def fn(d):
            return membw_phase(torch, d, seconds, out, torch.cuda.mem_get_info(d)[0])
    else:
        name = phase.split("_", 1)[1]

        def fn(d):
            return matmul_phase(torch, d, name, matmul_size(free[d.index]), seconds, out)
    results = _on_every(devs, fn, out)
    for i, r in sorted(results.items()):
        for one in (r if isinstance(r, list) else [r]):
            out.emit("result", kind="burn_phase", gpu=i, data=one)
    torch.cuda.empty_cache()
    return results


def run_burnin(torch, devs, props, seconds, emit, error):
    """The whole burn-in on `devs` (torch devices), `props[index]` the probe's device facts."""
    out = Out(emit, error)
    ccs = [props[d.index].get("compute_capability", "0.0") for d in devs]
    dtypes = [t for t in burn_dtypes(torch, min(ccs, key=lambda c: tuple(int(x) for x in c.split(".")[:2])))]
    phases = plan_phases(seconds, dtypes, len(devs) > 1)
    out.emit("burn", kind="plan", phases=[{"phase": p, "seconds": s} for p, s in phases], gpus=[d.index for d in devs],
             dtypes=dtypes)
    free = {d.index: torch.cuda.mem_get_info(d)[0] for d in devs}
    total = {d.index: torch.cuda.mem_get_info(d)[1] for d in devs}
    for phase, secs in phases:
        out.emit("burn", kind="phase", phase=phase, seconds=secs)
        try:
            if phase == "p2p":
                p2p_phase(torch, devs, out)
            elif phase == "allreduce":
                allreduce_phase(torch, devs, out)
            else:
                run_phase(torch, devs, phase, secs, out, free, total)
        except Exception as e:
            out.error(f"{phase}: {_short(e)}")
    out.emit("burn", kind="phase", phase=None, seconds=0)


RANK_KEYS = ("rank", "gpus", "size_mib", "backend", "ok", "seconds", "algbw_gbps", "busbw_gbps")


def _rank_line(line):
    """A rank's result line ("allreduce-rank 0 2 512 nccl 1 0.0123 340.1 340.1") as a dict."""
    vals = line.split()[1:]
    r = dict(zip(RANK_KEYS, vals))
    return {"rank": int(r["rank"]), "gpus": int(r["gpus"]), "size_mib": float(r["size_mib"]), "backend": r["backend"],
            "ok": r["ok"] == "1", "seconds": float(r["seconds"]), "algbw_gbps": float(r["algbw_gbps"]),
            "busbw_gbps": float(r["busbw_gbps"])}


if __name__ == "__main__" and len(sys.argv) >= 8 and sys.argv[1] == "--allreduce-rank":
    _r, _w, _init, _size, _backend, _dev = sys.argv[2:8]
    _res = allreduce_rank(int(_r), int(_w), _init, float(_size), _backend, int(_dev))
    _res["ok"] = 1 if _res["ok"] else 0
    print("allreduce-rank " + " ".join(str(_res[k]) for k in RANK_KEYS), flush=True)
