"""The bundled GPU table (`resources/compat/gpus.csv`): PCI device id → name, compute
capability, architecture, segment. One row per device id, each citing its source.

Queries: `lookup_pci("2684")`, `lookup_name("NVIDIA GeForce RTX 4090 Lap...")`,
`cc_from_name("GeForce GTX 1080 Ti")` (infers from the name when the table has no row),
`architecture_for_cc("8.9")`. Pure lookups; no opinion about what is "best".
"""
from __future__ import annotations

import csv
import functools
import json
import re
from dataclasses import dataclass
from typing import Optional

from app.paths import resource

SEGMENTS = ("geforce", "geforce_laptop", "workstation", "datacenter")
COLUMNS = ("pci_device_id", "name", "compute_capability", "architecture", "segment", "source", "checked")

# CC major.minor → architecture (NVIDIA's CUDA GPUs page). Used when the compat
# engineer's compute_capabilities.json is absent.
_ARCH_BY_CC = {
    "3.0": "Kepler", "3.2": "Kepler", "3.5": "Kepler", "3.7": "Kepler",
    "5.0": "Maxwell", "5.2": "Maxwell", "5.3": "Maxwell",
    "6.0": "Pascal", "6.1": "Pascal", "6.2": "Pascal",
    "7.0": "Volta", "7.2": "Volta", "7.5": "Turing",
    "8.0": "Ampere", "8.6": "Ampere", "8.7": "Ampere", "8.8": "Ampere", "8.9": "Ada Lovelace",
    "9.0": "Hopper", "10.0": "Blackwell", "10.1": "Blackwell", "10.3": "Blackwell", "11.0": "Blackwell",
    "12.0": "Blackwell", "12.1": "Blackwell",
}


@dataclass(frozen=True)
class GpuModel:
    pci_device_id: str  # "2684"
    name: str  # "GeForce RTX 4090"
    compute_capability: str  # "8.9"
    architecture: str
    segment: str
    source: str = ""
    checked: str = ""

    @property
    def pci_id(self) -> str:
        return f"10de:{self.pci_device_id}"

    @property
    def is_laptop(self) -> bool:
        return self.segment == "geforce_laptop" or bool(re.search(r"Mobile|Laptop|Max-Q", self.name))


class GpuTableError(ValueError):
    pass


def _norm_id(device_id: object) -> Optional[str]:
    """'0x2684', '2684', '10de:2684', 0x2684, '0x268410DE' (nvidia-smi's pci.device_id) → '2684'."""
    if isinstance(device_id, int):
        v = device_id
        if v > 0xFFFF:  # NVML's pciDeviceId: device << 16 | vendor
            v >>= 16
        return f"{v:04x}"
    if not isinstance(device_id, str):
        return None
    s = device_id.strip().lower()
    if ":" in s:
        s = s.split(":")[-1]
    if s.startswith("0x"):
        s = s[2:]
    if len(s) == 8 and s.endswith("10de"):
        s = s[:4]
    if not re.fullmatch(r"[0-9a-f]{1,4}", s):
        return None
    return s.zfill(4)


def load_table(path=None) -> dict[str, GpuModel]:
    p = path or resource("compat", "gpus.csv")
    out: dict[str, GpuModel] = {}
    with open(p, encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh)
        if tuple(reader.fieldnames or ()) != COLUMNS:
            raise GpuTableError(f"{p}: columns must be {','.join(COLUMNS)}")
        for i, row in enumerate(reader, start=2):
            dev = row["pci_device_id"]
            if not re.fullmatch(r"[0-9a-f]{4}", dev or ""):
                raise GpuTableError(f"{p}:{i}: pci_device_id {dev!r} is not 4 lower-case hex digits")
            if not re.fullmatch(r"\d+\.\d", row["compute_capability"] or ""):
                raise GpuTableError(f"{p}:{i}: bad compute_capability {row['compute_capability']!r}")
            if row["segment"] not in SEGMENTS:
                raise GpuTableError(f"{p}:{i}: bad segment {row['segment']!r}")
            if dev in out:
                raise GpuTableError(f"{p}:{i}: duplicate device id {dev}")
            out[dev] = GpuModel(**{k: row[k] for k in COLUMNS})
    return out


@functools.lru_cache(maxsize=1)
def _table() -> dict[str, GpuModel]:
    try:
        return load_table()
    except (OSError, GpuTableError, KeyError):
        return {}


def lookup_pci(device_id: object) -> Optional[GpuModel]:
    d = _norm_id(device_id)
    return _table().get(d) if d else None


