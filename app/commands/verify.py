"""`gpu-wizard verify`: prove the GPU stack in four layers (device, bandwidth, PyTorch, load).

Runs the probe inside the target Python (`--python`; default: the venv the wizard's plan installed
PyTorch into, see app.verify.runner.target_python), samples NVML
in this process, and prints the Verification (JSON with --json). Exit 0 when nothing failed
(also with no GPU at all: every layer is skipped with its reason), 1 when a layer failed.
"""
from __future__ import annotations

import argparse
import os
import sys

from app.commands.base import CliError

LAYERS = ("device", "bandwidth", "pytorch", "load", "burnin", "interconnect")
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
    p.add_argument("--burn-in", metavar="DURATION", default=None,
                   help="after the quick layers, a burn-in of this long on every GPU at once (10m, 2h, 90s): full load in "
                        "every precision with each result checked, a memory test, Xid/ECC/PCIe/heat watched, a verdict per GPU")
    p.add_argument("--kmsg", metavar="PATH", default="/dev/kmsg", help=argparse.SUPPRESS)
    p.add_argument("--progress", action="store_true", help="say each step on stderr even when it is not a terminal")

    from app.config import add_mirror_arguments

    add_mirror_arguments(p)  # the suggested fix's pip command uses the run's mirrors, proxy and CA bundle
    p.add_argument("--rejudge", metavar="FILE", default=None,
                   help="apply the verdicts again to a saved `verify --json` result instead of running anything")


def _progress_printer(enabled: bool, lang: str = "en"):
    from app.messages import cli

    seen: list[int] = [0, 0]  # phases begun, phases planned

    def show(ev: dict) -> None:
        if not enabled:
            return
        if ev.get("event") == "progress" and ev.get("message"):
            sys.stderr.write(f"  [{ev.get('layer')}] {ev['message']}\n")
        elif ev.get("event") == "burn" and ev.get("kind") == "plan":
            seen[1] = len(ev.get("phases") or ())
        elif ev.get("event") == "burn" and ev.get("kind") == "phase" and ev.get("phase"):
            seen[0] += 1
            sys.stderr.write(cli("verify_burn_progress", lang, done=seen[0], total=seen[1], phase=ev["phase"]) + "\n")
        sys.stderr.flush()
    return show


def _text(v, lang: str = "en") -> str:
    from app.messages import cli
    from app.verify.verdicts import check_hint, check_text, details_in, layer_reason

    def t(key: str, **p) -> str:
        return cli(f"verify_{key}", lang, **p)

    pad = " " * 19
    said = details_in(v, lang)
    lines = [t("header", python=v.python, seconds=f"{v.duration_s:.1f}")]
    for layer in v.layers:
        reason = layer_reason(layer, lang)
        lines.append(f"  {t('mark_' + layer.status) if layer.status in ('pass', 'warn', 'fail', 'skip') else layer.status:4}  "
                     f"{t('layer_' + layer.name) if layer.name in LAYERS else layer.name:9}  {reason}")
        if layer.name in ("burnin", "interconnect"):  # every GPU's sentences, one a line
            lines += [pad + check_text(c, lang) for c in layer.checks if check_text(c, lang) != reason]
        for d in layer.details if layer.name not in ("burnin", "interconnect") else ():
            first = d.splitlines()[0] if d else d
            if first and first not in layer.reason:  # multi-GPU reasons already hold each GPU's sentence
                lines.append(pad + said.get(first, first))
        for c in layer.checks:
            if c.hint and c.status in ("warn", "fail"):
                lines.append(pad + t("fix", hint=check_hint(c, lang)))
    per_gpu = [(g.bandwidth, g.compute) for g in v.gpus] or [(v.bandwidth, v.compute)]
    for b, c in per_gpu:
        if b.h2d_pinned_gbps is not None or b.d2d_gbps is not None:
            lines.append(t("bandwidth", gpu=b.gpu_index, h2d=b.h2d_pinned_gbps, d2h=b.d2h_pinned_gbps, page=b.h2d_pageable_gbps,
                           d2d=b.d2d_gbps, pcie=b.pcie_theoretical_gbps, peak=b.memory_theoretical_gbps))
        if c.matmul_tflops:
            lines.append(t("compute", gpu=c.gpu_index, rates=", ".join(f"{k} {x}" for k, x in c.matmul_tflops.items()))
                         + (t("conv", nchw=c.conv2d.nchw_tflops, cl=c.conv2d.channels_last_tflops) if c.conv2d.dtype else ""))
    if v.sampler.ran:
        lines.append(t("sampler", count=v.sampler.count, hz=v.sampler.rate_hz, cpu=v.sampler.cpu_pct_of_core))
    for e in v.errors:
        lines.append(t("error", error=e.splitlines()[0]))
    return "\n".join(lines)


