"""The full plan for a WSL 2 distro, through the demo snapshot: detect → recommend → build_plan.
Toolkit only from the wsl-ubuntu repository, never a driver; WSL repairs with backups."""
import copy
import json

import pytest

from app.choices import Choices
from app.compat.db import load_db
from app.detect import detect
from app.detect.wsl import DPKG_QUERY_ARGV
from app.facts import Facts
from app.paths import resource
from app.plan import build_plan, is_done
from app.plan.model import Step, validate_step
from app.plan.wsl import LINKS_DIR, REMOVED_RECORD, build_wsl_steps
from app.recommend import recommend
from app.run.privileged import argv_allowed
from app.system import SnapshotSystem, command_key

DEMO = json.loads(resource("snapshots", "wsl2-laptop-rtx4070-ubuntu2204.json").read_text())
FORBIDDEN = ("cuda", "cuda-drivers")


@pytest.fixture(scope="module")
def db():
    return load_db(use_user_bundle=False)


def _facts(data: dict) -> Facts:
    return detect(SnapshotSystem(copy.deepcopy(data), name="wsl"))


def _plan(data: dict, db, choices: Choices = Choices()):
    facts = _facts(data)
    rec = recommend(facts, db, choices)
    return facts, rec, build_plan(facts, rec, choices, created="2026-11-29T00:00:00+00:00")


def _all_argv(plan):
    return [a for s in plan.steps for a in s.commands]


def _never_a_driver(plan):
    for argv in _all_argv(plan):
        if argv[:2] == ("apt-get", "install"):
            pkgs = [a for a in argv[2:] if not a.startswith("-")]
            assert not any(p in FORBIDDEN or p.startswith("nvidia-driver") for p in pkgs), argv


def test_demo_plan_toolkit_only_from_wsl_ubuntu(db):
    facts, rec, plan = _plan(DEMO, db, Choices(want_toolkit=True))
    assert plan.platform == "wsl2"
    assert rec.driver.action == "host" and rec.cuda_toolkit.repo == "wsl-ubuntu"
    ids = [s.id for s in plan.steps]
    assert "install_driver" not in ids and not any(s.kind == "install_driver" for s in plan.steps)
    repo = plan.step("add_nvidia_repo")
    assert repo.downloads[0].url.startswith("https://developer.download.nvidia.com/compute/cuda/repos/wsl-ubuntu/x86_64/")
    assert repo.downloads[0].name == "cuda-keyring_1.1-1_all.deb"
    tk = plan.step("install_cuda_toolkit")
    assert tk.commands == (("apt-get", "install", "-y", "--no-install-recommends", rec.cuda_toolkit.package),)
    assert rec.cuda_toolkit.package.startswith("cuda-toolkit-")
    _never_a_driver(plan)
    assert "fix_wsl_libcuda_links" in ids  # the demo's libcuda.so.1 is a copy
    assert "remove_wsl_linux_driver" not in ids  # nothing wrong installed
    for s in plan.steps:
        assert validate_step(s) == []


def test_demo_plan_without_toolkit_is_pytorch_and_the_libcuda_fix(db):
    _, _, plan = _plan(DEMO, db)
    kinds = [s.kind for s in plan.steps]
    assert "install_toolkit" not in kinds and "add_repo" not in kinds
    assert {"wsl_fix", "create_venv", "install_pytorch", "verify"} <= set(kinds)


