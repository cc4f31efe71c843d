"""Plan steps in Simplified Chinese: every step the planner builds for the demo machines (and a few
choices) carries a title/why code and the figures of its sentence; the GUI's zh_CN template for the
code uses only those figures, and the English source filled with them is exactly the engine's title/why."""
from __future__ import annotations

import json
import re

import pytest
from PySide6.QtCore import QCoreApplication

from app.choices import Choices, Mirrors
from app.compat import load_db
from app.detect import detect
from app.paths import demo_snapshots
from app.plan import build_plan
from app.plan.model import Plan, Step
from app.recommend import recommend
from app.system import SnapshotSystem
from app import messages
from ui.i18n import Translator, plan_text

CJK = re.compile(r"[\u4e00-\u9fff]")

VARIANTS = {
    "default": Choices(),
    "toolkit": Choices(want_toolkit=True, want_system_cudnn=True),
    "runfile": Choices(want_toolkit=True, install_method="runfile"),
    "uv": Choices(installer="uv", want_toolkit=True, mirrors=Mirrors(nvidia_repo_url="https://mirror.example/cuda/repos",
                                                                        pytorch_index_url="https://mirror.example/whl")),
}


def _english(code: str, params: dict[str, str]) -> str | None:
    try:
        return messages.render_strict("plan", code, params, "en")[0]
    except messages.MissingMessage:
        return None


@pytest.fixture(scope="module")
def plans():
    db = load_db(use_user_bundle=False)
    out = []
    for snap in demo_snapshots():
        data = json.loads(snap.read_text(encoding="utf-8"))
        facts = detect(SnapshotSystem(data))
        for name, ch in VARIANTS.items():
            rec = recommend(facts, db, ch)
            out.append((f"{snap.stem}/{name}", build_plan(facts, rec, ch)))
    return out


def test_every_step_has_codes_and_the_english_template_is_the_engines_text(plans):
    seen = set()
    for rid, plan in plans:
        for s in plan.steps:
            for code, english in ((s.title_code, s.title), (s.why_code, s.why)):
                assert messages.has("plan", code, "en"), (rid, s.id, code)
                assert _english(code, s.params) == english, (rid, s.id, code)
                seen.add(code)
            assert all(isinstance(k, str) and isinstance(v, str) for k, v in s.params.items()), (rid, s.id)
    # the demo machines and choices reach the common Linux, WSL 2 and Windows steps
    assert {"install_driver", "install_cuda_toolkit", "install_cuda_toolkit_runfile", "install_pytorch",
            "create_venv", "verify_pytorch_cuda", "write_cuda_env", "add_nvidia_repo", "install_cudnn"} <= seen, seen


def test_zh_cn_says_every_step(qapp, plans):
    tr_ = Translator(QCoreApplication.instance())
    assert tr_.set_language("zh_CN")
    try:
        for rid, plan in plans:
            for s in plan.steps:
                for code, english in ((s.title_code, s.title), (s.why_code, s.why)):
                    out = plan_text(code, s.params, english)
                    assert CJK.search(out), (rid, s.id, code, out)
                    assert "{" not in out.replace(english, ""), (rid, s.id, out)
    finally:
        tr_.set_language("en")


def test_english_and_fallbacks(qapp, plans):
    _rid, plan = plans[0]
    s = plan.steps[0]
    assert plan_text(s.title_code, s.params, s.title) == s.title  # English UI: the engine's text
    tr_ = Translator(QCoreApplication.instance())
    assert tr_.set_language("zh_CN")
    try:
        assert plan_text("no_such_code", {}, "English text") == "English text"
        assert plan_text("", {}, "English text") == "English text"
        assert plan_text("create_venv", {}, "Create the Python environment /x") == "Create the Python environment /x"
        assert CJK.search(plan_text("create_venv", {"venv": "/x"}, "Create the Python environment /x"))
    finally:
        tr_.set_language("en")


def test_older_plan_json_without_codes_still_loads(plans):
    _rid, plan = plans[0]
    data = plan.to_json()
    for st in data["steps"]:
        for k in ("title_code", "why_code", "params"):
            st.pop(k, None)
    old = Plan.from_json(data)
    assert [s.title for s in old.steps] == [s.title for s in plan.steps]
    assert all(s.title_code == "" and s.params == {} for s in old.steps)
    assert Plan.loads(plan.dumps()) == plan
    s = Step(id="verify", title="t", why="w", kind="verify", title_code="c", params={"a": "b"})
    assert Step.from_json(s.to_json()) == s


