"""`gpu-wizard report -o FILE`: one file support staff can read (HTML, Markdown or JSON) with the
machine's facts, the recommendation and why, the install plan and each step's outcome, the log
around a failure, verification results with charts, any diagnosis, and the machine's snapshot.
Private values are replaced by placeholders unless --no-redact."""
from __future__ import annotations

import os
import sys

from app.commands.base import CliError

HELP = "write a shareable report (HTML, Markdown or JSON) of this machine and what the wizard did; redacted"


def add_arguments(p) -> None:
    p.add_argument("-o", "--output", metavar="FILE", required=True, help="where to write the report")
    p.add_argument("--format", choices=("html", "md", "json"), default=None,
                   help="html (default; one self-contained file), md or json; default: from the file's extension")
    p.add_argument("--session", metavar="DIR", default=None,
                   help="an install session folder (plan, step outcomes, log); 'last' for the newest one")
    p.add_argument("--verification", metavar="FILE", default=None, help="a `verify --json` result to include")
    p.add_argument("--diagnosis", metavar="FILE", default=None, help="a `diagnose --json` result to include")
    p.add_argument("--no-redact", action="store_true",
                   help="keep user names, host names, addresses, serials, UUIDs and secrets (not for sharing)")
    p.add_argument("--no-snapshot", action="store_true", help="leave the machine's snapshot out")


def _recorded(ctx) -> tuple:
    """(facts, recommendation) a recorded report holds, when --snapshot is a report (its .json or .html) and no
    --assume-* changes the machine: a report of a report shows the user's answer, never a new solve."""
    path = ctx.snapshot_path
    if not path:
        return None, None
    try:
        overrides = ctx.overrides()
    except Exception:  # noqa: BLE001 - bad overrides are reported by the pipeline itself
        return None, None
    if any(overrides.values()):
        return None, None
    from app.facts import Facts
    from app.recommendation import Recommendation
    from app.report import load_report_json

    try:
        data = load_report_json(path)
    except Exception:  # noqa: BLE001 - a plain snapshot, not a report: solved as `recommend` solves it
        return None, None
    facts, rec = data.get("facts"), data.get("recommendation")
    return (facts if isinstance(facts, Facts) else None), (rec if isinstance(rec, Recommendation) else None)


def _recommend(ctx, notes: list[str]):
    """The recommendation `recommend` gives for this machine (app.pipeline), or a note why there is none."""
    from app.commands.base import CliError

    from app.commands.recommend import build_choices

    _facts, recorded = _recorded(ctx)
    if recorded is not None:
        return recorded
    try:
        return ctx.recommendation(build_choices(ctx.args, ctx.facts()))  # the choices `recommend` makes by default
    except CliError as e:  # a report is still worth writing without it
        notes.append(f"No recommendation: {str(e).splitlines()[0] if str(e) else ''}")
        return None


def _last_session():
    try:
        from app.run.session import sessions_dir
    except ImportError:
        return None
    root = sessions_dir()
    if not root.is_dir():
        return None
    dirs = sorted((p for p in root.iterdir() if (p / "plan.json").is_file()), reverse=True)
    return str(dirs[0]) if dirs else None


def run(args, ctx) -> int:
    from app.report import ReportInputError, build_report, format_for_path, write_report

    out = args.output
    parent = os.path.dirname(os.path.abspath(out))
    if not os.path.isdir(parent):
        raise CliError(f"cannot write {out}: folder {parent} does not exist", 2)
    fmt = args.format or format_for_path(out)
    session = args.session
    if session == "last":
        session = _last_session()
        if session is None:
            raise CliError("no install session found (run `gpu-wizard install` first, or give --session DIR)", 2)
    if session is not None and not os.path.isdir(session):
        raise CliError(f"session folder not found: {session}", 2)
    for flag, path in (("--verification", args.verification), ("--diagnosis", args.diagnosis)):
        if path is not None and not os.path.isfile(path):
            raise CliError(f"{flag} {path}: file not found", 2)

    live = not ctx.snapshot_path
    snapshot = None
    if live and not args.no_snapshot:
        # Record what detection reads while it runs, so the report carries a replayable snapshot.
        from app.system import LiveSystem, RecordingSystem

        ctx._system = RecordingSystem(LiveSystem())
    recorded_facts, _rec = _recorded(ctx)
    facts = recorded_facts or ctx.facts()
    if not args.no_snapshot:
        if live:
            snapshot = ctx.system.snapshot(note="recorded by gpu-wizard report")
        else:
            snapshot = ctx.system.data
    notes: list[str] = []
    rec = _recommend(ctx, notes)
    if args.no_redact:
        sys.stderr.write("gpu-wizard: warning: --no-redact: the report keeps user names, host names, addresses, "
                         "serial numbers and secrets; do not share it publicly\n")
    try:
        report = build_report(facts=facts, recommendation=rec, session=session, verification=args.verification,
                              diagnosis=args.diagnosis, snapshot=snapshot, redact=not args.no_redact, live=live,
                              notes=notes, lang=ctx.lang)
    except ReportInputError as e:
        raise CliError(str(e), 2) from None
    try:
        write_report(report, out, fmt)
    except OSError as e:
        raise CliError(f"cannot write {out}: {e.strerror or e}", 1) from None
    size = os.path.getsize(out)
    ctx.emit({"output": out, "format": fmt, "bytes": size, "redacted": not args.no_redact, "overall": report.overall},
             f"wrote {out} ({fmt}, {size / 1024:.0f} KiB{', redacted' if not args.no_redact else ', NOT redacted'}): "
             f"{report.overall.upper()}" + (f" — {report.headline[0]}" if report.headline else ""))
    return 0
