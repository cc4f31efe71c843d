"""A command that detects this machine starts its NVML read before the rest of the program is imported
(app.cli → app.nvml_live.start_nvml_early → the Context's LiveSystem): NVML is read once, in that early thread,
and a later read of the same reader reads afresh. Commands on a snapshot never start it."""
import json
import subprocess
import sys
import threading
from pathlib import Path

import app.nvml_live as nvml_mod
from app.system import LiveSystem, start_nvml_early

ROOT = Path(__file__).resolve().parents[2]


def test_the_live_system_takes_the_early_answer(monkeypatch):
    calls = []
    gate = threading.Event()

    def fake():
        calls.append(threading.current_thread().name)
        gate.wait(5)
        return {"error": None, "devices": [], "driver_version": "580.95.05"}

    monkeypatch.setattr(nvml_mod, "read_nvml", fake)
    reader = start_nvml_early()
    gate.set()
    assert LiveSystem(nvml_reader=reader).nvml()["driver_version"] == "580.95.05"
    assert calls == ["nvml-early"]
    reader()  # a second read through the same reader is a fresh one, here
    assert calls == ["nvml-early", threading.current_thread().name]


def test_an_error_in_the_early_thread_is_an_answer(monkeypatch):
    def broken():
        raise RuntimeError("driver went away")

    monkeypatch.setattr(nvml_mod, "read_nvml", broken)
    assert start_nvml_early()() == {"error": "RuntimeError: driver went away", "devices": []}


def test_the_cli_starts_it_only_for_a_live_machine():
    """In a real process: `detect` starts the early read, `detect --snapshot` and `diagnose` do not."""
    from app.paths import demo_snapshots

    probe = ("import sys, io, contextlib, json\nimport app.nvml_live as s\nstarted = []\n"
             "orig = s.start_nvml_early\ns.start_nvml_early = lambda: (started.append(1), orig())[1]\n"
             "from app.cli import main\nwith contextlib.redirect_stdout(io.StringIO()):\n    main(sys.argv[1:])\n"
             "print(json.dumps(len(started)))\n")
    demo = str(demo_snapshots()[0])
    runs = {"live": ["detect", "--json"], "snapshot": ["detect", "--json", "--snapshot", demo],
            "diagnose": ["diagnose", "--json", "--text", "CUDA error: out of memory", "--snapshot", demo]}
    seen = {}
    for k, argv in runs.items():
        r = subprocess.run([sys.executable, "-c", probe, *argv], capture_output=True, text=True, cwd=ROOT, timeout=120,
                           env={"GPU_WIZARD_LIVE": "0", "PATH": "/usr/bin:/bin", "HOME": "/nonexistent"})
        assert r.returncode == 0, r.stderr[-2000:]
        seen[k] = json.loads(r.stdout.strip().splitlines()[-1])
    assert seen == {"live": 1, "snapshot": 0, "diagnose": 0}
