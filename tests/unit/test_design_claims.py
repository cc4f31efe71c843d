"""docs/DESIGN.md describes the code as it is: each claim that can be checked is checked here (the others are
held by the tests the document names, and every test, module, file and name it names must exist). A claim
that stops being true fails, and the document has to change with the code."""
from __future__ import annotations

import ast
import dataclasses
import functools
import html
import importlib
import json
import os
import re
import sys
import tomllib
import typing
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "DESIGN.md").read_text(encoding="utf-8")
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def _section(title: str) -> str:
    start = DOC.index(f"## {title}")
    nxt = DOC.find("\n## ", start + 3)
    return DOC[start:nxt if nxt > 0 else len(DOC)]


def _named() -> list[str]:
    """Every module, file, folder or name of the code the document names: `app/x.py`, `app.x.name`, `tests/...`."""
    found = set()
    for m in re.finditer(r"`([^`]+)`", DOC):
        t = m.group(1).strip().split("(")[0]
        if re.match(r"^(app|ui|tests|resources|scripts|installers|bench|\.ci)[/.]", t) and "<" not in t:
            found.add(t)
    for m in re.finditer(r"(?<![\w/`<])((?:app|ui|tests|resources|bench|scripts)/[\w/.\-*]+)", DOC):
        found.add(m.group(1).rstrip(".,;:)"))
    return sorted(found)


def _resolves(name: str) -> bool:
    if "*" in name:
        return bool(list(ROOT.glob(name)))
    if (ROOT / name).exists():
        return True
    if name.endswith((".py", ".json", ".md", ".sh", ".csv")) or name.endswith("/"):
        return False  # a file or folder named by path must be there as named
    parts = re.split(r"[/.]", name)
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        try:
            for attr in parts[i:]:
                obj = getattr(obj, attr)
        except AttributeError:
            return False
        return True
    return False


def test_every_name_the_document_gives_exists():
    names = _named()
    assert len(names) > 40  # the scan finds what the document names
    assert [n for n in names if not _resolves(n)] == []
    assert not _resolves("app/report/nothing_here.py") and not _resolves("app.run.record.NoSuchReducer")


def test_the_layout_lists_the_probes_builders_and_subcommands_there_are():
    layout = _section("Layout")
    probes = re.search(r"one module per probe \(([^)]*)\)", layout.replace("\n", " ")).group(1)
    listed = {p.strip() for p in re.sub(r"\s+", " ", probes).split(",")}
    have = {p.stem for p in (ROOT / "app" / "detect").glob("*.py")} - {"__init__", "findings"}
    assert listed == have
    builders = re.search(r"step builders \(([^)]*)\)", re.sub(r"\s+", " ", layout)).group(1)
    for b in (x.strip() for x in builders.split(",")):
        assert (ROOT / "app" / "plan" / f"{b}.py").exists() or (ROOT / "app" / "plan" / f"{b}s.py").exists(), b
    from app.cli import COMMANDS

    cmds = re.search(r"one module per subcommand: ([a-z\- ]+)", re.sub(r"\s+", " ", layout)).group(1).split()
    assert set(cmds) == set(COMMANDS)


def test_the_window_modules_said_to_be_qt_free_import_no_qt():
    for name in ("engine", "said", "state", "page_states"):
        tree = ast.parse((ROOT / "ui" / f"{name}.py").read_text(encoding="utf-8"))
        mods = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        mods |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
        assert not [m for m in mods if m.split(".")[0] in ("PySide6", "shiboken6", "pyqtgraph")], name
        assert not [m for m in mods if m.startswith(("ui.pages", "ui.widgets", "ui.wizard", "ui.bridge", "ui.i18n"))], name


def test_each_page_is_a_thin_page_over_a_qt_free_state():
    import ui.page_states as states

    for page in sorted((ROOT / "ui" / "pages").glob("*_page.py")):
        name = "".join(w.capitalize() for w in page.stem[:-5].split("_"))
        text = page.read_text(encoding="utf-8")
        assert re.search(rf"^class {name}Page\(", text, re.M), page.name
        m = re.search(r"self\.state = (\w+)\(", text)
        assert m, page.name
        assert not re.search(rf"^class {m.group(1)}\b", text, re.M), f"{page.name} defines its own state"
        import ui.state as session_states
        assert hasattr(states, m.group(1)) or hasattr(session_states, m.group(1)), page.name


