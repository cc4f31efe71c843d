"""Advice at the edges: the full-compatibility driver floor is the Table 3 row of the CUDA update release the
wheel bundles (NVIDIA CUDA Toolkit Release Notes, Table 3; rows copied below as the table prints them, not from
the project's data), lspci in the shapes people paste (tests/fixtures/real/lspci-shapes/SOURCE.md), and a bare
interpreter name for --python."""
from __future__ import annotations

import shutil

import pytest

from app.compat.db import load_db, vkey
from app.detect.pci import lspci_model_name, nvidia_display, parse_lspci_nn
from app.detect.python_env import resolve_python
from app.paths import resource
from tests.conftest import FIXTURES

# (toolkit update, Linux x86_64 floor, Windows floor or None for "N/A"): NVIDIA Table 3 ("CUDA Toolkit and
# Corresponding Driver Versions", edition for CUDA 13.2 Update 2)
TABLE3 = [
    ("13.2.2", "595.71.05", None), ("13.2.1", "595.58.03", None), ("13.2.0", "595.45.04", None),
    ("13.1.1", "590.48.01", None), ("13.1.0", "590.44.01", None),
    ("13.0.2", "580.95.05", None), ("13.0.1", "580.82.07", None), ("13.0.0", "580.65.06", None),
    ("12.9.1", "575.57.08", "576.57"), ("12.9.0", "575.51.03", "576.02"),
    ("12.8.1", "570.124.06", "572.61"), ("12.8.0", "570.26", "570.65"),
    ("12.6.3", "560.35.05", "561.17"), ("12.6.2", "560.35.03", "560.94"), ("12.6.0", "560.28.03", "560.76"),
    ("12.4.1", "550.54.15", "551.78"), ("11.8.0", "520.61.05", "520.06"),
]


def below(v: str) -> str:
    """The driver just under a floor (one in its last field)."""
    parts = v.split(".")
    parts[-1] = str(int(parts[-1]) - 1).zfill(len(parts[-1]))
    return ".".join(parts)


@pytest.fixture(scope="module", params=["bundled", "pinned"])
def db(request):
    return load_db(resource("compat")) if request.param == "bundled" else load_db()


@pytest.mark.parametrize("cuda,linux,windows", TABLE3)
def test_full_only_at_or_above_the_update_releases_floor(db, cuda, linux, windows):
    assert db.driver_compat(linux, cuda, "linux") == "full"
    floor = db.minor_compat_floor(vkey(cuda)[0], "linux")
    under = below(linux)
    want_under = "minor" if floor and vkey(under) >= vkey(floor) else None
    assert db.driver_compat(under, cuda, "linux") == want_under, (cuda, under)
    assert db.min_driver_for_runtime(cuda, "linux") == linux
    if windows:
        assert db.driver_compat(windows, cuda, "windows") == "full"
        assert db.driver_compat(below(windows), cuda, "windows") != "full"


def test_the_13_0_update_2_wheel_below_its_floor_is_never_full(db):
    """Issue 28 item 1: 580.82.07 (13.0 Update 1's driver) runs a wheel bundling 13.0 Update 2 only through
    minor-version compatibility; 'full' needs 580.95.05."""
    from app.choices import Choices
    from app.facts import DriverInfo, Facts, Gpu, OsInfo, PythonEnv
    from app.recommend import recommend

    for drv in ("580.65.06", "580.82.07", "580.95.04"):
        f = Facts(os=OsInfo(platform="linux", id="ubuntu", version_id="24.04", arch="x86_64", package_manager="apt"),
                  driver=DriverInfo(state="ok", version=drv, kernel_module="open"),
                  gpus=(Gpu(index=0, name="NVIDIA H200", compute_capability="9.0"),), python=PythonEnv(path="/usr/bin/python3", version="3.12"))
        rec = recommend(f, db, Choices())
        t = rec.pytorch
        floor = db.min_driver_for_runtime(t.cuda_runtime, "linux")
        if t.driver_compat == "full":
            assert vkey(drv) >= vkey(floor), (drv, t.version, t.index, t.cuda_runtime, floor)
        else:
            assert t.driver_compat == "minor" and "minor_version_compat_only" in {w.code for w in rec.warnings}
        for alt in rec.alternatives:
            if alt.driver_compat == "full" and alt.index.startswith("cu13"):
                assert vkey(drv) >= vkey("580.95.05") or alt.index != "cu130"


SHAPES = FIXTURES / "real" / "lspci-shapes"


@pytest.mark.parametrize("name,want", [
    ("lspci-vnn-rtx4050-laptop.txt", [("0000:01:00.0", "10de:28a1", "0300", "GeForce RTX 4050 Max-Q / Mobile")]),
    ("lspci-vnn-titanx-pascal.txt", [("0000:01:00.0", "10de:1b00", "0300", None)]),
    ("lspci-mm-nn-hybrid-rtx3050.txt", [("0000:01:00.0", "10de:25a2", "0302", "GeForce RTX 3050 Mobile")]),
    ("lspci-vmm-nn-hybrid-mx150.txt", [("0000:01:00.0", "10de:1d10", "0302", "GeForce MX150")]),
])
def test_lspci_shapes_people_paste(name, want):
    devs = parse_lspci_nn((SHAPES / name).read_text())
    got = [(d.bus_id, d.pci_id, d.class_code, lspci_model_name(d.description)) for d in nvidia_display(devs)]
    assert got == want
    # the audio function of the same card is no GPU; the iGPU of a hybrid laptop is a second display controller
    assert all(d.class_code.startswith("03") for d in nvidia_display(devs))
    if "hybrid" in name:
        others = [d for d in devs if d.is_display and d.vendor != "10de"]
        assert len(others) == 1 and others[0].vendor == "8086"


def test_a_bare_interpreter_name_is_found_on_path():
    py = shutil.which("python3")
    assert py and resolve_python("python3") == py
    assert resolve_python("/no/such/python") == "/no/such/python" and resolve_python(None) is None
    assert resolve_python("no-such-python-xyz") == "no-such-python-xyz"  # the caller's check then says "no such interpreter"
