"""The live reader against mirrors as they really are, served by a local HTTP server: a PyPI-style mirror
(no local tags), a CPU-only mirror (real `+cpu` names, %2B hrefs, no cu* pages), a mirror with a newer torch
patch but no torchvision for it (pairs from the torchvision wheels' PEP 658 metadata), and hostile pages
(markup and newlines in names, a drip, a redirect loop, a gzip bomb) within the total deadline."""
from __future__ import annotations

import datetime as dt
import time

import pytest

from app.choices import Choices, Mirrors
from app.compat import live
from app.recommend import recommend_live
from app.compat.db import load_db
from app.facts import DriverInfo, Facts, Gpu, OsInfo, PythonEnv
from tests.unit.https_server import Hostile, gzip_bomb
from tests.unit.live_server import simple_page, tv_metadata

TODAY = dt.date(2026, 12, 1)
LINUX = "manylinux_2_28_x86_64"


@pytest.fixture(scope="module")
def db():
    return load_db()


@pytest.fixture()
def srv():
    s = Hostile()
    yield s
    s.close()


def h200(py="3.12", driver="580.95.05"):
    return Facts(os=OsInfo(platform="linux", id="ubuntu", version_id="24.04", arch="x86_64", package_manager="apt"),
                 driver=DriverInfo(state="ok", version=driver, kernel_module="open"),
                 gpus=(Gpu(index=0, name="NVIDIA H200", compute_capability="9.0"),), python=PythonEnv(path="/usr/bin/python3", version=py))


def solve(s, db, facts, choices=None, **kw):
    ch = (choices or Choices()).replace(mirrors=Mirrors(pytorch_index_url=s.url + "/whl"))
    f = live.Fetcher(timeout=kw.pop("timeout", 2.0))
    t0 = time.monotonic()
    rec, rep = recommend_live(facts, db, ch, fetcher=f, pypi_json=None, today=TODAY, enabled=True, **kw)
    return rec, rep, time.monotonic() - t0


def codes(rec):
    return {w.code for w in rec.warnings}


def page(s, variant, project, names, meta: dict | None = None):
    """A PEP 503 page of exactly these file names; `meta` name -> METADATA served as `<file>.metadata`."""
    s.pages[f"/whl/{variant}/{project}/"] = simple_page(project, variant, names)
    for n, body in (meta or {}).items():
        s.pages[f"/whl/{variant}/{n.replace('+', '%2B')}.metadata"] = body


def test_a_pypi_style_mirror_without_local_tags_gives_the_build_it_lists(srv, db):
    # the cu130 page lists PyPI's plain 2.11.0 wheels (no +cu130); nothing else is mirrored (404s)
    tv = "torchvision-0.26.0-cp312-cp312-" + LINUX + ".whl"
    page(srv, "cu130", "torch", ["torch-2.11.0-cp312-cp312-" + LINUX + ".whl"])
    page(srv, "cu130", "torchvision", [tv], {tv: tv_metadata("2.11.0", "0.26.0")})
    rec, rep, _ = solve(srv, db, h200())
    assert rec.pytorch.packages[:2] == ("torch==2.11.0", "torchvision==0.26.0") and rec.pytorch.index == "cu130"
    assert rec.pytorch.index_url == srv.url + "/whl/cu130"
    # the build ran on this GPU: never "cannot use the GPU here"
    assert "plain_pip_wrong_build" not in codes(rec) and not any("cannot use the GPU" in w.message for w in rec.warnings)


def test_a_cpu_only_mirror_is_read_for_the_cpu_build_the_user_chose(srv, db):
    names = [f"torch-2.13.0+cpu-cp311-cp311-{LINUX}.whl", "torch-2.13.0+cpu-cp311-cp311-win_amd64.whl"]
    page(srv, "cpu", "torch", names)  # hrefs %2B-encoded, as download.pytorch.org writes them
    assert b"%2Bcpu" in srv.pages["/whl/cpu/torch/"]
    rec, rep, _ = solve(srv, db, h200("3.11"), Choices(torch_version="2.13.0", torch_variant="cpu", want_torchvision=False))
    assert rec.pytorch.packages == ("torch==2.13.0",) and rec.pytorch.index == "cpu" and not rec.refused
    assert "/whl/cpu/torch/" in srv.hits and not any(h.startswith("/whl/cu") for h in srv.hits)
    # a GPU machine on the same mirror, no choice made: the CPU build it carries, and why
    rec2, _, _ = solve(srv, db, h200("3.11"), Choices(want_torchvision=False))
    assert rec2.pytorch.index == "cpu" and rec2.pytorch.version == "2.13.0" and "index_gpu_build_not_mirrored" in codes(rec2)
    w = next(w for w in rec2.warnings if w.code == "index_gpu_build_not_mirrored")
    assert w.params["variant"] in ("cu126", "cu130", "cu132") and "no_release_for_gpu" not in codes(rec2)


