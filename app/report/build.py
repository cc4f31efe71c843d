"""Build a Report from whatever pieces exist: facts, recommendation, plan, the install run's
session folder, verification, diagnosis, a snapshot. Every piece is optional; each may be a
stage value (a Model), its JSON form (a dict), or a path to a JSON file.

Redaction happens here, once, over the whole report with one `Redactor`, so the same value has
the same placeholder in the facts, the plan, the log excerpt and the embedded snapshot.
"""
from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional, cast

from app import fileio
from app.model import Model
from app.report.model import REPORT_FORMAT, LogExcerpt, Redaction, Report, SessionInfo, StepOutcome
from app.report import words as W
from app.report.redact import Redactor
from app.report.words import LANG, _t

LOG_BEFORE = 60  # lines kept before the failure line
LOG_AFTER = 30  # and after it
LOG_TAIL = 40  # lines kept from the end when nothing failed
MAX_LINE_CHARS = 2000  # a longer line is cut
MAX_EXCERPT_CHARS = 96_000
MAX_SAMPLES = 2400  # in all GPUs together (4 minutes of one GPU at 10 Hz); a longer run is thinned evenly

# Lines that mark a failure, strongest first: the excerpt centres on the last strong one.
_STRONG = re.compile(
    r"(?i)(^Traceback \(most recent call last\)|^E: |^error: |^ERROR[: ]|^FATAL|^\S*Error: |\bfailed with exit code [1-9]"
    r"|\brc[= ](?:-?[1-9]\d*)\b|\bexit (?:code|status) [1-9]|\btimed out\b|\bcancelled\b|\bSegmentation fault|\bKilled\b"
    r"|CUDA error|RuntimeError|subprocess-exited-with-error|dpkg: error)")
_WEAK = re.compile(r"(?i)(\berror\b|\bfailed\b|\bcannot\b|\bcould not\b|\bnot found\b|\bdenied\b|^W: )")

# Every strong or weak line holds one of these (lower-case); only such lines are tested.
_CANDIDATE = re.compile(r"traceback|e: |error|fatal|fail|rc[= ]|exit (?:code|status)|timed out|cancel|segmentation|killed"
                        r"|cuda error|cannot|could not|not found|denied|w: ")


class ReportInputError(ValueError):
    """A piece given to the report cannot be read; the message is one clear line."""


def as_json(value: Any, what: str = "value") -> Optional[dict[str, Any]]:
    """A stage value as its JSON dict: Model → to_json(); dict as is; path → the file's JSON."""
    if value is None:
        return None
    if isinstance(value, Model):
        return value.to_json()
    if isinstance(value, dict):
        return value
    if isinstance(value, (str, os.PathLike)):
        p = Path(value)
        try:
            data = fileio.loads(p.read_text(encoding="utf-8-sig"))
        except FileNotFoundError:
            raise ReportInputError(f"{what} file not found: {p}") from None
        except (OSError, UnicodeDecodeError) as e:
            raise ReportInputError(f"cannot read {what} file {p}: {e}") from None
        except json.JSONDecodeError as e:
            raise ReportInputError(f"{what} file {p.name} is not valid JSON (line {e.lineno})") from None
        if not isinstance(data, dict):
            raise ReportInputError(f"{what} file {p.name} does not hold a JSON object")
        return data
    if hasattr(value, "to_json"):
        return value.to_json()
    raise ReportInputError(f"cannot use {type(value).__name__} as {what}")


# ---------------------------------------------------------------------------------------------
# Log excerpts


def _clip(line: str) -> str:
    line = line.rstrip("\r\n")
    return line if len(line) <= MAX_LINE_CHARS else line[:MAX_LINE_CHARS] + f" … [{len(line) - MAX_LINE_CHARS} more characters]"


def _line_chunks(path: Path, lines_per_chunk: int = 20000):
    """(text, line count) chunks of whole lines, so regexes run over big strings, not per line."""
    with open(path, "r", encoding="utf-8", errors="replace", newline="") as fh:
        buf: list[str] = []
        for line in fh:
            buf.append(line if line.endswith("\n") else line + "\n")
            if len(buf) >= lines_per_chunk:
                yield "".join(buf), len(buf)
                buf = []
        if buf:
            yield "".join(buf), len(buf)


