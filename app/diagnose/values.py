"""The figures a rule's sentences and fix steps are filled with ({placeholders}): from the match, the
facts, the recommendation, the assumed platform and the run's choices (mirrors, proxy, CA, venv).

A PyTorch reinstall is always the one install-command builder's (app.install_command via
app.plan.pytorch): the recommendation's packages and index, the run's mirrors, proxy and CA, into the
failing environment (the interpreter the error came from, else the plan's venv), never the system Python.
"""
from __future__ import annotations

import re
import sys
from typing import Any, Iterable, Optional

from app.diagnose import evidence as ev
from app.install_command import InstallCommand

FIELD_RE = re.compile(r"\{([a-z_]+)\}")


class Missing(Exception):
    """A placeholder with no value: the step (or command) it is in is left out."""


def show(v: Any) -> str:
    if v is None or isinstance(v, (list, tuple)) and not v:
        return "?"
    return " ".join(v) if isinstance(v, (list, tuple)) else str(v)


def template_params(template: str, values: dict[str, Any]) -> dict[str, str]:
    """The figures a rule's sentence is filled with (as fill_str writes them), for translation."""
    return {name: show(values.get(name)) for name in FIELD_RE.findall(template)}


def fill_str(s: str, values: dict[str, Any], strict: bool) -> str:
    def rep(m: re.Match) -> str:
        v = values.get(m.group(1))
        if v is None or isinstance(v, (list, tuple)) and not v:
            if strict:
                raise Missing(m.group(1))
            return "?"
        return " ".join(v) if isinstance(v, (list, tuple)) else str(v)

    return FIELD_RE.sub(rep, s)


def fill_argv(argv: Iterable[str], values: dict[str, Any]) -> tuple[str, ...]:
    """An argv with its placeholders filled (a list value fills several arguments); Missing when one has no
    value, or only the plain words a sentence would use instead ("this kernel" is never an argument)."""
    defaulted = values.get(DEFAULTED, ())
    values = {k: x for k, x in values.items() if k not in defaulted}
    out: list[str] = []
    for a in argv:
        m = FIELD_RE.fullmatch(a)
        if m and isinstance(values.get(m.group(1)), (list, tuple)):
            items = values[m.group(1)]
            if not items:
                raise Missing(m.group(1))
            out.extend(str(x) for x in items)
        else:
            out.append(fill_str(a, values, strict=True))
    return tuple(out)


DEFAULTED = "__defaulted__"  # the names whose value is DEFAULT_WORDS' (for sentences only)
DEFAULT_WORDS = {
    "compiled": "one version", "runtime": "another version", "lib": "the library", "need": "a newer version",
    "max": "an older version", "kver": "this kernel", "host": "the download server", "xid": "(see the message)",
    "major": "the required", "dep": "a library it depends on", "reason": "see the message",
    "dll": "a DLL", "code": "126", "req": "torch", "pkg": "the package", "path": "its cache folder",
    "sm_name": "of this GPU", "pyver": "this version",
}
_PKG_NAME = re.compile(r"^(?:cuda[a-z0-9.+-]*|nvidia-[a-z0-9.+:-]+|libnvidia-[a-z0-9.+-]+|libcudnn[a-z0-9.+-]*|cudnn[a-z0-9.+-]*)$")
# the signing key DKMS signs the NVIDIA module with, per distribution (Ubuntu's shim-signed key; Fedora's
# akmods key; DKMS 3's own key elsewhere: Debian, RHEL with DKMS, openSUSE, Arch)
MOK_KEYS = {"ubuntu": "/var/lib/shim-signed/mok/MOK.der", "fedora": "/etc/pki/akmods/certs/public_key.der"}
DKMS_MOK_KEY = "/var/lib/dkms/mok.pub"
# a distribution's driver package when the compat data names none (the distribution's own signed/open package)
DEFAULT_DRIVER = {"zypper": "nvidia-open-driver-G06-signed-kmp-default", "pacman": "nvidia-open"}


