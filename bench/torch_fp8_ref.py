"""The fp8 reference a burn-in's fp8 rate is held to (bench/cuda_burn_ref.cu has no fp8: cuBLASLt's fp8
path needs its own layouts): torch._scaled_mm on n x n e4m3 inputs with bf16 output, held for `seconds`
in chunks of about 0.25 s timed with CUDA events, the median chunk's rate (as cuda_burn_ref.cu does),
outside the wizard's probe and without its result checks. A bf16 torch.matmul beside it, held alike, ties
this figure to cuda_burn_ref.cu's bf16 (same GPU, same run).

    python3 bench/torch_fp8_ref.py [seconds] [n]     # default 3 s, n = 8192

Prints one JSON object per figure and a summary {"ref": "torch_fp8_ref", "tflops": {"fp8": x, "bf16": y}}.
Without CUDA, or without fp8 matrix products in this torch or on this GPU, it says so on one line.
"""
from __future__ import annotations

import json
import sys


def held(torch, fn, flops: float, seconds: float) -> float:
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    s.record()
    fn()
    e.record()
    e.synchronize()
    reps = max(1, int(0.25 / max(s.elapsed_time(e) / 1000, 1e-6)))
    rates: list[float] = []
    spent = 0.0
    while spent < seconds:
        s.record()
        for _ in range(reps):
            fn()
        e.record()
        e.synchronize()
        dt = s.elapsed_time(e) / 1000
        spent += dt
        rates.append(flops * reps / dt / 1e12)
    rates.sort()
    return round(rates[len(rates) // 2], 2)


def main(argv: list[str]) -> int:
    seconds = float(argv[1]) if len(argv) > 1 else 3.0
    n = int(argv[2]) if len(argv) > 2 else 8192
    try:
        import torch
    except ImportError as e:
        print(json.dumps({"ref": "torch_fp8_ref", "error": f"no torch: {e}"}))
        return 1
    if not torch.cuda.is_available():
        print(json.dumps({"ref": "torch_fp8_ref", "error": "no CUDA GPU"}))
        return 1
    dev = torch.device("cuda", 0)
    out: dict = {"ref": "torch_fp8_ref", "gpu": torch.cuda.get_device_name(0), "torch": torch.__version__, "n": n,
                 "seconds": seconds, "tflops": {}}
    flops = 2.0 * n ** 3
    try:
        a = torch.randn(n, n, device=dev).to(torch.float8_e4m3fn)
        b = torch.randn(n, n, device=dev).to(torch.float8_e4m3fn).t()  # column-major, as _scaled_mm wants
        one = torch.ones((), device=dev)
        c = torch.empty(n, n, device=dev, dtype=torch.bfloat16)

        def fp8():
            try:
                torch._scaled_mm(a, b, scale_a=one, scale_b=one, out_dtype=torch.bfloat16, out=c)
            except TypeError:
                c.copy_(torch._scaled_mm(a, b, scale_a=one, scale_b=one, out_dtype=torch.bfloat16))
        out["tflops"]["fp8"] = held(torch, fp8, flops, seconds)
        print(json.dumps({"kind": "gemm", "dtype": "fp8", "n": n, "tflops": out["tflops"]["fp8"], "via": "torch._scaled_mm"}))
    except (AttributeError, RuntimeError) as e:
        out["fp8_error"] = f"{type(e).__name__}: {str(e).splitlines()[0][:200]}"
    x = torch.randn(n, n, device=dev).to(torch.bfloat16)
    y = torch.randn(n, n, device=dev).to(torch.bfloat16)
    z = torch.empty(n, n, device=dev, dtype=torch.bfloat16)
    out["tflops"]["bf16"] = held(torch, lambda: torch.matmul(x, y, out=z), flops, seconds)
    print(json.dumps({"kind": "gemm", "dtype": "bf16", "n": n, "tflops": out["tflops"]["bf16"], "via": "torch.matmul"}))
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
