"""Plan: turn Facts + Recommendation + Choices into an ordered list of Steps (app/plan/model.py).

`build_plan(facts, rec, choices)` calls the step builders in a fixed order. On WSL2 it adds the
steps of `app.plan.wsl.build_wsl_steps` and skips the driver (the Windows host's driver serves
WSL); on Windows the host plan comes from `app.plan.windows.build_windows_plan`. Those two modules
belong to the wsl-windows engineer; while one is missing the plan says so in its warnings.
"""
from __future__ import annotations

import datetime as _dt
from typing import Callable, Optional

from app.choices import Choices
from app.facts import Facts
from app.recommendation import Recommendation

from .common import UPDATE_INDEX
from .model import (PLAN_FORMAT, STEP_KINDS, Check, Download, Edit, Note, Plan, Step, evaluate, is_done, order_problems,
                    validate_step)

__all__ = ["build_plan", "Plan", "Step", "Check", "Edit", "Download", "is_done", "evaluate", "STEP_KINDS",
           "PLAN_FORMAT", "PlanError", "facts_summary"]

Builder = Callable[[Facts, Recommendation, Choices], list]


class PlanError(ValueError):
    """A plan that cannot be built (the message is one line for the user)."""


def _optional(module: str, name: str) -> Optional[Builder]:
    import importlib

    try:
        mod = importlib.import_module(f"app.plan.{module}")
    except ImportError as e:
        if e.name and e.name.startswith("app.plan"):
            return None
        raise
    return getattr(mod, name, None)


def facts_summary(facts: Facts) -> dict[str, str]:
    o, d = facts.os, facts.driver
    out = {
        "os": o.pretty_name or " ".join(x for x in (o.id, o.version_id) if x) or o.platform,
        "platform": o.platform + (" (WSL2)" if o.wsl == 2 else ""),
        "driver": f"{d.version or 'none'} ({d.state})",
        "gpus": ", ".join(g.name for g in facts.gpus) or "none",
        "cuda_toolkits": ", ".join(t.path for t in facts.cuda.toolkits) or "none",
    }
    if facts.python:
        out["python"] = f"{facts.python.path} {facts.python.version or ''}".strip()
    if facts.source:  # where the facts come from: this machine, or a snapshot (never the live index's state)
        out["source"] = _english("summary_this_machine", {}) if facts.source == "live" else facts.source
    return out


def _english(code: str, params: dict) -> str:
    from app import messages

    return messages.render("plan", code, params, "en", fallback=code)


# the recommendation's word on the live PyTorch index (app.compat.live) → the plan header's "index" line
# (the worst first: a build confirmed from a cached copy is a cached copy)
_INDEX_STATES = (("index_unreachable", "summary_index_unreachable"), ("index_not_checked", "summary_index_off"),
                 ("index_cached_copy", "summary_index_cached"), ("index_partly_read", "summary_index_partly"),
                 ("index_confirmed", "summary_index_read"))


def index_summary(rec: Recommendation) -> dict[str, str]:
    """{"index": what the live index read gave}: read live, a cached copy, or not read (the compat data answered);
    {} when the recommendation says nothing of it."""
    codes = {w.code: w for w in rec.warnings}
    for code, said in _INDEX_STATES:
        w = codes.get(code)
        if w is not None:
            return {"index": _english(said, {"data": w.params.get("data") or rec.db_version or "?"})}
    return {}


