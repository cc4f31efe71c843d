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


# ---------------------------------------------------------------- legacy GPUs, end of support, Jetson (issue 28 items 3-4)
# [LEG] NVIDIA driver support notes: R470 is Kepler's last branch, R580 the last for Maxwell, Pascal and Volta.
# [PT] PyTorch builds: the cu118 builds (to 2.7) keep sm_37; cu126 (to 2.14) keeps sm_50..sm_70; no build has sm_30/sm_35.
# [DC] NVIDIA driver lifecycle: R535 ended 2026-06, R570 2026-02, R610 2026-08; R580 LTSB to 2028-06, R620 LTSB to 2029-09.

@pytest.fixture(scope="module")
def shipped():
    return load_db(resource("compat"))  # the data as shipped (2.15 without torchvision, R620, the 2.12.0 patch)


def _m(gpu, cc, driver, py="3.12", plat="linux", km="proprietary", state="ok"):
    from app.facts import DriverInfo, Facts, Gpu, OsInfo, PythonEnv

    o = OsInfo(platform="linux", id="ubuntu", version_id="24.04", arch="x86_64", package_manager="apt") if plat == "linux" else \
        OsInfo(platform="windows", id="windows", version_id="10.0.19045", arch="AMD64")
    d = DriverInfo(state=state, version=driver, kernel_module=km if plat == "linux" else None) if driver else DriverInfo(state="not_installed")
    return Facts(os=o, driver=d, gpus=(Gpu(index=0, name=gpu, compute_capability=cc),), python=PythonEnv(path="/usr/bin/python3", version=py))


LEGACY = [("Quadro K4000", "3.0", "470"), ("Tesla K40m", "3.5", "470"), ("Tesla K80", "3.7", "470"), ("GeForce GTX 980", "5.2", "580"),
          ("GeForce GTX 1080", "6.1", "580"), ("Tesla V100-SXM2-16GB", "7.0", "580")]
WIN_DRIVERS = {"470": ("391.35", "474.89"), "580": ("537.58", "581.57")}  # an older branch, the last one (Windows numbering)
LINUX_DRIVERS = {"470": ("390.157", "470.256.02"), "580": ("535.183.01", "580.95.05")}


@pytest.mark.parametrize("gpu,cc,last", LEGACY)
@pytest.mark.parametrize("plat", ["linux", "windows"])
def test_a_legacy_gpus_driver_always_has_a_target(shipped, gpu, cc, last, plat):
    """Never "upgrade" with no target: keep on the last branch, else install or upgrade to a named branch, never past it."""
    from app.choices import Choices
    from app.recommend import recommend

    older, newest = (WIN_DRIVERS if plat == "windows" else LINUX_DRIVERS)[last]
    for drv in (None, older, newest):
        for py in ("3.9", "3.12", "3.14", "3.15"):
            rec = recommend(_m(gpu, cc, drv, py, plat), shipped, Choices())
            d = rec.driver
            where = (gpu, plat, drv, py, d.action, d.branch, d.reason)
            if d.action in ("install", "upgrade"):
                assert d.branch and vkey(d.branch) <= vkey(last), where
                if drv:
                    assert d.action != "upgrade" or vkey(d.branch) > vkey(drv)[:1] or plat == "windows", where
            if drv == newest:
                assert d.action == "keep", where  # its last branch: kept (the reason says so where no build serves it)
            assert "upgrade" not in d.reason.lower() or d.branch, where


def test_kepler_quadro_on_windows_with_r470_is_told_to_keep_it(shipped):
    from app.recommend import recommend

    rec = recommend(_m("Quadro K4000", "3.0", "474.89", plat="windows"), shipped)
    assert (rec.driver.action, rec.driver.branch, rec.driver.reason_code) == ("keep", "470", "driver_keep_last_branch")
    assert rec.driver.reason.startswith("Keep driver 474.89: R470 is the last driver branch")
    rec = recommend(_m("Tesla K80", "3.7", None, py="3.9", plat="windows"), shipped)  # cu118 runs on R470 through minor compatibility
    assert (rec.pytorch.version, rec.pytorch.index, rec.driver.branch) == ("2.7.1", "cu118", "470")
    assert vkey(rec.driver.min_version)[:1] <= (470,)


@pytest.mark.parametrize("gpu,cc,py,want", [
    ("GeForce GTX 1080", "6.1", "3.15", ("python_too_new", "3.14", "cu126")),  # 2.15 has cp315 but no cu126 build
    ("GeForce GTX 1080", "6.1", "3.15t", ("python_too_new", "3.14t", "cu126")),
    ("Tesla V100-SXM2-16GB", "7.0", "3.15", ("python_too_new", "3.14", "cu126")),
    ("Tesla K80", "3.7", "3.14", ("python_too_new", "3.13", "cu118")),  # 2.7.1+cu118, the last with sm_37, has cp313
    ("NVIDIA GeForce RTX 5090", "12.0", "3.8", ("python_too_old", "3.10", "cu130")),
])
def test_a_python_no_gpu_build_has_gets_the_python_that_works(shipped, gpu, cc, py, want):
    from app.recommend import recommend

    rec = recommend(_m(gpu, cc, "580.95.05" if cc != "3.7" else "470.256.02", py, km="open" if cc == "12.0" else "proprietary"), shipped)
    w = next(w for w in rec.warnings if w.code == want[0])
    bound = w.params.get("py_max") or w.params.get("py_min")
    assert (w.params["text_code"], bound, w.params["index"]) == (f"{want[0]}_for_gpu", want[1], want[2]), w.message
    rel = shipped.torch_release(w.params["torch"])
    assert bound in rel.python and shipped.variant(rel.release, want[2], "linux").covers(cc)
    assert "use the CPU build" in w.message and f"Python {bound}" in w.message and rec.pytorch.reason == w.message


