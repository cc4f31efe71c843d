"""Downloads: resume through HTTP Range, progress, and a checksum check before anything uses the file.

The file grows as `<name>.part`; only a complete file whose checksum matches is renamed to `<name>`.
A mismatch deletes the partial file and raises, so nothing ever runs a corrupt or altered download.
`file://` URLs work the same way (offline mirrors, tests).
"""
from __future__ import annotations

import errno
import hashlib
import os
import queue
import re
import shutil
import threading
import time
import urllib.parse
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

from .runner import CancelToken, Progress

CHUNK = 1 << 20


class DownloadError(Exception):
    """A download that cannot be used; the message is one line for the user."""


@dataclass(frozen=True)
class DownloadResult:
    path: str
    sha256: str
    size_bytes: int
    resumed_from: int = 0
    verified_by: str = ""  # "sha256", "sha256 (Packages)", "md5 (md5sum.txt)"


def file_hashes(path: str | os.PathLike) -> tuple[str, str]:
    sha, md5 = hashlib.sha256(), hashlib.md5()
    with open(path, "rb") as fh:
        while True:
            b = fh.read(CHUNK)
            if not b:
                break
            sha.update(b)
            md5.update(b)
    return sha.hexdigest(), md5.hexdigest()


def parse_packages_checksum(index_text: str, file_name: str) -> Optional[str]:
    """SHA256 of `file_name` from a Debian 'Packages' index (the stanza whose Filename ends with it)."""
    for stanza in re.split(r"\n\s*\n", index_text):
        fields: dict[str, str] = {}
        for line in stanza.splitlines():
            if ":" in line and not line.startswith(" "):
                k, _, v = line.partition(":")
                fields[k.strip()] = v.strip()
        fn = fields.get("Filename", "")
        if fn and (fn == file_name or fn.endswith("/" + file_name)) and fields.get("SHA256"):
            return fields["SHA256"].lower()
    return None


def parse_sums(text: str, file_name: str) -> Optional[str]:
    """'<hex>  <name>' lines (md5sum/sha256sum output, NVIDIA's md5sum.txt)."""
    for line in text.splitlines():
        parts = line.strip().split()
        if len(parts) >= 2 and re.fullmatch(r"[0-9a-fA-F]{32}|[0-9a-fA-F]{64}", parts[0]):
            name = parts[-1].lstrip("*")
            if name == file_name or name.endswith("/" + file_name):
                return parts[0].lower()
    return None


def _open(url: str, start: int, timeout: float, session=None):
    """(stream of bytes, total size or None, whether the server honoured the resume offset)."""
    parsed = urllib.parse.urlparse(url)
    if parsed.scheme == "file":
        path = urllib.parse.unquote(parsed.path)
        try:
            fh = open(path, "rb")
        except OSError as e:
            raise DownloadError(f"cannot read {url}: {e.strerror}") from None
        total = os.fstat(fh.fileno()).st_size
        fh.seek(min(start, total))

        def gen():
            with fh:
                while True:
                    b = fh.read(CHUNK)
                    if not b:
                        return
                    yield b
        return gen(), total, True, None
    if parsed.scheme not in ("http", "https"):
        raise DownloadError(f"unsupported address {url!r}: only https, http and file are allowed")
    from app import net

    try:
        st = net.open_stream(url, start, sess=session, timeout=timeout)
    except net.FetchError as e:
        if e.status is None:
            raise DownloadError(f"cannot reach {parsed.netloc}: {e}") from None
        raise DownloadError(str(e)) from None
    return st.chunks, st.total, st.resumed, st.resp


def fetch_text(url: str, timeout: float = 60.0, limit: int = 64 << 20, session=None) -> str:
    """A small text (a checksum list, a Packages index) read whole within `timeout` seconds in all."""
    parsed = urllib.parse.urlparse(url)
    if parsed.scheme == "file":
        stream, _, _, _ = _open(url, 0, timeout, session)
        data = bytearray()
        for b in stream:
            data += b
            if len(data) > limit:
                raise DownloadError(f"{url} is larger than expected")
        return data.decode("utf-8", errors="replace")
    if parsed.scheme not in ("http", "https"):
        raise DownloadError(f"unsupported address {url!r}: only https, http and file are allowed")
    from app import net

    try:
        return net.get(url, sess=session, deadline_s=timeout, max_bytes=limit).body.decode("utf-8", errors="replace")
    except net.FetchError as e:
        raise DownloadError(str(e)) from None


