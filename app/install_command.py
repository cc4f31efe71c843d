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


def expand_venv(path: str) -> str:
    return os.path.abspath(os.path.expanduser(path))


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
        return sets + shlex.join(self.argv)


def shown_argv(argv: Sequence[str], platform: str = "linux") -> str:
    """One argv as a line to read and copy: POSIX sh quoting, or PowerShell (app.pwsh: the call operator
    and a literal for a program that is not a plain word, every argument inert) on Windows."""
    if platform == "windows":
        from app.pwsh import ps_arg, ps_quote

        if not argv:
            return ""
        head = argv[0] if _plain_word(argv[0]) else "& " + ps_quote(argv[0])
        return " ".join([head, *(ps_arg(a) for a in argv[1:])])
    return shlex.join(argv)


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
                  uv: Optional[str] = None, force_reinstall: bool = False, upgrade: bool = False) -> InstallCommand:
    """`python -m pip install <packages> --index-url <index>` (or `uv pip install --python <python> ...`),
    with the mirrors: the PyPI mirror as the extra index (or the only one when there is no PyTorch index),
    the CA bundle as --cert (pip), and the proxy/CA as the command's environment."""
    flags = (["--force-reinstall"] if force_reinstall else []) + (["--upgrade"] if upgrade else [])
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
