"""`gpu-wizard fleet`: the wizard across an Ansible inventory, through ansible-core.

    fleet detect -i INVENTORY -o DIR                  a snapshot of every host: DIR/hosts/<host>/snapshot.json
                                                      (redacted) and DIR/private/<host>.json (0600, for planning)
    fleet plan   -i INVENTORY --snapshots DIR -o PLAYBOOK   each host's own plan, as one playbook
    fleet run    -i INVENTORY [-p PLAYBOOK] [--limit HOSTS] [--check] [--forks N] [--serial N]
                 [--max-fail-percentage N] [--tags T] [--skip-reboot]   apply it, live output per host
    fleet verify -i INVENTORY -o DIR                  each host's verification JSON and own report
    fleet report DIR [-o fleet.html] [--host NAME]    one page (and JSON) with a row per host

Ansible does the connecting (SSH, forks, strategies); the wizard ships its engine to each host as
one zipapp and runs it with the host's Python 3. Hosts with `gpu_wizard_snapshot` are read here,
in this process. Every host's outcome goes into DIR/fleet-record.json (app/fleet/record.py).
"""
from __future__ import annotations

import argparse
import copy
import json
import os
import sys
import tempfile
import time
from typing import Any, Optional

from app import fileio
from app.commands.base import CliError

HELP = "set up and prove many machines at once through Ansible (detect, plan, run, verify, report)"

PUBLIC = ("detect", "plan", "run", "verify", "report")


def add_arguments(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="fleet_command", metavar="{" + ",".join(PUBLIC) + "}")
    d = sub.add_parser("detect", help="record every host: DIR/hosts/<host>/snapshot.json (redacted), DIR/private (0600)")
    _inv(d)
    d.add_argument("-o", "--output", metavar="DIR", required=True, help="the fleet folder (created)")

    pl = sub.add_parser("plan", help="write one playbook carrying each host's own plan")
    _inv(pl, forks=False)
    pl.add_argument("--snapshots", metavar="DIR", required=True, help="the fleet folder `fleet detect` wrote")
    pl.add_argument("-o", "--output", metavar="PLAYBOOK", default="fleet-plan.yml", help="the playbook to write (default fleet-plan.yml)")
    pl.add_argument("--driver-version", metavar="VERSION", help="install exactly this driver package version and hold it "
                    "(per host: gpu_wizard_driver_version)")
    pl.add_argument("--no-syntax-check", action="store_true", help="skip `ansible-playbook --syntax-check` of the result")
    from app.commands.plan import add_choice_arguments

    add_choice_arguments(pl)

    r = sub.add_parser("run", help="apply the fleet playbook with ansible-playbook")
    _inv(r)
    r.add_argument("-p", "--playbook", metavar="PLAYBOOK", default="fleet-plan.yml", help="the playbook `fleet plan` wrote (default fleet-plan.yml)")
    r.add_argument("--check", action="store_true", help="Ansible's check mode: say what would change, change and write nothing")
    r.add_argument("--serial", metavar="N", help="hosts per batch (a number or a percentage such as 25%%)")
    r.add_argument("--max-fail-percentage", metavar="N", type=int, help="stop when more than N%% of a batch failed (default: never stop)")
    r.add_argument("--strategy", choices=("linear", "free"), help="Ansible strategy (free: each host goes at its own pace)")
    r.add_argument("--tags", metavar="TAGS", help="only these kinds of step: driver, cuda, pytorch, verify, system (comma-separated)")
    r.add_argument("--skip-tags", metavar="TAGS", help="leave these kinds of step out")
    r.add_argument("--skip-reboot", action="store_true", help="never restart a host (a new driver then loads at the next restart)")
    r.add_argument("-K", "--ask-become-pass", action="store_true", help="ask for the sudo password of the hosts (Ansible's -K)")

    v = sub.add_parser("verify", help="verify every host; collect DIR/hosts/<host>/verify.json and its own report")
    _inv(v)
    v.add_argument("-o", "--output", metavar="DIR", required=True, help="the fleet folder (created)")
    v.add_argument("--full", action="store_true", help="the full verification instead of --quick")
    v.add_argument("--seconds", metavar="N", type=float, help="sustained load per dtype (see `verify --seconds`)")
    v.add_argument("--burn-in", metavar="DURATION", help="a burn-in on every host's GPUs (10m, 2h: see `verify --burn-in`)")

    rp = sub.add_parser("report", help="one self-contained HTML page (and JSON) with a row per host")
    rp.add_argument("dir", metavar="DIR", help="the fleet folder")
    rp.add_argument("-o", "--output", metavar="FILE", default=None, help="the HTML page (default DIR/fleet.html); the JSON goes beside it")
    rp.add_argument("--host", metavar="NAME", action="append", help="(re)write this host's own report (repeatable)")
    rp.add_argument("--all-host-reports", action="store_true", help="write every missing host report too (in parallel)")

    # run on the hosts by the fleet playbooks (inside the zipapp)
    dn = sub.add_parser("done")
    dn.add_argument("--checks")
    dn.add_argument("--checks-env")
    ed = sub.add_parser("edit")
    ed.add_argument("--edit")
    ed.add_argument("--edit-env")
    ed.add_argument("--backup-dir")
    ed.add_argument("--check", action="store_true")
    hv = sub.add_parser("host-verify")
    hv.add_argument("--prefix", required=True)
    hv.add_argument("--venv")
    hv.add_argument("--quick", action="store_true")
    hv.add_argument("--seconds", type=float)
    hv.add_argument("--burn-in", type=float)
    hv.add_argument("--from-snapshot")  # a snapshot-backed host's report (the wizard does this in-process itself)
    hv.add_argument("--verification")
    hs = sub.add_parser("host-snapshot")
    hs.add_argument("--prefix", required=True)
    from app.commands.base import global_options as _global_options

    for sp in (d, pl, r, v, rp, dn, ed, hv, hs):
        _global_options(sp, suppress=True)  # --json, --lang ... after the fleet command too


