"""Runs, attacked as the audit did: a kill right after a step's command and before its record, for every
step kind (the command itself kills the run with SIGKILL: no race); two runs that need root started
together, each with its own new session (real processes as root, in a private mount namespace with
its own /run); the temporary files a killed writer leaves beside root's files, cleaned by the next run
(only our own names)."""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from app import fileio
from app.plan import Check, Plan, Step
from app.plan.model import STEP_KINDS, Edit
from app.run import Executor, Session
from app.run.executor import AT_MOST_ONCE

ROOT = Path(__file__).resolve().parents[2]
PY = sys.executable
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
COUNT = "import sys; open(sys.argv[1], 'a').write('x')"
# the second command does its work, then kills the run that started it: after the command, before its record
KILL = "import os, signal, sys; open(sys.argv[1], 'a').write('x'); sys.argv[2] == 'kill' and os.kill(os.getppid(), signal.SIGKILL)"
CHILD = """
import json, sys
sys.path.insert(0, %r)
from app.plan import Plan
from app.run import Executor, Session
s = Session(%r)
plan = Plan.from_json(json.load(open(s.dir / "plan.json")))
Executor(plan, s, edit_root=%r).run()
"""


def _plan(kind: str, root: Path, kill: bool, edits: bool = True, checks: tuple = ()) -> Plan:
    return Plan(steps=(Step(
        id="the_step", kind=kind, title="t", why="t",
        edits=(Edit(path="/etc/env.d/gw.sh", mode="append", content="export GW=1\n", needs_root=False),) if edits else (),
        commands=((PY, "-c", COUNT, str(root / "a")), (PY, "-c", KILL, str(root / "b"), "kill" if kill else "no")),
        done_when=checks),))


def _killed_then_resumed(kind: str, tmp: Path, edits: bool = True, checks: tuple = ()):
    root = tmp / "root"
    (root / "etc" / "env.d").mkdir(parents=True)
    (root / "etc" / "env.d" / "gw.sh").write_text("# env\n")
    s = Session.create(tmp / "s")
    Session(s.dir).write_json("plan.json", _plan(kind, root, True, edits, checks).to_json())
    child = subprocess.run([PY, "-c", CHILD % (str(ROOT), str(s.dir), str(root))], capture_output=True, text=True, timeout=120)
    assert child.returncode == -signal.SIGKILL, child.stderr
    st = json.loads((s.dir / "state.json").read_text())["steps"]["the_step"]
    assert (st["status"], st["phase"], st["commands_done"], st["command_started"]) == ("running", "commands", 1, 1)
    r = Executor(_plan(kind, root, False, edits, checks), Session(s.dir), edit_root=str(root)).run()
    return r, root


@pytest.mark.parametrize("kind", sorted(STEP_KINDS))
def test_a_kill_after_a_command_runs_no_finished_command_and_no_edit_twice(kind, tmp_path):
    r, root = _killed_then_resumed(kind, tmp_path)
    assert r.status == "ok", r.message
    assert (root / "a").read_text() == "x"  # the command that had finished never runs again
    assert (root / "etc" / "env.d" / "gw.sh").read_text() == "# env\nexport GW=1\n"  # the append landed once
    assert (root / "b").read_text() == "xx"  # the begun one runs again: its kind is safe to repeat (a step with edits)


@pytest.mark.parametrize("kind", sorted(STEP_KINDS))
def test_the_begun_command_runs_again_only_when_its_kind_may(kind, tmp_path):
    """No edits, a check of the command's own result: a kind that must not repeat an install it may have
    finished (a runfile, a package transaction, a venv) trusts its checks; the others run it again."""
    checks = (Check("file_contains", ("/b", "x")),)
    r, root = _killed_then_resumed(kind, tmp_path, edits=False, checks=checks)
    assert r.status == "ok", r.message
    assert (root / "a").read_text() == "x"
    assert (root / "b").read_text() == ("x" if kind in AT_MOST_ONCE else "xx")


def test_every_kind_has_a_resume_rule():
    assert AT_MOST_ONCE < set(STEP_KINDS) and "run_runfile" in AT_MOST_ONCE and "write_env" not in AT_MOST_ONCE


# --- two runs that need root, together -------------------------------------------------------------

