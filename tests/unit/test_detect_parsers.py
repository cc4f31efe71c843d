"""Pure parsers on real outputs (tests/fixtures/real/*/SOURCE.md says where each came from)."""
import json

import pytest

from app.detect import cuda_toolkit, cudnn, env as envp, modules, os_release as osr, packages, pci, proc, python_env, secure_boot, smi
from app.detect.nvml import parse_nvml
from detect_helpers import h200_nvml, read


def test_smi_table_h200_current_banner():
    t = smi.parse_smi_table(read("h200", "nvidia-smi.out"))
    assert (t.driver_version, t.cuda_version, t.error) == ("580.159.04", "13.0", None)
    [g] = t.gpus
    assert g["name"] == "NVIDIA H200" and g["bus_id"] == "0000:00:06.0"
    assert g["memory_total_mib"] == 143771 and g["memory_used_mib"] == 0
    assert g["persistence_mode"] is True and g["power_limit_w"] == 700.0 and g["compute_mode"] == "Default"


def test_smi_table_umd_kmd_banner():
    t = smi.parse_smi_table(read("smi-umd-gtx1650", "nvidia-smi.out"))
    assert t.driver_version == "610.57.04" and t.kmd_version == "610.57.04" and t.cuda_version == "13.3"
    [g] = t.gpus
    assert g["name"] == "NVIDIA GeForce GTX 1650" and g["memory_total_mib"] == 4096
    assert g["power_limit_w"] == 75.0  # "N/A  /   75W": usage unknown, cap known


def test_smi_table_old_banner_without_cuda_two_k80():
    t = smi.parse_smi_table(read("smi-old-tesla-k80-390", "nvidia-smi.out"))
    assert t.driver_version == "390.12" and t.cuda_version is None
    assert [(g["index"], g["name"], g["bus_id"], g["memory_total_mib"]) for g in t.gpus] == [
        (0, "Tesla K80", "0000:83:00.0", 12206), (1, "Tesla K80", "0000:84:00.0", 12206)]
    assert t.gpus[0]["ecc_errors"] is None  # "Off"


def test_smi_table_old_banner_single_space_index():
    t = smi.parse_smi_table(read("smi-old-tesla-k40m-390", "nvidia-smi.out"))
    assert [g["name"] for g in t.gpus] == ["Tesla K40m", "Tesla K40m"]
    assert t.gpus[1]["bus_id"] == "0000:84:00.0" and t.gpus[1]["ecc_errors"] == 0 and t.gpus[0]["persistence_mode"] is True


def test_smi_table_truncated_name_keeps_ellipsis():
    t = smi.parse_smi_table(read("smi-truncated-rtx4070-laptop", "nvidia-smi.out"))
    [g] = t.gpus
    assert g["name"] == "NVIDIA GeForce RTX 4070 ..." and smi.is_truncated_name(g["name"])
    assert g["memory_total_mib"] == 8188 and t.cuda_version == "13.0"


def test_smi_table_cut_off_paste_reads_what_is_there():
    t = smi.parse_smi_table(read("smi-multi-quadro-rtx4000", "nvidia-smi.out"))
    assert [g["bus_id"] for g in t.gpus] == ["0000:06:00.0", "0000:07:00.0"]
    assert t.gpus[0]["memory_total_mib"] == 8192 and t.gpus[1]["memory_total_mib"] is None
    assert t.driver_version == "535.129.03" and t.cuda_version == "12.2"


def test_smi_table_pci_domain_and_na_power():
    t = smi.parse_smi_table(read("smi-rtx-a400-550", "nvidia-smi.out"))
    [g] = t.gpus
    assert g["bus_id"] == "0004:01:00.0" and g["name"] == "NVIDIA RTX A400" and g["power_limit_w"] == 50.0


@pytest.mark.parametrize("case,state", [("fail-no-communication", "no_communication"), ("fail-version-mismatch", "mismatch")])
def test_smi_failures(case, state):
    text = read(case, "nvidia-smi.out")
    assert smi.parse_smi_error(text) == state
    t = smi.parse_smi_table(text)
    assert t.gpus == [] and t.error == state


def test_mismatch_library_version_and_proprietary_module():
    assert smi.nvml_library_version(read("fail-version-mismatch", "nvidia-smi.out")) == "580.178"
    p = proc.parse_proc_driver_version(read("fail-version-mismatch", "proc_driver_nvidia_version"))
    assert (p.version, p.kernel_module, p.arch, p.gcc) == ("580.173.02", "proprietary", "x86_64", "14.2.0")


