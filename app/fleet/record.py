"""The fleet folder and its durable record.

Layout (a host's files sit in a folder of their own, so no host name can ever meet the wizard's files:
a host called `fleet` or `fleet-plan` is `hosts/fleet/`, beside `fleet-record.json`):

    DIR/fleet-record.json        one row per inventory host from `fleet detect` on: reachable or not
                                 and why, its facts, its plan, every run appended (time, result, reason)
    DIR/fleet-plan.json          what `fleet plan` wrote (groups, each host's steps)
    DIR/hosts/<host>/snapshot.json  the redacted snapshot (shared)
    DIR/hosts/<host>/verify.json    its verification; report.html its own report
    DIR/private/<host>.json      the unredacted snapshot plans are made from (folder 0700, file 0600):
                                 a plan never uses a value redaction hid

Every write is atomic (a temporary file renamed into place) and the record is changed under a lock,
so two fleet commands never lose each other's rows. Reasons are kept to one line without credentials.
"""
from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import time
from typing import Any, Iterator, Optional

RECORD_FORMAT = "gpu-wizard-fleet-record/1"
MAX_REASON = 600
MAX_RUNS_PER_HOST = 200


def now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S%z")


def valid_host_name(name: str) -> bool:
    """A name that can be a folder of its own under hosts/ (Ansible allows more; ansible_host keeps the address)."""
    return bool(name) and "/" not in name and "\0" not in name and not name.startswith(".") and len(name.encode()) <= 200


LEGACY_SKIP = ("fleet-plan.json", "fleet-run.json", "fleet-check.json", "fleet.json", "fleet-record.json")


