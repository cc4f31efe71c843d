"""A second held-out machine set (round 2 of issue 19), written from NVIDIA's and PyTorch's own
tables BEFORE the wizard was run on it, and solved against the data the wizard ships
(resources/compat), not the pinned test copy: it checks what users get today.

Each expectation names the table rows it comes from (keys below):
  [T3]   NVIDIA CUDA Toolkit Release Notes, Table 3 (toolkit -> minimum driver, Linux / Windows) and
         Table 2 (minor-version compatibility: CUDA 11.x >= 450.80.02 / 452.39, 12.x >= 525.60.13 /
         527.41, 13.x >= 580), docs.nvidia.com/cuda/cuda-toolkit-release-notes/
  [CC]   NVIDIA "CUDA GPUs - Compute Capability", developer.nvidia.com/cuda-gpus
  [DC]   NVIDIA Data Center Drivers: supported drivers and lifecycle (R580 LTSB to 2028-06, R535
         EOL 2026-06, R570 EOL 2026-02), docs.nvidia.com/datacenter/tesla/drivers/
  [LEG]  NVIDIA driver support notes: R470 last for Kepler; R580 last for Maxwell/Pascal/Volta;
         R590 drops them; Blackwell needs R570+ and the open kernel modules; open modules need Turing+
  [PT]   PyTorch "Get started" / previous-versions matrix and RELEASE.md: 2.14.x Python 3.10-3.14
         (+3.14t), variants cu126/cu130/cu132, PyPI Linux default cu130, Windows PyPI wheel CPU;
         2.12.0 last with 3.13t (2.12.1 dropped it: pytorch/pytorch#186654); 2.8 last with 3.9; 2.4 last with 3.8; 2.15.0 out without torchvision
  [ARCH] PyTorch wheel arch lists (RELEASE.md support matrix / build scripts): cu126 sm_50..sm_90,
         cu128 (2.7-2.11) adds sm_100/sm_120 (2.8-2.10 keep sm_70), cu130/cu132 sm_75..sm_120
         (aarch64: sm_80..sm_120 incl. sm_110), aarch64 cu126 sm_80/sm_90; cu118 keeps sm_37
  [REPO] NVIDIA CUDA repositories (developer.download.nvidia.com/compute/cuda/repos/): ubuntu2004
         ends at CUDA 12.9 (CUDA 13 dropped Ubuntu 20.04)

Ambiguities, and the conservative answer taken:
  - full vs. minor compatibility inside one CUDA minor (12.6 GA needs 560.28.03, 12.6 Update 3
    560.35.05): only the branch-level answer (keep/upgrade, variant) is checked there.
  - R595 (production) and R620 (new LTSB) exist, but R580 is the long-term branch every GPU from
    Maxwell on shares: a fresh install targets R580 [DC][LEG].
  - a toolkit on a driver below the toolkit's full-compat minimum: capped at the driver's own CUDA
    (minor-version compatibility does not cover PTX JIT) [T3].

First run (expectations written first, wizard code as landed by round 1, data as shipped on
2026-12-01): 66 of 66 machines right (100%). One check of this file was itself wrong on that run
(it asserted that no torch reason says "fully supports" after a driver install on native Linux,
where the wizard installs R580 and the sentence is true); it now checks Windows/WSL only, where
the user updates the driver. Final: 66 of 66.
"""
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

import pytest

from app.choices import Choices
from app.compat import load_db
from app.facts import DriverInfo, Facts, Gpu, OsInfo, PythonEnv
from app.recommend import recommend

SHIPPED = Path(__file__).resolve().parents[2] / "resources" / "compat"


@pytest.fixture(scope="module")
def db():
    return load_db(SHIPPED)


