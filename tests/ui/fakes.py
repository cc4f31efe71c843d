"""Fakes for the GUI tests: a runner that emits the executor's own events (app/run/events.py) to the
listener as the real backends do, a verifier that streams synthetic samples, and hand-made engine
values (Recommendation, Plan) for the parts of the engine a test wants to pin."""
from __future__ import annotations

import math
import threading
from typing import Any, Optional

from app.facts import DriverInfo, Facts, Finding, Gpu, OsInfo, PythonEnv, TorchInfo
from app.plan.model import Plan, Step
from app.run.events import LineEvent, PlanFinished, ProgressEvent, StepFinished, StepStarted
from app.recommendation import (CudnnChoice, DriverChoice, Recommendation, RecWarning, ToolkitChoice, TorchChoice,
                                Alternative)
from app.verify.model import Bandwidth, Check, Layer, Sample, TorchReport, Verification


def h200_facts() -> Facts:
    """The H200 machine of tests/fixtures/real/h200 as Facts (driver 580.159.04, CUDA 13.0)."""
    return Facts(
        os=OsInfo(platform="linux", id="ubuntu", version_id="22.04", pretty_name="Ubuntu 22.04.5 LTS",
                  kernel="5.15.0-144-generic", arch="x86_64", package_manager="apt", free_disk_mib=512000),
        driver=DriverInfo(state="ok", version="580.159.04", cuda_version="13.0", kernel_module="open", source="nvml"),
        gpus=(Gpu(index=0, name="NVIDIA H200", pci_id="10de:2335", compute_capability="9.0", architecture="Hopper",
                  memory_total_mib=143771, pcie_gen_current=5, pcie_width_current=16, source="nvml"),),
        python=PythonEnv(path="/usr/bin/python3", version="3.11.7",
                         torch=TorchInfo(version="2.11.0+cu130", cuda="13.0", available=True, device_count=1)),
        findings=(Finding("torch_cpu_only_example", "info", "An informational finding."),
                  Finding("nouveau_loaded", "warning", "nouveau is loaded", evidence=("/proc/modules: nouveau",))),
        source="live", created="2026-11-29T10:00:00Z")


class FakeRecommend:
    """Recommends torch 2.9.1+cu128; refuses torch 1.0 (as the engine refuses an impossible choice)."""

    def __init__(self):
        self.calls: list[Any] = []

    def __call__(self, facts, choices):
        self.calls.append(choices)
        refused = ()
        if choices.torch_version == "1.0":
            refused = ("PyTorch 1.0 has no build for CUDA on this GPU (compute capability 9.0)",)
        return Recommendation(
            pytorch=TorchChoice(version="2.9.1", index="cu128", cuda_runtime="12.8.1",
                                command="pip install torch==2.9.1 --index-url https://download.pytorch.org/whl/cu128",
                                reason="Newest PyTorch whose CUDA 12.8 runtime the 580 driver runs."),
            driver=DriverChoice(action="keep", current_version="580.159.04", min_version="570.26",
                                reason="The installed driver is new enough."),
            cuda_toolkit=ToolkitChoice(wanted=choices.want_toolkit, version="12.8" if choices.want_toolkit else None,
                                       reason="Only needed to build CUDA extensions."),
            cudnn=CudnnChoice(version="9.10.2", source="wheel", reason="The wheel brings cuDNN."),
            warnings=(RecWarning("driver_too_old_for_newest", "Example warning."),),
            alternatives=(Alternative("2.8.0", "cu126", "older"),),
            refused=refused, db_version="test")


def make_plan(n: int = 4) -> Plan:
    steps = []
    for i in range(n):
        steps.append(Step(id=f"install_thing{i}", title=f"Install thing {i}", why=f"Because {i}.", kind="install_pytorch",
                          commands=(("echo", f"step {i}"),), needs_root=(i == 1), weight=1 + i))
    return Plan(steps=tuple(steps))


def record_restart_wait(plan, done_ids) -> str:
    """What the executor leaves when a step asked for a restart: a real session folder whose run state
    (app.run.state.RunState) waits for the restart in this boot. Returns its path."""
    import ui.state
    from app.run.session import Session
    from app.run.state import RunState

    s = Session.create(label="install")
    s.write_json("plan.json", plan.to_json())
    st = RunState(status="reboot_required", reboot_pending=True, boot_id=ui.state.current_boot_id())
    for sid in done_ids:
        st.end(sid, "ok", "", 0.1, 0)
    s.save_state(st)
    return str(s.dir)


