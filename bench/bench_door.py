"""How long the password door takes: from Install to the first root step running, the password typed
the moment it is asked (so the figure is the wizard's and sudo's own time, not a person's).

- terminal: `gpu-wizard install --yes` on a pty, sudo asking there; the clock starts with the command;
  split into start → password prompt, and password typed → root's first step output (sudo's check,
  rootboot's copy and check of the helper on /usr/bin/python3, the helper's start);
- window: the workstation and WSL 2 journeys (tests/ui/door_journeys.py), from the Install click to
  root answering behind the window's own password dialog.

Real sudo with a password user in tests/realsudo.py's private namespace (root or passwordless sudo
needed).    .venv/bin/python bench/bench_door.py [--runs N]
"""
from __future__ import annotations

import json
import os
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.plan import Plan  # noqa: E402
from tests import realsudo  # noqa: E402
from tests.integration.test_door_terminal import _spec, env_step  # noqa: E402
from tests.realsudo import CHECKOUT, PASSWORD, run_door  # noqa: E402


def terminal_once() -> tuple[float, float]:
    r = run_door(_spec(Plan(steps=(env_step(),)), [
        {"expect": r"\[sudo\] password for gwdoor:", "send": PASSWORD + "\n"},
        {"expect": r"write /etc/profile\.d/cuda\.sh"},
    ]))
    at = [e["at_s"] for e in r["events"] if "at_s" in e]
    if r["rc"] != 0 or len(at) != 2:
        raise SystemExit(f"the terminal run failed: {r['transcript'][-800:]}")
    return at[0], at[1] - at[0]


def journey(case: str, extra: dict) -> dict:
    r = run_door({"argv": [f"{CHECKOUT}/.venv/bin/python", "-m", "pytest", "-q", "-s", "-x", "-p", "no:cacheprovider",
                           "--color=no", f"tests/ui/door_journeys.py::{case}"], "cwd": CHECKOUT, "timeout_s": 240,
                  "env": {"DOOR_PASSWORD": PASSWORD, "QT_QPA_PLATFORM": "offscreen", "PYTHONDONTWRITEBYTECODE": "1"},
                  **extra}, timeout_s=300)
    line = next((x for x in r["transcript"].splitlines() if x.strip().startswith('{"journey"')), None)
    if r["rc"] != 0 or line is None:
        raise SystemExit(f"the {case} run failed: {r['transcript'][-800:]}")
    return json.loads(line)


def _list() -> None:
    from app.run import rootboot

    rootboot.manifest_line(str(ROOT))


def _copy() -> None:
    import io
    import shutil
    import tempfile

    from app.run import rootboot

    src, files, libs = rootboot.read_request(io.StringIO(rootboot.manifest_line(str(ROOT))))
    d = tempfile.mkdtemp()
    try:
        rootboot.copy_checked(src, files, d)
        os.mkdir(os.path.join(d, "lib"))
        for ls, lf in libs:
            rootboot.copy_checked(ls, lf, os.path.join(d, "lib"))
    finally:
        shutil.rmtree(d)


def _ms(fn) -> str:
    import time

    best = min((lambda t0: (fn(), time.perf_counter() - t0)[1])(time.perf_counter()) for _ in range(5))
    return f"{best * 1000:.0f}"


def main(argv: list[str]) -> int:
    runs = int(argv[argv.index("--runs") + 1]) if "--runs" in argv else 3
    why = realsudo.skip_reason()
    if why:
        sys.exit(f"bench_door: {why}")
    prompt, root = zip(*(terminal_once() for _ in range(runs)))
    print(f"terminal: start → sudo's password prompt {statistics.median(prompt):.2f} s; password typed → root step "
          f"running {statistics.median(root):.2f} s; Install → root step {statistics.median(prompt) + statistics.median(root):.2f} s "
          f"(median of {runs})")
    print(f"  of which rootboot: the wizard lists the helper's files {_ms(_list)} ms; root's copy and check {_ms(_copy)} ms")
    import tempfile

    from tests.ui.test_door_journeys import REPO, SOURCE, local_repo

    with tempfile.TemporaryDirectory() as tmp:
        repo = local_repo(Path(tmp))
        ws = journey("test_workstation_journey_with_a_real_root_step", {
            "copy_dirs": {str(repo): REPO}, "root_files": {SOURCE: f"deb [trusted=yes] file://{REPO} ./\n"},
            "root_setup": [["apt-get", "update", "-q", "-o", f"Dir::Etc::sourcelist={SOURCE}", "-o", "Dir::Etc::sourceparts=-",
                            "-o", "APT::Get::List-Cleanup=0"]]})
    wsl = journey("test_wsl2_journey_with_a_real_root_step", {
        "root_files": {"/usr/lib/wsl/lib/libcuda.so.1.1": "stand-in\n"}})
    for f in (ws, wsl):
        print(f"window, {f['journey']}: Install click → password dialog {f['dialog_shown_s']:.2f} s; → root step running "
              f"{f['install_to_root_step_s']:.2f} s; {f['clicks']} clicks + the password typed (Enter)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
