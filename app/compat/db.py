"""The compatibility knowledge base: typed rows loaded from `resources/compat/*.json` and
plain queries over them. No "best" logic lives here (that is `app.recommend`): only facts
such as "which CUDA can this driver run" or "does this wheel ship kernels for sm_61".

Adding a CUDA, driver or PyTorch release means adding rows to the JSON tables; no code here
names a version.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Iterable, Literal, Optional, Sequence

from app import fileio

Platform = Literal["linux", "windows", "wsl"]

TABLES = (
    "cuda_releases",
    "cuda_minor_compat",
    "compute_capabilities",
    "pytorch_releases",
    "pytorch_variants",
    "cudnn_releases",
    "nvidia_repos",
    "driver_branches",
    "driver_packages",
)
BUNDLE_FORMAT = "gpu-wizard-compat-bundle/1"
PYTORCH_INDEX = "https://download.pytorch.org/whl"
NVIDIA_REPOS = "https://developer.download.nvidia.com/compute/cuda/repos"


class CompatDataError(ValueError):
    """A compat table that is missing, unreadable or does not match its schema."""


# ---------------------------------------------------------------- versions (one home: app.compat.version)

from app.compat.version import branch_of, cc_key, major_minor, vkey  # noqa: E402,F401
from app.compat import arch as _arch  # noqa: E402


def _col(platform: str) -> str:
    """Which driver column applies: WSL runs the Windows driver."""
    if platform in ("windows", "wsl"):
        return "windows"
    if platform == "linux":
        return "linux"
    raise ValueError(f"unknown platform {platform!r} (linux, windows or wsl)")


# ---------------------------------------------------------------- rows


@dataclass(frozen=True)
class Row:
    source: str
    checked: str


class _PerPlatformDriver:
    """Rows with a Linux and a Windows driver minimum."""

    linux_min_driver: str
    windows_min_driver: str

    def min_driver(self, platform: str) -> str:
        return self.linux_min_driver if _col(platform) == "linux" else self.windows_min_driver


@dataclass(frozen=True)
class CudaRelease(_PerPlatformDriver, Row):
    cuda: str = ""  # "12.8"
    version: str = ""  # "12.8.1"
    label: str = ""
    linux_min_driver: str = ""
    windows_min_driver: str = ""
    confidence: str = "verified"
    windows_confidence: Optional[str] = None  # None: as `confidence`; "inferred" where NVIDIA's table gives no Windows figure
    note: Optional[str] = None

    def confidence_for(self, platform: str) -> str:
        return (self.windows_confidence or self.confidence) if _col(platform) == "windows" else self.confidence


@dataclass(frozen=True)
class MinorCompat(_PerPlatformDriver, Row):
    cuda_major: str = ""
    linux_min_driver: str = ""
    windows_min_driver: str = ""
    windows_confidence: Optional[str] = None
    note: Optional[str] = None


@dataclass(frozen=True)
class ComputeCapability(Row):
    cc: str = ""
    sm: str = ""
    architecture: str = ""
    family: str = ""
    first_cuda: Optional[str] = None
    last_cuda: Optional[str] = None
    min_driver_branch: Optional[str] = None
    last_driver_branch: Optional[str] = None
    kernel_module: Literal["open_recommended", "open_required", "proprietary_only"] = "open_recommended"
    tegra: bool = False
    note: Optional[str] = None


@dataclass(frozen=True)
class TorchPatch(Row):
    """An older patch of a release whose wheels carry other Python tags than the row's newest patch (torch 2.12.0
    has cp313t wheels, 2.12.1 none): the pin a Python only that patch serves gets, with its own torchvision."""
    version: str = ""  # "2.12.0"
    python: tuple[str, ...] = ()
    torchvision: Optional[str] = None
    note: Optional[str] = None


@dataclass(frozen=True)
class TorchRelease(Row):
    release: str = ""  # "2.9"
    version: str = ""  # "2.9.1"
    released: str = ""
    python: tuple[str, ...] = ()
    python_experimental: tuple[str, ...] = ()
    torchvision: Optional[str] = None
    torchaudio: Optional[str] = None
    default_variant: Any = None  # {"linux": "cu128", "windows": "cpu"}
    note: Optional[str] = None
    cpu_version: Optional[str] = None  # set by the live index: its CPU build's newest patch here ("": none on the index)
    patches: tuple[TorchPatch, ...] = ()  # older patches whose Python tags differ from this row's (newest first)

    def default_for(self, os_name: str) -> Optional[str]:
        """The build plain `pip install torch` gives on this OS (aarch64 Linux follows x86_64 unless a row says otherwise)."""
        d = self.default_variant or {}
        if os_name == "windows":
            return d.get("windows")
        return d.get(os_name) or d.get("linux")

    def supports_python(self, py: Optional[str]) -> bool:
        return py is None or py in self.python

    def for_python(self, py: Optional[str]) -> Optional["TorchRelease"]:
        """The release as a Python tag gets it: this row when its newest patch has wheels for `py`, else the newest
        older patch that has them (its version, tags and torchvision), else None."""
        if self.supports_python(py):
            return self
        hit = max((p for p in self.patches if py in p.python), key=lambda p: vkey(p.version), default=None)
        if hit is None:
            return None
        return replace(self, version=hit.version, python=hit.python, torchvision=hit.torchvision, patches=(),
                       note=hit.note or self.note, source=hit.source, checked=hit.checked)

    def patch(self, version: str) -> Optional["TorchRelease"]:
        """The release pinned to one of its patches: this row for its own version, a listed older patch's view."""
        if vkey(version)[:3] == vkey(self.version)[:3]:
            return self
        hit = next((p for p in self.patches if vkey(p.version)[:3] == vkey(version)[:3]), None)
        return None if hit is None else replace(self, version=hit.version, python=hit.python, torchvision=hit.torchvision,
                                                patches=(), note=hit.note or self.note, source=hit.source, checked=hit.checked)


