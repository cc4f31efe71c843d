"""A Windows host plan as a commented PowerShell script (`gpu-wizard plan --script` on Windows),
the counterpart of script.py's bash script. Every argument is a single-quoted PowerShell string
('' escapes a quote), so nothing from the plan is ever parsed as PowerShell code."""
from __future__ import annotations

import textwrap

from app.pwsh import ps_quote

from .model import Edit, Plan, Step
from .script import one_line

_HEADER = """\
# GPU Setup Wizard plan ({created}, platform windows).
# Read every step before running it. Steps marked [admin] need an elevated PowerShell
# ("Run as administrator"); the script stops before the first one when it is not elevated.
# Each file the script edits is first copied to <file>.gpu-wizard.bak; copy it back to undo.
{facts}
$ErrorActionPreference = 'Stop'
$IsAdmin = ([Security.Principal.WindowsPrincipal][Security.Principal.WindowsIdentity]::GetCurrent()).IsInRole(
    [Security.Principal.WindowsBuiltInRole]::Administrator)
$RestartNeeded = $false

# Run EXE ARGS..., accepting the listed exit codes (3010: done, restart needed)
function Invoke-Step([string]$Exe, [string[]]$Arguments, [int[]]$Ok = @(0), [int[]]$Restart = @(3010)) {{
    & $Exe @Arguments
    $rc = $LASTEXITCODE
    if ($Restart -contains $rc) {{ $script:RestartNeeded = $true; return }}
    if ($Ok -notcontains $rc) {{ throw "$Exe exited with code $rc" }}
}}
"""


# Set-IniValue FILE SECTION KEY VALUE: key=value inside [SECTION] of an INI file (.wslconfig), the
# section added when missing; other lines, CRLF and a UTF-8 byte-order mark stay as they were.
_INI_FUNCTION = r"""
function Set-IniValue([string]$Path, [string]$Section, [string]$Key, [string]$Value) {
    $bytes = if (Test-Path -LiteralPath $Path) { [IO.File]::ReadAllBytes($Path) } else { [byte[]]@() }
    $bom = $bytes.Length -ge 3 -and $bytes[0] -eq 0xEF -and $bytes[1] -eq 0xBB -and $bytes[2] -eq 0xBF
    $text = [Text.UTF8Encoding]::new($false).GetString($bytes)
    if ($bom) { $text = $text.Substring(1) }
    $nl = if ($text.Contains("`r`n")) { "`r`n" } else { "`n" }
    $lines = [Collections.Generic.List[string]]::new()
    if ($text.Length -gt 0) { foreach ($l in ($text.TrimEnd("`r", "`n") -split "`r?`n")) { $lines.Add($l) } }
    $head = '^\s*\[\s*' + [regex]::Escape($Section) + '\s*\]\s*([#;].*)?$'
    $keyRe = '^(\s*' + [regex]::Escape($Key) + '\s*=\s*)(.*?)(\s+[#;].*|\s*)$'
    $start = -1; $end = $lines.Count; $found = $false
    for ($i = 0; $i -lt $lines.Count; $i++) {
        if ($lines[$i] -match '^\s*\[.*\]\s*([#;].*)?$') {
            if ($start -ge 0 -and $i -gt $start) { $end = $i; break }
            if ($lines[$i] -match $head) { $start = $i }
        } elseif ($start -ge 0 -and $lines[$i] -match $keyRe) {
            $lines[$i] = $Matches[1] + $Value + $Matches[3]; $found = $true
        }
    }
    if (-not $found) {
        if ($start -ge 0) {
            $at = $end
            while ($at -gt $start + 1 -and $lines[$at - 1].Trim() -eq '') { $at-- }
            $lines.Insert($at, "$Key=$Value")
        } else {
            if ($lines.Count -gt 0 -and $lines[$lines.Count - 1].Trim() -ne '') { $lines.Add('') }
            $lines.Add("[$Section]"); $lines.Add("$Key=$Value")
        }
    }
    [IO.File]::WriteAllText($Path, ($lines -join $nl) + $nl, [Text.UTF8Encoding]::new($bom))
}
"""


