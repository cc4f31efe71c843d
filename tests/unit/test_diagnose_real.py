"""Diagnosis of real error texts users posted publicly (tests/fixtures/errors, each with its
source URL on its first line), with and without this machine's facts."""
from pathlib import Path

import pytest

from app.diagnose import diagnose
from app.diagnose.model import CATEGORIES
from app.facts import (CudaInfo, DriverInfo, EnvInfo, Facts, Gpu, OsInfo, PackageInfo, PythonEnv, TorchInfo)

ERRORS = Path(__file__).resolve().parent.parent / "fixtures" / "errors"

# file -> (category, subcode or None)
TABLE = {
    # issue 25's causes (training texts; the held-out ones are in ../errors_heldout_j)
    "rt_cudart11_tsne_import.txt": ("cuda_runtime_missing", "runtime_missing"),
    "rt_cudart12_ollama_runner.txt": ("cuda_runtime_missing", "runtime_missing"),
    "rt_cublas13_instantsfm.txt": ("cuda_runtime_missing", "runtime_missing"),
    "rt_cublas11_torch_preload.txt": ("cuda_runtime_missing", "torch_wheel_libs"),
    "rt_cudart11_tf_dso_loader.txt": ("cuda_runtime_missing", None),
    "dll_c10_french_webui.txt": ("windows_dll_load", "torch_dll"),
    "dll_fbgemm_1click_venv.txt": ("windows_dll_load", "torch_dll"),
    "dll_asmjit_vc_redist_warning.txt": ("windows_dll_load", "torch_dll"),
    "dll_c10_cuda_winerror127.txt": ("windows_dll_load", "torch_dll"),
    "nowheel_cu113_pin_lunar.txt": ("no_torch_wheel", "local_version_tag"),
    "nowheel_old_pin_new_python.txt": ("no_torch_wheel", None),
    "nowheel_requirements_windows.txt": ("no_torch_wheel", None),
    "mig_two_uuids_invalid_ordinal.txt": ("mig_mode", None),
    "stub_cutlass_detect_device.txt": ("libcuda_stub", None),
    "stub_nccl_warn_horovod.txt": ("libcuda_stub", None),
    "stub_numba_undefined_symbol.txt": ("libcuda_stub", None),
    "hash_torch251_windows_download.txt": ("install_download_corrupt", "checksum_mismatch"),
    "hash_torch221_conda_installer.txt": ("install_download_corrupt", "checksum_mismatch"),
    "conda_cudatoolkit_corrupt_zh.txt": ("install_download_corrupt", "conda_cache_corrupt"),
    "conda_pytorch_corrupt_windows.txt": ("install_download_corrupt", "conda_cache_corrupt"),
    "nospace_torch_download_windows.txt": ("install_download_corrupt", "disk_full"),
    "nospace_torch_pip_steamship.txt": ("install_download_corrupt", "disk_full"),
    "trt_unsupported_sm_a6000_trt7.txt": ("tensorrt_unsupported_sm", None),
    "trt_unsupported_sm_rtx3060_win.txt": ("tensorrt_unsupported_sm", None),
    "trt_sm70_tensorrt_llm.txt": ("tensorrt_unsupported_sm", None),
    "resume_nix_cuda_unknown_after_wake.txt": ("gpu_lost_after_resume", None),
    "resume_jax_cuinit_unknown.txt": ("gpu_lost_after_resume", None),
    "resume_debian_suspend_debugging.txt": ("gpu_lost_after_resume", None),
    "busy_centernet_caching_allocator.txt": ("cuda_devices_busy", None),
    "busy_llamacpp_grid_vgpu.txt": ("cuda_devices_busy", None),
    "busy_cluster_exclusive_thread.txt": ("cuda_devices_busy", "compute_mode_exclusive"),
    "nki_ckks_gtest.txt": ("no_kernel_image", "no_kernel_image"),
    "nki_cuda_memtest_gt720.txt": ("no_kernel_image", None),
    "nki_cuda_samples_vectoradd.txt": ("no_kernel_image", None),
    "nki_runtime_async.txt": ("no_kernel_image", None),
    "nki_sm120_warning_laptop.txt": ("no_kernel_image", "wheel_lacks_arch"),
    "nki_sm120_warning_docker.txt": ("no_kernel_image", "wheel_lacks_arch"),
    "cudnn_ops_infer8_whisper.txt": ("cudnn_missing", "cudnn_lib_missing"),
    "cudnn_ops_infer8_stream_whisper.txt": ("cudnn_missing", None),
    "cudnn_cnn_infer8_libcuda_sadtalker.txt": ("cudnn_missing", "libcuda_missing"),
    "cudnn_cnn_infer8_libnvrtc_sdnext.txt": ("cudnn_missing", "nvrtc_missing"),
    "cudnn9_unable_to_load_any_whisperlivekit.txt": ("cudnn_missing", "cudnn_lib_missing"),
    "cudnn9_windows_dll_videolingo.txt": ("cudnn_missing", "cudnn_lib_missing"),
    "nvcc_flash_attn_uv_wrapped.txt": ("nvcc_not_found", None),
    "nvcc_flash_attn_pip_linux.txt": ("nvcc_not_found", None),
    "nvcc_cuda_home_not_set_ci.txt": ("nvcc_not_found", None),
    "nvcc_version_mismatch_droidcalib.txt": ("nvcc_not_found", "toolkit_version_mismatch"),
    "nvcc_version_mismatch_wrapped.txt": ("nvcc_not_found", "toolkit_version_mismatch"),
    "nvcc_unsupported_arch_fastllm.txt": ("nvcc_not_found", "toolkit_too_old_for_gpu"),
    "unavail_no_driver_centos.txt": ("cuda_unavailable", "no_driver"),
    "unavail_no_driver_assert_mac.txt": ("cuda_unavailable", "no_driver"),
    "unavail_not_compiled_detectron2.txt": ("cuda_unavailable", "cpu_wheel"),
    "unavail_no_gpus_visible_devices.txt": ("cuda_unavailable", "no_visible_gpu"),
    "cudnn_ns_conv2d_wrapped.txt": ("cudnn_not_supported", None),
    "cudnn_ns_backward_dpgn.txt": ("cudnn_not_supported", None),
    "drv_insuff_bandwidthtest_win.txt": ("driver_insufficient", None),
    "drv_insuff_onnxruntime.txt": ("driver_insufficient", None),
    "drv_insuff_bladebit.txt": ("driver_insufficient", None),
    "drv_insuff_thc_pytorch.txt": ("driver_insufficient", None),
    "drv_insuff_wsl_blackscholes.txt": ("driver_insufficient", None),
    "mismatch_open_modules_570.txt": ("driver_lib_mismatch", None),
    "mismatch_intel_ci_550.txt": ("driver_lib_mismatch", None),
    "mismatch_slurm_plain.txt": ("driver_lib_mismatch", None),
    "nvml_smi_no_comm_selfhosted.txt": ("nvml_init_failed", "driver_not_loaded"),
    "nvml_smi_no_comm_wrapped.txt": ("nvml_init_failed", "driver_not_loaded"),
    "nvml_unknown_error_docker.txt": ("nvml_init_failed", "container_lost_devices"),
    "nvml_unknown_error_daemon_reload.txt": ("nvml_init_failed", None),
    "oom_new_format_process_other.txt": ("oom", "too_small"),
    "oom_new_format_fragmented.txt": ("oom", "too_small"),
    "oom_new_format_fragmented_lerf.txt": ("oom", "fragmentation"),
    "oom_new_format_too_small.txt": ("oom", "too_small"),
    "oom_old_format_too_small_unilm.txt": ("oom", "too_small"),
    "oom_old_format_other_process.txt": ("oom", "other_process"),
    "oom_cuda_error_out_of_memory.txt": ("oom", "unknown"),
    "oom_fork_reinit_pycls.txt": ("oom", "child_contexts"),
    "runfile_md5_checksums_zed.txt": ("runfile_gzip_invalid", "corrupt_download"),
    "runfile_md5_checksums_empty.txt": ("runfile_gzip_invalid", None),
    "runfile_html_instead_of_runfile.txt": ("runfile_gzip_invalid", None),
    "runfile_no_space_cuda118_ci.txt": ("runfile_gzip_invalid", "no_space"),
    "runfile_no_space_cuda128_log.txt": ("runfile_gzip_invalid", "no_space"),
    "nouveau_dmesg_probe_not_called.txt": ("nouveau_conflict", None),
    "nouveau_installer_apollo.txt": ("nouveau_conflict", None),
    "nouveau_installer_azure.txt": ("nouveau_conflict", None),
    "secureboot_insmod_key_rejected.txt": ("secure_boot", "unsigned_module"),
    "secureboot_required_key.txt": ("secure_boot", "unsigned_module"),
    "secureboot_installer_ubuntu2404.txt": ("secure_boot", "module_load_failed"),
    "unknown_a1111.txt": ("cuda_error_unknown", None),
    "unknown_rank0_wsl.txt": ("cuda_error_unknown", None),
    "unknown_init_env_yolov5.txt": ("cuda_error_unknown", None),
    "unknown_init_after_suspend.txt": ("cuda_error_unknown", None),
    "unknown_fallen_off_bus_dmesg.txt": ("cuda_error_unknown", "gpu_fell_off_bus"),
    "unknown_fallen_off_bus_multiline.txt": ("cuda_error_unknown", "gpu_fell_off_bus"),
    "wsl_libcuda_symlink_debian.txt": ("wsl_libcuda_not_symlink", None),
    "wsl_libcuda_symlink_ldconfig_real.txt": ("wsl_libcuda_not_symlink", None),
    "wsl_linux_driver_dkms_headers.txt": ("wsl_linux_driver_installed", None),
    "wsl_dxg_ioctl_failed.txt": ("wsl_dxg_missing", None),
    "wsl_dxcore_init_failed.txt": ("wsl_dxg_missing", None),
    "wsl_gpu_blocked_l40s.txt": ("wsl_gpu_access_blocked", None),
    "wsl_gpu_blocked_linux_utils.txt": ("wsl_gpu_access_blocked", None),
    "wsl_smi_segfault_zsh.txt": ("wsl_nvidia_smi_failed", "smi_crash"),
    "wsl_smi_no_comm_driver_not_loaded.txt": ("nvml_init_failed", "driver_not_loaded"),  # text alone: see the WSL-facts test
    "other_device_assert_index.txt": ("other", "device_side_assert"),
    "other_device_assert_wrapped.txt": ("other", "device_side_assert"),
    "other_illegal_memory_access.txt": ("other", "illegal_memory_access"),
    "other_apt_unable_to_locate_cuda.txt": ("other", "nvidia_repo_missing"),
    "other_apt_no_candidate_nvcc.txt": ("other", "nvidia_repo_missing"),
    "other_dpkg_overwrite_nvidia.txt": ("other", "mixed_driver_packages"),
    "other_undefined_symbol_flash_attn.txt": ("other", "extension_abi_mismatch"),
    # setup failures outside the first categories, and more wordings of known ones
    "docker_no_gpu_driver_bundlesdf.txt": ("container_toolkit_missing", None),
    "container_requires_cuda128_petric.txt": ("driver_insufficient", "container_needs_newer_driver"),
    "dkms_zen_kernel_update.txt": ("dkms_build_failed", "module_build_failed"),
    "dkms_arch_make_log_compiler_warning.txt": ("dkms_build_failed", "module_build_failed"),
    "apt_held_cuda_drivers_ansible.txt": ("apt_broken_packages", "mixed_driver_families"),
    "apt_unmet_fix_broken_zoneminder.txt": ("apt_broken_packages", None),
    "gcc_unsupported_gnu_xmrstak.txt": ("gcc_mismatch", "nvcc_host_compiler_too_new"),
    "gcc_unsupported_gnu_short.txt": ("gcc_mismatch", None),
    "gcc_cc_version_check_fedora.txt": ("gcc_mismatch", "kernel_compiler_differs"),
    "nccl_unhandled_system_torch.txt": ("nccl_error", None),
    "nccl_tests_shm_docker.txt": ("nccl_error", None),
    "xid_dmesg_ctime_13_109.txt": ("gpu_hardware_error", None),
    "xid_94_contained_ecc_kmsg.txt": ("gpu_hardware_error", "memory_ecc"),
    "tls_pip_local_issuer_pytorch.txt": ("network_error", "tls_untrusted"),
    "tls_apt_expired_chain_gobysoft.txt": ("network_error", "tls_untrusted"),
    "proxy_pip_connection_reset.txt": ("network_error", "proxy"),
    "dns_apt_update_vscode.txt": ("network_error", "dns"),
    "timeout_pip_connect_pytorch_index.txt": ("network_error", "timeout"),
    "cudnn_ver_pytorch_cogat.txt": ("cudnn_version_mismatch", None),
    "cudnn_ver_pytorch_traceback_srdvc.txt": ("cudnn_version_mismatch", None),
    "cudnn_ver_tf_deeplab2.txt": ("cudnn_version_mismatch", None),
    "cudnn_ver_tf_kaggle_9.txt": ("cudnn_version_mismatch", None),
    "cudnn_dll_winerror126_textgen.txt": ("cudnn_missing", "dll_load_failed"),
    "cudnn_dll_error_code_126_whisper.txt": ("cudnn_missing", "dll_load_failed"),
    "wsl_no_adapters_grounded_sam.txt": ("wsl_dxg_missing", "no_adapters"),
    "oom_tf_allocating_tensor_models.txt": ("oom", None),
    "oom_cublas_alloc_failed_qwen.txt": ("oom", None),
    "nvcc_ubuntu_command_not_found.txt": ("nvcc_not_found", None),
    "nvcc_powershell_not_recognized.txt": ("nvcc_not_found", None),
    "nvcc_unable_to_execute_alphapose.txt": ("nvcc_not_found", None),
    "nvcc_zh_locale_not_found.txt": ("nvcc_not_found", None),
    "smi_bash_not_found_container.txt": ("driver_missing", None),
    "smi_filenotfound_notebook.txt": ("driver_missing", "smi_not_found"),
    "smi_windows_zh_not_recognized.txt": ("driver_missing", "smi_not_found"),
    "libcuda_tensorrt_pro_import.txt": ("driver_missing", "libcuda_missing"),
    "unavail_deserialize_cuda_zh.txt": ("cuda_unavailable", None),
    "mismatch_nvrm_dmesg_popos.txt": ("driver_lib_mismatch", None),
    "mismatch_nvrm_named_client_dmesg.txt": ("driver_lib_mismatch", None),
    "mismatch_nvrm_journalctl_toolbox.txt": ("driver_lib_mismatch", None),
    "runfile_extraction_failed_spack.txt": ("runfile_gzip_invalid", None),
    "runfile_installer_log_extraction.txt": ("runfile_gzip_invalid", None),
    "smi_conda_build_box_not_found.txt": ("driver_missing", "smi_not_found"),
    "fabric_manager_802_lisa_log.txt": ("cuda_unavailable", "fabric_manager_not_running"),
    "fabric_manager_bandwidthtest_802.txt": ("cuda_unavailable", "fabric_manager_not_running"),
    "pagefile_1455_cudnn_dll.txt": ("other", "windows_pagefile"),
    "pagefile_1455_zh_spawn.txt": ("other", "windows_pagefile"),
    "no_devices_rminitadapter_gsp.txt": ("nvml_init_failed", "no_devices"),
    "no_devices_smi_syslog_5090.txt": ("nvml_init_failed", "no_devices"),
}
NOT_ERRORS = {"util_dmon_deepspeech.txt"}  # utilization samples, tested in test_diagnose_util


