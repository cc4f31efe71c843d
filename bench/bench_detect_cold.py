"""Detect's cold start beside its floor, measured in the same run: a fresh process of `gpu-wizard detect
--json` against a fresh `python -c "import pynvml; pynvml.nvmlInit()"` (the least any NVML detection
costs: the interpreter, nvidia-ml-py and the driver's library). Runs alternate (floor, detect, floor, …)
so a busy machine slows both alike; the figure is the ratio of the medians (issue 24: at most 1.5).

    python3 bench/bench_detect_cold.py [--runs 21] [--budget 25] [--python PATH] [--detect CMD...]

From the repository root, with any Python 3.10+ that has the wizard's dependencies or none of them: detect
then runs as `python -m app detect --json`. Where nvidia-ml-py is missing the floor is what detection does
then too (app/system.read_nvml: libnvidia-ml through ctypes, nvmlInit_v2), and the first line says which
floor ran. Both run from bytecode, as an installed program does (a private cache; --source-only keeps the environment's
PYTHONDONTWRITEBYTECODE, as the GPU machine sets it: then every start compiles every module). Works without a GPU too: nvmlInit then fails (no library or no driver) and the floor is the
interpreter, the load and that failed init. The whole run keeps to --budget seconds (fewer alternating runs
on a slow machine, at least 5; the extras below only while time is left): the figure comes first. Then it
prints the app modules the detect command imported, the time inside detect, and the ten slowest imports
(python -X importtime) for the next look.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# python + NVML's init, the way detection reaches NVML: nvidia-ml-py where it is installed, else ctypes
FLOOR = """\
try:
    import pynvml
except ImportError:
    import ctypes, sys
    name = "nvml.dll" if sys.platform == "win32" else "libnvidia-ml.so.1"
    try:
        rc = ctypes.CDLL(name).nvmlInit_v2()
    except OSError as e:
        print("ctypes: no " + name)
    else:
        print("ctypes: ok" if rc == 0 else "ctypes: nvmlInit_v2 returned %d" % rc)
else:
    try:
        pynvml.nvmlInit()
    except Exception as e:
        print("pynvml: " + type(e).__name__)
    else:
        print("pynvml: ok")
