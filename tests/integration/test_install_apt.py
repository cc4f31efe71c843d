"""A real apt repository on file://, built here from small .deb packages named like NVIDIA's
(cuda-keyring, cuda-toolkit-12-8 → cuda-nvcc-12-8), signed with a throw-away key when gpg is
available. Repo setup → apt-get update → install → is_done → cleanup all run for real through
dpkg and apt-get, through the wizard's own plan and executor.

apt is pointed at this repository alone through APT_CONFIG (its own source list, lists and cache
folders), so the machine's other sources, lists and caches are never touched. The one file in
/etc/apt/sources.list.d the plan writes is restored from its backup in teardown, and every
package the test installed is purged. Needs root and apt-get (CI runs as root on Debian).
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
from app.facts import Facts, OsInfo
from app.plan import build_plan, is_done
from app.recommendation import Recommendation, ToolkitChoice
from app.run import Executor, Session, undo_edits
from app.run.privilege import DirectPrivilege
from app.system import LiveSystem

pytestmark = pytest.mark.integration

PKGS = ("cuda-keyring", "cuda-toolkit-12-8", "cuda-nvcc-12-8")
SOURCES = "/etc/apt/sources.list.d/cuda-debian12-x86_64.list"
PREFIX = "/usr/local/cuda-12.8"


def _skip_reason() -> str | None:
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return "needs root (dpkg and apt-get install for real); CI runs this as root"
    for tool in ("apt-get", "dpkg-deb", "dpkg-query"):
        if shutil.which(tool) is None:
            return f"{tool} is not available (not a Debian-family machine)"
    for p in PKGS:
        r = subprocess.run(["dpkg-query", "-W", "-f=${Status}", p], capture_output=True, text=True)
        if "installed" in r.stdout and "not-installed" not in r.stdout:
            return f"{p} is really installed here; the test will not touch a real CUDA setup"
    if os.path.exists(SOURCES) or os.path.exists(PREFIX):
        return f"{SOURCES} or {PREFIX} exists; the test will not touch a real CUDA setup"
    return None


def _deb(build: Path, out: Path, name: str, version: str, files: dict[str, str], depends: str = "",
         description: str = "") -> Path:
    root = build / name
    (root / "DEBIAN").mkdir(parents=True)
    control = f"Package: {name}\nVersion: {version}\nArchitecture: all\nMaintainer: GPU Wizard tests <tests@invalid>\n"
    if depends:
        control += f"Depends: {depends}\n"
    control += f"Priority: optional\nSection: devel\nDescription: {description or name} (test package)\n"
    (root / "DEBIAN" / "control").write_text(control)
    for path, content in files.items():
        f = root / path.lstrip("/")
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(content)
        if "/bin/" in path:
            f.chmod(0o755)
    deb = out / f"{name}_{version}_all.deb"
    subprocess.run(["dpkg-deb", "--root-owner-group", "-Zgzip", "--build", str(root), str(deb)], check=True,
                   capture_output=True)
    return deb


def _packages_index(debs: list[Path]) -> str:
    stanzas = []
    for deb in debs:
        fields = subprocess.run(["dpkg-deb", "-f", str(deb)], check=True, capture_output=True, text=True).stdout.strip()
        data = deb.read_bytes()
        stanzas.append(fields + f"\nFilename: ./{deb.name}\nSize: {len(data)}\nMD5sum: {hashlib.md5(data).hexdigest()}"
                       f"\nSHA256: {hashlib.sha256(data).hexdigest()}\n")
    return "\n".join(stanzas)


@pytest.fixture
def local_repo(tmp_path, monkeypatch):
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
        subprocess.run(g + ["--quick-gen-key", "GPU Wizard test repo <tests@invalid>", "ed25519", "sign", "1d"],
                       check=True, capture_output=True)
        keyring = subprocess.run(g + ["--export"], check=True, capture_output=True).stdout
    keyring_file = tmp_path / "keyring.gpg"
    keyring_file.write_bytes(keyring)
    debs = [
        _deb(build, repo, "cuda-nvcc-12-8", "12.8.93-1", {
            f"{PREFIX}/bin/nvcc": "#!/bin/sh\necho 'nvcc: NVIDIA (R) Cuda compiler driver'\n"
                                  "echo 'Cuda compilation tools, release 12.8, V12.8.93'\n",
        }, description="CUDA nvcc"),
        _deb(build, repo, "cuda-toolkit-12-8", "12.8.1-1", {
            f"{PREFIX}/version.json": '{"cuda": {"name": "CUDA SDK", "version": "12.8.1"}}\n',
        }, depends="cuda-nvcc-12-8 (>= 12.8)", description="CUDA Toolkit 12.8 meta-package"),
    ]
    # the keyring package is built from bytes, like NVIDIA's: only the archive key
    kroot = build / "cuda-keyring"
    (kroot / "DEBIAN").mkdir(parents=True)
    (kroot / "DEBIAN" / "control").write_text(
        "Package: cuda-keyring\nVersion: 1.1-1\nArchitecture: all\nMaintainer: GPU Wizard tests <tests@invalid>\n"
        "Priority: optional\nSection: admin\nDescription: archive keyring for the test CUDA repository\n")
    (kroot / "usr/share/keyrings").mkdir(parents=True)
    shutil.copy(keyring_file, kroot / "usr/share/keyrings/cuda-archive-keyring.gpg")
    kdeb = repo / "cuda-keyring_1.1-1_all.deb"
    subprocess.run(["dpkg-deb", "--root-owner-group", "-Zgzip", "--build", str(kroot), str(kdeb)], check=True,
                   capture_output=True)
    debs.append(kdeb)
    packages = _packages_index(debs)
    (repo / "Packages").write_text(packages)
    pk = (repo / "Packages").read_bytes()
    release = textwrap.dedent(f"""\
        Origin: gpu-wizard-tests
        Label: gpu-wizard-tests
        Architectures: all amd64
        Date: {time.strftime('%a, %d %b %Y %H:%M:%S UTC', time.gmtime())}
        SHA256:
         {hashlib.sha256(pk).hexdigest()} {len(pk)} Packages
        """)
    (repo / "Release").write_text(release)
    if signed:
        subprocess.run(["gpg", "--homedir", str(gnupg), "--batch", "--yes", "--clearsign", "-o", str(repo / "InRelease"),
                        str(repo / "Release")], check=True, capture_output=True)
    # apt reads only our source list; lists and caches live in tmp_path
    for d in ("lists/partial", "cache/archives/partial", "parts"):
        (tmp_path / "apt" / d).mkdir(parents=True)
    conf = tmp_path / "apt" / "apt.conf"
    a = tmp_path / "apt"
    conf.write_text(
        f'Dir::Etc::sourcelist "{SOURCES}";\nDir::Etc::sourceparts "{a}/parts";\n'
        f'Dir::State::lists "{a}/lists";\nDir::Cache "{a}/cache";\nDir::Cache::archives "{a}/cache/archives";\n'
        + ("" if signed else 'Acquire::AllowInsecureRepositories "true";\nAPT::Get::AllowUnauthenticated "true";\n'))
    monkeypatch.setenv("APT_CONFIG", str(conf))
    yield {"base": f"file://{tmp_path}/repos", "repo": repo, "tmp": tmp_path, "signed": signed}
    # teardown: purge what we installed, remove the source list (restore a backup if there was one)
    subprocess.run(["dpkg", "--purge", *PKGS], capture_output=True)
    if os.path.exists(SOURCES):
        os.unlink(SOURCES)
    shutil.rmtree(PREFIX, ignore_errors=True)


def _facts() -> Facts:
    return Facts(os=OsInfo(platform="linux", id="debian", version_id="12", arch="x86_64", package_manager="apt"))


def _dpkg_installed(name: str) -> bool:
    r = subprocess.run(["dpkg-query", "-W", "-f=${Status}", name], capture_output=True, text=True)
    return "install ok installed" in r.stdout


def test_repo_update_install_is_done_cleanup(local_repo, tmp_path):
    rec = Recommendation(cuda_toolkit=ToolkitChoice(wanted=True, version="12.8", package="cuda-toolkit-12-8"))
    choices = Choices(want_toolkit=True, cleanup_old_cuda=False, mirrors=Mirrors(nvidia_repo_url=local_repo["base"]))
    plan = build_plan(_facts(), rec, choices)
    wanted = ["add_nvidia_repo", "set_nvidia_repo_mirror", "update_package_index", "install_cuda_toolkit"]
    assert [s.id for s in plan.steps][:4] == wanted
    plan = plan.replace(steps=tuple(s for s in plan.steps if s.id in wanted))  # env edits: tested in a temp root
    events = []
    priv = DirectPrivilege(backups_root=str(tmp_path / "root-backups"))
    session = Session.create(tmp_path / "sessions")
    result = Executor(plan, session, privilege=priv, listener=events.append).run()
    lines = [e.text for e in events if e.type == "line"]
    assert result.status == "ok", (result.message, lines[-30:])
    assert _dpkg_installed("cuda-keyring") and _dpkg_installed("cuda-toolkit-12-8") and _dpkg_installed("cuda-nvcc-12-8")
    assert os.access(f"{PREFIX}/bin/nvcc", os.X_OK)
    assert Path(SOURCES).read_text().strip().endswith(f"{local_repo['base']}/debian12/x86_64/ /")
    # the keyring came through the checksum published in the repository's Packages index
    log = (session.dir / "commands.log").read_text()
    assert "verified by sha256 (Packages)" in log
    assert '"apt-get", "-o", "APT::Status-Fd=' in log and "rc=0" in log
    # apt's status fd became progress events for the install step
    prog = [e for e in events if e.type == "progress" and e.step_id == "install_cuda_toolkit" and e.fraction is not None]
    assert prog and any("cuda-nvcc-12-8" in e.message for e in prog)
    assert any(0.3 < e.fraction < 1.0 and "Installing cuda-nvcc-12-8" in e.message for e in prog)
    assert any("Setting up cuda-toolkit-12-8" in ln for ln in lines)

    # second run: the install steps report done and are skipped
    live = LiveSystem()
    assert is_done(plan.step("add_nvidia_repo"), live) and is_done(plan.step("install_cuda_toolkit"), live)
    events2 = []
    r2 = Executor(plan, Session.create(tmp_path / "sessions"), privilege=priv, listener=events2.append).run()
    assert r2.status == "ok"
    skipped = {e.step_id for e in events2 if e.type == "step_finished" and e.status == "skipped"}
    assert {"add_nvidia_repo", "set_nvidia_repo_mirror", "install_cuda_toolkit"} <= skipped

    # cleanup: a plan for a newer toolkit removes exactly this one (its packages and folder)
    from app.facts import CudaInfo, CudaToolkit, PackageInfo

    facts = _facts().replace(cuda=CudaInfo(
        toolkits=(CudaToolkit(path=PREFIX, version="12.8.1"),),
        packages=tuple(PackageInfo(p, "x") for p in ("cuda-toolkit-12-8", "cuda-nvcc-12-8", "cuda-keyring"))))
    newer = Recommendation(cuda_toolkit=ToolkitChoice(wanted=True, version="12.9"))
    cplan = build_plan(facts, newer, Choices(want_toolkit=True, mirrors=Mirrors(nvidia_repo_url=local_repo["base"])))
    cleanup = cplan.step("remove_old_cuda")
    assert cleanup is not None
    assert set(cleanup.removes) == {"package cuda-nvcc-12-8", "package cuda-toolkit-12-8", f"folder {PREFIX}"}
    r3 = Executor(cplan.replace(steps=(cleanup,)), Session.create(tmp_path / "sessions"), privilege=priv).run()
    assert r3.status == "ok", r3.message
    assert not _dpkg_installed("cuda-toolkit-12-8") and not _dpkg_installed("cuda-nvcc-12-8")
    assert not os.path.exists(PREFIX)
    assert _dpkg_installed("cuda-keyring")  # not CUDA toolkit: left alone
    assert is_done(cleanup, live)

    # undo puts the source list back the way it was (absent)
    restored = undo_edits(session, priv)
    assert SOURCES in restored and not os.path.exists(SOURCES)
