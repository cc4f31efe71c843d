"""Network kinds: IPv4/IPv6 and MAC addresses, e-mail addresses, credentials in URLs, chat
webhooks, internal host names and Wi-Fi network names.

Internal host names: a URL's host (or a UNC path's server) that has no dot (an intranet name such
as `http://jenkins:8080/`), whose last label is no public top-level domain (resources/redact/
public_tlds.txt: the ICANN section of the Public Suffix List) or that carries an intranet label
(`git.corp.example.com`); in any text, names under suffixes only an organisation uses (.local,
.internal, .lan, .corp, .home.arpa ...). Wi-Fi names: from the tools' own outputs and files (nmcli,
iw, iwconfig, wpa_supplicant, NetworkManager, netsh, airport), from variables and keys named for
them (WIFI_SSID, "ssid": ...), and then everywhere they appear."""
from __future__ import annotations

import itertools
import operator
import re
from functools import lru_cache
from typing import Optional

from app.paths import resource

from .common import COMMON_WORDS, NOT_PRIVATE_HOSTS, Learner, Text, at_least

_OCTET = r"(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)"
RE_IPV4 = re.compile(rf"(?<![\w.-]){_OCTET}\.{_OCTET}\.{_OCTET}\.{_OCTET}(?![\w+~-]|\.\d)")
RE_IPV6 = re.compile(r"(?<![\w:.])(?=[0-9a-fA-F:]{0,39}:[0-9a-fA-F:]{0,39}:)[0-9a-fA-F:]{2,39}(?:%[\w.]+)?(?![\w:])")
RE_MAC = re.compile(r"(?<![\w:.-])(?:[0-9a-fA-F]{2}([:-]))(?:[0-9a-fA-F]{2}\1){4}[0-9a-fA-F]{2}"
                    r"(?:(?:\1[0-9a-fA-F]{2}){2}|(?:\1[0-9a-fA-F]{2}){14})?(?![\w:.-])")
RE_EMAIL = re.compile(r"(?<![\w.+-])[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,24}(?![\w-])")
RE_URL_CRED = re.compile(r"(?i)\b([a-z][a-z0-9+.-]{1,15}://)([^\s:/@<>\"']+):([^\s@/<>\"']+)@([A-Za-z0-9][A-Za-z0-9.-]*)?")
RE_URL_TOKEN = re.compile(r"(?i)\b([a-z][a-z0-9+.-]{1,15}://)([^\s:/@<>\"']{8,})@")
# Host names under suffixes that exist only inside an organisation (RFC 6762 .local, .internal, ...).
RE_PRIVATE_HOST = re.compile(r"(?i)(?<![\w.-])(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:local|lan|internal|intranet|corp"
                             r"|home\.arpa|private|localdomain|intra|priv)(?![\w.-])")
_INTRANET_LABELS = frozenset({"internal", "intranet", "intra", "corp", "lan", "local", "localdomain", "priv", "private"})
RE_URL = re.compile(r"(?i)\b([a-z][a-z0-9+.-]{1,15})://(?:[^\s/@<>\"'?#]*@)?(\[[0-9a-f:.]+\]|[^\s/:?#<>\"'\\\[\]@,;]+)"
                    r"(?::\d{1,5})?(/[^\s\"'<>`)\]]*)?")
RE_UNC = re.compile(r"(?<![\w\\])\\\\(?:\\\\)?([A-Za-z0-9][A-Za-z0-9.-]{0,62})\\(?:\\)?[^\\\s]")
_UNC_NOT_HOSTS = frozenset({"wsl$", "wsl.localhost", "?", "."})
# chat webhooks: a URL whose path is a hook (Slack, Discord, Teams, Mattermost, Rocket.Chat, Feishu,
# WeCom, DingTalk robots, Telegram bots, Google Chat keys): the path and query are the secret
_HOOK_PATH = re.compile(r"(?i)(?:^|/)(?:web)?hooks?b?\d*(?:/|$)|/services/T[A-Z0-9]+/|/bot\d+:[\w-]+|/robot/send|/webhook/send"
                        r"|/hook/[\w-]{8,}|/workflows/[\w-]{8,}")
