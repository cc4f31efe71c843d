"""Client side of privilege: pick how root steps run and talk to the helper.

`choose_privilege()` → `DirectPrivilege` when already root; else a `HelperPrivilege` that starts
the helper once, lazily on the first root request (so a plan without root steps never asks for a
password), asking for the password where the user is: pkexec with our polkit action where it is
installed and an agent runs; else sudo with `--askpass PROGRAM`, the window's own password dialog
(app/run/askpass.py), this terminal (sudo asks there; the helper then leaves the terminal's
signals), or a dialog of our own on a display. With none of them: one line, exit code 2. Under sudo
root never runs the user's interpreter or files: app/run/rootboot.py copies and checks them first.
On Windows without administrator rights: `ElevatedPrivilege`, which starts the helper elevated
through UAC (PowerShell Start-Process -Verb RunAs) once for each run of consecutive administrator
steps, and only for those; requests and answers travel as files, the output lines stream live
(app/run/privileged.py serve_folder).
"""
from __future__ import annotations

import json
import os
import queue
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Callable, Optional, Sequence

from app import fileio
from app.plan.model import Edit

from . import askpass as askpass_mod
from . import rootboot
from .edits import EditRecord, RestoreReport
from . import machinelock
from .machinelock import MachineLock
from .privileged import ROOT_BACKUPS, PolicyError, RootExecutor, clean_stale_temps
from .runner import CancelToken, CommandOutcome, Line, Progress

HELPER_SCRIPT = Path(__file__).resolve().parents[2] / "installers" / "helper" / "gpu-wizard-helper"


class PrivilegeError(Exception):
    """Root rights could not be had. `code` names why (the catalogue sentence cli.<code> is the
    message), `cancelled` when the user dismissed the password prompt (the plan stops as cancelled,
    nothing ran), `exit_code` for the command line (2: there was no way to ask at all)."""

    def __init__(self, message: str, code: str = "door_failed", params: Optional[dict] = None,
                 cancelled: bool = False, exit_code: int = 1):
        super().__init__(message)
        self.code = code
        self.params = dict(params or {})
        self.cancelled = cancelled
        self.exit_code = exit_code


def door_error(code: str, lang: Optional[str] = None, cancelled: bool = False, exit_code: int = 1,
               **params: str) -> PrivilegeError:
    """A PrivilegeError whose message is the catalogue's sentence cli.<code> in `lang`."""
    from app.messages import cli, resolve_lang

    return PrivilegeError(cli(code, lang or resolve_lang(), **params), code, params, cancelled, exit_code)


