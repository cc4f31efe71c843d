"""PyTorch's own start-up check for a GPU its build has no kernels for, in both of its wordings (tests/fixtures/
errors_causes_qc, URLs in its SOURCE.md): up to 2.7 "Found GPU0 <name> which is of cuda capability 3.5. PyTorch no
longer supports this GPU because it is too old.", from 2.8 "... which is of compute capability (CC) 7.0." followed by
one "- 7.5 which supports hardware CC ..." line per architecture of the build. Both are no_kernel_image; the fix names
the build that covers the GPU when one is published (the recommender's solve for the GPU the text names), and says a
build from source (or none) when none is."""
from __future__ import annotations

from pathlib import Path

import pytest

from app.diagnose.engine import match_groups
from diagnose_helpers import diagnose
from heldout_score import check_answer, load

CAUSES = Path(__file__).resolve().parent.parent / "fixtures" / "errors_causes_qc"
TEXTS = sorted(CAUSES.glob("*.txt"))


def test_the_collection_is_there():
    assert len(TEXTS) >= 4


@pytest.mark.parametrize("path", TEXTS, ids=lambda p: p.stem)
def test_each_real_text_is_a_gpu_the_build_lacks(path):
    check_answer(load(path), diagnose, ("nki_gpu_too_old_for_torch",))


def test_the_new_wording_names_the_build_it_has_and_the_gpu_it_lacks():
    """PyTorch 2.8+'s list of built-for capabilities is read as the build's architectures, so the evidence says the V100
    (7.0) is not among them and the reinstall is a build that has it (CUDA 12.6's, with sm_70), not the cu128 one."""
    d = diagnose(load(CAUSES / "nki_cc_list_v100_torch27_cu128.txt").body)
    said = [e.message for e in d.top.evidence]
    assert any("built for: sm_75 sm_80 sm_86 sm_90 sm_100 sm_120" in s for s in said), said
    assert any("Tesla V100-PCIE-32GB" in s and "sm_70" in s and "no kernels" in s for s in said), said
    argv = [a for s in d.top.fix_steps for cmd in s.argv for a in cmd]
    assert any("https://download.pytorch.org/whl/cu126" in a for a in argv), argv


def test_a_k80_is_given_the_last_build_with_its_kernels():
    """Compute capability 3.7 (K80): the newest published build that still has sm_37 is a CUDA 11.8 one."""
    d = diagnose("Found GPU0 Tesla K80 which is of cuda capability 3.7.\n"
                 "    PyTorch no longer supports this GPU because it is too old.\n")
    assert d.top is not None and d.top.category == "no_kernel_image" and "3.7" in d.top.fix
    argv = [a for s in d.top.fix_steps for cmd in s.argv for a in cmd]
    assert any(a.endswith("/whl/cu118") for a in argv), argv


def test_a_capability_number_is_also_its_sm_name():
    import re

    m = re.search(r"capability (?P<cc>\d{1,2}\.\d)", "which is of cuda capability 12.0.")
    assert m is not None and match_groups(m) == {"cc": "12.0", "sm": "sm_120"}
    m = re.search(r"(?P<sm>sm_\d+)", "sm_86")
    assert m is not None and match_groups(m) == {"sm": "sm_86"}


def test_a_source_line_that_only_prints_the_warning_is_not_it():
    """PyTorch's own source, pasted (the format string and its call), is no failure."""
    d = diagnose('    old_gpu_warn = """\n    Found GPU%d %s which is of cuda capability %d.%d.\n'
                 '    PyTorch no longer supports this GPU because it is too old.\n    """\n'
                 "    warnings.warn(old_gpu_warn % (d, name, major, capability[1]))\n")
    assert d.top is None or d.top.rule != "nki_gpu_too_old_for_torch", d.top
