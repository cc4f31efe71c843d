"""The walk over a whole text: cut at line ends and spaces into pieces, each distinct piece looked at
once, in bulk where it can be (see replace.py for the index it uses):

1. whole pieces, and the value inside a piece's punctuation (`(10.1.2.3)`, `<a@b.org>,`): map lookups
   over all distinct pieces at once;
2. pieces holding a word run some value is indexed by: names that are everyday words in their
   contexts (one regex over all such pieces), then the one-run values by one regex split over all of
   them (the runs their boundaries allow, looked up in the run maps); a piece that holds a run of any
   other value, or letters outside ASCII, takes the slow path (`_Index.piece`);
3. the kinds found by their own pattern (addresses, UUIDs, SIDs): one regex over the pieces that can
   hold one;
then the lines put back together from their pieces, and the line patterns for everyday-word names."""
from __future__ import annotations

import bisect
import functools
import itertools
import operator
import re
from typing import TYPE_CHECKING, Callable, Optional

from .common import NOT_RUN_KEEP_NL, PLACEHOLDER_RE, runs

if TYPE_CHECKING:
    from .replace import _Index

Cut = tuple[str, list[str], list[str]]  # a text, its pieces with each line end as a piece of its own, the distinct pieces

_WRAP = "()<>[]{},;:.!?\"'`"
_SEPS = re.compile(r"([^A-Za-z0-9_]+)")  # what lies between the word runs of an ASCII text
_not = operator.not_


def cut_text(text: str) -> Cut:
    """A text cut at spaces and line ends: (text, its pieces with each line end a piece "\\n" of its
    own, the distinct pieces in the order they first appear, without "\\n"). " ".join(pieces) is
    the text with a space each side of each line end (put back by str.replace: see replace)."""
    pieces = text.replace("\n", " \n ").split(" ")
    uniq = dict.fromkeys(pieces)
    uniq.pop("\n", None)
    return text, pieces, list(uniq)


def replace(idx: "_Index", text: str, cut: Optional[Cut] = None) -> str:
    """`text` with every indexed value replaced; `cut`: cut_text(text) when the caller has it."""
    if idx.multi:
        text = idx._multiword(text)
    pieces, uniq = cut[1:] if cut is not None and cut[0] is text else cut_text(text)[1:]
    whole = idx.r._map
    fix, weak_hits = fixes(idx, uniq)
    if whole.keys().isdisjoint(uniq) and not fix and not weak_hits:
        return text
    out = map(whole.get, pieces, pieces)
    if fix:
        out = map(fix.get, pieces, out)
    # every line end was " \n " (a piece "\n" between two spaces): no other " \n " can stand there
    new = " ".join(out).replace(" \n ", "\n")
    if weak_hits and idx.weak_line is not None:
        new = _weak_lines(idx, new, pieces, weak_hits)
    return new


def _weak_lines(idx: "_Index", text: str, pieces: list[str], weak_hits: set[str]) -> str:
    """The line patterns for everyday-word names, on the lines that hold such a name as a piece."""
    ends = list(itertools.compress(itertools.count(), map("\n".__eq__, pieces)))
    at = itertools.compress(itertools.count(), map(weak_hits.__contains__, pieces))
    todo = sorted({bisect.bisect_left(ends, i) for i in at})
    lines = text.split("\n")
    for n in todo:
        lines[n] = idx.weak_line.sub(idx.r._lookup, lines[n])  # type: ignore[union-attr]
    return "\n".join(lines)


def fixes(idx: "_Index", uniq: list[str]) -> tuple[dict[str, str], set[str]]:
    """piece -> its redacted form, for the pieces that change other than the values learned as they
    stand (the store's map: the caller looks them up), and the pieces that are a weak name (for the
    line pass)."""
    whole, lower = idx.r._map, idx.r._lower
    rest = list(itertools.filterfalse(whole.__contains__, uniq))
    rest_low = _lower_each(rest)
    if rest_low is rest and idx.r._lower_in_map:  # lower-case pieces not in the map: none is in _lower
        b: list[Optional[str]] = []
        fix: dict[str, str] = {}
    else:
        b = list(map(lower.get, rest_low))
        fix = dict(zip(itertools.compress(rest, b), filter(None, b)))
    if fix:
        keep = list(map(_not, b))
        rest, rest_low = list(itertools.compress(rest, keep)), list(itertools.compress(rest_low, keep))
    # "(10.1.2.3)", "<a@b.org>,": the value inside punctuation (only a core other than its piece can be
    # one: the pieces left missed both maps)
    cores = list(map(str.strip, rest, itertools.repeat(_WRAP)))
    at = list(itertools.compress(range(len(rest)), map(operator.ne, cores, rest)))
    if at:
        cs = list(map(cores.__getitem__, at))
        cs_low = _lower_each(cs)
        phs = list(map(whole.get, cs))
        miss = list(itertools.compress(range(len(cs)), map(_not, phs)))
        for i, ph in zip(miss, map(lower.get, map(cs_low.__getitem__, miss))):
            if ph is not None:
                phs[i] = ph
        if any(phs):
            hit = list(itertools.compress(at, phs))
            ps = list(map(rest.__getitem__, hit))
            fix.update(zip(ps, map(str.replace, ps, itertools.compress(cs, phs), filter(None, phs))))
            keep = [True] * len(rest)
            for i in hit:
                keep[i] = False
            rest, rest_low = list(itertools.compress(rest, keep)), list(itertools.compress(rest_low, keep))
    _by_runs(idx, rest, rest_low, fix)
    ww = idx.weak_words
    weak_hits = set(itertools.compress(rest, map(ww.__contains__, map(str.strip, rest_low, itertools.repeat("\"'")))))\
        if ww else set()
    counts: dict[str, list[int]] = {}
    for gate, rx in idx.patterns:  # kinds found by their own pattern, on the pieces that can hold one
        gated = _gated(rest, gate, counts)
        if gated:
            _bulk(fix, gated, list(map(fix.get, gated, gated)), functools.partial(rx.sub, idx.r._lookup))
    return fix, weak_hits


