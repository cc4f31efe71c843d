"""Scripts never run data: hostile text in every field of a plan (a snapshot's $HOME with a newline,
a step title, a removal note, a package argument, a download name, an edit's content, a mirror URL)
stays inside a comment or a quoted word of `plan --script` (real bash runs the script with every
command stubbed, and the planted command never runs) and of the PowerShell export."""
from __future__ import annotations

import shlex
import shutil
import stat
import subprocess

import pytest

from app.plan.model import Check, Download, Edit, Plan, Step
from app.plan.script import one_line, plan_to_script
from app.plan.script_ps import plan_to_powershell, ps_quote

BASH = shutil.which("bash")


def _evil(marker: str) -> list[str]:
    """Ways text has broken out of a comment or a word before (and a few more)."""
    return [f"x\ntouch {marker}\n", f"x\rtouch {marker}\r", f"x'; touch {marker}; '", f'x"; touch {marker}; "',
            f"$(touch {marker})", f"`touch {marker}`", f"x\u2028touch {marker}", f"x\x00\ntouch {marker}"]


def _plan(marker: str) -> Plan:
    ev = _evil(marker)
    steps = []
    for i, e in enumerate(ev):
        steps.append(Step(
            id=f"install_thing{i}" + ("" if i else "\ntouch " + marker), kind="install_pytorch", title="Title " + e,
            why="Why " + e, notes=("Note " + e,), removes=("removes " + e,),
            commands=(("echo", e, "--flag=" + e),),
            env={"PIP_INDEX_URL": "https://x/" + e},
            edits=(Edit(path="/tmp/gpuwz-script-test/f" + str(i), mode="write", content=e, needs_root=False),),
            backups=("/tmp/gpuwz-script-test/f" + str(i),),
            downloads=(Download(name="a.run", url="https://x/" + e.replace("\n", ""), sha256="0" * 64),) if i == 0 else (),
            done_when=(Check("path_exists", ("/x" + e,)),)))
    return Plan(steps=tuple(steps), created="2026\ntouch " + marker, platform="linux\ntouch " + marker,
                facts_summary={"home": "/home/u\ntouch " + marker, "os\ntouch " + marker: "Ubuntu"},
                warnings=("Warning " + ev[0],))


def test_one_line_escapes_every_line_end():
    for e in _evil("/m"):
        assert "\n" not in one_line(e) and "\r" not in one_line(e) and "\u2028" not in one_line(e)


@pytest.mark.skipif(BASH is None, reason="needs real bash")
def test_bash_script_runs_no_planted_command(tmp_path):
    marker = tmp_path / "PWNED"
    text = plan_to_script(_plan(str(marker)))
    assert subprocess.run([BASH, "-n"], input=text.encode(), capture_output=True).returncode == 0
    # run it for real with every external command a stub that only records its arguments
    stubs = tmp_path / "bin"
    stubs.mkdir()
    log = tmp_path / "calls"
    for name in ("echo", "curl", "sudo", "sha256sum", "md5sum", "cut", "awk", "mkdir", "tee", "cp", "id", "rm",
                 "grep", "python3", "env"):
        p = stubs / name
        p.write_text(f"#!/bin/sh\nprintf '%s\\n' \"{name} $*\" >> {shlex.quote(str(log))}\n"
                     + ("echo 0\n" if name == "id" else "") + ("/bin/cat >/dev/null\n" if name == "tee" else ""))
        p.chmod(p.stat().st_mode | stat.S_IXUSR)
    ran = tmp_path / "TOUCH-RAN"  # a planted `touch` that broke out would run this one
    (stubs / "touch").write_text(f"#!/bin/sh\n: > {shlex.quote(str(ran))}\n/usr/bin/touch \"$@\"\n")
    (stubs / "touch").chmod(0o755)
    # the fetch helper's checksum check would stop the run at the first download: give it a match
    text = text.replace('if [[ ${got,,} != "${want,,}" ]]', 'if false')
    script = tmp_path / "plan.sh"
    script.write_text(text)
    r = subprocess.run([BASH, "--norc", "--noprofile", str(script)], capture_output=True, text=True, timeout=60,
                       env={"PATH": str(stubs), "HOME": str(tmp_path), "GPU_WIZARD_DOWNLOADS": str(tmp_path / "dl")})
    assert not marker.exists() and not ran.exists(), r.stdout + r.stderr
    calls = log.read_text()
    assert f"touch {marker}" in calls  # the planted text did arrive, as data (an echo argument)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "All steps finished." in r.stdout  # every step ran (as stubs): nothing was cut short


def test_bash_words_hold_control_characters_exactly(tmp_path):
    from app.plan.script import q

    if BASH is None:
        pytest.skip("needs real bash")
    for word in ("plain", "it's", "a\nb", "cr\rlf", "tab\tx", "bell\x07", "del\x7f", "\\back'slash"):
        r = subprocess.run([BASH, "-c", f"printf '%s' {q(word)}"], capture_output=True)
        assert r.stdout.decode() == word


def test_powershell_quote_covers_typographic_quotes():
    for q in ("'", "\u2018", "\u2019", "\u201a", "\u201b"):
        lit = ps_quote(f"a{q}; calc; {q}b")
        inner = lit[1:-1]
        # every quote character inside is doubled: none can end the literal
        i = 0
        while i < len(inner):
            if inner[i] in "'\u2018\u2019\u201a\u201b":
                assert i + 1 < len(inner) and inner[i + 1] in "'\u2018\u2019\u201a\u201b", lit
                i += 2
            else:
                i += 1


def _ps_code_outside_strings(text: str) -> str:
    """The script with single-quoted PowerShell literals (which may span lines) and comments removed."""
    out, i, quotes = [], 0, "'\u2018\u2019\u201a\u201b"
    while i < len(text):
        c = text[i]
        if c in quotes:
            i += 1
            while i < len(text):
                if text[i] in quotes:
                    if i + 1 < len(text) and text[i + 1] in quotes:
                        i += 2
                        continue
                    break
                i += 1
            i += 1
            out.append("''")
            continue
        if c == "#":
            while i < len(text) and text[i] not in "\r\n":
                i += 1
            continue
        out.append(c)
        i += 1
    return "".join(out)


def test_powershell_script_keeps_data_out_of_code():
    text = plan_to_powershell(_plan("C:\\PWNED").replace(platform="windows"))
    code = _ps_code_outside_strings(text)
    assert "touch" not in code and "PWNED" not in code
    assert "Invoke-Step" in code and "Set-Content" in code  # the checker did see the code
