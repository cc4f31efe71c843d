"""How sudo starts the privileged helper without root ever running a file a user can write.

sudo runs a root-owned interpreter, `/usr/bin/python3 -I -B -c SOURCE`, where SOURCE is this module's
own text, given in argv (so it is fixed when sudo authorises it, and the sudo log shows it). As root
it first leaves the terminal's signals (Ctrl-C, a closed terminal or a killed wizard never stop a
root step half-way: the helper ends when its steps end), then reads one JSON line on stdin, the
helper's files as the wizard read them ({"src": FOLDER, "files": {"app/x.py": sha256}}), copies each
into a new folder only root can write (/run/gpu-wizard/helper-PID-XXXX, every file created with
O_CREAT|O_EXCL|O_NOFOLLOW), hashes the copies and compares them with the list, and only then imports
app.run.privileged from that folder and serves. The source files are data until their copies check
out; a file changed during the copy, a link, a device or a missing file stops it with one line.

Standard library only, and no import from app: this text runs before any of app is trusted.
The wizard side (`manifest`, `boot_argv`, `root_python`) lives here too, so the two halves never drift.

Root's own checks read the network (a runfile's checksum list from NVIDIA): the pure-Python HTTP
packages the wizard uses (LIBS) travel the same way, copied and checked into the folder's lib/, which
goes at the end of sys.path (after the standard library and the system's own packages, never before).
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import signal
import stat
import sys
from typing import Optional

# No import from app here, not even app.fileio: this text runs as root before any of app is copied
# and checked (tests/unit/test_run_rootboot.py holds it to the standard library).
RUN_BASE = "/run/gpu-wizard"  # root's own folder for the checked copies (tmpfs: gone at the next boot)
MAX_FILES = 2000
MAX_FILE_BYTES = 4 << 20
MAX_MANIFEST_BYTES = 1 << 22
_REL = re.compile(r"^app(/[A-Za-z0-9_]+)*/[A-Za-z0-9_]+\.py$")
LIBS = ("requests", "urllib3", "idna", "certifi", "charset_normalizer", "truststore")
_LIB_REL = re.compile(r"^(" + "|".join(LIBS) + r")(/[A-Za-z0-9_]+)*/[A-Za-z0-9_]+\.(py|pem)$")
_SHA = re.compile(r"^[0-9a-f]{64}$")
_DETACH = ("SIGINT", "SIGHUP", "SIGTERM", "SIGQUIT", "SIGTSTP", "SIGTTIN", "SIGTTOU")


class BootError(Exception):
    """The helper's files could not be copied and checked (one line)."""


def _ignore(_sig, _frame) -> None:
    """A handler, not SIG_IGN: the commands the helper starts get the default signals back on exec."""


def detach_from_terminal() -> None:
    """The terminal's and sudo's relayed signals no longer stop the helper, and it drops the
    controlling terminal it inherited (sudo asked there). A root step then ends by itself."""
    for name in _DETACH:
        sig = getattr(signal, name, None)
        if sig is not None:
            try:
                signal.signal(sig, _ignore)
            except (OSError, ValueError):  # not the main thread, or not on this OS
                pass
    try:
        import fcntl
        import termios

        fd = os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY)
        try:
            fcntl.ioctl(fd, termios.TIOCNOTTY)
        finally:
            os.close(fd)
    except (OSError, ImportError, AttributeError):
        pass  # no controlling terminal (pkexec, a window): nothing to leave


# --- root side ------------------------------------------------------------------------------------

def _read_manifest(stream) -> tuple[str, dict[str, str]]:
    src, files, _ = read_request(stream)
    return src, files


def read_request(stream) -> tuple[str, dict[str, str], list[tuple[str, dict[str, str]]]]:
    """The first line: the helper's files and the packages beside them, checked for shape."""
    line = stream.readline(MAX_MANIFEST_BYTES)
    try:
        spec = json.loads(line)  # one line, at most MAX_MANIFEST_BYTES; a too-deep one is RecursionError
        src, files = spec["src"], spec["files"]
    except (ValueError, KeyError, TypeError, RecursionError):
        raise BootError("the wizard sent no usable list of the helper's files") from None
    if not isinstance(src, str) or not os.path.isabs(src) or not isinstance(files, dict) or not files:
        raise BootError("the wizard sent no usable list of the helper's files")
    if len(files) > MAX_FILES:
        raise BootError(f"too many helper files ({len(files)})")
    for rel, sha in files.items():
        if not isinstance(rel, str) or not _REL.match(rel) or not isinstance(sha, str) or not _SHA.match(sha):
            raise BootError(f"not a helper file: {str(rel)[:80]!r}")
    if "app/run/privileged.py" not in files:
        raise BootError("the helper's own module is not in the list")
    return src, files, _read_libs(spec)


