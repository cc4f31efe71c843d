"""The runner and executor for real: a download from a local HTTP server broken off and resumed, a
checksum mismatch refused before anything runs, a failure in the middle of a plan (later steps not
run, state saved, resume), cancel (the whole process group gone), and environment edits written
into a temporary root and restored from their backups."""
from __future__ import annotations

import hashlib
import http.server
import json
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from app.choices import Choices
from app.facts import CudaInfo, CudaToolkit, EnvInfo, EnvLine, Facts, LdConfEntry, OsInfo
from app.plan import Check, Download, Plan, Step, build_plan
from app.plan.env import PROFILE_CONTENT
from app.recommendation import Recommendation, ToolkitChoice
from app.run import Executor, Session, undo_edits
from app.run.downloads import DownloadError, download

pytestmark = pytest.mark.integration

PAYLOAD = os.urandom(3 * 1024 * 1024 + 17)


class _Handler(http.server.BaseHTTPRequestHandler):
    """Serves PAYLOAD with Range support; the first full request is cut off half-way."""

    cut_first = True
    requests: list = []

    def log_message(self, *a):  # quiet
        pass

    def do_GET(self):
        type(self).requests.append(self.headers.get("Range"))
        if self.path.endswith("/SHA256SUMS"):
            body = f"{hashlib.sha256(PAYLOAD).hexdigest()}  cuda_test.run\n".encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        rng = self.headers.get("Range")
        start = int(re.match(r"bytes=(\d+)-", rng).group(1)) if rng else 0
        body = PAYLOAD[start:]
        self.send_response(206 if rng else 200)
        if rng:
            self.send_header("Content-Range", f"bytes {start}-{len(PAYLOAD) - 1}/{len(PAYLOAD)}")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if type(self).cut_first and not rng:
            type(self).cut_first = False
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            self.connection.shutdown(2)  # the connection breaks mid-file
            return
        self.wfile.write(body)


@pytest.fixture
def server():
    _Handler.cut_first = True
    _Handler.requests = []
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    t = threading.Thread(target=httpd.serve_forever, daemon=True)
    t.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def test_download_broken_off_then_resumed(server, tmp_path):
    url = f"{server}/files/cuda_test.run"
    dest = tmp_path / "dl" / "cuda_test.run"
    want = hashlib.sha256(PAYLOAD).hexdigest()
    with pytest.raises(DownloadError) as e:
        download(url, dest, sha256=want)
    assert "broke off" in str(e.value) or "incomplete" in str(e.value)
    part = dest.with_name("cuda_test.run.part")
    assert not dest.exists() and 0 < part.stat().st_size < len(PAYLOAD)
    got_before = part.stat().st_size
    progress = []
    r = download(url, dest, sha256=want, on_progress=progress.append)
    assert r.resumed_from == got_before and r.size_bytes == len(PAYLOAD)
    assert _Handler.requests[-1] == f"bytes={got_before}-"
    assert dest.read_bytes() == PAYLOAD and not part.exists()
    assert progress[-1].fraction == 1.0 and "verified" in progress[-1].message
    # the published checksum can come from a sums file instead
    dest.unlink()
    r2 = download(url, dest, checksum_url=f"{server}/files/SHA256SUMS")
    assert r2.sha256 == want and r2.verified_by == "sha256 (SHA256SUMS)"


def test_checksum_mismatch_refused_before_anything_runs(server, tmp_path):
    marker = tmp_path / "ran"
    step = Step(id="run_installer", kind="run_runfile", title="Run the installer", why="test",
                downloads=(Download(name="cuda_test.run", url=f"{server}/files/cuda_test.run", sha256="0" * 64),),
                commands=(("touch", str(marker)),))
    _Handler.cut_first = False
    events = []
    session = Session.create(tmp_path / "sessions")
    res = Executor(Plan(steps=(step,)), session, listener=events.append).run()
    assert res.status == "error" and res.failed_step == "run_installer"
    assert "checksum mismatch" in res.message
    assert not marker.exists()
    assert not list((session.dir / "downloads").glob("cuda_test.run*"))  # the corrupt file is gone
    log = (session.dir / "commands.log").read_text()
    assert "rc=1" in log and "checksum mismatch" in log
    # no checksum at all: refused as well
    step2 = step.replace(downloads=(Download(name="cuda_test.run", url=f"{server}/files/cuda_test.run"),))
    res2 = Executor(Plan(steps=(step2,)), Session.create(tmp_path / "sessions")).run()
    assert res2.status == "error" and "no published checksum" in res2.message and not marker.exists()


