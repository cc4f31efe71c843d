"""`gpu-wizard verify` without a GPU (the CI path), with no torch in the target, and --rejudge."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from app.detect.nvml import read_nvml
from app.choices import Mirrors
from app.pipeline import torch_fix_command as fix_command
from app.verify.session import VerifyOptions, plain_fix, run_verification

ROOT = Path(__file__).resolve().parents[2]
FIX = ROOT / "tests" / "fixtures"
H200_NVML = {"driver_version": "580.159.04", "cuda_driver_version": 13000, "error": None,
             "devices": [{"index": 0, "name": "NVIDIA H200", "pci_bus_id": "00000000:00:06.0", "compute_capability": [9, 0],
                          "memory_total_bytes": 150754820096, "pcie_gen_current": 5, "pcie_gen_max": 5, "pcie_width_current": 16,
                          "pcie_width_max": 16, "memory_bus_width_bits": 6016, "memory_clock_max_mhz": 3201,
                          "power_limit_mw": 700000, "power_default_limit_mw": 700000, "compute_mode": 0}]}


def gpu_here():
    nv = read_nvml()
    return bool(nv and not nv.get("error") and nv.get("devices"))


def cli(*args, timeout=120):
    return subprocess.run([sys.executable, "-m", "app", *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout)


def torch_importable():
    return subprocess.run([sys.executable, "-c", "import torch"], capture_output=True).returncode == 0


@pytest.mark.skipif(gpu_here(), reason="this machine has an NVIDIA GPU: the no-GPU path cannot be seen here")
def test_no_gpu_every_layer_skips_with_its_reason_and_exit_0():
    r = cli("verify", "--json", "--quick")
    assert r.returncode == 0, r.stderr
    v = json.loads(r.stdout)
    assert [x["name"] for x in v["layers"]] == ["device", "bandwidth", "pytorch", "load"]
    assert [x["status"] for x in v["layers"]] == ["skip"] * 4
    assert all("No NVIDIA GPU" in x["reason"] for x in v["layers"])
    for key in ("h2d_pinned_gbps", "d2h_pinned_gbps", "h2d_pageable_gbps", "d2d_gbps", "pcie_theoretical_gbps",
                "memory_theoretical_gbps"):
        assert key in v["bandwidth"]
    assert "matmul_tflops" in v["compute"] and "conv2d" in v["compute"] and v["samples"] == []
    assert v["sampler"]["ran"] is False and v["sampler"]["reason"]


@pytest.mark.skipif(gpu_here(), reason="this machine has an NVIDIA GPU")
def test_no_gpu_text_output():
    r = cli("verify")
    assert r.returncode == 0 and "skip  device" in r.stdout


@pytest.mark.skipif(torch_importable(), reason="torch is installed in the test interpreter")
def test_gpu_present_but_no_torch_in_the_target_fails_pytorch_with_the_fix():
    progress = []
    v = run_verification(VerifyOptions(python=sys.executable, quick=True, mirrors=Mirrors()), on_progress=progress.append,
                         fixer=fix_command,
                         nvml_reader=lambda: H200_NVML)
    p = v.layer("pytorch")
    assert p.status == "fail" and p.checks[0].code == "torch_missing"
    assert f"{sys.executable} -m pip install --upgrade --disable-pip-version-check torch==" in p.reason  # app.install_command
    assert p.reason.endswith("--index-url https://download.pytorch.org/whl/cu130")  # recommend's pick for the H200
    assert v.torch.installed is False and "No module named 'torch'" in v.torch.error
    assert v.layer("device").status == "pass" and "NVIDIA H200" in v.layer("device").reason
    assert v.layer("bandwidth").status == "skip" and v.layer("load").status == "skip"
    assert v.status == "fail"
    assert [e["event"] for e in progress][0] == "hello" and progress[-1]["event"] == "done"


def _nvml(driver, cuda, cc):
    return {"driver_version": driver, "cuda_driver_version": cuda, "error": None,
            "devices": [{"index": 0, "name": "GPU", "compute_capability": list(cc), "pci_device_id": None}]}


def test_fix_command_comes_from_recommend_for_this_driver_and_gpu():
    # the real H200: driver 580 (CUDA 13.0), CC 9.0 -> the newest CUDA 13 build, versions pinned
    cmd = fix_command("/v/bin/python", _nvml("580.159.04", 13000, (9, 0)), "3.12", mirrors=Mirrors())
    assert cmd.startswith("/v/bin/python -m pip install --upgrade --disable-pip-version-check torch==")
    assert "torchvision==" in cmd and "--index-url https://download.pytorch.org/whl/cu13" in cmd
    # a Pascal card on a 535 driver (CUDA 12.2): no CUDA 13 build can run there, and none ships sm_61
    pascal = fix_command("/v/bin/python", _nvml("535.129.03", 12020, (6, 1)), "3.11", mirrors=Mirrors())
    assert "/whl/cu13" not in pascal and "/whl/cu12" in pascal
    # nothing known: the plain command, quoted for a path with a space
    assert fix_command("/v/bin/python", None, mirrors=Mirrors()) == "/v/bin/python -m pip install --upgrade --disable-pip-version-check torch"
    assert fix_command("/my env/python", None, mirrors=Mirrors()).startswith("'/my env/python' -m pip")
    assert plain_fix("/my env/python", mirrors=Mirrors()) == fix_command("/my env/python", None, mirrors=Mirrors())  # verify's own


def test_the_fix_command_uses_the_runs_proxy_ca_and_mirrors():
    corp = Mirrors(pypi_index_url="https://pypi.corp.example/simple", pytorch_index_url="https://mirror.corp.example/whl",
                   https_proxy="http://proxy.corp.example:3128", ca_bundle="/etc/ssl/corp.pem")
    for cmd in (fix_command("/v/bin/python", _nvml("580.159.04", 13000, (9, 0)), "3.12", mirrors=corp),
                fix_command("/v/bin/python", None, mirrors=corp)):
        assert cmd.startswith("HTTPS_PROXY=http://proxy.corp.example:3128 HTTP_PROXY=http://proxy.corp.example:3128 "
                              "SSL_CERT_FILE=/etc/ssl/corp.pem REQUESTS_CA_BUNDLE=/etc/ssl/corp.pem /v/bin/python -m pip install")
        assert cmd.endswith("--cert /etc/ssl/corp.pem") and "https://pypi.corp.example/simple" in cmd


def test_bad_input_is_one_clear_line():
    r = cli("verify", "--json", "--python", "/nonexistent/python")
    assert r.returncode == 2 and r.stderr.strip() == "gpu-wizard: error: --python /nonexistent/python: no such interpreter"
    r = cli("verify", "--seconds", "-1")
    assert r.returncode == 2 and "--seconds" in r.stderr and "Traceback" not in r.stderr
    r = cli("--snapshot", str(FIX / "verify" / "h200_quick.json"), "verify")
    assert r.returncode == 2 and "cannot run from a snapshot" in r.stderr


def test_rejudge_a_saved_result(tmp_path):
    r = cli("verify", "--json", "--rejudge", str(FIX / "verify" / "h200_quick.json"))
    assert r.returncode == 0, r.stderr
    v = json.loads(r.stdout)
    assert {x["name"]: x["status"] for x in v["layers"]} == {"device": "pass", "bandwidth": "pass", "pytorch": "pass", "load": "pass"}
    assert v["compute"]["matmul_tflops"]["bf16"] > 600 and len(v["samples"]) > 100
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"\xff\xfe{not json")
    r = cli("verify", "--rejudge", str(bad))
    assert r.returncode == 2 and "is not a verify result" in r.stderr and "Traceback" not in r.stderr


def test_gpus_must_be_indices():
    r = cli("verify", "--gpus", "first")
    assert r.returncode == 2 and "--gpus first" in r.stderr


def test_a_background_run_can_be_cancelled(tmp_path):
    import os
    import time
    from app.verify.session import VerifyRun

    slow = tmp_path / "python"
    slow.write_text("#!/bin/sh\nexec sleep 60\n")
    os.chmod(slow, 0o755)
    done = []
    run = VerifyRun(VerifyOptions(python=str(slow), quick=True), on_done=done.append, nvml_reader=lambda: H200_NVML)
    run.start()
    time.sleep(1.0)
    assert run.running
    t = time.monotonic()
    run.cancel()
    v = run.wait(20)
    assert time.monotonic() - t < 10
    assert v is not None and v.cancelled and done == [v] and not run.running
    assert v.layer("load").status == "skip" and "cancelled" in v.layer("load").reason
    assert v.errors == ()


@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM"])
def test_a_burn_in_stopped_by_a_signal_still_prints_its_partial_result(tmp_path, sig):
    """Ctrl-C (or `timeout`'s SIGTERM) in the middle of `verify --burn-in 10m --json`: the probe is stopped and
    the JSON printed is a whole Verification whose burn-in says how long it ran of what was asked."""
    import signal
    import time

    from app.verify.model import Verification
    from tests.unit.burn_fakes import fake_probe, phase_events

    py = fake_probe(tmp_path, phase_events([("memtest", 0.3), ("matmul_bf16", 0.5)])[:-1], hang=True)
    p = subprocess.Popen([sys.executable, "-m", "app", "verify", "--json", "--progress", "--burn-in", "10m", "--python", py],
                         cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        seen = ""
        while "matmul_bf16" not in seen and time.monotonic() < deadline:  # the progress line of the second phase
            seen += p.stderr.readline()
        assert "matmul_bf16" in seen, seen
        time.sleep(0.3)
        p.send_signal(getattr(signal, sig))
        out, err = p.communicate(timeout=30)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 130, err
    v = Verification.loads(out)
    assert v.cancelled and v.burn_in is not None and v.burn_in.cancelled
    assert [x.phase for x in v.burn_in.phases] == ["memtest", "matmul_bf16"] and v.burn_in.seconds == 600
    stop = next(c for c in v.layer("burnin").checks if c.code == "burn_cancelled")
    assert "of 10 min" in stop.message and "stopping" in err


def test_a_signal_handled_between_waits_still_stops_the_run(monkeypatch, capsys):
    """Ctrl-C on any pass of the waiting loop cancels the run and the loop keeps waiting for its partial result
    (never left with the probe running); a second Ctrl-C cancels again, and "stopping" is said once."""
    import threading

    import app.commands.verify as cmd
    import app.verify.session as session

    calls = {"cancel": 0, "waits": 0}

    class FakeRun:
        def __init__(self, *a, **k):
            self.result = None
            self._stop = threading.Event()

        def run(self):
            self._stop.wait(10)
            self.result = "partial"

        def cancel(self):
            calls["cancel"] += 1
            self._stop.set()

    real_wait = threading.Event.wait

    def wait(self, timeout=None):
        if threading.current_thread() is not threading.main_thread():
            return real_wait(self, timeout)
        calls["waits"] += 1
        if calls["waits"] in (2, 3):  # handed over right after a wait returned, twice
            raise KeyboardInterrupt
        return real_wait(self, min(timeout or 0.05, 0.05))

    monkeypatch.setattr(session, "VerifyRun", FakeRun)
    monkeypatch.setattr(threading.Event, "wait", wait)
    assert cmd._run_until_done(None, None, None) == "partial"
    assert calls["cancel"] == 2
    assert capsys.readouterr().err.count("\n") == 1
