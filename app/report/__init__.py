"""Reports for support staff, and redaction.

The API the GUI and the CLI call:

    build_report(facts=, recommendation=, plan=, session=, verification=, diagnosis=, snapshot=,
                 redact=True, live=False) -> Report        # every piece optional (Model, dict or path)
    render(report, "html" | "md" | "json") -> str
    write_report(report, path, fmt=None) -> str            # fmt from the extension; returns fmt used
    load_report_json(path) -> dict                         # a report (.json or .html) for walkthrough
    export_session(session_dir, dest_dir, redact=True)     # redacted copies of a session's logs
    Redactor, redact_snapshot(data), redact_text(text)     # app.report.redact
"""
from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any, Optional

from app.fileio import JsonError, atomic_text, loads, read_json, write_atomic, write_json_atomic
from app.report.build import ReportInputError, build_report, log_excerpt, read_session, redact_report
from app.report.model import REPORT_FORMAT, LogExcerpt, Report, SessionInfo, StepOutcome, upgrade_report_json
from app.report.redact import Redactor, redact_snapshot, redact_text
from app.system import SnapshotError

FORMATS = ("html", "md", "json")

__all__ = ["FORMATS", "REPORT_FORMAT", "LogExcerpt", "Redactor", "Report", "ReportInputError", "ReportLoadError",
           "SessionInfo", "StepOutcome", "build_report", "export_log", "export_session", "format_for_path",
           "load_report_json", "log_excerpt", "read_session", "redact_report", "redact_snapshot", "redact_text",
           "render", "write_report"]


class ReportLoadError(SnapshotError):
    """A file that is not a usable report; the message is one clear line."""


def format_for_path(path: str | os.PathLike, default: str = "html") -> str:
    ext = Path(path).suffix.lower()
    return {".md": "md", ".markdown": "md", ".json": "json", ".html": "html", ".htm": "html"}.get(ext, default)


def render(report: Report, fmt: str = "html") -> str:
    if fmt == "html":
        from app.report.render_html import render_html

        return render_html(report)
    if fmt == "md":
        from app.report.render_md import render_markdown

        return render_markdown(report)
    if fmt == "json":
        return json.dumps(report.to_json(), indent=1, ensure_ascii=False) + "\n"
    raise ValueError(f"unknown report format {fmt!r} (use one of {', '.join(FORMATS)})")


def _json_why(e: json.JSONDecodeError) -> str:
    return e.msg if isinstance(e, JsonError) else "broken"


def write_report(report: Report, path: str | os.PathLike, fmt: Optional[str] = None) -> str:
    """Render and write atomically (a crash leaves no half file). Returns the format used."""
    fmt = fmt or format_for_path(path)
    text = render(report, fmt)
    write_atomic(path, text)
    return fmt


_EMBED_RE = re.compile(r"<script type='application/json' id='gpu-wizard-report'>(.*?)</script>", re.S)


def _typed(module: str, cls: str, data: Any) -> Any:
    """The stage's typed value where its model exists and accepts the data; else the dict."""
    if not isinstance(data, dict):
        return data
    try:
        mod = __import__(module, fromlist=[cls])
        return getattr(mod, cls).from_json(data)
    except Exception:  # a stage not built yet, or a newer/older shape: the dict still shows
        return data


