"""`gpu-wizard update-db` against a real HTTP server on 127.0.0.1: a good bundle is swapped in
atomically; a bad checksum, a bundle failing the schema, corrupt JSON, a 404 or an older
bundle leave the installed data untouched; the bundled data stays the fallback."""
import copy
import functools
import hashlib
import http.server
import json
import threading

import pytest

from app.cli import main
from app.compat.db import BUNDLE_FORMAT, load_db, make_bundle, read_dir_tables, bundled_dir
from app.compat.update import UpdateError, update_db

pytestmark = pytest.mark.integration


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *a):
        pass


@pytest.fixture()
def server(tmp_path):
    root = tmp_path / "www"
    root.mkdir()
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(root)))
    t = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    t.start()
    yield root, f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture()
def data_dir(tmp_path, monkeypatch):
    d = tmp_path / "data"
    monkeypatch.setenv("GPU_WIZARD_DATA_DIR", str(d))
    monkeypatch.delenv("GPU_WIZARD_CONFIG", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    return d


def _publish(root, name, text, checksum=None):
    (root / name).write_text(text, encoding="utf-8")
    digest = checksum or hashlib.sha256(text.encode("utf-8")).hexdigest()
    (root / (name + ".sha256")).write_text(f"{digest}  {name}\n", encoding="utf-8")


def _bundle(version="2099.01.01", mutate=None):
    tables, _ = read_dir_tables(bundled_dir())
    tables = copy.deepcopy(tables)
    if mutate:
        mutate(tables)
    return json.dumps({"format": BUNDLE_FORMAT, "version": version, "tables": tables})


def _add_release(tables):
    rel = copy.deepcopy(tables["pytorch_releases"]["rows"][0])
    rel.update(release="2.15", version="2.15.0", torchvision="0.30.0")
    tables["pytorch_releases"]["rows"].insert(0, rel)
    for v in [v for v in tables["pytorch_variants"]["rows"] if v["release"] == "2.14"]:
        tables["pytorch_variants"]["rows"].append(dict(copy.deepcopy(v), release="2.15"))


def test_good_bundle_is_installed_and_used(server, data_dir, capsys):
    root, base = server
    _publish(root, "bundle.json", _bundle(mutate=_add_release))
    assert main(["update-db", "--url", f"{base}/bundle.json", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["updated"] and out["version"] == "2099.01.01"
    db = load_db()
    assert db.version == "2099.01.01" and db.torch_releases[0].version == "2.15.0"  # a new release is only new rows
    # the same again: nothing to do
    assert main(["update-db", "--url", f"{base}/bundle.json", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["updated"] is False


def _installed(data_dir):
    return (data_dir / "compat-bundle.json").read_bytes() if (data_dir / "compat-bundle.json").exists() else None


@pytest.mark.parametrize("kind", ["bad_checksum", "schema", "corrupt", "missing", "older", "missing_source"])
def test_failures_keep_the_old_data(server, data_dir, kind, capsys):
    root, base = server
    _publish(root, "good.json", _bundle("2099.01.01"))
    assert main(["update-db", "--url", f"{base}/good.json"]) == 0
    before = _installed(data_dir)
    if kind == "bad_checksum":
        _publish(root, "b.json", _bundle("2099.02.01"), checksum="0" * 64)
    elif kind == "schema":
        _publish(root, "b.json", _bundle("2099.02.01", mutate=lambda t: t["compute_capabilities"]["rows"][0].update(kernel_module="maybe")))
    elif kind == "corrupt":
        _publish(root, "b.json", _bundle("2099.02.01")[:5000])
    elif kind == "older":
        _publish(root, "b.json", _bundle("2098.01.01"))
    elif kind == "missing_source":
        _publish(root, "b.json", _bundle("2099.02.01", mutate=lambda t: t["cuda_releases"]["rows"][0].pop("source")))
    rc = main(["update-db", "--url", f"{base}/b.json"])
    err = capsys.readouterr().err
    assert rc == 1 and "installed data is unchanged" in err and "Traceback" not in err
    assert _installed(data_dir) == before
    assert load_db().version == "2099.01.01"
    assert not [p for p in data_dir.iterdir() if p.name.endswith("tmp")]


def test_backup_kept_and_broken_user_bundle_falls_back(server, data_dir):
    root, base = server
    _publish(root, "a.json", _bundle("2099.01.01"))
    _publish(root, "b.json", _bundle("2099.03.01"))
    update_db(f"{base}/a.json")
    res = update_db(f"{base}/b.json")
    assert res.changed and res.previous_version == "2099.01.01"
    assert json.loads((data_dir / "compat-bundle.json.bak").read_text())["version"] == "2099.01.01"
    (data_dir / "compat-bundle.json").write_text("{ broken", encoding="utf-8")  # e.g. a disk error later
    assert load_db().version == read_dir_tables(bundled_dir())[1]  # the bundled data is the fallback


def test_plain_http_refused_off_loopback(data_dir):
    with pytest.raises(UpdateError, match="HTTPS"):
        update_db("http://example.com/bundle.json")


def test_explicit_sha256_and_no_url(server, data_dir, capsys):
    root, base = server
    text = _bundle("2099.04.01")
    (root / "c.json").write_text(text, encoding="utf-8")  # no .sha256 published
    assert main(["update-db", "--url", f"{base}/c.json"]) == 1
    assert "HTTP 404" in capsys.readouterr().err
    assert main(["update-db", "--url", f"{base}/c.json", "--sha256", hashlib.sha256(text.encode()).hexdigest()]) == 0
    assert main(["update-db"]) == 2
    assert "no data URL" in capsys.readouterr().err


def test_make_bundle_round_trip():
    text = make_bundle()
    doc = json.loads(text)
    assert doc["format"] == BUNDLE_FORMAT and set(doc["tables"]) >= {"cuda_releases", "pytorch_variants"}


def test_newer_bundled_data_wins_over_an_older_download(server, data_dir):
    root, base = server
    _publish(root, "old.json", _bundle("2000.01.01"))
    res = update_db(f"{base}/old.json", force=True)  # --force installs an older bundle
    assert res.changed
    assert load_db().version == read_dir_tables(bundled_dir())[1]  # the wizard's own newer data is used
