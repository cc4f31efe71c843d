"""Diagnosis: what an error text (plus this machine's facts) says went wrong, as one frozen,
JSON-able value. `gpu-wizard diagnose --json` prints `Diagnosis.to_json()`; the GUI shows it.
Add fields with defaults; never rename or remove one.

Shape:
    Diagnosis
      matches[]      ranked, most likely first: category (one of CATEGORIES), rule id, subcode,
                     confidence 0..1, root_cause, evidence[] (what the text and the facts showed),
                     fix (plain words), fix_steps[] (data the plan's Step is built from),
                     commands[] (read-only commands that show the problem)
      oom            the out-of-memory analysis (numbers from the message, verdicts), when any
      utilization    the low-utilization analysis (five dimensions), when samples were given
      input          how much text was read and kept (bounded for huge logs)
      message        one line for the user when nothing matched (or a summary)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Optional

from app.model import Model

FORMAT = "gpu-wizard-diagnosis/1"

CATEGORIES: tuple[str, ...] = (
    "no_kernel_image",
    "cudnn_missing",
    "nvcc_not_found",
    "cuda_unavailable",
    "cudnn_not_supported",
    "driver_insufficient",
    "driver_lib_mismatch",
    "nvml_init_failed",
    "oom",
    "runfile_gzip_invalid",
    "nouveau_conflict",
    "secure_boot",
    "cuda_error_unknown",
    "wsl_libcuda_not_symlink",
    "wsl_linux_driver_installed",
    "wsl_dxg_missing",
    "wsl_gpu_access_blocked",
    "wsl_nvidia_smi_failed",
    "cudnn_version_mismatch",
    "driver_missing",
    "container_toolkit_missing",
    "dkms_build_failed",
    "apt_broken_packages",
    "gcc_mismatch",
    "nccl_error",
    "gpu_hardware_error",
    "network_error",
    # issue 25's causes
    "cuda_runtime_missing",
    "windows_dll_load",
    "no_torch_wheel",
    "mig_mode",
    "libcuda_stub",
    "install_download_corrupt",
    "tensorrt_unsupported_sm",
    "gpu_lost_after_resume",
    "cuda_devices_busy",
    "other",
)

EvidenceSource = Literal["text", "facts", "live", "snapshot"]


@dataclass(frozen=True)
class Platform(Model):
    """The machine a diagnosis assumed the text comes from (app.diagnose.platform.infer_platform): what the
    text says when it says so (paths, prompts, DLL names, package-manager commands), else this machine's facts."""

    os: Literal["linux", "wsl", "windows", "macos"] = "linux"
    package_manager: Optional[str] = None  # apt, dnf, zypper, pacman (Linux and WSL)
    container: Optional[str] = None  # docker, podman, kubernetes, apptainer, docker_desktop
    python: Optional[str] = None  # the interpreter of the failing environment (or the plan's venv)
    python_kind: Optional[str] = None  # venv, conda, wizard, plan_venv
    distro: Optional[str] = None  # ubuntu, debian, fedora, rhel, opensuse, arch
    source: Literal["text", "facts", "default"] = "default"
    foreign: bool = False  # the text comes from another machine than this one: its facts did not decide
    clues: tuple[str, ...] = ()  # what in the text (or the facts) said so
    board: Optional[str] = None  # jetson: an NVIDIA Jetson (Tegra) board, whose PyTorch and driver come with JetPack
    # the failing program's framework when the text shows one other than PyTorch and never PyTorch (tensorflow, jax,
    # onnxruntime, paddle, mxnet, caffe, cupy, cuda_program): a PyTorch reinstall is then no fix
    framework: Optional[str] = None

    @property
    def tags(self) -> tuple[str, ...]:
        """The names platform entries of the rules are looked up by, most specific first."""
        out: list[str] = [self.board] if self.board else []
        if self.container:
            out += [self.container, "container"]
        if self.python_kind == "conda":  # only Python-level rules have a conda entry: it wins over the OS's
            out.append("conda")
        out.append(self.os)
        if self.os in ("linux", "wsl"):
            out.append(self.package_manager or "apt")
            out.append("linux")
        return tuple(dict.fromkeys(out))


