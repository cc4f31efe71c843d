"""Builds snapshots (format 1) from the raw real outputs under tests/fixtures/real/."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Optional

from app.system import SNAPSHOT_FORMAT, SnapshotSystem

REAL = Path(__file__).resolve().parents[1] / "fixtures" / "real"
H200 = REAL / "h200"

QUERY_KEY = ("nvidia-smi --query-gpu=index,name,pci.bus_id,pci.device_id,pci.sub_device_id,uuid,driver_version,"
             "memory.total,memory.used,compute_cap,pcie.link.gen.current,pcie.link.gen.max,pcie.link.width.current,"
             "pcie.link.width.max,power.limit,power.default_limit,clocks.max.sm,clocks.max.mem,persistence_mode,"
             "compute_mode,ecc.mode.current --format=csv,noheader,nounits")


def read(case: str, name: str) -> str:
    return (REAL / case / name).read_text(encoding="utf-8", errors="replace")


def snapshot(files: Optional[dict] = None, commands: Optional[dict] = None, *, nvml: Any = None, dirs: Optional[dict] = None,
             links: Optional[dict] = None, env: Optional[dict] = None, platform: str = "linux", **extra) -> SnapshotSystem:
    data = {"format": SNAPSHOT_FORMAT, "platform": platform, "created": "2026-11-29T15:27:06+00:00",
            "files": files or {}, "dirs": dirs or {}, "links": links or {}, "env": env or {},
            "commands": {k: (v if isinstance(v, dict) else {"rc": 0, "stdout": v, "stderr": ""}) for k, v in (commands or {}).items()},
            "nvml": nvml}
    data.update(extra)
    return SnapshotSystem(json.loads(json.dumps(data)), name="test.json")


def h200_nvml() -> dict:
    """The recorded NVML form (app.detect.nvml) built from the real pynvml.out of the H200."""
    raw = json.loads(read("h200", "pynvml.out"))
    g = raw["gpus"][0]
    return {"driver_version": raw["driver"], "cuda_driver_version": raw["cuda"], "nvml_version": raw["nvml"], "error": None,
            "devices": [{"index": 0, "name": g["name"], "pci_bus_id": g["pci"]["busId"], "pci_device_id": g["pci"]["pciDeviceId"],
                         "pci_subsystem_id": g["pci"]["pciSubSystemId"], "uuid": g["uuid"], "serial": g["serial"],
                         "compute_capability": g["cc"], "memory_total_bytes": g["mem"]["total"], "pcie_gen_current": g["gen"],
                         "pcie_gen_max": g["genmax"], "pcie_width_current": g["w"], "pcie_width_max": g["wmax"],
                         "architecture": g["arch"], "memory_bus_width_bits": g["buswidth"], "memory_clock_max_mhz": g["memclkmax"],
                         "sm_clock_max_mhz": g["smclkmax"], "power_limit_mw": g["plimit"], "power_default_limit_mw": g["pdefault"],
                         "compute_mode": g["cmode"], "persistence_mode": g["persist"], "ecc_current": g["ecc"][0]}]}


def h200_sysfs() -> tuple[dict, dict, dict]:
    """files/dirs/links for /sys/bus/pci/devices from the real sys_pci_all + sys_pci_nvidia."""
    files, links = {}, {}
    entries = []
    for line in read("h200", "sys_pci_all").splitlines():
        bus, ven, dev, cls = line.split()
        entries.append(bus)
        base = f"/sys/bus/pci/devices/{bus}"
        files[f"{base}/vendor"] = ven + "\n"
        files[f"{base}/device"] = dev + "\n"
        files[f"{base}/class"] = cls + "\n"
    cur = None
    for line in read("h200", "sys_pci_nvidia").splitlines():
        if line.startswith("== "):
            cur = line[3:].strip()
            continue
        k, _, v = line.partition("=")
        if k == "driver":
            links[f"{cur}/driver"] = v
        elif cur:
            files[f"{cur}/{k}"] = v + "\n"
    return files, {"/sys/bus/pci/devices": entries}, links


def h200_snapshot(with_nvml: bool = True) -> SnapshotSystem:
    files, dirs, links = h200_sysfs()
    for name, path in (("file_proc_version", "/proc/version"), ("file_etc_os-release", "/etc/os-release"),
                       ("file_proc_driver_nvidia_version", "/proc/driver/nvidia/version"),
                       ("file_sys_module_nvidia_version", "/sys/module/nvidia/version"), ("file_proc_modules", "/proc/modules"),
                       ("file_etc_environment", "/etc/environment"), ("file_proc_meminfo", "/proc/meminfo")):
        files[path] = read("h200", name)
    commands = {
        QUERY_KEY: read("h200", "nvidia-smi-query.out"),
        "nvidia-smi": read("h200", "nvidia-smi.out"),
        "uname -m": "x86_64\n",
        "nvcc --version": read("h200", "nvcc.out"),
        "dpkg -l": read("h200", "dpkg-l.out"),
        "ldconfig -p": read("h200", "ldconfig-p.out"),
    }
    dirs["/etc/ld.so.conf.d"] = read("h200", "ldso_list").split()
    return snapshot(files, commands, nvml=h200_nvml() if with_nvml else None, dirs=dirs, links=links)
