"""The import graph of app/ and ui/: static imports (module level and inside functions), and the dynamic
ones named by a literal (`importlib.import_module("app.x")`, `__import__("app.x")`, and any function of
the same module that passes its argument on to one of those, e.g. ui/engine.py's `_module("app.pipeline")`).

Nodes are modules (one per .py file; a package is its __init__). `from pkg import name` is an edge to
`pkg.name` when that is a module, else to `pkg`. Importing `a.b.c` runs the packages `a` and `a.b` too, but
those implicit edges to a parent package are not counted: a package importing its own submodules is not a
cycle. Imports under `if TYPE_CHECKING:` never run and are left out.

    python tests/tools/import_graph.py           # the cycles and the upward imports, one per line
"""
from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator, Optional

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("app", "ui")
_DYNAMIC = {"import_module", "__import__"}


@dataclass(frozen=True)
class Edge:
    src: str
    dst: str
    line: int
    how: str  # "static", "function" (inside a function), "dynamic" (a literal given to an importer)

    def __str__(self) -> str:
        return f"{self.src} -> {self.dst} ({self.how}, line {self.line})"


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules(root: Path = ROOT, packages: Iterable[str] = PACKAGES) -> dict[str, Path]:
    out = {}
    for pkg in packages:
        for py in sorted((root / pkg).rglob("*.py")):
            if "__pycache__" not in py.parts:
                out[module_name(py, root)] = py
    return out


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _literals(node: ast.expr) -> list[str]:
    """The module names an argument can be: a string, or either branch of `a if c else b`."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _literals(node.body) + _literals(node.orelse)
    return []


def _call_name(node: ast.Call) -> str:
    f = node.func
    return f.id if isinstance(f, ast.Name) else (f.attr if isinstance(f, ast.Attribute) else "")


def _importers(tree: ast.Module) -> set[str]:
    """This module's own functions that import the module named by their first argument."""
    names = set()
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) or not fn.args.args:
            continue
        first = fn.args.args[0].arg
        for call in ast.walk(fn):
            if isinstance(call, ast.Call) and _call_name(call) in _DYNAMIC and call.args \
                    and isinstance(call.args[0], ast.Name) and call.args[0].id == first:
                names.add(fn.name)
    return names


class _Walker(ast.NodeVisitor):
    def __init__(self, name: str, is_pkg: bool, known: set[str], importers: set[str]):
        self.name, self.is_pkg, self.known, self.importers = name, is_pkg, known, importers
        self.depth = 0
        self.found: list[tuple[str, int, str]] = []

    def _how(self) -> str:
        return "function" if self.depth else "static"

    def _base(self, level: int, module: Optional[str]) -> str:
        if not level:
            return module or ""
        parts = self.name.split(".")
        keep = len(parts) - level + (1 if self.is_pkg else 0)
        base = ".".join(parts[:max(keep, 0)])
        return f"{base}.{module}" if module else base

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:  # noqa: N802
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]  # noqa: N815

    def visit_If(self, node: ast.If) -> None:  # noqa: N802
        if _is_type_checking(node.test):
            for n in node.orelse:
                self.visit(n)
            return
        self.generic_visit(node)

    def visit_Import(self, node: ast.Import) -> None:  # noqa: N802
        for a in node.names:
            self.found.append((a.name, node.lineno, self._how()))

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:  # noqa: N802
        base = self._base(node.level, node.module)
        for a in node.names:
            sub = f"{base}.{a.name}"
            self.found.append((sub if sub in self.known else base, node.lineno, self._how()))

    def visit_Call(self, node: ast.Call) -> None:  # noqa: N802
        name = _call_name(node)
        if (name in _DYNAMIC or name in self.importers) and node.args:
            for lit in _literals(node.args[0]):
                self.found.append((lit, node.lineno, "dynamic"))
        self.generic_visit(node)


def _resolve(target: str, known: set[str]) -> Optional[str]:
    """The known module an imported name lands in (`app.run.Session` → `app.run`); None outside."""
    parts = target.split(".")
    while parts:
        cand = ".".join(parts)
        if cand in known:
            return cand
        parts.pop()
    return None


def edges(root: Path = ROOT, packages: Iterable[str] = PACKAGES) -> list[Edge]:
    mods = modules(root, packages)
    known = set(mods)
    out: list[Edge] = []
    for name, path in mods.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        w = _Walker(name, path.name == "__init__.py", known, _importers(tree))
        w.visit(tree)
        for target, line, how in w.found:
            dst = _resolve(target, known)
            if dst is None or dst == name or name.startswith(dst + "."):  # outside, itself, or its own parent package
                continue
            out.append(Edge(name, dst, line, how))
    return out


