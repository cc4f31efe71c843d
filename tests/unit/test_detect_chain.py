"""The probe chain end to end on snapshots built from real outputs, plus timeouts and findings."""
import os
import stat
import sys
import time

import pytest

import app.detect as detect_mod
from app.detect import detect
from app.system import LiveSystem
from detect_helpers import QUERY_KEY, h200_snapshot, read, snapshot


def probe(f, name):
    return [p for p in f.probes if p.name == name]


def test_h200_from_nvml():
    f = detect(h200_snapshot())
    [g] = f.gpus
    assert (g.name, g.pci_id, g.compute_capability, g.architecture, g.memory_total_mib) == ("NVIDIA H200", "10de:2335", "9.0", "Hopper", 143771)
    assert (g.pcie_gen_current, g.pcie_width_max, g.source, g.is_laptop) == (5, 16, "nvml", False)
    d = f.driver
    assert (d.state, d.version, d.cuda_version, d.kernel_module, d.source) == ("ok", "580.159.04", "13.0", "open", "nvml")
    assert d.modules_loaded == ("nvidia", "nvidia_uvm") and d.nouveau_loaded is False
    assert (f.os.id, f.os.version_id, f.os.kernel, f.os.arch, f.os.wsl) == ("ubuntu", "24.04", "6.18.44-fc-v657-gpu", "x86_64", 0)
    assert f.cuda.nvcc_version == "13.0.88"
    assert probe(f, "nvml")[0].status == "ok" and probe(f, "nvidia_smi_query")[0].status == "skipped"
    assert not [x for x in f.findings if x.severity == "error"]
    assert f.source == "snapshot:test.json"


def test_h200_without_nvml_uses_smi_query_then_table_banner():
    f = detect(h200_snapshot(with_nvml=False))
    [g] = f.gpus
    assert g.source == "nvidia_smi_query" and g.compute_capability == "9.0" and g.pci_id == "10de:2335"
    assert f.driver.cuda_version == "13.0" and f.driver.source == "nvidia_smi_query"
    assert [p.status for p in probe(f, "nvidia_smi_table")] == ["ok"]


def test_minimal_support_ticket_snapshot_proc_version_os_release_smi_table():
    s = snapshot({"/proc/version": read("h200", "file_proc_version"), "/etc/os-release": read("h200", "file_etc_os-release")},
                 {"nvidia-smi": read("smi-rtx4090d-550", "nvidia-smi.out")})
    f = detect(s)
    [g] = f.gpus
    assert (g.name, g.compute_capability, g.architecture, g.memory_total_mib, g.bus_id) == (
        "NVIDIA GeForce RTX 4090 D", "8.9", "Ada Lovelace", 24564, "0000:b8:00.0")
    assert g.pci_id is None  # a name does not say which PCI id: never guessed
    assert (f.driver.state, f.driver.version, f.driver.cuda_version) == ("ok", "550.107.02", "12.4")
    assert (f.os.id, f.os.version_id, f.os.kernel, f.os.wsl) == ("ubuntu", "24.04", "6.18.44-fc-v657-gpu", 0)
    assert probe(f, "nvidia_smi_query")[0].status == "not_found" and probe(f, "nvidia_smi_table")[0].status == "ok"


def test_minimal_snapshot_only_lspci_no_driver():
    f = detect(snapshot({}, {"lspci -nn": read("lspci-nodriver-rtx3060", "lspci-nn.out")}))
    [g] = f.gpus
    assert (g.name, g.pci_id, g.compute_capability, g.architecture, g.source) == ("NVIDIA GeForce RTX 3060 Lite Hash Rate", "10de:2504", "8.6", "Ampere", "pci_table")
    assert f.driver.state == "not_installed" and f.driver.version is None
    assert f.finding("driver_not_installed").severity == "error"
    assert probe(f, "lspci")[0].status == "ok"


def test_old_banner_two_k80_cc_from_name_and_cuda_from_compat_db():
    f = detect(snapshot({}, {"nvidia-smi": read("smi-old-tesla-k80-390", "nvidia-smi.out")}))
    assert [(g.index, g.name, g.compute_capability) for g in f.gpus] == [(0, "Tesla K80", "3.7"), (1, "Tesla K80", "3.7")]
    assert f.driver.version == "390.12"
    # the banner has no CUDA field: the compat DB (when present) answers, else it stays unknown
    assert f.driver.cuda_version in (None, "9.1")


def test_umd_banner_and_truncated_laptop_name():
    f = detect(snapshot({}, {"nvidia-smi": read("smi-umd-gtx1650", "nvidia-smi.out")}))
    assert f.driver.version == "610.57.04" and f.driver.cuda_version == "13.3" and f.gpus[0].compute_capability == "7.5"
    f = detect(snapshot({}, {"nvidia-smi": read("smi-truncated-rtx4070-laptop", "nvidia-smi.out")}))
    [g] = f.gpus
    assert g.compute_capability == "8.9" and g.name.startswith("NVIDIA GeForce RTX 4070")


