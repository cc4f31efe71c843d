"""Translations: English in the source, Simplified Chinese from resources/translations.

Every user-visible string in ui/ goes through `tr()` (or `N_()` for a string defined before
a translator exists, translated later with `tr()`). One context for the whole GUI keeps the
catalogue simple: resources/translations/update_ts.py extracts these calls, and a test
checks each has a non-empty zh_CN translation. Engine text (findings, reasons) is English;
`engine_text()` translates it by code where a mapping exists, else shows the English.
`rec_text()` does the same for the Recommendation's warnings and reasons, whose sentences carry
figures: the engine gives each a code and its figures (params), formatted into REC_TEXT's template.
"""
from __future__ import annotations

import locale
import os
import re
from string import Formatter
from typing import Optional

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from app.paths import resource

CONTEXT = "gpu_wizard"
LANGUAGES = ("en", "zh_CN")


def tr(text: str, disambiguation: Optional[str] = None, n: int = -1) -> str:
    return QCoreApplication.translate(CONTEXT, text, disambiguation, n)


def N_(text: str) -> str:
    """Mark a string for the catalogue without translating it now."""
    return text


def normalise_lang(lang: Optional[str]) -> str:
    """"zh", "zh_CN.UTF-8", "zh-Hans" → "zh_CN"; anything else → "en"."""
    if not lang:
        return "en"
    low = lang.replace("-", "_").lower()
    return "zh_CN" if low.startswith("zh") else "en"


def system_language() -> str:
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        v = os.environ.get(var)
        if v and v not in ("C", "POSIX", "C.UTF-8"):
            return normalise_lang(v.split(":")[0])
    try:
        return normalise_lang(QLocale.system().name())
    except Exception:  # noqa: BLE001 - no locale is fine
        return normalise_lang((locale.getlocale()[0] or ""))


def qm_path(lang: str):
    return resource("translations", f"gpu_wizard_{lang}.qm")


class Translator:
    """Installs the wizard's and Qt's own translators; switchable at run time (Qt sends a
    LanguageChange event to every widget, pages re-translate themselves)."""

    def __init__(self, app: QCoreApplication):
        self.app = app
        self.lang = "en"
        self._ours = QTranslator(app)
        self._qt = QTranslator(app)
        self._installed = False

    def set_language(self, lang: str) -> bool:
        lang = normalise_lang(lang)
        if self._installed:
            self.app.removeTranslator(self._ours)
            self.app.removeTranslator(self._qt)
            self._installed = False
        ok = True
        if lang != "en":
            ok = self._ours.load(str(qm_path(lang)))
            self._qt.load(f"qtbase_{lang}", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath))
            if ok:
                self.app.installTranslator(self._qt)
                self.app.installTranslator(self._ours)
                self._installed = True
        self.lang = lang if ok else "en"
        return ok


