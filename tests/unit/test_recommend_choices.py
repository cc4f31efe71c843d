"""Choices (user overrides), the toolkit/cuDNN pieces, mirrors in the commands, the real H200
end to end from its recorded outputs."""
import pytest

from app.choices import Choices, Mirrors
from app.compat import load_db
from app.facts import DriverInfo, Facts, Gpu, OsInfo, PythonEnv
from app.recommend import recommend, windows_driver_to_nvidia


@pytest.fixture(scope="module")
def db():
    return load_db(use_user_bundle=False)


def f(cc="9.0", driver="580.159.04", os_id="ubuntu", ver="24.04", py="3.12", platform="linux", wsl=0, name="NVIDIA H200"):
    return Facts(os=OsInfo(platform=platform, id=os_id, version_id=ver, arch="x86_64", wsl=wsl),
                 driver=DriverInfo(state="ok" if driver else "not_installed", version=driver),
                 gpus=(Gpu(index=0, name=name, compute_capability=cc),) if cc else (),
                 python=PythonEnv(path="/usr/bin/python3", version=py))


def test_pin_older_release(db):
    r = recommend(f(), db, Choices(torch_version="2.9"))
    assert (r.pytorch.version, r.pytorch.index) == ("2.9.1", "cu128")  # the PyPI default build of 2.9, full compat on R580
    assert "torchvision==0.24.1" in r.pytorch.command and "torchaudio==2.9.1" in r.pytorch.command
    assert not r.refused


def test_pin_variant(db):
    r = recommend(f(), db, Choices(torch_variant="cu126"))
    assert (r.pytorch.version, r.pytorch.index, r.pytorch.driver_compat) == ("2.14.0", "cu126", "full")


def test_variant_without_kernels_for_gpu_is_refused(db):
    r = recommend(f(cc="6.1", name="NVIDIA GeForce GTX 1080 Ti"), db, Choices(torch_variant="cu130"))
    assert r.refused and "no kernels for NVIDIA GeForce GTX 1080 Ti (sm_61) on Linux" in r.refused[0]
    assert (r.pytorch.version, r.pytorch.index) == ("2.14.0", "cu126")  # falls back to what works


def test_windows_variant_lacking_volta_is_refused(db):
    r = recommend(f(cc="7.0", name="NVIDIA TITAN V", driver="581.57", platform="windows", os_id="windows", ver="10.0"), db,
                  Choices(torch_version="2.10", torch_variant="cu128"))
    assert r.refused and "on Windows" in r.refused[0]
    assert r.pytorch.index == "cu126"


def test_unknown_release_refused(db):
    r = recommend(f(), db, Choices(torch_version="3.0"))
    assert r.refused and "not a known release" in r.refused[0]
    assert r.pytorch.version == "2.14.0"


def test_release_without_python_refused(db):
    r = recommend(f(py="3.9"), db, Choices(torch_version="2.14"))
    assert r.refused and "Python 3.9" in r.refused[0]
    assert r.pytorch.version == "2.8.0"


def test_python_choice_overrides_detected(db):
    r = recommend(f(py="3.12"), db, Choices(python_version="3.9"))
    assert r.pytorch.version == "2.8.0" and r.pytorch.python == "3.9"


def test_cpu_variant_choice(db):
    r = recommend(f(), db, Choices(torch_variant="cpu"))
    assert (r.pytorch.index, r.pytorch.index_url) == ("cpu", "https://download.pytorch.org/whl/cpu")
    assert r.driver.action == "keep" and r.cudnn.version is None


def test_toolkit_never_newer_than_driver(db):
    r = recommend(f(cc="8.9", driver="550.54.14", ver="22.04", name="RTX 4090"), db, Choices(want_toolkit=True))
    k = r.cuda_toolkit
    assert k.wanted and (k.version, k.package, k.repo, k.max_version) == ("12.4", "cuda-toolkit-12-4", "ubuntu2204", "12.4")
    assert k.keyring_url == "https://developer.download.nvidia.com/compute/cuda/repos/ubuntu2204/x86_64/cuda-keyring_1.1-1_all.deb"
    assert r.pytorch.cuda_runtime == "12.6.3"  # the wheel runs by minor-version compatibility, nvcc stays at the driver's limit


def test_toolkit_matches_wheel_and_runfile(db):
    r = recommend(f(), db, Choices(want_toolkit=True, install_method="runfile"))
    k = r.cuda_toolkit
    assert (k.version, k.package) == ("13.0", None)
    assert k.runfile_url == "https://developer.download.nvidia.com/compute/cuda/13.0.2/local_installers/cuda_13.0.2_580.95.05_linux.run"


def test_toolkit_on_wsl_uses_wsl_repo(db):
    r = recommend(f(cc="8.9", driver="566.36", ver="22.04", wsl=2, name="RTX 4070"), db, Choices(want_toolkit=True))
    assert (r.cuda_toolkit.repo, r.cuda_toolkit.package) == ("wsl-ubuntu", "cuda-toolkit-12-6")
    assert r.driver.action == "host" and r.driver.package is None


def test_toolkit_respects_gpu_last_cuda(db):
    # Pascal on a 13.x-capable driver: the CUDA 13 toolkit cannot build for sm_61
    r = recommend(f(cc="6.1", driver="580.95.05", name="GTX 1080 Ti"), db, Choices(want_toolkit=True))
    assert r.cuda_toolkit.version == "12.6"  # matches the cu126 wheel; 13.0 would drop Pascal


