"""Example report inputs for benchmarks, tests and screenshots: an H200 machine like the one in
tests/fixtures/real/h200 (driver 580.159.04, CUDA 13.0, PCIe Gen5 x16), a plan whose toolkit
step failed, a session folder with a long output log, and a verification with NVML-style samples
over a sustained load. The figures follow the hardware's published ceilings (PCIe 5.0 x16:
32 GT/s x 16 lanes x 128/130 / 8 = 63.0 GB/s per direction; HBM3e: 3201 MHz x 6016 bits x 2 / 8
= 4.81 TB/s) so charts look like a real run; they are inputs, never expected results.
"""
from __future__ import annotations

import math
import random
from pathlib import Path
from typing import Any

PCIE5_X16_GBPS = 32 * 16 * 128 / 130 / 8
H200_MEM_GBPS = 3201e6 * 6016 * 2 / 8 / 1e9


def demo_facts() -> dict[str, Any]:
    return {
        "os": {"platform": "linux", "id": "ubuntu", "version_id": "24.04", "codename": "noble", "pretty_name": "Ubuntu 24.04.3 LTS",
               "id_like": ["debian"], "kernel": "6.18.44-fc-v657-gpu", "arch": "x86_64", "package_manager": "apt",
               "free_disk_mib": 48213, "memory_total_mib": 193277, "is_root": False},
        "driver": {"state": "ok", "version": "580.159.04", "cuda_version": "13.0", "kernel_module": "open",
                   "kernel_module_version": "580.159.04", "modules_loaded": ["nvidia", "nvidia_uvm"], "nouveau_loaded": False,
                   "source": "nvml"},
        "gpus": [{"index": 0, "name": "NVIDIA H200", "pci_id": "10de:2335", "subsystem_id": "10de:18bf", "bus_id": "00000000:00:06.0",
                  "uuid": "GPU-a6db2fbf-add9-8c71-1a33-91a1b38c1739", "compute_capability": "9.0", "architecture": "Hopper",
                  "memory_total_mib": 143771, "pcie_gen_current": 5, "pcie_gen_max": 5, "pcie_width_current": 16,
                  "pcie_width_max": 16, "memory_bus_width_bits": 6016, "memory_clock_max_mhz": 3201, "sm_clock_max_mhz": 1980,
                  "power_limit_w": 700.0, "power_default_limit_w": 700.0, "compute_mode": "Default", "persistence_mode": True,
                  "ecc_enabled": True, "source": "nvml"}],
        "cuda": {"toolkits": [{"path": "/usr/local/cuda-13.0", "version": "13.0", "source": "version.json"}],
                 "active_link": "/usr/local/cuda-13.0", "nvcc_path": "/usr/local/cuda/bin/nvcc", "nvcc_version": "13.0.88"},
        "env": {"variables": {"PATH": "/home/demo-user/.local/bin:/usr/local/cuda/bin:/usr/bin", "LD_LIBRARY_PATH": "/usr/local/cuda/lib64"}},
        "python": {"path": "/home/demo-user/.venvs/gpu/bin/python", "version": "3.12.3", "kind": "venv",
                   "torch": {"version": "2.11.0+cu130", "cuda": "13.0", "available": True, "device_count": 1,
                             "arch_list": ["sm_75", "sm_80", "sm_86", "sm_90", "sm_100", "sm_120"]}},
        "findings": [{"code": "ld_conf_stale_cuda", "severity": "warning", "message": "An old CUDA 12.4 library path is still in the linker configuration.",
                      "evidence": ["/etc/ld.so.conf.d/cuda-12-4.conf"], "hint": "The plan removes it."}],
        "probes": [{"name": "nvml", "status": "ok", "duration_ms": 41.0}, {"name": "nvidia_smi_table", "status": "ok", "duration_ms": 62.5}],
        "source": "live", "created": "2026-11-29T15:27:06+00:00",
    }


def demo_recommendation() -> dict[str, Any]:
    return {
        "pytorch": {"version": "2.11.0", "index": "cu130", "index_url": "https://download.pytorch.org/whl/cu130",
                    "packages": ["torch==2.11.0"], "command": "pip install torch==2.11.0 --index-url https://download.pytorch.org/whl/cu130",
                    "cuda_runtime": "13.0.2", "driver_compat": "full",
                    "reason": "The newest PyTorch; its CUDA 13.0 build runs on driver 580 and covers sm_90."},
        "driver": {"action": "keep", "current_version": "580.159.04", "min_version": "580.65.06", "reason": "Driver 580 runs CUDA 13.0."},
        "cuda_toolkit": {"wanted": True, "version": "13.0", "package": "cuda-toolkit-13-0", "reason": "Asked for, to build extensions."},
        "cudnn": {"version": "9.13.0", "source": "wheel", "reason": "The wheel brings cuDNN."},
        "warnings": [{"code": "minor_version_compat_only", "message": "Example warning shown in reports.", "severity": "info"}],
    }


