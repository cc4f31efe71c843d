"""Fakes for burn-in tests: an NVML module with pynvml's call shapes whose answers follow a script
(counters that rise, throttle reasons that start, a link that trains down, an Xid event), and a
fake probe: an executable that prints a burn-in's events as the real probe would, then sleeps or ends."""
from __future__ import annotations

import json
import os
import stat
import sys
import threading
import time
from types import SimpleNamespace
from typing import Any, Callable, Optional

from app.verify.health import HEALTH_FIELDS

FIELD_NAMES = {f: n for f, n in HEALTH_FIELDS}


class ScriptedNvml:
    """`state[i]` holds GPU i's current answers; tests change them while the sampler runs. Xid events
    are queued with `xid(i, code)` and come out of nvmlEventSetWait_v2."""

    NVML_CLOCK_SM, NVML_CLOCK_MEM, NVML_TEMPERATURE_GPU = 1, 2, 0
    nvmlEventTypeXidCriticalError = 8

    def __init__(self, count: int = 1, events: bool = True):
        self.count, self.events = count, events
        self.lock = threading.Lock()
        self.queue: list[tuple[int, int]] = []
        self.state = [dict(util=100, power=699000, limit=700000, sm=1980, mem=3201, temp=55, reasons=0x4, gen=5, width=16,
                           ecc_corrected=0, ecc_uncorrected=0, retired_sbe=None, retired_dbe=None, retired_pending=None,
                           remapped_cor=0, remapped_unc=0, remap_pending=0, remap_failure=0, pcie_replay=0, fan=None)
                      for _ in range(count)]

    def set(self, i: int, **kw: Any) -> None:
        with self.lock:
            self.state[i].update(kw)

    def xid(self, i: int, code: int) -> None:
        with self.lock:
            self.queue.append((i, code))

    def nvmlInit(self):
        pass

    def nvmlShutdown(self):
        pass

    def nvmlDeviceGetCount(self):
        return self.count

    def nvmlDeviceGetHandleByIndex(self, i):
        return i

    def _s(self, h):
        with self.lock:
            return dict(self.state[h])

    def nvmlDeviceGetUtilizationRates(self, h):
        return SimpleNamespace(gpu=self._s(h)["util"], memory=30)

    def nvmlDeviceGetMemoryInfo(self, h):
        return SimpleNamespace(used=100 * 1024 * 1048576, total=143771 * 1048576, free=0)

    def nvmlDeviceGetPowerUsage(self, h):
        return self._s(h)["power"]

    def nvmlDeviceGetEnforcedPowerLimit(self, h):
        return self._s(h)["limit"]

    def nvmlDeviceGetCurrentClocksEventReasons(self, h):
        return self._s(h)["reasons"]

    def nvmlDeviceGetClockInfo(self, h, which):
        return self._s(h)["sm"] if which == 1 else self._s(h)["mem"]

    def nvmlDeviceGetTemperature(self, h, which):
        return self._s(h)["temp"]

    def nvmlDeviceGetCurrPcieLinkGeneration(self, h):
        return self._s(h)["gen"]

    def nvmlDeviceGetCurrPcieLinkWidth(self, h):
        return self._s(h)["width"]

    def nvmlDeviceGetTemperatureThreshold(self, h, which):
        return {1: 89, 0: 95, 3: 87}[which]

    def nvmlDeviceGetFanSpeed(self, h):
        v = self._s(h)["fan"]
        if v is None:
            raise RuntimeError("NVML_ERROR_NOT_SUPPORTED")
        return v

    def nvmlDeviceGetFieldValues(self, h, ids):
        st = self._s(h)
        out = []
        for f in ids:
            name = FIELD_NAMES.get(f)
            v = st.get(name) if name else 0
            out.append(SimpleNamespace(nvmlReturn=0 if v is not None else 3, value=SimpleNamespace(ullVal=int(v or 0))))
        return out

    def nvmlDeviceGetPciInfo(self, h):
        return SimpleNamespace(busId=f"00000000:{0x18 + h:02X}:00.0".encode())

    def nvmlEventSetCreate(self):
        if not self.events:
            raise RuntimeError("NVML_ERROR_NOT_SUPPORTED")
        return "set"

    def nvmlDeviceRegisterEvents(self, h, kind, es):
        pass

    def nvmlEventSetFree(self, es):
        pass

    def nvmlEventSetWait_v2(self, es, ms):
        deadline = time.monotonic() + ms / 1000
        while time.monotonic() < deadline:
            with self.lock:
                if self.queue:
                    i, code = self.queue.pop(0)
                    return SimpleNamespace(eventType=8, eventData=code, device=i)
            time.sleep(0.01)
        raise RuntimeError("NVML_ERROR_TIMEOUT")


