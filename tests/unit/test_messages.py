"""The message catalogue (app/messages.py, resources/messages/*.json): every code the engine says has a
sentence in English and 简体中文, every template names only figures the engine fills, and no figure the
engine fills is dropped; the English filled so is exactly the engine's own sentence. Driven by real engine
outputs (tests/unit/engine_outputs.py: the demo snapshots, the recommend/plan test machines and the real
error fixtures), and shown able to fail by breaking a copy of the catalogue."""
from __future__ import annotations

import collections
import json
import re

import pytest

from app import messages as M
from app.paths import resource
from app.recommend import CLAUSE_CODES, REASON_CODES, WARNING_CODES
from tests.unit import engine_outputs as E

CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture(scope="module")
def said() -> list[E.Said]:
    return E.all_said()


def problems(items: list[E.Said], lang: str) -> list[str]:
    """What is wrong with the catalogue for these real outputs in `lang` (empty: nothing).

    Items that share their params (a step's title and why, a match's root cause and fix) are judged
    together for dropped figures: each figure must appear in one of them."""
    out: list[str] = []
    groups: dict[tuple, list[E.Said]] = collections.defaultdict(list)
    for s in items:
        groups[(s.where, s.domain, s.group or tuple(sorted(s.params.items())))].append(s)
    for ss in groups.values():
        used: set[str] = set()
        for s in ss:
            if not s.code:
                out.append(f"{s.where}: {s.domain} sentence without a code: {s.english!r}")
                continue
            try:
                text, u = M.render_strict(s.domain, s.code, s.params, lang)
            except M.MissingMessage as e:
                out.append(f"{s.where}: {lang}: {e}")
                continue
            used |= u
            if lang == "en" and text != s.english:
                out.append(f"{s.where}: {s.domain}.{s.code}: English {text!r} is not the engine's {s.english!r}")
            if "{" in text.replace(s.english, "") and "{" not in s.english:
                out.append(f"{s.where}: {lang}: placeholder left in {text!r}")
        dropped = set().union(*(x.params for x in ss)) - used - {"hint_code"}  # hint_code picks a sentence
        if dropped and all(s.code for s in ss):
            out.append(f"{ss[0].where}: {lang}: {[s.code for s in ss]} drop {sorted(dropped)}")
    return out


@pytest.mark.parametrize("lang", M.LANGUAGES)
def test_every_real_output_has_a_full_sentence_in_each_language(said, lang):
    assert len(said) > 1000  # recommendations, plans and diagnoses of many machines
    assert problems(said, lang) == []


def test_the_outputs_reach_every_domain_and_most_codes(said):
    by_domain = collections.Counter(s.domain for s in said)
    assert {"rec", "plan", "diagnose", "finding", "check"} <= set(by_domain), by_domain
    rec_codes = {s.code for s in said if s.domain == "rec"}
    assert (WARNING_CODES | REASON_CODES) - rec_codes <= {"ptx_jit_only"}  # no bundled wheel is PTX-only


def test_zh_cn_sentences_are_chinese_and_carry_the_figures(said):
    for s in said:
        zh = M.render(s.domain, s.code, s.params, "zh_CN")
        assert CJK.search(zh) or not CJK.search(M.template(f"{s.domain}.{s.code}", "zh_CN") or "x"), (s.where, zh)
        en, used = M.render_strict(s.domain, s.code, s.params, "en")
        for k in used:
            v = s.params.get(k)
            clause = k + "_code" in s.params or k + "_rec_code" in s.params  # v is that clause's English copy
            if v and not clause and not k.endswith("_code") and k.split(".")[-1] not in M.catalogue("zh_CN")["values"] and len(v) > 1:
                if v in en:  # a figure the English shows: the Chinese shows it too, as it is
                    assert v in zh, (s.where, s.code, k, v, zh)


# -- a broken catalogue is caught (so the checks above can fail) ------------------------------------------

