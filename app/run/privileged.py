"""Privileged steps: one helper process, started once per run, speaking JSON lines.

The wizard (GUI or CLI) never runs as root. Steps that need root go as data to a helper started
with pkexec (our polkit action, on a desktop), with sudo and an askpass program (WSL, SSH: no
polkit agent), or run in-process when the wizard already is root. The helper accepts only the
step kinds the wizard knows (app.plan.model.STEP_KINDS) and checks every argv and every edited
path against that kind's allow-list below; downloaded files are copied into a root-owned folder
and their sha256 checked again before a root command may use them. No password passes through
the wizard: pkexec and sudo ask for it themselves.

On Windows the helper (gpu-wizard-helper.exe) is started elevated through UAC for each root
request instead, and speaks through files: `--request FILE --result FILE` (see run_request_file).

Protocol (one JSON object per line):
  wizard → helper  {"id": 1, "op": "run", "kind": "install_toolkit", "argv": [...], "env": {...},
                    "timeout_s": 600, "files": {"@download:x.deb": {"path": "...", "sha256": "..."}}}
                   {"id": 2, "op": "edit", "kind": "write_env", "edit": {Edit}, "session": "<name>"}
                   {"id": 3, "op": "restore", "session": "<name>", "paths": [...] | null}
                   {"id": 1, "op": "cancel"}   {"op": "quit"}
  helper → wizard  {"event": "ready", "uid": 0}
                   {"id": 1, "event": "line", "stream": "stdout", "text": "...", "final": true}
                   {"id": 1, "event": "progress", "fraction": 0.4, "message": "..."}
                   {"id": 1, "event": "done", "rc": 0, "timed_out": false, "cancelled": false, "error": null, "tail": [...]}
                   {"id": 2, "event": "edited", "record": {...}}   {"id": n, "event": "refused", "message": "..."}
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import stat
import sys
import tempfile
import threading
import time
from typing import Any, Callable, Optional, Sequence

from app import fileio
from app.plan.model import STEP_KINDS, Edit

from . import rootfiles, safefs
from .edits import EditError, EditRecord, RestoreReport, apply_edit, restore
from .policy import PolicyError
from .runner import CancelToken, CommandOutcome, Line, Progress, run_command

ROOT_BACKUPS = "/var/lib/gpu-wizard/backups"
INSTALLED_HELPER = "/usr/lib/gpu-wizard/gpu-wizard-helper"
POLKIT_ACTION = "org.gpuwizard.helper"


# --- allow-lists -------------------------------------------------------------------------

_NVIDIA_PKG = re.compile(
    r"^(cuda[a-z0-9.+-]*|nvidia-[a-z0-9.+:-]+|libnvidia-[a-z0-9.+-]+|libcudnn[a-z0-9.+-]*|cudnn[a-z0-9.+-]*"
    r"|libcu[a-z]+[a-z0-9.+-]*|libnpp[a-z0-9.+-]*|libnvjpeg[a-z0-9.+-]*|libnvjitlink[a-z0-9.+-]*|libnvrtc[a-z0-9.+-]*"
    r"|nsight-[a-z0-9.+-]+|linux-headers-[a-z0-9.+-]+|kernel-devel(-[a-z0-9._+-]+)?|kernel-headers(-[a-z0-9._+-]+)?|dkms)$")
_CUDA_DIR = re.compile(r"^/(usr/local|opt)/cuda-\d+(\.\d+){0,2}$")
_PYTHON_TOOLS_PKG = re.compile(r"^python3(\.[0-9]{1,2})?-(venv|pip)$")  # Debian/Ubuntu's ensurepip and pip
_APT_OPTS = {"-y", "-q", "-qq", "--no-install-recommends", "--allow-downgrades"}
_URL = re.compile(r"^(https|http|file)://[A-Za-z0-9._~:/?#@!$&'()*+,;=%-]+$")
_STREAM = re.compile(r"^nvidia-driver:[a-z0-9.-]+$")
# a Linux driver's libraries left inside WSL 2 (app/plan/wsl.py deletes them, backed up)
_STRAY_DRIVER_LIB = re.compile(r"^/usr/lib(64)?(/[a-z0-9_-]+)?/lib(cuda|nvidia-[a-z-]+)\.so(\.[0-9]+)*$")
_WSL_LINKS = "/usr/local/lib/wsl-driver-links"
_WSL_LIB = "/usr/lib/wsl/lib"
_WIN_FEATURES = {"/featurename:Microsoft-Windows-Subsystem-Linux", "/featurename:VirtualMachinePlatform"}

EDIT_PATHS: dict[str, tuple[re.Pattern, ...]] = {
    "set_repo_mirror": (re.compile(r"^/etc/apt/sources\.list\.d/cuda-[a-z0-9._-]+\.list$"),),
    "add_repo": (re.compile(r"^/etc/yum\.repos\.d/cuda-[a-z0-9._-]+\.repo$"),),
    "blacklist_nouveau": (re.compile(r"^/etc/modprobe\.d/blacklist-nouveau\.conf$"),),
    "write_env": (re.compile(r"^/etc/profile\.d/cuda\.sh$"), re.compile(r"^/etc/ld\.so\.conf\.d/000-gpu-wizard-cuda\.conf$")),
    "cleanup_cuda": (re.compile(r"^/etc/ld\.so\.conf\.d/[A-Za-z0-9._-]+\.conf$"), re.compile(r"^/etc/environment$"),
                     re.compile(r"^/etc/profile\.d/[A-Za-z0-9._-]+\.sh$"), re.compile(r"^/etc/(bash\.bashrc|profile)$"),
                     re.compile(r"^/root/\.(bashrc|profile|bash_profile|zshrc)$")),
    "wsl_fix": (re.compile(r"^/etc/ld\.so\.conf\.d/[A-Za-z0-9._-]+\.conf$"), re.compile(r"^/etc/wsl\.conf$"),
                re.compile(r"^/var/lib/gpu-wizard/[A-Za-z0-9._-]+\.txt$"), _STRAY_DRIVER_LIB),
}
# cleanup only removes lines or whole CUDA files, it never writes new content
_EDIT_MODES = {"cleanup_cuda": {"remove_lines", "delete"}}
_EDIT_DELETE_ONLY = (_STRAY_DRIVER_LIB,)
_ENV_ALLOWED = {"DEBIAN_FRONTEND", "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "no_proxy",
                "SSL_CERT_FILE", "REQUESTS_CA_BUNDLE"}
_ENV_PATHS = {"SSL_CERT_FILE", "REQUESTS_CA_BUNDLE"}  # must name an existing file by a clean absolute path


# the diagnosis's fixes (app/diagnose): exactly these packages, engines and kernel versions
_CTK_PKGS = frozenset({"nvidia-container-toolkit", "nvidia-container-toolkit-base", "libnvidia-container-tools", "libnvidia-container1"})
_CONTAINER_ENGINES = frozenset({"docker", "containerd", "crio"})
_KVER = re.compile(r"^[0-9][A-Za-z0-9._+~-]{0,80}$")
_HEADERS_PKG = re.compile(r"^linux-headers-[0-9][a-z0-9.+~-]{0,80}$")
_KERNEL_DEVEL_PKG = re.compile(r"^kernel-devel(-[0-9][A-Za-z0-9._+~-]{0,80})?$")


def _apt_exact(argv: Sequence[str], subcommand: str, names: Optional[frozenset] = None,
               pattern: Optional[re.Pattern] = None) -> bool:
    """apt-get <subcommand> with only -y/-q/--no-install-recommends and packages that are all in
    `names` (or all match `pattern`): a narrower list than the NVIDIA-package one."""
    rest = [a for a in argv[1:] if a not in ("-y", "-q", "-qq", "--no-install-recommends")]
    if len(rest) < 2 or rest[0] != subcommand:
        return False
    return all((names is not None and a in names) or (pattern is not None and bool(pattern.match(a))) for a in rest[1:])


def _pkgs(args: Sequence[str]) -> bool:
    return bool(args) and all(_NVIDIA_PKG.match(a) for a in args)


_APT_CAINFO = re.compile(r"^Acquire::https::CaInfo=/[A-Za-z0-9._/+-]+$")  # the user's CA bundle (proxy with TLS inspection)


def _apt(argv: Sequence[str], subcommands: set[str], packages: re.Pattern = _NVIDIA_PKG) -> bool:
    args, rest = list(argv[1:]), []
    while args:  # "-o" only with Acquire::https::CaInfo=<absolute path>; any other apt option is refused
        a = args.pop(0)
        if a == "-o":
            if not args or not _APT_CAINFO.match(args[0]) or "/.." in args[0]:
                return False
            args.pop(0)
        elif a not in _APT_OPTS:
            rest.append(a)
    if not rest or rest[0] not in subcommands:
        return False
    if rest[0] == "update":
        return len(rest) == 1
    return bool(rest[1:]) and all(packages.match(a) for a in rest[1:])


def _dnf(argv: Sequence[str], allowed: set[str]) -> bool:
    rest = [a for a in argv[1:] if a != "-y"]
    if not rest:
        return False
    if rest[0] == "makecache":
        return "makecache" in allowed and len(rest) == 1
    if rest[:2] == ["module", "install"]:
        return "module" in allowed and len(rest) == 3 and bool(_STREAM.match(rest[2]))
    if rest[0] == "config-manager":
        if "config-manager" not in allowed or len(rest) != 3:
            return False
        url = rest[2][len("--from-repofile="):] if rest[1] == "addrepo" and rest[2].startswith("--from-repofile=") else \
            (rest[2] if rest[1] == "--add-repo" else "")
        # a .repo file fetched from elsewhere could say gpgcheck=0: only NVIDIA's own, over https
        return bool(re.fullmatch(r"https://developer\.download\.nvidia\.com/compute/cuda/repos/[a-z0-9]+/[a-z0-9_]+/"
                                 r"cuda-[a-z0-9]+\.repo", url))
    return rest[0] in allowed and _pkgs(rest[1:])


def _download_arg(a: str, files: frozenset[str]) -> bool:
    return a in files


def argv_allowed(kind: str, argv: Sequence[str], files: frozenset[str] = frozenset()) -> bool:
    """The allow-list: may a root step of `kind` run `argv`? `files` are the verified downloads."""
    argv = [str(a) for a in argv]
    if not argv:
        return False
    prog = argv[0]
    n = len(argv)
    if prog == "ldconfig":
        return n == 1 and kind in ("write_env", "cleanup_cuda", "wsl_fix")
    if kind == "repair_packages":
        return list(argv) == ["dpkg", "--configure", "-a"]
    if kind == "update_index":
        return (prog == "apt-get" and _apt(argv, {"update"})) or (prog == "dnf" and _dnf(argv, {"makecache"}))
    if kind == "install_python_tools":
        return prog == "apt-get" and _apt(argv, {"update", "install"}, _PYTHON_TOOLS_PKG)
    if kind == "install_driver" and prog == "dnf":
        # NVIDIA's guide for RHEL 10 / Fedora: lock the branch (dnf versionlock add *nvidia*<branch>*) before installing
        if list(argv) in (["dnf", "-y", "install", "python3-dnf-plugin-versionlock"], ["dnf", "-y", "install", "dnf-plugin-versionlock"]):
            return True
        if len(argv) == 5 and argv[1:4] == ["-y", "versionlock", "add"] and re.fullmatch(r"\*nvidia\*\d{3}\*", argv[4]):
            return True
    if kind in ("install_driver", "install_toolkit", "install_cudnn"):
        return (prog == "apt-get" and _apt(argv, {"install"})) or \
               (prog == "dnf" and _dnf(argv, {"install"} | ({"module"} if kind == "install_driver" else set())))
    if kind == "add_repo":
        if prog == "dpkg":
            return n == 3 and argv[1] == "-i" and _download_arg(argv[2], files) and argv[2].endswith(".deb")
        return prog == "dnf" and _dnf(argv, {"config-manager"})
    if kind == "blacklist_nouveau":
        return argv in (["update-initramfs", "-u"], ["dracut", "-f"])
    if kind == "run_runfile":
        return (prog == "sh" and n == 5 and _download_arg(argv[1], files) and argv[2:4] == ["--silent", "--toolkit"]
                and bool(re.fullmatch(r"--toolkitpath=/usr/local/cuda-\d+\.\d+", argv[4])))
    if kind == "cleanup_cuda":
        if prog == "apt-get":
            return _apt(argv, {"purge", "remove"})
        if prog == "dnf":
            return _dnf(argv, {"remove"})
        if prog == "rm":
            if list(argv[1:4]) == ["-rf", "--one-file-system", "--"] and n == 5:
                return bool(_CUDA_DIR.match(argv[4]))
            return list(argv) == ["rm", "-f", "--", "/usr/local/cuda"]
        return False
    if kind == "wsl_fix":
        if prog == "apt-get":
            return _apt(argv, {"purge", "remove"})
        if list(argv) == ["mkdir", "-p", _WSL_LINKS]:
            return True
        if list(argv) == ["cp", "-as", "--remove-destination", _WSL_LIB + "/.", _WSL_LINKS + "/"]:
            return True
        if prog == "ln" and n == 4 and argv[1] == "-sfn":
            target, link = argv[2], argv[3]
            ok_target = (target.startswith(_WSL_LIB + "/") and "/.." not in target) or bool(re.fullmatch(r"lib[a-z_]+\.so(\.[0-9]+)*", target))
            return ok_target and bool(re.fullmatch(re.escape(_WSL_LINKS) + r"/lib[a-z_]+\.so(\.[0-9]+)*", link))
        return False
    return _fix_kind_allowed(kind, argv)


def _fix_kind_allowed(kind: str, argv: list[str]) -> bool:
    """The diagnosis's fix kinds and the Windows host's: exactly these packages, engines and commands."""
    prog, n = argv[0], len(argv)
    if kind == "install_container_toolkit":
        if prog == "apt-get":
            return _apt_exact(argv, "install", _CTK_PKGS)
        if prog == "dnf":
            rest = [a for a in argv[1:] if a != "-y"]
            return len(rest) >= 2 and rest[0] == "install" and all(p in _CTK_PKGS for p in rest[1:])
        if prog == "nvidia-ctk":
            return n == 4 and argv[1:3] == ["runtime", "configure"] and argv[3] in {f"--runtime={e}" for e in _CONTAINER_ENGINES}
        return prog == "systemctl" and n == 3 and argv[1] == "restart" and argv[2] in _CONTAINER_ENGINES
    if kind == "rebuild_kernel_module":
        if prog == "apt-get":
            return _apt_exact(argv, "install", None, _HEADERS_PKG)
        if prog == "dnf":
            rest = [a for a in argv[1:] if a != "-y"]
            return len(rest) >= 2 and rest[0] == "install" and all(_KERNEL_DEVEL_PKG.match(p) for p in rest[1:])
        if prog == "dkms":
            return argv[1:] == ["autoinstall"] or (n == 4 and argv[1:3] == ["autoinstall", "-k"] and bool(_KVER.match(argv[3])))
        return False
    if kind == "fix_packages":
        if prog == "apt-mark":
            return n >= 3 and argv[1] == "unhold" and n <= 32 and _pkgs(argv[2:])
        if prog == "dpkg":
            return argv[1:] == ["--configure", "-a"]
        return prog == "apt-get" and n == 4 and sorted(argv[1:]) in (sorted(["install", "-f", "-y"]), sorted(["install", "--fix-broken", "-y"]))
    if kind == "windows_host":
        if prog.lower() in ("dism.exe", "dism"):
            return (n == 6 and argv[1:3] == ["/online", "/enable-feature"] and argv[3] in _WIN_FEATURES
                    and argv[4:] == ["/all", "/norestart"])
        return prog.lower() in ("wsl", "wsl.exe") and list(argv[1:]) == ["--update"]
    return False


def check_run(kind: str, argv: Sequence[str], env: dict[str, str], files: frozenset[str] = frozenset()) -> None:
    if kind not in STEP_KINDS:
        raise PolicyError(f"unknown step kind {kind!r}")
    if not argv_allowed(kind, argv, files):
        raise PolicyError(f"a {kind} step may not run: {' '.join(argv)[:200]}")
    bad = set(env) - _ENV_ALLOWED
    if bad:
        raise PolicyError(f"environment variable(s) not allowed: {', '.join(sorted(bad))}")
    for k in _ENV_PATHS & set(env):
        v = str(env[k])
        if not os.path.isabs(v) or os.path.normpath(v) != v or not os.path.isfile(v):
            raise PolicyError(f"{k} must name an existing CA bundle file: {v!r}")


def check_edit(kind: str, edit: Edit) -> None:
    if kind not in STEP_KINDS:
        raise PolicyError(f"unknown step kind {kind!r}")
    if os.path.normpath(edit.path) != edit.path or not os.path.isabs(edit.path):
        raise PolicyError(f"not a clean absolute path: {edit.path!r}")
    pats = EDIT_PATHS.get(kind, ())
    if not any(p.match(edit.path) for p in pats):
        raise PolicyError(f"a {kind} step may not edit {edit.path}")
    if any(p.match(edit.path) for p in _EDIT_DELETE_ONLY) and edit.mode != "delete":
        raise PolicyError(f"{edit.path} may only be deleted (backed up), never written")
    modes = _EDIT_MODES.get(kind)
    if modes and edit.mode not in modes:
        raise PolicyError(f"a {kind} step may only remove lines from or delete {edit.path}")
    if not edit.backup:
        raise PolicyError("every edit is backed up")


def root_content(kind: str, edit: Edit) -> Optional[str]:
    """The text root writes for a write/append edit, generated here (see app.run.rootfiles)."""
    return rootfiles.content_for(kind, edit)


# --- root-side execution (shared by the helper process and the in-process root backend) -----

def _sha256(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for b in iter(lambda: fh.read(1 << 20), b""):
            h.update(b)
    return h.hexdigest()


def _open_regular(path: str, what: str, follow: bool = False) -> tuple[int, os.stat_result]:
    """An open descriptor of a regular file (never a device, a FIFO, a folder: O_NONBLOCK, then fstat)."""
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0) | (0 if follow else getattr(os, "O_NOFOLLOW", 0))
    try:
        fd = os.open(path, flags)
    except OSError as e:
        raise PolicyError(f"cannot read {what} {path}: {e.strerror}") from None
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        raise PolicyError(f"{what} {path} is not a regular file; root reads no device, FIFO or folder")
    return fd, st


def _copy_fd(fd: int, dst: str, mode: int, limit: Optional[int] = None) -> str:
    """Copy an open file into root's folder (exclusive), returning the copy's sha256."""
    h = hashlib.sha256()
    out = os.open(dst, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), mode)
    try:
        total = 0
        while True:
            b = os.read(fd, 1 << 20)
            if not b:
                break
            total += len(b)
            if limit is not None and total > limit:
                raise PolicyError(f"{dst}: larger than {limit >> 20} MiB")
            h.update(b)
            os.write(out, b)
    finally:
        os.close(out)
    return h.hexdigest()


def prepare_files(files: dict[str, dict[str, str]], workdir: str, argv: Sequence[str] = ()) -> dict[str, str]:
    """Copy each download an argument uses into a root-owned folder and check its sha256 there (the copy's
    own hash, so the file a root command runs is exactly the one checked). An entry no argument uses is
    refused unread; a source that is no regular file (a FIFO, a device, a link) is refused unread.
    Returns placeholder → safe path."""
    used = set(argv)
    out = {}
    for placeholder, spec in files.items():
        src, want = str(spec.get("path") or ""), str(spec.get("sha256") or "").lower()
        if placeholder not in used:
            raise PolicyError(f"files{{}} names {placeholder}, which no argument uses; root reads no file it does not run")
        if not placeholder.startswith("@download:") or not re.fullmatch(r"[0-9a-f]{64}", want):
            raise PolicyError(f"download {placeholder} has no sha256; refusing to use it as root")
        name = os.path.basename(placeholder[len("@download:"):]) or "download"
        dst = os.path.join(workdir, name)
        fd, _ = _open_regular(src, "the download")
        try:
            got = _copy_fd(fd, dst, 0o600)
        except OSError as e:
            raise PolicyError(f"cannot read the download {src}: {e.strerror}") from None
        finally:
            os.close(fd)
        if got != want:
            os.unlink(dst)
            raise PolicyError(f"checksum mismatch for {name}: the file changed after it was verified; refusing")
        out[placeholder] = dst
    return out


_CA_LIMIT = 16 << 20


def ca_copies(argv: Sequence[str], env: dict[str, str], workdir: str) -> tuple[list[str], dict[str, str]]:
    """The CA bundles a root command is told to trust (`-o Acquire::https::CaInfo=`, SSL_CERT_FILE,
    REQUESTS_CA_BUNDLE), each replaced by root's own copy after a check: a regular file everyone may read
    (or the asking user's own: never a root-only file such as /etc/shadow), at most 16 MiB, holding
    certificates and no private key. The copy (0644 in root's 0711 folder: apt reads it as _apt) is what
    the command reads, so the file cannot change between the check and the use."""
    argv, env = list(argv), dict(env)
    n = 0
    for i, a in enumerate(argv):
        if a.startswith("Acquire::https::CaInfo="):
            n += 1
            argv[i] = "Acquire::https::CaInfo=" + _ca_copy(a.split("=", 1)[1], workdir, n)
    for k in sorted(_ENV_PATHS & set(env)):
        n += 1
        env[k] = _ca_copy(env[k], workdir, n)
    return argv, env


def _ca_copy(path: str, workdir: str, n: int) -> str:
    fd, st = _open_regular(path, "the CA bundle", follow=True)
    try:
        who = _invoking_uid()
        if not st.st_mode & 0o004 and not (who is not None and st.st_uid == who and st.st_mode & 0o400):
            raise PolicyError(f"the CA bundle {path} is not readable by everyone; root does not read it for a user")
        dst = os.path.join(workdir, f"ca-bundle-{n}.pem")
        _copy_fd(fd, dst, 0o644, _CA_LIMIT)
    finally:
        os.close(fd)
    with open(dst, "rb") as fh:
        data = fh.read()
    if b"-----BEGIN CERTIFICATE-----" not in data or b"PRIVATE KEY" in data:
        raise PolicyError(f"the CA bundle {path} holds no certificate (or a private key); not used")
    os.chmod(dst, 0o644)
    return dst


# --- provenance: where a file root runs may come from -----------------------------------------
#
# A root command runs a download only when its checksum is published for that exact file name in a
# list the helper got itself: NVIDIA's md5sum.txt beside the runfile's release (fetched from NVIDIA's
# server by the helper, never from an address in the request), a Packages index of a repository root
# accepts (app.run.rootfiles.check_source_url), or a root-owned list in KNOWN_SUMS_DIRS.

NVIDIA_BASE = "https://developer.download.nvidia.com"
KNOWN_SUMS_DIRS = ("/usr/lib/gpu-wizard/checksums", "/etc/gpu-wizard/checksums")
_RUNFILE = re.compile(r"^cuda_(\d+\.\d+\.\d+)_\d+(\.\d+){1,2}_linux(_sbsa|_ppc64le)?\.run$")
_KEYRING = re.compile(r"^cuda-keyring_\d+(\.\d+)*-\d+_all\.deb$")


def _known_sums(name: str, dirs: Sequence[str]) -> list[str]:
    from .downloads import parse_sums

    out = []
    for d in dirs:
        try:
            entries = sorted(os.listdir(d))
        except OSError:
            continue
        for e in entries:
            p = os.path.join(d, e)
            if not rootfiles.root_only(p) or not os.path.isfile(p):
                continue
            try:
                with open(p, encoding="utf-8", errors="replace") as fh:
                    v = parse_sums(fh.read(8 << 20), name)
            except OSError:
                continue
            if v:
                out.append(v)
    return out


class RootExecutor:
    """Runs checked requests as the current (root) user."""

    def __init__(self, backups_root: str = ROOT_BACKUPS, nvidia_base: str = NVIDIA_BASE,
                 known_sums_dirs: Sequence[str] = KNOWN_SUMS_DIRS, mirrors_file: Optional[str] = None):
        self.backups_root = backups_root
        self.nvidia_base = nvidia_base.rstrip("/")  # tests point this at a local server; requests never can
        self.known_sums_dirs = tuple(known_sums_dirs)
        self.mirrors_file = mirrors_file

    def check_provenance(self, kind: str, argv: Sequence[str], files: dict[str, dict[str, str]],
                         mapping: dict[str, str]) -> None:
        """Every download a root command uses is published, for its exact name, in a list the helper got itself."""
        from .downloads import DownloadError, fetch_text, file_hashes, parse_packages_checksum, parse_sums

        for placeholder in [a for a in argv if a in mapping]:
            name = placeholder[len("@download:"):]
            sha, md5 = file_hashes(mapping[placeholder])
            lists: list[tuple[str, str]] = []  # (where, text)
            known = _known_sums(name, self.known_sums_dirs)
            if sha in known or md5 in known:
                continue
            if kind == "run_runfile":
                m = _RUNFILE.match(name)
                if not m:
                    raise PolicyError(f"{name} is not the name of one of NVIDIA's CUDA runfiles")
                for sums in ("md5sum.txt", "sha256sum.txt"):
                    lists.append((f"{self.nvidia_base}/compute/cuda/{m.group(1)}/docs/sidebar/{sums}", "sums"))
            elif kind == "add_repo":
                if not _KEYRING.match(name):
                    raise PolicyError(f"{name} is not NVIDIA's cuda-keyring package")
                url = str((files.get(placeholder) or {}).get("url") or "")
                src = rootfiles.check_source_url(url.rsplit("/", 1)[0] if "/" in url else url, "keyring",
                                                 self.mirrors_file or rootfiles.MIRRORS_FILE) if url else None
                if not src or not url.endswith("/" + name):
                    raise PolicyError(f"{name}: the request does not say where it came from, or not from this name")
                lists.append((src + "/Packages", "packages"))
            else:
                raise PolicyError(f"a {kind} step runs no downloaded file")
            found, tried = False, []
            for where, fmt in lists:
                try:
                    text = fetch_text(where, timeout=60.0, limit=16 << 20)
                except DownloadError as e:
                    tried.append(str(e))
                    continue
                want = parse_packages_checksum(text, name) if fmt == "packages" else parse_sums(text, name)
                if want in (sha, md5):
                    found = True
                    break
                tried.append(f"{where} lists {'a different checksum' if want else 'no checksum'} for {name}")
            if not found:
                raise PolicyError(f"{name} is not in the checksum list published for it ({'; '.join(tried)[:300]}); "
                                  "root does not run it")

    def run(self, kind: str, argv: Sequence[str], env: dict[str, str], timeout_s: Optional[float],
            files: dict[str, dict[str, str]], on_line: Callable[[Line], None], on_progress: Callable[[Progress], None],
            cancel: CancelToken) -> CommandOutcome:
        check_run(kind, argv, env, frozenset(files))
        workdir = tempfile.mkdtemp(prefix="gpu-wizard-root-")
        os.chmod(workdir, 0o711)  # others may reach the CA copy by its name (apt's _apt user); nothing is listed
        try:
            mapping = prepare_files(files, workdir, argv)
            self.check_provenance(kind, argv, files, mapping)
            real, env = ca_copies([mapping.get(a, a) for a in argv], env, workdir)
            return run_command(real, on_line=on_line, on_progress=on_progress, env=env, timeout_s=timeout_s, cancel=cancel)
        finally:
            shutil.rmtree(workdir, ignore_errors=True)

    def _bdir(self, session: str) -> str:
        if not re.fullmatch(r"[A-Za-z0-9._-]+", session or "") or session in (".", ".."):
            raise PolicyError(f"bad session name {session!r}")
        return os.path.join(self.backups_root, session)

    def edit(self, kind: str, edit: Edit, session: str) -> EditRecord:
        check_edit(kind, edit)
        content = root_content(kind, edit)
        if kind == "cleanup_cuda" and edit.mode == "delete":
            _check_delete(edit.path)
        bdir = self._bdir(session)
        os.makedirs(bdir, mode=0o700, exist_ok=True)
        try:
            return apply_edit(edit, bdir, step_kind=kind, content=content, check_real=lambda real: _real_problem(kind, edit, real))
        except EditError as e:
            raise PolicyError(str(e)) from None

    def restore(self, session: str, paths: Optional[list[str]]) -> list[str]:
        return self.restore_report(session, paths).restored

    def restore_report(self, session: str, paths: Optional[list[str]] = None) -> RestoreReport:
        if paths is not None and (not isinstance(paths, list) or not all(isinstance(p, str) for p in paths)):
            raise PolicyError("paths must be a list of strings")
        rep = RestoreReport()
        try:
            restore(self._bdir(session), paths=set(paths) if paths else None, report=rep, allowed=_record_allowed)
        except EditError as e:
            raise PolicyError(str(e)) from None
        return rep


def _check_delete(path: str) -> None:
    try:
        with safefs.locate(path, follow_last=False) as loc:
            st = safefs.lstat_at(loc)
            if st is None or not stat.S_ISREG(st.st_mode):
                return  # nothing there, or a link (deleted itself, backed up as a link)
            rootfiles.check_file_is_cudas(path, safefs.read_at(loc, 1 << 20))
    except (OSError, safefs.UnsafePath) as e:
        raise PolicyError(f"cannot check {path} before deleting it: {e}") from None


def _real_problem(kind: str, edit: Edit, real: str) -> Optional[str]:
    """The file an edit really reaches (through root's own links) must be one the kind may edit too:
    the allow-list judges where the bytes land, not the name they were asked for under."""
    if real == edit.path:
        return None
    try:
        check_edit(kind, edit.replace(path=real))
    except PolicyError as e:
        return f"{edit.path} leads to {real}: {e}"
    return None


def _record_allowed(rec: EditRecord) -> Optional[str]:
    """Undo as root touches only what some step kind may edit (a forged backups.json naming
    /etc/shadow is refused even in root's own backup folder)."""
    kinds = [rec.step_kind] if rec.step_kind else list(EDIT_PATHS)
    for path in filter(None, (rec.path, rec.real)):
        if os.path.normpath(path) != path or not os.path.isabs(path):
            return f"not a clean absolute path: {path!r}"
        if not any(p.match(path) for k in kinds for p in EDIT_PATHS.get(k, ())):
            return f"no step may edit {path}"
    return None


# --- the helper process (root side) ----------------------------------------------------------

# root steps that must never stop half-way: dpkg/rpm mid-transaction, a runfile mid-copy, an initramfs
# mid-rebuild. A cancel (or a closed window) lets them finish; the plan stops after them.
NO_KILL_KINDS = frozenset({"install_driver", "install_toolkit", "install_cudnn", "add_repo", "cleanup_cuda",
                           "run_runfile", "blacklist_nouveau", "wsl_fix", "windows_host",
                           "repair_packages"})


def _serve_run(ex: "RootExecutor", req: dict, token: CancelToken, send: Callable[[dict], None]) -> None:
    """One "run" request of the helper's loop (on its own thread), answered by one closing event."""
    rid = req.get("id")
    try:
        argv = req.get("argv")
        env = req.get("env") or {}
        files = req.get("files") or {}
        if not isinstance(argv, list) or not isinstance(env, dict) or not isinstance(files, dict) or \
                not all(isinstance(f, dict) for f in files.values()):
            raise PolicyError("argv must be a list, env and files objects")
        timeout = req.get("timeout_s")
        if timeout is not None and (not isinstance(timeout, (int, float)) or isinstance(timeout, bool) or timeout <= 0):
            raise PolicyError("timeout_s must be a positive number")
        r = ex.run(str(req.get("kind")), [str(a) for a in argv], {str(k): str(v) for k, v in env.items()},
                   timeout, files,
                   lambda ln: send({"id": rid, "event": "line", "stream": ln.stream, "text": ln.text, "final": ln.final}),
                   lambda p: send({"id": rid, "event": "progress", "fraction": p.fraction, "message": p.message}),
                   token)
        send({"id": rid, "event": "done", "rc": r.rc, "timed_out": r.timed_out, "cancelled": r.cancelled,
              "error": r.error, "tail": r.tail[-20:], "argv": r.argv, "duration_s": r.duration_s})
    except PolicyError as e:
        send({"id": rid, "event": "refused", "message": str(e)})
    except Exception as e:  # never leave the wizard waiting
        send({"id": rid, "event": "refused", "message": f"helper error: {type(e).__name__}: {e}"})


def _serve_other(ex: "RootExecutor", op: Any, req: dict, rid: Any, send: Callable[[dict], None]) -> None:
    """edit, restore and ping: answered at once, in order."""
    try:
        if op == "edit":
            rec = ex.edit(str(req.get("kind")), _edit_from(req.get("edit")), str(req.get("session")))
            send({"id": rid, "event": "edited", "record": rec.to_json()})
        elif op == "restore":
            rep = ex.restore_report(str(req.get("session")), req.get("paths"))
            send({"id": rid, "event": "restored", "paths": rep.restored, "problems": rep.problems})
        elif op == "ping":
            send({"id": rid, "event": "pong"})
        else:
            send({"id": rid, "event": "refused", "message": f"unknown request {str(op)[:40]!r}"})
    except PolicyError as e:
        send({"id": rid, "event": "refused", "message": str(e)})
    except Exception as e:
        send({"id": rid, "event": "refused", "message": f"helper error: {type(e).__name__}: {e}"})


def serve(stdin=None, stdout=None, executor: Optional[RootExecutor] = None) -> int:
    """The helper's loop. A closed stdin (the window was closed or killed) never stops a running
    step: the helper lets it finish, then exits; its output then goes nowhere (never blocks it)."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    ex = executor or RootExecutor()
    out_lock = threading.Lock()
    cancels: dict[Any, CancelToken] = {}
    kinds: dict[Any, str] = {}
    workers: list[threading.Thread] = []
    gone = threading.Event()  # the wizard stopped listening

    def send(obj: dict) -> None:
        if gone.is_set():
            return
        with out_lock:
            try:
                stdout.write(json.dumps(obj) + "\n")
                stdout.flush()
            except (OSError, ValueError):  # broken pipe, closed file: keep working, stop talking
                gone.set()

    def do_run(req: dict, token: CancelToken) -> None:
        try:
            _serve_run(ex, req, token, send)
        finally:
            cancels.pop(req.get("id"), None)
            kinds.pop(req.get("id"), None)

    send({"event": "ready", "uid": os.geteuid() if hasattr(os, "geteuid") else None, "kinds": sorted(STEP_KINDS)})
    def lines():
        it = iter(stdin)
        while True:
            try:
                yield next(it)
            except (StopIteration, OSError, ValueError, UnicodeError):
                return  # EOF: the window is gone; running steps finish below
    for raw in lines():
        if len(raw) > MAX_REQUEST_BYTES:
            send({"event": "refused", "message": "request too large"})
            continue
        raw = raw.strip()
        if not raw:
            continue
        try:
            req = fileio.loads(raw)
            op = req.get("op")
        except (ValueError, AttributeError, RecursionError):
            send({"event": "refused", "message": "not a JSON request"})
            continue
        rid = req.get("id")
        if not isinstance(rid, (int, str, type(None))) or isinstance(rid, bool):
            send({"event": "refused", "message": "the request id must be a number or a string"})
            continue
        if op == "quit":
            break
        if op == "cancel":
            tok = cancels.get(rid)
            if tok and kinds.get(rid) in NO_KILL_KINDS:
                send({"id": rid, "event": "line", "stream": "stderr", "final": True,
                      "text": "[cancel: this administrator step finishes first; stopping it half-way would leave "
                              "the system half-installed]"})
            elif tok:
                tok.cancel()
            continue
        if op == "run":
            tok = CancelToken()
            cancels[rid] = tok
            kinds[rid] = str(req.get("kind"))
            t = threading.Thread(target=do_run, args=(req, tok), daemon=True)
            workers.append(t)
            t.start()
            continue
        _serve_other(ex, op, req, rid, send)
    # the wizard quit or went away: nothing is cancelled; every running step ends by itself (or by its timeout)
    for t in workers:
        t.join()
    return 0


def _edit_from(d) -> Edit:
    from app.model import ModelError

    if not isinstance(d, dict):
        raise PolicyError("the edit must be an object")
    try:
        e = Edit.from_json(d)
    except (ModelError, TypeError, ValueError, KeyError, RecursionError) as ex:
        raise PolicyError(f"not a usable edit: {str(ex)[:120]}") from None
    if not isinstance(e.path, str) or not isinstance(e.content, str):
        raise PolicyError("not a usable edit: path and content must be text")
    return e


# --- requests through files (Windows: the helper is started elevated through UAC, once per batch) --
#
# serve_folder (`--serve FOLDER`) answers a batch of numbered requests; each is handled as below.
#
# The wizard writes the request (the same JSON object as one line of the protocol above) to
# REQUEST, starts `gpu-wizard-helper --request REQUEST --result RESULT` elevated and waits. The
# helper checks it against the same allow-lists, runs it, appends every line/progress event to
# RESULT + ".lines" as it goes (the wizard tails that file, so output streams live), and finally
# writes the closing event ("done", "edited", "restored" or "refused") to RESULT. The wizard asks
# for a cancel by creating REQUEST + ".cancel". Both output files are created exclusively (never
# through a file or link that already exists), beside the request.

MAX_REQUEST_BYTES = 1 << 20


def _create_exclusive(path: str):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o600)
    return os.fdopen(fd, "w", encoding="utf-8", newline="\n")


def _is_admin() -> bool:
    if hasattr(os, "geteuid"):
        return os.geteuid() == 0
    try:
        import ctypes

        return bool(ctypes.windll.shell32.IsUserAnAdmin())  # type: ignore[attr-defined]
    except (AttributeError, OSError):
        return False


def run_request_file(request_path: str, result_path: str, executor: Optional[RootExecutor] = None) -> int:
    """Handle one request file; returns 0 when a result was written, 2 when it could not be."""
    request_path, result_path = os.path.abspath(request_path), os.path.abspath(result_path)
    if os.path.dirname(request_path) != os.path.dirname(result_path):
        sys.stderr.write("gpu-wizard-helper: the result must go beside the request\n")
        return 2
    try:
        out = _create_exclusive(result_path + ".lines")
    except OSError as e:
        sys.stderr.write(f"gpu-wizard-helper: cannot create {result_path}.lines: {e.strerror}\n")
        return 2
    lock = threading.Lock()

    def send(obj: dict) -> None:
        with lock:
            out.write(json.dumps(obj) + "\n")
            out.flush()

    final = _handle_file_request(request_path, executor or RootExecutor(_default_backups()), send)
    out.close()
    try:
        fileio.write_json_atomic(result_path, final, indent=None, mode=0o600)
    except OSError as e:
        sys.stderr.write(f"gpu-wizard-helper: cannot write the result: {e.strerror}\n")
        return 2
    return 0


SERVE_IDLE_S = 3600.0  # an elevated helper no request reaches for this long quits (the wizard is gone)


def serve_folder(folder: str, executor: Optional[RootExecutor] = None, poll_s: float = 0.05,
                 idle_s: float = SERVE_IDLE_S) -> int:
    """Windows, one UAC prompt for a batch of requests: handle FOLDER/000001.json, 000002.json, ... in turn
    (each exactly as run_request_file, its answer in NNNNNN.result), until FOLDER/stop appears, the folder
    goes, or no request came for `idle_s`. "ready" (created exclusively) tells the wizard the prompt was
    answered and the helper runs elevated; a helper without administrator rights says so and quits."""
    folder = os.path.abspath(folder)
    if not _is_admin() and not os.environ.get("GPU_WIZARD_HELPER_UNPRIVILEGED_TEST"):
        sys.stderr.write("gpu-wizard-helper: not running with administrator rights\n")
        return 2
    ex = executor or RootExecutor(_default_backups())
    try:
        _create_exclusive(os.path.join(folder, "ready")).close()
    except OSError as e:
        sys.stderr.write(f"gpu-wizard-helper: cannot use {folder}: {e.strerror}\n")
        return 2
    n, last = 1, time.monotonic()
    while True:
        req = os.path.join(folder, f"{n:06d}.json")
        if os.path.exists(req):
            if run_request_file(req, os.path.join(folder, f"{n:06d}.result"), ex) != 0:
                return 2
            n, last = n + 1, time.monotonic()
            continue
        if os.path.exists(os.path.join(folder, "stop")) or not os.path.isdir(folder) or time.monotonic() - last > idle_s:
            return 0
        time.sleep(poll_s)


def _default_backups() -> str:
    if sys.platform.startswith("win"):
        return os.path.join(os.environ.get("PROGRAMDATA") or "C:\\ProgramData", "gpu-wizard", "backups")
    return ROOT_BACKUPS


def _invoking_uid() -> Optional[int]:
    """The user who asked for root (sudo's SUDO_UID, pkexec's PKEXEC_UID), when root was asked through them."""
    for k in ("PKEXEC_UID", "SUDO_UID"):
        v = os.environ.get(k, "")
        if v.isdigit():
            return int(v)
    return None


def _read_request(path: str) -> bytes:
    """The request file's bytes, read only when no one but the asking user (or root) could have written
    it: its folder writable by its owner alone (no sticky /tmp, no group), the file that owner's or
    root's, a regular file (never a link: O_NOFOLLOW), one name only, writable by its owner alone."""
    if not safefs.SUPPORTED:  # Windows: the elevated helper's folder is the user's own profile (ACLs)
        with open(path, "rb") as fh:
            return fh.read(MAX_REQUEST_BYTES + 1)
    with safefs.locate(path, follow_last=False) as loc:
        d = os.fstat(loc.dir_fd)
        who = _invoking_uid()
        if d.st_mode & 0o022 or (who is not None and d.st_uid not in (0, who)):
            raise PolicyError(f"{os.path.dirname(path)} can be changed by other users; the helper runs no request from there")
        fd = os.open(loc.name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=loc.dir_fd)
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode) or st.st_nlink != 1 or st.st_mode & 0o022 or st.st_uid not in (0, d.st_uid):
                raise PolicyError(f"{path} is not a file only its folder's owner could have written; not run")
            return os.read(fd, MAX_REQUEST_BYTES + 1)
        finally:
            os.close(fd)


def _handle_file_request(request_path: str, ex: RootExecutor, send: Callable[[dict], None]) -> dict:
    try:
        raw = _read_request(request_path)
        if len(raw) > MAX_REQUEST_BYTES:
            return {"event": "refused", "message": "request too large"}
        req = fileio.loads(raw.decode("utf-8"))
        if not isinstance(req, dict):
            raise ValueError("not an object")
    except PolicyError as e:
        return {"event": "refused", "message": str(e)}
    except (OSError, ValueError, safefs.UnsafePath) as e:
        return {"event": "refused", "message": f"not a usable request: {getattr(e, 'strerror', None) or e}"}
    if not _is_admin() and not os.environ.get("GPU_WIZARD_HELPER_UNPRIVILEGED_TEST"):
        return {"event": "refused", "message": "the helper is not running with administrator rights"}
    op = req.get("op")
    try:
        if op == "run":
            token = CancelToken()
            cancel_file = request_path + ".cancel"
            stop = threading.Event()

            def watch() -> None:  # the wizard cannot signal an elevated process: it drops a file
                while not stop.wait(0.2):
                    if os.path.exists(cancel_file):
                        token.cancel()
                        return
            watcher = threading.Thread(target=watch, daemon=True)
            watcher.start()
            try:
                r = ex.run(str(req.get("kind")), [str(a) for a in req.get("argv") or []], dict(req.get("env") or {}),
                           req.get("timeout_s"), dict(req.get("files") or {}),
                           lambda ln: send({"event": "line", "stream": ln.stream, "text": ln.text, "final": ln.final}),
                           lambda p: send({"event": "progress", "fraction": p.fraction, "message": p.message}), token)
            finally:
                stop.set()
            return {"event": "done", "rc": r.rc, "timed_out": r.timed_out, "cancelled": r.cancelled, "error": r.error,
                    "tail": r.tail[-20:], "argv": r.argv, "duration_s": r.duration_s}
        if op == "edit":
            rec = ex.edit(str(req.get("kind")), _edit_from(req.get("edit")), str(req.get("session")))
            return {"event": "edited", "record": rec.to_json()}
        if op == "restore":
            rep = ex.restore_report(str(req.get("session")), req.get("paths"))
            return {"event": "restored", "paths": rep.restored, "problems": rep.problems}
        return {"event": "refused", "message": f"unknown request {op!r}"}
    except PolicyError as e:
        return {"event": "refused", "message": str(e)}
    except Exception as e:  # never leave the wizard without an answer
        return {"event": "refused", "message": f"helper error: {type(e).__name__}: {e}"}


# folders root edits files in (EDIT_PATHS): a kill in the middle of a write leaves our temporary name there
EDIT_DIRS = ("/etc/profile.d", "/etc/ld.so.conf.d", "/etc/apt/sources.list.d", "/etc/yum.repos.d", "/etc/modprobe.d",
             "/etc", "/root", "/var/lib/gpu-wizard")


def clean_stale_temps(dirs: Sequence[str] = EDIT_DIRS, backups_root: str = ROOT_BACKUPS) -> list[str]:
    """Remove the temporary files a killed run left beside root's files and in its backup folders: only
    our own names (app.fileio), only root's own files, never a link's target. Run with the machine lock
    held (no other run of ours is writing). Returns what it removed."""
    gone = [os.path.join(d, n) for d in dirs for n in fileio.clean_temps(d)]
    try:
        sessions = [os.path.join(backups_root, e) for e in os.listdir(backups_root)]
    except OSError:
        sessions = []
    return gone + [os.path.join(s, n) for s in sessions if os.path.isdir(s) and not os.path.islink(s)
                   for n in fileio.clean_temps(s)]


def maybe_run_helper(argv: list[str]) -> Optional[int]:
    """For the bundled executable's entry point: `gpu-wizard --gpu-wizard-helper` is the helper.
    Returns the exit code when argv asks for the helper, else None (carry on as the wizard)."""
    if argv[:1] == ["--gpu-wizard-helper"]:
        return main(argv)
    return None


def main(argv: Optional[list[str]] = None) -> int:
    """The helper: JSON lines on stdin/stdout (pkexec, sudo), or `--request FILE --result FILE`
    (one request, started elevated through UAC on Windows). A leading --gpu-wizard-helper is ignored."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["--gpu-wizard-helper"]:
        argv = argv[1:]
    if argv:
        if len(argv) == 2 and argv[0] == "--serve":
            return serve_folder(argv[1])
        if len(argv) != 4 or argv[0] != "--request" or argv[2] != "--result":
            sys.stderr.write("usage: gpu-wizard-helper [--request FILE --result FILE | --serve FOLDER]\n")
            return 2
        return run_request_file(argv[1], argv[3])
    if hasattr(os, "geteuid") and os.geteuid() != 0 and not os.environ.get("GPU_WIZARD_HELPER_UNPRIVILEGED_TEST"):
        sys.stderr.write("gpu-wizard-helper: must run as root (through pkexec or sudo)\n")
        return 2
    os.umask(0o022)
    from . import machinelock

    try:
        lock = machinelock.acquire()  # one run at a time changes this computer as root
    except machinelock.MachineBusy as e:
        sys.stderr.write(f"gpu-wizard-helper: busy: {e.holder}\n")
        return 2
    except OSError as e:
        sys.stderr.write(f"gpu-wizard-helper: cannot take the machine lock: {e.strerror or e}\n")
        return 2
    try:
        clean_stale_temps()
        return serve()
    finally:
        lock.release()


if __name__ == "__main__":
    raise SystemExit(main())
