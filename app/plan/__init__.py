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

from .model import PLAN_FORMAT, STEP_KINDS, Check, Download, Edit, Note, Plan, Step, evaluate, is_done, validate_step

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
    if facts.source:
        out["source"] = facts.source
    return out


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


def build_plan(facts: Facts, rec: Recommendation, choices: Optional[Choices] = None, *,
               dry_run: bool = False, created: Optional[str] = None) -> Plan:
    from .cleanup import build_cleanup_steps
    from .cudnn import build_cudnn_steps
    from .driver import build_driver_steps
    from .env import build_env_steps
    from .pytorch import build_pytorch_steps
    from .repo import build_repo_steps
    from .toolkit import build_toolkit_steps, wants_toolkit

    choices = choices or Choices()
    platform = platform_of(facts)
    from app import messages

    said: list[Note] = [Note(code=w.code, params=dict(w.params), domain="rec") for w in rec.warnings if w.severity in ("error", "warning")]
    warnings: list[str] = [w.message for w in rec.warnings if w.severity in ("error", "warning")]

    def warn(code: str) -> None:
        said.append(Note(code=code))
        warnings.append(messages.render("plan", code, {}, "en", fallback=code))

    steps: list[Step] = []
    if platform == "windows":
        win = _optional("windows", "build_windows_plan")
        if win is None:
            warn("warn_windows_unavailable")
            steps += build_pytorch_steps(facts, rec, choices)
        else:  # the host plan ends by handing over to the wizard's Linux side inside WSL 2
            steps += win(facts, rec, choices)
    else:
        if facts.os.wsl == 1:
            warn("warn_wsl1")
        steps += build_cleanup_steps(facts, rec, choices)
        if platform == "wsl2":  # repairs first: a stray Linux driver breaks everything after it
            wsl = _optional("wsl", "build_wsl_steps")
            if wsl is None:
                warn("warn_wsl_unavailable")
            else:
                steps += wsl(facts, rec, choices)
        needs_repo = (wants_toolkit(rec, choices) and choices.install_method != "runfile") or choices.want_system_cudnn
        driver_steps = [] if platform == "wsl2" else build_driver_steps(facts, rec, choices)
        if driver_steps and any(s.kind == "install_driver" for s in driver_steps):
            # Ubuntu's own archive carries nvidia-driver-*; other distros take it from NVIDIA's repository
            needs_repo = needs_repo or (facts.os.id or "").lower() != "ubuntu"
        if needs_repo:
            steps += build_repo_steps(facts, rec, choices)
        steps += driver_steps
        steps += build_toolkit_steps(facts, rec, choices)
        steps += build_env_steps(facts, rec, choices)
        steps += build_cudnn_steps(facts, rec, choices)
        steps += build_pytorch_steps(facts, rec, choices)
    if platform == "wsl2":
        from app.plan.wsl import linux_driver_in

        for s in steps:
            for argv in s.commands:
                pkg = linux_driver_in(argv)
                if pkg:
                    raise PlanError(f"step {s.id} would install a Linux driver inside WSL2 ({pkg}); refusing")
    steps = [with_root_network_env(s, choices.mirrors) for s in steps]
    seen: set[str] = set()
    problems: list[str] = []
    for s in steps:
        if s.id in seen:
            problems.append(f"duplicate step id {s.id}")
        seen.add(s.id)
        problems += validate_step(s)
    if problems:
        raise PlanError("; ".join(problems))
    if not steps:
        warn("warn_nothing_to_do")
    if rec.pytorch.version is None and not choices.torch_version:
        warn("warn_no_pytorch")
    created = created or _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat()
    return Plan(steps=tuple(steps), platform=platform, created=created, dry_run=dry_run,
                facts_summary=facts_summary(facts), warnings=tuple(dict.fromkeys(warnings)),
                warning_codes=tuple({w: n for w, n in reversed(list(zip(warnings, said)))}[w] for w in dict.fromkeys(warnings)),
                choices=choices.to_json())