def load(name: str) -> tuple[str, str]:
    raw = (ERRORS / name).read_text(encoding="utf-8")
    first, _, rest = raw.partition("\n")
    assert first.startswith("# source: https://"), name
    return first[len("# source: "):], rest


def test_every_fixture_has_a_source_and_a_row():
    files = {p.name for p in ERRORS.glob("*.txt")}
    assert files - NOT_ERRORS == set(TABLE), (files - NOT_ERRORS) ^ set(TABLE)
    for name in files:
        url, text = load(name)
        assert text.strip(), name
    assert len(TABLE) >= 110


def test_the_table_covers_every_category():
    covered = {cat for cat, _ in TABLE.values()} | {"wsl_nvidia_smi_failed"}
    assert set(CATEGORIES) <= covered, set(CATEGORIES) - covered


@pytest.mark.parametrize("name", sorted(TABLE))
def test_real_error_text(name):
    category, subcode = TABLE[name]
    _, text = load(name)
    d = diagnose(text)
    assert d.matches, f"{name}: nothing recognised"
    top = d.matches[0]
    assert top.category == category, (name, [(m.category, m.confidence) for m in d.matches])
    if subcode:
        assert top.subcode == subcode, (name, top.subcode)
    assert 0 < top.confidence <= 1
    assert top.root_cause and top.fix and "{" not in top.root_cause + top.fix
    assert any(e.source == "text" for e in top.evidence)
    assert top.line is not None and top.line >= 1
    # the JSON shape the CLI prints
    j = d.to_json()
    m = j["matches"][0]
    for key in ("category", "rule", "confidence", "root_cause", "evidence", "fix", "fix_steps"):
        assert key in m


