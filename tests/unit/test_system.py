"""System layer: live commands with timeouts and odd output, snapshot replay, recording."""
import json
import os
import sys
import time

import pytest

from app.system import (NOT_INSTALLED, LiveSystem, RecordingSystem, SnapshotError, SnapshotSystem,
                        command_key, decode_output, load_snapshot_data, validate_snapshot)


def test_live_run_captures_output_and_rc():
    r = LiveSystem().run([sys.executable, "-c", "import sys; print('out'); print('err', file=sys.stderr); sys.exit(3)"])
    assert (r.rc, r.stdout.strip(), r.stderr.strip(), r.timed_out) == (3, "out", "err", False)


def test_live_run_missing_command_is_rc_127():
    r = LiveSystem().run(["definitely-not-a-command-xyz"])
    assert r.rc == 127 and not r.ok


def test_live_run_hung_command_is_killed_with_its_children(tmp_path):
    pidfile = tmp_path / "child.pid"
    code = ("import subprocess, sys, time; "
            f"p = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)']); open({str(pidfile)!r}, 'w').write(str(p.pid)); "
            "time.sleep(60)")
    t = time.monotonic()
    r = LiveSystem().run([sys.executable, "-c", code], timeout=1.0)
    assert r.timed_out and r.rc == 124
    assert time.monotonic() - t < 10
    child = int(pidfile.read_text())
    for _ in range(50):  # the whole process group was killed, the grandchild too
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            break
        # a zombie still answers kill(0); check its state
        try:
            with open(f"/proc/{child}/stat") as fh:
                if fh.read().split(")")[-1].split()[0] == "Z":
                    break
        except FileNotFoundError:
            break
        time.sleep(0.1)
    else:
        pytest.fail("grandchild survived the timeout")


def test_live_run_non_utf8_output_is_replaced_not_raised():
    r = LiveSystem().run([sys.executable, "-c", "import sys; sys.stdout.buffer.write(b'GPU \\xff\\xfe ok\\n')"])
    assert r.ok and "GPU" in r.stdout and "ok" in r.stdout and "\ufffd" in r.stdout


def test_decode_output_utf16_with_and_without_bom():
    text = "  NAME      STATE    VERSION\n* Ubuntu    Running  2\n"
    assert decode_output(text.encode("utf-16")) == text  # with BOM
    assert decode_output(text.encode("utf-16-le")) == text  # wsl.exe prints no BOM
    assert decode_output(b"plain ascii") == "plain ascii"
    assert decode_output(b"") == ""


def test_live_read_text_and_missing(tmp_path):
    f = tmp_path / "v"
    f.write_bytes(b"NVRM version: \xff\n")
    s = LiveSystem()
    assert s.read_text(str(f)).startswith("NVRM version:")
    assert s.read_text(str(tmp_path / "nope")) is None
    assert s.list_dir(str(tmp_path)) == ["v"]
    assert s.list_dir(str(tmp_path / "nope")) is None


def _snap(**kw):
    base = {"format": "gpu-wizard-snapshot/1", "platform": "linux", "created": "2026-11-29T15:00:00+00:00"}
    base.update(kw)
    return base


def test_snapshot_semantics():
    s = SnapshotSystem(_snap(files={"/proc/version": "Linux version 6.8", "/dev/dxg": ""},
                             dirs={"/usr/local": ["cuda", "cuda-12.4"]}, links={"/usr/local/cuda": "/usr/local/cuda-12.4"},
                             env={"PATH": "/usr/bin"},
                             commands={"nvidia-smi": {"rc": 0, "stdout": "table", "stderr": ""}}))
    assert s.read_text("/proc/version") == "Linux version 6.8"
    assert s.exists("/dev/dxg") and s.read_text("/dev/dxg") == ""
    assert not s.exists("/etc/os-release") and s.read_text("/etc/os-release") is None
    assert s.exists("/usr/local/cuda-12.4")  # listed in its parent
    assert s.readlink("/usr/local/cuda") == "/usr/local/cuda-12.4"
    assert s.run(["nvidia-smi"]).stdout == "table"
    assert s.run(["nvcc", "--version"]) == NOT_INSTALLED
    assert s.which("nvidia-smi") and s.which("nvcc") is None
    assert s.getenv("PATH") == "/usr/bin" and s.getenv("HOME") is None
    assert s.nvml() is None
    assert s.now() == "2026-11-29T15:00:00+00:00"