def named_packages(text: str) -> list[str]:
    """NVIDIA/CUDA package names an apt dependency error names ("cuda-drivers : Depends: nvidia-driver-440")."""
    names: list[str] = []
    for m in re.finditer(r"(?:^|\s)([a-z0-9][a-z0-9.+\-]*) ?: depends: ([a-z0-9][a-z0-9.+\-]*)", text, re.IGNORECASE):
        for n in (m.group(1).lower(), m.group(2).lower()):
            if _PKG_NAME.match(n) and n not in names:
                names.append(n)
    return names[:12]


def headers_package(pm: str, kver: Optional[str]) -> Optional[str]:
    """The package holding the kernel headers DKMS builds against, per package manager."""
    if pm == "pacman":  # Arch names the headers after the kernel flavour: linux, linux-lts, linux-zen
        flavour = next((f for f in ("zen", "lts", "hardened", "rt") if kver and f in kver), None)
        return f"linux-{flavour}-headers" if flavour else "linux-headers"
    if pm == "zypper":
        return "kernel-default-devel"
    if not kver:
        return None
    return f"kernel-devel-{kver}" if pm == "dnf" else f"linux-headers-{kver}"


_WINDOWS_PATH = re.compile(r"[A-Za-z]:[\\/]|\\\\")


def ca_fits(ca: str, platform: Any) -> bool:
    """Whether this run's CA bundle (a path on this machine) can be given to the failing machine's pip: a Windows
    machine's is a drive or UNC path, a Linux one's a POSIX path, and a Mac's text read on another OS keeps none of
    this machine's files."""
    if platform is None or platform.source == "default":
        return True
    windows_path = bool(_WINDOWS_PATH.match(ca))
    if platform.os == "windows":
        return windows_path
    if windows_path:
        return False
    return platform.os != "macos" or sys.platform == "darwin"


def _mirrors(ctx: ev.Context) -> Any:
    if ctx.choices is not None:
        choices = ctx.choices
    else:
        from app.choices import Choices

        try:
            from app.config import load_config, mirrors_from

            choices = Choices(mirrors=mirrors_from(load_config()))
        except Exception:  # an unreadable config file: the default indexes
            choices = Choices()
    ca = choices.mirrors.ca_bundle
    if ca and not ca_fits(ca, ctx.platform):
        from dataclasses import replace

        choices = replace(choices, mirrors=replace(choices.mirrors, ca_bundle=None))
    return choices


def target_python(ctx: ev.Context) -> str:
    """The interpreter a package fix installs into: the failing environment, else a plain `python`."""
    p = ctx.platform
    if p is not None and p.python:
        return p.python
    return "python" if p is not None and p.os == "windows" else "python3"


def torch_install(ctx: ev.Context, no_cache: bool = False) -> Optional[InstallCommand]:
    """The recommendation's own install command (the plan's builder) for the failing environment, with
    --force-reinstall (a wheel of the same version but another CUDA build would otherwise count as installed)."""
    rec = ctx.rec()
    p = getattr(rec, "pytorch", None)
    if p is None or not p.version or not p.index or p.index == "cpu" or not p.index_url:
        return None
    try:
        from app.install_command import uv_executable
        from app.plan.pytorch import install_command, torch_packages
    except ImportError:  # the plan engine is not installed
        return None
    choices = _mirrors(ctx)
    pkgs = torch_packages(rec, choices)
    if not pkgs:
        return None
    uv = uv_executable() if getattr(choices, "installer", "pip") == "uv" else None
    return install_command(target_python(ctx), pkgs, rec, choices, uv, force_reinstall=True, no_cache=no_cache)


def default_torch_install(ctx: ev.Context) -> InstallCommand:
    """PyTorch's default build from PyPI (macOS: the Apple-GPU 'mps' build; no CUDA index), with the mirrors."""
    from app.install_command import torch_install as build

    return build(target_python(ctx), ("torch", "torchvision"), None, _mirrors(ctx).mirrors, force_reinstall=False)


def _from_recommendation(ctx: ev.Context, v: dict[str, Any]) -> None:
    rec = ctx.rec()
    if rec is None:
        return
    p = rec.pytorch
    if p.version and p.index and p.index != "cpu" and p.index_url:
        v["torch_packages"] = list(p.packages)
        v["torch_index_url"] = p.index_url
    if rec.driver.package and rec.driver.action in ("upgrade", "install"):
        v["driver_package"] = rec.driver.package
    if rec.cuda_toolkit.package:
        v["toolkit_package"] = rec.cuda_toolkit.package
        v["toolkit_version"] = rec.cuda_toolkit.version


