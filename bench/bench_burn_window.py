"""The Verify page through a burn-in, in the real window (offscreen or under Xvfb): how long the event
loop stalls while samples stream at 10 Hz per GPU and the burn-in's tracker feeds the charts, and
screenshots of the page live and finished, at 1920x1080 and 1366x768, in English and 简体中文.

Two ways to feed it:
- a replay (`--run FILE`, default tests/fixtures/verify/demo_burnin_2gpu.json: synthetic, two GPUs, one
  with faults; tests/fixtures/verify/h200_burnin45.json is the recorded H200 run), sped up `--speed` times:
  its samples and events go through the page as a live run's do (the bridge's 10 Hz batches, a real
  BurnTracker the page reads); the finished page shows the recording judged by today's verdicts;
- `--fake-nvml SECONDS`: the page's own runner (ui.engine.run_verification: the real VerifyRun, NVML
  sampler thread, bridge and tracker) with every NVML call through the real pynvml into the stand-in
  libnvidia-ml (tests/fixtures/verify/fake_libnvidia_ml.c, built here) and a probe that prints the
  recorded run's phases and rates (`--run`) squeezed into SECONDS, on `--gpus` GPUs, in real time.

    QT_QPA_PLATFORM=offscreen .venv/bin/python bench/bench_burn_window.py [--run FILE] [--speed 20] [--shots DIR]
    QT_QPA_PLATFORM=offscreen .venv/bin/python bench/bench_burn_window.py --fake-nvml 30 --gpus 2 --lang en --size 1920x1080
Prints one JSON line: the stall figures (ms: the gaps between two 5 ms timer ticks while the run streams: the
median, the 95th and 99th percentiles and the longest; `result_max`: the longest while the finished result is drawn) and the screenshots written. Target: longest stall <= 50 ms.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DEMO = ROOT / "tests" / "fixtures" / "verify" / "demo_burnin_2gpu.json"


def replayer(v, speed: float, page, plain: bool = False):
    """A verify runner (listener, seconds, cancel) that replays `v`: samples to the listener, events to a
    real BurnTracker that the page reads as it reads a live run's."""
    from types import SimpleNamespace

    from app.verify.burnin import BurnTracker

    def run(listener, _seconds, cancel: threading.Event):
        b = v.burn_in
        tr = BurnTracker(b.seconds, started=b.started, thresholds={g.nvml_index or g.index: {
            "slowdown": g.temp_slowdown_c, "shutdown": g.temp_shutdown_c} for g in b.gpus}, xid_source=b.xid_source)
        page._run = SimpleNamespace(burn=None if plain else tr)
        timeline = sorted([(s.t_s, 0, s) for s in v.samples] + [(p.t0_s, 1, ("phase", p)) for p in b.phases]
                          + [(r.t_s, 2, ("rate", r)) for r in b.rates] + [(e.t_s, 3, ("event", e)) for e in b.events],
                          key=lambda x: (x[0], x[1]))
        start = time.monotonic()
        for t, _k, item in timeline:
            delay = t / speed - (time.monotonic() - start)
            if delay > 0 and cancel.wait(delay):
                return v.replace(cancelled=True)
            if not isinstance(item, tuple):
                tr.on_sample(item)
                listener.sample(item.t_s, item.to_json())
            elif item[0] == "phase":
                tr.on_event({"event": "burn", "kind": "phase", "phase": item[1].phase, "seconds": item[1].planned_s}, t)
            elif item[0] == "rate":
                r = item[1]
                tr.on_event({"event": "burn", "kind": "rate", "gpu": r.gpu_index, "phase": r.phase, "value": r.value,
                             "unit": r.unit, "series": r.series}, t)
            else:
                tr.events.append(item[1])
        return v
    return run