def _facts(**kw) -> Facts:
    return Facts(source="test", **kw)


def test_installer_module_failure_with_secure_boot_on():
    _, text = load("secureboot_installer_ubuntu2404.txt")
    alone = diagnose(text).matches[0]
    f = _facts(driver=DriverInfo(state="not_loaded", secure_boot=True, nouveau_loaded=False), os=OsInfo(package_manager="apt"))
    m = diagnose(text, f).matches[0]
    assert m.category == "secure_boot" and m.subcode == "unsigned_module"
    assert m.confidence > alone.confidence
    assert any(e.source == "facts" and "Secure Boot is enabled" in e.message for e in m.evidence)
    enrol = [s for s in m.fix_steps if s.id == "enroll_mok_key"]
    assert enrol and enrol[0].manual  # mokutil is not on the helper's allow-list: the user runs it


def test_installer_module_failure_with_nouveau_loaded():
    _, text = load("secureboot_installer_ubuntu2404.txt")
    f = _facts(driver=DriverInfo(state="not_installed", secure_boot=False, nouveau_loaded=True))
    m = diagnose(text, f).matches[0]
    assert m.category == "nouveau_conflict"


def test_smi_failure_inside_wsl_moves_to_the_wsl_categories():
    _, text = load("wsl_smi_no_comm_driver_not_loaded.txt")
    wsl = _facts(os=OsInfo(wsl=2, kernel="5.15.90.1-microsoft-standard-WSL2"), driver=DriverInfo(state="host"))
    assert diagnose(text, wsl).matches[0].category == "wsl_nvidia_smi_failed"
    wsl_drv = wsl.replace(cuda=CudaInfo(packages=(PackageInfo("nvidia-utils-510", "510.108.03-0ubuntu1"),
                                                  PackageInfo("libnvidia-compute-510", "510.108.03-0ubuntu1"))))
    m = diagnose(text, wsl_drv).matches[0]
    assert m.category == "wsl_linux_driver_installed"
    purge = [s for s in m.fix_steps if s.id == "remove_linux_driver_in_wsl"]
    assert purge and purge[0].argv[0][:3] == ("apt-get", "purge", "-y")
    assert "nvidia-utils-510" in purge[0].argv[0] and not purge[0].manual


