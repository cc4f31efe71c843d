"""`gpu-wizard` command line. No arguments (or only global options) opens the GUI; a
subcommand runs that stage headless from the same engine.

Each subcommand lives in `app/commands/<name>.py` with `HELP`, `add_arguments(parser)` and
`run(args, ctx) -> int`. Errors are one clear line on stderr and a non-zero exit: 2 for bad
input (usage, unreadable snapshot), 1 for a stage that failed. Never a traceback for bad input.
"""
from __future__ import annotations

# Only what any Python start has already loaded, and the NVML reader (threading alone): main() starts the
# machine's NVML read before the rest of the program is imported (issue 24). The rest comes in main().
import os
import sys
from typing import TYPE_CHECKING, Optional, Sequence

from app import __version__, nvml_live

if TYPE_CHECKING:
    import argparse

__all__ = ["COMMANDS", "build_parser", "main", "run", "subcommand"]

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


def build_parser(only: Optional[str] = None) -> argparse.ArgumentParser:
    """The whole command line; with `only` (the subcommand being run), that subcommand's module alone is
    imported (a detection never loads the solver, the planner or the report for their options)."""
    import argparse
    import importlib

    from app.commands.base import global_options

    parser = argparse.ArgumentParser(prog="gpu-wizard", description="GPU Setup Wizard: NVIDIA driver, CUDA and PyTorch, set up and proven.")
    parser.add_argument("--version", action="version", version=f"gpu-wizard {__version__}")
    global_options(parser, suppress=False)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, module in COMMANDS.items():
        if only is not None and name != only:
            continue
        try:
            mod = importlib.import_module(module)
        except ModuleNotFoundError as e:
            if e.name and e.name.startswith("app.commands"):
                continue  # a stage not built yet
            raise
        sp = sub.add_parser(name, help=getattr(mod, "HELP", None), description=getattr(mod, "HELP", None))
        global_options(sp, suppress=True)
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


_DETECTS_LIVE = frozenset({"detect", "recommend", "plan", "snapshot"})  # commands that read this machine's NVML first


def subcommand(argv: Sequence[str]) -> Optional[str]:
    """The subcommand named on the command line (the first word that is not an option or an option's value),
    or None (the window, --help, --version, or a word that is no subcommand: the full parser says so)."""
    skip = False
    for a in argv:
        if skip:
            skip = False
            continue
        if a in ("-h", "--help", "--version"):
            return None
        if a in _VALUE_OPTIONS:
            skip = True
            continue
        if a.startswith("-"):
            continue
        return a if a in COMMANDS else None
    return None


def main(argv: Optional[Sequence[str]] = None) -> int:
    argv = _file_argument(list(sys.argv[1:] if argv is None else argv))
    name = subcommand(argv)
    early = live = None
    if name in _DETECTS_LIVE and not any(a == "--snapshot" or a.startswith("--snapshot=") for a in argv):
        early = nvml_live.start_nvml_early()  # the driver's init overlaps the imports below (issue 24)
        live = _live_with_probes_started(early)
    from app.commands.base import CliError, Context, os_error_line

    parser = build_parser(name)
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # argparse printed usage; keep its code (2 for bad usage)
        return int(e.code or 0)
    if not getattr(args, "command", None):
        return _launch_gui(args)
    ctx = Context(args, nvml_reader=early, live=live)
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


def _live_with_probes_started(nvml_reader):
    """This machine's System, the Python probes detection will run already started: each is an interpreter start
    (18-20 ms on the H200) that overlaps the program's imports instead of following them (issue 24). They are the
    probes detection itself would start (app/pythons.py); an argv it does not ask for again is never waited on."""
    from app import pythons
    from app.system import LiveSystem

    live = LiveSystem(nvml_reader=nvml_reader)
    try:
        live.start(pythons.probe_argv(p) for p, kind in pythons.candidates(live) if pythons.needs_probe(live, p, kind))
    except Exception:  # a head start only: detection starts (and reports) whatever did not start here
        pass
    return live


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
    import importlib

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


_QUICK_EXIT = frozenset({"detect"})  # read-only commands whose process ends without the interpreter's teardown


def run() -> None:
    """The program's entry (the `gpu-wizard` script, `python -m app`, the bundle): main(), then the exit.
    A read-only command (detect) ends at once after flushing stdout and stderr: it writes nothing else, holds
    no file, lock or child process, and the teardown of the modules it loaded is a tenth of its run (issue 24;
    bench/bench_detect_cold.py). Every other command exits the ordinary way."""
    rc = main()
    if subcommand(sys.argv[1:]) in _QUICK_EXIT:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):  # a closed pipe: what main() said of it stands
                pass
        os._exit(rc)
    raise SystemExit(rc)


if __name__ == "__main__":
    run()
