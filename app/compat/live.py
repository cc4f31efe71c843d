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

`recommend_live()` wraps the pure solve (`app.recommend.recommend`) with all of that.
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
from typing import Any, Iterable, Optional
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


def live_enabled(config: Any = None, env: Optional[dict] = None) -> bool:
    env = os.environ if env is None else env
    if str(env.get(LIVE_ENV, "")).strip().lower() in ("0", "false", "no", "off"):
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

_WHEEL = re.compile(r"^(?P<name>[A-Za-z0-9_.]+)-(?P<ver>[^-]+)(?:-(?P<build>\d[^-]*))?-(?P<py>[^-]+)-(?P<abi>[^-]+)-(?P<plat>[^-]+)\.whl$")
_ANCHOR = re.compile(r"<a\b([^>]*)>([^<]*)</a>", re.I)
_HREF_ATTR = re.compile(r"href\s*=\s*[\"']([^\"']+)[\"']", re.I)


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


def parse_wheel(filename: str, yanked: bool = False) -> Optional[Wheel]:
    name = filename.rsplit("/", 1)[-1].split("#", 1)[0].split("?", 1)[0]
    if "%" in name:
        name = unquote(name)
    m = _WHEEL.match(name)
    if not m:
        return None
    ver, _, local = m.group("ver").partition("+")
    return Wheel(m.group("name").lower().replace("_", "-"), ver, local or None, m.group("py"), m.group("abi"), m.group("plat"), name, yanked)


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
        for f in doc.get("files", []) if isinstance(doc, dict) else []:
            if isinstance(f, dict) and isinstance(f.get("filename"), str):
                w = parse_wheel(f["filename"], bool(f.get("yanked")))
                if w:
                    out.append(w)
        return out
    for m in _ANCHOR.finditer(text):
        attrs, label = m.group(1), m.group(2).strip()
        yanked = "data-yanked" in attrs
        w = parse_wheel(html.unescape(label), yanked) if label.endswith(".whl") else None
        if w is None and (h := _HREF_ATTR.search(attrs)):
            w = parse_wheel(html.unescape(h.group(1)), yanked)
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

    @property
    def read_any(self) -> bool:
        """Some page of the PyTorch index itself was read (PyPI's JSON alone says only which releases exist)."""
        return any(v is not None for v in self.pages.values())


def page_url(base: str, variant: str, project: str) -> str:
    return f"{base.rstrip('/')}/{variant}/{project}/"


def read_indexes(db: CompatDB, wheel_os: str, *, pytorch_base: Optional[str] = None, pypi_json: Optional[str] = PYPI_JSON,
                 fetcher: Fetcher, variants: Optional[Iterable[str]] = None, newest: int = 3) -> LiveIndex:
    """Read the torch and torchvision pages of the variants of the newest `newest` releases built for
    `wheel_os` (and PyPI's JSON of both projects). One request per page; a cached page costs none."""
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
    li = LiveIndex(pytorch_base=base)
    jobs = [("page", (variant, project), page_url(base, variant, project), "application/vnd.pypi.simple.v1+json, text/html;q=0.5")
            for variant in variants for project in ("torch", "torchvision")]
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


