"""recommend() on a table of realistic machines, Kepler to Blackwell, R450 to R590, native
Linux, WSL2, Windows, no GPU, mixed GPUs, Python 3.9 to 3.15. Each row says what must be
chosen and why (the warning codes and a phrase of the reason). Facts are built directly, as
--assume-gpu/--assume-driver/--python-version would.

GPU names and compute capabilities are NVIDIA's (developer.nvidia.com/cuda-gpus); driver
versions are real releases (NVIDIA's Unix driver archive / release notes Table 3)."""
from dataclasses import dataclass, field
from typing import Optional

import pytest

from app.choices import Choices
from app.compat import load_db
from app.facts import DriverInfo, Facts, Gpu, OsInfo, PythonEnv
from app.recommend import recommend


@pytest.fixture(scope="module")
def db():
    return load_db(use_user_bundle=False)


OS = {
    "u2404": dict(platform="linux", id="ubuntu", version_id="24.04", arch="x86_64", package_manager="apt"),
    "u2204": dict(platform="linux", id="ubuntu", version_id="22.04", arch="x86_64", package_manager="apt"),
    "u2004": dict(platform="linux", id="ubuntu", version_id="20.04", arch="x86_64", package_manager="apt"),
    "deb12": dict(platform="linux", id="debian", version_id="12", arch="x86_64", package_manager="apt"),
    "rocky9": dict(platform="linux", id="rocky", version_id="9.4", id_like=("rhel", "centos", "fedora"), arch="x86_64", package_manager="dnf"),
    "rhel8": dict(platform="linux", id="rhel", version_id="8.10", arch="x86_64", package_manager="dnf"),
    "fed42": dict(platform="linux", id="fedora", version_id="42", arch="x86_64", package_manager="dnf"),
    "arch": dict(platform="linux", id="arch", arch="x86_64", package_manager="pacman"),
    "u2404arm": dict(platform="linux", id="ubuntu", version_id="24.04", arch="aarch64", package_manager="apt"),
    "wsl2": dict(platform="linux", id="ubuntu", version_id="22.04", arch="x86_64", package_manager="apt", wsl=2, wsl_dxg=True),
    "wsl1": dict(platform="linux", id="ubuntu", version_id="22.04", arch="x86_64", package_manager="apt", wsl=1),
    "win11": dict(platform="windows", id="windows", version_id="10.0.22631", arch="x86_64"),
}


def machine(os_key, gpus, driver=None, py="3.12", state=None, kernel_module=None):
    gs = tuple(Gpu(index=i, name=n, compute_capability=cc) for i, (n, cc) in enumerate(gpus))
    if driver is None:
        d = DriverInfo(state="host" if os_key == "wsl2" and gpus else "not_installed")
    else:
        d = DriverInfo(state=state or ("host" if os_key in ("wsl2",) else "ok"), version=driver, kernel_module=kernel_module)
    return Facts(os=OsInfo(**OS[os_key]), driver=d, gpus=gs,
                 python=PythonEnv(path="/usr/bin/python3", version=py) if py else None)


@dataclass
class Case:
    id: str
    facts: Facts
    torch: Optional[str]  # expected torch version (None: nothing can run)
    index: Optional[str]
    action: str
    compat: Optional[str] = None
    branch: Optional[str] = None
    package: Optional[str] = "?"  # "?": not checked
    warns: tuple = ()
    not_warns: tuple = ()
    reason: str = ""  # phrase expected in the pytorch or driver reason
    choices: Choices = field(default_factory=Choices)
    min_version: Optional[str] = None