def _plan_page(qtbot, tmp_path, snap, lang):
    from PySide6.QtWidgets import QWizard

    from ui import engine
    from ui.main import build_wizard
    from ui.wizard import Services

    services = Services(state_dir=str(tmp_path / "state"), install_backend=lambda s: engine.DryRunBackend(step_delay_s=0.0))
    w = build_wizard(snapshot=str(snap), lang=lang, services=services)
    qtbot.addWidget(w)
    w.show()
    for expect in ("system", "recommendation", "plan"):
        qtbot.waitUntil(lambda: w.button(QWizard.WizardButton.NextButton).isEnabled(), timeout=10000)
        w.next()
        assert w.current_page_id == expect
    page = w.pages["plan"]
    qtbot.waitUntil(lambda: page.state.plan is not None and not page.state.busy, timeout=10000)
    return w, page


def test_plan_page_in_chinese_then_english(qtbot, tmp_path):
    snap = next(p for p in demo_snapshots() if "rtx3060" in p.name)  # no driver: driver, PyTorch and check steps
    w, page = _plan_page(qtbot, tmp_path, snap, "zh_CN")
    steps = page.state.steps
    assert steps and page.tree.topLevelItemCount() == len(steps)
    for i, s in enumerate(steps):
        item = page.tree.topLevelItem(i)
        assert item.text(1) != s.title and CJK.search(item.text(1)), (s.id, item.text(1))
        assert s.title in item.toolTip(1) and s.why in item.toolTip(1)  # the engine's English for reference
        assert CJK.search(item.toolTip(1).split("\n\n")[0])
    page.tree.setCurrentItem(page.tree.topLevelItem(0))
    assert CJK.search(page.detail.toPlainText())
    w.set_language("en")
    qtbot.waitUntil(lambda: page.title() == "Plan", timeout=2000)
    for i, s in enumerate(steps):
        item = page.tree.topLevelItem(i)
        assert item.text(1) == s.title and item.toolTip(1) == s.why


def test_install_page_step_list_in_chinese(qtbot, tmp_path):
    snap = next(p for p in demo_snapshots() if "rtx3060" in p.name)
    w, page = _plan_page(qtbot, tmp_path, snap, "zh_CN")
    try:
        _check_install_page(qtbot, w, page)
    finally:
        w.set_language("en")  # the wizard's translator belongs to the application: leave it English


def _check_install_page(qtbot, w, page):
    from PySide6.QtCore import Qt

    steps = page.state.steps
    pass  # pressing Install (Next) confirms the plan
    w.next()
    assert w.current_page_id == "install"
    inst = w.pages["install"]
    qtbot.waitUntil(lambda: inst.result is not None, timeout=10000)
    assert inst.steps.count() == len(steps)
    for i, s in enumerate(steps):
        item = inst.steps.item(i)
        title = item.text().split("\n", 1)[0]
        assert s.title not in title and CJK.search(title), (s.id, item.text())
        assert item.toolTip() == s.title
        assert CJK.search(item.data(Qt.ItemDataRole.AccessibleTextRole))
    from ui.pages.summary_page import SummaryState

    rows = SummaryState(install=inst.state).changes()  # the Summary page's list of what ran
    assert len(rows) == len(steps) and all(CJK.search(t) for _st, t in rows), rows


class _InterruptedDpkg:
    """A machine whose dpkg journal holds an unfinished run (/var/lib/dpkg/updates/0001)."""

    def list_dir(self, path):
        return ["0001"] if path == "/var/lib/dpkg/updates" else None


