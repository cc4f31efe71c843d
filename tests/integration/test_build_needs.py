"""installers/linux/build.sh on a machine that lacks what PyInstaller needs: binutils' objdump, Python's shared
library and Qt's libGL really gone (hidden in a private mount namespace: an overlay whose whiteouts remove the
files from the loader's folder), and a fresh venv without PyInstaller or PySide6. The script names all of it
in one line, at once, before it starts anything."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration
ROOT = Path(__file__).resolve().parents[2]
BUILD_SH = ROOT / "installers" / "linux" / "build.sh"


def _namespace_ok() -> str:
    if not hasattr(os, "geteuid") or os.geteuid() != 0 or shutil.which("unshare") is None:
        return "hiding system files needs root and unshare (a private mount namespace)"
    r = subprocess.run(["unshare", "-m", "--propagation", "private", "true"], capture_output=True, text=True, timeout=30)
    return "" if r.returncode == 0 else f"no private mount namespace here ({r.stderr.strip()})"


def _hide_and_run(tmp: Path, hide: list[str], argv: list[str], **kw) -> subprocess.CompletedProcess:
    """Run argv with each path of `hide` gone: files in one folder become overlay whiteouts (so a dangling
    link stays dangling, as when the package is not installed), others are covered by a non-executable file."""
    lines = ["set -e"]
    by_dir: dict[str, list[str]] = {}
    for p in hide:
        by_dir.setdefault(os.path.dirname(os.path.realpath(p)), []).append(os.path.basename(os.path.realpath(p)))
    for i, (d, names) in enumerate(by_dir.items()):
        up, work = tmp / f"up{i}", tmp / f"work{i}"
        up.mkdir()
        work.mkdir()
        lines += [f'mknod "{up}/{n}" c 0 0' for n in names]
        lines.append(f'mount -t overlay overlay -o lowerdir="{d}",upperdir="{up}",workdir="{work}" "{d}"')
    lines.append('exec "$@"')
    return subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c", "\n".join(lines), "sh", *argv],
                          capture_output=True, text=True, timeout=120, **kw)


def _libpython() -> str | None:
    so = sysconfig.get_config_var("INSTSONAME")
    d = sysconfig.get_config_var("LIBDIR") or ""
    return os.path.join(d, so) if so and os.path.exists(os.path.join(d, so)) else None


@pytest.fixture(scope="module")
def bare_venv(tmp_path_factory) -> Path:
    venv = tmp_path_factory.mktemp("bare") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    return venv / "bin" / "python"


def test_build_names_everything_it_lacks_in_one_line(bare_venv, tmp_path):
    why = _namespace_ok()
    if why:
        pytest.skip(why)
    objdump, libpy, libgl = shutil.which("objdump"), _libpython(), None
    for d in ("/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib"):
        if os.path.exists(os.path.join(d, "libGL.so.1")):
            libgl = os.path.join(d, "libGL.so.1")
            break
    if not (objdump and libpy and libgl):
        pytest.skip("objdump, Python's shared library and libGL must be installed here to be hidden")
    before = sorted(p.name for p in (ROOT / "build").glob("*")) if (ROOT / "build").is_dir() else []
    r = _hide_and_run(tmp_path, [objdump, libpy, libgl], ["bash", str(BUILD_SH), str(bare_venv)], cwd=ROOT)
    assert r.returncode == 1, r.stdout + r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and r.stdout == "", r.stdout + r.stderr
    line = lines[0]
    v = sys.version_info
    for word in ("objdump", "binutils", f"libpython{v[0]}.{v[1]}", "libGL.so.1", "libgl1", "PyInstaller", "PySide6",
                 "sudo apt-get install", f"{bare_venv} -m pip install"):
        assert word in line, (word, line)
    # one apt command with every system package, one pip command for the Python side
    apt = line.split("sudo apt-get install", 1)[1].split("&&")[0]
    assert {"binutils", f"libpython{v[0]}.{v[1]}", "libgl1"} <= set(apt.split()), apt
    # nothing started: PyInstaller made no work folder and no bundle
    after = sorted(p.name for p in (ROOT / "build").glob("*")) if (ROOT / "build").is_dir() else []
    assert after == before


def test_build_without_its_python_is_one_line(tmp_path):
    r = subprocess.run(["bash", str(BUILD_SH), str(tmp_path / "no-python")], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert r.returncode == 1 and r.stdout == ""
    assert len(r.stderr.strip().splitlines()) == 1 and "python3 -m venv" in r.stderr, r.stderr


def test_the_check_passes_where_the_build_can_start():
    """Where this Python has everything (the test extra brings PyInstaller), the check says nothing."""
    pytest.importorskip("PyInstaller")
    pytest.importorskip("PySide6.QtWidgets", reason="Qt cannot load here", exc_type=ImportError)
    if shutil.which("objdump") is None or _libpython() is None:
        pytest.skip("this machine lacks objdump or Python's shared library")
    r = subprocess.run([sys.executable, str(ROOT / "installers" / "linux" / "build_needs.py")], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and r.stderr == "", r.stderr
