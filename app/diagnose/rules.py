"""The rule base (resources/diagnose/rules.json) and the platform fixes (resources/diagnose/fixes.json),
parsed once, and the English templates of the sentences a Match carries by code.

Codes (Match.root_cause_code / fix_code, FixStep.title_code): "<rule>", "<rule>/<subcode>",
"<rule>@<redirect when>", each optionally "~<platform tag>" (the rule part's `platforms` entry for that
machine), "platform~<tag>" (the rule base's own entry for a platform, e.g. macOS), and for steps
"fix.<name>~<tag>" (a named fix of fixes.json written for that platform).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any, Optional

from app import fileio
from app.diagnose import evidence as ev
from app.diagnose.model import CATEGORIES
from app.diagnose.textscan import keyword_regex
from app.paths import resource

RULES_FORMAT = "gpu-wizard-diagnose-rules/1"


class RulesError(ValueError):
    """The rule base is unreadable or malformed (a packaging bug, reported in one line)."""


class LazyRx:
    """A rule's regex, compiled (case-insensitively) the first time a window holds one of the rule's keywords:
    a cold `gpu-wizard diagnose` of one paste needs a few of the hundreds of patterns. The shipped rule base is
    compiled whole by its tests; a rule file given by path is compiled at load (parse_rules(strict=True))."""

    __slots__ = ("pattern", "_rx")

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        self._rx: Optional[re.Pattern] = None

    @property
    def rx(self) -> re.Pattern:
        if self._rx is None:
            self._rx = re.compile(self.pattern, re.IGNORECASE)
        return self._rx

    def search(self, string: str, pos: int = 0) -> Optional[re.Match]:
        return self.rx.search(string, pos)


@dataclass(frozen=True)
class Rule:
    id: str
    category: str
    subcode: str
    keywords: tuple[str, ...]
    patterns: tuple[LazyRx, ...]
    requires: tuple[LazyRx, ...]
    excludes: tuple[LazyRx, ...]
    confidence: float
    facts: tuple[str, ...]
    root_cause: str
    fix: str
    fix_steps: tuple[dict, ...]
    commands: tuple[tuple[str, ...], ...]
    redirect: tuple[dict, ...]
    subcodes: dict
    sources: tuple[str, ...]
    identifiers: tuple[str, ...] = ()  # stable identifiers (lower-case literals) for the fallback
    identifier_requires: Optional[LazyRx] = None
    platforms: Optional[dict] = None  # tag -> {root_cause, fix, fix_steps}: the rule's text for that machine
    not_setup: bool = False  # the text names a bug of the program (e.g. a kernel assertion), not of the GPU setup

    @cached_property
    def literals(self) -> tuple[str, ...]:
        """Per pattern: a literal every match holds ("" = none known); worked out on first use."""
        return tuple(_required_literal(p.pattern) for p in self.patterns)

    def part(self) -> dict:
        """The rule's own texts as a dict, like a subcode's or a redirect's."""
        return {"root_cause": self.root_cause, "fix": self.fix, "fix_steps": list(self.fix_steps),
                "platforms": self.platforms or {}}


@dataclass(frozen=True)
class RuleBase:
    version: str
    rules: tuple[Rule, ...]
    keywords: re.Pattern
    platforms: Optional[dict] = None  # tag -> {fix, fix_steps}: the answer for a platform whatever the rule (macOS)
    fixes: Optional[dict] = None  # fixes.json: name -> tag -> [step specs]

    def rule(self, rid: str) -> Optional[Rule]:
        return next((r for r in self.rules if r.id == rid), None)


def _required_literal(p: str) -> str:
    """The longest run of literal characters every match of `p` contains (lower-case; "" when
    there is none of at least 4): a pattern whose literal is not in a window cannot match there, and
    a substring test is far cheaper than a regex search (a keyword-dense 10 MB log: several times)."""
    try:  # the parser of the re module (private, but stable since 3.x): an optimisation only
        try:
            import re._parser as sre_parse
            from re._constants import LITERAL, MAX_REPEAT, MIN_REPEAT, SUBPATTERN
        except ImportError:  # Python 3.10
            import sre_parse
            from sre_constants import LITERAL, MAX_REPEAT, MIN_REPEAT, SUBPATTERN
        tree = sre_parse.parse(p, re.IGNORECASE)
    except Exception:
        return ""
    runs: list[str] = []

    def walk(node) -> None:
        run = ""
        for op, av in node:
            if op is LITERAL:
                run += chr(av)
                continue
            runs.append(run)
            run = ""
            if op is SUBPATTERN:
                walk(av[-1])
            elif op in (MAX_REPEAT, MIN_REPEAT) and av[0] >= 1:
                walk(av[2])
        runs.append(run)

    walk(tree)
    best = max(runs, key=len, default="")
    return best.lower() if len(best) >= 4 else ""


