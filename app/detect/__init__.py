"""Detection: an ordered chain of small probes → Facts.

GPUs: NVML → `nvidia-smi --query-gpu` → the plain `nvidia-smi` table → /proc/driver/nvidia →
/sys/bus/pci (or `lspci -nn`), each recorded as a ProbeRecord (which answered, how long, timeouts).
Independent commands (NVML, packages, nvcc, uname) run side by side. Everything reads through
`System`, so a snapshot replays exactly what the live machine answered. Never raises for a broken
machine: problems become Findings with stable codes.
"""
from __future__ import annotations

import re
import time
import threading
from dataclasses import replace
from functools import partial
from typing import Any, Callable, Optional

from app.compat import gpus as gpu_table
from app.detect import cuda_toolkit, cudnn, env as envp, modules as modp, os_release as osr, packages as pkgs
from app.detect import pci as pcip, proc as procp, python_env as pyenv, secure_boot as sb, smi
from app.detect.nvml import parse_nvml
from app.facts import (CudaInfo, CudnnInfo, DriverInfo, EnvInfo, Facts, Finding, Gpu, OsInfo, PackageInfo,
                       ProbeRecord, PythonEnv)
from app.detect.findings import finding
from app.system import CommandResult

# Seconds each external command may take before it is killed (tests shrink these).
TIMEOUTS: dict[str, float] = {"nvidia_smi": 8.0, "packages": 10.0, "nvcc": 5.0, "short": 3.0, "python": 5.0,
                              "torch": pyenv.TORCH_TIMEOUT_S, "lspci": 5.0}
LOW_DISK_MIB = 10 * 1024


class _Log:
    """Probe records and findings collected during one detection."""

    def __init__(self) -> None:
        self.probes: list[ProbeRecord] = []
        self.findings: list[Finding] = []
        self.timed_out: list[str] = []
        self.driver_evidence: list[str] = []

    def probe(self, name: str, status: str, t0: float, detail: str = "") -> None:
        self.probes.append(ProbeRecord(name=name, status=status, duration_ms=round((time.perf_counter() - t0) * 1000, 2),  # type: ignore[arg-type]
                                       detail=detail[:300]))

    def add(self, code: str, severity: str, evidence=(), **params) -> None:
        """A finding by its code and figures (app.detect.findings: the catalogue says it); once per code."""
        self.add_finding(finding(code, severity, evidence, **params))

    def add_finding(self, f: Finding) -> None:
        if not any(x.code == f.code for x in self.findings):
            self.findings.append(f)

    def join(self, other: _Log) -> None:
        """Another log's records after this one's, as if its probes had run here and now."""
        self.probes += other.probes
        self.timed_out += other.timed_out
        self.driver_evidence += other.driver_evidence
        for f in other.findings:
            self.add_finding(f)

    def cmd(self, system, name: str, argv: list[str], timeout: float) -> CommandResult:
        t0 = time.perf_counter()
        try:
            r = system.run(argv, timeout)
        except Exception as e:  # a broken System must not break detection
            self.probe(name, "error", t0, f"{type(e).__name__}: {e}")
            return CommandResult(rc=126, stderr=str(e))
        if r.timed_out:
            self.timed_out.append(name)
            self.probe(name, "timeout", t0, f"{' '.join(argv[:2])} killed after {timeout:g} s")
            # one finding for all timed-out probes, kept up to date when several time out
            slow = finding("probe_timeout", "warning", self.timed_out, names=", ".join(self.timed_out))
            self.add_finding(slow)
            self.findings = [f if f.code != "probe_timeout" else slow for f in self.findings]
        else:
            self.probe(name, "not_found" if r.rc == 127 else ("ok" if r.rc == 0 else "error"), t0,
                       "" if r.rc == 0 else (r.stderr or r.stdout).strip()[:200])
        return r


class _Job:
    """One call in its own daemon thread; result() waits for it and returns its value or raises its error.
    (concurrent.futures would do, but its import, logging included, is a tenth of detection's own time.)"""

    def __init__(self, fn: Callable[..., Any], *args: Any) -> None:
        self._fn, self._args = fn, args
        self._value: Any = None
        self._error: Optional[BaseException] = None
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            self._value = self._fn(*self._args)
        except BaseException as e:  # handed to result(), in the waiting thread
            self._error = e

    def result(self) -> Any:
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self._value


def _safe(fn: Callable[[], Any], default: Any = None) -> Any:
    try:
        return fn()
    except Exception:
        return default


def _source_name(system) -> str:
    if system.__class__.__name__ == "SnapshotSystem":
        return f"snapshot:{getattr(system, 'name', '')}"
    inner = getattr(system, "inner", None)
    if inner is not None and inner.__class__.__name__ == "SnapshotSystem":
        return f"snapshot:{getattr(inner, 'name', '')}"
    return "live"


def max_cuda_for_driver(version: Optional[str], platform: str = "linux") -> Optional[str]:
    """The newest CUDA a driver version supports, from the compat DB when it is there."""
    if not version:
        return None
    try:
        from app.compat import load_db

        v = load_db().max_cuda_for_driver(version, platform)
        return str(v) if v else None
    except Exception:
        return None


