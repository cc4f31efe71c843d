"""Reading error text in bounded time and memory, and normalising it for matching.

A pasted traceback is small; a training log can be 50 MB, binary, UTF-16 (PowerShell's `>`),
or broken UTF-8. `scan_stream()` reads it in chunks through an incremental decoder, finds the
lines that hold any rule keyword (one cheap pass in C), and keeps only windows of lines around
them (a few lines before, more after, because tracebacks and installer errors wrap). The kept
text is capped: the first half of the cap from the start of the log, the second half from its
end (a ring), so both the first error (often the cause) and the last one survive. The keyword
search skips the tag every line of a chunk repeats (journald's `host unit[pid]: `, compose's
`svc-1  | `), and a hit line whose shape (digits dropped) was a hit SHAPE_CAP times opens no
window (its last occurrence is kept): a keyword-dense log costs its distinct lines, not its length.

`Window.normalised` is what rules match against: escapes undone (ANSI colours, journald's
`#012`/`#033`, repr's `\\n`/`\\'`, Windows path separators as `/`), each line stripped of quoting
and log prefixes (`> `, `[rank0]: `, dmesg `[  12.345]`, syslog/journald `Mon DD HH:MM:SS host
unit[pid]:`, ISO and glog timestamps, log-level columns, docker compose / kubernetes prefixes),
then all lines joined by one space with whitespace collapsed, so a message wrapped over lines
(uv's 80-column error box, a terminal's line wrap) still matches a one-line pattern. Identifiers
are never stripped: a kernel message keeps its `NVRM:` (only its repeats on continuation lines
go).
"""
from __future__ import annotations

import bisect
import codecs
import io
import re
from collections import deque
from dataclasses import dataclass, field
from typing import BinaryIO, Iterable, Optional

CHUNK_BYTES = 1024 * 1024
MAX_READ_BYTES = 512 * 1024 * 1024  # stop reading after this (a 50 MB log is read whole)
MAX_KEPT_CHARS = 2 * 1024 * 1024  # relevant windows kept for matching
LINES_BEFORE = 3
LINES_AFTER = 8
MAX_LINE_CHARS = 4000  # a longer line is cut around the keyword
MAX_WINDOW_CHARS = 32 * 1024
HARD_WRAP_MIN = 40  # a line at least this long that ends mid-word may be a terminal's hard wrap  # a run of hit lines longer than this is split into several windows
MAX_USAGE_POINTS = 4096
SHAPE_CAP = 64  # a hit line whose shape (its digits aside) was a hit this often already opens no window
MAX_SHAPES = 100_000  # shapes counted (a log of distinct lines beyond this is read as before)
MAX_REPEAT_TAILS = 256  # the last line kept of this many shapes seen too often
_DIGITS = b"0123456789"  # dropped from a line's shape: "5%" and "57%" are one shape
SMALL_INPUT_BYTES = 256 * 1024  # a paste this small is matched whole, without the keyword prefilter