# Engine codes we can say in the user's language (the engine's English is the fallback).
FINDING_TEXT = {
    # detection findings (app/detect)
    "no_nvidia_gpu": N_("No NVIDIA GPU was found."),
    "driver_not_installed": N_("The NVIDIA driver is not installed."),
    "driver_not_loaded": N_("The NVIDIA driver is installed but not loaded."),
    "driver_version_mismatch": N_("The driver's library and kernel module versions differ; a reboot usually fixes this."),
    "driver_no_communication": N_("nvidia-smi cannot talk to the driver."),
    "nvml_init_failed": N_("The NVIDIA management library (NVML) could not start."),
    "nouveau_loaded": N_("The open-source nouveau driver is loaded and blocks the NVIDIA driver."),
    "secure_boot_enabled": N_("Secure Boot is on: the NVIDIA kernel module must be signed."),
    "kernel_headers_missing": N_("The kernel headers are missing; the driver cannot be built for this kernel."),
    "gpu_pcie_width_reduced": N_("The GPU's PCIe link runs narrower than it can."),
    "container_detected": N_("Running inside a container: the driver belongs to the host."),
    "torch_cpu_build": N_("The installed PyTorch is a CPU-only build."),
    "torch_not_installed": N_("PyTorch is not installed in the target Python."),
    "torch_cuda_unavailable": N_("PyTorch is installed but cannot use the GPU."),
    "torch_arch_missing": N_("The installed PyTorch has no kernels for this GPU."),
    "toolkit_newer_than_driver": N_("The CUDA toolkit is newer than the driver supports."),
    "cuda_multiple_toolkits": N_("Several CUDA toolkits are installed."),
    "ld_conf_stale_cuda": N_("The library search path points at an old CUDA version."),
    "env_cuda_home_missing": N_("CUDA_HOME points to a folder that does not exist."),
    "low_disk_space": N_("Little free disk space for the toolkit."),
    "wsl_libcuda_not_symlink": N_("A WSL library file that should be a link is a copy."),
    "wsl_memory_low": N_("WSL 2 may use too little memory for training."),
    "wsl_not_installed": N_("WSL is not installed."),
    "wsl_dxg_missing": N_("WSL 2 cannot see the GPU (/dev/dxg is missing)."),
    # verification checks (app/verify/verdicts.py); the engine's sentence with its figures stays
    # available as the item's tooltip
    "device_ok": N_("The GPU is usable."),
    "device_unusable": N_("The GPU cannot be used."),
    "compute_prohibited": N_("The GPU's compute mode forbids running programs on it."),
    "bandwidth_ok": N_("Copies to and from the GPU run at the speed the link allows."),
    "h2d_below_link": N_("Copies to the GPU are slower than the PCIe link allows."),
    "pcie_link_degraded": N_("The PCIe link runs below its full speed or width."),
    "pageable_slow": N_("Copies from ordinary (pageable) memory are slow; pinned memory is fast."),
    "d2d_below_peak": N_("GPU memory bandwidth is below the expected peak."),
    "bandwidth_error": N_("The bandwidth test failed."),
    "torch_ok": N_("PyTorch uses the GPU and its results are correct."),
    "torch_missing": N_("PyTorch is not installed in the target Python."),
    "cuda_unavailable": N_("PyTorch cannot use the GPU."),
    "cudnn_missing": N_("cuDNN is not available to PyTorch."),
    "arch_not_covered": N_("The installed PyTorch has no kernels for this GPU."),
    "numerics_wrong": N_("The GPU gave wrong results in a numeric check."),
    "load_ok": N_("The GPU runs at full speed under load."),
    "load_error": N_("The load test failed."),
    "load_no_result": N_("The load test gave no result."),
    "idle_under_load": N_("The GPU stayed idle while it should have been busy."),
    "power_limit_low": N_("The GPU's power limit is set below its default."),
    "power_capped": N_("The GPU was held back by its power limit."),
    "at_power_limit": N_("The GPU ran at its power limit."),
    "throttled_thermal": N_("The GPU slowed down because it got too hot."),
}


def engine_text(code: Optional[str], english: str) -> str:
    """A finding's, warning's or check's message in the current language when we know its code;
    in English (or for an unknown code) the engine's own sentence, with its figures."""
    src = FINDING_TEXT.get(code or "")
    if src is None:
        return english
    translated = tr(src)
    return translated if translated != src else english