class FakeRunner:
    """Emits the executor's events (app/run/events.py) through the listener, like a real backend.

    `fail_once`: step ids that fail the first time they run (then succeed on retry).
    `block_on`: a step id at which the runner waits until cancelled (to test Cancel).
    `reboot_after`: a step id after which the run asks for a reboot (its run state then waits for it)."""

    def __init__(self, lines_per_step: int = 50, fail_once: tuple[str, ...] = (), block_on: Optional[str] = None,
                 reboot_after: Optional[str] = None):
        self.lines_per_step = lines_per_step
        self.fail_once = set(fail_once)
        self.block_on = block_on
        self.reboot_after = reboot_after
        self.session_dir: Optional[str] = None
        self.runs: list[Optional[list[str]]] = []
        self.blocked = threading.Event()

    def run(self, plan, listener, cancel: threading.Event, only=None) -> str:
        self.runs.append(list(only) if only is not None else None)
        total_w = sum(s.weight for s in plan.steps)
        done_w = sum(s.weight for s in plan.steps if only is not None and s.id not in only)
        reboot = False
        for n, s in enumerate(plan.steps):
            if only is not None and s.id not in only:
                continue
            if cancel.is_set():
                return self._end(listener, "cancelled", s.id)
            listener(StepStarted(s.id, n, len(plan.steps), s.title, s.needs_root))
            for j in range(self.lines_per_step):
                listener(LineEvent(s.id, "stdout" if j % 10 else "stderr", f"{s.id} line {j}"))
            if s.id == self.block_on:
                self.blocked.set()
                cancel.wait(10)
                self.block_on = None
                listener(StepFinished(s.id, "cancelled", "cancelled by the user"))
                return self._end(listener, "cancelled", s.id)
            if s.id in self.fail_once:
                self.fail_once.discard(s.id)
                listener(LineEvent(s.id, "stderr", "E: Unable to locate package nvidia-driver-999"))
                listener(StepFinished(s.id, "error", "exit status 100"))
                return self._end(listener, "error", s.id)
            done_w += s.weight
            listener(ProgressEvent(s.id, 1.0, done_w / total_w))
            listener(StepFinished(s.id, "ok", ""))
            reboot = reboot or s.id == self.reboot_after
        if reboot:
            self.session_dir = record_restart_wait(plan, [s.id for s in plan.steps])
            return self._end(listener, "reboot_required")
        return self._end(listener, "ok")

    def _end(self, listener, status: str, failed: Optional[str] = None) -> str:
        listener(PlanFinished(status, "", failed, self.session_dir or ""))
        return status


def synthetic_verification(n: int = 100) -> Verification:
    samples = tuple(Sample(t_s=i * 0.1, gpu_index=0, util_pct=50 + 45 * math.sin(i / 10), mem_used_mib=1000 + i * 10,
                           power_w=300 + i, sm_clock_mhz=1980, mem_clock_mhz=2619, pcie_rx_mbps=20000.0,
                           pcie_tx_mbps=1000.0) for i in range(n))
    return Verification(
        layers=(Layer("device", "pass", "NVIDIA H200 is usable."),
                Layer("bandwidth", "warn", "Pageable copies are slow.", checks=(Check("pageable_slow", "warn", "slow"),)),
                Layer("pytorch", "pass", "PyTorch 2.11 uses the GPU."),
                Layer("load", "pass", "Full speed under load.")),
        bandwidth=Bandwidth(h2d_pinned_gbps=53.1, d2h_pinned_gbps=54.0, h2d_pageable_gbps=20.0, d2d_gbps=3900.0,
                            pcie_theoretical_gbps=63.0, memory_theoretical_gbps=4800.0),
        torch=TorchReport(version="2.11.0+cu130"), samples=samples)


class FakeVerifier:
    """Streams synthetic samples at ~100 Hz until `seconds` pass or it is cancelled."""

    def __init__(self):
        self.calls = 0

    def __call__(self, listener, seconds, cancel: threading.Event):
        self.calls += 1
        v = synthetic_verification()
        for s in v.samples:
            if cancel.wait(0.01):
                return v.replace(cancelled=True)
            listener.sample(s.t_s, s.to_json())
        return v
