"""Class rules written after the seventeenth held-out batch's blind run (tests/fixtures/errors_heldout_q), each checked on
the batch's text and on further real texts of the same cause (tests/fixtures/errors_causes_q, URLs in its SOURCE.md)."""
from __future__ import annotations

from pathlib import Path

import pytest

from diagnose_helpers import diagnose
from heldout_score import check_answer, load

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
CAUSES = FIXTURES / "errors_causes_q"
BATCH = FIXTURES / "errors_heldout_q"

# class -> (the rules that may answer it, the batch's texts, the further real texts); the first rule is the class's
# own, a later one a more specific rule of the same category that the text also shows
CLASSES = {
    "no_devices_with_mig_enabled": (("mig_devices",), ["mig_no_cuda_devices_gpu_burn_a100"],
                                    ["mig_no_devices_found_with_mig_gminer_a100"]),
    "bumblebee_could_not_load_gpu_driver": (("bumblebee_driver_not_loaded", "secure_boot_key_rejected"),
                                            ["secureboot_bumblebee_bios_update_debian10"],
                                            ["secureboot_bumblebee_modprobe_not_permitted_ubuntu20"]),
    "tensorflow_lists_no_gpu": (("tf_no_gpu_listed",), ["unavail_tf23_windows_gtx1050ti_empty_list"],
                                ["unavail_tf214_windows_gtx1060_gpu_empty"]),
}


@pytest.mark.parametrize("klass", sorted(CLASSES))
def test_class_rule_answers_every_real_text_of_its_cause(klass):
    """The batch's text and the further ones get the class's rule and category; where the thread says what fixed it,
    the answer holds that fix and is written for the thread's machine."""
    rules, batch, further = CLASSES[klass]
    for p in [BATCH / f"{n}.txt" for n in batch] + [CAUSES / f"{n}.txt" for n in further]:
        check_answer(load(p), diagnose, rules)
    assert diagnose(load(BATCH / f"{batch[0]}.txt").body).top.rule == rules[0]


def test_a_gpu_tensorflow_lists_is_no_alarm():
    """TensorFlow listing a GPU is a working setup, not the class."""
    text = "print(tf.config.list_physical_devices('GPU'))\n[PhysicalDevice(name='/physical_device:GPU:0', device_type='GPU')]\n"
    assert all(m.rule != "tf_no_gpu_listed" for m in diagnose(text).matches)


def test_mig_disabled_is_not_the_mig_class():
    """"No CUDA devices found" beside an nvidia-smi table whose MIG column says Disabled is not MIG's answer."""
    text = "No CUDA devices found\nMIG M. Disabled\n"
    assert all(m.category != "mig_mode" for m in diagnose(text).matches)