def _inv(p: argparse.ArgumentParser, forks: bool = True) -> None:
    p.add_argument("-i", "--inventory", metavar="INVENTORY", required=True, help="an Ansible inventory (file, folder or host list)")
    p.add_argument("--limit", metavar="HOSTS", help="only these hosts (an Ansible pattern)")
    if forks:
        p.add_argument("--forks", metavar="N", type=int, help="hosts Ansible works on at once (Ansible's default: 5)")
        p.add_argument("-v", "--verbose", action="count", default=0, help="more Ansible output (repeatable)")


def run(args, ctx) -> int:
    cmd = getattr(args, "fleet_command", None)
    if not cmd:
        raise CliError("fleet: say what to do: " + ", ".join(PUBLIC) + " (gpu-wizard fleet --help)", 2)
    from app.fleet.ansible import FleetError

    try:
        return {"detect": _detect, "plan": _plan, "run": _run, "verify": _verify, "report": _report,
                "done": _done, "edit": _edit, "host-verify": _host_verify, "host-snapshot": _host_snapshot}[cmd](args, ctx)
    except FleetError as e:
        raise CliError(str(e), e.code) from None


# ---------------------------------------------------------------------------------------

def _fleet_dir(path: str):
    from app.fleet.record import FleetDir

    try:
        FleetDir(path).make()
    except OSError as e:
        raise CliError(f"cannot create {path}: {e.strerror or e}", 2) from None
    return FleetDir(path)  # written in today's layout from here on


def _printer(ctx):
    """Ansible's live output, host by host: on stdout, or on stderr when stdout carries --json."""
    out = sys.stderr if ctx.json else sys.stdout

    def show(line: str) -> None:
        out.write(line)
        out.flush()
    return show


def _host_files(inv, var: str) -> dict[str, str]:
    out = {}
    for h in inv.hosts:
        p = inv.var(h, var)
        if not p:
            continue
        p = os.path.expanduser(str(p))
        if not os.path.isabs(p):
            base = inv.path if os.path.isdir(inv.path) else os.path.dirname(inv.path)
            p = os.path.join(base, p)
        out[h] = p
    return out


def _playbook_run(args, ctx, text: str, extra_vars: dict, what: str, hosts: list[str]):
    from app.fleet.ansible import run_playbook
    from app.fleet.zipapp import build_zipapp

    with tempfile.TemporaryDirectory(prefix="gpu-wizard-fleet-") as tmp:
        pyz = os.path.join(tmp, "gpu-wizard.pyz")
        build_zipapp(pyz)
        pb = os.path.join(tmp, f"{what}.yml")
        with open(pb, "w", encoding="utf-8") as f:
            f.write(text)
        return run_playbook(pb, args.inventory, limit_hosts=hosts, forks=args.forks, verbose=args.verbose,
                            extra_vars={"gw_pyz": pyz, **extra_vars}, on_line=_printer(ctx))


def _outcome_of(result, host: str, have_file: bool) -> tuple[str, str]:
    """(result word, reason) of one contacted host."""
    r = result.recap.get(host) if result else None
    if r is None:
        return "not_run", "ansible-playbook stopped before this host" + (f" (exit {result.rc})" if result else "")
    if r.status == "unreachable":
        return "unreachable", result.reason(host) or "unreachable"
    if r.status == "failed":
        return "failed", result.reason(host) or "a task failed"
    if not have_file:
        return "failed", "no result came back from the host"
    return "recorded", ""


