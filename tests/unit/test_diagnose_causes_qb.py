"""Issue 25, the builds/libraries/hardware side: real texts collected after the rules (tests/fixtures/errors_causes_qb,
URLs and classes in its SOURCE.md) and real negatives with the same words (errors_unrelated_qb). Every text keeps its
category; where its thread states the fix, the answer holds it and is written for the thread's machine."""
from __future__ import annotations

from pathlib import Path

import pytest

from diagnose_helpers import diagnose
from heldout_score import check_answer, load, proposal_text

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
CAUSES = FIXTURES / "errors_causes_qb"
UNRELATED = FIXTURES / "errors_unrelated_qb"
CASES = sorted(CAUSES.glob("*.txt"))

# the rule each class's texts must reach (a file's name starts with its class's prefix)
RULES = {
    "ptxas_": "ptxas_unknown_arch",
    "nvcc_value_": "nvcc_unsupported_arch",
    "ds_fused_adam_nvcc_cxx17": "nvcc_std_unsupported",
    "nvcc_cxx17_": "nvcc_std_unsupported",
    "bnb_cuda_setup_failed": "bnb_cuda_setup_failed",
    "hw_xid79_fallen_off_bus": "gpu_fell_off_bus",
    "cudnn_not_initialized_": "cudnn_not_initialized",
    "xformers_cpu_torch": "xformers_cpu_torch",
    "xformers_built_for_other_torch": "xformers_built_for_other_torch",
    "mmcv_ext_missing": "mmcv_ext_missing",
}


def test_the_collection_is_large_enough_to_measure():
    assert len(CASES) >= 20 and len(list(UNRELATED.glob("*.txt"))) >= 3


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_every_collected_text_gets_its_category_and_its_threads_fix(path):
    check_answer(load(path), diagnose, tuple(rule for prefix, rule in RULES.items() if path.stem.startswith(prefix)))


@pytest.mark.parametrize("path", sorted(UNRELATED.glob("*.txt")), ids=lambda p: p.stem)
def test_the_same_words_outside_a_setup_failure_give_no_answer(path):
    d = diagnose(load(path).body)
    assert not d.matches, (path.name, [(m.rule, m.category) for m in d.matches])


def test_ptxas_names_the_architecture_it_does_not_know():
    d = diagnose(load(CAUSES / "ptxas_sm121a_triton_dgx_spark_ptxas_path.txt").body)
    assert "sm_121a" in d.top.root_cause and "TRITON_PTXAS_PATH" in d.top.fix


def test_an_oom_whose_cache_holds_the_request_also_offers_expandable_segments():
    """PyTorch 2.2+ adds "with X allocated in private pools (e.g., CUDA Graphs)," to the message: its numbers are still
    read, and a nearly full GPU whose unallocated cache (737 MiB) is larger than the request (546 MiB) gets both the
    size advice and the expandable-segments step; a real OOM with a small cache (127 MiB) gets only the size."""
    frag = diagnose(load(CAUSES / "oom_fragmentation_reserved_unallocated_vllm_kaito.txt").body)
    assert frag.oom is not None and frag.oom.numbers and frag.oom.numbers[0].reserved_unallocated_mib == pytest.approx(736.86)
    assert [s.id for s in frag.top.fix_steps] == ["set_expandable_segments"]
    assert dict(frag.top.fix_steps[0].env) == {"PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:True"}
    full = diagnose(load(CAUSES / "oom_genuine_0_bytes_free_lora_8gb.txt").body)
    assert "expandable_segments" not in proposal_text(full.top)
