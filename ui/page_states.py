"""Qt-free state objects of the wizard's pages (each ui/pages/<name>_page.py is a thin QWizardPage over one):
typed, testable without a display or PySide6 (tests/unit/test_page_states.py runs them with PySide6 blocked).
The session, the install run and the facts' grouping are in ui/state.py."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

from app.choices import Choices
from app.facts import Facts
from app.paths import demo_snapshots
from app.recommendation import Recommendation
from ui import engine
from ui.said import plan_text
from ui.state import FactGroup, PathId, SampleSeries, group_facts, sample_dict


# Welcome page

@dataclass
class WelcomeState:
    """Qt-free: the chosen path and the recorded machine to open, if any."""

    path: PathId = "setup"
    file: Optional[str] = None
    demos: list[Path] = field(default_factory=demo_snapshots)

    def can_continue(self) -> bool:
        return self.path != "walkthrough" or bool(self.file)


# System page

@dataclass
class SystemState:
    """Qt-free: the facts shown and their grouping."""

    facts: Optional[Facts] = None
    scanning: bool = False

    @property
    def groups(self) -> tuple[FactGroup, ...]:
        return group_facts(self.facts) if self.facts else ()


# Recommendation page

@dataclass
class RecommendationState:
    """Qt-free: the engine's answer and the user's (possibly not yet applied) choices."""

    choices: Choices = field(default_factory=Choices)
    recommendation: Optional[Recommendation] = None
    busy: bool = False
    dirty: bool = False  # advanced fields edited but not applied yet
    error: Optional[str] = None

    @property
    def refused(self) -> tuple[str, ...]:
        return self.recommendation.refused if self.recommendation else ()

    def can_confirm(self) -> bool:
        r = self.recommendation
        return (r is not None and not self.busy and not self.dirty and not r.refused and r.pytorch.version is not None)


# Plan page

@dataclass
class PlanState:
    """Qt-free: the plan shown and whether the user confirmed it."""

    plan: Any = None
    confirmed: bool = False
    busy: bool = False

    @property
    def steps(self) -> tuple:
        return tuple(getattr(self.plan, "steps", ()) or ())

    def can_run(self) -> bool:
        """A plan is shown (pressing Install confirms it); an empty plan goes on to the verification."""
        return self.plan is not None and not self.busy

    def step_text(self, step) -> str:
        """What the detail pane shows for a step: its title and why in the user's language, then
        the step exactly as the exported script runs it (downloads fetched and checked first;
        PowerShell for a Windows step, never `sudo`)."""
        out = [step_title(step), "", step_why(step), ""]
        i = next((n for n, s in enumerate(self.steps, 1) if s is step), 1)
        out.append(engine.step_script(self.plan, step, i))
        return "\n".join(out).strip() + "\n"

    def all_commands(self) -> str:
        """The whole plan as one block that runs as pasted into a terminal (bash or PowerShell)."""
        return engine.pasteable_script(self.plan)


# Plan page

def step_title(step) -> str:
    """A step's title in the current language (the engine's English when no template fits)."""
    return plan_text(getattr(step, "title_code", ""), getattr(step, "params", None), step.title)


# Plan page

def step_why(step) -> str:
    return plan_text(getattr(step, "why_code", ""), getattr(step, "params", None), step.why)


# Verify page

@dataclass
class VerifyState:
    """Qt-free: every GPU's samples (the charts show one GPU), and the verification result."""

    seconds: float = 5
    burn_s: float = 0.0  # the burn-in asked for (0: none)
    gpu_index: int = 0
    by_gpu: dict[int, SampleSeries] = field(default_factory=dict)
    verification: Any = None
    running: bool = False
    error: Optional[str] = None

    @property
    def series(self) -> SampleSeries:
        return self.by_gpu.setdefault(self.gpu_index, SampleSeries())

    @property
    def gpus(self) -> list[int]:
        return sorted(self.by_gpu)

    def clear(self) -> None:
        self.by_gpu.clear()

    def add_samples(self, batch: list) -> int:
        """Adds every GPU's samples; returns how many were for the GPU shown."""
        n = 0
        for item in batch:
            if isinstance(item, tuple):
                t, values = item
                gpu = int(values.get("gpu_index") or 0)
            else:
                t, gpu, values = sample_dict(item)
            self.by_gpu.setdefault(gpu, SampleSeries()).add(t, values)
            n += gpu == self.gpu_index
        return n

    def bandwidth_rows(self) -> list[tuple[str, Optional[float], Optional[float]]]:
        """(English label, measured GB/s, ceiling GB/s) as app.verify reported them."""
        v = self.verification
        if v is None:
            return []
        b = v.bandwidth
        return [("Host to GPU (pinned)", b.h2d_pinned_gbps, b.pcie_theoretical_gbps),
                ("GPU to host (pinned)", b.d2h_pinned_gbps, b.pcie_theoretical_gbps),
                ("Host to GPU (pageable)", b.h2d_pageable_gbps, b.pcie_theoretical_gbps),
                ("GPU memory (device to device)", b.d2d_gbps, b.memory_theoretical_gbps)]


# Verify page: the strip of every GPU side by side through a burn-in

STRIP_METRICS = (("sm_clock_mhz", "MHz"), ("temp_c", "°C"), ("power_w", "W"))


