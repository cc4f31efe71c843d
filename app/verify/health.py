"""What a burn-in watches besides load and heat: the GPU's health counters and its Xid events.

- `HealthReader`: ECC error counts, retired pages, row remapping and the PCIe replay counter in one
  NVML field-values call per GPU (nvml.h NVML_FI_DEV_*), the fan, and the GPU's own temperature
  thresholds (slowdown, shutdown, maximum operating), read once. A counter the GPU lacks reads None
  and is not asked again.
- `XidWatcher`: Xid events as they happen, from NVML's event API (nvmlEventSetCreate,
  nvmlDeviceRegisterEvents with nvmlEventTypeXidCriticalError, nvmlEventSetWait) where the driver
  serves it, else from the kernel log (/dev/kmsg, lines "NVRM: Xid (PCI:0000:3b:00): 79, pid=...,
  GPU has fallen off the bus."), else it says why nothing is watched.

Both take the NVML module (pynvml or a fake with its call shapes), so tests drive every signal.
"""
from __future__ import annotations

import errno
import os
import re
import threading
import time
from typing import Any, Callable, Optional

# nvml.h field ids (nvidia-ml-py names them NVML_FI_DEV_*)
HEALTH_FIELDS: tuple[tuple[int, str], ...] = (
    (3, "ecc_corrected"),  # NVML_FI_DEV_ECC_SBE_VOL_TOTAL
    (4, "ecc_uncorrected"),  # NVML_FI_DEV_ECC_DBE_VOL_TOTAL
    (29, "retired_sbe"),  # NVML_FI_DEV_RETIRED_SBE
    (30, "retired_dbe"),  # NVML_FI_DEV_RETIRED_DBE
    (31, "retired_pending"),  # NVML_FI_DEV_RETIRED_PENDING
    (142, "remapped_cor"),  # NVML_FI_DEV_REMAPPED_COR
    (143, "remapped_unc"),  # NVML_FI_DEV_REMAPPED_UNC
    (144, "remap_pending"),  # NVML_FI_DEV_REMAPPED_PENDING
    (145, "remap_failure"),  # NVML_FI_DEV_REMAPPED_FAILURE
    (94, "pcie_replay"),  # NVML_FI_DEV_PCIE_REPLAY_COUNTER
)
THRESHOLDS = (("slowdown", 1), ("shutdown", 0), ("gpu_max", 3))  # NVML_TEMPERATURE_THRESHOLD_* ids
XID_EVENT = 0x0000000000000008  # nvmlEventTypeXidCriticalError
_XID_LINE = re.compile(r"NVRM: Xid \(PCI:([0-9A-Fa-f:.]+)\):\s*(\d+)\s*,?\s*(.*)")


def _field_value(v: Any) -> Optional[int]:
    if getattr(v, "nvmlReturn", 1) != 0:
        return None
    val = getattr(v, "value", None)
    for attr in ("ullVal", "uiVal", "ulVal", "sllVal", "siVal"):
        x = getattr(val, attr, None)
        if isinstance(x, int):
            return x
    return None


def handle_key(h: Any) -> Any:
    """A GPU handle for comparison (which GPU an Xid event names): pynvml's handles are ctypes
    pointers, neither hashable nor equal to another pointer object to the same device, so they are
    compared by address; fakes use plain values."""
    try:
        import ctypes

        return ("ptr", ctypes.cast(h, ctypes.c_void_p).value)
    except Exception:
        return h


