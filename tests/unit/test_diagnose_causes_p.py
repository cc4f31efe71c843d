"""Class rules written after the sixteenth held-out batch's blind run (tests/fixtures/errors_heldout_p), each checked on
the batch's text and on further real texts of the same cause (tests/fixtures/errors_causes_p, URLs in its SOURCE.md),
with a negative that must not fire."""
from __future__ import annotations

from pathlib import Path

import pytest

from diagnose_helpers import diagnose
from heldout_score import check_answer, fix_has, load, platform_ok

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
CAUSES = FIXTURES / "errors_causes_p"
BATCH = FIXTURES / "errors_heldout_p"

# class -> (its rule, the batch's texts, the further real texts)
CLASSES = {
    "jax_cudnn_check": ("cudnn_version_mismatch", ["cudnn_jax_found_8600_built_8906_gcbfplus", "cudnn_jax_outdated_9100_conda_forge_keras"],
                        ["cudnn_jax_outdated_9100_pixi_scipy"]),
    "conda_pytorch_cuda_on_a_mac": ("conda_no_pytorch_cuda_package", ["nowheel_conda_pytorch_cuda_macos_m2_chattts",
                                                                     "nowheel_libmamba_pytorch_cuda117_osx_arm64_openvoice"],
                                    ["nowheel_libmamba_pytorch_cuda117_osx_arm64_animatediff", "nowheel_conda_pytorch_cuda121_osx_arm64_mdlm"]),
    "cmake_no_cuda_compiler": ("cmake_no_cuda_compiler", ["nvcc_cmake_no_cuda_compiler_memtest"], ["nvcc_cmake_no_cuda_compiler_vpf"]),
    "no_nccl_in_this_pytorch": ("nccl_not_built_in", ["nccl_not_built_in_windows_llama2_accessory"],
                                ["nccl_not_built_in_windows_dreambooth_lightning", "nccl_not_built_in_windows_zh_question"]),
    "nccl_duplicate_gpu": ("nccl_duplicate_gpu", ["nccl_duplicate_gpu_dfine_default_device"], ["nccl_duplicate_gpu_mambair_launch"]),
    "image_require_clause": ("container_requires_cuda", ["container_brand_tesla_gtx1080_cuda10_image"],
                             ["container_driver_lt_385_tesla_p100_netdef"]),
    "cuda_error_803": ("cuda_error_803", ["drv_error803_gtx1070_easydiffusion"],
                       ["drv_error803_compvis_txt2img", "drv_error803_caffe_check_failed_docker"]),
    "gpu_lost_device_handle": ("smi_device_handle_unknown", ["hw_smi_device_handle_unknown_reseat_2080ti"],
                               ["hw_smi_device_handle_unknown_tesla_p4_nas"]),
    "msvc_for_nvcc": ("nvcc_msvc_unsupported", ["gcc_msvc_unsupported_vs_hunyuan3d_cu118"],
                      ["gcc_msvc_unsupported_vs_brushedit_cu118", "gcc_nvcc_no_supported_vs_tigre_matlab"]),
    "nvml_permissions": ("nvml_insufficient_permissions", ["nvml_insufficient_permissions_rhel_selinux_container"],
                         ["nvml_insufficient_permissions_podman_user_1000"]),
    "wsl_linker_libcuda": ("wsl_linker_cannot_find_libcuda", ["wsl_ld_cannot_find_lcuda_darknet"],
                           ["wsl_ld_cannot_find_lcuda_torch_compile", "wsl_ld_cannot_find_lcuda_mitsuba2"]),
    "cudnn_zlib": ("cudnn_zlib_missing", ["cudnn_zlibwapi_darknet_cudnn841_windows"], ["cudnn_zlibwapi_yolodotnet_windows"]),
}


@pytest.mark.parametrize("klass", sorted(CLASSES))
def test_class_rule_answers_every_real_text_of_its_cause(klass):
    """The batch's text and the further ones get the class's rule and category; where the thread says what fixed it,
    the answer holds that fix and is written for the thread's machine."""
    rule, batch, further = CLASSES[klass]
    for p in [BATCH / f"{n}.txt" for n in batch] + [CAUSES / f"{n}.txt" for n in further]:
        check_answer(load(p), diagnose, (rule,))


def test_a_mac_conda_text_is_read_as_a_mac_and_told_there_is_no_cuda():
    """conda's `Platform: osx-arm64` says macOS: the answer is the Mac's (MPS), with no Linux command."""
    case = load(CAUSES / "nowheel_libmamba_pytorch_cuda117_osx_arm64_animatediff.txt")
    d = diagnose(case.body)
    assert d.platform is not None and d.platform.os == "macos"
    assert fix_has(d.top, "mps") and platform_ok(d, "macos")


def test_cannot_find_lcuda_on_native_linux_is_not_wsl():
    case = load(CAUSES / "negatives" / "ld_cannot_find_lcuda_native_linux_triton.txt")
    d = diagnose(case.body)
    assert all(m.category != "wsl_libcuda_not_symlink" for m in d.matches), [(m.category, m.rule) for m in d.matches]


def test_a_python_run_method_is_no_runfile():
    """`self.run()` in a multiprocessing traceback is not a CUDA .run installer: a worker's "No space left on device"
    there is shared memory (errors_unrelated_p), not the installer's disk."""
    case = load(FIXTURES / "errors_unrelated_p" / "shm_docker_no_space_nnunet_predict_workers.txt")
    assert not [m for m in diagnose(case.body).matches if m.category == "runfile_gzip_invalid"]
