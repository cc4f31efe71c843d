"""Everything the wizard writes for PowerShell, parsed with PowerShell's grammar (tree-sitter-powershell; no
Windows machine is here), hostile strings planted in every field that reaches PowerShell: quotes (ASCII and
typographic), `$()`, backticks, `;`, line breaks, `--%`, braces, comment openers. The parse has no error and
each hostile string lies wholly inside one single-quoted literal (or a one-line comment). The writers:
the plan's PowerShell script (`plan --script` for a Windows host, from a Plan given directly and from a
hostile snapshot through the real pipeline), the UAC elevation command (elevate_argv), the PyTorch install
command shown for Windows (InstallCommand.shown). The window's copy-as-PowerShell and fix plans:
tests/ui/test_powershell_copy.py. tests/unit/ps_grammar.py says how the checks can fail, and
test_the_checks_bite shows them failing on broken quoting."""
from __future__ import annotations

import base64
import copy
import json

import pytest

from app.install_command import InstallCommand, torch_install
from app.plan import Plan
from app.plan.model import Check, Edit, Note, Step
from app.plan.script_ps import plan_to_powershell
from app.pwsh import env_line, ps_arg, ps_quote
from app.run.privilege import elevate_argv
from tests.unit.ps_grammar import hostile, literals, problems

FIELDS = ["id", "title", "why", "note", "exe", "arg1", "arg2", "path1", "content1", "path2", "section", "key", "value",
          "path3", "line", "path4", "content2", "path5", "created", "fact_key", "fact", "warning", "env"]


def hostile_plan() -> Plan:
    H = hostile
    step = Step(id="enable_" + H("id"), title=H("title"), why=H("why"), kind="windows_host", needs_root=True,
                commands=((H("exe"), H("arg1"), "--%", H("arg2")),), notes=(H("note"),), note_codes=(Note("note_dism_3010"),),
                edits=(Edit(path=H("path1"), content=H("content1")),
                       Edit(path=H("path2"), mode="ini_set", section=H("section"), settings=((H("key"), H("value")),), needs_root=False),
                       Edit(path=H("path3"), mode="remove_lines", lines=(H("line"), "plain")),
                       Edit(path=H("path4"), mode="append", content=H("content2")),
                       Edit(path=H("path5"), mode="delete")),
                backups=(H("path1"), H("path2"), H("path3"), H("path5")), env={"X": H("env")},
                reboot_required=True, ok_exit_codes=(0, 3010), reboot_exit_codes=(3010,), done_when=(Check("never"),))
    plain = Step(id="check_wsl_gpu", title="t", why="w", kind="windows_host", commands=(("wsl", "-d", "Ubuntu"),))
    return Plan(steps=(step, plain), platform="windows", created=H("created"), facts_summary={H("fact_key"): H("fact")},
                warnings=(H("warning"),))


def test_the_plan_script_parses_and_keeps_every_hostile_field_in_a_literal():
    text = plan_to_powershell(hostile_plan())
    planted = [f for f in FIELDS if f != "env"]  # a step's environment is the runner's, never in the script
    assert problems(text, planted) == []
    # the values PowerShell will see are exactly the planted ones (nothing lost or doubled)
    vals = literals(text)
    for f in ("exe", "arg1", "arg2", "path1", "content1", "key", "value", "line"):
        assert hostile(f) in vals, f
    assert "--%" in vals  # the stop-parsing token goes in as a literal, never as the token


def _hostile_windows_snapshot() -> dict:
    from tests.unit import test_windows_plan as wp

    win = wp.WIN
    data = wp._with_wsl((win / "wsl_l_v_ubuntu2204.txt").read_text(), (win / "wsl_status_2022.txt").read_text())
    data = copy.deepcopy(data)
    data["env"]["USERPROFILE"] = "C:\\Users\\" + hostile("user", one_line=True)
    for key, out in data["commands"].items():  # the GPU's name as nvidia-smi and the CIM query report it
        if "--query-gpu" in key and out.get("stdout"):
            cells = out["stdout"].split(", ")
            cells[1] = hostile("gpu", one_line=True, without=",")
            out["stdout"] = ", ".join(cells)
        if "Win32_VideoController" in key and out.get("stdout"):
            cards = json.loads(out["stdout"])
            for c in cards if isinstance(cards, list) else [cards]:
                if "NVIDIA" in (c.get("Name") or ""):
                    c["Name"] = hostile("cim", one_line=True)
            out["stdout"] = json.dumps(cards)
    return data


