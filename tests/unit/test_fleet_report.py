"""fleet report on a folder of real snapshots and the real H200 verifications (tests/fixtures/verify):
rows, peers lagging (narrow link, bandwidth under the median), links to each host's own report,
both languages, and bad input."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from app.cli import main
from app.fleet.report import build_fleet_report, write_fleet_report

ROOT = Path(__file__).resolve().parents[2]
SNAP = ROOT / "resources" / "snapshots"
VER = ROOT / "tests" / "fixtures" / "verify"


def _folder(tmp_path: Path, n_h200: int = 4, slow: dict | None = None) -> Path:
    d = tmp_path / "fleet"
    d.mkdir()
    shutil.copy(SNAP / "nodriver-rtx3060-ubuntu2204.json", d / "ws1.json")
    shutil.copy(SNAP / "wsl2-laptop-rtx4070-ubuntu2204.json", d / "laptop1.json")
    base = json.loads((VER / "h200_quick.json").read_text())
    for i in range(n_h200):
        h = f"h200-{i}"
        shutil.copy(SNAP / "h200-server-ubuntu2404.json", d / f"{h}.json")
        v = json.loads(json.dumps(base))
        for g in v["gpus"]:
            if slow and h in slow:
                width, share = slow[h]
                g["device"]["pcie_width_current"] = width
                g["bandwidth"]["h2d_pinned_gbps"] = round(g["bandwidth"]["h2d_pinned_gbps"] * share, 2)
        (d / f"{h}.verify.json").write_text(json.dumps(v))
    return d


def test_lagging_hosts_are_flagged_against_their_peers(tmp_path):
    d = _folder(tmp_path, 5, slow={"h200-3": (8, 0.5), "h200-4": (16, 0.85)})
    rep = build_fleet_report(d, host_reports=False)
    rows = {r["host"]: r for r in rep["hosts"]}
    assert len(rows) == 7
    assert [f["code"] for f in rows["h200-3"]["flags"]] == ["fleet_lag_bandwidth", "fleet_lag_link"]
    assert "x8" in rows["h200-3"]["flags"][1]["text"] and "x16" in rows["h200-3"]["flags"][1]["text"]
    assert rows["h200-4"]["flags"] == []  # 15 % under the median is within the 20 % band
    assert rows["h200-0"]["flags"] == [] and rows["ws1"]["flags"] == []
    assert rows["h200-0"]["verification"]["h2d_gbps"] == 55.41 and rows["h200-0"]["verification"]["tflops"] == 663.97
    assert rows["h200-0"]["torch"].startswith("2.11.0") and rows["h200-0"]["driver"] == "580.159.04"
    assert rows["laptop1"]["platform"] == "wsl2" and rows["ws1"]["verification"] is None
    assert rep["summary"]["lagging"] == 1 and rep["summary"]["hosts"] == 7


def test_too_few_peers_are_not_compared(tmp_path):
    d = _folder(tmp_path, 2, slow={"h200-1": (16, 0.5)})
    rows = {r["host"]: r for r in build_fleet_report(d, host_reports=False)["hosts"]}
    assert rows["h200-1"]["flags"] == []  # a median of two hosts says nothing


def test_page_links_each_host_report_and_speaks_chinese(tmp_path, capsys):
    d = _folder(tmp_path, 3, slow={"h200-2": (8, 1.0)})
    out = tmp_path / "fleet.html"
    assert main(["fleet", "report", str(d), "-o", str(out), "--json", "--all-host-reports"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["lagging"] == ["h200-2"]
    html = out.read_text()
    for h in ("ws1", "laptop1", "h200-0", "h200-1", "h200-2"):
        assert f"href='fleet/{h}.report.html'" in html
        page = (d / f"{h}.report.html").read_text()
        assert page.startswith("<!DOCTYPE html>") and "gpu-wizard-report" in page
    assert "<script src" not in html and "http://" not in html and "https://" not in html
    assert json.loads((tmp_path / "fleet.json").read_text())["hosts"][0]["host"] == "h200-0"
    assert main(["fleet", "report", str(d), "-o", str(tmp_path / "zh.html"), "--lang", "zh_CN"]) == 0
    zh = (tmp_path / "zh.html").read_text()
    assert "集群报告" in zh and "PCIe 链路为 x8" in zh


def test_bad_input_is_one_line(tmp_path, capsys):
    assert main(["fleet", "report", str(tmp_path / "missing")]) == 2
    assert "no such folder" in capsys.readouterr().err
    (tmp_path / "empty").mkdir()
    assert main(["fleet", "report", str(tmp_path / "empty")]) == 2
    assert "no hosts recorded" in capsys.readouterr().err
    assert main(["fleet"]) == 2
    assert main(["fleet", "run", "-i", str(tmp_path / "inv"), "-p", str(tmp_path / "nope.yml")]) == 2
    assert "playbook not found" in capsys.readouterr().err


def test_write_is_atomic_and_json_beside(tmp_path):
    d = _folder(tmp_path, 1)
    rep = build_fleet_report(d, host_reports=False)
    html, js = write_fleet_report(rep, d / "fleet.html")
    assert Path(js).name == "fleet.json" and not list(d.glob("*tmp"))
    # the page's own JSON in the folder is not taken for a host
    assert {r["host"] for r in build_fleet_report(d, host_reports=False)["hosts"]} == {"ws1", "laptop1", "h200-0"}


def test_hostile_fleet_report_never_points_outside_its_folder(tmp_path):
    """Issue 23 class 7: host-report paths outside the page's folder (.., absolute, a `folder` at /etc, a link
    out) are never opened, and JSON nested thousands deep is one line, never a traceback."""
    import os

    import pytest

    from app.fleet.report import FleetReportError, load_fleet_report

    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "x.report.html").write_text("<!DOCTYPE html>secret")
    page_dir = tmp_path / "page"
    (page_dir / "hosts" / "a").mkdir(parents=True)
    os.symlink(outside / "x.report.html", page_dir / "hosts" / "a" / "report.html")  # a link out of the folder
    (page_dir / "ok.report.html").write_text("<!DOCTYPE html>fine")
    rows = [{"host": "a", "report": "hosts/a/report.html"}, {"host": "b", "report": "../outside/x.report.html"},
            {"host": "c", "report": str(outside / "x.report.html")}, {"host": "d", "report": "x.report.html"},
            {"host": "e", "report": "ok.report.html"}, {"host": "f", "report": "..\\\\outside\\\\x.report.html"}]
    data = {"format": "gpu-wizard-fleet-report/2", "hosts": rows, "folder": str(outside), "host_reports": "../outside/"}
    (page_dir / "fleet.json").write_text(json.dumps(data))
    got = {h["host"]: h["report_path"] for h in load_fleet_report(page_dir / "fleet.json")["hosts"]}
    assert got == {"a": None, "b": None, "c": None, "d": None, "e": str((page_dir / "ok.report.html").resolve()), "f": None}
    deep = page_dir / "deep.json"
    deep.write_text('{"format": "gpu-wizard-fleet-report/1", "hosts": ' + "[" * 100000 + "]" * 100000 + "}")
    with pytest.raises(FleetReportError):
        load_fleet_report(deep)
    # a fleet folder whose record and verifications are nested too deep still gives a page
    d = tmp_path / "fleet"
    (d / "hosts" / "h1").mkdir(parents=True)
    shutil.copy(SNAP / "h200-server-ubuntu2404.json", d / "hosts" / "h1" / "snapshot.json")
    (d / "hosts" / "h1" / "verify.json").write_text("[" * 100000 + "]" * 100000)
    (d / "fleet-record.json").write_text("{" + '"a":{' * 50000 + "}" * 50001)
    rep = build_fleet_report(d)
    assert [r["host"] for r in rep["hosts"]] == ["h1"] and rep["hosts"][0]["verification"] is None


def test_reserved_names_and_every_host_kept_with_its_reason(tmp_path, capsys):
    """Hosts named like the wizard's own files get folders of their own; an inventory host whose snapshot
    cannot be read keeps its row with the reason; `--limit` adds to the record, never replaces it."""
    inv = tmp_path / "inv.ini"
    inv.write_text("[lab]\n" + "".join(f"{h} gpu_wizard_snapshot={SNAP / 'h200-server-ubuntu2404.json'}\n"
                                       for h in ("fleet", "fleet-plan", "fleet-record", "a.verify"))
                   + f"broken gpu_wizard_snapshot={tmp_path / 'missing.json'}\n")
    d = tmp_path / "out"
    assert main(["fleet", "detect", "-i", str(inv), "-o", str(d), "--json"]) == 1
    res = json.loads(capsys.readouterr().out)
    assert res["failed"] == ["broken"] and "missing.json" in res["reasons"]["broken"]
    for h in ("fleet", "fleet-plan", "fleet-record", "a.verify"):
        assert (d / "hosts" / h / "snapshot.json").is_file()
    rec = json.loads((d / "fleet-record.json").read_text())
    assert rec["format"] == "gpu-wizard-fleet-record/1" and set(rec["hosts"]) == {"fleet", "fleet-plan", "fleet-record", "a.verify", "broken"}
    assert rec["hosts"]["broken"]["detect"]["result"] == "failed"
    assert main(["fleet", "detect", "-i", str(inv), "-o", str(d), "--limit", "fleet"]) == 0
    rec2 = json.loads((d / "fleet-record.json").read_text())
    assert set(rec2["hosts"]) == set(rec["hosts"]) and rec2["hosts"]["broken"] == rec["hosts"]["broken"]
    assert main(["fleet", "report", str(d), "-o", str(d / "fleet.html")]) == 0
    rows = {r["host"]: r for r in json.loads((d / "fleet.json").read_text())["hosts"]}
    assert set(rows) == set(rec["hosts"]) and rows["broken"]["plan_status"] == "fail"
    assert "missing.json" in rows["broken"]["plan"]


def test_fleet_verify_counts_honestly(tmp_path, capsys):
    """`verified N` counts hosts whose verification ran; the others are skipped, with why."""
    ver = VER / "h200_quick.json"
    inv = tmp_path / "inv.ini"
    inv.write_text("[lab]\n" + "".join(f"h{i} gpu_wizard_snapshot={SNAP / 'h200-server-ubuntu2404.json'} gpu_wizard_verification={ver}\n"
                                       for i in range(2))
                   + f"ws1 gpu_wizard_snapshot={SNAP / 'nodriver-rtx3060-ubuntu2204.json'}\n")
    assert main(["fleet", "verify", "-i", str(inv), "-o", str(tmp_path / "f")]) == 0
    err = capsys.readouterr().err
    assert "verified 2 of 3 hosts (2 passed, 0 with warnings, 0 failed)" in err
    assert "skipped 1: no verification" in err and "(ws1)" in err
    assert main(["fleet", "verify", "-i", str(inv), "-o", str(tmp_path / "f"), "--lang", "zh_CN"]) == 0
    assert "已验证 3 台主机中的 2 台" in capsys.readouterr().err
