"""The install log: a failure's output once (no red repeat), a separator naming the failed step,
live progress text from the running command, long lines wrapped so their end is on screen, and
time left only when it is known."""
from __future__ import annotations

from app.plan.model import Step
from app.run.events import LineEvent, ProgressEvent, StepFinished, StepStarted
from ui.widgets.log_view import LogView


PIP_ERR = ["ERROR: Could not find a version that satisfies the requirement torch==2.99.0 (from versions: 2.5.0, 2.6.0)",
           "ERROR: No matching distribution found for torch==2.99.0"]


def _install_page(qtbot, make_wizard):
    """The Install page over a plan of four steps, the run blocked inside the first (events then come from the test)."""
    from PySide6.QtWidgets import QWizard

    from tests.ui.fakes import FakeRunner

    runner = FakeRunner(lines_per_step=0, block_on="install_thing0")
    w, _s, _r = make_wizard(runner=runner)
    for _ in range(4):
        qtbot.waitUntil(lambda: w.button(QWizard.WizardButton.NextButton).isEnabled(), timeout=5000)
        w.next()
    qtbot.waitUntil(runner.blocked.is_set, timeout=5000)
    return w.pages["install"]


def _stop(qtbot, inst) -> None:
    inst.cancel()
    qtbot.waitUntil(lambda: inst.result is not None, timeout=5000)


def test_failed_step_output_is_not_repeated(qtbot, make_wizard):
    inst = _install_page(qtbot, make_wizard)
    before = len(inst.log.model.lines)
    inst._events([StepStarted("install_thing2", 2, 4, "Install thing 2"), *[LineEvent("install_thing2", "stderr", x) for x in PIP_ERR],
                  StepFinished("install_thing2", "error", "exit status 1", details="\n".join(PIP_ERR))])
    texts = inst.log.model.lines[before:]
    assert texts[:2] == PIP_ERR and len(texts) == 3  # each line once, then one separator
    assert "Install thing 2 failed: exit status 1" in texts[2]
    assert inst.state.step("install_thing2").status == "error" and inst.state.failed.id == "install_thing2"
    _stop(qtbot, inst)


def test_a_silent_failure_shows_its_details_once(qtbot, make_wizard):
    inst = _install_page(qtbot, make_wizard)
    before = len(inst.log.model.lines)
    inst._events([StepFinished("install_thing3", "error", "permission denied", details="PermissionError: /etc/profile.d/cuda.sh")])
    assert inst.log.model.lines[before:] == ["PermissionError: /etc/profile.d/cuda.sh",
                                            "— Install thing 3 failed: permission denied —"]
    _stop(qtbot, inst)


def test_live_lines_and_progress_messages_become_the_activity_text():
    from ui.state import InstallState

    st = InstallState.from_steps([Step(id="install_pytorch", title="t", why="", kind="install_pytorch")])
    st.apply(LineEvent("install_pytorch", "stdout", "   ━━━━━━━━━━━━━━━━━━━━━━━━━━╸━━━━━━━━━━━━━ 512.3/887.9 MB 61.2 MB/s eta 0:00:07", final=False))
    assert "512.3/887.9 MB" in st.activity and not st.step("install_pytorch").streamed  # a bar redrawn in place: no log line
    st.apply(ProgressEvent("install_driver", 0.42, 0.2, "Unpacking nvidia-dkms-580-open (amd64)"))
    assert st.activity.startswith("Unpacking") and st.overall == 0.2


def test_install_page_shows_activity_and_time_left_only_when_known(qtbot, make_wizard):
    from PySide6.QtWidgets import QWizard

    from tests.ui.fakes import FakeRunner

    runner = FakeRunner(block_on="install_thing0")
    w, _s, _r = make_wizard(runner=runner)
    for _ in range(4):
        qtbot.waitUntil(lambda: w.button(QWizard.WizardButton.NextButton).isEnabled(), timeout=5000)
        w.next()
    inst = w.pages["install"]
    qtbot.waitUntil(runner.blocked.is_set, timeout=5000)
    qtbot.wait(100)
    assert inst.time_left.text() == ""  # nothing finished yet: no rate, no guess
    inst.bridge(LineEvent("install_thing0", "stdout", "Downloading torch-2.11.0-cp311-cp311-manylinux_2_28_x86_64.whl (887.9 MB)",
                          final=False))
    qtbot.waitUntil(lambda: "Downloading torch" in inst.activity.text() or "…" in inst.activity.text(), timeout=2000)
    inst.cancel()
    qtbot.waitUntil(lambda: inst.result == "cancelled", timeout=5000)
    assert inst.activity.text() == ""


