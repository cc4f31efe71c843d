"""A 127.0.0.1 HTTP(S) server for the fetcher tests, with a throw-away CA (made here with `cryptography`)
and hostile answers: a slow drip, a redirect loop, a gzip bomb, a redirect to plain HTTP."""
from __future__ import annotations

import datetime as dt
import gzip
import ssl
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Callable, Optional
from urllib.parse import urlsplit


def make_ca(folder: Path) -> tuple[Path, Path, Path]:
    """(ca.pem, server.pem, server.key): a CA and a certificate for 127.0.0.1/localhost it signed."""
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    now = dt.datetime.now(dt.timezone.utc)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "GPU Wizard Test Corporate CA")])
    ca = (x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name).public_key(ca_key.public_key())
          .serial_number(x509.random_serial_number()).not_valid_before(now - dt.timedelta(days=1))
          .not_valid_after(now + dt.timedelta(days=30))
          .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
          .add_extension(x509.KeyUsage(digital_signature=True, key_cert_sign=True, crl_sign=True, content_commitment=False,
                                       key_encipherment=False, data_encipherment=False, key_agreement=False, encipher_only=False,
                                       decipher_only=False), critical=True)
          .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
          .sign(ca_key, hashes.SHA256()))
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (x509.CertificateBuilder().subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")]))
            .issuer_name(ca_name).public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - dt.timedelta(days=1)).not_valid_after(now + dt.timedelta(days=30))
            .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                           critical=False)
            .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
            .sign(ca_key, hashes.SHA256()))
    folder.mkdir(parents=True, exist_ok=True)
    paths = folder / "ca.pem", folder / "server.pem", folder / "server.key"
    paths[0].write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    paths[1].write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    paths[2].write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    return paths


def gzip_bomb(decompressed: int) -> bytes:
    """gzip of `decompressed` zero bytes (about 1000:1)."""
    import zlib

    c = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    block = bytes(1 << 20)
    out = bytearray()
    for _ in range(decompressed >> 20):
        out += c.compress(block)
    return bytes(out + c.flush())


class Hostile:
    """path -> handler(request handler) for answers a table cannot give."""

    def __init__(self, tls: Optional[tuple[Path, Path]] = None):
        self.pages: dict[str, bytes] = {}
        self.special: dict[str, Callable[[BaseHTTPRequestHandler], None]] = {}
        self.hits: list[str] = []
        srv = self

        class H(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self):  # noqa: N802
                path = urlsplit(self.path).path
                srv.hits.append(path)
                if path in srv.special:
                    try:
                        srv.special[path](self)
                    except OSError:
                        pass  # the client gave up (a deadline): that is the point
                    return
                body = srv.pages.get(path)
                if body is None:
                    self.send_response(404)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *a):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), H)
        self.httpd.daemon_threads = True
        scheme = "http"
        if tls:
            ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            ctx.load_cert_chain(str(tls[0]), str(tls[1]))
            self.httpd.socket = ctx.wrap_socket(self.httpd.socket, server_side=True)
            scheme = "https"
        self.url = f"{scheme}://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()

    def drip(self, path: str, every_s: float = 2.0, total: int = 1000, headers_too: bool = False) -> None:
        """A server that sends one byte every `every_s` seconds (the body, or the status line itself)."""
        def h(req: BaseHTTPRequestHandler) -> None:
            if headers_too:
                for b in b"HTTP/1.1 200 OK\r\n":
                    req.wfile.write(bytes([b]))
                    req.wfile.flush()
                    time.sleep(every_s)
                return
            req.send_response(200)
            req.send_header("Content-Length", str(total))
            req.end_headers()
            for _ in range(total):
                req.wfile.write(b"<")
                req.wfile.flush()
                time.sleep(every_s)
        self.special[path] = h

    def redirect(self, path: str, to: str) -> None:
        def h(req: BaseHTTPRequestHandler) -> None:
            req.send_response(302)
            req.send_header("Location", to)
            req.send_header("Content-Length", "0")
            req.end_headers()
        self.special[path] = h

    def encoded(self, path: str, body: bytes, encoding: str = "gzip") -> None:
        def h(req: BaseHTTPRequestHandler) -> None:
            req.send_response(200)
            req.send_header("Content-Encoding", encoding)
            req.send_header("Content-Length", str(len(body)))
            req.end_headers()
            req.wfile.write(body)
        self.special[path] = h

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=5)


def gz(data: bytes) -> bytes:
    return gzip.compress(data)
