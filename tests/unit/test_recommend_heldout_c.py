"""A third held-out machine set (issue 28, after the free-threaded, legacy, Jetson and hybrid changes), written from
NVIDIA's and PyTorch's own tables BEFORE the wizard was run on it, and solved against the data the wizard ships
(resources/compat). Mirrors are served by a local PEP 503 server (127.0.0.1).

Each expectation names the table rows it comes from:
  [T3]   NVIDIA CUDA Toolkit Release Notes, Table 3 (toolkit update -> minimum driver; 12.6 Update 3: 560.35.05 / 561.17,
         12.8 Update 1: 570.124.06 / 572.61, 13.0 Update 2: 580.95.05, 13.2 Update 1: 595.58.03) and the minor-version
         compatibility floors (11.x: 450.80.02 / 452.39; 12.x: 525.60.13 / 527.41; 13.x: 580)
  [CC]   NVIDIA "CUDA GPUs - Compute Capability" (Kepler 3.x, Maxwell 5.x, Pascal 6.x, Volta 7.0, Turing 7.5, Ampere 8.0/8.6,
         Ada 8.9, Hopper 9.0, Blackwell 10.0/12.0/12.1, Jetson Orin 8.7)
  [LEG]  NVIDIA driver support: R470 last for Kepler; R580 last for Maxwell, Pascal, Volta; Blackwell needs R570+ and the
         open kernel modules; open modules need Turing or newer
  [DC]   NVIDIA driver lifecycle: R535 EOL 2026-06, R570 2026-02, R610 2026-08 (ended); R580 LTSB to 2028-06; R595
         production to 2027-03; R620 LTSB to 2029-09
  [PT]   PyTorch release matrix (RELEASE.md, get-started): 2.14.1 newest with torchvision (0.29.1), Python 3.10-3.14 +
         3.14t, builds cu126 (sm_50-sm_90) / cu130 (default) / cu132 (sm_75-sm_120); 2.15.0 Python 3.11-3.15 (+3.14t,
         3.15t) cu132 only, no torchvision yet; 2.12.0 last with cp313t (2.12.1 dropped it); 2.8 last with Python 3.9;
         2.4 last with 3.8 (default cu121); 2.7 last with cu118 (sm_37); cu128 (2.7-2.11) sm_75-sm_120 (2.8-2.10 Linux
         keep sm_70); aarch64 builds sm_80 and newer only; Windows PyPI wheel CPU-only
  [NV]   NVIDIA Linux driver README: PRIME render offload, runtime D3 power management; Ubuntu nvidia-prime
         (/etc/prime-discrete); Jetson: JetPack's own PyTorch builds

Checked on every machine, besides the expectation: never "full" compatibility below the Table 3 floor of the wheel's
CUDA update (no false "full").

First run (expectations committed first, in their own commit b8536a4, then run once, code and data as on main
8744b22): 49 of 49 machines right (100%), 4 of 4 mirrors right, no false "full". Nothing in this set needed a fix;
the H200 mirror script written beside it (bench/h200_mirror_e2e.py) found one general bug instead: `--python PATH` for
an interpreter the detection had not listed (a venv's python by its symlink) lost its version.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Optional

import pytest

from app.choices import Choices, Mirrors
from app.compat.db import load_db, vkey
from app.facts import DisplayAdapter, DriverInfo, Facts, Gpu, GraphicsInfo, OsInfo, PythonEnv
from app.paths import resource
from app.recommend import recommend, recommend_live

FIRST_RUN = "49/49 machines (100%), 4/4 mirrors, 0 false full"

OS = {
    "u2004": dict(platform="linux", id="ubuntu", version_id="20.04", arch="x86_64", package_manager="apt"),
    "u2204": dict(platform="linux", id="ubuntu", version_id="22.04", arch="x86_64", package_manager="apt"),
    "u2404": dict(platform="linux", id="ubuntu", version_id="24.04", arch="x86_64", package_manager="apt"),
    "deb12": dict(platform="linux", id="debian", version_id="12", arch="x86_64", package_manager="apt"),
    "deb13": dict(platform="linux", id="debian", version_id="13", arch="x86_64", package_manager="apt"),
    "fed42": dict(platform="linux", id="fedora", version_id="42", arch="x86_64", package_manager="dnf"),
    "rhel9": dict(platform="linux", id="rhel", version_id="9.6", id_like=("fedora",), arch="x86_64", package_manager="dnf"),
    "arch": dict(platform="linux", id="arch", arch="x86_64", package_manager="pacman"),
    "u2404arm": dict(platform="linux", id="ubuntu", version_id="24.04", arch="aarch64", package_manager="apt"),
    "u2204arm": dict(platform="linux", id="ubuntu", version_id="22.04", arch="aarch64", package_manager="apt"),
    "wsl2": dict(platform="linux", id="ubuntu", version_id="24.04", arch="x86_64", package_manager="apt", wsl=2, wsl_dxg=True),
    "win11": dict(platform="windows", id="windows", version_id="10.0.26100", arch="AMD64"),
    "win10": dict(platform="windows", id="windows", version_id="10.0.19045", arch="AMD64"),
}

# (toolkit update, Linux floor, Windows floor) from NVIDIA Table 3: the least driver of FULL compatibility
TABLE3 = {"11.8.0": ("520.61.05", "520.06"), "12.1.0": ("530.30.02", "531.14"), "12.4.1": ("550.54.15", "551.78"),
          "12.6.3": ("560.35.05", "561.17"), "12.8.1": ("570.124.06", "572.61"), "12.9.1": ("575.57.08", "576.57"),
          "13.0.2": ("580.95.05", None), "13.2.1": ("595.58.03", None), "13.2.2": ("595.71.05", None)}


def m(os_key, gpus, driver=None, py="3.12", module=None, state=None, graphics=None, nouveau=None) -> Facts:
    gs = tuple(Gpu(index=i, name=n, compute_capability=c, bus_id=f"0000:0{i + 1}:00.0") for i, (n, c) in enumerate(gpus))
    wsl = OS[os_key].get("wsl") == 2
    if driver is None:
        d = DriverInfo(state="host" if wsl and gpus else "not_installed", nouveau_loaded=nouveau)
    else:
        d = DriverInfo(state=state or ("host" if wsl else "ok"), version=driver, kernel_module=module)
    return Facts(os=OsInfo(**OS[os_key]), driver=d, gpus=gs, python=PythonEnv(path="/usr/bin/python3", version=py) if py else None,
                 graphics=graphics or GraphicsInfo())


def hybrid(igpu_vendor="8086", nv_class="0302", prime=None, pm=None) -> GraphicsInfo:
    return GraphicsInfo(adapters=(DisplayAdapter(bus_id="0000:00:02.0", vendor=igpu_vendor, class_code="0300",
                                                 driver="i915" if igpu_vendor == "8086" else "amdgpu", connected=("eDP-1",)),
                                  DisplayAdapter(bus_id="0000:01:00.0", vendor="10de", class_code=nv_class)),
                        prime_mode=prime, runtime_pm=pm, source="sysfs")


@dataclass
class E:
    id: str
    facts: Facts
    torch: Optional[str]
    index: Optional[str]
    action: str
    branch: Optional[str] = None  # checked for a native-Linux install/upgrade
    compat: Optional[str] = None
    warns: tuple = ()
    choices: Choices = field(default_factory=Choices)
    why: str = ""


NEW = "2.14.1"
RTX4090, RTX3060, RTX5090, H200, A100 = ("NVIDIA GeForce RTX 4090", "8.9"), ("NVIDIA GeForce RTX 3060", "8.6"), \
    ("NVIDIA GeForce RTX 5090", "12.0"), ("NVIDIA H200", "9.0"), ("NVIDIA A100-SXM4-80GB", "8.0")
V100, T4, GTX1080, GTX980 = ("Tesla V100-SXM2-32GB", "7.0"), ("Tesla T4", "7.5"), ("NVIDIA GeForce GTX 1080", "6.1"), \
    ("NVIDIA GeForce GTX 980", "5.2")
K80, K40, K4000, B200 = ("Tesla K80", "3.7"), ("Tesla K40m", "3.5"), ("Quadro K4000", "3.0"), ("NVIDIA B200", "10.0")

CASES = [
    # ---- Kepler (R470 its last branch)
    E("k80_r470_py311", m("u2204", [K80], "470.256.02", "3.11"), "2.7.1", "cu118", "keep", compat="minor",
      warns=("gpu_dropped_by_newest", "minor_version_compat_only"), why="[PT] 2.7 last cu118 with sm_37; [T3] 11.x minor >= 450.80.02"),
    E("k80_r390_upgrade", m("u2004", [K80], "390.157", "3.10"), "2.7.1", "cu118", "upgrade", branch="470",
      why="[LEG] R470 last for Kepler; [T3] 390 is below 11.x's 450.80.02"),
    E("k40_r470_no_build", m("u2204", [K40], "470.256.02", "3.11"), None, None, "keep", warns=("no_release_for_gpu",),
      why="[PT] no build has sm_35 (cu118 starts at sm_37); [LEG] R470 its last branch: keep"),
    E("k4000_win_r470_keep", m("win11", [K4000], "474.89", "3.12"), None, None, "keep", why="[LEG] Windows R470 (47x.xx) last for Kepler"),
    E("k80_py314", m("u2204", [K80], "470.256.02", "3.14"), None, None, "keep", warns=("python_too_new",),
      why="[PT] 2.7.1 (cu118) supports Python 3.9-3.13: 3.13 or older gets it"),
    # ---- Maxwell / Pascal / Volta (R580 their last)
    E("gtx980_r535_keep", m("u2204", [GTX980], "535.183.01", "3.11"), NEW, "cu126", "keep", compat="minor",
      warns=("driver_branch_ended",), why="[PT] cu126 sm_50; [T3] 12.x minor >= 525.60.13; [DC] R535 ended"),
    E("gtx1080_r580_keep", m("u2404", [GTX1080], "580.95.05", "3.12"), NEW, "cu126", "keep", compat="full",
      warns=("plain_pip_wrong_build",), why="[PT] cu126 sm_60 SASS runs sm_61; cu130 starts at sm_75; [T3] 560.35.05"),
    E("gtx1080_r590_drops", m("u2404", [GTX1080], "590.48.01", "3.12"), NEW, "cu126", "install", branch="580",
      warns=("driver_branch_drops_gpu",), why="[LEG] R590 drops Pascal; R580 its last"),
    E("gtx1080_py315", m("u2404", [GTX1080], "580.95.05", "3.15"), None, None, "keep", warns=("python_too_new",),
      why="[PT] 2.15 (the one release with cp315) is cu132 only, no sm_61; 2.14.1+cu126 needs Python <= 3.14"),
    E("gtx1080_open_module", m("u2404", [GTX1080], "580.95.05", "3.12", module="open"), NEW, "cu126", "install", branch="580",
      warns=("open_module_unsupported",), why="[LEG] open modules need Turing+: the proprietary flavour"),
    E("v100_r580_keep", m("rhel9", [V100], "580.95.05", "3.11"), NEW, "cu126", "keep", compat="full", why="[PT] cu126 sm_70"),
    E("v100_r470_upgrade", m("u2204", [V100], "470.256.02", "3.11"), NEW, "cu126", "upgrade", branch="580",
      why="[T3] R470 runs only cu118 (11.x); R580 runs 2.14.1+cu126; [LEG] R580 last for Volta"),
    E("v100_r570_ended", m("u2204", [V100], "570.124.06", "3.10"), NEW, "cu126", "keep", compat="full", warns=("driver_branch_ended",),
      why="[DC] R570 ended 2026-02: next supported branch R580; [T3] 560.35.05 <= 570"),
    # ---- Turing / Ampere / Ada / Hopper, native Linux
    E("t4_r535_minor", m("u2204", [T4], "535.183.01", "3.10"), NEW, "cu126", "keep", compat="minor",
      warns=("minor_version_compat_only", "driver_branch_ended"), why="[T3] 12.x minor; 13.x needs 580; [DC] R535 ended"),
    E("rtx3060_no_driver_u2204", m("u2204", [RTX3060], None, "3.10"), NEW, "cu130", "install", branch="580",
      why="[LEG] R580 recommended; [PT] cu130 default"),
    E("rtx4090_r580_95", m("u2404", [RTX4090], "580.95.05", "3.12"), NEW, "cu130", "keep", compat="full", warns=("torchvision_not_released",),
      why="[T3] 13.0 U2 580.95.05; [PT] 2.15.0 without torchvision"),
    E("rtx4090_r580_82_cu126_full", m("u2404", [RTX4090], "580.82.07", "3.12"), NEW, "cu126", "keep", compat="full",
      why="[T3] 580.82.07 is below 13.0 U2's 580.95.05 (cu130 only minor); cu126 full (560.35.05)"),
    E("rtx4090_r550", m("deb12", [RTX4090], "550.163.01", "3.11"), NEW, "cu126", "keep", compat="minor",
      why="[T3] 550 < 560.35.05: cu126 by minor compatibility; 13.x needs 580"),
    E("a100_r610_ended", m("u2404", [A100], "610.43.02", "3.12"), NEW, "cu130", "keep", compat="full", warns=("driver_branch_ended",),
      why="[DC] R610 ended 2026-08: R620 the next supported"),
    E("h200_r595", m("u2404", [H200], "595.58.03", "3.12", module="open"), NEW, "cu130", "keep", compat="full",
      why="[PT] default cu130; cu132 full too, the default wins"),
    E("h200_r620", m("rhel9", [H200], "620.70.06", "3.12", module="open"), NEW, "cu130", "keep", compat="full", why="[DC] R620 LTSB"),
    E("rtx4070_fedora_no_driver", m("fed42", [("NVIDIA GeForce RTX 4070", "8.9")], None, "3.13"), NEW, "cu130", "install", branch="580",
      why="[LEG] R580"),
    E("rtx3090_arch_r575", m("arch", [("NVIDIA GeForce RTX 3090", "8.6")], "575.64.05", "3.13"), NEW, "cu126", "keep", compat="full",
      why="[T3] 575 >= 560.35.05 (cu126 full), < 580 (no cu130)"),
    # ---- Blackwell
    E("rtx5090_r570_upgrade", m("u2404", [RTX5090], "570.172.08", "3.12", module="open"), NEW, "cu130", "upgrade", branch="580",
      why="[PT] cu126 has no sm_120; cu128 last in 2.11; [LEG] R580"),
    E("rtx5090_r570_unmanaged", m("u2404", [RTX5090], "570.172.08", "3.12", module="open"), "2.11.0", "cu128", "keep", compat="full",
      choices=Choices(install_driver=False), why="[PT] 2.11 last with cu128 (sm_120); [T3] 12.8 U1 570.124.06"),
    E("rtx5090_proprietary", m("u2404", [RTX5090], "580.95.05", "3.12", module="proprietary"), NEW, "cu130", "install", branch="580",
      warns=("open_module_required",), why="[LEG] Blackwell needs the open modules"),
    E("b200_r580_deb13", m("deb13", [B200], "580.95.05", "3.12", module="open"), NEW, "cu130", "keep", compat="full", why="[PT] sm_100"),
    # ---- Python versions
    E("py39_rtx4090", m("u2204", [RTX4090], "580.95.05", "3.9"), "2.8.0", "cu128", "keep", compat="full", warns=("python_too_old",),
      why="[PT] 2.8 last with 3.9, default cu128"),
    E("py38_rtx3090", m("u2004", [("NVIDIA GeForce RTX 3090", "8.6")], "580.95.05", "3.8"), "2.4.1", "cu121", "keep", compat="full",
      warns=("python_too_old",), why="[PT] 2.4 last with 3.8, default cu121"),
    E("py38_rtx5090", m("u2404", [RTX5090], "580.95.05", "3.8", module="open"), None, None, "keep", warns=("python_too_old",),
      why="[PT] Blackwell builds from 2.7 need Python >= 3.9; 2.14.1 needs 3.10"),
    E("py313t_rtx4090", m("u2404", [RTX4090], "580.95.05", "3.13t"), "2.12.0", "cu130", "keep", compat="full",
      warns=("python_free_threaded_older_release",), why="[PT] 2.12.0 last with cp313t"),
    E("py314t_h200", m("u2404", [H200], "580.95.05", "3.14t", module="open"), NEW, "cu130", "keep", why="[PT] 2.14.1 cp314t"),
    E("py315_rtx4090_torch_alone", m("u2404", [RTX4090], "595.71.05", "3.15"), "2.15.0", "cu132", "keep",
      warns=("torch_alone_no_complete_set",), why="[PT] 2.15 the one release with cp315; no torchvision yet"),
    E("py315t_h200", m("u2404", [H200], "595.71.05", "3.15t", module="open"), "2.15.0", "cu132", "keep",
      warns=("torch_alone_no_complete_set",), why="[PT] 2.15 cp315t"),
    E("py313t_gtx1080", m("u2404", [GTX1080], "580.95.05", "3.13t"), "2.12.0", "cu126", "keep", why="[PT] 2.12.0 cp313t, cu126 sm_60"),
    # ---- Windows and WSL2
    E("win_rtx4090_591", m("win11", [RTX4090], "591.86", "3.12"), NEW, "cu130", "keep", warns=("plain_pip_wrong_build",),
      why="[PT] Windows PyPI wheel is CPU-only; Windows R590 runs 13.0"),
    E("win_rtx3060_566", m("win11", [RTX3060], "566.36", "3.12"), NEW, "cu126", "keep", why="[T3] 566.36 >= 561.17; < R580"),
    E("win_gtx1060_537", m("win10", [("NVIDIA GeForce GTX 1060 6GB", "6.1")], "537.58", "3.11"), NEW, "cu126", "keep", compat="minor",
      why="[T3] 537.58 < 561.17, >= 527.41 minor"),
    E("win_k80_no_driver", m("win11", [K80], None, "3.10"), "2.7.1", "cu118", "install", why="[LEG] R470 runs 11.8 by minor compat"),
    E("wsl_rtx4070_576", m("wsl2", [("NVIDIA GeForce RTX 4070 Laptop GPU", "8.9")], "576.57", "3.12"), NEW, "cu126", "host",
      why="[T3] Windows 576.57 >= 561.17 (cu126), < 580 (13.x)"),
    E("wsl_rtx5080_572", m("wsl2", [("NVIDIA GeForce RTX 5080", "12.0")], "572.83", "3.12"), NEW, "cu130", "host",
      why="[PT] cu126 no sm_120: the user updates the Windows driver for 2.14.1+cu130"),
    # ---- aarch64 and Jetson
    E("gh200_arm_r580", m("u2404arm", [("NVIDIA GH200 480GB", "9.0")], "580.95.05", "3.12", module="open"), NEW, "cu130", "keep",
      why="[PT] aarch64 cu130 sm_90"),
    E("gb10_spark_r580", m("u2404arm", [("NVIDIA GB10", "12.1")], "580.95.05", "3.12", module="open"), NEW, "cu130", "keep",
      why="[CC] 12.1 runs sm_120 SASS; [PT] aarch64 cu130"),
    E("t4g_arm_no_build", m("u2204arm", [("NVIDIA T4G", "7.5")], "580.95.05", "3.12"), None, None, "keep",
      warns=("no_release_for_gpu",), why="[PT] aarch64 builds start at sm_80"),
    E("jetson_orin_cpu", m("u2204arm", [("Orin", "8.7")], "540.4.0", "3.10"), NEW, "cpu", "none", warns=("tegra_unsupported",),
      why="[NV] JetPack's builds; these wheels have none for Tegra"),
    # ---- hybrid laptops
    E("hybrid_intel_rtx3050ti", m("u2404", [("NVIDIA GeForce RTX 3050 Ti Laptop GPU", "8.6")], "580.95.05", "3.12", module="open",
                                  graphics=hybrid()), NEW, "cu130", "keep", warns=("hybrid_graphics",), why="[NV] PRIME offload advice"),
    E("hybrid_amd_nouveau_no_driver", m("u2404", [("NVIDIA GeForce RTX 4060 Laptop GPU", "8.9")], None, "3.12", nouveau=True,
                                        graphics=hybrid("1002", "0300")), NEW, "cu130", "install", branch="580", warns=("hybrid_graphics",),
      why="[LEG] R580 open; nouveau blacklisted, amdgpu kept"),
    E("hybrid_turing_prime_off", m("u2204", [("NVIDIA GeForce GTX 1650 Ti Mobile", "7.5")], "535.183.01", "3.11",
                                   graphics=hybrid(prime="off")), NEW, "cu126", "keep", warns=("hybrid_prime_off", "hybrid_runtime_pm"),
      why="[NV] prime-select intel switches the dGPU off; Turing RTD3 needs NVreg_DynamicPowerManagement=0x02"),
    E("hybrid_mx150_no_driver", m("u2204", [("NVIDIA GeForce MX150", "6.1")], None, "3.10", graphics=hybrid()), NEW, "cu126", "install",
      branch="580", warns=("hybrid_graphics",), why="[LEG] Pascal: R580 proprietary; [PT] cu126"),
]


@pytest.fixture(scope="module")
def db():
    return load_db(resource("compat"))


def _floor(cuda: str, platform: str) -> Optional[str]:
    """The least full-compatibility driver Table 3 gives for this update, or for the newest earlier update of its X.Y
    (a later update never needs less)."""
    rows = [(v, f) for v, f in TABLE3.items() if v.split(".")[:2] == cuda.split(".")[:2] and vkey(v) <= vkey(cuda)]
    if not rows:
        return None
    lin, win = max(rows, key=lambda r: vkey(r[0]))[1]
    return lin if platform == "linux" else win


def judge(case: E, rec) -> list[str]:
    """What is wrong with the answer for this machine (empty: right)."""
    t, d = rec.pytorch, rec.driver
    bad = []
    if (t.version, t.index, d.action) != (case.torch, case.index, case.action):
        bad.append(f"got {t.version}+{t.index} driver {d.action}, want {case.torch}+{case.index} {case.action}")
    if case.branch and d.action in ("install", "upgrade") and case.facts.os.platform == "linux" and not case.facts.os.wsl and d.branch != case.branch:
        bad.append(f"branch {d.branch}, want {case.branch}")
    if case.compat and t.driver_compat != case.compat:
        bad.append(f"compat {t.driver_compat}, want {case.compat}")
    missing = set(case.warns) - {w.code for w in rec.warnings}
    if missing:
        bad.append(f"missing {sorted(missing)}")
    if t.driver_compat == "full" and t.cuda_runtime:  # no false "full"
        drv = (f"{d.branch}.999.99" if d.action in ("install", "upgrade") and d.branch and rec.platform == "linux"
               else (d.current_version or ""))
        floor = _floor(t.cuda_runtime, "linux" if rec.platform == "linux" else "windows")
        if floor and drv and vkey(drv) < vkey(floor) and rec.platform != "windows" and d.action != "host":
            bad.append(f"false full: {drv} < {floor} for CUDA {t.cuda_runtime}")
    return bad


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_heldout_c_machine(case: E, db):
    rec = recommend(case.facts, db, case.choices)
    assert judge(case, rec) == [], f"{rec.summary} | {rec.driver.reason} | {case.why}"


def test_heldout_c_score(db):
    right = sum(not judge(c, recommend(c.facts, db, c.choices)) for c in CASES)
    print(f"\nheld-out (C): {right}/{len(CASES)} right ({100 * right / len(CASES):.0f}%)")
    assert len(CASES) >= 40 and right / len(CASES) >= 0.98


def test_set_is_broad():
    ccs = {g.compute_capability.split(".")[0] for c in CASES for g in c.facts.gpus}
    assert {"3", "5", "6", "7", "8", "9", "10", "12"} <= ccs  # Kepler to Blackwell
    pys = {c.facts.python.version for c in CASES if c.facts.python}
    assert {"3.8", "3.9", "3.10", "3.11", "3.12", "3.13", "3.13t", "3.14", "3.14t", "3.15", "3.15t"} <= pys
    assert {c.facts.os.platform for c in CASES} == {"linux", "windows"} and any(c.facts.os.wsl for c in CASES)
    assert any((c.facts.os.arch or "") == "aarch64" for c in CASES) and sum(c.facts.graphics.hybrid for c in CASES) >= 3


# ---------------------------------------------------------------- mirrors as they are (a local PEP 503 server)

def _mirror_cases():
    """(id, pages {variant: (torch versions, torchvision versions) or None for a 404}, plain, want (torch, index))."""
    full = ("2.14.1", "0.29.1")
    return [
        ("mirror_carries_cu126_only", {"cu126": full, "cu130": None, "cu132": None}, False, ("2.14.1", "cu126")),
        ("mirror_lags_at_2_13", {"cu126": ("2.13.0", "0.28.0"), "cu130": ("2.13.0", "0.28.0"), "cu132": ("2.13.0", "0.28.0")}, False,
         ("2.13.0", "cu130")),
        ("mirror_pypi_style_no_local_tags", {"cu130": full, "cu126": None, "cu132": None}, True, ("2.14.1", "cu130")),
        ("mirror_cpu_only", {"cpu": full, "cu126": None, "cu130": None, "cu132": None}, False, ("2.14.1", "cpu")),
    ]


@pytest.mark.parametrize("rid,pages,plain,want", _mirror_cases(), ids=[c[0] for c in _mirror_cases()])
def test_heldout_c_mirror(rid, pages, plain, want, db):
    from tests.unit.live_server import Server, simple_page, wheels

    s = Server()
    try:
        for variant, got in pages.items():
            if got is None:
                continue
            files_t = wheels("torch", [got[0]], variant, ["cp312"])
            files_v = wheels("torchvision", [got[1]], variant, ["cp312"])
            if plain:  # a PyPI-style mirror: no local tags in the file names
                files_t = [f.replace(f"+{variant}", "") for f in files_t]
                files_v = [f.replace(f"+{variant}", "") for f in files_v]
            s.pages[f"/whl/{variant}/torch/"] = simple_page("torch", variant, files_t)
            s.pages[f"/whl/{variant}/torchvision/"] = simple_page("torchvision", variant, files_v)
        from app.compat import live

        ch = Choices(mirrors=Mirrors(pytorch_index_url=s.url + "/whl"))
        rec, rep = recommend_live(m("u2404", [H200], "580.95.05", "3.12", module="open"), db, ch, fetcher=live.Fetcher(timeout=2.0),
                                  pypi_json=None, today=dt.date(2026, 12, 1), enabled=True)
        assert (rec.pytorch.version, rec.pytorch.index) == want, rec.summary
        assert rep.seconds <= 5.0
    finally:
        s.close()
