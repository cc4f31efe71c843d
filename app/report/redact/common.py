"""What every kind shares: the placeholder kinds, everyday words, and the cheap text pieces the
engine works on (a text is cut at spaces and line ends into pieces; a piece into word runs)."""
from __future__ import annotations

import bisect
import itertools
import operator
import re
from functools import cached_property
from typing import Any, Iterable, Optional, Protocol

KINDS = ("user", "host", "home", "ip", "mac", "gpu-uuid", "uuid", "serial", "email", "secret", "name", "wifi",
         "machine-id", "fabric-id", "webhook", "sid")

PLACEHOLDER_RE = re.compile(r"<(?:%s)-\d+>" % "|".join(re.escape(k) for k in KINDS))

# Names that are also everyday words in these files: replaced only in a name's context.
COMMON_WORDS = frozenset("""
ubuntu debian admin administrator user users nvidia cuda gpu gpus linux test tests guest default public
local home vm wsl docker runner pi ec2 centos fedora rocky alma rhel suse opensuse arch kali mint pop
server desktop workstation machine host node worker master main dev devel build ci data shared share
python torch conda anaconda miniconda jupyter lab ai ml compute cloud box system sys service services
tesla quadro geforce titan rtx gtx hopper ampere turing volta pascal ada lovelace blackwell kepler maxwell
jetson orin grace nvidia-smi driver kernel module open proprietary version release
the and for with from this that not you your are was were has have had but all any can will one two new
see use used using set get run make file files path name names text line lines note list when where which
what who how why out off into over under then than them they their there here these those its our his her
""".split())
NOT_PRIVATE_USERS = frozenset({"root", "nobody", "daemon", "bin", "sys", "public", "default", "all users",
                               "default user", "defaultuser0", "shared", "wsl", "linuxbrew", "<user"})
NOT_PRIVATE_HOSTS = frozenset({"localhost", "localhost.localdomain", "localdomain", "(none)", "none", "unknown",
                               "ip6-localhost", "ip6-loopback"})
USER_KEYS = frozenset({"USER", "LOGNAME", "USERNAME", "SUDO_USER", "PKEXEC_UID_NAME"})
HOST_KEYS = frozenset({"HOSTNAME", "COMPUTERNAME", "WSL_HOSTNAME", "HOST_NAME"})
HOME_KEYS = frozenset({"HOME", "USERPROFILE", "HOMEPATH"})
HOSTNAME_FILES = ("/etc/hostname", "/proc/sys/kernel/hostname", "/etc/mailname")

# ASCII punctuation and spaces → a space: what is left of a piece are its word runs (letters, digits,
# "_" and any non-ASCII letter), the unit the literal index looks values up by
_NOT_RUN = str.maketrans({chr(c): " " for c in range(128) if not (chr(c).isalnum() or chr(c) == "_")})
NOT_RUN_KEEP_NL = str.maketrans({chr(c): " " for c in range(128) if not (chr(c).isalnum() or chr(c) in "_\n")})


def runs(s: str) -> list[str]:
    """The word runs of a (lower-cased) string: "/home/carol.d/x" → ["home", "carol", "d", "x"]."""
    return s.translate(_NOT_RUN).split()


def is_word(c: str) -> bool:
    return c.isalnum() or c == "_"


def strip_quotes(v: str) -> str:
    if len(v) >= 2 and v[0] == v[-1] and v[0] in "\"'":
        return v[1:-1]
    return v


class Learner(Protocol):
    """What a kind's learners call on the Redactor (app.report.redact.engine.Redactor)."""

    def add(self, kind: str, value: str, weak: bool = False) -> Any: ...
    def add_all(self, kind: str, values: Iterable[str], patterned: bool = False, weak: frozenset[str] = frozenset(),
                fresh: bool = False) -> Any: ...
    def add_secrets(self, values: Iterable[str]) -> Any: ...
    def add_user(self, name: Any) -> Any: ...
    def add_host(self, name: Any, first_label: bool = True) -> Any: ...
    def add_home(self, path: Any) -> Any: ...
    def add_secret(self, value: Any) -> Any: ...
    def add_serial(self, value: Any) -> Any: ...
    def add_wifi(self, name: Any) -> Any: ...
    def add_name(self, name: Any) -> Any: ...
    def add_id(self, kind: str, value: Any) -> Any: ...
    def add_ip(self, s: str) -> Any: ...
    def has(self, value: str) -> bool: ...
    def unknown(self, values: Iterable[str]) -> list[str]: ...


