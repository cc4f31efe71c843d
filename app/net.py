"""The one HTTP fetcher: every HTTPS read the wizard makes itself (the live indexes, `update-db`, downloads).

- **Trust**: what the system trusts (the `truststore` package: the OS store on Windows and macOS, OpenSSL's
  system paths on Linux, which honour `SSL_CERT_FILE`/`SSL_CERT_DIR`), so a TLS-inspecting corporate CA
  installed system-wide works as it does for pip. `--ca-bundle` (Mirrors.ca_bundle) replaces it with that file.
  Without truststore installed: requests' own bundle (certifi), as before.
- **Proxy**: the wizard's own setting (app.config merges flags, the config file and the environment); the
  session does not read the environment a second time.
- **`get()`**: a total deadline for the whole read (connect, headers, body; a server dripping one byte every
  two seconds is cut off at the deadline, not at a per-read timeout), a cap on the bytes received and on the
  bytes after decompression (`Content-Encoding: gzip/deflate` is decoded here, by `inflate()`, never by
  urllib3 without a limit), at most `max_redirects` redirects and none from HTTPS to HTTP.
- **`open_stream()`**: a streamed GET for downloads (Range for resume; the caller verifies the checksum).

Errors are `FetchError`: one line for the user, `status` set for an HTTP answer that was not 2xx.
"""
from __future__ import annotations

import threading
import time
import zlib
from dataclasses import dataclass, field
from typing import Any, Iterator, Mapping, Optional
from urllib.parse import urljoin, urlsplit

DEFAULT_DEADLINE_S = 30.0
DEFAULT_MAX_BYTES = 64 << 20
MAX_REDIRECTS = 5
_CHUNK = 64 * 1024


class FetchError(OSError):
    """A read that did not give a usable body; the message is one line."""

    def __init__(self, message: str, status: Optional[int] = None):
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Response:
    url: str  # after redirects
    status: int
    body: bytes
    headers: Mapping[str, str] = field(default_factory=dict)
    seconds: float = 0.0


# ---------------------------------------------------------------- sessions (trust store, proxy)


def system_ssl_context() -> Any:
    """An SSLContext over the system trust store (truststore), or None where truststore is missing."""
    try:
        import ssl

        import truststore
    except ImportError:
        return None
    return truststore.SSLContext(ssl.PROTOCOL_TLS_CLIENT)


def _adapter_class() -> Any:
    from requests.adapters import HTTPAdapter

    class TrustStoreAdapter(HTTPAdapter):
        """requests' adapter with the system trust store as its TLS context (pip does the same)."""

        def __init__(self, ssl_context: Any, **kw: Any):
            self._ssl_context = ssl_context
            super().__init__(**kw)

        def init_poolmanager(self, *a: Any, **kw: Any) -> Any:
            kw.setdefault("ssl_context", self._ssl_context)
            return super().init_poolmanager(*a, **kw)

        def proxy_manager_for(self, *a: Any, **kw: Any) -> Any:
            kw.setdefault("ssl_context", self._ssl_context)
            return super().proxy_manager_for(*a, **kw)

    return TrustStoreAdapter


def session(proxy: Optional[str] = None, ca_bundle: Optional[str] = None, *, system_trust: bool = True) -> Any:
    """A requests.Session with the wizard's proxy and trust: `ca_bundle` when given, else the system store.
    FetchError when requests is missing (the standard-library-only zipapp reads nothing from the network)."""
    try:
        import requests
    except ImportError:
        raise FetchError("the requests package is not installed: no network reads") from None

    s = requests.Session()
    s.trust_env = False  # app.config already merged the environment in; requests must not override it
    s.max_redirects = MAX_REDIRECTS
    if proxy:
        s.proxies.update({"https": proxy, "http": proxy})
    if ca_bundle:
        s.verify = ca_bundle
    elif system_trust and (ctx := system_ssl_context()) is not None:
        s.mount("https://", _adapter_class()(ctx))
    return s


def session_from_kwargs(kwargs: Optional[Mapping[str, Any]]) -> Any:
    """A session from app.config.requests_kwargs() (proxies=, verify=)."""
    kw = dict(kwargs or {})
    proxies = kw.get("proxies") or {}
    verify = kw.get("verify")
    return session(proxies.get("https") or proxies.get("http"), verify if isinstance(verify, str) else None)


def session_for(mirrors: Any) -> Any:
    """A session for app.choices.Mirrors (its https_proxy and ca_bundle)."""
    return session(getattr(mirrors, "https_proxy", None), getattr(mirrors, "ca_bundle", None))


