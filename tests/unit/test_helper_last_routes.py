"""The privileged helper's last routes, each attacked as the audit did, as real root (destructive ones in a
private mount namespace: tmpfs over /etc/profile.d and /srv) with a real unprivileged user (a bare uid):

- an edit through a root-owned link is checked where it lands, not by its name (and undo then restores
  what it changed);
- a request file in a folder other users can write is refused before anything runs;
- `-o Acquire::https::CaInfo=` and the CA variables take only a readable certificate file (no device,
  FIFO, folder or root-only file), and apt reads root's own copy of it;
- a `files{}` entry that no argument uses is never read, and one that is no regular file is refused."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from app.run import privileged
from app.run.privileged import PolicyError, RootExecutor, run_request_file
from app.run.runner import CancelToken, CommandOutcome

ROOT = Path(__file__).resolve().parents[2]
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
USER = 54321  # an unprivileged user without a passwd entry
needs_root = pytest.mark.skipif(not IS_ROOT, reason="the helper's routes are root's: these attacks need real root")
CERT = "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ2FGaWxlRm9yVGhlVGVzdA\n-----END CERTIFICATE-----\n"


def _outside() -> str:
    """A root folder outside the allow-list that an empty tmpfs may cover: not the checkout's, nor its Python's."""
    here = [ROOT.resolve(), Path(sys.executable).resolve()]
    for d in ("/srv", "/mnt", "/media"):
        if os.path.isdir(d) and not any(p == Path(d) or Path(d) in p.parents for p in here):
            return d
    return ""


OUTSIDE = _outside()


def _in_namespace(code: str, tmp: Path) -> subprocess.CompletedProcess:
    """Run `code` as root in a private mount namespace with empty tmpfs over /etc/profile.d and OUTSIDE
    (/srv, or /mnt when the checkout lies under /srv)."""
    if not (IS_ROOT and shutil.which("unshare") and os.path.isdir("/etc/profile.d") and OUTSIDE):
        pytest.skip("needs root, unshare, /etc/profile.d and /srv or /mnt for a private mount namespace")
    script = tmp / "child.py"
    script.write_text(f"import sys\nsys.path.insert(0, {str(ROOT)!r})\n" + textwrap.dedent(code).replace("/srv/", OUTSIDE + "/"))
    inner = f"mount -t tmpfs tmpfs /etc/profile.d && mount -t tmpfs tmpfs {OUTSIDE} && exec \"$@\""
    return subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c", inner, "sh", sys.executable,
                           str(script), str(tmp)], capture_output=True, text=True, timeout=60)


@needs_root
def test_an_edit_through_a_root_owned_link_is_checked_where_it_lands(tmp_path):
    r = _in_namespace("""
        import json, os
        from app.plan.model import Edit
        from app.run.privileged import PolicyError, RootExecutor
        ex = RootExecutor(os.path.join(sys.argv[1], "backups"))
        open("/srv/victim.sh", "w").write("keep\\n")
        os.symlink("/srv/victim.sh", "/etc/profile.d/cuda.sh")  # root's own link, to outside the allow-list
        out = {}
        try:
            ex.edit("write_env", Edit(path="/etc/profile.d/cuda.sh", content="export CUDA_HOME=/usr/local/cuda\\n"), "s1")
            out["through"] = "written"
        except PolicyError as e:
            out["through"] = str(e)
        out["victim"] = open("/srv/victim.sh").read()
        # a link whose target the kind may edit too: the edit lands there, and undo puts it back
        open("/etc/profile.d/cuda-12.sh", "w").write("export PATH=/usr/local/cuda-12.8/bin:$PATH\\nalias x=y\\n")
        os.symlink("cuda-12.sh", "/etc/profile.d/old-cuda.sh")
        ex.edit("cleanup_cuda", Edit(path="/etc/profile.d/old-cuda.sh", mode="remove_lines",
                                     lines=("export PATH=/usr/local/cuda-12.8/bin:$PATH",)), "s2")
        out["cleaned"] = open("/etc/profile.d/cuda-12.sh").read()
        rep = ex.restore_report("s2")
        out["restored"], out["problems"] = open("/etc/profile.d/cuda-12.sh").read(), rep.problems
        out["still_link"] = os.path.islink("/etc/profile.d/old-cuda.sh")
        print(json.dumps(out))
    """, tmp_path)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert out["victim"] == "keep\n"
    assert f"{OUTSIDE}/victim.sh" in out["through"] and "may not edit" in out["through"]
    assert out["cleaned"] == "alias x=y\n"
    assert out["restored"] == "export PATH=/usr/local/cuda-12.8/bin:$PATH\nalias x=y\n" and out["problems"] == []
    assert out["still_link"]


class Recorder(RootExecutor):
    def __init__(self):
        super().__init__("/nonexistent/backups")
        self.calls: list = []

    def run(self, kind, argv, env, timeout_s, files, on_line, on_progress, cancel):
        self.calls.append((kind, argv))
        return CommandOutcome(argv=list(argv), rc=0, duration_s=0.0)


def _as_user(*argv: str) -> None:
    subprocess.run(list(argv), user=USER, group=USER, extra_groups=[], check=True, capture_output=True)


@pytest.fixture()
def reachable(tmp_path):
    """tmp_path and its parents walkable by the unprivileged user (pytest makes them 0700)."""
    tmp_path.chmod(0o755)
    for p in list(tmp_path.parents)[:3]:
        if p.stat().st_uid == 0 and str(p).startswith("/tmp/"):
            os.chmod(p, p.stat().st_mode | 0o711)
    return tmp_path


REQUEST = {"op": "run", "kind": "update_index", "argv": ["apt-get", "update"]}


@needs_root
@pytest.mark.parametrize("folder_mode", [0o1777, 0o777, 0o775])
def test_a_request_file_in_a_folder_others_can_write_is_refused(reachable, folder_mode):
    shared = reachable / "shared"
    shared.mkdir()
    os.chown(shared, 0, USER)  # root's folder, the other user's group (what 0775 lets in)
    shared.chmod(folder_mode)
    req = shared / "req.json"
    _as_user("sh", "-c", f"printf '%s' '{json.dumps(REQUEST)}' > {req}")  # planted by another user
    ex = Recorder()
    assert run_request_file(str(req), str(shared / "res.json"), ex) == 0
    res = json.loads((shared / "res.json").read_text())
    assert res["event"] == "refused" and "other users" in res["message"] and ex.calls == []


@needs_root
def test_a_request_file_that_is_a_link_or_another_users_file_is_refused(reachable):
    mine = reachable / "mine"
    mine.mkdir(mode=0o700)
    os.symlink("/etc/hostname", mine / "req.json")
    ex = Recorder()
    assert run_request_file(str(mine / "req.json"), str(mine / "res.json"), ex) == 0
    assert json.loads((mine / "res.json").read_text())["event"] == "refused" and ex.calls == []
    (mine / "req.json").unlink()
    (mine / "res.json").unlink()
    (mine / "res.json.lines").unlink()
    (mine / "req.json").write_text(json.dumps(REQUEST))
    os.chown(mine / "req.json", USER, USER)  # root's folder, someone else's file in it
    assert run_request_file(str(mine / "req.json"), str(mine / "res.json"), ex) == 0
    assert json.loads((mine / "res.json").read_text())["event"] == "refused" and ex.calls == []


@needs_root
def test_a_request_in_a_folder_only_its_owner_can_write_runs(reachable):
    own = reachable / "own"
    own.mkdir(mode=0o700)
    os.chown(own, USER, USER)
    _as_user("sh", "-c", f"printf '%s' '{json.dumps(REQUEST)}' > {own}/req.json")
    ex = Recorder()
    assert run_request_file(str(own / "req.json"), str(own / "res.json"), ex) == 0
    assert json.loads((own / "res.json").read_text())["event"] == "done" and ex.calls == [("update_index", ["apt-get", "update"])]


def _ran(monkeypatch) -> list:
    calls: list = []

    def fake(argv, **kw):
        calls.append((list(argv), dict(kw.get("env") or {})))
        return CommandOutcome(argv=list(argv), rc=0, duration_s=0.0)
    monkeypatch.setattr(privileged, "run_command", fake)
    return calls


def _run(ex: RootExecutor, argv: list, env: dict, files: dict):
    return ex.run("update_index", argv, env, 60, files, lambda _l: None, lambda _p: None, CancelToken())


@needs_root
def test_the_ca_bundle_is_a_readable_certificate_file_and_apt_reads_roots_copy(tmp_path, monkeypatch):
    calls = _ran(monkeypatch)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    secret = tmp_path / "root-only.pem"
    secret.write_text(CERT)
    secret.chmod(0o600)
    notcert = tmp_path / "notes.txt"
    notcert.write_text("root:x:0:0\n")
    notcert.chmod(0o644)
    ex = RootExecutor(str(tmp_path / "b"))
    for bad in ("/dev/zero", "/dev/null", str(fifo), str(secret), str(tmp_path), str(notcert), "/etc/shadow"):
        for argv, env in ((["apt-get", "-o", f"Acquire::https::CaInfo={bad}", "update"], {}),
                          (["apt-get", "update"], {"SSL_CERT_FILE": bad})):
            with pytest.raises(PolicyError):
                _run(ex, argv, env, {})
    assert calls == []
    good = tmp_path / "corp-ca.pem"
    good.write_text(CERT)
    good.chmod(0o644)
    _run(ex, ["apt-get", "-o", f"Acquire::https::CaInfo={good}", "update"], {"SSL_CERT_FILE": str(good)}, {})
    (argv, env), = calls
    copy = argv[2].split("=", 1)[1]
    assert copy != str(good) and env["SSL_CERT_FILE"] != str(good)
    assert argv[:2] == ["apt-get", "-o"] and argv[3] == "update"
    assert not copy.startswith(str(tmp_path))  # root's own folder, not one the user can swap it in


def _run_in_child(code: str, timeout: float = 20) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", f"import sys; sys.path.insert(0, {str(ROOT)!r})\n" + textwrap.dedent(code)],
                          capture_output=True, text=True, timeout=timeout)


@needs_root
def test_files_no_argument_uses_are_never_read_and_only_regular_files_are(tmp_path):
    """A FIFO as a download: the old helper copied every entry and hung on it (a timeout here)."""
    fifo = tmp_path / "x.deb"
    os.mkfifo(fifo)
    r = _run_in_child(f"""
        from app.run.privileged import PolicyError, RootExecutor
        from app.run.runner import CancelToken
        ex = RootExecutor({str(tmp_path / 'b')!r})
        files = {{"@download:x.deb": {{"path": {str(fifo)!r}, "sha256": "0" * 64}}}}
        for argv in (["apt-get", "update"], ["dpkg", "-i", "@download:x.deb"]):
            try:
                ex.run("add_repo" if "dpkg" in argv else "update_index", argv, {{}}, 60, files,
                       lambda l: None, lambda p: None, CancelToken())
                print("ran")
            except PolicyError as e:
                print("refused:", e)
    """)
    lines = r.stdout.strip().splitlines()
    assert len(lines) == 2 and all(ln.startswith("refused:") for ln in lines), (r.stdout, r.stderr)
    assert "no argument uses" in lines[0] and "not a regular file" in lines[1]
