"""`gpu-wizard install`: run the plan with live output. `--dry-run` prints every command and runs
nothing; `--yes` runs it, resuming a half-finished session (a failure, a cancel, a restart) where
it stopped; `--session DIR` picks the session; `--undo` puts back every file a session edited."""
from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Optional

from app.commands.base import CliError
from app.messages import cli

from .plan import add_choice_arguments, make_plan, plan_text

if TYPE_CHECKING:
    from app.run.session import Session

HELP = "run the install plan (--dry-run shows every command; --yes runs it and resumes an unfinished one)"


def add_arguments(p) -> None:
    p.add_argument("--dry-run", action="store_true", help="print every command of the plan; run nothing")
    p.add_argument("--yes", "-y", action="store_true", help="run without asking")
    p.add_argument("--session", metavar="DIR", default=None, help="resume (or undo) this session folder")
    p.add_argument("--sessions-dir", metavar="DIR", default=None,
                   help="where session folders go (default ~/.local/share/gpu-wizard/sessions)")
    p.add_argument("--new", action="store_true", help="start a new session even if an unfinished one exists")
    p.add_argument("--undo", action="store_true", help="restore every file the session edited from its backups")
    p.add_argument("--askpass", metavar="PROGRAM", default=None, help="password program for sudo (SUDO_ASKPASS); default: sudo asks on this terminal, "
                   "else the wizard's own password dialog")
    add_choice_arguments(p)


class _Printer:
    """Events → terminal. Carriage-return progress updates one line when stdout is a terminal."""

    def __init__(self, out, total_hint: int = 0, plan=None, lang: str = "en"):
        self.out = out
        self.tty = out.isatty()
        self.partial = False
        self.lang = lang
        self.steps = {s.id: s for s in plan.steps} if plan is not None else {}

    def t(self, key: str, **p) -> str:
        from app.messages import cli

        return cli(f"install_{key}", self.lang, **p)

    def title(self, ev) -> str:
        from app.messages import step_title

        step = self.steps.get(getattr(ev, "step_id", None) or "")
        return step_title(step, self.lang) if step is not None else ev.title

    def __call__(self, ev) -> None:
        from app.messages import status_word

        t = ev.type
        w = self.out.write
        if t == "line":
            if not ev.final:
                if self.tty:
                    w("\r    " + ev.text[:150] + "\x1b[K")
                    self.partial = True
                    self.out.flush()
                return
            if self.partial:
                w("\r\x1b[K")
                self.partial = False
            w(("    ! " if ev.stream == "stderr" else "    ") + ev.text + "\n")
        elif t == "step_started":
            w(f"==> [{ev.index + 1}/{ev.total}] {self.title(ev)}{self.t('admin') if ev.needs_root else ''}\n")
        elif t == "step_finished":
            if self.partial:
                w("\r\x1b[K")
                self.partial = False
            if ev.status == "skipped":
                w(self.t("skipped") + "\n")
            elif ev.status == "ok":
                w(self.t("done", seconds=f"{ev.duration_s:.1f}") + "\n")
            else:  # the catalogue's one status word list (app.messages.status_word)
                w(f"    {status_word(ev.status, self.lang).upper()}: {ev.message}\n")
        elif t == "plan_finished":
            w(f"\n{status_word(ev.status, self.lang)}: {ev.message}\n" + self.t("session", dir=ev.session_dir) + "\n")
        self.out.flush()


def _open_session(args: argparse.Namespace) -> Optional[Session]:
    from app.run.session import Session, SessionUntrusted, latest_unfinished

    s: Optional[Session]
    if args.session:
        try:
            s = Session.open(args.session)
        except FileNotFoundError as e:
            raise CliError(str(e), 2) from None
    elif args.new:
        return None
    else:
        s = latest_unfinished(args.sessions_dir)
    if s is not None:
        try:
            s.check_trusted()  # root never resumes or undoes a session a user could have written
        except SessionUntrusted as e:
            raise CliError(str(e), 2) from None
    return s


