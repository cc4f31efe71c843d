"""Fleet at scale, measured in one run (issue 26): beside one single-host `gpu-wizard --snapshot FILE detect`,

1. `fleet detect` of 100 snapshot-backed hosts (read in this process: no Ansible task, no engine process
   per host), once with the 5 demo snapshots cycled and once with every host's snapshot its own (a
   distinct file and content each: nothing shared), and of 1,000 distinct hosts (the report's folder);
2. `fleet plan` of 100 and of 1,000 hosts (the pipeline of `gpu-wizard plan`, solved once per distinct
   snapshot and choices; then ansible-playbook --syntax-check, timed apart);
3. `fleet report` of those 1,000 hosts, 3 in 4 with the real H200 verification of tests/fixtures/verify
   (every 10th at PCIe x8 with half the bandwidth, so some are flagged), host reports on demand; and the
   host reports of 20 hosts written in parallel (`--host`), per host.

    python bench/bench_fleet.py [--hosts 100] [--report-hosts 1000]
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SNAPS = sorted((ROOT / "resources" / "snapshots").glob("*.json"))
VERIFY = ROOT / "tests" / "fixtures" / "verify" / "h200_quick.json"
H200 = ROOT / "resources" / "snapshots" / "h200-server-ubuntu2404.json"


def gw(*args, cwd):
    t = time.perf_counter()
    r = subprocess.run([sys.executable, "-m", "app", *args], cwd=cwd, capture_output=True, text=True,
                       env={**os.environ, "PYTHONPATH": str(ROOT), "GPU_WIZARD_LIVE": "0"}, timeout=3600)
    return r, time.perf_counter() - t


def inventory(tmp: Path, name: str, n: int, distinct: bool, pick=None) -> Path:
    """n snapshot-backed hosts; `distinct`: each its own file whose content differs (its `created`)."""
    lines = ["[fleet]"]
    d = tmp / f"{name}-snaps"
    d.mkdir()
    for i in range(n):
        src = pick(i) if pick else SNAPS[i % len(SNAPS)]
        if distinct:
            data = json.loads(src.read_text())
            data["created"] = f"2026-01-01T00:{i // 60 % 60:02d}:{i % 60:02d}+00:00"
            data["note"] = f"bench host {i}"
            p = d / f"h{i:04d}.json"
            p.write_text(json.dumps(data))
            src = p
        lines.append(f"host{i:04d} gpu_wizard_snapshot={src}")
    inv = tmp / f"{name}.ini"
    inv.write_text("\n".join(lines) + "\n")
    return inv


def must(r, what):
    if r.returncode not in (0, 1) or "Traceback" in r.stderr:
        sys.exit(f"{what} failed: {r.stderr[-2000:]}")
    return json.loads(r.stdout)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hosts", type=int, default=100)
    ap.add_argument("--report-hosts", type=int, default=1000)
    a = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench-fleet-"))
    try:
        singles = []
        for _ in range(3):
            r, t = gw("--snapshot", str(H200), "detect", "--json", cwd=tmp)
            if r.returncode != 0:
                sys.exit(f"detect failed: {r.stderr[-1000:]}")
            singles.append(t)
        one = statistics.median(singles)
        print(f"one host: gpu-wizard --snapshot h200-server-ubuntu2404.json detect: {one:.2f} s (median of 3)")
        for distinct, what in ((False, "the 5 demo snapshots cycled"), (True, "every snapshot distinct")):
            inv = inventory(tmp, f"d{int(distinct)}", a.hosts, distinct)
            r, t = gw("fleet", "detect", "-i", inv.name, "-o", f"fleet-d{int(distinct)}", "--json", cwd=tmp)
            det = must(r, "fleet detect")
            print(f"fleet detect, {a.hosts} snapshot-backed hosts ({what}): {t:.2f} s = {t / one:.1f}x one detect "
                  f"({len(det['recorded'])} recorded, {len(det['in_process'])} in-process, no Ansible task)")
        for n, inv_name, folder in ((a.hosts, "d1.ini", "fleet-d1"), (a.report_hosts, None, "fleet-big")):
            if inv_name is None:  # the 1,000-host folder: detect it too (every host distinct)
                def pick(i):
                    return H200 if i % 4 else [p for p in SNAPS if p != H200][i % 4]
                inv = inventory(tmp, "big", n, True, pick)
                r, t = gw("fleet", "detect", "-i", inv.name, "-o", folder, "--json", cwd=tmp)
                must(r, "fleet detect")
                print(f"fleet detect, {n} snapshot-backed hosts (distinct): {t:.2f} s = {t / one:.1f}x one detect")
                inv_name = inv.name
            r, t = gw("fleet", "plan", "-i", inv_name, "--snapshots", folder, "-o", f"{folder}.yml", "--offline",
                      "--no-syntax-check", "--json", cwd=tmp)
            plan = must(r, "fleet plan")
            t0 = time.perf_counter()
            tool = Path(sys.executable).with_name("ansible-playbook")
            sc = subprocess.run([str(tool) if tool.exists() else "ansible-playbook", "-i", inv_name, "--syntax-check", f"{folder}.yml"],
                                cwd=tmp, capture_output=True, text=True, timeout=3600)
            t_sc = time.perf_counter() - t0
            size = (tmp / f"{folder}.yml").stat().st_size / 1024
            print(f"fleet plan, {n} hosts: {t:.2f} s (planning {plan['plan_s']} s, each distinct snapshot solved once: {len(plan['groups'])} plan groups); "
                  f"playbook {size:.0f} KiB; ansible-playbook --syntax-check {t_sc:.1f} s (rc {sc.returncode})")
        big = tmp / "fleet-big"
        base = json.loads(VERIFY.read_text())
        slow = json.loads(VERIFY.read_text())
        for g in slow["gpus"]:
            g["device"]["pcie_width_current"] = 8
            g["bandwidth"]["h2d_pinned_gbps"] = round(g["bandwidth"]["h2d_pinned_gbps"] * 0.5, 2)
        for i in range(a.report_hosts):
            if i % 4:
                (big / "hosts" / f"host{i:04d}" / "verify.json").write_text(json.dumps(slow if i % 10 == 3 else base))
        r, t = gw("fleet", "report", "fleet-big", "-o", "fleet-big/fleet.html", "--json", cwd=tmp)
        rep = must(r, "fleet report")
        print(f"fleet report, {a.report_hosts} hosts: {t:.2f} s (host reports on demand); page {rep['bytes'] / 1024:.0f} KiB; "
              f"{len(rep['lagging'])} hosts flagged lagging")
        hosts = [f"--host=host{i:04d}" for i in range(1, 21)]
        r, t = gw("fleet", "report", "fleet-big", "-o", "fleet-big/fleet.html", *hosts, cwd=tmp)
        if r.returncode != 0:
            sys.exit(f"fleet report --host failed: {r.stderr[-1000:]}")
        print(f"host reports on demand (`fleet report DIR --host NAME`, {len(hosts)} at once, in parallel): {t:.1f} s, "
              f"{t / len(hosts):.2f} s per host")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
