"""diagnose(text, facts, live) -> Diagnosis: the rule base applied to error text, checked
against the facts of the machine the text comes from.

1. The text is scanned in bounded time and memory (textscan): only windows around rule
   keywords are kept, normalised so wrapped lines still match.
2. The machine the text comes from is inferred (app.diagnose.platform): the text's own clues first,
   this machine's facts second. A text from another machine is diagnosed without this machine's facts.
3. Every rule's patterns are tried on each window (app.diagnose.matching); a rule's `excludes` veto a
   window, its `requires` must hold somewhere in the kept text. The first hit of each rule counts.
4. For each hit: redirect predicates may move it to another category (e.g. nvidia-smi failing
   inside WSL); the named fact checks add evidence and may pin a subcode; confidence moves
   with the evidence; root cause, fix and fix steps come from the rule (or its subcode entry, or
   their entry for the platform) with placeholders filled from the match, the facts, the
   recommendation and the run's choices (app.diagnose.values, app.diagnose.steps).
5. Out-of-memory messages get the numeric analysis (app.diagnose.oom); samples from the
   verification sampler get the low-utilization analysis (app.diagnose.utilization).
6. Matches are ranked by confidence, then by where they appear (the first error first), one
   per category.

The diagnosis never solves a recommendation itself: the caller gives this machine's
(`recommendation`) and a `recommender` for the facts a text implies (the pipeline above does both).
"""
from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, Callable, Optional

from app.diagnose import evidence as ev
from app.diagnose.matching import Hit, excerpt, fallback_hits, find_hits
from app.diagnose.model import Diagnosis, Evidence, InputInfo, Match, Platform
from app.diagnose.platform import infer_platform
from app.diagnose.rules import (RuleBase, Rule, RulesError, load_rules, parse_rules,  # noqa: F401 (the module's API)
                                text_template)
from app.diagnose.steps import build_steps, finish, platform_entry, pred
from app.diagnose.textscan import ScanResult, scan_stream
from app.diagnose.values import fill_argv, fill_str, Missing, template_params, values as fill_values
from app.facts import Facts, Gpu, OsInfo

Recommender = Callable[[Facts], Any]


@dataclass
class Run:
    """What one diagnosis is made with: the facts of the machine the text comes from (None for a text from
    another machine), the assumed platform, the recommendations, the run's choices, live measurements."""

    rules: RuleBase
    platform: Platform
    facts: Optional[Facts] = None
    live: dict = field(default_factory=dict)
    recommendation: Any = None
    recommender: Optional[Recommender] = None
    choices: Any = None
    _recs: dict = field(default_factory=dict)

    def rec_for(self, facts: Optional[Facts]) -> Any:
        if facts is None:
            return None
        if facts is self.facts and self.recommendation is not None:
            return self.recommendation
        key = id(facts)
        if key not in self._recs:
            try:
                self._recs[key] = self.recommender(facts) if self.recommender is not None else None
            except Exception:  # the solve cannot decide: no wheel named
                self._recs[key] = None
        return self._recs[key]


def match_groups(m: re.Match) -> dict[str, str]:
    """A match's named groups that matched; a capability written as a number ("3.7", PyTorch's "which is of
    compute capability (CC) 3.7") is also given as the sm name the other checks read (sm_37)."""
    groups = {k: v for k, v in m.groupdict().items() if v}
    cc = re.fullmatch(r"(\d{1,2})\.(\d)", groups.get("cc", ""))
    if cc and "sm" not in groups:
        groups["sm"] = f"sm_{cc.group(1)}{cc.group(2)}"
    return groups


