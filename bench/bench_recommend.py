"""Print the in-process time of recommend() (target: under 20 ms per call) and of loading the
compat data, over a spread of machines (the same kinds as tests/unit/test_recommend_machines.py).

    .venv/bin/python bench/bench_recommend.py [--repeat N]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.choices import Choices  # noqa: E402
from app.compat import db as dbmod  # noqa: E402
from app.compat import load_db  # noqa: E402
from app.facts import DriverInfo, Facts, Gpu, OsInfo, PythonEnv  # noqa: E402
from app.recommend import recommend  # noqa: E402


def machine(ccs, driver, os_id="ubuntu", ver="24.04", py="3.12", platform="linux", wsl=0):
    return Facts(os=OsInfo(platform=platform, id=os_id, version_id=ver, arch="x86_64", wsl=wsl),
                 driver=DriverInfo(state="ok" if driver else "not_installed", version=driver),
                 gpus=tuple(Gpu(index=i, name=f"GPU {i}", compute_capability=c) for i, c in enumerate(ccs)),
                 python=PythonEnv(path="/usr/bin/python3", version=py))


MACHINES = {
    "h200_r580": (machine(["9.0"], "580.159.04"), Choices()),
    "8x_h100_r535": (machine(["9.0"] * 8, "535.129.03", ver="22.04"), Choices()),
    "rtx5090_r570_upgrade": (machine(["12.0"], "570.133.07"), Choices()),
    "gtx1080ti_no_driver": (machine(["6.1"], None), Choices()),
    "k80_r470": (machine(["3.7"], "470.239.06", py="3.10"), Choices()),
    "mixed_pascal_ampere": (machine(["6.1", "8.6"], "580.95.05"), Choices()),
    "wsl2_rtx4070": (machine(["8.9"], "566.36", ver="22.04", wsl=2), Choices(want_toolkit=True)),
    "windows_rtx3060": (machine(["8.6"], "560.94", os_id="windows", platform="windows"), Choices()),
    "no_gpu": (machine([], None), Choices()),
    "refused_choice": (machine(["6.1"], "535.183.01"), Choices(torch_variant="cu130")),
}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=200)
    a = ap.parse_args()
    dbmod._CACHE.clear()
    t = time.perf_counter()
    db = load_db(use_user_bundle=False)
    cold = (time.perf_counter() - t) * 1000
    t = time.perf_counter()
    load_db(use_user_bundle=False)
    warm = (time.perf_counter() - t) * 1000
    print(f"load_db: cold {cold:.1f} ms, cached {warm:.3f} ms ({len(db.torch_variants)} wheel rows, {len(db.cuda_releases)} CUDA rows)")
    worst = 0.0
    all_times: list[float] = []
    print(f"{'machine':26} {'median ms':>10} {'p95 ms':>8} {'max ms':>8}  result")
    for name, (facts, choices) in MACHINES.items():
        rec = recommend(facts, db, choices)  # warm-up
        times = []
        for _ in range(a.repeat):
            t = time.perf_counter()
            recommend(facts, db, choices)
            times.append((time.perf_counter() - t) * 1000)
        times.sort()
        all_times += times
        p95 = times[int(len(times) * 0.95) - 1]
        worst = max(worst, times[-1])
        print(f"{name:26} {statistics.median(times):10.3f} {p95:8.3f} {times[-1]:8.3f}  "
              f"{rec.pytorch.version}+{rec.pytorch.index} driver={rec.driver.action}")
    all_times.sort()
    p95 = all_times[int(len(all_times) * 0.95) - 1]
    p99 = all_times[int(len(all_times) * 0.99) - 1]
    print(f"all calls: median {statistics.median(all_times):.3f} ms, p95 {p95:.3f} ms, p99 {p99:.3f} ms, "
          f"worst {worst:.2f} ms (a shared machine's scheduler noise)")
    print(f"target p95 < 20 ms: {'OK' if p95 < 20 else 'SLOW'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
