"""One run record, one status vocabulary: a step the real executor ended as `ok`, `skipped`, `error` or
`cancelled` is that word in the run state, the journal, the report's JSON, its HTML badge and Markdown table
(said from the catalogue's one word list, in English and 简体中文), its headline and the window's reducer —
whether the report learns it from state.json, from events.jsonl, or from both. Sessions written by older
wizards (state formats 1 and 2, recorded in tests/fixtures/sessions) still load, and a format-1 report's own
words ("done", "failed") read as the vocabulary's."""
from __future__ import annotations

import html
import json
import re
import shutil
import sys
import threading
from pathlib import Path

import pytest

from app import messages
from app.plan.model import Check, Plan, Step
from app.report import build_report, load_report_json, render, write_report
from app.report.build import read_session
from app.run import Executor, Session
from app.run.events import (PLAN_STATUSES, RUN_STATUSES, STEP_STATES, STEP_STATUSES, LineEvent, PlanFinished,
                            ProgressEvent, StepFinished, StepStarted)
from app.run.record import RunRecord, from_session
from app.run.runner import CancelToken

ROOT = Path(__file__).resolve().parents[2]
OLD = ROOT / "tests" / "fixtures" / "sessions"
PY = sys.executable
SOURCES = ("state and journal", "journal only", "state only")


def _plan(status: str, tmp: Path) -> Plan:
    """Step "first" runs fine; step "target" ends as `status`; step "after" is reached only when it may be."""
    marker = tmp / "already-there"
    marker.write_text("x")
    target = {
        "ok": Step(id="target", title="The step", why="w", kind="install_pytorch", commands=((PY, "-c", "print('fine')"),)),
        "skipped": Step(id="target", title="The step", why="w", kind="install_pytorch", commands=(("false",),),
                        done_when=(Check("path_exists", (str(marker),)),)),
        "error": Step(id="target", title="The step", why="w", kind="install_pytorch",
                      commands=((PY, "-c", "import sys; print('E: broken', file=sys.stderr); sys.exit(3)"),)),
        "cancelled": Step(id="target", title="The step", why="w", kind="install_pytorch",
                          commands=((PY, "-c", "import time; print('waiting', flush=True); time.sleep(30)"),)),
    }[status]
    return Plan(steps=(Step(id="first", title="First", why="w", kind="install_pytorch", commands=(("true",),)), target,
                       Step(id="after", title="After", why="w", kind="install_pytorch", commands=(("true",),))))


@pytest.fixture(scope="module")
def recorded(tmp_path_factory) -> dict[str, Path]:
    """One real session folder per engine status, run by the executor."""
    out = {}
    for status in STEP_STATUSES:
        tmp = tmp_path_factory.mktemp(status)
        s = Session.create(tmp / "sessions")
        token = CancelToken()
        if status == "cancelled":
            def cancel_when_running(d=s.dir, t=token):
                while not t.cancelled:
                    if "waiting" in (d / "output.log").read_text(errors="replace"):
                        t.cancel()
                    threading.Event().wait(0.02)
            threading.Thread(target=cancel_when_running, daemon=True).start()
        Executor(_plan(status, tmp), s, cancel=token).run()
        token.cancel()
        out[status] = s.dir
    return out


def _source(recorded, status: str, source: str, tmp_path: Path) -> Path:
    d = tmp_path / "s"
    shutil.copytree(recorded[status], d, ignore=shutil.ignore_patterns("lock"))
    if source == "journal only":
        (d / "state.json").unlink()
    elif source == "state only":
        (d / "events.jsonl").unlink()
    return d


CASES = [(s, src) for s in STEP_STATUSES for src in SOURCES]


@pytest.mark.parametrize("status, source", CASES)
def test_the_run_record_says_the_engine_status(recorded, tmp_path, status, source):
    rec = from_session(_source(recorded, status, source, tmp_path)).record
    assert rec.step("target").status == status
    assert rec.step("first").status in ("ok", "skipped")
    assert rec.step("after").status == ("ok" if status in ("ok", "skipped") else "pending")


