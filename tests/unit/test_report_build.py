"""Reports: built from whatever exists, rendered to HTML/Markdown/JSON, nothing private survives
in any format (nor in exported session logs), bounded in size, and loadable for walkthrough."""
import html
import json
import re
from pathlib import Path

import pytest

from app.cli import main
from app.report import (FORMATS, ReportLoadError, build_report, export_session, load_report_json, log_excerpt,
                        read_session, render, write_report)
from app.report.charts import bar_chart, decimate, line_chart
from app.report.demo import demo_diagnosis, demo_facts, demo_plan, demo_recommendation, demo_verification
from app.report.redact import PLACEHOLDER_RE
from app.run.events import CommandFinished, StepStarted
from app.run.session import STATE_FORMAT, Session
from app.system import SnapshotSystem, validate_snapshot

FIX = Path(__file__).resolve().parents[1] / "fixtures"
SNAP = FIX / "report" / "planted_snapshot.json"
LOG = FIX / "report" / "planted_output.log"
PLANTED = json.loads((FIX / "report" / "planted_values.json").read_text())["values"]


def survivors(text: str) -> list[str]:
    """Planted values found in the text in any encoding a renderer may use."""
    forms = [text, html.unescape(text)]
    found = []
    for p in PLANTED:
        variants = {p, html.escape(p), json.dumps(p)[1:-1], p.replace("&", "\\u0026").replace("<", "\\u003c")}
        if any(v.lower() in f.lower() for v in variants for f in forms):
            found.append(p)
    return found


def planted_session(tmp_path: Path) -> Path:
    """A real session folder (app/run's Session) whose output holds the planted log."""
    s = Session.create(tmp_path / "sessions")
    snap = json.loads(SNAP.read_text())
    plan = demo_plan()
    plan["steps"][2]["commands"] = [["/usr/bin/python3", "-m", "venv", "/home/mbrandt/.venvs/gpu"]]
    s.write_json("plan.json", plan)
    s.write_json("facts.json", demo_facts())
    for line in LOG.read_text().splitlines():
        s.write_output("install_toolkit", "stdout", line)
    # what the executor writes: each command in commands.log and the journal, each step's end in the run state
    for sid, argv, rc, dur, note in (("update_index", ["apt-get", "update"], 0, 8.2, ""),
                                     ("install_toolkit", ["apt-get", "install", "-y", "cuda-toolkit-13-0"], 100, 3.1,
                                      f"proxy {snap['env']['https_proxy']}")):
        s.log_event(StepStarted(sid, 0, 4, sid))
        s.log_command(sid, argv, rc, dur, note=note)
        s.log_event(CommandFinished(sid, tuple(argv), rc, rc == 0, dur, note))
    s.save_state({"format": STATE_FORMAT, "status": "error", "failed_step": "install_toolkit", "reboot_pending": False,
                  "steps": {"update_index": {"status": "ok", "message": "", "duration_s": 8.2, "rc": 0},
                            "install_toolkit": {"status": "error", "message": "apt-get failed with exit code 100",
                                                "duration_s": 3.1, "rc": 100}}})
    s.close()
    return s.dir


def _pieces(tmp_path):
    from app.detect import detect

    snap = json.loads(SNAP.read_text())
    facts = detect(SnapshotSystem(snap, name="planted_snapshot.json"))
    ver = demo_verification(seconds=30)
    ver["gpus"][0]["device"]["uuid"] = snap["nvml"]["devices"][0]["uuid"]
    diag = demo_diagnosis()
    diag["matches"][0]["evidence"][0]["message"] = "Could not connect to 10.42.7.19:3128 as mbrandt"
    sess = planted_session(tmp_path)
    return dict(facts=facts, recommendation=demo_recommendation(), session=sess, verification=ver, diagnosis=diag, snapshot=snap)


@pytest.fixture()
def full_report(tmp_path):
    return build_report(**_pieces(tmp_path))


def test_the_check_sees_planted_values_when_not_redacted(tmp_path):
    raw = build_report(**_pieces(tmp_path), redact=False)
    assert not raw.redaction.redacted
    for fmt in FORMATS:
        found = survivors(render(raw, fmt))
        assert "mbrandt" in found and "dgx-kestrel-07" in found, fmt
    assert len(survivors(render(raw, "json"))) == len(PLANTED)


def test_nothing_planted_survives_in_any_format(full_report, tmp_path):
    assert full_report.redaction.redacted
    for fmt in FORMATS:
        text = render(full_report, fmt)
        assert survivors(text) == [], fmt
    # and it did keep the useful parts
    h = render(full_report, "html")
    assert "NVIDIA H200" in h and "580.159.04" in h
    assert "Connection refused" in h


