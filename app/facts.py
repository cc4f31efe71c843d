"""Facts: everything detection learned about the machine, as one frozen, JSON-able value.

This is the contract between detection and every later stage (recommend, plan, verify,
diagnose, report, GUI). Add fields with defaults; never rename or remove one.
Units are in the names (`_mib`, `_w`, `_mhz`). Unknown values are None, never guessed.
"""
from __future__ import annotations

from dataclasses import field
from typing import Literal, Optional

from app.model import Model, record

Severity = Literal["error", "warning", "info"]


@record
class Finding(Model):
    """A problem or notable fact, with a stable code other stages and tests can rely on."""

    code: str  # e.g. "driver_not_loaded", "wsl_libcuda_not_symlink", "ld_conf_stale_cuda"
    severity: Severity
    message: str  # plain words for the user: the catalogue's English for `code` with `params` (app.messages)
    evidence: tuple[str, ...] = ()  # what was seen: file paths, command output lines
    hint: Optional[str] = None  # what to do about it
    params: dict[str, str] = field(default_factory=dict)  # the figures of message and hint, to say them in any language


@record
class ProbeRecord(Model):
    """Which probe ran, what it answered, and how long it took (the detection log)."""

    name: str  # "nvml", "nvidia_smi_query", "nvidia_smi_table", "proc_driver", "sysfs_pci", "lspci", ...
    status: Literal["ok", "not_found", "error", "timeout", "skipped"]
    duration_ms: float = 0.0
    detail: str = ""


@record
class Gpu(Model):
    """One NVIDIA GPU: what NVML, nvidia-smi or the PCI table said about it."""

    index: int
    name: str
    pci_id: Optional[str] = None  # "10de:2684" (vendor:device, lower-case hex)
    subsystem_id: Optional[str] = None  # "1043:88e2"
    bus_id: Optional[str] = None  # "0000:01:00.0"
    uuid: Optional[str] = None
    compute_capability: Optional[str] = None  # "8.9"
    architecture: Optional[str] = None  # "Ada Lovelace"
    memory_total_mib: Optional[int] = None
    pcie_gen_current: Optional[int] = None
    pcie_gen_max: Optional[int] = None
    pcie_width_current: Optional[int] = None
    pcie_width_max: Optional[int] = None
    memory_bus_width_bits: Optional[int] = None
    memory_clock_max_mhz: Optional[int] = None
    sm_clock_max_mhz: Optional[int] = None
    power_limit_w: Optional[float] = None
    power_default_limit_w: Optional[float] = None
    compute_mode: Optional[str] = None  # "Default", "Exclusive_Process", "Prohibited"
    persistence_mode: Optional[bool] = None
    ecc_enabled: Optional[bool] = None
    is_laptop: Optional[bool] = None
    source: str = ""  # which probe identified it ("nvml", "nvidia_smi_table", "pci_table", ...)


DriverState = Literal["ok", "not_installed", "not_loaded", "mismatch", "no_communication", "nvml_failed", "host", "unknown"]


@record
class DriverInfo(Model):
    """The NVIDIA driver: its state, version, kernel module and what stands in its way."""

    # ok: working; not_installed: no NVIDIA driver on the machine; not_loaded: installed but the
    # module is not loaded; mismatch: user-space and kernel module differ; no_communication:
    # nvidia-smi "couldn't communicate with the driver"; nvml_failed: NVML init failed otherwise;
    # host: WSL2/Windows, the driver lives on the Windows host; unknown: could not tell.
    state: DriverState = "unknown"
    version: Optional[str] = None  # "535.129.03"
    cuda_version: Optional[str] = None  # newest CUDA the driver supports, "12.2"
    kernel_module: Optional[Literal["open", "proprietary"]] = None
    kernel_module_version: Optional[str] = None  # /sys/module/nvidia/version (differs on mismatch)
    modules_loaded: tuple[str, ...] = ()  # of nvidia, nvidia_uvm, nvidia_drm, nvidia_modeset
    nouveau_loaded: Optional[bool] = None
    secure_boot: Optional[bool] = None
    kernel_headers_installed: Optional[bool] = None
    windows_version: Optional[str] = None  # Windows driver "32.0.15.6094" (maps to 560.94)
    hint: Optional[str] = None
    source: str = ""


