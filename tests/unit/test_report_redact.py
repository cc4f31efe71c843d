"""Redaction: planted private values never survive; placeholders are consistent; a redacted
snapshot stays a usable snapshot that detection reads the same way."""
import json
import re
from pathlib import Path

import pytest

from app.report.redact import PLACEHOLDER_RE, Redactor, looks_like_token, redact_snapshot
from app.system import SnapshotSystem, validate_snapshot

FIX = Path(__file__).resolve().parents[1] / "fixtures"
SNAP = FIX / "report" / "planted_snapshot.json"
LOG = FIX / "report" / "planted_output.log"
H200_UUID = json.loads((FIX / "real" / "h200" / "pynvml.out").read_text())["gpus"][0]["uuid"]
H200_SERIAL = json.loads((FIX / "real" / "h200" / "pynvml.out").read_text())["gpus"][0]["serial"]

# Every private value planted in the fixtures (exact strings that must not survive).
PLANTED = json.loads((FIX / "report" / "planted_values.json").read_text())["values"]


def survivors(text: str) -> list[str]:
    return [p for p in PLANTED if p.lower() in text.lower()]


@pytest.fixture()
def snap():
    return json.loads(SNAP.read_text())


def test_fixtures_really_hold_the_planted_values(snap):
    raw = SNAP.read_text() + LOG.read_text()
    missing = [p for p in PLANTED if p not in raw and json.dumps(p)[1:-1] not in raw]
    assert missing == []


def test_redacted_snapshot_keeps_nothing_private(snap):
    out = redact_snapshot(snap)
    text = json.dumps(out, ensure_ascii=False)
    assert survivors(text) == []
    assert out["redacted"]["placeholders"]["user"] >= 1
    assert out["redacted"]["placeholders"]["gpu-uuid"] == 1
    # the original is untouched
    assert snap["env"]["USER"] == "mbrandt"


def test_placeholders_are_consistent_across_keys_values_and_files(snap):
    out = redact_snapshot(snap)
    user = out["env"]["USER"]
    host = out["env"]["HOSTNAME"]
    assert PLACEHOLDER_RE.fullmatch(user) and user.startswith("<user-")
    assert host.startswith("<host-")
    assert out["env"]["LOGNAME"] == user
    assert out["env"]["HOME"] == f"/home/{user}"
    assert f"/home/{user}/.bashrc" in out["files"]
    assert out["dirs"]["/home"] == [user]
    assert out["files"]["/etc/hostname"].strip() == host
    assert out["commands"]["uname -a"]["stdout"].startswith(f"Linux {host} 6.18.44")
    gpu = out["nvml"]["devices"][0]["uuid"]
    assert gpu.startswith("<gpu-uuid-")
    assert gpu in out["commands"]["nvidia-smi -L"]["stdout"]
    assert gpu in out["commands"]["nvidia-smi -q"]["stdout"]
    serial = out["nvml"]["devices"][0]["serial"]
    assert serial.startswith("<serial-") and serial in out["commands"]["nvidia-smi -q"]["stdout"]
    # the same token in ~/.bashrc and in a log redacted by the same Redactor gets one placeholder
    r = Redactor()
    r.learn_snapshot(snap)
    a = r.data(snap, learn=False)
    log = r.text(LOG.read_text())
    tok = re.search(r"HF_TOKEN=(<secret-\d+>)", a["files"]["/home/<user-1>/.bashrc"]).group(1)
    assert f"HF_TOKEN={tok} python" in log and f"--token {tok}" in log
    assert "/home/<user-1>/train.py" in log
    assert "<user-1>@<host-1>:~$" in log


def test_redacted_log_keeps_nothing_private_and_keeps_the_error():
    log = LOG.read_text()
    out = Redactor().text(log)
    assert survivors(out) == []
    assert "RuntimeError: The NVIDIA driver on your system is too old (found version 11040)." in out
    assert "Could not connect to" in out and "Connection refused" in out
    assert "https://developer.download.nvidia.com/compute/cuda/repos/ubuntu2404/x86_64" in out


