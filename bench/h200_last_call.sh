#!/usr/bin/env bash
# The lead's last GPU call of this round, on the H200 (python3 = /opt/torch/.venv's: torch 2.11+cu130,
# nvidia-ml-py, no PySide6, no internet), from the repository root, in well under 200 s of wall time:
#
#   bash bench/h200_last_call.sh            # BUDGET=185 (seconds), BURN=90s, REF_S=3 (seconds per reference figure)
#
# (a) `gpu-wizard verify --burn-in 90s --json` with the fixed sampler, and its HTML report;
# (b) the same run's references: bench/cuda_burn_ref.cu (cuBLAS bf16/fp16/tf32/fp32, a triad, a device copy;
#     built with nvcc only when that takes < 20 s) and bench/torch_fp8_ref.py (fp8 through torch._scaled_mm),
#     after the burn-in, on the warm GPU; the sampler's cost at 10 Hz in burn-in mode before it;
# (c) others' checks while time remains, each under `timeout`: bench/bench_detect_cold.py (i24record) and
#     bench/h200_mirror_e2e.sh (i28advice) run beside the burn-in (CPU and NVML reads only; niced, no CUDA
#     context), the fleet zipapp check (i26fleet: it runs `verify --quick`, so after the references).
#
# Every part fails soft: one that breaks or runs out of time is said, and the rest still run. At most 8
# flat files go to $OUT (each well under 16 MiB): verify_burn.json report.html burn.log summary.txt
# ref.jsonl sampler.jsonl others.txt h200_mirror_e2e.json. A short summary of everything on stdout.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 2
PY=${PYTHON:-python3}
PY=$(command -v "$PY" || echo "$PY")
BUDGET=${BUDGET:-185}
BURN=${BURN:-90s}
REF_S=${REF_S:-3}
OUT=${OUT:-$PWD/last-call-out}
mkdir -p "$OUT"
W=$(mktemp -d /tmp/gw-last.XXXXXX)
export PYTHONUNBUFFERED=1 GPU_WIZARD_LANG=en  # the progress lines it waits for, in English
T0=$SECONDS
left() { echo $((BUDGET - (SECONDS - T0))); }
say() { printf '[%3ds] %s\n' "$((SECONDS - T0))" "$*"; }
OTHERS="$OUT/others.txt"
: > "$OTHERS"
bg_pids=()

# ---------------------------------------------------------------- before the load
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm,temperature.gpu,ecc.mode.current --format=csv > "$W/smi.txt" 2>&1 \
  || echo "nvidia-smi: rc=$?" >> "$W/smi.txt"
{ echo "== nvidia-smi"; cat "$W/smi.txt"; } >> "$OTHERS"
say "GPU: $(tail -1 "$W/smi.txt" 2>/dev/null)"

CUBLAS_LIB=$("$PY" -c "import nvidia.cublas, os; print(os.path.join(list(nvidia.cublas.__path__)[0], 'lib'))" 2>/dev/null)
build_ref() {  # in the background: CPU only
  local t=$SECONDS
  if ! command -v nvcc > /dev/null; then echo '{"ref_build": "no nvcc"}'; return 1; fi
  timeout 20 nvcc -O3 -arch=sm_90 -o "$W/cuda_burn_ref" bench/cuda_burn_ref.cu -lcublas 2>&1 ||
    { [ -n "$CUBLAS_LIB" ] && timeout 20 nvcc -O3 -arch=sm_90 -o "$W/cuda_burn_ref" bench/cuda_burn_ref.cu -L"$CUBLAS_LIB" \
        -l:libcublas.so.13 -Xlinker -rpath="$CUBLAS_LIB" 2>&1; }
  local rc=$?
  echo "{\"ref_build\": \"rc $rc in $((SECONDS - t)) s\"}"
  return $rc
}
build_ref > "$W/ref_build.log" 2>&1 &
build_pid=$!

