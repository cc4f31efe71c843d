"""NVML through nvidia-ml-py (`pynvml`).

`read_nvml()` (in app/system.py: the System is the one layer that touches the machine) asks the live
library and returns the *recorded form* below, which is also what a snapshot stores under "nvml";
`parse_nvml()` turns that form into Gpu values. So live detection and snapshot replay share one parser.

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

from typing import Any, Optional

from app.system import read_nvml  # the live query is the System's (the one layer that touches the machine)

__all__ = ["parse_nvml", "read_nvml"]


_COMPUTE_MODES = {0: "Default", 1: "Exclusive_Thread", 2: "Prohibited", 3: "Exclusive_Process"}


def _num(v: Any) -> Optional[int]:
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def parse_nvml(data: Optional[dict[str, Any]]) -> list:
    """The recorded form → Gpu values (empty when NVML failed or saw no GPU). Pure."""
    from app.detect.smi import normalize_bus_id
    from app.facts import Gpu

    if not isinstance(data, dict) or data.get("error"):
        return []
    out = []
    for i, d in enumerate(data.get("devices") or []):
        if not isinstance(d, dict) or d.get("error"):
            continue
        dev_id = _num(d.get("pci_device_id"))
        sub_id = _num(d.get("pci_subsystem_id"))
        cc = d.get("compute_capability")
        mem = _num(d.get("memory_total_bytes"))
        plim, pdef = _num(d.get("power_limit_mw")), _num(d.get("power_default_limit_mw"))
        pm, ecc = _num(d.get("persistence_mode")), _num(d.get("ecc_current"))
        index = _num(d.get("index"))
        out.append(Gpu(
            index=index if index is not None else i,
            name=str(d.get("name") or ""),
            pci_id=f"{dev_id & 0xFFFF:04x}:{(dev_id >> 16) & 0xFFFF:04x}" if dev_id else None,
            subsystem_id=f"{sub_id & 0xFFFF:04x}:{(sub_id >> 16) & 0xFFFF:04x}" if sub_id else None,
            bus_id=normalize_bus_id(d.get("pci_bus_id")),
            uuid=d.get("uuid") if isinstance(d.get("uuid"), str) else None,
            compute_capability=f"{cc[0]}.{cc[1]}" if isinstance(cc, (list, tuple)) and len(cc) == 2 else None,
            memory_total_mib=mem // (1024 * 1024) if mem else None,
            pcie_gen_current=_num(d.get("pcie_gen_current")), pcie_gen_max=_num(d.get("pcie_gen_max")),
            pcie_width_current=_num(d.get("pcie_width_current")), pcie_width_max=_num(d.get("pcie_width_max")),
            memory_bus_width_bits=_num(d.get("memory_bus_width_bits")),
            memory_clock_max_mhz=_num(d.get("memory_clock_max_mhz")), sm_clock_max_mhz=_num(d.get("sm_clock_max_mhz")),
            power_limit_w=plim / 1000 if plim else None, power_default_limit_w=pdef / 1000 if pdef else None,
            compute_mode=_COMPUTE_MODES.get(_num(d.get("compute_mode"))),  # type: ignore[arg-type]
            persistence_mode=None if pm is None else pm == 1, ecc_enabled=None if ecc is None else ecc == 1,
            source="nvml",
        ))
    return out
