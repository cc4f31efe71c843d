"""Root's own copy of the engine on a fleet host (issue 23 class 2), attacked by a real unprivileged user
(uid 54321, no passwd entry): the script the playbook runs as root (app.fleet.plan.ROOT_COPY_SCRIPT)
creates a new file itself (O_CREAT|O_EXCL) in a root-owned folder and checks it afterwards, so

- a descriptor the user opened on its staged copy before root copied it never reaches root's file;
- a staged copy that is a link, a FIFO or not the controller's bytes is refused;
- a root folder another user could write is refused.
Runs as root on this machine, in the test's own folder only."""
from __future__ import annotations

import hashlib
import os
import subprocess
import sys

import pytest

from app.fleet.plan import ROOT_COPY_SCRIPT

pytestmark = pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root: root's copy, a user attacking it")
UID = 54321
ENGINE = b"#!/usr/bin/env python3\nPK the controller's engine\n" * 200
WANT = hashlib.sha256(ENGINE).hexdigest()


def _as_user(code: str, *args: str) -> subprocess.Popen:
    py = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable  # one the user can run
    return subprocess.Popen([py, "-I", "-c", code, *args], user=UID, group=UID, extra_groups=[],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _root_copy(src, folder, want=WANT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-I", "-c", ROOT_COPY_SCRIPT, str(src), str(folder), want],
                          capture_output=True, text=True, timeout=60)


@pytest.fixture
def host():
    import shutil
    import tempfile
    from pathlib import Path

    tmp_path = Path(tempfile.mkdtemp(prefix="gw-rootcopy-"))  # under /tmp: a folder the user can reach
    os.chmod(tmp_path, 0o755)
    user = tmp_path / "home"  # the connecting user's folder (~/.cache/gpu-wizard/fleet)
    user.mkdir()
    os.chown(user, UID, UID)
    staged = user / "gpu-wizard.pyz"
    staged.write_bytes(ENGINE)
    os.chown(staged, UID, UID)
    root = tmp_path / "var-lib" / "fleet"
    root.mkdir(parents=True)
    yield staged, root
    shutil.rmtree(tmp_path, ignore_errors=True)


def test_a_descriptor_the_user_held_never_reaches_roots_copy(host):
    staged, root = host
    # the user opens its staged copy for writing and keeps the descriptor, as the audit did
    p = _as_user("import os, sys\nfd = os.open(sys.argv[1], os.O_WRONLY)\nprint('open', flush=True)\nsys.stdin.readline()\n"
                 "os.lseek(fd, 0, 0)\nos.write(fd, b'import os; os.system(\"id > /tmp/owned\")\\n')\nprint('wrote', flush=True)\n",
                 str(staged))
    assert p.stdout.readline().strip() == "open"
    r = _root_copy(staged, root)
    assert r.returncode == 0 and r.stdout.strip() == "changed", r.stderr
    p.stdin.write("go\n")
    p.stdin.flush()
    assert p.stdout.readline().strip() == "wrote"
    p.wait(timeout=30)
    final = root / "gpu-wizard.pyz"
    st = os.stat(final)
    assert final.read_bytes() == ENGINE  # root's file is its own inode: the write went to the user's file only
    assert staged.read_bytes() != ENGINE
    assert (st.st_uid, st.st_nlink, st.st_mode & 0o777) == (0, 1, 0o644) and st.st_ino != os.stat(staged).st_ino
    assert _root_copy(staged, root).stdout.strip() == "unchanged"  # a second run: the checked copy stays


def test_staged_copy_that_is_not_the_engine_is_refused(host):
    staged, root = host
    assert _root_copy(staged, root, want="0" * 64).returncode != 0 and not (root / "gpu-wizard.pyz").exists()
    staged.unlink()
    os.symlink("/etc/shadow", staged)  # a link to a file only root may read
    r = _root_copy(staged, root)
    assert r.returncode != 0 and not (root / "gpu-wizard.pyz").exists()
    staged.unlink()
    os.mkfifo(staged)
    r = subprocess.run([sys.executable, "-I", "-c", ROOT_COPY_SCRIPT, str(staged), str(root), WANT], capture_output=True, text=True, timeout=20)
    assert r.returncode != 0 and not (root / "gpu-wizard.pyz").exists()  # a FIFO neither hangs nor passes


def test_a_root_folder_others_can_write_is_refused(host):
    staged, root = host
    os.chmod(root, 0o777)
    assert _root_copy(staged, root).returncode != 0
    os.chmod(root, 0o755)
    os.chmod(root.parent, 0o777)  # a parent the user could rename the folder out of
    r = _root_copy(staged, root)
    assert r.returncode != 0 and "not root's own folder" in r.stderr
    os.chmod(root.parent, 0o755)
    os.chown(root, UID, UID)
    assert _root_copy(staged, root).returncode != 0
    assert not (root / "gpu-wizard.pyz").exists()
