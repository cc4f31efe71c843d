"""Client side of privilege: pick how root steps run and talk to the helper.

`choose_privilege()` → `DirectPrivilege` when already root; else a `HelperPrivilege` that starts
the helper once, lazily on the first root request (so a plan without root steps never asks for a
password): pkexec with our polkit action on a desktop session, `sudo -A` with SUDO_ASKPASS (the
GUI passes its dialog program) where there is no polkit agent (WSL, SSH), plain sudo on a terminal.
On Windows without administrator rights: `ElevatedPrivilege`, which starts the helper elevated
through UAC (PowerShell Start-Process -Verb RunAs) for each root request, and only for those; the
request and its answer travel as files, the output lines stream live (app/run/privileged.py).
"""
from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Callable, Optional, Sequence

from app import fileio
from app.plan.model import Edit

from .edits import EditRecord, RestoreReport
from .privileged import INSTALLED_HELPER, ROOT_BACKUPS, PolicyError, RootExecutor
from .runner import CancelToken, CommandOutcome, Line, Progress

HELPER_SCRIPT = Path(__file__).resolve().parents[2] / "installers" / "helper" / "gpu-wizard-helper"


class PrivilegeError(Exception):
    """Root rights could not be had (password dialog dismissed, no sudo...)."""


class DirectPrivilege:
    """Already root: the same checks, in this process."""

    how = "already root"

    def __init__(self, backups_root: str = ROOT_BACKUPS):
        self.ex = RootExecutor(backups_root)

    def run(self, kind: str, argv: Sequence[str], env: dict[str, str], timeout_s: Optional[float],
            files: dict[str, dict[str, str]], on_line: Callable[[Line], None], on_progress: Callable[[Progress], None],
            cancel: CancelToken) -> CommandOutcome:
        return self.ex.run(kind, argv, env, timeout_s, files, on_line, on_progress, cancel)

    def edit(self, kind: str, edit: Edit, session: str) -> EditRecord:
        return self.ex.edit(kind, edit, session)

    def restore(self, session: str, paths: Optional[list[str]] = None) -> list[str]:
        return self.ex.restore(session, paths)

    def restore_report(self, session: str, paths: Optional[list[str]] = None) -> RestoreReport:
        return self.ex.restore_report(session, paths)

    def close(self) -> None:
        pass


class _RequestPrivilege:
    """The helper protocol's three operations, on top of a subclass's `_request` (JSON over a pipe
    to a helper started once, or request/result files for one UAC prompt each)."""

    def _request(self, obj: dict, on_line=None, on_progress=None, cancel: Optional[CancelToken] = None) -> dict:
        raise NotImplementedError

    def run(self, kind, argv, env, timeout_s, files, on_line, on_progress, cancel) -> CommandOutcome:
        msg = self._request({"op": "run", "kind": kind, "argv": list(argv), "env": env, "timeout_s": timeout_s,
                             "files": files}, on_line, on_progress, cancel)
        if msg.get("event") != "done":
            raise PolicyError(msg.get("message", "refused"))
        return CommandOutcome(argv=msg.get("argv") or list(argv), rc=msg.get("rc"), duration_s=msg.get("duration_s") or 0.0,
                              timed_out=bool(msg.get("timed_out")), cancelled=bool(msg.get("cancelled")),
                              tail=list(msg.get("tail") or []), error=msg.get("error"))

    def edit(self, kind: str, edit: Edit, session: str) -> EditRecord:
        msg = self._request({"op": "edit", "kind": kind, "edit": edit.to_json(), "session": session})
        if msg.get("event") != "edited":
            raise PolicyError(msg.get("message", "refused"))
        try:
            return EditRecord.from_json(msg.get("record"))
        except Exception:
            raise PolicyError("the privileged helper answered with a damaged record") from None

    def restore(self, session: str, paths: Optional[list[str]] = None) -> list[str]:
        return self.restore_report(session, paths).restored

    def restore_report(self, session: str, paths: Optional[list[str]] = None) -> RestoreReport:
        msg = self._request({"op": "restore", "session": session, "paths": paths})
        if msg.get("event") != "restored":
            raise PolicyError(msg.get("message", "refused"))
        return RestoreReport([str(p) for p in msg.get("paths") or []], [str(p) for p in msg.get("problems") or []])


