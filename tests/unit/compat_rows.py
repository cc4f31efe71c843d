"""Copies of the pinned compat data with rows added, for tests that need facts the pinned copy
predates (a release whose torchvision is not out yet, Windows minimums marked inferred)."""
from __future__ import annotations

import copy
import json
import shutil
import tempfile
from functools import lru_cache
from pathlib import Path

from app.compat.db import load_db
from tests.conftest import FIXTURES

PINNED = FIXTURES / "compat-pinned"
SRC = "test row: added to a copy of the pinned data by tests/unit/compat_rows.py"


def rows(d: Path, t: str) -> dict:
    return json.loads((d / f"{t}.json").read_text(encoding="utf-8"))


def save(d: Path, t: str, doc: dict) -> None:
    (d / f"{t}.json").write_text(json.dumps(doc), encoding="utf-8")


def copy_pinned(dest: Path) -> Path:
    shutil.copytree(PINNED, dest)
    return dest


def add_release_without_torchvision(d: Path, version: str = "2.98.0", like: str = "2.14", extra_python=("3.15", "3.15t")) -> None:
    """A newer release built like `like` (same variants) whose torchvision is not released yet."""
    rel = version.rsplit(".", 1)[0]
    doc = rows(d, "pytorch_releases")
    base = next(r for r in doc["rows"] if r["release"] == like)
    new = copy.deepcopy(base)
    new.update(release=rel, version=version, torchvision=None, source=SRC, checked="2099-01-01",
               python=list(base["python"]) + [p for p in extra_python if p not in base["python"]], python_experimental=[])
    doc["rows"].insert(0, new)
    save(d, "pytorch_releases", doc)
    doc = rows(d, "pytorch_variants")
    doc["rows"] += [dict(copy.deepcopy(v), release=rel, source=SRC, checked="2099-01-01") for v in doc["rows"] if v["release"] == like]
    save(d, "pytorch_variants", doc)


def mark_windows_inferred(d: Path, major: str = "13") -> None:
    doc = rows(d, "cuda_releases")
    for r in doc["rows"]:
        if r["cuda"].startswith(major + "."):
            r["windows_confidence"] = "inferred"
    save(d, "cuda_releases", doc)


@lru_cache(maxsize=None)
def newer_db():
    """The pinned data plus a 2.98.0 without torchvision and CUDA 13 Windows minimums marked inferred."""
    d = copy_pinned(Path(tempfile.mkdtemp(prefix="gpu-wizard-compat-")) / "compat")
    add_release_without_torchvision(d)
    mark_windows_inferred(d)
    return load_db(d)
