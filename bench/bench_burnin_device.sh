#!/usr/bin/env bash
# A burn-in on a real GPU machine, with its references, in the steps the device tool allows (one
# command at most 10 minutes; a detached run outlives the command that started it):
#
#   bash bench/bench_burnin_device.sh check 45     # what NVML serves, the sampler's cost, a 45 s burn-in
#   bash bench/bench_burnin_device.sh start 600    # references, then a 10-minute burn-in, detached; waits ~9 min
#   bash bench/bench_burnin_device.sh finish       # waits for the end, detect's cold start, copies the results to $OUT
#   MIRROR=1 bash bench/bench_burnin_device.sh extras  # only the CPU-side checks: detect cold, the mirror e2e
#
# `finish` must follow `start` within the machine's 30 s warm period: a fresh machine has no results
# (it says so and stops at once rather than waiting).
#
# Results (at most 8 files): verify_burn.json (`verify --json --burn-in`), report.html, ref.jsonl
# (bench/cuda_burn_ref.cu: cuBLAS products per precision and a triad, built here with nvcc), burn.log (stderr
# and progress), summary.txt (the figures side by side), others.txt (bench_detect_cold.py, the mirror e2e),
# h200_mirror_e2e.json, and device_facts.txt: smi.txt, nvml.json (bench/bench_burnin_nvml.py) and
# sampler.jsonl (bench/bench_verify_sampler.py, plain and burn-in mode) one after the other.
cd "$(dirname "${BASH_SOURCE[0]}")/.."
MODE=${1:-check}; SECS=${2:-45}
PY=${PYTHON:-python3}
W=/tmp/gpu-wizard-burn; mkdir -p "$W"
export PYTHONUNBUFFERED=1 NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
REF_S=${REF_S:-8}

refs() {  # the CUDA reference, then the NVML facts and the sampler's cost (before the load)
  nvidia-smi --query-gpu=name,driver_version,pcie.link.gen.max,pcie.link.width.max,power.limit,clocks.max.sm,temperature.gpu,ecc.mode.current --format=csv > "$W/smi.txt" 2>&1
  nvidia-smi topo -m >> "$W/smi.txt" 2>&1
  CUBLAS_LIB=$($PY -c "import nvidia.cublas, os; print(os.path.join(list(nvidia.cublas.__path__)[0], 'lib'))" 2>/dev/null)
  { nvcc -O3 -arch=sm_90 -o "$W/cuda_burn_ref" bench/cuda_burn_ref.cu -lcublas 2>&1 ||
    nvcc -O3 -arch=sm_90 -o "$W/cuda_burn_ref" bench/cuda_burn_ref.cu -L"$CUBLAS_LIB" -l:libcublas.so.13 -Xlinker -rpath="$CUBLAS_LIB" 2>&1; } > "$W/ref.jsonl"
  "$W/cuda_burn_ref" "$REF_S" 8192 2048 >> "$W/ref.jsonl" 2>&1
  $PY bench/bench_burnin_nvml.py > "$W/nvml.json" 2>&1
  { $PY bench/bench_verify_sampler.py --seconds 6
    $PY bench/bench_verify_sampler.py --seconds 6 --burn
    $PY bench/bench_verify_sampler.py --seconds 6 --burn --health-every 1.0; } > "$W/sampler.jsonl" 2>&1
}

burn() {
  $PY -m app verify --json --progress --burn-in "$1" > "$W/verify_burn.json" 2> "$W/burn.log"; echo "verify rc=$?" >> "$W/burn.log"
  $PY -m app report --verification "$W/verify_burn.json" --no-snapshot -o "$W/report.html" >> "$W/burn.log" 2>&1
  $PY bench/burnin_summary.py "$W" > "$W/summary.txt" 2>&1
  touch "$W/done"
}

collect() {  # at most 8 files: the device tool brings back no more
  local o=${OUT:-verify-out}
  mkdir -p "$o"
  for f in verify_burn.json report.html ref.jsonl burn.log summary.txt others.txt h200_mirror_e2e.json; do
    [ -f "$W/$f" ] && cp "$W/$f" "$o/"
  done
  { for f in smi.txt nvml.json sampler.jsonl; do [ -f "$W/$f" ] && { echo "== $f"; cat "$W/$f"; }; done; } > "$o/device_facts.txt"
  cat "$W/summary.txt" 2>/dev/null
}

extras() {  # CPU-side checks into others.txt: detect beside its floor; with MIRROR=1 the mirror end to end too
  { echo "== bench/bench_detect_cold.py ($(date +%T))"; timeout 50 $PY bench/bench_detect_cold.py --budget 35 2>&1; echo "rc=$?"; } >> "$W/others.txt"
  if [ -n "${MIRROR:-}" ]; then
    { echo "== bench/h200_mirror_e2e.sh"; TORCH_PY=/opt/torch/.venv/bin/python OUT="$W" timeout 150 bash bench/h200_mirror_e2e.sh 2>&1 | tail -80
      echo "rc=${PIPESTATUS[0]}"; } >> "$W/others.txt"
  fi
  cat "$W/others.txt"
}

case "$MODE" in
  check)
    rm -rf "$W"; mkdir -p "$W"; REF_S=3 refs; cat "$W/nvml.json"; cat "$W/sampler.jsonl"; tail -8 "$W/ref.jsonl"
    burn "$SECS"; tail -20 "$W/burn.log"; collect ;;
  start)
    rm -rf "$W"; mkdir -p "$W"
    setsid nohup bash -c "cd '$PWD' && source bench/bench_burnin_device.sh lib && refs && burn '$SECS'" > "$W/nohup.log" 2>&1 < /dev/null &
    for _ in $(seq 1 ${WAIT_STEPS:-54}); do sleep 10; [ -f "$W/done" ] && break
      echo "$(date +%T) $(grep -c '' "$W/burn.log" 2>/dev/null) log lines; $(tail -1 "$W/burn.log" 2>/dev/null)"; done
    tail -5 "$W/ref.jsonl" ;;
  finish)
    [ -d "$W" ] || { echo "no $W here: the machine that ran 'start' was given back (a fresh one has nothing); run start again"; exit 3; }
    for _ in $(seq 1 54); do [ -f "$W/done" ] && break; sleep 10; echo "$(date +%T) $(tail -1 "$W/burn.log" 2>/dev/null)"; done
    extras > /dev/null; collect ;;
  extras)
    mkdir -p "$W"; rm -f "$W/others.txt"; extras; collect > /dev/null ;;
  lib) ;;
esac
