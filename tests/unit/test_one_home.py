"""One home per fact: one arch-coverage function, one version module, GPU architecture from the data."""
import pytest

from app.compat import arch, gpus, version
from app.compat.db import load_db


def test_detect_verify_diagnose_and_solve_share_one_arch_coverage():
    from app.detect import python_env
    from app.diagnose import evidence
    from app.verify import verdicts

    assert python_env.arch_covers is verdicts.arch_covers is evidence.arch_covers is arch.arch_covers


@pytest.mark.parametrize("codes,cc,how", [
    (["sm_90a"], "9.0", "sass"), (["sm_90a"], "10.0", None), (["sm_100a"], "10.3", None),  # arch-specific: that CC only
    (["sm_100f"], "10.3", "sass"), (["sm_100f"], "12.0", None),  # family-specific: same major
    (["sm_80"], "8.6", "sass"), (["sm_86"], "8.0", None), (["compute_90"], "12.0", "ptx"), (["compute_90a"], "10.0", None),
    (["8.0"], "8.9", "sass"), ([], "9.0", None), (["sm_90"], "junk", None),
])
def test_coverage_rules(codes, cc, how):
    assert arch.coverage(codes, cc) == how


def test_the_solver_variant_uses_the_same_rules():
    db = load_db()
    v = db.torch_variants[0]
    for cc in ("3.7", "6.1", "8.6", "9.0", "12.0", "12.1"):
        assert v.covers(cc) == arch.coverage(v.arch_list, cc, v.ptx)


@pytest.mark.parametrize("raw,tag,cp", [("3.13", "3.13", "cp313"), ("3.13t", "3.13t", "cp313t"), ("3.13.1t", "3.13t", "cp313t"),
                                        ("cp314t", "3.14t", "cp314t"), ("3.12.7", "3.12", "cp312"), ("Python 3.14", "3.14", "cp314"),
                                        ("3.14+freethreaded", "3.14t", "cp314t"), ("3.13x", None, None), ("junk", None, None), ("313", None, None)])
def test_python_tags(raw, tag, cp):
    assert version.python_tag(raw) == tag
    assert version.cp_tag(raw) == cp


def test_version_keys():
    assert version.vkey("580.159.04") == (580, 159, 4) and version.vkey("2.9.1+cu128") == (2, 9, 1)
    assert version.version_tuple("abc") is None and version.branch_of("550.54.14") == "550"
    from app.plan import windows

    assert windows.driver_too_old("527.10", "527.41") and not windows.driver_too_old("581.57", "527.41")


def test_architecture_comes_from_the_compute_capability_table():
    db = load_db()
    for c in db.compute_capabilities:
        if not c.tegra:
            assert gpus.architecture_for_cc(c.cc) == c.architecture.split(" (")[0]
    assert not hasattr(gpus, "_ARCH_BY_CC")


def test_a_name_that_means_two_gpus_is_never_picked_by_file_order():
    # pci.ids: 10de:11c7 GK106 [GeForce GTX 750 Ti] (OEM Kepler), 10de:1380 GM107 [GeForce GTX 750 Ti] (retail Maxwell)
    both = gpus.name_ambiguous("NVIDIA GeForce GTX 750 Ti")
    assert {m.pci_device_id for m in both} == {"11c7", "1380"}
    assert gpus.lookup_name("NVIDIA GeForce GTX 750 Ti") is None
    assert gpus.cc_from_name("NVIDIA GeForce GTX 750 Ti") is None
    assert gpus.lookup_pci("10de:1380").compute_capability == "5.0"
    assert gpus.lookup_pci("0x11c710DE").compute_capability == "3.0"


def test_truncated_names_follow_the_memory_column():
    assert gpus.lookup_name("Tesla V100-SXM2...", 32480).name == "Tesla V100 SXM2 32GB"
    assert gpus.lookup_name("Tesla V100-SXM2...", 16160).name == "Tesla V100 SXM2 16GB"
    assert gpus.lookup_name("Tesla P100-PCIE...", 16384).name == "Tesla P100 PCIe 16GB"
    assert gpus.lookup_name("Tesla P100-PCIE...", 12198).name == "Tesla P100 PCIe 12GB"


def test_free_threaded_python_is_kept_by_detection_and_the_cli():
    from app.detect import python_env
    from app.facts import DriverInfo, Facts, OsInfo
    from app.overrides import OverrideError, apply_overrides

    # `python3.13t -VV` on a free-threaded CPython build (docs.python.org/3.13/howto/free-threading-python.html)
    assert python_env.parse_python_version("Python 3.13.1 experimental free-threading build (main, Dec  4 2024)") == "3.13.1t"
    assert python_env.parse_python_version("Python 3.13.1") == "3.13.1"

    class Sys:
        def readlink(self, p):
            return {"/usr/bin/python3": "python3.13t"}.get(p)

    assert python_env.version_from_path(Sys(), "/usr/bin/python3") == "3.13t"
    f = apply_overrides(Facts(os=OsInfo(platform="linux"), driver=DriverInfo(state="not_installed")), python_version="3.13t")
    assert f.python.version == "3.13t"
    with pytest.raises(OverrideError):
        apply_overrides(Facts(os=OsInfo(platform="linux"), driver=DriverInfo(state="not_installed")), python_version="3.13x")