_NOISE = re.compile(r"\b(nvidia|corporation|graphics|gpu|with maxq design|maxq|design|mobile|laptop|edition|generation|founders|rev\.? ?a|lite hash rate|lhr)\b")


def _tokens(name: str) -> str:
    s = name.lower().replace("™", "").replace("®", "")
    s = re.sub(r"\[|\]|\(|\)|,", " ", s)
    s = s.replace("max-q", "maxq")
    s = re.sub(r"(?<=[a-z0-9])-(?=[a-z0-9])", " ", s)
    s = re.sub(r"(\d)(ti)\b", r"\1 ti", s)
    return re.sub(r"\s+", " ", s).strip()


def _key(name: str) -> str:
    s = _tokens(name)
    s = re.sub(r"\b\d+ ?gb\b", " ", s)
    s = _NOISE.sub(" ", s)
    s = re.sub(r"\bgeforce\b|\bquadro\b|\btesla\b", " ", s)
    return re.sub(r"\s+", " ", s).strip()


@functools.lru_cache(maxsize=1)
def _name_index() -> dict[tuple[str, bool], GpuModel]:
    idx: dict[tuple[str, bool], GpuModel] = {}
    for m in _table().values():
        lap = m.segment == "geforce_laptop" or _looks_laptop(m.name)
        parts = [m.name] + ([p for p in m.name.split(" / ")] if " / " in m.name else [])
        for part in parts:
            k = _key(part)
            if re.search(r"[a-z]", k) and re.search(r"\d", k):
                idx.setdefault((k, lap), m)
    return idx


def _looks_laptop(name: str) -> bool:
    n = name.lower()
    return bool(re.search(r"\b(laptop|mobile|max-q)\b", n)) or bool(re.search(r"\b\d{3,4}m\b|\d{3}mx\b", n))


def lookup_name(name: str) -> Optional[GpuModel]:
    """The table row whose name matches `name` (nvidia-smi, NVML, lspci or user spelling,
    possibly truncated with '...')."""
    if not name or not isinstance(name, str):
        return None
    raw = name.strip()
    truncated = raw.endswith("...") or raw.endswith("…")
    raw = raw.rstrip(".…").strip()
    m = re.search(r"\[([^\]]+)\]", raw)  # lspci: "GA106 [GeForce RTX 3060 Lite Hash Rate]"
    if m and not re.search(r"\b(geforce|quadro|tesla|rtx|gtx)\b", raw.split("[", 1)[0].lower()):
        raw = m.group(1)
    laptop = _looks_laptop(raw)
    if truncated and re.search(r"\b(lap|lapt|lapto|mob|mobi|mobil|max)$", raw.lower()):
        laptop = True
        raw = re.sub(r"\s+\S+$", "", raw)
    key = _key(raw)
    if not key:
        return None
    idx = _name_index()
    hit = idx.get((key, laptop)) or idx.get((key, not laptop))
    if hit:
        return hit
    # a name longer or shorter than the table's ("NVIDIA H200" vs "H200 SXM 141GB",
    # a truncated name): accept when every candidate agrees on the compute capability
    cands = [m for (k, lap), m in idx.items() if lap == laptop and (k.startswith(key + " ") or (truncated and k.startswith(key)))]
    if not cands and truncated:
        cands = [m for (k, _), m in idx.items() if k.startswith(key)]
    if cands and len({c.compute_capability for c in cands}) == 1:
        return sorted(cands, key=lambda c: (len(c.name), c.pci_device_id))[0]
    return None


