"""The desktop entry takes a file (%f) and offers the wizard for its own files only: a report
made by `gpu-wizard report` and a snapshot match the MIME types' magic; other HTML does not."""
from __future__ import annotations

import configparser
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LINUX = ROOT / "installers" / "linux"
NS = {"m": "http://www.freedesktop.org/standards/shared-mime-info"}


def _entry() -> configparser.SectionProxy:
    cp = configparser.ConfigParser(interpolation=None)
    cp.optionxform = str
    cp.read(LINUX / "gpu-wizard.desktop", encoding="utf-8")
    return cp["Desktop Entry"]


def _types() -> dict[str, list[tuple[str, int, int]]]:
    """type → [(string, first offset, last offset)] from the shared-mime-info package."""
    root = ET.parse(LINUX / "gpu-wizard-mime.xml").getroot()
    out = {}
    for mt in root.findall("m:mime-type", NS):
        matches = []
        for m in mt.findall("m:magic/m:match", NS):
            assert m.get("type") == "string"
            lo, _, hi = m.get("offset").partition(":")
            matches.append((m.get("value"), int(lo), int(hi or lo)))
        out[mt.get("type")] = matches
    return out


def _matches(data: bytes, rules) -> bool:
    for value, lo, hi in rules:
        if data.find(value.encode("utf-8"), lo, hi + len(value.encode("utf-8"))) != -1:
            return True
    return False


def test_desktop_entry_takes_a_file_and_lists_only_the_wizards_types():
    e = _entry()
    assert e["Exec"].split()[-1] == "%f"
    listed = [t for t in e["MimeType"].split(";") if t]
    assert listed and set(listed) == set(_types())
    assert not any(t in ("text/html", "application/json", "text/plain") for t in listed)  # never all HTML


def test_magic_matches_a_real_report_and_snapshot_and_nothing_else(tmp_path):
    out = tmp_path / "anything.html"  # the user may have renamed it: found by content
    r = subprocess.run([sys.executable, "-m", "app", "report", "--snapshot", str(ROOT / "resources" / "snapshots" /
                        "nodriver-rtx3060-ubuntu2204.json"), "-o", str(out)], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    types = _types()
    report, snapshot = types["application/x-gpu-wizard-report"], types["application/x-gpu-wizard-snapshot"]
    assert _matches(out.read_bytes(), report)
    snap = (ROOT / "tests" / "fixtures" / "real" / "h200" / "snapshot-h200.json").read_bytes()
    assert _matches(snap, snapshot) and not _matches(snap, report)
    other = b"<!DOCTYPE html><html><head><meta name='generator' content='Hugo 0.120'></head><body>gpu-wizard</body></html>"
    assert not _matches(other, report) and not _matches(b'{"format": "other/1"}', snapshot)


def test_file_argument_forms():
    """`gpu-wizard FILE` as the file manager calls it: a path, a file:// URL, after options."""
    from app.cli import _file_argument

    assert _file_argument(["/tmp/r.html"]) == ["--snapshot", "/tmp/r.html"]
    assert _file_argument(["--lang", "zh_CN", "/tmp/a b.json"]) == ["--lang", "zh_CN", "--snapshot", "/tmp/a b.json"]
    assert _file_argument(["file:///tmp/a%20b.html"]) == ["--snapshot", "/tmp/a b.html"]
    assert _file_argument(["--lang", "zh_CN"]) == ["--lang", "zh_CN"]  # an option's value is not a file
    assert _file_argument(["detect", "--json"]) == ["detect", "--json"]  # a subcommand is left alone
    assert _file_argument(["--snapshot", "x.json"]) == ["--snapshot", "x.json"]


def test_the_desktops_own_mime_database_names_the_files(tmp_path):
    """shared-mime-info builds the database from the package and GLib (what file managers use) names
    a renamed report and a snapshot by their content; other HTML stays text/html."""
    import os
    import shutil

    import pytest

    if not (shutil.which("update-mime-database") and shutil.which("gio")):
        pytest.skip("shared-mime-info's update-mime-database or GLib's gio is not installed here")
    share = tmp_path / "share"
    (share / "mime" / "packages").mkdir(parents=True)
    shutil.copy(LINUX / "gpu-wizard-mime.xml", share / "mime" / "packages" / "gpu-wizard.xml")
    r = subprocess.run(["update-mime-database", str(share / "mime")], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    report = tmp_path / "from-the-user.html"
    r = subprocess.run([sys.executable, "-m", "app", "report", "--snapshot", str(ROOT / "resources" / "snapshots" /
                        "wsl2-laptop-rtx4070-ubuntu2204.json"), "-o", str(report)], capture_output=True, text=True,
                       timeout=120, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    plain = tmp_path / "page.html"
    plain.write_text("<!DOCTYPE html><html><head><title>x</title></head><body>hello</body></html>")
    snap = tmp_path / "machine.json"
    shutil.copy(ROOT / "tests" / "fixtures" / "real" / "h200" / "snapshot-h200.json", snap)
    env = dict(os.environ, XDG_DATA_HOME=str(share), XDG_DATA_DIRS=f"{share}:/usr/share")

    def kind(p):
        out = subprocess.run(["gio", "info", "-a", "standard::content-type", str(p)], capture_output=True, text=True,
                             env=env, timeout=30).stdout
        return next((ln.split(":", 3)[-1].strip() for ln in out.splitlines() if "content-type" in ln), "")

    assert kind(report) == "application/x-gpu-wizard-report"
    assert kind(snap) == "application/x-gpu-wizard-snapshot"
    assert kind(plain) == "text/html"
