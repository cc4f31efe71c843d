"""`gpu-wizard plan`: the install plan for this machine (or a snapshot), before anything runs.
`--json` prints the Plan, `--script` a commented bash script (`set -euo pipefail`)."""
from __future__ import annotations

import argparse
import textwrap

from app.commands.base import CliError

HELP = "show the install plan: every step, why, and the exact commands (--json, --script)"


def add_choice_arguments(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("choices")
    g.add_argument("--venv", metavar="PATH", default=None, help="where the PyTorch virtual environment goes (default ~/.venvs/gpu)")
    g.add_argument("--method", choices=("apt", "dnf", "runfile"), default=None, help="how the CUDA toolkit is installed")
    g.add_argument("--toolkit", action="store_true", help="also install the CUDA toolkit (nvcc), for building extensions")
    g.add_argument("--cudnn", action="store_true", help="also install cuDNN as a system package")
    g.add_argument("--installer", choices=("pip", "uv"), default="pip", help="install PyTorch with pip (default) or uv")
    g.add_argument("--torch", metavar="VERSION", default=None, help="a PyTorch version instead of the recommended one")
    g.add_argument("--variant", metavar="INDEX", default=None, help="a PyTorch build instead of the recommended one (cu128, cu126, cpu)")
    g.add_argument("--no-driver", action="store_true", help="never install or upgrade the driver")
    g.add_argument("--no-cleanup", action="store_true", help="leave old CUDA toolkits and environment lines alone")
    g.add_argument("--wsl-distro", metavar="NAME", default=None,
                   help="on Windows: the WSL distro to set up (default: the WSL 2 Ubuntu, or a new Ubuntu-24.04)")
    g.add_argument("--no-torchvision", action="store_true", help="install torch alone (allows a release whose torchvision is not out yet)")
    g.add_argument("--offline", action="store_true", help="do not read the live PyTorch/PyPI/NVIDIA indexes: answer from the compat data")
    from app.config import add_mirror_arguments

    add_mirror_arguments(p)  # --config, --pypi-mirror, --pytorch-mirror, --nvidia-mirror, --proxy, --ca-bundle


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--script", action="store_true", help="print the plan as a commented bash script")
    add_choice_arguments(p)


def choices_from_args(args, facts=None):
    """Choices from the flags (app.pipeline.choices_from_options: the same for a fleet's hosts)."""
    from app.pipeline import PipelineError, choices_from_options

    try:
        return choices_from_options(args, facts)
    except PipelineError as e:
        raise CliError(str(e), e.code) from None


def make_plan(args, ctx, dry_run: bool = False):
    """(facts, recommendation, choices, plan) for this machine or snapshot, through this run's pipeline
    (app.pipeline: the plan is built from the very recommendation `recommend` shows)."""
    facts = ctx.facts()
    choices = choices_from_args(args, facts)
    rec = ctx.recommendation(choices)
    plan = ctx.plan(choices, dry_run=dry_run)
    return facts, rec, choices, plan


def plan_text(plan, full: bool = False, lang: str = "en") -> str:
    """The human text of `plan` (and of `install`'s confirmation), in `lang`."""
    from app.messages import cli, plan_warnings, step_notes, step_title, step_why

    def t(key: str, **p) -> str:
        return cli(f"plan_{key}", lang, **p)

    lines = [t("header", os=plan.facts_summary.get("os", plan.platform), count=len(plan.steps))]
    for k, v in plan.facts_summary.items():
        lines.append(f"  {k}: {v}")
    for w in plan_warnings(plan, lang):
        lines.append(t("warning", text=w))
    width = 92 if lang == "en" else 46  # CJK characters are two columns wide
    for i, s in enumerate(plan.steps, 1):
        lines.append("")
        lines.append(f"{i}. {step_title(s, lang)}{t('admin') if s.needs_root else ''}{t('restart_after') if s.reboot_required else ''}")
        lines += ["   " + ln for ln in textwrap.wrap(step_why(s, lang), width)]
        for n in step_notes(s, lang):
            lines += [t("note", text=ln) for ln in textwrap.wrap(n, 90 if lang == "en" else 45)]
        for r in s.removes:
            lines.append(t("removes", what=r))
        for d in s.downloads:
            lines.append(t("download", url=d.url) + (t("sha256", sha=d.sha256[:16]) if d.sha256 else t("checksum_from", url=d.checksum_url)))
        for e in s.edits:
            lines.append(t("edit", what=e.describe()))
        if tuple(s.ok_exit_codes) != (0,):
            ok = ", ".join(str(c) for c in s.ok_exit_codes if c != 0)
            lines.append(t("exit_ok", codes=ok) + (t("exit_restart") if s.reboot_exit_codes else ""))
        for a in s.argv_lines():
            shown = a if full or "\n" not in a else a.split("\n", 1)[0] + " …'"
            lines.append(f"   $ {shown}")
    return "\n".join(lines)


def run(args, ctx) -> int:
    _, _, _, plan = make_plan(args, ctx)
    if args.script:
        import sys

        if plan.platform == "windows":  # a Windows host: the same plan as a PowerShell script
            from app.plan.script_ps import plan_to_powershell

            sys.stdout.write(plan_to_powershell(plan))
            return 0
        from app.plan.script import plan_to_script

        sys.stdout.write(plan_to_script(plan))
        return 0
    ctx.emit(plan.to_json(), plan_text(plan, lang=ctx.lang))
    return 0
