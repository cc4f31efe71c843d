"""fleet end to end through a real ansible-core over real SSH: three OpenSSH servers on loopback
addresses of this machine (tests/integration/fleet_hosts.py), one of them failing on purpose (its
venv path cannot be created), plus snapshot-backed hosts for the GPU cases (no-driver
workstation, WSL2 laptop, four H200 servers with the real H200 verification of
tests/fixtures/verify, one of them at PCIe x8 with half the host→GPU bandwidth).

    fleet detect → fleet plan → fleet run --check (changes nothing) → fleet run (the failing host
    does not stop the others) → fleet run again (changed=0) → fleet verify → fleet report

The PyTorch the plan installs is the real torch 2.13.0 CPU wheel, served from a local PEP 503
index (file://) the test writes; the hosts are this machine, so each host gets its own venv under
the test's folder. Everything stops and is removed in teardown; every command has a time limit.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from fleet_hosts import HOME, SshHosts, skip_reason  # beside this file (pytest puts its folder on sys.path)

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
SNAP = ROOT / "resources" / "snapshots"
VERIFY = ROOT / "tests" / "fixtures" / "verify" / "h200_quick.json"
TORCH = "2.13.0"


def _gw(*args: str, cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "app", *args], cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


def _real_torch_wheel(tmp: Path) -> Path:
    """The real torch CPU wheel (tests/torch_cpu.py says where pip gets it here): linked where it lies
    when pip's configuration has it on this disk (no 190 MB copy), else downloaded, bounded in time;
    the test skips with the reason when there is none."""
    from tests.torch_cpu import _resolve, cpu_torch_source

    extra, why = cpu_torch_source()  # the CPU build only: PyPI's Linux torch is the multi-GB CUDA build
    if extra is None:
        pytest.skip(why)
    url, _why = _resolve(sys.executable, [*extra, "--timeout", "15", "--retries", "1"], 150)
    if url and url.startswith("file://"):
        local = Path(url[len("file://"):])
        if local.is_file() and "+cpu" in local.name:
            return local
    wheels = tmp / "wheels"
    try:
        r = subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:", "-d", str(wheels),
                            "--timeout", "20", "--retries", "1", f"torch=={TORCH}", *extra],
                           capture_output=True, text=True, timeout=300)
        why = (r.stderr.strip().splitlines() or [""])[-1]
    except subprocess.TimeoutExpired:
        why = "the download took over 300 s"
    found = sorted(w for w in wheels.glob("torch-*.whl") if "+cpu" in w.name) if wheels.is_dir() else []
    if not found:
        pytest.skip(f"no torch {TORCH} CPU wheel for the hosts' venvs: {why}")
    return found[0]


def _standin_wheel(tmp: Path) -> Path:
    """A 1 kB pure-Python wheel named torch {TORCH} (it says it is a stand-in) for the hosts where
    PyTorch itself is not what is tested: the same plan, pip task, venv and index, 900 MB less."""
    import base64
    import zipfile

    init = (f'"""gpu-wizard test stand-in: not PyTorch (just enough for the plan\'s check of ones @ ones)"""\n'
            f'__version__ = "{TORCH}"\n'
            "class version:\n    cuda = None\n"
            "class cuda:\n    @staticmethod\n    def is_available():\n        return False\n"
            "class _Ones:\n    def __init__(self, n, m, v=1.0):\n        self.n, self.m, self.v = n, m, v\n"
            "    def __matmul__(self, o):\n        return _Ones(self.n, o.m, self.v * o.v * self.m)\n"
            "    def sum(self):\n        return self.v * self.n * self.m\n"
            "def ones(n, m, device=None):\n    return _Ones(n, m)\n")
    files = {"torch/__init__.py": init.encode(),
             f"torch-{TORCH}.dist-info/METADATA": f"Metadata-Version: 2.1\nName: torch\nVersion: {TORCH}\nSummary: gpu-wizard test stand-in\n".encode(),
             f"torch-{TORCH}.dist-info/WHEEL": b"Wheel-Version: 1.0\nGenerator: gpu-wizard-tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n"}
    record = [f"{n},sha256={base64.urlsafe_b64encode(hashlib.sha256(b).digest()).rstrip(b'=').decode()},{len(b)}" for n, b in files.items()]
    files[f"torch-{TORCH}.dist-info/RECORD"] = ("\n".join(record + [f"torch-{TORCH}.dist-info/RECORD,,"]) + "\n").encode()
    whl = tmp / "standin" / f"torch-{TORCH}-py3-none-any.whl"
    whl.parent.mkdir(parents=True)
    with zipfile.ZipFile(whl, "w") as z:
        for n, b in files.items():
            z.writestr(zipfile.ZipInfo(n, date_time=(2020, 1, 1, 0, 0, 0)), b)
    return whl


