"""NVML through ctypes (app/nvml_ctypes.py), where nvidia-ml-py is absent (the fleet's zipapp on a host's
bare Python): read_nvml() falls back to it. Tested against a C library compiled here from NVML's own
signatures (nvml.h: the same entry points, structures and return codes; fixed answers of an H200),
loaded through ctypes as the driver's libnvidia-ml would be, in a Python without site-packages."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

FAKE_NVML_C = r'''
#include <string.h>
typedef struct { char busIdLegacy[16]; unsigned domain, bus, device, pciDeviceId, pciSubSystemId; char busId[32]; } nvmlPciInfo_t;
typedef struct { unsigned long long total, free, used; } nvmlMemory_t;
typedef void *nvmlDevice_t;
static int inited = 0; static int dev0 = 0;
static int put(char *buf, unsigned n, const char *s) { if (strlen(s) + 1 > n) return 7; strcpy(buf, s); return 0; }
int nvmlInit_v2(void) { inited = 1; return 0; }
int nvmlShutdown(void) { inited = 0; return 0; }
const char *nvmlErrorString(int rc) { return rc == 3 ? "Not Supported" : "Unknown Error"; }
int nvmlSystemGetDriverVersion(char *b, unsigned n) { return put(b, n, "580.159.04"); }
int nvmlSystemGetNVMLVersion(char *b, unsigned n) { return put(b, n, "13.580.159.04"); }
int nvmlSystemGetCudaDriverVersion(int *v) { *v = 13000; return 0; }
int nvmlDeviceGetCount_v2(unsigned *c) { if (!inited) return 1; *c = 1; return 0; }
int nvmlDeviceGetHandleByIndex_v2(unsigned i, nvmlDevice_t *h) { if (i) return 2; *h = &dev0; return 0; }
int nvmlDeviceGetName(nvmlDevice_t h, char *b, unsigned n) { return put(b, n, "NVIDIA H200"); }
int nvmlDeviceGetUUID(nvmlDevice_t h, char *b, unsigned n) { return put(b, n, "GPU-5d6e8f8a-1b2c-4d3e-9f00-112233445566"); }
int nvmlDeviceGetSerial(nvmlDevice_t h, char *b, unsigned n) { return 3; }
int nvmlDeviceGetPciInfo_v3(nvmlDevice_t h, nvmlPciInfo_t *p) { memset(p, 0, sizeof *p); strcpy(p->busId, "00000000:18:00.0");
  p->pciDeviceId = 0x233510de; p->pciSubSystemId = 0x18fd10de; return 0; }
int nvmlDeviceGetMemoryInfo(nvmlDevice_t h, nvmlMemory_t *m) { m->total = 150754820096ULL; m->free = 1; m->used = 2; return 0; }
int nvmlDeviceGetCudaComputeCapability(nvmlDevice_t h, int *a, int *b) { *a = 9; *b = 0; return 0; }
int nvmlDeviceGetEccMode(nvmlDevice_t h, int *c, int *p) { *c = 1; *p = 1; return 0; }
int nvmlDeviceGetCurrPcieLinkGeneration(nvmlDevice_t h, unsigned *v) { *v = 5; return 0; }
int nvmlDeviceGetMaxPcieLinkGeneration(nvmlDevice_t h, unsigned *v) { *v = 5; return 0; }
int nvmlDeviceGetCurrPcieLinkWidth(nvmlDevice_t h, unsigned *v) { *v = 8; return 0; }
int nvmlDeviceGetMaxPcieLinkWidth(nvmlDevice_t h, unsigned *v) { *v = 16; return 0; }
int nvmlDeviceGetArchitecture(nvmlDevice_t h, unsigned *v) { *v = 9; return 0; }
int nvmlDeviceGetMemoryBusWidth(nvmlDevice_t h, unsigned *v) { *v = 6144; return 0; }
int nvmlDeviceGetMaxClockInfo(nvmlDevice_t h, int kind, unsigned *v) { *v = kind == 2 ? 3201 : 1980; return 0; }
int nvmlDeviceGetEnforcedPowerLimit(nvmlDevice_t h, unsigned *v) { *v = 700000; return 0; }
int nvmlDeviceGetPowerManagementDefaultLimit(nvmlDevice_t h, unsigned *v) { *v = 700000; return 0; }
int nvmlDeviceGetComputeMode(nvmlDevice_t h, int *v) { *v = 0; return 0; }
int nvmlDeviceGetPersistenceMode(nvmlDevice_t h, int *v) { *v = 1; return 0; }
'''

READ = "import json, sys; sys.path.insert(0, sys.argv[1]); from app.system import read_nvml; print(json.dumps(read_nvml()))"


def _bare_python() -> str:
    for p in ("/usr/bin/python3", shutil.which("python3") or ""):
        if p and os.path.isfile(p):
            return p
    return sys.executable


def _read(env_lib: str) -> dict:
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "GPU_WIZARD_NVML_LIBRARY": env_lib}
    r = subprocess.run([_bare_python(), "-I", "-S", "-c", READ, str(ROOT)], capture_output=True, text=True, env=env, timeout=60)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


@pytest.fixture(scope="module")
def fake_nvml(tmp_path_factory):
    cc = shutil.which("cc") or shutil.which("gcc")
    if not cc:
        pytest.skip("no C compiler to build the stand-in libnvidia-ml")
    d = tmp_path_factory.mktemp("nvml")
    (d / "nvml.c").write_text(FAKE_NVML_C)
    r = subprocess.run([cc, "-shared", "-fPIC", "-o", str(d / "libnvidia-ml.so.1"), str(d / "nvml.c")], capture_output=True, text=True)
    if r.returncode != 0:
        pytest.skip("cannot build the stand-in libnvidia-ml: " + r.stderr[-300:])
    return str(d / "libnvidia-ml.so.1")


def test_read_nvml_without_nvidia_ml_py_through_ctypes(fake_nvml):
    nv = _read(fake_nvml)
    assert nv["error"] is None and nv["driver_version"] == "580.159.04" and nv["cuda_driver_version"] == 13000
    (dev,) = nv["devices"]
    assert dev["name"] == "NVIDIA H200" and dev["pci_bus_id"] == "00000000:18:00.0" and dev["compute_capability"] == [9, 0]
    assert dev["memory_total_bytes"] == 150754820096 and (dev["pcie_gen_current"], dev["pcie_width_current"]) == (5, 8)
    assert dev["pcie_width_max"] == 16 and dev["memory_clock_max_mhz"] == 3201 and dev["sm_clock_max_mhz"] == 1980
    assert dev["persistence_mode"] == 1 and dev["ecc_current"] == 1 and dev["serial"] is None  # Not Supported: unknown
    assert dev["pci_device_id"] == 0x233510de
    from app.detect.nvml import parse_nvml

    (g,) = parse_nvml(nv)
    assert g.name == "NVIDIA H200" and g.pcie_width_current == 8


def test_no_driver_library_is_an_error_not_a_silence(tmp_path):
    nv = _read(str(tmp_path / "no-such-libnvidia-ml.so.1"))
    assert nv["devices"] == [] and "libnvidia-ml not found" in nv["error"]
