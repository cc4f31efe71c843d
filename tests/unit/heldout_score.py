"""Scoring a held-out batch of real texts whose threads say what fixed them (tests/fixtures/errors_heldout_j, _k).

Each file starts with header lines: `# source: URL`, `# expect: <category>`, `# platform: linux|windows|wsl|macos|
container` (the machine of the thread), `# fixed: <what fixed it, from the thread>`, `# fix-has: <a|b>; <c>` (each
`;` part must appear, one of its `|` alternatives, case-insensitive, in the proposed fix: its sentence, its steps'
titles, whys, notes and commands). A fix is judged to fix it when the category is right, every fix-has part is in
the proposal, and the answer was written for the thread's platform (Windows, macOS and WSL must be recognised as
such; a Linux host or container may be either)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

HEADER_KEYS = ("source", "expect", "platform", "fixed", "fix-has", "why-not")


@dataclass
class Case:
    path: Path
    headers: dict[str, str]
    body: str

    @property
    def expect(self) -> Optional[str]:
        return self.headers.get("expect")


def load(path: Path) -> Case:
    headers: dict[str, str] = {}
    lines = path.read_text(encoding="utf-8").split("\n")
    i = 0
    while i < len(lines) and lines[i].startswith("# ") and lines[i][2:].split(":", 1)[0] in HEADER_KEYS:
        key, _, value = lines[i][2:].partition(":")
        headers[key] = value.strip()
        i += 1
    return Case(path, headers, "\n".join(lines[i:]))


def proposal_text(m: Any) -> str:
    """Everything the answer tells the user to do, as one lower-case text."""
    parts = [m.fix]
    for s in m.fix_steps:
        parts += [s.title, s.why, *s.notes, *(" ".join(a) for a in s.argv)]
    return "\n".join(parts).lower()


def fix_has(m: Any, spec: str) -> bool:
    text = proposal_text(m)
    return all(any(alt.strip().lower() in text for alt in part.split("|")) for part in spec.split(";") if part.strip())


LINUX_ONLY = ("apt-get", "dnf ", "zypper", "pacman", "modprobe", "rmmod", "dkms", "mokutil", "systemctl", "update-initramfs",
              "sudo ", "ldconfig", "nvidia-ctk")
WINDOWS_ONLY = ("winget", ".exe", "powershell", "wsl.exe", "shutdown.exe")


def platform_ok(d: Any, want: str) -> bool:
    """The proposal holds no other platform's commands: no Linux package or module command for a Windows or Mac
    user, no Windows command for a Linux one, no Linux driver inside WSL; and when the answer names the machine,
    it is the thread's (a Linux host or container may be either)."""
    m = d.matches[0]
    cmds = [" ".join(a).lower() + " " for s in m.fix_steps for a in s.argv if s.where != "host"]
    p = d.platform
    if want in ("windows", "macos") and (any(x in c for c in cmds for x in LINUX_ONLY) or (p is not None and p.os == "linux" and p.source == "text")):
        return False
    if want == "wsl" and any(c.startswith("apt-get install") and "nvidia-driver" in c for c in cmds):
        return False
    if want in ("linux", "container") and (any(x in c for c in cmds for x in WINDOWS_ONLY) or (p is not None and p.os in ("windows", "macos"))):
        return False
    return True


def check_answer(case: Case, diagnose, rules: tuple = (), fixed: bool = True) -> Any:
    """Assert that the top answer to a real text is its `expect` category (and one of `rules`, when given), and, where
    its thread says what fixed it (`fix-has`) and `fixed`, that the proposal holds that fix and is written for the
    thread's machine. Returns the diagnosis."""
    d = diagnose(case.body)
    name = case.path.name
    assert d.top is not None and d.top.category == case.expect, (name, [(m.rule, m.category) for m in d.matches])
    assert not rules or d.top.rule in rules, (name, d.top.rule, rules)
    if fixed and case.headers.get("fix-has"):
        assert fix_has(d.top, case.headers["fix-has"]), (name, d.top.fix)
        assert platform_ok(d, case.headers.get("platform", "linux")), (name, d.platform)
    return d


@dataclass
class Score:
    right: list
    wrong: list
    missed: list
    fixed: list
    not_fixed: list

    def line(self, name: str) -> str:
        n = len(self.right) + len(self.wrong) + len(self.missed)
        return (f"{name}: category {len(self.right)}/{n} right, {len(self.wrong)} wrong, {len(self.missed)} not recognised; "
                f"fix {len(self.fixed)}/{n} judged to fix it")


def score(cases: list[Case], diagnose) -> Score:
    s = Score([], [], [], [], [])
    for c in cases:
        d = diagnose(c.body)
        top = d.matches[0] if d.matches else None
        got = top.category if top is not None else None
        (s.right if got == c.expect else s.missed if got is None else s.wrong).append((c.path.name, c.expect, got))
        ok = got == c.expect and fix_has(top, c.headers.get("fix-has", "")) and platform_ok(d, c.headers.get("platform", "linux"))
        (s.fixed if ok else s.not_fixed).append((c.path.name, c.headers.get("fix-has"), top.fix_code if top else None))
    return s