def _torch_facts(arch, cc="8.6", version="2.5.1+cu124", cuda="12.4", **kw):
    t = TorchInfo(version=version, cuda=cuda, available=True, arch_list=tuple(arch), cudnn="9.1.0")
    py = PythonEnv(path="/home/u/.venvs/gpu/bin/python", version="3.11.9", kind="venv", torch=t)
    return _facts(gpus=(Gpu(index=0, name="NVIDIA GeForce RTX 3090", compute_capability=cc, source="nvml"),),
                  python=py, pythons=(py,), driver=DriverInfo(state="ok", version="550.54.14", cuda_version="12.4",
                                                               modules_loaded=("nvidia", "nvidia_uvm")), **kw)


def test_no_kernel_image_compares_arch_list_with_the_gpu():
    _, text = load("nki_runtime_async.txt")
    lacking = _torch_facts(["sm_50", "sm_60", "sm_70", "sm_75", "sm_80"], cc="12.0")
    m = diagnose(text, lacking).matches[0]
    assert m.subcode == "wheel_lacks_arch"
    assert any("sm_120" in e.message and e.source == "facts" for e in m.evidence)
    covered = _torch_facts(["sm_50", "sm_60", "sm_70", "sm_75", "sm_80", "sm_86", "sm_90"], cc="8.6")
    m2 = diagnose(text, covered).matches[0]
    assert m2.subcode == "extension_lacks_arch"  # torch covers sm_86: an extension lacks it
    assert "TORCH_CUDA_ARCH_LIST" in m2.fix
    assert m2.confidence < m.confidence


