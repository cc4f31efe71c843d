"""Every playbook the fleet writes passes `ansible-lint --profile production` (the real ansible-lint, from
the test extra, offline): each demo host's plan (with the CUDA toolkit, cuDNN, an exact driver version
held, and a mirror with credentials, whose vars file is linted too), and the detect and verify
playbooks. Zero violations, counted."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli import main

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
SNAP = ROOT / "resources" / "snapshots"


def _lint_tool() -> str:
    here = Path(sys.executable).with_name("ansible-lint")
    found = str(here) if here.exists() else shutil.which("ansible-lint")
    if not found:
        pytest.skip("ansible-lint not installed (the test extra installs it)")
    return found


def test_every_generated_playbook_is_production_clean(tmp_path, capsys):
    lint = _lint_tool()
    inv = tmp_path / "inventory.ini"
    inv.write_text("[lab]\n" + "".join(f"{f.stem} gpu_wizard_snapshot={f}\n" for f in sorted(SNAP.glob("*.json"))))
    snaps = tmp_path / "fleet"
    assert main(["fleet", "detect", "-i", str(inv), "-o", str(snaps)]) == 0
    out = tmp_path / "pb"
    out.mkdir()
    for name, extra in (("plain", []), ("full", ["--toolkit", "--cudnn", "--driver-version", "580.95.05-0ubuntu1",
                                                 "--pytorch-mirror", "https://alice:s3cret-pw@mirror.example.org/whl"])):
        assert main(["fleet", "plan", "-i", str(inv), "--snapshots", str(snaps), "-o", str(out / f"{name}.yml"), "--offline",
                     "--no-syntax-check", *extra]) in (0, 1)
    capsys.readouterr()
    secrets = out / "full.secrets.yml"
    assert secrets.is_file() and oct(secrets.stat().st_mode & 0o777) == "0o600"
    assert "s3cret-pw" not in (out / "full.yml").read_text() and "s3cret-pw" in secrets.read_text()
    from app.fleet.playbooks import detect_playbook, verify_playbook

    (out / "detect.yml").write_text(detect_playbook())
    (out / "verify.yml").write_text(verify_playbook(quick=False, seconds=30))
    r = subprocess.run([lint, "--offline", "--profile", "production", "--nocolor", "-f", "pep8", *[p.name for p in sorted(out.glob("*.yml"))]],
                       cwd=out, capture_output=True, text=True, timeout=600,
                       env={**os.environ, "ANSIBLE_LINT_NODEPS": "1", "NO_COLOR": "1", "HOME": str(tmp_path)})
    violations = [ln for ln in r.stdout.splitlines() if re.match(r"^\S+\.yml:\d+", ln)]
    assert r.returncode == 0 and not violations, (r.stdout[-4000:] + r.stderr[-2000:])
    assert "Profile 'production' was required, and it passed" in r.stdout + r.stderr
