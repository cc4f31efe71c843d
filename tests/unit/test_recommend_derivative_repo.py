"""A derivative distribution gets its base's NVIDIA repository: Linux Mint 22 (VERSION_ID 22, VERSION_CODENAME
wilma) names its Ubuntu base as UBUNTU_CODENAME=noble (the os-release below is Linux Mint 22's, as many public
installers quote it), so the toolkit comes from NVIDIA's ubuntu2404 repository, not "no NVIDIA repository"."""
from pathlib import Path

from detect_helpers import snapshot

from app.choices import Choices
from app.compat import load_db
from app.detect import detect
from app.facts import DriverInfo, Gpu, PythonEnv
from app.recommend import recommend

MINT22 = """NAME="Linux Mint"
VERSION="22 (Wilma)"
ID=linuxmint
ID_LIKE="ubuntu debian"
PRETTY_NAME="Linux Mint 22"
VERSION_ID="22"
HOME_URL="https://www.linuxmint.com/"
SUPPORT_URL="https://forums.linuxmint.com/"
VERSION_CODENAME=wilma
UBUNTU_CODENAME=noble
"""
LMDE6 = """PRETTY_NAME="LMDE 6 (faye)"
NAME="LMDE"
VERSION_ID="6"
VERSION="6 (faye)"
VERSION_CODENAME=faye
ID=linuxmint
ID_LIKE=debian
DEBIAN_CODENAME=bookworm
"""


def _rec(os_release):
    f = detect(snapshot({"/etc/os-release": os_release}, {}))
    f = f.replace(gpus=(Gpu(index=0, name="NVIDIA GeForce RTX 4070", compute_capability="8.9"),),
                  driver=DriverInfo(state="ok", version="580.95.05"), python=PythonEnv(path="/usr/bin/python3", version="3.12"))
    # the shipped data (the pinned test copy predates the codename column)
    return f, recommend(f, load_db(Path(__file__).resolve().parents[2] / "resources" / "compat"), Choices(want_toolkit=True))


def test_mint_uses_the_ubuntu_base_repository():
    f, rec = _rec(MINT22)
    assert f.os.id == "linuxmint" and f.os.codename == "wilma" and f.os.base_codename == "noble"
    assert rec.cuda_toolkit.repo == "ubuntu2404", rec.cuda_toolkit.reason
    assert "no_nvidia_repo" not in {w.code for w in rec.warnings}


def test_lmde_uses_the_debian_base_repository():
    f, rec = _rec(LMDE6)
    assert f.os.base_codename == "bookworm"
    assert rec.cuda_toolkit.repo == "debian12", rec.cuda_toolkit.reason


def test_an_unknown_base_gets_no_repository():
    f, rec = _rec(MINT22.replace("UBUNTU_CODENAME=noble", "UBUNTU_CODENAME=plucky"))
    assert rec.cuda_toolkit.repo is None and "no_nvidia_repo" in {w.code for w in rec.warnings}
