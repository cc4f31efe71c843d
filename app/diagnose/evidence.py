"""Evidence from this machine's Facts (or a snapshot's): the named checks rules consult.

Each check is `check_<name>(ctx) -> Finding | None`-like: it returns a list of `Evidence`
(supports=True when the fact confirms the rule, False when it speaks against it) and, where
the facts pin the cause down, a `subcode` hint (e.g. "cpu_wheel" inside cuda_unavailable).
Predicates (`wsl`, `apt`, `secure_boot_on`, ...) drive rule redirects and conditional fix steps.
All of it is pure: Facts in, values out; a missing fact is "unknown", never a guess.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from app.diagnose.model import Evidence, Platform
from app.facts import Facts, TorchInfo

_WSL_TEXT = re.compile(r"microsoft-standard|-microsoft\b|/usr/lib/wsl/|\bwsl2?\b|lxss", re.IGNORECASE)
_CONTAINER_TEXT = re.compile(r"docker run|\bcontainer\b|kubernetes|\bpod\b|podman", re.IGNORECASE)
LINUX_DRIVER_PKG_RE = re.compile(r"^(nvidia-driver|nvidia-utils|nvidia-dkms|nvidia-kernel|libnvidia-compute|cuda-drivers|nvidia-open|xserver-xorg-video-nvidia)")


@dataclass
class Context:
    """What the checks see: facts (maybe None), the kept error text, regex groups of the match,
    live measurements, and the recommendation (when the compat engine could give one)."""

    facts: Optional[Facts]
    text: str = ""  # normalised kept text (all windows)
    groups: dict[str, str] = field(default_factory=dict)
    live: dict[str, Any] = field(default_factory=dict)
    recommendation: Any = None
    platform: Optional[Platform] = None  # the machine the text comes from (app.diagnose.platform)
    choices: Any = None  # the run's Choices (mirrors, proxy, CA, venv); None: the config file's
    recommender: Optional[Callable[[Facts], Any]] = None  # the caller's solve, for facts it has no recommendation for
    _rec_tried: bool = False

    # -- facts helpers -------------------------------------------------------------------
    @property
    def torch(self) -> Optional[TorchInfo]:
        f = self.facts
        if f is None:
            return None
        if f.python is not None and f.python.torch is not None:
            return f.python.torch
        for p in f.pythons:
            if p.torch is not None and p.torch.version:
                return p.torch
        return None

    @property
    def python_path(self) -> str:
        f = self.facts
        if f is not None and f.python is not None and f.python.path:
            return f.python.path
        return "python3"

    def env(self, name: str) -> Optional[str]:
        f = self.facts
        if f is None:
            return None
        return f.env.variables.get(name)

    def linux_driver_packages(self) -> list[str]:
        f = self.facts
        if f is None:
            return []
        return sorted({p.name for p in f.cuda.packages if LINUX_DRIVER_PKG_RE.match(p.name)})

    def rec(self):
        """The recommendation for these facts: the one the caller gave, else the caller's recommender's
        (the diagnosis never solves on its own: the pipeline above it does); None when neither can tell."""
        if not self._rec_tried:
            self._rec_tried = True
            if self.facts is not None and self.recommendation is None and self.recommender is not None:
                try:
                    self.recommendation = self.recommender(self.facts)
                except Exception:  # cannot decide: no wheel named
                    self.recommendation = None
        return self.recommendation


# ---------------------------------------------------------------------------------------
# predicates (True / False / None = unknown)

def _os(ctx: Context) -> Optional[str]:
    """The assumed machine's OS, or None when nothing (text or facts) tells."""
    p = ctx.platform
    if p is not None and p.source != "default":
        return p.os
    if ctx.facts is not None:
        return "windows" if ctx.facts.os.platform == "windows" else "wsl" if ctx.facts.os.wsl else "linux"
    return None


def _facts_here(ctx: Context) -> Optional[Facts]:
    """This machine's facts when they describe the machine the text comes from (else None)."""
    return None if ctx.platform is not None and ctx.platform.foreign else ctx.facts


def pred_wsl(ctx: Context) -> Optional[bool]:
    os_ = _os(ctx)
    if os_ is not None:
        return os_ == "wsl"
    if _WSL_TEXT.search(ctx.text):
        return True
    return None


def pred_wsl_linux_driver(ctx: Context) -> Optional[bool]:
    if not pred_wsl(ctx):
        return False
    if ctx.linux_driver_packages():
        return True
    if re.search(r"(?:apt(?:-get)? install|dkms install)[^\n]{0,60}nvidia-(?:driver|utils|dkms)", ctx.text, re.IGNORECASE):
        return True
    return None if ctx.facts is None else False


def pred_container(ctx: Context) -> Optional[bool]:
    p = ctx.platform
    if p is not None and p.container:
        return True
    if p is not None and p.source != "default":
        return False
    if ctx.facts is not None and ctx.facts.os.container:
        return True
    if _CONTAINER_TEXT.search(ctx.text):
        return True
    return None if ctx.facts is None else False


def _pm(ctx: Context) -> Optional[str]:
    p = ctx.platform
    if p is not None and p.package_manager:
        return p.package_manager
    f = _facts_here(ctx)
    pm = f.os.package_manager if f is not None else None
    return "dnf" if pm == "yum" else pm


def pred_apt(ctx: Context) -> Optional[bool]:
    if _os(ctx) in ("windows", "macos"):
        return False
    pm = _pm(ctx)
    return None if pm is None else pm == "apt"


def pred_dnf(ctx: Context) -> Optional[bool]:
    pm = _pm(ctx)
    return None if pm is None else pm == "dnf"


