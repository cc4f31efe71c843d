"""Windows host detection (platform "windows"): the wizard also runs natively on Windows,
where the job is to get WSL 2 ready and the NVIDIA Windows driver recent enough.

`detect_windows(system)` returns (OsInfo, DriverInfo, [Gpu], WindowsInfo, [Finding]). It only
runs fixed argv lists (never a shell string built from input): `cmd /c ver`, `wsl --status`,
`wsl -l -v`, `wsl --version`, nvidia-smi.exe in its usual places, and two PowerShell CIM
queries whose script text is a constant. wsl.exe prints UTF-16; `app.system.decode_output`
turns it into text, and the parsers here also shrug off stray NULs.

All of it runs on Linux too against a snapshot with "platform": "windows" (tests).
"""
from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Optional

from app import fileio
from app.detect import smi
from app.detect.findings import finding
from app.facts import DriverInfo, DriverState, Finding, Gpu, OsInfo, WindowsInfo, WslDistro
from app.system import CommandResult

VER_ARGV = ["cmd", "/c", "ver"]
WSL_STATUS_ARGV = ["wsl", "--status"]
WSL_LIST_ARGV = ["wsl", "-l", "-v"]
WSL_VERSION_ARGV = ["wsl", "--version"]
_PS = ["powershell", "-NoProfile", "-NonInteractive", "-Command"]
PS_VIDEO_ARGV = _PS + ["Get-CimInstance -ClassName Win32_VideoController | Select-Object "
                       "Name,AdapterCompatibility,DriverVersion,PNPDeviceID,AdapterRAM,Status,ConfigManagerErrorCode "
                       "| ConvertTo-Json -Compress"]
PS_SYSTEM_ARGV = _PS + ["$cs = Get-CimInstance -ClassName Win32_ComputerSystem; "
                        "$p = Get-CimInstance -ClassName Win32_Processor | Select-Object -First 1; "
                        "[pscustomobject]@{HypervisorPresent=$cs.HypervisorPresent; "
                        "VirtualizationFirmwareEnabled=$p.VirtualizationFirmwareEnabled; "
                        "TotalPhysicalMemory=$cs.TotalPhysicalMemory} | ConvertTo-Json -Compress"]
SMI_PATHS = (r"C:\Windows\System32\nvidia-smi.exe",
             r"C:\Program Files\NVIDIA Corporation\NVSMI\nvidia-smi.exe")
# nvidia-smi.exe answers the same queries as on Linux (app/detect/smi.py parses both)
SMI_QUERY_FIELDS = smi.BASIC_FIELDS + ("compute_cap",)
# Windows 10 21H2 (build 19044) is the first Windows 10 Microsoft supports for CUDA in WSL 2; any Windows 11 works.
MIN_WIN10_BUILD_FOR_WSL_CUDA = 19044
WIN11_FIRST_BUILD = 22000
DRIVER_DOWNLOAD_URL = "https://www.nvidia.com/Download/index.aspx"


# ---------------------------------------------------------------- pure parsers

def _clean(text: Optional[str]) -> str:
    """wsl.exe text that went through a wrong decoder keeps NULs; drop them and the BOM."""
    return (text or "").replace("\x00", "").lstrip("\ufeff")


def parse_ver(text: Optional[str]) -> Optional[str]:
    """"Microsoft Windows [Version 10.0.22631.3593]" → "10.0.22631.3593" (any UI language:
    the bracket holds a word then the dotted number)."""
    m = re.search(r"\[[^\]\d]*(\d+\.\d+\.\d+(?:\.\d+)?)\]", _clean(text))
    return m.group(1) if m else None


def windows_release(build: Optional[str]) -> tuple[Optional[str], Optional[int]]:
    """("11", 22631) from "10.0.22631.3593"; Windows 11 still says 10.0 and is told by its build."""
    if not build:
        return None, None
    parts = build.split(".")
    if len(parts) < 3 or not parts[2].isdigit():
        return None, None
    b = int(parts[2])
    if parts[0] != "10":
        return parts[0], b
    return ("11" if b >= WIN11_FIRST_BUILD else "10"), b


def map_windows_driver_version(wmi_version: Optional[str]) -> Optional[str]:
    """NVIDIA's version from the Windows driver version: the last five digits of the last two
    fields, dot before the final two. "32.0.15.6094" → "560.94", "31.0.15.7652" → "576.52"."""
    if not wmi_version:
        return None
    parts = wmi_version.strip().split(".")
    if len(parts) != 4 or not all(p.isdigit() for p in parts):
        return None
    digits = parts[2] + parts[3].zfill(4)
    tail = digits[-5:]
    if len(tail) < 5:
        return None
    return f"{int(tail[:3])}.{tail[3:]}"


