"""tests/tools/mutate.py works: one real mutation of a core rule, through the script, fails the tests that hold
that rule and leaves the checkout as it was; a mutation whose text moved is reported stale, and one the tests
barely notice is reported weak (both exit 1). The whole table runs outside the default test run:
`.venv/bin/python tests/tools/mutate.py` (docs/DESIGN.md, "Tests that bite")."""
from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "tools"))
import mutate  # noqa: E402


def _row(out: str, name: str) -> list[str]:
    rows = [line.split() for line in out.splitlines() if line.split()[:1] == [name]]
    assert len(rows) == 1, out
    return rows[0]


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_one_real_mutation_fails_its_tests_and_the_checkout_is_untouched(capsys):
    db = ROOT / "app" / "compat" / "db.py"
    before = _sha(db)
    rc = mutate.main(["--only", "driver-floor", "--tests", "tests/unit/test_compat_db.py", "--min-failing", "2"])
    out = capsys.readouterr().out
    failing, total, baseline = (int(x) for x in _row(out, "driver-floor")[1:4])
    assert failing >= 2 and baseline == 0 and total >= 40, out
    assert rc == 0 and "WEAK" not in out
    assert _sha(db) == before  # the copy was mutated, never the checkout


@pytest.fixture
def tiny(tmp_path, monkeypatch):
    """A checkout of its own: one rule, three tests that hold it, one that does not look."""
    root = tmp_path / "tree"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "rule.py").write_text("def old_enough(age):\n    return age >= 18\n\n\ndef name(x):\n    return x.strip()\n")
    (root / "test_rule.py").write_text(
        "from pkg.rule import name, old_enough\n\n"
        "def test_at_the_floor():\n    assert old_enough(18)\n\n"
        "def test_above():\n    assert old_enough(40)\n\n"
        "def test_below():\n    assert not old_enough(17)\n\n"
        "def test_name():\n    assert name(' a ') == 'a'\n")
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    monkeypatch.setattr(mutate, "ROOT", root)
    return root


def _mutations(*ms: mutate.Mutation) -> tuple[mutate.Mutation, ...]:
    return ms


def test_counts_stale_and_weak_on_a_tree_of_its_own(tiny, monkeypatch, capsys):
    tests = ("test_rule.py",)
    monkeypatch.setattr(mutate, "MUTATIONS", _mutations(
        mutate.Mutation("floor-off", "18 is too young", (("pkg/rule.py", "age >= 18", "age > 18"),), tests),
        mutate.Mutation("rule-gone", "nobody is old enough", (("pkg/rule.py", "return age >= 18", "return False"),), tests),
        mutate.Mutation("moved", "text that is not there", (("pkg/rule.py", "age >= 21", "age > 21"),), tests),
    ))
    rc = mutate.main(["--min-failing", "2"])
    out = capsys.readouterr().out
    assert _row(out, "floor-off")[1:4] == ["1", "4", "0"] and "WEAK" in " ".join(_row(out, "floor-off"))
    assert _row(out, "rule-gone")[1:4] == ["2", "4", "0"] and "WEAK" not in " ".join(_row(out, "rule-gone"))
    assert _row(out, "moved")[1] == "stale"
    assert rc == 1  # a weak and a stale mutation
    assert (tiny / "pkg" / "rule.py").read_text().count("age >= 18") == 1  # the tree itself never changes


def test_a_baseline_that_already_fails_makes_the_counts_worthless(tiny, monkeypatch, capsys):
    (tiny / "test_broken.py").write_text("def test_broken():\n    assert False\n")
    tests = ("test_rule.py", "test_broken.py")
    monkeypatch.setattr(mutate, "MUTATIONS", _mutations(
        mutate.Mutation("rule-gone", "nobody is old enough", (("pkg/rule.py", "return age >= 18", "return False"),), tests)))
    rc = mutate.main(["--min-failing", "1"])
    out = capsys.readouterr().out
    assert _row(out, "rule-gone")[1:4] == ["2", "5", "1"]  # counted beyond the baseline's failure
    assert rc == 1