def pred_secure_boot_on(ctx: Context) -> Optional[bool]:
    f = _facts_here(ctx)
    if f is not None and f.driver.secure_boot is not None:
        return f.driver.secure_boot
    if re.search(r"secure ?boot (?:is )?(?:enabled|on|active)|SecureBoot enabled|lockdown|key was rejected by service|"
                 r"required key not available", ctx.text, re.IGNORECASE):
        return True
    return None


def pred_nouveau_loaded(ctx: Context) -> Optional[bool]:
    f = _facts_here(ctx)
    return None if f is None else f.driver.nouveau_loaded


def pred_windows(ctx: Context) -> Optional[bool]:
    os_ = _os(ctx)
    return None if os_ is None else os_ == "windows"


def pred_macos(ctx: Context) -> Optional[bool]:
    return _os(ctx) == "macos" if _os(ctx) is not None else None


def pred_docker_desktop(ctx: Context) -> Optional[bool]:
    return ctx.platform is not None and ctx.platform.container == "docker_desktop"


def pred_plan_venv(ctx: Context) -> Optional[bool]:
    """The fix installs into the plan's venv (the error came from the system's Python or named none)."""
    return ctx.platform is not None and ctx.platform.python_kind == "plan_venv"


def pred_akmods(ctx: Context) -> Optional[bool]:
    """Fedora builds the NVIDIA module with akmods (RPM Fusion), signing it with its own key."""
    p = ctx.platform
    return None if p is None or not p.distro else p.distro == "fedora"


def pred_other_framework(ctx: Context) -> Optional[bool]:
    """The failing program is not PyTorch (another framework or a CUDA program, and no word of PyTorch in the text)."""
    return ctx.platform is not None and ctx.platform.framework is not None


PREDICATES: dict[str, Callable[[Context], Optional[bool]]] = {
    "other_framework": pred_other_framework,
    "wsl": pred_wsl,
    "wsl_linux_driver": pred_wsl_linux_driver,
    "container": pred_container,
    "apt": pred_apt,
    "dnf": pred_dnf,
    "secure_boot_on": pred_secure_boot_on,
    "nouveau_loaded": pred_nouveau_loaded,
    "windows": pred_windows,
    "macos": pred_macos,
    "docker_desktop": pred_docker_desktop,
    "plan_venv": pred_plan_venv,
    "akmods": pred_akmods,
}
# unknown counts as true for these when deciding whether to offer a step (most users run apt)
PREDICATE_DEFAULT_TRUE = {"apt"}


# ---------------------------------------------------------------------------------------
# checks

@dataclass
class CheckResult:
    evidence: list[Evidence] = field(default_factory=list)
    subcode: Optional[str] = None  # the cause these facts point at, when they pin it down

    def add(self, message: str, supports: bool = True, key: str = "", value: Any = None, source: str = "facts",
            code: str = "", params: Optional[dict] = None) -> None:
        """One evidence line: its English `message` is the catalogue's diagnose.evidence.<code> filled with `params`."""
        self.evidence.append(Evidence(source=source, message=message, supports=supports, key=key,  # type: ignore[arg-type]
                                      value=None if value is None else str(value), code=code,
                                      params={k: str(v) for k, v in (params or {}).items()}))


def _sm(cc: str) -> Optional[str]:
    m = re.match(r"^(\d+)\.(\d+)$", cc or "")
    return f"sm_{m.group(1)}{m.group(2)}" if m else None


def _sm_num(code: str) -> Optional[tuple[int, int]]:
    m = re.match(r"^(?:sm|compute)_(\d+?)(\d)[a-z]?$", code)
    return (int(m.group(1)), int(m.group(2))) if m else None


def __getattr__(name: str) -> Any:  # arch_covers: app.compat.arch's (one home for arch coverage), imported on first use
    if name == "arch_covers":
        from app.compat.arch import arch_covers

        return arch_covers
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_CC_BUILT_FOR = re.compile(r"(?:^|\s)- (\d{1,2})\.(\d) which supports hardware cc", re.IGNORECASE)


def _text_arch_list(text: str) -> list[str]:
    """The architectures a PyTorch message says its build has: "supports CUDA capabilities sm_50 sm_60", or
    (PyTorch 2.8 and newer) one "- 7.5 which supports hardware CC >=7.5,<8.0" line each."""
    m = re.search(r"supports cuda capabilities ((?:(?:sm|compute)_\d+[a-z]? ?)+)", text, re.IGNORECASE)
    if m:
        return m.group(1).split()
    return list(dict.fromkeys(f"sm_{a}{b}" for a, b in _CC_BUILT_FOR.findall(text)))


