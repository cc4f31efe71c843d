"""Each host's own plan from the single-machine engine (app/plan), as one Ansible playbook.

`host_plan(snapshot, choices)` is exactly what `gpu-wizard --snapshot FILE plan` computes.
`step_tasks(step)` turns one Step into Ansible tasks that say what they do:

- packages: `ansible.builtin.apt` / `ansible.builtin.dnf` with the names (and `=version` pins) the
  single-machine plan gives; a downloaded `.deb` through `apt: deb=`;
- downloads: `ansible.builtin.get_url` with `checksum: sha256:<hex>` (or the checksum the plan
  names: the SHA256 field of a Debian `Packages` index, read on the host; a sums file URL);
- file edits: `copy`/`blockinfile`/`lineinfile` with `backup: true`; INI settings (`.wslconfig`,
  `/etc/wsl.conf`) by the engine's own INI editor on the host, which backs the file up first;
- the PyTorch venv: `ansible.builtin.pip` with `virtualenv` (and `virtualenv_command`);
- a restart and wait (`ansible.builtin.reboot`) right after a step that needs one, only when that
  step changed something; then the plan's verification steps (never "changed").

Steps that are plain commands are guarded by the step's own `done_when` checks, evaluated on the
host by the engine (`fleet done`), so a second run skips them: it changes nothing.

One play covers every host (Ansible works on them in parallel); hosts whose task lists are
identical share one block of it. Home folders are the host's own: a plan
built with the default venv gets `{{ gw_home }}` (the connecting user's home, read on the host).
"""
from __future__ import annotations

import argparse
import copy
import hashlib
import json
import os
import re
import shlex
from dataclasses import dataclass, field
from typing import Any, Optional

from .ansible import Block, FleetError, Inventory, dump_yaml, lit

HOME_SENTINEL = "/__gpu_wizard_home__"
DEFAULT_VENV = HOME_SENTINEL + "/.venvs/gpu"
PYZ = "{{ gw_dir.path }}/gpu-wizard.pyz"
PY = "{{ gpu_wizard_python | default('python3') }}"
DL = "{{ gw_dir.path }}/downloads"
# Root (become) tasks never run or read what the connecting user can write (issue 14's rule):
# they use a copy of the engine in a root-owned folder (owner root, 0755 folders, 0644 file),
# checked against the digest the controller computed, and keep their downloads and backups there.
ROOT_DIR = "{{ gpu_wizard_root_dir | default('/var/lib/gpu-wizard/fleet') }}"
ROOT_PYZ = ROOT_DIR + "/gpu-wizard.pyz"
ROOT_DL = ROOT_DIR + "/downloads"
ROOT_ENV = {"GPU_WIZARD_CACHE": ROOT_DIR}  # the engine unpacks itself beside the root copy, nowhere else

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
}
_BOOL = {"toolkit", "cudnn", "no_driver", "no_cleanup"}


@dataclass
class HostPlan:
    host: str
    plan: Any  # app.plan.Plan
    tasks: list[dict[str, Any]]
    error: Optional[str] = None
    key: str = ""
    summary: dict[str, Any] = field(default_factory=dict)


# ---------------------------------------------------------------------------------------
# the single-machine engine, per host

def host_args(args: argparse.Namespace, inv: Inventory, host: str) -> argparse.Namespace:
    a = copy.copy(args)
    for var, attr in HOST_CHOICE_VARS.items():
        v = inv.var(host, var)
        if v is None:
            continue
        if attr in _BOOL:
            v = v if isinstance(v, bool) else str(v).strip().lower() in ("1", "true", "yes", "on")
        else:
            v = str(v)
        setattr(a, attr, v)
    if not getattr(a, "venv", None):
        a.venv = DEFAULT_VENV
    return a


def host_plan(snapshot_path: str, args: argparse.Namespace):
    """(facts, plan) for one host's snapshot with these choices: the same calls as `gpu-wizard plan`."""
    from app.commands.plan import choices_from_args
    from app.compat import load_db
    from app.detect import detect
    from app.plan import build_plan
    from app.recommend import recommend
    from app.system import SnapshotSystem

    system = SnapshotSystem.load(snapshot_path)
    facts = detect(system)
    choices = choices_from_args(args, facts)
    rec = recommend(facts, load_db(), choices)
    return facts, build_plan(facts, rec, choices)


