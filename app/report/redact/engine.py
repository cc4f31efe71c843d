"""The Redactor: one map from private value to placeholder (store.py), learned from text and data,
applied in time linear in the text.

Learning (learn.py and each kind's module) never runs a pattern over the whole text more than once:
the text's distinct pieces between whitespace are sorted into a few buckets by a cheap test made in
bulk ("@" in it, three dots, long...), and each kind's pattern runs over its bucket only; patterns
that need their words around them (labels, tables, key blocks) run over the lines that hold their
trigger words. Values are added in bulk (Store.add_all), in the order they first appear.

Replacing (walk.py, with the index of replace.py) never builds one regex of every learned value
(that costs time × values): the text is cut at spaces and line ends into pieces, and each distinct
piece is looked at once: a whole-piece hit in the map, the value inside its punctuation, the kinds
found by their own pattern (addresses, UUIDs, SIDs: pattern, then the map), and the other values
through an index by a word run of theirs (a value can only stand where its runs do): one-run values
by one regex split over all such pieces, the others with their boundaries. Values holding a space
are found with str.find over the text; names that are also everyday words only where they stand as
names."""
from __future__ import annotations

import functools
import gc
import re
from typing import Any, Callable, Iterable, Optional, TypeVar

from . import ids, learn, network, people, secrets
from .common import (COMMON_WORDS, HOME_KEYS, HOST_KEYS, NOT_PRIVATE_HOSTS, NOT_PRIVATE_USERS, PLACEHOLDER_RE,
                     USER_KEYS, strip_quotes)
from .replace import _Index
from .store import Store
from .walk import Cut, cut_text, replace

_T = TypeVar("_T")
_OTHER_SPACE = re.compile(r"[^\S\n]")  # whitespace other than a line end
_ASCII_OTHER_SPACE = "\t\x0b\x0c\r\x1c\x1d\x1e\x1f"  # what str.split() also cuts at, of ASCII (the space aside)


def _other_space(joined: str) -> bool:
    """Does `joined` (pieces cut at spaces, joined by line ends) hold whitespace other than a line end?
    Of an ASCII text: a few str.find of rare characters (a regex tries every character)."""
    if joined.isascii():
        return any(c in joined for c in _ASCII_OTHER_SPACE)
    return bool(_OTHER_SPACE.search(joined))


def _no_gc(fn: Callable[..., _T]) -> Callable[..., _T]:
    """Run without the cyclic garbage collector: a large text makes hundreds of thousands of small
    lists and tuples (none of them in a cycle), and the collections they set off cost a tenth of the
    time. Turned back on when the outermost call returns."""
    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> _T:
        if not gc.isenabled():
            return fn(*args, **kwargs)
        gc.disable()
        try:
            return fn(*args, **kwargs)
        finally:
            gc.enable()
    return run


_NOT_SECRETS = frozenset({"true", "false", "none", "null", "0", "1", "yes", "no", "***", "xxx", "<redacted>"})


class Redactor(Store):
    """Consistent replacement of private values. Learn first (or let `text`/`data` learn
    as they go), then replace; the same value always gets the same placeholder."""

    def __init__(self, users: Iterable[str] = (), hosts: Iterable[str] = (), homes: Iterable[str] = (),
                 secrets: Iterable[str] = ()):
        super().__init__()
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

    _add = Store.add

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
        ph = self._map.get(base) if base else None
        if ph is not None and ph.startswith("<user-"):
            return ph
        return self.add("home", path)

    def add_secret(self, value: Optional[str]) -> Optional[str]:
        if value is None:
            return None
        v = strip_quotes(value.strip())
        if not v or v.lower() in _NOT_SECRETS:
            return None
        return self.add("secret", v, weak=len(v) < 6)

    def add_secrets(self, values: Iterable[str]) -> None:
        """add_secret for each value, in bulk where nothing needs trimming."""
        vals = list(values)
        if not vals:
            return
        joined = "\n".join(vals)
        if ("'" in joined or '"' in joined or len(joined.split()) != len(vals) or min(map(len, vals)) < 6
                or not _NOT_SECRETS.isdisjoint(map(str.lower, vals))):
            for v in vals:
                self.add_secret(v)
            return
        self.add_all("secret", vals)

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
    @_no_gc
    def learn_text(self, text: str, cut: Optional[Cut] = None) -> None:
        """Find private values in free text (logs, command output, files); `cut`: the text already cut
        into pieces (walk.cut_text), when the caller has it."""
        if not text or not isinstance(text, str):
            return
        # distinct, in the order they first appear (stable numbering); from the distinct pieces between
        # spaces and line ends when the text is cut already (the same pieces, in the same order: as
        # they are when no piece holds other whitespace)
        joined: Optional[str] = None
        if cut is not None and cut[0] is text:
            joined = "\n".join(cut[2])
            if _other_space(joined):
                pieces, joined = list(dict.fromkeys(joined.split())), None
            elif "" in cut[2]:
                pieces, joined = list(filter(None, cut[2])), None
            else:  # the pieces as they are, and their join for learn.Text (the same string it would make)
                pieces = cut[2]
        else:
            pieces = list(dict.fromkeys(text.split()))
        learn.learn_text(self, text, pieces, joined)

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
    @_no_gc
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
        else:
            self._index.update()
        return self._index

    def _lookup(self, m: re.Match) -> str:
        g = m.group(0)
        return self.placeholder_any_case(g) or g

    def _replace_known(self, text: str, cut: Optional[Cut] = None) -> str:
        if not text or not self._map and not self._weak and "PRIVATE KEY" not in text and "Private-Lines:" not in text:
            return text
        text = self._replace_blocks(text)
        idx = self._idx()
        if not self._map and not self._weak:
            return text
        return replace(idx, text, cut)

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
        ph = self.placeholder_any_case(s) if s else None
        return value.replace(s, ph, 1) if ph else self._replace_known(value)

    @_no_gc
    def text(self, text: str, learn: bool = True) -> str:
        """Redact free text (a log, a command's output). Learns from it first unless told not to."""
        if not isinstance(text, str) or not text:
            return text
        cut = cut_text(text)
        if learn:
            self.learn_text(text, cut)
        return self._replace_known(text, cut)

    @_no_gc
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


# Keys whose value is a version ("cudnn": "9.24.0.43" is no address).
_VERSION_NUMBER = re.compile(r"\d+(?:\.\d+){1,5}")
_VERSION_KEY = re.compile(r"(?i)version|cudnn|cuda|nccl|driver|build|release|runtime|kernel|firmware|vbios|^v$|_v$")