def find_failure_line(path: Path, hint: Optional[str] = None, _block: Optional[list] = None) -> tuple[Optional[int], int]:
    """(1-based line of the failure or None, total lines). The failure is the start of the last
    cluster of strong failure lines (a traceback, `E:` lines), else the last weak one. With
    `hint` (a failed step id), only what follows the last line mentioning it counts."""
    strong = weak = None
    hint_line = None
    last_strong = last_hint = -10
    base = 0
    for chunk, count in _line_chunks(path):
        marks: dict[int, int] = {}  # line -> bit set: 1 weak, 2 strong, 4 hint
        starts: dict[int, int] = {}  # offset of a candidate line's start -> its number
        pos, line = 0, base + 1
        for m in _CANDIDATE.finditer(chunk.lower()):  # cheap literal scan, then the real test per line
            ls = chunk.rfind("\n", 0, m.start()) + 1
            if ls in starts:
                continue
            line += chunk.count("\n", pos, ls)
            pos = ls
            starts[ls] = line
            text = chunk[ls:chunk.find("\n", ls)]
            if _STRONG.search(text):
                marks[line] = 2
            elif _WEAK.search(text):
                marks[line] = 1
        if hint:
            pos, line, at = 0, base + 1, chunk.find(hint)
            while at >= 0:
                line += chunk.count("\n", pos, at)
                pos = at
                marks[line] = marks.get(line, 0) | 4
                at = chunk.find(hint, chunk.find("\n", at) + 1) if chunk.find("\n", at) >= 0 else -1
        for n in sorted(marks):
            bits = marks[n]
            if bits & 4:
                if n - last_hint > 1:  # the start of a block of lines about the step
                    hint_line = n
                    strong = weak = None
                last_hint = n
            if bits & 2:
                if strong is None or n - last_strong > 3:
                    strong = n
                last_strong = n
            elif bits & 1:
                weak = n
        base += count
    if _block is not None:
        _block.append(hint_line)
    return strong or weak or hint_line, base


def log_excerpt(path: str | os.PathLike, *, hint: Optional[str] = None, reason: str = "",
                before: int = LOG_BEFORE, after: int = LOG_AFTER, tail: int = LOG_TAIL) -> Optional[LogExcerpt]:
    """A bounded excerpt of a (possibly huge) log: the window around its failure, else its end.
    Reads the file twice, line by line; memory stays flat."""
    p = Path(path)
    if not p.is_file():
        return None
    try:
        block: list = []
        focus, total = find_failure_line(p, hint, block)
        if focus is not None:
            lo, hi = max(1, focus - before), min(total, focus + after)
            start = block[0] if block else None
            if start is not None and start <= focus:  # the failed step's own output, with a few lines before it
                lo = max(lo, start - 5)
            why = reason or "around the failure"
        else:
            lo, hi = max(1, total - tail + 1), total
            why = reason or "the last lines (nothing failed)"
        lines: list[str] = []
        size = 0
        with open(p, "r", encoding="utf-8", errors="replace", newline="") as fh:
            for n, line in enumerate(fh, 1):
                if n < lo:
                    continue
                if n > hi:
                    break
                s = _clip(line)
                size += len(s) + 1
                if size > MAX_EXCERPT_CHARS:
                    hi = n - 1
                    break
                lines.append(s)
    except OSError:
        return None
    return LogExcerpt(source=p.name, text="\n".join(lines), first_line=lo, last_line=hi, total_lines=total,
                      focus_line=focus, reason=why, full_log=str(p), truncated=lo > 1 or hi < total)


