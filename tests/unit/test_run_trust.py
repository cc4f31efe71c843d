"""Root never trusts what a user can write: an unprivileged user (a bare uid, no passwd entry) attacks every
file path root uses, in a throwaway root; undo puts back owner, group, mode and symbolic links;
root refuses a session a user could have written; one run at a time per session; resume is exact."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import NamedTuple

import pytest

from app.plan import Check, Plan, Step
from app.plan.model import Edit
from app.run import Executor, Session
from app.run.edits import EditError, RestoreReport, apply_edit, restore
from app.run.session import SessionBusy, trust_problem

ROOT = Path(__file__).resolve().parents[2]
ATTACKER_UID = 54321  # no passwd entry: subprocess user=/group= take numbers
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
needs_root = pytest.mark.skipif(not IS_ROOT, reason="attacks on root's file edits need root (to act as root and "
                                                    "to start the unprivileged attacker's processes)")


class Attacker(NamedTuple):
    """An unprivileged user that has no passwd entry (nothing is written to this machine's /etc/passwd):
    the kernel needs only the numbers."""

    pw_uid: int = ATTACKER_UID
    pw_gid: int = ATTACKER_UID


@pytest.fixture(scope="module")
def attacker():
    if not IS_ROOT:
        pytest.skip("needs root to act as another user")
    return Attacker()


def as_user(user, *argv, **kw):
    """Run argv as the attacker (a real unprivileged process)."""
    return subprocess.run(list(argv), user=user.pw_uid, group=user.pw_gid, extra_groups=[], capture_output=True,
                          text=True, **kw)


@pytest.fixture()
def world(tmp_path, attacker):
    """A throwaway root: /etc (root's), /home/atk (the attacker's own folder), a victim file of root's."""
    root = tmp_path / "root"
    (root / "etc").mkdir(parents=True)
    victim = root / "etc" / "shadow"
    victim.write_text("root:$6$secret:19000::::::\n")
    victim.chmod(0o600)
    home = root / "home" / "atk"
    home.mkdir(parents=True)
    os.chown(home, attacker.pw_uid, attacker.pw_gid)
    home.chmod(0o755)
    tmp_path.chmod(0o755)  # the attacker may walk to its home (pytest makes tmp folders 0700)
    os.chmod(root, 0o755)
    os.chmod(root / "home", 0o755)
    for p in list(tmp_path.parents)[:3]:
        if p.stat().st_uid == 0 and str(p).startswith("/tmp/"):
            os.chmod(p, p.stat().st_mode | 0o711)
    bashrc = home / ".bashrc"
    bashrc.write_text("export PATH=/usr/local/cuda-11.8/bin:$PATH\nalias ll='ls -l'\n")
    os.chown(bashrc, attacker.pw_uid, attacker.pw_gid)
    return {"root": root, "victim": victim, "home": home, "bashrc": bashrc, "tmp": tmp_path}


APPEND = Edit(path="/home/atk/.bashrc", mode="append", content="export CUDA_HOME=/usr/local/cuda\n", needs_root=False)


@needs_root
def test_planted_link_at_the_old_temp_name_is_never_followed(world, attacker):
    # the old fixed temp name: a link there made root overwrite and chmod any file
    r = as_user(attacker, "ln", "-s", str(world["victim"]), str(world["home"] / ".bashrc.gpu-wizard.tmp"))
    assert r.returncode == 0, r.stderr
    before = world["victim"].read_bytes()
    apply_edit(APPEND, world["tmp"] / "b", str(world["root"]))
    assert world["victim"].read_bytes() == before and world["victim"].stat().st_mode & 0o777 == 0o600
    text = world["bashrc"].read_text()
    assert text.endswith("export CUDA_HOME=/usr/local/cuda\n")
    st = world["bashrc"].stat()
    assert (st.st_uid, st.st_gid) == (attacker.pw_uid, attacker.pw_gid)  # still the user's file
    assert not [p for p in world["home"].iterdir() if p.name.endswith(".gpu-wizard-tmp")]


@needs_root
def test_the_file_itself_a_link_to_roots_file_is_refused(world, attacker):
    world["bashrc"].unlink()
    assert as_user(attacker, "ln", "-s", str(world["victim"]), str(world["bashrc"])).returncode == 0
    before = world["victim"].read_bytes()
    with pytest.raises(EditError, match="symbolic link"):
        apply_edit(APPEND, world["tmp"] / "b", str(world["root"]))
    assert world["victim"].read_bytes() == before
    assert not (world["tmp"] / "b").exists() or "secret" not in "".join(
        p.read_text() for p in (world["tmp"] / "b").iterdir())  # root's file was not copied into a backup


@needs_root
def test_a_hard_link_to_roots_file_in_the_users_folder_is_refused(world, attacker):
    world["bashrc"].unlink()
    os.link(world["victim"], world["bashrc"])  # what protected_hardlinks=0 would let the user do
    with pytest.raises(EditError, match="belongs to uid 0"):
        apply_edit(APPEND, world["tmp"] / "b", str(world["root"]))
    assert "export CUDA_HOME" not in world["victim"].read_text()


@needs_root
def test_a_folder_on_the_way_swapped_for_a_link_is_refused(world, attacker):
    assert as_user(attacker, "ln", "-s", str(world["root"] / "etc"), str(world["home"] / ".config")).returncode == 0
    edit = Edit(path="/home/atk/.config/shadow", mode="append", content="x\n", needs_root=False)
    with pytest.raises(EditError, match="symbolic link"):
        apply_edit(edit, world["tmp"] / "b", str(world["root"]))
    assert world["victim"].read_text() == "root:$6$secret:19000::::::\n"


@needs_root
def test_the_users_own_dotfile_link_is_followed_and_stays_a_link(world, attacker):
    dot = world["home"] / "dotfiles"
    assert as_user(attacker, "mkdir", str(dot)).returncode == 0
    assert as_user(attacker, "sh", "-c", f"printf 'alias a=b\\n' > {dot}/bashrc && ln -sf dotfiles/bashrc {world['bashrc']}"
                   ).returncode == 0
    rec = apply_edit(APPEND, world["tmp"] / "b", str(world["root"]))
    assert world["bashrc"].is_symlink() and os.readlink(world["bashrc"]) == "dotfiles/bashrc"
    assert (dot / "bashrc").read_text() == "alias a=b\nexport CUDA_HOME=/usr/local/cuda\n"
    assert rec.real == "/home/atk/dotfiles/bashrc"
    assert restore(world["tmp"] / "b", str(world["root"])) == ["/home/atk/.bashrc"]
    assert (dot / "bashrc").read_text() == "alias a=b\n" and world["bashrc"].is_symlink()
    assert (dot / "bashrc").stat().st_uid == attacker.pw_uid


@needs_root
def test_new_file_in_a_users_folder_belongs_to_that_user(world, attacker):
    edit = Edit(path="/home/atk/.wslconfig", mode="write", content="[wsl2]\n", needs_root=False)
    apply_edit(edit, world["tmp"] / "b", str(world["root"]))
    st = (world["home"] / ".wslconfig").stat()
    assert (st.st_uid, st.st_gid) == (attacker.pw_uid, attacker.pw_gid)


@needs_root
def test_undo_restores_owner_group_mode_and_links(tmp_path, attacker):
    root = tmp_path / "r"
    etc = root / "etc" / "ld.so.conf.d"
    etc.mkdir(parents=True)
    f = etc / "cuda-11-8.conf"
    f.write_text("/usr/local/cuda-11.8/lib64\n")
    os.chown(f, attacker.pw_uid, attacker.pw_gid)
    f.chmod(0o640)
    link = etc / "cuda-link.conf"
    os.symlink("/etc/shadow", link)  # a link to a secret: undo must bring back the link, not shadow's bytes
    bdir = tmp_path / "b"
    apply_edit(Edit(path="/etc/ld.so.conf.d/cuda-11-8.conf", mode="remove_lines", lines=("/usr/local/cuda-11.8/lib64",)),
               bdir, str(root))
    apply_edit(Edit(path="/etc/ld.so.conf.d/cuda-link.conf", mode="delete"), bdir, str(root))
    assert f.read_text() == "" and not link.exists() and not link.is_symlink()
    rep = RestoreReport()
    restore(bdir, str(root), report=rep)
    assert rep.problems == []
    st = f.stat()
    assert f.read_text() == "/usr/local/cuda-11.8/lib64\n"
    assert (st.st_uid, st.st_gid, st.st_mode & 0o777) == (attacker.pw_uid, attacker.pw_gid, 0o640)
    assert link.is_symlink() and os.readlink(link) == "/etc/shadow"
    manifest = json.loads((bdir / "backups.json").read_text())
    assert [m["kind"] for m in manifest] == ["file", "symlink"] and manifest[1]["backup"] is None


@needs_root
def test_forged_backup_records_are_refused_and_said(tmp_path, attacker):
    bdir = tmp_path / "b"
    bdir.mkdir()
    secret = tmp_path / "secret"
    secret.write_text("s3cret\n")
    target = tmp_path / "r" / "etc" / "x.conf"
    target.parent.mkdir(parents=True)
    (bdir / "backups.json").write_text(json.dumps([{"path": "/etc/x.conf", "existed": True, "backup": str(secret)}]))
    rep = RestoreReport()
    assert restore(bdir, str(tmp_path / "r"), report=rep) == []
    assert not target.exists() and len(rep.problems) == 1 and "not in the backup folder" in rep.problems[0]
    # a truncated manifest: one clear error, nothing restored
    (bdir / "backups.json").write_text('[{"path": "/etc/x.conf", "exi')
    with pytest.raises(EditError, match="damaged"):
        restore(bdir, str(tmp_path / "r"))


@needs_root
def test_root_refuses_a_session_a_user_can_write(tmp_path, attacker):
    base = tmp_path / "sessions"
    s = Session.create(base)
    s.write_json("plan.json", Plan(steps=()).to_json())
    assert trust_problem(s.dir) is None
    os.chown(base, attacker.pw_uid, attacker.pw_gid)  # the user owns the folder above: can swap the session
    assert "belongs to uid" in trust_problem(s.dir)
    os.chown(base, 0, 0)
    os.chown(s.dir / "plan.json", attacker.pw_uid, attacker.pw_gid)
    why = trust_problem(s.dir)
    assert why and "plan.json" in why
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for args in (["install", "--yes", "--session", str(s.dir)], ["install", "--undo", "--session", str(s.dir)]):
        r = subprocess.run([sys.executable, "-m", "app", *args], capture_output=True, text=True, env=env, cwd=ROOT,
                           timeout=120)
        assert r.returncode == 2, r.stderr
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and "does not use" in lines[0] and "Traceback" not in r.stderr


def test_one_run_at_a_time_per_session(tmp_path):
    s = Session.create(tmp_path / "s")
    holder = subprocess.Popen([sys.executable, "-c", (
        "import sys, time; sys.path.insert(0, %r)\n"
        "from app.run.session import Session\n"
        "s = Session(%r); s.acquire(); print('held', flush=True); time.sleep(30)\n") % (str(ROOT), str(s.dir))],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        plan = Plan(steps=(Step(id="run_it", kind="install_pytorch", title="t", why="t", commands=(("true",),)),))
        with pytest.raises(SessionBusy, match=f"pid {holder.pid}"):
            Executor(plan, Session(s.dir)).run()
    finally:
        holder.kill()
        holder.wait()
    assert Executor(plan, Session(s.dir)).run().status == "ok"  # the lock died with its process


def test_resume_reruns_a_step_whose_command_never_ran_after_its_edits(tmp_path):
    """The edits of a step landed, then the run was killed before its command: is_done holds, yet the
    step is not done: the resume runs it again (edits and command are one unit)."""
    root = tmp_path / "root"
    (root / "etc").mkdir(parents=True)
    ran = tmp_path / "ldconfig-ran"
    code = "import sys, os, time; open(sys.argv[1], 'a').write('x'); time.sleep(float(sys.argv[2]))"
    step = Step(id="write_env_file", kind="install_pytorch", title="t", why="t",
                edits=(Edit(path="/etc/env.sh", content="export A=1\n", needs_root=False),), backups=("/etc/env.sh",),
                commands=((sys.executable, "-c", code, str(ran), "30"),),
                done_when=(Check("file_contains", ("/etc/env.sh", "export A=1")),))
    s = Session.create(tmp_path / "s")
    Session(s.dir).write_json("plan.json", Plan(steps=(step,)).to_json())
    child = subprocess.Popen([sys.executable, "-c", (
        "import sys; sys.path.insert(0, %r)\n"
        "from app.plan import Plan\nfrom app.run import Executor, Session\nimport json\n"
        "s = Session(%r); plan = Plan.from_json(json.load(open(s.dir / 'plan.json')))\n"
        "Executor(plan, s, edit_root=%r).run()\n") % (str(ROOT), str(s.dir), str(root))])
    deadline = time.monotonic() + 30
    while not ran.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    child.kill()  # kill -9 while the command runs: the edit is there, the command did not finish
    child.wait()
    assert (root / "etc/env.sh").read_text() == "export A=1\n"
    state = json.loads((s.dir / "state.json").read_text())
    assert state["steps"]["write_env_file"]["phase"] == "commands" and state["steps"]["write_env_file"]["status"] == "running"
    fast = step.replace(commands=((sys.executable, "-c", code, str(ran), "0"),))
    events = []
    r = Executor(Plan(steps=(fast,)), Session(s.dir), edit_root=str(root), listener=events.append).run()
    assert r.status == "ok"
    assert [(e.step_id, e.status) for e in events if e.type == "step_finished"] == [("write_env_file", "ok")]
    assert ran.read_text() == "xx"  # the command ran again, to its end
    st = json.loads((s.dir / "state.json").read_text())["steps"]["write_env_file"]
    assert st["status"] == "ok" and st["phase"] == "finished" and st["attempts"] == 2 and st["commands_done"] == 1
