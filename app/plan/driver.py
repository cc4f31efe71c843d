"""NVIDIA driver on native Linux (never on WSL2 or Windows: the host's driver serves those)."""
from __future__ import annotations

from app.choices import Choices
from app.facts import Facts
from app.recommendation import Recommendation

from .common import APT_ENV, NOUVEAU_FILE, UPDATE_INDEX, driver_from_nvidia_repo, package_manager, rec_params, said_notes
from .model import Check, Edit, Step, coded_step

def _mok_note() -> str:
    from app import messages

    return messages.render("plan", "note_mok", {}, "en")


MOK_NOTE = _mok_note()  # the Secure Boot / MOK enrolment note (catalogue "plan.note_mok")


def pin_packages(rec: Recommendation) -> tuple[str, ...]:
    """The package that holds apt to the plan's branch, installed before the driver (NVIDIA Driver
    Installation Guide, "Version locking" / "Recent updates": Debian and Ubuntu pinning packages
    nvidia-driver-pinning-<branch>; from R590 NVIDIA's Ubuntu/Debian driver packages carry no branch in
    their name, so without it `nvidia-open` follows the newest branch)."""
    d = rec.driver
    return (d.pin_package,) if d.pin_package and d.branch and d.branch in d.pin_package else ()


def driver_packages(facts: Facts, rec: Recommendation) -> tuple[str, ...]:
    d = rec.driver
    if d.package:
        return (d.package,)
    if not d.branch:
        return ()
    open_ = d.flavour != "proprietary"
    if (facts.os.id or "").lower() == "ubuntu":
        return (f"nvidia-driver-{d.branch}{'-open' if open_ else ''}",)
    # NVIDIA's own repository (Debian and others): open or proprietary kernel modules per branch
    return (f"nvidia-open-{d.branch}",) if open_ else (f"cuda-drivers-{d.branch}",)


def _versionlock_distro(facts: Facts, rec: Recommendation) -> bool:
    """Fedora, and RHEL-family 10 or newer: no nvidia-driver module streams (NVIDIA Driver Installation Guide,
    "Kernel Modules", table "Open GPU kernel module installation")."""
    pkg = rec.driver.package or ""
    if pkg.startswith("@nvidia-driver:"):  # the data names a module stream: RHEL-family 10 has none
        major = (facts.os.version_id or "").split(".")[0]
        return major.isdigit() and int(major) >= 10
    return (facts.os.id or "").lower() == "fedora" or pkg in ("nvidia-open", "cuda-drivers")


def build_driver_steps(facts: Facts, rec: Recommendation, choices: Choices) -> list[Step]:
    if facts.os.platform != "linux" or facts.os.wsl or not choices.install_driver:
        return []
    if rec.driver.action not in ("install", "upgrade"):
        return []
    pm = package_manager(facts)
    steps: list[Step] = []
    if facts.driver.nouveau_loaded:
        rebuild = ("update-initramfs", "-u") if pm == "apt" else ("dracut", "-f")
        content = ("# Written by GPU Setup Wizard: the NVIDIA driver cannot load while nouveau holds the GPU.\n"
                   "blacklist nouveau\noptions nouveau modeset=0\n")
        steps.append(coded_step(
            "blacklist_nouveau", "blacklist_nouveau", "blacklist_nouveau", "blacklist_nouveau_why",
            needs_root=True, weight=2, timeout_s=900,
            edits=(Edit(path=NOUVEAU_FILE, content=content),), backups=(NOUVEAU_FILE,),
            commands=(rebuild,), reboot_required=True,
            done_when=(Check("file_contains", (NOUVEAU_FILE, "blacklist nouveau")),),
        ))
    pkgs = driver_packages(facts, rec)
    if not pkgs:
        return steps
    notes: list[tuple[str, dict]] = []
    if facts.driver.secure_boot:
        notes.append(("note_mok", {}))
    headers: tuple[str, ...] = ()
    # the driver's kernel module is built by DKMS for the running kernel: its headers first (unless known there)
    if facts.driver.kernel_headers_installed is not True and facts.os.kernel:
        headers = (f"linux-headers-{facts.os.kernel}",) if pm == "apt" else (f"kernel-devel-{facts.os.kernel}",)
    pins = pin_packages(rec) if pm == "apt" else ()
    params = {"branch": f"{rec.driver.branch} " if rec.driver.branch else "", "flavour": rec.driver.flavour or "open"}
    if rec.driver.reason:
        params.update(reason=rec.driver.reason, **rec_params("reason", rec.driver.reason_code, rec.driver.reason_params))
    else:
        params["reason_code"] = "install_driver_reason_default"
    if pm == "apt":
        # with recommends: the driver's recommended parts (settings tool, PRIME on laptops) belong to it
        cmds = tuple(c for c in (("apt-get", "install", "-y", *headers) if headers else None,
                                 ("apt-get", "install", "-y", *pins) if pins else None,
                                 ("apt-get", "install", "-y", *pkgs)) if c)
        done = (Check("dpkg_installed", (*pins, *pkgs)),)
        if pins:
            notes.append(("note_pin_apt", {"pin": pins[0], "branch": rec.driver.branch}))
        env = dict(APT_ENV)
    elif pm in ("dnf", "yum") and rec.driver.branch and _versionlock_distro(facts, rec):
        # RHEL 10 and Fedora have no module streams: NVIDIA's guide locks the branch with dnf versionlock, then
        # installs nvidia-open (open modules) or cuda-drivers (proprietary)
        pkg = "cuda-drivers" if rec.driver.flavour == "proprietary" else "nvidia-open"
        plugin = "dnf-plugin-versionlock" if (facts.os.id or "").lower() == "fedora" else "python3-dnf-plugin-versionlock"
        cmds = tuple(c for c in (("dnf", "-y", "install", *headers) if headers else None,
                                 ("dnf", "-y", "install", plugin),
                                 ("dnf", "-y", "versionlock", "add", f"*nvidia*{rec.driver.branch}*"),
                                 ("dnf", "-y", "install", pkg)) if c)
        done = (Check("command_ok", ("rpm", "-q", pkg)),)
        env = {}
        notes.append(("note_versionlock", {"branch": rec.driver.branch}))
    elif pm in ("dnf", "yum"):
        branch = rec.driver.branch or "latest"
        stream = f"{branch}-open" if rec.driver.flavour != "proprietary" else f"{branch}-dkms"
        if rec.driver.package and rec.driver.package.startswith("@nvidia-driver:"):  # the compat data's module spec
            stream = rec.driver.package.split(":", 1)[1]
        cmds = tuple(c for c in (("dnf", "-y", "install", *headers) if headers else None,
                                 ("dnf", "-y", "module", "install", f"nvidia-driver:{stream}")) if c)
        done = (Check("command_ok", ("rpm", "-q", "nvidia-driver")),)
        env = {}
    else:
        return steps
    steps.append(coded_step(
        "install_driver", "install_driver", "upgrade_driver" if rec.driver.action == "upgrade" else "install_driver",
        "install_driver_why", params, needs_root=True, weight=20, timeout_s=3600,
        commands=cmds, done_when=done, env=env, reboot_required=True, **said_notes(*notes),
        after=(UPDATE_INDEX,) if driver_from_nvidia_repo(facts, rec) else (),
    ))
    return steps