def _say_summary(ctx, data: dict, label: str, done: int, total: int, failed: list[str], seconds: float, folder: str,
                 extra: str = "") -> int:
    from app.messages import cli

    text = cli(f"fleet_{label}", ctx.lang, done=done, hosts=total, folder=folder, seconds=f"{seconds:.1f}") + extra
    if failed:
        text += cli("fleet_failed_hosts", ctx.lang, hosts=", ".join(failed))
    if ctx.json:
        ctx.emit(data, "")
    else:
        sys.stderr.write(text + "\n")
    return 1 if failed else 0


# ---------------------------------------------------------------------------------------
# detect

def _detect(args, ctx) -> int:
    from app.fleet.ansible import read_inventory
    from app.fleet.playbooks import detect_playbook
    from app.fleet.record import host_row, now, one_line

    start = time.monotonic()
    inv = read_inventory(args.inventory, args.limit, meanwhile=_load_detection)
    fd = _fleet_dir(args.output)
    snaps = _host_files(inv, "gpu_wizard_snapshot")
    outcome: dict[str, tuple[str, str, str]] = {}  # host -> (result, reason, source)
    facts: dict[str, Optional[dict[str, Any]]] = {}
    from app.fleet.snapshots import SnapshotHosts, snapshot_keys

    reader = SnapshotHosts(fd)  # in this process; alike files read once
    for h, path in snaps.items():
        res, why, facts[h] = reader.record(h, path)
        outcome[h] = (res, why, "snapshot")
    reader.flush()  # one sync for all of them, before the record names them
    live = [h for h in inv.hosts if h not in snaps]
    result = None
    if live:
        result = _playbook_run(args, ctx, detect_playbook(), {"gw_out": fd.root}, "detect", live)
        for h in live:
            res, why = _outcome_of(result, h, os.path.isfile(fd.private(h)))
            if res == "recorded":
                res, why = _finish_live(fd, h)
            outcome[h] = (res, why, "ssh")
    t = now()
    with fd.updating() as rec:
        for h in inv.hosts:
            res, why, source = outcome[h]
            row = host_row(rec, h)
            row.update(source=source, in_inventory=True)
            row["detect"] = {"time": t, "result": res, **({"reason": one_line(why)} if why else {})}
            if res == "recorded":
                row["facts"] = facts[h] if h in facts else _facts_file(fd, h)
                row["snapshot"] = reader.keys.get(h) or snapshot_keys(fd.private(h))
        if not args.limit:
            for h, row in rec["hosts"].items():
                if h not in inv.hosts:
                    row["in_inventory"] = False
    done = [h for h in inv.hosts if outcome[h][0] == "recorded"]
    failed = [h for h in inv.hosts if outcome[h][0] != "recorded"]
    elapsed = time.monotonic() - start
    data = {"output": fd.root, "hosts": len(inv.hosts), "recorded": done, "failed": failed,
            "reasons": {h: one_line(outcome[h][1]) for h in failed}, "duration_s": round(elapsed, 2),
            "ansible_rc": result.rc if result else None, "in_process": sorted(snaps), "distinct_snapshots": reader.solved}
    return _say_summary(ctx, data, "recorded", len(done), len(inv.hosts), failed, elapsed, fd.root)


def _load_detection() -> None:
    """Detection's and redaction's modules, imported while ansible-inventory reads the inventory."""
    import app.detect  # noqa: F401
    import app.fleet.report  # noqa: F401
    import app.fleet.snapshots  # noqa: F401
    import app.report.redact  # noqa: F401


def _finish_live(fd, host: str) -> tuple[str, str]:
    """A contacted host's snapshots came back: the private one made 0600, its facts read here once."""
    from app.fleet.record import write_json
    from app.system import SnapshotError, SnapshotSystem

    try:
        os.chmod(fd.private(host), 0o600)
        facts = _facts_of(SnapshotSystem.load(fd.private(host)))
        write_json(os.path.join(fd.host_dir(host), "facts.json"), facts)
    except (SnapshotError, ValueError, OSError, RecursionError) as e:
        return "failed", f"the snapshot that came back does not read: {str(e).splitlines()[0] if str(e) else type(e).__name__}"
    if not os.path.isfile(fd.snapshot(host)):
        return "failed", "no redacted snapshot came back"
    return "recorded", ""


