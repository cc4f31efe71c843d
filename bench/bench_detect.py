"""Median time of a whole detection (no torch probe), live on this machine and replayed from a
snapshot. Also checks the detect path loads neither Qt nor torch.

    python3 bench/bench_detect.py [--runs N] [--snapshot FILE]
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _median_ms(fn, runs: int) -> tuple[float, float, float]:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times), min(times), max(times)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--snapshot", help="replay this snapshot (default: one recorded here first)")
    a = ap.parse_args()

    t0 = time.perf_counter()
    from app.detect import detect
    from app.system import LiveSystem, RecordingSystem, SnapshotSystem, write_json_atomic
    import_ms = (time.perf_counter() - t0) * 1000

    # cold: a fresh process's first detection (NVML init included)
    t0 = time.perf_counter()
    first = detect(LiveSystem())
    cold_ms = (time.perf_counter() - t0) * 1000

    def live():
        detect(LiveSystem())

    med, lo, hi = _median_ms(live, a.runs)
    gpus = ", ".join(f"{g.name} ({g.compute_capability})" for g in first.gpus) or "none"
    print(f"machine: {gpus}; driver {first.driver.version or '-'} ({first.driver.state})")
    print(f"import app.detect: {import_ms:.1f} ms")
    print(f"detect live, first call: {cold_ms:.1f} ms")
    print(f"detect live, median of {a.runs}: {med:.1f} ms (min {lo:.1f}, max {hi:.1f})")
    slow = sorted((p for p in first.probes if p.name != "total"), key=lambda p: -p.duration_ms)[:5]
    print("slowest probes (first call): " + ", ".join(f"{p.name} {p.duration_ms:.1f} ms" for p in slow))

    path = a.snapshot
    if not path:
        rec = RecordingSystem(LiveSystem())
        detect(rec)
        path = os.path.join(tempfile.mkdtemp(), "bench.json")
        write_json_atomic(path, rec.snapshot())
    snap = SnapshotSystem.load(path)

    def replay():
        detect(snap)

    med2, lo2, hi2 = _median_ms(replay, a.runs)
    print(f"detect from snapshot, median of {a.runs}: {med2:.1f} ms (min {lo2:.1f}, max {hi2:.1f})")
    bad = [m for m in sys.modules if m.split(".")[0] in ("PySide6", "shiboken6", "pyqtgraph", "torch")]
    print(f"Qt/torch modules loaded by detection: {bad or 'none'}")
    print(f"target < 150 ms median live: {'met' if med < 150 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
