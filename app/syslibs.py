"""Before the window: are the system libraries Qt needs here? (Linux; Qt-free, so a missing
library is named in one line instead of an ImportError traceback or a window of boxes.)

`missing_gui_libraries()` tries to load each library the way Qt will (by soname, through the
dynamic loader, so a copy inside the bundle counts); `tell_user()` says the line on stderr and,
when there is no terminal (started from the applications menu), in a desktop dialog when a dialog
program is there (zenity, kdialog), else a desktop notification through the session bus (gdbus, which
every Debian desktop has, or notify-send), else xmessage, else a terminal window (x-terminal-emulator),
and always in a log file it names. The line is never cut: each program wraps it (xmessage gets it
wrapped)."""
from __future__ import annotations

import ctypes
import glob
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Mapping, Optional

# soname → Debian/Ubuntu package (scripts/sysdeps.sh installs the same list)
ALWAYS = (("libGL.so.1", "libgl1"), ("libEGL.so.1", "libegl1"), ("libfontconfig.so.1", "libfontconfig1"),
          ("libxkbcommon.so.0", "libxkbcommon0"), ("libdbus-1.so.3", "libdbus-1-3"), ("libglib-2.0.so.0", "libglib2.0-0"))
XCB = (("libxkbcommon-x11.so.0", "libxkbcommon-x11-0"), ("libxcb-cursor.so.0", "libxcb-cursor0"),
       ("libxcb-icccm.so.4", "libxcb-icccm4"), ("libxcb-image.so.0", "libxcb-image0"),
       ("libxcb-keysyms.so.1", "libxcb-keysyms1"), ("libxcb-randr.so.0", "libxcb-randr0"),
       ("libxcb-render-util.so.0", "libxcb-render-util0"), ("libxcb-shape.so.0", "libxcb-shape0"),
       ("libxcb-xinerama.so.0", "libxcb-xinerama0"), ("libxcb-xkb.so.1", "libxcb-xkb1"), ("libX11-xcb.so.1", "libx11-xcb1"))
FONT_DIRS = ("/usr/share/fonts", "/usr/local/share/fonts", "/usr/X11R6/lib/X11/fonts")
FONT_PACKAGE = "fonts-dejavu-core"


def _loads(soname: str) -> bool:
    try:
        ctypes.CDLL(soname)
        return True
    except OSError:
        return False


def _has_fonts(home: Optional[str]) -> bool:
    dirs = list(FONT_DIRS) + ([os.path.join(home, ".local/share/fonts"), os.path.join(home, ".fonts")] if home else [])
    pats = ("*.ttf", "*.otf", "*.ttc", "*.pfb", "*.pcf.gz")
    return any(glob.glob(os.path.join(d, "**", p), recursive=True) for d in dirs if os.path.isdir(d) for p in pats)


def uses_xcb(env: Mapping[str, str]) -> bool:
    plat = (env.get("QT_QPA_PLATFORM") or "").split(":")[0].split(";")[0]
    if plat:
        return plat == "xcb"
    return bool(env.get("DISPLAY")) and not env.get("WAYLAND_DISPLAY")


def missing_gui_libraries(env: Mapping[str, str] = os.environ, loads=_loads, has_fonts=_has_fonts) -> list[tuple[str, str]]:
    """[(what, package)] that the window needs and this machine lacks; [] when all is there."""
    if not sys.platform.startswith("linux"):
        return []
    want = list(ALWAYS) + (list(XCB) if uses_xcb(env) else [])
    out = [(so, pkg) for so, pkg in want if not loads(so)]
    if (env.get("QT_QPA_PLATFORM") or "").split(":")[0] != "offscreen" and not has_fonts(env.get("HOME")):
        out.append(("any font", FONT_PACKAGE))
    return out


def missing_line(missing: list[tuple[str, str]]) -> str:
    names = ", ".join(w for w, _ in missing)
    pkgs = " ".join(dict.fromkeys(p for _, p in missing))
    return (f"GPU Setup Wizard cannot open its window: this system lacks {names}. "
            f"Install them (Debian/Ubuntu): sudo apt-get install {pkgs}")


def log_path(env: Mapping[str, str] = os.environ) -> Path:
    base = env.get("XDG_STATE_HOME") or os.path.join(env.get("HOME") or os.path.expanduser("~"), ".local", "state")
    return Path(base) / "gpu-wizard" / "startup.log"


WRAP = 76  # characters per line where the program shows text as given (xmessage): never wider than a screen


def wrapped(text: str, width: int = WRAP) -> str:
    """`text` broken at spaces into lines of at most `width` (a word longer than that stays whole)."""
    import textwrap

    return "\n".join(textwrap.fill(p, width, break_long_words=False, break_on_hyphens=False) if p else ""
                     for p in text.split("\n"))


