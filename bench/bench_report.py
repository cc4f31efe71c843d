"""Issue 9: report build and render time and size, and redaction throughput.

A report with a 30-second stress test (10 Hz NVML samples per GPU) and a session whose
output.log has 100,000 lines, plus the planted snapshot; then a redacted export of that log.

    python bench/bench_report.py [--lines 100000] [--seconds 30] [--gpus 1] [--runs 3]
"""
import argparse
import json
import statistics
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.report import build_report, export_log, render  # noqa: E402
from app.report.demo import (demo_diagnosis, demo_facts, demo_recommendation, demo_verification,  # noqa: E402
                             write_demo_session)
from app.report.redact import Redactor  # noqa: E402

LIMIT = 2 * 1024 * 1024


def timed(fn, runs):
    times, out = [], None
    for _ in range(runs):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return out, statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--lines", type=int, default=100_000)
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--gpus", type=int, default=1)
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    snap = json.loads((ROOT / "tests" / "fixtures" / "report" / "planted_snapshot.json").read_text())
    with tempfile.TemporaryDirectory() as tmp:
        sess = write_demo_session(Path(tmp) / "sessions", log_lines=a.lines)
        log = sess / "output.log"
        ver = demo_verification(seconds=a.seconds, rate_hz=10, gpus=a.gpus)
        print(f"inputs: output.log {a.lines:,} lines ({log.stat().st_size / 1e6:.1f} MB), "
              f"{len(ver['samples'])} samples ({a.gpus} GPU, {a.seconds:.0f} s at 10 Hz), snapshot {len(json.dumps(snap)) / 1e3:.0f} kB")

        def build(redact=True):
            return build_report(facts=demo_facts(), recommendation=demo_recommendation(), session=sess, verification=ver,
                                diagnosis=demo_diagnosis(), snapshot=snap, redact=redact)

        report, t_build = timed(build, a.runs)
        _, t_raw = timed(lambda: build(False), a.runs)
        print(f"build_report: {t_build * 1000:.0f} ms redacted, {t_raw * 1000:.0f} ms without redaction (median of {a.runs})")
        for fmt in ("html", "md", "json"):
            text, t = timed(partial(render, report, fmt), a.runs)
            size = len(text.encode("utf-8"))
            print(f"render {fmt:4}: {t * 1000:6.1f} ms, {size / 1024:7.1f} KiB ({size / LIMIT * 100:.0f}% of the 2 MB limit)"
                  + ("" if size < LIMIT else "  OVER THE LIMIT"))
        ex = report.logs[0]
        print(f"log excerpt: lines {ex.first_line}-{ex.last_line} of {ex.total_lines:,} ({len(ex.text) / 1024:.1f} KiB), "
              f"failure at line {ex.focus_line}")
        out = Path(tmp) / "shared.log"
        _, t_exp = timed(lambda: export_log(log, out, Redactor()), 1)
        mb = log.stat().st_size / 1e6
        print(f"export_log (redacted copy): {t_exp:.2f} s for {mb:.1f} MB ({mb / t_exp:.1f} MB/s)")
        r = Redactor()
        _, t_snap = timed(lambda: r.data(snap), a.runs)
        print(f"redact snapshot: {t_snap * 1000:.0f} ms ({r.counts()})")


if __name__ == "__main__":
    main()
