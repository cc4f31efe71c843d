"""The plan's order on every distribution family the compat data knows (and the ones it does not): NVIDIA's
repository is added and its index refreshed before anything installs from it, on every distribution whose
driver, toolkit or cuDNN comes from there; nothing that needs a repository the wizard cannot add is planned
(the plan says so instead); WSL 2 repairs come first; the Windows host plan runs driver → features → WSL →
distro → hand-over.

Which packages come from NVIDIA's repository is read from the data itself (driver_packages rows with
from_repo "nvidia", their pinning packages, nvidia_repos' toolkit package, the cudnn packages), not from the
planner's own rule, so the two are checked against each other. The machines are the distributions of the data
(every os id and version of nvidia_repos and driver_packages), recommended and planned by the real engine."""
from __future__ import annotations

import copy
import json
import re
from functools import lru_cache

import pytest

from app.choices import Choices, Mirrors
from app.compat import load_db
from app.facts import DriverInfo, Facts, Gpu, OsInfo, PythonEnv
from app.paths import resource
from app.plan import PlanError, build_plan
from app.plan.model import Step, order_problems
from app.recommend import recommend

DNF_IDS = {"rhel", "rocky", "almalinux", "centos", "ol", "fedora"}
VARIANTS = {
    "default": Choices(),
    "toolkit+cudnn": Choices(want_toolkit=True, want_system_cudnn=True),
    "mirror": Choices(want_toolkit=True, mirrors=Mirrors(nvidia_repo_url="https://mirror.example/cuda/repos")),
    "runfile": Choices(want_toolkit=True, install_method="runfile"),
}


def _rows(table: str) -> list[dict]:
    return json.loads(resource("compat", f"{table}.json").read_text(encoding="utf-8"))["rows"]


@lru_cache(maxsize=None)
def nvidia_package_res() -> tuple[re.Pattern, ...]:
    """Package names that only NVIDIA's repository carries, from the data."""
    pats = set()
    for r in _rows("driver_packages"):
        if r["from_repo"] == "nvidia":
            pats.add(r["package"])
            if r.get("pin_package"):
                pats.add(r["pin_package"])
    pats |= {r["toolkit_package"] for r in _rows("nvidia_repos")}
    out = []
    for p in pats:
        rx = re.escape(p.lstrip("@")).replace(r"\{branch\}", r"\d+").replace(r"\{major\}", r"\d+").replace(r"\{minor\}", r"\d+")
        out.append(re.compile(rx + r"(-open|-dkms)?$"))
    out.append(re.compile(r"cudnn\d*-cuda-\d+$"))
    return tuple(out)


def installs_from_nvidia(step: Step) -> list[str]:
    """The packages of NVIDIA's repository this step installs (apt-get install / dnf install / dnf module install)."""
    found = []
    for argv in step.commands:
        if argv[:1] not in (("apt-get",), ("dnf",)) or not ({"install"} & set(argv)):
            continue
        for a in argv[argv.index("install") + 1:]:
            name = a.split("=", 1)[0]
            if name.startswith("nvidia-driver:"):
                name = "nvidia-driver:" + name.split(":", 1)[1]
            if any(rx.match(name) for rx in nvidia_package_res()):
                found.append(a)
    return found


def distributions() -> list[tuple[str, str, tuple[str, ...], str]]:
    """(os id, version id, id_like, arch) of every distribution in the data."""
    seen = {}
    for r in _rows("nvidia_repos"):
        if not r.get("version_id"):
            continue  # wsl-ubuntu: the WSL machines below
        for os_id in r["os_ids"]:
            seen[(os_id, r["version_id"], "aarch64" if r["arch"] == "sbsa" else "x86_64")] = None
    for r in _rows("driver_packages"):
        lo, hi = r.get("os_version_min"), r.get("os_version_max")
        version = str(hi or lo or "")
        if version and not any(k[0] == r["os_id"] and k[1].split(".")[0] == version for k in seen):
            seen[(r["os_id"], version, "x86_64")] = None
    like = {"rocky": ("rhel", "centos", "fedora"), "almalinux": ("rhel", "centos", "fedora"), "centos": ("rhel", "fedora"),
            "ol": ("fedora",), "rhel": ("fedora",), "ubuntu": ("debian",)}
    return [(i, v, like.get(i, ()), a) for i, v, a in seen]


