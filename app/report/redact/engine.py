"""The Redactor: one map from private value to placeholder, learned from text and data, applied in
time linear in the text.

Learning never runs a pattern over the whole text more than once: the text's distinct
space-separated pieces are sorted into a few buckets by a cheap character test ("@" in it, three dots,
long...), and each kind's pattern runs over its bucket only; patterns that need their words around
them (labels, tables, key blocks) run over the lines that hold their trigger words.

Replacing never builds one regex of every learned value (that costs time × values): the text is cut
at spaces and line ends into pieces; each distinct piece is looked at once: a whole-piece hit in the
map, the kinds found by their own pattern (addresses, UUIDs, SIDs: pattern, then the map), and the
other values through an index by their first word run (a value can only stand where its first run
does), checked with str.find and the value's boundaries. Values holding a space are found with
str.find over the text; names that are also everyday words only where they stand as names."""
from __future__ import annotations

import re
from typing import Any, Iterable, Optional

from . import ids, network, people, secrets
from .common import (NOCASE, COMMON_WORDS, HOME_KEYS, HOST_KEYS, KINDS, NOT_PRIVATE_HOSTS, NOT_PRIVATE_USERS, PLACEHOLDER_RE,
                     USER_KEYS, lines_with, pieces_with, strip_quotes)
from .replace import _Index

_PAIR_WORDS = ("token", "secret", "passw", "passphrase", "credential", "cookie", "key", "auth", "psk", "webhook", "pass",
               "pwd", "_pat", "pat_", "user", "logname", "hostname", "computername", "home", "userprofile", "ssid", "wifi",
               "wlan", "hotspot", "wireless")
_JSON_PAIR = re.compile(r"""(["'])([A-Za-z_][\w.\-]{0,63})\1[ \t]*:[ \t]*(["'][^"'\n]*["'])""")
_FLAG_WORDS = ("-pass", "-token", "-api", "-secret", "-auth", "-access", "authorization")
_HINT_WORDS = ("token", "secret", "pass", "pwd", "pat", "cred", "cookie", "key", "auth", "psk", "hook", "user", "logname",
               "host", "computer", "home", "profile", "ssid", "wifi", "wi_fi", "wlan", "hotspot", "wireless")
_ASSIGN_HINT = re.compile(r"(?i)token|secret|pass|pwd|pat|cred|cookie|key|auth|psk|hook|user|logname|host|computer|home|profile"
                          r"|ssid|wifi|wi_fi|wlan|hotspot|wireless")