def check_gpu_arch_vs_torch(ctx: Context) -> CheckResult:
    r = CheckResult()
    torch = ctx.torch
    arch = list(torch.arch_list) if torch and torch.arch_list else []
    arch_src = "python.torch.arch_list"
    if not arch:
        arch = _text_arch_list(ctx.text)
        arch_src = "text"
    gpus = [(g.index, g.name, g.compute_capability, "text" if g.source == "text" else "facts")
            for g in (ctx.facts.gpus if ctx.facts else ()) if g.compute_capability]
    sm_text = ctx.groups.get("sm")
    if not gpus and sm_text:
        n = _sm_num(sm_text)
        if n:
            gpus = [(0, "the GPU", f"{n[0]}.{n[1]}", "text")]
            r.add(f"The message names the GPU's capability {sm_text}.", key="text", source="text",
                  code="text_gpu_capability", params={"sm_text": sm_text})
    if arch:
        r.add(f"This PyTorch was built for: {' '.join(arch)}.", key=arch_src, source="facts" if arch_src != "text" else "text",
              code="torch_arch_list", params={"arch": ' '.join(arch)})
    uncovered = []
    from app.compat.arch import arch_covers

    for idx, name, cc, src in gpus:
        cov = arch_covers(arch, cc)
        sm = _sm(cc)
        if cov is False:
            uncovered.append(sm)
            r.add(f"GPU {idx} ({name}) is compute capability {cc} ({sm}); the wheel has no kernels for it.",
                  key=f"gpus[{idx}].compute_capability", value=cc, source=src,
                  code="gpu_not_covered", params={"idx": idx, "name": name, "cc": cc, "sm": sm})
        elif cov is True:
            r.add(f"GPU {idx} ({name}) is compute capability {cc} ({sm}) and the PyTorch wheel covers it.",
                  supports=False, key=f"gpus[{idx}].compute_capability", value=cc, source=src,
                  code="gpu_covered", params={"idx": idx, "name": name, "cc": cc, "sm": sm})
    if gpus and arch and not uncovered:
        r.subcode = "extension_lacks_arch"  # torch itself runs: a compiled extension lacks the arch
    elif uncovered:
        r.subcode = "wheel_lacks_arch"
    rec = ctx.rec()
    if rec is not None and getattr(rec, "pytorch", None) is not None and rec.pytorch.version:
        p = rec.pytorch
        has = [a for a in p.arch_list if any(a == u for u in uncovered)] if uncovered else []
        extra = f" (it includes {' '.join(has)})" if has else ""
        from_text = bool(gpus) and all(g[3] == "text" for g in gpus)
        sm = uncovered[0] if uncovered else "this capability"
        who = f"a GPU with {sm}" if from_text else "this machine"
        r.add(f"The wheel that fits {who}: PyTorch {p.version} {p.index or ''} from {p.index_url or 'PyPI'}{extra}.",
              key="recommendation.pytorch", value=p.version, source="text" if from_text else "facts",
              code=("wheel_fits_gpu" if from_text else "wheel_fits_machine") + ("_has" if has else ""),
              params={"sm": sm, "version": p.version, "index": p.index or "", "source": p.index_url or "PyPI", "has": " ".join(has)})
    return r


def check_torch_build(ctx: Context) -> CheckResult:
    r = CheckResult()
    t = ctx.torch
    if t is None or not t.version:
        return r
    if t.cuda is None or "+cpu" in t.version:
        r.add(f"PyTorch {t.version} is a CPU-only build (torch.version.cuda is None).", key="python.torch.cuda",
              code="torch_cpu_build", params={"version": t.version})
        r.subcode = "cpu_wheel"
    else:
        r.add(f"PyTorch {t.version} is built for CUDA {t.cuda}.", supports=False, key="python.torch.cuda", value=t.cuda,
              code="torch_cuda_build", params={"version": t.version, "cuda": t.cuda})
    if t.error:
        r.add(f"PyTorch said: {t.error[:200]}", key="python.torch.error",
              code="torch_error", params={"error": t.error[:200]})
    return r


def check_gpu_present(ctx: Context) -> CheckResult:
    r = CheckResult()
    f = ctx.facts
    if f is None or f.os.platform != "linux" or f.os.wsl:
        return r
    if not f.gpus:
        r.add("No NVIDIA GPU was found on this machine (PCI, NVML and nvidia-smi all came up empty).", key="gpus", value=0,
              code="no_gpu")
        r.subcode = "no_gpu"
    return r


def check_driver_state(ctx: Context) -> CheckResult:
    r = CheckResult()
    f = ctx.facts
    if f is None:
        return r
    d = f.driver
    if d.state == "ok":
        r.add(f"The NVIDIA driver {d.version or ''} is loaded and answers.".replace("  ", " "), supports=False, key="driver.state", value=d.state,
              code="driver_ok" if d.version else "driver_ok_unversioned", params={"version": d.version or ""})
    elif d.state in ("not_installed", "not_loaded", "no_communication", "nvml_failed", "mismatch"):
        words = {"not_installed": "the NVIDIA driver is not installed", "not_loaded": "the NVIDIA driver is installed but its module is not loaded",
                 "no_communication": "nvidia-smi cannot talk to the driver", "nvml_failed": "NVML failed to start",
                 "mismatch": "the driver's library and kernel module versions differ"}[d.state]
        r.add(f"On this machine {words}.", key="driver.state", value=d.state, code=f"driver_{d.state}")
        r.subcode = {"not_installed": "no_driver", "not_loaded": "driver_not_loaded", "no_communication": "driver_not_loaded",
                     "nvml_failed": "driver_not_loaded", "mismatch": "driver_mismatch"}[d.state]
    elif d.state == "host":
        r.add("The driver lives on the Windows host (WSL2).", key="driver.state", value=d.state,
              code="driver_on_windows_host")
    return r


def check_nvidia_uvm(ctx: Context) -> CheckResult:
    r = CheckResult()
    f = ctx.facts
    if f is None or not f.driver.modules_loaded or f.os.wsl:
        return r
    if "nvidia_uvm" not in f.driver.modules_loaded:
        r.add("The nvidia_uvm kernel module is not loaded (CUDA needs it); load it with `sudo modprobe nvidia_uvm`.",
              key="driver.modules_loaded", value=",".join(f.driver.modules_loaded),
              code="uvm_not_loaded")
        r.subcode = "nvidia_uvm_missing"
    else:
        r.add("nvidia_uvm is loaded.", supports=False, key="driver.modules_loaded",
              code="uvm_loaded")
    return r