def parse_wsl_status(text: Optional[str], rc: int) -> dict[str, Any]:
    """{"installed": bool|None, "default_distro", "default_version", "kernel", "needs_vmp", "needs_update"}.
    rc 127: no wsl.exe at all (older Windows without the optional component)."""
    t = _clean(text)
    low = t.lower()
    out: dict[str, Any] = {"installed": None, "default_distro": None, "default_version": None, "kernel": None,
                           "needs_vmp": False, "needs_update": False}
    if rc == 127:
        out["installed"] = False
        return out
    if "is not installed" in low and "subsystem for linux" in low:
        out["installed"] = False
        return out
    if "invalid command line option" in low:  # an old inbox wsl.exe without --status: WSL 1 era
        out.update(installed=True, needs_update=True)
        return out
    m = re.search(r"^Default Distribution:\s*(.+?)\s*$", t, re.M)
    if m:
        out["default_distro"] = m.group(1)
    m = re.search(r"^Default Version:\s*(\d)", t, re.M)
    if m:
        out["default_version"] = int(m.group(1))
    m = re.search(r"^Kernel version:\s*([\d.]+)", t, re.M)
    if m:
        out["kernel"] = m.group(1)
    if "virtual machine platform" in low:
        out["needs_vmp"] = True
    if "wsl --update" in low or "wsl.exe --update" in low:
        out["needs_update"] = True
    if rc == 0 or out["default_version"] is not None or out["default_distro"] or out["kernel"]:
        out["installed"] = True
    return out  # otherwise None: an answer we cannot read (another language, a crash) says nothing


def parse_wsl_list(text: Optional[str]) -> list[WslDistro]:
    """`wsl -l -v` rows: "* Ubuntu-22.04    Running         2". The header is localized, so
    rows are read by shape: optional '*', name, state, a final 1 or 2."""
    distros = []
    for line in _clean(text).splitlines():
        s = line.strip()
        if not s:
            continue
        default = s.startswith("*")
        if default:
            s = s[1:].strip()
        parts = s.split()
        if len(parts) < 3 or parts[-1] not in ("1", "2"):
            continue
        distros.append(WslDistro(name=" ".join(parts[:-2]), state=parts[-2], version=int(parts[-1]), default=default))
    return distros


def parse_wsl_version_cmd(text: Optional[str]) -> dict[str, str]:
    """`wsl --version` (Store WSL): {"wsl": "2.0.14.0", "kernel": "5.15.133.1-1", "windows": "10.0.22631.2861"}."""
    out = {}
    for key, label in (("wsl", "WSL version"), ("kernel", "Kernel version"), ("windows", "Windows version")):
        m = re.search(rf"^{label}:\s*(\S+)", _clean(text), re.M)
        if m:
            out[key] = m.group(1)
    return out


def _json_list(text: Optional[str]) -> list[dict[str, Any]]:
    """ConvertTo-Json prints an object for one result and an array for several."""
    t = _clean(text).strip()
    if not t:
        return []
    try:
        data = fileio.loads(t)
    except ValueError:
        return []
    if isinstance(data, dict):
        return [data]
    return [d for d in data if isinstance(d, dict)] if isinstance(data, list) else []


def parse_format_list(text: Optional[str]) -> list[dict[str, Any]]:
    """PowerShell `Format-List` output ("Name   : value" blocks split by blank lines), which is
    what users paste into tickets. Numbers stay text except ConfigManagerErrorCode/AdapterRAM."""
    blocks: list[dict[str, Any]] = []
    cur: dict[str, Any] = {}
    for line in _clean(text).splitlines():
        m = re.match(r"^([A-Za-z_][A-Za-z0-9_]*)\s*:\s?(.*)$", line)
        if m and not line.startswith("PS "):
            cur[m.group(1)] = m.group(2).strip() or None
        elif not line.strip() and cur:
            blocks.append(cur)
            cur = {}
    if cur:
        blocks.append(cur)
    for b in blocks:
        for k in ("ConfigManagerErrorCode", "AdapterRAM"):
            if isinstance(b.get(k), str) and b[k].isdigit():
                b[k] = int(b[k])
        if "Name" not in b and b.get("Caption"):
            b["Name"] = b["Caption"]
    return [b for b in blocks if b.get("Name") or b.get("PNPDeviceID")]


