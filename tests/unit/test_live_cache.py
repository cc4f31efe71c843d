"""The live-index cache against a real unprivileged user (a process running as uid 54321, no passwd entry)
who plants entries, links and folders: another user's entry never decides this user's plan, a link is
never written through, a future `fetched` time is stale, root never uses a folder a user owns."""
from __future__ import annotations

import base64
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from app.compat import cache as cache_mod
from app.compat import live
from tests.unit.live_server import Server, simple_page, wheels

ATTACKER = 54321
VICTIM = 54322
ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="acting as other users needs root")


def as_user(uid: int, code: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code, *args], user=uid, group=uid, extra_groups=[], capture_output=True, text=True,
                          timeout=60, cwd="/", env={"PATH": "/usr/bin:/bin", "HOME": "/nonexistent", "PYTHONPATH": str(ROOT)})


@pytest.fixture(autouse=True, scope="module")
def _other_users_reach_the_checkout():
    """These tests run the checkout's Python as other users: a checkout in a folder only root may enter
    (say /root, 0700) cannot be run by them, which is said here rather than failing every test."""
    try:
        r = as_user(ATTACKER, "import app.compat.cache")
    except PermissionError as e:
        pytest.skip(f"other users cannot run this checkout's Python ({e.filename}): run the tests from a folder they can read")
    if r.returncode != 0 and ("Permission denied" in r.stderr or "No module named" in r.stderr):
        pytest.skip(f"other users cannot read this checkout ({ROOT}): run the tests from a folder they can read")


@pytest.fixture()
def shared():
    d = Path(tempfile.mkdtemp(prefix="gpu-wizard-shared-", dir="/tmp"))
    os.chmod(d, 0o1777)  # a shared, sticky folder (like /tmp itself)
    yield d
    subprocess.run(["rm", "-rf", str(d)], check=False)


@pytest.fixture()
def server():
    s = Server()
    s.pages["/whl/cu130/torch/"] = simple_page("torch", "cu130", wheels("torch", ["2.14.1"], "cu130", ["cp312"]))
    yield s
    s.close()


def key(url: str, kind: str = "json") -> str:
    return hashlib.sha256(url.encode()).hexdigest() + "." + kind


PLANT = """
import base64, json, os, sys
folder, name, url, body = sys.argv[1:5]
p = os.path.join(folder, name)
with open(p, "w") as fh:
    json.dump({"url": url, "fetched": 4102444800.0, "body": base64.b64encode(body.encode()).decode()}, fh)
os.chmod(p, 0o644)
"""
EVIL = simple_page("torch", "cu130", ["torch-6.6.6+cu130-cp312-cp312-manylinux_2_28_x86_64.whl"]).decode()


def test_another_users_entry_in_a_shared_folder_is_never_read(shared, server):
    url = server.url + "/whl/cu130/torch/"
    r = as_user(ATTACKER, PLANT, str(shared), key(url), url, EVIL)
    assert r.returncode == 0, r.stderr
    assert (shared / key(url)).stat().st_uid == ATTACKER
    f = live.Fetcher(cache=shared, timeout=2.0)
    got = f.get(url)
    assert f.requests == 1 and got.source == "network" and b"6.6.6" not in got.body and b"2.14.1" in got.body
    # root may replace it (CAP_FOWNER) with its own entry; what is read next is never the attacker's
    f2 = live.Fetcher(cache=shared, timeout=2.0)
    again = f2.get(url)
    assert b"6.6.6" not in again.body and (again.source == "network" or (shared / key(url)).stat().st_uid == 0)


def test_a_non_root_victim_in_the_same_shared_folder_gets_the_index_answer(shared, server):
    url = server.url + "/whl/cu130/torch/"
    assert as_user(ATTACKER, PLANT, str(shared), key(url), url, EVIL).returncode == 0
    victim = ("import sys; from app.compat import live\n"
              "f = live.Fetcher(cache=__import__('pathlib').Path(sys.argv[1]), timeout=2.0)\n"
              "w = live.parse_simple(f.get(sys.argv[2]).body)\n"
              "print(sorted({x.version for x in w}), f.requests)")
    r = as_user(VICTIM, victim, str(shared), url)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "['2.14.1'] 1"


