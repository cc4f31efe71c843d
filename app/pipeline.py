"""One pipeline for the stages, shared by the command line and the window: detect → recommend → plan,
each computed once per inputs and passed forward.

    p = Pipeline(system, overrides={...})
    facts = p.facts()                      # detect (+ --assume-* overrides), once per torch-probe flag
    rec = p.recommendation(choices)        # the solve over the compat data as the live indexes correct it, once per Choices
    plan = p.plan(choices)                 # built from that very recommendation, once per (Choices, dry run)

`recommend_stage()` and `plan_stage()` are the stage functions themselves (the window calls them from its
background tasks with the facts and recommendation it already holds); nothing else in the CLI or the GUI
solves or plans on its own, so `recommend`, `plan`, `install`, `report` and the window agree.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional

if TYPE_CHECKING:  # detection alone (gpu-wizard detect) loads neither the choices nor the recommendation model
    from app.choices import Choices
    from app.facts import Facts
    from app.recommendation import Recommendation


def _choices(choices: Optional["Choices"]) -> "Choices":
    from app.choices import Choices

    return choices or Choices()


class PipelineError(Exception):
    """A stage that cannot run, as one line for the user. `code` 2: bad input (an override, an unreadable
    compat bundle); 1: a stage failed (the solve, the plan)."""

    def __init__(self, message: str, code: int = 1):
        super().__init__(message)
        self.code = code


def choices_from_options(opts: Any, facts: Optional[Facts] = None) -> Choices:
    """Choices from the plan options (`gpu-wizard plan`'s flags, or one fleet host's: any object or mapping
    with venv, method, toolkit, cudnn, installer, torch, variant, no_driver, no_cleanup, wsl_distro,
    python_version, no_torchvision and the mirror options); mirrors, proxy and CA bundle from them over
    the config file over the environment (app.config). Bad input is a PipelineError with code 2."""
    from types import SimpleNamespace

    from app.choices import Choices
    from app.config import ConfigError, mirrors_from_args

    a = SimpleNamespace(**opts) if isinstance(opts, dict) else opts

    def get(name: str, default: Any = None) -> Any:
        return getattr(a, name, default)

    try:
        mirrors, _cfg = mirrors_from_args(a)
    except ConfigError as e:
        raise PipelineError(str(e), 2) from None
    kw: dict[str, Any] = {}
    if get("venv"):
        kw["venv_path"] = get("venv")
    method = get("method")
    if method is None and facts is not None:
        method = "dnf" if facts.os.package_manager in ("dnf", "yum") else "apt"
    if method:
        kw["install_method"] = method
    kw.update(want_toolkit=bool(get("toolkit")), want_system_cudnn=bool(get("cudnn")), installer=get("installer") or "pip",
              torch_version=get("torch"), torch_variant=get("variant"), install_driver=not get("no_driver"),
              cleanup_old_cuda=not get("no_cleanup"), mirrors=mirrors, want_torchvision=not get("no_torchvision", False))
    distro = get("wsl_distro")
    if distro is not None:
        from app.plan.windows import DISTRO_NAME_RE

        if not DISTRO_NAME_RE.match(distro):
            raise PipelineError(f"--wsl-distro {distro!r}: not a WSL distro name (letters, digits, '.', '_' and '-')", 2)
        kw["wsl_distro"] = distro
    if get("python_version"):
        kw["python_version"] = get("python_version")
    return Choices(**kw)


def load_compat(path: Optional[str] = None):
    from app.compat import load_db

    return load_db(path) if path else load_db()


def recommend_stage(facts: Facts, choices: Optional[Choices] = None, *, db: Any = None, config: Any = None,
                    live: Optional[bool] = None) -> Recommendation:
    """The recommendation for these facts and choices: the solve over the compat data as the live PyTorch/
    PyPI/NVIDIA indexes correct it (app.compat.live; off with live=False, "live_index": false or GPU_WIZARD_LIVE=0)."""
    from app.recommend import recommend_live

    rec, _report = recommend_live(facts, db if db is not None else load_compat(), _choices(choices), config=config,
                                  enabled=live)
    return rec


def plan_stage(facts: Facts, rec: Recommendation, choices: Optional[Choices] = None, *, dry_run: bool = False,
               created: Optional[str] = None):
    from app.plan import build_plan

    kw = {"created": created} if created else {}
    return build_plan(facts, rec, _choices(choices), dry_run=dry_run, **kw)


class Pipeline:
    """The stages of one run, memoised: each is computed the first time it is asked for with given inputs,
    and the later stages take the earlier ones' values (never a second detection or solve)."""

    def __init__(self, system: Any, *, overrides: Optional[dict] = None, python: Optional[str] = None,
                 db_path: Optional[str] = None, config: Any = None, live: Optional[bool] = None,
                 detect_fn: Optional[Callable[..., Facts]] = None):
        self.system = system
        self.overrides = {k: v for k, v in (overrides or {}).items() if v}
        self.python = python
        self.db_path = db_path
        self.config = config  # the user's config, or a function that reads it (only a solve needs it)
        self.live = live
        self._detect = detect_fn
        self._db: Any = None
        self._facts: dict[Any, Facts] = {}
        self._recs: dict[tuple[bool, Choices], Recommendation] = {}
        self._plans: dict[tuple[bool, Choices, bool], Any] = {}
        self.computed: list[str] = []  # which stages ran, in order (for tests and the bench)

    # -- stages ---------------------------------------------------------------------------------------------
    def db(self):
        if self._db is None:
            from app.compat import CompatDataError

            try:
                self._db = load_compat(self.db_path)
            except CompatDataError as e:
                raise PipelineError(str(e), 2) from None
            self.computed.append("db")
        return self._db

    def facts(self, torch: bool = False, venv_check: bool = True) -> Facts:
        """`venv_check=False` (a diagnosis): the facts without asking system Pythons whether they can make a venv;
        full facts already detected serve too."""
        if not venv_check and torch in self._facts:
            return self._facts[torch]
        key: Any = torch if venv_check else (torch, "quick")
        if key not in self._facts:
            kw = {} if venv_check else {"venv_check": False}
            if self._detect is not None:
                facts = self._detect(self.system, torch_probe=torch, python=self.python, **kw)
            else:
                from app.detect import detect

                facts = detect(self.system, torch_probe=torch, python=self.python, **kw)
            if self.overrides:
                from app.overrides import OverrideError, apply_overrides

                try:
                    facts = apply_overrides(facts, **self.overrides)
                except OverrideError as e:
                    raise PipelineError(str(e), 2) from None
            self._facts[key] = facts
            self.computed.append(f"detect{'+torch' if torch else ''}{'' if venv_check else ' (quick)'}")
        return self._facts[key]

    def recommendation(self, choices: Optional[Choices] = None, torch: bool = False) -> Recommendation:
        key = (torch, _choices(choices))
        if key not in self._recs:
            facts = self.facts(torch)
            try:
                cfg = self.config() if callable(self.config) else self.config  # read only when a solve needs it
                self._recs[key] = recommend_stage(facts, key[1], db=self.db(), config=cfg, live=self.live)
            except PipelineError:
                raise
            except Exception as e:  # a broken compat bundle → one clear line
                raise PipelineError(f"cannot recommend: {e}") from None
            self.computed.append("recommend")
        return self._recs[key]

    def plan(self, choices: Optional[Choices] = None, *, dry_run: bool = False, torch: bool = False):
        from app.plan import PlanError

        key = (torch, _choices(choices), dry_run)
        if key not in self._plans:
            rec = self.recommendation(key[1], torch)
            try:
                self._plans[key] = plan_stage(self.facts(torch), rec, key[1], dry_run=dry_run)
            except PlanError as e:
                raise PipelineError(f"cannot plan: {e}") from None
            self.computed.append("plan")
        return self._plans[key]


