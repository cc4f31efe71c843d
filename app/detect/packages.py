"""Distro packages of the NVIDIA stack: `dpkg-query`/`dpkg -l` and `rpm -qa` output."""
from __future__ import annotations

import re
from typing import Optional

from app.facts import PackageInfo

_DPKG_FORMAT = "-f=${db:Status-Abbrev} ${binary:Package} ${Version}\n"
# Only the NVIDIA stack's names: faster than listing every package, and a snapshot stays small
# (dpkg-query exits 1 when a pattern matches nothing, and still lists the others).
DPKG_PATTERNS = ("cuda*", "libcuda*", "nvidia*", "libnvidia*", "libcudnn*", "cudnn*", "libnccl*", "nccl*", "tensorrt*",
                 "libnvinfer*", "xserver-xorg-video-nvidia*")
DPKG_ARGV = ["dpkg-query", "-W", _DPKG_FORMAT, *DPKG_PATTERNS]
DPKG_ARGV_ALL = ["dpkg-query", "-W", _DPKG_FORMAT]  # what snapshots recorded before 2026-11-29 hold
RPM_ARGV = ["rpm", "-qa", "--qf", "%{NAME} %{VERSION}-%{RELEASE}\n"]
_INTERESTING = re.compile(r"^(cuda|libcuda|nvidia|libnvidia|libcudnn|cudnn|libnccl|nccl|tensorrt|libnvinfer|xserver-xorg-video-nvidia|kmod-nvidia|akmod-nvidia|xorg-x11-drv-nvidia|dkms-nvidia)", re.I)


def interesting(name: str) -> bool:
    return bool(_INTERESTING.match(name))


def parse_dpkg(text: str) -> list[PackageInfo]:
    """`dpkg -l` rows ('ii  name  version  arch  desc') and DPKG_ARGV rows ('ii  name version');
    installed ('ii', 'hi') packages of the NVIDIA stack only."""
    out: list[PackageInfo] = []
    for line in (text or "").splitlines():
        parts = line.split()
        if len(parts) < 3 or parts[0][:1] not in ("i", "h") or len(parts[0]) > 3 or parts[0][1:2] != "i":
            continue
        name = parts[1].split(":", 1)[0]
        if interesting(name):
            out.append(PackageInfo(name=name, version=parts[2], manager="dpkg"))
    return out


def parse_rpm(text: str) -> list[PackageInfo]:
    out: list[PackageInfo] = []
    for line in (text or "").splitlines():
        parts = line.split()
        if len(parts) == 2 and interesting(parts[0]):
            out.append(PackageInfo(name=parts[0], version=parts[1], manager="rpm"))
    return out


def driver_package_version(pkgs: list[PackageInfo]) -> Optional[str]:
    """The user-space driver version the packages install (libnvidia-compute-*, nvidia-driver-*)."""
    for p in pkgs:
        if re.match(r"^(libnvidia-compute|nvidia-driver|nvidia-utils|xserver-xorg-video-nvidia|nvidia-driver-cuda)", p.name):
            m = re.search(r"(\d{3}\.\d+(?:\.\d+)?)", p.version)
            if m:
                return m.group(1)
    return None
