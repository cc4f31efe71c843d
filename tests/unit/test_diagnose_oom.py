"""Out-of-memory reasoning on the numbers users' messages carry (real messages, sources cited)
and on live process lists."""
import pytest

from app.diagnose import diagnose
from app.diagnose.oom import analyze_oom, is_creeping, parse_oom_messages

# https://github.com/microsoft/unilm/issues/137 (old format)
UNILM = ("RuntimeError: CUDA out of memory. Tried to allocate 128.00 MiB (GPU 0; 11.17 GiB total capacity; "
         "10.85 GiB already allocated; 24.81 MiB free; 10.86 GiB reserved in total by PyTorch)")
# https://github.com/pytorch/pytorch/issues/59778 (old format)
OTHER = ("CUDA out of memory. Tried to allocate 2.26 GiB (GPU 0; 6.00 GiB total capacity; 781.59 MiB already allocated; "
         "3.03 GiB free; 1.24 GiB reserved in total by PyTorch)")
# https://github.com/kerrj/lerf/issues/73 (new format)
LERF = ("torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.00 GiB. GPU 0 has a total capacty of 23.65 GiB "
        "of which 1.66 GiB is free. Including non-PyTorch memory, this process has 20.81 GiB memory in use. Of the allocated "
        "memory 12.09 GiB is allocated by PyTorch, and 4.84 GiB is reserved by PyTorch but unallocated. If reserved but "
        "unallocated memory is large try setting max_split_size_mb to avoid fragmentation.")
# https://github.com/carolchenyx/MGFN./issues/35 (new format, no "this process" sentence)
MGFN = ("torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.70 GiB. GPU 0 has a total capacty of 6.00 GiB "
        "of which 0 bytes is free. Of the allocated memory 2.93 GiB is allocated by PyTorch, and 2.30 GiB is reserved by "
        "PyTorch but unallocated. If reserved but unallocated memory is large try setting max_split_size_mb")
# https://github.com/wxian3/NeuroLens/issues/2 (one request bigger than the GPU)
NEUROLENS = ("torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 55.57 GiB. GPU 0 has a total capacty of "
             "12.00 GiB of which 9.02 GiB is free. Of the allocated memory 984.52 MiB is allocated by PyTorch, and 463.48 MiB "
             "is reserved by PyTorch but unallocated.")
# https://github.com/FoundationVision/GenerateU/issues/10 (container: the listed PID is the process itself)
GENERATEU = ("torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 496.00 MiB. GPU 0 has a total capacty of "
             "14.75 GiB of which 235.06 MiB is free. Process 20398 has 14.52 GiB memory in use. Of the allocated memory "
             "14.06 GiB is allocated by PyTorch, and 330.42 MiB is reserved by PyTorch but unallocated.")


def test_parse_old_format():
    (n,) = parse_oom_messages(UNILM)
    assert n.format == "old" and n.gpu_index == 0
    assert n.requested_mib == 128.0
    assert n.total_mib == pytest.approx(11.17 * 1024, abs=0.01)
    assert n.allocated_mib == pytest.approx(10.85 * 1024, abs=0.01)
    assert n.free_mib == pytest.approx(24.81, abs=0.01)
    assert n.reserved_mib == pytest.approx(10.86 * 1024, abs=0.01)
    assert n.reserved_unallocated_mib == pytest.approx(0.01 * 1024, abs=0.05)


def test_parse_new_format_with_this_process_and_wrapped_lines():
    wrapped = LERF.replace(" of which", "\n  of which").replace(" is reserved", "\n is reserved")
    (n,) = parse_oom_messages(wrapped)
    assert n.format == "new"
    assert n.process_mib == pytest.approx(20.81 * 1024, abs=0.01)
    assert n.reserved_unallocated_mib == pytest.approx(4.84 * 1024, abs=0.01)
    assert n.reserved_mib == pytest.approx((12.09 + 4.84) * 1024, abs=0.05)
    (m,) = parse_oom_messages(MGFN)
    assert m.free_mib == 0.0 and m.process_mib is None


@pytest.mark.parametrize("text,code", [
    (UNILM, "too_small"),  # 10.85 of 11.17 GiB live
    (OTHER, "other_process"),  # 1.7 GiB held outside PyTorch on a 6 GiB card
    (LERF, "fragmentation"),  # 4.84 GiB cached-unallocated >= the 3 GiB asked
    (MGFN, "fragmentation"),  # 2.30 GiB cached-unallocated >= 1.70 GiB asked
    (NEUROLENS, "too_small"),  # one 55.57 GiB request on a 12 GiB card
    (GENERATEU, "too_small"),  # the listed PID holds what PyTorch reserved: it is this process
])
def test_top_verdict_from_the_numbers(text, code):
    a = analyze_oom(text)
    assert a.verdicts[0].code == code, [(v.code, v.confidence) for v in a.verdicts]
    assert a.verdicts[0].commands, "each verdict names the command that shows it"