def _ps_arg(a: str) -> str:
    """An argument as a PowerShell value: a literal, or for ~ (the home of whoever runs the script, in a plan from
    a snapshot that did not record it) the home joined with a literal rest."""
    if a.startswith(("~\\", "~/")):
        return f"(Join-Path $HOME {ps_quote(a[2:])})"
    return ps_quote(a)


def _comment(text: str, width: int = 96) -> list[str]:
    out = []
    for para in str(text).splitlines() or [""]:
        out += ["# " + one_line(ln) for ln in (textwrap.wrap(para, width) or [""])]
    return out


def _edit_lines(e: Edit) -> list[str]:
    p = ps_quote(e.path)
    lines = [f"if (Test-Path -LiteralPath {p}) {{ Copy-Item -LiteralPath {p} -Destination {ps_quote(e.path + '.gpu-wizard.bak')} -Force }}"] \
        if e.backup else []
    if e.mode == "write":
        lines.append(f"Set-Content -LiteralPath {p} -Value {ps_quote(e.content)} -NoNewline -Encoding UTF8")
    elif e.mode == "append":
        lines.append(f"Add-Content -LiteralPath {p} -Value {ps_quote(e.content)} -NoNewline -Encoding UTF8")
    elif e.mode == "delete":
        lines.append(f"Remove-Item -LiteralPath {p} -Force -ErrorAction SilentlyContinue")
    elif e.mode == "ini_set":
        lines += [f"Set-IniValue {p} {ps_quote(e.section)} {ps_quote(k)} {ps_quote(v)}" for k, v in e.settings]
    else:
        drop = "@(" + ", ".join(ps_quote(ln.strip()) for ln in e.lines) + ")"
        lines.append(f"if (Test-Path -LiteralPath {p}) {{ (Get-Content -LiteralPath {p}) | Where-Object {{ {drop} -notcontains $_.Trim() }}"
                     f" | Set-Content -LiteralPath {p} -Encoding UTF8 }}")
    return lines


def _step_lines(i: int, step: Step) -> list[str]:
    out = ["", f"# --- Step {i}: {one_line(step.id)}{' [admin]' if step.needs_root else ''} ---", f"# {one_line(step.title)}"]
    out += _comment(step.why)
    for n in step.notes:
        out += _comment("Note: " + n)
    if step.reboot_required:
        out.append("# A restart is needed after this step.")
    if step.needs_root:
        out.append(f"if (-not $IsAdmin) {{ throw {ps_quote(f'Step {i} ({step.id}) needs an elevated PowerShell: run this script as administrator.')} }}")
    for e in step.edits:
        out += _edit_lines(e)
    ok = tuple(getattr(step, "ok_exit_codes", None) or (0,))
    ok_list = "@(" + ", ".join(str(int(c)) for c in ok) + ")"
    restart_list = "@(" + ", ".join(str(int(c)) for c in step.reboot_exit_codes) + ")"
    for argv in step.commands:
        exe, *rest = argv
        args = "@(" + ", ".join(_ps_arg(a) for a in rest) + ")"
        out.append(f"Invoke-Step {ps_quote(exe)} {args} -Ok {ok_list} -Restart {restart_list}")
    if step.reboot_required or step.reboot_exit_codes:
        out.append("if ($RestartNeeded) { Write-Host 'Restart Windows now, then run the wizard again to continue.'; exit 0 }")
    return out


def plan_to_powershell(plan: Plan) -> str:
    facts = "\n".join(f"#   {one_line(k)}: {one_line(v)}" for k, v in plan.facts_summary.items())
    lines = [_HEADER.format(created=one_line(plan.created or ""), facts=("# Machine:\n" + facts) if facts else "#")]
    if any(e.mode == "ini_set" for s in plan.steps for e in s.edits):
        lines.append(_INI_FUNCTION)
    for w in plan.warnings:
        lines += _comment("Warning: " + w)
    for i, s in enumerate(plan.steps, 1):
        lines += _step_lines(i, s)
    lines += ["", "if ($RestartNeeded) { Write-Host 'Restart Windows to finish.' } else { Write-Host 'All steps finished.' }", ""]
    return "\n".join(lines)
