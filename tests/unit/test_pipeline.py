"""One pipeline (app/pipeline.py): each stage runs once per inputs and the next stage takes its value;
the command line's subcommands and the window's engine go through the same stage functions and agree."""
from __future__ import annotations

import json

import pytest

from app.choices import Choices
from app.cli import main
from app.paths import demo_snapshots
from app.pipeline import Pipeline, PipelineError, plan_stage, recommend_stage
from app.system import SnapshotSystem

SNAPS = demo_snapshots()


def _system(snap):
    return SnapshotSystem(json.loads(snap.read_text(encoding="utf-8")), name=snap.name)


@pytest.mark.parametrize("snap", SNAPS, ids=[p.stem for p in SNAPS])
def test_each_stage_runs_once_and_feeds_the_next(snap):
    from app.detect import detect

    calls = []

    def counting_detect(system, **kw):
        calls.append(kw)
        return detect(system, **kw)

    p = Pipeline(_system(snap), detect_fn=counting_detect)
    ch = Choices(want_toolkit=True)
    assert p.facts() is p.facts()
    rec = p.recommendation(ch)
    assert p.recommendation(Choices(want_toolkit=True)) is rec  # equal choices: the same value, not a second solve
    plan = p.plan(ch)
    assert p.plan(ch) is plan and len(calls) == 1
    assert p.computed == ["detect", "db", "recommend", "plan"]
    step = plan.step("install_pytorch")
    if step is not None:
        assert step.commands[0] == rec.pytorch.install_argv  # the plan is built from that recommendation
    other = p.recommendation(Choices(torch_variant="cpu"))
    assert other is not rec and p.computed.count("recommend") == 2 and p.computed.count("detect") == 1


def test_overrides_and_bad_input():
    p = Pipeline(_system(SNAPS[0]), overrides={"assume_driver": "550.54.14", "assume_gpus": (), "python_version": None})
    assert p.facts().driver.version == "550.54.14" and p.facts().overrides
    with pytest.raises(PipelineError) as e:
        Pipeline(_system(SNAPS[0]), overrides={"python_version": "three"}).facts()
    assert e.value.code == 2
    with pytest.raises(PipelineError) as e:
        Pipeline(_system(SNAPS[0]), db_path="/nonexistent/compat").recommendation()
    assert e.value.code == 2


def _count(monkeypatch):
    import app.detect as det
    import app.recommend as live  # recommend_live: the solve over the live index

    n = {"detect": 0, "recommend": 0}
    real_detect, real_live = det.detect, live.recommend_live

    def d(*a, **k):
        n["detect"] += 1
        return real_detect(*a, **k)

    def r(*a, **k):
        n["recommend"] += 1
        return real_live(*a, **k)

    monkeypatch.setattr(det, "detect", d)
    monkeypatch.setattr(live, "recommend_live", r)
    return n


@pytest.mark.parametrize("argv", [["recommend"], ["plan"], ["install", "--dry-run"], ["plan", "--script"]])
def test_a_cli_run_detects_once_and_solves_once(monkeypatch, capsys, argv):
    n = _count(monkeypatch)
    assert main(argv + ["--snapshot", str(SNAPS[0])]) == 0
    capsys.readouterr()
    assert n == {"detect": 1, "recommend": 1}


def test_report_uses_the_same_recommendation(monkeypatch, capsys, tmp_path):
    n = _count(monkeypatch)
    out = tmp_path / "r.json"
    assert main(["report", "-o", str(out), "--snapshot", str(SNAPS[0]), "--no-redact"]) == 0
    capsys.readouterr()
    assert n == {"detect": 1, "recommend": 1}
    rec = json.loads(out.read_text())["recommendation"]
    assert main(["recommend", "--snapshot", str(SNAPS[0]), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["pytorch"] == rec["pytorch"]


@pytest.mark.parametrize("snap", SNAPS, ids=[p.stem for p in SNAPS])
def test_the_window_and_the_command_line_agree(snap):
    pytest.importorskip("PySide6", reason="the window's engine module imports Qt helpers")
    from ui import engine

    p = Pipeline(_system(snap))
    for ch in (Choices(), Choices(want_toolkit=True)):
        rec = p.recommendation(ch)
        assert engine.recommend(p.facts(), ch) == rec == recommend_stage(p.facts(), ch)
        assert engine.build_plan(p.facts(), rec, ch).steps == p.plan(ch).steps == plan_stage(p.facts(), rec, ch).steps


def test_a_broken_config_file_stops_only_what_reads_it(tmp_path, monkeypatch, capsys):
    """detect never reads the config file; recommend says what is wrong with it in one line."""
    bad = tmp_path / "config.json"
    bad.write_text("{ not json")
    monkeypatch.setenv("GPU_WIZARD_CONFIG", str(bad))
    assert main(["detect", "--snapshot", str(SNAPS[0])]) == 0
    capsys.readouterr()
    assert main(["recommend", "--snapshot", str(SNAPS[0])]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