OS = {
    "u2404": dict(platform="linux", id="ubuntu", version_id="24.04", arch="x86_64", package_manager="apt"),
    "u2204": dict(platform="linux", id="ubuntu", version_id="22.04", arch="x86_64", package_manager="apt"),
    "u2004": dict(platform="linux", id="ubuntu", version_id="20.04", arch="x86_64", package_manager="apt"),
    "deb12": dict(platform="linux", id="debian", version_id="12", arch="x86_64", package_manager="apt"),
    "deb13": dict(platform="linux", id="debian", version_id="13", arch="x86_64", package_manager="apt"),
    "rhel8": dict(platform="linux", id="rhel", version_id="8.10", id_like=("fedora",), arch="x86_64", package_manager="dnf"),
    "rhel9": dict(platform="linux", id="rhel", version_id="9.6", id_like=("fedora",), arch="x86_64", package_manager="dnf"),
    "rhel10": dict(platform="linux", id="rhel", version_id="10.0", id_like=("centos", "fedora"), arch="x86_64", package_manager="dnf"),
    "alma9": dict(platform="linux", id="almalinux", version_id="9.5", id_like=("rhel", "centos", "fedora"), arch="x86_64", package_manager="dnf"),
    "u2404arm": dict(platform="linux", id="ubuntu", version_id="24.04", arch="aarch64", package_manager="apt"),
    "u2204arm": dict(platform="linux", id="ubuntu", version_id="22.04", arch="aarch64", package_manager="apt"),
    "rhel9arm": dict(platform="linux", id="rhel", version_id="9.4", id_like=("fedora",), arch="aarch64", package_manager="dnf"),
    "wsl2": dict(platform="linux", id="ubuntu", version_id="24.04", arch="x86_64", package_manager="apt", wsl=2, wsl_dxg=True),
    "win11": dict(platform="windows", id="windows", version_id="10.0.26100", arch="x86_64"),
}


def m(os_key, gpus, driver=None, py="3.12", module=None, state=None):
    """gpus: names (compute capability from the wizard's name table) or (name, cc) pairs."""
    gs = tuple(Gpu(index=i, name=g) if isinstance(g, str) else Gpu(index=i, name=g[0], compute_capability=g[1])
               for i, g in enumerate(gpus))
    wsl = OS[os_key].get("wsl") == 2
    if driver is None:
        d = DriverInfo(state="host" if wsl and gpus else "not_installed")
    else:
        d = DriverInfo(state=state or ("host" if wsl else "ok"), version=driver, kernel_module=module)
    return Facts(os=OsInfo(**OS[os_key]), driver=d, gpus=gs, python=PythonEnv(path="/usr/bin/python3", version=py) if py else None)


@dataclass
class E:
    id: str
    facts: Facts
    torch: Optional[str]
    index: Optional[str]
    action: str
    branch: Optional[str] = None  # only checked for install/upgrade
    compat: Optional[str] = None
    warns: tuple = ()
    not_warns: tuple = ()
    toolkit: Optional[str] = None  # checked when set ("-": none)
    choices: Choices = field(default_factory=Choices)
    why: str = ""  # the table rows the expectation comes from


NEW = "2.14.1"  # [PT] newest release with its torchvision (2.15.0 has none yet)
K = Choices(install_driver=False)