def _compile(p: str, rid: str, strict: bool = True) -> LazyRx:
    rx = LazyRx(p)
    if strict:
        try:
            rx.rx  # noqa: B018 (compiling is the check)
        except re.error as e:
            raise RulesError(f"rule {rid}: bad pattern {p!r}: {e}") from None
    return rx


def parse_rules(doc: Any, fixes: Optional[dict] = None, strict: bool = True) -> RuleBase:
    """The rule base of a rules document (and its fixes.json). `strict`: compile every regex now (a bad one is a
    RulesError here); otherwise each is compiled on first use (the shipped file, which its tests compile whole)."""
    if not isinstance(doc, dict) or doc.get("format") != RULES_FORMAT or not isinstance(doc.get("rules"), list):
        raise RulesError(f"diagnose rules: expected an object with format {RULES_FORMAT!r} and a rules list")
    rules = []
    seen = set()
    for r in doc["rules"]:
        rid = r.get("id", "?")
        if rid in seen:
            raise RulesError(f"diagnose rules: duplicate id {rid}")
        seen.add(rid)
        if r.get("category") not in CATEGORIES:
            raise RulesError(f"rule {rid}: unknown category {r.get('category')!r}")
        for name in r.get("facts", []):
            if name not in ev.CHECKS:
                raise RulesError(f"rule {rid}: unknown fact check {name!r}")
        for red in r.get("redirect", []):
            if red.get("when") not in ev.PREDICATES or red.get("category") not in CATEGORIES:
                raise RulesError(f"rule {rid}: bad redirect {red!r}")
        kws = tuple(k.lower() for k in r.get("keywords", []))
        if not kws or not r.get("patterns"):
            raise RulesError(f"rule {rid}: needs keywords and patterns")
        rules.append(Rule(
            id=rid, category=r["category"], subcode=r.get("subcode", ""), keywords=kws,
            patterns=tuple(_compile(p, rid, strict) for p in r["patterns"]),
            requires=tuple(_compile(p, rid, strict) for p in r.get("requires", [])),
            excludes=tuple(_compile(p, rid, strict) for p in r.get("excludes", [])),
            confidence=float(r.get("confidence", 0.5)), facts=tuple(r.get("facts", [])),
            root_cause=r["root_cause"], fix=r["fix"], fix_steps=tuple(r.get("fix_steps", [])),
            commands=tuple(tuple(c) for c in r.get("commands", [])), redirect=tuple(r.get("redirect", [])),
            subcodes=dict(r.get("subcodes", {})), sources=tuple(r.get("sources", [])),
            identifiers=tuple(i.lower() for i in r.get("identifiers", [])),
            identifier_requires=_compile(r["identifier_requires"], rid, strict) if r.get("identifier_requires") else None,
            platforms=dict(r.get("platforms") or {}), not_setup=bool(r.get("not_setup", False)),
        ))
    ids = {r.id for r in rules}
    for r in rules:
        for red in r.redirect:
            if red.get("rule") and red["rule"] not in ids:
                raise RulesError(f"rule {r.id}: redirect borrows unknown rule {red['rule']!r}")
    fx = (fixes or {}).get("fixes", {}) if isinstance(fixes, dict) else {}
    _check_uses(doc, fx)
    kw = keyword_regex([k for r in rules for k in r.keywords] + [i for r in rules for i in r.identifiers])
    return RuleBase(version=str(doc.get("version", "")), rules=tuple(rules), keywords=kw,
                    platforms=dict(doc.get("platforms") or {}), fixes=fx)


