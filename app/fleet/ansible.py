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


def read_inventory(path: str, limit: Optional[str] = None, meanwhile: Optional[Callable[[], Any]] = None) -> Inventory:
    """The inventory as Ansible sees it (`ansible-inventory --list`): hosts, groups and host vars.
    `meanwhile` runs in this process while ansible-inventory works (e.g. imports the work after it needs)."""
    if not os.path.exists(path):
        raise FleetError(f"inventory not found: {path}", 2)
    argv = [find_tool("ansible-inventory"), "-i", path, "--list"]
    if limit:
        argv += ["--limit", limit]
    with subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          env=ansible_env()) as proc:
        try:
            if meanwhile is not None:
                meanwhile()
            out, err = proc.communicate(timeout=300)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            raise FleetError(f"cannot read inventory {path}: ansible-inventory did not answer in 300 s", 2) from None
        except BaseException:
            proc.kill()
            proc.wait()
            raise
    if proc.returncode != 0:
        msg = (err.strip().splitlines() or ["ansible-inventory failed"])[-1]
        raise FleetError(f"cannot read inventory {path}: {msg}", 2)
    try:
        data = fileio.loads(out)
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
    """A literal Ansible must never template (`!unsafe`). Every string is written this way unless it is
    a `Tmpl`: plan text, host facts and snapshot values stay text wherever they land."""


class Tmpl(str):
    """A Jinja template (or conditional) that the wizard itself wrote: the only kind of string the
    playbooks let Ansible template. Host or snapshot text never becomes one: `tjoin` puts such text
    beside a template only when it cannot open a Jinja tag."""


class Block(str):
    """A multi-line string written as a YAML literal block (data: `!unsafe` like any other)."""


# keys whose plain string Ansible evaluates as a Jinja expression even without braces
CONDITIONAL_KEYS = frozenset({"when", "changed_when", "failed_when", "until", "that", "loop", "with_items",
                              "delegate_to", "serial", "max_fail_percentage"})
_OPENS_TEMPLATE = re.compile(r"\{[{%#]")


def tjoin(*parts: str) -> Tmpl:
    """A template made of the wizard's own templates and literal text: refused when the text could
    open a Jinja tag (such a value reaches Ansible only as a whole, `!unsafe`)."""
    for p in parts:
        if not isinstance(p, Tmpl) and "{" in p:
            raise FleetError(f"a plan value would be joined to a template and holds '{{': {p[:80]!r}; "
                             "it is not written into the playbook", 1)
    return Tmpl("".join(parts))


def check_trust(obj: Any, key: str = "") -> None:
    """Every conditional the playbook holds is one the wizard wrote (`Tmpl`), never plain data."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            check_trust(v, str(k))
    elif isinstance(obj, list):
        for v in obj:
            check_trust(v, key)
    elif isinstance(obj, str) and key in CONDITIONAL_KEYS and not isinstance(obj, Tmpl):
        raise FleetError(f"internal: the {key}: {obj[:60]!r} of a task is not the wizard's own expression", 1)


def _yaml() -> Any:
    try:
        import yaml
    except ImportError:
        raise FleetError("PyYAML is missing: install the fleet extra (`pip install 'gpu-setup-wizard[fleet]'`)", 2) from None
    return yaml


def _style(s: str) -> Optional[str]:
    return "|" if "\n" in s else None


def dump_yaml(data: Any) -> str:
    """YAML for Ansible: a `Tmpl` is written plain (Ansible templates it); every other string that
    holds a brace is written `!unsafe` (Ansible never templates it: host data stays data, in task
    names, arguments, variables and the vars files alike). Strings without a brace cannot template."""
    yaml = _yaml()
    check_trust(data)

    def increase_indent(self: Any, flow: bool = False, indentless: bool = False) -> Any:
        return yaml.SafeDumper.increase_indent(self, flow, False)  # lists indented under their key (yamllint's way)

    Dumper: Any = type("Dumper", (yaml.SafeDumper,), {"increase_indent": increase_indent})

    def template(d, s):
        return d.represent_scalar("tag:yaml.org,2002:str", str(s), style=_style(s))

    def data_str(d, s):
        s = str(s)
        if "{" in s or "%" in s:
            return d.represent_scalar("!unsafe", s, style=_style(s) or "'")
        return d.represent_scalar("tag:yaml.org,2002:str", s, style=_style(s))

    def always_unsafe(d: Any, s: str) -> Any:
        return d.represent_scalar("!unsafe", str(s), style=_style(s) or "'")

    Dumper.add_representer(Tmpl, template)
    Dumper.add_representer(Unsafe, always_unsafe)
    Dumper.add_representer(Block, data_str)
    Dumper.add_representer(str, data_str)
    return "---\n" + yaml.dump(data, Dumper=Dumper, sort_keys=False, width=120, indent=2, allow_unicode=True,
                     default_flow_style=False)


def trusted_loader() -> Any:
    """A YAML loader that reads back what `dump_yaml` wrote with the same trust: `!unsafe` as data,
    plain strings as the wizard's templates (`fleet run` sets play options on a written playbook)."""
    yaml = _yaml()

    Loader: Any = type("Loader", (yaml.SafeLoader,), {})
    Loader.add_constructor("!unsafe", lambda loader, node: Unsafe(loader.construct_scalar(node)))
    Loader.add_constructor("tag:yaml.org,2002:str", lambda loader, node: Tmpl(loader.construct_scalar(node)))
    return Loader


