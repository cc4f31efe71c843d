"""File edits with a backup first, and undo.

Every edit records (path, whether it existed, what it was: a file with its owner, group and mode,
or a symbolic link with its target, and where its backup is) in `backups.json` of the backup folder
before the file changes. `restore()` puts every file back as it was: content, owner, group and mode;
a symbolic link comes back as the same link (never as a copy of what it pointed at); a file the
wizard created is removed. What cannot be put back exactly is said, one line per file.

All file access goes through app.run.safefs: paths are walked without following links someone
else planted, writes are exclusive no-follow temp files renamed into place (root edits files in
users' folders: ~/.bashrc under `sudo -E`). `root` redirects all paths (tests, image builds).
"""
from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

from app import fileio
from app.plan.ini import IniError, check_settings, set_in_bytes
from app.plan.model import Edit

from . import safefs
from .safefs import UnsafePath

MANIFEST = "backups.json"
MARKER = "GPU Setup Wizard removed:"


class EditError(Exception):
    pass


@dataclass(frozen=True)
class EditRecord:
    path: str  # the path as the plan names it
    existed: bool
    backup: Optional[str]  # copy of the old file, None when it did not exist (or was a link)
    kind: str = "file"  # what was there: "file", "symlink", "missing"
    uid: Optional[int] = None
    gid: Optional[int] = None
    mode: Optional[int] = None
    link: Optional[str] = None  # a symbolic link's target (the link itself is what comes back)
    real: Optional[str] = None  # the file actually edited when `path` was a link to it
    step_kind: str = ""  # the step kind that made it (the helper re-checks it on undo)

    def to_json(self) -> dict:
        d = {"path": self.path, "existed": self.existed, "backup": self.backup, "kind": self.kind,
             "uid": self.uid, "gid": self.gid, "mode": self.mode, "link": self.link, "real": self.real}
        if self.step_kind:
            d["step_kind"] = self.step_kind
        return d

    @classmethod
    def from_json(cls, d) -> "EditRecord":
        if not isinstance(d, dict) or not isinstance(d.get("path"), str) or not isinstance(d.get("existed"), bool):
            raise EditError("a backup record is damaged (no path)")

        def opt(key, typ):
            v = d.get(key)
            if v is not None and (not isinstance(v, typ) or isinstance(v, bool)):
                raise EditError(f"a backup record of {d['path']} is damaged ({key})")
            return v
        kind = d.get("kind") or ("file" if d["existed"] else "missing")
        if kind not in ("file", "symlink", "missing"):
            raise EditError(f"a backup record of {d['path']} is damaged (kind)")
        return cls(d["path"], d["existed"], opt("backup", str), kind, opt("uid", int), opt("gid", int),
                   opt("mode", int), opt("link", str), opt("real", str), d.get("step_kind") or "")


_lock = threading.Lock()


def real_path(path: str, root: str = "/") -> Path:
    if root in ("", "/"):
        return Path(path)
    return Path(root) / path.lstrip("/")


def _backup_name(path: str, n: int) -> str:
    return f"{n:03d}" + path.replace("/", "__")[:180]


def read_manifest(bdir: Path) -> list[dict]:
    """The records of a backup folder; a missing manifest is no records, a damaged one an error."""
    manifest = bdir / MANIFEST
    try:
        text = manifest.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    except (OSError, UnicodeError) as e:
        raise EditError(f"cannot read {manifest}: {getattr(e, 'strerror', None) or e}") from None
    try:
        data = fileio.loads(text)
    except (ValueError, RecursionError):
        raise EditError(f"{manifest} is damaged (not JSON); nothing was restored") from None
    if not isinstance(data, list):
        raise EditError(f"{manifest} is damaged (not a list); nothing was restored")
    return data


def _write_manifest(bdir: Path, records: list[dict]) -> None:
    with safefs.locate(str((bdir / MANIFEST).absolute()), follow_last=False) as loc:
        safefs.write_at(loc, (json.dumps(records, indent=1) + "\n").encode(), 0o600)


def _locate(path: str, **kw) -> safefs.Located:
    try:
        return safefs.locate(os.path.abspath(path), **kw)
    except FileNotFoundError:
        raise EditError(f"{os.path.dirname(path)} does not exist") from None
    except NotADirectoryError:
        raise EditError(f"a part of {path} is not a folder") from None
    except UnsafePath as e:
        raise EditError(str(e)) from None


