"""File edits with a backup first, and undo.

Every edit records (path, whether it existed, where its backup is) in `backups.json` of the
session folder before the file changes. `restore()` puts every file back: restored from its
backup, or removed when the wizard created it. `root` redirects all paths (tests, image builds).
"""
from __future__ import annotations

import json
import os
import shutil
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from app.plan.ini import IniError, check_settings, set_in_bytes
from app.plan.model import Edit


class EditError(Exception):
    pass


@dataclass(frozen=True)
class EditRecord:
    path: str  # the path as the plan names it
    existed: bool
    backup: Optional[str]  # copy of the old file, None when it did not exist

    def to_json(self) -> dict:
        return {"path": self.path, "existed": self.existed, "backup": self.backup}


_lock = threading.Lock()


def real_path(path: str, root: str = "/") -> Path:
    if root in ("", "/"):
        return Path(path)
    return Path(root) / path.lstrip("/")


def _backup_name(path: str, n: int) -> str:
    return f"{n:03d}" + path.replace("/", "__")


def apply_edit(edit: Edit, backup_dir: str | os.PathLike, root: str = "/") -> EditRecord:
    """Back the file up (when it exists), then change it. Atomic for write/remove_lines."""
    if edit.mode == "ini_set":  # refuse bad settings before anything is backed up or recorded
        try:
            check_settings(edit.section, edit.settings)
        except IniError as ex:
            raise EditError(f"cannot edit {edit.path}: {ex}") from None
    target = real_path(edit.path, root)
    bdir = Path(backup_dir)
    bdir.mkdir(parents=True, exist_ok=True)
    manifest = bdir / "backups.json"
    with _lock:
        records = json.loads(manifest.read_text()) if manifest.exists() else []
        existed = target.exists() or target.is_symlink()
        if existed and target.is_dir():
            raise EditError(f"{edit.path} is a folder, not a file")
        backup = None
        if existed and edit.backup:
            backup = str(bdir / _backup_name(edit.path, len(records)))
            shutil.copy2(target, backup, follow_symlinks=True)
        rec = EditRecord(edit.path, existed, backup)
        records.append(rec.to_json())
        tmp = manifest.with_name("backups.json.tmp")
        tmp.write_text(json.dumps(records, indent=1))
        os.replace(tmp, manifest)
    if edit.mode == "delete":
        if existed:
            target.unlink()
        return rec
    if edit.mode == "ini_set":  # bytes in, bytes out: CRLF and a byte-order mark stay as they were
        try:
            data = set_in_bytes(target.read_bytes() if existed else b"", edit.section, edit.settings)
        except (IniError, UnicodeError) as ex:
            raise EditError(f"cannot edit {edit.path}: {ex}") from None
        _replace(target, data, existed, edit.file_mode)
        return rec
    # bytes, not text mode: a CRLF file keeps its line ends
    old = target.read_bytes().decode("utf-8", errors="surrogateescape") if existed else ""
    if edit.mode == "write":
        new = edit.content
    elif edit.mode == "append":
        nl = "\r\n" if "\r\n" in old else "\n"
        new = old + ("" if not old or old.endswith("\n") else nl) + edit.content.replace("\r\n", "\n").replace("\n", nl)
    elif edit.mode == "remove_lines":
        drop = {ln.strip() for ln in edit.lines}
        new = "".join(ln for ln in old.splitlines(keepends=True) if ln.strip() not in drop)
    else:
        raise EditError(f"unknown edit mode {edit.mode!r}")
    _replace(target, new.encode("utf-8", errors="surrogateescape"), existed, edit.file_mode)
    return rec


def _replace(target: Path, data: bytes, existed: bool, file_mode: int) -> None:
    """Write atomically (a temporary file renamed over the target), keeping an old file's mode."""
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.gpu-wizard.tmp")
    tmp.write_bytes(data)
    mode = (target.stat().st_mode & 0o7777) if existed else file_mode
    os.chmod(tmp, mode)
    os.replace(tmp, target)


def restore(backup_dir: str | os.PathLike, root: str = "/", paths: Optional[set[str]] = None) -> list[str]:
    """Undo every recorded edit (newest first). Returns the paths put back."""
    manifest = Path(backup_dir) / "backups.json"
    if not manifest.exists():
        return []
    records = json.loads(manifest.read_text())
    done: list[str] = []
    seen: set[str] = set()
    # the oldest record of a path holds its original state; walk newest → oldest so the oldest wins
    for rec in reversed(records):
        path = rec["path"]
        if paths is not None and path not in paths:
            continue
        target = real_path(path, root)
        if rec["existed"] and rec["backup"]:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(rec["backup"], target)
        elif not rec["existed"]:
            try:
                target.unlink()
            except FileNotFoundError:
                pass
        if path not in seen:
            seen.add(path)
            done.append(path)
    return done
