"""The fleet playbook's package, download and edit tasks run for real: ansible-core over real SSH
(tests/integration/fleet_hosts.py) against this machine, on a local apt repository the test builds.

Plan steps as the single-machine engine makes them (a keyring .deb whose checksum is published in
the repository's `Packages` index, `apt-get update`, `apt-get install -y PKG=VERSION`, a file write)
go through `app.fleet.plan.step_tasks` into a playbook: the .deb is fetched by get_url and checked
against the SHA256 read from the index on the host, the package is installed at the pinned version
(the repository also has a newer one), files are written, appended to, cleaned of a line and given an
INI setting (each backed up), a plain command is guarded by its own check, and a second run changes
nothing. apt is pointed at the test repository alone through APT_CONFIG (its own sources, lists and
cache), so the machine's sources are never touched; the test packages are purged in teardown.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from fleet_hosts import SshHosts, skip_reason  # beside this file (pytest puts its folder on sys.path)

pytestmark = pytest.mark.integration

PKG = "gpu-wizard-fleet-test"
KEYRING = "gpu-wizard-fleet-keyring"


def _why() -> str | None:
    why = skip_reason()
    if why:
        return why
    for tool in ("apt-get", "dpkg-deb", "dpkg-query"):
        if shutil.which(tool) is None:
            return f"{tool} is not available (not a Debian-family machine)"
    if subprocess.run(["/usr/bin/python3", "-c", "import apt_pkg"], capture_output=True).returncode != 0:
        return "python3-apt is not installed for /usr/bin/python3 (Ansible's apt module needs it)"
    return None


def _deb(build: Path, out: Path, name: str, version: str, files: dict[str, str]) -> Path:
    root = build / f"{name}-{version}"
    (root / "DEBIAN").mkdir(parents=True)
    (root / "DEBIAN" / "control").write_text(
        f"Package: {name}\nVersion: {version}\nArchitecture: all\nMaintainer: GPU Wizard tests <tests@invalid>\n"
        f"Priority: optional\nSection: misc\nDescription: {name} (fleet test package)\n")
    for path, content in files.items():
        f = root / path.lstrip("/")
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(content)
    deb = out / f"{name}_{version}_all.deb"
    subprocess.run(["dpkg-deb", "--root-owner-group", "-Zgzip", "--build", str(root), str(deb)], check=True, capture_output=True)
    return deb


def _packages_index(debs: list[Path]) -> str:
    out = []
    for deb in debs:
        fields = subprocess.run(["dpkg-deb", "-f", str(deb)], check=True, capture_output=True, text=True).stdout.strip()
        data = deb.read_bytes()
        out.append(fields + f"\nFilename: ./{deb.name}\nSize: {len(data)}\nMD5sum: {hashlib.md5(data).hexdigest()}"
                   f"\nSHA256: {hashlib.sha256(data).hexdigest()}\n")
    return "\n".join(out)


def _installed(name: str) -> str | None:
    r = subprocess.run(["dpkg-query", "-W", "-f=${Status} ${Version}", name], capture_output=True, text=True)
    return r.stdout.split()[-1] if r.returncode == 0 and "install ok installed" in r.stdout else None


def _purge() -> None:
    subprocess.run(["dpkg", "--purge", PKG, KEYRING], capture_output=True, timeout=300)


@pytest.fixture
def repo(tmp_path):
    why = _why()
    if why:
        pytest.skip(why)
    if _installed(PKG) or _installed(KEYRING):
        _purge()
    r = tmp_path / "repo"
    r.mkdir()
    b = tmp_path / "build"
    debs = [_deb(b, r, PKG, "1.0-1", {f"/usr/share/{PKG}/VERSION": "1.0\n"}),
            _deb(b, r, PKG, "2.0-1", {f"/usr/share/{PKG}/VERSION": "2.0\n"}),
            _deb(b, r, KEYRING, "1.1-1", {f"/usr/share/{KEYRING}/key": "not a real key\n"})]
    (r / "Packages").write_text(_packages_index(debs))
    apt = tmp_path / "apt"
    for d in ("lists/partial", "cache/archives/partial", "etc/sources.list.d", "etc/preferences.d", "etc/apt.conf.d"):
        (apt / d).mkdir(parents=True)
    (apt / "etc" / "sources.list").write_text(f"deb [trusted=yes] file:{r} ./\n")
    conf = apt / "apt.conf"
    conf.write_text(f'Dir::Etc "{apt}/etc";\nDir::State::Lists "{apt}/lists";\nDir::Cache "{apt}/cache";\n'
                    f'Dir::Etc::SourceList "{apt}/etc/sources.list";\nDir::Etc::SourceParts "{apt}/etc/sources.list.d";\n')
    try:
        yield tmp_path, r, conf
    finally:
        _purge()


def test_packages_downloads_and_edits_through_ansible(repo, request):
    from app.fleet.ansible import dump_yaml
    from app.fleet.plan import engine_digests, prepare_tasks, root_prepare_tasks, step_tasks
    from app.fleet.zipapp import build_zipapp
    from app.plan.model import Check, Download, Edit, Step

    tmp, r, conf = repo
    target = tmp / "etc-file.conf"
    target.write_text("old = 1\n")
    rc = tmp / "bashrc"
    rc.write_text("alias ll='ls -l'\nexport PATH=/usr/local/cuda-11.8/bin:$PATH\n")
    ini = tmp / "wsl.conf"
    ini.write_text("[automount]\r\nenabled = true\r\n")
    # the host logs in as an unprivileged user: its own files (the engine's folder, the marker of its
    # one unprivileged step) live where that user may write; pytest's folder is root's alone (0700)
    shared = Path(tempfile.mkdtemp(prefix="gwfleet-apt-", dir="/tmp"))
    os.chmod(shared, 0o1777)
    request.addfinalizer(lambda: shutil.rmtree(shared, ignore_errors=True))
    marker = shared / "marker"
    steps = [
        Step(id="add_repo", title="Install the repository's keyring package", why="w", kind="add_repo", needs_root=True,
             downloads=(Download(name=f"{KEYRING}_1.1-1_all.deb", url=(r / f"{KEYRING}_1.1-1_all.deb").as_uri(),
                                 checksum_url=(r / "Packages").as_uri()),),
             commands=(("dpkg", "-i", f"@download:{KEYRING}_1.1-1_all.deb"),)),
        Step(id="update_index", title="Refresh the package index", why="w", kind="update_index", needs_root=True,
             commands=(("apt-get", "update"),)),
        Step(id="install_toolkit", title=f"Install {PKG} 1.0", why="w", kind="install_toolkit", needs_root=True,
             commands=(("apt-get", "-o", "Acquire::Retries=1", "install", "-y", "--no-install-recommends", f"{PKG}=1.0-1"),)),
        Step(id="write_env", title="Write the settings file", why="w", kind="write_env", needs_root=True,
             edits=(Edit(path=str(target), content="new = {{ not templated }}\n"),
                    Edit(path=str(rc), mode="append", content="export CUDA_HOME=/usr/local/cuda\n"),
                    Edit(path=str(rc), mode="remove_lines", lines=("export PATH=/usr/local/cuda-11.8/bin:$PATH",)),
                    Edit(path=str(ini), mode="ini_set", section="automount", settings=(("ldconfig", "false"),))),
             backups=(str(target), str(rc), str(ini))),
        Step(id="run_command", title="A plain command, guarded by its own check", why="w", kind="write_env",
             commands=(("sh", "-c", f"echo ran >> {marker}"),), done_when=(Check("file_contains", (str(marker), "ran")),)),
    ]
    tasks = [t for i, s in enumerate(steps, 1) for t in step_tasks(s, i)]
    build_zipapp(tmp / "gpu-wizard.pyz")
    play = {"name": "fleet apt test", "hosts": "alpha", "gather_facts": False,
            "vars": engine_digests((tmp / "gpu-wizard.pyz").read_bytes()),
            "environment": {"APT_CONFIG": str(conf)}, "tasks": prepare_tasks() + root_prepare_tasks() + tasks}
    pb = tmp / "pb.yml"
    pb.write_text(dump_yaml([play]))
    with SshHosts(tmp / "ssh", ["alpha"], r) as hosts:  # (this test reads its repository by its own path)
        h = hosts.hosts[0]
        v = dict(hosts.inventory_vars(h), gpu_wizard_remote_dir=str(shared / "remote"), gpu_wizard_root_dir=str(tmp / "root" / "fleet"))
        (tmp / "inv.ini").write_text("alpha " + " ".join(f"{k}='{x}'" for k, x in v.items()) + "\n")
        from app.fleet.ansible import run_playbook

        first = run_playbook(str(pb), str(tmp / "inv.ini"), timeout_s=900)
        out = "".join(ln + "\n" for ln in first.output_tail)
        assert first.rc == 0 and first.recap["alpha"].changed >= 4, out
        assert _installed(KEYRING) == "1.1-1"
        assert _installed(PKG) == "1.0-1"  # the pin, though 2.0-1 is in the repository
        assert target.read_text() == "new = {{ not templated }}\n"  # plan text is never templated
        assert [p for p in tmp.iterdir() if p.name.startswith("etc-file.conf.") and p.read_text() == "old = 1\n"]  # backup
        # root's steps keep their downloads and backups in root's own folder, beside root's copy of the engine
        assert (tmp / "root" / "fleet" / "downloads" / f"{KEYRING}_1.1-1_all.deb").is_file()
        st = os.stat(tmp / "root" / "fleet" / "gpu-wizard.pyz")
        assert st.st_uid == 0 and st.st_mode & 0o777 == 0o644 and os.stat(tmp / "root" / "fleet").st_mode & 0o777 == 0o755
        assert not (shared / "remote" / "downloads").exists()
        text = rc.read_text()
        assert "export CUDA_HOME=/usr/local/cuda" in text and "cuda-11.8" not in text and "alias ll" in text
        assert "ldconfig" in ini.read_text() and "enabled = true" in ini.read_text()
        assert list((tmp / "root" / "fleet" / "backups").rglob("*")), "the INI file was backed up first"
        assert marker.read_text() == "ran\n"
        second = run_playbook(str(pb), str(tmp / "inv.ini"), timeout_s=900)
        assert second.rc == 0 and second.recap["alpha"].changed == 0, "".join(ln + "\n" for ln in second.output_tail)
        assert marker.read_text() == "ran\n"  # its check held: not run again
        # a checksum that does not match stops the download before anything installs it
        good = hashlib.sha256((r / f"{KEYRING}_1.1-1_all.deb").read_bytes()).hexdigest()
        (r / "Packages").write_text((r / "Packages").read_text().replace(good, "0" * 64))
        os.unlink(tmp / "root" / "fleet" / "downloads" / f"{KEYRING}_1.1-1_all.deb")
        third = run_playbook(str(pb), str(tmp / "inv.ini"), timeout_s=900)
        assert third.recap["alpha"].failed == 1 and not (tmp / "root" / "fleet" / "downloads" / f"{KEYRING}_1.1-1_all.deb").exists()
        assert any("checksum" in ln.lower() for ln in third.output_tail), "\n".join(third.output_tail[-30:])
