"""Redaction of the four kinds a third audit found leaking, each by its class (not by the values here):
Wi-Fi names from the environment and keys named for them (and then everywhere), private key bodies
between their BEGIN/END lines (SSH, PEM, PKCS#8, PGP, PuTTY; escaped; cut off before END), internal
host names in URLs and UNC paths (intranet names, non-public top-level domains, intranet labels),
Windows SIDs. Public names and well-known SIDs stay. Plus: the splitting into pieces keeps text
that holds nothing private byte for byte."""
from __future__ import annotations

import json

import pytest

from app.report.redact import Redactor, redact_snapshot

OPENSSH = ("-----BEGIN OPENSSH PRIVATE KEY-----\n"
           "b3BlbnNzaC1rZXktdjEAAAAACmFlczI1Ni1jdHIAAAAGYmNyeXB0AAAAGAAAABBzXq\n"
           "Lm/9Qv+TpYw2ZkR8aN3s/DdE7hJfCuGbWiXoVyPlK0qt1M4nS5rA6eF7gH8iJ9kL\n"
           "qWn3+Zx==\n"
           "-----END OPENSSH PRIVATE KEY-----\n")
PKCS8 = ("-----BEGIN ENCRYPTED PRIVATE KEY-----\r\n"
         "MIIFHDBOBgkqhkiG9w0BBQ0wQTApBgkqhkiG9w0BBQwwHAQI3xQ7mVtZ2gsCAggA\r\n"
         "-----END ENCRYPTED PRIVATE KEY-----\r\n")
PGP = ("-----BEGIN PGP PRIVATE KEY BLOCK-----\nComment: exported\n\n"
       "lQVYBGZzcXsBDADHu2vQ7kLmN3pRsT5uVwXyZ0a1B2c3D4e5F6g7H8i9J0k1L2m3\n=x9Qa\n"
       "-----END PGP PRIVATE KEY BLOCK-----\n")
PUTTY = ("PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: eddsa-key-20250101\nPublic-Lines: 2\n"
         "AAAAC3NzaC1lZDI1NTE5AAAAIGm3Zr0qVXk9pTfW2cY7nHbL4sD8aE1uJ5oQ6iR2tM0\nAAAA\n"
         "Private-Lines: 1\nAAAAIPrivateLinePuttyBodyZq81nXw3v7Yk2mR5tL9sB4cD6fG0hJ\n"
         "Private-MAC: 7c1a\n")
BODY_LINES = {"OPENSSH": ["Lm/9Qv+TpYw2ZkR8aN3s/DdE7hJfCuGbWiXoVyPlK0qt1M4nS5rA6eF7gH8iJ9kL", "qWn3+Zx=="],
              "PKCS8": ["MIIFHDBOBgkqhkiG9w0BBQ0wQTApBgkqhkiG9w0BBQwwHAQI3xQ7mVtZ2gsCAggA"],
              "PGP": ["lQVYBGZzcXsBDADHu2vQ7kLmN3pRsT5uVwXyZ0a1B2c3D4e5F6g7H8i9J0k1L2m3", "=x9Qa"],
              "PUTTY": ["AAAAIPrivateLinePuttyBodyZq81nXw3v7Yk2mR5tL9sB4cD6fG0hJ"]}


@pytest.mark.parametrize("name,block", [("OPENSSH", OPENSSH), ("PKCS8", PKCS8), ("PGP", PGP), ("PUTTY", PUTTY)])
def test_private_key_bodies_are_one_secret_between_their_markers(name, block):
    for text in (f"cat ~/.ssh/id\n{block}done\n", json.dumps({"log": block})[9:-2],  # as printed, and JSON-escaped
                 block.replace("\n", "\\n")):
        out = Redactor().text(text)
        assert not [ln for ln in BODY_LINES[name] if ln in out], (name, out)
        assert "<secret-1>" in out
    out = Redactor().text(block)
    assert ("BEGIN" in block) <= ("BEGIN" in out and "END" in out)  # the markers stay: a key was here


def test_a_key_cut_off_before_its_end_line_loses_its_armour_not_the_log():
    text = "paste:\n" + OPENSSH.split("-----END")[0] + "Traceback (most recent call last):\n  File x\n"
    out = Redactor().text(text)
    assert "Lm/9Qv" not in out and "qWn3" not in out
    assert "Traceback (most recent call last):" in out and "File x" in out


def test_a_public_key_and_a_certificate_are_no_private_key_blocks():
    from app.report.redact.secrets import key_blocks

    text = ("-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----\n"
            "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n-----END CERTIFICATE-----\n")
    assert key_blocks(text) == []
    out = Redactor().text(text)
    assert "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n" in out and "-----END PUBLIC KEY-----" in out