def load_report_json(path: str | os.PathLike) -> dict[str, Any]:
    """Read a report (its .json, or the .html that embeds it) for walkthrough mode.

    Returns {"report": Report, "snapshot": dict | None (format 1, loadable by SnapshotSystem),
    "facts", "recommendation", "plan", "verification", "diagnosis" (typed values where their
    models load, else dicts, or None), "steps": tuple[StepOutcome], "logs": tuple[LogExcerpt],
    "session": SessionInfo | None, "created" (when the report was written), "recorded" (when the
    machine was recorded: the snapshot's or the facts' time), "machine", "redacted": bool}.
    Raises ReportLoadError (a SnapshotError) with one clear line for a file that is not a report."""
    from app.system import read_utf8_file

    p = Path(path)
    text = read_utf8_file(p, "report", ReportLoadError)
    if text.lstrip()[:1] == "<":
        m = _EMBED_RE.search(text)
        if not m:
            raise ReportLoadError(f"{p.name} is an HTML file without an embedded gpu-wizard report")
        text = m.group(1)
    try:
        data = loads(text)
    except json.JSONDecodeError as e:
        raise ReportLoadError(f"{p.name} is not a usable report: the JSON is {_json_why(e)} (line {e.lineno}, column {e.colno})") from None
    if not isinstance(data, dict) or not str(data.get("format", "")).startswith("gpu-wizard-report/"):
        raise ReportLoadError(f"{p.name} is not a gpu-wizard report (format is {data.get('format') if isinstance(data, dict) else None!r}, "
                              f"expected {REPORT_FORMAT!r})")
    try:
        report = Report.from_json(upgrade_report_json(data))
    except Exception as e:
        raise ReportLoadError(f"{p.name} is a damaged report: {e}") from None
    snap = report.snapshot
    if snap is not None:
        from app.system import validate_snapshot

        try:
            validate_snapshot(snap, p.name)
        except SnapshotError:
            snap = None
    return {
        "report": report,
        "snapshot": snap,
        "facts": _typed("app.facts", "Facts", report.facts),
        "recommendation": _typed("app.recommendation", "Recommendation", report.recommendation),
        "plan": _typed("app.plan.model", "Plan", report.plan),
        "verification": _typed("app.verify.model", "Verification", report.verification),
        "diagnosis": _typed("app.diagnose.model", "Diagnosis", report.diagnosis),
        "steps": report.steps,
        "logs": report.logs,
        "session": report.session,
        "created": report.created,
        "recorded": (snap or {}).get("created") or (report.facts or {}).get("created") or report.created,
        "machine": report.machine,
        "redacted": report.redaction.redacted,
    }


def _chunks(src: str | os.PathLike, chunk_lines: int):
    with open(src, "r", encoding="utf-8", errors="replace", newline="") as fh:
        buf: list[str] = []
        for line in fh:
            buf.append(line)
            if len(buf) >= chunk_lines:
                yield "".join(buf)
                buf = []
        if buf:
            yield "".join(buf)


def export_log(src: str | os.PathLike, dst: str | os.PathLike, redactor: Optional[Redactor] = None,
               chunk_lines: int = 20000, learn: bool = True) -> Redactor:
    """Copy a log with private values replaced. Two passes over the file (learn, then replace),
    in chunks, so a huge log never sits in memory whole. Returns the Redactor (its map is
    shared when you export several files)."""
    r = redactor or Redactor()
    if learn:
        for c in _chunks(src, chunk_lines):
            r.learn_text(c)
    with atomic_text(dst) as out:
        for c in _chunks(src, chunk_lines):
            out.write(r.text(c, learn=False))
    return r


def export_session(session_dir: str | os.PathLike, dest_dir: str | os.PathLike, redact: bool = True,
                   redactor: Optional[Redactor] = None, live: bool = False) -> list[str]:
    """Copy a session folder's logs and JSON files for sharing, redacted by default (one map for
    all files). Returns the names written."""
    src, dst = Path(session_dir), Path(dest_dir)
    if not src.is_dir():
        raise ReportInputError(f"session folder not found: {src}")
    dst.mkdir(parents=True, exist_ok=True)
    r = redactor or Redactor()
    if live and redact:
        r.learn_live()
    files = sorted(x for x in src.iterdir() if x.is_file() and x.suffix in (".log", ".json", ".txt"))
    jsons = {}
    if redact:
        for f in files:
            if f.suffix == ".json":
                try:
                    jsons[f.name] = read_json(f)
                except (OSError, ValueError):  # a broken JSON file is copied as text
                    jsons.pop(f.name, None)
                    for c in _chunks(f, 20000):
                        r.learn_text(c)
                    continue
                if isinstance(jsons[f.name], dict) and str(jsons[f.name].get("format", "")).startswith("gpu-wizard-snapshot/"):
                    r.learn_snapshot(jsons[f.name])
                else:
                    r.learn(jsons[f.name])
            else:  # every file is learned before any is written: one map for them all
                for c in _chunks(f, 20000):
                    r.learn_text(c)
    written = []
    for f in files:
        target = dst / f.name
        if not redact:
            write_atomic(target, f.read_bytes())
        elif f.name in jsons:
            write_json_atomic(target, r.data(jsons[f.name]))
        else:
            export_log(f, target, r, learn=False)
        written.append(f.name)
    return written