@dataclass(frozen=True)
class TorchVariant(Row):
    release: str = ""
    variant: str = ""  # "cu128"
    os: Literal["linux", "linux_aarch64", "windows"] = "linux"  # linux = x86_64; linux_aarch64 = SBSA
    cuda_runtime: str = ""  # "12.8.1"
    cudnn: Optional[str] = None
    status: Literal["stable", "experimental"] = "stable"
    arch_list: tuple[str, ...] = ()  # ("7.5", "8.0", ...)
    ptx: tuple[str, ...] = ()
    confidence: str = "verified"
    note: Optional[str] = None

    @property
    def cuda_major(self) -> str:
        return str(vkey(self.cuda_runtime)[0])

    def sm_list(self) -> tuple[str, ...]:
        return tuple("sm_" + a.replace(".", "") for a in self.arch_list) + tuple("compute_" + a.replace(".", "") for a in self.ptx)

    def covers(self, cc: str) -> Optional[Literal["sass", "ptx"]]:
        """How this wheel runs on a GPU of compute capability `cc`: 'sass' when it ships a
        cubin for the same major and a minor at or below the GPU's (binary compatibility),
        'ptx' when only PTX of a lower capability can be JIT-compiled, None when neither."""
        return _arch.coverage(self.arch_list, cc, self.ptx)


@dataclass(frozen=True)
class CudnnRelease(Row):
    cudnn: str = ""
    cuda_major: str = ""
    min_cuda: str = ""
    max_cuda: str = ""
    min_cc: str = ""
    max_cc: str = ""
    package: str = ""
    note: Optional[str] = None


