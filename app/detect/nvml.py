"""NVML through nvidia-ml-py (`pynvml`).

`read_nvml()` asks the live library and returns the *recorded form* below, which is also
what a snapshot stores under "nvml"; `parse_nvml()` turns that form into Gpu values. So live
detection and snapshot replay share one parser.

Recorded form:
    {"driver_version": "580.159.04", "cuda_driver_version": 13000, "nvml_version": "13.580.159.04",
     "error": null,                      # or "NVML_ERROR_DRIVER_NOT_LOADED: Driver Not Loaded"
     "devices": [{"index": 0, "name": "NVIDIA H200", "pci_bus_id": "00000000:00:06.0",
                  "pci_device_id": 590680286, "pci_subsystem_id": 415174878, "uuid": "GPU-...",
                  "compute_capability": [9, 0], "memory_total_bytes": 150754820096,
                  "pcie_gen_current": 5, "pcie_gen_max": 5, "pcie_width_current": 16, "pcie_width_max": 16,
                  "architecture": 9, "memory_bus_width_bits": 6016, "memory_clock_max_mhz": 3201,
                  "sm_clock_max_mhz": 1980, "power_limit_mw": 700000, "power_default_limit_mw": 700000,
                  "compute_mode": 0, "persistence_mode": 1, "ecc_current": 1, "serial": "..."}]}
A field NVML could not answer is absent (or null). Never raises.
"""
from __future__ import annotations

from typing import Any, Callable, Optional


def _call(fn: Callable, *args: Any) -> Any:
    try:
        v = fn(*args)
    except Exception:  # NVMLError_NotSupported, NoPermission, GpuIsLost, ... : field unknown
        return None
    if isinstance(v, bytes):
        v = v.decode("utf-8", errors="replace")
    return v


def read_nvml() -> Optional[dict[str, Any]]:
    """Query NVML on this machine. None when nvidia-ml-py is not installed at all;
    {"error": "..."} when the library or driver is missing or NVML init fails."""
    try:
        import pynvml as n
    except Exception:
        return None
    try:
        n.nvmlInit()
    except Exception as e:  # NVMLError_LibraryNotFound, DriverNotLoaded, ...
        return {"error": f"{type(e).__name__}: {e}", "devices": []}
    try:
        out: dict[str, Any] = {
            "driver_version": _call(n.nvmlSystemGetDriverVersion),
            "cuda_driver_version": _call(n.nvmlSystemGetCudaDriverVersion),
            "nvml_version": _call(n.nvmlSystemGetNVMLVersion),
            "error": None,
            "devices": [],
        }
        count = _call(n.nvmlDeviceGetCount) or 0
        for i in range(count):
            h = _call(n.nvmlDeviceGetHandleByIndex, i)
            if h is None:
                out["devices"].append({"index": i, "error": "handle unavailable (GPU lost or no permission)"})
                continue
            pci = _call(n.nvmlDeviceGetPciInfo, h)
            mem = _call(n.nvmlDeviceGetMemoryInfo, h)
            cc = _call(n.nvmlDeviceGetCudaComputeCapability, h)
            ecc = _call(n.nvmlDeviceGetEccMode, h)
            bus_id = getattr(pci, "busId", None) if pci is not None else None
            if isinstance(bus_id, bytes):
                bus_id = bus_id.decode("ascii", errors="replace")
            dev = {
                "index": i,
                "name": _call(n.nvmlDeviceGetName, h),
                "pci_bus_id": bus_id,
                "pci_device_id": getattr(pci, "pciDeviceId", None) if pci is not None else None,
                "pci_subsystem_id": getattr(pci, "pciSubSystemId", None) if pci is not None else None,
                "uuid": _call(n.nvmlDeviceGetUUID, h),
                "serial": _call(n.nvmlDeviceGetSerial, h),
                "compute_capability": list(cc) if cc else None,
                "memory_total_bytes": getattr(mem, "total", None) if mem is not None else None,
                "pcie_gen_current": _call(n.nvmlDeviceGetCurrPcieLinkGeneration, h),
                "pcie_gen_max": _call(n.nvmlDeviceGetMaxPcieLinkGeneration, h),
                "pcie_width_current": _call(n.nvmlDeviceGetCurrPcieLinkWidth, h),
                "pcie_width_max": _call(n.nvmlDeviceGetMaxPcieLinkWidth, h),
                "architecture": _call(n.nvmlDeviceGetArchitecture, h),
                "memory_bus_width_bits": _call(n.nvmlDeviceGetMemoryBusWidth, h),
                "memory_clock_max_mhz": _call(n.nvmlDeviceGetMaxClockInfo, h, n.NVML_CLOCK_MEM),
                "sm_clock_max_mhz": _call(n.nvmlDeviceGetMaxClockInfo, h, n.NVML_CLOCK_SM),
                "power_limit_mw": _call(n.nvmlDeviceGetEnforcedPowerLimit, h),
                "power_default_limit_mw": _call(n.nvmlDeviceGetPowerManagementDefaultLimit, h),
                "compute_mode": _call(n.nvmlDeviceGetComputeMode, h),
                "persistence_mode": _call(n.nvmlDeviceGetPersistenceMode, h),
                "ecc_current": ecc[0] if isinstance(ecc, (list, tuple)) and ecc else None,
            }
            out["devices"].append(dev)
        return out
    finally:
        try:
            n.nvmlShutdown()
        except Exception:
            pass
