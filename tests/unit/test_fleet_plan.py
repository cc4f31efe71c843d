"""fleet: the zipapp engine, the plan → Ansible tasks translation and the playbook, on the demo
snapshots (no-driver workstation, WSL2 laptop, H200 server). The playbook is checked by the real
`ansible-playbook --syntax-check` (ansible-core, from the test extra)."""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli import main
from app.fleet.ansible import Tmpl, Unsafe, dump_yaml, lit, parse_recap
from app.fleet.plan import ROOT_DIR, _packages, host_plan, plan_tasks, step_tasks
from app.fleet.zipapp import zipapp_bytes, build_zipapp

ROOT = Path(__file__).resolve().parents[2]
SNAP = ROOT / "resources" / "snapshots"

try:
    import ansible  # noqa: F401
    import yaml
    HAVE_ANSIBLE = True
except ImportError:
    HAVE_ANSIBLE = False
needs_ansible = pytest.mark.skipif(not HAVE_ANSIBLE, reason="ansible-core not installed (the test extra installs it)")


def _system_python() -> str:
    for p in ("/usr/bin/python3", shutil.which("python3") or ""):
        if p and os.path.isfile(p):
            r = subprocess.run([p, "-c", "import sys; print(sys.version_info >= (3, 10))"], capture_output=True, text=True)
            if r.stdout.strip() == "True":
                return p
    return sys.executable


def test_zipapp_is_deterministic_and_holds_only_the_engine(tmp_path):
    a = zipapp_bytes()
    assert a == zipapp_bytes()
    import io
    import zipfile

    names = zipfile.ZipFile(io.BytesIO(a)).namelist()
    assert "__main__.py" in names and "app/cli.py" in names and "app/detect/__init__.py" in names
    assert not [n for n in names if n.startswith("ui/") or "PySide6" in n or n.startswith("tests/")]
    assert any(n.startswith("resources/compat/") for n in names)
    p = tmp_path / "gw.pyz"
    d1 = build_zipapp(p)
    mtime = p.stat().st_mtime_ns
    assert build_zipapp(p) == d1 == hashlib.sha256(a).hexdigest()
    assert p.stat().st_mtime_ns == mtime  # unchanged content → file left alone (Ansible's copy stays "ok")