def test_placeholders_are_the_same_across_the_parts_of_a_report(full_report):
    data = full_report.to_json()
    user = data["snapshot"]["env"]["USER"]
    assert PLACEHOLDER_RE.fullmatch(user)
    assert f"/home/{user}/.venvs/gpu" in full_report.steps[2].commands[0]
    log = full_report.logs[0].text
    assert f"{user}@{data['snapshot']['env']['HOSTNAME']}:~$" in log
    gpu_uuid = data["snapshot"]["nvml"]["devices"][0]["uuid"]
    assert data["facts"]["gpus"][0]["uuid"] == gpu_uuid
    assert data["verification"]["gpus"][0]["device"]["uuid"] == gpu_uuid
    assert gpu_uuid in log
    assert user in data["diagnosis"]["matches"][0]["evidence"][0]["message"]


def test_session_steps_outcomes_and_log_excerpt(full_report):
    steps = {s.id: s for s in full_report.steps}
    assert [s.id for s in full_report.steps] == ["update_index", "install_toolkit", "create_venv", "install_pytorch"]
    assert steps["update_index"].status == "ok" and steps["update_index"].rc == 0 and steps["update_index"].duration_s == 8.2
    assert steps["install_toolkit"].status == "error" and steps["install_toolkit"].rc == 100
    assert steps["install_toolkit"].message == "apt-get failed with exit code 100"
    assert steps["create_venv"].status == "pending"
    assert full_report.session.status == "error" and full_report.session.commands_failed == 1
    ex = full_report.logs[0]
    assert ex.source == "output.log"
    focus = ex.text.split("\n")[ex.focus_line - ex.first_line]
    assert "RuntimeError" in focus or "Traceback" in focus or "E: Failed to fetch" in focus
    assert full_report.overall == "fail"
    assert any("failed" in h for h in full_report.headline)


def test_exported_session_logs_keep_nothing_private(tmp_path):
    sess = planted_session(tmp_path)
    # plus a raw copy of the planted log next to the session's own files
    (sess / "extra.log").write_text(LOG.read_text(), encoding="utf-8")
    out = tmp_path / "shared"
    names = export_session(sess, out)
    assert {"output.log", "commands.log", "plan.json", "state.json", "facts.json", "extra.log"} <= set(names)
    for n in names:
        text = (out / n).read_text(encoding="utf-8")
        assert survivors(text) == [], n
    assert re.search(r"<user-\d+>@<host-\d+>:~\$", (out / "extra.log").read_text())
    # one map across files: the same user placeholder in the log and the plan
    assert "/home/<user-1>/.venvs/gpu" in (out / "plan.json").read_text()
    assert json.loads((out / "state.json").read_text())["failed_step"] == "install_toolkit"


def test_load_report_json_gives_back_the_snapshot_and_stage_values(full_report, tmp_path):
    from app.detect import detect
    from app.facts import Facts
    from app.verify.model import Verification

    for fmt in ("json", "html"):
        p = tmp_path / f"r.{fmt}"
        write_report(full_report, p)
        got = load_report_json(p)
        assert got["redacted"] is True
        assert got["recorded"] == "2026-11-29T15:27:06+00:00"  # the snapshot's time, for the walkthrough banner
        assert isinstance(got["facts"], Facts) and isinstance(got["verification"], Verification)
        assert got["steps"] == full_report.steps
        snap = validate_snapshot(got["snapshot"])
        f = detect(SnapshotSystem(snap))
        assert f.gpus[0].name == "NVIDIA H200" and f.driver.version == "580.159.04"
        assert len(got["verification"].samples) == 300


def test_load_report_json_refuses_what_is_not_a_report(tmp_path):
    bad = {"x.json": "{\"format\": \"something-else/1\"}", "y.json": "{\"format\": \"gpu-wizard-report/1\", ",
           "z.html": "<html><body>hello</body></html>", "b.json": b"\xff\xfe\x00garbage"}
    for name, content in bad.items():
        p = tmp_path / name
        (p.write_bytes if isinstance(content, bytes) else p.write_text)(content)
        with pytest.raises(ReportLoadError) as e:
            load_report_json(p)
        assert name in str(e.value) and "\n" not in str(e.value)
    with pytest.raises(ReportLoadError):
        load_report_json(tmp_path / "missing.json")


def test_a_report_from_nothing_and_from_each_piece_alone():
    for kw in ({}, {"facts": demo_facts()}, {"recommendation": demo_recommendation()}, {"plan": demo_plan()},
               {"verification": demo_verification(seconds=2)}, {"diagnosis": demo_diagnosis()}):
        r = build_report(**kw)
        for fmt in FORMATS:
            assert render(r, fmt)
    assert build_report().overall == "unknown"
    assert build_report(verification=demo_verification(seconds=2)).overall == "warn"


