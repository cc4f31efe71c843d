"""Every Python tag per release from the data, per patch where a patch differs: torch 2.12.0 has cp313t wheels and
2.12.1 none (pytorch/pytorch#186654 dropped 3.13t from the 2.12 branch after 2.12.0; SHI-Labs/NATTEN#338 saw 2.12.0's
cp313t wheels, mjun0812/flash-attention-prebuild-wheels#142 their absence in 2.12.1). A free-threaded 3.13 gets the
newest release with cp313t wheels (2.12.0 with its own torchvision), from the bundled data; the live index, where it
is read, decides instead (a local PEP 503 server)."""
from __future__ import annotations

import copy
import datetime as dt
import json

import pytest

from app.choices import Choices, Mirrors
from app.compat import live
from app.recommend import recommend_live
from app.compat.db import CompatDataError, CompatDB, load_db, read_dir_tables
from app.facts import DriverInfo, Facts, Gpu, OsInfo, PythonEnv
from app.paths import resource
from app.recommend import recommend
from tests.unit.live_server import Server, simple_page, wheels


@pytest.fixture(scope="module")
def db():
    return load_db(resource("compat"))


def rtx4090(py: str, os_key: str = "linux") -> Facts:
    o = {"linux": OsInfo(platform="linux", id="ubuntu", version_id="24.04", arch="x86_64", package_manager="apt"),
         "arm": OsInfo(platform="linux", id="ubuntu", version_id="24.04", arch="aarch64", package_manager="apt"),
         "windows": OsInfo(platform="windows", id="windows", version_id="10.0.26100", arch="AMD64")}[os_key]
    drv = DriverInfo(state="ok", version="591.86") if os_key == "windows" else DriverInfo(state="ok", version="580.95.05", kernel_module="open")
    return Facts(os=o, driver=drv, gpus=(Gpu(index=0, name="NVIDIA GeForce RTX 4090", compute_capability="8.9"),),
                 python=PythonEnv(path="/usr/bin/python3", version=py))


def test_the_data_holds_each_patchs_tags_with_its_source(db):
    r = db.torch_release("2.12")
    assert r.version == "2.12.1" and "3.13t" not in r.python and "3.14t" in r.python
    p = db.torch_release("2.12.0")
    assert p is not None and p.version == "2.12.0" and "3.13t" in p.python and p.torchvision == "0.27.0"
    assert "pytorch/pull/186654" in p.source and p.checked == "2026-12-01"
    assert db.torch_release("2.12.1") == r and db.torch_release("2.12.7") is None
    # no release after 2.12 carries cp313t (the build matrix dropped it), each still carries cp314t
    for rel in db.torch_releases:
        if rel.release in ("2.13", "2.14", "2.15"):
            assert "3.13t" not in rel.python and not rel.patches and "3.14t" in rel.python, rel.version


@pytest.mark.parametrize("os_key", ["linux", "arm", "windows"])
def test_free_threaded_313_gets_the_newest_release_with_its_wheels(db, os_key):
    rec = recommend(rtx4090("3.13t", os_key), db)
    assert rec.pytorch.packages[:2] == ("torch==2.12.0", "torchvision==0.27.0") and rec.pytorch.python == "3.13t"
    w = next(w for w in rec.warnings if w.code == "python_free_threaded_older_release")
    assert w.params["torch"] == "2.12.0" and w.params["newest"] == "2.14.1" and "3.14t" in w.params["ft"]


def test_other_pythons_keep_the_newest_patch(db):
    for py, want in (("3.12", "2.14.1"), ("3.14t", "2.14.1"), ("3.13", "2.14.1")):
        assert recommend(rtx4090(py), db).pytorch.version == want, py
    # the release asked for by X.Y gets its patch with wheels for this Python; an exact patch is taken as it is
    assert recommend(rtx4090("3.13t"), db, Choices(torch_version="2.12")).pytorch.packages[:2] == ("torch==2.12.0", "torchvision==0.27.0")
    assert recommend(rtx4090("3.12"), db, Choices(torch_version="2.12")).pytorch.version == "2.12.1"
    assert recommend(rtx4090("3.12"), db, Choices(torch_version="2.12.0")).pytorch.packages[:2] == ("torch==2.12.0", "torchvision==0.27.0")
    rec = recommend(rtx4090("3.13t"), db, Choices(torch_version="2.12.1"))
    assert [x.code for x in rec.refused_detail] == ["refused_no_python"] and rec.pytorch.version == "2.12.0"


