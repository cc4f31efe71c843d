"""Where a run that waits for a restart goes on: its run state says so (RunState: status
"reboot_required", `reboot_pending`, `boot_id`), the one record resume, the window and the report read.

    point = waiting_for_restart()            # the newest unfinished session, if it waits for a restart
    resume_due(point.boot_id, boot_id())     # app.restart: has the machine restarted since?
    restarted(point)                         # it has: the run no longer waits (the next run verifies)

Round 3's window kept its own resume.json beside the run state; `read_legacy` reads one such file, so a
restart asked for by that window still continues at verification once.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from app import fileio

from .session import Session, SessionBusy, latest_unfinished
from .state import StateError


@dataclass(frozen=True)
class RestartPoint:
    session_dir: Optional[str]  # the session folder (None: an old resume.json that named none)
    boot_id: Optional[str]  # the boot the restart was asked in (None: it cannot be told)
    legacy: Optional[str] = None  # the old resume.json it came from, removed once used


def waiting_for_restart(base: Optional[str | os.PathLike] = None) -> Optional[RestartPoint]:
    """The newest unfinished session when its run state waits for a restart; else None."""
    s = latest_unfinished(base)
    if s is None:
        return None
    try:
        st = s.load_state()
    except StateError:
        return None
    if st.status == "reboot_required" and st.reboot_pending:
        return RestartPoint(str(s.dir), st.boot_id)
    return None


def restarted(point: RestartPoint) -> None:
    """The machine restarted since the run asked for it: the run state stops waiting (a later install run
    continues with its verification), and an old resume.json is removed. Nothing is lost when the session
    is busy or gone: the run state then keeps waiting, and the next start asks again."""
    if point.legacy:
        try:
            os.unlink(point.legacy)
        except OSError:
            pass
    if not point.session_dir or not (Path(point.session_dir) / "state.json").is_file():
        return
    s = Session(point.session_dir)
    try:
        s.acquire()
    except (SessionBusy, OSError):
        return
    try:
        st = s.load_state()
        if st.reboot_pending:
            st.reboot_pending = False
            s.save_state(st)
    except (StateError, OSError):
        pass
    finally:
        s.release()


def read_legacy(path: str | os.PathLike) -> Optional[RestartPoint]:
    """An old window's resume.json ({"page", "session_dir", "boot_id", ...}); None when absent or unreadable."""
    p = Path(path)
    try:
        if p.stat().st_size > 64 * 1024:
            return None
        data = fileio.loads(p.read_text(encoding="utf-8"))
    except (OSError, UnicodeError, ValueError, RecursionError):
        return None
    if not isinstance(data, dict):
        return None
    sd, boot = data.get("session_dir"), data.get("boot_id")
    return RestartPoint(sd if isinstance(sd, str) and sd else None, boot if isinstance(boot, str) else None, str(p))
