"""Out-of-memory errors recorded on the team's H200 (torch 2.11), and the diagnosis the wizard
made there while the memory was really held by another process."""
import json
from pathlib import Path

from app.diagnose import diagnose
from app.diagnose.model import Diagnosis

FIX = Path(__file__).resolve().parents[1] / "fixtures"


def test_real_oom_with_another_process_holding_memory():
    text = (FIX / "diagnose/oom_h200_real_other_process.txt").read_text()
    top = diagnose(text, None).matches[0]
    assert (top.category, top.subcode) == ("oom", "other_process")
    assert "100.51 GiB" in top.root_cause or any("100.51 GiB" in e.message for e in top.evidence)


def test_real_oom_asking_for_more_than_the_gpu_has():
    text = (FIX / "diagnose/oom_h200_real_too_small.txt").read_text()
    top = diagnose(text, None).matches[0]
    assert (top.category, top.subcode) == ("oom", "too_small")
    assert "200.00 GiB" in top.root_cause and "139.80 GiB" in top.root_cause


def test_the_diagnosis_made_on_the_gpu_machine_used_the_live_process_list():
    d = Diagnosis.from_json(json.loads((FIX / "diagnose/h200_oom_other_process_live.json").read_text()))
    top = d.matches[0]
    assert (top.category, top.subcode) == ("oom", "other_process")
    live = [e for e in top.evidence if e.source == "live"]
    assert live and "PID 420" in live[0].message and "100.51 GiB" in live[0].message
