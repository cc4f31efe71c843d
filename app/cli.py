"""`gpu-wizard` command line. No arguments (or only global options) opens the GUI; a
subcommand runs that stage headless from the same engine.

Each subcommand lives in `app/commands/<name>.py` with `HELP`, `add_arguments(parser)` and
`run(args, ctx) -> int`. Errors are one clear line on stderr and a non-zero exit: 2 for bad
input (usage, unreadable snapshot), 1 for a stage that failed. Never a traceback for bad input.
"""
from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from typing import Any, Optional, Sequence

from app import __version__

COMMANDS: dict[str, str] = {
    "detect": "app.commands.detect",
    "recommend": "app.commands.recommend",
    "plan": "app.commands.plan",
    "install": "app.commands.install",
    "verify": "app.commands.verify",
    "diagnose": "app.commands.diagnose",
    "report": "app.commands.report",
    "snapshot": "app.commands.snapshot",
    "update-db": "app.commands.update_db",
    "fleet": "app.commands.fleet",
}


class CliError(Exception):
    """A failure to report as one line: `gpu-wizard: error: <message>`."""

    def __init__(self, message: str, code: int = 2):
        super().__init__(message)
        self.code = code


class Context:
    """What every subcommand gets: the System (live or snapshot), detection with the user's
    overrides applied, and output helpers honouring --json."""

    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.json: bool = bool(getattr(args, "json", False))
        from app.messages import resolve_lang

        self.lang: str = resolve_lang(getattr(args, "lang", None))  # --lang, else GPU_WIZARD_LANG / the locale
        self.snapshot_path: Optional[str] = getattr(args, "snapshot", None)
        self._system = None
        self._pipeline = None

    @property
    def system(self):
        if self._system is None:
            from app.system import LiveSystem, SnapshotError, SnapshotSystem

            if self.snapshot_path:
                try:
                    self._system = SnapshotSystem.load(self.snapshot_path)
                except SnapshotError as e:
                    raise CliError(str(e), 2) from None
            else:
                self._system = LiveSystem()
        return self._system

    def overrides(self) -> dict[str, Any]:
        a = self.args
        return {
            "assume_driver": getattr(a, "assume_driver", None),
            "assume_gpus": tuple(getattr(a, "assume_gpu", None) or ()),
            "python_version": getattr(a, "python_version", None),
        }

    @property
    def pipeline(self):
        """This run's stages (app.pipeline): detect once, recommend once per choices, plan from that
        recommendation; every subcommand goes through it, as the window does."""
        if self._pipeline is None:
            from app.pipeline import Pipeline

            a = self.args
            self._pipeline = Pipeline(self.system, overrides=self.overrides(), python=getattr(a, "python", None),
                                      db_path=getattr(a, "db", None), config=self.config,
                                      live=False if getattr(a, "offline", False) else None)
        return self._pipeline

    def config(self):
        """The user's config file (--config, else the default one); a broken one is one clear line."""
        from app.config import ConfigError, load_config

        try:
            return load_config(getattr(self.args, "config", None))
        except ConfigError as e:
            raise CliError(str(e), 2) from None

    def facts(self, torch: bool = False):
        """Detected Facts with --assume-* applied. `torch=True` also runs the torch probe."""
        from app.pipeline import PipelineError

        try:
            return self.pipeline.facts(torch)
        except PipelineError as e:
            raise CliError(str(e), e.code) from None

    def recommendation(self, choices=None):
        from app.pipeline import PipelineError

        try:
            return self.pipeline.recommendation(choices)
        except PipelineError as e:
            raise CliError(str(e), e.code) from None

    def plan(self, choices=None, dry_run: bool = False):
        from app.pipeline import PipelineError

        try:
            return self.pipeline.plan(choices, dry_run=dry_run)
        except PipelineError as e:
            raise CliError(str(e), e.code) from None

    def emit(self, data: Any, text: str) -> None:
        """Print `data` as one JSON document with --json, else the human `text`."""
        if self.json:
            json.dump(data, sys.stdout, indent=2, ensure_ascii=False)
            sys.stdout.write("\n")
        else:
            sys.stdout.write(text if text.endswith("\n") else text + "\n")