@dataclass(frozen=True)
class Evidence(Model):
    """One thing seen: in the error text, in this machine's facts, in live measurements."""

    source: EvidenceSource
    message: str  # plain words: "GPU 0 is compute capability 12.0 (sm_120)"
    supports: bool = True  # False: this fact speaks against the rule (lowers confidence)
    key: str = ""  # what was consulted: "gpus[0].compute_capability", "python.torch.arch_list", "line 12"
    value: Optional[str] = None
    # translation: the catalogue's diagnose.evidence.<code> filled with params (app.messages.evidence_text)
    code: str = ""
    params: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class FixStep(Model):
    """A fix as data. `app.diagnose.fix_plan()` turns these into the plan's `Step` values.
    `kind` is one of app.plan.model.STEP_KINDS."""

    id: str  # verb-first: "install_pytorch_for_arch"
    title: str
    why: str
    kind: str = "verify"
    argv: tuple[tuple[str, ...], ...] = ()  # each an argv list; never a shell string
    needs_root: bool = False
    reboot_required: bool = False
    env: dict[str, str] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    manual: bool = False  # the wizard's privileged helper would refuse it: shown for the user to run
    # where it runs: "" this machine (the one the text comes from), "windows" (PowerShell on the Windows side
    # of WSL or a Windows machine), "host" (the container's host), "image" (the container image: its
    # Dockerfile), "firmware" (the boot menu / MOK manager)
    where: str = ""
    # the machine it runs on, resolved from `where` and the assumed platform (app.diagnose.sides.runs_on): linux,
    # wsl (inside the distro), windows, macos, container (inside it), host (the container's host), image, firmware
    runs_on: str = ""
    # translation: the catalogue's plan.<title_code> / plan.<why_code> ("<rule code>.step.<id>.title"), filled
    # with params (app.messages.step_title / step_why); English from rules.json, zh_CN in the catalogue
    title_code: str = ""
    why_code: str = ""
    params: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Match(Model):
    category: str  # one of CATEGORIES
    rule: str  # the rule id in resources/diagnose/rules.json
    confidence: float  # 0..1
    root_cause: str
    fix: str
    subcode: str = ""  # finer cause inside the category ("cpu_wheel", "fragmentation", ...)
    evidence: tuple[Evidence, ...] = ()
    fix_steps: tuple[FixStep, ...] = ()
    commands: tuple[tuple[str, ...], ...] = ()  # read-only commands that show the problem
    line: Optional[int] = None  # 1-based line of the first matching text, where known
    excerpt: str = ""  # the matching text (one short line)
    sources: tuple[str, ...] = ()  # where the rule's knowledge comes from
    # translation: which rules.json template each sentence is (engine.text_template(code, "root_cause"/"fix"):
    # "<rule id>", "<rule id>/<subcode>" or "<rule id>@<redirect when>"; "" when not a rule's template) and the
    # figures filled into its {placeholders}
    root_cause_code: str = ""
    fix_code: str = ""
    params: dict[str, str] = field(default_factory=dict)
    not_setup: bool = False  # the answer says this is the program's own bug, not a GPU setup failure

    @property
    def runnable_steps(self) -> tuple[FixStep, ...]:
        """The fix steps the wizard can run (fix_plan turns these into plan Steps; the engine marks every
        other one `manual`)."""
        return tuple(s for s in self.fix_steps if not s.manual and s.kind != "reboot")


@dataclass(frozen=True)
class OomNumbers(Model):
    """The figures in one "CUDA out of memory" message, in MiB (None: not in the message)."""

    format: Literal["old", "new", "none"] = "none"
    requested_mib: Optional[float] = None
    total_mib: Optional[float] = None
    free_mib: Optional[float] = None
    allocated_mib: Optional[float] = None  # allocated by PyTorch (live tensors)
    reserved_mib: Optional[float] = None  # reserved by PyTorch's caching allocator (allocated + cached)
    reserved_unallocated_mib: Optional[float] = None  # reserved but not allocated (cached, maybe fragmented)
    process_mib: Optional[float] = None  # this process in total, including non-PyTorch memory (new format)
    other_processes: tuple[tuple[str, float], ...] = ()  # ("20398", 14868.5) from "Process N has X memory in use"
    gpu_index: Optional[int] = None
    line: Optional[int] = None


@dataclass(frozen=True)
class OomVerdict(Model):
    code: Literal["too_small", "fragmentation", "other_process", "leak", "child_contexts", "unknown"]
    confidence: float
    message: str
    fix: str
    commands: tuple[tuple[str, ...], ...] = ()
    evidence: tuple[str, ...] = ()
    # translation: the sentences are diagnose.oom.<text_code>.root_cause / .fix, the evidence
    # diagnose.evidence.<evidence_code>, filled with params (app.diagnose.oom.TEXTS / EVIDENCE are their English)
    text_code: str = ""
    evidence_code: str = ""
    params: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class OomAnalysis(Model):
    numbers: tuple[OomNumbers, ...] = ()  # every OOM message found, in order
    usage_series_mib: tuple[float, ...] = ()  # memory figures seen across iterations (for leaks)
    verdicts: tuple[OomVerdict, ...] = ()  # ranked


@dataclass(frozen=True)
class UtilDimension(Model):
    name: Literal["data_loading", "host_device_sync", "launch_overhead", "memory_bound", "power_clock_limits"]
    status: Literal["likely", "possible", "unlikely", "unknown"]
    message: str
    fix: str
    evidence: tuple[str, ...] = ()
    commands: tuple[tuple[str, ...], ...] = ()  # how to measure it


@dataclass(frozen=True)
class UtilizationAnalysis(Model):
    samples: int = 0
    busy_samples: int = 0
    util_mean_pct: Optional[float] = None
    util_median_pct: Optional[float] = None
    power_mean_w: Optional[float] = None
    power_limit_w: Optional[float] = None
    dimensions: tuple[UtilDimension, ...] = ()  # ranked: likely first
    summary: str = ""


@dataclass(frozen=True)
class InputInfo(Model):
    bytes_read: int = 0
    lines_read: int = 0
    chars_kept: int = 0  # characters of the relevant windows kept for matching (capped)
    truncated: bool = False  # windows were dropped to stay within the cap
    binary: bool = False  # looked like binary data (NULs / control bytes)
    decode_errors: bool = False  # not valid UTF-8; replaced


@dataclass(frozen=True)
class Diagnosis(Model):
    format: str = FORMAT
    matches: tuple[Match, ...] = ()
    oom: Optional[OomAnalysis] = None
    utilization: Optional[UtilizationAnalysis] = None
    input: InputInfo = field(default_factory=InputInfo)
    facts_source: Optional[str] = None  # "live", "snapshot:<file>", or None (text only)
    message: str = ""
    rules_version: Optional[str] = None
    platform: Optional[Platform] = None  # the machine the answer assumed
    message_code: str = ""  # the catalogue's cli.<message_code> for `message`, with message_params
    message_params: dict[str, str] = field(default_factory=dict)

    @property
    def top(self) -> Optional[Match]:
        return self.matches[0] if self.matches else None

    def categories(self) -> list[str]:
        return [m.category for m in self.matches]
