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

KINDS = ("user", "host", "home", "ip", "mac", "gpu-uuid", "uuid", "serial", "email", "secret", "name", "wifi",
         "machine-id", "fabric-id", "webhook")

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
    r"(?i)(TOKEN|SECRET|PASSW(?:OR)?D|PASSPHRASE|CREDENTIAL|COOKIE|KEY|AUTH|PSK|WEBHOOK"
    r"|(?:^|[_\-.])(?:PASS|PWD|PAT)(?:$|[_\-.]))")
_NOT_SECRET_NAME = re.compile(r"(?i)^(PWD|OLDPWD)$|_(FILE|PATH|DIR|URL|ID)$|KEYBOARD|KEYMAP|KEYRING|KEYCHAIN|^XKB|KEYS?_?(ID|NAME)$|AUTHOR")
# In free text ("name=value", "name: value") a name counts only when it looks like an environment
# variable (upper case) or has a secret word as one of its parts: `libkeyutils1:amd64` is no secret.
_SECRET_WORD = re.compile(r"(?i)(?:^|[_\-.])(?:[A-Z]*TOKEN|SECRET|PSK|WEBHOOK(?:_?URL)?|PASSWORD|PASSWD|PASSPHRASE|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY"
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
    r"(?i)(?<![\w.\-])((?:export\s+|set\s+|\$env:)?([A-Za-z_][A-Za-z0-9_.\-]*))(\s*[=:]\s*)"
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
# a home folder's owner: /home/<u>, /Users/<u>, C:\\Users\\<u>, \\\\wsl$\\Distro\\home\\<u> (and \\wsl.localhost), and
# the same with doubled backslashes as repr()/JSON escaping writes them (C:\\\\Users\\\\<u>)
HOME_PARENTS = ("/home/", "/Users/", "/users/", "\\Users\\", "\\users\\", "\\home\\",
                "\\\\Users\\\\", "\\\\users\\\\", "\\\\home\\\\")
RE_HOME = re.compile("(?:" + "|".join(f"(?<={re.escape(p)})" for p in HOME_PARENTS) + r")([^/\\\s:;'\"<>|,=*?()\[\]{}]{1,64})")
RE_PROMPT = re.compile(r"(?<![\w.@-])([a-z_][a-z0-9_.-]{0,31})@([A-Za-z0-9][A-Za-z0-9-]{0,62})(?=:[~/]|\s*[:$#>] |[$#] )")
# chat webhooks: a URL whose path is a hook (Slack, Discord, Teams, Mattermost, Rocket.Chat, Feishu,
# WeCom, DingTalk robots, Telegram bots, Google Chat keys): the path and query are the secret
RE_URL = re.compile(r"(?i)\bhttps?://([A-Za-z0-9.-]+(?::\d+)?)(/[^\s\"'<>`)\]]*)")
_HOOK_PATH = re.compile(r"(?i)(?:^|/)(?:web)?hooks?b?\d*(?:/|$)|/services/T[A-Z0-9]+/|/bot\d+:[\w-]+|/robot/send|/webhook/send"
                        r"|/hook/[\w-]{8,}|/workflows/[\w-]{8,}")
_HOOK_QUERY = re.compile(r"(?i)[?&](?:access_token|token|key|sig|signature|secret|code)=[^&\s]{6,}")
_HOOK_HOSTS = re.compile(r"(?i)(^|\.)(hooks\.slack\.com|discord(?:app)?\.com|webhook\.office\.com|outlook\.office(?:365)?\.com"
                         r"|chat\.googleapis\.com|api\.telegram\.org|oapi\.dingtalk\.com|qyapi\.weixin\.qq\.com"
                         r"|open\.(?:feishu\.cn|larksuite\.com)|hooks\.zapier\.com|maker\.ifttt\.com)$")
# Wi-Fi network names: nmcli, iw, iwconfig, wpa_supplicant, NetworkManager files, netsh, airport
RE_WIFI_KV = re.compile(r'(?im)^[ \t]*(?:E?SSID(?:[ \t]+name)?|ssid|802-11-wireless\.ssid|wifi\.ssid|All User Profile'
                        r'|User Profile|Current Wi-Fi Network|Network name)[ \t]*[:=][ \t]*"?([^"\r\n]*?)"?[ \t]*$')
RE_WIFI_PROFILE = re.compile(r'(?im)^[ \t]*Profile[ \t]*:[ \t]*(.+?)[ \t]*$')  # netsh, next to an SSID line
RE_WIFI_IW = re.compile(r"(?im)^[ \t]+ssid[ \t]+([^\s:=].*?)[ \t]*$")  # `iw dev`
RE_WIFI_ESSID = re.compile(r'(?i)\bESSID:"([^"\r\n]*)"')  # iwconfig
RE_WIFI_NMCLI_CON = re.compile(r"(?im)^(\S.*?)\s+" + r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
                               r"\s+(?:wifi|802-11-wireless)\b")
RE_WIFI_NMCLI_TERSE = re.compile(r"(?m)^((?:[^:\n\\]|\\.)+):802-11-wireless(?::|$)")
RE_NM_ID = re.compile(r"(?m)^id=(.+?)\s*$")
RE_NM_FILE = re.compile(r"/system-connections/([^/\n]+?)(?:\.nmconnection)?$")
RE_NM_FILE_TEXT = re.compile(r"(?m)/system-connections/([^/\n\"']+?)(?:\.nmconnection|(?=[\"'\n]|$))")
RE_WIFI_KEY = re.compile(r"(?im)^[ \t]*(?:Key Content|Schlüsselinhalt|wpa-psk|psk)[ \t]*[:=][ \t]*\"?([^\"\r\n]+?)\"?[ \t]*$")
# machine and instance ids (systemd machine-id, D-Bus, DMI product_uuid, Windows MachineGuid, cloud ids)
RE_MACHINE_ID = re.compile(
    r"(?i)\b(?:machine[-_ ]?id|boot[-_ ]?id|MachineGuid|product[-_ ]?uuid|system[-_ ]?uuid|hardware[-_ ]?uuid|hostid"
    r"|instance[-_ ]?id|dbus[-_ ]?id|vm[-_ ]?id|device[-_ ]?id)\b[\"']?[ \t]*(?:[:=]|REG_SZ)?[ \t]*[\"']?"
    r"((?:\{)?[0-9A-Fa-f]{8}(?:-?[0-9A-Fa-f]{4}){3}-?[0-9A-Fa-f]{12}(?:\})?|[0-9A-Fa-f]{8,64}|i-[0-9a-f]{8,17})(?![\w-])")
MACHINE_ID_FILES = ("machine-id", "product_uuid", "boot_id", "hostid", "product_serial", "board_serial", "chassis_serial")
# GPU fabric / NVLink cluster / InfiniBand ids (nvidia-smi -q "Fabric", ibstat GUIDs, NVML fields)
RE_FABRIC = re.compile(
    r"(?im)\b(Cluster[ _]?UUID|Clique[ _]?ID|Fabric[ _]?(?:GUID|ID|UUID)|Partition[ _]?ID|Host[ _]?ID|Node[ _]?GUID"
    r"|Port[ _]?GUID|System[ _]?image[ _]?GUID|Sys[ _]?Image[ _]?GUID|Platform[ _]?UUID|Chassis[ _]?Serial(?:[ _]?Number)?)"
    r"\b[\"']?[ \t]*[:=][ \t]*[\"']?((?:0x)?[0-9A-Za-z][0-9A-Za-z:._-]{2,127})")
_FABRIC_KEYS = frozenset({"clusteruuid", "cliqueid", "fabricguid", "fabricid", "fabricuuid", "nodeguid", "portguid",
                          "systemimageguid", "hostid", "partitionid", "platformuuid", "chassisserialnumber"})
# a person's real name: git's user.name, GIT_AUTHOR_NAME, "Author: Name <mail>", GECOS, finger, net user
RE_GIT_USER = re.compile(r"(?ims)^[ \t]*\[user\][^\[]*?^[ \t]*name[ \t]*=[ \t]*\"?([^\"\r\n]+?)\"?[ \t]*$")
RE_GIT_NAME = re.compile(r"(?im)(?:\buser\.name[ \t]*[= \t][ \t]*|\bGIT_(?:AUTHOR|COMMITTER)_NAME[ \t]*=[ \t]*|^(?:Author|Commit)"
                         r"(?:Date)?:[ \t]+(?=[^<\r\n]+<)|\bFull Name[ \t]{2,}|\bLogin:[ \t]+\S+[ \t]+Name:[ \t]*)"
                         r"[\"']?([^\"'<\r\n]+?)[\"']?[ \t]*(?:<|$)")
RE_PASSWD = re.compile(r"(?m)^([a-z_][a-z0-9_.-]*\$?):[^:\n]*:(\d+):\d+:([^:\n]*):(/[^:\n]*):[^:\n]*$")
_NOT_A_VALUE = frozenset({"n/a", "na", "none", "unknown", "not supported", "[not supported]", "not available", "0", "0x0",
                          "disabled", "enabled", "true", "false", "null", "-", "00000000-0000-0000-0000-000000000000"})

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
    if "WEBHOOK" in name.upper():  # SLACK_WEBHOOK_URL: the URL is the secret
        return True
    return bool(_SECRET_NAME.search(name)) and not _NOT_SECRET_NAME.search(name)


def is_secret_assignment(name: str) -> bool:
    """`name` in a "name=value" line of free text names a secret."""
    if re.fullmatch(r"[A-Z][A-Z0-9_]*", name) or "webhook" in name.lower():
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
        self._by_lower: dict[tuple[str, str], str] = {}
        self._gpu_uuid_bodies: set[str] = set()
        self._by_pattern: set[str] = set()
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
            v = self._by_lower.get((kind, value.lower()))
            if v is not None:  # the same name in other letter case: the same placeholder
                self._map[value] = self._map[v]
                self._kind_of[value] = kind
                if v in self._weak:
                    self._weak.add(value)
                self._regex = None
                return self._map[v]
            self._by_lower[(kind, value.lower())] = value
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
        self._learn_new_kinds(text, low)
        if "gpu-" in low or "mig-" in low:
            for m in RE_GPU_UUID.finditer(text):
                self._add("gpu-uuid", m.group(0))
                self._gpu_uuid_bodies.add(m.group(0)[-36:].lower())
        if _HAS_UUID.search(text):
            for m in RE_UUID.finditer(text):
                if m.group(0) not in self._map and m.group(0).lower() not in self._gpu_uuid_bodies:
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
        if "/home/" in text or "users" in low or "\\home\\" in low:
            for m in RE_HOME.finditer(text):
                self.add_user(m.group(1))
        if ".local" in low or ".lan" in low or ".internal" in low or ".intranet" in low or ".corp" in low or ".private" in low \
                or ".home.arpa" in low:
            for m in RE_PRIVATE_HOST.finditer(text):
                self.add_host(m.group(0), first_label=False)
        if "linux " in low or "darwin " in low or "freebsd " in low:
            for m in RE_UNAME.finditer(text):
                self.add_host(m.group(1))

    def _learn_new_kinds(self, text: str, low: str) -> None:
        if "://" in text and ("hook" in low or "bot" in low or "token=" in low or "key=" in low or "sig=" in low
                              or "robot" in low or "workflows" in low):
            for m in RE_URL.finditer(text):
                host, path = m.group(1), m.group(2)
                if _HOOK_PATH.search(path) or _HOOK_QUERY.search(path) or (_HOOK_HOSTS.search(host.split(":")[0])
                                                                        and len(path) > 8):
                    self._add("webhook", path.rstrip(".,;"))
        if "ssid" in low or "profile" in low or "wi-fi" in low or "wifi" in low or "wireless" in low \
                or "network name" in low:
            iw = "\tinterface " in low or "wdev 0x" in low or "type managed" in low
            for rx in (RE_WIFI_KV, RE_WIFI_ESSID, RE_WIFI_NMCLI_CON) + ((RE_WIFI_IW,) if iw else ()):
                for m in rx.finditer(text):
                    self.add_wifi(m.group(1))
            if "ssid" in low:
                for m in RE_WIFI_PROFILE.finditer(text):
                    self.add_wifi(m.group(1))
            for m in RE_WIFI_NMCLI_TERSE.finditer(text):
                self.add_wifi(m.group(1).replace("\\:", ":"))
            if "type=wifi" in low or "[wifi]" in low or "type=802-11-wireless" in low:
                for m in RE_NM_ID.finditer(text):
                    self.add_wifi(m.group(1))
            self._learn_nmcli_table(text)
        if "system-connections/" in text:
            for m in RE_NM_FILE_TEXT.finditer(text):
                self.add_wifi(m.group(1))
        if "psk" in low or "key content" in low or "schlüsselinhalt" in low:
            for m in RE_WIFI_KEY.finditer(text):
                self.add_secret(m.group(1))
        if "id" in low or "guid" in low or "uuid" in low:
            for m in RE_MACHINE_ID.finditer(text):
                self._add_id("machine-id", m.group(1))
            for m in RE_FABRIC.finditer(text):
                self._add_id("fabric-id", m.group(2))
        if "name" in low or "author" in low or "commit" in low:
            if "[user]" in low:
                for m in RE_GIT_USER.finditer(text):
                    self.add_name(m.group(1))
            for m in RE_GIT_NAME.finditer(text):
                self.add_name(m.group(1))
        if ":/" in text and text.count(":") >= 6:
            for m in RE_PASSWD.finditer(text):
                uid = int(m.group(2))
                if 1000 <= uid < 60000:
                    self.add_user(m.group(1))
                    self.add_name(m.group(3).split(",", 1)[0])
                    self.add_home(m.group(4))

    def _learn_nmcli_terse(self, key: str, out: str) -> None:
        m = re.search(r"(?:-f|--fields)\s+(\S+)", key)
        fields = [f.upper() for f in m.group(1).split(",")] if m else []
        want = [i for i, f in enumerate(fields) if f in ("SSID", "NAME", "ACTIVE-SSID", "802-11-WIRELESS.SSID")]
        for line in out.splitlines():
            cells = re.split(r"(?<!\\):", line)
            for i in want:
                if i < len(cells):
                    self.add_wifi(cells[i])  # as printed (with nmcli's \: escapes) and as the name itself
                    if "\\:" in cells[i]:
                        self.add_wifi(cells[i].replace("\\:", ":"))

    def _learn_nmcli_table(self, text: str) -> None:
        """`nmcli dev wifi` and friends: the SSID column, by the header's column positions."""
        lines = text.splitlines()
        for i, line in enumerate(lines):
            m = re.search(r"(?<!\S)SSID(?!\S)", line)
            if not m or not re.fullmatch(r"[ \t*]*(?:[A-Z][A-Z0-9-]*(?:[ \t]+|$)){3,}", line):
                continue  # a table header is only upper-case column names ("IN-USE  BSSID  SSID  MODE ...")
            nxt = re.search(r"\S", line[m.end():])
            end = m.end() + nxt.start() if nxt else None
            for row in lines[i + 1:i + 200]:
                if not row.strip():
                    break
                cell = row[m.start():end].strip() if end else row[m.start():].strip()
                if cell and cell != "--":
                    self.add_wifi(cell)
            break

    def add_wifi(self, name: Optional[str]) -> Optional[str]:
        if not name:
            return None
        v = name.strip().strip('"')
        if not v or v in ("--", "off/any", "off", "any", "<hidden>") or len(v) > 64 or PLACEHOLDER_RE.search(v):
            return None
        return self._add("wifi", v, weak=v.lower() in COMMON_WORDS or len(v) < 4)

    def add_name(self, name: Optional[str]) -> Optional[str]:
        """A person's real name (git user.name, GECOS): replaced as a whole phrase."""
        if not name:
            return None
        v = " ".join(name.split())
        if len(v) < 2 or len(v) > 100 or PLACEHOLDER_RE.search(v) or "@" in v or v.lower() in NOT_PRIVATE_USERS:
            return None
        if not re.search(r"[^\W\d_]", v):
            return None
        return self._add("name", v, weak=v.lower() in COMMON_WORDS or len(v) < 4)

    def _add_id(self, kind: str, value: Optional[str]) -> Optional[str]:
        if value is None:
            return None
        v = str(value).strip().strip("{}\"'")
        if len(v) < 3 or v.lower() in _NOT_A_VALUE or set(v.lower()) <= set("0x-:.") or PLACEHOLDER_RE.search(v):
            return None
        return self._add(kind, v)

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
        if isinstance(v, (int, str)) and not isinstance(v, bool) and re.sub(r"[^a-z]", "", key.lower()) in _FABRIC_KEYS:
            self._add_id("fabric-id", str(v))
            return
        if not isinstance(v, str) or not v:
            return
        norm = re.sub(r"[^a-z]", "", key.lower())
        if norm in _FABRIC_KEYS:
            self._add_id("fabric-id", str(v))
            return
        if key.startswith("/") or "\\" in key:  # a path: a file's content
            base = re.split(r"[\\/]", key)[-1]
            if base in MACHINE_ID_FILES and "\n" not in v.strip():
                self._add_id("machine-id", v.strip())
            nm = RE_NM_FILE.search(key)
            if nm:
                self.add_wifi(nm.group(1))
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
            for key, rec in cmds.items():
                if not isinstance(key, str) or not isinstance(rec, dict) or not isinstance(rec.get("stdout"), str):
                    continue
                out = rec["stdout"].strip()
                if re.fullmatch(r"git config (?:--global |--get |--system )*user\.name", key) and out:
                    self.add_name(out.splitlines()[0])
                if key.startswith("nmcli") and " -t" in key or key.startswith("nmcli -t"):
                    self._learn_nmcli_terse(key, out)
        self.learn(data)
        return self

    # ---- replacing -------------------------------------------------------------------------
    _NOCASE = ("user", "host", "home", "mac", "gpu-uuid", "uuid", "email", "ip", "name", "wifi", "machine-id",
               "fabric-id")

    def _pattern(self) -> Optional[re.Pattern]:
        """One regex for every learned value. Strong values of one boundary class share a trie
        (common prefixes factored), so a long line costs time linear in its length, not in
        length × values; weak values (everyday words) keep their few name contexts."""
        if self._regex is None:
            if not self._map:
                return None
            self._lower = {}
            for v, k in self._kind_of.items():
                if k in self._NOCASE:
                    self._lower.setdefault(v.lower(), self._map[v])
            groups: dict[tuple[str, str], list[str]] = {}
            alts = []
            self._by_pattern = set()
            for v in sorted(self._map, key=len, reverse=True):
                kind = self._kind_of[v]
                rx = _KIND_PATTERNS.get(kind)
                if rx is not None and v not in self._weak and rx.fullmatch(v):
                    self._by_pattern.add(kind)  # found again by its own pattern: no literal in the big regex
                    continue
                e = re.escape(v)
                if kind in self._NOCASE:
                    e = f"(?i:{e})"
                if v in self._weak and kind == "secret":
                    alts += [rf"(?<=[=:] ){e}(?![\w])", rf"(?<=[=:]){e}(?![\w])", rf"(?<=[=:]\"){e}(?=\")",
                             rf"(?<=[=:]'){e}(?=')", rf"(?<=:){e}(?=@)", rf"^{e}(?=[ \t]*$)"]
                elif v in self._weak and kind in ("wifi", "name"):  # a value on its own after a label, or quoted
                    alts += [rf"(?<=[:=] ){e}(?=[ \t\"']*$)", rf"(?<=[:=]){e}(?=[ \t\"']*$)", rf"(?<=[:=]\"){e}(?=\")",
                             rf"(?<=[:=] \"){e}(?=\")",
                             rf"(?<=\s\s){e}(?=[ \t]*$)", rf"^{e}(?=[ \t]*$)"]
                elif v in self._weak:  # a common word: only where it stands as a name
                    end = r"(?![\w.-])"
                    alts += [f"(?<={re.escape(hp)}){e}{end}" for hp in HOME_PARENTS]
                    alts += [rf"(?<![\w.-]){e}(?=@[A-Za-z0-9])", rf"(?<=@){e}(?![\w-])",
                             rf"(?<=^Linux ){e}(?= \d)", rf"(?<=\bUSER=){e}{end}", rf"(?<=LOGNAME=){e}{end}",
                             rf"(?<=USERNAME=){e}{end}", rf"(?<=HOSTNAME=){e}{end}", rf"(?<=COMPUTERNAME=){e}{end}"]
                else:
                    if kind in ("user", "host", "name", "wifi"):
                        cls = "word"
                    elif kind == "home":
                        cls = "home"
                    elif v[:1].isalnum():
                        cls = "alnum"
                    else:
                        cls = "plain"
                    groups.setdefault((cls, "i" if kind in self._NOCASE else ""), []).append(v)
            bounds = {"word": (r"(?<![\w.-])", r"(?![\w-])"), "home": ("", r"(?![\w.-])"),
                      "alnum": (r"(?<![\w.+-])", r"(?![\w+-])"), "plain": ("", "")}
            strong = []
            for cls in ("plain", "alnum", "home", "word"):  # longer, more specific kinds first
                for flag in ("", "i"):
                    vals = groups.get((cls, flag))
                    if not vals:
                        continue
                    body = _trie([x.lower() for x in vals] if flag else vals)
                    if flag:
                        body = f"(?i:{body})"
                    before, after = bounds[cls]
                    strong.append(f"{before}{body}{after}")
            self._regex = re.compile("|".join(strong + alts) or r"(?!x)x", re.MULTILINE)
        return self._regex

    def _lookup(self, m: re.Match) -> str:
        g = m.group(0)
        return self._map.get(g) or self._lower.get(g.lower()) or g

    def _replace_known(self, text: str) -> str:
        rx = self._pattern()
        if rx is None or not text:
            return text
        text = rx.sub(self._lookup, text)
        for kind in self._by_pattern:  # addresses, UUIDs, e-mails: their pattern, then the map
            text = _KIND_PATTERNS[kind].sub(self._lookup, text)
        return text

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
        if isinstance(obj, (int, float)) and not isinstance(obj, bool) and (
                "serial" in key.lower() or re.sub(r"[^a-z]", "", key.lower()) in _FABRIC_KEYS):
            return self._map.get(str(obj), obj)
        return obj

    def value_check(self, text: str) -> list[str]:
        """The learned values still present in `text` (for tests and self-checks)."""
        return [v for v in self._map if v not in self._weak and v in text]


# kinds whose every value is found by one pattern: replaced by that pattern plus a map lookup, so a
# line with thousands of distinct addresses costs one pass, not a regex of thousands of literals
_KIND_PATTERNS: dict[str, re.Pattern] = {"ip": re.compile(RE_IPV4.pattern + "|" + RE_IPV6.pattern), "mac": RE_MAC,
                                         "uuid": RE_UUID, "gpu-uuid": RE_GPU_UUID, "email": RE_EMAIL}


def _trie(words: list[str]) -> str:
    """A regex matching any of `words`, as a trie: `(?:ab(?:c|d)?)`. At a branch the longer words come
    first and an ending is optional after them, so the longest word at a place wins (the boundary
    checks around the trie make the engine fall back to a shorter one where the longer does not fit)."""
    root: dict = {}
    for w in set(words):
        node = root
        for ch in w:
            node = node.setdefault(ch, {})
        node[""] = {}

    def chain(ch: str, sub: dict) -> str:
        lit = [ch]
        while len(sub) == 1 and "" not in sub:  # a run without branches: one literal, no recursion
            (c, sub), = sub.items()
            lit.append(c)
        return re.escape("".join(lit)) + build(sub)

    def build(node: dict) -> str:
        ends = "" in node
        kids = [(ch, sub) for ch, sub in node.items() if ch != ""]
        if not kids:
            return ""
        parts = [chain(ch, sub) for ch, sub in sorted(kids)]
        inner = parts[0] if len(parts) == 1 else "(?:" + "|".join(parts) + ")"
        if ends:
            return "(?:" + inner + ")?"
        return inner

    return "(?:" + build(root) + ")"


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
