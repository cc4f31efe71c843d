"""End to end against local PEP 503 mirrors built from the wheels this machine really has (issue 28, "mirrors as they
are"), with no internet: the installed torch/torchvision distributions of a venv (their WHEEL tags and METADATA) and any
wheel file on disk (pip's find-links, its cache, --wheel). Three shapes, each served on 127.0.0.1:

  pytorch  download.pytorch.org's: /<build>/<project>/ pages, file names with the local tag (+cu130), hrefs with %2B,
           PEP 658 metadata (data-dist-info-metadata and <file>.metadata)
  pypi     a PyPI-style mirror of the same build page: no local tags in the file names or the metadata
  cpu      a CPU-only mirror: only the +cpu wheels found (skipped, said so, when there are none)

For each shape `gpu-wizard recommend --json` and `gpu-wizard plan --json` run against it (--pytorch-mirror), and the
pinned builds, the index, the live warnings, the plan's pip command and the wall time are printed (and written to
$OUT/h200_mirror_e2e.json when $OUT is set). Stdlib only.

    python bench/h200_mirror_e2e.py [--torch-python /opt/torch/.venv/bin/python] [--wheel FILE ...]
"""
from __future__ import annotations

import argparse
import glob
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Optional

ROOT = Path(__file__).resolve().parents[1]
PROJECTS = ("torch", "torchvision")
# reads the installed distributions' WHEEL tags and METADATA with the venv's own interpreter
_PROBE = r"""
import json, re, importlib.metadata as md
out = []
for name in ("torch", "torchvision"):
    try:
        d = md.distribution(name)
    except md.PackageNotFoundError:
        continue
    wheel = d.read_text("WHEEL") or ""
    version, meta = d.version, d.read_text("METADATA") or ""
    if "+" not in version:  # PyPI's CUDA builds carry no local tag: their <name>/version.py names the CUDA
        vpy = d.locate_file(name + "/version.py")
        m = re.search(r"^cuda(?:: [^=]*)? = '(\d+)\.(\d+)", vpy.read_text() if vpy.exists() else "", re.M)
        if m:  # served as download.pytorch.org names it: the file name and its metadata both with +cuXYZ
            version += "+cu" + m.group(1) + m.group(2)
            meta = re.sub(r"^Version: .*$", "Version: " + version, meta, count=1, flags=re.M)
    out.append({"name": name, "version": version, "tags": [l.split(":", 1)[1].strip() for l in wheel.splitlines() if l.startswith("Tag:")],
                "metadata": meta, "file": None})
print(json.dumps(out))
"""


class Dist:
    def __init__(self, name: str, version: str, tag: str, metadata: str, file: Optional[str]):
        self.name, self.version, self.tag, self.metadata, self.file = name, version, tag, metadata, file

    @property
    def public(self) -> str:
        return self.version.split("+", 1)[0]

    @property
    def local(self) -> Optional[str]:
        return self.version.split("+", 1)[1] if "+" in self.version else None

    def filename(self, with_local: bool = True) -> str:
        return f"{self.name}-{self.version if with_local else self.public}-{self.tag}.whl"


def installed(python: str) -> list[Dist]:
    if not python or not Path(python).exists():
        return []
    r = subprocess.run([python, "-c", _PROBE], capture_output=True, text=True, timeout=60)
    if r.returncode != 0:
        print(f"  (could not read the distributions of {python}: {r.stderr.strip()[-200:]})")
        return []
    out = []
    for d in json.loads(r.stdout):
        for tag in d["tags"][:1]:  # one wheel per installed distribution: the first tag its WHEEL names
            out.append(Dist(d["name"], d["version"], tag, d["metadata"], None))
    return out


_WHEEL = re.compile(r"^(?P<name>torch|torchvision)-(?P<ver>[^-]+)-(?P<tag>[^-]+-[^-]+-[^-]+)\.whl$")


