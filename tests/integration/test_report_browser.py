"""The HTML report in a real browser (Debian's `chromium`, headless): it makes no network request,
it renders (a screenshot is saved), and every chart actually draws its data.

No network request: the report is served from a local HTTP server and Chromium writes a net log
(--log-net-log). Every URL request the *page* starts carries the page's origin as initiator;
the browser's own background requests (update checks, time sync) carry none. The test fails on
any page-initiated request, and on any request to the local server other than the page. A
control page with an external image and stylesheet proves the check catches them.

Charts: each chart is drawn alone in a fixed box and screenshotted; the pixels of its series
colour must be there (a chart with no points draws none: the control proves that too).

Chromium is installed by scripts/test.sh (apt-get, as root) when missing; when it cannot be
installed here the test installs it itself if it runs as root with apt-get, else it skips.
Set GPU_WIZARD_TEST_ARTIFACTS=DIR to keep the screenshots.
"""
from __future__ import annotations

import functools
import http.server
import json
import os
import re
import shutil
import socketserver
import subprocess
import threading
from pathlib import Path

import pytest

from app.report import build_report, render
from app.report.charts import PALETTE
from app.report.demo import demo_diagnosis, demo_facts, demo_recommendation, demo_verification, write_demo_session
from app.report.render_html import verification_charts

pytestmark = pytest.mark.integration

FIX = Path(__file__).resolve().parents[1] / "fixtures"


@pytest.fixture(scope="session")
def chromium():
    """Debian's chromium, which scripts/test.sh installs (as root, or through sudo when it can)."""
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if exe:
        return exe
    pytest.skip("Debian's chromium is not installed (scripts/test.sh installs it as root or with sudo; "
                "else: sudo apt-get install chromium)")


class _Server:
    """A local HTTP server for one folder that records every request line it gets."""

    def __init__(self, root: Path):
        self.requests: list[tuple[str, str]] = []
        rec = self.requests

        class Handler(http.server.SimpleHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_GET(self):
                rec.append(("GET", self.path))
                super().do_GET()

            def do_CONNECT(self):
                rec.append(("CONNECT", self.path))
                self.send_error(403)

            def do_POST(self):
                rec.append(("POST", self.path))
                self.send_error(403)

        self.httpd = socketserver.ThreadingTCPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(root)))
        self.port = self.httpd.server_address[1]
        self.origin = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()


def _chromium(exe: str, url: str, tmp: Path, screenshot: Path, size: tuple[int, int], netlog: Path | None = None):
    argv = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--no-first-run", "--no-default-browser-check", "--disable-sync",
            "--disable-extensions", "--hide-scrollbars", f"--user-data-dir={tmp / 'profile'}",
            f"--window-size={size[0]},{size[1]}", "--virtual-time-budget=4000", f"--screenshot={screenshot}"]
    if netlog:
        argv += [f"--log-net-log={netlog}", "--net-log-capture-mode=Default"]
    r = subprocess.run(argv + [url], capture_output=True, text=True, timeout=180)
    assert screenshot.is_file() and screenshot.stat().st_size > 1000, r.stderr[-2000:]
    return r


def _page_requests(netlog: Path, origin: str) -> list[str]:
    """URLs the page itself asked for (initiator = the page's origin), from Chromium's net log."""
    data = json.loads(netlog.read_text(encoding="utf-8", errors="replace"))
    start = data["constants"]["logEventTypes"]["URL_REQUEST_START_JOB"]
    urls = []
    for ev in data["events"]:
        p = ev.get("params") or {}
        if ev.get("type") == start and p.get("url"):
            if p.get("initiator") == origin or (p["url"].startswith(origin) and not p["url"].endswith("/page.html")):
                urls.append(p["url"])
    return urls


def _serve_and_load(exe: str, html_text: str, tmp: Path, size=(1100, 2400)):
    site = tmp / "site"
    site.mkdir(exist_ok=True)
    (site / "page.html").write_text(html_text, encoding="utf-8")
    shot, netlog = tmp / "page.png", tmp / "net.json"
    with _Server(site) as srv:
        _chromium(exe, f"{srv.origin}/page.html", tmp, shot, size, netlog)
        requests = list(srv.requests)
        origin = srv.origin
    return shot, _page_requests(netlog, origin), requests


def _keep(path: Path, name: str) -> None:
    d = os.environ.get("GPU_WIZARD_TEST_ARTIFACTS")
    if d:
        Path(d).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(d) / name)


def _full_report(tmp: Path):
    snap = json.loads((FIX / "report" / "planted_snapshot.json").read_text())
    sess = write_demo_session(tmp / "sessions", log_lines=5000)
    return build_report(facts=demo_facts(), recommendation=demo_recommendation(), session=sess,
                        verification=demo_verification(seconds=30), diagnosis=demo_diagnosis(), snapshot=snap)