def _facts_of(system) -> dict[str, Any]:
    from app.fleet.report import facts_row

    return facts_row(system)


def _facts_file(fd, host: str) -> Optional[dict[str, Any]]:
    from app.fleet.record import read_json

    data = read_json(os.path.join(fd.host_dir(host), "facts.json"))
    return data if isinstance(data, dict) else None


# ---------------------------------------------------------------------------------------
# plan

PLAN_OPTIONS = ("venv", "method", "toolkit", "cudnn", "installer", "torch", "variant", "no_driver", "no_cleanup",
                "wsl_distro", "python_version", "no_torchvision", "offline", "config", "pypi_mirror", "pytorch_mirror",
                "nvidia_mirror", "proxy", "ca_bundle", "db")


def _plan(args, ctx) -> int:
    from app.fleet.ansible import read_inventory, syntax_check
    from app.fleet.plan import build_playbook, secrets_path, secrets_yaml
    from app.fleet.record import FleetDir, host_row, now, write_bytes, write_json
    from app.fleet.zipapp import build_zipapp

    inv = read_inventory(args.inventory, args.limit)
    fd = FleetDir(args.snapshots)
    if not os.path.isdir(fd.root):
        raise CliError(f"--snapshots {args.snapshots}: no such folder (run `gpu-wizard fleet detect -o DIR` first)", 2)
    out = os.path.abspath(args.output)
    if not os.path.isdir(os.path.dirname(out)):
        raise CliError(f"cannot write {args.output}: folder {os.path.dirname(out)} does not exist", 2)
    start = time.monotonic()
    options = {k: getattr(args, k, None) for k in PLAN_OPTIONS}
    options["driver_version"] = args.driver_version
    from app.fleet.plan import plan_hosts

    plans, secrets = plan_hosts(fd, inv, options)
    pyz = os.path.join(os.path.dirname(out), "gpu-wizard.pyz")
    build_zipapp(pyz)
    with open(pyz, "rb") as f:
        engine = f.read()
    spath = secrets_path(out) if secrets else None
    text, groups = build_playbook(plans, fd.root, engine, secrets_file=spath)  # root's copy of the engine is checked against it
    if spath:
        write_bytes(spath, secrets_yaml(secrets).encode(), mode=0o600)  # credentials: never in the playbook
    write_bytes(out, text.encode())
    hosts = [p.summary for p in plans]
    group_of = {h: g["group"] for g in groups for h in g["hosts"]}
    for hs in hosts:
        hs["group"] = group_of.get(hs["host"])
    write_json(fd.plan_path, {"format": "gpu-wizard-fleet-plan/2", "playbook": out, "created": now(), "hosts": hosts, "groups": groups})
    t = now()
    with fd.updating() as rec:
        for hs in hosts:
            row = host_row(rec, hs["host"])
            row["plan"] = {"time": t, "status": hs["status"], "group": hs.get("group"), "playbook": out,
                           **({"error": hs["error"]} if hs.get("error") else {}),
                           "steps": [s["id"] for s in hs.get("steps") or ()]}
    elapsed = time.monotonic() - start
    checked = None
    if not args.no_syntax_check:
        ok, msg = syntax_check(out, args.inventory)
        checked = ok
        if not ok:
            raise CliError(f"the written playbook {out} fails ansible-playbook --syntax-check: {msg.splitlines()[-1] if msg else ''}", 1)
    return _plan_said(ctx, plans, groups, out, checked, elapsed, spath)


def _plan_said(ctx, plans, groups, out: str, checked, elapsed: float, spath: Optional[str]) -> int:
    from app.fleet.plan import HOME_SENTINEL
    from app.messages import cli, step_title

    errors = [hp for hp in plans if hp.error]
    data = {"playbook": out, "hosts": len(plans), "groups": groups, "errors": {hp.host: hp.error for hp in errors},
            "syntax_check": checked, "plan_s": round(elapsed, 3), "secrets_file": spath}
    lines = [cli("fleet_plan_wrote", ctx.lang, playbook=out, hosts=len(plans) - len(errors), groups=len(groups))
             + (cli("fleet_plan_checked", ctx.lang) if checked else "")]
    first = {hp.key: hp.plan for hp in plans if not hp.error}
    for g in groups:
        titles = [step_title(st, ctx.lang).replace(HOME_SENTINEL, "~") for st in first[g["key"]].steps]
        lines.append(cli("fleet_plan_group", ctx.lang, group=g["group"], hosts=", ".join(g["hosts"]),
                         steps="; ".join(titles) or cli("fleet_plan_nothing", ctx.lang)))
    for hp in errors:
        lines.append(cli("fleet_plan_not_planned", ctx.lang, host=hp.host, error=hp.error))
    if spath:
        lines.append(cli("fleet_plan_secrets", ctx.lang, path=spath))
    ctx.emit(data, "\n".join(lines))
    return 1 if errors else 0


