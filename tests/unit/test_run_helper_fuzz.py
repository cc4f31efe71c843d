"""The helper's request loop under fuzzed requests (random ops, kinds, argv, env, files, edits, ids
of every JSON type, non-JSON lines): it never crashes, answers each request exactly once, and
what it would run or write passed the allow-list and the content rules. Nothing runs or is
written for real: the command runner and the file editor are stand-ins that only record."""
from __future__ import annotations

import io
import json
import random

import app.run.privileged as priv
from app.plan.model import STEP_KINDS
from app.run.edits import EditRecord
from app.run.runner import CommandOutcome

WORDS = ["apt-get", "install", "-y", "cuda-toolkit-12-8", "dpkg", "-i", "@download:x.deb", "sh", "--silent", "--toolkit",
         "rm", "-rf", "--", "/usr/local/cuda-11.8", "/", "ldconfig", "dnf", "config-manager", "--add-repo",
         "https://evil.example/x.repo", "bash", "-c", "id", "ln", "-sfn", "/etc/shadow", "$(id)", "a\nb", "", "-o",
         "APT::Update::Pre-Invoke::=sh", "update-initramfs", "-u", "mkdir", "-p", "/usr/local/lib/wsl-driver-links"]
PATHS = ["/etc/profile.d/cuda.sh", "/etc/ld.so.conf.d/000-gpu-wizard-cuda.conf", "/etc/modprobe.d/blacklist-nouveau.conf",
         "/etc/apt/sources.list.d/cuda-debian12-x86_64.list", "/etc/yum.repos.d/cuda-rhel9.repo", "/etc/profile",
         "/etc/shadow", "/root/.bashrc", "/etc/ld.so.conf.d/libc.conf", "relative/path", "/etc/../etc/passwd", "/etc/wsl.conf"]
TEXTS = ["export CUDA_HOME=/usr/local/cuda\n", "export CUDA_HOME=/home/u\n", "/usr/local/cuda/lib64\n", "/home/u/lib\n",
         "install nouveau /bin/sh\n", "deb [trusted=yes] http://evil.example/ /\n",
         "deb [signed-by=/usr/share/keyrings/cuda-archive-keyring.gpg] https://developer.download.nvidia.com/x/ /\n",
         "[cuda-rhel9-x86_64]\nbaseurl=https://developer.download.nvidia.com/compute/cuda/repos/rhel9/x86_64\n", "x" * 5000]


def _value(rnd: random.Random, depth: int = 0):
    makers = [lambda: None, lambda: True, lambda: rnd.randint(-5, 10 ** 12), rnd.random,
              lambda: rnd.choice(WORDS + PATHS + TEXTS), lambda: "", lambda: rnd.choice(list(STEP_KINDS))]
    if depth < 3:
        makers += [lambda: [_value(rnd, depth + 1) for _ in range(rnd.randrange(3))],
                   lambda: {rnd.choice(["path", "mode", "content", "lines", "x"]): _value(rnd, depth + 1)
                            for _ in range(rnd.randrange(3))}]
    return rnd.choice(makers)()


VALID_RUNS = [("write_env", ["ldconfig"]), ("update_index", ["apt-get", "update"]),
              ("install_toolkit", ["apt-get", "install", "-y", "cuda-toolkit-12-8"]),
              ("repair_packages", ["dpkg", "--configure", "-a"]), ("blacklist_nouveau", ["update-initramfs", "-u"])]


