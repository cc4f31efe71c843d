"""The engine as one self-contained file that Ansible copies to a host and runs with its `python3`.

`build_zipapp(path)` writes a zipapp (PEP 441) holding `app/` (the Qt-free engine), the data it
reads (`resources/compat`, `resources/diagnose`, and the message catalogue when there is one) and,
when the controller has it, NVIDIA's pure-Python NVML binding (`pynvml.py`, nvidia-ml-py) so a GPU
host's detection reads NVML too. Nothing else: the hosts need only Python 3.10+ and its standard
library; `requests` (downloads, database updates) and nvidia-ml-py are optional there and their
absence degrades to the paths that do not need them.

The archive's `__main__` unpacks itself once into a folder named by the archive's sha256
(`.gpu-wizard-pyz-<hash>` beside the archive, or in `~/.cache/gpu-wizard` when that folder is not
writable), because the engine reads its data files and starts the
verify probe by file path, which a zip member cannot be. Building is deterministic: the same source
gives the same bytes (fixed timestamps, sorted members), so Ansible's copy is unchanged (`ok`) on a
second run.
"""
from __future__ import annotations

import hashlib
import io
import os
import zipfile
from pathlib import Path
from typing import Optional

from app.fileio import write_atomic

ROOT = Path(__file__).resolve().parents[2]
# resources the engine reads on a host; icons and Qt translations are the GUI's
RESOURCE_DIRS = ("compat", "diagnose", "messages", "catalogue", "i18n")
_EPOCH = (2020, 1, 1, 0, 0, 0)

MAIN = r'''# gpu-wizard engine (zipapp): unpack once into a private cache folder, then run the CLI
import hashlib, os, sys, tempfile, zipfile
here = os.path.abspath(sys.argv[0] if os.path.isfile(sys.argv[0]) else __file__.rsplit(os.sep + "__main__.py", 1)[0])
if sys.version_info < (3, 10):
    sys.exit("gpu-wizard needs Python 3.10 or newer on this host (found %d.%d)" % sys.version_info[:2])
h = hashlib.sha256()
with open(here, "rb") as f:
    for chunk in iter(lambda: f.read(1 << 20), b""):
        h.update(chunk)
base = os.environ.get("GPU_WIZARD_CACHE") or os.path.dirname(here)
if not os.access(base, os.W_OK):  # beside the archive when that folder is ours, else the user's cache
    base = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "gpu-wizard")
dest = os.path.join(base, ".gpu-wizard-pyz-" + h.hexdigest()[:16])


def _root_safe(p):  # root never imports code from a folder another user can write
    try:
        st = os.stat(p)
    except OSError:
        return True
    return st.st_uid == 0 and not st.st_mode & 0o022


if hasattr(os, "geteuid") and os.geteuid() == 0 and not (_root_safe(base) and _root_safe(dest)):
    base = tempfile.mkdtemp(prefix="gpu-wizard-root-")
    dest = os.path.join(base, ".gpu-wizard-pyz-" + h.hexdigest()[:16])
if not os.path.isfile(os.path.join(dest, ".complete")):
    os.makedirs(base, mode=0o700, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=".unpack-", dir=base)
    with zipfile.ZipFile(here) as z:
        z.extractall(tmp)
    open(os.path.join(tmp, ".complete"), "w").close()
    import shutil
    try:
        os.rename(tmp, dest)
    except OSError:  # another run unpacked it first
        shutil.rmtree(tmp, ignore_errors=True)
    for old in os.listdir(base):  # earlier versions' copies
        if old.startswith(".gpu-wizard-pyz-") and os.path.join(base, old) != dest:
            shutil.rmtree(os.path.join(base, old), ignore_errors=True)
sys.path.insert(0, os.path.join(dest, "lib"))
sys.path.insert(0, dest)
os.environ.setdefault("GPU_WIZARD_RESOURCES", os.path.join(dest, "resources"))
from app.cli import main
raise SystemExit(main())
'''


def _members(root: Path) -> list[tuple[str, Path]]:
    out: list[tuple[str, Path]] = []
    for p in sorted((root / "app").rglob("*.py")):
        if "__pycache__" not in p.parts:
            out.append((p.relative_to(root).as_posix(), p))
    for p in sorted((root / "app").rglob("*")):
        if p.is_file() and p.suffix in (".json", ".csv", ".txt") and "__pycache__" not in p.parts:
            out.append((p.relative_to(root).as_posix(), p))
    for d in RESOURCE_DIRS:
        base = root / "resources" / d
        if base.is_dir():
            for p in sorted(base.rglob("*")):
                if p.is_file():
                    out.append((p.relative_to(root).as_posix(), p))
    try:  # nvidia-ml-py is one pure-Python file; bundled when the controller has it
        import importlib.util

        spec = importlib.util.find_spec("pynvml")
        if spec and spec.origin and spec.origin.endswith(".py"):
            out.append(("lib/pynvml.py", Path(spec.origin)))
    except (ImportError, ValueError):
        pass
    return out


def zipapp_bytes(root: Optional[Path] = None) -> bytes:
    """The archive's bytes: deterministic for the same source."""
    root = root or ROOT
    buf = io.BytesIO()
    buf.write(b"#!/usr/bin/env python3\n")
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as z:
        info = zipfile.ZipInfo("__main__.py", date_time=_EPOCH)
        info.external_attr = 0o644 << 16
        info.compress_type = zipfile.ZIP_DEFLATED
        z.writestr(info, MAIN)
        for name, path in _members(root):
            info = zipfile.ZipInfo(name, date_time=_EPOCH)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, path.read_bytes())
    return buf.getvalue()


def build_zipapp(path: os.PathLike | str, root: Optional[Path] = None) -> str:
    """Write the zipapp to `path` (replaced only when its content changed); returns its sha256."""
    data = zipapp_bytes(root)
    digest = hashlib.sha256(data).hexdigest()
    p = Path(path)
    if p.is_file() and hashlib.sha256(p.read_bytes()).hexdigest() == digest:
        return digest
    p.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(p, data, mode=0o755)
    return digest