def _index(indexes: Path, name: str, whl: Path) -> str:
    """A PEP 503 index (file://) holding one torch wheel, with its sha256, at a path the controller (the
    live index reads it) and the hosts' unprivileged user both reach; a wheel the user cannot reach where
    it lies (inside the test's root-only folder) is moved into the index."""
    h = hashlib.sha256()
    with open(whl, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    d = indexes / name / "cpu" / "torch"
    d.mkdir(parents=True)
    href = whl.as_uri()
    if not all(os.stat(p).st_mode & 0o005 == 0o005 for p in [*whl.parents][:-1]):
        shutil.move(str(whl), d / whl.name)
        whl = d / whl.name
        href = whl.as_uri()
    (d / "index.html").write_text(f"<html><body><a href='{href}#sha256={h.hexdigest()}'>{whl.name}</a></body></html>\n")
    _dependencies(indexes / name / "cpu", whl)
    return (indexes / name).as_uri()


def _dependencies(index: Path, whl: Path) -> None:
    """torch's own requirements in the index too, as PyTorch's index has them (a host's pip sees only the
    mirror): the wheels pip downloads for its Requires-Dist, each project a folder of the index."""
    import re
    import zipfile

    with zipfile.ZipFile(whl) as z:
        meta = z.read(next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))).decode()
    reqs = [ln.split(":", 1)[1].strip() for ln in meta.splitlines() if ln.startswith("Requires-Dist:") and "extra ==" not in ln]
    if not reqs:
        return
    dl = index.parent / "deps"
    r = subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--only-binary=:all:", "-d", str(dl), "--timeout", "20",
                        "--retries", "1", *reqs], capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        pytest.skip("cannot fetch torch's requirements for the hosts' mirror: " + (r.stderr.strip().splitlines() or [""])[-1])
    for w in sorted(dl.glob("*.whl")):
        project = re.sub(r"[-_.]+", "-", w.name.split("-")[0]).lower()
        (index / project).mkdir(exist_ok=True)
        digest = hashlib.sha256(w.read_bytes()).hexdigest()
        with open(index / project / "index.html", "a") as f:
            f.write(f"<a href='{w.as_uri()}#sha256={digest}'>{w.name}</a>\n")


def _degraded_verification(tmp: Path) -> Path:
    v = json.loads(VERIFY.read_text())
    for g in v["gpus"]:
        g["device"]["pcie_width_current"] = 8
        for k in ("h2d_pinned_gbps", "d2h_pinned_gbps"):
            g["bandwidth"][k] = round(g["bandwidth"][k] * 0.5, 2)
    p = tmp / "h200-x8.verify.json"
    p.write_text(json.dumps(v))
    return p


def _hook(tmp: Path, what: str) -> Path:
    p = tmp / f"{what}.yml"
    p.write_text(f"- name: Mark the node {what}ed (as a scheduler's drain would)\n  become: true\n  ansible.builtin.file:\n"
                 f"    path: /mnt/gw-{what}ed\n    state: touch\n    mode: '0644'\n"
                 "    modification_time: preserve\n    access_time: preserve\n")
    return p


def _ini(items: dict[str, dict[str, str]]) -> str:
    lines = ["[lab]"]
    for name, v in items.items():
        lines.append(name + " " + " ".join(f"{k}='{x}'" for k, x in v.items()))
    return "\n".join(lines) + "\n"