def apply_edit(edit: Edit, backup_dir: str | os.PathLike, root: str = "/", step_kind: str = "",
               content: Optional[str] = None, check_real: Optional[Callable[[str], Optional[str]]] = None) -> EditRecord:
    """Back the file up (when it exists), then change it. Atomic for every mode. `content` (the
    helper's own text for write/append) replaces the edit's content when given. `check_real(path)`
    judges the file the walk really ends at (links resolved), before anything is read or written:
    a reason to refuse, or None."""
    if edit.mode == "ini_set":  # refuse bad settings before anything is backed up or recorded
        try:
            check_settings(edit.section, edit.settings)
        except IniError as ex:
            raise EditError(f"cannot edit {edit.path}: {ex}") from None
    if edit.mode not in ("write", "append", "remove_lines", "delete", "ini_set"):
        raise EditError(f"unknown edit mode {edit.mode!r}")
    if not safefs.SUPPORTED:
        return _apply_plain(edit, backup_dir, root, step_kind, content)
    target = str(real_path(edit.path, root))
    bdir = Path(backup_dir)
    bdir.mkdir(parents=True, exist_ok=True, mode=0o700)
    text = edit.content if content is None else content
    with _lock:
        records = read_manifest(bdir)
        if edit.mode == "delete" and not os.path.lexists(os.path.dirname(os.path.abspath(target))):
            return EditRecord(edit.path, False, None, "missing", step_kind=step_kind)  # nothing there to delete
        # a delete takes the name itself away (a link is deleted, never followed); others edit the file
        loc = _locate(target, create_dirs=edit.mode != "delete", follow_last=edit.mode != "delete")
        try:
            why = check_real(_unroot(loc.path, root)) if check_real is not None else None
            if why:
                raise EditError(why)
            fileio.clean_temps(dir_fd=loc.dir_fd, name=loc.name)  # what a killed run left beside it
            st = _checked_stat(edit, loc)
            rec, old = _back_up(edit, loc, st, bdir, len(records), os.path.abspath(target), root, step_kind)
            new = _new_content(edit, old, text)
            if edit.mode == "remove_lines" and old is not None and new is not None:
                check_shell_edit(edit.path, old, new)
            records.append(rec.to_json())
            _write_manifest(bdir, records)  # recorded before the file changes
            _change(edit, loc, st, new)
            return rec
        finally:
            loc.close()


def _checked_stat(edit: Edit, loc: safefs.Located) -> Optional[os.stat_result]:
    """What is at the name now: nothing, a regular file or a link, of an owner root may touch there."""
    st = safefs.lstat_at(loc)
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise EditError(f"{edit.path} is a folder, not a file")
    if st is not None and not (stat.S_ISREG(st.st_mode) or stat.S_ISLNK(st.st_mode)):
        raise EditError(f"{edit.path} is not a regular file")
    try:
        safefs.check_owner(loc, st)
    except UnsafePath as e:
        raise EditError(str(e)) from None
    return st


def _back_up(edit: Edit, loc: safefs.Located, st: Optional[os.stat_result], bdir: Path, n: int, target: str,
             root: str, step_kind: str) -> tuple[EditRecord, Optional[bytes]]:
    """The record of what is there (a file with owner and mode, a link with its target, nothing) and the
    old bytes, with the backup copy written (never through a link: follow_last=False)."""
    old: Optional[bytes] = None
    backup = link = None
    if st is not None and stat.S_ISLNK(st.st_mode):
        link, kind = os.readlink(loc.name, dir_fd=loc.dir_fd), "symlink"
    elif st is not None:
        kind = "file"
        try:
            old = safefs.read_at(loc)
        except UnsafePath as e:
            raise EditError(str(e)) from None
        if edit.backup:
            backup = _backup_name(edit.path, n)
            with safefs.locate(str((bdir / backup).absolute()), follow_last=False) as bl:
                safefs.write_at(bl, old, 0o600)
    else:
        kind = "missing"
    real = loc.path if loc.path != target else None
    rec = EditRecord(edit.path, st is not None, str(bdir / backup) if backup else None, kind,
                     st.st_uid if st else None, st.st_gid if st else None, (st.st_mode & 0o7777) if st else None,
                     link, _unroot(real, root) if real else None, step_kind)
    return rec, old


