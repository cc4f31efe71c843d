"""Plan model: an ordered list of Steps the user can read before anything runs.

A `Step` is data, never code: an id (verb-first, `install_driver`), a title, `why` in plain
words, the argv lists it runs, the files it writes (`edits`), the files it fetches
(`downloads`), whether it needs root, and `done_when`: checks evaluated by the pure
function `is_done(step, system)` against a `System` (live or snapshot), so a re-run skips
finished steps. `kind` names one of `STEP_KINDS`: the privileged helper accepts only those
kinds, and checks every argv of a root step against that kind's allow-list
(app/run/privileged.py).

Execution order inside one step: downloads (unprivileged, into the session folder, sha256
checked), then edits (backed up first), then commands in order. An argv element
`@download:NAME` is replaced by the verified local path of the download `NAME`.

Builders (app/plan/*.py) are plain functions `build_*_steps(facts, rec, choices) -> list[Step]`.
Platform builders owned by the wsl-windows engineer are called by `app.plan.build_plan`
when their module exists:

    app.plan.wsl.build_wsl_steps(facts, rec, choices) -> list[Step]         # facts.os.wsl == 2
    app.plan.windows.build_windows_plan(facts, rec, choices) -> list[Step]  # facts.os.platform == "windows"

Both return Steps whose `kind` is in STEP_KINDS (add new kinds there with a small edit, and an
allow-list entry in app/run/privileged.py if they need root).
"""
from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from typing import Any, Literal, Mapping, Optional

from app.model import Model

PLAN_FORMAT = "gpu-wizard-plan/1"

# Every step kind the wizard knows. The helper refuses any other kind.
STEP_KINDS: dict[str, str] = {
    "cleanup_cuda": "remove an old CUDA toolkit, its packages and its environment lines",
    "add_repo": "install NVIDIA's repository keyring package",
    "set_repo_mirror": "point the NVIDIA repository at a mirror",
    "update_index": "refresh the package index",
    "install_driver": "install the NVIDIA driver packages",
    "blacklist_nouveau": "turn off the nouveau driver and rebuild the initramfs",
    "install_toolkit": "install the CUDA toolkit packages",
    "run_runfile": "run NVIDIA's runfile installer (toolkit only)",
    "write_env": "write the CUDA environment file and refresh the linker cache",
    "install_cudnn": "install the cuDNN system packages",
    "install_python_tools": "install the system's Python venv/pip package (Debian/Ubuntu)",
    "create_venv": "create the Python virtual environment",
    "install_pytorch": "install PyTorch into the virtual environment",
    "verify": "check that the result works",
    "reboot": "restart the computer",
    # wsl-windows engineer's builders (app/plan/wsl.py, app/plan/windows.py)
    "wsl_fix": "repair the WSL CUDA library setup",
    "windows_host": "a step on the Windows host",
    "repair_packages": "finish a package installation that was interrupted (dpkg --configure -a)",
    # fixes the diagnosis proposes (app/diagnose, resources/diagnose/rules.json)
    "install_container_toolkit": "install the NVIDIA Container Toolkit and register it with the container engine",
    "rebuild_kernel_module": "install the kernel headers and rebuild the NVIDIA kernel module (DKMS)",
    "fix_packages": "release held NVIDIA packages and let the package manager finish a broken install",
    "write_config": "set the wizard's own mirror, proxy or CA bundle (its user config file)",
}

CheckKind = Literal[
    "path_exists",  # every arg exists
    "path_missing",  # no arg exists
    "dpkg_installed",  # every arg (package name) is installed (dpkg-query)
    "dpkg_absent",  # no arg is installed
    "rpm_installed",
    "rpm_absent",
    "python_packages",  # args[0] = interpreter, rest = "name==version" or "name": all installed
    "file_contains",  # args = (path, text): the file holds the text
    "file_lacks",  # args = (path, text, ...): the file (if any) holds none of the texts
    "link_points_to",  # args = (link, target)
    "ini_value",  # args = (path, section, key, value): the INI file sets key=value in [section]
    "command_ok",  # args = argv: runs with rc 0 (read-only commands only)
    "never",  # always run (verification)
]


