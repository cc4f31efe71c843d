"""Windows elevation (UAC), once for each batch of consecutive administrator steps, tested on Linux with a
fake launcher: the PowerShell argv that asks for elevation (a list; -EncodedCommand, its script parsed with
PowerShell's grammar; paths with spaces and quotes stay literal), the request/result folder protocol with the
real helper code and its allow-lists, live streaming, cancel, a declined prompt, one prompt per batch."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from app.plan import Plan, Step
from app.plan.model import Edit
from app.run import Executor, Session
from app.run.privilege import (HELPER_FLAG, HELPER_SCRIPT, ElevatedPrivilege, PrivilegeError, elevate_argv, elevate_script, ps_quote,
                               windows_command_line, windows_helper_argv)
from app.run.privileged import PolicyError, main, run_request_file, serve_folder
from app.run.runner import CancelToken

ENV = dict(os.environ, GPU_WIZARD_HELPER_UNPRIVILEGED_TEST="1")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _ps_literals(script: str) -> tuple[list[str], str]:
    """The single-quoted literals of a PowerShell command (decoded), and the code outside them."""
    lits, code, i = [], [], 0
    while i < len(script):
        if script[i] == "'":
            j, buf = i + 1, []
            while True:
                if script[j] == "'" and script[j + 1:j + 2] == "'":
                    buf.append("'")
                    j += 2
                elif script[j] == "'":
                    break
                else:
                    buf.append(script[j])
                    j += 1
            lits.append("".join(buf))
            code.append("''")
            i = j + 1
        else:
            code.append(script[i])
            i += 1
    return lits, "".join(code)


def _script(argv: list[str]) -> str:
    import base64

    assert argv[-2] == "-EncodedCommand"
    return base64.b64decode(argv[-1]).decode("utf-16-le")


def test_powershell_argv_quotes_paths_with_spaces_and_quotes():
    from tests.unit.ps_grammar import literals, problems

    exe = r"C:\Program Files\GPU Wizard\gpu-wizard-helper.exe"
    folder = r"C:\Users\O'Brien Smith\AppData\Local\Temp\gpu-wizard-uac-1 x"
    argv = elevate_argv(exe, ["--serve", folder])
    assert isinstance(argv, list) and argv[0] == "powershell.exe" and len(argv) == 7 and "-NoProfile" in argv
    assert all(c.isalnum() or c in "+/=" for c in argv[-1])  # the command line carries base64 only
    script = _script(argv)
    assert script == elevate_script(exe, ["--serve", folder]) and problems(script) == []
    lits, code = _ps_literals(script)
    # everything outside the literals is the fixed template: no path text is ever PowerShell code
    assert code == ("$p = Start-Process -FilePath '' -ArgumentList '' -Verb RunAs -Wait -WindowStyle Hidden -PassThru; "
                    "exit $p.ExitCode")
    assert lits[0] == exe and literals(script)[:2] == lits[:2]
    assert lits[1] == f'--serve "{folder}"'  # Windows command-line quoting of the spaces
    assert "O''Brien" in script  # the quote doubled inside the PowerShell literal
    # hostile text stays inside its literal too
    evil = "x'; Remove-Item -Recurse C:\\; '$(calc)\u2019; calc"
    script2 = _script(elevate_argv(evil, [evil]))
    lits2, code2 = _ps_literals(script2)
    assert problems(script2) == [] and literals(script2)[0] == evil and evil in literals(script2)[1]
    assert windows_command_line(['a b', 'c"d', "e"]) == '"a b" c\\"d e'
    assert ps_quote("it's") == "'it''s'" and ps_quote("it\u2019s") == "'it\u2019\u2019s'"


def test_which_helper_program(tmp_path):
    wiz = tmp_path / "gpu-wizard.exe"
    assert windows_helper_argv(frozen=True, executable=str(wiz)) == [str(wiz), HELPER_FLAG]  # no helper exe beside
    (tmp_path / "gpu-wizard-helper.exe").write_text("")
    assert windows_helper_argv(frozen=True, executable=str(wiz)) == [str(tmp_path / "gpu-wizard-helper.exe")]
    assert windows_helper_argv(frozen=False, executable="/py/python") == ["/py/python", str(HELPER_SCRIPT)]


class Launcher:
    """Stands in for PowerShell + UAC: records the argv, starts the helper without elevation."""

    def __init__(self, program=None):
        self.program = program
        self.calls = []
        self.proc = None

    def __call__(self, argv, exe, args):
        self.calls.append((argv, exe, args))
        cmd = [exe, *args] if self.program is None else [sys.executable, "-c", self.program, *args]
        self.proc = subprocess.Popen(cmd, env=ENV, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, cwd=ROOT)
        return self.proc


def _priv(launcher):
    return ElevatedPrivilege([sys.executable, str(HELPER_SCRIPT)], start=launcher, poll_s=0.02)


def _run(p, kind, argv, lines=None, cancel=None):
    lines = [] if lines is None else lines
    return p.run(kind, argv, {}, 60, {}, lines.append, lambda _p: None, cancel or CancelToken())


def test_real_helper_through_request_files_refuses_what_it_does_not_know(tmp_path):
    launcher = Launcher()
    p = _priv(launcher)
    with pytest.raises(PolicyError, match="unknown step kind"):
        _run(p, "format_disk", ["dism.exe", "/online"])
    with pytest.raises(PolicyError, match="may not run"):
        _run(p, "windows_host", ["wsl", "--unregister", "Ubuntu"])
    with pytest.raises(PolicyError, match="may not run"):
        _run(p, "windows_host", ["dism.exe", "/online", "/disable-feature", "/featurename:VirtualMachinePlatform", "/all", "/norestart"])
    with pytest.raises(PolicyError, match="may not edit"):
        p.edit("write_env", Edit("/etc/sudoers", content="x"), "s1")
    with pytest.raises(PolicyError, match="bad session"):
        p.restore("../../etc")
    # an allowed command runs (here it does not exist: a clear error, not a crash)
    out = _run(p, "windows_host", ["dism.exe", "/online", "/enable-feature", "/featurename:VirtualMachinePlatform", "/all", "/norestart"])
    assert not out.ok and out.error
    # the requests were one batch: one elevation argv; the batch's folder is gone once it ends
    (argv, exe, args), = launcher.calls
    assert argv[0] == "powershell.exe" and args[0] == str(HELPER_SCRIPT) and args[1] == "--serve"
    assert p.prompts == 1 and os.path.isdir(args[2])
    p.end_batch()
    assert not os.path.exists(args[2]) and launcher.proc.wait(timeout=10) == 0


FAKE_DISM = r"""
import sys
from app.run.privileged import RootExecutor, check_run, serve_folder
from app.run.runner import CommandOutcome, Line

