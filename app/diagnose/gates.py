"""A cheap necessary condition for a regex: literals of which every match holds at least one.

A log of several MB is searched by dozens of case-insensitive patterns (the platform clues, the rules'
patterns). Most of them are absent from most logs, and a regex that is absent costs a full scan at
tens of ns a character; a substring test in C costs a fraction of that. `Gated.search(text, low)` runs
the regex only when one of its literals is in the lower-cased text: the answer is the regex's own, only
the work changes. The literals come from the pattern's parse tree (the private parser of the `re`
module, stable since 3.x); a pattern with no such literal is always run."""
from __future__ import annotations

import re
from typing import Optional

try:  # pragma: no cover - the module's name changed in 3.11
    import re._parser as _sre_parse
    from re._constants import BRANCH, LITERAL, MAX_REPEAT, MIN_REPEAT, SUBPATTERN
except ImportError:  # pragma: no cover - Python 3.10
    import sre_parse as _sre_parse
    from sre_constants import BRANCH, LITERAL, MAX_REPEAT, MIN_REPEAT, SUBPATTERN

MIN_GATE = 2  # a one-character literal is in nearly every text: no use as a gate
# the characters re.IGNORECASE matches with an ASCII letter that str.lower() leaves apart (dotless i, long s)
_FOLD = {0x131: "i", 0x17F: "s"}


def folded(text: str) -> str:
    """The text to test gates against: lower-cased, with the case-insensitive twins of ASCII letters folded."""
    low = text.lower()
    return low if low.isascii() else low.translate(_FOLD)


def _alternatives(seq, case_insensitive: bool) -> Optional[frozenset[str]]:
    """Literals of which every match of the sequence holds one (None: none known)."""
    best: Optional[frozenset[str]] = None
    run = ""

    def consider(option: Optional[frozenset[str]]) -> None:
        nonlocal best
        if option and min(len(x) for x in option) >= MIN_GATE and (
                best is None or min(len(x) for x in option) > min(len(x) for x in best)):
            best = option

    for op, av in seq:
        if op is LITERAL:
            run += chr(av)
            continue
        consider(frozenset([run.lower()]) if run else None)
        run = ""
        if op is SUBPATTERN:
            consider(_alternatives(av[-1], case_insensitive))
        elif op is BRANCH:
            parts = [_alternatives(b, case_insensitive) for b in av[1]]
            consider(frozenset().union(*parts) if parts and all(parts) else None)  # type: ignore[arg-type]
        elif op in (MAX_REPEAT, MIN_REPEAT) and av[0] >= 1:
            consider(_alternatives(av[2], case_insensitive))
    consider(frozenset([run.lower()]) if run else None)
    return best


def literal_gates(pattern: str, flags: int = 0) -> Optional[tuple[str, ...]]:
    """Lower-case literals of which every match of `pattern` holds one; None when none is known."""
    try:
        tree = _sre_parse.parse(pattern, flags)
    except Exception:  # noqa: BLE001 - an optimisation only: no gate
        return None
    found = _alternatives(tree, bool(flags & re.IGNORECASE))
    return tuple(sorted(found)) if found else None


GATE_MIN_CHARS = 8192  # a shorter text is searched directly: the gates would cost more than they save
_LAST: tuple[str, str] = ("", "")  # the last text folded, and its folded form (the same text is searched by many)


def low_of(text: str) -> str:
    """`folded(text)`, computed once for the text all the patterns of one diagnosis search."""
    global _LAST
    last, low = _LAST
    if last is text:
        return low
    low = folded(text)
    _LAST = (text, low)  # one tuple: a thread sees either the old pair or the new one
    return low


MAX_GATE_LINES = 20000  # more lines than this hold a gate literal: one search of the whole text is cheaper


class Gated:
    """A compiled regex with its gates: `search` / `findall` give the regex's own answer, skipped when no gate
    literal is in the lower-cased text (a text of at least GATE_MIN_CHARS). `single_line`: the pattern can match
    no newline except one it starts with (`(?:^|\\n)...`); it is then run only on the lines that hold a gate
    literal (each with the newline before it and after it), which finds the same leftmost match."""

    __slots__ = ("rx", "_gates", "single_line")

    def __init__(self, pattern: str, flags: int = 0, single_line: bool = False) -> None:
        self.rx = re.compile(pattern, flags)
        self._gates: Optional[tuple[Optional[tuple[str, ...]]]] = None  # worked out for the first large text
        self.single_line = single_line

    @property
    def gates(self) -> Optional[tuple[str, ...]]:
        if self._gates is None:
            self._gates = (literal_gates(self.rx.pattern, self.rx.flags),)
        return self._gates[0]

    def _spans(self, text: str) -> Optional[list[tuple[int, int]]]:
        """None: search the whole text; else the (start, end) of each line that can hold a match, in order."""
        if len(text) < GATE_MIN_CHARS or self.gates is None:
            return None
        low = low_of(text)
        if not self.single_line or len(low) != len(text):
            return None if any(g in low for g in self.gates) else []
        starts: set[int] = set()
        for g in self.gates:
            pos = low.find(g)
            while pos >= 0:
                starts.add(low.rfind("\n", 0, pos) + 1)
                if len(starts) > MAX_GATE_LINES:
                    return None
                end = low.find("\n", pos)
                pos = low.find(g, end) if end >= 0 else -1
        out = []
        for a in sorted(starts):
            b = text.find("\n", a)
            out.append((max(0, a - 1), len(text) if b < 0 else b + 1))
        return out

    def search(self, text: str) -> Optional[re.Match]:
        spans = self._spans(text)
        if spans is None:
            return self.rx.search(text)
        for a, b in spans:
            m = self.rx.search(text, a, b)
            if m is not None:
                return m
        return None

    def findall(self, text: str) -> list:
        spans = self._spans(text)
        if spans is None:
            return self.rx.findall(text)
        return [x for a, b in spans for x in self.rx.findall(text, a, b)]
