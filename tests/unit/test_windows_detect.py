"""Windows host detection (app/detect/windows.py), run on Linux through real outputs and snapshots."""
import copy
import json

import pytest

from app.detect import smi
from app.detect import windows as W
from app.facts import WslDistro
from app.paths import resource
from app.system import SnapshotSystem, command_key, decode_output
from tests.conftest import FIXTURES

WIN = FIXTURES / "real" / "windows"
DEMO = json.loads(resource("snapshots", "windows-laptop-rtx4060-nowsl.json").read_text())
DRIVERS = json.loads((WIN / "driver_versions.json").read_text())["cases"]


def text(name: str) -> str:
    return (WIN / name).read_text()


# ---------------------------------------------------------------- parsers

@pytest.mark.parametrize("name,build,release,number", [
    ("ver_22631.out", "10.0.22631.3593", "11", 22631),
    ("ver_26100.out", "10.0.26100.6725", "11", 26100),
    ("ver_17763.out", "10.0.17763.292", "10", 17763),
])
def test_ver(name, build, release, number):
    assert W.parse_ver(text(name)) == build
    assert W.windows_release(build) == (release, number)


def test_ver_in_another_language_and_garbage():
    assert W.parse_ver("Microsoft Windows [versión 10.0.19045.4291]") == "10.0.19045.4291"
    assert W.parse_ver("\ufffd\ufffd nope") is None
    assert W.windows_release(None) == (None, None)


@pytest.mark.parametrize("case", DRIVERS, ids=[c["windows"] for c in DRIVERS])
def test_windows_driver_version_maps_to_nvidia(case):
    assert W.map_windows_driver_version(case["windows"]) == case["nvidia"]


def test_driver_version_mapping_rejects_non_nvidia_shapes():
    amd = W.parse_video_controllers('{"Name":"AMD Radeon(TM) Vega 8 Graphics","DriverVersion":"26.20.12036.7001","PNPDeviceID":"PCI\\\\VEN_1002&DEV_15D8"}')
    assert amd[0]["nvidia"] is False and amd[0]["nvidia_version"] is None  # only NVIDIA versions are mapped
    assert W.map_windows_driver_version("1.2.3") is None
    assert W.map_windows_driver_version("") is None
    assert W.map_windows_driver_version("a.b.c.d") is None


@pytest.mark.parametrize("name,driver,cuda,rows", [
    ("smi_win_591_rtx4060.out", "591.86", "13.1", [("NVIDIA GeForce RTX 4060", "WDDM", 8188)]),
    ("smi_win_610_kmd_rtx3050.out", "610.62", "13.3", [("NVIDIA GeForce RTX 3050 ...", "WDDM", 4096)]),
    ("smi_win_517_two_gpus.out", "517.48", "11.7", [("NVIDIA GeForce ...", "WDDM", 11264), ("NVIDIA GeForce ...", "WDDM", 11264)]),
    ("smi_win_555_l40s_tcc.out", "555.85", "12.5", [("NVIDIA L40S", "TCC", 46068)]),
])
def test_windows_nvidia_smi_tables(name, driver, cuda, rows):
    """nvidia-smi.exe tables (Driver-Model column, TCC/WDDM) through the shared table parser."""
    t = smi.parse_smi_table(text(name))
    assert (t.driver_version, t.cuda_version, t.error) == (driver, cuda, None)
    assert [(g["name"], g["driver_model"], g["memory_total_mib"]) for g in t.gpus] == rows


def test_smi_query_rows_as_windows_asks_them():
    argv = smi.query_argv(W.SMI_QUERY_FIELDS, exe=W.SMI_PATHS[0])
    assert argv[0] == r"C:\Windows\System32\nvidia-smi.exe" and argv[1].endswith(",compute_cap")
    out = ("0, NVIDIA GeForce RTX 4060 Laptop GPU, 00000000:01:00.0, 0x28A010DE, 591.86, 8188, 8.9\n"
           "1, Quadro RTX 6000, 00000000:73:00.0, 0x1E3010DE, 570.211.01, [N/A], [N/A]\n")
    rows = [smi.gpu_fields_from_query(r) for r in smi.parse_smi_query(out, W.SMI_QUERY_FIELDS)]
    assert rows[0]["pci_id"] == "10de:28a0" and rows[0]["compute_capability"] == "8.9" and rows[0]["memory_total_mib"] == 8188
    assert rows[1]["pci_id"] == "10de:1e30" and rows[1]["memory_total_mib"] is None and rows[1]["compute_capability"] is None