# Recommendation warnings and reasons (app/recommend.py: WARNING_CODES, REASON_CODES, CLAUSE_CODES). Each source
# is the engine's English sentence with its figures as {placeholders}; rec_text() formats the translation with the
# warning's `params` / the choice's `reason_params`. {x} is params["x"], or the clause named by params["x_code"].
REC_TEXT = {
    # warnings
    "platform_unsupported": N_("This operating system has no NVIDIA CUDA wheels; only the CPU build of PyTorch can be installed."),
    "wsl1_no_gpu": N_("WSL 1 cannot use the GPU. Convert this distribution to WSL 2: wsl --set-version <distro> 2"),
    "arch_not_x86_64": N_("PyTorch publishes CUDA wheels for x86_64 and aarch64 only; this machine is {arch}."),
    "python_unknown": N_("No target Python was found; the newest PyTorch is assumed. Use --python-version X.Y to solve for yours."),
    "driver_version_inferred": N_("The driver's version could not be read; it supports CUDA {cuda}, so it is at least {floor}, "
                                  "and the choice below assumes that."),
    "tegra_unsupported": N_("{gpu} is a Jetson/Tegra GPU: use NVIDIA JetPack's PyTorch builds, not these wheels."),
    "gpu_unknown": N_("Could not tell the compute capability of {gpus}; kernels cannot be checked for it. Use --assume-gpu with a name or a compute capability such as 8.9."),
    "no_release_for_gpu": N_("No PyTorch release from {oldest} on ships kernels for {gpus} on {os}{with_python}. Use the CPU build, or build PyTorch from source for this GPU."),
    "gpu_dropped_by_newest": N_("PyTorch {newest} has no kernels for {gpus}; {covering} is the newest release that does."),
    "mixed_gpus_not_covered": N_("PyTorch {torch}+{index} has no kernels for {gpus}; the choice below serves every GPU. Hide the older GPU (CUDA_VISIBLE_DEVICES) to use newer wheels."),
    "mixed_gpus_driver_conflict": N_("One driver cannot serve all GPUs: {conflict}. Use the newest GPU alone, or a separate machine."),
    "driver_branch_drops_gpu": N_("Driver R{current_branch} no longer supports {gpus}; R{max_branch} is the last branch that does."),
    "driver_too_old_for_gpu": N_("Driver {current} predates the newest GPU here; it needs R{min_branch} or newer."),
    "driver_too_old_for_newest": N_("Driver {driver} cannot run PyTorch {newest}+{index}; it needs {need} or newer{where}. {torch} is the newest this driver runs."),
    "driver_version_unknown": N_("The driver works but its version is unknown; the choice below assumes a current R{branch} driver. Run `nvidia-smi` and check its version against the minimum below."),
    "open_module_required": N_("Blackwell GPUs need NVIDIA's open kernel modules; the proprietary module is loaded."),
    "open_module_unsupported": N_("The open kernel module is loaded, but a GPU here is older than Turing and needs the proprietary module."),
    "minor_version_compat_only": N_("Driver {driver} runs CUDA {cuda} only through minor-version compatibility (CUDA {major}.x on a driver at or above {need_min}): PyTorch works; a few newer CUDA features and PTX JIT need {need_full} or newer."),
    "arch_list_unverified": N_("The architecture list of {torch}+{index} on {os} is {confidence}, not read from the build itself; the verify step checks it on this machine."),
    "ptx_jit_only": N_("This wheel has no compiled kernels for one GPU; the driver compiles them from PTX at first use (slow start)."),
    "toolkit_unavailable": N_("The CUDA toolkit cannot be installed: {why}."),
    "toolkit_differs_from_wheel": N_("nvcc {version} differs from the wheel's CUDA {wheel}; extensions still build within CUDA {major}.x."),
    "no_nvidia_repo": N_("NVIDIA has no package repository for {os}; the toolkit would come from the runfile."),
    "no_nvidia_gpu": N_("No NVIDIA GPU was found; PyTorch will run on the CPU. If a GPU is installed, check that it is seated and powered (lspci lists it)."),
    # reasons (TorchChoice, DriverChoice, ToolkitChoice, CudnnChoice)
    "torch_newest_full": N_("Newest release with kernels for {gpus} on {os}{and_python}: {version}+{index} (CUDA {cuda}); the driver fully supports it."),
    "torch_newest_minor": N_("Newest release with kernels for {gpus} on {os}{and_python}: {version}+{index} (CUDA {cuda}); the driver runs (minor-version compatibility) it."),
    "torch_newest_needs_driver": N_("Newest release with kernels for {gpus} on {os}{and_python}: {version}+{index} (CUDA {cuda}); the driver needs a driver for it."),
    "torch_cpu_chosen": N_("CPU build, as chosen. PyTorch {version} CPU build{for_python}."),
    "torch_cpu_no_usable_gpu": N_("No usable NVIDIA GPU was identified: CPU build. PyTorch {version} CPU build{for_python}."),
    "torch_cpu_driver_not_working": N_("No GPU is visible because the NVIDIA driver is not working: fix it first, then ask again. Until then: the CPU build. PyTorch {version} CPU build{for_python}."),
    "torch_cpu_no_gpu": N_("No NVIDIA GPU found: the CPU build of PyTorch. PyTorch {version} CPU build{for_python}."),
    "driver_keep": N_("Keep driver {current}: it runs {torch}+{index} ({compat} compatibility).{cap}"),
    "driver_upgrade": N_("Upgrade to driver branch R{branch} ({flavour} kernel module): {why}; R{branch} runs {torch}+{index} with {compat} compatibility.{cap}{no_package}"),
    "driver_install": N_("Install driver branch R{branch} ({flavour} kernel module): {why}; R{branch} runs {torch}+{index} with {compat} compatibility.{cap}{no_package}"),
    "driver_host_keep": N_("Under WSL 2 the driver lives on Windows: keep the Windows driver {current} (it is at least {need}). Never install a Linux NVIDIA driver inside WSL."),
    "driver_host_update": N_("Under WSL 2 the driver lives on Windows: install or update the NVIDIA Windows driver to {need} or newer (now: {now}{why_note}). Never install a Linux NVIDIA driver inside WSL."),
    "driver_windows_keep": N_("Keep driver {current}: it runs {torch}+{index}."),
    "driver_windows_update": N_("Install the NVIDIA Windows driver {need} or newer (from nvidia.com or Windows Update); now: {now}{why_paren}."),
    "driver_needed_unmanaged": N_("A driver of {need} or newer is needed (the wizard was told not to change the driver)."),
    "driver_not_needed": N_("No NVIDIA GPU: no driver needed."),
    "driver_see_diagnose": N_("The installed driver is not working; `gpu-wizard diagnose` says why and how to fix it."),
    "driver_cpu_chosen": N_("CPU build chosen: the driver is left as it is."),
    "driver_python_first": N_("Decided once a Python with PyTorch wheels is chosen."),
    "driver_no_release": N_(" The GPU works for CUDA programs built for it."),
    "driver_no_release_capped": N_("R{max_branch} is the last driver branch for {gpus}. The GPU works for CUDA programs built for it."),
    "toolkit_repo": N_("{opt}{package} from NVIDIA's {repo} repository: {why}."),
    "toolkit_repo_wsl": N_("{opt}{package} from NVIDIA's {repo} repository: {why}. The WSL repository never installs a driver."),
    "toolkit_runfile": N_("{opt}CUDA {version} (runfile): {why}."),
    "toolkit_installer": N_("{opt}CUDA {version} (installer): {why}."),
    "toolkit_windows": N_("{opt}CUDA {version} from NVIDIA's Windows installer: {why}."),
    "toolkit_not_available": N_("Not available: {why}."),
    "toolkit_no_gpu": N_("No CUDA toolkit without an NVIDIA GPU."),
    "toolkit_no_release": N_("Not chosen: no PyTorch build uses this GPU."),
    "cudnn_bundled": N_("cuDNN {version} comes with the PyTorch wheel (a pip dependency); no system cuDNN is needed."),
    "cudnn_system": N_("System cuDNN {version} ({package}) matches CUDA {cuda} and supports every GPU here; PyTorch keeps using its own cuDNN {wheel_cudnn}."),
    "cudnn_cpu": N_("No cuDNN: CPU build."),
    "cudnn_no_release": N_("No cuDNN: no PyTorch GPU build."),
    # clauses: the optional or varying parts of a sentence
    "why_no_driver": N_("no NVIDIA driver is installed"),
    "why_driver_unusable": N_("driver {current} is not usable"),
    "why_driver_broken": N_("the installed driver is not working ({state}) and its version is unknown"),
    "why_branch_drops_gpu": N_("R{current_branch} does not support {gpus}"),
    "why_driver_predates_gpu": N_("driver {current} predates this GPU (it needs R{min_branch} or newer)"),
    "why_open_module_required": N_("Blackwell GPUs need the open kernel module"),
    "why_open_module_unsupported": N_("GPUs older than Turing need the proprietary kernel module"),
    "why_cannot_run_newest": N_("driver {current} cannot run PyTorch {why_torch}+{why_index}, the newest for this GPU"),
    "why_cannot_run_newest_runs": N_("driver {current} cannot run PyTorch {why_torch}+{why_index}, the newest for this GPU (it runs {why_runs} at most)"),
    "why_note": N_("; {why}"),
    "why_paren": N_(" ({why})"),
    "driver_cap": N_(" R{max_branch} is the last branch that supports {cap_gpus}."),
    "driver_no_package": N_(" No package name is known for {os}: use NVIDIA's installer for R{branch}."),
    "driver_no_package_unknown_os": N_(" No package name is known for this distribution: use NVIDIA's installer for R{branch}."),
    "driver_now": N_("{current}"),
    "driver_now_none": N_("none seen"),
    "one_gpu": N_("{gpu}"),
    "every_gpu": N_("every GPU here"),
    "conflict_modules": N_("these GPUs need different kernel modules (open required by one, impossible on another)"),
    "conflict_branches": N_("no driver branch supports all these GPUs (one needs R{min_branch} or newer, another ends at R{max_branch})"),
    "on_windows": N_(" on Windows"),
    "and_python": N_(" and Python {python}"),
    "for_python": N_(" for Python {python}"),
    "with_python": N_(" with Python {python}"),
    "newest_version": N_("{newest}"),
    "newest_unknown": N_("the newest"),
    "os_named": N_("{os}"),
    "os_unknown": N_("this system"),
    "hint_default": N_(" A reboot usually fixes this; `gpu-wizard diagnose` finds the cause."),
    "driver_subject": N_("The NVIDIA driver"),
    "driver_subject_version": N_("The NVIDIA driver {current}"),
    "driver_not_working_text": N_("{subject} is installed but not working ({state}).{hint}"),
    "driver_not_working_no_gpu": N_("{subject} is installed but not working ({state}), so no GPU is visible.{hint}"),
    "python_too_new_older_release": N_("Python {python} is newer than PyTorch supports (the newest release supports {py_min}-{py_max}); {torch} is the newest with wheels for it."),
    "python_too_new_no_release": N_("Python {python} is newer than any PyTorch release supports (newest: {newest}, Python {py_min}-{py_max}). Use Python {py_max}."),
    "python_too_old_older_release": N_("PyTorch {newest} needs Python {py_min} or newer; with Python {python} the newest is {torch}."),
    "python_too_old_no_release": N_("Python {python} is older than any PyTorch release from 2.0 on supports. Use Python {py_max}."),
    "plain_pip_windows": N_("Plain `pip install torch` on Windows installs the CPU-only build. Use the command below (it installs from the {index} index)."),
    "plain_pip_linux": N_("Plain `pip install torch` would install {newest}+{plain}, which cannot use the GPU here. Use the command below ({torch} from the {index} index)."),
    "toolkit_optional": N_("Optional (the PyTorch wheel brings its own CUDA runtime); if you want nvcc: "),
    "toolkit_why_matches_wheel": N_("matches the CUDA {wheel} runtime inside the PyTorch wheel (for building extensions)"),
    "toolkit_why_newest_for_driver": N_("the newest the driver supports"),
    "toolkit_why_capped_by_driver": N_("the newest CUDA {major}.x the driver supports (the wheel's CUDA {wheel} is newer than the driver's limit, {max_cuda})"),
    "toolkit_why_closest_not_in_repo": N_("the closest to the wheel's CUDA {wheel}, which the {repo} repository does not carry"),
    "toolkit_why_closest_gpus": N_("the closest to the wheel's CUDA {wheel}, which the GPUs here cannot use"),
    "toolkit_why_no_driver": N_("no driver to run it"),
    "toolkit_why_none_in_repo": N_("no CUDA toolkit in {repo} is both supported by the GPUs and at most CUDA {max_cuda} (the driver's limit)"),
    "toolkit_why_none_fits": N_("no CUDA toolkit is both supported by the GPUs and at most CUDA {max_cuda} (the driver's limit)"),
    "driver_none": N_("none"),
    "driver_version_none": N_("(version unknown)"),  # a working driver whose version detection could not read
}