def _synthetic_facts(facts: Optional[Facts], groups: dict[str, str], text: str, platform: Platform) -> Optional[Facts]:
    """Facts for naming a wheel when the machine is unknown: the GPU the message names, on the platform
    the text comes from."""
    sm = groups.get("sm")
    if sm and (facts is None or not any(g.compute_capability for g in facts.gpus)):
        n = re.match(r"sm_(\d+?)(\d)$", sm)
        if n:
            name_m = re.search(r"((?:NVIDIA )?(?:GeForce |Quadro |Tesla )?[\w \-]+?) with cuda capability", text, re.IGNORECASE)
            name = groups.get("gpu") or (name_m.group(1).strip() if name_m else "GPU")
            base = facts or Facts(source="text", os=OsInfo(platform="windows" if platform.os == "windows" else "linux",
                                                            wsl=2 if platform.os == "wsl" else 0,
                                                            package_manager=platform.package_manager))
            return base.replace(gpus=(Gpu(index=0, name=name, compute_capability=f"{n.group(1)}.{n.group(2)}", source="text"),))
    return facts


@dataclass
class _Texts:
    """Where a match's sentences and steps come from: the rule, its subcode or redirect entry, the rule a
    redirect borrows, and the rule base's own entry for the platform."""

    rule: Rule
    text_rule: Rule
    spec: dict
    redirected: Optional[dict]
    subcode: str
    category: str

    def levels(self) -> list[tuple[dict, str]]:
        r = self.rule
        out: list[tuple[dict, str]] = []
        if self.spec:
            out.append((self.spec, f"{r.id}/{self.subcode}"))
        red = self.redirected if (self.redirected is not None and self.text_rule is r) else None
        if red:
            out.append((red, f"{r.id}@{red['when']}"))
        out.append((self.text_rule.part(), self.text_rule.id))
        return out


def _pick(texts: _Texts, name: str, platform: Platform, rb: RuleBase) -> tuple[Any, str]:
    """(template or step list, its code) of `name` (root_cause, fix, fix_steps): the most specific part that
    says it, its own platform entry first; the rule base's platform entry (macOS) over a part's generic text."""
    def says(d: dict) -> bool:  # a step list may be empty on purpose ("no step fixes this"); a sentence may not
        return name in d if name == "fix_steps" else bool(d.get(name))

    glob = platform_entry({"platforms": rb.platforms or {}}, platform)
    for part, code in texts.levels():
        pe = platform_entry(part, platform)
        if pe is not None and says(pe[1]):
            return pe[1][name], f"{code}~{pe[0]}"
        if says(part):
            if glob is not None and says(glob[1]):
                return glob[1][name], f"platform~{glob[0]}"
            return part[name], code
    return "", ""


def _redirect(r: Rule, ctx: ev.Context, rules_by_id: dict[str, Rule]) -> tuple[Optional[dict], Rule]:
    for red in r.redirect:
        if pred(red["when"], ctx):
            borrowed = rules_by_id.get(red.get("rule") or "")
            return red, borrowed or r
    return None, r


def _evidence(hit: Hit, ctx: ev.Context, fact_names: list[str]) -> tuple[list[Evidence], list[str]]:
    quote = excerpt(hit.window, hit.match, hit.tight)
    out = [Evidence(source="text", message=f"The text says: \u201c{quote}\u201d", key=f"line {hit.line}",
                    code="text_says", params={"excerpt": quote})]
    if hit.fallback:
        names = ", ".join(hit.fallback)
        out.append(Evidence(source="text", key="identifiers", value=names, code="identifiers", params={"names": names},
                            message=f"It names {names}, identifiers of this failure, in a wording no rule "
                                    "spells out: a lower-confidence answer."))
    hints: list[str] = []
    for name in fact_names:
        res = ev.CHECKS[name](ctx)
        out.extend(res.evidence)
        if res.subcode:
            hints.append(res.subcode)
    return out, hints