def _broken(monkeypatch, lang: str, change):
    """A broken copy of one language's catalogue: the whole one and its file alone (app.messages reads the
    diagnose rules' English only for their own keys)."""
    def broken(real):
        def fake(lg: str):
            doc = real(lg)
            if M.normalise_lang(lg) != lang:
                return doc
            msgs = dict(doc["messages"])
            try:
                change(msgs)
            except KeyError:  # a rules key: not in the file alone
                pass
            return {**doc, "messages": msgs}
        return fake

    monkeypatch.setattr(M, "catalogue", broken(M.catalogue))
    monkeypatch.setattr(M, "_own", broken(M._own))


def _sample(said, domain):
    return next(s for s in said if s.domain == domain and s.params and M.names(M.template(f"{domain}.{s.code}") or ""))


@pytest.mark.parametrize("domain", ["rec", "plan", "diagnose", "finding", "check"])
def test_a_code_with_no_sentence_fails(said, monkeypatch, domain):
    s = _sample(said, domain)
    _broken(monkeypatch, "zh_CN", lambda m: m.pop(f"{domain}.{s.code}"))
    found = problems([x for x in said if x.domain == domain], "zh_CN")
    assert any(f"{domain}.{s.code}" in p and "no zh_CN sentence" in p for p in found), found[:3]


@pytest.mark.parametrize("domain", ["rec", "plan", "diagnose", "finding", "check"])
def test_a_template_naming_a_param_the_engine_never_fills_fails(said, monkeypatch, domain):
    s = _sample(said, domain)
    _broken(monkeypatch, "zh_CN", lambda m: m.__setitem__(f"{domain}.{s.code}", m[f"{domain}.{s.code}"] + "{gpu_count_never_given}"))
    found = problems([x for x in said if x.domain == domain], "zh_CN")
    assert any("gpu_count_never_given" in p for p in found), found[:3]


@pytest.mark.parametrize("domain", ["rec", "plan", "diagnose", "finding", "check"])
def test_a_param_the_engine_fills_but_the_template_drops_fails(said, monkeypatch, domain):
    s = _sample(said, domain)
    key = f"{domain}.{s.code}"
    name = sorted(M.names(M.template(key, "zh_CN")))[0]
    _broken(monkeypatch, "zh_CN", lambda m: m.__setitem__(key, m[key].replace("{" + name + "}", "")))
    found = problems([x for x in said if x.domain == domain and x.code == s.code], "zh_CN")
    assert any("drop" in p and name in p for p in found), found[:3]


def test_english_that_drifts_from_the_engine_fails(said, monkeypatch):
    s = _sample(said, "rec")
    _broken(monkeypatch, "en", lambda m: m.__setitem__(f"rec.{s.code}", m[f"rec.{s.code}"].replace(" ", "  ", 1)))
    assert any("is not the engine's" in p for p in problems([s], "en"))


# -- the files themselves ---------------------------------------------------------------------------------

def test_files_match_the_schema():
    jsonschema = pytest.importorskip("jsonschema", reason="jsonschema comes with the test extra")
    schema = json.loads(resource("messages", "schema.json").read_text(encoding="utf-8"))
    for lang in M.LANGUAGES:
        doc = json.loads(resource("messages", f"{lang}.json").read_text(encoding="utf-8"))
        errors = [e.message for e in jsonschema.Draft202012Validator(schema).iter_errors(doc)]
        assert errors == [], (lang, errors[:3])
        assert doc["lang"] == lang


def test_both_languages_have_the_same_codes_and_placeholders():
    en, zh = M.catalogue("en")["messages"], M.catalogue("zh_CN")["messages"]
    assert set(en) == set(zh), (sorted(set(en) - set(zh))[:10], sorted(set(zh) - set(en))[:10])
    for key, text in en.items():
        assert M.names(zh[key]) == M.names(text), key
        if text.strip("{} ") and not re.fullmatch(r"\{[a-z_]+\}", text.strip()):
            assert zh[key] != text or not re.search(r"[a-z]{3}", re.sub(r"\{[^}]*\}|`[^`]*`", "", text)), key
    assert len([k for k in en if k.startswith("diagnose.")]) > 100  # the rules' sentences, from rules.json


