"""The privileged helper: allow-lists per step kind, and the real helper process over JSON lines.
Only refused requests and a harmless `ldconfig` are sent, so the test is safe when CI runs it as root."""
from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

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


DOOR = Path(__file__).resolve().parents[1] / "fixtures" / "run" / "door"


@pytest.mark.parametrize("how,rc,fixture,code", [
    ("sudo (password dialog)", 1, "sudo_askpass_cancelled.txt", "door_cancelled"),
    ("sudo (password dialog)", 1, "sudo_wrong_password_3x.txt", "door_wrong_password"),
    ("sudo (password dialog)", 1, "sudo_not_in_sudoers.txt", "door_not_allowed"),
    ("sudo", 1, "sudo_no_terminal.txt", "door_no_way"),
    ("pkexec", 126, "pkexec_dismissed.txt", "door_cancelled"),
    ("pkexec", 127, "pkexec_not_authorized.txt", "door_not_allowed"),
    ("pkexec", 127, "pkexec_no_agent.txt", "door_no_agent"),
])
def test_real_refusals_become_one_sentence(how, rc, fixture, code):
    from app.run.privilege import refusal

    e = refusal(how, rc, (DOOR / fixture).read_text().splitlines())
    assert e.code == code and e.cancelled is (code == "door_cancelled")
    assert "\n" not in str(e) and "{" not in str(e)
    zh = refusal(how, rc, (DOOR / fixture).read_text().splitlines(), lang="zh_CN")
    assert str(zh) != str(e) and zh.code == code  # the same sentence in Chinese
    if code == "door_not_allowed":
        assert "sudo gpu-wizard install" in str(e) and e.params["group"] in str(e)


def test_a_helper_that_cannot_start_is_one_line_and_is_never_started_twice(tmp_path):
    """A refusal is remembered: the next root request of the run gets the same answer and no
    second password prompt (the launcher runs once)."""
    count = tmp_path / "starts"
    code = f"import sys; open({str(count)!r}, 'a').write('x'); sys.stderr.write('sudo: unable to resolve host x'); sys.exit(1)"
    h = HelperPrivilege([sys.executable, "-c", code], how="test")
    with pytest.raises(PrivilegeError, match="not granted: sudo: unable to resolve host x") as first:
        h.run("write_env", ["ldconfig"], {}, 60, {}, lambda _l: None, lambda _p: None, CancelToken())
    with pytest.raises(PrivilegeError) as second:
        h.edit("write_env", Edit("/etc/profile.d/cuda.sh", content="x"), "s1")
    assert second.value is first.value and count.read_text() == "x"
    dismissed = HelperPrivilege([sys.executable, "-c", "import sys; sys.stderr.write('Error executing command as another user: "
                                                      "Request dismissed'); sys.exit(126)"], how="pkexec")
    with pytest.raises(PrivilegeError, match="You cancelled the password") as c:
        dismissed.run("write_env", ["ldconfig"], {}, 60, {}, lambda _l: None, lambda _p: None, CancelToken())
    assert c.value.cancelled


def test_pkexec_without_an_agent_falls_back_to_sudo_without_asking_twice(tmp_path):
    """No polkit agent: nothing was asked, so the sudo way is tried; any other pkexec refusal is final."""
    no_agent = [sys.executable, "-c", "import sys; sys.stderr.write('Error executing command as another user: "
                                      "No authentication agent found.'); sys.exit(127)"]
    env = dict(os.environ, GPU_WIZARD_HELPER_UNPRIVILEGED_TEST="1")
    tried = []

    def fallback():
        tried.append(True)
        return HelperPrivilege([sys.executable, str(HELPER_SCRIPT)], env=env, how="sudo (test)")
    h = HelperPrivilege(no_agent, how="pkexec", fallback=fallback)
    try:
        out = h.run("write_env", ["ldconfig"], {}, 60, {}, lambda _l: None, lambda _p: None, CancelToken())
        assert isinstance(out.rc, int) and tried == [True] and h.how == "sudo (test)"
    finally:
        h.close()
    refused = HelperPrivilege([sys.executable, "-c", "import sys; sys.stderr.write('Error executing command as another user: "
                                                     "Not authorized'); sys.exit(127)"], how="pkexec", fallback=fallback)
    with pytest.raises(PrivilegeError, match="may not use sudo"):
        refused.run("write_env", ["ldconfig"], {}, 60, {}, lambda _l: None, lambda _p: None, CancelToken())
    assert tried == [True]  # not asked again through sudo


def test_helper_refuses_to_start_unprivileged():
    import subprocess

    env = {k: v for k, v in os.environ.items() if k != "GPU_WIZARD_HELPER_UNPRIVILEGED_TEST"}
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        pytest.skip("running as root: the helper would start")
    r = subprocess.run([sys.executable, str(HELPER_SCRIPT)], env=env, capture_output=True, text=True, input="")
    assert r.returncode == 2 and "must run as root" in r.stderr


