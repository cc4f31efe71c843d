"""pip's own download progress through the runner: a real pip (this venv's, >= 24.1) installs a
wheel from a PEP 503 simple index on 127.0.0.1 that serves it slowly; the runner asks pip for
`--progress-bar=raw` and turns its "Progress <done> of <total>" lines into percent and bytes.
Never the internet: the index is a local HTTP server, pip's own configuration is switched off."""
from __future__ import annotations

import base64
import hashlib
import http.server
import os
import sys
import threading
import time
import zipfile

import pytest

from app.run.runner import pip_version, run_command, with_pip_progress

pytestmark = pytest.mark.integration

NAME, VERSION = "slowwheel", "1.0"
SIZE = 1_500_000  # pip shows progress only above 512 KiB


def _wheel(folder) -> tuple[str, bytes]:
    fname = f"{NAME}-{VERSION}-py3-none-any.whl"
    path = folder / fname
    payload = os.urandom(SIZE)  # incompressible: the wheel is as big as its payload
    files = {f"{NAME}/__init__.py": b"", f"{NAME}/blob.bin": payload,
             f"{NAME}-{VERSION}.dist-info/METADATA": f"Metadata-Version: 2.1\nName: {NAME}\nVersion: {VERSION}\n".encode(),
             f"{NAME}-{VERSION}.dist-info/WHEEL": b"Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n"}
    record = []
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
        for n, data in files.items():
            z.writestr(n, data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            record.append(f"{n},sha256={digest},{len(data)}")
        rec = f"{NAME}-{VERSION}.dist-info/RECORD"
        z.writestr(rec, "\n".join(record + [f"{rec},,"]) + "\n")
    return fname, path.read_bytes()


@pytest.fixture
def slow_index(tmp_path):
    fname, data = _wheel(tmp_path)
    sha = hashlib.sha256(data).hexdigest()
    requests: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *a):  # quiet
            pass

        def do_GET(self):  # noqa: N802 - http.server's name
            requests.append(self.path)
            if self.path.rstrip("/") in ("/simple", f"/simple/{NAME}"):
                body = (f'<!DOCTYPE html><html><body><a href="/files/{fname}#sha256={sha}">{fname}</a></body></html>'
                        if self.path.rstrip("/").endswith(NAME) else f'<a href="/simple/{NAME}/">{NAME}</a>').encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            elif self.path == f"/files/{fname}":
                self.send_response(200)
                self.send_header("Content-Type", "application/octet-stream")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                for i in range(0, len(data), 64 * 1024):  # about 1.2 s in all: several progress lines
                    self.wfile.write(data[i:i + 64 * 1024])
                    self.wfile.flush()
                    time.sleep(0.05)
            else:
                self.send_error(404)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    t = threading.Thread(target=server.serve_forever, daemon=True)
    t.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/simple/", fname, len(data), requests
    finally:
        server.shutdown()
        server.server_close()
        t.join(5)


def test_real_pip_download_progress_in_bytes(slow_index, tmp_path):
    if (pip_version(sys.executable) or (0, 0)) < (24, 1):
        pytest.skip(f"this interpreter's pip is older than 24.1 (has no --progress-bar=raw): {pip_version(sys.executable)}")
    url, fname, size, requests = slow_index
    argv = [sys.executable, "-m", "pip", "install", "--disable-pip-version-check", "--no-cache-dir",
            "--target", str(tmp_path / "target"), "--index-url", url, NAME]
    env = {"PIP_CONFIG_FILE": os.devnull, "NO_PROXY": "127.0.0.1", "no_proxy": "127.0.0.1",
           "HTTP_PROXY": "", "HTTPS_PROXY": "", "http_proxy": "", "https_proxy": ""}
    lines, progress = [], []
    out = run_command(argv, on_line=lines.append, on_progress=progress.append, env=env, timeout_s=120)
    assert out.ok, out.details
    assert "--progress-bar=raw" in out.argv and "--progress-bar=raw" not in argv  # the runner's channel only
    assert f"/files/{fname}" in requests
    assert (tmp_path / "target" / NAME / "blob.bin").stat().st_size == SIZE
    got = [p for p in progress if p.done_bytes is not None]
    assert len(got) >= 3, progress  # a start, some middle, the end
    assert all(p.total_bytes == size and p.name == fname for p in got)
    done = [p.done_bytes for p in got]
    assert done == sorted(done) and done[0] < size and done[-1] == size
    assert any(0 < d < size for d in done)
    fracs = [p.fraction for p in progress if p.fraction is not None]
    assert fracs == sorted(fracs) and fracs[-1] == 1.0  # never back; "Successfully installed" ends it
    assert any(0.1 < f < 0.8 for f in fracs)  # moved inside the download, not only at its stages
    # the raw lines are a live line on screen, never output lines in the log or the error tail
    assert not any(ln.final and ln.text.startswith("Progress ") for ln in lines)
    live = [ln.text for ln in lines if not ln.final]
    assert live and live[-1] == f"{fname}: {size >> 20} of {size >> 20} MiB"
    assert not any(t.startswith("Progress ") for t in out.tail)


def _venv_with_pip(tmp_path, version: str) -> str:
    site = tmp_path / version / "lib" / "python3.12" / "site-packages"
    (site / f"pip-{version}.dist-info").mkdir(parents=True)
    (tmp_path / version / "bin").mkdir()
    return str(tmp_path / version / "bin" / "python")


@pytest.mark.parametrize("version,raw", [("23.0.1", False), ("24.0", False), ("24.1", True), ("26.3", True)])
def test_raw_progress_only_for_a_pip_that_has_it(tmp_path, version, raw):
    py = _venv_with_pip(tmp_path, version)
    argv = [py, "-m", "pip", "install", "torch==2.13.0", "--index-url", "https://x/whl/cpu"]
    assert ("--progress-bar=raw" in with_pip_progress(argv)) is raw
    assert with_pip_progress([py, "-m", "pip", "install", "--progress-bar=off", "x"]).count("--progress-bar=off") == 1
    assert with_pip_progress([py, "-m", "pip", "list"]) == [py, "-m", "pip", "list"]
    assert with_pip_progress(["/no/such/bin/python", "-m", "pip", "install", "x"]) == ["/no/such/bin/python", "-m", "pip", "install", "x"]