# ---------------------------------------------------------------------------------------
# one Step -> Ansible tasks

def _h(s: str) -> Any:
    """A plan string for the playbook: the home sentinel becomes the host's home, other braces stay text."""
    if HOME_SENTINEL in s:
        rest = s.replace(HOME_SENTINEL, "")
        if not re.search(r"\{[{%#]|[}%#]\}", rest):
            return s.replace(HOME_SENTINEL, "{{ gw_home }}")
        raise FleetError("a plan value mixes the home folder with template characters; give the host an explicit "
                         "gpu_wizard_venv", 1)
    return lit(s)


def _engine(root: bool) -> list[str]:
    """How a task starts the engine: as root, `python3 -I` (no PYTHON* variables, no user site) on the root-owned copy."""
    return [PY, "-I", ROOT_PYZ] if root else [PY, PYZ]


def _argv(step, argv, dl: str = DL) -> list[Any]:
    names = {d.name for d in step.downloads}
    out = []
    for a in argv:
        if a.startswith("@download:") and a[len("@download:"):] in names:
            out.append(f"{dl}/{a[len('@download:'):]}")
        else:
            out.append(_h(a))
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


def _edit_tasks(step, e, become: bool, when: Optional[str]) -> list[dict[str, Any]]:
    root = bool(e.needs_root) or become
    base: dict[str, Any] = {"become": root}
    if root:
        base["environment"] = dict(ROOT_ENV)
    if when:
        base["when"] = when
    path = _h(e.path)
    if e.mode == "write":
        return [{"name": f"Write {e.path} (the old file is backed up)", "ansible.builtin.copy": {
            "dest": path, "content": _h(e.content),
            "mode": f"{e.file_mode:04o}", "backup": True}, **base}]
    if e.mode == "append":
        return [{"name": f"Add the wizard's lines to {e.path} (the old file is backed up)", "ansible.builtin.blockinfile": {
            "path": path, "block": lit(e.content.rstrip("\n")), "create": True, "mode": f"{e.file_mode:04o}",
            "marker": f"# {{mark}} gpu-wizard {step.id}", "backup": True}, **base}]
    if e.mode == "remove_lines":
        return [{"name": f"Remove the line '{ln}' from {e.path} (the old file is backed up)", "ansible.builtin.lineinfile": {
            "path": path, "regexp": lit("^\\s*" + re.escape(ln) + "\\s*$"), "state": "absent", "backup": True}, **base}
            for ln in e.lines]
    if e.mode == "delete":
        return [
            {"name": f"Back up {e.path} before it is deleted", "ansible.builtin.copy": {
                "src": path, "dest": lit(e.path + ".gpu-wizard.bak"), "remote_src": True, "force": False},
             "failed_when": False, **base},
            {"name": f"Delete {e.path}", "ansible.builtin.file": {"path": path, "state": "absent"}, **base},
        ]
    if e.mode == "ini_set":
        keys = ", ".join(f"{k}={v}" for k, v in e.settings)
        edit = json.dumps(e.to_json(), sort_keys=True)
        reg = f"gw_edit_{hashlib.sha1((step.id + e.path).encode()).hexdigest()[:8]}"
        return [{"name": f"Set {keys} under [{e.section}] in {e.path} (the old file is backed up)",
                 "ansible.builtin.command": {"argv": [*_engine(root), "fleet", "edit", "--edit", lit(edit),
                                                      "--backup-dir", (ROOT_DIR if root else "{{ gw_dir.path }}") + "/backups"]},
                 "register": reg, "changed_when": f"({reg}.stdout | trim) == 'changed'", **base}]
    raise FleetError(f"step {step.id}: edit mode {e.mode!r} has no Ansible form", 1)


