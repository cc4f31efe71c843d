"""Translations: English in the source, Simplified Chinese from resources/translations.

Every user-visible string in ui/ goes through `tr()` (or `N_()` for a string defined before
a translator exists, translated later with `tr()`). One context for the whole GUI keeps the
catalogue simple: resources/translations/update_ts.py extracts these calls, and a test
checks each has a non-empty zh_CN translation. Engine text (findings, reasons) is English;
`engine_text()` translates it by code where a mapping exists, else shows the English.
"""
from __future__ import annotations

import locale
import os
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
