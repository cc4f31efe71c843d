"""CUDA toolkits: /usr/local/cuda-X.Y (version.json / version.txt), the /usr/local/cuda link,
nvcc on PATH, runfile uninstallers."""
from __future__ import annotations

import re
from typing import Optional

from app import fileio
from app.facts import CudaToolkit

CUDA_ROOT = "/usr/local"
_DIR = re.compile(r"^cuda-(\d+\.\d+)$")


def parse_version_json(text: Optional[str]) -> Optional[str]:
    try:
        data = fileio.loads(text or "")
    except ValueError:
        return None
    v = (data.get("cuda") or {}).get("version") if isinstance(data, dict) and isinstance(data.get("cuda"), dict) else None
    return v if isinstance(v, str) and re.fullmatch(r"\d+\.\d+(\.\d+)*", v) else None


def parse_version_txt(text: Optional[str]) -> Optional[str]:
    m = re.search(r"CUDA Version\s+(\d+\.\d+(?:\.\d+)?)", text or "")
    return m.group(1) if m else None


def parse_nvcc_version(text: str) -> Optional[str]:
    """'Cuda compilation tools, release 13.0, V13.0.88' → '13.0.88' (or '13.0')."""
    m = re.search(r"release\s+(\d+\.\d+),\s*V(\d+\.\d+\.\d+)", text or "")
    if m:
        return m.group(2)
    m = re.search(r"release\s+(\d+\.\d+)", text or "")
    return m.group(1) if m else None


def major_minor(v: Optional[str]) -> Optional[str]:
    m = re.match(r"(\d+)\.(\d+)", v or "")
    return f"{m.group(1)}.{m.group(2)}" if m else None


def resolve_link(system, path: str, depth: int = 4) -> Optional[str]:
    """Follow a symlink chain (/usr/local/cuda → /etc/alternatives/cuda → /usr/local/cuda-12.4)."""
    target = None
    cur = path
    for _ in range(depth):
        t = system.readlink(cur)
        if t is None:
            break
        if not t.startswith("/"):
            t = cur.rsplit("/", 1)[0] + "/" + t
        t = re.sub(r"/+", "/", t)
        parts: list[str] = []
        for seg in t.split("/"):
            if seg == "..":
                if parts:
                    parts.pop()
            elif seg and seg != ".":
                parts.append(seg)
        target = cur = "/" + "/".join(parts)
    return target


def find_toolkits(system) -> tuple[list[CudaToolkit], Optional[str], bool]:
    """(toolkits, where /usr/local/cuda points, whether that target is missing)."""
    entries = system.list_dir(CUDA_ROOT) or []
    toolkits: list[CudaToolkit] = []
    for e in entries:
        m = _DIR.match(e)
        if not m:
            continue
        path = f"{CUDA_ROOT}/{e}"
        if system.readlink(path) is not None:  # cuda-12 → cuda-12.4 style aliases
            continue
        v = parse_version_json(system.read_text(f"{path}/version.json"))
        src = "version.json"
        if v is None:
            v = parse_version_txt(system.read_text(f"{path}/version.txt"))
            src = "version.txt"
        if v is None:
            v, src = m.group(1), "dir_name"
        toolkits.append(CudaToolkit(path=path, version=v, source=src))
    active = resolve_link(system, f"{CUDA_ROOT}/cuda")
    dangling = bool(active) and not system.exists(active)
    if active is None and "cuda" in entries:  # a real directory, not a link
        v = parse_version_json(system.read_text(f"{CUDA_ROOT}/cuda/version.json")) or parse_version_txt(system.read_text(f"{CUDA_ROOT}/cuda/version.txt"))
        toolkits.append(CudaToolkit(path=f"{CUDA_ROOT}/cuda", version=v, source="version.json" if v else "dir_name"))
        active = f"{CUDA_ROOT}/cuda"
    toolkits.sort(key=lambda t: tuple(int(x) for x in re.findall(r"\d+", t.version or "0")[:3]))
    return toolkits, active, dangling


def find_uninstallers(system, toolkits: list[CudaToolkit]) -> list[str]:
    out = []
    for t in toolkits:
        for e in system.list_dir(f"{t.path}/bin") or []:
            if re.match(r"^cuda-uninstall(er)?$|^uninstall_cuda_.*\.pl$", e):
                out.append(f"{t.path}/bin/{e}")
    return out
