"""Before the window: are the system libraries Qt needs here? (Linux; Qt-free, so a missing
library is named in one line instead of an ImportError traceback or a window of boxes.)

`missing_gui_libraries()` tries to load each library the way Qt will (by soname, through the
dynamic loader, so a copy inside the bundle counts); `tell_user()` says the line on stderr and,
when there is no terminal (started from the applications menu), in a desktop dialog when a dialog
program is there (zenity, kdialog, notify-send, xmessage), and always in a log file it names."""
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


DIALOGS = (("zenity", ["--error", "--title=GPU Setup Wizard", "--no-wrap", "--text"]),
           ("kdialog", ["--title", "GPU Setup Wizard", "--error"]),
           ("notify-send", ["--urgency=critical", "GPU Setup Wizard"]),
           ("xmessage", ["-center"]))


def tell_user(line: str, env: Mapping[str, str] = os.environ, interactive: Optional[bool] = None,
              timeout: float = 300.0) -> Optional[str]:
    """Say `line` on stderr, in the log file, and (no terminal) in a desktop dialog. Returns the
    dialog program used, or None."""
    sys.stderr.write(f"gpu-wizard: error: {line}\n")
    log = log_path(env)
    try:
        log.parent.mkdir(parents=True, exist_ok=True)
        with open(log, "a", encoding="utf-8") as fh:
            fh.write(line + "\n")
    except OSError:
        log = None  # type: ignore[assignment]
    if interactive is None:
        interactive = sys.stderr.isatty()
    if interactive or not (env.get("DISPLAY") or env.get("WAYLAND_DISPLAY")):
        return None
    text = line + (f"\n\n(also written to {log})" if log else "")
    for prog, lead in DIALOGS:
        exe = shutil.which(prog)
        if exe:
            try:
                subprocess.run([exe, *lead, text], timeout=timeout, stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=dict(env))
                return prog
            except (OSError, subprocess.TimeoutExpired):
                continue
    return None