_HOOK_QUERY = re.compile(r"(?i)[?&](?:access_token|token|key|sig|signature|secret|code)=[^&\s]{6,}")
_HOOK_HOSTS = re.compile(r"(?i)(^|\.)(hooks\.slack\.com|discord(?:app)?\.com|webhook\.office\.com|outlook\.office(?:365)?\.com"
                         r"|chat\.googleapis\.com|api\.telegram\.org|oapi\.dingtalk\.com|qyapi\.weixin\.qq\.com"
                         r"|open\.(?:feishu\.cn|larksuite\.com)|hooks\.zapier\.com|maker\.ifttt\.com)$")
_HOOK_WORDS = ("hook", "bot", "token=", "key=", "sig=", "robot", "workflows")
# "kernel 5.15.133.1", "Version: 10.0.22631.4460": a dotted version, not an address.
# (each alternative starts with a literal character, so the regex engine skips ahead to the next one
# of them instead of trying the pattern at every position: `\bv` is written `v(?<!\wv)`)
_VERSION_IP = re.compile(r"(?:version|kernel|release|build|driver|firmware|vbios|cudnn|cuda|nccl|cublas|tensorrt|torch"
                         rf"|python|v(?<!\wv)|==|<=|>=|~=)\s*[:=]?\s*[(\"']?({_OCTET}\.{_OCTET}\.{_OCTET}\.{_OCTET})(?![\w+~-]|\.\d)")
_VERSION_WORDS = ("version", "kernel", "release", "build", "driver", "firmware", "vbios", "cudnn", "cuda", "nccl", "cublas",
                  "tensorrt", "torch", "python", "==", ">=", "<=", "~=")
_VERSION_OPS = ("==", "<=", ">=", "~=")  # in _VERSION_IP's order
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
# a variable or key that names a Wi-Fi network: *SSID*, WIFI, WIFI_NAME, WLAN_NETWORK, HOTSPOT_NAME ...
_WIFI_VAR = re.compile(r"(?i)(?:^|[_\-.])E?SSID(?:$|[_\-.\d])|(?:^|[_\-.])(?:WIFI|WI_FI|WLAN|WIRELESS|HOTSPOT)"
                       r"(?:[_\-.]?(?:NAME|NETWORK|NET|SSID|AP|CONNECTION|PROFILE))?(?:$|[_\-.]?\d*$)")
_WIFI_WORDS = ("ssid", "profile", "wi-fi", "wifi", "wireless", "network name")


def is_wifi_name_key(name: str) -> bool:
    """A variable or key whose value is a Wi-Fi network's name (not its password: that is a secret)."""
    return bool(_WIFI_VAR.search(name)) and not re.search(r"(?i)PASS|PSK|KEY|SECRET|BSSID|INTERFACE|IFACE|DEVICE|ENABLE", name)


@lru_cache(maxsize=1)
def public_tlds() -> frozenset[str]:
    try:
        text = resource("redact", "public_tlds.txt").read_text(encoding="utf-8")
    except OSError:
        return frozenset()
    return frozenset(t.strip().lower() for t in text.splitlines() if t.strip() and not t.startswith("#"))


def internal_host(host: str) -> bool:
    """A URL's host that only an organisation's own network resolves."""
    h = host.strip("[]").rstrip(".").lower()
    if not h or h in NOT_PRIVATE_HOSTS or h.startswith("localhost") or h.replace(".", "").isdigit() or ":" in h:
        return False
    if "." not in h:
        return bool(re.fullmatch(r"[a-z0-9](?:[a-z0-9_-]{0,61}[a-z0-9])?", h))
    labels = h.split(".")
    tlds = public_tlds()
    if tlds and labels[-1] not in tlds and not labels[-1].startswith("xn--"):
        return True
    return any(lab in _INTRANET_LABELS for lab in labels[:-1]) or h.endswith(".home.arpa")


def add_ip(r: Learner, s: str) -> None:
    if "." in s and ":" not in s:  # IPv4, already checked octet by octet by its pattern
        first = s.split(".", 1)[0]
        if not first.isdigit() or first in ("127", "255") or s == "0.0.0.0" or 224 <= int(first) <= 239:
            return  # loopback, unspecified, broadcast, multicast
        r.add("ip", s)
        return
    v = s.split("%", 1)[0].lower()
    groups = v.split(":")
    if v.count("::") > 1 or len(groups) > 8 or (len(groups) < 8 and "::" not in v) or max(map(len, groups)) > 4:
        return  # not an IPv6 address (a time, a MAC-like run)
    if v.startswith("ff") or v.strip(":0") in ("", "1") and v.endswith(("::", "::1", ":0", ":1")):
        return  # multicast, unspecified, loopback
    r.add("ip", s)


