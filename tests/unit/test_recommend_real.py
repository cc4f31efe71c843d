"""recommend() on Facts detected from real, published outputs (tests/fixtures/real/*, each with
its SOURCE.md): the detection chain and the recommendation together, as a support engineer
would run them on a pasted `nvidia-smi` or `lspci -nn`."""
import pytest
from detect_helpers import read, snapshot

from app.compat import load_db
from app.detect import detect
from app.facts import PythonEnv
from app.recommend import recommend


@pytest.fixture(scope="module")
def db():
    return load_db(use_user_bundle=False)


OS_FILES = {"/etc/os-release": "file_etc_os-release", "/proc/version": "file_proc_version"}  # Ubuntu 24.04 from the H200


def _facts(case, key, name):
    files = {path: read("h200", f) for path, f in OS_FILES.items()}
    f = detect(snapshot(files, {key: read(case, name)}))
    return f.replace(python=PythonEnv(path="/usr/bin/python3", version="3.12.3"))


@pytest.mark.parametrize("case,key,expect", [
    # (fixture, command key, (torch, index, driver action, branch, package, warning codes that must be present))
    ("smi-rtx4090d-550", "nvidia-smi", ("2.14.0", "cu126", "keep", "550", None, {"minor_version_compat_only", "plain_pip_wrong_build"})),
    ("lspci-nodriver-rtx3060", "lspci -nn", ("2.14.0", "cu130", "install", "580", "nvidia-driver-580-open", set())),
    ("lspci-gtx1060", "lspci -nn", ("2.14.0", "cu126", "install", "580", "nvidia-driver-580", {"plain_pip_wrong_build"})),
    ("smi-old-tesla-k80-390", "nvidia-smi", ("2.7.1", "cu118", "upgrade", "470", "nvidia-driver-470", {"gpu_dropped_by_newest"})),
    # no build for sm_35: the driver still goes to R470, Kepler's last branch (issue 28: a target, never "upgrade" to nowhere)
    ("smi-old-tesla-k40m-390", "nvidia-smi", (None, None, "upgrade", "470", "nvidia-driver-470", {"no_release_for_gpu"})),
    ("smi-umd-gtx1650", "nvidia-smi", ("2.14.0", "cu130", "keep", "610", None, set())),
    ("smi-multi-quadro-rtx4000", "nvidia-smi", ("2.14.0", "cu126", "keep", "535", None, {"minor_version_compat_only"})),
    ("smi-rtx-a400-550", "nvidia-smi", ("2.14.0", "cu126", "keep", "550", None, {"minor_version_compat_only"})),
    # 580.82.09 runs cu130 (13.0 Update 2 inside, 580.95.05) only minor: the cu126 build runs fully
    ("smi-truncated-rtx4070-laptop", "nvidia-smi", ("2.14.0", "cu126", "keep", "580", None, set())),
    ("smi-err-v100-azure", "nvidia-smi", ("2.14.0", "cu126", "keep", None, None, {"driver_version_unknown"})),
    ("fail-version-mismatch", "nvidia-smi", ("2.14.0", "cpu", "none", None, None, {"driver_not_working"})),
    ("fail-no-communication", "nvidia-smi", ("2.14.0", "cpu", "none", None, None, {"driver_not_working"})),
])
def test_real_outputs(db, case, key, expect):
    torch, index, action, branch, package, codes = expect
    rec = recommend(_facts(case, key, "nvidia-smi.out" if key == "nvidia-smi" else "lspci-nn.out"), db)
    assert (rec.pytorch.version, rec.pytorch.index) == (torch, index), rec.summary
    assert (rec.driver.action, rec.driver.branch, rec.driver.package) == (action, branch, package), rec.driver.reason
    assert codes <= {w.code for w in rec.warnings}
    if "driver_not_working" in codes:  # a broken driver hides the GPU: never tell the user there is none
        assert "no_nvidia_gpu" not in {w.code for w in rec.warnings}
