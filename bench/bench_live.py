"""How many index requests a live `recommend` makes, and its time with a cold and a warm cache,
against a 127.0.0.1 server serving PyTorch-index-sized PEP 503 pages (every torch 2.0-2.14 wheel
name for cp39-cp314(t) on 3 platforms per variant, like download.pytorch.org/whl/<variant>/torch/),
PyPI JSON documents and an apt Packages.gz. Optional --delay-ms adds a per-request latency.

    .venv/bin/python bench/bench_live.py [--repeat N] [--delay-ms MS]
"""
from __future__ import annotations

import argparse
import datetime as dt
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.choices import Choices, Mirrors  # noqa: E402
from app.compat import live  # noqa: E402
from app.recommend import recommend_live  # noqa: E402
from app.compat.db import load_db  # noqa: E402
from app.paths import resource  # noqa: E402
from app.recommend import recommend  # noqa: E402
from tests.unit.live_server import Server, _facts, pypi_json, simple_page, wheels  # noqa: E402

TAGS = ["cp39", "cp310", "cp311", "cp312", "cp313", "cp313t", "cp314", "cp314t"]
PLATS = ("manylinux_2_28_x86_64", "manylinux_2_28_aarch64", "win_amd64")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--delay-ms", type=float, default=0.0)
    a = ap.parse_args()
    db = load_db(resource("compat"))
    versions = [r.version for r in db.torch_releases]
    tvs = [r.torchvision for r in db.torch_releases if r.torchvision]
    s = Server()
    if a.delay_ms:
        orig = s.httpd.RequestHandlerClass.do_GET

        def slow(self, _o=orig):
            time.sleep(a.delay_ms / 1000)
            _o(self)
        s.httpd.RequestHandlerClass.do_GET = slow
    try:
        variants = sorted({v.variant for v in db.torch_variants})
        size = 0
        for variant in variants:
            t = simple_page("torch", variant, wheels("torch", versions, variant, TAGS, PLATS))
            v = simple_page("torchvision", variant, wheels("torchvision", tvs, variant, TAGS, PLATS))
            s.pages[f"/whl/{variant}/torch/"], s.pages[f"/whl/{variant}/torchvision/"] = t, v
            size = max(size, len(t))
        s.pages["/pypi/torch/json"] = pypi_json("torch", versions)
        s.pages["/pypi/torchvision/json"] = pypi_json("torchvision", tvs)
        facts = _facts()
        ch = Choices(mirrors=Mirrors(pytorch_index_url=s.url + "/whl"))
        t0 = time.perf_counter()
        for _ in range(a.repeat):
            recommend(facts, db, ch)
        data_ms = (time.perf_counter() - t0) / a.repeat * 1000
        cold, warm, reqs = [], [], []
        for _ in range(a.repeat):
            cache = Path(tempfile.mkdtemp(prefix="bench-live-")) / "c"
            f = live.Fetcher(cache=cache, timeout=4.0)
            t0 = time.perf_counter()
            rec, rep = recommend_live(facts, db, ch, fetcher=f, pypi_json=s.url + "/pypi", today=dt.date.today(), enabled=True)
            cold.append((time.perf_counter() - t0) * 1000)
            reqs.append(rep.requests)
            f2 = live.Fetcher(cache=cache, timeout=4.0)
            t0 = time.perf_counter()
            recommend_live(facts, db, ch, fetcher=f2, pypi_json=s.url + "/pypi", today=dt.date.today(), enabled=True)
            warm.append((time.perf_counter() - t0) * 1000)
            assert f2.requests == 0
        print(f"index pages: {len(variants)} variants x (torch, torchvision) + 2 PyPI JSON; largest page {size / 1024:.0f} KiB")
        print(f"recommend (data only):        {data_ms:7.1f} ms")
        print(f"recommend_live, cold cache:   {statistics.median(cold):7.1f} ms median ({min(cold):.1f}-{max(cold):.1f}), "
              f"{statistics.median(reqs):.0f} index requests (chose {rec.pytorch.version}+{rec.pytorch.index})")
        print(f"recommend_live, warm cache:   {statistics.median(warm):7.1f} ms median ({min(warm):.1f}-{max(warm):.1f}), 0 requests")
        if a.delay_ms:
            print(f"(each request delayed {a.delay_ms:.0f} ms)")
    finally:
        s.close()
    hostile(db, facts)
    return 0


def hostile(db, facts) -> None:
    """A mirror that drips one byte every 2 s, one whose pages redirect in a loop, one that sends a gzip bomb
    (64 MiB of nothing as Content-Encoding: gzip): each `recommend_live` ends within the total deadline."""
    from tests.unit.https_server import Hostile, gzip_bomb

    bomb = gzip_bomb(64 << 20)
    shapes = {"drip (1 byte / 2 s)": lambda h, p: h.drip(p, every_s=2.0),
              "redirect loop": lambda h, p: (h.redirect(p, p + "x/"), h.redirect(p + "x/", p)),
              f"gzip bomb ({len(bomb) >> 10} KiB -> 64 MiB)": lambda h, p: h.encoded(p, bomb)}
    for name, plant in shapes.items():
        h = Hostile()
        try:
            for v in sorted({v.variant for v in db.torch_variants}) + ["cpu"]:
                for proj in ("torch", "torchvision"):
                    plant(h, f"/whl/{v}/{proj}/")
            ch = Choices(mirrors=Mirrors(pytorch_index_url=h.url + "/whl"))
            f = live.Fetcher(timeout=30.0)  # a per-read timeout far past the deadline: only the total deadline ends it
            t0 = time.perf_counter()
            rec, rep = recommend_live(facts, db, ch, fetcher=f, pypi_json=None, today=dt.date.today(), enabled=True)
            took = time.perf_counter() - t0
            said = [w.code for w in rec.warnings if w.code.startswith("index_")]
            print(f"hostile mirror, {name:28s} {took * 1000:7.0f} ms (deadline {live.LIVE_DEADLINE_S:.0f} s), {rep.requests} requests, "
                  f"chose {rec.pytorch.version}+{rec.pytorch.index}, said {', '.join(said)}")
        finally:
            h.close()


if __name__ == "__main__":
    raise SystemExit(main())
