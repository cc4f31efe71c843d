"""Small helpers the step builders share: NVIDIA repository names and URLs, paths."""
from __future__ import annotations

import os
import re
from typing import Optional

from app.choices import Choices
from app.facts import Facts
from app.recommendation import Recommendation

NVIDIA_REPOS = "https://developer.download.nvidia.com/compute/cuda/repos"
PYTORCH_WHL = "https://download.pytorch.org/whl"
KEYRING_DEB = "cuda-keyring_1.1-1_all.deb"
KEYRING_GPG = "/usr/share/keyrings/cuda-archive-keyring.gpg"
CUDA_LINK = "/usr/local/cuda"
PROFILE_FILE = "/etc/profile.d/cuda.sh"
LDCONF_FILE = "/etc/ld.so.conf.d/000-gpu-wizard-cuda.conf"
NOUVEAU_FILE = "/etc/modprobe.d/blacklist-nouveau.conf"
APT_ENV = {"DEBIAN_FRONTEND": "noninteractive"}
# Where a CUDA toolkit may live; cleanup never deletes a folder outside these.
CUDA_DIR_RE = re.compile(r"^/(usr/local|opt)/cuda(-\d+(\.\d+){0,2})?$")


def distro_repo(facts: Facts, rec: Optional[Recommendation] = None) -> Optional[str]:
    """NVIDIA's repository name for this OS: ubuntu2204, debian12, rhel9, fedora41, wsl-ubuntu."""
    if rec is not None and rec.cuda_toolkit.repo:
        return rec.cuda_toolkit.repo
    o = facts.os
    if o.wsl == 2:
        return "wsl-ubuntu"
    ident = (o.id or "").lower()
    like = {x.lower() for x in o.id_like}
    ver = o.version_id or ""
    major = ver.split(".")[0]
    if ident == "ubuntu" and re.fullmatch(r"\d\d\.04", ver):
        return "ubuntu" + ver.replace(".", "")
    if ident == "debian" and major.isdigit():
        return f"debian{major}"
    if ident in ("rhel", "rocky", "almalinux", "centos", "ol") or "rhel" in like:
        return f"rhel{major}" if major.isdigit() else None
    if ident == "fedora" and major.isdigit():
        return f"fedora{major}"
    if ident in ("opensuse-leap", "sles"):
        return f"{'sles' if ident == 'sles' else 'opensuse'}{major}"
    return None


UPDATE_INDEX = "update_package_index"  # the step after which packages from NVIDIA's repository can be installed


def driver_from_nvidia_repo(facts: Facts, rec: Recommendation) -> bool:
    """Whether the driver's packages come from NVIDIA's repository (which must then be added first): the
    compat data says so per distribution (driver_packages "from_repo"); without it, only Ubuntu's own
    archive carries the driver (app.plan.driver.driver_packages names NVIDIA's packages elsewhere)."""
    if rec.driver.package_repo:
        return rec.driver.package_repo == "nvidia"
    return (facts.os.id or "").lower() != "ubuntu"


def repo_arch(facts: Facts) -> str:
    arch = (facts.os.arch or "x86_64").lower()
    return {"x86_64": "x86_64", "amd64": "x86_64", "aarch64": "sbsa", "arm64": "sbsa"}.get(arch, arch)


def repo_base_url(facts: Facts, rec: Recommendation, choices: Choices) -> Optional[str]:
    repo = distro_repo(facts, rec)
    if repo is None:
        return None
    if choices.mirrors.nvidia_repo_url:
        return f"{choices.mirrors.nvidia_repo_url.rstrip('/')}/{repo}/{repo_arch(facts)}"
    if rec.cuda_toolkit.repo_url:
        return rec.cuda_toolkit.repo_url.rstrip("/")
    return f"{NVIDIA_REPOS}/{repo}/{repo_arch(facts)}"


def package_manager(facts: Facts) -> Optional[str]:
    if facts.os.package_manager:
        return facts.os.package_manager
    ident = (facts.os.id or "").lower()
    like = {x.lower() for x in facts.os.id_like}
    if ident in ("ubuntu", "debian") or "debian" in like or "ubuntu" in like:
        return "apt"
    if ident in ("rhel", "rocky", "almalinux", "centos", "fedora", "ol") or like & {"rhel", "fedora"}:
        return "dnf"
    return None


def toolkit_version(rec: Recommendation, choices: Choices) -> Optional[str]:
    """'12.8' from the recommendation (the toolkit the wheel's runtime matches)."""
    v = rec.cuda_toolkit.version
    if v:
        return ".".join(v.split(".")[:2])
    if rec.cuda_toolkit.package:
        m = re.search(r"(\d+)-(\d+)$", rec.cuda_toolkit.package)
        if m:
            return f"{m.group(1)}.{m.group(2)}"
    return None


def toolkit_package(version: str) -> str:
    major, minor = version.split(".")[:2]
    return f"cuda-toolkit-{major}-{minor}"


from app.install_command import expand_venv, venv_python  # noqa: E402,F401  (one home: the install command's builder)


def edit_needs_root(path: str) -> bool:
    """Files in a user's home are edited by the wizard's own (user) process; everything else goes
    through the helper. Detection reads the rc files of the user running the wizard."""
    home = os.path.expanduser("~").rstrip("/")
    return not (path.startswith(home + "/") or path.startswith("/home/"))


def said_notes(*items: tuple[str, dict]) -> dict:
    """A step's notes from their codes and figures (catalogue "plan.<code>"): Step(**said_notes(...)) sets
    `notes` (the English) and `note_codes` together."""
    from app import messages

    from .model import Note

    codes = tuple(Note(code=c, params={k: str(v) for k, v in p.items() if v is not None}) for c, p in items)
    return {"notes": tuple(messages.render("plan", n.code, n.params, "en", fallback=n.code) for n in codes), "note_codes": codes}


def rec_params(name: str, code, params: dict) -> dict[str, str]:
    """A recommendation sentence inside a step's text (Step.params): its code as "<name>_rec_code" and its
    figures as "<name>.<figure>", so the GUI can say it in its language (ui.i18n.plan_text)."""
    if not code:
        return {}
    return {f"{name}_rec_code": code, **{f"{name}.{k}": str(v) for k, v in (params or {}).items()}}