_PUNCT = frozenset(chr(c) for c in range(128) if not (chr(c).isalnum() or chr(c) == "_" or chr(c).isspace()))
_WORD_CHARS_OUT = str.maketrans("", "", "".join(chr(c) for c in range(128) if chr(c).isalnum() or chr(c) == "_"))


class Text:
    """A text being learned from, with what several kinds look at worked out once: its lower case, its
    distinct pieces (between whitespace, in the order they first appear), those joined by line ends
    and in lower case, and how often a piece holds a string."""

    def __init__(self, text: str, pieces: list[str]):
        self.text = text
        self.low = text.lower()
        self.pieces = pieces
        self._counts: dict[str, list[int]] = {}
        self._holds: dict[str, bool] = {}
        self._absent: list[str] = []  # words found missing
        self._having: dict[tuple[str, int], list[str]] = {}

    @cached_property
    def joined(self) -> str:
        return "\n".join(self.pieces)

    @cached_property
    def joined_low(self) -> str:
        return self.joined.lower()

    @cached_property
    def pieces_low(self) -> list[str]:
        out = self.joined_low.split("\n")
        return out if len(out) == len(self.pieces) else [p.lower() for p in self.pieces]

    def count(self, sub: str) -> list[int]:
        """How often each piece holds `sub`."""
        got = self._counts.get(sub)
        if got is None:  # a string no piece holds: no count of each (one str.find over all of them)
            got = (list(map(str.count, self.pieces, itertools.repeat(sub))) if sub in self.joined
                   else [0] * len(self.pieces))
            self._counts[sub] = got
        return got

    @cached_property
    def skeletons(self) -> list[str]:
        """Each piece without its word characters (`(aa:bb:cc:dd:ee:ff)` -> `(:::::)`): one translate of
        all pieces at once. A piece holds a punctuation character as often as its skeleton does, and
        the distinct skeletons are few, so a test of a punctuation character is made once per skeleton
        (gate) and each piece only looked up."""
        out = self.joined.translate(_WORD_CHARS_OUT).split("\n")
        return out if len(out) == len(self.pieces) else [p.translate(_WORD_CHARS_OUT) for p in self.pieces]

    @cached_property
    def _skeleton_kinds(self) -> list[str]:
        """The distinct skeletons."""
        return list(dict.fromkeys(self.skeletons))

    def known_absent(self, word: str) -> bool:
        """Is `word` (lower case) known, from the words looked for so far, to be in no piece?"""
        return self._holds.get(word) is False or any(a in word for a in self._absent)

    def gate(self, *tests: tuple[str, int]) -> list[bool]:
        """For each piece: does it hold any test's string at least its number of times? Punctuation
        through the skeletons (a string of several characters: a skeleton may hold it where the
        piece does not, so those pieces are checked themselves); anything else counted piece by piece."""
        if all(sub and all(c in _PUNCT for c in sub) for sub, _ in tests):
            skels, kinds = self.skeletons, self._skeleton_kinds
            good = {sk for sk in kinds if any(sk.count(sub) >= k for sub, k in tests)}
            if not good or len(good) == len(kinds):  # none or all: no lookup per piece
                near = [bool(good)] * len(skels)
            else:
                near = list(map(good.__contains__, skels))
            if all(len(sub) == 1 for sub, _ in tests):
                return near
            out = [False] * len(self.pieces)
            for i in itertools.compress(range(len(out)), near):
                p = self.pieces[i]
                out[i] = any(p.count(sub) >= k for sub, k in tests)
            return out
        ok: list[bool] = []
        for sub, k in tests:
            hit = list(map(k.__le__, self.count(sub)))
            ok = hit if not ok else list(map(operator.or_, ok, hit))
        return ok

    def at_least(self, sub: str, k: int) -> list[bool]:
        return self.gate((sub, k))

    def having(self, sub: str, k: int = 1) -> list[str]:
        """The pieces that hold `sub` (at least k times); kept for the next caller (not to be changed)."""
        got = self._having.get((sub, k))
        if got is None:
            got = self._having[(sub, k)] = list(itertools.compress(self.pieces, self.gate((sub, k))))
        return got

    def holds(self, word: str) -> bool:
        """Does the text hold `word` (lower case)? Looked for in the distinct pieces unless it spans
        whitespace (a repetitive log's distinct pieces are a small part of it). Each word is looked
        for once, and not at all when it holds a word already found missing."""
        got = self._holds.get(word)
        if got is None:
            if any(a in word for a in self._absent):
                got = False
            else:
                got = word in self.low if word != "".join(word.split()) else word in self.joined_low
                if not got:
                    self._absent.append(word)
            self._holds[word] = got
        return got

    def lines_with(self, words: Iterable[str], lower: bool = False) -> str:
        """common.lines_with for the words the text holds (of its lower case when `lower`). Of a text
        whose lines are all short (no stretches of long lines to take), the same lines are found line
        by line: a word's first hits by str.find, and once it is on many lines, every line is tested
        for it at once (in C; str.find per hit is a Python step per line)."""
        present = [w for w in words if self.holds(w)]
        if not present:
            return ""
        if not self._short_lines:
            return lines_with(self.low if lower else self.text, self.low, present)
        low, low_lines, starts = self.low, self._low_lines, self._starts
        mask = [False] * len(low_lines)
        hits = 0
        for w in present:
            i, seen = low.find(w), 0
            while i >= 0 and seen < _MANY_LINES:
                k = bisect.bisect_right(starts, i) - 1
                mask[k] = True
                seen += 1
                i = low.find(w, starts[k + 1]) if k + 1 < len(starts) else -1
            if i >= 0:  # on many lines: all of them at once
                on = list(map(operator.contains, low_lines, itertools.repeat(w)))
                seen = on.count(True)
                mask = list(map(operator.or_, mask, on))
            hits += seen
            if hits > _TRIGGER_CAP:
                return self.low if lower else self.text
        return "\n".join(itertools.compress(self._low_lines if lower else self._lines, mask))

    @cached_property
    def _lines(self) -> list[str]:
        return self.text.split("\n")

    @cached_property
    def _low_lines(self) -> list[str]:
        return self.low.split("\n")

    @cached_property
    def _starts(self) -> list[int]:
        """Where each line starts in the text (and its lower case)."""
        return list(itertools.accumulate(map((1).__add__, map(len, self._lines)), initial=0))[:-1]

    @cached_property
    def _short_lines(self) -> bool:
        """Are all lines shorter than _LONG_LINE (and the lower case as long as the text)?"""
        return len(self.low) == len(self.text) and max(map(len, self._lines)) < _LONG_LINE


