"""The probe's JSON-lines protocol and the runner: garbage, truncation, crashes, timeouts, cancel."""
import json
import os
import sys
import textwrap
import threading
import time

from app.verify.runner import ProbeRunner, parse_line, parse_stream, probe_argv
from app.verify.session import VerifyOptions, assemble
from app.verify.model import SamplerStats


def fake_probe(body: str) -> list[str]:
    return [sys.executable, "-c", textwrap.dedent(body)]


def test_parse_line_takes_only_event_objects():
    assert parse_line('{"event": "done", "seconds": 1}') == {"event": "done", "seconds": 1}
    assert parse_line('  {"event": "progress"}\n') == {"event": "progress"}
    for bad in ["", "hello", "[1, 2]", '{"kind": "x"}', '{"event": 3}', '{"event": "res', "null", "{" * 100000,
                "Warning: CUDA initialization", '{"event": "x"} trailing']:
        assert parse_line(bad) is None, bad


def test_parse_stream_counts_what_it_ignored():
    lines = ['{"event": "hello"}', "garbage from a library", "", '{"event": "done"}', '{"event": "resu']
    events, ignored = parse_stream(lines)
    assert [e["event"] for e in events] == ["hello", "done"] and ignored == 2


def test_runner_ignores_garbage_and_delivers_events_as_they_come():
    seen = []
    r = ProbeRunner(fake_probe('''
        import json, sys
        print("some library prints this")
        print(json.dumps({"event": "hello", "probe": 1}))
        sys.stdout.buffer.write(b"\\xff\\xfe not utf-8\\n")
        print(json.dumps({"event": "progress", "layer": "load", "message": "x"}))
        print('{"event": "result", "kind": "torch", "data": {"installed": false}}')
        print(json.dumps({"event": "done", "seconds": 0.1}))
    '''), timeout_s=30)
    out = r.run(seen.append)
    assert out.ok and out.done and out.rc == 0
    assert [e["event"] for e in seen] == ["hello", "progress", "result", "done"]
    assert out.ignored_lines == 2


def test_a_crash_without_done_fails_with_the_stderr_tail():
    out = ProbeRunner(fake_probe('''
        import sys
        print('{"event": "hello"}')
        print("Traceback (most recent call last):\\nImportError: libcudnn.so.9: cannot open shared object file", file=sys.stderr)
        sys.stdout.write('{"event": "result", "kind": "dev')
        sys.stdout.flush()
        sys.exit(3)
    '''), timeout_s=30).run()
    assert not out.ok and not out.done and out.rc == 3
    assert "exit code 3" in out.error
    assert "libcudnn.so.9" in out.stderr_tail
    assert [e["event"] for e in out.events] == ["hello"] and out.ignored_lines == 1


def test_killed_by_a_signal_is_reported():
    out = ProbeRunner(fake_probe("import os, signal; os.kill(os.getpid(), signal.SIGKILL)"), timeout_s=30).run()
    assert not out.ok and "signal 9" in out.error


def test_timeout_kills_the_whole_process_group(tmp_path):
    pidfile = tmp_path / "child.pid"
    body = f'''
        import subprocess, sys, time
        p = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        open({str(pidfile)!r}, "w").write(str(p.pid))
        print('{{"event": "hello"}}', flush=True)
        time.sleep(60)
    '''
    t = time.monotonic()
    out = ProbeRunner(fake_probe(body), timeout_s=1.5).run()
    assert time.monotonic() - t < 20
    assert out.timed_out and not out.ok and "did not finish within 1.5 s" in out.error
    child = int(pidfile.read_text())
    for _ in range(50):
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        raise AssertionError("the probe's child survived the timeout")


def test_cancel_from_another_thread():
    r = ProbeRunner(fake_probe('import time; print(\'{"event": "hello"}\', flush=True); time.sleep(60)'), timeout_s=120)
    threading.Timer(0.8, r.cancel).start()
    t = time.monotonic()
    out = r.run()
    assert time.monotonic() - t < 20
    assert out.cancelled and out.error == "cancelled"


def test_a_missing_interpreter_is_a_clear_error():
    out = ProbeRunner(["/nonexistent/bin/python", "-u", "x.py"]).run()
    assert out.rc == 127 and "could not start /nonexistent/bin/python" in out.error


def test_a_failing_consumer_does_not_break_the_run():
    def boom(_):
        raise RuntimeError("GUI bug")
    out = ProbeRunner(fake_probe('print(\'{"event": "hello"}\'); print(\'{"event": "done"}\')')).run(boom)
    assert out.ok and len(out.events) == 2


def test_probe_argv_is_a_list_with_the_options():
    argv = probe_argv("/v/bin/python", seconds=3, quick=True, gpus="0,1", sizes_mib=[4, 64])
    assert argv[0] == "/v/bin/python" and argv[1] == "-u" and argv[2].endswith("app/verify/probe.py")
    assert argv[3:] == ["--seconds", "3", "--quick", "--gpus", "0,1", "--sizes-mib", "4,64"]


def test_a_crashed_probe_turns_unfinished_layers_into_failures_with_the_text():
    from app.verify.runner import ProbeOutcome
    nvml = {"driver_version": "580.159.04", "cuda_driver_version": 13000, "error": None,
            "devices": [{"index": 0, "name": "NVIDIA H200", "compute_capability": [9, 0], "pcie_gen_max": 5, "pcie_width_max": 16}]}
    events = [{"event": "hello"},
              {"event": "result", "kind": "torch", "data": {"installed": True, "version": "2.11.0+cu130", "cuda": "13.0",
                                                            "available": True, "device_count": 1, "arch_list": ["sm_90"]}},
              {"event": "result", "kind": "device", "gpu": 0, "data": {"index": 0, "name": "NVIDIA H200", "compute_capability": "9.0"}}]
    out = ProbeOutcome(events=events, rc=-11, done=False, stderr_tail="Segmentation fault (core dumped)",
                       error="the probe stopped before it finished (killed by signal 11)")
    v = assemble(out, nvml, "/v/bin/python", [], SamplerStats(), VerifyOptions(), "now", 3.0)
    st = {x.name: x for x in v.layers}
    assert st["device"].status == "pass"
    assert st["bandwidth"].status == "fail" and "signal 11" in st["bandwidth"].reason
    assert st["load"].status == "fail" and any("Segmentation fault" in d for d in st["load"].details)
    assert v.status == "fail" and "Segmentation fault" in v.errors[0]
    json.dumps(v.to_json())


def test_the_probe_is_standalone_stdlib_and_torch_only():
    import ast
    from app.verify.runner import PROBE_PATH

    import os

    names = set()
    for path in (PROBE_PATH, os.path.join(os.path.dirname(PROBE_PATH), "burn_probe.py")):  # and the burn-in beside it
        tree = ast.parse(open(path, encoding="utf-8").read())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom):
                assert node.level == 0, "relative import in the probe"
                names.add(node.module.split(".")[0])
    assert names - {"torch", "__future__", "burn_probe"} <= set(sys.stdlib_module_names)