@dataclass(frozen=True)
class Check(Model):
    kind: CheckKind
    args: tuple[str, ...] = ()

    def describe(self) -> str:
        return f"{self.kind}({', '.join(self.args)})"


@dataclass(frozen=True)
class Edit(Model):
    """A file write as data. Every edit backs the file up first (when it exists) and can be undone."""

    path: str
    mode: Literal["write", "append", "remove_lines", "delete", "ini_set"] = "write"
    content: str = ""  # write/append
    lines: tuple[str, ...] = ()  # remove_lines: exact lines (stripped) to drop
    file_mode: int = 0o644
    backup: bool = True
    needs_root: bool = True  # false for files in the user's own home
    # ini_set: set these (key, value) pairs inside [section] of an INI-style file (.wslconfig,
    # /etc/wsl.conf), adding the section when missing; comments, order, CRLF and BOM are kept
    section: str = ""
    settings: tuple[tuple[str, str], ...] = ()

    def describe(self) -> str:
        if self.mode == "ini_set":
            keys = ", ".join(f"{k}={v}" for k, v in self.settings)
            return f"set {keys} under [{self.section}] in {self.path}"
        if self.mode == "write":
            return f"write {self.path}"
        if self.mode == "append":
            return f"append to {self.path}"
        if self.mode == "delete":
            return f"delete {self.path} (backed up)"
        return f"remove {len(self.lines)} line(s) from {self.path}"


@dataclass(frozen=True)
class Download(Model):
    """A file fetched into the session's downloads folder; resumed; sha256 checked before use."""

    name: str  # local file name, referenced in argv as "@download:<name>"
    url: str
    sha256: Optional[str] = None
    # or where the checksum is published: a Debian "Packages" index (its SHA256 field for this file
    # name) or a sums file ("<hex>  <name>" lines; md5 or sha256 by length). With neither, the
    # download is refused before anything uses it.
    checksum_url: Optional[str] = None
    size_bytes: Optional[int] = None
    min_free_mib: Optional[int] = None  # free disk needed where it lands and where it installs


@dataclass(frozen=True)
class Note(Model):
    """The catalogue code of one of a step's notes and its figures (resources/messages "plan.<code>")."""

    code: str
    params: dict[str, str] = field(default_factory=dict)
    domain: str = "plan"  # the catalogue domain ("rec" for a recommendation warning repeated in the plan)


@dataclass(frozen=True)
class Step(Model):
    id: str  # verb-first: "install_driver"
    title: str
    why: str
    kind: str  # one of STEP_KINDS
    commands: tuple[tuple[str, ...], ...] = ()
    needs_root: bool = False
    done_when: tuple[Check, ...] = ()  # all hold → done, skipped; empty → always run
    weight: int = 1  # relative duration, for the progress bar
    timeout_s: float = 600.0  # per command
    backups: tuple[str, ...] = ()  # files this step edits (backed up before)
    edits: tuple[Edit, ...] = ()
    downloads: tuple[Download, ...] = ()
    env: dict[str, str] = field(default_factory=dict)  # extra environment for its commands
    reboot_required: bool = False  # after this step the machine must restart; resume at verification
    removes: tuple[str, ...] = ()  # cleanup: exactly what goes (paths, packages), for the preview
    notes: tuple[str, ...] = ()  # extra plain-words explanations (Secure Boot / MOK, ...)
    note_codes: tuple[Note, ...] = ()  # the code and figures of each note, in order (to say them in any language)
    cwd: Optional[str] = None
    # exit codes of its commands that count as success. DISM and MSI installers answer 3010
    # (ERROR_SUCCESS_REBOOT_REQUIRED): done, but Windows must restart before it takes effect.
    ok_exit_codes: tuple[int, ...] = (0,)
    # those of ok_exit_codes that also mean "restart the computer": the step then reports
    # reboot_required, and the plan pauses for the restart as it does after a driver install
    reboot_exit_codes: tuple[int, ...] = ()
    # translation: codes of the title's and why's sentence shapes and the figures in them (the GUI
    # formats its own language's template with them; title/why stay the English text)
    title_code: str = ""
    why_code: str = ""
    params: dict[str, str] = field(default_factory=dict)
    # ids of steps that must run before this one, in this plan: the package index must be refreshed after
    # NVIDIA's repository is added and before anything installs from it (checked by order_problems)
    after: tuple[str, ...] = ()

    def argv_lines(self) -> list[str]:
        return [shlex.join(a) for a in self.commands]


