"""The bundled GPU table (`resources/compat/gpus.csv`): PCI device id → name, compute
capability, architecture, segment. One row per device id, each citing its source.

Queries: `lookup_pci("2684")`, `lookup_name("NVIDIA GeForce RTX 4090 Lap...")`,
`cc_from_name("GeForce GTX 1080 Ti")` (infers from the name when the table has no row),
`architecture_for_cc("8.9")`. Pure lookups; no opinion about what is "best".
"""
from __future__ import annotations

import csv
import functools
import re
from pathlib import Path
from typing import Optional

from app import fileio
from app.model import Record, record
from app.paths import resource

SEGMENTS = ("geforce", "geforce_laptop", "workstation", "datacenter")
COLUMNS = ("pci_device_id", "name", "compute_capability", "architecture", "segment", "source", "checked")

@record
class GpuModel(Record):
    """One row of the GPU table: a PCI device id and what the GPU is."""

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
def _name_index() -> dict[tuple[str, bool], tuple[GpuModel, ...]]:
    """Normalised name → every row spelled that way (a name may mean several GPUs: the GTX 750 Ti
    is an OEM Kepler GK106 and the retail Maxwell GM107). Never picks by file order."""
    idx: dict[tuple[str, bool], list[GpuModel]] = {}
    for m in _table().values():
        lap = m.segment == "geforce_laptop" or _looks_laptop(m.name)
        parts = [m.name] + ([p for p in m.name.split(" / ")] if " / " in m.name else [])
        for part in parts:
            k = _key(part)
            if re.search(r"[a-z]", k) and re.search(r"\d", k):
                lst = idx.setdefault((k, lap), [])
                if m not in lst:
                    lst.append(m)
    return {k: tuple(v) for k, v in idx.items()}


def _gb_in_name(name: str) -> Optional[int]:
    m = re.search(r"\b(\d+)\s?GB\b", name, re.I)
    return int(m.group(1)) if m else None


def memory_agrees(model: GpuModel, memory_mib: Optional[int]) -> Optional[bool]:
    """Whether a board's memory (MiB, as nvidia-smi reports it: a little under the marketing GB)
    fits the 'NNGB' in a table name. None when either is unknown."""
    gb = _gb_in_name(model.name)
    if gb is None or not memory_mib:
        return None
    return abs(memory_mib / 1024 - gb) <= max(1.5, gb * 0.1)


def _looks_laptop(name: str) -> bool:
    n = name.lower()
    return bool(re.search(r"\b(laptop|mobile|max-q)\b", n)) or bool(re.search(r"\b\d{3,4}m\b|\d{3}mx\b", n))


def lookup_name_all(name: str, memory_mib: Optional[int] = None) -> tuple[GpuModel, ...]:
    """Every table row `name` may mean (nvidia-smi, NVML, lspci or user spelling, possibly truncated
    with '...'), narrowed by the board's memory where the names carry one. Sorted by device id."""
    if not name or not isinstance(name, str):
        return ()
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
        return ()
    idx = _name_index()
    cands = list(idx.get((key, laptop)) or idx.get((key, not laptop)) or ())
    if not cands:
        # a name longer or shorter than the table's ("NVIDIA H200" vs "H200 SXM 141GB", a truncated name)
        cands = [mm for (k, lap), ms in idx.items() if lap == laptop and (k.startswith(key + " ") or (truncated and k.startswith(key))) for mm in ms]
        if not cands and truncated:
            cands = [mm for (k, _), ms in idx.items() if k.startswith(key) for mm in ms]
    cands = sorted(set(cands), key=lambda c: c.pci_device_id)
    if memory_mib and cands:
        fit = [c for c in cands if memory_agrees(c, memory_mib) is not False]
        cands = fit
    return tuple(cands)


def lookup_name(name: str, memory_mib: Optional[int] = None) -> Optional[GpuModel]:
    """The one table row `name` means, or None when it means none or several that differ in
    compute capability (ambiguous: decide by PCI id). Where several rows agree on the capability
    (a truncated 'Tesla V100-SXM2...' is the 16GB and the 32GB board), the one whose name fits
    `memory_mib` when given; else the shortest name that every candidate shares a capability with."""
    cands = lookup_name_all(name, memory_mib)
    if not cands or len({c.compute_capability for c in cands}) != 1:
        return None
    if len(cands) == 1:
        return cands[0]
    return sorted(cands, key=lambda c: (len(c.name), c.pci_device_id))[0]


def name_ambiguous(name: str, memory_mib: Optional[int] = None) -> tuple[GpuModel, ...]:
    """The rows of a name that means GPUs of different compute capabilities (else ())."""
    cands = lookup_name_all(name, memory_mib)
    return cands if len({c.compute_capability for c in cands}) > 1 else ()


