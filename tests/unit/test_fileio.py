"""The one atomic writer and the one depth-limited JSON reader (app/fileio.py): a reader never sees half a
file, a planted name is never written through, a failed write leaves the old file and no litter, owner and
mode are set before the rename, only our own temporary files are ever cleaned; JSON deeper than the limit
is one JSONDecodeError before any recursive code walks it. And no module writes files its own way."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from app import fileio

ROOT = Path(__file__).resolve().parents[2]
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
USER = 54321  # an unprivileged user without a passwd entry


def test_text_bytes_and_json_replace_the_file_whole(tmp_path):
    p = tmp_path / "f.json"
    fileio.write_atomic(p, "één\n")
    assert p.read_bytes() == "één\n".encode()
    fileio.write_atomic(p, b"\x00\xff")
    assert p.read_bytes() == b"\x00\xff"
    fileio.write_json_atomic(p, {"a": ["é", 1]})
    assert p.read_text(encoding="utf-8") == '{\n "a": [\n  "é",\n  1\n ]\n}\n'
    assert os.listdir(tmp_path) == ["f.json"]  # no temporary file left


def test_mode_is_kept_or_set_and_a_new_file_follows_the_umask(tmp_path):
    p = tmp_path / "f"
    old = os.umask(0o027)
    try:
        fileio.write_atomic(p, "a")
        assert p.stat().st_mode & 0o777 == 0o640
    finally:
        os.umask(old)
    p.chmod(0o604)
    fileio.write_atomic(p, "b")
    assert p.stat().st_mode & 0o777 == 0o604  # an existing file keeps its mode
    fileio.write_atomic(p, "c", mode=0o600)
    assert p.stat().st_mode & 0o777 == 0o600
    fileio.write_atomic(p, "d", keep_mode=False, mode=0o751)
    assert p.stat().st_mode & 0o777 == 0o751


def test_an_error_while_writing_leaves_the_old_file_and_no_litter(tmp_path):
    p = tmp_path / "state.json"
    p.write_text("old\n")
    with pytest.raises(RuntimeError):
        with fileio.atomic_file(p) as fh:
            fh.write(b"half of the new")
            raise RuntimeError("killed")
    assert p.read_text() == "old\n" and os.listdir(tmp_path) == ["state.json"]


def test_a_planted_name_is_never_written_through(tmp_path, monkeypatch):
    """Even a temporary name someone guessed (a link to a victim) is skipped: O_EXCL|O_NOFOLLOW."""
    victim = tmp_path / "victim"
    victim.write_text("keep\n")
    names = iter([".f.0000000000000000.gpu-wizard-tmp", ".f.1111111111111111.gpu-wizard-tmp"])
    os.symlink(victim, tmp_path / ".f.0000000000000000.gpu-wizard-tmp")
    monkeypatch.setattr(fileio, "temp_name", lambda name: next(names))
    fileio.write_atomic(tmp_path / "f", "new\n")
    assert victim.read_text() == "keep\n" and (tmp_path / "f").read_text() == "new\n"
    assert os.readlink(tmp_path / ".f.0000000000000000.gpu-wizard-tmp") == str(victim)


def test_file_and_folder_are_synced_before_and_after_the_rename(tmp_path, monkeypatch):
    seen = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (seen.append(os.path.isdir(f"/proc/self/fd/{fd}")), real(fd)))
    fileio.write_atomic(tmp_path / "f", "x")
    assert seen == [False, True]  # the file, then the folder


def test_the_folder_descriptor_form_is_the_same_writer(tmp_path):
    fd = os.open(tmp_path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fileio.write_atomic("", b"via fd", dir_fd=fd, name="g", mode=0o640)
    finally:
        os.close(fd)
    assert (tmp_path / "g").read_bytes() == b"via fd" and (tmp_path / "g").stat().st_mode & 0o777 == 0o640


@pytest.mark.skipif(not IS_ROOT, reason="giving a file to another user needs root")
def test_owner_is_set_on_the_descriptor_before_the_rename(tmp_path):
    p = tmp_path / "users-file"
    fileio.write_atomic(p, "x", uid=USER, gid=USER, mode=0o4755)
    st = p.stat()
    assert (st.st_uid, st.st_gid) == (USER, USER)
    assert st.st_mode & 0o7777 == 0o4755  # mode after chown: chown clears set-id bits, so the order matters


@pytest.mark.skipif(not IS_ROOT, reason="the other user's files need root to make")
def test_clean_temps_takes_only_our_own_names_and_files(tmp_path):
    ours = [".cuda.sh.0123456789abcdef.gpu-wizard-tmp", ".cuda.sh.fedcba9876543210.gpu-wizard-tmp"]
    for n in ours:
        (tmp_path / n).write_text("half")
    os.symlink("/etc/shadow", tmp_path / ".cuda.sh.aaaaaaaaaaaaaaaa.gpu-wizard-tmp")  # our link: removed itself
    theirs = tmp_path / ".cuda.sh.bbbbbbbbbbbbbbbb.gpu-wizard-tmp"
    theirs.write_text("a user's file with our pattern")
    os.chown(theirs, USER, USER)
    others = ["cuda.sh", ".cuda.sh.0123.gpu-wizard-tmp", ".other.0123456789abcdef.tmp", ".cuda.sh.swp"]
    for n in others:
        (tmp_path / n).write_text("keep")
    os.mkdir(tmp_path / ".dir.0123456789abcdef.gpu-wizard-tmp")
    gone = fileio.clean_temps(tmp_path, "cuda.sh")
    assert sorted(gone) == sorted(ours + [".cuda.sh.aaaaaaaaaaaaaaaa.gpu-wizard-tmp"])
    assert os.path.exists("/etc/shadow")
    assert theirs.exists() and theirs.stat().st_uid == USER  # another user's file: never ours to remove
    assert all((tmp_path / n).exists() for n in others) and (tmp_path / ".dir.0123456789abcdef.gpu-wizard-tmp").is_dir()
    (tmp_path / ".x.0123456789abcdef.gpu-wizard-tmp").write_text("")
    assert fileio.clean_temps(tmp_path) == [".x.0123456789abcdef.gpu-wizard-tmp"]  # no name: all of ours


# --- depth-limited JSON ------------------------------------------------------------------------

def _nest(n: int, inner: str = "1") -> str:
    return '{"a":' * (n // 2) + "[" * (n - n // 2) + inner + "]" * (n - n // 2) + "}" * (n // 2)


def test_depth_at_the_limit_loads_one_more_is_refused():
    assert fileio.loads(_nest(fileio.MAX_DEPTH)) is not None
    for n in (fileio.MAX_DEPTH + 1, 500, 990, 100_000):  # 500 and 990 parse in Python, then recursion dies later
        with pytest.raises(json.JSONDecodeError, match=f"nested deeper than {fileio.MAX_DEPTH} levels") as e:
            fileio.loads(_nest(n))
        assert isinstance(e.value, (fileio.JsonError, ValueError)) and e.value.lineno == 1


def test_brackets_inside_strings_and_escapes_do_not_count():
    deep_text = json.dumps({"dmesg": "[" * 5000, "q": 'a \\" [[[[ \\\\', "r": ["\\\\" * 70 + "[" * 70]})
    assert fileio.loads(deep_text)["dmesg"] == "[" * 5000
    tricky = '[' * 60 + json.dumps('x\\"' + "[" * 200) + ']' * 60  # an escaped quote does not end the string
    assert len(fileio.loads(tricky)) == 1


def test_position_of_the_too_deep_bracket_is_said():
    text = '{\n "ok": 1,\n "x": ' + "[" * 200 + "]" * 200 + "}"
    with pytest.raises(fileio.JsonError) as e:
        fileio.loads(text)
    assert (e.value.lineno, e.value.colno) == (3, 7 + fileio.MAX_DEPTH - 1)


def test_broken_json_is_still_the_parsers_error():
    with pytest.raises(json.JSONDecodeError, match="Expecting"):
        fileio.loads('{"a": [1, 2,')
    with pytest.raises(json.JSONDecodeError):
        fileio.loads("[" * 100 + "]" * 99)  # unbalanced: not a depth question


def test_read_json_caps_the_size(tmp_path):
    p = tmp_path / "big.json"
    p.write_text(json.dumps(["x" * 2000]))
    assert fileio.read_json(p)[0] == "x" * 2000
    with pytest.raises(OSError, match="larger than"):
        fileio.read_json(p, limit=1000)


def test_a_real_process_reading_deep_json_never_recurses():
    """The interpreter's own recursion limit: a JSON that json.loads accepts (900 deep) and that would
    crash any recursive walker is refused up front."""
    code = ("import sys, json; sys.path.insert(0, %r)\nfrom app import fileio\n"
            "t = '[' * 900 + ']' * 900\njson.loads(t)\n"
            "try:\n    fileio.loads(t)\nexcept json.JSONDecodeError as e:\n    print('refused', e.msg)\n") % str(ROOT)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.stdout.strip() == f"refused nested deeper than {fileio.MAX_DEPTH} levels", r.stderr


# --- one writer --------------------------------------------------------------------------------

# renames that are not a file write: a download's resumable .part renamed once verified, root's
# link swap (a symbolic link, not data), the zipapp's self-unpacking stub (standard library only,
# runs on hosts), a host report written under a temporary prefix by host_verify's own atomic writes, root's
# engine copy on a fleet host (a standard-library script run there as root: O_EXCL, renamed, checked after)
ALLOWED = {"app/fileio.py", "app/run/downloads.py", "app/run/safefs.py", "app/fleet/zipapp.py", "app/fleet/report.py",
           "app/fleet/plan.py"}
HAND_ROLLED = re.compile(r"os\.replace\(|os\.rename\(|\.replace\(path\)|\.replace\(p\)|\.with_suffix\(\"\.tmp\"\)"
                         r"|\+ \"\.tmp\"")


def test_no_module_hand_rolls_an_atomic_write():
    bad = []
    for base in ("app", "ui"):
        for p in sorted((ROOT / base).rglob("*.py")):
            rel = p.relative_to(ROOT).as_posix()
            if rel in ALLOWED:
                continue
            for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
                if HAND_ROLLED.search(line):
                    bad.append(f"{rel}:{i}: {line.strip()}")
    assert not bad, "write through app.fileio instead:\n" + "\n".join(bad)


def test_every_json_reader_goes_through_the_depth_limit():
    """json.loads/json.load anywhere in app/ or ui/ bypasses the depth limit (a RecursionError later)."""
    bad = []
    for base in ("app", "ui"):
        for p in sorted((ROOT / base).rglob("*.py")):
            rel = p.relative_to(ROOT).as_posix()
            # rootboot runs as root before any of app is there (no import from app at all): it
            # catches RecursionError itself (tests/unit/test_run_rootboot.py)
            if rel in ("app/fileio.py", "app/run/rootboot.py"):
                continue
            for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
                if re.search(r"\bjson\.loads?\(", line):
                    bad.append(f"{rel}:{i}: {line.strip()}")
    assert not bad, "read JSON with app.fileio.loads/read_json:\n" + "\n".join(bad)