_PREFIX_RE = re.compile(
    r"^(?:\s*(?:"
    r"\[rank\d+\]:|"  # torchrun
    r"\[\d+,\d+\]<std(?:out|err)>:|"  # mpirun --tag-output
    r"\((?:\w+ )?pid=\d+(?:, ip=[\d.]+)?\)|"  # Ray workers: "(RayWorker pid=12)"
    r">+|"  # e-mail / markdown quoting
    r"\|(?!\s*[=\-])|"  # box drawing used by some tools (not nvidia-smi table rules)
    r"[\u2502\u2503\u2551]|"  # rich/textual traceback boxes
    r"\[\s*\d+\.\d+\]|"  # dmesg time
    r"\[(?:[A-Z][a-z]{2} ){2}[ \d]\d \d\d:\d\d:\d\d \d{4}\]|"  # dmesg --ctime "[Fri Aug 30 11:11:22 2024]"
    r"\d{4}-\d\d-\d\d[T ][\d:.,]+(?:Z|[+-]\d\d:?\d\d)?:?|"  # ISO time (CI logs, python logging, TF)
    r"\d\d:\d\d:\d\d(?:[.,\-]\d+)?(?= )|"  # bare clock time "17:22:50-122539"
    r"(?:stdout|stderr) [FP] |"  # CRI (kubernetes) log format after its timestamp
    r"[IWEF]\d{4} \d\d:\d\d:\d+\.\d+\s+\d+ [\w./\-]+:\d+\]|"  # glog "E0000 00:00:17.2 7665 cuda_dnn.cc:522]"
    r"[IWEF] [\w./\-]+\.(?:cc|cpp|c|h|go|py):\d+\]|"  # TF/XLA "E external/.../cuda_dnn.cc:447]"
    r"(?:DEBUG|INFO|NOTICE|WARNING|WARN|ERROR|CRITICAL|FATAL)(?:\s{2,}|\s+[|\-]\s+)|"  # log level column "ERROR    msg"
    r"[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \S+ [\w.\-\[\]]+:|"  # syslog "Apr 22 18:10:16 host unit[1]:"
    r"kernel:|"  # journalctl -k without the date
    r"[\w.\-]{1,40}-\d+\s+\| |"  # docker compose "api-1  | "
    r"\[pod/[\w.\-]+/[\w.\-]+\]|"  # kubectl logs --prefix "[pod/name/container]"
    r"##\[(?:error|warning|debug|group|endgroup)\]|"  # GitHub Actions annotations
    r"#\d+ \d+\.\d+ "  # docker buildkit "#12 3.595 "
    r"))+\s*"
)
# Escapes that log tools and repr() write instead of the characters: ANSI colours (real ESC, or
# "\x1b"/"\033"/"#033" written out by journald/syslog), syslog's "#012" newline and "#011" tab, and
# Python repr's backslash escapes ("\\n", "\\'"). A literal backslash-n followed by a lower-case
# letter is left alone: it is more likely a Windows path ("C:\\nvidia").
_ANSI_RE = re.compile(r"(?:\x1b|\\x1b|\\033|\\e|#033)\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\x1b")
_LINEBREAK_RE = re.compile(r"#012|\\+r?\\*n(?![a-z])")
_TAB_RE = re.compile(r"#011|\\+t(?![a-z])")
_QUOTE_RE = re.compile(r"\\+(?=[\"'])")
_WINPATH_RE = re.compile(r"(?<=[\w.~$%:)\]])\\+(?=[\w.~$%(\-])")  # C:\\Users\\me -> C:/Users/me
_TAG_RE = re.compile(r"^(?:NVRM|nvidia-installer|nvidia-container-cli):\s*")
_SENTENCE_END = (".", "!", "?", ";")


def _expand(line: str) -> list[str]:
    """One raw line as the lines it stands for, escapes undone (cheap when there are none)."""
    if "\x1b" in line or "\\" in line or "#0" in line:
        line = _ANSI_RE.sub("", line)
        if "\\" in line or "#01" in line:
            line = _TAB_RE.sub(" ", line)
            line = _QUOTE_RE.sub("", line)
            parts = _LINEBREAK_RE.split(line)
            return [_WINPATH_RE.sub("/", x) for x in parts]
    return [line]


# CUDA error numbers said without their names ("CUDA failure 35", "cuda runtime error (35)",
# "cudaSetDevice err: 35", "cuInit returned 100", "cuda driver library init failure: 999"): the line
# gets the names of that number (runtime and driver API enums, from cuda_runtime_api.h / cuda.h),
# so rules and the identifier fallback keyed on the names see them.
CUDA_ERROR_NAMES: dict[int, tuple[str, ...]] = {
    2: ("cudaErrorMemoryAllocation", "CUDA_ERROR_OUT_OF_MEMORY"),
    3: ("cudaErrorInitializationError", "CUDA_ERROR_NOT_INITIALIZED"),
    34: ("cudaErrorStubLibrary", "CUDA_ERROR_STUB_LIBRARY"),
    35: ("cudaErrorInsufficientDriver",),
    46: ("cudaErrorDevicesUnavailable",),
    100: ("cudaErrorNoDevice", "CUDA_ERROR_NO_DEVICE"),
    101: ("cudaErrorInvalidDevice", "CUDA_ERROR_INVALID_DEVICE"),
    209: ("cudaErrorNoKernelImageForDevice", "CUDA_ERROR_NO_BINARY_FOR_GPU"),
    214: ("cudaErrorECCUncorrectable", "CUDA_ERROR_ECC_UNCORRECTABLE"),
    222: ("cudaErrorUnsupportedPtxVersion", "CUDA_ERROR_UNSUPPORTED_PTX_VERSION"),
    700: ("cudaErrorIllegalAddress", "CUDA_ERROR_ILLEGAL_ADDRESS"),
    802: ("cudaErrorSystemNotReady", "CUDA_ERROR_SYSTEM_NOT_READY"),
    803: ("cudaErrorSystemDriverMismatch", "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH"),
    999: ("cudaErrorUnknown", "CUDA_ERROR_UNKNOWN"),
}
_CUDA_CODE_RE = re.compile(
    r"(?:\b(?i:cuda)(?i: runtime| driver)?(?i: api)? ?(?i:error|failure|err)(?i: code)?"  # CUDA error 35, cuda runtime error (35)
    r"|\b(?:cuda|cu)[A-Z]\w{2,40}(?:\(\))?:? ?(?i:err(?:or)?|returned|failed|failure|status)(?i: with)?(?i: error)?(?i: code)?"  # cudaSetDevice err: 35
    r"|\b(?i:cuda(?:rt)?(?: driver)? (?:library|device memory info lookup)"
    r"(?: init| [a-z]{1,12})? (?:failure|failed to [a-z]{1,12}(?: [a-z]{1,12}){0,3})))"  # ollama's driver/cudart wrappers
    r" ?[:=#]? ?\(?(\d{1,3})\)?(?!\d|\.\d)")

