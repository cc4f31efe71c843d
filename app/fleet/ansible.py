"""The one place the wizard talks to Ansible: finding `ansible-playbook`/`ansible-inventory`
(ansible-core, the `fleet` extra), reading an inventory through Ansible's own parser, writing
playbooks as YAML, and running a playbook with its output streamed line by line.

Nothing here opens an SSH connection: Ansible does that, with its forks, strategies and
connection plugins. The wizard reads its `PLAY RECAP` to know each host's outcome.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Sequence

from app import fileio


class FleetError(Exception):
    """A fleet failure to say in one line (code 2: bad input, 1: the run failed)."""

    def __init__(self, message: str, code: int = 2):
        super().__init__(message)
        self.code = code


def find_tool(name: str) -> str:
    """`ansible-playbook` etc.: beside this interpreter first (the venv the wizard runs in), then PATH."""
    here = os.path.join(os.path.dirname(sys.executable), name)
    if os.path.isfile(here) and os.access(here, os.X_OK):
        return here
    found = shutil.which(name)
    if found:
        return found
    raise FleetError(f"{name} not found: install Ansible with `pip install 'gpu-setup-wizard[fleet]'` "
                     "(ansible-core) or put it on PATH", 2)


def ansible_env(extra: Optional[dict[str, str]] = None) -> dict[str, str]:
    env = dict(os.environ)
    env.setdefault("ANSIBLE_RETRY_FILES_ENABLED", "False")
    env.setdefault("ANSIBLE_LOCALHOST_WARNING", "False")
    env.setdefault("ANSIBLE_INVENTORY_UNPARSED_WARNING", "False")
    env.setdefault("ANSIBLE_DEPRECATION_WARNINGS", "False")
    env.setdefault("ANSIBLE_SYSTEM_WARNINGS", "False")
    env.setdefault("PYTHONUNBUFFERED", "1")
    if not sys.stdout.isatty():
        env.setdefault("ANSIBLE_NOCOLOR", "1")
    env.update(extra or {})
    return env


# ---------------------------------------------------------------------------------------
# inventory

@dataclass
class Inventory:
    path: str
    hosts: list[str]  # inventory_hostname, in inventory order
    hostvars: dict[str, dict[str, Any]]
    groups: dict[str, list[str]] = field(default_factory=dict)

    def var(self, host: str, name: str, default: Any = None) -> Any:
        return self.hostvars.get(host, {}).get(name, default)

    def snapshot_path(self, host: str) -> Optional[str]:
        """The host's `gpu_wizard_snapshot`, relative paths taken from the inventory's folder."""
        p = self.var(host, "gpu_wizard_snapshot")
        if not p:
            return None
        p = os.path.expanduser(str(p))
        if not os.path.isabs(p):
            base = self.path if os.path.isdir(self.path) else os.path.dirname(os.path.abspath(self.path))
            p = os.path.join(base, p)
        return p


def read_inventory(path: str, limit: Optional[str] = None) -> Inventory:
    """The inventory as Ansible sees it (`ansible-inventory --list`): hosts, groups and host vars."""
    if not os.path.exists(path):
        raise FleetError(f"inventory not found: {path}", 2)
    argv = [find_tool("ansible-inventory"), "-i", path, "--list"]
    if limit:
        argv += ["--limit", limit]
    r = subprocess.run(argv, capture_output=True, text=True, env=ansible_env(), timeout=300)
    if r.returncode != 0:
        msg = (r.stderr.strip().splitlines() or ["ansible-inventory failed"])[-1]
        raise FleetError(f"cannot read inventory {path}: {msg}", 2)
    try:
        data = fileio.loads(r.stdout)
    except ValueError:
        raise FleetError(f"cannot read inventory {path}: ansible-inventory printed no JSON", 2) from None
    hostvars = (data.get("_meta") or {}).get("hostvars") or {}
    groups: dict[str, list[str]] = {}
    order: list[str] = []

    def walk(group: str, seen: set[str]) -> None:
        if group in seen:
            return
        seen.add(group)
        g = data.get(group) or {}
        for h in g.get("hosts") or ():
            groups.setdefault(group, []).append(h)
            if h not in order:
                order.append(h)
        for child in g.get("children") or ():
            walk(child, seen)

    walk("all", set())
    for h in hostvars:
        if h not in order:
            order.append(h)
    if not order:
        raise FleetError(f"inventory {path} names no hosts" + (f" matching --limit {limit}" if limit else ""), 2)
    bad = [h for h in order if not h or "/" in h or "\0" in h or h.startswith(".")]
    if bad:  # each host's results are files named after it
        raise FleetError(f"inventory {path}: host name {bad[0]!r} cannot name a file; rename it (ansible_host keeps the address)", 2)
    return Inventory(path=os.path.abspath(path), hosts=order, hostvars={h: hostvars.get(h, {}) for h in order}, groups=groups)


# ---------------------------------------------------------------------------------------
# YAML out (PyYAML comes with ansible-core)

class Unsafe(str):
    """A literal Ansible must never template (`!unsafe`): plan text with braces stays text."""


class Block(str):
    """A multi-line string written as a YAML literal block."""


def _yaml():
    try:
        import yaml
    except ImportError:
        raise FleetError("PyYAML is missing: install the fleet extra (`pip install 'gpu-setup-wizard[fleet]'`)", 2) from None
    return yaml


def dump_yaml(data: Any) -> str:
    yaml = _yaml()
    safe_dumper: Any = yaml.SafeDumper  # PyYAML has no type hints

    class Dumper(safe_dumper):
        pass

    def unsafe(d, s):
        return d.represent_scalar("!unsafe", str(s), style="|" if "\n" in s else "'")

    def block(d, s):
        return d.represent_scalar("tag:yaml.org,2002:str", str(s), style="|" if "\n" in s else None)

    def plain_str(d, s):
        return d.represent_scalar("tag:yaml.org,2002:str", s, style="|" if "\n" in s else None)

    Dumper.add_representer(Unsafe, unsafe)
    Dumper.add_representer(Block, block)
    Dumper.add_representer(str, plain_str)
    return yaml.dump(data, Dumper=Dumper, sort_keys=False, width=1_000_000, allow_unicode=True, default_flow_style=False)


_TEMPLATE_CHARS = re.compile(r"\{[{%#]|[}%#]\}")


def lit(s: str) -> str:
    """A value from plan data: marked !unsafe when Ansible would otherwise template it."""
    return Unsafe(s) if _TEMPLATE_CHARS.search(s) else s


# ---------------------------------------------------------------------------------------
# running a playbook

RECAP_RE = re.compile(r"^(?P<host>\S+)\s+:\s+ok=(?P<ok>\d+)\s+changed=(?P<changed>\d+)\s+unreachable=(?P<unreachable>\d+)\s+"
                      r"failed=(?P<failed>\d+)(?:\s+skipped=(?P<skipped>\d+))?(?:\s+rescued=(?P<rescued>\d+))?"
                      r"(?:\s+ignored=(?P<ignored>\d+))?")
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


@dataclass
class HostRecap:
    host: str
    ok: int = 0
    changed: int = 0
    unreachable: int = 0
    failed: int = 0
    skipped: int = 0
    rescued: int = 0
    ignored: int = 0

    @property
    def status(self) -> str:
        if self.unreachable:
            return "unreachable"
        if self.failed or self.rescued:  # the fleet plan rescues a failed host so the others go on
            return "failed"
        return "changed" if self.changed else "ok"

    def to_json(self) -> dict[str, Any]:
        return {"host": self.host, "status": self.status, "ok": self.ok, "changed": self.changed,
                "unreachable": self.unreachable, "failed": self.failed, "skipped": self.skipped,
                "rescued": self.rescued, "ignored": self.ignored}


@dataclass
class PlaybookResult:
    rc: int
    recap: dict[str, HostRecap]
    duration_s: float
    output_tail: list[str]

    @property
    def failed_hosts(self) -> list[str]:
        return [h for h, r in self.recap.items() if r.status in ("failed", "unreachable")]


def parse_recap(lines: Sequence[str]) -> dict[str, HostRecap]:
    out: dict[str, HostRecap] = {}
    in_recap = False
    for raw in lines:
        line = _ANSI.sub("", raw).rstrip()
        if line.startswith("PLAY RECAP"):
            in_recap = True
            continue
        if in_recap:
            m = RECAP_RE.match(line)
            if m:
                out[m["host"]] = HostRecap(m["host"], **{k: int(v) for k, v in m.groupdict().items() if k != "host" and v})
    return out


def run_playbook(playbook: str, inventory: str, *, limit: Optional[str] = None, check: bool = False,
                 forks: Optional[int] = None, extra_vars: Optional[dict[str, Any]] = None, verbose: int = 0,
                 extra_args: Sequence[str] = (), on_line: Optional[Callable[[str], None]] = None,
                 timeout_s: float = 6 * 3600, env: Optional[dict[str, str]] = None) -> PlaybookResult:
    """Run `ansible-playbook` (argv list), streaming each output line to `on_line` as it comes."""
    argv = [find_tool("ansible-playbook"), "-i", inventory, playbook]
    if limit:
        argv += ["--limit", limit]
    if check:
        argv.append("--check")
    if forks:
        argv += ["--forks", str(int(forks))]
    if extra_vars:
        argv += ["--extra-vars", json.dumps(extra_vars)]
    if verbose:
        argv.append("-" + "v" * min(verbose, 4))
    argv += list(extra_args)
    start = time.monotonic()
    tail: list[str] = []
    lines: list[str] = []
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace",
                            env=ansible_env(env), start_new_session=True)
    timer = threading.Timer(timeout_s, lambda: _stop(proc))
    timer.daemon = True
    timer.start()
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line)
            tail.append(line.rstrip("\n"))
            if len(tail) > 200:
                del tail[:100]
            if on_line:
                on_line(line)
        rc = proc.wait()
    except KeyboardInterrupt:
        _stop(proc)
        raise
    finally:
        timer.cancel()
    return PlaybookResult(rc=rc, recap=parse_recap(lines), duration_s=time.monotonic() - start, output_tail=tail)


def _stop(proc: subprocess.Popen) -> None:
    import signal

    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except (ProcessLookupError, PermissionError):
        return
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def syntax_check(playbook: str, inventory: str) -> tuple[bool, str]:
    r = subprocess.run([find_tool("ansible-playbook"), "-i", inventory, "--syntax-check", playbook],
                       capture_output=True, text=True, env=ansible_env(), timeout=300)
    return r.returncode == 0, (r.stdout + r.stderr).strip()
