"""Live facts for the diagnosis: which processes hold GPU memory now.

On this machine NVML answers directly (nvmlDeviceGetComputeRunningProcesses); otherwise, and for
a snapshot, `nvidia-smi --query-compute-apps` through the System (a snapshot that recorded it
replays it). Never raises: a missing driver or tool gives {}.
"""
from __future__ import annotations

from typing import Any, Optional

SMI_APPS = ["nvidia-smi", "--query-compute-apps=pid,process_name,used_memory,gpu_uuid", "--format=csv,noheader,nounits"]


def parse_compute_apps(stdout: str) -> list[dict[str, Any]]:
    procs = []
    for line in stdout.splitlines():
        parts = [x.strip() for x in line.split(",")]
        if len(parts) >= 3 and parts[0].isdigit():
            try:
                used: Optional[float] = float(parts[2])
            except ValueError:  # "[N/A]" on some drivers/WSL
                used = None
            procs.append({"pid": int(parts[0]), "name": parts[1], "used_mib": used,
                          "gpu_uuid": parts[3] if len(parts) > 3 else None})
    return procs


def _nvml_processes() -> Optional[list[dict[str, Any]]]:
    try:
        import pynvml as n
    except Exception:
        return None
    try:
        n.nvmlInit()
    except Exception:
        return None
    try:
        out = []
        for i in range(n.nvmlDeviceGetCount()):
            h = n.nvmlDeviceGetHandleByIndex(i)
            try:
                procs = n.nvmlDeviceGetComputeRunningProcesses(h)
            except Exception:
                continue
            for p in procs:
                used = getattr(p, "usedGpuMemory", None)
                try:
                    name = n.nvmlSystemGetProcessName(p.pid)
                    name = name.decode("utf-8", "replace") if isinstance(name, bytes) else str(name)
                except Exception:
                    name = "?"
                out.append({"pid": int(p.pid), "name": name, "gpu_index": i,
                            "used_mib": round(used / 2**20, 1) if isinstance(used, int) else None})
        return out
    except Exception:
        return None
    finally:
        try:
            n.nvmlShutdown()
        except Exception:
            pass


def read_live(system: Any = None) -> dict[str, Any]:
    """{"processes": [{"pid", "name", "used_mib", "gpu_index"|"gpu_uuid"}], "source": "nvml"|"nvidia-smi"}."""
    if system is None or system.__class__.__name__ == "LiveSystem":
        procs = _nvml_processes()
        if procs is not None:
            return {"processes": procs, "source": "nvml"}
    if system is None:
        return {}
    try:
        r = system.run(SMI_APPS, timeout=15)
    except Exception:
        return {}
    if not r.ok:
        return {}
    return {"processes": parse_compute_apps(r.stdout), "source": "nvidia-smi"}
