"""A Plan as a commented bash script (`gpu-wizard plan --script`), for people who want to read it
or run it themselves. Every argument is quoted with shlex; `bash -n` accepts the result."""
from __future__ import annotations

import re
import shlex
import textwrap
from pathlib import Path

from .model import Edit, Plan, Step

_HEADER = """\
#!/usr/bin/env bash
# GPU Setup Wizard plan ({created}, platform {platform}).
# Read every step before running it. Steps marked [root] run through sudo when you are not root.
# Each file the script edits is first copied to <file>.gpu-wizard.bak; copy it back to undo.
{facts}
set -euo pipefail
SUDO=()
[[ $(id -u) -eq 0 ]] || SUDO=(sudo)
DL="${{GPU_WIZARD_DOWNLOADS:-$HOME/.cache/gpu-wizard/downloads}}"
mkdir -p "$DL"

# fetch FILE URL SHA256|'' CHECKSUM_URL|'': download with resume, then check the published checksum
fetch() {{
  local file=$1 url=$2 want=$3 sums=$4 got
  curl -fL --retry 3 -C - -o "$DL/$file" "$url"
  if [[ -z $want && -n $sums ]]; then
    want=$(curl -fsSL "$sums" | awk -v f="$file" '
      $1 == "Filename:" {{ hit = ($2 == f || substr($2, length($2) - length(f)) == "/" f) }}
      hit && $1 == "SHA256:" {{ print $2; exit }}
      $1 ~ /^[0-9a-fA-F]+$/ && (length($1) == 32 || length($1) == 64) && ($2 == f || $2 ~ ("/" f "$")) {{ print $1; exit }}')
  fi
  [[ -n $want ]] || {{ echo "no published checksum for $file: refusing to use it" >&2; exit 1; }}
  if [[ ${{#want}} -eq 32 ]]; then got=$(md5sum "$DL/$file" | cut -d' ' -f1); else got=$(sha256sum "$DL/$file" | cut -d' ' -f1); fi
  if [[ ${{got,,}} != "${{want,,}}" ]]; then
    rm -f "$DL/$file"
    echo "checksum mismatch for $file: deleted, nothing ran it" >&2
    exit 1
  fi
}}
"""


_CONTROL = re.compile(r"[\x00-\x1f\x7f\x85\u2028\u2029]")


def one_line(text) -> str:
    """Text for inside a comment: every control character (a newline above all) shown escaped, so
    nothing from a snapshot or a plan can end the comment and start a command."""
    return _CONTROL.sub(lambda m: repr(m.group(0))[1:-1] if m.group(0) not in "\x85\u2028\u2029" else " ", str(text))


def _comment(text: str, width: int = 96) -> list[str]:
    out = []
    for para in str(text).splitlines() or [""]:
        out += ["# " + one_line(ln) for ln in (textwrap.wrap(para, width) or [""])]
    return out


_ODD = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def q(a: str) -> str:
    """One bash word holding exactly `a`: shlex's single quotes, or ANSI-C $'...' quoting when the
    text holds control characters (a NUL or a carriage return never sits raw in the script)."""
    a = str(a)
    if not _ODD.search(a):
        return shlex.quote(a)
    out = []
    for ch in a:
        if ch in "\\'":
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ord(ch) < 0x20 or ord(ch) == 0x7f:
            out.append("\\x%02x" % ord(ch))
        else:
            out.append(ch)
    return "$'" + "".join(out) + "'"


def _arg(a: str) -> str:
    if a.startswith("@download:"):
        return '"$DL"/' + q(a[len("@download:"):])
    if a.startswith("~/"):  # the home of whoever runs the script (a plan from a snapshot that did not record it)
        return '"$HOME"/' + q(a[2:])
    return q(a)