def test_cut_off_multi_gpu_paste():
    f = detect(snapshot({}, {"nvidia-smi": read("smi-multi-quadro-rtx4000", "nvidia-smi.out")}))
    assert [(g.name, g.compute_capability, g.memory_total_mib) for g in f.gpus] == [
        ("Quadro RTX 4000", "7.5", 8192), ("Quadro RTX 4000", "7.5", None)]


def test_no_communication_state_with_gpu_from_lspci():
    s = snapshot({"/proc/modules": "nouveau 2265088 3 - Live 0x0000000000000000\n"},
                 {"nvidia-smi": {"rc": 9, "stdout": read("fail-no-communication", "nvidia-smi.out"), "stderr": ""},
                  "lspci -nn": read("lspci-gtx1060", "lspci-nn.out")})
    f = detect(s)
    assert f.driver.state == "not_loaded" and f.driver.nouveau_loaded is True
    assert f.finding("nouveau_loaded").severity == "error"
    assert f.gpus[0].compute_capability == "6.1"


def test_no_communication_when_module_state_unknown():
    s = snapshot({}, {"nvidia-smi": {"rc": 9, "stdout": read("fail-no-communication", "nvidia-smi.out"), "stderr": ""}})
    f = detect(s)
    assert f.driver.state == "no_communication" and f.finding("driver_no_communication")
    assert "couldn't communicate" in " ".join(f.finding("driver_no_communication").evidence)


def test_version_mismatch_with_stale_module_hint():
    s = snapshot({"/proc/driver/nvidia/version": read("fail-version-mismatch", "proc_driver_nvidia_version"),
                  "/proc/modules": "nvidia_uvm 1 0 - Live 0x0\nnvidia 1 0 - Live 0x0\n"},
                 {QUERY_KEY: {"rc": 18, "stdout": read("fail-version-mismatch", "nvidia-smi.out"), "stderr": ""},
                  "nvidia-smi": {"rc": 18, "stdout": read("fail-version-mismatch", "nvidia-smi.out"), "stderr": ""}})
    f = detect(s)
    d = f.driver
    assert (d.state, d.kernel_module, d.kernel_module_version) == ("mismatch", "proprietary", "580.173.02")
    m = f.finding("driver_version_mismatch")
    assert m.severity == "error" and "initramfs" in m.hint
    assert any("580.178" in e for e in m.evidence)


def test_nvml_driver_not_loaded_error_state():
    s = snapshot({"/proc/modules": "snd 1 0 - Live 0x0\n"}, {"lspci -nn": read("lspci-nodriver-rtx3060", "lspci-nn.out")},
                 nvml={"error": "NVMLError_DriverNotLoaded: Driver Not Loaded", "devices": []})
    f = detect(s)
    assert f.driver.state == "not_loaded" and f.finding("driver_not_loaded")
    assert probe(f, "nvml")[0].status == "error"


def test_env_and_toolkit_findings():
    s = snapshot(
        files={"/usr/local/cuda-12.4/version.json": '{"cuda": {"version": "12.4.131"}}',
               "/usr/local/cuda-11.8/version.txt": "CUDA Version 11.8.89\n",
               "/etc/ld.so.conf.d/cuda-11-8.conf": "/usr/local/cuda-11.8/targets/x86_64-linux/lib\n",
               "/etc/ld.so.conf.d/cuda-10-2.conf": "/usr/local/cuda-10.2/lib64\n",
               "/home/u/.bashrc": "export PATH=/usr/local/cuda-11.8/bin:$PATH\n",
               "/usr/local/cuda-11.8/targets/x86_64-linux/lib": ""},
        commands={"nvidia-smi": read("smi-rtx4090d-550", "nvidia-smi.out"), "nvcc --version": read("fail-no-communication", "nvcc.out")},
        dirs={"/usr/local": ["bin", "cuda", "cuda-11.8", "cuda-12.4"], "/etc/ld.so.conf.d": ["cuda-10-2.conf", "cuda-11-8.conf", "libc.conf"],
              "/usr/local/cuda-12.4": ["bin"], "/usr/local/cuda-11.8": ["bin"]},
        links={"/usr/local/cuda": "cuda-12.4"},
        env={"HOME": "/home/u", "PATH": "/usr/local/cuda-11.8/bin:/usr/bin", "CUDA_HOME": "/opt/cuda-9"},
        which={"nvcc": "/usr/local/cuda-11.8/bin/nvcc"})
    f = detect(s)
    assert [(t.path, t.version, t.source) for t in f.cuda.toolkits] == [("/usr/local/cuda-11.8", "11.8.89", "version.txt"),
                                                                         ("/usr/local/cuda-12.4", "12.4.131", "version.json")]
    assert f.cuda.active_link == "/usr/local/cuda-12.4"
    codes = {x.code for x in f.findings}
    assert {"ld_conf_stale_cuda", "ld_conf_missing_dir", "env_path_other_cuda", "env_cuda_home_missing", "nvcc_path_mismatch",
            "cuda_multiple_toolkits"} <= codes
    assert [(e.path, e.status) for e in sorted(f.env.ld_conf, key=lambda e: e.path)] == [
        ("/usr/local/cuda-10.2/lib64", "missing"), ("/usr/local/cuda-11.8/targets/x86_64-linux/lib", "other_cuda")]
    assert f.env.rc_lines[0].file == "/home/u/.bashrc"


