"""Can the detected system Python make the PyTorch venv with pip? (Debian/Ubuntu split ensurepip
into pythonX.Y-venv.) The stderr below is what Debian 12's python3 prints without python3.11-venv,
recorded on a debootstrap minbase root (.ci/fresh-root.sh)."""
import sys

from app.detect import detect
from app.detect.python_env import parse_venv_check, venv_argv
from app.plan import build_plan
from app.choices import Choices
from app.compat import load_db
from app.recommend import recommend as _recommend
from app.system import LiveSystem, command_key
from detect_helpers import snapshot

DB = load_db(use_user_bundle=False)


def recommend(facts):
    return _recommend(facts, DB)


DEBIAN12_NO_VENV = ("Traceback (most recent call last):\n  File \"<string>\", line 1, in <module>\n"
                    "ModuleNotFoundError: No module named 'ensurepip'\n")


def test_parse_venv_check():
    assert parse_venv_check(0, "") is True
    assert parse_venv_check(1, DEBIAN12_NO_VENV) is False
    assert parse_venv_check(1, "ModuleNotFoundError: No module named 'venv'\n") is False
    assert parse_venv_check(127, "") is None  # not recorded / not installed: unknown
    assert parse_venv_check(1, "ImportError: something else\n") is None
    assert parse_venv_check(124, "") is None


def test_live_python_answers():
    """This interpreter's real answer, checked against whether it really has both modules."""
    import importlib.util

    r = LiveSystem().run(venv_argv(sys.executable))
    has = all(importlib.util.find_spec(m) is not None for m in ("ensurepip", "venv"))
    assert parse_venv_check(r.rc, r.stderr) is has


def _snap(venv_result):
    commands = {"python3 --version": {"rc": 0, "stdout": "Python 3.11.2\n", "stderr": ""}}
    if venv_result is not None:
        commands[command_key(venv_argv("/usr/bin/python3"))] = venv_result
    return snapshot(files={"/etc/os-release": 'ID=debian\nVERSION_ID="12"\nPRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\n',
                           "/usr/bin/python3": ""},
                    commands={k.replace("python3 --version", "/usr/bin/python3 --version"): v for k, v in commands.items()},
                    which={"python3": "/usr/bin/python3"}, env={"HOME": "/home/u"})


def test_detect_records_it_and_the_plan_installs_the_venv_package():
    facts = detect(_snap({"rc": 1, "stdout": "", "stderr": DEBIAN12_NO_VENV}))
    assert facts.python is not None and facts.python.path == "/usr/bin/python3" and facts.python.venv_ok is False
    plan = build_plan(facts, recommend(facts), Choices())
    step = plan.step("install_python_venv")
    assert step is not None and step.commands[-1] == ("apt-get", "install", "-y", "python3.11-venv")
    ok = detect(_snap({"rc": 0, "stdout": "", "stderr": ""}))
    assert ok.python.venv_ok is True and build_plan(ok, recommend(ok), Choices()).step("install_python_venv") is None
    # an older snapshot that never asked: unknown, no step
    old = detect(_snap(None))
    assert old.python.venv_ok is None and build_plan(old, recommend(old), Choices()).step("install_python_venv") is None


def test_a_diagnosis_detects_without_the_venv_check():
    """venv_check=False (the diagnose command): no interpreter is started to ask; the pipeline keeps such facts
    apart from the full ones, and full facts already there serve a quick request."""
    from app.pipeline import Pipeline

    quick = detect(_snap({"rc": 1, "stdout": "", "stderr": DEBIAN12_NO_VENV}), venv_check=False)
    assert quick.python is not None and quick.python.path == "/usr/bin/python3" and quick.python.venv_ok is None
    assert not any(p.name == "python_venv" for p in quick.probes)
    p = Pipeline(_snap({"rc": 1, "stdout": "", "stderr": DEBIAN12_NO_VENV}))
    assert p.facts(venv_check=False).python.venv_ok is None and p.facts().python.venv_ok is False
    assert p.facts(venv_check=False) is p.facts() and p.computed == ["detect (quick)", "detect"]
