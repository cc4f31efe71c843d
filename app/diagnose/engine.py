"""diagnose(text, facts, live) -> Diagnosis: the rule base applied to error text, checked
against this machine's facts.

1. The text is scanned in bounded time and memory (textscan): only windows around rule
   keywords are kept, normalised so wrapped lines still match.
2. Every rule's patterns are tried on each window; a rule's `excludes` veto a window, its
   `requires` must hold somewhere in the kept text. The first hit of each rule counts.
3. For each hit: redirect predicates may move it to another category (e.g. nvidia-smi failing
   inside WSL); the named fact checks add evidence and may pin a subcode; confidence moves
   with the evidence; root cause, fix and fix steps come from the rule (or its subcode entry)
   with placeholders filled from the match, the facts and the recommendation.
4. Out-of-memory messages get the numeric analysis (app.diagnose.oom); samples from the
   verification sampler get the low-utilization analysis (app.diagnose.utilization).
5. Matches are ranked by confidence, then by where they appear (the first error first), one
   per category.
"""
from __future__ import annotations

import io
import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, BinaryIO, Iterable, Optional

from app.diagnose import evidence as ev
from app.diagnose.model import CATEGORIES, Diagnosis, Evidence, FixStep, InputInfo, Match
from app.diagnose.textscan import ScanResult, Window, keyword_regex, scan_stream
from app.facts import Facts, Gpu
from app.paths import resource

RULES_FORMAT = "gpu-wizard-diagnose-rules/1"


class RulesError(ValueError):
    """The rule base is unreadable or malformed (a packaging bug, reported in one line)."""


@dataclass(frozen=True)
class Rule:
    id: str
    category: str
    subcode: str
    keywords: tuple[str, ...]
    patterns: tuple[re.Pattern, ...]
    literals: tuple[str, ...]  # per pattern: a literal every match holds ("" = none known)
    requires: tuple[re.Pattern, ...]
    excludes: tuple[re.Pattern, ...]
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
    identifier_requires: Optional[re.Pattern] = None


@dataclass(frozen=True)
class RuleBase:
    version: str
    rules: tuple[Rule, ...]
    keywords: re.Pattern


def _required_literal(p: str) -> str:
    """The longest run of literal characters every match of `p` contains (lower-case; "" when
    there is none of at least 4): a pattern whose literal is not in a window cannot match there, and
    a substring test is far cheaper than a regex search (a keyword-dense 10 MB log: several times)."""
    try:  # the parser of the re module (private, but stable since 3.x): an optimisation only
        try:
            import re._parser as sre_parse  # type: ignore[import-not-found]
            from re._constants import LITERAL, MAX_REPEAT, MIN_REPEAT, SUBPATTERN  # type: ignore
        except ImportError:  # Python 3.10
            import sre_parse  # type: ignore[no-redef]
            from sre_constants import LITERAL, MAX_REPEAT, MIN_REPEAT, SUBPATTERN  # type: ignore
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


def _compile(p: str, rid: str) -> re.Pattern:
    try:
        return re.compile(p, re.IGNORECASE)
    except re.error as e:
        raise RulesError(f"rule {rid}: bad pattern {p!r}: {e}") from None


def parse_rules(doc: Any) -> RuleBase:
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
            patterns=tuple(_compile(p, rid) for p in r["patterns"]),
            literals=tuple(_required_literal(p) for p in r["patterns"]),
            requires=tuple(_compile(p, rid) for p in r.get("requires", [])),
            excludes=tuple(_compile(p, rid) for p in r.get("excludes", [])),
            confidence=float(r.get("confidence", 0.5)), facts=tuple(r.get("facts", [])),
            root_cause=r["root_cause"], fix=r["fix"], fix_steps=tuple(r.get("fix_steps", [])),
            commands=tuple(tuple(c) for c in r.get("commands", [])), redirect=tuple(r.get("redirect", [])),
            subcodes=dict(r.get("subcodes", {})), sources=tuple(r.get("sources", [])),
            identifiers=tuple(i.lower() for i in r.get("identifiers", [])),
            identifier_requires=_compile(r["identifier_requires"], rid) if r.get("identifier_requires") else None,
        ))
    ids = {r.id for r in rules}
    for r in rules:
        for red in r.redirect:
            if red.get("rule") and red["rule"] not in ids:
                raise RulesError(f"rule {r.id}: redirect borrows unknown rule {red['rule']!r}")
    kw = keyword_regex([k for r in rules for k in r.keywords] + [i for r in rules for i in r.identifiers])
    return RuleBase(version=str(doc.get("version", "")), rules=tuple(rules), keywords=kw)


