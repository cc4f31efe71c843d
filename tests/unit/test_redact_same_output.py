"""Redaction gives the same output as the code it replaced (main at d5ac3c6, before the linear-time
rework of issue 23): a faster redactor must hide at least what the old one hid, and the simplest
proof is that it hides exactly the same, with the same placeholders. The texts are the bench's four
kinds and line shapes (small), every real fixture, the planted report fixtures, and a seeded mix of
their lines glued together; each one's output (and the placeholder counts) is hashed and compared
with the digest the old code gave.

A deliberate change of what is redacted changes these digests: check the new output by hand (no
value the old one redacted may appear in it), then re-record with
    python tests/unit/test_redact_same_output.py --record"""
from __future__ import annotations

import hashlib
import importlib.util
import json
import random
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIX = ROOT / "tests" / "fixtures"
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def _bench():
    spec = importlib.util.spec_from_file_location("bench_redact_for_tests", ROOT / "bench" / "bench_redact.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def corpus() -> dict[str, str]:
    b = _bench()
    out = {f"kind {k}": v for k, v in b.kinds(120_000).items()}
    out.update({f"shape {k}": v for k, v in b.shapes(3000).items()})
    files = sorted(p for d in ("real", "report", "errors") for p in (FIX / d).rglob("*") if p.is_file())
    texts = []
    for p in files:
        try:
            texts.append(p.read_text(encoding="utf-8"))
        except (UnicodeDecodeError, OSError):
            continue
    out["fixtures"] = "\n".join(texts)
    for p in sorted((FIX / "report").glob("planted_*")):
        out[f"file {p.name}"] = p.read_text(encoding="utf-8")
    rnd = random.Random(23)
    lines = [ln for t in texts + list(b.kinds(30_000).values()) for ln in t.split("\n") if ln.strip()]
    for i in range(6):
        pick = [rnd.choice(lines) for _ in range(400)]
        if i % 2:  # values next to each other in one piece or line
            pick = [rnd.choice([" ", "", "=", ":", "/", "\t", '"', "'", ",", "@", "(", ")"]).join(pick[j:j + 3])
                    for j in range(0, len(pick), 3)]
        out[f"mix {i}"] = "\n".join(pick)
    return out


def digests(redact) -> dict[str, str]:
    """name -> sha256 of what `redact` (the package app.report.redact, or an old copy of it) makes
    of each text, with its placeholder counts; and of the planted snapshot through redact_snapshot."""
    got = {}
    for name, text in corpus().items():
        r = redact.Redactor()
        out = r.text(text)
        got[name] = hashlib.sha256((out + json.dumps(r.counts())).encode()).hexdigest()[:24]
    snap = json.loads((FIX / "report" / "planted_snapshot.json").read_text())
    out = json.dumps(redact.redact_snapshot(snap), sort_keys=True)
    got["snapshot planted_snapshot.json"] = hashlib.sha256(out.encode()).hexdigest()[:24]
    return got


EXPECTED: dict[str, str] = {  # recorded with main's redactor at d5ac3c6 (--record --old)
    'file planted_output.log': '4628ed8ab0b3f1ce09099e9a',
    'file planted_snapshot.json': 'a5a8a500745592d42843070d',
    'file planted_values.json': 'ae34defb6af6a4fe780bbdb9',
    'fixtures': '1f521d006738190a42f27031',
    'kind email/ip/mac-dense': 'c99733f7159946a8da030134',
    'kind one long line': 'f3a1f56607e845b505975ce3',
    'kind realistic log': '956015074d643e2330f4c2b3',
    'kind token-dense': '0330b4e7e73ea9f36129eb70',
    'mix 0': '2244cce187e9db59da8bfeb7',
    'mix 1': '6bfe57a103a1ba9d5e3afb71',
    'mix 2': 'a90c0723f67fbc8dc2271e9c',
    'mix 3': 'dd1b8c0cf1adfbae5696ede8',
    'mix 4': 'bc78e92719cd16e5ad2bd1a9',
    'mix 5': 'ed246a8f56bb8c18985c14fc',
    'shape assignments a=': '9daaccb0d5fe5eac684e3d49',
    'shape at signs a@': '48f882f658df33cc53fa7974',
    'shape backslashes a\\': '94ef711c6a1b20569bc51178',
    'shape base64': 'bcf3dd441b06b80ab875ef29',
    'shape colons a:': 'a2d48063c0314f882042bb95',
    'shape dashes a-a-a-': '3eeee5145b2fc6a8f49f8430',
    'shape distinct emails': 'a0249f342740c0c131e663ed',
    'shape distinct homes': 'd3153bf711c29b86d5c53b39',
    'shape distinct ipv4': '01ed2fd49ec0646ddbf23af0',
    'shape distinct macs': '40cb3e195987ee6847489f4c',
    'shape distinct uuids': '4644d3b8d97344ecf7d4c0df',
    'shape distinct webhooks': '9b75b633cd9ca1c9b5404534',
    'shape dots a.a.a.': 'c0e329c40bfbc835b121f1df',
    'shape home paths': '97f5eef408c655584d22e9d5',
    'shape host-like ab-cd.': 'dc60552a23abf6f7a149308d',
    'shape letters': '1c57baeb485597e594930a56',
    'shape prose': 'ab1913a8ea435a43cb0064d2',
    'shape quotes a="': '796937a19231fee66ce0646c',
    'snapshot planted_snapshot.json': 'b9fb96bbe8709f2c53a891bb',
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_same_output_as_before(name, _digests):
    assert _digests[name] == EXPECTED[name], f"{name}: the redacted output changed (see this module's docstring)"


def test_every_text_is_checked(_digests):
    assert sorted(_digests) == sorted(EXPECTED)


@pytest.fixture(scope="module")
def _digests():
    import app.report.redact as redact

    return digests(redact)


if __name__ == "__main__" and "--record" in sys.argv:
    # `--old DIR`: record with the package copied to DIR/oldredact (the code being replaced)
    if "--old" in sys.argv:
        sys.path.insert(0, sys.argv[sys.argv.index("--old") + 1])
        import oldredact as redact_mod  # type: ignore[import-not-found]
    else:
        import app.report.redact as redact_mod
    print(json.dumps(digests(redact_mod), indent=4, sort_keys=True))