if [ "$(left)" -gt 160 ]; then
  timeout 15 "$PY" bench/bench_verify_sampler.py --seconds 5 --burn --health-every 1.0 > "$OUT/sampler.jsonl" 2>&1
  echo "{\"sampler_bench_rc\": $?}" >> "$OUT/sampler.jsonl"
  say "sampler at 10 Hz, burn-in mode: $("$PY" - "$OUT/sampler.jsonl" <<'PYEOF' 2>&1 | tail -1
import json, sys
for line in open(sys.argv[1]):
    if line.startswith('{"bench"'):
        d = json.loads(line)
        print("ran %s, %s samples at %s Hz, %s%% of a core (process), %s%% (thread); xid %s %s" % (
            d.get("ran"), d.get("samples"), d.get("rate_hz"), d.get("process_cpu_pct_of_core"),
            d.get("thread_cpu_pct_of_core"), d.get("xid_source"), d.get("error") or d.get("reason") or ""))
PYEOF
)"
fi

# ---------------------------------------------------------------- (a) the burn-in, (c) beside it
others_beside() {  # CPU and NVML reads only: they start once the burn-in's load phases have begun
  local cap=$1
  {
    echo "== bench/bench_detect_cold.py (timeout ${cap}s)"
    timeout "$cap" nice -n 10 "$PY" bench/bench_detect_cold.py 2>&1 | tail -40
    echo "rc=${PIPESTATUS[0]}"
  } > "$W/detect_cold.txt" 2>&1 &
  bg_pids+=($!)
  {
    echo "== TORCH_PY=/opt/torch/.venv/bin/python bash bench/h200_mirror_e2e.sh (timeout ${cap}s)"
    TORCH_PY=/opt/torch/.venv/bin/python OUT="$OUT" timeout "$cap" nice -n 10 bash bench/h200_mirror_e2e.sh 2>&1 | tail -60
    echo "rc=${PIPESTATUS[0]}"
  } > "$W/mirror_e2e.txt" 2>&1 &
  bg_pids+=($!)
}

burn_cap=$(( $(left) - 45 ))  # keeps time for the report, the references and the zipapp check
[ "$burn_cap" -gt 150 ] && burn_cap=150
say "(a) verify --burn-in $BURN (stopped with SIGINT after ${burn_cap}s at most: it still prints its partial result)"
timeout -s INT -k 15 "$burn_cap" "$PY" -m app verify --json --progress --burn-in "$BURN" --python "$PY" \
  > "$OUT/verify_burn.json" 2> "$OUT/burn.log" &
burn_pid=$!
started_beside=0
while kill -0 "$burn_pid" 2> /dev/null; do
  if [ "$started_beside" = 0 ] && grep -q "burn-in 1/" "$OUT/burn.log" 2> /dev/null; then
    started_beside=1
    cap=$(( burn_cap - (SECONDS - T0) + 5 )); [ "$cap" -gt 80 ] && cap=80
    [ "$cap" -gt 10 ] && { say "(c) detect cold start and the mirror e2e beside the burn-in (timeout ${cap}s each)"; others_beside "$cap"; }
  fi
  sleep 1
done
wait "$burn_pid"; burn_rc=$?
echo "verify rc=$burn_rc" >> "$OUT/burn.log"
say "(a) verify rc=$burn_rc ($(wc -c < "$OUT/verify_burn.json" 2>/dev/null || echo 0) bytes of JSON)"
timeout 30 "$PY" -m app report --verification "$OUT/verify_burn.json" --no-snapshot -o "$OUT/report.html" >> "$OUT/burn.log" 2>&1 \
  || say "report: rc=$? (see burn.log)"

# ---------------------------------------------------------------- (b) the references, same run, warm GPU
wait "$build_pid"; build_rc=$?
cat "$W/ref_build.log" > "$OUT/ref.jsonl"
if [ "$build_rc" = 0 ] && [ -x "$W/cuda_burn_ref" ] && [ "$(left)" -gt 30 ]; then
  timeout 40 "$W/cuda_burn_ref" "$REF_S" 8192 2048 >> "$OUT/ref.jsonl" 2>&1 || echo "{\"cuda_burn_ref_rc\": $?}" >> "$OUT/ref.jsonl"