def detect(system, *, torch_probe: bool = False, python: Optional[str] = None, venv_check: bool = True) -> Facts:
    """Detect everything about the machine behind `system` (live or snapshot). Never raises
    for a broken machine: problems become findings. `torch_probe` also runs the selected
    Python (`python`, default: the first found) to read its torch. `venv_check=False` skips asking each
    system Python whether it can make a venv (a diagnosis does not need it; it costs an interpreter start)."""
    log = _Log()
    t_start = time.perf_counter()
    try:
        facts = _detect(system, log, torch_probe, python, venv_check)
    except Exception as e:  # last line of defence: a bug must not cost the user the whole answer
        log.add("detection_error", "error", [f"{type(e).__name__}: {e}"])
        facts = Facts(findings=tuple(log.findings), probes=tuple(log.probes), source=_safe(lambda: _source_name(system), "live"),
                      created=_safe(system.now))
    log.probe("total", "ok", t_start)
    return replace(facts, probes=tuple(log.probes), findings=tuple(log.findings))


def _detect(system, log: _Log, torch_probe: bool, python: Optional[str], venv_check: bool = True) -> Facts:
    source = _source_name(system)
    created = _safe(system.now)
    if getattr(system, "platform", "linux") == "windows":
        return _detect_windows(system, log, source, created)

    # -- side by side: NVML and the commands nobody waits on
    t_nvml = time.perf_counter()
    f_nvml = _Job(system.nvml)
    f_uname = _Job(log.cmd, system, "uname", ["uname", "-m"], TIMEOUTS["short"])
    has_dpkg = _safe(lambda: system.which("dpkg-query"))
    has_rpm = None if has_dpkg else _safe(lambda: system.which("rpm"))
    f_pkgs = _Job(log.cmd, system, "packages", pkgs.DPKG_ARGV if has_dpkg or not has_rpm else pkgs.RPM_ARGV, TIMEOUTS["packages"]) \
        if (has_dpkg or has_rpm) else None
    nvcc_path = _safe(lambda: system.which("nvcc"))
    if not nvcc_path and _safe(lambda: system.exists("/usr/local/cuda/bin/nvcc")):
        nvcc_path = "/usr/local/cuda/bin/nvcc"
    f_nvcc = _Job(log.cmd, system, "nvcc", [nvcc_path if nvcc_path.startswith("/usr/local/cuda/") else "nvcc", "--version"], TIMEOUTS["nvcc"]) \
        if nvcc_path else None
    f_mok = _Job(log.cmd, system, "mokutil", sb.MOKUTIL_ARGV, TIMEOUTS["short"]) \
        if _safe(lambda: system.which("mokutil")) else None
    f_py = _Job(_pythons, system, log, venv_check)

    # -- files (fast, sequential)
    t0 = time.perf_counter()
    os_info, os_findings = _os(system, log)
    log.probe("os", "ok" if os_info.id or os_info.kernel else "not_found", t0)

    t0 = time.perf_counter()
    mods_text = _safe(lambda: system.read_text(modp.PROC_MODULES))
    loaded = modp.parse_proc_modules(mods_text) if mods_text is not None else None
    log.probe("modules", "ok" if loaded is not None else "not_found", t0)

    t0 = time.perf_counter()
    proc = procp.parse_proc_driver_version(_safe(lambda: system.read_text(procp.PROC_VERSION)))
    sysmod = procp.parse_sys_module_version(_safe(lambda: system.read_text(procp.SYS_MODULE_VERSION)))
    log.probe("proc_driver", "ok" if proc or sysmod else "not_found", t0,
              f"{proc.version} ({proc.kernel_module})" if proc else "")

    # -- what does not need NVML's answer first: the early thread (app/nvml_live.py) may still be reading
    t0 = time.perf_counter()
    displays = _safe(lambda: pcip.read_sysfs_displays(system), None)
    pci_devs = pcip.nvidia_display(displays) if displays is not None else None
    if pci_devs is not None:
        log.probe("sysfs_pci", "ok" if pci_devs else "not_found", t0, f"{len(pci_devs)} NVIDIA display device(s)")
        lspci_devs: list = []
    else:
        log.probe("sysfs_pci", "not_found", t0)
        r = log.cmd(system, "lspci", pcip.LSPCI_ARGV, TIMEOUTS["lspci"])
        displays = [d for d in pcip.parse_lspci_nn(r.stdout) if d.is_display] if r.rc == 0 or r.stdout else []
        lspci_devs = pcip.nvidia_display(displays)
    graphics = _safe(lambda: _graphics(system, displays or [], "sysfs" if pci_devs is not None else "lspci"), None)

    pk_res = _safe(lambda: f_pkgs.result(), None) if f_pkgs else None
    if pk_res is not None and pk_res.rc == 127 and has_dpkg:  # an older snapshot: the full listing
        pk_res = _safe(lambda: log.cmd(system, "packages", pkgs.DPKG_ARGV_ALL, TIMEOUTS["packages"]), None)
    packages: list[PackageInfo] = []
    if pk_res is not None and pk_res.stdout:
        packages = pkgs.parse_dpkg(pk_res.stdout) if "dpkg" in " ".join(pkgs.DPKG_ARGV[:1]) and (has_dpkg or not has_rpm) else pkgs.parse_rpm(pk_res.stdout)
    if not packages and f_pkgs is None:  # a snapshot holding a pasted `dpkg -l`
        r = _safe(lambda: system.run(["dpkg", "-l"], TIMEOUTS["packages"]))
        if r is not None and r.rc == 0:
            packages = pkgs.parse_dpkg(r.stdout)

    os_info, wf = _wsl(system, log, os_info, packages)
    os_findings = list(os_findings) + list(wf)

    # -- toolkits, cuDNN, env: files that need no NVML answer, read while the early thread may still be querying.
    # Their records join the log after the GPU chain's, where they always stood.
    files_log = _Log()
    cuda = _cuda(system, files_log, packages, nvcc_path, f_nvcc)
    env = _env(system, files_log, cuda)

    # -- the GPU chain
    nvml = _safe(lambda: f_nvml.result(), None)
    gpus, drv = _gpu_chain(system, log, nvml, t_nvml)
    gpus = _merge_pci(gpus, pci_devs or lspci_devs, "sysfs_pci" if pci_devs else "lspci")
    gpus = [_complete(g) for g in gpus]
    driver = _driver(system, log, drv, proc, sysmod, loaded, packages, gpus, os_info)
    log.join(files_log)

    mok = _safe(lambda: f_mok.result(), None) if f_mok else None
    secure = _secure_boot(system, log, mok)
    headers = _headers(system, os_info.kernel)
    driver = replace(driver, secure_boot=secure, kernel_headers_installed=headers)

    uname = _safe(lambda: f_uname.result(), None)
    arch = uname.stdout.strip() if uname is not None and uname.rc == 0 and uname.stdout.strip() else None
    os_info = replace(os_info, arch=arch or (proc.arch if proc else None))

    pythons = _safe(lambda: f_py.result(), []) or []

    for f in os_findings:
        log.add_finding(f)

    selected: Optional[PythonEnv] = None
    if python:
        selected = next((p for p in pythons if p.path == python), None)
        if selected is None:  # an interpreter the search did not list (a venv's python, a symlink): its own version
            selected = PythonEnv(path=python, kind="selected",
                                 version=pyenv.version_from_path(system, python) or _run_version(system, log, python))
    elif pythons:
        selected = pythons[0]
    if torch_probe and selected is not None:
        selected = _torch(system, log, selected, gpus)
        pythons = [selected if p.path == selected.path else p for p in pythons]

    facts = Facts(os=os_info, driver=driver, gpus=tuple(gpus), cuda=cuda, env=env, pythons=tuple(pythons),
                  python=selected, source=source, created=created)
    if graphics is not None:
        facts = replace(facts, graphics=graphics)
    _findings(facts, log)
    return facts


