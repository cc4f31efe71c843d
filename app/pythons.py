"""The Python interpreters detection asks about, and the one short start it asks each with: in a module of its
own, importing only `re`, so that app/cli.py can start those starts before the program's imports (issue 24:
on the H200 each is 18-20 ms, and it was the last answer detection waited for). app/detect/python_env.py
re-exports these; detection calls them from there."""
from __future__ import annotations

import re
from typing import Optional

# One short start per interpreter (-I -S: no site, no user paths, no PYTHON* variables): its version line as
# `python --version` prints it (sys.version says a free-threaded build) and whether ensurepip and venv are there
# (Debian/Ubuntu ship ensurepip in pythonX.Y-venv). find_spec, not an import: a fifth of the start's cost.
PROBE_SCRIPT = ("import sys\nprint('Python ' + sys.version.replace(chr(10), ' '))\n"
                "import importlib.util as u\nm = [n for n in ('ensurepip', 'venv') if u.find_spec(n) is None]\n"
                "print('venv ok' if not m else 'venv missing ' + ' '.join(m))\n")


def probe_argv(python: str) -> list[str]:
    return [python, "-I", "-S", "-c", PROBE_SCRIPT]


def candidates(system) -> list[tuple[str, str]]:
    """(path, kind) of interpreters worth offering: active venv/conda, python3 on PATH,
    ~/.venv and the wizard's own venv."""
    seen: list[tuple[str, str]] = []

    def add(p: Optional[str], kind: str) -> None:
        if p and p not in [s[0] for s in seen] and system.exists(p):
            seen.append((p, kind))

    venv = system.getenv("VIRTUAL_ENV")
    if venv:
        add(f"{venv}/bin/python", "venv")
    conda = system.getenv("CONDA_PREFIX")
    if conda:
        add(f"{conda}/bin/python", "conda")
    add(system.which("python3"), "system")
    home = system.getenv("HOME")
    if home:
        for d in (".venv", "venv", ".local/share/gpu-wizard/venv"):
            add(f"{home}/{d}/bin/python", "wizard" if "gpu-wizard" in d else "venv")
    return seen


def version_from_path(system, path: str) -> Optional[str]:
    """'python3.12' in the path or in the link chain → '3.12' (no process needed)."""
    cur = path
    for _ in range(4):
        m = re.search(r"python(\d\.\d+t?)$", cur)  # python3.13t: the free-threaded build
        if m:
            return m.group(1)
        t = system.readlink(cur)
        if not t:
            break
        cur = t if t.startswith("/") else cur.rsplit("/", 1)[0] + "/" + t
    return None


def needs_probe(system, path: str, kind: str, venv_check: bool = True) -> bool:
    """Whether detection starts `path` to ask it (PROBE_SCRIPT): when its path does not name its version, or
    when it is a system Python and detection wants to know whether it can make a venv."""
    return not version_from_path(system, path) or (kind == "system" and venv_check)
