"""The wizard's own download failures (TLS, proxy, DNS, timeouts; real error texts): Troubleshoot
names the cause and offers the fix in the window (the certificate / proxy / mirror fields), never a
command to type; what is entered there reaches the next plan."""
from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QWizard

from app.diagnose import diagnose as real_diagnose

ERRORS = Path(__file__).resolve().parents[1] / "fixtures" / "errors"
CASES = [("tls_pip_local_issuer_pytorch.txt", "ca_bundle"), ("tls_apt_expired_chain_gobysoft.txt", "ca_bundle"),
         ("proxy_pip_connection_reset.txt", "proxy"), ("dns_apt_update_vscode.txt", "pypi"),
         ("timeout_pip_connect_pytorch_index.txt", "pypi")]


@pytest.mark.parametrize("fixture,field", CASES, ids=[c[0] for c in CASES])
def test_download_failure_opens_the_network_fields(qtbot, make_wizard, fixture, field):
    if not (ERRORS / fixture).exists():
        pytest.skip(f"{fixture} is not in this checkout")
    chosen = []

    def build_plan(facts, rec, choices):
        from tests.ui.fakes import make_plan

        chosen.append(choices)
        return make_plan(2)

    w, _s, _r = make_wizard(diagnose=real_diagnose, build_plan=build_plan)
    w.pages["welcome"].path_buttons["troubleshoot"].setChecked(True)
    w.next()
    ts = w.pages["troubleshoot"]
    ts.input.setPlainText((ERRORS / fixture).read_text(encoding="utf-8", errors="replace"))
    ts.diagnose()
    qtbot.waitUntil(lambda: ts.state.diagnosis is not None, timeout=10000)
    top = ts.state.top
    assert top is not None and top.category == "network_error", ts.state.diagnosis
    shown = ts.result.toPlainText()
    for terminal in ("--ca-bundle", "update-ca-certificates", "run ", "gpu-wizard ", "export "):
        assert terminal not in shown, (terminal, shown)
    assert ts.network_btn.isVisible()
    qtbot.mouseClick(ts.network_btn, Qt.MouseButton.LeftButton)
    assert w.current_page_id == "recommendation"
    rec = w.pages["recommendation"]
    target = {"ca_bundle": rec.ca_bundle, "proxy": rec.proxy, "pypi": rec.pypi}[field]
    assert rec.adv.isVisible() and rec.error_banner.isVisibleTo(rec)
    assert QApplication.focusWidget() is target
    target.setText({"ca_bundle": "/etc/ssl/certs/company-ca.pem", "proxy": "http://proxy.example.com:8080",
                    "pypi": "https://mirror.example.com/pypi/simple"}[field])
    rec._edited()
    qtbot.mouseClick(rec.apply_btn, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(rec.isComplete, timeout=5000)
    w.next()
    assert w.current_page_id == "plan"
    qtbot.waitUntil(lambda: w.pages["plan"].state.plan is not None, timeout=5000)
    m = chosen[-1].mirrors
    assert {"ca_bundle": m.ca_bundle, "proxy": m.https_proxy, "pypi": m.pypi_index_url}[field]
    assert w.button(QWizard.WizardButton.NextButton).text() == "&Install >"
