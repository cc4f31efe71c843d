"""Differential check of the redactor: a seeded corpus of every kind it redacts (IPv4/IPv6, MACs,
e-mails, tokens, key blocks, SIDs, Wi-Fi names, host names, paths, assignments, unicode), mixed at
random with separators and line lengths, plus the bench's dense and realistic generators and the real
fixtures, each redacted and hashed (output and placeholder counts) against the digests the redactor
gave before its single-pass rework (tests/fixtures/redact/differential.json). Any change in what is
redacted, or in a placeholder's number, changes a digest.

A deliberate change of what is redacted: check the new output by hand, then re-record with
    python tests/unit/test_redact_differential.py --record
(`--big` also records, or with `--check` checks, the bench's four 10 MB kinds: minutes of CPU)."""
from __future__ import annotations

import hashlib
import importlib.util
import json
import random
import string
import sys
from pathlib import Path
from typing import Any, Callable

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIX = ROOT / "tests" / "fixtures"
DIGESTS = FIX / "redact" / "differential.json"
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def _bench() -> Any:
    spec = importlib.util.spec_from_file_location("bench_redact_for_differential", ROOT / "bench" / "bench_redact.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


_AL = string.ascii_letters + string.digits
_HEX = "0123456789abcdef"
_KEY_KINDS = ("RSA ", "OPENSSH ", "EC ", "ENCRYPTED ", "", "PGP ")
_UNI = ["José", "Ünal", "Łukasz", "İlker", "straße", "ǅemal", "王小明", "Ολυμπία", "naïve", "ＦＵＬＬ", "Kelvin\u212a",
        "ﬁle", "Ⅻ", "e\u0301cole"]
_WORDS = ["the", "driver", "loaded", "CUDA", "version", "ubuntu", "admin", "dev", "build", "torch", "kernel", "nvidia",
          "error:", "ok", "==", "->", "x=1", "12.8", "GPU-", "a.b.c", "--", "#", "|", "(", ")", "[", "]", "host", "user"]


class Gen:
    """Random values of each kind the redactor knows, and lines that hold them in their contexts."""

    def __init__(self, seed: int):
        self.rnd = random.Random(seed)
        r = self.rnd
        self.users = [self.low(r.randint(3, 8)) for _ in range(6)] + ["ubuntu", "dev", "al", "José"]
        self.hosts = [f"{self.low(5)}-{r.randint(1, 99)}" for _ in range(4)] + ["box", "gpu-node7"]
        self.ssids = ["HomeNet 5G", "café-wifi", f"Lab_{self.low(4)}", "TP-LINK_A1B2", "home", "王家WiFi"]

    def low(self, n: int) -> str:
        return "".join(self.rnd.choice(string.ascii_lowercase) for _ in range(n))

    def tok(self, n: int, al: str = _AL) -> str:
        return "".join(self.rnd.choice(al) for _ in range(n))

    def hexs(self, n: int) -> str:
        return self.tok(n, _HEX)

    def ipv4(self) -> str:
        r = self.rnd
        return r.choice([lambda: ".".join(str(r.randint(0, 255)) for _ in range(4)), lambda: f"10.{r.randint(0, 255)}.0.{r.randint(1, 9)}",
                         lambda: "127.0.0.1", lambda: "0.0.0.0", lambda: "224.0.0.251", lambda: "255.255.255.0",
                         lambda: f"192.168.{r.randint(0, 9)}.{r.randint(1, 254)}", lambda: "999.1.1.1",
                         lambda: f"1.2.3.4.{r.randint(0, 9)}"])()

    def ipv6(self) -> str:
        r = self.rnd
        return r.choice([lambda: ":".join(f"{r.randint(0, 65535):x}" for _ in range(8)),
                         lambda: f"fe80::{r.randint(1, 65535):x}:{r.randint(1, 65535):x}%eth0",
                         lambda: f"2001:db8::{r.randint(1, 255):x}", lambda: "::1", lambda: "ff02::1", lambda: "::",
                         lambda: f"{r.randint(0, 23):02d}:{r.randint(0, 59):02d}:{r.randint(0, 59):02d}",
                         lambda: f"fd00:{self.hexs(4)}::{self.hexs(3)}", lambda: "1:2:3:4:5:6:7:8:9",
                         lambda: f"[{r.randint(1, 65535):x}::{r.randint(1, 9)}]:8080"])()

    def mac(self) -> str:
        r = self.rnd
        sep = r.choice(":-")
        n = r.choice([6, 6, 6, 8, 20, 7])
        m = sep.join(self.hexs(2) for _ in range(n))
        return r.choice([m, m.upper(), "00:00:00:00:00:00", "ff:ff:ff:ff:ff:ff"])

    def email(self) -> str:
        r = self.rnd
        return r.choice([f"{self.low(6)}@{r.choice(['example.org', 'corp.example.com', 'mail.lan', 'x.co'])}",
                         f"{self.low(3)}.{self.low(4)}+tag@{self.low(5)}.com", f"{r.choice(self.users)}@{r.choice(self.hosts)}",
                         f"git@github.com:{self.low(4)}/{self.low(5)}.git", "a@b", f"<{self.low(5)}@example.net>,"])

    def token(self) -> str:
        r = self.rnd
        return r.choice([lambda: "ghp_" + self.tok(36), lambda: "hf_" + self.tok(34), lambda: "sk-proj-" + self.tok(48),
                         lambda: "AKIA" + self.tok(16, string.ascii_uppercase + string.digits),
                         lambda: f"eyJ{self.tok(20)}.{self.tok(40)}.{self.tok(43)}", lambda: self.tok(r.randint(20, 80)),
                         lambda: self.hexs(64), lambda: "xoxb-" + self.tok(24), lambda: "glpat-" + self.tok(20),
                         lambda: "npm_" + self.tok(36), lambda: "AIza" + self.tok(35), lambda: self.tok(40) + "==",
                         lambda: "NVIDIA_Driver_Version_560_and_more_words_here", lambda: "_ZN3foo3barEv" + self.tok(30)])()

    def key_block(self) -> str:
        r = self.rnd
        kind = r.choice(_KEY_KINDS)
        label = f"{kind}PRIVATE KEY" + (" BLOCK" if kind == "PGP " else "")
        body = "\n".join(self.tok(64, _AL + "+/") for _ in range(r.randint(1, 4))) + "\n" + self.tok(8, _AL) + "=="
        end = f"-----END {label}-----" if r.random() < 0.8 else "not armour: the END line is missing"
        block = f"-----BEGIN {label}-----\n{body}\n{end}"
        if r.random() < 0.2:
            block = ("PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nPublic-Lines: 1\n" + self.tok(40)
                     + f"\nPrivate-Lines: 1\n{self.tok(44)}\nPrivate-MAC: {self.hexs(8)}")
        return block.replace("\n", "\\n") if r.random() < 0.2 else block

    def sid(self) -> str:
        r = self.rnd
        return r.choice([f"S-1-5-21-{r.randint(10**8, 4 * 10**9)}-{r.randint(10**8, 4 * 10**9)}-{r.randint(10**8, 4 * 10**9)}-"
                         f"{r.randint(500, 1200)}", "S-1-5-18", "S-1-5-32-544", f"S-1-12-1-{r.randint(1, 10**9)}-{r.randint(1, 10**9)}-"
                         f"{r.randint(1, 10**9)}-{r.randint(1, 10**9)}", f"s-1-5-21-{r.randint(1, 99)}-{r.randint(1, 99)}-{r.randint(1, 99)}"])

    def uuid(self) -> str:
        r = self.rnd
        u = "-".join(self.hexs(k) for k in (8, 4, 4, 4, 12))
        return r.choice([u, u.upper(), f"GPU-{u}", f"MIG-GPU-{u}", f"MIG-{u}", "00000000-0000-0000-0000-000000000000"])

    def path(self) -> str:
        r = self.rnd
        u = r.choice(self.users)
        return r.choice([f"/home/{u}/proj/{self.low(4)}.py", f"C:\\Users\\{u}\\AppData", f"/Users/{u}/Library",
                         f"\\\\wsl$\\Ubuntu\\home\\{u}\\x", f"C:\\\\Users\\\\{u}\\\\x", f"/data/{self.low(3)}{r.randint(1, 9)}/x",
                         f"~/{self.low(5)}", f"/home/{u}", "/root/.cache", f"/etc/NetworkManager/system-connections/{r.choice(self.ssids)}.nmconnection"])

    def host(self) -> str:
        r = self.rnd
        h = r.choice(self.hosts)
        return r.choice([f"http://{self.low(7)}:8080/job/x", f"https://{h}.corp.example.com/a", f"{h}.local", f"{self.low(4)}.lan",
                         f"\\\\{h}\\share\\f", f"https://git.internal/{self.low(3)}", f"ssh://{h}.home.arpa",
                         f"https://pypi.org/simple/{self.low(4)}/", f"https://{self.low(5)}.intranet/x?y=1",
                         f"https://{self.low(4)}:{self.tok(10)}@{h}.example.com/x", f"https://{self.tok(20)}@github.com/a",
                         f"https://hooks.slack.com/services/T{self.tok(9, string.ascii_uppercase)}/B{self.tok(8)}/{self.tok(24)}",
                         f"https://discord.com/api/webhooks/{r.randint(10**17, 10**18)}/{self.tok(60)}"])

    def line(self) -> str:
        """A line of one context the redactor learns from."""
        r = self.rnd
        u, h = r.choice(self.users), r.choice(self.hosts)
        s = r.choice(self.ssids)
        t = self.token()
        return r.choice([
            lambda: f"export API_TOKEN={t}", lambda: f"PASSWORD='{self.tok(12)}'", lambda: f'DB_PASS="{self.tok(6)} {self.tok(5)}"',
            lambda: f"secret: {self.tok(10)}", lambda: f"password = {self.tok(r.randint(3, 9))}", lambda: f"  token: {t},",
            lambda: f'{{"password": "{self.tok(9)}", "ssid": "{s}", "user": "{u}"}}',
            lambda: f"curl -H 'Authorization: Bearer {self.tok(32)}' https://api.example.com",
            lambda: f"mysql --password {self.tok(8)} -u {u}", lambda: f"--token \"{self.tok(5)} {self.tok(5)}\"",
            lambda: f"{u}@{h}:~$ nvidia-smi", lambda: f"[{u}@{h} ~]# ls", lambda: f"USER={u}", lambda: f"HOSTNAME={h}",
            lambda: f"HOME=/data/{self.low(4)}", lambda: f"Linux {h} 6.8.0-45-generic #45-Ubuntu SMP x86_64",
            lambda: f"{u}:x:{r.randint(1000, 1100)}:{r.randint(1000, 1100)}:{r.choice(_UNI)} {self.low(5)},,,:/home/{u}:/bin/bash",
            lambda: f"git config user.name \"{r.choice(_UNI)} {self.low(6).title()}\"", lambda: f"Author: {self.low(5).title()} <{self.email()}>",
            lambda: f"SSID: {s}", lambda: f"        ESSID:\"{s}\"", lambda: f"\tssid {s}", lambda: f"WIFI_SSID={s}",
            lambda: f"    SSID                   : {s}", lambda: f"{s}  {self.uuid()[-36:]}  wifi  wlan0",
            lambda: f"{s.replace(':', chr(92) + ':')}:802-11-wireless:wlp2s0", lambda: f"psk={self.tok(12)}", lambda: f"    Key Content            : {self.tok(10)}",
            lambda: f"Serial Number: {self.tok(12, string.ascii_uppercase + string.digits)}", lambda: f"machine-id: {self.hexs(32)}",
            lambda: f"    Cluster UUID                    : {self.uuid()[-36:]}", lambda: f"Node GUID: 0x{self.hexs(16)}",
            lambda: f"Kernel version: 5.15.{r.randint(1, 200)}.1", lambda: f"torch==2.{r.randint(0, 9)}.1.0 cudnn 9.1.0.70",
            lambda: f"inet {self.ipv4()}/24 brd {self.ipv4()}", lambda: f"inet6 {self.ipv6()}/64 scope link",
            lambda: f"link/ether {self.mac()} brd ff:ff:ff:ff:ff:ff", lambda: f"SID: {self.sid()}",
            lambda: f"| 0 NVIDIA H200 On | {self.uuid()} |", lambda: f"Get:1 {self.host()} [12 kB]",
            lambda: " ".join(r.choice(_WORDS) for _ in range(r.randint(1, 12))), lambda: " ".join(r.choices(_UNI, k=4)),
            lambda: self.key_block(), lambda: f"Mail to {self.email()} from {self.path()}", lambda: "",
        ])()

    def value(self) -> str:
        r = self.rnd
        return r.choice([self.ipv4, self.ipv6, self.mac, self.email, self.token, self.sid, self.uuid, self.path, self.host,
                         lambda: r.choice(self.users), lambda: r.choice(self.hosts), lambda: r.choice(_UNI),
                         lambda: r.choice(_WORDS), lambda: r.choice(self.ssids)])()

    def text(self, n_lines: int, glue: bool) -> str:
        r = self.rnd
        out = []
        for _ in range(n_lines):
            if r.random() < 0.5:
                out.append(self.line())
            else:  # values side by side, with punctuation between (one piece, or several)
                seps = [" ", "", "=", ":", "/", "\t", '"', "'", ",", "@", "(", ")", ";", "\\", "\r", " | "] if glue else [" "]
                out.append("".join(self.value() + r.choice(seps) for _ in range(r.randint(1, 8))))
        return r.choice(["\n", "\n", "\r\n", " "]).join(out)


def corpus() -> dict[str, str]:
    """name -> text: the bench's kinds (small) and shapes, the fixtures, and random mixes."""
    b = _bench()
    out = {f"kind {k}": v for k, v in b.kinds(200_000).items()}
    out.update({f"shape {k}": v for k, v in b.shapes(5000).items()})
    texts = []
    for p in sorted(p for d in ("real", "report", "errors", "diagnose") for p in (FIX / d).rglob("*") if p.is_file()):
        try:
            texts.append(p.read_text(encoding="utf-8"))
        except (UnicodeDecodeError, OSError):
            continue
    out["fixtures"] = "\n".join(texts)
    for i in range(48):
        g = Gen(1000 + i)
        out[f"mix {i:02d}"] = g.text(g.rnd.choice([5, 40, 300, 1500]), glue=bool(i % 2))
    g = Gen(7)
    for name, fn in (("ipv4", g.ipv4), ("ipv6", g.ipv6), ("mac", g.mac), ("email", g.email), ("token", g.token),
                     ("sid", g.sid), ("uuid", g.uuid), ("path", g.path), ("host", g.host), ("key", g.key_block)):
        out[f"dense {name}"] = "\n".join(" ".join(fn() for _ in range(6)) for _ in range(400))
    return out


def _digest(out: str, counts: dict[str, int]) -> str:
    return hashlib.sha256((out + json.dumps(counts)).encode()).hexdigest()[:32]


def digests(redact: Any) -> dict[str, str]:
    got = {}
    for name, text in corpus().items():
        r = redact.Redactor()
        got[name] = _digest(r.text(text), r.counts())
    # one Redactor over several texts (learned in one, replaced in the next), and JSON-like data
    g = Gen(99)
    r = redact.Redactor(users=["ubuntu", "carol"], hosts=["ws-7.corp.example"], secrets=["hunter2hunter2"])
    outs = [r.text(g.text(200, glue=True)) for _ in range(4)]
    got["one redactor, four texts"] = _digest("\x00".join(outs), r.counts())
    data = {"env": {"USER": "bob7", "HOME": "/data/bob7x", "API_KEY": g.token(), "WIFI_SSID": "home"},
            "/etc/hostname": "gpu-node7\n", "serial": 12345678, "log": [g.text(50, glue=True) for _ in range(3)],
            "gpu_uuid": "GPU-" + g.uuid()[-36:], "cudnn": "9.1.0.70", "commands": {"whoami": {"stdout": "bob7\n"}}}
    r = redact.Redactor()
    got["data"] = _digest(json.dumps(r.data(data), sort_keys=True), r.counts())
    return got


def big_digests(redact: Any, progress: Callable[[str], None] = lambda s: None) -> dict[str, str]:
    """The bench's four kinds at 10 MB (what bench_redact.py times)."""
    got = {}
    for name, text in _bench().kinds(10 * 1024 * 1024).items():
        r = redact.Redactor()
        got[f"10MB {name}"] = _digest(r.text(text), r.counts())
        progress(name)
    return got


def _recorded() -> dict[str, Any]:
    return json.loads(DIGESTS.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def _digests() -> dict[str, str]:
    import app.report.redact as redact

    return digests(redact)


def test_every_text_is_checked(_digests):
    assert sorted(_digests) == sorted(_recorded()["small"])


@pytest.mark.parametrize("name", sorted(_recorded()["small"]) if DIGESTS.exists() else [])
def test_same_output_as_recorded(name, _digests):
    assert _digests[name] == _recorded()["small"][name], f"{name}: the redacted output changed (see the docstring)"


if __name__ == "__main__":
    import app.report.redact as redact_mod

    if "--record" in sys.argv:
        rec: dict[str, Any] = {"small": digests(redact_mod)}
        rec["big"] = big_digests(redact_mod) if "--big" in sys.argv else (_recorded().get("big", {}) if DIGESTS.exists() else {})
        DIGESTS.parent.mkdir(parents=True, exist_ok=True)
        DIGESTS.write_text(json.dumps(rec, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"recorded {len(rec['small'])} small and {len(rec['big'])} big digests in {DIGESTS}")
    elif "--check" in sys.argv:
        want = _recorded()
        got = digests(redact_mod)
        bad = [k for k in want["small"] if got.get(k) != want["small"][k]]
        if "--big" in sys.argv:
            gb = big_digests(redact_mod, lambda s: print("  done", s, flush=True))
            bad += [k for k in want["big"] if gb.get(k) != want["big"][k]]
        print("differs:", bad if bad else "nothing")
        sys.exit(1 if bad else 0)
