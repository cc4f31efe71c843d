"""GPUs known only by their PCI id (a pasted `lspci -nn`, no driver yet): every device id pci.ids names for
the Hopper, Blackwell and Blackwell Ultra data-centre boards and the RTX PRO Blackwell line resolves to its
compute capability (pciutils/pciids pci.ids, NVIDIA section; CC by chip from developer.nvidia.com/cuda-gpus),
and a name that pci.ids gives to two chips (GeForce GTX 860M: Kepler GK104M 119a and Maxwell GM107M 1392) is
decided by the PCI id, never by file order."""
import pytest
from detect_helpers import snapshot

from app.compat import load_db
from app.compat.gpus import lookup_pci, name_ambiguous
from app.detect import detect
from app.recommend import recommend

# device id, pci.ids name, capability; lines as lspci -nn prints them (class, vendor name, [10de:id], rev)
BOARDS = [
    ("2321", "GH100 [H100L 94GB]", "9.0"),  # NVML calls it "NVIDIA H100 NVL"
    ("233b", "GH100 [H200 NVL]", "9.0"),
    ("31c2", "GB110 [GB300]", "10.3"),
    ("29bc", "GB102 [B100]", "10.0"),
    ("2c3a", "GB203GL [RTX PRO 4500 Blackwell Server Edition]", "12.0"),
    ("2d30", "GB206GL [RTX PRO 2000 Blackwell]", "12.0"),
    ("27b6", "AD104GL [L2]", "8.9"),
    ("20b8", "GA100 [A100X]", "8.0"),
    ("119a", "GK104M [GeForce GTX 860M]", "3.0"),
    ("1392", "GM107M [GeForce GTX 860M]", "5.0"),
]


@pytest.fixture(scope="module")
def db():
    return load_db(use_user_bundle=False)


@pytest.mark.parametrize("pid,name,cc", BOARDS)
def test_lspci_only_board_has_its_capability(pid, name, cc, db):
    line = f"41:00.0 3D controller [0302]: NVIDIA Corporation {name} [10de:{pid}] (rev a1)\n"
    f = detect(snapshot({}, {"lspci -nn": line}))
    assert len(f.gpus) == 1, f.gpus
    g = f.gpus[0]
    assert g.pci_id == f"10de:{pid}" and g.compute_capability == cc
    assert lookup_pci(pid).compute_capability == cc
    rec = recommend(f, db)
    assert "gpu_unknown" not in {w.code for w in rec.warnings}


def test_a_name_of_two_chips_is_ambiguous_by_name_alone():
    assert {m.pci_id for m in name_ambiguous("NVIDIA GeForce GTX 860M")} == {"10de:119a", "10de:1392"}