def text_excerpt(text: str, source: str, *, reason: str = "", before: int = LOG_BEFORE, after: int = LOG_AFTER) -> LogExcerpt:
    """The same for text already in memory (an error message pasted into diagnose)."""
    all_lines = text.splitlines()
    focus = None
    last = -10
    for i, line in enumerate(all_lines, 1):
        if _STRONG.search(line):
            if focus is None or i - last > 3:
                focus = i
            last = i
    total = len(all_lines)
    if focus is None:
        lo, hi = max(1, total - LOG_TAIL + 1), total
    else:
        lo, hi = max(1, focus - before), min(total, focus + after)
    return LogExcerpt(source=source, text="\n".join(_clip(x) for x in all_lines[lo - 1:hi]), first_line=lo, last_line=hi,
                      total_lines=total, focus_line=focus, reason=reason or ("around the failure" if focus else "the last lines"),
                      truncated=lo > 1 or hi < total)


# ---------------------------------------------------------------------------------------------
# Session folder (app/run): plan.json, events.jsonl, state.json read typed (app/run/record.py), output.log


@dataclass(frozen=True)
class SessionRead:
    """An install session as the report shows it: its info, each plan step's outcome, the log excerpt."""

    info: SessionInfo
    steps: tuple[StepOutcome, ...]
    plan: Optional[dict[str, Any]]
    facts: Optional[dict[str, Any]]
    log: Optional[LogExcerpt]
    notes: tuple[str, ...] = ()  # what could not be read, and why


def read_session(path: str | os.PathLike, plan: Optional[dict[str, Any]] = None) -> SessionRead:
    """Read an install session folder through the one run record: the plan's steps (`plan`'s, else the
    session's plan.json), the event journal
    folded by app.run.record's reducer, the run state (RunState) settled on top. A missing file is absent;
    a damaged run state is a note saying why, never a guess."""
    from app.run.record import from_session

    d = Path(path)
    if not d.is_dir():
        raise ReportInputError(f"session folder not found: {d}")
    s = from_session(d, plan)
    rec = s.record
    journaled = bool(rec.commands) or any(st.status != "pending" for st in rec.steps) or rec.status != "new"
    status: Optional[str] = s.state.status if s.state is not None else (rec.status if journaled else None)
    failed = rec.failed
    log = None
    if (d / "output.log").is_file():
        hint = failed.id if failed else None
        log = log_excerpt(d / "output.log", hint=hint, reason=f"around the failure of step {hint}" if hint else "")
    ended = status not in (None, "new", "running")
    info = SessionInfo(path=str(d), status=status, files=s.files,
                       started=next((st.started_at for st in rec.steps if st.started_at), None),
                       finished=(s.state.updated or None) if s.state is not None and ended else None,
                       commands_run=len(rec.commands), commands_failed=sum(not c.ok for c in rec.commands),
                       output_lines=log.total_lines if log else 0)
    whys = {str(x.get("id")): str(x.get("why") or "") for x in (s.plan or {}).get("steps") or () if isinstance(x, dict)}
    steps = tuple(_outcome(st, whys.get(st.id, "")) for st in rec.steps)
    return SessionRead(info, steps, s.plan, s.facts, log, tuple(s.problems))


def step_outcomes(plan: Optional[dict[str, Any]]) -> tuple[StepOutcome, ...]:
    """The plan's steps, none of them run yet (a report of a plan without its session)."""
    from app.run.record import RunRecord, plan_steps

    whys = {str(x.get("id")): str(x.get("why") or "") for x in (plan or {}).get("steps") or () if isinstance(x, dict)}
    return tuple(_outcome(st, whys.get(st.id, "")) for st in RunRecord.for_plan(plan_steps(plan)).steps)


def _outcome(st: Any, why: str) -> StepOutcome:
    """A run record's step (app.run.record.StepRecord) as the report keeps it."""
    import shlex

    return StepOutcome(id=st.id, title=st.title, status=st.status, why=why, kind=st.kind, needs_root=st.needs_root,
                       commands=tuple(shlex.join(a) for a in st.commands), rc=st.rc, duration_s=st.duration_s,
                       message=st.message, started=st.started_at or None, finished=st.finished_at or None)


# ---------------------------------------------------------------------------------------------
# Summary lines


