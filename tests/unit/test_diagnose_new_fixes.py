"""The fixes of the setup failures the diagnosis learned (container toolkit, DKMS rebuild, held packages,
matching PyTorch build, the wizard's CA bundle) as plan steps the runner and the helper accept, filled
from this machine's facts and from the error text; and the identifier fallback for wordings no rule
spells out."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.diagnose import diagnose, fix_plan
from diagnose_helpers import diagnose as diagnose_rec
from app.facts import CudaInfo, DriverInfo, Facts, Gpu, OsInfo, PackageInfo, PythonEnv, TorchInfo
from app.plan.model import Step, validate_step
from app.run.privileged import argv_allowed, check_edit

ERRORS = Path(__file__).resolve().parent.parent / "fixtures" / "errors"


def text(name: str) -> str:
    return (ERRORS / name).read_text(encoding="utf-8").partition("\n")[2]


def runnable(steps):
    assert steps
    for s in steps:
        assert isinstance(s, Step)
        assert validate_step(s) == [], (s.id, validate_step(s))
        if s.needs_root:
            for argv in s.commands:
                assert argv_allowed(s.kind, argv), (s.kind, argv)
            for e in s.edits:
                check_edit(s.kind, e)
    return steps


def ubuntu(**kw) -> Facts:
    return Facts(source="test", os=OsInfo(package_manager="apt", id="ubuntu", version_id="24.04", kernel="6.8.0-45-generic"), **kw)


def test_docker_without_toolkit_installs_and_registers_it():
    f = ubuntu(driver=DriverInfo(state="ok", version="550.120"), cuda=CudaInfo(packages=(PackageInfo("nvidia-driver-550", "550.120-0ubuntu1"),)))
    d = diagnose(text("docker_no_gpu_driver_bundlesdf.txt"), f)
    m = d.matches[0]
    assert m.category == "container_toolkit_missing" and m.subcode == "toolkit_not_installed"
    assert any("not installed on this machine" in e.message for e in m.evidence if e.source == "facts")
    steps = runnable(fix_plan(d, f))
    cmds = [c for s in steps for c in s.commands]
    assert ("apt-get", "install", "-y", "nvidia-container-toolkit") in cmds
    assert ("nvidia-ctk", "runtime", "configure", "--runtime=docker") in cmds and ("systemctl", "restart", "docker") in cmds
    assert all(s.needs_root for s in steps)


def test_docker_with_toolkit_installed_only_registers_it():
    f = ubuntu(cuda=CudaInfo(packages=(PackageInfo("nvidia-container-toolkit", "1.17.4-1"),)))
    d = diagnose(text("docker_no_gpu_driver_bundlesdf.txt"), f)
    assert d.matches[0].subcode == "runtime_not_configured"
    cmds = [c for s in runnable(fix_plan(d, f)) for c in s.commands]
    assert cmds == [("nvidia-ctk", "runtime", "configure", "--runtime=docker"), ("systemctl", "restart", "docker")]


def test_dkms_failure_rebuilds_for_the_kernel_the_text_names():
    f = ubuntu(driver=DriverInfo(state="not_loaded", kernel_headers_installed=True))
    d = diagnose(text("dkms_zen_kernel_update.txt").replace("6.4.1-zen1-1-zen", "6.8.0-45-generic"), f)  # an Ubuntu kernel
    m = d.matches[0]
    assert m.category == "dkms_build_failed"
    steps = runnable(fix_plan(d, f))
    cmds = [c for s in steps for c in s.commands]
    assert ("apt-get", "install", "-y", "linux-headers-6.8.0-45-generic") in cmds
    assert ("dkms", "autoinstall", "-k", "6.8.0-45-generic") in cmds
    assert steps[-1].reboot_required


def test_dkms_failure_on_arch_installs_the_kernel_flavours_headers_with_pacman():
    arch = Facts(source="test", os=OsInfo(package_manager="pacman", id="arch", kernel="6.4.1-zen1-1-zen"),
                 driver=DriverInfo(state="not_loaded", kernel_headers_installed=False))
    for facts in (arch, None, ubuntu()):  # this Arch machine, the text alone, and an Ubuntu machine it was pasted on
        d = diagnose(text("dkms_zen_kernel_update.txt"), facts)
        m = d.matches[0]
        assert m.category == "dkms_build_failed" and d.platform.package_manager == "pacman", facts
        argv = [a for s in m.fix_steps for a in s.argv]
        assert ("pacman", "-S", "--needed", "--noconfirm", "linux-zen-headers") in argv
        assert ("dkms", "autoinstall", "-k", "6.4.1-zen1-1-zen") in argv
        assert not any(a[0] == "apt-get" for a in argv)
    assert d.platform.foreign and any(e.key == "platform" for e in m.evidence)  # the Ubuntu machine's facts were not used
    assert arch is not None and diagnose(text("dkms_zen_kernel_update.txt"), arch).matches[0].subcode == "kernel_headers_missing"


def test_held_packages_are_released_by_name_and_the_families_named():
    f = ubuntu(cuda=CudaInfo(packages=(PackageInfo("nvidia-driver-535", "535.183.01-0ubuntu1"),)))
    d = diagnose(text("apt_held_cuda_drivers_ansible.txt"), f)
    m = d.matches[0]
    assert m.category == "apt_broken_packages" and m.subcode == "mixed_driver_families"
    assert "cuda-drivers" in m.root_cause and "one family" in m.fix.lower()
    steps = runnable(fix_plan(d, f))
    assert steps[0].commands == (("apt-mark", "unhold", "cuda-drivers", "nvidia-driver-440"),)
    assert ("apt-get", "install", "-f", "-y") in steps[1].commands


def test_cudnn_mismatch_reinstalls_the_recommended_build_into_the_failing_environment():
    t = TorchInfo(version="2.0.1+cu118", cuda="11.8", cudnn="8.2.4", available=True, arch_list=("sm_86",))
    py = PythonEnv(path="/home/u/sd/venv/bin/python", version="3.11.9", kind="venv", torch=t)
    f = ubuntu(python=py, pythons=(py,), gpus=(Gpu(index=0, name="NVIDIA GeForce RTX 3090", compute_capability="8.6"),),
               driver=DriverInfo(state="ok", version="570.133.07", cuda_version="12.8", modules_loaded=("nvidia", "nvidia_uvm")))
    d = diagnose_rec(text("cudnn_ver_pytorch_cogat.txt"), f)
    m = d.matches[0]
    assert m.category == "cudnn_version_mismatch" and "(8, 5, 0)" in m.root_cause and "(8, 3, 3)" in m.root_cause
    step = next(s for s in m.fix_steps if s.kind == "install_pytorch")
    argv = step.argv[0]
    assert argv[0] == "/home/u/sd/venv/bin/python" and argv[1:4] == ("-m", "pip", "install")
    assert "--force-reinstall" in argv and "--index-url" in argv
    assert argv[argv.index("--index-url") + 1].startswith("https://download.pytorch.org/whl/cu")
    assert any(a.startswith("torch==") for a in argv)
    assert not any(s.id == "check_recommendation" for s in m.fix_steps)  # a real command, not "run recommend"
    runnable(fix_plan(d, f))


def test_tls_failure_points_the_wizard_at_the_system_ca_bundle(tmp_path, monkeypatch):
    from app.config import load_config
    from app.diagnose.evidence import system_ca_bundle

    ca = system_ca_bundle()
    if ca is None:
        pytest.skip("no system CA bundle on this machine")
    cfg = tmp_path / "config.json"
    cfg.write_text(json.dumps({"mirrors": {"pypi_index_url": "https://pypi.example.com/simple"}}), encoding="utf-8")
    monkeypatch.setenv("GPU_WIZARD_CONFIG", str(cfg))
    f = ubuntu()
    d = diagnose(text("tls_pip_local_issuer_pytorch.txt"), f)
    m = d.matches[0]
    assert m.category == "network_error" and m.subcode == "tls_untrusted"
    assert "unable to get local issuer certificate" in m.root_cause
    (step,) = runnable(fix_plan(d, f))
    assert step.kind == "write_config" and not step.needs_root and step.commands == ()
    (edit,) = step.edits
    assert edit.path == str(cfg) and not edit.needs_root and edit.file_mode == 0o600
    probe = tmp_path / "written.json"
    probe.write_text(edit.content, encoding="utf-8")
    got = load_config(probe, env={}).mirrors
    assert got.ca_bundle == ca and got.pypi_index_url == "https://pypi.example.com/simple"  # merged, nothing lost


def test_an_unreadable_config_is_never_overwritten(tmp_path, monkeypatch):
    cfg = tmp_path / "config.json"
    cfg.write_text("{not json", encoding="utf-8")
    monkeypatch.setenv("GPU_WIZARD_CONFIG", str(cfg))
    d = diagnose(text("tls_pip_local_issuer_pytorch.txt"), ubuntu())
    assert fix_plan(d, ubuntu()) == []
    assert any(s.kind == "write_config" and s.manual for s in d.matches[0].fix_steps) or not d.matches[0].fix_steps


def test_nvidia_smi_missing_in_a_container_is_about_gpu_access():
    f = Facts(source="test", os=OsInfo(container="docker", package_manager="apt"))
    m = diagnose(text("smi_bash_not_found_container.txt"), f).matches[0]
    assert m.category == "driver_missing" and m.subcode == "container_without_gpu"
    assert "--gpus all" in m.fix
    m2 = diagnose(text("smi_bash_not_found_container.txt"), ubuntu(driver=DriverInfo(state="not_installed"))).matches[0]
    assert m2.subcode == "smi_not_found"


def test_xid_subcodes_follow_the_xid_catalogue():
    ecc = diagnose(text("xid_94_contained_ecc_kmsg.txt")).matches[0]
    assert (ecc.category, ecc.subcode) == ("gpu_hardware_error", "memory_ecc") and "94" in ecc.root_cause
    app = diagnose("[ 9.1] NVRM: Xid (PCI:0000:3b:00): 13, pid=42, name=python, Graphics Exception").matches[0]
    assert app.subcode == "app_fault"
    bus = diagnose("[ 9.1] NVRM: Xid (PCI:0000:3b:00): 79, pid=0, GPU has fallen off the bus.").matches[0]
    assert bus.category == "cuda_error_unknown" and bus.subcode == "gpu_fell_off_bus"  # the more specific rule wins


# --- the identifier fallback -------------------------------------------------------------

def test_a_wording_no_rule_spells_out_is_answered_from_its_identifiers_at_lower_confidence():
    # TensorFlow 2's eager out-of-memory wording (no "OOM when allocating" in it)
    t = ("tensorflow.python.framework.errors_impl.ResourceExhaustedError: failed to allocate memory [Op:AddV2]\n"
         "Call arguments received by layer 'dense' (type Dense): inputs=tf.Tensor(shape=(64, 4096), dtype=float32)")
    d = diagnose(t)
    assert d.matches, "nothing recognised"
    m = d.matches[0]
    assert m.category == "oom" and m.confidence <= 0.6
    assert any(e.key == "identifiers" and "resourceexhaustederror" in (e.value or "") for e in m.evidence)
    known = diagnose("RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB").matches[0]
    assert known.confidence > m.confidence


def test_the_fallback_ranks_the_rule_whose_identifiers_the_text_names_most():
    t = "nvidia-container-cli reported: with capabilities: [[gpu]] -- could not select device driver (daemon v27)"
    m = diagnose(t).matches[0]
    assert m.category == "container_toolkit_missing" and m.confidence <= 0.6


@pytest.mark.parametrize("t", [
    "nvcc --version\nCuda compilation tools, release 12.4, V12.4.131",  # names nvcc, but nothing failed
    "Successfully installed nvidia-smi-helper-0.1 libcuda-stubs-1.0",  # names libraries, nothing failed
    "INFO dkms: nvidia/550.120 installed for 6.8.0-45-generic",
    "docker run --gpus all nvidia/cuda:12.4.1-base nvidia-smi",
])
def test_the_fallback_needs_a_failure_not_just_a_name(t):
    assert not diagnose(t).matches, [(m.category, m.rule) for m in diagnose(t).matches]


def test_no_kernel_image_installs_the_build_the_recommendation_names_not_run_recommend():
    from app.choices import Choices
    from app.compat import load_db
    from app.plan.pytorch import install_argv, torch_packages
    from app.recommend import recommend

    t = TorchInfo(version="2.5.1+cu124", cuda="12.4", available=True, arch_list=("sm_50", "sm_60", "sm_70", "sm_75", "sm_80", "sm_86", "sm_90"))
    py = PythonEnv(path="/home/u/.venvs/gpu/bin/python", version="3.11.9", kind="venv", torch=t)
    f = ubuntu(python=py, pythons=(py,), gpus=(Gpu(index=0, name="NVIDIA GeForce RTX 5090", compute_capability="12.0"),),
               driver=DriverInfo(state="ok", version="575.57.08", cuda_version="12.9", modules_loaded=("nvidia", "nvidia_uvm")))
    linux = text("nki_sm120_warning_laptop.txt").replace("C:\\Hi3DGen_1Click_v04_Triton\\code\\venv\\lib\\site-packages\\torch\\cuda\\",
                                                         "/home/u/.venvs/gpu/lib/python3.11/site-packages/torch/cuda/")
    d = diagnose_rec(linux, f)
    m = d.matches[0]
    assert m.category == "no_kernel_image" and d.platform.python == py.path
    (step,) = [s for s in m.fix_steps if s.kind == "install_pytorch"]
    from app.config import load_config, mirrors_from

    rec = recommend(f, load_db())
    ch = Choices(mirrors=mirrors_from(load_config()))  # the wizard's own mirrors/proxy/CA, as the plan uses them
    want = list(install_argv(py.path, torch_packages(rec, ch), rec, ch, None))
    want.insert(want.index("install") + 1, "--force-reinstall")
    assert list(step.argv[0]) == want  # the plan's own command for the failing environment
    assert not any(s.id == "check_recommendation" for s in m.fix_steps)
    runnable(fix_plan(d, f))


@pytest.mark.parametrize("line,category", [
    # the shells' own "not found" forms (zsh, bash, Ubuntu's command-not-found, PowerShell, cmd)
    ("zsh: command not found: nvcc", "nvcc_not_found"),
    ("zsh: command not found: nvidia-smi", "driver_missing"),
    ("bash: nvcc: command not found", "nvcc_not_found"),
    ("Command 'nvcc' not found, but can be installed with:\n\nsudo apt install nvidia-cuda-toolkit", "nvcc_not_found"),
    ("Command 'nvidia-smi' not found, but can be installed with:\n\nsudo apt install nvidia-utils-535", "driver_missing"),
    ("nvidia-smi : The term 'nvidia-smi' is not recognized as the name of a cmdlet, function, script file, or operable program.", "driver_missing"),
    ("'nvcc' is not recognized as an internal or external command,\noperable program or batch file.", "nvcc_not_found"),
])
def test_not_found_in_every_shell(line, category):
    m = diagnose(line).matches
    assert m and m[0].category == category, (line, [(x.category, x.rule) for x in m])
