"""Fleet at scale, measured in one run (issue 26), beside one single-host `gpu-wizard --snapshot FILE detect`
(the unit). Every figure is the wall time of a real `python -m app ...` process and its CPU seconds (user +
system, ansible-inventory's included): on a shared machine the wall time moves with the load, the CPU time
much less. The machine's load is printed before and after.

1. `fleet detect` of 100 snapshot-backed hosts (read in this process: no Ansible task, no engine process
   per host): the 5 demo snapshots cycled; every host's snapshot its own file, different in its recorded
   time and note (hosts alike but for when they were recorded share detection and redaction); and, for
   information, H200 and WSL 2 hosts each with its own recorded values (free memory, GPU UUID and serial,
   free disk: nothing shared, each host detected and redacted alone). Target: at most 10x one detect.
2. `fleet plan` of 100 and of 1,000 hosts (the pipeline of `gpu-wizard plan`, offline; identical plans
   solved once; ansible-playbook --syntax-check timed apart);
3. `fleet report` of 1,000 hosts, 3 in 4 H200s with the real verification of tests/fixtures/verify (every
   10th at PCIe x8 with half the bandwidth, so some are flagged), host reports on demand; the window's side
   (the page read and its host list built, offscreen, then one host's report written on demand, as a double
   click does); and `fleet report DIR --host` for 20 hosts at once. Target: the report within 15 s.

    python bench/bench_fleet.py [--hosts 100] [--report-hosts 1000]
"""
import argparse
import json
import os
import resource
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
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "GPU_WIZARD_LIVE": "0"}

WINDOW = r"""
import json, sys, time
t0 = time.perf_counter()
from PySide6.QtWidgets import QApplication, QWidget
app = QApplication([])
from app.fleet.report import ensure_host_report, load_fleet_report
from ui.fleet_dialog import FleetDialog
t1 = time.perf_counter()
report = load_fleet_report(sys.argv[1])
parent = QWidget()
dlg = FleetDialog(parent, sys.argv[1], report)
dlg.show()
app.processEvents()
t2 = time.perf_counter()
row = next(r for r in report["hosts"] if not r.get("report_path") and r.get("can_render"))
path = ensure_host_report(report, row["host"])
t3 = time.perf_counter()
print(json.dumps({"start": t1 - t0, "page": t2 - t1, "host": t3 - t2, "rows": dlg.hosts.topLevelItemCount(), "wrote": bool(path)}))
"""


def cpu_children() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(argv, cwd, env=None):
    """(result, wall s, CPU s) of one process."""
    c, t = cpu_children(), time.perf_counter()
    r = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, env=env or ENV, timeout=3600)
    return r, time.perf_counter() - t, cpu_children() - c


def gw(*args, cwd):
    return timed([sys.executable, "-m", "app", *args], cwd)


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f}, {five:.2f}, {fifteen:.2f} on {os.cpu_count()} cores"


def _own_values(data: dict, i: int) -> None:
    """This host's own free memory, GPU identity and free disk (what differs between real alike nodes)."""
    files = data.get("files") or {}
    if "/proc/meminfo" in files:
        files["/proc/meminfo"] = "\n".join(f"MemFree:        {100_000_000 + i * 4096} kB" if ln.startswith("MemFree:") else ln
                                           for ln in files["/proc/meminfo"].split("\n"))
    for d in ((data.get("nvml") or {}).get("devices") or ()):
        d["uuid"] = f"GPU-{i:08x}-7c2e-4d3b-9a1f-{d.get('index', 0):012x}"
        d["serial"] = f"{1650923000000 + i}"
    for k in list((data.get("disk_free_mib") or {})):
        data["disk_free_mib"][k] = 60_000 + i


def inventory(tmp: Path, name: str, n: int, how: str, pick=None) -> Path:
    """n snapshot-backed hosts; `how`: "cycled" (the demo files themselves), "time" (each its own file,
    different in its recorded time and note) or "own" (its own recorded values too)."""
    lines = ["[fleet]"]
    d = tmp / f"{name}-snaps"
    d.mkdir()
    for i in range(n):
        src = pick(i) if pick else SNAPS[i % len(SNAPS)]
        if how != "cycled":
            data = json.loads(src.read_text())
            data["created"] = f"2026-01-01T{i // 3600 % 24:02d}:{i // 60 % 60:02d}:{i % 60:02d}+00:00"
            data["note"] = f"bench host {i}"
            if how == "own":
                _own_values(data, i)
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


def unit() -> tuple[float, float]:
    walls, cpus = [], []
    for _ in range(5):
        r, t, c = gw("--snapshot", str(H200), "detect", "--json", cwd=ROOT)
        if r.returncode != 0:
            sys.exit(f"detect failed: {r.stderr[-1000:]}")
        walls.append(t)
        cpus.append(c)
    return statistics.median(walls), statistics.median(cpus)


def bench_detect(tmp: Path, n: int, one: tuple[float, float], rows: list) -> None:
    cases = (("cycled", "the 5 demo snapshots cycled"), ("time", "every snapshot distinct: its own file, time and note"),
             ("own", "for information: H200 and WSL 2 hosts, each its own free memory, GPU UUID and serial, free disk: "
                     "nothing shared"))
    wsl = ROOT / "resources" / "snapshots" / "wsl2-laptop-rtx4070-ubuntu2204.json"
    for how, what in cases:
        inv = inventory(tmp, f"d-{how}", n, how, (lambda i: (H200, wsl)[i % 2]) if how == "own" else None)
        r, t, c = gw("fleet", "detect", "-i", inv.name, "-o", f"fleet-{how}", "--json", cwd=tmp)
        det = must(r, "fleet detect")
        print(f"fleet detect, {n} snapshot-backed hosts ({what}): {t:.2f} s = {t / one[0]:.1f}x one detect, "
              f"{c:.2f} CPU-s = {c / one[1]:.1f}x ({len(det['recorded'])} recorded in this process, "
              f"{det.get('distinct_snapshots', '?')} detected and redacted)")
        rows.append((f"detect {n} ({how})", "≤ 10x one detect" if how != "own" else "(information)",
                     f"{t / one[0]:.1f}x wall, {c / one[1]:.1f}x CPU"))