def test_report_makes_no_network_request_and_renders(chromium, tmp_path):
    html = render(_full_report(tmp_path), "html")
    # Check the report without its Content-Security-Policy too: it must not even *ask* for anything.
    no_csp = re.sub(r"<meta http-equiv='Content-Security-Policy'[^>]*>", "", html)
    assert no_csp != html
    for name, text in (("csp", html), ("nocsp", no_csp)):
        d = tmp_path / name
        d.mkdir()
        shot, page_reqs, server_reqs = _serve_and_load(chromium, text, d)
        assert page_reqs == [], f"{name}: the report asked the network for {page_reqs}"
        local = [r for r in server_reqs if not r[1].startswith("http")]  # not proxied: what reached the server directly
        assert local == [("GET", "/page.html")], local
        _keep(shot, f"report-{name}.png")
    # the screenshot shows a rendered page: mostly white, with a fair amount of ink
    QImage = pytest.importorskip("PySide6.QtGui", reason="Qt cannot load here (its system libraries are missing)", exc_type=ImportError).QImage

    img = QImage(str(tmp_path / "csp" / "page.png"))
    assert img.width() == 1100 and img.height() == 2400
    dark = sum(1 for y in range(0, img.height(), 7) for x in range(0, img.width(), 7) if img.pixelColor(x, y).lightness() < 120)
    assert dark > 300


def test_the_network_check_catches_an_external_resource(chromium, tmp_path):
    bad = ("<!DOCTYPE html><html><head><link rel='stylesheet' href='https://fonts.example.com/css'></head>"
           "<body><p>x</p><img src='http://cdn.example.org/pixel.png'><img src='/local.png'></body></html>")
    _shot, page_reqs, server_reqs = _serve_and_load(chromium, bad, tmp_path, size=(400, 300))
    assert any("fonts.example.com" in u for u in page_reqs)
    assert any("cdn.example.org" in u for u in page_reqs)
    assert any(p == "/local.png" for _, p in server_reqs)


def _chart_ink(exe: str, charts: list[str], tmp: Path, colors: list[list[str]]) -> list[int]:
    """Draw each chart alone in a 720x240 box (one under the other) and count, per chart, the
    pixels close to its series or bar colours in the browser's screenshot."""
    import numpy as np
    QImage = pytest.importorskip("PySide6.QtGui", reason="Qt cannot load here (its system libraries are missing)", exc_type=ImportError).QImage

    boxes = "".join(f"<div style='width:720px;height:240px;overflow:hidden'>{c}</div>" for c in charts)
    page = tmp / "charts.html"
    page.write_text(f"<!DOCTYPE html><html><body style='margin:0;background:#fff'>{boxes}</body></html>", encoding="utf-8")
    shot = tmp / "charts.png"
    _chromium(exe, page.as_uri(), tmp, shot, (720, 240 * len(charts)))
    _keep(shot, "charts.png")
    img = QImage(str(shot)).convertToFormat(QImage.Format.Format_RGB888)
    w, h = img.width(), img.height()
    arr = np.frombuffer(img.constBits(), dtype=np.uint8, count=img.sizeInBytes()).reshape(h, img.bytesPerLine())[:, :w * 3]
    arr = arr.reshape(h, w, 3).astype(int)
    counts = []
    for i, cols in enumerate(colors):
        box = arr[i * 240:(i + 1) * 240]
        hit = np.zeros(box.shape[:2], dtype=bool)
        for color in cols:
            rgb = np.array([int(color[k:k + 2], 16) for k in (1, 3, 5)])
            hit |= np.abs(box - rgb).sum(axis=2) < 60
        counts.append(int(hit.sum()))
    return counts


def test_every_chart_draws_its_data_in_the_browser(chromium, tmp_path):
    ver = demo_verification(seconds=30, rate_hz=10)
    charts = verification_charts(ver)
    lines = [c for c in charts if "chart-line" in c]
    bars = [c for c in charts if "chart-bar" in c]
    assert len(lines) >= 5 and len(bars) >= 3
    # static: each line chart carries its 300 samples as points; each bar chart its bars
    for c in lines:
        pts = re.findall(r"<polyline[^>]*\spoints='([^']*)'", c)
        assert pts and all(len(p.split()) >= 300 for p in pts), c[:200]
    for c in bars:
        assert re.search(r"<rect class='bar'[^>]*width='([1-9][\d.]*)'", c), c[:200]
    # a broken chart (no points) and an empty one, as controls
    broken = re.sub(r"(<polyline[^>]*\spoints=')[^']*'", r"\1'", lines[0])
    empty = verification_charts({"samples": [{"t_s": 0, "gpu_index": 0}]})
    assert empty == [] or all("chart-empty" in c for c in empty)
    from app.report.charts import line_chart

    empty_chart = line_chart([("GPU 0", [])], title="GPU utilization", unit="%")
    drawn = _chart_ink(chromium, lines + bars + [broken, empty_chart], tmp_path,
                       [[PALETTE[0]]] * len(lines) + [["#2563eb", "#dc2626", "#93c5fd"]] * len(bars) + [[PALETTE[0]], [PALETTE[0]]])
    real, controls = drawn[:-2], drawn[-2:]
    assert all(n > 150 for n in real), drawn
    # the legend swatch is drawn even without data (10x10); a broken chart has no line beyond it
    assert all(n <= 110 for n in controls), controls


def test_report_prints_to_pdf(chromium, tmp_path):
    """Printable: Chromium's print-to-PDF of the report gives a multi-page PDF with the charts."""
    page = tmp_path / "r.html"
    page.write_text(render(_full_report(tmp_path), "html"), encoding="utf-8")
    pdf = tmp_path / "r.pdf"
    r = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                        f"--user-data-dir={tmp_path / 'profile'}", "--no-pdf-header-footer", f"--print-to-pdf={pdf}", page.as_uri()],
                       capture_output=True, text=True, timeout=180)
    assert pdf.is_file(), r.stderr[-2000:]
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF-")
    pages = len(re.findall(rb"/Type\s*/Page(?!s)", data))
    assert pages >= 3, pages
    _keep(pdf, "report.pdf")
