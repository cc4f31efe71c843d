"""WSL detection, from inside the Linux distro.

`detect_wsl(system, os_info)` is called by the detection orchestrator after the OS probe.
It answers which WSL this is (0: none, 1, 2), whether the GPU paravirtualization is wired
up (`/dev/dxg`, `/usr/lib/wsl/lib/libcuda.so*`), the WSL kernel, the memory WSL2 is
allowed (/proc/meminfo and the Windows user's `.wslconfig`), and the traps: WSL1 (no CUDA),
the "libcuda.so.1 is not a symbolic link" ldconfig warning, and a Linux NVIDIA driver
installed inside WSL by mistake (it shadows the Windows driver's libcuda).

Everything is read through `System`, so a snapshot replays it. The `parse_*` functions are
pure and tested on real strings (tests/fixtures/real/wsl*/).
"""
from __future__ import annotations

import re
from typing import Iterable, Optional, Sequence

from app.detect.findings import finding
from app.facts import Finding, OsInfo, PackageInfo

WSL_LIB_DIR = "/usr/lib/wsl/lib"
WSL_LDCONF = "/etc/ld.so.conf.d/ld.wsl.conf"
DXG_DEVICE = "/dev/dxg"
# Microsoft's documented minimum WSL kernel for CUDA (learn.microsoft.com, "GPU accelerated ML training in WSL").
MIN_KERNEL_FOR_CUDA = (5, 10, 43, 3)
# Below this, training anything but toy models inside WSL2 swaps or gets OOM-killed.
MIN_MEMORY_MIB = 8 * 1024
# Packages that put a Linux NVIDIA driver (or its libcuda / nvidia-smi) inside WSL.
LINUX_DRIVER_PACKAGE_RE = re.compile(
    r"^(nvidia-driver-\S+|cuda-drivers(-\d+)?|nvidia-dkms-\S+|nvidia-kernel-(common|source|open)-\S+|"
    r"libnvidia-compute-\S+|nvidia-utils-\S+|xserver-xorg-video-nvidia-\S+|nvidia-open(-\S+)?|nvidia-driver)$"
)
DPKG_QUERY_ARGV = ["dpkg-query", "-W", "-f=${Package} ${Version} ${db:Status-Abbrev}\\n",
                   "nvidia-*", "libnvidia-compute-*", "cuda-drivers*"]
WINDOWS_USERS_DIR = "/mnt/c/Users"
_SKIP_USERS = {"public", "default", "default user", "all users", "defaultapppool", "desktop.ini"}


# ---------------------------------------------------------------- pure parsers

def parse_wsl_version(proc_version: Optional[str], osrelease: Optional[str] = None) -> int:
    """0, 1 or 2 from the kernel strings alone.

    WSL1 fakes a kernel whose release ends in "-Microsoft" (capital M: "4.4.0-19041-Microsoft",
    "3.4.0-Microsoft"). WSL2 runs a real kernel: "4.19.104-microsoft-standard" (old),
    "5.15.153.1-microsoft-standard-WSL2" (newer), custom builds "5.19.0-microsoft-standard"."""
    texts = [t for t in (osrelease, proc_version) if t]
    for t in texts:
        low = t.lower()
        if "microsoft-standard" in low or re.search(r"-wsl2\b", low):
            return 2
    for t in texts:
        if re.search(r"\d-Microsoft\b", t) or "Microsoft@Microsoft.com" in t:
            return 1
    for t in texts:  # any other kernel naming microsoft (rare custom builds) is a real kernel: WSL2
        if "microsoft" in t.lower():
            return 2
    return 0


def parse_kernel_release(proc_version: Optional[str], osrelease: Optional[str] = None) -> Optional[str]:
    """The kernel release: "5.15.153.1-microsoft-standard-WSL2"."""
    if osrelease and osrelease.strip():
        return osrelease.strip().splitlines()[0].strip()
    if proc_version:
        m = re.search(r"Linux version (\S+)", proc_version)
        if m:
            return m.group(1)
    return None