def _read_libs(spec: dict) -> list[tuple[str, dict[str, str]]]:
    libs = spec.get("libs") or []
    if not isinstance(libs, list) or len(libs) > len(LIBS):
        raise BootError("the wizard sent no usable list of the helper's packages")
    out = []
    for lib in libs:
        src, files = (lib.get("src"), lib.get("files")) if isinstance(lib, dict) else (None, None)
        if not isinstance(src, str) or not os.path.isabs(src) or not isinstance(files, dict) or len(files) > MAX_FILES:
            raise BootError("the wizard sent no usable list of the helper's packages")
        for rel, sha in files.items():
            if not isinstance(rel, str) or not _LIB_REL.match(rel) or not isinstance(sha, str) or not _SHA.match(sha):
                raise BootError(f"not a helper package file: {str(rel)[:80]!r}")
        out.append((src, files))
    return out


def _root_only_dir(path: str) -> None:
    st = os.lstat(path)
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != 0 or st.st_mode & 0o022:
        raise BootError(f"{path} is not a folder only root can write")


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def _make_root_dir(base: str = RUN_BASE) -> str:
    """A new folder only root can write, under `base` (made 0700 when missing; every parent
    root-owned and not writable by others). Copies left by a helper that was killed go first."""
    import shutil
    import tempfile

    parent = os.path.dirname(base)
    while True:
        _root_only_dir(parent)
        if parent == "/":
            break
        parent = os.path.dirname(parent)
    try:
        os.mkdir(base, 0o700)
    except FileExistsError:
        pass
    _root_only_dir(base)
    os.chmod(base, 0o700)
    for name in os.listdir(base):
        m = re.fullmatch(r"helper-(\d+)-[A-Za-z0-9_]+", name)
        if m and not _pid_alive(int(m.group(1))):
            shutil.rmtree(os.path.join(base, name), ignore_errors=True)
    return tempfile.mkdtemp(prefix=f"helper-{os.getpid()}-", dir=base)


def _sha256_fd(fd: int, limit: int = MAX_FILE_BYTES) -> tuple[str, bytes]:
    chunks, size = [], 0
    while True:
        b = os.read(fd, 1 << 16)
        if not b:
            break
        size += len(b)
        if size > limit:
            raise BootError("a helper file is larger than expected")
        chunks.append(b)
    data = b"".join(chunks)
    return hashlib.sha256(data).hexdigest(), data


def copy_checked(src: str, files: dict[str, str], dest: str) -> None:
    """Copy each listed file from `src` into `dest` (new files only), then check every copy's
    sha256 against the list. Raises BootError naming the first file that does not match."""
    for rel in sorted(files):
        sfd = -1
        try:
            sfd = os.open(os.path.join(src, rel), os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
            if not stat.S_ISREG(os.fstat(sfd).st_mode):
                raise BootError(f"{rel} is not a plain file")
            _, data = _sha256_fd(sfd)
        except OSError as e:
            raise BootError(f"cannot read {os.path.join(src, rel)}: {e.strerror}") from None
        finally:
            if sfd >= 0:
                os.close(sfd)
        target = os.path.join(dest, rel)
        os.makedirs(os.path.dirname(target), mode=0o700, exist_ok=True)
        dfd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(dfd, view):]
        finally:
            os.close(dfd)
    for rel, want in files.items():  # the copies, not the sources: what root imports is what was checked
        fd = os.open(os.path.join(dest, rel), os.O_RDONLY | os.O_NOFOLLOW)
        try:
            got, _ = _sha256_fd(fd)
        finally:
            os.close(fd)
        if got != want:
            raise BootError(f"{os.path.join(src, rel)} changed while root copied it; nothing was run")


def boot(stdin=None) -> int:
    """Root's first code under sudo: detach, copy and check the helper, then serve."""
    import shutil

    detach_from_terminal()
    os.chdir("/")
    os.umask(0o022)
    say = sys.stderr.write
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        say("gpu-wizard-helper: must run as root (through sudo)\n")
        return 2
    if sys.version_info < (3, 10):
        say(f"gpu-wizard-helper: {sys.executable} is Python {sys.version.split()[0]}; the helper needs 3.10 or newer\n")
        return 2
    dest = ""
    try:
        src, files, libs = read_request(stdin or sys.stdin)
        dest = _make_root_dir()
        copy_checked(src, files, dest)
        if libs:
            os.mkdir(os.path.join(dest, "lib"), 0o700)
        for lib_src, lib_files in libs:
            copy_checked(lib_src, lib_files, os.path.join(dest, "lib"))
    except (BootError, OSError) as e:
        if dest:
            shutil.rmtree(dest, ignore_errors=True)
        say(f"gpu-wizard-helper: {e}\n")
        return 2
    sys.path.insert(0, dest)
    sys.path.append(os.path.join(dest, "lib"))  # last: never in place of the standard library
    try:
        from app.run.privileged import main

        return main([])
    finally:
        shutil.rmtree(dest, ignore_errors=True)