def _install_values(ctx: ev.Context, v: dict[str, Any]) -> None:
    cmd = torch_install(ctx)
    if cmd is not None:
        v["torch_install_argv"] = list(cmd.argv)
        v["install_env"] = dict(cmd.env)
        fresh = torch_install(ctx, no_cache=True)  # the same, downloaded afresh (a broken wheel in the cache)
        v["torch_install_fresh_argv"] = list(fresh.argv) if fresh is not None else list(cmd.argv)
    default = default_torch_install(ctx)
    v["torch_default_install_argv"] = list(default.argv)
    v.setdefault("install_env", dict(default.env))
    v["target_python"] = target_python(ctx)
    wheel = v.get("cudnn_wheel")
    if wheel:  # the cuDNN wheel through the same builder: the run's mirrors, proxy and CA, into the failing environment
        from app.install_command import torch_install as build

        v["cudnn_install_argv"] = list(build(target_python(ctx), (wheel,), None, _mirrors(ctx).mirrors).argv)
    p = ctx.platform
    if p is not None and p.python_kind == "plan_venv" and p.python:
        v["plan_venv"] = p.python.rsplit("/bin/", 1)[0] if "/bin/" in p.python else p.python.rsplit("\\Scripts\\", 1)[0]
        f = ctx.facts
        base = f.python.path if f is not None and f.python is not None and f.python.kind == "system" else None
        v["base_python"] = base or ("python" if p.os == "windows" else "python3")