@dataclass(frozen=True)
class NvidiaRepo(Row):
    repo: str = ""
    os_ids: tuple[str, ...] = ()
    version_id: Optional[str] = None
    arch: str = "x86_64"
    package_manager: str = "apt"
    url: str = ""
    keyring_url: Optional[str] = None
    repo_file_url: Optional[str] = None
    first_cuda: str = ""
    last_cuda: Optional[str] = None
    toolkit_package: str = "cuda-toolkit-{major}-{minor}"
    confidence: str = "verified"
    note: Optional[str] = None
    codename: Optional[str] = None  # the release's VERSION_CODENAME ("noble"): a derivative names its base so

    def carries(self, cuda: str) -> bool:
        k = vkey(cuda)[:2]
        return vkey(self.first_cuda) <= k and (self.last_cuda is None or k <= vkey(self.last_cuda))

    def package_for(self, cuda: str) -> str:
        k = vkey(cuda)
        return self.toolkit_package.format(major=k[0], minor=k[1])


@dataclass(frozen=True)
class DriverBranch(Row):
    branch: str = ""
    linux_first: str = ""
    max_cuda: str = ""
    status: str = ""
    recommended: bool = False
    eol: Optional[str] = None  # end of support, "YYYY-MM" (NVIDIA's lifecycle table)
    note: Optional[str] = None

    def ended(self, today: Optional[str] = None) -> bool:
        """Past its end of support: a documented end date before `today` ("YYYY-MM-DD"), or a legacy branch."""
        if self.eol and today:
            return self.eol[:7] < today[:7]
        return self.status == "legacy"


@dataclass(frozen=True)
class DriverPackage(Row):
    os_id: str = ""
    package_manager: str = ""
    flavour: Literal["open", "proprietary"] = "open"
    package: str = ""
    from_repo: Literal["distribution", "nvidia"] = "distribution"  # nvidia: NVIDIA's CUDA repository must be set up first
    pin_package: Optional[str] = None  # installs first to hold the branch ("nvidia-driver-pinning-{branch}")
    note: Optional[str] = None
    os_version_min: Optional[int] = None  # the distribution's major releases the row applies to (None: any)
    os_version_max: Optional[int] = None

    def fits(self, version_id: Optional[str]) -> bool:
        major = (version_id or "").split(".")[0]
        if not major.isdigit():
            return self.os_version_min is None  # an unknown release: the rows for the older releases, which have no minimum
        v = int(major)
        return (self.os_version_min is None or v >= self.os_version_min) and (self.os_version_max is None or v <= self.os_version_max)

    def for_branch(self, branch: str) -> str:
        return self.package.format(branch=branch)


ROW_TYPES: dict[str, type] = {
    "cuda_releases": CudaRelease,
    "cuda_minor_compat": MinorCompat,
    "compute_capabilities": ComputeCapability,
    "pytorch_releases": TorchRelease,
    "pytorch_variants": TorchVariant,
    "cudnn_releases": CudnnRelease,
    "nvidia_repos": NvidiaRepo,
    "driver_branches": DriverBranch,
    "driver_packages": DriverPackage,
}
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def parse_table(name: str, doc: Any) -> tuple:
    """Rows of one table from its JSON document; CompatDataError on anything malformed."""
    cls = ROW_TYPES[name]
    if not isinstance(doc, dict) or not isinstance(doc.get("rows"), list):
        raise CompatDataError(f"{name}: expected an object with a 'rows' list")
    known = {f.name for f in fields(cls)}
    required = {f.name for f in fields(cls) if f.name in ("source", "checked")} | _REQUIRED.get(name, set())
    out = []
    for i, raw in enumerate(doc["rows"]):
        where = f"{name}[{i}]"
        if not isinstance(raw, dict):
            raise CompatDataError(f"{where}: a row must be an object")
        missing = sorted(k for k in required if raw.get(k) in (None, ""))
        if missing:
            raise CompatDataError(f"{where}: missing {', '.join(missing)}")
        if not isinstance(raw["source"], str) or len(raw["source"]) < 5:
            raise CompatDataError(f"{where}: 'source' must name a document or URL")
        if not isinstance(raw["checked"], str) or not _DATE.match(raw["checked"]):
            raise CompatDataError(f"{where}: 'checked' must be a date YYYY-MM-DD")
        kwargs = {k: (tuple(v) if isinstance(v, list) else v) for k, v in raw.items() if k in known}
        if "patches" in kwargs:
            kwargs["patches"] = _patches(raw["patches"], where)
        out.append(cls(**kwargs))
    return tuple(out)


