"""The figures of a device burn-in side by side (bench/bench_burnin_device.sh writes them): the verdicts
in English and 简体中文, every GPU's rates against the CUDA reference (cuda_burn_ref.cu) and the
datasheet, and the sampler's cost.

    python3 bench/burnin_summary.py DIR     # DIR holds verify_burn.json, ref.jsonl, sampler.jsonl
"""
from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def _jsonl(path: str) -> list[dict]:
    out = []
    try:
        for line in open(path, encoding="utf-8", errors="replace"):
            if line.startswith("{"):
                try:
                    out.append(json.loads(line))
                except ValueError:
                    pass
    except OSError:
        pass
    return out


def main(d: str) -> int:
    from app.verify.model import Verification
    from app.verify.verdicts import check_text, layer_reason

    try:
        v = Verification.loads(open(os.path.join(d, "verify_burn.json"), encoding="utf-8").read())
    except (OSError, ValueError) as e:
        print(f"no verification: {e}")
        return 1
    refs = _jsonl(os.path.join(d, "ref.jsonl"))
    ref = dict(next((x for x in refs if x.get("ref") == "cuda_burn_ref"), {}))
    fp8 = next((x for x in refs if x.get("ref") == "torch_fp8_ref"), {})
    if (fp8.get("tflops") or {}).get("fp8"):  # cuda_burn_ref.cu has no fp8: torch._scaled_mm's, held alike
        ref["tflops"] = {**(ref.get("tflops") or {}), "fp8": fp8["tflops"]["fp8"]}
    print(f"status {v.status}; took {v.duration_s} s; samples {len(v.samples)}; sampler {v.sampler.to_json()}")
    s = v.sampler
    print(f"sampler during the run: {'ran' if s.ran else 'did not run'}, {s.count} samples at {s.rate_hz} Hz "
          f"(asked {1 / s.interval_s:g} Hz), {s.cpu_pct_of_core}% of a core (its thread), health counters every "
          f"{s.health_every_s} s" + (f"; {s.reason}" if s.reason else "") + (f"; {s.error}" if s.error else ""))
    for lang in ("en", "zh_CN"):
        for layer in v.layers:
            print(f"[{lang}] {layer.name} {layer.status}: {layer_reason(layer, lang)}")
            if layer.name in ("burnin", "interconnect"):
                for c in layer.checks:
                    print(f"    {c.status}: {check_text(c, lang)}")
    b = v.burn_in
    if b is None:
        print("no burn-in in the result")
        return 1
    print(f"burn-in asked {b.seconds} s, ran {b.ran_s} s, cancelled {b.cancelled}, xid {b.xid_source or b.xid_note}")
    print("phases: " + ", ".join(f"{p.phase} {p.t1_s - p.t0_s:.0f}s" for p in b.phases))
    for g in b.gpus:
        print(f"GPU {g.index}: {g.to_json()}")
        for dt, rate in g.tflops.items():
            r = (ref.get("tflops") or {}).get(dt)
            diff = f"{100 * (rate - r) / r:+.1f}%" if r else "?"
            via = "torch._scaled_mm reference" if dt == "fp8" else "cuBLAS reference"
            print(f"  {dt}: burn-in {rate} TFLOP/s, {via} {r} ({diff}), datasheet {g.peak_tflops.get(dt)}")
        for name, mine, r in (("triad", g.mem_gbps, ref.get("triad_gbps")), ("copy", g.mem_copy_gbps, ref.get("copy_gbps"))):
            if mine:
                print(f"  {name}: burn-in {mine} GB/s, CUDA reference {r} ({100 * (mine - r) / r:+.1f}%)" if r else f"  {name} {mine}")
    for p in b.p2p:
        print(f"p2p {p.to_json()}")
    if b.allreduce:
        print(f"allreduce {b.allreduce.to_json()}")
    print(f"events: {[e.to_json() for e in b.events][:20]}")
    for s in _jsonl(os.path.join(d, "sampler.jsonl")):
        print("sampler", {k: s.get(k) for k in ("burn", "health_every_s", "rate_hz", "process_cpu_pct_of_core", "xid_source", "xid_note")})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
