"""fix_plan(diagnosis, facts) -> list[Step]: a diagnosis's fix as the plan's Step values, so the
same runner (argv only, backups, the privileged helper's allow-lists) carries it out.

Only what the wizard may run goes in: a FixStep marked `manual` (a root command the helper's
allow-list refuses, such as `mokutil --import` or `modprobe`, a step on the Windows side, in a
container's image or for another machine) stays in the diagnosis for the user to run, and the plan
ends before it (the steps after it wait for it); a `reboot` FixStep becomes `reboot_required` on
the step before it.
"""
from __future__ import annotations

from typing import Optional

from app import fileio
from app.diagnose.model import Diagnosis, FixStep, Match
from app.facts import Facts


def is_runnable(step: FixStep) -> bool:
    """Whether the wizard's runner would carry this step out (non-root, or root and allowed)."""
    if step.kind == "reboot":
        return False
    from app.diagnose.sides import belongs_elsewhere

    if belongs_elsewhere(step) is not None:  # another machine's command (ldconfig for Windows): never run
        return False
    if step.kind == "write_config":  # the user's own config file: a non-root edit the wizard writes itself
        return not step.needs_root and _config_edit(step) is not None
    if not step.needs_root:
        return bool(step.argv)
    try:
        from app.plan.model import STEP_KINDS
        from app.run.privileged import argv_allowed
    except ImportError:  # the plan/run engine is not installed: nothing runs as root
        return False
    if step.kind not in STEP_KINDS:
        return False
    if step.kind == "write_env" and step.env.get("CUDA_HOME"):
        return True  # becomes the plan's /etc/profile.d/cuda.sh edit
    return bool(step.argv) and all(argv_allowed(step.kind, a) for a in step.argv)


def mark_manual(steps: list[FixStep]) -> list[FixStep]:
    return [s if is_runnable(s) or s.kind == "reboot" else s.replace(manual=True) for s in steps]


CONFIG_KEYS = ("ca_bundle", "https_proxy", "pypi_index_url", "pytorch_index_url", "nvidia_repo_url")


def _config_edit(fs: FixStep):
    """The user's config file with the step's settings merged in (app.config's format), as an Edit;
    None when a value is not one app.config accepts, or the file is unreadable (never clobbered)."""
    import json

    from app.config import ConfigError, config_path, load_config
    from app.plan.model import Edit

    settings = {k: v for k, v in fs.env.items() if k in CONFIG_KEYS and v}
    if not settings or set(fs.env) - set(CONFIG_KEYS):
        return None
    path = config_path()
    try:
        doc = fileio.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    except (OSError, ValueError):
        return None
    if not isinstance(doc, dict):
        return None
    mirrors = dict(doc.get("mirrors") or {})
    mirrors.update(settings)
    doc["mirrors"] = mirrors
    content = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    import tempfile

    with tempfile.TemporaryDirectory() as d:  # the merged file must be one app.config reads back
        probe = f"{d}/config.json"
        with open(probe, "w", encoding="utf-8") as fh:
            fh.write(content)
        try:
            load_config(probe, env={})
        except ConfigError:
            return None
    return Edit(path=str(path), content=content, file_mode=0o600, needs_root=False)


def _to_step(fs: FixStep):
    from app.plan.model import STEP_KINDS, Step

    kind = fs.kind if fs.kind in STEP_KINDS else "verify"
    edits: tuple = ()
    backups: tuple = ()
    if fs.kind == "blacklist_nouveau":
        from app.plan.common import NOUVEAU_FILE
        from app.plan.model import Edit

        content = ("# Written by GPU Setup Wizard (diagnose): the NVIDIA driver cannot load while nouveau holds the GPU.\n"
                   "blacklist nouveau\noptions nouveau modeset=0\n")
        edits, backups = (Edit(path=NOUVEAU_FILE, content=content),), (NOUVEAU_FILE,)
    if fs.kind == "write_env" and fs.env.get("CUDA_HOME"):
        from app.plan.common import LDCONF_FILE, PROFILE_FILE
        from app.plan.env import LDCONF_CONTENT, PROFILE_CONTENT
        from app.plan.model import Edit

        edits = (Edit(path=PROFILE_FILE, content=PROFILE_CONTENT), Edit(path=LDCONF_FILE, content=LDCONF_CONTENT))
        backups = (PROFILE_FILE, LDCONF_FILE)
        return Step(id=fs.id, title=fs.title, why=fs.why, title_code=fs.title_code, why_code=fs.why_code, params=fs.params, kind=kind, commands=(("ldconfig",),), needs_root=True,
                    edits=edits, backups=backups, reboot_required=fs.reboot_required, notes=fs.notes)
    if fs.kind == "write_config":
        edit = _config_edit(fs)
        return Step(id=fs.id, title=fs.title, why=fs.why, title_code=fs.title_code, why_code=fs.why_code, params=fs.params, kind=kind, commands=(), needs_root=False,
                    edits=(edit,) if edit is not None else (), backups=(edit.path,) if edit is not None else (),
                    notes=fs.notes, timeout_s=60.0)
    env = {k: v for k, v in fs.env.items()}
    if kind == "install_driver" or kind == "install_toolkit":
        env.setdefault("DEBIAN_FRONTEND", "noninteractive")
    return Step(id=fs.id, title=fs.title, why=fs.why, title_code=fs.title_code, why_code=fs.why_code, params=fs.params, kind=kind, commands=fs.argv, needs_root=fs.needs_root,
                edits=edits, backups=backups, env=env, reboot_required=fs.reboot_required, notes=fs.notes,
                timeout_s=3600.0 if kind in ("install_driver", "install_toolkit", "install_pytorch") else 600.0)


def fix_plan(diagnosis: Diagnosis, facts: Optional[Facts] = None, *, match: Optional[Match] = None) -> list:
    """The runnable fix of `match` (default: the most likely one) as a list of app.plan.model.Step.
    Empty when nothing matched or the fix is advice only. `facts` is accepted for builders that
    need it (the steps are already filled from the facts the diagnosis saw)."""
    m = match or diagnosis.top
    if m is None:
        return []
    try:
        import app.plan.model  # noqa: F401
    except ImportError:
        return []
    steps: list = []
    for fs in m.fix_steps:
        if fs.kind == "reboot":
            if steps:
                steps[-1] = steps[-1].replace(reboot_required=True)
            continue
        if fs.manual or not is_runnable(fs):
            break  # what follows waits for the user's own step (a key enrolled, a Windows driver): the plan stops here
        steps.append(_to_step(fs))
    return steps
