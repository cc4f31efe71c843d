"""Python interpreters and venvs, and the torch probe: the selected interpreter runs a short
script in a subprocess (with a timeout) that prints one JSON line about its torch."""
from __future__ import annotations

import re
from typing import Any, Optional

from app import fileio
from app.facts import TorchInfo
from app.pythons import (  # their home: app/pythons.py (light, for app/cli.py's early start)
    PROBE_SCRIPT as PROBE_SCRIPT,
    candidates as candidates,
    needs_probe as needs_probe,
    probe_argv as probe_argv,
    version_from_path as version_from_path,
)

TORCH_TIMEOUT_S = 90.0
# Printed by the target interpreter; never imported here.
TORCH_SCRIPT = (
    "import json,sys\n"
    "out={'python':sys.version.split()[0]}\n"
    "try:\n"
    " import torch\n"
    "except Exception as e:\n"
    " out['error']='torch not importable: %s: %s'%(type(e).__name__,e)\n"
    " print(json.dumps(out));sys.exit(0)\n"
    "out['version']=torch.__version__;out['cuda']=torch.version.cuda\n"
    "try:\n"
    " out['cudnn']=torch.backends.cudnn.version()\n"
    "except Exception:\n"
    " out['cudnn']=None\n"
    "try:\n"
    " out['available']=bool(torch.cuda.is_available());out['device_count']=torch.cuda.device_count()\n"
    " out['arch_list']=list(torch.cuda.get_arch_list())\n"
    " out['capabilities']=[list(torch.cuda.get_device_capability(i)) for i in range(out['device_count'])]\n"
    "except Exception as e:\n"
    " out['error']='%s: %s'%(type(e).__name__,e)\n"
    "print(json.dumps(out))\n"
)


VENV_SCRIPT = "import ensurepip, venv"


def venv_argv(python: str) -> list[str]:
    """The check older snapshots recorded (a snapshot answers only the argv it holds)."""
    return [python, "-c", VENV_SCRIPT]


def parse_probe(rc: int, stdout: str) -> tuple[Optional[str], Optional[bool]]:
    """(version, venv_ok) from PROBE_SCRIPT's two lines; None where the interpreter did not say."""
    if rc != 0:
        return None, None
    lines = (stdout or "").splitlines()
    version = parse_python_version(lines[0]) if lines else None
    last = lines[-1].strip() if len(lines) > 1 else ""
    venv_ok = True if last == "venv ok" else (False if last.startswith("venv missing") else None)
    return version, venv_ok


def parse_venv_check(rc: int, stderr: str) -> Optional[bool]:
    """True: ensurepip and venv import; False: one of them is missing; None: could not tell."""
    if rc == 0:
        return True
    if rc == 1 and re.search(r"No module named '?(ensurepip|venv)", stderr or ""):
        return False
    return None


def torch_argv(python: str) -> list[str]:
    return [python, "-c", TORCH_SCRIPT]


def parse_python_version(text: str) -> Optional[str]:
    """'Python 3.13.1' -> '3.13.1'; a free-threaded build keeps its 't' ('3.13.1t'): `python -VV` and
    sys.version say 'free-threading build', and a version printed as '3.13.1t' stays so."""
    m = re.search(r"Python\s+(\d+\.\d+(?:\.\d+)?)(t?)", text or "")
    if not m:
        return None
    ft = m.group(2) or ("t" if re.search(r"free-threading|freethreading|nogil", text or "", re.I) else "")
    return m.group(1) + ft


from app.compat.arch import arch_covers  # noqa: E402,F401  (one home for arch coverage)


def parse_torch_probe(stdout: str, gpu_ccs: list[Optional[str]]) -> TorchInfo:
    line = next((ln for ln in reversed((stdout or "").splitlines()) if ln.strip().startswith("{")), "")
    try:
        data: dict[str, Any] = fileio.loads(line)
    except ValueError:
        return TorchInfo(error=f"the torch probe printed no result: {(stdout or '').strip()[:200]}")
    if not isinstance(data, dict):
        return TorchInfo(error="the torch probe printed an unexpected result")
    cudnn = data.get("cudnn")
    if isinstance(cudnn, int) and cudnn > 0:  # 91900 → 9.19.0, 8902 → 8.9.2
        cudnn = f"{cudnn // 10000}.{cudnn // 100 % 100}.{cudnn % 100}" if cudnn >= 10000 else f"{cudnn // 1000}.{cudnn // 100 % 10}.{cudnn % 100}"
    arch = tuple(a for a in data.get("arch_list") or () if isinstance(a, str))
    ccs = [c for c in gpu_ccs if c]
    caps = data.get("capabilities") or []
    if not ccs and caps:
        ccs = [f"{c[0]}.{c[1]}" for c in caps if isinstance(c, list) and len(c) == 2]
    covers = None
    if ccs and arch:
        covers = all(arch_covers(arch, c) for c in ccs)
    return TorchInfo(version=data.get("version"), cuda=data.get("cuda"), cudnn=cudnn if isinstance(cudnn, str) else None,
                     available=data.get("available"), device_count=data.get("device_count"), arch_list=arch,
                     covers_all_gpus=covers, error=data.get("error"))


def resolve_python(name: Optional[str]) -> Optional[str]:
    """`--python python3`: a bare name is looked up on PATH (as a shell would); a path is kept as given."""
    import os
    import shutil

    if not name or os.sep in name or (os.altsep and os.altsep in name):
        return name
    return shutil.which(name) or name