# Operating-system messages in a Chinese locale: the English the rules know goes next to them
_LOCALISED = (
    (re.compile(r"找不到指定的模块"), "The specified module could not be found."),
    (re.compile(r"找不到指定的程序"), "The specified procedure could not be found."),
    (re.compile(r"权限不够|权限被拒绝|拒绝访问"), "Permission denied"),
    (re.compile(r"无法打开共享对象文件"), "cannot open shared object file"),
    (re.compile(r"没有那个文件或目录|系统找不到指定的文件"), "No such file or directory"),
    (re.compile(r"设备上没有空间|磁盘空间不足"), "No space left on device"),
    (re.compile(r"连接超时"), "Connection timed out"),
    (re.compile(r"拒绝连接|连接被拒绝"), "Connection refused"),
    (re.compile(r"名称解析暂时失败|无法解析(?:主机|域名)"), "Temporary failure in name resolution"),
)
# cmd.exe's "'X' is not recognized as an internal or external command" in other Windows languages
# (a console in the wrong code page turns the accented letters into "?" or U+FFFD: "n?o ?")
_NOT_RECOGNISED_RE = re.compile(
    r"[\"'“‘]?([\w.+-]+?)(?:\.exe)?[\"'”’]? (?:n.o . reconhecido como um comando|no se reconoce como un comando|"
    r"n.est pas reconnu en tant que commande|ist entweder falsch geschrieben|non . riconosciuto come comando|"
    r"不是内部或外部命令)", re.IGNORECASE)
_NOT_RECOGNISED_HINTS = ("reconhecido", "reconoce", "reconnu", "falsch geschrieben", "riconosciuto", "不是内部")
_CMD_ZH_RE = re.compile(r"([\w.+-]+)[：:] ?未找到命令|(?:未找到|找不到)命令 ?[“\"']([\w.+-]+)[”\"']")


_CJK_RE = re.compile("[\u4e00-\u9fff]")


def annotate(s: str) -> str:
    """A cleaned line with the stable names of what it says in numbers or in another language
    appended in brackets (the line itself is kept as it was)."""
    extra: list[str] = []
    if "cu" in s or "CU" in s or "Cu" in s:
        for m in _CUDA_CODE_RE.finditer(s):
            names = CUDA_ERROR_NAMES.get(int(m.group(1)))
            if names and not any(n.lower() in s.lower() for n in names):
                extra.extend(names)
    if any(h in s for h in _NOT_RECOGNISED_HINTS):
        for m in _NOT_RECOGNISED_RE.finditer(s):
            extra.append(f"'{m.group(1)}' is not recognized as an internal or external command")
    if _CJK_RE.search(s):
        for rx, english in _LOCALISED:
            if rx.search(s):
                extra.append(english)
        for m in _CMD_ZH_RE.finditer(s):
            extra.append(f"{m.group(1) or m.group(2)}: command not found")
    return f"{s} [{' '.join(dict.fromkeys(extra))}]" if extra else s


def _clean_lines(lines: list[str]) -> list[tuple[int, str]]:
    """(index of the raw line, cleaned text) for each line the raw lines stand for: escapes undone,
    log prefixes stripped, whitespace collapsed. A tool's tag repeated on a continuation line (the
    kernel's "NVRM: " on every line of one message) is dropped there and kept on the first line,
    so the message reads as one sentence and still carries its identifier."""
    out: list[tuple[int, str]] = []
    prev_tag = ""
    prev_open = False
    for i, raw in enumerate(lines):
        for part in _expand(raw):
            s = _WS_RE.sub(" ", _PREFIX_RE.sub("", part)).strip()
            if not s:
                continue
            m = _TAG_RE.match(s)
            tag = m.group(0).strip() if m else ""
            if m and tag and tag == prev_tag and prev_open:
                s = s[m.end():]
            if tag:
                prev_tag = tag
            elif not (prev_open and prev_tag):
                prev_tag = ""
            prev_open = not s.endswith(_SENTENCE_END)
            out.append((i, annotate(s)))
    return out


_WS_RE = re.compile(r"\s+")
_CTRL_BYTES = bytes(b for b in range(32) if b not in (9, 10, 13)) + b"\x7f"
_CTRL_RE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")