def check_cuda_visible_devices(ctx: Context) -> CheckResult:
    r = CheckResult()
    v = ctx.env("CUDA_VISIBLE_DEVICES")
    if v is None:
        m = re.search(r"cuda_visible_devices\W{0,6}(?:=|\]\s*=)\s*['\"]?([\w,\-]*)", ctx.text, re.IGNORECASE)
        if m:
            v = m.group(1)
            src = "text"
        else:
            if ctx.facts is not None:
                r.add("CUDA_VISIBLE_DEVICES is not set.", supports=False, key="env.CUDA_VISIBLE_DEVICES",
                      code="cvd_unset")
            return r
    else:
        src = "facts"
    n = len(ctx.facts.gpus) if ctx.facts is not None else None
    ids = [x.strip() for x in v.split(",") if x.strip()]
    bad = v.strip() in ("", "-1", "NoDevFiles", "none") or any(x.lstrip("-").isdigit() and int(x) < 0 for x in ids)
    if n is not None and ids and all(x.isdigit() for x in ids) and any(int(x) >= n for x in ids):
        bad = True
    if bad:
        extra = f" but this machine has {n} GPU(s) (indexes 0..{n - 1})" if n else ""
        r.add(f"CUDA_VISIBLE_DEVICES={v!r} hides the GPUs{extra}.", key="env.CUDA_VISIBLE_DEVICES", value=v, source=src,
              code="cvd_hides_of" if n else "cvd_hides", params={"v": repr(v), **({"n": n, "last": n - 1} if n else {})})
        r.subcode = "cuda_visible_devices"
    else:
        r.add(f"CUDA_VISIBLE_DEVICES={v!r}.", supports=False, key="env.CUDA_VISIBLE_DEVICES", value=v, source=src,
              code="cvd_value", params={"v": repr(v)})
    return r


_TEXT_MODE = re.compile(r"\b(E\. Process|E\. Thread|Prohibited)\s*\||\b(Exclusive_Process|Exclusive_Thread)\b")


def check_compute_mode(ctx: Context) -> CheckResult:
    r = CheckResult()
    m = _TEXT_MODE.search(ctx.text) if ctx.facts is None or not ctx.facts.gpus else None
    if m:  # an nvidia-smi table in the text shows the mode (its "Compute M." column)
        mode = m.group(1) or m.group(2)
        r.add(f"The nvidia-smi table in the text shows a GPU in compute mode {mode}.", key="text", value=mode, source="text",
              code="compute_mode_text", params={"mode": mode})
        r.subcode = "compute_mode_prohibited" if mode == "Prohibited" else "compute_mode_exclusive"
    for g in (ctx.facts.gpus if ctx.facts else ()):
        if g.compute_mode == "Prohibited":
            r.add(f"GPU {g.index} is in compute mode Prohibited: no process may use it (`sudo nvidia-smi -i {g.index} -c DEFAULT`).",
                  key=f"gpus[{g.index}].compute_mode", value=g.compute_mode,
                  code="compute_mode_prohibited", params={"index": g.index})
            r.subcode = "compute_mode_prohibited"
        elif g.compute_mode in ("Exclusive_Process", "Exclusive_Thread"):
            r.add(f"GPU {g.index} is in compute mode {g.compute_mode}: only one process may use it at a time.",
                  key=f"gpus[{g.index}].compute_mode", value=g.compute_mode,
                  code="compute_mode_exclusive", params={"index": g.index, "compute_mode": g.compute_mode})
            r.subcode = r.subcode or "compute_mode_exclusive"
    return r


def check_cudnn_libraries(ctx: Context) -> CheckResult:
    r = CheckResult()
    want = ctx.groups.get("major")
    f = ctx.facts
    libs = list(f.cuda.cudnn.libraries) if f is not None else []
    text_libs = sorted(set(re.findall(r"libcudnn[a-z_]*\.so\.(\d+)", ctx.text)))
    if f is not None:
        majors = sorted({m for lib in libs for m in re.findall(r"\.so\.(\d+)", lib)})
        if want and majors and want not in majors:
            r.add(f"cuDNN {', '.join(majors)} is installed on this machine, but cuDNN {want} is wanted.", key="cuda.cudnn.libraries",
                  value=",".join(libs),
                  code="cudnn_other_major", params={"majors": ', '.join(majors), "want": want})
            r.subcode = "cudnn_major_mismatch"
        elif want and want in majors:
            r.add(f"cuDNN {want} libraries exist ({', '.join(libs[:3])}) but the loader did not find them: a library path problem.",
                  key="cuda.cudnn.libraries",
                  code="cudnn_not_on_path", params={"want": want, "items": ', '.join(libs[:3])})
            r.subcode = "cudnn_not_on_path"
        elif not libs:
            r.add("No system cuDNN library was found on this machine.", key="cuda.cudnn.libraries",
                  code="cudnn_none")
    if want and len(text_libs) > 1 and want in text_libs:
        others = [m for m in text_libs if m != want]
        r.add(f"The text shows cuDNN {', '.join(others)} present while cuDNN {want} is wanted.", source="text", key="text",
              code="cudnn_text_other", params={"others": ', '.join(others), "want": want})
        r.subcode = r.subcode or "cudnn_major_mismatch"
    return r


def check_torch_cudnn(ctx: Context) -> CheckResult:
    r = CheckResult()
    t = ctx.torch
    if t is not None and t.cudnn:
        want = ctx.groups.get("major")
        supports = not (want and t.cudnn.split(".")[0] == want)
        r.add(f"PyTorch {t.version} brings cuDNN {t.cudnn} (inside its wheel).", supports=supports, key="python.torch.cudnn", value=t.cudnn,
              code="torch_cudnn", params={"version": t.version, "cudnn": t.cudnn})
    return r


def check_ld_library_path(ctx: Context) -> CheckResult:
    r = CheckResult()
    v = ctx.env("LD_LIBRARY_PATH")
    if v:
        r.add(f"LD_LIBRARY_PATH={v}", key="env.LD_LIBRARY_PATH", value=v,
              code="ld_library_path", params={"v": v})
    elif ctx.facts is not None:
        r.add("LD_LIBRARY_PATH is not set.", key="env.LD_LIBRARY_PATH",
              code="ld_library_path_unset")
    return r


