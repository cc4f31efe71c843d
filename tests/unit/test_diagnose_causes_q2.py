"""Class rules written after the seventeenth held-out batch's blind run (tests/fixtures/errors_heldout_q), part 2: each
checked on the batch's text and on further real texts of the same cause (tests/fixtures/errors_causes_q2, URLs in its
SOURCE.md), with a negative that must not fire."""
from __future__ import annotations

from pathlib import Path

import pytest

from diagnose_helpers import diagnose
from heldout_score import check_answer, load

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
CAUSES = FIXTURES / "errors_causes_q2"
BATCH = FIXTURES / "errors_heldout_q"

# class -> (its rule, the batch's texts, the further real texts)
CLASSES = {
    "plain_docker_run": ("docker_run_without_gpus", ["container_smi_plain_docker_bind_mounted_driver_zh"],
                         ["container_smi_plain_docker_run_no_gpus_beaker"]),
    "conda_env_cannot_take_pytorch": ("conda_unsatisfiable_pytorch_env", ["nowheel_conda_pytorch_cpu_base_env_conflict"],
                                      ["nowheel_conda_unsatisfiable_torchvision_ipaddress_windows"]),
    "torch_placeholder_sdist": ("pip_torch_placeholder_sdist", ["nowheel_jetson_pip_torch_sdist_jetbot"],
                                ["nowheel_pip_torch_012_sdist_windows_py36"]),
    "jax_cannot_load_cuda_libraries": ("jax_unable_to_load_cuda_libs", ["rt_jax_cuda11_local_colab_unable_to_load_cuda"],
                                       ["rt_jax_unable_to_load_cusparse_mujoco_playground"]),
}


@pytest.mark.parametrize("klass", sorted(CLASSES))
def test_class_rule_answers_every_real_text_of_its_cause(klass):
    """The batch's text and the further ones get the class's rule and category; where the thread says what fixed it,
    the answer holds that fix and is written for the thread's machine."""
    rule, batch, further = CLASSES[klass]
    for p in [BATCH / f"{n}.txt" for n in batch] + [CAUSES / f"{n}.txt" for n in further]:
        check_answer(load(p), diagnose, (rule,))


def test_docker_run_with_the_nvidia_runtime_is_no_plain_run():
    """`docker run --runtime=nvidia` already asks for the GPU: nvidia-smi missing there is not a plain run."""
    case = load(FIXTURES / "errors_heldout_b" / "smi_docker_exec_not_in_path.txt")
    assert all(m.rule != "docker_run_without_gpus" for m in diagnose(case.body).matches)


def test_a_conda_conflict_without_pytorch_in_it_is_not_this_class():
    """conda's osx-arm64 pytorch-cuda failure is the Mac class, not a crowded environment."""
    case = load(FIXTURES / "errors_causes_p" / "nowheel_libmamba_pytorch_cuda117_osx_arm64_animatediff.txt")
    d = diagnose(case.body)
    assert d.top is not None and d.top.rule == "conda_no_pytorch_cuda_package"
    assert all(m.rule != "conda_unsatisfiable_pytorch_env" for m in d.matches)