def _lower_each(pieces: list[str]) -> list[str]:
    """str.lower of each piece, in bulk (str.lower per piece costs more); the pieces themselves when
    they are lower case already."""
    joined = "\n".join(pieces)
    low = joined.lower()
    if low == joined:
        return pieces
    out = low.split("\n")
    return out if len(out) == len(pieces) else list(map(str.lower, pieces))


def _by_runs(idx: "_Index", rest: list[str], rest_low: list[str], fix: dict[str, str]) -> None:
    """The pieces holding a word run that a value is indexed by, or a weak name's first run."""
    keys, weak_first = idx.keys, idx.weak_first
    if not rest or not keys and not weak_first and not idx.norun:
        return
    trs = "\n".join(rest_low).translate(NOT_RUN_KEEP_NL).split("\n")
    if len(trs) != len(rest):
        trs = [" ".join(runs(u)) for u in rest_low]
    rss = list(map(str.split, trs))
    hit = list(map(_not, map(keys.isdisjoint, rss)))
    if idx.norun:  # values without a word run: every piece one by one
        alone = list(hit) if any(hit) else [True] * len(rest)
    else:
        alone = list(map(operator.and_, hit, map(_not, map(str.isascii, rest))))
        for odd in (idx.shared, idx.odd):
            if odd:
                alone = list(map(operator.or_, alone, map(_not, map(odd.isdisjoint, rss))))
    for p, pl, rs in itertools.compress(zip(rest, rest_low, rss), alone):
        if "<" in p and PLACEHOLDER_RE.fullmatch(p):
            continue
        q = idx.piece(p, pl, rs)
        if q != p:
            fix[p] = q
    together = list(map(_not, alone))
    now: dict[str, str] = {}  # the pieces as they are after each step
    weak = list(map(_not, map(weak_first.isdisjoint, rss))) if weak_first and idx.weak_piece is not None else []
    if any(weak):  # everyday-word names in their contexts first (as in _Index.piece)
        ps = list(itertools.compress(rest, map(operator.and_, weak, together)))
        _bulk(now, ps, ps, idx.weak_sub)
    hit = list(map(operator.and_, hit, together))
    if idx.slow and any(hit):
        _slow_together(idx, list(itertools.compress(zip(rest, rss), hit)), now)
    if any(hit):
        ps = list(itertools.compress(rest, hit))
        _bulk(now, ps, list(map(now.get, ps, ps)), functools.partial(_one_runs, idx))
    fix.update(now)


def _slow_together(idx: "_Index", pieces: list[tuple[str, list[str]]], now: dict[str, str]) -> None:
    """The values looked up by str.find, over all pieces that hold the same of their runs at once:
    in ASCII pieces, values whose boundaries close at a run (what _by_runs leaves here) never cut a
    one-run value in two, so these go first and the one-run values after, as _Index.piece would."""
    slow = idx.slow
    groups: dict[frozenset[str], list[str]] = {}
    for p, rs in pieces:
        hold = slow.intersection(rs)
        if hold:
            groups.setdefault(frozenset(hold), []).append(p)
    for under, ps in groups.items():
        _bulk(now, ps, list(map(now.get, ps, ps)), idx.group_sub(under))


def _one_runs(idx: "_Index", s: str) -> str:
    """The one-run values in `s` (ASCII pieces, one a line), where their boundaries allow: s split
    into its runs and what lies between them, the runs looked up in bulk, each hit's neighbours
    checked (common.bounded: a name takes no "." or "-" before it and no "-" after it, any other value
    no ".", "+", "-" before it and no "+", "-" after it)."""
    parts = _SEPS.split(s)
    runs_ = parts[0::2]
    low = _SEPS.split(s.lower())[0::2] if idx.run_word or idx.run_lower else runs_
    out = parts
    for found_in, keys, before, after in ((idx.run_word, low, ".-", "-"), (idx.run_lower, low, ".+-", "+-"),
                                          (idx.run_exact, runs_, ".+-", "+-")):
        if not found_in:
            continue
        found = list(map(found_in.get, keys))
        for k in itertools.compress(range(len(found)), found):
            i = 2 * k
            if (i and parts[i - 1][-1] in before) or (i + 1 < len(parts) and parts[i + 1][0] in after):
                continue
            if out is parts:
                out = list(parts)
            out[i] = found[k]
    return "".join(out) if out is not parts else s


def _bulk(fix: dict[str, str], pieces: list[str], now: list[str], fn: Callable[[str], str]) -> None:
    """fix[piece] = fn(its form now), for the pieces that change: fn runs once over all of them, one a
    line (what it does never spans a line end; were the lines not to come back one for one, then fn
    runs piece by piece)."""
    new = fn("\n".join(now)).split("\n")
    if len(new) != len(pieces):
        new = list(map(fn, now))
    fix.update(itertools.compress(zip(pieces, new), map(operator.ne, pieces, new)))


def _gated(pieces: list[str], gate: tuple[tuple[str, int], ...], counts: dict[str, list[int]]) -> list[str]:
    """The pieces that pass a gate (counted in bulk; counts are kept for the next gate)."""
    ok: Optional[list[bool]] = None
    for sub, k in gate:
        if sub not in counts:
            counts[sub] = list(map(str.count, pieces, itertools.repeat(sub)))
        hit = list(map(k.__le__, counts[sub]))
        ok = hit if ok is None else list(map(operator.or_, ok, hit))
    return list(itertools.compress(pieces, ok or ()))
