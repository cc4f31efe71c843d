"""What every subcommand shares, below the command line that dispatches to them: the one-line error
(`CliError`), the run's `Context` (System, --lang, --json, the pipeline) and the global options each
subcommand's parser also takes. app/cli.py builds the parser and calls `run(args, ctx)`; the subcommands
import this module, never app/cli.py."""
from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any, Callable, Optional

if TYPE_CHECKING:  # imported where used: a subcommand's start stays light
    from app.pipeline import Pipeline
    from app.system import System


class CliError(Exception):
    """A failure to report as one line: `gpu-wizard: error: <message>`."""

    def __init__(self, message: str, code: int = 2):
        super().__init__(message)
        self.code = code


class Context:
    """What every subcommand gets: the System (live or snapshot), detection with the user's
    overrides applied, and output helpers honouring --json."""

    def __init__(self, args: argparse.Namespace, nvml_reader: Optional[Callable[[], Optional[dict[str, Any]]]] = None,
                 live: Optional[System] = None):
        self.args = args
        self._nvml_reader = nvml_reader  # the CLI's early NVML read (app.system.start_nvml_early), for the live System
        self._live = live  # the CLI's live System, its Python probes already started (app/cli.py)
        self.json: bool = bool(getattr(args, "json", False))
        from app.messages import resolve_lang

        self.lang: str = resolve_lang(getattr(args, "lang", None))  # --lang, else GPU_WIZARD_LANG / the locale
        self.snapshot_path: Optional[str] = getattr(args, "snapshot", None)
        self._system: Optional[System] = None
        self._pipeline: Optional[Pipeline] = None

    @property
    def system(self) -> System:
        if self._system is None:
            from app.system import LiveSystem, SnapshotError, SnapshotSystem

            if self.snapshot_path:
                try:
                    self._system = SnapshotSystem.load(self.snapshot_path)
                except SnapshotError as e:
                    raise CliError(str(e), 2) from None
            else:
                self._system = self._live or LiveSystem(nvml_reader=self._nvml_reader)
        return self._system

    def overrides(self) -> dict[str, Any]:
        a = self.args
        return {
            "assume_driver": getattr(a, "assume_driver", None),
            "assume_gpus": tuple(getattr(a, "assume_gpu", None) or ()),
            "python_version": getattr(a, "python_version", None),
        }

    @property
    def pipeline(self) -> Pipeline:
        """This run's stages (app.pipeline): detect once, recommend once per choices, plan from that
        recommendation; every subcommand goes through it, as the window does."""
        if self._pipeline is None:
            from app.pipeline import Pipeline

            from app.detect.python_env import resolve_python

            a = self.args
            self._pipeline = Pipeline(self.system, overrides=self.overrides(), python=resolve_python(getattr(a, "python", None)),
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

    def facts(self, torch: bool = False, venv_check: bool = True):
        """Detected Facts with --assume-* applied. `torch=True` also runs the torch probe; `venv_check=False`
        leaves out whether system Pythons can make a venv (see Pipeline.facts)."""
        from app.pipeline import PipelineError

        try:
            return self.pipeline.facts(torch) if venv_check else self.pipeline.facts(torch, venv_check=False)
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


def global_options(p: argparse.ArgumentParser, suppress: bool) -> None:
    d = argparse.SUPPRESS if suppress else None
    p.add_argument("--snapshot", metavar="FILE", default=d, help="run against a recorded snapshot instead of this machine")
    p.add_argument("--json", action="store_true", default=d if suppress else False, help="print one JSON document")
    p.add_argument("--assume-driver", metavar="VERSION", default=d, help="pretend the NVIDIA driver is VERSION (e.g. 550.54)")
    p.add_argument("--assume-gpu", metavar="NAME", action="append", default=d,
                   help="pretend this GPU is present (a name such as 'RTX 4090' or a compute capability such as 8.9); repeatable")
    p.add_argument("--python-version", metavar="X.Y", default=d, help="pretend the target Python is X.Y (X.Yt: free-threaded, e.g. 3.13t)")
    p.add_argument("--lang", metavar="LANG", default=d,
                   help="language of the text output and reports: en or zh_CN (default: GPU_WIZARD_LANG, then the locale)")


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