def test_system_cudnn(db):
    r = recommend(f(), db, Choices(want_toolkit=True, want_system_cudnn=True))
    assert (r.cudnn.source, r.cudnn.package, r.cudnn.version) == ("system", "cudnn9-cuda-13", "9.17.0")
    r = recommend(f(cc="6.1", driver="580.95.05", name="GTX 1080 Ti"), db, Choices(want_toolkit=True, want_system_cudnn=True))
    assert (r.cudnn.package, r.cudnn.version) == ("cudnn9-cuda-12", "9.10.2")  # 9.17 dropped Pascal


def test_mirrors_in_commands(db):
    m = Mirrors(pypi_index_url="https://pypi.corp.example/simple", pytorch_index_url="https://mirror.corp.example/pytorch/whl/",
                https_proxy="http://proxy.corp.example:3128", ca_bundle="/etc/ssl/corp-ca.pem",
                nvidia_repo_url="https://mirror.corp.example/nvidia/repos")
    r = recommend(f(), db, Choices(mirrors=m, want_toolkit=True))
    t = r.pytorch
    assert t.index_url == "https://mirror.corp.example/pytorch/whl/cu130"
    assert "--index-url https://mirror.corp.example/pytorch/whl/cu130" in t.command
    assert "--extra-index-url https://pypi.corp.example/simple" in t.command
    assert "HTTPS_PROXY=http://proxy.corp.example:3128 " in t.command and "--cert /etc/ssl/corp-ca.pem" in t.command  # the proxy as the plan runs it
    assert "--extra-index-url https://pypi.corp.example/simple" in t.uv_command and "SSL_CERT_FILE=/etc/ssl/corp-ca.pem" in t.uv_command
    assert r.cuda_toolkit.repo_url == "https://mirror.corp.example/nvidia/repos/ubuntu2404/x86_64/"
    assert all(a.index_url.startswith("https://mirror.corp.example/pytorch/whl/") for a in r.alternatives)


def test_windows_driver_version_conversion():
    assert windows_driver_to_nvidia("32.0.15.6094") == "560.94"
    assert windows_driver_to_nvidia("31.0.15.5222") == "552.22"
    assert windows_driver_to_nvidia("garbage") is None


def test_alternatives_ranked_and_cpu_last(db):
    r = recommend(f(cc="12.0", driver="570.133.07", name="RTX 5090"), db)
    alts = r.alternatives
    assert [a.rank for a in alts] == list(range(1, len(alts) + 1))
    assert (alts[0].torch_version, alts[0].index) == ("2.11.0", "cu128")  # keep the current driver
    assert alts[-1].index == "cpu"


def test_real_h200_end_to_end_from_recorded_outputs(db):
    from detect_helpers import h200_snapshot  # the detection engineer's snapshot of tests/fixtures/real/h200

    from app.detect import detect

    facts = detect(h200_snapshot())
    facts = facts.replace(python=PythonEnv(path="/usr/bin/python3", version="3.12.3"))
    r = recommend(facts, db)
    assert (r.pytorch.version, r.pytorch.index, r.pytorch.driver_compat) == ("2.14.0", "cu130", "full")
    assert (r.driver.action, r.driver.current_version, r.driver.flavour) == ("keep", "580.159.04", "open")
    assert r.cuda_toolkit.version == "13.0"  # nvcc 13.0.88 is installed there; the driver's CUDA is 13.0
    assert "sm_90" in r.pytorch.arch_list



def test_gpu_known_only_by_name_uses_the_gpu_table(db):
    facts = f(cc=None).replace(gpus=(Gpu(index=0, name="NVIDIA GeForce GTX 1080 Ti"),))
    r = recommend(facts, db)
    assert r.pytorch.index == "cu126" and "sm_61" in r.pytorch.reason


def test_driver_package_source_and_pin(db):
    deb = recommend(f(cc="7.5", driver=None, os_id="debian", ver="12", name="RTX 2080 Ti"), db).driver
    assert (deb.package, deb.package_repo, deb.pin_package) == ("nvidia-open", "nvidia", "nvidia-driver-pinning-580")
    ubu = recommend(f(cc="7.5", driver=None, name="RTX 2080 Ti"), db).driver
    assert (ubu.package, ubu.package_repo, ubu.pin_package) == ("nvidia-driver-580-open", "distribution", None)


def test_torch_options_for_pickers(db):
    from app.recommend import torch_options

    facts = f(cc="6.1", driver="535.183.01", name="GTX 1080 Ti")
    opts = {(o.torch_version, o.index): o for o in torch_options(facts, db)}
    assert opts[("2.14.0", "cu126")].status == "ok" and opts[("2.14.0", "cu126")].recommended
    assert opts[("2.14.0", "cu126")].driver_compat == "minor"
    assert opts[("2.14.0", "cu130")].status == "no_kernels" and "sm_61" in opts[("2.14.0", "cu130")].reason
    assert opts[("2.14.0", "cpu")].status == "ok"
    assert opts[("2.0.1", "cu118")].status == "no_python"  # 2.0 has no Python 3.12 wheels
    k80 = {(o.torch_version, o.index): o for o in torch_options(f(cc="3.7", driver="470.239.06", py="3.10", name="Tesla K80"), db)}
    assert k80[("2.7.1", "cu118")].status == "ok" and k80[("2.7.1", "cu118")].recommended
    assert k80[("2.7.1", "cu126")].status == "no_kernels"
    h200 = {(o.torch_version, o.index): o for o in torch_options(f(cc="9.0", driver="535.129.03"), db)}
    assert h200[("2.14.0", "cu130")].status == "needs_driver" and h200[("2.14.0", "cu130")].needs_driver == "580"
