"""The diagnose rule base is data: validated against its schema, every category covered, every
pattern compiles, every fix step is a step the plan (and the privileged helper) understands."""
import json
import re

import jsonschema
import pytest

from app.diagnose.engine import RulesError, load_rules, parse_rules
from app.diagnose.evidence import CHECKS, PREDICATES
from app.diagnose.model import CATEGORIES
from app.paths import resource

RULES = json.loads(resource("diagnose", "rules.json").read_text(encoding="utf-8"))
FIXES = json.loads(resource("diagnose", "fixes.json").read_text(encoding="utf-8"))
SCHEMA = json.loads(resource("diagnose", "rules.schema.json").read_text(encoding="utf-8"))


def _steps(rule):
    from app.diagnose.rules import rule_parts, step_lists

    for code, part in rule_parts(rule):
        for _c, specs in step_lists(part, code):
            yield from specs


def _all_steps():
    from app.diagnose.rules import all_step_specs

    return [s for _c, s in all_step_specs(RULES, FIXES)]


def test_rules_match_schema():
    jsonschema.validate(RULES, SCHEMA)


def test_fixes_match_their_schema_and_steps_are_the_rules_steps():
    fixes_schema = json.loads(resource("diagnose", "fixes.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(FIXES, fixes_schema)
    assert fixes_schema["$defs"]["step"] == SCHEMA["$defs"]["step"]  # one shape of a step in both files
    used = {s["use"] for r in RULES["rules"] for s in _steps(r) if "use" in s}
    used |= {s["use"] for s in RULES["platforms"]["macos"]["fix_steps"] if "use" in s}
    assert used == set(FIXES["fixes"]), set(FIXES["fixes"]) ^ used  # every named fix is used, every use names one


def test_an_unknown_named_fix_is_refused_clearly():
    bad = json.loads(json.dumps(RULES))
    bad["rules"][0]["fix_steps"] = [{"use": "no_such_fix"}]
    with pytest.raises(RulesError, match="unknown fix"):
        parse_rules(bad, FIXES)


def test_schema_categories_are_the_model_categories():
    enum = SCHEMA["$defs"]["rule"]["properties"]["category"]["enum"]
    assert tuple(enum) == CATEGORIES


def test_every_category_has_a_rule():
    have = {r["category"] for r in RULES["rules"]} | {x["category"] for r in RULES["rules"] for x in r.get("redirect", [])}
    assert set(CATEGORIES) <= have, set(CATEGORIES) - have


def test_rules_load_and_patterns_compile():
    rb = load_rules()
    assert len(rb.rules) == len(RULES["rules"])
    for r in RULES["rules"]:
        for p in r["patterns"] + r.get("requires", []) + r.get("excludes", []):
            re.compile(p)


def test_keywords_are_lower_case_and_reach_a_pattern():
    for r in RULES["rules"]:
        for k in r["keywords"]:
            assert k == k.lower(), (r["id"], k)


def test_fact_checks_and_predicates_exist():
    for r in RULES["rules"]:
        for name in r["facts"]:
            assert name in CHECKS, (r["id"], name)
        for red in r.get("redirect", []):
            assert red["when"] in PREDICATES
        for s in _steps(r):
            for key in ("when", "unless"):
                if key in s:
                    assert s[key] in PREDICATES, (r["id"], s)


def test_fix_steps_are_plan_steps():
    from app.plan.model import STEP_KINDS, _VERBS

    steps = _all_steps()
    assert len(steps) >= 80
    for s in steps:
        assert s["kind"] in STEP_KINDS, s
        assert s["id"].split("_")[0] in _VERBS, s["id"]
        for argv in s["argv"]:
            assert all(isinstance(a, str) and a for a in argv)
        for key in ("when", "unless"):
            assert key not in s or s[key] in PREDICATES, s
        assert s.get("where", "") in ("", "windows", "host", "image", "firmware"), s


def test_every_rule_cites_sources():
    for r in RULES["rules"]:
        assert r["sources"] and all(u.startswith("https://") for u in r["sources"]), r["id"]


def test_bad_rule_files_are_refused_clearly():
    with pytest.raises(RulesError, match="format"):
        parse_rules({"rules": []})
    bad = json.loads(json.dumps(RULES))
    bad["rules"][0]["category"] = "not_a_category"
    with pytest.raises(RulesError, match="unknown category"):
        parse_rules(bad)
    bad = json.loads(json.dumps(RULES))
    bad["rules"][0]["patterns"] = ["(unclosed"]
    with pytest.raises(RulesError, match="bad pattern"):
        parse_rules(bad)
    bad = json.loads(json.dumps(RULES))
    bad["rules"][1]["id"] = bad["rules"][0]["id"]
    with pytest.raises(RulesError, match="duplicate"):
        parse_rules(bad)


def test_the_shipped_rules_compile_whole():
    """At run time the shipped rules' regexes are compiled on first use (a cold paste needs a few): here every
    one is compiled, and a rule file given by path is compiled at load."""
    rb = load_rules()
    for r in rb.rules:
        for rx in (*r.patterns, *r.requires, *r.excludes, *((r.identifier_requires,) if r.identifier_requires else ())):
            assert rx.rx.pattern == rx.pattern, r.id
        assert len(r.literals) == len(r.patterns)
    fixes = json.loads(resource("diagnose", "fixes.json").read_text(encoding="utf-8"))
    parse_rules(RULES, fixes, strict=True)
