"""File operations that never follow what another user could have planted.

Root edits files in folders a user owns (`~/.bashrc` with HOME kept by `sudo -E`), and a user
can replace any entry of a folder they own between two system calls. So every path is walked one
component at a time from "/" with directory file descriptors (openat), and:

- a symbolic link is followed only when it sits in a *trusted* folder (owned by root or by us,
  writable by nobody else) and belongs to root or to us; otherwise only when it ends at a file
  owned by the very user who controls the folder it was found in (that user could change that
  file anyway);
- a file reached through a folder another user controls must belong to that user (no hard link
  to /etc/shadow), and a new file there is given to that user;
- writes go to an exclusive, no-follow temporary file with a random name in the same folder
  (O_CREAT|O_EXCL|O_NOFOLLOW), fsync'd, given the old file's owner, group and mode, then renamed
  over the target; nothing is ever written through a name someone else chose.

Without root (`os.geteuid() != 0`) the same code runs; "trusted" then means owned by root or us.
"""
from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass
from typing import Optional

from app import fileio

MAX_LINKS = 40
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
SUPPORTED = hasattr(os, "O_NOFOLLOW") and os.open in getattr(os, "supports_dir_fd", set())


class UnsafePath(Exception):
    """A path root will not use (a planted link, a folder anyone can change...). One line."""

    def __init__(self, code: int, message: str):
        super().__init__(message)
        self.errno = code


def _euid() -> int:
    return os.geteuid() if hasattr(os, "geteuid") else 0


def _trusted_dir(st: os.stat_result) -> bool:
    """Only root or we can change what this folder holds (a sticky folder keeps others' entries apart)."""
    if st.st_uid not in (0, _euid()):
        return False
    if st.st_mode & 0o022 and not st.st_mode & stat.S_ISVTX:
        return False
    return True


@dataclass
class Located:
    """Where a path ends: a folder fd, the last name in it, and who controls the folder chain."""

    dir_fd: int
    name: str
    path: str  # the real path (links resolved)
    owner: Optional[int]  # uid of the first folder on the way that someone other than root/us controls
    sticky: bool = False  # the last folder is a sticky, world-writable one (/tmp)

    def close(self) -> None:
        try:
            os.close(self.dir_fd)
        except OSError:
            pass

    def __enter__(self) -> "Located":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _split(path: str) -> list[str]:
    if not os.path.isabs(path):
        raise UnsafePath(errno.EINVAL, f"not an absolute path: {path!r}")
    parts = [p for p in path.split("/") if p and p != "."]
    if ".." in parts:
        raise UnsafePath(errno.EINVAL, f"'..' in {path!r}")
    return parts


def locate(path: str, *, create_dirs: bool = False, dir_mode: int = 0o755, follow_last: bool = True,
           _depth: int = 0) -> Located:
    """Walk to the folder holding `path` without following an untrusted link. With follow_last, a
    link as the last component is resolved under the same rules (files are edited where they are)."""
    if not SUPPORTED:  # Windows: no openat; plain paths (the helper there runs with its own ACLs)
        raise UnsafePath(errno.ENOSYS, "safe path walking needs openat (POSIX)")
    parts = _split(path)
    if not parts:
        raise UnsafePath(errno.EINVAL, "the root folder is not a file")
    links = _depth
    fd = os.open("/", os.O_RDONLY | _DIRECTORY | _CLOEXEC)
    done: list[str] = []
    owner: Optional[int] = None
    try:
        i = 0
        while i < len(parts) - 1:
            name = parts[i]
            here = os.fstat(fd)
            try:
                st = os.stat(name, dir_fd=fd, follow_symlinks=False)
            except FileNotFoundError:
                if not create_dirs:
                    raise
                os.mkdir(name, dir_mode, dir_fd=fd)
                if owner is not None and _euid() == 0:
                    os.chown(name, owner, here.st_gid, dir_fd=fd, follow_symlinks=False)
                st = os.stat(name, dir_fd=fd, follow_symlinks=False)
            if stat.S_ISLNK(st.st_mode):
                links += 1
                if links > MAX_LINKS:
                    raise UnsafePath(errno.ELOOP, f"too many symbolic links in {path}")
                where = "/" + "/".join(done + [name])
                if not (_trusted_dir(here) and st.st_uid in (0, _euid())):
                    raise UnsafePath(errno.EPERM, f"{where} is a symbolic link in a folder another user can change; "
                                                  "not following it")
                target = os.readlink(name, dir_fd=fd)
                new = os.path.normpath(os.path.join("/" + "/".join(done), target))
                parts = _split(new) + parts[i + 1:]
                os.close(fd)
                fd = os.open("/", os.O_RDONLY | _DIRECTORY | _CLOEXEC)
                done, i = [], 0
                continue
            if not stat.S_ISDIR(st.st_mode):
                raise UnsafePath(errno.ENOTDIR, f"/{'/'.join(done + [name])} is not a folder")
            nfd = os.open(name, os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC, dir_fd=fd)
            nst = os.fstat(nfd)
            if (nst.st_dev, nst.st_ino) != (st.st_dev, st.st_ino):
                os.close(nfd)
                raise UnsafePath(errno.EAGAIN, f"/{'/'.join(done + [name])} changed while it was opened")
            if owner is None and not _trusted_dir(nst):
                if nst.st_uid in (0, _euid()):  # ours, but group/world-writable without the sticky bit
                    os.close(nfd)
                    raise UnsafePath(errno.EPERM, f"/{'/'.join(done + [name])} can be changed by other users; "
                                                  "not editing files there")
                owner = nst.st_uid
            os.close(fd)
            fd = nfd
            done.append(name)
            i += 1
        here = os.fstat(fd)
        loc = Located(fd, parts[-1], "/" + "/".join(parts), owner,
                      bool(here.st_mode & stat.S_ISVTX and here.st_mode & 0o002))
        if not follow_last:
            return loc
        inner = _follow_last(loc, path, links)
        if inner is not loc:
            os.close(fd)
        return inner
    except BaseException:
        try:
            os.close(fd)
        except OSError:
            pass
        raise


