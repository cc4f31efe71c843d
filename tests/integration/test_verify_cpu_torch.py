"""The real probe in a real venv holding the CPU build of PyTorch 2.13.0 (never PyPI's CUDA build:
see tests/torch_cpu.py for where it comes from, or why the tests skip).

It must report the PyTorch layer as it is (a CPU-only build, no CUDA) and skip the GPU layers.
"""
import json
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from app.verify.runner import ProbeRunner, probe_argv
from app.verify.session import VerifyOptions, run_verification
from tests.torch_cpu import TORCH, cpu_torch_source

pytestmark = pytest.mark.integration
ROOT = Path(__file__).resolve().parents[2]
H200_NVML = {"driver_version": "580.159.04", "cuda_driver_version": 13000, "error": None,
             "devices": [{"index": 0, "name": "NVIDIA H200", "compute_capability": [9, 0], "pcie_gen_max": 5,
                          "pcie_width_max": 16, "memory_total_bytes": 150754820096}]}


@pytest.fixture(scope="session")
def cpu_torch_python(tmp_path_factory):
    extra, why = cpu_torch_source()
    if extra is None:
        pytest.skip(why)
    d = tmp_path_factory.mktemp("cpu-torch-venv")
    venv.EnvBuilder(with_pip=True).create(d)
    py = str(d / "bin" / "python")
    r = subprocess.run([py, "-m", "pip", "install", "-q", "--no-input", *extra, TORCH], capture_output=True, text=True, timeout=1800)
    if r.returncode != 0:
        pytest.skip(f"pip could not install {TORCH} here: {(r.stderr or r.stdout).strip().splitlines()[-1:]}")
    return py


def test_the_probe_reports_a_cpu_build_and_stops(cpu_torch_python):
    events = []
    out = ProbeRunner(probe_argv(cpu_torch_python, quick=True), timeout_s=300).run(events.append)
    assert out.ok and out.done, out.error
    kinds = [e["event"] for e in events]
    assert kinds[0] == "hello" and kinds[-1] == "done"
    torch = next(e["data"] for e in events if e.get("kind") == "torch")
    assert torch["installed"] is True and torch["version"].startswith("2.13.0")
    assert torch["cuda"] is None and torch["available"] is False and torch["device_count"] == 0
    assert torch["python"] == cpu_torch_python
    assert not any(e.get("kind") in ("device", "bandwidth", "compute") for e in events)


def test_no_gpu_all_layers_skip_and_say_what_torch_is(cpu_torch_python):
    v = run_verification(VerifyOptions(python=cpu_torch_python, quick=True), nvml_reader=lambda: None)
    assert [x.status for x in v.layers] == ["skip"] * 4
    p = v.layer("pytorch")
    assert "2.13.0" in p.reason and "CPU-only" in p.reason
    assert v.torch.cuda is None and v.torch.installed is True


def test_with_a_gpu_the_cpu_build_fails_the_pytorch_layer_with_the_fix(cpu_torch_python):
    from app.pipeline import torch_fix_command  # the fixer `gpu-wizard verify` and the window give verify

    v = run_verification(VerifyOptions(python=cpu_torch_python, quick=True), nvml_reader=lambda: H200_NVML,
                         fixer=torch_fix_command)
    p = v.layer("pytorch")
    assert p.status == "fail" and p.checks[0].code == "torch_cpu_build"
    assert "CPU-only build" in p.reason and "whl/cu130" in p.reason
    assert v.layer("bandwidth").status == "skip" and v.layer("load").status == "skip"


def test_cli_with_python_path(cpu_torch_python):
    r = subprocess.run([sys.executable, "-m", "app", "verify", "--json", "--quick", "--python", cpu_torch_python],
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    v = json.loads(r.stdout)
    assert v["torch"]["version"].startswith("2.13.0") and v["torch"]["cuda"] is None
    if all(x["status"] == "skip" for x in v["layers"]):  # no GPU here (CI)
        assert r.returncode == 0
    else:
        assert r.returncode == 1 and v["layers"][2]["status"] == "fail"
