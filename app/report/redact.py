"""Redaction: take private values out of snapshots, reports and logs before they are shared.

A `Redactor` replaces each private value with a placeholder, consistently: the same value
always gets the same placeholder (`alice` → `<user-1>` everywhere), so support staff can
still follow a log. It covers user names, host names, home paths, IPv4/IPv6 and MAC
addresses, GPU UUIDs (and other UUIDs), serial numbers, e-mail addresses and secrets
(environment values whose name says token/secret/password/key/auth, credentials in URLs,
and token-shaped strings: ghp_/hf_/sk-/AKIA... prefixes, JWTs, long high-entropy strings).

It works in two passes over the same material: `learn()` finds values (from text patterns,
from structured keys such as `USER`, `HOSTNAME`, `serial`, and from paths under /home/<name>),
then `text()` / `data()` replace every learned value in one regex pass, so a name learned in
one file is also removed from every other file, and a placeholder is never rewritten.

Names that are also ordinary words (`ubuntu`, `admin`, a two-letter host name like `vm`) are
replaced only where they stand as a name (`/home/ubuntu`, `ubuntu@host`, `USER=ubuntu`, the
host field of `uname -a`, a value that is exactly the name), so `ID=ubuntu` in os-release and
detection's answers survive. `root`, `localhost`, loopback and unspecified addresses are not
private and are kept.

Redacting a snapshot keeps it a valid format-1 snapshot: keys (paths) and values are redacted
with the same map, so a path read through `$HOME` still resolves; detection gives the same
GPU, driver and CUDA answers.
"""
from __future__ import annotations

import copy
import ipaddress
import math
import re
from collections import Counter
from typing import Any, Iterable, Optional

KINDS = ("user", "host", "home", "ip", "mac", "gpu-uuid", "uuid", "serial", "email", "secret")

PLACEHOLDER_RE = re.compile(r"<(?:%s)-\d+>" % "|".join(re.escape(k) for k in KINDS))

# Names that are also everyday words in these files: replaced only in a name's context.
COMMON_WORDS = frozenset("""
ubuntu debian admin administrator user users nvidia cuda gpu gpus linux test tests guest default public
local home vm wsl docker runner pi ec2 centos fedora rocky alma rhel suse opensuse arch kali mint pop
server desktop workstation machine host node worker master main dev devel build ci data shared share
python torch conda anaconda miniconda jupyter lab ai ml compute cloud box system sys service services
tesla quadro geforce titan rtx gtx hopper ampere turing volta pascal ada lovelace blackwell kepler maxwell
jetson orin grace nvidia-smi driver kernel module open proprietary version release
the and for with from this that not you your are was were has have had but all any can will one two new
see use used using set get run make file files path name names text line lines note list when where which
what who how why out off into over under then than them they their there here these those its our his her
""".split())
NOT_PRIVATE_USERS = frozenset({"root", "nobody", "daemon", "bin", "sys", "public", "default", "all users",
                               "default user", "defaultuser0", "shared", "wsl", "linuxbrew", "<user"})
NOT_PRIVATE_HOSTS = frozenset({"localhost", "localhost.localdomain", "localdomain", "(none)", "none", "unknown",
                               "ip6-localhost", "ip6-loopback"})
SERIAL_IGNORE = frozenset({"n/a", "na", "none", "0", "00000000", "not specified", "to be filled by o.e.m.",
                           "default string", "system serial number", "unknown", "[n/a]", "not supported",
                           "[not supported]", "0123456789", "chassis serial number", "base board serial number"})

# Names of variables (and keys) whose value is a secret: *TOKEN*, *SECRET*, *PASSWORD*, *KEY*, *AUTH*,
# credentials, cookies, and PASS/PWD/PAT as a word of the name.
_SECRET_NAME = re.compile(
    r"(?i)(TOKEN|SECRET|PASSW(?:OR)?D|PASSPHRASE|CREDENTIAL|COOKIE|KEY|AUTH"
    r"|(?:^|[_\-.])(?:PASS|PWD|PAT)(?:$|[_\-.]))")
