"""Test hosts for the fleet tests: real OpenSSH servers on this machine, one per loopback address
(127.0.0.2, 127.0.0.3, ...; each its own port), each in a private mount namespace of its own
(`unshare -m`): its own /home (a tmpfs holding the connecting user's home), its own /mnt (a tmpfs:
root's folder for the wizard, /mnt/gpu-wizard, and the test's package index bound read-only at
/mnt/index), and its own /etc/passwd, /etc/group, /etc/shadow and /etc/sudoers (copies bound over the
real ones inside that namespace only: this machine's files are never written).

Ansible logs in as `gwfleet` (uid 54321), an unprivileged user with passwordless sudo, over real SSH
with host-key checking on; root cannot log in (`PermitRootLogin no`, `AllowUsers gwfleet`). Nothing
listens anywhere but on loopback addresses; every server is stopped in teardown.

Needs root (sshd, mount namespaces), `sshd` (openssh-server; scripts/test.sh installs it when root),
`sudo`, `unshare` and `nsenter` (util-linux).
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
USER, UID = "gwfleet", 54321
HOME = f"/home/{USER}"
ROOT_DIR = "/mnt/gpu-wizard/fleet"  # root's folder for the wizard on each host (gpu_wizard_root_dir)
INDEX = "/mnt/index"  # the test's package indexes, as each host sees them


def sshd_path() -> Optional[str]:
    for p in SSHD_CANDIDATES:
        if os.path.isfile(p) and os.access(p, os.X_OK):
            return p
    return shutil.which("sshd")


def skip_reason() -> Optional[str]:
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return "needs root: sshd and a private mount namespace per test host; CI runs as root"
    if not sshd_path():
        return "sshd not installed (openssh-server; scripts/test.sh installs it when root)"
    for tool in ("ssh", "ssh-keygen", "sudo", "unshare", "nsenter"):
        if not shutil.which(tool):
            return f"{tool} not installed"
    try:
        import ansible  # noqa: F401
    except ImportError:
        return "ansible-core not installed (the test extra installs it)"
    r = subprocess.run(["unshare", "-m", "--propagation", "private", "true"], capture_output=True, timeout=30)
    if r.returncode != 0:
        return "mount namespaces are not available here (unshare -m): " + r.stderr.decode(errors="replace").strip()[-200:]
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


# inside each host's namespace: its own /home, /mnt and account files, then sshd
NS_SCRIPT = r'''set -eu
d=$1; index=$2; shift 2
mount -t tmpfs -o mode=0755 gw-home /home
mkdir -m 0755 /home/gwfleet && chown 54321:54321 /home/gwfleet
mount -t tmpfs -o mode=0755 gw-mnt /mnt
mkdir -p /mnt/index && mount --bind "$index" /mnt/index && mount -o remount,bind,ro /mnt/index
mkdir -m 0755 /mnt/ssh && cp "$d/authorized_keys" /mnt/ssh/authorized_keys && chmod 0644 /mnt/ssh/authorized_keys
for f in passwd group shadow sudoers; do mount --bind "$d/$f" "/etc/$f"; done
exec "$@"
'''


class SshHosts:
    """`with SshHosts(tmp, ["a", "b", "c"], index_dir) as hosts:` n sshd servers; all stopped on exit."""

    def __init__(self, root: Path, names: list[str], index_dir: Path, timeout_s: float = 20.0):
        self.root = Path(root)
        self.names = names
        self.index_dir = Path(index_dir)
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

    def _accounts(self, d: Path) -> None:
        """This machine's account files plus the test user, and a sudoers giving it passwordless sudo."""
        d.mkdir(parents=True)
        for name, line in (("passwd", f"{USER}:x:{UID}:{UID}:gpu-wizard fleet test:{HOME}:/bin/sh\n"),
                           ("group", f"{USER}:x:{UID}:\n"), ("shadow", f"{USER}:*:19000:0:99999:7:::\n")):
            text = Path(f"/etc/{name}").read_text() if os.path.exists(f"/etc/{name}") else ""
            (d / name).write_text(text.rstrip("\n") + "\n" + line)
        os.chmod(d / "shadow", 0o640)
        (d / "sudoers").write_text("Defaults env_reset\nDefaults secure_path=\"/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin\"\n"
                                   f"root ALL=(ALL:ALL) ALL\n{USER} ALL=(ALL:ALL) NOPASSWD: ALL\n")
        os.chmod(d / "sudoers", 0o440)

    def _start(self) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        os.chmod(self.root, 0o700)
        import tempfile

        self.cm_dir = tempfile.mkdtemp(prefix="gwcm-", dir="/tmp")
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(self.key)], check=True, timeout=30)
        (self.root / "authorized_keys").write_text((self.root / "client_ed25519.pub").read_text())
        os.chmod(self.root / "authorized_keys", 0o644)
        os.makedirs("/run/sshd", mode=0o755, exist_ok=True)  # sshd's privilege-separation folder
        known = []
        for i, name in enumerate(self.names):
            addr = f"127.0.0.{i + 2}"
            port = _free_port(addr)
            hk = self.root / f"host_{name}_ed25519"
            subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(hk)], check=True, timeout=30)
            accounts = self.root / f"etc-{name}"
            self._accounts(accounts)
            shutil.copy(self.root / "authorized_keys", accounts / "authorized_keys")
            cfg = self.root / f"sshd_{name}.conf"
            cfg.write_text("\n".join([
                f"ListenAddress {addr}:{port}", f"HostKey {hk}", "AuthorizedKeysFile /mnt/ssh/authorized_keys",  # sshd reads it as the user: inside the host
                f"PidFile {self.root}/sshd_{name}.pid", "PasswordAuthentication no", "KbdInteractiveAuthentication no",
                "PermitRootLogin no", f"AllowUsers {USER}", "StrictModes no", "UsePAM no", "PrintMotd no",
                "Subsystem sftp internal-sftp", "MaxStartups 50:30:100", "MaxSessions 50", "LogLevel ERROR", ""]))
            log = self.root / f"sshd_{name}.log"
            argv = ["unshare", "-m", "--propagation", "private", "/bin/sh", "-c", NS_SCRIPT, "gw-host",
                    str(accounts), str(self.index_dir), sshd_path() or "sshd", "-D", "-e", "-f", str(cfg)]
            proc = subprocess.Popen(argv, stdout=open(log, "wb"), stderr=subprocess.STDOUT, start_new_session=True)
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
            "ansible_host": h.addr, "ansible_port": str(h.port), "ansible_user": USER,
            "ansible_ssh_private_key_file": str(self.key),
            "ansible_ssh_common_args": f"-o UserKnownHostsFile={self.known_hosts} -o StrictHostKeyChecking=yes "
                                       f"-o ControlMaster=auto -o ControlPersist=20s -o ControlPath={self.cm_dir}/%C",
            "ansible_python_interpreter": "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else "python3",
            "gpu_wizard_root_dir": ROOT_DIR,
        }

    def on(self, name: str, argv: list[str], user: bool = True, timeout: float = 300) -> subprocess.CompletedProcess:
        """Run a command inside host `name`'s namespace (as its user, or as root): what that host sees."""
        h = next(x for x in self.hosts if x.name == name)
        ids = ["--setuid", str(UID), "--setgid", str(UID)] if user else []
        env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": HOME if user else "/root", "LANG": "C.UTF-8"}
        return subprocess.run(["nsenter", "--mount", "--target", str(h.proc.pid), *ids, "--", *argv], capture_output=True,
                              text=True, timeout=timeout, env=env, cwd="/")

    def ssh(self, name: str, command: str, user: str = USER) -> subprocess.CompletedProcess:
        h = next(x for x in self.hosts if x.name == name)
        return subprocess.run(["ssh", "-o", "BatchMode=yes", "-o", f"UserKnownHostsFile={self.known_hosts}", "-o", "StrictHostKeyChecking=yes",
                               "-i", str(self.key), "-p", str(h.port), f"{user}@{h.addr}", command],
                              capture_output=True, text=True, timeout=60)

    def stop(self) -> None:
        for h in self.hosts:  # Ansible's shared SSH connections first (they would linger ControlPersist seconds)
            if self.cm_dir:
                subprocess.run(["ssh", "-O", "exit", "-o", f"ControlPath={self.cm_dir}/%C", "-p", str(h.port), f"{USER}@{h.addr}"],
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
