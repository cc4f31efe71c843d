"""A burn-in through the real nvidia-ml-py and the real session: every NVML call goes through pynvml's
ctypes wrappers into a stand-in libnvidia-ml (tests/fixtures/verify/fake_libnvidia_ml.c, built here with
nvml.h's entry points and structures), so the handles are ctypes pointers exactly as on a GPU machine.

The first H200 burn-in (tests/fixtures/verify/h200_burnin45*) held no sample: its sampler thread died at
its first tick, keying its health counters by pynvml's handles (unhashable ctypes pointers), and the
verdict said "held ? MHz ... at ? W". The scripted fakes (plain-int handles) could not show that."""
from __future__ import annotations

import time

import pytest

from app.verify.model import Verification
from app.verify.session import VerifyOptions, VerifyRun
from app.verify.verdicts import check_text
from tests.unit.burn_fakes import FakeLib, build_fake_lib, fake_probe, phase_events, when

PHASES = [("memtest", 0.4), ("matmul_bf16", 1.0), ("membw", 0.5)]


@pytest.fixture(scope="module")
def fake_lib(tmp_path_factory):
    pytest.importorskip("pynvml")
    path = build_fake_lib(tmp_path_factory.mktemp("nvml"))
    if path is None:
        pytest.skip("no C compiler to build the stand-in libnvidia-ml")
    return FakeLib(path)


def _burn(tmp_path, lib: FakeLib, gpus: int = 1, during=None) -> Verification:
    """`verify --burn-in` as the command line runs it: no NVML module or facts handed in (the session reads
    them through pynvml itself), the probe replaced by a script printing a burn-in's events."""
    py = fake_probe(tmp_path, phase_events(PHASES, gpus=gpus), gpus=gpus)
    with lib:
        lib.configure(gpus)
        r = VerifyRun(VerifyOptions(python=py, burn_in_s=2.0, kmsg_path=str(tmp_path / "no-kmsg")))
        r.start()
        if during is not None:
            assert when(lambda: r.burn is not None and r.burn.phase is not None)
            time.sleep(0.3)
            during(lib)
        v = r.wait(60)
    assert v is not None
    return v


def _texts(v: Verification) -> list[str]:
    return [check_text(c, lang) for layer in v.layers for c in layer.checks for lang in ("en", "zh_CN")]


def test_the_sampler_runs_through_the_real_pynvml_and_the_verdict_has_figures(tmp_path, fake_lib):
    v = _burn(tmp_path, fake_lib)
    assert v.sampler.ran and v.sampler.count >= 10 and not v.sampler.error, v.sampler
    assert v.sampler.rate_hz is not None and 5 <= v.sampler.rate_hz <= 12
    g = v.burn_in.gpus[0]
    assert g.sm_clock_median_mhz == 1980 and g.power_median_w == 699.0 and g.temp_max_c == 55
    assert g.temp_slowdown_c == 89 and g.temp_shutdown_c == 95
    assert g.watched == {"xid": "yes", "ecc_uncorrected": "yes", "remapped_unc": "yes", "retired_pages": "not reported by this GPU",
                         "pcie_replay": "yes"}
    ok = next(c for c in v.layer("burnin").checks if c.code == "burn_ok")
    assert "held 1,980 MHz at its 700 W power cap" in ok.message
    assert not any("?" in t for t in _texts(v)), [t for t in _texts(v) if "?" in t]
    assert v.burn_in.xid_source == "nvml_events" and fake_lib.calls() > 50


def test_faults_through_the_real_pynvml_reach_the_verdict(tmp_path, fake_lib):
    """An Xid through NVML's event API (the event names its GPU by a ctypes handle) and an ECC rise."""
    v = _burn(tmp_path, fake_lib, gpus=2, during=lambda lib: (lib.xid(1, 79), lib.set(0, ecc_uncorrected=3)))
    checks = [(c.code, c.gpu_index, c.status) for c in v.layer("burnin").checks if c.status == "fail"]
    assert ("burn_xid", 1, "fail") in checks and ("burn_ecc_uncorrected", 0, "fail") in checks, checks
    assert all(g.sm_clock_median_mhz == 1980 for g in v.burn_in.gpus)


def test_a_sampler_that_cannot_read_says_why_and_the_verdict_says_so_in_words(tmp_path, fake_lib, monkeypatch):
    """The recorded H200 failure replayed: the health read raises as the unhashable handles made it. The
    sampler goes on without the counters (clocks, heat and power still sampled) and the verdict names what
    was not read; a sampler that can read nothing at all stops with its reason, and the verdict says the
    clocks, heat and power were not sampled, and why."""
    from app.verify import health, sampler

    def unhashable(self, k, h):
        return {h: 1}  # what keying by pynvml's handle did: TypeError, unhashable

    monkeypatch.setattr(health.HealthReader, "read", unhashable)
    v = _burn(tmp_path, fake_lib)
    assert v.sampler.ran and "TypeError" in v.sampler.error and "health counters" in v.sampler.error
    g = v.burn_in.gpus[0]
    assert g.sm_clock_median_mhz == 1980 and g.watched["ecc_uncorrected"] == "not read"
    unread = [c for c in v.layer("burnin").checks if c.params.get("text_code") == "burn_counter_unread"]
    assert unread and "was not read (the health counters could not be read: TypeError" in unread[0].message
    assert "未能读取" in check_text(unread[0], "zh_CN")

    monkeypatch.setattr(sampler.Sampler, "_sample", lambda self, *a: {a[1]: 1})
    (tmp_path / "dead").mkdir()
    v = _burn(tmp_path / "dead", fake_lib)
    assert not v.sampler.ran and "stopped after 20 failed readings in a row: TypeError" in v.sampler.reason
    assert v.sampler.rate_hz is not None and v.sampler.rate_hz < 12  # not one tick over a few ms (136.7 Hz, recorded)
    ok = next(c for c in v.layer("burnin").checks if c.code == "burn_ok")
    assert ok.params["text_code"] == "burn_ok_unsampled_why" and "were not sampled (the NVML sampler stopped" in ok.message
    assert all(w == "not read" for k, w in v.burn_in.gpus[0].watched.items() if k != "xid")
    texts = _texts(v)
    assert not any("?" in t for t in texts) and not any("reports no" in t for t in texts), texts