def kernel_version_tuple(release: Optional[str]) -> Optional[tuple[int, ...]]:
    """(5, 15, 153, 1) from "5.15.153.1-microsoft-standard-WSL2"; None when it does not start with digits."""
    if not release:
        return None
    m = re.match(r"(\d+(?:\.\d+)*)", release.strip())
    if not m:
        return None
    return tuple(int(x) for x in m.group(1).split("."))


def parse_meminfo_total_mib(text: Optional[str]) -> Optional[int]:
    if not text:
        return None
    m = re.search(r"^MemTotal:\s+(\d+)\s*kB", text, re.M)
    return int(m.group(1)) // 1024 if m else None


_SIZE_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([KMGT]?)(i?B)?\s*$", re.I)


def parse_size_mib(value: str) -> Optional[int]:
    """.wslconfig sizes: "8GB", "4096MB", "16 GB", "12G"; a bare number is bytes (Microsoft's docs)."""
    m = _SIZE_RE.match(value.strip().strip('"'))
    if not m:
        return None
    n = float(m.group(1))
    unit = m.group(2).upper()
    if not unit:
        return int(n) // (1024 * 1024) if m.group(3) else int(n / (1024 * 1024))
    factor = {"K": 1 / 1024, "M": 1, "G": 1024, "T": 1024 * 1024}[unit]
    return int(n * factor)


def parse_wslconfig(text: Optional[str]) -> dict[str, str]:
    """The [wsl2] section of a .wslconfig as lower-case key → value (comments dropped).
    Tolerant: no section header, BOM, CRLF, inline '#' comments."""
    out: dict[str, str] = {}
    if not text:
        return out
    section = None
    for raw in text.lstrip("\ufeff").splitlines():
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("[") and "]" in line:
            section = line[1:line.index("]")].strip().lower()
            continue
        if "=" not in line or section not in ("wsl2", None):
            continue
        k, v = line.split("=", 1)
        v = re.split(r"\s[#;]", v, maxsplit=1)[0].strip()
        out[k.strip().lower()] = v
    return out


def parse_dpkg_query(text: Optional[str]) -> list[PackageInfo]:
    """Installed packages from `dpkg-query -W -f='${Package} ${Version} ${db:Status-Abbrev}\\n'`."""
    out = []
    for line in (text or "").splitlines():
        parts = line.split()
        if len(parts) < 3:
            continue
        name, version, abbrev = parts[0], parts[1], parts[2]
        if len(abbrev) >= 2 and abbrev[1] == "i":  # "ii", "hi": installed
            out.append(PackageInfo(name=name, version=version, manager="dpkg"))
    return out


def linux_driver_packages(packages: Iterable[PackageInfo]) -> list[PackageInfo]:
    """Packages that must never be installed inside WSL2 (they bring a Linux driver or its libcuda)."""
    return [p for p in packages if LINUX_DRIVER_PACKAGE_RE.match(p.name)]


def libcuda_files(entries: Optional[Sequence[str]]) -> tuple[str, ...]:
    return tuple(sorted(e for e in (entries or ()) if e.startswith("libcuda.so")))


# ---------------------------------------------------------------- the probe