class HelperPrivilege(_RequestPrivilege):
    """One helper process per run, JSON lines over its stdin/stdout."""

    def __init__(self, launcher: Sequence[str], env: Optional[dict[str, str]] = None, how: str = "helper"):
        self.launcher = list(launcher)
        self.env = env
        self.how = how
        self.proc: Optional[subprocess.Popen] = None
        self._lock = threading.Lock()
        self._next = 0
        self._waiters: dict[int, queue.Queue] = {}
        self._handlers: dict[int, tuple[Callable, Callable]] = {}
        self._ready = threading.Event()
        self._reader: Optional[threading.Thread] = None
        self._stderr: list[str] = []

    def _start(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            return
        try:
            self.proc = subprocess.Popen(self.launcher, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                         env=self.env, text=True, bufsize=1, start_new_session=True)
        except OSError as e:
            raise PrivilegeError(f"cannot start the privileged helper ({self.how}): {e.strerror}") from None
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        threading.Thread(target=self._read_err, daemon=True).start()
        while not self._ready.wait(0.2):
            if self.proc.poll() is not None:
                self._reader.join(timeout=2)
                if self._ready.is_set():
                    break
                err = " ".join(self._stderr[-3:]).strip()
                raise PrivilegeError("administrator rights were not granted" + (f": {err}" if err else ""))

    def _read_err(self) -> None:
        assert self.proc and self.proc.stderr
        for line in self.proc.stderr:
            self._stderr.append(line.strip())
            del self._stderr[:-20]

    def _read(self) -> None:
        assert self.proc and self.proc.stdout
        for raw in self.proc.stdout:
            try:
                msg = fileio.loads(raw)
            except json.JSONDecodeError:
                continue
            ev = msg.get("event")
            if ev == "ready":
                self._ready.set()
                continue
            rid = msg.get("id")
            if ev == "line" and rid in self._handlers:
                self._handlers[rid][0](Line(msg.get("stream", "stdout"), msg.get("text", ""), bool(msg.get("final", True))))
            elif ev == "progress" and rid in self._handlers:
                self._handlers[rid][1](Progress(msg.get("fraction"), msg.get("message", "")))
            elif rid in self._waiters:
                self._waiters[rid].put(msg)
        for q in list(self._waiters.values()):  # helper gone: wake everyone
            q.put({"event": "refused", "message": "the privileged helper stopped"})

    def _send(self, obj: dict) -> None:
        assert self.proc and self.proc.stdin
        with self._lock:
            try:
                self.proc.stdin.write(json.dumps(obj) + "\n")
                self.proc.stdin.flush()
            except (BrokenPipeError, OSError):
                raise PrivilegeError("the privileged helper stopped") from None

    def _request(self, obj: dict, on_line=None, on_progress=None, cancel: Optional[CancelToken] = None) -> dict:
        self._start()
        with self._lock:
            self._next += 1
            rid = self._next
        q: queue.Queue = queue.Queue()
        self._waiters[rid] = q
        if on_line or on_progress:
            self._handlers[rid] = (on_line or (lambda _l: None), on_progress or (lambda _p: None))
        try:
            self._send({**obj, "id": rid})
            sent_cancel = False
            while True:
                try:
                    return q.get(timeout=0.1)
                except queue.Empty:
                    if cancel is not None and cancel.cancelled and not sent_cancel:
                        self._send({"op": "cancel", "id": rid})
                        sent_cancel = True
        finally:
            self._waiters.pop(rid, None)
            self._handlers.pop(rid, None)

    def close(self, wait_s: float = 15.0) -> None:
        """Tell the helper to quit. It finishes a root step that is still running first (never
        killed half-way: a dpkg or a runfile cut off leaves the system half-installed); after
        `wait_s` the wizard stops waiting and leaves it to end by itself (or by the step's timeout)."""
        if self.proc is None:
            return
        try:
            self._send({"op": "quit"})
            self.proc.stdin.close()  # type: ignore[union-attr]
        except (PrivilegeError, OSError):
            pass
        try:
            self.proc.wait(timeout=wait_s)
        except subprocess.TimeoutExpired:
            pass  # still finishing a step as root: not ours to kill
        self.proc = None


# --- Windows: elevation through UAC, per root request ------------------------------------------

WINDOWS_HELPER_EXE = "gpu-wizard-helper.exe"  # beside gpu-wizard.exe in the bundle (uac_admin manifest)


def ps_quote(text: str) -> str:
    """A PowerShell single-quoted literal: nothing inside is expanded or parsed (a doubled quote is a
    quote; the typographic single quotes PowerShell also accepts are doubled as well)."""
    from app.plan.script_ps import ps_quote as _q

    return _q(text)


def windows_command_line(args: Sequence[str]) -> str:
    """Arguments joined the way Windows programs split them again (CommandLineToArgvW rules)."""
    return subprocess.list2cmdline([str(a) for a in args])


def elevate_argv(exe: str, args: Sequence[str], powershell: str = "powershell.exe") -> list[str]:
    """argv that starts `exe args...` elevated (UAC prompt), hidden, and waits for it.

    Start-Process passes -ArgumentList to the program as one command line, unquoted, so the
    arguments are first quoted for Windows (list2cmdline) and that string, like the path, goes in
    as a single-quoted PowerShell literal: no text from a path or request is ever PowerShell code."""
    script = (f"$p = Start-Process -FilePath {ps_quote(exe)} -ArgumentList {ps_quote(windows_command_line(args))} "
              "-Verb RunAs -Wait -WindowStyle Hidden -PassThru; exit $p.ExitCode")
    return [powershell, "-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass", "-Command", script]


def windows_helper_argv(frozen: Optional[bool] = None, executable: Optional[str] = None) -> list[str]:
    """The helper program and its leading arguments: the bundled gpu-wizard-helper.exe beside the
    wizard, else the wizard itself with --gpu-wizard-helper, else (from source) python + the script."""
    frozen = getattr(sys, "frozen", False) if frozen is None else frozen
    executable = executable or sys.executable
    if frozen:
        exe = os.path.join(os.path.dirname(executable), WINDOWS_HELPER_EXE)
        return [exe] if os.path.exists(exe) else [executable, HELPER_FLAG]
    return [executable, str(HELPER_SCRIPT)]


class ElevatedPrivilege(_RequestPrivilege):
    """Windows: each root request is a JSON file; the helper runs it elevated (one UAC prompt) and
    answers in a result file, its output lines streamed live from RESULT.lines (app/run/privileged.py)."""

    how = "UAC"

    def __init__(self, helper_argv: Optional[Sequence[str]] = None, start: Optional[Callable] = None,
                 powershell: str = "powershell.exe", poll_s: float = 0.1):
        self.helper_argv = list(helper_argv or windows_helper_argv())
        self.powershell = powershell
        self._start_fn = start or self._start_default
        self.poll_s = poll_s
        self.last_argv: Optional[list[str]] = None

    @staticmethod
    def _start_default(argv: list[str], exe: str, args: list[str]) -> subprocess.Popen:
        flags = getattr(subprocess, "CREATE_NO_WINDOW", 0)
        return subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                creationflags=flags)

    def _request(self, obj: dict, on_line=None, on_progress=None, cancel: Optional[CancelToken] = None) -> dict:
        import tempfile

        d = tempfile.mkdtemp(prefix="gpu-wizard-uac-")
        req, res = os.path.join(d, "request.json"), os.path.join(d, "result.json")
        try:
            with open(req, "w", encoding="utf-8") as fh:
                json.dump(obj, fh)
            exe, lead = self.helper_argv[0], self.helper_argv[1:]
            args = [*lead, "--request", req, "--result", res]
            self.last_argv = elevate_argv(exe, args, self.powershell)
            try:
                proc = self._start_fn(self.last_argv, exe, args)
            except OSError as e:
                raise PrivilegeError(f"cannot ask for administrator rights: {e.strerror or e}") from None
            lines_path, pos, cancelled = res + ".lines", 0, False
            while True:
                done = proc.poll() is not None
                pos = self._drain(lines_path, pos, on_line, on_progress)
                if done:
                    break
                if cancel is not None and cancel.cancelled and not cancelled:
                    open(req + ".cancel", "w").close()  # the elevated helper watches for it
                    cancelled = True
                time.sleep(self.poll_s)
            self._drain(lines_path, pos, on_line, on_progress)
            try:
                with open(res, encoding="utf-8") as fh:
                    return fileio.loads(fh.read())
            except (OSError, ValueError):
                err = ""
                if getattr(proc, "stderr", None) is not None:
                    err = (proc.stderr.read() or b"").decode("utf-8", "replace").strip().splitlines()
                    err = err[-1] if err else ""
                raise PrivilegeError("administrator rights were not granted" + (f": {err}" if err else "")) from None
        finally:
            shutil.rmtree(d, ignore_errors=True)

    @staticmethod
    def _drain(path: str, pos: int, on_line, on_progress) -> int:
        """Pass on the complete lines the helper appended since `pos`; returns the new offset."""
        try:
            with open(path, "rb") as fh:
                fh.seek(pos)
                chunk = fh.read()
        except OSError:
            return pos
        end = chunk.rfind(b"\n")
        if end < 0:
            return pos
        for raw in chunk[:end].split(b"\n"):
            try:
                msg = fileio.loads(raw)
            except ValueError:
                continue
            if msg.get("event") == "line" and on_line:
                on_line(Line(msg.get("stream", "stdout"), msg.get("text", ""), bool(msg.get("final", True))))
            elif msg.get("event") == "progress" and on_progress:
                on_progress(Progress(msg.get("fraction"), msg.get("message", "")))
        return pos + end + 1

    def close(self) -> None:
        pass


