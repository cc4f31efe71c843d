"""The wizard's own PyTorch step against indexes it cannot use, for real: pip in a real venv, a
local HTTPS server with a certificate pip does not trust (what a TLS-inspecting network looks like
without its CA), and a port nothing listens on. The failure names the setting that fixes it."""
from __future__ import annotations

import http.server
import shutil
import socket
import ssl
import subprocess
import sys
import threading

import pytest

from app.choices import Choices, Mirrors
from app.facts import Facts, OsInfo, PythonEnv
from app.plan import Plan, build_plan
from app.recommendation import Recommendation, TorchChoice
from app.run import Executor, Session

pytestmark = pytest.mark.integration


def _plan(tmp_path, index: str):
    base = getattr(sys, "_base_executable", None) or shutil.which("python3") or sys.executable
    facts = Facts(os=OsInfo(platform="linux", id="debian", version_id="12", package_manager="apt"),
                  python=PythonEnv(path=base, version=f"{sys.version_info[0]}.{sys.version_info[1]}", kind="system"))
    rec = Recommendation(pytorch=TorchChoice(version="2.13.0", index="cpu", index_url="https://download.pytorch.org/whl/cpu",
                                             packages=("torch==2.13.0",)))
    plan = build_plan(facts, rec, Choices(venv_path=str(tmp_path / "venv"), mirrors=Mirrors(pytorch_index_url=index)))
    steps = [plan.step("create_venv"), plan.step("install_pytorch")]
    # pip's own configuration (a local wheel folder, extra indexes) must not answer for the index
    return Plan(steps=tuple(s.replace(env={**s.env, "PIP_CONFIG_FILE": "/dev/null", "PIP_RETRIES": "1",
                                             "PIP_DEFAULT_TIMEOUT": "5", "PIP_FIND_LINKS": "", "PIP_EXTRA_INDEX_URL": "",
                                             "PIP_NO_INDEX": ""}) for s in steps))


def _run(plan, tmp_path):
    events = []
    result = Executor(plan, Session.create(tmp_path / "sessions"), listener=events.append).run()
    failed = [e for e in events if e.type == "step_finished" and e.status == "error"]
    return result, failed


def _self_signed(tmp_path):
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed (it makes the test server's certificate)")
    key, cert = tmp_path / "k.pem", tmp_path / "c.pem"
    r = subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert),
                        "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
                       capture_output=True, text=True, timeout=60)
    if r.returncode != 0:
        pytest.skip(f"openssl could not make a certificate: {r.stderr.strip()[-200:]}")
    return key, cert


def test_an_untrusted_certificate_points_at_ca_bundle(tmp_path):
    key, cert = _self_signed(tmp_path)
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(str(cert), str(key))
    httpd.socket = ctx.wrap_socket(httpd.socket, server_side=True)
    t = threading.Thread(target=httpd.serve_forever, daemon=True)
    t.start()
    try:
        result, failed = _run(_plan(tmp_path, f"https://127.0.0.1:{httpd.server_address[1]}/whl"), tmp_path)
    finally:
        httpd.shutdown()
        httpd.server_close()
    assert result.status == "error" and result.failed_step == "install_pytorch"
    assert "--ca-bundle" in failed[0].message and "127.0.0.1" in failed[0].message, failed[0].message


def test_an_index_nobody_answers_points_at_mirror_and_proxy(tmp_path):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()  # nothing listens there now
    result, failed = _run(_plan(tmp_path, f"https://127.0.0.1:{port}/whl"), tmp_path)
    assert result.status == "error" and result.failed_step == "install_pytorch"
    msg = failed[0].message
    assert "--pytorch-mirror" in msg and "--proxy" in msg and "--ca-bundle" in msg and "127.0.0.1" in msg, msg
