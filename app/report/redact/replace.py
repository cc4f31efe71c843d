"""The replacing half of the Redactor: an index of the learned values, kept up to date as values
are learned (the map only grows), and one piece's slow path (walk.py walks a whole text; engine.py
says the method).

New values are indexed by kind, in bulk (dictionary and map operations that run in C, no Python step
per value): the whole-piece maps (case-sensitive and lower-case; the first value learned wins), the
kinds found again by their own pattern, and the others under a word run of theirs (`first`). A value
that is one plain word run (`[A-Za-z0-9_]+`: a token, a user name, a serial) with the usual
boundaries also goes into a run map, which the walk applies to many pieces at once; a piece that
holds a run of any other value (`slow`) takes the slow path: str.find and the value's boundaries."""
from __future__ import annotations

import bisect
import functools
import itertools
import operator
import re
from collections import Counter
from typing import Any, Callable, Optional

from . import ids, network
from .common import KINDS, NOCASE, NOT_RUN_KEEP_NL, PLACEHOLDER_RE, bounded, runs
from .store import kind_of
from .people import HOME_PARENTS

PATTERN_KINDS: dict[str, re.Pattern] = {**network.PATTERN_KINDS, **ids.PATTERN_KINDS}

Entry = tuple[str, str, str, bool, str]  # value, its lower-case form, boundary class, any letter case?, placeholder

