"""Bad input, fuzz-style, over every subcommand that reads a file: deeply nested JSON, truncated
JSON, binary bytes, wrong top-level types, wrong types in each snapshot section (NVML above all),
hostile session folders (plan.json, state.json, backups.json missing, truncated, forged). Never a
traceback: exit 0 with a best answer, or one line on stderr and exit 1/2. A forged backups.json
never makes undo delete or overwrite a system file."""
from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli import main
from app.plan import Plan, Step

ROOT = Path(__file__).resolve().parents[2]
BASE = {"format": "gpu-wizard-snapshot/1", "platform": "linux", "created": "2026-12-01T00:00:00Z"}


def _snap(**kw) -> str:
    return json.dumps({**BASE, **kw})


CONTENTS = {
    "deep_list": "[" * 100_000 + "]" * 100_000,
    "deep_obj": '{"a":' * 50_000 + "1" + "}" * 50_000,
    "deep_inside": _snap(files={"/etc/os-release": "ID=ubuntu\n"})[:-1] + ', "nvml": ' + "[" * 30_000 + "]" * 30_000 + "}",
    "truncated": _snap(files={"/etc/os-release": "ID=ubuntu\n"})[:45],
    "empty": "",
    "binary": "\x00\xff\xfe garbage \x01",
    "top_list": "[]", "top_str": '"x"', "top_null": "null", "top_num": "12",
    "files_list": _snap(files=[]),
    "files_obj_values": _snap(files={"/etc/os-release": {"x": 1}, "/proc/version": 5}),
    "env_types": _snap(env={"HOME": 5, "USER": ["a"], "PATH": {"x": 1}}),
    "command_types": _snap(commands={"nvidia-smi": "str", "lspci -nn": {"rc": "x", "stdout": 5, "stderr": []},
                                     "uname -r": None}),
    "nvml_str": _snap(nvml="str"),
    "nvml_devices_obj": _snap(nvml={"devices": {"a": 1}, "driver_version": {"x": 1}}),
    "nvml_device_types": _snap(nvml={"driver_version": 550, "cuda_driver_version": "x", "devices": [
        {"name": {"o": 1}, "uuid": [1], "memory_total": "x", "pci": 5, "compute_capability": "abc", "serial": {"a": 1},
         "clocks": "fast", "temperature": [1, 2]}, "str", None, 7]}),
    "dirs_links_types": _snap(dirs={"/x": "notalist", "/y": [1, {"a": 2}]}, links={"/x": 5}),
    "wrong_format": json.dumps({"format": "other/9", "platform": 5}),
    "long_value": _snap(files={"/etc/os-release": "PRETTY_NAME=" + "x" * 2_000_000}),
}
FAST = ["detect --json --snapshot {f}", "verify --rejudge {f}", "diagnose --json --samples {f} --snapshot {ok}",
        "diagnose --json --text-file {f} --snapshot {ok}", "recommend --json --config {f} --snapshot {ok}",
        "report --diagnosis {f} -o {out}.json --snapshot {ok}", "report --verification {f} -o {out}.md --snapshot {ok}"]
SLOW = ["recommend --json --snapshot {f}", "plan --json --snapshot {f}", "plan --script --snapshot {f}",
        "install --dry-run --snapshot {f}", "diagnose --json --snapshot {f}", "verify --json --snapshot {f}",
        "report --snapshot {f} -o {out}.html", "recommend --json --db {f} --snapshot {ok}"]
SLOW_CONTENTS = ("deep_inside", "truncated", "files_obj_values", "command_types", "nvml_device_types", "long_value")


def _run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = main(argv)
        except SystemExit as e:  # argparse
            rc = int(e.code or 0)
    return rc, out.getvalue(), err.getvalue()


def _check(argv, rc, err):
    assert "Traceback" not in err, (argv, err[-800:])
    assert rc in (0, 1, 2), (argv, rc, err)
    lines = [ln for ln in err.splitlines() if ln.strip() and not ln.startswith("gpu-wizard: warning")]
    if rc == 2:
        assert len(lines) == 1 and lines[0].startswith("gpu-wizard: error:"), (argv, err[-800:])


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("fuzz")
    for name, text in CONTENTS.items():
        (d / f"{name}.json").write_text(text, encoding="utf-8", errors="surrogateescape")
    ok = d / "ok.json"
    ok.write_text(_snap(files={"/etc/os-release": 'ID=ubuntu\nVERSION_ID="24.04"\n'}))
    return d


@pytest.mark.parametrize("template", FAST)
def test_fast_commands_on_every_bad_file(files, template):
    for name in CONTENTS:
        argv = template.format(f=files / f"{name}.json", ok=files / "ok.json", out=files / f"out-{name}").split()
        rc, _out, err = _run(argv)
        _check(argv, rc, err)


