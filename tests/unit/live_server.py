"""A local HTTP server (127.0.0.1 only) speaking the PyTorch index's PEP 503 pages, PyPI's JSON and
apt Packages.gz, and the live recommendations made against it (every live warning code), shared by
test_live_index, test_recommend_i18n_params and the message-catalogue tests. Formats:
tests/fixtures/live/SOURCE.md."""
from __future__ import annotations

import datetime as dt
import gzip
import hashlib
import json
import threading
from functools import lru_cache
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit


def simple_page(project: str, variant: str, files: list[str]) -> bytes:
    """A PEP 503 page as download.pytorch.org writes it (tests/fixtures/live/SOURCE.md)."""
    out = ["<!DOCTYPE html>", "<html>", "  <body>", f"    <h1>Links for {project}</h1>"]
    for n in sorted(files):
        h = hashlib.sha256(n.encode()).hexdigest()
        out.append(f'    <a href="/whl/{variant}/{n.replace("+", "%2B")}#sha256={h}" data-dist-info-metadata="sha256={h}">{n}</a><br/>')
    return ("\n".join(out + ["  </body>", "</html>", ""])).encode()


def wheels(project: str, versions: list[str], variant: str, tags: list[str], plats=("manylinux_2_28_x86_64", "win_amd64")) -> list[str]:
    out = []
    for v in versions:
        for t in tags:
            py = t.rstrip("t")
            for p in plats:
                out.append(f"{project}-{v}+{variant}-{py}-{t}-{p}.whl")
    return out


def pypi_json(project: str, versions: list[str]) -> bytes:
    return json.dumps({"info": {"name": project}, "releases": {v: [{"filename": f"{project}-{v}-cp312-cp312-manylinux_2_28_x86_64.whl",
                                                                     "yanked": False}] for v in versions}, "urls": []}).encode()


class Server:
    """127.0.0.1 server of a path -> body table; counts requests; `down=True` answers 503."""

    def __init__(self):
        self.pages: dict[str, bytes] = {}
        self.hits: list[str] = []
        self.down = False
        self.fail: set[str] = set()  # paths answered 500
        srv = self

        class H(BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802
                path = urlsplit(self.path).path  # absolute-URI requests arrive when the server is used as a proxy
                srv.hits.append(self.path)
                body = None if srv.down or path in srv.fail else srv.pages.get(path)
                if body is None:
                    self.send_response(503 if srv.down else (500 if path in srv.fail else 404))
                    self.end_headers()
                    return
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *a):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), H)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=5)


def tv_metadata(torch_pin: str, tv_version: str) -> bytes:
    """A torchvision wheel's METADATA (PEP 658 `.metadata`) as PyTorch's index serves it: it pins one torch."""
    return (f"Metadata-Version: 2.1\nName: torchvision\nVersion: {tv_version}\nRequires-Python: >=3.10\n"
            f"Requires-Dist: numpy\nRequires-Dist: torch=={torch_pin}\n"
            "Requires-Dist: pillow!=8.3.*,>=5.3.0\nProvides-Extra: gdown\n\n").encode()


def serve_pytorch(s: Server, torch: dict, tv: dict, tags=("cp312",), pins: dict | None = None):
    """Pages of cu126/cu130/cu132; each torchvision wheel's `.metadata` pins the torch patch of `pins[tv]`, else the
    patch-aligned one (0.29.1 -> 2.14.1, as PyTorch releases them); pins[tv] = None serves no metadata."""
    pins = pins or {}
    for variant in ("cu126", "cu130", "cu132"):
        s.pages[f"/whl/{variant}/torch/"] = simple_page("torch", variant, wheels("torch", torch.get(variant, []), variant, list(tags)))
        tvw = wheels("torchvision", tv.get(variant, []), variant, list(tags))
        s.pages[f"/whl/{variant}/torchvision/"] = simple_page("torchvision", variant, tvw)
        for n in tvw:
            ver = n.split("-")[1].split("+")[0]
            minor, patch = int(ver.split(".")[1]), ver.split(".")[2]
            pin = pins.get(ver, f"2.{minor - 15}.{patch}")
            if pin is not None:
                s.pages[f"/whl/{variant}/{n.replace('+', '%2B')}.metadata"] = tv_metadata(f"{pin}+{variant}", ver)


def _facts(os_id="ubuntu", version="24.04", driver="595.71.05", py="3.12"):
    from app.facts import DriverInfo, Facts, Gpu, OsInfo, PythonEnv

    d = DriverInfo(state="ok", version=driver, kernel_module="open") if driver else DriverInfo(state="not_installed")
    return Facts(os=OsInfo(platform="linux", id=os_id, version_id=version, arch="x86_64", package_manager="apt"), driver=d,
                 gpus=(Gpu(index=0, name="NVIDIA H200", compute_capability="9.0"),), python=PythonEnv(path="/usr/bin/python3", version=py))


