"""The workstation and WSL 2 journeys keep their click counts with a real root step behind the real
password dialog (tests/ui/door_journeys.py, run as a password user in tests/realsudo.py's private
namespace): the workstation's driver step really runs `apt-get install -y nvidia-driver-580-open`
as root, from a local apt repository holding a small package of that name; the WSL 2 step really
makes its links and edits. The count includes the password dialog: the password is typed and
Enter pressed, as a user does; no extra click."""
from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests import realsudo
from tests.realsudo import CHECKOUT, PASSWORD, run_door

pytestmark = realsudo.marks()

DRIVER = "nvidia-driver-580-open"
SOURCE = "/etc/apt/sources.list.d/gwdoor-journey.list"
REPO = "/var/lib/gwdoor-journey-repo"  # inside the namespace (apt's _apt user reads it)


def local_repo(tmp: Path) -> Path:
    """A file:// apt repository (flat, trusted for this one source) with a small package named like
    the driver, which leaves one root-owned file behind."""
    if shutil.which("dpkg-deb") is None:
        pytest.skip("dpkg-deb is not available (not a Debian-family machine)")
    repo, root = tmp / "repo", tmp / "pkg"
    (root / "DEBIAN").mkdir(parents=True)
    (root / "DEBIAN" / "control").write_text(
        f"Package: {DRIVER}\nVersion: 580.95.05-0gwdoor1\nArchitecture: all\nMaintainer: GPU Wizard tests <tests@invalid>\n"
        "Priority: optional\nSection: non-free/libs\nDescription: stand-in for the NVIDIA driver (journey test)\n")
    doc = root / "usr" / "share" / "doc" / DRIVER
    doc.mkdir(parents=True)
    (doc / "installed-by-gwdoor").write_text("installed by apt-get, as root, through the wizard's helper\n")
    repo.mkdir()
    deb = repo / f"{DRIVER}_580.95.05-0gwdoor1_all.deb"
    subprocess.run(["dpkg-deb", "--root-owner-group", "-Zgzip", "--build", str(root), str(deb)], check=True, capture_output=True)
    fields = subprocess.run(["dpkg-deb", "-f", str(deb)], check=True, capture_output=True, text=True).stdout.strip()
    data = deb.read_bytes()
    (repo / "Packages").write_text(fields + f"\nFilename: ./{deb.name}\nSize: {len(data)}\nSHA256: {hashlib.sha256(data).hexdigest()}\n")
    for p in (tmp, repo, *repo.iterdir()):
        p.chmod(0o755 if p.is_dir() else 0o644)
    return repo


def _journey(case: str, extra: dict) -> dict:
    r = run_door({"argv": [f"{CHECKOUT}/.venv/bin/python", "-m", "pytest", "-q", "-s", "-x", "-p", "no:cacheprovider", "--color=no",
                           f"tests/ui/door_journeys.py::{case}"],
                  "cwd": CHECKOUT, "timeout_s": 240,
                  "env": {"DOOR_PASSWORD": PASSWORD, "QT_QPA_PLATFORM": "offscreen", "PYTHONDONTWRITEBYTECODE": "1"},
                  **extra}, timeout_s=300)
    assert r["rc"] == 0, r["transcript"][-5000:]
    assert "1 passed" in r["transcript"] and PASSWORD not in r["transcript"]
    line = next(x for x in r["transcript"].splitlines() if x.strip().startswith('{"journey"'))
    figures = json.loads(line.strip())
    print(f"journey {figures['journey']} with the real password dialog: {figures['clicks']} clicks, "
          f"password typed {figures['password_typed']}x; Install→root step running {figures['install_to_root_step_s']} s")
    return figures


def test_workstation_journey_real_driver_step(tmp_path):
    repo = local_repo(tmp_path)
    f = _journey("test_workstation_journey_with_a_real_root_step", {
        "copy_dirs": {str(repo): REPO}, "root_files": {SOURCE: f"deb [trusted=yes] file://{REPO} ./\n"},
        "root_setup": [["apt-get", "update", "-q", "-o", f"Dir::Etc::sourcelist={SOURCE}", "-o", "Dir::Etc::sourceparts=-",
                        "-o", "APT::Get::List-Cleanup=0"]]})
    assert f["clicks"] <= 5


def test_wsl2_journey_real_links_step():
    f = _journey("test_wsl2_journey_with_a_real_root_step", {
        "root_files": {"/usr/lib/wsl/lib/libcuda.so.1.1": "stand-in for the Windows driver's libcuda (a plain file, as WSL has it)\n"}})
    assert f["clicks"] <= 5


def test_cancel_in_the_window_dialog_then_retry():
    r = run_door({"argv": [f"{CHECKOUT}/.venv/bin/python", "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", "--color=no",
                           "tests/ui/door_journeys.py::test_cancel_in_the_dialog_then_retry"],
                  "cwd": CHECKOUT, "timeout_s": 240,
                  "env": {"DOOR_PASSWORD": PASSWORD, "QT_QPA_PLATFORM": "offscreen", "PYTHONDONTWRITEBYTECODE": "1"},
                  "root_files": {"/usr/lib/wsl/lib/libcuda.so.1.1": "stand-in\n"}}, timeout_s=300)
    assert r["rc"] == 0 and "1 passed" in r["transcript"], r["transcript"][-5000:]