@pytest.mark.parametrize("status, source", CASES)
def test_the_report_json_says_the_engine_status(recorded, tmp_path, status, source):
    r = build_report(session=_source(recorded, status, source, tmp_path), redact=False)
    data = json.loads(render(r, "json"))
    assert {s["id"]: s["status"] for s in data["steps"]}["target"] == status
    run = {"ok": "ok", "skipped": "ok", "error": "error", "cancelled": "cancelled"}[status]
    assert data["session"]["status"] == run


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
@pytest.mark.parametrize("status, source", CASES)
def test_the_html_badge_says_the_status_word(recorded, tmp_path, status, source, lang):
    r = build_report(session=_source(recorded, status, source, tmp_path), redact=False, lang=lang)
    page = render(r, "html")
    row = re.search(r"<code>target</code>.*?<span class='badge ([a-z_]+)'>([^<]+)</span>", page, re.S)
    assert row is not None
    assert row.group(1) == status and html.unescape(row.group(2)) == messages.status_word(status, lang)


@pytest.mark.parametrize("status, source", CASES)
def test_the_markdown_row_and_the_headline_follow_the_status(recorded, tmp_path, status, source):
    r = build_report(session=_source(recorded, status, source, tmp_path), redact=False)
    md = render(r, "md")
    row = next(ln for ln in md.splitlines() if "(`target`)" in ln and ln.startswith("|"))
    assert f"| {messages.status_word(status, 'en')} |" in row
    headline = " ".join(r.headline)
    if status == "error":
        assert r.overall == "fail" and "failed" in headline
    elif status == "cancelled":
        assert r.overall == "warn" and "cancelled" in headline
    else:
        assert r.overall == "pass" and "3 of 3 steps done" in headline


@pytest.mark.parametrize("status", STEP_STATUSES)
def test_the_window_reducer_folds_the_journal_to_the_same_status(recorded, status):
    rec = RunRecord.for_plan(Plan.from_json(Session(recorded[status]).read_json("plan.json")).steps)
    for ev in Session(recorded[status]).read_events():
        rec.apply(ev, now=1.0)
    assert rec.step("target").status == status
    assert rec.status == {"ok": "ok", "skipped": "ok", "error": "error", "cancelled": "cancelled"}[status]


def test_the_report_keeps_exit_codes_durations_and_commands_from_the_typed_record(recorded):
    s = read_session(recorded["error"])
    by = {o.id: o for o in s.steps}
    assert (by["target"].rc, by["first"].rc, by["after"].rc) == (3, 0, None)
    assert by["target"].duration_s > 0 and by["target"].started and by["target"].finished
    assert (s.info.commands_run, s.info.commands_failed) == (2, 1)
    assert s.log is not None and "E: broken" in s.log.text


# ------------------------------------------------------------------------------------------------
# The reducer on its own


def test_the_reducer_over_a_live_event_stream():
    rec = RunRecord.for_plan(Plan(steps=(Step(id="a", title="A", why="", kind="install_pytorch", weight=1), Step(id="b", title="B", why="", kind="install_pytorch", weight=3))).steps)
    seen = []
    for t, ev in enumerate([StepStarted("a", 0, 2, "A"), LineEvent("a", "stdout", "x"), ProgressEvent("a", 0.5, 0.1),
                            StepFinished("a", "ok", "done", "", 0.0), StepStarted("b", 1, 2, "B", True),
                            LineEvent("b", "stdout", "live", final=False), PlanFinished("cancelled", "stopped", "b", "/s")]):
        rec.apply(ev, now=float(t))
        seen.append((rec.step("a").status, rec.step("b").status))
    assert seen == [("running", "pending"), ("running", "pending"), ("running", "pending"), ("ok", "pending"),
                    ("ok", "running"), ("ok", "running"), ("ok", "cancelled")]
    a, b = rec.step("a"), rec.step("b")
    assert a.streamed and not b.streamed and a.duration_s == 3.0 and b.needs_root
    assert (rec.status, rec.failed_step, rec.session_dir, rec.overall) == ("cancelled", "b", "/s", 0.1)
    rec.apply(StepFinished("repair_interrupted_dpkg", "ok"))  # a step the executor put first joins the record
    assert rec.step("repair_interrupted_dpkg").status == "ok"