def _graphics(system, displays: list, source: str):
    """Every display controller, which of them has displays connected (DRM), and a hybrid machine's PRIME mode and the
    NVIDIA GPU's runtime power management."""
    connected = pcip.read_drm_connected(system) if source == "sysfs" else {}
    nv = pcip.nvidia_display(displays)
    pm = _safe(lambda: system.read_text(f"{pcip.SYSFS_PCI}/{nv[0].bus_id}/power/control"), None) if len(nv) == 1 and source == "sysfs" else None
    prime = pcip.prime_mode(_safe(lambda: system.read_text(pcip.PRIME_DISCRETE), None))
    return pcip.graphics_info(displays, connected, prime, pm, source)


# ---------------------------------------------------------------- OS
def _os(system, log: _Log) -> tuple[OsInfo, list[Finding]]:
    rel = osr.parse_os_release(_safe(lambda: system.read_text("/etc/os-release")) or _safe(lambda: system.read_text("/usr/lib/os-release")))
    pv = _safe(lambda: system.read_text("/proc/version"))
    id_like = tuple((rel.get("ID_LIKE") or "").split())
    uid = osr.parse_uid(_safe(lambda: system.read_text("/proc/self/status")))
    info = OsInfo(
        platform="linux", id=rel.get("ID") or None, version_id=rel.get("VERSION_ID") or None,
        codename=rel.get("VERSION_CODENAME") or rel.get("UBUNTU_CODENAME") or None, pretty_name=rel.get("PRETTY_NAME") or None,
        base_codename=rel.get("UBUNTU_CODENAME") or rel.get("DEBIAN_CODENAME") or None,
        id_like=id_like, kernel=osr.parse_proc_version(pv), package_manager=osr.package_manager(rel.get("ID"), id_like),
        memory_total_mib=osr.parse_meminfo_total_mib(_safe(lambda: system.read_text("/proc/meminfo"))),
        is_root=None if uid is None else uid == 0,
        free_disk_mib=_safe(lambda: system.disk_free_mib("/usr/local")), home=_safe(lambda: system.getenv("HOME")) or None,
        container=osr.container_from(bool(_safe(lambda: system.exists("/.dockerenv"))), bool(_safe(lambda: system.exists("/run/.containerenv"))),
                                     _safe(lambda: system.getenv("container")), _safe(lambda: system.read_text("/proc/1/cgroup"))),
    )
    return info, []


def _wsl(system, log: _Log, info: OsInfo, packages: list[PackageInfo]) -> tuple[OsInfo, list[Finding]]:
    pv = _safe(lambda: system.read_text("/proc/version"))
    findings: list[Finding] = []
    t0 = time.perf_counter()
    try:
        from app.detect.wsl import detect_wsl  # the wsl-windows engineer's probe

        try:
            info, wf = detect_wsl(system, info, packages=packages)
        except TypeError:
            info, wf = detect_wsl(system, info)
        findings.extend(wf)
        log.probe("wsl", "ok", t0, f"wsl={info.wsl}")
    except (ImportError, AttributeError):
        wsl = osr.wsl_from_proc_version(pv)
        if wsl:
            libs = [e for e in (_safe(lambda: system.list_dir("/usr/lib/wsl/lib")) or []) if e.startswith("libcuda.so")]
            info = replace(info, wsl=wsl, wsl_dxg=bool(_safe(lambda: system.exists("/dev/dxg"))),
                           wsl_libcuda=tuple(f"/usr/lib/wsl/lib/{e}" for e in libs), wsl_kernel=info.kernel)
        log.probe("wsl", "ok" if wsl else "not_found", t0, "fallback: /proc/version")
    except Exception as e:
        log.probe("wsl", "error", t0, f"{type(e).__name__}: {e}")
    return info, findings