# Name patterns → CC, for names the table does not list (newer SKUs, OEM variants).
_NAME_RULES: list[tuple[str, str]] = [
    # Jetson modules (developer.nvidia.com/cuda-gpus, "Jetson Products"): Tegra GPUs the solve sends to JetPack
    (r"\b(jetson )?(agx |igx )?thor\b", "11.0"),
    (r"\b(jetson )?(agx |nx |nano )*orin\b", "8.7"),
    (r"\b(jetson )?(agx |nx )*xavier\b", "7.2"),
    (r"\bjetson tx2\b", "6.2"),
    (r"\bjetson (tx1|nano)\b", "5.3"),
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
    (r"\bgrid k(1|2|340|520)\b", "3.0"),  # GRID K1/K340 (GK107), K2/K520 (GK104): boards, not vGPUs
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


# An NVIDIA vGPU as the guest sees it: "<GRID|NVIDIA> <board>[-<MIG slices>]-<framebuffer GB><series>", the series
# A, B, C or Q (NVIDIA Virtual GPU Software User Guide, "Virtual GPU Types"): "GRID T4-4C", "GRID V100D-8C",
# "NVIDIA A100-4-20C", "GRID RTX6000-24Q", "NVIDIA L40S-48Q". A board name never ends so ("GRID K520" is a board).
_VGPU_RE = re.compile(r"^(?:GRID|NVIDIA)\s+(?P<board>RTX\s?\d{4}|[A-Z]{1,2}\d{1,4}[A-Z]{0,2})(?:-\d{1,2})?-\d{1,3}[ABCQ]$", re.I)


def vgpu_board(name: Optional[str]) -> Optional[str]:
    """The physical board behind a vGPU name ("GRID V100D-8C" -> "V100D"), or None for a GPU that is not a vGPU."""
    m = _VGPU_RE.match((name or "").strip())
    return m.group("board").upper().replace(" ", "") if m else None


def _vgpu_cc(board: str) -> Optional[str]:
    """A vGPU board's capability: the board as named, then without its variant letters (V100D, V100DX, H100XM:
    the V100 and H100 boards), a Quadro RTX board spelled as NVIDIA's table does."""
    tries = [board, re.sub(r"(?<=\d)[A-Z]+$", "", board)]
    m = re.fullmatch(r"RTX(\d{4})", board)
    if m:
        tries.insert(0, f"Quadro RTX {m.group(1)}")
    for t in tries:
        hit = lookup_name(t) or lookup_name("NVIDIA " + t)
        if hit:
            return hit.compute_capability
        n = _tokens(t)
        for pat, cc in _NAME_RULES:
            if re.search(pat, n):
                return cc
    return None


def cc_from_name(name: str) -> Optional[str]:
    """Compute capability for a GPU name: the table first, then the series in the name."""
    if not name:
        return None
    hit = lookup_name(name)
    if hit:
        return hit.compute_capability
    board = vgpu_board(name)
    if board:
        return _vgpu_cc(board)
    if name_ambiguous(name):
        return None  # the name means GPUs of different capabilities: the PCI id (or the driver) decides
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


@functools.lru_cache(maxsize=4)
def _cc_rows(path: str) -> dict[str, str]:
    try:
        data = fileio.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    out: dict[str, str] = {}
    for r in data.get("rows", []) if isinstance(data, dict) else []:
        if isinstance(r, dict) and isinstance(r.get("cc"), str) and isinstance(r.get("architecture"), str) and not r.get("tegra"):
            out[r["cc"]] = r["architecture"]
    return out


def _cc_json() -> dict[str, str]:
    """CC → architecture from the compat data's compute_capabilities table (its rows carry 'cc'
    and 'architecture'): the only home of that fact."""
    from app.compat.db import bundled_dir

    return _cc_rows(str(bundled_dir() / "compute_capabilities.json"))


def architecture_for_cc(cc: Optional[str]) -> Optional[str]:
    """'8.9' → 'Ada Lovelace'; an unknown minor takes its major's highest row at or below it."""
    if not cc:
        return None
    cc = str(cc).strip()
    if re.fullmatch(r"\d+", cc):
        cc += ".0"
    rows = _cc_json()
    arch = rows.get(cc)
    if arch is None and re.fullmatch(r"\d+\.\d+", cc):
        maj, mi = (int(x) for x in cc.split("."))
        same = sorted((int(k.split(".")[1]), v) for k, v in rows.items() if re.fullmatch(r"\d+\.\d+", k) and int(k.split(".")[0]) == maj and int(k.split(".")[1]) <= mi)
        arch = same[-1][1] if same else None
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