@record
class OsInfo(Model):
    """The operating system, WSL2 and container, and the machine's disk, memory and user."""

    platform: Literal["linux", "windows", "other"] = "linux"
    id: Optional[str] = None  # "ubuntu", "debian", "rhel", "fedora", "windows"
    version_id: Optional[str] = None  # "22.04"
    codename: Optional[str] = None
    base_codename: Optional[str] = None  # a derivative's base release (os-release UBUNTU_CODENAME / DEBIAN_CODENAME): "noble"
    pretty_name: Optional[str] = None
    id_like: tuple[str, ...] = ()
    kernel: Optional[str] = None
    arch: Optional[str] = None  # "x86_64", "aarch64"
    package_manager: Optional[str] = None  # "apt", "dnf", "yum", "zypper", "pacman", None
    wsl: int = 0  # 0, 1 or 2
    wsl_dxg: Optional[bool] = None  # /dev/dxg exists (WSL2 GPU paravirtualization)
    wsl_libcuda: tuple[str, ...] = ()  # /usr/lib/wsl/lib/libcuda.so* present
    wsl_kernel: Optional[str] = None
    container: Optional[str] = None  # "docker", "podman", "lxc", "kubernetes", ...
    free_disk_mib: Optional[int] = None  # free space where the toolkit goes (/usr/local)
    windows_build: Optional[str] = None  # "10.0.22631"
    memory_total_mib: Optional[int] = None
    is_root: Optional[bool] = None
    wsl_memory_limit_mib: Optional[int] = None  # [wsl2] memory= in the Windows user's .wslconfig, when set
    wslconfig_path: Optional[str] = None  # the user's .wslconfig (/mnt/c/Users/<user>/.wslconfig or C:\\Users\\...), read if it exists
    wsl_distro: Optional[str] = None  # WSL_DISTRO_NAME inside WSL ("Ubuntu-22.04")
    home: Optional[str] = None  # the user's home folder (HOME; USERPROFILE on Windows): what ~ in a plan for this machine is


@record
class CudaToolkit(Model):
    """One CUDA toolkit found on disk."""

    path: str  # "/usr/local/cuda-12.4"
    version: Optional[str] = None  # "12.4" (or "12.4.1" when known)
    source: str = ""  # "version.json", "version.txt", "nvcc", "dir_name"


@record
class PackageInfo(Model):
    """One installed distro package (dpkg or rpm)."""

    name: str
    version: str
    manager: str = "dpkg"  # "dpkg", "rpm"


@record
class CudnnInfo(Model):
    """cuDNN: its version and where it was found."""

    version: Optional[str] = None  # "9.1.0"
    header: Optional[str] = None  # path of cudnn_version.h read
    libraries: tuple[str, ...] = ()  # libcudnn.so.N found
    packages: tuple[PackageInfo, ...] = ()


@record
class CudaInfo(Model):
    """The CUDA toolkits, nvcc, the CUDA packages and cuDNN."""

    toolkits: tuple[CudaToolkit, ...] = ()
    active_link: Optional[str] = None  # where /usr/local/cuda points
    nvcc_path: Optional[str] = None
    nvcc_version: Optional[str] = None
    packages: tuple[PackageInfo, ...] = ()  # distro packages of cuda*, nvidia*, libcudnn*
    runfile_uninstallers: tuple[str, ...] = ()
    cudnn: CudnnInfo = field(default_factory=CudnnInfo)


@record
class EnvLine(Model):
    """A CUDA line in a shell rc or profile file."""

    file: str
    line_no: int
    text: str


@record
class LdConfEntry(Model):
    """A CUDA folder in /etc/ld.so.conf.d, and whether it is the active toolkit's."""

    file: str  # /etc/ld.so.conf.d/cuda-11-8.conf
    path: str  # the directory it adds
    status: Literal["active", "other_cuda", "missing", "ok"] = "ok"


@record
class EnvInfo(Model):
    """The CUDA variables, rc lines and loader paths of the environment."""

    variables: dict[str, str] = field(default_factory=dict)  # CUDA_HOME, CUDA_PATH, PATH, LD_LIBRARY_PATH, CUDA_VISIBLE_DEVICES, ...
    rc_lines: tuple[EnvLine, ...] = ()  # CUDA lines in ~/.bashrc, ~/.profile, /etc/environment, /etc/profile.d
    ld_conf: tuple[LdConfEntry, ...] = ()


@record
class TorchInfo(Model):
    """What the selected Python's torch said about itself (the torch probe)."""

    version: Optional[str] = None  # "2.5.1+cu124"
    cuda: Optional[str] = None  # torch.version.cuda, "12.4"; None for a CPU build
    cudnn: Optional[str] = None  # "9.1.0"
    available: Optional[bool] = None
    device_count: Optional[int] = None
    arch_list: tuple[str, ...] = ()  # ("sm_50", ..., "sm_90")
    covers_all_gpus: Optional[bool] = None
    error: Optional[str] = None


@record
class PythonEnv(Model):
    """A Python interpreter worth offering, and its torch when probed."""

    path: str  # the interpreter
    version: Optional[str] = None  # "3.11.7"
    kind: str = "system"  # "system", "venv", "conda", "wizard"
    torch: Optional[TorchInfo] = None
    # can it make a venv with pip (`import ensurepip, venv`)? Debian/Ubuntu ship ensurepip in the
    # separate pythonX.Y-venv package. None: not asked (not a system Python, or a snapshot without it)
    venv_ok: Optional[bool] = None


@record
class WslDistro(Model):
    """A WSL distribution, as `wsl -l -v` lists it."""

    name: str
    state: str = ""
    version: int = 0
    default: bool = False


