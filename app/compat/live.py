"""Live indexes, data as fallback: before recommending, read what the user would install from.

- The PyTorch index (the configured mirror, default https://download.pytorch.org/whl): the PEP 503
  simple pages `{index}/{variant}/torch/` and `{index}/{variant}/torchvision/` (PEP 691 JSON is read
  too when a mirror answers with it). Each file name is a wheel: version, local tag (+cu130), Python
  tag, ABI tag (cp313t: free-threaded) and platform.
- PyPI's JSON (`https://pypi.org/pypi/torch/json`): which releases exist at all, for a release newer
  than the compatibility data.
- NVIDIA's repository for this distro and architecture: its apt `Packages(.gz)` index says which
  toolkits (cuda-toolkit-X-Y) and driver branches (nvidia-driver-pinning-NNN, cuda-drivers-NNN) exist.

Everything goes through the configured proxy and CA bundle (app.config), with a short timeout and
an on-disk cache with a time to live. `overlay()` turns what was read into a CompatDB for this
machine's Python tag and wheel platform: a release keeps only the builds that really have a wheel
for it, pinned to the newest patch seen on every one of them, with its matching torchvision (the
newest patch of the torchvision series the data pairs with the release; none seen: the release is
incomplete and the solve takes the newest complete set). A release newer than the data is never
chosen (its GPU and driver support are unknown): it is named in a warning. When nothing could be
read, the data answers and a warning says the index could not be checked and how old the data is.

`solve_live()` wraps the pure solve (`app.recommend.recommend`, handed in by `app.recommend.recommend_live`) with all of that.
$GPU_WIZARD_LIVE=0 (the test suite sets it) turns live reads off; so does `"live_index": false` in
the config file.
"""
from __future__ import annotations

import datetime as _dt
import hashlib
import html
import os
import re
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Iterable, Mapping, Optional, Union
from urllib.parse import unquote

from app import fileio
from app.compat.cache import CLOCK_SKEW_S, IndexCache, default_dir
from app.compat.db import PYTORCH_INDEX, CompatDB, NvidiaRepo, TorchRelease, TorchVariant
from app.compat.version import cp_tag, python_tag, vkey

PYPI_JSON = "https://pypi.org/pypi"
NVIDIA_REPOS = "https://developer.download.nvidia.com/compute/cuda/repos"
TIMEOUT_S = 4.0
TTL_S = 6 * 3600
FAIL_TTL_S = 300  # an index that just failed is not asked again for this long (no repeated timeouts)
STALE_DAYS = 90  # the bundled data is "old" past this, when nothing newer could be read
MAX_BODY = 16 * 1024 * 1024
MAX_PACKAGES = 256 * 1024 * 1024  # an apt Packages index, decompressed (NVIDIA's largest is tens of MiB)
LIVE_ENV = "GPU_WIZARD_LIVE"


def live_enabled(config: Any = None, env: Optional[Mapping[str, str]] = None) -> bool:
    environ = os.environ if env is None else env
    if str(environ.get(LIVE_ENV, "")).strip().lower() in ("0", "false", "no", "off"):
        return False
    return getattr(config, "live_index", True) is not False


def cache_dir(env: Optional[dict] = None) -> Optional[Path]:
    """This user's index cache folder (root: a root-owned one; see app.compat.cache)."""
    return default_dir(env)


# ---------------------------------------------------------------- fetching with a cache


@dataclass
class Fetch:
    url: str
    body: Optional[bytes]
    source: str  # "network", "cache", "stale_cache", "none"
    error: Optional[str] = None
    age_s: float = 0.0
    status: Optional[int] = None  # the HTTP status of an answer that was not 2xx (404: not on this index)


class Fetcher:
    """GETs through app.net (proxy, the system trust store or the CA bundle, a total deadline per read and
    `until` for all of them, size and decompression caps) and an on-disk cache (app.compat.cache: entries
    owned by this user only): a fresh entry is used without a request; on a network failure a stale entry
    is used and said so. `requests` counts the network requests made."""

    def __init__(self, *, timeout: float = TIMEOUT_S, ttl: float = TTL_S, cache: Optional[Path] = None,
                 requests_kwargs: Optional[dict] = None, session: Any = None, clock: Any = time.time, fail_ttl: float = FAIL_TTL_S,
                 max_body: int = MAX_BODY):
        self.timeout, self.ttl, self.fail_ttl, self.max_body = timeout, ttl, fail_ttl, max_body
        self.cache = IndexCache(cache) if cache else None
        self.kwargs = dict(requests_kwargs or {})
        self.session = session
        self.clock = clock
        self.until: Optional[float] = None  # time.monotonic() by which every read ends (recommend_live's deadline)
        self.requests = 0
        self.log: list[Fetch] = []
        import threading

        self._lock = threading.Lock()

    @staticmethod
    def _key(url: str, kind: str = "json") -> str:
        return hashlib.sha256(url.encode()).hexdigest() + "." + kind

    def _read_cache(self, url: str, now: float) -> Optional[tuple[Optional[bytes], float]]:
        """(body, fetched): body None for a page the index answered 404 for (not on it)."""
        doc = self.cache.read(self._key(url)) if self.cache else None
        if not doc or doc.get("url") != url:
            return None
        try:
            import base64

            fetched = float(doc["fetched"])
            if doc.get("status") == 404:
                return None, fetched
            return base64.b64decode(doc["body"], validate=True), fetched
        except (ValueError, KeyError, TypeError):
            return None

    def _fresh(self, fetched: float, now: float) -> bool:
        return fetched <= now + CLOCK_SKEW_S and now - fetched < self.ttl  # a time in the future is stale

    def _write_cache(self, url: str, body: Optional[bytes]) -> None:
        if self.cache:
            import base64

            doc = {"url": url, "fetched": self.clock()}
            doc.update({"status": 404} if body is None else {"body": base64.b64encode(body).decode()})
            self.cache.write(self._key(url), doc)

    def _failed_recently(self, url: str, now: float) -> Optional[str]:
        doc = self.cache.read(self._key(url, "fail")) if self.cache else None
        try:
            at = float(doc["at"]) if doc else None
            return str(doc["error"])[:200] if doc and at is not None and at <= now + CLOCK_SKEW_S and now - at < self.fail_ttl else None
        except (ValueError, KeyError, TypeError):
            return None

    def _mark_failed(self, url: str, error: str, ok: bool) -> None:
        if not self.cache:
            return
        if ok:
            self.cache.remove(self._key(url, "fail"))
        else:
            self.cache.write(self._key(url, "fail"), {"url": url, "at": self.clock(), "error": error})

    def _session(self) -> Any:
        with self._lock:
            if self.session is None:
                from app import net

                self.session = net.session_from_kwargs(self.kwargs)
            return self.session

    def get(self, url: str, accept: str = "text/html") -> Fetch:
        from app import net

        now = self.clock()
        cached = self._read_cache(url, now)
        if cached and self._fresh(cached[1], now):
            f = Fetch(url, cached[0], "cache", age_s=now - cached[1]) if cached[0] is not None else \
                Fetch(url, None, "cache", "HTTP 404", now - cached[1], 404)
            self.log.append(f)
            return f
        recent = self._failed_recently(url, now)
        if recent:  # it failed moments ago: answer as then, without waiting for another timeout
            f = Fetch(url, cached[0], "stale_cache", recent, now - cached[1]) if cached and cached[0] is not None else \
                Fetch(url, None, "none", recent + " (recently)")
            self.log.append(f)
            return f
        try:
            sess = self._session()
            with self._lock:
                self.requests += 1
            r = net.get(url, sess=sess, deadline_s=self.timeout, until=self.until, max_bytes=self.max_body, accept=accept)
            self._write_cache(url, r.body)
            self._mark_failed(url, "", ok=True)
            f = Fetch(url, r.body, "network")
        except net.FetchError as e:
            err = str(e)
            if e.status == 404:
                self._write_cache(url, None)
                self._mark_failed(url, "", ok=True)
                f = Fetch(url, None, "network", "HTTP 404", status=404)  # not on this index: never "no wheels"
            else:
                self._mark_failed(url, err, ok=False)
                f = Fetch(url, cached[0], "stale_cache", err, now - cached[1], e.status) if cached and cached[0] is not None else \
                    Fetch(url, None, "none", err, status=e.status)
        self.log.append(f)
        return f


