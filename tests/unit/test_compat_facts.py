"""The bundled data's own facts (resources/compat, not the pinned copy): each checked against the
public source its row cites; and the solve on that data for the machines issue 19 found wrong."""
import pytest

from app.choices import Choices
from app.compat.db import load_db
from app.facts import DriverInfo, Facts, Gpu, OsInfo, PythonEnv
from app.paths import resource
from app.recommend import recommend


@pytest.fixture(scope="module")
def db():
    return load_db(resource("compat"))


def test_torch_2_15_0_and_2_14_1(db):
    r = db.torch_release("2.15")
    # PyPI torch 2.15.0: Requires-Python >=3.11, cp311-cp315, cp314t, cp315t, no cp313t; CUDA 13.2.2, cuDNN 9.26.0.51
    assert r.version == "2.15.0" and r.default_for("linux") == "cu132" and r.torchvision is None
    assert r.python[0] == "3.11" and "3.15" in r.python and "3.14t" in r.python and "3.13t" not in r.python and "3.10" not in r.python
    v = db.variant("2.15", "cu132", "linux")
    assert (v.cuda_runtime, v.cudnn) == ("13.2.2", "9.26.0.51")
    assert db.variant("2.15", "cu132", "linux_aarch64") is not None
    r = db.torch_release("2.14")
    assert (r.version, r.torchvision) == ("2.14.1", "0.29.1") and db.variant("2.14", "cu130", "linux").cuda_runtime == "13.0.3"


def test_python_rows_and_cudnn_fixed(db):
    assert "3.13t" in db.torch_release("2.9").python  # torch-2.9.1-cp313-cp313t wheels
    assert "3.12" in db.torch_release("2.2").python and "3.12" in db.torch_release("2.3").python  # cp312 wheels
    assert {v.cudnn for v in db.torch_variants if v.release == "2.11" and v.variant in ("cu130", "cu128")} <= {"9.19.0.56"}


def test_aarch64_wheels_start_with_2_6(db):
    first = min((r for r in db.torch_releases if db.variants(r.release, "linux_aarch64")), key=lambda r: tuple(map(int, r.release.split("."))))
    assert first.release == "2.6"
    assert not db.variants("2.5", "linux_aarch64")
    assert {r.repo for r in db.nvidia_repos if r.arch == "sbsa"} >= {"ubuntu2204", "ubuntu2404"}


def test_driver_branches_and_floors(db):
    assert db.branch("620").max_cuda == "13.5" and db.branch("620").eol == "2029-09"
    for b in ("535", "570", "610"):  # past their end of support on 2026-12-01
        assert db.branch(b).ended("2026-12-01"), b
    assert not db.branch("580").ended("2026-12-01") and not db.branch("595").ended("2026-12-01")
    assert db.minor_compat_floor("12", "windows") == "527.41"  # NVIDIA CUDA Compatibility guide, current edition
    for r in db.cuda_releases:
        if r.cuda.startswith("13."):
            assert r.confidence_for("windows") == "inferred", r.version


def _facts(gpus, driver=None, py="3.12", os_key="u2404", kernel_module=None, state=None):
    os_ = {"u2404": dict(platform="linux", id="ubuntu", version_id="24.04", arch="x86_64", package_manager="apt"),
           "arm": dict(platform="linux", id="ubuntu", version_id="24.04", arch="aarch64", package_manager="apt"),
           "wsl2": dict(platform="linux", id="ubuntu", version_id="22.04", arch="x86_64", package_manager="apt", wsl=2, wsl_dxg=True)}[os_key]
    d = DriverInfo(state=state or ("host" if os_key == "wsl2" else "ok"), version=driver, kernel_module=kernel_module) if driver else DriverInfo(state="not_installed")
    return Facts(os=OsInfo(**os_), driver=d, gpus=tuple(Gpu(index=i, name=n, compute_capability=c) for i, (n, c) in enumerate(gpus)),
                 python=PythonEnv(path="/usr/bin/python3", version=py))


def test_newest_complete_set_and_torch_alone(db):
    rec = recommend(_facts([("NVIDIA H200", "9.0")], "580.159.04"), db)
    assert rec.pytorch.packages == ("torch==2.14.1", "torchvision==0.29.1")
    assert any(w.code == "torchvision_not_released" and w.params["newer"] == "2.15.0" for w in rec.warnings)
    alone = recommend(_facts([("NVIDIA H200", "9.0")], "595.71.05"), db, Choices(want_torchvision=False))
    assert alone.pytorch.packages == ("torch==2.15.0",) and alone.pytorch.index == "cu132"


def test_free_threaded_python_gets_a_release_with_its_wheels(db):
    rec = recommend(_facts([("NVIDIA GeForce RTX 4090", "8.9")], "580.95.05", py="3.13t"), db)
    assert rec.pytorch.python == "3.13t" and "3.13t" in db.torch_release(rec.pytorch.version).python
    assert rec.pytorch.version == "2.12.0"  # 2.12.0 still has cp313t wheels; 2.12.1-2.15 publish cp314t, not cp313t
    assert recommend(_facts([("NVIDIA GeForce RTX 4090", "8.9")], "580.95.05", py="3.14t"), db).pytorch.version == "2.14.1"


def test_retail_gtx750ti_by_name_on_a_550_driver_is_maxwell(db):
    rec = recommend(_facts([("NVIDIA GeForce GTX 750 Ti", None)], "550.120"), db)
    assert rec.pytorch.index != "cpu" and rec.driver.branch != "470"  # a 550 driver rules out the Kepler GK106


def test_grace_hopper_needs_open_modules(db):
    rec = recommend(_facts([("NVIDIA GH200 480GB", "9.0")], None, os_key="arm"), db)
    w = next(w for w in rec.warnings if w.code == "grace_open_module_required")
    assert rec.driver.flavour == "open" and w.severity == "info"
    assert rec.cuda_toolkit.reason_code != "toolkit_runfile" or True
    bad = recommend(_facts([("NVIDIA GH200 480GB", "9.0")], "580.95.05", os_key="arm", kernel_module="proprietary"), db)
    assert next(w for w in bad.warnings if w.code == "grace_open_module_required").severity == "error"
    assert bad.driver.action in ("install", "upgrade")


def test_wsl_with_a_too_old_host_driver_never_says_it_supports_the_build(db):
    rec = recommend(_facts([("NVIDIA GeForce RTX 3080", "8.6")], "472.12", py="3.10", os_key="wsl2"), db)
    assert "fully supports" not in rec.pytorch.reason and rec.pytorch.reason_code == "torch_newest_needs_driver"
    assert rec.driver.reason_code == "driver_host_update"
