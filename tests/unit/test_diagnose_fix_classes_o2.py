"""The fix classes still missed on the held-out batches after tests/fixtures/errors_fixes_o (issue 25, fix quality),
each checked on real texts of the same family whose threads say what fixed them (tests/fixtures/errors_fixes_o2,
SOURCE.md there) and on the held-out texts it was found on: a GPU in Exclusive_Process compute mode (one process
per GPU, as on SGE/Slurm/LSF clusters); a driver too old whose CUDA PyTorch names ("found version 11040"), which gets
the PyTorch build for that CUDA through the install builder when the driver cannot be changed; an out-of-memory on a
full GPU whose cache is a small share of what PyTorch reserved is the batch's size, not fragmentation; "Found no NVIDIA
driver" first asks whether the machine has an NVIDIA GPU at all (a Colab or cloud CPU runtime: a GPU runtime); a GPU
that fails on a PCIe riser is the link (the slot's PCIe generation in the BIOS, the riser's seating and power); a library
that dlopens libcuda.so by name inside WSL needs /usr/lib/wsl/lib on LD_LIBRARY_PATH; pip's requirement line quoted
without its version list is "no wheel for this Python", and on macOS its fix is a supported Python, not "no CUDA there"; a TLS failure on
Windows or macOS gets that system's certificate advice (pip's truststore, the Windows store or the keychain, the
python.org "Install Certificates" step) and never this machine's CA bundle path (/etc/ssl/...), in its own steps or
as the --cert of an install command."""
from __future__ import annotations

from pathlib import Path

import pytest

from diagnose_helpers import diagnose
from heldout_score import fix_has, load, platform_ok, proposal_text

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
CASES = [load(p) for p in sorted((FIXTURES / "errors_fixes_o2").glob("*.txt"))]
HELDOUT = [load(FIXTURES / n) for n in (
    "errors_heldout_o/busy_safe_gpu_sge_exclusive_ddp.txt",
    "errors_heldout_o/driver_old_kronos_container_11040.txt",
    "errors_heldout_n/oom_aphantasia_samples_6gb.txt",
    "errors_heldout_o/hw_riser_pcie_gen_miner.txt",
    "errors_heldout_o/wsl_dlopen_libcuda_cuda_python.txt",
    "errors_heldout_n/nowheel_whisper_webui_macos_python.txt",
)]


def test_each_text_has_its_thread_and_fix():
    source = (FIXTURES / "errors_fixes_o2" / "SOURCE.md").read_text(encoding="utf-8")
    assert len(CASES) >= 1
    for c in CASES:
        assert c.headers["source"] in source and c.headers.get("fixed") and c.headers.get("fix-has"), c.path.name
        assert c.path.name.removesuffix(".txt") in source, c.path.name


@pytest.mark.parametrize("case", CASES + HELDOUT, ids=[c.path.name for c in CASES + HELDOUT])
def test_the_threads_fix_on_its_platform(case):
    d = diagnose(case.body)
    assert d.matches and d.top.category == case.expect, [(m.category, m.rule) for m in d.matches]
    assert platform_ok(d, case.headers["platform"]), d.platform
    assert fix_has(d.top, case.headers["fix-has"]), proposal_text(d.top)


def test_exclusive_mode_is_named_in_both_languages():
    """The one-process-per-GPU advice is the catalogue's, in English and Chinese, not only the admin's command."""
    from app import messages

    m = diagnose(HELDOUT[0].body).top
    en, zh = messages.match_text(m, "fix", "en"), messages.match_text(m, "fix", "zh_CN")
    assert "Exclusive_Process" in en and "DDP" in en
    assert "Exclusive_Process" in zh and "独占" in zh and "DDP" in zh


@pytest.mark.parametrize("found, cuda, variant", [("11040", (11, 4), "cu118"), ("11070", (11, 7), "cu118"),
                                                  ("12020", (12, 2), "cu126"), ("11000", (11, 0), None)])
def test_the_drivers_cuda_is_read_and_a_build_for_it_named(found, cuda, variant):
    from app.diagnose.values import driver_cuda

    assert driver_cuda(found) == cuda
    text = f"RuntimeError: The NVIDIA driver on your system is too old (found version {found})."
    d = diagnose(text)
    assert d.top.category == "driver_insufficient"
    steps = {s.id: s for s in d.top.fix_steps}
    if variant is None:  # CUDA 11.0's drivers may be below the minor-version floor: no build is promised
        assert "install_pytorch_for_driver" not in steps
        return
    (argv,) = steps["install_pytorch_for_driver"].argv
    assert argv[1:4] == ("-m", "pip", "install") and f"https://download.pytorch.org/whl/{variant}" in argv
    assert any(a.startswith("torch==") for a in argv) and f"CUDA {cuda[0]}" in steps["install_pytorch_for_driver"].title