"""
LIST_MODULES = ("import runpy, sys, io, contextlib\nsys.argv = ['gpu-wizard', 'detect', '--json']\n"
                "from app.cli import main\nwith contextlib.redirect_stdout(io.StringIO()):\n    main()\n"
                "print(' '.join(sorted(m for m in sys.modules if m == 'app' or m.startswith('app.'))))\n")


SPLIT = ("import time\nT = time.perf_counter()\nimport sys, io, contextlib, json\nfrom app.cli import main\n"
         "import app.detect as d\nrows = []\norig = d._Log.probe\n"
         "def probe(self, name, status, t0, detail=''):\n"
         "    rows.append((name, round((t0 - T) * 1000, 1), round((time.perf_counter() - T) * 1000, 1)))\n"
         "    return orig(self, name, status, t0, detail)\n"
         "d._Log.probe = probe\nt1 = time.perf_counter()\n"
         "with contextlib.redirect_stdout(io.StringIO()) as out:\n    main(['detect', '--json'])\n"
         "t2 = time.perf_counter()\n"
         "print(json.dumps({'import_ms': (t1 - T) * 1000, 'run_ms': (t2 - t1) * 1000, 'timeline': rows}))\n")


def split(python: str, env: dict[str, str], runs: int = 5) -> str:
    """Inside one detect process: the import of the command line, the rest (more imports, the probes), the slowest
    probes, and the timeline of the median run (each probe's start and end, ms after the process's first line:
    the critical path is what ends last)."""
    rows = [json.loads(subprocess.run([python, "-c", SPLIT], capture_output=True, text=True, env=env, cwd=ROOT,
                                      timeout=120).stdout) for _ in range(runs)]
    imp = statistics.median(r["import_ms"] for r in rows)
    run = statistics.median(r["run_ms"] for r in rows)
    names = {n for r in rows for n, _, _ in r["timeline"]}
    dur = {k: statistics.median([b - a for r in rows for n, a, b in r["timeline"] if n == k] or [0.0]) for k in names}
    slow = ", ".join(f"{k} {v:.0f}" for k, v in sorted(dur.items(), key=lambda kv: -kv[1])[:6])
    mid = sorted(rows, key=lambda r: r["run_ms"])[len(rows) // 2]
    line = "; ".join(f"{n} {a:.0f}-{b:.0f}" for n, a, b in sorted(mid["timeline"], key=lambda x: x[2]))
    return (f"inside detect (median of {runs}): import app.cli {imp:.0f} ms, then detection {run:.0f} ms; slowest probes (ms): {slow}\n"
            f"timeline of the median run (ms from the first line; ends last = critical path): {line}")


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
    ap.add_argument("--runs", type=int, default=21, help="alternating pairs at most (at least 5, within --budget)")
    ap.add_argument("--budget", type=float, default=25.0, help="seconds for the whole run (default 25)")
    ap.add_argument("--python", default=sys.executable, help="the interpreter of both (default: this one)")
    ap.add_argument("--detect", help="the detect command line (default: the venv's gpu-wizard detect --json)")
    ap.add_argument("--source-only", action="store_true",
                    help="keep the environment's bytecode setting as it is (PYTHONDONTWRITEBYTECODE: every start compiles "
                         "every module from source); by default both commands run with their bytecode cached")
    a = ap.parse_args()
    t_start = time.perf_counter()
    env = dict(os.environ, GPU_WIZARD_LIVE="0")
    bytecode = "as the environment has it"
    if not a.source_only:
        # An installed wizard runs from bytecode (pip writes the .pyc files when it installs; the bundle holds them).
        # A machine with PYTHONDONTWRITEBYTECODE set, or read-only site-packages without them, would make both
        # commands compile their modules from source on every start: what is then measured is the compiler (for
        # the floor, nvidia-ml-py's 200 KB module). Both get a private bytecode cache, filled by the warm-up runs.
        import tempfile

        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = tempfile.mkdtemp(prefix="gw-pycache-")
        bytecode = f"cached for both (a private cache; PYTHONDONTWRITEBYTECODE was {'set' if os.environ.get('PYTHONDONTWRITEBYTECODE') else 'unset'})"
    floor = [a.python, "-c", FLOOR]
    detect = shlex.split(a.detect) if a.detect else _detect_argv(a.python)
    warm = [_time(argv, env)[0] for argv in (floor, detect, floor, detect)][2:]  # the page cache (and the bytecode cache)
    pairs = max(5, min(a.runs, int(a.budget * 0.6 / max(sum(warm), 1e-3))))
    ft, dt = [], []
    nvml = ""
    r = None
    for i in range(pairs):
        if i >= 5 and time.perf_counter() - t_start > a.budget * 0.6:
            break
        t, fr = _time(floor, env)
        ft.append(t)
        nvml = fr.stdout.strip() or fr.stderr.strip()[-200:]
        t, r = _time(detect, env)
        if r.returncode != 0:
            print(f"detect failed (rc {r.returncode}): {r.stderr.strip()[-300:]}", file=sys.stderr)
            return 1
        dt.append(t)
    facts = json.loads(r.stdout) if r is not None else {}
    f, d = statistics.median(ft), statistics.median(dt)
    print(f"python {platform.python_version()} ({a.python}), {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}; bytecode {bytecode}; "
          f"floor's nvmlInit: {nvml}; GPUs detected: {len(facts.get('gpus') or [])}")
    print(f"floor  (python + NVML library + nvmlInit): median {f * 1000:.0f} ms (min {min(ft) * 1000:.0f}, max {max(ft) * 1000:.0f})")
    print(f"detect ({' '.join(Path(detect[0]).name if i == 0 else x for i, x in enumerate(detect))}): "
          f"median {d * 1000:.0f} ms (min {min(dt) * 1000:.0f}, max {max(dt) * 1000:.0f})")
    print(f"ratio detect / floor: {d / f:.2f} (target <= 1.5) over {len(dt)} alternating runs", flush=True)
    left = lambda: a.budget - (time.perf_counter() - t_start)  # noqa: E731
    if left() > 2 * d + 1:
        mods = subprocess.run([a.python, "-c", LIST_MODULES], capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
        names = mods.stdout.split()
        print(f"app modules imported by detect: {len(names)}: {' '.join(names)}", flush=True)
    if left() > 6 * d + 1:
        print(split(a.python, env, runs=max(1, min(5, int((left() - 2 * d) / max(d, 1e-3)) - 1))), flush=True)
    if left() > 2 * d:
        print("slowest top-level imports (cumulative ms): "
              + ", ".join(f"{m.strip()} {ms:.0f}" for ms, m in slowest_imports(detect, env)))
    print(f"({time.perf_counter() - t_start:.1f} s in all)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