def torch_fix_command(python: str, nvml: Optional[dict[str, Any]], python_version: Optional[str] = None,
                      platform: str = "linux", mirrors: Any = None) -> str:
    """The pip command that installs the PyTorch build recommend() picks for this driver, these GPUs
    and this Python into `python`, with the run's mirrors, proxy and CA bundle (`mirrors`; None: the
    config file's); verify's plain `pip install --upgrade torch` (with the same) when it cannot tell.
    What `verify` names as the fix (app.verify.session takes it as its `fixer`: verify imports no stage
    above it)."""
    from app.install_command import torch_install
    from app.verify.session import config_mirrors, driver_cuda_version, plain_fix

    mirrors = mirrors if mirrors is not None else config_mirrors()
    plain = plain_fix(python, platform=platform, mirrors=mirrors)
    try:
        from app.compat import load_db
        from app.detect.nvml import parse_nvml
        from app.facts import DriverInfo, Facts, OsInfo, PythonEnv
        from app.recommend import recommend

        driver = (nvml or {}).get("driver_version")
        facts = Facts(os=OsInfo(platform="windows" if platform == "windows" else "linux"),
                      driver=DriverInfo(state="ok" if driver else "unknown", version=driver,
                                        cuda_version=driver_cuda_version(nvml)),
                      gpus=tuple(parse_nvml(nvml)),
                      python=PythonEnv(path=python, version=python_version))
        if not facts.gpus:  # no GPU seen: do not steer towards a CPU build
            return plain
        torch = recommend(facts, load_db()).pytorch
    except Exception:  # a broken data bundle must not hide the failure being reported
        return plain
    if not torch.packages:
        return plain
    return torch_install(python, torch.packages, torch.index_url, mirrors, upgrade=True).shown(
        "windows" if platform == "windows" else "linux")
