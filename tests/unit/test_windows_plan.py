"""The full plan for a Windows host, through the demo snapshot and variants: driver, features
(DISM, UAC only there), WSL update, distro install or conversion, then the Linux side."""
import copy
import json

import pytest

from app.choices import Choices
from app.compat.db import load_db
from app.detect import detect
from app.detect import smi as smi_mod
from app.detect import windows as W
from app.paths import resource
from app.plan import build_plan
from app.plan.model import validate_step
from app.plan.windows import DEFAULT_DISTRO, build_windows_plan, driver_too_old, linux_side_argv, pick_distro
from app.recommend import recommend
from app.run.privileged import argv_allowed
from app.system import SnapshotSystem, command_key
from tests.conftest import FIXTURES

WIN = FIXTURES / "real" / "windows"
DEMO = json.loads(resource("snapshots", "windows-laptop-rtx4060-nowsl.json").read_text())


@pytest.fixture(scope="module")
def db():
    return load_db(use_user_bundle=False)


def _plan(data, db, choices=Choices()):
    facts = detect(SnapshotSystem(copy.deepcopy(data), name="win"))
    rec = recommend(facts, db, choices)
    return facts, rec, build_plan(facts, rec, choices, created="2026-11-29T00:00:00+00:00")


def _with_wsl(listing: str, status: str) -> dict:
    d = copy.deepcopy(DEMO)
    d["commands"][command_key(W.WSL_STATUS_ARGV)] = {"rc": 0, "stdout": status, "stderr": ""}
    d["commands"][command_key(W.WSL_LIST_ARGV)] = {"rc": 0, "stdout": listing, "stderr": ""}
    return d


def _root_steps_are_allowed(plan):
    for s in plan.steps:
        assert validate_step(s) == []
        if s.needs_root:
            for argv in s.commands:
                assert argv_allowed(s.kind, list(argv)), (s.id, argv)


def test_laptop_without_wsl_enables_features_then_stops_for_the_restart(db):
    facts, rec, plan = _plan(DEMO, db)
    assert plan.platform == "windows"
    ids = [s.id for s in plan.steps if s.kind == "windows_host"]
    assert ids == ["enable_wsl_features"]  # the 591.86 driver is recent enough: no driver step
    s = plan.step("enable_wsl_features")
    assert s.needs_root and s.reboot_required
    assert s.commands == (
        ("dism.exe", "/online", "/enable-feature", "/featurename:Microsoft-Windows-Subsystem-Linux", "/all", "/norestart"),
        ("dism.exe", "/online", "/enable-feature", "/featurename:VirtualMachinePlatform", "/all", "/norestart"))
    assert any(DEFAULT_DISTRO in n for n in s.notes)
    _root_steps_are_allowed(plan)


def test_old_driver_points_to_the_download(db):
    d = _with_wsl((WIN / "wsl_l_v_ubuntu2204.txt").read_text(), (WIN / "wsl_status_2022.txt").read_text())
    smi = r"C:\Windows\System32\nvidia-smi.exe"
    d["commands"][smi]["stdout"] = (WIN / "smi_win_517_two_gpus.out").read_text()
    d["commands"].pop(command_key(smi_mod.query_argv(W.SMI_QUERY_FIELDS, exe=smi)))
    facts, rec, plan = _plan(d, db)
    assert facts.driver.version == "517.48"
    s = plan.step("update_nvidia_windows_driver")
    assert s is not None and not s.needs_root
    assert s.commands == (("rundll32", "url.dll,FileProtocolHandler", W.DRIVER_DOWNLOAD_URL),)


def test_existing_wsl2_ubuntu_goes_straight_to_the_gpu_check(db):
    d = _with_wsl((WIN / "wsl_l_v_ubuntu2204.txt").read_text(), (WIN / "wsl_status_2022.txt").read_text())
    facts, _, plan = _plan(d, db)
    host = [s.id for s in plan.steps if s.kind == "windows_host"]
    assert host == ["configure_wsl_memory", "check_wsl_gpu"]  # 16 GB laptop: WSL 2 gets 8, the 8 GB GPU wants 16
    s = plan.step("check_wsl_gpu")
    assert s.commands == (("wsl", "-d", "Ubuntu-22.04", "--", "/usr/lib/wsl/lib/nvidia-smi"),)
    assert "wsl -d Ubuntu-22.04 -- gpu-wizard install" in s.notes[0]
    _root_steps_are_allowed(plan)