@record
class WindowsInfo(Model):
    """The Windows host: its build, virtualization and WSL."""

    build: Optional[str] = None
    virtualization_enabled: Optional[bool] = None
    wsl_installed: Optional[bool] = None
    wsl_default_version: Optional[int] = None
    distros: tuple[WslDistro, ...] = ()
    nvidia_smi_path: Optional[str] = None


@record
class DisplayAdapter(Model):
    """A display controller (PCI class 03xx) of any vendor: the iGPU of a hybrid laptop beside the NVIDIA GPU."""
    bus_id: str  # "0000:00:02.0"
    vendor: str  # "8086" Intel, "1002" AMD, "10de" NVIDIA
    device: str = ""
    class_code: str = ""  # "0300" VGA, "0302" 3D controller (no display outputs), "0380" display controller
    driver: Optional[str] = None  # the kernel driver bound: "i915", "xe", "amdgpu", "nvidia", "nouveau"
    boot_vga: Optional[bool] = None  # sysfs boot_vga: the firmware's display device
    connected: tuple[str, ...] = ()  # DRM connectors with a display on them ("eDP-1", "HDMI-A-1")
    name: str = ""

    @property
    def label(self) -> str:
        """"Intel UHD Graphics 620", "AMD Rembrandt": the vendor and the model lspci names."""
        vendor = {"8086": "Intel", "1002": "AMD", "10de": "NVIDIA"}.get(self.vendor, self.vendor)
        name = self.name
        for prefix in ("Intel Corporation", "Advanced Micro Devices, Inc. [AMD/ATI]", "Advanced Micro Devices, Inc. [AMD]",
                       "NVIDIA Corporation"):
            name = name[len(prefix):].strip() if name.startswith(prefix) else name
        return f"{vendor} {name}".strip() if name and not name.startswith(vendor) else (name or f"{vendor} GPU")


@record
class GraphicsInfo(Model):
    """Every display controller, and the settings of a hybrid-graphics (Intel/AMD + NVIDIA) machine."""
    adapters: tuple[DisplayAdapter, ...] = ()
    prime_mode: Optional[str] = None  # Ubuntu's nvidia-prime (/etc/prime-discrete): "on-demand", "on" (nvidia), "off" (intel)
    runtime_pm: Optional[str] = None  # the NVIDIA GPU's /sys/bus/pci/devices/*/power/control: "auto" (runtime PM) or "on"
    source: str = ""  # "sysfs", "lspci"

    @property
    def nvidia(self) -> tuple[DisplayAdapter, ...]:
        return tuple(a for a in self.adapters if a.vendor == "10de")

    @property
    def integrated(self) -> tuple[DisplayAdapter, ...]:
        """The Intel or AMD display controllers beside the NVIDIA GPU."""
        return tuple(a for a in self.adapters if a.vendor in ("8086", "1002"))

    @property
    def hybrid(self) -> bool:
        """Hybrid graphics: one NVIDIA GPU and an Intel or AMD display controller beside it."""
        return len(self.nvidia) == 1 and bool(self.integrated)

    def display_adapter(self) -> Optional[DisplayAdapter]:
        """The controller that drives the display: the one with the built-in panel connected, else the one with any
        display connected, else the firmware's boot VGA device, else the iGPU beside an NVIDIA 3D controller (a
        class 0302 device has no display outputs); None when nothing says."""
        for test in (lambda a: any(c.split("-")[0] in ("eDP", "LVDS", "DSI") for c in a.connected), lambda a: bool(a.connected),
                     lambda a: a.boot_vga is True):
            hit = [a for a in self.adapters if test(a)]
            if len(hit) == 1:
                return hit[0]
        if self.hybrid and self.nvidia[0].class_code == "0302" and len(self.integrated) == 1:
            return self.integrated[0]
        return None


@record
class Facts(Model):
    """Everything detection learned about the machine."""

    os: OsInfo = field(default_factory=OsInfo)
    driver: DriverInfo = field(default_factory=DriverInfo)
    gpus: tuple[Gpu, ...] = ()
    cuda: CudaInfo = field(default_factory=CudaInfo)
    env: EnvInfo = field(default_factory=EnvInfo)
    pythons: tuple[PythonEnv, ...] = ()
    python: Optional[PythonEnv] = None  # the selected target environment
    windows: Optional[WindowsInfo] = None
    graphics: GraphicsInfo = field(default_factory=GraphicsInfo)  # every display controller (hybrid graphics)
    findings: tuple[Finding, ...] = ()
    probes: tuple[ProbeRecord, ...] = ()
    source: str = "live"  # "live" or "snapshot:<file name>"
    created: Optional[str] = None  # ISO time the facts (or the snapshot) were taken
    overrides: dict[str, str] = field(default_factory=dict)  # --assume-* applied, for honesty in reports

    def finding(self, code: str) -> Optional[Finding]:
        return next((f for f in self.findings if f.code == code), None)

    @property
    def has_nvidia_gpu(self) -> bool:
        return bool(self.gpus)
