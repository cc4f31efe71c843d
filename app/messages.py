"""The message catalogue: (code, params) → a sentence in English or Simplified Chinese.

The engine says what it found as a stable code and its figures (params, strings); this module turns
them into sentences for the window, the CLI and the reports. The sentences are data:
resources/messages/en.json and zh_CN.json (schema: resources/messages/schema.json), keyed
"<domain>.<code>":

    finding.<code>    detection findings (app/detect)           check.<code>   verify checks
    rec.<code>        recommendation warnings, reasons, clauses   plan.<code>    plan step titles/whys
    diagnose.<rule>.root_cause / .fix   diagnosis (English: resources/diagnose/rules.json)

A template's {x} is params["x"]; where params["x_rec_code"] is given, {x} is that recommendation
sentence (its figures in params["x.NAME"]); where params["x_code"] is given, {x} is that clause of the
same domain ("" is an empty part). A warning with several sentence shapes names its shape in
params["text_code"]. Parameter values that are words, not figures (catalogue "values", e.g.
compat=full), are said in the language too. Qt-free: the GUI, the CLI and the reports share it.
"""
from __future__ import annotations

import os
import re
from functools import lru_cache
from typing import Any, Mapping, Optional

from app import fileio
from app.paths import resource

LANGUAGES = ("en", "zh_CN")
DOMAINS = ("finding", "check", "rec", "plan", "diagnose", "cli", "report")
_FIELD = re.compile(r"\{([A-Za-z_][A-Za-z0-9_.]*)\}")
ENV_VARS = ("GPU_WIZARD_LANG", "LC_ALL", "LC_MESSAGES", "LANG")


class CatalogueError(ValueError):
    """A catalogue file that does not match its schema."""


def normalise_lang(lang: Optional[str]) -> str:
    """"zh", "zh_CN.UTF-8", "zh-Hans", "zh_TW" → "zh_CN" (the one Chinese catalogue); anything else → "en"."""
    if not lang:
        return "en"
    low = lang.strip().replace("-", "_").lower()
    return "zh_CN" if low.startswith("zh") else "en"


def resolve_lang(flag: Optional[str] = None, environ: Optional[Mapping[str, str]] = None) -> str:
    """The language to speak: the --lang flag when given, else GPU_WIZARD_LANG, else the locale
    (LC_ALL, LC_MESSAGES, LANG: the first one set wins, as in POSIX; "C"/"POSIX" is English)."""
    if flag:
        return normalise_lang(flag)
    env = os.environ if environ is None else environ
    for var in ENV_VARS:
        v = env.get(var)
        if v:
            return normalise_lang(v.split(":")[0])
    return "en"


def _check(doc: Any, where: str) -> dict:
    """The catalogue's shape (resources/messages/schema.json, checked here without jsonschema so the
    wizard needs nothing extra; tests also validate against the schema file itself)."""
    if not isinstance(doc, dict) or doc.get("format") != 1:
        raise CatalogueError(f"{where}: not a format-1 message catalogue")
    msgs, vals = doc.get("messages"), doc.get("values", {})
    if not isinstance(msgs, dict) or not all(isinstance(k, str) and isinstance(v, str) and v for k, v in msgs.items()):
        raise CatalogueError(f"{where}: messages must map codes to non-empty strings")
    bad = [k for k in msgs if k.split(".", 1)[0] not in DOMAINS or "." not in k]
    if bad:
        raise CatalogueError(f"{where}: codes outside the domains {DOMAINS}: {bad[:5]}")
    if not isinstance(vals, dict) or not all(isinstance(t, dict) and all(isinstance(w, str) for w in t.values())
                                             for t in vals.values()):
        raise CatalogueError(f"{where}: values must map a param name to {{value: word}}")
    return doc


@lru_cache(maxsize=None)
def _own(lang: str) -> dict:
    """One language's catalogue file alone (resources/messages/<lang>.json), loaded once."""
    path = resource("messages", f"{lang}.json")
    return _check(fileio.loads(path.read_text(encoding="utf-8")), str(path))