# ---------------------------------------------------------------- decompression with a cap


def inflate(data: bytes, max_bytes: int, what: str = "the answer") -> bytes:
    """gzip or zlib/deflate data decompressed, refusing more than `max_bytes` of output (a gzip bomb)."""
    wbits = 16 + zlib.MAX_WBITS if data[:2] == b"\x1f\x8b" else zlib.MAX_WBITS
    out = bytearray()
    d = zlib.decompressobj(wbits)
    buf = data
    try:
        while buf:
            out += d.decompress(buf, max_bytes + 1 - len(out))
            if len(out) > max_bytes:
                raise FetchError(f"{what} decompresses to more than {_mib(max_bytes)}: refused")
            buf = d.unconsumed_tail
            if d.eof:
                rest = d.unused_data  # gzip allows several members one after another
                if rest[:2] == b"\x1f\x8b":
                    d, buf = zlib.decompressobj(16 + zlib.MAX_WBITS), rest
                else:
                    break
    except zlib.error as e:
        raise FetchError(f"{what} is not valid compressed data ({e})") from None
    return bytes(out)


def _mib(n: int) -> str:
    return f"{n / (1 << 20):g} MiB" if n >= 1 << 20 else f"{n} bytes"


# ---------------------------------------------------------------- one GET with a total deadline


class _Read:
    """One read on a worker thread, so the caller gets its answer at the deadline whatever the server does."""

    def __init__(self) -> None:
        self.resp: Any = None
        self.result: Optional[Response] = None
        self.error: Optional[BaseException] = None
        self.cancelled = threading.Event()


def get(url: str, *, sess: Any = None, deadline_s: float = DEFAULT_DEADLINE_S, max_bytes: int = DEFAULT_MAX_BYTES,
        accept: Optional[str] = None, headers: Optional[Mapping[str, str]] = None, max_redirects: int = MAX_REDIRECTS,
        until: Optional[float] = None) -> Response:
    """GET `url` whole within `deadline_s` seconds (or by `until`, a time.monotonic() value, if sooner).
    A 2xx answer returns; anything else raises FetchError (an HTTP answer carries its status)."""
    t0 = time.monotonic()
    end = t0 + deadline_s if until is None else min(until, t0 + deadline_s)
    if end - t0 <= 0:
        raise FetchError(f"{_host(url)}: no time left to read it")
    s = sess if sess is not None else session()
    job = _Read()
    worker = threading.Thread(target=_run, args=(job, s, url, end, max_bytes, accept, headers, max_redirects), daemon=True,
                              name=f"GET {_host(url)}")
    worker.start()
    worker.join(max(0.0, end - time.monotonic()))
    if worker.is_alive():
        job.cancelled.set()
        shutdown_response(job.resp)  # a read blocked on a dripping server returns now; the worker then ends
        raise FetchError(f"{_host(url)} did not answer in full within {deadline_s:g} s")
    if job.error is not None:
        raise job.error
    assert job.result is not None
    return job.result


def _host(url: str) -> str:
    return urlsplit(url).netloc or url[:80]


def _run(job: _Read, s: Any, url: str, end: float, max_bytes: int, accept: Optional[str], headers: Optional[Mapping[str, str]],
         max_redirects: int) -> None:
    try:
        job.result = _get(job, s, url, end, max_bytes, accept, headers, max_redirects)
    except FetchError as e:
        job.error = e
    except Exception as e:  # noqa: BLE001 - any transport failure is one line for the caller
        job.error = FetchError(_transport_message(url, e))


def _transport_message(url: str, e: BaseException) -> str:
    name = type(e).__name__
    if "SSLError" in name or "CERTIFICATE" in str(e).upper():
        return (f"{_host(url)}: the TLS certificate is not trusted ({name}); install the CA on the system, "
                "or give it with --ca-bundle")
    if "ProxyError" in name:
        return f"{_host(url)}: the proxy refused or failed ({name})"
    return f"{_host(url)}: {name}: {str(e)[:160]}"


