"""`gpu-wizard update-db`: fetch a newer compat data bundle, check it, swap it in atomically.

A bundle is one JSON document (`make_bundle()`), published with its SHA-256 next to it
(`<url>.sha256`, "<hex>  <name>" like sha256sum writes) or given with `--sha256`. The new
bundle must match the checksum, parse, pass the table schemas and build a CompatDB before it
replaces anything; it is written to a temporary file in the same folder and renamed over the
old one (atomic on POSIX and Windows). The previous bundle is kept as `<name>.bak`; on any
failure the installed data is untouched. The data shipped with the wizard always remains the
fallback (`load_db` uses it when the user bundle is missing or broken).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional
from urllib.parse import urlparse

from app import fileio
from app.compat.db import TABLES, CompatDataError, CompatDB, bundled_dir, parse_bundle, sha256_text, user_bundle_path, vkey

MAX_BUNDLE_BYTES = 32 * 1024 * 1024
_HEX64 = re.compile(r"\b([0-9a-fA-F]{64})\b")


class UpdateError(RuntimeError):
    """The update did not happen; the installed data is unchanged."""


@dataclass(frozen=True)
class UpdateResult:
    version: str
    previous_version: Optional[str]
    path: str
    sha256: str
    changed: bool


def _check_url(url: str) -> None:
    u = urlparse(url)
    if u.scheme == "https" and u.netloc:
        return
    if u.scheme == "http" and (u.hostname in ("127.0.0.1", "localhost", "::1")):
        return  # local testing and air-gapped mirrors on this machine
    raise UpdateError(f"refusing {url!r}: the data bundle must come over HTTPS")


def _get(session: Any, url: str, timeout: float, kwargs: dict[str, Any]) -> bytes:
    """The whole body within `timeout` seconds in all (app.net: trust store, proxy, caps)."""
    from app import net

    try:
        return net.get(url, sess=session, deadline_s=timeout, max_bytes=MAX_BUNDLE_BYTES).body
    except net.FetchError as e:
        raise UpdateError(f"{url}: {e}") from None


def validate_schemas(tables: dict[str, Any]) -> None:
    """Validate each table against resources/compat/schema (when jsonschema is installed; the
    typed loader checks required fields, sources and dates either way)."""
    try:
        import jsonschema
    except ImportError:
        return
    from app.paths import resource

    sdir = resource("compat", "schema")
    for t in TABLES:
        f = sdir / f"{t}.schema.json"
        if not f.exists():
            continue
        schema = fileio.loads(f.read_text(encoding="utf-8"))
        err = next(iter(jsonschema.Draft202012Validator(schema).iter_errors(tables.get(t))), None)
        if err is not None:
            where = ".".join(str(p) for p in err.absolute_path)
            raise UpdateError(f"table {t} does not match its schema at {where or '(top)'}: {err.message[:200]}")


def current_version(dest: Path) -> Optional[str]:
    if not dest.is_file():
        return None
    try:
        return parse_bundle(dest.read_bytes())[1]
    except (OSError, CompatDataError):
        return None


def update_db(url: str, *, sha256: Optional[str] = None, dest: Optional[Path] = None, force: bool = False,
              timeout: float = 30.0, session=None, requests_kwargs: Optional[dict[str, Any]] = None) -> UpdateResult:
    _check_url(url)
    dest = Path(dest) if dest else user_bundle_path()
    kwargs = dict(requests_kwargs or {})
    if session is None:
        from app import net

        session = net.session_from_kwargs(kwargs)
    body = _get(session, url, timeout, kwargs)
    if sha256 is None:
        text = _get(session, url + ".sha256", timeout, kwargs).decode("utf-8", "replace")
        m = _HEX64.search(text)
        if not m:
            raise UpdateError(f"{url}.sha256 holds no SHA-256 checksum")
        sha256 = m.group(1)
    digest = sha256_text(body)
    if digest.lower() != sha256.strip().lower():
        raise UpdateError(f"checksum mismatch: expected {sha256.strip().lower()}, got {digest} (download corrupted or tampered with)")
    try:
        tables, version = parse_bundle(body)
        validate_schemas(tables)
        CompatDB.from_tables(tables, version=version, origin=url)
    except CompatDataError as e:
        raise UpdateError(f"the new data is not valid: {e}") from None
    previous = current_version(dest)
    if previous is None:
        from app.compat.db import read_dir_tables

        try:
            previous = read_dir_tables(bundled_dir())[1]
        except CompatDataError:
            previous = None
    if not force and previous and vkey(version) and vkey(version) < vkey(previous):
        raise UpdateError(f"the downloaded data ({version}) is older than what is installed ({previous}); use --force to install it anyway")
    if not force and previous == version and dest.is_file() and sha256_text(dest.read_bytes()) == digest:
        return UpdateResult(version=version, previous_version=previous, path=str(dest), sha256=digest, changed=False)
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
        if dest.is_file():
            fileio.write_atomic(dest.with_name(dest.name + ".bak"), dest.read_bytes())
        fileio.write_atomic(dest, body)
    except OSError as e:
        raise UpdateError(f"cannot write {dest}: {e}") from None
    return UpdateResult(version=version, previous_version=previous, path=str(dest), sha256=digest, changed=True)