def check_nvcc(ctx: Context) -> CheckResult:
    r = CheckResult()
    f = ctx.facts
    if f is None:
        return r
    if f.cuda.nvcc_path:
        r.add(f"nvcc is at {f.cuda.nvcc_path} ({f.cuda.nvcc_version or 'version unknown'}); the build did not see it: PATH or CUDA_HOME.",
              supports=True, key="cuda.nvcc_path", value=f.cuda.nvcc_path,
              code="nvcc_not_seen", params={"nvcc_path": f.cuda.nvcc_path, "version": f.cuda.nvcc_version or "?"})
        r.subcode = "nvcc_not_on_path"
    elif f.cuda.toolkits:
        paths = ", ".join(t.path for t in f.cuda.toolkits)
        r.add(f"A CUDA toolkit is installed ({paths}) but nvcc is not on PATH.", key="cuda.toolkits",
              code="nvcc_not_on_path", params={"paths": paths})
        r.subcode = "nvcc_not_on_path"
    else:
        r.add("No CUDA toolkit (nvcc) is installed on this machine.", key="cuda.toolkits",
              code="nvcc_none")
        r.subcode = "toolkit_missing"
    t = ctx.torch
    if t is not None and t.cuda:
        r.add(f"PyTorch is built for CUDA {t.cuda}: the toolkit to build extensions should be {t.cuda}.", key="python.torch.cuda", value=t.cuda,
              code="nvcc_should_be", params={"cuda": t.cuda})
    return r


def check_cuda_home(ctx: Context) -> CheckResult:
    r = CheckResult()
    if ctx.facts is None:
        return r
    v = ctx.env("CUDA_HOME") or ctx.env("CUDA_PATH")
    if v:
        r.add(f"CUDA_HOME is {v}.", key="env.CUDA_HOME", value=v,
              code="cuda_home", params={"v": v})
    else:
        r.add("CUDA_HOME is not set.", key="env.CUDA_HOME",
              code="cuda_home_unset")
    return r


def _ver_tuple(v: Optional[str]) -> tuple[int, ...]:
    return tuple(int(x) for x in re.findall(r"\d+", v or "")[:3])


def check_driver_vs_runtime(ctx: Context) -> CheckResult:
    r = CheckResult()
    f = ctx.facts
    drv_cuda = f.driver.cuda_version if f is not None else None
    drv = f.driver.version if f is not None else None
    if drv_cuda is None:
        m = re.search(r"driver version: ([\d.]+)\s+cuda version: ([\d.]+)", ctx.text, re.IGNORECASE)
        if m:
            drv, drv_cuda = m.group(1), m.group(2)
            r.add(f"The nvidia-smi header in the text shows driver {drv}, newest CUDA {drv_cuda}.", source="text", key="text",
                  code="smi_header", params={"drv": drv, "drv_cuda": drv_cuda})
    t = ctx.torch
    if drv_cuda and t is not None and t.cuda:
        if _ver_tuple(t.cuda)[:1] > _ver_tuple(drv_cuda)[:1]:
            r.add(f"PyTorch needs CUDA {t.cuda}; driver {drv} supports CUDA up to {drv_cuda}.", key="driver.cuda_version", value=drv_cuda,
                  code="driver_too_old_for", params={"cuda": t.cuda, "drv": drv, "drv_cuda": drv_cuda})
        else:
            r.add(f"Driver {drv} supports CUDA {drv_cuda}; PyTorch uses CUDA {t.cuda} (same major: minor-version compatibility may apply).",
                  supports=_ver_tuple(t.cuda) > _ver_tuple(drv_cuda), key="driver.cuda_version", value=drv_cuda,
                  code="driver_minor_compat", params={"drv": drv, "drv_cuda": drv_cuda, "cuda": t.cuda})
    elif drv_cuda and f is not None:
        r.add(f"Driver {drv} supports CUDA up to {drv_cuda}.", key="driver.cuda_version", value=drv_cuda,
              code="driver_supports", params={"drv": drv, "drv_cuda": drv_cuda})
    return r


def check_driver_module_version(ctx: Context) -> CheckResult:
    r = CheckResult()
    lib = ctx.groups.get("lib_version")
    if lib:
        r.add(f"The NVML library is version {lib}.", source="text", key="text", value=lib,
              code="nvml_lib_version", params={"lib": lib})
    f = ctx.facts
    if f is None:
        return r
    d = f.driver
    if d.kernel_module_version and d.version and d.kernel_module_version != d.version:
        r.add(f"The loaded kernel module is {d.kernel_module_version} but the installed driver is {d.version}: a reboot loads the new module.",
              key="driver.kernel_module_version", value=d.kernel_module_version,
              code="module_needs_reboot", params={"kernel_module_version": d.kernel_module_version, "version": d.version})
    elif d.kernel_module_version and lib and not d.kernel_module_version.startswith(lib):
        r.add(f"The loaded kernel module is {d.kernel_module_version}, the library {lib}.", key="driver.kernel_module_version",
              value=d.kernel_module_version,
              code="module_and_lib", params={"kernel_module_version": d.kernel_module_version, "lib": lib})
    elif d.state == "ok":
        r.add("Driver library and module agree now (the machine was rebooted since?).", supports=False, key="driver.state",
              code="module_lib_agree")
    return r