_NOT_SECRET_NAME = re.compile(r"(?i)^(PWD|OLDPWD)$|_(FILE|PATH|DIR|URL|ID)$|KEYBOARD|KEYMAP|KEYRING|KEYCHAIN|^XKB|KEYS?_?(ID|NAME)$|AUTHOR")
# In free text ("name=value", "name: value") a name counts only when it looks like an environment
# variable (upper case) or has a secret word as one of its parts: `libkeyutils1:amd64` is no secret.
_SECRET_WORD = re.compile(r"(?i)(?:^|[_\-.])(?:[A-Z]*TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY"
                          r"|SECRET_?KEY|AUTH_?TOKEN|CREDENTIALS?|PASS|PWD|KEY|AUTH)(?:$|[_\-.])")
_USER_KEYS = frozenset({"USER", "LOGNAME", "USERNAME", "SUDO_USER", "PKEXEC_UID_NAME"})
_HOST_KEYS = frozenset({"HOSTNAME", "COMPUTERNAME", "WSL_HOSTNAME", "HOST_NAME"})
_HOME_KEYS = frozenset({"HOME", "USERPROFILE", "HOMEPATH"})
_HOSTNAME_FILES = ("/etc/hostname", "/proc/sys/kernel/hostname", "/etc/mailname")

# ---- patterns that find values in text -------------------------------------------------------
_HEX = "[0-9a-fA-F]"
_UUID_BODY = rf"{_HEX}{{8}}-{_HEX}{{4}}-{_HEX}{{4}}-{_HEX}{{4}}-{_HEX}{{12}}"
RE_GPU_UUID = re.compile(rf"(?<![\w-])(?:GPU|MIG)-(?:GPU-)?{_UUID_BODY}(?![\w-])")
RE_UUID = re.compile(rf"(?<![\w-]){_UUID_BODY}(?![\w-])")
RE_MAC = re.compile(r"(?<![\w:.-])(?:[0-9a-fA-F]{2}([:-]))(?:[0-9a-fA-F]{2}\1){4}[0-9a-fA-F]{2}"
                    r"(?:(?:\1[0-9a-fA-F]{2}){2}|(?:\1[0-9a-fA-F]{2}){14})?(?![\w:.-])")
_OCTET = r"(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)"
RE_IPV4 = re.compile(rf"(?<![\w.-]){_OCTET}\.{_OCTET}\.{_OCTET}\.{_OCTET}(?![\w+~-]|\.\d)")
RE_IPV6 = re.compile(r"(?<![\w:.])(?=[0-9a-fA-F:]*:[0-9a-fA-F:]*:)[0-9a-fA-F:]{2,39}(?:%[\w.]+)?(?![\w:])")
RE_EMAIL = re.compile(r"(?<![\w.+-])[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,24}(?![\w-])")
RE_URL_CRED = re.compile(r"(?i)\b([a-z][a-z0-9+.-]{1,15}://)([^\s:/@<>\"']+):([^\s@/<>\"']+)@([A-Za-z0-9][A-Za-z0-9.-]*)?")
# Host names under suffixes that exist only inside an organisation (RFC 6762 .local, .internal, ...).
RE_PRIVATE_HOST = re.compile(r"(?i)(?<![\w.-])(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:local|lan|internal|intranet|corp|home\.arpa|private)(?![\w.-])")
RE_URL_TOKEN = re.compile(r"(?i)\b([a-z][a-z0-9+.-]{1,15}://)([^\s:/@<>\"']{8,})@")
RE_ASSIGN = re.compile(
    r"(?i)(?<![\w])((?:export\s+|set\s+|\$env:)?([A-Za-z_][A-Za-z0-9_.\-]*))(\s*[=:]\s*)"
    r"(\"[^\"\n]*\"|'[^'\n]*'|[^\s\"',;]+)")
RE_FLAG = re.compile(r"(?i)((?<![\w-])--?(?:password|passwd|pass|token|api-?key|secret|auth|access-?key)(?:[= ]|\s+))(\"[^\"]*\"|'[^']*'|[^\s\"']+)")
RE_AUTH_HEADER = re.compile(r"(?i)\b(authorization|proxy-authorization)(\s*[:=]\s*)(?:(bearer|basic|token|digest)\s+)?([^\s\"',;]+)")
RE_SERIAL = re.compile(r"(?im)\b((?:(?:board|product|chassis|gpu|module|system)[ _])?serial(?:[ _]?(?:number|no\.?))?|GPU PDI)"
                       r"(\s*[:=]\s*)\"?([A-Za-z0-9][A-Za-z0-9_\-./]{2,63})")
