"""Run a Plan: skip steps already done, stream every line, stop at the first failure with the state
saved, resume later, and pause for a reboot when a step needs one (resuming at verification).

Events (app/run/events.py: the one vocabulary the CLI, the GUI and the report share) go to one
listener callable. It is called from worker threads, but never concurrently (the executor
serialises delivery), so the GUI can forward each event into a Qt signal and the CLI can print it
directly. The step-level events are also kept in the session folder (events.jsonl).
"""
from __future__ import annotations

import errno
import os
import re
import threading
import time
from typing import Any, Callable, Optional

from app import restart as _restart
from app.plan.model import Plan, Step, coded_step, is_done

from .downloads import DownloadError, download
from .edits import RestoreReport, apply_edit, restore
from .events import (JOURNALED, CommandFinished, Event, LineEvent, Listener, PlanFinished, ProgressEvent, StepFinished,
                     StepStarted)
from .privileged import PolicyError
from .runner import CancelToken, CommandOutcome, Line, Progress, run_command
from .session import Session
from .state import StepState

# step kinds whose begun command may have finished an install that must not simply run again (a runfile,
# a package transaction, a venv, pip): on resume, their own checks of the result decide first. Every other
# kind's commands are safe to repeat (apt-get update, ldconfig, update-initramfs, ln -sfn, mkdir -p, DISM).
AT_MOST_ONCE = frozenset({"run_runfile", "install_driver", "install_toolkit", "install_cudnn", "install_python_tools",
                          "create_venv", "install_pytorch", "install_container_toolkit", "rebuild_kernel_module",
                          "add_repo", "windows_host", "fix_packages"})


class StepFailed(Exception):
    def __init__(self, message: str, details: str = "", cancelled: bool = False):
        super().__init__(message)
        self.details = details
        self.cancelled = cancelled


class RootedSystem:
    """A System whose file answers come from under `root` (a temporary root for edits); commands
    and everything else go to `inner`. Lets is_done judge the files the executor edited there."""

    def __init__(self, inner, root: str):
        self.inner = inner
        self.root = root.rstrip("/")
        self.platform = inner.platform

    def _p(self, path: str) -> str:
        return self.root + "/" + path.lstrip("/")

    def read_text(self, path):
        return self.inner.read_text(self._p(path))

    def exists(self, path):
        return self.inner.exists(self._p(path))

    def list_dir(self, path):
        return self.inner.list_dir(self._p(path))

    def readlink(self, path):
        return self.inner.readlink(self._p(path))

    def __getattr__(self, name):
        return getattr(self.inner, name)


def boot_id() -> Optional[str]:
    """Something that changes when the machine restarts (app.restart: Linux's boot_id, Windows' boot time)."""
    return _restart.boot_id()


windows_boot_id = _restart.windows_boot_id