@pytest.fixture
def fleet(tmp_path, request):
    why = skip_reason()
    if why:
        pytest.skip(why)
    import tempfile

    indexes = Path(tempfile.mkdtemp(prefix="gw-fleet-index-", dir="/tmp"))  # reachable by the hosts' user
    os.chmod(indexes, 0o755)
    request.addfinalizer(lambda: shutil.rmtree(indexes, ignore_errors=True))
    index = _index(indexes, "index", _real_torch_wheel(tmp_path))  # alpha: the real PyTorch, verified in its venv
    standin = _index(indexes, "index-standin", _standin_wheel(tmp_path))  # beta, gamma: what is tested is the fleet
    x8 = _degraded_verification(tmp_path)
    with SshHosts(tmp_path / "ssh", ["alpha", "beta", "gamma"], indexes) as hosts:
        inv: dict[str, dict[str, str]] = {}
        for h in hosts.hosts:
            v = hosts.inventory_vars(h)
            # each host's defaults: its user's ~/.cache/gpu-wizard/fleet and ~/.venvs/gpu, on its own /home
            v.update(gpu_wizard_torch=TORCH, gpu_wizard_variant="cpu", gpu_wizard_pytorch_mirror=index)
            if h.name != "alpha":
                v["gpu_wizard_pytorch_mirror"] = standin
            if h.name == "beta":  # Ansible's other way to become root: the module as a file in the user's temp folder
                v["gpu_wizard_pipelining"] = "false"
                v["gpu_wizard_pre_hook"] = str(_hook(tmp_path, "drain"))  # an admin's drain/resume tasks, as root
                v["gpu_wizard_post_hook"] = str(_hook(tmp_path, "resume"))
            if h.name == "gamma":  # fails on purpose: a venv where nothing can be created
                v["gpu_wizard_venv"] = "/proc/gpu-wizard-fleet-test-cannot-be-here"
            inv[h.name] = v
        inv["ws1"] = {"gpu_wizard_snapshot": str(SNAP / "nodriver-rtx3060-ubuntu2204.json")}
        inv["laptop1"] = {"gpu_wizard_snapshot": str(SNAP / "wsl2-laptop-rtx4070-ubuntu2204.json")}
        for n in ("h200a", "h200b", "h200c"):
            inv[n] = {"gpu_wizard_snapshot": str(SNAP / "h200-server-ubuntu2404.json"), "gpu_wizard_verification": str(VERIFY)}
        inv["h200d"] = {"gpu_wizard_snapshot": str(SNAP / "h200-server-ubuntu2404.json"), "gpu_wizard_verification": str(x8)}
        (tmp_path / "inventory.ini").write_text(_ini(inv))
        (tmp_path / "inventory.json").write_text(json.dumps(inv))
        yield tmp_path, hosts  # each host's /home is a tmpfs: gone with its server


def _closed_port(addr: str) -> int:
    with socket.socket() as sk:  # bound, never listening: a connection is refused at once
        sk.bind((addr, 0))
        return sk.getsockname()[1]


def inv_of(d: Path) -> dict[str, dict[str, str]]:
    return json.loads((d / "inventory.json").read_text())


def _run_record(d: Path) -> dict:
    """Each host's last run, from the fleet record (runs are appended, never overwritten)."""
    rows = json.loads((d / "snaps" / "fleet-record.json").read_text())["hosts"]
    return {h: r["runs"][-1] for h, r in rows.items() if r.get("runs")}


def _files(hosts, name: str) -> set[str]:
    r = hosts.on(name, ["find", HOME, "/mnt", "-path", f"{HOME}/.ansible", "-prune", "-o", "-print"], user=False)
    return set(r.stdout.split())


