"""Mirrors, proxy and CA bundle from the config file reach the plan: pip uses the PyPI mirror, root
steps carry the proxy/CA environment explicitly (pkexec and sudo drop the wizard's own), apt gets the
CA bundle, the helper accepts exactly that, and the executor's downloads go through the proxy."""
from __future__ import annotations

import hashlib
import http.server
import json
import threading

import pytest

from app.choices import Choices, Mirrors
from app.plan import Download, Plan, Step
from app.paths import resource
from app.run import Executor, Session
from app.run.privileged import PolicyError, check_run
from tests.unit.test_plan_builders import _cli

SNAP = resource("snapshots", "wsl2-laptop-rtx4070-ubuntu2204.json")
PYPI = "https://pypi.mirror.example.com/simple"
PROXY = "http://proxy.example.com:3128"


def _config(tmp_path, **mirrors):
    p = tmp_path / "config.json"
    p.write_text(json.dumps({"mirrors": mirrors}))
    return p


def _plan(*args, env=None):
    r = _cli("--snapshot", str(SNAP), "plan", "--json", "--toolkit", *args, env=env)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def _root_steps_pass_the_helper(plan, ca=None):
    root = [s for s in plan["steps"] if s["needs_root"] and s["commands"]]
    assert root
    for s in root:
        for argv in s["commands"]:
            check_run(s["kind"], argv, s["env"], frozenset(f"@download:{d['name']}" for d in s["downloads"]))
    return root


def test_config_file_mirror_and_proxy_reach_pip_and_root_apt_steps(tmp_path):
    cfg = _config(tmp_path, pypi_index_url=PYPI, https_proxy=PROXY)
    # a snapshot is another machine: a config file given for it counts, this computer's own (GPU_WIZARD_CONFIG, the
    # default one) does not (tests/unit/test_snapshot_network.py)
    for plan in (_plan("--config", str(cfg)),):
        pip = plan["steps"][[s["id"] for s in plan["steps"]].index("install_pytorch")]["commands"][0]
        assert PYPI in pip and pip[pip.index(PYPI) - 1] in ("--index-url", "--extra-index-url")
        assert plan["choices"]["mirrors"]["https_proxy"] == PROXY
        root = _root_steps_pass_the_helper(plan)
        apt = [s for s in root if any(a[0] == "apt-get" for a in s["commands"])]
        assert {s["id"] for s in apt} == {"update_package_index", "install_cuda_toolkit"}
        offline = [s for s in root if s not in apt]  # dpkg -i, ldconfig, links: nothing to fetch
        assert offline and not any("HTTPS_PROXY" in s["env"] for s in offline)
        for s in apt:
            assert s["env"]["HTTPS_PROXY"] == PROXY and s["env"]["https_proxy"] == PROXY and s["env"]["http_proxy"] == PROXY
            assert s["env"].get("DEBIAN_FRONTEND") == "noninteractive" or s["kind"] == "update_index"
            assert not any(k.startswith(("PIP_", "UV_")) for k in s["env"])  # pip/uv settings never go to root


def test_install_dry_run_reads_the_config_too(tmp_path):
    cfg = _config(tmp_path, pypi_index_url=PYPI, https_proxy=PROXY)
    r = _cli("--snapshot", str(SNAP), "--json", "install", "--dry-run", "--toolkit", "--config", str(cfg))
    assert r.returncode == 0, r.stderr
    plan = json.loads(r.stdout)
    steps = {s["id"]: s for s in plan["steps"]}
    assert PYPI in steps["install_pytorch"]["commands"][0]
    assert steps["install_cuda_toolkit"]["env"]["HTTPS_PROXY"] == PROXY


def test_ca_bundle_goes_to_apt_and_flags_beat_the_config(tmp_path):
    ca = tmp_path / "company-ca.pem"
    ca.write_text("-----BEGIN CERTIFICATE-----\n")
    cfg = _config(tmp_path, https_proxy=PROXY, ca_bundle=str(ca))
    plan = _plan("--config", str(cfg), "--proxy", "http://other-proxy.example.com:8080")
    root = _root_steps_pass_the_helper(plan)
    apt = [s for s in root if any(a[0] == "apt-get" for a in s["commands"])]
    assert len(apt) == 2
    for s in apt:
        assert s["env"]["HTTPS_PROXY"] == "http://other-proxy.example.com:8080" and s["env"]["SSL_CERT_FILE"] == str(ca)
        for argv in s["commands"]:
            if argv[0] == "apt-get":
                assert argv[1:3] == ["-o", f"Acquire::https::CaInfo={ca}"]


def test_bad_config_is_one_clear_line(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"mirrors": {"pypi_index_url": "ftp://nope"}}')
    r = _cli("--snapshot", str(SNAP), "plan", "--config", str(bad))
    assert r.returncode == 2 and "not a usable URL" in r.stderr and "Traceback" not in r.stderr


def test_helper_checks_the_network_environment(tmp_path):
    ca = tmp_path / "ca.pem"
    ca.write_text("x")
    check_run("update_index", ["apt-get", "-o", f"Acquire::https::CaInfo={ca}", "update"], {"SSL_CERT_FILE": str(ca)})
    for argv, env, msg in [
        (["apt-get", "update"], {"SSL_CERT_FILE": "relative.pem"}, "existing CA bundle"),
        (["apt-get", "update"], {"SSL_CERT_FILE": str(tmp_path / "missing.pem")}, "existing CA bundle"),
        (["apt-get", "update"], {"PIP_CERT": str(ca)}, "not allowed"),
        (["apt-get", "-o", "DPkg::Pre-Invoke::=sh -c id", "update"], {}, "may not run"),
        (["apt-get", "-o", "Acquire::https::CaInfo=/etc/../tmp/x", "update"], {}, "may not run"),
        (["apt-get", "-o"], {}, "may not run"),
    ]:
        with pytest.raises(PolicyError, match=msg):
            check_run("update_index", argv, env)


class _Proxy(http.server.BaseHTTPRequestHandler):
    body = b"keyring package bytes\n"
    seen: list = []

    def do_GET(self):  # an HTTP proxy receives the absolute URL
        type(self).seen.append(self.path)
        self.send_response(200)
        self.send_header("Content-Length", str(len(self.body)))
        self.end_headers()
        self.wfile.write(self.body)

    def log_message(self, *a):
        pass


def test_executor_downloads_through_the_configured_proxy(tmp_path):
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Proxy)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        proxy = f"http://127.0.0.1:{srv.server_address[1]}"
        url = "http://nvidia-repo.invalid/cuda-keyring_1.1-1_all.deb"  # resolvable only through the proxy
        step = Step(id="download_keyring", kind="add_repo", title="k", why="k", commands=(("true",),),
                    downloads=(Download("cuda-keyring_1.1-1_all.deb", url, sha256=hashlib.sha256(_Proxy.body).hexdigest()),))
        plan = Plan(steps=(step,), choices=Choices(mirrors=Mirrors(https_proxy=proxy)).to_json())
        session = Session.create(tmp_path / "s")
        r = Executor(plan, session).run()
        assert r.status == "ok", r.message
        assert _Proxy.seen == [url]
        assert (session.downloads / "cuda-keyring_1.1-1_all.deb").read_bytes() == _Proxy.body
    finally:
        srv.shutdown()