def having(pieces: list[str], sub: str) -> list[str]:
    """The pieces that hold `sub` (tested in bulk, in C)."""
    return list(itertools.compress(pieces, map(operator.contains, pieces, itertools.repeat(sub))))


def at_least(pieces: list[str], sub: str, k: int) -> list[bool]:
    """For each piece: does it hold `sub` at least k times?"""
    return list(map(k.__le__, map(str.count, pieces, itertools.repeat(sub))))


def pieces_with(pieces: list[str], words: Iterable[str]) -> list[str]:
    """The pieces holding any of `words` (lower case), found by str.find over all of them at once."""
    joined = "\n".join(pieces)
    low = joined.lower()
    if len(low) != len(joined):
        return [p for p in pieces if any(w in p.lower() for w in words)]
    starts: list[int] = []  # where each piece starts (worked out at the first hit)
    found: set[int] = set()
    mask: Optional[list[bool]] = None  # the pieces of the words on many pieces (tested on each at once)
    for w in words:
        i, seen = low.find(w), 0
        if i >= 0 and not starts:
            starts = list(itertools.accumulate((len(p) + 1 for p in pieces), initial=0))
        while i >= 0 and seen < _MANY_LINES:
            k = bisect.bisect_right(starts, i) - 1
            found.add(k)
            seen += 1
            i = low.find(w, starts[k + 1])  # the next piece
        if i >= 0:
            lows = low.split("\n")
            if len(lows) != len(pieces):  # a piece with a line end in it: on with str.find
                while i >= 0:
                    k = bisect.bisect_right(starts, i) - 1
                    found.add(k)
                    i = low.find(w, starts[k + 1])
                continue
            on = map(operator.contains, lows, itertools.repeat(w))
            mask = list(on) if mask is None else list(map(operator.or_, mask, on))
    if mask is not None:
        for k in found:
            mask[k] = True
        return list(itertools.compress(pieces, mask))
    return [pieces[k] for k in sorted(found)]


