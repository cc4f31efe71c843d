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


# ---------------------------------------------------------------- one start per interpreter, side by side
from app.detect.python_env import parse_probe, probe_argv  # noqa: E402


def test_the_probe_answers_what_this_interpreter_really_has():
    """Live: the one-start probe of this interpreter says its own version and the modules it really has."""
    import importlib.util
    import platform

    r = LiveSystem().run(probe_argv(sys.executable))
    version, venv_ok = parse_probe(r.rc, r.stdout)
    assert version == platform.python_version() + ("t" if "free-threading" in sys.version else "")
    assert venv_ok is all(importlib.util.find_spec(m) is not None for m in ("ensurepip", "venv"))


def test_parse_probe_reads_its_lines():
    # sys.version of CPython 3.13.1's free-threaded build, as python3.13t prints it
    ft = "Python 3.13.1 experimental free-threading build (main, Dec  4 2024, 18:05:56) [GCC 13.2.0]\nvenv ok\n"
    assert parse_probe(0, ft) == ("3.13.1t", True)
    assert parse_probe(0, "Python 3.11.2 (main, Mar 13 2023, 12:18:29) [GCC 12.2.0]\nvenv missing ensurepip\n") == ("3.11.2", False)
    assert parse_probe(0, "Python 3.12.3 (main)\n") == ("3.12.3", None)  # cut short: the venv question unanswered
    assert parse_probe(2, "Unknown option: -I\n") == (None, None)


def _probe_snap(probe_out):
    return snapshot(files={"/etc/os-release": 'ID=debian\nVERSION_ID="12"\n', "/usr/bin/python3": ""},
                    commands={command_key(probe_argv("/usr/bin/python3")): probe_out},
                    which={"python3": "/usr/bin/python3"}, env={"HOME": "/home/u"})


def test_a_new_snapshot_answers_with_one_start():
    facts = detect(_probe_snap("Python 3.11.2 (main, Mar 13 2023) [GCC 12.2.0]\nvenv missing ensurepip\n"))
    assert (facts.python.version, facts.python.venv_ok) == ("3.11.2", False)
    names = [p.name for p in facts.probes]
    assert names.count("python_probe") == 1 and "python_venv" not in names and "python_version" not in names
    ok = detect(_probe_snap("Python 3.11.2 (main)\nvenv ok\n"))
    assert ok.python.venv_ok is True


def test_the_interpreters_are_asked_side_by_side():
    """Two candidates, each command waiting at a barrier of two: it is passed only when both run at once
    (one after the other, the first waits its 5 s and breaks the barrier)."""
    import threading

    from app.system import CommandResult

    snap = snapshot(files={"/etc/os-release": 'ID=debian\nVERSION_ID="12"\n', "/usr/bin/python3": "",
                           "/home/u/.venv/bin/python": ""},
                    which={"python3": "/usr/bin/python3"}, env={"HOME": "/home/u"})
    barrier = threading.Barrier(2, timeout=5)
    plain_run = snap.run

    def run(argv, timeout=5.0):
        if argv[1:3] == ["-I", "-S"]:
            try:
                barrier.wait()
            except threading.BrokenBarrierError:
                return CommandResult(rc=1, stderr="asked one after the other")
            return CommandResult(rc=0, stdout="Python 3.11.2 (main)\nvenv ok\n")
        return plain_run(argv, timeout)

    snap.run = run  # type: ignore[method-assign]
    facts = detect(snap)
    assert [(p.path, p.version) for p in facts.pythons] == [("/usr/bin/python3", "3.11.2"), ("/home/u/.venv/bin/python", "3.11.2")]
    assert facts.python.venv_ok is True
