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


def _dnf_facts(os_id, ver, like=()):
    return Facts(os=OsInfo(platform="linux", id=os_id, version_id=ver, id_like=like, arch="x86_64", package_manager="dnf", kernel="6.12.0-55.el10.x86_64"),
                 driver=DriverInfo(state="not_installed", kernel_headers_installed=True),
                 gpus=(Gpu(index=0, name="NVIDIA H200", compute_capability="9.0"),), python=PythonEnv(path="/usr/bin/python3", version="3.12"))


def test_dnf_streams_on_rhel9_versionlock_on_rhel10_and_fedora():
    from app.run.privileged import argv_allowed

    f9 = _dnf_facts("rocky", "9.4", ("rhel", "centos", "fedora"))
    drv = build_plan(f9, recommend(f9, load_db()), Choices(install_method="dnf")).step("install_driver")
    assert drv.commands == (("dnf", "-y", "module", "install", "nvidia-driver:580-open"),)
    for facts, plugin in ((_dnf_facts("rhel", "10.0"), "python3-dnf-plugin-versionlock"), (_dnf_facts("fedora", "42"), "dnf-plugin-versionlock")):
        rec = recommend(facts, load_db())
        drv = build_plan(facts, rec, Choices(install_method="dnf")).step("install_driver")
        assert drv.commands == (("dnf", "-y", "install", plugin), ("dnf", "-y", "versionlock", "add", "*nvidia*580*"),
                                ("dnf", "-y", "install", "nvidia-open")), facts.os.id
        assert all(argv_allowed("install_driver", c) for c in drv.commands)
    assert not argv_allowed("install_driver", ("dnf", "-y", "versionlock", "add", "*"))  # only the NVIDIA branch lock