class Executor:
    def __init__(self, plan: Plan, session: Session, *, system=None, privilege=None,
                 listener: Optional[Listener] = None, cancel: Optional[CancelToken] = None,
                 edit_root: str = "/", facts_json: Optional[dict] = None, boot_id_fn=boot_id):
        from app.system import LiveSystem

        self.plan = plan
        self.session = session
        self.system = system or LiveSystem()
        if edit_root not in ("", "/"):
            self.system = RootedSystem(self.system, edit_root)
        self._privilege = privilege
        self.listener = listener
        self.cancel_token = cancel or CancelToken()
        self.edit_root = edit_root
        self.boot_id_fn = boot_id_fn
        self._emit_lock = threading.Lock()
        self._done_weight = 0
        self.facts_json = facts_json
        self.state = session.load_state()  # StateError for a damaged or unknown state.json
        self._http: Any = None  # requests.Session with the plan's proxy / CA bundle, made on first download

    # -- public ---------------------------------------------------------------------------
    def cancel(self) -> None:
        """Thread-safe: kills the running command's process group and stops the plan."""
        self.cancel_token.cancel()

    @property
    def privilege(self):
        if self._privilege is None:
            from .privilege import choose_privilege

            self._privilege = choose_privilege()
            self._own_privilege = True  # closed when the run ends (the helper quits, its dialog socket goes)
        return self._privilege

    _own_privilege = False

    def run(self) -> PlanFinished:
        """Run the plan under the session's lock (SessionBusy when another run holds it)."""
        self.session.acquire()
        try:
            try:
                self.plan = with_dpkg_repair(self.plan, self.system)
                self.session.write_json("plan.json", self.plan.to_json())
                if self.facts_json is not None:
                    self.session.write_json("facts.json", self.facts_json)
                self.state = self.session.load_state()  # what the previous holder left
            except OSError as e:
                return self._finish("error", _disk_message(e, self.session.dir), None, save=False)
            return self._run()
        finally:
            self.session.close()  # flushes output.log; a later write reopens it
            self.session.release()
            end_batch = getattr(self._privilege, "end_batch", None)  # Windows: the batch's elevated helper quits
            if end_batch is not None:
                end_batch()
            if self._own_privilege and self._privilege is not None:
                self._privilege.close()
                self._privilege, self._own_privilege = None, False

    def _run(self) -> PlanFinished:
        steps = self.plan.steps
        total_w = max(1, self.plan.total_weight)
        self.state.status = "running"
        self.state.owner_pid = os.getpid()
        try:
            self._save()
            for i, step in enumerate(steps):
                if self.cancel_token.cancelled:
                    return self._finish("cancelled", "Cancelled before " + step.title, step.id)
                if step.kind == "verify" and self.state.reboot_pending:
                    if self._not_restarted_yet():
                        return self._finish("reboot_required",
                                            "Restart the computer, then run the wizard again: it resumes at verification.",
                                            None)
                    self.state.reboot_pending = False
                self._emit(StepStarted(step.id, i, len(steps), step.title, step.needs_root))
                prev = self.state.step(step.id)
                # a step that began earlier and never ended ok is run again whole, whatever its checks say:
                # its edits may be there while its command (ldconfig, initramfs...) never ran
                if (prev is not None and prev.finished_ok and step.kind != "verify") or \
                        ((prev is None or prev.status == "skipped") and is_done(step, self.system)):
                    self._record(step.id, "ok" if prev is not None and prev.finished_ok else "skipped", "already done")
                    self._done_weight += max(1, step.weight)
                    self._emit(StepFinished(step.id, "skipped", "already done"))
                    continue
                starting = getattr(self._privilege, "step_starting", None)  # Windows: one UAC prompt per batch
                if starting is not None:
                    starting(step)
                start_at = self._resume_point(step, prev)
                if start_at is None:
                    self._record(step.id, "ok", "done before the run was stopped (its checks pass)")
                    self._done_weight += max(1, step.weight)
                    self._emit(StepFinished(step.id, "ok", "already done"))
                    continue
                t0 = time.monotonic()
                try:
                    try:
                        restart = self._run_step(step, total_w, start_at)
                    except StepFailed:
                        raise
                    except OSError as e:  # the session folder's disk, mostly: one clear line
                        raise StepFailed(_disk_message(e, self.session.dir)) from e
                    except Exception as e:  # never leave the state "running": the step failed, say how
                        raise StepFailed(f"{type(e).__name__}: {e}") from e
                except StepFailed as e:
                    status = "cancelled" if e.cancelled or self.cancel_token.cancelled else "error"
                    self._end(step.id, status, str(e), time.monotonic() - t0)
                    self._emit(StepFinished(step.id, status, str(e), e.details, time.monotonic() - t0))
                    msg = f"{step.title}: {e}"
                    return self._finish(status, msg, step.id)
                self._end(step.id, "ok", "restart needed" if restart else "", time.monotonic() - t0)
                if step.reboot_required or restart:
                    self.state.reboot_pending = True
                    self.state.boot_id = self.boot_id_fn()
                    self._restart_asked = True
                self._done_weight += max(1, step.weight)
                self._emit(ProgressEvent(step.id, 1.0, self._done_weight / total_w, ""))
                self._emit(StepFinished(step.id, "ok", "done; the computer must restart to finish" if restart else "done",
                                        "", time.monotonic() - t0))
                if self.session.disk_error:
                    return self._finish("error", self.session.disk_error, None)
            if self.state.reboot_pending and self._not_restarted_yet():
                return self._finish("reboot_required", "Restart the computer to finish; then run the wizard again to verify.", None)
            return self._finish("ok", "All steps finished.", None)
        except OSError as e:  # state.json could not be written: stop cleanly, say why
            return self._finish("error", _disk_message(e, self.session.dir), None, save=False)

    # -- internals ------------------------------------------------------------------------
    _restart_asked = False  # a step of this very run asked for the restart

    def _not_restarted_yet(self) -> bool:
        """Whether the restart a step asked for is still to come. When the boot cannot be told
        apart (no boot id), a later run takes it that the user restarted as asked."""
        if self._restart_asked:
            return True
        saved = self.state.boot_id
        return saved is not None and self.boot_id_fn() == saved
    def _resume_point(self, step: Step, prev: Optional[StepState]) -> Optional[int]:
        """The first command an interrupted step runs on resume (None: the step is done). Commands it
        recorded as ended never run twice; the one it had begun runs again when the kind is safe to
        repeat (package managers, ldconfig, initramfs, links, venv and pip: idempotent; its edits are
        made again idempotently too), while a kind in AT_MOST_ONCE (a runfile, a package transaction)
        with checks of its own result and no edits trusts those checks first."""
        if prev is None or prev.status != "running" or prev.phase != "commands":
            return 0
        if (prev.command_started is not None and step.kind in AT_MOST_ONCE and not step.edits and step.done_when
                and is_done(step, self.system)):
            return None
        return min(prev.commands_done, len(step.commands))

    def _emit(self, ev: Event) -> None:
        if ev.type in JOURNALED:
            self.session.log_event(ev)
        if self.listener is None:
            return
        with self._emit_lock:
            self.listener(ev)

    def _save(self) -> None:
        self.session.save_state(self.state)

    def _record(self, step_id: str, status: str, message: str, phase: Optional[str] = None) -> None:
        self.state.mark(step_id, status, message, phase)
        self._save()

    def _end(self, step_id: str, status: str, message: str, duration_s: float) -> None:
        """A step's attempt ended: its status, how long it ran and its last command's exit code, saved."""
        self.state.end(step_id, status, message, duration_s, self._rc)
        self._save()

    def _command(self, step_id: str, argv: list[str], rc: Optional[int], duration_s: float, note: str = "",
                 ok: Optional[bool] = None) -> None:
        """One command of a step ended: a line in commands.log (for people), an event in the journal (typed)."""
        self._rc = rc
        self.session.log_command(step_id, argv, rc, duration_s, note)
        self._emit(CommandFinished(step_id, tuple(argv), rc, rc == 0 if ok is None else ok, duration_s, note))

    _rc: Optional[int] = None  # the exit code of the running step's last command

    def _phase(self, step_id: str, phase: str, commands_done: Optional[int] = None, started: Optional[int] = None) -> None:
        s = self.state.mark(step_id, "running", "", phase)
        if commands_done is not None:
            s.commands_done = commands_done
        s.command_started = started
        self._save()

    def _finish(self, status: str, message: str, failed: Optional[str], save: bool = True) -> PlanFinished:
        self.state.status = status
        self.state.failed_step = failed
        if save:
            try:
                self._save()
            except OSError as e:
                message = f"{message} ({_disk_message(e, self.session.dir)})"
                if status == "ok":
                    status = "error"
        self.session.flush()
        ev = PlanFinished(status, message, failed, str(self.session.dir))
        self._emit(ev)
        return ev

    def _http_session(self):
        """Downloads go through the proxy and CA bundle the plan was built with (its choices)."""
        if self._http is None:
            from app.choices import Choices
            from app.config import requests_kwargs
            from app.model import ModelError

            from .downloads import http_session

            try:
                mirrors = Choices.from_json(self.plan.choices).mirrors if self.plan.choices else None
            except ModelError:
                mirrors = None
            self._http = http_session(requests_kwargs(mirrors) if mirrors else {}) or False
        return self._http or None

    def _run_step(self, step: Step, total_w: int, start_at: int = 0) -> bool:
        """Run one step from its command `start_at` (a resume); True when a command answered with one of
        its reboot_exit_codes."""
        base = self._done_weight / total_w
        share = max(1, step.weight) / total_w

        def on_line(ln: Line) -> None:
            if ln.final:
                self.session.write_output(step.id, ln.stream, ln.text)
            self._emit(LineEvent(step.id, ln.stream, ln.text, ln.final))

        def on_progress(p: Progress) -> None:
            overall = base + share * (p.fraction if p.fraction is not None else 0.0)
            self._emit(ProgressEvent(step.id, p.fraction, min(1.0, overall), p.message,
                                     p.done_bytes, p.total_bytes, p.name))

        self.state.begin(step.id)
        self._rc = None
        self._save()
        files = self._downloads(step, on_line, on_progress)
        self._edits(step, on_line)
        return self._commands(step, files, start_at, on_line, on_progress)

    def _downloads(self, step: Step, on_line: Callable[[Line], None], on_progress: Callable[[Progress], None]) -> dict:
        """The step's downloads, each verified; placeholder → {path, sha256, url} for the commands."""
        files: dict[str, dict[str, str]] = {}
        if step.downloads:
            self._phase(step.id, "downloads")
        for d in step.downloads:
            if d.min_free_mib and step.kind == "run_runfile":
                free = self.system.disk_free_mib("/usr/local")
                if free is not None and free < d.min_free_mib // 2:
                    raise StepFailed(f"not enough free disk space in /usr/local: {free} MiB free, about "
                                     f"{d.min_free_mib // 2} MiB needed")
            on_line(Line("stdout", f"Downloading {d.url}"))
            t0 = time.monotonic()
            try:
                r = download(d.url, self.session.downloads / d.name, sha256=d.sha256, checksum_url=d.checksum_url,
                             on_progress=on_progress, cancel=self.cancel_token, min_free_mib=d.min_free_mib, size_bytes=d.size_bytes,
                             session=self._http_session())
            except DownloadError as e:
                self._command(step.id, ["download", d.url], 1, time.monotonic() - t0, str(e))
                raise StepFailed(str(e), cancelled=self.cancel_token.cancelled) from None
            self._command(step.id, ["download", d.url], 0, time.monotonic() - t0,
                          f"sha256 {r.sha256}, verified by {r.verified_by}")
            on_line(Line("stdout", f"Verified {d.name} ({r.verified_by})"))
            files[f"@download:{d.name}"] = {"path": r.path, "sha256": r.sha256, "url": d.url}
        return files

    def _edits(self, step: Step, on_line: Callable[[Line], None]) -> None:
        """The step's file edits, each backed up first (root's through the helper)."""
        if step.edits:
            self._phase(step.id, "edits")
        for e in step.edits:
            try:
                if self.edit_root not in ("", "/") or not e.needs_root:
                    rec = apply_edit(e, self.session.backups, self.edit_root, step_kind=step.kind)
                else:
                    rec = self.privilege.edit(step.kind, e, self.session.name)
                    if not self.state.root_edits:
                        self.state.root_edits = True  # undo must ask the helper too
                        self._save()
            except Exception as ex:  # OSError, EditError, PolicyError, PrivilegeError
                if _is_door(ex):  # no root rights (cancelled, refused): that sentence, nothing was changed
                    raise StepFailed(str(ex), cancelled=bool(getattr(ex, "cancelled", False))) from None
                raise StepFailed(f"could not {e.describe()}: {ex}") from None
            on_line(Line("stdout", e.describe() + (f" (backup: {rec.backup})" if rec.backup else " (new file)")))
            self._command(step.id, ["edit", e.mode, e.path], 0, 0.0, f"backup {rec.backup}")

    def _commands(self, step: Step, files: dict, start_at: int, on_line: Callable[[Line], None],
                  on_progress: Callable[[Progress], None]) -> bool:
        """The step's commands from `start_at`, each recorded before it starts and after it ends."""
        env = dict(step.env)
        ok_codes = tuple(step.ok_exit_codes) or (0,)
        restart = False
        if step.commands:
            self._phase(step.id, "commands", start_at)
        for n, argv in enumerate(step.commands):
            if n < start_at:
                on_line(Line("stdout", f"{' '.join(argv)}: ran before the run was stopped; not run again"))
                continue
            if self.cancel_token.cancelled:
                raise StepFailed("cancelled", cancelled=True)
            self._phase(step.id, "commands", n, started=n)  # recorded before it starts: a kill cannot hide it
            out = self._run_argv(step, list(argv), env, files, on_line, on_progress)
            out.ok_codes = ok_codes  # judged here, whoever ran it (runner, helper, elevated helper)
            note = "timed out" if out.timed_out else ("cancelled" if out.cancelled else "")
            if out.ok and out.rc in step.reboot_exit_codes:
                restart = True
                note = f"exit code {out.rc}: success, restart required"
                on_line(Line("stdout", f"{out.message}: the change takes effect after a restart"))
            self._command(step.id, out.argv, out.rc, out.duration_s, note, ok=out.ok)
            if not out.ok:
                raise StepFailed(_with_hint(step, out.message, out.details), out.details, cancelled=out.cancelled)
            self._phase(step.id, "commands", n + 1)
        return restart

    def _run_argv(self, step: Step, argv: list[str], env: dict[str, str], files, on_line, on_progress) -> CommandOutcome:
        if step.needs_root:
            try:
                return self.privilege.run(step.kind, argv, env, step.timeout_s, files, on_line, on_progress,
                                          self.cancel_token)
            except PolicyError as e:
                raise StepFailed(f"refused by the privileged helper: {e}") from None
            except Exception as e:  # PrivilegeError and friends: one clear line (a cancelled password: cancelled)
                raise StepFailed(str(e), cancelled=bool(getattr(e, "cancelled", False))) from None
        mapping = {k: v["path"] for k, v in files.items()}
        real = [mapping.get(a, a) for a in argv]
        return run_command(real, on_line=on_line, on_progress=on_progress, env=env, cwd=step.cwd,
                           timeout_s=step.timeout_s, cancel=self.cancel_token, ok_codes=step.ok_exit_codes)


