"""network._version_ip (the version-IP pattern without the words a text lacks) finds exactly what
_VERSION_IP finds, for texts holding any mix of the words: line starts and ends, CRLF, case,
overlapping words (version/v, vbios/v, cudnn/cuda), unicode."""
from __future__ import annotations

import itertools

import pytest

from app.report.redact import network
from app.report.redact.common import Text

TEXTS = [
    "kernel 5.15.133.1\r\nDriver Version: 10.0.22631.4460\r\n",
    "version\n1.2.3.4 v1.2.3.4 xv1.2.3.4 vbios 90.0.1.2 cudnn==9.1.0.70 cuda:12.8.0.1",
    "torch==2.5.1.0 pip>=1.2.3.4 x<=5.6.7.8 y~=9.9.9.9 python '3.12.1.0' (build 1.2.3.4)",
    "ünïcode version: 7.7.7.7 — Firmware=1.0.0.1 TensorRT 8.6.1.6\nnccl 2.21.5.1",
    "10.1.2.3 from 192.168.0.1 via v 1.2.3.4 release\t\t4.4.4.4",
]


@pytest.mark.parametrize("text", TEXTS)
def test_same_matches_as_the_full_pattern(text):
    low = text.lower()
    want = [m.group(0, 1) for m in network._VERSION_IP.finditer(low)]
    t = Text(text, list(dict.fromkeys(text.split())))
    present = tuple(w for w in network._VERSION_WORDS if t.holds(w))
    assert [m.group(0, 1) for m in network._version_ip(present).finditer(low)] == want
    assert want  # each text has a version


def test_every_subset_of_words_keeps_what_it_can_match():
    text = " ".join(TEXTS).lower()
    words = network._VERSION_WORDS
    for n in (0, 1, 2, len(words)):
        for present in itertools.islice(itertools.combinations(words, n), 40):
            got = [m.group(0) for m in network._version_ip(present).finditer(text)]
            full = [m.group(0) for m in network._VERSION_IP.finditer(text)]
            assert set(got) <= set(full)
    assert network._version_ip(words).pattern.replace("\\~", "~") == network._VERSION_IP.pattern
