"""Section-aware edits of INI-style files (.wslconfig, /etc/wsl.conf): set key=value inside an
existing [section], add the section when it is missing, and leave everything else as it was
(comments, order, other keys, blank lines, CRLF line ends, a UTF-8 or UTF-16 byte-order mark).

Pure functions on bytes/text, no imports beyond the standard library: the executor, the root
helper and the exported bash script (which embeds this file's source) all run the same code.
"""
from __future__ import annotations

import re

_KEY_RE = re.compile(r"^[A-Za-z0-9_.-]+$")
_BOMS = ((b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be"))


class IniError(ValueError):
    pass


def _header(line: str):
    """The section name of a `[name]` line (a trailing # or ; comment allowed), else None."""
    m = re.match(r"^\s*\[\s*([^\]\r\n]+?)\s*\]\s*(?:[#;].*)?$", line.rstrip("\r\n"))
    return m.group(1) if m else None


def _key_line(line: str, key: str):
    """(indent+key+spacing before the value, value, trailing spaces/comment) when the line sets key."""
    body = line.rstrip("\r\n")
    m = re.match(r"^(\s*" + re.escape(key) + r"\s*=\s*)(.*?)(\s+[#;].*|\s*)$", body, re.IGNORECASE)
    return (m.group(1), m.group(2), m.group(3)) if m else None


def decode(data: bytes) -> tuple[str, bytes, str]:
    """(text, byte-order mark, codec name). Undecodable UTF-8 bytes survive (surrogateescape)."""
    for bom, codec in _BOMS:
        if data.startswith(bom):
            return data[len(bom):].decode(codec, errors="surrogateescape" if codec == "utf-8" else "strict"), bom, codec
    return data.decode("utf-8", errors="surrogateescape"), b"", "utf-8"


def encode(text: str, bom: bytes, codec: str) -> bytes:
    return bom + text.encode(codec, errors="surrogateescape" if codec == "utf-8" else "strict")


def check_settings(section: str, settings) -> None:
    if not section or not re.fullmatch(r"[A-Za-z0-9_. -]+", section):
        raise IniError(f"not a usable section name: {section!r}")
    if not settings:
        raise IniError("no settings to write")
    for key, value in settings:
        if not _KEY_RE.match(key):
            raise IniError(f"not a usable key: {key!r}")
        if any(c in value for c in "\r\n\x00"):
            raise IniError(f"the value of {key} must be one line")


def set_values(text: str, section: str, settings) -> str:
    """Set each (key, value) inside [section]: replace the value where the key is already set
    (every occurrence, keeping its spacing and any trailing comment), else add `key=value` after
    the section's last setting; a missing section is added at the end."""
    check_settings(section, settings)
    nl = "\r\n" if "\r\n" in text else "\n"
    lines = text.splitlines(keepends=True)
    # sections: (start index of the header, end index exclusive) for every [section] header
    spans, current = [], None
    for i, ln in enumerate(lines):
        name = _header(ln)
        if name is not None:
            if current is not None:
                spans.append((current, i))
            current = i if name.lower() == section.lower() else None
    if current is not None:
        spans.append((current, len(lines)))
    missing = []
    for key, value in settings:
        found = False
        for start, end in spans:
            for i in range(start + 1, end):
                parts = _key_line(lines[i], key)
                if parts is not None:
                    ending = lines[i][len(lines[i].rstrip("\r\n")):]
                    lines[i] = parts[0] + value + parts[2] + ending
                    found = True
        if not found:
            missing.append((key, value))
    if missing and spans:
        start, end = spans[0]
        at = end
        while at > start + 1 and not lines[at - 1].strip():  # before the blank lines that end the section
            at -= 1
        if not lines[at - 1].endswith(("\n", "\r")):
            lines[at - 1] += nl
        lines[at:at] = [f"{k}={v}{nl}" for k, v in missing]
    elif missing:
        if lines and not lines[-1].endswith(("\n", "\r")):
            lines[-1] += nl
        if lines and lines[-1].strip():
            lines.append(nl)
        lines.append(f"[{section}]{nl}")
        lines += [f"{k}={v}{nl}" for k, v in missing]
    return "".join(lines)


def get_value(text: str, section: str, key: str):
    """The value of key in [section] (the last one wins, as in WSL's parser), else None."""
    if text.startswith("\ufeff"):
        text = text[1:]
    value, inside = None, False
    for ln in text.splitlines():
        name = _header(ln)
        if name is not None:
            inside = name.lower() == section.lower()
            continue
        if inside:
            parts = _key_line(ln, key)
            if parts is not None:
                value = parts[1]
    return value


def set_in_bytes(data: bytes, section: str, settings) -> bytes:
    text, bom, codec = decode(data)
    return encode(set_values(text, section, settings), bom, codec)


def main(argv) -> int:
    """`python3 - FILE SECTION KEY VALUE [KEY VALUE...]` (the exported bash script uses this)."""
    if len(argv) < 4 or len(argv) % 2:
        raise SystemExit("usage: FILE SECTION KEY VALUE [KEY VALUE...]")
    path, section, rest = argv[0], argv[1], argv[2:]
    pairs = list(zip(rest[0::2], rest[1::2]))
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except FileNotFoundError:
        data = b""
    new = set_in_bytes(data, section, pairs)
    with open(path, "wb") as fh:
        fh.write(new)
    return 0