def parse_video_controllers(text: Optional[str]) -> list[dict[str, Any]]:
    """Win32_VideoController rows (JSON from ConvertTo-Json, or a pasted Format-List) with
    pci_id and the NVIDIA version."""
    rows = []
    items = _json_list(text)
    if not items and ":" in (text or ""):
        items = parse_format_list(text)
    for d in items:
        pnp = str(d.get("PNPDeviceID") or "")
        m = re.search(r"VEN_([0-9A-Fa-f]{4})&DEV_([0-9A-Fa-f]{4})", pnp)
        pci_id = f"{m.group(1).lower()}:{m.group(2).lower()}" if m else None
        drv = d.get("DriverVersion")
        label = f"{d.get('AdapterCompatibility') or ''} {d.get('Name') or ''}".lower()
        nvidia = bool(pci_id and pci_id.startswith("10de:")) or "nvidia" in label
        # an NVIDIA GPU without its driver shows as "Microsoft Basic Display Adapter" with Microsoft's version
        nvidia_driver = nvidia and "nvidia" in label and "basic display" not in label
        rows.append({"name": d.get("Name"), "pci_id": pci_id, "nvidia": nvidia, "driver_version": drv,
                     "nvidia_version": map_windows_driver_version(drv) if nvidia_driver else None,
                     "adapter_ram": d.get("AdapterRAM"), "error_code": d.get("ConfigManagerErrorCode"),
                     "status": d.get("Status")})
    return rows


def parse_system_info(text: Optional[str]) -> dict[str, Any]:
    rows = _json_list(text)
    return rows[0] if rows else {}


# ---------------------------------------------------------------- the probe

def _run(system, argv: list[str], timeout: float = 15) -> CommandResult:
    try:
        return system.run(list(argv), timeout=timeout)
    except Exception as e:  # a broken System must not break detection
        return CommandResult(rc=126, stderr=f"{type(e).__name__}: {e}")


def _run_all(system, jobs: dict[str, tuple[list[str], float]]) -> dict[str, CommandResult]:
    """Run independent probes side by side: PowerShell and wsl.exe each take hundreds of
    milliseconds to start, so the Windows detection costs about the slowest one, not the sum."""
    with ThreadPoolExecutor(max_workers=max(1, len(jobs))) as pool:
        futures = {k: pool.submit(_run, system, argv, t) for k, (argv, t) in jobs.items()}
        return {k: f.result() for k, f in futures.items()}


def find_nvidia_smi(system) -> Optional[str]:
    for p in SMI_PATHS:
        if system.exists(p):
            return p
    return system.which("nvidia-smi")


def detect_windows(system) -> tuple[OsInfo, DriverInfo, list[Gpu], WindowsInfo, list[Finding]]:
    """Everything the Windows side needs to plan WSL 2 + CUDA. Never raises."""
    findings: list[Finding] = []
    smi_path = find_nvidia_smi(system)
    jobs: dict[str, tuple[list[str], float]] = {
        "ver": (VER_ARGV, 10), "wsl_version": (WSL_VERSION_ARGV, 15), "wsl_status": (WSL_STATUS_ARGV, 20),
        "wsl_list": (WSL_LIST_ARGV, 20), "system": (PS_SYSTEM_ARGV, 30), "video": (PS_VIDEO_ARGV, 30)}
    if smi_path:
        jobs["smi_query"] = (smi.query_argv(SMI_QUERY_FIELDS, exe=smi_path), 20)
        jobs["smi_table"] = ([smi_path], 20)
    res = _run_all(system, jobs)
    os_info, build, virt = _windows_os(system, res, findings)
    win = _windows_wsl(res, build, virt, findings)
    os_info = _wslconfig(system, os_info)
    vids = parse_video_controllers(res["video"].stdout)
    nv_vids = [v for v in vids if v["nvidia"]]
    table, query_rows = _smi_views(res, smi_path)
    win = win.replace(nvidia_smi_path=smi_path)
    gpus = _windows_gpus(nv_vids, table, query_rows)
    driver = _windows_driver(nv_vids, table, query_rows, smi_path)
    if not nv_vids and not gpus:
        findings.append(finding("no_nvidia_gpu", "warning",
                                tuple(f"display adapter: {v['name']}" for v in vids) or ("Win32_VideoController: no NVIDIA adapter",),
                                text_code="no_nvidia_gpu_windows", hint_code=""))
    elif driver.state == "not_installed":
        findings.append(finding("windows_driver_missing", "error",
                                tuple(f"{v['name']} ({v['pci_id']}): driver {v['driver_version']}, error code {v['error_code']}" for v in nv_vids),
                                url=DRIVER_DOWNLOAD_URL))
    for g in gpus:
        if any(r.get("driver_model") == "TCC" for r in table.gpus if r["index"] == g.index):
            findings.append(finding("windows_gpu_tcc_mode", "warning", index=g.index, gpu=g.name))
    return os_info, driver, gpus, win, findings


