"""Deep JSON, the way the audit built it: nesting that json.loads itself accepts (65, 500, 990 levels, under
the interpreter's own limit) inside a document that is otherwise valid, in every kind of file a subcommand
reads (snapshot, report .json and .html, verification, diagnosis, samples, config, compat data, session
files, fleet snapshots, fleet reports, the fleet's JSON arguments). Every read goes through the one
depth-limited loader (app/fileio.py): one line naming the depth, never a traceback, and the command
line's last-resort RecursionError catch is never what answers."""
from __future__ import annotations

import contextlib
import io
import json

import pytest

from app.cli import main
from app.plan import Plan, Step

DEPTHS = (65, 500, 990)
SNAP = {"format": "gpu-wizard-snapshot/1", "platform": "linux", "created": "2026-12-01T00:00:00Z",
        "files": {"/etc/os-release": 'ID=ubuntu\nVERSION_ID="24.04"\n'}}
PLAN = Plan(steps=(Step(id="run_x", kind="install_pytorch", title="t", why="t", commands=(("true",),)),)).to_json()
LAST_RESORT = "nested too deeply to be read"  # app/cli.py's catch-all: the loader must have answered first


def deep(n: int) -> str:
    return "[" * n + "]" * n


def doc(base: dict, key: str, n: int) -> str:
    """A valid document of `base` with a deep value under `key` (spliced in as text: json.dumps would recurse)."""
    return json.dumps(base)[:-1] + f', "{key}": ' + deep(n) + "}"


def _run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = main(argv)
        except SystemExit as e:
            rc = int(e.code or 0)
    return rc, out.getvalue(), err.getvalue()


def _check(argv: list[str], rc: int, err: str) -> None:
    assert "Traceback" not in err and "RecursionError" not in err and LAST_RESORT not in err, (argv, err[-600:])
    assert rc in (0, 1, 2), (argv, rc, err)
    lines = [ln for ln in err.splitlines() if ln.strip() and not ln.startswith("gpu-wizard: warning")]
    assert rc != 2 or len(lines) == 1, (argv, err)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("deep")
    (d / "ok.json").write_text(json.dumps(SNAP))
    for n in DEPTHS:
        (d / f"snap{n}.json").write_text(doc(SNAP, "nvml", n))
        report = {"format": "gpu-wizard-report/1", "created": "2026-12-01T00:00:00Z", "snapshot": SNAP}
        (d / f"report{n}.json").write_text(doc(report, "facts", n))
        (d / f"report{n}.html").write_text("<!doctype html><html><body><script type='application/json' "
                                           f"id='gpu-wizard-report'>{doc(report, 'verification', n)}</script></body></html>")
        (d / f"verify{n}.json").write_text(doc({"format": "gpu-wizard-verification/1"}, "gpus", n))
        (d / f"diag{n}.json").write_text(doc({"matches": []}, "input", n))
        (d / f"samples{n}.json").write_text(doc({"samples": []}, "extra", n))
        (d / f"config{n}.json").write_text(doc({"live_index": False}, "mirrors", n))
        (d / f"db{n}.json").write_text(doc({"format": "gpu-wizard-compat-bundle/1"}, "tables", n))
        fleet = d / f"fleet{n}"
        fleet.mkdir()
        (fleet / "h1.json").write_text(doc(SNAP, "nvml", n))
        (fleet / "fleet-run.json").write_text(doc({"format": "gpu-wizard-fleet-run/1"}, "hosts", n))
    return d