else
  say "(b) no CUDA reference (build rc=$build_rc): the torch one only"
fi
if [ "$(left)" -gt 20 ]; then
  timeout 25 "$PY" bench/torch_fp8_ref.py "$REF_S" 8192 >> "$OUT/ref.jsonl" 2>&1 || echo "{\"torch_fp8_ref_rc\": $?}" >> "$OUT/ref.jsonl"
fi
say "(b) references: $(grep -h '"ref"' "$OUT/ref.jsonl" | tr '\n' ' ' | cut -c1-400)"

# ---------------------------------------------------------------- (c) after: waits for those beside, then the zipapp
for p in "${bg_pids[@]}"; do wait "$p" 2> /dev/null; done
if [ "$started_beside" = 0 ]; then  # the burn-in ended before its load phases: run them now, one after the other
  cap=$(( ($(left) - 40) / 2 )); [ "$cap" -gt 60 ] && cap=60
  if [ "$cap" -gt 10 ]; then
    say "(c) detect cold start and the mirror e2e (the burn-in never reached its load: timeout ${cap}s each)"
    others_beside "$cap"
    for p in "${bg_pids[@]}"; do wait "$p" 2> /dev/null; done
  else
    echo "== bench_detect_cold, h200_mirror_e2e: not run (no time left in the budget)" >> "$OTHERS"
  fi
fi
cat "$W/detect_cold.txt" "$W/mirror_e2e.txt" >> "$OTHERS" 2> /dev/null
cap=$(( $(left) - 3 )); [ "$cap" -gt 45 ] && cap=45
if [ "$cap" -gt 10 ]; then
  say "(c) fleet zipapp check (timeout ${cap}s)"
  {
    echo "== fleet zipapp: build_zipapp, read_nvml from the extracted tree, verify --quick --json (timeout ${cap}s)"
    timeout "$cap" bash -c '"$1" -c '\''import sys; sys.path.insert(0, "."); from app.fleet.zipapp import build_zipapp; build_zipapp("/tmp/gw.pyz")'\'' && rm -rf /tmp/gwx && "$1" -I -S -c '\''import json, sys, zipfile; zipfile.ZipFile("/tmp/gw.pyz").extractall("/tmp/gwx"); sys.path.insert(0, "/tmp/gwx"); from app.system import read_nvml; print(json.dumps(read_nvml(), indent=1))'\'' && "$1" -I -S /tmp/gw.pyz verify --quick --json' _ "$PY" 2>&1 | tail -c 20000
    echo "rc=${PIPESTATUS[0]}"
  } >> "$OTHERS" 2>&1
else
  echo "== fleet zipapp: not run (no time left in the budget)" >> "$OTHERS"
fi

# ---------------------------------------------------------------- the summary
"$PY" bench/burnin_summary.py "$OUT" > "$OUT/summary.txt" 2>&1
cp "$OUT/verify_burn.json" "$W/verify_burn.json" 2> /dev/null
echo "==================== summary ($((SECONDS - T0)) s of a ${BUDGET} s budget)"
grep -E "^status|^sampler during|burnin |interconnect |^  [a-z0-9]+: burn-in|^    (pass|warn|fail|skip)" "$OUT/summary.txt" | grep -v "^\[zh_CN\]" | head -30
grep -A3 -E "^\[zh_CN\] burnin" "$OUT/summary.txt" | head -4
echo "-- others (tails; all in others.txt)"
for part in "bench_detect_cold" "h200_mirror_e2e" "fleet zipapp"; do
  echo "$part: $(awk -v p="$part" 'index($0, "== ") == 1 {on = index($0, p) > 0} on' "$OTHERS" | grep -E "rc=|ratio|median|seconds|error|Error|status|\"ok\"" | tail -4 | tr '\n' ' ' | cut -c1-600)"
done
ls -l "$OUT" | awk 'NR > 1 {print "  " $5 "\t" $9}'
echo "files: $(ls "$OUT" | wc -l) (at most 8)"
rm -rf "$W"
exit 0