# ---------------------------------------------------------------- parsing

# A wheel file name (PEP 427) whose every part is made of the characters its grammar allows: markup, quotes,
# spaces or a newline in a name never become a version, a tag or a platform.
_WHEEL = re.compile(r"^(?P<name>[A-Za-z0-9][A-Za-z0-9_.]*)-(?P<ver>[A-Za-z0-9_.!+]+)(?:-(?P<build>\d[A-Za-z0-9_.]*))?"
                    r"-(?P<py>[A-Za-z0-9_.]+)-(?P<abi>[A-Za-z0-9_.]+)-(?P<plat>[A-Za-z0-9_.]+)\.whl$")
# PEP 440 public version (canonical spellings the indexes use) and local label
_PEP440 = re.compile(r"^(?:\d+!)?\d+(?:\.\d+)*(?:(?:a|b|rc)\d+)?(?:\.post\d+)?(?:\.dev\d+)?$")
_LOCAL = re.compile(r"^[a-z0-9]+(?:\.[a-z0-9]+)*$", re.I)
_ANCHOR = re.compile(r"<a\b([^>]*)>([^<]*)</a>", re.I)
_HREF_ATTR = re.compile(r"href\s*=\s*[\"']([^\"']+)[\"']", re.I)
_METADATA_ATTR = re.compile(r"data-(?:core|dist-info)-metadata\s*=\s*[\"']([^\"']*)[\"']", re.I)


def valid_version(v: str) -> bool:
    """A PEP 440 version (public part, optional +local), checked by `packaging` where it is installed."""
    public, _, local = v.partition("+")
    if not _PEP440.fullmatch(public) or (local and not _LOCAL.fullmatch(local)) or len(v) > 64:
        return False
    try:
        from packaging.version import InvalidVersion, Version
    except ImportError:
        return True
    try:
        Version(v)
    except InvalidVersion:
        return False
    return True


@dataclass(frozen=True)
class Wheel:
    project: str
    version: str  # public version "2.14.1"
    local: Optional[str]  # "cu130", "cpu", None
    python: str  # "cp313", "py3"
    abi: str  # "cp313t", "cp313", "abi3", "none"
    platform: str  # "manylinux_2_28_x86_64", "win_amd64", "any"
    filename: str = ""
    yanked: bool = False
    url: str = ""  # the file's address as the page gives it (relative or absolute)
    metadata: bool = False  # the page advertises its PEP 658 `.metadata` file

    def fits(self, tag: str, wheel_os: str) -> bool:
        """Installable for Python tag 'cp313' / 'cp313t' on 'linux' (x86_64), 'linux_aarch64' or 'windows'."""
        plats = self.platform.split(".")
        if wheel_os == "windows":
            ok_plat = any(p in ("win_amd64", "any") for p in plats)
        elif wheel_os == "linux_aarch64":
            ok_plat = any(p == "any" or (p.endswith("aarch64") and ("linux" in p)) for p in plats)
        else:
            ok_plat = any(p == "any" or (p.endswith("x86_64") and ("linux" in p)) for p in plats)
        if not ok_plat or self.yanked:
            return False
        pys, abis = self.python.split("."), self.abi.split(".")
        if tag.endswith("t"):
            return tag in abis  # a free-threaded build loads only wheels built for it
        if "none" in abis or "abi3" in abis:
            return any(p in ("py3", tag) or (p.startswith("cp3") and vkey(p[2:3] + "." + p[3:]) <= vkey(tag[2:3] + "." + tag[3:])) for p in pys)
        return tag in pys and tag in abis