COMMANDS = ["detect --json --snapshot {snap}", "recommend --json --snapshot {snap}", "plan --json --snapshot {snap}",
            "install --dry-run --snapshot {snap}", "diagnose --json --snapshot {snap}", "verify --json --snapshot {snap}",
            "snapshot --snapshot {snap} -o {out}.json", "report --snapshot {snap} -o {out}.html",
            "detect --json --snapshot {report_json}", "report --snapshot {report_html} -o {out}.md",
            "verify --rejudge {verify}", "report --verification {verify} -o {out}.json --snapshot {ok}",
            "report --diagnosis {diag} -o {out}.json --snapshot {ok}", "diagnose --json --samples {samples} --snapshot {ok}",
            "recommend --json --config {config} --snapshot {ok}", "recommend --json --db {db} --snapshot {ok}",
            "fleet report {fleet} -o {out}-fleet.html", "fleet host-verify --prefix {out}-hv --from-snapshot {snap}",
            "fleet done --checks {deep_arg}", "fleet edit --edit {deep_arg} --backup-dir {out}-b"]


@pytest.mark.parametrize("n", DEPTHS)
@pytest.mark.parametrize("template", COMMANDS)
def test_every_subcommand_on_deep_json(files, template, n):
    d = files
    argv = template.format(snap=d / f"snap{n}.json", report_json=d / f"report{n}.json", report_html=d / f"report{n}.html",
                           verify=d / f"verify{n}.json", diag=d / f"diag{n}.json", samples=d / f"samples{n}.json",
                           config=d / f"config{n}.json", db=d / f"db{n}.json", fleet=d / f"fleet{n}", ok=d / "ok.json",
                           out=d / f"out-{n}", deep_arg=deep(n)).split()
    rc, _out, err = _run(argv)
    _check(argv, rc, err)


@pytest.mark.parametrize("name", ["plan.json", "state.json", "backups/backups.json", "events.jsonl", "facts.json"])
def test_session_files_nested_deep(tmp_path, files, name):
    for n in DEPTHS:
        s = tmp_path / f"s-{n}-{name.replace('/', '_')}"
        (s / "backups").mkdir(parents=True)
        (s / "plan.json").write_text(json.dumps(PLAN))
        text = deep(n) if name in ("backups/backups.json", "events.jsonl") else doc({"format": "gpu-wizard-state/3"}, "steps", n)
        (s / name).write_text(text + ("\n" if name.endswith("jsonl") else ""))
        for argv in (["install", "--yes", "--session", str(s)], ["install", "--undo", "--session", str(s)],
                     ["report", "--session", str(s), "-o", str(s / "r.html"), "--snapshot", str(files / "ok.json")]):
            rc, _out, err = _run(argv)
            _check(argv, rc, err)


def test_the_loader_names_the_depth(files):
    rc, _out, err = _run(["detect", "--json", "--snapshot", str(files / "snap500.json")])
    assert rc == 2 and "nested deeper than 64 levels" in err and LAST_RESORT not in err


def test_the_windows_open_a_file_on_deep_reports_snapshots_and_fleet_reports(files):
    from ui.engine import load_source

    for n in DEPTHS:
        for name in (f"snap{n}.json", f"report{n}.json", f"report{n}.html"):
            with pytest.raises(ValueError, match="nested deeper than 64"):
                load_source(str(files / name))


def test_the_welcome_pages_open_a_file_shows_one_line(qtbot, files, tmp_path):
    pytest.importorskip("PySide6")
    from ui.main import build_wizard
    from ui.wizard import Services

    w = build_wizard(lang="en", services=Services(state_dir=str(tmp_path)))
    qtbot.addWidget(w)
    w.show()
    page = w.pages["welcome"]
    for n in DEPTHS:
        for name in (f"report{n}.html", f"snap{n}.json", f"report{n}.json"):
            page.choose_file(str(files / name))
            assert not page.validatePage()
            assert page.error_banner.isVisibleTo(page) and "nested deeper than 64" in page.error_banner.text.text()
            assert w.current_page_id == "welcome"
        fleet_json = tmp_path / f"fleet{n}.json"
        fleet_json.write_text(doc({"format": "gpu-wizard-fleet-report/1"}, "hosts", n))
        assert page.choose_file(str(fleet_json)) in (False, True)  # a fleet report: its dialog's own error, no traceback