def published_checksum(checksum_url: str, file_name: str, session=None) -> str:
    text = fetch_text(checksum_url, session=session)
    value = parse_packages_checksum(text, file_name) or parse_sums(text, file_name)
    if not value:
        raise DownloadError(f"{checksum_url} publishes no checksum for {file_name}")
    return value


def download(url: str, dest: str | os.PathLike, *, sha256: Optional[str] = None, checksum_url: Optional[str] = None,
             on_progress: Optional[Callable[[Progress], None]] = None, cancel: Optional[CancelToken] = None,
             timeout_s: float = 60.0, require_checksum: bool = True, min_free_mib: Optional[int] = None,
             session=None, size_bytes: Optional[int] = None) -> DownloadResult:
    """Fetch `url` to `dest`, resuming `dest.part`; verify before the file gets its final name.
    `session`: a requests.Session carrying the user's proxy and CA bundle (see `http_session`)."""
    dest = Path(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    name = os.path.basename(urllib.parse.urlparse(url).path) or dest.name
    want_md5 = None
    verified_by = "sha256"
    if not sha256 and checksum_url:
        value = published_checksum(checksum_url, name, session)
        if len(value) == 32:
            want_md5, verified_by = value, f"md5 ({os.path.basename(checksum_url)})"
        else:
            sha256, verified_by = value, f"sha256 ({os.path.basename(checksum_url)})"
    if not sha256 and not want_md5 and require_checksum:
        raise DownloadError(f"no published checksum for {name}: refusing to use it")
    sha256 = sha256.lower() if sha256 else None
    if dest.exists():  # a finished earlier download: verify it again before use
        got_sha, got_md5 = file_hashes(dest)
        if (sha256 and got_sha == sha256) or (want_md5 and got_md5 == want_md5):
            return DownloadResult(str(dest), got_sha, dest.stat().st_size, verified_by=verified_by)
        dest.unlink()
    part = dest.with_name(dest.name + ".part")
    start = part.stat().st_size if part.exists() else 0
    if min_free_mib:
        free_mib = shutil.disk_usage(dest.parent).free // (1 << 20)
        if free_mib < min_free_mib:
            raise DownloadError(f"not enough free disk space in {dest.parent}: {free_mib} MiB free, {min_free_mib} MiB needed")
    stream, total, resumed, resp = _open(url, start, timeout_s, session)
    if start and not resumed:
        start = 0  # the server ignored Range: start over
    try:
        if size_bytes is not None and total is not None and total > size_bytes:
            part.unlink(missing_ok=True)
            raise DownloadError(f"{name}: the server sends {total} bytes, but this file is {size_bytes} bytes; refusing "
                                "to download it")
        need = (total if total is not None else size_bytes or 0) - start
        free = _free_bytes(dest.parent)
        if need > 0 and free is not None and free < need + (16 << 20):
            raise DownloadError(f"no space for {name} in {dest.parent}: {need >> 20} MiB needed, {free >> 20} MiB free")
        got = _stream_to(part, stream, start, name, total, size_bytes, on_progress, cancel, resp)
    finally:
        if resp is not None:
            resp.close()
    if total is not None and got < total:
        raise DownloadError(f"download of {name} is incomplete ({got} of {total} bytes); run again to resume")
    got_sha, got_md5 = file_hashes(part)
    if (sha256 and got_sha != sha256) or (want_md5 and got_md5 != want_md5):
        part.unlink()
        exp = sha256 or want_md5 or ""  # one of them is set: it is the one that did not match
        raise DownloadError(f"checksum mismatch for {name} (expected {exp[:16]}…, got {(got_sha if sha256 else got_md5)[:16]}…): "
                            "the file is corrupt or was altered, so it was deleted and nothing ran it")
    os.replace(part, dest)
    if on_progress is not None:
        on_progress(Progress(1.0, f"{name}: verified ({verified_by})"))
    return DownloadResult(str(dest), got_sha, got, resumed_from=start, verified_by=verified_by)


def _free_bytes(folder: Path) -> Optional[int]:
    try:
        return shutil.disk_usage(folder).free
    except OSError:
        return None


_EOF = object()


def _stream_to(part: Path, stream, start: int, name: str, total: Optional[int], size_bytes: Optional[int],
               on_progress, cancel: Optional[CancelToken], resp) -> int:
    """Copy the stream into `part`. The network is read on a worker thread, so a cancel takes effect
    within a fraction of a second even while the server trickles or stalls; more bytes than expected
    stop the download; a full disk is said as such."""
    q: queue.Queue = queue.Queue(maxsize=8)
    stop = threading.Event()

    def pump() -> None:
        try:
            for chunk in stream:
                while not stop.is_set():
                    try:
                        q.put(chunk, timeout=0.2)
                        break
                    except queue.Full:
                        continue
                if stop.is_set():
                    return
            q.put(_EOF)
        except BaseException as e:  # noqa: BLE001 - handed to the main thread
            q.put(e)

    worker = threading.Thread(target=pump, daemon=True, name=f"download {name}")
    worker.start()
    got = start
    last = 0.0
    limit = size_bytes if size_bytes is not None else total
    try:
        with open(part, "ab" if start else "wb") as fh:
            while True:
                if cancel is not None and cancel.cancelled:
                    raise DownloadError("download cancelled; it resumes where it stopped")
                try:
                    item = q.get(timeout=0.1)
                except queue.Empty:
                    continue
                if item is _EOF:
                    break
                if isinstance(item, BaseException):
                    if isinstance(item, DownloadError):
                        raise item
                    raise DownloadError(f"download of {name} broke off at {got} bytes ({item.__class__.__name__}); "
                                        "run again to resume")
                if limit is not None and got + len(item) > limit:
                    fh.close()
                    part.unlink(missing_ok=True)
                    raise DownloadError(f"{name}: the server sent more than the expected {limit} bytes; the download "
                                        "was stopped and deleted")
                try:
                    fh.write(item)
                except OSError as e:
                    raise _disk_error(e, part, name, got) from None
                got += len(item)
                if limit is None and got // (32 << 20) != (got - len(item)) // (32 << 20):
                    free = _free_bytes(part.parent)  # no size known: never fill the disk to the last byte
                    if free is not None and free < (64 << 20):
                        raise DownloadError(f"no space left on the disk for {name} in {part.parent} (stopped at "
                                            f"{got >> 20} MiB, {free >> 20} MiB free): free some space, then run "
                                            "again to resume")
                now = time.monotonic()
                if on_progress is not None and now - last > 0.2:
                    last = now
                    frac = got / total if total else None
                    on_progress(Progress(frac, f"{name}: {got >> 20} of {total >> 20 if total else '?'} MiB"))
            try:
                fh.flush()
                os.fsync(fh.fileno())
            except OSError as e:
                raise _disk_error(e, part, name, got) from None
    except OSError as e:  # opening or closing the part file
        raise _disk_error(e, part, name, got) from None
    finally:
        stop.set()
        if resp is not None and worker.is_alive():
            from app.net import shutdown_response

            shutdown_response(resp)  # unblocks a read waiting on a stalled server (closing would wait for it)
            worker.join(timeout=1.0)
    return got


def _disk_error(e: OSError, part: Path, name: str, got: int) -> DownloadError:
    if e.errno in (errno.ENOSPC, errno.EDQUOT):
        return DownloadError(f"no space left on the disk for {name} in {part.parent} (stopped at {got >> 20} MiB): free "
                             "some space, then run again to resume")
    return DownloadError(f"cannot write {name} to {part.parent}: {e.strerror or e}")


def http_session(requests_kwargs: dict):
    """A requests.Session (app.net) with the proxy and CA bundle of app.config.requests_kwargs(mirrors),
    the system trust store when no CA bundle is given."""
    from app import net

    return net.session_from_kwargs(requests_kwargs)
