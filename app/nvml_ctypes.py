"""NVML through ctypes: the functions of NVIDIA's `pynvml` (nvidia-ml-py) that app/nvml_live.read_nvml calls,
bound directly to the driver's libnvidia-ml (Linux: libnvidia-ml.so.1; Windows: nvml.dll), for where
nvidia-ml-py is not installed (the fleet's zipapp runs on a host's bare Python). The same C entry points
and structures as NVML's header (nvml.h): `nvmlInit_v2`, `nvmlDeviceGetHandleByIndex_v2`,
`nvmlDeviceGetPciInfo_v3`, ...; an error is an `NVMLError` carrying NVML's return code and its string."""
from __future__ import annotations

import ctypes
import os
import sys
from typing import Any, Optional

NVML_CLOCK_SM = 1
NVML_CLOCK_MEM = 2
NVML_ERROR_LIBRARY_NOT_FOUND = 12
_lib: Optional[ctypes.CDLL] = None


class NVMLError(Exception):
    def __init__(self, code: int, text: str = ""):
        super().__init__(f"NVML error {code}: {text or 'unknown'}")
        self.code = code


class _PciInfo(ctypes.Structure):  # nvmlPciInfo_t
    _fields_ = [("busIdLegacy", ctypes.c_char * 16), ("domain", ctypes.c_uint), ("bus", ctypes.c_uint),
                ("device", ctypes.c_uint), ("pciDeviceId", ctypes.c_uint), ("pciSubSystemId", ctypes.c_uint),
                ("busId", ctypes.c_char * 32)]


class _Memory(ctypes.Structure):  # nvmlMemory_t
    _fields_ = [("total", ctypes.c_ulonglong), ("free", ctypes.c_ulonglong), ("used", ctypes.c_ulonglong)]


def _candidates() -> list[str]:
    env = os.environ.get("GPU_WIZARD_NVML_LIBRARY")  # tests, or an unusual install
    if env:
        return [env]
    if sys.platform == "win32":
        sysroot = os.environ.get("SystemRoot", r"C:\Windows")
        return [os.path.join(sysroot, "System32", "nvml.dll"),
                os.path.join(os.environ.get("ProgramFiles", r"C:\Program Files"), "NVIDIA Corporation", "NVSMI", "nvml.dll")]
    return ["libnvidia-ml.so.1", "libnvidia-ml.so", "/usr/lib/wsl/lib/libnvidia-ml.so.1"]


def _load() -> ctypes.CDLL:
    global _lib
    if _lib is None:
        last = ""
        for name in _candidates():
            try:
                _lib = ctypes.CDLL(name)
                break
            except OSError as e:
                last = str(e)
        if _lib is None:
            raise NVMLError(NVML_ERROR_LIBRARY_NOT_FOUND, f"libnvidia-ml not found ({last})")
    return _lib


def _call(name: str, *args: Any) -> None:
    lib = _load()
    try:
        fn = getattr(lib, name)
    except AttributeError:
        raise NVMLError(13, f"{name} not in this NVML (an older driver)") from None  # NVML_ERROR_FUNCTION_NOT_FOUND
    rc = fn(*args)
    if rc != 0:
        try:
            es = lib.nvmlErrorString
            es.restype = ctypes.c_char_p
            text = (es(rc) or b"").decode(errors="replace")
        except AttributeError:
            text = ""
        raise NVMLError(int(rc), text)


def _text(name: str, *args: Any, size: int = 96) -> str:
    buf = ctypes.create_string_buffer(size)
    _call(name, *args, buf, ctypes.c_uint(size))
    return buf.value.decode("utf-8", errors="replace")


def _uint(name: str, *args: Any) -> int:
    v = ctypes.c_uint()
    _call(name, *args, ctypes.byref(v))
    return v.value


def _int(name: str, *args: Any) -> int:
    v = ctypes.c_int()
    _call(name, *args, ctypes.byref(v))
    return v.value


def nvmlInit() -> None:  # noqa: N802 (pynvml's names)
    _call("nvmlInit_v2")


def nvmlShutdown() -> None:  # noqa: N802
    _call("nvmlShutdown")


