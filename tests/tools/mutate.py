"""Do the tests bite? Apply one deliberate mutation of a core rule at a time to a copy of the checkout, run the
tests of that rule's area (or `--tests PATH...` for every mutation, e.g. `--tests tests/unit`), and count how
many fail. Every mutation should fail several tests; one that fails few names a rule the suite barely holds.

    .venv/bin/python tests/tools/mutate.py                 # every mutation, its area's tests, then the table
    .venv/bin/python tests/tools/mutate.py --only plan-order report-status --tests tests/unit
    .venv/bin/python tests/tools/mutate.py --list

The copy is made once (git's tracked and untracked, not ignored, files), mutated and restored per mutation; the
checkout itself is never changed. A mutation whose text is no longer in its file is reported as stale (the code
moved: update the mutation), never skipped silently. The tests of each area also run once unmutated first:
they must pass there, or the counts mean nothing.
"""
from __future__ import annotations

import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Mutation:
    name: str
    rule: str  # what the mutation breaks, in words
    edits: tuple[tuple[str, str, str], ...]  # (file, text, replaced by): each text must occur exactly once
    tests: tuple[str, ...]  # the area's tests (globs, relative to the checkout)


RUN_RECORD = ("tests/unit/test_run_record.py", "tests/unit/test_report_*.py", "tests/unit/test_run_state_events.py",
              "tests/unit/test_run_resume.py", "tests/unit/test_page_states.py", "tests/ui/test_state.py",
              "tests/ui/test_install_log.py", "tests/ui/test_wizard_walk.py", "tests/ui/test_demo_walkthrough.py")
SOLVER = ("tests/unit/test_recommend_*.py", "tests/unit/test_compat_*.py", "tests/unit/test_advice_edges.py",
          "tests/unit/test_release_is_data.py", "tests/unit/test_verify_verdicts.py", "tests/unit/test_detect_parsers.py",
          "tests/unit/test_one_home.py", "tests/unit/test_driver_pinning.py", "tests/unit/test_pipeline.py")