@pytest.mark.parametrize("gpu,cc,drv,km,want", [
    ("NVIDIA GeForce RTX 4090", "8.9", "610.43.02", "open", "620"),  # R610 ended: the next supported branch, not R580
    ("NVIDIA GeForce RTX 4090", "8.9", "590.48.01", "open", "595"),
    ("Tesla V100-SXM2-16GB", "7.0", "535.183.01", "proprietary", "580"),
    ("Tesla V100-SXM2-16GB", "7.0", "570.124.06", "proprietary", "580"),
])
def test_an_ended_branch_is_replaced_by_the_next_supported_one(shipped, gpu, cc, drv, km, want):
    from app.recommend import recommend

    rec = recommend(_m(gpu, cc, drv, km=km), shipped)
    w = next(w for w in rec.warnings if w.code == "driver_branch_ended")
    assert w.params.get("target") == want and vkey(want) > vkey(drv)[:1] and not shipped.branch(want).ended("2026-12-01"), w.message
    assert f"R{want} is the supported branch" in w.message


def test_kepler_on_its_ended_last_branch_is_told_it_is_the_last(shipped):
    from app.recommend import recommend

    rec = recommend(_m("Tesla K80", "3.7", "470.256.02", py="3.9"), shipped)
    w = next(w for w in rec.warnings if w.code == "driver_branch_ended")
    assert "target" not in w.params and w.params["target_part_code"] == "branch_eol_last" and "last branch" in w.message


def test_a_broken_driver_is_never_replaced_by_an_older_branch(shipped):
    from app.recommend import recommend

    rec = recommend(_m("NVIDIA GeForce RTX 4090", "8.9", "610.43.02", km="proprietary"), shipped)  # Ada on R610's proprietary module: fine
    assert rec.driver.action == "keep"
    rec = recommend(_m("NVIDIA GeForce RTX 5090", "12.0", "610.43.02", km="proprietary"), shipped)  # Blackwell needs the open module
    assert rec.driver.action in ("install", "upgrade") and vkey(rec.driver.branch) >= (610,), rec.driver.reason


def test_jetson_never_says_no_nvidia_gpu(shipped):
    from app import messages
    from app.facts import DriverInfo, Facts, Gpu, OsInfo, PythonEnv
    from app.recommend import recommend

    for name, cc in (("Orin", "8.7"), ("NVIDIA Jetson Xavier NX", "7.2"), ("NVIDIA Tegra X1", "5.3")):
        f = Facts(os=OsInfo(platform="linux", id="ubuntu", version_id="22.04", arch="aarch64", package_manager="apt"),
                  driver=DriverInfo(state="ok", version="540.4.0"), gpus=(Gpu(index=0, name=name, compute_capability=cc),),
                  python=PythonEnv(path="/usr/bin/python3", version="3.10"))
        rec = recommend(f, shipped)
        said = [rec.pytorch.reason, rec.driver.reason, rec.cuda_toolkit.reason, rec.cudnn.reason] + [w.message for w in rec.warnings]
        assert "tegra_unsupported" in {w.code for w in rec.warnings}
        assert not any("No NVIDIA GPU" in x or "no NVIDIA GPU" in x or "No usable NVIDIA GPU" in x for x in said), said
        assert rec.pytorch.reason_code == "torch_cpu_jetson" and "JetPack" in rec.pytorch.reason and "JetPack" in rec.driver.reason
        zh = messages.render("rec", rec.pytorch.reason_code, rec.pytorch.reason_params, "zh_CN")
        assert "JetPack" in zh and "没有 NVIDIA GPU" not in zh


def test_an_interpreter_the_search_did_not_list_keeps_its_version():
    """`--python /opt/torch/.venv/bin/python`: not on PATH, not the active venv; its version is asked of it (found by the
    H200 mirror script, bench/h200_mirror_e2e.py: the solve had taken the newest release for an unknown Python)."""
    from app.detect import detect
    from tests.unit.detect_helpers import snapshot

    sysm = snapshot(files={"/opt/torch/.venv/bin/python": ""}, commands={"/opt/torch/.venv/bin/python --version": "Python 3.12.3\n"})
    f = detect(sysm, python="/opt/torch/.venv/bin/python")
    assert f.python is not None and (f.python.path, f.python.version, f.python.kind) == ("/opt/torch/.venv/bin/python", "3.12.3", "selected")
    linked = snapshot(links={"/srv/env/bin/python": "python3.11"})
    assert detect(linked, python="/srv/env/bin/python").python.version == "3.11"  # the link names it: no process needed
    gone = snapshot()
    assert detect(gone, python="/no/such/python").python.version is None  # and the solve then says python_unknown
