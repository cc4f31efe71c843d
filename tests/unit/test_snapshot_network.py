"""A customer snapshot's plan is for the customer's machine: its commands carry the network settings recorded on
that machine (its proxy, CA bundle, PyPI index: detection records them), or those given for it explicitly here
(`--proxy`, `--ca-bundle`, the mirror flags, a `--config FILE`), never this computer's own environment or config
file; a plan note says whose they are, and which of the machine's own are left out (redacted in the snapshot, a CA
file missing there). The snapshot is recorded for real (`gpu-wizard snapshot`, in a child process whose
environment is the customer's); this computer's settings are a real environment and config file of the viewer's."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app import messages
from app.choices import Choices, Mirrors
from app.config import Config
from app.detect import env as envp
from app.detect import detect
from app.report.snapshots import redact_recorded
from app.system import SnapshotSystem

ROOT = Path(__file__).resolve().parents[2]
CUSTOMER = {"HTTPS_PROXY": "http://proxy.customer.example:3128", "PIP_INDEX_URL": "https://pypi.customer.example/simple"}
VIEWER_PROXY, VIEWER_PYPI = "http://viewer-proxy.example:8080", "https://viewer-pypi.example/simple"
_NET = {"HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "REQUESTS_CA_BUNDLE", "SSL_CERT_FILE", "PIP_CERT", "PIP_INDEX_URL",
        "GPU_WIZARD_CONFIG", "CURL_CA_BUNDLE"}


def _env(**extra: str) -> dict:
    base = {k: v for k, v in os.environ.items() if k not in _NET}
    return {**base, "GPU_WIZARD_LIVE": "0", **extra}


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """The customer's machine recorded as `gpu-wizard snapshot --no-redact` writes it, and its redacted form."""
    d = tmp_path_factory.mktemp("customer")
    ca = d / "customer-ca.pem"
    ca.write_text("-----BEGIN CERTIFICATE-----\n", encoding="utf-8")
    raw = d / "raw.json"
    r = subprocess.run([sys.executable, "-m", "app", "snapshot", "--no-redact", "-o", str(raw)], cwd=ROOT, capture_output=True,
                       text=True, timeout=300, env=_env(**CUSTOMER, REQUESTS_CA_BUNDLE=str(ca)))
    assert r.returncode == 0, r.stderr
    data = json.loads(raw.read_text(encoding="utf-8"))
    assert {k: data["env"].get(k) for k in CUSTOMER} == CUSTOMER and data["env"]["REQUESTS_CA_BUNDLE"] == str(ca)
    red = d / "redacted.json"
    red.write_text(json.dumps(redact_recorded(data)), encoding="utf-8")
    gone = d / "ca-gone.json"  # the customer's CA variable names a file that is not there
    gone.write_text(json.dumps({**data, "env": {**data["env"], "REQUESTS_CA_BUNDLE": "/etc/ssl/customer/missing.pem"}}), encoding="utf-8")
    return {"raw": raw, "redacted": red, "ca_gone": gone, "ca": str(ca)}


@pytest.fixture()
def viewer(tmp_path):
    """This computer's own network settings: its environment and its config file."""
    ca = tmp_path / "viewer-ca.pem"
    ca.write_text("-----BEGIN CERTIFICATE-----\n", encoding="utf-8")
    cfg = tmp_path / "config.json"
    cfg.write_text(json.dumps({"mirrors": {"pytorch_index_url": "https://viewer-torch.example/whl",
                                           "nvidia_repo_url": "https://viewer-nvidia.example/repos"}}), encoding="utf-8")
    return {"env": _env(HTTPS_PROXY=VIEWER_PROXY, REQUESTS_CA_BUNDLE=str(ca), PIP_INDEX_URL=VIEWER_PYPI, GPU_WIZARD_CONFIG=str(cfg)),
            "needles": (VIEWER_PROXY, VIEWER_PYPI, str(ca), "viewer-torch.example", "viewer-nvidia.example")}


def _plan(snap: Path, env: dict, *flags: str) -> dict:
    r = subprocess.run([sys.executable, "-m", "app", "--snapshot", str(snap), "--json", "plan", "--offline", *flags], cwd=ROOT,
                       capture_output=True, text=True, timeout=300, env=env)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def _notes(plan: dict) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for n in plan["warning_codes"]:
        out.setdefault(n["code"], []).append(n["params"])
    return out


def _pip(plan: dict) -> list[str]:
    return next(s for s in plan["steps"] if s["id"] == "install_pytorch")["commands"][0]


def test_the_customers_own_settings_reach_the_commands_and_the_viewers_never(recorded, viewer):
    plan = _plan(recorded["raw"], viewer["env"])
    text = json.dumps(plan)
    assert not [n for n in viewer["needles"] if n in text]
    m = plan["choices"]["mirrors"]
    assert (m["https_proxy"], m["pypi_index_url"], m["ca_bundle"]) == (CUSTOMER["HTTPS_PROXY"], CUSTOMER["PIP_INDEX_URL"], recorded["ca"])
    pip = _pip(plan)
    assert CUSTOMER["PIP_INDEX_URL"] in pip and pip[pip.index("--cert") + 1] == recorded["ca"]
    notes = _notes(plan)
    assert {p["network_setting"] for p in notes["note_network_recorded"]} == {"https_proxy", "pypi_index_url", "ca_bundle"}
    assert "note_network_not_this_computers" in notes and "note_network_given" not in notes