def _change(edit: Edit, loc: safefs.Located, st: Optional[os.stat_result], new: Optional[bytes]) -> None:
    if edit.mode == "delete":
        if st is not None:
            safefs.unlink_at(loc)
        return
    if new is None:
        return
    if st is not None:
        safefs.write_at(loc, new, st.st_mode, st.st_uid, st.st_gid)
    else:
        # a new file in a folder a user controls is that user's (root never leaves root files there)
        uid = loc.owner if loc.owner is not None else None
        gid = os.fstat(loc.dir_fd).st_gid if uid is not None else None
        safefs.write_at(loc, new, edit.file_mode, uid, gid)


def _unroot(path: str, root: str) -> str:
    if root in ("", "/"):
        return path
    r = os.path.abspath(root).rstrip("/")
    return path[len(r):] if path.startswith(r + "/") else path


def _new_content(edit: Edit, old: Optional[bytes], text: str) -> Optional[bytes]:
    if edit.mode == "delete":
        return None
    if edit.mode == "ini_set":  # bytes in, bytes out: CRLF and a byte-order mark stay as they were
        try:
            return set_in_bytes(old or b"", edit.section, edit.settings)
        except (IniError, UnicodeError) as ex:
            raise EditError(f"cannot edit {edit.path}: {ex}") from None
    # bytes, not text mode: a CRLF file keeps its line ends
    s = old.decode("utf-8", errors="surrogateescape") if old is not None else ""
    if edit.mode == "write":
        new = text
    elif edit.mode == "append":
        if _holds_block(s, text):
            return s.encode("utf-8", errors="surrogateescape")  # already appended (a run stopped after it): once
        nl = "\r\n" if "\r\n" in s else "\n"
        new = s + ("" if not s or s.endswith("\n") else nl) + text.replace("\r\n", "\n").replace("\n", nl)
    else:
        new = remove_lines(s, edit.lines, edit.path)
    return new.encode("utf-8", errors="surrogateescape")


def _holds_block(s: str, text: str) -> bool:
    """Does `s` hold the lines of `text`, in a row (line ends aside)?"""
    want = [ln.rstrip("\r") for ln in text.replace("\r\n", "\n").strip("\n").split("\n")]
    if not any(w.strip() for w in want):
        return False
    have = [ln.rstrip("\r") for ln in s.split("\n")]
    k = len(want)
    return any(have[i:i + k] == want for i in range(len(have) - k + 1) if have[i] == want[0])


# --- removing lines from shell rc files without breaking them --------------------------------

_SHELLISH = re.compile(r"(^|/)(\.?(bash|zsh|k?sh)[a-z_]*|\.?profile|bash\.bashrc|zshrc|zprofile|zshenv|[^/]+\.(sh|bash|zsh))$")
_KEYWORD_HEAD = re.compile(r"^(\s*)(if|elif|while|until)\b")


def is_shell_file(path: str) -> bool:
    name = os.path.basename(path)
    return bool(_SHELLISH.search(name)) and name != "environment"


def _logical_lines(lines: list[str]) -> list[tuple[int, int]]:
    """(first, last) physical line index of each logical line (joined by trailing backslashes)."""
    out, i, n = [], 0, len(lines)
    while i < n:
        j = i
        while j < n - 1:
            body = lines[j].rstrip("\r\n")
            trail = len(body) - len(body.rstrip("\\"))
            if trail % 2 == 0:
                break
            j += 1
        out.append((i, j))
        i = j + 1
    return out