def _namespace(code: str, tmp: Path, timeout: float = 90) -> subprocess.CompletedProcess:
    if not (IS_ROOT and shutil.which("unshare") and os.path.isdir("/etc/profile.d")):
        pytest.skip("needs root and unshare for a private mount namespace (its own /run and /etc/profile.d)")
    script = tmp / "ns.py"
    script.write_text(f"import sys\nsys.path.insert(0, {str(ROOT)!r})\n" + textwrap.dedent(code))
    inner = "mount -t tmpfs tmpfs /run && mount -t tmpfs tmpfs /etc/profile.d && exec \"$@\""
    return subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c", inner, "sh", PY, str(script), str(tmp)],
                          capture_output=True, text=True, timeout=timeout)


RUN = """
import json, sys
sys.path.insert(0, %r)
from app.plan import Plan
from app.run import Executor, Session
from app.run.privilege import DirectPrivilege
s = Session.create(%r)
plan = Plan.from_json(json.loads(%r))
r = Executor(plan, s, privilege=DirectPrivilege(%r)).run()
print(json.dumps({"status": r.status, "message": r.message}), flush=True)
"""


@pytest.mark.skipif(not IS_ROOT, reason="the machine lock is root's")
def test_two_runs_that_need_root_started_together_one_waits_out(tmp_path):
    r = _namespace(f"""
        import json, os, subprocess, sys, time
        from app.plan import Plan, Step
        from app.plan.model import Edit
        tmp = sys.argv[1]
        edit = Edit(path="/etc/profile.d/cuda.sh", content="export CUDA_HOME=/usr/local/cuda\\n")
        slow = Step(id="install_pytorch", kind="install_pytorch", title="t", why="t",
                    commands=(({PY!r}, "-c", "import time; time.sleep(6)"),))
        plan = Plan(steps=(Step(id="write_env", kind="write_env", title="t", why="t", edits=(edit,)), slow))
        code = {RUN!r}
        procs = [subprocess.Popen([{PY!r}, "-c", code % ({str(ROOT)!r}, os.path.join(tmp, f"sessions{{i}}"),
                                   json.dumps(plan.to_json()), os.path.join(tmp, "backups"))],
                                  stdout=subprocess.PIPE, text=True) for i in range(2)]
        outs = [json.loads(p.communicate(timeout=60)[0].strip().splitlines()[-1]) for p in procs]
        pids = [p.pid for p in procs]
        print(json.dumps({{"outs": outs, "pids": pids}}))
        # the helper as well: a second one started while the first runs says who holds the machine
        first = subprocess.Popen([{PY!r}, "-m", "app.run.privileged"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True, cwd={str(ROOT)!r})
        assert '"ready"' in first.stdout.readline()
        second = subprocess.run([{PY!r}, "-m", "app.run.privileged"], input="", capture_output=True, text=True,
                                cwd={str(ROOT)!r}, timeout=30)
        first.communicate('{{"op": "quit"}}\\n', timeout=30)
        third = subprocess.Popen([{PY!r}, "-m", "app.run.privileged"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True, cwd={str(ROOT)!r})
        again = '"ready"' in third.stdout.readline()
        third.communicate('{{"op": "quit"}}\\n', timeout=30)
        print(json.dumps({{"second": [second.returncode, second.stderr.strip()], "first_pid": first.pid, "again": again}}))
    """, tmp_path)
    assert r.returncode == 0, r.stderr[-2000:]
    runs, helpers = (json.loads(x) for x in r.stdout.strip().splitlines()[-2:])
    statuses = sorted(o["status"] for o in runs["outs"])
    assert statuses == ["error", "ok"], runs
    busy = next(o for o in runs["outs"] if o["status"] == "error")["message"]
    holder = [p for p in runs["pids"] if f"pid {p}," in busy]
    assert len(holder) == 1 and "administrator" in busy and "\n" not in busy, busy
    rc, err = helpers["second"]
    assert rc == 2 and err.count("\n") == 0 and f"pid {helpers['first_pid']}," in err, err
    assert helpers["again"]  # the lock ended with the helper that held it


