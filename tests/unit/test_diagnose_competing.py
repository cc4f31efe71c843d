"""Texts where two categories compete: the cause the text names most specifically wins, whichever
comes first in the paste, and the generic reading is still listed after it. Real texts from the
held-out batches (sources in their SOURCE.md / first line)."""
from __future__ import annotations

from pathlib import Path

import pytest

from app.diagnose import diagnose

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def _body(rel: str) -> str:
    lines = (FIXTURES / rel).read_text(encoding="utf-8").split("\n")
    return "\n".join(x for i, x in enumerate(lines) if not (i < 2 and x.startswith(("# source: ", "# expect: "))))


CASES = [
    # Secure Boot refused the module; nvidia-smi then cannot talk to a driver (symptom)
    ("errors_heldout_g/secure_boot_gdm_journal_key_rejected.txt", "secure_boot", "nvml_init_failed"),
    # the device plugin names its cause (the runtime); "Failed to initialize NVML" is the generic form
    ("errors_heldout_g/k8s_plugin_kubectl_logs.txt", "container_toolkit_missing", "nvml_init_failed"),
    ("errors_heldout_g/k8s_plugin_nvml_containerd_prefix.txt", "container_toolkit_missing", "nvml_init_failed"),
]


@pytest.mark.parametrize("rel,specific,generic", CASES, ids=[c[0].split("/")[1] for c in CASES])
def test_the_specific_cause_wins_and_the_generic_one_follows(rel, specific, generic):
    d = diagnose(_body(rel))
    cats = [m.category for m in d.matches]
    assert cats[0] == specific, cats
    assert generic in cats[1:], cats


@pytest.mark.parametrize("rel,specific,generic", CASES, ids=[c[0].split("/")[1] for c in CASES])
def test_the_order_of_the_lines_does_not_change_the_answer(rel, specific, generic):
    lines = [x for x in _body(rel).split("\n") if x.strip()]
    for text in ("\n".join(lines), "\n".join(reversed(lines)), "\n".join(lines[len(lines) // 2:] + lines[:len(lines) // 2])):
        assert diagnose(text).matches[0].category == specific


def test_two_unrelated_failures_in_one_paste_are_both_named_first_error_first_when_equally_sure():
    """A paste quoting two failures (a DKMS build error, then a Docker GPU error): both are found."""
    a = _body("errors_heldout_f/dkms_fedora_autoinstall.txt")
    b = _body("errors_heldout_f/docker_select_driver_xagent_erro.txt")
    for first, second, cats in ((a, b, ("dkms_build_failed", "container_toolkit_missing")),
                                (b, a, ("container_toolkit_missing", "dkms_build_failed"))):
        d = diagnose(first + "\n\n" + second)
        found = [m.category for m in d.matches]
        assert set(cats) <= set(found), found
        ms = {m.category: m for m in d.matches}
        if ms[cats[0]].confidence == ms[cats[1]].confidence:
            assert found.index(cats[0]) < found.index(cats[1])