# Memory figures printed across iterations (for telling a leak). Units are captured.
USAGE_RE = re.compile(  # applied to lower-cased text
    r"(?:allocated|mem(?:ory)?[_ ]used|gpu[_ ]mem(?:ory)?|cuda[_ ]mem(?:ory)?)(?:[_ ]memory)?\s*[:=]?\s*"
    r"(\d+(?:\.\d+)?)\s*(gib|mib|kib|gb|mb|kb|g|m)\b"
    r"|(\d+)mib\s*/\s*\d+mib"
)
# the same two alternatives as separate patterns, each with a first-character set the regex engine skips to
# (one alternation starting with \\d has none: every position of the text was tried); usage_figures() merges their
# matches exactly as USAGE_RE.finditer finds them (leftmost first, the first alternative on a tie)
_USAGE_NAMED = re.compile(USAGE_RE.pattern.rsplit("|(\\d+)mib", 1)[0])
_USAGE_RATIO = re.compile(r"(\d)(\d*)mib\s*/\s*\d+mib")


def usage_figures(low: str, a: int, b: int) -> Iterable[float]:
    """The MiB of each match of USAGE_RE in low[a:b], in order (USAGE_RE.finditer's matches, found faster)."""
    pos = a
    ma = _USAGE_NAMED.search(low, pos, b)
    mb = _USAGE_RATIO.search(low, pos, b)
    while ma is not None or mb is not None:
        if mb is None or (ma is not None and ma.start() <= mb.start()):
            assert ma is not None
            yield _to_mib(ma.group(1), ma.group(2))
            pos = ma.end()
        else:
            yield float(mb.group(1) + mb.group(2))
            pos = mb.end()
        if ma is not None and ma.start() < pos:
            ma = _USAGE_NAMED.search(low, pos, b)
        if mb is not None and mb.start() < pos:
            mb = _USAGE_RATIO.search(low, pos, b)


USAGE_STRIDE_CHARS = 256 * 1024
USAGE_SLICE_CHARS = 32 * 1024
_UNIT_MIB = {"gib": 1024.0, "gb": 1000.0**3 / 2**20, "g": 1024.0, "mib": 1.0, "mb": 1000.0**2 / 2**20, "m": 1.0,
             "kib": 1 / 1024.0, "kb": 1000.0 / 2**20}


@dataclass
class Window:
    first_line: int  # 1-based line number of lines[0]
    lines: list[str]
    _norm: Optional[str] = None
    _offsets: list[int] = field(default_factory=list)
    _tight: Optional[str] = None
    _tight_offsets: list[int] = field(default_factory=list)
    _clean: Optional[list[tuple[int, str]]] = None
    _joins: Optional[str] = None

    @property
    def cleaned(self) -> list[tuple[int, str]]:
        """(raw line index, cleaned text) for each line, computed once for both joins."""
        if self._clean is None:
            self._clean = _clean_lines(self.lines)
        return self._clean

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    @property
    def normalised(self) -> str:
        if self._norm is None:
            parts: list[str] = []
            offsets = [0] * len(self.lines)
            pos = 0
            last = -1
            for i, s in self.cleaned:
                while last < i:  # lines that cleaned to nothing start where the next text starts
                    last += 1
                    offsets[last] = pos
                parts.append(s)
                pos += len(s) + 1
            for k in range(last + 1, len(self.lines)):
                offsets[k] = pos
            self._norm = " ".join(parts)
            self._offsets = offsets
        return self._norm

    @property
    def tight(self) -> str:
        """Like `normalised`, but a long line that a terminal cut mid-word (no space at the
        break) is joined to the next without a space: "...passed in a n" + "on-contiguous"."""
        if self._tight is None:
            out = ""
            offsets = [0] * len(self.lines)
            last = -1
            prev_cut = False
            joins: list[int] = []
            width = max(HARD_WRAP_MIN, max((len(x) for x in self.lines), default=0) - 1)
            for i, s in self.cleaned:
                raw = self.lines[i]
                while last < i:
                    last += 1
                    offsets[last] = len(out)
                if out:
                    if prev_cut and not raw[:1].isspace():
                        joins.append(len(out))
                    else:
                        out += " "
                    if offsets[i] == len(out) - 1 or offsets[i] > len(out):
                        offsets[i] = len(out)
                out += s
                # a terminal cuts at its width: only lines as long as the longest one count as cut
                # (a log's lines of all lengths then do not all get glued to the next)
                prev_cut = len(raw) >= width and not raw[-1:].isspace()
            for k in range(last + 1, len(self.lines)):
                offsets[k] = len(out)
            self._tight = out
            self._tight_offsets = offsets
            # the text around each place two lines were joined without a space: a keyword that is in
            # `tight` but not in `normalised` must cross one of them (so only these need a look)
            self._joins = "\n".join(out[max(0, j - 64):j + 64] for j in joins)
        return self._tight

    @property
    def tight_joins(self) -> str:
        if self._joins is None:
            self.tight  # noqa: B018 (builds it)
        return self._joins or ""

    def line_at(self, pos: int, tight: bool = False) -> int:
        """1-based line number of a position in `normalised` (or `tight`)."""
        if tight:
            self.tight  # noqa: B018 (builds offsets)
            offs = self._tight_offsets
        else:
            self.normalised  # noqa: B018 (builds offsets)
            offs = self._offsets
        i = bisect.bisect_right(offs, pos) - 1
        return self.first_line + max(0, i)