def gvariant_str(text: str) -> str:
    """A GVariant text-format string literal (what `gdbus call` parses): backslash escapes for the quote,
    the backslash and every control character, so the text arrives as it is."""
    out = []
    for c in text:
        if c in "\\'":
            out.append("\\" + c)
        elif ord(c) < 0x20 or 0x7f <= ord(c) < 0xa0 or c in "\u2028\u2029":
            out.append(f"\\u{ord(c):04x}")
        else:
            out.append(c)
    return "'" + "".join(out) + "'"


def _markup(text: str) -> str:
    """The notification body's markup (Desktop Notifications Specification: a subset of HTML) escaped."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


SUMMARY = "GPU Setup Wizard"


def _dialog_argv(prog: str, exe: str, text: str, env: Mapping[str, str]) -> Optional[list[str]]:
    """The argv that shows `text` whole with this program, or None when it cannot here."""
    if prog == "zenity":  # wraps at --width (--no-wrap would make a window wider than the screen)
        return [exe, "--error", "--title=GPU Setup Wizard", "--width=560", "--text", text]
    if prog == "kdialog":
        return [exe, "--title", "GPU Setup Wizard", "--error", text]
    if prog == "gdbus":  # a desktop notification through the session bus: every Debian desktop has one
        if not (env.get("DBUS_SESSION_BUS_ADDRESS") or (env.get("XDG_RUNTIME_DIR") and os.path.exists(os.path.join(env["XDG_RUNTIME_DIR"], "bus")))):
            return None
        return [exe, "call", "--session", "--dest", "org.freedesktop.Notifications", "--object-path",
                "/org/freedesktop/Notifications", "--method", "org.freedesktop.Notifications.Notify", "--",
                gvariant_str("GPU Setup Wizard"), "uint32 0", gvariant_str("dialog-error"), gvariant_str(SUMMARY),
                gvariant_str(_markup(text)), "@as []", "{'urgency': <byte 2>}", "int32 0"]
    if prog == "notify-send":
        return [exe, "--urgency=critical", "--expire-time=0", SUMMARY, _markup(text)]
    if prog == "xmessage":  # shows lines as given: wrapped first
        return [exe, "-center", wrapped(text)]
    return None


def _terminal_argv(exe: str, text: str, log_dir: Optional[Path]) -> Optional[list[str]]:
    """x-terminal-emulator (Debian's alternative: gnome-terminal, konsole, xfce4-terminal, xterm...) running a
    script that prints the message (read from a file: data, never code) and waits for Enter. The terminal
    wraps the line to its width, so nothing is cut."""
    import shlex

    if log_dir is None:
        return None
    msg, script = log_dir / "startup-message.txt", log_dir / "startup-message.sh"
    try:
        msg.write_text(text + "\n", encoding="utf-8")
        script.write_text("#!/bin/sh\n"
                          f"cat {shlex.quote(str(msg))}\n"
                          "printf '\\n%s' 'Press Enter to close this window. '\n"
                          "read answer\n", encoding="utf-8")
        script.chmod(0o700)
    except OSError:
        return None
    return [exe, "-e", str(script)]  # one program path: every terminal's -e reads it the same way


DIALOGS = ("zenity", "kdialog", "gdbus", "notify-send", "xmessage")
TERMINAL = "x-terminal-emulator"


def tell_user(line: str, env: Mapping[str, str] = os.environ, interactive: Optional[bool] = None,
              timeout: float = 300.0) -> Optional[str]:
    """Say `line` on stderr, in the log file, and (no terminal) in a desktop dialog: zenity, kdialog, a desktop
    notification through the session bus (gdbus), notify-send, xmessage, else a terminal window showing it.
    Returns the program that showed it, or None."""
    sys.stderr.write(f"gpu-wizard: error: {line}\n")
    log: Optional[Path] = log_path(env)
    try:
        assert log is not None
        log.parent.mkdir(parents=True, exist_ok=True)
        with open(log, "a", encoding="utf-8") as fh:
            fh.write(line + "\n")
    except OSError:
        log = None
    if interactive is None:
        interactive = sys.stderr.isatty()
    if interactive or not (env.get("DISPLAY") or env.get("WAYLAND_DISPLAY")):
        return None
    text = line + (f"\n\n(also written to {log})" if log else "")
    path = env.get("PATH") or os.defpath
    for prog in (*DIALOGS, TERMINAL):
        exe = shutil.which(prog, path=path)
        argv = None if exe is None else (_terminal_argv(exe, text, log.parent if log else None) if prog == TERMINAL
                                         else _dialog_argv(prog, exe, text, env))
        if argv is None:
            continue
        try:
            r = subprocess.run(argv, timeout=timeout, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, env=dict(env))
        except (OSError, subprocess.TimeoutExpired):
            continue
        # a dialog answers 0 (OK) or 1 (closed); gdbus and notify-send fail when no notification service runs
        if r.returncode == 0 or (prog in ("zenity", "kdialog", "xmessage") and r.returncode == 1):
            return prog
    return None
