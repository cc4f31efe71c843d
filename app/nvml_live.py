"""This machine's NVML read, in a module of its own so that it can start first: it imports only `sys`, `threading`
and `typing` (all loaded by any Python start), and nvidia-ml-py inside the read. app/cli.py starts the read
before it imports the rest of the program, so the driver's init (tens of milliseconds outside the
interpreter lock) overlaps those imports (issue 24: detect near its floor). app.system re-exports both
functions: it is still the one layer that touches the machine, and this module is part of it."""
from __future__ import annotations

import sys
import threading
from typing import Any, Callable, Optional

__all__ = ["read_nvml", "start_nvml_early"]


def _nvml_call(fn: Callable, *args: Any) -> Any:
    try:
        v = fn(*args)
    except Exception:  # NVMLError_NotSupported, NoPermission, GpuIsLost, ... : field unknown
        return None
    if isinstance(v, bytes):
        v = v.decode("utf-8", errors="replace")
    return v


def start_nvml_early() -> Callable[[], Optional[dict[str, Any]]]:
    """Begin this machine's NVML read now, in a daemon thread, and return the reader that hands over its answer
    (once; a later call reads afresh). For a command about to detect this machine (app.cli gives the reader to
    its LiveSystem).

    nvidia-ml-py is imported first, here: 15 ms on the H200, all interpreter work, and twice that beside the
    program's imports. The driver's init and the thirty queries (10-13 and 11-14 ms on the H200, mostly outside
    the interpreter lock: the largest are the memory clock's maximum, 3-10 ms, ECC mode, the PCIe generation and
    the power limit, about 2 ms each) then run in the thread, beside the rest of the program's imports and probes;
    NVML's shutdown (3-4 ms) comes after the answer is handed over. Each ctypes call gives
    the lock up and waits to get it back, up to a whole switch interval (5 ms) while another thread imports:
    so the interval is 1 ms until the reader takes the answer, and the reader puts it back (a process that
    never asks, e.g. a usage error, is ending anyway)."""
    try:  # nvidia-ml-py's import is all interpreter work: alone it is done sooner than beside the program's imports
        import pynvml  # noqa: F401
    except Exception:  # no nvidia-ml-py: the thread reads NVML through app/nvml_ctypes.py
        pass
    box: dict[str, Any] = {}
    interval = sys.getswitchinterval()
    sys.setswitchinterval(min(interval, 0.001))

    ready = threading.Event()

    def work() -> None:
        n: Any = None
        try:
            n = _open()
            box["result"] = n if isinstance(n, dict) else _query(n)
        except Exception as e:  # _open and _query keep their errors; this is the last line
            box["result"] = {"error": f"{type(e).__name__}: {e}", "devices": []}
        finally:
            ready.set()  # the answer first: NVML's shutdown (3-4 ms on the H200) need not delay the caller
            if n is not None and not isinstance(n, dict):
                _shutdown(n)

    t = threading.Thread(target=work, name="nvml-early", daemon=True)
    t.start()

    def reader() -> Optional[dict[str, Any]]:
        if box.pop("taken", False):
            return read_nvml()
        ready.wait()
        box["taken"] = True
        if sys.getswitchinterval() == min(interval, 0.001):
            sys.setswitchinterval(interval)
        return box.get("result")

    return reader


def read_nvml() -> Optional[dict[str, Any]]:
    """Query NVML on this machine (pynvml, imported here: it loads libnvidia-ml). Its recorded form is
    app/detect/nvml.py's (what a snapshot stores under "nvml"; parse_nvml reads it). Without nvidia-ml-py, NVML
    is called through ctypes (app/nvml_ctypes.py). {"error": "..."} when the library or driver is missing or
    NVML init fails."""
    n = _open()
    if isinstance(n, dict):
        return n
    try:
        return _query(n)
    finally:
        _shutdown(n)