def _utf16_variants(s: str) -> list[bytes]:
    crlf = s.replace("\n", "\r\n")
    return [crlf.encode("utf-16-le"), b"\xff\xfe" + crlf.encode("utf-16-le"), crlf.encode("utf-16")]


@pytest.mark.parametrize("name,expected", [
    ("wsl_l_v_ubuntu2204.txt", [WslDistro("Ubuntu-22.04", "Running", 2, True)]),
    ("wsl_l_v_kali_wsl1.txt", [WslDistro("kali-linux", "Running", 1, False)]),
    ("wsl_l_v_none.txt", []),
])
def test_wsl_list_in_utf16_with_and_without_bom(name, expected):
    for raw in _utf16_variants(text(name)):
        decoded = decode_output(raw)
        assert "\x00" not in decoded
        assert W.parse_wsl_list(decoded) == expected
    # a wrong decoder (UTF-8 over UTF-16) leaves NULs between the letters: still parsed
    assert W.parse_wsl_list(text(name).replace("\n", "\r\n").encode("utf-16-le").decode("latin-1")) == expected


def test_wsl_list_localized_header_and_several_distros():
    out = "  NAME                   STATUS          VERSION\n* Ubuntu-24.04           Stopped         2\n  docker-desktop         Running         2\n  Debian                 Stopped         1\n"
    assert [(d.name, d.version, d.default) for d in W.parse_wsl_list(out)] == [
        ("Ubuntu-24.04", 2, True), ("docker-desktop", 2, False), ("Debian", 1, False)]


def test_wsl_status_variants():
    s = W.parse_wsl_status(text("wsl_status_2022.txt"), 0)
    assert (s["installed"], s["default_distro"], s["default_version"], s["kernel"]) == (True, "Ubuntu-22.04", 2, "5.10.102.1")
    s = W.parse_wsl_status(decode_output(_utf16_variants(text("wsl_status_short.txt"))[0]), 0)
    assert (s["installed"], s["default_distro"], s["default_version"]) == (True, "Debian", 2)
    assert W.parse_wsl_status(text("wsl_status_not_installed.txt"), 1)["installed"] is False
    assert W.parse_wsl_status("", 127)["installed"] is False
    vmp = W.parse_wsl_status("Please enable the Virtual Machine Platform Windows feature and ensure virtualization is enabled in the BIOS.", 1)
    assert vmp["needs_vmp"] is True


def test_wsl_version_command():
    assert W.parse_wsl_version_cmd(text("wsl_version.txt")) == {"wsl": "1.2.5.0", "kernel": "5.15.90.1", "windows": "10.0.19045.3393"}


def test_wmi_format_list_pastes():
    nv = W.parse_video_controllers(text("wmi_fl_gtx1660.txt"))
    assert len(nv) == 1 and nv[0]["name"] == "NVIDIA GeForce GTX 1660" and nv[0]["nvidia"] is True
    assert nv[0]["adapter_ram"] == 4293918720 and nv[0]["error_code"] == 0
    intel = W.parse_video_controllers(text("wmi_fl_intel_uhd.txt"))
    assert intel == [{"name": "Intel(R) UHD Graphics", "pci_id": "8086:9bc4", "nvidia": False, "driver_version": None,
                      "nvidia_version": None, "adapter_ram": None, "error_code": 0, "status": "OK"}]


def test_wmi_json_single_object_and_garbage():
    one = '{"Name":"NVIDIA GeForce RTX 4060 Laptop GPU","AdapterCompatibility":"NVIDIA","DriverVersion":"32.0.15.9186","PNPDeviceID":"PCI\\\\VEN_10DE&DEV_28A0&SUBSYS_3C8E17AA&REV_A1\\\\4&2B1A6C1F&0&0008","ConfigManagerErrorCode":0}'
    rows = W.parse_video_controllers(one)
    assert rows[0]["pci_id"] == "10de:28a0" and rows[0]["nvidia_version"] == "591.86"
    assert W.parse_video_controllers("\x00\x00{not json") == []
    assert W.parse_video_controllers(None) == []


# ---------------------------------------------------------------- detect_windows on snapshots

def _system(data: dict) -> SnapshotSystem:
    return SnapshotSystem(copy.deepcopy(data), name="win")