def test_every_stage_value_is_a_frozen_model_that_round_trips_loosely():
    from app.diagnose.model import Diagnosis
    from app.facts import Facts
    from app.model import Model, is_frozen
    from app.plan.model import Plan
    from app.recommendation import Recommendation
    from app.report.model import Report
    from app.verify.model import Verification

    for cls in (Facts, Recommendation, Plan, Verification, Diagnosis, Report):
        assert issubclass(cls, Model) and is_frozen(cls), cls
        assert cls.from_json({"a_key_no_wizard_knows": 1}) == cls.from_json({})  # unknown ignored, missing defaulted


def test_the_catalogue_domains_and_the_language_order():
    from app import messages

    table = re.findall(r"^\| `([a-z]+)`(?:, `([a-z]+)`)? \|", _section("The message catalogue"), re.M)
    assert {d for row in table for d in row if d} == set(messages.DOMAINS)
    assert "else `GPU_WIZARD_LANG`, else the locale (`LC_ALL`, `LC_MESSAGES`,\n  `LANG`" in DOC
    assert messages.ENV_VARS == ("GPU_WIZARD_LANG", "LC_ALL", "LC_MESSAGES", "LANG")


def test_snapshot_run_state_events_and_statuses_are_as_written():
    from app.run import events, state
    from app.system import SNAPSHOT_FORMAT

    assert f'"format": "{SNAPSHOT_FORMAT}"' in DOC and SNAPSHOT_FORMAT == "gpu-wizard-snapshot/1"
    assert f"`{state.STATE_FORMAT}`; formats 1 and 2 still" in DOC and state.OLDER_FORMATS == (
        "gpu-wizard-state/1", "gpu-wizard-state/2")
    run = _section("Run state and events")
    listed = re.search(r"\*\*Events\*\* \(`app/run/events.py`\): (.*?) — frozen", run, re.S).group(1)
    assert re.findall(r"`(\w+)`", listed) == [c.__name__ for c in events.EVENT_TYPES.values()]
    assert all(dataclasses.is_dataclass(c) and c.__dataclass_params__.frozen for c in events.EVENT_TYPES.values())
    assert events.STEP_STATES == ("pending", "running", "ok", "skipped", "error", "cancelled")
    assert "`pending`, `running`, or ended as the engine says (`ok`, `skipped`,\n  `error`, `cancelled`" in run


def test_a_run_leaves_the_session_folder_the_document_lists(tmp_path):
    from app.plan.model import Plan, Step
    from app.run import Executor, Session

    listed = re.search(r"sessions`:\s*(.*?)\. Owned", _section("Run state and events"), re.S).group(1)
    files = [n for n in re.findall(r"`([\w.]+/?)`", listed)]
    s = Session.create(tmp_path)
    Executor(Plan(steps=(Step(id="install_pytorch", title="t", why="w", kind="install_pytorch",
                              commands=((sys.executable, "-c", "print(1)"),)),)), s, facts_json={}).run()
    made = {p.name + ("/" if p.is_dir() else "") for p in s.dir.iterdir()}
    lazily = {"downloads/", "backups/"}  # made by the first download or edit
    assert set(files) - lazily <= made and set(files) >= {"plan.json", "state.json", "events.jsonl", "commands.log"}


def test_the_tools_run_as_described():
    test_sh = (ROOT / "scripts" / "test.sh").read_text(encoding="utf-8")
    for tool in ("ruff check -q app ui tests", "mypy", "lint-imports --no-cache"):
        assert tool in test_sh
    tools = _section("Tools and contracts")
    contracts = PYPROJECT["tool"]["importlinter"]["contracts"]
    assert "with three contracts" in tools and len(contracts) == 3
    layers = next(c for c in contracts if c["type"] == "layers")["layers"]
    said = re.search(r"the stage layers in order —\s*(.*?)\s*\(", tools, re.S).group(1)
    names = [x.strip() for x in said.replace("\n", " ").split(">")]
    assert names == [lay.split(" : ")[-1] for lay in layers]
    mypy = PYPROJECT["tool"]["mypy"]
    assert f"`mypy` on {' and '.join(f + '/' for f in mypy['files'])} with\n`check_untyped_defs`" in tools
    assert mypy["check_untyped_defs"] is True
    exempt = {m for o in mypy.get("overrides", []) for m in ([o["module"]] if isinstance(o["module"], str) else o["module"])}
    assert len(exempt) <= 5  # issue 24: at most five modules exempt from any rule


