"""Pictures of the report's burn-in section (app/report/burn_html.py) in English and 简体中文: the section
alone with the report's own styles, rendered by headless Chromium.

    .venv/bin/python bench/burn_report_shots.py OUT_DIR [VERIFICATION.json ...]
Default: the synthetic two-GPU run (tests/fixtures/verify/demo_burnin_2gpu.json) and the real H200
45 s recording (tests/fixtures/verify/h200_burnin45.json).
"""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
FIX = ROOT / "tests" / "fixtures" / "verify"


def main(argv: list[str]) -> int:
    from app.report.burn_html import burn_html
    from app.report.render_html import CSS
    from app.report.words import LANG
    from app.verify.model import Verification
    from app.verify.session import rejudge

    out = Path(argv[0]).resolve() if argv else ROOT / "build" / "screenshots" / "burn-in"
    out.mkdir(parents=True, exist_ok=True)
    sources = [Path(x) for x in argv[1:]] or [FIX / "demo_burnin_2gpu.json", FIX / "h200_burnin45.json"]
    browser = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    for src in sources:
        v = rejudge(Verification.loads(src.read_text(encoding="utf-8"))).to_json()
        for lang in ("en", "zh_CN"):
            tok = LANG.set(lang)
            try:
                page = f"<html><head><meta charset='utf-8'><style>{CSS}</style></head><body><main>{burn_html(v)}</main></body></html>"
            finally:
                LANG.reset(tok)
            html = out / f"report-{src.stem}-{lang}.html"
            html.write_text(page, encoding="utf-8")
            if browser:
                subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1000,3300",
                                f"--screenshot={html.with_suffix('.png')}", html.as_uri()], capture_output=True, timeout=120)
            print(html.with_suffix(".png") if browser else html)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