def test_redacted_snapshot_is_still_a_snapshot_with_the_same_gpu_driver_cuda(snap, tmp_path):
    out = redact_snapshot(snap)
    validate_snapshot(out)
    p = tmp_path / "redacted.json"
    p.write_text(json.dumps(out), encoding="utf-8")
    a, b = SnapshotSystem(snap), SnapshotSystem.load(p)
    # what detection reads to find the GPU, driver and CUDA is unchanged
    for path in ("/proc/driver/nvidia/version", "/sys/module/nvidia/version", "/etc/os-release", "/proc/modules"):
        assert a.read_text(path) == b.read_text(path)
    for argv in (["nvidia-smi"], ["nvcc", "--version"], ["dpkg", "-l"]):
        assert a.run(argv) == b.run(argv)
    na, nb = a.nvml(), b.nvml()
    for k in ("driver_version", "cuda_driver_version", "nvml_version"):
        assert na[k] == nb[k]
    keep = set(na["devices"][0]) - {"uuid", "serial"}
    assert {k: na["devices"][0][k] for k in keep} == {k: nb["devices"][0][k] for k in keep}
    assert b.readlink("/usr/local/cuda") == "/usr/local/cuda-13.0"
    # $HOME still leads to the (renamed) files
    home = b.getenv("HOME")
    assert b.read_text(home + "/.bashrc") is not None
    assert b.list_dir(home + "/.venvs") == ["gpu"]


def test_detection_answers_the_same_on_the_redacted_snapshot(snap):
    detect_mod = pytest.importorskip("app.detect")
    if not hasattr(detect_mod, "detect"):
        pytest.skip("detection not built yet")
    fa = detect_mod.detect(SnapshotSystem(snap))
    if not fa.gpus:
        pytest.skip("detection (issue 2) does not read snapshots yet")
    fb = detect_mod.detect(SnapshotSystem(redact_snapshot(snap)))
    assert [(g.name, g.pci_id, g.compute_capability, g.memory_total_mib) for g in fa.gpus] == \
           [(g.name, g.pci_id, g.compute_capability, g.memory_total_mib) for g in fb.gpus]
    assert fa.gpus and fa.gpus[0].name == "NVIDIA H200"
    assert (fa.driver.state, fa.driver.version, fa.driver.cuda_version) == (fb.driver.state, fb.driver.version, fb.driver.cuda_version)
    assert fb.driver.version == "580.159.04"
    assert [t.version for t in fa.cuda.toolkits] == [t.version for t in fb.cuda.toolkits]
    assert (fa.os.id, fa.os.version_id) == (fb.os.id, fb.os.version_id) == ("ubuntu", "24.04")


def test_common_word_names_only_go_where_they_are_names():
    snap = {"format": "gpu-wizard-snapshot/1", "platform": "linux",
            "files": {"/etc/os-release": "NAME=\"Ubuntu\"\nID=ubuntu\nVERSION_ID=\"22.04\"\n", "/etc/hostname": "vm\n",
                      "/home/ubuntu/.profile": "PATH=/home/ubuntu/bin:$PATH\n"},
            "env": {"USER": "ubuntu", "HOME": "/home/ubuntu", "HOSTNAME": "vm"},
            "commands": {"uname -a": {"rc": 0, "stdout": "Linux vm 6.8.0-45-generic #45-Ubuntu SMP x86_64 GNU/Linux\n", "stderr": ""},
                         "whoami": {"rc": 0, "stdout": "ubuntu\n", "stderr": ""}},
            "dirs": {"/proc/sys/vm": ["swappiness"]}}
    out = redact_snapshot(snap)
    assert out["files"]["/etc/os-release"] == snap["files"]["/etc/os-release"]  # ID=ubuntu survives
    assert out["env"] == {"USER": "<user-1>", "HOME": "/home/<user-1>", "HOSTNAME": "<host-1>"}
    assert "/home/<user-1>/.profile" in out["files"] and "/home/<user-1>/bin" in out["files"]["/home/<user-1>/.profile"]
    assert out["files"]["/etc/hostname"] == "<host-1>\n"
    assert out["commands"]["uname -a"]["stdout"].startswith("Linux <host-1> 6.8.0-45-generic #45-Ubuntu")
    assert out["commands"]["whoami"]["stdout"] == "<user-1>\n"
    assert "/proc/sys/vm" in out["dirs"]  # the word "vm" elsewhere is not the host


