"""PowerShell's own grammar over what the wizard writes for PowerShell (no Windows machine is here).

`tree-sitter-powershell` (the test extra) parses the text; `problems(text, planted)` then says what is wrong:
a parse error or a missing token anywhere, or a planted hostile string that is not wholly inside one
single-quoted (verbatim) string literal, or inside a comment that stays one line. Where tree-sitter is more
lenient than PowerShell itself, the rule of the PowerShell Language Specification 3.0 is checked on top
(section 2.3.5.2, string literals: a single-quote-character is any of ' U+2018 U+2019 U+201A U+201B, and one
of them inside a verbatim string must be doubled; tree-sitter only knows the ASCII quote). So text that would
end a literal in real PowerShell fails here too."""
from __future__ import annotations

from typing import Iterable, Optional

import pytest

SINGLE_QUOTES = "'\u2018\u2019\u201a\u201b"  # PowerShell Language Specification 3.0, 2.3.5.2 single-quote-character
DOUBLE_QUOTES = '"\u201c\u201d\u201e'  # double-quote-character

# what an attacker would plant in a field (a user name, a GPU name, a distro, a mirror URL, a file's content)
HOSTILE_PIECES = ("'", "\u2018", "\u2019", "\u201a", "\u201b", '"', "\u201c", "\u201d", "\u201e", "$(calc.exe)", "${env:PATH}", "$x",
                  "`", "`'", "`$(calc)", ";", "; Remove-Item -Recurse C:\\", "\n", "\r\n", "\r", "--%", "@(1)", "&", "|", "#", "<#",
                  "#>", "{", "}", "\u2028", "\u0085", "\\\"", "\\'", "%PATH%", "!x!", ">", "<", "\t")


def hostile(tag: str, one_line: bool = False, without: str = "") -> str:
    """A hostile string between two markers (letters and digits only, so the markers are inert everywhere);
    `one_line`: no line breaks (a field that is one line of a command's output); `without`: characters the
    field cannot hold where it comes from (a CSV cell has no comma)."""
    pieces = [p for p in HOSTILE_PIECES if not (one_line and any(c in p for c in "\r\n\u0085\u2028"))]
    body = "x".join(pieces)  # apart: two quotes side by side would read as one escaped quote
    for c in without:
        body = body.replace(c, "")
    return f"QZB{tag}" + body + f"QZE{tag}"


def markers(tag: str) -> tuple[str, str]:
    return f"QZB{tag}", f"QZE{tag}"


_PARSER = None


def parser():
    global _PARSER
    if _PARSER is None:
        ts = pytest.importorskip("tree_sitter", reason="tree-sitter comes with the test extra")
        tsp = pytest.importorskip("tree_sitter_powershell", reason="tree-sitter-powershell comes with the test extra")
        _PARSER = ts.Parser(ts.Language(tsp.language()))
    return _PARSER


def _walk(node) -> Iterable:
    yield node
    for c in node.children:
        yield from _walk(c)


def _inside(node, kinds: tuple[str, ...]):
    while node is not None and node.type not in kinds:
        node = node.parent
    return node


def _verbatim_ok(text: str) -> bool:
    """A verbatim string literal as PowerShell reads it: opened and closed by a single-quote-character, and
    every single-quote-character inside doubled."""
    if len(text) < 2 or text[0] not in SINGLE_QUOTES or text[-1] not in SINGLE_QUOTES:
        return False
    inner, i = text[1:-1], 0
    while i < len(inner):
        if inner[i] in SINGLE_QUOTES:
            if i + 1 >= len(inner) or inner[i + 1] not in SINGLE_QUOTES:
                return False
            i += 2
        else:
            i += 1
    return True


def problems(text: str, planted: Iterable[str] = ()) -> list[str]:
    """What is wrong with `text` as PowerShell (empty: nothing). `planted`: the tags of hostile() strings in it."""
    data = text.encode("utf-8")
    tree = parser().parse(data)
    out = []
    for n in _walk(tree.root_node):
        if n.type == "ERROR" or n.is_missing:
            line = data[:n.start_byte].count(b"\n") + 1
            out.append(f"parse error at line {line}: {data[n.start_byte:n.end_byte][:60]!r}")
        elif n.type == "verbatim_string_characters":
            s = data[n.start_byte:n.end_byte].decode("utf-8")
            if not _verbatim_ok(s):
                out.append(f"a verbatim string PowerShell would end early: {s[:60]!r}")
        elif n.type == "comment" and b"\n" in data[n.start_byte:n.end_byte].rstrip(b"\r\n"):
            out.append("a comment over several lines")
    for tag in planted:
        begin, end = (m.encode() for m in markers(tag))
        pos = 0
        found = 0
        while True:
            b = data.find(begin, pos)
            if b < 0:
                break
            e = data.find(end, b)
            if e < 0:
                out.append(f"{tag}: the hostile text is cut (no end marker)")
                break
            e += len(end)
            found += 1
            holder = _holder(tree.root_node, b, e)
            if holder is None:
                out.append(f"{tag}: hostile text outside a single-quoted literal: {data[b:e][:80]!r}")
            pos = e
        if not found:
            out.append(f"{tag}: the hostile text does not appear at all")
    return out


def _holder(root, start: int, end: int) -> Optional[object]:
    """What holds bytes start..end inertly, or None: one verbatim string literal holding them whole, or
    one-line comments (a long text wrapped over several `# ...` lines: between them only line ends)."""
    node = root.descendant_for_byte_range(start, end)
    lit = _inside(node, ("verbatim_string_characters", "comment"))
    if lit is not None and lit.start_byte <= start and end <= lit.end_byte:
        return lit
    comments = [n for n in _walk(root) if n.type == "comment" and n.end_byte > start and n.start_byte < end]
    if not comments or comments[0].start_byte > start or comments[-1].end_byte < end:
        return None
    for a, b in zip(comments, comments[1:]):
        if root.text[a.end_byte:b.start_byte].strip(b" \t\r\n"):
            return None
    return comments[0]


def literals(text: str) -> list[str]:
    """The values of the verbatim string literals in `text`, in order (doubled quotes undone)."""
    data = text.encode("utf-8")
    tree = parser().parse(data)
    out = []
    for n in _walk(tree.root_node):
        if n.type == "verbatim_string_characters":
            s = data[n.start_byte:n.end_byte].decode("utf-8")[1:-1]
            val, i = [], 0
            while i < len(s):
                val.append(s[i])
                i += 2 if s[i] in SINGLE_QUOTES and i + 1 < len(s) and s[i + 1] in SINGLE_QUOTES else 1
            out.append("".join(val))
    return out
