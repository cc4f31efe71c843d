"""The refused choices ("Not possible as asked") and the `recommend --list` judgements carry stable
codes and the figures of their English sentences, so `--lang zh_CN` says them in Chinese (they
were English on a real run). Each code is reached by a machine built as --assume-* would."""
from __future__ import annotations

import re

import pytest

from app import messages as M
from app.choices import Choices
from app.compat import load_db
from app.recommend import CLAUSE_CODES, OPTION_CODES, REFUSAL_CODES, recommend, torch_options
from app.recommendation import Recommendation
from tests.unit.test_recommend_machines import A100, GTX1080TI, H200, RTX4090, RTX5090, machine

CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture(scope="module")
def db():
    return load_db(use_user_bundle=False)


REFUSING = [
    ("unknown_release", machine("u2404", [RTX4090], "580.95.05", "3.12"), Choices(torch_version="2.99")),
    ("no_python", machine("u2404", [RTX4090], "580.95.05", "3.9"), Choices(torch_version="2.14")),
    ("unknown_variant", machine("u2404", [RTX4090], "580.95.05", "3.12"), Choices(torch_variant="cu999")),
    ("no_kernels", machine("u2404", [RTX5090], "580.95.05", "3.12", kernel_module="open"), Choices(torch_variant="cu126")),
    ("not_built_as", machine("u2404", [RTX4090], "580.95.05", "3.12"), Choices(torch_version="2.14", torch_variant="cu118")),
]


def _said(code, params, lang):
    text, used = M.render_strict("rec", code, params, lang)
    return text, used


@pytest.mark.parametrize("rid,facts,choices", REFUSING, ids=[r[0] for r in REFUSING])
def test_every_refusal_has_a_code_and_is_said_in_chinese(db, rid, facts, choices):
    rec = recommend(facts, db, choices)
    assert rec.refused and len(rec.refused_detail) == len(rec.refused), (rid, rec.refused)
    for english, d in zip(rec.refused, rec.refused_detail):
        assert d.code in REFUSAL_CODES and d.message == english
        for k, v in d.params.items():
            assert isinstance(v, str)
            if k.endswith("_code"):
                assert v in CLAUSE_CODES, (k, v)
        en, used = _said(d.code, d.params, "en")
        assert en == english  # the catalogue's English is the engine's sentence, figure for figure
        zh, _ = _said(d.code, d.params, "zh_CN")
        assert CJK.search(zh) and zh != english
        leftover = zh
        for v in d.params.values():
            leftover = leftover.replace(v, "")
        assert not re.search(r"\b[a-z]{4,}\b", re.sub(r"--[a-z-]+|cu\d+|sm_\d+", "", leftover)), zh
    assert Recommendation.loads(rec.dumps()) == rec


def test_refusals_reach_every_code(db):
    seen = {d.code for _i, f, c in REFUSING for d in recommend(f, db, c).refused_detail}
    # no GPU in the data lacks a system cuDNN row; refused_not_on_index needs an index (tests/unit/live_server.py reaches it)
    assert seen >= REFUSAL_CODES - {"refused_system_cudnn", "refused_not_on_index"}


@pytest.mark.parametrize("facts,choices", [
    (machine("u2404", [RTX5090], "570.86.15", "3.12", kernel_module="open"), Choices()),
    (machine("u2404", [GTX1080TI], "590.44.01", "3.9"), Choices()),
    (machine("u2004", [A100, GTX1080TI], "450.80.02", "3.11"), Choices()),
    (machine("u2404", [H200], None, "3.12"), Choices()),
])
def test_every_list_judgement_is_said_in_chinese(db, facts, choices):
    opts = torch_options(facts, db, choices)
    assert opts
    for o in opts:
        assert o.reason_code in OPTION_CODES, o
        assert _said(o.reason_code, o.reason_params, "en")[0] == o.reason
        zh = _said(o.reason_code, o.reason_params, "zh_CN")[0]
        assert CJK.search(zh), zh


def test_list_never_says_a_branch_that_drops_the_gpu_runs_it(db):
    """R590 supports no Pascal GPU: the list must not call a build 'ok' on it (the answer installs R580)."""
    facts = machine("u2404", [GTX1080TI], "590.44.01", "3.12")
    rec = recommend(facts, db)
    assert rec.driver.action == "install" and rec.driver.branch == "580"
    assert not [o for o in torch_options(facts, db, Choices(), rec) if o.status == "ok" and o.index != "cpu"]


def test_cli_list_and_refusals_in_chinese(capsys):
    from app.cli import main

    assert main(["recommend", "--offline", "--lang", "zh_CN", "--assume-gpu", "RTX 5090", "--assume-driver", "570.86.15",
                 "--python-version", "3.12", "--torch-version", "2.99", "--variant", "cu126"]) == 0
    out = capsys.readouterr().out
    block = out.split("无法按要求实现", 1)[1].split("\n\n", 1)[0]
    assert "not a known release" not in block and "ships no kernels" not in block and "不是已知的版本" in block
    assert main(["recommend", "--offline", "--lang", "zh_CN", "--assume-gpu", "RTX 5090", "--assume-driver", "570.86.15",
                 "--python-version", "3.12", "--list"]) == 0
    out = capsys.readouterr().out
    assert "Needs driver" not in out and "CPU only" not in out and "Runs on driver" not in out and "（* = 推荐）" in out
