"""The password door on a terminal, for real: `gpu-wizard install --yes` typed by a user whose sudo
asks for a password (Debian's default: the sudo group, no NOPASSWD), on a real pseudo-terminal.
sudo asks there, the password is typed, and the root step really runs as root through the real
helper (rootboot's checked copy on /usr/bin/python3): its files are read back afterwards.
A wrong password first gets sudo's own "Sorry, try again."; Ctrl-C and a closed terminal during
a root step never stop it half-way. Everything runs in a private mount namespace
(tests/realsudo.py): the user, sudo's timestamps and the files root writes vanish with it."""
from __future__ import annotations

import json


from app.plan import Plan, Step
from app.plan.common import LDCONF_FILE, PROFILE_FILE
from app.plan.env import LDCONF_CONTENT, PROFILE_CONTENT
from app.plan.model import Check, Edit
from tests import realsudo
from tests.realsudo import CHECKOUT, PASSWORD, run_door

pytestmark = realsudo.marks()

PY = f"{CHECKOUT}/.venv/bin/python"
SESSION = "@HOME@/sessions/door"
MARKER = "/var/lib/gwdoor-step-finished"


def env_step() -> Step:
    """The plan's CUDA environment step (app/plan/env.py's shape): two root edits and ldconfig."""
    return Step(id="write_cuda_env", kind="write_env", title="Set CUDA_HOME, PATH and the library path", why="t",
                needs_root=True, edits=(Edit(PROFILE_FILE, content=PROFILE_CONTENT), Edit(LDCONF_FILE, content=LDCONF_CONTENT)),
                backups=(PROFILE_FILE, LDCONF_FILE), commands=(("ldconfig",),),
                done_when=(Check("file_contains", (PROFILE_FILE, "export CUDA_HOME=")),))


def slow_dpkg_step() -> Step:
    """A step that must never stop half-way (dpkg --configure -a, in NO_KILL_KINDS)."""
    return Step(id="repair_interrupted_dpkg", kind="repair_packages", title="Finish an interrupted package install",
                why="t", needs_root=True, commands=(("dpkg", "--configure", "-a"),))


# dpkg's stand-in inside the namespace only: slow, talks as it goes (a dead reader would kill it with
# SIGPIPE), and records at the end who ran it and that it got there
SLOW_DPKG = f"""#!/bin/sh
for i in 1 2 3 4 5 6; do echo "Setting up stand-in-package ($i/6) ..."; sleep 1.2; done
echo "uid=$(id -u) finished" > {MARKER}
"""


def _spec(plan: Plan, script: list[dict], **kw) -> dict:
    return {"argv": [PY, "-m", "app", "install", "--yes", "--session", SESSION], "cwd": CHECKOUT,
            "files": {f"{SESSION}/plan.json": json.dumps(plan.to_json())}, "script": script,
            "read": [PROFILE_FILE, LDCONF_FILE, MARKER, "/run/gpu-wizard"], **kw}


def test_terminal_asks_for_the_password_then_root_writes_the_files():
    r = run_door(_spec(Plan(steps=(env_step(),)), [
        {"expect": r"\[sudo\] password for gwdoor:", "send": "not-the-password\n"},
        {"expect": r"Sorry, try again\.", "send": ""},
        {"expect": r"\[sudo\] password for gwdoor:", "send": PASSWORD + "\n"},
        {"expect": r"All steps finished"},
    ]))
    out = r["transcript"]
    assert r["rc"] == 0, out
    assert "==> [1/1] Set CUDA_HOME" in out and "(administrator)" in out
    assert out.index("==> [1/1]") < out.index("[sudo] password for gwdoor:")  # asked when the root step came
    assert "a terminal is required" not in out and PASSWORD not in out
    prof, ld = r["paths"][PROFILE_FILE], r["paths"][LDCONF_FILE]
    assert prof is not None and prof["uid"] == 0 and "export CUDA_HOME=/usr/local/cuda" in prof["text"]
    assert ld is not None and ld["uid"] == 0 and "/usr/local/cuda/lib64" in ld["text"]
    assert not [e for e in r["events"] if "unmet" in e], r["events"]
    run = r["paths"]["/run/gpu-wizard"]
    assert run["uid"] == 0 and run["mode"] == 0o700
    assert not [e for e in run["entries"] if e.startswith("helper-")]  # its checked copy went with it
    assert r["stopped"] == []  # the helper ended with the run


def test_ctrl_c_during_a_root_step_lets_it_finish():
    r = run_door(_spec(Plan(steps=(slow_dpkg_step(),)), [
        {"expect": r"\[sudo\] password for gwdoor:", "send": PASSWORD + "\n"},
        {"expect": r"Setting up stand-in-package \(2/6\)", "ctrl_c": True},
    ], stand_ins={"/usr/bin/dpkg": SLOW_DPKG}))
    out = r["transcript"]
    marker = r["paths"][MARKER]
    assert marker is not None and marker["text"].strip() == "uid=0 finished", out
    assert "An administrator step that is running finishes first" in out
    assert "(6/6)" not in out  # the wizard stopped listening at Ctrl-C; root carried on by itself
    assert r["rc"] == 130 and r["stopped"] == []  # it waited for the step, then ended


def test_closed_terminal_during_a_root_step_lets_it_finish():
    r = run_door(_spec(Plan(steps=(slow_dpkg_step(),)), [
        {"expect": r"\[sudo\] password for gwdoor:", "send": PASSWORD + "\n"},
        {"expect": r"Setting up stand-in-package \(1/6\)", "hangup": True},
    ], stand_ins={"/usr/bin/dpkg": SLOW_DPKG}))
    marker = r["paths"][MARKER]
    assert marker is not None and marker["text"].strip() == "uid=0 finished", r["transcript"]
    assert r["stopped"] == []  # the helper ended by itself once the step was done


def test_no_terminal_and_no_display_is_one_line_and_nothing_starts():
    r = run_door({**_spec(Plan(steps=(env_step(),)), []), "no_tty": True,
                  "read": [PROFILE_FILE, f"{SESSION}/state.json", "/run/gpu-wizard"]})
    assert r["rc"] == 2, r["transcript"]
    err = r["stderr"].strip()
    assert err.count("\n") == 0 and "--askpass PROGRAM" in err and "from a terminal" in err and "as root" in err
    assert r["paths"][PROFILE_FILE] is None and r["paths"][f"{SESSION}/state.json"] is None  # nothing started
    run = r["paths"]["/run/gpu-wizard"]  # (the folder may hold other things of root's: a lock)
    assert run is None or not [e for e in run["entries"] if e.startswith("helper-")]  # not even the helper


def test_a_user_outside_the_sudo_group_is_asked_once_and_told_who_can():
    plan = Plan(steps=(env_step(), slow_dpkg_step()))  # two root steps: still one prompt
    r = run_door({**_spec(plan, [{"expect": r"\[sudo\] password for gwdoor:", "send": PASSWORD + "\n"},
                                 {"expect": r"error: "}]), "in_sudo_group": False})
    out = r["transcript"]
    assert out.count("password for gwdoor") == 1, out
    assert "gwdoor may not use sudo on this computer" in out and "sudo usermod -aG sudo gwdoor" in out
    assert "sudo gpu-wizard install" in out and r["rc"] == 1
    assert r["paths"][PROFILE_FILE] is None
