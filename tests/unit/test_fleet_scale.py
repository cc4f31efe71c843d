"""Fleet at scale without a different answer: snapshot-backed hosts whose files differ only in when they were
recorded share detection, redaction and planning, and every host still gets exactly the files and the plan
it would get alone (compared here with the unshared path, byte for byte, on every demo snapshot); files
are written without a fsync each and made durable at once before the record names them."""
from __future__ import annotations

import copy
import json
import os
from pathlib import Path

import pytest

from app.cli import main
from app.fleet import snapshots as fs
from app.fleet.record import FleetDir
from app.fleet.report import facts_row
from app.report.snapshots import record_snapshot, redact_recorded
from app.system import SnapshotSystem

ROOT = Path(__file__).resolve().parents[2]
SNAPS = sorted((ROOT / "resources" / "snapshots").glob("*.json"))

try:
    import ansible  # noqa: F401
    HAVE_ANSIBLE = True
except ImportError:
    HAVE_ANSIBLE = False
needs_ansible = pytest.mark.skipif(not HAVE_ANSIBLE, reason="ansible-core not installed (the test extra installs it)")


def _variant(src: Path, dest: Path, created: object, note: str) -> Path:
    data = json.loads(src.read_text(encoding="utf-8"))
    data["created"] = created
    data["note"] = note
    dest.write_text(json.dumps(data), encoding="utf-8")
    return dest


def _alone(path: Path) -> tuple[bytes, bytes, bytes]:
    """A host's three files as the unshared path makes them: record, redact, detect again."""
    system = SnapshotSystem.load(path)
    private = record_snapshot(system, redact=False)
    shared = redact_recorded(copy.deepcopy(private), system)
    facts = facts_row(SnapshotSystem(private, name=path.name))
    return fs.json_bytes(private), fs.json_bytes(shared, indent=1), fs.json_bytes(facts, indent=1)


def test_alike_snapshots_share_work_and_each_host_gets_its_own_files(tmp_path):
    files: dict[str, Path] = {}
    for i, src in enumerate(SNAPS):
        for j, created in enumerate(("2026-01-01T00:00:05+00:00", "2026-03-04T05:06:07Z", "2025-12-31 23:59:59.123456+01:00")):
            files[f"h{i}-{j}"] = _variant(src, tmp_path / f"h{i}-{j}.json", created, f"bench host {i} {j}")
        # a recorded time that is no plain timestamp (it names a person): that host's work is its own
        files[f"h{i}-odd"] = _variant(src, tmp_path / f"h{i}-odd.json", "recorded by alice.example@corp.example.com", "x")
    fd = FleetDir(str(tmp_path / "fleet"))
    fd.make()
    reader = fs.SnapshotHosts(fd)
    for host, path in files.items():
        assert reader.record(host, str(path))[0] == "recorded"
    reader.flush()
    assert reader.solved == 2 * len(SNAPS)  # one per demo snapshot, and each odd one alone
    for host, path in files.items():
        private, shared, facts = _alone(path)
        assert Path(fd.private(host)).read_bytes() == private, host
        assert Path(fd.snapshot(host)).read_bytes() == shared, host
        assert (Path(fd.host_dir(host)) / "facts.json").read_bytes() == facts, host
        assert oct(os.stat(fd.private(host)).st_mode & 0o777) == "0o600"
    assert "alice" not in Path(fd.snapshot("h0-odd")).read_text() and "alice" in Path(fd.private("h0-odd")).read_text()
    keys = {h: reader.keys[h]["content"] for h in files}
    assert keys["h0-0"] == keys["h0-1"] == keys["h0-2"] != keys["h1-0"] and keys["h0-odd"] is None


def test_files_get_no_fsync_each_and_one_sync_at_the_end(tmp_path, monkeypatch):
    synced: list[int] = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real_fsync(fd))[1])
    fd = FleetDir(str(tmp_path / "fleet"))
    fd.make()
    reader = fs.SnapshotHosts(fd)
    for i in range(5):
        assert reader.record(f"h{i}", str(SNAPS[i % len(SNAPS)]))[0] == "recorded"
    assert synced == []  # 15 files written, none synced yet
    calls: list[str] = []
    monkeypatch.setattr(fs, "syncfs", lambda folder: (calls.append(folder), True)[1])
    reader.flush()
    assert calls == [fd.root] and synced == []
    reader.record("h9", str(SNAPS[0]))
    monkeypatch.setattr(fs, "syncfs", lambda folder: False)  # no syncfs here: each file and folder is synced
    reader.flush()
    assert len(synced) == 3 + 2  # three files, in two folders
    assert fs.syncfs(str(tmp_path)) in (True, False)  # the real one answers, never raises


def test_a_broken_snapshot_is_its_own_one_line_failure(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "gpu-wizard-snapshot/1", "files": [', encoding="utf-8")
    fd = FleetDir(str(tmp_path / "fleet"))
    fd.make()
    reader = fs.SnapshotHosts(fd)
    res, why, facts = reader.record("b", str(bad))
    assert res == "failed" and "bad.json" in why and "\n" not in why and facts is None
    assert reader.record("ok", str(SNAPS[0]))[0] == "recorded"


@needs_ansible
def test_hosts_alike_but_for_their_time_are_planned_once_each_named(tmp_path, capsys, monkeypatch):
    from app.fleet import plan as fplan

    h200 = next(p for p in SNAPS if "h200" in p.name)
    other = next(p for p in SNAPS if "h200" not in p.name)
    lines = ["[lab]"]
    for i in range(6):
        src = _variant(h200 if i < 4 else other, tmp_path / f"s{i}.json", f"2026-01-01T00:00:0{i}+00:00", f"n{i}")
        lines.append(f"n{i} gpu_wizard_snapshot={src}")
    inv = tmp_path / "inv.ini"
    inv.write_text("\n".join(lines) + "\n")
    d = tmp_path / "fleet"
    assert main(["fleet", "detect", "-i", str(inv), "-o", str(d), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["distinct_snapshots"] == 2
    rec = json.loads((d / "fleet-record.json").read_text())
    assert rec["hosts"]["n0"]["snapshot"]["content"] == rec["hosts"]["n3"]["snapshot"]["content"]
    # a private copy changed by hand after detect is no longer the content recorded: it is planned on its own
    p = Path(FleetDir(str(d)).private("n3"))
    p.write_text(p.read_text().replace('"created": "2026', '"created": "2027'))
    solved: list[str] = []
    real = fplan.host_plan
    monkeypatch.setattr(fplan, "host_plan", lambda path, opts: (solved.append(os.path.basename(path)), real(path, opts))[1])
    pb = tmp_path / "fleet.yml"
    assert main(["fleet", "plan", "-i", str(inv), "--snapshots", str(d), "-o", str(pb), "--offline",
                 "--no-syntax-check", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert sorted(solved) == ["n0.json", "n3.json", "n4.json"]
    groups = {tuple(g["hosts"]) for g in out["groups"]}
    assert groups == {("n0", "n1", "n2", "n3"), ("n4", "n5")}  # the same plan still shares a block
    plan = json.loads((d / "fleet-plan.json").read_text())
    assert {h["host"]: h["facts"]["source"] for h in plan["hosts"]} == {f"n{i}": f"snapshot:n{i}.json" for i in range(6)}