@lru_cache(maxsize=4)
def load_rules(path: Optional[str] = None) -> RuleBase:
    p = Path(path) if path else resource("diagnose", "rules.json")
    try:
        doc = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise RulesError(f"cannot read the diagnose rules {p}: {e}") from None
    return parse_rules(doc)


# ---------------------------------------------------------------------------------------
# placeholders

_FIELD_RE = re.compile(r"\{([a-z_]+)\}")


class _Missing(Exception):
    pass


def _show(v: Any) -> str:
    if v is None or isinstance(v, (list, tuple)) and not v:
        return "?"
    return " ".join(v) if isinstance(v, (list, tuple)) else str(v)


def template_params(template: str, values: dict[str, Any]) -> dict[str, str]:
    """The figures a rule's sentence is filled with (as _fill_str writes them), for translation."""
    return {name: _show(values.get(name)) for name in _FIELD_RE.findall(template)}


def text_template(code: str, field_name: str, rules: Optional[RuleBase] = None) -> Optional[str]:
    """The English template of a Match's root cause or fix by its code (Match.root_cause_code /
    fix_code): "<rule>", "<rule>/<subcode>" or "<rule>@<redirect when>"; None when unknown."""
    if not code or field_name not in ("root_cause", "fix"):
        return None
    try:
        rb = rules or load_rules()
    except RulesError:
        return None
    rid, sep, rest = code.partition("@") if "@" in code else code.partition("/")
    rule = next((r for r in rb.rules if r.id == rid), None)
    if rule is None:
        return None
    if not sep:
        return getattr(rule, field_name)
    if sep == "/":
        v = rule.subcodes.get(rest, {}).get(field_name)
    else:
        v = next((red.get(field_name) for red in rule.redirect if red.get("when") == rest), None)
    return v if isinstance(v, str) else None


def _fill_str(s: str, values: dict[str, Any], strict: bool) -> str:
    def rep(m: re.Match) -> str:
        v = values.get(m.group(1))
        if v is None or isinstance(v, (list, tuple)) and not v:
            if strict:
                raise _Missing(m.group(1))
            return "?"
        return " ".join(v) if isinstance(v, (list, tuple)) else str(v)

    return _FIELD_RE.sub(rep, s)


def _fill_argv(argv: Iterable[str], values: dict[str, Any]) -> tuple[str, ...]:
    out: list[str] = []
    for a in argv:
        m = _FIELD_RE.fullmatch(a)
        if m and isinstance(values.get(m.group(1)), (list, tuple)):
            items = values[m.group(1)]
            if not items:
                raise _Missing(m.group(1))
            out.extend(str(x) for x in items)
        else:
            out.append(_fill_str(a, values, strict=True))
    return tuple(out)


