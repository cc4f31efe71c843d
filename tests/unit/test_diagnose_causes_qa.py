"""The user's platform and environment (Windows DLLs, conda, pip, macOS, containers, WSL): real texts collected for
issue 25 (tests/fixtures/errors_causes_qa, URLs in its SOURCE.md), each pinned to its category, and to the fix its
thread states for the thread's platform; and real texts with the same words that are no setup failure
(errors_unrelated_qa) give no answer."""
from __future__ import annotations

from pathlib import Path

import pytest

from diagnose_helpers import diagnose
from heldout_score import check_answer, load

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
CAUSES = sorted((FIXTURES / "errors_causes_qa").glob("*.txt"))
NEGATIVES = sorted((FIXTURES / "errors_unrelated_qa").glob("*.txt"))
# the one text whose stated fix the plan does not give: the thread reinstalled the host's driver for a "CUDA unknown
# error" under singularity --nv; the plan reloads nvidia_uvm first (the usual cure) and names no reinstall
NOT_FIXED = {"container_singularity_nv_cuda_unknown_error.txt"}


def test_the_collection_is_there():
    assert len(CAUSES) >= 20 and len(NEGATIVES) >= 5


@pytest.mark.parametrize("path", CAUSES, ids=lambda p: p.stem)
def test_category_and_fix(path):
    check_answer(load(path), diagnose, fixed=path.name not in NOT_FIXED)


@pytest.mark.parametrize("path", NEGATIVES, ids=lambda p: p.stem)
def test_no_answer_for_the_same_words_without_a_failure(path):
    d = diagnose(load(path).body)
    assert not d.matches, [(m.category, m.rule) for m in d.matches]


def test_platform_from_the_users_words():
    """macOS named inside a Chinese sentence, "on an M1 Mac", and a WSL distro's DESKTOP-XXXXXXX prompt."""
    for name, want in (("mac_not_compiled_zh_sonoma_diffbir.txt", "macos"), ("mac_not_compiled_m1_olorenchem.txt", "macos"),
                       ("container_wsl_docker_driver_error_failed_to_process_request.txt", "wsl")):
        d = diagnose(load(FIXTURES / "errors_causes_qa" / name).body)
        assert d.platform.os == want and d.platform.source == "text", (name, d.platform)


def test_a_mac_address_is_no_mac():
    from app.diagnose.platform import infer_platform

    assert infer_platform("the container has no network: set my MAC address in the compose file").os == "linux"


def test_podman_plan_generates_the_cdi_spec_on_the_host():
    d = diagnose(load(FIXTURES / "errors_causes_qa" / "container_podman_301_cdi_stat_no_such_file.txt").body)
    step = d.top.fix_steps[0]
    assert step.where == "host" and ("nvidia-ctk", "cdi", "generate", "--output=/etc/cdi/nvidia.yaml") in step.argv


def test_a_32bit_python_folder_is_the_python_to_check():
    d = diagnose(load(FIXTURES / "errors_causes_qa" / "nowheel_pip_torch_32bit_program_files_x86.txt").body)
    assert d.top.rule == "torch_no_matching_wheel" and "32-bit" in d.top.root_cause
    assert d.top.fix_steps[0].argv[0][0] == "c:\\program files (x86)\\python38-32\\python.exe"


@pytest.mark.xfail(strict=True, reason="a text saying a cause 'can result in' CUDA_ERROR_NO_DEVICE still reads as that error")
def test_a_pull_request_describing_an_error_is_no_alarm():
    d = diagnose(load(FIXTURES / "errors_causes_qa" / "negatives" / "pr_numba_wsl_driver_library_location.txt").body)
    assert not d.matches, [(m.category, m.rule) for m in d.matches]