def parse_wheel(filename: str, yanked: bool = False, url: str = "", metadata: bool = False) -> Optional[Wheel]:
    """A wheel from its file name (or an href ending in it, %2B-encoded as PyTorch's index writes hrefs);
    None for anything that is not a wheel name with a PEP 440 version."""
    name = filename.rsplit("/", 1)[-1].split("#", 1)[0].split("?", 1)[0].strip()
    if "%" in name:
        name = unquote(name)
    m = _WHEEL.fullmatch(name)
    if not m or not valid_version(m.group("ver")):
        return None
    ver, _, local = m.group("ver").partition("+")
    return Wheel(m.group("name").lower().replace("_", "-"), ver, local.lower() or None, m.group("py"), m.group("abi"), m.group("plat"), name,
                 yanked, url, metadata)


def parse_simple(body: bytes | str) -> list[Wheel]:
    """Wheels on a PEP 503 (HTML) or PEP 691 (JSON) simple project page; a yanked file
    (data-yanked / "yanked") is kept but never fits."""
    text = body.decode("utf-8", "replace") if isinstance(body, bytes) else body
    out: list[Wheel] = []
    s = text.lstrip()
    if s.startswith("{"):
        try:
            doc = fileio.loads(s)
        except ValueError:
            return []
        for f in doc.get("files", []) if isinstance(doc, dict) and isinstance(doc.get("files"), list) else []:
            if isinstance(f, dict) and isinstance(f.get("filename"), str):
                meta = f.get("core-metadata", f.get("dist-info-metadata"))
                w = parse_wheel(f["filename"], bool(f.get("yanked")), str(f.get("url") or ""), bool(meta))
                if w:
                    out.append(w)
        return out
    for m in _ANCHOR.finditer(text):
        attrs, label = m.group(1), m.group(2).strip()
        yanked = "data-yanked" in attrs
        h = _HREF_ATTR.search(attrs)
        href = html.unescape(h.group(1)) if h else ""
        meta = bool(_METADATA_ATTR.search(attrs))
        w = parse_wheel(html.unescape(label), yanked, href, meta) if label.endswith(".whl") else None
        if w is None and href:
            w = parse_wheel(href, yanked, href, meta)
        if w:
            out.append(w)
    return out


def parse_pypi_json(body: bytes | str) -> list[Wheel]:
    """Every wheel file of PyPI's project JSON (`releases`), or of one release (`urls`)."""
    try:
        doc = fileio.loads(body)
    except (ValueError, UnicodeDecodeError):
        return []
    out: list[Wheel] = []
    if not isinstance(doc, dict):
        return out
    groups = list((doc.get("releases") or {}).values()) if isinstance(doc.get("releases"), dict) else []
    if isinstance(doc.get("urls"), list):
        groups.append(doc["urls"])
    for files in groups:
        for f in files if isinstance(files, list) else []:
            if isinstance(f, dict) and isinstance(f.get("filename"), str):
                w = parse_wheel(f["filename"], bool(f.get("yanked")))
                if w:
                    out.append(w)
    return out


_PKG = re.compile(r"^Package:\s*(\S+)", re.M)


def parse_packages_index(body: bytes) -> tuple[set[str], set[str]]:
    """(toolkits 'X.Y', driver branches 'NNN') named by an apt Packages index (plain or gzip)."""
    if body[:2] == b"\x1f\x8b":
        from app import net

        try:
            body = net.inflate(body, MAX_PACKAGES, "the Packages index")
        except net.FetchError:
            return set(), set()
    text = body.decode("utf-8", "replace")
    toolkits, branches = set(), set()
    for name in _PKG.findall(text):
        m = re.fullmatch(r"cuda-toolkit-(\d+)-(\d+)", name)
        if m:
            toolkits.add(f"{int(m.group(1))}.{int(m.group(2))}")
        m = re.fullmatch(r"(?:nvidia-driver-pinning|cuda-drivers|nvidia-open|nvidia-driver)-(\d{3})(?:-open)?", name)
        if m:
            branches.add(m.group(1))
    return toolkits, branches


# ---------------------------------------------------------------- what was read


@dataclass
class LiveIndex:
    """What the indexes said. `pages[(variant, project)]`: wheels, or None when that page could not be read."""
    pytorch_base: str
    pages: dict = field(default_factory=dict)
    pypi: dict = field(default_factory=dict)  # project -> list[Wheel] or None
    repo: Optional[tuple[str, set, set]] = None  # (url, toolkits, branches)
    repo_error: Optional[str] = None
    requests: int = 0
    seconds: float = 0.0
    errors: list = field(default_factory=list)
    sources: set = field(default_factory=set)
    missing: set = field(default_factory=set)  # keys of pages the index answered 404 for: not mirrored
    tv_pins: dict = field(default_factory=dict)  # torchvision version -> the torch version its metadata pins

    @property
    def read_any(self) -> bool:
        """Some page of the PyTorch index itself was read (PyPI's JSON alone says only which releases exist)."""
        return any(v is not None for v in self.pages.values())


def page_url(base: str, variant: str, project: str) -> str:
    return f"{base.rstrip('/')}/{variant}/{project}/"


def read_indexes(db: CompatDB, wheel_os: str, *, pytorch_base: Optional[str] = None, pypi_json: Optional[str] = PYPI_JSON,
                 fetcher: Fetcher, variants: Optional[Iterable[str]] = None, newest: int = 3, also: Iterable[str] = (),
                 projects: tuple[str, ...] = ("torch", "torchvision")) -> LiveIndex:
    """Read the torch and torchvision pages of the variants of the newest `newest` releases built for
    `wheel_os` and of the variants in `also` (the one the user chose, "cpu"), and PyPI's JSON of both
    projects. One request per page; a cached page costs none."""
    base = (pytorch_base or PYTORCH_INDEX).rstrip("/")
    t0 = time.perf_counter()
    before = fetcher.requests
    if variants is None:
        vs: list[str] = []
        for rel in list(db.torch_releases)[:newest]:
            for v in db.variants(rel.release, wheel_os):
                if v.variant not in vs:
                    vs.append(v.variant)
        variants = vs
    variants = list(dict.fromkeys([*variants, *[a for a in also if a]]))
    li = LiveIndex(pytorch_base=base)
    jobs: list[tuple[str, Union[str, tuple[str, str]], str, str]] = [("page", (variant, project), page_url(base, variant, project), "application/vnd.pypi.simple.v1+json, text/html;q=0.5")
            for variant in variants for project in projects]
    if pypi_json:
        jobs += [("pypi", project, f"{pypi_json.rstrip('/')}/{project}/json", "application/json") for project in ("torch", "torchvision")]
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=min(8, len(jobs) or 1)) as pool:  # the pages are read at once: one timeout, not eight
        fetched = list(pool.map(lambda j: fetcher.get(j[2], j[3]), jobs))
    for (kind, key, _url, _accept), f in zip(jobs, fetched):
        li.sources.add(f.source)
        table = li.pages if kind == "page" else li.pypi
        if f.status == 404:
            table[key] = []  # not on this index (not mirrored): never read as "no wheels for this Python"
            li.missing.add(key)
            continue
        parsed = None if f.body is None else (parse_simple(f.body) if kind == "page" else parse_pypi_json(f.body))
        if f.body is not None and not parsed:
            f = replace(f, body=None, error="the page names no wheel (not an index page?)")  # a portal or an error page
            parsed = None
        if f.body is None:
            table[key] = None
            li.errors.append(f"{f.url}: {f.error}")
        else:
            table[key] = parsed
    li.requests = fetcher.requests - before
    li.seconds = time.perf_counter() - t0
    return li