def _request(rnd: random.Random, rid):
    op = rnd.choice(["run", "run", "edit", "edit", "restore", "ping", "bogus", None, 5])
    req = {"id": rid, "op": op, "kind": rnd.choice(list(STEP_KINDS) + ["evil", None, 3])}
    if op == "run" and rnd.random() < 0.2:  # some valid ones (with hostile env/files around them)
        req["kind"], argv = rnd.choice(VALID_RUNS)
        req["argv"] = list(argv)
        req["env"] = rnd.choice([{}, {"DEBIAN_FRONTEND": "noninteractive"}, {"LD_PRELOAD": "/home/u/x.so"}])
        return req
    if op == "run":
        req["argv"] = rnd.choice([[rnd.choice(WORDS) for _ in range(rnd.randrange(6))], "ldconfig", None, {"a": 1}])
        req["env"] = rnd.choice([{}, {"LD_PRELOAD": "/home/u/x.so"}, {"DEBIAN_FRONTEND": "noninteractive"}, [], "x"])
        req["files"] = rnd.choice([{}, {"@download:x.deb": {"path": "/tmp/x.deb", "sha256": "0" * 64}},
                                   {"@download:x.deb": "str"}, []])
        req["timeout_s"] = rnd.choice([None, 5, -1, "x", True, 1e9])
    elif op == "edit":
        req["edit"] = rnd.choice([{"path": rnd.choice(PATHS), "mode": rnd.choice(["write", "append", "remove_lines",
                                                                                   "delete", "ini_set", "chmod"]),
                                   "content": rnd.choice(TEXTS), "lines": [rnd.choice(TEXTS)],
                                   "section": rnd.choice(["automount", "boot"]),
                                   "settings": rnd.choice([[["ldconfig", "false"]], [["command", "sh x"]]])},
                                  _value(rnd), None, "edit"])
        req["session"] = rnd.choice(["s1", "../../etc", "", None, 5])
    elif op == "restore":
        req["session"] = rnd.choice(["s1", "..", "a/b", None])
        req["paths"] = rnd.choice([None, ["/etc/profile"], "x", [5]])
    return req


def test_fuzzed_requests_never_crash_and_only_allowed_things_would_happen(monkeypatch, tmp_path):
    ran, wrote = [], []

    def fake_run(argv, **kw):
        assert "LD_PRELOAD" not in (kw.get("env") or {})  # the environment is checked too
        ran.append(list(argv))
        return CommandOutcome(argv=list(argv), rc=0)

    def fake_apply(edit, bdir, root="/", step_kind="", content=None, check_real=None):
        wrote.append((step_kind, edit, content))
        return EditRecord(edit.path, False, None, "missing")

    monkeypatch.setattr(priv, "run_command", fake_run)
    monkeypatch.setattr(priv, "apply_edit", fake_apply)
    monkeypatch.setattr(priv.RootExecutor, "check_provenance", lambda self, *a: None)  # no network in a fuzz
    monkeypatch.setattr(priv, "_check_delete", lambda path: None)
    rnd = random.Random(14)
    ids: list = []
    lines = []
    for n in range(3000):
        rid = rnd.choice([n, f"r{n}", n + 0.5, None, [n], {"n": n}, True])
        if rnd.random() < 0.05:
            lines.append(rnd.choice(["not json", "[1,2]", '"str"', "{", "\x00\xff", "{}"]) + "\n")
            continue
        req = _request(rnd, rid)
        ids.append((rid, req))
        lines.append(json.dumps(req) + "\n")
    out = io.StringIO()
    ex = priv.RootExecutor(str(tmp_path / "backups"))
    assert priv.serve(iter(lines), out, ex) == 0
    msgs = [json.loads(x) for x in out.getvalue().splitlines()]
    assert msgs[0]["event"] == "ready"
    terminal = [m for m in msgs[1:] if m.get("event") in ("done", "refused", "edited", "restored", "pong")]
    answerable = [req for rid, req in ids if isinstance(rid, (int, str, type(None))) and not isinstance(rid, bool)
                  and req["op"] not in ("quit", "cancel")]
    unanswerable = len(ids) - len(answerable)
    # one answer per request (bad ids are refused once each too); non-JSON lines get one refusal each
    assert len(terminal) >= len(answerable) + unanswerable
    for argv in ran:  # whatever would have run passed some kind's allow-list
        assert any(priv.argv_allowed(k, argv, frozenset({"@download:x.deb"})) for k in STEP_KINDS), argv
        assert argv and argv[0] in ("apt-get", "dnf", "dpkg", "sh", "rm", "ldconfig", "update-initramfs", "dracut",
                                    "mkdir", "cp", "ln", "dism.exe", "dism", "wsl", "wsl.exe")
    for kind, edit, content in wrote:  # whatever would have been written is the helper's own text
        if edit.mode in ("write", "append"):
            assert content is not None and "evil" not in content and "/home/u" not in content
            assert "trusted=yes" not in content and "install nouveau" not in content
        priv.check_edit(kind, edit)
    assert ran and wrote  # the fuzz did reach the allowed paths, not only refusals
