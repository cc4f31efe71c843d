"""Live indexes, data as fallback: recommend_live() against a local HTTP server (127.0.0.1) that
speaks the PyTorch index's PEP 503 pages, PyPI's JSON and an apt Packages.gz index — never the
internet. Formats: tests/fixtures/live/SOURCE.md."""
from __future__ import annotations

import datetime as dt
import gzip
import json

import pytest

from app.choices import Choices, Mirrors
from app.compat import live
from app.recommend import recommend_live
from app.compat.db import load_db
from app.facts import DriverInfo, Facts, Gpu, OsInfo, PythonEnv
from tests.conftest import FIXTURES
from tests.unit.live_server import Server, live_outputs, pypi_json, serve_pytorch, simple_page, wheels

TODAY = dt.date(2026, 12, 1)  # the pinned data is of 2026.11.29


@pytest.fixture()
def server():
    s = Server()
    yield s
    s.close()


@pytest.fixture(scope="module")
def db():
    return load_db()  # the pinned copy (tests/fixtures/compat-pinned): torch 2.14.0 newest


def h200(py="3.12", arch="x86_64", driver="595.71.05"):
    return Facts(os=OsInfo(platform="linux", id="ubuntu", version_id="24.04", arch=arch, package_manager="apt"),
                 driver=DriverInfo(state="ok", version=driver, kernel_module="open"),
                 gpus=(Gpu(index=0, name="NVIDIA H200", compute_capability="9.0"),),
                 python=PythonEnv(path="/usr/bin/python3", version=py))


def run(s: Server, db, facts, choices=None, tmp_path=None, pypi=True, **kw):
    ch = choices or Choices()
    ch = ch.replace(mirrors=Mirrors(pytorch_index_url=s.url + "/whl"))
    f = live.Fetcher(cache=tmp_path / "cache" if tmp_path else None, timeout=2.0)
    rec, rep = recommend_live(facts, db, ch, fetcher=f, pypi_json=(s.url + "/pypi") if pypi else None, today=TODAY, enabled=True, **kw)
    return rec, rep, f


def codes(rec):
    return {w.code for w in rec.warnings}


# ---------------------------------------------------------------- parsing real pages


def test_the_real_cu130_page_parses_with_its_free_threaded_wheels():
    ws = live.parse_simple((FIXTURES / "live" / "pytorch-cu130-torch-2.9.1.html").read_bytes())
    assert len(ws) == 21 and {w.version for w in ws} == {"2.9.1"} and {w.local for w in ws} == {"cu130"}
    assert sum(w.fits("cp313t", "linux") for w in ws) == 1 and sum(w.fits("cp313", "linux") for w in ws) == 1
    assert sum(w.fits("cp312", "linux_aarch64") for w in ws) == 1 and sum(w.fits("cp314t", "windows") for w in ws) == 1
    assert not any(w.fits("cp315", "linux") for w in ws)


def test_pep691_json_and_yanked_files():
    body = json.dumps({"meta": {"api-version": "1.1"}, "name": "torch", "files": [
        {"filename": "torch-2.14.1+cu130-cp312-cp312-manylinux_2_28_x86_64.whl", "yanked": False},
        {"filename": "torch-2.14.2+cu130-cp312-cp312-manylinux_2_28_x86_64.whl", "yanked": "broken build"}]})
    ws = live.parse_simple(body)
    assert [w.fits("cp312", "linux") for w in ws] == [True, False]


def test_packages_index_names_toolkits_and_branches():
    text = ("Package: cuda-toolkit-13-2\nVersion: 13.2.1-1\nArchitecture: amd64\n\n"
            "Package: nvidia-driver-pinning-580\nVersion: 580.95.05-1\nArchitecture: all\n\n"
            "Package: cuda-drivers-595\nVersion: 595.71.05-1\nArchitecture: amd64\n\nPackage: cuda-toolkit-config-common\n\n")
    assert live.parse_packages_index(gzip.compress(text.encode())) == ({"13.2"}, {"580", "595"})


# ---------------------------------------------------------------- the solve against the index