def _windows_os(system, res: dict, findings: list[Finding]) -> tuple[OsInfo, Optional[str], Optional[bool]]:
    """The Windows version, architecture, memory and virtualization (and the findings they make)."""
    ver = res["ver"]
    build = parse_ver(ver.stdout) if ver.ok else None
    wslv = parse_wsl_version_cmd(res["wsl_version"].stdout)
    build = build or wslv.get("windows")
    release, build_no = windows_release(build)
    arch_env = (system.getenv("PROCESSOR_ARCHITECTURE") or "").upper()
    arch = {"AMD64": "x86_64", "ARM64": "aarch64", "X86": "x86"}.get(arch_env, arch_env.lower() or None)

    sysinfo = parse_system_info(res["system"].stdout)
    mem_bytes = sysinfo.get("TotalPhysicalMemory")
    mem_mib = int(mem_bytes) // (1024 * 1024) if isinstance(mem_bytes, (int, float)) and mem_bytes > 0 else None
    hyper, fw = sysinfo.get("HypervisorPresent"), sysinfo.get("VirtualizationFirmwareEnabled")
    # With a hypervisor running, Win32_Processor reports firmware virtualization as False: trust HypervisorPresent first.
    virt = True if hyper is True or fw is True else (False if hyper is False and fw is False else None)

    os_info = OsInfo(platform="windows", id="windows", version_id=release,
                     pretty_name=f"Windows {release} (build {'.'.join(build.split('.')[2:])})" if release and build else None,
                     kernel=build, arch=arch, windows_build=".".join(build.split(".")[:3]) if build else None,
                     memory_total_mib=mem_mib, package_manager=None)

    if build_no is not None and release == "10" and build_no < MIN_WIN10_BUILD_FOR_WSL_CUDA:
        findings.append(finding("windows_too_old_for_wsl_cuda", "error", (f"ver: {build}",), build=build_no))
    if virt is False:
        findings.append(finding("virtualization_disabled", "error", ("HypervisorPresent=False", "VirtualizationFirmwareEnabled=False")))
    return os_info, build, virt


def _windows_wsl(res: dict, build: Optional[str], virt: Optional[bool], findings: list[Finding]) -> WindowsInfo:
    """WSL: installed or not, its distributions and their versions (and the findings they make)."""
    st = res["wsl_status"]
    status = parse_wsl_status(st.stdout + "\n" + st.stderr, st.rc)
    distros: list[WslDistro] = []
    if status["installed"] is not False:
        lst = res["wsl_list"]
        distros = parse_wsl_list(lst.stdout)
        if status["installed"] is None:
            if lst.ok or distros:
                status["installed"] = True
            elif lst.rc == 127 and not st.timed_out:
                status["installed"] = False
    if status["installed"] is None:
        findings.append(finding("wsl_state_unknown", "warning",
                                tuple(x for x in ((_clean(st.stderr or st.stdout).strip().splitlines() or [""])[-1],) if x)))
    if status["installed"] is False:
        findings.append(finding("wsl_not_installed", "warning",
                                tuple(x for x in (_clean(st.stdout or st.stderr).strip().splitlines()[:1]) if x)))
    else:
        if status["needs_vmp"]:
            findings.append(finding("wsl_vmp_missing", "error", tuple(_clean(st.stdout).strip().splitlines()[:2])))
        if status["needs_update"]:
            findings.append(finding("wsl_update_needed", "warning"))
        for d in distros:
            if d.version == 1:
                findings.append(finding("wsl_distro_wsl1", "warning", (f"wsl -l -v: {d.name} {d.state} {d.version}",), name=d.name))
        if status["installed"] and not distros:
            findings.append(finding("wsl_no_distro", "info"))
    return WindowsInfo(build=build, virtualization_enabled=virt, wsl_installed=status["installed"],
                       wsl_default_version=status["default_version"], distros=tuple(distros))


def _wslconfig(system, os_info: OsInfo) -> OsInfo:
    """.wslconfig on the Windows side: its memory limit, and the user's profile folder as home."""
    prof = system.getenv("USERPROFILE")
    if not prof:
        return os_info
    from app.detect.wsl import parse_size_mib, parse_wslconfig

    path = prof.rstrip("\\") + "\\.wslconfig"
    text = system.read_text(path)
    cfg = parse_wslconfig(text) if text is not None else {}
    limit = parse_size_mib(cfg["memory"]) if "memory" in cfg else None
    return os_info.replace(wslconfig_path=path, wsl_memory_limit_mib=limit, home=prof)


