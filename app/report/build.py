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
from pathlib import Path
from typing import Any, Optional, cast

from app import fileio
from app.model import Model
from app.report.model import REPORT_FORMAT, LogExcerpt, Redaction, Report, SessionInfo, StepOutcome, StepStatus
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
# Session folder (app/run): commands.log, output.log, plan.json, facts.json, state.json

_STATUS_WORDS = {
    "ok": "done", "done": "done", "reboot_required": "done", "success": "done", "succeeded": "done", "finished": "done", "passed": "done",
    "completed": "done", "complete": "done",
    "failed": "failed", "fail": "failed", "error": "failed", "timeout": "failed", "timed_out": "failed",
    "skipped": "skipped", "skip": "skipped", "already_done": "skipped",
    "cancelled": "cancelled", "canceled": "cancelled", "running": "running", "pending": "pending",
    "waiting": "pending", "todo": "pending", "not_run": "pending",
}


def _status(v: Any) -> str:
    if isinstance(v, bool):
        return "done" if v else "failed"
    return _STATUS_WORDS.get(str(v or "").strip().lower(), "unknown")


def _read_json(p: Path) -> Optional[Any]:
    try:
        return fileio.loads(p.read_text(encoding="utf-8-sig"))
    except (OSError, ValueError):
        return None


def _step_states(state: Any) -> dict[str, dict[str, Any]]:
    """Per-step records from state.json, whatever its exact shape: {"steps": {id: {...}}},
    {"steps": [{"id": ...}]}, or {id: "done"}."""
    out: dict[str, dict[str, Any]] = {}
    if not isinstance(state, dict):
        return out
    steps = state.get("steps", state.get("step_states", state.get("results")))
    if isinstance(steps, dict):
        for k, v in steps.items():
            out[str(k)] = v if isinstance(v, dict) else {"status": v}
    elif isinstance(steps, list):
        for v in steps:
            if isinstance(v, dict) and (v.get("id") or v.get("step_id") or v.get("step")):
                out[str(v.get("id") or v.get("step_id") or v.get("step"))] = v
    for key in ("done", "completed", "finished_steps"):
        if isinstance(state.get(key), list):
            for sid in state[key]:
                out.setdefault(str(sid), {"status": "done"})
    if isinstance(state.get("failed"), str):
        out.setdefault(state["failed"], {}).setdefault("status", "failed")
    return out


def _commands_log(p: Path) -> list[dict[str, Any]]:
    """commands.log records (time, argv, rc, duration): JSON lines, or plain text lines."""
    out: list[dict[str, Any]] = []
    try:
        fh = open(p, "r", encoding="utf-8", errors="replace")
    except OSError:
        return out
    with fh:
        for line in fh:
            line = line.strip()
            if not line:
                continue
            rec: dict[str, Any]
            if line.startswith("{"):
                try:
                    rec = fileio.loads(line)
                except ValueError:
                    rec = {"text": line}
            elif line.count("\t") >= 4:  # app/run/session.py: time, step, rc=N, 1.23s, argv JSON[, # note]
                f = line.split("\t")
                rec = {"time": f[0], "step_id": f[1], "text": line}
                m = re.fullmatch(r"rc=(-?\d+)", f[2])
                if m:
                    rec["rc"] = int(m.group(1))
                m = re.fullmatch(r"(\d+(?:\.\d+)?)s", f[3])
                if m:
                    rec["duration_s"] = float(m.group(1))
                try:
                    argv = fileio.loads(f[4])
                    if isinstance(argv, list):
                        rec["argv"] = [str(a) for a in argv]
                except ValueError:
                    pass
                if len(f) > 5 and f[5].startswith("# "):
                    rec["note"] = f[5][2:]
            else:
                rec = {"text": line}
                m = re.search(r"\brc[=: ]\s*(-?\d+)", line)
                if m:
                    rec["rc"] = int(m.group(1))
                m = re.search(r"\b(\d+(?:\.\d+)?)\s*s\b", line)
                if m:
                    rec["duration_s"] = float(m.group(1))
            out.append(rec)
    return out


def _journal(d: Path) -> list:
    if not (d / "events.jsonl").is_file():
        return []
    from app.run.session import Session

    return Session(d).read_events()


