"""What the window says: no command-line flag and no terminal command as advice, no "below"
pointing above, jargon explained, plurals right. Every demo machine's System, Recommendation and
Plan pages are read in English and Simplified Chinese; the catalogue's window wordings ("@gui")
keep their base sentence's figures."""
from __future__ import annotations

import re

import pytest
from PySide6.QtWidgets import QLabel, QListWidget, QTreeWidget, QWizard

from app import messages
from app.paths import demo_snapshots
from ui import engine
from ui.main import build_wizard
from ui.wizard import Services

FLAG = re.compile(r"(?<![\w/=-])--[a-z][a-z-]+")  # --python-version, --no-torchvision (not a URL's "--")
DEMOS = demo_snapshots()


def _prose(page) -> list[str]:
    """The page's sentences (labels, lists, trees), not the commands it shows as commands."""
    out = []
    for lab in page.findChildren(QLabel):
        if page.source_banner.isAncestorOf(lab):
            continue  # the recorded machine's own note, quoted as the user wrote it
        if lab.isVisibleTo(page) and lab.text():
            out.append(re.sub(r"<code>.*?</code>", "", lab.text()))
    for lst in page.findChildren(QListWidget):
        out += [lst.item(i).text() for i in range(lst.count())]
    for tree in page.findChildren(QTreeWidget):
        for i in range(tree.topLevelItemCount()):
            top = tree.topLevelItem(i)
            out += [top.text(1)] + [top.child(j).text(1) for j in range(top.childCount())]
    return out


def test_window_wordings_keep_the_figures_and_drop_the_flags():
    for lang in messages.LANGUAGES:
        cat = messages.catalogue(lang)["messages"]
        gui = {k: v for k, v in cat.items() if k.endswith("@gui")}
        assert len(gui) >= 10
        for k, v in gui.items():
            base = cat[k[:-4]]
            assert messages.names(v) <= messages.names(base), k
            assert not FLAG.search(v), (k, v)


def test_no_terminal_command_as_advice_in_what_the_window_says():
    """Every engine sentence the window can show (findings, recommendation notes, checks, plan
    steps, diagnoses) as the window says it (its "@gui" wording where there is one): no
    `gpu-wizard <command>` to type. The CLI's and reports' own sentences may say them."""
    for lang in messages.LANGUAGES:
        cat = messages.catalogue(lang)["messages"]
        said = {k: cat.get(k + "@gui", v) for k, v in cat.items()
                if not k.endswith("@gui") and k.split(".", 1)[0] not in ("cli", "report", "fleet")}
        bad = {k: v for k, v in said.items() if re.search(r"gpu-wizard [a-z]", v)}
        assert not bad, bad
    from ui.i18n import rec_text

    said = rec_text("compat_data_stale", {"age": "90", "data": "2026.09.01"}, "english")
    assert "90" in said and "gpu-wizard" not in said


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
@pytest.mark.parametrize("snap", DEMOS, ids=[p.stem for p in DEMOS])
def test_no_cli_flags_no_below_on_the_demo_pages(qtbot, tmp_path, snap, lang):
    services = Services(state_dir=str(tmp_path), install_backend=lambda s: engine.DryRunBackend(0.0))
    w = build_wizard(snapshot=str(snap), lang=lang, services=services)
    qtbot.addWidget(w)
    w.show()
    texts = []
    for page in ("system", "recommendation", "plan"):
        qtbot.waitUntil(lambda: w.button(QWizard.WizardButton.NextButton).isEnabled(), timeout=20000)
        w.next()
        assert w.current_page_id == page
        p = w.currentPage()
        qtbot.waitUntil(lambda: p.isComplete(), timeout=20000)
        texts += _prose(p)
    joined = "\n".join(texts)
    assert not FLAG.search(joined), [joined[max(0, m.start() - 80):m.end() + 20] for m in FLAG.finditer(joined)]
    for pointing in ("command below", "minimum below", "choice below", "下面的命令", "下面的选择", "以下选择", "下面的最低"):
        assert pointing not in joined, pointing  # the cards are above the warnings
    assert not re.search(r"\b1 steps\b", joined)
    if re.search(r"\bsm_\d\d+", joined):  # jargon comes with its meaning
        assert "compute capability" in joined or "计算能力" in joined
    if w.session.facts.os.platform == "windows":  # its plan sets up WSL: no native pip command offered
        assert "pip install" not in w.pages["recommendation"].cards["pytorch"][1].text()


def test_plurals_and_the_password_line(qtbot, make_wizard):
    from tests.ui.fakes import make_plan

    for n, want, root in ((1, "1 step.", "It needs administrator rights"), (4, "4 steps.", "1 of them needs")):
        w, _s, _r = make_wizard(plan=make_plan(n))
        for _ in range(3):
            qtbot.waitUntil(lambda: w.button(QWizard.WizardButton.NextButton).isEnabled(), timeout=5000)
            w.next()
        plan = w.pages["plan"]
        qtbot.waitUntil(lambda: plan.state.plan is not None, timeout=5000)
        text = plan.status.text()
        assert text.startswith(want) and (root in text if n > 1 else "asked" not in text), text
        w.close()
