"""Plan model: JSON round-trip, step shape, and is_done checks evaluated against a recorded System."""
from __future__ import annotations

import pytest

from app.model import ModelError
from app.plan import Check, Download, Edit, Plan, Step, evaluate, is_done
from app.plan.model import STEP_KINDS, validate_step
from app.system import SnapshotSystem


def _snap(**kw):
    data = {"format": "gpu-wizard-snapshot/1", "platform": "linux", "files": {}, "dirs": {}, "links": {}, "commands": {}}
    data.update(kw)
    return SnapshotSystem(data)


def test_plan_json_round_trip_keeps_everything():
    step = Step(id="install_cuda_toolkit", kind="install_toolkit", title="t", why="w", needs_root=True,
                commands=(("apt-get", "install", "-y", "cuda-toolkit-12-8"),), env={"DEBIAN_FRONTEND": "noninteractive"},
                done_when=(Check("dpkg_installed", ("cuda-toolkit-12-8",)),), weight=25, timeout_s=3600,
                edits=(Edit("/etc/profile.d/cuda.sh", content="x\n"),), backups=("/etc/profile.d/cuda.sh",),
                downloads=(Download("k.deb", "https://example.invalid/k.deb", checksum_url="https://example.invalid/Packages"),),
                reboot_required=True, notes=("n",), removes=("r",))
    plan = Plan(steps=(step,), platform="linux", created="2026-11-29T00:00:00+00:00", facts_summary={"os": "Ubuntu"},
                warnings=("w",), choices={"venv_path": "~/.venvs/gpu"})
    again = Plan.loads(plan.dumps())
    assert again == plan
    assert again.steps[0].commands[0] == ("apt-get", "install", "-y", "cuda-toolkit-12-8")
    assert again.needs_root and again.total_weight == 25


def test_plan_loads_rejects_bad_data_clearly():
    with pytest.raises(ModelError):
        Plan.loads("{not json")
    with pytest.raises(ModelError):
        Plan.from_json({"steps": [{"id": "x"}]})  # title, why, kind missing


def test_validate_step_catches_bad_shapes():
    good = Step(id="install_driver", kind="install_driver", title="t", why="w", commands=(("apt-get", "install", "-y", "x"),))
    assert validate_step(good) == []
    assert validate_step(good.replace(id="driverInstall"))  # not verb-first snake_case
    assert validate_step(good.replace(kind="rm_everything"))
    assert validate_step(good.replace(commands=(("dpkg", "-i", "@download:missing.deb"),)))
    assert validate_step(good.replace(edits=(Edit("/etc/x.conf"),)))  # edited but not in backups
    assert set(STEP_KINDS) >= {"cleanup_cuda", "add_repo", "install_driver", "install_toolkit", "write_env", "install_pytorch"}


def test_checks_against_a_snapshot():
    s = _snap(files={"/etc/profile.d/cuda.sh": "export CUDA_HOME=/usr/local/cuda\n"},
              dirs={"/usr/local": ["cuda", "cuda-12.8"]}, links={"/usr/local/cuda": "/usr/local/cuda-12.8"},
              commands={"dpkg-query -W -f=${Status} cuda-keyring": {"rc": 0, "stdout": "install ok installed"},
                        "dpkg-query -W -f=${Status} cuda-toolkit-12-8": {"rc": 0, "stdout": "deinstall ok config-files"},
                        "rpm -q cuda-toolkit-12-8": {"rc": 0, "stdout": "cuda-toolkit-12-8-12.8.1-1.x86_64"}})
    assert evaluate(Check("path_exists", ("/usr/local/cuda-12.8", "/etc/profile.d/cuda.sh")), s)
    assert not evaluate(Check("path_exists", ("/usr/local/cuda-11.8",)), s)
    assert evaluate(Check("path_missing", ("/usr/local/cuda-11.8",)), s)
    assert evaluate(Check("dpkg_installed", ("cuda-keyring",)), s)
    assert not evaluate(Check("dpkg_installed", ("cuda-toolkit-12-8",)), s)  # only config files left
    assert evaluate(Check("dpkg_absent", ("cuda-toolkit-12-8", "nvidia-driver-580")), s)  # not recorded = not installed
    assert evaluate(Check("rpm_installed", ("cuda-toolkit-12-8",)), s)
    assert evaluate(Check("file_contains", ("/etc/profile.d/cuda.sh", "CUDA_HOME=/usr/local/cuda")), s)
    assert evaluate(Check("file_lacks", ("/etc/profile.d/cuda.sh", "cuda-11.8")), s)
    assert evaluate(Check("file_lacks", ("/nonexistent", "x")), s)
    assert evaluate(Check("link_points_to", ("/usr/local/cuda", "/usr/local/cuda-12.8")), s)
    assert not evaluate(Check("never"), s)
    assert not evaluate(Check("python_packages", ("/venv/bin/python", "torch==2.9.1")), s)  # no interpreter


def test_is_done_needs_checks_and_all_of_them():
    s = _snap(dirs={"/opt": ["a"]})
    step = Step(id="create_venv", kind="create_venv", title="t", why="w")
    assert not is_done(step, s)  # no checks: always runs
    assert is_done(step.replace(done_when=(Check("path_exists", ("/opt/a",)),)), s)
    assert not is_done(step.replace(done_when=(Check("path_exists", ("/opt/a",)), Check("path_exists", ("/opt/b",)))), s)


def test_python_packages_check_runs_the_interpreter(tmp_path):
    import sys

    from app.system import LiveSystem

    live = LiveSystem()
    assert evaluate(Check("python_packages", (sys.executable, "pytest")), live)
    import pytest as _p

    assert evaluate(Check("python_packages", (sys.executable, f"pytest=={_p.__version__}")), live)
    assert not evaluate(Check("python_packages", (sys.executable, "pytest==0.0.1")), live)
    assert not evaluate(Check("python_packages", (sys.executable, "no-such-dist-gpu-wizard")), live)
