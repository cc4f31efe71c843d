"""`gpu-wizard detect` loads only what detection needs (issue 24: its cold start at most 1.5× python + NVML init;
bench/bench_detect_cold.py measures it): not the compat database, not the solver nor its models, no other
subcommand, not the diagnose rules' sentences — checked in a fresh process, live and on a snapshot, with the
files it opens seen by an audit hook. A planted import of the solver into detection is caught."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SNAP = ROOT / "tests" / "fixtures" / "report" / "planted_snapshot.json"
NOT_FOR_DETECT = ("app.compat.db", "app.compat.live", "app.recommend", "app.recommendation", "app.choices", "app.plan",
                  "app.run", "app.report", "app.diagnose", "app.verify", "app.fleet", "app.config",
                  "app.commands.recommend", "app.commands.plan", "app.commands.install", "app.commands.report",
                  "app.commands.diagnose", "app.commands.fleet", "app.commands.verify", "app.commands.snapshot")
CHILD = """
import json, sys, io, contextlib
sys.path.insert(0, {root!r})
opened = []
sys.addaudithook(lambda ev, args: opened.append(str(args[0])) if ev == "open" and isinstance(args[0], str) else None)
from app.cli import main
with contextlib.redirect_stdout(io.StringIO()) as out:
    rc = main({argv!r})
facts = json.loads(out.getvalue()) if "--json" in {argv!r} else {{}}
print(json.dumps({{"rc": rc, "modules": sorted(m for m in sys.modules if m == "app" or m.startswith("app.")),
                  "opened": opened, "findings": [f["message"] for f in facts.get("findings", [])]}}))
"""


def _run(argv: list[str], root: Path = ROOT) -> dict:
    r = subprocess.run([sys.executable, "-c", CHILD.format(root=str(root), argv=argv)], capture_output=True, text=True,
                       timeout=120, cwd=root, env={"PATH": "/usr/bin:/bin", "GPU_WIZARD_LIVE": "0", "HOME": "/nonexistent"})
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("argv", [["detect", "--json"], ["--snapshot", str(SNAP), "detect", "--json"],
                                  ["--lang", "zh_CN", "--snapshot", str(SNAP), "detect"]])
def test_detect_imports_only_what_detection_needs(argv):
    got = _run(argv)
    assert got["rc"] == 0
    loaded = [m for m in got["modules"] if any(m == x or m.startswith(x + ".") for x in NOT_FOR_DETECT)]
    assert loaded == []
    assert {"app.detect", "app.facts", "app.compat.gpus", "app.messages"} <= set(got["modules"])
    assert not [p for p in got["opened"] if p.endswith(("rules.json", "fixes.json")) or
                ("/resources/compat/" in p and p.endswith(".json"))]  # the GPU table (gpus.csv) it does read


def test_findings_still_read_from_the_catalogue():
    """The lighter start still says every finding (their English comes from the catalogue)."""
    got = _run(["--snapshot", str(SNAP), "detect", "--json"])
    assert got["findings"] and all(isinstance(m, str) and m for m in got["findings"])
    assert any(p.endswith("messages/en.json") for p in got["opened"])


def test_a_planted_solver_import_in_detection_is_caught(tmp_path):
    import shutil

    for d in ("app", "resources"):
        shutil.copytree(ROOT / d, tmp_path / d, ignore=shutil.ignore_patterns("__pycache__"))
    init = tmp_path / "app" / "detect" / "__init__.py"
    init.write_text(init.read_text(encoding="utf-8") + "\nimport app.recommend  # planted\n", encoding="utf-8")
    got = _run(["--snapshot", str(SNAP), "detect", "--json"], root=tmp_path)
    assert "app.recommend" in got["modules"] and "app.compat.db" in got["modules"]


def test_the_parser_of_one_subcommand_matches_the_whole_one():
    from app.cli import COMMANDS, build_parser, subcommand

    assert subcommand(["--snapshot", "detect", "recommend", "--json"]) == "recommend"  # "detect" is --snapshot's value
    assert subcommand(["--json", "detect"]) == "detect" and subcommand(["--help", "detect"]) is None
    assert subcommand(["snapshot.json"]) is None and subcommand([]) is None
    whole = build_parser()

    def options(parser, name):
        sub = next(a for a in parser._actions if a.dest == "command").choices[name]
        return sorted((tuple(a.option_strings), a.dest, str(a.default), a.required) for a in sub._actions)
    for name in COMMANDS:
        assert options(build_parser(name), name) == options(whole, name), name
