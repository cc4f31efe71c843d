"""Executor: restart handling (resume at verification after a reboot), serialised events, session files."""
from __future__ import annotations

import json
import sys
import threading

from app.plan import Check, Plan, Step
from app.run import Executor, Session


def _step(sid, kind="install_pytorch", argv=None, **kw):
    return Step(id=sid, kind=kind, title=sid, why="test", commands=(tuple(argv or ["true"]),), **kw)


def test_reboot_required_pauses_before_verification_and_resumes_after(tmp_path):
    marker = tmp_path / "driver"
    plan = Plan(steps=(
        _step("install_driver", argv=["touch", str(marker)], reboot_required=True,
              done_when=(Check("path_exists", (str(marker),)),)),
        _step("install_pytorch", argv=["true"]),
        _step("verify_pytorch", kind="verify", argv=[sys.executable, "-c", "print('verified')"]),
    ))
    session = Session.create(tmp_path / "s")
    boot = {"id": "boot-1"}
    r = Executor(plan, session, boot_id_fn=lambda: boot["id"]).run()
    assert r.status == "reboot_required" and "Restart" in r.message
    state = json.loads((session.dir / "state.json").read_text())
    assert state["reboot_pending"] and state["boot_id"] == "boot-1"
    assert set(state["steps"]) == {"install_driver", "install_pytorch"}  # verification waits
    # run again without a restart: still waiting
    assert Executor(plan, session, boot_id_fn=lambda: boot["id"]).run().status == "reboot_required"
    # after the restart: earlier steps are done, verification runs
    boot["id"] = "boot-2"
    events = []
    r2 = Executor(plan, session, boot_id_fn=lambda: boot["id"], listener=events.append).run()
    assert r2.status == "ok"
    assert [(e.step_id, e.status) for e in events if e.type == "step_finished"] == [
        ("install_driver", "skipped"), ("install_pytorch", "skipped"), ("verify_pytorch", "ok")]
    assert any(e.type == "line" and e.text == "verified" for e in events)


def test_events_are_never_delivered_concurrently(tmp_path):
    code = ("import sys, threading\n"
            "def w(s):\n    for i in range(3000): s.write('x%d\\n' % i)\n"
            "t = threading.Thread(target=w, args=(sys.stderr,)); t.start(); w(sys.stdout); t.join()\n")
    plan = Plan(steps=(_step("run_both", argv=[sys.executable, "-c", code]),))
    inside = threading.Lock()
    overlaps = []
    seen = []

    def listener(ev):
        if not inside.acquire(blocking=False):
            overlaps.append(ev)
            return
        try:
            seen.append(ev)
        finally:
            inside.release()
    r = Executor(plan, Session.create(tmp_path / "s"), listener=listener).run()
    assert r.status == "ok" and not overlaps
    lines = [e for e in seen if e.type == "line"]
    assert len(lines) == 6000 and {e.stream for e in lines} == {"stdout", "stderr"}
    assert [e.type for e in seen][0] == "step_started" and seen[-1].type == "plan_finished"


def test_session_files_and_redaction(tmp_path):
    plan = Plan(steps=(_step("run_echo", argv=["echo", "https://user:s3cret@mirror.example/simple"]),))
    session = Session.create(tmp_path / "s")
    Executor(plan, session, facts_json={"os": {"id": "debian"}}).run()
    session.close()
    names = {p.name for p in session.dir.iterdir()}
    assert {"commands.log", "output.log", "plan.json", "facts.json", "state.json"} <= names
    assert "s3cret" not in (session.dir / "commands.log").read_text()
    assert "s3cret" not in (session.dir / "output.log").read_text()
    assert "***:***@mirror.example" in (session.dir / "output.log").read_text()
    assert Plan.from_json(json.loads((session.dir / "plan.json").read_text())) == plan


def test_a_privilege_failure_is_a_failed_step_with_state_saved(tmp_path):
    from app.plan import Edit
    from app.run.privilege import HelperPrivilege

    failing = HelperPrivilege([sys.executable, "-c", "import sys; sys.stderr.write('sudo: unable to resolve host x'); sys.exit(1)"])
    plan = Plan(steps=(Step(id="write_cuda_env", kind="write_env", title="env", why="t", needs_root=True,
                            edits=(Edit("/etc/profile.d/cuda.sh", content="x"),), backups=("/etc/profile.d/cuda.sh",)),))
    session = Session.create(tmp_path / "s")
    r = Executor(plan, session, privilege=failing).run()
    assert r.status == "error" and "not granted" in r.message
    assert json.loads((session.dir / "state.json").read_text())["status"] == "error"
    # the password dialog dismissed: the plan stops as cancelled, in the catalogue's words, nothing ran
    dismissed = HelperPrivilege([sys.executable, "-c", "import sys; sys.stderr.write('Error executing command as another user: "
                                                       "Request dismissed'); sys.exit(126)"], how="pkexec")
    session2 = Session.create(tmp_path / "s2")
    r2 = Executor(plan, session2, privilege=dismissed).run()
    assert r2.status == "cancelled" and "You cancelled the password" in r2.message
    state = json.loads((session2.dir / "state.json").read_text())
    assert state["status"] == "cancelled" and state["steps"]["write_cuda_env"]["status"] == "cancelled"