def test_the_build_for_the_driver_comes_from_the_configured_mirror():
    from app.choices import Choices, Mirrors

    mirror = Choices(mirrors=Mirrors(pytorch_index_url="https://mirror.example.com/pytorch/whl/"))
    d = diagnose("RuntimeError: The NVIDIA driver on your system is too old (found version 11040).", choices=mirror)
    (argv,) = {s.id: s for s in d.top.fix_steps}["install_pytorch_for_driver"].argv
    assert "https://mirror.example.com/pytorch/whl/cu118" in argv and not any("download.pytorch.org" in a for a in argv)


WINDOWS_TLS = [load(FIXTURES / n) for n in ("errors_heldout/tls_pip_expired_powershell.txt",
                                            "errors_heldout_f/ssl_pip_cert_expired_powershell.txt",
                                            "errors_fixes_o2/tls_pip_windows11_org_ca_truststore.txt")]


@pytest.mark.parametrize("case", WINDOWS_TLS, ids=[c.path.name for c in WINDOWS_TLS])
def test_a_windows_tls_failure_gets_windows_certificate_advice(case):
    from app import messages

    d = diagnose(case.body)
    assert (d.top.category, d.platform.os) == ("network_error", "windows")
    text = proposal_text(d.top)
    assert "truststore" in text and "windows certificate store" in text
    assert "/etc/ssl" not in text and "update-ca-certificates" not in text and "debian" not in text
    zh = messages.match_text(d.top, "fix", "zh_CN")
    assert "truststore" in zh and "Windows 证书存储" in zh


def test_this_machines_ca_bundle_stays_off_another_systems_commands():
    from app.choices import Choices, Mirrors
    from app.diagnose.model import Platform
    from app.diagnose.values import ca_fits

    here = Choices(mirrors=Mirrors(ca_bundle="/etc/ssl/certs/ca-certificates.crt"))
    mac = load(FIXTURES / "errors_heldout_f" / "driver_insufficient_lua_runtime_35.txt")
    d = diagnose(mac.body, choices=here)
    assert d.platform.os == "macos"
    argvs = [a for s in d.top.fix_steps for a in s.argv]
    assert argvs and not any("/etc/ssl/certs/ca-certificates.crt" in a for a in argvs), argvs
    linux = diagnose("RuntimeError: The NVIDIA driver on your system is too old (found version 11040).\n"
                     "  File \"/home/u/venv/lib/python3.11/site-packages/torch/cuda/__init__.py\"", choices=here)
    argvs = [a for s in linux.top.fix_steps for a in s.argv]
    assert any("/etc/ssl/certs/ca-certificates.crt" in a for a in argvs), argvs  # the same machine's kind keeps it
    win = Platform(os="windows", source="text")
    assert ca_fits("C:\\certs\\company.pem", win) and not ca_fits("/etc/ssl/cert.pem", win)
    assert not ca_fits("D:\\ca.pem", Platform(os="linux", source="text"))


@pytest.mark.parametrize("name", ["oom_dcrnn_batch_5_8gb.txt", "oom_fastflow_max_split_hint_12gb.txt"])
def test_a_small_cache_on_a_full_gpu_is_the_size_not_fragmentation(name):
    from app.diagnose.oom import analyze_oom

    a = analyze_oom(load(FIXTURES / "errors_fixes_o2" / name).body)
    n = a.numbers[-1]
    assert n.reserved_unallocated_mib < 0.2 * n.reserved_mib and n.reserved_unallocated_mib >= n.requested_mib
    assert a.verdicts[0].code == "too_small", [(v.code, v.confidence) for v in a.verdicts]


def test_no_driver_asks_for_a_gpu_runtime_in_both_languages():
    """The fourteenth batch's Colab text keeps its pinned category (the program's cuda_unavailable for this wording),
    but its fix is now the thread's: a runtime with a GPU."""
    from app import messages

    case = load(FIXTURES / "errors_heldout_n" / "driver_missing_colab_cpu_runtime.txt")
    d = diagnose(case.body)
    assert d.top.rule == "unavail_no_driver" and fix_has(d.top, case.headers["fix-has"]), proposal_text(d.top)
    zh = messages.match_text(d.top, "fix", "zh_CN")
    assert "Colab" in zh and "GPU" in zh and "运行时" in zh


def test_a_riser_word_alone_or_a_version_list_keeps_its_old_answer():
    """The riser rule needs a failure beside the word; the bare requirement line never takes a torchvision line."""
    assert not diagnose("I mounted the card on a PCIe riser and it runs fine at 60C.").matches
    d = diagnose("ERROR: Could not find a version that satisfies the requirement torchvision==0.99")
    assert not d.matches or d.top.rule != "torch_no_matching_wheel"
    d = diagnose("ERROR: Could not find a version that satisfies the requirement torch==1.4.0 (from versions: 2.2.0, 2.2.1)")
    assert d.top.rule == "torch_no_matching_wheel" and d.top.params.get("req") == "torch==1.4.0"
