"""Learning from free text: each kind's learners over one `Text` (common.Text: the text, its lower
case, its distinct pieces), and the name=value forms every kind shares (`NAME=value`, `name: value`,
`--password X`, `Authorization: Bearer X`, `"ssid": "..."`), whose values are learned by what their
name says, in bulk where they are all secrets."""
from __future__ import annotations

import itertools
import operator
import re
from typing import Any, Optional

from . import ids, network, people, secrets
from .common import HOME_KEYS, USER_KEYS, Text, pieces_with, strip_quotes

_PAIR_WORDS = ("token", "secret", "passw", "passphrase", "credential", "cookie", "key", "auth", "psk", "webhook", "pass",
               "pwd", "_pat", "pat_", "user", "logname", "hostname", "computername", "home", "userprofile", "ssid", "wifi",
               "wlan", "hotspot", "wireless")
_PAIR_SEPS = (": ", " =", "= ", ":\t", "=\t")
_JSON_PAIR = re.compile(r"""(["'])([A-Za-z_][\w.\-]{0,63})\1[ \t]*:[ \t]*(["'][^"'\n]*["'])""")
_FLAG_WORDS = ("-pass", "-token", "-api", "-secret", "-auth", "-access", "authorization")
_HINT_WORDS = ("token", "secret", "pass", "pwd", "pat", "cred", "cookie", "key", "auth", "psk", "hook", "user", "logname",
               "host", "computer", "home", "profile", "ssid", "wifi", "wi_fi", "wlan", "hotspot", "wireless")
_HINTS = r"token|secret|pass|pwd|pat|cred|cookie|key|auth|psk|hook|user|logname|host|computer|home|profile|ssid|wifi|wi_fi|wlan|hotspot|wireless"
_ASSIGN_HINT = re.compile(r"(?i)" + _HINTS)
_HINTED_LINE = re.compile(r"(?im)^[^\n]*?(?:" + _HINTS + r")[^\n]*")  # a whole line that holds a hint
_QUOTED_SEPS = ('="', "='", ':"', ": \"", ": '")


def learn_text(r: Any, text: str, pieces: list[str], joined: Optional[str] = None) -> None:
    """Find private values in free text; `pieces`: its distinct pieces between whitespace, in the
    order they first appear (stable numbering); `joined`: them joined by line ends, when the caller
    has that string already."""
    t = Text(text, pieces)
    if joined is not None:
        t.__dict__["joined"] = joined  # the cached_property, worked out once
    _learn_blocks(r, text)
    network.learn_wifi(r, t)
    network.learn_nm_files(r, t)
    secrets.learn_wifi_keys(r, t.lines_with(("psk", "key content", "schlüsselinhalt")))
    ids.learn_context(r, t)
    people.learn_context(r, t)
    _learn_pairs(r, t)
    _learn_quoted(r, t)
    _learn_piece_assignments(r, t)
    ids.learn_pieces(r, t, r._gpu_uuid_bodies)
    network.learn_pieces(r, t)
    secrets.learn_pieces(r, t.pieces)
    people.learn_pieces(r, t)


def _learn_blocks(r: Any, text: str) -> None:
    for a, b in secrets.key_blocks(text):
        v = secrets.body_value(text[a:b])
        if v:
            r.add("secret", v)


def name_says(r: Any, name: str) -> str:
    """What a label's value is: "secret", "user", "host", "home", "wifi" or "" (cached by name)."""
    said = r._names.get(name)
    if said is None:
        up = name.upper().replace("-", "_")
        said = ("secret" if secrets.is_secret_assignment(name) else "user" if up in USER_KEYS
                else "host" if up in ("HOSTNAME", "COMPUTERNAME") else "home" if up in HOME_KEYS
                else "wifi" if network.is_wifi_name_key(name) else "")
        r._names[name] = said
    return said


def learn_value(r: Any, name: str, value: str) -> None:
    said = name_says(r, name)
    value = strip_quotes(value)
    if not said or not value:
        return
    if said == "secret":
        if not value.startswith(("$", "%")):
            r.add_secret(value)
    elif said == "user":
        r.add_user(value)
    elif said == "host":
        r.add_host(value)
    elif said == "home":
        r.add_home(value)
    else:
        r.add_wifi(value)