# ---------------------------------------------------------------- GPUs
def _gpu_from_fields(d: dict[str, Any], source: str) -> Gpu:
    keep = {k: v for k, v in d.items() if k in Gpu.__dataclass_fields__ and v is not None}
    keep.setdefault("index", 0)
    keep.setdefault("name", "")
    return Gpu(source=source, **{k: v for k, v in keep.items() if k != "source"})


def _gpu_chain(system, log: _Log, nvml: Optional[dict], t_nvml: float) -> tuple[list[Gpu], dict[str, Any]]:
    """(GPUs, what the driver said: version, cuda_version, error state, source, evidence)."""
    drv: dict[str, Any] = {"version": None, "cuda_version": None, "error": None, "source": "", "evidence": []}
    gpus: list[Gpu] = []
    # 1. NVML
    if isinstance(nvml, dict) and not nvml.get("error"):
        try:
            parsed = parse_nvml(nvml)
        except Exception as e:
            parsed = None
            log.probe("nvml", "error", t_nvml, f"unreadable NVML record: {e}")
        if parsed is not None:
            gpus = list(parsed)
            drv.update(version=nvml.get("driver_version"), source="nvml")
            cdv = nvml.get("cuda_driver_version")
            if isinstance(cdv, int) and cdv > 0:
                drv["cuda_version"] = f"{cdv // 1000}.{cdv % 1000 // 10}"
            log.probe("nvml", "ok" if gpus else "not_found", t_nvml, f"{len(gpus)} GPU(s), driver {drv['version']}")
    elif isinstance(nvml, dict):
        nvml_err = str(nvml.get("error"))
        drv["nvml_error"] = nvml_err
        drv["evidence"].append(f"NVML: {nvml_err}")
        log.probe("nvml", "error", t_nvml, nvml_err)
    else:
        log.probe("nvml", "not_found", t_nvml, "NVML library not available")
    if gpus and drv["cuda_version"]:
        for n in ("nvidia_smi_query", "nvidia_smi_table"):
            log.probes.append(ProbeRecord(name=n, status="skipped", detail="NVML answered"))
        return gpus, drv

    # 2. nvidia-smi --query-gpu
    exe = "nvidia-smi"
    if not _safe(lambda: system.which("nvidia-smi")) and _safe(lambda: system.exists("/usr/lib/wsl/lib/nvidia-smi")):
        exe = "/usr/lib/wsl/lib/nvidia-smi"
    timed_out = False
    smi_missing = False
    if not gpus:
        r = log.cmd(system, "nvidia_smi_query", smi.query_argv(exe=exe), TIMEOUTS["nvidia_smi"])
        fields: tuple[str, ...] = smi.QUERY_FIELDS
        if r.rc not in (0, 127) and not r.timed_out and "not a valid field" in (r.stdout + r.stderr):
            fields = smi.BASIC_FIELDS
            r = log.cmd(system, "nvidia_smi_query", smi.query_argv(fields, exe=exe), TIMEOUTS["nvidia_smi"])
        timed_out, smi_missing = r.timed_out, r.rc == 127
        err = smi.parse_smi_error(r.stdout + "\n" + r.stderr) if r.rc != 0 else None
        if err:
            drv["error"] = err
            drv["evidence"].append((r.stdout + r.stderr).strip()[:300])
            lib = smi.nvml_library_version(r.stdout + r.stderr)
            if lib:
                drv["nvml_library_version"] = lib
        rows = smi.parse_smi_query(r.stdout, fields) if r.rc == 0 else []
        bad = [f"GPU {row.get('index', '?').strip()}: " + ", ".join(k for k, v in row.items() if smi.is_error_value(v))
               for row in rows if any(smi.is_error_value(v) for v in row.values())]
        if bad:
            log.add("smi_gpu_field_err", "warning", bad, gpu_fields="; ".join(bad))
        for row in rows:
            d = smi.gpu_fields_from_query(row)
            drv["version"] = drv["version"] or d.pop("driver_version", None)
            d.pop("driver_version", None)
            gpus.append(_gpu_from_fields(d, "nvidia_smi_query"))
        if gpus:
            drv["source"] = "nvidia_smi_query"
    else:
        log.probes.append(ProbeRecord(name="nvidia_smi_query", status="skipped", detail="NVML answered"))

    # 3. the plain table (also the only place with the driver's CUDA version when NVML is absent)
    if not timed_out and not (smi_missing and _source_name(system) == "live"):
        r = log.cmd(system, "nvidia_smi_table", smi.TABLE_ARGV if exe == "nvidia-smi" else [exe], TIMEOUTS["nvidia_smi"])
        table = smi.parse_smi_table(r.stdout + ("\n" + r.stderr if r.rc else ""))
        if table.error and not drv["error"]:
            drv["error"] = table.error
            drv["evidence"].append((r.stdout + r.stderr).strip()[:300])
            lib = smi.nvml_library_version(r.stdout + r.stderr)
            if lib:
                drv["nvml_library_version"] = lib
        drv["version"] = drv["version"] or table.driver_version
        drv["cuda_version"] = drv["cuda_version"] or table.cuda_version
        if table.cuda_field and not drv["cuda_version"]:
            ev = next((ln.strip() for ln in smi.strip_prefixes(r.stdout).splitlines() if "CUDA" in ln and "Version" in ln), "")
            log.add("smi_cuda_version_err" if table.cuda_field == "ERR!" else "smi_cuda_version_na", "warning", [ev])
        bad = [f"GPU {t['index']} ({t['name']}): {', '.join(t['err_fields'])}" for t in table.gpus if t.get("err_fields")]
        if bad:
            log.add("smi_gpu_field_err", "warning", bad, gpu_fields="; ".join(bad))
        if not gpus and table.gpus:
            for t in table.gpus:
                gpus.append(_gpu_from_fields({k: t.get(k) for k in ("index", "name", "bus_id", "memory_total_mib",
                                                                     "power_limit_w", "persistence_mode", "compute_mode")}, "nvidia_smi_table"))
            drv["source"] = "nvidia_smi_table"
    elif timed_out:
        log.probes.append(ProbeRecord(name="nvidia_smi_table", status="skipped", detail="nvidia-smi timed out already"))
    return gpus, drv


