"""PyTorch: create (or reuse) a venv at the chosen path, install the recommended packages from the
chosen index with pip (or uv), then a first check that torch imports and sees the GPU."""
from __future__ import annotations

import re
from urllib.parse import urlparse
from typing import Optional

from app.choices import Choices
from app.facts import Facts, PythonEnv
from app.recommendation import Recommendation

from app.install_command import InstallCommand, mirror_env, torch_install, uv_executable

from .common import APT_ENV, PYTORCH_WHL, expand_venv, package_manager, rec_params, venv_python
from .model import Check, Step, coded_step

VENV_CHECK = "import ensurepip, venv"  # what `python -m venv` needs to put pip into the new venv

# Constant script; its only input is argv[1] ("cuda" or "cpu"), never code built from input.
VERIFY_SCRIPT = """\
import sys
import torch
want = sys.argv[1] if len(sys.argv) > 1 else "cpu"
print("torch", torch.__version__, "cuda", torch.version.cuda)
x = torch.ones(256, 256)
assert float((x @ x).sum()) == 256.0 ** 3, "matrix multiply gave a wrong answer"
if want == "cuda":
    if not torch.cuda.is_available():
        sys.exit("torch cannot use the GPU: torch.cuda.is_available() is False")
    for i in range(torch.cuda.device_count()):
        y = torch.ones(1024, 1024, device=f"cuda:{i}")
        assert float((y @ y).sum().item()) == 1024.0 ** 3
        print("gpu", i, torch.cuda.get_device_name(i), "ok")
print("ok")
"""


def torch_packages(rec: Recommendation, choices: Choices) -> tuple[str, ...]:
    """The recommendation's packages (recommend() already honoured or refused choices.torch_version, with its
    matching torchvision); a bare torch==version only for a recommendation without packages."""
    if rec.pytorch.packages:
        return tuple(rec.pytorch.packages)
    version = choices.torch_version or rec.pytorch.version
    return (f"torch=={version}",) if version else ()


def index_url(rec: Recommendation, choices: Choices) -> str | None:
    url = rec.pytorch.index_url
    if choices.torch_variant and choices.torch_variant != rec.pytorch.index:
        url = f"{PYTORCH_WHL}/{choices.torch_variant}"
    return mirrored(url, choices) if url else url


def variant_index_url(variant: str, choices: Choices) -> str:
    """PyTorch's index of one build ("cu118"), through the configured mirror."""
    return mirrored(f"{PYTORCH_WHL}/{variant}", choices)


def mirrored(url: str, choices: Choices) -> str:
    """A PyTorch index URL on the configured mirror (choices.mirrors.pytorch_index_url), else as it is."""
    if choices.mirrors.pytorch_index_url and url.startswith(PYTORCH_WHL):
        return choices.mirrors.pytorch_index_url.rstrip("/") + url[len(PYTORCH_WHL):]
    return url


def install_command(py: str, pkgs: tuple[str, ...], rec: Recommendation, choices: Choices, uv: str | None,
                    force_reinstall: bool = False, no_cache: bool = False) -> InstallCommand:
    """The install step's command: app.install_command's one builder (the Recommendation shows the same)."""
    return torch_install(py, pkgs, index_url(rec, choices), choices.mirrors, uv=uv, force_reinstall=force_reinstall,
                         no_cache=no_cache)


def install_argv(py: str, pkgs: tuple[str, ...], rec: Recommendation, choices: Choices, uv: str | None) -> tuple[str, ...]:
    return install_command(py, pkgs, rec, choices, uv).argv


def _base_env(facts: Facts) -> Optional[PythonEnv]:
    """The detected Python the venv is made from (the selected one, or the system's when the
    selected one is itself a venv)."""
    if facts.python and facts.python.kind != "venv":
        return facts.python
    return next((p for p in facts.pythons if p.kind == "system"), None)


def python_tools_step(facts: Facts, base_python: str) -> Optional[Step]:
    """Debian/Ubuntu ship ensurepip (which puts pip into a new venv) in pythonX.Y-venv: when the
    base Python lacks it, install that package first (a root step, skipped once it imports)."""
    env = _base_env(facts)
    if env is None or env.venv_ok is not False or package_manager(facts) != "apt":
        return None
    parts = (env.version or "").split(".")
    pkg = f"python{parts[0]}.{parts[1]}-venv" if len(parts) >= 2 and all(p.isdigit() for p in parts[:2]) else "python3-venv"
    return coded_step(
        "install_python_venv", "install_python_tools", "install_python_venv", "install_python_venv_why",
        {"package": pkg, "python": base_python}, needs_root=True, weight=2, timeout_s=1800,
        commands=(("apt-get", "update"), ("apt-get", "install", "-y", pkg)),
        done_when=(Check("command_ok", (base_python, "-c", VENV_CHECK)),), env=dict(APT_ENV))