def test_zipapp_runs_on_the_standard_library_alone(tmp_path):
    """-I -S: no site-packages, so no requests, packaging or anything pip installed."""
    pyz = tmp_path / "gw.pyz"
    build_zipapp(pyz)
    out = tmp_path / "s.json"
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "GPU_WIZARD_CACHE": str(tmp_path / "cache"), "HOME": str(tmp_path)}
    r = subprocess.run([_system_python(), "-I", "-S", str(pyz), "--snapshot", str(SNAP / "h200-server-ubuntu2404.json"),
                        "snapshot", "-o", str(out)], capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    data = json.loads(out.read_text())
    assert data["format"] == "gpu-wizard-snapshot/1" and data["redacted"]["by"] == "gpu-wizard"
    assert "<gpu-uuid-1>" in json.dumps(data["nvml"]) and "GPU-" not in json.dumps(data["nvml"])
    r = subprocess.run([_system_python(), "-I", "-S", str(pyz), "--snapshot", str(out), "plan", "--json"],
                       capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    assert any(s["kind"] == "install_pytorch" for s in json.loads(r.stdout)["steps"])
    # a live snapshot of this machine, stdlib only
    r = subprocess.run([_system_python(), "-I", "-S", str(pyz), "snapshot", "-o", str(tmp_path / "live.json")],
                       capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    assert json.loads((tmp_path / "live.json").read_text())["platform"] == "linux"


def test_package_commands_are_read_with_their_pins():
    assert _packages(("apt-get", "-o", "Acquire::https::CaInfo=/x.crt", "install", "-y", "--no-install-recommends",
                      "nvidia-driver-580-open=580.95.05-0ubuntu1", "cuda-toolkit-12-8")) == \
        ("apt", ["nvidia-driver-580-open=580.95.05-0ubuntu1", "cuda-toolkit-12-8"], False)
    assert _packages(("dnf", "-y", "install", "cuda-toolkit-12-8")) == ("dnf", ["cuda-toolkit-12-8"], True)
    assert _packages(("apt-get", "update"))[0] is None
    assert _packages(("dpkg", "-i", "@download:x.deb"))[0] is None
    assert _packages(("apt-get", "purge", "-y", "cuda-12-1"))[0] is None


def test_recap_lines_are_parsed():
    out = parse_recap(["PLAY RECAP *****\n",
                       "alpha                      : ok=7    changed=2    unreachable=0    failed=0    skipped=3    rescued=0    ignored=0\n",
                       "\x1b[0;31mgamma\x1b[0m                      : ok=3    changed=0    unreachable=1    failed=0    skipped=0    rescued=0    ignored=0\n",
                       "beta : ok=5 changed=0 unreachable=0 failed=1 skipped=0 rescued=0 ignored=0\n"])
    assert out["alpha"].changed == 2 and out["alpha"].status == "changed"
    assert out["gamma"].status == "unreachable" and out["beta"].status == "failed"


@needs_ansible
def test_plan_text_with_template_braces_stays_text():
    """Every string that is not the wizard's own template is written !unsafe when it holds a brace;
    a conditional that is not the wizard's own is refused outright."""
    assert isinstance(lit("echo {{ secret }}"), Unsafe)
    text = dump_yaml([{"a": "x {{ y }} z", "b": "multi\nline {% raw %}", "c": Tmpl("{{ gw_home }}"), "d": "plain"}])
    assert text.count("!unsafe") == 2 and "c: '{{ gw_home }}'" in text and "d: plain" in text
    from app.fleet.ansible import FleetError

    with pytest.raises(FleetError):
        dump_yaml([{"name": "t", "when": "x == 1"}])


def _inventory(tmp_path: Path, hosts: dict[str, str]) -> Path:
    inv = tmp_path / "inventory.ini"
    inv.write_text("[lab]\n" + "".join(f"{h} gpu_wizard_snapshot={p}\n" for h, p in hosts.items()))
    return inv


def _detected(tmp_path: Path, hosts: dict[str, str]) -> tuple[Path, Path]:
    inv = _inventory(tmp_path, {h: SNAP / f for h, f in hosts.items()})
    snaps = tmp_path / "snaps"
    assert main(["fleet", "detect", "-i", str(inv), "-o", str(snaps)]) == 0  # snapshot-backed: in this process
    return inv, snaps


@needs_ansible
def test_fleet_plan_gives_each_host_its_own_plan(tmp_path, capsys):
    hosts = {"ws1": "nodriver-rtx3060-ubuntu2204.json", "laptop1": "wsl2-laptop-rtx4070-ubuntu2204.json",
             "h200a": "h200-server-ubuntu2404.json", "h200b": "h200-server-ubuntu2404.json"}
    inv, snaps = _detected(tmp_path, hosts)
    capsys.readouterr()
    pb = tmp_path / "fleet.yml"
    rc = main(["fleet", "plan", "-i", str(inv), "--snapshots", str(snaps), "-o", str(pb), "--json", "--offline"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 0 and out["syntax_check"] is True
    assert (tmp_path / "gpu-wizard.pyz").is_file()
    groups = {tuple(g["hosts"]): g for g in out["groups"]}
    assert ("h200a", "h200b") in groups and ("ws1",) in groups and ("laptop1",) in groups  # identical plans share a play

    def loader():
        class L(yaml.SafeLoader):
            pass
        L.add_constructor("!unsafe", lambda ld, n: ld.construct_scalar(n))
        return L

    (play,) = yaml.load(pb.read_text(), Loader=loader())  # one play: every host in parallel
    plan_of = play["vars"]["gw_plan_of"]
    assert plan_of["h200a"] == plan_of["h200b"] != plan_of["ws1"]
    blocks = {b["when"]: b["block"] for b in play["tasks"] if "block" in b and " apply " in b["name"]}

    def tasks_of(host):
        return blocks[f"gw_plan_of[inventory_hostname] == {plan_of[host]}"]

    ws = tasks_of("ws1")
    apt = [t for t in ws if "ansible.builtin.apt" in t]
    assert apt and any(n.startswith("nvidia-driver-") for n in apt[0]["ansible.builtin.apt"]["name"])
    assert apt[0].get("become") is True
    # the restart is the play's handler: notified by the driver's tasks (so only when they changed), then it
    # waits and checks the driver answers; flushed before any host is verified
    assert apt[0]["notify"] == ["gpu-wizard reboot"] and apt[0]["tags"] == ["driver"]
    handlers = play["handlers"]
    assert [list(h)[1] for h in handlers] == ["ansible.builtin.reboot", "ansible.builtin.command"]
    assert "nvidia-smi" in handlers[1]["ansible.builtin.command"]["argv"] and "gpu_wizard_skip_reboot" in handlers[0]["when"]
    names = [t.get("ansible.builtin.meta") for t in play["tasks"]]
    assert names.index("flush_handlers") < [i for i, t in enumerate(play["tasks"]) if " verify " in t.get("name", "")][0]
    assert [t for t in ws if t.get("register", "").startswith(f"gw_g{plan_of['ws1']}_s")]  # registers unique per group
    pip = [t for t in ws if "ansible.builtin.pip" in t]
    assert pip and pip[0]["ansible.builtin.pip"]["virtualenv"] == "{{ gw_home }}/.venvs/gpu"
    assert any(n.startswith("torch==") for n in pip[0]["ansible.builtin.pip"]["name"])
    laptop = tasks_of("laptop1")
    text = json.dumps(laptop)
    assert "nvidia-driver" not in text and "ansible.builtin.reboot" not in text  # WSL2: the Windows driver serves it
    copies = [t for t in laptop if "ansible.builtin.copy" in t and t["ansible.builtin.copy"].get("dest", "").startswith("/etc/")]
    assert copies and all(t["ansible.builtin.copy"]["backup"] is True for t in copies)
    # commands that are not naturally idempotent are guarded by the step's own checks, run on the host
    guard = [t for t in laptop if "done" in (t.get("ansible.builtin.command") or {}).get("argv", [])]
    assert guard and all(t["changed_when"] is False for t in guard)
    assert all(t["when"] == "not ansible_check_mode" for t in guard)  # under --check: Ansible's own copy (script)
    assert all("when" in t for t in laptop if (t.get("ansible.builtin.command") or {}).get("argv", [""])[0:1] == ["mkdir"])
    plan = json.loads((snaps / "fleet-plan.json").read_text())
    by = {h["host"]: h for h in plan["hosts"]}
    assert by["ws1"]["linux_driver"] and by["ws1"]["reboot"] and not by["laptop1"]["linux_driver"]


@needs_ansible
def test_downloads_carry_their_checksums():
    from app.plan.model import Download, Step

    s = Step(id="install_toolkit", title="t", why="w", kind="run_runfile", needs_root=True,
             downloads=(Download(name="cuda.run", url="https://developer.download.nvidia.com/x/cuda.run", sha256="ab" * 32),
                        Download(name="k.deb", url="https://x/k.deb", checksum_url="https://x/Packages")),
             commands=(("sh", "@download:cuda.run", "--silent"),))
    tasks = step_tasks(s, 1)
    gets = [t["ansible.builtin.get_url"] for t in tasks if "ansible.builtin.get_url" in t]
    assert gets[0]["checksum"] == "sha256:" + "ab" * 32
    assert any("regex_findall(gw_rx)" in g.get("checksum", "") for g in gets)  # the SHA256 read from the Packages index
    cmd = [t for t in tasks if "ansible.builtin.command" in t][-1]
    # a root step: its downloads land in root's own folder, never the connecting user's cache
    assert cmd["ansible.builtin.command"]["argv"][1] == ROOT_DIR + "/downloads/cuda.run"
    assert all(t.get("become") is True for t in tasks if "ansible.builtin.debug" not in t)  # (check mode says, as the user)
    with pytest.raises(Exception):
        step_tasks(s.replace(downloads=(Download(name="n", url="https://x/n"),)), 1)


def test_windows_host_gets_no_linux_tasks():
    import argparse

    from app.commands.plan import add_choice_arguments

    p = argparse.ArgumentParser()
    add_choice_arguments(p)
    args = p.parse_args([])
    plan = host_plan(str(SNAP / "windows-laptop-rtx4060-nowsl.json"), {**vars(args), "offline": True})
    tasks = plan_tasks(plan)
    assert len(tasks) == 1 and "ansible.builtin.debug" in tasks[0]


def test_host_helpers_done_and_ini_edit(tmp_path, capsys):
    """What the playbook runs on a host: the step's own checks (exit 0 done / 3 not), and an INI
    setting applied by the engine with a backup, `changed` once and `unchanged` after."""
    target = tmp_path / "wsl.conf"
    target.write_text("[automount]\r\nenabled = true\r\n")
    checks = json.dumps([{"kind": "ini_value", "args": [str(target), "automount", "ldconfig", "false"]}])
    assert main(["fleet", "done", "--checks", checks]) == 3
    edit = json.dumps({"path": str(target), "mode": "ini_set", "section": "automount", "settings": [["ldconfig", "false"]],
                       "backup": True, "needs_root": False})
    backups = tmp_path / "backups"
    assert main(["fleet", "edit", "--edit", edit, "--backup-dir", str(backups)]) == 0
    assert capsys.readouterr().out.strip() == "changed"
    text = target.read_text()
    assert "ldconfig = false" in text.replace("ldconfig=false", "ldconfig = false") and "enabled = true" in text
    assert any(p.read_bytes() == b"[automount]\r\nenabled = true\r\n" for p in backups.rglob("*") if p.is_file())
    assert main(["fleet", "done", "--checks", checks]) == 0
    assert main(["fleet", "edit", "--edit", edit, "--backup-dir", str(backups)]) == 0
    assert capsys.readouterr().out.strip() == "unchanged"
    assert main(["fleet", "done", "--checks", "not json"]) == 2


def test_venv_step_is_guarded_by_its_own_check():
    """A venv is done when its pip runs (the engine's check, run on the host), or, for a plain
    path check, by Ansible's `creates`: either way a second run does not recreate it."""
    from app.plan.model import Check, Step

    s = Step(id="create_venv", title="Create the Python environment /v", why="w", kind="create_venv",
             commands=(("python3", "-m", "venv", "/v"),), done_when=(Check("command_ok", ("/v/bin/python", "-m", "pip", "--version")),))
    tasks = step_tasks(s, 1)
    assert "done" in tasks[0]["ansible.builtin.command"]["argv"] and tasks[0]["when"] == "not ansible_check_mode"
    assert "done" in tasks[1]["ansible.builtin.script"]["cmd"] and tasks[1]["check_mode"] is False  # --check: no copy written
    guard = "(gw_s1_dchk if ansible_check_mode else gw_s1_done).rc == 3"
    assert tasks[2]["when"] == f"({guard}) and (not ansible_check_mode)" and "creates" not in tasks[2]["ansible.builtin.command"]
    assert tasks[3]["ansible.builtin.debug"] and tasks[3]["changed_when"] is True  # counted as a change under --check
    s2 = s.replace(done_when=(Check("path_exists", ("/v/bin/python",)),))
    t = step_tasks(s2, 1)[0]
    assert t["ansible.builtin.command"]["creates"] == "/v/bin/python" and t["when"] == "not ansible_check_mode"


def _strings(obj):
    if isinstance(obj, dict):
        for v in obj.values():
            yield from _strings(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _strings(v)
    elif isinstance(obj, str):
        yield obj


@needs_ansible
def test_root_tasks_run_only_a_root_owned_checked_engine(tmp_path, capsys):
    """Issue 14's rule on the fleet: a become task never runs or reads the connecting user's
    ~/.cache/gpu-wizard/fleet (which that user can write); it uses root's own copy, which root
    creates itself (O_EXCL) from the user's after checking the controller's digest."""
    hosts = {"ws1": "nodriver-rtx3060-ubuntu2204.json", "laptop1": "wsl2-laptop-rtx4070-ubuntu2204.json",
             "h200a": "h200-server-ubuntu2404.json"}
    inv, snaps = _detected(tmp_path, hosts)
    pb = tmp_path / "fleet.yml"
    assert main(["fleet", "plan", "-i", str(inv), "--snapshots", str(snaps), "-o", str(pb), "--json", "--no-syntax-check",
                 "--offline"]) == 0
    capsys.readouterr()

    class L(yaml.SafeLoader):
        pass
    L.add_constructor("!unsafe", lambda ld, n: ld.construct_scalar(n))
    (play,) = yaml.load(pb.read_text(), Loader=L)
    engine = (tmp_path / "gpu-wizard.pyz").read_bytes()
    assert play["vars"]["gw_pyz_sha256"] == hashlib.sha256(engine).hexdigest()
    assert play["vars"]["ansible_pipelining"] == "{{ gpu_wizard_pipelining | default(true) }}"
    blocks = [b["block"] for b in play["tasks"] if "block" in b]
    root_tasks = [t for b in blocks for t in b if t.get("become")]
    assert len(root_tasks) > 10
    engine_runs = 0
    for t in root_tasks:
        argv = (t.get("ansible.builtin.command") or {}).get("argv") or []
        if t["name"].startswith("Root makes its own copy"):
            assert argv[1:3] == ["-I", "-c"] and "O_EXCL" in argv[3] and argv[4] == "{{ gw_dir.path }}/gpu-wizard.pyz"
            continue
        text = " ".join(_strings(t))
        assert "gw_dir" not in text and "~/.cache" not in text and "gpu_wizard_remote_dir" not in text, t["name"]
        if any("gpu-wizard.pyz" in a for a in argv):
            engine_runs += 1
            assert argv[1:3] == ["-I", ROOT_DIR + "/gpu-wizard.pyz"], argv  # isolated: no PYTHON* from the user
            assert t["environment"]["GPU_WIZARD_CACHE"] == ROOT_DIR  # unpacked beside root's copy only
        for key in ("ansible.builtin.get_url", "ansible.builtin.file"):
            if key in t and t[key].get("dest", t[key].get("path", "")).find("downloads") >= 0:
                assert (t[key].get("dest") or t[key]["path"]).startswith(ROOT_DIR + "/downloads"), t
        if "ansible.builtin.apt" in t and "deb" in t["ansible.builtin.apt"]:
            assert t["ansible.builtin.apt"]["deb"].startswith(ROOT_DIR + "/downloads/")
    assert engine_runs >= 1
    for b in blocks:
        if not any(t.get("become") for t in b):
            continue
        # before any root task: the root-owned folder, then root's own copy (never under --check)
        first_root = next(i for i, t in enumerate(b) if t.get("become"))
        mk, cp = b[first_root:first_root + 2]
        assert mk["ansible.builtin.file"]["owner"] == "root" and mk["ansible.builtin.file"]["mode"] == "0755"
        assert mk["loop"][-1] == ROOT_DIR and "dirname" in mk["loop"][0]
        assert cp["name"].startswith("Root makes its own copy") and cp["when"] == "not ansible_check_mode"
        assert cp["ansible.builtin.command"]["argv"][-1] == "{{ gw_pyz_sha256 }}"
    # a plan with no root step asks for no root at all (a user-only host keeps working without sudo)
    from app.plan.model import Step

    user_only = step_tasks(Step(id="x", title="t", why="w", kind="write_env", commands=(("true",),)), 1)
    assert not any(t.get("become") for t in user_only)


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root: root's engine refusing a user-writable cache")
def test_engine_as_root_never_unpacks_into_a_folder_others_can_write(tmp_path):
    pyz = tmp_path / "gw.pyz"
    build_zipapp(pyz)
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o777)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "GPU_WIZARD_CACHE": str(shared), "HOME": str(tmp_path)}
    r = subprocess.run([_system_python(), "-I", str(pyz), "--snapshot", str(SNAP / "h200-server-ubuntu2404.json"),
                        "snapshot", "-o", str(tmp_path / "s.json")], capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    assert not list(shared.iterdir())  # went to a private folder instead
    os.chmod(shared, 0o755)
    r = subprocess.run([_system_python(), "-I", str(pyz), "--snapshot", str(SNAP / "h200-server-ubuntu2404.json"),
                        "snapshot", "-o", str(tmp_path / "s.json")], capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0 and [p.name for p in shared.iterdir() if p.name.startswith(".gpu-wizard-pyz-")]