def _merge_pci(gpus: list[Gpu], devs: list, source: str) -> list[Gpu]:
    by_bus = {d.bus_id: d for d in devs}
    if gpus:
        out = []
        for g in gpus:
            d = by_bus.get(g.bus_id or "")
            if d is None and len(devs) == 1 and len(gpus) == 1:
                d = devs[0]
            if d is not None:
                g = replace(g, pci_id=g.pci_id or d.pci_id,
                            subsystem_id=g.subsystem_id or (f"{d.subsystem_vendor}:{d.subsystem_device}" if d.subsystem_vendor and d.subsystem_device else None),
                            bus_id=g.bus_id or d.bus_id,
                            pcie_gen_current=g.pcie_gen_current if g.pcie_gen_current is not None else d.link_gen_current,
                            pcie_gen_max=g.pcie_gen_max if g.pcie_gen_max is not None else d.link_gen_max,
                            pcie_width_current=g.pcie_width_current if g.pcie_width_current is not None else d.link_width_current,
                            pcie_width_max=g.pcie_width_max if g.pcie_width_max is not None else d.link_width_max)
            out.append(g)
        return out
    out = []
    for i, d in enumerate(sorted(devs, key=lambda d: d.bus_id or "~")):
        model = gpu_table.lookup_pci(d.device)
        name = _display_name(model.name) if model else (pcip.lspci_model_name(d.description) or f"NVIDIA device {d.pci_id}")
        out.append(Gpu(index=i, name=name, pci_id=d.pci_id, bus_id=d.bus_id or None,  # "": an lspci paste without its slot
                       subsystem_id=f"{d.subsystem_vendor}:{d.subsystem_device}" if d.subsystem_vendor and d.subsystem_device else None,
                       pcie_gen_current=d.link_gen_current, pcie_gen_max=d.link_gen_max,
                       pcie_width_current=d.link_width_current, pcie_width_max=d.link_width_max,
                       source="pci_table" if model else source))
    return out


def _display_name(table_name: str) -> str:
    """How NVIDIA's tools spell a table name: 'GeForce RTX 4090' → 'NVIDIA GeForce RTX 4090'."""
    return table_name if table_name.startswith(("Tesla", "Quadro", "NVIDIA")) else "NVIDIA " + table_name


def _complete(g: Gpu) -> Gpu:
    """Fill compute capability, architecture, laptop flag and a full name from the GPU table."""
    model = gpu_table.lookup_pci(g.pci_id.split(":")[-1]) if g.pci_id else None
    by_pci = model is not None
    if model is None and g.name:
        model = gpu_table.lookup_name(g.name, g.memory_total_mib)
    cc = g.compute_capability or (model.compute_capability if model else None) or gpu_table.cc_from_name(g.name)
    arch = g.architecture or (model.architecture if model and model.compute_capability == cc else None) or gpu_table.architecture_for_cc(cc)
    name = g.name
    if model and (not name or smi.is_truncated_name(name) or name.startswith("NVIDIA device")):
        # a completed name never contradicts the memory column: complete from the PCI id, or from the one
        # row the name and the memory both fit; otherwise keep the name as the tool printed it
        if gpu_table.memory_agrees(model, g.memory_total_mib) is not False and \
                (by_pci or not name or len(gpu_table.lookup_name_all(name, g.memory_total_mib)) == 1):
            name = _display_name(model.name)
    laptop = g.is_laptop
    if laptop is None:
        laptop = model.is_laptop if model else (bool(re.search(r"Laptop|Mobile|Max-Q", name)) or None)
    return replace(g, name=name, compute_capability=cc, architecture=arch, is_laptop=laptop)


