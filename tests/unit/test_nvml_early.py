"""A command that detects this machine starts its NVML read before the rest of the program is imported
(app.cli → app.nvml_live.start_nvml_early → the Context's LiveSystem): NVML is opened (import, init) and
queried once, in that early thread; a later read of the same reader reads afresh, in its caller. Commands on
a snapshot never start it."""
import json
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import app.nvml_live as nvml_mod
from app.system import LiveSystem, start_nvml_early

ROOT = Path(__file__).resolve().parents[2]


class _FakeNvml:
    """Stands in for an initialised nvidia-ml-py: records which thread asks each query."""

    def __init__(self, calls):
        self.calls = calls

    def __getattr__(self, name):
        if not name.startswith("nvml"):
            raise AttributeError(name)

        def call(*args):
            self.calls.append((name, threading.current_thread().name))
            return {"nvmlSystemGetDriverVersion": "580.95.05", "nvmlDeviceGetCount": 0}.get(name)
        return call


def test_the_thread_opens_and_queries_nvml(monkeypatch):
    """Import, init and the queries all in the early thread (they overlap the program's imports and probes)."""
    calls = []
    gate = threading.Event()

    def fake_open():
        calls.append(("open", threading.current_thread().name))
        gate.wait(5)
        return _FakeNvml(calls)

    monkeypatch.setattr(nvml_mod, "_open", fake_open)
    reader = start_nvml_early()
    gate.set()
    assert LiveSystem(nvml_reader=reader).nvml()["driver_version"] == "580.95.05"
    me = threading.current_thread().name
    for t in threading.enumerate():  # NVML's shutdown comes after the answer: let it finish
        if t.name == "nvml-early":
            t.join(5)
    assert calls[0] == ("open", "nvml-early")
    assert {t for name, t in calls[1:]} == {"nvml-early"} and ("nvmlShutdown", "nvml-early") in calls
    del calls[:]
    reader()  # a second read through the same reader is a fresh one, here
    assert calls[0] == ("open", me)


def test_the_answer_is_handed_over_before_nvml_shuts_down(monkeypatch):
    """NVML's shutdown (3-4 ms on the H200) runs in the early thread after the reader has its answer."""
    calls = []
    in_shutdown, release = threading.Event(), threading.Event()

    class Slow(_FakeNvml):
        def nvmlShutdown(self):
            in_shutdown.set()
            release.wait(5)
            calls.append(("nvmlShutdown", threading.current_thread().name))

    monkeypatch.setattr(nvml_mod, "_open", lambda: Slow(calls))
    reader = start_nvml_early()
    assert reader()["driver_version"] == "580.95.05"  # answered while the shutdown is still held below
    assert in_shutdown.wait(5) and ("nvmlShutdown", "nvml-early") not in calls
    release.set()
    for t in threading.enumerate():
        if t.name == "nvml-early":
            t.join(5)
    assert ("nvmlShutdown", "nvml-early") in calls


def test_read_nvml_shuts_down_even_when_a_query_fails(monkeypatch):
    calls = []

    def broken_query(n):
        raise RuntimeError("GPU lost")

    monkeypatch.setattr(nvml_mod, "_open", lambda: _FakeNvml(calls))
    monkeypatch.setattr(nvml_mod, "_query", broken_query)
    with pytest.raises(RuntimeError):
        nvml_mod.read_nvml()
    assert [c[0] for c in calls] == ["nvmlShutdown"]


def test_the_switch_interval_is_short_only_while_the_thread_runs(monkeypatch):
    before = sys.getswitchinterval()
    gate = threading.Event()
    monkeypatch.setattr(nvml_mod, "_open", lambda: (gate.wait(5), {"error": "NVMLError_LibraryNotFound", "devices": []})[1])
    reader = start_nvml_early()
    assert sys.getswitchinterval() == min(before, 0.001)
    gate.set()
    assert reader() == {"error": "NVMLError_LibraryNotFound", "devices": []}
    assert sys.getswitchinterval() == before


def test_an_error_in_the_early_thread_is_an_answer(monkeypatch):
    def broken():
        raise RuntimeError("driver went away")

    monkeypatch.setattr(nvml_mod, "_open", broken)
    assert start_nvml_early()() == {"error": "RuntimeError: driver went away", "devices": []}

    def broken_query(n):
        raise RuntimeError("GPU lost")

    monkeypatch.setattr(nvml_mod, "_open", lambda: _FakeNvml([]))
    monkeypatch.setattr(nvml_mod, "_query", broken_query)
    assert start_nvml_early()() == {"error": "RuntimeError: GPU lost", "devices": []}


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


def test_nvidia_ml_py_is_imported_before_the_thread_starts(monkeypatch):
    """Its import is interpreter work: done in the caller, alone, before the program's other imports begin."""
    pytest.importorskip("pynvml")
    monkeypatch.delitem(sys.modules, "pynvml")
    seen = []
    monkeypatch.setattr(nvml_mod, "_open", lambda: (seen.append("pynvml" in sys.modules), {"error": "x", "devices": []})[1])
    reader = start_nvml_early()
    assert "pynvml" in sys.modules
    reader()
    assert seen == [True]
