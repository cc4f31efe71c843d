"""The fix classes found by re-judging every held-out batch's fixes (issue 25, fix quality), each checked on real texts
whose threads say what fixed them (tests/fixtures/errors_fixes_o, SOURCE.md there), and on the held-out texts of the
same class: another framework's failure gets that framework's fix and no PyTorch reinstall (ONNX Runtime's CUDA
provider built for another CUDA, TensorFlow's cuDNN behind a log prefix the cleaner cuts); the platform read from the
text's own words (nvidia-container-cli's "WSL environment detected", the user saying Windows, cmd.exe's message in
other languages, WSL's own library folder in a path); /dev/shm's permissions apart from its size."""
from __future__ import annotations

from pathlib import Path

import pytest

from app.diagnose.platform import framework
from diagnose_helpers import diagnose
from heldout_score import fix_has, load, platform_ok, proposal_text

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
CASES = [load(p) for p in sorted((FIXTURES / "errors_fixes_o").glob("*.txt"))]
HELDOUT = [load(FIXTURES / "errors_heldout_n" / n) for n in (
    "rt_cublaslt11_hallo_onnxruntime.txt", "nccl_shm_open_permission_node08.txt", "nki_nunif_rtx5090_win.txt")]


def test_each_text_has_its_thread_and_fix():
    source = (FIXTURES / "errors_fixes_o" / "SOURCE.md").read_text(encoding="utf-8")
    assert len(CASES) >= 3
    for c in CASES:
        assert c.headers["source"] in source and c.headers.get("fixed") and c.headers.get("fix-has"), c.path.name


@pytest.mark.parametrize("case", CASES + HELDOUT, ids=[c.path.name for c in CASES + HELDOUT])
def test_the_threads_fix_on_its_platform(case):
    d = diagnose(case.body)
    assert d.matches and d.top.category == case.expect, [(m.category, m.rule) for m in d.matches]
    assert platform_ok(d, case.headers["platform"]), d.platform
    assert fix_has(d.top, case.headers["fix-has"]), proposal_text(d.top)


@pytest.mark.parametrize("name", ["tf_cudnn_voxelnet_conda_7005.txt", "ort_cublaslt11_step_audio_editx.txt"])
def test_another_frameworks_failure_gets_no_pytorch_reinstall(name):
    d = diagnose(load(FIXTURES / "errors_fixes_o" / name).body)
    assert d.platform.framework in ("tensorflow", "onnxruntime")
    assert not any("torch" in " ".join(a) for s in d.top.fix_steps for a in s.argv), d.top.fix_steps
    assert not any(s.id in ("create_venv", "install_pytorch_build", "check_recommendation") for s in d.top.fix_steps)


def test_the_onnxruntime_fix_goes_through_the_install_builder_into_the_failing_environment():
    d = diagnose(HELDOUT[0].body)
    (step,) = [s for s in d.top.fix_steps if s.id == "install_onnxruntime_gpu"]
    (argv,) = step.argv
    assert argv[1:4] == ("-m", "pip", "install") and "onnxruntime-gpu>=1.19" in argv and argv[0].endswith("python")


def test_pytorch_named_anywhere_keeps_the_pytorch_fix():
    assert framework("E tensorflow/stream_executor/cuda/cuda_dnn.cc:378] Loaded runtime CuDNN library") == "tensorflow"
    assert framework("cuDNN version incompatibility: PyTorch was compiled against (8, 7, 0) but found runtime version "
                     "(8, 5, 0). tensorflow is also installed") is None
    assert framework("RuntimeError: CUDA error: no kernel image is available") is None


def test_shm_permission_is_not_a_small_shm():
    d = diagnose(HELDOUT[1].body)
    assert (d.top.rule, d.top.subcode) == ("nccl_shm_permission", "shm_permission")
    assert ("ls", "-ld", "/dev/shm") in [a for s in d.top.fix_steps for a in s.argv]
    small = diagnose("host:1:2 [0] NCCL WARN Error while creating shared memory segment /dev/shm/nccl-abc (size 9637888)\n"
                     "host:1:2 [0] NCCL WARN Call to posix_fallocate failed : No space left on device")
    assert small.top.rule == "nccl_shm_too_small"