def machine_line(facts: Optional[dict[str, Any]]) -> str:
    if not facts:
        return ""
    parts = []
    gpus = facts.get("gpus") or []
    names: dict[str, int] = {}
    for g in gpus:
        names[g.get("name") or "GPU"] = names.get(g.get("name") or "GPU", 0) + 1
    parts.append(", ".join(f"{n}× {k}" if n > 1 else k for k, n in names.items()) or _t("no NVIDIA GPU found"))
    drv = facts.get("driver") or {}
    if drv.get("version"):
        parts.append(_t("driver {version}", version=drv['version']) + (f" (CUDA {drv['cuda_version']})" if drv.get("cuda_version") else ""))
    elif drv.get("state"):
        parts.append(_t("driver: {state}", state=_state(drv["state"])))
    os_ = facts.get("os") or {}
    osname = os_.get("pretty_name") or " ".join(x for x in (os_.get("id"), os_.get("version_id")) if x)
    if osname:
        parts.append(osname + (" (WSL2)" if os_.get("wsl") == 2 else ""))
    py = facts.get("python") or {}
    torch = (py.get("torch") or {}) if isinstance(py, dict) else {}
    if torch.get("version"):
        parts.append(f"PyTorch {torch['version']}")
    return " · ".join(parts)


_ORDER = {"unknown": 0, "pass": 1, "warn": 2, "fail": 3}


def _state(state: Any) -> str:
    """A driver state in the report's language ("not_loaded" → "not loaded" in English)."""
    from app.messages import word

    return word("state", str(state), LANG.get()) if LANG.get() != "en" else str(state).replace("_", " ")


def _headline(facts, rec, steps, session, ver, diag, plan=None) -> tuple[str, list[str]]:
    lines: list[str] = []
    overall = "unknown"

    def bump(s: str) -> None:
        nonlocal overall
        if _ORDER.get(s, 0) > _ORDER[overall]:
            overall = s

    if facts:
        errs = [f for f in facts.get("findings") or [] if f.get("severity") == "error"]
        drv = facts.get("driver") or {}
        if not facts.get("gpus"):
            lines.append(_t("No NVIDIA GPU was found."))
            bump("fail")
        if drv.get("state") not in (None, "ok", "host", "unknown"):
            lines.append(_t("Driver: {state}", state=_state(drv["state"])) + (f". {drv['hint']}" if drv.get("hint") else "."))
            bump("warn")
        for f in errs[:3]:
            lines.append(_t("Problem: {text}", text=W.say("finding", f)))
            bump("warn")
        if facts.get("gpus") and not errs and drv.get("state") in ("ok", "host"):
            bump("pass")
    if rec:
        pt = rec.get("pytorch") or {}
        if pt.get("version"):
            lines.append(_t("Recommended: PyTorch {version} ({index})", version=pt['version'], index=pt.get('index') or _t('default'))
                         + (_t("; driver: {action}", action=_t(str(rec.get('driver', {}).get('action'))))
                            if rec.get("driver", {}).get("action") not in (None, "none", "keep") else ""))
        elif rec.get("warnings"):
            lines.append(_t("Recommendation: {text}", text=W.say("rec", rec["warnings"][0])))
    if steps:
        done = sum(1 for s in steps if s.status in ("ok", "skipped"))
        failed = [s for s in steps if s.status == "error"]
        line = _t("Install: {done} of {total} steps done", done=done, total=len(steps))
        if failed:
            f = failed[0]
            step = next((x for x in ((plan or {}).get("steps") or []) if x.get("id") == f.id), None)
            line += _t("; step “{step}” failed", step=W.step_text(step, "title") if step else (f.title or f.id)) + (f": {f.message}" if f.message else "")
            bump("fail")
        elif any(s.status == "cancelled" for s in steps):
            line += _t("; cancelled")
            bump("warn")
        elif done == len(steps):
            bump("pass")
        lines.append(line + ".")
    elif session is not None:
        lines.append(_t("Install session: {status}.", status=W.status(session.status)))
        bump({"ok": "pass", "error": "fail", "cancelled": "warn", "reboot_required": "warn"}.get(str(session.status), "unknown"))
    if ver:
        layers = ver.get("layers") or []
        worst = "skip"
        for layer in layers:
            s = layer.get("status")
            if {"skip": 0, "pass": 1, "warn": 2, "fail": 3}.get(s, 0) > {"skip": 0, "pass": 1, "warn": 2, "fail": 3}[worst]:
                worst = s
        bad = [x for x in layers if x.get("status") in ("fail", "warn")]
        lines.append(_t("Verification: {result}", result=_t(worst.upper())) + (f": {W.layer_reason(bad[0])}" if bad else
                                                                               (_t(": every layer passed") if layers else "")))
        if worst in ("pass", "warn", "fail"):
            bump(worst)
    if diag:
        top = (diag.get("matches") or [None])[0]
        if top:
            conf = top.get("confidence")
            lines.append(_t("Diagnosis: {text}", text=W.match(top, "root_cause"))
                         + (_t(" ({pct}% sure)", pct=f"{conf * 100:.0f}") if isinstance(conf, (int, float)) else ""))
            bump("fail" if (conf or 0) >= 0.5 else "warn")
        elif diag.get("message"):
            lines.append(_t("Diagnosis: {text}", text=diag['message']))
    return overall, lines