def test_libcuda_fix_step_is_reversible_and_allowed(db):
    _, _, plan = _plan(DEMO, db)
    s = plan.step("fix_wsl_libcuda_links")
    assert s.needs_root and set(s.backups) == {"/etc/ld.so.conf.d/ld.wsl.conf", "/etc/wsl.conf"}
    ld = next(e for e in s.edits if e.path == "/etc/ld.so.conf.d/ld.wsl.conf")
    assert LINKS_DIR in ld.content and "/usr/lib/wsl/lib\n" not in ld.content.split("\n", 2)[-1]
    assert ("ln", "-sfn", "/usr/lib/wsl/lib/libcuda.so.1.1", LINKS_DIR + "/libcuda.so.1") in s.commands
    for argv in s.commands:
        assert argv_allowed("wsl_fix", list(argv)), argv
    # not done on the demo machine; done once ld.wsl.conf names the links folder and the link exists
    assert not is_done(s, SnapshotSystem(copy.deepcopy(DEMO)))
    fixed = copy.deepcopy(DEMO)
    fixed["files"]["/etc/ld.so.conf.d/ld.wsl.conf"] = ld.content
    fixed["links"][LINKS_DIR + "/libcuda.so.1"] = "/usr/lib/wsl/lib/libcuda.so.1.1"
    assert not is_done(s, SnapshotSystem(fixed))  # WSL would still rewrite ld.wsl.conf at start
    wslconf = next(e for e in s.edits if e.path == "/etc/wsl.conf")
    assert wslconf.mode == "ini_set" and wslconf.section == "automount" and wslconf.settings == (("ldconfig", "false"),)
    fixed["files"]["/etc/wsl.conf"] = "[boot]\nsystemd=true\n\n[automount]\nenabled = true\nldconfig = false\n"
    assert is_done(s, SnapshotSystem(fixed))
    # and detection no longer reports the warning, so the next plan leaves the step out
    facts_after = _facts(fixed)
    assert facts_after.finding("wsl_libcuda_not_symlink") is None
    assert "fix_wsl_libcuda_links" not in [x.id for x in build_wsl_steps(facts_after, _rec_stub(), Choices())]


def _rec_stub():
    from app.recommendation import Recommendation

    return Recommendation()


def _with_wrong_driver(data: dict) -> dict:
    d = copy.deepcopy(data)
    from app.detect.packages import DPKG_ARGV

    listing = ("ii  nvidia-driver-550 550.120-0ubuntu0.22.04.1\nii  libnvidia-compute-550:amd64 550.120-0ubuntu0.22.04.1\n"
               "ii  nvidia-utils-550 550.120-0ubuntu0.22.04.1\nii  python3 3.10.6-1~22.04\n")
    d["commands"][command_key(DPKG_ARGV)] = {"rc": 0, "stdout": listing, "stderr": ""}
    d["files"]["/usr/lib/x86_64-linux-gnu/libcuda.so.1"] = ""
    return d


def test_linux_driver_inside_wsl_is_removed_with_a_record(db):
    facts, _, plan = _plan(_with_wrong_driver(DEMO), db)
    assert facts.finding("wsl_linux_driver_installed") is not None
    s = plan.step("remove_wsl_linux_driver")
    assert s.commands == (("apt-get", "purge", "-y", "libnvidia-compute-550", "nvidia-driver-550", "nvidia-utils-550"),
                          ("ldconfig",))
    record = s.edits[0]
    assert record.path == REMOVED_RECORD and "nvidia-driver-550=550.120-0ubuntu0.22.04.1" in record.content
    assert "apt-get install" in record.content  # says how to put them back
    assert set(s.removes) == {"libnvidia-compute-550", "nvidia-driver-550", "nvidia-utils-550"}
    # the library check runs after the purge: skipped when the purge took the file with it
    stray = plan.step("remove_wsl_stray_driver_libs")
    ids = [x.id for x in plan.steps]
    assert ids.index("remove_wsl_stray_driver_libs") == ids.index("remove_wsl_linux_driver") + 1
    assert stray.edits[0].path == "/usr/lib/x86_64-linux-gnu/libcuda.so.1" and stray.edits[0].mode == "delete" and stray.edits[0].backup
    after_purge = _with_wrong_driver(DEMO)
    del after_purge["files"]["/usr/lib/x86_64-linux-gnu/libcuda.so.1"]
    assert is_done(stray, SnapshotSystem(after_purge)) and not is_done(stray, SnapshotSystem(_with_wrong_driver(DEMO)))
    for step in (s, stray):
        assert validate_step(step) == []
        for argv in step.commands:
            assert argv_allowed("wsl_fix", list(argv)), argv
    _never_a_driver(plan)


