"""The privileged helper: allow-lists per step kind, and the real helper process over JSON lines.
Only refused requests and a harmless `ldconfig` are sent, so the test is safe when CI runs it as root."""
from __future__ import annotations

import hashlib
import os
import sys

import pytest

from app.plan.model import Edit
from app.run.privilege import HELPER_SCRIPT, HelperPrivilege, PrivilegeError, choose_privilege, DirectPrivilege
from app.run.privileged import PolicyError, argv_allowed, check_edit, check_run
from app.run.runner import CancelToken

DL = frozenset({"@download:cuda-keyring_1.1-1_all.deb", "@download:cuda_12.8.1_570.124.06_linux.run"})


@pytest.mark.parametrize("kind,argv,ok", [
    ("update_index", ["apt-get", "update"], True),
    ("update_index", ["apt-get", "update", "extra"], False),
    ("update_index", ["dnf", "-y", "makecache"], True),
    ("install_toolkit", ["apt-get", "install", "-y", "--no-install-recommends", "cuda-toolkit-12-8"], True),
    ("install_toolkit", ["apt-get", "install", "-y", "openssh-server"], False),
    ("install_toolkit", ["apt-get", "install", "-y", "-o", "DPkg::Pre-Invoke::=sh", "cuda-toolkit-12-8"], False),
    ("install_toolkit", ["apt-get", "purge", "-y", "cuda-toolkit-12-8"], False),
    ("install_driver", ["apt-get", "install", "-y", "linux-headers-6.5.0-41-generic", "nvidia-driver-580-open"], True),
    ("install_driver", ["dnf", "-y", "module", "install", "nvidia-driver:580-open"], True),
    ("install_cudnn", ["apt-get", "install", "-y", "cudnn9-cuda-12"], True),
    ("add_repo", ["dpkg", "-i", "@download:cuda-keyring_1.1-1_all.deb"], True),
    ("add_repo", ["dpkg", "-i", "/tmp/evil.deb"], False),  # only verified downloads
    ("add_repo", ["dnf", "config-manager", "--add-repo", "https://developer.download.nvidia.com/compute/cuda/repos/rhel9/x86_64/cuda-rhel9.repo"], True),
    ("add_repo", ["dnf", "config-manager", "--add-repo", "https://x/y.sh"], False),
    ("run_runfile", ["sh", "@download:cuda_12.8.1_570.124.06_linux.run", "--silent", "--toolkit", "--toolkitpath=/usr/local/cuda-12.8"], True),
    ("run_runfile", ["sh", "@download:cuda_12.8.1_570.124.06_linux.run", "--silent", "--driver"], False),
    ("cleanup_cuda", ["rm", "-rf", "--one-file-system", "--", "/usr/local/cuda-11.8"], True),
    ("cleanup_cuda", ["rm", "-rf", "--one-file-system", "--", "/usr/local/cuda-11.8/../../bin"], False),
    ("cleanup_cuda", ["rm", "-rf", "--one-file-system", "--", "/usr"], False),
    ("cleanup_cuda", ["rm", "-rf", "--one-file-system", "--", "/home/u/cuda-11.8"], False),
    ("cleanup_cuda", ["rm", "-f", "--", "/usr/local/cuda"], True),
    ("cleanup_cuda", ["apt-get", "purge", "-y", "cuda-toolkit-11-8", "libcublas-11-8"], True),
    ("cleanup_cuda", ["apt-get", "purge", "-y", "libc6"], False),
    ("write_env", ["ldconfig"], True),
    ("write_env", ["ldconfig", "-f", "/tmp/x"], False),
    ("blacklist_nouveau", ["update-initramfs", "-u"], True),
    ("blacklist_nouveau", ["update-initramfs", "-u", "-k", "all"], False),
    ("install_pytorch", ["pip", "install", "torch"], False),  # never as root
    ("wsl_fix", ["cp", "-as", "--remove-destination", "/usr/lib/wsl/lib/.", "/usr/local/lib/wsl-driver-links/"], True),
    ("wsl_fix", ["ln", "-sfn", "/etc/shadow", "/usr/local/lib/wsl-driver-links/libcuda.so.1"], False),
    ("windows_host", ["dism.exe", "/online", "/enable-feature", "/featurename:VirtualMachinePlatform", "/all", "/norestart"], True),
    ("windows_host", ["dism.exe", "/online", "/disable-feature", "/featurename:VirtualMachinePlatform", "/all", "/norestart"], False),
])
def test_allow_lists(kind, argv, ok):
    assert argv_allowed(kind, argv, DL) is ok


def test_check_run_refuses_unknown_kinds_and_env():
    with pytest.raises(PolicyError, match="unknown step kind"):
        check_run("format_disk", ["ldconfig"], {})
    with pytest.raises(PolicyError, match="LD_PRELOAD"):
        check_run("write_env", ["ldconfig"], {"LD_PRELOAD": "/tmp/x.so"})
    with pytest.raises(PolicyError, match="APT_CONFIG"):
        check_run("update_index", ["apt-get", "update"], {"APT_CONFIG": "/tmp/evil.conf"})
    check_run("update_index", ["apt-get", "update"], {"DEBIAN_FRONTEND": "noninteractive"})