@dataclass(frozen=True)
class StripCell:
    """One GPU's cell in the Verify page's strip. While the run goes on `status` is "running" (the burn-in's
    phase and how far it is, once it has begun) and `seen` the worst sign so far; at the end `status` is the
    burn-in's verdict of this GPU (pass, warn, fail, skip)."""

    gpu: int
    status: str
    seen: str = "pass"
    phase: Optional[str] = None
    done_s: Optional[float] = None
    total_s: Optional[float] = None
    figures: tuple[tuple[float, str], ...] = ()
    faults: int = 0
    warnings: int = 0
    burn_in: bool = True  # a burn-in was asked (else the strip only sets the GPUs side by side)

    def live_text(self, phase_words: Callable[[str], str] = str, lang: Optional[str] = None) -> str:
        """What a running cell says, in the window's language: the burn-in's phase and time, or that it
        is still to come (`phase_words` says a phase's name: the window's own words)."""
        from app import messages
        from app.verify.burn_verdicts import duration
        from ui.said import current_language

        lang = lang or current_language()  # window-only sentences: no terminal wording to set them apart from
        if self.done_s is None:
            return messages.render("check", "burn_live_waiting" if self.burn_in else "verify_live", {}, lang)
        p = {"done": duration(self.done_s), "total": duration(self.total_s or self.done_s),
             "phase": phase_words(self.phase) if self.phase else None}
        return messages.render("check", "burn_live" if self.phase else "burn_live_nophase", p, lang)


def strip_cells(state: "VerifyState", events: Sequence[Any], burn: Any = None, live: Any = None) -> list[StripCell]:
    """Every GPU's cell: `burn` (the finished BurnIn) gives each its verdict; before it, while `state.running`,
    each says the burn-in runs (`live`: the tracker's BurnLive, its phase and spans), never a verdict."""
    from app.verify.burn_verdicts import event_severity, gpu_verdict
    from app.verify.burnin import is_load_phase

    done = total = None
    spans = tuple(getattr(live, "spans", ()) or ())
    if any(is_load_phase(s.phase) for s in spans):
        done = sum(s.t1_s - s.t0_s for s in spans if is_load_phase(s.phase))
        total = float(getattr(live, "seconds", 0.0) or state.burn_s or 0.0) or None
        done = min(done, total) if total else done
    cells = []
    for g in state.gpus:
        ser = state.by_gpu.get(g)
        figs = []
        for metric, unit in STRIP_METRICS:
            v = next((x for x in reversed(ser.values[metric]) if x == x), None) if ser is not None else None
            if v is not None:
                figs.append((float(v), unit))
        sev = [event_severity(e.kind, e.value) for e in events if e.gpu_index == g]
        faults, warns = sev.count("fail"), sev.count("warn")
        seen = "fail" if faults else ("warn" if warns else "pass")
        if burn is not None:
            status = gpu_verdict(burn, g)[0]
        else:
            status = "running" if state.running else seen
        cells.append(StripCell(gpu=g, status=status, seen=seen, phase=getattr(live, "phase", None) if status == "running" else None,
                               done_s=done if status == "running" else None, total_s=total, figures=tuple(figs),
                               faults=faults, warnings=warns, burn_in=bool(state.burn_s or burn is not None or live)))
    return cells


# Summary page

@dataclass
class SummaryState:
    """Qt-free: the verdict and the list of changes, from the session."""

    verification: Any = None
    install: Any = None
    dry_run: bool = False

    @property
    def verdict(self) -> str:
        v = self.verification
        if v is not None:
            return v.status
        if self.install is not None and self.install.failed is not None:
            return "fail"
        if any(getattr(o, "status", "") == "error" for o in self.recorded_steps):
            return "fail"
        return "skip"

    recorded_steps: tuple = ()  # a report: each step's outcome on the user's machine
    recorded_plan: Any = None

    def changes(self) -> list[tuple[str, str]]:
        """(status, step title in the current language) for every step that ran."""
        if self.recorded_steps:
            by_id = {s.id: s for s in getattr(self.recorded_plan, "steps", ())}
            out = []
            for o in self.recorded_steps:
                st = getattr(o, "status", "")
                if st in ("pending", "running"):  # never reached on the user's machine
                    continue
                step = by_id.get(o.id)
                title = plan_text(getattr(step, "title_code", ""), getattr(step, "params", None),
                                  getattr(step, "title", None) or getattr(o, "title", "") or o.id)
                out.append((st, title))
            return out
        if self.install is None:
            return []
        return [(s.status, plan_text(getattr(s, "title_code", ""), getattr(s, "params", None), s.title))
                for s in self.install.steps if s.status != "pending"]


# Troubleshoot page

@dataclass
class TroubleshootState:
    """Qt-free: the text diagnosed and the engine's diagnosis."""

    text: str = ""
    diagnosis: Any = None
    busy: bool = False

    @property
    def top(self):
        d = self.diagnosis
        return d.matches[0] if d is not None and getattr(d, "matches", None) else None

    @property
    def has_fix(self) -> bool:
        t = self.top  # only steps the wizard can run (the rest are shown for the user to run)
        return t is not None and bool(getattr(t, "runnable_steps", t.fix_steps))
