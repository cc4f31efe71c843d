"""The three causes the twelfth held-out batch showed without a rule, as classes, on further real texts
(tests/fixtures/errors_causes_l, each with its thread in SOURCE.md): a wheel whose checksum does not match
(pip, uv, poetry; a stale cache, a cut-off download), a Jetson whose environment has PyPI's torch, and a
process given several MIG instances. Per text: the category, and where the thread says what fixed it, that
the proposal holds that fix for the user's platform (heldout_score's fix-quality measure); negatives with
the same words that are not these failures; and the fix steps on the machine itself (a Jetson's facts, the
run's mirrors, proxy and CA for the fresh download)."""
from __future__ import annotations

from pathlib import Path

import pytest

from app.choices import Choices, Mirrors
from app.diagnose import fix_plan
from app.facts import DriverInfo, Facts, Gpu, OsInfo, PythonEnv, TorchInfo
from diagnose_helpers import diagnose
from heldout_score import fix_has, load, platform_ok

FOLDER = Path(__file__).resolve().parent.parent / "fixtures" / "errors_causes_l"
CASES = [load(p) for p in sorted(FOLDER.glob("*.txt"))]
NEGATIVES = [load(p) for p in sorted((FOLDER / "negatives").glob("*.txt"))]
CLASSES = {"hash": "install_download_corrupt", "jetson": "cuda_unavailable", "mig": "mig_mode"}


def test_each_class_has_real_texts_with_their_threads():
    for prefix, category in CLASSES.items():
        mine = [c for c in CASES if c.path.name.startswith(prefix + "_")]
        assert len(mine) >= 3 and all(c.expect == category for c in mine), prefix
        assert sum(1 for c in mine if c.headers.get("fix-has")) >= 1, prefix  # a thread that says what fixed it
    for c in CASES + NEGATIVES:
        assert c.headers["source"].startswith("https://github.com/"), c.path.name
        assert c.headers["source"] in (FOLDER / "SOURCE.md").read_text(encoding="utf-8"), c.path.name


@pytest.mark.parametrize("case", CASES, ids=[c.path.name for c in CASES])
def test_category_and_the_threads_fix_on_its_platform(case):
    d = diagnose(case.body)
    assert d.matches and d.matches[0].category == case.expect, [(m.category, m.rule) for m in d.matches]
    assert platform_ok(d, case.headers["platform"]), d.platform
    if case.headers.get("fix-has"):
        assert fix_has(d.matches[0], case.headers["fix-has"]), (d.matches[0].fix, [s.title for s in d.matches[0].fix_steps])


@pytest.mark.parametrize("case", NEGATIVES, ids=[c.path.name for c in NEGATIVES])
def test_the_words_alone_are_not_these_failures(case):
    assert case.headers.get("why-not")
    d = diagnose(case.body)
    assert not {m.category for m in d.matches} & {"install_download_corrupt", "mig_mode"}, [m.rule for m in d.matches]
    assert d.platform.board is None
    if case.path.name.startswith("hash_"):  # pip's hash-checking mode asking for hashes is no GPU setup failure at all
        assert not d.matches


def _jetson(**kw) -> Facts:
    py = PythonEnv(path="/home/nv/env/bin/python", version="3.10.12", kind="venv",
                   torch=TorchInfo(version="2.5.1", cuda=None, available=False))
    return Facts(source="test", os=OsInfo(package_manager="apt", id="ubuntu", version_id="22.04", kernel="5.15.136-tegra"),
                 gpus=(Gpu(index=0, name="Orin (nvgpu)", compute_capability="8.7"),), python=py, pythons=(py,), **kw)