def demo_plan() -> dict[str, Any]:
    """Four steps said by their catalogue codes (app.plan.model.coded_step), as the real builders say them."""
    from app.plan.model import coded_step

    venv = "/home/demo-user/.venvs/gpu"
    url = "https://download.pytorch.org/whl/cu130"
    steps = [
        coded_step("update_index", "update_index", "update_package_index", "update_package_index_apt_why",
                   commands=(("apt-get", "update"),), needs_root=True),
        coded_step("install_toolkit", "install_toolkit", "install_cuda_toolkit", "install_cuda_toolkit_apt_why",
                   {"version": "13.0", "package": "cuda-toolkit-13-0"},
                   commands=(("apt-get", "install", "-y", "cuda-toolkit-13-0"),), needs_root=True),
        coded_step("create_venv", "create_venv", "create_venv", "create_venv_why", {"venv": venv},
                   commands=(("/usr/bin/python3", "-m", "venv", venv),)),
        coded_step("install_pytorch", "install_pytorch", "install_pytorch", "install_pytorch_why_url",
                   {"packages": "torch", "index": "cu130", "reason_code": "install_pytorch_reason_default", "url": url},
                   commands=((f"{venv}/bin/pip", "install", "torch==2.11.0", "--index-url", url),)),
    ]
    return {"format": "gpu-wizard-plan/1", "platform": "linux", "steps": [s.to_json() for s in steps]}


def demo_verification(seconds: float = 30.0, rate_hz: float = 10.0, gpus: int = 1, seed: int = 7) -> dict[str, Any]:
    """A verification with `seconds x rate_hz` samples per GPU: idle, bandwidth, then sustained load."""
    rnd = random.Random(seed)
    samples = []
    n = int(seconds * rate_hz)
    for gi in range(gpus):
        for k in range(n):
            t = k / rate_hz
            load = t >= 4.0
            ramp = min(1.0, max(0.0, (t - 4.0) / 1.5))
            phase = "bandwidth" if 1.0 <= t < 4.0 else ("load" if load else "idle")
            util = (98.0 + rnd.random() * 2) * ramp if load else (35.0 + rnd.random() * 20 if phase == "bandwidth" else 0.0)
            power = 80 + (605 + 25 * math.sin(t / 2.0) + rnd.random() * 10) * ramp if load else (140 + rnd.random() * 20 if phase == "bandwidth" else 80 + rnd.random() * 3)
            samples.append({"t_s": round(t, 2), "gpu_index": gi, "util_pct": round(util, 1), "mem_util_pct": round(util * 0.6, 1),
                            "mem_used_mib": round(600 + (38000 if load else (8000 if phase == "bandwidth" else 0)) * (ramp if load else 1) + rnd.random() * 50, 1),
                            "power_w": round(power, 1), "power_limit_w": 700.0,
                            "sm_clock_mhz": int(1980 - 150 * ramp * rnd.random()) if load or phase == "bandwidth" else 345,
                            "mem_clock_mhz": 3201, "temp_c": round(41 + 22 * ramp + rnd.random(), 1) if load else 41.0 + rnd.random(),
                            "pcie_rx_mbps": 52000.0 if phase == "bandwidth" else 3.0, "pcie_tx_mbps": 49000.0 if phase == "bandwidth" else 2.0,
                            "pcie_gen_current": 5, "pcie_width_current": 16, "throttle_reasons": [], "phase": phase})
    bw = {"h2d_pinned_gbps": 53.8, "d2h_pinned_gbps": 55.1, "h2d_pageable_gbps": 21.4, "d2h_pageable_gbps": 18.9, "d2d_gbps": 4012.5,
          "pcie_theoretical_gbps": round(PCIE5_X16_GBPS, 2), "pcie_current_gbps": round(PCIE5_X16_GBPS, 2),
          "memory_theoretical_gbps": round(H200_MEM_GBPS, 1), "method": "torch copies, best of sizes"}
    comp = {"matmul_tflops": {"bf16": 712.4, "fp16": 705.9, "tf32": 378.2, "fp32": 51.7}, "matmul_size": 8192, "seconds": seconds - 4}
    gpu_results = [{"index": gi, "device": {"index": gi, "nvml_index": gi, "name": "NVIDIA H200", "compute_capability": "9.0",
                                             "memory_total_mib": 143771, "sm_clock_max_mhz": 1980, "mem_clock_max_mhz": 3201,
                                             "power_limit_w": 700.0, "pcie_gen_current": 5, "pcie_width_current": 16},
                    "bandwidth": dict(bw, gpu_index=gi), "compute": dict(comp, gpu_index=gi),
                    "numerics": [{"op": "matmul", "dtype": "fp32", "rel_error": 1.2e-7, "tolerance": 1e-5, "ok": True},
                                 {"op": "matmul", "dtype": "bf16", "rel_error": 2.9e-3, "tolerance": 2e-2, "ok": True}]}
                   for gi in range(gpus)]
    return {"format": "gpu-wizard-verification/1", "created": "2026-11-29T15:50:00+00:00", "duration_s": seconds + 6,
            "python": "/home/demo-user/.venvs/gpu/bin/python", "seconds": seconds,
            "layers": [{"name": "device", "status": "pass", "reason": "1 GPU usable: NVIDIA H200, PCIe Gen5 x16."},
                       {"name": "bandwidth", "status": "pass", "reason": "Copies reach 85% of the PCIe link."},
                       {"name": "pytorch", "status": "pass", "reason": "PyTorch 2.11.0+cu130 uses the GPU; results are correct."},
                       {"name": "load", "status": "warn", "reason": "Example: power stayed below the limit under load.",
                        "checks": [{"code": "power_limit_low", "status": "warn", "message": "Example check shown in reports.", "gpu_index": 0,
                                    "hint": "nvidia-smi -q -d POWER"}]}],
            "gpus": gpu_results, "bandwidth": dict(bw, gpu_index=0), "compute": dict(comp, gpu_index=0),
            "torch": {"python": "/home/demo-user/.venvs/gpu/bin/python", "installed": True, "version": "2.11.0+cu130", "cuda": "13.0",
                      "available": True, "device_count": gpus},
            "samples": samples, "sampler": {"ran": True, "interval_s": 1 / rate_hz, "rate_hz": rate_hz, "count": len(samples)}}


