"""Troubleshoot after the password door: what real sudo and pkexec print (tests/fixtures/run/door/),
and the wizard's own door sentences in both languages, are each recognised with their cause,
never "No known GPU setup error was recognised"."""
from __future__ import annotations

from pathlib import Path

import pytest

from app.diagnose import diagnose
from app.messages import cli

DOOR = Path(__file__).resolve().parents[1] / "fixtures" / "run" / "door"


@pytest.mark.parametrize("fixture,rule", [
    ("sudo_askpass_cancelled.txt", "admin_password_cancelled"),
    ("pkexec_dismissed.txt", "admin_password_cancelled"),
    ("sudo_wrong_password_3x.txt", "admin_wrong_password"),
    ("sudo_not_in_sudoers.txt", "admin_not_allowed"),
    ("pkexec_not_authorized.txt", "admin_not_allowed"),
    ("sudo_no_terminal.txt", "admin_no_way_to_ask"),
])
def test_real_door_texts_are_recognised(fixture, rule):
    d = diagnose((DOOR / fixture).read_text())
    assert d.matches and d.matches[0].rule == rule, [m.rule for m in d.matches]


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
@pytest.mark.parametrize("code,params,rule", [
    ("door_cancelled", {}, "admin_password_cancelled"),
    ("door_wrong_password", {}, "admin_wrong_password"),
    ("door_not_allowed", {"user": "alex", "group": "sudo"}, "admin_not_allowed"),
    ("door_no_way", {}, "admin_no_way_to_ask"),
])
def test_the_wizards_own_door_sentences_are_recognised(lang, code, params, rule):
    """What the Install page's log and step line say (the window's language) is what Troubleshoot reads."""
    text = "— write_cuda_env failed —\nSet CUDA_HOME, PATH and the library path: " + cli(code, lang, **params)
    d = diagnose(text)
    assert d.matches and d.matches[0].rule == rule, (lang, [m.rule for m in d.matches])