def detect_wsl(system, os_info: OsInfo, *, packages: Optional[Sequence[PackageInfo]] = None) -> tuple[OsInfo, list[Finding]]:
    """Fill the WSL fields of `os_info` and return the WSL findings. Never raises.

    `packages`: the distro packages detection already listed (dpkg/rpm); when None this probe
    asks dpkg-query itself, only for the NVIDIA driver packages."""
    findings: list[Finding] = []
    proc_version = system.read_text("/proc/version")
    osrelease = system.read_text("/proc/sys/kernel/osrelease")
    wsl = parse_wsl_version(proc_version, osrelease)
    distro = system.getenv("WSL_DISTRO_NAME") or None
    interop = system.getenv("WSL_INTEROP")
    dxg = system.exists(DXG_DEVICE)
    if wsl == 0 and (distro or interop or dxg or system.exists("/proc/sys/fs/binfmt_misc/WSLInterop")):
        # A custom kernel without "microsoft" in its name; WSL1's kernel string is fixed by
        # Microsoft, so any WSL sign without it means WSL2.
        wsl = 2
    if wsl == 0:
        return os_info, findings

    release = parse_kernel_release(proc_version, osrelease)
    updates: dict = {"wsl": wsl, "wsl_kernel": release, "wsl_distro": distro}
    set_version = f"wsl --set-version {distro or '<distro>'} 2"

    if wsl == 1:
        findings.append(finding("wsl1_no_cuda", "error", tuple(x for x in (proc_version and proc_version.strip(),) if x),
                                where_code="wsl_where" if distro else "", distro=distro, command=set_version))
        return os_info.replace(**updates), findings

    # ---- WSL2
    updates["wsl_dxg"] = dxg
    if not dxg:
        findings.append(finding("wsl_dxg_missing", "error", (DXG_DEVICE + " not found",)))

    entries = system.list_dir(WSL_LIB_DIR)
    libs = libcuda_files(entries)
    updates["wsl_libcuda"] = tuple(f"{WSL_LIB_DIR}/{n}" for n in libs)
    if not libs:
        findings.append(finding("wsl_libcuda_missing", "error", (f"{WSL_LIB_DIR}: " + (", ".join(entries or []) or "empty or missing"),),
                                dir=WSL_LIB_DIR))
    elif "libcuda.so.1" in libs and system.readlink(f"{WSL_LIB_DIR}/libcuda.so.1") is None \
            and _ldconfig_scans_wsl_lib(system.read_text(WSL_LDCONF)):
        ldconf = system.read_text(WSL_LDCONF)
        findings.append(finding("wsl_libcuda_not_symlink", "info",
                                tuple([f"{WSL_LIB_DIR}/libcuda.so.1 is a regular file"]
                                      + [f"{WSL_LDCONF}: {ln.strip()}" for ln in (ldconf or "").splitlines()
                                         if ln.strip() and not ln.lstrip().startswith("#")])))

    kv = kernel_version_tuple(release)
    if kv is not None and kv < MIN_KERNEL_FOR_CUDA:
        findings.append(finding("wsl_kernel_old", "warning", (f"kernel {release}",), kernel=release))

    # ---- a Linux driver installed inside WSL by mistake
    if packages is None:
        r = system.run(list(DPKG_QUERY_ARGV), timeout=10)
        packages = parse_dpkg_query(r.stdout) if r.rc in (0, 1) else []
    bad = linux_driver_packages(packages)
    arch = os_info.arch or "x86_64"
    multiarch = {"x86_64": "x86_64-linux-gnu", "aarch64": "aarch64-linux-gnu"}.get(arch, f"{arch}-linux-gnu")
    shadow = [p for p in (f"/usr/lib/{multiarch}/libcuda.so.1", f"/usr/lib/{multiarch}/libcuda.so",
                          "/usr/lib64/libcuda.so.1") if system.exists(p)]
    smi = system.which("nvidia-smi")
    smi_shadow = smi if smi and not smi.startswith(WSL_LIB_DIR) and system.exists(smi) and smi.startswith("/usr/") else None
    if bad or shadow:
        evidence = tuple([f"package {p.name} {p.version}" for p in bad] + [f"{p} (Linux driver library)" for p in shadow]
                         + ([f"nvidia-smi on PATH is {smi_shadow}"] if smi_shadow else []))
        findings.append(finding("wsl_linux_driver_installed", "error", evidence))

    # ---- memory WSL2 is allowed
    mem = parse_meminfo_total_mib(system.read_text("/proc/meminfo"))
    if mem is not None:
        updates["memory_total_mib"] = mem
    cfg_path, cfg = _read_wslconfig(system)
    limit = None
    if cfg_path:
        updates["wslconfig_path"] = cfg_path
        if "memory" in cfg:
            limit = parse_size_mib(cfg["memory"])
            updates["wsl_memory_limit_mib"] = limit
    seen = mem if mem is not None else limit
    if seen is not None and seen < MIN_MEMORY_MIB:
        ev = [f"MemTotal {mem} MiB" if mem is not None else ""]
        if cfg_path and "memory" in cfg:
            ev.append(f"{cfg_path}: memory={cfg['memory']}")
        findings.append(finding("wsl_memory_low", "warning", tuple(e for e in ev if e), mib=seen, min_mib=MIN_MEMORY_MIB,
                                config=cfg_path, hint_code=None if cfg_path else "wsl_memory_low_no_config_hint"))
    return os_info.replace(**updates), findings


