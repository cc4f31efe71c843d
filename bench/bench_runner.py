"""Runner overhead and streaming memory.

1. A step through the runner (plan executor + session log + events) against the same command run
   directly with subprocess.run: wall time, median of N rounds. Target: under 5% overhead.
2. 100,000 lines streamed through the runner to a per-line callback: lines/s, and peak RSS in
   a fresh process before and after (memory must stay flat: the runner keeps only a short tail).

Run: .venv/bin/python bench/bench_runner.py [--rounds N]
"""
from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.plan import Plan, Step  # noqa: E402
from app.run import Executor, Session, run_command  # noqa: E402

# a command with real work and some output: ~0.5 s of CPU, 2,000 lines
WORK = ("import hashlib, sys\nh = b''\nfor i in range(2000):\n"
        "    for _ in range(150): h = hashlib.sha256(h).digest()\n"
        "    sys.stdout.write('%d %s\\n' % (i, h.hex()))\n")


def direct(argv):
    t = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=True)
    return time.perf_counter() - t


def through_executor(argv, tmp):
    plan = Plan(steps=(Step(id="run_work", kind="install_pytorch", title="work", why="bench", commands=(tuple(argv),)),))
    seen = [0]

    def listener(ev):
        if ev.type == "line":
            seen[0] += 1
    t = time.perf_counter()
    r = Executor(plan, Session.create(tmp), listener=listener).run()
    dt = time.perf_counter() - t
    assert r.status == "ok" and seen[0] == 2000, (r, seen)
    return dt


def stream_child(n: int) -> None:
    """In a fresh process: stream n lines through run_command; print lines/s and RSS."""
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    count = [0]
    code = f"import sys\nw = sys.stdout.write\nfor i in range({n}): w('line %d of the stream, some text to make it realistic\\n' % i)\n"
    samples = []

    def cb(_ln):
        count[0] += 1
        if count[0] % 20000 == 0:
            samples.append(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
    t = time.perf_counter()
    out = run_command([sys.executable, "-c", code], on_line=cb)
    dt = time.perf_counter() - t
    rss1 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    assert out.ok and count[0] == n
    print(f"{n} lines in {dt:.2f} s = {n / dt:,.0f} lines/s; peak RSS {rss0 / 1024:.1f} MiB before, "
          f"{rss1 / 1024:.1f} MiB after (+{(rss1 - rss0) / 1024:.1f} MiB); during: "
          + ", ".join(f"{s / 1024:.1f}" for s in samples) + " MiB")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--lines", type=int, default=100_000)
    ap.add_argument("--_stream", type=int, default=0, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a._stream:
        stream_child(a._stream)
        return 0
    argv = [sys.executable, "-c", WORK]
    with tempfile.TemporaryDirectory() as tmp:
        direct(argv)  # warm caches
        d, r = [], []
        for _ in range(a.rounds):  # interleaved so drift hits both equally
            d.append(direct(argv))
            r.append(through_executor(argv, tmp))
        # the fixed cost on a command that does nothing (`true`): session files, threads, events
        t_direct, t_exec = [], []
        plan = Plan(steps=(Step(id="run_true", kind="verify", title="t", why="w", commands=(("true",),)),))
        for _ in range(30):
            t = time.perf_counter()
            subprocess.run(["true"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            t_direct.append(time.perf_counter() - t)
            t = time.perf_counter()
            Executor(plan, Session.create(tmp), listener=lambda _e: None).run()
            t_exec.append(time.perf_counter() - t)
    md, mr = statistics.median(d), statistics.median(r)
    print(f"fixed cost per step (`true`): direct {statistics.median(t_direct) * 1000:.1f} ms, "
          f"executor {statistics.median(t_exec) * 1000:.1f} ms (median of 30)")
    print(f"step overhead: direct {md * 1000:.1f} ms, through the executor+runner {mr * 1000:.1f} ms "
          f"(median of {a.rounds}); overhead {100 * (mr - md) / md:+.1f}% (target < 5%)")
    for n in (10_000, a.lines):
        subprocess.run([sys.executable, __file__, "--_stream", str(n)], check=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