def _follow_last(loc: Located, path: str, links: int) -> Located:
    """Where a link as the last component leads, under the same rules (loc itself when it is no link)."""
    try:
        st = os.stat(loc.name, dir_fd=loc.dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        return loc
    if not stat.S_ISLNK(st.st_mode):
        return loc
    if links + 1 > MAX_LINKS:
        raise UnsafePath(errno.ELOOP, f"too many symbolic links in {path}")
    target = os.readlink(loc.name, dir_fd=loc.dir_fd)
    new = os.path.normpath(os.path.join(os.path.dirname(loc.path), target))
    trusted_link = loc.owner is None and st.st_uid in (0, _euid())
    inner = locate(new, follow_last=True, _depth=links + 1)
    if not trusted_link:
        # a link someone else controls: follow it only to a file that same person owns
        controller = loc.owner if loc.owner is not None else st.st_uid
        tst = lstat_at(inner)
        if tst is None or not stat.S_ISREG(tst.st_mode) or tst.st_uid != controller:
            inner.close()
            raise UnsafePath(errno.EPERM, f"{loc.path} is a symbolic link another user controls, to "
                                          f"{inner.path}, which is not that user's own file; not following it")
        inner.owner = controller if inner.owner is None else inner.owner
    return inner


def lstat_at(loc: Located) -> Optional[os.stat_result]:
    try:
        return os.stat(loc.name, dir_fd=loc.dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        return None


def check_owner(loc: Located, st: Optional[os.stat_result]) -> None:
    """A file in a folder another user controls must be that user's (never a hard link to root's file)."""
    if st is None:
        return
    if loc.owner is None and loc.sticky and st.st_uid not in (0, _euid()):
        raise UnsafePath(errno.EPERM, f"{loc.path} belongs to uid {st.st_uid} in a folder everyone can write; "
                                      "not touching it")
    if loc.owner is not None and st.st_uid != loc.owner:
        raise UnsafePath(errno.EPERM, f"{loc.path} belongs to uid {st.st_uid} but sits in a folder uid {loc.owner} "
                                      "controls; not touching it")


def read_at(loc: Located, limit: int = 64 << 20) -> bytes:
    fd = os.open(loc.name, os.O_RDONLY | _NOFOLLOW | _CLOEXEC | getattr(os, "O_NONBLOCK", 0), dir_fd=loc.dir_fd)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise UnsafePath(errno.EINVAL, f"{loc.path} is not a regular file")
        chunks, total = [], 0
        while True:
            b = os.read(fd, 1 << 20)
            if not b:
                break
            total += len(b)
            if total > limit:
                raise UnsafePath(errno.EFBIG, f"{loc.path} is larger than {limit >> 20} MiB")
            chunks.append(b)
        return b"".join(chunks)
    finally:
        os.close(fd)


def write_at(loc: Located, data: bytes, mode: int, uid: Optional[int] = None, gid: Optional[int] = None) -> None:
    """Atomically replace loc.name with `data` (app.fileio's writer on the walked folder: exclusive
    no-follow temp file, owner and mode set on the descriptor, fsync, rename, folder fsync)."""
    fileio.write_atomic("", data, mode=mode, uid=uid, gid=gid, dir_fd=loc.dir_fd, name=loc.name, keep_mode=False)


def symlink_at(loc: Located, target: str, uid: Optional[int] = None, gid: Optional[int] = None) -> None:
    """Atomically make loc.name a symbolic link to `target` (the link itself, never a copy)."""
    for _ in range(8):
        tmp = fileio.temp_name(loc.name)
        try:
            os.symlink(target, tmp, dir_fd=loc.dir_fd)
            break
        except FileExistsError:
            continue
    else:
        raise UnsafePath(errno.EEXIST, f"cannot create a temporary link beside {loc.path}")
    try:
        if (uid is not None or gid is not None) and _euid() == 0:
            os.chown(tmp, -1 if uid is None else uid, -1 if gid is None else gid, dir_fd=loc.dir_fd,
                     follow_symlinks=False)
        os.replace(tmp, loc.name, src_dir_fd=loc.dir_fd, dst_dir_fd=loc.dir_fd)
    except BaseException:
        try:
            os.unlink(tmp, dir_fd=loc.dir_fd)
        except OSError:
            pass
        raise
    fileio.fsync_dir(loc.dir_fd)


def unlink_at(loc: Located) -> None:
    os.unlink(loc.name, dir_fd=loc.dir_fd)  # removes a link itself, never its target
    fileio.fsync_dir(loc.dir_fd)