def read_nvidia_repo(repo: NvidiaRepo, base: Optional[str], fetcher: Fetcher, li: LiveIndex) -> None:
    """NVIDIA's apt Packages index for this repo/arch (dnf repositories are not read: their primary
    metadata is tens of MiB; the data answers for them)."""
    if repo.package_manager != "apt":
        return
    url = f"{(base or NVIDIA_REPOS).rstrip('/')}/{repo.repo}/{repo.arch}/Packages.gz"
    f = fetcher.get(url, "application/octet-stream")
    if f.body is None or f.error == "HTTP 404":
        li.repo_error = f.error or "no index"
        return
    toolkits, branches = parse_packages_index(f.body)
    if not toolkits and not branches:
        li.repo_error = "the index names no CUDA toolkit or driver"
        return
    li.repo = (url, toolkits, branches)


# ---------------------------------------------------------------- applying it to the data


@dataclass
class Overlay:
    db: CompatDB
    notes: list = field(default_factory=list)  # (code, severity, english, params)
    seen: dict = field(default_factory=dict)  # (release, variant) -> (torch version, torchvision version or None)
    newer: list = field(default_factory=list)  # torch versions on an index/PyPI newer than every data release
    not_mirrored: set = field(default_factory=set)  # builds (variants) the index does not carry
    absent: list = field(default_factory=list)  # releases with no build on this index for this OS
    paired_by_metadata: list = field(default_factory=list)  # (torch, torchvision) paired from wheel metadata


def _tv_series(db: CompatDB, rel: TorchRelease) -> Optional[tuple[int, int]]:
    """The torchvision major.minor paired with `rel`: from its row, else from the nearest older row's
    offset (torch 2.N pairs with torchvision 0.(N+k) — k read from the data, never written here)."""
    if rel.torchvision:
        k = vkey(rel.torchvision)
        return (k[0], k[1]) if len(k) >= 2 else None
    rk = vkey(rel.release)
    for r in db.torch_releases:
        if r.torchvision and vkey(r.release) < rk and vkey(r.release)[:1] == rk[:1]:
            tk = vkey(r.torchvision)
            return (tk[0], tk[1] + (rk[1] - vkey(r.release)[1]))
    return None


def _is_build(w: Wheel, variant: str, rel: TorchRelease, wheel_os: str) -> bool:
    """A wheel of that build: its local tag says so, or it has none (a PyPI-style mirror) and that build is
    what PyPI's plain wheel of the release is (its default variant on this OS)."""
    if w.local is not None:
        return w.local == variant
    return rel.default_for(wheel_os) == variant


def _series(version: str) -> tuple:
    return vkey(version)[:2]


class _Pages:
    """Each page's wheels for this Python tag and platform, once."""

    def __init__(self, li: LiveIndex, tag: str, wheel_os: str):
        self.li, self.tag, self.wheel_os = li, tag, wheel_os
        self.fit = {key: [w for w in page if w.fits(tag, wheel_os)] for key, page in li.pages.items() if page is not None}

    def state(self, variant: str, project: str = "torch") -> str:
        key = (variant, project)
        if key in self.li.missing:
            return "missing"
        return "unread" if self.li.pages.get(key) is None else "read"

    def versions(self, variant: str, project: str, rel: TorchRelease, wheel_os: str, series: tuple) -> list[str]:
        ws = self.fit.get((variant, project), [])
        if project == "torch":
            got = {w.version for w in ws if _is_build(w, variant, rel, wheel_os) and _series(w.version) == series}
        else:
            got = {w.version for w in ws if w.local in (variant, None) and _series(w.version) == series}
        return sorted(got, key=vkey)

    def lists_release(self, variant: str, rel: TorchRelease) -> bool:
        """The page names the release at all (any Python, any platform)."""
        return any(_series(w.version) == _series(rel.release) for w in self.li.pages.get((variant, "torch")) or [])


def _pair(version_pool: set[str], tv_seen: set[str], rel: TorchRelease, pins: dict[str, str]) -> tuple[Optional[str], Optional[str], bool]:
    """(torch, torchvision, pinned_by_metadata): the newest torch of `version_pool` that a torchvision of
    `tv_seen` was built for. A torchvision wheel pins one torch patch (its Requires-Dist, PEP 658 metadata);
    where no metadata was readable, the patch numbers are taken to match (0.29.1 with 2.14.1)."""
    pairs = []
    for tv in tv_seen:
        pin = pins.get(tv)
        known = pin is not None
        if pin is None:
            k = vkey(tv)
            pin = ".".join(str(x) for x in vkey(rel.release)[:2]) + (f".{k[2]}" if len(k) > 2 else ".0")
        if pin in version_pool:
            pairs.append((vkey(pin), vkey(tv), pin, tv, known))
    if not pairs:
        return None, None, any(tv in pins for tv in tv_seen)
    best = max(pairs)
    return best[2], best[3], best[4]


