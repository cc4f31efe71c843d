"""The apps people run on the GPU (ComfyUI, A1111/Forge, Ollama, llama.cpp, vLLM, ONNX Runtime, TensorFlow, JAX,
Triton): real texts collected for issue 25 (tests/fixtures/errors_causes_s3, URLs in its SOURCE.md), each pinned to
its category, and to the fix its thread states for the thread's platform; and real texts with the same words that are
no setup failure (errors_unrelated_s3) give no answer."""
from __future__ import annotations

from pathlib import Path

import pytest

from diagnose_helpers import diagnose
from heldout_score import fix_has, load, platform_ok

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
CAUSES = sorted((FIXTURES / "errors_causes_s3").glob("*.txt"))
NEGATIVES = sorted((FIXTURES / "errors_unrelated_s3").glob("*.txt"))
# the texts whose stated fix the plan does not hold
NOT_FIXED = {
    # the thread reinstalled torch with python_embeded's own pip; with no facts of this machine the plan's install
    # step (the recommendation) cannot be filled, and the sentence names the index but not the portable Python
    "comfyui_portable_update_cpu_torch_python_embeded.txt",
}
# class -> (rule, texts): each rule answers texts of more than one thread
CLASSES = {
    "webui_cuda_test": ("webui_torch_cuda_test_failed", ["webui_torch_not_able_to_use_gpu_cu118_reinstall",
                                                          "webui_forge_torch_not_able_to_use_gpu_skip_test",
                                                          "webui_windows_venv_assert_torch_not_able_launch_py",
                                                          "webui_win11_rtx3080_reinstalled_nvidia_driver"]),
    "llama_cpp_cpu_build": ("llama_cpp_cpu_build", ["llamacpp_python_blas0_after_update_cublas_rebuild",
                                                    "llamacpp_python_blas0_n_gpu_layers_ignored",
                                                    "llamacpp_python_windows_conda_blas0_a5000",
                                                    "llamacpp_windows_not_compiled_with_gpu_offload"]),
    "vllm_platform": ("vllm_no_cuda_platform", ["vllm_failed_infer_device_type_pynvml_deepseek_awq",
                                                "vllm_failed_infer_device_type_v072_title",
                                                "vllm_dynamo_failed_infer_device_type_traceback",
                                                "vllm_8xv100_failed_infer_device_type_ld_library_path"]),
    "onnxruntime_cpu_package": ("onnxruntime_cpu_package", ["ort_colab_cpu_and_gpu_packages_both_installed",
                                                            "ort_cuda_provider_not_in_available_g2pw",
                                                            "ort_animatediff_both_packages_cuda_provider_missing",
                                                            "ort_pip_onnxruntime_cpu_failed_to_create_cuda_provider"]),
    "triton_too_old": ("triton_gpu_too_old", ["triton_gtx1080_too_old_nanogpt_compile",
                                              "triton_1080ti_too_old_nnunet_torchdynamo_disable",
                                              "triton_chattts_zh_gtx1060_dynamo_warning"]),
    "tf_dlopen": ("tf_cannot_dlopen_gpu_libs", ["tf_behaviormetrics_cannot_dlopen_libcudnn8_libcusolver11",
                                                "tf212_cannot_dlopen_some_gpu_libraries_empty_list"]),
    "webui_amd_fork": ("webui_amd_fork_on_nvidia", ["webui_stabilitymatrix_directml_fork_on_rtx3080"]),
    "onnxruntime_provider_failed": ("onnxruntime_cuda_provider_failed", ["ort_fastt5_failed_to_create_cuda_provider",
                                                                         "ort_windows_loadlibrary_126_providers_cuda_dll"]),
    "resume": ("gpu_lost_after_resume", ["ollama_sleep_cudart_init_999_gentoo", "ollama_hibernate_sleep_no_gpu_after_resume_debian"]),
    "ggml_unknown": ("cuda_unknown_error", ["llamacpp_server_cuda_unknown_error_modprobe_uvm", "ollama_nvcuda_init_999_uvm_reload_proxmox"]),
}


def test_the_collection_is_there():
    assert len(CAUSES) >= 20 and len(NEGATIVES) >= 8
    assert sum(1 for p in CAUSES if "fix-has" in load(p).headers) >= 20