class DirectPrivilege:
    """Already root: the same checks, in this process."""

    how = "already root"

    def __init__(self, backups_root: str = ROOT_BACKUPS):
        self.ex = RootExecutor(backups_root)
        self._lock: Optional[MachineLock] = None

    def _hold(self) -> None:
        """The machine lock, from the first root step to close() (one run at a time changes this computer)."""
        if self._lock is None:
            try:
                self._lock = machinelock.acquire()
            except machinelock.MachineBusy as e:
                raise door_error("door_busy", holder=e.holder) from None
            clean_stale_temps(backups_root=self.ex.backups_root)

    def run(self, kind: str, argv: Sequence[str], env: dict[str, str], timeout_s: Optional[float],
            files: dict[str, dict[str, str]], on_line: Callable[[Line], None], on_progress: Callable[[Progress], None],
            cancel: CancelToken) -> CommandOutcome:
        self._hold()
        return self.ex.run(kind, argv, env, timeout_s, files, on_line, on_progress, cancel)

    def edit(self, kind: str, edit: Edit, session: str) -> EditRecord:
        self._hold()
        return self.ex.edit(kind, edit, session)

    def restore(self, session: str, paths: Optional[list[str]] = None) -> list[str]:
        return self.restore_report(session, paths).restored

    def restore_report(self, session: str, paths: Optional[list[str]] = None) -> RestoreReport:
        self._hold()
        return self.ex.restore_report(session, paths)

    def close(self) -> None:
        if self._lock is not None:
            self._lock.release()
            self._lock = None


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
    """One helper process per run, JSON lines over its stdin/stdout.

    `terminal`: sudo asks for the password on this terminal, so the helper starts in the wizard's
    own session (a new session has no terminal to ask on); once root it leaves the terminal's
    signals itself (app/run/rootboot.py). Otherwise it starts in a session of its own (pkexec, an
    askpass dialog), out of reach of the terminal the wizard may have been started from.
    `first_line`: written before anything else (the helper's file list, for rootboot).
    `prompt`: the askpass server that answers sudo's password questions (it says whether the user
    cancelled). `fallback`: how to ask instead when this way finds no one to ask (pkexec without a
    polkit agent): tried only when no prompt was shown, so nobody is asked twice.
    A failed start is remembered: later root requests of the run get the same answer, never a
    second password prompt."""

    def __init__(self, launcher: Sequence[str], env: Optional[dict[str, str]] = None, how: str = "helper",
                 terminal: bool = False, first_line: str = "", prompt=None,
                 fallback: Optional[Callable[[], "HelperPrivilege"]] = None, lang: Optional[str] = None):
        self.launcher = list(launcher)
        self.env = env
        self.how = how
        self.terminal = terminal
        self.first_line = first_line
        self.prompt = prompt
        self.fallback = fallback
        self.lang = lang
        self.proc: Optional[subprocess.Popen] = None
        self._lock = threading.Lock()
        self._next = 0
        self._waiters: dict[int, queue.Queue] = {}
        self._handlers: dict[int, tuple[Callable, Callable]] = {}
        self._ready = threading.Event()
        self._reader: Optional[threading.Thread] = None
        self._stderr: list[str] = []
        self._failed: Optional[PrivilegeError] = None
        self.started_s: Optional[float] = None  # when root answered (the bench reads it)

    def _start(self) -> None:
        if self._failed is not None:
            raise self._failed
        if self.proc is not None and self.proc.poll() is None:
            return
        try:
            self._spawn()
        except PrivilegeError as e:
            alt = self.fallback() if self.fallback is not None and e.code == "door_no_agent" else None
            if alt is None:
                self._failed = e
                raise
            self._adopt(alt)
            try:
                self._spawn()
            except PrivilegeError as e2:
                self._failed = e2
                raise

    def _adopt(self, other: "HelperPrivilege") -> None:
        for name in ("launcher", "env", "how", "terminal", "first_line", "prompt"):
            setattr(self, name, getattr(other, name))
        self.fallback = None

    def _spawn(self) -> None:
        self._ready.clear()
        self._stderr = []
        if self.prompt is not None:
            self.prompt.start()
            if self.env is not None and self.prompt.path:
                self.env[askpass_mod.SOCKET_ENV] = self.prompt.path  # where our askpass finds the window
        try:
            self.proc = subprocess.Popen(self.launcher, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                         env=self.env, text=True, bufsize=1, start_new_session=not self.terminal)
        except OSError as e:
            raise door_error("door_failed", self.lang, error=f"cannot start the privileged helper ({self.how}): {e.strerror}") from None
        if self.first_line:
            threading.Thread(target=self._send_first, args=(self.proc, self.first_line), daemon=True).start()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        threading.Thread(target=self._read_err, daemon=True).start()
        while not self._ready.wait(0.2):
            if self.proc.poll() is not None:
                self._reader.join(timeout=2)
                if self._ready.is_set():
                    break
                time.sleep(0.05)  # the last stderr lines
                cancelled = bool(self.prompt is not None and self.prompt.cancelled)
                raise refusal(self.how, self.proc.returncode, self._stderr, cancelled, self.lang)
        self.started_s = time.monotonic()

    @staticmethod
    def _send_first(proc: subprocess.Popen, line: str) -> None:
        try:
            assert proc.stdin is not None
            proc.stdin.write(line)
            proc.stdin.flush()
        except (OSError, ValueError):
            pass  # the helper never started: its refusal says why

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
        if self.prompt is not None:
            self.prompt.close()
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


# --- why root rights were not had: real sudo and pkexec texts → one sentence ----------------------

_SUDO_NOT_ALLOWED = re.compile(r"is not in the sudoers file|is not allowed to (run|execute)|may not run sudo")


def refusal(how: str, rc: Optional[int], stderr: Sequence[str], cancelled: bool = False,
            lang: Optional[str] = None) -> PrivilegeError:
    """The PrivilegeError for a helper that ended before it was ready, from what sudo or pkexec
    printed (their real sentences: tests/fixtures/run/door/) and whether our dialog was cancelled."""
    text = "\n".join(stderr)
    last = " ".join(stderr[-3:]).strip()
    busy = re.search(r"gpu-wizard-helper: busy: (.+)", text)
    if busy:
        return door_error("door_busy", lang, holder=busy.group(1).strip())
    if cancelled or "no password was provided" in text or "Request dismissed" in text or (how == "pkexec" and rc == 126):
        return door_error("door_cancelled", lang, cancelled=True)
    if re.search(r"\d+ incorrect password attempts?", text):
        return door_error("door_wrong_password", lang)
    if _SUDO_NOT_ALLOWED.search(text) or (how == "pkexec" and "Not authorized" in text):
        return not_allowed_error(lang)
    if "No authentication agent found" in text:
        return door_error("door_no_agent", lang, error=last)
    if "a terminal is required" in text or "no askpass program" in text:
        return door_error("door_no_way", lang, exit_code=2)
    if "must run as root" in text or "gpu-wizard-helper:" in text:
        return door_error("door_failed", lang, error=last)
    return door_error("door_failed", lang, error=last or f"{how} exited with code {rc}")