def english(code: str, params: Mapping[str, str]) -> str:
    """The catalogue's English for "plan.<code>" filled with `params` (the code itself where it has none:
    tests/unit/test_messages.py fails on such a code)."""
    from app import messages

    return messages.render("plan", code, params, "en", fallback=code) if code else ""


def coded_step(id: str, kind: str, title_code: str, why_code: str = "", params: Optional[Mapping[str, object]] = None,
               **fields: Any) -> Step:
    """A step said by its codes and figures: its English title and why are the catalogue's ("plan.<code>"),
    so no builder holds a second copy of a sentence (the window and the reports say it in their language)."""
    p = {str(k): str(v) for k, v in (params or {}).items() if v is not None}
    return Step(id=id, kind=kind, title=english(title_code, p), why=english(why_code, p), title_code=title_code,
                why_code=why_code, params=p, **fields)


@dataclass(frozen=True)
class Plan(Model):
    steps: tuple[Step, ...] = ()
    platform: str = "linux"  # "linux", "wsl2", "windows"
    created: Optional[str] = None
    dry_run: bool = False
    facts_summary: dict[str, str] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()
    warning_codes: tuple[Note, ...] = ()  # the code and figures of each warning, in order (to say them in any language)
    choices: dict[str, object] = field(default_factory=dict)  # Choices.to_json() the plan was built from
    format: str = PLAN_FORMAT

    def step(self, step_id: str) -> Optional[Step]:
        return next((s for s in self.steps if s.id == step_id), None)

    @property
    def total_weight(self) -> int:
        return sum(max(1, s.weight) for s in self.steps)

    @property
    def needs_root(self) -> bool:
        return any(s.needs_root or any(e.needs_root for e in s.edits) for s in self.steps)


STEP_ID_RE = re.compile(r"^[a-z]+(_[a-z0-9]+)*$")
_VERBS = {"remove", "add", "set", "update", "install", "blacklist", "write", "create", "verify", "reboot",
          "download", "run", "enable", "fix", "check", "configure", "upgrade", "restart", "uninstall", "clean",
          "purge", "refresh", "link", "register", "repair", "prepare", "record", "enroll", "rebuild", "open"}


def validate_step(step: Step) -> list[str]:
    """Problems with a step's shape (empty list: fine). Used in tests and by build_plan."""
    problems = []
    if not STEP_ID_RE.match(step.id) or step.id.split("_", 1)[0] not in _VERBS:
        problems.append(f"step id {step.id!r} is not verb-first snake_case")
    if step.kind not in STEP_KINDS:
        problems.append(f"step {step.id}: unknown kind {step.kind!r}")
    for argv in step.commands:
        if not argv or not all(isinstance(a, str) and a for a in argv):
            problems.append(f"step {step.id}: empty argv or argument")
    names = {d.name for d in step.downloads}
    for argv in step.commands:
        for a in argv:
            if a.startswith("@download:") and a[len("@download:"):] not in names:
                problems.append(f"step {step.id}: {a} refers to no download of this step")
    if not step.ok_exit_codes or not all(isinstance(c, int) and not isinstance(c, bool) for c in step.ok_exit_codes):
        problems.append(f"step {step.id}: ok_exit_codes must be a non-empty list of integers")
    if not set(step.reboot_exit_codes) <= set(step.ok_exit_codes):
        problems.append(f"step {step.id}: reboot_exit_codes must be among ok_exit_codes")
    for e in step.edits:
        if e.mode == "ini_set":
            from .ini import IniError, check_settings

            try:
                check_settings(e.section, e.settings)
            except IniError as ex:
                problems.append(f"step {step.id}: edit of {e.path}: {ex}")
        if e.backup and e.mode != "append" and e.path not in step.backups:
            problems.append(f"step {step.id}: edit of {e.path} not listed in backups")
    return problems


