"""Issue 18: fleet at scale, measured.

1. `fleet detect` + `fleet plan` for N snapshot-backed hosts (default 100), through the real
   ansible-playbook: the inventory cycles through the demo snapshots (no-driver workstation, WSL2
   laptop, H200 server, RTX 4090 workstation, Windows laptop).
2. `fleet report` for M hosts (default 1,000): snapshots plus the real H200 verification of
   tests/fixtures/verify, every 10th host at PCIe x8 with half the bandwidth (so some are flagged);
   render time and page size, without per-host reports, then the per-host reports for K hosts.

    python bench/bench_fleet.py [--hosts 100] [--forks 20] [--report-hosts 1000] [--host-reports 50]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SNAPS = sorted((ROOT / "resources" / "snapshots").glob("*.json"))
VERIFY = ROOT / "tests" / "fixtures" / "verify" / "h200_quick.json"


def gw(*args, cwd):
    t = time.perf_counter()
    r = subprocess.run([sys.executable, "-m", "app", *args], cwd=cwd, capture_output=True, text=True,
                       env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=3600)
    return r, time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hosts", type=int, default=100)
    ap.add_argument("--forks", type=int, default=20)
    ap.add_argument("--report-hosts", type=int, default=1000)
    ap.add_argument("--host-reports", type=int, default=50)
    a = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench-fleet-"))
    try:
        lines = ["[fleet]"] + [f"host{i:04d} gpu_wizard_snapshot={SNAPS[i % len(SNAPS)]}" for i in range(a.hosts)]
        (tmp / "inventory.ini").write_text("\n".join(lines) + "\n")
        r, t_detect = gw("fleet", "detect", "-i", "inventory.ini", "-o", "snaps", "--forks", str(a.forks), "--json", cwd=tmp)
        if r.returncode != 0:
            sys.exit(f"fleet detect failed: {r.stderr[-2000:]}")
        det = json.loads(r.stdout[r.stdout.rindex("\n{") + 1:] if "\n{" in r.stdout else r.stdout)
        r, t_plan = gw("fleet", "plan", "-i", "inventory.ini", "--snapshots", "snaps", "-o", "fleet-plan.yml", "--json", cwd=tmp)
        if r.returncode not in (0, 1):
            sys.exit(f"fleet plan failed: {r.stderr[-2000:]}")
        plan = json.loads(r.stdout)
        pb = tmp / "fleet-plan.yml"
        print(f"fleet detect, {a.hosts} snapshot-backed hosts, --forks {a.forks}: {t_detect:.1f} s "
              f"({len(det['recorded'])} recorded; ansible-playbook {det['duration_s']} s)")
        print(f"fleet plan, {a.hosts} hosts: {t_plan:.1f} s in all (engine {plan['plan_s']} s, then ansible-playbook "
              f"--syntax-check); {len(plan['groups'])} plan groups; playbook {pb.stat().st_size / 1024:.0f} KiB")

        # the report at scale
        d = tmp / "report"
        d.mkdir()
        base = json.loads(VERIFY.read_text())
        slow = json.loads(VERIFY.read_text())
        for g in slow["gpus"]:
            g["device"]["pcie_width_current"] = 8
            g["bandwidth"]["h2d_pinned_gbps"] = round(g["bandwidth"]["h2d_pinned_gbps"] * 0.5, 2)
        h200 = ROOT / "resources" / "snapshots" / "h200-server-ubuntu2404.json"
        others = [p for p in SNAPS if p != h200]
        for i in range(a.report_hosts):
            h = f"node{i:04d}"
            if i % 4:
                shutil.copy(h200, d / f"{h}.json")
                (d / f"{h}.verify.json").write_text(json.dumps(slow if i % 10 == 3 else base))
            else:
                shutil.copy(others[i % len(others)], d / f"{h}.json")
        from app.fleet.report import build_fleet_report, write_fleet_report

        t = time.perf_counter()
        rep = build_fleet_report(d, host_reports=False)
        t_build = time.perf_counter() - t
        t = time.perf_counter()
        html, js = write_fleet_report(rep, tmp / "fleet.html")
        t_render = time.perf_counter() - t
        print(f"fleet report, {a.report_hosts} hosts: read and judged in {t_build:.2f} s, rendered and written in {t_render:.2f} s; "
              f"page {os.path.getsize(html) / 1024:.0f} KiB, JSON {os.path.getsize(js) / 1024:.0f} KiB; "
              f"{rep['summary']['lagging']} hosts flagged lagging")
        k = min(a.host_reports, a.report_hosts)
        sub = tmp / "sub"
        sub.mkdir()
        for p in sorted(d.glob("*.json"))[: 2 * k]:
            shutil.copy(p, sub / p.name)
        n = len([p for p in sub.glob("*.json") if not p.name.endswith(".verify.json")])
        t = time.perf_counter()
        build_fleet_report(sub, host_reports=True)
        t_hosts = time.perf_counter() - t
        print(f"per-host reports (written when fleet verify brought none): {n} hosts in {t_hosts:.1f} s, "
              f"{t_hosts / max(n, 1):.2f} s per host")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