def wheel_files(extra: list[str]) -> list[Dist]:
    """torch/torchvision wheel files on disk: --wheel, pip's find-links and cache folders."""
    dirs = [os.environ.get("PIP_FIND_LINKS", ""), "/opt/wheels", os.path.expanduser("~/.cache/pip"), os.environ.get("PIP_CACHE_DIR", "")]
    try:
        r = subprocess.run([sys.executable, "-m", "pip", "config", "list"], capture_output=True, text=True, timeout=30)
        dirs += [v.strip("'\"") for k, _, v in (ln.partition("=") for ln in r.stdout.splitlines()) if k.endswith("find-links")]
    except (OSError, subprocess.SubprocessError):
        pass
    files = list(extra)
    for d in {x for x in dirs if x and os.path.isdir(x)}:
        files += glob.glob(os.path.join(d, "**", "torch*.whl"), recursive=True)
    out = []
    for f in dict.fromkeys(os.path.realpath(x) for x in files):
        m = _WHEEL.match(os.path.basename(f))
        if not m:
            continue
        try:
            with zipfile.ZipFile(f) as z:
                meta = next((z.read(n).decode("utf-8", "replace") for n in z.namelist() if n.endswith(".dist-info/METADATA")), "")
        except (OSError, zipfile.BadZipFile):
            continue
        out.append(Dist(m["name"], m["ver"].replace("%2B", "+"), m["tag"], meta, f))
    return out


def _page(project: str, entries: list[tuple[str, str, str]]) -> str:
    """A PEP 503 page as download.pytorch.org writes it: (file name, sha256 of the file or its name, metadata sha256)."""
    lines = ["<!DOCTYPE html>", "<html>", "  <body>", f"    <h1>Links for {project}</h1>"]
    for name, sha, msha in sorted(entries):
        lines.append(f'    <a href="{name.replace("+", "%2B")}#sha256={sha}" data-dist-info-metadata="sha256={msha}">{name}</a><br/>')
    return "\n".join(lines + ["  </body>", "</html>", ""])


def build_shape(root: Path, dists: list[Dist], with_local: bool) -> list[str]:
    """The pages of one mirror shape under `root`: /<build>/<project>/index.html, <file>.metadata, and the wheel file itself
    where a real one is on disk (a link). Returns the builds (pages) written."""
    pages: dict[tuple[str, str], list] = {}
    for d in dists:
        build = d.local or "cpu"
        name = d.filename(with_local)
        folder = root / build
        folder.mkdir(parents=True, exist_ok=True)
        meta = d.metadata if with_local else re.sub(r"^Version: .*$", f"Version: {d.public}", d.metadata, count=1, flags=re.M)
        if not with_local:  # a PyPI-style file pins torch without a local tag too
            meta = re.sub(r"^(Requires-Dist: torch ?==[0-9.]+)\+\S+", r"\1", meta, flags=re.M)
        (folder / f"{name}.metadata").write_text(meta, encoding="utf-8")
        if d.file and not (folder / name).exists():
            os.symlink(d.file, folder / name)
        sha = hashlib.sha256(name.encode()).hexdigest()  # the file's own hash is not read (gigabytes): its name's stands in
        pages.setdefault((build, d.name), []).append((name, sha, hashlib.sha256(meta.encode()).hexdigest()))
    for (build, project), entries in pages.items():
        (root / build / project).mkdir(parents=True, exist_ok=True)
        (root / build / project / "index.html").write_text(_page(project, entries), encoding="utf-8")
    return sorted({b for b, _ in pages})


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *a) -> None:
        pass


def serve(root: Path) -> tuple[ThreadingHTTPServer, str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=str(root)))
    threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}"