def _values(ctx: ev.Context, groups: dict[str, str], text: str) -> dict[str, Any]:
    f = ctx.facts
    t = ctx.torch
    v: dict[str, Any] = {k: x for k, x in groups.items() if x}
    v["python"] = ctx.python_path
    v["torch_cuda"] = t.cuda if t is not None and t.cuda else None
    rec = ctx.rec()
    if rec is not None:
        p = rec.pytorch
        if p.version and p.index and p.index != "cpu" and p.index_url:
            v["torch_packages"] = list(p.packages)
            v["torch_index_url"] = p.index_url
        if rec.driver.package and rec.driver.action in ("upgrade", "install"):
            v["driver_package"] = rec.driver.package
        if rec.cuda_toolkit.package:
            v["toolkit_package"] = rec.cuda_toolkit.package
            v["toolkit_version"] = rec.cuda_toolkit.version
    if "toolkit_package" not in v and v.get("torch_cuda"):
        mm = re.match(r"(\d+)\.(\d+)", v["torch_cuda"])
        if mm:  # NVIDIA's repository names the toolkit package after major-minor
            v["toolkit_package"] = f"cuda-toolkit-{mm.group(1)}-{mm.group(2)}"
            v["toolkit_version"] = f"{mm.group(1)}.{mm.group(2)}"
    home = None
    if f is not None:
        home = f.cuda.active_link or (f.cuda.toolkits[0].path if f.cuda.toolkits else None)
        v["kernel"] = f.os.kernel
    v["cuda_home"] = home or "/usr/local/cuda"
    m = re.search(r"(?<![\w./\-])((?:[\w./][\w./\-]*?)?cuda_[\w.\-]+?_linux[\w.\-]*\.run)\b", text) if "_linux" in text else None
    if m and not m.group(1).startswith("-"):
        v["runfile"] = m.group(1)
    major = groups.get("major")
    if major:
        cu = (v.get("torch_cuda") or "12").split(".")[0]
        cu = "12" if major == "8" and cu not in ("11", "12") else cu
        v["cudnn_wheel"] = f"nvidia-cudnn-cu{cu}<9" if major == "8" else f"nvidia-cudnn-cu{cu}>={major},<{int(major) + 1}"
    pk = ctx.linux_driver_packages()
    if pk:
        v["wsl_linux_driver_packages"] = pk
    argv = _torch_install_argv(ctx, rec)
    if argv:
        v["torch_install_argv"] = argv
    ca = ev.system_ca_bundle()
    if ca:
        v["ca_bundle"] = ca
    held = _named_packages(text) if "epends:" in text or "EPENDS:" in text else []
    if held:
        v["held_packages"] = held
    if not v.get("kver") and v.get("kernel"):
        v["kver"] = v["kernel"]
    v.setdefault("major", "the required")
    v.setdefault("dep", "a library it depends on")
    v.setdefault("reason", "see the message")
    # figures a wording may lack (and the identifier fallback never has): plain words instead of "?"
    for name, words in _DEFAULT_WORDS.items():
        v.setdefault(name, words)
    return v


_DEFAULT_WORDS = {
    "compiled": "one version", "runtime": "another version", "lib": "the library", "need": "a newer version",
    "max": "an older version", "kver": "this kernel", "host": "the download server", "xid": "(see the message)",
}
_PKG_NAME = re.compile(r"^(?:cuda[a-z0-9.+-]*|nvidia-[a-z0-9.+:-]+|libnvidia-[a-z0-9.+-]+|libcudnn[a-z0-9.+-]*|cudnn[a-z0-9.+-]*)$")


def _named_packages(text: str) -> list[str]:
    """NVIDIA/CUDA package names an apt dependency error names ("cuda-drivers : Depends: nvidia-driver-440")."""
    names: list[str] = []
    for m in re.finditer(r"(?:^|\s)([a-z0-9][a-z0-9.+\-]*) ?: depends: ([a-z0-9][a-z0-9.+\-]*)", text, re.IGNORECASE):
        for n in (m.group(1).lower(), m.group(2).lower()):
            if _PKG_NAME.match(n) and n not in names:
                names.append(n)
    return names[:12]


def _torch_install_argv(ctx: ev.Context, rec: Any) -> Optional[list[str]]:
    """The recommendation's own install command (app.plan.pytorch, the one the plan runs), aimed at the
    environment that failed, with --force-reinstall (a wheel of the same version but another CUDA
    build would otherwise count as installed)."""
    if rec is None or ctx.facts is None:
        return None
    p = getattr(rec, "pytorch", None)
    if p is None or not p.version or not p.index or p.index == "cpu" or not p.index_url:
        return None
    try:
        from app.choices import Choices
        from app.plan.pytorch import install_command, torch_packages

        choices = Choices()
        try:
            from app.config import load_config, mirrors_from

            choices = Choices(mirrors=mirrors_from(load_config()))
        except Exception:  # an unreadable config file: the default index
            pass
        pkgs = torch_packages(rec, choices)
        if not pkgs:
            return None
        return list(install_command(ctx.python_path, pkgs, rec, choices, None, force_reinstall=True).argv)
    except Exception:  # the plan engine is not installed
        return None