def test_cuda_unavailable_causes_from_facts():
    _, text = load("unavail_no_gpus_visible_devices.txt")
    base = _torch_facts(["sm_80", "sm_86"])
    cpu = base.replace(python=base.python.replace(torch=TorchInfo(version="2.5.1+cpu", cuda=None, available=False)))
    cpu = cpu.replace(pythons=(cpu.python,))
    assert diagnose(text, cpu).matches[0].subcode == "cpu_wheel"
    uvm = base.replace(driver=base.driver.replace(modules_loaded=("nvidia", "nvidia_drm")))
    m = diagnose(text, uvm).matches[0]
    assert m.subcode == "nvidia_uvm_missing" and "nvidia_uvm" in m.root_cause
    cvd = base.replace(env=EnvInfo(variables={"CUDA_VISIBLE_DEVICES": "1"}))
    m = diagnose(text, cvd).matches[0]
    assert m.subcode == "cuda_visible_devices"
    assert any("CUDA_VISIBLE_DEVICES='1'" in e.message for e in m.evidence)
    prohibited = base.replace(gpus=(base.gpus[0].replace(compute_mode="Prohibited"),))
    assert diagnose(text, prohibited).matches[0].subcode == "compute_mode_prohibited"


def test_nvcc_missing_with_and_without_a_toolkit():
    from app.facts import CudaToolkit

    _, text = load("nvcc_flash_attn_pip_linux.txt")
    none = _torch_facts(["sm_86"], cuda="12.8", version="2.7.1+cu128")
    m = diagnose(text, none).matches[0]
    assert m.subcode == "toolkit_missing" and "12.8" in m.fix
    steps = {s.id: s for s in m.fix_steps}
    assert steps["install_cuda_toolkit"].argv == (("apt-get", "install", "-y", "cuda-toolkit-12-8"),)
    have = none.replace(cuda=CudaInfo(toolkits=(CudaToolkit(path="/usr/local/cuda-12.8", version="12.8"),)))
    assert diagnose(text, have).matches[0].subcode == "nvcc_not_on_path"