H200 = ("NVIDIA H200", "9.0")
H100 = ("NVIDIA H100 80GB HBM3", "9.0")
A100 = ("NVIDIA A100-SXM4-80GB", "8.0")
B200 = ("NVIDIA B200", "10.0")
B300 = ("NVIDIA B300", "10.3")
L40S = ("NVIDIA L40S", "8.9")
T4 = ("Tesla T4", "7.5")
V100 = ("Tesla V100-SXM2-32GB", "7.0")
P100 = ("Tesla P100-PCIE-16GB", "6.0")
K80 = ("Tesla K80", "3.7")
RTX5090 = ("NVIDIA GeForce RTX 5090", "12.0")
RTX5070 = ("NVIDIA GeForce RTX 5070", "12.0")
RTX4090 = ("NVIDIA GeForce RTX 4090", "8.9")
RTX4060L = ("NVIDIA GeForce RTX 4060 Laptop GPU", "8.9")
RTX4070L = ("NVIDIA GeForce RTX 4070 Laptop GPU", "8.9")
RTX3090 = ("NVIDIA GeForce RTX 3090", "8.6")
RTX3060 = ("NVIDIA GeForce RTX 3060", "8.6")
RTX2080TI = ("NVIDIA GeForce RTX 2080 Ti", "7.5")
GTX1660 = ("NVIDIA GeForce GTX 1660 SUPER", "7.5")
GTX1080TI = ("NVIDIA GeForce GTX 1080 Ti", "6.1")
GTX1070 = ("NVIDIA GeForce GTX 1070", "6.1")
GTX980 = ("NVIDIA GeForce GTX 980", "5.2")
GTX780TI = ("NVIDIA GeForce GTX 780 Ti", "3.5")
GTX680 = ("NVIDIA GeForce GTX 680", "3.0")
TITANV = ("NVIDIA TITAN V", "7.0")
ORIN = ("Orin (nvgpu)", "8.7")
GH200 = ("NVIDIA GH200 480GB", "9.0")
GB10 = ("NVIDIA GB10", "12.1")