def fake_nvml_runner(v, seconds: float, gpus: int, page, tmp: str):
    """The page's real runner on the stand-in NVML, with a probe printing `v`'s burn-in (its phases in order,
    each phase's recorded rates) squeezed into `seconds`."""
    from tests.unit.burn_fakes import FakeLib, build_fake_lib, fake_probe, phase_events
    from ui import engine

    b = v.burn_in
    spans = [p for p in b.phases if p.t1_s > p.t0_s] or []
    total = sum(p.t1_s - p.t0_s for p in spans) or 1.0
    phases = [(p.phase, max(0.3, seconds * (p.t1_s - p.t0_s) / total)) for p in spans]
    rate = next((r.value for r in b.rates if r.unit == "tflops"), 650.0)
    lib_path = build_fake_lib(tmp)
    if lib_path is None:
        raise SystemExit("no C compiler for the stand-in libnvidia-ml")
    lib = FakeLib(lib_path)
    py = fake_probe(tmp, phase_events(phases, gpus=gpus, dtypes=tuple(b.dtypes) or ("bf16",), tflops=rate), gpus=gpus)

    def run(listener, _seconds, cancel):
        with lib:
            lib.configure(gpus)
            for g in range(gpus):
                lib.set(g, temp_c=40 + 5 * g)
            stop = threading.Event()

            def warm():  # the stand-in's temperature climbs as a loaded GPU's does, so the chart moves
                t0 = time.monotonic()
                while not stop.wait(0.5):
                    for g in range(gpus):
                        lib.set(g, temp_c=int(40 + 5 * g + 30 * min(1.0, (time.monotonic() - t0) / seconds)))
            threading.Thread(target=warm, daemon=True).start()
            try:
                return engine.run_verification(listener, 0.0, cancel, python=py, gpu_count=gpus, on_progress=page._progress,
                                               burn_in_s=seconds, on_run=page._set_run)
            finally:
                stop.set()
    return run


def stall_meter(app):
    """A 5 ms timer; the gaps between its ticks are how long the loop was busy."""
    from PySide6.QtCore import QTimer

    gaps: list[float] = []
    last = [time.perf_counter()]

    def tick():
        now = time.perf_counter()
        if gaps and gaps[-1] < 0:  # the clock was stopped (a screenshot): start again from now
            gaps.pop()
        else:
            gaps.append((now - last[0]) * 1000)
        last[0] = now
    t = QTimer()
    t.setInterval(5)
    t.timeout.connect(tick)
    return t, gaps


def parse_args(argv=None) -> argparse.Namespace:
    ap = argparse.ArgumentParser()
    ap.add_argument("--run", type=Path, default=DEMO, help="the recorded verification to replay (default: the 2-GPU demo)")
    ap.add_argument("--speed", type=float, default=20.0)
    ap.add_argument("--fake-nvml", type=float, default=0.0, metavar="SECONDS",
                    help="the page's real runner on the stand-in NVML for this long, instead of a replay")
    ap.add_argument("--gpus", type=int, default=1, help="with --fake-nvml: how many GPUs")
    ap.add_argument("--shots", type=Path, default=None)
    ap.add_argument("--prefix", default="burn", help="the screenshots' file name prefix")
    ap.add_argument("--lang", action="append", choices=("en", "zh_CN"))
    ap.add_argument("--for-s", type=float, default=0.0, help="stop the replay after this many seconds (0: to its end)")
    ap.add_argument("--size", action="append", help="WxH (default 1920x1080 and 1366x768)")
    ap.add_argument("--shot-at", type=float, default=0.0, metavar="SECONDS",
                    help="take the live screenshot this far into the run (its own time; default: soon after the start)")
    ap.add_argument("--plain", action="store_true", help="the same samples without the burn-in's views (the baseline)")
    return ap.parse_args(argv)