def test_smi_error_generic_failure():
    assert smi.parse_smi_error("NVIDIA-SMI has failed because it couldn't find ...") == "nvml_failed"
    assert smi.parse_smi_error("No devices were found") == "no_devices"
    assert smi.parse_smi_error("all good") is None


def test_smi_query_h200():
    [row] = smi.parse_smi_query(read("h200", "nvidia-smi-query.out"))
    g = smi.gpu_fields_from_query(row)
    assert g["pci_id"] == "10de:2335" and g["subsystem_id"] == "10de:18bf" and g["bus_id"] == "0000:00:06.0"
    assert g["compute_capability"] == "9.0" and g["memory_total_mib"] == 143771 and g["driver_version"] == "580.159.04"
    assert (g["pcie_gen_current"], g["pcie_gen_max"], g["pcie_width_current"], g["pcie_width_max"]) == (5, 5, 16, 16)
    assert g["power_limit_w"] == 700.0 and g["persistence_mode"] is True and g["ecc_enabled"] is True


def test_smi_query_with_header_and_units_is_skipped_not_crashed():
    rows = smi.parse_smi_query(read("h200", "nvidia-smi-query-hdr.out"), smi.BASIC_FIELDS)
    assert rows == []  # 11 columns, not 6: nothing guessed


def test_smi_query_na_and_not_supported():
    line = "0, NVIDIA GeForce GTX 1650, 00000000:01:00.0, 0x1F9110DE, [N/A], GPU-x, 610.57.04, 4096, 580, 7.5, [N/A], [N/A], ERR!, 16, [Not Supported], 75.00, 2100, 6001, Disabled, Default, N/A\n"
    g = smi.gpu_fields_from_query(smi.parse_smi_query(line)[0])
    assert g["pci_id"] == "10de:1f91" and g["subsystem_id"] is None and g["pcie_gen_current"] is None
    assert g["pcie_width_current"] is None and g["power_limit_w"] is None and g["ecc_enabled"] is None


def test_nvml_recorded_form_h200():
    [g] = parse_nvml(h200_nvml())
    assert g.pci_id == "10de:2335" and g.subsystem_id == "10de:18bf" and g.bus_id == "0000:00:06.0"
    assert g.compute_capability == "9.0" and g.memory_total_mib == 143771 and g.power_limit_w == 700.0
    assert g.memory_bus_width_bits == 6016 and g.ecc_enabled is True and g.compute_mode == "Default"
    assert parse_nvml({"error": "NVMLError_DriverNotLoaded: Driver Not Loaded", "devices": []}) == []
    assert parse_nvml({"devices": [{"index": 0, "error": "GPU lost"}, "junk"]}) == []


def test_proc_driver_open_module_h200():
    p = proc.parse_proc_driver_version(read("h200", "file_proc_driver_nvidia_version"))
    assert (p.version, p.kernel_module, p.arch) == ("580.159.04", "open", "x86_64")
    assert proc.parse_sys_module_version(read("h200", "file_sys_module_nvidia_version")) == "580.159.04"
    assert proc.parse_proc_driver_version("garbage\x00\ufffd") is None
    info = proc.parse_gpu_information(read("h200", "proc_gpu_information"))
    assert info["Model"] == "NVIDIA H200" and info["Bus Location"] == "0000:00:06.0"


def test_lspci_nn_lines():
    devs = pci.parse_lspci_nn(read("lspci-nodriver-rtx3060", "lspci-nn.out"))
    assert [(d.bus_id, d.pci_id, d.class_code) for d in devs] == [("0000:01:00.0", "10de:2504", "0300"), ("0000:01:00.1", "10de:228e", "0403")]
    [vga] = pci.nvidia_display(devs)
    assert pci.lspci_model_name(vga.description) == "GeForce RTX 3060 Lite Hash Rate"
    [d] = pci.parse_lspci_nn(read("lspci-gtx1060", "lspci-nn.out"))
    assert d.bus_id == "0000:22:00.0" and d.device == "1c03"


