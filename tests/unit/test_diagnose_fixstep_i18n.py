"""Every fix step of every rule says its title and its why in English and in 简体中文: the English is
rules.json's (one home), the Chinese the catalogue's, keyed "plan.<rule code>.step.<step id>.title/why"
(FixStep.title_code / why_code, the figures in FixStep.params). Checked on the rules themselves, on
the steps the engine builds for the real error fixtures on each demo machine, on the plan steps a
fix becomes, and on `diagnose --lang zh_CN`'s text."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from app import messages as M
from app.detect import detect
from app.diagnose import diagnose, fix_plan
from app.paths import demo_snapshots, resource
from app.system import SnapshotSystem

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
FIELD = re.compile(r"\{([A-Za-z_][A-Za-z0-9_.]*)\}")
CJK = re.compile(r"[\u4e00-\u9fff]")


def _rule_steps():
    from app.diagnose.rules import all_step_specs

    doc = json.loads(resource("diagnose", "rules.json").read_text(encoding="utf-8"))
    fixes = json.loads(resource("diagnose", "fixes.json").read_text(encoding="utf-8"))
    return all_step_specs(doc, fixes)


STEPS = list(_rule_steps())


def test_the_rules_have_fix_steps_to_check():
    assert len(STEPS) >= 60


@pytest.mark.parametrize("code,step", STEPS, ids=[f"{c}.{s['id']}" for c, s in STEPS])
def test_every_rule_fix_step_has_a_title_and_why_in_both_languages(code, step):
    for f in ("title", "why"):
        key = f"plan.{code}.step.{step['id']}.{f}"
        en, zh = M.template(key, "en"), M.template(key, "zh_CN")
        assert en == step[f], key  # the English is the rule's own sentence
        assert zh and CJK.search(zh), key  # said in Chinese
        assert set(FIELD.findall(zh)) == set(FIELD.findall(en)), key  # the same figures


def test_no_chinese_step_sentence_is_left_over_from_a_step_that_is_gone():
    keys = {f"plan.{c}.step.{s['id']}.{f}" for c, s in STEPS for f in ("title", "why")}
    zh = {k for k in M.catalogue("zh_CN")["messages"] if ".step." in k}
    assert zh == keys, sorted(zh ^ keys)[:5]


def _machines():
    out = [None]
    for snap in demo_snapshots():
        out.append(detect(SnapshotSystem(json.loads(snap.read_text(encoding="utf-8")))))
    return out


@pytest.fixture(scope="module")
def diagnoses():
    texts = sorted((FIXTURES / "errors").glob("*.txt")) + sorted((FIXTURES / "errors_heldout_f").glob("*.txt"))
    out = []
    for facts in _machines():
        for p in texts:
            out.append((p.name, facts, diagnose(p.read_text(encoding="utf-8", errors="replace"), facts)))
    return out


def test_every_step_the_engine_builds_renders_in_both_languages(diagnoses):
    seen = 0
    for name, _facts, d in diagnoses:
        for m in d.matches:
            for s in m.fix_steps:
                seen += 1
                assert s.title_code and s.why_code, (name, m.rule, s.id)
                assert M.step_title(s, "en") == M.render("plan", s.title_code, s.params, "en") == s.title, (name, s.id)
                assert M.step_why(s, "en") == s.why, (name, s.id)
                for text in (M.render_strict("plan", s.title_code, s.params, "zh_CN")[0],
                             M.render_strict("plan", s.why_code, s.params, "zh_CN")[0]):
                    assert CJK.search(text) and "{" not in text, (name, s.id, text)
    assert seen >= 50


def test_the_plan_steps_of_a_fix_keep_the_codes(diagnoses):
    plans = 0
    for name, facts, d in diagnoses:
        if d.top is None:
            continue
        for st in fix_plan(d, facts):
            plans += 1
            assert st.title_code and M.step_title(st, "zh_CN") != st.title, (name, st.id)
            assert CJK.search(M.step_title(st, "zh_CN")) and CJK.search(M.step_why(st, "zh_CN")), (name, st.id)
    assert plans >= 10


def test_diagnose_text_in_chinese_shows_no_english_step_title(diagnoses):
    from app.commands.diagnose import format_text

    checked = 0
    for name, _facts, d in diagnoses:
        if not any(m.fix_steps for m in d.matches):
            continue
        out = format_text(d, lang="zh_CN")
        for m in d.matches:
            for s in m.fix_steps:
                checked += 1
                assert f"- {s.title}" not in out, (name, s.title)
                assert f"- {M.step_title(s, 'zh_CN')}" in out, (name, s.id)
    assert checked >= 50
