"""WSL detection inside the distro (app/detect/wsl.py) on real strings and snapshots."""
import copy
import json

import pytest

from app.detect.wsl import (DPKG_QUERY_ARGV, MIN_MEMORY_MIB, detect_wsl, kernel_version_tuple, linux_driver_packages,
                            parse_dpkg_query, parse_kernel_release, parse_meminfo_total_mib, parse_size_mib,
                            parse_wsl_version, parse_wslconfig, wsl_needs_memory_mib)
from app.facts import OsInfo, PackageInfo
from app.paths import resource
from app.system import SnapshotSystem, command_key
from tests.conftest import FIXTURES

REAL = FIXTURES / "real"
KERNELS = json.loads((REAL / "wsl" / "kernels.json").read_text())["cases"]
DEMO = resource("snapshots", "wsl2-laptop-rtx4070-ubuntu2204.json")


@pytest.mark.parametrize("case", KERNELS, ids=[c.get("release", "?") for c in KERNELS])
def test_wsl_version_and_kernel_from_real_strings(case):
    pv, rel = case.get("proc_version"), case.get("osrelease")
    assert parse_wsl_version(pv, rel) == case["wsl"]
    assert parse_kernel_release(pv, rel) == case["release"]


@pytest.mark.parametrize("case", [c for c in KERNELS if c["wsl"] == 2], ids=lambda c: c["release"])
def test_old_wsl2_kernels_are_below_the_cuda_minimum(case):
    kv = kernel_version_tuple(case["release"])
    assert (kv < (5, 10, 43, 3)) == bool(case.get("kernel_old"))


def test_kernel_version_tuple_edge_cases():
    assert kernel_version_tuple("5.15.153.1-microsoft-standard-WSL2") == (5, 15, 153, 1)
    assert kernel_version_tuple("garbage") is None
    assert kernel_version_tuple(None) is None


def test_meminfo_and_sizes():
    h200 = (REAL / "h200" / "file_proc_meminfo").read_text()
    assert parse_meminfo_total_mib(h200) > 100_000
    assert parse_meminfo_total_mib("nonsense") is None
    assert parse_size_mib("8GB") == 8192
    assert parse_size_mib("4096MB") == 4096
    assert parse_size_mib(" 16 GB ") == 16384
    assert parse_size_mib("12G") == 12288
    assert parse_size_mib("1.5TB") == 1572864
    assert parse_size_mib("8589934592") == 8192  # a bare number is bytes
    assert parse_size_mib("lots") is None


def test_wslconfig_reads_the_wsl2_section_only():
    text = "\ufeff# my settings\r\n[wsl2]\r\nmemory=12GB  # for training\r\nprocessors=8\r\n[experimental]\r\nmemory=1GB\r\n"
    cfg = parse_wslconfig(text)
    assert cfg == {"memory": "12GB", "processors": "8"}
    assert parse_wslconfig("") == {}
    assert parse_wslconfig("[wsl2\nmemory") == {}  # broken file: nothing, no exception


def test_dpkg_query_keeps_installed_driver_packages_only():
    out = ("nvidia-driver-535 535.183.01-0ubuntu0.22.04.1 ii \n"
           "libnvidia-compute-535 535.183.01-0ubuntu0.22.04.1 ii \n"
           "nvidia-driver-550 550.90.07-0ubuntu1 un \n"
           "nvidia-container-toolkit 1.16.1-1 ii \n"
           "cuda-drivers-555 555.42.06-1 rc \n")
    pkgs = parse_dpkg_query(out)
    assert [p.name for p in pkgs] == ["nvidia-driver-535", "libnvidia-compute-535", "nvidia-container-toolkit"]
    bad = linux_driver_packages(pkgs)
    assert [p.name for p in bad] == ["nvidia-driver-535", "libnvidia-compute-535"]  # the container toolkit is fine in WSL
    assert linux_driver_packages([PackageInfo("cuda-toolkit-12-8", "12.8.1-1"), PackageInfo("cuda-drivers", "570.1-1")]) \
        == [PackageInfo("cuda-drivers", "570.1-1")]


def test_memory_need_scales_with_the_gpu():
    assert wsl_needs_memory_mib([]) == MIN_MEMORY_MIB
    assert wsl_needs_memory_mib([8188]) == 16376
    assert wsl_needs_memory_mib([4096]) == MIN_MEMORY_MIB


