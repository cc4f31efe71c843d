"""Secrets: values of variables named like secrets, credentials in command lines and headers,
token-shaped strings, and private key blocks (SSH, PGP, PKCS#8, PuTTY): a key's body between its
BEGIN and END lines is one secret, found by its markers (linear: one search per block)."""
from __future__ import annotations

import itertools
import math
import operator
import re
from collections import Counter
from functools import lru_cache
from typing import Callable, Optional

from .common import PLACEHOLDER_RE, Learner, strip_quotes

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
RE_ASSIGN = re.compile(
    r"(?i)(?<![\w.\-])((?:export\s+|set\s+|\$env:)?([A-Za-z_][A-Za-z0-9_.\-]*))(\s*[=:]\s*)"
    r"(\"[^\"\n]*\"|'[^'\n]*'|[^\s\"',;]+)")
_FLAG_NAME = re.compile(r"(?i)--?(?:password|passwd|pass|token|api-?key|secret|auth|access-?key)")
RE_TOKEN_PREFIX = re.compile(
    r"(?<![\w-])(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|hf_[A-Za-z0-9]{20,}|sk-(?:proj-|ant-)?[A-Za-z0-9_\-]{20,}"
    r"|xox[abprs]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|ASIA[0-9A-Z]{16}|glpat-[A-Za-z0-9_\-]{20,}|npm_[A-Za-z0-9]{30,}"
    r"|eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}|AIza[0-9A-Za-z_\-]{35})(?![\w-])")
# the same, for findall over many pieces: each alternative starts with its first letter and checks the
# character before that letter after it, so the regex engine skips ahead to the next possible first
# letter instead of trying the lookbehind at every position
_TOKEN_PREFIX_SCAN = re.compile(
    r"(?:g(?<![\w-]g)(?:h[pousr]_[A-Za-z0-9]{20,}|ithub_pat_[A-Za-z0-9_]{20,}|lpat-[A-Za-z0-9_\-]{20,})"
    r"|h(?<![\w-]h)f_[A-Za-z0-9]{20,}|s(?<![\w-]s)k-(?:proj-|ant-)?[A-Za-z0-9_\-]{20,}|x(?<![\w-]x)ox[abprs]-[A-Za-z0-9-]{10,}"
    r"|A(?<![\w-]A)(?:KIA[0-9A-Z]{16}|SIA[0-9A-Z]{16}|Iza[0-9A-Za-z_\-]{35})|n(?<![\w-]n)pm_[A-Za-z0-9]{30,}"
    r"|e(?<![\w-]e)yJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,})(?![\w-])")
TOKEN_PREFIXES = ("gh", "github_pat_", "hf_", "sk-", "xox", "AKIA", "ASIA", "glpat-", "npm_", "eyJ", "AIza")
# a long run of token characters (the boundaries are the run's own ends: nothing of its alphabet around it)
RE_LONG = re.compile(r"[A-Za-z0-9_\-+][A-Za-z0-9_\-+/]{31,}={0,2}")
# a whole such run: nothing of its alphabet (or more "=") on either side
RE_LONG_ALONE = re.compile(r"(?<![A-Za-z0-9_\-+/=])[A-Za-z0-9_\-+][A-Za-z0-9_\-+/]{31,}={0,2}(?![A-Za-z0-9_\-+/=])")
_AUTH_SCHEMES = frozenset({"bearer", "basic", "token", "digest"})
RE_WIFI_KEY = re.compile(r"(?im)^[ \t]*(?:Key Content|Schlüsselinhalt|wpa-psk|psk)[ \t]*[:=][ \t]*\"?([^\"\r\n]+?)\"?[ \t]*$")
_WORDY = re.compile(r"[A-Za-z]+(?:[_-][A-Za-z0-9]+)*")
_PATH_SEG = re.compile(r"[a-z0-9_.-]{3,}")


_CLOG = [0.0] + [c * math.log2(c) for c in range(1, 4097)]
_DIGITS = "0123456789"
_ENTROPY_BAR = 4.0 + 1e-9


@lru_cache(maxsize=4096)
def _least_entropy(n: int, k: int) -> float:
    """The lowest entropy (bits per character) of n characters of which k differ: one character n-k+1
    times, the others once each (every other count vector spreads more)."""
    return math.log2(n) - (n - k + 1) * math.log2(n - k + 1) / n


def _entropy(s: str) -> float:
    """Shannon entropy in bits per character: log2(n) - sum(c·log2 c)/n over the character counts."""
    n = len(s)
    counts = Counter(s).values()
    if n > 4096:
        return -sum(c / n * math.log2(c / n) for c in counts)
    return math.log2(n) - sum(map(_CLOG.__getitem__, counts)) / n


