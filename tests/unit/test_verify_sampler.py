"""The NVML sampler against a fake NVML module with pynvml's call shapes (no GPU needed)."""
import threading
import time
from types import SimpleNamespace

import pytest

from app.verify.sampler import FI_PCIE_RX_BYTES, FI_PCIE_TX_BYTES, Sampler, throttle_names


class FakeNvml:
    """pynvml's functions the sampler calls, answering like an H200 under load."""

    NVML_CLOCK_SM, NVML_CLOCK_MEM, NVML_TEMPERATURE_GPU = 1, 2, 0
    NVML_PCIE_UTIL_TX_BYTES, NVML_PCIE_UTIL_RX_BYTES = 0, 1

    def __init__(self, count=1, counters=True, fail_init=None):
        self.count, self.counters, self.fail_init = count, counters, fail_init
        self.inits = self.shutdowns = 0
        self.rx = [0] * count
        self.calls = {}
        self.lock = threading.Lock()

    def _n(self, name):
        with self.lock:
            self.calls[name] = self.calls.get(name, 0) + 1

    def nvmlInit(self):
        if self.fail_init:
            raise self.fail_init
        self.inits += 1

    def nvmlShutdown(self):
        self.shutdowns += 1

    def nvmlDeviceGetCount(self):
        return self.count

    def nvmlDeviceGetHandleByIndex(self, i):
        return i

    def nvmlDeviceGetUtilizationRates(self, h):
        return SimpleNamespace(gpu=97, memory=40)

    def nvmlDeviceGetMemoryInfo(self, h):
        return SimpleNamespace(used=2048 * 1048576, total=143771 * 1048576, free=0)

    def nvmlDeviceGetPowerUsage(self, h):
        return 698500

    def nvmlDeviceGetEnforcedPowerLimit(self, h):
        self._n("limit")
        return 700000

    def nvmlDeviceGetCurrentClocksEventReasons(self, h):
        return 0x4 | 0x40  # sw power cap + hw thermal

    def nvmlDeviceGetClockInfo(self, h, which):
        return 1485 if which == 1 else 3201

    def nvmlDeviceGetTemperature(self, h, which):
        return 71

    def nvmlDeviceGetCurrPcieLinkGeneration(self, h):
        self._n("gen")
        return 5

    def nvmlDeviceGetCurrPcieLinkWidth(self, h):
        return 16

    def nvmlDeviceGetFieldValues(self, h, ids):
        if not self.counters:
            raise RuntimeError("NVML_ERROR_NOT_SUPPORTED")
        assert ids == [FI_PCIE_RX_BYTES, FI_PCIE_TX_BYTES]
        # 50 GB/s in, 1 GB/s out, on the monotonic clock
        t = time.monotonic()
        vals = [int(t * 50e9), int(t * 1e9)]
        return [SimpleNamespace(nvmlReturn=0, value=SimpleNamespace(ullVal=v)) for v in vals]

    def nvmlDeviceGetPcieThroughput(self, h, which):
        self._n("throughput")
        return 55_000_000 if which == 1 else 900_000  # KB/s


def test_throttle_bits_named():
    assert throttle_names(0) == ()
    assert throttle_names(None) == ()
    assert throttle_names(0x4 | 0x40) == ("sw_power_cap", "hw_thermal")
    assert throttle_names(0x1) == ("gpu_idle",)


def test_samples_every_gpu_at_10hz_with_units_converted():
    nv = FakeNvml(count=2)
    got = []
    s = Sampler(on_sample=got.append, interval_s=0.05, nvml=nv, phase=lambda: "load")
    assert s.start()
    time.sleep(1.2)
    stats = s.stop()
    assert not s.running and nv.shutdowns == 1
    assert stats.ran and stats.count == len(got) == len(s.samples)
    assert stats.rate_hz >= 10
    assert {x.gpu_index for x in got} == {0, 1}
    x = got[-1]
    assert x.util_pct == 97 and x.mem_used_mib == 2048.0 and x.power_w == 698.5 and x.power_limit_w == 700.0
    assert x.sm_clock_mhz == 1485 and x.mem_clock_mhz == 3201 and x.temp_c == 71
    assert x.pcie_gen_current == 5 and x.pcie_width_current == 16
    assert x.throttle_reasons == ("sw_power_cap", "hw_thermal") and x.phase == "load"
    # rates from the cumulative counters: 50 GB/s = 50,000 MB/s in, 1,000 out
    assert x.pcie_rx_mbps == pytest.approx(50_000, rel=0.05) and x.pcie_tx_mbps == pytest.approx(1_000, rel=0.05)
    assert stats.pcie_every_s == 0.5
    assert stats.cpu_pct_of_core is not None
    assert "throughput" not in nv.calls  # the 20 ms call is not needed when counters work
    # the slow fields are re-read about once a second, not every tick
    assert nv.calls["limit"] <= 2 * 3


def test_falls_back_to_throughput_once_a_second_without_counters():
    nv = FakeNvml(counters=False)
    s = Sampler(interval_s=0.02, nvml=nv, slow_every_s=0.2)
    assert s.start()
    time.sleep(0.5)
    stats = s.stop()
    assert s.samples[-1].pcie_rx_mbps == 55_000.0 and s.samples[-1].pcie_tx_mbps == 900.0
    assert 2 <= nv.calls["throughput"] <= 2 * 4  # rx and tx, a few slow ticks
    assert stats.pcie_every_s == 0.2


def test_no_nvml_is_a_noop_with_a_reason():
    s = Sampler(nvml=FakeNvml(fail_init=RuntimeError("NVML Shared Library Not Found")))
    assert s.start() is False
    assert "NVML could not start" in s.reason and "Not Found" in s.reason
    stats = s.stop()
    assert not stats.ran and stats.count == 0 and "NVML" in stats.reason


def test_no_gpu_is_a_noop_and_shuts_nvml_down():
    nv = FakeNvml(count=0)
    s = Sampler(nvml=nv)
    assert s.start() is False and "no NVIDIA GPU" in s.reason
    assert nv.shutdowns == 1


def test_a_failing_callback_does_not_stop_sampling():
    def boom(_):
        raise ValueError("consumer bug")
    s = Sampler(on_sample=boom, interval_s=0.02, nvml=FakeNvml())
    assert s.start()
    time.sleep(0.2)
    stats = s.stop()
    assert stats.count >= 5


def test_stop_is_prompt_and_idempotent():
    s = Sampler(interval_s=5.0, nvml=FakeNvml())
    assert s.start()
    t = time.monotonic()
    s.stop()
    assert time.monotonic() - t < 1.0
    s.stop()