def _ldconfig_scans_wsl_lib(ldconf: Optional[str]) -> bool:
    """Does ldconfig read the mounted folder (WSL's generated ld.wsl.conf; assumed when unreadable)?
    Once the plan points ld.wsl.conf at the folder of links, the warning is gone."""
    if ldconf is None:
        return True
    return any(ln.strip().rstrip("/") == WSL_LIB_DIR for ln in ldconf.splitlines() if not ln.lstrip().startswith("#"))


def _read_wslconfig(system) -> tuple[Optional[str], dict[str, str]]:
    """The Windows user's .wslconfig through /mnt/c: (path, its [wsl2] settings). USERPROFILE
    (passed through WSLENV) wins; else the first user folder that has the file (the distro
    cannot know which Windows user started it). When none has one, the path where it would
    go if that is unambiguous (one user folder), with no settings; else (None, {})."""
    prof = system.getenv("USERPROFILE")
    prof_path = None
    if prof and re.match(r"^[A-Za-z]:\\", prof):
        prof_path = f"/mnt/{prof[0].lower()}/" + prof[3:].replace("\\", "/").rstrip("/") + "/.wslconfig"
    candidates: list[str] = [prof_path] if prof_path else []
    users = [u for u in (system.list_dir(WINDOWS_USERS_DIR) or []) if u.lower() not in _SKIP_USERS]
    candidates += [f"{WINDOWS_USERS_DIR}/{u}/.wslconfig" for u in users]
    for path in candidates:
        text = system.read_text(path)
        if text is not None:
            return path, parse_wslconfig(text)
    if prof_path:
        return prof_path, {}
    if len(users) == 1:
        return candidates[-1], {}
    return None, {}


def wsl_needs_memory_mib(gpu_memory_mib: Sequence[int]) -> int:
    """What training will want WSL2 to allow: twice the largest GPU's memory (pinned host
    buffers, data loaders), never less than 8 GiB."""
    biggest = max((m for m in gpu_memory_mib if m), default=0)
    return max(MIN_MEMORY_MIB, 2 * biggest)


def wsl_memory_target_mib(mem_total_mib: Optional[int], limit_mib: Optional[int], host_mib: Optional[int],
                          gpu_memory_mib: Sequence[int]) -> Optional[int]:
    """The `memory=` (MiB, whole GiB) to give WSL 2 so training fits, or None when nothing
    helps. WSL 2 gets half the host's memory unless .wslconfig says otherwise, so inside WSL
    the host is about twice MemTotal; 4 GiB always stay with Windows."""
    current = limit_mib or mem_total_mib
    if current is None:
        return None
    need = wsl_needs_memory_mib(gpu_memory_mib)
    if current >= need:
        return None
    if host_mib is None and limit_mib is None and mem_total_mib:
        host_mib = 2 * mem_total_mib
    need_gib = -(-need // 1024) * 1024  # whole GiB, rounded up
    target = need_gib if host_mib is None else min(need_gib, (host_mib - 4096) // 1024 * 1024)
    return target if target > current else None