def step_lists(part: dict, code: str):
    """(code, list of step specs) of one rule part: its own fix_steps and those of its platform entries."""
    yield code, part.get("fix_steps") or []
    for tag, entry in (part.get("platforms") or {}).items():
        if isinstance(entry, dict):
            yield f"{code}~{tag}", entry.get("fix_steps") or []


def rule_parts(r: dict):
    """(code, part) of a rules.json rule: the rule, each subcode, each redirect."""
    yield r["id"], r
    for s, v in (r.get("subcodes") or {}).items():
        yield f"{r['id']}/{s}", v
    for red in r.get("redirect") or []:
        yield f"{r['id']}@{red.get('when', '')}", red


def _check_uses(doc: dict, fixes: dict) -> None:
    for r in doc["rules"]:
        for code, part in rule_parts(r):
            for _c, specs in step_lists(part, code):
                for s in specs:
                    if "use" in s and s["use"] not in fixes:
                        raise RulesError(f"rule {code}: unknown fix {s['use']!r} (resources/diagnose/fixes.json)")
                    for key in ("when", "unless"):
                        if s.get(key) and s[key] not in ev.PREDICATES:
                            raise RulesError(f"rule {code}: unknown predicate {s[key]!r}")


FIXES_FORMAT = "gpu-wizard-diagnose-fixes/1"


def _read(p: Path, what: str) -> Any:
    try:
        return fileio.loads(p.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise RulesError(f"cannot read the diagnose {what} {p}: {e}") from None


@lru_cache(maxsize=4)
def load_rules(path: Optional[str] = None) -> RuleBase:
    p = Path(path) if path else resource("diagnose", "rules.json")
    doc = _read(p, "rules")
    fixes = _read(p.with_name("fixes.json"), "fixes") if p.with_name("fixes.json").exists() else {"fixes": {}}
    if not isinstance(fixes, dict) or fixes.get("format") != FIXES_FORMAT or not isinstance(fixes.get("fixes"), dict):
        raise RulesError(f"diagnose fixes: expected an object with format {FIXES_FORMAT!r} and a fixes object")
    return parse_rules(doc, fixes, strict=path is not None)




def code_part(code: str, rb: RuleBase) -> Optional[dict]:
    """The rule part a code names (see the module's docstring), platform entry included; None when unknown."""
    base, _, tag = code.partition("~")
    if base == "platform":
        part: Optional[dict] = {"platforms": rb.platforms or {}}
    else:
        rid, sep, rest = base.partition("@") if "@" in base else base.partition("/")
        rule = rb.rule(rid)
        if rule is None:
            return None
        if not sep:
            part = rule.part()
        elif sep == "/":
            part = rule.subcodes.get(rest)
        else:
            part = next((red for red in rule.redirect if red.get("when") == rest), None)
    if part is not None and tag:
        entry = (part.get("platforms") or {}).get(tag)
        part = entry if isinstance(entry, dict) else None
    return part


def text_template(code: str, field_name: str, rules: Optional[RuleBase] = None) -> Optional[str]:
    """The English template of a Match's root cause or fix by its code (Match.root_cause_code / fix_code);
    None when unknown."""
    if not code or field_name not in ("root_cause", "fix"):
        return None
    try:
        rb = rules or load_rules()
    except RulesError:
        return None
    part = code_part(code, rb)
    v = part.get(field_name) if part is not None else None
    return v if isinstance(v, str) else None




def all_step_specs(doc: dict, fixes: dict) -> list[tuple[str, dict]]:
    """(code, step spec) of every fix step written in rules.json (rules, subcodes, redirects, their platform
    entries) and fixes.json (each named fix per platform); `{"use": ...}` entries are references, not steps."""
    out: list[tuple[str, dict]] = []
    glob = {"platforms": doc.get("platforms") or {}}
    for c, specs in step_lists(glob, "platform"):
        out += [(c, s) for s in specs if "use" not in s]
    for r in doc["rules"]:
        for code, part in rule_parts(r):
            for c, specs in step_lists(part, code):
                out += [(c, s) for s in specs if "use" not in s]
    for name, entry in (fixes.get("fixes") or {}).items():
        for tag, specs in entry.items():
            out += [(f"fix.{name}~{'any' if tag == '*' else tag}", s) for s in specs]
    return out