def test_a_hostile_snapshot_through_the_real_pipeline():
    """A snapshot is data: a user profile, a GPU name crafted as PowerShell stay inside literals and comments
    of the exported script, and the .wslconfig edit targets the path as given."""
    from app.compat import load_db
    from tests.unit import test_windows_plan as wp

    facts, _rec, plan = wp._plan(_hostile_windows_snapshot(), load_db(use_user_bundle=False))
    assert facts.os.wslconfig_path and hostile("user", one_line=True) in facts.os.wslconfig_path
    assert plan.step("configure_wsl_memory") is not None, [s.id for s in plan.steps]
    text = plan_to_powershell(plan)
    planted = ["user", "gpu"] + (["cim"] if "QZBcim" in text else [])
    assert problems(text, planted) == []
    assert facts.os.wslconfig_path in literals(text)


def _script(argv: list[str]) -> str:
    assert argv[-2] == "-EncodedCommand"
    return base64.b64decode(argv[-1]).decode("utf-16-le")


def test_the_elevation_command_keeps_paths_and_arguments_literal():
    argv = elevate_argv(hostile("exe"), ["--serve", hostile("folder"), hostile("arg")])
    script = _script(argv)
    assert problems(script, ["exe", "folder", "arg"]) == []
    assert literals(script)[0] == hostile("exe")


def test_the_install_command_for_windows():
    ic = torch_install("C:\\Users\\" + hostile("venv") + "\\Scripts\\python.exe", ("torch==2.9.1+cu128", "torchvision"),
                       "https://download.pytorch.org/whl/cu128?" + hostile("index"), None)
    ic = InstallCommand(argv=ic.argv + ("a,b", "@splat", "--%", "", hostile("arg")),
                        env={"HTTPS_PROXY": hostile("proxy"), "SSL_CERT_FILE": hostile("ca")})
    text = ic.shown("windows")
    assert problems(text, ["venv", "index", "arg", "proxy", "ca"]) == []
    vals = literals(text)
    assert {"a,b", "@splat", "--%", ""} <= set(vals)  # never an array, a splat, the stop-parsing token or no argument
    assert "torch==2.9.1+cu128" in text and "'torch==2.9.1+cu128'" not in text  # plain arguments stay readable
    with pytest.raises(ValueError):
        env_line("X; calc", "v")


def test_quoting_helpers():
    assert ps_quote("it's \u2019x\u2018") == "'it''s \u2019\u2019x\u2018\u2018'"
    assert ps_arg("--index-url") == "--index-url" and ps_arg("C:\\x\\python.exe") == "C:\\x\\python.exe"
    for bad in ("@x", "a,b", "$x", "a b", "", "--%", "x`y", "(1)", "a;b", "{x}"):
        assert ps_arg(bad) == ps_quote(bad), bad


@pytest.mark.parametrize("broken,why", [
    (lambda s: "'" + str(s).replace("'", "''") + "'", "typographic quotes not doubled"),  # ASCII only
    (lambda s: "'" + str(s) + "'", "nothing doubled"),
    (lambda s: '"' + str(s).replace('"', '`"') + '"', "an expandable (double-quoted) string"),
])
def test_the_checks_bite(monkeypatch, broken, why):
    """The same writers with broken quoting fail the checks: the tests above can fail."""
    import app.plan.script_ps as sp

    monkeypatch.setattr(sp, "ps_quote", broken)
    assert problems(plan_to_powershell(hostile_plan()), ["exe", "arg1", "path1", "content1"]) != [], why


def test_a_comment_that_breaks_its_line_fails():
    import app.plan.script_ps as sp

    text = plan_to_powershell(hostile_plan())
    assert problems(text.replace(sp.one_line(hostile("title")), hostile("title")), ["title"]) != []


def test_the_windows_build_scripts_parse():
    from pathlib import Path

    scripts = sorted((Path(__file__).resolve().parents[2] / "installers" / "windows").glob("*.ps1"))
    assert scripts
    for p in scripts:
        assert problems(p.read_text(encoding="utf-8-sig")) == [], p.name


def test_a_diagnosis_fix_command_shown_for_windows():
    """`gpu-wizard diagnose` shows a fix's commands on a Windows host as PowerShell (app.install_command.shown_argv)."""
    from app.install_command import shown_argv

    for argv in ((hostile("exe"), hostile("a"), "--%", "x,y"), ("nvidia-smi", hostile("a")), ("C:\\Program Files\\x.exe", "-q")):
        text = shown_argv(argv, "windows")
        planted = [t for t in ("exe", "a") if f"QZB{t}" in text]
        assert problems(text, planted) == [], text
    assert shown_argv(("nvidia-smi", "-L"), "windows") == "nvidia-smi -L"
