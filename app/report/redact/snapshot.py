"""Learning from this machine and from a format-1 snapshot, and redacting a snapshot (it stays a
valid snapshot: keys and values are redacted with the same map, so a path read through `$HOME`
still resolves and detection gives the same answers)."""
from __future__ import annotations

import re
from typing import Any, Optional

from . import network, secrets
from .common import HOME_KEYS, HOSTNAME_FILES, USER_KEYS


def _safe(fn: Any, *args: Any) -> Any:
    try:
        return fn(*args)
    except Exception:
        return None


def learn_live(r: Any, system: Any = None) -> None:
    """This machine's user, host name, home, and its secret- and Wi-Fi-named environment values."""
    import getpass
    import os
    import socket

    r.add_user(_safe(getpass.getuser))
    for fn in (socket.gethostname, socket.getfqdn):
        r.add_host(_safe(fn))
    r.add_home(os.path.expanduser("~"))
    for k, v in os.environ.items():
        if secrets.is_secret_name(k) and v:
            r.add_secret(v)
        elif k.upper() in USER_KEYS:
            r.add_user(v)
        elif k.upper() in HOME_KEYS:
            r.add_home(v)
        elif network.is_wifi_name_key(k) and v:
            r.add_wifi(v)
    if system is not None:
        for name in ("USER", "LOGNAME", "USERNAME"):
            r.add_user(_safe(system.getenv, name))
        for name in ("HOME", "USERPROFILE"):
            r.add_home(_safe(system.getenv, name))
        for name in ("HOSTNAME", "COMPUTERNAME"):
            r.add_host(_safe(system.getenv, name))
        for path in HOSTNAME_FILES[:2]:
            t = _safe(system.read_text, path)
            if t and t.strip():
                r.add_host(t.strip().splitlines()[0])


def _first_line(rec: Any) -> Optional[str]:
    if isinstance(rec, dict) and isinstance(rec.get("stdout"), str) and rec["stdout"].strip():
        return rec["stdout"].strip().splitlines()[0]
    return None


def learn_snapshot(r: Any, data: dict[str, Any]) -> None:
    """env USER/HOME/HOSTNAME (and Wi-Fi-named variables), /etc/hostname, uname, git's user.name,
    nmcli's terse tables, then everything the snapshot's text holds."""
    env = data.get("env") or {}
    if isinstance(env, dict):
        for k in ("USER", "LOGNAME", "USERNAME", "SUDO_USER"):
            r.add_user(env.get(k) if isinstance(env.get(k), str) else None)
        for k in ("HOSTNAME", "COMPUTERNAME"):
            r.add_host(env.get(k) if isinstance(env.get(k), str) else None)
        for k in ("HOME", "USERPROFILE"):
            r.add_home(env.get(k) if isinstance(env.get(k), str) else None)
    files = data.get("files") or {}
    if isinstance(files, dict):
        for p in HOSTNAME_FILES:
            t = files.get(p)
            if isinstance(t, str) and t.strip():
                r.add_host(t.strip().splitlines()[0])
    cmds = data.get("commands") or {}
    if isinstance(cmds, dict):
        for key in ("uname -n", "hostname", "hostname -f"):
            r.add_host(_first_line(cmds.get(key)))
        for key in ("whoami", "id -un"):
            r.add_user(_first_line(cmds.get(key)))
        for key, rec in cmds.items():
            if not isinstance(key, str) or not isinstance(rec, dict) or not isinstance(rec.get("stdout"), str):
                continue
            if re.fullmatch(r"git config (?:--global |--get |--system )*user\.name", key):
                r.add_name(_first_line(rec))
            if key.startswith("nmcli") and " -t" in key or key.startswith("nmcli -t"):
                network.learn_nmcli_terse(r, key, rec["stdout"].strip())
            if key.startswith(("iwgetid", "iwgetid -r")) and "-r" in key.split():
                r.add_wifi(_first_line(rec))
    r.learn(data)