def admin_group() -> str:
    """The group whose members may use sudo here (Debian/Ubuntu: sudo; Fedora/RHEL: wheel)."""
    import grp

    for g in ("sudo", "wheel", "admin"):
        try:
            grp.getgrnam(g)
            return g
        except KeyError:
            continue
    return "sudo"


def not_allowed_error(lang: Optional[str] = None) -> PrivilegeError:
    import getpass

    try:
        user = getpass.getuser()
    except (OSError, KeyError):
        user = str(os.getuid())
    return door_error("door_not_allowed", lang, user=user, group=admin_group())


# --- Windows: elevation through UAC, once for each batch of administrator steps ---------------------

WINDOWS_HELPER_EXE = "gpu-wizard-helper.exe"  # beside gpu-wizard.exe in the bundle (uac_admin manifest)


def ps_quote(text: str) -> str:
    """A PowerShell single-quoted literal (app.pwsh: nothing inside is expanded or parsed)."""
    from app.pwsh import ps_quote as _q

    return _q(text)


def windows_command_line(args: Sequence[str]) -> str:
    """Arguments joined the way Windows programs split them again (CommandLineToArgvW rules)."""
    return subprocess.list2cmdline([str(a) for a in args])


def elevate_script(exe: str, args: Sequence[str]) -> str:
    """The PowerShell that starts `exe args...` elevated (UAC prompt), hidden, waits for it and passes on
    its exit code. Start-Process hands -ArgumentList to the program as one command line, so the arguments
    are first quoted for Windows (list2cmdline); that string and the path go in as single-quoted literals."""
    return (f"$p = Start-Process -FilePath {ps_quote(exe)} -ArgumentList {ps_quote(windows_command_line(args))} "
            "-Verb RunAs -Wait -WindowStyle Hidden -PassThru; exit $p.ExitCode")


