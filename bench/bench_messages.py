"""Print what the message catalogue costs: loading both languages (cold, in a fresh process), rendering the
engine's sentences of a demo machine in each language, and the text output of `plan --lang` in English and
Simplified Chinese (the same pipeline, so the difference is the catalogue's share).

    .venv/bin/python bench/bench_messages.py [--repeat N]
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app import messages  # noqa: E402
from app.choices import Choices  # noqa: E402
from app.paths import demo_snapshots  # noqa: E402
from app.pipeline import Pipeline  # noqa: E402
from app.system import SnapshotSystem  # noqa: E402


def cold_load_ms() -> float:
    code = ("import time; t = time.perf_counter(); import app.messages as m; m.catalogue('en'); m.catalogue('zh_CN'); "
            "print((time.perf_counter() - t) * 1000)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return float(out.strip())


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=20)
    a = ap.parse_args()
    loads = [cold_load_ms() for _ in range(5)]
    print(f"catalogue load, both languages, cold process: median {statistics.median(loads):.1f} ms "
          f"({len(messages.catalogue('en')['messages'])} codes each)")
    snap = next(p for p in demo_snapshots() if "h200" in p.name)
    p = Pipeline(SnapshotSystem(json.loads(snap.read_text(encoding="utf-8"))))
    facts, rec, plan = p.facts(), p.recommendation(Choices()), p.plan(Choices())
    items = [("finding", f.code, f.params) for f in facts.findings]
    items += [("rec", w.code, w.params) for w in rec.warnings]
    items += [("rec", x.reason_code, x.reason_params) for x in (rec.pytorch, rec.driver, rec.cuda_toolkit, rec.cudnn) if x.reason_code]
    items += [("plan", c, s.params) for s in plan.steps for c in (s.title_code, s.why_code)]
    for lang in messages.LANGUAGES:
        times = []
        for _ in range(a.repeat):
            t = time.perf_counter()
            for d, c, prm in items:
                messages.render(d, c, prm, lang)
            times.append((time.perf_counter() - t) * 1e6 / len(items))
        print(f"render {lang:5}: {statistics.median(times):.1f} µs per sentence ({len(items)} sentences of {snap.stem})")
    for lang in messages.LANGUAGES:
        runs = []
        for _ in range(5):
            t = time.perf_counter()
            subprocess.run([sys.executable, "-m", "app", "plan", "--snapshot", str(snap), "--lang", lang], cwd=ROOT,
                           capture_output=True, check=True)
            runs.append((time.perf_counter() - t) * 1000)
        print(f"gpu-wizard plan --lang {lang:5}: median {statistics.median(runs):.0f} ms (whole process)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