@pytest.mark.skipif(not IS_ROOT, reason="the machine lock is root's")
def test_the_machine_lock_is_between_processes_and_a_forgotten_holder_frees_it(tmp_path):
    # CI saw it: a DirectPrivilege a caller never closed kept the flock for the whole process, so the
    # next run in that process (and every helper it started) was told "another run" -- itself.
    r = _namespace(f"""
        import gc, json, subprocess, sys
        from app.run import machinelock
        from app.run.privilege import DirectPrivilege
        first = DirectPrivilege(sys.argv[1] + "/b1")
        first._hold()
        second = DirectPrivilege(sys.argv[1] + "/b2")
        second._hold()  # the same process: one more share, not "busy"
        probe = [{PY!r}, "-c", "from app.run import machinelock as m; m.acquire()"]
        busy = subprocess.run(probe, capture_output=True, text=True, cwd={str(ROOT)!r})
        second.close()
        still = subprocess.run(probe, capture_output=True, text=True, cwd={str(ROOT)!r})
        del first  # never closed
        gc.collect()
        free = subprocess.run(probe, capture_output=True, text=True, cwd={str(ROOT)!r})
        print(json.dumps({{"busy": busy.returncode, "still": still.returncode, "free": [free.returncode, free.stderr[-300:]],
                          "held": machinelock.held_here()}}))
    """, tmp_path)
    assert r.returncode == 0, r.stderr[-2000:]
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert out["busy"] != 0 and out["still"] != 0  # another process is refused while any share is held
    assert out["free"][0] == 0, out["free"]
    assert out["held"] is False


# --- temporary files a kill left ---------------------------------------------------------------------

@pytest.mark.skipif(not IS_ROOT, reason="root's folders; the other user's file needs root to make")
def test_temp_files_a_kill_left_beside_roots_files_are_cleaned_by_the_next_run(tmp_path):
    r = _namespace(f"""
        import json, os, signal, subprocess, sys, time
        from app import fileio
        # a real kill: a writer inside its atomic write, killed with SIGKILL
        w = subprocess.Popen([{PY!r}, "-c", "import sys, time; sys.path.insert(0, {str(ROOT)!r})\\n"
                              "from app import fileio\\n"
                              "with fileio.atomic_file('/etc/profile.d/cuda.sh', mode=0o644) as fh:\\n"
                              "    fh.write(b'half'); fh.flush(); print('in', flush=True); time.sleep(60)\\n"],
                             stdout=subprocess.PIPE, text=True)
        assert w.stdout.readline().strip() == "in"
        w.kill(); w.wait()
        left = [n for n in os.listdir("/etc/profile.d") if fileio.is_temp_name(n)]
        open("/etc/profile.d/.other.0123456789abcdef.gpu-wizard-tmp", "w").write("x")
        os.chown("/etc/profile.d/.other.0123456789abcdef.gpu-wizard-tmp", 54321, 54321)  # not ours: another user's
        open("/etc/profile.d/.vimrc.swp", "w").write("x")
        # the next run: the helper starts (and quits)
        h = subprocess.run([{PY!r}, "-m", "app.run.privileged"], input='{{"op": "quit"}}\\n', capture_output=True,
                           text=True, cwd={str(ROOT)!r}, timeout=30)
        print(json.dumps({{"left": left, "after": sorted(os.listdir("/etc/profile.d")), "rc": h.returncode}}))
    """, tmp_path)
    assert r.returncode == 0, r.stderr[-2000:]
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert len(out["left"]) == 1 and out["rc"] == 0
    assert out["after"] == [".other.0123456789abcdef.gpu-wizard-tmp", ".vimrc.swp"]


def test_an_edit_cleans_its_own_leftovers_beside_the_file(tmp_path):
    from app.run.edits import apply_edit

    root = tmp_path / "r"
    (root / "etc").mkdir(parents=True)
    (root / "etc" / "env.sh").write_text("a\n")
    stale = root / "etc" / ".env.sh.00112233445566aa.gpu-wizard-tmp"
    stale.write_text("half")
    other = root / "etc" / ".profile.00112233445566aa.gpu-wizard-tmp"
    other.write_text("half")
    apply_edit(Edit(path="/etc/env.sh", content="b\n", needs_root=False), tmp_path / "b", str(root))
    assert not stale.exists() and other.exists() and (root / "etc" / "env.sh").read_text() == "b\n"
    assert fileio.is_temp_name(other.name, "profile")


def test_a_busy_lock_waits_a_moment_for_its_holder_to_say_who_it_is(tmp_path):
    # the holder takes the lock, then writes its line: a second run in between must not call it nameless
    import threading

    from app.run import machinelock

    path = tmp_path / "lock"
    path.write_bytes(b"")
    fd = os.open(path, os.O_RDWR)
    try:
        later = threading.Timer(0.2, lambda: path.write_bytes(b"pid 4242, user root, gpu-wizard install, since 10:00:00\n"))
        later.start()
        assert machinelock._holder(fd) == "pid 4242, user root, gpu-wizard install, since 10:00:00"
        later.join()
        path.write_bytes(b"")
        assert machinelock._holder(fd, wait=0.05) == "a process that did not say who it is"
    finally:
        os.close(fd)