def test_every_registered_recommendation_code_has_a_sentence():
    shapes = M.catalogue("en")["shapes"]
    for code in WARNING_CODES | REASON_CODES:
        assert M.has("rec", code, "en") or code in shapes, code
    for code in CLAUSE_CODES:
        assert M.has("rec", code, "en"), code
    for code, ss in shapes.items():
        assert code in WARNING_CODES and all(M.has("rec", s, "zh_CN") for s in ss), code
    # "<code>@gui": the window's wording of a registered code (ui/i18n.py GUI)
    rec_keys = {k.split(".", 1)[1].removesuffix("@gui") for k in M.catalogue("en")["messages"] if k.startswith("rec.")}
    from app.recommend import ALTERNATIVE_CODES, OPTION_CODES, REFUSAL_CODES

    known = WARNING_CODES | REASON_CODES | CLAUSE_CODES | ALTERNATIVE_CODES | REFUSAL_CODES | OPTION_CODES
    assert rec_keys <= known, sorted(rec_keys - known)
    for code in ALTERNATIVE_CODES:
        assert M.has("rec", code, "en") and M.has("rec", code, "zh_CN"), code


def test_words_are_said_in_chinese():
    zh = M.catalogue("zh_CN")["values"]
    assert M.word("compat", "minor", "zh_CN") != "minor" and CJK.search(M.word("compat", "minor", "zh_CN"))
    assert M.word("compat", "minor", "en") == "minor"  # the engine's English writes the word as it is
    assert M.word("state", "not_loaded", "en") == "not loaded"
    for name, table in zh.items():
        for v, w in table.items():
            assert CJK.search(w), (name, v, w)


def test_fallbacks():
    assert M.render("rec", "some_future_code", {"x": "1"}, "zh_CN", fallback="Plain English.") == "Plain English."
    assert M.render("rec", "driver_keep", {"current": "580.95.05"}, "zh_CN", fallback="English") == "English"
    assert M.render("rec", None, {}, "zh_CN", fallback="No code.") == "No code."
    assert M.render("rec", "cudnn_bundled", {"version": "9.10.2.21"}, "zh_CN") == \
        "cuDNN 9.10.2.21 随 PyTorch 安装包提供（pip 依赖）；不需要系统 cuDNN。"
    assert M.render("rec", "cudnn_bundled", {"version": "9.10.2.21"}, "en") == \
        "cuDNN 9.10.2.21 comes with the PyTorch wheel (a pip dependency); no system cuDNN is needed."
    with pytest.raises(M.MissingMessage):
        M.render_strict("plan", "create_venv", {}, "zh_CN")


@pytest.mark.parametrize("flag, env, want", [
    ("zh_CN", {"LANG": "en_US.UTF-8"}, "zh_CN"),
    ("en", {"GPU_WIZARD_LANG": "zh_CN"}, "en"),
    (None, {"GPU_WIZARD_LANG": "zh", "LC_ALL": "en_US.UTF-8"}, "zh_CN"),
    (None, {"LC_ALL": "zh_CN.UTF-8", "LANG": "en_US.UTF-8"}, "zh_CN"),
    (None, {"LC_ALL": "C", "LANG": "zh_CN.UTF-8"}, "en"),  # POSIX: LC_ALL wins
    (None, {"LC_MESSAGES": "zh_TW.UTF-8", "LANG": "en_GB"}, "zh_CN"),
    (None, {"LANG": "zh_CN.GB18030"}, "zh_CN"),
    (None, {"LANG": "de_DE.UTF-8"}, "en"),
    (None, {}, "en"),
    ("zh-Hans", {}, "zh_CN"),
])
def test_language_resolution(flag, env, want):
    assert M.resolve_lang(flag, env) == want


def test_no_qt_in_the_catalogue():
    import subprocess
    import sys

    code = "import sys, app.messages as m; m.render('rec', 'cudnn_bundled', {'version': '9'}, 'zh_CN'); " \
           "print(sorted(k for k in sys.modules if k.startswith(('PySide6', 'ui'))))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                         cwd=str(resource("messages").parents[1]))
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


# -- every finding and check the source can emit, read from the source (the fixtures reach only some) ------

