"""A PyTorch install that cannot reach its index says which setting gets past it (mirror, proxy,
CA bundle), from pip's real words (tests/fixtures/run/pip-unreachable-*.txt, see SOURCE.md)."""
import pytest

from app import messages
from app.plan.model import Step
from app.plan.pytorch import unreachable_hint
from tests.conftest import FIXTURES

STEP = Step(id="install_pytorch", kind="install_pytorch", title="t", why="w",
            params={"url": "https://download.pytorch.org/whl/cpu"})


@pytest.mark.parametrize("name, code, flag", [("dns", "pip_unreachable", "--pytorch-mirror"),
                                              ("tls", "pip_unreachable_tls", "--ca-bundle"),
                                              ("proxy", "pip_unreachable_proxy", "--proxy")])
def test_real_pip_failures_get_their_hint(name, code, flag):
    text = (FIXTURES / "run" / f"pip-unreachable-{name}.txt").read_text()
    hint = unreachable_hint(STEP.replace(params={}), text)
    assert hint is not None and hint[0] == code
    host = "127.0.0.1" if name == "tls" else "download.pytorch.org"
    assert hint[1] == {"host": host}
    for lang in ("en", "zh_CN"):
        said = messages.render("cli", code, hint[1], lang)
        assert host in said and flag in said


def test_other_failures_get_none():
    resolution = ("ERROR: Could not find a version that satisfies the requirement torch==9.9 (from versions: 2.12.0, 2.13.0)\n"
                  "ERROR: No matching distribution found for torch==9.9\n")
    assert unreachable_hint(STEP, resolution) is None
    assert unreachable_hint(STEP.replace(kind="install_cudnn"), (FIXTURES / "run" / "pip-unreachable-dns.txt").read_text()) is None
    assert unreachable_hint(STEP, "") is None