class Redactor:
    """Consistent replacement of private values. Learn first (or let `text`/`data` learn
    as they go), then replace; the same value always gets the same placeholder."""

    def __init__(self, users: Iterable[str] = (), hosts: Iterable[str] = (), homes: Iterable[str] = (),
                 secrets: Iterable[str] = ()):
        self._map: dict[str, str] = {}  # value -> placeholder
        self._kind_of: dict[str, str] = {}
        self._weak: set[str] = set()  # values only replaced in a name's context
        self._counts: dict[str, int] = {}
        self._lower: dict[str, str] = {}
        self._by_lower: dict[str, dict[str, str]] = {}
        self._gpu_uuid_bodies: set[str] = set()
        self._index: Optional[_Index] = None
        self._names: dict[str, str] = {}  # cache: a label's lower-cased name -> what its value is
        self._whole_keys: dict[str, bool] = {}  # cache: a key whose string values are replaced whole (exact)
        self._version_keys: dict[str, bool] = {}  # cache: a key whose values may be version numbers
        for u in users:
            self.add_user(u)
        for h in hosts:
            self.add_host(h)
        for p in homes:
            self.add_home(p)
        for s in secrets:
            self.add_secret(s)

    # ---- the map ---------------------------------------------------------------------------
    def add(self, kind: str, value: str, weak: bool = False) -> Optional[str]:
        ph = self._map.get(value)
        if ph is not None:
            return ph
        if not value or "<" in value and PLACEHOLDER_RE.search(value):
            return None
        if kind in NOCASE:
            same = self._by_lower.setdefault(kind, {})
            low = value.lower()
            v = same.get(low)
            if v is not None:  # the same name in other letter case: the same placeholder
                ph = self._map[value] = self._map[v]
                self._kind_of[value] = kind
                if v in self._weak:
                    self._weak.add(value)
                self._index = None
                return ph
            same[low] = value
        n = self._counts[kind] = self._counts.get(kind, 0) + 1
        ph = self._map[value] = f"<{kind}-{n}>"
        self._kind_of[value] = kind
        if weak:
            self._weak.add(value)
        self._index = None
        return ph

    _add = add

    def has(self, value: str) -> bool:
        return value in self._map

    def placeholder(self, value: str) -> Optional[str]:
        return self._map.get(value)

    def counts(self) -> dict[str, int]:
        """How many distinct values of each kind were replaced (safe to publish)."""
        return {k: self._counts[k] for k in KINDS if self._counts.get(k)}

    def known(self, kind: Optional[str] = None) -> list[str]:
        """The learned values (private! for tests and the --no-redact warning only)."""
        return [v for v, k in self._kind_of.items() if kind is None or k == kind]

    # ---- adding by kind --------------------------------------------------------------------
    def add_user(self, name: Optional[str]) -> Optional[str]:
        if not name:
            return None
        name = name.strip()
        if "\\" in name:  # DOMAIN\user
            name = name.rsplit("\\", 1)[1]
        if not name or name.lower() in NOT_PRIVATE_USERS or PLACEHOLDER_RE.search(name) or len(name) > 64:
            return None
        if name.isdigit() or not re.fullmatch(r"[\w.@$ -]+", name):
            return None
        # a short or everyday word ("the", "dev") is replaced only where it stands as a name
        # (/home/<name>, user=<name>, <name>@host), never in the prose of a message
        return self.add("user", name, name.lower() in COMMON_WORDS or len(name) < 4)

    def add_host(self, name: Optional[str], first_label: bool = True) -> Optional[str]:
        """The machine's host name (and, for a full name, its first label too unless told not:
        a server's name such as mirror.corp.example must not make "mirror" private)."""
        if not name:
            return None
        name = name.strip().rstrip(".")
        if not name or name.lower() in NOT_PRIVATE_HOSTS or PLACEHOLDER_RE.search(name):
            return None
        if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9.-]{0,252}", name) or name.replace(".", "").isdigit():
            return None
        if "." in name:  # a full name: also its first label
            ph = self.add("host", name, weak=False)
            if first_label:
                self.add_host(name.split(".", 1)[0])
            return ph
        return self.add("host", name, name.lower() in COMMON_WORDS or len(name) < 4)

    def add_home(self, path: Optional[str]) -> Optional[str]:
        """A home directory. /home/<name> and C:\\Users\\<name> are covered by the user name;
        any other home path is replaced whole (`/data/ws7` → `<home-1>`)."""
        if not path:
            return None
        path = path.strip().rstrip("/\\")
        if not path or path in ("/root", "/", "/var/empty", "/nonexistent") or PLACEHOLDER_RE.search(path):
            return None
        win = re.fullmatch(r"(?i)[a-z]:\\Users\\([^\\]+)", path)
        if win:
            return self.add_user(win.group(1))
        m = people.RE_HOME.search(path)
        if m and m.end() == len(path):
            return self.add_user(m.group(1))
        base = path.rsplit("\\" if "\\" in path else "/", 1)[-1]
        if base and base in self._map and self._kind_of.get(base) == "user" and base not in self._weak:
            return self._map[base]
        return self.add("home", path)

    def add_secret(self, value: Optional[str]) -> Optional[str]:
        if value is None:
            return None
        v = strip_quotes(value.strip())
        if not v or v.lower() in ("true", "false", "none", "null", "0", "1", "yes", "no", "***", "xxx", "<redacted>"):
            return None
        return self.add("secret", v, weak=len(v) < 6)

    def add_serial(self, value: Any) -> Optional[str]:
        if value is None:
            return None
        v = str(value).strip().strip('"')
        if len(v) < 3 or v.lower() in ids.SERIAL_IGNORE or set(v) <= {"0", "f", "F", "x", "-"}:
            return None
        return self.add("serial", v)

    def add_ip(self, s: str) -> None:
        network.add_ip(self, s)

    def add_wifi(self, name: Optional[str]) -> Optional[str]:
        if not name:
            return None
        v = name.strip().strip('"')
        if not v or v in ("--", "off/any", "off", "any", "<hidden>") or len(v) > 64 or PLACEHOLDER_RE.search(v):
            return None
        return self.add("wifi", v, weak=network.wifi_weak(v))

    def add_name(self, name: Optional[str]) -> Optional[str]:
        """A person's real name (git user.name, GECOS): replaced as a whole phrase."""
        if not name:
            return None
        v = " ".join(name.split())
        if len(v) < 2 or len(v) > 100 or PLACEHOLDER_RE.search(v) or "@" in v or v.lower() in NOT_PRIVATE_USERS:
            return None
        if not re.search(r"[^\W\d_]", v):
            return None
        return self.add("name", v, weak=v.lower() in COMMON_WORDS or len(v) < 4)

    def add_id(self, kind: str, value: Any) -> Optional[str]:
        if value is None:
            return None
        v = str(value).strip().strip("{}\"'")
        if len(v) < 3 or v.lower() in ids.NOT_A_VALUE or set(v.lower()) <= set("0x-:.") or PLACEHOLDER_RE.search(v):
            return None
        return self.add(kind, v)

    _add_id = add_id
    _add_ip = add_ip

    # ---- learning from text ----------------------------------------------------------------
    def learn_text(self, text: str) -> None:
        """Find private values in free text (logs, command output, files)."""
        if not text or not isinstance(text, str):
            return
        low = text.lower()
        self._learn_blocks(text)
        network.learn_wifi(self, text, low)
        network.learn_nm_files(self, text, low)
        if "psk" in low or "key content" in low or "schlüsselinhalt" in low:
            secrets.learn_wifi_keys(self, lines_with(text, low, ("psk", "key content", "schlüsselinhalt")))
        ids.learn_context(self, text, low)
        people.learn_context(self, text, low)
        self._learn_pairs(text, low)
        self._learn_quoted(text, low)
        pieces = list(dict.fromkeys(text.split()))  # distinct, in the order they first appear (stable numbering)
        self._learn_piece_assignments(pieces)
        ids.learn_pieces(self, pieces, self._gpu_uuid_bodies)
        network.learn_pieces(self, pieces, text, low)
        secrets.learn_pieces(self, pieces)
        people.learn_pieces(self, pieces)

    def _learn_blocks(self, text: str) -> None:
        for a, b in secrets.key_blocks(text):
            v = secrets.body_value(text[a:b])
            if v:
                self.add("secret", v)

    def _name_says(self, name: str) -> str:
        """What a label's value is: "secret", "user", "host", "home", "wifi" or "" (cached by name)."""
        said = self._names.get(name)
        if said is None:
            up = name.upper().replace("-", "_")
            said = ("secret" if secrets.is_secret_assignment(name) else "user" if up in USER_KEYS
                    else "host" if up in ("HOSTNAME", "COMPUTERNAME") else "home" if up in HOME_KEYS
                    else "wifi" if network.is_wifi_name_key(name) else "")
            self._names[name] = said
        return said

    def _learn_value(self, name: str, value: str) -> None:
        said = self._name_says(name)
        value = strip_quotes(value)
        if not said or not value:
            return
        if said == "secret":
            if not value.startswith(("$", "%")):
                self.add_secret(value)
        elif said == "user":
            self.add_user(value)
        elif said == "host":
            self.add_host(value)
        elif said == "home":
            self.add_home(value)
        else:
            self.add_wifi(value)

    def _learn_piece_assignments(self, pieces: list[str]) -> None:
        """NAME=value and name:value inside one piece (the names that can say something only)."""
        cand = "\n".join(p for p in pieces_with([p for p in pieces if "=" in p or ":" in p], _HINT_WORDS))
        for m in secrets.RE_ASSIGN.finditer(cand):
            self._learn_value(m.group(2), m.group(4))

    def _learn_quoted(self, text: str, low: str) -> None:
        """NAME="a value with spaces" (a quoted value spans pieces): on the lines that hold one."""
        lines = lines_with(text, low, ('="', "='", ':"', ": \"", ": '"))
        if lines:
            hinted = "\n".join(ln for ln in lines.split("\n") if _ASSIGN_HINT.search(ln))
            for m in secrets.RE_ASSIGN.finditer(hinted):
                if m.group(4)[:1] in "\"'":
                    self._learn_value(m.group(2), m.group(4))
            for m in _JSON_PAIR.finditer(hinted):  # "ssid": "...", 'password': '...' (JSON, YAML, Python)
                self._learn_value(m.group(2), m.group(3))

    def _learn_pairs(self, text: str, low: str) -> None:
        """Values across pieces: `NAME = value`, `name: value`, `--password X`, `Authorization: Bearer X`
        (on the lines that hold such a name and a separator only)."""
        kv = lines_with(text, low, _PAIR_WORDS)
        for line in kv.split("\n") if kv else ():
            if not (": " in line or " =" in line or "= " in line or ":\t" in line or "=\t" in line):
                continue
            ps = line.split()
            for i, p in enumerate(ps):
                if p[-1] in ":=" and i + 1 < len(ps):
                    name = p[:-1] if len(p) > 1 else (ps[i - 1] if i else "")
                    if name and name[-1] not in ":=" and _ASSIGN_HINT.search(name):
                        self._learn_value(name.rsplit(":", 1)[-1] if name.startswith("$env:") else name, _value_at(ps, i + 1))
                elif p[0] in ":=" and len(p) > 1 and i and _ASSIGN_HINT.search(ps[i - 1]):
                    self._learn_value(ps[i - 1], p[1:])
        flags = lines_with(text, low, _FLAG_WORDS)
        for line in flags.split("\n") if flags else ():
            ps = line.split()
            for i, p in enumerate(ps):
                if p[0] == "-" or p[0] in "AaPp":
                    secrets.learn_flag_or_header(self, p, ps[i + 1:i + 9])

    def learn_live(self, system: Any = None) -> "Redactor":
        """Learn this machine's user, host name, home and secret-named environment values."""
        from .snapshot import learn_live

        learn_live(self, system)
        return self

    def learn_snapshot(self, data: dict[str, Any]) -> "Redactor":
        """Learn from a format-1 snapshot (see app.report.redact.snapshot)."""
        from .snapshot import learn_snapshot

        learn_snapshot(self, data)
        return self

    # ---- learning from data ------------------------------------------------------------------
    def learn(self, obj: Any, key: str = "") -> None:
        """Walk JSON-like data: learn from strings (all at once), and from what keys say a value is."""
        batch: list[str] = []
        self._walk(obj, key, batch)
        if batch:
            self.learn_text("\n\n".join(batch))

    def _walk(self, obj: Any, key: str, batch: list[str]) -> None:
        if isinstance(obj, dict):
            for k, v in obj.items():
                ks = str(k)
                batch.append(ks)
                self._learn_keyed(ks, v)
                self._walk(v, ks, batch)
        elif isinstance(obj, (list, tuple)):
            for v in obj:
                self._walk(v, key, batch)
        elif isinstance(obj, str):
            if key:
                versioned = self._version_keys.get(key)
                if versioned is None:
                    versioned = self._version_keys[key] = bool(_VERSION_KEY.search(key))
                if versioned and _VERSION_NUMBER.fullmatch(obj.strip()):
                    return  # a version number
            batch.append(obj)

    def _learn_keyed(self, key: str, v: Any) -> None:
        norm = re.sub(r"[^a-z]", "", key.lower())
        if isinstance(v, (int, float)) and not isinstance(v, bool) and "serial" in key.lower():
            self.add_serial(str(v))
            return
        if isinstance(v, (int, str)) and not isinstance(v, bool) and norm in ids.FABRIC_KEYS:
            self.add_id("fabric-id", str(v))
            return
        if not isinstance(v, str) or not v:
            return
        if key.startswith("/") or "\\" in key:  # a path: a file's content
            self._learn_file(key, v)
            return
        up = key.upper()
        if up in USER_KEYS:
            self.add_user(v)
        elif up in HOST_KEYS:
            self.add_host(v)
        elif up in HOME_KEYS:
            self.add_home(v)
        elif "serial" in key.lower():
            self.add_serial(v)
        elif secrets.is_secret_name(key) and key.lower() not in ("auth", "key") and not v.startswith("$"):
            self.add_secret(v)
        elif key.lower() in ("auth", "key") and secrets.looks_like_token(v):
            self.add_secret(v)
        elif network.is_wifi_name_key(key) and "\n" not in v.strip():
            self.add_wifi(v)
        if key in ("uuid", "gpu_uuid") and not ids.RE_GPU_UUID.fullmatch(v) and len(v) > 8:
            self.add("gpu-uuid", v)

    def _learn_file(self, path: str, v: str) -> None:
        base = re.split(r"[\\/]", path)[-1]
        one_line = "\n" not in v.strip()
        if base in ids.MACHINE_ID_FILES and one_line:
            self.add_id("machine-id", v.strip())
        nm = network.nm_file_wifi(path)
        if nm:
            self.add_wifi(nm)
        if path in ("/etc/hostname", "/proc/sys/kernel/hostname", "/etc/mailname"):
            self.add_host(v.strip().splitlines()[0] if v.strip() else "")
        if secrets.is_secret_name(path.rsplit("/", 1)[-1]) and one_line:
            self.add_secret(v.strip())

    # ---- replacing -------------------------------------------------------------------------
    def _idx(self) -> _Index:
        if self._index is None:
            self._index = _Index(self)
            self._lower = self._index.lower
        return self._index

    def _lookup(self, m: re.Match) -> str:
        g = m.group(0)
        return self._map.get(g) or self._lower.get(g.lower()) or g

    def _replace_known(self, text: str) -> str:
        if not text or not self._map and "PRIVATE KEY" not in text and "Private-Lines:" not in text:
            return text
        text = self._replace_blocks(text)
        idx = self._idx()
        if not self._map:
            return text
        return idx.replace(text)

    def _replace_blocks(self, text: str) -> str:
        spans = secrets.key_blocks(text)
        if not spans:
            return text
        out, pos = [], 0
        for a, b in spans:
            v = secrets.body_value(text[a:b])
            ph = self.add("secret", v) if v else None
            if a < pos or not ph:
                continue
            out += [text[pos:a], ph]
            pos = b
        out.append(text[pos:])
        return "".join(out)

    def exact(self, value: str) -> str:
        """A value that is exactly one private name (a file holding only the host name,
        USER=..., `whoami`): replaced whole, even a common word such as `ubuntu`."""
        if not isinstance(value, str):
            return value
        s = value.strip()
        ph = self._map.get(s)
        if ph is None and s:
            self._idx()
            if self._kind_of.get(s) is None:
                ph = self._lower.get(s.lower())
        return value.replace(s, ph, 1) if ph else self._replace_known(value)

    def text(self, text: str, learn: bool = True) -> str:
        """Redact free text (a log, a command's output). Learns from it first unless told not to."""
        if not isinstance(text, str) or not text:
            return text
        if learn:
            self.learn_text(text)
        return self._replace_known(text)

    def data(self, obj: Any, learn: bool = True) -> Any:
        """Redact JSON-like data (a copy): keys and values, by content and by key name."""
        if learn:
            self.learn(obj)
        return self._apply(obj)

    def _apply(self, obj: Any, key: str = "") -> Any:
        if isinstance(obj, dict):
            return {(self._replace_known(k) if isinstance(k, str) else k): self._apply(v, str(k)) for k, v in obj.items()}
        if isinstance(obj, list):
            return [self._apply(v, key) for v in obj]
        if isinstance(obj, tuple):
            return tuple(self._apply(v, key) for v in obj)
        if isinstance(obj, str):
            whole = self._whole_keys.get(key)
            if whole is None:
                whole = self._whole_keys[key] = bool(
                    key.upper() in USER_KEYS or key.upper() in HOST_KEYS or key.upper() in HOME_KEYS
                    or key in ("/etc/hostname", "/proc/sys/kernel/hostname", "/etc/mailname")
                    or secrets.is_secret_name(key) or "serial" in key.lower() or network.is_wifi_name_key(key))
            return self.exact(obj) if whole else self._replace_known(obj)
        if isinstance(obj, (int, float)) and not isinstance(obj, bool) and (
                "serial" in key.lower() or re.sub(r"[^a-z]", "", key.lower()) in ids.FABRIC_KEYS):
            return self._map.get(str(obj), obj)
        return obj

    def value_check(self, text: str) -> list[str]:
        """The learned values still present in `text` (for tests and self-checks)."""
        return [v for v in self._map if v not in self._weak and v in text]


# Keys whose value is a version ("cudnn": "9.24.0.43" is no address).
_VERSION_NUMBER = re.compile(r"\d+(?:\.\d+){1,5}")
_VERSION_KEY = re.compile(r"(?i)version|cudnn|cuda|nccl|driver|build|release|runtime|kernel|firmware|vbios|^v$|_v$")


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


