"""Reference figures for the verify probe, measured independently of it (run on a GPU machine):

    python3 bench/bench_verify_ref.py [--json OUT]

- the best torch.matmul rate in bf16 (and fp16, tf32, fp32) over several square sizes, each timed
  with CUDA events over many products after a warm-up, on random data (never zeros);
- compared in `bench/bench_verify_device.sh` with the probe's own sustained figures.
The CUDA C copy reference is bench/cuda_copy_ref.cu.
"""
from __future__ import annotations

import argparse
import json
import sys


def best_matmul(torch, dtype_name: str, sizes, seconds_each: float = 0.5) -> dict:
    dt = {"bf16": torch.bfloat16, "fp16": torch.float16, "tf32": torch.float32, "fp32": torch.float32}[dtype_name]
    torch.backends.cuda.matmul.allow_tf32 = dtype_name == "tf32"
    out = {}
    for n in sizes:
        a = torch.randn(n, n, device="cuda").to(dt)
        b = torch.randn(n, n, device="cuda").to(dt)
        c = torch.empty(n, n, device="cuda", dtype=dt)
        for _ in range(5):
            torch.matmul(a, b, out=c)
        torch.cuda.synchronize()
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        torch.matmul(a, b, out=c)
        e.record()
        e.synchronize()
        reps = max(3, int(seconds_each / max(s.elapsed_time(e) / 1000, 1e-6)))
        best = 0.0
        for _ in range(3):
            s.record()
            for _ in range(reps):
                torch.matmul(a, b, out=c)
            e.record()
            e.synchronize()
            best = max(best, 2.0 * n ** 3 * reps / (s.elapsed_time(e) / 1000) / 1e12)
        out[n] = round(best, 1)
        del a, b, c
    torch.backends.cuda.matmul.allow_tf32 = False
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    import torch

    if not torch.cuda.is_available():
        print("no CUDA GPU: nothing to measure", file=sys.stderr)
        return 1
    res = {"device": torch.cuda.get_device_name(0), "torch": torch.__version__, "matmul_tflops_by_size": {}}
    for name, sizes in (("bf16", (4096, 8192, 12288, 16384)), ("fp16", (8192, 16384)), ("tf32", (8192,)), ("fp32", (8192,))):
        res["matmul_tflops_by_size"][name] = best_matmul(torch, name, sizes)
    res["matmul_best_tflops"] = {k: max(v.values()) for k, v in res["matmul_tflops_by_size"].items()}
    text = json.dumps(res)
    print(text)
    if args.json:
        with open(args.json, "w") as f:
            f.write(text + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