def graph(es: Iterable[Edge]) -> dict[str, set[str]]:
    g: dict[str, set[str]] = {}
    for e in es:
        g.setdefault(e.src, set()).add(e.dst)
        g.setdefault(e.dst, set())
    return g


def strongly_connected(g: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's components with more than one module (each is at least one cycle), iteratively."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on: set[str] = set()
    stack: list[str] = []
    out: list[list[str]] = []
    counter = 0
    for start in sorted(g):
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(g[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            nxt = next(it, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(sorted(g[nxt]))))
                elif nxt in on:
                    low[v] = min(low[v], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    x = stack.pop()
                    on.discard(x)
                    comp.append(x)
                    if x == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return sorted(out)


def cycle_edges(es: list[Edge]) -> list[Edge]:
    """The edges that lie inside a cycle (both ends in one strongly connected component)."""
    comp_of = {m: i for i, comp in enumerate(strongly_connected(graph(es))) for m in comp}
    return [e for e in es if e.src in comp_of and comp_of.get(e.dst) == comp_of[e.src]]


def one_cycle(g: dict[str, set[str]], comp: list[str]) -> list[str]:
    """A shortest cycle through the component's first module, for the message."""
    start = comp[0]
    inside = set(comp)
    prev: dict[str, str] = {}
    queue = [start]
    while queue:
        v = queue.pop(0)
        for w in sorted(g[v] & inside):
            if w == start:
                path = [v]
                while path[-1] != start:
                    path.append(prev[path[-1]])
                return [start, *reversed(path[:-1]), start] if v != start else [start, start]
            if w not in prev:
                prev[w] = v
                queue.append(w)
    return comp


# ------------------------------------------------------------------------------------------------
# Layers: a module imports only modules of its own layer or below. Top first; a module takes the layer
# of the longest prefix listed. Every module of app/ and ui/ must have one.

LAYERS: tuple[tuple[str, ...], ...] = (
    ("ui",),  # the window
    ("app.__main__", "app.cli"),  # the command line (no subcommand: it hands over to ui.main)
    ("app.commands",),  # one module per subcommand
    ("app.fleet",),
    ("app.report",),
    ("app.pipeline",),
    ("app.diagnose",),
    ("app.verify",),
    ("app.run",),
    ("app.plan",),
    ("app.recommend", "app.syslibs"),
    ("app.detect", "app.overrides"),
    ("app.compat",),
    ("app.system", "app.config", "app.tools"),  # the machine, the user's settings, programs by name
    ("app", "app.model", "app.facts", "app.recommendation", "app.choices", "app.messages", "app.paths",
     "app.install_command", "app.restart"),  # base modules: stage values, the catalogue, paths
)

# The one import from a lower layer to a higher one the design allows: `gpu-wizard` with no subcommand opens
# the window. Everything else upward fails.
ALLOWED_UP = {("app.cli", "ui.main")}


def layer_of(module: str) -> int:
    best, at = -1, len(LAYERS)
    for i, prefixes in enumerate(LAYERS):
        for p in prefixes:
            if (module == p or module.startswith(p + ".")) and len(p) > best:
                best, at = len(p), i
    return at


def upward(es: Iterable[Edge]) -> list[Edge]:
    """Edges from a lower layer to a higher one (a smaller layer index is higher)."""
    return [e for e in es if layer_of(e.dst) < layer_of(e.src)]


def unlayered(root: Path = ROOT) -> list[str]:
    return [m for m in modules(root) if layer_of(m) == len(LAYERS)]


def main(argv: Optional[list[str]] = None) -> int:
    es = edges()
    g = graph(es)
    comps = strongly_connected(g)
    print(f"{len(modules())} modules, {len(es)} imports "
          f"({sum(e.how == 'function' for e in es)} inside functions, {sum(e.how == 'dynamic' for e in es)} dynamic)")
    print(f"{len(comps)} cycles (strongly connected groups):")
    for comp in comps:
        print(f"  {len(comp)} modules: " + " -> ".join(one_cycle(g, comp)))
    up = upward(es)
    print(f"{len(up)} imports from a lower layer to a higher one:")
    for e in sorted(up, key=str):
        print(f"  {e}" + ("  [allowed]" if (e.src, e.dst) in ALLOWED_UP else ""))
    for m in unlayered():
        print(f"  no layer: {m}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