@functools.lru_cache(maxsize=1)
def _plans() -> tuple:
    from tests.unit.engine_outputs import plans  # every plan of the demo and test machines

    return plans()


def test_conventions_step_ids_and_metric_units():
    from app.plan.model import validate_step
    from app.verify.model import Sample

    steps = [s for _where, p in _plans() for s in p.steps]
    assert steps and [s.id for s in steps if validate_step(s)] == []  # verb-first snake_case, known kinds
    # a measured quantity (a float) carries its unit; whole counters (ECC errors, replays), indices and words need none
    units = ("_pct", "_mib", "_w", "_mhz", "_c", "_mbps", "_gbps", "_s", "_bytes")
    hints = typing.get_type_hints(Sample)
    measured = [f.name for f in dataclasses.fields(Sample) if float in typing.get_args(hints[f.name]) or hints[f.name] is float]
    assert len(measured) >= 8 and [m for m in measured if not m.endswith(units)] == []
    clocks = [f.name for f in dataclasses.fields(Sample) if "clock" in f.name]
    assert clocks and all(c.endswith("_mhz") for c in clocks)  # an int that is a measure carries its unit too


def test_the_one_allowed_upward_import_is_the_graph_tests():
    """The one upward import the document allows is the graph test's (tests/tools/import_graph.py)."""
    sys.path.insert(0, str(ROOT / "tests" / "tools"))
    import import_graph

    assert "`app.cli` → `ui.main`" in DOC and import_graph.ALLOWED_UP == {("app.cli", "ui.main")}
    from tests.unit import test_import_graph as known  # its lists of exceptions

    assert "No other exception is left: 0 cycles" in DOC and not known.KNOWN_CYCLES and not known.KNOWN_UPWARD
    contracts = PYPROJECT["tool"]["importlinter"]["contracts"]
    assert "(no exceptions)" in DOC and not [c for c in contracts if c.get("ignore_imports")]
    base = next(c for c in contracts if c["name"].startswith("The base modules"))["source_modules"]
    assert len(base) == 11 and "the base modules (models, catalogue, choices, paths, install command, restart, file I/O,\nPowerShell quoting, patterns compiled later)" in DOC