class HealthReader:
    """Per GPU: `read(index, h)` -> {counter: int or None, "fan_pct": ...}; `thresholds(h)` once.

    What it learns of a GPU (which fields it answers, whether it has a fan) is kept by the caller's
    GPU index, never by the handle: pynvml's handles are ctypes pointers, which are not hashable (a
    dict keyed by them raises TypeError, and that killed the sampler thread of the first H200 burn-in)."""

    def __init__(self, nvml: Any):
        self.nvml = nvml
        self._ids: dict[int, list[tuple[int, str]]] = {}  # GPU index -> the fields it answers
        self._fan: dict[int, bool] = {}

    def read(self, k: int, h: Any) -> dict[str, Optional[float]]:
        fields = self._ids.get(k, list(HEALTH_FIELDS))
        got: dict[str, Optional[int]] = {}
        if fields:
            try:
                vals = self.nvml.nvmlDeviceGetFieldValues(h, [f for f, _ in fields])
            except Exception:
                vals = None
            if vals is None:
                self._ids[k] = []
            else:
                got = {name: _field_value(v) for (_f, name), v in zip(fields, vals)}
                if k not in self._ids:  # the first answer: keep asking only for what the GPU has
                    self._ids[k] = [(f, n) for f, n in fields if got.get(n) is not None]
        out: dict[str, Optional[float]] = {}
        sbe, dbe = got.get("retired_sbe"), got.get("retired_dbe")
        out["retired_pages"] = (sbe or 0) + (dbe or 0) if sbe is not None or dbe is not None else None
        for name in ("ecc_corrected", "ecc_uncorrected", "retired_pending", "remapped_cor", "remapped_unc",
                     "remap_pending", "remap_failure", "pcie_replay"):
            out[name] = got.get(name)
        out["fan_pct"] = self.fan(k, h)
        return out

    def fan(self, k: int, h: Any) -> Optional[float]:
        if self._fan.get(k) is False:
            return None
        try:
            v = float(self.nvml.nvmlDeviceGetFanSpeed(h))
        except Exception:  # no fan (SXM boards, passively cooled cards): NOT_SUPPORTED
            self._fan[k] = False
            return None
        self._fan[k] = True
        return v

    def thresholds(self, h: Any) -> dict[str, Optional[float]]:
        out: dict[str, Optional[float]] = {}
        for name, which in THRESHOLDS:
            try:
                out[name] = float(self.nvml.nvmlDeviceGetTemperatureThreshold(h, which))
            except Exception:
                out[name] = None
        return out


def parse_kmsg_xid(line: str) -> Optional[tuple[str, int, str]]:
    """(PCI bus id as the driver wrote it, Xid number, the rest) from one kernel log line, or None."""
    m = _XID_LINE.search(line)
    if not m:
        return None
    return m.group(1).lower(), int(m.group(2)), m.group(3).strip()[:300]


def bus_key(bus_id: Optional[str]) -> str:
    """'00000000:3B:00.0', '0000:3b:00', '3b:00.0' -> '3b:00' (bus:device), to match the kernel's ids to NVML's."""
    if not bus_id:
        return ""
    parts = bus_id.lower().split(":")
    if len(parts) < 2:
        return ""
    return f"{int(parts[-2], 16):02x}:{int(parts[-1].split('.')[0], 16):02x}" if all(
        re.fullmatch(r"[0-9a-f]+", p.split(".")[0]) for p in parts[-2:]) else ""


XidCallback = Callable[[float, Optional[int], int, str], None]  # (monotonic time, NVML index or None, xid, text)