# ---------------------------------------------------------------------------------------
# run

def _run(args, ctx) -> int:
    from app.fleet.ansible import read_inventory, run_playbook
    from app.fleet.plan import snapshots_dir_of

    pb = args.playbook
    if not os.path.isfile(pb):
        raise CliError(f"playbook not found: {pb} (write it with `gpu-wizard fleet plan -o {pb}`)", 2)
    if not os.path.isfile(os.path.join(os.path.dirname(os.path.abspath(pb)), "gpu-wizard.pyz")):
        raise CliError(f"the engine gpu-wizard.pyz is missing beside {pb}: write the playbook again with `fleet plan`", 2)
    if args.max_fail_percentage is not None and not 0 <= args.max_fail_percentage <= 100:
        raise CliError("--max-fail-percentage must be between 0 and 100", 2)
    if args.serial is not None and not (args.serial.rstrip("%").isdigit() and int(args.serial.rstrip("%")) > 0):
        raise CliError(f"--serial {args.serial}: give a number of hosts or a percentage such as 25%", 2)
    inv = read_inventory(args.inventory, args.limit)
    with open(pb, encoding="utf-8") as f:
        text = f.read()
    snaps = snapshots_dir_of(text)
    run_pb, tmp = _with_play_options(pb, text, args)
    extra: list[str] = ["--ask-become-pass"] if args.ask_become_pass else []
    for opt in ("tags", "skip_tags"):
        if getattr(args, opt):
            extra += ["--" + opt.replace("_", "-"), getattr(args, opt)]
    try:
        result = run_playbook(run_pb, args.inventory, limit_hosts=inv.hosts, check=args.check, forks=args.forks,
                              verbose=args.verbose, on_line=_printer(ctx), extra_args=extra,
                              extra_vars={"gpu_wizard_skip_reboot": True} if args.skip_reboot else None)
    finally:
        if tmp:
            os.unlink(tmp)
    planned = _planned_hosts(text)
    rows = _run_rows(result, inv.hosts, planned, inv, args)
    record = {"format": "gpu-wizard-fleet-run/2", "playbook": os.path.abspath(pb), "check": args.check,
              "limit": args.limit, "tags": args.tags, "finished": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
              "duration_s": round(result.duration_s, 2), "ansible_rc": result.rc, "hosts": rows}
    if snaps and os.path.isdir(snaps):
        _record_run(snaps, record, args)
    return _run_said(ctx, args, result, rows, record)


def _with_play_options(pb: str, text: str, args) -> tuple[str, Optional[str]]:
    play_opts: dict[str, Any] = {}
    if args.serial:
        play_opts["serial"] = args.serial if args.serial.endswith("%") else int(args.serial)
    if args.max_fail_percentage is not None:
        play_opts["max_fail_percentage"] = args.max_fail_percentage
    if args.strategy:
        play_opts["strategy"] = args.strategy
    if not play_opts:
        return os.path.abspath(pb), None
    import yaml

    from app.fleet.ansible import Tmpl, dump_yaml, trusted_loader

    plays = yaml.load(text, Loader=trusted_loader())  # the wizard's own file: its templates stay templates
    for play in plays:
        play.update({k: Tmpl(str(v)) if isinstance(v, str) else v for k, v in play_opts.items()})
        if args.max_fail_percentage is not None:  # failures count toward stopping: no rescue
            for t in play.get("tasks") or ():
                t.pop("rescue", None)
    fd, tmp = tempfile.mkstemp(prefix=".fleet-run-", suffix=".yml", dir=os.path.dirname(os.path.abspath(pb)))
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(dump_yaml(plays))
    return tmp, tmp  # written beside it so playbook_dir (the engine, the vars file) stays


def _planned_hosts(text: str) -> set[str]:
    import re

    m = re.search(r"^\s+gw_plan_of:\n((?:\s{6,}.*\n)+)", text, re.M)
    if not m:
        return set()
    out = set()
    for line in m.group(1).splitlines():
        k = line.strip().rsplit(":", 1)[0].strip().strip("'\"")
        if k:
            out.add(k)
    return out


