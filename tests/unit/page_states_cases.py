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


def verify_strip() -> None:
    """The strip of GPUs side by side says the burn-in runs (its phase, its time) until it ends, never a verdict
    before; then each GPU's verdict. Fed from the recorded H200 burn-in through a real BurnTracker."""
    from app.verify.burnin import BurnTracker
    from app.verify.model import BurnEvent, Verification
    from app.verify.session import rejudge
    from ui.page_states import strip_cells

    v = rejudge(Verification.loads((ROOT / "tests/fixtures/verify/h200_burnin90.json").read_text(encoding="utf-8")))
    b = v.burn_in
    st = VerifyState(burn_s=600, running=True)  # the page asked 10 min; the tracker's own plan says 90 s
    tracker = BurnTracker(b.seconds)
    st.add_samples([s for s in v.samples if s.t_s < 50])
    cells = strip_cells(st, (), None, tracker.live())
    assert [c.gpu for c in cells] == [0] and cells[0].status == "running" and cells[0].done_s is None
    assert cells[0].live_text(lang="en") == "testing; the burn-in follows"
    assert [u for _v, u in cells[0].figures] == ["MHz", "°C", "W"]
    for p in b.phases[:3]:  # memtest, fp8, then into bf16 (at 50 s)
        tracker.on_event({"event": "burn", "kind": "phase", "phase": p.phase, "seconds": p.planned_s}, p.t0_s)
    tracker.on_event({"event": "burn", "kind": "rate", "gpu": 0, "phase": "matmul_bf16", "value": 650.0}, 50.0)
    c = strip_cells(st, (), None, tracker.live())[0]
    assert (c.status, c.phase, c.seen, c.total_s) == ("running", "matmul_bf16", "pass", 90.0)
    assert abs(c.done_s - (50.0 - b.phases[0].t0_s)) < 0.01, c.done_s
    assert c.live_text(lang="en") == "burn-in running: matmul_bf16, 29 s of 1 min 30 s"
    assert c.live_text(lambda ph: ph.upper(), lang="zh_CN") == "烤机进行中：MATMUL_BF16，已 29 s，共 1 min 30 s"
    wrong = BurnEvent(t_s=49.0, kind="mismatch", gpu_index=0, phase="matmul_bf16", count=2)
    c = strip_cells(st, (wrong,), None, tracker.live())[0]
    assert (c.status, c.seen, c.faults) == ("running", "fail", 1)  # a fault shows, the verdict waits for the end
    st.running = False  # the run ended: the burn-in's own verdict
    st.add_samples([s for s in v.samples if s.t_s >= 50])
    c = strip_cells(st, b.events, b, None)[0]
    assert (c.status, c.faults, c.warnings, c.phase, c.done_s) == ("pass", 0, 0, None, None)
    two = VerifyState(running=True)  # no burn-in, two GPUs side by side: testing, no verdict either
    two.add_samples([v.samples[0].to_json(), (v.samples[1].t_s, dict(v.samples[1].to_json(), gpu_index=1))])
    assert [(c.gpu, c.status, c.live_text(lang="zh_CN")) for c in strip_cells(two, ())] == [(0, "running", "测试中"),
                                                                                         (1, "running", "测试中")]


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


CASES = {f.__name__: f for f in (welcome, system, recommendation, plan, verify, verify_strip, summary, troubleshoot, session)}