def test_wsl_builder_on_its_own_and_outside_wsl2():
    facts = _facts(DEMO)
    from app.recommendation import Recommendation

    steps = build_wsl_steps(facts, Recommendation(), Choices())
    assert [s.id for s in steps] == ["fix_wsl_libcuda_links", "configure_wsl_memory"]
    assert all(isinstance(s, Step) for s in steps)
    assert build_wsl_steps(facts.replace(os=facts.os.replace(wsl=0)), Recommendation(), Choices()) == []


def test_cuda_metapackage_is_never_planned_in_wsl2(db):
    facts, rec, _ = _plan(DEMO, db)
    bad = rec.replace(cuda_toolkit=rec.cuda_toolkit.replace(wanted=True, package="cuda", version="12.5"))
    plan = build_plan(facts, bad, Choices(want_toolkit=True))  # the toolkit builder swaps the metapackage out
    _never_a_driver(plan)


def test_wsl1_gets_no_gpu_plan(db):
    d = copy.deepcopy(DEMO)
    d["files"]["/proc/version"] = "Linux version 4.4.0-19041-Microsoft (Microsoft@Microsoft.com) (gcc version 5.4.0 (GCC) ) #488-Microsoft Mon Sep 01 13:43:00 PST 2020"
    del d["files"]["/proc/sys/kernel/osrelease"]
    facts, rec, plan = _plan(d, db)
    assert facts.os.wsl == 1 and facts.finding("wsl1_no_cuda").severity == "error"
    assert any("WSL 1" in w for w in plan.warnings)
    assert not any(s.kind in ("wsl_fix", "install_driver", "install_toolkit") for s in plan.steps)


def test_dpkg_query_key_in_the_demo_is_the_probes_argv():
    assert command_key(DPKG_QUERY_ARGV) in DEMO["commands"]


def test_wsl_memory_step_inside_the_distro(db):
    facts, _, plan = _plan(DEMO, db)
    assert facts.os.wslconfig_path == "/mnt/c/Users/alex/.wslconfig"  # the one Windows user; file not there yet
    s = plan.step("configure_wsl_memory")
    assert not s.needs_root and s.kind == "wsl_fix"
    # WSL has 7841 MiB (half of a ~16 GB laptop); the 8 GB GPU wants 16; 4 GB stay with Windows: 11 GB
    assert [(e.mode, e.section, e.settings) for e in s.edits] == [("ini_set", "wsl2", (("memory", "11GB"),))]
    assert s.done_when[0].kind == "ini_value"
    assert s.done_when[0].args == ("/mnt/c/Users/alex/.wslconfig", "wsl2", "memory", "11GB")
    assert validate_step(s) == []


def test_wsl_memory_replaces_an_old_limit(db):
    d = copy.deepcopy(DEMO)
    d["files"]["/proc/meminfo"] = "MemTotal:        4015232 kB\n"
    d["files"]["/mnt/c/Users/alex/.wslconfig"] = "[wsl2]\nmemory=4GB\n"
    _, _, plan = _plan(d, db)
    s = plan.step("configure_wsl_memory")
    # one section-aware edit replaces the old value in place (no second [wsl2] section)
    assert [(e.mode, e.settings) for e in s.edits] == [("ini_set", (("memory", "16GB"),))]  # the host size is unknown behind a limit: ask for the need


def test_memory_target_rules():
    from app.detect.wsl import wsl_memory_target_mib

    assert wsl_memory_target_mib(7841, None, None, [8188]) == 11 * 1024
    assert wsl_memory_target_mib(32000, None, None, [8188]) is None
    assert wsl_memory_target_mib(None, None, None, [8188]) is None
    assert wsl_memory_target_mib(3900, 4096, None, [8188]) == 16 * 1024  # 16376 MiB rounds up to 16 GiB
    assert wsl_memory_target_mib(8055, None, 16110, [8188]) == 11 * 1024
    assert wsl_memory_target_mib(3000, None, 6000, [4096]) is None  # a 6 GB host cannot give more than it has