# ---------------------------------------------------------------- driver
def _driver(system, log: _Log, drv: dict, proc, sysmod, loaded, packages, gpus: list[Gpu], os_info: OsInfo) -> DriverInfo:
    version = drv.get("version") or (proc.version if proc else None) or sysmod
    cuda = drv.get("cuda_version") or max_cuda_for_driver(version, "linux")
    nvidia_loaded = None if loaded is None else "nvidia" in loaded
    mods = tuple(m for m in modp.NVIDIA_MODULES if loaded and m in loaded)
    nouveau = None if loaded is None else "nouveau" in loaded
    pkg_version = pkgs.driver_package_version(packages)
    err = drv.get("error")
    nvml_err = drv.get("nvml_error") or ""
    hint = None
    if os_info.wsl == 2:
        state = "host"
    elif drv.get("source") in ("nvml", "nvidia_smi_query", "nvidia_smi_table") and gpus:
        state = "ok"
    elif err == "mismatch":
        state = "mismatch"
    elif err == "no_communication":
        state = "no_communication" if nvidia_loaded is not False else "not_loaded"
    elif err in ("nvml_failed", "gpu_lost", "no_devices"):
        state = "nvml_failed"
    elif proc or sysmod or nvidia_loaded:
        state = "ok" if not nvml_err else "nvml_failed"
    elif "DriverNotLoaded" in nvml_err or "Driver Not Loaded" in nvml_err or pkg_version:
        state = "not_loaded"
    elif nvml_err and "LibraryNotFound" not in nvml_err:
        state = "nvml_failed"
    elif gpus or nvidia_loaded is False or nvml_err:
        state = "not_installed"
    else:
        state = "unknown"
    module_version = sysmod or (proc.version if proc else None)
    if state == "mismatch":
        lib = drv.get("nvml_library_version") or pkg_version
        hint = ("The driver's user-space libraries were updated but the old kernel module is still loaded. Reboot. "
                "If it persists after a reboot, the initramfs holds a stale nvidia module: rebuild it (sudo update-initramfs -u) and reboot.")
        if lib and module_version and not module_version.startswith(lib) and not lib.startswith(module_version):
            drv["evidence"].append(f"kernel module {module_version}, user-space library {lib}")
    log.driver_evidence = [e for e in drv.get("evidence", []) if e]
    source = drv.get("source") or ("proc_driver" if proc else ("sysfs_module" if sysmod else ""))
    return DriverInfo(state=state, version=version, cuda_version=cuda, kernel_module=proc.kernel_module if proc else None,  # type: ignore[arg-type]
                      kernel_module_version=module_version, modules_loaded=mods, nouveau_loaded=nouveau, hint=hint, source=source)


def _secure_boot(system, log: _Log, mok: Optional[CommandResult]) -> Optional[bool]:
    v = None
    if mok is not None and (mok.stdout or mok.stderr):
        v = sb.parse_mokutil(mok.stdout + "\n" + mok.stderr)
    if v is None and _safe(lambda: system.exists(sb.EFIVAR)):
        r = log.cmd(system, "secure_boot_efivar", sb.od_argv(), TIMEOUTS["short"])
        v = sb.parse_od_efivar(r.stdout) if r.rc == 0 else None
    if v is None and mok is not None and (mok.stdout or mok.stderr):
        v = sb.parse_mokutil(mok.stdout + "\n" + mok.stderr)
    if v is None and _safe(lambda: system.list_dir("/sys/firmware")) is not None and not _safe(lambda: system.exists(sb.EFI_DIR)):
        v = False  # legacy BIOS boot: no Secure Boot
    return v


def _headers(system, kernel: Optional[str]) -> Optional[bool]:
    if not kernel:
        return None
    if _safe(lambda: system.list_dir(f"/lib/modules/{kernel}")) is None:
        return None
    return bool(_safe(lambda: system.exists(f"/lib/modules/{kernel}/build")))


# ---------------------------------------------------------------- CUDA, cuDNN, env
def _cuda(system, log: _Log, packages, nvcc_path, f_nvcc) -> CudaInfo:
    t0 = time.perf_counter()
    toolkits, active, dangling = _safe(lambda: cuda_toolkit.find_toolkits(system), ([], None, False))
    uninstallers = _safe(lambda: cuda_toolkit.find_uninstallers(system, toolkits), []) or []
    nvcc_version = None
    if f_nvcc is not None:
        r = _safe(lambda: f_nvcc.result(), None)
        if r is not None and r.rc == 0:
            nvcc_version = cuda_toolkit.parse_nvcc_version(r.stdout)
    log.probe("cuda_toolkit", "ok" if toolkits or nvcc_version else "not_found", t0,
              ", ".join(f"{t.path} ({t.version})" for t in toolkits))
    t0 = time.perf_counter()
    header = ver = None
    for h in cudnn.HEADER_CANDIDATES + tuple(f"{t.path}/include/cudnn_version.h" for t in toolkits):
        ver = cudnn.parse_cudnn_header(_safe(partial(system.read_text, h)))
        if ver:
            header = h
            break
    libs = cudnn.libs_in_dirs(system, cudnn.LIB_DIRS + tuple(f"{t.path}/lib64" for t in toolkits))
    cudnn_pkgs = tuple(p for p in packages if "cudnn" in p.name)
    if ver is None:
        ver = cudnn.version_from_libs(libs)
    if ver is None:
        for p in cudnn_pkgs:
            m = re.match(r"(\d+\.\d+\.\d+)", p.version)
            if m:
                ver = m.group(1)
                break
    log.probe("cudnn", "ok" if ver or libs else "not_found", t0, ver or "")
    cuda_pkgs = tuple(p for p in packages if "cudnn" not in p.name)
    if dangling:
        log.add("cuda_link_dangling", "warning", [f"/usr/local/cuda -> {active}"], target=active)
    return CudaInfo(toolkits=tuple(toolkits), active_link=active, nvcc_path=nvcc_path, nvcc_version=nvcc_version,
                    packages=cuda_pkgs, runfile_uninstallers=tuple(uninstallers),
                    cudnn=CudnnInfo(version=ver, header=header, libraries=tuple(libs), packages=cudnn_pkgs))