def test_on_a_jetson_pypi_torch_is_replaced_by_nvidias_build_for_its_jetpack():
    f = _jetson()
    text = ">>> import torch\n>>> torch.cuda.is_available()\nFalse\n"
    d = diagnose(text, f)
    m = d.matches[0]
    assert d.platform.board == "jetson" and m.category == "cuda_unavailable" and m.fix_code.endswith("~jetson"), m.fix_code
    ids = [s.id for s in m.fix_steps]
    assert ids == ["check_jetpack_release", "remove_pypi_torch", "install_jetpack_pytorch"], ids
    assert m.fix_steps[1].argv == (("/home/nv/env/bin/python", "-m", "pip", "uninstall", "-y", "torch", "torchvision", "torchaudio"),)
    assert m.fix_steps[2].manual and "/compute/redist/jp/" in m.fix_steps[2].why
    steps = fix_plan(d, f)  # what the wizard may run itself: the check and the removal, never a desktop wheel
    assert [s.id for s in steps] == ["check_jetpack_release", "remove_pypi_torch"]
    # the same text on a desktop machine is not a Jetson's: no JetPack there
    desktop = diagnose(text, Facts(source="test", os=OsInfo(package_manager="apt", id="ubuntu", kernel="6.8.0-45-generic"),
                                   gpus=(Gpu(index=0, name="NVIDIA GeForce RTX 4090", compute_capability="8.9"),)))
    assert desktop.platform.board is None and "jetpack" not in desktop.matches[0].fix.lower()


def test_a_jetsons_driver_comes_with_jetpack_never_a_desktop_package():
    text = ("RuntimeError: The NVIDIA driver on your system is too old (found version 11040). Please update your GPU driver by "
            "downloading and installing a new version from the URL: http://www.nvidia.com/Download/index.aspx")
    d = diagnose(text, _jetson(driver=DriverInfo(state="ok", version="35.4.1", cuda_version="11.4")))
    m = d.matches[0]
    assert m.category == "driver_insufficient"
    cmds = [" ".join(a) for s in m.fix_steps for a in s.argv]
    assert any(s.id == "update_jetpack" for s in m.fix_steps) and not any("nvidia-driver" in c for c in cmds), cmds


def test_a_hash_mismatch_downloads_afresh_through_the_one_builder_with_the_runs_mirrors(tmp_path):
    ca = tmp_path / "corp-ca.pem"
    ca.write_text("-----BEGIN CERTIFICATE-----\n", encoding="utf-8")
    py = PythonEnv(path=str(tmp_path / "venv" / "bin" / "python"), version="3.12.3", kind="venv",
                   torch=TorchInfo(version="2.5.1+cpu", cuda=None, available=False))
    f = Facts(source="test", os=OsInfo(package_manager="apt", id="ubuntu", version_id="24.04", kernel="6.8.0-45-generic"),
              python=py, pythons=(py,), gpus=(Gpu(index=0, name="NVIDIA GeForce RTX 4090", compute_capability="8.9"),),
              driver=DriverInfo(state="ok", version="570.133.07", cuda_version="12.8", modules_loaded=("nvidia", "nvidia_uvm")))
    choices = Choices(mirrors=Mirrors(pypi_index_url="https://pypi.corp.example/simple", pytorch_index_url="https://mirror.corp.example/whl",
                                      https_proxy="http://proxy.corp.example:3128", ca_bundle=str(ca)))
    d = diagnose(next(c for c in CASES if c.path.name == "hash_torch_partial_download_ubuntu.txt").body, f, choices=choices)
    m = d.matches[0]
    assert m.category == "install_download_corrupt"
    steps = fix_plan(d, f)
    assert [s.id for s in steps] == ["clean_pip_cache", "download_pytorch_build_again"], [s.id for s in steps]
    argv = steps[1].commands[0]
    assert argv[0] == py.path and "--no-cache-dir" in argv and "--force-reinstall" in argv
    assert argv[argv.index("--index-url") + 1].startswith("https://mirror.corp.example/whl/cu")
    assert argv[argv.index("--extra-index-url") + 1] == "https://pypi.corp.example/simple" and argv[argv.index("--cert") + 1] == str(ca)
    assert steps[1].env["HTTPS_PROXY"] == "http://proxy.corp.example:3128"
