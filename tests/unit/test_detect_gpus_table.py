"""resources/compat/gpus.csv and its lookups."""
import csv
import re

import pytest

from app.compat import gpus
from app.paths import resource


def test_table_is_valid_and_every_row_cites_a_source():
    table = gpus.load_table()
    assert len(table) > 250
    with open(resource("compat", "gpus.csv"), encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    for r in rows:
        assert re.fullmatch(r"[0-9a-f]{4}", r["pci_device_id"])
        assert r["source"] and r["checked"]
        assert gpus.architecture_for_cc(r["compute_capability"]) == r["architecture"]


@pytest.mark.parametrize("dev,name,cc", [
    ("2335", "H200 SXM 141GB", "9.0"), ("2684", "GeForce RTX 4090", "8.9"), ("2717", "GeForce RTX 4090 Laptop GPU", "8.9"),
    ("102d", "Tesla K80", "3.7"), ("2901", "B200", "10.0"), ("1184", "GeForce GTX 770", "3.0"), ("1380", "GeForce GTX 750 Ti", "5.0"),
    ("2b85", "GeForce RTX 5090", "12.0"), ("1eb8", "Tesla T4", "7.5"), ("20b2", "A100 SXM4 80GB", "8.0"), ("26b1", "RTX 6000 Ada Generation", "8.9"),
])
def test_lookup_pci(dev, name, cc):
    m = gpus.lookup_pci(dev)
    assert (m.name, m.compute_capability) == (name, cc)
    assert gpus.lookup_pci(f"0x{dev.upper()}10DE") == m and gpus.lookup_pci(f"10de:{dev}") == m


def test_segments_cover_laptops_workstations_datacenter():
    segs = {m.segment for m in gpus.load_table().values()}
    assert segs == {"geforce", "geforce_laptop", "workstation", "datacenter"}
    assert gpus.lookup_pci("2717").is_laptop and not gpus.lookup_pci("2684").is_laptop


@pytest.mark.parametrize("name,cc", [
    ("RTX 4090", "8.9"), ("NVIDIA GeForce RTX 4090", "8.9"), ("GeForce GTX 1080 Ti", "6.1"), ("NVIDIA GeForce RTX 4090 Lap...", "8.9"),
    ("NVIDIA H200", "9.0"), ("Tesla V100-SXM2-16GB", "7.0"), ("NVIDIA A100-SXM4-80GB", "8.0"), ("Quadro RTX 4000", "7.5"),
    ("NVIDIA RTX A400", "8.6"), ("Tesla K40m", "3.5"), ("GA106 [GeForce RTX 3060 Lite Hash Rate]", "8.6"),
])
def test_lookup_name_robust(name, cc):
    assert gpus.cc_from_name(name) == cc


def test_truncated_laptop_name_prefers_laptop_row():
    assert gpus.lookup_name("NVIDIA GeForce RTX 4090 Lap...").pci_device_id in ("2717", "2757")
    assert gpus.lookup_name("NVIDIA GeForce RTX 40...") is None  # ambiguous: RTX 40xx vs Quadro RTX 4000


@pytest.mark.parametrize("name,cc", [("NVIDIA GeForce RTX 5070 Ti Laptop GPU", "12.0"), ("GeForce GTX 780M", "3.0"),
                                     ("NVIDIA GeForce RTX 2050", "8.6"), ("NVIDIA L40S", "8.9"), ("NVIDIA B300", "10.3"),
                                     ("Some Future GPU", None)])
def test_cc_from_name_when_not_in_table(name, cc):
    assert gpus.cc_from_name(name) == cc


def test_architecture_and_normalize():
    assert gpus.architecture_for_cc("8.9") == "Ada Lovelace" and gpus.architecture_for_cc("12.0") == "Blackwell"
    assert gpus.architecture_for_cc("1.0") is None
    assert gpus.normalize_cc("sm_120") == "12.0" and gpus.normalize_cc((8, 6)) == "8.6" and gpus.normalize_cc("86") == "8.6"
