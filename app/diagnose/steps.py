"""A rule's fix steps for the machine the text comes from.

A step spec is either a step (id, kind, title, why, argv, needs_root, when/unless, where, manual, ...) or
`{"use": "<fix>"}`: the named fix of resources/diagnose/fixes.json written for the assumed platform (its
entry for the first of `Platform.tags` it has, else its "*" entry). Placeholders are filled from the
match's values; a step whose placeholder cannot be filled is left out (a PyTorch reinstall left out
for want of a recommendation becomes "ask the wizard which build fits"). A step the wizard cannot run
here is marked `manual`: a root command the privileged helper refuses, a step for the Windows side, the
container's image or the firmware, and every step of a text from another machine.
"""
from __future__ import annotations

from typing import Any, Iterable, Optional

from app.diagnose import evidence as ev
from app.diagnose.model import FixStep, Platform
from app.diagnose.sides import runs_on
from app.diagnose.values import Missing, fill_argv, fill_str, template_params

# steps whose command installs Python packages: they run with the install command's proxy and CA settings
_PYTHON_KINDS = ("install_pytorch", "create_venv")
# the named fixes that reinstall PyTorch (resources/diagnose/fixes.json)
_TORCH_FIXES = ("reinstall_pytorch", "redownload_pytorch")


def check_recommendation() -> FixStep:
    """The question to the wizard when the reinstall's build could not be named (its words: the catalogue's)."""
    from app.plan.model import english

    return FixStep(id="check_recommendation", kind="verify", title=english("diagnose_check_recommendation", {}),
                   why=english("diagnose_check_recommendation_why", {}), argv=(("gpu-wizard", "recommend"),),
                   title_code="diagnose_check_recommendation", why_code="diagnose_check_recommendation_why")


def pred(name: Optional[str], ctx: ev.Context) -> Optional[bool]:
    if not name:
        return None
    r = ev.PREDICATES[name](ctx)
    if r is None and name in ev.PREDICATE_DEFAULT_TRUE:
        return True
    return r


def platform_entry(part: Optional[dict], platform: Optional[Platform]) -> Optional[tuple[str, dict]]:
    """(tag, entry) of the first of the platform's tags the part's `platforms` has an entry for."""
    entries = (part or {}).get("platforms") or {}
    if not entries or platform is None:
        return None
    for tag in platform.tags:
        if isinstance(entries.get(tag), dict):
            return tag, entries[tag]
    return None


def _fix_specs(name: str, fixes: dict, platform: Optional[Platform]) -> tuple[str, list[dict]]:
    entry = fixes.get(name) or {}
    for tag in (platform.tags if platform is not None else ()) + ("*",):
        if isinstance(entry.get(tag), list):
            return f"fix.{name}~{'any' if tag == '*' else tag}", entry[tag]
    return f"fix.{name}", []


def _runs_here(where: str, ctx: ev.Context) -> bool:
    """Whether the wizard on this machine can carry out a step meant for `where`."""
    p = ctx.platform
    if p is not None and p.foreign:
        return False
    here_windows = ctx.facts is not None and ctx.facts.os.platform == "windows"
    if p is not None and (p.os == "macos" or (p.os == "windows") != here_windows and where != "windows"):
        return False  # a macOS machine, or the other side of a Windows/Linux pair: the user runs it there
    if where in ("image", "firmware"):
        return False
    if where == "windows":
        return ctx.facts is not None and ctx.facts.os.platform == "windows"
    if where == "host":  # the container's host: this machine unless the wizard itself runs inside a container
        return ctx.facts is None or not ctx.facts.os.container
    return True


def _one(s: dict, ctx: ev.Context, values: dict[str, Any], code: str) -> Optional[FixStep]:
    """One step spec filled (None when it does not apply; Missing when a placeholder has no value)."""
    filled = s.get("if_missing")
    if filled and values.get(filled) and filled not in values.get("__defaulted__", ()):
        return None  # the fallback of a step that had that figure
    argv = tuple(fill_argv(a, values) for a in s.get("argv", []))
    env = {k: fill_str(x, values, strict=True) for k, x in s.get("env", {}).items()}
    kind = s.get("kind", "verify")
    if kind in _PYTHON_KINDS:
        env = {**values.get("install_env", {}), **env}
    where = s.get("where", "")
    params = {**template_params(s["title"], values), **template_params(s["why"], values)}
    return FixStep(
        id=s["id"], title=fill_str(s["title"], values, strict=False), why=fill_str(s["why"], values, strict=False),
        kind=kind, argv=argv, needs_root=bool(s.get("needs_root", False)),
        reboot_required=bool(s.get("reboot_required", False)), env=env, notes=tuple(s.get("notes", ())),
        manual=bool(s.get("manual", False)) or not _runs_here(where, ctx), where=where, runs_on=runs_on(where, ctx.platform),
        title_code=f"{code}.step.{s['id']}.title" if code else "", why_code=f"{code}.step.{s['id']}.why" if code else "",
        params=params,
    )


def build_steps(specs: Iterable[dict], ctx: ev.Context, values: dict[str, Any], code: str = "",
                fixes: Optional[dict] = None) -> tuple[list[FixStep], bool]:
    """FixSteps with placeholders filled and named fixes expanded for the platform; the second value is
    True when a PyTorch reinstall was left out for want of a recommendation. `code` is the rule code the
    specs belong to: each step's title and why are the catalogue's "plan.<code>.step.<id>.title/why"."""
    out: list[FixStep] = []
    dropped_torch = False
    for s in specs:
        if s.get("when") and not pred(s["when"], ctx):
            continue
        if s.get("unless") and pred(s["unless"], ctx):
            continue
        if "use" in s:
            if s["use"] in _TORCH_FIXES and pred("other_framework", ctx):
                continue  # another framework's failure: a PyTorch reinstall is no fix for it
            sub_code, sub = _fix_specs(s["use"], fixes or {}, ctx.platform)
            more, dropped = build_steps(sub, ctx, values, sub_code, None)
            out += [x for x in more if x.id not in {y.id for y in out}]
            dropped_torch = dropped_torch or dropped
            continue
        try:
            step = _one(s, ctx, values, code)
        except Missing:
            dropped_torch = dropped_torch or s.get("kind") == "install_pytorch"
            continue
        if step is not None:
            out.append(step)
    return out, dropped_torch


def finish(steps: list[FixStep], dropped_torch: bool, platform: Optional[Platform] = None) -> list[FixStep]:
    """The steps as the diagnosis shows them: what the wizard cannot run marked manual, and the question to
    the wizard when the reinstall's build could not be named (asked on the machine the text comes from)."""
    from app.diagnose.fixplan import mark_manual

    steps = mark_manual(steps)
    if dropped_torch and not any(s.kind == "install_pytorch" for s in steps):
        steps.append(check_recommendation().replace(runs_on=runs_on("", platform)))
    return steps