def test_windows_and_wsl_user_paths():
    r = Redactor()
    t = r.text("USERPROFILE=C:\\Users\\Jane.Doe\nls /mnt/c/Users/Jane.Doe/Downloads\nC:\\Users\\Public\\x")
    assert "Jane.Doe" not in t and "<user-1>" in t and "C:\\Users\\Public" in t
    assert t.count("<user-1>") == 2


def test_not_private_values_are_kept():
    text = ("inet 127.0.0.1/8 ::1/128 0.0.0.0:2024 mask 255.255.255.0 brd ff:ff:ff:ff:ff:ff 00:00:00:00:00:00\n"
            "libcudnn9-cuda-12 9.1.0.70-1 amd64\nBus-Id 00000000:00:06.0 at 15:27:06 VBIOS 96.00.A5.00.1A\n"
            "sha256 3b1f0b3c8d0e6a5f4e2c1d9b8a7f6e5d4c3b2a1908f7e6d5c4b3a2918f7e6d5c\n"
            "user root, host localhost, Driver Version: 580.159.04 CUDA Version: 13.0 sm_90 cu130\n"
            "https://download.pytorch.org/whl/cu130 torch-2.11.0+cu130-cp312-cp312-manylinux_2_28_x86_64.whl\n"
            "ii  libkeyutils1:amd64  1.6.3-3build1  amd64\nii  ubuntu-keyring 2023.11.28.1 all\nKEYBOARD_LAYOUT=us\n")
    assert Redactor().text(text) == text


def test_secret_names_follow_the_variable_name():
    r = Redactor()
    env = {"HF_TOKEN": "abc123def", "MY_API_KEY": "k-1", "APIKEY": "k-2", "DB_PASSWORD": "pw-3", "SESSION_SECRET": "s-4",
           "HTTP_AUTH": "a-5", "KEYBOARD_LAYOUT": "us", "CUDA_PATH": "/usr/local/cuda", "GPG_KEY_ID": "ABCD1234"}
    out = r.data({"env": env})["env"]
    assert all(out[k].startswith("<secret-") for k in ("HF_TOKEN", "MY_API_KEY", "APIKEY", "DB_PASSWORD", "SESSION_SECRET", "HTTP_AUTH"))
    assert out["KEYBOARD_LAYOUT"] == "us" and out["CUDA_PATH"] == "/usr/local/cuda" and out["GPG_KEY_ID"] == "ABCD1234"


def test_token_shapes():
    assert looks_like_token("Zk2mQ8vXw4LrT6yHn1BgF3sJd9CpA7eU0aB")
    assert not looks_like_token("3b1f0b3c8d0e6a5f4e2c1d9b8a7f6e5d4c3b2a1908f7e6d5c4b3a2918f7e6d5c")  # a digest
    assert not looks_like_token("cudaErrorNoKernelImageForDevice_x")
    assert not looks_like_token("_ZN7SysHost14DumpStackTraceEv+0x5b")  # tests/fixtures/errors/drv_insuff_bladebit.txt
    r = Redactor()
    out = r.text("token ghp_abcdefghijklmnopqrstuvwxyz0123456789 and AKIAIOSFODNN7EXAMPLE and "
                 "xoxb-1234567890-abcdefghij and --password 'p@ss word' and auth=Zk2mQ8vXw4LrT6yHn1BgF3sJd9CpA7eU0aB")
    assert "ghp_" not in out and "AKIA" not in out and "xoxb" not in out and "p@ss word" not in out and "Zk2m" not in out
    assert out.count("<secret-") == 5


def test_same_value_same_placeholder_different_values_different():
    r = Redactor()
    a = r.text("from 10.1.2.3 to 10.1.2.4 then 10.1.2.3 again; mac AA:BB:CC:00:11:22 aa:bb:cc:00:11:22")
    assert a == "from <ip-1> to <ip-2> then <ip-1> again; mac <mac-1> <mac-1>"
    assert r.text("10.1.2.4") == "<ip-2>"  # one Redactor = one map across calls
    assert r.counts() == {"ip": 2, "mac": 1}
    # a placeholder is never redacted again
    assert r.text(a) == a


