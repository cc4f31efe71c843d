"""Snapshot-backed hosts of `fleet detect`, read in this process (no Ansible task, no engine process).

Each host's file is re-recorded (detection through a RecordingSystem, once: the same pass gives its
fleet row), kept unredacted for planning (`private/<host>.json`, 0600) and redacted for sharing
(`hosts/<host>/snapshot.json`). Work is shared between hosts, never results that could differ:

- identical files (the same bytes) are read once;
- files that differ only in when they were recorded (`created`, a plain timestamp) and in their free
  `note` (which re-recording drops) are detected and redacted once: both answers depend on the
  snapshot's other content only, and a timestamp is checked to hold nothing redaction would learn.
  Anything else that differs (a host name, a serial number) makes a host's redaction its own.

The files are written without a fsync each: they can be made again by detecting again. `flush()`
makes them durable at once (one `syncfs` of their filesystem) before the record that names them is
written.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import uuid
from dataclasses import dataclass
from typing import Any, Optional, Union

from app import fileio

# A plain ISO 8601 time as recorders write it (`2026-01-02T03:04:05+00:00`, `...Z`, fractions).
_TIMESTAMP = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:?\d{2})?")
_UNSHARED = ("created", "note")  # what may differ between hosts whose detection and redaction are shared


@dataclass
class Detected:
    """One distinct snapshot's answers: the private and the redacted file's bytes, each with a mark where the
    host's own `created` goes, the fleet row, and the redactor (for that `created`)."""
    private: bytes
    shared: bytes
    facts: dict[str, Any]
    redactor: Any
    placed: bool = True  # False: the bytes are this file's own (its `created` in them already)

    def files(self, created: Any) -> tuple[bytes, bytes]:
        """(private, shared) for a host recorded at `created`."""
        if not self.placed:
            return self.private, self.shared
        shared = self.redactor.text(created, learn=False)
        return (self.private.replace(_MARK_JSON, json_bytes(created)[:-1], 1),
                self.shared.replace(_MARK_JSON, json_bytes(shared)[:-1], 1))


_MARK = "gpu-wizard-created-" + uuid.uuid4().hex  # never in a snapshot: a fresh random name per process
_MARK_JSON = json.dumps(_MARK).encode()


