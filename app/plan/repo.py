"""NVIDIA's package repository: the keyring package for the distro, an optional mirror, the index update."""
from __future__ import annotations

from app.choices import Choices
from app.facts import Facts
from app.recommendation import Recommendation

from .common import (APT_ENV, KEYRING_DEB, KEYRING_GPG, distro_repo, package_manager, repo_arch,
                     repo_base_url)
from .model import Check, Download, Edit, Step, coded_step


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
        steps.append(coded_step(
            "add_nvidia_repo", "add_repo", "add_nvidia_repo", "add_nvidia_repo_apt_why", {"repo": repo},
            needs_root=True, weight=2, timeout_s=300,
            downloads=(Download(name=KEYRING_DEB, url=keyring_url, checksum_url=f"{base}/Packages"),),
            commands=(("dpkg", "-i", f"@download:{KEYRING_DEB}"),),
            done_when=(Check("dpkg_installed", ("cuda-keyring",)), Check("path_exists", (KEYRING_GPG,))),
        ))
        if choices.mirrors.nvidia_repo_url:
            path = apt_sources_file(repo, arch)
            line = f"deb [signed-by={KEYRING_GPG}] {base}/ /\n"
            steps.append(coded_step(
                "set_nvidia_repo_mirror", "set_repo_mirror", "set_nvidia_repo_mirror", "set_nvidia_repo_mirror_why",
                {"url": choices.mirrors.nvidia_repo_url}, needs_root=True, after=("add_nvidia_repo",),
                edits=(Edit(path=path, mode="write", content="# Written by GPU Setup Wizard (mirror of NVIDIA's CUDA repository)\n" + line),),
                backups=(path,),
                done_when=(Check("file_contains", (path, line.strip())),),
            ))
        steps.append(_update_index("apt", ("apt-get", "update"), [s.id for s in steps], env=dict(APT_ENV)))
    elif pm in ("dnf", "yum"):
        repo_file = f"/etc/yum.repos.d/cuda-{repo}.repo"
        if choices.mirrors.nvidia_repo_url:
            # packages from the mirror are checked against NVIDIA's own key, fetched from NVIDIA (a mirror
            # serving its own key would decide what is trusted); the helper writes exactly this text
            content = (f"[cuda-{repo}-{arch}]\nname=cuda-{repo}-{arch} (mirror)\nbaseurl={base}\nenabled=1\n"
                       f"gpgcheck=1\ngpgkey=https://developer.download.nvidia.com/compute/cuda/repos/{repo}/{arch}/D42D0685.pub\n")
            steps.append(coded_step(
                "add_nvidia_repo", "add_repo", "add_nvidia_repo_mirror", "add_nvidia_repo_dnf_why", {"repo": repo},
                needs_root=True, edits=(Edit(path=repo_file, content=content),), backups=(repo_file,),
                done_when=(Check("path_exists", (repo_file,)),),
            ))
        else:
            steps.append(coded_step(
                "add_nvidia_repo", "add_repo", "add_nvidia_repo", "add_nvidia_repo_dnf_why", {"repo": repo},
                needs_root=True, commands=(_dnf_add_repo(facts, f"{base}/cuda-{repo}.repo"),),
                done_when=(Check("path_exists", (repo_file,)),),
            ))
        steps.append(_update_index("dnf", ("dnf", "-y", "makecache"), [s.id for s in steps]))
    return steps


def _update_index(pm: str, argv: tuple[str, ...], after: list[str], env: dict[str, str] | None = None) -> Step:
    """The package index refresh: after the repository (and its mirror) is in place, before any install from it."""
    return coded_step("update_package_index", "update_index", "update_package_index", f"update_package_index_{pm}_why",
                      needs_root=True, weight=3, timeout_s=900, env=env or {}, commands=(argv,), after=tuple(after))
