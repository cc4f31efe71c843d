"""Faults: a full disk (a real small tmpfs, when root may mount one), a trickling or oversized
download from a local HTTP server, a listener that fails: one clear message and a clean stop,
never a hang or a traceback."""
from __future__ import annotations

import contextlib
import hashlib
import http.server
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from app.plan import Plan, Step
from app.plan.model import Download
from app.run import Executor, Session
from app.run.downloads import DownloadError, download
from app.run.runner import CancelToken, run_command

ROOT = Path(__file__).resolve().parents[2]


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    mode = "trickle"
    body = b"x" * 4096

    def do_GET(self):  # noqa: N802
        try:
            if self.mode == "trickle":  # one byte every 0.2 s: a download that never ends in practice
                self.send_response(200)
                self.send_header("Content-Length", str(10 ** 6))
                self.end_headers()
                for _ in range(300):
                    self.wfile.write(b"x")
                    self.wfile.flush()
                    time.sleep(0.2)
            elif self.mode == "big_declared":
                self.send_response(200)
                self.send_header("Content-Length", str(8 << 30))  # 8 GiB
                self.end_headers()
                self.wfile.write(b"x" * 65536)
            elif self.mode == "chunked_flood":  # no length: more and more bytes
                self.send_response(200)
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                block = b"y" * 65536
                for _ in range(200):
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(block), block))
                self.wfile.write(b"0\r\n\r\n")
            else:
                self.send_response(200)
                self.send_header("Content-Length", str(len(self.body)))
                self.end_headers()
                self.wfile.write(self.body)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def log_message(self, *a):
        pass


@pytest.fixture()
def server():
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    srv.daemon_threads = True
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    yield f"http://127.0.0.1:{srv.server_port}"
    srv.shutdown()
    srv.server_close()


def test_cancel_is_honoured_within_a_second_during_a_trickle(server, tmp_path):
    _Handler.mode = "trickle"
    token = CancelToken()
    result: dict = {}

    def go():
        t0 = time.monotonic()
        try:
            download(f"{server}/slow.run", tmp_path / "slow.run", sha256="0" * 64, cancel=token)
        except DownloadError as e:
            result["error"] = str(e)
        result["t"] = time.monotonic() - t0

    th = threading.Thread(target=go)
    th.start()
    time.sleep(1.0)
    t_cancel = time.monotonic()
    token.cancel()
    th.join(timeout=5)
    assert not th.is_alive()
    assert "cancelled" in result["error"]
    assert time.monotonic() - t_cancel < 1.0
    assert (tmp_path / "slow.run.part").exists()  # kept for the resume


def test_a_response_larger_than_expected_is_stopped(server, tmp_path):
    _Handler.mode = "big_declared"
    with pytest.raises(DownloadError, match="the server sends 8589934592 bytes, but this file is 4096 bytes"):
        download(f"{server}/x.run", tmp_path / "x.run", sha256="0" * 64, size_bytes=4096)
    _Handler.mode = "chunked_flood"
    with pytest.raises(DownloadError, match="more than the expected 100000 bytes"):
        download(f"{server}/y.run", tmp_path / "y.run", sha256="0" * 64, size_bytes=100_000)
    assert not (tmp_path / "y.run.part").exists() and not (tmp_path / "y.run").exists()


def test_a_declared_size_beyond_the_free_space_is_refused_before_downloading(server, tmp_path):
    _Handler.mode = "big_declared"  # 8 GiB declared, onto a 2 MiB disk
    with small_disk(tmp_path / "mnt", "2m") as mnt:
        with pytest.raises(DownloadError, match="no space for x.run .*8192 MiB needed"):
            download(f"{server}/x.run", mnt / "x.run", sha256="0" * 64)
        assert not (mnt / "x.run.part").exists() or (mnt / "x.run.part").stat().st_size == 0


def test_a_failing_listener_never_blocks_the_child():
    def bad(_line):
        raise OSError(28, "No space left on device")
    t0 = time.monotonic()
    out = run_command([sys.executable, "-c", "import sys\nfor i in range(200000): sys.stdout.write('x' * 80 + '\\n')"],
                      on_line=bad, timeout_s=60)
    assert out.rc == 0 and not out.timed_out and time.monotonic() - t0 < 30
    assert "could not show or log" in out.tail[-1]


@contextlib.contextmanager
def small_disk(path: Path, size: str = "1m"):
    if not (hasattr(os, "geteuid") and os.geteuid() == 0) or not shutil.which("mount"):
        pytest.skip("a full disk is simulated with a small tmpfs, which needs root")
    path.mkdir(parents=True, exist_ok=True)
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs", str(path)],
                       capture_output=True, text=True)
    if r.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {r.stderr.strip()}")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], capture_output=True)


def _fill(path: Path) -> None:
    with open(path / "filler", "wb") as fh:
        with contextlib.suppress(OSError):
            while True:
                fh.write(b"\0" * 65536)
                fh.flush()


def test_full_disk_download_says_no_space(server, tmp_path):
    _Handler.mode = "chunked_flood"  # no declared size: the disk fills while it arrives
    with small_disk(tmp_path / "mnt", "2m") as mnt:
        with pytest.raises(DownloadError, match="no space left"):
            download(f"{server}/y.run", mnt / "y.run", sha256="0" * 64)


def test_full_disk_under_the_session_stops_cleanly(tmp_path):
    with small_disk(tmp_path / "mnt", "1m") as mnt:
        session = Session.create(mnt / "sessions")
        noisy = [sys.executable, "-c", "import sys\nfor i in range(100000): sys.stdout.write('line %d\\n' % i)"]
        plan = Plan(steps=(Step(id="run_noisy", kind="install_pytorch", title="noisy", why="t", commands=(tuple(noisy),),
                                timeout_s=120),
                           Step(id="run_after", kind="install_pytorch", title="after", why="t", commands=(("true",),))))
        _fill(mnt)
        t0 = time.monotonic()
        r = Executor(plan, session).run()
        assert time.monotonic() - t0 < 60  # no hang until the timeout
        assert r.status == "error" and "no space left" in r.message, r.message
        # the CLI: one line, no traceback
        (mnt / "filler").unlink()
        _fill(mnt)
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        p = subprocess.run([sys.executable, "-m", "app", "snapshot", "--output", str(mnt / "snap.json")],
                           capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
        assert "Traceback" not in p.stderr
        if p.returncode != 0:
            assert len(p.stderr.strip().splitlines()) == 1 and "space" in p.stderr


def test_executor_checksum_download_on_a_full_disk(server, tmp_path):
    _Handler.mode = "ok"
    _Handler.body = os.urandom(3 << 20)
    sha = hashlib.sha256(_Handler.body).hexdigest()
    with small_disk(tmp_path / "mnt", "2m") as mnt:
        session = Session.create(mnt / "s")
        step = Step(id="run_installer", kind="install_pytorch", title="t", why="t",
                    downloads=(Download(name="cuda_x.run", url=f"{server}/cuda_x.run", sha256=sha),),
                    commands=(("true",),))
        r = Executor(Plan(steps=(step,)), session).run()
        assert r.status == "error" and "no space" in r.message, r.message