_WEAK_NAME_CTX = ("user", "host")
_WEAK_TEXT_CTX = ("wifi", "name")
_WORD_KINDS = frozenset({"user", "host", "name", "wifi"})  # boundary class "word" (common.kind_class)
_SPACE = re.compile(r"[ \t\n]")
_BEFORE = {"word": r"(?<![A-Za-z0-9_.\-])", "alnum": r"(?<![A-Za-z0-9_.+\-])"}  # common.bounded, in ASCII
_AFTER = {"word": r"(?![A-Za-z0-9_\-])", "alnum": r"(?![A-Za-z0-9_+\-])"}
_KIND_STARTS = tuple(f"{k}-" for k in KINDS)
_BOUNDED = ("word", "alnum")  # boundary classes that close at a word run
_CLASS_BY_FIRST = ("plain", "alnum")  # by whether a value's first character is a letter or digit
_NO_UNDERSCORE = str.maketrans("", "", "_")
_VALUE, _LOWER, _CLASS, _PH = (operator.itemgetter(i) for i in (0, 1, 2, 4))  # an Entry's fields


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
        self.first: dict[str, list[Entry]] = {}  # word run -> the values looked up by str.find under it
        self.keys: set[str] = set()  # every run a value is indexed under (lower case)
        self.slow: set[str] = set()  # the runs of values looked up by str.find
        self.shared: set[str] = set()  # runs that values of more placeholders share: their pieces one by one
        self.odd: set[str] = set()  # runs of values whose boundaries need not close at a run: pieces one by one
        self.run_word: dict[str, str] = {}  # one-run names, lower case -> placeholder
        self.run_lower: dict[str, str] = {}  # one-run values of any letter case, lower case -> placeholder
        self.run_exact: dict[str, str] = {}  # one-run values, as they are -> placeholder
        self.multi: list[Entry] = []
        self.norun: list[Entry] = []
        self.by_pattern: set[str] = set()
        self.patterns: list[tuple[tuple[tuple[str, int], ...], re.Pattern]] = []
        self.at = (0, 0)  # how far into the store's log this index is
        self._groups: dict[frozenset[str], Callable[[str], str]] = {}
        self.weak_seen = -1
        self.update()

    def update(self) -> None:
        """Index the values learned since the last update (the store's log only grows)."""
        log = self.r._log
        i, j = self.at
        if i < len(log) and (i < len(log) - 1 or j < len(log[i][1])):
            new: dict[tuple[str, bool], tuple[list[str], list[str]]] = {}
            for kind, vals, phs, patterned in itertools.islice(log, i, None):
                have = new.setdefault((kind, patterned), ([], []))
                have[0].extend(vals[j:] if j else vals)
                have[1].extend(phs[j:] if j else phs)
                j = 0
            self.at = (len(log) - 1, len(log[-1][1]))
            keyed: list[tuple[Entry, list[str]]] = []
            for (kind, patterned), (vals, phs) in new.items():
                if patterned:
                    self.by_pattern.add(kind)
                else:
                    self._kind(kind, vals, phs, keyed)
            if keyed:
                self._key_by_rarest_run(keyed)
            self._groups.clear()
            self.patterns = [(_GATES[k], PATTERN_KINDS[k]) for k in PATTERN_KINDS if k in self.by_pattern]
        if self.weak_seen != len(self.r._weak):
            self.weak_seen = len(self.r._weak)
            weak: dict[str, list[str]] = {}
            for v, ph in self.r._weak.items():
                weak.setdefault(kind_of(ph), []).append(v)
            self._weak(weak)

    def _kind(self, kind: str, vals: list[str], phs: list[str], keyed: list[tuple[Entry, list[str]]]) -> None:
        """Index one kind's new values (those replaced wherever they stand)."""
        rx = PATTERN_KINDS.get(kind)
        if rx is not None:  # found again by its own pattern (a whole piece: by the map at once)
            found = list(map(rx.fullmatch, vals))
            if any(found):
                self.by_pattern.add(kind)
            if all(found):
                return
            vals, phs = (list(itertools.compress(x, map(operator.not_, found))) for x in (vals, phs))
        joined = "\x00".join(vals)
        low = joined.lower()
        lows = vals if low == joined else low.split("\x00")
        if len(lows) != len(vals):  # a value with a NUL, or a letter whose lower case is longer
            lows = list(map(str.lower, vals))
        if kind in _WORD_KINDS or kind == "home":
            classes: list[str] = ["word" if kind != "home" else "home"] * len(vals)
        else:
            classes = list(map(_CLASS_BY_FIRST.__getitem__, map(str.isalnum, map(operator.itemgetter(0), vals))))
        keep = None
        if " " in joined or "\t" in joined or "\n" in joined:  # values with a space: str.find over the text
            spaced = list(map(_SPACE.search, vals))
            self.multi += itertools.compress(zip(vals, lows, classes, itertools.repeat(kind in NOCASE), phs), spaced)
            keep = list(map(operator.not_, spaced))
        if kind != "home":  # one word run (ASCII letters, digits, "_"), closed on both sides by its boundaries
            bare = joined.translate(_NO_UNDERSCORE).split("\x00")  # each value without "_", in one go
            if len(bare) != len(vals):
                bare = list(map(str.replace, vals, itertools.repeat("_"), itertools.repeat("")))
            ok = list(map(str.isalnum, bare))
            ok = list(map(operator.and_, ok, map(str.isascii, vals)))
            if kind not in _WORD_KINDS:
                ok = list(map(operator.and_, ok, map("plain".__ne__, classes)))
            if keep is not None:
                ok = list(map(operator.and_, ok, keep))
            if any(ok):
                self._add_fast(kind, *(list(itertools.compress(x, ok)) for x in (vals, lows, phs)))
                rest = list(map(operator.not_, ok))
                keep = rest if keep is None else list(map(operator.and_, keep, rest))
        entries = zip(vals, lows, classes, itertools.repeat(kind in NOCASE), phs)
        entries_left = list(entries if keep is None else itertools.compress(entries, keep))
        if entries_left:
            self._add_slow(entries_left, keyed)

    def _add_fast(self, kind: str, vals: list[str], lows: list[str], phs: list[str]) -> None:
        """Values that are one word run: into a run map. A run that values of more placeholders share
        takes the slow path (where the leftmost, longest value wins, as everywhere)."""
        if kind in _WORD_KINDS:
            self.run_word.update(zip(lows, phs))
        elif kind in NOCASE:
            self.run_lower.update(zip(lows, phs))
        else:
            self.run_exact.update(zip(vals, phs))
        shared = self.keys.intersection(lows)
        size = len(self.keys)
        self.keys.update(lows)
        if len(self.keys) != size + len(lows) - len(shared):  # the same run twice among the new ones
            shared.update(k for k, n in Counter(lows).items() if n > 1)
        self.shared |= shared

    def _add_slow(self, entries: list[Entry], keyed: list[tuple[Entry, list[str]]]) -> None:
        """Values looked up by str.find: under their one run, or (later) their rarest run."""
        # every value's word runs in one go (str.translate per value costs more than the rest)
        trs = "\n".join(e[1] for e in entries).translate(NOT_RUN_KEEP_NL).split("\n")
        one: list[str] = []
        one_entries: list[Entry] = []
        for e, rs in zip(entries, map(str.split, trs)):
            if len(rs) == 1:
                one.append(rs[0])
                one_entries.append(e)
            elif rs:
                keyed.append((e, rs))
            else:
                self.norun.append(e)
        self._under(one, one_entries)

    def _under(self, runs_: list[str], entries: list[Entry]) -> None:
        """Each entry under its run (in bulk). A run under which values of more placeholders stand, or
        that is also a one-run value's, is shared; one of a value whose boundaries need not close at a
        run (or with letters outside ASCII) is odd."""
        first, shared, touched = self.first, self.shared, []
        for run, e in zip(runs_, entries):
            have = first.get(run)
            if have is None:
                first[run] = [e]
            else:
                have.append(e)
                touched.append(run)
        for run in dict.fromkeys(touched):
            if run not in shared:
                have = first[run]
                ph = have[0][4]
                if any(x[4] != ph for x in have):
                    shared.add(run)
        held = set(runs_)
        shared.update(held.intersection(self.run_word), held.intersection(self.run_lower))
        self.slow |= held
        self.keys |= held
        self.odd.update(run for run, e in zip(runs_, entries) if e[2] not in _BOUNDED or not e[0].isascii())

    def _key_by_rarest_run(self, keyed: list[tuple[Entry, list[str]]]) -> None:
        """Each value of several word runs under the run it shares with the fewest other values (the
        longest of those): a piece is only checked for the values whose run it holds, so a thousand
        webhook paths under /services/ cost one each. (A run at an end the value's boundaries do not
        close could be part of a longer run: not used.)"""
        first = self.first
        freq = Counter(itertools.chain.from_iterable(map(set, map(operator.itemgetter(1), keyed))))
        freq.update({k: len(first[k]) for k in freq.keys() & first.keys()})
        # (how many values share it, then longest first) as one number: n * wide - length
        wide = max(map(len, freq)) + 1
        rank = dict(zip(freq, map(operator.sub, map(wide.__mul__, freq.values()), map(len, freq))))
        chosen = []
        for e, rs in keyed:
            cls = e[2]
            if cls == "home":
                rs = rs[1:]
            elif cls == "plain" and len(rs) > 1:
                rs = rs[:-1]
            chosen.append(min(rs, key=rank.__getitem__))
        self._under(chosen, list(map(operator.itemgetter(0), keyed)))

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
        # where a weak name could start (any letter case; overlapping): weak_sub tries weak_piece only there
        self.weak_at = re.compile(f"(?=(?i:{_trie([w.lower() for w in self.weak_words])}))") if self.weak_words else None
        self.weak_line: Optional[re.Pattern] = re.compile("|".join(line_alts), re.M) if line_alts else None

    def weak_sub(self, s: str) -> str:
        """weak_piece.sub(lookup, s), trying the pattern only where a weak name starts (it has no prefix
        to skip ahead by, so over a long text trying it everywhere costs many times more)."""
        rx, at, lookup = self.weak_piece, self.weak_at, self.r._lookup
        if rx is None or at is None:
            return s
        out, pos = [], 0
        for c in at.finditer(s):
            i = c.start()
            if i < pos:
                continue
            m = rx.match(s, i)
            if m:
                out += [s[pos:i], lookup(m)]
                pos = m.end()
        out.append(s[pos:])
        return "".join(out)

    def group_sub(self, hold: frozenset[str]) -> Callable[[str], str]:
        """What replaces the values indexed under the runs `hold` in ASCII pieces (one a line): one
        regex of them, longest first, with their boundaries as lookarounds (leftmost, then longest, as
        _literals). A value that could overlap a placeholder (it holds "<" or ">", or starts like one:
        "user-1") leaves it to _literals."""
        fn = self._groups.get(hold)
        if fn is None:
            entries = [e for k in hold for e in self.first[k]]
            if any("<" in e[0] or ">" in e[0] or e[1].startswith(_KIND_STARTS) for e in entries):
                fn = functools.partial(_literals_of, self, entries)
            else:
                entries.sort(key=lambda e: -len(e[0]))
                rx = re.compile("|".join(f"{_BEFORE[e[2]]}({'(?i:' if e[3] else '(?:'}{re.escape(e[0])})){_AFTER[e[2]]}"
                                         for e in entries))
                if len(entries) == 1:
                    fn = functools.partial(rx.sub, entries[0][4].replace("\\", "\\\\"))
                else:
                    phs = [e[4] for e in entries]
                    fn = functools.partial(rx.sub, lambda m: phs[m.lastindex - 1])
            self._groups[hold] = fn
        return fn

    # --- one piece ----------------------------------------------------------------------------------
    def piece(self, p: str, pl: Optional[str] = None, rs: Optional[list[str]] = None) -> str:
        """One piece redacted; `pl` its lower-case form and `rs` its word runs when the caller has them."""
        ph = self.r._map.get(p)
        if ph is not None:
            return ph
        pl = p.lower() if pl is None else pl
        ph = self.r._lower.get(pl)
        if ph is not None:
            return ph
        q = p
        if self.keys or self.weak_first:
            rs = runs(pl) if rs is None else rs
            if self.weak_piece is not None and not self.weak_first.isdisjoint(rs):
                q = self.weak_piece.sub(self.r._lookup, q)
                if q != p:
                    pl = q.lower()
            entries = [e for run in self.first.keys() & set(rs) for e in self.first[run]]
            entries += self._one_run_entries(p, rs)
            if entries:
                q = self._literals(q, pl, entries)
        if self.norun:
            q = self._literals(q, q.lower(), [e for e in self.norun if e[1] in q.lower()])
        return q

    def _one_run_entries(self, p: str, rs: list[str]) -> list[Entry]:
        """The one-run values among a piece's runs (`rs`: of its lower case), as entries."""
        out: list[Entry] = []
        for run in set(rs):
            for d, cls in ((self.run_word, "word"), (self.run_lower, "alnum")):
                ph = d.get(run)
                if ph is not None:
                    out.append((run, run, cls, True, ph))
        if self.run_exact:
            for run in set(runs(p)):
                ph = self.run_exact.get(run)
                if ph is not None:
                    out.append((run, run.lower(), "alnum", False, ph))
        return out

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


# the pieces that can hold a kind's value: any of (this text, at least so often)
_GATES: dict[str, tuple[tuple[str, int], ...]] = {
    "ip": ((".", 3), (":", 2)),
    "mac": ((":", 5), ("-", 5)),
    "email": (("@", 1),),
    "uuid": (("-", 4),),
    "gpu-uuid": (("-", 4),),
    "sid": (("-1-", 1),),
}


def _literals_of(idx: _Index, entries: list[Entry], s: str) -> str:
    return idx._literals(s, s.lower(), entries)


def _apply(s: str, spans: list[tuple[int, int, str]]) -> str:
    """Put placeholders over (start, -end) spans: leftmost first, the longest at a place, never inside
    a placeholder already there."""
    taken = [m.span() for m in PLACEHOLDER_RE.finditer(s)] if "<" in s else []
    starts = [a for a, _ in taken]
    spans.sort()
    out, pos = [], 0
    for i, negj, ph in spans:
        j = -negj
        if i < pos:
            continue
        k = bisect.bisect_left(starts, j) - 1  # the last placeholder that starts before j (they never overlap)
        if k >= 0 and taken[k][1] > i:
            continue
        out += [s[pos:i], ph]
        pos = j
    out.append(s[pos:])
    return "".join(out)