def machine(os_id: str, version: str, id_like: tuple[str, ...] = (), arch: str = "x86_64", pm: str | None = "") -> Facts:
    if pm == "":
        pm = "dnf" if os_id in DNF_IDS else "apt"
    gpu = "NVIDIA GH200 480GB" if arch == "aarch64" else "NVIDIA GeForce RTX 4090"
    return Facts(os=OsInfo(platform="linux", id=os_id, version_id=version, id_like=id_like, arch=arch, package_manager=pm,
                           kernel="6.1.0-18-amd64", pretty_name=f"{os_id} {version}"),
                 driver=DriverInfo(state="not_installed", nouveau_loaded=True),
                 gpus=(Gpu(index=0, name=gpu),), python=PythonEnv(path="/usr/bin/python3", version="3.12.3", kind="system"))


@lru_cache(maxsize=None)
def db():
    return load_db(use_user_bundle=False)


def plan_of(facts: Facts, choices: Choices):
    rec = recommend(facts, db(), choices)
    return rec, build_plan(facts, rec, choices, created="2026-11-29T00:00:00+00:00")


def assert_order(plan, rec=None) -> list[str]:
    ids = [s.id for s in plan.steps]
    assert order_problems(plan.steps) == []
    for s in plan.steps:
        if installs_from_nvidia(s):
            assert "update_package_index" in ids and ids.index("update_package_index") < ids.index(s.id), (ids, s.id, s.commands)
    if "update_package_index" in ids:
        assert "add_nvidia_repo" in ids and ids.index("add_nvidia_repo") < ids.index("update_package_index"), ids
    if "set_nvidia_repo_mirror" in ids:
        assert ids.index("add_nvidia_repo") < ids.index("set_nvidia_repo_mirror") < ids.index("update_package_index"), ids
    if "blacklist_nouveau" in ids and "install_driver" in ids:
        assert ids.index("blacklist_nouveau") < ids.index("install_driver")
    if "install_cuda_toolkit" in ids and "write_cuda_env" in ids:
        assert ids.index("install_cuda_toolkit") < ids.index("write_cuda_env")
    venv = [i for i in ("install_python_venv", "create_venv", "install_pytorch", "verify_pytorch") if i in ids]
    assert [ids.index(i) for i in venv] == sorted(ids.index(i) for i in venv), ids
    if venv:
        assert ids[-1] == "verify_pytorch", ids
    return ids


CASES = [(d, v) for d in distributions() for v in VARIANTS]


def test_the_data_reaches_every_family():
    ids = {d[0] for d in distributions()}
    assert {"ubuntu", "debian", "rhel", "rocky", "almalinux", "ol", "fedora"} <= ids, ids
    assert {d[3] for d in distributions()} == {"x86_64", "aarch64"}


@pytest.mark.parametrize("dist,variant", CASES, ids=[f"{d[0]}{d[1]}-{d[3]}-{v}" for d, v in CASES])
def test_repository_before_what_installs_from_it(dist, variant):
    os_id, version, like, arch = dist
    rec, plan = plan_of(machine(os_id, version, like, arch), VARIANTS[variant])
    ids = assert_order(plan, rec)
    if rec.driver.action == "install" and rec.driver.package_repo == "nvidia":
        drv = plan.step("install_driver")
        assert drv is not None and installs_from_nvidia(drv), (ids, drv and drv.commands)
        assert ids.index("add_nvidia_repo") < ids.index("update_package_index") < ids.index("install_driver")
    if rec.driver.package_repo == "distribution" and variant == "default":
        assert "add_nvidia_repo" not in ids, ids  # Ubuntu's own archive carries the driver: no repository needed
    if variant == "toolkit+cudnn" and plan.step("install_cuda_toolkit"):
        assert ids.index("update_package_index") < ids.index("install_cuda_toolkit") < ids.index("write_cuda_env")
        if plan.step("install_cudnn"):
            assert ids.index("update_package_index") < ids.index("install_cudnn")


@pytest.mark.parametrize("os_id,version,like", [("linuxmint", "21.3", ("ubuntu", "debian")), ("pop", "22.04", ("ubuntu", "debian"))])
def test_an_ubuntu_derivative_takes_the_driver_from_ubuntus_archive(os_id, version, like):
    rec, plan = plan_of(machine(os_id, version, like, pm="apt"), Choices())
    assert rec.driver.package_repo == "distribution"
    ids = assert_order(plan, rec)
    assert "install_driver" in ids and "add_nvidia_repo" not in ids, ids