class SnapshotHosts:
    """Reads snapshot-backed hosts into a fleet folder, sharing the work between alike files."""

    def __init__(self, fd: Any):
        self.fd = fd
        self.by_bytes: dict[str, Union[tuple[bytes, bytes, dict[str, Any], Optional[str]], str]] = {}
        self.keys: dict[str, dict[str, Any]] = {}
        self.by_content: dict[str, Detected] = {}
        self.written: list[str] = []
        self.solved = 0  # distinct snapshots detected and redacted

    def record(self, host: str, path: str) -> tuple[str, str, Optional[dict[str, Any]]]:
        """(result, reason, fleet row) of one host whose facts come from `path`; `keys[host]` then says
        which private file it got and what its content is (so `fleet plan` solves alike hosts once)."""
        try:
            with open(path, "rb") as f:
                raw = f.read()
        except OSError as e:
            return "failed", f"gpu_wizard_snapshot {path}: {e.strerror or e}", None
        key = hashlib.sha256(raw).hexdigest()
        got = self.by_bytes.get(key)
        if got is None:
            got = self.by_bytes[key] = self._read(path)
        if isinstance(got, str):
            return "failed", f"gpu_wizard_snapshot {path}: {got}", None
        private, shared, facts, content = got
        self.keys[host] = {"sha256": hashlib.sha256(private).hexdigest(), "content": content}
        os.makedirs(self.fd.host_dir(host), exist_ok=True)
        self._write(self.fd.private(host), private, 0o600)
        self._write(self.fd.snapshot(host), shared)
        self._write(os.path.join(self.fd.host_dir(host), "facts.json"), json_bytes(facts, indent=1))
        return "recorded", "", facts

    def _read(self, path: str) -> Union[tuple[bytes, bytes, dict[str, Any], Optional[str]], str]:
        """The private and the shared file's bytes, the fleet row and the content key of one distinct file, or
        why it does not read."""
        from app.system import SnapshotError, SnapshotSystem

        try:
            system = SnapshotSystem.load(path)
            content = content_key(system.data)
            done = self.by_content.get(content) if content else None
            if done is None:
                done = self._detect(system)
                if not done.placed:
                    content = None
                elif content:
                    self.by_content[content] = done
            private, shared = done.files(system.now())
            return private, shared, done.facts, content
        except (SnapshotError, ValueError, OSError, RecursionError, UnicodeDecodeError) as e:
            return str(e).splitlines()[0] if str(e) else type(e).__name__

    def _detect(self, system: Any) -> Detected:
        """Detection once, through a RecordingSystem: the private snapshot and the fleet row from the same
        pass; then its redacted copy."""
        from app.detect import detect
        from app.fleet.report import facts_row_of
        from app.report.redact import Redactor, redact_snapshot
        from app.system import RecordingSystem

        self.solved += 1
        rec = RecordingSystem(system)
        facts = detect(rec)
        private = rec.snapshot()
        red = Redactor()
        shared = redact_snapshot(private, red)  # a redacted copy: `private` stays as it is
        private_b, shared_b = json_bytes({**private, "created": _MARK}), json_bytes({**shared, "created": _MARK}, indent=1)
        if private_b.count(_MARK_JSON) == 1 and shared_b.count(_MARK_JSON) == 1:
            return Detected(private_b, shared_b, facts_row_of(facts), red)
        return Detected(json_bytes(private), json_bytes(shared, indent=1), facts_row_of(facts), red, placed=False)

    def _write(self, path: str, data: bytes, mode: int = 0o644) -> None:
        fileio.write_atomic(path, data, mode=mode, keep_mode=False, fsync=False)
        self.written.append(path)

    def flush(self) -> None:
        """Make every file written so far durable: one syncfs of their filesystem (Linux), else a fsync each."""
        if not self.written:
            return
        if not syncfs(self.fd.root):
            folders = sorted({os.path.dirname(p) for p in self.written})
            for p in self.written:
                try:
                    fd = os.open(p, os.O_RDONLY)
                except OSError:
                    continue
                try:
                    os.fsync(fd)
                finally:
                    os.close(fd)
            for d in folders:
                fileio.fsync_dir(folder=d)
        self.written.clear()


def snapshot_keys(path: str) -> dict[str, Any]:
    """{"sha256": of the file, "content": its content_key}: what the record keeps of a host's private snapshot."""
    from app.system import SnapshotError, SnapshotSystem

    try:
        with open(path, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        return {"sha256": digest, "content": content_key(SnapshotSystem.load(path).data)}
    except (SnapshotError, ValueError, OSError, RecursionError):
        return {}


def content_key(data: dict[str, Any]) -> Optional[str]:
    """What detection, redaction and planning depend on in a snapshot: all but when it was recorded (a plain
    timestamp that redaction keeps as it is) and its free note; None: this file's answers are its own."""
    created = data.get("created")
    if created is not None and not (isinstance(created, str) and plain_timestamp(created)):
        return None
    rest = {k: v for k, v in data.items() if k not in _UNSHARED}
    return hashlib.sha256(json.dumps(rest, sort_keys=True, ensure_ascii=False).encode("utf-8", "surrogatepass")).hexdigest()


def plain_timestamp(s: str) -> bool:
    """A recorder's timestamp that redaction leaves as it is (so it can differ between hosts that share work)."""
    if not _TIMESTAMP.fullmatch(s):
        return False
    from app.report.redact import Redactor

    return Redactor().text(s) == s


def json_bytes(obj: Any, indent: Optional[int] = None) -> bytes:
    return (json.dumps(obj, indent=indent, ensure_ascii=False) + "\n").encode("utf-8", "surrogatepass")


def syncfs(folder: str) -> bool:
    """syncfs(2) on the filesystem holding `folder`; False where there is none (then fsync each file)."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        fn = libc.syncfs
    except (OSError, AttributeError):
        return False
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return False
    try:
        return fn(fd) == 0
    finally:
        os.close(fd)