MUTATIONS = (
    Mutation("report-status", "the report reads a step that ended `error` as `ok` (done)",
             (("app/report/build.py", "    return StepOutcome(id=st.id, title=st.title, status=st.status,",
               "    return StepOutcome(id=st.id, title=st.title, status=\"ok\" if st.status == \"error\" else st.status,"),),
             RUN_RECORD),
    Mutation("state-status", "the run record reads what state.json says `error` as `ok` (its failed_step too)",
             (("app/run/record.py", "            s.status = st.status  # type: ignore[assignment]",
               "            s.status = \"ok\" if st.status == \"error\" else st.status  # type: ignore[assignment]"),
              ("app/run/record.py", "and s.status not in (\"error\", \"cancelled\"):", "and False:")),
             RUN_RECORD),
    Mutation("reducer-status", "the reducer folds a StepFinished `error` as `ok` (the window and the journal)",
             (("app/run/record.py", "        s.status, s.message, s.details, s.finished = ev.status, ev.message, ev.details, now",
               "        s.status, s.message, s.details, s.finished = (\"ok\" if ev.status == \"error\" else ev.status), ev.message, ev.details, now"),),
             RUN_RECORD),
    Mutation("resume-done", "resume counts a failed step as done (RunState.finished_ok)",
             (("app/run/state.py", "        return self.status == \"ok\"", "        return self.status in (\"ok\", \"error\")"),),
             ("tests/unit/test_run_*.py", "tests/integration/test_install_runs.py", "tests/integration/test_install_cli.py")),
    Mutation("restart-due", "a start in the same boot continues as if the machine had restarted",
             (("app/restart.py", "    return saved is None or now is None or saved != now",
               "    return saved is None or now is None or saved == now or True"),),
             ("tests/unit/test_restart.py", "tests/unit/test_run_resume.py", "tests/unit/test_run_executor.py",
              "tests/ui/test_wizard_walk.py", "tests/ui/test_journeys.py", "tests/ui/test_restart_windows.py")),
    Mutation("arch-coverage", "a cubin of an older major (sm_80) counts as running on a newer GPU (9.0)",
             (("app/compat/arch.py", "(suffix != \"a\" and am == g[0] and an <= g[1])",
               "(suffix != \"a\" and (am, an) <= g)"),),
             SOLVER),
    Mutation("driver-floor", "a driver exactly at CUDA's full-support floor is taken as too old",
             (("app/compat/db.py", "        if full and vkey(full) <= dk:\n            return \"full\"",
               "        if full and vkey(full) < dk:\n            return \"full\""),),
             SOLVER),
    Mutation("driver-floor-major", "only the driver's major version is compared with CUDA's floor (570.10 passes 570.86)",
             (("app/compat/db.py", "        if full and vkey(full) <= dk:\n            return \"full\"",
               "        if full and vkey(full)[:1] <= dk[:1]:\n            return \"full\""),),
             SOLVER),
    Mutation("plan-order", "the driver comes before NVIDIA's repository, and the order guard says nothing",
             (("app/plan/__init__.py", "    return steps + repo + driver + toolkit", "    return steps + driver + repo + toolkit"),
              ("app/plan/model.py", "    at = {s.id: i for i, s in enumerate(steps)}\n    out = []",
               "    at = {s.id: i for i, s in enumerate(steps)}\n    out: list[str] = []\n    return out")),
             ("tests/unit/test_plan_*.py", "tests/unit/test_wsl_plan.py", "tests/unit/test_windows_plan.py",
              "tests/unit/test_recommend_driver_package_is_planned.py", "tests/unit/test_fleet_plan.py")),
    Mutation("redaction-addresses", "redaction no longer learns addresses (IP, MAC, e-mail) from free text",
             (("app/report/redact/engine.py", "        network.learn_pieces(self, pieces, text, low)\n", ""),),
             ("tests/unit/test_report_redact*.py", "tests/unit/test_report_build.py", "tests/unit/test_fleet_report.py")),
    Mutation("privilege-allow-list", "the helper lets an install step run apt-get with any arguments",
             (("app/run/privileged.py", "        return (prog == \"apt-get\" and _apt(argv, {\"install\"})) or \\",
               "        return (prog == \"apt-get\") or \\"),),
             ("tests/unit/test_run_helper_*.py", "tests/unit/test_run_privileged*.py", "tests/unit/test_run_trust.py",
              "tests/unit/test_helper_last_routes.py", "tests/unit/test_diagnose_fix_runnable.py")),
)


def _files(root: Path) -> list[str]:
    r = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=root, capture_output=True, text=True, check=True)
    return [f for f in r.stdout.splitlines() if f and (root / f).is_file()]


def make_copy(dest: Path) -> Path:
    for f in _files(ROOT):
        p = dest / f
        p.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / f, p)
    return dest


def _expand(copy: Path, patterns: tuple[str, ...]) -> list[str]:
    out: list[str] = []
    for pat in patterns:
        hits = sorted(glob.glob(str(copy / pat))) if any(c in pat for c in "*?[") else ([str(copy / pat)] if (copy / pat).exists() else [])
        out += [os.path.relpath(h, copy) for h in hits if h not in out]
    return list(dict.fromkeys(out))


_PROGRESS = re.compile(r"^([.FEsxX]+)\s*(\[\s*\d+%\])?$")


def _one_file(copy: Path, test: str, env: dict[str, str], timeout_s: int) -> dict[str, int]:
    """One test file in its own pytest process (a mutation that crashes the interpreter, as Qt can, loses that
    file's remaining tests, counted as one more failure, never the whole area). Counts from pytest's progress
    characters."""
    counts = {"failed": 0, "passed": 0, "error": 0, "skipped": 0}
    try:
        r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--tb=no", "-o", "addopts=",
                            test], cwd=copy, capture_output=True, text=True, env=env, timeout=timeout_s)
    except subprocess.TimeoutExpired:
        counts["error"] = 1
        return counts
    for line in r.stdout.splitlines():
        m = _PROGRESS.match(line.strip())
        if m:
            for ch in m.group(1):
                key = {".": "passed", "F": "failed", "E": "error", "s": "skipped", "x": "skipped", "X": "failed"}[ch]
                counts[key] += 1
    if r.returncode not in (0, 1, 5):  # crashed, interrupted or could not collect
        counts["error"] += 1
    return counts


