"""Host and snapshot text never becomes a Jinja template on the Ansible controller (issue 23 class 1,
DESIGN §18), through the real ansible-core:

1. every string field of every demo snapshot is poisoned with `{{ lookup('pipe', 'touch …') }}` and
   `{% … %}` at once; `fleet detect` + `fleet plan` carry the payload into the playbook (the test
   checks it got there), every scalar holding it is `!unsafe`, and `ansible-playbook --check` over it
   (a local-connection host) runs the tasks, names and all, without the marker file appearing;
2. a plan whose every field (titles, argv, environment, edits' paths, contents and lines, INI keys,
   download URLs, checks, warnings, facts) carries the payload is applied for real and under
   `--check` on this machine (files under the test's folder only), root steps through sudo: nothing
   runs, and the files hold the payload as literal text.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
SNAP = ROOT / "resources" / "snapshots"

try:
    import ansible  # noqa: F401
    import yaml
except ImportError:  # pragma: no cover
    pytest.skip("ansible-core not installed (the test extra installs it)", allow_module_level=True)


def _payloads(marker: Path) -> tuple[str, str]:
    return (f"{{{{ lookup('pipe', 'touch {marker}-expr') }}}}",
            f"{{% set gw = lookup('pipe', 'touch {marker}-stmt') %}}{{{{ gw }}}}")


def _poison(obj, p1: str, p2: str):
    """Every string leaf with both payloads (lines of a file: each line), keys kept (they are paths)."""
    if isinstance(obj, dict):
        return {k: _poison(v, p1, p2) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_poison(v, p1, p2) for v in obj]
    if isinstance(obj, str) and obj:
        if "\n" in obj:
            return "\n".join(ln + (f" {p1} {p2}" if ln.strip() else "") for ln in obj.split("\n"))
        return f"{obj} {p1} {p2}"
    return obj


def _poison_beside(obj, p1: str, p2: str):
    """The same snapshot, still parseable: beside every list entry and every line of a file a poisoned
    copy of it (so detection still reads the machine, and whatever a plan quotes from it carries the payload)."""
    if isinstance(obj, dict):
        return {k: _poison_beside(v, p1, p2) for k, v in obj.items()}
    if isinstance(obj, list):
        out = []
        for v in obj:
            out.append(_poison_beside(v, p1, p2))
            if isinstance(v, str) and v and "\n" not in v:
                out.append(f"{v}{p1}{p2}")
        return out
    if isinstance(obj, str) and "\n" in obj:
        lines = obj.split("\n")
        extra = [ln.rstrip() + p1 + p2 for ln in lines if ln.strip()]
        return "\n".join(lines + extra + [""])
    return obj


def _ansible(*args: str, cwd: Path, env: dict | None = None, timeout: float = 600) -> subprocess.CompletedProcess:
    tool = Path(sys.executable).with_name("ansible-playbook")
    return subprocess.run([str(tool) if tool.exists() else "ansible-playbook", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=timeout, env={**os.environ, "ANSIBLE_NOCOLOR": "1", **(env or {})})


def _gw(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "app", *args], cwd=cwd, capture_output=True, text=True, timeout=600,
                          env={**os.environ, "PYTHONPATH": str(ROOT), "GPU_WIZARD_LIVE": "0"})


class _Tagged(yaml.SafeLoader):
    pass


_Tagged.add_constructor("!unsafe", lambda ld, n: ("UNSAFE", ld.construct_scalar(n)))


def _scalars(obj):
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _scalars(k)
            yield from _scalars(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _scalars(v)
    elif isinstance(obj, tuple):
        yield obj
    elif isinstance(obj, str):
        yield ("PLAIN", obj)


def _assert_payload_only_unsafe(text: str) -> int:
    """Every scalar holding a payload is !unsafe; returns how many there are."""
    n = 0
    for tag, s in _scalars(yaml.load(text, Loader=_Tagged)):
        if "lookup('pipe'" in s or "{% set gw" in s:
            assert tag == "UNSAFE", s[:200]
            n += 1
    return n


def test_poisoned_snapshots_stay_data_through_plan_and_check(tmp_path):
    marker = tmp_path / "pwned"
    p1, p2 = _payloads(marker)
    inv = ["[lab]"]
    for f in sorted(SNAP.glob("*.json")):
        orig = json.loads(f.read_text())
        for how, fn in (("all", _poison), ("beside", _poison_beside)):
            data = fn(orig, p1, p2)
            data["format"], data["platform"] = orig["format"], orig["platform"]
            home = (data.get("env") or {}).get("HOME")
            bashrc = "export PATH=/usr/local/cuda-11.8/bin:$PATH\nexport LD_LIBRARY_PATH=/usr/local/cuda-11.8/lib64\n"
            if how == "beside" and isinstance(home, str):  # a CUDA line of ~/.bashrc, the audit's carrier
                data.setdefault("files", {})[home.split(p1)[0].strip() + "/.bashrc"] = _poison_beside(bashrc, p1, p2)
            src = tmp_path / f"poisoned-{how}-{f.name}"
            src.write_text(json.dumps(data))
            inv.append(f"{how}-{f.stem} gpu_wizard_snapshot={src}")
    (tmp_path / "inventory.ini").write_text("\n".join(inv) + "\n")
    r = _gw("fleet", "detect", "-i", "inventory.ini", "-o", "fleet", cwd=tmp_path)
    assert "Traceback" not in r.stderr, r.stderr[-3000:]
    (tmp_path / "pb").mkdir()
    r = _gw("fleet", "plan", "-i", "inventory.ini", "--snapshots", "fleet", "-o", "pb/fleet-plan.yml", "--offline", "--json", cwd=tmp_path)
    assert "Traceback" not in r.stderr, r.stderr[-3000:]
    text = (tmp_path / "pb" / "fleet-plan.yml").read_text()
    reached = _assert_payload_only_unsafe(text)
    assert reached >= 5, "the payload must reach the playbook for this test to mean anything"
    # the same plans on hosts Ansible works on (local connection), under --check: every task starts
    play = yaml.load(text, Loader=_Tagged)[0]
    carriers = {b["when"].rsplit("== ", 1)[-1] for b in play["tasks"] if "block" in b
                and any("lookup('pipe'" in sc for _t, sc in _scalars(b))}
    plan_of = {h: g for h, g in play["vars"]["gw_plan_of"].items() if str(g) in carriers}  # hosts whose plan carries it
    assert plan_of
    local = "\n".join(f"{h} ansible_connection=local ansible_python_interpreter={sys.executable} "
                      f"gpu_wizard_remote_dir={tmp_path}/remote-{h} gpu_wizard_root_dir={tmp_path}/root-{h}/fleet"
                      for h in plan_of)
    (tmp_path / "local.ini").write_text("[lab]\n" + local + "\n")
    r = _ansible("-i", "local.ini", "pb/fleet-plan.yml", "--check", "--skip-tags", "driver", "--forks", "10",
                 "--limit", ",".join(plan_of), cwd=tmp_path)
    assert "PLAY RECAP" in r.stdout, r.stdout[-3000:] + r.stderr[-2000:]
    assert not list(tmp_path.glob("pwned*")), "a payload ran on the controller"
    assert not any((tmp_path / f"root-{h}").exists() for h in plan_of)  # --check writes no root copy


class _Blob:
    """A local HTTP server answering every path (query strings and all) with one blob; stopped after."""

    def __init__(self, data: bytes):
        import http.server
        import threading

        body = data

        class H(http.server.BaseHTTPRequestHandler):
            def do_HEAD(self):  # noqa: N802
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()

            def do_GET(self):  # noqa: N802
                self.do_HEAD()
                self.wfile.write(body)

            def log_message(self, *a):
                pass

        self.srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
        self.url = f"http://127.0.0.1:{self.srv.server_address[1]}/blob.bin"
        self.thread = threading.Thread(target=self.srv.serve_forever, daemon=True)
        self.thread.start()

    def stop(self):
        self.srv.shutdown()
        self.srv.server_close()


@pytest.fixture
def blob():
    b = _Blob(b"gpu-wizard test blob\n")
    yield b
    b.stop()


def _poisoned_plan(tmp: Path, p1: str, p2: str, url: str):
    from app.plan.model import Check, Download, Edit, Plan, Step

    p3 = "{{ 7 * 7 }}{% if true %}x{% endif %}"  # in paths (no '/'): templated, it would read 49x
    d = tmp / f"data {p3}"
    d.mkdir()
    import hashlib
    from urllib.parse import quote

    sha = hashlib.sha256(b"gpu-wizard test blob\n").hexdigest()
    marker = p1.split("touch ")[1].split("'")[0]
    p_url = "{{lookup('pipe','touch${IFS}" + quote(marker, safe="/") + "-url')}}"  # a URL holds no space
    (d / "old.conf").write_text(f"keep\nexport PATH=/usr/local/cuda-{p1}/bin:$PATH\n")
    user = Step(id="write_env", kind="write_env", title=f"Edit files {p1} {p2}", why=p2,
                env={"GW_TEST_VAR": f"v {p1} {p2}"},
                edits=(Edit(path=str(d / "written.conf"), content=f"line {p1}\nline {p2}\n", needs_root=False),
                       Edit(path=str(d / "appended.conf"), mode="append", content=f"export X='{p1}'\n", needs_root=False),
                       Edit(path=str(d / "old.conf"), mode="remove_lines", lines=(f"export PATH=/usr/local/cuda-{p1}/bin:$PATH",),
                            needs_root=False),
                       Edit(path=str(d / "wsl.conf"), mode="ini_set", section="wsl2", settings=(("kernelCommandLine", f"v{p1}{p2}"),),
                            needs_root=False)),
                commands=(("/bin/sh", "-c", 'printf "%s\\n" "$1" >> "$2"', "sh", f"argv {p1} {p2}", str(d / "argv.txt")),),
                done_when=(Check("path_exists", (str(d / f"never-there-{p1}"),)),))
    fetched = Step(id="install_toolkit", kind="install_toolkit", title=f"Fetch {p2}", why=p1, needs_root=True,
                   downloads=(Download(name="blob.bin", url=url + "?q=" + p_url, sha256=sha),),
                   edits=(Edit(path=str(d / "root.conf"), content=f"root {p2}\n", needs_root=True),),
                   commands=(("/bin/cp", "@download:blob.bin", str(d / "blob-copy.bin")),))
    verify = Step(id="verify", kind="verify", title=f"Check {p1}", why=p2, commands=(("/bin/echo", p1, p2),))
    return Plan(steps=(user, fetched, verify), platform="linux", warnings=(f"warn {p1}",),
                facts_summary={"gpus": f"GPU {p1}", "os": f"OS {p2}"}), d


def test_poisoned_plan_applied_for_real_and_in_check_mode(tmp_path, blob, request):
    from app.fleet.plan import Builder, HostPlan, build_playbook, plan_tasks, verify_tasks
    from app.fleet.zipapp import build_zipapp

    marker = tmp_path / "pwned"
    p1, p2 = _payloads(marker)
    plan, d = _poisoned_plan(tmp_path, p1, p2, blob.url)
    b = Builder({})
    hp = HostPlan("local1", plan, plan_tasks(plan, b), verify_tasks=verify_tasks(plan, b))
    pbdir = tmp_path / "pb"
    pbdir.mkdir()
    build_zipapp(pbdir / "gpu-wizard.pyz")
    text, _ = build_playbook([hp], str(tmp_path), (pbdir / "gpu-wizard.pyz").read_bytes())
    (pbdir / "fleet-plan.yml").write_text(text)
    assert _assert_payload_only_unsafe(text) >= 10
    if not shutil.which("sudo"):
        pytest.skip("sudo not installed: the root steps become through it")
    if os.geteuid() != 0 and subprocess.run(["sudo", "-n", "true"], capture_output=True).returncode != 0:
        pytest.skip("needs root or passwordless sudo for the root step")
    rootbase = tmp_path / "rootdir"
    if os.geteuid() != 0:  # root's folder for the engine must be root's all the way up: not under this user's tmp
        rootbase = Path(subprocess.run(["sudo", "-n", "mktemp", "-d", "/tmp/gw-fleet-root.XXXXXX"], capture_output=True,
                                       text=True, check=True).stdout.strip())
        subprocess.run(["sudo", "-n", "chmod", "0755", str(rootbase)], check=True)
        request.addfinalizer(lambda: subprocess.run(["sudo", "-n", "rm", "-rf", "--one-file-system", str(rootbase)]))
    rootdir = rootbase / "fleet"
    (tmp_path / "inv.ini").write_text(
        f"[lab]\nlocal1 ansible_connection=local ansible_python_interpreter={sys.executable} "
        f"gpu_wizard_python={sys.executable} gpu_wizard_remote_dir={tmp_path}/remote gpu_wizard_root_dir={rootdir}\n")
    os.chmod(tmp_path, 0o755)
    r = _ansible("-i", "inv.ini", "pb/fleet-plan.yml", "--check", cwd=tmp_path)
    (tmp_path / "check.log").write_text(r.stdout + r.stderr)
    assert "PLAY RECAP" in r.stdout and "failed=0" in r.stdout and "rescued=0" in r.stdout, r.stdout[-4000:]
    assert not list(tmp_path.glob("pwned*"))
    assert not (d / "written.conf").exists() and not rootdir.exists()  # check mode wrote nothing
    assert "would run" in r.stdout
    r = _ansible("-i", "inv.ini", "pb/fleet-plan.yml", cwd=tmp_path)
    (tmp_path / "run.log").write_text(r.stdout + r.stderr)
    assert "PLAY RECAP" in r.stdout and "failed=0" in r.stdout and "rescued=0" in r.stdout, r.stdout[-4000:]
    assert not list(tmp_path.glob("pwned*")), "a payload ran on the controller"
    assert (d / "written.conf").read_text() == f"line {p1}\nline {p2}\n"
    assert p1 in (d / "appended.conf").read_text() and p1 not in (d / "old.conf").read_text()
    assert f"argv {p1} {p2}" in (d / "argv.txt").read_text()
    assert f"v{p1}{p2}" in (d / "wsl.conf").read_text()
    assert (d / "blob-copy.bin").read_bytes() == b"gpu-wizard test blob\n"
    assert (d / "root.conf").read_text() == f"root {p2}\n"
    st = os.stat(rootdir / "gpu-wizard.pyz")
    assert st.st_uid == 0 and st.st_mode & 0o022 == 0
    assert not list(tmp_path.glob("data 49x*"))