RE_TOKEN_PREFIX = re.compile(
    r"(?<![\w-])(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|hf_[A-Za-z0-9]{20,}|sk-(?:proj-|ant-)?[A-Za-z0-9_\-]{20,}"
    r"|xox[abprs]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|ASIA[0-9A-Z]{16}|glpat-[A-Za-z0-9_\-]{20,}|npm_[A-Za-z0-9]{30,}"
    r"|eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}|AIza[0-9A-Za-z_\-]{35})(?![\w-])")
RE_LONG = re.compile(r"(?<![\w+/-])[A-Za-z0-9_\-+][A-Za-z0-9_\-+/]{31,}={0,2}(?![\w+=/-])")
RE_HOME = re.compile(r"(?:(?<=/home/)|(?<=/Users/)|(?<=\\Users\\)|(?<=/users/)|(?<=\\users\\))([^/\\\s:;'\"<>|,=*?()\[\]{}]{1,64})")
RE_PROMPT = re.compile(r"(?<![\w.@-])([a-z_][a-z0-9_.-]{0,31})@([A-Za-z0-9][A-Za-z0-9-]{0,62})(?=:[~/]|\s*[:$#>] |[$#] )")
RE_UNAME = re.compile(r"(?m)^(?:Linux|Darwin|FreeBSD) ([A-Za-z0-9][A-Za-z0-9.-]{0,252}) \d+\.\d+\S* #\d")


# Cheap pre-checks (a literal first character lets the regex engine skip ahead) before the full patterns.
_HAS_UUID = re.compile(r"-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-")
_HAS_MAC = re.compile(r":[0-9a-fA-F]{2}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}:|-[0-9a-fA-F]{2}-[0-9a-fA-F]{2}-[0-9a-fA-F]{2}-")
_TOKEN_PREFIXES = ("gh", "github_pat_", "hf_", "sk-", "xox", "AKIA", "ASIA", "glpat-", "npm_", "eyJ", "AIza")


# "kernel 5.15.133.1", "Version: 10.0.22631.4460": a dotted version, not an address.
_VERSION_BEFORE = re.compile(r"(?i)(?:version|kernel|release|build|driver|firmware|vbios|cudnn|cuda|nccl|cublas|tensorrt|torch"
                             r"|python|\bv|[=<>~]=)\s*[:=]?\s*[(\"']?$")
# Keys whose value is a version ("cudnn": "9.24.0.43" is no address).
_VERSION_KEY = re.compile(r"(?i)version|cudnn|cuda|nccl|driver|build|release|runtime|kernel|firmware|vbios|^v$|_v$")


def _entropy(s: str) -> float:
    n = len(s)
    return -sum(c / n * math.log2(c / n) for c in Counter(s).values())


def looks_like_token(s: str) -> bool:
    """A long random-looking string: mixed case and digits, high entropy (not a hex digest)."""
    if len(s) < 32 or PLACEHOLDER_RE.search(s):
        return False
    if not (re.search(r"[a-z]", s) and re.search(r"[A-Z]", s) and re.search(r"\d", s)):
        return False
    if re.fullmatch(r"[A-Za-z]+(?:[_-][A-Za-z0-9]+)*", s) and len(re.findall(r"\d", s)) < 4:
        return False  # an identifier with words, e.g. NVIDIA_Driver_Version_560
    if s.startswith(("_Z", "__Z")):
        return False  # a C++ symbol (Itanium mangling) from a stack trace
    if "/" in s and any(re.fullmatch(r"[a-z0-9_.-]{3,}", seg) for seg in s.split("/")):
        return False  # a relative path or URL part (tests/fixtures/real/..., com/org/repo/issues/28)
    return _entropy(s) >= 4.0


def is_secret_name(name: str) -> bool:
    return bool(_SECRET_NAME.search(name)) and not _NOT_SECRET_NAME.search(name)


def is_secret_assignment(name: str) -> bool:
    """`name` in a "name=value" line of free text names a secret."""
    if re.fullmatch(r"[A-Z][A-Z0-9_]*", name):
        return is_secret_name(name)
    return bool(_SECRET_WORD.search(name)) and not _NOT_SECRET_NAME.search(name)


def _strip_quotes(v: str) -> str:
    if len(v) >= 2 and v[0] == v[-1] and v[0] in "\"'":
        return v[1:-1]
    return v


