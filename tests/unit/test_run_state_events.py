"""One run state and one event vocabulary: RunState round-trips, a format-1 session folder still
loads (and a future or damaged one says why), state writes are atomic with concurrent readers, the
step-level events land in events.jsonl and come back typed, and the report reads them."""
from __future__ import annotations

import json
import sys
import threading

import pytest

from app.plan import Plan, Step
from app.run import Executor, Session
from app.run.events import (EVENT_TYPES, CommandFinished, EventError, LineEvent, PlanFinished, ProgressEvent, StepFinished, StepStarted,
                            event_from_json, event_to_json)
from app.run.state import STATE_FORMAT, RunState, StateError, StepState


def test_run_state_round_trip_and_older_format():
    st = RunState(status="error", steps={"a": StepState("ok", "", "t", "finished", 2, 1, "t0", 1.5, 0),
                                         "b": StepState("running", "", "t", "commands", 1, 2)},
                  reboot_pending=True, boot_id="b1", root_edits=True, failed_step="b")
    again = RunState.from_json(json.loads(json.dumps(st.to_json())))
    assert again.to_json() == st.to_json() and again.format == STATE_FORMAT
    old = {"format": "gpu-wizard-state/1", "status": "error", "failed_step": "x", "reboot_pending": False,
           "boot_id": None, "steps": {"x": {"status": "error", "message": "apt-get failed", "at": "2026-11-29T15:40:12"},
                                      "y": {"status": "ok", "message": "", "at": "2026-11-29T15:40:09"}}}
    s1 = RunState.from_json(old)
    assert s1.steps["y"].finished_ok and s1.steps["y"].phase == "finished"
    assert s1.steps["x"].interrupted and s1.steps["x"].phase == "started"
    assert (s1.steps["x"].rc, s1.steps["x"].duration_s, s1.steps["x"].started) == (None, None, "")
    two = dict(old, format="gpu-wizard-state/2", steps={"x": {"status": "error", "phase": "commands", "commands_done": 1,
                                                                "attempts": 2, "message": "m", "at": "t"}})
    s2 = RunState.from_json(two)
    assert (s2.steps["x"].phase, s2.steps["x"].attempts, s2.steps["x"].rc) == ("commands", 2, None)
    assert RunState.from_json(s2.to_json()).format == STATE_FORMAT == "gpu-wizard-state/3"


@pytest.mark.parametrize("bad,why", [
    ({"format": "gpu-wizard-state/9"}, "format"), ([], "not an object"), ({"format": STATE_FORMAT, "status": "weird"}, "status"),
    ({"format": STATE_FORMAT, "steps": {"a": {"status": "ok", "phase": "??"}}}, "phase"),
    ({"format": STATE_FORMAT, "steps": {"a": {"status": "ok", "commands_done": "2"}}}, "whole numbers"),
    ({"format": STATE_FORMAT, "steps": {"a": {"status": "ok", "rc": True}}}, "rc"),
    ({"format": STATE_FORMAT, "steps": {"a": {"status": "ok", "duration_s": -1}}}, "duration_s"),
    ({"format": STATE_FORMAT, "steps": {"a": {"status": "pending"}}}, "status"),
])
def test_run_state_says_why_it_cannot_load(bad, why):
    with pytest.raises(StateError, match=why):
        RunState.from_json(bad)


def test_state_writes_are_atomic_for_concurrent_readers(tmp_path):
    s = Session.create(tmp_path / "s")
    stop = threading.Event()
    seen, errors = [], []

    def reader():
        while not stop.is_set():
            try:
                seen.append(Session(s.dir).load_state().status)
            except StateError as e:
                errors.append(str(e))

    t = threading.Thread(target=reader)
    t.start()
    try:
        for i in range(300):
            st = RunState(status="running" if i % 2 else "error",
                          steps={f"s{j}": StepState("ok", "x" * 200) for j in range(40)})
            s.save_state(st)
    finally:
        stop.set()
        t.join()
    assert errors == [] and seen  # never half a file
    assert not [p for p in s.dir.iterdir() if p.name.endswith("tmp")]


@pytest.mark.parametrize("ev", [StepStarted("a", 0, 3, "Title", True), LineEvent("a", "stderr", "x\ny", False),
                                ProgressEvent("a", None, 0.5, "m"), ProgressEvent("a", 0.25, 0.1),
                                StepFinished("a", "error", "failed", "tail", 1.5), PlanFinished("ok", "done", None, "/s"),
                                CommandFinished("a", ("apt-get", "install", "-y", "x"), 100, False, 2.5, "timed out"),
                                CommandFinished("a", ("download", "https://x/y"), None)])
def test_events_round_trip(ev):
    assert event_from_json(json.loads(json.dumps(event_to_json(ev)))) == ev


@pytest.mark.parametrize("bad", [None, [], {"type": "nope"}, {"type": "step_finished", "step_id": 5},
                                 {"type": "step_finished", "step_id": "a", "status": "weird"},
                                 {"type": "line", "step_id": "a", "stream": "x", "text": "t"},
                                 {"type": "plan_finished", "status": "ok", "bogus": 1, "failed_step": ["x"]},
                                 {"type": "command_finished", "step_id": "a", "argv": ["x", 1]},
                                 {"type": "command_finished", "step_id": "a", "argv": ["x"], "rc": True}])
def test_damaged_events_are_refused(bad):
    with pytest.raises(EventError):
        event_from_json(bad)


def test_executor_journals_step_events_and_the_report_reads_them(tmp_path):
    from app.report.build import read_session

    plan = Plan(steps=(Step(id="run_ok", kind="install_pytorch", title="ok", why="t", commands=(("true",),)),
                       Step(id="run_bad", kind="install_pytorch", title="bad", why="t",
                            commands=((sys.executable, "-c", "import sys; sys.exit(3)"),))))
    s = Session.create(tmp_path / "s")
    r = Executor(plan, s).run()
    assert r.status == "error"
    evs = Session(s.dir).read_events()
    assert [e.type for e in evs] == ["step_started", "command_finished", "step_finished", "step_started", "command_finished",
                                     "step_finished", "plan_finished"]
    assert set(EVENT_TYPES) >= {e.type for e in evs}
    assert evs[5].status == "error" and "exit code 3" in evs[5].message
    assert (evs[4].rc, evs[4].ok, evs[1].rc, evs[1].ok) == (3, False, 0, True)
    with open(s.dir / "events.jsonl", "a") as fh:
        fh.write('{"type": "step_fini')  # killed mid-line: skipped when read
    assert len(Session(s.dir).read_events()) == 7
    read = read_session(s.dir)
    steps = {o.id: o for o in read.steps}
    assert "exit code 3" in steps["run_bad"].message and steps["run_bad"].duration_s > 0
    assert steps["run_bad"].status == "error" and steps["run_bad"].rc == 3
    assert steps["run_ok"].status == "ok" and steps["run_ok"].duration_s > 0 and steps["run_ok"].rc == 0
    assert (read.info.status, read.info.commands_run, read.info.commands_failed) == ("error", 2, 1)
    st = Session(s.dir).load_state().steps["run_bad"]
    assert st.rc == 3 and st.duration_s > 0 and st.started and st.attempts == 1
