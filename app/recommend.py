"""recommend(Facts, CompatDB, Choices) -> Recommendation: the joint solve over driver ×
compute capability × OS × PyTorch × Python.

Pure and fast: no I/O (the CompatDB is already loaded), no clock. The rules, in order:

1. The GPUs fix the driver range: the newest branch that still supports every GPU (Kepler
   ends at R470; Maxwell, Pascal and Volta at R580), the oldest that knows the newest GPU,
   and the kernel-module flavour (open modules need Turing or newer; Blackwell needs them).
2. A PyTorch release + CUDA variant is usable when it ships kernels for every GPU on this OS
   (SASS of the same major and a lower-or-equal minor, or PTX the driver can JIT), supports
   the target Python, and the driver runs its CUDA runtime, with full compatibility or with
   minor-version compatibility (same CUDA major, driver above that major's floor).
3. The newest usable release wins; within it, full compatibility before minor, then the
   build plain `pip install torch` gives, then stable before experimental, then newer CUDA.
4. A working driver is kept when it runs the newest usable release. Otherwise, on native
   Linux the wizard upgrades it (or installs one) to the newest recommended branch the GPUs
   allow; on Windows the user updates it; under WSL2 the driver lives on the Windows host.
5. The toolkit is optional (the wheel brings its CUDA runtime); when wanted it matches the
   wheel's CUDA where it can and is never newer than the driver supports.

Every choice carries a reason; problems are warnings with stable codes.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Iterable, Optional

from app.choices import Choices
from app.compat.db import PYTORCH_INDEX, CompatDB, NvidiaRepo, TorchRelease, TorchVariant, cc_key, major_minor, vkey
from app.compat.version import is_free_threaded, python_base, python_tag
from app import messages
from app.facts import Facts, Gpu
from app.install_command import expand_venv, torch_install, uv_executable, venv_python
from app.recommendation import (
    Alternative,
    CudnnChoice,
    DriverChoice,
    Recommendation,
    RecWarning,
    ToolkitChoice,
    TorchChoice,
    TorchOption,
)

# Every warning code recommend() can emit (stable: the GUI translates by code, tests rely on them).
WARNING_CODES = frozenset({
    "platform_unsupported", "wsl1_no_gpu", "arch_not_x86_64", "python_unknown", "python_too_new", "python_too_old",
    "driver_version_inferred",
    "no_nvidia_gpu", "gpu_unknown", "tegra_unsupported", "no_release_for_gpu", "gpu_dropped_by_newest",
    "mixed_gpus_not_covered", "mixed_gpus_driver_conflict", "driver_not_working", "driver_branch_drops_gpu",
    "driver_too_old_for_gpu", "driver_too_old_for_newest", "driver_version_unknown", "open_module_required", "open_module_unsupported",
    "minor_version_compat_only", "arch_list_unverified", "ptx_jit_only", "plain_pip_wrong_build",
    "toolkit_unavailable", "toolkit_differs_from_wheel", "no_nvidia_repo",
    "torchvision_not_released", "torch_without_torchvision", "gpu_name_ambiguous", "grace_open_module_required",
    "driver_branch_ended", "windows_driver_floor_inferred", "python_free_threaded_older_release", "torch_alone_no_complete_set",
    # from the live index reads (app/compat/live.py, recommend_live)
    "index_no_wheel", "index_newer_patch", "torch_newer_than_data", "index_cached_copy", "index_partly_read",
    "index_unreachable", "index_not_checked", "compat_data_stale", "driver_branch_not_in_repo",
    "nvidia_repo_checked", "nvidia_repo_unreachable", "index_confirmed", "vgpu_guest_driver", "index_variant_not_mirrored",
    "index_gpu_build_not_mirrored",
    "hybrid_graphics", "hybrid_prime_off", "hybrid_runtime_pm",
    "variant_holds_back",
})

# Every reason_code recommend() can give a TorchChoice, DriverChoice, ToolkitChoice or CudnnChoice (stable, like the
# warning codes). Translation: a warning's `params` and a choice's `reason_params` carry the figures and names of its
# English sentence, as strings. A placeholder {x} in a translated sentence is params["x"]; where the sentence has an
# optional or varying part, params["x_code"] names the CLAUSE_CODES sentence that fills {x} (formatted with the same
# params; "" is an empty part). A warning code with several sentence shapes (python_too_new, plain_pip_wrong_build,
# driver_not_working) puts its shape in params["text_code"]. A detection hint (free English text) has no clause: the
# translation is then not possible and the English sentence is shown.
REASON_CODES = frozenset({
    # TorchChoice
    "torch_newest_full", "torch_newest_minor", "torch_newest_needs_driver", "torch_cpu_chosen", "torch_cpu_no_usable_gpu",
    "torch_cpu_driver_not_working", "torch_cpu_no_gpu", "python_too_new", "python_too_old", "no_release_for_gpu", "torch_cpu_jetson",
    # DriverChoice
    "driver_keep", "driver_upgrade", "driver_install", "driver_host_keep", "driver_host_update", "driver_windows_keep",
    "driver_windows_update", "driver_needed_unmanaged", "driver_not_needed", "driver_cpu_chosen",
    "driver_python_first", "driver_no_release", "driver_no_release_capped", "driver_see_diagnose", "driver_vgpu_update",
    "driver_keep_last_branch", "driver_install_last_branch", "driver_upgrade_last_branch", "driver_jetpack",
    # ToolkitChoice
    "toolkit_repo", "toolkit_repo_wsl", "toolkit_runfile", "toolkit_installer", "toolkit_windows", "toolkit_not_available",
    "toolkit_no_gpu", "toolkit_no_release", "toolkit_jetpack",
    # CudnnChoice
    "cudnn_bundled", "cudnn_system", "cudnn_cpu", "cudnn_no_release",
})
ALTERNATIVE_CODES = frozenset({  # Alternative.reason_code (figures in reason_params; alt_note_* are its clauses)
    "alt_keep_driver", "alt_same_release", "alt_newer", "alt_previous", "alt_cpu", "alt_note_minor", "alt_note_full",
    "alt_newer_than_data",  # app/compat/live.py: a release on the index that the data does not know yet
})
REFUSAL_CODES = frozenset({  # Recommendation.refused_detail[i].code: a user choice refused (figures in params)
    "refused_unknown_release", "refused_no_python", "refused_unknown_variant", "refused_no_candidate", "refused_system_cudnn",
    "refused_not_on_index",
})
OPTION_CODES = frozenset({  # TorchOption.reason_code (torch_options, `recommend --list`)
    "opt_no_python", "opt_cpu", "opt_no_kernels", "opt_runs", "opt_driver_capped", "opt_needs_driver",
})
CLAUSE_CODES = frozenset({
    "why_no_driver", "why_driver_unusable", "why_driver_broken", "why_branch_drops_gpu", "why_driver_predates_gpu",
    "why_open_module_required", "why_open_module_unsupported", "why_cannot_run_newest", "why_cannot_run_newest_runs",
    "why_note", "why_paren", "driver_cap", "driver_no_package", "driver_no_package_unknown_os", "driver_now", "driver_now_none",
    "driver_none", "driver_version_none",
    "one_gpu", "every_gpu", "conflict_modules", "conflict_branches", "on_windows", "and_python", "for_python", "with_python",
    "newest_version", "newest_unknown", "os_named", "os_unknown", "hint_default", "driver_subject", "driver_subject_version",
    "driver_not_working_text", "driver_not_working_no_gpu", "python_too_new_older_release", "python_too_new_no_release",
    "python_too_old_older_release", "python_too_old_no_release", "plain_pip_windows", "plain_pip_linux",
    "python_too_new_for_gpu", "python_too_old_for_gpu", "branch_eol_last",
    "hybrid_display_igpu", "hybrid_display_nvidia", "hybrid_display_unknown", "runtime_pm_turing", "runtime_pm_udev",
    "toolkit_optional", "toolkit_why_matches_wheel", "toolkit_why_newest_for_driver", "toolkit_why_capped_by_driver",
    "toolkit_why_closest_not_in_repo", "toolkit_why_closest_gpus", "toolkit_why_no_driver", "toolkit_why_none_in_repo",
    "toolkit_why_none_fits", "grace_proprietary_loaded", "branch_eol_date", "branch_eol_target",
    "data_age", "index_confirmed_tv", "ft_builds", "cpu_build_chosen", "older_build_chosen",
    # refused_no_candidate's reason (REFUSAL_CODES)
    "why_not_built", "why_not_built_as", "why_no_kernels_os", "why_no_python_wheels", "why_no_torchvision_yet", "why_no_single_build",
    # variant_holds_back's reason
    "variant_why_not_built", "variant_why_no_kernels", "variant_why_both",
})

NVIDIA_REPOS_BASE = "https://developer.download.nvidia.com/compute/cuda/repos"
RUNFILE_BASE = "https://developer.download.nvidia.com/compute/cuda"
_NEWEST_IN_BRANCH = ("999", "99", "99")  # stands for "the newest release of a branch" when the wizard installs it
_ANY_DRIVER = "9999"  # a driver newer than every row: "what could run here with a new enough driver"


@dataclass(frozen=True)
class Candidate:
    release: TorchRelease
    variant: Optional[TorchVariant]  # None: the CPU build
    compat: Optional[str]  # "full" | "minor" | None (CPU)
    coverage: tuple[str, ...] = ()  # "sass"/"ptx" per GPU

    @property
    def index(self) -> str:
        return self.variant.variant if self.variant else "cpu"

    def key(self) -> tuple:
        rel = self.release
        is_default = self.index == rel.default_for(self.variant.os if self.variant else "linux")
        return (
            vkey(rel.version),
            self.compat == "full",
            "ptx" not in self.coverage,
            is_default,
            bool(self.variant and self.variant.status == "stable"),
            vkey(self.variant.cuda_runtime) if self.variant else (),
        )


class _Ctx:
    """Everything the solve needs, read once from Facts and Choices."""

    def __init__(self, facts: Facts, db: CompatDB, choices: Choices):
        self.facts, self.choices = facts, choices
        o = facts.os
        self.platform = "windows" if o.platform == "windows" else ("wsl" if o.wsl == 2 else "linux")
        self.arm = (o.arch or "").lower() in ("aarch64", "arm64")
        self.wheel_os = "windows" if self.platform == "windows" else ("linux_aarch64" if self.arm else "linux")
        self.os_label = {"windows": "Windows", "linux_aarch64": "Linux aarch64", "linux": "Linux"}[self.wheel_os]
        py = choices.python_version or (facts.python.version if facts.python else None)
        self.python = python_tag(py) if py else None  # "3.13t" keeps its free-threaded 't' (wheel tag cp313t)
        self.data = db  # the rows as they are (a pinned patch is looked up here)
        self.db = db.for_python(self.python)  # each release at its newest patch with wheels for this Python (2.12.0 for 3.13t)
        self.warnings: list[RecWarning] = []
        self.refused: list[str] = []
        self.refusals: list[RecWarning] = []  # self.refused with codes and figures (Recommendation.refused_detail)
        # "today" for end-of-support checks: the day the data was written (the solve reads no clock)
        k = vkey(db.version)
        self.data_date = f"{k[0]:04d}-{k[1]:02d}-{k[2]:02d}" if len(k) >= 3 and k[0] > 2000 else None
        self.held_back: Optional[TorchRelease] = None  # the newest release skipped for want of its torchvision
        # an NVIDIA vGPU guest: its driver comes with the vGPU software release that matches the hypervisor's vGPU
        # Manager (NVIDIA Virtual GPU Software User Guide); a package-manager driver would not run the vGPU
        self.vgpu = [g.name for g in facts.gpus if _vgpu_board(g.name)]
        self.tegra: list[str] = []  # Jetson/Tegra GPUs (JetPack's builds, never these wheels)

    def refuse(self, code: str, **params) -> None:
        """A user choice refused: its sentence (the catalogue's English) and figures."""
        p = _p(**params)
        self.refused.append(_en(code, p))
        self.refusals.append(RecWarning(code=code, message=self.refused[-1], severity="error", params=p))

    def warn(self, code: str, severity: str = "warning", params: Optional[dict] = None) -> None:
        """A warning by its code and figures (once per code); its English is the catalogue's."""
        if not any(w.code == code for w in self.warnings):
            p = _p(**(params or {}))
            self.warnings.append(RecWarning(code=code, message=_en(code, p), severity=severity, params=p))  # type: ignore[arg-type]


def _p(**kw) -> dict[str, str]:
    """Translation parameters: the figures and names of a sentence, as strings (None: left out)."""
    return {k: str(v) for k, v in kw.items() if v is not None}


def _en(code: str, params: dict) -> str:
    """The catalogue's English for "rec.<code>" (or its shape params["text_code"]) with these figures: the one
    home of a recommendation sentence is resources/messages/en.json."""
    return messages.render("rec", code, _p(**params), "en", fallback=code)


# ------------------------------------------------------------------ helpers


def _norm_cc(cc: Optional[str]) -> Optional[str]:
    """'8.9' stays; '8.9.0', ' 8.9' normalise; junk -> None."""
    k = vkey(cc)
    return f"{k[0]}.{k[1]}" if len(k) >= 2 and cc and not any(c.isalpha() for c in cc) else None


def _is_tegra(db: CompatDB, cc: str) -> bool:
    info = db.cc_info(cc)
    return bool(info and info.tegra)


def _gpu_cc(g: Gpu) -> Optional[str]:
    if g.compute_capability:
        return _norm_cc(g.compute_capability)
    try:  # the detection engineer's name table, when it knows the GPU
        from app.compat.gpus import cc_from_name

        return _norm_cc(cc_from_name(g.name)) if g.name else None
    except Exception:  # noqa: BLE001 - a missing or broken name table must not break the solve
        return None


def _cc_from_ambiguous_name(cx: _Ctx, g: Gpu) -> Optional[str]:
    """A name that means GPUs of different capabilities (GTX 750 Ti: Kepler GK106 and Maxwell GM107) and no PCI
    id: a working driver newer than a candidate's last branch rules that candidate out. Never file order."""
    if g.compute_capability or not g.name:
        return None
    try:
        from app.compat.gpus import name_ambiguous

        cands = name_ambiguous(g.name, g.memory_total_mib)
    except Exception:  # noqa: BLE001 - a broken name table must not break the solve
        return None
    if not cands:
        return None
    d = cx.facts.driver
    cur_branch = vkey(d.version)[:1] if d.version and d.state in ("ok", "host") else ()
    ccs = sorted({c.compute_capability for c in cands}, key=cc_key)
    if cur_branch:
        left = [c for c in ccs if not ((i := cx.db.cc_info(c)) and i.last_driver_branch and vkey(i.last_driver_branch)[:1] < cur_branch)]
        if len(left) == 1:
            return left[0]
    names = ", ".join(f"{c.pci_id} ({c.architecture}, sm_{c.compute_capability.replace('.', '')})" for c in cands)
    cx.warn("gpu_name_ambiguous", params=dict(gpu=g.name, candidates=names))
    return None


def _vgpu_board(name: Optional[str]) -> Optional[str]:
    try:
        from app.compat.gpus import vgpu_board

        return vgpu_board(name)
    except Exception:  # noqa: BLE001 - a missing or broken name table must not break the solve
        return None


def _sm(cc: str) -> str:
    return "sm_" + cc.replace(".", "")


def _gpu_label(g: Gpu, cc: Optional[str]) -> str:
    name = g.name or f"GPU {g.index}"
    return f"{name} ({_sm(cc)})" if cc else name


def windows_driver_to_nvidia(version: Optional[str]) -> Optional[str]:
    """Windows' driver version '32.0.15.6094' -> NVIDIA's '560.94' (last five digits)."""
    if not version:
        return None
    parts = version.split(".")
    if len(parts) != 4 or not all(p.isdigit() for p in parts):
        return None
    digits = (parts[2] + parts[3].zfill(4))[-5:]
    return f"{digits[:3]}.{digits[3:]}"


def _index_url(choices: Choices, index: str) -> str:
    base = (choices.mirrors.pytorch_index_url or PYTORCH_INDEX).rstrip("/")
    return f"{base}/{index}"


def _commands(choices: Choices, packages: tuple[str, ...], index_url: str, platform: str, facts: Optional[Facts] = None) -> tuple[str, str, tuple[str, ...]]:
    """(pip command shown, uv command shown, the argv the plan runs): app.install_command builds all three, for
    the venv the plan creates (Choices.venv_path), so what the Recommendation shows is what the plan runs."""
    plat = "windows" if platform == "windows" else "linux"
    py = venv_python(expand_venv(choices.venv_path, facts), plat)  # ~ of the machine the facts describe
    pip = torch_install(py, packages, index_url, choices.mirrors)
    uv = torch_install(py, packages, index_url, choices.mirrors, uv=uv_executable())
    run = uv if choices.installer == "uv" else pip
    return pip.shown(plat), uv.shown(plat), run.argv


def _quote(arg: str) -> str:
    """Display quoting (the plan runs argv lists; this string is for reading and copying)."""
    if arg and all(c.isalnum() or c in "-_./:=+@%,~" for c in arg):
        return arg
    return "'" + arg.replace("'", "'\"'\"'") + "'"


# ------------------------------------------------------------------ the solve


def _coverage(variant: TorchVariant, ccs: list[str]) -> Optional[tuple[str, ...]]:
    out = []
    for cc in ccs:
        how = variant.covers(cc)
        if how is None:
            return None
        out.append(how)
    return tuple(out)


def _candidates(cx: _Ctx, driver: Optional[str], ccs: list[str], releases: Iterable[TorchRelease],
                variant_filter: Optional[str] = None) -> list[Candidate]:
    """Every (release, variant) that covers all GPUs, supports the Python and runs on `driver`."""
    db, plat = cx.db, cx.platform
    out = []
    for rel in releases:
        if not rel.supports_python(cx.python):
            continue
        if rel.torchvision is None and cx.choices.want_torchvision:
            # never a broken pair: a release whose torchvision is not out yet is skipped (torch alone: --no-torchvision)
            if (cx.held_back is None or vkey(rel.version) > vkey(cx.held_back.version)) and \
                    any(_coverage(v, ccs) is not None for v in db.variants(rel.release, cx.wheel_os)):
                cx.held_back = rel
            continue
        for v in db.variants(rel.release, cx.wheel_os):
            if variant_filter and v.variant != variant_filter:
                continue
            cov = _coverage(v, ccs)
            if cov is None:
                continue
            compat = db.driver_compat(driver, v.cuda_runtime, plat)
            if compat is None:
                continue
            if "ptx" in cov and compat != "full":
                continue  # an older driver cannot JIT PTX from a newer toolchain
            out.append(Candidate(rel, v, compat, cov))
    out.sort(key=Candidate.key, reverse=True)
    return out


def _complete(cx: _Ctx, rel: TorchRelease) -> bool:
    """A release that can be installed as asked: with its torchvision, unless torch alone was asked for."""
    return bool(rel.torchvision) or not cx.choices.want_torchvision


def _best(cands: list[Candidate]) -> Optional[Candidate]:
    return cands[0] if cands else None


def _driver_range(cx: _Ctx, ccs: list[str]):
    """(max_branch, min_branch, flavour, conflict clause code or None) the GPUs allow."""
    db = cx.db
    infos = [db.cc_info(c) for c in ccs]
    caps = [i.last_driver_branch for i in infos if i and i.last_driver_branch]
    mins = [i.min_driver_branch for i in infos if i and i.min_driver_branch]
    max_branch = min(caps, key=vkey) if caps else None
    min_branch = max(mins, key=vkey) if mins else None
    kinds = {i.kernel_module for i in infos if i}
    conflict = None
    if "proprietary_only" in kinds and "open_required" in kinds:
        conflict = "conflict_modules"  # open required by one, impossible on another
        flavour = None
    elif "proprietary_only" in kinds:
        flavour = "proprietary"
    elif kinds:
        flavour = "open"
    else:
        flavour = None
    if max_branch and min_branch and vkey(min_branch) > vkey(max_branch):
        conflict = "conflict_branches"  # one needs a newer branch than another's last
    return max_branch, min_branch, flavour, conflict


def _target_branch(cx: _Ctx, max_branch: Optional[str], min_branch: Optional[str]) -> Optional[str]:
    def ok(b: str) -> bool:
        return (max_branch is None or vkey(b) <= vkey(max_branch)) and (min_branch is None or vkey(b) >= vkey(min_branch))

    rec = [b.branch for b in cx.db.recommended_branches() if ok(b.branch)]
    if rec:
        return max(rec, key=vkey)
    # a branch past its end of support only where no supported one serves these GPUs (Kepler: R470)
    any_ok = [b.branch for b in cx.db.driver_branches if ok(b.branch) and not b.ended(cx.data_date)] or \
        [b.branch for b in cx.db.driver_branches if ok(b.branch)]
    return max(any_ok, key=vkey) if any_ok else None


def _hybrid_advice(cx: _Ctx, labels: dict[str, str]) -> None:
    """A hybrid-graphics machine (an Intel or AMD GPU beside one NVIDIA GPU): which GPU drives the display, that CUDA
    needs no PRIME offload, how OpenGL/Vulkan programs get the NVIDIA GPU (PRIME render offload, NVIDIA driver README
    "PRIME Render Offload"), a PRIME mode that switched it off, and runtime power management ("PCI-Express Runtime D3
    (RTD3) Power Management": Turing laptop GPUs need NVreg_DynamicPowerManagement=0x02, Ampere and newer have it on)."""
    g = cx.facts.graphics
    nv, igpu = g.nvidia[0], g.integrated[0]
    on_bus = [x for x in cx.facts.gpus if (x.bus_id or "").lower() == nv.bus_id]
    gpu = _gpu_label(on_bus[0], _gpu_cc(on_bus[0])) if on_bus else (next(iter(labels.values()), None) or nv.label)
    shown = g.display_adapter()
    shape = "hybrid_display_unknown" if shown is None else ("hybrid_display_nvidia" if shown.vendor == "10de" else "hybrid_display_igpu")
    drv = igpu.driver or ("amdgpu" if igpu.vendor == "1002" else "i915")
    hp = dict(display_code=shape, igpu=igpu.label, gpu=gpu, igpu_driver=drv)
    cx.warn("hybrid_graphics", "info", hp)
    if g.prime_mode == "off":
        pp = dict(igpu=igpu.label, gpu=gpu)
        cx.warn("hybrid_prime_off", "error", pp)
    cc = next((c for c, _lb in labels.items()), None) if len(labels) == 1 else None
    k = cc_key(cc) if cc else None
    if k and k >= (7, 5) and ((k < (8, 0) and g.runtime_pm != "auto") or (k >= (8, 0) and g.runtime_pm == "on")):
        rp = dict(gpu=gpu, how_code="runtime_pm_turing" if k < (8, 0) else "runtime_pm_udev")
        cx.warn("hybrid_runtime_pm", "info", rp)


def _next_supported(cx: _Ctx, cur_branch: Optional[str], max_branch: Optional[str], min_branch: Optional[str]) -> Optional[str]:
    """The next branch after `cur_branch` that is still supported (not past its end of support on the data's day) and
    serves these GPUs: what replaces a branch that ended (R610 -> R620, R535 on Volta -> R580), never an older one."""
    if not cur_branch:
        return None
    later = [b.branch for b in cx.db.driver_branches if vkey(b.branch) > vkey(cur_branch) and not b.ended(cx.data_date)
             and (max_branch is None or vkey(b.branch) <= vkey(max_branch)) and (min_branch is None or vkey(b.branch) >= vkey(min_branch))]
    return min(later, key=vkey) if later else None


def _branch_driver(branch: Optional[str]) -> Optional[str]:
    return f"{branch}." + ".".join(_NEWEST_IN_BRANCH[1:]) if branch else None


@dataclass
class _Solve:
    """One solve's state, phase to phase (recommend() runs the phases in order)."""
    ccs: list[str] = field(default_factory=list)  # per GPU served, in order (repeats kept: labels pair with them)
    labels: list[str] = field(default_factory=list)
    distinct: list[str] = field(default_factory=list)
    want_release: Optional[TorchRelease] = None
    want_variant: Optional[str] = None
    max_branch: Optional[str] = None
    min_branch: Optional[str] = None
    flavour: Optional[str] = None
    conflict: bool = False
    target_branch: Optional[str] = None
    cur: Optional[str] = None  # the driver the solve assumes (may be a floor inferred from the CUDA version)
    cur_shown: Optional[str] = None  # what the driver card says
    cur_branch: Optional[str] = None
    cur_usable: bool = False
    why_p: dict = field(default_factory=dict)  # why the driver changes: its clause code (why_code) and figures
    cur_cands: list[Candidate] = field(default_factory=list)
    tgt_cands: list[Candidate] = field(default_factory=list)
    any_cands: list[Candidate] = field(default_factory=list)
    newest_cover: Optional[Candidate] = None
    action: str = "keep"
    chosen: Optional[Candidate] = None
    drv_target: Optional[str] = None  # the branch the wizard installs
    newest_for_py: Optional[TorchRelease] = None
    eff_driver: Optional[str] = None
    compat: Optional[str] = None
    need_min: Optional[str] = None

    @property
    def best_cur(self) -> Optional[Candidate]:
        return _best(self.cur_cands)

    @property
    def best_tgt(self) -> Optional[Candidate]:
        return _best(self.tgt_cands)

    @property
    def best_any(self) -> Optional[Candidate]:
        return _best(self.any_cands)


def recommend(facts: Facts, db: CompatDB, choices: Choices = Choices()) -> Recommendation:
    cx = _Ctx(facts, db, choices)
    _platform_notes(cx)
    s = _read_gpus(cx)
    _read_pins(cx, s)
    if not s.distinct or s.want_variant == "cpu":  # no NVIDIA GPU we can serve -> CPU build
        return _cpu_only(cx, s.want_release, reason_gpu=bool(facts.gpus) and s.want_variant != "cpu")
    _driver_limits(cx, s)
    _current_driver(cx, s)
    _driver_fits_gpus(cx, s)
    refused = _solve_candidates(cx, s)
    if refused is not None:
        return refused
    _pick(cx, s)
    if s.chosen is None and s.newest_cover is None:
        if cx.held_back is not None and choices.want_torchvision:
            return _torch_alone(cx)
        return _no_release(cx, facts, s.labels, s.distinct, s.action, s.cur, s.target_branch, s.flavour, s.max_branch)
    if s.chosen is None:
        s.chosen = s.best_any  # nothing runs on what is here, and the wizard may not change the driver
        if cx.platform == "linux" and s.action == "keep":
            s.action = "upgrade" if s.cur else "install"
    _variant_notes(cx, s)
    _newest_notes(cx, s)
    _python_notes(cx, s)
    _compat_notes(cx, s)
    return _assemble(cx, s)


def recommend_live(facts: Facts, db: CompatDB, choices: Optional[Choices] = None, **kw) -> tuple:
    """(Recommendation, LiveReport): recommend() over the data as the live PyTorch index and NVIDIA's repository
    correct it (app.compat.live: what the mirror lists, within its total deadline)."""
    from app.compat import live

    return live.solve_live(recommend, facts, db, choices, **kw)


def _platform_notes(cx: _Ctx) -> None:
    o = cx.facts.os
    if o.platform == "other":
        cx.warn("platform_unsupported")
    if o.wsl == 1:
        cx.warn("wsl1_no_gpu", "error")
    if o.arch and o.arch.lower() not in ("x86_64", "amd64", "aarch64", "arm64"):
        cx.warn("arch_not_x86_64", params=dict(arch=o.arch))
    if cx.python is None:
        cx.warn("python_unknown", "info")


def _read_gpus(cx: _Ctx) -> _Solve:
    """The GPUs this solve serves, by compute capability (Jetson/Tegra and unknown ones are named and left out)."""
    o, db, s = cx.facts.os, cx.db, _Solve()
    unknown = []
    for g in (cx.facts.gpus if o.platform != "other" and o.wsl != 1 else ()):
        cc = _gpu_cc(g) or _cc_from_ambiguous_name(cx, g)
        info = db.cc_info(cc) if cc else None
        if cc and info and info.tegra:
            cx.warn("tegra_unsupported", "error", dict(gpu=_gpu_label(g, cc)))
            cx.tegra.append(_gpu_label(g, cc))
            continue
        if not cc:
            unknown.append(g.name or f"GPU {g.index}")
            continue
        s.ccs.append(cc)
        s.labels.append(_gpu_label(g, cc))
    if unknown:
        cx.warn("gpu_unknown", params=dict(gpus=", ".join(unknown)))
    s.distinct = sorted(set(s.ccs), key=cc_key)
    if cx.platform == "linux" and cx.facts.graphics.hybrid:
        _hybrid_advice(cx, dict(zip(s.ccs, s.labels)))
    return s


def _read_pins(cx: _Ctx, s: _Solve) -> None:
    """The user's torch version and variant, refused (with the reason) where the data has no such build."""
    ch = cx.choices
    if ch.torch_version:
        want = cx.data.torch_release(ch.torch_version)  # a patch the data lists (2.12.0 too), as it is
        if want is not None and len(vkey(ch.torch_version)) < 3:
            want = want.for_python(cx.python) or want  # "2.12": its patch with wheels for this Python
        if want is None:
            cx.refuse("refused_unknown_release", torch=ch.torch_version, known=", ".join(r.version for r in cx.db.torch_releases[:6]))
        elif not want.supports_python(cx.python):
            cx.refuse("refused_no_python", torch=want.version, python=cx.python, pythons=", ".join(want.python))
            want = None
        s.want_release = want
    s.want_variant = ch.torch_variant
    if s.want_variant and s.want_variant != "cpu" and not any(v.variant == s.want_variant for v in cx.db.torch_variants):
        cx.refuse("refused_unknown_variant", variant=s.want_variant)
        s.want_variant = None


def _driver_limits(cx: _Ctx, s: _Solve) -> None:
    """The driver branches and the kernel-module flavour the GPUs allow (Grace: the open modules)."""
    s.max_branch, s.min_branch, s.flavour, conflict = _driver_range(cx, s.distinct)
    s.conflict = bool(conflict)
    if conflict:
        branches = s.max_branch and s.min_branch and vkey(s.min_branch) > vkey(s.max_branch)
        cx.warn("mixed_gpus_driver_conflict", "error", dict(conflict_code="conflict_branches", min_branch=s.min_branch, max_branch=s.max_branch)
                if branches else dict(conflict_code="conflict_modules"))
    if cx.arm and cx.platform == "linux" and any(cc_key(c)[0] in (9, 10) for c in s.distinct):
        # Grace Hopper (GH200) and Grace Blackwell (GB200/GB300) must use NVIDIA's open kernel modules
        gh = [lab for lab, c in zip(s.labels, s.ccs) if cc_key(c)[0] in (9, 10)]
        prop = cx.facts.driver.kernel_module == "proprietary"
        cx.warn("grace_open_module_required", "error" if prop else "info",
                dict(gpus=", ".join(gh), loaded_code="grace_proprietary_loaded" if prop else ""))
        s.conflict = s.conflict or s.flavour == "proprietary"  # another GPU here needs the proprietary modules
        s.flavour = "open"
    s.target_branch = _target_branch(cx, s.max_branch, s.min_branch)


def _current_driver(cx: _Ctx, s: _Solve) -> None:
    """The driver here: its version (a Windows number translated, a floor inferred from "CUDA Version"), and whether it works."""
    d, plat = cx.facts.driver, cx.platform
    cur = d.version
    if plat != "linux" and not cur and d.windows_version:
        cur = windows_driver_to_nvidia(d.windows_version)
    s.cur_shown = cur
    if not cur and d.cuda_version and d.state in ("ok", "host", "unknown"):
        floor = cx.db.min_driver_full(d.cuda_version, "linux" if plat == "linux" else "windows")
        if floor:  # e.g. only "CUDA Version: 12.8" was readable: the driver is at least 570.124.06
            cur = floor
            cx.warn("driver_version_inferred", "info", dict(cuda=d.cuda_version, floor=floor))
    s.cur = cur
    s.cur_branch = str(vkey(cur)[0]) if vkey(cur) else None
    if plat == "linux" and s.cur_branch and s.target_branch and vkey(s.target_branch) < vkey(s.cur_branch):
        s.target_branch = _next_supported(cx, s.cur_branch, s.max_branch, s.min_branch) or s.target_branch  # never an older branch
    if d.state in ("not_loaded", "mismatch", "no_communication", "nvml_failed"):
        cx.warn("driver_not_working", params=_broken_params(d, cur, visible_note=False))
        if not cur:
            s.why_p = dict(why_code="why_driver_broken", state=d.state)
    s.cur_usable = bool(cur)


def _driver_fits_gpus(cx: _Ctx, s: _Solve) -> None:
    """A driver branch past the GPUs' last one, older than the newest GPU's first, or the wrong kernel-module flavour."""
    d, plat, labels = cx.facts.driver, cx.platform, s.labels
    if s.cur_branch and s.max_branch and vkey(s.cur_branch) > vkey(s.max_branch) and plat == "linux":
        cx.warn("driver_branch_drops_gpu", "error", dict(current_branch=s.cur_branch, max_branch=s.max_branch,
                                                         gpus_code="one_gpu" if len(labels) == 1 else "every_gpu", gpu=labels[0]))
        s.cur_usable, s.why_p = False, dict(why_code="why_branch_drops_gpu", current_branch=s.cur_branch, gpus=", ".join(labels))
    elif s.cur_branch and s.min_branch and vkey(s.cur_branch) < vkey(s.min_branch):
        cx.warn("driver_too_old_for_gpu", "error", dict(current=s.cur, min_branch=s.min_branch))
        s.cur_usable, s.why_p = False, dict(why_code="why_driver_predates_gpu", current=s.cur, min_branch=s.min_branch)
    if not (s.cur_usable and plat == "linux" and d.kernel_module and s.flavour):
        return
    grace = cx.arm and any(cc_key(c)[0] in (9, 10) for c in s.distinct)
    needs_open = grace or any((i := cx.db.cc_info(c)) is not None and i.kernel_module == "open_required" for c in s.distinct)
    if s.flavour == "open" and d.kernel_module == "proprietary" and needs_open:
        cx.warn("open_module_required", "error")
        s.cur_usable, s.why_p = False, dict(why_code="why_open_module_required")
    if s.flavour == "proprietary" and d.kernel_module == "open":
        cx.warn("open_module_unsupported", "error")
        s.cur_usable, s.why_p = False, dict(why_code="why_open_module_unsupported")


def _solve_candidates(cx: _Ctx, s: _Solve) -> Optional[Recommendation]:
    """The builds that run on the driver here, on the target branch and on any driver; a pin no build serves is refused
    and the machine solved again without it (that answer is returned)."""
    pool = [s.want_release] if s.want_release else list(cx.db.torch_releases)
    vf = _variant_filter(s)
    s.cur_cands = _candidates(cx, s.cur, s.distinct, pool, vf) if s.cur_usable else []
    tgt_driver = _branch_driver(s.target_branch)
    s.tgt_cands = _candidates(cx, tgt_driver, s.distinct, pool, vf) if tgt_driver else []
    s.any_cands = _candidates(cx, _ANY_DRIVER, s.distinct, pool, vf)  # what any driver could run (Windows/WSL; messages)
    if (s.want_release or vf) and not s.any_cands:
        what = " ".join(x for x in [s.want_release.version if s.want_release else "", vf or ""] if x)
        cx.refuse("refused_no_candidate", what=what, **_why_no_candidate(cx, s.distinct, s.labels, s.want_release, vf))
        base = recommend(cx.facts, cx.data, cx.choices.replace(torch_version=None, torch_variant=None))
        return base.replace(refused=tuple(cx.refused) + base.refused, refused_detail=tuple(cx.refusals) + base.refused_detail)
    s.newest_cover = _best(_candidates(cx, _ANY_DRIVER, s.distinct, cx.db.torch_releases))
    return None


def _pick(cx: _Ctx, s: _Solve) -> None:
    """The driver action and the build: keep what runs the newest build, or upgrade/install (native Linux), or ask the
    user to update the Windows driver."""
    plat, ch = cx.platform, cx.choices
    if cx.vgpu and plat == "linux":
        cx.warn("vgpu_guest_driver", "info", dict(gpus=", ".join(dict.fromkeys(cx.vgpu))))
    s.action = "host" if plat == "wsl" else ("keep" if s.cur else "install")
    s.chosen = s.best_cur
    if plat == "linux":
        _pick_linux(cx, s, can_manage=ch.install_driver and not s.conflict and not cx.vgpu)
        return
    better = s.best_tgt or s.best_any  # Windows and WSL2: the user updates the Windows driver (the wizard opens NVIDIA's page)
    if s.best_cur is None or (ch.install_driver and better and vkey(better.release.version) > vkey(s.best_cur.release.version)):
        s.chosen = better
        if plat == "windows":
            s.action = "install" if not s.cur else "upgrade"
        if s.cur and better:
            s.why_p = dict(why_code="why_cannot_run_newest", current=s.cur, why_torch=better.release.version, why_index=better.index)


def _pick_linux(cx: _Ctx, s: _Solve, can_manage: bool) -> None:
    best_cur, best_tgt = s.best_cur, s.best_tgt
    if not s.cur and cx.facts.driver.state == "ok":  # a working driver whose version was not captured (a partial paste)
        cx.warn("driver_version_unknown", params=dict(branch=s.target_branch or "?"))
        s.action, s.chosen = "keep", best_tgt
    elif not s.cur or not s.cur_usable:
        if can_manage and s.target_branch:
            s.action = "upgrade" if s.cur and vkey(s.cur_branch or "0") < vkey(s.target_branch) else "install"
            s.drv_target, s.chosen = s.target_branch, best_tgt
    elif best_tgt and (best_cur is None or vkey(best_tgt.release.version) > vkey(best_cur.release.version)) \
            and vkey(s.target_branch or "0") > vkey(s.cur_branch or "0") and can_manage:
        s.action, s.drv_target, s.chosen = "upgrade", s.target_branch, best_tgt
        s.why_p = dict(why_code="why_cannot_run_newest_runs" if best_cur else "why_cannot_run_newest", current=s.cur,
                       why_torch=best_tgt.release.version, why_index=best_tgt.index, why_runs=best_cur.release.version if best_cur else None)


def _torch_alone(cx: _Ctx) -> Recommendation:
    """No release with its torchvision serves this Python/GPU yet, a newer one without it does: torch alone, said so."""
    alone = recommend(cx.facts, cx.data, cx.choices.replace(want_torchvision=False))
    assert cx.held_back is not None
    return alone.replace(warnings=tuple(x for x in alone.warnings if x.code != "torch_without_torchvision") + (_alone_warning(cx, cx.held_back),))


def _alone_warning(cx: _Ctx, held: TorchRelease) -> RecWarning:
    p = _p(with_python_code="and_python" if cx.python else "", python=cx.python, torch=held.version)
    return RecWarning(code="torch_alone_no_complete_set", severity="warning", message=_en("torch_alone_no_complete_set", p), params=p)


def _variant_filter(s: _Solve) -> Optional[str]:
    return s.want_variant if s.want_variant and s.want_variant != "cpu" else None


def _variant_notes(cx: _Ctx, s: _Solve) -> None:
    """A chosen build (`--variant cu118`) that newer releases do not carry for these GPUs: the newest release that has
    it, and why the newer ones do not fit (not built so for this OS, or that build has no kernels for a GPU here)."""
    vf, got, top = _variant_filter(s), s.best_any, s.newest_cover
    if not vf or s.want_release or got is None or top is None or vkey(top.release.version) <= vkey(got.release.version):
        return
    newer = [r for r in cx.db.torch_releases if vkey(got.release.version) < vkey(r.version) <= vkey(top.release.version)
             and r.supports_python(cx.python) and _complete(cx, r)]
    builds = {r.version: cx.db.variant(r.release, vf, cx.wheel_os) for r in newer}
    unbuilt = [r.version for r in newer if builds[r.version] is None]
    no_kernels = [r.version for r in newer if builds[r.version] is not None]
    missing = dict.fromkeys(lab for b in builds.values() if b is not None for lab, cc in zip(s.labels, s.ccs) if b.covers(cc) is None)
    why = "variant_why_both" if unbuilt and no_kernels else ("variant_why_no_kernels" if no_kernels else "variant_why_not_built")
    order = [r.version for r in newer]
    cx.warn("variant_holds_back", params=dict(variant=vf, torch=got.release.version, newest=top.release.version, why_code=why,
                                              releases=_runs(unbuilt, order), releases_nk=_runs(no_kernels, order), os=cx.os_label,
                                              gpus=", ".join(missing) or None))


def _runs(versions: list[str], order: list[str]) -> Optional[str]:
    """Some of `order`'s releases (newest first) as one figure, each unbroken run of them as "oldest–newest":
    "2.14.1", "2.8.0–2.14.1", "2.12.1–2.14.1, 2.9.1"."""
    runs: list[list[str]] = []
    prev = -2
    for i, ver in enumerate(order):
        if ver in versions:
            if i == prev + 1 and runs:
                runs[-1].append(ver)
            else:
                runs.append([ver])
            prev = i
    return ", ".join(r[0] if len(r) == 1 else f"{r[-1]}–{r[0]}" for r in runs) or None


def _newest_notes(cx: _Ctx, s: _Solve) -> None:
    """The newest release dropped a GPU here; a mixed box whose older GPU holds the newer builds back."""
    db, chosen = cx.db, s.chosen
    assert chosen is not None and chosen.variant is not None
    rels = db.torch_releases
    s.newest_for_py = newest = next((r for r in rels if r.supports_python(cx.python) and _complete(cx, r)), None)
    cover = s.newest_cover
    if newest and cover and vkey(cover.release.version) < vkey(newest.version):
        dropped = [lab for lab, cc in zip(s.labels, s.ccs) if not any(v.covers(cc) for v in db.variants(newest.release, cx.wheel_os))]
        if dropped:
            cx.warn("gpu_dropped_by_newest", params=dict(newest=newest.version, gpus=", ".join(dropped), covering=cover.release.version))
    for cc in s.distinct if len(s.distinct) > 1 else ():
        alone = _best(_candidates(cx, _ANY_DRIVER, [cc], rels))
        if alone and alone.variant and (vkey(alone.release.version), vkey(alone.variant.cuda_runtime)) > \
                (vkey(chosen.release.version), vkey(chosen.variant.cuda_runtime)):
            older = [lab for lab, c in zip(s.labels, s.ccs) if alone.variant.covers(c) is None]
            if older:
                cx.warn("mixed_gpus_not_covered", params=dict(torch=alone.release.version, index=alone.index, gpus=", ".join(older)))
                break


def _python_notes(cx: _Ctx, s: _Solve) -> None:
    """The newest release has no wheels for this Python (a free-threaded build, too new, too old): which release does."""
    top = next((r for r in cx.db.torch_releases if _complete(cx, r)), None)  # the newest release installable as asked
    older = s.newest_for_py
    if not cx.python or older is None or top is None or top.supports_python(cx.python):
        return
    ft = [p for p in top.python if p.endswith("t")]
    plain = [p for p in top.python if not p.endswith("t")]
    if is_free_threaded(cx.python) and python_base(cx.python) in top.python:
        # the interpreter's version is supported, its free-threaded build is not (e.g. 3.13t on a cp314t-only release)
        cx.warn("python_free_threaded_older_release", params=dict(newest=top.version, python=cx.python, ft_part_code="ft_builds" if ft else "",
                                                                  ft=", ".join(ft) if ft else None, torch=older.version))
    elif vkey(cx.python) > max(vkey(p) for p in top.python):
        cx.warn("python_too_new", params=dict(text_code="python_too_new_older_release", python=cx.python, py_min=top.python[0],
                                              py_max=plain[-1], torch=older.version))
    elif vkey(cx.python) < min(vkey(p) for p in top.python):
        cx.warn("python_too_old", params=dict(text_code="python_too_old_older_release", newest=top.version, py_min=top.python[0],
                                              python=cx.python, torch=older.version))


def _compat_notes(cx: _Ctx, s: _Solve) -> None:
    """How the driver runs the chosen build (full or minor-version compatibility) and what it cannot run."""
    db, plat, chosen = cx.db, cx.platform, s.chosen
    assert chosen is not None and chosen.variant is not None
    v = chosen.variant
    s.eff_driver = _branch_driver(s.drv_target) if s.drv_target else s.cur
    s.compat = db.driver_compat(s.eff_driver, v.cuda_runtime, plat) if s.eff_driver else None
    full = db.min_driver_full(v.cuda_runtime, plat)
    if plat != "linux" and s.compat is None:
        # the user installs a driver new enough: the full-compat minimum, unless the GPUs' last branch predates it
        # (Kepler: R470 runs CUDA 11.8 through minor-version compatibility)
        s.compat = "minor" if s.max_branch and full and vkey(full)[:1] > vkey(s.max_branch)[:1] else "full"
    s.need_min = need_min = db.min_driver_for_runtime(v.cuda_runtime, plat, s.compat or "full")
    best_any = s.best_any
    if best_any and best_any.variant and vkey(best_any.release.version) > vkey(chosen.release.version):
        cx.warn("driver_too_old_for_newest", params=dict(
            driver_code="driver_now" if s.cur else "driver_none", current=s.cur, newest=best_any.release.version, index=best_any.index,
            need=db.min_driver_for_runtime(best_any.variant.cuda_runtime, plat, "minor") or "?",
            where_code="on_windows" if plat in ("windows", "wsl") else "", torch=chosen.release.version))
    if s.compat == "minor":
        label = "R" + s.drv_target if s.drv_target else (s.eff_driver or (f"R{s.max_branch}" if s.max_branch else need_min))
        cx.warn("minor_version_compat_only", "info", dict(driver=label, cuda=v.cuda_runtime, major=v.cuda_major, need_min=need_min, need_full=full))
    if v.confidence != "verified":
        cx.warn("arch_list_unverified", "info", dict(torch=chosen.release.version, index=chosen.index, os=cx.os_label, confidence=v.confidence))
    if "ptx" in chosen.coverage:
        cx.warn("ptx_jit_only", "info")
    crow = db.cuda_release(v.cuda_runtime) if plat != "linux" else None
    if crow and crow.confidence_for(plat) != "verified":
        cx.warn("windows_driver_floor_inferred", "info", dict(cuda=crow.cuda, need=need_min))


def _assemble(cx: _Ctx, s: _Solve) -> Recommendation:
    """The build, the driver, the toolkit, cuDNN and the alternatives, with the notes that depend on them."""
    db, plat, chosen = cx.db, cx.platform, s.chosen
    assert chosen is not None and chosen.variant is not None
    runs_now = (bool(s.cur) and db.driver_compat(s.cur, chosen.variant.cuda_runtime, plat) is not None) if plat != "linux" else None
    torch = _torch_choice(cx, chosen, s.compat, s.labels, runs_now)
    if cx.held_back and vkey(cx.held_back.version) > vkey(chosen.release.version) and not s.want_release and _held_has_build(cx, s):
        cx.warn("torchvision_not_released", "info", dict(newer=cx.held_back.version, torch=chosen.release.version,
                                                         torchvision=chosen.release.torchvision))
    if not cx.choices.want_torchvision:
        cx.warn("torch_without_torchvision", "info", dict(torch=chosen.release.version))
    if not s.conflict and (plat == "windows" or not _plain_pip_works(cx, s.distinct, s.eff_driver, s.newest_for_py)):
        cx.warn("plain_pip_wrong_build", params=_plain_pip_params(cx, s.newest_for_py, chosen))
    # the GPUs that set the branch cap (a mixed box: the older one), named in the driver's reason
    capping = [lb for lb, c in zip(s.labels, s.ccs) if s.max_branch and (i := db.cc_info(c)) and i.last_driver_branch == s.max_branch]
    drv = _driver_choice(cx, s.action, s.cur_shown, s.drv_target, s.flavour, s.max_branch, s.need_min, s.compat,
                         list(dict.fromkeys(capping)) or s.labels, chosen, cx.facts, s.why_p)
    toolkit = _toolkit_choice(cx, chosen, s.eff_driver, s.drv_target, s.distinct)
    cudnn = _cudnn_choice(cx, chosen, toolkit, s.distinct)
    best_cur = s.best_cur
    keep_best = best_cur if best_cur and vkey(best_cur.release.version) < vkey(chosen.release.version) else None
    alts = _alternatives(cx, chosen, s.cur_cands if chosen is best_cur else (s.tgt_cands or s.any_cands), keep_best, s.any_cands)
    if plat == "linux" and drv.action == "keep" and s.cur_branch and (brow := db.branch(s.cur_branch)) and brow.ended(cx.data_date):
        other = _next_supported(cx, s.cur_branch, s.max_branch, s.min_branch)  # the next supported branch, never an older one
        last = not other and s.max_branch == s.cur_branch
        cx.warn("driver_branch_ended", "info", dict(branch=s.cur_branch, eol=brow.eol, target=other, eol_part_code="branch_eol_date" if brow.eol else "",
                                                    target_part_code="branch_eol_target" if other else ("branch_eol_last" if last else "")))
    summary = f"PyTorch {torch.version}+{torch.index} for {', '.join(s.labels)}; driver: {drv.action}" \
        + (f" R{drv.branch}" if drv.branch and drv.action in ("install", "upgrade") else "") + "."
    return Recommendation(pytorch=torch, driver=drv, cuda_toolkit=toolkit, cudnn=cudnn, warnings=tuple(cx.warnings), alternatives=alts,
                          refused=tuple(cx.refused), refused_detail=tuple(cx.refusals), db_version=db.version, platform=plat, summary=summary)



# ------------------------------------------------------------------ pieces


def _held_has_build(cx: _Ctx, s: _Solve) -> bool:
    """The release held back for want of its torchvision has the build asked for (any, with no `--variant`) for these
    GPUs: only then would torch alone (`--no-torchvision`) get a newer release."""
    vf = _variant_filter(s)
    assert cx.held_back is not None
    return any(_coverage(v, s.distinct) is not None for v in cx.db.variants(cx.held_back.release, cx.wheel_os) if not vf or v.variant == vf)


def _why_no_candidate(cx: _Ctx, ccs: list[str], labels: list[str], rel: Optional[TorchRelease], variant: Optional[str]) -> dict:
    """Why no build serves this machine as asked: the clause (why_code) and its figures."""
    db = cx.db
    rels = [rel] if rel else list(db.torch_releases)
    vs = [v for r in rels for v in db.variants(r.release, cx.wheel_os) if not variant or v.variant == variant]
    if not vs:
        return dict(why_code="why_not_built_as" if variant else "why_not_built", os=cx.os_label, variant=variant)
    missing = [lab for lab, cc in zip(labels, ccs) if not any(v.covers(cc) for v in vs)]
    if missing:
        return dict(why_code="why_no_kernels_os", gpus=", ".join(missing), os=cx.os_label)
    if cx.python and not any(r.supports_python(cx.python) for r in rels):
        return dict(why_code="why_no_python_wheels", python=cx.python)
    if rel and rel.torchvision is None and cx.choices.want_torchvision:
        return dict(why_code="why_no_torchvision_yet")
    return dict(why_code="why_no_single_build")


def _torch_choice(cx: _Ctx, c: Candidate, compat: Optional[str], labels: list[str], runs_now: Optional[bool] = None,
                  cpu_code: str = "torch_cpu_chosen", cpu_params: Optional[dict] = None) -> TorchChoice:
    """`runs_now=False`: the driver here is too old for the wheel (Windows/WSL, where the user updates it):
    the reason says it needs a newer driver, never that the driver supports it. A CPU build's reason is `cpu_code`."""
    rel, v = c.release, c.variant
    pkgs = [f"torch=={rel.version}"]
    if rel.torchvision and cx.choices.want_torchvision:
        pkgs.append(f"torchvision=={rel.torchvision}")
    if rel.torchaudio:
        pkgs.append(f"torchaudio=={rel.torchaudio}")
    url = _index_url(cx.choices, c.index)
    pip, uv, argv = _commands(cx.choices, tuple(pkgs), url, cx.wheel_os, cx.facts)
    if v is None:
        code, params = cpu_code, _p(version=rel.version, for_python_code="for_python" if cx.python else "", python=cx.python,
                                    **(cpu_params or {}))
    else:
        how_compat = None if runs_now is False else compat
        code = {"full": "torch_newest_full", "minor": "torch_newest_minor"}.get(how_compat or "", "torch_newest_needs_driver")
        params = _p(gpus=", ".join(labels), os=cx.os_label, and_python_code="and_python" if cx.python else "", python=cx.python,
                    version=rel.version, index=c.index, cuda=v.cuda_runtime)
    return TorchChoice(version=rel.version, index=c.index, index_url=url, packages=tuple(pkgs), command=pip, uv_command=uv, install_argv=argv,
                       cuda_runtime=v.cuda_runtime if v else None, cudnn=v.cudnn if v else None,
                       driver_compat=compat if v else None,  # type: ignore[arg-type]
                       arch_list=v.sm_list() if v else (), reason=_en(code, params), torchvision=rel.torchvision, torchaudio=rel.torchaudio,
                       python=cx.python, platform=cx.wheel_os, default_index=rel.default_for(cx.wheel_os), reason_code=code, reason_params=params)


def _plain_pip_works(cx: _Ctx, ccs: list[str], driver: Optional[str], newest: Optional[TorchRelease]) -> bool:
    if newest is None:
        return False
    plain = newest.default_for(cx.wheel_os)
    if plain == "cpu":
        return False
    v = cx.db.variant(newest.release, plain, cx.wheel_os) if plain is not None else None
    if v is None:
        return True  # that build is not on the configured index: nothing is known against it, nothing is claimed
    if _coverage(v, ccs) is None:
        return False
    return bool(driver) and cx.db.driver_compat(driver, v.cuda_runtime, cx.platform) is not None


def _plain_pip_params(cx: _Ctx, newest: Optional[TorchRelease], chosen: Candidate) -> dict:
    if cx.wheel_os == "windows":
        return dict(text_code="plain_pip_windows", index=chosen.index)
    return dict(text_code="plain_pip_linux", newest_code="newest_version" if newest else "newest_unknown", newest=newest.version if newest else None,
                plain=newest.default_for("linux") if newest else "?", torch=chosen.release.version, index=chosen.index)


def _broken_params(d, version: Optional[str], visible_note: bool) -> dict:
    """driver_not_working's figures; a detection hint (free English text) is passed as it is."""
    return dict(text_code="driver_not_working_no_gpu" if visible_note else "driver_not_working_text",
                subject_code="driver_subject_version" if version else "driver_subject", current=version, state=d.state,
                hint=f" {d.hint}" if d.hint else None, hint_code=None if d.hint else "hint_default")


def _driver_choice(cx: _Ctx, action: str, cur: Optional[str], target: Optional[str], flavour: Optional[str], max_branch: Optional[str],
                   need_min: Optional[str], compat: Optional[str], labels: list[str], chosen: Candidate, facts: Facts,
                   why_p: Optional[dict] = None) -> DriverChoice:
    """The driver card: what to do with the driver and why (`why_p`: the clause code and figures of why it changes)."""
    plat = cx.platform
    why_p = dict(why_p or {})
    cap_p = dict(cap_code="driver_cap" if max_branch else "", max_branch=max_branch, cap_gpus=", ".join(labels) if max_branch else None)
    run_p = dict(torch=chosen.release.version, index=chosen.index)
    package = package_repo = pin = None
    branch = target
    if action in ("install", "upgrade") and plat == "linux" and target:
        code, params, package, package_repo, pin = _driver_install(cx, action, cur, target, flavour, compat, why_p, {**run_p, **cap_p})
    elif action == "host":
        branch = None
        if cur and need_min and vkey(cur) >= vkey(need_min):
            code, params = "driver_host_keep", dict(current=cur, need=need_min or "?")
        else:
            code, params = "driver_host_update", {**why_p, "need": need_min or "?", "now_code": "driver_now" if cur else "driver_now_none",
                                                  "current": cur, "why_note_code": "why_note" if why_p else ""}
    elif plat == "windows":
        branch = str(vkey(need_min)[0]) if action != "keep" and need_min else None
        if branch and max_branch and compat == "minor":
            branch = max_branch  # the GPUs' last branch: its newest driver, at least need_min
        if action == "keep":
            code, params = "driver_windows_keep", dict(current=cur, **run_p)
        else:
            code, params = "driver_windows_update", {**why_p, "need": need_min, "now_code": "driver_now" if cur else "driver_none", "current": cur,
                                                     "why_paren_code": "why_paren" if why_p else ""}
    elif action == "keep":
        branch = str(vkey(cur)[0]) if cur else None
        code, params = "driver_keep", dict(current=cur, current_code=None if cur else "driver_version_none", **run_p, compat=compat or "full", **cap_p)
    elif cx.vgpu:
        code, params = "driver_vgpu_update", dict(need=need_min, now_code="driver_now" if cur else "driver_none", current=cur)
    else:
        code, params = "driver_needed_unmanaged", dict(need=need_min)
    return DriverChoice(action=action, current_version=cur, min_version=need_min, branch=branch, package=package,  # type: ignore[arg-type]
                        flavour=flavour if plat == "linux" else None, reason=_en(code, params), max_branch=max_branch, compat=compat,  # type: ignore[arg-type]
                        package_repo=package_repo, pin_package=pin, reason_code=code, reason_params=_p(**params))  # type: ignore[arg-type]


def _driver_install(cx: _Ctx, action: str, cur: Optional[str], target: str, flavour: Optional[str], compat: Optional[str], why_p: dict,
                    fig: dict) -> tuple[str, dict, Optional[str], Optional[str], Optional[str]]:
    """(code, params, package, package_repo, pin) of a driver the wizard installs or upgrades to on native Linux."""
    o = cx.facts.os
    fl = flavour or "open"
    prow = cx.db.driver_package_row((o.id or "").lower() or None, fl, tuple(x.lower() for x in o.id_like), o.version_id)
    package = prow.for_branch(target) if prow else None
    package_repo = prow.from_repo if prow else None
    pin = prow.pin_package.format(branch=target) if prow and prow.pin_package else None
    if not why_p:
        why_p = dict(why_code="why_no_driver") if not cur else dict(why_code="why_driver_unusable", current=cur)
    params = {**why_p, **fig, "branch": target, "flavour": "open" if fl == "open" else "proprietary", "compat": compat or "full",
              "no_package_code": "" if package is not None else ("driver_no_package" if o.id else "driver_no_package_unknown_os"),
              "os": o.id if package is None else None}
    return ("driver_install" if action == "install" else "driver_upgrade"), params, package, package_repo, pin


def _toolkit_choice(cx: _Ctx, chosen: Optional[Candidate], driver: Optional[str], target: Optional[str], ccs: list[str]) -> ToolkitChoice:
    db, plat, ch = cx.db, cx.platform, cx.choices
    wanted = bool(ch.want_toolkit)
    b = db.branch(target) if target else None
    max_cuda = b.max_cuda if b else (db.max_cuda_for_driver(driver, plat) if driver else None)
    lo: tuple[int, ...] = ()  # what the GPUs allow
    hi: Optional[tuple[int, ...]] = None
    for cc in ccs:
        info = db.cc_info(cc)
        if info and info.first_cuda and vkey(info.first_cuda) > lo:
            lo = vkey(info.first_cuda)
        if info and info.last_cuda and (hi is None or vkey(info.last_cuda) < hi):
            hi = vkey(info.last_cuda)
    repo = _toolkit_repo(cx)
    pool = db.repo_toolkits(repo) if repo else db.cuda_versions()
    ok = [c for c in pool if (max_cuda is None or vkey(c) <= vkey(max_cuda)) and vkey(c) >= lo and (hi is None or vkey(c) <= hi)]
    if not ok or max_cuda is None:
        why_p = _p(why_code="toolkit_why_no_driver" if max_cuda is None else ("toolkit_why_none_in_repo" if repo else "toolkit_why_none_fits"),
                   repo=repo.repo if repo and max_cuda is not None else None, max_cuda=max_cuda)
        if wanted:
            cx.warn("toolkit_unavailable", "error", why_p)
        return ToolkitChoice(wanted=wanted, reason=_en("toolkit_not_available", why_p), max_version=max_cuda, reason_code="toolkit_not_available",
                             reason_params=why_p)
    ver, why_p = _toolkit_version(cx, chosen, ok, max_cuda, repo, wanted)
    tp = {**why_p, "opt_code": "" if wanted else "toolkit_optional", "version": ver}
    if plat == "windows":
        return ToolkitChoice(wanted=wanted, version=ver, reason=_en("toolkit_windows", tp), max_version=max_cuda, reason_code="toolkit_windows",
                             reason_params=_p(**tp))
    rel = db.cuda_release(ver)
    newest_update = [r for r in db.cuda_releases if r.cuda == ver][-1] if rel else None
    runfile = None
    if newest_update and plat == "linux" and not cx.arm:
        runfile = f"{RUNFILE_BASE}/{newest_update.version}/local_installers/cuda_{newest_update.version}_{newest_update.linux_min_driver}_linux.run"
    if repo is None:
        o = cx.facts.os
        if ch.install_method != "runfile" and plat == "linux":
            cx.warn("no_nvidia_repo", "info", dict(os_code="os_named" if (o.pretty_name or o.id) else "os_unknown", os=o.pretty_name or o.id))
        code = "toolkit_runfile" if runfile else "toolkit_installer"
        return ToolkitChoice(wanted=wanted, version=ver, package=None, runfile_url=runfile, runfile_sha256=None, reason=_en(code, tp),
                             max_version=max_cuda, reason_code=code, reason_params=_p(**tp))
    base = (ch.mirrors.nvidia_repo_url or NVIDIA_REPOS_BASE).rstrip("/")
    url = f"{base}/{repo.repo}/{repo.arch}/"
    keyring = (url + repo.keyring_url.rsplit("/", 1)[1]) if repo.keyring_url else None
    pkg = repo.package_for(ver)
    code = "toolkit_repo_wsl" if plat == "wsl" else "toolkit_repo"
    rp = _p(**{**tp, "package": pkg, "repo": repo.repo, "version": None})
    return ToolkitChoice(wanted=wanted, version=ver, package=pkg, repo=repo.repo, repo_url=url, keyring_url=keyring,
                         runfile_url=runfile if plat == "linux" else None, runfile_sha256=None, reason=_en(code, rp),
                         max_version=max_cuda, package_manager=repo.package_manager, reason_code=code, reason_params=rp)


def _toolkit_repo(cx: _Ctx) -> Optional[NvidiaRepo]:
    o = cx.facts.os
    if cx.platform not in ("linux", "wsl") or cx.choices.install_method == "runfile":
        return None
    return cx.db.repo_for((o.id or "").lower() or None, o.version_id, wsl=cx.platform == "wsl", id_like=tuple(x.lower() for x in o.id_like),
                          codenames=(o.codename, o.base_codename), arch="sbsa" if cx.arm else "x86_64")


def _toolkit_version(cx: _Ctx, chosen: Optional[Candidate], ok: list[str], max_cuda: str, repo: Optional[NvidiaRepo],
                     wanted: bool) -> tuple[str, dict]:
    """The toolkit X.Y (the wheel's CUDA where the repository and the driver allow it) and why it is that one."""
    wheel = major_minor(chosen.variant.cuda_runtime) if chosen and chosen.variant else None
    if wheel and wheel in ok:
        return wheel, _p(why_code="toolkit_why_matches_wheel", wheel=wheel)
    same_major = [c for c in ok if wheel and c.split(".")[0] == wheel.split(".")[0]]
    ver = (same_major or ok)[-1]
    if not wheel:
        return ver, _p(why_code="toolkit_why_newest_for_driver")
    if vkey(wheel) > vkey(max_cuda):
        why_p = _p(why_code="toolkit_why_capped_by_driver", major=ver.split(".")[0], wheel=wheel, max_cuda=max_cuda)
    else:
        why_p = _p(why_code="toolkit_why_closest_not_in_repo" if repo else "toolkit_why_closest_gpus", wheel=wheel, repo=repo.repo if repo else None)
    if wanted:
        cx.warn("toolkit_differs_from_wheel", "info", dict(version=ver, wheel=wheel, major=ver.split(".")[0]))
    return ver, why_p


def _cudnn_choice(cx: _Ctx, chosen: Optional[Candidate], toolkit: ToolkitChoice, ccs: list[str]) -> CudnnChoice:
    if chosen is None or chosen.variant is None:
        return CudnnChoice(reason=_en("cudnn_cpu", {}), reason_code="cudnn_cpu")
    if cx.choices.want_system_cudnn and toolkit.version:
        row = cx.db.cudnn_for(toolkit.version, ccs)
        if row:
            p = _p(version=row.cudnn, package=row.package, cuda=toolkit.version, wheel_cudnn=chosen.variant.cudnn)
            return CudnnChoice(version=row.cudnn, source="system", package=row.package, reason=_en("cudnn_system", p), reason_code="cudnn_system",
                               reason_params=p)
        cx.refuse("refused_system_cudnn", cuda=toolkit.version)
    p = _p(version=chosen.variant.cudnn)
    return CudnnChoice(version=chosen.variant.cudnn, source="wheel", package=None, reason=_en("cudnn_bundled", p), reason_code="cudnn_bundled",
                       reason_params=p)


def _alternatives(cx: _Ctx, chosen: Candidate, same_driver: list[Candidate], keep_driver_best: Optional[Candidate],
                  any_cands: list[Candidate]) -> tuple[Alternative, ...]:
    out: list[Alternative] = []
    seen = {(chosen.release.version, chosen.index)}

    def add(c: Candidate, code: str, **params) -> None:
        if (c.release.version, c.index) in seen:
            return
        seen.add((c.release.version, c.index))
        need = cx.db.min_driver_for_runtime(c.variant.cuda_runtime, cx.platform, c.compat or "full") if c.variant else None
        out.append(Alternative(torch_version=c.release.version, index=c.index, reason=_en(code, params), rank=len(out) + 1,
                               index_url=_index_url(cx.choices, c.index), driver_compat=c.compat, needs_driver=need,  # type: ignore[arg-type]
                               reason_code=code, reason_params=_p(**params)))

    if keep_driver_best:
        add(keep_driver_best, "alt_keep_driver", torch=keep_driver_best.release.version, index=keep_driver_best.index)
    for c in same_driver:
        if c.release.version == chosen.release.version and c.index != chosen.index and c.variant:
            add(c, "alt_same_release", cuda=c.variant.cuda_runtime, note_code="alt_note_minor" if c.compat == "minor" else "alt_note_full")
    for c in any_cands:
        if vkey(c.release.version) > vkey(chosen.release.version) and c.compat and c.variant:
            add(c, "alt_newer", need=cx.db.min_driver_for_runtime(c.variant.cuda_runtime, cx.platform, "minor"))
            break
    older = [c for c in same_driver if vkey(c.release.version) < vkey(chosen.release.version)]
    if older:
        add(older[0], "alt_previous")
    newest = next((r for r in cx.db.torch_releases if r.supports_python(cx.python) and _complete(cx, r)), None)
    if newest and (newest.version, "cpu") not in seen:
        seen.add((newest.version, "cpu"))
        out.append(Alternative(torch_version=newest.version, index="cpu", reason=_en("alt_cpu", {}), rank=len(out) + 1,
                               index_url=_index_url(cx.choices, "cpu"), reason_code="alt_cpu"))
    return tuple(out)


def _cpu_only(cx: _Ctx, want_release: Optional[TorchRelease], reason_gpu: bool) -> Recommendation:
    db = cx.db
    if want_release is not None and want_release.cpu_version == "":
        cx.refuse("refused_not_on_index", torch=want_release.version, python=cx.python)
        want_release = None
    rels = [want_release] if want_release else [r for r in db.torch_releases if r.supports_python(cx.python) and _complete(cx, r)
                                                and r.cpu_version != ""]
    rels = [replace(r, version=r.cpu_version) if r.cpu_version else r for r in rels]  # the CPU build's patch on the index
    if not rels and not want_release and cx.choices.want_torchvision and any(r.supports_python(cx.python) and r.cpu_version != ""
                                                                              for r in db.torch_releases):
        alone = _cpu_only(_Ctx(cx.facts, cx.data, cx.choices.replace(want_torchvision=False)), None, reason_gpu)
        held = next(r for r in db.torch_releases if r.supports_python(cx.python) and r.cpu_version != "")
        kept = tuple(x for x in alone.warnings if x.code != "torch_without_torchvision")
        return alone.replace(warnings=tuple(cx.warnings) + kept + (_alone_warning(cx, held),))
    if not rels:
        return _no_python(cx)
    jetson = bool(reason_gpu and cx.tegra and cx.choices.torch_variant != "cpu")
    d = cx.facts.driver
    if cx.choices.torch_variant == "cpu":
        code = "torch_cpu_chosen"
    elif jetson:  # a Jetson's GPU is there, JetPack's builds use it: never "no NVIDIA GPU" beside that warning
        code = "torch_cpu_jetson"
    elif reason_gpu:
        code = "torch_cpu_no_usable_gpu"
    elif d.state in ("not_loaded", "mismatch", "no_communication", "nvml_failed"):
        code = "torch_cpu_driver_not_working"  # no GPU is visible because the driver is not working
        cx.warn("driver_not_working", "error", _broken_params(d, d.version, visible_note=True))
    else:
        code = "torch_cpu_no_gpu"
        cx.warn("no_nvidia_gpu")
    torch = _torch_choice(cx, Candidate(rels[0], None, None), None, [], cpu_code=code,
                          cpu_params=dict(gpus=", ".join(cx.tegra)) if jetson else None)
    action, drv_code, tk_code = "none", "driver_not_needed", "toolkit_no_gpu"
    if any(w.code == "driver_not_working" for w in cx.warnings):
        drv_code = "driver_see_diagnose"
    if jetson:  # JetPack's own driver: nothing to do here
        drv_code, tk_code = "driver_jetpack", "toolkit_jetpack"
    if cx.choices.torch_variant == "cpu" and cx.facts.gpus:
        action, drv_code = ("keep" if d.version else "none"), "driver_cpu_chosen"
    return Recommendation(pytorch=torch, driver=DriverChoice(action=action, current_version=d.version, reason=_en(drv_code, {}),  # type: ignore[arg-type]
                                                             reason_code=drv_code),
                          cuda_toolkit=ToolkitChoice(reason=_en(tk_code, {}), reason_code=tk_code),
                          cudnn=CudnnChoice(reason=_en("cudnn_cpu", {}), reason_code="cudnn_cpu"), warnings=tuple(cx.warnings), alternatives=(),
                          refused=tuple(cx.refused), refused_detail=tuple(cx.refusals), db_version=db.version, platform=cx.platform,
                          summary=f"PyTorch {rels[0].version} CPU build.")


def _no_python(cx: _Ctx) -> Recommendation:
    db = cx.db
    newest = db.torch_releases[0]
    pys = [p for p in newest.python if not p.endswith("t")]
    if cx.python and vkey(cx.python) > vkey(pys[-1]):
        code, params = "python_too_new", _p(text_code="python_too_new_no_release", python=cx.python, newest=newest.version, py_min=pys[0], py_max=pys[-1])
    else:
        code, params = "python_too_old", _p(text_code="python_too_old_no_release", python=cx.python, py_max=pys[-1])
    cx.warn(code, "error", params)
    msg = _en(code, params)
    return Recommendation(pytorch=TorchChoice(reason=msg, python=cx.python, platform=cx.wheel_os, reason_code=code, reason_params=params),
                          driver=DriverChoice(action="none", current_version=cx.facts.driver.version,
                                              reason=_en("driver_python_first", {}), reason_code="driver_python_first"),
                          warnings=tuple(cx.warnings), refused=tuple(cx.refused), refused_detail=tuple(cx.refusals), db_version=db.version,
                          platform=cx.platform, summary=msg)


def _no_release(cx: _Ctx, facts: Facts, labels: list[str], ccs: list[str], action: str, cur: Optional[str], target_branch: Optional[str],
                flavour: Optional[str], max_branch: Optional[str]) -> Recommendation:
    db = cx.db
    if cx.python and not any(r.supports_python(cx.python) for r in db.torch_releases):
        return _no_python(cx)
    labels = list(dict.fromkeys(labels))  # two K40m are named once
    other = _other_python(cx, ccs, max_branch)
    if other is not None:  # kernels for this GPU exist, for other Pythons: name the Python that works
        code, msg_p = other[0], {**other[1], "gpus": ", ".join(labels), "os": cx.os_label, "python": cx.python}
    else:
        with_wheels = [r for r in db.torch_releases if db.variants(r.release, cx.wheel_os)]
        oldest = with_wheels[-1] if with_wheels else db.torch_releases[-1]
        code, msg_p = "no_release_for_gpu", dict(oldest=oldest.release, gpus=", ".join(labels), os=cx.os_label,
                                                 with_python_code="with_python" if cx.python else "", python=cx.python)
    msg = _en(code, msg_p)
    cx.warn(code, "error", msg_p)
    newest = next((r for r in db.torch_releases if r.supports_python(cx.python)), None)
    alts: tuple[Alternative, ...] = ()
    if newest:
        alts = (Alternative(torch_version=newest.version, index="cpu", reason=_en("alt_cpu", {}), rank=1, index_url=_index_url(cx.choices, "cpu"),
                            reason_code="alt_cpu"),)
    drv = _legacy_driver(cx, facts, labels, action, cur, target_branch, flavour, max_branch, python_first=other is not None)
    return Recommendation(pytorch=TorchChoice(reason=msg, python=cx.python, platform=cx.wheel_os, reason_code=code, reason_params=_p(**msg_p)),
                          driver=drv,
                          cuda_toolkit=ToolkitChoice(reason=_en("toolkit_no_release", {}), reason_code="toolkit_no_release"),
                          cudnn=CudnnChoice(reason=_en("cudnn_no_release", {}), reason_code="cudnn_no_release"), warnings=tuple(cx.warnings),
                          alternatives=alts, refused=tuple(cx.refused), refused_detail=tuple(cx.refusals), db_version=db.version,
                          platform=cx.platform, summary=msg)


def _other_python(cx: _Ctx, ccs: list[str], max_branch: Optional[str]) -> Optional[tuple[str, dict]]:
    """(warning code, figures) when releases with kernels for these GPUs exist, only for other Pythons: the newest
    such release+build a driver these GPUs allow runs, and the Python bound that gets it (free-threaded tags for a
    free-threaded Python)."""
    if not cx.python:
        return None
    driver = _branch_driver(max_branch) if max_branch else _ANY_DRIVER
    for rel in cx.db.torch_releases:
        if not _complete(cx, rel):
            continue
        runs = [Candidate(rel, v, c, cov) for v in cx.db.variants(rel.release, cx.wheel_os)
                if (cov := _coverage(v, ccs)) is not None and (c := cx.db.driver_compat(driver, v.cuda_runtime, cx.platform))]
        pys = [p for p in rel.python if is_free_threaded(p) == is_free_threaded(cx.python)] or [p for p in rel.python if not is_free_threaded(p)]
        if not runs or not pys:
            continue
        best = max(runs, key=Candidate.key)
        hi, lo = max(pys, key=vkey), min(pys, key=vkey)
        fig = dict(torch=rel.version, index=best.index)
        if vkey(cx.python) > vkey(hi):
            return "python_too_new", dict(text_code="python_too_new_for_gpu", py_max=hi, **fig)
        if vkey(cx.python) < vkey(lo):
            return "python_too_old", dict(text_code="python_too_old_for_gpu", py_min=lo, **fig)
        return None
    return None


def _legacy_driver(cx: _Ctx, facts: Facts, labels: list[str], action: str, cur: Optional[str], target: Optional[str], flavour: Optional[str],
                   max_branch: Optional[str], python_first: bool = False) -> DriverChoice:
    """The driver where no PyTorch build serves the GPUs: kept on their last branch ("keep: R470 is its last branch"), moved to
    that branch's newest release with a target, installed from it, never "upgrade" with nowhere to go."""
    db, plat = cx.db, cx.platform
    gpus = ", ".join(labels)
    cur_branch = str(vkey(cur)[0]) if vkey(cur) else None
    last = max_branch
    branch = target or last
    managed = plat == "windows" or (plat == "linux" and cx.choices.install_driver and not cx.vgpu)
    code: str
    if python_first and last is None:  # a GPU no branch caps: its driver follows the build another Python gets
        drv_action, code, branch = ("host" if plat == "wsl" else ("keep" if cur else "none")), "driver_python_first", None
    elif last is None:  # no branch caps these GPUs: keep a driver, install the recommended branch where there is none
        install = not cur and plat == "linux" and managed and bool(target)
        drv_action, code = ("install" if install else ("host" if plat == "wsl" else ("keep" if cur else "none"))), "driver_no_release"
        branch = target if install else None
    elif plat == "wsl" or action == "host" or not managed or not branch:
        drv_action = "host" if plat == "wsl" else ("keep" if cur else "none")
        code = "driver_no_release_capped" if last else "driver_no_release"
        branch = None
    elif cur_branch and (cur_branch == last or (plat != "linux" and vkey(cur_branch) > vkey(last))):
        drv_action, code, branch = "keep", "driver_keep_last_branch", last
    elif cur_branch and vkey(cur_branch) < vkey(branch):
        drv_action, code = "upgrade", "driver_upgrade_last_branch"
    else:  # none installed, or (native Linux) a branch past the GPUs' last one
        drv_action, code = "install", "driver_install_last_branch"
    figures = dict(gpus=gpus, max_branch=last, current=cur, branch=branch)
    params = {k: figures[k] for k in messages.names(messages.template(f"rec.{code}") or "") if k in figures}
    package = None
    if drv_action in ("install", "upgrade") and plat == "linux" and branch:
        package = db.driver_package((facts.os.id or "").lower() or None, flavour or "proprietary", branch, tuple(facts.os.id_like),
                                    facts.os.version_id)
    return DriverChoice(action=drv_action, current_version=cur, branch=branch, package=package,  # type: ignore[arg-type]
                        flavour=flavour if plat == "linux" else None, max_branch=last,  # type: ignore[arg-type]
                        reason=_en(code, params), reason_code=code, reason_params=_p(**params))


def torch_options(facts: Facts, db: CompatDB, choices: Choices = Choices(), rec: Optional[Recommendation] = None) -> tuple[TorchOption, ...]:
    """Every PyTorch release x build for this OS, newest first, each judged for this machine:
    usable with the current driver ('ok'), usable after a driver update ('needs_driver'), beyond
    the last driver branch the GPUs allow ('driver_capped'), no kernels for a GPU ('no_kernels'),
    or no wheels for the target Python ('no_python'). The CPU build closes each release."""
    cx = _Ctx(facts, db, choices)
    rec = rec or recommend(facts, db, choices)
    db = cx.db
    ccs = sorted({c for c in (_gpu_cc(g) for g in facts.gpus) if c and not _is_tegra(db, c)}, key=cc_key)
    labels = {c: next(_gpu_label(g, c) for g in facts.gpus if _gpu_cc(g) == c) for c in ccs}
    cur = facts.driver.version or (windows_driver_to_nvidia(facts.driver.windows_version) if cx.platform != "linux" else None)
    max_branch = _driver_range(cx, ccs)[0] if ccs else None
    out: list[TorchOption] = []
    for rel in db.torch_releases:
        builds: list[TorchVariant] = list(db.variants(rel.release, cx.wheel_os)) if ccs else []
        builds.sort(key=lambda v: vkey(v.cuda_runtime), reverse=True)
        for v in [*builds, None]:
            index = v.variant if v else "cpu"
            chosen = rec.pytorch.version == rel.version and rec.pytorch.index == index
            if not rel.supports_python(cx.python):
                out.append(TorchOption(rel.version, index, "no_python", _en("opt_no_python", dict(python=cx.python)),
                                       cuda_runtime=v.cuda_runtime if v else None, reason_code="opt_no_python", reason_params=_p(python=cx.python)))
                continue
            if v is None:
                out.append(TorchOption(rel.version, "cpu", "ok", _en("opt_cpu", {}), recommended=chosen, reason_code="opt_cpu"))
                continue
            missing = [labels[c] for c in ccs if v.covers(c) is None]
            floor = db.min_driver_for_runtime(v.cuda_runtime, cx.platform, "minor")
            if missing:
                out.append(TorchOption(rel.version, index, "no_kernels", _en("opt_no_kernels", dict(gpus=", ".join(missing))), needs_driver=floor,
                                       cuda_runtime=v.cuda_runtime, reason_code="opt_no_kernels", reason_params=_p(gpus=', '.join(missing))))
                continue
            # a driver branch past the last one these GPUs support runs nothing on them (R590 and Pascal)
            cur_runs = bool(cur) and not (cx.platform == "linux" and max_branch and vkey(cur)[:1] > vkey(max_branch)[:1])
            compat = db.driver_compat(cur, v.cuda_runtime, cx.platform) if cur_runs else None
            if compat:
                out.append(TorchOption(rel.version, index, "ok", _en("opt_runs", dict(current=cur, compat=compat)), driver_compat=compat,
                                       needs_driver=floor, cuda_runtime=v.cuda_runtime, recommended=chosen, reason_code="opt_runs",
                                       reason_params=_p(current=cur, compat=compat)))
            elif max_branch and floor and vkey(floor)[:1] > vkey(max_branch)[:1] and cx.platform == "linux":
                out.append(TorchOption(rel.version, index, "driver_capped", _en("opt_driver_capped", dict(need=floor, max_branch=max_branch)),
                                       needs_driver=floor, cuda_runtime=v.cuda_runtime, reason_code="opt_driver_capped",
                                       reason_params=_p(need=floor, max_branch=max_branch)))
            else:
                out.append(TorchOption(rel.version, index, "needs_driver", _en("opt_needs_driver", dict(need=floor)), needs_driver=floor,
                                       cuda_runtime=v.cuda_runtime, recommended=chosen, reason_code="opt_needs_driver", reason_params=_p(need=floor)))
    return tuple(out)