def lit(s: str) -> str:
    """A value from plan data (kept for callers: every non-`Tmpl` string is data already)."""
    return Unsafe(s)


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
    # per host, from the wizard's callback plugin: started, failed {task, msg}, unreachable {task, msg}
    outcome: dict[str, dict[str, Any]] = field(default_factory=dict)

    def reason(self, host: str) -> str:
        o = self.outcome.get(host) or {}
        bad = o.get("unreachable") or o.get("failed")
        if isinstance(bad, dict):
            return f"{bad.get('task') or ''}: {bad.get('msg') or ''}".strip(": ")
        return ""

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
                 timeout_s: float = 6 * 3600, env: Optional[dict[str, str]] = None,
                 limit_hosts: Optional[Sequence[str]] = None) -> PlaybookResult:
    """Run `ansible-playbook` (argv list), streaming each output line to `on_line` as it comes."""
    import tempfile

    work = tempfile.mkdtemp(prefix="gpu-wizard-ansible-")
    argv = [find_tool("ansible-playbook"), "-i", inventory, playbook]
    if limit_hosts is not None:  # a host list of any length: Ansible's `--limit @FILE`
        lf = os.path.join(work, "limit")
        with open(lf, "w", encoding="utf-8") as f:
            f.write("".join(h + "\n" for h in limit_hosts))
        argv += ["--limit", "@" + lf]
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
    out_file = os.path.join(work, "outcome.json")
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace",
                            env=ansible_env({**record_callback_env(out_file), **(env or {})}), start_new_session=True)
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
        outcome = _read_outcome(out_file)
        shutil.rmtree(work, ignore_errors=True)
    return PlaybookResult(rc=rc, recap=parse_recap(lines), duration_s=time.monotonic() - start, output_tail=tail,
                          outcome=outcome)


CALLBACK_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "callback")


def record_callback_env(out_file: str) -> dict[str, str]:
    """The wizard's callback plugin (app/fleet/callback) beside any the admin enabled."""
    dirs = [CALLBACK_DIR] + [d for d in os.environ.get("ANSIBLE_CALLBACK_PLUGINS", "").split(os.pathsep) if d]
    enabled = [c for c in os.environ.get("ANSIBLE_CALLBACKS_ENABLED", "").split(",") if c.strip()] + ["gpu_wizard_record"]
    return {"ANSIBLE_CALLBACK_PLUGINS": os.pathsep.join(dirs), "ANSIBLE_CALLBACKS_ENABLED": ",".join(enabled),
            "GPU_WIZARD_RECORD_OUT": out_file}


def _read_outcome(path: str) -> dict[str, dict[str, Any]]:
    from app import fileio

    try:
        data = fileio.read_json(path)
        hosts = data.get("hosts") if isinstance(data, dict) else None
        return {str(k): v for k, v in hosts.items() if isinstance(v, dict)} if isinstance(hosts, dict) else {}
    except (OSError, ValueError, RecursionError):
        return {}


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
