"""NVIDIA's package repository: the keyring package for the distro, an optional mirror, the index update."""
from __future__ import annotations

from app.choices import Choices
from app.facts import Facts
from app.recommendation import Recommendation

from .common import (APT_ENV, KEYRING_DEB, KEYRING_GPG, distro_repo, package_manager, repo_arch,
                     repo_base_url)
from .model import Check, Download, Edit, Step


def apt_sources_file(repo: str, arch: str) -> str:
    # the same file NVIDIA's cuda-keyring package installs, so a mirror replaces it in place
    return f"/etc/apt/sources.list.d/cuda-{repo}-{arch}.list"


def _dnf_add_repo(facts: Facts, url: str) -> tuple[str, ...]:
    """dnf 4 (RHEL 8/9, Fedora < 41) takes --add-repo; dnf 5 (Fedora 41+) takes addrepo --from-repofile."""
    major = (facts.os.version_id or "0").split(".")[0]
    if (facts.os.id or "").lower() == "fedora" and major.isdigit() and int(major) >= 41:
        return ("dnf", "config-manager", "addrepo", f"--from-repofile={url}")
    return ("dnf", "config-manager", "--add-repo", url)


def build_repo_steps(facts: Facts, rec: Recommendation, choices: Choices) -> list[Step]:
    repo = distro_repo(facts, rec)
    base = repo_base_url(facts, rec, choices)
    pm = package_manager(facts)
    if repo is None or base is None or pm is None:
        return []
    arch = repo_arch(facts)
    steps: list[Step] = []
    if pm == "apt":
        keyring_url = f"{base}/{KEYRING_DEB}"
        if rec.cuda_toolkit.keyring_url and not choices.mirrors.nvidia_repo_url:
            keyring_url = rec.cuda_toolkit.keyring_url
        steps.append(Step(
            id="add_nvidia_repo", kind="add_repo", needs_root=True, weight=2, timeout_s=300,
            title=f"Add NVIDIA's package repository ({repo})",
            title_code="add_nvidia_repo", why_code="add_nvidia_repo_apt_why", params={"repo": repo},
            why="NVIDIA publishes the CUDA packages in its own repository; its keyring package lets apt "
                "check that every package really comes from NVIDIA.",
            downloads=(Download(name=KEYRING_DEB, url=keyring_url, checksum_url=f"{base}/Packages"),),
            commands=(("dpkg", "-i", f"@download:{KEYRING_DEB}"),),
            done_when=(Check("dpkg_installed", ("cuda-keyring",)), Check("path_exists", (KEYRING_GPG,))),
        ))
        if choices.mirrors.nvidia_repo_url:
            path = apt_sources_file(repo, arch)
            line = f"deb [signed-by={KEYRING_GPG}] {base}/ /\n"
            steps.append(Step(
                id="set_nvidia_repo_mirror", kind="set_repo_mirror", needs_root=True,
                title="Use your mirror for NVIDIA's repository",
                title_code="set_nvidia_repo_mirror", why_code="set_nvidia_repo_mirror_why",
                params={"url": choices.mirrors.nvidia_repo_url},
                why=f"Packages come from {choices.mirrors.nvidia_repo_url} instead of NVIDIA's server; "
                    "they are still checked against NVIDIA's signing key.",
                edits=(Edit(path=path, mode="write", content="# Written by GPU Setup Wizard (mirror of NVIDIA's CUDA repository)\n" + line),),
                backups=(path,),
                done_when=(Check("file_contains", (path, line.strip())),),
            ))
        steps.append(Step(
            id="update_package_index", kind="update_index", needs_root=True, weight=3, timeout_s=900,
            title="Refresh the package index", env=dict(APT_ENV),
            title_code="update_package_index", why_code="update_package_index_apt_why",
            why="apt must read the new repository's package list before it can install from it.",
            commands=(("apt-get", "update"),),
        ))
    elif pm in ("dnf", "yum"):
        repo_file = f"/etc/yum.repos.d/cuda-{repo}.repo"
        if choices.mirrors.nvidia_repo_url:
            # packages from the mirror are checked against NVIDIA's own key, fetched from NVIDIA (a mirror
            # serving its own key would decide what is trusted); the helper writes exactly this text
            content = (f"[cuda-{repo}-{arch}]\nname=cuda-{repo}-{arch} (mirror)\nbaseurl={base}\nenabled=1\n"
                       f"gpgcheck=1\ngpgkey=https://developer.download.nvidia.com/compute/cuda/repos/{repo}/{arch}/D42D0685.pub\n")
            steps.append(Step(
                id="add_nvidia_repo", kind="add_repo", needs_root=True,
                title=f"Add NVIDIA's package repository ({repo}, your mirror)",
                title_code="add_nvidia_repo_mirror", why_code="add_nvidia_repo_dnf_why", params={"repo": repo},
                why="NVIDIA publishes the CUDA packages in its own repository; dnf checks them against NVIDIA's key.",
                edits=(Edit(path=repo_file, content=content),), backups=(repo_file,),
                done_when=(Check("path_exists", (repo_file,)),),
            ))
        else:
            steps.append(Step(
                id="add_nvidia_repo", kind="add_repo", needs_root=True,
                title=f"Add NVIDIA's package repository ({repo})",
                title_code="add_nvidia_repo", why_code="add_nvidia_repo_dnf_why", params={"repo": repo},
                why="NVIDIA publishes the CUDA packages in its own repository; dnf checks them against NVIDIA's key.",
                commands=(_dnf_add_repo(facts, f"{base}/cuda-{repo}.repo"),),
                done_when=(Check("path_exists", (repo_file,)),),
            ))
        steps.append(Step(
            id="update_package_index", kind="update_index", needs_root=True, weight=3, timeout_s=900,
            title="Refresh the package index",
            title_code="update_package_index", why_code="update_package_index_dnf_why",
            why="dnf must read the new repository's package list before it can install from it.",
            commands=(("dnf", "-y", "makecache"),),
        ))
    return steps
