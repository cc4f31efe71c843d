"""Step builders: what each platform/method plans, that cleanup stays inside the CUDA locations,
that WSL 2 never gets a Linux driver, that every root step passes the helper's allow-lists, and
that the bash export is valid bash."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from app.choices import Choices, Mirrors
from app.facts import (CudaInfo, CudaToolkit, DriverInfo, EnvInfo, EnvLine, Facts, Gpu, LdConfEntry, OsInfo,
                       PackageInfo, PythonEnv)
from app.paths import resource
from app.plan import PlanError, build_plan
from app.plan.common import CUDA_DIR_RE
from app.plan.model import Check
from app.plan.script import plan_to_script
from app.recommendation import DriverChoice, Recommendation, ToolkitChoice, TorchChoice
from app.run.privileged import argv_allowed, check_edit

REC = Recommendation(
    pytorch=TorchChoice(version="2.9.1", index="cu128", index_url="https://download.pytorch.org/whl/cu128",
                        packages=("torch==2.9.1", "torchvision==0.24.1", "torchaudio==2.9.1")),
    driver=DriverChoice(action="install", branch="580", flavour="open"),
    cuda_toolkit=ToolkitChoice(wanted=True, version="12.8"))


def ubuntu_facts(**kw) -> Facts:
    base = dict(
        os=OsInfo(platform="linux", id="ubuntu", version_id="22.04", arch="x86_64", package_manager="apt",
                  kernel="6.5.0-41-generic", pretty_name="Ubuntu 22.04.4 LTS"),
        driver=DriverInfo(state="not_installed", nouveau_loaded=True, secure_boot=True, kernel_headers_installed=False),
        gpus=(Gpu(index=0, name="NVIDIA GeForce RTX 4090", compute_capability="8.9"),),
        cuda=CudaInfo(toolkits=(CudaToolkit(path="/usr/local/cuda-11.8", version="11.8.89"),
                                CudaToolkit(path="/usr/local/cuda-12.8", version="12.8.1"),
                                CudaToolkit(path="/home/u/cuda-10.2", version="10.2")),
                      active_link="/usr/local/cuda-11.8",
                      packages=(PackageInfo("cuda-toolkit-11-8", "11.8.0-1"), PackageInfo("cuda-nvcc-11-8", "11.8.89-1"),
                                PackageInfo("libcublas-11-8", "11.11.3.6-1"), PackageInfo("cuda-toolkit-12-8", "12.8.1-1"),
                                PackageInfo("nvidia-driver-535", "535.183.01-0ubuntu1"), PackageInfo("cuda-keyring", "1.1-1")),
                      runfile_uninstallers=("/usr/local/cuda-11.8/bin/cuda-uninstaller",)),
        env=EnvInfo(rc_lines=(EnvLine("/home/u/.bashrc", 120, "export PATH=/usr/local/cuda-11.8/bin:$PATH"),
                              EnvLine("/home/u/.bashrc", 121, "export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH"),
                              EnvLine("/etc/environment", 2, 'CUDA_HOME="/usr/local/cuda-11.8"')),
                    ld_conf=(LdConfEntry("/etc/ld.so.conf.d/cuda-11-8.conf", "/usr/local/cuda-11.8/lib64", "other_cuda"),
                             LdConfEntry("/etc/ld.so.conf.d/988_cuda-12.conf", "/usr/local/cuda-12.8/targets/x86_64-linux/lib", "ok"))),
        python=PythonEnv(path="/usr/bin/python3", version="3.10.12", kind="system"),
    )
    base.update(kw)
    return Facts(**base)


def _root_steps_pass_policy(plan):
    for s in plan.steps:
        files = frozenset(f"@download:{d.name}" for d in s.downloads)
        if s.needs_root:
            for argv in s.commands:
                assert argv_allowed(s.kind, argv, files), (s.id, argv)
        for e in s.edits:
            if e.needs_root:
                check_edit(s.kind, e)


def test_native_ubuntu_full_plan():
    plan = build_plan(ubuntu_facts(), REC, Choices(venv_path="/opt/venvs/gpu"))
    ids = [s.id for s in plan.steps]
    assert ids == ["remove_old_cuda", "remove_stale_cuda_env", "add_nvidia_repo", "update_package_index",
                   "blacklist_nouveau", "install_driver", "install_cuda_toolkit", "write_cuda_env",
                   "create_venv", "install_pytorch", "verify_pytorch"]
    s = {x.id: x for x in plan.steps}
    nouveau = s["blacklist_nouveau"]
    assert nouveau.reboot_required and nouveau.commands == (("update-initramfs", "-u"),)
    assert "blacklist nouveau" in nouveau.edits[0].content and nouveau.backups == ("/etc/modprobe.d/blacklist-nouveau.conf",)
    drv = s["install_driver"]
    # the running kernel's headers are installed before the DKMS driver (a command of their own)
    assert drv.commands == (("apt-get", "install", "-y", "linux-headers-6.5.0-41-generic"), ("apt-get", "install", "-y", "nvidia-driver-580-open"))
    assert drv.reboot_required and any("MOK" in n and "mokutil --import" in n for n in drv.notes)
    assert s["install_cuda_toolkit"].commands[0][-1] == "cuda-toolkit-12-8"
    assert s["add_nvidia_repo"].downloads[0].url.endswith("/repos/ubuntu2204/x86_64/cuda-keyring_1.1-1_all.deb")
    assert s["add_nvidia_repo"].downloads[0].checksum_url.endswith("/repos/ubuntu2204/x86_64/Packages")
    pip = s["install_pytorch"].commands[0]
    assert pip[:4] == ("/opt/venvs/gpu/bin/python", "-m", "pip", "install")
    assert pip[-2:] == ("--index-url", "https://download.pytorch.org/whl/cu128")
    assert s["verify_pytorch"].commands[0][-1] == "cuda"
    _root_steps_pass_policy(plan)


def test_cleanup_lists_exactly_what_goes_and_stays_in_cuda_locations():
    plan = build_plan(ubuntu_facts(), REC, Choices())
    old = plan.step("remove_old_cuda")
    assert old.removes == ("package cuda-nvcc-11-8", "package cuda-toolkit-11-8", "package libcublas-11-8",
                           "folder /usr/local/cuda-11.8 (runfile install; /usr/local/cuda-11.8/bin/cuda-uninstaller would remove the same files)",
                           "link /usr/local/cuda (points at /usr/local/cuda-11.8)")
    assert old.commands[0] == ("apt-get", "purge", "-y", "cuda-nvcc-11-8", "cuda-toolkit-11-8", "libcublas-11-8")
    for argv in old.commands[1:]:
        assert argv[0] == "rm" and (CUDA_DIR_RE.match(argv[-1]) or argv[-1] == "/usr/local/cuda")
    # the wanted 12.8, the driver, the keyring and a toolkit in a home folder are never touched
    flat = " ".join(" ".join(a) for a in old.commands)
    assert "12-8" not in flat and "cuda-12.8" not in flat and "nvidia-driver" not in flat and "/home/u" not in flat
    env = plan.step("remove_stale_cuda_env")
    by_path = {e.path: e for e in env.edits}
    assert by_path["/etc/ld.so.conf.d/cuda-11-8.conf"].mode == "delete"
    assert "/etc/ld.so.conf.d/988_cuda-12.conf" not in by_path  # still valid
    assert by_path["/home/u/.bashrc"].lines == ("export PATH=/usr/local/cuda-11.8/bin:$PATH",)  # the link line stays
    assert by_path["/etc/environment"].lines == ('CUDA_HOME="/usr/local/cuda-11.8"',)
    assert set(env.backups) == set(by_path)
    assert env.commands == (("ldconfig",),)


def test_no_toolkit_wanted_removes_no_toolkit_only_stale_entries():
    rec = REC.replace(cuda_toolkit=ToolkitChoice(wanted=False))
    plan = build_plan(ubuntu_facts(), rec, Choices())
    assert plan.step("remove_old_cuda") is None
    assert plan.step("install_cuda_toolkit") is None and plan.step("add_nvidia_repo") is None  # Ubuntu's archive has the driver
    assert {e.path for e in plan.step("remove_stale_cuda_env").edits} == {"/etc/ld.so.conf.d/cuda-11-8.conf"}
    assert build_plan(ubuntu_facts(), rec, Choices(cleanup_old_cuda=False)).step("remove_stale_cuda_env") is None


def test_wsl2_never_gets_a_linux_driver_or_metapackage():
    facts = ubuntu_facts(os=OsInfo(platform="linux", id="ubuntu", version_id="22.04", arch="x86_64",
                                   package_manager="apt", wsl=2), driver=DriverInfo(state="host", version="566.14"))
    rec = REC.replace(driver=DriverChoice(action="install", branch="580"),
                      cuda_toolkit=ToolkitChoice(wanted=True, version="12.8", package="cuda"))
    plan = build_plan(facts, rec, Choices())
    assert plan.platform == "wsl2"
    assert plan.step("install_driver") is None and plan.step("blacklist_nouveau") is None
    argvs = [a for s in plan.steps for a in s.commands]
    installs = [a for a in argvs if a[:2] == ("apt-get", "install")]
    assert installs == [("apt-get", "install", "-y", "--no-install-recommends", "cuda-toolkit-12-8")]
    assert not any(p in ("cuda", "cuda-drivers") or p.startswith("nvidia-driver") for a in installs for p in a)
    assert "/wsl-ubuntu/x86_64/" in plan.step("add_nvidia_repo").downloads[0].url


def test_wsl2_demo_snapshot_through_detect_and_recommend():
    from app.compat import load_db
    from app.detect import detect
    from app.recommend import recommend
    from app.system import SnapshotSystem

    snap = resource("snapshots", "wsl2-laptop-rtx4070-ubuntu2204.json")
    if not snap.exists():
        pytest.skip("WSL demo snapshot not present")
    facts = detect(SnapshotSystem.load(snap))
    choices = Choices(want_toolkit=True)
    plan = build_plan(facts, recommend(facts, load_db(), choices), choices)
    assert plan.platform == "wsl2" and plan.step("install_driver") is None
    for s in plan.steps:
        for a in s.commands:
            assert "cuda-drivers" not in a and "cuda" not in a[3:] if a[:2] == ("apt-get", "install") else True
    _root_steps_pass_policy(plan)


def test_runfile_method():
    rec = REC.replace(cuda_toolkit=ToolkitChoice(
        wanted=True, version="12.8",
        runfile_url="https://developer.download.nvidia.com/compute/cuda/12.8.1/local_installers/cuda_12.8.1_570.124.06_linux.run"))
    plan = build_plan(ubuntu_facts(), rec, Choices(install_method="runfile", install_driver=False))
    s = plan.step("install_cuda_toolkit")
    assert s.kind == "run_runfile" and plan.step("add_nvidia_repo") is None
    d = s.downloads[0]
    assert d.name == "cuda_12.8.1_570.124.06_linux.run" and d.min_free_mib >= 10000
    assert d.checksum_url == "https://developer.download.nvidia.com/compute/cuda/12.8.1/docs/sidebar/md5sum.txt"
    assert s.commands == (("sh", "@download:cuda_12.8.1_570.124.06_linux.run", "--silent", "--toolkit",
                           "--toolkitpath=/usr/local/cuda-12.8"),)
    _root_steps_pass_policy(plan)
    with_sha = build_plan(ubuntu_facts(), rec.replace(cuda_toolkit=rec.cuda_toolkit.replace(runfile_sha256="ab" * 32)),
                          Choices(install_method="runfile"))
    assert with_sha.step("install_cuda_toolkit").downloads[0].sha256 == "ab" * 32


def test_mirrors_proxy_and_uv():
    m = Mirrors(pypi_index_url="https://pypi.corp.example/simple", pytorch_index_url="https://mirror.corp.example/torch",
                nvidia_repo_url="https://mirror.corp.example/cuda/repos", https_proxy="http://proxy:3128",
                ca_bundle="/etc/ssl/corp.pem")
    plan = build_plan(ubuntu_facts(), REC, Choices(mirrors=m))
    pip = plan.step("install_pytorch").commands[0]
    i = pip.index("--index-url")
    assert pip[i + 1] == "https://mirror.corp.example/torch/cu128"
    assert pip[pip.index("--extra-index-url") + 1] == "https://pypi.corp.example/simple"
    assert pip[pip.index("--cert") + 1] == "/etc/ssl/corp.pem"
    assert plan.step("install_pytorch").env["HTTPS_PROXY"] == "http://proxy:3128"
    mirror = plan.step("set_nvidia_repo_mirror")
    assert mirror.edits[0].path == "/etc/apt/sources.list.d/cuda-ubuntu2204-x86_64.list"
    assert "deb [signed-by=/usr/share/keyrings/cuda-archive-keyring.gpg] https://mirror.corp.example/cuda/repos/ubuntu2204/x86_64/ /" in mirror.edits[0].content
    assert plan.step("add_nvidia_repo").downloads[0].url.startswith("https://mirror.corp.example/cuda/repos/ubuntu2204/")
    _root_steps_pass_policy(plan)
    uv = build_plan(ubuntu_facts(), REC, Choices(installer="uv", venv_path="/opt/v"))
    create, install = uv.step("create_venv").commands[0], uv.step("install_pytorch").commands[0]
    assert create[1:] == ("venv", "--python", "/usr/bin/python3", "/opt/v")
    assert install[1:5] == ("pip", "install", "--python", "/opt/v/bin/python")


def test_rhel_dnf_plan():
    facts = ubuntu_facts(os=OsInfo(platform="linux", id="rocky", id_like=("rhel", "centos", "fedora"), version_id="9.4",
                                   arch="x86_64", package_manager="dnf", kernel="5.14.0-427.el9.x86_64"))
    plan = build_plan(facts, REC, Choices(install_method="dnf"))
    assert plan.step("add_nvidia_repo").commands == (
        ("dnf", "config-manager", "--add-repo", "https://developer.download.nvidia.com/compute/cuda/repos/rhel9/x86_64/cuda-rhel9.repo"),)
    drv = plan.step("install_driver").commands
    assert drv[-1] == ("dnf", "-y", "module", "install", "nvidia-driver:580-open")
    assert plan.step("blacklist_nouveau").commands == (("dracut", "-f"),)
    assert plan.step("install_cuda_toolkit").commands == (("dnf", "-y", "install", "cuda-toolkit-12-8"),)
    _root_steps_pass_policy(plan)


def test_fedora_41_uses_dnf5_addrepo():
    facts = ubuntu_facts(os=OsInfo(platform="linux", id="fedora", version_id="42", arch="x86_64", package_manager="dnf"))
    plan = build_plan(facts, REC, Choices(install_method="dnf"))
    assert plan.step("add_nvidia_repo").commands == (("dnf", "config-manager", "addrepo",
        "--from-repofile=https://developer.download.nvidia.com/compute/cuda/repos/fedora42/x86_64/cuda-fedora42.repo"),)
    _root_steps_pass_policy(plan)


def test_dnf_driver_from_the_compat_module_spec():
    facts = ubuntu_facts(os=OsInfo(platform="linux", id="rhel", version_id="9.4", arch="x86_64", package_manager="dnf"))
    rec = REC.replace(driver=DriverChoice(action="upgrade", branch="580", flavour="proprietary", package="@nvidia-driver:580-dkms"))
    plan = build_plan(facts, rec, Choices(install_method="dnf"))
    assert plan.step("install_driver").commands[-1] == ("dnf", "-y", "module", "install", "nvidia-driver:580-dkms")
    assert plan.step("install_driver").title.startswith("Upgrade the NVIDIA driver 580")


def test_driver_keep_means_no_driver_step_and_cpu_only_verify():
    rec = REC.replace(driver=DriverChoice(action="keep"), pytorch=TorchChoice(version="2.9.1", index="cpu",
                                                                              packages=("torch==2.9.1",)))
    plan = build_plan(ubuntu_facts(gpus=()), rec, Choices())
    assert plan.step("install_driver") is None
    assert plan.step("verify_pytorch").commands[0][-1] == "cpu"


def test_no_torch_release_gives_a_warning_not_a_crash():
    plan = build_plan(ubuntu_facts(), Recommendation(), Choices())
    assert plan.step("install_pytorch") is None
    assert any("No PyTorch release" in w for w in plan.warnings)


def test_unknown_distro_plans_no_repo():
    facts = ubuntu_facts(os=OsInfo(platform="linux", id="arch", package_manager="pacman"))
    plan = build_plan(facts, REC, Choices())
    assert plan.step("add_nvidia_repo") is None and plan.step("install_driver") is None


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_script_export_is_valid_bash_and_quotes_everything(tmp_path):
    m = Mirrors(nvidia_repo_url="https://mirror.example/it's here/repos")
    plan = build_plan(ubuntu_facts(), REC, Choices(venv_path="/tmp/my venv/it's $HOME", mirrors=m))
    text = plan_to_script(plan)
    assert text.startswith("#!/usr/bin/env bash") and "\nset -euo pipefail\n" in text
    f = tmp_path / "plan.sh"
    f.write_text(text)
    r = subprocess.run(["bash", "-n", str(f)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "'/tmp/my venv/it'\"'\"'s $HOME/bin/python'" in text  # shlex-quoted, $HOME not expanded
    assert '"$DL"/cuda-keyring_1.1-1_all.deb' in text
    for s in plan.steps:
        assert f"# --- Step {plan.steps.index(s) + 1}: {s.id}" in text


_NET_ENV = {"HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "REQUESTS_CA_BUNDLE", "SSL_CERT_FILE", "PIP_CERT",
            "PIP_INDEX_URL", "GPU_WIZARD_CONFIG"}


def _cli(*args, env=None):
    """The CLI with no proxy, CA or config of this machine's (they would change the plan)."""
    import os
    import tempfile

    base = {k: v for k, v in os.environ.items() if k not in _NET_ENV}
    base["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="gw-noconfig-")
    base.update(env or {})
    return subprocess.run([sys.executable, "-m", "app", *args], capture_output=True, text=True, timeout=120, env=base)


def test_cli_plan_json_script_and_dry_run(tmp_path):
    snap = resource("snapshots", "wsl2-laptop-rtx4070-ubuntu2204.json")
    if not snap.exists():
        pytest.skip("WSL demo snapshot not present")
    r = _cli("--snapshot", str(snap), "plan", "--json", "--toolkit", "--venv", str(tmp_path / "v"))
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["format"] == "gpu-wizard-plan/1" and data["platform"] == "wsl2"
    assert "install_pytorch" in [s["id"] for s in data["steps"]]
    r = _cli("--snapshot", str(snap), "plan", "--script", "--toolkit")
    assert r.returncode == 0
    f = tmp_path / "p.sh"
    f.write_text(r.stdout)
    assert subprocess.run(["bash", "-n", str(f)]).returncode == 0
    r = _cli("--snapshot", str(snap), "install", "--dry-run", "--toolkit")
    assert r.returncode == 0 and "dry run: nothing was run" in r.stdout
    assert "$ apt-get install -y --no-install-recommends cuda-toolkit-" in r.stdout
    assert 'print("ok")' in r.stdout  # every command in full, the check script too
    r = _cli("--snapshot", str(snap), "install", "--yes")
    assert r.returncode == 2 and "cannot install onto a snapshot" in r.stderr and "Traceback" not in r.stderr
    r = _cli("install", "--undo")
    assert r.returncode == 2 and "--session" in r.stderr


def test_build_plan_refuses_a_linux_driver_on_wsl2_from_any_builder(monkeypatch):
    import app.plan.wsl as wsl
    from app.plan import Step

    bad = Step(id="install_helpful_driver", kind="wsl_fix", title="x", why="y", needs_root=True,
               commands=(("apt-get", "install", "-y", "cuda-drivers"),))
    monkeypatch.setattr(wsl, "build_wsl_steps", lambda f, r, c: [bad])
    facts = ubuntu_facts(os=OsInfo(platform="linux", id="ubuntu", version_id="22.04", package_manager="apt", wsl=2))
    with pytest.raises(PlanError, match="Linux driver inside WSL2"):
        build_plan(facts, REC, Choices())
    monkeypatch.setattr(wsl, "build_wsl_steps", lambda f, r, c: [bad.replace(id="create_venv", commands=(("true",),))])
    with pytest.raises(PlanError, match="duplicate step id create_venv"):
        build_plan(facts, REC, Choices())


def test_python_without_ensurepip_gets_its_venv_package_first_and_the_helper_allows_only_that():
    """Fresh Debian/Ubuntu: python3 without pythonX.Y-venv cannot make a venv with pip."""
    py = PythonEnv(path="/usr/bin/python3", version="3.11.2", kind="system", venv_ok=False)
    plan = build_plan(ubuntu_facts(python=py), REC, Choices(venv_path="/opt/venvs/gpu", install_driver=False,
                                                             want_toolkit=False, cleanup_old_cuda=False))
    ids = [s.id for s in plan.steps]
    assert ids.index("install_python_venv") == ids.index("create_venv") - 1
    step = plan.step("install_python_venv")
    assert step.needs_root and step.commands == (("apt-get", "update"), ("apt-get", "install", "-y", "python3.11-venv"))
    assert step.done_when == (Check("command_ok", ("/usr/bin/python3", "-c", "import ensurepip, venv")),)
    _root_steps_pass_policy(plan)
    assert not argv_allowed("install_python_tools", ["apt-get", "install", "-y", "python3.11-venv", "openssh-server"])
    assert not argv_allowed("install_python_tools", ["apt-get", "purge", "-y", "python3.11-venv"])
    assert not argv_allowed("install_driver", ["apt-get", "install", "-y", "python3-venv"])
    # a Python that has it, or one never asked (a snapshot), plans no such step; nor does uv, nor dnf
    for facts, ch in ((ubuntu_facts(python=py.replace(venv_ok=True)), Choices()), (ubuntu_facts(), Choices()),
                      (ubuntu_facts(python=py), Choices(installer="uv")),
                      (ubuntu_facts(python=py, os=OsInfo(platform="linux", id="rhel", version_id="9.4", package_manager="dnf")),
                       Choices(install_method="dnf"))):
        assert "install_python_venv" not in [s.id for s in build_plan(facts, REC, ch).steps]
    # version unknown: the distribution's default package
    unknown = build_plan(ubuntu_facts(python=py.replace(version=None)), REC, Choices())
    assert unknown.step("install_python_venv").commands[1][-1] == "python3-venv"


def test_a_venv_is_done_only_when_its_pip_runs():
    plan = build_plan(ubuntu_facts(), REC, Choices(venv_path="/opt/venvs/gpu"))
    assert plan.step("create_venv").done_when == (Check("command_ok", ("/opt/venvs/gpu/bin/python", "-m", "pip", "--version")),)
    assert "repaired in place" in plan.step("create_venv").why
