"""Real sudo that asks for a password, for tests: the door every user walks through, not a stand-in.

A throw-away user (`USER`, with a password, in the sudo group, no NOPASSWD: Debian's default) lives
only inside a private mount namespace (`unshare -m`) whose /etc, /run, /var, /usr and /opt are
overlays on a tmpfs: useradd, sudo's timestamps and every file a root step writes land there and
vanish with the namespace; this machine's own files are never written. In that namespace the
program under test runs as the user on a real pseudo-terminal (`pty.fork`), and a script answers
its prompts (the password, typed), presses Ctrl-C or hangs the terminal up; what root wrote is read
back and reported as one JSON object on stdout.

Where this test process is root, the namespace is made directly; as a user with passwordless sudo
(CI's `ci` user), through `sudo -n`; as a user whose sudo asks (CI's `door` user), through `sudo -S`
with the password from GPU_WIZARD_TEST_SUDO_PASSWORD. Otherwise the tests skip, saying so.

    python -m tests.realsudo SPEC_JSON      (as root, already inside `unshare -m`)
"""
from __future__ import annotations

import json
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Optional

ROOT = Path(__file__).resolve().parents[1]
USER = "gwdoor"
UID = 54330
PASSWORD = "Door-7q!pw"  # the throw-away user's password, inside the namespace only
CHECKOUT = "/run/gwdoor/checkout"  # the checkout as the user sees it (root's clone may sit in /root)
OVERLAID = ("/etc", "/run", "/var", "/usr", "/opt")
PASSWORD_ENV = "GPU_WIZARD_TEST_SUDO_PASSWORD"  # CI's password user: its own sudo asks, the harness types it


def skip_reason() -> Optional[str]:
    """Why the real-sudo tests cannot run here (None: they can)."""
    if not sys.platform.startswith("linux"):
        return "real sudo tests need Linux"
    for tool in ("sudo", "unshare", "useradd", "chpasswd"):
        if shutil.which(tool) is None and not os.path.exists(f"/usr/sbin/{tool}"):
            return f"real sudo tests need {tool} (Debian: apt-get install sudo util-linux passwd)"
    if "overlay" not in Path("/proc/filesystems").read_text():
        return "real sudo tests need the overlay file system (for a private copy of /etc, /usr, /var)"
    if os.geteuid() != 0 and not _sudo_n() and not os.environ.get(PASSWORD_ENV):
        return ("real sudo tests make a private mount namespace with a password user: they need root, sudo "
                f"without a password, or this user's sudo password in {PASSWORD_ENV} (CI's fresh root has all three)")
    return None


REQUIRE_ENV = "GPU_WIZARD_TEST_REQUIRE_REAL_SUDO"  # CI's password run: these tests must run, never skip


def marks() -> list:
    """The test modules' pytestmark: skip with the reason, except where CI requires them (then the
    reason fails the run at collection)."""
    import pytest

    reason = skip_reason()
    if reason and os.environ.get(REQUIRE_ENV):
        raise RuntimeError(f"{REQUIRE_ENV} is set, but the real-sudo tests cannot run here: {reason}")
    return [pytest.mark.integration, pytest.mark.skipif(reason is not None, reason=str(reason))]