def test_cudnn_major_told_apart():
    _, text = load("cudnn9_unable_to_load_any_whisperlivekit.txt")
    m = diagnose(text).matches[0]
    assert "cuDNN 9" in m.root_cause
    assert any(s.argv and "nvidia-cudnn-cu12>=9,<10" in s.argv[0] for s in m.fix_steps)
    _, text8 = load("cudnn_ops_infer8_stream_whisper.txt")  # wants 8, the machine has 9 (its ldconfig listing)
    m8 = diagnose(text8).matches[0]
    assert m8.subcode == "cudnn_major_mismatch" and "cuDNN 8" in m8.root_cause
    assert any(s.argv and "nvidia-cudnn-cu12<9" in s.argv[0] for s in m8.fix_steps)


def test_mismatch_evidence_from_module_version():
    _, text = load("mismatch_open_modules_570.txt")
    f = _facts(driver=DriverInfo(state="mismatch", version="570.124.06", kernel_module_version="570.86.15"))
    m = diagnose(text, f).matches[0]
    assert m.category == "driver_lib_mismatch"
    assert any("570.86.15" in e.message for e in m.evidence)
    assert any("570.124" in e.message and e.source == "text" for e in m.evidence)


def test_no_gpu_at_all():
    _, text = load("unavail_no_driver_centos.txt")
    f = _facts(os=OsInfo(platform="linux", package_manager="dnf"), driver=DriverInfo(state="not_installed"))
    m = diagnose(text, f).matches[0]
    assert m.subcode == "no_gpu" and "no NVIDIA GPU" in m.root_cause