def remove_lines(text: str, wanted: tuple[str, ...] | list[str], path: str = "", *, marker: Optional[bool] = None) -> str:
    """Take the wanted lines out. Other files lose them; shell files keep their shape: each wanted
    logical line goes whole (with its `\\` continuations), and where that would leave a block
    empty (`if … fi`, a function body) the line becomes a no-op `:` carrying the old text as a
    comment; a block head (`if`/`while` …) keeps its keyword with a false condition. The result is
    checked with `bash -n` whenever the original passed it (marker=None: pick the first that does)."""
    drop = {ln.strip() for ln in wanted}
    lines = text.splitlines(keepends=True)
    if not is_shell_file(path):
        return "".join(ln for ln in lines if ln.strip() not in drop)
    if marker is None:
        plain = remove_lines(text, wanted, path, marker=False)
        data = text.encode("utf-8", "surrogateescape")
        if bash_syntax_ok(plain.encode("utf-8", "surrogateescape")) is not False or bash_syntax_ok(data) is False:
            return plain
        return remove_lines(text, wanted, path, marker=True)
    out: list[str] = []
    for a, b in _logical_lines(lines):
        group = lines[a:b + 1]
        if not any(ln.strip() in drop for ln in group):
            out.extend(group)
            continue
        nl = "\r\n" if group[-1].endswith("\r\n") else ("\n" if group[-1].endswith("\n") else "")
        old = " ".join(g.rstrip("\r\n").rstrip("\\").strip() for g in group)
        m = _KEYWORD_HEAD.match(group[0])
        indent = re.match(r"\s*", group[0]).group(0)  # type: ignore[union-attr]
        if m:
            kw = m.group(2)
            cond = "true" if kw == "until" else "false"
            tail = ""
            for closer in ("then", "do"):
                if re.search(r"(^|[;\s])" + closer + r"$", old.rstrip()):
                    tail = "; " + closer
            out.append(f"{indent}{kw} {cond}{tail}  # {MARKER} {old}{nl}")
        elif marker:
            out.append(f"{indent}:  # {MARKER} {old}{nl}")
    return "".join(out)


def bash_syntax_ok(data: bytes, timeout: float = 10.0) -> Optional[bool]:
    """`bash -n` on the text (parse only, nothing runs); None when bash is not here."""
    bash = shutil.which("bash")
    if not bash:
        return None
    try:
        r = subprocess.run([bash, "-n"], input=data, capture_output=True, timeout=timeout,
                           env={"PATH": "/usr/bin:/bin", "LC_ALL": "C"})
    except (OSError, subprocess.TimeoutExpired):
        return None
    return r.returncode == 0


def check_shell_edit(path: str, old: bytes, new: bytes) -> None:
    """Refuse a cleanup that would break a shell file that parsed before."""
    if not is_shell_file(path) or path.endswith(("zshrc", ".zsh", "zprofile", "zshenv")):
        return
    before = bash_syntax_ok(old)
    if before and bash_syntax_ok(new) is False:
        raise EditError(f"removing the CUDA lines would break {path} (bash -n fails after the edit); "
                        "it was left unchanged")


# --- undo ------------------------------------------------------------------------------------

@dataclass
class RestoreReport:
    restored: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # one line each: what could not be put back


def restore(backup_dir: str | os.PathLike, root: str = "/", paths: Optional[set[str]] = None,
            report: Optional[RestoreReport] = None, allowed=None) -> list[str]:
    """Undo every recorded edit (newest first). Returns the paths put back; what could not be put
    back exactly goes to `report.problems`. `allowed(record)`: a check each record must pass
    (the helper's allow-list), else it is refused and reported."""
    rep = report if report is not None else RestoreReport()
    bdir = Path(backup_dir)
    raw = read_manifest(bdir)
    records: list[EditRecord] = []
    for r in raw:
        try:
            records.append(EditRecord.from_json(r))
        except EditError as e:
            rep.problems.append(str(e))
    seen: set[str] = set()
    # the oldest record of a path holds its original state; walk newest → oldest so the oldest wins
    for rec in reversed(records):
        path = rec.path
        if paths is not None and path not in paths:
            continue
        if allowed is not None:
            why = allowed(rec)
            if why:
                rep.problems.append(f"{path}: not restored: {why}")
                continue
        try:
            _restore_one(rec, bdir, root, rep)
        except (EditError, UnsafePath) as e:
            rep.problems.append(f"{path}: not restored: {e}")
            continue
        except OSError as e:
            rep.problems.append(f"{path}: not restored: {e.strerror or e}")
            continue
        if path not in seen:
            seen.add(path)
            rep.restored.append(path)
    return rep.restored


def _backup_file(rec: EditRecord, bdir: Path) -> Path:
    """The backup named by a record, which must lie in this backup folder (a forged record naming
    /etc/shadow is refused)."""
    assert rec.backup
    b = Path(rec.backup)
    cand = b if b.is_absolute() else bdir / b
    if cand.parent.resolve() != bdir.resolve() or not re.fullmatch(r"[0-9]{3}[A-Za-z0-9._+@-]*", cand.name):
        raise EditError(f"its backup {rec.backup} is not in the backup folder")
    return bdir / cand.name