def _smi_views(res: dict, smi_path: Optional[str]) -> tuple[smi.SmiTable, list[dict[str, Any]]]:
    """nvidia-smi.exe's table and its query rows (empty without nvidia-smi.exe)."""
    table = smi.SmiTable()
    query_rows: list[dict[str, Any]] = []
    if smi_path:
        q = res["smi_query"]
        if q.ok:
            query_rows = [smi.gpu_fields_from_query(r) for r in smi.parse_smi_query(q.stdout, SMI_QUERY_FIELDS)]
        t = res["smi_table"]
        if t.stdout:
            table = smi.parse_smi_table(t.stdout)
    return table, query_rows


def _windows_gpus(nv_vids: list, table: smi.SmiTable, query_rows: list[dict[str, Any]]) -> list[Gpu]:
    """The GPUs: nvidia-smi's query first, then its table, then WMI (works without a working NVIDIA driver)."""
    gpus: list[Gpu] = []
    if query_rows:
        for r in query_rows:
            gpus.append(Gpu(index=r["index"], name=r["name"], pci_id=r["pci_id"], bus_id=r["bus_id"],
                            compute_capability=r["compute_capability"], memory_total_mib=r["memory_total_mib"],
                            is_laptop="laptop" in r["name"].lower(), source="nvidia_smi_query"))
    elif table.gpus:
        for r in table.gpus:
            gpus.append(Gpu(index=r["index"], name=r["name"], bus_id=r["bus_id"], memory_total_mib=r["memory_total_mib"],
                            is_laptop="laptop" in r["name"].lower() or None, source="nvidia_smi_table"))
    else:
        for i, v in enumerate(nv_vids):
            gpus.append(Gpu(index=i, name=str(v["name"] or "NVIDIA GPU"), pci_id=v["pci_id"],
                            is_laptop="laptop" in str(v["name"] or "").lower() or None, source="wmi"))
    # WMI knows the PCI id and the full (untruncated) name; nvidia-smi knows memory and CC.
    if nv_vids:
        merged = []
        for i, g in enumerate(gpus):
            vid = nv_vids[i] if i < len(nv_vids) else None
            if vid:
                name = g.name
                if (name.endswith("...") or g.source == "nvidia_smi_table") and vid["name"]:
                    name = str(vid["name"])
                g = g.replace(name=name, pci_id=g.pci_id or vid["pci_id"],
                              is_laptop=g.is_laptop if g.is_laptop is not None else ("laptop" in name.lower()))
            merged.append(g)
        gpus = merged
    return [_fill_from_table(g) for g in gpus]


def _windows_driver(nv_vids: list, table: smi.SmiTable, query_rows: list[dict[str, Any]], smi_path: Optional[str]) -> DriverInfo:
    """The driver: its version from nvidia-smi or WMI, and its state (a Basic Display Adapter or a problem code: none)."""
    wmi_ver = next((v["driver_version"] for v in nv_vids if v["nvidia_version"]), None)
    nv_from_wmi = map_windows_driver_version(wmi_ver) if wmi_ver else None
    drv_version = table.driver_version or next((r["driver_version"] for r in query_rows if r.get("driver_version")), None) or nv_from_wmi
    basic = any("basic display" in str(v["name"] or "").lower() for v in nv_vids)
    broken = [v for v in nv_vids if isinstance(v["error_code"], int) and v["error_code"] != 0]
    state: DriverState
    if table.driver_version or query_rows:
        state = "ok"
    elif nv_vids and (basic or not wmi_ver or broken):
        state = "not_installed"  # Microsoft Basic Display Adapter, or Device Manager shows a problem code
    elif nv_vids:
        state = "ok" if not smi_path else "unknown"  # WMI sees a working NVIDIA driver; nvidia-smi.exe failed
    else:
        state = "not_installed"
    return DriverInfo(state=state, version=drv_version, cuda_version=table.cuda_version,
                      windows_version=wmi_ver, source="nvidia_smi" if table.driver_version or query_rows else ("wmi" if wmi_ver else ""))


def _fill_from_table(g: Gpu) -> Gpu:
    """Compute capability and architecture from the bundled PCI/name table (app.compat.gpus)."""
    if g.compute_capability and g.architecture:
        return g
    try:
        from app.compat import gpus as table
    except ImportError:
        return g
    try:
        hit = (table.lookup_pci(g.pci_id) if g.pci_id else None) or table.lookup_name(g.name)
    except Exception:  # a broken table must not break detection
        return g
    if hit is None:
        return g
    return g.replace(compute_capability=g.compute_capability or hit.compute_capability,
                     architecture=g.architecture or hit.architecture)