def _download_tasks(step, d, become: bool, when: Optional[str]) -> list[dict[str, Any]]:
    base: dict[str, Any] = {"become": True} if become else {}
    if when:
        base["when"] = when
    dl = ROOT_DL if become else DL
    dest = f"{dl}/{d.name}"
    if d.sha256:
        return [{"name": f"Download {d.url} (sha256 {d.sha256[:16]}… checked)", "ansible.builtin.get_url": {
            "url": lit(d.url), "dest": dest, "checksum": f"sha256:{d.sha256}", "mode": "0644"}, **base}]
    if not d.checksum_url:
        raise FleetError(f"step {step.id}: download {d.name} has no checksum; refusing to plan it", 1)
    if d.checksum_url.rstrip("/").endswith("Packages"):
        reg = f"gw_pk_{hashlib.sha1(d.name.encode()).hexdigest()[:8]}"
        idx = f"{dl}/{d.name}.Packages"
        rx = "(?s)Filename: [^\\n]*" + re.escape(d.name) + "\\n(?:[^\\n]+\\n)*?SHA256: ([0-9a-f]{64})"
        return [
            {"name": f"Fetch the package index that publishes {d.name}'s checksum", "ansible.builtin.get_url": {
                "url": lit(d.checksum_url), "dest": idx, "mode": "0644", "force": True},
             "check_mode": False, "changed_when": False, **base},  # always the current index; it changes nothing
            {"name": f"Read {d.name}'s SHA256 from that index", "ansible.builtin.slurp": {"src": idx}, "register": reg, **base},
            {"name": f"Download {d.url} (checked against the index's SHA256)", "ansible.builtin.get_url": {
                "url": lit(d.url), "dest": dest, "mode": "0644",
                "checksum": "sha256:{{ %s.content | b64decode | regex_findall(gw_rx) | first | default('not-in-the-index') }}" % reg},
             "vars": {"gw_rx": lit(rx)}, **base},  # the pattern as data: no escapes through the template
        ]
    algo = "md5" if "md5" in d.checksum_url.lower() else "sha256"
    return [{"name": f"Download {d.url} (checked against {d.checksum_url})", "ansible.builtin.get_url": {
        "url": lit(d.url), "dest": dest, "checksum": f"{algo}:{d.checksum_url}", "mode": "0644"}, **base}]


def step_tasks(step, n: int) -> list[dict[str, Any]]:
    """The tasks for plan step number `n`."""
    become = bool(step.needs_root)
    reg = f"gw_s{n}"
    tasks: list[dict[str, Any]] = []
    label = f"[{step.id}] {step.title.replace(HOME_SENTINEL, '~')}"
    env = {k: lit(v) for k, v in sorted(step.env.items())}
    is_verify = step.kind == "verify"
    native = all(_packages(a)[0] or _dpkg_install(a) or _is_update(a) for a in step.commands) and step.commands \
        and not step.edits and not step.downloads
    when = None
    real_checks = [c for c in step.done_when if c.kind != "never"]
    # create_venv: Ansible's `creates` when its checks are only "this path exists"; otherwise (a venv
    # whose pip must run) the engine's own check decides, as for any plain command
    creates_only = step.kind == "create_venv" and real_checks and all(c.kind == "path_exists" for c in real_checks)
    if real_checks and not is_verify and not native and not creates_only and step.kind != "install_pytorch":
        checks = json.dumps([c.to_json() for c in real_checks], sort_keys=True)
        tasks.append({"name": f"{label}: already done? ({'; '.join(c.describe() for c in real_checks)})",
                      "ansible.builtin.command": {"argv": [*_engine(become), "fleet", "done", "--checks", _h(checks)]},
                      "register": f"{reg}_done", "changed_when": False, "check_mode": False,
                      "failed_when": f"{reg}_done.rc not in [0, 3]", "become": become,
                      **({"environment": dict(ROOT_ENV)} if become else {})})
        when = f"{reg}_done.rc == 3"
    if step.downloads:
        tasks.append({"name": f"{label}: a folder for its downloads" + (" (root's own)" if become else ""),
                      "ansible.builtin.file": {"path": ROOT_DL if become else DL, "state": "directory", "mode": "0700",
                                               **({"owner": "root", "group": "root"} if become else {})},
                      **({"become": True} if become else {}), **({"when": when} if when else {})})
    for d in step.downloads:
        tasks += _download_tasks(step, d, become, when)
    for e in step.edits:
        tasks += _edit_tasks(step, e, become, when)
    changed_regs: list[str] = []
    for i, argv in enumerate(step.commands):
        t: dict[str, Any] = {"name": label if len(step.commands) == 1 else f"{label} ({i + 1}/{len(step.commands)})"}
        r = f"{reg}_c{i}"
        mgr, pkgs, recommends = _packages(argv)
        deb = _dpkg_install(argv)
        if mgr == "apt":
            t["ansible.builtin.apt"] = {"name": [lit(p) for p in pkgs], "state": "present",
                                        **({} if recommends else {"install_recommends": False})}
        elif mgr == "dnf":
            t["ansible.builtin.dnf"] = {"name": [lit(p) for p in pkgs], "state": "present"}
        elif deb:
            t["ansible.builtin.apt"] = {"deb": f"{ROOT_DL if become else DL}/{deb}"}
        elif _is_update(argv):
            t["ansible.builtin.apt"] = {"update_cache": True}
            t["changed_when"] = False  # a fresh package index changes no configuration
        elif step.kind == "install_pytorch" and len(argv) > 4 and argv[1:4] == ("-m", "pip", "install"):
            t.update(_pip_task(step, argv))
        else:
            cmd: dict[str, Any] = {"argv": _argv(step, argv, ROOT_DL if become else DL)}
            if creates_only:
                cmd["creates"] = _h(real_checks[0].args[0])
            t["ansible.builtin.command"] = cmd
            if is_verify:
                t["changed_when"] = False
            if tuple(step.ok_exit_codes) != (0,):
                t["failed_when"] = f"{r}.rc not in {list(step.ok_exit_codes)}"
        t["register"] = r
        changed_regs.append(r)
        if become:
            t["become"] = True
        if env:
            t["environment"] = env
        if when:
            t["when"] = when
        tasks.append(t)
    if step.reboot_required:
        cond = " or ".join(f"({r} is changed)" for r in changed_regs) or "false"
        tasks.append({"name": f"{label}: restart the computer and wait until it answers again (the new driver is used after a restart)",
                      "ansible.builtin.reboot": {"msg": "gpu-wizard: restarting to load the new NVIDIA driver",
                                                 "reboot_timeout": 1800, "post_reboot_delay": 10},
                      "become": True, "when": cond})
    return tasks


