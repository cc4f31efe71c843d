"""`gpu-wizard detect`, `gpu-wizard snapshot`, overrides and bad snapshots."""
import json
import os
import subprocess
import sys

import pytest

from app.cli import main
from app.detect import detect
from app.overrides import OverrideError, apply_overrides
from app.paths import demo_snapshots, resource
from app.system import SnapshotSystem
from detect_helpers import H200, snapshot

ROOT = H200.parents[3]


def run_cli(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_detect_json_contract_on_recorded_h200(capsys):
    code, out, _ = run_cli(capsys, "--snapshot", str(H200 / "snapshot-h200.json"), "detect", "--json")
    assert code == 0
    d = json.loads(out)
    assert {k: d["os"][k] for k in ("platform", "id", "version_id", "arch", "wsl")} == {
        "platform": "linux", "id": "ubuntu", "version_id": "24.04", "arch": "x86_64", "wsl": 0}
    assert d["os"]["kernel"] == "6.18.44-fc-v657-gpu"
    assert (d["driver"]["version"], d["driver"]["cuda_version"]) == ("580.159.04", "13.0")
    [g] = d["gpus"]
    assert (g["index"], g["name"], g["compute_capability"], g["memory_total_mib"], g["pci_id"]) == (0, "NVIDIA H200", "9.0", 143771, "10de:2335")
    assert all({"code", "severity", "message"} <= set(f) for f in d["findings"])


def test_recorded_h200_snapshot_replays_the_torch_probe():
    f = detect(SnapshotSystem.load(H200 / "snapshot-h200.json"), torch_probe=True)
    t = f.python.torch
    assert (t.version, t.cuda, t.available, t.covers_all_gpus) == ("2.11.0+cu130", "13.0", True, True)
    assert f.python.version == "3.12.3"


def test_detect_human_summary(capsys):
    code, out, _ = run_cli(capsys, "--snapshot", str(resource("snapshots", "nodriver-rtx3060-ubuntu2204.json")), "detect")
    assert code == 0 and "RTX 3060" in out and "driver_not_installed" in out


@pytest.mark.parametrize("name", ["workstation-rtx4090-ubuntu2404.json", "nodriver-rtx3060-ubuntu2204.json", "h200-server-ubuntu2404.json"])
def test_linux_demo_snapshots_replay_with_a_note(name):
    p = resource("snapshots", name)
    data = json.loads(p.read_text(encoding="utf-8"))
    assert data["format"] == "gpu-wizard-snapshot/1" and data.get("note")
    f = detect(SnapshotSystem.load(p))
    assert f.gpus and f.gpus[0].compute_capability in ("8.9", "8.6", "9.0")


def test_every_demo_snapshot_loads():
    for p in demo_snapshots():
        detect(SnapshotSystem.load(p))


@pytest.mark.parametrize("content,words", [
    (b'{"format": "gpu-wizard-snapshot/1", "files": {"/etc/os-release": "ID=ubuntu"', "truncated"),
    (b'{"format": "gpu-wizard-snapshot/1", "files": {"/etc/os-rel', "not a usable snapshot"),
    (b"this is not json", "not valid JSON"),
    (b'{"format": "something-else/2"}', "not a gpu-wizard snapshot"),
    (b'\xff\xfe\x00\x81garbage', "not UTF-8"),
])
def test_bad_snapshots_one_clear_line_exit_2(tmp_path, capsys, content, words):
    p = tmp_path / "bad.json"
    p.write_bytes(content)
    code, out, err = run_cli(capsys, "--snapshot", str(p), "detect", "--json")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and words in err and "Traceback" not in err


def test_snapshot_command_records_and_replays(tmp_path, capsys):
    out = tmp_path / "snap.json"
    code, _, err = run_cli(capsys, "--snapshot", str(H200 / "snapshot-h200.json"), "snapshot", "-o", str(out), "--no-redact")
    assert code == 0 and "wrote" in err
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["format"] == "gpu-wizard-snapshot/1"
    assert set(data["env"]) <= {"CUDA_HOME", "CUDA_PATH", "CUDA_ROOT", "PATH", "LD_LIBRARY_PATH", "CUDA_VISIBLE_DEVICES",
                                "CUDA_DEVICE_ORDER", "HOME", "VIRTUAL_ENV", "CONDA_PREFIX", "container"}
    a = detect(SnapshotSystem.load(H200 / "snapshot-h200.json"))
    b = detect(SnapshotSystem.load(out))
    assert a.gpus == b.gpus and a.driver == b.driver and a.os == b.os and a.cuda == b.cuda


def test_snapshot_live_in_a_subprocess_no_qt_no_torch(tmp_path):
    out = tmp_path / "live.json"
    code = ("import sys, runpy; sys.argv=['gpu-wizard','snapshot','-o',%r]; "
            "from app.cli import main; rc=main(sys.argv[1:]); "
            "bad=[m for m in sys.modules if m.split('.')[0] in ('PySide6','torch','pyqtgraph')]; print(bad); sys.exit(rc or (1 if bad else 0))") % str(out)
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert json.loads(out.read_text(encoding="utf-8"))["format"] == "gpu-wizard-snapshot/1"


def test_snapshot_to_missing_folder_is_a_clear_error(tmp_path, capsys):
    code, _, err = run_cli(capsys, "--snapshot", str(H200 / "snapshot-h200.json"), "snapshot", "-o", str(tmp_path / "no" / "x.json"))
    assert code == 2 and "does not exist" in err


def test_overrides_assume_gpu_driver_python():
    f = detect(snapshot({}, {"lspci -nn": (H200.parent / "lspci-nodriver-rtx3060" / "lspci-nn.out").read_text()}))
    o = apply_overrides(f, assume_driver="550.54.14", assume_gpus=("RTX 4090", "8.6"), python_version="3.11")
    assert [(g.name, g.compute_capability, g.source) for g in o.gpus] == [
        ("NVIDIA GeForce RTX 4090", "8.9", "assumed"), ("GPU with compute capability 8.6", "8.6", "assumed")]
    assert o.driver.version == "550.54.14" and o.driver.state == "ok" and not o.finding("driver_not_installed")
    assert o.python.version == "3.11"
    assert o.overrides == {"gpus": "RTX 4090, 8.6", "driver": "550.54.14", "python_version": "3.11"}
    assert o.finding("facts_overridden")


@pytest.mark.parametrize("kw", [{"assume_driver": "latest"}, {"assume_gpus": ("Voodoo 3",)}, {"python_version": "python3"},
                                {"assume_gpus": ("1.0",)}])
def test_bad_overrides(kw):
    with pytest.raises(OverrideError):
        apply_overrides(detect(snapshot()), **kw)


def test_cli_assume_gpu_and_bad_value(capsys):
    snap = str(resource("snapshots", "nodriver-rtx3060-ubuntu2204.json"))
    code, out, _ = run_cli(capsys, "--snapshot", snap, "--assume-gpu", "RTX 4090 Laptop", "detect", "--json")
    d = json.loads(out)
    assert code == 0 and d["gpus"][0]["compute_capability"] == "8.9" and d["overrides"]["gpus"] == "RTX 4090 Laptop"
    code, out, err = run_cli(capsys, "--snapshot", snap, "--assume-driver", "banana", "detect")
    assert code == 2 and "assume-driver" in err


def test_the_program_ends_detect_at_once_with_all_of_its_output(tmp_path):
    """`python -m app detect` (the gpu-wizard script's entry, app.cli.run) skips the interpreter's teardown: its
    whole answer still reaches a file and a pipe, a reader that stops early gets no traceback, and a command
    that is not read-only (diagnose) still runs Python's exit handlers."""
    snap = str(H200 / "snapshot-h200.json")
    env = dict(os.environ, GPU_WIZARD_LIVE="0")
    out = tmp_path / "facts.json"
    with open(out, "w", encoding="utf-8") as fh:
        r = subprocess.run([sys.executable, "-m", "app", "--snapshot", snap, "detect", "--json"], cwd=ROOT, stdout=fh,
                           stderr=subprocess.PIPE, text=True, timeout=120, env=env)
    assert r.returncode == 0, r.stderr
    assert json.loads(out.read_text(encoding="utf-8"))["gpus"]
    piped = subprocess.run([sys.executable, "-m", "app", "--snapshot", snap, "detect", "--json"], cwd=ROOT,
                           capture_output=True, text=True, timeout=120, env=env)
    timeless = lambda d: {k: v for k, v in d.items() if k != "probes"}  # noqa: E731 (probes carry their durations)
    assert piped.returncode == 0 and timeless(json.loads(piped.stdout)) == timeless(json.loads(out.read_text(encoding="utf-8")))
    head = subprocess.run(f"{sys.executable} -m app --snapshot {snap} detect | head -c 20", shell=True, cwd=ROOT,
                          capture_output=True, text=True, timeout=120, env=env)
    assert len(head.stdout) == 20 and "Traceback" not in head.stderr
    hook = ("import atexit, sys\natexit.register(lambda: sys.stderr.write('exit handlers ran\\n'))\n"
            "sys.argv = ['gpu-wizard'] + sys.argv[1:]\nfrom app.cli import run\nrun()\n")
    ran = {cmd: subprocess.run([sys.executable, "-c", hook, "--snapshot", snap, *argv], cwd=ROOT, capture_output=True,
                               text=True, timeout=120, env=env).stderr.count("exit handlers ran")
           for cmd, argv in {"detect": ["detect", "--json"],
                             "diagnose": ["diagnose", "--json", "--text", "CUDA error: out of memory"]}.items()}
    assert ran == {"detect": 0, "diagnose": 1}