def _overlay_release(db: CompatDB, rel: TorchRelease, pg: _Pages, wheel_os: str, pt: str, out: "Overlay") -> tuple[TorchRelease, list[TorchVariant]]:
    """One release as the index has it: its builds on this index, pinned to the newest patch on every one of
    them, with the torchvision built for that patch."""
    li = pg.li
    series = _series(rel.release)
    keep: list[TorchVariant] = []
    per: dict[str, list[str]] = {}
    lacks_python = False
    for v in db.variants(rel.release, wheel_os):
        st = pg.state(v.variant)
        if st == "unread":
            keep.append(v)  # that page could not be read: the data answers for it
            continue
        vers = pg.versions(v.variant, "torch", rel, wheel_os, series) if st == "read" else []
        if vers:
            keep.append(v)
            per[v.variant] = vers
        elif st == "read" and pg.lists_release(v.variant, rel):
            lacks_python = True  # the release is there, not for this Python/platform
        elif st == "missing":
            out.not_mirrored.add(v.variant)  # not on this index at all (404): never pinned, never "no wheels"
    if not keep:
        if lacks_python:
            out.notes.append(("index_no_wheel", "info", {"release": rel.release, "python": pt, "index": li.pytorch_base}))
            return replace(rel, python=tuple(p for p in rel.python if p != pt), patches=()), []  # the index answers for every patch
        out.absent.append(rel.release)
        return rel, []
    common = set.intersection(*(set(x) for x in per.values())) if per else set()
    version = max(common, key=vkey) if common else rel.version
    tv: Optional[str] = rel.torchvision
    tv_ok = True
    tv_series = _tv_series(db, rel)
    if tv_series and per:
        tv_seen: Optional[set] = None
        for v in keep:
            if pg.state(v.variant, "torchvision") != "read" and (v.variant, "torchvision") not in li.missing:
                continue
            got = set(pg.versions(v.variant, "torchvision", rel, wheel_os, tv_series))
            tv_seen = got if tv_seen is None else tv_seen & got
        if tv_seen is not None:
            paired, ptv, by_meta = _pair(common or {version}, tv_seen, rel, li.tv_pins)
            if paired:
                version, tv = paired, ptv
                if by_meta:
                    out.paired_by_metadata.append((paired, ptv))
            elif tv_seen and not by_meta:
                tv = max(tv_seen, key=vkey)  # odd version numbers and no metadata: the newest of each
            else:
                tv, tv_ok = None, False  # no torchvision built for a torch here: the release is incomplete on this index
    pys = rel.python if pt in rel.python or not per else tuple(rel.python) + (pt,)
    # the index read for this Python says which patch has its wheels: the data's older patches no longer answer
    new = replace(rel, version=version, torchvision=tv if tv_ok else None, python=pys, patches=(),
                  torchaudio=_audio_listed(rel, pg, keep, per, wheel_os))
    for v in keep:
        if v.variant in per:
            out.seen[(rel.release, v.variant)] = (version, tv if tv_ok else None)
    if vkey(version) > vkey(rel.version):
        out.notes.append(("index_newer_patch", "info", {"version": version, "release": rel.release, "data_version": rel.version}))
    return new, keep


def _audio_listed(rel: TorchRelease, pg: _Pages, keep: list[TorchVariant], per: dict, wheel_os: str) -> Optional[str]:
    """The release's torchaudio where every torchaudio page read for its builds lists it (a page not read: the data
    answers); None where a read page (or a 404) does not: the pin would fail on this index."""
    if not rel.torchaudio:
        return rel.torchaudio
    for v in keep:
        if v.variant not in per or pg.state(v.variant, "torchaudio") == "unread":
            continue
        if rel.torchaudio not in pg.versions(v.variant, "torchaudio", rel, wheel_os, _series(rel.torchaudio)):
            return None
    return rel.torchaudio


def _overlay_cpu(rel: TorchRelease, pg: _Pages, wheel_os: str) -> TorchRelease:
    """The CPU build on the index: `cpu_version` the newest patch it lists for this Python, "" when the cpu
    page was read (or is missing) and lists none; untouched when that page was not asked for."""
    st = pg.state("cpu")
    if st == "unread":
        return rel
    vers = pg.versions("cpu", "torch", rel, wheel_os, _series(rel.release)) if st == "read" else []
    return replace(rel, cpu_version=vers[-1] if vers else "")


def overlay(db: CompatDB, li: LiveIndex, python: Optional[str], wheel_os: str) -> Overlay:
    tag = cp_tag(python) if python else None
    pt = python_tag(python) if python else None
    out = Overlay(db=db)
    new_releases: list[TorchRelease] = []
    new_variants: list[TorchVariant] = []
    pg = _Pages(li, tag, wheel_os) if tag else None
    for rel in db.torch_releases:
        other = [v for v in db.torch_variants if v.release == rel.release and v.os != wheel_os]
        variants = db.variants(rel.release, wheel_os)
        if pg is None or not any(pg.state(v.variant) != "unread" for v in variants) and pg.state("cpu") == "unread":
            new_releases.append(rel)
            new_variants += variants + other
            continue
        nrel, keep = _overlay_release(db, rel, pg, wheel_os, pt or "", out)
        new_releases.append(_overlay_cpu(nrel, pg, wheel_os))
        new_variants += keep + other
    if out.not_mirrored:
        gone = ", ".join(sorted(out.not_mirrored))
        out.notes.append(("index_variant_not_mirrored", "info", {"index": li.pytorch_base, "variants": gone}))
    _note_newer(db, li, out)
    out.db = replace(db, torch_releases=tuple(sorted(new_releases, key=lambda r: vkey(r.version), reverse=True)),
                     torch_variants=tuple(new_variants), origin=db.origin + " + live index", _index={})
    out.db._build_index()
    return out


def _note_newer(db: CompatDB, li: LiveIndex, out: "Overlay") -> None:
    """Releases newer than the data: named, never chosen."""
    known = {r.release for r in db.torch_releases}
    newest_known = max((vkey(r.release) for r in db.torch_releases), default=())
    seen_versions = {w.version for page in li.pages.values() if page for w in page if w.project == "torch"}
    seen_versions |= {w.version for w in (li.pypi.get("torch") or [])}
    newer = sorted({v for v in seen_versions if re.fullmatch(r"\d+\.\d+\.\d+", v) and vkey(v)[:2] > newest_known
                    and ".".join(v.split(".")[:2]) not in known}, key=vkey)
    out.newer = newer
    if newer:
        out.notes.append(("torch_newer_than_data", "info", {"version": newer[-1], "data": db.version}))


