"""app.net, the one HTTP fetcher, against real local servers: the system trust store (a corporate CA installed
system-wide, in a private mount namespace or through OpenSSL's SSL_CERT_DIR, never in the real /etc), a total
deadline against a dripping server, redirect loops, HTTPS-to-HTTP redirects, size and decompression caps."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from app import net
from tests.unit.https_server import Hostile, gz, gzip_bomb, make_ca

ROOT = Path(__file__).resolve().parents[2]
SYSTEM_BUNDLE = Path("/etc/ssl/certs/ca-certificates.crt")
CHILD = """
import sys
sys.path.insert(0, {root!r})
from app import net
try:
    print("wizard:", net.get(sys.argv[1], deadline_s=5).body.decode())
except net.FetchError as e:
    print("wizard-error:", e)
import requests
try:
    requests.get(sys.argv[1], timeout=5)
    print("certifi: ok")
except requests.exceptions.SSLError:
    print("certifi: untrusted")
"""


@pytest.fixture(scope="module")
def tls(tmp_path_factory):
    d = tmp_path_factory.mktemp("tls")
    ca, cert, key = make_ca(d)
    s = Hostile(tls=(cert, key))
    s.pages["/hello"] = b"hello over TLS"
    yield s, ca, d
    s.close()


def _clean_env(**extra: str) -> dict[str, str]:
    drop = ("SSL_CERT_FILE", "SSL_CERT_DIR", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE", "PIP_CERT", "HTTPS_PROXY", "https_proxy",
            "HTTP_PROXY", "http_proxy")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env.update(extra)
    return env


def _child(tmp: Path, url: str, env: dict[str, str], wrap: list[str] = ()) -> str:  # type: ignore[assignment]
    script = tmp / "child.py"
    script.write_text(CHILD.format(root=str(ROOT)))
    r = subprocess.run([*wrap, sys.executable, str(script), url], env=env, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_a_ca_installed_in_the_system_bundle_is_trusted(tls, tmp_path):
    """The corporate CA appended to the system bundle (what update-ca-certificates writes), in a private mount
    namespace: the wizard trusts it as pip does; requests' own bundle (certifi) does not."""
    s, ca, _ = tls
    if os.geteuid() != 0 or not shutil.which("unshare") or not SYSTEM_BUNDLE.is_file():
        pytest.skip("needs root, unshare and a Debian-style system bundle for a private mount namespace")
    bundle = tmp_path / "ca-certificates.crt"
    bundle.write_bytes(SYSTEM_BUNDLE.read_bytes() + b"\n" + ca.read_bytes())
    inner = f"mount --bind {bundle} {SYSTEM_BUNDLE} && exec \"$@\""
    out = _child(tmp_path, s.url + "/hello", _clean_env(), ["unshare", "-m", "--propagation", "private", "sh", "-c", inner, "sh"])
    assert "wizard: hello over TLS" in out and "certifi: untrusted" in out, out
    # the real system bundle was never touched
    assert ca.read_bytes() not in SYSTEM_BUNDLE.read_bytes()


def test_a_ca_in_openssls_cert_dir_is_trusted_and_missing_it_is_one_line(tls, tmp_path):
    s, ca, _ = tls
    d = tmp_path / "certs"
    d.mkdir()
    r = subprocess.run(["openssl", "x509", "-hash", "-noout", "-in", str(ca)], capture_output=True, text=True, check=True)
    shutil.copy(ca, d / f"{r.stdout.strip()}.0")
    out = _child(tmp_path, s.url + "/hello", _clean_env(SSL_CERT_DIR=str(d)))
    assert "wizard: hello over TLS" in out and "certifi: untrusted" in out, out
    out = _child(tmp_path, s.url + "/hello", _clean_env())  # not installed: one line that names the way out
    line = next(x for x in out.splitlines() if x.startswith("wizard-error:"))
    assert "not trusted" in line and "--ca-bundle" in line


def test_ca_bundle_replaces_the_system_store(tls):
    s, ca, _ = tls
    assert net.get(s.url + "/hello", sess=net.session(ca_bundle=str(ca)), deadline_s=5).body == b"hello over TLS"
    with pytest.raises(net.FetchError, match="not trusted"):
        net.get(s.url + "/hello", sess=net.session(ca_bundle=str(SYSTEM_BUNDLE if SYSTEM_BUNDLE.is_file() else ca.with_name("none"))),
                deadline_s=5)