def overlay(db: CompatDB, li: LiveIndex, python: Optional[str], wheel_os: str) -> Overlay:
    tag = cp_tag(python) if python else None
    pt = python_tag(python) if python else None
    out = Overlay(db=db)
    # each page's wheels for this Python tag and platform, once (a page lists every release)
    fit = {key: [w for w in page if w.fits(tag, wheel_os)] for key, page in li.pages.items() if page is not None} if tag else {}
    new_releases: list[TorchRelease] = []
    new_variants: list[TorchVariant] = []
    known = {r.release for r in db.torch_releases}
    for rel in db.torch_releases:
        variants = db.variants(rel.release, wheel_os)
        other = [v for v in db.torch_variants if v.release == rel.release and v.os != wheel_os]
        read = [v for v in variants if li.pages.get((v.variant, "torch")) is not None]
        if not read or tag is None:
            new_releases.append(rel)
            new_variants += variants + other
            continue
        keep: list[TorchVariant] = []
        per: dict[str, list[str]] = {}
        for v in variants:
            page = li.pages.get((v.variant, "torch"))
            if page is None:
                keep.append(v)  # that page could not be read: the data answers for it
                continue
            vers = sorted({w.version for w in fit[(v.variant, "torch")] if w.local == v.variant
                           and vkey(w.version)[:2] == vkey(rel.release)[:2]}, key=vkey)
            if vers:
                keep.append(v)
                per[v.variant] = vers
        if not keep:
            out.notes.append(("index_no_wheel", "info", f"PyTorch {rel.release} has no wheel for Python {pt} on this platform on the index "
                              f"({li.pytorch_base}): skipped.", {"release": rel.release, "python": pt, "index": li.pytorch_base}))
            new_releases.append(replace(rel, python=tuple(p for p in rel.python if p != pt)))
            new_variants += other
            continue
        common = set.intersection(*(set(v) for v in per.values())) if per else set()
        version = max(common, key=vkey) if common else rel.version
        if vkey(version) < vkey(rel.version) and per:
            version = max(common or {rel.version}, key=vkey)
        # torchvision of the same series, patch-aligned where it exists, else its newest patch
        tv = rel.torchvision
        series = _tv_series(db, rel)
        tv_ok = True
        if series:
            tv_seen: Optional[set] = None
            for v in keep:
                page = li.pages.get((v.variant, "torchvision"))
                if page is None:
                    continue
                got = {w.version for w in fit[(v.variant, "torchvision")] if w.local in (v.variant, None) and vkey(w.version)[:2] == series}
                tv_seen = got if tv_seen is None else tv_seen & got
            if tv_seen is not None:
                if tv_seen:
                    aligned = f"{series[0]}.{series[1]}.{vkey(version)[2] if len(vkey(version)) > 2 else 0}"
                    tv = aligned if aligned in tv_seen else max(tv_seen, key=vkey)
                else:
                    tv, tv_ok = None, False
        pys = rel.python if pt in rel.python or not per else tuple(rel.python) + (pt,)
        new_releases.append(replace(rel, version=version, torchvision=tv if tv_ok else None, python=pys))
        new_variants += keep + other
        for v in keep:
            if v.variant in per:
                out.seen[(rel.release, v.variant)] = (version, tv if tv_ok else None)
        if vkey(version) > vkey(rel.version):
            out.notes.append(("index_newer_patch", "info", f"The index has PyTorch {version}, a newer patch of {rel.release} than the data's {rel.version}: "
                              f"it is pinned.", {"version": version, "release": rel.release, "data_version": rel.version}))
    # releases newer than the data: named, never chosen
    newest_known = max((vkey(r.release) for r in db.torch_releases), default=())
    seen_versions = {w.version for page in li.pages.values() if page for w in page if w.project == "torch"}
    seen_versions |= {w.version for w in (li.pypi.get("torch") or [])}
    newer = sorted({v for v in seen_versions if re.fullmatch(r"\d+\.\d+\.\d+", v) and vkey(v)[:2] > newest_known
                    and ".".join(v.split(".")[:2]) not in known}, key=vkey)
    out.newer = newer
    if newer:
        out.notes.append(("torch_newer_than_data", "info", f"PyTorch {newer[-1]} is on the index but not in the compatibility data "
                          f"({db.version}) yet: its GPU and driver support are unchecked, so it is not chosen. "
                          "`gpu-wizard update-db` fetches newer data.", {"version": newer[-1], "data": db.version}))
    out.db = replace(db, torch_releases=tuple(sorted(new_releases, key=lambda r: vkey(r.version), reverse=True)),
                     torch_variants=tuple(new_variants), origin=db.origin + " + live index", _index={})
    out.db._build_index()
    return out


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


