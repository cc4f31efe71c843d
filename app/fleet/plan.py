"""Each host's own plan from the single-machine engine (app/plan), as one Ansible playbook.

`host_plan(snapshot, choices)` is exactly what `gpu-wizard --snapshot FILE plan` computes (the same
pipeline, app/pipeline.py). `step_tasks(step)` turns one Step into Ansible tasks that say what they do:

- packages: `ansible.builtin.apt` / `ansible.builtin.dnf` with the names (and `=version` pins) the
  single-machine plan gives; a downloaded `.deb` through `apt: deb=`; an exact driver version
  (`gpu_wizard_driver_version`) is installed as `name=version` and held (`dpkg_selections: hold`);
- downloads: `ansible.builtin.get_url` with `checksum: sha256:<hex>` (or the checksum the plan
  names: the SHA256 field of a Debian `Packages` index, read on the host; a sums file URL);
- file edits: `copy`/`blockinfile`/`lineinfile` with `backup: true`; INI settings (`.wslconfig`,
  `/etc/wsl.conf`) by the engine's own INI editor on the host, which backs the file up first;
- the PyTorch venv: `ansible.builtin.pip` with `virtualenv` (and `virtualenv_command`);
- a restart through the play's handler (`gpu-wizard reboot`: restart, wait, then check the driver
  answers), notified by a step that needs one only when that step changed something, and flushed
  before the verification steps; `gpu_wizard_skip_reboot` (`fleet plan --skip-reboot`) leaves it.

Every task carries a tag for its kind of step (`driver`, `cuda`, `pytorch`, `verify`, `system`).
Steps that are plain commands are guarded by the step's own `done_when` checks, evaluated on the
host by the engine (`fleet done`), so a second run skips them; under `--check` the checks run from
Ansible's own temporary copy of the engine (`script`), nothing is written, and a command that would
run is counted as a change.

Trust: host and snapshot text reaches Ansible only as data (app.fleet.ansible: every string that is
not a `Tmpl` the wizard wrote is `!unsafe` when it holds a brace); credentials go to a vars file of
mode 0600 beside the playbook and their tasks carry `no_log`.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shlex
from dataclasses import dataclass, field
from typing import Any, Optional

from .ansible import FleetError, Inventory, Tmpl, Unsafe, dump_yaml, tjoin

HOME_SENTINEL = "/__gpu_wizard_home__"
DEFAULT_VENV = HOME_SENTINEL + "/.venvs/gpu"
PYZ = Tmpl("{{ gw_dir.path }}/gpu-wizard.pyz")
PY = Tmpl("{{ gpu_wizard_python | default('python3') }}")
DL = Tmpl("{{ gw_dir.path }}/downloads")
HOME = Tmpl("{{ gw_home }}")
WIN_HOME = Tmpl("{{ gw_win_home }}")
# Root (become) tasks never run or read what the connecting user can write (issue 14's rule):
# they use a copy of the engine that root itself creates (O_CREAT|O_EXCL) in a root-owned folder,
# checked against the digest the controller computed, and keep their downloads and backups there.
ROOT_DIR = Tmpl("{{ gpu_wizard_root_dir | default('/var/lib/gpu-wizard/fleet') }}")
ROOT_PYZ = tjoin(ROOT_DIR, "/gpu-wizard.pyz")
ROOT_DL = tjoin(ROOT_DIR, "/downloads")
ROOT_ENV = {"GPU_WIZARD_CACHE": ROOT_DIR}  # the engine unpacks itself beside the root copy, nowhere else
CHECK_MODE = Tmpl("ansible_check_mode")
NOT_CHECK_MODE = Tmpl("not ansible_check_mode")
REBOOT_HANDLER = "gpu-wizard reboot"
SCRIPT_ENGINE = "{{ (playbook_dir + '/gpu-wizard.pyz') | quote }}"  # check mode: Ansible's own temporary copy

# host variables that override the command line's choices for one host
HOST_CHOICE_VARS = {
    "gpu_wizard_venv": "venv",
    "gpu_wizard_torch": "torch",
    "gpu_wizard_variant": "variant",
    "gpu_wizard_toolkit": "toolkit",
    "gpu_wizard_cudnn": "cudnn",
    "gpu_wizard_method": "method",
    "gpu_wizard_no_driver": "no_driver",
    "gpu_wizard_no_cleanup": "no_cleanup",
    "gpu_wizard_pytorch_mirror": "pytorch_mirror",
    "gpu_wizard_pypi_mirror": "pypi_mirror",
    "gpu_wizard_nvidia_mirror": "nvidia_mirror",
    "gpu_wizard_offline": "offline",
}
_BOOL = {"toolkit", "cudnn", "no_driver", "no_cleanup", "offline"}
DRIVER_VERSION_RE = re.compile(r"^[0-9][0-9A-Za-z.+~:_-]{0,63}$")

# the tag of each kind of step: `fleet run --tags driver` applies only the driver
STEP_TAGS = {
    "install_driver": "driver", "blacklist_nouveau": "driver",
    "install_toolkit": "cuda", "run_runfile": "cuda", "install_cudnn": "cuda", "cleanup_cuda": "cuda",
    "write_env": "cuda", "add_repo": "system", "set_repo_mirror": "system", "update_index": "system",
    "wsl_fix": "system", "install_python_tools": "pytorch", "create_venv": "pytorch", "install_pytorch": "pytorch",
    "verify": "verify",
}


def step_tag(step: Any) -> str:
    return STEP_TAGS.get(step.kind, "system")


@dataclass
class HostPlan:
    host: str
    plan: Any  # app.plan.Plan
    tasks: list[dict[str, Any]]
    error: Optional[str] = None
    key: str = ""
    summary: dict[str, Any] = field(default_factory=dict)
    verify_tasks: list[dict[str, Any]] = field(default_factory=list)


# ---------------------------------------------------------------------------------------
# the single-machine engine, per host

def host_options(options: dict[str, Any], inv: Inventory, host: str) -> dict[str, Any]:
    """The choices' options for one host: the command line's, each overridden by the host's variables."""
    out = dict(options)
    for var, attr in HOST_CHOICE_VARS.items():
        v = inv.var(host, var)
        if v is None:
            continue
        if attr in _BOOL:
            v = v if isinstance(v, bool) else str(v).strip().lower() in ("1", "true", "yes", "on")
        else:
            v = str(v)
        out[attr] = v
    if not out.get("venv"):
        out["venv"] = DEFAULT_VENV
    return out