class Dism(RootExecutor):  # the real allow-list, then what dism.exe prints and answers
    def run(self, kind, argv, env, timeout_s, files, on_line, on_progress, cancel):
        check_run(kind, argv, env, frozenset(files))
        on_line(Line("stdout", "Deployment Image Servicing and Management tool"))
        on_line(Line("stdout", "[==========================100.0%==========================]"))
        on_line(Line("stdout", "The operation completed successfully."))
        on_line(Line("stdout", "Restart Windows to complete this operation."))
        return CommandOutcome(argv=list(argv), rc=3010)

sys.exit(serve_folder(sys.argv[3], Dism("/nonexistent")))  # argv: -c, helper script, --serve, FOLDER
"""


def test_windows_plan_step_through_uac_streams_and_pauses_for_the_restart(tmp_path):
    launcher = Launcher(FAKE_DISM)
    step = Step(id="enable_wsl_features", kind="windows_host", title="features", why="t", needs_root=True,
                commands=tuple(("dism.exe", "/online", "/enable-feature", f"/featurename:{f}", "/all", "/norestart")
                               for f in ("Microsoft-Windows-Subsystem-Linux", "VirtualMachinePlatform")),
                reboot_required=True, ok_exit_codes=(0, 3010), reboot_exit_codes=(3010,))
    events = []
    r = Executor(Plan(platform="windows", steps=(step,)), Session.create(tmp_path / "s"), privilege=_priv(launcher),
                 listener=events.append, boot_id_fn=lambda: "boot-1").run()
    assert r.status == "reboot_required", r.message
    texts = [e.text for e in events if e.type == "line"]
    assert texts.count("Restart Windows to complete this operation.") == 2  # both DISM commands ran
    assert len(launcher.calls) == 1  # one UAC prompt for the step's two commands


SLOW = r"""
import json, os, sys, time
folder = sys.argv[3]  # argv: -c, helper script, --serve, FOLDER
open(os.path.join(folder, "ready"), "w").close()
req, res = os.path.join(folder, "000001.json"), os.path.join(folder, "000001.result")
while not os.path.exists(req):
    time.sleep(0.02)
