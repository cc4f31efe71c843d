"""A choice that cannot apply is said, never dropped: the plan's warnings carry the recommendation's refusals
(`--variant cu999`, an unknown `--torch`), `--toolkit` on a machine without an NVIDIA GPU, `--toolkit`/`--cudnn`
on a Windows host, `--wsl-distro` off Windows, `--method dnf` on an apt system; the plan header's `source` is
where the facts come from and a separate `index` line says what the live index read gave: never "live" when
the read failed (real recommend_live runs against a local index server, tests/unit/live_server.py)."""
from __future__ import annotations

import json

import pytest

from app import messages
from app.choices import Choices
from app.compat import load_db
from app.detect import detect
from app.facts import DriverInfo, Facts, OsInfo, PythonEnv
from app.paths import resource
from app.plan import build_plan, facts_summary
from app.recommend import recommend
from app.system import SnapshotSystem


def _snapshot(name: str):
    return detect(SnapshotSystem(json.loads(resource("snapshots", name).read_text(encoding="utf-8"))))


def _plan(facts, choices: Choices):
    rec = recommend(facts, load_db(use_user_bundle=False), choices)
    return rec, build_plan(facts, rec, choices, created="2026-11-29T00:00:00+00:00")


def codes(plan) -> list[str]:
    return [n.code for n in plan.warning_codes]


@pytest.mark.parametrize("choices,code", [
    (Choices(torch_variant="cu999"), "refused_unknown_variant"),
    (Choices(torch_version="0.9.0"), "refused_unknown_release"),
])
def test_a_refused_choice_is_a_plan_warning(choices, code):
    rec, plan = _plan(_snapshot("h200-server-ubuntu2404.json"), choices)
    assert code in [r.code for r in rec.refused_detail]
    assert code in codes(plan) and len(plan.warnings) == len(plan.warning_codes)
    i = codes(plan).index(code)
    assert plan.warning_codes[i].domain == "rec" and plan.warnings[i] == rec.refused[0]
    assert "cu999" in plan.warnings[i] or "0.9.0" in plan.warnings[i]


def test_toolkit_on_a_machine_without_an_nvidia_gpu_is_said():
    facts = Facts(os=OsInfo(platform="linux", id="ubuntu", version_id="24.04", arch="x86_64", package_manager="apt"),
                  driver=DriverInfo(state="not_installed"), gpus=(), python=PythonEnv(path="/usr/bin/python3", version="3.12.3"))
    _rec, plan = _plan(facts, Choices(want_toolkit=True))
    assert plan.step("install_cuda_toolkit") is None
    i = codes(plan).index("warn_toolkit_not_planned")
    assert plan.warning_codes[i].params["why_code"] == "warn_toolkit_not_planned_no_gpu"
    assert "no NVIDIA GPU" in plan.warnings[i]
    assert "没有 NVIDIA GPU" in messages.render("plan", "warn_toolkit_not_planned", plan.warning_codes[i].params, "zh_CN")


@pytest.mark.parametrize("flag,choices", [("--toolkit", Choices(want_toolkit=True)), ("--cudnn", Choices(want_system_cudnn=True))])
def test_linux_only_choices_on_a_windows_host(flag, choices):
    _rec, plan = _plan(_snapshot("windows-laptop-rtx4060-nowsl.json"), choices)
    notes = [n for n in plan.warning_codes if n.code == "warn_choice_inside_wsl"]
    assert notes and notes[0].params == {"flag": flag}


def test_a_wsl_distro_off_windows_and_dnf_on_apt_are_said():
    _rec, plan = _plan(_snapshot("workstation-rtx4090-ubuntu2404.json"), Choices(wsl_distro="Ubuntu-24.04"))
    assert "warn_wsl_distro_not_windows" in codes(plan)
    facts = _snapshot("h200-server-ubuntu2404.json")
    _rec, plan = _plan(facts, Choices(want_toolkit=True, install_method="dnf"))
    assert "warn_method_not_here" in codes(plan)
    assert all("dnf" not in " ".join(a) for s in plan.steps for a in s.commands)
    _rec, plan = _plan(facts, Choices(want_toolkit=True))
    assert "warn_method_not_here" not in codes(plan)


def test_the_header_source_is_the_machine_never_the_index():
    facts = _snapshot("h200-server-ubuntu2404.json")
    assert facts_summary(facts)["source"].startswith("snapshot:")
    assert facts_summary(facts.replace(source="live"))["source"] == "this machine, detected now"


def test_the_header_says_what_the_live_index_read_gave():
    """Against the local index server: read, a cached copy, unreachable, off. Only a real read says "read live"."""
    from tests.unit.live_server import live_outputs

    seen = {}
    for rid, facts, ch, rec in live_outputs():
        plan = build_plan(facts, rec, ch, created="2026-11-29T00:00:00+00:00")
        seen[rid] = plan.facts_summary.get("index", "")
        assert "live" != plan.facts_summary.get("source")
    assert seen["live_newer_patch_and_release"] == "read live from the PyTorch index"
    assert seen["live_cached_copy"].startswith("a cached copy")
    assert seen["live_unreachable_stale"].startswith("not reached: the compatibility data")
    assert seen["live_off"].startswith("not read (live reads are off)")
    for rid in ("live_cached_copy", "live_unreachable_stale", "live_off"):
        assert "read live" not in seen[rid], rid


def test_every_header_sentence_has_both_languages_and_its_figures():
    from app.plan import _INDEX_STATES

    for code in ["summary_this_machine"] + [c for _w, c in _INDEX_STATES]:
        en, zh = messages.template(f"plan.{code}", "en"), messages.template(f"plan.{code}", "zh_CN")
        assert en and zh and messages.names(en) == messages.names(zh) <= {"data"}, code