def _sudo_n() -> bool:
    try:
        return subprocess.run(["sudo", "-n", "true"], capture_output=True, timeout=20).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def run_door(spec: dict[str, Any], timeout_s: float = 240) -> dict[str, Any]:
    """Run `spec` (see `drive`) in a new private namespace; its JSON report."""
    unshare = shutil.which("unshare") or "/usr/bin/unshare"
    spec = {**spec, "outer_ns": os.readlink("/proc/self/ns/mnt")}
    argv = [unshare, "-m", "--propagation", "private", sys.executable, "-m", "tests.realsudo", json.dumps(spec)]
    given = None
    if os.geteuid() != 0 and _sudo_n():
        argv = ["sudo", "-n", "--", *argv]
    elif os.geteuid() != 0:  # a user whose sudo asks: through that very door, the password on stdin
        argv = ["sudo", "-S", "-p", "", "--", *argv]
        given = os.environ.get(PASSWORD_ENV, "") + "\n"
    r = subprocess.run(argv, capture_output=True, text=True, timeout=timeout_s, cwd=str(ROOT), input=given)
    try:
        report = json.loads(r.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        raise AssertionError(f"the namespace run gave no report (exit {r.returncode}):\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}") from None
    work = str(report.get("work") or "")
    if work.startswith(tempfile.gettempdir() + "/gwdoor-ns-"):
        pre = [] if os.geteuid() == 0 else (["sudo", "-n"] if given is None else ["sudo", "-S", "-p", ""])
        subprocess.run([*pre, "rmdir", "--", work], capture_output=True, input=given, text=True)
    return report


# --- inside the namespace (root) -------------------------------------------------------------------

def _mount(*args: str) -> None:
    subprocess.run(["mount", *args], check=True, capture_output=True)


def setup_namespace(work: str, outer_ns: str, in_sudo_group: bool = True) -> None:
    """Overlays over OVERLAID, the checkout at CHECKOUT, and the password user."""
    if not outer_ns or os.readlink("/proc/self/ns/mnt") == outer_ns:
        raise SystemExit("tests.realsudo: refusing to run outside a private mount namespace")
    _mount("--make-rprivate", "/")
    _mount("-t", "tmpfs", "-o", "mode=0755", "tmpfs", work)
    held = os.path.join(work, "checkout")  # the checkout, held here while the overlays go on (they hide mounts)
    os.makedirs(held)
    _mount("--bind", str(ROOT), held)
    for d in OVERLAID:
        if not os.path.isdir(d):
            continue
        name = d.strip("/").replace("/", "_")
        up, wk = os.path.join(work, name + ".up"), os.path.join(work, name + ".work")
        os.makedirs(up)
        os.makedirs(wk)
        _mount("-t", "overlay", "overlay", "-o", f"lowerdir={d},upperdir={up},workdir={wk}", d)
    os.makedirs(CHECKOUT, mode=0o755, exist_ok=True)
    os.chmod(os.path.dirname(CHECKOUT), 0o755)
    _mount("--bind", held, CHECKOUT)
    groups = ["-G", "sudo"] if in_sudo_group else []
    subprocess.run(["userdel", "-f", USER], capture_output=True)  # one left in an outer namespace's copy
    subprocess.run(["useradd", "-M", "-u", str(UID), "-d", "/nonexistent", "-s", "/bin/bash", *groups, USER],
                   check=True, capture_output=True)
    subprocess.run(["chpasswd"], input=f"{USER}:{PASSWORD}\n", text=True, check=True, capture_output=True)


def _user_env(home: str, extra: dict[str, str]) -> dict[str, str]:
    env = {"HOME": home, "USER": USER, "LOGNAME": USER, "SHELL": "/bin/bash", "LANG": "C.UTF-8",
           "PATH": "/usr/local/bin:/usr/bin:/bin", "TERM": "xterm", "PYTHONPATH": CHECKOUT,
           "XDG_RUNTIME_DIR": os.path.join(home, "run")}
    env.update(extra)
    return env


def _as_user(home: str) -> None:
    import grp
    import pwd

    pw = pwd.getpwnam(USER)
    os.setgroups([g.gr_gid for g in grp.getgrall() if USER in g.gr_mem])
    os.setgid(pw.pw_gid)
    os.setuid(pw.pw_uid)
    os.chdir(home)


def _ours(pid: int, my_ns: str) -> bool:
    try:
        return os.readlink(f"/proc/{pid}/ns/mnt") == my_ns
    except OSError:
        return False


def _stop_leftovers(wait_s: float) -> list[str]:
    """Wait for the programs this run started in the namespace to end (a root step finishing after
    the wizard was gone), then stop any still there, by their ids. Returns what had to be stopped."""
    me, ns = os.getpid(), os.readlink("/proc/self/ns/mnt")
    deadline = time.monotonic() + wait_s
    while True:
        left = [int(p) for p in os.listdir("/proc") if p.isdigit() and int(p) != me and _ours(int(p), ns)]
        left = [p for p in left if _state(p) not in ("Z", "")]
        if not left or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    stopped = []
    for p in left:
        try:
            stopped.append(Path(f"/proc/{p}/cmdline").read_text().replace("\0", " ")[:120])
            os.kill(p, signal.SIGKILL)
        except OSError:
            pass
    return stopped


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return ""


def _read_path(p: str) -> Optional[dict[str, Any]]:
    try:
        st = os.lstat(p)
    except OSError:
        return None
    out: dict[str, Any] = {"uid": st.st_uid, "mode": st.st_mode & 0o7777}
    if os.path.islink(p):
        out["link"] = os.readlink(p)
    elif os.path.isdir(p):
        out["entries"] = sorted(os.listdir(p))
    elif os.path.isfile(p):
        out["text"] = Path(p).read_text(errors="replace")[:20000]
    return out


def drive(spec: dict[str, Any]) -> dict[str, Any]:
    """spec: argv (run as USER on a pty, in `cwd`, HOME a new folder), env, script: a list of
    {"expect": REGEX, then one of "send": TEXT | "ctrl_c": true | "hangup": true}, optional
    "stand_ins": {path: shell script text} planted (root-owned, 0755) before it starts, "root_files":
    {path: text} (0644), "copy_dirs": {src: dest} copied in, "root_setup": argv lists run as root first,
    "read": paths to report afterwards, "settle_s": how long stray processes may take to end."""
    work = tempfile.mkdtemp(prefix="gwdoor-ns-")  # a tmpfs goes over it here; the empty folder is removed after
    setup_namespace(work, spec.get("outer_ns", ""), spec.get("in_sudo_group", True))
    for path, text in (spec.get("stand_ins") or {}).items():
        Path(path).write_text(text)
        os.chmod(path, 0o755)
    for path, text in (spec.get("root_files") or {}).items():  # root's own files (a local apt source...)
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(text)
    for src, dest in (spec.get("copy_dirs") or {}).items():  # folders root copies in (readable by all)
        shutil.copytree(src, dest)
        subprocess.run(["chmod", "-R", "a+rX", dest], check=True)
    for argv in spec.get("root_setup") or []:  # as root, before the user starts (apt-get update of that source)
        r = subprocess.run(argv, capture_output=True, text=True, timeout=300)
        if r.returncode != 0:
            raise SystemExit(f"tests.realsudo: setup {argv[:3]} failed: {r.stderr[-500:]}")
    home = os.path.join(work, "home")
    os.makedirs(os.path.join(home, "run"), mode=0o700)
    for d in (home, os.path.join(home, "run")):
        os.chown(d, UID, UID)
    env = _user_env(home, spec.get("env") or {})
    argv = [a.replace("@HOME@", home).replace("@CHECKOUT@", CHECKOUT) for a in spec["argv"]]
    for k, v in list(env.items()):
        env[k] = v.replace("@HOME@", home).replace("@CHECKOUT@", CHECKOUT)
    for path, text in (spec.get("files") or {}).items():  # files the user owns (a session's plan)
        p = Path(path.replace("@HOME@", home))
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text.replace("@HOME@", home).replace("@CHECKOUT@", CHECKOUT))
        for q in [p, *p.parents]:
            if str(q) == home:
                break
            os.chown(q, UID, UID)
    if spec.get("no_tty"):  # started from a menu or a service: no terminal, no display
        def demote() -> None:
            os.setsid()
            _as_user(spec.get("cwd", "").replace("@CHECKOUT@", CHECKOUT) or home)
        env.pop("DISPLAY", None)
        env.pop("WAYLAND_DISPLAY", None)
        r = subprocess.run(argv, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                           timeout=float(spec.get("timeout_s", 120)), preexec_fn=demote)
        return {"rc": r.returncode, "transcript": r.stdout + r.stderr, "stderr": r.stderr, "events": [],
                "stopped": _stop_leftovers(5), "work": work,
                "paths": {p: _read_path(p.replace("@HOME@", home)) for p in spec.get("read") or []}}
    t0 = time.monotonic()
    # a pty of our own, its terminal side kept open here too: the last lines the program writes before
    # it exits are never lost to the hangup that its exit causes (pty.fork cannot promise that)
    master, slave = os.openpty()
    pid = os.fork()
    if pid == 0:
        try:
            import fcntl
            import termios

            os.close(master)
            os.setsid()
            fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
            for n in (0, 1, 2):
                os.dup2(slave, n)
            os.close(slave)
            _as_user(spec.get("cwd", "").replace("@CHECKOUT@", CHECKOUT) or home)
            os.execvpe(argv[0], argv, env)
        finally:
            os._exit(127)
    transcript, events, rc = _converse(master, slave, pid, spec.get("script") or [], float(spec.get("timeout_s", 120)), t0)
    if rc is None:
        rc = _wait(pid, float(spec.get("timeout_s", 120)))
    stopped = _stop_leftovers(float(spec.get("settle_s", 20)))
    return {"rc": rc, "transcript": transcript, "events": events, "stopped": stopped, "work": work,
            "paths": {p: _read_path(p.replace("@HOME@", home)) for p in spec.get("read") or []}}


