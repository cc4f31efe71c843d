"""The replacing half of the Redactor: an index of the learned values, rebuilt when one is added,
and the walk over a text's distinct pieces (see engine.py for the method)."""
from __future__ import annotations

import itertools
from collections import Counter
import re
from typing import Any, Callable, Optional

from . import ids, network
from .common import NOCASE, NOT_RUN_KEEP_NL, PLACEHOLDER_RE, bounded, kind_class, runs
from .people import HOME_PARENTS

PATTERN_KINDS: dict[str, re.Pattern] = {**network.PATTERN_KINDS, **ids.PATTERN_KINDS}

Entry = tuple[str, str, str, bool, str]  # value, its lower-case form, boundary class, any letter case?, placeholder

_GATES: dict[str, Callable[[str], bool]] = {
    "ip": lambda p: p.count(".") >= 3 or p.count(":") >= 2,
    "mac": lambda p: p.count(":") >= 5 or p.count("-") >= 5,
    "email": lambda p: "@" in p,
    "uuid": lambda p: p.count("-") >= 4,
    "gpu-uuid": lambda p: p.count("-") >= 4,
    "sid": lambda p: "-1-" in p,
}
_WEAK_NAME_CTX = ("user", "host")
_WRAP = "()<>[]{},;:.!?\"'`"
_WEAK_TEXT_CTX = ("wifi", "name")


def _trie(words: list[str]) -> str:
    """A regex matching any of `words`, as a trie: `(?:ab(?:c|d)?)`; the longest word at a place wins."""
    root: dict = {}
    for w in set(words):
        node = root
        for ch in w:
            node = node.setdefault(ch, {})
        node[""] = {}

    def chain(ch: str, sub: dict) -> str:
        lit = [ch]
        while len(sub) == 1 and "" not in sub:  # a run without branches: one literal, no recursion
            (c, sub), = sub.items()
            lit.append(c)
        return re.escape("".join(lit)) + build(sub)

    def build(node: dict) -> str:
        kids = [(ch, sub) for ch, sub in node.items() if ch != ""]
        if not kids:
            return ""
        parts = [chain(ch, sub) for ch, sub in sorted(kids)]
        inner = parts[0] if len(parts) == 1 else "(?:" + "|".join(parts) + ")"
        return "(?:" + inner + ")?" if "" in node else inner

    return "(?:" + build(root) + ")"


