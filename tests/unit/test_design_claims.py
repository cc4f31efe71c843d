"""docs/DESIGN.md describes the code as it is: each claim that can be checked is checked here (the others are
held by the tests the document names, and every test, module, file and name it names must exist). A claim
that stops being true fails, and the document has to change with the code."""
from __future__ import annotations

import ast
import dataclasses
import importlib
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
    from app.model import Model
    from app.plan.model import Plan
    from app.recommendation import Recommendation
    from app.report.model import Report
    from app.verify.model import Verification

    for cls in (Facts, Recommendation, Plan, Verification, Diagnosis, Report):
        assert issubclass(cls, Model) and dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen, cls
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
    files = PYPROJECT["tool"]["mypy"]["files"]
    assert f"`mypy` on {' and '.join(f + '/' for f in files)}" in tools


def test_conventions_step_ids_and_metric_units():
    from app.plan.model import validate_step
    from app.verify.model import Sample
    from tests.unit.engine_outputs import plans  # every plan of the demo and test machines

    steps = [s for _where, p in plans() for s in p.steps]
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