@pytest.mark.parametrize("os_id,like", [("sles", ("suse",)), ("opensuse-leap", ("suse", "opensuse")), ("arch", ())])
@pytest.mark.parametrize("variant", ["default", "toolkit+cudnn"])
def test_a_distribution_the_data_lacks_plans_nothing_it_cannot_install_and_says_so(os_id, like, variant):
    """SUSE (zypper) and Arch: no driver package and no NVIDIA repository in the data. The plan holds no step
    that would install from a repository it cannot add, and its warnings name what is left out."""
    facts = machine(os_id, "15.6" if os_id != "arch" else "", like, pm="zypper" if os_id != "arch" else "pacman")
    rec, plan = plan_of(facts, VARIANTS[variant])
    ids = assert_order(plan, rec)
    assert not any(installs_from_nvidia(s) for s in plan.steps)
    assert "install_driver" not in ids and "add_nvidia_repo" not in ids, ids
    codes = {n.code for n in plan.warning_codes}
    assert "warn_driver_not_planned" in codes, plan.warnings
    if variant != "default":
        assert "install_cuda_toolkit" not in ids and "write_cuda_env" not in ids, ids
        assert "warn_toolkit_not_planned" in codes, plan.warnings


def test_no_repository_for_a_derivative_drops_what_needs_it_and_says_so():
    """A Debian derivative NVIDIA publishes nothing for: the toolkit would install from a repository the
    wizard cannot add, so it is left out, each step named in a warning."""
    facts = machine("kali", "2024.1", ("debian",), pm="apt")
    rec, plan = plan_of(facts, Choices(want_toolkit=True))
    ids = assert_order(plan, rec)
    assert not any(installs_from_nvidia(s) for s in plan.steps), ids
    texts = " ".join(plan.warnings)
    if rec.cuda_toolkit.version:
        assert "CUDA" in texts and "kali" in texts, plan.warnings


def test_wsl2_repairs_then_repository_then_toolkit():
    from tests.unit import test_wsl_plan as wsl

    for data in (wsl.DEMO, wsl._with_wrong_driver(wsl.DEMO)):
        _, rec, plan = wsl._plan(data, db(), Choices(want_toolkit=True))
        ids = assert_order(plan, rec)
        assert "install_driver" not in ids
        repairs = [i for i, s in enumerate(plan.steps) if s.kind == "wsl_fix"]
        assert repairs and max(repairs) < ids.index("add_nvidia_repo") < ids.index("update_package_index") < ids.index("install_cuda_toolkit")
        assert "/wsl-ubuntu/" in plan.step("add_nvidia_repo").downloads[0].url


def test_windows_host_order():
    from tests.unit import test_windows_plan as wp

    win = wp.WIN
    machines = {
        "no_wsl": wp.DEMO,
        "update_needed": wp._with_wsl((win / "wsl_l_v_ubuntu2204.txt").read_text(), "Default Distribution: Ubuntu-22.04\nDefault Version: 2\n"
                                      "WSL 2 requires an update to its kernel component. Please run 'wsl.exe --update'.\n"),
        "wsl1": wp._with_wsl("  NAME            STATE           VERSION\n* Ubuntu          Stopped         1\n",
                             "Default Distribution: Ubuntu\nDefault Version: 1\n"),
        "no_distro": wp._with_wsl((win / "wsl_l_v_none.txt").read_text(), (win / "wsl_status_short.txt").read_text()),
    }
    rank = ["update_nvidia_windows_driver", "enable_wsl_features", "update_wsl", "set_wsl_default_version", "install_wsl_distro",
            "set_wsl_distro_version", "configure_wsl_memory", "check_wsl_gpu"]
    for name, data in machines.items():
        _, rec, plan = wp._plan(copy.deepcopy(data), db())
        ids = [s.id for s in plan.steps]
        assert order_problems(plan.steps) == [], name
        known = [i for i in ids if i in rank]
        assert known == sorted(known, key=rank.index), (name, ids)
        if "enable_wsl_features" in ids:  # nothing WSL-related before the restart
            assert ids[-1] == "enable_wsl_features", (name, ids)


def test_a_step_before_what_it_needs_is_refused():
    """The order is checked when the plan is built: a builder that put the driver before the repository
    (the plan-order bug) gets a PlanError, never a plan that fails at its first package."""
    rec, plan = plan_of(machine("debian", "12"), Choices())
    ids = [s.id for s in plan.steps]
    steps = list(plan.steps)
    drv = steps.pop(ids.index("install_driver"))
    steps.insert(0, drv)
    assert order_problems(steps) == ["step install_driver would run before step update_package_index, which it needs"]
    assert order_problems([s for s in plan.steps if s.id not in ("add_nvidia_repo", "update_package_index")])
    import app.plan as P

    real = P._linux_steps
    try:
        P._linux_steps = lambda *a: list(reversed(real(*a)))  # type: ignore[assignment]
        with pytest.raises(PlanError, match="would run before"):
            build_plan(machine("debian", "12"), rec, Choices())
    finally:
        P._linux_steps = real
