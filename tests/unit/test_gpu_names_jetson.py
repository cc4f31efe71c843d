"""Jetson modules by name (as a user types them for --assume-gpu, or as a container prints them) are Tegra
GPUs of NVIDIA's "Jetson Products" capabilities (developer.nvidia.com/cuda-gpus): the answer sends them to
JetPack's builds instead of calling them unknown GPUs."""
import pytest

from app.compat import load_db
from app.compat.gpus import cc_from_name
from app.facts import DriverInfo, Facts, Gpu, OsInfo, PythonEnv
from app.recommend import recommend


@pytest.mark.parametrize("name,cc", [
    ("Jetson AGX Orin", "8.7"), ("NVIDIA Jetson Orin Nano", "8.7"), ("Orin (nvgpu)", "8.7"), ("Jetson Orin NX", "8.7"),
    ("Jetson AGX Xavier", "7.2"), ("Jetson Xavier NX", "7.2"), ("Jetson TX2", "6.2"), ("Jetson Nano", "5.3"),
    ("NVIDIA Jetson AGX Thor", "11.0"),
])
def test_jetson_names(name, cc):
    assert cc_from_name(name) == cc
    f = Facts(os=OsInfo(platform="linux", id="ubuntu", version_id="22.04", arch="aarch64", package_manager="apt"),
              driver=DriverInfo(state="ok", version="540.4.0"), gpus=(Gpu(index=0, name=name),),
              python=PythonEnv(path="/usr/bin/python3", version="3.10"))
    codes = {w.code for w in recommend(f, load_db(use_user_bundle=False)).warnings}
    assert "tegra_unsupported" in codes and "gpu_unknown" not in codes
