"""What the NVML sampler costs: process CPU time over wall time while it samples and the main
thread sleeps (measured after start-up, so NVML's one-off init is reported apart), and the
sampler thread's own figure. Target: under 1% of one core at 10 Hz.

    python3 bench/bench_verify_sampler.py [--seconds 10] [--interval 0.1] [--pcie auto|counters|throughput|off] [--profile]

--profile also prints the CPU cost of each NVML call the sampler makes (microseconds per call).
Without NVML (no driver, no nvidia-ml-py) it says so and measures nothing. `--nvml-lib PATH` loads that
library as nvidia-ml-py's libnvidia-ml (tests/fixtures/verify/fake_libnvidia_ml.c built with
`cc -shared -fPIC -pthread`): the sampler's own Python cost on a machine without a GPU, every call
through the real pynvml (the driver's own work is not in it: on a GPU the H200 figures hold).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from app.verify.sampler import FI_PCIE_RX_BYTES, FI_PCIE_TX_BYTES, Sampler  # noqa: E402


def profile(reps: int = 200) -> dict:
    import pynvml as n

    n.nvmlInit()
    h = n.nvmlDeviceGetHandleByIndex(0)
    calls = {
        "utilization": lambda: n.nvmlDeviceGetUtilizationRates(h),
        "memory_info": lambda: n.nvmlDeviceGetMemoryInfo(h),
        "power_usage": lambda: n.nvmlDeviceGetPowerUsage(h),
        "power_limit": lambda: n.nvmlDeviceGetEnforcedPowerLimit(h),
        "clock_sm": lambda: n.nvmlDeviceGetClockInfo(h, n.NVML_CLOCK_SM),
        "clock_mem": lambda: n.nvmlDeviceGetClockInfo(h, n.NVML_CLOCK_MEM),
        "temperature": lambda: n.nvmlDeviceGetTemperature(h, n.NVML_TEMPERATURE_GPU),
        "clock_event_reasons": lambda: n.nvmlDeviceGetCurrentClocksEventReasons(h),
        "pcie_gen": lambda: n.nvmlDeviceGetCurrPcieLinkGeneration(h),
        "pcie_width": lambda: n.nvmlDeviceGetCurrPcieLinkWidth(h),
        "pcie_counters_fv": lambda: n.nvmlDeviceGetFieldValues(h, [FI_PCIE_RX_BYTES, FI_PCIE_TX_BYTES]),
        "pcie_throughput_rx": lambda: n.nvmlDeviceGetPcieThroughput(h, n.NVML_PCIE_UTIL_RX_BYTES),
    }
    out = {}
    for name, fn in calls.items():
        r = reps if not name.startswith("pcie_throughput") else 20
        try:
            fn()
        except Exception as e:
            out[name] = f"error {type(e).__name__}"
            continue
        c0, w0 = time.thread_time(), time.perf_counter()
        for _ in range(r):
            fn()
        out[name] = {"cpu_us": round((time.thread_time() - c0) / r * 1e6, 1), "wall_us": round((time.perf_counter() - w0) / r * 1e6, 1)}
    try:
        v = n.nvmlDeviceGetFieldValues(h, [FI_PCIE_RX_BYTES, FI_PCIE_TX_BYTES])
        out["pcie_counters_value"] = [(x.nvmlReturn, int(x.value.ullVal)) for x in v]
    except Exception as e:
        out["pcie_counters_value"] = str(e)
    n.nvmlShutdown()
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--interval", type=float, default=0.1)
    ap.add_argument("--pcie", default="auto")
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--burn", action="store_true", help="as in a burn-in: health counters every tick, the Xid watcher")
    ap.add_argument("--health-every", type=float, default=0.0, help="with --burn: health counters every this many s (0: every tick)")
    ap.add_argument("--nvml-lib", default=None, help="a stand-in libnvidia-ml to load into nvidia-ml-py (no GPU here)")
    args = ap.parse_args()
    if args.nvml_lib:
        import ctypes

        import pynvml

        pynvml.nvmlLib = ctypes.CDLL(os.path.abspath(args.nvml_lib))
    if args.profile:
        print(json.dumps({"bench": "nvml_call_cost", **profile()}))
    got = []
    s = Sampler(on_sample=got.append, interval_s=args.interval, pcie=args.pcie, health=args.burn,
                health_every_s=args.health_every, on_xid=(lambda *a: None) if args.burn else None)
    c_init, w_init = time.process_time(), time.monotonic()
    if not s.start():
        print(json.dumps({"bench": "sampler", "ran": False, "reason": s.reason}))
        return 0
    init_ms = (time.process_time() - c_init) * 1000
    cpu0, wall0 = time.process_time(), time.monotonic()
    time.sleep(args.seconds)
    cpu, wall = time.process_time() - cpu0, time.monotonic() - wall0
    xid = (s.xid.source, s.xid.note) if s.xid else (None, None)
    stats = s.stop()
    gpus = len({x.gpu_index for x in got})
    out = {"bench": "sampler", "nvml_lib": args.nvml_lib or "the driver's", "interval_s": args.interval, "pcie": args.pcie, "burn": args.burn, "health_every_s": args.health_every,
           "xid_source": xid[0], "xid_note": xid[1], "ran": stats.ran, "reason": stats.reason, "error": stats.error,
           "seconds": round(wall, 2), "gpus": gpus, "samples": len(got),
           "rate_hz": stats.rate_hz, "process_cpu_pct_of_core": round(100 * cpu / wall, 3),
           "thread_cpu_pct_of_core": stats.cpu_pct_of_core, "init_cpu_ms": round(init_ms, 1),
           "init_wall_ms": round((wall0 - w_init) * 1000, 1), "pcie_every_s": stats.pcie_every_s,
           "last": got[-1].to_json() if got else None}
    print(json.dumps(out))
    return 0 if stats.ran else 1  # a sampler that took no sample is no figure of its cost


if __name__ == "__main__":
    raise SystemExit(main())