def test_torchvision_pairs_from_its_wheel_metadata_never_across_it(srv, db):
    torch = [f"torch-{v}+cu130-cp312-cp312-{LINUX}.whl" for v in ("2.14.1", "2.14.2")]
    tv = f"torchvision-0.29.1+cu130-cp312-cp312-{LINUX}.whl"
    page(srv, "cu130", "torch", torch)
    page(srv, "cu130", "torchvision", [tv], {tv: tv_metadata("2.14.1+cu130", "0.29.1")})
    rec, _, _ = solve(srv, db, h200())
    assert rec.pytorch.packages == ("torch==2.14.1", "torchvision==0.29.1")
    # the metadata decides, not the patch numbers: a torchvision built for 2.14.2 pairs with 2.14.2
    srv.pages[f"/whl/cu130/{tv.replace('+', '%2B')}.metadata"] = tv_metadata("2.14.2+cu130", "0.29.1")
    rec, _, _ = solve(srv, db, h200())
    assert rec.pytorch.packages == ("torch==2.14.2", "torchvision==0.29.1")


def test_markup_and_newlines_in_file_names_never_become_versions(srv, db):
    bad = ['torch-2.14.9"><script>alert(1)</script>+cu130-cp312-cp312-' + LINUX + '.whl',
           "torch-2.14.8\n+cu130-cp312-cp312-" + LINUX + ".whl", "torch-2.14.7;rm -rf+cu130-cp312-cp312-" + LINUX + ".whl",
           "torch-2.14.6+cu130<b>-cp312-cp312-" + LINUX + ".whl", "torch-2.14.x+cu130-cp312-cp312-" + LINUX + ".whl"]
    good = f"torch-2.14.1+cu130-cp312-cp312-{LINUX}.whl"
    body = "<html><body>" + "".join(f'<a href="/whl/cu130/{n}">{n}</a>' for n in bad) + f'<a href="/whl/cu130/{good}">{good}</a></body></html>'
    ws = live.parse_simple(body)
    assert [w.version for w in ws] == ["2.14.1"]
    assert all(live.valid_version(v) for v in ("2.14.1", "2.15.0rc1", "2.14.1+cu130", "1!2.0.post1.dev3"))
    assert not any(live.valid_version(v) for v in ("2.14.1\n", "<2.14>", "2.14.1;x", "2.14.1+cu13 0", "", "v" * 80))
    srv.pages["/whl/cu130/torch/"] = body.encode()
    page(srv, "cu130", "torchvision", [f"torchvision-0.29.1+cu130-cp312-cp312-{LINUX}.whl"])
    rec, _, _ = solve(srv, db, h200())
    assert rec.pytorch.packages[0] == "torch==2.14.1" and all(c.isalnum() or c in "=.+" for c in rec.pytorch.command.split()[-4])


def test_a_dripping_index_is_cut_at_the_total_deadline(srv, db):
    for v in ("cu126", "cu130", "cu132"):
        srv.drip(f"/whl/{v}/torch/", every_s=0.5)
        srv.drip(f"/whl/{v}/torchvision/", every_s=0.5, headers_too=True)
    rec, rep, took = solve(srv, db, h200(), timeout=30.0)  # a per-read timeout far above the deadline
    assert took <= live.LIVE_DEADLINE_S + 1.0 and live.LIVE_DEADLINE_S <= 5.0
    assert rec.pytorch.version and "index_unreachable" in codes(rec)


def test_a_redirect_loop_and_a_gzip_bomb_are_errors_the_data_answers_for(srv, db, monkeypatch):
    srv.redirect("/whl/cu130/torch/", "/whl/cu130/torch/again/")
    srv.redirect("/whl/cu130/torch/again/", "/whl/cu130/torch/")
    srv.encoded("/whl/cu126/torch/", gzip_bomb(64 << 20))  # 64 MiB of nothing in ~64 KiB, past the 16 MiB page cap
    page(srv, "cu132", "torch", [f"torch-2.14.1+cu132-cp312-cp312-{LINUX}.whl"])
    rec, rep, took = solve(srv, db, h200("3.12", "595.71.05"))
    assert took < 5 and any("redirect" in e for e in rep.errors) and any("decompresses" in e for e in rep.errors)
    assert rec.pytorch.version and "index_partly_read" in codes(rec)
    # NVIDIA's Packages.gz as a bomb: decompressed with a cap, not into memory
    monkeypatch.setattr(live, "MAX_PACKAGES", 8 << 20)
    assert live.parse_packages_index(gzip_bomb(64 << 20)) == (set(), set())


def test_torchaudio_is_pinned_only_where_the_mirror_lists_it(srv, db):
    """torch 2.11.0 pins torchaudio 2.11.0 (its last release); a mirror of the H200's venv has torch and torchvision only:
    the pin leaves torchaudio out instead of a pin pip 404s on (found by bench/h200_mirror_e2e.py)."""
    page(srv, "cu130", "torch", [f"torch-2.11.0+cu130-cp312-cp312-{LINUX}.whl"])
    page(srv, "cu130", "torchvision", [f"torchvision-0.26.0+cu130-cp312-cp312-{LINUX}.whl"])
    rec, _, took = solve(srv, db, h200())
    assert rec.pytorch.packages == ("torch==2.11.0", "torchvision==0.26.0") and took < 5.0
    assert "/whl/cu130/torchaudio/" in srv.hits
    page(srv, "cu130", "torchaudio", [f"torchaudio-2.11.0+cu130-cp312-cp312-{LINUX}.whl"])
    rec, _, _ = solve(srv, db, h200())
    assert rec.pytorch.packages == ("torch==2.11.0", "torchvision==0.26.0", "torchaudio==2.11.0")