@lru_cache(maxsize=None)
def catalogue(lang: str) -> dict:
    """The catalogue of one language, loaded once: {"messages": {...}, "values": {...}, ...}.
    English also carries the diagnose rules' templates (their one home is resources/diagnose/rules.json)."""
    lang = normalise_lang(lang)
    doc = _own(lang)
    if lang == "en":
        doc = {**doc, "messages": {**doc["messages"], **_diagnose_templates()}}
    return doc


def _from_rules(key: str) -> bool:
    """A key whose English lives in resources/diagnose/rules.json: a rule's sentence or a fix step's words."""
    return key.startswith("diagnose.") or (key.startswith("plan.") and ".step." in key)


def _diagnose_parts(doc: Any):
    """(code, part) of every rule part of rules.json that holds sentences or steps: each rule, subcode and
    redirect, each of their platform entries ("<code>~<tag>"), and the rule base's own ("platform~<tag>")."""
    if not isinstance(doc, dict):
        return
    for tag, entry in (doc.get("platforms") or {}).items():
        yield f"platform~{tag}", entry
    for r in doc.get("rules", []):
        if not isinstance(r, dict) or not isinstance(r.get("id"), str):
            continue
        parts: list[tuple[str, Any]] = [(r["id"], r)]
        parts += [(f"{r['id']}/{s}", v) for s, v in (r.get("subcodes") or {}).items()]
        parts += [(f"{r['id']}@{red.get('when', '')}", red) for red in (r.get("redirect") or []) if isinstance(red, dict)]
        for code, part in parts:
            yield code, part
            for tag, entry in ((part.get("platforms") or {}) if isinstance(part, dict) else {}).items():
                yield f"{code}~{tag}", entry


def _step_templates(out: dict[str, str], code: str, steps: Any) -> None:
    for st in steps if isinstance(steps, list) else []:  # FixStep.title_code / why_code
        if isinstance(st, dict) and isinstance(st.get("id"), str):
            for f in ("title", "why"):
                if isinstance(st.get(f), str) and st[f]:
                    out[f"plan.{code}.step.{st['id']}.{f}"] = st[f]


