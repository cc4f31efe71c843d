"""What the fleet playbooks run on a host, inside the shipped zipapp (standard library only).

- `checks_done(checks)`: a step's `done_when` checks evaluated here by the engine's own
  `is_done` (exit 0 done, 3 not done), so a plain command step is skipped on a second run.
- `apply_ini_edit(edit, backup_dir)`: an INI setting (`.wslconfig`, `/etc/wsl.conf`) set by the
  engine's INI editor, the file backed up first; prints `changed` or `unchanged`.
- `host_verify(...)`: the engine's verification of this host (or a saved result for a
  snapshot-backed host) plus this host's own redacted report and a fresh snapshot, written as
  `PREFIX.verify.json`, `PREFIX.report.html`, `PREFIX.json`.
"""
from __future__ import annotations

import json
import os
from typing import Any, Optional

NOT_DONE = 3


def host_text(text: str, env: Optional[dict[str, str]] = None) -> str:
    """`@home@` / `@win_home@` in a check's JSON: the host's own folders, read on the host at run time
    (GW_HOME, GW_WIN_HOME), as JSON string content."""
    src: Any = os.environ if env is None else env
    for mark, var in (("@home@", "GW_HOME"), ("@win_home@", "GW_WIN_HOME")):
        if mark in text:
            value = src.get(var) or ""
            if not value.startswith("/"):
                raise ValueError(f"{var} is not set to a folder on this host")
            text = text.replace(mark, json.dumps(value)[1:-1])
    return text


def checks_done(checks: list[dict[str, Any]]) -> bool:
    from app.plan.model import Check, evaluate
    from app.system import LiveSystem

    system = LiveSystem()
    parsed = [Check.from_json(c) for c in checks]
    return bool(parsed) and all(evaluate(c, system) for c in parsed)


def apply_ini_edit(edit: dict[str, Any], backup_dir: str, check: bool = False) -> str:
    """Set an INI edit's keys (backing the file up first): `changed` or `unchanged`; with `check`,
    only say which (nothing is written)."""
    from app.plan.ini import set_in_bytes
    from app.plan.model import Edit
    from app.run.edits import apply_edit

    edit = dict(edit)
    path_env = edit.pop("path_env", None)
    e = Edit.from_json(edit)
    if e.mode != "ini_set":
        raise ValueError(f"only INI settings are applied this way (got mode {e.mode!r})")
    path = os.environ.get(path_env, "") if path_env else os.path.expanduser(e.path)
    if not path.startswith("/"):
        raise ValueError(f"{path_env or 'the edit'} names no file on this host")
    try:
        with open(path, "rb") as f:
            old = f.read()
    except FileNotFoundError:
        old = None
    new = set_in_bytes(old or b"", e.section, e.settings)
    if old is not None and new == old:
        return "unchanged"
    if check:
        return "changed"
    os.makedirs(backup_dir, mode=0o700, exist_ok=True)
    apply_edit(e.replace(path=path), backup_dir)
    return "changed"


def host_verify(prefix: str, *, venv: Optional[str] = None, quick: bool = True, seconds: Optional[float] = None,
                snapshot: Optional[str] = None, verification: Optional[str] = None,
                burn_in_s: Optional[float] = None) -> dict[str, Any]:
    """Verify (live) or take a saved verification (snapshot-backed host); write the host's files."""
    from app.report import build_report, write_report
    from app.fileio import write_json_atomic
    from app.system import LiveSystem, RecordingSystem, SnapshotSystem

    out: dict[str, Any] = {"prefix": prefix}
    os.makedirs(os.path.dirname(os.path.abspath(prefix)) or ".", exist_ok=True)
    ver = None
    system: Any
    if snapshot:
        system = SnapshotSystem.load(snapshot)
        from app.report.snapshots import record_snapshot

        snap = record_snapshot(system)  # re-recorded and redacted, like every snapshot
        if verification:
            from app.verify.model import Verification
            from app.verify.session import rejudge

            with open(verification, encoding="utf-8") as f:
                ver = rejudge(Verification.loads(f.read()))
        live = False
    else:
        from app.report.snapshots import record_snapshot
        from app.verify.session import VerifyOptions, run_verification

        py = None
        if venv:
            cand = os.path.join(os.path.expanduser(venv), "bin", "python")
            if os.path.isfile(cand) and os.access(cand, os.X_OK):
                py = cand
        from app.pipeline import torch_fix_command

        ver = run_verification(VerifyOptions(python=py, quick=quick, seconds=seconds, burn_in_s=burn_in_s),
                               fixer=torch_fix_command)
        system = RecordingSystem(LiveSystem())
        snap = record_snapshot(LiveSystem())
        live = True
    from app.detect import detect

    facts = detect(SnapshotSystem(snap, name=os.path.basename(prefix)) if not live else system)
    write_json_atomic(prefix + ".json", snap)
    if ver is not None:
        from app.report.redact import Redactor

        data = ver.to_json()
        red = Redactor()
        if live:
            red.learn_live()
        write_json_atomic(prefix + ".verify.json", red.data(data))
        out["status"] = ver.status
    else:
        out["status"] = "none"
    rec = None
    try:
        from app.compat import load_db
        from app.recommend import recommend

        rec = recommend(facts, load_db())
    except Exception:  # a report is still worth writing without it
        rec = None
    report = build_report(facts=facts, recommendation=rec, verification=ver, snapshot=snap, redact=True, live=live,
                          system=None, notes=() if ver is not None or live else
                          ("No verification for this host: its facts come from a snapshot file.",))
    write_report(report, prefix + ".report.html", "html")
    out["report"] = prefix + ".report.html"
    return out


def dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False)