def order_problems(steps: "tuple[Step, ...] | list[Step]") -> list[str]:
    """Steps that would run before what they need (empty: the order holds): each id in a step's `after`
    must be a step of the same plan, earlier."""
    at = {s.id: i for i, s in enumerate(steps)}
    out = []
    for i, s in enumerate(steps):
        for dep in s.after:
            if dep not in at:
                out.append(f"step {s.id} needs step {dep}, which the plan lacks")
            elif at[dep] > i:
                out.append(f"step {s.id} would run before step {dep}, which it needs")
    return out


# ---------------------------------------------------------------------------------------
# is_done: pure evaluation of the checks against a System

_PY_PACKAGES_SCRIPT = (
    "import sys\n"
    "from importlib import metadata\n"
    "bad = []\n"
    "for spec in sys.argv[1:]:\n"
    "    name, _, want = spec.partition('==')\n"
    "    try:\n"
    "        have = metadata.version(name)\n"
    "    except metadata.PackageNotFoundError:\n"
    "        bad.append(spec); continue\n"
    "    if want and have.split('+')[0] != want.split('+')[0]:\n"
    "        bad.append(spec + ' (have ' + have + ')')\n"
    "print('\\n'.join(bad))\n"
    "sys.exit(1 if bad else 0)\n"
)


def evaluate(check: Check, system) -> bool:
    """True when the check holds on `system`. Never raises for a missing tool or file."""
    k, a = check.kind, check.args
    if k == "never":
        return False
    if k == "path_exists":
        return bool(a) and all(system.exists(p) for p in a)
    if k == "path_missing":
        return not any(system.exists(p) for p in a)
    if k in ("dpkg_installed", "dpkg_absent"):
        states = [_dpkg_installed(system, p) for p in a]
        return all(states) if k == "dpkg_installed" else not any(states)
    if k in ("rpm_installed", "rpm_absent"):
        states = [system.run(["rpm", "-q", p], timeout=30).rc == 0 for p in a]
        return all(states) if k == "rpm_installed" else not any(states)
    if k == "python_packages":
        if len(a) < 2 or not system.exists(a[0]):
            return False
        r = system.run([a[0], "-c", _PY_PACKAGES_SCRIPT, *a[1:]], timeout=60)
        return r.ok
    if k == "file_contains":
        text = system.read_text(a[0]) if a else None
        return text is not None and len(a) > 1 and a[1] in text
    if k == "file_lacks":
        text = system.read_text(a[0]) if a else None
        return text is None or not any(t in text for t in a[1:])
    if k == "ini_value":
        if len(a) != 4:
            return False
        from .ini import get_value

        text = system.read_text(a[0])
        return text is not None and (get_value(text, a[1], a[2]) or "").strip().lower() == a[3].strip().lower()
    if k == "link_points_to":
        return len(a) == 2 and system.readlink(a[0]) == a[1]
    if k == "command_ok":
        return bool(a) and system.run(list(a), timeout=60).ok
    return False


def _dpkg_installed(system, package: str) -> bool:
    r = system.run(["dpkg-query", "-W", "-f=${Status}", package], timeout=30)
    return r.rc == 0 and "install ok installed" in r.stdout


def is_done(step: Step, system) -> bool:
    """A step is done when it has checks and all of them hold."""
    return bool(step.done_when) and all(evaluate(c, system) for c in step.done_when)