def _is_door(e: Exception) -> bool:
    from .privilege import PrivilegeError

    return isinstance(e, PrivilegeError) and getattr(e, "code", "").startswith("door_")


REPAIR_DPKG_ID = "repair_interrupted_dpkg"


def dpkg_interrupted(system) -> bool:
    """dpkg stopped half-way earlier (a killed window, a power cut): its journal in
    /var/lib/dpkg/updates is not empty ("dpkg was interrupted, you must manually run
    'dpkg --configure -a'"), or `dpkg --audit` lists half-installed packages."""
    try:
        names = system.list_dir("/var/lib/dpkg/updates")
    except Exception:  # noqa: BLE001 - a probe never stops the run
        names = None
    if names and any(n.isdigit() for n in names):
        return True
    if names is None:
        return False  # no dpkg here
    try:
        r = system.run(["dpkg", "--audit"], timeout=60)
    except Exception:  # noqa: BLE001
        return False
    return bool(getattr(r, "rc", 1) in (0, 1) and (getattr(r, "stdout", "") or "").strip())


def _uses_dpkg(step: Step) -> bool:
    return step.needs_root and any(a and a[0] in ("apt-get", "apt", "dpkg") for a in step.commands)


def with_dpkg_repair(plan: Plan, system) -> Plan:
    """Plan `dpkg --configure -a` first when an earlier dpkg run was interrupted and the plan uses dpkg."""
    if plan.step(REPAIR_DPKG_ID) is not None or not any(_uses_dpkg(s) for s in plan.steps):
        return plan
    if not dpkg_interrupted(system):
        return plan
    repair = coded_step(REPAIR_DPKG_ID, "repair_packages", "repair_interrupted_dpkg", "repair_interrupted_dpkg_why",
                        needs_root=True, weight=2, timeout_s=1800,
                        commands=(("dpkg", "--configure", "-a"),), env={"DEBIAN_FRONTEND": "noninteractive"})
    return plan.replace(steps=(repair, *plan.steps))


