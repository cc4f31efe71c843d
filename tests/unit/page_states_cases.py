"""The page states' behaviour (ui/page_states.py, ui/state.py), one function per page. tests/unit/test_page_states.py
runs them in a process where PySide6, shiboken6 and pyqtgraph cannot be imported: the states need no Qt."""
from __future__ import annotations

import json
from pathlib import Path

from app.plan.model import Plan, Step
from app.report.model import StepOutcome
from app.run.events import LineEvent, PlanFinished, StepFinished, StepStarted
from tests.ui.fakes import FakeRecommend, h200_facts, make_plan, synthetic_verification
from ui import said
from ui.page_states import (PlanState, RecommendationState, SummaryState, SystemState, TroubleshootState, VerifyState,
                            WelcomeState, step_title)
from ui.state import InstallState, Session, next_page

ROOT = Path(__file__).resolve().parents[2]


def welcome() -> None:
    st = WelcomeState()
    assert st.demos and all(p.suffix == ".json" for p in st.demos)  # the real demo machines
    assert st.can_continue()
    st.path = "walkthrough"
    assert not st.can_continue()
    st.file = str(st.demos[0])
    assert st.can_continue() and next_page("walkthrough", "welcome") == "system"


def system() -> None:
    groups = {g.key: g for g in SystemState(h200_facts()).groups}
    assert list(groups) == ["gpu", "driver", "os", "cuda", "python"]
    assert groups["driver"].status == "warning" and "NVIDIA H200" in groups["gpu"].rows[0].value
    assert SystemState().groups == ()


def recommendation() -> None:
    st = RecommendationState()
    assert not st.can_confirm()
    fake = FakeRecommend()
    st.recommendation = fake(h200_facts(), st.choices)
    assert st.can_confirm() and st.refused == ()
    st.dirty = True
    assert not st.can_confirm()
    st.dirty = False
    st.recommendation = fake(h200_facts(), st.choices.replace(torch_version="1.0"))
    assert st.refused and not st.can_confirm()


def plan() -> None:
    st = PlanState()
    assert not st.can_run()
    st.plan = make_plan(3)
    assert st.can_run() and len(st.steps) == 3
    text = st.step_text(st.steps[1])
    assert text.startswith("Install thing 1\n\nBecause 1.") and "echo 'step 1'" in text
    assert "sudo" in text  # a Linux step that needs root, as the exported script runs it
    block = st.all_commands()
    assert block.startswith("bash -c") and "echo 'step 2'" in block
    coded = Step(id="create_venv", title="Create the Python environment ~/.venvs/gpu", why="w", kind="create_venv",
                 title_code="create_venv", params={"venv": "~/.venvs/gpu"})
    assert step_title(coded) == coded.title
    said.set_language("zh_CN")
    try:
        assert step_title(coded) == "创建 Python 环境 ~/.venvs/gpu"  # the catalogue's words, in the window's language
    finally:
        said.set_language("en")
    st.busy = True
    assert not st.can_run()


def verify() -> None:
    st = VerifyState()
    v = synthetic_verification(50)
    half = [s.to_json() for s in v.samples[:25]]
    rest = [(s.t_s, dict(s.to_json(), gpu_index=1)) for s in v.samples[25:]]
    assert st.add_samples(half) == 25 and st.add_samples(rest) == 0  # GPU 1's samples, GPU 0 shown
    assert st.gpus == [0, 1] and len(st.series) == 25
    st.gpu_index = 1
    assert len(st.series) == 25
    assert st.bandwidth_rows() == []
    st.verification = v
    rows = dict((label, (got, top)) for label, got, top in st.bandwidth_rows())
    assert rows["Host to GPU (pinned)"] == (53.1, 63.0) and rows["GPU memory (device to device)"] == (3900.0, 4800.0)
    st.clear()
    assert st.gpus == [] or st.gpus == [1]


def summary() -> None:
    steps = make_plan(3).steps
    run = InstallState.from_steps(steps)
    for n, s in enumerate(steps[:2]):
        run.apply(StepStarted(s.id, n, 3, s.title), now=float(n))
        run.apply(LineEvent(s.id, "stdout", "x"), now=float(n))
    run.apply(StepFinished(steps[0].id, "ok"), now=1.0)
    run.apply(StepFinished(steps[1].id, "error", "exit 100"), now=2.0)
    run.apply(PlanFinished("error", "", steps[1].id), now=2.0)
    st = SummaryState(install=run)
    assert st.verdict == "fail" and st.changes() == [("ok", "Install thing 0"), ("error", "Install thing 1")]
    assert SummaryState(verification=synthetic_verification(5)).verdict == "warn"  # a layer warned
    recorded = (StepOutcome(id=steps[0].id, status="ok"), StepOutcome(id=steps[1].id, status="cancelled"),
                StepOutcome(id=steps[2].id, status="pending"))
    st = SummaryState(recorded_steps=recorded, recorded_plan=Plan(steps=steps))
    assert st.changes() == [("ok", "Install thing 0"), ("cancelled", "Install thing 1")] and st.verdict == "skip"
    assert SummaryState().verdict == "skip" and SummaryState().changes() == []


def troubleshoot() -> None:
    from app.diagnose import diagnose

    st = TroubleshootState()
    assert st.top is None and not st.has_fix
    st.text = (ROOT / "tests" / "fixtures" / "errors" / "trt_unsupported_sm_rtx3060_win.txt").read_text(encoding="utf-8")
    st.diagnosis = diagnose(st.text, h200_facts())
    assert st.top is not None and st.top is st.diagnosis.matches[0] and st.top.root_cause
    assert st.has_fix == bool(getattr(st.top, "runnable_steps", st.top.fix_steps))


def session() -> None:
    s = Session()
    assert not s.dry_run and not s.read_only and s.pending_restart is None
    assert json.dumps(s.choices.to_json())


CASES = {f.__name__: f for f in (welcome, system, recommendation, plan, verify, summary, troubleshoot, session)}
