"""--assume-driver / --assume-gpu / --python-version: make any machine reproducible.

`apply_overrides(facts, ...)` returns new Facts with the assumed values in place and records
what was overridden in `facts.overrides` (reports show it, so nobody mistakes an assumption
for a detection). Bad values raise OverrideError with one clear line.
"""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Iterable, Optional

from app.compat import gpus as gpu_table
from app.detect.findings import finding
from app.facts import Facts, Gpu, PythonEnv


class OverrideError(ValueError):
    pass


_DRIVER = re.compile(r"^\d{3}(\.\d{1,3}){1,2}$")
_PY = re.compile(r"^3\.\d{1,2}(\.\d+)?t?$")  # "3.13t": a free-threaded build


def assumed_gpu(spec: str, index: int) -> Gpu:
    """A marketing name ("RTX 4090", "NVIDIA GeForce RTX 3060 Laptop GPU") or a compute
    capability ("8.9", "sm_89") → a Gpu."""
    s = (spec or "").strip()
    if not s:
        raise OverrideError("--assume-gpu needs a GPU name (e.g. 'RTX 4090') or a compute capability (e.g. 8.9)")
    cc = gpu_table.normalize_cc(s) if re.fullmatch(r"(sm_)?\d+(\.\d+)?", s.lower()) else None
    if cc:
        arch = gpu_table.architecture_for_cc(cc)
        if arch is None:
            raise OverrideError(f"--assume-gpu {s}: {cc} is not a known compute capability")
        return Gpu(index=index, name=f"GPU with compute capability {cc}", compute_capability=cc, architecture=arch, source="assumed")
    if re.fullmatch(r"(?i)(10de:|0x)[0-9a-f]{4}", s):  # a PCI device id: the one sure way to name an ambiguous model
        m = gpu_table.lookup_pci(s)
        if m is None:
            raise OverrideError(f"--assume-gpu {s}: not an NVIDIA device id the GPU table knows")
        prefix = "" if m.name.startswith(("Tesla", "Quadro")) else "NVIDIA "
        return Gpu(index=index, name=prefix + m.name, pci_id=m.pci_id, compute_capability=m.compute_capability,
                   architecture=m.architecture, is_laptop=m.is_laptop, source="assumed")
    if gpu_table.name_ambiguous(s):  # e.g. 'GTX 750 Ti' (Kepler GK106 and Maxwell GM107): the solve decides or says so
        return Gpu(index=index, name=s, source="assumed")
    model = gpu_table.lookup_name(s)
    if model is not None:
        prefix = "" if model.name.startswith(("Tesla", "Quadro")) else "NVIDIA "
        return Gpu(index=index, name=prefix + model.name, pci_id=model.pci_id, compute_capability=model.compute_capability,
                   architecture=model.architecture, is_laptop=model.is_laptop, source="assumed")
    cc = gpu_table.cc_from_name(s)
    if cc:
        return Gpu(index=index, name=s, compute_capability=cc, architecture=gpu_table.architecture_for_cc(cc), source="assumed")
    raise OverrideError(f"--assume-gpu {s!r}: unknown GPU; give a name such as 'RTX 4090' or a compute capability such as 8.9")


def _max_cuda(version: str, platform: str) -> Optional[str]:
    try:
        from app.compat import load_db

        v = load_db().max_cuda_for_driver(version, platform)
        return str(v) if v else None
    except Exception:
        return None


def apply_overrides(facts: Facts, *, assume_driver: Optional[str] = None, assume_gpus: Iterable[str] = (),
                    python_version: Optional[str] = None) -> Facts:
    ov = dict(facts.overrides)
    out = facts
    gpus_spec = [g for g in (assume_gpus or ()) if g is not None]
    if gpus_spec:
        gpus = tuple(assumed_gpu(s, i) for i, s in enumerate(gpus_spec))
        ov["gpus"] = ", ".join(gpus_spec)
        findings = tuple(f for f in out.findings if f.code not in ("no_nvidia_gpu", "gpu_unknown_model"))
        out = replace(out, gpus=gpus, findings=findings)
    if assume_driver is not None:
        v = assume_driver.strip()
        if not _DRIVER.match(v):
            raise OverrideError(f"--assume-driver {assume_driver!r}: expected a driver version such as 550.54 or 535.129.03")
        platform = "windows" if out.os.platform == "windows" else "linux"
        driver = replace(out.driver, state="ok", version=v, cuda_version=_max_cuda(v, platform), source="assumed",
                         hint=None)
        gone = {"driver_not_installed", "driver_not_loaded", "driver_no_communication", "driver_version_mismatch", "nvml_init_failed"}
        out = replace(out, driver=driver, findings=tuple(f for f in out.findings if f.code not in gone))
        ov["driver"] = v
    if python_version is not None:
        v = python_version.strip()
        if not _PY.match(v):
            raise OverrideError(f"--python-version {python_version!r}: expected a version such as 3.11 or 3.13t (free-threaded)")
        base = out.python or PythonEnv(path="(assumed)", kind="assumed")
        py = replace(base, version=v)
        pythons = tuple(py if p.path == base.path else p for p in out.pythons) or (py,)
        out = replace(out, python=py, pythons=pythons)
        ov["python_version"] = v
    if ov != facts.overrides:
        note = finding("facts_overridden", "info", tuple(f"{k}={v}" for k, v in ov.items()),
                       assumed="; ".join(f"{k}={v}" for k, v in ov.items()))
        out = replace(out, overrides=ov, findings=tuple(f for f in out.findings if f.code != "facts_overridden") + (note,))
    return out
