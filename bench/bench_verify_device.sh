#!/usr/bin/env bash
# Everything verify measures on a real GPU machine, in one go (the device tool runs this):
# the CUDA C copy reference, the torch.matmul reference, `verify --quick`, the sampler's cost and
# a longer verify. Results go to $OUT (or ./verify-out) as files; a summary is printed last.
# usage: bash bench/bench_verify_device.sh [long_seconds]
cd "$(dirname "$0")/.."
FINAL=${OUT:-verify-out}; OUT=$(mktemp -d); mkdir -p "$FINAL"
trap 'tar -C "$OUT" -cf "$FINAL/verify_results.tar" . ' EXIT
LONG=${1:-8}
PY=${PYTHON:-python3}
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,pcie.link.gen.current,pcie.link.width.current,power.limit,clocks.sm,temperature.gpu --format=csv 2>&1 | tee "$OUT/smi.txt"
( nvcc -O2 -arch=sm_90 -o /tmp/cuda_copy_ref bench/cuda_copy_ref.cu && /tmp/cuda_copy_ref 16 256 1024 ) > "$OUT/ref_copy.jsonl" 2>&1
cat "$OUT/ref_copy.jsonl"
TIMEFORMAT="quick_wall_s %R"; time $PY -m app verify --json --quick > "$OUT/verify_quick.json" 2> "$OUT/verify_quick.err"; echo "quick rc=$?"
tail -3 "$OUT/verify_quick.err"
$PY bench/bench_verify_sampler.py --seconds 10 --profile > "$OUT/sampler.json" 2>&1
$PY bench/bench_verify_sampler.py --seconds 5 --pcie throughput >> "$OUT/sampler.json" 2>&1; cat "$OUT/sampler.json"
$PY bench/bench_verify_ref.py --json "$OUT/ref_matmul.json" > /dev/null 2> "$OUT/ref_matmul.err"; cat "$OUT/ref_matmul.json"
TIMEFORMAT="long_wall_s %R"; time $PY -m app verify --json --seconds "$LONG" > "$OUT/verify_long.json" 2> "$OUT/verify_long.err"; echo "long rc=$?"
tail -3 "$OUT/verify_long.err"
$PY - "$OUT" <<'PY'
import json, sys, os
o = sys.argv[1]
def load(n):
    try:
        return json.load(open(os.path.join(o, n)))
    except Exception as e:
        return {"_error": str(e)}
ref = {}
for line in open(os.path.join(o, "ref_copy.jsonl"), errors="replace"):
    if line.startswith('{"ref"'):
        ref = json.loads(line)
mm = load("ref_matmul.json")
for name in ("verify_quick.json", "verify_long.json"):
    v = load(name)
    if "_error" in v:
        print(name, v["_error"]); continue
    b, c = v["bandwidth"], v["compute"]
    print(f"== {name}: {v['duration_s']} s, status " + ", ".join(f"{l['name']}={l['status']}" for l in v["layers"]))
    for l in v["layers"]:
        print(f"   {l['name']}: {l['reason'][:200]}")
    def pct(a, r):
        return f"{100*a/r:.1f}%" if a and r else "?"
    print(f"   H2D pinned {b['h2d_pinned_gbps']} vs ref {ref.get('h2d_pinned_gbps')} ({pct(b['h2d_pinned_gbps'], ref.get('h2d_pinned_gbps'))}); "
          f"D2H pinned {b['d2h_pinned_gbps']} vs {ref.get('d2h_pinned_gbps')}; D2D {b['d2d_gbps']} vs ref {ref.get('d2d_gbps')} ({pct(b['d2d_gbps'], ref.get('d2d_gbps'))}); "
          f"pageable H2D {b['h2d_pageable_gbps']} D2H {b['d2h_pageable_gbps']}; ceilings PCIe {b['pcie_theoretical_gbps']} mem {b['memory_theoretical_gbps']}")
    best = (mm.get("matmul_best_tflops") or {})
    print(f"   matmul {c['matmul_tflops']} best-chunk {c.get('matmul_best_tflops')} vs torch ref best {best} "
          f"(bf16 {pct(c['matmul_tflops'].get('bf16'), best.get('bf16'))})")
    print(f"   conv2d {c['conv2d']}\n   graph {c['cuda_graph']}")
    print(f"   sampler {v['sampler']}; samples {len(v['samples'])}; errors {[e[:300] for e in v['errors']]}")
PY
