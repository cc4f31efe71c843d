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


def _hidden_run(lib: str, argv: list[str], env: dict, also: tuple[str, ...] = (), **kw) -> subprocess.CompletedProcess:
    """argv with `lib` and the programs `also` covered by /dev/null (not loadable, not executable) in a
    private mount namespace: the machine's own files are never touched."""
    hide = [lib, *(p for p in also if os.path.exists(p))]
    script = " && ".join(f'mount --bind /dev/null "{p}"' for p in hide) + ' && exec "$@"'
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
    assert "--no-wrap" not in shown  # zenity wraps the line at its width: a window never wider than the screen


# what a fresh Debian desktop may lack (each hidden below); gdbus (libglib2.0-bin) and dbus come with every
# desktop task of Debian 12 (apt-get -s of task-gnome/kde/lxqt/cinnamon/mate-desktop; see the closing note)
DIALOG_PROGRAMS = tuple(f"{d}/{p}" for d in ("/usr/bin", "/usr/local/bin", "/bin")
                        for p in ("zenity", "kdialog", "xmessage", "notify-send", "x-terminal-emulator"))


def _free_display() -> str:
    """A display number no X server here uses: neither a lock file nor an abstract socket (another test's
    Xvfb in a private mount namespace shows only the latter), picked away from the usual :0-:99."""
    import random

    try:
        unix = open("/proc/net/unix").read()
    except OSError:
        unix = ""
    for n in random.sample(range(300, 900), 600):
        if not os.path.exists(f"/tmp/.X{n}-lock") and f"/tmp/.X11-unix/X{n}\n" not in unix and f"/tmp/.X11-unix/X{n} " not in unix:
            return f":{n}"
    pytest.skip("no free X display number")


