"""Finding where a rule's wording (or, failing every wording, its identifiers) occurs in the kept text."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

from app.diagnose.rules import LazyRx, Rule, RuleBase
from app.diagnose.textscan import Window


@dataclass
class Hit:
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


def _search_outside_code(p: LazyRx, norm: str, w: Window) -> Optional[re.Match]:
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


def find_hits(rb: RuleBase, windows: list[Window]) -> list[Hit]:
    hits: dict[str, Hit] = {}
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
            hits[r.id] = Hit(r, w, m, tight=is_tight)
    return list(hits.values())


# words that say something failed (English, and the Chinese of localised tools): an identifier only
# counts for the fallback when one of them is close by, so a package list or a healthy log that
# merely names libcudnn or nvidia-smi is never taken for an error
_FAILURE_RE = re.compile(
    r"\b(?:errors?|fail(?:ed|ure|s)?|fatal|cannot|can't|could ?n[o']t|couldn't|unable|not found|no such|denied|refused|"
    r"rejected|timed? ?out|exception|traceback|abort(?:ed)?|missing|mismatch|invalid|unsupported|not supported|"
    r"insufficient|unavailable|not available|exhausted|terminated|not permitted)\b|错误|失败|找不到|未找到")
_NEAR = 160
# a failure word that only states a condition ("TF cannot find it if it is not on LD_LIBRARY_PATH", "fails when ...")
# describes how a program behaves, it reports nothing that happened
_CONDITIONAL_RE = re.compile(r"\s+(?:\w+\s+){0,2}(?:if|when|unless)\b")


def _failure_between(low: str, a: int, b: int) -> bool:
    for m in _FAILURE_RE.finditer(low, a, b):
        if not _CONDITIONAL_RE.match(low, m.end()):
            return True
    return False


def _near_failure(low: str, ident: str) -> bool:
    start = 0
    for _ in range(50):  # bounded: the first 50 places it is named
        pos = low.find(ident, start)
        if pos < 0:
            return False
        if _failure_between(low, max(0, pos - _NEAR), min(len(low), pos + len(ident) + _NEAR)):
            return True
        start = pos + len(ident)
    return False


def fallback_hits(rb: RuleBase, windows: list[Window]) -> list[Hit]:
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
        for i in r.identifiers:
            if i not in named:
                named[i] = i in low and _near_failure(low, i)
        found = tuple(i for i in r.identifiers if named[i])
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
    out: list[Hit] = []
    cats: set[str] = set()
    for score, _, r, names in scored:
        if r.category in cats or (out and score < scored[0][0] - 1):
            continue
        first = names[0]
        for w, norm, wl in texts:
            pos = wl.find(first)
            if pos >= 0:
                m = re.compile(re.escape(first), re.IGNORECASE).search(norm, pos)
                if m is not None:
                    out.append(Hit(r, w, m, fallback=names))
                    cats.add(r.category)
                break
        if len(out) >= 2:
            break
    return out


def excerpt(w: Window, m: re.Match, tight: bool = False) -> str:
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