@pytest.fixture()
def hostile():
    s = Hostile()
    yield s
    s.close()


def test_a_dripping_server_is_cut_at_the_total_deadline(hostile):
    hostile.drip("/drip", every_s=0.5)  # each byte well inside any per-read timeout
    hostile.drip("/drip-headers", every_s=0.5, headers_too=True)
    for path in ("/drip", "/drip-headers"):
        t0 = time.monotonic()
        with pytest.raises(net.FetchError, match="within 1.5 s"):
            net.get(hostile.url + path, deadline_s=1.5)
        assert time.monotonic() - t0 < 2.5


def test_an_until_sooner_than_the_deadline_wins(hostile):
    hostile.drip("/drip", every_s=0.3)
    t0 = time.monotonic()
    with pytest.raises(net.FetchError):
        net.get(hostile.url + "/drip", deadline_s=30, until=time.monotonic() + 0.8)
    assert time.monotonic() - t0 < 1.8


def test_redirects_limited_and_loops_refused(hostile):
    hostile.pages["/end"] = b"arrived"
    hostile.redirect("/a", "/b")
    hostile.redirect("/b", "/end")
    assert net.get(hostile.url + "/a", deadline_s=5).body == b"arrived"
    hostile.redirect("/loop1", "/loop2")
    hostile.redirect("/loop2", "/loop1")
    with pytest.raises(net.FetchError, match="redirects"):
        net.get(hostile.url + "/loop1", deadline_s=5)
    for i in range(8):
        hostile.redirect(f"/chain{i}", f"/chain{i + 1}")
    with pytest.raises(net.FetchError, match="too many redirects"):
        net.get(hostile.url + "/chain0", deadline_s=5)
    assert hostile.hits.count("/chain5") == 1 and "/chain7" not in hostile.hits


def test_https_never_redirects_to_plain_http(tls, hostile):
    s, ca, _ = tls
    hostile.pages["/x"] = b"plain"
    s.redirect("/down", hostile.url + "/x")
    with pytest.raises(net.FetchError, match="HTTPS to http"):
        net.get(s.url + "/down", sess=net.session(ca_bundle=str(ca)), deadline_s=5)


def test_size_and_decompression_caps(hostile):
    hostile.pages["/big"] = b"x" * 300_000
    with pytest.raises(net.FetchError, match="more than"):
        net.get(hostile.url + "/big", deadline_s=5, max_bytes=100_000)
    bomb = gzip_bomb(64 << 20)  # 64 MiB of zeros in about 64 KiB
    assert len(bomb) < 200_000
    hostile.encoded("/bomb", bomb)
    t0 = time.monotonic()
    with pytest.raises(net.FetchError, match="decompresses to more than"):
        net.get(hostile.url + "/bomb", deadline_s=5, max_bytes=4 << 20)
    assert time.monotonic() - t0 < 3
    with pytest.raises(net.FetchError, match="decompresses to more than"):
        net.inflate(bomb, 1 << 20)
    hostile.encoded("/ok", gz(b"small page"))
    assert net.get(hostile.url + "/ok", deadline_s=5).body == b"small page"
    hostile.encoded("/br", b"\x00\x01", "br")
    with pytest.raises(net.FetchError, match="Content-Encoding"):
        net.get(hostile.url + "/br", deadline_s=5)
    with pytest.raises(net.FetchError, match="not valid compressed"):
        net.inflate(b"\x1f\x8b" + b"junk" * 10, 1 << 20)


def test_a_404_carries_its_status_and_a_dead_port_is_one_line(hostile):
    with pytest.raises(net.FetchError) as e:
        net.get(hostile.url + "/nothing", deadline_s=5)
    assert e.value.status == 404
    import socket

    with socket.socket() as sk:
        sk.bind(("127.0.0.1", 0))
        port = sk.getsockname()[1]
    with pytest.raises(net.FetchError) as e:
        net.get(f"http://127.0.0.1:{port}/", deadline_s=5)
    assert e.value.status is None and "\n" not in str(e.value)
