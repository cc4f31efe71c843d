"""installers/linux/install.sh, run for real on a bundle-shaped folder (the real install.sh, menu
entry, icon and polkit action; a small stand-in for the PyInstaller executable, so this runs in
seconds without building the bundle; test_bundle.py installs the real one): program files and the
user's data live apart, so reinstall and --uninstall keep the sessions and --purge removes them;
--system installs a root-owned, read-only copy and points the polkit action at it."""
from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration
ROOT = Path(__file__).resolve().parents[2]
LINUX = ROOT / "installers" / "linux"


def _bundle(tmp_path: Path, version: str = "1") -> Path:
    b = tmp_path / f"bundle-{version}" / "gpu-wizard"
    (b / "_internal").mkdir(parents=True)
    (b / "_internal" / f"lib-{version}.so").write_text("x")
    exe = b / "gpu-wizard"
    exe.write_text(f"#!/bin/sh\necho gpu-wizard {version}\n")
    exe.chmod(0o755)
    for f in ("install.sh", "gpu-wizard.desktop", "gpu-wizard.svg", "gpu-wizard-mime.xml"):
        shutil.copy(LINUX / f, b / f)
    (b / "polkit").mkdir()
    shutil.copy(ROOT / "installers" / "polkit" / "org.gpuwizard.helper.policy", b / "polkit")
    return b


def _run(bundle: Path, env: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", str(bundle / "install.sh"), *args], env=env, capture_output=True, text=True, timeout=120)


def _user_env(tmp_path: Path) -> dict:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("XDG_")}
    env.update(HOME=str(home), PREFIX=str(home / ".local"))
    return env


def test_reinstall_and_uninstall_keep_the_sessions_purge_removes_them(tmp_path):
    env = _user_env(tmp_path)
    home = Path(env["HOME"])
    r = _run(_bundle(tmp_path, "1"), env)
    assert r.returncode == 0, r.stderr
    prog = home / ".local/lib/gpu-wizard"
    assert (prog / "gpu-wizard").is_file() and (prog / "_internal/lib-1.so").is_file()
    desktop = (home / ".local/share/applications/gpu-wizard.desktop").read_text()
    assert f"Exec={prog}/gpu-wizard" in desktop and "@EXEC@" not in desktop
    assert (home / ".local/share/mime/packages/gpu-wizard.xml").is_file()
    link = home / ".local/bin/gpu-wizard"
    assert subprocess.run([str(link)], capture_output=True, text=True).stdout.strip() == "gpu-wizard 1"
    # the wizard's data, where the wizard writes it (XDG data, state and config folders)
    session = home / ".local/share/gpu-wizard/sessions/20261201-100000/state.json"
    session.parent.mkdir(parents=True)
    session.write_text('{"status": "failed"}')
    settings = home / ".config/gpu-wizard/config.json"
    settings.parent.mkdir(parents=True)
    settings.write_text("{}")
    state = home / ".local/state/gpu-wizard/install-page.json"
    state.parent.mkdir(parents=True)
    state.write_text("{}")

    r = _run(_bundle(tmp_path, "2"), env)  # a newer bundle over the old one
    assert r.returncode == 0, r.stderr
    assert subprocess.run([str(link)], capture_output=True, text=True).stdout.strip() == "gpu-wizard 2"
    assert not (prog / "_internal/lib-1.so").exists(), "the old program's files must go"
    assert session.read_text() == '{"status": "failed"}' and settings.exists() and state.exists()

    r = _run(prog, env, "--uninstall")
    assert r.returncode == 0, r.stderr
    assert not prog.exists() and not link.exists() and not (home / ".local/share/applications/gpu-wizard.desktop").exists()
    assert not (home / ".local/share/mime/packages/gpu-wizard.xml").exists()
    assert session.exists() and settings.exists() and state.exists()
    assert "--purge" in r.stdout and "kept" in r.stdout

    _run(_bundle(tmp_path, "3"), env)
    r = _run(prog, env, "--purge")
    assert r.returncode == 0, r.stderr
    assert not prog.exists() and not session.exists() and not settings.exists() and not state.exists()
    assert "sessions and settings" in r.stdout


def test_an_older_bundle_in_the_data_folder_is_moved_out_and_its_sessions_stay(tmp_path):
    env = _user_env(tmp_path)
    data = Path(env["HOME"]) / ".local/share/gpu-wizard"
    old = _bundle(tmp_path, "0")
    shutil.copytree(old, data)  # how the earlier install.sh laid it out: program and sessions in one folder
    (data / "sessions/s1").mkdir(parents=True)
    (data / "sessions/s1/state.json").write_text("{}")
    r = _run(_bundle(tmp_path, "1"), env)
    assert r.returncode == 0, r.stderr
    assert not (data / "gpu-wizard").exists() and not (data / "_internal").exists()
    assert (data / "sessions/s1/state.json").exists()


