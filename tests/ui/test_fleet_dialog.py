"""Support staff open a fleet report in the window and drill into a host: the real H200 fleet run
(tests/fixtures/real/fleet-h200) and a fleet with a host lagging its peers (built here by
`gpu-wizard fleet report` over the demo snapshots and the real H200 verification), opened through
Welcome's "Open a file…" path and as `gpu-wizard FILE`; a real double click, and the Open button,
open that host's own report as a walkthrough."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from PySide6.QtCore import Qt

from app.cli import main
from ui import engine
from ui.main import build_wizard
from ui.wizard import Services

ROOT = Path(__file__).resolve().parents[2]
REAL = ROOT / "tests" / "fixtures" / "real" / "fleet-h200"
SNAP = ROOT / "resources" / "snapshots"
VER = ROOT / "tests" / "fixtures" / "verify" / "h200_quick.json"


def _wizard(qtbot, tmp_path, snapshot=None, lang="en"):
    services = Services(state_dir=str(tmp_path / "state"), install_backend=lambda s: engine.DryRunBackend(step_delay_s=0.0))
    w = build_wizard(snapshot=str(snapshot) if snapshot else None, lang=lang, services=services)
    qtbot.addWidget(w)
    w.show()
    return w


def _lagging_fleet(tmp_path: Path) -> Path:
    d = tmp_path / "lab" / "hosts"
    d.mkdir(parents=True)
    shutil.copy(SNAP / "nodriver-rtx3060-ubuntu2204.json", d / "ws1.json")
    base = json.loads(VER.read_text())
    for i in range(4):
        shutil.copy(SNAP / "h200-server-ubuntu2404.json", d / f"gpu{i}.json")
        v = json.loads(json.dumps(base))
        if i == 3:  # at x8, half the bandwidth
            for g in v["gpus"]:
                g["device"]["pcie_width_current"] = 8
                g["bandwidth"]["h2d_pinned_gbps"] = round(g["bandwidth"]["h2d_pinned_gbps"] * 0.5, 2)
        (d / f"gpu{i}.verify.json").write_text(json.dumps(v))
    assert main(["fleet", "report", str(d), "-o", str(tmp_path / "lab" / "fleet.html")]) == 0
    return tmp_path / "lab" / "fleet.html"


def _rows(dlg) -> dict[str, object]:
    t = dlg.hosts
    return {t.topLevelItem(i).text(0): t.topLevelItem(i) for i in range(t.topLevelItemCount())}


def _double_click(qtbot, tree, item) -> None:
    tree.scrollToItem(item)
    rect = tree.visualItemRect(item)
    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.mouseDClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


def test_real_h200_fleet_opened_from_welcome_and_drilled_into(qtbot, tmp_path, capsys):
    shutil.copytree(REAL, tmp_path / "run")
    w = _wizard(qtbot, tmp_path)
    assert w.current_page_id == "welcome"
    assert w.pages["welcome"].choose_file(str(tmp_path / "run" / "fleet.html")) is True  # the Open a file… path
    dlg = w._fleet_dialog
    qtbot.waitUntil(dlg.isVisible)
    assert dlg.windowTitle() == "Fleet report: 1 host"
    assert "1 host with 1 GPU" in dlg.summary.text()
    rows = _rows(dlg)
    assert list(rows) == ["h200"]
    item = rows["h200"]
    assert item.text(1) == "NVIDIA H200" and item.text(2) == "580.159.04"
    assert item.data(3, Qt.ItemDataRole.UserRole) == "pass" and "every check passed" in item.text(3)
    assert item.text(5) == ""  # alone: nobody to lag
    _double_click(qtbot, dlg.hosts, item)
    host_report = tmp_path / "run" / "fleet" / "h200.report.html"
    qtbot.waitUntil(lambda: w.session.source.path == str(host_report), timeout=10000)
    assert w.session.source.kind == "report" and w.current_page_id == "verify"  # its recorded verification
    assert w.session.facts is not None and "H200" in w.session.facts.gpus[0].name
    assert not dlg.error.isVisible()


def test_lagging_host_flagged_and_opened_with_the_button_in_chinese(qtbot, tmp_path, capsys):
    page = _lagging_fleet(tmp_path)
    capsys.readouterr()
    shutil.move(str(page.parent), str(tmp_path / "moved"))  # the fleet folder moved as a whole: links still found
    page = tmp_path / "moved" / "fleet.html"
    w = _wizard(qtbot, tmp_path, snapshot=page, lang="zh_CN")  # `gpu-wizard fleet.html`
    dlg = w._fleet_dialog
    qtbot.waitUntil(dlg.isVisible)
    assert dlg.windowTitle() == "集群报告：5 台主机" and dlg.open_btn.text() == "打开这台主机的报告浏览"
    rows = _rows(dlg)
    assert set(rows) == {"ws1", "gpu0", "gpu1", "gpu2", "gpu3"}
    assert rows["gpu3"].text(5) == "落后于同型号主机"
    assert set(rows["gpu3"].data(5, Qt.ItemDataRole.UserRole)) == {"fleet_lag_bandwidth", "fleet_lag_link"}
    assert "x8" in rows["gpu3"].toolTip(5)
    assert all(rows[h].text(5) == "" for h in ("gpu0", "gpu1", "gpu2", "ws1"))
    assert rows["ws1"].data(3, Qt.ItemDataRole.UserRole) == "none"  # never verified
    qtbot.mouseClick(dlg.hosts.viewport(), Qt.MouseButton.LeftButton, pos=dlg.hosts.visualItemRect(rows["gpu3"]).center())
    assert dlg.current_host() == "gpu3" and dlg.open_btn.isEnabled()
    qtbot.mouseClick(dlg.open_btn, Qt.MouseButton.LeftButton)
    want = tmp_path / "moved" / "hosts" / "gpu3.report.html"
    qtbot.waitUntil(lambda: w.session.source.path == str(want), timeout=10000)
    assert w.current_page_id == "verify"
    # back to the fleet and into another host: the wizard leaves the first host's pages for it
    qtbot.mouseClick(dlg.hosts.viewport(), Qt.MouseButton.LeftButton, pos=dlg.hosts.visualItemRect(rows["ws1"]).center())
    qtbot.mouseClick(dlg.open_btn, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: w.session.source.path == str(tmp_path / "moved" / "hosts" / "ws1.report.html"), timeout=10000)


def test_a_host_without_its_report_and_a_broken_fleet_file(qtbot, tmp_path):
    shutil.copytree(REAL, tmp_path / "run")
    report = tmp_path / "run" / "fleet" / "h200.report.html"
    report.unlink()
    w = _wizard(qtbot, tmp_path)
    w.pages["welcome"].choose_file(str(tmp_path / "run" / "fleet.json"))  # the JSON opens the same way
    dlg = w._fleet_dialog
    item = _rows(dlg)["h200"]
    assert dlg.open_btn.isEnabled()  # its snapshot is there: the report is written on demand
    _double_click(qtbot, dlg.hosts, item)
    qtbot.waitUntil(lambda: w.session.source.path == str(report), timeout=10000)
    assert report.read_text().startswith("<!DOCTYPE html>")
    # without its snapshot nor its report: said, nothing opened
    shutil.copytree(REAL, tmp_path / "run2")
    for name in ("h200.report.html", "h200.json"):
        (tmp_path / "run2" / "fleet" / name).unlink()
    w.pages["welcome"].choose_file(str(tmp_path / "run2" / "fleet.json"))
    dlg = w._fleet_dialog
    item = _rows(dlg)["h200"]
    assert not dlg.open_btn.isEnabled()
    _double_click(qtbot, dlg.hosts, item)
    assert dlg.error.isVisibleTo(dlg) and "fleet verify" in dlg.error.text()
    assert w.session.source.path == str(report)
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "gpu-wizard-fleet-report/1", "hosts": ')
    assert w.pages["welcome"].choose_file(str(bad)) is False
    banner = w.pages["welcome"].error_banner
    assert banner.isVisibleTo(w.pages["welcome"]) and "bad.json is not a gpu-wizard fleet report" in banner.text.text()