def test_long_lines_wrap_so_their_end_is_on_screen(qtbot):
    view = LogView()
    qtbot.addWidget(view)
    view.resize(420, 300)
    view.show()
    qtbot.waitExposed(view)
    line = PIP_ERR[0] + " — the cause is here at the end"
    view.append_lines([("stdout", "short line"), ("stderr", line), ("stdout", "after")])
    c = view.view
    assert c.horizontalScrollBar().maximum() == 0  # nothing hidden to the right
    rows = c.row_start[2] - c.row_start[1]
    assert rows >= 2 and c.total_rows == rows + 2
    parts = [c.segment(line, k) for k in range(rows)]
    assert parts[0] + "".join(p[c.INDENT:] for p in parts[1:]) == line
    assert all(len(p) <= c.cols for p in parts)
    fm = c.fontMetrics()
    assert all(fm.horizontalAdvance(p) <= c.viewport().width() - 4 for p in parts)  # every character on screen
    assert c.line_of_row(c.row_start[1] + rows - 1) == (1, rows - 1)
    assert c.line_of_row(c.row_start[2]) == (2, 0)
    view.resize(1600, 300)  # wider: fewer rows, same lines
    qtbot.wait(10)
    assert c.row_start[2] - c.row_start[1] < rows and view.line_count() == 3


def test_pip_bytes_become_a_transfer_not_english_activity():
    from ui.state import InstallState

    st = InstallState.from_steps([Step(id="install_pytorch", title="t", why="", kind="install_pytorch")])
    st.apply(ProgressEvent("install_pytorch", 0.45, 0.3, "torch.whl: 400 of 900 MiB", 400 << 20, 900 << 20, "torch.whl"), now=5.0)
    x = st.transfer
    assert (x.name, x.done, x.total) == ("torch.whl", 400 << 20, 900 << 20) and st.activity == "" and st.overall == 0.3


def test_transfer_time_left_only_once_a_rate_was_measured():
    from ui.state import Transfer, format_bytes

    x = Transfer()
    x.update("a.whl", 0, 100 << 20, now=10.0)
    assert x.time_left_s() is None  # no rate yet
    x.update("a.whl", 10 << 20, 100 << 20, now=10.5)
    assert x.time_left_s() is None  # under a second of measuring
    x.update("a.whl", 20 << 20, 100 << 20, now=12.0)
    assert abs(x.time_left_s() - 8.0) < 1e-6 and abs(x.fraction - 0.2) < 1e-9  # 10 MiB/s, 80 MiB to go
    x.update("b.whl", 1 << 20, None, now=13.0)  # the next file, its size unknown: no time left, no percent
    assert x.fraction is None and x.time_left_s() is None and x.d0 == 1 << 20
    assert format_bytes(900 << 20) == "900.0 MB" and format_bytes(3 << 30) == "3.00 GB"


def test_install_page_says_pip_download_in_bytes_and_language(qtbot, make_wizard):
    import time as _time

    from PySide6.QtWidgets import QWizard

    from tests.ui.fakes import FakeRunner
    from ui.i18n import tr

    runner = FakeRunner(block_on="install_thing0")
    w, _s, _r = make_wizard(runner=runner)
    for _ in range(4):
        qtbot.waitUntil(lambda: w.button(QWizard.WizardButton.NextButton).isEnabled(), timeout=5000)
        w.next()
    inst = w.pages["install"]
    qtbot.waitUntil(runner.blocked.is_set, timeout=5000)
    name = "torch-2.13.0-cp311-cp311-manylinux_2_28_x86_64.whl"
    inst.bridge(ProgressEvent("install_thing0", 0.1, 0.05, "", 100 << 20, 900 << 20, name))
    qtbot.waitUntil(lambda: "100.0 MB" in inst.activity.text(), timeout=2000)
    assert "900.0 MB" in inst.activity.text() and "(11%)" in inst.activity.text()
    assert tr("{t} left for this file").split("{t}")[-1] not in inst.activity.text()  # no rate yet: no time left
    inst.bridge(LineEvent("install_thing0", "stdout", "torch.whl: 100 of 900 MiB", final=False))  # pip's English line right after
    qtbot.wait(120)
    assert "100.0 MB" in inst.activity.text()  # the window's own words stay
    _time.sleep(1.05)
    inst.bridge(ProgressEvent("install_thing0", 0.3, 0.1, "", 300 << 20, 900 << 20, name))
    qtbot.waitUntil(lambda: "300.0 MB" in inst.activity.text(), timeout=2000)
    assert tr("{t} left for this file").split("{t}")[-1] in inst.activity.text()  # a measured rate: time left
    inst.cancel()
    qtbot.waitUntil(lambda: inst.result == "cancelled", timeout=5000)