def wizard(python: str, argv: list[str]) -> tuple[Optional[dict], float, str]:
    t0 = time.perf_counter()
    r = subprocess.run([python, "-m", "app", *argv], capture_output=True, text=True, timeout=300, cwd=ROOT,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
    dt_s = time.perf_counter() - t0
    try:
        return json.loads(r.stdout), dt_s, ""
    except ValueError:
        return None, dt_s, (r.stderr or r.stdout).strip()[-400:]


def _pip_step(plan: dict) -> str:
    for s in plan.get("steps", []):
        for c in s.get("commands", []):
            if "pip" in " ".join(c[:4]) and "install" in c and any(str(x).startswith("torch") for x in c):
                return " ".join(str(x) for x in c)
    return "(no pip step)"


def run_shape(label: str, url: str, wpy: str, target_py: str, extra: list[str]) -> dict:
    common = ["--json", "--pytorch-mirror", url]
    rec, t_rec, err = wizard(wpy, ["recommend", *common, "--python", target_py, *extra])
    ver = subprocess.run([target_py, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"], capture_output=True, text=True).stdout.strip()
    # `plan` names the pin --torch and the target by its version
    plan_extra = ["--torch" if x == "--torch-version" else x for x in extra]
    plan, t_plan, err2 = wizard(wpy, ["plan", *common, "--python-version", ver, *plan_extra])
    out: dict = {"shape": label, "mirror": url, "recommend_s": round(t_rec, 2), "plan_s": round(t_plan, 2)}
    if rec is None:
        out["error"] = err
        print(f"  {label}: recommend failed in {t_rec:.2f} s: {err}")
        return out
    r = rec.get("recommendation", rec)
    t = r.get("pytorch", {})
    codes = [w.get("code") for w in r.get("warnings", []) if str(w.get("code", "")).startswith(("index_", "torch_newer", "refused"))]
    out.update(packages=t.get("packages"), index_url=t.get("index_url"), warnings=codes,
               refused=[x.get("code") for x in r.get("refused_detail", [])], pip=_pip_step(plan) if plan else err2)
    print(f"  {label:8} recommend {t_rec:5.2f} s, plan {t_plan:5.2f} s: {' '.join(t.get('packages') or ['(none)'])} from {t.get('index_url')}")
    print(f"           live notes: {', '.join(codes) or '-'}; refused: {', '.join(out['refused']) or '-'}")
    print(f"           plan runs: {out['pip']}")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--torch-python", default="/opt/torch/.venv/bin/python", help="the venv whose torch/torchvision are mirrored")
    ap.add_argument("--wizard-python", default=None, help="the Python that runs gpu-wizard (default: .venv/bin/python, else --torch-python)")
    ap.add_argument("--wheel", action="append", default=[], help="a torch/torchvision wheel file to mirror as well")
    a = ap.parse_args()
    wpy = a.wizard_python or (str(ROOT / ".venv/bin/python") if (ROOT / ".venv/bin/python").exists() else a.torch_python)
    target = a.torch_python if Path(a.torch_python).exists() else sys.executable
    dists = installed(a.torch_python) + wheel_files(a.wheel)
    seen, uniq = set(), []
    for d in dists:  # a wheel file beats the same distribution read from site-packages (it can be served)
        key = (d.name, d.version, d.tag)
        if key in seen:
            continue
        seen.add(key)
        uniq.append(d)
    uniq.sort(key=lambda d: d.file is None)
    print("distributions mirrored: " + (", ".join(f"{d.filename()}{'' if d.file else ' (from site-packages)'}" for d in uniq) or "none"))
    gpu = [d for d in uniq if d.local and d.local.startswith("cu")]
    cpu = [d for d in uniq if d.local == "cpu"]
    results = []
    with tempfile.TemporaryDirectory(prefix="gpu-wizard-mirror-") as tmp:
        root = Path(tmp)
        shapes = [("pytorch", gpu, True, []), ("pypi", gpu, False, []), ("cpu", cpu, True, None)]
        httpd, base = serve(root)
        try:
            for label, ds, with_local, extra in shapes:
                if not ds:
                    print(f"  {label:8} skipped: no {'+cpu' if label == 'cpu' else 'CUDA'} torch wheel or distribution on this machine")
                    results.append({"shape": label, "skipped": True})
                    continue
                builds = build_shape(root / label, ds, with_local)
                if extra is None:  # the CPU build the user chose, torch alone (no torchvision of it needed)
                    tv = next(d for d in ds if d.name == "torch")
                    extra = ["--torch-version", tv.public, "--variant", "cpu", "--no-torchvision"]
                print(f"{label}: pages {', '.join(f'/{b}/' for b in builds)} on {base}/{label}")
                results.append(run_shape(label, f"{base}/{label}", wpy, target, extra))
        finally:
            httpd.shutdown()
            httpd.server_close()
    if os.environ.get("OUT"):
        Path(os.environ["OUT"], "h200_mirror_e2e.json").write_text(json.dumps(results, indent=1), encoding="utf-8")
    return 0 if all("error" not in r for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
