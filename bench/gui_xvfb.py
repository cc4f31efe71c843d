"""The three journeys in a real window on a real X server (Xvfb), clicked with xdotool through the
X server as a person's mouse, with a screenshot of the whole screen after every click.

    .venv/bin/python bench/gui_xvfb.py OUT_DIR [--size 1366x768 --size 1920x1080] [--lang en --lang zh_CN]
                                       [--journey workstation|wsl2|support] [--theme dark] [--scale 2]

Needs Xvfb and xdotool (apt-get install -y xvfb xdotool). The window is tests/ui/xvfb_child.py:
this computer is the recorded machine; root and network steps go to the journeys' fake runner.
Prints one line per journey: `xvfb SIZE LANG JOURNEY: N clicks, ended on PAGE` and the shots.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable
GRAB = ("import sys\nfrom PySide6.QtGui import QGuiApplication\napp = QGuiApplication(sys.argv[:1])\n"
        "app.primaryScreen().grabWindow(0).save(sys.argv[1])\n")


class Screen:
    def __init__(self, size: str, env: dict):
        self.size = size
        self.display = f":{60 + os.getpid() % 30}"
        self.proc = subprocess.Popen(["Xvfb", self.display, "-screen", "0", f"{size}x24", "-nolisten", "tcp"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            if Path(f"/tmp/.X11-unix/X{self.display[1:]}").exists():
                break
            time.sleep(0.05)
        self.env = dict(env, DISPLAY=self.display, QT_QPA_PLATFORM="xcb")

    def close(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)

    def xdotool(self, *args: str) -> None:
        subprocess.run(["xdotool", *args], env=self.env, check=True, timeout=10)

    def shot(self, path: Path) -> None:
        subprocess.run([PY, "-c", GRAB, str(path)], env=self.env, check=True, timeout=30)


class Window:
    def __init__(self, screen: Screen, journey: str, lang: str, state: Path, out: Path, tag: str):
        self.screen, self.out, self.tag = screen, out, tag
        self.geo = state / "geometry.json"
        if self.geo.exists():
            self.geo.unlink()
        self.proc = subprocess.Popen([PY, "-m", "tests.ui.xvfb_child", journey, lang, str(state), str(self.geo)],
                                     cwd=ROOT, env=screen.env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.clicks = 0
        self.shots: list[Path] = []
        self.wait(lambda d: True, 60)

    def state(self) -> dict:
        try:
            return json.loads(self.geo.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}

    def wait(self, cond, timeout: float = 30) -> dict:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            d = self.state()
            if d and cond(d):
                return d
            if self.proc.poll() is not None:
                raise RuntimeError("the window closed: " + (self.proc.stdout.read() if self.proc.stdout else ""))
            time.sleep(0.1)
        raise TimeoutError(f"{self.tag}: waited {timeout} s; last state {self.state().get('page')}: "
                           f"{[b['text'] for b in self.state().get('buttons', [])]}")

    def button(self, d: dict, *texts: str):
        return next((b for b in d.get("buttons", []) if b["text"] in texts or b["name"] in texts), None)

    def click(self, *texts: str, timeout: float = 30) -> dict:
        d = self.wait(lambda d: self.button(d, *texts) is not None, timeout)
        b = self.button(d, *texts)
        sw, sh = d["screen"]
        if not (0 <= b["x"] < sw and 0 <= b["y"] < sh) or not b["shown"]:
            raise AssertionError(f"{self.tag}: '{b['text']}' is off the screen or hidden at {b['x']},{b['y']} ({sw}x{sh})")
        self.screen.xdotool("mousemove", str(b["x"]), str(b["y"]), "click", "1")
        self.clicks += 1
        time.sleep(0.4)
        self.snap(f"click{self.clicks}-{b['name'] or b['text']}")
        return d

    def snap(self, name: str) -> Path:
        p = self.out / f"{self.tag}-{len(self.shots):02d}-{''.join(c if c.isalnum() else '_' for c in name)[:40]}.png"
        self.screen.shot(p)
        self.shots.append(p)
        return p

    def close(self) -> str:
        self.proc.terminate()
        try:
            out, _ = self.proc.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            out, _ = self.proc.communicate(timeout=10)
        return out or ""


NEXT = ("Next >", "下一步(N) >", "下一步 >", "qt_wizard_next")
NEXT_NAMES = ("__qt__passive_wizardbutton1",)


def _next(win: Window, timeout: float = 30) -> dict:
    return win.click(*NEXT, *NEXT_NAMES, "Install >", timeout=timeout)


def journey(screen: Screen, name: str, lang: str, out: Path, report: Path) -> tuple[int, str, list[Path]]:
    state = Path(tempfile.mkdtemp(prefix=f"xvfb-{name}-"))
    tag = f"{screen.size}-{lang}-{name}"
    win = Window(screen, name, lang, state, out, tag)
    try:
        win.snap("launch")
        if name in ("workstation", "wsl2"):
            for page in ("welcome", "system", "recommendation", "plan"):
                win.wait(lambda d, p=page: d.get("page") == p, 30)
                _next(win, timeout=60)
            win.wait(lambda d: d.get("page") == "install")
            if name == "workstation":
                win.click("Later", "稍后(L)", timeout=30)  # the restart: later, then start it again
                win.close()
                before = win.clicks
                win = Window(screen, name, lang, state, out, tag + "-again")
                win.clicks = before
                win.snap("relaunch")
                win.click("pending_verify_now", timeout=30)
            else:
                _next(win, timeout=60)
            win.wait(lambda d: d.get("page") == "verify")
            time.sleep(4)  # the (fake) verification runs by itself
            win.snap("verified")
        else:  # support: "Open a file…", type the report's path, Enter
            win.click("open_file")
            time.sleep(1.0)
            win.snap("dialog")
            screen.xdotool("type", "--delay", "5", str(report))
            screen.xdotool("key", "Return")
            win.wait(lambda d: d.get("page") == "verify", 30)
            time.sleep(1.0)
            win.snap("recorded-verification")
        page = win.state().get("page", "?")
        return win.clicks, page, win.shots
    finally:
        win.close()
        shutil.rmtree(state, ignore_errors=True)


def make_report(folder: Path) -> Path:
    out = folder / "gpu-wizard-report.html"
    subprocess.run([PY, "-m", "app", "report", "--snapshot", str(ROOT / "tests/fixtures/real/h200/snapshot-h200.json"),
                    "--verification", str(ROOT / "tests/fixtures/verify/h200_quick.json"), "-o", str(out)],
                   cwd=ROOT, check=True, capture_output=True, timeout=120)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--size", action="append")
    ap.add_argument("--lang", action="append", choices=("en", "zh_CN"))
    ap.add_argument("--journey", action="append", choices=("workstation", "wsl2", "support"))
    ap.add_argument("--theme", default="light", choices=("light", "dark"))
    ap.add_argument("--scale", default="1", help="QT_SCALE_FACTOR: 2 is a 1920x1080 screen at 200%%")
    a = ap.parse_args(argv)
    for tool in ("Xvfb", "xdotool"):
        if shutil.which(tool) is None:
            print(f"{tool} is missing: apt-get install -y xvfb xdotool", file=sys.stderr)
            return 2
    a.out.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, GPU_WIZARD_ALLOW_ROOT_GUI="1", GPU_WIZARD_LIVE="0", LANG="C.UTF-8",
               PYTHONPATH=str(ROOT), GPU_WIZARD_THEME=a.theme, QT_SCALE_FACTOR=a.scale)
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        report = make_report(Path(tmp))
        for size in a.size or ["1366x768", "1920x1080"]:
            screen = Screen(size, env)
            try:
                for lang in a.lang or ["en", "zh_CN"]:
                    for name in a.journey or ["workstation", "wsl2", "support"]:
                        try:
                            n, page, shots = journey(screen, name, lang, a.out, report)
                            print(f"xvfb {size} {lang} {name}: {n} clicks, ended on {page} ({len(shots)} shots)", flush=True)
                        except (AssertionError, TimeoutError, RuntimeError, subprocess.CalledProcessError) as e:
                            failed += 1
                            print(f"xvfb {size} {lang} {name}: FAILED: {e}", flush=True)
            finally:
                screen.close()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
