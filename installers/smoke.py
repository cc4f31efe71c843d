"""Shared by the bundle test and bench: build the Linux bundle and start it the way a user would."""
from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import sys
import time
from pathlib import Path

from bundle_common import OLDEST_GLIBC  # noqa: F401  (the bundle test checks against it)

ROOT = Path(__file__).resolve().parents[1]
BUNDLE = ROOT / "build" / "dist" / "gpu-wizard"
SMOKE_ENV = "GPU_WIZARD_SMOKE_TEST"  # ui.main: print when the first window is shown, then quit


def build_needs(python: str = sys.executable) -> list[str]:
    """What building the bundle lacks on this machine and in `python` (installers/linux/build_needs.py, the
    check build.sh itself runs first): [] when the build can start, else its one line."""
    r = subprocess.run([python, str(ROOT / "installers" / "linux" / "build_needs.py")], capture_output=True, text=True, timeout=120)
    return [] if r.returncode == 0 else [r.stderr.strip() or f"the check exited {r.returncode}"]


def build(python: str = sys.executable) -> Path:
    r = subprocess.run(["bash", str(ROOT / "installers" / "linux" / "build.sh"), python], cwd=ROOT,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"bundle build failed (exit {r.returncode}):\n{r.stdout[-3000:]}")
    return BUNDLE


def as_user_argv(argv: list[str]) -> list[str]:
    """The wizard's window never runs as root: when we are root (CI), start it as `nobody`."""
    if os.geteuid() != 0:
        return argv
    runuser = shutil.which("runuser") or shutil.which("setpriv")
    if runuser is None:
        raise RuntimeError("running as root and neither runuser nor setpriv is available")
    if runuser.endswith("runuser"):
        return [runuser, "-u", "nobody", "--", *argv]
    nobody = pwd.getpwnam("nobody")
    return [runuser, f"--reuid={nobody.pw_uid}", f"--regid={nobody.pw_gid}", "--clear-groups", *argv]


def readable_copy(bundle: Path, dest: Path) -> Path:
    """A copy of the bundle that `nobody` can read (the build tree may sit under /root)."""
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(bundle, dest, symlinks=True)
    for d, dirs, files in os.walk(dest):
        os.chmod(d, 0o755)
        for f in files:
            p = os.path.join(d, f)
            if not os.path.islink(p):
                os.chmod(p, 0o755 if os.access(p, os.X_OK) else 0o644)
    p = dest
    while p != p.parent:  # every parent must be traversable
        try:
            os.chmod(p, os.stat(p).st_mode | 0o011)
        except PermissionError:
            break
        p = p.parent
    return dest


def first_window(exe: Path, snapshot: str | None = None, timeout: float = 60) -> tuple[float, subprocess.CompletedProcess]:
    """Start the bundled GUI offscreen; return (seconds until it exited after showing its first window, result)."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", **{SMOKE_ENV: "1"})
    env["HOME"] = "/tmp" if os.geteuid() == 0 else env.get("HOME", "/tmp")
    env["XDG_RUNTIME_DIR"] = "/tmp"
    argv = [str(exe)] + (["--snapshot", snapshot] if snapshot else [])
    t = time.perf_counter()
    r = subprocess.run(as_user_argv(argv), env=env, capture_output=True, text=True, timeout=timeout)
    return time.perf_counter() - t, r


def dir_size_mb(path: Path) -> float:
    total = 0
    for d, _, files in os.walk(path):
        for f in files:
            p = os.path.join(d, f)
            if not os.path.islink(p):
                total += os.path.getsize(p)
    return total / 1e6