class XidWatcher:
    """A thread that reports Xid events: NVML events where they register, else the kernel log."""

    def __init__(self, nvml: Any, handles: list[tuple[int, Any]], on_xid: XidCallback,
                 kmsg_path: str = "/dev/kmsg", poll_s: float = 0.5):
        self.nvml, self.handles, self.on_xid = nvml, list(handles), on_xid
        self.kmsg_path, self.poll_s = kmsg_path, poll_s
        self.source = ""  # "nvml_events" | "kernel_log" | "" (note says why)
        self.note = ""
        self._stop = threading.Event()
        self._thread: Optional[threading.Thread] = None
        self._set: Any = None
        self._fd: Optional[int] = None
        self._bus: dict[str, int] = {}

    def start(self) -> bool:
        for index, h in self.handles:
            try:
                self._bus[bus_key(_pci_bus(self.nvml, h))] = index
            except Exception:
                pass
        why = self._start_events()
        if self._set is not None:
            self.source = "nvml_events"
        else:
            kwhy = self._open_kmsg()
            if self._fd is None:
                self.note = f"NVML events: {why}; kernel log: {kwhy}"
                return False
            self.source, self.note = "kernel_log", f"NVML events: {why}"
        self._thread = threading.Thread(target=self._loop, name="gpu-wizard-xid", daemon=True)
        self._thread.start()
        return True

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=3 * self.poll_s + 1)
            self._thread = None
        if self._set is not None:
            try:
                self.nvml.nvmlEventSetFree(self._set)
            except Exception:
                pass
            self._set = None
        if self._fd is not None:
            try:
                os.close(self._fd)
            except OSError:
                pass
            self._fd = None

    def _start_events(self) -> str:
        n = self.nvml
        try:
            es = n.nvmlEventSetCreate()
        except Exception as e:
            return _why(e)
        registered, why = 0, ""
        for _i, h in self.handles:
            try:
                n.nvmlDeviceRegisterEvents(h, getattr(n, "nvmlEventTypeXidCriticalError", XID_EVENT), es)
                registered += 1
            except Exception as e:
                why = _why(e)
        if not registered:
            try:
                n.nvmlEventSetFree(es)
            except Exception:
                pass
            return why or "no GPU registered"
        self._set = es
        return ""

    def _open_kmsg(self) -> str:
        try:
            fd = os.open(self.kmsg_path, os.O_RDONLY | os.O_NONBLOCK)
        except OSError as e:
            return f"{self.kmsg_path}: {e.strerror or e}"
        try:
            os.lseek(fd, 0, os.SEEK_END)  # only what happens from now on
        except OSError:
            pass
        self._fd = fd
        return ""

    def _loop(self) -> None:
        while not self._stop.is_set():
            if self._set is not None:
                self._wait_event()
            else:
                self._read_kmsg()
                self._stop.wait(self.poll_s)

    def _wait_event(self) -> None:
        n = self.nvml
        try:
            data = n.nvmlEventSetWait_v2(self._set, int(self.poll_s * 1000)) if hasattr(n, "nvmlEventSetWait_v2") \
                else n.nvmlEventSetWait(self._set, int(self.poll_s * 1000))
        except Exception as e:  # a timeout is the usual answer; anything else: wait a little, try again
            if "timeout" not in str(e).lower() and "Timeout" not in type(e).__name__:
                self._stop.wait(self.poll_s)
            return
        if data is None:
            return
        if not int(getattr(data, "eventType", 0) or 0) & XID_EVENT:
            return
        dev = handle_key(getattr(data, "device", None))
        index = next((i for i, h in self.handles if handle_key(h) == dev), None)
        self.on_xid(time.monotonic(), index, int(getattr(data, "eventData", 0) or 0), "")

    def _read_kmsg(self) -> None:
        assert self._fd is not None
        for _ in range(1000):  # at most this many records a poll
            try:
                raw = os.read(self._fd, 8192)
            except BlockingIOError:
                return
            except OSError as e:
                if e.errno == errno.EPIPE:  # records overwritten before we read them: go on
                    continue
                return
            if not raw:
                return  # a plain file (tests) at its end
            for line in raw.decode("utf-8", "replace").splitlines():
                hit = parse_kmsg_xid(line)
                if hit is not None:
                    bus, xid, text = hit
                    self.on_xid(time.monotonic(), self._bus.get(bus_key(bus)), xid, text)


def _pci_bus(nvml: Any, h: Any) -> str:
    info = nvml.nvmlDeviceGetPciInfo(h)
    bus = getattr(info, "busId", b"")
    return bus.decode() if isinstance(bus, bytes) else str(bus)


def _why(e: Exception) -> str:
    return (str(e) or type(e).__name__).splitlines()[0][:200]


def check_field_ids(nvml: Any) -> list[str]:
    """The field ids above that differ from the NVML module's own constants (a test holds them to
    nvidia-ml-py's names)."""
    names = {"ecc_corrected": "NVML_FI_DEV_ECC_SBE_VOL_TOTAL", "ecc_uncorrected": "NVML_FI_DEV_ECC_DBE_VOL_TOTAL",
             "retired_sbe": "NVML_FI_DEV_RETIRED_SBE", "retired_dbe": "NVML_FI_DEV_RETIRED_DBE",
             "retired_pending": "NVML_FI_DEV_RETIRED_PENDING", "remapped_cor": "NVML_FI_DEV_REMAPPED_COR",
             "remapped_unc": "NVML_FI_DEV_REMAPPED_UNC", "remap_pending": "NVML_FI_DEV_REMAPPED_PENDING",
             "remap_failure": "NVML_FI_DEV_REMAPPED_FAILURE", "pcie_replay": "NVML_FI_DEV_PCIE_REPLAY_COUNTER"}
    return [f"{n}: {f} != {getattr(nvml, names[n], None)}" for f, n in HEALTH_FIELDS if getattr(nvml, names[n], None) != f]