def _constants(node) -> list:
    import ast

    if isinstance(node, ast.Constant):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _constants(node.body) + _constants(node.orelse)
    return [object()]  # computed: unknown


def _emitters():
    """(file:line, domain, code, {keyword: [constant values]}, dynamic) for each finding()/log.add()/_check() call."""
    import ast
    from pathlib import Path

    root = Path(M.__file__).resolve().parents[1]
    files = [(p, "finding") for p in sorted((root / "app" / "detect").glob("*.py"))] + [
        (root / "app" / "overrides.py", "finding"), (root / "app" / "verify" / "verdicts.py", "check"),
        (root / "app" / "verify" / "burn_verdicts.py", "check")]
    out = []
    for path, domain in files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        funcs = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]
        calls = []
        for fn in funcs:
            names: dict = {}  # code = "a" if x else "b": a variable holding codes, per function
            for node in ast.walk(fn):
                if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                    vals = _constants(node.value)
                    if all(isinstance(v, str) for v in vals):
                        names.setdefault(node.targets[0].id, []).extend(vals)
            calls += [(node, names) for node in ast.walk(fn) if isinstance(node, ast.Call)]
        seen = set()
        for node, names in calls:
            if id(node) in seen:
                continue
            seen.add(id(node))
            if not node.args:
                continue
            f = node.func
            name = f.id if isinstance(f, ast.Name) and f.id in ("finding", "_check") else (f.attr if isinstance(f, ast.Attribute) and
                                                         isinstance(f.value, ast.Name) and f.value.id in ("log", "self") else None)
            if name not in ("finding", "add", "_check"):
                continue
            first = node.args[0]
            codes = names.get(first.id, [object()]) if isinstance(first, ast.Name) else _constants(first)
            kws = {k.arg: names.get(k.value.id, [object()]) if isinstance(k.value, ast.Name) else _constants(k.value)
                   for k in node.keywords if k.arg}
            dynamic = any(k.arg is None for k in node.keywords) or "extra" in kws
            for code in codes:
                out.append((f"{path.name}:{node.lineno}", domain, code, kws, dynamic))
    return out


NOT_FIGURES = {"evidence", "gpu_index", "hint", "value", "limit", "text_code", "hint_code", "extra"}


def _reach(domain: str, key: str, kws: dict, lang: str) -> set:
    """Names a template needs, following the clauses the call can pick (x_code constants)."""
    need: set = set()
    for n in M.names(M.template(f"{domain}.{key}", lang) or ""):
        if n + "_code" in kws and n not in kws:
            for sub in kws[n + "_code"]:
                if isinstance(sub, str) and sub:
                    need |= _reach(domain, sub, kws, lang)
        else:
            need.add(n)
    return need


def test_every_emitted_code_in_the_source_has_sentences_and_its_figures():
    calls = _emitters()
    assert len({c for _w, d, c, _k, _dy in calls if d == "finding"}) >= 45 and len({c for _w, d, c, _k, _dy in calls if d == "check"}) > 20
    bad = []
    for where, domain, code, kws, dynamic in calls:
        if not isinstance(code, str):
            if not dynamic:  # (a wrapper forwarding code and **params is not an emitter)
                bad.append(f"{where}: computed code")
            continue
        shapes = [t for t in kws.get("text_code", [None]) if t is not None] or [code]
        hints = kws.get("hint_code", [None])
        for lang in M.LANGUAGES:
            for key in shapes:
                if not isinstance(key, str) or not M.has(domain, key, lang):
                    bad.append(f"{where}: {domain}.{key} has no {lang} sentence")
            for h in hints:
                hk = f"{code}_hint" if h is None else h
                if isinstance(hk, str) and hk and h is not None and not M.has(domain, hk, lang):
                    bad.append(f"{where}: hint {domain}.{hk} has no {lang} sentence")
            for k, vals in kws.items():
                if k.endswith("_code") and k not in ("text_code", "hint_code"):
                    for v in vals:
                        if isinstance(v, str) and v and not M.has(domain, v, lang):
                            bad.append(f"{where}: clause {domain}.{v} has no {lang} sentence")
            if dynamic:
                continue
            need: set = set()
            for key in shapes:
                if isinstance(key, str):
                    need |= _reach(domain, key, kws, lang)
            for h in hints:
                hk = f"{code}_hint" if h is None else h
                if isinstance(hk, str) and hk and M.has(domain, hk, "en"):
                    need |= _reach(domain, hk, kws, lang)
            given = {k for k in kws if k not in NOT_FIGURES and not k.endswith("_code")}
            if need - given:
                bad.append(f"{where}: {domain}.{code} ({lang}) names {sorted(need - given)}, never given")
            if given - need:
                bad.append(f"{where}: {domain}.{code} ({lang}) drops {sorted(given - need)}")
    assert bad == [], "\n".join(bad)


