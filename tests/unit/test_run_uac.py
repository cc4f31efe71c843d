"""Windows elevation per step (UAC), tested on Linux with a fake launcher: the PowerShell argv that
asks for elevation (a list; paths with spaces and quotes stay literal), the request/result file
protocol with the real helper code and its allow-lists, live streaming, cancel, a declined prompt."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from app.plan import Plan, Step
from app.plan.model import Edit
from app.run import Executor, Session
from app.run.privilege import (HELPER_FLAG, HELPER_SCRIPT, ElevatedPrivilege, PrivilegeError, elevate_argv, ps_quote,
                               windows_command_line, windows_helper_argv)
from app.run.privileged import PolicyError, main, run_request_file
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


def test_powershell_argv_quotes_paths_with_spaces_and_quotes():
    exe = r"C:\Program Files\GPU Wizard\gpu-wizard-helper.exe"
    req = r"C:\Users\O'Brien Smith\AppData\Local\Temp\gpu-wizard-uac-1 x\request.json"
    res = r"C:\Users\O'Brien Smith\AppData\Local\Temp\gpu-wizard-uac-1 x\result.json"
    argv = elevate_argv(exe, ["--request", req, "--result", res])
    assert isinstance(argv, list) and argv[0] == "powershell.exe" and argv[-2] == "-Command" and len(argv) == 7
    assert "-NoProfile" in argv
    lits, code = _ps_literals(argv[-1])
    # everything outside the literals is the fixed template: no path text is ever PowerShell code
    assert code == ("$p = Start-Process -FilePath '' -ArgumentList '' -Verb RunAs -Wait -WindowStyle Hidden -PassThru; "
                    "exit $p.ExitCode")
    assert lits[0] == exe
    assert lits[1] == f'--request "{req}" --result "{res}"'  # Windows command-line quoting of the spaces
    assert "O''Brien" in argv[-1]  # the quote doubled inside the PowerShell literal
    # hostile text stays inside its literal too
    evil = "x'; Remove-Item -Recurse C:\\; '$(calc)"
    lits2, code2 = _ps_literals(elevate_argv(evil, [evil])[-1])
    assert code2 == code and lits2[0] == evil and evil in lits2[1]
    assert windows_command_line(['a b', 'c"d', "e"]) == '"a b" c\\"d e'
    assert ps_quote("it's") == "'it''s'"


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
    # each request went through the elevation argv, and the request files are gone afterwards
    argv, exe, args = launcher.calls[-1]
    assert argv[0] == "powershell.exe" and args[0] == str(HELPER_SCRIPT) and args[1] == "--request"
    assert not os.path.exists(os.path.dirname(args[2]))


FAKE_DISM = r"""
import sys
from app.run.privileged import RootExecutor, check_run, run_request_file
from app.run.runner import CommandOutcome, Line

class Dism(RootExecutor):  # the real allow-list, then what dism.exe prints and answers
    def run(self, kind, argv, env, timeout_s, files, on_line, on_progress, cancel):
        check_run(kind, argv, env, frozenset(files))
        on_line(Line("stdout", "Deployment Image Servicing and Management tool"))
        on_line(Line("stdout", "[==========================100.0%==========================]"))
        on_line(Line("stdout", "The operation completed successfully."))
        on_line(Line("stdout", "Restart Windows to complete this operation."))
        return CommandOutcome(argv=list(argv), rc=3010)

sys.exit(run_request_file(sys.argv[3], sys.argv[5], Dism("/nonexistent")))
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
    assert texts.count("Restart Windows to complete this operation.") == 2 and len(launcher.calls) == 2  # one prompt per command


SLOW = r"""
import json, os, sys, time
req, res = sys.argv[3], sys.argv[5]  # argv: -c, helper script, --request, REQ, --result, RES
lines = open(res + ".lines", "w")
def line(t):
    lines.write(json.dumps({"event": "line", "stream": "stdout", "text": t, "final": True}) + "\n"); lines.flush()
line("a"); time.sleep(0.4); line("b")
end = time.time() + 10
while not os.path.exists(req + ".cancel") and time.time() < end:
    time.sleep(0.05)
line("saw cancel" if os.path.exists(req + ".cancel") else "no cancel")
lines.close()
json.dump({"event": "done", "rc": 1, "cancelled": True, "argv": ["dism.exe"]}, open(res, "w"))
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