class FleetDir:
    """The folder's paths. A folder written before hosts/ existed (`<host>.json`, `<host>.verify.json`,
    `<host>.report.html` side by side) is read as it is (`legacy`), never written that way."""

    def __init__(self, root: str):
        self.root = os.path.abspath(root)
        self.legacy = not os.path.isdir(os.path.join(self.root, "hosts")) and any(
            n.endswith(".json") and n not in LEGACY_SKIP and not n.endswith(".verify.json") for n in _listdir(self.root))

    @property
    def record_path(self) -> str:
        return os.path.join(self.root, "fleet-record.json")

    @property
    def plan_path(self) -> str:
        return os.path.join(self.root, "fleet-plan.json")

    @property
    def hosts_dir(self) -> str:
        return os.path.join(self.root, "hosts")

    @property
    def private_dir(self) -> str:
        return os.path.join(self.root, "private")

    def host_dir(self, host: str) -> str:
        if not valid_host_name(host):
            raise ValueError(f"host name {host!r} cannot name a folder")
        return os.path.join(self.hosts_dir, host)

    def snapshot(self, host: str) -> str:
        if self.legacy:
            return os.path.join(self.root, self._name(host) + ".json")
        return os.path.join(self.host_dir(host), "snapshot.json")

    def verification(self, host: str) -> str:
        if self.legacy:
            return os.path.join(self.root, self._name(host) + ".verify.json")
        return os.path.join(self.host_dir(host), "verify.json")

    def report(self, host: str) -> str:
        if self.legacy:
            return os.path.join(self.root, self._name(host) + ".report.html")
        return os.path.join(self.host_dir(host), "report.html")

    @staticmethod
    def _name(host: str) -> str:
        if not valid_host_name(host):
            raise ValueError(f"host name {host!r} cannot name a file")
        return host

    def private(self, host: str) -> str:
        self.host_dir(host)  # the same names are valid
        return os.path.join(self.private_dir, host + ".json")

    def make(self) -> None:
        os.makedirs(self.hosts_dir, exist_ok=True)
        os.makedirs(self.private_dir, mode=0o700, exist_ok=True)
        os.chmod(self.private_dir, 0o700)

    def hosts_on_disk(self) -> list[str]:
        if self.legacy:
            return sorted(n[:-5] for n in _listdir(self.root) if n.endswith(".json") and n not in LEGACY_SKIP
                          and not n.endswith(".verify.json") and not n.endswith(".tmp") and valid_host_name(n[:-5]))
        try:
            return sorted(n for n in os.listdir(self.hosts_dir) if valid_host_name(n)
                          and os.path.isdir(os.path.join(self.hosts_dir, n)))
        except OSError:
            return []

    # -- the record ------------------------------------------------------------------------
    def read_record(self) -> dict[str, Any]:
        data = read_json(self.record_path)
        if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT or not isinstance(data.get("hosts"), dict):
            return {"format": RECORD_FORMAT, "hosts": {}, "runs": []}
        data["hosts"] = {h: r for h, r in data["hosts"].items() if isinstance(r, dict) and valid_host_name(h)}
        if not isinstance(data.get("runs"), list):
            data["runs"] = []
        return data

    @contextlib.contextmanager
    def updating(self) -> Iterator[dict[str, Any]]:
        """The record, to change in place; written back (atomically) when the block ends, under a lock."""
        os.makedirs(self.root, exist_ok=True)
        fd = os.open(os.path.join(self.root, ".fleet-record.lock"), os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            rec = self.read_record()
            yield rec
            write_json(self.record_path, rec)
        finally:
            os.close(fd)


def _listdir(d: str) -> list[str]:
    try:
        return os.listdir(d)
    except OSError:
        return []


def host_row(rec: dict[str, Any], host: str) -> dict[str, Any]:
    row = rec["hosts"].setdefault(host, {})
    if not isinstance(row.get("runs"), list):
        row["runs"] = []
    return row


def append_run(row: dict[str, Any], entry: dict[str, Any]) -> None:
    row["runs"].append(entry)
    del row["runs"][:-MAX_RUNS_PER_HOST]


_AUTH = re.compile(r"(?i)\b(?:proxy-)?authorization\s*[:=]|(?<![\w-])--?(?:password|passwd|token|api-?key|secret|access-?key)(?:[= ]|$)")


def hide_credentials(s: str) -> str:
    """URLs' user:password@ and token@ parts as ***@ (redaction's own patterns)."""
    from app.report.redact.network import RE_URL_CRED, RE_URL_TOKEN

    s = RE_URL_CRED.sub(lambda m: f"{m.group(1)}***@{m.group(4) or ''}", s)
    return RE_URL_TOKEN.sub(lambda m: f"{m.group(1)}***@", s)


def holds_credentials(s: str) -> bool:
    """A URL with credentials, an authorization header or a password/token flag: a secret to keep out of
    playbooks and logs."""
    return hide_credentials(s) != s or bool(_AUTH.search(s))


def one_line(text: Any) -> str:
    """A reason as one line, without credentials, at most MAX_REASON characters."""
    s = hide_credentials(" ".join(str(text or "").split()))
    return s if len(s) <= MAX_REASON else s[:MAX_REASON - 1] + "…"


def read_json(path: str, max_bytes: int = 64 << 20) -> Optional[Any]:
    """A JSON file, or None when it is missing, unreadable, too big or nested too deep (never a traceback)."""
    from app import fileio

    try:
        return fileio.read_json(path, limit=max_bytes)
    except (OSError, ValueError, UnicodeDecodeError, RecursionError):
        return None


def write_json(path: str, data: Any, mode: int = 0o644) -> None:
    write_bytes(path, (json.dumps(data, indent=1, ensure_ascii=False) + "\n").encode("utf-8"), mode)


def write_bytes(path: str, data: bytes, mode: int = 0o644) -> None:
    """Atomically, through the project's one atomic writer (app.fileio): `mode` from the start."""
    from app import fileio

    fileio.write_atomic(path, data, mode=mode, keep_mode=False)


_TASK_RE = re.compile(r"^\[[a-z_]+\]\s*")


def failure_reason(task: Optional[str], msg: Optional[str]) -> str:
    return one_line(f"{task}: {msg}" if task and msg else (msg or task or ""))
