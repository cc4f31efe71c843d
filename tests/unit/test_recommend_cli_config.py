"""`gpu-wizard recommend` (JSON contract and text) and app/config.py (mirrors, proxy, CA)."""
import json

import pytest

from app.choices import Mirrors
from app.cli import main
from app.config import ConfigError, load_config, mirrors_from, requests_kwargs, subprocess_env
from app.paths import demo_snapshots


@pytest.fixture(autouse=True)
def clean_env(monkeypatch, tmp_path):
    for k in ("HTTPS_PROXY", "https_proxy", "REQUESTS_CA_BUNDLE", "SSL_CERT_FILE", "PIP_CERT", "PIP_INDEX_URL", "GPU_WIZARD_CONFIG"):
        monkeypatch.delenv(k, raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    monkeypatch.setenv("GPU_WIZARD_DATA_DIR", str(tmp_path / "data"))


def _run(capsys, *argv):
    rc = main(list(argv))
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_recommend_json_contract_assumed_machine(capsys):
    rc, out, err = _run(capsys, "recommend", "--json", "--snapshot", str(_lspci_only_snapshot()), "--assume-gpu", "8.9",
                        "--assume-driver", "550.54.14", "--python-version", "3.11")
    assert rc == 0, err
    data = json.loads(out)
    for key in ("version", "index", "index_url", "command"):
        assert key in data["pytorch"]
    for key in ("action", "min_version", "package"):
        assert key in data["driver"]
    assert {"version", "package"} <= set(data["cuda_toolkit"]) and {"version", "source"} <= set(data["cudnn"])
    assert all({"code", "message"} <= set(w) for w in data["warnings"])
    assert isinstance(data["alternatives"], list)
    assert (data["pytorch"]["version"], data["pytorch"]["index"], data["driver"]["action"]) == ("2.14.0", "cu126", "keep")


def _lspci_only_snapshot(tmp=[]):
    import tempfile

    if not tmp:
        d = tempfile.mkdtemp()
        p = f"{d}/lspci.json"
        with open(p, "w") as fh:
            json.dump({"format": "gpu-wizard-snapshot/1", "platform": "linux", "created": "2026-11-29T00:00:00Z",
                       "files": {"/etc/os-release": 'ID=ubuntu\nVERSION_ID="22.04"\n', "/proc/version": "Linux version 6.8.0-45-generic"},
                       "commands": {}}, fh)
        tmp.append(p)
    return tmp[0]


def test_recommend_text_and_flags(capsys):
    rc, out, err = _run(capsys, "recommend", "--snapshot", _lspci_only_snapshot(), "--assume-gpu", "6.1", "--assume-driver", "535.183.01",
                        "--python-version", "3.12", "--variant", "cu130", "--toolkit", "--pytorch-mirror", "https://m.example/whl")
    assert rc == 0, err
    assert "PyTorch:  2.14.0 (cu126" in out
    assert "Not possible as asked" in out and "no kernels" in out
    assert "--index-url https://m.example/whl/cu126" in out
    assert "Warnings:" in out and "(plain_pip_wrong_build)" in out


@pytest.mark.parametrize("snap", demo_snapshots(), ids=lambda p: p.name)
def test_recommend_every_demo_snapshot(capsys, snap):
    rc, out, err = _run(capsys, "recommend", "--json", "--snapshot", str(snap))
    assert rc == 0, err
    data = json.loads(out)
    assert data["driver"]["action"] in ("keep", "upgrade", "install", "host", "none")
    if snap.name.startswith("wsl2"):
        assert data["driver"]["action"] == "host"


def test_bad_config_is_one_clear_line(capsys, tmp_path, monkeypatch):
    cfg = tmp_path / "c.json"
    cfg.write_text("{ not json", encoding="utf-8")
    rc, out, err = _run(capsys, "recommend", "--snapshot", _lspci_only_snapshot(), "--config", str(cfg))
    assert rc == 2 and "not valid JSON" in err and "Traceback" not in err
    rc, out, err = _run(capsys, "recommend", "--snapshot", _lspci_only_snapshot(), "--proxy", "not a url")
    assert rc == 2 and "not a usable URL" in err


def test_bad_db_path(capsys, tmp_path):
    rc, out, err = _run(capsys, "recommend", "--snapshot", _lspci_only_snapshot(), "--db", str(tmp_path / "nope"))
    assert rc == 2 and "compat data" in err


# ---- config


def test_config_file_and_precedence(tmp_path):
    ca = tmp_path / "ca.pem"
    ca.write_text("-----BEGIN CERTIFICATE-----\n", encoding="utf-8")
    cfg = tmp_path / "config.json"
    cfg.write_text(json.dumps({"mirrors": {"pypi_index_url": "https://pypi.corp/simple", "https_proxy": "http://proxy.corp:3128",
                                           "ca_bundle": str(ca)}, "db_url": "https://corp/bundle.json"}), encoding="utf-8")
    c = load_config(cfg, env={})
    assert c.db_url == "https://corp/bundle.json" and c.mirrors.ca_bundle == str(ca)
    env = {"HTTPS_PROXY": "http://env-proxy:8080", "PIP_INDEX_URL": "https://env-pypi/simple"}
    m = mirrors_from(c, {"pytorch_index_url": "https://flag/whl"}, env)
    assert m.https_proxy == "http://proxy.corp:3128"  # file beats environment
    assert m.pypi_index_url == "https://pypi.corp/simple"
    assert m.pytorch_index_url == "https://flag/whl"
    m = mirrors_from(c, {"https_proxy": "http://flag-proxy:1"}, env)
    assert m.https_proxy == "http://flag-proxy:1"  # flags beat the file


def test_environment_proxy_and_ca_honoured(tmp_path):
    ca = tmp_path / "ca.pem"
    ca.write_text("x", encoding="utf-8")
    m = mirrors_from(None, None, {"https_proxy": "http://p:3128", "REQUESTS_CA_BUNDLE": str(ca)})
    assert (m.https_proxy, m.ca_bundle) == ("http://p:3128", str(ca))
    assert requests_kwargs(m) == {"proxies": {"https": "http://p:3128", "http": "http://p:3128"}, "verify": str(ca)}
    env = subprocess_env(m)
    assert env["HTTPS_PROXY"] == "http://p:3128" and env["PIP_CERT"] == str(ca) and env["SSL_CERT_FILE"] == str(ca)
    assert mirrors_from(None, None, {"SSL_CERT_FILE": "/nonexistent.pem"}).ca_bundle is None


def test_config_errors(tmp_path):
    p = tmp_path / "c.json"
    for text, msg in [("[]", "JSON object"), ('{"mirrors": {"pypi": "x"}}', "unknown mirror key"),
                      ('{"mirrors": {"ca_bundle": "/nope.pem"}}', "does not exist"), ('{"mirrors": {"nvidia_repo_url": "ftp://x"}}', "not a usable URL")]:
        p.write_text(text, encoding="utf-8")
        with pytest.raises(ConfigError, match=msg):
            load_config(p, env={})
    p.write_bytes(b"\xff\xfe{")
    with pytest.raises(ConfigError):
        load_config(p, env={})
    with pytest.raises(ConfigError, match="does not exist"):
        load_config(tmp_path / "missing.json", env={})
    assert load_config(None, env={"XDG_CONFIG_HOME": str(tmp_path / "none")}).mirrors == Mirrors()


def test_recommend_list(capsys):
    rc, out, err = _run(capsys, "recommend", "--list", "--json", "--snapshot", _lspci_only_snapshot(), "--assume-gpu", "3.7",
                        "--assume-driver", "470.239.06", "--python-version", "3.10")
    assert rc == 0, err
    data = json.loads(out)
    assert data["recommended"] == {"version": "2.7.1", "index": "cu118"}
    rec = [o for o in data["options"] if o["recommended"]]
    assert [(o["torch_version"], o["index"]) for o in rec] == [("2.7.1", "cu118")]
    assert {o["status"] for o in data["options"]} >= {"ok", "no_kernels"}
