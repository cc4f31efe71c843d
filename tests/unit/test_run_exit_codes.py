"""Accepted exit codes per step: DISM's 3010 ("done, restart required") is success that pauses the
plan for a restart; any other non-zero code still fails the step. Checked through the runner, the
executor with a privilege backend (as the helper returns it) and the exported scripts."""
from __future__ import annotations

import copy
import json
import subprocess
import sys


from app.plan import Check, Plan, Step
from app.plan.model import validate_step
from app.plan.script import plan_to_script
from app.plan.script_ps import plan_to_powershell
from app.run import Executor, Session, run_command
from app.run.runner import CommandOutcome


class FakePrivilege:
    """Answers every root command with a fixed exit code, the way the helper reports one."""

    how = "fake"

    def __init__(self, rc):
        self.rc = rc
        self.calls = []

    def run(self, kind, argv, env, timeout_s, files, on_line, on_progress, cancel):
        self.calls.append((kind, list(argv)))
        return CommandOutcome(argv=list(argv), rc=self.rc, duration_s=0.01)

    def close(self):
        pass


def _dism_step(**kw):
    base = dict(id="enable_wsl_features", kind="windows_host", title="features", why="t", needs_root=True,
                commands=(("dism.exe", "/online", "/enable-feature", "/featurename:VirtualMachinePlatform", "/all", "/norestart"),),
                ok_exit_codes=(0, 3010), reboot_exit_codes=(3010,))
    base.update(kw)
    return Step(**base)


def test_exit_codes_round_trip_and_default():
    s = _dism_step()
    again = Plan.loads(Plan(steps=(s,)).dumps()).steps[0]
    assert again.ok_exit_codes == (0, 3010) and again.reboot_exit_codes == (3010,)
    plain = Step(id="run_x", kind="verify", title="x", why="x")
    assert plain.ok_exit_codes == (0,) and plain.reboot_exit_codes == ()
    # an old plan.json without the fields still loads, with the defaults
    d = plain.to_json()
    d.pop("ok_exit_codes"), d.pop("reboot_exit_codes")
    assert Step.from_json(d).ok_exit_codes == (0,)


def test_validate_step_exit_codes():
    assert validate_step(_dism_step()) == []
    assert any("among ok_exit_codes" in p for p in validate_step(_dism_step(reboot_exit_codes=(1641,))))
    assert any("non-empty" in p for p in validate_step(_dism_step(ok_exit_codes=(), reboot_exit_codes=())))


def test_runner_accepts_listed_codes_only():
    code = [sys.executable, "-c", "import sys; sys.exit(3)"]
    r = run_command(code)
    assert not r.ok and "exit code 3" in r.message
    r = run_command(code, ok_codes=(0, 3))
    assert r.ok and r.rc == 3 and "exit code 3" in r.message and "failed" not in r.message
    assert not run_command([sys.executable, "-c", "import sys; sys.exit(4)"], ok_codes=(0, 3)).ok


def test_3010_from_the_helper_is_success_and_pauses_for_the_restart(tmp_path):
    plan = Plan(platform="windows", steps=(_dism_step(),))
    session = Session.create(tmp_path / "s")
    priv = FakePrivilege(3010)
    events = []
    r = Executor(plan, session, privilege=priv, listener=events.append, boot_id_fn=lambda: "boot-1").run()
    assert r.status == "reboot_required", r.message
    fin = [e for e in events if e.type == "step_finished"]
    assert [(e.step_id, e.status) for e in fin] == [("enable_wsl_features", "ok")] and "restart" in fin[0].message
    state = json.loads((session.dir / "state.json").read_text())
    assert state["reboot_pending"] and state["steps"]["enable_wsl_features"]["status"] == "ok"
    assert "3010" in (session.dir / "commands.log").read_text()


def test_other_codes_still_fail_the_step(tmp_path):
    plan = Plan(platform="windows", steps=(_dism_step(),))
    r = Executor(plan, Session.create(tmp_path / "s"), privilege=FakePrivilege(87), boot_id_fn=lambda: "b").run()
    assert r.status == "error" and "exit code 87" in r.message
    # without ok_exit_codes, 3010 is a failure like any other code
    plain = Plan(steps=(_dism_step(ok_exit_codes=(0,), reboot_exit_codes=()),))
    r = Executor(plain, Session.create(tmp_path / "t"), privilege=FakePrivilege(3010), boot_id_fn=lambda: "b").run()
    assert r.status == "error" and "3010" in r.message