def run_tests(copy: Path, tests: list[str], timeout_s: int) -> dict[str, int]:
    env = dict(os.environ, PYTHONPATH=str(copy), QT_QPA_PLATFORM="offscreen", PYTHONDONTWRITEBYTECODE="1")
    total = {"failed": 0, "passed": 0, "error": 0, "skipped": 0}
    for test in tests:
        for k, v in _one_file(copy, test, env, timeout_s).items():
            total[k] += v
    return total


def apply(copy: Path, m: Mutation) -> dict[str, str]:
    """The mutation's edits in the copy; returns the files' original texts (for restore). Raises LookupError when stale."""
    saved: dict[str, str] = {}
    for rel, old, new in m.edits:
        p = copy / rel
        text = saved.get(rel) or p.read_text(encoding="utf-8")
        saved.setdefault(rel, text)
        cur = p.read_text(encoding="utf-8")
        if cur.count(old) != 1:
            restore(copy, saved)
            raise LookupError(f"{rel}: the mutated text occurs {cur.count(old)} times (the code moved: update the mutation)")
        p.write_text(cur.replace(old, new), encoding="utf-8")
    return saved


def restore(copy: Path, saved: dict[str, str]) -> None:
    for rel, text in saved.items():
        (copy / rel).write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="*", help="mutation names (default: all)")
    ap.add_argument("--tests", nargs="*", help="run these tests for every mutation instead of each one's area")
    ap.add_argument("--list", action="store_true", help="list the mutations and exit")
    ap.add_argument("--timeout", type=int, default=1800, help="seconds per test run")
    ap.add_argument("--min-failing", type=int, default=3, help="a mutation failing fewer tests than this is weak (exit 1)")
    a = ap.parse_args(argv)
    chosen = [m for m in MUTATIONS if not a.only or m.name in a.only]
    if a.list:
        for m in MUTATIONS:
            print(f"{m.name:22} {m.rule}")
        return 0
    rows = []
    with tempfile.TemporaryDirectory(prefix="gpu-wizard-mutate-") as tmp:
        copy = make_copy(Path(tmp) / "checkout")
        baselines: dict[tuple[str, ...], dict[str, int]] = {}
        for m in chosen:
            tests = _expand(copy, tuple(a.tests) if a.tests else m.tests)
            key = tuple(tests)
            if key not in baselines:
                baselines[key] = run_tests(copy, tests, a.timeout)
            base = baselines[key]
            t0 = time.monotonic()
            try:
                saved = apply(copy, m)
            except LookupError as e:
                rows.append((m, None, base, str(e), 0.0))
                continue
            try:
                got = run_tests(copy, tests, a.timeout)
            finally:
                restore(copy, saved)
            rows.append((m, got, base, "", time.monotonic() - t0))
            print(f"{m.name}: {got['failed'] + got['error']} of {got['failed'] + got['error'] + got['passed']} failing "
                  f"({len(tests)} test files, {time.monotonic() - t0:.0f} s)", file=sys.stderr, flush=True)
    return report(rows, a.min_failing)


def report(rows, min_failing: int) -> int:
    print(f"{'mutation':22} {'failing':>8} {'of':>6} {'baseline':>9}  rule")
    weak = False
    for m, got, base, problem, _secs in rows:
        b = base["failed"] + base["error"]
        if got is None:
            print(f"{m.name:22} {'stale':>8} {'':>6} {b:>9}  {problem}")
            weak = True
            continue
        bad = got["failed"] + got["error"] - b
        total = got["failed"] + got["error"] + got["passed"]
        weak = weak or bad < min_failing or b > 0
        print(f"{m.name:22} {bad:>8} {total:>6} {b:>9}  {m.rule}" + ("  <- WEAK" if bad < min_failing else ""))
    return 1 if weak else 0


if __name__ == "__main__":
    sys.exit(main())
