"""cuDNN as a system package, only when chosen (PyTorch's wheels bring their own cuDNN)."""
from __future__ import annotations

from app.choices import Choices
from app.facts import Facts
from app.recommendation import Recommendation

from .common import APT_ENV, UPDATE_INDEX, package_manager, toolkit_version
from .model import Check, Step, coded_step


def cudnn_package(rec: Recommendation, choices: Choices) -> str | None:
    if rec.cudnn.package:
        return rec.cudnn.package
    v = toolkit_version(rec, choices) or (rec.pytorch.cuda_runtime or "")
    major = (rec.cudnn.version or "9").split(".")[0]
    cuda_major = v.split(".")[0] if v else None
    return f"cudnn{major}-cuda-{cuda_major}" if cuda_major else None


def build_cudnn_steps(facts: Facts, rec: Recommendation, choices: Choices) -> list[Step]:
    if not choices.want_system_cudnn or facts.os.platform != "linux":
        return []
    pkg = cudnn_package(rec, choices)
    pm = package_manager(facts)
    if not pkg or pm not in ("apt", "dnf", "yum"):
        return []
    cmd: tuple[str, ...]
    if pm == "apt":
        cmd, done, env = ("apt-get", "install", "-y", "--no-install-recommends", pkg), Check("dpkg_installed", (pkg,)), dict(APT_ENV)
    else:
        cmd, done, env = ("dnf", "-y", "install", pkg), Check("rpm_installed", (pkg,)), {}
    return [coded_step("install_cudnn", "install_cudnn", "install_cudnn", "install_cudnn_why", {"package": pkg},
                       needs_root=True, weight=8, timeout_s=1800, env=env, commands=(cmd,), done_when=(done,),
                       after=(UPDATE_INDEX,))]  # NVIDIA's repository carries the cudnn packages