def _patches(raw: Any, where: str) -> tuple[TorchPatch, ...]:
    """A release row's older patches (each with its own source and check date), newest first."""
    if not isinstance(raw, list):
        raise CompatDataError(f"{where}: 'patches' must be a list")
    out = []
    for j, p in enumerate(raw):
        pw = f"{where}.patches[{j}]"
        if not isinstance(p, dict) or not isinstance(p.get("version"), str) or not re.fullmatch(r"\d+\.\d+\.\d+", p["version"]):
            raise CompatDataError(f"{pw}: a patch needs a version X.Y.Z")
        if not isinstance(p.get("python"), list) or not p["python"] or not all(isinstance(x, str) for x in p["python"]):
            raise CompatDataError(f"{pw}: a patch needs its Python tags")
        if not isinstance(p.get("source"), str) or len(p["source"]) < 5 or not isinstance(p.get("checked"), str) \
                or not _DATE.match(p["checked"]):
            raise CompatDataError(f"{pw}: a patch needs its 'source' and 'checked' (YYYY-MM-DD)")
        out.append(TorchPatch(version=p["version"], python=tuple(p["python"]), torchvision=p.get("torchvision"), note=p.get("note"),
                              source=p["source"], checked=p["checked"]))
    return tuple(sorted(out, key=lambda x: vkey(x.version), reverse=True))


_REQUIRED: dict[str, set[str]] = {
    "cuda_releases": {"cuda", "version", "linux_min_driver", "windows_min_driver"},
    "cuda_minor_compat": {"cuda_major", "linux_min_driver", "windows_min_driver"},
    "compute_capabilities": {"cc", "architecture", "kernel_module"},
    "pytorch_releases": {"release", "version", "python", "default_variant"},  # torchvision null: not released yet
    "pytorch_variants": {"release", "variant", "os", "cuda_runtime", "arch_list"},
    "cudnn_releases": {"cudnn", "cuda_major", "min_cuda", "max_cuda", "min_cc", "max_cc", "package"},
    "nvidia_repos": {"repo", "os_ids", "package_manager", "url", "first_cuda"},
    "driver_branches": {"branch", "linux_first", "max_cuda"},
    "driver_packages": {"os_id", "package_manager", "flavour", "package"},
}


# ---------------------------------------------------------------- the database