def test_html_is_self_contained(full_report):
    h = render(full_report, "html")
    assert "<script src" not in h and "@import" not in h and "url(" not in h
    assert re.findall(r"<link[^>]*>", h) == ["<link rel='icon' href='data:,'>"]  # no favicon fetch
    for attr, value in re.findall(r"\s(src|href|action|poster|srcset|xlink:href)\s*=\s*['\"]([^'\"]*)", h):
        assert value.startswith("#") or value == "data:,", (attr, value)
    scripts = re.findall(r"<script([^>]*)>", h)
    assert scripts == [" type='application/json' id='gpu-wizard-report'"]
    assert "Content-Security-Policy" in h


def test_charts_draw_the_samples():
    ver = demo_verification(seconds=30, rate_hz=10, gpus=2)
    h = render(build_report(verification=ver), "html")
    charts = re.findall(r"<svg[^>]*class='chart chart-line'[^>]*>.*?</svg>", h, re.S)
    metrics = {re.search(r"data-metric='([^']*)'", c).group(1) for c in charts}
    assert {"util_pct", "mem_used_mib", "power_w", "sm_clock_mhz"} <= metrics
    util = next(c for c in charts if "data-metric='util_pct'" in c)
    lines = re.findall(r"<polyline[^>]*points='([^']*)'", util)
    assert len(lines) == 2  # one per GPU
    for pts in lines:
        coords = [tuple(map(float, p.split(","))) for p in pts.split()]
        assert len(coords) == 300
        xs = [x for x, _ in coords]
        assert xs == sorted(xs) and xs[-1] - xs[0] > 500  # spans the plot
        assert len({y for _, y in coords}) > 20  # not a flat line
    power = next(c for c in charts if "data-metric='power_w'" in c)
    assert "class='limit'" in power and "data-value='700'" in power
    bars = re.findall(r"<rect class='bar' data-label='([^']*)' data-value='([^']*)'", h)
    assert ("Host → GPU (pinned)", "53.8") in [(html.unescape(a), b) for a, b in bars]
    ceilings = re.findall(r"<rect class='ceiling'[^>]*data-value='([^']*)'", h)
    assert "63.02" in ceilings and "4814.3" in ceilings


def test_chart_primitives():
    empty = line_chart([("GPU 0", [])], title="Power", unit="W")
    assert "chart-empty" in empty and "no samples" in empty
    pts = [(i / 10, (i % 37) * 1.0) for i in range(5000)]
    svg = line_chart([("GPU 0", pts)], title="x", unit="u", max_points=400)
    n = len(re.search(r"\spoints='([^']*)'", svg).group(1).split())
    assert 200 <= n <= 402
    d = decimate(pts, 400)
    assert max(v for _, v in d) == 36.0 and min(v for _, v in d) == 0.0  # extremes kept
    nan = line_chart([("GPU 0", [(0, float("nan")), (1, 5.0), (2, 6.0)])], title="x", unit="u")
    assert "data-points='2'" in nan
    b = bar_chart([("a", None, 10.0)], title="t", unit="GB/s")
    assert "chart-empty" in b
    b = bar_chart([("a", 5.0, 10.0)], title="t", unit="GB/s")
    assert "50% of 10" in b


def test_size_stays_small_with_a_long_stress_test_and_a_huge_log(tmp_path):
    s = Session.create(tmp_path / "sessions")
    s.write_json("plan.json", demo_plan())
    for i in range(100_000):
        s.write_output("install_toolkit", "stdout", f"Get:{i} https://developer.download.nvidia.com/compute/cuda/repos/ubuntu2404/x86_64 "
                                                    f"libcublas-13-0 13.0.2.{i % 90}-1 [{i % 900} kB]")
    s.write_output("install_toolkit", "stderr", "E: Sub-process /usr/bin/dpkg returned an error code (1)")
    for i in range(20):
        s.write_output("install_toolkit", "stdout", f"after {i}")
    s.save_state({"format": STATE_FORMAT, "status": "error", "failed_step": "install_toolkit",
                  "steps": {"install_toolkit": {"status": "error", "message": "dpkg failed"}}})
    s.close()
    assert (s.dir / "output.log").stat().st_size > 10_000_000
    ver = demo_verification(seconds=30, rate_hz=10)
    assert len(ver["samples"]) >= 300
    r = build_report(facts=demo_facts(), verification=ver, session=s.dir, snapshot=json.loads(SNAP.read_text()))
    ex = r.logs[0]
    assert ex.total_lines == 100_021 and ex.truncated and ex.full_log.endswith("output.log")
    assert "E: Sub-process /usr/bin/dpkg returned an error code (1)" in ex.text.split("\n")[ex.focus_line - ex.first_line]
    for fmt in FORMATS:
        size = len(render(r, fmt).encode("utf-8"))
        assert size < 2 * 1024 * 1024, (fmt, size)
    assert "output.log" in render(r, "html") and "lines 99" in render(r, "html")