def _confidence(hit: Hit, base: float, evidence: list[Evidence], redirected: bool, rule_conf: float) -> float:
    support = sum(1 for e in evidence if e.source != "text" and e.supports)
    against = sum(1 for e in evidence if not e.supports)
    conf = base + 0.04 * min(3, support) - 0.15 * min(2, against) + (0.02 if hit.count > 1 else 0.0)
    if redirected:
        conf = max(conf, rule_conf)
    if hit.fallback:  # named by identifiers only: never as sure as a known wording
        conf = min(0.6, conf * 0.6 + 0.03 * min(3, len(hit.fallback)))
    return round(min(0.99, max(0.05, conf)), 2)


def _commands(texts: _Texts, values: dict[str, Any]) -> tuple[tuple[str, ...], ...]:
    r, tr = texts.rule, texts.text_rule
    out: list[tuple[str, ...]] = []
    for c in tuple(texts.spec.get("commands", ())) + tr.commands + (r.commands if tr is not r else ()):
        try:
            cc = fill_argv(c, values)
        except Missing:
            continue
        if cc not in out:
            out.append(cc)
    return tuple(out)


def _texts_for(hit: Hit, ctx: ev.Context, run: Run) -> tuple[_Texts, list[Evidence]]:
    r = hit.rule
    redirected, text_rule = _redirect(r, ctx, {x.id: x for x in run.rules.rules})
    fact_names = list(r.facts)
    extra = list(redirected.get("facts", [])) if redirected else []
    if text_rule is not r:
        extra += list(text_rule.facts)
    fact_names += [x for x in extra if x not in fact_names]
    evidence, hints = _evidence(hit, ctx, fact_names)
    spec: dict = {}
    subcode = redirected.get("subcode", r.subcode) if redirected else r.subcode
    hint = next((h for h in hints if h in r.subcodes), None)  # the first cause the facts pin that the rule knows
    if redirected is None and hint:
        subcode, spec = hint, r.subcodes[hint]
    category = redirected["category"] if redirected else r.category
    return _Texts(rule=r, text_rule=text_rule, spec=spec, redirected=redirected, subcode=subcode, category=category), evidence


def build_match(hit: Hit, facts: Optional[Facts], text_all: str, run: Run) -> Match:
    groups = match_groups(hit.match)
    ctx = ev.Context(facts=facts, text=text_all, groups=groups, live=run.live or {}, recommendation=run.rec_for(facts),
                     platform=run.platform, choices=run.choices)
    texts, evidence = _texts_for(hit, ctx, run)
    r = hit.rule
    base = float(texts.spec.get("confidence", r.confidence + (0.1 if texts.spec else 0.0)))
    conf = _confidence(hit, base, evidence, texts.redirected is not None, r.confidence)
    values = fill_values(ctx, groups, text_all)
    codes: dict[str, str] = {}
    params: dict[str, str] = {}
    sentences: dict[str, str] = {}
    for name in ("root_cause", "fix"):
        tmpl, codes[name] = _pick(texts, name, run.platform, run.rules)
        params.update(template_params(tmpl, values))
        sentences[name] = fill_str(tmpl, values, strict=False)
    step_specs, step_code = _pick(texts, "fix_steps", run.platform, run.rules)
    steps, dropped = build_steps(step_specs or (), ctx, values, step_code, run.rules.fixes)
    steps = finish(steps, dropped, run.platform)
    if run.platform.foreign:  # written for the machine the text comes from: the user runs them there
        steps = [s if s.manual else s.replace(manual=True) for s in steps]
    return Match(category=texts.category, rule=r.id, subcode=texts.subcode, confidence=conf,
                 root_cause=sentences["root_cause"], fix=sentences["fix"], evidence=tuple(evidence),
                 fix_steps=tuple(steps), commands=_commands(texts, values), line=hit.line,
                 excerpt=excerpt(hit.window, hit.match, hit.tight),
                 sources=r.sources + (texts.text_rule.sources if texts.text_rule is not r else ()),
                 root_cause_code=codes["root_cause"], fix_code=codes["fix"], params=params, not_setup=r.not_setup)