@pytest.mark.parametrize("content, needle", [
    (b'{"format": "gpu-wizard-snapshot/1", "files": {', "truncated"),
    (b'{"format": "gpu-wizard-snapshot/1", "files": {"/proc/version": "Linux vers', "truncated"),
    (b"hello, this is not json", "not valid JSON"),
    (b'{"format": "something-else/3"}', "not a gpu-wizard snapshot"),
    (b'{"format": "gpu-wizard-snapshot/9"}', "update the wizard"),
    (b"\xff\xfe\x00garbage\x9c", "not UTF-8"),
    (b'[1, 2, 3]', "expected a JSON object"),
    (b'{"format": "gpu-wizard-snapshot/1", "files": {"/a": 3}}', "must be text"),
])
def test_bad_snapshots_give_one_clear_line(tmp_path, content, needle):
    p = tmp_path / "bad.json"
    p.write_bytes(content)
    with pytest.raises(SnapshotError) as e:
        load_snapshot_data(p)
    msg = str(e.value)
    assert needle in msg and "\n" not in msg


def test_missing_snapshot_file(tmp_path):
    with pytest.raises(SnapshotError, match="not found"):
        load_snapshot_data(tmp_path / "nope.json")


@pytest.mark.parametrize("outer", [{}, {"format": "gpu-wizard-report/1"}])
def test_report_json_with_embedded_snapshot_is_accepted(outer):
    data = dict(outer, report="x", snapshot=_snap(files={"/proc/version": "Linux"}))
    assert validate_snapshot(data)["files"]["/proc/version"] == "Linux"


def test_report_json_without_snapshot_is_refused():
    with pytest.raises(SnapshotError, match="not a gpu-wizard snapshot"):
        validate_snapshot({"format": "gpu-wizard-report/1", "report": "x"})


def test_recording_round_trips_through_snapshot(tmp_path):
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "f.txt").write_text("hello")
    os.symlink(str(tmp_path / "d"), str(tmp_path / "link"))
    live = LiveSystem(nvml_reader=lambda: {"error": "NVMLError_LibraryNotFound: NVML Shared Library Not Found", "devices": []})
    rec = RecordingSystem(live)
    argv = [sys.executable, "-c", "print('hi')"]
    answers = (rec.read_text(str(tmp_path / "d" / "f.txt")), rec.list_dir(str(tmp_path / "d")), rec.readlink(str(tmp_path / "link")),
               rec.run(argv).stdout, rec.run(["no-such-tool-xyz"]).rc, rec.nvml(), rec.exists(str(tmp_path / "d")))
    snap = rec.snapshot()
    path = tmp_path / "snap.json"
    path.write_text(json.dumps(snap))
    replay = SnapshotSystem.load(path)
    again = (replay.read_text(str(tmp_path / "d" / "f.txt")), replay.list_dir(str(tmp_path / "d")), replay.readlink(str(tmp_path / "link")),
             replay.run(argv).stdout, replay.run(["no-such-tool-xyz"]).rc, replay.nvml(), replay.exists(str(tmp_path / "d")))
    assert again == answers
    assert command_key(argv) in snap["commands"] and "no-such-tool-xyz" not in json.dumps(snap["commands"])


def test_recording_keeps_only_env_that_was_read(monkeypatch):
    monkeypatch.setenv("CUDA_HOME", "/usr/local/cuda")
    monkeypatch.setenv("MY_SECRET_TOKEN", "hunter2")
    rec = RecordingSystem(LiveSystem(nvml_reader=lambda: None))
    rec.getenv("CUDA_HOME")
    snap = rec.snapshot()
    assert snap["env"] == {"CUDA_HOME": "/usr/local/cuda"}
    assert "hunter2" not in json.dumps(snap)
