"""Diagnosis matches name the rules.json template of their root cause and fix (a code) and the figures
filled into it (params), so the GUI can say them in another language: over the real error fixtures,
with no facts and with each demo machine's facts, the English template filled with the params is
exactly the engine's sentence."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from app.detect import detect
from app.diagnose import diagnose, load_rules
from app.diagnose.engine import text_template
from app.diagnose.model import Diagnosis, Match
from app.paths import demo_snapshots
from app.system import SnapshotSystem

ERRORS = Path(__file__).resolve().parent.parent / "fixtures" / "errors"
FIELD = re.compile(r"\{([a-z_]+)\}")


def fill(template: str, params: dict[str, str]) -> str:
    return FIELD.sub(lambda m: params[m.group(1)], template)


def _machines():
    out = [("text-only", None)]
    for snap in demo_snapshots():
        out.append((snap.stem, detect(SnapshotSystem(json.loads(snap.read_text(encoding="utf-8"))))))
    return out


@pytest.fixture(scope="module")
def matches() -> list[tuple[str, Match]]:
    out = []
    for machine, facts in _machines():
        for f in sorted(ERRORS.glob("*.txt")):
            d = diagnose(f.read_text(encoding="utf-8", errors="replace"), facts)
            out += [(f"{machine}/{f.name}", m) for m in d.matches]
    return out


def test_every_rule_sentence_is_its_template_filled_with_its_params(matches):
    codes = set()
    for where, m in matches:
        for name, code, english in (("root_cause", m.root_cause_code, m.root_cause), ("fix", m.fix_code, m.fix)):
            assert code, (where, m.rule, name)
            if code.startswith("oom."):  # an OOM verdict's own sentence (app.diagnose.oom.TEXTS, in the catalogue)
                from app import messages

                tmpl = messages.template(f"diagnose.{code}.{name}", "en")
            else:
                tmpl = text_template(code, name)
            assert tmpl, (where, code)
            assert set(FIELD.findall(tmpl)) <= set(m.params), (where, code, m.params)
            assert fill(tmpl, m.params) == english, (where, code)
            assert all(isinstance(v, str) for v in m.params.values())
            codes.add(code)
    rb = load_rules()
    # every rule met in the fixtures, at least one subcode and the WSL redirect
    assert len({c.split("/")[0].split("@")[0] for c in codes}) >= 25, sorted(codes)
    assert any("/" in c for c in codes) and any("@" in c for c in codes), sorted(codes)
    # redirects of one rule are told apart by their predicate
    for r in rb.rules:
        whens = [red["when"] for red in r.redirect]
        assert len(whens) == len(set(whens)), r.id


def test_codes_survive_json_and_old_diagnoses_load(matches):
    _w, m = next((w, m) for w, m in matches if m.params)
    assert Match.from_json(m.to_json()) == m
    data = m.to_json()
    for k in ("root_cause_code", "fix_code", "params"):
        data.pop(k)
    old = Match.from_json(data)
    assert old.root_cause == m.root_cause and old.root_cause_code == "" and old.params == {}
    d = Diagnosis.loads(Diagnosis(matches=(m,)).dumps())
    assert d.matches[0] == m


def test_unknown_codes_have_no_template():
    assert text_template("no_such_rule", "root_cause") is None
    assert text_template("", "fix") is None
    assert text_template("nki_no_kernel_image/no_such_subcode", "fix") is None
    assert text_template("nki_no_kernel_image", "excerpt") is None
    assert text_template("nki_no_kernel_image/extension_lacks_arch", "fix").startswith("Rebuild the extension")
