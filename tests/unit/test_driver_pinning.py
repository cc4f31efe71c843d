"""The plan installs the driver branch it names: NVIDIA's pinning package before a branch-less driver
package (Debian/Ubuntu on NVIDIA's repository), the running kernel's headers before the DKMS driver.
The real apt proof with a newer branch present: tests/integration/test_driver_pin_apt.py."""
from app.choices import Choices
from app.compat import load_db
from app.facts import DriverInfo, Facts, Gpu, OsInfo, PythonEnv
from app.plan import build_plan
from app.recommend import recommend


def _facts(os_id, ver, headers=None, kernel="6.1.0-27-amd64"):
    return Facts(os=OsInfo(platform="linux", id=os_id, version_id=ver, arch="x86_64", package_manager="apt", kernel=kernel),
                 driver=DriverInfo(state="not_installed", kernel_headers_installed=headers),
                 gpus=(Gpu(index=0, name="NVIDIA H200", compute_capability="9.0"),), python=PythonEnv(path="/usr/bin/python3", version="3.12"))


def test_debian_pins_the_branch_before_nvidia_open():
    facts = _facts("debian", "12")
    rec = recommend(facts, load_db())
    assert (rec.driver.branch, rec.driver.package, rec.driver.pin_package) == ("580", "nvidia-open", "nvidia-driver-pinning-580")
    drv = build_plan(facts, rec, Choices()).step("install_driver")
    assert drv.commands == (("apt-get", "install", "-y", "linux-headers-6.1.0-27-amd64"),
                            ("apt-get", "install", "-y", "nvidia-driver-pinning-580"),
                            ("apt-get", "install", "-y", "nvidia-open"))
    assert drv.done_when[0].args == ("nvidia-driver-pinning-580", "nvidia-open")
    assert any("R580" in n for n in drv.notes)


def test_headers_are_skipped_only_when_known_installed_and_ubuntu_names_its_branch():
    facts = _facts("ubuntu", "24.04", headers=True)
    drv = build_plan(facts, recommend(facts, load_db()), Choices()).step("install_driver")
    assert drv.commands == (("apt-get", "install", "-y", "nvidia-driver-580-open"),)
    unknown = _facts("ubuntu", "24.04", headers=None)
    drv = build_plan(unknown, recommend(unknown, load_db()), Choices()).step("install_driver")
    assert drv.commands[0] == ("apt-get", "install", "-y", "linux-headers-6.1.0-27-amd64")