@dataclass(frozen=True)
class CompatDB:
    cuda_releases: tuple[CudaRelease, ...]
    minor_compat: tuple[MinorCompat, ...]
    compute_capabilities: tuple[ComputeCapability, ...]
    torch_releases: tuple[TorchRelease, ...]  # newest first
    torch_variants: tuple[TorchVariant, ...]
    cudnn_releases: tuple[CudnnRelease, ...]
    nvidia_repos: tuple[NvidiaRepo, ...]
    driver_branches: tuple[DriverBranch, ...]
    driver_packages: tuple[DriverPackage, ...]
    version: str = "unknown"
    origin: str = ""  # where it was loaded from
    _index: dict = field(default_factory=dict, compare=False, repr=False)

    # -- building

    @classmethod
    def from_tables(cls, tables: dict[str, Any], version: str = "unknown", origin: str = "") -> "CompatDB":
        missing = [t for t in TABLES if t not in tables]
        if missing:
            raise CompatDataError(f"compat data lacks table(s): {', '.join(missing)}")
        rows = {t: parse_table(t, tables[t]) for t in TABLES}
        db = cls(
            cuda_releases=tuple(sorted(rows["cuda_releases"], key=lambda r: vkey(r.version))),
            minor_compat=rows["cuda_minor_compat"],
            compute_capabilities=tuple(sorted(rows["compute_capabilities"], key=lambda r: cc_key(r.cc))),
            torch_releases=tuple(sorted(rows["pytorch_releases"], key=lambda r: vkey(r.version), reverse=True)),
            torch_variants=rows["pytorch_variants"],
            cudnn_releases=tuple(sorted(rows["cudnn_releases"], key=lambda r: vkey(r.cudnn), reverse=True)),
            nvidia_repos=rows["nvidia_repos"],
            driver_branches=tuple(sorted(rows["driver_branches"], key=lambda r: vkey(r.branch))),
            driver_packages=rows["driver_packages"],
            version=version,
            origin=origin,
        )
        db._check_links()
        return db

    def _check_links(self) -> None:
        self._build_index()
        releases = {r.release for r in self.torch_releases}
        for v in self.torch_variants:
            if v.release not in releases:
                raise CompatDataError(f"pytorch_variants: {v.release} {v.variant} names a release missing from pytorch_releases")
            if not self.cuda_release(v.cuda_runtime):
                raise CompatDataError(f"pytorch_variants: {v.release} {v.variant} bundles CUDA {v.cuda_runtime}, missing from cuda_releases")

    def _build_index(self) -> None:
        by_rel: dict[str, list[TorchVariant]] = {}
        for v in self.torch_variants:
            by_rel.setdefault(v.release, []).append(v)
        self._index["variants"] = by_rel
        self._index["cc"] = {c.cc: c for c in self.compute_capabilities}
        exact: dict[tuple, CudaRelease] = {}
        ga: dict[tuple, CudaRelease] = {}
        for r in self.cuda_releases:  # sorted oldest first: the first row of an X.Y is its GA
            exact.setdefault(vkey(r.version)[:3], r)
            ga.setdefault(vkey(r.cuda)[:2], r)
        self._index["cuda_exact"], self._index["cuda_ga"] = exact, ga

    # -- CUDA and drivers

    def cuda_release(self, version: str) -> Optional[CudaRelease]:
        """The row of an exact toolkit version ('12.8.1'); for 'X.Y' the GA (lowest) row."""
        k = vkey(version)
        if len(k) >= 3:
            return self._index["cuda_exact"].get(k[:3])
        return self._index["cuda_ga"].get(k[:2])

    def cuda_versions(self) -> list[str]:
        """Every known CUDA X.Y, oldest first."""
        out: list[str] = []
        for r in self.cuda_releases:
            if r.cuda not in out:
                out.append(r.cuda)
        return out

    def max_cuda_for_driver(self, driver_version: Optional[str], platform: str = "linux") -> Optional[str]:
        """Newest CUDA X.Y this driver runs with FULL compatibility (its GA release's driver
        minimum is met), or None when the driver is older than every known toolkit."""
        dk = vkey(driver_version)
        if not dk:
            return None
        best = None
        for r in self.cuda_releases:
            if vkey(r.min_driver(platform)) <= dk:
                if best is None or vkey(r.cuda) > vkey(best):
                    best = r.cuda
        return best

    def min_driver_full(self, cuda_version: str, platform: str = "linux", exact: bool = False) -> Optional[str]:
        """Least driver that fully supports CUDA X.Y: the driver of its first (GA) release, which is
        what nvidia-smi's "CUDA Version: X.Y" means. `exact=True` asks for the row of that very
        update instead ("12.6.3" -> 560.35.05, the driver NVIDIA shipped with it)."""
        r = self.cuda_release(cuda_version if exact else (major_minor(cuda_version) or cuda_version))
        return r.min_driver(platform) if r else None

    def minor_compat_floor(self, cuda_major: str | int, platform: str = "linux") -> Optional[str]:
        """The least driver that runs any CUDA `cuda_major`.x application through
        minor-version compatibility (12 -> 525.60.13 on Linux)."""
        m = str(cuda_major).split(".")[0]
        r = next((r for r in self.minor_compat if r.cuda_major == m), None)
        return r.min_driver(platform) if r else None

    def driver_compat(self, driver_version: Optional[str], cuda_runtime: str, platform: str = "linux") -> Optional[Literal["full", "minor"]]:
        """How a driver runs an application built with `cuda_runtime`: 'full' (the driver
        supports that CUDA X.Y), 'minor' (minor-version compatibility: same major, driver above
        the major's floor, limited features, no newer-PTX JIT) or None (it cannot)."""
        dk = vkey(driver_version)
        if not dk:
            return None
        full = self.full_floor(cuda_runtime, platform)
        if full and vkey(full) <= dk:
            return "full"
        floor = self.minor_compat_floor(vkey(cuda_runtime)[0], platform)
        if floor and vkey(floor) <= dk:
            return "minor"
        return None

    def full_floor(self, cuda_runtime: str, platform: str = "linux") -> Optional[str]:
        """Least driver that FULLY supports a wheel bundling CUDA `cuda_runtime`: the Table 3 row of that very
        update release ("13.0.2" -> 580.95.05, not 13.0 GA's 580.65.06); a bare "X.Y", or an update with no
        row, falls back to the GA row."""
        if len(vkey(cuda_runtime)) >= 3 and (r := self.cuda_release(cuda_runtime)) is not None:
            return r.min_driver(platform)
        return self.min_driver_full(cuda_runtime, platform)

    def min_driver_for_runtime(self, cuda_runtime: str, platform: str = "linux", compat: str = "full") -> Optional[str]:
        if compat == "minor":
            return self.minor_compat_floor(vkey(cuda_runtime)[0], platform)
        return self.full_floor(cuda_runtime, platform)

    # -- GPUs

    def cc_info(self, cc: Optional[str]) -> Optional[ComputeCapability]:
        """The row for a compute capability; an unknown minor falls back to the highest
        known row of the same major at or below it (e.g. 8.8 -> 8.7's neighbour rules)."""
        if not cc:
            return None
        hit = self._index["cc"].get(cc)
        if hit:
            return hit
        g = cc_key(cc)
        same = [c for c in self.compute_capabilities if cc_key(c.cc)[0] == g[0] and cc_key(c.cc) <= g and not c.tegra]
        return same[-1] if same else None

    def architecture(self, cc: Optional[str]) -> Optional[str]:
        c = self.cc_info(cc)
        return c.architecture if c else None

    # -- drivers

    def branch(self, branch: str) -> Optional[DriverBranch]:
        return next((b for b in self.driver_branches if b.branch == str(branch)), None)

    def recommended_branches(self) -> list[DriverBranch]:
        return [b for b in self.driver_branches if b.recommended]

    def driver_package_row(self, os_id: Optional[str], flavour: str, id_like: Sequence[str] = (),
                           version_id: Optional[str] = None) -> Optional[DriverPackage]:
        for oid in [os_id, *id_like]:
            row = next((p for p in self.driver_packages if p.os_id == oid and p.flavour == flavour and p.fits(version_id)), None)
            if row:
                return row
        return None

    def driver_package(self, os_id: Optional[str], flavour: str, branch: str, id_like: Sequence[str] = (),
                       version_id: Optional[str] = None) -> Optional[str]:
        row = self.driver_package_row(os_id, flavour, id_like, version_id)
        return row.for_branch(branch) if row else None

    # -- PyTorch

    def torch_release(self, version: str) -> Optional[TorchRelease]:
        """By '2.9' or '2.9.1' (a patch must be the row's version or one of its listed older patches)."""
        k = vkey(version)
        for r in self.torch_releases:
            if len(k) >= 3 and vkey(r.release) == k[:2]:
                return r.patch(version)
            if len(k) == 2 and vkey(r.release) == k:
                return r
        return None

    def for_python(self, py: Optional[str]) -> "CompatDB":
        """The data as a Python tag sees it: each release pinned to its newest patch with wheels for `py`
        (TorchRelease.for_python); the releases none of whose patches serve it are left as they are."""
        if not py or not any(r.patches for r in self.torch_releases):
            return self
        cache = self._index.setdefault("for_python", {})
        hit = cache.get(py)
        if hit is None:
            rels = tuple(sorted(((r.for_python(py) or r) for r in self.torch_releases), key=lambda r: vkey(r.version), reverse=True))
            hit = replace(self, torch_releases=rels, _index={})
            hit._build_index()
            cache[py] = hit
        return hit

    def variants(self, release: str, os_name: str) -> list[TorchVariant]:
        """Variants of a release for a wheel platform: 'linux' (x86_64), 'linux_aarch64' or 'windows'."""
        return [v for v in self._index["variants"].get(release, []) if v.os == os_name]

    def variant(self, release: str, variant: str, os_name: str) -> Optional[TorchVariant]:
        return next((v for v in self.variants(release, os_name) if v.variant == variant), None)

    # -- toolkit repos and cuDNN

    def repo_for(self, os_id: Optional[str], version_id: Optional[str], wsl: bool = False, id_like: Sequence[str] = (), arch: str = "x86_64",
                 codenames: Sequence[Optional[str]] = ()) -> Optional[NvidiaRepo]:
        """NVIDIA's repository for this distribution and release; a derivative (Linux Mint, Pop!_OS, LMDE) that is
        not matched by its own version gets its base's repository through the base codename its os-release names."""
        if wsl:
            if os_id != "ubuntu" and "ubuntu" not in id_like and "debian" not in id_like and os_id != "debian":
                return None
            return next((r for r in self.nvidia_repos if r.repo.startswith("wsl-") and r.arch == arch), None)
        major = (version_id or "").split(".")[0]
        for oid in [os_id, *id_like]:
            for r in self.nvidia_repos:
                if r.repo.startswith("wsl-") or r.arch != arch or oid not in r.os_ids:
                    continue
                if r.version_id == version_id or (r.package_manager == "dnf" and r.version_id == major):
                    return r
        names = {c.lower() for c in codenames if c}
        if names:
            for r in self.nvidia_repos:
                if not r.repo.startswith("wsl-") and r.arch == arch and r.codename in names and {os_id, *id_like} & set(r.os_ids):
                    return r
        return None

    def repo_toolkits(self, repo: NvidiaRepo) -> list[str]:
        return [c for c in self.cuda_versions() if repo.carries(c)]

    def cudnn_for(self, cuda: str, ccs: Iterable[str]) -> Optional[CudnnRelease]:
        """Newest cuDNN release with a build for this CUDA X.Y that supports every GPU."""
        k = vkey(cuda)[:2]
        ccs = list(ccs)
        for r in self.cudnn_releases:
            if r.cuda_major != str(k[0]) or not (vkey(r.min_cuda) <= k <= vkey(r.max_cuda)):
                continue
            if all(cc_key(r.min_cc) <= cc_key(c) and cc_key(c)[0] <= cc_key(r.max_cc)[0] for c in ccs):
                return r
        return None