def check_container(ctx: Context) -> CheckResult:
    r = CheckResult()
    p = pred_container(ctx)
    if p and ctx.facts is not None and ctx.facts.os.container:
        r.add(f"This runs inside a container ({ctx.facts.os.container}).", key="os.container", value=ctx.facts.os.container,
              code="in_container", params={"container": ctx.facts.os.container})
        r.subcode = "container_lost_devices"
    elif p:
        r.add("The text shows a container.", source="text", key="text",
              code="text_container")
    elif ctx.facts is not None:
        r.add("Not inside a container: check /dev/nvidia* permissions.", supports=False, key="os.container",
              code="not_container")
        r.subcode = "device_permissions"
    return r


def check_free_disk(ctx: Context) -> CheckResult:
    r = CheckResult()
    f = ctx.facts
    if f is not None and f.os.free_disk_mib is not None:
        gib = f.os.free_disk_mib / 1024
        r.add(f"Free space where the toolkit goes: {gib:.1f} GiB" + (" (too little: the toolkit needs about 8 GiB)" if gib < 8 else "") + ".",
              supports=gib < 8, key="os.free_disk_mib", value=f.os.free_disk_mib,
              code="free_disk_low" if gib < 8 else "free_disk", params={"gib": f"{gib:.1f}"})
        if gib < 8:
            r.subcode = "no_space"
    if re.search(r"d41d8cd98f00b204e9800998ecf8427e", ctx.text):
        r.add("The computed MD5 is that of an empty input: the archive part of the file is missing (truncated download).", source="text", key="text",
              code="md5_empty")
        r.subcode = r.subcode or "truncated_download"
    if re.search(r"!doctype|<html", ctx.text, re.IGNORECASE):
        r.add("The downloaded file is an HTML page, not the installer.", source="text", key="text",
              code="html_download")
        r.subcode = r.subcode or "html_instead_of_runfile"
    return r


def _driver_flag(ctx: Context, attr: str, on: str, off: str, subcode: str, code: str) -> CheckResult:
    """Evidence from one yes/no fact of the driver: it supports the rule when set (with `subcode`)."""
    r = CheckResult()
    f = ctx.facts
    value = getattr(f.driver, attr) if f is not None else None
    if value is None:
        return r
    if value:
        r.add(on, key=f"driver.{attr}", value=True, code=f"{code}_on")
        r.subcode = subcode
    else:
        r.add(off, supports=False, key=f"driver.{attr}", value=False, code=f"{code}_off")
    return r


def check_nouveau(ctx: Context) -> CheckResult:
    return _driver_flag(ctx, "nouveau_loaded", "The nouveau module is loaded on this machine.", "nouveau is not loaded now.",
                        "nouveau_loaded", "nouveau")


def check_secure_boot(ctx: Context) -> CheckResult:
    return _driver_flag(ctx, "secure_boot", "Secure Boot is enabled on this machine.", "Secure Boot is off on this machine.",
                        "unsigned_module", "secure_boot")


def check_kernel_headers(ctx: Context) -> CheckResult:
    r = CheckResult()
    f = ctx.facts
    if f is None or f.driver.kernel_headers_installed is None:
        return r
    if not f.driver.kernel_headers_installed:
        r.add(f"Headers for the running kernel {f.os.kernel or ''} are not installed: the module cannot be built for it.".replace("  ", " "),
              key="driver.kernel_headers_installed", value=False,
              code="headers_missing" if f.os.kernel else "headers_missing_kernel", params={"kernel": f.os.kernel or ""})
        r.subcode = "kernel_headers_missing"
    return r


def check_wsl(ctx: Context) -> CheckResult:
    r = CheckResult()
    p = pred_wsl(ctx)
    if ctx.facts is not None and ctx.facts.os.wsl:
        r.add(f"This is WSL{ctx.facts.os.wsl} (kernel {ctx.facts.os.wsl_kernel or ctx.facts.os.kernel or '?'}).", key="os.wsl", value=ctx.facts.os.wsl,
              code="wsl_version", params={"wsl": ctx.facts.os.wsl, "kernel": ctx.facts.os.wsl_kernel or ctx.facts.os.kernel or "?"})
    elif p:
        r.add("The text shows WSL.", source="text", key="text",
              code="text_wsl")
    return r


def check_wsl_dxg(ctx: Context) -> CheckResult:
    r = CheckResult()
    f = ctx.facts
    if f is None or not f.os.wsl or f.os.wsl_dxg is None:
        return r
    if f.os.wsl_dxg:
        r.add("/dev/dxg exists.", supports=False, key="os.wsl_dxg", value=True,
              code="dxg_present")
    else:
        r.add("/dev/dxg does not exist: WSL has no GPU bridge.", key="os.wsl_dxg", value=False,
              code="dxg_missing")
    return r


def check_wsl_libcuda(ctx: Context) -> CheckResult:
    r = CheckResult()
    f = ctx.facts
    if f is None or not f.os.wsl:
        return r
    if f.os.wsl_libcuda:
        r.add(f"/usr/lib/wsl/lib holds {', '.join(f.os.wsl_libcuda)}.", key="os.wsl_libcuda",
              code="wsl_lib_holds", params={"items": ', '.join(f.os.wsl_libcuda)})
    else:
        r.add("/usr/lib/wsl/lib holds no libcuda.so: the Windows NVIDIA driver is missing or too old.", key="os.wsl_libcuda",
              code="wsl_no_libcuda")
    return r


def check_wsl_linux_driver_packages(ctx: Context) -> CheckResult:
    r = CheckResult()
    pkgs = ctx.linux_driver_packages()
    if ctx.facts is not None and ctx.facts.os.wsl and pkgs:
        r.add(f"Linux NVIDIA driver packages are installed inside WSL: {', '.join(pkgs)}.", key="cuda.packages", value=",".join(pkgs),
              code="wsl_linux_driver", params={"pkgs": ', '.join(pkgs)})
        r.subcode = "linux_driver_in_wsl"
    elif ctx.facts is not None and ctx.facts.os.wsl:
        r.add("No Linux NVIDIA driver packages inside WSL.", supports=False, key="cuda.packages",
              code="wsl_no_linux_driver")
    return r