def _pred(name: Optional[str], ctx: ev.Context) -> Optional[bool]:
    if not name:
        return None
    r = ev.PREDICATES[name](ctx)
    if r is None and name in ev.PREDICATE_DEFAULT_TRUE:
        return True
    return r


def _steps(specs: Iterable[dict], ctx: ev.Context, values: dict[str, Any], code: str = "") -> tuple[list[FixStep], bool]:
    """FixSteps with placeholders filled; a step that cannot be filled is left out (second
    value True when a PyTorch reinstall was left out for want of a recommendation). `code` is the
    rule code the specs belong to (rule, rule/subcode, rule@redirect): each step's title and why are
    the catalogue's "plan.<code>.step.<id>.title/why" with the figures in params."""
    out: list[FixStep] = []
    dropped_torch = False
    for s in specs:
        if s.get("when") and not _pred(s["when"], ctx):
            continue
        if s.get("unless") and _pred(s["unless"], ctx):
            continue
        try:
            argv = tuple(_fill_argv(a, values) for a in s.get("argv", []))
            env = {k: _fill_str(x, values, strict=True) for k, x in s.get("env", {}).items()}
        except _Missing:
            dropped_torch = dropped_torch or s.get("kind") == "install_pytorch"
            continue
        params = {**template_params(s["title"], values), **template_params(s["why"], values)}
        out.append(FixStep(
            id=s["id"], title=_fill_str(s["title"], values, strict=False), why=_fill_str(s["why"], values, strict=False),
            kind=s.get("kind", "verify"), argv=argv, needs_root=bool(s.get("needs_root", False)),
            reboot_required=bool(s.get("reboot_required", False)), env=env, notes=tuple(s.get("notes", ())),
            title_code=f"{code}.step.{s['id']}.title" if code else "", why_code=f"{code}.step.{s['id']}.why" if code else "",
            params=params,
        ))
    return out, dropped_torch


# ---------------------------------------------------------------------------------------
# matching

@dataclass
class _Hit:
    rule: Rule
    window: Window
    match: re.Match
    count: int = 1
    tight: bool = False  # matched in the hard-wrap-joined text
    fallback: tuple[str, ...] = ()  # the identifiers named, when no wording matched (lower confidence)

    @property
    def line(self) -> int:
        return self.window.line_at(self.match.start(), tight=self.tight)


# a line of program source that quotes the message it would print (a script's `sys.exit("... is
# False")`, a playbook's `msg:`), not output: a match there is skipped and the next one looked for
# (a traceback shows the source line and then the error itself, which still counts)
_CODE_QUOTE_RE = re.compile(
    r"^\s*(?:[\w.\[\]'\"]+\s*=\s*)?(?:sys\.exit|print|raise\s+\w+(?:\.\w+)*|(?:self\.)?log(?:ger|ging)?\.\w+|"
    r"warnings\.warn|echo|printf|die|fail|msg:|fail_msg:)\s*\(?\s*[frbu]?[\"']")


_CODE_QUOTE_ML = re.compile(_CODE_QUOTE_RE.pattern, re.MULTILINE)


def _search_outside_code(p: re.Pattern, norm: str, w: Window) -> Optional[re.Match]:
    m = p.search(norm)
    for _ in range(20):  # bounded: the first 20 places it matches
        if m is None:
            return None
        try:
            raw = w.lines[w.line_at(m.start()) - w.first_line]
        except IndexError:
            return m
        q = _CODE_QUOTE_RE.match(raw)
        if q is None:
            return m
        m = p.search(norm, m.end())
    return m