def test_check_edit_paths_and_modes():
    check_edit("write_env", Edit("/etc/profile.d/cuda.sh", content="x"))
    check_edit("set_repo_mirror", Edit("/etc/apt/sources.list.d/cuda-ubuntu2204-x86_64.list", content="deb x /"))
    check_edit("cleanup_cuda", Edit("/etc/environment", mode="remove_lines", lines=("CUDA_HOME=/usr/local/cuda-11.8",)))
    for kind, edit, msg in [
        ("write_env", Edit("/etc/shadow", content="x"), "may not edit"),
        ("write_env", Edit("/etc/profile.d/../shadow", content="x"), "clean absolute path"),
        ("cleanup_cuda", Edit("/etc/environment", mode="write", content="PATH=/tmp"), "only remove lines"),
        ("write_env", Edit("/etc/profile.d/cuda.sh", content="x", backup=False), "backed up"),
        ("wsl_fix", Edit("/usr/lib/x86_64-linux-gnu/libcuda.so.1", mode="write", content="x"), "only be deleted"),
    ]:
        with pytest.raises(PolicyError, match=msg):
            check_edit(kind, edit)


@pytest.fixture
def helper():
    env = dict(os.environ, GPU_WIZARD_HELPER_UNPRIVILEGED_TEST="1")
    h = HelperPrivilege([sys.executable, str(HELPER_SCRIPT)], env=env, how="test")
    yield h
    h.close()


def test_real_helper_process_speaks_json_lines_and_refuses(helper, tmp_path):
    lines = []
    out = helper.run("write_env", ["ldconfig"], {}, 60, {}, lines.append, lambda p: None, CancelToken())
    assert isinstance(out.rc, int) and out.argv == ["ldconfig"]
    with pytest.raises(PolicyError, match="may not run"):
        helper.run("install_toolkit", ["rm", "-rf", "/"], {}, 60, {}, lines.append, lambda p: None, CancelToken())
    with pytest.raises(PolicyError, match="unknown step kind"):
        helper.run("format_disk", ["ldconfig"], {}, 60, {}, lines.append, lambda p: None, CancelToken())
    with pytest.raises(PolicyError, match="may not edit"):
        helper.edit("write_env", Edit("/etc/sudoers", content="x"), "s1")
    with pytest.raises(PolicyError, match="bad session"):
        helper.restore("../../etc")
    # a download whose bytes changed after the wizard verified them is refused before dpkg runs
    deb = tmp_path / "cuda-keyring_1.1-1_all.deb"
    deb.write_bytes(b"changed")
    files = {"@download:cuda-keyring_1.1-1_all.deb": {"path": str(deb), "sha256": hashlib.sha256(b"original").hexdigest()}}
    with pytest.raises(PolicyError, match="checksum mismatch"):
        helper.run("add_repo", ["dpkg", "-i", "@download:cuda-keyring_1.1-1_all.deb"], {}, 60, files,
                   lines.append, lambda p: None, CancelToken())
    files["@download:cuda-keyring_1.1-1_all.deb"]["sha256"] = ""
    with pytest.raises(PolicyError, match="no sha256"):
        helper.run("add_repo", ["dpkg", "-i", "@download:cuda-keyring_1.1-1_all.deb"], {}, 60, files,
                   lines.append, lambda p: None, CancelToken())
    # still alive after all the refusals
    out2 = helper.run("write_env", ["ldconfig"], {}, 60, {}, lines.append, lambda p: None, CancelToken())
    assert isinstance(out2.rc, int)


def test_helper_that_cannot_start_is_a_clear_error():
    h = HelperPrivilege([sys.executable, "-c", "import sys; sys.stderr.write('Request dismissed'); sys.exit(126)"], how="test")
    with pytest.raises(PrivilegeError, match="not granted: Request dismissed"):
        h.run("write_env", ["ldconfig"], {}, 60, {}, lambda _l: None, lambda _p: None, CancelToken())


def test_helper_refuses_to_start_unprivileged():
    import subprocess

    env = {k: v for k, v in os.environ.items() if k != "GPU_WIZARD_HELPER_UNPRIVILEGED_TEST"}
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        pytest.skip("running as root: the helper would start")
    r = subprocess.run([sys.executable, str(HELPER_SCRIPT)], env=env, capture_output=True, text=True, input="")
    assert r.returncode == 2 and "must run as root" in r.stderr


