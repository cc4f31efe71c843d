"""Choices.wsl_distro (the defect: plan/windows.py read a `wsl_distro` choice that did not exist, so the
user could never pick the distro): the Windows plan sets up the distro asked for, `plan --wsl-distro`
passes it, a bad name is one clear line, and Choices keep it through JSON."""
from __future__ import annotations

import json

import pytest

from app.choices import Choices
from app.cli import main
from app.compat import load_db
from tests.unit.test_windows_plan import WIN, _plan, _with_wsl

LISTING = ("  NAME            STATE           VERSION\n"
           "* Ubuntu-22.04    Stopped         2\n"
           "  Ubuntu-24.04    Stopped         2\n"
           "  Debian          Stopped         1\n")


@pytest.fixture(scope="module")
def db():
    return load_db(use_user_bundle=False)


def _gpu_check(plan):
    return plan.step("check_wsl_gpu").commands[0][:3]


def test_the_default_is_the_default_wsl2_ubuntu(db):
    _f, _r, plan = _plan(_with_wsl(LISTING, (WIN / "wsl_status_2022.txt").read_text()), db)
    assert _gpu_check(plan) == ("wsl", "-d", "Ubuntu-22.04")


def test_the_chosen_distro_is_the_one_set_up(db):
    d = _with_wsl(LISTING, (WIN / "wsl_status_2022.txt").read_text())
    _f, _r, plan = _plan(d, db, Choices(wsl_distro="Ubuntu-24.04"))
    assert _gpu_check(plan) == ("wsl", "-d", "Ubuntu-24.04")
    _f, _r, plan = _plan(d, db, Choices(wsl_distro="Debian"))  # a WSL 1 distro: converted first
    assert plan.step("set_wsl_distro_version").commands == (("wsl", "--set-version", "Debian", "2"),)
    assert _gpu_check(plan) == ("wsl", "-d", "Debian")
    _f, _r, plan = _plan(d, db, Choices(wsl_distro="Ubuntu-20.04"))  # not installed yet: installed
    assert plan.step("install_wsl_distro") is not None and "Ubuntu-20.04" in plan.step("install_wsl_distro").commands[0]


def test_choices_keep_it_through_json():
    c = Choices(wsl_distro="Ubuntu-24.04")
    assert Choices.loads(c.dumps()) == c and Choices().wsl_distro is None


def test_plan_flag(tmp_path, capsys):
    snap = tmp_path / "win.json"
    snap.write_text(json.dumps(_with_wsl(LISTING, (WIN / "wsl_status_2022.txt").read_text())))
    assert main(["plan", "--snapshot", str(snap), "--wsl-distro", "Ubuntu-24.04", "--json"]) == 0
    plan = json.loads(capsys.readouterr().out)
    step = next(s for s in plan["steps"] if s["id"] == "check_wsl_gpu")
    assert step["commands"][0][:3] == ["wsl", "-d", "Ubuntu-24.04"]
    assert main(["plan", "--snapshot", str(snap), "--wsl-distro", "x; rm -rf /"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--wsl-distro" in err and "Traceback" not in err
