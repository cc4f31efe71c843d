"""nvidia-smi: the CSV query and the plain table, as thin readers plus pure parsers.

`parse_smi_query(text, fields)` reads `--format=csv,noheader,nounits` output;
`parse_smi_table(text)` reads the plain `nvidia-smi` table in all its banner styles (old ones
without a CUDA field, "CUDA Version", newer "KMD Version"/"CUDA UMD Version"), truncated names
("NVIDIA GeForce RTX 4070 ..."), "N/A"/"ERR!" fields and several GPUs; `parse_smi_error(text)`
recognises the failure messages. None of them raises on garbage: they return what they could read.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Optional

from app.lazy_re import compile_later

QUERY_FIELDS = (
    "index", "name", "pci.bus_id", "pci.device_id", "pci.sub_device_id", "uuid", "driver_version",
    "memory.total", "memory.used", "compute_cap", "pcie.link.gen.current", "pcie.link.gen.max",
    "pcie.link.width.current", "pcie.link.width.max", "power.limit", "power.default_limit",
    "clocks.max.sm", "clocks.max.mem", "persistence_mode", "compute_mode", "ecc.mode.current",
)
# Drivers older than ~510 reject compute_cap; this is the set every driver answers.
BASIC_FIELDS = ("index", "name", "pci.bus_id", "pci.device_id", "driver_version", "memory.total")


def query_argv(fields=QUERY_FIELDS, exe: str = "nvidia-smi") -> list[str]:
    return [exe, "--query-gpu=" + ",".join(fields), "--format=csv,noheader,nounits"]


TABLE_ARGV = ["nvidia-smi"]

_MISSING = {"", "n/a", "[n/a]", "err!", "[err!]", "[not supported]", "not supported", "[unknown error]",
            "unknown error", "[gpu is lost]", "gpu is lost", "[insufficient permissions]", "[requires root]"}


_ERROR_VALUES = {"err!", "[err!]", "[unknown error]", "unknown error", "[gpu is lost]", "gpu is lost"}


def is_error_value(s: Optional[str]) -> bool:
    """An nvidia-smi field the driver failed to read (ERR!, [Unknown Error], [GPU is lost]), as opposed to
    N/A / [Not Supported] (the value does not exist for this GPU)."""
    return isinstance(s, str) and s.strip().lower() in _ERROR_VALUES


def _val(s: Optional[str]) -> Optional[str]:
    if s is None:
        return None
    s = s.strip()
    return None if s.lower() in _MISSING else s


def _int(s: Optional[str]) -> Optional[int]:
    v = _val(s)
    if v is None:
        return None
    m = re.match(r"^\s*(-?\d+)(?:\.\d+)?", v)
    return int(m.group(1)) if m else None


def _float(s: Optional[str]) -> Optional[float]:
    v = _val(s)
    if v is None:
        return None
    m = re.match(r"^\s*(-?\d+(?:\.\d+)?)", v)
    return float(m.group(1)) if m else None


def normalize_bus_id(bus_id: Optional[str]) -> Optional[str]:
    """'00000000:01:00.0' (nvidia-smi/NVML), '01:00.0' (lspci), '0000:01:00.0' (sysfs) → '0000:01:00.0'."""
    if not bus_id:
        return None
    m = re.search(r"(?:([0-9a-fA-F]{1,8}):)?([0-9a-fA-F]{2}):([0-9a-fA-F]{2})\.([0-7])", bus_id)
    if not m:
        return None
    dom = int(m.group(1) or "0", 16)
    return f"{dom:04x}:{m.group(2).lower()}:{m.group(3).lower()}.{m.group(4)}"


def parse_smi_error(text: str) -> Optional[str]:
    """The failure nvidia-smi reports, as a state: "no_communication", "mismatch",
    "nvml_failed", "no_devices", "gpu_lost" or None when the text is not a known failure."""
    t = (text or "").lower()
    if "couldn't communicate with the nvidia driver" in t or "couldn\u2019t communicate with the nvidia driver" in t:
        return "no_communication"
    if "driver/library version mismatch" in t:
        return "mismatch"
    if "no devices were found" in t:
        return "no_devices"
    if "gpu is lost" in t or "unable to determine the device handle" in t:
        return "gpu_lost"
    if "nvidia-smi has failed" in t or "failed to initialize nvml" in t:
        return "nvml_failed"
    return None


def nvml_library_version(text: str) -> Optional[str]:
    """'NVML library version: 580.178' in a mismatch message."""
    m = re.search(r"NVML library version:\s*([0-9][0-9.]+)", text or "")
    return m.group(1) if m else None


# What a log or a terminal puts before each line: an ISO/RFC 3339 timestamp (docker logs -t, kubectl logs
# --timestamps, journald short-iso), containerd's CRI log format "<time> stdout F ", a "[time]" stamp, or a
# shell prompt ("$ ", "# ", "user@host:~$ ").
_LINE_PREFIX = compile_later(
    r"^\s*(?:\[?\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?\]?\s*(?:(?:stdout|stderr)\s+[FP]\s+)?"
    r"|[\w.-]+@[\w.-]+:[^\s$#]*[$#]\s+|[$#>]\s+)")


def strip_line_prefix(line: str) -> str:
    """A line without a leading log timestamp or shell prompt (repeated: a prompt after a timestamp)."""
    for _ in range(3):
        m = _LINE_PREFIX.match(line)
        if not m or not m.group(0):
            break
        line = line[m.end():]
    return line


def strip_prefixes(text: str) -> str:
    return "\n".join(strip_line_prefix(ln) for ln in (text or "").splitlines())


def parse_smi_query(text: str, fields=QUERY_FIELDS) -> list[dict[str, Any]]:
    """One dict per GPU line, keyed by field name, "N/A"/"[Not Supported]"/"ERR!" → None.
    Lines that do not have the expected number of fields are skipped."""
    out: list[dict[str, Any]] = []
    n = len(fields)
    for line in (text or "").splitlines():
        line = strip_line_prefix(line)
        if not line.strip() or parse_smi_error(line):
            continue
        parts = [p.strip() for p in line.split(",")]
        heads = [re.sub(r"\s*\[.*\]$", "", p).lower() for p in parts]
        if sum(h in fields or h.replace("gpu_", "") in fields for h in heads) * 2 >= len(parts):
            continue  # the csv header line ("name, utilization.gpu [%], ...")
        if len(parts) > n and "name" in fields:  # a name with a comma in it: join the surplus back
            i = fields.index("name")
            extra = len(parts) - n
            parts = parts[:i] + [", ".join(parts[i:i + extra + 1])] + parts[i + extra + 1:]
        if len(parts) != n:
            continue
        row = dict(zip(fields, parts))
        if _int(row.get("index")) is None and "index" in fields:
            continue
        if "pci.bus_id" in fields and _val(row["pci.bus_id"]) and normalize_bus_id(row["pci.bus_id"]) is None:
            continue  # columns do not line up (a header, units, another field list): guess nothing
        out.append(row)
    return out


def gpu_fields_from_query(row: dict[str, Any]) -> dict[str, Any]:
    """A parsed query row → keyword arguments for app.facts.Gpu (plus driver_version)."""
    dev = _val(row.get("pci.device_id"))
    sub = _val(row.get("pci.sub_device_id"))
    pci_id = None
    if dev and re.fullmatch(r"0x[0-9a-fA-F]{8}", dev):
        v = int(dev, 16)
        pci_id = f"{v & 0xFFFF:04x}:{v >> 16:04x}"
    subsystem = None
    if sub and re.fullmatch(r"0x[0-9a-fA-F]{8}", sub):
        v = int(sub, 16)
        subsystem = f"{v & 0xFFFF:04x}:{v >> 16:04x}"
    cc = _val(row.get("compute_cap"))
    if cc and not re.fullmatch(r"\d+\.\d+", cc):
        cc = None
    ecc = _val(row.get("ecc.mode.current"))
    pm = _val(row.get("persistence_mode"))
    return {
        "index": _int(row.get("index")),
        "name": _val(row.get("name")) or "",
        "bus_id": normalize_bus_id(_val(row.get("pci.bus_id"))),
        "pci_id": pci_id,
        "subsystem_id": subsystem,
        "uuid": _val(row.get("uuid")),
        "memory_total_mib": _int(row.get("memory.total")),
        "compute_capability": cc,
        "pcie_gen_current": _int(row.get("pcie.link.gen.current")),
        "pcie_gen_max": _int(row.get("pcie.link.gen.max")),
        "pcie_width_current": _int(row.get("pcie.link.width.current")),
        "pcie_width_max": _int(row.get("pcie.link.width.max")),
        "power_limit_w": _float(row.get("power.limit")),
        "power_default_limit_w": _float(row.get("power.default_limit")),
        "sm_clock_max_mhz": _int(row.get("clocks.max.sm")),
        "memory_clock_max_mhz": _int(row.get("clocks.max.mem")),
        "persistence_mode": None if pm is None else pm.lower() == "enabled",
        "compute_mode": _val(row.get("compute_mode")),
        "ecc_enabled": None if ecc is None else ecc.lower() == "enabled",
        "driver_version": _val(row.get("driver_version")),
    }


@dataclass
class SmiTable:
    driver_version: Optional[str] = None
    cuda_version: Optional[str] = None  # "CUDA Version" or "CUDA UMD Version"
    smi_version: Optional[str] = None
    kmd_version: Optional[str] = None  # newer banners: kernel-mode driver version
    gpus: list[dict[str, Any]] = field(default_factory=list)
    error: Optional[str] = None  # parse_smi_error state when the output is a failure
    cuda_field: Optional[str] = None  # "ERR!" or "N/A" when the banner printed that instead of a CUDA version
    driver_field: Optional[str] = None  # "ERR!" or "N/A" for the driver version


_BANNER_SMI = compile_later(r"NVIDIA-SMI\s+([0-9][0-9.]*)")
_BANNER_DRV = compile_later(r"Driver Version:\s*([0-9][0-9.]*)")
_BANNER_KMD = compile_later(r"KMD Version:\s*([0-9][0-9.]*)")
_BANNER_CUDA = compile_later(r"CUDA(?:\s+UMD)?\s+Version:\s*([0-9]+\.[0-9]+|N/A|ERR!)")
_BANNER_DRV_BAD = compile_later(r"Driver Version:\s*(N/A|ERR!)")
# the columns of a GPU's two table lines, in order, for naming an ERR!/N/A field
_ROW1_FIELDS = ("persistence mode", "bus id", "display", "ECC errors")
_ROW2_FIELDS = ("fan", "temperature", "performance state", "power")
_GPU_ROW = compile_later(
    r"^\|\s*(?P<index>\d+)\s+(?P<name>.*?)\s+(?P<mode>On|Off|N/A|WDDM|TCC|MCDM|ERR!)?\s*\|"
    r"\s*(?P<bus>[0-9A-Fa-f]{4,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\.[0-9A-Fa-f])\s*(?P<disp>On|Off|N/A|ERR!)?\s*\|"
    r"(?P<ecc>[^|]*)\|?")
_MEM = compile_later(r"(\d+|N/A|ERR!)\s*MiB\s*/\s*(\d+|N/A|ERR!)\s*MiB")
_POWER = compile_later(r"(\d+(?:\.\d+)?|N/A|ERR!)\s*W?\s*/\s*(\d+(?:\.\d+)?|N/A|ERR!)\s*W")
_PERF = compile_later(r"\b(P\d{1,2})\b")
_CMODE = compile_later(r"\b(Default|E\. Process|E\. Thread|Prohibited|Exclusive_Process)\b")


def parse_smi_table(text: str) -> SmiTable:
    """The plain `nvidia-smi` table → SmiTable. Unknown fields are None; a name cut short
    by nvidia-smi keeps its "..." so lookups know it is a prefix."""
    out = SmiTable()
    # log timestamps or a prompt before each line: the table starts at its first "|" or "+" (else the line as is)
    text = "\n".join(_table_part(ln) for ln in (text or "").splitlines())
    out.error = parse_smi_error(text)
    for line in text.splitlines()[:12]:
        if out.driver_field is None and (m := _BANNER_DRV_BAD.search(line)):
            out.driver_field = m.group(1)
        if out.smi_version is None and (m := _BANNER_SMI.search(line)):
            out.smi_version = m.group(1)
        if out.driver_version is None and (m := _BANNER_DRV.search(line)):
            out.driver_version = m.group(1)
        if out.kmd_version is None and (m := _BANNER_KMD.search(line)):
            out.kmd_version = m.group(1)
        if out.cuda_version is None and out.cuda_field is None and (m := _BANNER_CUDA.search(line)):
            if m.group(1) in ("N/A", "ERR!"):
                out.cuda_field = m.group(1)
            else:
                out.cuda_version = m.group(1)
    if out.driver_version is None:
        out.driver_version = out.kmd_version or out.smi_version
    lines = text.splitlines()
    in_processes = False
    for i, line in enumerate(lines):
        if "Processes:" in line:
            in_processes = True
        if in_processes:
            continue
        m = _GPU_ROW.match(line.strip())
        if not m:
            continue
        gpu: dict[str, Any] = {
            "index": int(m.group("index")),
            "name": m.group("name").strip(),
            "bus_id": normalize_bus_id(m.group("bus")),
            "persistence_mode": {"On": True, "Off": False}.get(m.group("mode") or ""),
            "driver_model": m.group("mode") if m.group("mode") in ("WDDM", "TCC", "MCDM") else None,
            "ecc_errors": _int(m.group("ecc")),
            "memory_total_mib": None, "memory_used_mib": None, "power_limit_w": None, "compute_mode": None,
        }
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        gpu["err_fields"], gpu["na_fields"] = _bad_fields(line, nxt)
        if mm := _MEM.search(nxt):
            gpu["memory_used_mib"] = _int(mm.group(1))
            gpu["memory_total_mib"] = _int(mm.group(2))
        if pm := _POWER.search(nxt):
            gpu["power_limit_w"] = _float(pm.group(2))
        if cm := _CMODE.search(nxt):
            gpu["compute_mode"] = {"E. Process": "Exclusive_Process", "E. Thread": "Exclusive_Thread"}.get(cm.group(1), cm.group(1))
        if pf := _PERF.search(nxt):
            gpu["perf_state"] = pf.group(1)
        out.gpus.append(gpu)
    return out


def _table_part(line: str) -> str:
    s = strip_line_prefix(line)
    if s.lstrip().startswith(("|", "+")):
        return s
    m = re.search(r"[|+](?=[-= |]|[A-Za-z0-9])", line)
    if m and ("|" in line[m.start():] or line[m.start():].startswith("+-")):
        return line[m.start():]
    return s


def _cell_err(cell: str) -> bool:
    """A table cell the driver failed to read: ERR!, or a bracketed error ([Unknown Error], [GPU is lost])."""
    low = cell.lower()
    return "ERR!" in cell or "[unknown error]" in low or "[gpu is lost]" in low


def _bad_fields(row1: str, row2: str) -> tuple[list[str], list[str]]:
    """The columns of a GPU's table lines that read ERR! (or another error value) or N/A, by name."""
    err, na = [], []
    cells1 = [c.strip() for c in row1.strip().strip("|").split("|")]
    if len(cells1) >= 3:
        toks = cells1[0].split()
        if toks and toks[-1] in ("ERR!",):
            err.append("persistence mode")
        if cells1[1].split()[-1:] == ["ERR!"]:
            err.append("display")
        if _cell_err(cells1[2]):
            err.append("ECC errors")
    cells2 = [c.strip() for c in row2.strip().strip("|").split("|")]
    if cells2 and cells2[0]:
        toks = cells2[0].split()
        names = list(_ROW2_FIELDS[:3])
        for name, t in zip(names, toks[:3]):
            if t == "ERR!":
                err.append(name)
            elif t == "N/A" and name != "fan":  # a passively cooled board has no fan: N/A is normal there
                na.append(name)
        if "ERR!" in toks[3:]:
            err.append("power")
        if len(cells2) > 1 and _cell_err(cells2[1]):
            err.append("memory")
        if len(cells2) > 2 and _cell_err(cells2[2]):
            err.append("utilization")
    return err, na


def is_truncated_name(name: str) -> bool:
    return bool(name) and (name.endswith("...") or name.endswith("\u2026"))
