"""Choices: what the user decided (or overrode) between recommendation and plan."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Optional

from app.model import Model


@dataclass(frozen=True)
class Mirrors(Model):
    pypi_index_url: Optional[str] = None  # e.g. a company PyPI proxy
    pytorch_index_url: Optional[str] = None  # replaces https://download.pytorch.org/whl
    nvidia_repo_url: Optional[str] = None  # replaces https://developer.download.nvidia.com/compute/cuda/repos
    https_proxy: Optional[str] = None
    ca_bundle: Optional[str] = None  # path of a custom CA bundle (pip --cert, REQUESTS_CA_BUNDLE)


@dataclass(frozen=True)
class Choices(Model):
    torch_version: Optional[str] = None  # None: the recommended one
    torch_variant: Optional[str] = None  # "cu128", "cu126", "cpu"; None: recommended
    python_version: Optional[str] = None  # "3.12"; None: the detected target
    want_torchvision: bool = True  # False: torch alone (a release whose torchvision is not out yet is then allowed)
    want_toolkit: bool = False  # also install the CUDA toolkit (nvcc), for building extensions
    want_system_cudnn: bool = False
    install_driver: bool = True  # allow the plan to install/upgrade the driver (native Linux only)
    cleanup_old_cuda: bool = True
    install_method: Literal["apt", "dnf", "runfile"] = "apt"  # toolkit: package repository or runfile
    installer: Literal["pip", "uv"] = "pip"
    venv_path: str = "~/.venvs/gpu"  # where the PyTorch venv goes (expanded at plan time)
    wsl_distro: Optional[str] = None  # on a Windows host: the WSL distro the Linux side goes into (None: the default WSL 2 Ubuntu)
    mirrors: Mirrors = field(default_factory=Mirrors)