def _get(job: _Read, s: Any, url: str, end: float, max_bytes: int, accept: Optional[str], headers: Optional[Mapping[str, str]],
         max_redirects: int) -> Response:
    t0 = time.monotonic()
    h = {"Accept-Encoding": "gzip, deflate"}
    if accept:
        h["Accept"] = accept
    h.update(headers or {})
    seen: list[str] = []
    while True:
        left = end - time.monotonic()
        if left <= 0 or job.cancelled.is_set():
            raise FetchError(f"{_host(url)}: out of time")
        r = s.get(url, headers=h, stream=True, timeout=(min(left, 10.0), min(left, 10.0)), allow_redirects=False)
        job.resp = r
        try:
            if r.is_redirect and r.headers.get("Location"):
                nxt = urljoin(url, r.headers["Location"])
                if len(seen) >= max_redirects or nxt in seen or nxt == url:
                    raise FetchError(f"{_host(url)}: too many redirects (a loop?)")
                if urlsplit(url).scheme == "https" and urlsplit(nxt).scheme != "https":
                    raise FetchError(f"{_host(url)} redirects from HTTPS to {urlsplit(nxt).scheme or 'a non-HTTPS address'}: refused")
                seen.append(url)
                url = nxt
                continue
            if not 200 <= r.status_code < 300:
                raise FetchError(f"{_host(url)}: HTTP {r.status_code}", status=r.status_code)
            body = _body(job, r, url, max_bytes)
            return Response(url=url, status=r.status_code, body=body, headers=dict(r.headers), seconds=time.monotonic() - t0)
        finally:
            r.close()


def _body(job: _Read, r: Any, url: str, max_bytes: int) -> bytes:
    length = r.headers.get("Content-Length", "")
    if length.isdigit() and int(length) > max_bytes:
        raise FetchError(f"{_host(url)}: the answer is {_mib(int(length))}, more than the {_mib(max_bytes)} allowed")
    buf = bytearray()
    while not job.cancelled.is_set():
        chunk = r.raw.read(_CHUNK, decode_content=False)  # raw bytes: decompressed below, with a cap
        if not chunk:
            break
        buf += chunk
        if len(buf) > max_bytes:
            raise FetchError(f"{_host(url)}: the answer is larger than {_mib(max_bytes)}: refused")
    if job.cancelled.is_set():
        raise FetchError(f"{_host(url)}: out of time")
    enc = (r.headers.get("Content-Encoding") or "identity").strip().lower()
    if enc in ("gzip", "x-gzip", "deflate"):
        return inflate(bytes(buf), max_bytes, f"the answer of {_host(url)}")
    if enc not in ("identity", ""):
        raise FetchError(f"{_host(url)}: unsupported Content-Encoding {enc[:20]!r}")
    return bytes(buf)


def shutdown_response(resp: Any) -> None:
    """Shut the socket under a streamed requests response (a read blocked on it returns at once)."""
    import socket

    raw = getattr(resp, "raw", None)
    if raw is None:
        return
    for get_sock in (lambda: raw._connection.sock, lambda: raw._fp.fp.raw._sock):  # urllib3 2.x internals
        try:
            sock = get_sock()
        except AttributeError:
            continue
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
                return
            except OSError:
                continue


# ---------------------------------------------------------------- a streamed GET for downloads


@dataclass
class Stream:
    chunks: Iterator[bytes]
    total: Optional[int]  # the whole file's size, when the server says it
    resumed: bool  # the server honoured the Range offset
    resp: Any = None

    def close(self) -> None:
        if self.resp is not None:
            self.resp.close()

    def shutdown(self) -> None:
        shutdown_response(self.resp)


def open_stream(url: str, start: int = 0, *, sess: Any = None, timeout: float = 60.0) -> Stream:
    """A streamed GET from byte `start` (HTTP Range); `timeout` is per read (a download stalls, it is not
    cut at a total deadline: the caller's cancel and its size and checksum checks guard it)."""
    import re

    s = sess if sess is not None else session()
    headers = {"Range": f"bytes={start}-", "Accept-Encoding": "identity"} if start else {"Accept-Encoding": "identity"}
    try:
        r = s.get(url, headers=headers, stream=True, timeout=timeout)
    except Exception as e:  # noqa: BLE001 - transport failures are one line
        raise FetchError(_transport_message(url, e)) from None
    if r.status_code == 416 and start:
        r.close()
        return Stream(iter(()), start, True, None)
    if r.status_code not in (200, 206):
        r.close()
        raise FetchError(f"the server answered {r.status_code} for {url}", status=r.status_code)
    length = r.headers.get("Content-Length")
    total = None
    if r.status_code == 206:
        m = re.search(r"/(\d+)$", r.headers.get("Content-Range", ""))
        total = int(m.group(1)) if m else (start + int(length) if length and length.isdigit() else None)
    elif length and length.isdigit():
        total = int(length)
    return Stream(r.iter_content(_CHUNK), total, r.status_code == 206, r)