def test_choose_privilege(monkeypatch, tmp_path):
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        assert isinstance(choose_privilege(backups_root=str(tmp_path)), DirectPrivilege)
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    monkeypatch.setattr("app.run.privilege.polkit_usable", lambda env=None: False)
    monkeypatch.setattr("app.run.privilege.shutil.which", lambda name: "/usr/bin/" + name)
    monkeypatch.delenv("SUDO_ASKPASS", raising=False)
    monkeypatch.setattr("app.run.privilege._has_tty", lambda: True)
    p = choose_privilege(askpass="/usr/lib/gpu-wizard/askpass")
    assert p.launcher[:3] == ["sudo", "-A", "--"] and p.env["SUDO_ASKPASS"] == "/usr/lib/gpu-wizard/askpass"
    assert p.launcher[-1].endswith("gpu-wizard-helper")
    assert choose_privilege().launcher[:2] == ["sudo", "--"]
    assert p.proc is None  # started lazily, on the first root request
    # no terminal and no dialog given: a graphical askpass found on the machine
    monkeypatch.setattr("app.run.privilege._has_tty", lambda: False)
    monkeypatch.setattr("app.run.privilege.find_askpass", lambda: "/usr/bin/ssh-askpass")
    q = choose_privilege()
    assert q.launcher[:2] == ["sudo", "-A"] and q.env["SUDO_ASKPASS"] == "/usr/bin/ssh-askpass"


def test_polkit_policy_names_the_helper_install_sh_substitutes(tmp_path):
    from pathlib import Path
    from xml.dom import minidom

    from app.run.privilege import HELPER_FLAG, polkit_helper_argv
    from app.run.privileged import maybe_run_helper

    src = Path(__file__).resolve().parents[2] / "installers" / "polkit" / "org.gpuwizard.helper.policy"
    minidom.parse(str(src))  # well-formed XML
    exe = tmp_path / "gpu-wizard"
    exe.write_text("")
    installed = tmp_path / "installed.policy"
    installed.write_text(src.read_text().replace("@HELPER@", str(exe)))  # what install.sh --system does
    assert polkit_helper_argv(str(installed)) == [str(exe), HELPER_FLAG]
    helper = tmp_path / "gpu-wizard-helper"
    helper.write_text("")
    installed.write_text(src.read_text().replace("@HELPER@", str(helper)))
    assert polkit_helper_argv(str(installed)) == [str(helper)]
    assert polkit_helper_argv(str(src)) is None  # not substituted: not usable
    assert polkit_helper_argv(str(tmp_path / "missing.policy")) is None
    assert maybe_run_helper(["detect", "--json"]) is None


def test_helper_protocol_streams_lines_and_honours_cancel():
    """serve() with an executor that skips the allow-list (so a harmless python can run): lines,
    progress and done events come back tagged with the request id; a cancel op stops a long one."""
    import io
    import json as _json

    from app.run.privileged import RootExecutor, serve
    from app.run.runner import run_command

    class Permissive(RootExecutor):
        def run(self, kind, argv, env, timeout_s, files, on_line, on_progress, cancel):
            return run_command(argv, on_line=on_line, on_progress=on_progress, timeout_s=timeout_s, cancel=cancel)

    reqs = [
        {"id": 1, "op": "run", "kind": "write_env", "argv": [sys.executable, "-c", "print('a'); print('50%', end='\\r'); print('b')"]},
        {"id": 2, "op": "run", "kind": "write_env", "argv": [sys.executable, "-c", "import time; time.sleep(30)"]},
        {"id": 2, "op": "cancel"},
        {"id": 3, "op": "bogus"},
        {"id": 4, "op": "ping"},
    ]
    import time as _time

    def stdin():  # the wizard's side of the pipe: requests over time; EOF (wizard gone) cancels what still runs
        yield _json.dumps(reqs[0]) + "\n"
        _time.sleep(1.5)
        yield _json.dumps(reqs[1]) + "\n"
        _time.sleep(0.3)
        for r in reqs[2:]:
            yield _json.dumps(r) + "\n"
        yield "not json\n"
    out = io.StringIO()
    assert serve(stdin(), out, Permissive()) == 0
    msgs = [_json.loads(x) for x in out.getvalue().splitlines()]
    assert msgs[0]["event"] == "ready"
    one = [m for m in msgs if m.get("id") == 1]
    assert [m["text"] for m in one if m["event"] == "line"] == ["a", "50%", "b"]
    assert [m["final"] for m in one if m["event"] == "line"] == [True, False, True]
    assert any(m["event"] == "progress" and m["fraction"] == 0.5 for m in one)
    assert one[-1]["event"] == "done" and one[-1]["rc"] == 0
    two = [m for m in msgs if m.get("id") == 2 and m["event"] == "done"]
    assert two and two[0]["cancelled"] is True
    assert any(m.get("id") == 3 and m["event"] == "refused" for m in msgs)
    assert any(m.get("id") == 4 and m["event"] == "pong" for m in msgs)
    assert any(m["event"] == "refused" and m["message"] == "not a JSON request" for m in msgs)