def looks_like_token(s: str) -> bool:
    """A long random-looking string: mixed case and digits, high entropy (not a hex digest)."""
    n = len(s)
    if n < 32:
        return False
    k = len(set(s))
    if k < 16:  # 4 bits of entropy need at least 16 different characters
        return False
    digits = sum(map(s.count, _DIGITS)) if s.isascii() else sum(map(str.isdigit, s))
    if s.isupper() or s.islower() or not digits or "<" in s and PLACEHOLDER_RE.search(s):
        return False  # no mix of cases (a digest, a word) or no digit
    if digits < 4 and _WORDY.fullmatch(s):
        return False  # an identifier with words, e.g. NVIDIA_Driver_Version_560
    if s.startswith(("_Z", "__Z")):
        return False  # a C++ symbol (Itanium mangling) from a stack trace
    if "/" in s and any(_PATH_SEG.fullmatch(seg) for seg in s.split("/")):
        return False  # a relative path or URL part (tests/fixtures/real/..., com/org/repo/issues/28)
    return (n <= 4096 and _least_entropy(n, k) > _ENTROPY_BAR) or _entropy(s) >= 4.0


def is_secret_name(name: str) -> bool:
    if "WEBHOOK" in name.upper():  # SLACK_WEBHOOK_URL: the URL is the secret
        return True
    return bool(_SECRET_NAME.search(name)) and not _NOT_SECRET_NAME.search(name)


def is_secret_assignment(name: str) -> bool:
    """`name` in a "name=value" line of free text names a secret."""
    if re.fullmatch(r"[A-Z][A-Z0-9_]*", name) or "webhook" in name.lower():
        return is_secret_name(name)
    return bool(_SECRET_WORD.search(name)) and not _NOT_SECRET_NAME.search(name)


# --- learning ------------------------------------------------------------------------------------

def learn_pieces(r: Learner, pieces: list[str]) -> None:
    """Token-shaped secrets in the text's pieces (prefixes, JWTs, long random strings)."""
    long_ = list(itertools.compress(pieces, map((20).__le__, map(len, pieces))))
    if not long_:
        return
    text = "\n".join(long_)
    if any(x in text for x in TOKEN_PREFIXES):
        r.add_all("secret", _TOKEN_PREFIX_SCAN.findall(text))
    runs = r.unknown(dict.fromkeys(RE_LONG_ALONE.findall(text)))
    r.add_all("secret", itertools.compress(runs, tokens_among(runs)), fresh=True)


_NO_DIGITS = str.maketrans("", "", _DIGITS)


def tokens_among(runs: list[str]) -> list[bool]:
    """looks_like_token for each string, decided in bulk (no Python step per string) where it is ASCII
    with no "<" or "/": a mix of cases, a digit (four, or fewer in a string that is no identifier of
    words), 16 different characters or more, not a C++ symbol, 32 to 4096 long, and entropy high
    enough even at its least (_least_entropy); where that bound is not enough, the entropy itself
    (_entropy_of). Any other string: the test itself, one by one."""
    if not runs:
        return []
    joined = "\n".join(runs)
    if not joined.isascii() or "<" in joined or "/" in joined or len(joined.split("\n")) != len(runs):
        return list(map(looks_like_token, runs))
    ns = list(map(len, runs))
    digits = list(map(operator.sub, ns, map(len, joined.translate(_NO_DIGITS).split("\n"))))
    ks = list(map(len, map(set, runs)))
    base = map(operator.and_, map((1).__le__, digits), map((16).__le__, ks))
    base = map(operator.and_, base, map((32).__le__, ns))
    base = map(operator.and_, base, map((4096).__ge__, ns))
    base = map(operator.and_, base, map(operator.not_, map(str.isupper, runs)))
    base = map(operator.and_, base, map(operator.not_, map(str.islower, runs)))
    ok = list(map(operator.and_, base, map(operator.not_, map(str.startswith, runs, itertools.repeat(("_Z", "__Z"))))))
    for i in itertools.compress(range(len(runs)), map(operator.and_, ok, map((4).__gt__, digits))):
        if _WORDY.fullmatch(runs[i]):
            ok[i] = False  # an identifier with words, e.g. NVIDIA_Driver_Version_560
    least = list(map(_ENTROPY_BAR.__lt__, map(_least_entropy, ns, ks)))
    out = list(map(operator.and_, ok, least))
    for i in itertools.compress(range(len(runs)), map(operator.and_, ok, map(operator.not_, least))):
        out[i] = _entropy_of(runs[i]) >= 4.0
    for i in itertools.compress(range(len(runs)), map(operator.not_, ok)):
        out[i] = looks_like_token(runs[i])
    return out


def _entropy_of(s: str) -> float:
    """_entropy of a string of at most 4096 characters (by the table of c·log2 c)."""
    return math.log2(len(s)) - sum(map(_CLOG.__getitem__, Counter(s).values())) / len(s)