@dataclass
class ScanResult:
    windows: list[Window]
    bytes_read: int = 0
    lines_read: int = 0
    truncated: bool = False
    binary: bool = False
    decode_errors: bool = False
    usage_mib: list[float] = field(default_factory=list)

    @property
    def chars_kept(self) -> int:
        return sum(sum(len(x) + 1 for x in w.lines) for w in self.windows)


def _trie_pattern(words: list[str]) -> str:
    """One regex for many literals, factored as a trie: the engine then tests one character class
    per position instead of every keyword (Python's re has no Aho-Corasick), ~30x faster."""
    trie: dict = {}
    for w in words:
        node = trie
        for ch in w:
            node = node.setdefault(ch, {})
        node[""] = {}

    def build(node: dict) -> str:
        end = "" in node
        branches = []
        singles = []
        for ch in sorted(k for k in node if k):
            sub = build(node[ch])
            if sub == "" and len(ch) == 1:
                singles.append(ch)
            else:
                branches.append(re.escape(ch) + sub)
        if singles:
            branches.append(re.escape(singles[0]) if len(singles) == 1 else "[" + "".join(re.escape(c) for c in singles) + "]")
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        if end:
            return "(?:" + body + ")?"
        return body

    return build(trie)


# Characters by how rarely they start a match in logs (rarest first). The prefilter only has to keep
# every line that holds a keyword, so each keyword may be searched by a suffix of it that starts at
# its rarest character: re skips positions whose character cannot start any alternative in C, so a
# small set of (rare) first characters makes the one pass over a large log several times faster.
_RARITY = "_'()!|{}[]<>@$&\\~^qzjx:/\"kvwy.=+*#?%;,bgfp-mhucdlrsnioate 0123456789"
_MIN_ANCHOR = 9


def _anchor(word: str) -> str:
    """The suffix of `word` that starts at its rarest character (at least _MIN_ANCHOR long)."""
    if len(word) <= _MIN_ANCHOR:
        return word
    best, best_rank = 0, len(_RARITY) + 1
    for i in range(len(word) - _MIN_ANCHOR + 1):
        r = _RARITY.find(word[i])
        r = len(_RARITY) if r < 0 else r
        if r < best_rank:
            best, best_rank = i, r
    return word[best:]


def keyword_regex(keywords: Iterable[str], anchored: bool = True) -> re.Pattern:
    """One pattern matching any of the literal keywords in lower-cased text (by default through
    their rare-character suffixes: it may match a little more than the keywords, never less)."""
    words = sorted({(_anchor(k.lower()) if anchored else k.lower()) for k in keywords if k})
    return re.compile(_trie_pattern(words) if words else r"(?!x)x")


def _to_mib(value: str, unit: str) -> float:
    return float(value) * _UNIT_MIB.get(unit.lower(), 1.0)


# a line's leading time (syslog/journald "dec 01 10:00:00 ", ISO "2026-12-01t10:00:00.123z "), lower-cased
_STAMP_RE = re.compile(r"[a-z]{3} [ \d]\d \d\d:\d\d:\d\d |\d{4}-\d\d-\d\d[t ][\d:.,]+(?:z|[+-]\d\d:?\d\d)? ")
_TAG_ENDS = (": ", " | ", "] ")  # journald "host unit[pid]: ", compose "api-1  | ", kubectl "[pod/x/y] "


def repeated_tag(low: str, kw: re.Pattern) -> Optional[str]:
    """The tag nearly every line of a chunk repeats after its time (journald's "host unit[pid]: ", compose's
    "svc-1  | "), when no keyword is in it: searching for keywords there is wasted work."""
    head = low[:16384].split("\n")[1:65]
    if len(head) < 16:
        return None
    tags: dict[str, int] = {}
    for line in head:
        m = _STAMP_RE.match(line)
        rest = line[m.end():] if m else line
        ends = [(i, i + len(e)) for i, e in ((rest.find(e), e) for e in _TAG_ENDS) if i > 0]
        cut = min(ends) if ends else (-1, -1)
        if 0 < cut[0] <= 80:
            tag = rest[:cut[1]]
            tags[tag] = tags.get(tag, 0) + 1
    if not tags:
        return None
    tag, count = max(tags.items(), key=lambda x: x[1])
    return tag if count * 5 >= len(head) * 4 and len(tag) >= 8 and kw.search(tag) is None else None