def _pip_task(step, argv: tuple[str, ...]) -> dict[str, Any]:
    """`<venv>/bin/python -m pip install PKGS [--index-url ...]` as ansible.builtin.pip with virtualenv."""
    py = argv[0]
    venv = os.path.dirname(os.path.dirname(py))
    rest = list(argv[4:])
    extra: list[str] = []
    i = 0
    pk: list[str] = []
    while i < len(rest):
        a = rest[i]
        if a.startswith("-"):
            extra.append(a)
            if a in ("--index-url", "--extra-index-url", "--cert", "-i", "--find-links", "--trusted-host") and i + 1 < len(rest):
                extra.append(rest[i + 1])
                i += 1
        else:
            pk.append(a)
        i += 1
    pkgs = pk
    return {"ansible.builtin.pip": {
        "name": [lit(p) for p in pkgs], "virtualenv": _h(venv),
        "virtualenv_command": PY + " -m venv",
        **({"extra_args": _h(shlex.join(extra))} if extra else {})}}


# ---------------------------------------------------------------------------------------
# the playbook

def prepare_tasks() -> list[dict[str, Any]]:
    return [
        {"name": "Facts of this host come from a snapshot file (gpu_wizard_snapshot): nothing to apply here",
         "ansible.builtin.meta": "end_host", "when": "gpu_wizard_snapshot is defined"},
        {"name": "Make the wizard's folder on the host", "ansible.builtin.file": {
            "path": "{{ gpu_wizard_remote_dir | default('~/.cache/gpu-wizard/fleet') }}", "state": "directory", "mode": "0700"},
         "register": "gw_dir", "check_mode": False},
        {"name": "Copy the wizard's engine to the host (one zipapp; needs only Python 3)", "ansible.builtin.copy": {
            "src": "{{ playbook_dir }}/gpu-wizard.pyz", "dest": PYZ, "mode": "0755"}, "check_mode": False},
        {"name": "Read the connecting user's home folder", "ansible.builtin.command": {
            "argv": [PY, "-c", "import os; print(os.path.expanduser('~'))"]},
         "register": "gw_home_out", "changed_when": False, "check_mode": False},
        {"name": "Remember it", "ansible.builtin.set_fact": {"gw_home": "{{ gw_home_out.stdout | trim }}"}},
    ]


