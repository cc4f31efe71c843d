"""The one builder of the PyTorch install command.

The Recommendation shows it, the plan's install step runs it, the exported script writes it, the
diagnosis's fix plan reinstalls with it and verify suggests it: all of them call `torch_install()`,
so the command a user reads is the command that runs (tests/unit/test_install_command.py proves
argv equality from recommend through plan to the script). Qt-free and below every stage: it knows
argv, a Python interpreter, an index URL and the mirror settings, nothing else.
"""
from __future__ import annotations

import os
import shlex
import shutil
from dataclasses import dataclass, field
from typing import Any, Optional, Sequence

DEFAULT_VENV = "~/.venvs/gpu"


def target_home(facts: Any) -> Optional[str]:
    """The home folder of the user on the machine `facts` describe: what detection recorded (HOME, USERPROFILE),
    else this process's own for this machine; None for a snapshot that does not say (never the viewer's)."""
    home = getattr(getattr(facts, "os", None), "home", None)
    if home:
        return str(home)
    if facts is None or getattr(facts, "source", None) in (None, "", "live"):
        return os.path.expanduser("~")
    return None


def expand_venv(path: str, facts: Any = None) -> str:
    """The venv folder on the machine the plan is for: ~ is that machine's user's home (target_home); where it is
    not known (a snapshot without HOME) ~ stays, and the plan says what it stands for. Windows paths stay Windows
    paths whatever machine plans them."""
    windows = getattr(getattr(facts, "os", None), "platform", None) == "windows"
    if path == "~" or path.startswith(("~/", "~\\")):
        home = target_home(facts)
        if home is None:
            return path.replace("/", "\\") if windows else path
        path = home.rstrip("/\\") + path[1:]
    if windows:
        import ntpath

        return ntpath.normpath(path.replace("/", "\\"))
    if facts is not None and getattr(facts, "source", None) not in (None, "", "live"):
        return os.path.normpath(path) if path.startswith("/") else path  # never resolved against the viewer's folder
    return os.path.abspath(path)


def venv_python(venv: str, platform: str = "linux") -> str:
    """The interpreter inside a venv on `platform` ("windows": Scripts\\python.exe)."""
    if platform == "windows":
        return venv.rstrip("\\/") + "\\Scripts\\python.exe"
    return os.path.join(venv, "bin", "python")


def uv_executable() -> str:
    return shutil.which("uv") or "uv"


@dataclass(frozen=True)
class InstallCommand:
    argv: tuple[str, ...]
    env: dict[str, str] = field(default_factory=dict)  # proxy and CA settings the command runs with

    def shown(self, platform: str = "linux") -> str:
        """The command as one line to read and copy: the environment it needs, then the argv quoted for
        the platform's shell (POSIX sh, or PowerShell's call operator on Windows)."""
        if platform == "windows":
            from app.pwsh import env_line

            return "".join(env_line(k, v) for k, v in self.env.items()) + shown_argv(self.argv, "windows")
        sets = "".join(f"{k}={shlex.quote(v)} " for k, v in self.env.items())
        return sets + " ".join(sh_word(a) for a in self.argv)


def shown_argv(argv: Sequence[str], platform: str = "linux") -> str:
    """One argv as a line to read and copy: POSIX sh quoting, or PowerShell (app.pwsh: the call operator
    and a literal for a program that is not a plain word, every argument inert) on Windows."""
    if platform == "windows":
        from app.pwsh import ps_arg, ps_quote

        if not argv:
            return ""
        head = argv[0] if _plain_word(argv[0]) else "& " + ps_quote(argv[0])
        return " ".join([head, *(ps_arg(a) for a in argv[1:])])
    return " ".join(sh_word(a) for a in argv)


def sh_word(arg: str) -> str:
    """One POSIX shell word: shlex's quoting, except that a leading ~/ (the home of whoever runs it, in a plan
    from a snapshot that did not record its user's home) stays the shell's $HOME."""
    return '"$HOME"/' + shlex.quote(arg[2:]) if arg.startswith("~/") else shlex.quote(arg)


def _plain_word(arg: str) -> bool:
    return bool(arg) and all(c.isalnum() or c in "-_." for c in arg)


def mirror_env(mirrors: Any) -> dict[str, str]:
    """The proxy and CA variables pip (and uv) need behind a proxy that intercepts TLS."""
    env: dict[str, str] = {}
    proxy = getattr(mirrors, "https_proxy", None)
    ca = getattr(mirrors, "ca_bundle", None)
    if proxy:
        env.update(HTTPS_PROXY=proxy, HTTP_PROXY=proxy)
    if ca:
        env.update(SSL_CERT_FILE=ca, REQUESTS_CA_BUNDLE=ca)
    return env


def torch_install(python: str, packages: Sequence[str], index_url: Optional[str], mirrors: Any, *,
                  uv: Optional[str] = None, force_reinstall: bool = False, upgrade: bool = False,
                  no_cache: bool = False) -> InstallCommand:
    """`python -m pip install <packages> --index-url <index>` (or `uv pip install --python <python> ...`),
    with the mirrors: the PyPI mirror as the extra index (or the only one when there is no PyTorch index),
    the CA bundle as --cert (pip), and the proxy/CA as the command's environment. `no_cache`: download afresh
    (a broken wheel in the cache would be used again)."""
    flags = (["--force-reinstall"] if force_reinstall else []) + (["--upgrade"] if upgrade else [])
    flags += (["--no-cache"] if uv else ["--no-cache-dir"]) if no_cache else []
    if uv:
        argv = [uv, "pip", "install", *flags, "--python", python]
    else:
        argv = [python, "-m", "pip", "install", *flags, "--disable-pip-version-check"]
    argv += list(packages)
    pypi = getattr(mirrors, "pypi_index_url", None)
    if index_url:
        argv += ["--index-url", index_url]
        if pypi:
            argv += ["--extra-index-url", pypi]
    elif pypi:
        argv += ["--index-url", pypi]
    ca = getattr(mirrors, "ca_bundle", None)
    if ca and not uv:
        argv += ["--cert", ca]
    return InstallCommand(argv=tuple(argv), env=mirror_env(mirrors))