# ---------------------------------------------------------------------------------------------


def thin_samples(ver: dict[str, Any], budget: int = MAX_SAMPLES) -> tuple[dict[str, Any], Optional[str]]:
    """The verification with its samples compacted (fields without a value left out: they load
    back as None) and, past `budget` samples in all, thinned evenly per GPU (first and last kept)."""
    samples = ver.get("samples")
    if not isinstance(samples, list) or not samples:
        return ver, None
    compact = [{k: v for k, v in smp.items() if v not in (None, [], ()) or k in ("t_s", "gpu_index")}
               if isinstance(smp, dict) else smp for smp in samples]
    by_gpu: dict[Any, list] = {}
    for smp in compact:
        by_gpu.setdefault(smp.get("gpu_index") if isinstance(smp, dict) else None, []).append(smp)
    limit = max(200, budget // max(1, len(by_gpu)))
    if len(compact) <= budget or all(len(v) <= limit for v in by_gpu.values()):
        return dict(ver, samples=compact), None
    kept = []
    for items in by_gpu.values():
        if len(items) <= limit:
            kept.extend(items)
            continue
        step = (len(items) - 1) / (limit - 1)
        kept.extend(items[round(i * step)] for i in range(limit))
    kept.sort(key=lambda x: (x.get("t_s") or 0) if isinstance(x, dict) else 0)
    note = f"The verification's {len(samples):,} NVML samples were thinned to {len(kept):,} (evenly spaced) to keep the report small."
    return dict(ver, samples=kept), note


def _with_params(ver: dict[str, Any]) -> dict[str, Any]:
    """An older verification's layers with the figures of their sentences derived again from its
    measurements (app.verify.session.with_params), so the report says them in 简体中文 too."""
    try:
        from app.verify.model import Verification
        from app.verify.session import with_params

        layers = with_params(Verification.from_json(ver)).layers
    except Exception:  # noqa: BLE001 - a shape this version cannot read: kept as given
        return ver
    return dict(ver, layers=[layer.to_json() for layer in layers])


def build_report(*, facts: Any = None, recommendation: Any = None, plan: Any = None, session: Any = None,
                 verification: Any = None, diagnosis: Any = None, snapshot: Any = None, logs: Any = (),
                 redact: bool = True, redactor: Optional[Redactor] = None, live: bool = False, system: Any = None,
                 created: Optional[str] = None, title: str = "GPU Setup Wizard report", notes: Any = (),
                 lang: str = "en") -> Report:
    """Gather everything into one Report, redacted unless `redact=False`.

    facts/recommendation/plan/verification/diagnosis/snapshot: a Model, its to_json() dict, or a
    JSON file path. session: a session folder path (or what `read_session` returned).
    logs: extra LogExcerpt values or (name, text) pairs. live: also learn this machine's user,
    host name and secrets for redaction (the CLI does this when it ran on the live machine)."""
    said_notes: list[str] = [str(n) for n in notes or ()]
    facts_d = as_json(facts, "facts")
    rec_d = as_json(recommendation, "recommendation")
    plan_d = as_json(plan, "plan")
    ver_d = as_json(verification, "verification")
    if ver_d is not None:
        ver_d = _with_params(ver_d)
        ver_d, thinned = thin_samples(ver_d)
        if thinned:
            said_notes.append(thinned)
    diag_d = as_json(diagnosis, "diagnosis")
    snap_d = as_json(snapshot, "snapshot")
    if snap_d is not None:
        from app.system import SnapshotError, validate_snapshot

        try:
            snap_d = validate_snapshot(snap_d)
        except SnapshotError as e:
            said_notes.append(f"The snapshot was left out: {e}")
            snap_d = None
    sess = None
    steps: tuple[StepOutcome, ...] = ()
    excerpts: list[LogExcerpt] = []
    if session is not None:
        s = session if isinstance(session, SessionRead) else read_session(session, plan_d)
        sess = s.info
        plan_d = plan_d or s.plan
        facts_d = facts_d or s.facts
        steps = s.steps
        if s.log is not None:
            excerpts.append(s.log)
        for name in ("plan.json", "state.json", "output.log", "events.jsonl"):
            if name not in sess.files:
                said_notes.append(f"The session folder has no {name}.")
        said_notes += [f"The run state was not read: {why}" for why in s.notes]
    elif plan_d:
        steps = step_outcomes(plan_d)
    for item in logs or ():
        if isinstance(item, LogExcerpt):
            excerpts.append(item)
        elif isinstance(item, (tuple, list)) and len(item) == 2:
            excerpts.append(text_excerpt(str(item[1]), str(item[0])))
    from app.messages import normalise_lang

    lang = normalise_lang(lang)
    token = LANG.set(lang)
    try:
        overall, headline = _headline(facts_d, rec_d, steps, sess, ver_d, diag_d, plan_d)
        machine = machine_line(facts_d)
    finally:
        LANG.reset(token)
    from app import __version__

    if created is None:
        import datetime as _dt

        created = _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat()
    report = Report(format=REPORT_FORMAT, created=created, generator=f"gpu-wizard {__version__}", title=title,
                    machine=machine, overall=cast(Any, overall), headline=tuple(headline), lang=lang,
                    redaction=Redaction(redacted=False, note="Not redacted: this report may hold user names, host names, addresses and secrets."),
                    facts=facts_d, recommendation=rec_d, plan=plan_d, steps=steps, session=sess, logs=tuple(excerpts),
                    verification=ver_d, diagnosis=diag_d, snapshot=snap_d, notes=tuple(said_notes))
    if not redact:
        return report
    return redact_report(report, redactor=redactor, live=live, system=system)


def redact_report(report: Report, redactor: Optional[Redactor] = None, live: bool = False, system: Any = None) -> Report:
    """The report with every private value replaced (one consistent map for all its parts)."""
    r = redactor or Redactor()
    if live:
        r.learn_live(system)
    data = report.to_json()
    if isinstance(data.get("snapshot"), dict):
        r.learn_snapshot(data["snapshot"])
    r.learn(data)
    out = r.data(data, learn=False)
    if isinstance(out.get("snapshot"), dict):
        out["snapshot"]["redacted"] = {"by": "gpu-wizard", "placeholders": r.counts()}
    counts = r.counts()
    out["redaction"] = {"redacted": True, "placeholders": counts,
                        "note": "Private values were replaced by placeholders such as <user-1>; the same value has the same placeholder everywhere."}
    for ex in out.get("logs") or []:  # where the full log lies is still useful, but redacted
        if ex.get("full_log"):
            ex["full_log"] = r.text(ex["full_log"], learn=False)
    return Report.from_json(out)
