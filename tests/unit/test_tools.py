"""System programs live in sbin folders a normal user's PATH lacks (Debian/Ubuntu): the engine
finds them anyway, in detection (LiveSystem) and when running plan steps (the runner)."""
import os

import pytest

from app.run.runner import run_command
from app.system import LiveSystem
from app.tools import SYSTEM_DIRS, find_tool, resolve_argv, with_system_dirs

SBIN_TOOL = next((n for n in ("ldconfig", "modprobe", "sysctl", "runuser")
                  if any(os.access(os.path.join(d, n), os.X_OK) for d in ("/usr/sbin", "/sbin"))), None)


@pytest.fixture
def user_path(monkeypatch):
    if SBIN_TOOL is None:
        pytest.skip("no sbin program (ldconfig, modprobe, sysctl, runuser) on this machine")
    monkeypatch.setenv("PATH", "/usr/local/bin:/usr/bin:/bin")  # a Debian user's login PATH


def test_found_outside_path(user_path):
    exe = find_tool(SBIN_TOOL)
    assert exe and os.path.dirname(exe) in ("/usr/sbin", "/sbin") and os.access(exe, os.X_OK)
    assert resolve_argv([SBIN_TOOL, "-x"]) == [exe, "-x"]
    assert find_tool("no-such-program-gpu-wizard") is None
    assert resolve_argv(["no-such-program-gpu-wizard", "a"]) == ["no-such-program-gpu-wizard", "a"]


def test_live_system_and_runner_run_it(user_path):
    ls = LiveSystem()
    assert ls.which(SBIN_TOOL) == find_tool(SBIN_TOOL)
    r = ls.run([SBIN_TOOL, "--help"], timeout=10)
    assert r.rc != 127, r.stderr  # found and started (its exit code is its own)
    out = run_command([SBIN_TOOL, "--help"], timeout_s=10)
    assert out.error is None and out.rc is not None and out.argv[0] == SBIN_TOOL  # the log keeps the plan's argv


def test_path_for_children_gains_the_system_dirs():
    p = with_system_dirs("/home/u/bin:/usr/bin")
    parts = p.split(os.pathsep)
    assert parts[:2] == ["/home/u/bin", "/usr/bin"] and set(SYSTEM_DIRS) <= set(parts)
    assert parts.count("/usr/bin") == 1
    assert with_system_dirs(None).split(os.pathsep) == list(SYSTEM_DIRS)


def test_absolute_paths_are_checked_not_searched(tmp_path):
    f = tmp_path / "prog"
    f.write_text("#!/bin/sh\n")
    assert find_tool(str(f)) is None  # not executable
    f.chmod(0o755)
    assert find_tool(str(f)) == str(f)