def test_the_newest_patch_seen_is_pinned_with_its_torchvision(server, db, tmp_path):
    serve_pytorch(server, {"cu130": ["2.14.0", "2.14.1", "2.14.2"], "cu126": ["2.14.0", "2.14.1", "2.14.2"], "cu132": ["2.14.2"]},
                  {"cu130": ["0.29.0", "0.29.1", "0.29.2"], "cu126": ["0.29.2"], "cu132": ["0.29.2"]})
    server.pages["/pypi/torch/json"] = pypi_json("torch", ["2.14.0", "2.14.1", "2.14.2"])
    server.pages["/pypi/torchvision/json"] = pypi_json("torchvision", ["0.29.0", "0.29.1", "0.29.2"])
    rec, rep, f = run(server, db, h200(), tmp_path=tmp_path)
    assert rec.pytorch.packages == ("torch==2.14.2", "torchvision==0.29.2") and rec.pytorch.index == "cu130"
    assert {"index_newer_patch", "index_confirmed"} <= codes(rec) and "index_unreachable" not in codes(rec)
    pages = [h for h in server.hits if not h.endswith(".metadata")]
    assert len(pages) == 8 and rep.cache == "cold"  # 3 variants x (torch, torchvision) + PyPI's 2 JSON documents
    assert rep.requests == len(server.hits) and 0 < rep.requests - 8 <= 4  # + the newest torchvisions' metadata
    # warm: the on-disk cache answers, no request
    before = len(server.hits)
    rec2, rep2, _ = run(server, db, h200(), tmp_path=tmp_path)
    assert rec2.pytorch.packages == rec.pytorch.packages and rep2.requests == 0 and rep2.cache == "warm" and len(server.hits) == before


def test_a_torch_without_its_torchvision_is_never_a_broken_pair(server, db, tmp_path):
    # the index has torch 2.14.1 but no torchvision 0.29.x for cp312: the newest complete set is 2.13
    serve_pytorch(server, {"cu130": ["2.13.0", "2.14.1"], "cu126": ["2.13.0", "2.14.1"], "cu132": ["2.13.0", "2.14.1"]},
                  {"cu130": ["0.28.0"], "cu126": ["0.28.0"], "cu132": ["0.28.0"]})
    rec, _, _ = run(server, db, h200(), tmp_path=tmp_path, pypi=False)
    assert rec.pytorch.packages[0].startswith("torch==2.13") and rec.pytorch.packages[1] == "torchvision==0.28.0"
    assert "torchvision_not_released" in codes(rec)
    alone, _, _ = run(server, db, h200(), Choices(want_torchvision=False), tmp_path=tmp_path, pypi=False)
    assert alone.pytorch.packages == ("torch==2.14.1",) and "torch_without_torchvision" in codes(alone)


def test_a_release_newer_than_the_data_is_named_not_chosen(server, db, tmp_path):
    serve_pytorch(server, {"cu130": ["2.14.0"], "cu126": ["2.14.0"], "cu132": ["2.14.0", "2.15.0"]},
                  {"cu130": ["0.29.0"], "cu126": ["0.29.0"], "cu132": ["0.29.0"]})
    server.pages["/pypi/torch/json"] = pypi_json("torch", ["2.14.0", "2.15.0"])
    server.pages["/pypi/torchvision/json"] = pypi_json("torchvision", ["0.29.0"])
    rec, _, _ = run(server, db, h200(), tmp_path=tmp_path)
    assert rec.pytorch.version == "2.14.0"
    w = next(w for w in rec.warnings if w.code == "torch_newer_than_data")
    assert w.params["version"] == "2.15.0" and "not in the compatibility data" in w.message
    alt = next(a for a in rec.alternatives if a.torch_version == "2.15.0")
    assert alt.index == "cu132" and "not in the compatibility data yet" in alt.reason and alt.index_url.endswith("/whl/cu132")


def test_a_free_threaded_python_gets_the_release_whose_wheel_is_there(server, db, tmp_path):
    def pages(t214):
        for variant in ("cu126", "cu130", "cu132"):
            old = variant != "cu132"
            server.pages[f"/whl/{variant}/torch/"] = simple_page("torch", variant, wheels("torch", ["2.14.0"], variant, t214)
                                                                 + (wheels("torch", ["2.11.0"], variant, ["cp313t"]) if old else []))
            server.pages[f"/whl/{variant}/torchvision/"] = simple_page("torchvision", variant, wheels("torchvision", ["0.29.0"], variant, t214)
                                                                       + (wheels("torchvision", ["0.26.0"], variant, ["cp313t"]) if old else []))
    pages(["cp314t"])  # as published: 2.14 has cp314t wheels, 2.11 the last cp313t ones
    rec, _, _ = run(server, db, h200(py="3.13t"), pypi=False)
    assert rec.pytorch.python == "3.13t" and rec.pytorch.packages[:2] == ("torch==2.11.0", "torchvision==0.26.0")
    assert "cp313t" in next(w for w in rec.warnings if w.code == "index_confirmed").message
    pages(["cp314t", "cp313t"])  # an index that does carry 2.14 cp313t wheels: the wheel seen decides, not the data
    rec, _, _ = run(server, db, h200(py="3.13t"), pypi=False)
    assert rec.pytorch.version == "2.14.0"