def bench_plan(tmp: Path, n: int, inv_name: str, folder: str, rows: list) -> None:
    r, t, c = gw("fleet", "plan", "-i", inv_name, "--snapshots", folder, "-o", f"{folder}.yml", "--offline",
                 "--no-syntax-check", "--json", cwd=tmp)
    plan = must(r, "fleet plan")
    tool = Path(sys.executable).with_name("ansible-playbook")
    sc, t_sc, _ = timed([str(tool) if tool.exists() else "ansible-playbook", "-i", inv_name, "--syntax-check", f"{folder}.yml"], tmp)
    size = (tmp / f"{folder}.yml").stat().st_size / 1024
    print(f"fleet plan, {n} hosts: {t:.2f} s, {c:.2f} CPU-s (planning {plan['plan_s']} s; {len(plan['groups'])} plan groups, "
          f"identical plans solved once); playbook {size:.0f} KiB; ansible-playbook --syntax-check {t_sc:.1f} s (rc {sc.returncode})")
    rows.append((f"plan {n}", "identical plans solved once", f"{t:.1f} s ({c:.1f} CPU-s), {len(plan['groups'])} groups"))


def verifications(big: Path, n: int) -> None:
    base = json.loads(VERIFY.read_text())
    slow = json.loads(VERIFY.read_text())
    for g in slow["gpus"]:
        g["device"]["pcie_width_current"] = 8
        g["bandwidth"]["h2d_pinned_gbps"] = round(g["bandwidth"]["h2d_pinned_gbps"] * 0.5, 2)
    for i in range(n):
        if i % 4:
            (big / "hosts" / f"host{i:04d}" / "verify.json").write_text(json.dumps(slow if i % 10 == 3 else base))


def bench_report(tmp: Path, n: int, rows: list) -> None:
    r, t, c = gw("fleet", "report", "fleet-big", "-o", "fleet-big/fleet.html", "--json", cwd=tmp)
    rep = must(r, "fleet report")
    print(f"fleet report, {n} hosts: {t:.2f} s, {c:.2f} CPU-s (summary and page; host reports on demand); "
          f"page {rep['bytes'] / 1024:.0f} KiB; {len(rep['lagging'])} hosts flagged lagging")
    rows.append((f"report {n}", "≤ 15 s", f"{t:.1f} s ({c:.1f} CPU-s)"))
    try:
        import PySide6  # noqa: F401
    except ImportError:
        print("window: PySide6 not installed here, not measured")
    else:
        r, t, c = timed([sys.executable, "-c", WINDOW, str(tmp / "fleet-big" / "fleet.html")], tmp,
                        {**ENV, "QT_QPA_PLATFORM": "offscreen"})
        if r.returncode != 0:
            sys.exit(f"window failed: {r.stderr[-1500:]}")
        w = json.loads(r.stdout.strip().splitlines()[-1])
        print(f"window: the {n}-host page read and its {w['rows']} rows shown {w['page']:.2f} s (after {w['start']:.2f} s "
              f"of Qt start-up); a host's report written on demand (a double click) {w['host']:.2f} s")
        rows.append(("window, 1 host on demand", "quickly", f"page {w['page']:.2f} s, host {w['host']:.2f} s"))
    hosts = [f"--host=host{i:04d}" for i in range(1, min(21, n))]
    r, t, c = gw("fleet", "report", "fleet-big", "-o", "fleet-big/fleet.html", *hosts, cwd=tmp)
    if r.returncode != 0:
        sys.exit(f"fleet report --host failed: {r.stderr[-1000:]}")
    print(f"host reports on demand (`fleet report DIR --host NAME`, {len(hosts)} at once, in parallel, then the page again): "
          f"{t:.1f} s, {c:.1f} CPU-s")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hosts", type=int, default=100)
    ap.add_argument("--report-hosts", type=int, default=1000)
    a = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench-fleet-"))
    rows: list = []
    try:
        print(f"before: {load()}")
        one = unit()
        print(f"one host: gpu-wizard --snapshot h200-server-ubuntu2404.json detect: {one[0]:.2f} s, {one[1]:.2f} CPU-s (median of 5)")
        bench_detect(tmp, a.hosts, one, rows)
        bench_plan(tmp, a.hosts, "d-time.ini", "fleet-time", rows)
        others = [p for p in SNAPS if p != H200]
        inv = inventory(tmp, "big", a.report_hosts, "time", lambda i: H200 if i % 4 else others[i // 4 % len(others)])
        r, t, c = gw("fleet", "detect", "-i", inv.name, "-o", "fleet-big", "--json", cwd=tmp)
        det = must(r, "fleet detect")
        print(f"fleet detect, {a.report_hosts} snapshot-backed hosts (distinct files, 3 in 4 H200s): {t:.2f} s, {c:.2f} CPU-s "
              f"({det.get('distinct_snapshots', '?')} detected and redacted)")
        bench_plan(tmp, a.report_hosts, inv.name, "fleet-big", rows)
        verifications(tmp / "fleet-big", a.report_hosts)
        bench_report(tmp, a.report_hosts, rows)
        print(f"after: {load()}")
        print("\n| figure | target | measured |\n| --- | --- | --- |")
        for name, target, got in rows:
            print(f"| {name} | {target} | {got} |")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
