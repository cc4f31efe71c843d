"""What the window copies for PowerShell, parsed with PowerShell's grammar (tests/unit/ps_grammar.py), hostile
strings planted in every field: "Copy commands" of a Windows plan (the whole plan as one pasteable block), one
step's text in the detail pane, the PyTorch command the Recommendation page shows for Windows, and a
diagnosis's fix plan on a Windows host (shown as PowerShell, never bash)."""
from __future__ import annotations

from PySide6.QtGui import QGuiApplication

from app.facts import PythonEnv
from tests.unit.ps_grammar import hostile, problems
from tests.unit.test_powershell_grammar import FIELDS, hostile_plan
from ui import engine


def test_copy_commands_of_a_windows_plan_parses_with_hostile_fields():
    text = engine.pasteable_script(hostile_plan())
    assert text.startswith("powershell.exe ") and problems(text, [f for f in FIELDS if f != "env"]) == []


def test_each_step_as_the_detail_pane_shows_it():
    plan = hostile_plan()
    for i, step in enumerate(plan.steps, 1):
        text = engine.step_script(plan, step, i)
        planted = ["exe", "arg1", "arg2", "path1", "content1"] if i == 1 else []
        assert problems(text, planted) == [], step.id


def test_copy_button_puts_the_parsing_text_on_the_clipboard(qtbot, make_wizard):
    w, _s, _r = make_wizard(plan=hostile_plan())
    for _ in range(3):
        qtbot.waitUntil(lambda: w.button(w.WizardButton.NextButton).isEnabled(), timeout=5000)
        w.next()
    page = w.pages["plan"]
    qtbot.waitUntil(lambda: page.state.plan is not None, timeout=5000)
    page.copy_commands()
    assert problems(QGuiApplication.clipboard().text(), ["exe", "arg1", "path1", "content1"]) == []


def test_a_fix_plan_on_a_windows_host_is_powershell():
    """A diagnosis on a Windows host: its fix plan is a Windows plan (PowerShell when copied), and the
    interpreter path the machine reported (hostile here) stays a literal."""
    import copy
    from pathlib import Path

    from app.detect import detect
    from app.diagnose import diagnose
    from app.system import SnapshotSystem
    from tests.unit import test_windows_plan as wp

    facts = detect(SnapshotSystem(copy.deepcopy(wp.DEMO)))
    facts = facts.replace(python=PythonEnv(path="C:\\Users\\" + hostile("py", one_line=True) + "\\python.exe", version="3.12.4",
                                           kind="system"))
    errors = Path(__file__).resolve().parents[1] / "fixtures" / "errors"
    found = 0
    for f in sorted(errors.glob("*.txt")):
        d = diagnose(f.read_text(encoding="utf-8", errors="replace"), facts)
        try:
            plan = engine.fix_plan(d, facts)
        except engine.EngineUnavailable:
            continue
        found += 1
        assert plan.platform == "windows", f.name
        text = engine.pasteable_script(plan)
        assert text.startswith("powershell.exe ") and problems(text) == [], f.name
        if "QZBpy" in text:
            assert problems(text, ["py"]) == [], f.name
    assert found >= 3


def test_the_pytorch_command_shown_for_windows():
    from app.install_command import torch_install
    from app.choices import Mirrors

    cmd = torch_install("C:\\Users\\" + hostile("u", one_line=True) + "\\.venvs\\gpu\\Scripts\\python.exe", ("torch==2.9.1",),
                        "https://download.pytorch.org/whl/cu128", Mirrors(https_proxy="http://" + hostile("proxy", one_line=True)))
    assert cmd.env and problems(cmd.shown("windows"), ["u", "proxy"]) == []