def _run_rows(result, hosts: list[str], planned: set[str], inv, args) -> dict[str, dict[str, Any]]:
    from app.fleet.record import one_line

    rows: dict[str, dict[str, Any]] = {}
    stopped = args.max_fail_percentage is not None and any(r.status in ("failed", "unreachable") for r in result.recap.values())
    for h in hosts:
        r = result.recap.get(h)
        if inv.var(h, "gpu_wizard_snapshot"):
            rows[h] = {"status": "snapshot", "reason": "snapshot-backed: nothing is applied to it"}
            continue
        if planned and h not in planned:
            rows[h] = {"status": "not_planned", "reason": "the playbook has no plan for this host (see fleet plan)"}
            continue
        if r is None:
            why = (f"not run: the play stopped when more than {args.max_fail_percentage}% of a batch had failed "
                   "(--max-fail-percentage)") if stopped else f"not run: ansible-playbook ended before this host (exit {result.rc})"
            rows[h] = {"status": "not_run", "reason": why}
            continue
        row = r.to_json()
        if r.status in ("failed", "unreachable"):
            row["reason"] = one_line(result.reason(h) or r.status)
        rows[h] = row
    return rows


def _record_run(snaps: str, record: dict[str, Any], args) -> None:
    from app.fleet.record import FleetDir, append_run, host_row

    fd = FleetDir(snaps)
    try:
        with fd.updating() as rec:
            for h, r in record["hosts"].items():
                append_run(host_row(rec, h), {"time": record["finished"], "check": record["check"], "result": r["status"],
                                              "changed": r.get("changed", 0), **({"reason": r["reason"]} if r.get("reason") else {}),
                                              **({"limit": record["limit"]} if record["limit"] else {}),
                                              **({"tags": record["tags"]} if record["tags"] else {})})
            rec["runs"].append({k: record[k] for k in ("finished", "check", "limit", "tags", "duration_s", "ansible_rc", "playbook")}
                               | {"hosts": len(record["hosts"])})
            del rec["runs"][:-500]
    except OSError:
        pass


def _run_said(ctx, args, result, rows: dict[str, dict[str, Any]], record: dict[str, Any]) -> int:
    from app.messages import cli

    applied = {h: r for h, r in rows.items() if r["status"] in ("ok", "changed", "failed", "unreachable")}
    failed = [h for h, r in rows.items() if r["status"] in ("failed", "unreachable")]
    not_run = [h for h, r in rows.items() if r["status"] == "not_run"]
    changed = sum(int(r.get("changed", 0)) for r in applied.values())
    text = cli("fleet_run_checked" if args.check else "fleet_run_applied", ctx.lang, hosts=len(applied),
               seconds=f"{result.duration_s:.1f}", changed=changed)
    if failed:
        text += cli("fleet_failed_hosts", ctx.lang, hosts=", ".join(failed))
    if not_run:
        text += cli("fleet_not_run_hosts", ctx.lang, hosts=", ".join(not_run))
    for h in failed:
        text += "\n" + cli("fleet_host_reason", ctx.lang, host=h, reason=rows[h].get("reason", ""))
    if ctx.json:
        ctx.emit(record, "")
    else:
        sys.stderr.write(text + "\n")
    if not result.recap and result.rc != 0:
        raise CliError("ansible-playbook failed before any host ran: " + (result.output_tail[-1] if result.output_tail else ""), 1)
    return 1 if failed or not_run or result.rc not in (0, 2, 4) else 0


# ---------------------------------------------------------------------------------------
# verify

def _verify(args, ctx) -> int:
    from app.fleet.ansible import read_inventory
    from app.fleet.playbooks import verify_playbook
    from app.fleet.record import host_row, now, one_line

    burn = None
    if args.burn_in:
        from app.verify.burnin import DurationError, parse_duration

        try:
            burn = parse_duration(args.burn_in)
        except DurationError as e:
            raise CliError(f"--burn-in {e}", 2) from None
    start = time.monotonic()
    inv = read_inventory(args.inventory, args.limit, meanwhile=_load_detection)
    fd = _fleet_dir(args.output)
    snaps = _host_files(inv, "gpu_wizard_snapshot")
    vers = _host_files(inv, "gpu_wizard_verification")
    outcome: dict[str, tuple[str, str]] = {}
    for h, path in snaps.items():
        outcome[h] = _verify_from_files(fd, h, path, vers.get(h))
    live = [h for h in inv.hosts if h not in snaps]
    result = None
    if live:
        result = _playbook_run(args, ctx, verify_playbook(quick=not args.full, seconds=args.seconds, burn_in_s=burn),
                               {"gw_out": fd.root}, "verify", live)
        for h in live:
            res, why = _outcome_of(result, h, os.path.isfile(fd.verification(h)))
            outcome[h] = (res, why) if res != "recorded" else _verdict_of(fd, h)
    t = now()
    with fd.updating() as rec:
        for h in inv.hosts:
            res, why = outcome[h]
            host_row(rec, h)["verify"] = {"time": t, "result": res, **({"reason": one_line(why)} if why else {})}
    return _verify_said(ctx, fd, inv.hosts, outcome, time.monotonic() - start, result)


