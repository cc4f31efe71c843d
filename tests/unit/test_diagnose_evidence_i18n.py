"""Evidence lines in the user's language (issue 25 item 6): every evidence line the diagnosis gives has a code,
the catalogue's English sentence for it is the engine's English exactly (so the two cannot drift apart), the
Chinese sentence exists and keeps every figure, and the command line and the report say it in Chinese."""
from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

import pytest

from app import messages
from app.detect import detect
from app.diagnose import diagnose
from app.paths import demo_snapshots
from app.system import SnapshotSystem

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
CJK = re.compile(r"[\u4e00-\u9fff]")
TEXTS = sorted(p for d in ("errors", "errors_heldout_j", "errors_heldout_k", "errors_heldout_h") for p in (FIXTURES / d).glob("*.txt"))


@lru_cache(maxsize=None)
def _facts(name: str):
    snap = next(p for p in demo_snapshots() if p.name == name)
    return detect(SnapshotSystem(json.loads(snap.read_text(encoding="utf-8")), name=snap.name))


def _body(p: Path) -> str:
    return "\n".join(x for x in p.read_text(encoding="utf-8").split("\n") if not x.startswith("# "))


@lru_cache(maxsize=1)
def _evidence() -> list:
    """Every evidence line of every text, read alone and against each demo machine's facts."""
    out = []
    facts = [None] + [_facts(p.name) for p in demo_snapshots()]
    for p in TEXTS:
        text = _body(p)
        for f in facts:
            for m in diagnose(text, f).matches:
                out += [(p.name, m.rule, e) for e in m.evidence]
    return out


def test_every_evidence_line_has_a_code_and_its_english_is_the_catalogues():
    seen = _evidence()
    assert len(seen) > 500
    codes = set()
    for name, rule, e in seen:
        assert e.code, (name, rule, e.message)
        codes.add(e.code)
        english = messages.render("diagnose", f"evidence.{e.code}", e.params, "en", fallback="<none>")
        assert english == e.message, (name, rule, e.code)
    assert len(codes) >= 40, sorted(codes)


def test_every_code_has_a_chinese_sentence_that_keeps_the_figures():
    for _name, _rule, e in _evidence():
        zh, used = messages.render_strict("diagnose", f"evidence.{e.code}", e.params, "zh_CN")
        assert set(e.params) <= used | {k for k, v in e.params.items() if not v}, (e.code, set(e.params) - used)
        words = re.sub(r"\{\w+\}", "", messages.template(f"diagnose.evidence.{e.code}", "en") or "")
        if re.search(r"[a-z]{3,} [a-z]{3,}", words, re.IGNORECASE):  # a sentence, not a bare VARIABLE={v}
            assert CJK.search(zh), (e.code, zh)


def test_the_catalogue_holds_every_code_the_engine_names():
    """A code written in app/diagnose (code="...") has its English and Chinese sentence; the built ones too."""
    src = "".join(p.read_text(encoding="utf-8") for p in (Path(messages.__file__).parent / "diagnose").glob("*.py"))
    named = set(re.findall(r'\bcode="([a-z0-9_]+)"', src))
    built = {f"driver_{s}" for s in ("not_installed", "not_loaded", "no_communication", "nvml_failed", "mismatch")} | \
        {f"wheel_fits_{w}{h}" for w in ("machine", "gpu") for h in ("", "_has")} | \
        {f"{c}_{s}" for c in ("nouveau", "secure_boot") for s in ("on", "off")}
    for code in named | built:
        for lang in ("en", "zh_CN"):
            assert messages.template(f"diagnose.evidence.{code}", lang), (code, lang)


@pytest.mark.parametrize("name", ["dll_shm_comfy_portable.txt", "nvml_mismatch_reboot_koelsch.txt", "dkms_zen_missing_headers.txt"])
def test_the_command_says_the_evidence_in_chinese(capsys, name):
    from app.cli import main

    f = FIXTURES / "errors_heldout_k" / name
    main(["diagnose", "--no-detect", "--text-file", str(f), "--json"])
    d = json.loads(capsys.readouterr().out)
    main(["diagnose", "--no-detect", "--text-file", str(f), "--lang", "zh_CN"])
    out = capsys.readouterr().out
    lines = [e for m in d["matches"] for e in m["evidence"]]
    assert lines
    for e in lines:
        assert e["message"] not in out, e
        assert messages.evidence_text(e, "zh_CN") in out


def test_the_report_says_the_evidence_in_its_language():
    from app.report import words

    e = {"code": "text_says", "params": {"excerpt": "CUDA error"}, "message": "The text says: \u201cCUDA error\u201d"}
    token = words.LANG.set("zh_CN")
    try:
        assert words.evidence(e) == "文本中写道：\u201cCUDA error\u201d"
    finally:
        words.LANG.reset(token)
    assert words.evidence(e) == e["message"]


def test_out_of_memory_answers_in_chinese(capsys):
    """The OOM analysis's own sentences (its verdict replaces the rule's) come from the catalogue too."""
    from app.cli import main
    from app.diagnose.oom import TEXTS

    for code, (cause, fix) in TEXTS.items():
        for which, english in (("root_cause", cause), ("fix", fix)):
            assert messages.template(f"diagnose.oom.{code}.{which}", "en") == english
            assert CJK.search(messages.template(f"diagnose.oom.{code}.{which}", "zh_CN") or ""), (code, which)
    seen = 0
    for f in sorted((FIXTURES / "errors").glob("oom_*.txt")):
        main(["diagnose", "--no-detect", "--text-file", str(f), "--json"])
        d = json.loads(capsys.readouterr().out)
        main(["diagnose", "--no-detect", "--text-file", str(f), "--lang", "zh_CN"])
        out = capsys.readouterr().out
        for m in d["matches"]:
            if m["category"] == "oom":
                assert m["root_cause"] not in out and m["fix"] not in out, f.name
                seen += 1
    assert seen >= 5