_REQ_TORCH = re.compile(r"^Requires-Dist:\s*torch\s*(?:\(\s*)?==\s*([0-9][A-Za-z0-9.+!]*)", re.I | re.M)


def parse_torch_pin(metadata: bytes | str) -> Optional[str]:
    """The torch version a wheel's METADATA pins (`Requires-Dist: torch==2.14.1`), public part; None if none."""
    text = metadata.decode("utf-8", "replace") if isinstance(metadata, bytes) else metadata
    m = _REQ_TORCH.search(text[:200_000])
    if not m or not valid_version(m.group(1)):
        return None
    return m.group(1).partition("+")[0]


def read_tv_pins(db: CompatDB, li: LiveIndex, python: Optional[str], wheel_os: str, fetcher: Fetcher, newest: int = 2) -> None:
    """Which torch patch each torchvision on the index was built for: its PEP 658 `.metadata` file, for the
    two newest torchvision versions of the `newest` newest releases (one wheel each; cached like pages)."""
    from concurrent.futures import ThreadPoolExecutor
    from urllib.parse import urljoin

    tag = cp_tag(python) if python else None
    if not tag:
        return
    jobs: dict[str, str] = {}
    for rel in list(db.torch_releases)[:newest]:
        series = _tv_series(db, rel)
        if not series:
            continue
        for (variant, project), page in li.pages.items():
            if project != "torchvision" or not page:
                continue
            ws = [w for w in page if w.metadata and w.fits(tag, wheel_os) and _series(w.version) == series and w.version not in jobs]
            for ver in sorted({w.version for w in ws}, key=vkey, reverse=True)[:2]:
                w = next(x for x in ws if x.version == ver)
                base = page_url(li.pytorch_base, variant, project)
                jobs[ver] = urljoin(base, w.url or w.filename).split("#", 1)[0] + ".metadata"
    if not jobs:
        return
    with ThreadPoolExecutor(max_workers=min(8, len(jobs))) as pool:
        got = list(pool.map(lambda u: fetcher.get(u, "application/octet-stream"), jobs.values()))
    for ver, f in zip(jobs, got):
        pin = parse_torch_pin(f.body) if f.body else None
        if pin:
            li.tv_pins[ver] = pin


def overlay_repo(db: CompatDB, repo: NvidiaRepo, toolkits: set[str]) -> CompatDB:
    """The repository carries exactly the toolkits its index names (within the data's known CUDA releases)."""
    if not toolkits:
        return db
    ks = sorted(toolkits, key=vkey)
    new = replace(repo, first_cuda=ks[0], last_cuda=ks[-1])
    out = replace(db, nvidia_repos=tuple(new if r is repo else r for r in db.nvidia_repos), _index={})
    out._build_index()
    return out


def data_age_days(db: CompatDB, today: Optional[_dt.date] = None) -> Optional[int]:
    k = vkey(db.version)
    if len(k) < 3 or k[0] < 2000:
        return None
    try:
        d = _dt.date(k[0], k[1], k[2])
    except ValueError:
        return None
    return ((today or _dt.date.today()) - d).days


# ---------------------------------------------------------------- the wrapped solve


@dataclass
class LiveReport:
    enabled: bool
    requests: int = 0
    seconds: float = 0.0
    cache: str = ""  # "cold", "warm", "mixed", ""
    errors: tuple = ()


LIVE_DEADLINE_S = 5.0  # every read of one live `recommend`, all together


def _target(facts: Any, choices: Any) -> tuple[str, Optional[str], bool, str]:
    """(wheel_os, python "3.13t", arm, os label) of the machine the solve is for."""
    o = facts.os
    arm = (o.arch or "").lower() in ("aarch64", "arm64")
    wheel_os = "windows" if o.platform == "windows" else ("linux_aarch64" if arm else "linux")
    label = {"windows": "Windows", "linux_aarch64": "Linux aarch64", "linux": "Linux"}[wheel_os]
    py = choices.python_version or (facts.python.version if facts.python else None)
    return wheel_os, python_tag(py) if py else None, arm, label


@dataclass
class _Live:
    """One live solve's state, phase to phase."""
    facts: Any
    db: CompatDB
    choices: Any
    fetcher: Optional[Fetcher]
    wheel_os: str = "linux"
    python: Optional[str] = None
    arm: bool = False
    os_label: str = "Linux"
    age: Optional[int] = None
    li: Optional[LiveIndex] = None
    ov: Optional[Overlay] = None
    solve_db: Optional[CompatDB] = None
    notes: list = field(default_factory=list)
    rep: LiveReport = field(default_factory=lambda: LiveReport(enabled=False))


def solve_live(recommend: Any, facts, db: CompatDB, choices=None, *, config: Any = None, fetcher: Optional[Fetcher] = None,
               pypi_json: Optional[str] = PYPI_JSON, today: Optional[_dt.date] = None, enabled: Optional[bool] = None,
               env: Optional[dict] = None, fetch_mirrors: Any = None):
    """(Recommendation, LiveReport): the solve `recommend(facts, db, choices)` (app.recommend hands itself in: this
    module sits below it) over the data as the live indexes correct it, every read done within LIVE_DEADLINE_S in all.
    The reads go through `fetch_mirrors`' proxy and CA bundle (this computer's, for a recorded machine whose own
    settings the commands carry), else the choices' own."""
    from app.choices import Choices
    from app.config import requests_kwargs

    choices = choices or Choices()
    on = live_enabled(config, env) if enabled is None else enabled
    st = _Live(facts, db, choices, fetcher, rep=LiveReport(enabled=on), age=data_age_days(db, today), solve_db=db)
    st.wheel_os, st.python, st.arm, st.os_label = _target(facts, choices)
    if on and facts.os.platform in ("linux", "windows"):
        if st.fetcher is None:
            st.fetcher = Fetcher(requests_kwargs=requests_kwargs(fetch_mirrors if fetch_mirrors is not None else choices.mirrors),
                                 cache=cache_dir(env))
        if st.fetcher.until is None:
            st.fetcher.until = time.monotonic() + LIVE_DEADLINE_S
        _read_pytorch(st, pypi_json)
    elif not on:
        st.notes.append(("index_not_checked", "info", {"data": db.version, "age_part_code": "data_age" if st.age is not None else "",
                          "age": str(st.age) if st.age is not None else None}))
    if st.age is not None and st.age > STALE_DAYS and not (st.li and st.li.read_any):
        st.notes.append(("compat_data_stale", "warning", {"age": str(st.age), "data": db.version}))
    assert st.solve_db is not None
    rec = recommend(facts, st.solve_db, choices)
    rec = _read_the_chosen_build(st, rec, recommend)
    rec = _read_the_audio(st, rec, recommend)
    rec = _only_what_is_listed(st, rec, recommend)
    rec = _check_nvidia_repo(st, rec, recommend)
    _confirm(st, rec)
    return _finish(st, rec)