def _env(system, log: _Log, cuda: CudaInfo) -> EnvInfo:
    t0 = time.perf_counter()
    variables = {}
    for k in envp.VARIABLES:
        v = _safe(partial(system.getenv, k))
        if v is not None:
            variables[k] = v
    files = []
    home = variables.get("HOME")
    if home:
        files += [f"{home}/{f}" for f in (".bashrc", ".profile", ".bash_profile", ".zshrc")]
    files.append("/etc/environment")
    files += [f"/etc/profile.d/{e}" for e in (_safe(lambda: system.list_dir("/etc/profile.d")) or []) if e.endswith(".sh")]
    rc_lines = []
    for f in files:
        rc_lines += envp.cuda_lines(f, _safe(partial(system.read_text, f)))
    ld = _safe(lambda: envp.ld_conf_entries(system, cuda.active_link), []) or []
    for var in ("CUDA_HOME", "CUDA_PATH"):
        v = variables.get(var)
        if v and not _safe(partial(system.exists, v)):
            log.add("env_cuda_home_missing", "warning", [f"{var}={v}"], var=var, path=v)
    ca_var = next((k for k in envp.CA_VARS if variables.get(k)), None)  # the CA bundle pip and requests would read
    if ca_var and not _safe(lambda: system.exists(variables[ca_var])):
        log.add("env_ca_bundle_missing", "warning", [f"{ca_var}={variables[ca_var]}"], var=ca_var, path=variables[ca_var])
    log.probe("env", "ok", t0, f"{len(rc_lines)} CUDA line(s), {len(ld)} ld.so.conf.d CUDA entr(ies)")
    return EnvInfo(variables=variables, rc_lines=tuple(rc_lines), ld_conf=tuple(ld))


# ---------------------------------------------------------------- Python and torch
def _run_version(system, log: _Log, path: str) -> Optional[str]:
    r = log.cmd(system, "python_version", [path, "--version"], TIMEOUTS["python"])
    return pyenv.parse_python_version(r.stdout + r.stderr) if r.rc == 0 else None


def _pythons(system, log: _Log, venv_check: bool = True) -> list[PythonEnv]:
    """The interpreters worth offering, each asked side by side (one short start each, none where the path
    names the version and no venv check is wanted)."""
    t0 = time.perf_counter()
    cands = _safe(lambda: pyenv.candidates(system), []) or []
    if not cands:
        log.probe("pythons", "not_found", t0)
        return []
    jobs = [_Job(_python, system, log, path, kind, venv_check) for path, kind in cands]
    out = [j.result() for j in jobs]
    log.probe("pythons", "ok", t0, ", ".join(p.path for p in out))
    return out


def _python(system, log: _Log, path: str, kind: str, venv_check: bool) -> PythonEnv:
    """One interpreter: its version, and for a system Python whether it can make the PyTorch venv."""
    known = pyenv.version_from_path(system, path)
    wants_venv = kind == "system" and venv_check
    if not pyenv.needs_probe(system, path, kind, venv_check):
        return PythonEnv(path=path, version=known, kind=kind)
    r = log.cmd(system, "python_probe", pyenv.probe_argv(path), TIMEOUTS["python"])
    version, venv_ok = pyenv.parse_probe(r.rc, r.stdout)
    if r.rc != 0 and not r.timed_out:  # an older snapshot (it holds the two checks of before), or a Python without -I
        version = known or _run_version(system, log, path)
        if wants_venv:
            rv = log.cmd(system, "python_venv", pyenv.venv_argv(path), TIMEOUTS["python"])
            venv_ok = pyenv.parse_venv_check(rv.rc, rv.stderr)
    return PythonEnv(path=path, version=known or version, kind=kind, venv_ok=venv_ok if wants_venv else None)


def _torch(system, log: _Log, env: PythonEnv, gpus: list[Gpu]) -> PythonEnv:
    r = log.cmd(system, "torch", pyenv.torch_argv(env.path), TIMEOUTS["torch"])
    if r.timed_out:
        from app.facts import TorchInfo

        info = TorchInfo(error=f"the torch probe did not finish in {TIMEOUTS['torch']:g} s")
    elif r.rc == 127:
        from app.facts import TorchInfo

        info = TorchInfo(error=f"{env.path} cannot be run")
    else:
        info = pyenv.parse_torch_probe(r.stdout, [g.compute_capability for g in gpus])
    version = env.version
    m = re.search(r'"python":\s*"([0-9.]+)"', r.stdout or "")
    if m:
        version = m.group(1)
    return replace(env, torch=info, version=version)


# ---------------------------------------------------------------- Windows
def _detect_windows(system, log: _Log, source: str, created) -> Facts:
    t0 = time.perf_counter()
    try:
        from app.detect.windows import detect_windows  # the wsl-windows engineer's probe

        os_info, driver, gpus, win, findings = detect_windows(system)
        log.probe("windows", "ok", t0)
        for f in findings:
            log.add_finding(f)
        gpus = [_complete(g) for g in gpus]
        if not driver.cuda_version and driver.version:
            driver = replace(driver, cuda_version=max_cuda_for_driver(driver.version, "windows"))
        return Facts(os=os_info, driver=driver, gpus=tuple(gpus), windows=win, source=source, created=created)
    except (ImportError, AttributeError):
        log.probe("windows", "not_found", t0, "Windows detection is not available in this build")
        log.add("windows_detection_unavailable", "warning")
        from app.facts import OsInfo as _Os

        return Facts(os=_Os(platform="windows", id="windows"), source=source, created=created)


