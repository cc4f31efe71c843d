"""`gpu-wizard verify`: prove the GPU stack in four layers (device, bandwidth, PyTorch, load).

Runs the probe inside the target Python (`--python`; default: the venv the wizard's plan installed
PyTorch into, see app.verify.runner.target_python), samples NVML
in this process, and prints the Verification (JSON with --json). Exit 0 when nothing failed
(also with no GPU at all: every layer is skipped with its reason), 1 when a layer failed.
"""
from __future__ import annotations

import os
import sys

from app.cli import CliError

HELP = "prove the GPU works at the speed it should: device, bandwidth, PyTorch and a sustained load"


def add_arguments(p) -> None:
    p.add_argument("--python", metavar="PATH", default=None,
                   help="the Python environment to verify (the one that holds torch); default: the venv the wizard "
                        "installed PyTorch into (newest session's plan, else ~/.venvs/gpu), else this interpreter")
    p.add_argument("--seconds", metavar="N", type=float, default=None,
                   help="sustained load per matmul dtype and per conv layout (default 2; 1 with --quick)")
    p.add_argument("--quick", action="store_true", help="fewer copy sizes and a short load (about 20 s on one GPU)")
    p.add_argument("--gpus", metavar="LIST", default="all", help="CUDA indices to test, comma separated (default: all)")
    p.add_argument("--no-samples", action="store_true", help="leave the NVML samples out of the JSON")
    p.add_argument("--rejudge", metavar="FILE", default=None,
                   help="apply the verdicts again to a saved `verify --json` result instead of running anything")


def _progress_printer(enabled: bool):
    def show(ev: dict) -> None:
        if enabled and ev.get("event") == "progress" and ev.get("message"):
            sys.stderr.write(f"  [{ev.get('layer')}] {ev['message']}\n")
            sys.stderr.flush()
    return show


def _text(v) -> str:
    mark = {"pass": "PASS", "warn": "WARN", "fail": "FAIL", "skip": "skip"}
    pad = " " * 19
    lines = [f"Verification of {v.python} ({v.duration_s:.1f} s)"]
    for layer in v.layers:
        lines.append(f"  {mark.get(layer.status, layer.status):4}  {layer.name:9}  {layer.reason}")
        for d in layer.details:
            first = d.splitlines()[0] if d else d
            if first and first not in layer.reason:  # multi-GPU reasons already hold each GPU's sentence
                lines.append(pad + first)
        for c in layer.checks:
            if c.hint and c.status in ("warn", "fail"):
                lines.append(f"{pad}fix: {c.hint}")
    per_gpu = [(g.bandwidth, g.compute) for g in v.gpus] or [(v.bandwidth, v.compute)]
    for b, c in per_gpu:
        if b.h2d_pinned_gbps is not None or b.d2d_gbps is not None:
            lines.append(f"  bandwidth GPU {b.gpu_index}: H2D pinned {b.h2d_pinned_gbps} GB/s, D2H pinned {b.d2h_pinned_gbps} GB/s, "
                         f"H2D pageable {b.h2d_pageable_gbps} GB/s, D2D {b.d2d_gbps} GB/s "
                         f"(PCIe ceiling {b.pcie_theoretical_gbps} GB/s, memory peak {b.memory_theoretical_gbps} GB/s)")
        if c.matmul_tflops:
            lines.append(f"  compute GPU {c.gpu_index}: matmul TFLOP/s " + ", ".join(f"{k} {x}" for k, x in c.matmul_tflops.items())
                         + (f"; conv2d NCHW {c.conv2d.nchw_tflops}, channels_last {c.conv2d.channels_last_tflops}" if c.conv2d.dtype else ""))
    if v.sampler.ran:
        lines.append(f"  sampler: {v.sampler.count} samples at {v.sampler.rate_hz} Hz, {v.sampler.cpu_pct_of_core}% of a core")
    for e in v.errors:
        lines.append(f"  error: {e.splitlines()[0]}")
    return "\n".join(lines)


def run(args, ctx) -> int:
    from app.verify.model import Verification
    from app.verify.session import VerifyOptions, rejudge, run_verification

    if ctx.snapshot_path and not args.rejudge:
        raise CliError("verify measures this machine; it cannot run from a snapshot (use --rejudge FILE for saved results)", 2)
    if args.rejudge:
        try:
            with open(args.rejudge, encoding="utf-8") as f:
                v = rejudge(Verification.loads(f.read()))
        except OSError as e:
            raise CliError(f"cannot read {args.rejudge}: {e.strerror or e}", 2) from None
        except ValueError as e:
            raise CliError(f"{args.rejudge} is not a verify result: {str(e).splitlines()[0]}", 2) from None
    else:
        if args.python and not (os.path.isfile(args.python) and os.access(args.python, os.X_OK)):
            raise CliError(f"--python {args.python}: no such interpreter", 2)
        if args.gpus != "all" and not all(x.strip().isdigit() for x in args.gpus.split(",")):
            raise CliError(f"--gpus {args.gpus}: give CUDA indices such as 0 or 0,1, or 'all'", 2)
        if args.seconds is not None and not (0 < args.seconds <= 3600):
            raise CliError("--seconds must be between 0 and 3600", 2)
        python = args.python
        if python is None:
            from app.verify.runner import target_python

            python = target_python()[0]  # the report's first line names it
        opts = VerifyOptions(python=python, seconds=args.seconds, quick=args.quick, gpus=args.gpus,
                             keep_samples=not args.no_samples)
        v = run_verification(opts, on_progress=_progress_printer(not ctx.json and sys.stderr.isatty()))
    ctx.emit(v.to_json(), _text(v))
    return 1 if v.status == "fail" else 0