# Name patterns → CC, for names the table does not list (newer SKUs, OEM variants).
_NAME_RULES: list[tuple[str, str]] = [
    (r"\brtx pro \d+ blackwell\b", "12.0"),
    (r"\bgb10\b", "12.1"),
    (r"\b(b300|gb300)\b", "10.3"),
    (r"\b(b100|b200|gb200)\b", "10.0"),
    (r"\b(h100|h200|h800|h20|gh200)\b", "9.0"),
    (r"\b(l4|l40s?|l20|l2)\b", "8.9"),
    (r"\brtx \d{4} ada\b|\brtx \d{3,4}e? ada\b|\bada generation\b", "8.9"),
    (r"\b(a100|a800|a30)\b", "8.0"),
    (r"\b(a40|a10g?|a16|a2|a10m)\b", "8.6"),
    (r"\brtx a\d{3,4}\b", "8.6"),
    (r"\b(t4|t10|t40)\b", "7.5"),
    (r"\b(t400|t500|t550|t600|t1000|t1200|t2000)\b", "7.5"),
    (r"\bquadro rtx \d{4}\b", "7.5"),
    (r"\b(v100s?|gv100|titan v)\b", "7.0"),
    (r"\b(p100|gp100)\b", "6.0"),
    (r"\b(p4|p6|p40|p10)\b", "6.1"),
    (r"\bquadro p\d{3,4}\b", "6.1"),
    (r"\b(m60|m40|m6|m4)\b", "5.2"),
    (r"\bm10\b", "5.0"),
    (r"\bquadro m\d{3,4}m?\b", "5.2"),
    (r"\bk80\b", "3.7"),
    (r"\b(k20x?m?|k20c|k40[a-z]?)\b", "3.5"),
    (r"\bk10\b", "3.0"),
    (r"\btitan rtx\b", "7.5"),
    (r"\btitan xp\b|\btitan x pascal\b", "6.1"),
    (r"\btitan x\b", "5.2"),
    (r"\btitan (black|z)\b|\bgtx titan\b", "3.5"),
    (r"\btitan ada\b", "8.9"),
    (r"\bmx(1[1-3]0)\b", "5.0"),
    (r"\bmx(150|230|250|330|350)\b", "6.1"),
    (r"\bmx(450|550)\b", "7.5"),
    (r"\bmx570\b", "8.6"),
]


def cc_from_name(name: str) -> Optional[str]:
    """Compute capability for a GPU name: the table first, then the series in the name."""
    if not name:
        return None
    hit = lookup_name(name)
    if hit:
        return hit.compute_capability
    n = _tokens(name.rstrip(".… "))
    for pat, cc in _NAME_RULES:
        if re.search(pat, n):
            return cc
    m = re.search(r"\b(rtx|gtx|gt|gts)\s?(\d{3,4})", n)
    if m:
        kind, num = m.group(1), int(m.group(2))
        if kind == "rtx" and num >= 1000:
            series = num // 1000 if num >= 1000 else 0
            return {2: "7.5", 3: "8.6", 4: "8.9", 5: "12.0"}.get(series)
        if num >= 1000:  # GTX 10xx / 16xx, GT 1030
            if 1600 <= num < 1700:
                return "7.5"
            if 1000 <= num < 1100:
                return "6.1"
        else:
            if 900 <= num < 1000:
                return "5.2" if kind == "gtx" and not re.search(rf"\b{num}m\b", n) else "5.0"
            if 700 <= num < 800:
                if num in (745, 750):
                    return "5.0"
                if num in (780,) and "m" not in n.split(str(num), 1)[1][:1]:
                    return "3.5"
                return "3.0"
            if 600 <= num < 700:
                return "3.0"
    return None


@functools.lru_cache(maxsize=1)
def _cc_json() -> dict[str, str]:
    try:
        data = json.loads(resource("compat", "compute_capabilities.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    out: dict[str, str] = {}
    rows = data.get("entries", data) if isinstance(data, dict) else data
    if isinstance(rows, dict):
        rows = [dict(v, compute_capability=k) if isinstance(v, dict) else {"compute_capability": k, "architecture": v} for k, v in rows.items()]
    for r in rows if isinstance(rows, list) else []:
        if isinstance(r, dict) and isinstance(r.get("compute_capability"), str) and isinstance(r.get("architecture"), str):
            out[r["compute_capability"]] = r["architecture"]
    return out


def architecture_for_cc(cc: Optional[str]) -> Optional[str]:
    if not cc:
        return None
    cc = str(cc).strip()
    if re.fullmatch(r"\d+", cc):
        cc += ".0"
    arch = _cc_json().get(cc) or _ARCH_BY_CC.get(cc)
    if arch:
        return arch.split(" (")[0]
    return None


def normalize_cc(value: object) -> Optional[str]:
    """'8.9', '89', 'sm_89', (8, 9), [8, 9] → '8.9'."""
    if isinstance(value, (list, tuple)) and len(value) == 2 and all(isinstance(x, int) for x in value):
        return f"{value[0]}.{value[1]}"
    if not isinstance(value, str):
        return None
    s = value.strip().lower().replace("sm_", "").replace("compute_", "")
    if re.fullmatch(r"\d+\.\d+", s):
        return s
    if re.fullmatch(r"\d{2,3}[a-z]?", s):
        s = s.rstrip("abcdefghijklmnopqrstuvwxyz")
        return f"{s[:-1]}.{s[-1]}"
    return None
