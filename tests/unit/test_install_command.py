"""One builder for the PyTorch install command (app/install_command.py): the command the Recommendation
shows is the argv the plan's install step runs, is the line the exported script runs, and the diagnosis's
reinstall and verify's suggested fix are the same command aimed at another interpreter."""
from __future__ import annotations

import json
import shlex

import pytest

from app.choices import Choices, Mirrors
from app.compat import load_db
from app.detect import detect
from app.install_command import InstallCommand, torch_install
from app.paths import demo_snapshots
from app.plan import build_plan
from app.plan.script import plan_to_script
from app.recommend import recommend
from app.system import SnapshotSystem

MIRRORS = Mirrors(pypi_index_url="https://pypi.corp.example/simple", pytorch_index_url="https://mirror.corp.example/whl/",
                  https_proxy="http://proxy.corp.example:3128", ca_bundle="/etc/ssl/corp-ca.pem")
CHOICES = {
    "pip": Choices(),
    "uv": Choices(installer="uv"),
    "mirrors": Choices(mirrors=MIRRORS),
    "uv_mirrors": Choices(installer="uv", mirrors=MIRRORS),
    "venv": Choices(venv_path="/opt/envs/train"),
    "cpu": Choices(torch_variant="cpu"),
    "older": Choices(torch_version="2.8.0"),
}


@pytest.fixture(scope="module")
def cases():
    db = load_db(use_user_bundle=False)
    out = []
    for snap in demo_snapshots():
        facts = detect(SnapshotSystem(json.loads(snap.read_text(encoding="utf-8"))))
        for name, ch in CHOICES.items():
            rec = recommend(facts, db, ch)
            plan = build_plan(facts, rec, ch)
            out.append((f"{snap.stem}/{name}", facts, ch, rec, plan))
    return out


def _home(word: str) -> str:
    """$HOME/x as bash expands it in a script for a snapshot without its user's home: the plan's ~/x."""
    return "~/" + word[len("$HOME/"):] if word.startswith("$HOME/") else word


def _script_argv(script: str, argv: tuple[str, ...]) -> tuple[tuple[str, ...], dict]:
    """The exported script's line that runs this step's command: (argv, env) as bash would see them."""
    for line in script.splitlines():
        if "pip" not in line or line.lstrip().startswith("#"):
            continue
        words = [_home(w) for w in shlex.split(line)]
        env = {}
        if words and words[0] == "env":
            words = words[1:]
            while words and "=" in words[0] and not words[0].startswith("-"):
                k, v = words.pop(0).split("=", 1)
                env[k] = v
        if tuple(words[:len(argv)]) == argv[:len(words)] and words and words[0] == argv[0]:
            return tuple(words), env
    raise AssertionError(f"no line of the script runs {argv[:4]}")


def test_shown_command_is_the_run_command_from_recommend_to_plan_to_script(cases):
    checked = 0
    for where, _facts, ch, rec, plan in cases:
        step = plan.step("install_pytorch")
        if step is None or not rec.pytorch.packages:
            continue
        ran = step.commands[0]
        assert ran == rec.pytorch.install_argv, where  # the Recommendation's argv is the step's
        cmd = InstallCommand(argv=tuple(ran), env=dict(step.env))
        shown = rec.pytorch.uv_command if ch.installer == "uv" else rec.pytorch.command
        plat = "windows" if plan.platform == "windows" else "linux"
        assert shown == cmd.shown(plat), where  # the words on the page are the step's argv and env
        if plat == "linux":
            assert [_home(w) for w in shlex.split(shown)][-len(ran):] == list(ran), where
            argv, env = _script_argv(plan_to_script(plan), tuple(ran))
            assert argv == tuple(ran), where  # the script runs the same argv
            assert {k: v for k, v in env.items() if k in cmd.env} == cmd.env, where
        checked += 1
    assert checked >= 20


def test_the_venv_the_plan_creates_is_the_interpreter_shown(cases):
    for where, _facts, ch, rec, plan in cases:
        create = plan.step("create_venv")
        if create is None or not rec.pytorch.install_argv:
            continue
        venv = create.commands[0][-1]
        assert rec.pytorch.install_argv[0 if ch.installer != "uv" else 4].startswith(venv), where