def plan_hosts(fd: Any, inv: Inventory, options: dict[str, Any]) -> tuple[list[HostPlan], dict[str, str]]:
    """Each host's plan through the pipeline `gpu-wizard plan` uses (app/pipeline.py), solved once per
    distinct (snapshot, choices): a thousand identical nodes cost one solve. Returns (plans, secrets)."""
    solved: dict[str, Any] = {}
    built: dict[str, tuple[list, list, dict[str, str]]] = {}
    plans: list[HostPlan] = []
    secrets: dict[str, str] = {}
    rows = fd.read_record()["hosts"] if hasattr(fd, "read_record") else {}
    for h in inv.hosts:
        private = os.path.isfile(fd.private(h))
        path = fd.private(h) if private else fd.snapshot(h)
        if not os.path.isfile(path):
            hp = HostPlan(h, None, [], error="not detected yet: run `gpu-wizard fleet detect` for it")
            hp.summary = summarize(hp)
            plans.append(hp)
            continue
        opts = host_options(options, inv, h)
        opts["driver_version"] = inv.var(h, "gpu_wizard_driver_version") or options.get("driver_version")
        key = _snapshot_key(path, (rows.get(h) or {}).get("snapshot") if private else None) + \
            json.dumps(opts, sort_keys=True, default=str)
        try:
            if key not in solved:
                try:
                    solved[key] = host_plan(path, opts)
                except Exception as e:  # the same snapshot and choices fail alike: said once, for each host
                    solved[key] = e
            plan = solved[key]
            if isinstance(plan, Exception):
                raise plan
            if key not in built:
                b = Builder(opts)
                built[key] = (plan_tasks(plan, b), verify_tasks(plan, b), b.secrets)
            tasks, vtasks, sec = built[key]
            secrets.update(sec)
            hp = HostPlan(h, plan, tasks, verify_tasks=vtasks)
        except Exception as e:  # FleetError, PipelineError, a broken snapshot: this host is not planned, the rest are
            msg = str(e).splitlines()[0] if str(e) else type(e).__name__
            hp = HostPlan(h, None, [], error=msg)
        hp.summary = summarize(hp)
        if hp.plan is not None and "source" in hp.summary.get("facts", {}):  # a shared plan: this host's own file
            hp.summary["facts"] = {**hp.summary["facts"], "source": f"snapshot:{os.path.basename(path)}"}
        plans.append(hp)
    return plans, secrets


