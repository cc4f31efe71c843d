"""Clean up old CUDA: list exactly what goes before anything is removed, back up every edited file,
never delete outside the known CUDA locations (/usr/local/cuda-X.Y, /opt/cuda-X.Y, the /usr/local/cuda link).

What counts as old: toolkits other than the one the plan installs (only when the plan installs one),
their distro packages and runfile installs, ld.so.conf.d entries pointing at CUDA folders that are
gone or belong to another CUDA (facts.env.ld_conf status "missing" / "other_cuda"), and CUDA lines in
shell rc files and /etc/environment that point at a removed or missing toolkit.
"""
from __future__ import annotations

import os
import re

from app.choices import Choices
from app.facts import Facts
from app.recommendation import Recommendation

from .common import APT_ENV, CUDA_DIR_RE, CUDA_LINK, edit_needs_root, package_manager, toolkit_version
from .model import Check, Edit, Step, coded_step
from .toolkit import wants_toolkit

# distro packages of a versioned CUDA toolkit: cuda-toolkit-11-8, cuda-nvcc-11-8, cuda-11-8, libcublas-11-8 ...
_VERSIONED_PKG = re.compile(r"^(cuda|libcu[a-z]+|libnpp[a-z]*|libnvjpeg|libnvjitlink|libnvrtc|nsight-[a-z]+)(-[a-z0-9]+)*-(\d+)-(\d+)$")
_CUDA_PATH_IN_LINE = re.compile(r"/(?:usr/local|opt)/cuda(?:-(\d+(?:\.\d+)*))?")


def _ver2(v: str | None) -> str | None:
    return ".".join(v.split(".")[:2]) if v else None


def old_toolkits(facts: Facts, keep: str | None) -> list[str]:
    """Toolkit folders to remove (real folders only, inside the known CUDA locations)."""
    out = []
    for t in facts.cuda.toolkits:
        path = t.path.rstrip("/")
        if path == CUDA_LINK or not CUDA_DIR_RE.match(path):
            continue
        m = re.search(r"cuda-(\d+\.\d+)", path)
        ver = _ver2(t.version) or (m.group(1) if m else None)
        if keep is not None and ver == keep:
            continue
        out.append(path)
    return sorted(set(out))


def old_packages(facts: Facts, keep: str | None, removed_versions: set[str]) -> list[str]:
    out = []
    for p in facts.cuda.packages:
        m = _VERSIONED_PKG.match(p.name)
        if not m:
            continue
        ver = f"{m.group(3)}.{m.group(4)}"
        if ver == keep or ver not in removed_versions:
            continue
        out.append(p.name)
    return sorted(set(out))


def _line_is_stale(text: str, removed: set[str], existing: set[str]) -> bool:
    for m in _CUDA_PATH_IN_LINE.finditer(text):
        ver = m.group(1)
        if ver is None:
            continue  # /usr/local/cuda (the link) stays valid
        path = m.group(0)
        if _ver2(ver) in removed or path not in existing:
            return True
    return False


def build_cleanup_steps(facts: Facts, rec: Recommendation, choices: Choices) -> list[Step]:
    if not choices.cleanup_old_cuda or facts.os.platform != "linux":
        return []
    keep = toolkit_version(rec, choices) if wants_toolkit(rec, choices) else None
    # without a new toolkit we remove no toolkit (the user may build with it); only stale entries
    dirs = old_toolkits(facts, keep) if keep else []
    removed_versions = {v for d in dirs for v in re.findall(r"cuda-(\d+\.\d+)", d)}
    pkgs = old_packages(facts, keep, removed_versions)
    existing = {t.path.rstrip("/") for t in facts.cuda.toolkits if t.path.rstrip("/") not in dirs}
    steps: list[Step] = []
    pm = package_manager(facts)

    if pkgs or dirs:
        cmds: list[tuple[str, ...]] = []
        removes: list[str] = []
        if pkgs and pm == "apt":
            cmds.append(("apt-get", "purge", "-y", *pkgs))
            removes += [f"package {p}" for p in pkgs]
        elif pkgs and pm in ("dnf", "yum"):
            cmds.append(("dnf", "-y", "remove", *pkgs))
            removes += [f"package {p}" for p in pkgs]
        uninstallers = set(facts.cuda.runfile_uninstallers)
        for d in dirs:
            runfile = next((u for u in uninstallers if u.startswith(d + "/")), None)
            removes.append(f"folder {d}" + (f" (runfile install; {runfile} would remove the same files)" if runfile else ""))
            cmds.append(("rm", "-rf", "--one-file-system", "--", d))
        link = facts.cuda.active_link
        if link and any(link.rstrip("/") == d or os.path.join("/usr/local", link).rstrip("/") == d for d in dirs):
            cmds.append(("rm", "-f", "--", CUDA_LINK))
            removes.append(f"link {CUDA_LINK} (points at {link})")
        steps.append(coded_step(
            "remove_old_cuda", "cleanup_cuda", "remove_old_cuda", "remove_old_cuda_why",
            {"folders": ", ".join(os.path.basename(d) for d in dirs), "removes": "; ".join(removes)},
            needs_root=True, weight=5, timeout_s=1800,
            commands=tuple(cmds), removes=tuple(removes), env=dict(APT_ENV) if pm == "apt" else {},
            done_when=(Check("path_missing", tuple(dirs)),) + ((Check("dpkg_absent", tuple(pkgs)),) if pkgs and pm == "apt" else ()),
        ))

    removed = {r for v in removed_versions if (r := _ver2(v))}
    edits: list[Edit] = []
    removes = []
    stale_conf: dict[str, list[str]] = {}
    for e in facts.env.ld_conf:
        gone = any(e.path.startswith(d + "/") or e.path == d for d in dirs)
        if e.status in ("missing", "other_cuda") or gone:
            stale_conf.setdefault(e.file, []).append(e.path)
    for file, paths in sorted(stale_conf.items()):
        if not file.startswith("/etc/ld.so.conf.d/"):
            continue
        all_entries = [e for e in facts.env.ld_conf if e.file == file]
        if os.path.basename(file).startswith("cuda") and len(all_entries) == len(paths):
            edits.append(Edit(path=file, mode="delete"))
            removes.append(f"{file} (points at {', '.join(paths)})")
        else:
            edits.append(Edit(path=file, mode="remove_lines", lines=tuple(paths)))
            removes.append(f"lines {', '.join(paths)} from {file}")
    by_file: dict[str, list[str]] = {}
    for line in facts.env.rc_lines:
        if _line_is_stale(line.text, removed, existing):
            by_file.setdefault(line.file, []).append(line.text.strip())
    for file, lines in sorted(by_file.items()):
        edits.append(Edit(path=file, mode="remove_lines", lines=tuple(lines), needs_root=edit_needs_root(file)))
        removes += [f"line '{ln}' from {file}" for ln in lines]
    if edits:
        checks = []
        for ed in edits:
            if ed.mode == "delete":
                checks.append(Check("path_missing", (ed.path,)))
            else:
                checks.append(Check("file_lacks", (ed.path, *ed.lines)))
        steps.append(coded_step(
            "remove_stale_cuda_env", "cleanup_cuda", "remove_stale_cuda_env", "remove_stale_cuda_env_why",
            needs_root=any(e.needs_root for e in edits), weight=1, timeout_s=120,
            edits=tuple(edits), backups=tuple(e.path for e in edits), removes=tuple(removes),
            commands=(("ldconfig",),) if stale_conf else (),
            done_when=tuple(checks),
        ))
    return steps