@pytest.fixture
def desktop(tmp_path):
    """A real X server (Xvfb), a real session bus (dbus-daemon) and a real notification service (dunst) on
    them, each stopped afterwards."""
    need = [t for t in ("Xvfb", "dbus-daemon", "dunst", "dunstctl", "gdbus") if shutil.which(t) is None]
    if need:
        pytest.skip(f"needs {', '.join(need)} (scripts/sysdeps.sh --test installs them)")
    procs = []
    display = _free_display()
    xvfb = subprocess.Popen(["Xvfb", display, "-screen", "0", "1366x768x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    procs.append(xvfb)
    try:
        env = dict(os.environ, DISPLAY=display, HOME=str(tmp_path))
        env.pop("WAYLAND_DISPLAY", None)
        env.pop("QT_QPA_PLATFORM", None)
        # the bus starts services it activates with its own environment: the display too
        bus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--print-address=1"], stdout=subprocess.PIPE, text=True, env=env)
        procs.append(bus)
        env["DBUS_SESSION_BUS_ADDRESS"] = bus.stdout.readline().strip()
        import time
        owner = ["gdbus", "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                 "--method", "org.freedesktop.DBus.NameHasOwner", "org.freedesktop.Notifications"]
        end = time.monotonic() + 60
        dunst = None
        # asked without starting anything (dunstctl would activate another dunst); a dunst that came before the
        # X server took its first connection ("Cannot open X11 display") is started again
        while "true" not in subprocess.run(owner, env=env, capture_output=True, text=True).stdout:
            assert time.monotonic() < end, "dunst did not come up"
            if dunst is None or dunst.poll() is not None:
                dunst = subprocess.Popen(["dunst"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                procs.append(dunst)
            time.sleep(0.2)
        yield env
    finally:
        for p in reversed(procs):
            p.terminate()
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()


def _shown(env) -> list[dict]:
    """What the notification service holds (displayed ones closed into its history first)."""
    import json
    import time

    subprocess.run(["dunstctl", "close-all"], env=env, check=True, timeout=30)
    time.sleep(0.3)
    hist = json.loads(subprocess.run(["dunstctl", "history"], env=env, capture_output=True, text=True, timeout=30).stdout)
    return [{k: v["data"] for k, v in n.items()} for n in hist["data"][0]]


def test_from_the_menu_without_dialog_programs_the_line_is_a_notification(libgl, desktop, tmp_path):
    """A fresh Debian desktop without zenity, kdialog, xmessage or notify-send: the whole line reaches the
    desktop's notification service through the session bus (gdbus), urgent and not expiring."""
    env = dict(desktop, GPU_WIZARD_ALLOW_ROOT_GUI="1", XDG_STATE_HOME=str(tmp_path / "state"))
    r = _hidden_run(libgl, [sys.executable, "-m", "app"], env, also=DIALOG_PROGRAMS, cwd=ROOT, stdin=subprocess.DEVNULL)
    assert r.returncode == 2, r.stdout + r.stderr
    line = r.stderr.strip().split("gpu-wizard: error: ", 1)[1]
    if os.environ.get("GPU_WIZARD_SCREENSHOT_DIR"):  # to look at: what the user sees on the screen
        subprocess.run([sys.executable, "-c", "import sys; from PySide6.QtGui import QGuiApplication; a = QGuiApplication([]); "
                        "a.primaryScreen().grabWindow(0).save(sys.argv[1])",
                        os.path.join(os.environ["GPU_WIZARD_SCREENSHOT_DIR"], "syslibs-notification.png")],
                       env=dict(desktop, QT_QPA_PLATFORM="xcb"), timeout=60)
    shown = _shown(desktop)
    assert len(shown) == 1, shown
    n = shown[0]
    assert n["appname"] == "GPU Setup Wizard" and n["timeout"] == 0
    assert n["body"].startswith(line) and "libGL.so.1" in line and "sudo apt-get install libgl1" in line  # the whole line
    assert str(tmp_path / "state" / "gpu-wizard" / "startup.log") in n["body"]


def test_with_no_notification_service_a_terminal_shows_the_line(libgl, tmp_path):
    """No dialog program, no gdbus, no session bus: x-terminal-emulator (Debian's alternative for the
    desktop's terminal) runs the wizard's script, which prints the whole line and waits for Enter. The
    stand-in terminal runs what -e names, as every terminal does, and records what it printed."""
    bindir = tmp_path / "bin"
    bindir.mkdir()
    said = tmp_path / "terminal.txt"
    term = bindir / "x-terminal-emulator"
    term.write_text(f'#!/bin/sh\n[ "$1" = -e ] || exit 9\nshift\n"$@" < /dev/null > {said} 2>&1\n')
    term.chmod(0o755)
    env = dict(os.environ, DISPLAY=":99", GPU_WIZARD_ALLOW_ROOT_GUI="1", XDG_STATE_HOME=str(tmp_path / "state"),
               PATH=f"{bindir}:/usr/bin:/bin")
    for k in ("QT_QPA_PLATFORM", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR"):
        env.pop(k, None)
    also = tuple(p for p in DIALOG_PROGRAMS if not p.endswith("x-terminal-emulator")) + ("/usr/bin/gdbus",)
    r = _hidden_run(libgl, [sys.executable, "-m", "app"], env, also=also, cwd=ROOT, stdin=subprocess.DEVNULL)
    assert r.returncode == 2, r.stdout + r.stderr
    line = r.stderr.strip().split("gpu-wizard: error: ", 1)[1]
    printed = said.read_text()
    assert printed.startswith(line + "\n") and "Press Enter" in printed and "startup.log" in printed


def test_xmessage_gets_the_line_wrapped_not_cut():
    text = syslibs.missing_line([(f"libxcb-{i}.so.0", f"libxcb-{i}0") for i in range(12)])
    argv = syslibs._dialog_argv("xmessage", "/usr/bin/xmessage", text, {})
    shown = argv[-1]
    assert all(len(ln) <= syslibs.WRAP for ln in shown.splitlines()) and shown.split() == text.split()


def test_the_notification_text_is_gvariant_quoted():
    hostile = "it's a \\ path\n<b>&"
    argv = syslibs._dialog_argv("gdbus", "/usr/bin/gdbus", hostile, {"DBUS_SESSION_BUS_ADDRESS": "unix:path=/x"})
    body = argv[argv.index("--") + 5]
    assert body == "'it\\'s a \\\\ path\\u000a&lt;b&gt;&amp;'"
    assert syslibs._dialog_argv("gdbus", "/usr/bin/gdbus", "x", {}) is None  # no session bus: not tried


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
