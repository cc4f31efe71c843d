"""Resume after a restart reads the run state (app/run/resume.py): the real executor pauses a plan whose
driver step needs a restart, the next start finds that session waiting (and no other), stops it waiting once
the boot changed, and a later run then goes on with the verification; round 3's resume.json reads once."""
from __future__ import annotations

import json
import sys

import pytest

from app.plan import Check, Plan, Step
from app.restart import resume_due
from app.run import Executor, Session
from app.run.resume import RestartPoint, read_legacy, restarted, waiting_for_restart


def _plan(tmp_path) -> Plan:
    marker = tmp_path / "driver"
    return Plan(steps=(
        Step(id="install_driver", kind="install_pytorch", title="d", why="t", commands=(("touch", str(marker)),),
             reboot_required=True, done_when=(Check("path_exists", (str(marker),)),)),
        Step(id="verify_pytorch", kind="verify", title="v", why="t", commands=((sys.executable, "-c", "print('verified')"),)),
    ))


def test_a_run_waiting_for_its_restart_is_found_resumed_once_and_then_verifies(tmp_path):
    base = tmp_path / "sessions"
    assert waiting_for_restart(base) is None  # no session at all
    s = Session.create(base)
    plan = _plan(tmp_path)
    assert Executor(plan, s, boot_id_fn=lambda: "boot-1").run().status == "reboot_required"
    point = waiting_for_restart(base)
    assert point == RestartPoint(str(s.dir), "boot-1")
    assert not resume_due(point.boot_id, "boot-1") and resume_due(point.boot_id, "boot-2")
    restarted(point)
    assert waiting_for_restart(base) is None  # resumed once: the next start opens normally
    st = s.load_state()
    assert st.status == "reboot_required" and not st.reboot_pending  # the CLI's next run still finishes the plan
    events = []
    assert Executor(plan, s, boot_id_fn=lambda: "boot-2", listener=events.append).run().status == "ok"
    assert [(e.step_id, e.status) for e in events if e.type == "step_finished"] == [
        ("install_driver", "skipped"), ("verify_pytorch", "ok")]


def test_only_a_run_that_waits_for_a_restart_is_offered(tmp_path):
    base = tmp_path / "sessions"
    s = Session.create(base)
    Executor(Plan(steps=(Step(id="run_bad", kind="install_pytorch", title="b", why="t", commands=(("false",),)),)), s).run()
    assert s.load_state().status == "error" and waiting_for_restart(base) is None
    (s.dir / "state.json").write_text("{damaged")
    assert waiting_for_restart(base) is None  # a damaged run state is not a restart to resume


def test_restarted_leaves_a_busy_session_waiting(tmp_path):
    base = tmp_path / "sessions"
    s = Session.create(base)
    Executor(_plan(tmp_path), s, boot_id_fn=lambda: "b").run()
    holder = Session(s.dir)
    holder.acquire()
    try:
        restarted(waiting_for_restart(base))
    finally:
        holder.release()
    assert s.load_state().reboot_pending  # nothing lost: the next start asks again


def test_an_old_resume_file_reads_once(tmp_path):
    p = tmp_path / "resume.json"
    p.write_text(json.dumps({"page": "verify", "session_dir": "/s", "boot_id": "b1", "snapshot": None, "written": None}))
    point = read_legacy(p)
    assert point == RestartPoint("/s", "b1", str(p))
    restarted(point)  # the session folder is gone: only the old file goes
    assert not p.exists() and read_legacy(p) is None


@pytest.mark.parametrize("text", ["{not json", "[]", '"x"', "x" * 70_000, '{"session_dir": 5, "boot_id": []}'])
def test_a_damaged_old_resume_file_is_no_resume(tmp_path, text):
    p = tmp_path / "resume.json"
    p.write_text(text)
    point = read_legacy(p)
    assert point is None or (point.session_dir is None and point.boot_id is None)


# ------------------------------------------------------------------------------------------------
# What resume counts as done: only a step whose status is "ok" (RunState.finished_ok)

@pytest.mark.parametrize("status", ["running", "ok", "skipped", "error", "cancelled"])
def test_only_an_ok_step_counts_as_finished(status):
    from app.run.state import StepState

    st = StepState.from_json({"status": status})
    assert st.finished_ok == (status == "ok")
    assert st.interrupted == (status not in ("ok", "skipped"))


@pytest.mark.parametrize("how", ["error", "cancelled"])
def test_a_step_that_did_not_finish_runs_again_on_resume(tmp_path, how):
    """The failed (or cancelled) step and everything after it run again; the step before it is skipped."""
    import threading

    from app.run.runner import CancelToken

    flag = tmp_path / "fixed"
    code = (f"import os, sys, time; print('trying', flush=True)\n"
            f"if not os.path.exists({str(flag)!r}):\n"
            + ("    time.sleep(30)\n" if how == "cancelled" else "    sys.exit(3)\n"))
    plan = Plan(steps=(
        Step(id="install_first", kind="install_pytorch", title="a", why="t", commands=(("true",),)),
        Step(id="install_target", kind="install_pytorch", title="b", why="t", commands=((sys.executable, "-c", code),)),
        Step(id="install_after", kind="install_pytorch", title="c", why="t", commands=(("true",),)),
    ))
    s = Session.create(tmp_path / "sessions")
    token = CancelToken()
    if how == "cancelled":
        def stop():
            while "trying" not in (s.dir / "output.log").read_text(errors="replace"):
                threading.Event().wait(0.02)
            token.cancel()
        threading.Thread(target=stop, daemon=True).start()
    assert Executor(plan, s, cancel=token).run().status == how
    assert s.load_state().steps["install_target"].status == how
    flag.touch()
    events = []
    assert Executor(plan, Session(s.dir), listener=events.append).run().status == "ok"
    ended = [(e.step_id, e.status) for e in events if e.type == "step_finished"]
    assert ended == [("install_first", "skipped"), ("install_target", "ok"), ("install_after", "ok")]
    st = Session(s.dir).load_state().steps["install_target"]
    assert st.status == "ok" and st.attempts == 2 and st.rc == 0
    ran = [e for e in Session(s.dir).read_events() if e.type == "command_finished" and e.step_id == "install_target"]
    assert len(ran) == 2 and ran[0].ok is False and ran[1].ok is True
