"""CUDA toolkit: the versioned `cuda-toolkit-X-Y` package (never the `cuda` or `cuda-drivers`
metapackages, which pull in a driver: fatal on WSL2), or NVIDIA's runfile for offline machines."""
from __future__ import annotations

import os

from app.choices import Choices
from app.facts import Facts
from app.recommendation import Recommendation

from .common import APT_ENV, UPDATE_INDEX, package_manager, toolkit_package, toolkit_version
from .model import Check, Download, Step, coded_step

RUNFILE_FREE_MIB = 12_000  # the runfile is ~4-5 GiB and unpacks to ~7 GiB
FORBIDDEN_PACKAGES = ("cuda", "cuda-drivers")


def wants_toolkit(rec: Recommendation, choices: Choices) -> bool:
    return bool(choices.want_toolkit or rec.cuda_toolkit.wanted)


def build_toolkit_steps(facts: Facts, rec: Recommendation, choices: Choices) -> list[Step]:
    if not wants_toolkit(rec, choices) or facts.os.platform != "linux":
        return []
    version = toolkit_version(rec, choices)
    if version is None:
        return []
    prefix = f"/usr/local/cuda-{version}"
    if choices.install_method == "runfile":
        url = rec.cuda_toolkit.runfile_url
        if not url:
            return []
        name = os.path.basename(url.split("?", 1)[0]) or f"cuda_{version}_linux.run"
        checksum_url = None
        if not rec.cuda_toolkit.runfile_sha256:
            # NVIDIA publishes the runfiles' checksums next to them: <release>/docs/sidebar/md5sum.txt
            checksum_url = url.rsplit("/local_installers/", 1)[0] + "/docs/sidebar/md5sum.txt" if "/local_installers/" in url else None
        return [coded_step(
            "install_cuda_toolkit", "run_runfile", "install_cuda_toolkit_runfile", "install_cuda_toolkit_runfile_why",
            {"version": version}, needs_root=True, weight=30, timeout_s=3600,
            downloads=(Download(name=name, url=url, sha256=rec.cuda_toolkit.runfile_sha256, checksum_url=checksum_url,
                                min_free_mib=RUNFILE_FREE_MIB),),
            commands=(("sh", f"@download:{name}", "--silent", "--toolkit", f"--toolkitpath={prefix}"),),
            done_when=(Check("path_exists", (f"{prefix}/bin/nvcc",)),),
        )]
    pm = package_manager(facts)
    pkg = rec.cuda_toolkit.package or toolkit_package(version)
    if pkg in FORBIDDEN_PACKAGES:  # never the metapackages: they install a driver
        pkg = toolkit_package(version)
    cmd: tuple[str, ...]
    if pm == "apt":
        cmd, done, env = ("apt-get", "install", "-y", "--no-install-recommends", pkg), Check("dpkg_installed", (pkg,)), dict(APT_ENV)
    elif pm in ("dnf", "yum"):
        cmd, done, env = ("dnf", "-y", "install", pkg), Check("rpm_installed", (pkg,)), {}
    else:
        return []
    # the versioned package comes from NVIDIA's repository: after its index is refreshed
    return [coded_step("install_cuda_toolkit", "install_toolkit", "install_cuda_toolkit", f"install_cuda_toolkit_{'apt' if pm == 'apt' else 'dnf'}_why",
                       {"version": version, "package": pkg}, needs_root=True, weight=25, timeout_s=3600, env=env,
                       commands=(cmd,), done_when=(done,), after=(UPDATE_INDEX,))]