def _find_hits(rb: RuleBase, windows: list[Window]) -> list[_Hit]:
    hits: dict[str, _Hit] = {}
    whole = None
    for w in windows:
        norm = w.normalised
        low = norm.lower()
        tight: Optional[str] = None
        tight_low = ""
        joins: Optional[str] = None
        for r in rb.rules:
            if not any(k in low for k in r.keywords):
                if tight is None:
                    tight = w.tight
                    tight_low = tight.lower() if tight != norm else ""
                    joins = w.tight_joins.lower()
                if not tight_low or not joins or not any(k in joins for k in r.keywords):
                    continue
            if any(x.search(norm) for x in r.excludes):
                continue
            m = None
            is_tight = False
            for p, lit in zip(r.patterns, r.literals):
                if lit and lit not in low:
                    continue
                m = _search_outside_code(p, norm, w)
                if m:
                    break
            if m is None:  # a terminal may have cut the message mid-word: try the lines joined tight
                if tight is None:
                    tight = w.tight
                    tight_low = tight.lower() if tight != norm else ""
                if tight_low and not any(x.search(tight) for x in r.excludes):
                    for p, lit in zip(r.patterns, r.literals):
                        if lit and lit not in tight_low:
                            continue
                        m = p.search(tight)
                        if m:
                            is_tight = True
                            break
            if m is None:
                continue
            if r.id in hits:
                hits[r.id].count += 1
                continue
            if r.requires:
                if whole is None:
                    whole = "\n".join(x.normalised for x in windows)
                if not all(q.search(whole) for q in r.requires):
                    continue
            hits[r.id] = _Hit(r, w, m, tight=is_tight)
    return list(hits.values())


# words that say something failed (English, and the Chinese of localised tools): an identifier only
# counts for the fallback when one of them is close by, so a package list or a healthy log that
# merely names libcudnn or nvidia-smi is never taken for an error
_FAILURE_RE = re.compile(
    r"\b(?:errors?|fail(?:ed|ure|s)?|fatal|cannot|can't|could ?n[o']t|couldn't|unable|not found|no such|denied|refused|"
    r"rejected|timed? ?out|exception|traceback|abort(?:ed)?|missing|mismatch|invalid|unsupported|not supported|"
    r"insufficient|unavailable|not available|exhausted|terminated|not permitted)\b|错误|失败|找不到|未找到")
_NEAR = 160


def _near_failure(low: str, ident: str) -> bool:
    start = 0
    for _ in range(50):  # bounded: the first 50 places it is named
        pos = low.find(ident, start)
        if pos < 0:
            return False
        if _FAILURE_RE.search(low, max(0, pos - _NEAR), min(len(low), pos + len(ident) + _NEAR)):
            return True
        start = pos + len(ident)
    return False


def _fallback_hits(rb: RuleBase, windows: list[Window]) -> list[_Hit]:
    """When no rule's wording matched: rank the rules by how many of their stable identifiers (error
    codes, library and API names) the text names, and answer with the best one per category, at
    lower confidence. A rule's `identifier_requires`, `requires` and `excludes` still apply."""
    if not windows:
        return []
    texts = [(w, w.normalised, w.normalised.lower()) for w in windows]
    whole = "\n".join(t for _, t, _ in texts)
    # what the identifiers are counted in: the text less the lines of program source that quote a message
    low = whole.lower()
    if any(_CODE_QUOTE_ML.search(w.text) for w in windows):
        low = "\n".join(" ".join(c for i, c in w.cleaned if not _CODE_QUOTE_RE.match(w.lines[i])) for w in windows).lower()
    scored: list[tuple[float, float, Rule, tuple[str, ...]]] = []
    named: dict[str, bool] = {}  # identifier -> named next to a failure word somewhere
    for r in rb.rules:
        found = []
        for i in r.identifiers:
            if i not in named:
                named[i] = i in low and _near_failure(low, i)
            if named[i]:
                found.append(i)
        found = tuple(found)
        if not found:
            continue
        if r.identifier_requires is not None and not r.identifier_requires.search(whole):
            continue
        if any(not q.search(whole) for q in r.requires) or any(x.search(whole) for x in r.excludes):
            continue
        # distinct identifiers, and a bonus when a longer one (more specific) is among them
        score = len(found) + 0.5 * any(k in low for k in r.keywords) + 0.01 * max(len(i) for i in found)
        scored.append((score, r.confidence, r, found))
    scored.sort(key=lambda x: (-x[0], -x[1]))
    out: list[_Hit] = []
    cats: set[str] = set()
    for score, _, r, found in scored:
        if r.category in cats or (out and score < scored[0][0] - 1):
            continue
        first = found[0]
        for w, norm, wl in texts:
            pos = wl.find(first)
            if pos >= 0:
                m = re.compile(re.escape(first), re.IGNORECASE).search(norm, pos)
                if m is not None:
                    out.append(_Hit(r, w, m, fallback=found))
                    cats.add(r.category)
                break
        if len(out) >= 2:
            break
    return out


