"""Files in and out, the one way: atomic writes and depth-limited JSON.

Writes: the data goes to an exclusive temporary file beside the target (a random name, created
O_CREAT|O_EXCL|O_NOFOLLOW, so a planted file or link at that name is never written through), is
fsync'd, given its mode and owner, renamed over the target and the folder is fsync'd: a reader
sees the old file or the new one, never half of one, and a crash leaves the old file. The same
core works on a folder descriptor (root's openat walk in app.run.safefs) and on a plain path.
Every temporary file is named `.<name>.<16 hex>.gpu-wizard-tmp`, so one left by a kill is ours to
recognise and clean (`clean_temps`), never anyone else's.

Reads: `loads` refuses JSON nested deeper than MAX_DEPTH levels (a hostile file thousands of
brackets deep) with a JSONDecodeError of its own, before any recursive code walks it; every
reader of a file the window or the command line opens goes through it.
"""
from __future__ import annotations

import contextlib
import errno
import io
import json
import os
import re
import stat
from typing import IO, Any, Iterator, Optional, Union

MAX_DEPTH = 64  # the wizard's own files nest 12 levels at most
MAX_BYTES = 64 << 20
TMP_SUFFIX = ".gpu-wizard-tmp"
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_BINARY = getattr(os, "O_BINARY", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_DIR_FD = os.open in getattr(os, "supports_dir_fd", set()) and hasattr(os, "O_DIRECTORY")
PathLike = Union[str, "os.PathLike[str]"]


# --- temporary names ---------------------------------------------------------------------------

def temp_name(name: str) -> str:
    """A fresh temporary name beside `name` (our pattern, random: nobody can plant it in advance)."""
    return f".{name[:100]}.{os.urandom(8).hex()}{TMP_SUFFIX}"


def is_temp_name(entry: str, name: Optional[str] = None) -> bool:
    """Is `entry` one of our temporary names (for `name`, when given)?"""
    m = _TMP_RE.fullmatch(entry)
    return m is not None and (name is None or m.group(1) == name[:100])


_TMP_RE = re.compile(r"\.(.+)\.[0-9a-f]{16}" + re.escape(TMP_SUFFIX), re.S)


def clean_temps(folder: Optional[PathLike] = None, name: Optional[str] = None, *, dir_fd: Optional[int] = None) -> list[str]:
    """Remove the temporary files a killed writer left in a folder (beside `name`, or all of ours).
    Only files and links with our pattern that belong to us (a link is removed itself, never
    followed), never another user's.
    Returns the names removed."""
    if dir_fd is None and folder is None:
        raise ValueError("clean_temps needs a folder or a folder descriptor")
    uid = os.geteuid() if hasattr(os, "geteuid") else None
    try:
        entries = os.listdir(dir_fd if dir_fd is not None else folder)
    except OSError:
        return []
    gone = []
    for e in entries:
        if not is_temp_name(e, name):
            continue
        try:
            if dir_fd is not None:
                st = os.stat(e, dir_fd=dir_fd, follow_symlinks=False)
            else:
                st = os.lstat(os.path.join(os.fspath(folder), e))  # type: ignore[arg-type]
            if not (stat.S_ISREG(st.st_mode) or stat.S_ISLNK(st.st_mode)) or (uid is not None and st.st_uid != uid):
                continue
            if dir_fd is not None:
                os.unlink(e, dir_fd=dir_fd)
            else:
                os.unlink(os.path.join(os.fspath(folder), e))  # type: ignore[arg-type]
            gone.append(e)
        except OSError:
            continue
    return gone


# --- the one atomic writer -----------------------------------------------------------------------

def _open_temp(name: str, dir_fd: Optional[int], folder: str, mode: Optional[int]) -> tuple[int, str]:
    create = 0o600 if mode is not None else 0o666  # an explicit mode is set on the descriptor; else the umask's
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC | _BINARY
    for _ in range(16):
        tmp = temp_name(name)
        try:
            if dir_fd is not None:
                return os.open(tmp, flags, create, dir_fd=dir_fd), tmp
            return os.open(os.path.join(folder, tmp), flags, create), tmp
        except FileExistsError:
            continue
    raise OSError(errno.EEXIST, f"cannot create a temporary file beside {os.path.join(folder, name)}")


def _chown_fd(fd: int, uid: Optional[int], gid: Optional[int]) -> None:
    st = os.fstat(fd)
    want = (st.st_uid if uid is None else uid, st.st_gid if gid is None else gid)
    if want == (st.st_uid, st.st_gid):
        return
    try:
        os.fchown(fd, *want)
    except PermissionError:
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            raise
        # without root only our own groups are possible: keep what the kernel gave


def fsync_dir(dir_fd: Optional[int] = None, folder: str = "") -> None:
    """Make a rename or unlink in a folder durable (by descriptor, or by path)."""
    try:
        if dir_fd is not None:
            os.fsync(dir_fd)
        elif _DIR_FD:
            fd = os.open(folder or ".", os.O_RDONLY | _DIRECTORY | _CLOEXEC)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
    except OSError:
        pass  # some file systems cannot sync a folder; the file itself was synced


def _existing_mode(name: str, dir_fd: Optional[int], folder: str) -> Optional[int]:
    try:
        if dir_fd is not None:
            st = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
        else:
            st = os.lstat(os.path.join(folder, name))
    except OSError:
        return None
    return st.st_mode & 0o7777 if stat.S_ISREG(st.st_mode) else None


@contextlib.contextmanager
def atomic_file(path: PathLike = "", *, mode: Optional[int] = None, uid: Optional[int] = None,
                gid: Optional[int] = None, dir_fd: Optional[int] = None, name: str = "",
                keep_mode: bool = True, fsync: bool = True) -> Iterator[IO[bytes]]:
    """A binary file object; when the block ends without an error the data replaces the target.

    The target is `path`, or `name` inside the folder `dir_fd` (root's walked folder). `mode`: the
    file's mode (default: the old file's mode when `keep_mode`, else what the umask gives);
    `uid`/`gid`: its owner. On an error the temporary file is removed and the target is untouched."""
    folder = "" if dir_fd is not None else (os.path.dirname(os.path.abspath(os.fspath(path))))
    name = name if dir_fd is not None else os.path.basename(os.fspath(path))
    if not name:
        raise OSError(errno.EINVAL, f"not a file name: {os.fspath(path)!r}")
    if mode is None and keep_mode:
        mode = _existing_mode(name, dir_fd, folder)
    fd, tmp = _open_temp(name, dir_fd, folder, mode)
    try:
        with os.fdopen(fd, "wb", closefd=True) as fh:
            yield fh
            fh.flush()
            if uid is not None or gid is not None:
                _chown_fd(fh.fileno(), uid, gid)
            if mode is not None and hasattr(os, "fchmod"):
                os.fchmod(fh.fileno(), mode & 0o7777)
            if fsync:
                os.fsync(fh.fileno())
        if dir_fd is not None:
            os.replace(tmp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
        else:
            os.replace(os.path.join(folder, tmp), os.path.join(folder, name))
    except BaseException:
        with contextlib.suppress(OSError):
            if dir_fd is not None:
                os.unlink(tmp, dir_fd=dir_fd)
            else:
                os.unlink(os.path.join(folder, tmp))
        raise
    if fsync:
        fsync_dir(dir_fd, folder)


@contextlib.contextmanager
def atomic_text(path: PathLike, *, encoding: str = "utf-8", newline: Optional[str] = "", **kw: Any) -> Iterator[IO[str]]:
    """atomic_file as a text stream (`newline=""`: line ends written as given)."""
    with atomic_file(path, **kw) as raw:
        text = io.TextIOWrapper(raw, encoding=encoding, newline=newline)
        yield text
        text.flush()
        text.detach()


def write_atomic(path: PathLike, data: Union[bytes, str], *, mode: Optional[int] = None, uid: Optional[int] = None,
                 gid: Optional[int] = None, dir_fd: Optional[int] = None, name: str = "", keep_mode: bool = True,
                 encoding: str = "utf-8", fsync: bool = True) -> None:
    """Replace a file with `data` (bytes, or text in `encoding`) atomically (see atomic_file)."""
    raw = data.encode(encoding) if isinstance(data, str) else bytes(data)
    with atomic_file(path, mode=mode, uid=uid, gid=gid, dir_fd=dir_fd, name=name, keep_mode=keep_mode,
                     fsync=fsync) as fh:
        fh.write(raw)


def write_json_atomic(path: PathLike, obj: Any, *, indent: Optional[int] = 1, mode: Optional[int] = None,
                      **kw: Any) -> None:
    """JSON (UTF-8, not ASCII-escaped, a final newline) written atomically."""
    write_atomic(path, json.dumps(obj, indent=indent, ensure_ascii=False) + "\n", mode=mode, **kw)


# --- depth-limited JSON ------------------------------------------------------------------------

class JsonError(json.JSONDecodeError):
    """JSON the wizard will not read: broken, or nested deeper than MAX_DEPTH (one line)."""


_KEEP = b"[]{}"
_DROP = bytes(i for i in range(256) if i not in _KEEP)
_SQUARE = bytes.maketrans(b"{}", b"[]")
_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]', re.S)


def _too_deep(text: str, limit: int) -> bool:
    """Does a bracket nest deeper than `limit` outside strings? Linear passes in C only: escapes out,
    strings out (every other piece between quotes), brackets only, then the innermost pairs peeled
    off one level per pass (at most `limit` passes, each on what is left)."""
    if text.count("[") + text.count("{") <= limit:
        return False
    plain = text.replace("\\\\", "").replace('\\"', "")  # outside strings JSON has no backslash
    s = "".join(plain.split('"')[0::2]).encode("ascii", "ignore").translate(_SQUARE, _DROP)
    if b"[" * (limit + 1) in s:
        return True
    for _ in range(limit):
        t = s.replace(b"[]", b"")
        if t == s or not t:
            return False  # all peeled, or unbalanced (broken JSON: the parser says where)
        s = t
    return b"[]" in s


def _deep_pos(text: str, limit: int) -> int:
    depth = 0
    for m in _TOKEN.finditer(text):
        c = m.group(0)
        if c in "[{":
            depth += 1
            if depth > limit:
                return m.start()
        elif c in "]}":
            depth -= 1
    return 0


def loads(text: Union[str, bytes], *, max_depth: int = MAX_DEPTH) -> Any:
    """json.loads that refuses JSON nested deeper than `max_depth` (JsonError, a JSONDecodeError)."""
    if isinstance(text, (bytes, bytearray)):
        text = bytes(text).decode("utf-8-sig")
    if _too_deep(text, max_depth):
        raise JsonError(f"nested deeper than {max_depth} levels", text, _deep_pos(text, max_depth))
    try:
        return json.loads(text)
    except RecursionError:
        raise JsonError(f"nested deeper than {max_depth} levels", text, _deep_pos(text, max_depth)) from None


def read_json(path: PathLike, *, limit: int = MAX_BYTES, max_depth: int = MAX_DEPTH) -> Any:
    """A JSON file (UTF-8, a byte-order mark allowed), at most `limit` bytes: OSError, UnicodeError
    or JsonError (a ValueError) otherwise."""
    with open(path, "rb") as fh:
        raw = fh.read(limit + 1)
    if len(raw) > limit:
        raise OSError(errno.EFBIG, f"{os.fspath(path)} is larger than {limit >> 20} MiB")
    return loads(raw.decode("utf-8-sig"), max_depth=max_depth)