def test_wsl1_ubuntu_is_converted_and_default_version_set(db):
    listing = "  NAME            STATE           VERSION\n* Ubuntu          Stopped         1\n"
    d = _with_wsl(listing, "Default Distribution: Ubuntu\nDefault Version: 1\n")
    _, _, plan = _plan(d, db)
    host = [s.id for s in plan.steps if s.kind == "windows_host"]
    assert host == ["set_wsl_default_version", "set_wsl_distro_version", "configure_wsl_memory", "check_wsl_gpu"]
    assert plan.step("set_wsl_distro_version").commands == (("wsl", "--set-version", "Ubuntu", "2"),)
    assert not plan.step("set_wsl_distro_version").needs_root


def test_wsl_without_distro_installs_ubuntu_2404(db):
    d = _with_wsl((WIN / "wsl_l_v_none.txt").read_text(), (WIN / "wsl_status_short.txt").read_text())
    _, _, plan = _plan(d, db)
    s = plan.step("install_wsl_distro")
    assert s.commands == (("wsl", "--install", "-d", "Ubuntu-24.04", "--no-launch"),)
    assert plan.step("check_wsl_gpu") is None  # the new distro needs its first start before anything runs in it
    assert any("wsl -d Ubuntu-24.04 -- gpu-wizard install" in n for n in s.notes)


def test_vmp_missing_and_old_kernel(db):
    d = _with_wsl((WIN / "wsl_l_v_ubuntu2204.txt").read_text(),
                  "Default Distribution: Ubuntu-22.04\nDefault Version: 2\nWSL 2 requires an update to its kernel component. Please run 'wsl.exe --update'.\n")
    _, _, plan = _plan(d, db)
    assert plan.step("update_wsl").commands == (("wsl", "--update"),) and plan.step("update_wsl").needs_root
    d2 = _with_wsl((WIN / "wsl_l_v_ubuntu2204.txt").read_text(),
                   "Please enable the Virtual Machine Platform Windows feature and ensure virtualization is enabled in the BIOS.")
    _, _, plan2 = _plan(d2, db)
    assert plan2.step("enable_wsl_features").commands == (
        ("dism.exe", "/online", "/enable-feature", "/featurename:VirtualMachinePlatform", "/all", "/norestart"),)


def test_helpers():
    assert driver_too_old("517.48", "528.33") and not driver_too_old("591.86", "580")
    assert driver_too_old(None, "528.33")
    assert linux_side_argv("Ubuntu-24.04") == ("wsl", "-d", "Ubuntu-24.04", "--", "gpu-wizard", "install")
    with pytest.raises(ValueError):
        linux_side_argv("Ubuntu; rm -rf /")


def test_builder_ignores_linux_facts(db):
    from app.facts import Facts
    from app.recommendation import Recommendation

    assert build_windows_plan(Facts(), Recommendation(), Choices()) == []
    assert pick_distro(Facts(), Choices()) == (DEFAULT_DISTRO, None)


def test_wsl_memory_from_the_windows_side(db):
    d = _with_wsl((WIN / "wsl_l_v_ubuntu2204.txt").read_text(), (WIN / "wsl_status_2022.txt").read_text())
    facts, _, plan = _plan(d, db)
    assert facts.os.wslconfig_path == "C:\\Users\\alex\\.wslconfig" and facts.os.memory_total_mib == 16110
    s = plan.step("configure_wsl_memory")
    assert not s.needs_root and s.backups == ("C:\\Users\\alex\\.wslconfig",)
    assert [(e.mode, e.section, e.settings) for e in s.edits] == [("ini_set", "wsl2", (("memory", "11GB"),))]  # 16 GB host keeps 4 GB for Windows
    # a .wslconfig that already allows enough: no step
    d["files"]["C:\\Users\\alex\\.wslconfig"] = "[wsl2]\nmemory=12GB\n"
    d["commands"][r"C:\Windows\System32\nvidia-smi.exe"]["stdout"] = (WIN / "smi_win_610_kmd_rtx3050.out").read_text()
    d["commands"].pop(command_key(smi_mod.query_argv(W.SMI_QUERY_FIELDS, exe=W.SMI_PATHS[0])))
    facts, _, plan = _plan(d, db)
    assert facts.os.wsl_memory_limit_mib == 12288 and plan.step("configure_wsl_memory") is None