def test_a_planted_link_is_never_written_through(shared, server, tmp_path):
    url = server.url + "/whl/cu130/torch/"
    target = Path(tempfile.mkdtemp(dir="/tmp")) / "victim.conf"
    target.write_text("precious\n")
    os.chmod(target.parent, 0o755)
    code = "import os, sys; os.symlink(sys.argv[1], os.path.join(sys.argv[2], sys.argv[3]))"
    for name in (key(url), key(url, "fail")):
        assert as_user(ATTACKER, code, str(target), str(shared), name).returncode == 0
    f = live.Fetcher(cache=shared, timeout=2.0)
    assert f.get(url).source == "network"
    server.down = True
    f.get(server.url + "/whl/cu126/torch/")  # a failure marker write, too
    assert target.read_text() == "precious\n"
    # the link was replaced by an entry of root's own (renamed over it), or left unused: never followed
    assert os.path.islink(shared / key(url)) or os.lstat(shared / key(url)).st_uid == 0


def test_a_folder_another_user_owns_is_not_used_at_all(server):
    d = Path(tempfile.mkdtemp(prefix="gpu-wizard-theirs-", dir="/tmp"))
    os.chmod(d, 0o777)
    os.chown(d, ATTACKER, ATTACKER)
    try:
        c = cache_mod.IndexCache(d)
        assert not c.usable() and "someone else" in (c.problem or "")
        f = live.Fetcher(cache=d, timeout=2.0)
        f.get(server.url + "/whl/cu130/torch/")
        f.get(server.url + "/whl/cu130/torch/")
        assert f.requests == 2 and os.listdir(d) == []
    finally:
        subprocess.run(["rm", "-rf", str(d)], check=False)


def test_root_never_uses_a_folder_under_a_users_home(tmp_path, monkeypatch):
    monkeypatch.delenv("GPU_WIZARD_CACHE_DIR", raising=False)
    assert cache_mod.default_dir({"HOME": "/home/alice", "XDG_CACHE_HOME": "/home/alice/.cache"}) == Path(cache_mod.ROOT_CACHE)
    # a folder root owns inside a folder a user can write is refused (the user could swap it)
    home = Path(tempfile.mkdtemp(prefix="gpu-wizard-home-", dir="/tmp"))
    os.chown(home, ATTACKER, ATTACKER)
    try:
        (home / "cache").mkdir()
        c = cache_mod.IndexCache(home / "cache")
        assert not c.usable() and "root's alone" in (c.problem or "")
    finally:
        subprocess.run(["rm", "-rf", str(home)], check=False)


def test_own_entries_future_times_and_loose_modes(tmp_path, server):
    url = server.url + "/whl/cu130/torch/"
    d = tmp_path / "c"
    f = live.Fetcher(cache=d, timeout=2.0)
    assert f.get(url).source == "network" and f.get(url).source == "cache" and f.requests == 1
    st = os.stat(d / key(url))
    assert st.st_mode & 0o777 == 0o600 and not [n for n in os.listdir(d) if n.endswith(".tmp")]
    # a fetched time in the future: stale, asked again
    doc = json.loads((d / key(url)).read_text())
    doc["fetched"] = time.time() + 86400 * 365
    (d / key(url)).write_text(json.dumps(doc))
    f2 = live.Fetcher(cache=d, timeout=2.0)
    assert f2.get(url).source == "network" and f2.requests == 1
    # an entry others can write is not believed
    os.chmod(d / key(url), 0o666)
    f3 = live.Fetcher(cache=d, timeout=2.0)
    assert f3.get(url).source == "network" and f3.requests == 1
    # a FIFO in place of an entry never blocks the read
    os.unlink(d / key(url))
    os.mkfifo(d / key(url))
    f4 = live.Fetcher(cache=d, timeout=2.0)
    assert f4.get(url).source == "network"
    # corrupt and non-JSON entries are misses
    os.unlink(d / key(url))
    (d / key(url)).write_bytes(b"\xff\xfe[[[")
    os.chmod(d / key(url), 0o600)
    assert live.Fetcher(cache=d, timeout=2.0).get(url).source == "network"
    assert base64  # the entry format is base64 of the body (read back above)
