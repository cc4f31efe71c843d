"""A customer snapshot's walkthrough plans with that machine's own network settings (the real recording of
tests/unit/test_snapshot_network.py), never this computer's proxy, CA bundle or config file, and the Plan page
says whose they are in the window's words, in both languages."""
from __future__ import annotations

import json

import pytest

from tests.ui.test_window_fixes import _click_step, _walkthrough
from tests.unit.test_snapshot_network import CUSTOMER, recorded, viewer  # noqa: F401 - fixtures: the recording, this computer's settings
from ui import engine



@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_a_snapshot_walkthrough_plans_with_that_machines_network_settings(qtbot, tmp_path, monkeypatch, recorded, viewer, lang):  # noqa: F811 - fixtures
    """This computer's proxy, CA bundle and config file never reach a customer snapshot's plan; the customer's own
    recorded ones do, and the Plan page says whose they are, in the window's words (no command-line flag)."""
    for k, v in viewer["env"].items():
        monkeypatch.setenv(k, v)
    w = _walkthrough(qtbot, tmp_path, str(recorded["raw"]), lang)
    _click_step(qtbot, w, "plan")
    plan = w.pages["plan"]
    qtbot.waitUntil(lambda: plan.state.plan is not None, timeout=20000)
    p = plan.state.plan
    text = json.dumps(p.to_json()) + engine.pasteable_script(p) + plan.detail.toPlainText() + plan.status.text()
    assert not [n for n in viewer["needles"] if n in text]
    assert p.choices["mirrors"]["https_proxy"] == CUSTOMER["HTTPS_PROXY"] and p.choices["mirrors"]["ca_bundle"] == recorded["ca"]
    assert CUSTOMER["PIP_INDEX_URL"] in engine.pasteable_script(p)
    codes = [n.code for n in p.warning_codes]
    assert "note_network_not_this_computers" in codes and "note_network_recorded" in codes
    status = plan.status.text()
    assert "--proxy" not in status  # the window's own wording
    if lang == "zh_CN":
        assert "录制" in status and "本机" in status
    else:
        assert "never this computer's proxy" in status
    w.close()