def check_container_toolkit(ctx: Context) -> CheckResult:
    r = CheckResult()
    f = ctx.facts
    if f is None or not f.cuda.packages:
        return r
    have = sorted(p.name for p in f.cuda.packages if p.name in ("nvidia-container-toolkit", "nvidia-docker2", "nvidia-container-runtime"))
    if have:
        r.add(f"The container toolkit is installed ({', '.join(have)}): Docker is not configured to use it, or not restarted.",
              supports=True, key="cuda.packages", value=",".join(have),
              code="toolkit_not_configured", params={"have": ', '.join(have)})
        r.subcode = "runtime_not_configured"
    else:
        r.add("The NVIDIA container toolkit (nvidia-container-toolkit) is not installed on this machine.", key="cuda.packages",
              code="toolkit_missing")
    return r


# Xid codes (NVIDIA's Xid catalogue): which part of the system an Xid points at
_XID_ECC = {48, 63, 64, 92, 94, 95, 140}
_XID_APP = {13, 31, 43, 45, 68, 69}
_XID_HW = {32, 38, 54, 56, 57, 58, 61, 62, 74, 79, 119, 120, 121, 143, 144, 145, 146, 147, 148, 149, 150, 151, 154}
_XID_GSP = {119, 120}  # the GSP firmware stopped answering the driver: a driver fault more often than the card's
_XID_FOLLOWS = {45, 154}  # logged after another Xid (channel stopped, reset required): not a cause of their own


def check_xid_class(ctx: Context) -> CheckResult:
    r = CheckResult()
    codes = [int(a or b) for a, b in re.findall(r"\bxid\s*\((?:pci:)?[0-9a-f:.]+\):?\s*(\d{1,3})\b|\bxid (\d{1,3})\b",
                                                ctx.text, re.IGNORECASE)]
    if ctx.groups.get("xid"):
        codes.insert(0, int(ctx.groups["xid"]))
    if not codes:
        return r
    seen = sorted(set(codes))
    r.add(f"Xid codes in the text: {', '.join(map(str, seen))}.", source="text", key="text", value=",".join(map(str, seen)),
          code="xid_codes", params={"items": ', '.join(map(str, seen))})
    if any(c in _XID_ECC for c in seen):
        r.subcode = "memory_ecc"
    elif any(c in _XID_GSP for c in seen) and all(c in _XID_GSP or c in _XID_FOLLOWS or c not in _XID_HW for c in seen):
        r.subcode = "gsp_timeout"
    elif any(c in _XID_HW for c in seen):
        r.subcode = "hardware"
    elif all(c in _XID_APP for c in seen):
        r.subcode = "app_fault"
    f = ctx.facts
    if f is not None and r.subcode == "memory_ecc" and any(g.ecc_enabled for g in f.gpus):
        r.add("ECC is enabled on this machine's GPU(s), so memory errors are detected and reported.", key="gpus[].ecc_enabled", value=True,
              code="ecc_enabled")
    return r


def check_driver_families(ctx: Context) -> CheckResult:
    """NVIDIA's cuda-drivers packages against the distribution's nvidia-driver-NNN: apt cannot hold both."""
    r = CheckResult()
    names = set(re.findall(r"\b(cuda-drivers(?:-\d+)?|nvidia-driver-\d+(?:-server|-open)?|nvidia-headless-\d+(?:-server)?)\b",
                           ctx.text, re.IGNORECASE))
    f = ctx.facts
    installed = {p.name for p in f.cuda.packages} if f is not None else set()
    nvidia_repo = {n for n in names | installed if n.lower().startswith("cuda-drivers")}
    distro = {n for n in names | installed if re.match(r"nvidia-(driver|headless)-\d+", n, re.IGNORECASE)}
    if nvidia_repo and distro:
        r.add(f"Two driver families meet: NVIDIA's {', '.join(sorted(nvidia_repo))} and the distribution's {', '.join(sorted(distro))}.",
              source="facts" if installed & (nvidia_repo | distro) else "text", key="cuda.packages",
              code="driver_families_mixed", params={"items": ', '.join(sorted(nvidia_repo)), "items2": ', '.join(sorted(distro))})
        r.subcode = "mixed_driver_families"
    held = [p for p in names | installed if p in installed]
    if f is not None and held:
        r.add(f"Installed NVIDIA driver packages: {', '.join(sorted(held))}.", key="cuda.packages",
              code="driver_packages", params={"items": ', '.join(sorted(held))})
    return r


CA_BUNDLES = ("/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt", "/etc/ssl/ca-bundle.pem", "/etc/ssl/cert.pem")


def system_ca_bundle() -> Optional[str]:
    """The system's CA bundle (where a company CA added with update-ca-certificates lands)."""
    import os

    return next((p for p in CA_BUNDLES if os.path.isfile(p)), None)


def check_network_setup(ctx: Context) -> CheckResult:
    r = CheckResult()
    proxy = next((ctx.env(k) for k in ("HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy") if ctx.env(k)), None)
    if proxy:
        r.add("A proxy is set in the environment (HTTPS_PROXY).", key="env.variables.HTTPS_PROXY",
              code="proxy_set")
    elif ctx.facts is not None and ctx.facts.env.variables:
        r.add("No proxy is set in the environment.", supports=False, key="env.variables.HTTPS_PROXY",
              code="proxy_unset")
    ca = ctx.env("REQUESTS_CA_BUNDLE") or ctx.env("SSL_CERT_FILE") or ctx.env("PIP_CERT")
    if ca:
        r.add(f"A CA bundle is set in the environment: {ca}.", key="env.variables.REQUESTS_CA_BUNDLE", value=ca,
              code="ca_bundle_set", params={"ca": ca})
    return r