def recommend_live(facts, db: CompatDB, choices=None, *, config: Any = None, fetcher: Optional[Fetcher] = None,
                   pypi_json: Optional[str] = PYPI_JSON, today: Optional[_dt.date] = None, enabled: Optional[bool] = None,
                   env: Optional[dict] = None):
    """(Recommendation, LiveReport): the solve over the data as the live indexes correct it."""
    from app.choices import Choices
    from app.config import requests_kwargs
    from app.recommend import _Ctx, recommend
    from app.recommendation import RecWarning

    choices = choices or Choices()
    on = live_enabled(config, env) if enabled is None else enabled
    cx = _Ctx(facts, db, choices)
    age = data_age_days(db, today)
    notes: list[tuple] = []
    rep = LiveReport(enabled=on)
    solve_db = db
    li = None
    ov = None
    if on and facts.os.platform in ("linux", "windows"):
        f = fetcher or Fetcher(requests_kwargs=requests_kwargs(choices.mirrors), cache=cache_dir(env))
        li = read_indexes(db, cx.wheel_os, pytorch_base=choices.mirrors.pytorch_index_url, pypi_json=pypi_json, fetcher=f)
        rep.requests, rep.seconds = li.requests, li.seconds
        rep.errors = tuple(li.errors)
        rep.cache = "warm" if li.sources == {"cache"} else ("cold" if "cache" not in li.sources else "mixed")
        if li.read_any:
            try:
                ov = overlay(db, li, cx.python, cx.wheel_os)
            except Exception as e:  # noqa: BLE001 - an index page the overlay cannot use: the data answers
                li.errors.append(f"overlay: {type(e).__name__}: {e}")
                li.pages, li.pypi = {}, {}
        if ov is not None:
            solve_db = ov.db
            notes += ov.notes
            stale = [e for e in li.errors]
            if "stale_cache" in li.sources:
                notes.append(("index_cached_copy", "info", f"The PyTorch index ({li.pytorch_base}) could not be reached; its copy cached earlier was used.",
                              {"index": li.pytorch_base}))
            elif stale:
                notes.append(("index_partly_read", "info", f"{len(stale)} index page(s) could not be read; the data answers for those builds.",
                              {"count": str(len(stale))}))
        else:
            notes.append(("index_unreachable", "warning", f"Could not check the PyTorch index ({li.pytorch_base}): the choice comes from the "
                          f"compatibility data of {db.version}" + (f" ({age} days old)" if age is not None else "") + ", not from the index.",
                          {"index": li.pytorch_base, "data": db.version, "age_part_code": "data_age" if age is not None else "",
                           "age": str(age) if age is not None else None}))
    elif not on:
        notes.append(("index_not_checked", "info", f"Live index reads are off: the choice comes from the compatibility data of {db.version}"
                      + (f" ({age} days old)" if age is not None else "") + ".",
                      {"data": db.version, "age_part_code": "data_age" if age is not None else "", "age": str(age) if age is not None else None}))
    if age is not None and age > STALE_DAYS and not (li and li.read_any):
        notes.append(("compat_data_stale", "warning", f"The compatibility data is {age} days old ({db.version}) and nothing newer could be read: "
                      "newer PyTorch releases and drivers may be missing. Run `gpu-wizard update-db`.", {"age": str(age), "data": db.version}))
    rec = recommend(facts, solve_db, choices)
    # NVIDIA's repository: does it carry the toolkit and the driver branch the answer names?
    wants_repo = (rec.cuda_toolkit.wanted and rec.cuda_toolkit.repo) or \
        (rec.driver.package_repo == "nvidia" and rec.driver.action in ("install", "upgrade"))
    if li is not None and facts.os.platform == "linux" and wants_repo:
        repo = next((r for r in solve_db.nvidia_repos if r.repo == rec.cuda_toolkit.repo), None) if rec.cuda_toolkit.repo else \
            solve_db.repo_for((facts.os.id or "").lower() or None, facts.os.version_id, wsl=facts.os.wsl == 2,
                              id_like=tuple(x.lower() for x in facts.os.id_like), arch="sbsa" if cx.arm else "x86_64",
                              codenames=(facts.os.codename, facts.os.base_codename))
        if repo is not None:
            f = fetcher or Fetcher(requests_kwargs=requests_kwargs(choices.mirrors), cache=cache_dir(env))
            before = f.requests
            read_nvidia_repo(repo, choices.mirrors.nvidia_repo_url, f, li)
            rep.requests += f.requests - before
            if li.repo:
                url, toolkits, branches = li.repo
                fixed = overlay_repo(solve_db, repo, {t for t in toolkits if solve_db.cuda_release(t)})
                if fixed is not solve_db and rec.cuda_toolkit.version and rec.cuda_toolkit.version not in toolkits:
                    solve_db = fixed
                    rec = recommend(facts, solve_db, choices)
                if rec.driver.branch and rec.driver.action in ("install", "upgrade") and rec.driver.package_repo == "nvidia" \
                        and branches and rec.driver.branch not in branches:
                    notes.append(("driver_branch_not_in_repo", "warning", f"NVIDIA's {repo.repo} repository does not carry driver branch "
                                  f"R{rec.driver.branch} (it has {', '.join('R' + b for b in sorted(branches, key=vkey)[-4:])}).",
                                  {"repo": repo.repo, "branch": rec.driver.branch, "branches": ", ".join("R" + b for b in sorted(branches, key=vkey)[-4:])}))
                else:
                    notes.append(("nvidia_repo_checked", "info", f"NVIDIA's {repo.repo} repository index was read: it carries "
                                  f"{len(toolkits)} CUDA toolkit(s), newest {max(toolkits, key=vkey) if toolkits else 'none'}.",
                                  {"repo": repo.repo, "count": str(len(toolkits)), "newest": max(toolkits, key=vkey) if toolkits else "none"}))
            elif li.repo_error:
                notes.append(("nvidia_repo_unreachable", "info", f"Could not read NVIDIA's {repo.repo} repository index: the data says what it carries.",
                              {"repo": repo.repo}))
    if li is not None and li.read_any and rec.pytorch.version and rec.pytorch.index and rec.pytorch.index != "cpu":
        rel = ".".join(rec.pytorch.version.split(".")[:2])
        seen = ov.seen.get((rel, rec.pytorch.index))
        if seen:
            notes.append(("index_confirmed", "info", f"Checked {page_url(li.pytorch_base, rec.pytorch.index, 'torch')}: torch {seen[0]}"
                          + (f" and torchvision {seen[1]}" if seen[1] and choices.want_torchvision else "")
                          + f" have wheels for {cp_tag(cx.python) or 'this Python'} on {cx.os_label}.",
                          {"url": page_url(li.pytorch_base, rec.pytorch.index, 'torch'), "torch": seen[0],
                           "tv_part_code": "index_confirmed_tv" if seen[1] and choices.want_torchvision else "",
                           "torchvision": seen[1] if seen[1] and choices.want_torchvision else None,
                           "tag": cp_tag(cx.python) or "this Python", "os": cx.os_label}))
    alts = tuple(rec.alternatives)
    tag = cp_tag(cx.python) if cx.python else None
    if ov is not None and ov.newer and tag:
        # a release newer than the data, with a wheel for this Python here: offered, never chosen
        newest = ov.newer[-1]
        where = sorted(var for (var, proj), page in li.pages.items() if proj == "torch" and page
                       and any(w.version == newest and w.local == var and w.fits(tag, cx.wheel_os) for w in page))
        if where:
            var = rec.pytorch.index if rec.pytorch.index in where else where[-1]
            from app.recommendation import Alternative

            alts += (Alternative(torch_version=newest, index=var, rank=len(alts) + 1, index_url=f"{li.pytorch_base}/{var}",
                                 reason=f"Newer, not in the compatibility data yet ({db.version}): a wheel for {tag} is on the index, "
                                        "but its GPU and driver support are unchecked.",
                                 reason_code="alt_newer_than_data", reason_params={"data": db.version, "tag": tag}),)
    extra = []
    for code, sev, msg, params in notes:
        if not any(w.code == code for w in rec.warnings) and not any(w.code == code for w in extra):
            extra.append(RecWarning(code=code, message=msg, severity=sev, params={k: str(v) for k, v in params.items() if v is not None}))
    return rec.replace(warnings=tuple(rec.warnings) + tuple(extra), alternatives=alts), rep