def test_numbers_appear_as_evidence_and_fix_step():
    d = diagnose(LERF)
    m = d.matches[0]
    assert m.category == "oom" and m.subcode == "fragmentation"
    assert "expandable_segments:True" in m.fix
    assert any("4.84 GiB" in e.message for e in m.evidence)
    assert m.fix_steps and m.fix_steps[0].env == {"PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:True"}
    assert any("memory_summary" in " ".join(c) for c in m.commands)
    assert d.oom is not None and d.oom.numbers[0].format == "new"


def test_live_process_list_names_the_other_process():
    live = {"processes": [{"pid": 4242, "name": "python3", "used_mib": 9000.0}, {"pid": 77, "name": "Xorg", "used_mib": 120.0}],
            "this_pid": 999}
    d = diagnose(UNILM, live=live)
    m = d.matches[0]
    assert m.subcode == "other_process"
    assert "4242" in m.root_cause and "Xorg" not in m.root_cause  # 120 MiB is below notice
    assert ("nvidia-smi", "--query-compute-apps=pid,process_name,used_memory", "--format=csv") in m.commands


def test_live_children_each_holding_a_context():
    live = {"processes": [{"pid": 100 + i, "name": "python", "used_mib": 420.0} for i in range(5)], "this_pid": 100}
    a = analyze_oom(OTHER, live=live)
    assert a.verdicts[0].code == "child_contexts"
    assert "spawn" in a.verdicts[0].fix


def test_leak_from_memory_creeping_across_a_log():
    lines = [f"epoch 0 iter {i} loss 1.23 memory_allocated: {2000 + 35 * i} MiB" for i in range(60)]
    log = "\n".join(lines) + "\n" + UNILM.replace("10.85 GiB already", "10.85 GiB already") + "\n"
    d = diagnose(log)
    m = d.matches[0]
    assert m.category == "oom"
    codes = [v.code for v in d.oom.verdicts]
    assert "leak" in codes
    assert any("creeps up" in e.message for e in m.evidence) or m.subcode == "leak"
    assert ".item()" in next(v for v in d.oom.verdicts if v.code == "leak").fix


def test_several_oom_messages_rising_is_a_leak():
    msgs = [f"CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 23.65 GiB total capacity; {a:.2f} GiB already allocated; "
            f"10.00 MiB free; {a + 0.1:.2f} GiB reserved in total by PyTorch)" for a in (12.0, 15.5, 19.0, 22.9)]
    a = analyze_oom("\n".join(msgs))
    assert len(a.numbers) == 4
    assert "leak" in [v.code for v in a.verdicts]


def test_flat_usage_is_not_a_leak():
    assert is_creeping([5000, 5010, 4990, 5005, 5000, 4995]) is None
    assert is_creeping([1000, 1100, 1250, 1400, 1600]) is not None
    assert is_creeping([1000, 1100]) is None


def test_oom_without_numbers_still_advises():
    d = diagnose("RuntimeError: CUDA error: out of memory\nCUDA kernel errors might be asynchronously reported")
    m = d.matches[0]
    assert m.category == "oom" and m.subcode == "unknown" and m.commands


def test_live_process_list_from_nvidia_smi_through_a_snapshot():
    from app.diagnose.live import SMI_APPS, parse_compute_apps, read_live
    from app.system import SnapshotSystem

    out = "12345, /usr/bin/python3, 21456, GPU-8f3c\n777, [Not Found], [N/A], GPU-8f3c\n"
    assert parse_compute_apps(out) == [
        {"pid": 12345, "name": "/usr/bin/python3", "used_mib": 21456.0, "gpu_uuid": "GPU-8f3c"},
        {"pid": 777, "name": "[Not Found]", "used_mib": None, "gpu_uuid": "GPU-8f3c"}]
    snap = SnapshotSystem({"format": "gpu-wizard-snapshot/1", "platform": "linux",
                           "commands": {" ".join(SMI_APPS): {"rc": 0, "stdout": out, "stderr": ""}}})
    live = read_live(snap)
    assert live["source"] == "nvidia-smi" and live["processes"][0]["pid"] == 12345
    assert read_live(SnapshotSystem({"format": "gpu-wizard-snapshot/1", "platform": "linux"})) == {}
    d = diagnose(UNILM, live=live)
    assert d.matches[0].subcode == "other_process" and "12345" in d.matches[0].root_cause
