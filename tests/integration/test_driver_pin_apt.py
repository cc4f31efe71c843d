"""The driver the plan names is the driver apt installs: a signed file:// apt repository laid out like
NVIDIA's debian12 one carries nvidia-open for R580 *and* a newer R590, plus the branch pinning package
nvidia-driver-pinning-580 (NVIDIA Driver Installation Guide, "Version locking" for APT: install the
pinning package before the driver, and apt holds every NVIDIA driver package to that branch). The
wizard's plan installs the pin first, then nvidia-open, through its own executor: R580 lands although
590 is newer. Without the pin, apt would take 590 (checked with apt-get --simulate).

Needs root, apt-get, dpkg-deb (CI runs as root on Debian); apt reads this repository alone (APT_CONFIG).
"""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import textwrap
import time
from pathlib import Path

import pytest

from app.choices import Choices, Mirrors
from app.facts import DriverInfo, Facts, OsInfo
from app.plan import build_plan
from app.recommendation import DriverChoice, Recommendation
from app.run import Executor, Session
from app.run.privilege import DirectPrivilege
from tests.integration.test_install_apt import _deb, _packages_index

pytestmark = pytest.mark.integration

PKGS = ("nvidia-open", "nvidia-driver-pinning-580", "cuda-keyring")
SOURCES = "/etc/apt/sources.list.d/cuda-debian12-x86_64.list"
PIN_FILE = "/etc/apt/preferences.d/nvidia-driver-pinning-580"


def _skip_reason():
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return "needs root (dpkg and apt-get install for real); CI runs this as root"
    for tool in ("apt-get", "dpkg-deb", "dpkg-query"):
        if shutil.which(tool) is None:
            return f"{tool} is not available (not a Debian-family machine)"
    for p in PKGS:
        r = subprocess.run(["dpkg-query", "-W", "-f=${Status}", p], capture_output=True, text=True)
        if "installed" in r.stdout and "not-installed" not in r.stdout:
            return f"{p} is really installed here; the test will not touch a real driver setup"
    if os.path.exists(SOURCES) or os.path.exists(PIN_FILE):
        return f"{SOURCES} or {PIN_FILE} exists; the test will not touch a real driver setup"
    return None


@pytest.fixture
def driver_repo(tmp_path, monkeypatch):
    reason = _skip_reason()
    if reason:
        pytest.skip(reason)
    repo = tmp_path / "repos" / "debian12" / "x86_64"
    repo.mkdir(parents=True)
    build = tmp_path / "build"
    gnupg = tmp_path / "gnupg"
    signed = shutil.which("gpg") is not None
    keyring = b""
    if signed:
        gnupg.mkdir(mode=0o700)
        g = ["gpg", "--homedir", str(gnupg), "--batch", "--pinentry-mode", "loopback", "--passphrase", ""]
        subprocess.run(g + ["--quick-gen-key", "GPU Wizard test repo <tests@invalid>", "ed25519", "sign", "1d"], check=True, capture_output=True)
        keyring = subprocess.run(g + ["--export"], check=True, capture_output=True).stdout
    debs = []
    for ver in ("580.95.05-1", "590.44.01-1"):
        b = build / ver
        debs.append(_deb(b, b, "nvidia-open", ver, {"/usr/share/doc/nvidia-open/BRANCH": ver.split(".")[0] + "\n"},
                         description="NVIDIA driver meta-package, open kernel modules"))
    debs.append(_deb(build / "pin", build / "pin", "nvidia-driver-pinning-580", "580-1", {
        PIN_FILE: "Package: *nvidia* cuda-drivers* libcuda* libnv*\nPin: version 580.*\nPin-Priority: 1000\n"},
        description="pins the NVIDIA driver packages to branch 580"))
    for d in debs:
        shutil.copy(d, repo / d.name.replace("_all.deb", f"_{d.parent.name}_all.deb") if d.parent.name != "pin" else repo / d.name)
    kroot = build / "cuda-keyring"
    (kroot / "DEBIAN").mkdir(parents=True)
    (kroot / "DEBIAN" / "control").write_text(
        "Package: cuda-keyring\nVersion: 1.1-1\nArchitecture: all\nMaintainer: GPU Wizard tests <tests@invalid>\n"
        "Priority: optional\nSection: admin\nDescription: archive keyring for the test CUDA repository\n")
    (kroot / "usr/share/keyrings").mkdir(parents=True)
    (kroot / "usr/share/keyrings/cuda-archive-keyring.gpg").write_bytes(keyring)
    subprocess.run(["dpkg-deb", "--root-owner-group", "-Zgzip", "--build", str(kroot), str(repo / "cuda-keyring_1.1-1_all.deb")],
                   check=True, capture_output=True)
    (repo / "Packages").write_text(_packages_index(sorted(repo.glob("*.deb"))))
    pk = (repo / "Packages").read_bytes()
    (repo / "Release").write_text(textwrap.dedent(f"""\
        Origin: gpu-wizard-tests
        Label: gpu-wizard-tests
        Architectures: all amd64
        Date: {time.strftime('%a, %d %b %Y %H:%M:%S UTC', time.gmtime())}
        SHA256:
         {hashlib.sha256(pk).hexdigest()} {len(pk)} Packages
        """))
    if signed:
        subprocess.run(["gpg", "--homedir", str(gnupg), "--batch", "--yes", "--clearsign", "-o", str(repo / "InRelease"),
                        str(repo / "Release")], check=True, capture_output=True)
    a = tmp_path / "apt"
    for d in ("lists/partial", "cache/archives/partial", "parts", "preferences.d"):
        (a / d).mkdir(parents=True)
    conf = a / "apt.conf"
    # the pinning package writes /etc/apt/preferences.d: apt must read that real folder (as on a real system)
    conf.write_text(
        f'Dir::Etc::sourcelist "{SOURCES}";\nDir::Etc::sourceparts "{a}/parts";\nDir::Etc::preferences "{a}/preferences";\n'
        f'Dir::Etc::preferencesparts "/etc/apt/preferences.d";\n'
        f'Dir::State::lists "{a}/lists";\nDir::Cache "{a}/cache";\nDir::Cache::archives "{a}/cache/archives";\n'
        + ("" if signed else 'Acquire::AllowInsecureRepositories "true";\nAPT::Get::AllowUnauthenticated "true";\n'))
    monkeypatch.setenv("APT_CONFIG", str(conf))
    yield {"base": f"file://{tmp_path}/repos", "tmp": tmp_path}
    subprocess.run(["dpkg", "--purge", *PKGS], capture_output=True)
    for f in (SOURCES, PIN_FILE):
        if os.path.exists(f):
            os.unlink(f)