def build_pytorch_steps(facts: Facts, rec: Recommendation, choices: Choices) -> list[Step]:
    pkgs = torch_packages(rec, choices)
    if not pkgs:
        return []
    venv = expand_venv(choices.venv_path, facts)
    plat = "windows" if facts.os.platform == "windows" else "linux"
    py = venv_python(venv, plat)
    base_python = facts.python.path if facts.python and facts.python.kind != "venv" else None
    base_python = base_python or ("python" if plat == "windows" else "python3")
    uv = uv_executable() if choices.installer == "uv" else None
    env = mirror_env(choices.mirrors)
    create = (uv, "venv", "--python", base_python, venv) if uv else (base_python, "-m", "venv", venv)
    # a venv is done when it works: with pip, `python -m pip` must run (a venv made before
    # python3-venv was installed has no pip; running `python -m venv` on it again repairs it in
    # place, keeping its packages); uv installs from outside, so its venv only needs its Python
    venv_done = (Check("path_exists", (py,)),) if uv else (Check("command_ok", (py, "-m", "pip", "--version")),)
    tools = None if uv or plat == "windows" else python_tools_step(facts, base_python)
    idx = index_url(rec, choices)
    want = "cuda" if (rec.pytorch.index or "").startswith("cu") and facts.gpus else "cpu"
    params = {"packages": ", ".join(p.split('==')[0] for p in pkgs), "index": rec.pytorch.index or "default"}
    if rec.pytorch.reason:
        params.update(reason=rec.pytorch.reason, **rec_params("reason", rec.pytorch.reason_code, rec.pytorch.reason_params))
    else:
        params["reason_code"] = "install_pytorch_reason_default"
    if idx:
        params["url"] = idx
    return ([tools] if tools else []) + [
        coded_step("create_venv", "create_venv", "create_venv", "create_venv_why", {"venv": venv}, weight=2, timeout_s=300,
                   commands=(create,), done_when=venv_done, env=env, after=(tools.id,) if tools else ()),
        coded_step("install_pytorch", "install_pytorch", "install_pytorch", "install_pytorch_why_url" if idx else "install_pytorch_why",
                   params, weight=15, timeout_s=3600, commands=(install_argv(py, pkgs, rec, choices, uv),),
                   done_when=(Check("python_packages", (py, *pkgs)),), env=env, after=("create_venv",)),
        coded_step("verify_pytorch", "verify", f"verify_pytorch_{want}", f"verify_pytorch_{want}_why", weight=2, timeout_s=600,
                   commands=((py, "-c", VERIFY_SCRIPT, want),), done_when=(Check("never"),), after=("install_pytorch",)),
    ]


# pip's (and uv's) words when the index cannot be reached; the fixtures in tests/fixtures/run are real
_TLS = re.compile(r"CERTIFICATE_VERIFY_FAILED|SSLError|problem confirming the ssl certificate|invalid peer certificate", re.I)
_PROXY = re.compile(r"ProxyError|Cannot connect to proxy|Tunnel connection failed", re.I)
_NET = re.compile(r"NewConnectionError|Failed to establish a new connection|Name or service not known|"
                  r"Temporary failure in name resolution|Network is unreachable|Connection refused|"
                  r"ConnectTimeoutError|Read timed out|Max retries exceeded|Could not fetch URL|dns error|"
                  r"error sending request", re.I)
_INDEX = re.compile(r"(?:Looking in indexes:|Could not fetch URL)\s+(https?://[^\s,:]+(?::\d+)?[^\s,]*)")


def unreachable_hint(step: Step, output: str) -> Optional[tuple[str, dict[str, str]]]:
    """When a PyTorch install failed because pip could not reach its index: (cli.<code>, params)
    of the sentence naming the host and the settings that get past it (a mirror, a proxy, the
    network's CA bundle). None for any other failure."""
    if step.kind != "install_pytorch" or not output:
        return None
    if _TLS.search(output):
        code = "pip_unreachable_tls"
    elif _PROXY.search(output):
        code = "pip_unreachable_proxy"
    elif _NET.search(output):
        code = "pip_unreachable"
    else:
        return None
    m = _INDEX.search(output)
    url = step.params.get("url") or (m.group(1) if m else "")
    host = urlparse(m.group(1) if m else url).hostname or urlparse(url).hostname or "the package index"
    return code, {"host": host}