def root_prepare_tasks() -> list[dict[str, Any]]:
    """The engine for root tasks: a root-owned folder and copy, checked against the controller's
    digests (`gw_pyz_sha1` for copy's own check, `gw_pyz_sha256` once it is in place)."""
    return [
        {"name": "Make root's own folder for the wizard's engine (owner root, mode 0755; the connecting user cannot write it)",
         "ansible.builtin.file": {"path": "{{ item }}", "state": "directory", "owner": "root", "group": "root", "mode": "0755"},
         "loop": [ROOT_DIR.replace("}}", "| dirname }}"), ROOT_DIR], "become": True, "check_mode": False},
        {"name": "Copy the wizard's engine there for root's tasks (owner root, mode 0644, checksum checked)",
         "ansible.builtin.copy": {"src": "{{ playbook_dir }}/gpu-wizard.pyz", "dest": ROOT_PYZ, "owner": "root",
                                  "group": "root", "mode": "0644", "checksum": "{{ gw_pyz_sha1 }}"},
         "become": True, "check_mode": False},
        {"name": "Check root's copy of the engine is the controller's (sha256)", "ansible.builtin.stat": {
            "path": ROOT_PYZ, "checksum_algorithm": "sha256", "get_checksum": True},
         "register": "gw_root_pyz", "become": True, "check_mode": False},
        {"name": "Stop this host when root's copy of the engine is not exactly the controller's", "ansible.builtin.assert": {
            "that": ["gw_root_pyz.stat.checksum == gw_pyz_sha256", "gw_root_pyz.stat.pw_name == 'root'",
                     "not gw_root_pyz.stat.woth and not gw_root_pyz.stat.wgrp"],
            "fail_msg": "root's copy of the wizard's engine does not match the controller's; not running it",
            "quiet": True}},
    ]


def needs_root(tasks: list[dict[str, Any]]) -> bool:
    return any(t.get("become") for t in tasks)


def plan_tasks(plan) -> list[dict[str, Any]]:
    if plan.platform == "windows":
        return [{"name": "Windows host: its plan runs in the wizard on that machine (Ansible here drives Linux and WSL 2)",
                 "ansible.builtin.debug": {"msg": lit("; ".join(s.title for s in plan.steps) or "nothing to do")}}]
    out: list[dict[str, Any]] = []
    for n, s in enumerate(plan.steps, 1):
        out += step_tasks(s, n)
    return (root_prepare_tasks() + out) if needs_root(out) else out


def summarize(hp: HostPlan) -> dict[str, Any]:
    p = hp.plan
    if hp.error:
        return {"host": hp.host, "status": "error", "error": hp.error}
    work = [s for s in p.steps if s.kind != "verify"]
    return {"host": hp.host, "platform": p.platform, "status": "changes" if work else "nothing to do",
            "steps": [{"id": s.id, "title": s.title.replace(HOME_SENTINEL, "~"), "kind": s.kind,
                       "needs_root": s.needs_root, "reboot": s.reboot_required} for s in p.steps],
            "reboot": any(s.reboot_required for s in p.steps),
            "linux_driver": any(s.kind == "install_driver" for s in p.steps),
            "warnings": [w.replace(HOME_SENTINEL, "~") for w in p.warnings], "facts": p.facts_summary}


# A host whose plan fails is recorded and left there; Ansible goes on with the others, even when
# every host of a `serial` batch failed (Ansible would stop the play then). `fleet run` reads the
# recap's `rescued` as failed; `--max-fail-percentage` removes this so failures count again.
RESCUE = [
    {"name": "This host's plan failed: recorded, the other hosts go on", "ansible.builtin.set_fact": {
        "gw_failed": "{{ ansible_failed_task.name | default('?') }}"}},
    {"name": "What failed on this host", "ansible.builtin.debug": {
        "msg": "{{ ansible_failed_task.name | default('?') }}: {{ ansible_failed_result.msg | default('') }} "
               "{{ (ansible_failed_result.stderr | default('')) | truncate(2000) }}"}},
]

