"""The window's system libraries: with libGL.so.1 really gone from the loader's reach (hidden in a
private mount namespace), starting the GUI says in one line which library and which package, never
an ImportError traceback; started without a terminal (from the menu) it also shows that line in a
desktop dialog program and writes it to a log file."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from app import syslibs

pytestmark = pytest.mark.integration
ROOT = Path(__file__).resolve().parents[2]


def _real(soname: str) -> str | None:
    for d in ("/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib", "/lib/x86_64-linux-gnu"):
        p = os.path.join(d, soname)
        if os.path.exists(p):
            return os.path.realpath(p)
    return None


def _hidden_run(lib: str, argv: list[str], env: dict, **kw) -> subprocess.CompletedProcess:
    script = f'mount --bind /dev/null "{lib}" && exec "$@"'
    return subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c", script, "sh", *argv],
                          env=env, capture_output=True, text=True, timeout=120, **kw)


@pytest.fixture
def libgl():
    if not hasattr(os, "geteuid") or os.geteuid() != 0 or shutil.which("unshare") is None:
        pytest.skip("hiding a system library needs root and unshare (a private mount namespace)")
    lib = _real("libGL.so.1")
    if lib is None:
        pytest.skip("libGL.so.1 is not installed here, so there is nothing to hide")
    # a private mount namespace (the bind mount below must never reach the machine's own); a chroot
    # whose / is no mount point cannot make one
    r = subprocess.run(["unshare", "-m", "--propagation", "private", "true"], capture_output=True, text=True, timeout=30)
    if r.returncode != 0:
        pytest.skip(f"no private mount namespace here ({r.stderr.strip()})")
    return lib


def test_missing_libgl_is_one_line_naming_the_package(libgl, tmp_path):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", GPU_WIZARD_ALLOW_ROOT_GUI="1", XDG_STATE_HOME=str(tmp_path / "state"))
    r = _hidden_run(libgl, [sys.executable, "-m", "app"], env, cwd=ROOT)
    assert r.returncode == 2, r.stdout + r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "libGL.so.1" in lines[0] and "sudo apt-get install libgl1" in lines[0], r.stderr
    assert "Traceback" not in r.stderr
    assert "libGL.so.1" in (tmp_path / "state" / "gpu-wizard" / "startup.log").read_text()


def test_from_the_menu_the_line_goes_to_a_dialog(libgl, tmp_path):
    bindir = tmp_path / "bin"
    bindir.mkdir()
    said = tmp_path / "said.txt"
    zenity = bindir / "zenity"  # stands in for the desktop's dialog program: records what it was asked to show
    zenity.write_text(f"#!/bin/sh\nprintf '%s\\n' \"$@\" > {said}\n")
    zenity.chmod(0o755)
    env = dict(os.environ, DISPLAY=":99", GPU_WIZARD_ALLOW_ROOT_GUI="1", XDG_STATE_HOME=str(tmp_path / "state"),
               PATH=f"{bindir}:{os.environ.get('PATH', '')}")
    env.pop("QT_QPA_PLATFORM", None)
    env.pop("WAYLAND_DISPLAY", None)
    r = _hidden_run(libgl, [sys.executable, "-m", "app"], env, cwd=ROOT, stdin=subprocess.DEVNULL)
    assert r.returncode == 2
    shown = said.read_text()
    assert "--error" in shown and "libGL.so.1" in shown and "libgl1" in shown and "startup.log" in shown


def test_the_check_finds_nothing_missing_where_qt_loads():
    pytest.importorskip("PySide6.QtWidgets", reason="Qt cannot load here", exc_type=ImportError)
    assert syslibs.missing_gui_libraries(dict(os.environ, QT_QPA_PLATFORM="offscreen")) == []


def test_the_check_names_an_unloadable_library():
    gone = {"libEGL.so.1"}
    out = syslibs.missing_gui_libraries({"DISPLAY": ":0", "HOME": "/nonexistent"},
                                        loads=lambda so: so not in gone, has_fonts=lambda home: True)
    assert out == [("libEGL.so.1", "libegl1")]
    line = syslibs.missing_line(out + [("any font", "fonts-dejavu-core")])
    assert line.endswith("sudo apt-get install libegl1 fonts-dejavu-core") and "\n" not in line