def test_log_excerpt_edges(tmp_path):
    p = tmp_path / "a.log"
    p.write_bytes(b"ok 1\nok 2\n\xff\xfe broken bytes\n" + b"x" * 10000 + b"\nTraceback (most recent call last):\n  File \"t.py\"\nValueError: boom\nlast")
    ex = log_excerpt(p)
    assert ex.focus_line == 5 and "ValueError: boom" in ex.text
    assert "more characters" in ex.text  # the 10,000-character line was cut
    p.write_text("all fine\nstill fine\n")
    ex = log_excerpt(p)
    assert ex.focus_line is None and ex.reason.startswith("the last lines") and ex.text == "all fine\nstill fine"
    p.write_text("")
    assert log_excerpt(p).total_lines == 0
    assert log_excerpt(tmp_path / "missing.log") is None


def test_read_session_tolerates_missing_and_broken_files(tmp_path):
    d = tmp_path / "s"
    d.mkdir()
    (d / "state.json").write_text("{broken")
    (d / "output.log").write_text("E: something failed\n")
    s = read_session(d)
    assert s.info.status is None and s.log.focus_line == 1
    assert len(s.notes) == 1 and "state.json" in s.notes[0] and "damaged" in s.notes[0]
    r = build_report(session=d)
    assert any("no plan.json" in n for n in r.notes) and any("run state was not read" in n for n in r.notes)
    assert render(r, "html")


# ---- the command ---------------------------------------------------------------------------


def test_cli_report_from_a_snapshot_with_session_and_verification(tmp_path, capsys):
    sess = planted_session(tmp_path)
    ver = tmp_path / "v.json"
    ver.write_text(json.dumps(demo_verification(seconds=5)))
    for name in ("r.html", "r.md", "r.json"):
        out = tmp_path / name
        rc = main(["--snapshot", str(SNAP), "report", "-o", str(out), "--session", str(sess), "--verification", str(ver)])
        assert rc == 0
        text = out.read_text(encoding="utf-8")
        assert survivors(text) == [], name
        assert "NVIDIA H200" in text
    assert json.loads((tmp_path / "r.json").read_text())["format"] == "gpu-wizard-report/2"
    assert (tmp_path / "r.html").read_text().startswith("<!DOCTYPE html>")
    out = tmp_path / "x.txt"
    assert main(["--snapshot", str(SNAP), "report", "-o", str(out), "--format", "md"]) == 0
    assert out.read_text().startswith("# GPU Setup Wizard report")


def test_cli_no_redact_warns_and_keeps_values(tmp_path, capsys):
    out = tmp_path / "raw.json"
    assert main(["--snapshot", str(SNAP), "report", "-o", str(out), "--no-redact"]) == 0
    err = capsys.readouterr().err
    assert "warning" in err and "--no-redact" in err
    assert "mbrandt" in out.read_text()


def test_cli_bad_input_is_one_clear_line(tmp_path, capsys):
    cases = [["report", "-o", str(tmp_path / "nodir" / "r.html")],
             ["report", "-o", str(tmp_path / "r.html"), "--session", str(tmp_path / "none")],
             ["report", "-o", str(tmp_path / "r.html"), "--verification", str(tmp_path / "none.json")]]
    for argv in cases:
        assert main(["--snapshot", str(SNAP), *argv]) == 2
        err = capsys.readouterr().err
        assert err.startswith("gpu-wizard: error: ") and err.count("\n") == 1 and "Traceback" not in err
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    assert main(["--snapshot", str(SNAP), "report", "-o", str(tmp_path / "r.html"), "--diagnosis", str(broken)]) == 2
    assert "not valid JSON" in capsys.readouterr().err


