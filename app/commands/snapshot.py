"""`gpu-wizard snapshot -o FILE [--no-redact]`: record what detection reads into one file
(snapshot format 1) that replays anywhere with --snapshot FILE."""
from __future__ import annotations

import os
import sys

HELP = "record this machine into a snapshot file (what detection reads, nothing more)"


def add_arguments(parser) -> None:
    parser.add_argument("-o", "--output", metavar="FILE", required=True, help="where to write the snapshot (JSON)")
    parser.add_argument("--no-redact", action="store_true", help="keep user names, host names, serials and UUIDs")
    parser.add_argument("--torch", action="store_true", help="also record the torch probe of the selected Python")
    parser.add_argument("--python", metavar="PATH", help="the Python interpreter to record")
    parser.add_argument("--note", default="", help="a note stored in the snapshot")


def record(system, *, torch: bool = False, python=None, note: str = "", redact: bool = True) -> dict:
    from app.report.snapshots import record_snapshot

    return record_snapshot(system, torch=torch, python=python, note=note, redact=redact)


def run(args, ctx) -> int:
    from app.commands.base import CliError
    from app.fileio import write_json_atomic

    out = args.output
    parent = os.path.dirname(os.path.abspath(out))
    if not os.path.isdir(parent):
        raise CliError(f"cannot write {out}: folder {parent} does not exist", 2)
    data = record(ctx.system, torch=args.torch, python=args.python, note=args.note, redact=not args.no_redact)
    try:
        write_json_atomic(out, data)
    except OSError as e:
        raise CliError(f"cannot write {out}: {e.strerror or e}", 1) from None
    n = len(data.get("files") or {}) + len(data.get("commands") or {})
    if not ctx.json:
        sys.stderr.write(f"wrote {out}: {n} files and command outputs"
                         + ("" if args.no_redact else " (redacted; --no-redact keeps names)") + "\n")
    else:
        ctx.emit({"output": out, "entries": n, "redacted": not args.no_redact}, "")
    return 0