def nvmlSystemGetDriverVersion() -> str:  # noqa: N802
    return _text("nvmlSystemGetDriverVersion", size=80)


def nvmlSystemGetNVMLVersion() -> str:  # noqa: N802
    return _text("nvmlSystemGetNVMLVersion", size=80)


def nvmlSystemGetCudaDriverVersion() -> int:  # noqa: N802
    return _int("nvmlSystemGetCudaDriverVersion")


def nvmlDeviceGetCount() -> int:  # noqa: N802
    return _uint("nvmlDeviceGetCount_v2")


def nvmlDeviceGetHandleByIndex(i: int) -> ctypes.c_void_p:  # noqa: N802
    h = ctypes.c_void_p()
    _call("nvmlDeviceGetHandleByIndex_v2", ctypes.c_uint(i), ctypes.byref(h))
    return h


def nvmlDeviceGetName(h: ctypes.c_void_p) -> str:  # noqa: N802
    return _text("nvmlDeviceGetName", h, size=96)


def nvmlDeviceGetUUID(h: ctypes.c_void_p) -> str:  # noqa: N802
    return _text("nvmlDeviceGetUUID", h, size=96)


def nvmlDeviceGetSerial(h: ctypes.c_void_p) -> str:  # noqa: N802
    return _text("nvmlDeviceGetSerial", h, size=32)


def nvmlDeviceGetPciInfo(h: ctypes.c_void_p) -> _PciInfo:  # noqa: N802
    p = _PciInfo()
    _call("nvmlDeviceGetPciInfo_v3", h, ctypes.byref(p))
    return p


def nvmlDeviceGetMemoryInfo(h: ctypes.c_void_p) -> _Memory:  # noqa: N802
    m = _Memory()
    _call("nvmlDeviceGetMemoryInfo", h, ctypes.byref(m))
    return m


def nvmlDeviceGetCudaComputeCapability(h: ctypes.c_void_p) -> tuple[int, int]:  # noqa: N802
    a, b = ctypes.c_int(), ctypes.c_int()
    _call("nvmlDeviceGetCudaComputeCapability", h, ctypes.byref(a), ctypes.byref(b))
    return a.value, b.value


def nvmlDeviceGetEccMode(h: ctypes.c_void_p) -> tuple[int, int]:  # noqa: N802
    a, b = ctypes.c_int(), ctypes.c_int()
    _call("nvmlDeviceGetEccMode", h, ctypes.byref(a), ctypes.byref(b))
    return a.value, b.value


def nvmlDeviceGetMaxClockInfo(h: ctypes.c_void_p, kind: int) -> int:  # noqa: N802
    return _uint("nvmlDeviceGetMaxClockInfo", h, ctypes.c_int(kind))


def _unsigned(cname: str):
    def get(h: ctypes.c_void_p) -> int:
        return _uint(cname, h)
    get.__name__ = cname
    return get


def _signed(cname: str):
    def get(h: ctypes.c_void_p) -> int:
        return _int(cname, h)
    get.__name__ = cname
    return get


nvmlDeviceGetCurrPcieLinkGeneration = _unsigned("nvmlDeviceGetCurrPcieLinkGeneration")
nvmlDeviceGetMaxPcieLinkGeneration = _unsigned("nvmlDeviceGetMaxPcieLinkGeneration")
nvmlDeviceGetCurrPcieLinkWidth = _unsigned("nvmlDeviceGetCurrPcieLinkWidth")
nvmlDeviceGetMaxPcieLinkWidth = _unsigned("nvmlDeviceGetMaxPcieLinkWidth")
nvmlDeviceGetArchitecture = _unsigned("nvmlDeviceGetArchitecture")
nvmlDeviceGetMemoryBusWidth = _unsigned("nvmlDeviceGetMemoryBusWidth")
nvmlDeviceGetEnforcedPowerLimit = _unsigned("nvmlDeviceGetEnforcedPowerLimit")
nvmlDeviceGetPowerManagementDefaultLimit = _unsigned("nvmlDeviceGetPowerManagementDefaultLimit")
nvmlDeviceGetComputeMode = _signed("nvmlDeviceGetComputeMode")
nvmlDeviceGetPersistenceMode = _signed("nvmlDeviceGetPersistenceMode")