lines = open(res + ".lines", "w")
def line(t):
    lines.write(json.dumps({"event": "line", "stream": "stdout", "text": t, "final": True}) + "\n"); lines.flush()
line("a"); time.sleep(0.4); line("b")
end = time.time() + 10
while not os.path.exists(req + ".cancel") and time.time() < end:
    time.sleep(0.05)
line("saw cancel" if os.path.exists(req + ".cancel") else "no cancel")
lines.close()
json.dump({"event": "done", "rc": 1, "cancelled": True, "argv": ["dism.exe"]}, open(res + ".tmp", "w"))
os.replace(res + ".tmp", res)
"""


def test_lines_stream_while_the_helper_runs_and_cancel_reaches_it():
    launcher = Launcher(SLOW)
    p = _priv(launcher)
    cancel = CancelToken()
    got, running = [], []

    def on_line(ln):
        got.append(ln.text)
        running.append(launcher.proc.poll() is None)
        if ln.text == "b":
            cancel.cancel()
    out = p.run("windows_host", ["dism.exe"], {}, 60, {}, on_line, lambda _p: None, cancel)
    assert got == ["a", "b", "saw cancel"] and running[:2] == [True, True]
    assert out.cancelled and not out.ok


def test_declined_prompt_is_a_clear_error():
    declined = Launcher("import sys; sys.stderr.write('Start-Process : This command cannot be run due to the error: "
                        "The operation was canceled by the user.\\n'); sys.exit(1)")
    with pytest.raises(PrivilegeError, match="not granted: .*canceled by the user"):
        _run(_priv(declined), "windows_host", ["wsl", "--update"])


def test_helper_file_mode_refuses_unsafe_places(tmp_path):
    req = tmp_path / "request.json"
    req.write_text(json.dumps({"op": "run", "kind": "format_disk", "argv": ["x"]}))
    other = tmp_path / "elsewhere"
    other.mkdir()
    assert run_request_file(str(req), str(other / "result.json")) == 2 and not (other / "result.json").exists()
    planted = tmp_path / "result.json.lines"
    planted.write_text("precious\n")  # a file (or link) already there is never written through
    assert run_request_file(str(req), str(tmp_path / "result.json")) == 2 and planted.read_text() == "precious\n"
    planted.unlink()
    os.environ["GPU_WIZARD_HELPER_UNPRIVILEGED_TEST"] = "1"
    try:
        assert main(["--gpu-wizard-helper", "--request", str(req), "--result", str(tmp_path / "result.json")]) == 0
        assert json.loads((tmp_path / "result.json").read_text())["message"] == "unknown step kind 'format_disk'"
        bad = tmp_path / "bad.json"
        bad.write_text("{not json")
        assert run_request_file(str(bad), str(tmp_path / "r2.json")) == 0
        assert "not a usable request" in json.loads((tmp_path / "r2.json").read_text())["message"]
    finally:
        del os.environ["GPU_WIZARD_HELPER_UNPRIVILEGED_TEST"]
    assert main(["--request", str(req)]) == 2  # usage


def test_choose_privilege_on_windows_without_admin_asks_uac(monkeypatch):
    import ctypes
    import types

    from app.run import privilege

    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.delattr(os, "geteuid", raising=False)
    shell = types.SimpleNamespace(IsUserAnAdmin=lambda: 0)
    monkeypatch.setattr(ctypes, "windll", types.SimpleNamespace(shell32=shell), raising=False)
    p = privilege.choose_privilege()
    assert isinstance(p, ElevatedPrivilege) and p.how == "UAC"


class Batches(Launcher):
    """Keeps every helper it started (one per UAC prompt)."""

    def __init__(self, program=None):
        super().__init__(program)
        self.procs = []

    def __call__(self, argv, exe, args):
        proc = super().__call__(argv, exe, args)
        self.procs.append(proc)
        return proc


def test_one_uac_prompt_for_each_run_of_consecutive_administrator_steps(tmp_path):
    """features (two DISM commands) and a WSL update back to back: one prompt; a step without administrator
    rights ends the batch (no elevated helper stays while it runs); the next administrator step asks again."""
    launcher = Batches(FAKE_DISM)
    dism = tuple(("dism.exe", "/online", "/enable-feature", f"/featurename:{f}", "/all", "/norestart")
                 for f in ("Microsoft-Windows-Subsystem-Linux", "VirtualMachinePlatform"))
    steps = (Step(id="enable_wsl_features", kind="windows_host", title="f", why="w", needs_root=True, commands=dism,
                  ok_exit_codes=(0, 3010), reboot_exit_codes=(3010,)),
             Step(id="update_wsl", kind="windows_host", title="u", why="w", needs_root=True, commands=(("wsl", "--update"),),
                  ok_exit_codes=(0, 3010)),
             Step(id="check_gpu", kind="windows_host", title="c", why="w", commands=((sys.executable, "-c", "print(1)"),)),
             Step(id="update_wsl_again", kind="windows_host", title="u", why="w", needs_root=True, commands=(("wsl", "--update"),),
                  ok_exit_codes=(0, 3010)))
    seen_during_user_step = []

    def listen(e):
        if e.type == "line" and e.step_id == "check_gpu":
            seen_during_user_step.append([p.poll() is None for p in launcher.procs])
    priv = _priv(launcher)
    r = Executor(Plan(platform="windows", steps=steps), Session.create(tmp_path / "s"), privilege=priv,
                 listener=listen, boot_id_fn=lambda: "boot-1").run()
    assert r.status == "reboot_required", r.message
    assert priv.prompts == 2 and len(launcher.procs) == 2
    assert seen_during_user_step == [[False]]  # the first batch's elevated helper had quit
    assert all(p.wait(timeout=10) == 0 for p in launcher.procs)  # the plan's end ended the last batch
    assert not any(os.path.exists(args[2]) for _argv, _exe, args in launcher.calls)


def test_a_helper_that_dies_mid_batch_is_one_clear_error():
    died = Launcher("import os, sys; open(os.path.join(sys.argv[3], 'ready'), 'w').close(); sys.exit(0)")
    with pytest.raises(PrivilegeError, match="stopped before it answered"):
        _run(_priv(died), "windows_host", ["wsl", "--update"])


def test_serve_folder_answers_in_order_and_stops(tmp_path):
    os.environ["GPU_WIZARD_HELPER_UNPRIVILEGED_TEST"] = "1"
    try:
        for n, kind in ((1, "format_disk"), (2, "nothing_known")):
            (tmp_path / f"{n:06d}.json").write_text(json.dumps({"op": "run", "kind": kind, "argv": ["x"]}))
        (tmp_path / "stop").write_text("")
        assert serve_folder(str(tmp_path), poll_s=0.01) == 0
        assert json.loads((tmp_path / "000001.result").read_text())["message"] == "unknown step kind 'format_disk'"
        assert "nothing_known" in json.loads((tmp_path / "000002.result").read_text())["message"]
        assert serve_folder(str(tmp_path), poll_s=0.01) == 2  # "ready" is never written through
    finally:
        del os.environ["GPU_WIZARD_HELPER_UNPRIVILEGED_TEST"]
    assert serve_folder(str(tmp_path / "x")) == 2  # not elevated (and no such folder): refused
