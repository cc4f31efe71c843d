"""The map from private value to placeholder, which the Redactor learns into and replaces from.

One entry per value, kept so that the walk over a text can use the maps as they are (no copy per
text): `_map` holds the values replaced wherever they stand, `_weak` the names that are also everyday
words (replaced only where they stand as a name), and `_lower` / `_lower_weak` the same by lower case
for the kinds whose letter case does not matter (the first value learned keeps a lower-case form).
The kind of a value is its placeholder's (`<user-3>`). `_log` lists the values replaced wherever
they stand, by kind, in the order learned, for the index of the values that stand inside pieces.

`add_all` learns many values of one kind at once, in bulk (the same result as `add` one by one)."""
from __future__ import annotations

import itertools
from typing import Iterable, Optional

from .common import KINDS, NOCASE, PLACEHOLDER_RE

LogEntry = tuple[str, list[str], list[str], bool]  # kind, values in order, their placeholders, all found by their kind's own pattern?


_SEP = "\x00"


def _lower_each(values: list[str], joined: str) -> list[str]:
    """str.lower of each value (`joined`: them joined by line ends), in bulk where it can be."""
    low = joined.lower()
    if low == joined:  # lower case already: the values themselves (their hashes are known)
        return values
    lows = low.split("\n")
    return lows if len(lows) == len(values) else list(map(str.lower, values))


def kind_of(ph: str) -> str:
    """The kind a placeholder names: `<gpu-uuid-2>` -> "gpu-uuid"."""
    return ph[1:ph.rindex("-")]


class Store:
    def __init__(self) -> None:
        self._map: dict[str, str] = {}  # value -> placeholder
        self._weak: dict[str, str] = {}  # value -> placeholder, replaced only in a name's context
        self._lower: dict[str, str] = {}  # lower case of a value of any letter case -> placeholder
        self._lower_weak: dict[str, str] = {}
        self._lower_in_map = True  # is every key of _lower also a key of _map (values learned in lower case)?
        self._clash: dict[tuple[str, str], tuple[str, bool]] = {}  # (kind, lower) taken by another kind first
        self._counts: dict[str, int] = {}
        self._log: list[LogEntry] = []

    def add(self, kind: str, value: str, weak: bool = False) -> Optional[str]:
        ph = self._map.get(value) or self._weak.get(value)
        if ph is not None:
            return ph
        if not value or "<" in value and PLACEHOLDER_RE.search(value):
            return None
        low = value.lower() if kind in NOCASE else None
        if low is not None:
            same = self._same_name(kind, low)
            if same is not None:  # the same name in other letter case: the same placeholder
                ph, was_weak = same
                (self._weak if was_weak else self._map)[value] = ph
                return ph
        n = self._counts[kind] = self._counts.get(kind, 0) + 1
        ph = f"<{kind}-{n}>"
        if weak:
            self._weak[value] = ph
        else:
            self._map[value] = ph
            log = self._log
            if log and log[-1][0] == kind and not log[-1][3]:
                log[-1][1].append(value)
                log[-1][2].append(ph)
            else:
                log.append((kind, [value], [ph], False))
        if low is not None:
            if low in self._lower or low in self._lower_weak:
                self._clash[(kind, low)] = (ph, weak)
            (self._lower_weak if weak else self._lower).setdefault(low, ph)
            if not weak and low != value:
                self._lower_in_map = False
        return ph

    def _same_name(self, kind: str, low: str) -> Optional[tuple[str, bool]]:
        """The placeholder (and whether it is weak) of a value of this kind with this lower case."""
        for lower, weak in ((self._lower, False), (self._lower_weak, True)):
            ph = lower.get(low)
            if ph is not None and kind_of(ph) == kind:
                return ph, weak
        return self._clash.get((kind, low)) if self._clash else None

    def add_all(self, kind: str, values: Iterable[str], patterned: bool = False, weak: frozenset[str] = frozenset(),
                fresh: bool = False) -> None:
        """Learn values of one kind, in order, as `add` would one by one (`weak`: those of them that
        are weak). `patterned`: each value is a whole match of its kind's own pattern. `fresh`: the
        caller knows the values are distinct and none is learned yet (Store.unknown)."""
        m, w = self._map, self._weak
        if fresh:
            new = list(values)
        else:
            new = list(itertools.filterfalse(m.__contains__, dict.fromkeys(values)))
            if w:
                new = list(itertools.filterfalse(w.__contains__, new))
        if not new:
            return
        if weak and not weak.isdisjoint(new):
            self._around_weak(kind, new, weak, patterned)
            return
        joined = "\n".join(new)
        lows = _lower_each(new, joined) if kind in NOCASE else []
        if ("" in new or "<" in joined
                or lows and (not self._lower.keys().isdisjoint(lows)
                             or self._lower_weak and not self._lower_weak.keys().isdisjoint(lows))):
            self._one_by_one(kind, new, weak)
            return
        n = self._counts.get(kind, 0)
        # "<kind-n>" for each, in one join and split (str.format per value costs more)
        phs = f"<{kind}-{f'>{_SEP}<{kind}-'.join(map(str, range(n + 1, n + 1 + len(new))))}>".split(_SEP)
        if lows:
            size = len(self._lower)
            self._lower.update(zip(lows, phs))
            if len(self._lower) != size + len(lows):  # the same name in two letter cases: one by one
                for low in lows:
                    self._lower.pop(low, None)
                self._one_by_one(kind, new, weak)
                return
            if lows is not new:
                self._lower_in_map = False
        self._counts[kind] = n + len(new)
        m.update(zip(new, phs))
        self._log.append((kind, new, phs, patterned))

    def _one_by_one(self, kind: str, values: list[str], weak: frozenset[str]) -> None:
        for v in values:
            self.add(kind, v, v in weak)

    def _around_weak(self, kind: str, values: list[str], weak: frozenset[str], patterned: bool) -> None:
        """add_all of values some of which are weak: the others in bulk between them, in order."""
        start = 0
        for i in itertools.compress(range(len(values)), map(weak.__contains__, values)):
            if i > start:
                self.add_all(kind, values[start:i], patterned)
            self.add(kind, values[i], True)
            start = i + 1
        if start < len(values):
            self.add_all(kind, values[start:], patterned)

    def has(self, value: str) -> bool:
        return value in self._map or value in self._weak

    def unknown(self, values: Iterable[str]) -> list[str]:
        """The values not learned yet, in order (has() of each, in bulk)."""
        new = list(itertools.filterfalse(self._map.__contains__, values))
        return list(itertools.filterfalse(self._weak.__contains__, new)) if self._weak else new

    def placeholder(self, value: str) -> Optional[str]:
        return self._map.get(value) or self._weak.get(value)

    def placeholder_any_case(self, value: str) -> Optional[str]:
        """The placeholder of this value, or of one of a kind of any letter case with its lower case."""
        low = value.lower()
        return (self._map.get(value) or self._weak.get(value) or self._lower.get(low)
                or self._lower_weak.get(low))

    def counts(self) -> dict[str, int]:
        """How many distinct values of each kind were replaced (safe to publish)."""
        return {k: self._counts[k] for k in KINDS if self._counts.get(k)}

    def known(self, kind: Optional[str] = None) -> list[str]:
        """The learned values (private! for tests and the --no-redact warning only)."""
        return [v for d in (self._map, self._weak) for v, ph in d.items() if kind is None or kind_of(ph) == kind]

    def value_check(self, text: str) -> list[str]:
        """The learned values still present in `text` (for tests and self-checks; not the weak names)."""
        return [v for v in self._map if v in text]