def _converse(fd: int, slave: int, pid: int, script: list[dict[str, Any]], timeout_s: float,
              t0: float) -> tuple[str, list[dict[str, Any]], Optional[int]]:
    """Answer the script's prompts; returns the transcript, what was seen when, and the exit code
    (None when it was not seen end: a hangup, a timeout)."""
    buf, seen, events = b"", 0, []
    steps = list(script)
    deadline = time.monotonic() + timeout_s
    rc: Optional[int] = None
    exited_at: Optional[float] = None
    open_fd = True
    while open_fd and time.monotonic() < deadline:
        r, _, _ = select.select([fd], [], [], 0.1)
        if r:
            try:
                buf += os.read(fd, 65536)
            except OSError:
                break
        elif exited_at is not None and time.monotonic() - exited_at > 0.3:
            break  # it ended and everything it wrote was read
        if rc is None:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                rc, exited_at = os.waitstatus_to_exitcode(status), time.monotonic()
        while steps:
            m = re.compile(steps[0]["expect"].encode()).search(buf, seen)
            if not m:
                break
            step = steps.pop(0)
            seen = m.end()
            events.append({"expect": step["expect"], "at_s": round(time.monotonic() - t0, 3)})
            if "send" in step:
                os.write(fd, step["send"].encode())
            elif step.get("ctrl_c"):
                os.write(fd, b"\x03")  # through the terminal's line discipline: SIGINT to the foreground
            elif step.get("hangup"):
                os.close(slave)
                os.close(fd)  # the terminal window closed: SIGHUP to its session
                open_fd = False
                break
    if open_fd:
        os.close(fd)
        os.close(slave)
    if steps:
        events.append({"unmet": [s["expect"] for s in steps]})
    return buf.decode("utf-8", "replace"), events, rc


def _wait(pid: int, timeout_s: float) -> Optional[int]:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        time.sleep(0.05)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    return None


def main(argv: list[str]) -> int:
    if os.geteuid() != 0:
        sys.stderr.write("tests.realsudo: must run as root inside `unshare -m`\n")
        return 2
    report = drive(json.loads(argv[0]))
    sys.stdout.write("\n" + json.dumps(report) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
