"""A large log that names rule keywords on every line (monitoring lines, a warning repeated with new figures)
costs its distinct lines, not its length (app/diagnose/textscan.py: a hit line whose shape, digits aside, was a
hit SHAPE_CAP times opens no window): the real errors in it are all found, the kept text is small, the input
says parts were left out, and the last line of a repeated shape is still read (a repeated OOM's last figures)."""
from __future__ import annotations

from pathlib import Path

from app.diagnose import diagnose_file
from app.diagnose.textscan import SHAPE_CAP

ERRORS = Path(__file__).resolve().parent.parent / "fixtures" / "errors"


def fixture(name: str) -> str:
    return (ERRORS / name).read_text(encoding="utf-8").partition("\n")[2]


def noise(n: int, seed: int) -> str:
    # keyword-dense healthy lines: nvidia-smi, dkms, Xid counters, timeouts (new figures on every line)
    shapes = ("{i:05d} monitor: nvidia-smi --query-gpu=utilization.gpu reported {u}% {m} MiB\n",
              "{i:05d} dkms: nvidia/550.120 already installed for kernel 6.8.0-{k}-generic\n",
              "{i:05d} http: request to metrics endpoint timed out after {u}s, retrying\n")
    return "".join(shapes[(i * 7 + seed) % 3].format(i=i, u=i % 97, m=i * 13 % 80000, k=i % 50) for i in range(n))


def test_errors_amid_repeated_keyword_lines_are_all_found(tmp_path):
    f = tmp_path / "dense.log"
    f.write_text(noise(40_000, 1) + fixture("secureboot_required_key.txt") + noise(40_000, 2)
                 + fixture("mismatch_intel_ci_550.txt") + noise(40_000, 3) + fixture("wsl_gpu_blocked_l40s.txt") + noise(40_000, 4),
                 encoding="utf-8")
    d = diagnose_file(f)
    assert {"secure_boot", "driver_lib_mismatch", "wsl_gpu_access_blocked"} <= set(d.categories()), d.categories()
    assert d.input.truncated and d.input.chars_kept < 200_000, d.input


def test_the_last_of_a_repeated_oom_is_read(tmp_path):
    f = tmp_path / "oom.log"
    oom = fixture("oom_new_format_fragmented_lerf.txt").strip().split("\n")[0]
    lines = [oom.replace("Tried to allocate 3.00 GiB", f"Tried to allocate {1 + i / 100:.2f} GiB") for i in range(3 * SHAPE_CAP)]
    f.write_text(noise(20_000, 5) + "".join(x + "\n" + "step 1 loss 0.5\n" * 20 for x in lines) + noise(20_000, 6), encoding="utf-8")
    d = diagnose_file(f)
    assert d.matches[0].category == "oom" and d.oom is not None
    last = d.oom.numbers[-1]
    assert last.requested_mib is not None and abs(last.requested_mib - (1 + (3 * SHAPE_CAP - 1) / 100) * 1024) < 1, last
    assert len(d.oom.numbers) <= SHAPE_CAP + 1
