"""A release is data: a new PyTorch release and a new GPU generation added as rows to a COPY of
the compat data (and of the GPU table) give the right answer with no code change."""
import copy
import csv
import json
import shutil

import pytest

from app.compat import gpus as gpu_table
from app.compat.db import TABLES, load_db
from app.facts import DriverInfo, Facts, Gpu, OsInfo, PythonEnv
from app.recommend import recommend
from tests.conftest import FIXTURES

PINNED = FIXTURES / "compat-pinned"
SRC = "test row: a release that does not exist, added to prove the solve reads releases from data"


def _rows(d, t):
    return json.loads((d / f"{t}.json").read_text(encoding="utf-8"))


def _save(d, t, doc):
    (d / f"{t}.json").write_text(json.dumps(doc), encoding="utf-8")


@pytest.fixture()
def data(tmp_path):
    d = tmp_path / "compat"
    shutil.copytree(PINNED, d)
    return d


def _facts(cc, driver="999.10.01", py="3.12", name="NVIDIA Future GPU", arch="x86_64"):
    return Facts(os=OsInfo(platform="linux", id="ubuntu", version_id="24.04", arch=arch, package_manager="apt"),
                 driver=DriverInfo(state="ok", version=driver, kernel_module="open"),
                 gpus=(Gpu(index=0, name=name, compute_capability=cc),),
                 python=PythonEnv(path="/usr/bin/python3", version=py))


def _add_release(d, version="2.99.0", cuda="13.9", cuda_full="13.9.0", arch=("7.5", "8.0", "9.0", "10.0", "12.0"), pys=("3.12", "3.13")):
    rel = version.rsplit(".", 1)[0]
    doc = _rows(d, "cuda_releases")
    doc["rows"].append({"cuda": cuda, "version": cuda_full, "label": f"{cuda} GA", "linux_min_driver": "999.10.01",
                        "windows_min_driver": "999.11", "confidence": "secondary", "source": SRC, "checked": "2099-01-01"})
    _save(d, "cuda_releases", doc)
    doc = _rows(d, "driver_branches")
    doc["rows"].append({"branch": "999", "linux_first": "999.10.01", "max_cuda": cuda, "status": "production",
                        "recommended": True, "source": SRC, "checked": "2099-01-01"})
    _save(d, "driver_branches", doc)
    doc = _rows(d, "pytorch_releases")
    newest = doc["rows"][0]
    row = copy.deepcopy(newest)
    row.update(release=rel, version=version, python=list(pys), torchvision="0.99.0", source=SRC, checked="2099-01-01",
               default_variant={"linux": "cu" + cuda.replace(".", ""), "windows": "cpu"})
    doc["rows"].insert(0, row)
    _save(d, "pytorch_releases", doc)
    doc = _rows(d, "pytorch_variants")
    doc["rows"].append({"release": rel, "variant": "cu" + cuda.replace(".", ""), "cuda_runtime": cuda_full, "cudnn": "9.99.0.1",
                        "status": "stable", "os": "linux", "arch_list": list(arch), "ptx": [], "confidence": "verified",
                        "source": SRC, "checked": "2099-01-01"})
    _save(d, "pytorch_variants", doc)


def test_a_new_pytorch_release_is_chosen_from_a_data_row(data):
    before = recommend(_facts("9.0"), load_db(data))
    _add_release(data)
    db = load_db(data)
    rec = recommend(_facts("9.0"), db)
    assert before.pytorch.version != "2.99.0"
    assert (rec.pytorch.version, rec.pytorch.index, rec.pytorch.cuda_runtime) == ("2.99.0", "cu139", "13.9.0")
    assert "torchvision==0.99.0" in rec.pytorch.packages and "torch==2.99.0" in rec.pytorch.packages
    # its Python range is data too: 3.14 is not in the new row, so 3.14 gets the newest release that has it
    rec314 = recommend(_facts("9.0", py="3.14"), db)
    assert rec314.pytorch.version == before.pytorch.version


def test_a_new_gpu_generation_is_served_from_data_rows(data, monkeypatch):
    # CC 13.0, unknown to the pinned data: only a wheel carrying PTX can run on it (JIT)
    before = recommend(_facts("13.0"), load_db(data))
    assert before.pytorch.version is None or "ptx_jit_only" in {w.code for w in before.warnings}
    doc = _rows(data, "compute_capabilities")
    doc["rows"].append({"cc": "13.0", "sm": "sm_130", "architecture": "Testarch", "family": "Testarch", "first_cuda": "13.9",
                        "last_cuda": None, "min_driver_branch": "999", "last_driver_branch": None, "kernel_module": "open_required",
                        "tegra": False, "source": SRC, "checked": "2099-01-01"})
    _save(data, "compute_capabilities", doc)
    _add_release(data, arch=("9.0", "10.0", "12.0", "13.0"))
    db = load_db(data)
    rec = recommend(_facts("13.0", driver="590.44.01"), db)
    assert (rec.pytorch.version, rec.pytorch.index) == ("2.99.0", "cu139")
    assert "ptx_jit_only" not in {w.code for w in rec.warnings}  # real cubins for sm_130 now
    assert rec.driver.action == "upgrade" and rec.driver.branch == "999"  # the new GPU needs the new branch
    assert db.architecture("13.0") == "Testarch"
    # the GPU table's architecture comes from the same data (no second table in code)
    monkeypatch.setenv("GPU_WIZARD_COMPAT_DIR", str(data))
    assert gpu_table.architecture_for_cc("13.0") == "Testarch"
    assert gpu_table.architecture_for_cc("13.1") == "Testarch"  # an unknown minor takes its major's row


def test_a_new_gpu_row_in_a_copy_of_the_gpu_table_is_found_by_pci_id(tmp_path):
    src = gpu_table.resource("compat", "gpus.csv")
    dst = tmp_path / "gpus.csv"
    rows = list(csv.DictReader(open(src, encoding="utf-8")))
    rows.append(dict(pci_device_id="ffee", name="Testarch T1000X", compute_capability="13.0", architecture="Testarch",
                     segment="datacenter", source=SRC, checked="2099-01-01"))
    with open(dst, "w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=gpu_table.COLUMNS)
        w.writeheader()
        w.writerows(rows)
    table = gpu_table.load_table(dst)
    assert table["ffee"].compute_capability == "13.0"


def test_pinned_copy_is_what_the_suite_loads():
    db = load_db()
    assert db.origin == str(PINNED.resolve()) or db.origin == str(PINNED)
    assert all((PINNED / f"{t}.json").is_file() for t in TABLES)