def _platform_evidence(p: Platform) -> Optional[Evidence]:
    """The evidence line saying the text came from another machine, so this machine's facts were not used."""
    if not p.foreign:
        return None
    what = platform_words(p)
    return Evidence(source="text", key="platform", value=p.os, supports=True, code="foreign_text", params={"machine": what},
                    message=f"The text comes from another machine ({what}) than this one: this machine's facts were not used.")


def platform_words(p: Platform) -> str:
    """The assumed machine in plain words: "Windows", "WSL 2 (apt)", "a docker container on Linux (dnf)"."""
    os_words = {"linux": "Linux", "wsl": "WSL 2", "windows": "Windows", "macos": "macOS"}[p.os]
    if p.os in ("linux", "wsl") and p.package_manager:
        os_words += f" ({p.package_manager})"
    if p.container == "docker_desktop":
        return f"Docker Desktop on {os_words}"
    if p.container:
        return f"a {p.container} container on {os_words}"
    return os_words


def _ranked(matches: list[Match]) -> list[Match]:
    """Confidence first, then the earlier line; one match per category."""
    matches.sort(key=lambda m: (-m.confidence, m.line or 0))
    best: dict[str, Match] = {}
    for m in matches:
        best.setdefault(m.category, m)
    return sorted(best.values(), key=lambda m: (-m.confidence, m.line or 0))


def _message(ranked: list[Match], scan: ScanResult) -> tuple[str, str, dict[str, str]]:
    if ranked:
        return (f"{len(ranked)} known problem(s) found; the most likely: {ranked[0].category}.", "diag_found",
                {"count": str(len(ranked)), "category": ranked[0].category})
    if scan.bytes_read == 0:
        return "The text is empty: paste the whole error message or point at the log file.", "diag_empty", {}
    if scan.binary:
        return "The input looks like binary data, not a log; no known error text was found in it.", "diag_binary_input", {}
    return ("No known GPU setup error was recognised in this text. Paste the complete traceback or installer log "
            "(the last 50 lines usually hold the error), or run `gpu-wizard detect` and `gpu-wizard verify` to check the machine.",
            "diag_nothing", {})


def _with_oom(matches: list[Match], raw_all: str, scan: ScanResult, run: Run, facts: Optional[Facts]):
    live = run.live or {}
    if not (any(m.category == "oom" for m in matches) or (scan.usage_mib and live.get("processes"))):
        return matches, None
    from app.diagnose.oom import analyze_oom, apply_to_match

    oom = analyze_oom(raw_all, scan.usage_mib, facts=facts, live=live)
    return [apply_to_match(m, oom) if m.category == "oom" and m.rule == "oom_cuda_out_of_memory" else m for m in matches], oom


def diagnose_scan(scan: ScanResult, facts: Optional[Facts] = None, live: Optional[dict] = None, *,
                  samples: Any = None, rules: Optional[RuleBase] = None, recommendation: Any = None,
                  recommender: Optional[Recommender] = None, choices: Any = None) -> Diagnosis:
    rb = rules or load_rules()
    raw_all = "\n".join(w.text for w in scan.windows)
    joined = "\n".join(w.tight for w in scan.windows if w.tight_joins)  # words a terminal cut at its width, whole again
    platform = infer_platform(raw_all + ("\n" + joined if joined else ""), facts, venv_python=_plan_venv_python(choices, facts))
    here = None if platform.foreign else facts
    run = Run(rules=rb, platform=platform, facts=here, live=live or {}, recommendation=recommendation,
              recommender=recommender, choices=choices)
    hits = find_hits(rb, scan.windows) or fallback_hits(rb, scan.windows)
    text_all = "\n".join(w.normalised + ("\n" + w.tight if w.tight != w.normalised else "") for w in scan.windows)
    matches: list[Match] = []
    foreign = _platform_evidence(platform)
    for h in hits:
        groups = match_groups(h.match)
        m = build_match(h, _synthetic_facts(here, groups, raw_all, platform), text_all, run)
        matches.append(m.replace(evidence=(foreign,) + m.evidence) if foreign is not None else m)
    matches, oom = _with_oom(matches, raw_all, scan, run, here)
    guessed = {h.rule.id for h in hits if h.fallback}
    if guessed:  # an answer from identifiers alone stays below every known wording
        matches = [m.replace(confidence=min(m.confidence, 0.6)) if m.rule in guessed else m for m in matches]
    util = None
    if samples:
        from app.diagnose.utilization import analyze_utilization

        util = analyze_utilization(samples, facts=here, text=text_all)
    ranked = _ranked(matches)
    info = InputInfo(bytes_read=scan.bytes_read, lines_read=scan.lines_read, chars_kept=scan.chars_kept,
                     truncated=scan.truncated, binary=scan.binary, decode_errors=scan.decode_errors)
    msg, code, mparams = _message(ranked, scan)
    return Diagnosis(matches=tuple(ranked), oom=oom, utilization=util, input=info,
                     facts_source=here.source if here is not None else None, message=msg, rules_version=rb.version,
                     platform=platform, message_code=code, message_params=mparams)