def main(argv=None) -> int:
    a = parse_args(argv)
    os.environ.setdefault("GPU_WIZARD_LIVE", "0")
    import ui  # noqa: F401
    from PySide6.QtWidgets import QApplication

    from app.verify.model import Verification
    from app.verify.session import rejudge
    from ui.main import build_wizard
    from ui.screenshots import wait
    from ui.wizard import Services

    app = QApplication.instance() or QApplication(sys.argv[:1])
    v = rejudge(Verification.loads(a.run.read_text(encoding="utf-8")))  # said as today's verdicts say it
    mode = f"fake_nvml {a.fake_nvml:g} s" if a.fake_nvml else f"replay x{a.speed:g}"
    out: dict = {"bench": "burn_window", "run": a.run.name, "mode": mode, "plain": a.plain,
                 "gpus": a.gpus if a.fake_nvml else len(v.burn_in.gpus if v.burn_in else ()), "shots": []}
    import tempfile

    for lang in a.lang or ["en", "zh_CN"]:
        with tempfile.TemporaryDirectory() as state:
            holder: dict = {}

            def runner(listener, seconds, cancel, holder=holder):  # the page passes `cancel` by its name
                return holder["run"](listener, seconds, cancel)
            services = Services(state_dir=state, verify_runner=runner)
            w = build_wizard(lang=lang, services=services)
            page = w.pages["verify"]
            holder["run"] = (fake_nvml_runner(v, a.fake_nvml, a.gpus, page, state) if a.fake_nvml
                             else replayer(v, a.speed, page, a.plain))
            sizes = [tuple(int(x) for x in z.split("x")) for z in a.size] if a.size else [(1920, 1080), (1366, 768)]
            for size in sizes:
                w.resize(*size)
                w.show()
                # chosen before the page is entered: entering starts the first run by itself, with the choice made
                page.burn.setCurrentIndex(page.burn.findData(0 if a.plain else 600))
                timer, gaps = stall_meter(app)
                ended: list[int] = []  # how many gaps the stream had when the run's result came (the page's _done)
                done = page._done

                def _done(v, done=done, gaps=gaps, ended=ended):
                    ended.append(len(gaps))
                    done(v)
                page._done = _done  # the task calls the page's attribute: the result's own drawing is timed apart
                w.jump_to("verify")
                page.start()
                wait(app, 0.5)  # the charts are built (once, on the first run) before the loop is timed
                timer.start()

                def far_enough(page=page) -> bool:  # into the load: samples shown, or (a run without samples) its rates
                    burn = getattr(page._run, "burn", None)
                    if a.shot_at:  # this far into the run (its own seconds)
                        return bool(len(page.state.series)) and page.state.series.t[-1] >= a.shot_at
                    if len(page.state.series) > min(250 * a.speed / 20, 5 * a.speed):
                        return True
                    return (not v.samples or a.fake_nvml > 0) and burn is not None and len(burn.rates) >= 8
                wait(app, until=far_enough, timeout=120)
                if a.shots:  # the grab itself is no stall of the page's: the clock stops for it
                    timer.stop()
                    a.shots.mkdir(parents=True, exist_ok=True)
                    p = a.shots / f"{a.prefix}-live-{lang}-{size[0]}x{size[1]}.png"
                    w.grab().save(str(p))
                    out["shots"].append(str(p))
                    gaps.append(-1.0)
                    timer.start()
                if a.for_s:
                    wait(app, a.for_s)
                    page.stop()
                wait(app, until=lambda pg=page: not pg.state.running, timeout=900)
                wait(app, 1.0)  # the result drawn: its passes of the loop are timed too
                timer.stop()
                cut = ended[0] if ended else len(gaps)
                g = sorted(gaps[2:cut]) or [0.0]
                out.setdefault("stall_ms", []).append({"lang": lang, "size": f"{size[0]}x{size[1]}", "ticks": len(g),
                                                       **{f"p{q}": round(g[max(0, int(len(g) * q / 100) - 1)], 1)
                                                          for q in (50, 95, 99)}, "max": round(g[-1], 1),
                                                       "result_max": round(max(gaps[cut:], default=0.0), 1)})
                if a.shots:
                    if not a.fake_nvml:
                        page.show_result(v)
                    wait(app, 0.5)
                    p = a.shots / f"{a.prefix}-done-{lang}-{size[0]}x{size[1]}.png"
                    w.grab().save(str(p))
                    out["shots"].append(str(p))
            w.close()
            w.shutdown()
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