@lru_cache(maxsize=None)
def live_outputs() -> tuple:
    """(id, facts, choices, Recommendation) of recommend_live() over scenarios reaching every live code."""
    import tempfile
    from pathlib import Path

    from app.choices import Choices, Mirrors
    from app.compat import live
    from app.recommend import recommend_live
    from app.compat.db import load_db

    db = load_db()
    today = dt.date(2026, 12, 1)
    out = []
    s = Server()
    try:
        def go(rid, facts, ch=None, pypi=True, day=today, fetcher=None, enabled=True, repo=False):
            ch = (ch or Choices()).replace(mirrors=Mirrors(pytorch_index_url=s.url + "/whl", nvidia_repo_url=(s.url + "/repos") if repo else None))
            f = fetcher or live.Fetcher(timeout=2.0)
            rec, _ = recommend_live(facts, db, ch, fetcher=f, pypi_json=(s.url + "/pypi") if pypi else None, today=day, enabled=enabled)
            out.append((rid, facts, ch, rec))

        serve_pytorch(s, {"cu130": ["2.14.0", "2.14.1"], "cu126": ["2.14.1"], "cu132": ["2.14.1", "2.15.0"]},
                      {"cu130": ["0.29.0", "0.29.1"], "cu126": ["0.29.1"], "cu132": ["0.29.1"]})
        s.pages["/pypi/torch/json"] = pypi_json("torch", ["2.14.1", "2.15.0"])
        s.pages["/pypi/torchvision/json"] = pypi_json("torchvision", ["0.29.1"])
        go("live_newer_patch_and_release", _facts())
        cache = Path(tempfile.mkdtemp(prefix="gpu-wizard-live-")) / "cache"
        go("live_cache_fill", _facts(), fetcher=live.Fetcher(cache=cache, timeout=2.0), pypi=False)
        s.fail = {"/whl/cu126/torchvision/"}
        go("live_partly_read", _facts(), pypi=False)
        s.fail = set()
        stanzas = lambda pk: gzip.compress("".join(f"Package: {p}\nVersion: 1\nArchitecture: amd64\n\n" for p in pk).encode())
        s.pages["/repos/debian12/x86_64/Packages.gz"] = stanzas(("cuda-toolkit-12-9", "nvidia-driver-pinning-575"))
        go("live_repo_lacks_branch", _facts("debian", "12", None), Choices(want_toolkit=True), pypi=False, repo=True)
        s.pages["/repos/debian13/x86_64/Packages.gz"] = stanzas(("cuda-toolkit-13-0", "nvidia-driver-pinning-580"))
        go("live_repo_checked", _facts("debian", "13", None), Choices(want_toolkit=True), pypi=False, repo=True)
        go("live_repo_unreachable", _facts("ubuntu", "22.04", None), Choices(want_toolkit=True), pypi=False, repo=True)
        serve_pytorch(s, {"cu130": ["2.13.0"], "cu126": ["2.13.0"], "cu132": ["2.13.0"]},
                      {"cu130": ["0.28.0"], "cu126": ["0.28.0"], "cu132": ["0.28.0"]})
        for variant in ("cu126", "cu130", "cu132"):  # 2.14.1 is there, but for cp313 only: no 2.14 wheel for cp312
            s.pages[f"/whl/{variant}/torch/"] = simple_page("torch", variant, wheels("torch", ["2.13.0"], variant, ["cp312"])
                                                            + wheels("torch", ["2.14.1"], variant, ["cp313"]))
        go("live_no_wheel_for_release", _facts(), pypi=False)
        s.pages = {"/whl/cpu/torch/": simple_page("torch", "cpu", wheels("torch", ["2.13.0", "2.14.1"], "cpu", ["cp312"])),
                   "/whl/cpu/torchvision/": simple_page("torchvision", "cpu", wheels("torchvision", ["0.28.0", "0.29.1"], "cpu", ["cp312"]))}
        go("live_cpu_only_mirror", _facts(), pypi=False)  # no cu* pages at all (404): the CPU build it carries, said so
        go("live_cpu_pin_not_on_mirror", _facts(), Choices(torch_version="2.12", torch_variant="cpu"), pypi=False)
        s.down = True
        go("live_cached_copy", _facts(), fetcher=live.Fetcher(cache=cache, ttl=0.0, timeout=1.0), pypi=False)
        go("live_unreachable_stale", _facts(), day=dt.date(2027, 6, 1))
        go("live_off", _facts(), enabled=False)
    finally:
        s.close()
    return tuple(out)