def driver_cuda(found: str) -> Optional[tuple[int, int]]:
    """The newest CUDA a driver supports from PyTorch's "found version 11040" (cudaDriverGetVersion: 1000 x major
    + 10 x minor): (11, 4)."""
    if not found.isdigit() or not 4 <= len(found) <= 5:
        return None
    n = int(found)
    return (n // 1000, n % 1000 // 10) if n // 1000 >= 6 else None


def _driver_torch_values(ctx: ev.Context, v: dict[str, Any], groups: dict[str, str]) -> None:
    """For a driver that names the CUDA it supports: the newest PyTorch release with a build for that CUDA major
    (minor-version compatibility runs any X.y runtime on an X driver; a build not newer than the driver's minor is
    taken first), and its install through the one builder into the failing environment."""
    cv = driver_cuda(groups.get("found") or "")
    if cv is None:
        return
    v["driver_cuda"], v["driver_cuda_major"] = f"{cv[0]}.{cv[1]}", str(cv[0])
    p = ctx.platform
    os_name = "windows" if p is not None and p.os == "windows" else "linux"
    try:
        from app.compat import load_db, vkey

        db = load_db()
    except Exception:  # no compat data: the sentence without a build
        return
    if cv == (11, 0):  # CUDA 11.0's first drivers (450.36) are below 11's minor-compatibility floor (450.80.02)
        return
    rows = [r for r in db.torch_variants if r.os == os_name and r.status == "stable" and r.cuda_major == str(cv[0])]
    if not rows:
        return
    best = max(rows, key=lambda r: (vkey(r.release), vkey(r.cuda_runtime)[:2] <= cv, vkey(r.cuda_runtime)))
    rel = db.torch_release(best.release)
    v["driver_torch_release"] = best.release
    v["driver_torch_variant"] = best.variant
    pkgs = [f"torch=={best.release}.*"] + ([f"torchvision=={rel.torchvision}"] if rel is not None and rel.torchvision else [])
    try:
        from app.install_command import torch_install as build
        from app.plan.pytorch import variant_index_url
    except ImportError:  # the plan engine is not installed: the sentence without a command
        return
    choices = _mirrors(ctx)
    v["driver_torch_install_argv"] = list(build(target_python(ctx), tuple(pkgs), variant_index_url(best.variant, choices),
                                                choices.mirrors, force_reinstall=True).argv)


# the pip wheel that brings each CUDA runtime library (NVIDIA's nvidia-*-cuNN packages)
RUNTIME_WHEELS = (("cudart", "nvidia-cuda-runtime"), ("cublaslt", "nvidia-cublas"), ("cublas", "nvidia-cublas"),
                  ("cufft", "nvidia-cufft"), ("curand", "nvidia-curand"), ("cusparse", "nvidia-cusparse"),
                  ("cusolver", "nvidia-cusolver"), ("nvrtc", "nvidia-cuda-nvrtc"), ("nvjitlink", "nvidia-nvjitlink"),
                  ("cupti", "nvidia-cuda-cupti"), ("nvtoolsext", "nvidia-nvtx"), ("npp", "nvidia-npp"))


def runtime_wheel(lib: str, major: str) -> Optional[str]:
    """nvidia-cuda-runtime-cu12 for libcudart.so.12 (the pip wheels exist for CUDA 11 and newer)."""
    low = lib.lower()
    if not major.isdigit() or int(major) < 11:
        return None
    name = next((w for k, w in RUNTIME_WHEELS if low.startswith(("lib" + k, k))), None)
    return f"{name}-cu{major}" if name else None


def compute_capability(groups: dict[str, str]) -> Optional[tuple[int, int]]:
    """The GPU generation a message names: "SM 120" (12.0), "SM 61" (6.1), "sm_37" (3.7), or 0x601/0x809 (6.1, 8.9)."""
    sm = (groups.get("sm") or "").lower().removeprefix("sm_")
    hexv = groups.get("hex") or groups.get("hex2")
    if sm and sm.isdigit() and len(sm) >= 2:
        return int(sm[:-1]), int(sm[-1])
    if hexv:
        n = int(hexv, 16)
        return n >> 8, n & 0xFF
    return None


def tensorrt_spec(cc: Optional[tuple[int, int]]) -> str:
    """The TensorRT releases that support a GPU generation (NVIDIA's support matrices): Blackwell needs 10.8+,
    TensorRT 10 dropped Pascal and Volta, 8.6 dropped Kepler and Maxwell."""
    if cc is None:
        return "tensorrt"
    if cc >= (10, 0):
        return "tensorrt>=10.8"
    if cc < (6, 0):
        return "tensorrt<8.6"
    if cc <= (7, 0):
        return "tensorrt<10"
    return "tensorrt"


def _package_values(ctx: ev.Context, v: dict[str, Any], groups: dict[str, str]) -> None:
    from app.install_command import torch_install as build

    mirrors = _mirrors(ctx).mirrors
    wheel = runtime_wheel(groups.get("lib", ""), groups.get("major", "")) if groups.get("lib") else None
    if wheel:
        v["runtime_wheel_install_argv"] = list(build(target_python(ctx), (wheel,), None, mirrors).argv)
    if groups.get("major") == "11":  # a CUDA 11 library asked for: onnxruntime-gpu 1.19 and newer on PyPI are built for CUDA 12
        v["onnxruntime_install_argv"] = list(build(target_python(ctx), ("onnxruntime-gpu>=1.19",), None, mirrors, upgrade=True).argv)
    v["onnxruntime_gpu_install_argv"] = list(build(target_python(ctx), ("onnxruntime-gpu",), None, mirrors, upgrade=True).argv)
    v["pynvml_install_argv"] = list(build(target_python(ctx), ("pynvml>=12",), None, mirrors, upgrade=True).argv)
    cc = compute_capability(groups)
    if cc is not None:
        v["sm_name"] = f"{cc[0]}.{cc[1]}"
    v["tensorrt_spec"] = tensorrt_spec(cc)
    v["tensorrt_install_argv"] = list(build(target_python(ctx), (v["tensorrt_spec"],), None, mirrors, upgrade=True).argv)
    pyver, _free = ev.text_python(ctx.text)
    f = ctx.facts
    if pyver is None and f is not None and f.python is not None and f.python.version:
        pyver = ".".join(f.python.version.split(".")[:2])
    if pyver:
        v["pyver"] = pyver


def conda_prefix(python: str) -> str:
    """A conda environment's folder from its interpreter: C:\\...\\envs\\x\\python.exe -> C:\\...\\envs\\x,
    /opt/conda/envs/x/bin/python -> /opt/conda/envs/x."""
    sep = "\\" if "\\" in python else "/"
    parts = python.rstrip(sep).split(sep)[:-1]
    if parts and parts[-1] == "bin":
        parts = parts[:-1]
    return sep.join(parts) or python


def conda_cuda_spec(major: str) -> tuple[str, ...]:
    """The conda-forge packages of a CUDA runtime: cudatoolkit up to CUDA 11, cuda-runtime of that version from 12."""
    if major.isdigit() and int(major) >= 12:
        return ("cuda-runtime", f"cuda-version={major}")
    return (f"cudatoolkit={major}",) if major.isdigit() else ("cudatoolkit",)


def _platform_values(ctx: ev.Context, v: dict[str, Any]) -> None:
    p = ctx.platform
    if p is not None and p.python and p.python_kind == "conda":
        v["conda_prefix"] = conda_prefix(p.python)
        v["conda_cuda_spec"] = list(conda_cuda_spec(v.get("major", "")))
    pm = (p.package_manager if p is not None else None) or "apt"
    distro = (p.distro if p is not None else None) or ""
    v["mok_key"] = MOK_KEYS.get(distro, MOK_KEYS["ubuntu"] if pm == "apt" and distro != "debian" else DKMS_MOK_KEY)
    hp = headers_package(pm, v.get("kver"))
    if hp:
        v["headers_package"] = hp
    if pm in DEFAULT_DRIVER and not v.get("driver_package"):
        v["driver_package"] = DEFAULT_DRIVER[pm]


def values(ctx: ev.Context, groups: dict[str, str], text: str) -> dict[str, Any]:
    f = ctx.facts
    t = ctx.torch
    v: dict[str, Any] = {k: x for k, x in groups.items() if x}
    v["python"] = target_python(ctx)
    v["torch_cuda"] = t.cuda if t is not None and t.cuda else None
    _from_recommendation(ctx, v)
    if "toolkit_package" not in v and v.get("torch_cuda"):
        mm = re.match(r"(\d+)\.(\d+)", v["torch_cuda"])
        if mm:  # NVIDIA's repository names the toolkit package after major-minor
            v["toolkit_package"] = f"cuda-toolkit-{mm.group(1)}-{mm.group(2)}"
            v["toolkit_version"] = f"{mm.group(1)}.{mm.group(2)}"
    home = None
    if f is not None:
        home = f.cuda.active_link or (f.cuda.toolkits[0].path if f.cuda.toolkits else None)
        v["kernel"] = f.os.kernel
    v["cuda_home"] = home or "/usr/local/cuda"
    m = re.search(r"(?<![\w./\-])((?:[\w./][\w./\-]*?)?cuda_[\w.\-]+?_linux[\w.\-]*\.run)\b", text) if "_linux" in text else None
    if m and not m.group(1).startswith("-"):
        v["runfile"] = m.group(1)
    major = groups.get("major")
    if major:
        cu = (v.get("torch_cuda") or "12").split(".")[0]
        cu = "12" if major == "8" and cu not in ("11", "12") else cu
        v["cudnn_wheel"] = f"nvidia-cudnn-cu{cu}<9" if major == "8" else f"nvidia-cudnn-cu{cu}>={major},<{int(major) + 1}"
    pk = ctx.linux_driver_packages()
    if pk:
        v["wsl_linux_driver_packages"] = pk
    if not v.get("kver") and v.get("kernel"):
        v["kver"] = v["kernel"]
    _install_values(ctx, v)
    _driver_torch_values(ctx, v, groups)
    _package_values(ctx, v, groups)
    ca = ev.system_ca_bundle()
    if ca and ca_fits(ca, ctx.platform):  # this machine's bundle, never for a Windows or Mac text read here
        v["ca_bundle"] = ca
    held = named_packages(text) if "epends:" in text or "EPENDS:" in text else []
    if held:
        v["held_packages"] = held
    _platform_values(ctx, v)
    # figures a wording may lack (and the identifier fallback never has): plain words instead of "?"
    v[DEFAULTED] = tuple(name for name in DEFAULT_WORDS if v.get(name) in (None, "", [], ()))
    for name, words in DEFAULT_WORDS.items():
        if name in v[DEFAULTED]:
            v[name] = words
    return v
