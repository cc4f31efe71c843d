"""`gpu-wizard fleet`: the wizard across an Ansible inventory, through ansible-core.

    fleet detect -i INVENTORY -o DIR                  a redacted snapshot of every host: DIR/<host>.json
    fleet plan   -i INVENTORY --snapshots DIR -o PLAYBOOK   each host's own plan, as one playbook
    fleet run    -i INVENTORY [-p PLAYBOOK] [--limit HOSTS] [--check] [--forks N] [--serial N]
                 [--max-fail-percentage N]            apply it with ansible-playbook, live output per host
    fleet verify -i INVENTORY -o DIR                  each host's verification JSON and own report
    fleet report DIR -o fleet.html                    one page (and JSON) with a row per host

Ansible does the connecting (SSH, forks, strategies); the wizard ships its engine to each host as
one zipapp and runs it with the host's Python 3. See app/fleet/.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time

from app import fileio
from app.commands.base import CliError

HELP = "set up and prove many machines at once through Ansible (detect, plan, run, verify, report)"

PUBLIC = ("detect", "plan", "run", "verify", "report")


def add_arguments(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="fleet_command", metavar="{" + ",".join(PUBLIC) + "}")
    d = sub.add_parser("detect", help="record a redacted snapshot of every host into DIR/<inventory_hostname>.json")
    _inv(d)
    d.add_argument("-o", "--output", metavar="DIR", required=True, help="folder for the snapshots (created)")

    pl = sub.add_parser("plan", help="write one playbook carrying each host's own plan")
    _inv(pl, forks=False)
    pl.add_argument("--snapshots", metavar="DIR", required=True, help="the folder `fleet detect` wrote")
    pl.add_argument("-o", "--output", metavar="PLAYBOOK", default="fleet-plan.yml", help="the playbook to write (default fleet-plan.yml)")
    pl.add_argument("--no-syntax-check", action="store_true", help="skip `ansible-playbook --syntax-check` of the result")
    from app.commands.plan import add_choice_arguments

    add_choice_arguments(pl)

    r = sub.add_parser("run", help="apply the fleet playbook with ansible-playbook")
    _inv(r)
    r.add_argument("-p", "--playbook", metavar="PLAYBOOK", default="fleet-plan.yml", help="the playbook `fleet plan` wrote (default fleet-plan.yml)")
    r.add_argument("--check", action="store_true", help="Ansible's check mode: say what would change, change nothing")
    r.add_argument("--serial", metavar="N", help="hosts per batch (a number or a percentage such as 25%%)")
    r.add_argument("--max-fail-percentage", metavar="N", type=int, help="stop when more than N%% of a batch failed (default: never stop)")
    r.add_argument("--strategy", choices=("linear", "free"), help="Ansible strategy (free: each host goes at its own pace)")
    r.add_argument("-K", "--ask-become-pass", action="store_true", help="ask for the sudo password of the hosts (Ansible's -K)")

    v = sub.add_parser("verify", help="verify every host; collect DIR/<host>.verify.json and its own report")
    _inv(v)
    v.add_argument("-o", "--output", metavar="DIR", required=True, help="folder for the results (created)")
    v.add_argument("--full", action="store_true", help="the full verification instead of --quick")
    v.add_argument("--seconds", metavar="N", type=float, help="sustained load per dtype (see `verify --seconds`)")
    v.add_argument("--burn-in", metavar="DURATION", help="a burn-in on every host's GPUs (10m, 2h: see `verify --burn-in`)")

    rp = sub.add_parser("report", help="one self-contained HTML page (and JSON) with a row per host")
    rp.add_argument("dir", metavar="DIR", help="the folder of snapshots and verifications")
    rp.add_argument("-o", "--output", metavar="FILE", default=None, help="the HTML page (default DIR/fleet.html); the JSON goes beside it")
    rp.add_argument("--no-host-reports", action="store_true", help="do not write missing per-host reports")

    # run on the hosts by the fleet playbooks (inside the zipapp)
    dn = sub.add_parser("done")
    dn.add_argument("--checks", required=True)
    ed = sub.add_parser("edit")
    ed.add_argument("--edit", required=True)
    ed.add_argument("--backup-dir", required=True)
    hv = sub.add_parser("host-verify")
    hv.add_argument("--prefix", required=True)
    hv.add_argument("--venv")
    hv.add_argument("--quick", action="store_true")
    hv.add_argument("--seconds", type=float)
    hv.add_argument("--burn-in", type=float)
    hv.add_argument("--from-snapshot")
    hv.add_argument("--verification")
    from app.commands.base import global_options as _global_options

    for sp in (d, pl, r, v, rp, dn, ed, hv):
        _global_options(sp, suppress=True)  # --json, --lang ... after the fleet command too


def _inv(p: argparse.ArgumentParser, forks: bool = True) -> None:
    p.add_argument("-i", "--inventory", metavar="INVENTORY", required=True, help="an Ansible inventory (file, folder or host list)")
    p.add_argument("--limit", metavar="HOSTS", help="only these hosts (an Ansible pattern)")
    if forks:
        p.add_argument("--forks", metavar="N", type=int, help="hosts Ansible works on at once (Ansible's default: 5)")
        p.add_argument("-v", "--verbose", action="count", default=0, help="more Ansible output (repeatable)")


def _fleet_error(e) -> CliError:
    return CliError(str(e), getattr(e, "code", 2))


def run(args, ctx) -> int:
    cmd = getattr(args, "fleet_command", None)
    if not cmd:
        raise CliError("fleet: say what to do: " + ", ".join(PUBLIC) + " (gpu-wizard fleet --help)", 2)
    from app.fleet.ansible import FleetError

    try:
        return {"detect": _detect, "plan": _plan, "run": _run, "verify": _verify, "report": _report,
                "done": _done, "edit": _edit, "host-verify": _host_verify}[cmd](args, ctx)
    except FleetError as e:
        raise _fleet_error(e) from None


# ---------------------------------------------------------------------------------------

def _out_dir(path: str) -> str:
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as e:
        raise CliError(f"cannot create {path}: {e.strerror or e}", 2) from None
    return os.path.abspath(path)


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
        if not os.path.isfile(p):
            raise CliError(f"host {h}: {var} {p}: file not found", 2)
        out[h] = p
    return out


def _playbook_run(args, ctx, text: str, extra_vars: dict, what: str):
    from app.fleet.ansible import run_playbook
    from app.fleet.zipapp import build_zipapp

    with tempfile.TemporaryDirectory(prefix="gpu-wizard-fleet-") as tmp:
        pyz = os.path.join(tmp, "gpu-wizard.pyz")
        build_zipapp(pyz)
        pb = os.path.join(tmp, f"{what}.yml")
        with open(pb, "w", encoding="utf-8") as f:
            f.write(text)
        return run_playbook(pb, args.inventory, limit=args.limit, forks=args.forks, verbose=args.verbose,
                            extra_vars={"gw_pyz": pyz, **extra_vars}, on_line=_printer(ctx))


def _summary(ctx, result, inv, expect: str, out: str, label: str) -> int:
    done, failed = [], []
    for h in inv.hosts:
        r = result.recap.get(h)
        ok = r is not None and r.status in ("ok", "changed") and os.path.isfile(os.path.join(out, f"{h}{expect}"))
        (done if ok else failed).append(h)
    data = {"output": out, "hosts": len(inv.hosts), "recorded": done, "failed": failed, "duration_s": round(result.duration_s, 2),
            "ansible_rc": result.rc}
    from app.messages import cli

    text = cli(f"fleet_{label}", ctx.lang, done=len(done), hosts=len(inv.hosts), folder=out, seconds=f"{result.duration_s:.1f}")
    if failed:
        text += cli("fleet_failed_hosts", ctx.lang, hosts=", ".join(failed))
    if ctx.json:
        ctx.emit(data, "")
    else:
        sys.stderr.write(text + "\n")
    return 1 if failed else 0


def _detect(args, ctx) -> int:
    from app.fleet.ansible import read_inventory
    from app.fleet.playbooks import detect_playbook

    inv = read_inventory(args.inventory, args.limit)
    out = _out_dir(args.output)
    snaps = _host_files(inv, "gpu_wizard_snapshot")
    result = _playbook_run(args, ctx, detect_playbook(), {"gw_out": out, "gw_snapshots": snaps}, "detect")
    return _summary(ctx, result, inv, ".json", out, "recorded")


def _verify(args, ctx) -> int:
    from app.fleet.ansible import read_inventory
    from app.fleet.playbooks import verify_playbook

    burn = None
    if args.burn_in:
        from app.verify.burnin import DurationError, parse_duration

        try:
            burn = parse_duration(args.burn_in)
        except DurationError as e:
            raise CliError(f"--burn-in {e}", 2) from None
    inv = read_inventory(args.inventory, args.limit)
    out = _out_dir(args.output)
    snaps = _host_files(inv, "gpu_wizard_snapshot")
    vers = _host_files(inv, "gpu_wizard_verification")
    result = _playbook_run(args, ctx, verify_playbook(quick=not args.full, seconds=args.seconds, burn_in_s=burn),
                           {"gw_out": out, "gw_snapshots": snaps, "gw_verifications": vers}, "verify")
    return _summary(ctx, result, inv, ".report.html", out, "verified")


def _plan(args, ctx) -> int:
    from app.fleet.ansible import read_inventory, syntax_check
    from app.fleet.plan import HOME_SENTINEL, HostPlan, build_playbook, host_args, host_plan, plan_tasks, summarize
    from app.fleet.zipapp import build_zipapp
    from app.fileio import write_json_atomic
    from app.system import SnapshotError

    inv = read_inventory(args.inventory, args.limit)
    snaps = os.path.abspath(args.snapshots)
    if not os.path.isdir(snaps):
        raise CliError(f"--snapshots {args.snapshots}: no such folder (run `gpu-wizard fleet detect -o DIR` first)", 2)
    out = os.path.abspath(args.output)
    if not os.path.isdir(os.path.dirname(out)):
        raise CliError(f"cannot write {args.output}: folder {os.path.dirname(out)} does not exist", 2)
    start = time.monotonic()
    plans: list[HostPlan] = []
    for h in inv.hosts:
        path = os.path.join(snaps, f"{h}.json")
        if not os.path.isfile(path):
            plans.append(HostPlan(h, None, [], error=f"no snapshot {path}"))
            continue
        try:
            _, plan = host_plan(path, host_args(args, inv, h))
            plans.append(HostPlan(h, plan, plan_tasks(plan)))
        except (SnapshotError, ValueError) as e:
            plans.append(HostPlan(h, None, [], error=str(e).splitlines()[0] if str(e) else type(e).__name__))
        except CliError as e:
            plans.append(HostPlan(h, None, [], error=str(e)))
    pyz = os.path.join(os.path.dirname(out), "gpu-wizard.pyz")
    build_zipapp(pyz)
    with open(pyz, "rb") as f:
        engine = f.read()
    text, groups = build_playbook(plans, snaps, engine)  # root's copy of the engine is checked against it
    fileio.write_atomic(out, text)
    hosts = [summarize(hp) for hp in plans]
    for hs in hosts:
        hs["group"] = next((g["group"] for g in groups if hs["host"] in g["hosts"]), None)
    write_json_atomic(os.path.join(snaps, "fleet-plan.json"), {"format": "gpu-wizard-fleet-plan/1", "playbook": out,
                                                               "hosts": hosts, "groups": groups})
    elapsed = time.monotonic() - start
    checked = None
    if not args.no_syntax_check:
        ok, msg = syntax_check(out, args.inventory)
        checked = ok
        if not ok:
            raise CliError(f"the written playbook {out} fails ansible-playbook --syntax-check: {msg.splitlines()[-1] if msg else ''}", 1)
    errors = [hp for hp in plans if hp.error]
    data = {"playbook": out, "hosts": len(plans), "groups": groups, "errors": {hp.host: hp.error for hp in errors},
            "syntax_check": checked, "plan_s": round(elapsed, 3)}
    from app.messages import cli, step_title

    lines = [cli("fleet_plan_wrote", ctx.lang, playbook=out, hosts=len(plans) - len(errors), groups=len(groups))
             + (cli("fleet_plan_checked", ctx.lang) if checked else "")]
    first = {hp.key: hp.plan for hp in plans if not hp.error}
    for g in groups:
        titles = [step_title(st, ctx.lang).replace(HOME_SENTINEL, "~") for st in first[g["key"]].steps]
        lines.append(cli("fleet_plan_group", ctx.lang, group=g["group"], hosts=", ".join(g["hosts"]),
                         steps="; ".join(titles) or cli("fleet_plan_nothing", ctx.lang)))
    for hp in errors:
        lines.append(cli("fleet_plan_not_planned", ctx.lang, host=hp.host, error=hp.error))
    ctx.emit(data, "\n".join(lines))
    return 1 if errors else 0


def _run(args, ctx) -> int:
    from app.fleet.ansible import run_playbook
    from app.fleet.plan import snapshots_dir_of
    from app.fileio import write_json_atomic

    pb = args.playbook
    if not os.path.isfile(pb):
        raise CliError(f"playbook not found: {pb} (write it with `gpu-wizard fleet plan -o {pb}`)", 2)
    if not os.path.isfile(os.path.join(os.path.dirname(os.path.abspath(pb)), "gpu-wizard.pyz")):
        raise CliError(f"the engine gpu-wizard.pyz is missing beside {pb}: write the playbook again with `fleet plan`", 2)
    if args.max_fail_percentage is not None and not 0 <= args.max_fail_percentage <= 100:
        raise CliError("--max-fail-percentage must be between 0 and 100", 2)
    if args.serial is not None and not (args.serial.rstrip("%").isdigit() and int(args.serial.rstrip("%")) > 0):
        raise CliError(f"--serial {args.serial}: give a number of hosts or a percentage such as 25%", 2)
    with open(pb, encoding="utf-8") as f:
        text = f.read()
    snaps = snapshots_dir_of(text)
    play_opts = {}
    if args.serial:
        play_opts["serial"] = args.serial if args.serial.endswith("%") else int(args.serial)
    if args.max_fail_percentage is not None:
        play_opts["max_fail_percentage"] = args.max_fail_percentage
    if args.strategy:
        play_opts["strategy"] = args.strategy
    run_pb = os.path.abspath(pb)
    tmp = None
    if play_opts:  # the same plays with the batch options set; written beside it so playbook_dir stays
        import yaml

        plays = yaml.load(text, Loader=_unsafe_loader())
        for play in plays:
            play.update(play_opts)
            if args.max_fail_percentage is not None:  # failures count toward stopping: no rescue
                for t in play.get("tasks") or ():
                    t.pop("rescue", None)
        from app.fleet.ansible import dump_yaml

        fd, tmp = tempfile.mkstemp(prefix=".fleet-run-", suffix=".yml", dir=os.path.dirname(run_pb))
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(dump_yaml(plays))
        run_pb = tmp
    try:
        result = run_playbook(run_pb, args.inventory, limit=args.limit, check=args.check, forks=args.forks,
                              verbose=args.verbose, on_line=_printer(ctx),
                              extra_args=["--ask-become-pass"] if args.ask_become_pass else ())
    finally:
        if tmp:
            os.unlink(tmp)
    hosts = {h: r.to_json() for h, r in result.recap.items() if h != "localhost" or "localhost" in text}
    record = {"format": "gpu-wizard-fleet-run/1", "playbook": os.path.abspath(pb), "check": args.check,
              "finished": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "duration_s": round(result.duration_s, 2),
              "ansible_rc": result.rc, "hosts": hosts}
    if snaps and os.path.isdir(snaps):
        try:
            write_json_atomic(os.path.join(snaps, "fleet-run.json" if not args.check else "fleet-check.json"), record)
        except OSError:
            pass
    failed = [h for h, r in hosts.items() if r["status"] in ("failed", "unreachable")]
    changed = sum(r["changed"] for r in hosts.values())
    from app.messages import cli

    text_out = cli("fleet_run_checked" if args.check else "fleet_run_applied", ctx.lang, hosts=len(hosts),
                   seconds=f"{result.duration_s:.1f}", changed=changed) \
        + (cli("fleet_failed_hosts", ctx.lang, hosts=", ".join(failed)) if failed else "")
    if ctx.json:
        ctx.emit(record, "")
    else:
        sys.stderr.write(text_out + "\n")
    if not hosts and result.rc != 0:
        raise CliError("ansible-playbook failed before any host ran: " + (result.output_tail[-1] if result.output_tail else ""), 1)
    return 1 if failed or result.rc not in (0, 2, 4) else 0


def _unsafe_loader():
    import yaml

    from app.fleet.ansible import Unsafe

    class Loader(yaml.SafeLoader):
        pass

    Loader.add_constructor("!unsafe", lambda loader, node: Unsafe(loader.construct_scalar(node)))
    return Loader


def _report(args, ctx) -> int:
    from app.fleet.report import build_fleet_report, write_fleet_report

    d = args.dir
    if not os.path.isdir(d):
        raise CliError(f"{d}: no such folder (the folder `fleet detect`/`fleet verify` wrote)", 2)
    out = args.output or os.path.join(d, "fleet.html")
    parent = os.path.dirname(os.path.abspath(out))
    if not os.path.isdir(parent):
        raise CliError(f"cannot write {out}: folder {parent} does not exist", 2)
    start = time.monotonic()
    report = build_fleet_report(d, host_reports=not args.no_host_reports, lang=ctx.lang)
    from app.fleet.report import _count
    from app.messages import cli

    if not report["hosts"]:
        raise CliError(f"{d}: no host snapshots (<host>.json) found", 2)
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

def _done(args, ctx) -> int:
    from app.fleet.host import NOT_DONE, checks_done

    try:
        checks = fileio.loads(args.checks)
    except ValueError:
        raise CliError("--checks: not JSON", 2) from None
    return 0 if checks_done(checks) else NOT_DONE


def _edit(args, ctx) -> int:
    from app.fleet.host import apply_ini_edit

    try:
        edit = fileio.loads(args.edit)
    except ValueError:
        raise CliError("--edit: not JSON", 2) from None
    try:
        sys.stdout.write(apply_ini_edit(edit, args.backup_dir) + "\n")
    except (OSError, ValueError) as e:
        raise CliError(f"cannot edit: {e}", 1) from None
    return 0


def _host_verify(args, ctx) -> int:
    from app.fleet.host import host_verify

    try:
        out = host_verify(args.prefix, venv=args.venv, quick=args.quick, seconds=args.seconds, snapshot=args.from_snapshot,
                          verification=args.verification or None, burn_in_s=args.burn_in)
    except (OSError, ValueError) as e:
        raise CliError(f"cannot verify: {str(e).splitlines()[0] if str(e) else type(e).__name__}", 1) from None
    sys.stdout.write(json.dumps(out) + "\n")
    return 1 if out.get("status") == "fail" else 0