def run(args, ctx) -> int:
    from app.plan import Plan
    from app.run import Executor, Session, undo_edits
    from app.model import ModelError

    if args.undo:
        if not args.session:
            raise CliError("--undo needs --session DIR (the session whose edits to put back)", 2)
        session = _open_session(args)
        assert session is not None  # --session DIR: opened (and trusted) or a CliError
        from app.run.edits import EditError, RestoreReport
        from app.run.privilege import PrivilegeError, choose_privilege
        from app.run.session import SessionBusy, StateError

        try:
            priv = choose_privilege(args.askpass, lang=ctx.lang) if session.load_state().root_edits else None
        except (StateError, PrivilegeError) as e:
            raise CliError(str(e), 2) from None
        rep = RestoreReport()
        try:
            done = undo_edits(session, priv, report=rep)
        except (EditError, SessionBusy, StateError) as e:
            raise CliError(str(e), 2) from None
        finally:
            if priv is not None:
                priv.close()
        text = "\n".join([f"restored {p}" for p in done] + [f"NOT RESTORED: {p}" for p in rep.problems])
        ctx.emit({"restored": done, "problems": rep.problems}, text or "nothing to restore")
        return 1 if rep.problems else 0

    resume = None if args.dry_run else _open_session(args)
    if resume is not None:
        data = resume.read_json("plan.json")
        if not isinstance(data, dict):
            raise CliError(f"{resume.dir}/plan.json is not a usable plan: damaged or unreadable (start over with --new)", 2)
        try:
            plan = Plan.from_json(data)
        except (ModelError, TypeError, ValueError, KeyError, AttributeError, RecursionError) as e:
            raise CliError(f"{resume.dir}/plan.json is not a usable plan: {e}", 2) from None
        facts_json = None
    else:
        facts, _rec, _choices, plan = make_plan(args, ctx, dry_run=args.dry_run)
        facts_json = facts.to_json()

    if args.dry_run:
        ctx.emit(plan.to_json(), plan_text(plan, full=True, lang=ctx.lang) + "\n\n" + cli("install_dry_run", ctx.lang))
        return 0
    if ctx.snapshot_path:
        raise CliError("cannot install onto a snapshot; use plan or install --dry-run with --snapshot", 2)
    if not plan.steps:
        ctx.emit({"status": "ok", "steps": []}, cli("install_nothing", ctx.lang))
        return 0
    if not args.yes:
        if not sys.stdin.isatty():
            raise CliError("refusing to change the machine without --yes (see the plan with --dry-run)", 2)
        sys.stdout.write(plan_text(plan, lang=ctx.lang) + "\n\n" + cli("install_confirm", ctx.lang) + " ")
        sys.stdout.flush()
        if sys.stdin.readline().strip().lower() not in ("y", "yes"):
            sys.stdout.write(cli("install_unchanged", ctx.lang) + "\n")
            return 1

    privilege = None
    if plan.needs_root:
        from app.run.privilege import PrivilegeError, choose_privilege

        try:  # decided before anything starts: no way to ask for the password is one line, exit 2
            privilege = choose_privilege(args.askpass, lang=ctx.lang)
        except PrivilegeError as e:
            raise CliError(str(e), e.exit_code) from None
    session = resume or Session.create(args.sessions_dir)
    out = sys.stderr if ctx.json else sys.stdout
    if resume is not None:
        out.write(cli("install_resuming", ctx.lang, dir=session.dir) + "\n")
    from app.run.session import SessionBusy, StateError

    ex = None
    try:
        ex = Executor(plan, session, privilege=privilege, listener=_Printer(out, plan=plan, lang=ctx.lang), facts_json=facts_json)
        result = ex.run()
    except (SessionBusy, StateError) as e:
        if privilege is not None:
            privilege.close()
        raise CliError(str(e), 2) from None
    except KeyboardInterrupt:
        if ex is not None:
            ex.cancel()
        if privilege is not None and getattr(privilege, "proc", None) is not None:
            out.write("\n" + cli("install_root_step_finishes", ctx.lang) + "\n")  # the helper lets dpkg end
            out.flush()
        raise
    finally:
        if privilege is not None:
            privilege.close(wait_s=600.0) if getattr(privilege, "proc", None) is not None else privilege.close()
        session.close()
    if ctx.json:
        try:
            state = session.load_state()
        except Exception:  # noqa: BLE001 - the run's result is what matters here
            from app.run.state import RunState

            state = RunState()
        json.dump({"status": result.status, "message": result.message, "failed_step": result.failed_step,
                   "session": str(session.dir), "steps": state.to_json()["steps"]}, sys.stdout, indent=2)
        sys.stdout.write("\n")
    return 0 if result.status in ("ok", "reboot_required") else 1
