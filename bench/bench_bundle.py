"""Issue 10: size of the Linux bundle and time to --version and to the first window.

    python bench/bench_bundle.py [--no-build] [--runs N]
"""
import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "installers"))
import smoke  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--runs", type=int, default=5)
    a = ap.parse_args()
    if not a.no_build:
        t = time.perf_counter()
        smoke.build()
        print(f"build: {time.perf_counter() - t:.1f} s")
    bundle = smoke.readable_copy(smoke.BUNDLE, Path("/tmp/gpu-wizard-bench-bundle"))
    tarballs = sorted((ROOT / "build").glob("gpu-wizard-*-linux-*.tar.gz"))
    print(f"bundle unpacked: {smoke.dir_size_mb(bundle):.0f} MB (target < 250 MB)")
    if tarballs:
        print(f"tarball: {tarballs[-1].stat().st_size / 1e6:.0f} MB ({tarballs[-1].name})")
    exe = bundle / "gpu-wizard"
    v = []
    for _ in range(a.runs):
        t = time.perf_counter()
        subprocess.run([str(exe), "--version"], capture_output=True, check=True)
        v.append(time.perf_counter() - t)
    print(f"--version: median {statistics.median(v) * 1000:.0f} ms over {a.runs} runs")
    w = []
    for _ in range(a.runs):
        s, r = smoke.first_window(exe)
        if r.returncode != 0 or "first window shown" not in r.stdout:
            print("GUI smoke failed:", r.stdout[-500:], r.stderr[-1500:])
            sys.exit(1)
        w.append(s)
        shown = [ln for ln in r.stdout.splitlines() if "first window shown" in ln]
        if shown:
            print(" ", shown[-1])
    print(f"launch to first window shown and closed: median {statistics.median(w) * 1000:.0f} ms over {a.runs} runs")


if __name__ == "__main__":
    main()