def test_a_redacted_setting_is_left_out_and_said(recorded, viewer):
    data = json.loads(recorded["redacted"].read_text(encoding="utf-8"))
    assert "<" in data["env"]["HTTPS_PROXY"]  # the redactor hid the customer's proxy host
    plan = _plan(recorded["redacted"], viewer["env"])
    text = json.dumps(plan["steps"]) + json.dumps(plan["choices"])
    assert "<host-" not in text and not [n for n in viewer["needles"] if n in json.dumps(plan)]
    left = {p["network_setting"]: p["why_code"] for p in _notes(plan)["note_network_left_out"]}
    assert left["https_proxy"] == "note_network_left_redacted" and left["pypi_index_url"] == "note_network_left_redacted"
    assert plan["choices"]["mirrors"]["https_proxy"] is None


def test_a_ca_file_missing_on_that_machine_is_left_out(recorded, viewer):
    plan = _plan(recorded["ca_gone"], viewer["env"])
    assert plan["choices"]["mirrors"]["ca_bundle"] is None and "--cert" not in _pip(plan)
    left = {p["network_setting"]: p["why_code"] for p in _notes(plan).get("note_network_left_out", [])}
    assert left == {"ca_bundle": "note_network_left_missing"}


def test_settings_given_here_for_that_machine_are_applied_and_said(recorded, viewer):
    given = "http://given-proxy.example:3128"
    plan = _plan(recorded["redacted"], viewer["env"], "--proxy", given, "--ca-bundle", "/etc/ssl/customer/ca.pem")
    m = plan["choices"]["mirrors"]
    assert m["https_proxy"] == given and m["ca_bundle"] == "/etc/ssl/customer/ca.pem"  # a path there: not checked here
    notes = _notes(plan)
    assert {p["network_setting"] for p in notes["note_network_given"]} == {"https_proxy", "ca_bundle"}
    assert "https_proxy" not in {p["network_setting"] for p in notes.get("note_network_left_out", [])}
    root = [s for s in plan["steps"] if s["needs_root"] and any(a[0] == "apt-get" for a in s["commands"])]
    assert all(s["env"]["HTTPS_PROXY"] == given for s in root)


def test_this_machines_own_plan_still_uses_this_machines_settings(tmp_path):
    """The live machine (no --snapshot): its environment's proxy and PyPI index, as before."""
    r = subprocess.run([sys.executable, "-m", "app", "--json", "recommend", "--offline"], cwd=ROOT, capture_output=True, text=True,
                       timeout=300, env=_env(HTTPS_PROXY=VIEWER_PROXY, PIP_INDEX_URL=VIEWER_PYPI))
    assert r.returncode == 0, r.stderr
    assert VIEWER_PYPI in json.loads(r.stdout)["pytorch"]["command"]


def test_the_notes_are_said_in_both_languages(recorded, viewer):
    plan = _plan(recorded["redacted"], viewer["env"], "--proxy", "http://u:pw@given.example:3128")
    for n in plan["warning_codes"]:
        if n["code"].startswith("note_network"):
            en = messages.render("plan", n["code"], n["params"], "en")
            zh = messages.render("plan", n["code"], n["params"], "zh_CN")
            assert "{" not in en + zh and any("\u4e00" <= c <= "\u9fff" for c in zh), (en, zh)
            assert "pw" not in en and "pw" not in zh  # a proxy's password is never said
    said = [messages.render("plan", n["code"], n["params"], "zh_CN") for n in plan["warning_codes"]]
    assert any("HTTPS 代理" in s for s in said)


def test_the_detection_lists_the_variables_the_config_reads():
    from app import config

    assert set(config.PROXY_VARS + config.CA_VARS + config.INDEX_VARS) <= set(envp.NETWORK_VARS) <= set(envp.VARIABLES)
    assert envp.CA_VARS == config.CA_VARS  # the same one wins in both


def test_the_live_index_is_read_through_this_computers_proxy_for_a_recorded_machine(recorded, tmp_path, monkeypatch):
    """The wizard reads the index from here: through this computer's proxy (a local server standing in for it),
    while the commands keep the customer's proxy."""
    from app.compat.db import load_db
    from app.pipeline import recommend_stage
    from tests.unit.live_server import Server, serve_pytorch

    monkeypatch.setenv("GPU_WIZARD_CACHE_DIR", str(tmp_path / "cache"))
    for k in _NET:
        monkeypatch.delenv(k, raising=False)
    from app.overrides import apply_overrides

    facts = apply_overrides(detect(SnapshotSystem.load(str(recorded["raw"]))), assume_gpus=["NVIDIA H200"], assume_driver="595.71.05",
                            python_version="3.12")
    assert facts.source.startswith("snapshot:") and facts.python is not None
    server = Server()
    try:
        serve_pytorch(server, {v: ["2.14.0"] for v in ("cu126", "cu130", "cu132")}, {v: ["0.29.0"] for v in ("cu126", "cu130", "cu132")},
                      tags=("cp312",))
        mine = Config(mirrors=Mirrors(https_proxy=server.url))
        ch = Choices(mirrors=Mirrors(pytorch_index_url="http://pytorch-mirror.invalid/whl"))
        rec = recommend_stage(facts, ch, db=load_db(), config=mine, live=True)
    finally:
        server.close()
    assert server.hits and all(h.startswith("http://pytorch-mirror.invalid/whl/") for h in server.hits)
    assert CUSTOMER["HTTPS_PROXY"] in rec.pytorch.command and server.url not in rec.pytorch.command