def _restore_one(rec: EditRecord, bdir: Path, root: str, rep: RestoreReport) -> None:
    where = rec.real or rec.path
    target = str(real_path(where, root))
    if not safefs.SUPPORTED:
        _restore_plain(rec, bdir, target)
        return
    if rec.kind == "symlink":
        with _locate(target, create_dirs=True, follow_last=False) as loc:
            st = safefs.lstat_at(loc)
            if st is not None and stat.S_ISDIR(st.st_mode):
                raise EditError("a folder is there now")
            safefs.symlink_at(loc, rec.link or "", rec.uid, rec.gid)
            _owner_note(rec, safefs.lstat_at(loc), rep)
        return
    if not rec.existed:
        if not os.path.lexists(target):
            return  # already gone
        with _locate(target, follow_last=False) as loc:
            st = safefs.lstat_at(loc)
            if st is not None and stat.S_ISDIR(st.st_mode):
                raise EditError("a folder is there now")
            if st is not None:
                safefs.unlink_at(loc)
        return
    if not rec.backup:
        rep.problems.append(f"{rec.path}: no backup was kept, left as it is")
        return
    src = _backup_file(rec, bdir)
    with _locate(str(src.absolute()), follow_last=False) as bl:
        try:
            data = safefs.read_at(bl)
        except FileNotFoundError:
            raise EditError(f"its backup {src.name} is missing") from None
    with _locate(target, create_dirs=True) as loc:
        st = safefs.lstat_at(loc)
        if st is not None and not stat.S_ISREG(st.st_mode):
            raise EditError("something other than a file is there now")
        mode = rec.mode if rec.mode is not None else (st.st_mode & 0o7777 if st else 0o644)
        try:
            safefs.write_at(loc, data, mode, rec.uid, rec.gid)
        except PermissionError:  # not root: keep our own owner, still put the content back
            safefs.write_at(loc, data, mode)
        _owner_note(rec, safefs.lstat_at(loc), rep)


def _owner_note(rec: EditRecord, st: Optional[os.stat_result], rep: RestoreReport) -> None:
    if st is None:
        return
    if rec.uid is not None and st.st_uid != rec.uid or rec.gid is not None and st.st_gid != rec.gid:
        rep.problems.append(f"{rec.path}: content restored, but its owner is {st.st_uid}:{st.st_gid}, was "
                            f"{rec.uid}:{rec.gid} (changing the owner needs administrator rights)")
    if rec.kind == "file" and rec.mode is not None and (st.st_mode & 0o7777) != rec.mode:
        rep.problems.append(f"{rec.path}: content restored, but its mode is {st.st_mode & 0o7777:o}, was {rec.mode:o}")


# --- platforms without openat (Windows) --------------------------------------------------------

def _apply_plain(edit: Edit, backup_dir, root: str, step_kind: str, content: Optional[str]) -> EditRecord:
    target = real_path(edit.path, root)
    bdir = Path(backup_dir)
    bdir.mkdir(parents=True, exist_ok=True)
    text = edit.content if content is None else content
    with _lock:
        records = read_manifest(bdir)
        existed = target.exists() or target.is_symlink()
        if existed and target.is_dir():
            raise EditError(f"{edit.path} is a folder, not a file")
        old = target.read_bytes() if existed else None
        backup = None
        if existed and edit.backup:
            backup = str(bdir / _backup_name(edit.path, len(records)))
            fileio.write_atomic(backup, old or b"", mode=0o600)
        st = target.stat() if existed else None
        rec = EditRecord(edit.path, existed, backup, "file" if existed else "missing",
                         mode=(st.st_mode & 0o7777) if st else None, step_kind=step_kind)
        new = _new_content(edit, old, text)
        records.append(rec.to_json())
        fileio.write_json_atomic(bdir / MANIFEST, records, mode=0o600)
    if edit.mode == "delete":
        if existed:
            target.unlink()
        return rec
    target.parent.mkdir(parents=True, exist_ok=True)
    fileio.write_atomic(target, new or b"", mode=(st.st_mode & 0o7777) if st else edit.file_mode)
    return rec


def _restore_plain(rec: EditRecord, bdir: Path, target: str) -> None:
    t = Path(target)
    if not rec.existed:
        try:
            t.unlink()
        except FileNotFoundError:
            pass
        return
    if rec.backup:
        t.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(_backup_file(rec, bdir), t)
