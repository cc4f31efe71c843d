"""Keep the Simplified Chinese catalogue in step with the GUI's source.

    .venv/bin/python resources/translations/update_ts.py          # write .ts, compile .qm
    .venv/bin/python resources/translations/update_ts.py --check  # list strings without a translation

Strings are the first argument of every `tr("...")` and `N_("...")` call in ui/ (one context,
"gpu_wizard", see ui/i18n.py): the window's own words. What the engine says (findings, reasons,
plan steps, checks, diagnoses) is not here: it lives in the message catalogue, resources/messages. Translations live in zh_CN.json (English → 简体中文); this
writes gpu_wizard_zh_CN.ts (Qt Linguist format, for translators' tools) and compiles
gpu_wizard_zh_CN.qm with pyside6-lrelease.
"""
from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
from pathlib import Path
from xml.sax.saxutils import escape

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
CONTEXT = "gpu_wizard"
LANG = "zh_CN"


def extract(ui_dir: Path = ROOT / "ui") -> dict[str, list[str]]:
    """source string → ["file:line", ...] for every tr()/N_() with a literal first argument."""
    found: dict[str, list[str]] = {}
    for py in sorted(ui_dir.rglob("*.py")):
        tree = ast.parse(py.read_text(encoding="utf-8"), filename=str(py))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
            if name not in ("tr", "N_"):
                continue
            a = node.args[0]
            if isinstance(a, ast.Constant) and isinstance(a.value, str):
                found.setdefault(a.value, []).append(f"{py.relative_to(ROOT)}:{node.lineno}")
    return found


def load_translations() -> dict[str, str]:
    return json.loads((HERE / f"{LANG}.json").read_text(encoding="utf-8"))


def write_ts(strings: dict[str, list[str]], trans: dict[str, str], path: Path) -> None:
    out = ['<?xml version="1.0" encoding="utf-8"?>', "<!DOCTYPE TS>", f'<TS version="2.1" language="{LANG}">',
           "<context>", f"    <name>{CONTEXT}</name>"]
    for src in sorted(strings):
        loc = strings[src][0].rsplit(":", 1)
        t = trans.get(src, "")
        out.append("    <message>")
        out.append(f'        <location filename="../../{escape(loc[0])}" line="{loc[1]}"/>')
        out.append(f"        <source>{escape(src)}</source>")
        attr = "" if t else ' type="unfinished"'
        out.append(f"        <translation{attr}>{escape(t)}</translation>")
        out.append("    </message>")
    out += ["</context>", "</TS>", ""]
    path.write_text("\n".join(out), encoding="utf-8")


def lrelease() -> str:
    for cand in (ROOT / ".venv" / "bin" / "pyside6-lrelease", shutil.which("pyside6-lrelease"), shutil.which("lrelease")):
        if cand and Path(cand).exists():
            return str(cand)
    raise SystemExit("pyside6-lrelease not found (it comes with the PySide6-Essentials wheel)")


def main(argv: list[str]) -> int:
    strings = extract()
    trans = load_translations()
    missing = [s for s in strings if not trans.get(s)]
    if "--check" in argv:
        for s in missing:
            print(json.dumps(s, ensure_ascii=False), "  #", strings[s][0])
        return 1 if missing else 0
    ts = HERE / f"gpu_wizard_{LANG}.ts"
    write_ts(strings, trans, ts)
    qm = HERE / f"gpu_wizard_{LANG}.qm"
    subprocess.run([lrelease(), str(ts), "-qm", str(qm)], check=True, stdout=subprocess.DEVNULL)
    print(f"{len(strings)} strings, {len(missing)} without a translation; wrote {ts.name} and {qm.name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