def test_demo_windows_laptop_without_wsl():
    os_info, driver, gpus, win, findings = W.detect_windows(_system(DEMO))
    assert (os_info.platform, os_info.id, os_info.version_id, os_info.windows_build) == ("windows", "windows", "11", "10.0.22631")
    assert os_info.arch == "x86_64" and os_info.memory_total_mib == 16110
    assert (driver.state, driver.version, driver.cuda_version, driver.windows_version) == ("ok", "591.86", "13.1", "32.0.15.9186")
    assert [(g.name, g.pci_id, g.compute_capability, g.memory_total_mib, g.is_laptop) for g in gpus] == [
        ("NVIDIA GeForce RTX 4060 Laptop GPU", "10de:28a0", "8.9", 8188, True)]
    assert gpus[0].bus_id == "0000:01:00.0"
    assert win.wsl_installed is False and win.distros == () and win.virtualization_enabled is True
    assert win.nvidia_smi_path == r"C:\Windows\System32\nvidia-smi.exe"
    assert [f.code for f in findings] == ["wsl_not_installed"]


def _with_wsl(data: dict, listing: str, status: str) -> dict:
    d = copy.deepcopy(data)
    d["commands"][command_key(W.WSL_STATUS_ARGV)] = {"rc": 0, "stdout": status, "stderr": ""}
    d["commands"][command_key(W.WSL_LIST_ARGV)] = {"rc": 0, "stdout": listing, "stderr": ""}
    d["commands"][command_key(W.WSL_VERSION_ARGV)] = {"rc": 0, "stdout": text("wsl_version.txt"), "stderr": ""}
    return d


def test_wsl1_distro_on_the_host():
    d = _with_wsl(DEMO, text("wsl_l_v_kali_wsl1.txt"), "Default Distribution: kali-linux\nDefault Version: 1\n")
    _, _, _, win, findings = W.detect_windows(_system(d))
    assert win.wsl_installed is True and win.wsl_default_version == 1
    assert win.distros == (WslDistro("kali-linux", "Running", 1, False),)
    f = next(f for f in findings if f.code == "wsl_distro_wsl1")
    assert f.hint == "Convert it: wsl --set-version kali-linux 2"


def test_wsl_installed_without_distros():
    d = _with_wsl(DEMO, text("wsl_l_v_none.txt"), text("wsl_status_short.txt"))
    _, _, _, win, findings = W.detect_windows(_system(d))
    assert win.wsl_installed is True and win.distros == ()
    assert "wsl_no_distro" in {f.code for f in findings}


def test_old_windows_10_and_virtualization_off():
    d = copy.deepcopy(DEMO)
    d["commands"][command_key(W.VER_ARGV)]["stdout"] = text("ver_17763.out")
    d["commands"][command_key(W.PS_SYSTEM_ARGV)]["stdout"] = '{"HypervisorPresent":false,"VirtualizationFirmwareEnabled":false,"TotalPhysicalMemory":8589934592}'
    os_info, _, _, win, findings = W.detect_windows(_system(d))
    codes = {f.code: f.severity for f in findings}
    assert os_info.version_id == "10"
    assert codes["windows_too_old_for_wsl_cuda"] == "error"
    assert codes["virtualization_disabled"] == "error" and win.virtualization_enabled is False


def test_hypervisor_running_counts_as_virtualization_on():
    d = copy.deepcopy(DEMO)
    d["commands"][command_key(W.PS_SYSTEM_ARGV)]["stdout"] = '{"HypervisorPresent":true,"VirtualizationFirmwareEnabled":false,"TotalPhysicalMemory":8589934592}'
    assert W.detect_windows(_system(d))[3].virtualization_enabled is True


def test_no_nvidia_driver_yet():
    d = copy.deepcopy(DEMO)
    for k in list(d["commands"]):
        if "nvidia-smi" in k:
            del d["commands"][k]
    d["files"] = {}
    d["which"] = {}
    d["commands"][command_key(W.PS_VIDEO_ARGV)]["stdout"] = json.dumps([
        {"Name": "Microsoft Basic Display Adapter", "AdapterCompatibility": "(Standard display types)", "DriverVersion": "10.0.22621.1",
         "PNPDeviceID": "PCI\\VEN_10DE&DEV_28A0&SUBSYS_3C8E17AA&REV_A1\\4&2B1A6C1F&0&0008", "ConfigManagerErrorCode": 0}])
    _, driver, gpus, win, findings = W.detect_windows(_system(d))
    assert driver.state == "not_installed" and driver.version is None
    assert gpus[0].pci_id == "10de:28a0" and gpus[0].source == "wmi"
    assert win.nvidia_smi_path is None
    f = next(f for f in findings if f.code == "windows_driver_missing")
    assert W.DRIVER_DOWNLOAD_URL in f.hint


