"""NVIDIA vGPU guests: the GPU is a slice ("GRID V100D-8C", "GRID T4-4C", "NVIDIA A100-4-20C") and the guest
driver comes with the vGPU software release that matches the hypervisor's vGPU Manager (NVIDIA Virtual GPU
Software User Guide; the Alliance's vGPU page warns that a CUDA package must not overwrite it). The wizard
names the board's capability, picks the newest PyTorch that guest driver runs, and never installs a driver."""
from __future__ import annotations

import pytest
from detect_helpers import read, snapshot

from app.compat import load_db
from app.compat.gpus import cc_from_name, vgpu_board
from app.detect import detect
from app.facts import PythonEnv
from app.plan import build_plan
from app.recommend import recommend
from tests.unit.test_recommend_machines import machine


@pytest.fixture(scope="module")
def db():
    return load_db(use_user_bundle=False)


@pytest.mark.parametrize("name,board,cc", [
    ("GRID V100D-8C", "V100D", "7.0"), ("GRID T4-4C", "T4", "7.5"), ("GRID T4-16Q", "T4", "7.5"),
    ("GRID P40-12Q", "P40", "6.1"), ("GRID P100-16Q", "P100", "6.0"), ("GRID A16-2Q", "A16", "8.6"),
    ("NVIDIA A100-4-20C", "A100", "8.0"), ("GRID RTX6000-24Q", "RTX6000", "7.5"), ("NVIDIA L40S-48Q", "L40S", "8.9"),
    ("NVIDIA H100XM-80C", "H100XM", "9.0"), ("GRID M60-8Q", "M60", "5.2"),
    # boards, not vGPUs (the GRID K520 is the physical Kepler board of AWS g2 instances)
    ("GRID K520", None, "3.0"), ("NVIDIA A100-SXM4-40GB", None, "8.0"), ("Tesla V100-SXM2-16GB", None, "7.0"),
    ("NVIDIA H100 80GB HBM3", None, "9.0"), ("NVIDIA A10G", None, "8.6"),
])
def test_vgpu_names(name, board, cc):
    assert vgpu_board(name) == board
    assert cc_from_name(name) == cc


def test_real_vgpu_guest_table_keeps_its_driver(db):
    files = {"/etc/os-release": read("h200", "file_etc_os-release"), "/proc/version": read("h200", "file_proc_version")}
    facts = detect(snapshot(files, {"nvidia-smi": read("smi-grid-v100d-vgpu-550", "nvidia-smi.out")}))
    facts = facts.replace(python=PythonEnv(path="/usr/bin/python3", version="3.12.3"))
    (g,) = facts.gpus
    assert g.name == "GRID V100D-8C" and g.compute_capability == "7.0" and g.memory_total_mib == 8192
    rec = recommend(facts, db)
    codes = {w.code for w in rec.warnings}
    assert "gpu_unknown" not in codes and "vgpu_guest_driver" in codes
    # sm_70 is only in cu126 from 2.11 on; R550 runs CUDA 12.6 by minor-version compatibility
    assert rec.pytorch.index == "cu126" and rec.driver.action == "keep"


def test_old_vgpu_guest_driver_is_never_replaced(db):
    """GRID T4-4C on guest driver 470.103.01 (a public setup note's nvidia-smi): a bare-metal T4 would get R580;
    a vGPU guest keeps its driver, runs the newest release that driver can, and is told where a newer one comes from."""
    facts = machine("u2204", [("GRID T4-4C", None)], "470.103.01", "3.10")
    rec = recommend(facts, db)
    assert rec.driver.action == "keep" and rec.driver.package is None and rec.driver.branch in (None, "470")
    assert rec.pytorch.index == "cu118"  # 11.x on R470 by minor-version compatibility
    codes = {w.code for w in rec.warnings}
    assert {"vgpu_guest_driver", "driver_too_old_for_newest"} <= codes
    plan = build_plan(facts, rec)
    assert not [s for s in plan.steps if "driver" in s.id and s.kind != "verify"], [s.id for s in plan.steps]
    bare = recommend(machine("u2204", [("Tesla T4", "7.5")], "470.103.01", "3.10"), db)
    assert bare.driver.action == "upgrade"  # the same board on bare metal is upgraded


def test_vgpu_guest_without_a_usable_driver_says_where_it_comes_from(db):
    facts = machine("u2204", [("GRID T4-16Q", None)], "418.67", "3.10")
    rec = recommend(facts, db)
    assert rec.driver.package is None and rec.driver.reason_code == "driver_vgpu_update", rec.driver
    assert "vGPU" in rec.driver.reason
    from app import messages as M
    zh = M.render("rec", rec.driver.reason_code, rec.driver.reason_params, "zh_CN")
    assert "vGPU" in zh and "guest driver" not in zh
