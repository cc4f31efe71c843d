"""Steps only WSL 2 needs, inside the Linux distro.

`build_plan` already plans the toolkit for WSL 2 from NVIDIA's wsl-ubuntu repository (keyring +
the versioned `cuda-toolkit-X-Y`, never `cuda`, `cuda-drivers` or `nvidia-driver-*`) and skips
the driver (the Windows host's driver serves WSL). This module adds the repairs:

- `remove_wsl_linux_driver`: a Linux NVIDIA driver installed inside WSL by mistake shadows the
  Windows driver's libcuda. Its packages are purged; what was removed (name=version) is written
  to a record first, so it can be put back. `remove_wsl_stray_driver_libs` then deletes (backed
  up) driver libraries no package took with it, e.g. from a runfile driver.
- `configure_wsl_memory`: WSL 2 gets half the Windows memory by default; training wants about
  twice the GPU's memory. `memory=` goes under [wsl2] in the user's .wslconfig (backed up);
  it takes effect after `wsl --shutdown`. Also planned from the Windows side.
- `fix_wsl_libcuda_links`: silences "ldconfig: /usr/lib/wsl/lib/libcuda.so.1 is not a symbolic
  link" by giving ldconfig a folder of proper links to the Windows driver's libraries instead of
  the mounted folder of copies, and telling WSL not to regenerate its ld.so.conf entry. Both
  edited files are backed up; restoring them undoes it.
"""
from __future__ import annotations

import re

from app.choices import Choices
from app.detect.wsl import LINUX_DRIVER_PACKAGE_RE, WSL_LDCONF, WSL_LIB_DIR, wsl_memory_target_mib
from app.facts import Facts
from app.recommendation import Recommendation

from .common import APT_ENV, said_notes
from .model import Check, Edit, Step, coded_step

LINKS_DIR = "/usr/local/lib/wsl-driver-links"
WSL_CONF = "/etc/wsl.conf"
REMOVED_RECORD = "/var/lib/gpu-wizard/wsl-removed-nvidia-packages.txt"
_EVIDENCE_PKG = re.compile(r"^package (\S+) (\S+)$")
_EVIDENCE_LIB = re.compile(r"^(/\S+) \(Linux driver library\)$")
_INSTALLERS = {"apt-get", "apt", "aptitude", "dnf", "yum", "microdnf", "zypper", "dpkg", "rpm"}
_INSTALL_VERBS = {"install", "reinstall", "in", "-i", "--install", "-U", "--upgrade", "-ivh", "-Uvh"}


def linux_driver_in(argv) -> str | None:
    """The Linux NVIDIA driver package an install command would put inside WSL 2 (nvidia-driver-*, the
    nvidia-open packages, cuda-drivers, libnvidia-compute-*, the `cuda` metapackage that pulls the
    driver...), or None. Options (`-o Acquire::...`, `-y`) may come anywhere; a package may carry a
    version (`=1.2`, `-580.95`) or an architecture (`:amd64`, `.x86_64`)."""
    if not argv:
        return None
    prog = str(argv[0]).rsplit("/", 1)[-1]
    if prog not in _INSTALLERS or not any(str(a) in _INSTALL_VERBS for a in argv[1:]):
        return None
    skip_next = False
    for a in (str(x) for x in argv[1:]):
        if skip_next:
            skip_next = False
            continue
        if a in ("-o", "-c", "-t", "--option", "--config-file", "--target-release", "--setopt", "--repo", "--enablerepo"):
            skip_next = True
            continue
        if a.startswith("-") or a in _INSTALL_VERBS:
            continue
        name = re.split(r"[=:<>]", a.rsplit("/", 1)[-1], maxsplit=1)[0]
        name = re.sub(r"\.(x86_64|aarch64|noarch|amd64|arm64)$", "", name)
        if name == "cuda" or re.fullmatch(r"cuda-\d+(-\d+)?", name) or LINUX_DRIVER_PACKAGE_RE.match(name):
            return name
    return None


def _wrong_driver(facts: Facts) -> tuple[list[tuple[str, str]], list[str]]:
    """(packages as (name, version), stray library files) of a Linux driver inside WSL."""
    pkgs: dict[str, str] = {p.name: p.version for p in facts.cuda.packages if LINUX_DRIVER_PACKAGE_RE.match(p.name)}
    libs: list[str] = []
    f = facts.finding("wsl_linux_driver_installed")
    for e in (f.evidence if f else ()):
        m = _EVIDENCE_PKG.match(e)
        if m and LINUX_DRIVER_PACKAGE_RE.match(m.group(1)):
            pkgs.setdefault(m.group(1), m.group(2))
        m = _EVIDENCE_LIB.match(e)
        if m:
            libs.append(m.group(1))
    return sorted(pkgs.items()), libs