def demo_diagnosis() -> dict[str, Any]:
    return {"format": "gpu-wizard-diagnosis/1", "matches": [{
        "category": "other", "rule": "apt_fetch_failed", "confidence": 0.8,
        "root_cause": "apt could not reach the package mirror (connection refused).",
        "fix": "Check the proxy setting, then run the step again.",
        "evidence": [{"source": "text", "message": "Could not connect … Connection refused", "key": "line 12"}],
        "commands": [["apt-get", "update"]]}], "message": ""}


def write_demo_session(folder: str | Path, log_lines: int = 2000, fail: bool = True) -> Path:
    """A session folder written by app/run's own Session (commands.log, output.log, plan.json,
    facts.json, state.json) for the demo plan, with `log_lines` lines of output and, when `fail`,
    the toolkit step failing as apt fails when its mirror refuses the connection."""
    from app.run.session import STATE_FORMAT, Session

    base = Path(folder)
    s = Session.create(base, label="install")
    s.write_json("plan.json", demo_plan())
    s.write_json("facts.json", demo_facts())
    state: dict[str, Any] = {"format": STATE_FORMAT, "status": "running", "steps": {}, "reboot_pending": False, "boot_id": None}
    s.save_state(state)
    s.write_output("update_index", "stdout", "Hit:1 http://archive.ubuntu.com/ubuntu noble InRelease")
    for i in range(max(0, log_lines - 12)):
        s.write_output("update_index", "stdout", f"Get:{i + 2} https://developer.download.nvidia.com/compute/cuda/repos/ubuntu2404/x86_64 "
                                                 f"libcublas-13-0 13.0.2.{i % 90}-1 [{(i * 37) % 900 + 10} kB]")
    s.write_output("update_index", "stdout", "Reading package lists...")
    s.log_command("update_index", ["apt-get", "update"], 0, 8.2)
    state["steps"]["update_index"] = {"status": "ok", "message": "", "at": "2026-11-29T15:40:09"}
    s.write_output("install_toolkit", "stdout", "Reading package lists...")
    s.write_output("install_toolkit", "stdout", "Building dependency tree...")
    if fail:
        s.write_output("install_toolkit", "stderr", "E: Failed to fetch http://mirror.example.invalid/ubuntu/pool/main/c/cuda.deb  "
                                                    "Could not connect to mirror.example.invalid:3128 - connect (111: Connection refused)")
        s.write_output("install_toolkit", "stderr", "E: Unable to fetch some archives, maybe run apt-get update or try with --fix-missing?")
        s.log_command("install_toolkit", ["apt-get", "install", "-y", "cuda-toolkit-13-0"], 100, 3.1)
        state["steps"]["install_toolkit"] = {"status": "error", "message": "apt-get failed with exit code 100", "at": "2026-11-29T15:40:12"}
        state["status"], state["failed_step"] = "error", "install_toolkit"
    else:
        s.write_output("install_toolkit", "stdout", "Setting up cuda-toolkit-13-0 (13.0.2-1) ...")
        s.log_command("install_toolkit", ["apt-get", "install", "-y", "cuda-toolkit-13-0"], 0, 211.0)
        state["steps"]["install_toolkit"] = {"status": "ok", "message": "", "at": "2026-11-29T15:43:40"}
    s.save_state(state)
    s.close()
    return s.dir
