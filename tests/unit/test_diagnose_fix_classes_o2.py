"""The fix classes still missed on the held-out batches after tests/fixtures/errors_fixes_o (issue 25, fix quality),
each checked on real texts of the same family whose threads say what fixed them (tests/fixtures/errors_fixes_o2,
SOURCE.md there) and on the held-out texts it was found on: a GPU in Exclusive_Process compute mode (one process
per GPU, as on SGE/Slurm/LSF clusters)."""
from __future__ import annotations

from pathlib import Path

import pytest

from diagnose_helpers import diagnose
from heldout_score import fix_has, load, platform_ok, proposal_text

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
CASES = [load(p) for p in sorted((FIXTURES / "errors_fixes_o2").glob("*.txt"))]
HELDOUT = [load(FIXTURES / n) for n in (
    "errors_heldout_o/busy_safe_gpu_sge_exclusive_ddp.txt",
)]


def test_each_text_has_its_thread_and_fix():
    source = (FIXTURES / "errors_fixes_o2" / "SOURCE.md").read_text(encoding="utf-8")
    assert len(CASES) >= 1
    for c in CASES:
        assert c.headers["source"] in source and c.headers.get("fixed") and c.headers.get("fix-has"), c.path.name
        assert c.path.name.removesuffix(".txt") in source, c.path.name


@pytest.mark.parametrize("case", CASES + HELDOUT, ids=[c.path.name for c in CASES + HELDOUT])
def test_the_threads_fix_on_its_platform(case):
    d = diagnose(case.body)
    assert d.matches and d.top.category == case.expect, [(m.category, m.rule) for m in d.matches]
    assert platform_ok(d, case.headers["platform"]), d.platform
    assert fix_has(d.top, case.headers["fix-has"]), proposal_text(d.top)


def test_exclusive_mode_is_named_in_both_languages():
    """The one-process-per-GPU advice is the catalogue's, in English and Chinese, not only the admin's command."""
    from app import messages

    m = diagnose(HELDOUT[0].body).top
    en, zh = messages.match_text(m, "fix", "en"), messages.match_text(m, "fix", "zh_CN")
    assert "Exclusive_Process" in en and "DDP" in en
    assert "Exclusive_Process" in zh and "独占" in zh and "DDP" in zh
