"""The Python probes start before the program's imports (app/cli.py → LiveSystem.start): a started command is
a real process whose answer the first run() of the same argv takes, with the same result a fresh run gives
and its timeout counted from that run() (issue 24)."""
import json
import subprocess
import sys
import time
from pathlib import Path

from app import pythons
from app.system import LiveSystem

ROOT = Path(__file__).resolve().parents[2]


def test_a_started_command_is_answered_as_a_fresh_run_and_only_once():
    argv = pythons.probe_argv(sys.executable)
    fresh = LiveSystem().run(argv)
    live = LiveSystem()
    t_start = time.monotonic()
    live.start([argv])
    live._started[tuple(argv)][0].wait(60)  # it ran to its end before anyone asked
    waited = time.monotonic() - t_start
    t0 = time.monotonic()
    early = live.run(argv)
    assert time.monotonic() - t0 < 0.5 and early.duration_s >= waited * 0.9  # answered at once; timed from start()
    assert (early.rc, early.stdout, early.stderr) == (fresh.rc, fresh.stdout, fresh.stderr) and early.rc == 0
    assert early.stdout.startswith("Python ") and pythons.needs_probe(live, sys.executable, "system")
    assert live._started == {}  # taken: the next run of that argv is a new process
    assert live.run(argv).stdout == fresh.stdout


def test_a_started_command_still_times_out_and_is_killed(tmp_path):
    live = LiveSystem()
    marker = tmp_path / "still-running"
    argv = ["sh", "-c", f"sleep 30; touch {marker}"]
    live.start([argv])
    r = live.run(argv, timeout=0.3)
    assert r.rc == 124 and r.timed_out and "timed out after 0.3 s" in r.stderr
    time.sleep(0.2)
    assert not marker.exists()


def test_a_command_that_cannot_start_is_answered_as_before():
    live = LiveSystem()
    live.start([["no-such-tool-here", "--version"]])
    assert live.run(["no-such-tool-here", "--version"]).rc == 127


def test_detect_starts_its_python_probes_before_detection_is_imported():
    """In a real process: the probes start before app.detect (and its facts) are imported, and detection takes
    every one of them; none is left unanswered."""
    probe = ("import sys, io, contextlib, json\nimport app.system as s\nseen = []\norig = s.LiveSystem.start\n"
             "def start(self, argvs):\n    argvs = list(argvs)\n    seen.append(('app.detect' in sys.modules, len(argvs)))\n"
             "    orig(self, argvs)\n    seen.append(self)\n"
             "s.LiveSystem.start = start\nfrom app.cli import main\nwith contextlib.redirect_stdout(io.StringIO()) as out:\n"
             "    main(['detect', '--json'])\nfacts = json.loads(out.getvalue())\n"
             "print(json.dumps([seen[0], len(seen[1]._started), [p['name'] for p in facts['probes']], facts['pythons']]))\n")
    r = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, timeout=120,
                       env={"GPU_WIZARD_LIVE": "0", "PATH": str(Path(sys.executable).parent) + ":/usr/bin:/bin",
                            "HOME": "/nonexistent"})
    assert r.returncode == 0, r.stderr[-2000:]
    (imported, n), left, probes, found = json.loads(r.stdout.strip().splitlines()[-1])
    assert imported is False and n >= 1 and left == 0
    assert "python_probe" in probes and found and found[0]["version"] and found[0]["venv_ok"] is not None
