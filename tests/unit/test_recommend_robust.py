"""recommend() never raises on odd or hostile Facts/Choices (unknown compute capabilities,
garbage driver strings, Python versions no release knows, unknown releases and variants):
it answers with warnings or refusals instead. A fixed grid, so failures reproduce."""
import itertools
import os

import pytest

from app.choices import Choices
from app.compat import load_db
from app.facts import DriverInfo, Facts, Gpu, OsInfo, PythonEnv
from app.recommend import WARNING_CODES, recommend
from app.recommendation import Recommendation

CCS = [None, "", "abc", "2.1", "3.7", "6.1", "8.9", "9.9", "12.0", "15.0", "99.9"]
DRIVERS = [None, "", "garbage", "1", "440.1", "470.239.06", "535.129.03", "580.159.04", "999.99.99", "32.0.15.6094"]
OSES = [
    OsInfo(platform="linux", id="ubuntu", version_id="24.04", arch="x86_64"),
    OsInfo(platform="linux", id="ubuntu", version_id="22.04", arch="x86_64", wsl=2),
    OsInfo(platform="windows", id="windows", arch="AMD64"),
    OsInfo(platform="other"),
    OsInfo(platform="linux", id=None, version_id=None, arch="ppc64le"),
]
PYS = [None, "", "2.7", "3", "3.12.1", "abc", "3.99"]
STEP = int(os.environ.get("RECOMMEND_GRID_STEP", "7"))
CHOICES = [Choices(), Choices(torch_version="abc", torch_variant="cu999"), Choices(torch_variant="cpu", want_toolkit=True, want_system_cudnn=True),
           Choices(torch_version="2.0", install_method="runfile", install_driver=False)]


@pytest.fixture(scope="module")
def db():
    return load_db(use_user_bundle=False)


def test_grid_never_raises(db):
    n = 0
    for i, (cc, drv, os_, py, ch) in enumerate(itertools.product(CCS, DRIVERS, OSES, PYS, CHOICES)):
        if i % STEP:  # a deterministic slice of the grid keeps this fast
            continue
        facts = Facts(os=os_, driver=DriverInfo(state="ok" if drv else "not_installed", version=drv or None,
                                                 windows_version=drv if drv and drv.startswith("32.") else None),
                      gpus=(Gpu(index=0, name="x", compute_capability=cc),) if cc is not None else (),
                      python=PythonEnv(path="p", version=py) if py is not None else None)
        rec = recommend(facts, db, ch)
        assert {w.code for w in rec.warnings} <= WARNING_CODES
        assert Recommendation.from_json(rec.to_json()) == rec
        if os_.wsl == 2:
            assert rec.driver.package is None
        n += 1
    assert n > 500