def elevate_argv(exe: str, args: Sequence[str], powershell: str = "powershell.exe") -> list[str]:
    """argv that runs elevate_script: as -EncodedCommand (base64 of UTF-16-LE), so the Windows command line
    carries no PowerShell text to be split or unquoted again: no path or request text is ever code."""
    from app.pwsh import encoded_command

    return [powershell, "-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass", "-EncodedCommand",
            encoded_command(elevate_script(exe, args))]


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
    """Windows: one UAC prompt for each run of consecutive administrator steps. The first root request of a
    batch starts the helper elevated (`--serve FOLDER`); each request is a numbered JSON file in that private
    folder, answered in a result file beside it, its output lines streamed live from RESULT.lines
    (app/run/privileged.py serve_folder). The executor ends the batch when a step that needs no
    administrator rights starts (step_starting) and when the plan ends (end_batch)."""

    how = "UAC"
    READY_WAIT_S = 900.0  # the user answers the prompt (or walks away): then "not granted"

    def __init__(self, helper_argv: Optional[Sequence[str]] = None, start: Optional[Callable] = None,
                 powershell: str = "powershell.exe", poll_s: float = 0.1):
        self.helper_argv = list(helper_argv or windows_helper_argv())
        self.powershell = powershell
        self._start_fn = start or self._start_default
        self.poll_s = poll_s
        self.last_argv: Optional[list[str]] = None
        self.prompts = 0  # UAC prompts asked so far (one per batch)
        self._dir: Optional[str] = None
        self._proc: Optional[subprocess.Popen] = None
        self._n = 0

    @staticmethod
    def _start_default(argv: list[str], exe: str, args: list[str]) -> subprocess.Popen:
        flags = getattr(subprocess, "CREATE_NO_WINDOW", 0)
        return subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                creationflags=flags)

    def step_starting(self, step) -> None:
        """A step that needs no administrator rights ends the batch: the elevated helper does not stay."""
        if not (getattr(step, "needs_root", False) or any(e.needs_root for e in getattr(step, "edits", ()))):
            self.end_batch()

    def _not_granted(self, proc) -> PrivilegeError:
        err = ""
        if getattr(proc, "stderr", None) is not None:
            lines = (proc.stderr.read() or b"").decode("utf-8", "replace").strip().splitlines()
            err = lines[-1] if lines else ""
        return PrivilegeError("administrator rights were not granted" + (f": {err}" if err else ""))

    def _batch(self) -> tuple[str, subprocess.Popen]:
        """The elevated helper of this batch, started (one UAC prompt) when there is none."""
        if self._dir is not None and self._proc is not None and self._proc.poll() is None:
            return self._dir, self._proc
        self.end_batch()
        import tempfile

        d = tempfile.mkdtemp(prefix="gpu-wizard-uac-")
        exe, lead = self.helper_argv[0], self.helper_argv[1:]
        args = [*lead, "--serve", d]
        self.last_argv = elevate_argv(exe, args, self.powershell)
        try:
            proc = self._start_fn(self.last_argv, exe, args)
        except OSError as e:
            shutil.rmtree(d, ignore_errors=True)
            raise PrivilegeError(f"cannot ask for administrator rights: {e.strerror or e}") from None
        self.prompts += 1
        end = time.monotonic() + self.READY_WAIT_S
        while not os.path.exists(os.path.join(d, "ready")):
            if proc.poll() is not None or time.monotonic() > end:
                shutil.rmtree(d, ignore_errors=True)
                raise self._not_granted(proc)
            time.sleep(self.poll_s)
        self._dir, self._proc, self._n = d, proc, 0
        return d, proc

    def _request(self, obj: dict, on_line=None, on_progress=None, cancel: Optional[CancelToken] = None) -> dict:
        d, proc = self._batch()
        self._n += 1
        base = os.path.join(d, f"{self._n:06d}")
        req, res = base + ".json", base + ".result"
        fileio.write_json_atomic(req, obj)  # the helper never reads half a request
        pos, cancelled = 0, False
        while not os.path.exists(res):
            pos = self._drain(res + ".lines", pos, on_line, on_progress)
            if proc.poll() is not None and not os.path.exists(res):
                self._drain(res + ".lines", pos, on_line, on_progress)
                self._dir = None
                shutil.rmtree(d, ignore_errors=True)
                raise PrivilegeError("the elevated helper stopped before it answered")
            if cancel is not None and cancel.cancelled and not cancelled:
                open(req + ".cancel", "w").close()  # the elevated helper watches for it
                cancelled = True
            time.sleep(self.poll_s)
        self._drain(res + ".lines", pos, on_line, on_progress)
        try:
            with open(res, encoding="utf-8") as fh:
                return fileio.loads(fh.read())
        except (OSError, ValueError):
            raise PrivilegeError("the elevated helper's answer could not be read") from None

    def end_batch(self, wait_s: float = 15.0) -> None:
        """Tell the batch's helper to quit (it finishes what it runs first) and drop the folder."""
        d, proc = self._dir, self._proc
        self._dir, self._proc = None, None
        if d is None:
            return
        try:
            open(os.path.join(d, "stop"), "w").close()
        except OSError:
            pass
        if proc is not None:
            try:
                proc.wait(timeout=wait_s)
            except subprocess.TimeoutExpired:
                pass  # still finishing as administrator: not ours to kill; it quits when the folder is gone
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
        self.end_batch()


POLICY_FILE = "/usr/share/polkit-1/actions/org.gpuwizard.helper.policy"
HELPER_FLAG = "--gpu-wizard-helper"  # the bundled executable runs the helper when given this


def sudo_helper_launch(lang: Optional[str] = None, frozen: Optional[bool] = None,
                       executable: Optional[str] = None) -> tuple[list[str], str]:
    """What sudo runs, and the first line it reads. A bundle only root can write (install.sh
    --system) runs as it is; anything else (a checkout, a per-user bundle, a venv the user made)
    never runs as root: the system's own Python copies the helper's files into a root-owned folder,
    checks them there and runs that copy (app/run/rootboot.py)."""
    frozen = getattr(sys, "frozen", False) if frozen is None else frozen
    executable = executable or sys.executable
    if frozen and rootboot.trusted(executable):
        return [executable, HELPER_FLAG], ""
    root = rootboot.payload_root()
    if not os.path.isfile(os.path.join(root, "app", "run", "rootboot.py")):
        raise door_error("door_failed", lang, error=f"the helper's files are missing from {root}")
    py = rootboot.root_python()
    if py is None:
        raise door_error("door_no_python", lang, exit_code=2)
    return rootboot.boot_argv(py, root), rootboot.manifest_line(root)


