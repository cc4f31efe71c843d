"""Detection on real outputs as users paste them: a container's nvidia-smi with a timestamp before each
line, lspci -nn lines after a prompt or without their slot, ERR!/N/A fields as findings, and truncated
names completed only where the memory column agrees. Sources: each fixture's SOURCE.md."""
import pytest

from app.detect import detect, pci, smi
from detect_helpers import read, snapshot

OS = {"/etc/os-release": read("h200", "file_etc_os-release")}


def _stamp(text: str, style: str) -> str:
    lines = text.splitlines()
    if style == "docker":  # docker logs -t / kubectl logs --timestamps
        return "\n".join(f"2024-05-14T09:12:{i % 60:02d}.{i:06d}123Z {ln}" for i, ln in enumerate(lines))
    if style == "cri":  # containerd's CRI log file format
        return "\n".join(f"2024-05-14T09:12:33.123456789+00:00 stdout F {ln}" for ln in lines)
    if style == "bracket":
        return "\n".join(f"[2024-05-14 09:12:33] {ln}" for ln in lines)
    return "user@gpu-node:~$ nvidia-smi\n" + text


@pytest.mark.parametrize("style", ["docker", "cri", "bracket", "prompt"])
def test_a_container_log_of_nvidia_smi_yields_its_gpu(style):
    raw = read("smi-v100-sxm2-container", "nvidia-smi.out")
    f = detect(snapshot(OS, {"nvidia-smi": _stamp(raw, style)}))
    [g] = f.gpus
    assert (g.compute_capability, g.memory_total_mib, g.bus_id) == ("7.0", 16160, "0000:00:0a.0")
    assert g.name == "Tesla V100 SXM2 16GB"  # completed: the name and the 16160 MiB fit one board
    assert (f.driver.version, f.driver.cuda_version) == ("440.64.00", "10.2")


def test_a_truncated_name_never_contradicts_the_memory_column():
    raw = read("smi-v100-sxm2-container", "nvidia-smi.out")
    block = raw.splitlines()[6:8]
    eight = "\n".join(raw.splitlines()[:6] + [ln.replace("|   0 ", f"|   {i} ").replace("00:0A.0", f"00:0{i}.0").replace("16160MiB", "32480MiB")
                                               for i in range(8) for ln in block] + raw.splitlines()[8:])
    f = detect(snapshot(OS, {"nvidia-smi": eight}))
    assert len(f.gpus) == 8 and {g.name for g in f.gpus} == {"Tesla V100 SXM2 32GB"}
    # a memory the table names no board for: the truncated name is kept, never a wrong size
    odd = detect(snapshot(OS, {"nvidia-smi": raw.replace("16160MiB", "24000MiB")}))
    assert odd.gpus[0].name == "Tesla V100-SXM2..." and odd.gpus[0].compute_capability == "7.0"
    # the Azure V100 PCIe (16160 MiB) and a 16 GB P100 PCIe complete to their own boards
    az = smi.parse_smi_table(read("smi-err-v100-azure", "nvidia-smi.out")).gpus[0]
    assert az["name"] == "Tesla V100-PCIE..." and az["memory_total_mib"] == 16160
    from app.compat import gpus

    assert gpus.lookup_name("Tesla P100-PCIE...", 16384).name == "Tesla P100 PCIe 16GB"


def test_err_fields_become_findings_with_their_meaning():
    f = detect(snapshot(OS, {"nvidia-smi": read("smi-err-v100-azure", "nvidia-smi.out")}))
    w = f.finding("smi_gpu_field_err")
    assert w and "power" in w.params["gpu_fields"] and "GPU 1" in w.params["gpu_fields"] and "failed to read" in w.message
    assert "Xid" in w.hint
    wsl = detect(snapshot(OS, {"nvidia-smi": read("wsl", "smi_wsl_cuda_err.out")}))
    c = wsl.finding("smi_cuda_version_err")
    assert c and "CUDA Version: ERR!" in c.evidence[0] and c.severity == "warning"
    na = detect(snapshot(OS, {"nvidia-smi": read("wsl", "smi_wsl_cuda_err.out").replace("CUDA Version: ERR!", "CUDA Version: N/A ")}))
    assert na.finding("smi_cuda_version_na") and "libcuda" in na.finding("smi_cuda_version_na").message
    ok = detect(snapshot(OS, {"nvidia-smi": read("smi-rtx4090d-550", "nvidia-smi.out")}))
    assert not any(x.code.startswith("smi_") for x in ok.findings)  # a healthy table raises none


def test_query_csv_error_fields_are_findings():
    from detect_helpers import QUERY_KEY

    fields = ("name", "utilization.gpu", "utilization.memory", "temperature.gpu", "power.draw", "power.limit", "fan.speed",
              "clocks.current.graphics", "clocks.current.memory", "power.default_limit")
    [row] = smi.parse_smi_query(read("smi-query-unknown-error", "query.out"), fields)
    bad = [k for k, v in row.items() if smi.is_error_value(v)]
    assert bad == ["power.default_limit"]  # the real "[Unknown Error]" of that RTX 2080 Ti
    # the same value in the wizard's own query line
    line = ("0, NVIDIA GeForce RTX 2080 Ti, 00000000:01:00.0, 0x1E0710DE, 0x12FF10DE, GPU-x, 550.54.14, 11264, 1, 7.5, 3, 3, 16, 16, "
            f"210.00, {row['power.default_limit']}, 2100, 7000, Disabled, Default, [N/A]")
    f = detect(snapshot(OS, {QUERY_KEY: line}))
    w = f.finding("smi_gpu_field_err")
    assert w is not None and "power.default_limit" in w.params["gpu_fields"] and f.gpus[0].compute_capability == "7.5"
    assert "ecc" not in w.params["gpu_fields"]  # [N/A]: not supported, not an error


def test_lspci_lines_after_a_prompt_or_without_their_slot():
    line = read("lspci-gtx1060", "lspci-nn.out").strip().splitlines()[0]
    assert pci.parse_lspci_nn("user@box:~$ " + line)[0].device == pci.parse_lspci_nn(line)[0].device
    slotless = line.split(" ", 1)[1]  # "VGA compatible controller [0300]: NVIDIA ... [10de:1c03] (rev a1)"
    [d] = pci.parse_lspci_nn("$ lspci -nn | grep -i nvidia | cut -d' ' -f2-\n" + slotless)
    assert d.vendor == "10de" and d.bus_id == "" and d.is_display
    f = detect(snapshot(OS, {"lspci -nn": slotless}))
    [g] = f.gpus
    assert g.pci_id == f"10de:{d.device}" and g.bus_id is None and g.compute_capability == "6.1"
    stamped = detect(snapshot(OS, {"lspci -nn": "2024-05-14T09:12:33Z " + line}))
    assert stamped.gpus and stamped.gpus[0].pci_id == g.pci_id