POLICY_FILE = "/usr/share/polkit-1/actions/org.gpuwizard.helper.policy"
HELPER_FLAG = "--gpu-wizard-helper"  # the bundled executable runs the helper when given this


def helper_program() -> str:
    return INSTALLED_HELPER if os.path.exists(INSTALLED_HELPER) else str(HELPER_SCRIPT)


def self_helper_argv() -> list[str]:
    """How this wizard starts its own helper (under sudo): the bundle re-runs itself with HELPER_FLAG."""
    if getattr(sys, "frozen", False):
        return [sys.executable, HELPER_FLAG]
    return [sys.executable, helper_program()]


def polkit_helper_argv(policy_file: str = POLICY_FILE) -> Optional[list[str]]:
    """The helper our installed polkit action authorises (its exec.path annotation), or None."""
    try:
        text = Path(policy_file).read_text(encoding="utf-8")
    except OSError:
        return None
    import re

    m = re.search(r'key="org\.freedesktop\.policykit\.exec\.path">\s*([^<\s]+)\s*<', text)
    if not m or not os.path.isabs(m.group(1)) or not os.path.exists(m.group(1)):
        return None
    path = m.group(1)
    return [path] if os.path.basename(path) == "gpu-wizard-helper" else [path, HELPER_FLAG]


