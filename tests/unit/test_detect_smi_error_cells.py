"""A GPU cell nvidia-smi could not read is a finding whatever error value it prints: ERR!, or the
bracketed [Unknown Error] / [GPU is lost] that nvidia-smi uses for the same failure in its other
outputs (app.detect.smi._ERROR_VALUES). Built from the real V100 container table
(tests/fixtures/real/smi-v100-sxm2-container) with its ECC or utilization cell replaced; N/A
(a value the board does not have) is never such a finding."""
import pytest
from detect_helpers import read, snapshot

from app.detect import detect

REAL = read("smi-v100-sxm2-container", "nvidia-smi.out")
ECC = "|                    0 |"
UTIL = "|      0%      Default |"


def _facts(text):
    return detect(snapshot({}, {"nvidia-smi": text}))


@pytest.mark.parametrize("value", ["ERR!", "[Unknown Error]", "[GPU is lost]"])
@pytest.mark.parametrize("cell,field", [(ECC, "ECC errors"), (UTIL, "utilization")])
def test_error_cells_are_findings(value, cell, field):
    assert cell in REAL
    width = len(cell) - 3
    text = REAL.replace(cell, "| " + value.rjust(width) + "|" if cell == ECC else "| " + f"{value}      Default".rjust(width) + "|", 1)
    f = _facts(text)
    assert len(f.gpus) == 1 and f.gpus[0].compute_capability == "7.0"
    hits = [x for x in f.findings if x.code == "smi_gpu_field_err"]
    assert hits and field in (hits[0].params.get("gpu_fields") or ""), [(x.code, x.params) for x in f.findings]


def test_the_real_table_has_no_error_finding():
    f = _facts(REAL)
    assert len(f.gpus) == 1 and not [x for x in f.findings if x.code == "smi_gpu_field_err"]