def test_a_plan_finishing_with_an_error_ends_a_running_step_as_error():
    rec = RunRecord.for_plan([Step(id="a", title="A", why="", kind="install_pytorch")])
    rec.apply(StepStarted("a", 0, 1, "A"))
    rec.apply(PlanFinished("error", "helper died", None))
    assert rec.step("a").status == "error" and rec.failed is rec.step("a")


# ------------------------------------------------------------------------------------------------
# One vocabulary, one word list


def test_every_status_has_one_word_in_each_language():
    words = {lang: messages.catalogue(lang)["values"]["status"] for lang in messages.LANGUAGES}
    for status in {*STEP_STATES, *RUN_STATUSES, *PLAN_STATUSES}:
        for lang in messages.LANGUAGES:
            assert words[lang].get(status), (lang, status)
            assert messages.status_word(status, lang) == words[lang][status]
    assert set(words["en"]) == set(words["zh_CN"]) == {*STEP_STATES, *RUN_STATUSES, "unknown"}
    assert len(set(words["en"].values())) == len(words["en"])  # no two statuses said alike


_WORDS = ("ok", "error", "done", "failed", "skipped", "cancelled", "success", "succeeded", "pending", "waiting")
_PAIR = re.compile(r"""["'](\w+)["']\s*:\s*(?:N_\()?["']([\w ]+)["']""")


def _renamings(text: str) -> list[tuple[str, str]]:
    """Status words mapped to other status words in a line of code ({"error": "failed"}, {"ok": N_("done")})."""
    return [(a, b) for a, b in _PAIR.findall(text) if a in _WORDS and b in _WORDS and a != b]


def test_no_second_status_vocabulary_in_the_code():
    """No table renames one status word into another (the report's, the window's and the replay's are gone); the
    words of report format 1 are read only where an old report is loaded (OLD_STEP_WORDS)."""
    found = []
    for top in ("app/report", "app/run", "app/commands", "ui"):
        for py in sorted((ROOT / top).rglob("*.py")):
            for n, line in enumerate(py.read_text(encoding="utf-8").splitlines(), 1):
                if _renamings(line) and "OLD_" not in line:
                    found.append(f"{py.relative_to(ROOT)}:{n}: {line.strip()}")
    assert found == []
    assert _renamings('STATUS = {"ok": "ok", "error": "failed"}') == [("error", "failed")]
    assert _renamings('WORDS = {"pending": N_("waiting"), "ok": N_("done")}') == [("pending", "waiting"), ("ok", "done")]


# ------------------------------------------------------------------------------------------------
# Older sessions and reports


@pytest.mark.parametrize("fmt", ["state1", "state2"])
def test_sessions_of_older_formats_still_load(fmt):
    failed = read_session(OLD / fmt / "failed")
    by = {o.id: o.status for o in failed.steps}
    assert by == {"update_index": "ok", "install_toolkit": "error", "install_pytorch": "pending"}
    assert failed.info.status == "error" and failed.notes == ()
    assert "Unable to locate package" in failed.log.text
    cancelled = read_session(OLD / fmt / "cancelled")
    assert [(o.id, o.status) for o in cancelled.steps] == [("install_pytorch", "cancelled")]
    assert cancelled.info.status == "cancelled"
    r = build_report(session=OLD / fmt / "failed", redact=False)
    assert r.overall == "fail" and any("failed" in h for h in r.headline)


def test_a_format_1_report_reads_as_the_vocabulary(tmp_path):
    r = build_report(session=OLD / "state2" / "failed", redact=False)
    data = json.loads(render(r, "json"))
    data["format"] = "gpu-wizard-report/1"  # what the wizard of round 3 wrote: its own words
    for st in data["steps"]:
        st["status"] = {"ok": "done", "error": "failed", "pending": "pending"}[st["status"]]
    data["session"]["status"] = "failed"
    p = tmp_path / "old.json"
    p.write_text(json.dumps(data))
    loaded = load_report_json(p)
    assert [s.status for s in loaded["steps"]] == ["ok", "error", "pending"]
    assert loaded["session"].status == "error" and loaded["report"].format == "gpu-wizard-report/2"
    out = tmp_path / "again.html"
    write_report(loaded["report"], out)
    assert "class='badge error'" in out.read_text()
