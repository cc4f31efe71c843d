"""PowerShell quoting: the one way text from a plan, a machine or a snapshot goes into PowerShell.

Every value is a single-quoted (verbatim) literal: PowerShell expands nothing inside one (no `$`, no
backtick escapes, no sub-expressions) and ends it only at a single-quote-character, which is any of ' and
the typographic U+2018, U+2019, U+201A, U+201B (PowerShell Language Specification 3.0, 2.3.5.2); a doubled
one stands for itself, so each is doubled. tests/unit/test_powershell_grammar.py parses what the wizard
writes with PowerShell's grammar, hostile strings planted in every field."""
from __future__ import annotations

import base64
import re

SINGLE_QUOTES = "'\u2018\u2019\u201a\u201b"
_QUOTE = re.compile(f"[{SINGLE_QUOTES}]")
_BARE = re.compile(r"^[A-Za-z0-9_./\\:=+-]+$")  # a native command's argument PowerShell passes as it is


def ps_quote(text: object) -> str:
    """`text` as a PowerShell single-quoted literal."""
    return "'" + _QUOTE.sub(lambda m: m.group(0) * 2, str(text)) + "'"


def ps_arg(text: object) -> str:
    """An argument of a native command: bare where nothing in it means anything to PowerShell (a path, an
    option, `torch==2.9.1+cu128`), else quoted. Never bare: a leading '@' (splatting), ',' (an array), '$', '`',
    quotes, spaces, ';', '|', '&', '#', '<', '>', '%', braces and brackets, or an empty string."""
    s = str(text)
    return s if _BARE.match(s) and not s.startswith("--%") else ps_quote(s)


def env_line(name: str, value: object) -> str:
    """`$env:NAME = 'value'; ` (NAME: letters, digits and '_' only, else refused)."""
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
        raise ValueError(f"not an environment variable name: {name!r}")
    return f"$env:{name} = {ps_quote(value)}; "


def encoded_command(script: str) -> str:
    """The script for `powershell.exe -EncodedCommand` (base64 of UTF-16-LE): the command line carries only
    base64, so no quoting of the Windows command line can change the script."""
    return base64.b64encode(script.encode("utf-16-le")).decode("ascii")