def _verify_from_files(fd, host: str, snapshot: str, verification: Optional[str]) -> tuple[str, str]:
    """A snapshot-backed host: its saved verification (if any) judged again, and its own report, here."""
    from app.fleet.host import host_verify

    prefix = os.path.join(fd.host_dir(host), ".verify-tmp")
    try:
        os.makedirs(fd.host_dir(host), exist_ok=True)
        host_verify(prefix, snapshot=snapshot, verification=verification)
        from app.fleet.report import adopt_host_files

        adopt_host_files(fd, host, prefix)
    except (OSError, ValueError, RecursionError) as e:
        return "failed", str(e).splitlines()[0] if str(e) else type(e).__name__
    if not verification:
        return "skipped", "no verification: a snapshot-backed host (gpu_wizard_verification names a saved one)"
    return _verdict_of(fd, host)


def _verdict_of(fd, host: str) -> tuple[str, str]:
    """What a host's verification says: pass/warn/fail, or `skipped` with the reason when no layer ran."""
    from app.fleet.record import one_line, read_json

    data = read_json(fd.verification(host))
    if not isinstance(data, dict):
        return "failed", "its verification does not read"
    layers = {la.get("name"): la.get("status") for la in data.get("layers") or () if isinstance(la, dict)}
    ran = [s for s in layers.values() if s in ("pass", "warn", "fail")]
    if not ran or layers.get("pytorch") == "skip":
        why: list[str] = []
        if layers.get("device") == "skip":
            dev = next((la.get("reason") for la in data.get("layers") or () if isinstance(la, dict) and la.get("name") == "device"), "")
            why.append(f"no GPU answered ({one_line(dev)})" if dev else "no GPU answered")
        torch: dict[str, Any] = data["torch"] if isinstance(data.get("torch"), dict) else {}
        if not torch.get("version"):
            why.append("no PyTorch yet: run `gpu-wizard fleet run` first")
        return "skipped", "; ".join(why) or "no layer ran"
    worst = "fail" if "fail" in ran else "warn" if "warn" in ran else "pass"
    return worst, ""


def _verify_said(ctx, fd, hosts: list[str], outcome: dict[str, tuple[str, str]], seconds: float, result) -> int:
    from app.fleet.record import one_line
    from app.messages import cli

    by: dict[str, list[str]] = {}
    for h in hosts:
        by.setdefault(outcome[h][0], []).append(h)
    verified = [h for h in hosts if outcome[h][0] in ("pass", "warn", "fail")]
    skipped = by.get("skipped", [])
    failed = [h for h in hosts if outcome[h][0] in ("failed", "unreachable", "not_run")]
    data = {"output": fd.root, "hosts": len(hosts), "verified": verified, "skipped": skipped, "failed": failed,
            "results": {h: outcome[h][0] for h in hosts}, "reasons": {h: one_line(outcome[h][1]) for h in hosts if outcome[h][1]},
            "duration_s": round(seconds, 2), "ansible_rc": result.rc if result else None}
    text = cli("fleet_verified_counts", ctx.lang, verified=len(verified), hosts=len(hosts), folder=fd.root, seconds=f"{seconds:.1f}",
               passed=len(by.get("pass", [])), warned=len(by.get("warn", [])), failing=len(by.get("fail", [])))
    reasons: dict[str, list[str]] = {}
    for h in skipped:
        reasons.setdefault(one_line(outcome[h][1]), []).append(h)
    for why, hs in reasons.items():
        text += "\n" + cli("fleet_skipped_because", ctx.lang, count=len(hs), reason=why, hosts=", ".join(hs))
    for h in failed:
        text += "\n" + cli("fleet_host_reason", ctx.lang, host=h, reason=one_line(outcome[h][1]) or outcome[h][0])
    if ctx.json:
        ctx.emit(data, "")
    else:
        sys.stderr.write(text + "\n")
    return 1 if failed or by.get("fail") else 0


# ---------------------------------------------------------------------------------------
# report

