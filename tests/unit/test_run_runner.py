"""The runner: streaming, CR folding, stderr tagging, odd bytes, timeouts, progress parsers on real outputs."""
from __future__ import annotations

import os
import sys
import time

from app.run.runner import CancelToken, Line, _split, parse_apt_status, parse_percent, parse_pip_line, run_command
from tests.conftest import FIXTURES

PY = sys.executable


def _run(code: str, **kw):
    lines, progress = [], []
    out = run_command([PY, "-c", code], on_line=lines.append, on_progress=progress.append, **kw)
    return out, lines, progress


def test_lines_are_streamed_and_tagged():
    out, lines, _ = _run("import sys\nprint('one'); print('two', file=sys.stderr); print('three')\nsys.exit(4)")
    assert out.rc == 4 and not out.ok and out.message.endswith("failed with exit code 4")
    assert [(ln.stream, ln.text) for ln in lines if ln.stream == "stdout"] == [("stdout", "one"), ("stdout", "three")]
    assert ("stderr", "two") in [(ln.stream, ln.text) for ln in lines]
    assert "three" in out.details


def test_carriage_return_progress_folds_into_one_updating_line():
    out, lines, progress = _run("import sys, time\nfor p in (10, 55, 100):\n    sys.stdout.write(f'\\rDownloading {p}%'); sys.stdout.flush(); time.sleep(0.01)\nprint()\nprint('done')")
    assert out.ok
    partial = [ln.text for ln in lines if not ln.final]
    final = [ln.text for ln in lines if ln.final]
    assert partial[:2] == ["Downloading 10%", "Downloading 55%"]
    assert final == ["Downloading 100%", "done"]
    assert [round(p.fraction, 2) for p in progress][:2] == [0.1, 0.55]


def test_split_handles_crlf_and_a_chunk_ending_in_cr():
    got = []
    rest = _split("a\r\nb 1%\rb 2%\r", "stdout", got.append)
    assert got == [Line("stdout", "a"), Line("stdout", "b 1%", False)] and rest == "b 2%\r"
    rest = _split(rest + "\nc\n", "stdout", got.append)
    assert got[-2:] == [Line("stdout", "b 2%"), Line("stdout", "c")] and rest == ""


def test_non_utf8_output_and_a_missing_newline():
    out, lines, _ = _run("import sys\nsys.stdout.buffer.write(b'caf\\xe9 \\xff ok\\nlast without newline')")
    assert out.ok
    assert lines[0].text == "caf\ufffd \ufffd ok" and lines[1].text == "last without newline"


def test_env_is_c_locale_and_extra_env_passes():
    out, lines, _ = _run("import os; print(os.environ['LC_ALL'], os.environ['LANG'], os.environ['GPUW_X'])", env={"GPUW_X": "1"})
    assert lines[0].text == "C C 1"


def test_missing_program_is_a_clear_error_not_an_exception():
    out = run_command(["/nonexistent/gpu-wizard-tool", "--x"])
    assert not out.ok and out.rc is None and "could not start" in out.message


def test_timeout_kills_the_process_group():
    t0 = time.monotonic()
    out, lines, _ = _run("import subprocess, sys, time\nsubprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
                         "print('started', flush=True)\ntime.sleep(60)", timeout_s=1.0, kill_grace_s=0.5)
    assert out.timed_out and not out.ok and "did not finish in time" in out.message
    assert time.monotonic() - t0 < 10
    assert any("stopped after 1 s" in ln.text for ln in lines)


def test_cancel_before_and_during():
    tok = CancelToken()
    tok.cancel()
    out = run_command([PY, "-c", "import time; time.sleep(30)"], cancel=tok, kill_grace_s=0.5)
    assert out.cancelled and out.message.endswith("was cancelled")


def test_memory_stays_bounded_for_many_lines():
    n = 0

    def count(_ln):
        nonlocal n
        n += 1
    out = run_command([PY, "-c", "import sys\nfor i in range(20000): sys.stdout.write('line %d\\n' % i)"], on_line=count)
    assert out.ok and n == 20000 and len(out.tail) <= 60 and out.tail[-1] == "line 19999"


def test_apt_status_fd_lines_from_a_real_install():
    lines = (FIXTURES / "run" / "apt-install-status-fd.txt").read_text().splitlines()
    parsed = [parse_apt_status(ln) for ln in lines]
    assert all(p is not None for p in parsed)
    fr = [p.fraction for p in parsed]
    assert fr == sorted(fr) and 0 <= fr[0] and fr[-1] <= 1.0  # monotonic: downloads first, then dpkg
    assert parsed[-1].message == "Installed cuda-toolkit-12-8 (amd64)"
    assert abs(parsed[-1].fraction - (0.3 + 0.7 * 0.888889)) < 1e-3
    assert parse_apt_status("Reading package lists...") is None


def test_pip_stage_lines_from_a_real_install():
    text = (FIXTURES / "run" / "pip-install-torch-cpu.txt").read_text().splitlines()
    stages = [p for p in (parse_pip_line(t) for t in text) if p is not None]
    assert any(p.message.startswith("Collecting ") and p.fraction is None for p in stages)
    assert [p.fraction for p in stages if p.fraction is not None][-2:] == [0.8, 1.0]
    assert parse_percent("  45% [Working]").fraction == 0.45 and parse_percent("no number") is None


def test_apt_get_gets_a_status_fd(tmp_path):
    # a stand-in named apt-get that reports which fd it was told to use and writes a status line there
    fake = tmp_path / "apt-get"
    fake.write_text(f"#!{PY}\nimport os, sys\nfd = int(sys.argv[2].split('=')[1])\n"
                    "os.write(fd, b'pmstatus:cuda-nvcc-12-8:50.0:Unpacking cuda-nvcc-12-8 (amd64)\\n')\nprint(sys.argv[1:3])\n")
    fake.chmod(0o755)
    lines, progress = [], []
    out = run_command([str(fake), "install", "-y", "x"], on_line=lines.append, on_progress=progress.append)
    assert out.ok and out.argv[1:3] == ["-o", out.argv[2]] and out.argv[2].startswith("APT::Status-Fd=")
    assert progress and progress[0].message == "Unpacking cuda-nvcc-12-8 (amd64)" and abs(progress[0].fraction - 0.65) < 1e-9
    assert all(ln.stream != "status" for ln in lines)


def test_ctrl_c_in_the_wizard_stops_the_child():
    import signal
    import threading

    pids = []
    # Ctrl-C as in a terminal: a background job of a non-interactive shell (CI) starts with SIGINT
    # ignored, so Python's own handler is put in place for the test
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
    try:
        run_command([PY, "-c", "import os, time; print(os.getpid(), flush=True); time.sleep(60)"],
                    on_line=lambda ln: pids.append(int(ln.text)), kill_grace_s=0.5)
    except KeyboardInterrupt:
        pass
    else:
        raise AssertionError("KeyboardInterrupt was swallowed")
    finally:
        signal.signal(signal.SIGINT, old)
    time.sleep(0.2)
    try:
        state = open(f"/proc/{pids[0]}/stat").read().rsplit(")", 1)[1].split()[0]
    except OSError:
        state = "gone"
    assert state in ("gone", "Z")
