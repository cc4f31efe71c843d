"""Screenshots of every wizard page, in English and Simplified Chinese (scripts/screenshots.sh
runs this under Xvfb). The machine shown is the real H200 demo snapshot with the verification
recorded on it (tests/fixtures/verify/h200_long.json), opened as a support walkthrough; the
install is the labelled dry run; Troubleshoot diagnoses a real error text from
tests/fixtures/errors/.

    python -m ui.screenshots OUT_DIR [--lang en --lang zh_CN] [--size fit|WxH]
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Optional

import ui  # noqa: F401  (the PySide6 refcount guard)

from app import fileio

ROOT = Path(__file__).resolve().parents[1]
ERROR_TEXT = ROOT / "tests" / "fixtures" / "errors" / "nki_sm120_warning_laptop.txt"
VERIFICATION = ROOT / "tests" / "fixtures" / "verify" / "h200_long.json"
SNAPSHOT = ROOT / "resources" / "snapshots" / "h200-server-ubuntu2404.json"


def wait(app, seconds: float = 0.3, until=None, timeout: float = 20.0) -> None:
    end = time.monotonic() + (timeout if until else seconds)
    while time.monotonic() < end:
        app.processEvents()
        if until is not None and until():
            break
        time.sleep(0.01)
    settle = time.monotonic() + 0.25
    while time.monotonic() < settle:
        app.processEvents()
        time.sleep(0.01)


def make_report(folder: Path) -> Path:
    """A report of the H200 machine: its real snapshot, what the engine recommends and plans
    for it, and the verification recorded on it."""
    from app.choices import Choices
    from app.report import build_report, write_report
    from app.verify.model import Verification
    from ui import engine

    source, system, _ = engine.load_source(str(SNAPSHOT))
    facts = engine.detect_facts(system, torch=False)
    rec = engine.recommend(facts, Choices())
    plan = engine.build_plan(facts, rec, Choices())
    ver = Verification.from_json(fileio.loads(VERIFICATION.read_text(encoding="utf-8")))
    report = build_report(facts=facts, recommendation=rec, plan=plan, verification=ver, snapshot=system.data)
    path = folder / "h200-report.json"
    write_report(report, path, "json")
    return path


def shoot(out: Path, lang: str, size: Optional[tuple[int, int]], report: Path, state_dir: str) -> list[Path]:
    """Every page: the Welcome page as a user first sees it, then the H200 report's walkthrough
    (it opens on the recorded verification; the step list reaches the other pages)."""
    from PySide6.QtWidgets import QApplication

    from ui import engine
    from ui.main import build_wizard
    from ui.wizard import Services

    app = QApplication.instance()
    shots: list[Path] = []
    out.mkdir(parents=True, exist_ok=True)

    def grab(w, n: int, name: str) -> None:
        wait(app, 0.3)
        p = out / f"{n:02d}-{name}.png"
        w.grab().save(str(p))
        shots.append(p)

    def show(w) -> None:
        if size is not None:
            w.resize(*size)
        w.show()
        w.move(w.screen().availableGeometry().topLeft())

    first = build_wizard(lang=lang, services=Services(state_dir=state_dir))
    show(first)
    grab(first, 1, "welcome")
    first.close()
    first.shutdown()

    services = Services(state_dir=state_dir, install_backend=lambda s: engine.DryRunBackend(step_delay_s=0.05))
    w = build_wizard(snapshot=str(report), lang=lang, services=services)
    show(w)
    ver = w.pages["verify"]
    wait(app, until=lambda: ver.state.verification is not None)
    w.jump_to("system")
    wait(app, until=w.pages["system"].isComplete)
    grab(w, 2, "system")
    w.jump_to("recommendation")
    rec = w.pages["recommendation"]
    wait(app, until=rec.isComplete)
    rec.adv_toggle.setChecked(True)
    grab(w, 3, "recommendation")
    w.jump_to("plan")
    plan = w.pages["plan"]
    wait(app, until=lambda: plan.state.plan is not None)
    if plan.tree.topLevelItemCount() > 1:
        plan.tree.setCurrentItem(plan.tree.topLevelItem(1))
    grab(w, 4, "plan")
    w.jump_to("install")
    inst = w.pages["install"]
    wait(app, until=lambda: inst.result is not None)
    grab(w, 5, "install")
    w.jump_to("verify")
    wait(app, until=lambda: ver.state.verification is not None)
    grab(w, 6, "verify")
    w.jump_to("summary")
    grab(w, 7, "summary")
    ts = w.pages["troubleshoot"]
    w.jump_to("troubleshoot")
    ts.input.setPlainText(ERROR_TEXT.read_text(encoding="utf-8", errors="replace"))
    ts.diagnose()
    wait(app, until=lambda: ts.state.diagnosis is not None)
    grab(w, 8, "troubleshoot")
    w.close()
    w.shutdown()
    wait(app, 0.1)
    return shots


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Save a PNG of every wizard page.")
    ap.add_argument("out", type=Path)
    ap.add_argument("--lang", action="append", choices=("en", "zh_CN"))
    ap.add_argument("--size", default="fit", help="WxH, or 'fit': the size the wizard picks for this screen")
    a = ap.parse_args(argv)
    size = None if a.size == "fit" else tuple(int(x) for x in a.size.split("x"))
    import os

    os.environ.setdefault("GPU_WIZARD_LIVE", "0")  # the pictures show the bundled compatibility data, offline
    from ui.main import make_app

    make_app()
    with tempfile.TemporaryDirectory() as tmp:
        report = make_report(Path(tmp))
        for lang in a.lang or ["en", "zh_CN"]:
            for p in shoot(a.out / lang, lang, size, report, tmp):  # type: ignore[arg-type]
                print(p)
    return 0


if __name__ == "__main__":
    sys.exit(main())