def _open() -> Any:
    """nvidia-ml-py (else app/nvml_ctypes), initialised: the module to query, or the error's answer."""
    n: Any
    try:
        import pynvml

        n = pynvml
    except Exception:  # no nvidia-ml-py (the fleet's zipapp on a bare Python): the same calls through ctypes
        from app import nvml_ctypes

        n = nvml_ctypes
    try:
        n.nvmlInit()
    except Exception as e:  # NVMLError_LibraryNotFound, DriverNotLoaded, ...
        return {"error": f"{type(e).__name__}: {e}", "devices": []}
    return n


def _shutdown(n: Any) -> None:
    try:
        n.nvmlShutdown()
    except Exception:  # NVML already gone: nothing to release
        pass


def _query(n: Any) -> dict[str, Any]:
    """Every field detection reads, from an initialised NVML (the caller shuts it down)."""
    out: dict[str, Any] = {
        "driver_version": _nvml_call(n.nvmlSystemGetDriverVersion),
        "cuda_driver_version": _nvml_call(n.nvmlSystemGetCudaDriverVersion),
        "nvml_version": _nvml_call(n.nvmlSystemGetNVMLVersion),
        "error": None,
        "devices": [],
    }
    count = _nvml_call(n.nvmlDeviceGetCount) or 0
    for i in range(count):
        h = _nvml_call(n.nvmlDeviceGetHandleByIndex, i)
        if h is None:
            out["devices"].append({"index": i, "error": "handle unavailable (GPU lost or no permission)"})
            continue
        pci = _nvml_call(n.nvmlDeviceGetPciInfo, h)
        mem = _nvml_call(n.nvmlDeviceGetMemoryInfo, h)
        cc = _nvml_call(n.nvmlDeviceGetCudaComputeCapability, h)
        ecc = _nvml_call(n.nvmlDeviceGetEccMode, h)
        bus_id = getattr(pci, "busId", None) if pci is not None else None
        if isinstance(bus_id, bytes):
            bus_id = bus_id.decode("ascii", errors="replace")
        dev = {
            "index": i,
            "name": _nvml_call(n.nvmlDeviceGetName, h),
            "pci_bus_id": bus_id,
            "pci_device_id": getattr(pci, "pciDeviceId", None) if pci is not None else None,
            "pci_subsystem_id": getattr(pci, "pciSubSystemId", None) if pci is not None else None,
            "uuid": _nvml_call(n.nvmlDeviceGetUUID, h),
            "serial": _nvml_call(n.nvmlDeviceGetSerial, h),
            "compute_capability": list(cc) if cc else None,
            "memory_total_bytes": getattr(mem, "total", None) if mem is not None else None,
            "pcie_gen_current": _nvml_call(n.nvmlDeviceGetCurrPcieLinkGeneration, h),
            "pcie_gen_max": _nvml_call(n.nvmlDeviceGetMaxPcieLinkGeneration, h),
            "pcie_width_current": _nvml_call(n.nvmlDeviceGetCurrPcieLinkWidth, h),
            "pcie_width_max": _nvml_call(n.nvmlDeviceGetMaxPcieLinkWidth, h),
            "architecture": _nvml_call(n.nvmlDeviceGetArchitecture, h),
            "memory_bus_width_bits": _nvml_call(n.nvmlDeviceGetMemoryBusWidth, h),
            "memory_clock_max_mhz": _nvml_call(n.nvmlDeviceGetMaxClockInfo, h, n.NVML_CLOCK_MEM),
            "sm_clock_max_mhz": _nvml_call(n.nvmlDeviceGetMaxClockInfo, h, n.NVML_CLOCK_SM),
            "power_limit_mw": _nvml_call(n.nvmlDeviceGetEnforcedPowerLimit, h),
            "power_default_limit_mw": _nvml_call(n.nvmlDeviceGetPowerManagementDefaultLimit, h),
            "compute_mode": _nvml_call(n.nvmlDeviceGetComputeMode, h),
            "persistence_mode": _nvml_call(n.nvmlDeviceGetPersistenceMode, h),
            "ecc_current": ecc[0] if isinstance(ecc, (list, tuple)) and ecc else None,
        }
        out["devices"].append(dev)
    return out