def _version(name: str) -> str:
    return subprocess.run(["dpkg-query", "-W", "-f=${Version}", name], capture_output=True, text=True).stdout.strip()


def test_the_plan_installs_the_branch_it_names_with_a_newer_branch_present(driver_repo, tmp_path):
    facts = Facts(os=OsInfo(platform="linux", id="debian", version_id="12", arch="x86_64", package_manager="apt"),
                  driver=DriverInfo(state="not_installed", kernel_headers_installed=True))
    rec = Recommendation(driver=DriverChoice(action="install", branch="580", package="nvidia-open", flavour="open",
                                             package_repo="nvidia", pin_package="nvidia-driver-pinning-580", reason="test"))
    plan = build_plan(facts, rec, Choices(cleanup_old_cuda=False, mirrors=Mirrors(nvidia_repo_url=driver_repo["base"])))
    drv = plan.step("install_driver")
    assert drv.commands == (("apt-get", "install", "-y", "nvidia-driver-pinning-580"), ("apt-get", "install", "-y", "nvidia-open"))
    keep = [s for s in plan.steps if s.id in ("add_nvidia_repo", "set_nvidia_repo_mirror", "update_package_index", "install_driver")]
    assert [s.id for s in keep][-1] == "install_driver" and "add_nvidia_repo" in [s.id for s in keep]
    # first the repository alone: without the pin apt would pick the newest branch
    pre = Executor(plan.replace(steps=tuple(s for s in keep if s.id != "install_driver")), Session.create(tmp_path / "s"),
                   privilege=DirectPrivilege(backups_root=str(tmp_path / "b"))).run()
    assert pre.status == "ok", pre.message
    sim = subprocess.run(["apt-get", "install", "--simulate", "-y", "nvidia-open"], capture_output=True, text=True)
    assert "nvidia-open (590.44.01-1" in sim.stdout, sim.stdout[-800:]
    events = []
    res = Executor(plan.replace(steps=(drv,)), Session.create(tmp_path / "s"), privilege=DirectPrivilege(backups_root=str(tmp_path / "b")),
                   listener=events.append).run()
    assert res.status == "reboot_required", (res.message, [e.text for e in events if e.type == "line"][-20:])  # a driver install ends so
    assert _version("nvidia-open") == "580.95.05-1" and Path("/usr/share/doc/nvidia-open/BRANCH").read_text().strip() == "580"
    assert _version("nvidia-driver-pinning-580") == "580-1" and os.path.exists(PIN_FILE)
    # a later upgrade stays on the branch
    up = subprocess.run(["apt-get", "install", "--simulate", "-y", "nvidia-open"], capture_output=True, text=True)
    assert "590.44.01" not in up.stdout