# ---------------------------------------------------------------- findings
def _findings(f: Facts, log: _Log) -> None:
    d, o = f.driver, f.os
    names = ", ".join(g.name for g in f.gpus)
    if not f.gpus and o.wsl == 0:
        log.add("no_nvidia_gpu", "warning")  # same severity as recommend's
    if d.state == "not_installed" and f.gpus:
        log.add("driver_not_installed", "error", [g.pci_id or g.name for g in f.gpus], gpus=names)
    elif d.state == "not_loaded":
        log.add("driver_not_loaded", "error", [f"modules loaded: {', '.join(d.modules_loaded) or 'none'}"])
    elif d.state == "no_communication":
        log.add("driver_no_communication", "error", log.driver_evidence)
    elif d.state == "mismatch":
        log.add("driver_version_mismatch", "error", log.driver_evidence + ([f"kernel module {d.kernel_module_version}"] if d.kernel_module_version else []),
                hint_code=None if d.hint else "")
    elif d.state == "nvml_failed":
        log.add("nvml_init_failed", "error", log.driver_evidence)
    if f.graphics.hybrid:  # an Intel/AMD GPU beside the NVIDIA one: its driver runs the screen
        ig, nv = f.graphics.integrated[0], f.graphics.nvidia[0]
        log.add("hybrid_graphics", "info", [a.bus_id for a in f.graphics.adapters], igpu=ig.label, gpu=names or nv.label,
                igpu_driver=ig.driver or ("amdgpu" if ig.vendor == "1002" else "i915"))
    if d.nouveau_loaded:
        sev = "error" if d.state in ("not_installed", "not_loaded", "no_communication") else "warning"
        log.add("nouveau_loaded", sev, ["nouveau in /proc/modules"])
    if d.state == "ok" and "nvidia" in d.modules_loaded and "nvidia_uvm" not in d.modules_loaded:
        log.add("nvidia_uvm_not_loaded", "info")
    if d.secure_boot and d.state in ("not_installed", "not_loaded", "no_communication"):
        log.add("secure_boot_enabled", "warning")
    if d.kernel_headers_installed is False and d.state in ("not_installed", "not_loaded", "no_communication", "mismatch"):
        log.add("kernel_headers_missing", "warning", kernel=o.kernel)
    for g in f.gpus:
        if g.compute_capability is None:
            log.add("gpu_unknown_model", "info", [g.pci_id or g.name], gpu=g.name or g.pci_id)
        if g.pcie_width_current and g.pcie_width_max and g.pcie_width_current < g.pcie_width_max:
            log.add("gpu_pcie_width_reduced", "warning", [g.bus_id or ""], gpu=g.name, width=g.pcie_width_current, width_max=g.pcie_width_max)
    if o.free_disk_mib is not None and o.free_disk_mib < LOW_DISK_MIB:
        log.add("low_disk_space", "warning", free_gib=o.free_disk_mib // 1024)
    if o.container:
        log.add("container_detected", "info", container=o.container)
    c = f.cuda
    active_ver = next((t.version for t in c.toolkits if t.path == c.active_link), None)
    if c.nvcc_version and active_ver and cuda_toolkit.major_minor(c.nvcc_version) != cuda_toolkit.major_minor(active_ver) \
            and c.nvcc_path and not c.nvcc_path.startswith("/usr/local/cuda/"):
        log.add("nvcc_path_mismatch", "warning", [c.nvcc_path], nvcc=c.nvcc_version, active=active_ver)
    if d.cuda_version:
        newest = [t for t in c.toolkits if _vt(t.version) > _vt(d.cuda_version)]
        for t in newest[-1:]:
            log.add("toolkit_newer_than_driver", "warning", [t.path], toolkit=t.version, driver_cuda=d.cuda_version)
    if len(c.toolkits) > 1:
        log.add("cuda_multiple_toolkits", "info", [f"{t.path} ({t.version})" for t in c.toolkits], count=len(c.toolkits))
    e = f.env
    for entry in e.ld_conf:
        if entry.status == "other_cuda":
            log.add("ld_conf_stale_cuda", "warning", [f"{entry.file}: {entry.path}", f"/usr/local/cuda -> {c.active_link}"],
                    file=entry.file, path=entry.path)
        elif entry.status == "missing":
            log.add("ld_conf_missing_dir", "warning", [f"{entry.file}: {entry.path}"], file=entry.file, path=entry.path)
    for var in ("PATH", "LD_LIBRARY_PATH"):
        for p in (e.variables.get(var) or "").split(":"):
            dd = envp.cuda_dir_of(p)
            if dd and dd != "/usr/local/cuda" and c.active_link and dd != c.active_link and c.toolkits:
                code = "env_path_other_cuda" if var == "PATH" else "ld_library_path_other_cuda"
                log.add(code, "warning", [f"{var} contains {p}"], var=var, path=p, active=c.active_link)
    tp = f.python.torch if f.python else None
    if f.python is not None and tp is not None:
        if tp.error and not tp.version:
            log.add("torch_not_installed", "info", [tp.error], python=f.python.path)
        elif tp.version and tp.cuda is None and f.gpus:
            log.add("torch_cpu_build", "warning", torch=tp.version, python=f.python.path)
        elif tp.version and tp.available is False and f.gpus:
            log.add("torch_cuda_unavailable", "error", [tp.error or ""], torch=tp.version)
        if tp.covers_all_gpus is False:
            log.add("torch_arch_missing", "error", [f"arch list: {' '.join(tp.arch_list)}", "GPUs: " + ", ".join(f"{g.name} ({g.compute_capability})" for g in f.gpus)],
                    torch=tp.version)


def _vt(v: Optional[str]) -> tuple[int, ...]:
    return tuple(int(x) for x in re.findall(r"\d+", v or "")[:2]) or (0,)
