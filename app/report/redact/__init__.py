"""Redaction: take private values out of snapshots, reports and logs before they are shared.

A `Redactor` replaces each private value with a placeholder, consistently: the same value
always gets the same placeholder (`alice` → `<user-1>` everywhere), so support staff can
still follow a log. By kind (one module each):

- people.py: user names, home paths, a person's real name, the host name `uname` prints;
- network.py: IPv4/IPv6 and MAC addresses, e-mail addresses, credentials in URLs, chat webhooks,
  internal host names (intranet names, private top-level domains), Wi-Fi network names;
- ids.py: GPU and other UUIDs, serial numbers, machine and fabric ids, Windows SIDs;
- secrets.py: values of secret-named variables, credentials in command lines and headers,
  token-shaped strings, private key blocks (SSH, PGP, PKCS#8, PuTTY).

It works in two passes over the same material: `learn()` finds values (learn.py), then `text()` /
`data()` replace every learned value (walk.py, replace.py: time linear in the text), so a name
learned in one file is also removed from every other file, and a placeholder is never rewritten.

Names that are also ordinary words (`ubuntu`, `admin`, a two-letter host name like `vm`) are
replaced only where they stand as a name (`/home/ubuntu`, `ubuntu@host`, `USER=ubuntu`, the
host field of `uname -a`, a value that is exactly the name), so `ID=ubuntu` in os-release and
detection's answers survive. `root`, `localhost`, loopback and unspecified addresses are not
private and are kept.
"""
from __future__ import annotations

import copy
from typing import Any, Optional

from .common import COMMON_WORDS, KINDS, PLACEHOLDER_RE
from .engine import Redactor
from .secrets import is_secret_assignment, is_secret_name, looks_like_token

__all__ = ["COMMON_WORDS", "KINDS", "PLACEHOLDER_RE", "Redactor", "is_secret_assignment", "is_secret_name",
           "looks_like_token", "redact_data", "redact_snapshot", "redact_text"]


def redact_text(text: str, redactor: Optional[Redactor] = None) -> str:
    return (redactor or Redactor()).text(text)


def redact_data(obj: Any, redactor: Optional[Redactor] = None) -> Any:
    return (redactor or Redactor()).data(copy.deepcopy(obj))


def redact_snapshot(data: dict[str, Any], redactor: Optional[Redactor] = None, live: bool = False,
                    system: Any = None) -> dict[str, Any]:
    """A redacted copy of a format-1 snapshot (or of a report JSON that embeds one).

    Learns the user, host and home from the snapshot itself (and from this machine when
    `live`), replaces everything consistently in keys and values, and records what kinds
    were replaced under "redacted" (counts only, never the values). The result is still a
    valid snapshot: `app.system.validate_snapshot` accepts it."""
    r = redactor or Redactor()
    if live:
        r.learn_live(system)
    r.learn_snapshot(data)
    out = r.data(data, learn=False)
    cmds = out.get("commands") if isinstance(out, dict) else None
    if isinstance(cmds, dict):  # outputs that are exactly a name, even a common word
        for key in ("uname -n", "hostname", "hostname -f", "whoami", "id -un", "iwgetid -r"):
            rec = cmds.get(key)
            if isinstance(rec, dict) and isinstance(rec.get("stdout"), str):
                rec["stdout"] = r.exact(rec["stdout"])
    if isinstance(out, dict) and "format" in out:
        out["redacted"] = {"by": "gpu-wizard", "placeholders": r.counts()}
    return out