def _excerpt(w: Window, m: re.Match, tight: bool = False) -> str:
    """About 40 characters before the match and 60 after, widened to whole words (an ellipsis
    marks text cut off), at most 240 characters."""
    s = w.tight if tight else w.normalised
    a, b = max(0, m.start() - 40), min(len(s), m.end() + 60)
    while a > 0 and not s[a - 1].isspace() and m.start() - a < 60:
        a -= 1
    while b < len(s) and not s[b].isspace() and b - m.end() < 80:
        b += 1
    text = s[a:b].strip()[:240]
    return ("…" if a > 0 else "") + text + ("…" if b < len(s) else "")


def _synthetic_facts(facts: Optional[Facts], groups: dict[str, str], text: str) -> Optional[Facts]:
    """Facts for naming a wheel when the machine is unknown: the GPU the message names."""
    sm = groups.get("sm")
    if sm and (facts is None or not any(g.compute_capability for g in facts.gpus)):
        n = re.match(r"sm_(\d+?)(\d)$", sm)
        if n:
            name_m = re.search(r"((?:NVIDIA )?(?:GeForce |Quadro |Tesla )?[\w \-]+?) with cuda capability", text, re.IGNORECASE)
            name = name_m.group(1).strip() if name_m else "GPU"
            base = facts or Facts(source="text")
            return base.replace(gpus=(Gpu(index=0, name=name, compute_capability=f"{n.group(1)}.{n.group(2)}", source="text"),))
    return facts