def test_wifi_names_from_the_environment_and_keys_then_everywhere():
    snap = {"format": "gpu-wizard-snapshot/1", "platform": "linux",
            "env": {"WIFI_SSID": "Zaunkoenig-Mesh", "HOTSPOT_NAME": "Lindenhof 2.4", "WLAN": "Birkenweg7",
                    "WIFI_INTERFACE": "wlp2s0", "WIFI_PASSWORD": "Fliederbusch!9"},
            "files": {"/etc/netplan/50-wifi.yaml": "network:\n  wifis:\n    wlp2s0:\n      access-points:\n"
                                                   "        \"Zaunkoenig-Mesh\":\n          password: \"x\"\n",
                      "/home/u/notes.json": json.dumps({"ssid": "Amselgarten", "bssid": "3c:37:86:5a:11:f0"})},
            "commands": {"iwgetid -r": {"rc": 0, "stdout": "Zaunkoenig-Mesh\n", "stderr": ""},
                         "journalctl -b": {"rc": 0, "stdout": "joined Lindenhof 2.4 and Birkenweg7; roamed to Amselgarten\n",
                                           "stderr": ""}}}
    out = json.dumps(redact_snapshot(snap), ensure_ascii=False)
    for v in ("Zaunkoenig", "Lindenhof", "Birkenweg7", "Amselgarten", "Fliederbusch"):
        assert v not in out, v
    assert "wlp2s0" in out  # an interface is no network name
    r = Redactor()
    log = r.text("export WIFI_NAME=\"Rotkehlchen Nest\"\nconnected: Rotkehlchen Nest (5 GHz)\n")
    assert "Rotkehlchen" not in log and log.count("<wifi-1>") == 2


@pytest.mark.parametrize("url,host", [
    ("http://jenkins:8080/job/cuda/", "jenkins"),                          # an intranet name: no dot
    ("https://pypi.kestrel-corp/simple/torch/", "pypi.kestrel-corp"),      # no public top-level domain
    ("https://artifacts.gw.internal/pypi/simple", "artifacts.gw.internal"),
    ("git clone git@x https://git.corp.fabrikam.com/ml/train.git", "git.corp.fabrikam.com"),  # an intranet label
    ("proxy=http://squid01.lan:3128", "squid01.lan"),
    ("deb http://mirror.buero.home.arpa/ubuntu noble main", "mirror.buero.home.arpa"),
])
def test_internal_host_names_in_urls(url, host):
    out = Redactor().text(f"pip download from {url} failed\n")
    assert host not in out and "<host-" in out and "pip download from" in out


def test_unc_servers_are_internal_hosts_and_public_hosts_stay():
    out = Redactor().text(r"robocopy \\nas-labor03\datasets C:\data; also \\wsl$\Ubuntu\home and \\?\C:\x")
    assert "nas-labor03" not in out and r"\\wsl$\Ubuntu" in out and r"\\?\C:" in out
    public = ("https://download.pytorch.org/whl/cu128 https://developer.download.nvidia.com/compute/cuda/repos/ "
              "http://localhost:8080/x http://127.0.0.1:9000/ https://pypi.org/simple/ https://huggingface.co/x "
              "https://github.com/pytorch/pytorch/issues/1 http://archive.ubuntu.com/ubuntu\n")
    assert Redactor().text(public) == public


def test_windows_sids_of_accounts_go_well_known_ones_stay():
    text = ("User Name    SID\nfabrikam\\jdoe S-1-5-21-3623811015-3361044348-30300820-1013\n"
            "HKEY_USERS\\S-1-12-1-1822374935-1243870564-2860374434-1598225621\\Software\n"
            "C:\\$Recycle.Bin\\S-1-5-21-3623811015-3361044348-30300820-1013\\$R1\n"
            "groups: S-1-5-32-544 S-1-5-18 S-1-1-0 S-1-16-12288 S-1-5-80-0\n")
    out = Redactor().text(text)
    assert "3623811015" not in out and "1822374935" not in out
    assert out.count("<sid-1>") == 2 and "<sid-2>" in out
    for keep in ("S-1-5-32-544", "S-1-5-18", "S-1-1-0", "S-1-16-12288", "HKEY_USERS\\", "C:\\$Recycle.Bin\\"):
        assert keep in out


def test_text_with_nothing_private_comes_back_byte_for_byte():
    text = ("\tindented\ttabs  two  spaces \r\nCRLF line\r\n\n\nempty lines above\ntrailing space \n"
            "unicode: GPU 名称 İstanbul ß ǅ — fine\n" + "x " * 50 + "\n")
    assert Redactor().text(text) == text