def _read_pytorch(st: _Live, pypi_json: Optional[str]) -> None:
    """Read the PyTorch index (and the torchvision metadata that pairs it), overlay it on the data."""
    ch, f = st.choices, st.fetcher
    assert f is not None
    also = [ch.torch_variant] if ch.torch_variant else []
    if not st.facts.gpus:
        also.append("cpu")
    only = ["cpu"] if ch.torch_variant == "cpu" else None  # the CPU build chosen: its pages, not the CUDA ones
    li = read_indexes(st.db, st.wheel_os, pytorch_base=ch.mirrors.pytorch_index_url, pypi_json=pypi_json, fetcher=f, also=also,
                      variants=only)
    st.li = li
    if li.read_any:
        before = f.requests
        read_tv_pins(st.db, li, st.python, st.wheel_os, f)
        li.requests += f.requests - before
    st.rep.requests, st.rep.seconds = li.requests, li.seconds
    st.rep.errors = tuple(li.errors)
    st.rep.cache = "warm" if li.sources == {"cache"} else ("cold" if "cache" not in li.sources else "mixed")
    if li.read_any:
        try:
            st.ov = overlay(st.db, li, st.python, st.wheel_os)
        except Exception as e:  # noqa: BLE001 - an index page the overlay cannot use: the data answers
            li.errors.append(f"overlay: {type(e).__name__}: {e}")
            li.pages, li.pypi = {}, {}
    if st.ov is not None:
        st.solve_db = st.ov.db
        st.notes += st.ov.notes
        if "stale_cache" in li.sources:
            st.notes.append(("index_cached_copy", "info", {"index": li.pytorch_base}))
        elif li.errors:
            st.notes.append(("index_partly_read", "info", {"count": str(len(li.errors))}))
    else:
        age = st.age
        st.notes.append(("index_unreachable", "warning", {"index": li.pytorch_base, "data": st.db.version, "age_part_code": "data_age" if age is not None else "",
                          "age": str(age) if age is not None else None}))


def _read_the_chosen_build(st: _Live, rec: Any, recommend: Any) -> Any:
    """The chosen build's pages not read yet (an older release's variant, on an index that lacks the newer
    ones): read every build of this OS not read yet, at once, and solve again. The answer is then a build the
    index was asked about (never a pin the configured index was not checked for)."""
    li, f = st.li, st.fetcher
    index = rec.pytorch.index
    if li is None or f is None or st.ov is None or not index or (index, "torch") in li.pages:
        return rec
    todo = sorted({v.variant for v in st.db.torch_variants if v.os == st.wheel_os and (v.variant, "torch") not in li.pages})
    extra = read_indexes(st.db, st.wheel_os, pytorch_base=li.pytorch_base, pypi_json=None, fetcher=f, variants=todo)
    li.pages.update(extra.pages)
    li.missing |= extra.missing
    li.errors += extra.errors
    st.rep.requests += extra.requests
    st.ov = overlay(st.db, li, st.python, st.wheel_os)
    st.solve_db = st.ov.db
    st.notes = [n for n in st.notes if n[0] not in {x[0] for x in st.ov.notes}] + st.ov.notes
    return recommend(st.facts, st.solve_db, st.choices)


def _read_the_audio(st: _Live, rec: Any, recommend: Any) -> Any:
    """A pin with torchaudio (releases up to 2.11 have one): its page on the chosen build is read, and a torchaudio the
    index does not list is left out of the pins (never a pin pip then 404s on), solved again."""
    li, f = st.li, st.fetcher
    index = rec.pytorch.index
    if li is None or f is None or st.ov is None or not index or not any(p.startswith("torchaudio==") for p in rec.pytorch.packages) \
            or (index, "torchaudio") in li.pages:
        return rec
    extra = read_indexes(st.db, st.wheel_os, pytorch_base=li.pytorch_base, pypi_json=None, fetcher=f, variants=[index],
                         projects=("torchaudio",))
    li.pages.update(extra.pages)
    li.missing |= extra.missing
    li.errors += extra.errors
    st.rep.requests += extra.requests
    st.ov = overlay(st.db, li, st.python, st.wheel_os)
    st.solve_db = st.ov.db
    return recommend(st.facts, st.solve_db, st.choices)