# Warning codes with several sentence shapes: params["text_code"] names the shape (one of these REC_TEXT clauses).
REC_SHAPES = {
    "python_too_new": ("python_too_new_older_release", "python_too_new_no_release"),
    "python_too_old": ("python_too_old_older_release", "python_too_old_no_release"),
    "plain_pip_wrong_build": ("plain_pip_windows", "plain_pip_linux"),
    "driver_not_working": ("driver_not_working_text", "driver_not_working_no_gpu"),
}

# Parameter values that are words, not figures: said in the user's language.
REC_VALUES = {
    "compat": {"full": N_("full"), "minor": N_("minor-version")},
    "flavour": {"open": N_("open"), "proprietary": N_("proprietary")},
    "state": {"not_loaded": N_("not loaded"), "mismatch": N_("version mismatch"), "no_communication": N_("no communication"), "nvml_failed": N_("NVML failed")},
    "confidence": {"inferred": N_("inferred"), "secondary": N_("from secondary sources"), "verified": N_("verified")},
}


def _rec_render(code: str, params: dict[str, str], top: bool, depth: int = 0) -> Optional[str]:
    src = REC_TEXT.get(code)
    if src is None or depth > 4:
        return None
    template = tr(src)
    if top and template == src:  # English, or no translation yet
        return None
    values: dict[str, str] = {}
    try:
        names = {f for _lit, f, _spec, _conv in Formatter().parse(template) if f is not None}
    except ValueError:
        return None
    for name in names:
        if name in params:
            word = REC_VALUES.get(name, {}).get(params[name])
            values[name] = tr(word) if word else params[name]
        elif name + "_code" in params:
            sub = params[name + "_code"]
            part = "" if sub == "" else _rec_render(sub, params, False, depth + 1)
            if part is None:
                return None
            values[name] = part
        else:
            return None  # a figure the engine did not give: keep its English sentence
    try:
        return template.format(**values)
    except (KeyError, IndexError, ValueError):
        return None