def test_rc_zero_needs_no_restart_and_a_restart_code_pauses_before_verification(tmp_path):
    # rc 0 from a step that only *may* need a restart: no pause
    plan = Plan(steps=(_dism_step(reboot_required=False),))
    assert Executor(plan, Session.create(tmp_path / "a"), privilege=FakePrivilege(0), boot_id_fn=lambda: "b").run().status == "ok"
    # a real process: exit code 194 declared "done, restart needed"; verification waits for the restart
    marker = tmp_path / "m"
    steps = (Step(id="install_thing", kind="install_pytorch", title="t", why="t", ok_exit_codes=(0, 194), reboot_exit_codes=(194,),
                  commands=((sys.executable, "-c", f"open({str(marker)!r}, 'w'); raise SystemExit(194)"),),
                  done_when=(Check("path_exists", (str(marker),)),)),
             Step(id="verify_thing", kind="verify", title="v", why="v", commands=((sys.executable, "-c", "print('ok')"),)))
    session = Session.create(tmp_path / "b")
    boot = {"id": "boot-1"}
    assert Executor(Plan(steps=steps), session, boot_id_fn=lambda: boot["id"]).run().status == "reboot_required"
    boot["id"] = "boot-2"
    assert Executor(Plan(steps=steps), session, boot_id_fn=lambda: boot["id"]).run().status == "ok"


def test_windows_boot_id_is_stable_within_a_boot():
    from app.run.executor import windows_boot_id

    assert windows_boot_id(1_000_000.0, 3600.0) == windows_boot_id(1_000_050.2, 3650.2)
    assert windows_boot_id(1_000_000.0, 3600.0) != windows_boot_id(1_000_000.0, 60.0)  # restarted since


def test_enable_wsl_features_accepts_3010():
    from tests.unit.test_windows_plan import DEMO, _plan
    from app.compat.db import load_db

    _, _, plan = _plan(copy.deepcopy(DEMO), load_db(use_user_bundle=False))
    s = plan.step("enable_wsl_features")
    assert s.ok_exit_codes == (0, 3010) and s.reboot_exit_codes == (3010,)
    text = plan_to_powershell(plan)
    assert "-Ok @(0, 3010) -Restart @(3010)" in text
    from app.commands.plan import plan_text

    assert "exit code 3010 also counts as success (the computer then needs a restart)" in plan_text(plan)


def test_bash_script_accepts_the_listed_codes(tmp_path):
    def script(rc):
        st = Step(id="run_tool", kind="verify", title="t", why="t", ok_exit_codes=(0, 3),
                  commands=(("bash", "-c", f"exit {rc}"),))
        return plan_to_script(Plan(steps=(st,)))
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "GPU_WIZARD_DOWNLOADS": str(tmp_path / "dl")}
    for rc, want in ((0, 0), (3, 0), (4, 4)):
        p = tmp_path / f"plan{rc}.sh"
        p.write_text(script(rc))
        assert subprocess.run(["bash", "-n", str(p)]).returncode == 0
        r = subprocess.run(["bash", str(p)], env=env, capture_output=True, text=True)
        assert r.returncode == want, r.stderr
        assert ("All steps finished." in r.stdout) is (want == 0)


def test_unknown_boot_id_pauses_once_then_verifies(tmp_path):
    steps = (Step(id="enable_thing", kind="windows_host", title="t", why="t", reboot_required=True,
                  commands=((sys.executable, "-c", "pass"),)),
             Step(id="verify_thing", kind="verify", title="v", why="v", commands=((sys.executable, "-c", "print('ok')"),)))
    session = Session.create(tmp_path / "s")
    assert Executor(Plan(steps=steps), session, boot_id_fn=lambda: None).run().status == "reboot_required"
    # the machine cannot say whether it restarted: the next run takes it that the user did, as asked
    assert Executor(Plan(steps=steps), session, boot_id_fn=lambda: None).run().status == "ok"