def _snapshot_key(path: str, recorded: Any) -> str:
    """What a host's plan depends on in its snapshot file: the content key `fleet detect` recorded for exactly
    these bytes (hosts whose files differ only in when they were recorded plan alike), else the bytes."""
    try:
        with open(path, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
    except OSError as e:
        return "unreadable:" + str(e)
    if isinstance(recorded, dict) and recorded.get("sha256") == digest and isinstance(recorded.get("content"), str):
        return "content:" + recorded["content"]
    return "bytes:" + digest


def host_plan(path: str, opts: dict[str, Any]) -> Any:
    """One host's plan from its snapshot: exactly `gpu-wizard --snapshot FILE plan` with these options."""
    from app.pipeline import Pipeline, PipelineError, choices_from_options
    from app.system import SnapshotError, SnapshotSystem

    try:
        system = SnapshotSystem.load(path)
    except SnapshotError as e:
        raise FleetError(str(e), 2) from None
    pipe = Pipeline(system, db_path=opts.get("db"), live=False if opts.get("offline") else None,
                    config=lambda: _config(opts.get("config")))
    try:
        choices = choices_from_options(opts, pipe.facts())
        return pipe.plan(choices)
    except PipelineError as e:
        raise FleetError(str(e), e.code) from None


def _config(path: Optional[str]) -> Any:
    from app.config import ConfigError, load_config

    try:
        return load_config(path)
    except ConfigError as e:
        raise FleetError(str(e), 2) from None


# ---------------------------------------------------------------------------------------
# plan strings -> playbook values

def _placeholder(s: str) -> Optional[str]:
    from app.report.redact import PLACEHOLDER_RE

    m = PLACEHOLDER_RE.search(s)
    return m.group(0) if m else None


_WIN_PROFILE = re.compile(r"^/mnt/[a-z]/Users/<user-\d+>(?=/|$)")
_LINUX_HOME = re.compile(r"^/home/<user-\d+>(?=/|$)")


def _h(s: str, need: Optional[set[str]] = None) -> Any:
    """A plan string for the playbook: the home sentinel (and, from a redacted snapshot, a redacted
    home or Windows profile folder) becomes the host's own folder, read on the host at run time;
    every other value stays data. A value that still holds a redacted placeholder is refused: a
    plan is never made from what redaction hid."""
    if HOME_SENTINEL in s:
        return tjoin(*_split(s, HOME_SENTINEL, HOME))
    m = _WIN_PROFILE.match(s)
    if m:
        if need is not None:
            need.add("win_home")
        return tjoin(WIN_HOME, _checked(s[m.end():]))
    m = _LINUX_HOME.match(s)
    if m:
        return tjoin(HOME, _checked(s[m.end():]))
    return _checked(s)


def _checked(s: str) -> str:
    ph = _placeholder(s)
    if ph:
        raise FleetError(f"the plan would use {ph}, a value its snapshot had redacted ({s[:80]!r}); "
                         "plan from `fleet detect`'s private copy (DIR/private) or the host's own snapshot", 1)
    return s


def _split(s: str, sentinel: str, tmpl: Tmpl) -> list[str]:
    parts: list[str] = []
    for i, piece in enumerate(s.split(sentinel)):
        if i:
            parts.append(tmpl)
        if piece:
            parts.append(_checked(piece))
    return parts


def _shown(s: str) -> str:
    """Text for a task's name (Ansible prints it): the home sentinel as `~`, credentials in URLs hidden."""
    from .record import hide_credentials

    return hide_credentials(s.replace(HOME_SENTINEL, "~"))


def _engine(root: bool) -> list[str]:
    """How a task starts the engine: as root, `python3 -I` (no PYTHON* variables, no user site) on root's own copy."""
    return [PY, "-I", ROOT_PYZ] if root else [PY, PYZ]


def _argv(step: Any, argv: tuple[str, ...], dl: Tmpl, need: set[str]) -> list[Any]:
    names = {d.name for d in step.downloads}
    out: list[Any] = []
    for a in argv:
        if a.startswith("@download:") and a[len("@download:"):] in names:
            out.append(tjoin(dl, "/", a[len("@download:"):]))
        else:
            out.append(_h(a, need))
    return out


def _packages(argv: tuple[str, ...]) -> tuple[Optional[str], list[str], bool]:
    """('apt'|'dnf', packages, install_recommends) for a package-install argv, else (None, [], True)."""
    if not argv:
        return None, [], True
    tool = os.path.basename(argv[0])
    if tool in ("apt-get", "apt"):
        mgr = "apt"
    elif tool in ("dnf", "yum"):
        mgr = "dnf"
    else:
        return None, [], True
    rest = list(argv[1:])
    pkgs: list[str] = []
    verb = None
    i = 0
    recommends = True
    while i < len(rest):
        a = rest[i]
        if a in ("-o", "--option", "-c", "--setopt") and i + 1 < len(rest) and "=" not in a:
            i += 2
            continue
        if a == "--no-install-recommends" or a == "--setopt=install_weak_deps=False":
            recommends = False
        if a.startswith("-"):
            i += 1
            continue
        if verb is None:
            verb = a
        else:
            pkgs.append(a)
        i += 1
    if verb != "install" or not pkgs or any(p.startswith("@") or "/" in p for p in pkgs):
        return None, [], True
    return mgr, pkgs, recommends


def _is_update(argv: tuple[str, ...]) -> bool:
    return bool(argv) and os.path.basename(argv[0]) in ("apt-get", "apt") and "update" in argv[1:] and "install" not in argv


def _dpkg_install(argv: tuple[str, ...]) -> Optional[str]:
    if len(argv) == 3 and os.path.basename(argv[0]) == "dpkg" and argv[1] == "-i" and argv[2].startswith("@download:"):
        return argv[2][len("@download:"):]
    return None


class Builder:
    """The tasks of one host's plan, with what they need from the play: the host's Windows profile
    folder, credentials for the vars file (0600), the reboot handler."""

    def __init__(self, options: Optional[dict[str, Any]] = None):
        self.options = options or {}
        self.need: set[str] = set()
        self.secrets: dict[str, str] = {}

    def secret(self, value: str) -> Tmpl:
        key = "s" + hashlib.sha256(value.encode()).hexdigest()[:12]
        self.secrets[key] = value
        return Tmpl("{{ gw_secret.%s }}" % key)

    # -- file edits ------------------------------------------------------------------------
    def edit_tasks(self, step: Any, e: Any, become: bool, guard: Optional[Tmpl]) -> list[dict[str, Any]]:
        root = bool(e.needs_root) or become
        base: dict[str, Any] = {"become": root}
        if root:
            base["environment"] = dict(ROOT_ENV)
        if guard:
            base["when"] = guard
        path = _h(e.path, self.need)
        shown = _shown(e.path)
        if e.mode == "write":
            return [{"name": f"Write {shown} (the old file is backed up)", "ansible.builtin.copy": {
                "dest": path, "content": _h(e.content, self.need), "mode": f"{e.file_mode:04o}", "backup": True}, **base}]
        if e.mode == "append":
            return [{"name": f"Add the wizard's lines to {shown} (the old file is backed up)", "ansible.builtin.blockinfile": {
                "path": path, "block": _checked(e.content.rstrip("\n")), "create": True, "mode": f"{e.file_mode:04o}",
                "marker": f"# {{mark}} gpu-wizard {step.id}", "backup": True}, **base}]
        if e.mode == "remove_lines":
            return [{"name": f"Remove the line '{_shown(ln)}' from {shown} (the old file is backed up)",
                     "ansible.builtin.lineinfile": {"path": path, "regexp": "^\\s*" + re.escape(ln) + "\\s*$",
                                                    "state": "absent", "backup": True}, **base} for ln in e.lines]
        if e.mode == "delete":
            return [
                {"name": f"Back up {shown} before it is deleted", "ansible.builtin.copy": {
                    "src": path, "dest": _h(e.path + ".gpu-wizard.bak", self.need), "remote_src": True, "force": False,
                    "mode": "0600"}, "failed_when": False, **base},
                {"name": f"Delete {shown}", "ansible.builtin.file": {"path": path, "state": "absent"}, **base},
            ]
        if e.mode == "ini_set":
            return self._ini_tasks(step, e, root, base)
        raise FleetError(f"step {step.id}: edit mode {e.mode!r} has no Ansible form", 1)

    def _ini_tasks(self, step: Any, e: Any, root: bool, base: dict[str, Any]) -> list[dict[str, Any]]:
        keys = ", ".join(f"{k}={v}" for k, v in e.settings)
        edit = e.to_json()
        if _WIN_PROFILE.match(e.path) or HOME_SENTINEL in e.path or _LINUX_HOME.match(e.path):
            edit["path_env"] = "GW_EDIT_PATH"  # resolved on the host; the engine reads the path from it
        else:
            _checked(e.path)
        reg = f"gw_edit_{hashlib.sha1((step.id + e.path).encode()).hexdigest()[:8]}"
        env = {**base.get("environment", {}), "GW_EDIT": json.dumps(edit, sort_keys=True)}
        if "path_env" in edit:
            env["GW_EDIT_PATH"] = _h(e.path, self.need)
        name = f"Set {keys} under [{e.section}] in {_shown(e.path)} (the old file is backed up)"
        backups = tjoin(ROOT_DIR if root else Tmpl("{{ gw_dir.path }}"), "/backups")
        run = {"name": name, "ansible.builtin.command": {"argv": [*_engine(root), "fleet", "edit", "--edit-env", "GW_EDIT",
                                                                   "--backup-dir", backups]},
               **base, "environment": env, "register": reg, "changed_when": Tmpl(f"({reg}.stdout | trim) == 'changed'"),
               "when": _and(base.get("when"), NOT_CHECK_MODE)}
        dry = {"name": name + " (check mode: said, not written)",
               "ansible.builtin.script": {"cmd": Tmpl(SCRIPT_ENGINE + " fleet edit --edit-env GW_EDIT --check"),
                                          "executable": PY},
               "environment": {k: v for k, v in env.items() if k != "GPU_WIZARD_CACHE"}, "register": reg + "_chk",
               "check_mode": False, "changed_when": Tmpl(f"({reg}_chk.stdout | trim) == 'changed'"),
               "when": _and(base.get("when"), CHECK_MODE)}
        return [run, dry]

    # -- downloads -------------------------------------------------------------------------
    def download_tasks(self, step: Any, d: Any, become: bool, guard: Optional[Tmpl]) -> list[dict[str, Any]]:
        """A download, checked; under --check (which writes nothing, not even its folder) said and counted."""
        tasks = self._download_tasks(step, d, become, _and(guard, NOT_CHECK_MODE))
        tasks.append({"name": f"Download {_shown(d.url)}: would download (check mode)", "ansible.builtin.debug": {
            "msg": "would download"}, "changed_when": True, "when": _and(guard, CHECK_MODE)})
        return tasks

    def _download_tasks(self, step: Any, d: Any, become: bool, guard: Optional[Tmpl]) -> list[dict[str, Any]]:
        base: dict[str, Any] = {"become": True} if become else {}
        if guard:
            base["when"] = guard
        dest = tjoin(ROOT_DL if become else DL, "/", _checked(d.name))
        url = _checked(d.url)
        url_v: Any = url
        if self._is_secret(url):
            url_v = self.secret(url)
            base["no_log"] = True
        if d.sha256:
            return [{"name": f"Download {_shown(d.url)} (sha256 {d.sha256[:16]}… checked)", "ansible.builtin.get_url": {
                "url": url_v, "dest": dest, "checksum": "sha256:" + _hex(d.sha256), "mode": "0644"}, **base}]
        if not d.checksum_url:
            raise FleetError(f"step {step.id}: download {d.name} has no checksum; refusing to plan it", 1)
        curl: Any = _checked(d.checksum_url)
        if self._is_secret(curl):
            curl = self.secret(curl)
            base["no_log"] = True
        if d.checksum_url.rstrip("/").endswith("Packages"):
            reg = f"gw_pk_{hashlib.sha1(d.name.encode()).hexdigest()[:8]}"
            idx = tjoin(ROOT_DL if become else DL, "/", d.name, ".Packages")
            rx = "(?s)Filename: [^\\n]*" + re.escape(d.name) + "\\n(?:[^\\n]+\\n)*?SHA256: ([0-9a-f]{64})"
            return [
                {"name": f"Fetch the package index that publishes {_shown(d.name)}'s checksum", "ansible.builtin.get_url": {
                    "url": curl, "dest": idx, "mode": "0644", "force": True}, **base},
                {"name": f"Read {_shown(d.name)}'s SHA256 from that index", "ansible.builtin.slurp": {"src": idx},
                 "register": reg, **base},
                {"name": f"Download {_shown(d.url)} (checked against the index's SHA256)", "ansible.builtin.get_url": {
                    "url": url_v, "dest": dest, "mode": "0644",
                    "checksum": Tmpl("sha256:{{ %s.content | b64decode | regex_findall(gw_rx) | first | default('not-in-the-index') }}" % reg)},
                 "vars": {"gw_rx": rx}, **base},  # the pattern as data: no escapes through the template
            ]
        algo = "md5" if "md5" in d.checksum_url.lower() else "sha256"
        return [{"name": f"Download {_shown(d.url)} (checked against {_shown(d.checksum_url)})", "ansible.builtin.get_url": {
            "url": url_v, "dest": dest, "checksum": (tjoin(algo + ":", curl) if isinstance(curl, Tmpl) else f"{algo}:{curl}"),
            "mode": "0644"}, **base}]

    @staticmethod
    def _is_secret(s: str) -> bool:
        from .record import holds_credentials

        return holds_credentials(s)

    # -- one step --------------------------------------------------------------------------
    def step_tasks(self, step: Any, n: int) -> list[dict[str, Any]]:
        """The tasks for plan step number `n` (each tagged with the step's kind)."""
        tasks = self._step_tasks(step, n)
        if any(self._holds_secret(t) for t in tasks):
            for t in tasks:
                if self._holds_secret(t):
                    t["no_log"] = True
        tag = step_tag(step)
        for t in tasks:
            t["tags"] = [tag]
        return tasks

    def _holds_secret(self, task: dict[str, Any]) -> bool:
        return any(self._is_secret(s) for s in _strings({k: v for k, v in task.items() if k != "name"}))

    def _step_tasks(self, step: Any, n: int) -> list[dict[str, Any]]:
        become = bool(step.needs_root)
        reg = f"gw_s{n}"
        tasks: list[dict[str, Any]] = []
        label = f"[{step.id}] {_shown(step.title)}"
        env = {k: self._env_value(k, v) for k, v in sorted(step.env.items())}
        is_verify = step.kind == "verify"
        native = all(_packages(a)[0] or _dpkg_install(a) or _is_update(a) for a in step.commands) and step.commands \
            and not step.edits and not step.downloads
        guard: Optional[Tmpl] = None
        real_checks = [c for c in step.done_when if c.kind != "never"]
        # create_venv: Ansible's `creates` when its checks are only "this path exists"; otherwise (a venv
        # whose pip must run) the engine's own check decides, as for any plain command
        creates_only = bool(step.kind == "create_venv" and real_checks and all(c.kind == "path_exists" for c in real_checks))
        if real_checks and not is_verify and not native and not creates_only and step.kind != "install_pytorch":
            tasks += self._done_tasks(step, real_checks, label, reg, become)
            guard = Tmpl(f"({reg}_dchk if ansible_check_mode else {reg}_done).rc == 3")
        if step.downloads:
            tasks.append({"name": f"{label}: a folder for its downloads" + (" (root's own)" if become else ""),
                          "ansible.builtin.file": {"path": ROOT_DL if become else DL, "state": "directory", "mode": "0700",
                                                   **({"owner": "root", "group": "root"} if become else {})},
                          **({"become": True} if become else {}), "when": _and(guard, NOT_CHECK_MODE)})
        for d in step.downloads:
            tasks += self.download_tasks(step, d, become, guard)
        for e in step.edits:
            tasks += self.edit_tasks(step, e, become, guard)
        for i, argv in enumerate(step.commands):
            tasks += self._command_tasks(step, argv, i, label, reg, become, env, guard, creates_only, real_checks)
        if step.reboot_required:  # the play's handler restarts the host once, after every plan's changes
            for t in tasks:
                if t.get("changed_when") is not False and not any(k in t for k in ("ansible.builtin.debug", "ansible.builtin.slurp")):
                    t["notify"] = [REBOOT_HANDLER]
        return tasks

    def _env_value(self, name: str, value: str) -> Any:
        from app.report.redact import is_secret_name

        v = _h(value, self.need) if (HOME_SENTINEL in value or _placeholder(value)) else value
        if isinstance(v, str) and not isinstance(v, Tmpl) and (is_secret_name(name) or self._is_secret(v)):
            return self.secret(v)
        return v

    def _done_tasks(self, step: Any, checks: list[Any], label: str, reg: str, become: bool) -> list[dict[str, Any]]:
        data = json.dumps([c.to_json() for c in checks], sort_keys=True)
        home_env: dict[str, Any] = {}
        if HOME_SENTINEL in data or _WIN_PROFILE.search(data) or _LINUX_HOME.search(data):
            home_env = {"GW_HOME": HOME, **({"GW_WIN_HOME": WIN_HOME} if "/mnt/" in data else {})}
            data = data.replace(HOME_SENTINEL, "@home@")
            data = re.sub(r"/mnt/[a-z]/Users/<user-\d+>", "@win_home@", data)
            data = re.sub(r"/home/<user-\d+>", "@home@", data)
            if "@win_home@" in data:
                self.need.add("win_home")
        _checked(data)
        what = "; ".join(_shown(c.describe()) for c in checks)
        env = {"GW_CHECKS": data, **home_env}
        return [
            {"name": f"{label}: already done? ({what})",
             "ansible.builtin.command": {"argv": [*_engine(become), "fleet", "done", "--checks-env", "GW_CHECKS"]},
             "register": f"{reg}_done", "changed_when": False, "failed_when": Tmpl(f"{reg}_done.rc not in [0, 3]"),
             "become": become, "environment": {**env, **(ROOT_ENV if become else {})}, "when": NOT_CHECK_MODE},
            {"name": f"{label}: already done? (check mode: from Ansible's own temporary copy of the engine)",
             "ansible.builtin.script": {"cmd": Tmpl(SCRIPT_ENGINE + " fleet done --checks-env GW_CHECKS"),
                                        "executable": PY},
             "register": f"{reg}_dchk", "changed_when": False, "check_mode": False,
             "failed_when": Tmpl(f"{reg}_dchk.rc not in [0, 3]"), "environment": env, "when": CHECK_MODE},
        ]

    def _command_tasks(self, step: Any, argv: tuple[str, ...], i: int, label: str, reg: str, become: bool,
                       env: dict[str, Any], guard: Optional[Tmpl], creates_only: bool, real_checks: list[Any]) -> list[dict[str, Any]]:
        t: dict[str, Any] = {"name": label if len(step.commands) == 1 else f"{label} ({i + 1}/{len(step.commands)})"}
        r = f"{reg}_c{i}"
        mgr, pkgs, recommends = _packages(argv)
        deb = _dpkg_install(argv)
        plain = False
        hold: list[dict[str, Any]] = []
        if mgr in ("apt", "dnf"):
            pkgs, hold = self._driver_version(step, mgr, pkgs)
            t[f"ansible.builtin.{mgr}"] = {"name": [_checked(p) for p in pkgs], "state": "present",
                                           **({} if recommends or mgr == "dnf" else {"install_recommends": False})}
        elif deb:
            t["ansible.builtin.apt"] = {"deb": tjoin(ROOT_DL if become else DL, "/", deb)}
        elif _is_update(argv):
            t["ansible.builtin.apt"] = {"update_cache": True}
            t["changed_when"] = False  # a fresh package index changes no configuration
        elif step.kind == "install_pytorch" and len(argv) > 4 and argv[1:4] == ("-m", "pip", "install"):
            t.update(self._pip_task(argv))
        else:
            plain = True
            cmd: dict[str, Any] = {"argv": _argv(step, argv, ROOT_DL if become else DL, self.need)}
            if creates_only:
                cmd["creates"] = _h(real_checks[0].args[0], self.need)
            t["ansible.builtin.command"] = cmd
            t["changed_when"] = False if step.kind == "verify" else True
            if tuple(step.ok_exit_codes) != (0,):
                t["failed_when"] = Tmpl(f"{r}.rc not in {list(int(c) for c in step.ok_exit_codes)}")
        t["register"] = r
        if become:
            t["become"] = True
        if env:
            t["environment"] = env
        if guard:
            t["when"] = guard
        out = [t]
        if plain and step.kind != "verify":  # check mode skips a command: say it would run, counted as a change
            out.append({"name": f"{label}: would run (check mode)", "ansible.builtin.debug": {"msg": "would run"},
                        "changed_when": True, "when": _and(guard, CHECK_MODE)})
            t["when"] = _and(guard, NOT_CHECK_MODE)
        return out + [dict(h, **({"when": guard} if guard else {})) for h in hold]

    def _driver_version(self, step: Any, mgr: str, pkgs: list[str]) -> tuple[list[str], list[dict[str, Any]]]:
        """An exact driver version (`gpu_wizard_driver_version`): the driver package at that version, then held."""
        version = self.options.get("driver_version")
        if step.kind != "install_driver" or not version:
            return pkgs, []
        if not DRIVER_VERSION_RE.match(str(version)):
            raise FleetError(f"gpu_wizard_driver_version {str(version)[:40]!r} is not a package version", 2)
        drivers = [p for p in pkgs if p.startswith(("nvidia-driver", "nvidia-open", "cuda-drivers")) and "=" not in p]
        if not drivers:
            return pkgs, []
        sep = "=" if mgr == "apt" else "-"
        pinned = [f"{p}{sep}{version}" if p in drivers else p for p in pkgs]
        if mgr != "apt":  # dnf: the plan's versionlock (or module stream) holds the branch
            return pinned, []
        return pinned, [{"name": f"Hold {p} at {version} (apt-mark hold: upgrades leave it)",
                         "ansible.builtin.dpkg_selections": {"name": p, "selection": "hold"}, "become": True} for p in drivers]

    def _pip_task(self, argv: tuple[str, ...]) -> dict[str, Any]:
        """`<venv>/bin/python -m pip install PKGS [--index-url ...]` as ansible.builtin.pip with virtualenv."""
        venv = os.path.dirname(os.path.dirname(argv[0]))
        rest = list(argv[4:])
        extra: list[str] = []
        pkgs: list[str] = []
        i = 0
        while i < len(rest):
            a = rest[i]
            if a.startswith("-"):
                extra.append(a)
                if a in ("--index-url", "--extra-index-url", "--cert", "-i", "--find-links", "--trusted-host") and i + 1 < len(rest):
                    extra.append(rest[i + 1])
                    i += 1
            else:
                pkgs.append(a)
            i += 1
        args: Any = shlex.join(extra) if extra else None
        if args and self._is_secret(args):
            args = self.secret(args)
        elif args:
            args = _h(args, self.need)
        return {"ansible.builtin.pip": {
            "name": [_checked(p) for p in pkgs], "virtualenv": _h(venv, self.need),
            "virtualenv_command": tjoin(PY, " -m venv"), **({"extra_args": args} if args else {})}}


def _hex(s: str) -> str:
    if not re.fullmatch(r"[0-9a-fA-F]{64}", s):
        raise FleetError(f"a download's sha256 is not 64 hex digits: {s[:70]!r}", 1)
    return s.lower()


def _and(*conds: Optional[Tmpl]) -> Tmpl:
    parts = [c for c in conds if c]
    return Tmpl(" and ".join(f"({c})" for c in parts)) if len(parts) > 1 else Tmpl(parts[0])


def _strings(obj: Any):
    if isinstance(obj, dict):
        for v in obj.values():
            yield from _strings(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _strings(v)
    elif isinstance(obj, str):
        yield obj


def step_tasks(step: Any, n: int, builder: Optional[Builder] = None) -> list[dict[str, Any]]:
    return (builder or Builder()).step_tasks(step, n)


# ---------------------------------------------------------------------------------------
# the playbook

def _always(tasks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Plumbing every kind of step needs: it runs whatever `--tags` selects."""
    for t in tasks:
        t["tags"] = ["always"]
    return tasks


def prepare_tasks() -> list[dict[str, Any]]:
    return _always([
        {"name": "Facts of this host come from a snapshot file (gpu_wizard_snapshot): nothing to apply here",
         "ansible.builtin.meta": "end_host", "when": Tmpl("gpu_wizard_snapshot is defined")},
        {"name": "Make the wizard's folder on the host", "ansible.builtin.file": {
            "path": Tmpl("{{ gpu_wizard_remote_dir | default('~/.cache/gpu-wizard/fleet') }}"), "state": "directory", "mode": "0700"},
         "register": "gw_dir"},
        {"name": "Copy the wizard's engine to the host (one zipapp; needs only Python 3)", "ansible.builtin.copy": {
            "src": Tmpl("{{ playbook_dir }}/gpu-wizard.pyz"), "dest": PYZ, "mode": "0755"}},
        {"name": "Read the connecting user's home folder", "ansible.builtin.command": {
            "argv": [PY, "-c", "import os; print(os.path.expanduser('~'))"]},
         "register": "gw_home_out", "changed_when": False, "check_mode": False},
        {"name": "Remember the home folder", "ansible.builtin.set_fact": {"gw_home": Tmpl("{{ gw_home_out.stdout | trim }}")}},
    ])


WIN_HOME_SCRIPT = (
    "import subprocess, sys\n"
    "r = subprocess.run(['cmd.exe', '/c', 'echo %USERPROFILE%'], capture_output=True, text=True, timeout=60, cwd='/')\n"
    "win = r.stdout.strip().splitlines()[-1].strip() if r.stdout.strip() else ''\n"
    "if not win or '%' in win:\n"
    "    sys.exit('cannot read the Windows profile folder (cmd.exe)')\n"
    "p = subprocess.run(['wslpath', '-u', win], capture_output=True, text=True, timeout=60)\n"
    "sys.exit(p.returncode or print(p.stdout.strip()))\n")


def win_home_tasks() -> list[dict[str, Any]]:
    """The Windows user's profile folder, read on a WSL host at run time (what a redacted snapshot hid)."""
    return _always([
        {"name": "Read the Windows user's profile folder (WSL: cmd.exe and wslpath)", "ansible.builtin.command": {
            "argv": [PY, "-I", "-c", WIN_HOME_SCRIPT]}, "register": "gw_win_home_out", "changed_when": False, "check_mode": False},
        {"name": "Remember the Windows profile folder", "ansible.builtin.set_fact": {
            "gw_win_home": Tmpl("{{ gw_win_home_out.stdout | trim }}")}},
    ])


# Root's own copy of the engine: read from the connecting user's copy, checked against the digest,
# written by root into a new file (O_CREAT|O_EXCL|O_NOFOLLOW) in root's folder, renamed into place,
# then opened again and checked. No descriptor the user opened can reach that inode: root made it.
ROOT_COPY_SCRIPT = r'''import hashlib, os, stat, sys
src, folder, want = sys.argv[1:4]
def owned(p):
    st = os.lstat(p)
    # root's, and nobody else may rename what is in it (sticky /tmp: only an entry's owner can)
    return stat.S_ISDIR(st.st_mode) and st.st_uid == 0 and (not st.st_mode & 0o022 or st.st_mode & stat.S_ISVTX)
if not os.lstat(folder).st_mode & 0o022 == 0 or os.lstat(folder).st_uid != 0:
    sys.exit("root's folder for the engine is not root's alone: " + folder)
p = os.path.dirname(os.path.abspath(folder))
while True:
    if not owned(p):
        sys.exit("not root's own folder (owner root, not writable by others): " + p)
    if p == "/":
        break
    p = os.path.dirname(p)
def digest(path):
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise OSError("not a plain file: " + path)
        h = hashlib.sha256()
        with os.fdopen(os.dup(fd), "rb") as f:
            data = f.read(256 << 20)
        h.update(data)
        return st, h.hexdigest(), data
    finally:
        os.close(fd)
final = os.path.join(folder, "gpu-wizard.pyz")
try:
    st, h, _ = digest(final)
    if h == want and st.st_uid == 0 and st.st_nlink == 1 and not st.st_mode & 0o022 and stat.S_ISREG(st.st_mode):
        print("unchanged")
        sys.exit(0)
except OSError:
    pass
try:
    _, h, data = digest(src)
except OSError as e:
    sys.exit("cannot read the engine copied to this host: %s" % e)
if h != want:
    sys.exit("the engine copied to this host is not the controller's (sha256 " + h + ")")
tmp = os.path.join(folder, ".gpu-wizard.pyz.%d.new" % os.getpid())
fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
try:
    os.fchown(fd, 0, 0)
    os.fchmod(fd, 0o644)
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]
    os.fsync(fd)
finally:
    os.close(fd)
os.rename(tmp, final)
st, h, _ = digest(final)
if h != want or st.st_uid != 0 or st.st_nlink != 1 or st.st_mode & 0o022:
    os.unlink(final)
    sys.exit("root's copy of the engine changed after it was written; removed")
print("changed")
'''


def root_prepare_tasks() -> list[dict[str, Any]]:
    """The engine for root tasks: a root-owned folder, a copy root creates itself and checks (never
    under --check: check mode writes nothing, so root's tasks there are only said)."""
    return _always([
        {"name": "Make root's own folder for the wizard's engine (owner root, mode 0755; the connecting user cannot write it)",
         "ansible.builtin.file": {"path": Tmpl("{{ item }}"), "state": "directory", "owner": "root", "group": "root", "mode": "0755"},
         "loop": [Tmpl("{{ gpu_wizard_root_dir | default('/var/lib/gpu-wizard/fleet') | dirname }}"), ROOT_DIR],
         "become": True},
        {"name": "Root makes its own copy of the wizard's engine (new file, O_EXCL, checked after)",
         "ansible.builtin.command": {"argv": [PY, "-I", "-c", ROOT_COPY_SCRIPT, PYZ, ROOT_DIR, Tmpl("{{ gw_pyz_sha256 }}")]},
         "register": "gw_root_copy", "changed_when": Tmpl("(gw_root_copy.stdout | trim) == 'changed'"),
         "become": True, "when": NOT_CHECK_MODE},
    ])


def needs_root(tasks: list[dict[str, Any]]) -> bool:
    return any(t.get("become") for t in tasks)


def plan_tasks(plan: Any, builder: Optional[Builder] = None) -> list[dict[str, Any]]:
    """The apply tasks of a host's plan (without its verification steps: `verify_tasks`)."""
    b = builder or Builder()
    if plan.platform == "windows":
        return [{"name": "Windows host: its plan runs in the wizard on that machine (Ansible here drives Linux and WSL 2)",
                 "ansible.builtin.debug": {"msg": "; ".join(_shown(s.title) for s in plan.steps) or "nothing to do"}}]
    out: list[dict[str, Any]] = []
    for n, s in enumerate(plan.steps, 1):
        if s.kind != "verify":
            out += b.step_tasks(s, n)
    head = win_home_tasks() if "win_home" in b.need else []
    return head + ((root_prepare_tasks() + out) if needs_root(out) else out)


def verify_tasks(plan: Any, builder: Optional[Builder] = None) -> list[dict[str, Any]]:
    b = builder or Builder()
    if plan.platform == "windows":
        return []
    out: list[dict[str, Any]] = []
    for n, s in enumerate(plan.steps, 1):
        if s.kind == "verify":
            out += b.step_tasks(s, n)
    return out


def summarize(hp: HostPlan) -> dict[str, Any]:
    p = hp.plan
    if hp.error:
        return {"host": hp.host, "status": "error", "error": hp.error}
    work = [s for s in p.steps if s.kind != "verify"]
    return {"host": hp.host, "platform": p.platform, "status": "changes" if work else "nothing to do",
            "steps": [{"id": s.id, "title": _shown(s.title), "kind": s.kind, "tag": step_tag(s),
                       "needs_root": s.needs_root, "reboot": s.reboot_required} for s in p.steps],
            "reboot": any(s.reboot_required for s in p.steps),
            "linux_driver": any(s.kind == "install_driver" for s in p.steps),
            "warnings": [_shown(w) for w in p.warnings], "facts": p.facts_summary}


# A host whose plan fails is recorded and left there; Ansible goes on with the others, even when
# every host of a `serial` batch failed (Ansible would stop the play then). `fleet run` reads the
# recap's `rescued` as failed; `--max-fail-percentage` removes this so failures count again.
RESCUE = _always([
    {"name": "This host's plan failed: recorded, the other hosts go on", "ansible.builtin.set_fact": {
        "gw_failed": Tmpl("{{ ansible_failed_task.name | default('?') }}")}},
    {"name": "Say what failed on this host", "ansible.builtin.debug": {
        "msg": Tmpl("{{ ansible_failed_task.name | default('?') }}: {{ ansible_failed_result.msg | default('') }} "
                    "{{ (ansible_failed_result.stderr | default('')) | truncate(2000) }}")}},
])

_REG_RE = re.compile(r"\bgw_(s\d+|edit_|pk_)")


def _prefixed(obj: Any, gi: int) -> Any:
    """The same tasks with their registered names made unique to plan group `gi` (templates stay templates)."""
    if isinstance(obj, dict):
        return {k: _prefixed(v, gi) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_prefixed(v, gi) for v in obj]
    if isinstance(obj, Tmpl):
        return Tmpl(_REG_RE.sub(lambda m: f"gw_g{gi}_{m.group(1)}", obj))
    if isinstance(obj, str) and re.fullmatch(r"gw_(s\d+|edit_|pk_)\w*", obj):  # a register's own name
        return _REG_RE.sub(lambda m: f"gw_g{gi}_{m.group(1)}", obj)
    return obj


def engine_digests(engine: Optional[bytes] = None) -> dict[str, str]:
    """The play variable root's copy of the engine is checked against."""
    if engine is None:
        from .zipapp import zipapp_bytes

        engine = zipapp_bytes()
    return {"gw_pyz_sha256": hashlib.sha256(engine).hexdigest()}


HOOK_VARS = ("gpu_wizard_pre_hook", "gpu_wizard_post_hook")


def _hook(var: str, what: str) -> dict[str, Any]:
    """An admin's hook (drain a node before, resume it after): a task file the host variable names."""
    return {"name": f"Run the {what} hook ({var}: a task file, e.g. drain the node)",
            "ansible.builtin.include_tasks": {"file": Tmpl("{{ %s }}" % var)},
            "when": Tmpl(f"{var} is defined and {var} | length > 0"), "tags": ["always"]}


def handlers() -> list[dict[str, Any]]:
    skip = Tmpl("not (gpu_wizard_skip_reboot | default(false) | bool)")
    return [
        {"name": "Restart the host and wait until it answers (the new NVIDIA driver loads at boot)",
         "ansible.builtin.reboot": {"msg": "gpu-wizard: restarting to load the new NVIDIA driver", "reboot_timeout": 1800,
                                    "post_reboot_delay": 10, "test_command": "uptime"},
         "become": True, "listen": REBOOT_HANDLER, "when": skip},
        {"name": "Check the NVIDIA driver answers after the restart (nvidia-smi)", "ansible.builtin.command": {
            "argv": ["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"]},
         "register": "gw_after_reboot", "changed_when": False, "retries": 3, "delay": 10,
         "until": Tmpl("gw_after_reboot.rc == 0"), "listen": REBOOT_HANDLER, "when": skip},
    ]


def persistence_tasks(driver_groups: bool) -> list[dict[str, Any]]:
    if not driver_groups:
        return []
    return [{"name": "Keep the GPUs initialised between jobs (nvidia-persistenced; gpu_wizard_persistence_mode: false leaves it)",
             "ansible.builtin.service": {"name": "nvidia-persistenced", "enabled": True, "state": "started"},
             "become": True, "tags": ["driver"],
             "when": Tmpl("(gw_plan_of[inventory_hostname] in gw_driver_groups) and (gpu_wizard_persistence_mode | default(true) | bool)"
                          " and not (gpu_wizard_skip_reboot | default(false) | bool)")}]


def _group_name(gi: int, n: int, first: Any, hosts: list[str], titles: list[str], what: str) -> str:
    fs = first.facts_summary
    return (f"Plan {gi} of {n} {what} ({_shown(str(fs.get('gpus', 'no GPU')))}; {_shown(str(fs.get('os', first.platform)))}; "
            f"{len(hosts)} host(s)): " + ("; ".join(titles) if titles else "nothing to do"))


def build_playbook(host_plans: list[HostPlan], snapshots_dir: str, engine: Optional[bytes] = None,
                   secrets_file: Optional[str] = None) -> tuple[str, list[dict[str, Any]]]:
    """(playbook YAML, groups): one play over every planned host, so Ansible works on them in
    parallel (forks, strategy, serial apply to the whole fleet); hosts with the same task list
    share one block, chosen by `gw_plan_of[inventory_hostname]`."""
    groups: dict[str, list[HostPlan]] = {}
    keys: dict[tuple[int, int], str] = {}  # hosts planned alike share their task lists: hashed once
    for hp in host_plans:
        if hp.error:
            continue
        ids = (id(hp.tasks), id(hp.verify_tasks))
        if ids not in keys:
            keys[ids] = hashlib.sha256(json.dumps([hp.tasks, hp.verify_tasks], sort_keys=True, default=str).encode()).hexdigest()[:12]
        hp.key = keys[ids]
        groups.setdefault(hp.key, []).append(hp)
    applies: list[dict[str, Any]] = []
    verifies: list[dict[str, Any]] = []
    info: list[dict[str, Any]] = []
    plan_of: dict[str, int] = {}
    driver_groups: list[int] = []
    for gi, (key, members) in enumerate(groups.items(), 1):
        first = members[0].plan
        hosts = [m.host for m in members]
        for h in hosts:
            plan_of[h] = gi
        titles = [_shown(s.title) for s in first.steps]
        when = Tmpl(f"gw_plan_of[inventory_hostname] == {gi}")
        tasks = _prefixed(members[0].tasks, gi)
        if any(s.kind == "install_driver" for s in first.steps):
            driver_groups.append(gi)
        work = [t for t in tasks if "ansible.builtin.debug" not in t or t.get("changed_when")]
        body = ([_hook("gpu_wizard_pre_hook", "pre-run")] if work else []) + tasks + \
            ([_hook("gpu_wizard_post_hook", "post-run")] if work else [])
        applies.append({"name": _group_name(gi, len(groups), first, hosts, [t for s, t in zip(first.steps, titles) if s.kind != "verify"], "apply"),
                        "when": when,
                        "block": body or [{"name": "Nothing to do on this host", "ansible.builtin.debug": {"msg": "nothing to do"}}],
                        "rescue": RESCUE})
        vt = _prefixed(members[0].verify_tasks, gi)
        if vt:
            verifies.append({"name": _group_name(gi, len(groups), first, hosts, [t for s, t in zip(first.steps, titles) if s.kind == "verify"], "verify"),
                             "when": Tmpl(f"({when}) and gw_failed is not defined"), "block": vt, "rescue": RESCUE})
        info.append({"group": gi, "key": key, "hosts": hosts, "steps": titles, "tasks": len(members[0].tasks) + len(vt)})
    header = ("# gpu-wizard fleet plan: each host's own plan from the single-machine engine; hosts with the same\n"
              "# plan share a block. Apply it with `gpu-wizard fleet run -i INVENTORY -p THIS_FILE` (or ansible-playbook).\n"
              f"# snapshots: {os.path.abspath(snapshots_dir)}\n")
    if not applies:
        plays: list[dict[str, Any]] = [{"name": "No host has a plan", "hosts": "localhost", "gather_facts": False,
                                        "tasks": [{"name": "Nothing to do", "ansible.builtin.debug": {"msg": "no host could be planned"}}]}]
    else:
        flush = {"name": "Restart the hosts whose driver changed, now, before they are verified", "ansible.builtin.meta": "flush_handlers",
                 "tags": ["always"]}
        play_vars: dict[str, Any] = {"gw_plan_of": plan_of, "gw_driver_groups": driver_groups, **engine_digests(engine),
                                     # pipelining: become's module goes to sudo on its stdin, never a file the user can write
                                     "ansible_pipelining": Tmpl("{{ gpu_wizard_pipelining | default(true) }}")}
        play: dict[str, Any] = {"name": f"GPU Setup Wizard fleet plan: {len(plan_of)} host(s), {len(applies)} plan(s)",
                                "hosts": ":".join(plan_of), "gather_facts": False, "vars": play_vars}
        if secrets_file:  # credentials: a vars file of mode 0600 beside the playbook, never in it
            play["vars_files"] = [tjoin(Tmpl("{{ playbook_dir }}/"), os.path.basename(secrets_file))]
        play["tasks"] = prepare_tasks() + applies + [flush] + persistence_tasks(bool(driver_groups)) + verifies
        play["handlers"] = handlers()
        plays = [play]
    return header + dump_yaml(plays), info


def secrets_path(playbook: str) -> str:
    """Where a playbook's credentials go: beside it, mode 0600 (its vars_files names it)."""
    stem = os.path.splitext(os.path.abspath(playbook))[0]
    return stem + ".secrets.yml"


def secrets_yaml(secrets: dict[str, str]) -> str:
    return ("# gpu-wizard fleet plan: credentials the plan's tasks use (mode 0600; those tasks carry no_log).\n"
            "# Encrypt it with `ansible-vault encrypt` if you like: ansible-playbook then asks for the vault password.\n"
            + dump_yaml({"gw_secret": {k: Unsafe(v) for k, v in sorted(secrets.items())}}))


def snapshots_dir_of(playbook_text: str) -> Optional[str]:
    m = re.search(r"^# snapshots: (.+)$", playbook_text, re.M)
    return m.group(1).strip() if m else None


__all__ = ["HostPlan", "host_options", "step_tasks", "plan_tasks", "verify_tasks", "build_playbook", "summarize",
           "snapshots_dir_of", "HOME_SENTINEL", "root_prepare_tasks", "engine_digests", "ROOT_DIR", "Builder",
           "secrets_path", "secrets_yaml", "STEP_TAGS"]
