"""Class rules written after the fifteenth held-out batch's blind run (tests/fixtures/errors_heldout_o), checked on
further real texts (tests/fixtures/errors_causes_o, URLs in its SOURCE.md) and a negative that must not fire."""
from __future__ import annotations

from pathlib import Path

from diagnose_helpers import diagnose
from heldout_score import fix_has, load

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
CAUSES = FIXTURES / "errors_causes_o"


def test_tensorrt_internal_error_unsupported_sm_hex_is_the_gpu_generation():
    """TensorRT's "Internal Error (Unsupported SM: 0x601)" names the GPU's SM in hex (6.1, Pascal): the fix is a
    TensorRT release that still supports it, whichever side of the message the word TensorRT stands."""
    for p in [CAUSES / "trt10_pascal_frigate_unsupported_sm_0x601.txt",
              FIXTURES / "errors_heldout_o" / "trt_sm_0x809_trt84_rtx4080_windows.txt"]:
        case = load(p)
        d = diagnose(case.body)
        assert d.top is not None and d.top.category == "tensorrt_unsupported_sm", (p.name, d.matches)
        assert fix_has(d.top, case.headers["fix-has"]), (p.name, d.top.fix)


def test_another_tensorrt_internal_error_is_not_an_unsupported_gpu():
    case = load(CAUSES / "negatives" / "trt_no_implementation_for_node_voltaml.txt")
    d = diagnose(case.body)
    assert all(m.category != "tensorrt_unsupported_sm" for m in d.matches), [(m.category, m.rule) for m in d.matches]