def _plan_venv_python(choices: Any, facts: Optional[Facts]) -> Optional[str]:
    """The interpreter of the plan's venv (the run's --venv, else the default), on this machine's platform."""
    from app.install_command import DEFAULT_VENV, expand_venv, venv_python

    path = getattr(choices, "venv_path", None) or DEFAULT_VENV
    plat = "windows" if facts is not None and facts.os.platform == "windows" else "linux"
    return venv_python(expand_venv(path, facts), plat)


def diagnose(text: str, facts: Optional[Facts] = None, live: Optional[dict] = None, *,
             samples: Optional[list] = None, recommendation: Any = None, recommender: Optional[Recommender] = None,
             choices: Any = None) -> Diagnosis:
    """Diagnose error text (a paste or a whole log) against `facts` (this machine or a snapshot;
    None: the text alone). `live`: {"processes": [{"pid", "name", "used_mib", "gpu_index"}], ...}
    from NVML/nvidia-smi. `samples`: the verification sampler's samples (dicts or Sample values),
    or a whole Verification (value or JSON), for the low-utilization analysis. `recommendation`: this
    machine's (for `facts`); `recommender(facts)`: the solve for other facts (the GPU a message names);
    `choices`: the run's Choices (mirrors, proxy, CA, venv) the fix steps are written with."""
    rb = load_rules()
    data = text.encode("utf-8", errors="replace") if isinstance(text, str) else bytes(text)
    if samples is None and isinstance(text, str) and len(text) < 4 * 1024 * 1024 and re.search(r"^\s*#\s*gpu\s+pwr", text, re.M):
        from app.diagnose.utilization import parse_dmon

        samples = parse_dmon(text) or None  # a pasted `nvidia-smi dmon` table: the utilization analysis
    scan = scan_stream(io.BytesIO(data), rb.keywords)
    return diagnose_scan(scan, facts, live, samples=samples, rules=rb, recommendation=recommendation,
                         recommender=recommender, choices=choices)


def diagnose_stream(stream: BinaryIO, facts: Optional[Facts] = None, live: Optional[dict] = None, *,
                    samples: Optional[list] = None, **kw: Any) -> Diagnosis:
    """The same for a byte stream (a file, stdin): read in chunks, bounded time and memory."""
    rb = load_rules()
    return diagnose_scan(scan_stream(stream, rb.keywords), facts, live, samples=samples, rules=rb, **kw)


def diagnose_file(path: str | Path, facts: Optional[Facts] = None, live: Optional[dict] = None, *,
                  samples: Optional[list] = None, **kw: Any) -> Diagnosis:
    with open(path, "rb") as fh:
        return diagnose_stream(fh, facts, live, samples=samples, **kw)