def learn_values(r: Any, pairs: list[tuple[str, str]]) -> None:
    """learn_value for each (name, value) in order; in bulk when every name that says something says
    "secret" (the values of one kind keep their order, so their numbers are the same)."""
    says = [name_says(r, n) for n in dict.fromkeys(n for n, _ in pairs)]
    if "user" in says or "host" in says or "home" in says or "wifi" in says:
        for n, v in pairs:
            learn_value(r, n, v)
        return
    names = r._names
    vals = [v for n, v in pairs if names[n] == "secret"]
    if "'" in "".join(vals) or '"' in "".join(vals):
        vals = list(map(strip_quotes, vals))
    vals = list(filter(None, vals))
    r.add_secrets(itertools.compress(vals, map(operator.not_, map(str.startswith, vals, itertools.repeat(("$", "%"))))))


def _learn_piece_assignments(r: Any, t: Text) -> None:
    """NAME=value and name:value inside one piece (the names that can say something only)."""
    sep = list(itertools.compress(t.pieces, t.gate(("=", 1), (":", 1))))
    cand = "\n".join(pieces_with(sep, [w for w in _HINT_WORDS if not t.known_absent(w)]))
    if cand:
        learn_values(r, [(m[1], m[3]) for m in secrets.RE_ASSIGN.findall(cand)])


def _learn_quoted(r: Any, t: Text) -> None:
    """NAME="a value with spaces" (a quoted value spans pieces): on the lines that hold one."""
    lines = t.lines_with(_QUOTED_SEPS)
    if lines:
        hinted = "\n".join(_HINTED_LINE.findall(lines))
        pairs = [(m[1], m[3]) for m in secrets.RE_ASSIGN.findall(hinted) if m[3][:1] in "\"'"]
        pairs += [(m[1], m[2]) for m in _JSON_PAIR.findall(hinted)]  # "ssid": "...", 'password': '...' (JSON, YAML, Python)
        learn_values(r, pairs)


def _learn_pairs(r: Any, t: Text) -> None:
    """Values across pieces: `NAME = value`, `name: value`, `--password X`, `Authorization: Bearer X`
    (on the lines that hold such a name and a separator only)."""
    kv = t.lines_with(_PAIR_WORDS)
    if kv:
        lines = kv.split("\n")
        sep = [False] * len(lines)
        for s in _PAIR_SEPS:
            sep = list(map(operator.or_, sep, map(operator.contains, lines, itertools.repeat(s))))
        pairs: list[tuple[str, str]] = []
        for line in itertools.compress(lines, sep):
            _line_pairs(line.split(), pairs)
        learn_values(r, pairs)
    flags = t.lines_with(_FLAG_WORDS)
    for line in flags.split("\n") if flags else ():
        ps = line.split()
        for i, p in enumerate(ps):
            if p[0] == "-" or p[0] in "AaPp":
                secrets.learn_flag_or_header(r, p, ps[i + 1:i + 9])


def _line_pairs(ps: list[str], out: list[tuple[str, str]]) -> None:
    """(name, value) of `NAME = value`, `name: value`, `NAME =value` among a line's pieces."""
    for i, p in enumerate(ps):
        if p[-1] in ":=" and i + 1 < len(ps):
            name = p[:-1] if len(p) > 1 else (ps[i - 1] if i else "")
            if name and name[-1] not in ":=" and _ASSIGN_HINT.search(name):
                out.append((name.rsplit(":", 1)[-1] if name.startswith("$env:") else name, _value_at(ps, i + 1)))
        elif p[0] in ":=" and len(p) > 1 and i and _ASSIGN_HINT.search(ps[i - 1]):
            out.append((ps[i - 1], p[1:]))


def _value_at(ps: list[str], i: int) -> str:
    """The value that starts at piece i: one piece, or a quoted one up to its closing quote."""
    v = ps[i]
    if v[:1] in "\"'" and not (len(v) > 1 and v.endswith(v[0])):
        q = v[0]
        for p in ps[i + 1:i + 8]:
            v += " " + p
            if p.endswith(q):
                break
    return v.rstrip(",;")