def _hard_wrap(text: str, width: int) -> str:
    out = []
    for line in text.splitlines():
        while len(line) > width:  # a terminal cuts at the column, mid-word
            out.append(line[:width])
            line = line[width:]
        out.append(line)
    return "\n".join(out)


@pytest.mark.parametrize("width", [50, 80, 120])
def test_terminal_hard_wraps_do_not_change_the_diagnosis(width):
    wrong = []
    for name, (category, _) in TABLE.items():
        _, text = load(name)
        d = diagnose(_hard_wrap(text, width))
        top = d.matches[0].category if d.matches else None
        if top != category:
            wrong.append((name, top))
    assert wrong == []


def test_generic_tar_errors_are_not_a_cuda_runfile():
    # https://github.com/nikole-dunixi/git-openssl-shellscript/issues/16: an unrelated tarball
    text = "gzip: stdin: not in gzip format\ntar: Child returned status 1\ntar: Error is not recoverable: exiting now\n"
    assert diagnose(text).matches == ()
    assert diagnose("sh cuda_12.8.1_570.124.06_linux.run\n" + text).matches[0].category == "runfile_gzip_invalid"


def test_excerpt_keeps_whole_words_and_marks_cuts():
    from app.diagnose import diagnose
    text = ("x" * 30 + " some long preamble words here and there, NVIDIA GeForce GTX 1080 with CUDA capability sm_61 "
            "is not compatible with the current PyTorch installation and more words follow after it " + "yy " * 60)
    m = diagnose(text, None).matches[0]
    assert m.excerpt.startswith("\u2026") and m.excerpt.endswith("\u2026")
    words = set(text.split())
    assert all(w in words for w in m.excerpt.strip("\u2026").split()), m.excerpt  # nothing cut mid-word


def test_stray_bom_bytes_before_ascii_are_not_taken_for_utf16(tmp_path):
    from app.diagnose import diagnose_file
    err = "RuntimeError: CUDA error: no kernel image is available for execution on the device\n"
    stray = tmp_path / "stray.log"
    stray.write_bytes(b"\xff\xfe garbage\n" + err.encode())
    real16 = tmp_path / "ps.log"  # what PowerShell's `> file` writes: BOM + UTF-16-LE
    real16.write_bytes(err.encode("utf-16"))
    for p in (stray, real16):
        assert diagnose_file(p, None).matches[0].category == "no_kernel_image", p.name