def _diagnose_templates() -> dict[str, str]:
    """The rules' root_cause/fix sentences by "diagnose.<code>.<field>" (the codes Match.root_cause_code /
    fix_code name) and the fix steps' titles and whys by "plan.<code>.step.<id>.<field>", read from the rules
    file and the named fixes (fixes.json) themselves: the catalogue sits below every stage and imports none."""
    out: dict[str, str] = {}
    try:
        doc = fileio.loads(resource("diagnose", "rules.json").read_text(encoding="utf-8"))
        fixes = fileio.loads(resource("diagnose", "fixes.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return out
    for code, part in _diagnose_parts(doc):
        if not isinstance(part, dict):
            continue
        for f in ("root_cause", "fix"):
            text = part.get(f)
            if isinstance(text, str) and text:
                out[f"diagnose.{code}.{f}"] = text
        _step_templates(out, code, part.get("fix_steps"))
    for name, entry in ((fixes.get("fixes") or {}) if isinstance(fixes, dict) else {}).items():
        for tag, steps in (entry.items() if isinstance(entry, dict) else ()):
            _step_templates(out, f"fix.{name}~{'any' if tag == '*' else tag}", steps)
    return out


def template(key: str, lang: str = "en") -> Optional[str]:
    """The raw template of "<domain>.<code>" in `lang`, or None. The diagnose rules are read only for their
    own keys (detection's findings never load them)."""
    lang = normalise_lang(lang)
    if lang == "en" and _from_rules(key):
        return catalogue(lang)["messages"].get(key)
    return _own(lang)["messages"].get(key)


def names(text: str) -> set[str]:
    """The placeholder names a template uses."""
    return set(_FIELD.findall(text))


def word(name: str, value: str, lang: str) -> str:
    """A parameter value that is a word ("full", "open", "not_loaded") in `lang`; a figure unchanged."""
    lang = normalise_lang(lang)
    w = _own(lang).get("values", {}).get(name, {}).get(value)
    if w is None and lang != "en":
        w = _own("en").get("values", {}).get(name, {}).get(value)
    return value if w is None else w


def status_word(status: Optional[str], lang: str) -> str:
    """A step's or a run's status (app/run/events.py STEP_STATES, RUN_STATUSES) said in `lang`: the one word
    list the window, the CLI and the reports share (catalogue `values.status`; None: "unknown")."""
    return word("status", status or "unknown", lang)


class MissingMessage(LookupError):
    """No sentence for a code, or a sentence naming a figure its params lack."""


_Missing = MissingMessage


def _render(key: str, params: Mapping[str, str], lang: str, depth: int, used: Optional[set] = None,
            prefix: str = "") -> str:
    if depth > 5:
        raise _Missing(key)
    domain = key.split(".", 1)[0]
    text = template(key, lang)
    if text is None and lang != "en" and used is None:  # strict (used given): no English stand-in
        text = template(key, "en")
    if text is None:
        raise _Missing(key)

    def fill(m: re.Match) -> str:
        name = m.group(1)
        rec = params.get(name + "_rec_code")
        if rec:
            sub = {k[len(name) + 1:]: v for k, v in params.items() if k.startswith(name + ".")}
            if used is not None:
                used.update((prefix + name + "_rec_code", prefix + name))
            return _render_top("rec", rec, sub, lang, depth + 1, used, prefix + name + ".")
        sub_code = params.get(name + "_code")
        if sub_code is not None and (name not in params or domain == "plan"):
            if used is not None:  # the clause stands for {name}: an English copy in params[name] is not dropped
                used.update((prefix + name + "_code", prefix + name))
            return "" if sub_code == "" else _render(f"{domain}.{sub_code}", params, lang, depth + 1, used, prefix)
        if name in params:
            if used is not None:  # the figure wins over a clause for it (x_code names the sentence without x)
                used.update((prefix + name, prefix + name + "_code") if sub_code is not None else (prefix + name,))
            return word(name, str(params[name]), lang)
        raise _Missing(f"{key}: {{{name}}}")

    return _FIELD.sub(fill, text)


def _render_top(domain: str, code: str, params: Mapping[str, str], lang: str, depth: int = 0,
                used: Optional[set] = None, prefix: str = "") -> str:
    shape = params.get("text_code")
    if shape and used is not None:
        used.add(prefix + "text_code")
    return _render(f"{domain}.{shape or code}", params, lang, depth, used, prefix)


def render_strict(domain: str, code: str, params: Mapping[str, Any], lang: str) -> tuple[str, set[str]]:
    """The sentence and the names of the params it used (nested ones as "x.NAME"); raises
    MissingMessage where render() would fall back. For tests and tools that must not fall back."""
    used: set[str] = set()
    p = {str(k): str(v) for k, v in params.items() if v is not None}
    lang = normalise_lang(lang)
    if template(f"{domain}.{p.get('text_code') or code}", lang) is None:
        raise MissingMessage(f"{domain}.{code}: no {lang} sentence")
    return _render_top(domain, code, p, lang, 0, used), used


def render(domain: str, code: Optional[str], params: Optional[Mapping[str, Any]] = None, lang: str = "en",
           fallback: Optional[str] = None) -> str:
    """The sentence for `code` of `domain` in `lang`, filled with `params`. When the catalogue has no
    sentence for the code, or the sentence needs a figure params lacks: `fallback` (the engine's own
    English, which still carries its figures), or the code itself when there is no fallback."""
    lang = normalise_lang(lang)
    if not code:
        return fallback if fallback is not None else ""
    p = {str(k): str(v) for k, v in (params or {}).items() if v is not None}
    try:
        return _render_top(domain, code, p, lang)
    except _Missing:
        return fallback if fallback is not None else code


def hint_key(code: str, params: Mapping[str, Any]) -> Optional[str]:
    """The code of a finding's hint: params["hint_code"] when given ("" is none), else "<code>_hint"."""
    key = params.get("hint_code")
    key = f"{code}_hint" if key is None else str(key)
    return key or None


def render_hint(domain: str, code: Optional[str], params: Optional[Mapping[str, Any]] = None, lang: str = "en",
                fallback: Optional[str] = None) -> Optional[str]:
    """A finding's hint (what to do) in `lang`: "<domain>.<hint_key>" with the finding's params; `fallback`
    (the engine's English hint) when the catalogue has none."""
    p = {k: v for k, v in (params or {}).items() if k not in ("text_code", "hint_code")}
    key = hint_key(code or "", params or {}) if code else None
    if not key or not has(domain, key, "en"):
        return fallback
    return render(domain, key, p, lang, fallback=fallback)


def has(domain: str, code: str, lang: str) -> bool:
    return template(f"{domain}.{code}", lang) is not None


def fmt_number(value: Optional[float], digits: int = 1, lang: str = "en") -> str:
    """A measured figure for a sentence: fixed decimals, no trailing ".0" noise for whole numbers;
    the same digits in both languages (Chinese uses Western digits and the decimal point)."""
    if value is None:
        return "?"
    if float(value).is_integer() and digits <= 1:
        return str(int(value))
    return f"{value:.{digits}f}"


def say(domain: str, code: Optional[str], params: Optional[Mapping[str, Any]], lang: str, english: str) -> str:
    """What the engine said (its English `english`, from `code` and `params`) in `lang`."""
    if normalise_lang(lang) == "en" or not code:
        return english
    return render(domain, code, params, lang, fallback=english)


def cli(key: str, lang: str, **params: Any) -> str:
    """A line of the command line's or a report's own words ("cli.<key>") in `lang`, with its figures."""
    return render("cli", key, params, lang, fallback=key)


def finding_text(f: Any, lang: str) -> str:
    return say("finding", f.code, getattr(f, "params", None), lang, f.message)


def finding_hint(f: Any, lang: str) -> Optional[str]:
    if normalise_lang(lang) == "en" or not f.hint:
        return f.hint
    return render_hint("finding", f.code, getattr(f, "params", None) or {}, lang, fallback=f.hint)


def step_title(s: Any, lang: str) -> str:
    return say("plan", getattr(s, "title_code", ""), getattr(s, "params", None), lang, s.title)


def step_why(s: Any, lang: str) -> str:
    return say("plan", getattr(s, "why_code", ""), getattr(s, "params", None), lang, s.why)


def match_text(m: Any, field_name: str, lang: str) -> str:
    """A diagnosis match's root_cause or fix in `lang`."""
    code = getattr(m, f"{field_name}_code", "") or ""
    english = getattr(m, field_name)
    return say("diagnose", f"{code}.{field_name}" if code else "", getattr(m, "params", None), lang, english)


def evidence_text(e: Any, lang: str, **extra: Any) -> str:
    """A diagnosis evidence line (an Evidence, or its JSON dict) in `lang`: the catalogue's
    diagnose.evidence.<code> filled with its params and `extra` (figures said in that language, e.g. the
    machine's words); its English message where it has no code or the catalogue no sentence."""
    get = e.get if isinstance(e, Mapping) else (lambda k, d=None: getattr(e, k, d))
    code, english = get("code", "") or "", get("message", "") or ""
    if normalise_lang(lang) == "en" or not code:
        return english
    return render("diagnose", f"evidence.{code}", {**(get("params") or {}), **extra}, lang, fallback=english)


def step_notes(s: Any, lang: str) -> list[str]:
    """A step's notes in `lang` (Step.note_codes, one per note; a note without a code as it is)."""
    codes = list(getattr(s, "note_codes", ()) or ())
    out = []
    for i, english in enumerate(getattr(s, "notes", ()) or ()):
        n = codes[i] if i < len(codes) else None
        out.append(say(getattr(n, "domain", "plan"), n.code, n.params, lang, english) if n is not None else english)
    return out


def plan_warnings(plan: Any, lang: str) -> list[str]:
    """A plan's warnings in `lang` (Plan.warning_codes, one per warning)."""
    codes = list(getattr(plan, "warning_codes", ()) or ())
    out = []
    for i, english in enumerate(getattr(plan, "warnings", ()) or ()):
        n = codes[i] if i < len(codes) else None
        out.append(say(getattr(n, "domain", "plan"), n.code, n.params, lang, english) if n is not None else english)
    return out
