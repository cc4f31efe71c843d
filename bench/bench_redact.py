"""Issue 14: redaction is linear in line length. One 160,000-character line of each shape (the
shapes that made the old patterns quadratic: `a.a.a.`, `a-a-a-`, host-like runs; and lines full of
distinct private values, which made the replacement cost length × values), time per line.

    python bench/bench_redact.py [--chars 160000]

Prints one row per shape and the worst; the target is well under 1 s per line.
"""
from __future__ import annotations

import argparse
import random
import string
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from app.report.redact import Redactor  # noqa: E402


def shapes(n: int) -> dict[str, str]:
    rnd = random.Random(14)

    def rep(unit: str) -> str:
        return (unit * (n // len(unit) + 1))[:n]

    def many(fn) -> str:
        out, size = [], 0
        while size < n:
            s = fn()
            out.append(s)
            size += len(s) + 1
        return " ".join(out)[:n]
    hexs = "0123456789abcdef"
    return {
        "dots a.a.a.": rep("a."),
        "dashes a-a-a-": rep("a-"),
        "host-like ab-cd.": rep("ab-cd."),
        "letters": rep("a"),
        "assignments a=": rep("a="),
        "colons a:": rep("a:"),
        "backslashes a\\": rep("a\\"),
        "at signs a@": rep("a@"),
        "quotes a=\"": rep('a="'),
        "home paths": rep("/home/"),
        "base64": "".join(rnd.choice(string.ascii_letters + string.digits + "+/") for _ in range(n)),
        "prose": many(lambda: rnd.choice(["the", "driver", "CUDA", "x=1", "path/to", "GPU-", "foo@bar", "12.8"])),
        "distinct uuids": many(lambda: "-".join("".join(rnd.choice(hexs) for _ in range(k)) for k in (8, 4, 4, 4, 12))),
        "distinct ipv4": many(lambda: ".".join(str(rnd.randint(1, 254)) for _ in range(4))),
        "distinct emails": many(lambda: "".join(rnd.choice(string.ascii_lowercase) for _ in range(8)) + "@example.org"),
        "distinct macs": many(lambda: ":".join("".join(rnd.choice(hexs) for _ in range(2)) for _ in range(6))),
        "distinct homes": many(lambda: "/home/" + "".join(rnd.choice(string.ascii_lowercase) for _ in range(9)) + "/x"),
        "distinct webhooks": many(lambda: "https://hooks.slack.com/services/T" + "".join(
            rnd.choice(string.ascii_uppercase + string.digits) for _ in range(10)) + "/B0/x"),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--chars", type=int, default=160_000)
    a = ap.parse_args()
    worst = ("", 0.0)
    for name, line in shapes(a.chars).items():
        t0 = time.perf_counter()
        out = Redactor().text(line)
        dt = time.perf_counter() - t0
        worst = max(worst, (name, dt), key=lambda x: x[1])
        print(f"{name:22s} {len(line):7d} chars  {dt * 1000:8.1f} ms  ({len(out)} chars out)")
    print(f"worst: {worst[0]}: {worst[1] * 1000:.1f} ms per {a.chars}-character line (target: well under 1000 ms)")


if __name__ == "__main__":
    main()