def _global_options(p: argparse.ArgumentParser, suppress: bool) -> None:
    d = argparse.SUPPRESS if suppress else None
    p.add_argument("--snapshot", metavar="FILE", default=d, help="run against a recorded snapshot instead of this machine")
    p.add_argument("--json", action="store_true", default=d if suppress else False, help="print one JSON document")
    p.add_argument("--assume-driver", metavar="VERSION", default=d, help="pretend the NVIDIA driver is VERSION (e.g. 550.54)")
    p.add_argument("--assume-gpu", metavar="NAME", action="append", default=d,
                   help="pretend this GPU is present (a name such as 'RTX 4090' or a compute capability such as 8.9); repeatable")
    p.add_argument("--python-version", metavar="X.Y", default=d, help="pretend the target Python is X.Y (X.Yt: free-threaded, e.g. 3.13t)")
    p.add_argument("--lang", metavar="LANG", default=d,
                   help="language of the text output and reports: en or zh_CN (default: GPU_WIZARD_LANG, then the locale)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="gpu-wizard", description="GPU Setup Wizard: NVIDIA driver, CUDA and PyTorch, set up and proven.")
    parser.add_argument("--version", action="version", version=f"gpu-wizard {__version__}")
    _global_options(parser, suppress=False)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, module in COMMANDS.items():
        try:
            mod = importlib.import_module(module)
        except ModuleNotFoundError as e:
            if e.name and e.name.startswith("app.commands"):
                continue  # a stage not built yet
            raise
        sp = sub.add_parser(name, help=getattr(mod, "HELP", None), description=getattr(mod, "HELP", None))
        _global_options(sp, suppress=True)
        mod.add_arguments(sp)
        sp.set_defaults(_run=mod.run)
    return parser


_VALUE_OPTIONS = ("--snapshot", "--assume-driver", "--assume-gpu", "--python-version", "--lang")


def _file_argument(argv: list[str]) -> list[str]:
    """`gpu-wizard FILE` (a file manager's "Open with", the desktop entry's %f) opens the window on
    that snapshot or report: the same as `gpu-wizard --snapshot FILE`."""
    if not argv or any(a in COMMANDS for a in argv):
        return argv
    last = argv[-1]
    if last.startswith("-") or (len(argv) > 1 and argv[-2] in _VALUE_OPTIONS):
        return argv
    if last.startswith("file://"):
        from urllib.parse import unquote, urlparse

        last = unquote(urlparse(last).path)
    return argv[:-1] + ["--snapshot", last]


def main(argv: Optional[Sequence[str]] = None) -> int:
    argv = _file_argument(list(sys.argv[1:] if argv is None else argv))
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # argparse printed usage; keep its code (2 for bad usage)
        return int(e.code or 0)
    if not getattr(args, "command", None):
        return _launch_gui(args)
    ctx = Context(args)
    try:
        return int(args._run(args, ctx) or 0)
    except CliError as e:
        sys.stderr.write(f"gpu-wizard: error: {e}\n")
        return e.code
    except KeyboardInterrupt:
        sys.stderr.write("gpu-wizard: interrupted\n")
        return 130
    except BrokenPipeError:
        return 0
    except RecursionError:  # a hostile input file nested thousands deep
        sys.stderr.write("gpu-wizard: error: an input file is nested too deeply to be read\n")
        return 2
    except OSError as e:  # a full disk, a read-only folder, a file that vanished: one line
        sys.stderr.write(f"gpu-wizard: error: {os_error_line(e)}\n")
        return 1


def os_error_line(e: OSError) -> str:
    import errno

    where = f" ({e.filename})" if getattr(e, "filename", None) else ""
    if e.errno in (errno.ENOSPC, errno.EDQUOT):
        return f"no space left on the disk{where}: free some space and run again"
    if e.errno == errno.EROFS:
        return f"read-only file system{where}"
    if e.errno in (errno.EACCES, errno.EPERM):
        return f"permission denied{where}"
    return f"{e.strerror or e}{where}"


def _launch_gui(args: argparse.Namespace) -> int:
    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
                                                 or os.environ.get("QT_QPA_PLATFORM")):
        # without this, Qt aborts the process with a core dump and a misleading plugin message
        sys.stderr.write("gpu-wizard: error: no graphical display here (DISPLAY and WAYLAND_DISPLAY are unset): start the "
                         "wizard from a desktop session, or use the headless commands (gpu-wizard --help)\n")
        return 2
    if hasattr(os, "geteuid") and os.geteuid() == 0 and not os.environ.get("GPU_WIZARD_ALLOW_ROOT_GUI"):
        sys.stderr.write("gpu-wizard: error: the wizard's window never runs as root; start it as your own user "
                         "(it asks for administrator rights only for the steps that need them)\n")
        return 2
    from app import syslibs

    missing = syslibs.missing_gui_libraries()
    if missing:  # named in one line (a dialog when started from the menu), not an ImportError traceback
        syslibs.tell_user(syslibs.missing_line(missing))
        return 2
    try:  # the one place the engine hands over to the GUI package, loaded only when asked for
        run_gui = importlib.import_module("ui.main").run_gui
    except ImportError as e:
        syslibs.tell_user(f"the GUI cannot start ({e}); the headless commands still work: gpu-wizard --help")
        return 2
    return run_gui(snapshot=getattr(args, "snapshot", None), lang=getattr(args, "lang", None),
                   assume_driver=getattr(args, "assume_driver", None), assume_gpus=tuple(getattr(args, "assume_gpu", None) or ()),
                   python_version=getattr(args, "python_version", None))


if __name__ == "__main__":
    raise SystemExit(main())