CASES = [
    # ---------------- data centre, native Linux
    E("a10g_535_u2204", m("u2204", ["NVIDIA A10G"], "535.183.01", "3.10"), NEW, "cu126", "keep", compat="minor",
      warns=("minor_version_compat_only", "driver_branch_ended"), why="[T3] 12.x minor >= 525.60.13; 13.x needs 580; [DC] R535 EOL 2026-06"),
    E("l4_550_u2404", m("u2404", ["NVIDIA L4"], "550.90.07", "3.12"), NEW, "cu126", "keep", compat="minor",
      why="[T3] cu126 12.6 needs 560.28.03 full, 550 runs it by minor compat; cu130 needs 580"),
    E("l40s_570_u2404", m("u2404", ["NVIDIA L40S"], "570.86.15", "3.12"), NEW, "cu126", "keep", compat="full",
      not_warns=("minor_version_compat_only",), why="[T3] 570.86 >= 560.35.05"),
    E("h100pcie_575", m("u2404", ["NVIDIA H100 PCIe"], "575.57.08", "3.12"), NEW, "cu126", "keep", compat="full", why="[T3]"),
    E("h100nvl_590", m("u2404", ["NVIDIA H100 NVL"], "590.48.01", "3.13"), NEW, "cu130", "keep", compat="full",
      why="[T3] 13.0 needs 580.65.06; [PT] cu130 is the default"),
    E("h200nvl_595", m("u2404", ["NVIDIA H200 NVL"] * 4, "595.58.03", "3.12"), NEW, "cu130", "keep", compat="full",
      why="[PT] default build cu130 runs fully; cu132 also would"),
    E("h20_620_rhel9", m("rhel9", ["NVIDIA H20"] * 8, "620.70.06", "3.12"), NEW, "cu130", "keep", compat="full", why="[DC] R620"),
    E("a100_525_85", m("u2204", ["NVIDIA A100-SXM4-40GB"], "525.85.12", "3.11"), NEW, "cu126", "keep", compat="minor", why="[T3]"),
    E("a100_520_upgrade", m("u2204", ["NVIDIA A100 80GB PCIe"], "520.61.05", "3.10"), NEW, "cu130", "upgrade", branch="580",
      why="[T3] 520 < 525.60.13: only 11.8 (2.7.1); R580 runs 2.14.1+cu130"),
    E("v100_470_py39", m("u2004", ["Tesla V100-PCIE-16GB"], "470.182.03", "3.9"), "2.8.0", "cu128", "upgrade", branch="580",
      warns=("python_too_old",), why="[PT] 2.8 last with 3.9, default cu128; [ARCH] 2.8 cu128 keeps sm_70; [LEG] Volta proprietary"),
    E("p40_580", m("u2204", ["Tesla P40"], "580.95.05", "3.12"), NEW, "cu126", "keep", compat="full",
      warns=("plain_pip_wrong_build",), why="[ARCH] sm_61 only in cu126; PyPI default cu130 lacks it"),
    E("m60_535", m("u2204", ["Tesla M60"], "535.104.05", "3.11"), NEW, "cu126", "keep", compat="minor", why="[CC] 5.2; [ARCH] sm_50 SASS runs 5.2"),
    E("k40m_470_none", m("u2204", ["Tesla K40m"], "470.256.02", "3.10"), None, None, "keep", warns=("no_release_for_gpu",),
      why="[CC] 3.5; [ARCH] cu118 has sm_37 only"),
    E("k80_none_py39", m("u2004", ["Tesla K80"] * 2, None, "3.9"), "2.7.1", "cu118", "install", branch="470",
      why="[LEG] R470 last for Kepler; [ARCH] cu118 keeps sm_37"),
    E("a2_deb12_560", m("deb12", ["NVIDIA A2"], "560.35.05", "3.11"), NEW, "cu126", "keep", why="[T3] 12.6 on 560"),
    E("a40_rhel10_nodriver", m("rhel10", ["NVIDIA A40"], None, "3.12"), NEW, "cu130", "install", branch="580", why="[DC] R580"),
    E("a30_alma9_nodriver_toolkit", m("alma9", ["NVIDIA A30"], None, "3.11"), NEW, "cu130", "install", branch="580", toolkit="13.0",
      choices=Choices(want_toolkit=True), why="[REPO] rhel9 carries cuda-toolkit-13-0"),
    E("b200_570_upgrade", m("u2204", ["NVIDIA B200"] * 8, "570.133.20", "3.12", module="open"), NEW, "cu130", "upgrade", branch="580",
      why="[ARCH] 2.11 cu128 has sm_100 (runs on 570); R580 runs 2.14.1+cu130"),
    E("gb300_580", m("u2404", ["NVIDIA B300 SXM6 AC"], "580.95.05", "3.12", module="open"), NEW, "cu130", "keep",
      why="[CC] 10.3; [ARCH] sm_100 SASS serves 10.3"),
    E("rtxpro6000_server_rhel9", m("rhel9", ["NVIDIA RTX PRO 6000 Blackwell Server Edition"], None, "3.12"), NEW, "cu130", "install",
      branch="580", why="[LEG] Blackwell open modules R570+; [DC] R580"),
    # ---------------- aarch64 servers
    E("gb200_arm_580", m("u2404arm", ["NVIDIA GB200"] * 4, "580.95.05", "3.12", module="open"), NEW, "cu130", "keep",
      warns=("grace_open_module_required",), why="[ARCH] aarch64 cu130 sm_100"),
    E("gh200_arm_570", m("u2404arm", ["NVIDIA GH200 144G HBM3e"], "570.124.06", "3.11", module="open"), NEW, "cu126", "keep",
      why="[ARCH] aarch64 cu126 has sm_90; [T3] 12.6 runs on 570"),
    E("gh200_arm_535", m("u2204arm", ["NVIDIA GH200 480GB"], "535.161.08", "3.10", module="open"), NEW, "cu126", "keep", compat="minor",
      why="[T3] 12.x minor compat"),
    E("gh200_arm_proprietary", m("u2404arm", ["NVIDIA GH200 480GB"], "580.95.05", "3.12", module="proprietary"), NEW, "cu130",
      "install", branch="580", warns=("grace_open_module_required",), why="[LEG] Grace Hopper needs the open modules"),
    E("gb10_arm_580", m("u2404arm", ["NVIDIA GB10"], "580.95.05", "3.12", module="open"), NEW, "cu130", "keep",
      why="[CC] 12.1; [ARCH] sm_120 SASS serves 12.1"),
    E("gh200_rhel9arm_nodriver", m("rhel9arm", ["NVIDIA GH200 480GB"], None, "3.12"), NEW, "cu130", "install", branch="580",
      why="[REPO] rhel9 sbsa; [DC] R580"),
    # ---------------- consumer and workstation, native Linux
    E("gtx960m_nodriver", m("u2404", ["NVIDIA GeForce GTX 960M"], None, "3.12"), NEW, "cu126", "install", branch="580",
      why="[CC] 5.0; [LEG] R580 last for Maxwell"),
    E("gtx750ti_550_by_driver", m("u2404", ["NVIDIA GeForce GTX 750 Ti"], "550.120", "3.12"), NEW, "cu126", "keep",
      not_warns=("gpu_name_ambiguous",), why="[LEG] R550 > R470: not the Kepler 750 Ti, so the Maxwell GM107 [CC] 5.0"),
    E("quadro_k1200_470", m("u2204", ["Quadro K1200"], "470.239.06", "3.10"), NEW, "cu126", "upgrade", branch="580",
      why="[CC] K1200 is Maxwell 5.0; [LEG] R580"),
    E("quadro_k5200_none", m("u2204", ["Quadro K5200"], None, "3.10"), None, None, "install", branch="470",
      warns=("no_release_for_gpu",), why="[CC] 3.5; [LEG] R470"),
    E("titanxp_590_drops", m("u2404", ["NVIDIA TITAN Xp"], "590.44.01", "3.12"), NEW, "cu126", "install", branch="580",
      warns=("driver_branch_drops_gpu",), why="[LEG] R590 drops Pascal"),
    E("mx450_470_upgrade", m("u2204", ["NVIDIA GeForce MX450"], "470.199.02", "3.11"), NEW, "cu130", "upgrade", branch="580",
      why="[CC] 7.5 Turing; [T3] 470: 11.x only"),
    E("rtx5080_580", m("u2404", ["NVIDIA GeForce RTX 5080"], "580.95.05", "3.12", module="open"), NEW, "cu130", "keep", compat="full",
      why="[T3][ARCH]"),
    E("rtx5070ti_575_upgrade", m("u2404", ["NVIDIA GeForce RTX 5070 Ti"], "575.64.03", "3.12", module="open"), NEW, "cu130", "upgrade",
      branch="580", why="[ARCH] 2.11 cu128 newest Blackwell build for 575; 13.x needs 580"),
    E("rtx5060l_570_keep", m("u2404", ["NVIDIA GeForce RTX 5060 Laptop GPU"], "570.144", "3.12", module="open"), "2.11.0", "cu128",
      "keep", warns=("driver_too_old_for_newest",), choices=K, why="[ARCH] cu128 2.7-2.11 has sm_120; [T3] 12.8 on 570.144"),
    E("rtx4070_deb13_nodriver", m("deb13", ["NVIDIA GeForce RTX 4070"], None, "3.13"), NEW, "cu130", "install", branch="580",
      toolkit="13.0", choices=Choices(want_toolkit=True), why="[REPO] debian13 from CUDA 13.0"),
    E("rtx3090_u2004_toolkit", m("u2004", ["NVIDIA GeForce RTX 3090"], None, "3.12"), NEW, "cu130", "install", branch="580",
      toolkit="12.9", choices=Choices(want_toolkit=True), why="[REPO] ubuntu2004 ends at 12.9"),
    E("rtx4090_580_toolkit", m("u2204", ["NVIDIA GeForce RTX 4090"], "580.95.05", "3.12"), NEW, "cu130", "keep", toolkit="13.0",
      choices=Choices(want_toolkit=True), why="[T3]"),
    E("rtx3060_550_toolkit", m("u2204", ["NVIDIA GeForce RTX 3060"], "550.127.05", "3.11"), NEW, "cu126", "keep", toolkit="12.4",
      choices=Choices(want_toolkit=True), why="[T3] R550 runs CUDA 12.4 fully; a 12.6 nvcc would need minor compat (no PTX JIT)"),
    E("rtx3060_525_60_13", m("u2204", ["NVIDIA GeForce RTX 3060"], "525.60.13", "3.11"), NEW, "cu126", "keep", compat="minor",
      why="[T3] exactly the 12.x floor"),
    E("rtx3060_590", m("u2404", ["NVIDIA GeForce RTX 3060"], "590.44.01", "3.12"), NEW, "cu130", "keep", compat="full", why="[T3]"),
    # [T3] 13.0 GA's driver runs the cu130 wheel (13.0 Update 2 inside) only minor; cu126 (12.6.3) fully
    E("rtx4090_580_65_06", m("u2404", ["NVIDIA GeForce RTX 4090"], "580.65.06", "3.12"), NEW, "cu126", "keep", why="[T3] 13.0 U2 floor"),
    E("rtx2060maxq_nodriver_u2204", m("u2204", ["NVIDIA GeForce RTX 2060 with Max-Q Design"], None, "3.10"), NEW, "cu130", "install",
      branch="580", why="[CC] 7.5"),
    E("jetson_orin", m("u2204", [("Orin (nvgpu)", "8.7")], "540.4.0", "3.10"), NEW, "cpu", "none", warns=("tegra_unsupported",),
      why="[CC] Jetson: JetPack builds"),
    # ---------------- Windows native
    E("win_rtx4070s_566", m("win11", ["NVIDIA GeForce RTX 4070 SUPER"], "566.36", "3.12"), NEW, "cu126", "keep", compat="full",
      warns=("plain_pip_wrong_build",), why="[T3] 12.6 Windows 560.76; [PT] Windows PyPI wheel is CPU"),
    E("win_rtx3080_537", m("win11", ["NVIDIA GeForce RTX 3080"], "537.58", "3.11"), NEW, "cu126", "keep", compat="minor",
      why="[T3] 12.x Windows minor floor"),
    E("win_gtx1060_512", m("win11", ["NVIDIA GeForce GTX 1060 6GB"], "512.95", "3.10"), NEW, "cu126", "upgrade",
      why="[T3] 512 < 527.41: only 11.x; 12.6 needs 560.76"),
    E("win_rtx5090_572", m("win11", ["NVIDIA GeForce RTX 5090"], "572.83", "3.13"), NEW, "cu130", "upgrade",
      why="[ARCH] 2.11 cu128 runs on 572.83; 2.14.1 needs a 580 Windows driver"),
    E("win_nogpu_314", m("win11", [], None, "3.14"), NEW, "cpu", "none", why="[PT]"),
    E("win_rtx4060_314t", m("win11", ["NVIDIA GeForce RTX 4060"], "581.57", "3.14t"), NEW, "cu130", "keep", why="[PT] 2.14 has 3.14t"),
    # ---------------- WSL2 (driver on the Windows host)
    E("wsl_rtx3070l_538", m("wsl2", ["NVIDIA GeForce RTX 3070 Laptop GPU"], "538.92", "3.12"), NEW, "cu126", "host", compat="minor",
      why="[T3] Windows column"),
    E("wsl_rtx4080_595", m("wsl2", ["NVIDIA GeForce RTX 4080"], "595.79", "3.12"), NEW, "cu130", "host", why="[T3]"),
    E("wsl_rtx2080_461", m("wsl2", [("NVIDIA GeForce RTX 2080", "7.5")], "461.92", "3.10"), NEW, "cu130", "host",
      why="[T3] 461 runs 11.x only; the host driver is updated"),
    # ---------------- Python
    E("py313t_rtx4090", m("u2404", ["NVIDIA GeForce RTX 4090"], "580.95.05", "3.13t"), "2.12.0", "cu130", "keep",
      warns=("python_free_threaded_older_release",), why="[PT] 2.12.0 last with 3.13t (issue 28: 2.11 was wrong)"),
    E("py314t_h100", m("u2404", ["NVIDIA H100 80GB HBM3"], "580.95.05", "3.14t"), NEW, "cu130", "keep", why="[PT]"),
    E("py315_rtx4090", m("u2404", ["NVIDIA GeForce RTX 4090"], "580.95.05", "3.15"), "2.15.0", "cu132", "keep",
      warns=("torch_alone_no_complete_set",), why="[PT] only 2.15.0 has 3.15 and its torchvision is not out; cu132 only"),
    E("py315_no_torchvision", m("u2404", ["NVIDIA GeForce RTX 4090"], "595.58.03", "3.15"), "2.15.0", "cu132", "keep",
      choices=Choices(want_torchvision=False), why="[PT]"),
    E("py38_rtx3090_535", m("u2004", ["NVIDIA GeForce RTX 3090"], "535.183.01", "3.8"), "2.4.1", "cu121", "keep", compat="full",
      warns=("python_too_old",), why="[PT] 2.4 last with 3.8, default cu121; [T3] 12.1 needs 530.30.02"),
    # ---------------- user choices
    E("pin_29_rtx4090", m("u2404", ["NVIDIA GeForce RTX 4090"], "580.95.05", "3.12"), "2.9.1", "cu128", "keep",
      choices=Choices(torch_version="2.9"), why="[PT] 2.9 default cu128"),
    E("variant_cu132_rtx4090_580", m("u2404", ["NVIDIA GeForce RTX 4090"], "580.95.05", "3.12"), NEW, "cu132", "keep", compat="minor",
      choices=Choices(torch_variant="cu132"), why="[T3] 13.2 on R580 by minor compat"),
    E("variant_cu126_rtx5090_refused", m("u2404", ["NVIDIA GeForce RTX 5090"], "580.95.05", "3.12", module="open"), NEW, "cu130", "keep",
      choices=Choices(torch_variant="cu126"), why="[ARCH] cu126 has no sm_120: refused"),
    E("pin_23_rtx3060_535", m("u2204", ["NVIDIA GeForce RTX 3060"], "535.183.01", "3.12"), "2.3.1", "cu121", "keep", compat="full",
      choices=Choices(torch_version="2.3"), why="[PT] 2.3 has 3.12 wheels"),
    E("keep_driver_a100_470", m("u2004", ["NVIDIA A100-SXM4-40GB"], "470.256.02", "3.10"), "2.7.1", "cu118", "keep", compat="minor",
      warns=("driver_too_old_for_newest",), choices=K, why="[T3] 11.8 full needs 520.61.05; minor from 450.80.02"),
    # ---------------- mixed GPUs
    E("mixed_4090_1080ti", m("u2204", ["NVIDIA GeForce RTX 4090", "NVIDIA GeForce GTX 1080 Ti"], "580.95.05", "3.12"), NEW, "cu126",
      "keep", warns=("mixed_gpus_not_covered",), why="[ARCH] only cu126 has both sm_61 and sm_89"),
    E("mixed_5090_3090_570", m("u2404", ["NVIDIA GeForce RTX 5090", "NVIDIA GeForce RTX 3090"], "570.133.07", "3.12", module="open"), NEW,
      "cu130", "upgrade", branch="580", why="[ARCH][T3]"),
    E("mixed_k80_1080_470", m("u2004", ["Tesla K80", "NVIDIA GeForce GTX 1080"], "470.239.06", "3.10"), "2.7.1", "cu118", "keep",
      why="[LEG] K80 caps R470; [ARCH] cu118 has sm_37 and sm_61"),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_heldout_machine(case: E, db):
    rec = recommend(case.facts, db, case.choices)
    t, d = rec.pytorch, rec.driver
    got = (t.version, t.index, d.action)
    assert got == (case.torch, case.index, case.action), f"{rec.summary} | {d.reason} | {case.why}"
    if case.branch and d.action in ("install", "upgrade") and case.facts.os.platform == "linux" and not case.facts.os.wsl:
        assert d.branch == case.branch, d.reason
    if case.compat:
        assert t.driver_compat == case.compat, case.why
    codes = {w.code for w in rec.warnings}
    assert set(case.warns) <= codes, f"missing {set(case.warns) - codes}; got {sorted(codes)}"
    assert not (set(case.not_warns) & codes), sorted(codes)
    if case.toolkit:
        assert rec.cuda_toolkit.version == (None if case.toolkit == "-" else case.toolkit), rec.cuda_toolkit.reason
    # never a contradiction between the torch reason and the driver's state: on Windows/WSL the user updates the
    # driver, so a driver too old for the wheel must never be said to "fully support" it
    if (rec.platform == "windows" and d.action in ("upgrade", "install")) or d.reason_code == "driver_host_update":
        assert "fully supports" not in t.reason, t.reason


def test_set_is_broad():
    assert len(CASES) >= 60
    oses = {c.facts.os.id + (c.facts.os.arch or "") + str(c.facts.os.wsl) for c in CASES}
    assert len(oses) >= 8
    pys = {c.facts.python.version for c in CASES if c.facts.python}
    assert {"3.8", "3.9", "3.10", "3.11", "3.12", "3.13", "3.13t", "3.14", "3.14t", "3.15"} <= pys