def phase_events(phases: list[tuple[str, float]], gpus: int = 1, dtypes=("bf16", "fp32"), tflops: float = 650.0,
                 mismatch_in: Optional[str] = None) -> list[tuple[float, dict]]:
    """(seconds to wait before, event) of a plain burn-in: plan, each phase with rate events and its
    results, optionally a mismatch in one phase."""
    out: list[tuple[float, dict]] = [(0.0, {"event": "burn", "kind": "plan", "phases": [{"phase": p, "seconds": s} for p, s in phases],
                                            "gpus": list(range(gpus)), "dtypes": list(dtypes)})]
    for p, s in phases:
        out.append((0.0, {"event": "burn", "kind": "phase", "phase": p, "seconds": s}))
        steps = max(1, int(s / 0.1))
        for k in range(steps):
            for g in range(gpus):
                if p.startswith("matmul") or p == "membw":
                    out.append((0.1 / gpus if g == 0 else 0.0, {"event": "burn", "kind": "rate", "gpu": g, "phase": p,
                                                               "value": tflops if p.startswith("matmul") else 4000.0,
                                                               "unit": "tflops" if p.startswith("matmul") else "gbps",
                                                               "series": p.split("_")[-1] if p.startswith("matmul") else "triad"}))
                else:
                    out.append((0.1 / gpus if g == 0 else 0.0, {"event": "burn", "kind": "memtest", "gpu": g, "passes": k + 1,
                                                               "bytes": 130 << 30, "errors": 0, "pattern": "0xaaaaaaaa"}))
            if p == mismatch_in and k == steps // 2:
                out.append((0.0, {"event": "burn", "kind": "mismatch", "gpu": 0, "phase": p, "count": 12, "checks": 40}))
        for g in range(gpus):
            if p == "memtest":
                data = {"phase": p, "unit": "gbps", "bytes": 130 << 30, "share_of_total": 0.93, "passes": 12, "mismatches": 0, "checks": 12}
            elif p == "membw":
                data = {"phase": p, "unit": "gbps", "value": 4000.0, "checks": 30, "dtype": "triad"}
            else:
                data = {"phase": p, "unit": "tflops", "value": tflops, "checks": 50, "dtype": p.split("_")[-1],
                        "mismatches": 12 if p == mismatch_in and g == 0 else 0}
            out.append((0.0, {"event": "result", "kind": "burn_phase", "gpu": g, "data": data}))
    out.append((0.0, {"event": "burn", "kind": "phase", "phase": None, "seconds": 0}))
    return out