_TRIGGER_CAP = 200_000
_MANY_LINES = 256  # a word on more lines than this: every line tested for it at once


def lines_with(text: str, low: str, words: Iterable[str]) -> str:
    """The lines of `text` holding any of `words` (searched in `low`, its lower-cased copy), joined:
    a context pattern then runs over these lines only. Found by str.find (linear, in C). Of a line
    longer than _LONG_LINE only the stretch around each word is taken (one long line is no table)."""
    spans: set[tuple[int, int]] = set()  # a line held by several words: one span
    hits = 0
    n = len(low)
    if n != len(text):  # a letter whose lower case is longer: keep the offsets of `text`
        low = "".join(c.lower()[:1] for c in text)
    find, rfind, add = low.find, low.rfind, spans.add
    for w in words:
        width = len(w)
        i = find(w)
        while i >= 0:
            hits += 1
            if hits > _TRIGGER_CAP:
                return text  # the words are everywhere: the whole text is cheaper than its lines
            # the line around i; for a line longer than _LONG_LINE the stretch of _WINDOW around it
            # (never scans further than _LONG_LINE, so many hits on one long line stay linear)
            lo, hi = i - _LONG_LINE, i + _LONG_LINE
            a = rfind("\n", lo if lo > 0 else 0, i)
            b = find("\n", i, hi if hi < n else n)
            if (a < 0 < lo) or (b < 0 and hi < n):  # a long line: the stretch around the word
                a, b = (i - _WINDOW if i > _WINDOW else 0), min(n, i + width + _WINDOW)
            else:
                a, b = a + 1, (n if b < 0 else b)
            add((a, b))
            i = find(w, b if b > i else i + 1)
    if not spans:
        return ""
    order = sorted(spans)
    out, start, end = [], order[0][0], order[0][1]
    for a, b in order[1:]:
        if a > end:
            out.append(text[start:end])
            start = a
        end = max(end, b)
    out.append(text[start:end])
    return "\n".join(out)


_LONG_LINE = 4096
_WINDOW = 512


NOCASE = frozenset({"user", "host", "home", "mac", "gpu-uuid", "uuid", "email", "ip", "name", "wifi", "machine-id",
                    "fabric-id", "sid"})


def kind_class(kind: str, v: str) -> str:
    if kind in ("user", "host", "name", "wifi"):
        return "word"
    if kind == "home":
        return "home"
    return "alnum" if v[:1].isalnum() else "plain"


def bounded(s: str, i: int, j: int, cls: str) -> bool:
    """Do the value's boundaries hold around s[i:j] (see the classes in _kind_class)?"""
    if cls == "plain":
        return True
    b = s[i - 1] if i else " "
    a = s[j] if j < len(s) else " "
    if cls == "word":
        return not (is_word(b) or b in ".-") and not (is_word(a) or a == "-")
    if cls == "home":
        return not (is_word(a) or a in ".-")
    return not (is_word(b) or b in ".+-") and not (is_word(a) or a in "+-")