def _only_what_is_listed(st: _Live, rec: Any, recommend: Any) -> Any:
    """A GPU machine whose index carries none of the CUDA builds that serve it: never pin one it does not
    list. The data's answer is named (which build, where it is missing); the CPU build is pinned when the
    index carries it."""
    li, ov = st.li, st.ov
    if li is None or ov is None or not st.facts.gpus or st.choices.torch_variant == "cpu":
        return rec
    want = recommend(st.facts, st.db, st.choices)
    if not want.pytorch.index or want.pytorch.index == "cpu" or (want.pytorch.index, "torch") not in li.missing:
        return rec
    if ("cpu", "torch") not in li.pages and st.fetcher is not None:
        extra = read_indexes(st.db, st.wheel_os, pytorch_base=li.pytorch_base, pypi_json=None, fetcher=st.fetcher, variants=["cpu"])
        li.pages.update(extra.pages)
        li.missing |= extra.missing
        st.rep.requests += extra.requests
        st.ov = overlay(st.db, li, st.python, st.wheel_os)
        st.solve_db = st.ov.db
    if rec.pytorch.index not in (None, "cpu"):  # an older GPU build the index does carry: kept, the missing one named
        st.notes.append(("index_gpu_build_not_mirrored", "warning", {"index": li.pytorch_base, "variant": want.pytorch.index, "torch": want.pytorch.version,
                                                  "cpu_part_code": "older_build_chosen", "chosen": f"{rec.pytorch.version}+{rec.pytorch.index}",
                                                  "url": page_url(li.pytorch_base, want.pytorch.index, "torch")}))
        return rec
    cpu = recommend(st.facts, st.solve_db, st.choices.replace(torch_variant="cpu"))
    st.notes.append(("index_gpu_build_not_mirrored", "warning", {"index": li.pytorch_base, "variant": want.pytorch.index, "torch": want.pytorch.version,
                      "cpu_part_code": "cpu_build_chosen" if cpu.pytorch.version else "", "url": page_url(li.pytorch_base, want.pytorch.index, "torch")}))
    return cpu if cpu.pytorch.version else rec


def _check_nvidia_repo(st: _Live, rec: Any, recommend: Any) -> Any:
    """NVIDIA's repository: does it carry the toolkit and the driver branch the answer names?"""
    facts, li, choices = st.facts, st.li, st.choices
    wants_repo = (rec.cuda_toolkit.wanted and rec.cuda_toolkit.repo) or \
        (rec.driver.package_repo == "nvidia" and rec.driver.action in ("install", "upgrade"))
    if li is None or facts.os.platform != "linux" or not wants_repo or st.fetcher is None:
        return rec
    solve_db = st.solve_db
    assert solve_db is not None
    repo = next((r for r in solve_db.nvidia_repos if r.repo == rec.cuda_toolkit.repo), None) if rec.cuda_toolkit.repo else \
        solve_db.repo_for((facts.os.id or "").lower() or None, facts.os.version_id, wsl=facts.os.wsl == 2,
                          id_like=tuple(x.lower() for x in facts.os.id_like), arch="sbsa" if st.arm else "x86_64",
                          codenames=(facts.os.codename, facts.os.base_codename))
    if repo is None:
        return rec
    before = st.fetcher.requests
    read_nvidia_repo(repo, choices.mirrors.nvidia_repo_url, st.fetcher, li)
    st.rep.requests += st.fetcher.requests - before
    if li.repo:
        url, toolkits, branches = li.repo
        fixed = overlay_repo(solve_db, repo, {t for t in toolkits if solve_db.cuda_release(t)})
        if fixed is not solve_db and rec.cuda_toolkit.version and rec.cuda_toolkit.version not in toolkits:
            st.solve_db = fixed
            rec = recommend(facts, fixed, choices)
        last = ", ".join("R" + b for b in sorted(branches, key=vkey)[-4:])
        if rec.driver.branch and rec.driver.action in ("install", "upgrade") and rec.driver.package_repo == "nvidia" \
                and branches and rec.driver.branch not in branches:
            st.notes.append(("driver_branch_not_in_repo", "warning", {"repo": repo.repo, "branch": rec.driver.branch, "branches": last}))
        else:
            newest = max(toolkits, key=vkey) if toolkits else "none"
            st.notes.append(("nvidia_repo_checked", "info", {"repo": repo.repo, "count": str(len(toolkits)), "newest": newest}))
    elif li.repo_error:
        st.notes.append(("nvidia_repo_unreachable", "info", {"repo": repo.repo}))
    return rec


def _confirm(st: _Live, rec: Any) -> None:
    li, ov = st.li, st.ov
    if li is None or ov is None or not li.read_any or not rec.pytorch.version or not rec.pytorch.index or rec.pytorch.index == "cpu":
        return
    seen = ov.seen.get((".".join(rec.pytorch.version.split(".")[:2]), rec.pytorch.index))
    if not seen:
        return
    tv = seen[1] if seen[1] and st.choices.want_torchvision else None
    url = page_url(li.pytorch_base, rec.pytorch.index, "torch")
    tag = cp_tag(st.python) or "this Python"
    st.notes.append(("index_confirmed", "info", {"url": url, "torch": seen[0], "tv_part_code": "index_confirmed_tv" if tv else "", "torchvision": tv, "tag": tag, "os": st.os_label}))


def _english(code: str, params: dict) -> str:
    """A live note's English: the catalogue's "rec.<code>" (its one home), with these figures."""
    from app import messages

    return messages.render("rec", code, {k: str(v) for k, v in params.items() if v is not None}, "en", fallback=code)


def _finish(st: _Live, rec: Any) -> tuple[Any, LiveReport]:
    from app.recommendation import Alternative, RecWarning

    alts = tuple(rec.alternatives)
    tag = cp_tag(st.python) if st.python else None
    li, ov = st.li, st.ov
    if ov is not None and li is not None and ov.newer and tag:
        # a release newer than the data, with a wheel for this Python here: offered, never chosen
        newest = ov.newer[-1]
        where = sorted(var for (var, proj), page in li.pages.items() if proj == "torch" and page
                       and any(w.version == newest and w.local == var and w.fits(tag, st.wheel_os) for w in page))
        if where:
            var = rec.pytorch.index if rec.pytorch.index in where else where[-1]
            alts += (Alternative(torch_version=newest, index=var, rank=len(alts) + 1, index_url=f"{li.pytorch_base}/{var}",
                                 reason=_english("alt_newer_than_data", ap := {"data": st.db.version, "tag": tag}),
                                 reason_code="alt_newer_than_data", reason_params=ap),)
    extra: list[RecWarning] = []
    for code, sev, params in st.notes:
        if not any(w.code == code for w in rec.warnings) and not any(w.code == code for w in extra):
            p = {k: str(v) for k, v in params.items() if v is not None}
            extra.append(RecWarning(code=code, message=_english(code, p), severity=sev, params=p))
    return rec.replace(warnings=tuple(rec.warnings) + tuple(extra), alternatives=alts), st.rep
