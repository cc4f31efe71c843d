"""English once: a plan.* sentence lives in the catalogue (resources/messages/en.json) and nowhere in app/.
The step builders give codes and figures (app.plan.model.coded_step); the English title and why are the
catalogue's. This test reads every string literal and f-string in app/ (docstrings aside) and fails where a
plan.* template stands there again: the whole sentence (an f-string of the same shape, its figures as
placeholders) or a long piece of it."""
from __future__ import annotations

import ast
import json
import re
from functools import lru_cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIELD = re.compile(r"\{[A-Za-z_][A-Za-z0-9_.]*\}")
MIN_PIECE = 36  # characters: a piece of a sentence this long, written again in app/, is a second copy


def plan_templates() -> dict[str, str]:
    doc = json.loads((ROOT / "resources" / "messages" / "en.json").read_text(encoding="utf-8"))
    return {k: v for k, v in doc["messages"].items() if k.startswith("plan.")}


def _docstrings(tree: ast.AST) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            out.add(id(body[0].value))
    return out


def strings_in(source: str) -> tuple[list[str], list[str]]:
    """(literal texts, f-string shapes with each {…} as "{}") of one module."""
    tree = ast.parse(source)
    skip = _docstrings(tree)
    texts, shapes = [], []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            texts.append(node.value)
        elif isinstance(node, ast.JoinedStr):
            parts = [v.value if isinstance(v, ast.Constant) else "{}" for v in node.values]
            shapes.append("".join(str(p) for p in parts))
            for v in node.values:
                if isinstance(v, ast.Constant):
                    skip.add(id(v))  # judged as part of the shape
                    texts.append(str(v.value))
    return texts, shapes


@lru_cache(maxsize=None)
def app_strings() -> dict[str, tuple[list[str], list[str]]]:
    return {str(p.relative_to(ROOT)): strings_in(p.read_text(encoding="utf-8")) for p in sorted((ROOT / "app").rglob("*.py"))}


def second_copies(templates: dict[str, str], strings: dict[str, tuple[list[str], list[str]]]) -> list[str]:
    out = []
    for key, text in templates.items():
        shape = FIELD.sub("{}", text)
        pieces = [q.strip() for p in FIELD.split(text) for q in re.split(r"(?<=[.;:])\s+", p) if len(q.strip()) >= MIN_PIECE]
        for path, (texts, shapes) in strings.items():
            if len(re.sub(r"[^A-Za-z]", "", shape)) >= 8 and (shape in shapes or text in texts):
                out.append(f"{key}: the whole sentence stands in {path}")
                continue
            for piece in pieces:
                if any(piece in t for t in texts) or any(piece in s for s in shapes):
                    out.append(f"{key}: {piece!r} stands in {path}")
                    break
    return out


def test_no_plan_sentence_is_written_twice():
    assert len(plan_templates()) > 80
    assert second_copies(plan_templates(), app_strings()) == []


@pytest.mark.parametrize("source", [
    'title = f"Install the CUDA {version} toolkit ({pkg})"',  # an f-string of the same shape
    'why = ("NVIDIA publishes the CUDA packages in its own repository; its keyring package lets apt "\n'
    '       "check that every package really comes from NVIDIA.")',  # a sentence split over two literals
    'why = "Several CUDA toolkits side by side are the usual cause of \'wrong nvcc\' and library mix-ups. " + x',
])
def test_a_second_copy_is_found(source):
    found = second_copies(plan_templates(), {"planted.py": strings_in(source)})
    assert found and all("planted.py" in f for f in found), found


def test_a_docstring_quoting_a_sentence_is_not_a_copy():
    src = 'def f():\n    """Says: Refresh the package index."""\n    return 1\n'
    assert second_copies({"plan.x": "Refresh the package index before anything installs"}, {"d.py": strings_in(src)}) == []
