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

import re
from functools import lru_cache
from typing import Optional

from app.paths import resource

from .common import COMMON_WORDS, NOT_PRIVATE_HOSTS, Learner, lines_with

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
_VERSION_IP = re.compile(r"(?:version|kernel|release|build|driver|firmware|vbios|cudnn|cuda|nccl|cublas|tensorrt|torch"
                         rf"|python|\bv|[=<>~]=)\s*[:=]?\s*[(\"']?({_OCTET}\.{_OCTET}\.{_OCTET}\.{_OCTET})(?![\w+~-]|\.\d)")
_VERSION_WORDS = ("version", "kernel", "release", "build", "driver", "firmware", "vbios", "cudnn", "cuda", "nccl", "cublas",
                  "tensorrt", "torch", "python", "==", ">=", "<=", "~=")
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


# --- learning over the text's pieces (unique, space-separated) -------------------------------------

def learn_pieces(r: Learner, pieces: list[str], text: str, low: str) -> None:
    at = [p for p in pieces if "@" in p]
    if at:
        joined = "\n".join(at)
        for m in RE_EMAIL.finditer(joined):
            if m.start() == 0 or joined[m.start() - 1] != ":":  # not user:password@host
                r.add("email", m.group(0))
    v4 = "\n".join(p for p in pieces if p.count(".") >= 3)
    if v4:
        _learn_ipv4(r, v4, text, low)
    colons = [p for p in pieces if p.count(":") >= 2 or p.count("-") >= 5]
    if colons:
        joined = "\n".join(colons)
        for m in RE_IPV6.finditer(joined):
            if m.group(0).count(":") >= 2:
                add_ip(r, m.group(0))
        for m in RE_MAC.finditer(joined):
            mac = m.group(0)
            if mac.replace(m.group(1), "").strip("0").lower() not in ("", "ffffffffffff"):
                r.add("mac", mac)
    urls = [p for p in pieces if "://" in p]
    if urls:
        _learn_urls(r, "\n".join(urls))
    unc = [p for p in pieces if "\\\\" in p]
    for p in unc:
        for m in RE_UNC.finditer(p):
            if m.group(1).lower() not in _UNC_NOT_HOSTS and not m.group(1).replace(".", "").isdigit():
                r.add_host(m.group(1), first_label=False)
    if any(s in low for s in _PRIVATE_DOTS):
        for m in RE_PRIVATE_HOST.finditer(lines_with(text, low, _PRIVATE_DOTS)):
            r.add_host(m.group(0), first_label=False)


_PRIVATE_DOTS = (".local", ".lan", ".internal", ".intranet", ".corp", ".private", ".intra", ".priv", ".home.arpa")


def _learn_ipv4(r: Learner, joined: str, text: str, low: str) -> None:
    found = dict.fromkeys(m.group(0) for m in RE_IPV4.finditer(joined))  # in order: stable numbering
    if not found:
        return
    versions = _versions(text, low, found)
    for ip in found:
        if ip not in versions:
            add_ip(r, ip)


def _versions(text: str, low: str, found: dict[str, None]) -> set[str]:
    """Dotted quads that stand after a version word ("Kernel version: 5.15.133.1"): versions, not
    addresses. Looked for only on the lines that hold such a word."""
    lines = lines_with(low, low, _VERSION_WORDS)
    return {m.group(1) for m in _VERSION_IP.finditer(lines) if m.group(1) in found}


def _learn_urls(r: Learner, joined: str) -> None:
    if "@" in joined:
        from .secrets import looks_like_token
        for m in RE_URL_CRED.finditer(joined):
            r.add_user(m.group(2)) if not looks_like_token(m.group(2)) else r.add_secret(m.group(2))
            r.add_secret(m.group(3))
            if m.group(4) and "." in m.group(4) and not RE_IPV4.fullmatch(m.group(4)):
                r.add_host(m.group(4), first_label=False)  # a server one logs in to is the organisation's own
        from .secrets import RE_TOKEN_PREFIX
        for m in RE_URL_TOKEN.finditer(joined):
            if looks_like_token(m.group(2)) or RE_TOKEN_PREFIX.fullmatch(m.group(2)):
                r.add_secret(m.group(2))
    low = joined.lower()
    hooks = any(w in low for w in _HOOK_WORDS)
    for m in RE_URL.finditer(joined):
        host, path = m.group(2), m.group(3) or ""
        if internal_host(host):
            r.add_host(host, first_label=False)
        if hooks and path and (_HOOK_PATH.search(path) or _HOOK_QUERY.search(path)
                               or (_HOOK_HOSTS.search(host) and len(path) > 8)):
            r.add("webhook", path.rstrip(".,;"))


# --- Wi-Fi: context learning ------------------------------------------------------------------------

def learn_wifi(r: Learner, text: str, low: str) -> None:
    if not any(w in low for w in _WIFI_WORDS):
        return
    lines = lines_with(text, low, _WIFI_WORDS)
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


def learn_nm_files(r: Learner, text: str, low: str) -> None:
    if "system-connections/" in text:
        for m in RE_NM_FILE_TEXT.finditer(lines_with(text, low, ("system-connections/",))):
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