# the newest CPython minor each PyTorch release line publishes wheels for is the compat data's; what a text shows
_PY_TEXT = re.compile(r"\bPython (3\.(\d{1,2}))(?:\.\d+)?(t?)\b|\bcp3(\d{1,2})(t?)-|python3\.(\d{1,2})(t)\b")
_PY_32 = re.compile(r"\b32[ -]?bit\b|\bpython3\d{1,2}-32\b|\bwin32\b(?!.*amd64)|\[MSC v\.\d+ 32 bit", re.IGNORECASE)


def text_python(text: str) -> tuple[Optional[str], bool]:
    for m in _PY_TEXT.finditer(text):
        minor = m.group(2) or m.group(4) or m.group(6)
        return f"3.{minor}", bool(m.group(3) or m.group(5) or m.group(7))
    return None, False


def check_python_for_wheel(ctx: Context) -> CheckResult:
    """Why pip found no PyTorch wheel: a 32-bit or free-threaded Python, one newer than the release, a +cuXXX pin."""
    r = CheckResult()
    req = ctx.groups.get("req") or ""
    f = ctx.facts
    ver = f.python.version if f is not None and f.python is not None else None
    pyver, free = text_python(ctx.text)
    pyver = pyver or (".".join(ver.split(".")[:2]) if ver else None)
    if _PY_32.search(ctx.text):
        r.add("The text shows a 32-bit Python: PyTorch publishes no 32-bit wheels.", key="text", source="text", code="python_32bit")
        r.subcode = "python_32bit"
        return r
    if free or (ver or "").endswith("t"):
        r.add(f"Python {pyver} is a free-threaded build.", key="python.version", value=pyver, source="text",
              code="python_free_threaded", params={"pyver": pyver or "?"})
        r.subcode = "free_threaded"
        return r
    if "+cu" in req or "+cpu" in req:
        r.add(f"The requirement {req} names a local build tag, found only on the PyTorch index.", key="text", source="text",
              code="torch_local_tag", params={"req": req})
        r.subcode = "local_version_tag"
    newest = _newest_supported_python()
    if pyver and newest and _ver_tuple(pyver) > _ver_tuple(newest):
        r.add(f"Python {pyver} is newer than {newest}, the newest Python the PyTorch releases in the compat data have wheels for.",
              key="python.version", value=pyver, source="text" if ver is None else "facts",
              code="python_too_new", params={"pyver": pyver, "newest": newest})
        r.subcode = "python_too_new"
    return r


def _newest_supported_python() -> Optional[str]:
    try:
        from app.compat import load_db

        db = load_db()
        vers = [p for rel in db.torch_releases for p in getattr(rel, "python", ()) or ()]
        return max(vers, key=_ver_tuple) if vers else None
    except Exception:  # the compat data is unreadable: no opinion
        return None


def check_runtime_lib_owner(ctx: Context) -> CheckResult:
    """Whose CUDA library failed to load: PyTorch's own wheel (its nvidia-*-cuNN dependencies) or another program's."""
    r = CheckResult()
    if re.search(r"libonnxruntime_providers_cuda|onnxruntime_providers_cuda\.dll|onnxruntime[/\\]capi[/\\]", ctx.text.replace("\\", "/"),
                 re.IGNORECASE):  # ONNX Runtime's CUDA provider asked for it, whoever else is in the traceback
        r.add("ONNX Runtime's CUDA provider (onnxruntime-gpu) asked for it: its build names the CUDA it needs.", key="text",
              source="text", code="onnxruntime_provider")
        r.subcode = "onnxruntime_build"
        return r
    if re.search(r"torch/__init__\.py|_preload_cuda_deps|_load_global_deps|site-packages/nvidia/\w+/lib|dist-packages/nvidia/\w+/lib",
                 ctx.text.replace("\\", "/")):
        r.add("It failed while importing torch: the CUDA libraries of PyTorch's own wheel.", key="text", source="text",
              code="torch_wheel_libs")
        r.subcode = "torch_wheel_libs"
    return r


CHECKS: dict[str, Callable[[Context], CheckResult]] = {
    "gpu_arch_vs_torch": check_gpu_arch_vs_torch,
    "torch_build": check_torch_build,
    "gpu_present": check_gpu_present,
    "driver_state": check_driver_state,
    "nvidia_uvm": check_nvidia_uvm,
    "cuda_visible_devices": check_cuda_visible_devices,
    "compute_mode": check_compute_mode,
    "cudnn_libraries": check_cudnn_libraries,
    "torch_cudnn": check_torch_cudnn,
    "ld_library_path": check_ld_library_path,
    "nvcc": check_nvcc,
    "cuda_home": check_cuda_home,
    "driver_vs_runtime": check_driver_vs_runtime,
    "driver_module_version": check_driver_module_version,
    "container": check_container,
    "free_disk": check_free_disk,
    "nouveau": check_nouveau,
    "secure_boot": check_secure_boot,
    "kernel_headers": check_kernel_headers,
    "wsl": check_wsl,
    "wsl_dxg": check_wsl_dxg,
    "wsl_libcuda": check_wsl_libcuda,
    "wsl_linux_driver_packages": check_wsl_linux_driver_packages,
    "container_toolkit": check_container_toolkit,
    "xid_class": check_xid_class,
    "driver_families": check_driver_families,
    "network_setup": check_network_setup,
    "python_for_wheel": check_python_for_wheel,
    "runtime_lib_owner": check_runtime_lib_owner,
    "oom_numbers": lambda ctx: CheckResult(),  # handled by app.diagnose.oom
}
