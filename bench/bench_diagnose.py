"""Diagnose speed: a 10 MB training log (and a 50 MB one) with real errors buried in it.

Prints the figures; the target is under 1 s for 10 MB. Run: .venv/bin/python bench/bench_diagnose.py
"""
from __future__ import annotations

import os
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.diagnose import diagnose, diagnose_file, load_rules  # noqa: E402

ERRORS = ROOT / "tests" / "fixtures" / "errors"


def fixture(name: str) -> str:
    return (ERRORS / name).read_text(encoding="utf-8").partition("\n")[2]


def training_log(size: int, seed: int = 1) -> str:
    """Lines shaped like a real training log: progress, losses, memory figures, warnings."""
    rnd = random.Random(seed)
    shapes = [
        "{t} INFO trainer: epoch {e} step {s}/{n} loss {l:.4f} lr {lr:.2e} grad_norm {g:.3f} tokens/s {tp}",
        "{t} INFO trainer: memory_allocated: {m} MiB max_memory_allocated: {mm} MiB",
        "{t} WARNING dataloader: worker {w} slow batch {b:.1f} s",
        "{e:>3}%|████████▍ | {s}/{n} [01:{w:02d}<03:10, {b:.2f}it/s]",
        "{t} INFO eval: accuracy {l:.4f} f1 {g:.4f} on {n} samples",
    ]
    out, total, s = [], 0, 0
    while total < size:
        s += 1
        line = rnd.choice(shapes).format(t=f"2026-11-29T12:{s // 3600 % 60:02d}:{s % 60:02d}", e=s // 5000, s=s, n=100000,
                                         l=rnd.random(), lr=3e-4, g=rnd.random() * 3, tp=rnd.randint(40000, 60000),
                                         m=20000 + rnd.randint(0, 500), mm=22000, w=rnd.randint(0, 15), b=rnd.random() * 4)
        out.append(line)
        total += len(line) + 1
    return "\n".join(out) + "\n"


def bench(size_mb: int, errors: list[str]) -> tuple[float, float, object]:
    body = training_log(size_mb * 1024 * 1024)
    third = len(body) // 3
    text = errors[0] + body[:third] + errors[1] + body[third:2 * third] + errors[2] + body[2 * third:]
    with tempfile.NamedTemporaryFile("w", suffix=".log", delete=False) as fh:
        fh.write(text)
        path = fh.name
    try:
        t0 = time.perf_counter()
        d = diagnose_file(path)
        file_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        diagnose(text)
        str_s = time.perf_counter() - t0
    finally:
        os.unlink(path)
    return file_s, str_s, d


def main() -> int:
    t0 = time.perf_counter()
    load_rules.cache_clear()
    load_rules()
    print(f"rules load and compile: {(time.perf_counter() - t0) * 1000:.1f} ms ({len(load_rules().rules)} rules)")
    errs = [fixture("cudnn_ops_infer8_whisper.txt"), fixture("oom_new_format_fragmented_lerf.txt"), fixture("mismatch_intel_ci_550.txt")]
    t0 = time.perf_counter()
    for name in sorted(p.name for p in ERRORS.glob("*.txt")):
        diagnose(fixture(name))
    n = len(list(ERRORS.glob("*.txt")))
    print(f"short pastes: {n} real error texts in {(time.perf_counter() - t0) * 1000:.0f} ms "
          f"({(time.perf_counter() - t0) * 1000 / n:.1f} ms each)")
    for mb in (10, 50):
        best_file = best_str = float("inf")
        for _ in range(3):
            f, s, d = bench(mb, errs)
            best_file, best_str = min(best_file, f), min(best_str, s)
        cats = ", ".join(d.categories())
        verdict = "OK" if mb != 10 or best_file < 1.0 else "SLOW (target < 1 s)"
        print(f"{mb} MB log from a file: {best_file:.3f} s, from a string: {best_str:.3f} s; "
              f"kept {d.input.chars_kept} chars of {d.input.bytes_read} bytes; found: {cats}  [{verdict}]")
    # memory: a fresh process that only diagnoses a 50 MB file (reads it in 4 MiB chunks)
    import subprocess

    body = training_log(50 * 1024 * 1024, seed=2)
    with tempfile.NamedTemporaryFile("w", suffix=".log", delete=False) as fh:
        fh.write(errs[0] + body + errs[1])
        path = fh.name
    code = ("import sys, tracemalloc; sys.path.insert(0, %r); from app.diagnose import diagnose_file; "
            "import app.diagnose.engine as e; e.load_rules(); tracemalloc.start(); "
            "d = diagnose_file(%r); cur, peak = tracemalloc.get_traced_memory(); "
            "print(round(cur / 2**20, 1), round(peak / 2**20, 1), len(d.matches))") % (str(ROOT), path)
    try:
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120).stdout.split()
    finally:
        os.unlink(path)
    if len(out) == 3:
        print(f"memory for a 50 MB file: peak {out[1]} MiB allocated by the diagnosis (tracemalloc), {out[0]} MiB held after; {out[2]} matches")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
