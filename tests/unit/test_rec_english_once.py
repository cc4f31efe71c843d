"""English once for the recommendation (issue 24): a rec.* sentence lives in the catalogue (resources/messages/en.json)
and nowhere in app/. The solver and the live reader say codes and figures; their English is the catalogue's
(app.recommend._en, app.compat.live._english). Every string literal and f-string in app/ (docstrings aside) is read:
a rec.* template standing there again, whole (an f-string of the same shape) or a long piece of it, fails."""
from __future__ import annotations

import json

import pytest

from tests.unit.test_plan_english_once import ROOT, app_strings, second_copies, strings_in


def rec_templates() -> dict[str, str]:
    doc = json.loads((ROOT / "resources" / "messages" / "en.json").read_text(encoding="utf-8"))
    return {k: v for k, v in doc["messages"].items() if k.startswith("rec.")}


def test_no_rec_sentence_is_written_twice():
    assert len(rec_templates()) > 180
    assert second_copies(rec_templates(), app_strings()) == []


@pytest.mark.parametrize("source", [
    'reason = f"Keep driver {cur}: it runs {t}+{i} ({c} compatibility).{cap}"',  # rec.driver_keep's shape
    'cx.warn("x", "WSL 1 cannot use the GPU. Convert this distribution to WSL 2: wsl --set-version <distro> 2")',
    'msg = (f"The index has PyTorch {v}, a newer patch of {r} than the data\'s {d}: " "it is pinned.")',
    'r = "Hybrid graphics: " + d + " PyTorch and every CUDA program use the NVIDIA GPU directly, whichever GPU drives the display: keep it"',
])
def test_a_second_copy_is_found(source):
    found = second_copies(rec_templates(), {"planted.py": strings_in(source)})
    assert found and all("planted.py" in f for f in found), found
