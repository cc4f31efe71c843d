"""The classes the fourteenth held-out batch (tests/fixtures/errors_heldout_n) missed, as rules checked on further real
texts (tests/fixtures/errors_causes_n, each with its thread in SOURCE.md): nvidia-smi's MIG M. column saying Enabled
beside the device-count assert, and a WSL 2 kernel older than CUDA on WSL needs. Per text: the category, the platform,
and where the thread says what fixed it, that the proposal holds it; negatives with the same words that must not get
these answers."""
from __future__ import annotations

from pathlib import Path

import pytest

from diagnose_helpers import diagnose
from heldout_score import fix_has, load, platform_ok

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
FOLDER = FIXTURES / "errors_causes_n"
CASES = [load(p) for p in sorted(FOLDER.glob("*.txt"))]
NEGATIVES = [load(p) for p in sorted((FOLDER / "negatives").glob("*.txt"))]
# each class: its real texts here and in the held-out batch it was found in
CLASSES = {"mig": ("mig_mode", "mig_one_instance_per_process", ["mig_a100_internal_assert_unset.txt"]),
           "wsl": ("wsl_dxg_missing", "wsl_kernel_too_old", ["wsl_old_kernel_vllm.txt"])}


def test_each_class_has_real_texts_with_their_threads():
    source = (FOLDER / "SOURCE.md").read_text(encoding="utf-8")
    for prefix, (category, _, heldout) in CLASSES.items():
        mine = [c for c in CASES if c.path.name.startswith(prefix + "_")]
        assert mine and all(c.expect == category for c in mine), prefix
        assert len(mine) + len(heldout) >= 2, prefix
    for c in CASES + NEGATIVES:
        assert c.headers["source"].startswith("https://github.com/") and c.headers["source"] in source, c.path.name


@pytest.mark.parametrize("case", CASES, ids=[c.path.name for c in CASES])
def test_category_rule_and_the_threads_fix_on_its_platform(case):
    d = diagnose(case.body)
    category, rule, _ = CLASSES[case.path.name.split("_")[0]]
    assert d.matches and (d.matches[0].category, d.matches[0].rule) == (category, rule), [(m.category, m.rule) for m in d.matches]
    assert platform_ok(d, case.headers["platform"]), d.platform
    if case.headers.get("fix-has"):
        assert fix_has(d.matches[0], case.headers["fix-has"]), d.matches[0].fix


def test_the_held_out_texts_of_each_class_get_it():
    for category, rule, names in CLASSES.values():
        for name in names:
            m = diagnose(load(FIXTURES / "errors_heldout_n" / name).body).matches[0]
            assert (m.category, m.rule) == (category, rule), name


def test_the_wsl_kernel_answer_names_the_kernel_and_wsl_update():
    m = diagnose(load(FIXTURES / "errors_heldout_n" / "wsl_old_kernel_vllm.txt").body).matches[0]
    assert "5.10.16.3-microsoft-standard-WSL2" in m.root_cause and "wsl --update" in m.fix
    assert not any("apt-get" in " ".join(a) for s in m.fix_steps for a in s.argv)


@pytest.mark.parametrize("case", NEGATIVES, ids=[c.path.name for c in NEGATIVES])
def test_the_words_alone_are_not_these_answers(case):
    assert case.headers.get("why-not")
    rules = {m.rule for m in diagnose(case.body).matches}
    assert not rules & {"wsl_kernel_too_old", "mig_one_instance_per_process"}, rules


def test_a_new_kernel_or_a_mig_column_without_enabled_is_not_these_answers():
    d = diagnose("Linux version 5.15.153.1-microsoft-standard-WSL2\nRuntimeError: Found no NVIDIA driver on your system.")
    assert "wsl_kernel_too_old" not in {m.rule for m in d.matches}
    d = diagnose("RuntimeError: CUDA error: invalid device ordinal\n| GPU-Util  Compute M. |\n|  MIG M. |\n| 0%  Default |\n|  N/A |")
    assert "mig_one_instance_per_process" not in {m.rule for m in d.matches}
