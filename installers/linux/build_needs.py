"""What building the Linux bundle needs from this machine and this Python, checked before anything starts.

Run by the Python that builds (installers/linux/build.sh runs it with its PYTHON; installers/smoke.py's
build_needs() reads it too): standard library only, so it answers even in a bare venv. It prints nothing
and exits 0 when the build can start; otherwise one line on stderr naming everything that is missing at
once (system packages and Python packages, each with what provides it) and the commands that install
them, and exits 1.

    python installers/linux/build_needs.py [--python-shown NAME]
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import NamedTuple, Optional

ROOT = Path(__file__).resolve().parents[2]
SYSTEM_BIN = ("/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin")
# what PyInstaller runs on Linux to collect shared libraries, and the package that brings it
TOOLS = (("objdump", "binutils"), ("ldd", "libc-bin"))
# what the spec imports while it builds (installers/linux/gpu-wizard.spec): module -> pip requirement
MODULES = (("PyInstaller", "pyinstaller>=6"), ("PySide6.QtWidgets", "PySide6-Essentials"), ("pynvml", "nvidia-ml-py"),
           ("pyqtgraph", "pyqtgraph"), ("requests", "requests"), ("packaging", "packaging"))


class Lack(NamedTuple):
    what: str  # said to the user: "objdump"
    apt: str = ""  # the Debian/Ubuntu package that brings it
    pip: str = ""  # or the pip requirement


def _tool(name: str) -> Optional[str]:
    path = os.pathsep.join([os.environ.get("PATH", ""), *SYSTEM_BIN])
    return shutil.which(name, path=path)


def libpython() -> Optional[Lack]:
    """Python's shared library, which PyInstaller bundles (a Python built without it cannot be bundled)."""
    v = sys.version_info
    soname = sysconfig.get_config_var("INSTSONAME") or f"libpython{v[0]}.{v[1]}.so.1.0"
    if soname.endswith(".a"):  # a static-only build names its archive here
        soname = f"libpython{v[0]}.{v[1]}{sys.abiflags}.so.1.0"
    libdir = sysconfig.get_config_var("LIBDIR") or ""
    multiarch = sysconfig.get_config_var("MULTIARCH") or ""
    dirs = [libdir, os.path.join(libdir, multiarch) if multiarch else "", "/usr/lib", "/usr/lib64", "/usr/local/lib",
            os.path.join(sys.base_prefix, "lib")]
    if any(d and os.path.exists(os.path.join(d, soname)) for d in dirs):
        return None
    ldconfig = _tool("ldconfig")
    if ldconfig:
        try:
            cache = subprocess.run([ldconfig, "-p"], capture_output=True, text=True, timeout=30).stdout
        except (OSError, subprocess.TimeoutExpired):
            cache = ""
        for entry in cache.splitlines():  # "libpython3.11.so.1.0 (libc6,x86-64) => /usr/lib/.../libpython3.11.so.1.0"
            name, _, path = entry.strip().partition(" => ")
            if name.split(" ")[0] == soname and os.path.exists(path):
                return None
    return Lack(f"Python's shared library {soname}", apt=f"libpython{v[0]}.{v[1]}")


def qt_libraries() -> list[Lack]:
    """The system libraries Qt loads (PyInstaller imports PySide6 to collect them): app/syslibs.py's list."""
    sys.path.insert(0, str(ROOT))
    try:
        from app import syslibs
    except ImportError:
        return []
    finally:
        sys.path.pop(0)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    return [Lack(so, apt=pkg) for so, pkg in syslibs.missing_gui_libraries(env)]


def missing() -> list[Lack]:
    out = [Lack(name, apt=pkg) for name, pkg in TOOLS if _tool(name) is None]
    lib = libpython()
    if lib:
        out.append(lib)
    out += qt_libraries()
    if importlib.util.find_spec("pip") is None and importlib.util.find_spec("ensurepip") is None:
        v = sys.version_info
        out.append(Lack("pip (and ensurepip) for this Python", apt=f"python{v[0]}.{v[1]}-venv"))
    for module, req in MODULES:
        try:
            found = importlib.util.find_spec(module) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            out.append(Lack(module.split(".")[0], pip=req))
    return out


def line(lacks: list[Lack], python: str) -> str:
    """One line: everything missing, then how to get it (apt for the system's part, pip for Python's)."""
    names = ", ".join(x.what + (f" ({x.apt})" if x.apt else "") for x in lacks)
    apt = " ".join(dict.fromkeys(x.apt for x in lacks if x.apt))
    pip = [x for x in lacks if x.pip]
    how = []
    if apt:
        how.append(f"sudo apt-get install --no-install-recommends {apt}")
    if pip:
        bootstrap = "" if importlib.util.find_spec("pip") else f"{python} -m ensurepip && "
        how.append(f"{bootstrap}{python} -m pip install -e '{ROOT}[package]'")
    return f"cannot build the bundle: missing {names}. Install: {' && '.join(how)}"


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(description="check what building the bundle needs")
    ap.add_argument("--python-shown", default=sys.executable, help="how the Python is named in the advice")
    a = ap.parse_args(argv)
    lacks = missing()
    if not lacks:
        return 0
    sys.stderr.write("build.sh: " + line(lacks, a.python_shown) + "\n")
    return 1


if __name__ == "__main__":
    sys.exit(main())