def test_one_step_walks_from_the_planner_to_the_html(tmp_path):
    """The walk the document gives ("One step from the planner to the HTML report"), shape by shape: a planned
    install_pytorch step (its command made harmless) run by the real executor, read back by the report."""
    import shlex

    from app import messages
    from app.plan.model import Plan
    from app.report.build import build_report
    from app.report.model import StepOutcome
    from app.report.render_html import render_html
    from app.run import Executor, Session
    from app.run.events import EVENT_TYPES
    from app.run.state import STATE_FORMAT

    walk = _section("One step from the planner to the HTML report")
    where, plan = next((w, p) for w, p in _plans() if p.step("install_pytorch") and p.step("create_venv"))
    planned = plan.step("install_pytorch")
    ids = [s.id for s in plan.steps]
    assert ids.index("create_venv") < ids.index("install_pytorch") and planned.after == ("create_venv",), where
    assert planned.title_code == "install_pytorch" and {"packages", "index"} <= set(planned.params)
    assert planned.title == messages.render("plan", "install_pytorch", planned.params, "en")  # the catalogue's English
    assert [c.kind for c in planned.done_when] == ["python_packages"]
    # a command outside any home folder: the report redacts user names in paths (/home/ci/... as user ci)
    argv = ("/bin/sh", "-c", "echo 'Successfully installed torch'")
    step = dataclasses.replace(planned, commands=(argv,), done_when=(), after=(), needs_root=False, env={})

    s = Session.create(tmp_path)
    Executor(Plan(steps=(step,), platform=plan.platform), s, facts_json={}).run()
    d = s.dir
    written = json.loads((d / "plan.json").read_text(encoding="utf-8"))["steps"][0]
    for key in ("id", "title", "why", "kind", "commands", "title_code", "why_code", "params", "after"):
        assert key in written and f"`{key}`" in walk, key
    assert written["commands"] == [list(argv)]
    journal = [json.loads(line) for line in (d / "events.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [e["type"] for e in journal] == ["step_started", "command_finished", "step_finished", "plan_finished"]
    assert all("v" in e for e in journal) and {e["type"] for e in journal} <= set(EVENT_TYPES)
    for ev in ("CommandFinished", "StepFinished", "PlanFinished"):
        fields = re.search(rf"`{ev}` \(([^)]*)\)", walk.replace("\n", " ")).group(1)
        said = re.findall(r"`(\w+)`", fields)
        got = next(e for e in journal if e["type"] == re.sub(r"(?<!^)([A-Z])", r"_\1", ev).lower())
        assert said and set(said) <= set(got), (ev, said, got)
    log = (d / "commands.log").read_text(encoding="utf-8").split("\t")
    assert log[1] == "install_pytorch" and log[2] == "rc=0" and json.loads(log[4]) == list(argv)
    assert "Successfully installed torch" in (d / "output.log").read_text(encoding="utf-8")
    state = json.loads((d / "state.json").read_text(encoding="utf-8"))
    assert state["format"] == STATE_FORMAT and f"`{STATE_FORMAT}`" in walk
    said = re.findall(r"`(\w+)`", re.search(r"`gpu-wizard-state/3`: (.*?) under", walk, re.S).group(1))
    assert set(said) <= set(state["steps"]["install_pytorch"]) and len(said) >= 6

    report = build_report(session=d)
    (out,) = report.steps
    assert isinstance(out, StepOutcome) and out.status == "ok" and out.commands == (shlex.join(argv),)
    said = re.findall(r"`(\w+)`", re.search(r"`StepOutcome`\s*\((.*?)\) in `Report.steps`", walk, re.S).group(1))
    assert said == [f.name for f in dataclasses.fields(StepOutcome)]
    page = render_html(report)
    assert html.escape(planned.title, quote=False) in page or html.escape(planned.title) in page
    assert html.escape(messages.status_word("ok", "en")) in page and html.escape(shlex.join(argv)) in page
    zh = render_html(dataclasses.replace(report, lang="zh_CN"))
    zh_title = messages.render("plan", "install_pytorch", planned.params, "zh_CN")
    shown = zh.split("<script")[0]  # the page as read (the report's JSON rides along after it)
    assert zh_title != planned.title and html.escape(zh_title) in shown and html.escape(planned.title) not in shown


def _imports(path: Path) -> set[str]:
    """The absolute names a module imports (relative imports resolved against its package)."""
    rel = path.relative_to(ROOT).with_suffix("")
    pkg = list(rel.parts[:-1] if rel.name != "__init__" else rel.parts[:-1])
    out = set()
    for n in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(n, ast.Import):
            out |= {a.name for a in n.names}
        elif isinstance(n, ast.ImportFrom):
            base = ".".join(pkg[:len(pkg) - n.level + 1]) if n.level else ""
            mod = ".".join(x for x in (base, n.module or "") if x)
            out.add(mod)
            out |= {f"{mod}.{a.name}" for a in n.names}
    return out


def _sources() -> list[Path]:
    return sorted(p for top in ("app", "ui") for p in (ROOT / top).rglob("*.py"))


def test_files_and_the_network_have_one_home_each():
    from app import fileio, net
    from app.compat import cache

    files = _section("Files and the network")
    net_libs = ("requests", "urllib3", "truststore", "urllib.request", "http.client")
    readers = {str(p.relative_to(ROOT)) for p in _sources()
               if any(m == lib or m.startswith(lib + ".") for m in _imports(p) for lib in net_libs)}
    assert readers == {"app/net.py"}
    assert "`MAX_DEPTH` (64)" in files and fileio.MAX_DEPTH == 64 and fileio.MAX_BYTES == 64 << 20
    assert "`DEFAULT_DEADLINE_S`, 30 s" in files and net.DEFAULT_DEADLINE_S == 30.0
    assert "`MAX_REDIRECTS` (5)" in files and net.MAX_REDIRECTS == 5
    assert f"`{cache.ROOT_CACHE}` (`ROOT_CACHE`)" in files
    assert f"`{fileio.temp_name('name')[:6]}" not in files and fileio.is_temp_name(fileio.temp_name("x"), "x")
    assert ".<name>.<16 hex>" + fileio.TMP_SUFFIX in files


def test_the_password_door_as_written():
    from app import messages
    from app.run import askpass, machinelock, rootboot

    door = _section("The password door")
    assert f"`MAX_TRIES` ({askpass.MAX_TRIES})" in door and askpass.MAX_TRIES == 3
    assert "`/run/gpu-wizard/root.lock`" in door and (machinelock.LOCK_DIR, machinelock.LOCK_NAME) == (
        "/run/gpu-wizard", "root.lock")
    assert f"`{rootboot.RUN_BASE}`" in door
    boot = _imports(ROOT / "app" / "run" / "rootboot.py") - {"__future__", "__future__.annotations"}
    outside = {m for m in boot if m.split(".")[0] not in sys.stdlib_module_names}
    assert len(boot) > 8 and outside == {"app.run.privileged", "app.run.privileged.main"}  # after the copies check out
    rootfiles = _imports(ROOT / "app" / "run" / "rootfiles.py")
    assert "app.run.policy.PolicyError" in rootfiles and not [m for m in rootfiles if m.startswith("app.run.privileged")]
    assert "app.run.policy.PolicyError" in _imports(ROOT / "app" / "run" / "privileged.py")
    keys = re.findall(r"\bsay\(\"(\w+)\"", (ROOT / "ui" / "password_dialog.py").read_text(encoding="utf-8"))
    assert len(keys) >= 4 and all(k.startswith("door_dialog_") for k in keys)
    assert all(messages.has("cli", k, lang) for k in keys for lang in ("en", "zh_CN"))
    assert "`cli.door_no_way`" in door and messages.has("cli", "door_no_way", "zh_CN")
    assert "`cli.door_busy`" in door and messages.has("cli", "door_busy", "zh_CN")


def test_redaction_lists_its_modules_and_the_fleet_its_folder():
    from app.fleet.record import RECORD_FORMAT, FleetDir

    trust = _section("Trust boundaries")
    redact = re.search(r"Redaction \(`app/report/redact/`\)(.*?)valid one\)", trust, re.S).group(1)
    listed = set(re.findall(r"`(\w+)\.py`", redact))
    assert listed == {p.stem for p in (ROOT / "app" / "report" / "redact").glob("*.py")} - {"__init__"}
    fleet = _section("Fleet")
    assert f"`{RECORD_FORMAT}`" in fleet
    d = FleetDir("/fleet")
    for path in (d.record_path, d.plan_path):
        assert f"`{os.path.basename(path)}`" in fleet
    assert f"`{os.path.basename(d.hosts_dir)}/<host>/`" in fleet and f"`{os.path.basename(d.private_dir)}/`" in fleet


def test_nvml_through_ctypes_has_every_call_detection_makes():
    import app.nvml_ctypes as nvml_ctypes

    tree = ast.parse((ROOT / "app" / "nvml_live.py").read_text(encoding="utf-8"))
    read = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name in ("_open", "_query")]
    used = {a.attr for f in read for a in ast.walk(f) if isinstance(a, ast.Attribute) and isinstance(a.value, ast.Name)
            and a.value.id == "n"}
    assert len(used) >= 20 and [u for u in used if not hasattr(nvml_ctypes, u)] == []


def test_powershell_quoting_has_one_home():
    """No module but app/pwsh.py doubles a quote for PowerShell itself (a `.replace("'", "''")` of its own)."""
    doubling = []
    for p in _sources():
        for n in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "replace" \
                    and [getattr(a, "value", None) for a in n.args[:2]] == ["'", "''"]:
                doubling.append(str(p.relative_to(ROOT)))
    assert doubling == []
    from app.pwsh import SINGLE_QUOTES, ps_quote

    assert len(SINGLE_QUOTES) == 5 and "the five single-quote characters" in _section("Trust boundaries")
    assert ps_quote("a" + SINGLE_QUOTES + "b") == "'a" + "".join(q * 2 for q in SINGLE_QUOTES) + "b'"


def test_verify_layers_and_burn_in_phases_as_written():
    from app.commands.verify import LAYERS
    from app.verify.burn_probe import CHECK_EVERY, CYCLE_S, plan_phases

    ver = _section("Verification and the burn-in")
    said = re.search(r"per layer: ([a-z, ]+)\.", ver).group(1).split(", ")
    assert said == list(LAYERS)
    phases = {re.sub(r"^matmul_\w+$", "matmul_<precision>", p) for p, _s in plan_phases(3 * CYCLE_S, ["bf16", "fp32"], True)}
    listed = re.search(r"phase by phase — (.*?) — in cycles", ver, re.S).group(1)
    assert set(re.findall(r"`([a-z0-9]+(?:_<precision>)?)`", listed)) == phases
    assert CHECK_EVERY > 1 and "`CHECK_EVERY`" in ver and "`CYCLE_S`" in ver
