"""Typed queries of the CompatDB (facts only, no 'best' logic)."""
import pytest

from app.compat import load_db, vkey


@pytest.fixture(scope="module")
def db():
    return load_db(use_user_bundle=False)


@pytest.mark.parametrize("driver,platform,expected", [
    ("580.159.04", "linux", "13.0"),  # the real H200: nvidia-smi says CUDA Version: 13.0
    ("580.65.06", "linux", "13.0"),
    ("575.57.08", "linux", "12.9"),
    ("570.86.10", "linux", "12.8"),
    ("560.35.03", "linux", "12.6"),
    ("550.54.14", "linux", "12.4"),
    ("535.129.03", "linux", "12.2"),
    ("525.60.13", "linux", "12.0"),
    ("520.61.05", "linux", "11.8"),
    ("470.239.06", "linux", "11.4"),
    ("450.51.06", "linux", "11.0"),
    ("440.33.01", "linux", None),
    ("595.71.05", "linux", "13.2"),
    ("561.17", "windows", "12.6"),
    ("572.61", "windows", "12.8"),
    ("537.13", "wsl", "12.2"),  # WSL2 runs the Windows driver: Windows column
    ("581.57", "windows", "13.0"),
    (None, "linux", None),
    ("garbage", "linux", None),
])
def test_max_cuda_for_driver(db, driver, platform, expected):
    assert db.max_cuda_for_driver(driver, platform) == expected


def test_minor_compat_floors(db):
    assert db.minor_compat_floor(12, "linux") == "525.60.13"
    assert db.minor_compat_floor("13", "linux") == "580"
    assert db.minor_compat_floor("11", "linux") == "450.80.02"
    assert db.minor_compat_floor("12", "windows") == "528.33"
    assert db.minor_compat_floor("12", "wsl") == "528.33"
    assert db.minor_compat_floor("10", "linux") is None


@pytest.mark.parametrize("driver,runtime,expected", [
    ("580.159.04", "13.0.2", "full"),
    ("580.159.04", "13.2.1", "minor"),
    ("580.159.04", "12.8.1", "full"),
    ("580.82.07", "13.0.2", "minor"),  # full support is per update release (Table 3: 13.0 Update 2 needs 580.95.05)
    ("580.95.05", "13.0.2", "full"),
    ("560.28.03", "12.6.3", "minor"),  # 12.6 Update 3 needs 560.35.05
    ("560.28.03", "12.6", "full"),  # a bare X.Y: its GA row
    ("555.42.06", "12.6.3", "minor"),
    ("535.129.03", "12.8.1", "minor"),
    ("525.60.13", "12.6.3", "minor"),
    ("520.61.05", "12.6.3", None),
    ("470.239.06", "11.8.0", "minor"),
    ("450.51.06", "11.8.0", None),  # below the 11.x floor 450.80.02
    ("570.124.06", "13.0.2", None),  # never across majors
])
def test_driver_compat(db, driver, runtime, expected):
    assert db.driver_compat(driver, runtime, "linux") == expected


def test_architectures_and_kernel_modules(db):
    assert db.architecture("8.9") == "Ada Lovelace"
    assert db.architecture("9.0") == "Hopper"
    assert db.architecture("12.0") == "Blackwell"
    assert db.architecture("3.7") == "Kepler"
    assert db.cc_info("3.5").last_driver_branch == "470"
    assert db.cc_info("6.1").last_driver_branch == "580"
    assert db.cc_info("6.1").kernel_module == "proprietary_only"
    assert db.cc_info("7.5").kernel_module == "open_recommended"
    assert db.cc_info("10.0").kernel_module == "open_required"
    assert db.cc_info("8.8").cc == "8.6"  # unknown minor: nearest lower desktop row of the same major
    assert db.cc_info(None) is None


def test_variant_coverage_binary_compat_rules(db):
    v = db.variant("2.14", "cu130", "linux")
    assert v.covers("9.0") == "sass"
    assert v.covers("8.9") == "sass"  # sm_86 SASS runs on 8.9
    assert v.covers("12.1") == "sass"  # sm_120 runs on 12.1
    assert v.covers("6.1") is None  # CUDA 13 dropped Pascal
    cu126 = db.variant("2.14", "cu126", "linux")
    assert cu126.covers("6.1") == "sass"  # sm_60 SASS on 6.1
    assert cu126.covers("12.0") is None  # Blackwell never in cu126
    k = db.variant("2.7", "cu118", "linux")
    assert k.covers("3.7") == "sass" and k.covers("3.5") is None  # sm_37 does not run on 3.5


def test_windows_lists_differ(db):
    lin = db.variant("2.10", "cu128", "linux")
    win = db.variant("2.10", "cu128", "windows")
    assert "7.0" in lin.arch_list and "7.0" not in win.arch_list
    assert "6.1" in db.variant("2.14", "cu126", "windows").arch_list


def test_releases_newest_first_and_lookup(db):
    vs = [r.version for r in db.torch_releases]
    assert vs == sorted(vs, key=vkey, reverse=True)
    assert db.torch_release("2.9").version == "2.9.1"
    assert db.torch_release("2.9.1").torchvision == "0.24.1"
    assert db.torch_release("2.9.0") is None
    assert db.torch_release("2.14").default_for("linux") == "cu130"
    assert db.torch_release("2.14").default_for("windows") == "cpu"


def test_repos(db):
    assert db.repo_for("ubuntu", "24.04").repo == "ubuntu2404"
    assert db.repo_for("ubuntu", "22.04", wsl=True).repo == "wsl-ubuntu"
    assert db.repo_for("rocky", "9.4").repo == "rhel9"
    assert db.repo_for("linuxmint", "21.3", id_like=("ubuntu",)) is None  # Mint's version id is not Ubuntu's
    assert db.repo_for("arch", None) is None
    r = db.repo_for("ubuntu", "20.04")
    assert "12.9" in db.repo_toolkits(r) and "13.0" not in db.repo_toolkits(r)
    assert r.package_for("12.8") == "cuda-toolkit-12-8"


def test_cudnn_for(db):
    assert db.cudnn_for("13.0", ["9.0"]).package == "cudnn9-cuda-13"
    pascal = db.cudnn_for("12.6", ["6.1"])
    assert pascal.cudnn == "9.10.2"  # 9.17 dropped Pascal
    assert db.cudnn_for("12.8", ["12.0"]).cudnn == "9.17.0"


def test_driver_packages(db):
    assert db.driver_package("ubuntu", "open", "580") == "nvidia-driver-580-open"
    assert db.driver_package("ubuntu", "proprietary", "470") == "nvidia-driver-470"
    assert db.driver_package("pop", "open", "580", id_like=("ubuntu", "debian")) == "nvidia-driver-580-open"
    assert db.driver_package("arch", "open", "580") is None


def test_load_is_cached(db):
    assert load_db(use_user_bundle=False) is db


def test_aarch64_wheels(db):
    v = db.variant("2.14", "cu130", "linux_aarch64")
    assert v.covers("9.0") == "sass" and v.covers("12.1") == "sass"  # GH200, GB10
    assert v.covers("7.5") is None  # SBSA wheels start at sm_80
    assert db.variant("2.11", "cu130", "linux_aarch64") is None  # not in the data: said plainly by recommend()
    assert db.torch_release("2.14").default_for("linux_aarch64") == "cu130"


def test_min_driver_full_ga_and_exact(db):
    assert db.min_driver_full("12.6.3") == "560.28.03"
    assert db.min_driver_full("12.6.3", exact=True) == "560.35.05"
    assert db.min_driver_full("12.8", "windows") == "570.65"
