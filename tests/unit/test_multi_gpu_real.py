"""A real two-GPU machine (2 x H200), recorded on the GPU host: detection sees both GPUs from every
source, and verification judged every GPU."""
import json
from pathlib import Path

from app.detect import detect
from app.detect.smi import parse_smi_table
from app.system import SnapshotSystem
from app.verify.model import Verification
from app.verify.session import rejudge

FIX = Path(__file__).resolve().parents[1] / "fixtures"


def test_two_gpus_from_the_recorded_snapshot():
    facts = detect(SnapshotSystem.load(FIX / "real/h200x2/snapshot.json"))
    assert [(g.index, g.name, g.compute_capability, g.pci_id) for g in facts.gpus] == [
        (0, "NVIDIA H200", "9.0", "10de:2335"), (1, "NVIDIA H200", "9.0", "10de:2335")]
    assert len({g.bus_id for g in facts.gpus}) == 2
    assert all(g.pcie_gen_max == 5 and g.pcie_width_max == 16 for g in facts.gpus)
    assert facts.driver.version == "580.159.04" and facts.driver.cuda_version == "13.0"
    assert not [f for f in facts.findings if f.severity == "error"]


def test_two_gpus_from_the_plain_table():
    t = parse_smi_table((FIX / "real/h200x2/nvidia-smi.out").read_text())
    assert (t.driver_version, t.cuda_version) == ("580.159.04", "13.0")
    assert [g["name"] for g in t.gpus] == ["NVIDIA H200", "NVIDIA H200"]
    assert len({g["bus_id"] for g in t.gpus}) == 2 and all(g["memory_total_mib"] == 143771 for g in t.gpus)


def test_every_gpu_was_verified_and_judged_the_same_again():
    v = Verification.from_json(json.loads((FIX / "verify/h200x2_quick.json").read_text()))
    assert [g.index for g in v.gpus] == [0, 1]
    again = rejudge(v)
    assert [(x.name, x.status) for x in again.layers] == [(x.name, x.status) for x in v.layers]
    assert {x.name: x.status for x in again.layers} == {"device": "pass", "bandwidth": "pass", "pytorch": "pass", "load": "pass"}
    for g in v.gpus:
        assert g.bandwidth.h2d_pinned_gbps > 50 and g.bandwidth.d2d_gbps > 4000
        assert g.compute.matmul_tflops["bf16"] > 600
        graph = g.compute.cuda_graph
        # the graph replay is timed on the GPU it belongs to: a real speed-up, not an empty graph
        assert graph.graph_ms > 0.02 and 1.5 < graph.graph_speedup < 20, graph