def masked(low: str, kw: re.Pattern) -> str:
    """`low` with the repeated tag blanked (spaces, its closing ": " kept: positions, lines and every keyword
    outside the tag stay where they are), for the keyword search only."""
    tag = repeated_tag(low, kw)
    return low if tag is None else low.replace(tag, " " * (len(tag) - 2) + tag[-2:])


class _Scanner:
    def __init__(self, kw: re.Pattern, collect_usage: bool):
        self.kw = kw
        self.collect_usage = collect_usage
        self.head: list[Window] = []
        self.tail: deque[Window] = deque()
        self.head_chars = 0
        self.tail_chars = 0
        self.truncated = False
        self.line_no = 0  # lines completed before the current chunk
        self.pending: Optional[Window] = None  # window waiting for lines after it
        self.pending_after = 0
        self.pending_chars = 0
        self.prev_lines: deque[str] = deque(maxlen=LINES_BEFORE)
        self.usage: list[float] = []
        self.usage_step = 1
        self.usage_seen = 0
        self.shapes: dict[bytes, int] = {}  # a hit line's shape (its digits dropped) -> times it was a hit
        self.last_repeat: dict[bytes, tuple[int, str]] = {}  # shape -> (line number, line) of its latest capped line
        self.repeats_skipped = 0

    # -- windows -------------------------------------------------------------------------
    def _keep(self, w: Window) -> None:
        size = sum(len(x) + 1 for x in w.lines)
        half = MAX_KEPT_CHARS // 2
        if self.head_chars + size <= half and not self.tail:
            self.head.append(w)
            self.head_chars += size
            return
        self.tail.append(w)
        self.tail_chars += size
        while self.tail_chars > half and len(self.tail) > 1:
            old = self.tail.popleft()
            self.tail_chars -= sum(len(x) + 1 for x in old.lines)
            self.truncated = True

    def _add_window(self, first_line: int, lines: list[str], after: int) -> None:
        p = self.pending
        if p is not None and first_line <= p.first_line + len(p.lines) and self.pending_chars < MAX_WINDOW_CHARS:
            overlap = p.first_line + len(p.lines) - first_line
            new = lines[overlap:]
            p.lines.extend(new)
            self.pending_chars += sum(len(x) + 1 for x in new)
            self.pending_after = max(self.pending_after, after)
            return
        if p is not None:
            if first_line <= p.first_line + len(p.lines):  # a full window: the next one starts after it
                lines = lines[p.first_line + len(p.lines) - first_line:]
                first_line = p.first_line + len(p.lines)
            self._keep(p)
        self.pending = Window(first_line, lines)
        self.pending_chars = sum(len(x) + 1 for x in lines)
        self.pending_after = after

    @staticmethod
    def _cut(line: str, around: Optional[int] = None) -> str:
        if len(line) <= MAX_LINE_CHARS:
            return line
        mid = around if around is not None else 0
        start = max(0, mid - MAX_LINE_CHARS // 2)
        return line[start:start + MAX_LINE_CHARS]

    def feed(self, text: str) -> None:
        """`text` holds whole lines only (the caller keeps a partial last line back)."""
        if not text:
            return
        n = text.count("\n") + (0 if text.endswith("\n") else 1)
        # lines owed to the pending window from the previous chunk
        if self.pending is not None and self.pending_after > 0:
            take = min(self.pending_after, n)
            carried = [self._cut(x) for x in text.split("\n", take)[:take]]
            self.pending.lines.extend(carried)
            self.pending_chars += sum(len(x) + 1 for x in carried)
            self.pending_after -= take
        # hits: line index of each keyword position (searched in lower case: much faster than
        # a case-insensitive alternation; lower() keeps newlines, so line numbers hold)
        low = text.lower()
        capped: list[tuple[bytes, int]] = []
        runs = self._runs(masked(low, self.kw), capped)
        lines: list[str] = []
        if runs or capped:  # split into lines only when something matched (most chunks of a log do not)
            lines = text.split("\n")
            if lines and lines[-1] == "":
                lines.pop()
        self.repeats_skipped += len(capped)
        for shape, i in dict(capped).items():  # the latest line of each shape seen too often (its last one survives)
            self._note_repeat(shape, self.line_no + i + 1, self._cut(lines[i]) if i < len(lines) else "")
        for i, last, col in runs:
            self._run_windows(lines, n, i, last, col)
        if self.collect_usage:
            self._usage(low)
        tail = lines[-LINES_BEFORE:] if lines else text.rstrip("\n").rsplit("\n", LINES_BEFORE)[-LINES_BEFORE:]
        self.prev_lines.extend(self._cut(x) for x in tail)
        self.line_no += n

    def _runs(self, low: str, capped: list[tuple[bytes, int]]) -> list[list[int]]:
        """Runs of hit lines ([first hit line, last hit line, column of the first hit]): a hit within LINES_AFTER
        of the previous one extends its run, so a log that repeats an error on every line costs one window per
        run, not one per line. A line whose shape (digits aside) was a hit SHAPE_CAP times already is no hit
        (`capped` gets its shape and line): a keyword-dense log costs its distinct lines, not its length."""
        runs: list[list[int]] = []
        pos = 0
        line_i = 0
        m = self.kw.search(low)
        while m is not None:  # one hit per line is enough: jump to the next line after each
            p = m.start()
            line_i += low.count("\n", pos, p)
            start = low.rfind("\n", 0, p) + 1
            end = low.find("\n", p)
            shape = self._repeated(low[start:end if end >= 0 else len(low)])
            if shape is not None:
                capped.append((shape, line_i))
                if end < 0:
                    break
                pos, line_i = end + 1, line_i + 1
                m = self.kw.search(low, pos)
                continue
            if runs and line_i <= runs[-1][1] + LINES_AFTER:
                runs[-1][1] = line_i
            else:
                runs.append([line_i, line_i, p - start])
            # the lines up to LINES_AFTER below this hit are in its window already: look for the
            # next hit from there (a log with a keyword on every line then costs 1/LINES_AFTER
            # of the searches; the windows kept are the same, merged where they touch)
            nl = p
            for _ in range(LINES_AFTER):
                nl = low.find("\n", nl + 1) if nl >= 0 else -1
                if nl < 0:
                    break
                line_i += 1
            if nl < 0:
                break
            pos = nl + 1
            m = self.kw.search(low, pos)
        return runs

    def _repeated(self, line: str) -> Optional[bytes]:
        """The line's shape when lines of that shape were hits SHAPE_CAP times already (else None, counted)."""
        shape = line.encode("utf-8", "surrogatepass").translate(None, _DIGITS)
        seen = self.shapes.get(shape, 0)
        if seen >= SHAPE_CAP:
            return shape
        if seen or len(self.shapes) < MAX_SHAPES:
            self.shapes[shape] = seen + 1
        return None

    def _note_repeat(self, shape: bytes, line_no: int, line: str) -> None:
        self.last_repeat.pop(shape, None)
        self.last_repeat[shape] = (line_no, line)
        if len(self.last_repeat) > MAX_REPEAT_TAILS:
            self.last_repeat.pop(next(iter(self.last_repeat)))

    def _run_windows(self, lines: list[str], n: int, i: int, last: int, col: int) -> None:
        """The window(s) of one run of hit lines (first hit line i, last hit line `last`)."""
        lo = max(0, i - LINES_BEFORE)
        hi = min(n, last + LINES_AFTER + 1)
        before: list[str] = []
        if i - LINES_BEFORE < 0:  # context from the previous chunk
            need = LINES_BEFORE - i
            before = list(self.prev_lines)[-need:] if need else []
        first = self.line_no + lo + 1 - len(before)
        body = lines[lo:hi]
        owed = (last + LINES_AFTER + 1) - hi
        if hi - lo > 64:  # a long run: cut it into windows of at most MAX_WINDOW_CHARS
            start = 0
            while start < len(body):
                size, end = 0, start
                while end < len(body) and size < MAX_WINDOW_CHARS:
                    size += min(len(body[end]), MAX_LINE_CHARS) + 1
                    end += 1
                win = (before if start == 0 else []) + [self._cut(x) for x in body[start:end]]
                self._add_window(first + (len(before) if start else 0) + start, win, owed if end >= len(body) else 0)
                start = end
            return
        win = before + [self._cut(x, col if k == i else None) for k, x in enumerate(body, start=lo)]
        self._add_window(first, win, owed)

    def _usage(self, low: str) -> None:
        """Memory figures, sampled: a slice of USAGE_SLICE_CHARS out of every USAGE_STRIDE_CHARS
        (one eighth of a long log; all of a short one), so a log with a figure on every line
        costs a fraction of a pass while the trend survives."""
        n = len(low)
        if n <= USAGE_STRIDE_CHARS:
            spans = [(0, n)]
        else:
            spans = [(a, a + USAGE_SLICE_CHARS) for a in range(0, n, USAGE_STRIDE_CHARS)]
        for a, b in spans:
            for v in usage_figures(low, a, min(n, b)):
                self.usage_seen += 1
                if self.usage_seen % self.usage_step:
                    continue
                self.usage.append(v)
                if len(self.usage) >= MAX_USAGE_POINTS:  # keep the shape, halve the resolution
                    self.usage = self.usage[::2]
                    self.usage_step *= 2

    def finish(self) -> list[Window]:
        if self.pending is not None:
            self._keep(self.pending)
            self.pending = None
        windows = self.head + list(self.tail)
        if not self.last_repeat:
            return windows
        # the last line of each shape seen too often, where no window holds it: a repeated error's last
        # figures (an OOM's) are still read
        starts = [w.first_line for w in windows]
        extra = []
        for line_no, line in sorted(self.last_repeat.values()):
            k = bisect.bisect_right(starts, line_no) - 1
            if k < 0 or line_no >= windows[k].first_line + len(windows[k].lines):
                extra.append(Window(line_no, [line]))
        return sorted(windows + extra, key=lambda w: w.first_line)


def _looks_utf16(head: bytes) -> Optional[str]:
    body = head[2:4098]
    if head[:2] == b"\xff\xfe" and (len(body) < 8 or body[1::2].count(0) > len(body) // 4):
        return "utf-16"  # PowerShell's `> file`: a BOM and then NUL high bytes (ASCII in UTF-16-LE)
    if head[:2] == b"\xfe\xff" and (len(body) < 8 or body[0::2].count(0) > len(body) // 4):
        return "utf-16"
    sample = head[:4096]
    if len(sample) >= 8 and sample[1::2].count(0) > len(sample) // 3 and sample[0::2].count(0) < len(sample) // 8:
        return "utf-16-le"
    return None


def scan_stream(stream: BinaryIO, kw: re.Pattern, *, collect_usage: bool = True,
                max_bytes: int = MAX_READ_BYTES) -> ScanResult:
    """Read a byte stream in chunks and keep the windows around keyword hits."""
    sc = _Scanner(kw, collect_usage)
    first = stream.read(CHUNK_BYTES)
    if len(first) <= SMALL_INPUT_BYTES:
        more = stream.read(1)
        if not more:  # a paste: keep all of it as one window (a terminal's hard wraps may cut keywords)
            return _scan_small(first, sc)
        first += more
    encoding = _looks_utf16(first) or "utf-8"
    dec = codecs.getincrementaldecoder(encoding)(errors="replace")
    total = 0
    binary = False
    decode_errors = False
    rest = ""
    chunk = first
    truncated_read = False
    while chunk:
        total += len(chunk)
        if not binary and encoding == "utf-8":
            ctrl = len(chunk) - len(chunk.translate(None, _CTRL_BYTES))
            binary = ctrl > len(chunk) // 20  # more than 5% control bytes: not a text log
        text = dec.decode(chunk)
        if "\ufffd" in text:
            decode_errors = True
        if binary or "\x00" in text:
            text = _CTRL_RE.sub(" ", text)
        text = rest + text.replace("\r\n", "\n").replace("\r", "\n")
        cut = text.rfind("\n")
        if cut < 0:
            if len(text) > MAX_LINE_CHARS * 4:  # a giant line: cut it anyway
                sc.feed(text + "\n")
                rest = ""
            else:
                rest = text
        else:
            sc.feed(text[:cut + 1])
            rest = text[cut + 1:]
        if total >= max_bytes:
            truncated_read = True
            break
        chunk = stream.read(CHUNK_BYTES)
    tail = rest + dec.decode(b"", final=True)
    if tail:
        sc.feed(tail + "\n")
    windows = sc.finish()
    return ScanResult(windows=windows, bytes_read=total, lines_read=sc.line_no,
                      truncated=sc.truncated or truncated_read or sc.repeats_skipped > 0, binary=binary,
                      decode_errors=decode_errors, usage_mib=sc.usage)


def _scan_small(data: bytes, sc: "_Scanner") -> ScanResult:
    encoding = _looks_utf16(data) or "utf-8"
    text = data.decode(encoding, errors="replace")
    ctrl = len(data) - len(data.translate(None, _CTRL_BYTES))
    binary = encoding == "utf-8" and ctrl > len(data) // 20
    decode_errors = "\ufffd" in text
    if binary or "\x00" in text:
        text = _CTRL_RE.sub(" ", text)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if sc.collect_usage:
        sc._usage(text.lower())
    windows = [Window(1, [sc._cut(x) for x in lines])] if any(x.strip() for x in lines) else []
    return ScanResult(windows=windows, bytes_read=len(data), lines_read=len(lines), binary=binary,
                      decode_errors=decode_errors, usage_mib=sc.usage)


def scan_text(text: str, kw: re.Pattern, *, collect_usage: bool = True) -> ScanResult:
    """The same for text already in memory (a paste)."""
    return scan_stream(io.BytesIO(text.encode("utf-8", errors="replace")), kw, collect_usage=collect_usage)