# ---------------------------------------------------------------- loading

_CACHE: dict[tuple, CompatDB] = {}


COMPAT_DIR_ENV = "GPU_WIZARD_COMPAT_DIR"


def bundled_dir() -> Path:
    """The data shipped with the wizard; $GPU_WIZARD_COMPAT_DIR replaces it (the test suite points it
    at a pinned copy, so a real data update breaks only the data's own tests)."""
    env = os.environ.get(COMPAT_DIR_ENV)
    if env:
        return Path(env)
    from app.paths import resource

    return resource("compat")


def bundled_version() -> str:
    try:
        return str(fileio.loads((bundled_dir() / "manifest.json").read_text(encoding="utf-8")).get("version", ""))
    except (OSError, ValueError):
        return ""


def user_bundle_path() -> Path:
    """Where `gpu-wizard update-db` keeps a newer data bundle (one JSON file)."""
    env = os.environ.get("GPU_WIZARD_DATA_DIR")
    if env:
        base = Path(env)
    elif os.name == "nt" and os.environ.get("LOCALAPPDATA"):
        base = Path(os.environ["LOCALAPPDATA"]) / "gpu-wizard"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "gpu-wizard"
    return base / "compat-bundle.json"


def read_dir_tables(path: Path) -> tuple[dict[str, Any], str]:
    tables = {}
    for t in TABLES:
        f = path / f"{t}.json"
        try:
            tables[t] = fileio.loads(f.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise CompatDataError(f"missing compat table {f}") from None
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
            raise CompatDataError(f"unreadable compat table {f}: {e}") from None
    version = "unknown"
    mf = path / "manifest.json"
    if mf.exists():
        try:
            version = str(fileio.loads(mf.read_text(encoding="utf-8")).get("version", "unknown"))
        except (OSError, ValueError):
            pass
    return tables, version


def parse_bundle(text: str | bytes) -> tuple[dict[str, Any], str]:
    try:
        doc = fileio.loads(text)
    except (ValueError, UnicodeDecodeError) as e:
        raise CompatDataError(f"compat bundle is not valid JSON: {e}") from None
    if not isinstance(doc, dict) or doc.get("format") != BUNDLE_FORMAT:
        raise CompatDataError(f"not a compat bundle (format must be {BUNDLE_FORMAT!r})")
    tables = doc.get("tables")
    if not isinstance(tables, dict):
        raise CompatDataError("compat bundle has no 'tables'")
    return tables, str(doc.get("version", "unknown"))


def make_bundle(path: Optional[Path] = None, version: Optional[str] = None) -> str:
    """One JSON document holding every table of the directory `path` (the bundled data by
    default): what `update-db` downloads."""
    path = Path(path) if path else bundled_dir()
    tables, v = read_dir_tables(path)
    return json.dumps({"format": BUNDLE_FORMAT, "version": version or v, "tables": tables}, ensure_ascii=False, indent=1)


def sha256_text(text: str | bytes) -> str:
    return hashlib.sha256(text.encode("utf-8") if isinstance(text, str) else text).hexdigest()


def load_db(path: Optional[str | Path] = None, *, use_user_bundle: bool = True) -> CompatDB:
    """Load the compat data: `path` (a directory of tables or a bundle file) when given;
    otherwise the bundle installed by `update-db` when present and valid, else the data
    shipped with the wizard. Cached per file and modification time."""
    if path is None:
        if use_user_bundle:
            ub = user_bundle_path()
            if ub.is_file():
                try:
                    user = load_db(ub)
                    if vkey(user.version) >= vkey(bundled_version()):
                        return user
                    # the wizard was upgraded and ships newer data than the downloaded bundle: use its own
                except CompatDataError:
                    pass  # a broken download never breaks the wizard: fall back to the bundled data
        path = bundled_dir()
    p = Path(path)
    try:
        stamp = (str(p.resolve()), p.stat().st_mtime_ns,
                 tuple((p / f"{t}.json").stat().st_mtime_ns if (p / f"{t}.json").exists() else 0 for t in (*TABLES, "manifest"))
                 if p.is_dir() else ())
    except OSError:
        raise CompatDataError(f"compat data not found: {p}") from None
    hit = _CACHE.get(stamp)
    if hit is not None:
        return hit
    if p.is_dir():
        tables, version = read_dir_tables(p)
    else:
        try:
            raw = p.read_bytes()
        except OSError as e:
            raise CompatDataError(f"cannot read {p}: {e}") from None
        tables, version = parse_bundle(raw)
    db = CompatDB.from_tables(tables, version=version, origin=str(p))
    _CACHE[stamp] = db
    return db