def read_session(path: str | os.PathLike) -> dict[str, Any]:
    """Read an install session folder. Returns {"info": SessionInfo, "plan", "facts", "state",
    "commands": [...], "log": LogExcerpt|None}; a missing file is simply absent."""
    d = Path(path)
    if not d.is_dir():
        raise ReportInputError(f"session folder not found: {d}")
    files = tuple(sorted(x.name for x in d.iterdir() if x.is_file()))
    state = _read_json(d / "state.json")
    plan = _read_json(d / "plan.json")
    facts = _read_json(d / "facts.json")
    cmds = _commands_log(d / "commands.log") if (d / "commands.log").is_file() else []
    failed_cmds = [c for c in cmds if isinstance(c.get("rc"), int) and c["rc"] != 0]
    st = state if isinstance(state, dict) else {}
    steps = _step_states(st)
    for c in cmds:  # per-step exit code (the last command's) and time (all its commands)
        sid = c.get("step_id")
        if sid:
            rec = steps.setdefault(str(sid), {"status": "running"})
            if isinstance(c.get("rc"), int):
                rec["_rc"] = c["rc"]
            if isinstance(c.get("duration_s"), float):
                rec["_duration_s"] = rec.get("_duration_s", 0.0) + c["duration_s"]
            rec.setdefault("_started", c.get("time"))
    # the step-level event journal (app/run/events.py): each step's own time and final message
    for ev in _journal(d):
        if ev.type == "step_finished":
            rec = steps.setdefault(ev.step_id, {"status": ev.status})
            if ev.duration_s:
                rec["duration_s"] = round(ev.duration_s, 3)
            if ev.message and not rec.get("message"):
                rec["message"] = ev.message
    if isinstance(st.get("failed_step"), str) and st["failed_step"] in steps:
        rec = steps[st["failed_step"]]
        if _status(rec.get("status")) not in ("failed", "cancelled"):
            rec["status"] = "error"
    failed = [sid for sid, rec in steps.items() if _status(rec.get("status", rec.get("state", rec.get("ok")))) == "failed"]
    raw_status = st.get("status", st.get("state", st.get("result")))
    status = _status(raw_status)
    if raw_status == "reboot_required":
        status = "reboot required"
    if status == "unknown":
        status = "failed" if failed else ("done" if steps and all(_status(r.get("status", r.get("state"))) in ("done", "skipped")
                                                                 for r in steps.values()) else "unknown")
    log = None
    out_log = d / "output.log"
    if out_log.is_file():
        hint = failed[-1] if failed else None
        log = log_excerpt(out_log, hint=hint, reason=f"around the failure of step {hint}" if hint else "")
    first_time = next((c.get("time") for c in cmds if c.get("time")), None)
    info = SessionInfo(path=str(d), status=status, started=st.get("started") or st.get("started_at") or first_time,
                       finished=st.get("finished") or st.get("finished_at")
                       or (st.get("updated") if status not in ("running", "unknown") else None), files=files, commands_run=len(cmds),
                       commands_failed=len(failed_cmds), output_lines=log.total_lines if log else 0)
    return {"info": info, "plan": plan if isinstance(plan, dict) else None, "facts": facts if isinstance(facts, dict) else None,
            "state": st, "steps": steps, "commands": cmds, "log": log}


def step_outcomes(plan: Optional[dict[str, Any]], states: dict[str, dict[str, Any]]) -> tuple[StepOutcome, ...]:
    """One StepOutcome per plan step (in plan order), with what state.json says happened."""
    out = []
    seen = set()
    for s in (plan or {}).get("steps") or []:
        if not isinstance(s, dict) or not s.get("id"):
            continue
        sid = str(s["id"])
        seen.add(sid)
        rec = states.get(sid, {})
        cmds = []
        for argv in s.get("commands") or []:
            if isinstance(argv, (list, tuple)):
                cmds.append(_join(argv))
            elif isinstance(argv, str):
                cmds.append(argv)
        out.append(_outcome(sid, rec, title=s.get("title") or "", why=s.get("why") or "", kind=s.get("kind") or "",
                            needs_root=bool(s.get("needs_root")), commands=tuple(cmds)))
    for sid, rec in states.items():  # steps the state knows but the plan does not (a resumed run)
        if sid not in seen:
            out.append(_outcome(sid, rec, title=str(rec.get("title") or ""), why="", kind="", needs_root=False, commands=()))
    return tuple(out)


def _join(argv: Any) -> str:
    import shlex

    return shlex.join(str(a) for a in argv)


def _num(v: Any) -> Optional[float]:
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def _outcome(sid: str, rec: dict[str, Any], **kw: Any) -> StepOutcome:
    status = _status(rec.get("status", rec.get("state", rec.get("ok")))) if rec else "pending"
    rc = rec.get("rc", rec.get("returncode", rec.get("_rc")))
    started = rec.get("started", rec.get("_started"))
    finished = rec.get("finished", rec.get("at"))
    return StepOutcome(id=sid, status=cast(StepStatus, status), rc=rc if isinstance(rc, int) and not isinstance(rc, bool) else None,
                       duration_s=_num(rec.get("duration_s", rec.get("duration", rec.get("_duration_s")))),
                       message=str(rec.get("message") or rec.get("error") or ""),
                       started=started if isinstance(started, str) else None,
                       finished=finished if isinstance(finished, str) else None, **kw)


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
        done = sum(1 for s in steps if s.status in ("done", "skipped"))
        failed = [s for s in steps if s.status == "failed"]
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
        lines.append(_t("Install session: {status}.", status=_t(str(session.status))))
        bump({"done": "pass", "failed": "fail", "cancelled": "warn"}.get(session.status, "unknown"))
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
    JSON file path. session: a session folder path (or the dict `read_session` returned).
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
        s = session if isinstance(session, dict) and "info" in session else read_session(session)
        sess = s["info"]
        plan_d = plan_d or s.get("plan")
        facts_d = facts_d or s.get("facts")
        steps = step_outcomes(plan_d, s.get("steps") or {})
        if s.get("log") is not None:
            excerpts.append(s["log"])
        for name in ("plan.json", "state.json", "output.log", "commands.log"):
            if name not in sess.files:
                said_notes.append(f"The session folder has no {name}.")
    elif plan_d:
        steps = step_outcomes(plan_d, {})
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