def run(args, ctx) -> int:
    from app.verify.model import Verification
    from app.verify.session import VerifyOptions, rejudge

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
        from app.detect.python_env import resolve_python

        args.python = resolve_python(args.python)  # `--python python3`: the one on PATH
        if args.python and not (os.path.isfile(args.python) and os.access(args.python, os.X_OK)):
            raise CliError(f"--python {args.python}: no such interpreter", 2)
        if args.gpus != "all" and not all(x.strip().isdigit() for x in args.gpus.split(",")):
            raise CliError(f"--gpus {args.gpus}: give CUDA indices such as 0 or 0,1, or 'all'", 2)
        if args.seconds is not None and not (0 < args.seconds <= 3600):
            raise CliError("--seconds must be between 0 and 3600", 2)
        burn_s = None
        if args.burn_in is not None:
            from app.verify.burnin import DurationError, parse_duration

            try:
                burn_s = parse_duration(args.burn_in)
            except DurationError as e:
                raise CliError(f"--burn-in {e}", 2) from None
        python = args.python
        if python is None:
            from app.verify.runner import target_python

            python = target_python()[0]  # the report's first line names it
        from app.config import ConfigError, mirrors_from_args

        try:
            mirrors, _cfg = mirrors_from_args(args)
        except ConfigError as e:
            raise CliError(str(e), 2) from None
        opts = VerifyOptions(python=python, seconds=args.seconds, quick=args.quick, gpus=args.gpus,
                             keep_samples=not args.no_samples, burn_in_s=burn_s, kmsg_path=args.kmsg, mirrors=mirrors)
        from app.pipeline import torch_fix_command

        v = _run_until_done(opts, _progress_printer(args.progress or (not ctx.json and sys.stderr.isatty()), ctx.lang),
                            torch_fix_command, ctx.lang)
    ctx.emit(v.to_json(), _text(v, ctx.lang))
    if v.cancelled:
        return 130
    return 1 if v.status == "fail" else 0


def _run_until_done(opts, on_progress, fixer, lang: str = "en"):
    """The run, stopped by Ctrl-C or SIGTERM (a `timeout`, a batch scheduler ending the job) at any moment:
    the probe is stopped and what was measured so far is still judged and printed (a valid partial result:
    the burn-in says how long it ran of what was asked)."""
    import signal

    from app.messages import cli
    from app.verify.session import VerifyRun

    def term(_sig, _frame):
        raise KeyboardInterrupt

    try:
        old = signal.signal(signal.SIGTERM, term)
    except ValueError:  # not the main thread (a test calling run()): Ctrl-C only
        old = None
    import threading

    run = VerifyRun(opts, on_progress=on_progress, fixer=fixer)
    done = threading.Event()  # waited on, not the thread joined: an interrupted join can leave is_alive() wrong

    def work() -> None:
        try:
            run.run()
        finally:
            done.set()

    try:
        threading.Thread(target=work, name="gpu-wizard-verify", daemon=True).start()
        said = False
        while True:  # a signal handled anywhere in the loop (not only inside wait) stops the run, never the wait
            try:
                while not done.wait(0.25):
                    pass
                break
            except KeyboardInterrupt:
                if not said:
                    sys.stderr.write(cli("verify_stopping", lang) + "\n")
                    said = True
                run.cancel()
    finally:
        if old is not None:
            signal.signal(signal.SIGTERM, old)
    if run.result is None:
        raise CliError(cli("verify_no_result", lang), 1)
    return run.result