# ---------------------------------------------------------------- detect_wsl on snapshots

def _demo() -> dict:
    return json.loads(DEMO.read_text())


def _detect(data: dict, **os_kw):
    return detect_wsl(SnapshotSystem(copy.deepcopy(data)), OsInfo(arch="x86_64", **os_kw))


def test_demo_wsl2_laptop():
    info, findings = _detect(_demo())
    codes = {f.code: f for f in findings}
    assert info.wsl == 2 and info.wsl_dxg is True
    assert info.wsl_kernel == "5.15.133.1-microsoft-standard-WSL2"
    assert info.wsl_distro == "Ubuntu-22.04"
    assert "/usr/lib/wsl/lib/libcuda.so.1" in info.wsl_libcuda
    assert info.memory_total_mib == 7841
    # the libcuda copies are reported, as information only; nothing else is wrong with the GPU path
    assert codes["wsl_libcuda_not_symlink"].severity == "info"
    assert "wsl_memory_low" in codes  # half of a 16 GB laptop
    for bad in ("wsl_dxg_missing", "wsl_libcuda_missing", "wsl_linux_driver_installed", "wsl1_no_cuda", "wsl_kernel_old"):
        assert bad not in codes


def test_wsl1_is_detected_and_told_to_convert():
    data = {"format": "gpu-wizard-snapshot/1", "files": {"/proc/version": KERNELS[1]["proc_version"]},
            "env": {"WSL_DISTRO_NAME": "kali-linux"}}
    info, findings = _detect(data)
    assert info.wsl == 1
    f = findings[0]
    assert f.code == "wsl1_no_cuda" and f.severity == "error"
    assert "wsl --set-version kali-linux 2" in f.hint
    assert info.wsl_dxg is None  # WSL1 has no GPU path to check


def test_missing_dxg_and_libcuda_are_errors():
    data = _demo()
    del data["files"]["/dev/dxg"]
    data["dirs"]["/usr/lib/wsl/lib"] = ["libd3d12.so", "libdxcore.so"]
    info, findings = _detect(data)
    codes = {f.code: f.severity for f in findings}
    assert codes["wsl_dxg_missing"] == "error"
    assert codes["wsl_libcuda_missing"] == "error"
    assert info.wsl_dxg is False and info.wsl_libcuda == ()


def test_libcuda_as_a_real_symlink_is_not_reported():
    data = _demo()
    data["links"]["/usr/lib/wsl/lib/libcuda.so.1"] = "libcuda.so.1.1"
    _, findings = _detect(data)
    assert "wsl_libcuda_not_symlink" not in {f.code for f in findings}


def test_linux_driver_installed_inside_wsl():
    data = _demo()
    key = command_key(DPKG_QUERY_ARGV)
    assert key in data["commands"]  # the demo records the same query detection runs
    data["commands"][key] = {"rc": 0, "stdout": "nvidia-driver-550 550.120-0ubuntu0.22.04.1 ii \n"
                                                "libnvidia-compute-550 550.120-0ubuntu0.22.04.1 ii \n"
                                                "nvidia-utils-550 550.120-0ubuntu0.22.04.1 ii \n", "stderr": ""}
    data["files"]["/usr/lib/x86_64-linux-gnu/libcuda.so.1"] = ""
    data["files"]["/usr/bin/nvidia-smi"] = ""
    data["which"]["nvidia-smi"] = "/usr/bin/nvidia-smi"
    _, findings = _detect(data)
    f = next(f for f in findings if f.code == "wsl_linux_driver_installed")
    assert f.severity == "error"
    assert "package nvidia-driver-550 550.120-0ubuntu0.22.04.1" in f.evidence
    assert "/usr/lib/x86_64-linux-gnu/libcuda.so.1 (Linux driver library)" in f.evidence
    assert "nvidia-smi on PATH is /usr/bin/nvidia-smi" in f.evidence


def test_packages_passed_by_the_orchestrator_skip_the_query():
    data = _demo()
    data["commands"].pop(command_key(DPKG_QUERY_ARGV))
    _, findings = _detect_with_packages(data, [PackageInfo("cuda-drivers", "560.35.03-1")])
    assert any(f.code == "wsl_linux_driver_installed" for f in findings)