def test_mirrors_go_where_pip_reads_them():
    c = torch_install("/v/bin/python", ("torch==2.9.1",), "https://mirror/whl/cu128", MIRRORS)
    assert c.argv == ("/v/bin/python", "-m", "pip", "install", "--disable-pip-version-check", "torch==2.9.1",
                      "--index-url", "https://mirror/whl/cu128", "--extra-index-url", "https://pypi.corp.example/simple",
                      "--cert", "/etc/ssl/corp-ca.pem")
    assert c.env == {"HTTPS_PROXY": "http://proxy.corp.example:3128", "HTTP_PROXY": "http://proxy.corp.example:3128",
                     "SSL_CERT_FILE": "/etc/ssl/corp-ca.pem", "REQUESTS_CA_BUNDLE": "/etc/ssl/corp-ca.pem"}
    u = torch_install("/v/bin/python", ("torch==2.9.1",), None, MIRRORS, uv="/usr/bin/uv")
    assert u.argv == ("/usr/bin/uv", "pip", "install", "--python", "/v/bin/python", "torch==2.9.1",
                      "--index-url", "https://pypi.corp.example/simple")  # uv reads the CA from SSL_CERT_FILE
    assert shlex.split(c.shown())[4:] == list(c.argv)
    w = torch_install(r"C:\Users\a b\gpu\Scripts\python.exe", ("torch==2.9.1",), "https://x/whl/cu128", Mirrors())
    assert w.shown("windows") == r"& 'C:\Users\a b\gpu\Scripts\python.exe' -m pip install --disable-pip-version-check torch==2.9.1 --index-url https://x/whl/cu128"


def test_the_diagnosis_reinstall_and_the_verify_fix_are_the_same_command(cases):
    from app.diagnose import evidence as ev
    from app.diagnose.model import Platform
    from app.diagnose.values import torch_install as diagnosis_install
    from app.pipeline import torch_fix_command as fix_command

    where, facts, ch, rec, plan = next(c for c in cases if "rtx4090" in c[0] and c[0].endswith("/pip"))
    ran = plan.step("install_pytorch").commands[0]
    failing = Platform(os="linux", python="/home/u/proj/venv/bin/python", python_kind="venv", source="text")
    ctx = ev.Context(facts=facts, text="", groups={}, live={}, recommendation=rec, platform=failing, choices=ch)
    cmd = diagnosis_install(ctx)
    assert cmd is not None
    argv = list(cmd.argv)
    assert argv[0] == failing.python and argv[4] == "--force-reinstall"
    same = torch_install(failing.python, rec.pytorch.packages, rec.pytorch.index_url, ch.mirrors, force_reinstall=True)
    assert argv == list(same.argv) and cmd.env == same.env  # the plan's builder, for the failing env and the run's mirrors
    assert [a for a in argv if a not in ("--force-reinstall",)][1:len(ran)] == list(ran[1:])
    fix = fix_command("/v/bin/python", None, mirrors=Mirrors())
    assert fix == "/v/bin/python -m pip install --upgrade --disable-pip-version-check torch"  # no GPU seen: the plain upgrade


def test_a_fresh_download_is_the_same_command_without_the_cache():
    """A corrupt download's fix (diagnosis: a hash mismatch) asks the one builder for --no-cache-dir (uv: --no-cache):
    everything else, the mirrors, the CA and the proxy, stays as the plan has it."""
    plain = torch_install("/v/bin/python", ("torch",), "https://download.pytorch.org/whl/cu128", MIRRORS, force_reinstall=True)
    fresh = torch_install("/v/bin/python", ("torch",), "https://download.pytorch.org/whl/cu128", MIRRORS, force_reinstall=True,
                          no_cache=True)
    assert [a for a in fresh.argv if a != "--no-cache-dir"] == list(plain.argv) and "--no-cache-dir" in fresh.argv
    assert fresh.env == plain.env
    uv = torch_install("/v/bin/python", ("torch",), None, MIRRORS, uv="/usr/bin/uv", no_cache=True)
    assert uv.argv[:4] == ("/usr/bin/uv", "pip", "install", "--no-cache") and "--no-cache-dir" not in uv.argv