def test_choose_privilege(monkeypatch, tmp_path):
    from app.run import askpass

    if hasattr(os, "geteuid") and os.geteuid() == 0:
        assert isinstance(choose_privilege(backups_root=str(tmp_path)), DirectPrivilege)
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    monkeypatch.setattr("app.run.privilege.polkit_usable", lambda env=None: False)
    monkeypatch.setattr("app.run.privilege.shutil.which", lambda name: "/usr/bin/" + name)
    monkeypatch.setattr("app.run.rootboot.root_python", lambda: "/usr/bin/python3")
    monkeypatch.delenv("SUDO_ASKPASS", raising=False)
    monkeypatch.setattr("app.run.privilege._has_tty", lambda: True)
    p = choose_privilege(askpass="/usr/lib/gpu-wizard/askpass")
    assert p.launcher[:3] == ["sudo", "-A", "--"] and p.env["SUDO_ASKPASS"] == "/usr/lib/gpu-wizard/askpass"
    # never the user's own interpreter or files as root: the system's Python, isolated, on rootboot
    assert p.launcher[3:7] == ["/usr/bin/python3", "-I", "-B", "-c"] and "def boot(" in p.launcher[7]
    assert '"app/run/privileged.py"' in p.first_line and sys.executable not in p.launcher
    t = choose_privilege()
    assert t.launcher[:2] == ["sudo", "--"] and t.terminal  # sudo asks on this terminal
    assert p.proc is None and not p.terminal  # started lazily, on the first root request
    # the window is up: its own dialog, even when it was started from a terminal
    askpass.set_window_prompt(askpass.WindowPrompt(lambda prompt, n: None))
    try:
        w = choose_privilege()
        assert w.launcher[:2] == ["sudo", "-A"] and w.env["SUDO_ASKPASS"].endswith("gpu-wizard-askpass")
        assert askpass.SOCKET_ENV not in w.env and not w.terminal and not w.prompt.path  # nothing made yet
        w.close()
    finally:
        askpass.set_window_prompt(None)
    # no terminal, a display: the wizard's own dialog (no ssh-askpass needed)
    monkeypatch.setattr("app.run.privilege._has_tty", lambda: False)
    monkeypatch.setenv("DISPLAY", ":9")
    q = choose_privilege()
    assert q.launcher[:2] == ["sudo", "-A"] and q.env[askpass.ASKPASS_ENV] == "1" and q.prompt is None
    # neither: one line naming the ways, exit code 2, unless sudo needs no password
    monkeypatch.delenv("DISPLAY")
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr("app.run.privilege.sudo_needs_no_password", lambda: False)
    with pytest.raises(PrivilegeError) as e:
        choose_privilege()
    assert e.value.exit_code == 2 and "--askpass PROGRAM" in str(e.value) and "from a terminal" in str(e.value)
    monkeypatch.setattr("app.run.privilege.sudo_needs_no_password", lambda: True)
    assert choose_privilege().launcher[:3] == ["sudo", "-n", "--"]
    monkeypatch.setattr("app.run.rootboot.root_python", lambda: None)
    with pytest.raises(PrivilegeError, match="/usr/bin/python3"):
        choose_privilege()


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


def test_sudo_runs_a_root_owned_bundle_as_it_is_and_a_users_bundle_never(monkeypatch, tmp_path):
    """install.sh --system's copy (root-owned all the way up) runs as the helper itself; a per-user
    bundle's binary never runs as root: the system Python runs root's checked copy of its helper-src."""
    from app.run import rootboot
    from app.run.privilege import HELPER_FLAG, sudo_helper_launch

    trusted = "/usr/bin/env"  # stands for /opt/gpu-wizard/gpu-wizard: root-owned, in root-owned folders
    assert sudo_helper_launch(frozen=True, executable=trusted) == ([trusted, HELPER_FLAG], "")
    internal = tmp_path / "home" / ".local" / "lib" / "gpu-wizard" / "_internal"
    src = internal / "helper-src"
    (src / "app" / "run").mkdir(parents=True)
    root = Path(__file__).resolve().parents[2]
    for rel in ("app/__init__.py", "app/run/__init__.py", "app/run/privileged.py", "app/run/rootboot.py"):
        (src / rel).write_text((root / rel).read_text())
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "_MEIPASS", str(internal), raising=False)
    monkeypatch.setattr(rootboot, "root_python", lambda: "/usr/bin/python3")
    argv, first = sudo_helper_launch(executable=str(internal.parent / "gpu-wizard"))
    assert argv[:4] == ["/usr/bin/python3", "-I", "-B", "-c"] and str(internal.parent) not in " ".join(argv[:4])
    assert f'"src": "{src}"' in first and '"app/run/privileged.py"' in first