def _build_match(hit: _Hit, facts: Optional[Facts], live: dict, text_all: str, recommendation: Any,
                 rules_by_id: Optional[dict[str, Rule]] = None) -> Match:
    r = hit.rule
    groups = {k: v for k, v in hit.match.groupdict().items() if v}
    ctx = ev.Context(facts=facts, text=text_all, groups=groups, live=live or {}, recommendation=recommendation)
    category, subcode = r.category, r.subcode
    evidence: list[Evidence] = [Evidence(source="text", message=f"The text says: \u201c{_excerpt(hit.window, hit.match, hit.tight)}\u201d",
                                         key=f"line {hit.line}")]
    if hit.fallback:
        evidence.append(Evidence(source="text", key="identifiers", value=", ".join(hit.fallback),
                                 message=f"It names {', '.join(hit.fallback)}, identifiers of this failure, in a wording no rule "
                                         "spells out: a lower-confidence answer."))
    redirected: Optional[dict] = None
    for red in r.redirect:
        if _pred(red["when"], ctx):
            redirected = red
            category = red["category"]
            subcode = red.get("subcode", subcode)
            break
    # where the texts come from: the rule, a rule the redirect borrows, or the redirect itself
    text_rule = r
    if redirected is not None and redirected.get("rule") and rules_by_id and redirected["rule"] in rules_by_id:
        text_rule = rules_by_id[redirected["rule"]]
    fact_names = list(r.facts)
    extra = list(redirected.get("facts", [])) if redirected else []
    if text_rule is not r:
        extra += list(text_rule.facts)
    fact_names += [x for x in extra if x not in fact_names]
    hint = None
    for name in fact_names:
        res = ev.CHECKS[name](ctx)
        evidence.extend(res.evidence)
        if hint is None and res.subcode:
            hint = res.subcode
    spec: dict = {}
    if redirected is None and hint and hint in r.subcodes:
        subcode = hint
        spec = r.subcodes[hint]
    support = sum(1 for e in evidence if e.source != "text" and e.supports)
    against = sum(1 for e in evidence if not e.supports)
    base = float(spec.get("confidence", r.confidence + (0.1 if spec else 0.0)))
    conf = base + 0.04 * min(3, support) - 0.15 * min(2, against) + (0.02 if hit.count > 1 else 0.0)
    if redirected is not None:
        conf = max(conf, r.confidence)
    if hit.fallback:  # named by identifiers only: never as sure as a known wording
        conf = min(0.6, conf * 0.6 + 0.03 * min(3, len(hit.fallback)))
    conf = round(min(0.99, max(0.05, conf)), 2)
    values = _values(ctx, groups, text_all)
    red_txt = redirected if (redirected is not None and text_rule is r) else {}
    codes, params = {}, {}
    for name in ("root_cause", "fix"):
        if spec.get(name):
            codes[name], tmpl = f"{r.id}/{subcode}", spec[name]
        elif red_txt.get(name):
            codes[name], tmpl = f"{r.id}@{red_txt['when']}", red_txt[name]
        else:
            codes[name], tmpl = text_rule.id, getattr(text_rule, name)
        params.update(template_params(tmpl, values))
    root_cause = _fill_str(spec.get("root_cause") or red_txt.get("root_cause") or text_rule.root_cause, values, strict=False)
    fix = _fill_str(spec.get("fix") or red_txt.get("fix") or text_rule.fix, values, strict=False)
    if "fix_steps" in spec:
        step_specs, step_code = spec["fix_steps"], f"{r.id}/{subcode}"
    elif "fix_steps" in red_txt:
        step_specs, step_code = red_txt["fix_steps"], f"{r.id}@{red_txt['when']}"
    else:
        step_specs, step_code = text_rule.fix_steps, text_rule.id
    steps, dropped_torch = _steps(step_specs, ctx, values, step_code)
    from app.diagnose.fixplan import mark_manual

    steps = mark_manual(steps)
    if dropped_torch:
        from app.plan.model import english

        steps.append(FixStep(id="check_recommendation", kind="verify", title=english("diagnose_check_recommendation", {}),
                             why=english("diagnose_check_recommendation_why", {}),
                             argv=(("gpu-wizard", "recommend"),), title_code="diagnose_check_recommendation",
                             why_code="diagnose_check_recommendation_why"))
    commands = []
    for c in tuple(spec.get("commands", ())) + text_rule.commands + (r.commands if text_rule is not r else ()):
        try:
            cc = _fill_argv(c, values)
        except _Missing:
            continue
        if cc not in commands:
            commands.append(cc)
    return Match(category=category, rule=r.id, subcode=subcode, confidence=conf, root_cause=root_cause, fix=fix,
                 evidence=tuple(evidence), fix_steps=tuple(steps), commands=tuple(commands),
                 line=hit.line, excerpt=_excerpt(hit.window, hit.match, hit.tight),
                 sources=r.sources + (text_rule.sources if text_rule is not r else ()),
                 root_cause_code=codes["root_cause"], fix_code=codes["fix"], params=params)


