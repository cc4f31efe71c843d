"""Troubleshoot: paste an error or open a log, the real diagnosis with evidence, fix → plan."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QWizard

from app.diagnose import diagnose as real_diagnose
from tests.ui.fakes import FakeRunner

ERRORS = Path(__file__).resolve().parents[1] / "fixtures" / "errors"


def _to_troubleshoot(qtbot, w):
    w.pages["welcome"].path_buttons["troubleshoot"].setChecked(True)
    qtbot.waitUntil(lambda: w.button(QWizard.WizardButton.NextButton).isEnabled(), timeout=3000)
    w.next()
    assert w.current_page_id == "troubleshoot"
    return w.pages["troubleshoot"]


def test_pasted_error_is_diagnosed_with_evidence_and_fix_becomes_a_plan(qtbot, make_wizard):
    runner = FakeRunner()
    w, _s, _r = make_wizard(runner=runner, diagnose=real_diagnose)
    page = _to_troubleshoot(qtbot, w)
    text = (ERRORS / "nki_sm120_warning_laptop.txt").read_text(encoding="utf-8", errors="replace")
    page.input.setPlainText(text)
    page.diagnose()
    qtbot.waitUntil(lambda: page.state.diagnosis is not None, timeout=10000)
    d = page.state.diagnosis
    assert d.matches, d.message
    html = page.result.toHtml()
    assert "Most likely cause" in html and "Evidence" in html
    assert d.matches[0].root_cause[:30].replace("&", "&amp;") in html or d.matches[0].root_cause[:20] in page.result.toPlainText()
    if page.state.has_fix:
        assert page.fix_btn.isEnabled()
        page.make_fix_plan()
        assert w.current_page_id == "plan"
        plan = w.pages["plan"]
        assert plan.state.plan is not None and plan.tree.topLevelItemCount() == len(plan.state.steps) > 0
        # nothing runs before the user presses Install (the plan page's Next)
        assert w.button(QWizard.WizardButton.NextButton).text() == "&Install >"
        assert runner.runs == []


def test_open_log_file_with_odd_bytes(qtbot, make_wizard, tmp_path):
    w, _s, _r = make_wizard(diagnose=real_diagnose)
    page = _to_troubleshoot(qtbot, w)
    log = tmp_path / "train.log"
    log.write_bytes(b"\xff\xfe garbage\n" + (ERRORS / "drv_insuff_thc_pytorch.txt").read_bytes())
    page.open_log(str(log))
    qtbot.waitUntil(lambda: page.state.diagnosis is not None, timeout=10000)
    assert "\ufffd" in page.input.toPlainText()
    assert page.state.diagnosis.matches
    page.open_log(str(tmp_path / "missing.log"))
    assert page.error_banner.isVisibleTo(page)


def test_big_log_shows_its_end_and_is_diagnosed_whole(qtbot, make_wizard, tmp_path):
    w, _s, _r = make_wizard(diagnose=real_diagnose)
    page = _to_troubleshoot(qtbot, w)
    log = tmp_path / "big.log"
    early = b"RuntimeError: CUDA error: no kernel image is available for execution on the device\n"
    log.write_bytes(early + b"epoch 1 loss 0.5 step ok\n" * 120_000)  # ~3 MB: the error is far above the shown tail
    page.open_log(str(log))
    qtbot.waitUntil(lambda: page.state.diagnosis is not None, timeout=20000)
    assert len(page.input.toPlainText()) <= 1024 * 1024 and "no kernel image" not in page.input.toPlainText()
    assert page.state.diagnosis.matches[0].category == "no_kernel_image"  # found in the whole file


def test_fix_button_needs_steps_the_wizard_can_run(qtbot, make_wizard):
    w, _s, _r = make_wizard(diagnose=real_diagnose)
    page = _to_troubleshoot(qtbot, w)
    page.input.setPlainText("modprobe: ERROR: could not insert 'nvidia': Key was rejected by service")
    page.diagnose()
    qtbot.waitUntil(lambda: page.state.diagnosis is not None, timeout=10000)
    top = page.state.diagnosis.matches[0]
    assert top.category == "secure_boot" and top.fix_steps and not top.runnable_steps  # MOK enrolment is manual
    assert not page.fix_btn.isEnabled()


def test_failed_install_step_goes_to_troubleshoot_with_its_log(qtbot, make_wizard):
    runner = FakeRunner(fail_once=("install_thing1",))
    w, _s, _r = make_wizard(runner=runner, diagnose=real_diagnose)
    for _p in ("system", "recommendation", "plan"):
        qtbot.waitUntil(lambda: w.button(QWizard.WizardButton.NextButton).isEnabled(), timeout=5000)
        w.next()
    qtbot.waitUntil(lambda: w.pages["plan"].state.plan is not None, timeout=5000)
    pass  # pressing Install (Next) confirms the plan
    w.next()
    inst = w.pages["install"]
    qtbot.waitUntil(lambda: inst.result == "error", timeout=5000)
    inst.troubleshoot()
    assert w.current_page_id == "troubleshoot"
    page = w.pages["troubleshoot"]
    assert "Unable to locate package" in page.input.toPlainText()
    qtbot.waitUntil(lambda: page.state.diagnosis is not None, timeout=10000)
    w.back()
    assert w.current_page_id == "install"


def test_failed_verification_goes_to_troubleshoot(qtbot, make_wizard):
    from app.verify.model import Check, Layer, TorchReport, Verification

    v = Verification(layers=(Layer("pytorch", "fail", "CUDA unavailable",
                                   checks=(Check("cuda_unavailable", "fail", "torch.cuda.is_available() is False"),)),),
                     torch=TorchReport(error="CUDA driver version is insufficient for CUDA runtime version"))
    w, _s, _r = make_wizard(diagnose=real_diagnose)
    page = w.pages["verify"]
    w.pages["welcome"].path_buttons["verify"].setChecked(True)
    w.next()
    qtbot.waitUntil(w.pages["system"].isComplete, timeout=5000)
    w.next()
    assert w.current_page_id == "verify"
    qtbot.waitUntil(lambda: not page.state.running, timeout=10000)  # it started by itself
    assert not page.trouble_btn.isVisibleTo(page)
    w.session.verification = v  # as a finished run leaves it
    page.show_result(v)
    assert page.trouble_btn.isVisibleTo(page)
    page.troubleshoot()
    assert w.current_page_id == "troubleshoot"
    ts = w.pages["troubleshoot"]
    assert "insufficient" in ts.input.toPlainText()
    qtbot.waitUntil(lambda: ts.state.diagnosis is not None, timeout=10000)
    assert ts.state.diagnosis.matches and ts.state.diagnosis.matches[0].category == "driver_insufficient"


def test_a_fix_plan_installs_into_the_plans_venv_with_the_runs_mirrors_never_the_system_python(qtbot, make_wizard, tmp_path):
    """Issue 22: "Make a plan of this fix" ran pip into the system Python (Debian refuses it: externally managed).
    The window's own diagnosis (ui.engine, as the app runs it) aims at the plan's venv with the run's proxy and CA."""
    from app.choices import Choices, Mirrors
    from app.facts import DriverInfo, Facts, Gpu, OsInfo, PythonEnv, TorchInfo

    system = PythonEnv(path="/usr/bin/python3", version="3.11.2", kind="system", torch=TorchInfo(version="2.1.2", cuda=None))
    facts = Facts(source="test", os=OsInfo(package_manager="apt", id="debian", version_id="12"), python=system, pythons=(system,),
                  gpus=(Gpu(index=0, name="NVIDIA GeForce RTX 4090", compute_capability="8.9"),),
                  driver=DriverInfo(state="ok", version="570.133.07", cuda_version="12.8", modules_loaded=("nvidia", "nvidia_uvm")))
    w, _s, _r = make_wizard(facts=facts)  # the window's real diagnose (ui.engine), not a fake
    ca = tmp_path / "corp.pem"
    ca.write_text("-----BEGIN CERTIFICATE-----\n", encoding="utf-8")
    page = _to_troubleshoot(qtbot, w)
    w.session.facts = facts
    w.session.choices = Choices(venv_path=str(tmp_path / "gpu"),
                                mirrors=Mirrors(https_proxy="http://proxy.corp.example:3128", ca_bundle=str(ca)))
    page.input.setPlainText('  File "/usr/lib/python3/dist-packages/torch/cuda/__init__.py", line 289, in _lazy_init\n'
                            '    raise AssertionError("Torch not compiled with CUDA enabled")\n'
                            'AssertionError: Torch not compiled with CUDA enabled\n')
    page.diagnose()
    qtbot.waitUntil(lambda: page.state.diagnosis is not None, timeout=20000)
    assert page.state.has_fix and page.fix_btn.isEnabled()
    page.make_fix_plan()
    assert w.current_page_id == "plan"
    steps = w.session.plan.steps
    assert [s.kind for s in steps] == ["create_venv", "install_pytorch"]
    pip = steps[1].commands[0]
    assert pip[0] == str(tmp_path / "gpu" / "bin" / "python") and pip[1:4] == ("-m", "pip", "install")
    assert not any(c[0] == "/usr/bin/python3" and "pip" in c for s in steps for c in s.commands)
    assert "--cert" in pip and steps[1].env["HTTPS_PROXY"] == "http://proxy.corp.example:3128"