class Redactor:
    """Consistent replacement of private values. Learn first (or let `text`/`data` learn
    as they go), then replace; the same value always gets the same placeholder."""

    def __init__(self, users: Iterable[str] = (), hosts: Iterable[str] = (), homes: Iterable[str] = (),
                 secrets: Iterable[str] = ()):
        self._map: dict[str, str] = {}  # value -> placeholder
        self._kind_of: dict[str, str] = {}
        self._weak: set[str] = set()  # values only replaced in a name's context
        self._counts: Counter = Counter()
        self._regex: Optional[re.Pattern] = None
        self._lower: dict[str, str] = {}
        for u in users:
            self.add_user(u)
        for h in hosts:
            self.add_host(h)
        for p in homes:
            self.add_home(p)
        for s in secrets:
            self.add_secret(s)

    # ---- the map ---------------------------------------------------------------------------
    def _add(self, kind: str, value: str, weak: bool = False) -> Optional[str]:
        if not value or PLACEHOLDER_RE.search(value):
            return None
        if value in self._map:
            return self._map[value]
        if kind in self._NOCASE:
            low = value.lower()
            for v, k in self._kind_of.items():
                if k == kind and v.lower() == low:
                    self._map[value] = self._map[v]
                    self._kind_of[value] = kind
                    if v in self._weak:
                        self._weak.add(value)
                    self._regex = None
                    return self._map[v]
        self._counts[kind] += 1
        ph = f"<{kind}-{self._counts[kind]}>"
        self._map[value] = ph
        self._kind_of[value] = kind
        if weak:
            self._weak.add(value)
        self._regex = None
        return ph

    def placeholder(self, value: str) -> Optional[str]:
        return self._map.get(value)

    def counts(self) -> dict[str, int]:
        """How many distinct values of each kind were replaced (safe to publish)."""
        return {k: self._counts[k] for k in KINDS if self._counts[k]}

    def known(self, kind: Optional[str] = None) -> list[str]:
        """The learned values (private! for tests and the --no-redact warning only)."""
        return [v for v, k in self._kind_of.items() if kind is None or k == kind]

    # ---- learning --------------------------------------------------------------------------
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
        weak = name.lower() in COMMON_WORDS or len(name) < 4
        return self._add("user", name, weak)

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
        ph = None
        if "." in name:  # a full name: also its first label
            ph = self._add("host", name, weak=False)
            if first_label:
                self.add_host(name.split(".", 1)[0])
            return ph
        weak = name.lower() in COMMON_WORDS or len(name) < 4
        return self._add("host", name, weak)

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
        m = RE_HOME.search(path)
        if m and m.end() == len(path):
            return self.add_user(m.group(1))
        sep = "\\" if "\\" in path else "/"
        base = path.rsplit(sep, 1)[-1]
        if base and base in self._map and self._kind_of.get(base) == "user" and base not in self._weak:
            return self._map[base]
        return self._add("home", path)

    def add_secret(self, value: Optional[str]) -> Optional[str]:
        if value is None:
            return None
        v = _strip_quotes(value.strip())
        if not v or v.lower() in ("true", "false", "none", "null", "0", "1", "yes", "no", "***", "xxx", "<redacted>"):
            return None
        return self._add("secret", v, weak=len(v) < 6)

    def add_serial(self, value: Optional[str]) -> Optional[str]:
        if value is None:
            return None
        v = str(value).strip().strip('"')
        if len(v) < 3 or v.lower() in SERIAL_IGNORE or set(v) <= {"0", "f", "F", "x", "-"}:
            return None
        return self._add("serial", v)

    def _add_ip(self, s: str) -> None:
        try:
            ip = ipaddress.ip_address(s.split("%", 1)[0])
        except ValueError:
            return
        if ip.is_loopback or ip.is_unspecified or ip.is_multicast:
            return
        if ip.version == 4 and (s.startswith("255.") or ip == ipaddress.ip_address("255.255.255.255")):
            return
        self._add("ip", s)

    def learn_text(self, text: str) -> None:
        """Find private values in free text (logs, command output, files)."""
        if not text or not isinstance(text, str):
            return
        low = text.lower()
        if "gpu-" in low or "mig-" in low:
            for m in RE_GPU_UUID.finditer(text):
                self._add("gpu-uuid", m.group(0))
        if _HAS_UUID.search(text):
            for m in RE_UUID.finditer(text):
                if m.group(0) not in self._map and not any(m.group(0) in v for v in self.known("gpu-uuid")):
                    self._add("uuid", m.group(0))
        if _HAS_MAC.search(text):
            for m in RE_MAC.finditer(text):
                mac = m.group(0)
                if mac.replace(m.group(1), "").strip("0").lower() not in ("", "ffffffffffff"):
                    self._add("mac", mac)
        if "." in text:
            for m in RE_IPV4.finditer(text):
                if not _VERSION_BEFORE.search(text, max(0, m.start() - 24), m.start()):
                    self._add_ip(m.group(0))
        if "::" in text or text.count(":") >= 7:
            for m in RE_IPV6.finditer(text):
                if m.group(0).count(":") >= 2:
                    self._add_ip(m.group(0))
        if "@" in text and "://" in text:
            for m in RE_URL_CRED.finditer(text):
                self.add_user(m.group(2)) if not looks_like_token(m.group(2)) else self.add_secret(m.group(2))
                self.add_secret(m.group(3))
                if m.group(4) and "." in m.group(4) and not RE_IPV4.fullmatch(m.group(4)):
                    self.add_host(m.group(4), first_label=False)  # a server one logs in to is the organisation's own
            for m in RE_URL_TOKEN.finditer(text):
                if looks_like_token(m.group(2)) or RE_TOKEN_PREFIX.fullmatch(m.group(2)):
                    self.add_secret(m.group(2))
        if "@" in text:
            for m in RE_PROMPT.finditer(text):
                self.add_user(m.group(1))
                self.add_host(m.group(2))
            for m in RE_EMAIL.finditer(text):
                if m.start() == 0 or text[m.start() - 1] != ":":  # not user:password@host
                    self._add("email", m.group(0))
        for m in RE_ASSIGN.finditer(text):
            name, value = m.group(2), _strip_quotes(m.group(4))
            up = name.upper().replace("-", "_")
            if is_secret_assignment(name) and not value.startswith("$") and not value.startswith("%"):
                self.add_secret(value)
            elif up in _USER_KEYS:
                self.add_user(value)
            elif up in ("HOSTNAME", "COMPUTERNAME"):
                self.add_host(value)
            elif up in _HOME_KEYS:
                self.add_home(value)
        for m in RE_FLAG.finditer(text) if "-" in text else ():
            self.add_secret(m.group(2))
        if "authorization" in low:
            for m in RE_AUTH_HEADER.finditer(text):
                self.add_secret(m.group(4))
        if "serial" in low or "gpu pdi" in low:
            for m in RE_SERIAL.finditer(text):
                if re.search(r"\d", m.group(3)):
                    self.add_serial(m.group(3))
        if any(p in text for p in _TOKEN_PREFIXES):
            for m in RE_TOKEN_PREFIX.finditer(text):
                self.add_secret(m.group(0))
        for m in RE_LONG.finditer(text):
            if looks_like_token(m.group(0)):
                self.add_secret(m.group(0))
        if "/home/" in text or "users" in low:
            for m in RE_HOME.finditer(text):
                self.add_user(m.group(1))
        if ".local" in low or ".lan" in low or ".internal" in low or ".intranet" in low or ".corp" in low or ".private" in low \
                or ".home.arpa" in low:
            for m in RE_PRIVATE_HOST.finditer(text):
                self.add_host(m.group(0), first_label=False)
        if "linux " in low or "darwin " in low or "freebsd " in low:
            for m in RE_UNAME.finditer(text):
                self.add_host(m.group(1))

    def learn(self, obj: Any, key: str = "") -> None:
        """Walk JSON-like data: learn from strings, and from what keys say a value is."""
        if isinstance(obj, dict):
            for k, v in obj.items():
                ks = str(k)
                self.learn_text(ks)
                self._learn_keyed(ks, v)
                self.learn(v, ks)
        elif isinstance(obj, (list, tuple)):
            for v in obj:
                self.learn(v, key)
        elif isinstance(obj, str):
            if key and _VERSION_KEY.search(key) and re.fullmatch(r"\d+(?:\.\d+){1,5}", obj.strip()):
                return  # a version number
            self.learn_text(obj)

    def _learn_keyed(self, key: str, v: Any) -> None:
        up = key.upper()
        if isinstance(v, (int, float)) and not isinstance(v, bool) and "serial" in key.lower():
            self.add_serial(str(v))
            return
        if not isinstance(v, str) or not v:
            return
        if key.startswith("/") or "\\" in key:  # a path: a file's content
            if key in _HOSTNAME_FILES:
                self.add_host(v.strip().splitlines()[0] if v.strip() else "")
            if is_secret_name(key.rsplit("/", 1)[-1]) and "\n" not in v.strip():
                self.add_secret(v.strip())
            return
        if up in _USER_KEYS:
            self.add_user(v)
        elif up in ("HOSTNAME", "COMPUTERNAME", "WSL_HOSTNAME", "HOST_NAME"):
            self.add_host(v)
        elif up in _HOME_KEYS:
            self.add_home(v)
        elif "serial" in key.lower():
            self.add_serial(v)
        elif is_secret_name(key) and key.lower() not in ("auth", "key") and not v.startswith("$"):
            self.add_secret(v)
        elif key.lower() in ("auth", "key") and looks_like_token(v):
            self.add_secret(v)
        if key in ("uuid", "gpu_uuid") and not RE_GPU_UUID.fullmatch(v) and len(v) > 8:
            self._add("gpu-uuid", v)

    def learn_live(self, system: Any = None) -> "Redactor":
        """Learn this machine's user, host name, home and secret-named environment values."""
        import getpass
        import os
        import socket

        try:
            self.add_user(getpass.getuser())
        except Exception:
            pass
        for fn in (socket.gethostname, socket.getfqdn):
            try:
                self.add_host(fn())
            except Exception:
                pass
        self.add_home(os.path.expanduser("~"))
        for k, v in os.environ.items():
            if is_secret_name(k) and v:
                self.add_secret(v)
            elif k.upper() in _USER_KEYS:
                self.add_user(v)
            elif k.upper() in _HOME_KEYS:
                self.add_home(v)
        if system is not None:
            for name in ("USER", "LOGNAME", "USERNAME"):
                self.add_user(_safe(system.getenv, name))
            for name in ("HOME", "USERPROFILE"):
                self.add_home(_safe(system.getenv, name))
            for name in ("HOSTNAME", "COMPUTERNAME"):
                self.add_host(_safe(system.getenv, name))
            for path in _HOSTNAME_FILES[:2]:
                t = _safe(system.read_text, path)
                if t and t.strip():
                    self.add_host(t.strip().splitlines()[0])
        return self

    def learn_snapshot(self, data: dict[str, Any]) -> "Redactor":
        """Learn from a format-1 snapshot: env USER/HOME/HOSTNAME, /etc/hostname, uname,
        paths under /home/<name>, then everything its text holds."""
        env = data.get("env") or {}
        if isinstance(env, dict):
            for k in ("USER", "LOGNAME", "USERNAME", "SUDO_USER"):
                self.add_user(env.get(k) if isinstance(env.get(k), str) else None)
            for k in ("HOSTNAME", "COMPUTERNAME"):
                self.add_host(env.get(k) if isinstance(env.get(k), str) else None)
            for k in ("HOME", "USERPROFILE"):
                self.add_home(env.get(k) if isinstance(env.get(k), str) else None)
        files = data.get("files") or {}
        if isinstance(files, dict):
            for p in _HOSTNAME_FILES:
                t = files.get(p)
                if isinstance(t, str) and t.strip():
                    self.add_host(t.strip().splitlines()[0])
        cmds = data.get("commands") or {}
        if isinstance(cmds, dict):
            for key in ("uname -n", "hostname", "hostname -f"):
                rec = cmds.get(key)
                if isinstance(rec, dict) and isinstance(rec.get("stdout"), str) and rec["stdout"].strip():
                    self.add_host(rec["stdout"].strip().splitlines()[0])
            for key in ("whoami", "id -un"):
                rec = cmds.get(key)
                if isinstance(rec, dict) and isinstance(rec.get("stdout"), str) and rec["stdout"].strip():
                    self.add_user(rec["stdout"].strip().splitlines()[0])
        self.learn(data)
        return self

    # ---- replacing -------------------------------------------------------------------------
    _NOCASE = ("user", "host", "home", "mac", "gpu-uuid", "uuid", "email", "ip")

    def _pattern(self) -> Optional[re.Pattern]:
        if self._regex is None:
            if not self._map:
                return None
            self._lower = {}
            for v, k in self._kind_of.items():
                if k in self._NOCASE:
                    self._lower.setdefault(v.lower(), self._map[v])
            alts = []
            for v in sorted(self._map, key=len, reverse=True):
                kind = self._kind_of[v]
                e = re.escape(v)
                if kind in self._NOCASE:
                    e = f"(?i:{e})"
                if v in self._weak and kind == "secret":
                    alts += [rf"(?<=[=:] ){e}(?![\w])", rf"(?<=[=:]){e}(?![\w])", rf"(?<=[=:]\"){e}(?=\")",
                             rf"(?<=[=:]'){e}(?=')", rf"(?<=:){e}(?=@)", rf"^{e}(?=[ \t]*$)"]
                elif v in self._weak:  # a common word: only where it stands as a name
                    end = r"(?![\w.-])"
                    alts += [rf"(?<=/home/){e}{end}", rf"(?<=/Users/){e}{end}", rf"(?<=\\Users\\){e}{end}",
                             rf"(?<=/users/){e}{end}", rf"(?<![\w.-]){e}(?=@[A-Za-z0-9])", rf"(?<=@){e}(?![\w-])",
                             rf"(?<=^Linux ){e}(?= \d)", rf"(?<=\bUSER=){e}{end}", rf"(?<=LOGNAME=){e}{end}",
                             rf"(?<=USERNAME=){e}{end}", rf"(?<=HOSTNAME=){e}{end}", rf"(?<=COMPUTERNAME=){e}{end}"]
                elif kind in ("user", "host"):
                    alts.append(rf"(?<![\w.-]){e}(?![\w-])")
                elif kind == "home":
                    alts.append(rf"{e}(?![\w.-])")
                else:
                    alts.append(rf"(?<![\w.+-]){e}(?![\w+-])" if v[:1].isalnum() else e)
            self._regex = re.compile("|".join(alts), re.MULTILINE)
        return self._regex

    def _lookup(self, m: re.Match) -> str:
        g = m.group(0)
        return self._map.get(g) or self._lower.get(g.lower()) or g

    def _replace_known(self, text: str) -> str:
        rx = self._pattern()
        if rx is None or not text:
            return text
        return rx.sub(self._lookup, text)

    def exact(self, value: str) -> str:
        """A value that is exactly one private name (a file holding only the host name,
        USER=..., `whoami`): replaced whole, even a common word such as `ubuntu`."""
        if not isinstance(value, str):
            return value
        s = value.strip()
        ph = self._map.get(s)
        if ph is None and s:
            self._pattern()
            if self._kind_of.get(s) is None:
                ph = self._lower.get(s.lower()) if hasattr(self, "_lower") else None
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
            out = {}
            for k, v in obj.items():
                nk = self._replace_known(k) if isinstance(k, str) else k
                out[nk] = self._apply(v, str(k))
            return out
        if isinstance(obj, list):
            return [self._apply(v, key) for v in obj]
        if isinstance(obj, tuple):
            return tuple(self._apply(v, key) for v in obj)
        if isinstance(obj, str):
            if (key.upper() in _USER_KEYS or key.upper() in _HOST_KEYS or key.upper() in _HOME_KEYS
                    or key in _HOSTNAME_FILES or is_secret_name(key) or "serial" in key.lower()):
                return self.exact(obj)
            return self._replace_known(obj)
        if isinstance(obj, (int, float)) and not isinstance(obj, bool) and "serial" in key.lower():
            return self._map.get(str(obj), obj)
        return obj

    def value_check(self, text: str) -> list[str]:
        """The learned values still present in `text` (for tests and self-checks)."""
        return [v for v in self._map if v not in self._weak and v in text]


def _safe(fn: Any, *args: Any) -> Any:
    try:
        return fn(*args)
    except Exception:
        return None


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
        for key in ("uname -n", "hostname", "hostname -f", "whoami", "id -un"):
            rec = cmds.get(key)
            if isinstance(rec, dict) and isinstance(rec.get("stdout"), str):
                rec["stdout"] = r.exact(rec["stdout"])
    if isinstance(out, dict) and "format" in out:
        out["redacted"] = {"by": "gpu-wizard", "placeholders": r.counts()}
    return out


def redact_text(text: str, redactor: Optional[Redactor] = None) -> str:
    return (redactor or Redactor()).text(text)


def redact_data(obj: Any, redactor: Optional[Redactor] = None) -> Any:
    return (redactor or Redactor()).data(copy.deepcopy(obj))