def diagnose_scan(scan: ScanResult, facts: Optional[Facts] = None, live: Optional[dict] = None, *,
                  samples: Any = None, rules: Optional[RuleBase] = None) -> Diagnosis:
    rb = rules or load_rules()
    live = live or {}
    hits = _find_hits(rb, scan.windows) or _fallback_hits(rb, scan.windows)
    text_all = "\n".join(w.normalised + ("\n" + w.tight if w.tight != w.normalised else "") for w in scan.windows)
    raw_all = "\n".join(w.text for w in scan.windows)
    matches: list[Match] = []
    rec_cache: dict[int, Any] = {}
    for h in hits:
        groups = {k: v for k, v in h.match.groupdict().items() if v}
        f2 = _synthetic_facts(facts, groups, raw_all)
        key = id(f2)
        if key not in rec_cache:
            c = ev.Context(facts=f2)
            rec_cache[key] = c.rec()
        matches.append(_build_match(h, f2, live, text_all, rec_cache[key], {x.id: x for x in rb.rules}))
    oom = None
    if any(m.category == "oom" for m in matches) or (scan.usage_mib and live.get("processes")):
        from app.diagnose.oom import analyze_oom, apply_to_match

        oom = analyze_oom(raw_all, scan.usage_mib, facts=facts, live=live)
        matches = [apply_to_match(m, oom) if m.category == "oom" and m.rule == "oom_cuda_out_of_memory" else m for m in matches]
    guessed = {h.rule.id for h in hits if h.fallback}
    if guessed:  # an answer from identifiers alone stays below every known wording
        matches = [m.replace(confidence=min(m.confidence, 0.6)) if m.rule in guessed else m for m in matches]
    util = None
    if samples:
        from app.diagnose.utilization import analyze_utilization

        util = analyze_utilization(samples, facts=facts, text=text_all)
    # rank: confidence, then the earlier line; one match per category
    matches.sort(key=lambda m: (-m.confidence, m.line or 0))
    best: dict[str, Match] = {}
    for m in matches:
        best.setdefault(m.category, m)
    ranked = sorted(best.values(), key=lambda m: (-m.confidence, m.line or 0))
    info = InputInfo(bytes_read=scan.bytes_read, lines_read=scan.lines_read, chars_kept=scan.chars_kept,
                     truncated=scan.truncated, binary=scan.binary, decode_errors=scan.decode_errors)
    if ranked:
        msg = f"{len(ranked)} known problem(s) found; the most likely: {ranked[0].category}."
    elif scan.bytes_read == 0:
        msg = "The text is empty: paste the whole error message or point at the log file."
    else:
        msg = ("No known GPU setup error was recognised in this text. Paste the complete traceback or installer log "
               "(the last 50 lines usually hold the error), or run `gpu-wizard detect` and `gpu-wizard verify` to check the machine.")
        if scan.binary:
            msg = "The input looks like binary data, not a log; no known error text was found in it."
    return Diagnosis(matches=tuple(ranked), oom=oom, utilization=util, input=info,
                     facts_source=facts.source if facts is not None else None, message=msg, rules_version=rb.version)


def diagnose(text: str, facts: Optional[Facts] = None, live: Optional[dict] = None, *,
             samples: Optional[list] = None) -> Diagnosis:
    """Diagnose error text (a paste or a whole log) against `facts` (this machine or a snapshot;
    None: the text alone). `live`: {"processes": [{"pid", "name", "used_mib", "gpu_index"}], ...}
    from NVML/nvidia-smi. `samples`: the verification sampler's samples (dicts or Sample values),
    or a whole Verification (value or JSON), for the low-utilization analysis."""
    rb = load_rules()
    data = text.encode("utf-8", errors="replace") if isinstance(text, str) else bytes(text)
    if samples is None and isinstance(text, str) and len(text) < 4 * 1024 * 1024 and re.search(r"^\s*#\s*gpu\s+pwr", text, re.M):
        from app.diagnose.utilization import parse_dmon

        samples = parse_dmon(text) or None  # a pasted `nvidia-smi dmon` table: the utilization analysis
    scan = scan_stream(io.BytesIO(data), rb.keywords)
    return diagnose_scan(scan, facts, live, samples=samples, rules=rb)


def diagnose_stream(stream: BinaryIO, facts: Optional[Facts] = None, live: Optional[dict] = None, *,
                    samples: Optional[list] = None) -> Diagnosis:
    """The same for a byte stream (a file, stdin): read in chunks, bounded time and memory."""
    rb = load_rules()
    return diagnose_scan(scan_stream(stream, rb.keywords), facts, live, samples=samples, rules=rb)


def diagnose_file(path: str | Path, facts: Optional[Facts] = None, live: Optional[dict] = None, *,
                  samples: Optional[list] = None) -> Diagnosis:
    with open(path, "rb") as fh:
        return diagnose_stream(fh, facts, live, samples=samples)
