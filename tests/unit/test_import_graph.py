"""The import graph of app/ and ui/ (tests/tools/import_graph.py: static imports, imports inside functions, and
dynamic imports named by a literal) has no cycle between modules and no import from a lower layer to a higher
one, beyond the one the design names (`gpu-wizard` without a subcommand opens the window).

Today's exceptions are listed below with the engineer removing each. The lists only shrink: an exception that
no longer happens fails too (delete its line), so a removed cycle cannot come back unseen."""
from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "tools"))
import import_graph as G  # noqa: E402

# Cycles of today, as the set of modules each one joins: owner.
KNOWN_CYCLES: dict[frozenset[str], str] = {
}
# Imports from a lower layer to a higher one of today: owner.
KNOWN_UPWARD: dict[tuple[str, str], str] = {
}
# Verification and diagnosis read the recommendation (app.recommendation), never solve again: owner.
NO_SOLVER_BELOW = ("app.verify", "app.diagnose")
KNOWN_SOLVER: dict[tuple[str, str], str] = {}


@pytest.fixture(scope="module")
def edges() -> list[G.Edge]:
    return G.edges()


def test_no_cycle_between_modules_beyond_the_known_ones(edges):
    g = G.graph(edges)
    comps = {frozenset(c): c for c in G.strongly_connected(g)}
    new = [" -> ".join(G.one_cycle(g, c)) for k, c in comps.items() if k not in KNOWN_CYCLES]
    assert new == [], "import cycles (break them: move the shared part below both):\n" + "\n".join(new)
    gone = [f"{sorted(k)} ({who})" for k, who in KNOWN_CYCLES.items() if k not in comps]
    assert gone == [], "these cycles are gone: delete them from KNOWN_CYCLES in tests/unit/test_import_graph.py: " + ", ".join(gone)


def test_no_import_from_a_lower_layer_to_a_higher_one(edges):
    up = {(e.src, e.dst): e for e in G.upward(edges)}
    new = [str(e) for k, e in sorted(up.items()) if k not in KNOWN_UPWARD and k not in G.ALLOWED_UP]
    assert new == [], "imports from a lower layer to a higher one (tests/tools/import_graph.py LAYERS):\n" + "\n".join(new)
    gone = [f"{a} -> {b} ({who})" for (a, b), who in KNOWN_UPWARD.items() if (a, b) not in up]
    assert gone == [], "these are gone: delete them from KNOWN_UPWARD in tests/unit/test_import_graph.py: " + ", ".join(gone)
    assert len(G.ALLOWED_UP) <= 1  # the design allows one, named: the command line opening the window
    assert set(G.ALLOWED_UP) <= set(up), "the allowed upward import no longer happens: drop it from ALLOWED_UP"


def test_verify_and_diagnose_never_import_the_solver(edges):
    found = {(e.src, e.dst) for e in edges if e.dst == "app.recommend" and e.src.startswith(NO_SOLVER_BELOW)}
    assert sorted(found - set(KNOWN_SOLVER)) == []
    gone = [f"{a} ({who})" for (a, b), who in KNOWN_SOLVER.items() if (a, b) not in found]
    assert gone == [], "gone: delete from KNOWN_SOLVER in tests/unit/test_import_graph.py: " + ", ".join(gone)


def test_every_module_has_a_layer():
    assert G.unlayered() == []


def test_the_engine_never_imports_the_window_but_once(edges):
    into_ui = {(e.src, e.dst) for e in edges if e.src.startswith("app") and e.dst.split(".")[0] == "ui"}
    assert into_ui == set(G.ALLOWED_UP)


def test_known_exceptions_are_in_the_import_linter_config_too():
    """lint-imports holds the static part of the same rules: its ignore list is the static part of ours."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    for a, b in KNOWN_UPWARD:
        assert f'"{a} -> {b}"' in text
    assert '"__main__ : cli",\n  "commands",\n  "fleet",' in text  # the command line above its commands above fleet


# ------------------------------------------------------------------------------------------------
# The graph sees what lint-imports does not: planted in a small tree of its own


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        p = tmp_path / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text), encoding="utf-8")
    return tmp_path


BASE = {"app/__init__.py": "", "app/cli.py": "", "app/run/__init__.py": "from .state import RunState\n",
        "app/run/state.py": "", "app/report/__init__.py": "from .build import RunState\n", "ui/__init__.py": "",
        "ui/main.py": ""}


@pytest.mark.parametrize("body, how", [
    ("import app.report\n", "static"),
    ("from ..report import build\n", "static"),  # relative, a submodule
    ("def f():\n    from app.report import build\n", "function"),
    ("import importlib\ndef f():\n    return importlib.import_module('app.report.build')\n", "dynamic"),
    ("def f():\n    return __import__('app.report.build', fromlist=['x'])\n", "dynamic"),
    ("import importlib\ndef _m(name):\n    return importlib.import_module(name)\ndef f(win):\n"
     "    return _m('app.report.build' if win else 'app.report')\n", "dynamic"),  # through a helper, either branch
])
def test_graph_sees_each_kind_of_import_and_its_cycle(tmp_path, body, how):
    root = _tree(tmp_path, {**BASE, "app/report/build.py": "from app.run.state import RunState\n",
                            "app/run/state.py": body})
    es = G.edges(root)
    assert any(e.src == "app.run.state" and e.dst.startswith("app.report") and e.how == how for e in es), es
    comps = G.strongly_connected(G.graph(es))
    assert any({"app.run.state", "app.report.build"} <= set(c) for c in comps), comps


def test_type_checking_imports_and_a_package_importing_its_own_modules_are_no_cycle(tmp_path):
    root = _tree(tmp_path, {**BASE, "app/run/state.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                                      "    from app.run import RunState\n"})
    assert G.strongly_connected(G.graph(G.edges(root))) == []


def test_an_upward_import_is_found_through_a_dynamic_name(tmp_path):
    root = _tree(tmp_path, {**BASE, "app/run/state.py": "import importlib\ndef f():\n"
                                                      "    return importlib.import_module('ui.main')\n"})
    up = G.upward(G.edges(root))
    assert [(e.src, e.dst, e.how) for e in up] == [("app.run.state", "ui.main", "dynamic")]


def test_the_real_tree_has_dynamic_and_function_level_imports(edges):
    """The graph is not empty of the kinds lint-imports misses (else the test above proves nothing here)."""
    assert sum(e.how == "dynamic" for e in edges) >= 5
    assert sum(e.how == "function" for e in edges) >= 50
    assert ("app.cli", "ui.main") in {(e.src, e.dst) for e in edges if e.how == "dynamic"}