def test_real_h200_verification_renders_its_charts_and_figures():
    """tests/fixtures/verify/h200_long.json: `verify --json --seconds 10` on the real H200."""
    ver = json.loads((FIX / "verify" / "h200_long.json").read_text())
    r = build_report(verification=ver)
    h = render(r, "html")
    util = re.search(r"<svg[^>]*data-metric='util_pct'.*?</svg>", h, re.S).group(0)
    n_util = sum(1 for s in ver["samples"] if s.get("util_pct") is not None)
    pts = re.search(r"<polyline[^>]*\spoints='([^']*)'", util).group(1).split()
    assert n_util > 800 and 200 <= len(pts) <= 402  # decimated (bucket min and max kept) from 809 samples
    assert re.search(r"data-max='(9\d|100)(\.\d+)?'", util)  # the load phase reached full utilization
    b = ver["gpus"][0]["bandwidth"]
    assert f"data-value='{round(b['h2d_pinned_gbps'], 3):g}'" in h
    assert f"{b['pcie_theoretical_gbps']:,.2f} GB/s" in h
    order = ["skip", "pass", "warn", "fail"]
    worst = max((x["status"] for x in ver["layers"]), key=order.index)
    assert r.overall == worst  # the report's verdict is the verification's worst layer
    assert f"Verification: {worst.upper()}" in r.headline[0]
    md = render(r, "md")
    assert "| GPU utilization (%) | 0 |" in md


def test_a_real_diagnosis_of_the_planted_log_is_redacted_too(tmp_path):
    """app.diagnose quotes the user's error text (excerpt, evidence): the report redacts it."""
    from app.detect import detect
    from app.diagnose import diagnose

    snap = json.loads(SNAP.read_text())
    facts = detect(SnapshotSystem(snap))
    text = LOG.read_text() + "\nwhile running as mbrandt on dgx-kestrel-07 (10.42.7.19)\n"
    d = diagnose(text, facts)
    assert d.matches and d.matches[0].category == "driver_insufficient"
    r = build_report(facts=facts, diagnosis=d, snapshot=snap, logs=[("error.txt", text)])
    for fmt in FORMATS:
        out = render(r, fmt)
        assert survivors(out) == [], fmt
        assert "driver" in out.lower()
    assert r.logs[0].source == "error.txt" and "RuntimeError" in r.logs[0].text


def test_cli_session_last_picks_the_newest_session(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("GPU_WIZARD_SESSIONS", str(tmp_path / "none"))
    assert main(["--snapshot", str(SNAP), "report", "-o", str(tmp_path / "r.json"), "--session", "last"]) == 2
    assert "no install session" in capsys.readouterr().err
    sess = planted_session(tmp_path)
    monkeypatch.setenv("GPU_WIZARD_SESSIONS", str(sess.parent))
    assert main(["--snapshot", str(SNAP), "report", "-o", str(tmp_path / "r.json"), "--session", "last"]) == 0
    data = json.loads((tmp_path / "r.json").read_text())
    assert data["session"]["status"] == "error" and [s["status"] for s in data["steps"]][:2] == ["ok", "error"]


def test_a_ten_minute_stress_test_on_eight_gpus_stays_under_2_mb():
    ver = demo_verification(seconds=600, rate_hz=10, gpus=8)
    assert len(ver["samples"]) == 48_000
    r = build_report(verification=ver)
    kept = r.verification["samples"]
    assert len(kept) == 8 * 300
    assert any("thinned" in n for n in r.notes)
    g0 = [s["t_s"] for s in kept if s["gpu_index"] == 0]
    assert g0[0] == 0.0 and g0[-1] == 599.9  # the whole run is still covered
    for fmt in FORMATS:
        assert len(render(r, fmt).encode()) < 2 * 1024 * 1024, fmt


from app.paths import demo_snapshots  # noqa: E402


@pytest.mark.parametrize("path", demo_snapshots(), ids=lambda p: p.stem)
def test_cli_report_for_every_demo_snapshot(path, tmp_path):
    snap = json.loads(path.read_text(encoding="utf-8"))
    home = (snap.get("env") or {}).get("HOME") or (snap.get("env") or {}).get("USERPROFILE") or ""
    user = re.split(r"[\\\\/]", home)[-1] if re.search(r"(/home/|\\\\Users\\\\)[^\\\\/<]+$", home) else None
    for fmt in FORMATS:
        out = tmp_path / f"r.{fmt}"
        assert main(["--snapshot", str(path), "report", "-o", str(out)]) == 0
        text = out.read_text(encoding="utf-8")
        assert len(text) > 1000
        if user:
            assert not re.search(rf"(?<![\w-]){re.escape(user)}(?![\w-])", text), (fmt, user)
    got = load_report_json(tmp_path / "r.html")
    assert got["snapshot"] is not None and got["facts"] is not None
    # these demo machines hold no address, MAC or secret: anything found would be a version or a path taken wrongly
    assert not set(got["report"].redaction.placeholders) & {"ip", "mac", "secret", "email"}