def rec_text(code: Optional[str], params: Optional[dict[str, str]], english: str) -> str:
    """A recommendation warning or reason in the current language: the translated sentence with the
    engine's figures when its code and every figure are known; otherwise the engine's English."""
    if not code:
        return english
    params = params or {}
    shape = params.get("text_code")
    out = _rec_render(shape if shape else code, params, True)
    return english if out is None else out


# Plan steps (app/plan/*.py: Step.title_code / Step.why_code, figures in Step.params). Each source is the
# engine's English with its figures as {placeholders}. {x} is params["x"]; where params["x_rec_code"] is given,
# {x} is that recommendation sentence (rec_text, its figures in params["x.NAME"]); where params["x_code"] is
# given, {x} is that PLAN_TEXT clause.
PLAN_TEXT = {
    "remove_old_cuda": N_("Remove old CUDA toolkits: {folders}"),
    "remove_old_cuda_why": N_("Several CUDA toolkits side by side are the usual cause of 'wrong nvcc' and library mix-ups. Only these go: {removes}."),
    "remove_stale_cuda_env": N_("Remove stale CUDA paths from the environment"),
    "remove_stale_cuda_env_why": N_("These entries point at CUDA folders that are gone or belong to another version, so programs could load the wrong libraries. Each file is backed up first."),
    "blacklist_nouveau": N_("Turn off the nouveau driver"),
    "blacklist_nouveau_why": N_("nouveau (the open-source driver) is using the GPU; the NVIDIA driver can only load once it is blacklisted and the initramfs (the early boot image) no longer contains it."),
    "install_driver": N_("Install the NVIDIA driver {branch}({flavour} kernel modules)"),
    "upgrade_driver": N_("Upgrade the NVIDIA driver {branch}({flavour} kernel modules)"),
    "install_driver_why": N_("{reason} The new driver is used after a restart."),
    "install_driver_reason_default": N_("PyTorch needs an NVIDIA driver new enough for its CUDA runtime."),
    "add_nvidia_repo": N_("Add NVIDIA's package repository ({repo})"),
    "add_nvidia_repo_mirror": N_("Add NVIDIA's package repository ({repo}, your mirror)"),
    "add_nvidia_repo_apt_why": N_("NVIDIA publishes the CUDA packages in its own repository; its keyring package lets apt check that every package really comes from NVIDIA."),
    "add_nvidia_repo_dnf_why": N_("NVIDIA publishes the CUDA packages in its own repository; dnf checks them against NVIDIA's key."),
    "set_nvidia_repo_mirror": N_("Use your mirror for NVIDIA's repository"),
    "set_nvidia_repo_mirror_why": N_("Packages come from {url} instead of NVIDIA's server; they are still checked against NVIDIA's signing key."),
    "update_package_index": N_("Refresh the package index"),
    "update_package_index_apt_why": N_("apt must read the new repository's package list before it can install from it."),
    "update_package_index_dnf_why": N_("dnf must read the new repository's package list before it can install from it."),
    "install_cuda_toolkit_runfile": N_("Install the CUDA {version} toolkit (runfile, toolkit only)"),
    "install_cuda_toolkit_runfile_why": N_("The runfile installs the toolkit without a package repository. It is checked against NVIDIA's published checksum before it runs (a corrupt download is the usual cause of 'gzip: stdin: invalid compressed data'), and only the toolkit is installed, never its bundled driver."),
    "install_cuda_toolkit": N_("Install the CUDA {version} toolkit ({package})"),
    "install_cuda_toolkit_apt_why": N_("The toolkit (nvcc, headers, libraries) is only needed to build CUDA code such as PyTorch extensions. The versioned {package} package installs it without touching the driver."),
    "install_cuda_toolkit_dnf_why": N_("The toolkit (nvcc, headers, libraries) is only needed to build CUDA code. {package} installs it without touching the driver."),
    "write_cuda_env": N_("Set CUDA_HOME, PATH and the library path"),
    "write_cuda_env_why": N_("Build tools find the toolkit through CUDA_HOME and PATH; programs find its libraries through the linker cache. Everything points at {link}, so a later upgrade only moves that link."),
    "install_cudnn": N_("Install cuDNN ({package})"),
    "install_cudnn_why": N_("You asked for cuDNN as a system library (for software outside PyTorch; PyTorch's wheels bring their own)."),
    "create_venv": N_("Create the Python environment {venv}"),
    "create_venv_why": N_("PyTorch goes into its own virtual environment, so it cannot clash with the system's Python packages and can be removed by deleting one folder. An existing one is reused."),
    "install_pytorch": N_("Install {packages} ({index} build)"),
    "install_pytorch_why": N_("{reason}"),
    "install_pytorch_why_url": N_("{reason} Packages come from {url}."),
    "install_pytorch_reason_default": N_("The PyTorch build matching this GPU and driver."),
    "verify_pytorch_cuda": N_("Check that PyTorch works on the GPU"),
    "verify_pytorch_cuda_why": N_("Imports torch in the new environment and multiplies matrices on every GPU; the full speed test follows in Verify."),
    "verify_pytorch_cpu": N_("Check that PyTorch works"),
    "verify_pytorch_cpu_why": N_("Imports torch in the new environment and multiplies matrices; the full speed test follows in Verify."),
    # WSL 2 (app/plan/wsl.py) and the Windows host (app/plan/windows.py)
    "remove_wsl_linux_driver": N_("Remove the Linux NVIDIA driver installed inside WSL"),
    "remove_wsl_linux_driver_why": N_("Inside WSL 2 the GPU is driven by the Windows driver, which WSL maps in as /usr/lib/wsl/lib/libcuda.so. A Linux driver installed here shadows that library, and CUDA stops working."),
    "remove_wsl_stray_driver_libs": N_("Remove leftover Linux driver libraries inside WSL"),
    "remove_wsl_stray_driver_libs_why": N_("These libraries would be loaded instead of the Windows driver's libcuda in /usr/lib/wsl/lib."),
    "fix_wsl_libcuda_links": N_("Fix the 'libcuda.so.1 is not a symbolic link' warning"),
    "fix_wsl_libcuda_links_why": N_("The Windows driver puts plain copies of libcuda in /usr/lib/wsl/lib, so ldconfig complains on every package install. A folder of links to the same files gives ldconfig what it expects; nothing about the driver changes."),
    "configure_wsl_memory": N_("Let WSL 2 use {gb} GB of memory"),
    "configure_wsl_memory_why": N_("WSL 2 may use {current_mib} MiB now; training needs room for the data loaders and pinned buffers, about twice the GPU's memory. The setting lives in your Windows user's .wslconfig."),
    "update_nvidia_windows_driver": N_("Install the NVIDIA Windows driver {minimum} or newer (you have {have})"),
    "update_nvidia_windows_driver_why": N_("On Windows the NVIDIA driver also serves CUDA inside WSL 2; it must be at least {minimum} for the PyTorch build the wizard chose. NVIDIA's download page opens; run its installer, then start the wizard again."),
    "enable_wsl_features": N_("Turn on the Windows features WSL 2 needs"),
    "enable_wsl_features_why": N_("WSL 2 runs Linux in a light virtual machine: Windows needs 'Windows Subsystem for Linux' and 'Virtual Machine Platform' switched on. Windows asks for administrator approval for this step only."),
    "update_wsl": N_("Update WSL and its Linux kernel"),
    "update_wsl_why": N_("GPU support in WSL 2 needs a recent WSL and kernel (5.10.43.3 or newer)."),
    "set_wsl_default_version": N_("Make WSL 2 the default for new distros"),
    "set_wsl_default_version_why": N_("CUDA works only under WSL 2."),
    "install_wsl_distro": N_("Install {name} in WSL"),
    "install_wsl_distro_why": N_("The Linux side (CUDA toolkit if wanted, PyTorch) runs inside a WSL 2 distro; {name} is the one NVIDIA's wsl-ubuntu packages are built for."),
    "set_wsl_distro_version": N_("Convert {name} to WSL 2"),
    "set_wsl_distro_version_why": N_("CUDA cannot run under WSL 1. The conversion keeps your files; it can take several minutes."),
    "check_wsl_gpu": N_("Check that {name} sees the GPU"),
    "check_wsl_gpu_why": N_("Inside WSL 2 the Windows driver appears as /usr/lib/wsl/lib (libcuda, nvidia-smi); this shows it works before the Linux side installs anything."),
}