def test_verify_verdicts_keep_their_figures_in_chinese():
    from app.verify.verdicts import check_text, layer_reason
    from app.verify.model import Layer

    for where, checks in E.verifications():
        for c in checks:
            zh = check_text(c, "zh_CN")
            assert CJK.search(zh), (where, c.code, zh)
            for k, v in c.params.items():
                if not k.endswith("_code") and v in c.message and re.search(r"\d", v):
                    assert v in zh, (where, c.code, k, v, zh)  # 55.4 GB/s, 88%, 700 W ... as measured
    checks = [c for c in E.verifications()[0][1] if c.code == "bandwidth_ok"][:2]
    multi = Layer(name="bandwidth", status="pass", reason="All 2 GPUs passed. " + " ".join(c.message for c in checks), checks=tuple(checks))
    said = layer_reason(multi, "zh_CN")
    assert said.startswith("全部 2 个 GPU 均通过。") and all(check_text(c, "zh_CN") in said for c in checks)
    assert layer_reason(Layer(name="load", status="skip", reason="not run"), "zh_CN") == "未运行"
    assert layer_reason(multi, "en") == multi.reason


def test_every_plan_note_and_warning_in_the_source_has_sentences_with_its_figures():
    """said_notes(("code", {figures}), ...) and warn("code") calls in app/plan, read from the source (the test
    machines reach only some): each code has both sentences, naming exactly the figures given."""
    import ast
    from pathlib import Path

    root = Path(M.__file__).resolve().parents[1] / "app" / "plan"
    seen = {}
    for path in sorted(root.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else node.func.attr if isinstance(node.func, ast.Attribute) else ""
            if name == "said_notes":
                for arg in node.args:
                    if isinstance(arg, ast.Tuple) and isinstance(arg.elts[0], ast.Constant) and isinstance(arg.elts[1], ast.Dict):
                        seen[arg.elts[0].value] = {k.value for k in arg.elts[1].keys if isinstance(k, ast.Constant)}
            elif name == "warn" and node.args and isinstance(node.args[0], ast.Constant):
                # warn("code") names no figure; warn("code", {...}) with a step's own figures (**s.params, a clause
                # for {x} as x_code): checked on real plans by test_every_real_output_has_a_full_sentence_in_each_language
                seen[node.args[0].value] = set() if len(node.args) == 1 else None
    for path in sorted(root.glob("*.py")):  # notes passed on as a code (memory_step(after=...)) and appended tuples
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.keyword) and node.arg == "after" and isinstance(node.value, ast.Constant):
                seen[node.value.value] = set()
            if isinstance(node, ast.Tuple) and len(node.elts) == 2 and isinstance(node.elts[0], ast.Constant) \
                    and isinstance(node.elts[0].value, str) and node.elts[0].value.startswith("note_") and isinstance(node.elts[1], ast.Dict):
                seen[node.elts[0].value] = {k.value for k in node.elts[1].keys if isinstance(k, ast.Constant)}
    assert len(seen) >= 20, sorted(seen)
    for code, given in seen.items():
        for lang in M.LANGUAGES:
            t = M.template(f"plan.{code}", lang)
            assert t, (code, lang)
            assert M.names(t) == (M.names(M.template(f"plan.{code}", "en")) if given is None else given), (code, lang, M.names(t), given)