_REG_RE = re.compile(r"\bgw_(s\d+|edit_|pk_)")


def _prefixed(obj: Any, gi: int) -> Any:
    """The same tasks with their registered names made unique to plan group `gi`."""
    if isinstance(obj, dict):
        return {k: _prefixed(v, gi) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_prefixed(v, gi) for v in obj]
    if type(obj) is str:
        return _REG_RE.sub(lambda m: f"gw_g{gi}_{m.group(1)}", obj)
    return obj


def engine_digests(engine: Optional[bytes] = None) -> dict[str, str]:
    """The play variables root's copy of the engine is checked against."""
    if engine is None:
        from .zipapp import zipapp_bytes

        engine = zipapp_bytes()
    return {"gw_pyz_sha1": hashlib.sha1(engine).hexdigest(), "gw_pyz_sha256": hashlib.sha256(engine).hexdigest()}


def build_playbook(host_plans: list[HostPlan], snapshots_dir: str,
                   engine: Optional[bytes] = None) -> tuple[str, list[dict[str, Any]]]:
    """(playbook YAML, groups): one play over every planned host, so Ansible works on them in
    parallel (forks, strategy, serial apply to the whole fleet); hosts with the same task list
    share one block, chosen by `gw_plan_of[inventory_hostname]`."""
    groups: dict[str, list[HostPlan]] = {}
    for hp in host_plans:
        if hp.error:
            continue
        hp.key = hashlib.sha256(json.dumps(hp.tasks, sort_keys=True, default=str).encode()).hexdigest()[:12]
        groups.setdefault(hp.key, []).append(hp)
    blocks: list[dict[str, Any]] = []
    info: list[dict[str, Any]] = []
    plan_of: dict[str, int] = {}
    for gi, (key, members) in enumerate(groups.items(), 1):
        first = members[0].plan
        hosts = [m.host for m in members]
        for h in hosts:
            plan_of[h] = gi
        titles = [s.title.replace(HOME_SENTINEL, "~") for s in first.steps]
        name = (f"Plan {gi} of {len(groups)} ({first.facts_summary.get('gpus', 'no GPU')}; {first.facts_summary.get('os', first.platform)}; "
                f"{len(hosts)} host(s)): " + ("; ".join(titles) if titles else "nothing to do"))
        tasks = _prefixed(members[0].tasks, gi)
        blocks.append({"name": lit(name), "when": f"gw_plan_of[inventory_hostname] == {gi}",
                       "block": tasks or [{"name": "Nothing to do on this host", "ansible.builtin.debug": {"msg": "nothing to do"}}],
                       "rescue": RESCUE})
        info.append({"group": gi, "key": key, "hosts": hosts, "steps": titles, "tasks": len(members[0].tasks)})
    header = ("# gpu-wizard fleet plan: each host's own plan from the single-machine engine; hosts with the same\n"
              "# plan share a block. Apply it with `gpu-wizard fleet run -i INVENTORY -p THIS_FILE` (or ansible-playbook).\n"
              f"# snapshots: {os.path.abspath(snapshots_dir)}\n")
    if not blocks:
        plays = [{"name": "No host has a plan", "hosts": "localhost", "gather_facts": False,
                  "tasks": [{"name": "Nothing to do", "ansible.builtin.debug": {"msg": "no host could be planned"}}]}]
    else:
        plays = [{"name": f"gpu-wizard fleet plan: {len(plan_of)} host(s), {len(blocks)} plan(s)",
                  "hosts": ":".join(plan_of), "gather_facts": False,
                  "vars": {"gw_plan_of": plan_of, **engine_digests(engine)},
                  "tasks": prepare_tasks() + blocks}]
    return header + dump_yaml(plays), info


def snapshots_dir_of(playbook_text: str) -> Optional[str]:
    m = re.search(r"^# snapshots: (.+)$", playbook_text, re.M)
    return m.group(1).strip() if m else None


__all__ = ["HostPlan", "host_args", "host_plan", "step_tasks", "plan_tasks", "build_playbook", "summarize",
           "snapshots_dir_of", "HOME_SENTINEL", "Block", "root_prepare_tasks", "engine_digests", "ROOT_DIR"]
