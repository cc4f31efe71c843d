"""No function in app/ or ui/ over 120 lines (TEAM.md: keep them <= 80, never over 120), beyond today's
offenders listed here with the engineer who owns each. The list only shrinks: a listed function may not grow,
and one that is split (or renamed, or gone) fails too until its line is deleted, so it cannot come back unseen.
tests/tools/long_functions.py prints them all (`--limit 80` for the softer bound)."""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "tools"))
import long_functions as L  # noqa: E402

LIMIT = 120
# path::qualified name -> (its length today, owner). Delete a line when the function is split.
KNOWN_LONG: dict[str, tuple[int, str]] = {
}

def test_no_new_function_over_the_limit():
    found = {f.key: f for f in L.longer_than(LIMIT)}
    new = [f"{f.path}:{f.line} {f.name}: {f.lines} lines" for k, f in sorted(found.items()) if k not in KNOWN_LONG]
    assert new == [], f"functions over {LIMIT} lines (split them into named steps):\n" + "\n".join(new)
    grown = [f"{k}: {found[k].lines} lines, was {n}" for k, (n, _who) in KNOWN_LONG.items() if k in found and found[k].lines > n]
    assert grown == [], "these long functions grew (split them instead):\n" + "\n".join(grown)
    gone = [f"{k} ({who})" for k, (_n, who) in KNOWN_LONG.items() if k not in found]
    assert gone == [], "no longer over the limit: delete from KNOWN_LONG in tests/unit/test_function_size.py: " + ", ".join(gone)


def test_the_measure_counts_methods_and_nested_functions():
    src = "class A:\n    def m(self):\n        def inner():\n            return 1\n\n        return inner()\n\n\nasync def f():\n    pass\n"
    got = {f.name: (f.line, f.lines) for f in L.functions_in(src, "x.py")}
    assert got == {"A.m": (2, 5), "A.m.inner": (3, 2), "f": (9, 2)}
    assert [f.name for f in L.longer_than(10_000)] == []
    assert len(L.all_functions()) > 1000  # the walk reads the real tree (about 2,400 functions today)