class _Index:
    def __init__(self, r: Any):
        self.r = r
        self.exact: dict[str, str] = {}
        self.exact_lower: dict[str, str] = {}
        self.lower: dict[str, str] = {}
        self.first: dict[str, list[Entry]] = {}
        self.multi: list[Entry] = []
        self.norun: list[Entry] = []
        weak: dict[str, list[str]] = {}
        by_pattern: set[str] = set()
        literal: list[Entry] = []
        for v, ph in r._map.items():
            kind, vl = r._kind_of[v], v.lower()
            nocase = kind in NOCASE
            if nocase:
                self.lower.setdefault(vl, ph)
            if v in r._weak:
                weak.setdefault(kind, []).append(v)
                continue
            rx = PATTERN_KINDS.get(kind)
            if rx is not None and rx.fullmatch(v):
                by_pattern.add(kind)  # found again by its own pattern (a whole piece: by the map at once)
                self.exact_lower.setdefault(vl, ph) if nocase else self.exact.setdefault(v, ph)
                continue
            e: Entry = (v, vl, kind_class(kind, v), nocase, ph)
            (self.exact_lower if nocase else self.exact).setdefault(vl if nocase else v, ph)
            if " " in v or "\t" in v or "\n" in v:
                self.multi.append(e)
            else:
                literal.append(e)
        # every value's word runs in one go (str.translate per value costs more than the rest)
        trs = "\n".join(e[1] for e in literal).translate(NOT_RUN_KEEP_NL).split("\n") if literal else []
        keyed: list[tuple[Entry, list[str]]] = []
        for e, tr in zip(literal, trs):
            rs = tr.split()
            if rs:
                keyed.append((e, rs))
            else:
                self.norun.append(e)
        self._key_by_rarest_run(keyed)
        self.first_keys = frozenset(self.first)
        self.patterns = [(_GATES[k], PATTERN_KINDS[k]) for k in PATTERN_KINDS if k in by_pattern]
        self._weak(weak)

    def _key_by_rarest_run(self, keyed: list[tuple[Entry, list[str]]]) -> None:
        """Each value under the word run it shares with the fewest other values: a piece is only checked
        for the values whose run it holds, so a thousand webhook paths under /services/ cost one each.
        (A run at an end the value's boundaries do not close could be part of a longer run: not used.)"""
        freq = Counter(itertools.chain.from_iterable(set(rs) if len(rs) > 1 else rs for _, rs in keyed))
        first = self.first
        for e, rs in keyed:
            if len(rs) == 1:
                first.setdefault(rs[0], []).append(e)
                continue
            usable = rs[1:] if e[2] == "home" else rs
            usable = usable[:-1] if e[2] == "plain" and len(usable) > 1 else usable
            first.setdefault(min(usable, key=lambda x: (freq[x], -len(x))), []).append(e)

    # --- names that are everyday words: only where they stand as names -----------------------------
    def _weak(self, weak: dict[str, list[str]]) -> None:
        piece_alts, line_alts = [], []
        self.weak_words: frozenset[str] = frozenset(v.lower() for vs in weak.values() for v in vs)
        self.weak_first = frozenset(rs[0] for w in self.weak_words for rs in [runs(w)] if rs)
        names = [v.lower() for k in _WEAK_NAME_CTX for v in weak.get(k, [])]
        if names:
            t, end = f"(?i:{_trie(names)})", r"(?![\w.-])"
            homes = "|".join(f"(?<={re.escape(hp)})" for hp in HOME_PARENTS)
            piece_alts += [f"(?:{homes}){t}{end}", rf"(?<![\w.-]){t}(?=@[A-Za-z0-9])", rf"(?<=@){t}(?![\w-])",
                           rf"(?:(?<=\bUSER=)|(?<=LOGNAME=)|(?<=USERNAME=)|(?<=HOSTNAME=)|(?<=COMPUTERNAME=)){t}{end}",
                           rf"(?<=://){t}{end}", rf"(?<=\\\\){t}(?=\\)"]
            line_alts += [rf"(?<=^Linux ){t}(?= \d)"]
        sec = weak.get("secret", [])
        if sec:
            t = _trie(sec)
            piece_alts += [rf"(?<=[=:]){t}(?![\w])", rf"(?<=[=:]\"){t}(?=\")", rf"(?<=[=:]'){t}(?=')", rf"(?<=:){t}(?=@)"]
            line_alts += [rf"(?<=[=:] ){t}(?![\w])", rf"^{t}(?=[ \t]*$)"]
        text = [v.lower() for k in _WEAK_TEXT_CTX for v in weak.get(k, [])]
        if text:
            t = f"(?i:{_trie(text)})"
            piece_alts += [rf"(?<=[:=]\"){t}(?=\")"]
            line_alts += [rf"(?<=[:=] ){t}(?=[ \t\"']*$)", rf"(?<=[:=]){t}(?=[ \t\"']*$)", rf"(?<=[:=] \"){t}(?=\")",
                          rf"(?<=\s\s){t}(?=[ \t]*$)", rf"^{t}(?=[ \t]*$)"]
        self.weak_piece: Optional[re.Pattern] = re.compile("|".join(piece_alts)) if piece_alts else None
        self.weak_line: Optional[re.Pattern] = re.compile("|".join(line_alts), re.M) if line_alts else None

    # --- one piece ----------------------------------------------------------------------------------
    def piece(self, p: str, pl: Optional[str] = None, rs: Optional[list[str]] = None) -> str:
        """One piece redacted; `pl` its lower-case form and `rs` its word runs when the caller has them."""
        ph = self.exact.get(p)
        if ph is not None:
            return ph
        pl = p.lower() if pl is None else pl
        ph = self.exact_lower.get(pl)
        if ph is not None:
            return ph
        q = p
        if self.first_keys or self.weak_first:
            rs = runs(pl) if rs is None else rs
            if self.weak_piece is not None and not self.weak_first.isdisjoint(rs):
                q = self.weak_piece.sub(self.r._lookup, q)
                if q != p:
                    pl = q.lower()
            hit = self.first_keys.intersection(rs)
            if hit:
                q = self._literals(q, pl, [e for run in hit for e in self.first[run]])
        if self.norun:
            q = self._literals(q, q.lower(), [e for e in self.norun if e[1] in q.lower()])
        return q

    def _literals(self, q: str, ql: str, entries: list[Entry]) -> str:
        """Replace every bounded occurrence of the entries' values in q (leftmost, then longest)."""
        if not entries:
            return q
        if len(ql) != len(q):  # a letter whose lower case is longer: compare letter by letter
            ql = "".join(c.lower()[:1] for c in q)
        spans = []
        for v, vl, cls, nocase, ph in entries:
            hay, nd = (ql, vl) if nocase else (q, v)
            i = hay.find(nd)
            while i >= 0:
                j = i + len(nd)
                if bounded(q, i, j, cls):
                    spans.append((i, -j, ph))
                i = hay.find(nd, i + 1)
        if not spans:
            return q
        return _apply(q, spans)

    # --- a whole text --------------------------------------------------------------------------------
    def replace(self, text: str) -> str:
        if self.multi:
            text = self._multiword(text)
        lines = text.split("\n")
        pieces = [ln.split(" ") for ln in lines]
        fix = self._fixes(list(dict.fromkeys(itertools.chain.from_iterable(pieces))))
        weak_hits = fix.pop("\n", None)  # (the set of pieces that are a weak name, see _fixes)
        if not fix and not weak_hits:
            return text
        keys = fix.keys()
        for n, ps in enumerate(pieces):
            changed = not keys.isdisjoint(ps)
            line = " ".join([fix.get(x, x) for x in ps]) if changed else lines[n]
            if weak_hits and self.weak_line is not None and not weak_hits.isdisjoint(ps):
                line = self.weak_line.sub(self.r._lookup, line)
                changed = True
            if changed:
                lines[n] = line
        return "\n".join(lines)

    def _fixes(self, uniq: list[str]) -> dict:
        """piece -> its redacted form, for the pieces that change (and under "\n" the pieces that are
        a weak name, for the line pass). Whole-piece hits are set operations; the rest is one loop."""
        fix: dict = {}
        lows = "\n".join(uniq).lower()  # in bulk: str.lower/translate per piece cost more than the rest
        trs = lows.translate(NOT_RUN_KEEP_NL).split("\n")
        low_list = lows.split("\n")
        if len(low_list) != len(uniq):
            low_list = [u.lower() for u in uniq]
            trs = [" ".join(runs(u)) for u in low_list]
        ex, exl, fk, wf, ww = self.exact, self.exact_lower, self.first_keys, self.weak_first, self.weak_words
        weak_hits = set()
        rest = []
        for p, pl, tr in zip(uniq, low_list, trs):
            ph = ex.get(p) or exl.get(pl)
            if ph is not None:
                fix[p] = ph
                continue
            core = p.strip(_WRAP)  # "(10.1.2.3)", "<a@b.org>,": the value inside its punctuation
            if core != p and core:
                ph = ex.get(core) or exl.get(core.lower())
                if ph is not None:
                    fix[p] = p.replace(core, ph)
                    continue
            rest.append(p)
            rs = tr.split()
            if (fk and not fk.isdisjoint(rs)) or (wf and not wf.isdisjoint(rs)) or self.norun:
                if "<" in p and PLACEHOLDER_RE.fullmatch(p):
                    continue
                q = self.piece(p, pl, rs)
                if q != p:
                    fix[p] = q
            if ww and pl.strip("\"'") in ww:
                weak_hits.add(p)
        for gate, rx in self.patterns:  # kinds found by their own pattern, on the pieces that can hold one
            for p in [p for p in rest if gate(p)]:
                q = fix.get(p, p)
                r = rx.sub(self.r._lookup, q)
                if r != q:
                    fix[p] = r
        if weak_hits:
            fix["\n"] = weak_hits
        return fix

    def _multiword(self, text: str) -> str:
        low = text.lower()
        if len(low) != len(text):
            low = "".join(c.lower()[:1] for c in text)
        spans = []
        for v, vl, cls, nocase, ph in self.multi:
            hay, nd = (low, vl) if nocase else (text, v)
            i = hay.find(nd)
            while i >= 0:
                j = i + len(nd)
                if bounded(text, i, j, cls):
                    spans.append((i, -j, ph))
                i = hay.find(nd, i + 1)
        return _apply(text, spans) if spans else text


def _apply(s: str, spans: list[tuple[int, int, str]]) -> str:
    """Put placeholders over (start, -end) spans: leftmost first, the longest at a place, never inside
    a placeholder already there."""
    taken = [(m.start(), m.end()) for m in PLACEHOLDER_RE.finditer(s)] if "<" in s else []
    spans.sort()
    out, pos = [], 0
    for i, negj, ph in spans:
        j = -negj
        if i < pos or any(a < j and i < b for a, b in taken):
            continue
        out += [s[pos:i], ph]
        pos = j
    out.append(s[pos:])
    return "".join(out)
