"""The driver package the recommendation names is the one the plan installs, on every distribution the data
has rows for (shipped data): RHEL-family 8/9 install the nvidia-driver module stream, RHEL-family 10 has no
module streams (NVIDIA Driver Installation Guide) and installs nvidia-open / cuda-drivers under dnf versionlock,
so the recommendation must not name a module stream there."""
from pathlib import Path

import pytest

from app.compat import load_db
from app.plan import build_plan
from app.recommend import recommend
from tests.unit.test_recommend_heldout_b import m

SHIPPED = Path(__file__).resolve().parents[2] / "resources" / "compat"


X86 = ["u2204", "u2404", "deb12", "deb13", "rhel8", "rhel9", "rhel10", "alma9"]
CASES = [(o, g) for o in X86 for g in ("NVIDIA GeForce RTX 4090", "Tesla V100-PCIE-16GB")] + \
    [(o, "NVIDIA GH200 480GB") for o in ("u2404arm", "rhel9arm")]  # Grace Hopper: Arm servers


@pytest.mark.parametrize("os_key,gpu", CASES)
def test_named_package_is_installed(os_key, gpu):
    facts = m(os_key, [gpu], None, "3.12")
    rec = recommend(facts, load_db(SHIPPED))
    assert rec.driver.action == "install" and rec.driver.branch == "580"
    (step,) = [s for s in build_plan(facts, rec).steps if s.kind == "install_driver"]
    argv = [" ".join(c) for c in step.commands]
    pkg = rec.driver.package
    wanted = pkg.replace("@", "") if pkg.startswith("@nvidia-driver:") else pkg
    assert any(wanted in a.split() or wanted in a for a in argv), (pkg, argv)
    if os_key == "rhel10":
        assert not pkg.startswith("@") and any("versionlock" in a for a in argv)
