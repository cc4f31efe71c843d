"""User configuration: mirrors, proxy and CA bundle (and the compat-data update URL).

Where it comes from, strongest first:
1. command-line flags (`--pypi-mirror`, `--pytorch-mirror`, `--nvidia-mirror`, `--proxy`, `--ca-bundle`);
2. the config file: `$GPU_WIZARD_CONFIG`, else `~/.config/gpu-wizard/config.json`
   (`%APPDATA%\\gpu-wizard\\config.json` on Windows);
3. the environment: `HTTPS_PROXY`/`https_proxy`, `REQUESTS_CA_BUNDLE`/`SSL_CERT_FILE`/`PIP_CERT`,
   `PIP_INDEX_URL`.

Config file (every key optional):

    {"mirrors": {"pypi_index_url": "https://pypi.example.com/simple",
                 "pytorch_index_url": "https://mirror.example.com/pytorch/whl",
                 "nvidia_repo_url": "https://mirror.example.com/nvidia/cuda/repos",
                 "https_proxy": "http://proxy.example.com:3128",
                 "ca_bundle": "/etc/ssl/certs/company-ca.pem"},
     "db_url": "https://example.com/gpu-wizard/compat-bundle.json",
     "live_index": true}

`requests_kwargs()` and `subprocess_env()` turn the result into what downloads (requests)
and child processes (pip, uv, apt) need.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Optional
from urllib.parse import urlparse

from app import fileio
from app.choices import Mirrors

MIRROR_KEYS = ("pypi_index_url", "pytorch_index_url", "nvidia_repo_url", "https_proxy", "ca_bundle")


class ConfigError(ValueError):
    """A config file or flag value that cannot be used (one clear line)."""


@dataclass(frozen=True)
class Config:
    mirrors: Mirrors = field(default_factory=Mirrors)
    db_url: Optional[str] = None
    live_index: bool = True  # read the PyTorch/PyPI/NVIDIA indexes before recommending ("live_index": false: never)
    path: Optional[str] = None  # the file it was read from, None when there was none


def config_path(env: Optional[Mapping[str, str]] = None) -> Path:
    env = os.environ if env is None else env
    if env.get("GPU_WIZARD_CONFIG"):
        return Path(env["GPU_WIZARD_CONFIG"])
    if os.name == "nt" and env.get("APPDATA"):
        return Path(env["APPDATA"]) / "gpu-wizard" / "config.json"
    base = env.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "gpu-wizard" / "config.json"


def _check_url(key: str, value: Any, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"{where}: {key} must be a URL")
    u = urlparse(value.strip())
    allowed = ("http", "https", "socks5", "socks5h") if key == "https_proxy" else ("http", "https", "file")
    if u.scheme not in allowed or not (u.netloc or u.scheme == "file"):
        raise ConfigError(f"{where}: {key} is not a usable URL: {value!r}")
    return value.strip()


def _check_ca(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"{where}: ca_bundle must be a file path")
    p = Path(value).expanduser()
    if not p.is_file():
        raise ConfigError(f"{where}: CA bundle {value} does not exist")
    return str(p)


def _mirror_values(data: Mapping[str, Any], where: str) -> dict[str, str]:
    out = {}
    for k in MIRROR_KEYS:
        v = data.get(k)
        if v in (None, ""):
            continue
        out[k] = _check_ca(v, where) if k == "ca_bundle" else _check_url(k, v, where)
    return out


def load_config(path: Optional[str | Path] = None, env: Optional[Mapping[str, str]] = None) -> Config:
    """Read the config file (missing file = empty config). Bad JSON or values → ConfigError."""
    env = os.environ if env is None else env
    explicit = path is not None or bool(env.get("GPU_WIZARD_CONFIG"))
    p = Path(path) if path is not None else config_path(env)
    if not p.exists():
        if explicit:
            raise ConfigError(f"config file {p} does not exist")
        return Config()
    try:
        data = fileio.loads(p.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"cannot read config file {p}: {e}") from None
    except json.JSONDecodeError as e:
        raise ConfigError(f"config file {p} is not valid JSON (line {e.lineno}: {e.msg})") from None
    if not isinstance(data, dict):
        raise ConfigError(f"config file {p} must hold a JSON object")
    m = data.get("mirrors") or {}
    if not isinstance(m, dict):
        raise ConfigError(f"config file {p}: 'mirrors' must be an object")
    unknown = sorted(set(m) - set(MIRROR_KEYS))
    if unknown:
        raise ConfigError(f"config file {p}: unknown mirror key(s) {', '.join(unknown)} (known: {', '.join(MIRROR_KEYS)})")
    mirrors = Mirrors(**_mirror_values(m, str(p)))
    db_url = _check_url("db_url", data["db_url"], str(p)) if data.get("db_url") else None
    live = data.get("live_index", True)
    if not isinstance(live, bool):
        raise ConfigError(f"config file {p}: live_index must be true or false")
    return Config(mirrors=mirrors, db_url=db_url, live_index=live, path=str(p))


def mirrors_from(config: Optional[Config] = None, flags: Optional[Mapping[str, Any]] = None,
                 env: Optional[Mapping[str, str]] = None) -> Mirrors:
    """Flags over the config file over the environment."""
    env = os.environ if env is None else env
    config = config or Config()
    from_env: dict[str, str] = {}
    proxy = env.get("HTTPS_PROXY") or env.get("https_proxy")
    if proxy:
        from_env["https_proxy"] = proxy
    ca = env.get("REQUESTS_CA_BUNDLE") or env.get("SSL_CERT_FILE") or env.get("PIP_CERT")
    if ca and Path(ca).is_file():
        from_env["ca_bundle"] = ca
    if env.get("PIP_INDEX_URL"):
        from_env["pypi_index_url"] = env["PIP_INDEX_URL"]
    merged = {**from_env, **{k: v for k, v in config.mirrors.to_json().items() if v}}
    merged.update(_mirror_values({k: v for k, v in (flags or {}).items() if v}, "command line"))
    return Mirrors(**merged)


def requests_kwargs(mirrors: Mirrors) -> dict[str, Any]:
    """proxies= and verify= for requests (a custom CA bundle replaces the default trust store)."""
    kw: dict[str, Any] = {}
    if mirrors.https_proxy:
        kw["proxies"] = {"https": mirrors.https_proxy, "http": mirrors.https_proxy}
    if mirrors.ca_bundle:
        kw["verify"] = mirrors.ca_bundle
    return kw


def subprocess_env(mirrors: Mirrors) -> dict[str, str]:
    """Environment for child processes (pip, uv, apt, curl) so they use the proxy and CA too."""
    env: dict[str, str] = {}
    if mirrors.https_proxy:
        env.update(HTTPS_PROXY=mirrors.https_proxy, https_proxy=mirrors.https_proxy,
                   HTTP_PROXY=mirrors.https_proxy, http_proxy=mirrors.https_proxy)
    if mirrors.ca_bundle:
        env.update(PIP_CERT=mirrors.ca_bundle, REQUESTS_CA_BUNDLE=mirrors.ca_bundle, SSL_CERT_FILE=mirrors.ca_bundle)
    if mirrors.pypi_index_url:
        env["UV_EXTRA_INDEX_URL"] = mirrors.pypi_index_url
    return env


def add_mirror_arguments(parser) -> None:
    """The mirror/proxy flags, for any subcommand that downloads or writes install commands."""
    g = parser.add_argument_group("mirrors and proxy (override the config file)")
    g.add_argument("--config", metavar="FILE", help="config file (default: ~/.config/gpu-wizard/config.json or $GPU_WIZARD_CONFIG)")
    g.add_argument("--pypi-mirror", metavar="URL", help="PyPI mirror (simple index URL)")
    g.add_argument("--pytorch-mirror", metavar="URL", help="replaces https://download.pytorch.org/whl")
    g.add_argument("--nvidia-mirror", metavar="URL", help="replaces https://developer.download.nvidia.com/compute/cuda/repos")
    g.add_argument("--proxy", metavar="URL", help="HTTPS proxy for downloads, pip and apt")
    g.add_argument("--ca-bundle", metavar="FILE", help="custom CA bundle (PEM) for HTTPS")


def mirrors_from_args(args, env: Optional[Mapping[str, str]] = None) -> tuple[Mirrors, Config]:
    cfg = load_config(getattr(args, "config", None), env)
    flags = {
        "pypi_index_url": getattr(args, "pypi_mirror", None),
        "pytorch_index_url": getattr(args, "pytorch_mirror", None),
        "nvidia_repo_url": getattr(args, "nvidia_mirror", None),
        "https_proxy": getattr(args, "proxy", None),
        "ca_bundle": getattr(args, "ca_bundle", None),
    }
    return mirrors_from(cfg, flags, env), cfg