def fake_probe(tmp, events: list[tuple[float, dict]], gpus: int = 1, hang: bool = False) -> str:
    """An executable standing for the target Python: it ignores the probe's path and arguments and
    prints the head of a verify run (torch, devices), then `events` with their delays, then "done"
    (or, with `hang`, sleeps: for cancel tests)."""
    head = [{"event": "hello", "probe": 1},
            {"event": "result", "kind": "torch", "data": {"installed": True, "version": "2.11.0+cu130", "cuda": "13.0",
                                                          "available": True, "device_count": gpus, "arch_list": ["sm_90"]}}]
    head += [{"event": "result", "kind": "device", "gpu": g, "data": {"index": g, "name": "NVIDIA H200", "compute_capability": "9.0",
                                                                     "sm_count": 132, "memory_total_mib": 143771}} for g in range(gpus)]
    script = [(0.0, e) for e in head] + list(events)
    data = os.path.join(str(tmp), "events.json")
    with open(data, "w") as f:
        json.dump(script, f)
    path = os.path.join(str(tmp), "python")
    with open(path, "w") as f:
        f.write(f"#!{sys.executable}\nimport json, sys, time\n"
                f"for d, e in json.load(open({data!r})):\n    time.sleep(d)\n    print(json.dumps(e), flush=True)\n"
                + ("time.sleep(600)\n" if hang else "print(json.dumps({'event': 'done', 'seconds': 1}), flush=True)\n"))
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
    return path


H200_NVML = {"driver_version": "580.159.04", "cuda_driver_version": 13000, "devices": [
    {"index": i, "name": "NVIDIA H200", "pcie_gen_max": 5, "pcie_width_max": 16, "power_limit_mw": 700000,
     "power_default_limit_mw": 700000, "sm_clock_max_mhz": 1980, "memory_clock_max_mhz": 3201, "memory_bus_width_bits": 6016,
     "compute_capability": [9, 0]} for i in range(2)]}


def nvml_facts(gpus: int = 1) -> dict:
    return {**H200_NVML, "devices": H200_NVML["devices"][:gpus]}


def when(cond: Callable[[], bool], timeout: float = 10.0) -> bool:
    t = time.monotonic() + timeout
    while time.monotonic() < t:
        if cond():
            return True
        time.sleep(0.02)
    return False


FAKE_LIB_C = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "verify", "fake_libnvidia_ml.c")


class FakeLib:
    """tests/fixtures/verify/fake_libnvidia_ml.c built here and loaded as nvidia-ml-py's libnvidia-ml: every
    NVML call of the session goes through the real pynvml (its ctypes handles, structures, errors) into it.
    `set(i, key=value)` and `xid(i, code)` script it while a run goes on (keys: the C struct's fields)."""

    def __init__(self, path: str):
        import ctypes

        import pynvml

        self.pynvml, self.path = pynvml, path
        self.lib = ctypes.CDLL(path)
        self.lib.fake_nvml_set.argtypes = [ctypes.c_uint, ctypes.c_char_p, ctypes.c_longlong]
        self.lib.fake_nvml_xid.argtypes = [ctypes.c_uint, ctypes.c_longlong]

    def __enter__(self) -> "FakeLib":
        self._saved = self.pynvml.nvmlLib
        self.pynvml.nvmlLib = self.lib
        self.pynvml._nvmlGetFunctionPointer_cache.clear()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.pynvml.nvmlLib = self._saved
        self.pynvml._nvmlGetFunctionPointer_cache.clear()

    def configure(self, count: int = 1, events: bool = True) -> None:
        assert self.lib.fake_nvml_configure(count, int(events)) == 0

    def set(self, i: int, **kw: int) -> None:
        for k, v in kw.items():
            assert self.lib.fake_nvml_set(i, k.encode(), int(v)) == 0, k

    def xid(self, i: int, code: int) -> None:
        self.lib.fake_nvml_xid(i, code)

    def calls(self) -> int:
        return int(self.lib.fake_nvml_calls())


def build_fake_lib(tmp) -> Optional[str]:
    """The stand-in libnvidia-ml built into `tmp` (None without a C compiler)."""
    import shutil
    import subprocess

    cc = shutil.which("cc") or shutil.which("gcc")
    if not cc:
        return None
    out = os.path.join(str(tmp), "libnvidia-ml.so.1")
    r = subprocess.run([cc, "-shared", "-fPIC", "-pthread", "-O1", "-o", out, FAKE_LIB_C], capture_output=True, text=True)
    return out if r.returncode == 0 else None