# --- learning over the text's pieces (unique, space-separated), in bulk ------------------------------

_EMAIL_AFTER = re.compile(r"(:?)(" + RE_EMAIL.pattern + ")")  # an e-mail address, and whether ":" stands before it
# RE_MAC without its group, one alternative per separator (findall gives the addresses themselves)
_HH = "[0-9a-fA-F]{2}"
_MAC_WHOLE = re.compile(r"(?<![\w:.-])(?:" + "|".join(f"{_HH}{s}(?:{_HH}{s}){{4}}{_HH}(?:(?:{s}{_HH}){{2}}|(?:{s}{_HH}){{14}})?"
                                                      for s in ":-") + r")(?![\w:.-])")
_MAC_NONE = re.compile(r"(?im)^(?:[0:\-]+|ff(?:[:-]ff){5})$")  # all zeros, broadcast
_V4_NOT = ("127.", "255.") + tuple(f"{n}." for n in range(224, 240))  # loopback, broadcast, multicast


def learn_pieces(r: Learner, t: Text) -> None:
    at = t.having("@")
    if at:
        joined = "\n".join(at)
        if ":" in joined:  # not user:password@host
            found = _EMAIL_AFTER.findall(joined)
            r.add_all("email", itertools.compress(map(_SECOND, found), map(operator.not_, map(_FIRST, found))), patterned=True)
        else:
            r.add_all("email", RE_EMAIL.findall(joined), patterned=True)
    v4 = t.having(".", 3)
    if v4:
        _learn_ipv4(r, "\n".join(v4), t)
    # an address add_ip takes has 7 colons or a "::" (fewer, with no "::", it refuses: a MAC, a time),
    # and so has its piece: the pieces that could only give refused ones are left out
    v6 = t.gate(("::", 1), (":", 7))
    if any(v6):
        _learn_ipv6(r, RE_IPV6.findall("\n".join(itertools.compress(t.pieces, v6))))
    macs = list(itertools.compress(t.pieces, t.gate((":", 5), ("-", 5))))
    if macs:
        macs = list(dict.fromkeys(_MAC_WHOLE.findall("\n".join(macs))))
        no = set(_MAC_NONE.findall("\n".join(macs))) if macs else set()
        r.add_all("mac", [m for m in macs if m not in no] if no else macs, patterned=True)
    urls = t.having("://")
    if urls:
        _learn_urls(r, "\n".join(urls))
    _learn_internal(r, t)


def _learn_internal(r: Learner, t: Text) -> None:
    """UNC servers, and names under suffixes only an organisation uses."""
    for p in t.having("\\\\"):
        for m in RE_UNC.finditer(p):
            if m.group(1).lower() not in _UNC_NOT_HOSTS and not m.group(1).replace(".", "").isdigit():
                r.add_host(m.group(1), first_label=False)
    dots = [d for d in _PRIVATE_DOTS if t.holds(d)]
    if dots:  # on the pieces that hold such a suffix (a host name never spans a space)
        hold = [False] * len(t.pieces)
        for d in dots:
            hold = list(map(operator.or_, hold, map(operator.contains, t.pieces_low, itertools.repeat(d))))
        for h in dict.fromkeys(RE_PRIVATE_HOST.findall("\n".join(itertools.compress(t.pieces, hold)))):
            r.add_host(h, first_label=False)


_PRIVATE_DOTS = (".local", ".lan", ".internal", ".intranet", ".corp", ".private", ".intra", ".priv", ".home.arpa")
_FIRST, _SECOND = operator.itemgetter(0), operator.itemgetter(1)


def _learn_ipv4(r: Learner, joined: str, t: Text) -> None:
    found = dict.fromkeys(RE_IPV4.findall(joined))  # in order: stable numbering
    if not found:
        return
    versions = _versions(t, found)
    ips = [ip for ip in found if ip not in versions] if versions else list(found)
    ips = list(itertools.compress(ips, map(operator.not_, map(str.startswith, ips, itertools.repeat(_V4_NOT)))))
    r.add_all("ip", [ip for ip in ips if ip != "0.0.0.0"] if "0.0.0.0" in found else ips, patterned=True)