def test_more_machines_reach_every_step_code(qapp, plans):
    """Beyond the demo snapshots: the plan builders' own test machines (old CUDA, nouveau, RHEL/dnf,
    a Linux driver inside WSL, Windows with WSL 1 / an old driver / no distro), so every template is
    checked against the engine's English, and said in Chinese with the steps' params."""
    from tests.unit import test_plan_builders as pb
    from tests.unit import test_windows_plan as wp
    from tests.unit import test_wsl_plan as wsl
    from app.facts import OsInfo
    from app.run.executor import with_dpkg_repair

    db = load_db(use_user_bundle=False)
    more = [build_plan(pb.ubuntu_facts(), pb.REC, Choices(want_toolkit=True)),
             build_plan(pb.ubuntu_facts(), pb.REC.replace(pytorch=pb.REC.pytorch.replace(reason="")), Choices()),
             build_plan(pb.ubuntu_facts(os=OsInfo(platform="linux", id="rhel", version_id="9.4", arch="x86_64",
                                                 package_manager="dnf", kernel="5.14.0-427.el9.x86_64")),
                        pb.REC, Choices(install_method="dnf", want_toolkit=True)),
             build_plan(pb.ubuntu_facts(os=OsInfo(platform="linux", id="rhel", version_id="9.4", arch="x86_64",
                                                 package_manager="dnf")),
                        pb.REC, Choices(install_method="dnf", mirrors=Mirrors(nvidia_repo_url="https://mirror.example/cuda/repos"))),
             build_plan(pb.ubuntu_facts(), pb.REC.replace(driver=pb.REC.driver.replace(action="upgrade"),
                                                          pytorch=pb.REC.pytorch.replace(index="cpu", index_url=None)), Choices()),
             build_plan(pb.ubuntu_facts(python=pb.ubuntu_facts().python.replace(venv_ok=False)), pb.REC, Choices()),
             wsl._plan(wsl._with_wrong_driver(wsl.DEMO), db)[2],
             with_dpkg_repair(build_plan(pb.ubuntu_facts(), pb.REC, Choices()), _InterruptedDpkg())]
    win = wp.WIN
    old_driver = wp._with_wsl((win / "wsl_l_v_ubuntu2204.txt").read_text(), (win / "wsl_status_2022.txt").read_text())
    smi = r"C:\Windows\System32\nvidia-smi.exe"
    old_driver["commands"][smi]["stdout"] = (win / "smi_win_517_two_gpus.out").read_text()
    old_driver["commands"].pop(wp.command_key(wp.smi_mod.query_argv(wp.W.SMI_QUERY_FIELDS, exe=smi)))
    more.append(wp._plan(old_driver, db)[2])
    for listing, status in (((win / "wsl_l_v_ubuntu2204.txt").read_text(), (win / "wsl_status_2022.txt").read_text()),
                            ((win / "wsl_l_v_ubuntu2204.txt").read_text(), "Default Distribution: Ubuntu-22.04\nDefault Version: 2\n"
                             "WSL 2 requires an update to its kernel component. Please run 'wsl.exe --update'.\n"),
                            ("  NAME            STATE           VERSION\n* Ubuntu          Stopped         1\n",
                             "Default Distribution: Ubuntu\nDefault Version: 1\n"),
                            ((win / "wsl_l_v_none.txt").read_text(), (win / "wsl_status_short.txt").read_text())):
        more.append(wp._plan(wp._with_wsl(listing, status), db)[2])
    seen = set()
    t = Translator(QCoreApplication.instance())
    try:
        for plan in more:
            for s in plan.steps:
                for code, english in ((s.title_code, s.title), (s.why_code, s.why)):
                    assert messages.has("plan", code, "en"), (s.id, code)
                    assert _english(code, s.params) == english, (s.id, code)
                    assert t.set_language("zh_CN")
                    assert CJK.search(plan_text(code, s.params, english)), (s.id, code)
                    t.set_language("en")
                    seen.add(code)
                    seen.add(s.params.get("reason_code", ""))
    finally:
        t.set_language("en")
    seen |= {c for _rid, p in plans for s in p.steps for c in (s.title_code, s.why_code)}
    missing = {k.split(".", 1)[1] for k in messages.catalogue("en")["messages"] if k.startswith("plan.")
               and not k.startswith(("plan.note_", "plan.warn_", "plan.diagnose_", "plan.summary_"))
               and ".step." not in k} - seen  # notes, warnings: tests/unit/test_messages.py; a diagnosis's fix
    # steps (plan.<rule>.step.<id>.*, plan.diagnose_*): tests/unit/test_diagnose_fixstep_i18n.py
    assert missing == set(), sorted(missing)
