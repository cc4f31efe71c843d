"""What the burn-in's watchers can read on this machine, and what each NVML call costs (CPU time per
call): the health field values (ECC, retired pages, row remapping, PCIe replays), the single-purpose
calls they stand for, the temperature thresholds, the fan, NVML's Xid event API (register and a
timed wait), the kernel log, NVLink and the topology between GPUs. One JSON object on stdout.

    python3 bench/bench_burnin_nvml.py [--reps 200]
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from app.verify.health import HEALTH_FIELDS, HealthReader, check_field_ids  # noqa: E402
from app.verify.sampler import FI_PCIE_RX_BYTES, FI_PCIE_TX_BYTES  # noqa: E402


def cost(fn, reps):
    try:
        fn()
    except Exception as e:
        return f"error {type(e).__name__}: {str(e)[:120]}"
    c0, w0 = time.thread_time(), time.perf_counter()
    for _ in range(reps):
        fn()
    return {"cpu_us": round((time.thread_time() - c0) / reps * 1e6, 1), "wall_us": round((time.perf_counter() - w0) / reps * 1e6, 1)}


def answer(fn):
    try:
        v = fn()
    except Exception as e:
        return f"error {type(e).__name__}: {str(e)[:160]}"
    if hasattr(v, "_fields_"):
        return {k: (getattr(v, k) if not isinstance(getattr(v, k), bytes) else getattr(v, k).decode()) for k, _t in v._fields_}
    return v if isinstance(v, (int, float, str, list, tuple, type(None))) else repr(v)[:200]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=200)
    args = ap.parse_args()
    import pynvml as n

    n.nvmlInit()
    out: dict = {"bench": "burnin_nvml", "driver": answer(n.nvmlSystemGetDriverVersion), "count": n.nvmlDeviceGetCount(),
                 "field_id_mismatches": check_field_ids(n)}
    h = n.nvmlDeviceGetHandleByIndex(0)
    ids = [f for f, _ in HEALTH_FIELDS]
    vals = n.nvmlDeviceGetFieldValues(h, ids)
    out["health_fields"] = {name: {"ret": v.nvmlReturn, "value": int(v.value.ullVal)} for (_f, name), v in zip(HEALTH_FIELDS, vals)}
    out["health_read"] = HealthReader(n).read(0, h)
    out["thresholds"] = HealthReader(n).thresholds(h)
    out["answers"] = {
        "ecc_mode": answer(lambda: n.nvmlDeviceGetEccMode(h)),
        "total_ecc_corrected_volatile": answer(lambda: n.nvmlDeviceGetTotalEccErrors(h, 0, 0)),
        "remapped_rows": answer(lambda: n.nvmlDeviceGetRemappedRows(h)),
        "retired_pages_dbe": answer(lambda: n.nvmlDeviceGetRetiredPages(h, 1)),
        "pcie_replay": answer(lambda: n.nvmlDeviceGetPcieReplayCounter(h)),
        "fan": answer(lambda: n.nvmlDeviceGetFanSpeed(h)),
        "supported_events": answer(lambda: n.nvmlDeviceGetSupportedEventTypes(h)),
        "temp_mem_max": answer(lambda: n.nvmlDeviceGetTemperatureThreshold(h, 2)),
        "nvlink0_state": answer(lambda: n.nvmlDeviceGetNvLinkState(h, 0)),
        "pci_bus": answer(lambda: n.nvmlDeviceGetPciInfo(h).busId),
    }
    try:
        es = n.nvmlEventSetCreate()
        n.nvmlDeviceRegisterEvents(h, n.nvmlEventTypeXidCriticalError, es)
        t = time.perf_counter()
        try:
            n.nvmlEventSetWait_v2(es, 200)
            out["xid_events"] = "registered; an event came (!)"
        except Exception as e:
            out["xid_events"] = f"registered; wait 200 ms -> {type(e).__name__} after {time.perf_counter() - t:.3f} s"
        c0 = time.thread_time()
        for _ in range(5):
            try:
                n.nvmlEventSetWait_v2(es, 100)
            except Exception:
                pass
        out["xid_wait_cpu_us_per_100ms"] = round((time.thread_time() - c0) / 5 * 1e6, 1)
        n.nvmlEventSetFree(es)
    except Exception as e:
        out["xid_events"] = f"error {type(e).__name__}: {e}"
    try:
        fd = os.open("/dev/kmsg", os.O_RDONLY | os.O_NONBLOCK)
        os.lseek(fd, 0, os.SEEK_END)
        os.close(fd)
        out["kmsg"] = "readable"
    except OSError as e:
        out["kmsg"] = f"{e.strerror}"
    r = args.reps
    out["cost"] = {
        "fv_health": cost(lambda: n.nvmlDeviceGetFieldValues(h, ids), r),
        "fv_health_and_pcie": cost(lambda: n.nvmlDeviceGetFieldValues(h, ids + [FI_PCIE_RX_BYTES, FI_PCIE_TX_BYTES]), r),
        "fv_pcie": cost(lambda: n.nvmlDeviceGetFieldValues(h, [FI_PCIE_RX_BYTES, FI_PCIE_TX_BYTES]), r),
        "fv_ecc_only": cost(lambda: n.nvmlDeviceGetFieldValues(h, ids[:2]), r),
        "fv_replay_only": cost(lambda: n.nvmlDeviceGetFieldValues(h, [94]), r),
        "fv_remap_only": cost(lambda: n.nvmlDeviceGetFieldValues(h, ids[5:9]), r),
        "total_ecc_x2": cost(lambda: (n.nvmlDeviceGetTotalEccErrors(h, 0, 0), n.nvmlDeviceGetTotalEccErrors(h, 1, 0)), r),
        "remapped_rows": cost(lambda: n.nvmlDeviceGetRemappedRows(h), r),
        "pcie_replay": cost(lambda: n.nvmlDeviceGetPcieReplayCounter(h), r),
        "fan": cost(lambda: n.nvmlDeviceGetFanSpeed(h), r),
    }
    if out["count"] > 1:
        h1 = n.nvmlDeviceGetHandleByIndex(1)
        out["topology_0_1"] = answer(lambda: n.nvmlDeviceGetTopologyCommonAncestor(h, h1))
        out["p2p_status_0_1"] = answer(lambda: n.nvmlDeviceGetP2PStatus(h, h1, n.NVML_P2P_CAPS_INDEX_NVLINK))
        links = []
        for link in range(18):
            links.append(answer(lambda link=link: (n.nvmlDeviceGetNvLinkState(h, link), n.nvmlDeviceGetNvLinkRemoteDeviceType(h, link))))
        out["nvlinks"] = links
    n.nvmlShutdown()
    print(json.dumps(out, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