def test_sysfs_h200_link_speed():
    d = pci.parse_sysfs_device("0000:00:06.0", {"vendor": "0x10de\n", "device": "0x2335\n", "class": "0x030200\n",
                                                "subsystem_vendor": "0x10de", "subsystem_device": "0x18bf",
                                                "current_link_speed": "32.0 GT/s PCIe\n", "max_link_speed": "32.0 GT/s PCIe",
                                                "current_link_width": "16", "max_link_width": "16"}, "../../../bus/pci/drivers/nvidia")
    assert (d.pci_id, d.class_code, d.driver, d.link_gen_current, d.link_width_max) == ("10de:2335", "0302", "nvidia", 5, 16)
    assert pci.link_gen("Unknown") is None and pci.link_gen("8.0 GT/s PCIe") == 3


def test_os_release_and_kernel_h200():
    r = osr.parse_os_release(read("h200", "file_etc_os-release"))
    assert (r["ID"], r["VERSION_ID"], r["VERSION_CODENAME"], r["PRETTY_NAME"]) == ("ubuntu", "24.04", "noble", "Ubuntu 24.04.3 LTS")
    assert osr.parse_proc_version(read("h200", "file_proc_version")) == "6.18.44-fc-v657-gpu"
    assert osr.package_manager("ubuntu", ("debian",)) == "apt" and osr.package_manager("rocky", ("rhel", "centos", "fedora")) == "dnf"
    assert osr.parse_meminfo_total_mib(read("h200", "file_proc_meminfo")) == 131981020 // 1024
    assert osr.wsl_from_proc_version(read("h200", "file_proc_version")) == 0
    assert osr.wsl_from_proc_version("Linux version 4.4.0-19041-Microsoft (Microsoft@Microsoft.com)") == 1
    assert osr.wsl_from_proc_version("Linux version 5.10.16.3-microsoft-standard-WSL2 (oe-user@oe-host)") == 2


def test_modules_h200():
    assert modules.parse_proc_modules(read("h200", "file_proc_modules")) == {"nvidia", "nvidia_uvm"}


def test_secure_boot():
    assert secure_boot.parse_mokutil("SecureBoot enabled\n") is True
    assert secure_boot.parse_mokutil("SecureBoot disabled\nPlatform is in Setup Mode\n") is False
    assert secure_boot.parse_mokutil("EFI variables are not supported on this system\n") is False
    assert secure_boot.parse_od_efivar(" 6 0 0 0 1\n") is True and secure_boot.parse_od_efivar(" 22 0 0 0 0\n") is False
    assert secure_boot.parse_od_efivar("od: cannot open") is None
    assert secure_boot.parse_efivar("\x06\x00\x00\x00\x01") is True and secure_boot.parse_efivar("\x06\x00\x00\x00\x00") is False


def test_nvcc_and_toolkit_versions():
    assert cuda_toolkit.parse_nvcc_version(read("h200", "nvcc.out")) == "13.0.88"
    assert cuda_toolkit.parse_nvcc_version(read("fail-no-communication", "nvcc.out")) == "10.0.130"
    assert cuda_toolkit.parse_version_json('{"cuda": {"name": "CUDA SDK", "version": "12.4.131"}}') == "12.4.131"
    assert cuda_toolkit.parse_version_txt("CUDA Version 11.2.152\n") == "11.2.152"
    assert cuda_toolkit.parse_version_json("{not json") is None


def test_dpkg_packages_h200():
    pk = packages.parse_dpkg(read("h200", "dpkg-l.out"))
    names = {p.name for p in pk}
    assert "cuda-toolkit-13-0" in names or any(n.startswith("cuda-") for n in names)
    assert any(n.startswith("libcudnn") for n in names)
    assert all(p.manager == "dpkg" for p in pk)
    assert packages.parse_rpm("nvidia-driver 3:580.95.05-1.el9\nbash 5.1\n")[0].name == "nvidia-driver"


def test_ldconfig_cudnn_h200():
    libs = cudnn.parse_ldconfig_libs(read("h200", "ldconfig-p.out"))
    assert libs == [] or all("libcudnn.so." in p for p in libs)
    assert cudnn.parse_cudnn_header("#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 1\n#define CUDNN_PATCHLEVEL 0\n") == "9.1.0"
    assert cudnn.version_from_libs(["/usr/lib/x86_64-linux-gnu/libcudnn.so.9", "/usr/lib/x86_64-linux-gnu/libcudnn.so.9.1.0"]) == "9.1.0"