ASKPASS_PROGRAMS = ("/usr/bin/ssh-askpass", "/usr/lib/ssh/x11-ssh-askpass", "/usr/lib/openssh/gnome-ssh-askpass",
                    "/usr/libexec/openssh/gnome-ssh-askpass", "/usr/bin/ksshaskpass", "/usr/bin/lxqt-openssh-askpass")


def _has_tty() -> bool:
    """Whether sudo could ask on a terminal (the controlling terminal opens)."""
    try:
        with open("/dev/tty"):
            return True
    except OSError:
        return False


def find_askpass() -> Optional[str]:
    """A graphical password prompt for sudo when the GUI gave none and there is no terminal."""
    return next((p for p in ASKPASS_PROGRAMS if os.access(p, os.X_OK)), None)


def _is_wsl() -> bool:
    try:
        return "microsoft" in Path("/proc/version").read_text().lower()
    except OSError:
        return False


def polkit_usable(env=os.environ) -> bool:
    """pkexec needs an authentication agent: a local graphical session, not WSL or SSH."""
    return (shutil.which("pkexec") is not None and bool(env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"))
            and not env.get("SSH_CONNECTION") and not _is_wsl())


def choose_privilege(askpass: Optional[str] = None, prefer: Optional[str] = None, backups_root: str = ROOT_BACKUPS):
    """DirectPrivilege when root; else HelperPrivilege via pkexec or sudo (askpass for a GUI)."""
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        return DirectPrivilege(backups_root)
    if sys.platform.startswith("win"):
        import ctypes

        if ctypes.windll.shell32.IsUserAnAdmin():  # type: ignore[attr-defined]
            return DirectPrivilege(os.path.join(os.environ.get("PROGRAMDATA", "C:\\ProgramData"), "gpu-wizard", "backups"))
        return ElevatedPrivilege()  # UAC asks for each administrator step, and only for those
    polkit = polkit_helper_argv()
    if prefer in (None, "pkexec") and polkit and polkit_usable():
        return HelperPrivilege(["pkexec", *polkit], how="pkexec")
    if shutil.which("sudo") is None:
        raise PrivilegeError("this plan needs administrator rights, but neither pkexec nor sudo is available")
    env = dict(os.environ)
    askpass = askpass or os.environ.get("SUDO_ASKPASS") or (None if _has_tty() else find_askpass())
    if askpass:
        env["SUDO_ASKPASS"] = askpass
        return HelperPrivilege(["sudo", "-A", "--", *self_helper_argv()], env=env, how="sudo (askpass)")
    return HelperPrivilege(["sudo", "--", *self_helper_argv()], env=env, how="sudo")