def test_user_install_refuses_root_without_prefix(tmp_path):
    if os.geteuid() != 0:
        pytest.skip("checks what happens when root runs the per-user install")
    env = _user_env(tmp_path)
    env.pop("PREFIX")
    r = _run(_bundle(tmp_path), env)
    assert r.returncode == 2 and "not root" in r.stderr and "--system" in r.stderr


def test_system_install_is_root_owned_and_the_polkit_action_names_that_copy(tmp_path):
    if os.geteuid() != 0:
        pytest.skip("--system writes root-owned files: needs root (or sudo)")
    env = _user_env(tmp_path)
    env.pop("PREFIX")
    dest = tmp_path / "root"
    env["DESTDIR"] = str(dest)
    bundle = _bundle(tmp_path)
    os.chmod(bundle / "gpu-wizard", 0o777)  # a user-writable source file must not stay writable
    r = _run(bundle, env, "--system")
    assert r.returncode == 0, r.stderr
    prog = dest / "opt/gpu-wizard"
    for p in [prog, *prog.rglob("*")]:
        st = p.lstat()
        assert st.st_uid == 0 and st.st_gid == 0, p
        assert not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH), (p, oct(st.st_mode))
    assert stat.S_IMODE(prog.stat().st_mode) == 0o755
    policy = (dest / "usr/share/polkit-1/actions/org.gpuwizard.helper.policy").read_text()
    assert ">/opt/gpu-wizard/gpu-wizard<" in policy and "@HELPER@" not in policy
    assert "Exec=/opt/gpu-wizard/gpu-wizard" in (dest / "usr/share/applications/gpu-wizard.desktop").read_text()
    assert os.readlink(dest / "usr/local/bin/gpu-wizard") == "/opt/gpu-wizard/gpu-wizard"
    assert "sudo" in r.stdout + r.stderr  # a staged install says what administrator steps use without pkexec
    r = _run(prog, env, "--uninstall", "--system")
    assert r.returncode == 0, r.stderr
    assert not prog.exists() and not (dest / "usr/share/polkit-1/actions/org.gpuwizard.helper.policy").exists()


def _root_only_all_the_way(path: Path) -> bool:
    """Whether `path` and every folder above it are root's and writable by no one else."""
    for p in [path, *path.parents]:
        st = os.lstat(p)
        if st.st_uid != 0 or st.st_mode & 0o022 or stat.S_ISLNK(st.st_mode):
            return False
    return True


@pytest.mark.parametrize("where", ["user_folder", "through_a_link", "world_writable"])
def test_system_install_refuses_a_prefix_a_user_could_swap(tmp_path, where):
    """Root runs the --system copy (pkexec, sudo): a PREFIX inside a user's folder, behind a link or
    under a world-writable folder is refused in one line, naming that folder, before anything is written."""
    env = _user_env(tmp_path)
    base = ROOT / "build" / f"prefix-test-{os.getpid()}-{where}"  # root-owned all the way up when run as root
    base.mkdir(parents=True)
    try:
        if where == "user_folder":
            bad = base / "home-of-a-user"
            bad.mkdir()
            if os.geteuid() == 0:
                os.chown(bad, 54321, 54321)
            target = bad / "apps"
        elif where == "through_a_link":
            bad = base / "opt-link"
            bad.symlink_to("/opt")
            target = bad
        else:
            bad = base / "shared"
            bad.mkdir()
            bad.chmod(0o1777)
            target = bad / "apps"
        env["PREFIX"] = str(target)
        env["DESTDIR"] = str(tmp_path / "root")
        r = _run(_bundle(tmp_path), env, "--system")
        assert r.returncode == 2, r.stdout + r.stderr
        assert r.stderr.count("\n") == 1 and "refusing PREFIX" in r.stderr and "only root can change" in r.stderr
        if os.geteuid() == 0 and _root_only_all_the_way(ROOT):  # (a checkout under /tmp: /tmp is named first)
            assert f"{bad} (" in r.stderr, r.stderr  # this folder, not one above it
        assert "//" not in r.stderr, r.stderr
        assert not (tmp_path / "root").exists()  # nothing written
    finally:
        shutil.rmtree(base, ignore_errors=True)