def test_unreachable_index_answers_from_the_data_and_says_how_old_it_is(server, db, tmp_path):
    server.down = True
    rec, rep, _ = run(server, db, h200(), tmp_path=tmp_path)
    w = next(w for w in rec.warnings if w.code == "index_unreachable")
    assert w.params["age"] == "2" and "2026.11.29" in w.message and rec.pytorch.version == "2.14.0"
    assert "compat_data_stale" not in codes(rec) and rep.errors
    ch = Choices().replace(mirrors=Mirrors(pytorch_index_url=server.url + "/whl"))
    later, _ = recommend_live(h200(), db, ch, fetcher=live.Fetcher(timeout=1.0), pypi_json=None, today=dt.date(2027, 6, 1), enabled=True)
    stale = next(w for w in later.warnings if w.code == "compat_data_stale")
    assert stale.params["age"] == "184" and stale.severity == "warning"


def test_a_cached_copy_answers_when_the_index_goes_away(server, db, tmp_path):
    serve_pytorch(server, {"cu130": ["2.14.1"], "cu126": ["2.14.1"], "cu132": ["2.14.1"]},
                  {"cu130": ["0.29.1"], "cu126": ["0.29.1"], "cu132": ["0.29.1"]})
    run(server, db, h200(), tmp_path=tmp_path, pypi=False)
    server.down = True
    f = live.Fetcher(cache=tmp_path / "cache", ttl=0.0, timeout=1.0)  # expired: asks, fails, uses the old copy
    ch = Choices().replace(mirrors=Mirrors(pytorch_index_url=server.url + "/whl"))
    rec, rep = recommend_live(h200(), db, ch, fetcher=f, pypi_json=None, today=TODAY, enabled=True)
    assert rec.pytorch.version == "2.14.1" and "index_cached_copy" in codes(rec) and rep.requests == 7  # 6 pages + 1 metadata


def test_reads_go_through_the_configured_proxy(server, db, tmp_path):
    serve_pytorch(server, {"cu130": ["2.14.1"], "cu126": ["2.14.1"], "cu132": ["2.14.1"]},
                  {"cu130": ["0.29.1"], "cu126": ["0.29.1"], "cu132": ["0.29.1"]})
    from app.config import requests_kwargs

    # the index host does not exist: only the proxy (this server) can answer, and it gets absolute-URI requests
    m = Mirrors(pytorch_index_url="http://pytorch-mirror.invalid/whl", https_proxy=server.url)
    f = live.Fetcher(requests_kwargs=requests_kwargs(m), timeout=2.0)
    rec, rep = recommend_live(h200(), db, Choices(mirrors=m), fetcher=f, pypi_json=None, today=TODAY, enabled=True)
    assert rec.pytorch.version == "2.14.1" and all(h.startswith("http://pytorch-mirror.invalid/whl/") for h in server.hits)
    assert len(server.hits) == 7  # 6 pages + the metadata of torchvision 0.29.1


def test_live_reads_are_off_in_the_test_suite_by_default(db):
    f = live.Fetcher(timeout=0.5)
    rec, rep = recommend_live(h200(), db, Choices(), fetcher=f, today=TODAY)
    assert f.requests == 0 and not rep.enabled and "index_not_checked" in codes(rec)