CASES = [
    # --- datacenter, native Linux
    Case("h200_real_580_u2404", machine("u2404", [H200], "580.159.04", "3.12", kernel_module="open"), "2.14.0", "cu130", "keep",
         compat="full", branch="580", not_warns=("minor_version_compat_only", "plain_pip_wrong_build", "driver_too_old_for_newest"),
         reason="Keep driver 580.159.04", min_version="580.95.05"),  # 13.0 Update 2 (Table 3)
    Case("h100_r535_u2204", machine("u2204", [H100] * 8, "535.129.03", "3.11"), "2.14.0", "cu126", "keep", compat="minor",
         warns=("minor_version_compat_only", "plain_pip_wrong_build"), min_version="525.60.13"),
    Case("a100_r450_upgrade", machine("u2004", [A100], "450.80.02", "3.10"), "2.14.0", "cu130", "upgrade", branch="580",
         package="nvidia-driver-580-open", reason="cannot run PyTorch 2.14.0+cu130, the newest for this GPU"),
    Case("a100_r450_keep_driver", machine("u2004", [A100], "450.80.02", "3.10"), "2.7.1", "cu118", "keep", compat="minor",
         warns=("driver_too_old_for_newest", "minor_version_compat_only"), choices=Choices(install_driver=False)),
    Case("a100_r450_51_below_floor", machine("u2004", [A100], "450.51.06", "3.10"), "2.14.0", "cu130", "upgrade", branch="580",
         reason="Upgrade to driver branch R580"),
    Case("b200_r580", machine("u2404", [B200] * 8, "580.95.05", "3.12", kernel_module="open"), "2.14.0", "cu130", "keep", compat="full"),
    Case("b300_r580_sm100_sass", machine("u2404", [B300], "580.95.05", "3.12", kernel_module="open"), "2.14.0", "cu130", "keep", compat="full"),
    Case("l40s_r550_rocky9", machine("rocky9", [L40S], "550.127.05", "3.11"), "2.14.0", "cu126", "keep", compat="minor"),
    Case("t4_r470_upgrade", machine("u2204", [T4], "470.256.02", "3.10"), "2.14.0", "cu130", "upgrade", branch="580",
         package="nvidia-driver-580-open"),
    Case("v100_r525_rocky9", machine("rocky9", [V100], "525.147.05", "3.11"), "2.14.0", "cu126", "keep", compat="minor",
         warns=("plain_pip_wrong_build",), reason="sm_70"),
    Case("v100_no_driver_rhel8", machine("rhel8", [V100], None, "3.11"), "2.14.0", "cu126", "install", compat="full", branch="580",
         package="@nvidia-driver:580-dkms"),
    Case("p100_r580_u2204", machine("u2204", [P100], "580.95.05", "3.12"), "2.14.0", "cu126", "keep", compat="full"),
    Case("k80_r470_py310", machine("u2004", [K80], "470.239.06", "3.10"), "2.7.1", "cu118", "keep", compat="minor",
         warns=("gpu_dropped_by_newest", "minor_version_compat_only"), reason="R470 is the last branch"),
    Case("k80_no_driver", machine("u2004", [K80], None, "3.11"), "2.7.1", "cu118", "install", branch="470", package="nvidia-driver-470"),
    # no build with K80 kernels has cp314 wheels: the advice names the Python that gets one (2.7.1+cu118 on 3.13), issue 28
    Case("k80_py314_none", machine("u2204", [K80], "470.239.06", "3.14"), None, None, "keep", warns=("python_too_new",)),
    # --- consumer, native Linux
    Case("rtx5090_r570_upgrade", machine("u2404", [RTX5090], "570.133.07", "3.12", kernel_module="open"), "2.14.0", "cu130", "upgrade",
         branch="580", package="nvidia-driver-580-open"),
    Case("rtx5090_r570_keep_driver", machine("u2404", [RTX5090], "570.133.07", "3.12", kernel_module="open"), "2.11.0", "cu128", "keep",
         compat="full", warns=("driver_too_old_for_newest",), choices=Choices(install_driver=False)),
    Case("rtx5090_r550_too_old_for_gpu", machine("u2404", [RTX5090], "550.144.03", "3.12"), "2.14.0", "cu130", "upgrade", branch="580",
         warns=("driver_too_old_for_gpu",)),
    Case("rtx5070_proprietary_module", machine("u2404", [RTX5070], "580.95.05", "3.12", kernel_module="proprietary"), "2.14.0", "cu130",
         "install", branch="580", package="nvidia-driver-580-open", warns=("open_module_required",)),
    Case("rtx5090_no_driver_u2404", machine("u2404", [RTX5090], None, "3.13"), "2.14.0", "cu130", "install", branch="580",
         package="nvidia-driver-580-open", min_version="580.95.05"),  # the wheel bundles 13.0 Update 2: Table 3's 580.95.05
    Case("rtx4090_r550_u2204", machine("u2204", [RTX4090], "550.54.14", "3.11"), "2.14.0", "cu126", "keep", compat="minor"),
    Case("rtx4060l_r560_35_03", machine("u2404", [RTX4060L], "560.35.03", "3.12"), "2.14.0", "cu126", "keep", compat="minor",
         warns=("minor_version_compat_only",)),  # the wheel bundles 12.6 Update 3: full needs 560.35.05 (Table 3)
    Case("rtx4060l_r555_minor", machine("u2404", [RTX4060L], "555.42.06", "3.12"), "2.14.0", "cu126", "keep", compat="minor",
         warns=("minor_version_compat_only",)),
    # 580.82.09 < 580.95.05 (13.0 Update 2, what cu130 bundles): cu130 only minor; cu126 (12.6.3, 560.35.05) full, preferred
    Case("rtx4070l_r580_82_cu130", machine("u2404", [RTX4070L], "580.82.09", "3.12"), "2.14.0", "cu126", "keep", compat="full"),
    Case("rtx4090_no_driver_fedora42", machine("fed42", [RTX4090], None, "3.13"), "2.14.0", "cu130", "install", branch="580",
         package="nvidia-open"),  # NVIDIA fedora repo: no module streams
    Case("rtx3090_r470_upgrade", machine("u2204", [RTX3090], "470.239.06", "3.10"), "2.14.0", "cu130", "upgrade", branch="580"),
    Case("rtx3060_r525", machine("u2204", [RTX3060], "525.147.05", "3.10"), "2.14.0", "cu126", "keep", compat="minor"),
    Case("rtx2080ti_no_driver_debian12", machine("deb12", [RTX2080TI], None, "3.11"), "2.14.0", "cu130", "install", branch="580",
         package="nvidia-open"),  # from NVIDIA's repository, held at R580 by nvidia-driver-pinning-580 (test_recommend_choices)
    Case("gtx1660_no_driver_arch", machine("arch", [GTX1660], None, "3.13"), "2.14.0", "cu130", "install", branch="580", package=None,
         reason="No package name is known"),
    Case("gtx1080ti_r535", machine("u2204", [GTX1080TI], "535.183.01", "3.12"), "2.14.0", "cu126", "keep", compat="minor",
         warns=("plain_pip_wrong_build",), reason="Keep driver 535.183.01"),
    Case("gtx1080ti_no_driver_proprietary", machine("u2404", [GTX1080TI], None, "3.12"), "2.14.0", "cu126", "install", compat="full",
         branch="580", package="nvidia-driver-580"),
    Case("gtx1080ti_r590_drops_pascal", machine("u2404", [GTX1080TI], "590.44.01", "3.12"), "2.14.0", "cu126", "install", branch="580",
         package="nvidia-driver-580", warns=("driver_branch_drops_gpu",), reason="R590 does not support"),
    Case("gtx980_r470_upgrade", machine("u2204", [GTX980], "470.239.06", "3.11"), "2.14.0", "cu126", "upgrade", branch="580",
         package="nvidia-driver-580"),
    Case("titanv_r580", machine("u2404", [TITANV], "580.82.07", "3.12"), "2.14.0", "cu126", "keep", compat="full"),
    Case("gtx780ti_kepler_none", machine("u2004", [GTX780TI], "470.239.06", "3.10"), None, None, "keep", warns=("no_release_for_gpu",),
         reason="R470"),
    Case("gtx680_kepler_no_driver", machine("u2004", [GTX680], None, "3.10"), None, None, "install", branch="470",
         package="nvidia-driver-470", warns=("no_release_for_gpu",)),
    Case("driver_broken_version_unknown", machine("u2204", [RTX3060], None, "3.11").replace(
        driver=DriverInfo(state="no_communication")), "2.14.0", "cu130", "install", branch="580",
         warns=("driver_not_working",), reason="the installed driver is not working (no communication)"),
    Case("driver_not_loaded_keeps", machine("u2204", [RTX4090], "550.120", "3.11", state="not_loaded"), "2.14.0", "cu126", "keep",
         warns=("driver_not_working",)),
    # --- aarch64 (SBSA) servers and DGX Spark
    Case("gh200_aarch64_r580", machine("u2404arm", [GH200], "580.95.05", "3.12", kernel_module="open"), "2.14.0", "cu130", "keep",
         compat="full", reason="on Linux aarch64"),
    Case("gb10_dgx_spark_aarch64", machine("u2404arm", [GB10], "580.95.05", "3.12", kernel_module="open"), "2.14.0", "cu130", "keep"),
    Case("gh200_aarch64_py39_no_data", machine("u2404arm", [GH200], "580.95.05", "3.9"), None, None, "keep",
         warns=("python_too_old",)),  # aarch64 builds for GH200 exist, none for 3.9: the advice names the Python that works
    # --- mixed GPUs
    Case("mixed_pascal_ampere", machine("u2204", [GTX1080TI, RTX3090], "580.95.05", "3.12"), "2.14.0", "cu126", "keep", compat="full",
         warns=("mixed_gpus_not_covered",)),
    Case("mixed_volta_ampere", machine("u2204", [V100, A100], "580.95.05", "3.12"), "2.14.0", "cu126", "keep", warns=("mixed_gpus_not_covered",)),
    Case("mixed_blackwell_ampere", machine("u2404", [RTX5090, RTX3090], "580.95.05", "3.12", kernel_module="open"), "2.14.0", "cu130", "keep",
         not_warns=("mixed_gpus_not_covered", "mixed_gpus_driver_conflict")),
    Case("mixed_blackwell_pascal_conflict", machine("u2404", [RTX5090, GTX1080TI], "580.95.05", "3.12"), None, None, "keep",
         warns=("mixed_gpus_driver_conflict", "no_release_for_gpu")),
    Case("mixed_kepler_ampere_r470", machine("u2004", [K80, RTX3090], "470.239.06", "3.10"), "2.7.1", "cu118", "keep",
         warns=("mixed_gpus_not_covered",)),
    # --- no GPU
    Case("no_gpu_u2404", machine("u2404", [], None, "3.12"), "2.14.0", "cpu", "none", warns=("no_nvidia_gpu",)),
    Case("no_gpu_py39", machine("u2204", [], None, "3.9"), "2.8.0", "cpu", "none"),
    Case("no_gpu_windows", machine("win11", [], None, "3.13"), "2.14.0", "cpu", "none"),
    Case("jetson_orin_tegra", machine("u2204", [ORIN], "540.4.0", "3.10"), "2.14.0", "cpu", "none", warns=("tegra_unsupported",)),
    # --- WSL2
    Case("wsl2_rtx4070l_566", machine("wsl2", [RTX4070L], "566.36", "3.10"), "2.14.0", "cu126", "host", compat="full",
         min_version="561.17", warns=("plain_pip_wrong_build",), reason="Never install a Linux NVIDIA driver"),  # 12.6 Update 3, Windows
    Case("wsl2_rtx4090_581", machine("wsl2", [RTX4090], "581.57", "3.12"), "2.14.0", "cu130", "host", compat="full", min_version="580"),
    Case("wsl2_rtx3080_old_472", machine("wsl2", [("NVIDIA GeForce RTX 3080", "8.6")], "472.12", "3.10"), "2.14.0", "cu130", "host",
         min_version="580", reason="update the NVIDIA Windows driver to 580 or newer (now: 472.12; driver 472.12 cannot run PyTorch 2.14.0"),
    Case("wsl2_rtx3080_old_472_keep", machine("wsl2", [("NVIDIA GeForce RTX 3080", "8.6")], "472.12", "3.10"), "2.7.1", "cu118", "host",
         compat="minor", warns=("driver_too_old_for_newest",), choices=Choices(install_driver=False), reason="keep the Windows driver 472.12"),
    Case("win_gtx1070_old_472_update", machine("win11", [GTX1070], "472.12", "3.12"), "2.14.0", "cu126", "upgrade", min_version="561.17",
         reason="cannot run PyTorch 2.14.0+cu126"),  # 12.6 Update 3's Windows driver (Table 3)
    Case("wsl2_no_driver_seen", machine("wsl2", [RTX3060], None, "3.12"), "2.14.0", "cu130", "host", min_version="580",
         reason="install or update the NVIDIA Windows driver"),
    Case("wsl1_no_gpu", machine("wsl1", [RTX3060], "566.36", "3.12"), "2.14.0", "cpu", "none", warns=("wsl1_no_gpu",)),
    # --- Windows native
    # 560.94 < 561.17 (12.6 Update 3, Windows): minor-version compatibility
    Case("win_rtx3060_560", machine("win11", [RTX3060], "560.94", "3.12"), "2.14.0", "cu126", "keep", compat="minor",
         warns=("plain_pip_wrong_build",), reason="on Windows"),
    Case("win_rtx4060l_591", machine("win11", [RTX4060L], "591.86", "3.13"), "2.14.0", "cu130", "keep", compat="full"),
    Case("win_gtx1070_538", machine("win11", [GTX1070], "538.15", "3.11"), "2.14.0", "cu126", "keep", compat="minor"),
    Case("win_rtx4060_no_driver", machine("win11", [RTX4060L], None, "3.12"), "2.14.0", "cu130", "install", min_version="580"),
    # --- Python
    Case("py39_rtx4090_r550", machine("u2204", [RTX4090], "550.54.14", "3.9"), "2.8.0", "cu128", "keep", warns=("python_too_old",)),
    Case("py314_gtx1080ti", machine("u2404", [GTX1080TI], "580.95.05", "3.14"), "2.14.0", "cu126", "keep"),
    Case("py313_a100", machine("u2404", [A100], "580.95.05", "3.13"), "2.14.0", "cu130", "keep"),
    Case("py315_too_new", machine("u2404", [RTX4090], "580.95.05", "3.15"), None, None, "none", warns=("python_too_new",)),
    Case("python_unknown", machine("u2404", [RTX4090], "580.95.05", None), "2.14.0", "cu130", "keep", warns=("python_unknown",)),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_machine(case: Case, db):
    rec = recommend(case.facts, db, case.choices)
    t, d = rec.pytorch, rec.driver
    assert (t.version, t.index) == (case.torch, case.index), rec.summary
    assert d.action == case.action, d.reason
    if case.compat:
        assert t.driver_compat == case.compat
    if case.branch:
        assert d.branch == case.branch
    if case.package != "?":
        assert d.package == case.package
    if case.min_version:
        assert d.min_version == case.min_version
    codes = {w.code for w in rec.warnings}
    for w in case.warns:
        assert w in codes, f"missing warning {w}; got {sorted(codes)}"
    for w in case.not_warns:
        assert w not in codes, f"unexpected warning {w}"
    if case.reason:
        assert case.reason in (t.reason + " " + d.reason + " " + " ".join(w.message for w in rec.warnings))
    # invariants every recommendation keeps
    if t.version and t.index and t.index != "cpu":
        assert t.index_url == f"https://download.pytorch.org/whl/{t.index}"
        assert f"torch=={t.version}" in t.command and f"--index-url {t.index_url}" in t.command
        assert t.uv_command.startswith("uv pip install") or "uv pip install" in t.uv_command
        rel = db.torch_release(t.version)
        assert f"torchvision=={rel.torchvision}" in t.command
        assert (f"torchaudio=={rel.torchaudio}" in t.command) == bool(rel.torchaudio)
        assert rec.cudnn.source == "wheel" and rec.cudnn.version == t.cudnn
    if case.facts.os.wsl == 2:
        assert d.action in ("host", "none") and d.package is None  # never a Linux driver inside WSL
    if d.max_branch and d.branch:
        assert int(d.branch) <= int(d.max_branch)  # never past the last branch that supports the GPU
    if rec.cuda_toolkit.version and rec.cuda_toolkit.max_version:
        assert tuple(map(int, rec.cuda_toolkit.version.split("."))) <= tuple(map(int, rec.cuda_toolkit.max_version.split(".")))
    assert rec.db_version == db.version
    # JSON round trip (the CLI contract)
    from app.recommendation import Recommendation
    assert Recommendation.from_json(rec.to_json()) == rec


def test_table_is_broad():
    assert len(CASES) >= 40
    ccs = {g.compute_capability for c in CASES for g in c.facts.gpus}
    assert {"3.0", "3.5", "3.7", "5.2", "6.1", "7.0", "7.5", "8.0", "8.6", "8.9", "9.0", "10.0", "12.0"} <= ccs
    pys = {c.facts.python.version for c in CASES if c.facts.python}
    assert {"3.9", "3.10", "3.11", "3.12", "3.13"} <= pys


def test_every_emitted_code_is_registered(db):
    import re
    from pathlib import Path

    from app.recommend import WARNING_CODES

    src = Path(__import__("app.recommend", fromlist=["x"]).__file__).read_text(encoding="utf-8")
    emitted = set(re.findall(r'warn\(\s*"([a-z0-9_]+)"', src)) | set(re.findall(r'code, msg = "([a-z0-9_]+)"', src))
    emitted |= set(re.findall(r'code, msg(?:_p)? = \(?"([a-z0-9_]+)"', src))
    emitted |= set(re.findall(r'return "([a-z0-9_]+)", dict\(text_code=', src))  # _other_python's shapes
    emitted |= set(re.findall(r'RecWarning\(code="([a-z0-9_]+)"', src))
    live_src = (Path(__import__("app.recommend", fromlist=["x"]).__file__).parent / "compat" / "live.py").read_text(encoding="utf-8")
    emitted |= set(re.findall(r'notes\.append\(\(\s*"([a-z0-9_]+)"', live_src))  # recommend_live's warnings
    assert emitted == WARNING_CODES
    seen = {w.code for c in CASES for w in recommend(c.facts, db, c.choices).warnings}
    assert seen <= WARNING_CODES
    assert len(seen) >= 15  # the table exercises most of them


def test_mixed_box_names_only_the_gpu_that_caps_the_driver_branch():
    from app.compat import load_db
    from app.facts import DriverInfo, Facts, Gpu, OsInfo, PythonEnv
    from app.recommend import recommend
    facts = Facts(os=OsInfo(platform="linux", id="ubuntu", version_id="22.04", arch="x86_64", package_manager="apt"),
                  driver=DriverInfo(state="ok", version="580.65.06", cuda_version="13.0", kernel_module="proprietary"),
                  gpus=(Gpu(index=0, name="NVIDIA GeForce RTX 4090", compute_capability="8.9"),
                        Gpu(index=1, name="NVIDIA GeForce GTX 1080 Ti", compute_capability="6.1")),
                  python=PythonEnv(path="/usr/bin/python3", version="3.12"))
    reason = recommend(facts, load_db()).driver.reason
    assert "R580 is the last branch that supports" in reason
    assert "1080 Ti" in reason.split("R580 is the last branch")[1] and "4090" not in reason.split("R580 is the last branch")[1]


def test_working_driver_of_unknown_version_reads_as_such():
    from app.compat import load_db
    from app.facts import DriverInfo, Facts, Gpu, OsInfo, PythonEnv
    from app.recommend import recommend
    facts = Facts(os=OsInfo(platform="linux", id="ubuntu", version_id="24.04", arch="x86_64", package_manager="apt"),
                  driver=DriverInfo(state="ok", version=None, cuda_version="12.8"),
                  gpus=(Gpu(index=0, name="NVIDIA GeForce RTX 4090", compute_capability="8.9"),),
                  python=PythonEnv(path="/usr/bin/python3", version="3.12"))
    rec = recommend(facts, load_db())
    d = rec.driver
    assert "None" not in d.reason and d.current_version is None
    assert d.action == "keep" and d.reason.startswith("Keep driver (version unknown): it runs")
    # only "CUDA 12.8" was readable: the solve assumes the least driver for it, so no CUDA 13 build
    assert rec.pytorch.index and not rec.pytorch.index.startswith("cu13")
    w = next(w for w in rec.warnings if w.code == "driver_version_inferred")
    assert w.params["cuda"] == "12.8" and w.params["floor"] in w.message
