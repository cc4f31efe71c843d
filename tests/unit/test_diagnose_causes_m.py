"""The classes the thirteenth held-out batch (tests/fixtures/errors_heldout_m) missed, as rules checked on further real
texts (tests/fixtures/errors_causes_m, each with its thread in SOURCE.md): Secure Boot with a MOK that was never
enrolled, no CUDA device at cuInit inside WSL 2, MIG's one device per process, and the fixes that name what fixed the
thread (an RTX 50 GPU's cu128 build, the previous torch for fbgemm.dll, a GPU node for libcuda.so.1 on a cluster). Per
text: the category, the platform, and where the thread says what fixed it, that the proposal holds it; negatives with
the same words that must not get these answers."""
from __future__ import annotations

from pathlib import Path

import pytest

from diagnose_helpers import diagnose
from heldout_score import fix_has, load, platform_ok

FOLDER = Path(__file__).resolve().parent.parent / "fixtures" / "errors_causes_m"
CASES = [load(p) for p in sorted(FOLDER.glob("*.txt"))]
NEGATIVES = {load(p).path.name: load(p) for p in sorted((FOLDER / "negatives").glob("*.txt"))}
CLASSES = {"sb": "secure_boot", "wsl": "wsl_linux_driver_installed", "nki": "no_kernel_image", "dll": "windows_dll_load",
           "libcuda": "driver_missing"}


def test_each_class_has_real_texts_with_their_threads():
    for prefix, category in CLASSES.items():
        mine = [c for c in CASES if c.path.name.startswith(prefix + "_")]
        assert mine and all(c.expect == category for c in mine), prefix
    source = (FOLDER / "SOURCE.md").read_text(encoding="utf-8")
    for c in CASES + list(NEGATIVES.values()):
        assert c.headers["source"].startswith("https://github.com/") and c.headers["source"] in source, c.path.name


@pytest.mark.parametrize("case", CASES, ids=[c.path.name for c in CASES])
def test_category_and_the_threads_fix_on_its_platform(case):
    d = diagnose(case.body)
    assert d.matches and d.matches[0].category == case.expect, [(m.category, m.rule) for m in d.matches]
    assert platform_ok(d, case.headers["platform"]), d.platform
    if case.headers.get("fix-has"):
        assert fix_has(d.matches[0], case.headers["fix-has"]), (d.matches[0].fix, [s.title for s in d.matches[0].fix_steps])


def test_the_wsl_answer_is_wsl_advice_not_a_linux_driver():
    for c in (c for c in CASES if c.path.name.startswith("wsl_")):
        m = diagnose(c.body).matches[0]
        assert "/usr/lib/wsl/lib" in m.fix and "wsl --update" in m.fix, c.path.name
        assert not any("apt-get" in " ".join(a) for s in m.fix_steps for a in s.argv), c.path.name


@pytest.mark.parametrize("name", sorted(NEGATIVES))
def test_the_words_alone_are_not_these_answers(name):
    case = NEGATIVES[name]
    assert case.headers.get("why-not")
    d = diagnose(case.body)
    rules = {m.rule for m in d.matches}
    assert not rules & {"secure_boot_mok_not_enrolled", "nki_blackwell_needs_cu128", "mig_one_device_per_process"}, rules
    assert not {m.category for m in d.matches} & {"wsl_linux_driver_installed", "wsl_nvidia_smi_failed"}, d.matches
    if name.startswith("sb_"):  # a MOK word with no failing NVIDIA module is no GPU setup failure at all
        assert not d.matches
    if name.startswith("nki_"):  # still no kernel image, with the general answer (the extension, or the program itself)
        assert d.matches[0].category == "no_kernel_image"


def test_mig_one_device_is_said_to_be_expected_and_other_device_counts_are_not_mig():
    m = diagnose("torch.cuda.device_count() shows only one gpu in MIG A100").matches[0]
    assert m.rule == "mig_one_device_per_process" and "only one" in m.fix
    d = diagnose("RuntimeError: CUDA error: invalid device ordinal\ntorch.cuda.device_count() returns 1 on my 2-GPU box")
    assert "mig_one_device_per_process" not in {x.rule for x in d.matches}


def test_secure_boot_mok_rule_does_not_relabel_a_module_that_is_simply_not_loaded():
    d = diagnose("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. "
                 "Make sure that the latest NVIDIA driver is installed and running.\nI rebooted after the update.")
    assert "secure_boot_mok_not_enrolled" not in {m.rule for m in d.matches}