def test_env_lines_and_ld_conf():
    lines = envp.cuda_lines("/home/u/.bashrc", "# cuda\nexport PATH=/usr/local/cuda-11.8/bin:$PATH\nalias ll=ls\n")
    assert [(ln.line_no, ln.text) for ln in lines] == [(2, "export PATH=/usr/local/cuda-11.8/bin:$PATH")]
    assert envp.parse_ld_conf("# c\n/usr/local/cuda-11.8/lib64\ninclude /etc/x/*.conf\n") == ["/usr/local/cuda-11.8/lib64"]
    assert envp.classify_path("/usr/local/cuda-11.8/lib64", "/usr/local/cuda-12.4", True) == "other_cuda"
    assert envp.classify_path("/usr/local/cuda-12.4/lib64", "/usr/local/cuda-12.4", True) == "active"
    assert envp.classify_path("/usr/local/cuda-12/lib64", "/usr/local/cuda-12.4", True) == "active"
    assert envp.classify_path("/usr/local/cuda-10.2/lib64", "/usr/local/cuda-12.4", False) == "missing"


def test_torch_probe_output_h200():
    # the real torch.out of the H200 has the same keys the probe prints, under shorter names
    raw = json.loads(read("h200", "torch.out"))
    line = json.dumps({"version": raw["version"], "cuda": raw["cuda"], "cudnn": raw["cudnn"], "available": raw["avail"],
                       "device_count": 1, "arch_list": raw["arch"], "capabilities": raw["cap"]})
    t = python_env.parse_torch_probe("noise before\n" + line, ["9.0"])
    assert (t.version, t.cuda, t.cudnn, t.available, t.covers_all_gpus) == ("2.11.0+cu130", "13.0", "9.19.0", True, True)
    assert python_env.parse_torch_probe(line, ["6.1"]).covers_all_gpus is False  # Pascal not in cu130
    assert python_env.parse_torch_probe("Traceback ...", ["9.0"]).error


@pytest.mark.parametrize("arch,cc,ok", [(["sm_80", "sm_90"], "8.6", True), (["sm_80", "sm_90"], "8.9", True), (["sm_90"], "8.6", False),
                                        (["sm_75", "compute_90"], "12.0", True), (["sm_120"], "12.1", True), (["sm_100"], "12.0", False)])
def test_arch_covers(arch, cc, ok):
    assert python_env.arch_covers(arch, cc) is ok


def test_garbage_and_non_utf8_output_parse_what_they_can():
    from app.system import decode_output
    junk = decode_output(b"\xff\xfe\x00garbage\x80\x81|   0  NVIDIA H200   On  | 00000000:00:06.0 Off |  0 |\n\xc3\x28 MiB / MiB\n")
    t = smi.parse_smi_table(junk)
    assert isinstance(t.gpus, list)
    mixed = decode_output(read("h200", "nvidia-smi.out").encode() + b"\n\xff\xfe\xfd trailing garbage\n")
    t2 = smi.parse_smi_table(mixed)
    assert t2.driver_version == "580.159.04" and len(t2.gpus) == 1
    assert smi.parse_smi_query("\x00\x01,,,\n\ufffd\n") == []
    assert pci.parse_lspci_nn("\ufffd\ufffd\n01:00.0 VGA [zz]\n") == []
    assert osr.parse_os_release('ID="ubuntu\nbroken\n=x\nVERSION_ID=22.04') .get("VERSION_ID") == "22.04"


def test_smi_table_err_field_truncated_datacenter_name():
    t = smi.parse_smi_table(read("smi-err-v100-azure", "nvidia-smi.out"))
    [g] = t.gpus
    assert (g["index"], g["name"], g["bus_id"]) == (1, "Tesla V100-PCIE...", "8ed0:00:00.0")
    assert g["power_limit_w"] == 250.0 and g["memory_total_mib"] == 16160 and g["ecc_errors"] == 0
    from app.compat.gpus import cc_from_name
    assert cc_from_name(g["name"]) == "7.0"


def test_smi_query_unknown_error_field_and_header_line():
    fields = ("name", "utilization.gpu", "utilization.memory", "temperature.gpu", "power.draw", "power.limit", "fan.speed",
              "clocks.current.graphics", "clocks.current.memory", "power.default_limit")
    rows = smi.parse_smi_query(read("smi-query-unknown-error", "query.out"), fields)
    assert [r["name"] for r in rows] == ["GeForce RTX 2080 Ti"]  # the header line is not a GPU
    assert smi._float(rows[0]["power.default_limit"]) is None and smi._float(rows[0]["power.limit"]) == 210.0