def _step(sid: str, argv, done: Path | None = None) -> Step:
    return Step(id=sid, kind="install_pytorch", title=sid.replace("_", " "), why="test", commands=(tuple(argv),),
                done_when=(Check("path_exists", (str(done),)),) if done else ())


def test_failure_mid_plan_saves_state_and_resumes(tmp_path):
    a, c, flag = tmp_path / "a", tmp_path / "c", tmp_path / "flag"
    plan = Plan(steps=(
        _step("create_a", ["touch", str(a)], a),
        _step("check_flag", [sys.executable, "-c", "import os, sys; print('checking'); sys.exit(0 if os.path.exists(sys.argv[1]) else 3)", str(flag)]),
        _step("create_c", ["touch", str(c)], c),
    ))
    session = Session.create(tmp_path / "sessions")
    events = []
    res = Executor(plan, session, listener=events.append).run()
    assert res.status == "error" and res.failed_step == "check_flag"
    assert "exit code 3" in res.message
    assert a.exists() and not c.exists()  # the later step never ran
    fin = [e for e in events if e.type == "step_finished"]
    assert [(e.step_id, e.status) for e in fin] == [("create_a", "ok"), ("check_flag", "error")]
    assert "checking" in fin[-1].details
    state = json.loads((session.dir / "state.json").read_text())
    assert state["status"] == "error" and state["failed_step"] == "check_flag"
    assert state["steps"]["create_a"]["status"] == "ok" and state["steps"]["check_flag"]["status"] == "error"

    from app.run.session import latest_unfinished

    resumed = latest_unfinished(tmp_path / "sessions")
    assert resumed is not None and resumed.dir == session.dir
    flag.touch()
    a.unlink()  # proof the finished step is not run again: its state says ok
    events2 = []
    res2 = Executor(Plan.from_json(resumed.read_json("plan.json")), resumed, listener=events2.append).run()
    assert res2.status == "ok"
    assert [(e.step_id, e.status) for e in events2 if e.type == "step_finished"] == [
        ("create_a", "skipped"), ("check_flag", "ok"), ("create_c", "ok")]
    assert not a.exists() and c.exists()
    assert latest_unfinished(tmp_path / "sessions") is None


def _alive_in_group(pgid: int) -> list[int]:
    alive = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            stat = Path(f"/proc/{d}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[2]) == pgid and fields[0] != "Z":
            alive.append(int(d))
    return alive


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="needs /proc to see the process group")
def test_cancel_kills_the_whole_process_group(tmp_path):
    script = ("import os, subprocess, sys, time\n"
              "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(300)'])\n"
              "print('pids', os.getpid(), child.pid, os.getpgid(0), flush=True)\n"
              "time.sleep(300)\n")
    plan = Plan(steps=(_step("run_long", [sys.executable, "-c", script]), _step("after_cancel", ["true"])))
    seen = {}
    got = threading.Event()

    def listener(ev):
        if ev.type == "line" and ev.text.startswith("pids "):
            _, parent, child, pgid = ev.text.split()
            seen.update(parent=int(parent), child=int(child), pgid=int(pgid))
            got.set()

    session = Session.create(tmp_path / "sessions")
    ex = Executor(plan, session, listener=listener)
    result = {}
    t = threading.Thread(target=lambda: result.setdefault("r", ex.run()))
    t.start()
    assert got.wait(30)
    assert set(_alive_in_group(seen["pgid"])) >= {seen["parent"], seen["child"]}
    t0 = time.monotonic()
    ex.cancel()
    t.join(30)
    assert not t.is_alive() and time.monotonic() - t0 < 10
    assert result["r"].status == "cancelled" and result["r"].failed_step == "run_long"
    assert _alive_in_group(seen["pgid"]) == []
    state = json.loads((session.dir / "state.json").read_text())
    assert state["steps"]["run_long"]["status"] == "cancelled" and "after_cancel" not in state["steps"]
    assert "cancelled" in (session.dir / "commands.log").read_text()


