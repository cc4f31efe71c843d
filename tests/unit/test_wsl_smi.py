"""nvidia-smi inside WSL 2 shows the Windows driver (a two-part version such as 555.99, or the
newer "KMD Version"), reports N/A for fields WSL cannot see, and sometimes "CUDA Version: ERR!".
None of that is a fault: detection must give driver state "host" and no error findings."""
import copy
import json

import pytest

from app.detect import detect
from app.detect.smi import parse_smi_table
from app.paths import resource
from tests.conftest import FIXTURES

from app.system import SnapshotSystem

WSL = FIXTURES / "real" / "wsl"
DEMO = json.loads(resource("snapshots", "wsl2-laptop-rtx4070-ubuntu2204.json").read_text())

# (fixture, Linux-side nvidia-smi version, Windows driver version shown, CUDA shown (None for ERR!))
CASES = [
    ("smi_wsl_555_rtx4070.out", "555.52.01", "555.99", "12.5"),
    ("smi_wsl_535_gtx1650.out", "535.103", "537.13", "12.2"),
    ("smi_wsl_cuda_err.out", "545.46", "546.80", None),
    ("smi_wsl_kmd_615.out", "615.10", "615.33", "13.4"),
]


@pytest.mark.parametrize("name,smi,driver,cuda", CASES)
def test_banner_gives_the_windows_driver(name, smi, driver, cuda):
    t = parse_smi_table((WSL / name).read_text())
    assert (t.smi_version, t.driver_version, t.cuda_version, t.error) == (smi, driver, cuda, None)


def test_table_rows_with_na_fields():
    t = parse_smi_table((WSL / "smi_wsl_535_gtx1650.out").read_text())
    g = t.gpus[0]
    assert (g["index"], g["name"], g["bus_id"], g["memory_total_mib"], g["driver_model"]) == \
        (0, "NVIDIA GeForce GTX 1650 ...", "0000:02:00.0", 4096, None)
    assert g["ecc_errors"] is None  # "N/A" is unknown, not an error count


def _wsl_snapshot_with_table(table: str) -> SnapshotSystem:
    data = copy.deepcopy(DEMO)
    data["nvml"] = None  # NVML answers nothing: detection must read the table
    data["commands"]["nvidia-smi"] = {"rc": 0, "stdout": table, "stderr": ""}
    return SnapshotSystem(data, name="wsl-table")


@pytest.mark.parametrize("name,smi,driver,cuda", CASES)
def test_wsl_smi_output_is_not_a_fault(name, smi, driver, cuda):
    facts = detect(_wsl_snapshot_with_table((WSL / name).read_text()))
    assert facts.os.wsl == 2
    assert facts.driver.state == "host"
    assert facts.driver.version == driver  # the Windows driver, not the Linux-side nvidia-smi build
    errors = [f.code for f in facts.findings if f.severity == "error"]
    assert errors == []
    assert not any("driver" in f.code and f.severity != "info" for f in facts.findings), facts.findings


def test_demo_nvml_with_na_pcie_fields_is_fine():
    facts = detect(SnapshotSystem(copy.deepcopy(DEMO), name="demo"))
    g = facts.gpus[0]
    assert g.name == "NVIDIA GeForce RTX 4070 Laptop GPU" and g.compute_capability == "8.9"
    assert g.pcie_gen_current is None and g.memory_total_mib == 8188
    assert facts.driver.state == "host" and facts.driver.version == "555.99"
    assert [f.code for f in facts.findings if f.severity == "error"] == []
