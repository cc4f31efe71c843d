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
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Optional
from urllib.parse import urlparse

from app import fileio
from app.choices import Mirrors

MIRROR_KEYS = ("pypi_index_url", "pytorch_index_url", "nvidia_repo_url", "https_proxy", "ca_bundle")
# the environment variables the network settings come from (detection records them: app.detect.env.NETWORK_VARS)
PROXY_VARS = ("HTTPS_PROXY", "https_proxy")
CA_VARS = ("REQUESTS_CA_BUNDLE", "SSL_CERT_FILE", "PIP_CERT")
INDEX_VARS = ("PIP_INDEX_URL",)
# a value the redactor replaced (app.report.redact's placeholders: <host-1>, <secret-2>, ...): not usable
_REDACTED = re.compile(r"<[a-z]+-\d+>")


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
    from_env = env_mirror_values(env, lambda ca: Path(ca).is_file())
    merged = {**from_env, **{k: v for k, v in config.mirrors.to_json().items() if v}}
    merged.update(_mirror_values({k: v for k, v in (flags or {}).items() if v}, "command line"))
    return Mirrors(**merged)


def env_ca(env: Mapping[str, str]) -> Optional[str]:
    """The CA bundle the environment names (REQUESTS_CA_BUNDLE, else SSL_CERT_FILE, else PIP_CERT), as pip reads it."""
    return next((env[k] for k in CA_VARS if env.get(k)), None)


def env_mirror_values(env: Mapping[str, str], ca_usable: Callable[[str], bool]) -> dict[str, str]:
    """The mirror settings an environment gives: its proxy, its CA bundle (where `ca_usable` says the file is
    there) and its PyPI index."""
    out: dict[str, str] = {}
    proxy = next((env[k] for k in PROXY_VARS if env.get(k)), None)
    if proxy:
        out["https_proxy"] = proxy
    ca = env_ca(env)
    if ca and ca_usable(ca):
        out["ca_bundle"] = ca
    index = next((env[k] for k in INDEX_VARS if env.get(k)), None)
    if index:
        out["pypi_index_url"] = index
    return out


@dataclass(frozen=True)
class Recorded:
    """A recorded machine's own network settings (what detection read there: facts.env.variables): those the
    commands for it can carry, and those left out, each with why: "redacted" (the snapshot's redaction hid the
    value: never guessed at) or "unusable" (not a URL the wizard can use)."""
    mirrors: Mirrors = field(default_factory=Mirrors)
    left_out: tuple[tuple[str, str], ...] = ()


def recorded_network(variables: Mapping[str, str], missing_ca: Optional[str] = None) -> Recorded:
    """The network settings of the machine whose environment `variables` are (a snapshot's), never this
    computer's: its proxy, CA bundle (unless detection found that file missing there: `missing_ca`) and PyPI
    index. Text from a snapshot is data: a value is kept only as a well-formed URL or an absolute path."""
    keep: dict[str, str] = {}
    left: list[tuple[str, str]] = []
    for k, v in env_mirror_values(variables, lambda ca: True).items():
        if _REDACTED.search(v):
            left.append((k, "redacted"))
        elif k == "ca_bundle" and v == missing_ca:
            left.append((k, "missing"))
        else:
            try:
                keep[k] = _check_url(k, v, "snapshot") if k != "ca_bundle" else _check_path(v)
            except ConfigError:
                left.append((k, "unusable"))
    return Recorded(Mirrors(**keep), tuple(left))


def _check_path(value: str) -> str:
    """A file path on another machine (nothing here can check it is there): absolute, one line."""
    if not (value.startswith("/") or re.match(r"[A-Za-z]:\\", value)) or any(c in value for c in "\r\n\0"):
        raise ConfigError(f"not an absolute path: {value!r}")
    return value


def shown_url(value: str) -> str:
    """A URL as a sentence shows it: a user name and password in it become ***."""
    u = urlparse(value)
    if u.scheme and (u.username or u.password):
        host = u.netloc.rsplit("@", 1)[1]
        return u._replace(netloc=f"***@{host}").geturl()
    return value


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


def is_recorded(facts: Any) -> bool:
    """Facts of another machine (a snapshot), not of this one: its commands never carry this computer's settings."""
    return facts is not None and getattr(facts, "source", None) not in (None, "", "live")


def mirrors_from_args(args, env: Optional[Mapping[str, str]] = None, facts: Any = None) -> tuple[Mirrors, Config]:
    """The mirrors, proxy and CA bundle for the commands of the machine `facts` describe. This machine: the flags
    over the config file over the environment. A recorded one (a snapshot): only what is given for it explicitly
    (the flags, a `--config FILE`), over the settings recorded on it (app.pipeline's stages add those); this
    computer's own config file and environment are never applied to it (they still say how this wizard reads
    the live indexes: the Config returned)."""
    cfg = load_config(getattr(args, "config", None), env)
    flags = {
        "pypi_index_url": getattr(args, "pypi_mirror", None),
        "pytorch_index_url": getattr(args, "pytorch_mirror", None),
        "nvidia_repo_url": getattr(args, "nvidia_mirror", None),
        "https_proxy": getattr(args, "proxy", None),
        "ca_bundle": getattr(args, "ca_bundle", None),
    }
    if not is_recorded(facts):
        return mirrors_from(cfg, flags, env), cfg
    given = {k: v for k, v in cfg.mirrors.to_json().items() if v} if getattr(args, "config", None) else {}
    ca = flags.pop("ca_bundle")
    given.update(_mirror_values({k: v for k, v in flags.items() if v}, "command line"))
    if ca:  # a file on that machine: nothing here can check it is there
        try:
            given["ca_bundle"] = _check_path(ca)
        except ConfigError as e:
            raise ConfigError(f"--ca-bundle: {e}") from None
    return Mirrors(**given), cfg


def for_machine(facts: Any, given: Mirrors) -> Mirrors:
    """The settings the commands for `facts`' machine carry: on a recorded machine what was given for it
    (`given`) over what was recorded on it; on this machine `given` as it is."""
    if not is_recorded(facts):
        return given
    rec = machine_network(facts)
    return Mirrors(**{**{k: v for k, v in rec.mirrors.to_json().items() if v}, **{k: v for k, v in given.to_json().items() if v}})


def machine_network(facts: Any) -> Recorded:
    """The network settings detection recorded on the machine `facts` describe (its environment; a CA bundle
    detection found missing there is left out)."""
    f = next((f for f in getattr(facts, "findings", ()) if f.code == "env_ca_bundle_missing"), None)
    return recorded_network(facts.env.variables, (f.params or {}).get("path") if f is not None else None)