def learn_assignment(r: Learner, name: str, value: str, keyed: Callable[[str, str], bool]) -> None:
    """One `name=value` (or `name: value`) of free text: a secret's value, or what `keyed` knows."""
    value = strip_quotes(value)
    if is_secret_assignment(name) and not value.startswith(("$", "%")):
        r.add_secret(value)
    else:
        keyed(name, value)


def learn_flag_or_header(r: Learner, piece: str, nxt: list[str]) -> bool:
    """`--password X`, `Authorization: Bearer X` across pieces; `nxt` are the pieces after it.
    Returns True when it took a value."""
    low = piece.lower()
    if low.rstrip(":=") in ("authorization", "proxy-authorization") and nxt:
        vals = nxt[1:] if nxt[0].lower() in _AUTH_SCHEMES else nxt
        if vals:
            r.add_secret(vals[0].strip("\"',;"))
            return True
        return False
    if piece.startswith("-") and _FLAG_NAME.fullmatch(piece) and nxt:
        r.add_secret(_quoted_value(nxt))
        return True
    return False


def _quoted_value(nxt: list[str]) -> str:
    """The value a flag takes: the next piece, or the pieces up to the closing quote."""
    first = nxt[0]
    if first[:1] in "\"'" and not (len(first) > 1 and first.endswith(first[0])):
        q, parts = first[0], [first]
        for p in nxt[1:8]:
            parts.append(p)
            if p.endswith(q):
                break
        return " ".join(parts)
    return first


def learn_wifi_keys(r: Learner, text: str) -> None:
    if not text:
        return
    for m in RE_WIFI_KEY.finditer(text):
        r.add_secret(m.group(1))


# --- private key blocks ----------------------------------------------------------------------------

_BEGIN = re.compile(r"-{4,5} ?BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?) ?-{4,5}")
_ARMOR_LINE = re.compile(r"[A-Za-z0-9+/=]{8,}|(?:Proc-Type|DEK-Info|Comment|Version|Hash|Charset): .*|=[A-Za-z0-9+/]{4}")
_PUTTY = re.compile(r"Private-Lines: (\d{1,4})")


def key_blocks(text: str) -> list[tuple[int, int]]:
    """(start, end) of every private key body: after its BEGIN line, up to its END line (a key cut
    off before its END: its armour lines that follow), and PuTTY's Private-Lines. Linear in the text."""
    out: list[tuple[int, int]] = []
    if "PRIVATE KEY" in text:
        pos = 0
        while True:
            m = _BEGIN.search(text, pos)
            if not m:
                break
            end_marker = f"END {m.group(1)}"
            e = text.find(end_marker, m.end())
            if e < 0:
                e = pos = _armour_end(text, m.end())
            else:
                pos = e + len(end_marker)
                while e > m.end() and text[e - 1] in "- ":
                    e -= 1  # the dashes in front of END
            out.append(_trim(text, m.end(), e))
    if "Private-Lines:" in text:
        for m in _PUTTY.finditer(text):
            out.append(_trim(text, m.end(), _lines_end(text, m.end(), int(m.group(1)))))
    return [(a, b) for a, b in out if b > a]


def _trim(text: str, a: int, b: int) -> tuple[int, int]:
    """The body without the line ends around it (real ones, or escaped as \\n)."""
    while a < b:
        if text[a] in "\r\n \t":
            a += 1
        elif text.startswith(("\\n", "\\r"), a):
            a += 2
        else:
            break
    while b > a:
        if text[b - 1] in "\r\n \t":
            b -= 1
        elif text[b - 2:b] in ("\\n", "\\r"):
            b -= 2
        else:
            break
    return a, b


def _armour_end(text: str, i: int) -> int:
    """Where the base64 armour after a BEGIN line stops (a key whose END line is missing)."""
    near = text[i:i + 200]
    nl = "\\n" if "\\n" in near and "\n" not in near else "\n"
    pos, n = i, len(text)
    while pos < n:
        start = pos + len(nl) if text.startswith(nl, pos) else pos
        j = text.find(nl, start)
        end = n if j < 0 else j
        line = text[start:end].strip()
        if line and not _ARMOR_LINE.fullmatch(line):
            return pos
        if j < 0:
            return n
        pos = j
    return n


def _lines_end(text: str, i: int, n: int) -> int:
    pos = text.find("\n", i)
    for _ in range(n):
        if pos < 0:
            return len(text)
        pos = text.find("\n", pos + 1)
    return len(text) if pos < 0 else pos


def body_value(body: str) -> Optional[str]:
    """A key body as one value (line ends made alike, so the same key is the same secret)."""
    v = re.sub(r"(?:\\r)?\\n|\r?\n|\s+", "", body)
    return v or None