def _detect_with_packages(data, packages):
    return detect_wsl(SnapshotSystem(copy.deepcopy(data)), OsInfo(arch="x86_64"), packages=packages)


def test_wslconfig_memory_limit_through_mnt_c():
    data = _demo()
    data["files"]["/proc/meminfo"] = "MemTotal:        4015232 kB\n"
    data["files"]["/mnt/c/Users/alex/.wslconfig"] = "[wsl2]\r\nmemory=4GB\r\nswap=0\r\n"
    info, findings = _detect(data)
    assert info.wslconfig_path == "/mnt/c/Users/alex/.wslconfig"
    assert info.wsl_memory_limit_mib == 4096
    f = next(f for f in findings if f.code == "wsl_memory_low")
    assert "/mnt/c/Users/alex/.wslconfig: memory=4GB" in f.evidence


def test_enough_memory_gives_no_memory_finding():
    data = _demo()
    data["files"]["/proc/meminfo"] = "MemTotal:       32768000 kB\n"
    _, findings = _detect(data)
    assert "wsl_memory_low" not in {f.code for f in findings}


def test_custom_kernel_without_microsoft_is_still_wsl2_by_its_environment():
    data = {"format": "gpu-wizard-snapshot/1", "files": {"/proc/version": "Linux version 6.8.0-custom (me@box) #1 SMP", "/dev/dxg": ""},
            "env": {"WSL_DISTRO_NAME": "Arch", "WSL_INTEROP": "/run/WSL/9_interop"},
            "dirs": {"/usr/lib/wsl/lib": ["libcuda.so", "libcuda.so.1", "libcuda.so.1.1"]}}
    info, _ = _detect(data)
    assert info.wsl == 2 and info.wsl_kernel == "6.8.0-custom"


def test_old_wsl2_kernel_is_a_warning():
    data = _demo()
    data["files"]["/proc/version"] = KERNELS[3]["proc_version"]  # 4.19.104
    del data["files"]["/proc/sys/kernel/osrelease"]
    info, findings = _detect(data)
    assert info.wsl_kernel == "4.19.104-microsoft-standard"
    assert {f.code: f.severity for f in findings}["wsl_kernel_old"] == "warning"


def test_not_wsl_leaves_os_info_alone():
    base = OsInfo(id="ubuntu", kernel="6.18.44", arch="x86_64")
    data = {"format": "gpu-wizard-snapshot/1", "files": {"/proc/version": (REAL / "h200" / "file_proc_version").read_text()}}
    info, findings = detect_wsl(SnapshotSystem(data), base)
    assert info == base and findings == []


def test_garbage_input_never_raises():
    data = {"format": "gpu-wizard-snapshot/1",
            "files": {"/proc/version": "\ufffd\x00Microsoft-standard garbage \ufffd", "/proc/meminfo": "MemTotal: lots",
                      "/mnt/c/Users/x/.wslconfig": "\x00\x00[[[=="},
            "dirs": {"/mnt/c/Users": ["x"]},
            "commands": {command_key(DPKG_QUERY_ARGV): {"rc": 2, "stdout": "\ufffd\ufffd", "stderr": "boom"}}}
    info, findings = _detect(data)
    assert info.wsl == 2
    assert {f.code for f in findings} >= {"wsl_dxg_missing", "wsl_libcuda_missing"}


def test_recorded_wsl_snapshot_replays_the_same_answer():
    """What `gpu-wizard snapshot` records inside WSL (RecordingSystem) replays to the same facts."""
    from app.system import RecordingSystem

    data = _demo()
    data["files"]["/mnt/c/Users/alex/.wslconfig"] = "[wsl2]\nmemory=6GB\n"
    rec = RecordingSystem(SnapshotSystem(copy.deepcopy(data)))
    first = detect_wsl(rec, OsInfo(arch="x86_64"))
    snap = json.loads(json.dumps(rec.snapshot()))
    assert "/dev/dxg" in snap["files"] and "/usr/lib/wsl/lib" in snap["dirs"]
    assert snap["env"]["WSL_DISTRO_NAME"] == "Ubuntu-22.04"
    again = detect_wsl(SnapshotSystem(snap), OsInfo(arch="x86_64"))
    assert again == first and first[0].wsl_memory_limit_mib == 6144
