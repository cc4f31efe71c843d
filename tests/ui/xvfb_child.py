"""The wizard as the journeys see it, in a real window on a real X server (bench/gui_xvfb.py drives it
with xdotool). Like tests/ui/test_journeys.py: this computer is the recorded machine, the steps that
need root or the network go to the journey's fake runner; the verification is the fake verifier.

It writes, every 100 ms, where its visible buttons are on the screen (global centres) and which page
is shown, to the file given: the driver clicks by those positions, through the X server, as a
person's mouse does (it never calls a widget itself).

    python -m tests.ui.xvfb_child JOURNEY LANG STATE_DIR GEOMETRY_JSON [REPORT]
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import ui  # noqa: F401  (the PySide6 refcount guard)


def main(argv: list[str]) -> int:
    journey, lang, state_dir, geo = argv[:4]
    tmp = Path(state_dir)
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QAbstractButton, QApplication

    from tests.ui.test_journeys import JourneyRunner, _machine_services, _rtx4090_without_driver
    from ui.main import build_wizard, make_app
    from ui.wizard import Services

    app = make_app()
    if os.environ.get("GPU_WIZARD_THEME") == "dark":
        from PySide6.QtGui import QColor, QPalette

        app.setStyle("Fusion")
        pal = QPalette()
        for role, colour in ((QPalette.ColorRole.Window, "#2b2b2b"), (QPalette.ColorRole.WindowText, "#e6e6e6"),
                             (QPalette.ColorRole.Base, "#1e1e1e"), (QPalette.ColorRole.AlternateBase, "#2b2b2b"),
                             (QPalette.ColorRole.Text, "#e6e6e6"), (QPalette.ColorRole.Button, "#3a3a3a"),
                             (QPalette.ColorRole.ButtonText, "#e6e6e6"), (QPalette.ColorRole.Highlight, "#3d8ee0"),
                             (QPalette.ColorRole.HighlightedText, "#ffffff"), (QPalette.ColorRole.ToolTipBase, "#3a3a3a"),
                             (QPalette.ColorRole.ToolTipText, "#e6e6e6"), (QPalette.ColorRole.PlaceholderText, "#9a9a9a")):
            pal.setColor(role, QColor(colour))
        app.setPalette(pal)
    if journey == "workstation":
        services = _machine_services(tmp, _rtx4090_without_driver(), JourneyRunner())
        services.reboot = lambda: print("REBOOT requested", flush=True)
        w = build_wizard(lang=lang, services=services)
    elif journey == "wsl2":
        from app.paths import demo_snapshots

        demo = next(p for p in demo_snapshots() if "wsl2" in p.name)
        services = _machine_services(tmp, json.loads(demo.read_text(encoding="utf-8")), JourneyRunner())
        w = build_wizard(lang=lang, services=services)
    else:  # support: Welcome, then "Open a file…"
        w = build_wizard(lang=lang, services=Services(state_dir=str(tmp / "state")))
    w.fit_to_screen()
    w.show()
    w.move(w.screen().availableGeometry().topLeft())

    def dump() -> None:
        buttons = []
        for top in QApplication.topLevelWidgets():
            if not top.isVisible():
                continue
            for b in top.findChildren(QAbstractButton):
                if not (b.isVisible() and b.isEnabled()) or not b.text():
                    continue
                c = b.mapToGlobal(b.rect().center())
                vis = b.visibleRegion().boundingRect()
                r = b.devicePixelRatioF()  # xdotool moves in the screen's pixels (QT_SCALE_FACTOR=2: twice these)
                buttons.append({"text": b.text().replace("&", ""), "name": b.objectName(), "x": int(c.x() * r), "y": int(c.y() * r),
                                "window": top.objectName() or type(top).__name__, "shown": not vis.isEmpty()})
        g = w.frameGeometry()
        r = w.devicePixelRatioF()
        data = {"page": w.current_page_id, "buttons": buttons,
                "window": [int(g.x() * r), int(g.y() * r), int(g.width() * r), int(g.height() * r)],
                "screen": [int(w.screen().geometry().width() * r), int(w.screen().geometry().height() * r)]}
        tmp_file = geo + ".tmp"
        Path(tmp_file).write_text(json.dumps(data), encoding="utf-8")
        os.replace(tmp_file, geo)

    t = QTimer()
    t.timeout.connect(dump)
    t.start(100)
    rc = app.exec()
    w.shutdown()
    return int(rc)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