@pytest.mark.parametrize("template", SLOW)
def test_snapshot_commands_on_bad_snapshots(files, template):
    for name in SLOW_CONTENTS:
        argv = template.format(f=files / f"{name}.json", ok=files / "ok.json", out=files / f"out-{name}").split()
        rc, _out, err = _run(argv)
        _check(argv, rc, err)


def test_missing_file_and_a_folder_instead_of_a_file(files):
    for template in FAST[:4] + SLOW[:2]:
        for target in (files / "missing.json", files):
            argv = template.format(f=target, ok=files / "ok.json", out=files / "o").split()
            rc, _out, err = _run(argv)
            _check(argv, rc, err)
            assert rc != 0


GOOD_PLAN = Plan(steps=(Step(id="run_x", kind="install_pytorch", title="t", why="t", commands=(("true",),)),)).to_json()
SESSION_FILES = {
    "plan.json": {"deep": "[" * 100_000 + "]" * 100_000, "truncated": json.dumps(GOOD_PLAN)[:50],
                  "types": json.dumps({"steps": [{"id": 5, "commands": "x"}]}), "list": "[]",
                  "steps_obj": json.dumps({"steps": {"a": 1}}), "binary": "\xff\x00"},
    "state.json": {"deep": '{"a":' * 50_000 + "1" + "}" * 50_000, "truncated": '{"format": "gpu-wizard-state/2", "sta',
                   "future": json.dumps({"format": "gpu-wizard-state/9"}),
                   "types": json.dumps({"format": "gpu-wizard-state/2", "steps": {"run_x": {"status": 5}}}),
                   "steps_list": json.dumps({"format": "gpu-wizard-state/1", "steps": [1]})},
    "backups/backups.json": {"missing": None, "truncated": '[{"path": "/etc/x", "exi', "deep": "[" * 100_000,
                             "types": json.dumps([{"path": 5}, "x", {"path": "/tmp/x", "existed": "no"}]),
                             "object": json.dumps({"a": 1})},
}


@pytest.mark.parametrize("fname", sorted(SESSION_FILES))
def test_hostile_session_folders(tmp_path, files, fname):
    for variant, content in SESSION_FILES[fname].items():
        d = tmp_path / f"{fname.replace('/', '_')}-{variant}"
        (d / "backups").mkdir(parents=True)
        (d / "plan.json").write_text(json.dumps(GOOD_PLAN))
        if content is not None:
            (d / fname).write_text(content, encoding="utf-8", errors="surrogateescape")
        for argv in (["install", "--yes", "--session", str(d)], ["install", "--undo", "--session", str(d)],
                     ["report", "--session", str(d), "-o", str(d / "r.html"), "--snapshot", str(files / "ok.json")]):
            rc, _out, err = _run(argv)
            _check(argv, rc, err)
        if fname == "backups/backups.json" and variant in ("truncated", "deep", "object"):
            rc, _out, err = _run(["install", "--undo", "--session", str(d)])
            assert rc == 2 and "damaged" in err and "nothing was restored" in err


def test_forged_backups_never_touch_system_files(tmp_path):
    """Root's own session, with a backups.json that names files in system trees (two harmless files
    made for this test): undo refuses them, says so, and both are still there."""
    victims = [Path("/etc/gpu-wizard-fuzz-victim.conf"), Path("/var/tmp/gpu-wizard-fuzz-victim.conf")]
    if not (hasattr(os, "geteuid") and os.geteuid() == 0):
        pytest.skip("as a user the OS already keeps undo out of system files; this checks root's own guard")
    for v in victims:  # files of our own making, in system trees
        v.write_text("keep me\n")
    d = tmp_path / "s"
    (d / "backups").mkdir(parents=True)
    (d / "plan.json").write_text(json.dumps(GOOD_PLAN))
    (d / "backups" / "backups.json").write_text(json.dumps(
        [{"path": str(v), "existed": False, "backup": None} for v in victims]))
    try:
        rc, out, err = _run(["install", "--undo", "--session", str(d)])
        assert "Traceback" not in err
        assert all(v.read_text() == "keep me\n" for v in victims)
        assert rc == 1 and out.count("NOT RESTORED") == 2 and "only the privileged helper" in out
    finally:
        for v in victims:
            v.unlink(missing_ok=True)


def test_a_real_process_prints_one_line_for_deep_json(files):
    """The interpreter's own recursion limit, not the test's: a subprocess with default settings."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for argv in (["detect", "--json", "--snapshot", str(files / "deep_list.json")],
                 ["verify", "--rejudge", str(files / "deep_obj.json")]):
        r = subprocess.run([sys.executable, "-m", "app", *argv], capture_output=True, text=True, env=env, cwd=ROOT,
                           timeout=120)
        assert r.returncode == 2 and "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
