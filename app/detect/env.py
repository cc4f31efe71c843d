"""Environment: CUDA variables, CUDA lines in shell start-up files, /etc/ld.so.conf.d entries."""
from __future__ import annotations

import re
from typing import Optional

from app.facts import EnvLine, LdConfEntry

# the network settings app.config reads from an environment (its PROXY_VARS, CA_VARS, INDEX_VARS: detection never
# imports it; tests/unit/test_snapshot_network.py holds them together): recorded, so a snapshot's plan carries its
# own machine's settings, never the viewer's
CA_VARS = ("REQUESTS_CA_BUNDLE", "SSL_CERT_FILE", "PIP_CERT")  # in the order the first set one wins
NETWORK_VARS = ("HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", *CA_VARS, "PIP_INDEX_URL")
VARIABLES = ("CUDA_HOME", "CUDA_PATH", "CUDA_ROOT", "PATH", "LD_LIBRARY_PATH", "CUDA_VISIBLE_DEVICES",
             "CUDA_DEVICE_ORDER", "HOME", "VIRTUAL_ENV", "CONDA_PREFIX", "container", *NETWORK_VARS)
LD_CONF_DIR = "/etc/ld.so.conf.d"
_CUDA_LINE = re.compile(r"cuda|cudnn|nvidia", re.I)


def cuda_lines(path: str, text: Optional[str]) -> list[EnvLine]:
    out = []
    for i, line in enumerate((text or "").splitlines(), start=1):
        s = line.strip()
        if s and not s.startswith("#") and _CUDA_LINE.search(s):
            out.append(EnvLine(file=path, line_no=i, text=s[:300]))
    return out


def parse_ld_conf(text: Optional[str]) -> list[str]:
    out = []
    for line in (text or "").splitlines():
        s = line.split("#", 1)[0].strip()
        if s and not s.startswith("include") and s.startswith("/"):
            out.append(s)
    return out


_CUDA_DIR = re.compile(r"^/usr/local/(cuda(?:-\d+(?:\.\d+)?)?)(?:/|$)")


def cuda_dir_of(path: str) -> Optional[str]:
    """'/usr/local/cuda-11.8/lib64' → '/usr/local/cuda-11.8'."""
    m = _CUDA_DIR.match(path or "")
    return f"/usr/local/{m.group(1)}" if m else None


def classify_path(path: str, active: Optional[str], exists: bool) -> str:
    """LdConfEntry.status for one library path."""
    if not exists:
        return "missing"
    d = cuda_dir_of(path)
    if d is None:
        return "ok"
    if d == "/usr/local/cuda" or (active and (d == active or active.startswith(d + "."))):
        return "active"
    return "other_cuda" if active else "ok"


def ld_conf_entries(system, active: Optional[str]) -> list[LdConfEntry]:
    out = []
    for name in system.list_dir(LD_CONF_DIR) or []:
        if not name.endswith(".conf"):
            continue
        f = f"{LD_CONF_DIR}/{name}"
        for p in parse_ld_conf(system.read_text(f)):
            if not _CUDA_LINE.search(p):
                continue
            out.append(LdConfEntry(file=f, path=p, status=classify_path(p, active, system.exists(p))))  # type: ignore[arg-type]
    return out
