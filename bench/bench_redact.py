"""Redaction is linear: one 160,000-character line of each shape (the shapes that made the old
patterns quadratic: `a.a.a.`, `a-a-a-`, host-like runs; lines full of distinct private values, which
made the replacement cost length × values), time per line; then 10 MB of four kinds of text (a
realistic install log, token-dense, e-mail/IP/MAC-dense, one long line), each in a process of its own:
CPU and wall seconds of Redactor().text() and the process's peak memory.

    python bench/bench_redact.py [--chars 160000] [--mb 10] [--kind NAME]

Targets: well under 1 s per line; 10 MB of any kind in 2 s of CPU (a line that misses it says SLOW).
The figures depend on how busy the machine is: the load average is printed with them.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import resource
import string
import subprocess
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


def kinds(size: int) -> dict[str, str]:
    """Four kinds of text of `size` characters: a realistic install log, token-dense, e-mail/IP/MAC-dense
    (four distinct addresses a line), one long line of mixed values (no line break at all)."""
    rnd = random.Random(23)
    al = string.ascii_letters + string.digits
    users = ["alice", "bob7", "carol.d", "dmitri", "eve"]

    def tok(n: int) -> str:
        return "".join(rnd.choice(al) for _ in range(n))

    def fill(lines: list) -> str:
        out, n = [], 0
        while n < size:
            s = rnd.choice(lines)()
            out.append(s)
            n += len(s)
        return "".join(out)[:size]

    def ip() -> str:
        return ".".join(str(rnd.randint(1, 254)) for _ in range(4))

    log = [lambda: f"2026-01-{rnd.randint(1, 28):02d}T10:{rnd.randint(0, 59):02d}:00 Collecting torch==2.5.1 "
                   f"(from -r /home/{rnd.choice(users)}/req.txt)\n",
           lambda: f"[{rnd.random() * 1000:12.6f}] nvidia 0000:{rnd.randint(0, 255):02x}:00.0: loading NVIDIA UNIX "
                   "x86_64 Kernel Module 550.54.14\n",
           lambda: f"Get:{rnd.randint(1, 99)} https://developer.download.nvidia.com/compute/cuda/repos/ubuntu2404/x86_64 "
                   f"cuda-toolkit-12-8 [{rnd.randint(1000, 99999)} kB]\n",
           lambda: f"{rnd.choice(users)}@ws-{rnd.randint(1, 40)}:~$ nvidia-smi --query-gpu=uuid --format=csv\n",
           lambda: f"| {rnd.randint(0, 7)}  NVIDIA H200   On  | 00000000:{rnd.randint(0, 255):02X}:00.0 Off |   0 |\n",
           lambda: "Downloading https://download.pytorch.org/whl/cu128/torch-2.7.0%2Bcu128-cp312-cp312-manylinux_2_28_"
                   f"x86_64.whl ({rnd.randint(100, 900)}.1 MB)\n",
           lambda: f"    Building wheel for flash-attn (setup.py) ... done took {rnd.random() * 100:.1f}s\n"]
    tokens = [lambda: f"export API_TOKEN={tok(40)}\n", lambda: f"ghp_{tok(36)} hf_{tok(34)} sk-{tok(48)}\n",
              lambda: f"eyJ{tok(20)}.{tok(40)}.{tok(43)}\n", lambda: f"PASSWORD='{tok(12)}' secret: {tok(10)}\n",
              lambda: f"curl -H 'Authorization: Bearer {tok(32)}' https://u{rnd.randint(1, 99)}:{tok(10)}@api.example.com/x\n",
              lambda: f"{tok(64)}\n"]
    addrs = [lambda: f"from {ip()} ({':'.join(f'{rnd.randint(0, 255):02x}' for _ in range(6))}) "
                     f"<{tok(8).lower()}@{rnd.choice(['example.org', 'corp.example.com', 'mail.lan'])}> "
                     f"via {':'.join(f'{rnd.randint(0, 65535):x}' for _ in range(8))}\n"]
    long_ = [lambda: f"k{tok(3)}={tok(9)} ", lambda: f"{tok(6)}@{tok(5)}.com ", lambda: ip() + " ",
             lambda: f"/home/{tok(6).lower()}/x ", lambda: f"ghp_{tok(36)} ", lambda: "the driver loaded ",
             lambda: f"GPU-{tok(8)}-x "]
    return {"realistic log": fill(log), "token-dense": fill(tokens), "email/ip/mac-dense": fill(addrs),
            "one long line": fill(long_)}


TARGET_CPU_S = 2.0


def one_kind(name: str, mb: float) -> dict:
    """Redact one kind of text in this process: CPU and wall seconds, values found, peak memory."""
    text = kinds(int(mb * 1024 * 1024))[name]
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    r = Redactor()
    w0, c0 = time.perf_counter(), time.process_time()
    out = r.text(text)
    w, c = time.perf_counter() - w0, time.process_time() - c0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    return {"kind": name, "mb": len(text) / 2**20, "wall_s": w, "cpu_s": c, "values": len(r.known()),
            "chars_out": len(out), "peak_mib": peak / 1024, "text_mib": base / 1024}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--chars", type=int, default=160_000, help="length of each shape's one line (0: skip)")
    ap.add_argument("--mb", type=float, default=10.0, help="size of each text kind, in MB (0: skip)")
    ap.add_argument("--kind", help="only this text kind, in this process (prints JSON)")
    a = ap.parse_args()
    if a.kind:
        print(json.dumps(one_kind(a.kind, a.mb)))
        return
    if a.chars > 0:
        lines(a.chars)
    if a.mb <= 0:
        return
    print(f"\n{a.mb:g} MB of each kind, Redactor().text() (learn, then replace), each in a process of its own "
          f"(load average before: {os.getloadavg()[0]:.1f}):")
    slow = 0
    for name in kinds(1000):
        got = subprocess.run([sys.executable, __file__, "--mb", str(a.mb), "--kind", name], capture_output=True, text=True)
        if got.returncode != 0:
            print(f"{name:22s} failed: {got.stderr.strip().splitlines()[-1:]}")
            slow += 1
            continue
        f = json.loads(got.stdout)
        flag = "ok" if f["cpu_s"] <= TARGET_CPU_S else "SLOW"
        slow += flag == "SLOW"
        print(f"{name:22s} {f['mb']:6.1f} MB  {f['cpu_s']:6.2f} s CPU  {f['wall_s']:6.2f} s wall  {f['values']:7d} values  "
              f"peak {f['peak_mib']:6.0f} MiB (at start {f['text_mib']:4.0f})  {flag} (target {TARGET_CPU_S:g} s CPU)")
    print(f"load average after: {os.getloadavg()[0]:.1f}; {'all within' if not slow else f'{slow} over'} the target")


def lines(chars: int) -> None:
    worst = ("", 0.0)
    for name, line in shapes(chars).items():
        t0 = time.perf_counter()
        out = Redactor().text(line)
        dt = time.perf_counter() - t0
        worst = max(worst, (name, dt), key=lambda x: x[1])
        print(f"{name:22s} {len(line):7d} chars  {dt * 1000:8.1f} ms  ({len(out)} chars out)")
    print(f"worst: {worst[0]}: {worst[1] * 1000:.1f} ms per {chars}-character line (target: well under 1000 ms)")


if __name__ == "__main__":
    main()