def _learn_ipv6(r: Learner, found: list[str]) -> None:
    """The IPv6 addresses among the pattern's matches (what add_ip takes, checked in bulk)."""
    cands = list(dict.fromkeys(itertools.compress(found, at_least(found, ":", 2))))
    if not cands:
        return
    joined = "\n".join(cands)
    bare = joined.lower() if "%" not in joined else "\n".join(c.split("%", 1)[0].lower() for c in cands)
    vs = bare.split("\n")
    r.add_all("ip", itertools.compress(cands, _v6_taken(vs, bare)), patterned=True)


def _v6_taken(vs: list[str], joined: str) -> list[bool]:
    """add_ip's test for each IPv6 candidate (lower case, no zone; `joined`: them joined by line ends),
    in bulk: 2 to 8 groups of up to 4 hex digits, "::" at most once and needed for fewer than 8
    groups; not multicast, not unspecified or loopback."""
    colons = list(map(str.count, vs, itertools.repeat(":")))
    double = list(map(str.count, vs, itertools.repeat("::")))
    ok = map(operator.and_, map((7).__ge__, colons), map((1).__ge__, double))
    ok = map(operator.and_, ok, map(operator.or_, map((7).__eq__, colons), map(bool, double)))
    ok = map(operator.and_, ok, map(operator.not_, map(str.startswith, vs, itertools.repeat("ff"))))
    zeroish = map(_ZEROISH.__contains__, map(str.strip, vs, itertools.repeat(":0")))
    ends = map(str.endswith, vs, itertools.repeat(("::", "::1", ":0", ":1")))
    out = list(map(operator.and_, ok, map(operator.not_, map(operator.and_, zeroish, ends))))
    if "xxxxx" in joined.translate(_HEX_X):  # a group of more than 4 digits somewhere (`joined`: hex, ":" and line ends)
        out = list(map(operator.and_, out, map(operator.not_, map(_LONG_GROUP.search, vs))))
    return out


_ZEROISH = frozenset({"", "1"})
_LONG_GROUP = re.compile(r"[^:]{5}")
_HEX_X = str.maketrans(dict.fromkeys("0123456789abcdef", "x"))


def _versions(t: Text, found: dict[str, None]) -> set[str]:
    """Dotted quads that stand after a version word ("Kernel version: 5.15.133.1"): versions, not
    addresses. Looked for only on the lines that hold such a word."""
    lines = t.lines_with(_VERSION_WORDS, lower=True)
    if not lines:
        return set()
    rx = _version_ip(tuple(w for w in _VERSION_WORDS if t.holds(w)))
    return {m.group(1) for m in rx.finditer(lines) if m.group(1) in found}


@lru_cache(maxsize=64)
def _version_ip(present: tuple[str, ...]) -> re.Pattern:
    """_VERSION_IP without the words the text lacks (an alternative that matches nowhere changes no
    match; the fewer first letters, the fewer places the regex engine tries): the same matches."""
    words = "|".join(re.escape(w) for w in _VERSION_WORDS if w in present and w not in _VERSION_OPS)
    return re.compile(f"(?:{words + '|' if words else ''}v(?<!\\wv)" + "".join(f"|{re.escape(op)}" for op in _VERSION_OPS
                                                                             if op in present)
                      + _VERSION_IP.pattern[_VERSION_IP.pattern.index(r")\s*[:=]"):])


def _learn_urls(r: Learner, joined: str) -> None:
    if "@" in joined:
        _learn_url_creds(r, joined)
    low = joined.lower()
    hooks = any(w in low for w in _HOOK_WORDS)
    urls = dict.fromkeys(RE_URL.findall(joined))
    for host in dict.fromkeys(map(_SECOND, urls)):
        if internal_host(host):
            r.add_host(host, first_label=False)
    if hooks:
        for _, host, path in urls:
            if path and (_HOOK_PATH.search(path) or _HOOK_QUERY.search(path) or (_HOOK_HOSTS.search(host) and len(path) > 8)):
                r.add("webhook", path.rstrip(".,;"))