# Step parameters that are words, not figures
PLAN_VALUES = {
    "flavour": {"open": N_("open"), "proprietary": N_("proprietary")},
    "index": {"default": N_("default")},
    "have": {"none": N_("none")},
}


def _plan_render(code: str, params: dict[str, str], depth: int = 0) -> Optional[str]:
    src = PLAN_TEXT.get(code)
    if src is None or depth > 3:
        return None
    template = tr(src)
    try:
        parsed = list(Formatter().parse(template))
    except ValueError:
        return None
    names = {f for _lit, f, _spec, _conv in parsed if f is not None}
    if depth == 0 and template == src and any(lit.strip() for lit, *_ in parsed):
        return None  # English, or no translation yet ("{reason}" alone: its parts say)
    values: dict[str, str] = {}
    for name in names:
        if name + "_rec_code" in params and name in params:
            sub = {k[len(name) + 1:]: v for k, v in params.items() if k.startswith(name + ".")}
            part = rec_text(params[name + "_rec_code"], sub, params[name])
            if part == params[name]:
                return None  # the recommendation sentence has no translation: the step's English
            values[name] = part
        elif name + "_code" in params:
            part = _plan_render(params[name + "_code"], params, depth + 1)
            if part is None:
                return None
            values[name] = part
        elif name in params:
            word = PLAN_VALUES.get(name, {}).get(params[name])
            values[name] = tr(word) if word else params[name]
        else:
            return None
    try:
        return template.format(**values)
    except (KeyError, IndexError, ValueError):
        return None


def plan_text(code: Optional[str], params: Optional[dict[str, str]], english: str) -> str:
    """A plan step's title or why in the current language: its template filled with the step's
    params when the code and every param are known; otherwise the engine's English."""
    if not code:
        return english
    out = _plan_render(code, params or {})
    return english if out is None else out


_DIAG_FIELD = re.compile(r"\{([a-z_]+)\}")


def diag_text(code: Optional[str], field_name: str, params: Optional[dict[str, str]], english: str) -> str:
    """A diagnosis match's root cause or fix in the current language: the rule's English template
    (resources/diagnose/rules.json, by Match.root_cause_code / fix_code) translated through the
    catalogue and filled with Match.params; the engine's English when the code, the translation or a
    figure is missing."""
    if not code:
        return english
    from app.diagnose.engine import text_template

    src = text_template(code, field_name)
    if not src:
        return english
    template = tr(src)
    if template == src:
        return english
    params = params or {}
    names = _DIAG_FIELD.findall(template)
    if any(n not in params for n in names):
        return english
    return _DIAG_FIELD.sub(lambda m: params[m.group(1)], template)
