"""Detect's cold start beside its floor, measured in the same run: a fresh process of `gpu-wizard detect
--json` against a fresh `python -c "import pynvml; pynvml.nvmlInit()"` (the least any NVML detection
costs: the interpreter, nvidia-ml-py and the driver's library). Runs alternate (floor, detect, floor, …)
so a busy machine slows both alike; the figure is the ratio of the medians (issue 24: at most 1.5).

    python bench/bench_detect_cold.py [--runs 21] [--python PATH] [--detect CMD...]

Works without a GPU too: nvmlInit then fails (no library or no driver) and the floor is the interpreter,
the import and that failed init — what detection does there as well. Also prints the app modules the
detect command imported and the ten slowest imports (python -X importtime) for the next look.
"""
from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FLOOR = "import pynvml\ntry:\n    pynvml.nvmlInit()\nexcept Exception as e:\n    print(type(e).__name__)\nelse:\n    print('ok')\n"
LIST_MODULES = ("import runpy, sys, io, contextlib\nsys.argv = ['gpu-wizard', 'detect', '--json']\n"
                "from app.cli import main\nwith contextlib.redirect_stdout(io.StringIO()):\n    main()\n"
                "print(' '.join(sorted(m for m in sys.modules if m == 'app' or m.startswith('app.'))))\n")


SPLIT = ("import time, sys, io, contextlib, json\nt0 = time.perf_counter()\nfrom app.cli import main\n"
         "t1 = time.perf_counter()\nwith contextlib.redirect_stdout(io.StringIO()) as out:\n    main(['detect', '--json'])\n"
         "t2 = time.perf_counter()\nprobes = {p['name']: p.get('duration_ms') for p in json.loads(out.getvalue()).get('probes', [])}\n"
         "print(json.dumps({'import_ms': (t1 - t0) * 1000, 'run_ms': (t2 - t1) * 1000, 'probes': probes}))\n")


def split(python: str, env: dict[str, str], runs: int = 5) -> str:
    """Inside one detect process: the import of the command line, the rest (more imports, the probes), the slowest probes."""
    rows = [json.loads(subprocess.run([python, "-c", SPLIT], capture_output=True, text=True, env=env, cwd=ROOT,
                                      timeout=120).stdout) for _ in range(runs)]
    imp = statistics.median(r["import_ms"] for r in rows)
    run = statistics.median(r["run_ms"] for r in rows)
    probes = {k: statistics.median((r["probes"].get(k) or 0.0) for r in rows) for k in rows[0]["probes"]}
    slow = ", ".join(f"{k} {v:.0f}" for k, v in sorted(probes.items(), key=lambda kv: -kv[1])[:5])
    return f"inside detect (median of {runs}): import app.cli {imp:.0f} ms, then detection {run:.0f} ms; slowest probes (ms): {slow}"


def _time(argv: list[str], env: dict[str, str]) -> tuple[float, subprocess.CompletedProcess]:
    t0 = time.perf_counter()
    r = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    return time.perf_counter() - t0, r


def _detect_argv(python: str) -> list[str]:
    script = Path(python).with_name("gpu-wizard")
    return [str(script), "detect", "--json"] if script.exists() else [python, "-m", "app", "detect", "--json"]


def slowest_imports(argv: list[str], env: dict[str, str], n: int = 10) -> list[tuple[float, str]]:
    r = subprocess.run(argv, capture_output=True, text=True, env=dict(env, PYTHONPROFILEIMPORTTIME="1"), cwd=ROOT, timeout=120)
    rows = []
    for line in r.stderr.splitlines():
        parts = line.split("|")
        if line.startswith("import time:") and len(parts) == 3 and parts[1].strip().isdigit():
            rows.append((int(parts[1]) / 1000, parts[2].rstrip()))
    top = [x for x in rows if not x[1].startswith("  ")]  # top-level imports (cumulative)
    return sorted(top, reverse=True)[:n]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=21)
    ap.add_argument("--python", default=sys.executable, help="the interpreter of both (default: this one)")
    ap.add_argument("--detect", help="the detect command line (default: the venv's gpu-wizard detect --json)")
    a = ap.parse_args()
    env = dict(os.environ, GPU_WIZARD_LIVE="0")
    floor = [a.python, "-c", FLOOR]
    detect = shlex.split(a.detect) if a.detect else _detect_argv(a.python)
    for argv in (floor, detect):  # warm the page cache: a cold disk is not what is measured
        _time(argv, env)
    ft, dt = [], []
    nvml = ""
    for _ in range(a.runs):
        t, r = _time(floor, env)
        ft.append(t)
        nvml = r.stdout.strip() or r.stderr.strip()[-200:]
        t, r = _time(detect, env)
        if r.returncode != 0:
            print(f"detect failed (rc {r.returncode}): {r.stderr.strip()[-300:]}", file=sys.stderr)
            return 1
        dt.append(t)
    facts = json.loads(r.stdout)
    f, d = statistics.median(ft), statistics.median(dt)
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}; nvmlInit: {nvml}; "
          f"GPUs detected: {len(facts.get('gpus') or [])}")
    print(f"floor  (python + import pynvml + nvmlInit): median {f * 1000:.0f} ms (min {min(ft) * 1000:.0f}, max {max(ft) * 1000:.0f})")
    print(f"detect ({' '.join(Path(detect[0]).name if i == 0 else x for i, x in enumerate(detect))}): "
          f"median {d * 1000:.0f} ms (min {min(dt) * 1000:.0f}, max {max(dt) * 1000:.0f})")
    print(f"ratio detect / floor: {d / f:.2f} (target <= 1.5) over {a.runs} alternating runs")
    mods = subprocess.run([a.python, "-c", LIST_MODULES], capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    names = mods.stdout.split()
    print(f"app modules imported by detect: {len(names)}: {' '.join(names)}")
    print(split(a.python, env))
    print("slowest top-level imports (cumulative ms): " + ", ".join(f"{m.strip()} {ms:.0f}" for ms, m in slowest_imports(detect, env)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
