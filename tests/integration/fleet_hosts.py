"""Test hosts for the fleet tests: real OpenSSH servers on this machine, one per loopback address
(127.0.0.2, 127.0.0.3, ...; each its own port), each started by the test with its own host key
and its own authorized key, and stopped in teardown. Ansible reaches them over real SSH with
host-key checking on (a known_hosts file written here), so nothing is faked between Ansible
and the host. Nothing listens anywhere but on loopback addresses.

Needs `sshd` (openssh-server; scripts/test.sh installs it when root) and root (sshd drops
privileges per session; logging in as root keeps the hosts' file paths simple).
"""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

SSHD_CANDIDATES = ("/usr/sbin/sshd", "/usr/local/sbin/sshd")


def sshd_path() -> Optional[str]:
    for p in SSHD_CANDIDATES:
        if os.path.isfile(p) and os.access(p, os.X_OK):
            return p
    return shutil.which("sshd")


def skip_reason() -> Optional[str]:
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return "needs root to run test sshd servers that accept a root login; CI runs as root"
    if not sshd_path():
        return "sshd not installed (openssh-server; scripts/test.sh installs it when root)"
    if not shutil.which("ssh") or not shutil.which("ssh-keygen"):
        return "ssh / ssh-keygen not installed (openssh-client)"
    try:
        import ansible  # noqa: F401
    except ImportError:
        return "ansible-core not installed (the test extra installs it)"
    return None


def _free_port(addr: str) -> int:
    with socket.socket() as s:
        s.bind((addr, 0))
        return s.getsockname()[1]


@dataclass
class SshHost:
    name: str
    addr: str
    port: int
    proc: subprocess.Popen
    log: Path


class SshHosts:
    """`with SshHosts(tmp, ["a", "b", "c"]) as hosts:` n sshd servers; all stopped on exit."""

    def __init__(self, root: Path, names: list[str], timeout_s: float = 20.0):
        self.root = Path(root)
        self.names = names
        self.timeout_s = timeout_s
        self.hosts: list[SshHost] = []
        self.key = self.root / "client_ed25519"
        self.known_hosts = self.root / "known_hosts"
        self.cm_dir: Optional[str] = None  # SSH control sockets: a short path (sockets are limited to 108 bytes)

    def __enter__(self) -> "SshHosts":
        try:
            self._start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def _start(self) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        os.chmod(self.root, 0o700)
        import tempfile

        self.cm_dir = tempfile.mkdtemp(prefix="gwcm-", dir="/tmp")
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(self.key)], check=True, timeout=30)
        (self.root / "authorized_keys").write_text((self.root / "client_ed25519.pub").read_text())
        os.chmod(self.root / "authorized_keys", 0o600)
        os.makedirs("/run/sshd", mode=0o755, exist_ok=True)  # sshd's privilege-separation folder
        known = []
        for i, name in enumerate(self.names):
            addr = f"127.0.0.{i + 2}"
            port = _free_port(addr)
            hk = self.root / f"host_{name}_ed25519"
            subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(hk)], check=True, timeout=30)
            cfg = self.root / f"sshd_{name}.conf"
            cfg.write_text("\n".join([
                f"ListenAddress {addr}:{port}", f"HostKey {hk}", f"AuthorizedKeysFile {self.root}/authorized_keys",
                f"PidFile {self.root}/sshd_{name}.pid", "PasswordAuthentication no", "KbdInteractiveAuthentication no",
                "PermitRootLogin prohibit-password", "StrictModes no", "UsePAM no", "PrintMotd no",
                "Subsystem sftp internal-sftp", "MaxStartups 50:30:100", "MaxSessions 50", "LogLevel ERROR", ""]))
            log = self.root / f"sshd_{name}.log"
            proc = subprocess.Popen([sshd_path(), "-D", "-e", "-f", str(cfg)], stdout=open(log, "wb"),
                                    stderr=subprocess.STDOUT, start_new_session=True)
            self.hosts.append(SshHost(name, addr, port, proc, log))
            known.append(f"[{addr}]:{port} " + " ".join(Path(str(hk) + ".pub").read_text().split()[:2]))
        self.known_hosts.write_text("\n".join(known) + "\n")
        deadline = time.monotonic() + self.timeout_s
        for h in self.hosts:
            while True:
                if h.proc.poll() is not None:
                    raise RuntimeError(f"sshd for {h.name} exited: {h.log.read_text(errors='replace')[-500:]}")
                try:
                    with socket.create_connection((h.addr, h.port), timeout=1):
                        break
                except OSError:
                    if time.monotonic() > deadline:
                        raise RuntimeError(f"sshd for {h.name} did not listen on {h.addr}:{h.port}")
                    time.sleep(0.1)

    def inventory_vars(self, h: SshHost) -> dict[str, str]:
        return {
            "ansible_host": h.addr, "ansible_port": str(h.port), "ansible_user": "root",
            "ansible_ssh_private_key_file": str(self.key),
            "ansible_ssh_common_args": f"-o UserKnownHostsFile={self.known_hosts} -o StrictHostKeyChecking=yes "
                                       f"-o ControlMaster=auto -o ControlPersist=20s -o ControlPath={self.cm_dir}/%C",
            "ansible_pipelining": "true",
            "ansible_python_interpreter": "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else "python3",
        }

    def stop(self) -> None:
        for h in self.hosts:  # Ansible's shared SSH connections first (they would linger ControlPersist seconds)
            if self.cm_dir:
                subprocess.run(["ssh", "-O", "exit", "-o", f"ControlPath={self.cm_dir}/%C", "-p", str(h.port), f"root@{h.addr}"],
                               capture_output=True, timeout=15)
        for h in self.hosts:
            if h.proc.poll() is None:
                try:
                    os.killpg(h.proc.pid, 15)
                except ProcessLookupError:
                    pass
                try:
                    h.proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    os.killpg(h.proc.pid, 9)
                    h.proc.wait(timeout=10)
        self.hosts = []
        if self.cm_dir:
            shutil.rmtree(self.cm_dir, ignore_errors=True)
            self.cm_dir = None
