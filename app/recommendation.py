"""Recommendation: what recommend() decided, with reasons. JSON shape is a public contract
(`gpu-wizard recommend --json`): add fields with defaults, never rename."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Optional

from app.model import Model


@dataclass(frozen=True)
class RecWarning(Model):
    code: str  # stable: "driver_too_old_for_newest", "gpu_dropped_by_newest", "mixed_gpus_not_covered",
    #            "python_too_new", "minor_version_compat_only", "plain_pip_wrong_build", ...
    message: str
    severity: Literal["error", "warning", "info"] = "warning"
    params: dict[str, str] = field(default_factory=dict)  # the figures/names in `message`, for translation (see REASON_CODES)


@dataclass(frozen=True)
class TorchChoice(Model):
    version: Optional[str] = None  # "2.9.1"; None when no release can run here
    index: Optional[str] = None  # "cu128" | "cpu" | None
    index_url: Optional[str] = None  # "https://download.pytorch.org/whl/cu128"
    packages: tuple[str, ...] = ()  # ("torch==2.9.1", "torchvision==0.24.1", "torchaudio==2.9.1")
    command: Optional[str] = None  # pip command, for display and copying
    uv_command: Optional[str] = None
    install_argv: tuple[str, ...] = ()  # the argv the plan's install step runs (command/uv_command show it): app.install_command
    cuda_runtime: Optional[str] = None  # CUDA runtime the wheel bundles, "12.8.1"
    cudnn: Optional[str] = None  # cuDNN the wheel bundles
    driver_compat: Optional[Literal["full", "minor"]] = None  # how the driver runs this runtime
    arch_list: tuple[str, ...] = ()  # the variant's architectures on this OS
    reason: str = ""
    torchvision: Optional[str] = None  # "0.24.1"
    torchaudio: Optional[str] = None  # None from torch 2.12 on (no more torchaudio releases)
    python: Optional[str] = None  # the Python "X.Y" this was solved for (None: unknown)
    platform: Optional[str] = None  # "linux" (x86_64) | "linux_aarch64" | "windows": which wheels (WSL2 uses Linux wheels)
    default_index: Optional[str] = None  # what plain `pip install torch` gives on this OS for this release
    reason_code: Optional[str] = None  # stable code of `reason`'s sentence (app.recommend.REASON_CODES), for translation
    reason_params: dict[str, str] = field(default_factory=dict)  # the figures/names in `reason`


@dataclass(frozen=True)
class DriverChoice(Model):
    action: Literal["keep", "upgrade", "install", "host", "none"] = "none"
    current_version: Optional[str] = None
    min_version: Optional[str] = None  # the least driver the chosen wheel needs (full or minor compat)
    branch: Optional[str] = None  # "580"
    package: Optional[str] = None  # "nvidia-driver-580-open"
    flavour: Optional[Literal["open", "proprietary"]] = None
    reason: str = ""
    max_branch: Optional[str] = None  # the last branch that supports every GPU ("470" for Kepler), None: no cap
    compat: Optional[Literal["full", "minor"]] = None  # how the (kept or target) driver runs the chosen wheel
    package_repo: Optional[Literal["distribution", "nvidia"]] = None  # nvidia: set up NVIDIA's CUDA repository first
    pin_package: Optional[str] = None  # install first to hold the branch ("nvidia-driver-pinning-580")
    reason_code: Optional[str] = None  # stable code of `reason`'s sentence (app.recommend.REASON_CODES), for translation
    reason_params: dict[str, str] = field(default_factory=dict)  # the figures/names in `reason`


@dataclass(frozen=True)
class ToolkitChoice(Model):
    wanted: bool = False  # False: optional, the wheel brings its own runtime
    version: Optional[str] = None  # "12.8"
    package: Optional[str] = None  # "cuda-toolkit-12-8"
    repo: Optional[str] = None  # "ubuntu2404", "wsl-ubuntu", "rhel9"
    repo_url: Optional[str] = None
    keyring_url: Optional[str] = None
    runfile_url: Optional[str] = None
    runfile_sha256: Optional[str] = None
    reason: str = ""
    max_version: Optional[str] = None  # newest CUDA the driver runs (the toolkit never goes past it)
    package_manager: Optional[str] = None  # "apt" | "dnf" | None (runfile / Windows installer)
    reason_code: Optional[str] = None  # stable code of `reason`'s sentence (app.recommend.REASON_CODES), for translation
    reason_params: dict[str, str] = field(default_factory=dict)  # the figures/names in `reason`


@dataclass(frozen=True)
class CudnnChoice(Model):
    version: Optional[str] = None
    source: Optional[Literal["wheel", "system"]] = None
    package: Optional[str] = None
    reason: str = ""
    reason_code: Optional[str] = None  # stable code of `reason`'s sentence (app.recommend.REASON_CODES), for translation
    reason_params: dict[str, str] = field(default_factory=dict)  # the figures/names in `reason`


@dataclass(frozen=True)
class Alternative(Model):
    torch_version: str
    index: str
    reason: str
    rank: int = 0
    index_url: Optional[str] = None
    driver_compat: Optional[Literal["full", "minor"]] = None
    needs_driver: Optional[str] = None  # least driver this alternative needs
    reason_code: Optional[str] = None  # stable code of `reason`'s sentence (app.recommend.ALTERNATIVE_CODES), for translation
    reason_params: dict[str, str] = field(default_factory=dict)  # the figures in `reason`


@dataclass(frozen=True)
class TorchOption(Model):
    """One PyTorch release x build on this OS, judged for this machine (for pickers: the GUI
    lists these and never decides compatibility itself)."""

    torch_version: str
    index: str  # "cu128" | "cpu"
    status: Literal["ok", "needs_driver", "no_kernels", "no_python", "driver_capped"]
    reason: str
    driver_compat: Optional[Literal["full", "minor"]] = None  # with the current driver, when status is ok
    needs_driver: Optional[str] = None  # least driver for this build
    cuda_runtime: Optional[str] = None
    recommended: bool = False
    reason_code: Optional[str] = None  # stable code of `reason`'s sentence (app.recommend.OPTION_CODES), for translation
    reason_params: dict[str, str] = field(default_factory=dict)  # the figures in `reason`


@dataclass(frozen=True)
class Recommendation(Model):
    pytorch: TorchChoice = TorchChoice()
    driver: DriverChoice = DriverChoice()
    cuda_toolkit: ToolkitChoice = ToolkitChoice()
    cudnn: CudnnChoice = CudnnChoice()
    warnings: tuple[RecWarning, ...] = ()
    alternatives: tuple[Alternative, ...] = ()
    refused: tuple[str, ...] = ()  # user choices refused, each with its reason
    db_version: Optional[str] = None  # which compat data bundle decided
    platform: Optional[str] = None  # "linux" | "windows" | "wsl"
    summary: str = ""  # one plain sentence
    # `refused` again, each with its stable code (app.recommend.REFUSAL_CODES) and figures, for translation:
    # refused_detail[i] is refused[i] (message: the English sentence)
    refused_detail: tuple[RecWarning, ...] = ()