def test_tcc_gpu_is_flagged_and_table_only_machine():
    d = copy.deepcopy(DEMO)
    exe = W.SMI_PATHS[0]
    d["commands"].pop(command_key(smi.query_argv(W.SMI_QUERY_FIELDS, exe=exe)))
    d["commands"][exe]["stdout"] = text("smi_win_555_l40s_tcc.out")
    d["commands"][command_key(W.PS_VIDEO_ARGV)]["stdout"] = ""
    _, driver, gpus, _, findings = W.detect_windows(_system(d))
    assert driver.version == "555.85" and gpus[0].name == "NVIDIA L40S" and gpus[0].source == "nvidia_smi_table"
    assert "windows_gpu_tcc_mode" in {f.code for f in findings}


def test_wslconfig_on_the_windows_side():
    d = copy.deepcopy(DEMO)
    d["files"]["C:\\Users\\alex\\.wslconfig"] = "[wsl2]\r\nmemory=24GB\r\n"
    os_info = W.detect_windows(_system(d))[0]
    assert os_info.wslconfig_path == "C:\\Users\\alex\\.wslconfig" and os_info.wsl_memory_limit_mib == 24576


def test_empty_windows_snapshot_never_raises():
    os_info, driver, gpus, win, findings = W.detect_windows(SnapshotSystem({"format": "gpu-wizard-snapshot/1", "platform": "windows"}))
    assert os_info.platform == "windows" and os_info.windows_build is None
    assert driver.state == "not_installed" and gpus == []
    assert win.wsl_installed is False
    assert {"no_nvidia_gpu", "wsl_not_installed"} <= {f.code for f in findings}


def test_localized_utf16_wsl_output_decodes():
    # wsl.exe in Chinese (MicrosoftDocs/WSL#439): CJK text has few NUL bytes, the decoder must still see UTF-16
    zh = "版权所有 (c) Microsoft Corporation。保留所有权利。\r\n用法: wsl.exe [参数] [选项...] [CommandLine]\r\n"
    for raw in (zh.encode("utf-16-le"), b"\xff\xfe" + zh.encode("utf-16-le")):
        assert decode_output(raw) == zh
    assert W.parse_wsl_list(decode_output(zh.encode("utf-16-le"))) == []


def test_recorded_windows_snapshot_replays_the_same_facts():
    """What `gpu-wizard snapshot` records on Windows (RecordingSystem) replays to the same answer."""
    from app.system import RecordingSystem

    rec = RecordingSystem(_system(_with_wsl(DEMO, text("wsl_l_v_ubuntu2204.txt"), text("wsl_status_2022.txt"))))
    first = W.detect_windows(rec)
    snap = rec.snapshot(note="replay test")
    assert snap["platform"] == "windows"
    assert command_key(W.WSL_LIST_ARGV) in snap["commands"] and r"C:\Windows\System32\nvidia-smi.exe" in snap["files"]
    again = W.detect_windows(SnapshotSystem(json.loads(json.dumps(snap))))
    assert again == first


def test_a_failing_or_hung_command_does_not_stop_detection():
    class Flaky(SnapshotSystem):
        def run(self, argv, timeout=10):
            if argv[0] == "powershell":
                raise OSError("powershell.exe: access denied")
            if argv[:2] == ["wsl", "--status"]:
                from app.system import CommandResult

                return CommandResult(rc=124, stderr="[timed out after 20 s]", timed_out=True)
            return super().run(argv, timeout)

    os_info, driver, gpus, win, findings = W.detect_windows(Flaky(copy.deepcopy(DEMO)))
    assert os_info.windows_build == "10.0.22631" and os_info.memory_total_mib is None  # the CIM query failed
    assert driver.version == "591.86" and gpus[0].pci_id == "10de:28a0"  # nvidia-smi still answered
    assert win.virtualization_enabled is None and win.wsl_installed is None
    f = next(f for f in findings if f.code == "wsl_state_unknown")
    assert f.evidence == ("[timed out after 20 s]",)
    assert "wsl_not_installed" not in {f.code for f in findings}  # a timeout is not "not installed"
