"""Functions (and methods, nested ones too) longer than a limit in app/ and ui/, longest first.

    .venv/bin/python tests/tools/long_functions.py [--limit 120] [--json]

A function's length is its lines from `def` (decorators not counted) to its last line, blank lines and
comments inside included: what a reader scrolls through. tests/unit/test_function_size.py holds today's
offenders over 120 lines (TEAM.md: keep functions <= 80 lines, never over 120)."""
from __future__ import annotations

import argparse
import ast
import json
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("app", "ui")


@dataclass(frozen=True)
class Function:
    path: str  # relative to the repository root, with forward slashes
    name: str  # the qualified name inside its module: Class.method, outer.inner
    line: int
    lines: int

    @property
    def key(self) -> str:
        return f"{self.path}::{self.name}"


def functions_in(source: str, path: str) -> list[Function]:
    """Every function of one module's source, with its qualified name and length."""
    out: list[Function] = []

    def walk(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = prefix + child.name
                end = child.end_lineno if child.end_lineno is not None else child.lineno
                out.append(Function(path, name, child.lineno, end - child.lineno + 1))
                walk(child, name + ".")
            elif isinstance(child, ast.ClassDef):
                walk(child, prefix + child.name + ".")
            else:
                walk(child, prefix)

    walk(ast.parse(source, filename=path), "")
    return out


def all_functions(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES) -> list[Function]:
    out: list[Function] = []
    for pkg in packages:
        for f in sorted((root / pkg).rglob("*.py")):
            rel = f.relative_to(root).as_posix()
            out += functions_in(f.read_text(encoding="utf-8"), rel)
    return out


def longer_than(limit: int, root: Path = ROOT) -> list[Function]:
    return sorted((f for f in all_functions(root) if f.lines > limit), key=lambda f: (-f.lines, f.key))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--limit", type=int, default=120, help="list functions longer than this many lines (default 120)")
    ap.add_argument("--json", action="store_true", help="one JSON list of {path, name, line, lines}")
    a = ap.parse_args(argv)
    found = longer_than(a.limit)
    if a.json:
        print(json.dumps([f.__dict__ for f in found], indent=1))
    else:
        for f in found:
            print(f"{f.lines:5d}  {f.path}:{f.line}  {f.name}")
        print(f"{len(found)} function(s) over {a.limit} lines in {', '.join(PACKAGES)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