def polkit_helper_argv(policy_file: str = POLICY_FILE) -> Optional[list[str]]:
    """The helper our installed polkit action authorises (its exec.path annotation), or None."""
    try:
        text = Path(policy_file).read_text(encoding="utf-8")
    except OSError:
        return None
    m = re.search(r'key="org\.freedesktop\.policykit\.exec\.path">\s*([^<\s]+)\s*<', text)
    if not m or not os.path.isabs(m.group(1)) or not os.path.exists(m.group(1)):
        return None
    path = m.group(1)
    return [path] if os.path.basename(path) == "gpu-wizard-helper" else [path, HELPER_FLAG]


def _has_tty() -> bool:
    """Whether sudo could ask on a terminal (the controlling terminal opens)."""
    try:
        with open("/dev/tty"):
            return True
    except OSError:
        return False


def _has_display(env=os.environ) -> bool:
    return bool(env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"))


def _is_wsl() -> bool:
    try:
        return "microsoft" in Path("/proc/version").read_text().lower()
    except OSError:
        return False


def polkit_usable(env=os.environ) -> bool:
    """pkexec needs an authentication agent: a local graphical session, not WSL or SSH."""
    return (shutil.which("pkexec") is not None and _has_display(env)
            and not env.get("SSH_CONNECTION") and not _is_wsl())


def sudo_needs_no_password() -> bool:
    """`sudo -n true` works (NOPASSWD, or a password typed moments ago): nothing needs to ask."""
    try:
        return subprocess.run(["sudo", "-n", "true"], stdin=subprocess.DEVNULL, capture_output=True,
                              timeout=20, start_new_session=True).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def choose_privilege(askpass: Optional[str] = None, prefer: Optional[str] = None, backups_root: str = ROOT_BACKUPS,
                     lang: Optional[str] = None):
    """How root steps run, decided before anything starts: already root → DirectPrivilege; the
    desktop's polkit dialog where our action is installed (pkexec; without an agent it falls back
    to sudo without having asked); else sudo asking where the user is: `askpass` (--askpass,
    SUDO_ASKPASS), the window's own dialog, this terminal, a dialog of our own on a display, or
    nothing when `sudo -n` needs no password. No way to ask at all: PrivilegeError, exit code 2."""
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        return DirectPrivilege(backups_root)
    if sys.platform.startswith("win"):
        import ctypes

        if ctypes.windll.shell32.IsUserAnAdmin():  # type: ignore[attr-defined]
            return DirectPrivilege(os.path.join(os.environ.get("PROGRAMDATA", "C:\\ProgramData"), "gpu-wizard", "backups"))
        return ElevatedPrivilege()  # UAC asks for each administrator step, and only for those
    window = askpass_mod.window_prompt()
    lang = lang or (window.lang() if window is not None else None)
    polkit = polkit_helper_argv()
    if prefer in (None, "pkexec") and polkit and polkit_usable():
        return HelperPrivilege(["pkexec", *polkit], how="pkexec", lang=lang,
                               fallback=lambda: sudo_privilege(askpass, window, lang))
    return sudo_privilege(askpass, window, lang)


def sudo_privilege(askpass: Optional[str], window, lang: Optional[str]) -> HelperPrivilege:
    if shutil.which("sudo") is None:
        raise door_error("door_no_sudo", lang, exit_code=2)
    env = dict(os.environ)
    given = askpass or os.environ.get("SUDO_ASKPASS")
    tty = _has_tty()
    how = ""
    if given:
        env["SUDO_ASKPASS"], how = given, "sudo (askpass)"
    elif window is not None or (not tty and _has_display()):
        program, extra = askpass_mod.askpass_program()
        env.update(extra)
        env["SUDO_ASKPASS"], how = program, "sudo (password dialog)"
    elif not tty and not sudo_needs_no_password():
        raise door_error("door_no_way", lang, exit_code=2)
    launch, first = sudo_helper_launch(lang)
    if how:
        server = askpass_mod.PromptServer(window) if window is not None else None
        return HelperPrivilege(["sudo", "-A", "--", *launch], env=env, how=how, first_line=first, prompt=server, lang=lang)
    if tty:
        return HelperPrivilege(["sudo", "--", *launch], env=env, how="sudo", terminal=True, first_line=first, lang=lang)
    return HelperPrivilege(["sudo", "-n", "--", *launch], env=env, how="sudo", first_line=first, lang=lang)
