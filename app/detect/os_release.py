"""OS identity: /etc/os-release, /proc/version, uname, package manager, memory, container hints."""
from __future__ import annotations

import re
import shlex
from typing import Optional


def parse_os_release(text: Optional[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for line in (text or "").splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        k, _, v = line.partition("=")
        if len(v) > 4096:  # no real os-release value is this long (a hostile snapshot): skip it
            continue
        try:
            parts = shlex.split(v, posix=True)
            v = parts[0] if parts else ""
        except ValueError:
            v = v.strip().strip("\"'")
        if re.fullmatch(r"[A-Z_][A-Z0-9_]*", k.strip()):
            out[k.strip()] = v
    return out


def parse_proc_version(text: Optional[str]) -> Optional[str]:
    """'Linux version 6.8.0-45-generic (buildd@...) ...' → '6.8.0-45-generic'."""
    m = re.match(r"\s*Linux version\s+(\S+)", text or "")
    return m.group(1) if m else None


def package_manager(os_id: Optional[str], id_like: tuple[str, ...]) -> Optional[str]:
    ids = {(os_id or "").lower(), *[i.lower() for i in id_like]}
    if ids & {"ubuntu", "debian", "linuxmint", "pop", "raspbian"}:
        return "apt"
    if ids & {"fedora", "rhel", "centos", "rocky", "almalinux", "ol", "amzn"}:
        if (os_id or "") in ("centos", "rhel", "ol") and False:
            return "yum"
        return "dnf"
    if ids & {"opensuse", "suse", "sles", "opensuse-leap", "opensuse-tumbleweed"}:
        return "zypper"
    if ids & {"arch", "manjaro", "endeavouros", "cachyos"}:
        return "pacman"
    return None


def parse_meminfo_total_mib(text: Optional[str]) -> Optional[int]:
    m = re.search(r"^MemTotal:\s+(\d+)\s*kB", text or "", re.M)
    return int(m.group(1)) // 1024 if m else None


def parse_uid(text: Optional[str]) -> Optional[int]:
    """/proc/self/status 'Uid:\t1000\t1000\t1000\t1000' → effective uid."""
    m = re.search(r"^Uid:\s+\d+\s+(\d+)", text or "", re.M)
    return int(m.group(1)) if m else None


def container_from(dockerenv: bool, containerenv: bool, env_container: Optional[str], cgroup: Optional[str]) -> Optional[str]:
    if dockerenv:
        return "docker"
    if containerenv:
        return "podman"
    if env_container:
        return env_container.strip() or None
    c = cgroup or ""
    for key, name in (("kubepods", "kubernetes"), ("docker", "docker"), ("lxc", "lxc"), ("containerd", "containerd")):
        if key in c:
            return name
    return None


def wsl_from_proc_version(text: Optional[str]) -> int:
    """Minimal fallback (the WSL probe proper is app.detect.wsl): WSL2 kernels say
    'microsoft-standard' (older: '-microsoft-standard'), WSL1 says 'Microsoft'."""
    t = text or ""
    if re.search(r"microsoft-standard|WSL2", t, re.I):
        return 2
    if "Microsoft" in t:
        return 1
    if "microsoft" in t.lower():
        return 2
    return 0
