"""A chosen build that newer releases do not carry for these GPUs (`--variant cu118` on an H200: PyTorch 2.8 dropped
cu118) moves the release back; the answer says so, as a warning in both languages, naming the newest release with
that build and why the newer ones do not fit (not built so for this OS, or that build has no kernels for a GPU).
The expectations are read from the bundled compatibility data, never typed in: the data can grow."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from app import messages
from app.choices import Choices
from app.compat import load_db
from app.compat.db import vkey
from app.recommend import recommend
from tests.unit.test_recommend_machines import H200, V100, machine

CJK = "\u4e00"


@pytest.fixture(scope="module")
def db():
    return load_db(use_user_bundle=False)


def _newest_with(db, variant: str, cc: str, python: str) -> str:
    return next(r.version for r in db.for_python(python).torch_releases if r.torchvision and r.supports_python(python)
                and (v := db.for_python(python).variant(r.release, variant, "linux")) is not None and v.covers(cc) is not None)


def _warning(rec, code="variant_holds_back"):
    return next((w for w in rec.warnings if w.code == code), None)


def test_cu118_on_an_h200_says_which_release_has_it_and_why_the_newer_ones_do_not(db):
    facts = machine("u2404", [H200], "580.159.04", "3.12")
    plain = recommend(facts, db, Choices())
    rec = recommend(facts, db, Choices(torch_variant="cu118"))
    newest_cu118 = _newest_with(db, "cu118", "9.0", "3.12")
    assert rec.pytorch.index == "cu118" and rec.pytorch.version == newest_cu118
    assert vkey(plain.pytorch.version) > vkey(newest_cu118)  # the variant really moved the release
    w = _warning(rec)
    assert w is not None and w.severity == "warning"
    assert w.params["torch"] == newest_cu118 and w.params["newest"] == plain.pytorch.version
    assert w.params["why_code"] == "variant_why_not_built"  # cu118 stops at 2.7: the newer releases have no cu118 build
    assert newest_cu118 in w.message and plain.pytorch.version in w.message and "cu118" in w.message
    zh = messages.render("rec", w.code, w.params, "zh_CN")
    assert CJK <= max(zh) and newest_cu118 in zh and plain.pytorch.version in zh
    # the torchvision note must not claim the cu118 release is "the newest complete set" (the held-back release
    # has no cu118 build: torch alone would not get a newer one)
    tv = _warning(rec, "torchvision_not_released")
    assert tv is None or db.variant(db.torch_release(tv.params["newer"]).release, "cu118", "linux") is not None, tv.message


def test_a_build_whose_newer_releases_lack_a_gpus_kernels_names_the_gpu(db):
    facts = machine("u2404", [V100], "580.95.05", "3.12", kernel_module="proprietary")
    rec = recommend(facts, db, Choices(torch_variant="cu128"))
    w = _warning(rec)
    assert w is not None
    got = rec.pytorch.version
    assert got == _newest_with(db, "cu128", "7.0", "3.12")
    lacking = [r.version for r in db.torch_releases if vkey(r.version) > vkey(got) and r.torchvision
               and (v := db.variant(r.release, "cu128", "linux")) is not None and v.covers("7.0") is None]
    assert lacking, "the data no longer has a cu128 build without Volta kernels"
    assert w.params["why_code"] in ("variant_why_no_kernels", "variant_why_both")
    assert "V100" in w.params["gpus"] and all(x in w.message for x in (lacking[-1], "V100"))
    assert "V100" in messages.render("rec", w.code, w.params, "zh_CN")


@pytest.mark.parametrize("choices", [
    Choices(torch_variant="cu130"),  # the build the newest release has: nothing moved
    Choices(torch_variant="cu118", torch_version="2.7.1"),  # the release is pinned too: the user chose it
    Choices(),
])
def test_no_note_when_the_build_moves_nothing(db, choices):
    rec = recommend(machine("u2404", [H200], "580.159.04", "3.12"), db, choices)
    assert _warning(rec) is None


def test_the_cli_says_it_in_english_and_chinese(tmp_path):
    snap = "tests/fixtures/real/h200/snapshot-h200.json"
    out = {}
    for lang in ("en", "zh_CN"):
        r = subprocess.run([sys.executable, "-m", "app", "--lang", lang, "--snapshot", snap, "recommend", "--offline", "--variant", "cu118"],
                           capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stderr
        out[lang] = r.stdout
    assert "(variant_holds_back)" in out["en"] and "newest PyTorch release with a cu118 build" in out["en"]
    assert "--variant cu118" in out["en"]
    line = next(x for x in out["zh_CN"].splitlines() if "(variant_holds_back)" in x)
    assert CJK <= max(line) and "cu118" in line
    js = subprocess.run([sys.executable, "-m", "app", "--json", "--snapshot", snap, "recommend", "--offline", "--variant", "cu118"],
                        capture_output=True, text=True, timeout=120)
    doc = json.loads(js.stdout)
    assert any(w["code"] == "variant_holds_back" for w in doc["warnings"])


def test_the_window_says_it_without_the_flag(db):
    from ui.said import rec_text

    rec = recommend(machine("u2404", [H200], "580.159.04", "3.12"), db, Choices(torch_variant="cu118"))
    w = _warning(rec)
    assert w is not None
    for lang in ("en", "zh_CN"):
        text = rec_text(w.code, w.params, w.message, lang)
        assert "--variant" not in text and rec.pytorch.version in text and w.params["newest"] in text