def test_toolkit_newer_than_driver():
    s = snapshot({"/usr/local/cuda-13.0/version.json": '{"cuda": {"version": "13.0.88"}}'},
                 {"nvidia-smi": read("smi-rtx4090d-550", "nvidia-smi.out")}, dirs={"/usr/local": ["cuda-13.0"]})
    assert detect(s).finding("toolkit_newer_than_driver")


def test_wsl_fallback_or_wsl_probe_reads_proc_version():
    s = snapshot({"/proc/version": "Linux version 5.15.167.4-microsoft-standard-WSL2 (root@f9c826d3017f) (gcc (GCC) 11.2.0) #1 SMP\n",
                  "/dev/dxg": ""}, dirs={"/usr/lib/wsl/lib": ["libcuda.so", "libcuda.so.1", "libcuda.so.1.1", "nvidia-smi"]})
    f = detect(s)
    assert f.os.wsl == 2 and f.os.wsl_dxg is True and f.driver.state == "host"
    assert not f.finding("no_nvidia_gpu")


def test_empty_snapshot_never_raises():
    f = detect(snapshot())
    assert f.finding("no_nvidia_gpu") and f.driver.state in ("unknown", "not_installed")


class _BrokenSystem:
    platform = "linux"

    def __getattr__(self, name):
        def boom(*a, **k):
            raise OSError("device not ready")
        return boom


def test_a_system_that_raises_everywhere_still_gives_facts():
    f = detect(_BrokenSystem())
    assert isinstance(f.findings, tuple) and f.gpus == ()


@pytest.mark.skipif(sys.platform.startswith("win"), reason="POSIX shell script")
def test_hung_nvidia_smi_is_killed_at_its_timeout(tmp_path, monkeypatch):
    fake = tmp_path / "nvidia-smi"
    fake.write_text("#!/bin/sh\nexec sleep 30\n")
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ.get('PATH', '')}")
    monkeypatch.setitem(detect_mod.TIMEOUTS, "nvidia_smi", 0.5)
    system = LiveSystem(nvml_reader=lambda: None)
    t0 = time.monotonic()
    f = detect(system)
    elapsed = time.monotonic() - t0
    assert elapsed < 10
    assert [p.status for p in probe(f, "nvidia_smi_query")] == ["timeout"]
    assert [p.status for p in probe(f, "nvidia_smi_table")] == ["skipped"]  # not a second hang
    t = f.finding("probe_timeout")
    assert t.severity == "warning" and "nvidia_smi_query" in t.message


def test_fresh_install_blockers_secure_boot_headers_nouveau():
    efivar = "/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c"
    s = snapshot({"/proc/version": "Linux version 6.8.0-45-generic (buildd@lcy02-amd64-075) (x86_64-linux-gnu-gcc-13) #45-Ubuntu SMP\n",
                  "/proc/modules": "nouveau 2265088 3 - Live 0x0000000000000000\nsnd 1 0 - Live 0x0\n", efivar: ""},
                 {"lspci -nn": read("lspci-nodriver-rtx3060", "lspci-nn.out"), f"od -An -t u1 {efivar}": "   6   0   0   0   1\n"},
                 dirs={"/lib/modules/6.8.0-45-generic": ["kernel", "modules.dep"], "/sys/firmware": ["efi"], "/sys/firmware/efi": ["efivars"]})
    f = detect(s)
    d = f.driver
    assert (d.state, d.secure_boot, d.kernel_headers_installed, d.nouveau_loaded) == ("not_installed", True, False, True)
    codes = {x.code: x.severity for x in f.findings}
    assert codes["driver_not_installed"] == "error" and codes["nouveau_loaded"] == "error"
    assert codes["secure_boot_enabled"] == "warning" and codes["kernel_headers_missing"] == "warning"
    assert f.os.kernel == "6.8.0-45-generic"


def test_headers_present_and_legacy_bios():
    s = snapshot({"/proc/version": "Linux version 6.8.0-45-generic (b@h) #45-Ubuntu SMP\n"},
                 links={"/lib/modules/6.8.0-45-generic/build": "/usr/src/linux-headers-6.8.0-45-generic"},
                 dirs={"/lib/modules/6.8.0-45-generic": ["build", "kernel"], "/sys/firmware": ["acpi", "dmi"]})
    d = detect(s).driver
    assert d.kernel_headers_installed is True and d.secure_boot is False


def test_no_gpu_is_the_same_severity_in_detect_and_recommend():
    """One finding, one weight: `detect` and `recommend` must not call the same fact an error in one
    place and a note in the other."""
    from app.compat import load_db
    from app.recommend import recommend

    f = detect(snapshot(files={"/etc/os-release": 'ID=ubuntu\nVERSION_ID="24.04"\n'}, commands={}))
    found = f.finding("no_nvidia_gpu")
    assert found
    rec = recommend(f, load_db(use_user_bundle=False))
    warned = next(w for w in rec.warnings if w.code == "no_nvidia_gpu")
    assert found.severity == warned.severity == "warning"