def _report(args, ctx) -> int:
    from app.fleet.report import build_fleet_report, write_fleet_report, write_host_reports

    d = args.dir
    if not os.path.isdir(d):
        raise CliError(f"{d}: no such folder (the folder `fleet detect`/`fleet verify` wrote)", 2)
    out = args.output or os.path.join(d, "fleet.html")
    parent = os.path.dirname(os.path.abspath(out))
    if not os.path.isdir(parent):
        raise CliError(f"cannot write {out}: folder {parent} does not exist", 2)
    start = time.monotonic()
    from app.fleet.record import FleetDir, valid_host_name

    fdir = FleetDir(d)
    wanted = list(args.host or ())
    for h in wanted:
        if not valid_host_name(h) or not os.path.isfile(fdir.snapshot(h)):
            raise CliError(f"--host {h}: no such host in {d}", 2)
    if wanted or args.all_host_reports:
        write_host_reports(fdir, wanted or None)
    report = build_fleet_report(d, lang=ctx.lang)
    from app.fleet.report import _count
    from app.messages import cli

    if not report["hosts"]:
        raise CliError(f"{d}: no hosts recorded (run `gpu-wizard fleet detect -o {d}` first)", 2)
    html_path, json_path = write_fleet_report(report, out)
    elapsed = time.monotonic() - start
    lag = [h["host"] for h in report["hosts"] if h["flags"]]
    ctx.emit({"output": html_path, "json": json_path, "hosts": len(report["hosts"]), "lagging": lag,
              "bytes": os.path.getsize(html_path), "seconds": round(elapsed, 3)},
             cli("fleet_report_wrote", ctx.lang, page=html_path, json=os.path.basename(json_path), hosts=_count("fleet_n_hosts", len(report["hosts"]), ctx.lang))
             + (cli("fleet_report_lagging", ctx.lang, hosts=", ".join(lag)) if lag else cli("fleet_report_none_lagging", ctx.lang)))
    return 0


# ---------------------------------------------------------------------------------------
# run on the hosts

def _json_arg(args, name: str) -> Any:
    raw = getattr(args, name)
    env = getattr(args, name + "_env")
    if env:
        from app.fleet.host import host_text

        raw = os.environ.get(env)
        if raw is None:
            raise CliError(f"--{name}-env {env}: not set", 2)
        try:
            raw = host_text(raw)
        except ValueError as e:
            raise CliError(str(e), 2) from None
    if raw is None:
        raise CliError(f"--{name} or --{name}-env is needed", 2)
    try:
        return fileio.loads(raw)
    except (ValueError, RecursionError):
        raise CliError(f"--{name}: not JSON", 2) from None


def _done(args, ctx) -> int:
    from app.fleet.host import NOT_DONE, checks_done

    checks = _json_arg(args, "checks")
    if not isinstance(checks, list):
        raise CliError("--checks: not a list of checks", 2)
    return 0 if checks_done(checks) else NOT_DONE


def _edit(args, ctx) -> int:
    from app.fleet.host import apply_ini_edit

    edit = _json_arg(args, "edit")
    if not isinstance(edit, dict):
        raise CliError("--edit: not an edit", 2)
    if not args.check and not args.backup_dir:
        raise CliError("--backup-dir is needed", 2)
    try:
        sys.stdout.write(apply_ini_edit(edit, args.backup_dir or "", check=args.check) + "\n")
    except (OSError, ValueError, TypeError, KeyError) as e:
        raise CliError(f"cannot edit: {e}", 1) from None
    return 0


def _host_verify(args, ctx) -> int:
    from app.fleet.host import host_verify

    try:
        out = host_verify(args.prefix, venv=args.venv, quick=args.quick, seconds=args.seconds, burn_in_s=args.burn_in,
                          snapshot=args.from_snapshot, verification=args.verification or None)
    except (OSError, ValueError) as e:
        raise CliError(f"cannot verify: {str(e).splitlines()[0] if str(e) else type(e).__name__}", 1) from None
    sys.stdout.write(json.dumps(out) + "\n")
    return 1 if out.get("status") == "fail" else 0


def _host_snapshot(args, ctx) -> int:
    """On a host: one detection, written twice: PREFIX.private.json (0600, unredacted, for planning) and
    PREFIX.json (redacted, learning this machine's user, host name and secrets)."""
    from app.fleet.record import write_bytes, write_json
    from app.report.snapshots import redact_recorded, record_snapshot
    from app.system import LiveSystem

    system = LiveSystem()
    private = record_snapshot(system, redact=False)
    try:
        write_bytes(args.prefix + ".private.json", (json.dumps(private, ensure_ascii=False) + "\n").encode(), mode=0o600)
        write_json(args.prefix + ".json", redact_recorded(copy.deepcopy(private), system))
    except OSError as e:
        raise CliError(f"cannot write {args.prefix}: {e.strerror or e}", 1) from None
    return 0
