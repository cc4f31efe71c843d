"""The fleet report over a real fleet run on an NVIDIA H200 (tests/fixtures/real/fleet-h200,
SOURCE.md there): `fleet detect` + `fleet verify` through ansible-core's local connection gave a
redacted snapshot and a verification; the report built again over them gives the host's row."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from app.cli import main
from app.fleet.report import build_fleet_report

REAL = Path(__file__).resolve().parents[1] / "fixtures" / "real" / "fleet-h200"


def _copy(tmp_path: Path) -> Path:
    d = tmp_path / "fleet"
    shutil.copytree(REAL / "fleet", d)
    return d


def test_real_h200_row(tmp_path):
    rep = build_fleet_report(_copy(tmp_path), host_reports=False, lang="en")
    (row,) = rep["hosts"]
    assert row["host"] == "h200" and row["platform"] == "linux" and row["driver"] == "580.159.04"
    (gpu,) = row["gpus"]
    assert gpu["name"] == "NVIDIA H200" and (gpu["gen"], gpu["width"]) == (5, 16)
    ver = row["verification"]
    assert ver["status"] == "pass" and set(ver["layers"].values()) == {"pass"}
    assert set(ver["layers"]) == {"device", "bandwidth", "pytorch", "load"}
    assert ver["h2d_gbps"] == 55.2
    assert ver["tflops_dtype"] == "bf16" and 660 <= ver["tflops"] <= 690
    assert row["torch"] == "2.11.0+cu130" and not row["flags"]  # one H200: no peers to lag
    summary = {k: rep["summary"][k] for k in ("hosts", "gpus", "verified", "failed", "lagging")}
    assert summary == {"hosts": 1, "gpus": 1, "verified": 1, "failed": 0, "lagging": 0}
    assert rep["summary"]["by_gpu"] == {"NVIDIA H200": 1} and rep["summary"]["by_verdict"] == {"pass": 1}
    # the same row the device run wrote (fleet.json beside the fixture)
    recorded = json.loads((REAL / "fleet.json").read_text())["hosts"][0]
    for k in ("host", "driver", "gpus", "torch"):
        assert row[k] == recorded[k], k
    for k in ("status", "layers", "h2d_gbps", "tflops", "tflops_dtype", "links"):
        assert json.loads(json.dumps(ver[k])) == recorded["verification"][k], k


def test_real_h200_page_says_it_in_words(tmp_path, capsys):
    d = _copy(tmp_path)
    assert main(["fleet", "report", str(d), "-o", str(tmp_path / "fleet.html")]) == 0
    capsys.readouterr()
    html = (tmp_path / "fleet.html").read_text()
    assert "NVIDIA H200 · PCIe 5 x16" in html and ">55.2<" in html and "674.1" in html and "bf16" in html
    assert "Fleet report: 1 host<" in html and "1 host with 1 GPU;" in html  # singular, not "1 hosts"
    assert html.count("badge v pass") == 4 and "href='fleet/h200.report.html'" in html
    assert main(["fleet", "report", str(d), "-o", str(tmp_path / "fleet-zh.html"), "--lang", "zh_CN"]) == 0
    zh = (tmp_path / "fleet-zh.html").read_text()
    assert "集群报告：1 台主机" in zh and "1 台主机，共 1 块 GPU" in zh


def test_fleet_report_read_back_from_page_or_json(tmp_path):
    """What the window opens: the page's embedded JSON or fleet.json; host reports found beside it,
    even after the run's folder (/tmp/o/fleet on the device) is gone."""
    import pytest

    from app.fleet.report import FleetReportError, is_fleet_report, load_fleet_report

    shutil.copytree(REAL, tmp_path / "run")
    for name in ("fleet.html", "fleet.json"):
        p = tmp_path / "run" / name
        assert is_fleet_report(p)
        rep = load_fleet_report(p)
        (row,) = rep["hosts"]
        assert row["host"] == "h200" and row["report_path"] == str(tmp_path / "run" / "fleet" / "h200.report.html")
    assert not is_fleet_report(tmp_path / "run" / "fleet" / "h200.report.html")  # a host's own report
    assert not is_fleet_report(tmp_path / "run" / "fleet" / "h200.json")
    (tmp_path / "bad.json").write_text('{"format": "gpu-wizard-fleet-report/1", "hosts": ')
    with pytest.raises(FleetReportError, match="bad.json is not a gpu-wizard fleet report"):
        load_fleet_report(tmp_path / "bad.json")
    evil = json.loads((REAL / "fleet.json").read_text())
    evil["hosts"][0]["report"] = "../../etc/passwd"
    (tmp_path / "run" / "evil.json").write_text(json.dumps(evil))
    assert load_fleet_report(tmp_path / "run" / "evil.json")["hosts"][0]["report_path"] is None