def test_nvidia_repository_index_says_which_branches_exist(server, db, tmp_path):
    serve_pytorch(server, {"cu130": ["2.14.0"], "cu126": ["2.14.0"], "cu132": ["2.14.0"]},
                  {"cu130": ["0.29.0"], "cu126": ["0.29.0"], "cu132": ["0.29.0"]})
    stanzas = "".join(f"Package: {p}\nVersion: 1\nArchitecture: amd64\n\n" for p in
                      ("cuda-toolkit-12-8", "cuda-toolkit-12-9", "nvidia-driver-pinning-575", "cuda-drivers-575"))
    server.pages["/repos/debian12/x86_64/Packages.gz"] = gzip.compress(stanzas.encode())
    facts = Facts(os=OsInfo(platform="linux", id="debian", version_id="12", arch="x86_64", package_manager="apt"),
                  driver=DriverInfo(state="not_installed"), gpus=(Gpu(index=0, name="NVIDIA H200", compute_capability="9.0"),),
                  python=PythonEnv(path="/usr/bin/python3", version="3.12"))
    ch = Choices(want_toolkit=True).replace(mirrors=Mirrors(pytorch_index_url=server.url + "/whl", nvidia_repo_url=server.url + "/repos"))
    rec, rep = recommend_live(facts, db, ch, fetcher=live.Fetcher(timeout=2.0), pypi_json=None, today=TODAY, enabled=True)
    assert rec.driver.branch == "580" and rec.driver.package_repo == "nvidia"
    w = next(w for w in rec.warnings if w.code == "driver_branch_not_in_repo")
    assert w.params["branch"] == "580" and "R575" in w.params["branches"]
    assert rec.cuda_toolkit.version in ("12.8", "12.9")  # only what the repository index carries
    assert "/repos/debian12/x86_64/Packages.gz" in server.hits


def test_the_shared_live_scenarios_reach_every_live_code():
    from app.recommend import WARNING_CODES

    live_codes = {"index_no_wheel", "index_newer_patch", "torch_newer_than_data", "index_cached_copy", "index_partly_read",
                  "index_unreachable", "index_not_checked", "compat_data_stale", "driver_branch_not_in_repo",
                  "nvidia_repo_checked", "nvidia_repo_unreachable", "index_confirmed"}
    assert live_codes <= WARNING_CODES
    seen = {w.code for _i, _f, _c, rec in live_outputs() for w in rec.warnings}
    assert live_codes - seen == set()


def test_an_index_that_just_failed_is_not_asked_again_at_once(server, db, tmp_path):
    server.down = True
    ch = Choices().replace(mirrors=Mirrors(pytorch_index_url=server.url + "/whl"))
    f1 = live.Fetcher(cache=tmp_path / "c", timeout=1.0)
    r1, rep1 = recommend_live(h200(), db, ch, fetcher=f1, pypi_json=None, today=TODAY, enabled=True)
    assert rep1.requests == 6 and "index_unreachable" in codes(r1)
    hits = len(server.hits)
    f2 = live.Fetcher(cache=tmp_path / "c", timeout=1.0)
    r2, rep2 = recommend_live(h200(), db, ch, fetcher=f2, pypi_json=None, today=TODAY, enabled=True)
    assert rep2.requests == 0 and len(server.hits) == hits and "index_unreachable" in codes(r2)
    server.down = False
    serve_pytorch(server, {"cu130": ["2.14.1"], "cu126": ["2.14.1"], "cu132": ["2.14.1"]},
                  {"cu130": ["0.29.1"], "cu126": ["0.29.1"], "cu132": ["0.29.1"]})
    f3 = live.Fetcher(cache=tmp_path / "c", timeout=1.0, fail_ttl=0.0)  # past the pause: asked again, and read
    r3, rep3 = recommend_live(h200(), db, ch, fetcher=f3, pypi_json=None, today=TODAY, enabled=True)
    assert rep3.requests == 7 and r3.pytorch.version == "2.14.1"


def test_garbage_pages_never_break_the_answer(server, db, tmp_path):
    for variant in ("cu126", "cu130", "cu132"):
        server.pages[f"/whl/{variant}/torch/"] = b"\x00\xff<html><a href='x'>not-a-wheel</a><a>torch-2.14.1+cu130-cp312-cp312-"
        server.pages[f"/whl/{variant}/torchvision/"] = b'{"files": [{"filename": 3}, "junk"]}'
    server.pages["/pypi/torch/json"] = b"[1, 2"
    rec, rep, _ = run(server, db, h200(), tmp_path=tmp_path)
    # a page that names no wheel at all is no index page (a portal, an error page): the data answers, and says so
    assert rec.pytorch.version == "2.14.0" and "index_unreachable" in codes(rec) and "index_no_wheel" not in codes(rec)
    assert rep.requests == 8