# what a root command may be given of app.config.subprocess_env (pip/uv-only keys never go to root)
ROOT_NETWORK_ENV = ("HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "SSL_CERT_FILE", "REQUESTS_CA_BUNDLE")


# root commands that fetch from the network (dpkg -i, ldconfig, DISM... do not)
_NETWORK_TOOLS = {"apt-get", "apt", "dnf", "yum", "zypper", "wsl", "wsl.exe"}


def root_network_env(mirrors) -> dict[str, str]:
    """The proxy and CA environment a root step needs. pkexec and sudo drop the wizard's
    environment, so it travels with the step (the helper checks every variable)."""
    from app.config import subprocess_env

    return {k: v for k, v in subprocess_env(mirrors).items() if k in ROOT_NETWORK_ENV}


def with_root_network_env(step: Step, mirrors) -> Step:
    """A root step with commands gets the proxy/CA environment; apt-get also gets the CA bundle as
    Acquire::https::CaInfo (apt reads no CA variable)."""
    if not step.needs_root or not any(a and a[0].lower() in _NETWORK_TOOLS for a in step.commands):
        return step
    extra = root_network_env(mirrors)
    if not extra:
        return step
    commands = step.commands
    if mirrors.ca_bundle:
        commands = tuple((a[0], "-o", f"Acquire::https::CaInfo={mirrors.ca_bundle}", *a[1:]) if a and a[0] == "apt-get" else a
                         for a in commands)
    return step.replace(env={**step.env, **extra}, commands=commands)


def platform_of(facts: Facts) -> str:
    if facts.os.platform == "windows":
        return "windows"
    return "wsl2" if facts.os.wsl == 2 else facts.os.platform


class _Said:
    """The plan's warnings: the recommendation's errors and warnings, then the plan's own (codes + figures;
    the English is the catalogue's)."""

    def __init__(self, rec: Recommendation) -> None:
        # a choice the recommendation refused (--variant cu999, --torch 1.0) is said first: never dropped silently
        kept = list(rec.refused_detail) + [w for w in rec.warnings if w.severity in ("error", "warning")]
        self.notes: list[Note] = [Note(code=w.code, params=dict(w.params), domain="rec") for w in kept]
        self.english: list[str] = [w.message for w in kept]

    def warn(self, code: str, params: Optional[dict] = None) -> None:
        from app import messages

        p = {str(k): str(v) for k, v in (params or {}).items() if v is not None}
        self.notes.append(Note(code=code, params=p))
        self.english.append(messages.render("plan", code, p, "en", fallback=code))

    def unique(self) -> tuple[tuple[str, ...], tuple[Note, ...]]:
        first: dict[str, Note] = {}
        for text, note in zip(self.english, self.notes):
            first.setdefault(text, note)
        return tuple(first), tuple(first.values())


def _windows_steps(facts: Facts, rec: Recommendation, choices: Choices, said: _Said) -> list[Step]:
    from .pytorch import build_pytorch_steps

    win = _optional("windows", "build_windows_plan")
    if win is None:
        said.warn("warn_windows_unavailable")
        return build_pytorch_steps(facts, rec, choices)
    return win(facts, rec, choices)  # the host plan ends by handing over to the wizard's Linux side inside WSL 2


def _linux_steps(facts: Facts, rec: Recommendation, choices: Choices, platform: str, said: _Said) -> list[Step]:
    """cleanup → WSL repairs → NVIDIA's repository → driver → toolkit → environment → cuDNN → PyTorch. The
    repository comes before everything that installs from it (each such step says so in `after`)."""
    from .cleanup import build_cleanup_steps
    from .cudnn import build_cudnn_steps
    from .driver import build_driver_steps
    from .env import build_env_steps
    from .pytorch import build_pytorch_steps
    from .repo import build_repo_steps
    from .toolkit import build_toolkit_steps, wants_toolkit

    if facts.os.wsl == 1:
        said.warn("warn_wsl1")
    steps = build_cleanup_steps(facts, rec, choices)
    if platform == "wsl2":  # repairs first: a stray Linux driver breaks everything after it
        wsl = _optional("wsl", "build_wsl_steps")
        if wsl is None:
            said.warn("warn_wsl_unavailable")
        else:
            steps += wsl(facts, rec, choices)
    driver = [] if platform == "wsl2" else build_driver_steps(facts, rec, choices)
    toolkit = build_toolkit_steps(facts, rec, choices)
    cudnn = build_cudnn_steps(facts, rec, choices)
    needs_index = [s for s in (*driver, *toolkit, *cudnn) if UPDATE_INDEX in s.after]
    repo = build_repo_steps(facts, rec, choices) if needs_index else []
    if needs_index and not any(s.id == UPDATE_INDEX for s in repo):
        # NVIDIA has no repository the wizard knows for this distribution: what would install from it cannot run
        for s in needs_index:
            said.warn("warn_no_nvidia_repo", {**s.params, "os": facts_summary(facts)["os"], "step_code": s.title_code})
        driver, toolkit, cudnn = ([s for s in part if s not in needs_index] for part in (driver, toolkit, cudnn))
    else:
        _say_left_out(facts, rec, choices, platform, driver, toolkit, said)
    env = build_env_steps(facts, rec, choices) if toolkit or not wants_toolkit(rec, choices) else []
    if toolkit:
        env = [s.replace(after=(*s.after, toolkit[-1].id)) for s in env]
    return steps + repo + driver + toolkit + env + cudnn + build_pytorch_steps(facts, rec, choices)


def _say_left_out(facts: Facts, rec: Recommendation, choices: Choices, platform: str, driver: list[Step], toolkit: list[Step],
                  said: _Said) -> None:
    """A driver the recommendation asks for, or a toolkit the user asked for, that no builder could plan: the
    plan says so (and why) instead of leaving it out silently."""
    from .common import package_manager
    from .toolkit import wants_toolkit

    os_name = facts_summary(facts)["os"]
    if (platform == "linux" and choices.install_driver and rec.driver.action in ("install", "upgrade")
            and not any(s.kind == "install_driver" for s in driver)):
        said.warn("warn_driver_not_planned", {"os": os_name, "branch": rec.driver.branch or rec.driver.min_version or "?"})
    if wants_toolkit(rec, choices) and not toolkit and platform in ("linux", "wsl2"):
        if not facts.gpus:
            why: dict = {"why_code": "warn_toolkit_not_planned_no_gpu"}
        elif not rec.cuda_toolkit.version and not rec.cuda_toolkit.package:
            if any(w.code == "toolkit_unavailable" for w in rec.warnings):
                return  # the recommendation already says why
            why = {"why_code": "warn_toolkit_not_planned_no_version"}
        elif choices.install_method == "runfile":
            why = {"why_code": "warn_toolkit_not_planned_no_runfile", "version": rec.cuda_toolkit.version}
        elif package_manager(facts) not in ("apt", "dnf", "yum"):
            why = {"why_code": "warn_toolkit_not_planned_no_package_manager", "os": os_name}
        else:
            why = {"why_code": "warn_toolkit_not_planned_no_version"}
        said.warn("warn_toolkit_not_planned", why)


def _say_choices(facts: Facts, rec: Recommendation, choices: Choices, platform: str, said: _Said) -> None:
    """Choices that cannot apply on this platform are said, not dropped: the toolkit and cuDNN on a Windows host
    (the Linux side inside WSL installs them), a WSL distro off Windows, dnf where the system uses apt."""
    from .common import package_manager
    from .toolkit import wants_toolkit

    if platform == "windows":
        for flag, wanted in (("--toolkit", choices.want_toolkit), ("--cudnn", choices.want_system_cudnn)):
            if wanted:
                said.warn("warn_choice_inside_wsl", {"flag": flag})
    elif choices.wsl_distro:
        said.warn("warn_wsl_distro_not_windows", {"name": choices.wsl_distro})
    if (platform in ("linux", "wsl2") and wants_toolkit(rec, choices) and choices.install_method == "dnf"
            and package_manager(facts) == "apt"):
        said.warn("warn_method_not_here", {"method": "dnf", "pm": "apt"})


def _refuse_linux_driver(steps: list[Step]) -> None:
    from app.plan.wsl import linux_driver_in

    for s in steps:
        for argv in s.commands:
            pkg = linux_driver_in(argv)
            if pkg:
                raise PlanError(f"step {s.id} would install a Linux driver inside WSL2 ({pkg}); refusing")


def _check(steps: list[Step]) -> None:
    """Ids unique, every step well formed, and nothing before what it needs (app.plan.model.order_problems)."""
    seen: set[str] = set()
    problems: list[str] = []
    for s in steps:
        if s.id in seen:
            problems.append(f"duplicate step id {s.id}")
        seen.add(s.id)
        problems += validate_step(s)
    problems += order_problems(steps)
    if problems:
        raise PlanError("; ".join(problems))


def build_plan(facts: Facts, rec: Recommendation, choices: Optional[Choices] = None, *,
               dry_run: bool = False, created: Optional[str] = None) -> Plan:
    choices = choices or Choices()
    platform = platform_of(facts)
    said = _Said(rec)
    _say_choices(facts, rec, choices, platform, said)
    from app.install_command import target_home

    if target_home(facts) is None and choices.venv_path.startswith("~"):
        said.warn("warn_home_unknown")  # a snapshot without HOME: ~ stays, never the viewer's home
    if platform == "windows":
        steps = _windows_steps(facts, rec, choices, said)
    else:
        steps = _linux_steps(facts, rec, choices, platform, said)
    if platform == "wsl2":
        _refuse_linux_driver(steps)
    steps = [with_root_network_env(s, choices.mirrors) for s in steps]
    _check(steps)
    if not steps:
        said.warn("warn_nothing_to_do")
    if rec.pytorch.version is None and not choices.torch_version:
        said.warn("warn_no_pytorch")
    created = created or _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat()
    warnings, codes = said.unique()
    return Plan(steps=tuple(steps), platform=platform, created=created, dry_run=dry_run,
                facts_summary={**facts_summary(facts), **index_summary(rec)}, warnings=warnings, warning_codes=codes,
                choices=choices.to_json())