def test_a_patch_without_its_source_or_tags_is_refused():
    tables, version = read_dir_tables(resource("compat"))
    for broken in ({"source": ""}, {"python": []}, {"checked": "June"}, {"version": "2.12"}):
        t = copy.deepcopy(tables)
        row = next(r for r in t["pytorch_releases"]["rows"] if r.get("patches"))
        row["patches"][0].update(broken)
        with pytest.raises(CompatDataError, match="patches"):
            CompatDB.from_tables(t, version=version)


def test_the_schema_knows_the_patch_field():
    schema = json.loads(resource("compat", "schema", "pytorch_releases.schema.json").read_text(encoding="utf-8"))
    item = schema["properties"]["rows"]["items"]["properties"]["patches"]["items"]
    assert set(item["required"]) == {"version", "python", "torchvision", "source", "checked"}


# ---------------------------------------------------------------- the live index decides where it is read


def _serve(s: Server, torch: dict[str, list[str]], tv: dict[str, list[str]]) -> None:
    """cu126/cu130/cu132 pages: torch[version] and tv[version] are the Python tags each version has wheels for."""
    for variant in ("cu126", "cu130", "cu132"):
        s.pages[f"/whl/{variant}/torch/"] = simple_page("torch", variant, [n for v, tags in torch.items() for n in wheels("torch", [v], variant, tags)])
        s.pages[f"/whl/{variant}/torchvision/"] = simple_page("torchvision", variant,
                                                              [n for v, tags in tv.items() for n in wheels("torchvision", [v], variant, tags)])


def _live(s: Server, db, facts):
    ch = Choices().replace(mirrors=Mirrors(pytorch_index_url=s.url + "/whl"))
    rec, _ = recommend_live(facts, db, ch, fetcher=live.Fetcher(timeout=2.0), pypi_json=None, today=dt.date(2026, 12, 1), enabled=True)
    return rec


def test_the_live_index_confirms_the_patch_with_the_tag(db):
    s = Server()
    try:
        _serve(s, {"2.14.1": ["cp312", "cp314t"], "2.12.1": ["cp312"], "2.12.0": ["cp312", "cp313t"], "2.11.0": ["cp312", "cp313t"]},
               {"0.29.1": ["cp312", "cp314t"], "0.27.1": ["cp312"], "0.27.0": ["cp312", "cp313t"], "0.26.0": ["cp312", "cp313t"]})
        rec = _live(s, db, rtx4090("3.13t"))
        assert rec.pytorch.packages[:2] == ("torch==2.12.0", "torchvision==0.27.0")
        assert "cp313t" in next(w for w in rec.warnings if w.code == "index_confirmed").message
        # a mirror that carries 2.12.1 alone: the data's 2.12.0 is not pinned (the index lists no cp313t 2.12 wheel)
        _serve(s, {"2.14.1": ["cp312", "cp314t"], "2.12.1": ["cp312"], "2.11.0": ["cp312", "cp313t"]},
               {"0.29.1": ["cp312", "cp314t"], "0.27.1": ["cp312"], "0.26.0": ["cp312", "cp313t"]})
        rec = _live(s, db, rtx4090("3.13t"))
        assert rec.pytorch.packages[:2] == ("torch==2.11.0", "torchvision==0.26.0")
        # and a 3.12 machine on the first mirror gets the newest patch
        _serve(s, {"2.14.1": ["cp312"], "2.12.1": ["cp312"], "2.12.0": ["cp312", "cp313t"]}, {"0.29.1": ["cp312"], "0.27.1": ["cp312"]})
        assert _live(s, db, rtx4090("3.12")).pytorch.version == "2.14.1"
    finally:
        s.close()