def _learn_url_creds(r: Learner, joined: str) -> None:
    """user:password@host and token@host in URLs."""
    from .secrets import RE_TOKEN_PREFIX, looks_like_token
    creds = RE_URL_CRED.findall(joined)
    users = dict.fromkeys(c[1] for c in creds)
    tokenish = {u for u in users if looks_like_token(u)}
    hosts = dict.fromkeys(c[3] for c in creds if c[3] and "." in c[3] and not RE_IPV4.fullmatch(c[3]))
    pws = [c[2] for c in creds]
    if tokenish or not users.keys().isdisjoint(pws) or not hosts.keys().isdisjoint(users.keys() | set(pws)):
        for _, user, pw, host in creds:  # a value in two roles: one by one, in order (the first role wins)
            r.add_user(user) if user not in tokenish else r.add_secret(user)
            r.add_secret(pw)
            if host in hosts:
                r.add_host(host, first_label=False)
    else:
        for u in users:
            r.add_user(u)
        r.add_secrets(pws)
        for h in hosts:
            r.add_host(h, first_label=False)  # a server one logs in to is the organisation's own
    toks = dict.fromkeys(RE_URL_TOKEN.findall(joined))
    r.add_secrets([t for _, t in toks if looks_like_token(t) or RE_TOKEN_PREFIX.fullmatch(t)])


# --- Wi-Fi: context learning ------------------------------------------------------------------------

def learn_wifi(r: Learner, t: Text) -> None:
    text, low = t.text, t.low
    lines = t.lines_with(_WIFI_WORDS)
    if not lines:
        return
    iw = "\tinterface " in low or "wdev 0x" in low or "type managed" in low
    for rx in (RE_WIFI_KV, RE_WIFI_ESSID, RE_WIFI_NMCLI_CON) + ((RE_WIFI_IW,) if iw else ()):
        for m in rx.finditer(text if rx is RE_WIFI_IW else lines):
            r.add_wifi(m.group(1))
    if "ssid" in low:
        for m in RE_WIFI_PROFILE.finditer(lines):
            r.add_wifi(m.group(1))
    for m in RE_WIFI_NMCLI_TERSE.finditer(lines):
        r.add_wifi(m.group(1).replace("\\:", ":"))
    if "type=wifi" in low or "[wifi]" in low or "type=802-11-wireless" in low:
        for m in RE_NM_ID.finditer(text):
            r.add_wifi(m.group(1))
    if "ssid" in low:
        _learn_nmcli_table(r, text)


def learn_nm_files(r: Learner, t: Text) -> None:
    for m in RE_NM_FILE_TEXT.finditer(t.lines_with(("system-connections/",))):
        r.add_wifi(m.group(1))


def learn_nmcli_terse(r: Learner, key: str, out: str) -> None:
    m = re.search(r"(?:-f|--fields)\s+(\S+)", key)
    fields = [f.upper() for f in m.group(1).split(",")] if m else []
    want = [i for i, f in enumerate(fields) if f in ("SSID", "NAME", "ACTIVE-SSID", "802-11-WIRELESS.SSID")]
    for line in out.splitlines():
        cells = re.split(r"(?<!\\):", line)
        for i in want:
            if i < len(cells):
                r.add_wifi(cells[i])  # as printed (with nmcli's \: escapes) and as the name itself
                if "\\:" in cells[i]:
                    r.add_wifi(cells[i].replace("\\:", ":"))


def _learn_nmcli_table(r: Learner, text: str) -> None:
    """`nmcli dev wifi` and friends: the SSID column, by the header's column positions."""
    i = text.find("SSID")
    while i >= 0:
        a = text.rfind("\n", 0, i) + 1
        b = text.find("\n", i)
        line = text[a:len(text) if b < 0 else b]
        m = re.search(r"(?<!\S)SSID(?!\S)", line)
        if m and re.fullmatch(r"[ \t*]*(?:[A-Z][A-Z0-9-]*(?:[ \t]+|$)){3,}", line):
            _table_column(r, text[a:], m)
            return
        i = text.find("SSID", len(text) if b < 0 else b)


def _table_column(r: Learner, text: str, m: re.Match) -> None:
    lines = text.split("\n", 201)
    line = lines[0]
    nxt = re.search(r"\S", line[m.end():])
    end = m.end() + nxt.start() if nxt else None
    for row in lines[1:201]:
        if not row.strip():
            break
        cell = row[m.start():end].strip() if end else row[m.start():].strip()
        if cell and cell != "--":
            r.add_wifi(cell)


def wifi_weak(v: str) -> bool:
    return v.lower() in COMMON_WORDS or len(v) < 4


def nm_file_wifi(key: str) -> Optional[str]:
    nm = RE_NM_FILE.search(key)
    return nm.group(1) if nm else None


PATTERN_KINDS: dict[str, re.Pattern] = {"ip": re.compile(RE_IPV4.pattern + "|" + RE_IPV6.pattern), "mac": RE_MAC,
                                        "email": RE_EMAIL}