def test_redacting_data_walks_lists_dicts_and_keys():
    r = Redactor(users=["kim"], hosts=["lab-node-3"])
    data = {"facts": {"env": {"variables": {"HOME": "/home/kim", "GH_TOKEN": "plainvalue123"}},
                      "gpus": [{"uuid": H200_UUID, "serial": 1652826072132}]},
            "log": ["kim@lab-node-3:~$ ls", {"/home/kim/x": 1}]}
    out = r.data(data)
    s = json.dumps(out)
    assert "kim" not in s and "lab-node-3" not in s and "plainvalue123" not in s and "1652826072132" not in s
    assert H200_UUID not in s
    assert out["log"][1] == {"/home/<user-1>/x": 1}
    assert data["log"][0] == "kim@lab-node-3:~$ ls"


def test_learn_live_knows_this_machine(monkeypatch):
    monkeypatch.setenv("MY_SERVICE_TOKEN", "Live-Secret-Value-42")
    import getpass
    import socket

    r = Redactor().learn_live()
    me = getpass.getuser()
    out = r.text(f"token Live-Secret-Value-42 on {socket.gethostname()}")
    assert "Live-Secret-Value-42" not in out
    if me != "root" and len(me) >= 3:
        assert me not in r.text(f"/home/{me}/x")


def _detect_key(f):
    return ([(g.name, g.pci_id, g.compute_capability, g.memory_total_mib, g.bus_id) for g in f.gpus],
            f.driver.state, f.driver.version, f.driver.cuda_version, f.driver.kernel_module,
            [t.version for t in f.cuda.toolkits], f.os.id, f.os.version_id, f.os.wsl, f.os.kernel,
            sorted(x.code for x in f.findings), f.python.version if f.python else None)


from app.paths import demo_snapshots  # noqa: E402


@pytest.mark.parametrize("path", demo_snapshots(), ids=lambda p: p.stem)
def test_demo_snapshots_detect_the_same_after_redaction(path):
    from app.detect import detect

    snap = json.loads(path.read_text(encoding="utf-8"))
    red = redact_snapshot(snap)
    validate_snapshot(red)
    assert _detect_key(detect(SnapshotSystem(snap))) == _detect_key(detect(SnapshotSystem(red)))
    # redacting twice changes nothing more
    assert redact_snapshot(red)["files"] == red["files"]


def test_versions_and_paths_are_not_taken_for_addresses_or_tokens():
    r = Redactor()
    text = ("Kernel version: 5.15.133.1\nWSL version: 2.0.9.0\nDriver Version: 32.0.15.6094\n"
            "see tests/fixtures/real/lspci-nodriver-rtx3060/SOURCE.md and github.com/manycore-research/SpatialLM/issues/28\n")
    assert r.text(text) == text
    data = {"cudnn": "9.24.0.43", "driver_version": "32.0.15.6094", "pytorch": {"cuda_runtime": "13.0.2"}, "note": "cuDNN 9.1.0.70 and torch==2.5.1"}
    assert r.data(data) == data  # recommend's cuDNN version is not an address
    assert r.text("AWS_SECRET=x wJalrXUtnFEMI/K7MDENG/bPxRfiCYPLANTEDKEY") == "AWS_SECRET=<secret-1> <secret-2>"


def test_a_user_named_like_a_gpu_keeps_the_gpu_name():
    snap = {"format": "gpu-wizard-snapshot/1", "platform": "linux", "env": {"USER": "tesla", "HOME": "/home/tesla"},
            "commands": {"nvidia-smi -L": {"rc": 0, "stdout": "GPU 0: Tesla T4 (UUID: GPU-0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0)\n", "stderr": ""}},
            "files": {"/home/tesla/.bashrc": "export PATH=/home/tesla/bin:$PATH\n"}}
    out = redact_snapshot(snap)
    assert out["commands"]["nvidia-smi -L"]["stdout"] == "GPU 0: Tesla T4 (UUID: <gpu-uuid-1>)\n"
    assert out["env"]["USER"] == "<user-1>" and "/home/<user-1>/.bashrc" in out["files"]


def test_a_user_named_like_an_everyday_word_leaves_the_prose_alone():
    # seen on a real GPU host: a user name learned as "the" turned every "the" of a report into <user-1>
    from app.report.redact import Redactor
    r = Redactor()
    r.add_user("the")
    out = r.text("the driver belongs to the host; /home/the/run.log; USER=the; the@gpu-box:~$ ls")
    assert out.startswith("the driver belongs to the host;")
    assert "/home/the/" not in out and "USER=the" not in out and "the@" not in out