def _with_hint(step: Step, message: str, details: str) -> str:
    """A failed PyTorch install that could not reach its index says which settings get past it."""
    from app.messages import render
    from app.plan.pytorch import unreachable_hint

    hint = unreachable_hint(step, details)
    return f"{message}. {render('cli', hint[0], hint[1])}" if hint else message


_SYSTEM_TREES = re.compile(r"^/(etc|usr|bin|sbin|lib[^/]*|boot|var|opt|srv|proc|sys|dev|run|snap|root/\.ssh)(/|$)")


def _home_record_allowed(rec) -> Optional[str]:
    """As root, the session's own backups (files edited without the helper: the user's rc files,
    .wslconfig) never put back or delete a system file; those are the helper's, with its allow-list.
    A record naming /etc/passwd here is refused, never acted on."""
    for path in filter(None, (rec.path, rec.real)):
        if os.path.normpath(path) != path or not os.path.isabs(path):
            return f"not a clean absolute path: {path!r}"
        if _SYSTEM_TREES.match(path):
            return "a system file; only the privileged helper restores such files"
    return None


def _disk_message(e: OSError, where) -> str:
    if e.errno == errno.ENOSPC:
        return f"no space left on the disk holding {where}: free some space, then run again to resume"
    if e.errno == errno.EDQUOT:
        return f"disk quota exceeded for {where}: free some space, then run again to resume"
    if e.errno == errno.EROFS:
        return f"{where} is on a read-only file system"
    return f"cannot write to {where}: {e.strerror or e}"


def undo_edits(session: Session, privilege=None, edit_root: str = "/", report: Optional[RestoreReport] = None) -> list[str]:
    """Put back every file the session edited (user files here, root files through the helper), under
    the session's lock. What could not be put back exactly goes to `report.problems`."""
    rep = report if report is not None else RestoreReport()
    session.acquire()
    try:
        as_root = hasattr(os, "geteuid") and os.geteuid() == 0 and edit_root in ("", "/")
        done = restore(session.backups, edit_root, report=rep, allowed=_home_record_allowed if as_root else None)
        if privilege is not None and session.load_state().root_edits:
            try:
                if hasattr(privilege, "restore_report"):
                    root_rep = privilege.restore_report(session.name)
                else:
                    root_rep = RestoreReport(list(privilege.restore(session.name)))
            except Exception as e:  # PolicyError, PrivilegeError: one line
                rep.problems.append(f"files changed as administrator: not restored: {e}")
            else:
                done += root_rep.restored
                rep.problems += root_rep.problems
    finally:
        session.release()
    return done