def test_environment_edits_in_a_temporary_root_and_restored(tmp_path):
    root = tmp_path / "root"
    (root / "etc/profile.d").mkdir(parents=True)
    (root / "etc/ld.so.conf.d").mkdir(parents=True)
    (root / "home/u").mkdir(parents=True)
    old_profile = "# an older CUDA setup\nexport CUDA_HOME=/usr/local/cuda-11.8\n"
    (root / "etc/profile.d/cuda.sh").write_text(old_profile)
    stale_conf = "/usr/local/cuda-11.8/lib64\n"
    (root / "etc/ld.so.conf.d/cuda-11-8.conf").write_text(stale_conf)
    bashrc = "alias ll='ls -l'\nexport PATH=/usr/local/cuda-11.8/bin:$PATH\nexport EDITOR=vi\n"
    (root / "home/u/.bashrc").write_text(bashrc)
    facts = Facts(
        os=OsInfo(platform="linux", id="ubuntu", version_id="22.04", package_manager="apt"),
        cuda=CudaInfo(toolkits=(CudaToolkit(path="/usr/local/cuda-11.8", version="11.8"),)),
        env=EnvInfo(rc_lines=(EnvLine("/home/u/.bashrc", 2, "export PATH=/usr/local/cuda-11.8/bin:$PATH"),),
                    ld_conf=(LdConfEntry("/etc/ld.so.conf.d/cuda-11-8.conf", "/usr/local/cuda-11.8/lib64", "other_cuda"),)))
    rec = Recommendation(cuda_toolkit=ToolkitChoice(wanted=True, version="12.8"))
    plan = build_plan(facts, rec, Choices(want_toolkit=True))
    keep = ("remove_stale_cuda_env", "write_cuda_env")
    # only the file edits (ldconfig and the package steps would act on the real machine)
    steps = tuple(s.replace(commands=()) for s in plan.steps if s.id in keep)
    assert [s.id for s in steps] == list(keep)
    session = Session.create(tmp_path / "sessions")
    res = Executor(Plan(steps=steps), session, edit_root=str(root)).run()
    assert res.status == "ok", res.message

    profile = (root / "etc/profile.d/cuda.sh").read_text()
    assert profile == PROFILE_CONTENT
    assert (root / "etc/ld.so.conf.d/000-gpu-wizard-cuda.conf").read_text().splitlines()[-1] == "/usr/local/cuda/lib64"
    assert not (root / "etc/ld.so.conf.d/cuda-11-8.conf").exists()
    assert (root / "home/u/.bashrc").read_text() == "alias ll='ls -l'\nexport EDITOR=vi\n"
    # the profile script really works in bash, and twice does not add PATH twice
    out = subprocess.run(["bash", "-c", f". {root}/etc/profile.d/cuda.sh; . {root}/etc/profile.d/cuda.sh; "
                          "echo $CUDA_HOME; echo $PATH"], capture_output=True, text=True, env={"PATH": "/usr/bin:/bin"})
    home, path = out.stdout.split()
    assert home == "/usr/local/cuda" and path == "/usr/local/cuda/bin:/usr/bin:/bin"
    # every edited file has its backup in the session, and undo restores them all
    manifest = json.loads((session.dir / "backups/backups.json").read_text())
    assert {m["path"] for m in manifest} == {"/etc/profile.d/cuda.sh", "/etc/ld.so.conf.d/000-gpu-wizard-cuda.conf",
                                            "/etc/ld.so.conf.d/cuda-11-8.conf", "/home/u/.bashrc"}
    restored = undo_edits(session, None, edit_root=str(root))
    assert len(restored) == 4
    assert (root / "etc/profile.d/cuda.sh").read_text() == old_profile
    assert (root / "etc/ld.so.conf.d/cuda-11-8.conf").read_text() == stale_conf
    assert (root / "home/u/.bashrc").read_text() == bashrc
    assert not (root / "etc/ld.so.conf.d/000-gpu-wizard-cuda.conf").exists()