# --- wizard side ----------------------------------------------------------------------------------

def payload_root() -> str:
    """The folder that holds the helper's `app/` sources: the checkout, or the bundle's copy."""
    meipass = getattr(sys, "_MEIPASS", None)
    if getattr(sys, "frozen", False) and meipass:
        return os.path.join(meipass, "helper-src")
    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def manifest(root: str) -> dict[str, str]:
    """Every .py file of root/app (relative path → sha256), as root will copy and check them."""
    out: dict[str, str] = {}
    base = os.path.join(root, "app")
    for d, dirs, names in os.walk(base):
        dirs[:] = sorted(x for x in dirs if x != "__pycache__" and not x.startswith("."))
        for n in sorted(names):
            if n.endswith(".py"):
                p = os.path.join(d, n)
                with open(p, "rb") as fh:
                    out[os.path.relpath(p, root).replace(os.sep, "/")] = hashlib.sha256(fh.read()).hexdigest()
    return out


def _lib_files(pkg_dir: str, name: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for d, dirs, names in os.walk(pkg_dir):
        dirs[:] = sorted(x for x in dirs if x not in ("__pycache__", "tests") and not x.startswith("."))
        for n in sorted(names):
            rel = os.path.relpath(os.path.join(d, n), os.path.dirname(pkg_dir)).replace(os.sep, "/")
            if _LIB_REL.match(rel):
                with open(os.path.join(d, n), "rb") as fh:
                    out[rel] = hashlib.sha256(fh.read()).hexdigest()
    return out


def lib_manifest(root: str) -> list[dict]:
    """The HTTP packages root's checks need, where this wizard has them: the bundle's copy beside
    app/ (root/lib), else the folders this interpreter imports them from."""
    import importlib.util

    groups: dict[str, dict[str, str]] = {}
    for name in LIBS:
        local = os.path.join(root, "lib", name)
        if os.path.isdir(local):
            pkg = local
        else:
            try:
                spec = importlib.util.find_spec(name)
            except (ImportError, ValueError):
                spec = None
            locs = list(spec.submodule_search_locations or []) if spec is not None else []
            if not locs or not os.path.isdir(locs[0]):
                continue
            pkg = locs[0]
        groups.setdefault(os.path.dirname(pkg), {}).update(_lib_files(pkg, name))
    return [{"src": src, "files": files} for src, files in groups.items() if files]


def manifest_line(root: Optional[str] = None) -> str:
    root = root or payload_root()
    return json.dumps({"src": root, "files": manifest(root), "libs": lib_manifest(root)}) + "\n"


def boot_source(root: Optional[str] = None) -> str:
    with open(os.path.join(root or payload_root(), "app", "run", "rootboot.py"), encoding="utf-8") as fh:
        return fh.read()


def trusted(path: str) -> bool:
    """Root-owned, not writable by group or others, and so is every folder above it."""
    try:
        p = os.path.realpath(path)
        st = os.stat(p)
        if st.st_uid != 0 or st.st_mode & 0o022:
            return False
        d = os.path.dirname(p)
        while True:
            ds = os.stat(d)
            if ds.st_uid != 0 or ds.st_mode & 0o022:
                return False
            if d == "/":
                return True
            d = os.path.dirname(d)
    except OSError:
        return False


ROOT_PYTHONS = ("/usr/bin/python3", "/usr/bin/python3.13", "/usr/bin/python3.12", "/usr/bin/python3.11",
                "/usr/bin/python3.10", "/usr/local/bin/python3")


def root_python(candidates=ROOT_PYTHONS) -> Optional[str]:
    """The system's own Python 3.10+ that root may run: root-owned, in root-owned folders."""
    import subprocess

    for c in candidates:
        if not trusted(c):
            continue
        try:
            r = subprocess.run([c, "-I", "-c", "import sys; print(int(sys.version_info >= (3, 10)))"],
                               capture_output=True, text=True, timeout=20)
        except (OSError, subprocess.SubprocessError):
            continue
        if r.stdout.strip() == "1":
            return c
    return None


def boot_argv(python: str, root: Optional[str] = None) -> list[str]:
    """What sudo runs: the root-owned interpreter, isolated (-I: no PYTHON* variables, no user
    site, not the current folder), writing no bytecode, on this module's text."""
    return [python, "-I", "-B", "-c", boot_source(root)]


if __name__ == "__main__":  # `python3 -I -B -c SOURCE`: the root side
    raise SystemExit(boot())