def test_fleet_end_to_end_over_real_ssh(fleet):
    d, hosts = fleet
    # the hosts: an unprivileged user with passwordless sudo; root cannot log in; each its own /home
    assert hosts.ssh("alpha", "id -u").stdout.strip() == "54321" and hosts.ssh("alpha", "sudo -n id -u").stdout.strip() == "0"
    assert hosts.ssh("alpha", "true", user="root").returncode != 0
    hosts.on("alpha", ["touch", f"{HOME}/only-on-alpha"])
    assert hosts.on("beta", ["test", "-e", f"{HOME}/only-on-alpha"]).returncode != 0
    # detect: every host into snaps/<host>.json, redacted; snapshot-backed hosts never contacted
    r = _gw("fleet", "detect", "-i", "inventory.ini", "-o", "snaps", "--forks", "8", cwd=d)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    assert "ok: [alpha]" in r.stdout and "[ws1" not in r.stdout  # live per-host output; snapshot hosts read in-process
    assert sorted(json.loads(_gw("fleet", "detect", "-i", "inventory.ini", "-o", "snaps", "--limit", "ws1,h200a", "--json",
                                 cwd=d).stdout)["in_process"]) == ["h200a", "ws1"]
    for h in ("alpha", "beta", "gamma", "ws1", "laptop1", "h200a", "h200d"):
        snap = json.loads((d / "snaps" / "hosts" / h / "snapshot.json").read_text())
        assert snap["format"] == "gpu-wizard-snapshot/1" and snap["redacted"]["by"] == "gpu-wizard", h
    host = socket.gethostname()
    if len(host) > 3 and host not in ("localhost",):
        assert host not in (d / "snaps" / "hosts" / "alpha" / "snapshot.json").read_text()  # the host's own name is redacted
    assert oct((d / "snaps" / "private").stat().st_mode & 0o777) == "0o700"
    assert oct((d / "snaps" / "private" / "alpha.json").stat().st_mode & 0o777) == "0o600"  # what plans are made from

    # a host that does not answer is named, and the others are still recorded
    down = dict(inv_of(d)["alpha"], ansible_host="127.0.0.9", ansible_port=str(_closed_port("127.0.0.9")))
    (d / "inventory-down.ini").write_text(_ini({"alpha": inv_of(d)["alpha"], "down1": down}))
    r = _gw("fleet", "detect", "-i", "inventory-down.ini", "-o", "snaps-down", "--json", cwd=d)
    assert r.returncode == 1, r.stdout[-2000:] + r.stderr[-2000:]
    res = json.loads(r.stdout)  # --json: one document on stdout, Ansible's live output on stderr
    assert res["recorded"] == ["alpha"] and res["failed"] == ["down1"] and "UNREACHABLE" in r.stderr
    assert (d / "snaps-down" / "hosts" / "alpha" / "snapshot.json").is_file()
    assert not (d / "snaps-down" / "hosts" / "down1" / "snapshot.json").exists()
    down_row = json.loads((d / "snaps-down" / "fleet-record.json").read_text())["hosts"]["down1"]  # kept, with why
    assert down_row["detect"]["result"] == "unreachable" and down_row["detect"]["reason"]
    assert res["reasons"]["down1"]

    # plan: one playbook, each host its own plan; syntax-checked by ansible-playbook
    r = _gw("fleet", "plan", "-i", "inventory.ini", "--snapshots", "snaps", "-o", "fleet-plan.yml", "--json",
            "--no-torchvision", cwd=d)  # the test's mirror holds torch alone (the live PyPI has its torchvision)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    out = json.loads(r.stdout)
    assert out["syntax_check"] is True
    groups = {tuple(g["hosts"]) for g in out["groups"]}
    assert ("h200a", "h200b", "h200c", "h200d") in groups  # identical plans share one block
    plan = {h["host"]: h for h in json.loads((d / "snaps" / "fleet-plan.json").read_text())["hosts"]}
    assert plan["ws1"]["linux_driver"] and plan["ws1"]["reboot"]
    assert not plan["laptop1"]["linux_driver"] and not plan["laptop1"]["reboot"]  # WSL2: no Linux driver
    kinds = [s["kind"] for s in plan["alpha"]["steps"]]  # (Python's venv package first where the base Python lacks it)
    assert [k for k in kinds if k != "install_python_tools"] == ["create_venv", "install_pytorch", "verify"]

    # --check: says what would change, changes nothing
    before = {h: _files(hosts, h) for h in ("alpha", "beta")}
    r = _gw("fleet", "run", "-i", "inventory.ini", "--check", "--limit", "alpha,beta", "--json", cwd=d)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    assert {h: _files(hosts, h) for h in ("alpha", "beta")} == before  # --check wrote nothing on the hosts
    checked = json.loads(r.stdout)["hosts"]
    assert checked["alpha"]["changed"] >= 2  # the venv and PyTorch: counted as changes, never "skipped"

    # run: gamma fails, even in batches of one host (Ansible would stop the play there), the others go on
    r = _gw("fleet", "run", "-i", "inventory.ini", "--forks", "3", "--serial", "1", cwd=d, timeout=600)
    assert r.returncode == 1, r.stdout[-3000:] + r.stderr[-2000:]
    rec = _run_record(d)
    assert rec["gamma"]["result"] == "failed" and "gpu-wizard-fleet-test-cannot-be-here" in rec["gamma"]["reason"]
    assert rec["alpha"]["result"] == rec["beta"]["result"] == "changed" and rec["alpha"]["changed"] >= 2
    assert rec["ws1"]["result"] == "snapshot"  # a snapshot-backed host is never touched
    for h in ("alpha", "beta"):
        got = hosts.on(h, [f"{HOME}/.venvs/gpu/bin/python", "-c", "import torch; print(torch.__version__)"])
        assert got.stdout.startswith(TORCH), got.stderr[-500:]
    real = hosts.on("alpha", [f"{HOME}/.venvs/gpu/bin/python", "-c", "import torch; print(torch.ones(2).sum().item())"])
    assert real.stdout.strip() == "2.0", real.stderr[-500:]  # alpha's is the real PyTorch, beta's the 1 kB stand-in
    assert "PLAY RECAP" in r.stdout and "failed: gamma" in r.stderr
    for what in ("drain", "resume"):  # beta's hooks ran, as root, through sudo with pipelining off
        assert hosts.on("beta", ["stat", "-c", "%u", f"/mnt/gw-{what}ed"], user=False).stdout.strip() == "0"
    assert hosts.on("alpha", ["test", "-e", "/mnt/gw-drained"], user=False).returncode != 0  # only where it was asked

    # a second run changes nothing
    r = _gw("fleet", "run", "-i", "inventory.ini", "--forks", "3", cwd=d, timeout=600)
    rec = _run_record(d)
    assert rec["alpha"]["changed"] == 0 and rec["beta"]["changed"] == 0, r.stdout[-3000:]
    assert rec["alpha"]["result"] == "ok" and rec["gamma"]["result"] == "failed"
    runs = json.loads((d / "snaps" / "fleet-record.json").read_text())["hosts"]["alpha"]["runs"]
    assert [x["check"] for x in runs] == [True, False, False]  # every run kept, --limit'ed or not

    # verify: each host's verification JSON and its own report collected
    r = _gw("fleet", "verify", "-i", "inventory.ini", "-o", "snaps", "--forks", "8", "--json", cwd=d)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    res = json.loads(r.stdout)  # honest counts: a host whose layers all skipped is never "verified"
    assert sorted(res["verified"]) == ["h200a", "h200b", "h200c", "h200d"]
    assert {"gamma", "ws1", "laptop1"} <= set(res["skipped"])
    assert "fleet run" in res["reasons"]["gamma"]
    for h in ("alpha", "beta", "gamma", "h200a", "h200d"):
        assert json.loads((d / "snaps" / "hosts" / h / "verify.json").read_text())["format"].startswith("gpu-wizard-verification/")
        assert (d / "snaps" / "hosts" / h / "report.html").read_text().startswith("<!DOCTYPE html>")
    alpha = json.loads((d / "snaps" / "hosts" / "alpha" / "verify.json").read_text())
    assert alpha["torch"]["version"].startswith(TORCH)  # verified inside the venv the plan made

    # report: one page, a row per host, the x8 host flagged, each host's report one click away
    r = _gw("fleet", "report", "snaps", "-o", "fleet.html", "--json", cwd=d)
    assert r.returncode == 0, r.stderr
    rep = json.loads((d / "fleet.json").read_text())
    rows = {h["host"]: h for h in rep["hosts"]}
    assert set(rows) == {"alpha", "beta", "gamma", "ws1", "laptop1", "h200a", "h200b", "h200c", "h200d"}
    assert [f["code"] for f in rows["h200d"]["flags"]] == ["fleet_lag_bandwidth", "fleet_lag_link"]
    assert not rows["h200a"]["flags"] and not rows["alpha"]["flags"]
    assert rows["gamma"]["plan_status"] == "fail" and rows["alpha"]["plan_status"] == "pass"
    assert rows["ws1"]["plan_status"] == "info"  # planned (a driver and PyTorch), never applied
    html = (d / "fleet.html").read_text()
    assert html.count("<tr") >= 10 and "x8" in html and "<script src" not in html
    for h in rows:
        assert f"href='snaps/hosts/{h}/report.html'" in html and (d / "snaps" / "hosts" / h / "report.html").is_file()
    r = _gw("fleet", "report", "snaps", "-o", "fleet-zh.html", "--lang", "zh_CN", cwd=d)
    assert r.returncode == 0 and "集群报告" in (d / "fleet-zh.html").read_text()
