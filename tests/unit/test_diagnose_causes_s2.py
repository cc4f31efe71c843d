"""Install and library mixes: real texts collected for issue 25 (tests/fixtures/errors_causes_s2, URLs in its SOURCE.md)
of pip's nvidia-* wheels failing on a symbol because another copy of a CUDA or cuDNN library is loaded first, of
torchvision / torchaudio not matching torch, and of extensions built for torch 1.x, each pinned to its category and to the
fix its thread states for the thread's platform; and real texts with the same words that are no setup failure
(errors_unrelated_s2) give no answer."""
from __future__ import annotations

from pathlib import Path

import pytest

from diagnose_helpers import diagnose
from heldout_score import fix_has, load, platform_ok

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
CAUSES = sorted((FIXTURES / "errors_causes_s2").glob("*.txt"))
NEGATIVES = sorted((FIXTURES / "errors_unrelated_s2").glob("*.txt"))
NOT_FIXED: set[str] = set()  # every stated fix is in its plan


def test_the_collection_is_there():
    assert len(CAUSES) >= 20 and len(NEGATIVES) >= 8


@pytest.mark.parametrize("path", CAUSES, ids=lambda p: p.stem)
def test_category_and_fix(path):
    case = load(path)
    d = diagnose(case.body)
    assert d.top is not None and d.top.category == case.expect, (path.name, [(m.category, m.rule) for m in d.matches])
    spec = case.headers.get("fix-has")
    if spec and path.name not in NOT_FIXED:
        assert fix_has(d.top, spec), (path.name, d.top.fix)
        assert platform_ok(d, case.headers["platform"]), (path.name, d.platform)


@pytest.mark.parametrize("path", NEGATIVES, ids=lambda p: p.stem)
def test_no_answer_for_the_same_words_without_a_failure(path):
    d = diagnose(load(path).body)
    assert not d.matches, [(m.category, m.rule) for m in d.matches]


def _top(name: str):
    return diagnose(load(FIXTURES / "errors_causes_s2" / name).body).top


def test_the_wheel_clash_names_the_library_and_the_symbol():
    m = _top("wheel_clash_nvjitlink_cusparse_addData_12_1_dist_packages.txt")
    assert m.rule == "cuda_wheel_lib_symbol_clash"
    assert m.params["lib"] == "libcusparse.so.12" and m.params["symbol"] == "__nvJitLinkAddData_12_1", m.params
    m = _top("wheel_clash_nccl_commresume_cu12_cu13_wheels.txt")
    assert m.params["lib"] == "libtorch_cuda.so" and m.params["symbol"].startswith("nccl"), m.params


def test_the_wheel_clash_first_checks_without_ld_library_path_in_the_failing_environment():
    m = _top("wheel_clash_nccl_commresume_cu12_cu13_wheels.txt")
    step = m.fix_steps[0]
    assert step.id == "check_without_ld_library_path"
    assert step.argv[0][:4] == ("env", "-u", "LD_LIBRARY_PATH", "/home/ti64cli/.env/bin/python"), step.argv


def test_a_cudnn_symbol_clash_is_no_missing_cudnn():
    """libcudnn_*.so.8 was found (it is named with its folder); what it lacks is a symbol of its sibling."""
    m = _top("cudnn_clash_cnn_train8_usr_local_cuda123.txt")
    assert m.rule == "cudnn_lib_symbol_clash" and m.params["major"] == "8", (m.rule, m.params)


def test_the_companion_package_is_named():
    assert _top("companion_torchvision_custom_ops_vitis_ai_pair.txt").params["pkg"] == "torchvision"
    assert _top("companion_torchaudio_undefined_symbol_torchmetrics.txt").params["pkg"] == "torchaudio"


def test_a_missing_cuda_library_is_still_a_missing_one():
    """"cannot open shared object file" for libcublasLt stays the missing-runtime rule, not the clash."""
    d = diagnose("OSError: libcublasLt.so.12: cannot open shared object file: No such file or directory")
    assert d.top.rule == "cuda_runtime_lib_missing", d.top.rule


def test_the_zh_cn_catalogue_has_the_new_rules():
    from app import messages

    for rule in ("cuda_wheel_lib_symbol_clash", "cudnn_lib_symbol_clash", "torch_companion_mismatch",
                 "torch1_extension_on_torch2", "torch_cxx_symbol_undefined"):
        for part in ("root_cause", "fix"):
            assert messages.template(f"diagnose.{rule}.{part}", "zh_CN"), (rule, part)