def build_wsl_steps(facts: Facts, rec: Recommendation, choices: Choices) -> list[Step]:
    if facts.os.wsl != 2:
        return []
    steps: list[Step] = []

    pkgs, libs = _wrong_driver(facts)
    if pkgs:
        names = tuple(n for n, _ in pkgs)
        record = ("# Removed by GPU Setup Wizard: a Linux NVIDIA driver does not belong inside WSL 2.\n"
                  "# To put them back: apt-get install " + " ".join(f"{n}={v}" for n, v in pkgs) + "\n"
                  + "".join(f"{n}={v}\n" for n, v in pkgs))
        steps.append(coded_step(
            "remove_wsl_linux_driver", "wsl_fix", "remove_wsl_linux_driver", "remove_wsl_linux_driver_why",
            needs_root=True, weight=4, timeout_s=900, env=dict(APT_ENV),
            commands=(("apt-get", "purge", "-y", *names), ("ldconfig",)),
            edits=(Edit(path=REMOVED_RECORD, mode="write", content=record),),
            backups=(REMOVED_RECORD,),
            removes=names,
            done_when=(Check("dpkg_absent", names),),
            **said_notes(("note_removed_record", {"path": REMOVED_RECORD})),
        ))
    if libs:
        # after the purge: whatever driver library is still there came from no package (a runfile driver)
        steps.append(coded_step(
            "remove_wsl_stray_driver_libs", "wsl_fix", "remove_wsl_stray_driver_libs", "remove_wsl_stray_driver_libs_why",
            needs_root=True, weight=1, timeout_s=120,
            commands=(("ldconfig",),),
            edits=tuple(Edit(path=p, mode="delete") for p in libs),
            backups=tuple(libs),
            removes=tuple(libs),
            done_when=(Check("path_missing", tuple(libs)),),
            after=("remove_wsl_linux_driver",) if pkgs else (),
            **said_notes(("note_backed_up_first", {})),
        ))

    if facts.finding("wsl_libcuda_not_symlink") and WSL_LIB_DIR + "/libcuda.so.1" in facts.os.wsl_libcuda:
        ldconf = ("# Written by GPU Setup Wizard: links to the Windows driver's libraries (mounted at "
                  f"{WSL_LIB_DIR}),\n# so ldconfig finds symbolic links where it expects them.\n{LINKS_DIR}\n")
        # cp -as: a symbolic link in LINKS_DIR for every file of the mounted folder (absolute targets)
        commands = [("mkdir", "-p", LINKS_DIR), ("cp", "-as", "--remove-destination", WSL_LIB_DIR + "/.", LINKS_DIR + "/")]
        done = [Check("file_contains", (WSL_LDCONF, LINKS_DIR)), Check("ini_value", (WSL_CONF, "automount", "ldconfig", "false"))]
        if WSL_LIB_DIR + "/libcuda.so.1.1" in facts.os.wsl_libcuda:  # the usual chain: .so -> .so.1 -> .so.1.1
            commands += [("ln", "-sfn", WSL_LIB_DIR + "/libcuda.so.1.1", LINKS_DIR + "/libcuda.so.1"),
                         ("ln", "-sfn", "libcuda.so.1", LINKS_DIR + "/libcuda.so")]
            done.append(Check("link_points_to", (LINKS_DIR + "/libcuda.so.1", WSL_LIB_DIR + "/libcuda.so.1.1")))
        commands.append(("ldconfig",))
        steps.append(coded_step(
            "fix_wsl_libcuda_links", "wsl_fix", "fix_wsl_libcuda_links", "fix_wsl_libcuda_links_why",
            needs_root=True, weight=1, timeout_s=120,
            commands=tuple(commands),
            edits=(Edit(path=WSL_LDCONF, mode="write", content=ldconf),
                   Edit(path=WSL_CONF, mode="ini_set", section="automount", settings=(("ldconfig", "false"),))),
            backups=(WSL_LDCONF, WSL_CONF),
            done_when=tuple(done),
            **said_notes(("note_wsl_conf_ldconfig", {"conf": WSL_CONF, "ldconf": WSL_LDCONF}), ("note_restore_two", {})),
        ))
    gmem = [g.memory_total_mib for g in facts.gpus if g.memory_total_mib]
    target = wsl_memory_target_mib(facts.os.memory_total_mib, facts.os.wsl_memory_limit_mib, None, gmem)
    if target and facts.os.wslconfig_path:
        steps.append(memory_step(facts.os.wslconfig_path, target, facts.os.wsl_memory_limit_mib, facts.os.memory_total_mib,
                                 kind="wsl_fix", after="note_wsl_shutdown_inside"))
    return steps


def memory_step(path: str, target_mib: int, old_limit_mib, current_mib, *, kind: str, after: str) -> Step:
    """Raise WSL 2's memory in .wslconfig: `memory=` set inside the existing [wsl2] section (an old
    value replaced where it stands; processors= and the rest untouched), or a [wsl2] section added."""
    gb = target_mib // 1024
    edits = [Edit(path=path, mode="ini_set", section="wsl2", settings=(("memory", f"{gb}GB"),), needs_root=False)]
    return coded_step(
        "configure_wsl_memory", kind, "configure_wsl_memory", "configure_wsl_memory_why",
        {"gb": str(gb), "current_mib": str(current_mib)}, needs_root=False, weight=1, timeout_s=60,
        edits=tuple(edits), backups=(path,),
        done_when=(Check("ini_value", (path, "wsl2", "memory", f"{gb}GB")),),
        **said_notes((after, {}), ("note_restore_wslconfig", {})),
    )
