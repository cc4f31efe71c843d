"""The gates (app/diagnose/gates.py) only save work: on real texts made large, every gated platform pattern
gives the answer the plain regex gives (found or not, the leftmost match and its groups, every match of
findall); a pattern marked single-line cannot match across a line break (checked on its parse tree); a gate
literal is in every match."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.diagnose import platform as P
from app.diagnose.gates import GATE_MIN_CHARS, Gated, folded, literal_gates

try:
    import re._parser as sre_parse
    from re import _constants as C
except ImportError:  # Python 3.10
    import sre_constants as C
    import sre_parse

FIX = Path(__file__).resolve().parent.parent / "fixtures"
PATTERNS = [(f"{table}.{name}", g) for table in ("_WSL_RX", "_WINDOWS_RX", "_MACOS_RX", "_CONTAINER_RX", "_PKG_RX", "_DISTRO_RX")
            for name, g in getattr(P, table)] + \
           [(n, getattr(P, n)) for n in ("_BARE_METAL", "_SITE_POSIX", "_SITE_WIN", "_JETSON", "_HOME", "_DOCKER_DESKTOP_RX")]


def _texts() -> list[str]:
    out = [p.read_text(encoding="utf-8", errors="replace") for p in sorted(FIX.glob("errors*/*.txt"))]
    assert len(out) > 300
    return out


TEXTS = _texts()
# real texts as one large log, and each real text buried in filler (so a clue sits in one line of many)
FILLER = "\n".join(f"2026-12-01T10:00:{i % 60:02d}Z trainer: step {i} loss 0.{i:04d}" for i in range(400)) + "\n"
BIG = ["\n".join(TEXTS)] + [FILLER + t + "\n" + FILLER for t in TEXTS[::29]]


def _can_match_newline(item) -> bool:
    op, av = item
    if op is C.LITERAL:
        return av == 10
    if op is C.NOT_LITERAL:
        return av != 10
    if op is C.ANY:
        return False  # no DOTALL anywhere in these patterns
    if op is C.IN:
        neg = any(o is C.NEGATE for o, _ in av)
        hit = any((o is C.LITERAL and a == 10) or (o is C.RANGE and a[0] <= 10 <= a[1])
                  or (o is C.CATEGORY and a in (C.CATEGORY_SPACE, C.CATEGORY_NOT_WORD, C.CATEGORY_NOT_DIGIT)) for o, a in av)
        return hit != neg
    if op is C.BRANCH:
        return any(_seq_newline(b) for b in av[1])
    if op is C.SUBPATTERN:
        return _seq_newline(av[-1])
    if op in (C.MAX_REPEAT, C.MIN_REPEAT):
        return _seq_newline(av[2])
    if op in (C.ASSERT, C.ASSERT_NOT):
        return False  # a look-around consumes nothing: the match itself stays on the line
    return op not in (C.AT,)


def _seq_newline(seq) -> bool:
    return any(_can_match_newline(x) for x in seq)


def _leading_newline(seq) -> int:
    """How many items of a `(?:^|\\n)\\s*` start there are (0 when none)."""
    items = list(seq)
    if not items or items[0][0] is not C.BRANCH:
        return 0
    alts = items[0][1][1]
    if not all(len(a) == 1 and (a[0][0] is C.AT or a[0] == (C.LITERAL, 10)) for a in alts):
        return 0
    return 2 if len(items) > 1 and items[1][0] is C.MAX_REPEAT else 1


@pytest.mark.parametrize("name,g", PATTERNS, ids=[n for n, _ in PATTERNS])
def test_a_single_line_pattern_matches_within_a_line(name, g):
    assert g.single_line
    assert _within_a_line(list(sre_parse.parse(g.rx.pattern, g.rx.flags))), name


def _within_a_line(seq) -> bool:
    """Each top-level alternative matches no newline but one it starts with."""
    if len(seq) == 1 and seq[0][0] is C.BRANCH:
        return all(_within_a_line(list(alt)) for alt in seq[0][1][1])
    return not _seq_newline(seq[_leading_newline(seq):])


@pytest.mark.parametrize("name,g", PATTERNS, ids=[n for n, _ in PATTERNS])
def test_gated_answers_are_the_regexs_own(name, g):
    for text in BIG:
        assert len(text) >= GATE_MIN_CHARS
        want, got = g.rx.search(text), g.search(text)
        assert (want is None) == (got is None), name
        if want is not None and got is not None:
            assert got.start() == want.start() or text[want.start()] == "\n", name  # a (?:^|\n)\s* start may begin a line later
            assert got.groupdict() == want.groupdict(), name
        assert set(g.findall(text)) == set(g.rx.findall(text)), name


def test_every_match_holds_a_gate_literal():
    for name, g in PATTERNS:
        if g.gates is None:
            continue
        for text in TEXTS:
            for m in g.rx.finditer(text):
                assert any(x in folded(m.group(0)) for x in g.gates) or m.group(0).startswith("\n"), (name, m.group(0))


def test_gates_of_a_pattern():
    assert literal_gates(r"\bdocker(?:-compose| run)\b|\bOCI runtime\b", re.IGNORECASE) == ("docker", "oci runtime")
    assert literal_gates(r"(?:foo)?bar|baz", 0) == ("bar", "baz")
    assert literal_gates(r"\d+|x", 0) is None  # a branch with no literal: always run
    assert literal_gates(r"a(?!bcd)", 0) is None  # a negative look-ahead's text is never required
    g = Gated(r"\bneedle\b", re.IGNORECASE, single_line=True)
    hay = FILLER * 3
    found = g.search(hay + "the NEEDLE here\n" + hay)
    assert g.search(hay) is None and found is not None and found.group(0) == "NEEDLE"
    assert g.search("x" * GATE_MIN_CHARS + "\u017f") is None and Gated(r"\u017f", re.IGNORECASE).search("S" * 10) is not None


def test_usage_figures_are_the_usage_patterns_own():
    """The memory figures found by the two fast patterns are USAGE_RE.finditer's, in order, on real texts."""
    from app.diagnose import textscan as T

    for text in TEXTS + [FILLER + "mem_used: 100MiB / 200MiB allocated 3 GiB 12mib/40mib gpu_mem=7.5g\n" * 50]:
        low = text.lower()
        want = [T._to_mib(m.group(1), m.group(2)) if m.group(1) else float(m.group(3)) for m in T.USAGE_RE.finditer(low)]
        assert list(T.usage_figures(low, 0, len(low))) == want