def _edit_lines(e: Edit, root: list[str]) -> list[str]:
    sudo = '"${SUDO[@]}" ' if e.needs_root else ""
    p = q(e.path)
    bak = q(e.path + ".gpu-wizard.bak")
    lines = [f"if [[ -e {p} ]]; then {sudo}cp -a {p} {bak}; fi"] if e.backup else []
    if e.mode == "write":
        lines += [f"{sudo}mkdir -p {q(e.path.rsplit('/', 1)[0] or '/')}",
                  f"printf '%s' {q(e.content)} | {sudo}tee {p} >/dev/null"]
    elif e.mode == "append":
        lines.append(f"printf '%s' {q(e.content)} | {sudo}tee -a {p} >/dev/null")
    elif e.mode == "delete":
        lines.append(f"{sudo}rm -f -- {p}")
    elif e.mode == "ini_set":  # the wizard's own section-aware INI edit (app/plan/ini.py), embedded in $INI_PY
        pairs = " ".join(f"{q(k)} {q(v)}" for k, v in e.settings)
        lines.append(f'{sudo}python3 -c "$INI_PY" {p} {q(e.section)} {pairs}')
    elif e.mode == "remove_lines":
        pats = " ".join(f"-e {q(ln.strip())}" for ln in e.lines)
        lines.append(f"if [[ -e {p} ]]; then {{ grep -vxF {pats} {bak} || true; }} | {sudo}tee {p} >/dev/null; fi")
    else:
        raise ValueError(f"edit mode {e.mode!r} has no script form")
    return lines


def _ini_program() -> list[str]:
    """$INI_PY: app/plan/ini.py itself, so the script edits INI files exactly as the wizard does."""
    import sys

    here = Path(__file__).with_name("ini.py")
    if not here.is_file() and getattr(sys, "_MEIPASS", None):  # a bundle: the spec carries it as data
        here = Path(sys._MEIPASS) / "app" / "plan" / "ini.py"  # type: ignore[attr-defined]
    src = here.read_text(encoding="utf-8")
    return ["", "# INI_PY: set key=value inside an INI [section] (python3 -c \"$INI_PY\" FILE SECTION KEY VALUE...);",
            "# comments, order, CRLF and a byte-order mark stay as they were",
            "IFS= read -r -d '' INI_PY <<'GPU_WIZARD_INI' || true", src.rstrip("\n"), "import sys",
            "raise SystemExit(main(sys.argv[1:]))", "GPU_WIZARD_INI"]


def _step_lines(i: int, step: Step) -> list[str]:
    out = ["", f"# --- Step {i}: {one_line(step.id)}{' [root]' if step.needs_root else ''} ---", f"# {one_line(step.title)}"]
    out += _comment(step.why)
    for n in step.notes:
        out += _comment("Note: " + n)
    for r in step.removes:
        out.append(f"#   removes: {one_line(r)}")
    if step.done_when:
        out.append("# Skipped by the wizard when: " + "; ".join(one_line(c.describe())[:160] for c in step.done_when))
    if step.reboot_required:
        out.append("# A restart is needed after this step.")
    for d in step.downloads:
        out.append(f"fetch {q(d.name)} {q(d.url)} {q(d.sha256 or '')} {q(d.checksum_url or '')}")
    for e in step.edits:
        out += _edit_lines(e, [])
    envs = [f"{k}={v}" for k, v in sorted(step.env.items())]
    for argv in step.commands:
        words = [_arg(a) for a in argv]
        prefix = '"${SUDO[@]}" ' if step.needs_root else ""
        env = ("env " + " ".join(q(x) for x in envs) + " ") if envs else ""
        line = prefix + env + " ".join(words)
        ok = tuple(step.ok_exit_codes) or (0,)
        if ok != (0,):  # other exit codes that mean success (3010: done, restart needed)
            pats = "|".join(str(int(c)) for c in ok)
            line += f" || {{ rc=$?; case $rc in {pats}) ;; *) exit $rc ;; esac; }}"
        out.append(line)
    return out


def plan_to_script(plan: Plan) -> str:
    facts = "\n".join(f"#   {one_line(k)}: {one_line(v)}" for k, v in plan.facts_summary.items())
    lines = [_HEADER.format(created=one_line(plan.created or ""), platform=one_line(plan.platform),
                            facts=("# Machine:\n" + facts) if facts else "#")]
    if any(e.mode == "ini_set" for s in plan.steps for e in s.edits):
        lines += _ini_program()
    for w in plan.warnings:
        lines += _comment("Warning: " + w)
    for i, s in enumerate(plan.steps, 1):
        lines += _step_lines(i, s)
    lines += ["", 'echo "All steps finished."', ""]
    return "\n".join(lines)


to_script = plan_to_script  # the name the GUI's export looks for