@pytest.mark.parametrize("path", CAUSES, ids=lambda p: p.stem)
def test_category_and_fix(path):
    case = load(path)
    d = diagnose(case.body)
    assert d.top is not None and d.top.category == case.expect, (path.name, [(m.category, m.rule) for m in d.matches])
    spec = case.headers.get("fix-has")
    if spec and path.name not in NOT_FIXED:
        assert fix_has(d.top, spec), (path.name, d.top.fix)
        assert platform_ok(d, case.headers["platform"]), (path.name, d.platform)


def test_the_pinned_text_is_still_not_fixed():
    """When the plan learns to name the portable Python without facts, strike it off NOT_FIXED."""
    for name in NOT_FIXED:
        case = load(FIXTURES / "errors_causes_s3" / name)
        assert not fix_has(diagnose(case.body).top, case.headers["fix-has"]), name


@pytest.mark.parametrize("cls", sorted(CLASSES), ids=str)
def test_each_class_rule_answers_every_thread_of_it(cls):
    rule, names = CLASSES[cls]
    for n in names:
        d = diagnose(load(FIXTURES / "errors_causes_s3" / f"{n}.txt").body)
        assert d.top is not None and d.top.rule == rule, (n, [(m.category, m.rule) for m in d.matches])


@pytest.mark.parametrize("path", NEGATIVES, ids=lambda p: p.stem)
def test_no_answer_for_the_same_words_without_a_failure(path):
    d = diagnose(load(path).body)
    assert not d.matches, [(m.category, m.rule) for m in d.matches]


def test_a_failure_word_that_states_a_condition_is_no_report():
    """"cannot find it if it's not on the LD_LIBRARY_PATH" next to libcudnn describes TensorFlow, it reports no failure;
    the same library named next to a failure that happened is still one."""
    d = diagnose(load(FIXTURES / "errors_unrelated_s3" / "docs_rstudio_tf212_cudnn_ld_library_path.txt").body)
    assert not d.matches, [(m.category, m.rule) for m in d.matches]
    d = diagnose("TF 2.12 uses the pip package that contains libcudnn.so.8. Unfortunately, TF cannot find it.")
    assert d.top is not None and d.top.category == "cudnn_missing"


def test_a_launch_py_line_that_only_tests_for_cuda_is_no_webui_failure():
    """A1111's own check quoted as source (issue 25 item 4) stays silent, the assert it raises does not."""
    quoted = load(FIXTURES / "errors_unrelated_s3" / "webui_launch_py_cuda_check_source_line.txt").body
    assert not diagnose(quoted).matches
    d = diagnose("AssertionError: Torch is not able to use GPU; add --skip-torch-cuda-test to COMMANDLINE_ARGS variable to disable this check")
    assert d.top is not None and d.top.rule == "webui_torch_cuda_test_failed"


def test_llama_cpp_warning_with_the_cuda_backend_loaded_is_no_cpu_build():
    body = load(FIXTURES / "errors_unrelated_s3" / "llamacpp_windows_cuda_backend_loaded_spurious_warning.txt").body
    assert not diagnose(body + "\nAVX = 1 | BLAS = 0 | SSE3 = 1 |").matches


def test_vllm_plan_upgrades_pynvml_through_the_install_builder():
    d = diagnose(load(FIXTURES / "errors_causes_s3" / "vllm_dynamo_failed_infer_device_type_traceback.txt").body)
    argv = d.top.fix_steps[0].argv[0]
    assert argv[1:4] == ("-m", "pip", "install") and "pynvml>=12" in argv


def test_onnxruntime_plan_removes_both_packages_then_installs_the_gpu_one():
    d = diagnose(load(FIXTURES / "errors_causes_s3" / "ort_cuda_provider_not_in_available_g2pw.txt").body)
    first, second = d.top.fix_steps[0].argv[0], d.top.fix_steps[1].argv[0]
    assert first[-3:] == ("-y", "onnxruntime", "onnxruntime-gpu") and "uninstall" in first
    assert "install" in second and "onnxruntime-gpu" in second


def test_triton_answer_keeps_pytorch_and_turns_compile_off():
    d = diagnose(load(FIXTURES / "errors_causes_s3" / "triton_gtx1080_too_old_nanogpt_compile.txt").body)
    assert d.top.rule == "triton_gpu_too_old" and "TORCHDYNAMO_DISABLE=1" in d.top.fix and not d.top.fix_steps