def test_a_repeated_line_tag_is_blanked_without_changing_the_windows(monkeypatch):
    """Real texts as journald and compose would print them: the keyword search skips the tag every line repeats,
    and keeps exactly the windows it kept when it searched the tag too."""
    from app.diagnose import load_rules, textscan as T

    kw = load_rules().keywords
    body = "".join(TEXTS[::5])
    journald = "".join(f"Dec 01 10:00:{i % 60:02d} gpu-node-7 python[4242]: {x}\n" for i, x in enumerate((FILLER * 40 + body).split("\n")))
    compose = "".join(f"api-1  | {x}\n" for x in (FILLER * 40 + body).split("\n"))
    for log, tag in ((journald, "gpu-node-7 python[4242]: "), (compose, "api-1  | ")):
        assert T.repeated_tag(log[:20000].lower(), kw) == tag
        fast = T.scan_text(log, kw)
        monkeypatch.setattr(T, "masked", lambda low, kw: low)
        slow = T.scan_text(log, kw)
        monkeypatch.undo()
        assert [(w.first_line, w.lines) for w in fast.windows] == [(w.first_line, w.lines) for w in slow.windows]
        assert fast.windows and fast.usage_mib == slow.usage_mib
    assert T.repeated_tag(FILLER.lower() * 3, kw) == "trainer: "  # a logger's name every line repeats
    assert T.repeated_tag("".join(f"step {i} loss 0.{i}\n" for i in range(99)), kw) is None  # no tag: nothing blanked
    assert T.repeated_tag("".join(f"host nvidia-smi[{i}]: ok\n" for i in range(99)).lower(), kw) is None  # a keyword in it
