"""The WSL 2 guard: no plan may install a Linux NVIDIA driver inside WSL 2 (it shadows the Windows driver's
libcuda). It used to look only at `apt-get install` / `dnf -y` with nvidia-driver*/cuda/cuda-drivers, so the
nvidia-open packages, `apt-get -o ... install`, versioned or arch-qualified names and cuda-drivers-NNN passed."""
from __future__ import annotations

import json

import pytest

from app.choices import Choices, Mirrors
from app.compat import load_db
from app.detect import detect
from app.plan import PlanError, build_plan
from app.plan.model import Step
from app.plan.wsl import linux_driver_in
from app.paths import resource
from app.recommend import recommend
from app.system import SnapshotSystem

DRIVERS = [
    ("apt-get", "install", "-y", "nvidia-open"),
    ("apt-get", "install", "-y", "nvidia-open-580"),
    ("apt-get", "-o", "Acquire::https::CaInfo=/etc/ssl/corp.pem", "install", "-y", "nvidia-driver-580-open"),
    ("dnf", "install", "-y", "nvidia-open"),
    ("dnf", "-y", "install", "nvidia-open-580.95.05"),
    ("dnf", "module", "install", "-y", "nvidia-driver:580-open"),
    ("apt-get", "install", "nvidia-open-580=580.95.05-0ubuntu1"),
    ("apt-get", "install", "-y", "libnvidia-compute-580:amd64"),
    ("apt-get", "install", "-y", "cuda-drivers-580"),
    ("apt-get", "install", "-y", "cuda"),
    ("apt-get", "install", "-y", "cuda-12-8"),
    ("/usr/bin/apt", "install", "nvidia-utils-580"),
    ("zypper", "in", "nvidia-open-driver-G06-signed"),
    ("dpkg", "-i", "/tmp/nvidia-driver-580_580.95.05_amd64.deb"),
]
NOT_DRIVERS = [
    ("apt-get", "install", "-y", "cuda-toolkit-12-8"),
    ("apt-get", "install", "-y", "cuda-keyring"),
    ("apt-get", "remove", "-y", "nvidia-open"),  # removing one is the repair
    ("apt-get", "purge", "-y", "nvidia-driver-580"),
    ("apt-get", "install", "-y", "nvidia-cuda-toolkit"),
    ("/root/.venvs/gpu/bin/python", "-m", "pip", "install", "nvidia-cudnn-cu12"),
    ("apt-get", "update"),
]


@pytest.mark.parametrize("argv", DRIVERS)
def test_driver_installs_are_caught(argv):
    assert linux_driver_in(argv)


@pytest.mark.parametrize("argv", NOT_DRIVERS)
def test_other_commands_pass(argv):
    assert linux_driver_in(argv) is None


def _wsl_facts():
    return detect(SnapshotSystem(json.loads(resource("snapshots", "wsl2-laptop-rtx4070-ubuntu2204.json").read_text())))


def test_build_plan_refuses_an_nvidia_open_install_inside_wsl2(monkeypatch):
    import app.plan.toolkit as tk

    facts = _wsl_facts()
    rec = recommend(facts, load_db(use_user_bundle=False), Choices(want_toolkit=True))
    bad = Step(id="sneaky", kind="install_toolkit", title="t", why="w", needs_root=True,
               commands=(("apt-get", "-o", "Acquire::https::CaInfo=/etc/ssl/x.pem", "install", "-y", "nvidia-open"),))
    monkeypatch.setattr(tk, "build_toolkit_steps", lambda f, r, c: [bad])
    with pytest.raises(PlanError, match="nvidia-open"):
        build_plan(facts, rec, Choices(want_toolkit=True))


@pytest.mark.parametrize("choices", [Choices(), Choices(want_toolkit=True), Choices(want_toolkit=True, install_method="runfile"),
                                     Choices(want_toolkit=True, mirrors=Mirrors(ca_bundle="/etc/ssl/certs/ca-certificates.crt"))])
def test_real_wsl2_plans_pass_the_guard(choices):
    facts = _wsl_facts()
    plan = build_plan(facts, recommend(facts, load_db(use_user_bundle=False), choices), choices)
    assert plan.steps and not any(linux_driver_in(a) for s in plan.steps for a in s.commands)
