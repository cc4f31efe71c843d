"""The helper's allow-list for the step kinds the diagnosis proposes (install the container toolkit,
rebuild the kernel module, repair packages): exactly the forms the fixes use, nothing near them."""
import pytest

from app.plan.model import STEP_KINDS
from app.run.privileged import PolicyError, argv_allowed, check_run

CASES = [
    ("install_container_toolkit", ["apt-get", "install", "-y", "nvidia-container-toolkit"], True),
    ("install_container_toolkit", ["dnf", "install", "-y", "nvidia-container-toolkit"], True),
    ("install_container_toolkit", ["nvidia-ctk", "runtime", "configure", "--runtime=docker"], True),
    ("install_container_toolkit", ["nvidia-ctk", "runtime", "configure", "--runtime=containerd"], True),
    ("install_container_toolkit", ["systemctl", "restart", "docker"], True),
    ("install_container_toolkit", ["apt-get", "install", "-y", "nvidia-driver-550"], False),  # not a toolkit package
    ("install_container_toolkit", ["apt-get", "install", "-y", "nvidia-container-toolkit", "openssh-server"], False),
    ("install_container_toolkit", ["apt-get", "-o", "APT::Get::AllowUnauthenticated=1", "install", "nvidia-container-toolkit"], False),
    ("install_container_toolkit", ["nvidia-ctk", "runtime", "configure", "--runtime=docker", "--config=/etc/shadow"], False),
    ("install_container_toolkit", ["systemctl", "restart", "sshd"], False),
    ("install_container_toolkit", ["systemctl", "stop", "docker"], False),
    ("rebuild_kernel_module", ["apt-get", "install", "-y", "linux-headers-6.8.0-45-generic"], True),
    ("rebuild_kernel_module", ["dnf", "install", "-y", "kernel-devel-6.8.10-300.fc40.x86_64"], True),
    ("rebuild_kernel_module", ["dkms", "autoinstall"], True),
    ("rebuild_kernel_module", ["dkms", "autoinstall", "-k", "6.4.1-zen1-1-zen"], True),
    ("rebuild_kernel_module", ["dkms", "autoinstall", "-k", "../../etc"], False),
    ("rebuild_kernel_module", ["dkms", "autoinstall", "-k", "6.4.1 --force"], False),
    ("rebuild_kernel_module", ["dkms", "remove", "nvidia/550", "--all"], False),
    ("rebuild_kernel_module", ["apt-get", "install", "-y", "linux-headers-6.8.0-45-generic", "netcat"], False),
    ("rebuild_kernel_module", ["apt-get", "purge", "-y", "linux-headers-6.8.0-45-generic"], False),
    ("fix_packages", ["apt-mark", "unhold", "cuda-drivers", "nvidia-driver-440"], True),
    ("fix_packages", ["apt-mark", "unhold", "openssl"], False),
    ("fix_packages", ["apt-mark", "hold", "cuda-drivers"], False),
    ("fix_packages", ["dpkg", "--configure", "-a"], True),
    ("fix_packages", ["dpkg", "-i", "/tmp/x.deb"], False),
    ("fix_packages", ["apt-get", "install", "-f", "-y"], True),
    ("fix_packages", ["apt-get", "-y", "--fix-broken", "install"], True),
    ("fix_packages", ["apt-get", "install", "-f", "-y", "openssh-server"], False),
    ("write_config", ["gpu-wizard"], False),  # the wizard's own config is the user's file: never a root step
]


@pytest.mark.parametrize("kind,argv,ok", CASES)
def test_fix_kinds_allow_list(kind, argv, ok):
    assert kind in STEP_KINDS
    assert argv_allowed(kind, argv) is ok


def test_a_refused_fix_command_is_a_clear_policy_error():
    with pytest.raises(PolicyError, match="may not run"):
        check_run("fix_packages", ["apt-mark", "unhold", "openssl"], {})
