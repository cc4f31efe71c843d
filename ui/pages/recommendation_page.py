"""Recommendation: driver, toolkit, cuDNN and PyTorch with the engine's reasons; Advanced
choices go back to the engine's recommend(), which refuses an incompatible one — the page
shows the refusal inline and cannot be confirmed until it is resolved."""
from __future__ import annotations

import html
from typing import Optional

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QListView, QCheckBox, QComboBox, QFormLayout, QFrame, QGridLayout, QGroupBox, QHBoxLayout, QLabel,
                               QLineEdit, QListWidget, QListWidgetItem, QPushButton, QScrollArea, QToolButton,
                               QVBoxLayout, QWidget)

from app.choices import Choices, Mirrors
from app.recommendation import Recommendation
from ui import engine
from ui.i18n import rec_text, tr
from ui.page_states import RecommendationState
from ui.pages.base import BasePage, join_sentences
from ui.widgets.icons import status_icon


def explain_terms(text: str) -> list[str]:
    """One line for each piece of jargon in a card: sm_89 is a compute capability; PTX; minor-version
    compatibility; cuDNN. Figures come from the text itself."""
    import re

    out = []
    for m in dict.fromkeys(re.findall(r"\bsm_(\d)(\d+)\b", text)):
        out.append(tr("sm_{a}{b}: compute capability {a}.{b}, the GPU's generation; a PyTorch build runs only on the "
                      "generations it was built for.").format(a=m[0], b=m[1]))
    if "PTX" in text:
        out.append(tr("PTX: GPU code the driver compiles for this GPU the first time a program runs (a slower start)."))
    if re.search(r"minor-version compatib", text):
        out.append(tr("Minor-version compatibility: a driver for CUDA 12.0 or later runs programs built with any "
                      "CUDA 12.x (the same for 13.x)."))
    return out


def _opt(text: str) -> Optional[str]:
    t = text.strip()
    return t or None


class RecommendationPage(BasePage):
    page_id = "recommendation"

    def __init__(self, wizard):
        super().__init__(wizard)
        self.state = RecommendationState(choices=self.session.choices)
        self.status = QLabel(self)
        self.status.setWordWrap(True)
        self.layout_.addWidget(self.status)

        scroll = QScrollArea(self)
        self.scroll_area = scroll
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        inner = QWidget()
        il = QVBoxLayout(inner)
        il.setContentsMargins(0, 0, 0, 0)
        grid = QGridLayout()
        self.cards: dict[str, tuple[QGroupBox, QLabel]] = {}
        for i, key in enumerate(("driver", "toolkit", "cudnn", "pytorch")):
            box = QGroupBox(inner)
            lab = QLabel(box)
            lab.setWordWrap(True)
            lab.setTextFormat(Qt.TextFormat.RichText)
            lab.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse | Qt.TextInteractionFlag.TextSelectableByKeyboard)
            QVBoxLayout(box).addWidget(lab)
            self.cards[key] = (box, lab)
            grid.addWidget(box, i // 2, i % 2)
        il.addLayout(grid)
        self.refused = QLabel(inner)
        self.refused.setObjectName("refused")
        self.refused.setWordWrap(True)
        self.refused.setStyleSheet("QLabel { color: #c62828; font-weight: bold; }")
        self.refused.hide()
        il.addWidget(self.refused)
        self.warnings = QListWidget(inner)
        self.warnings.setObjectName("rec_warnings")
        self.warnings.setWordWrap(True)
        self.warnings.setResizeMode(QListView.ResizeMode.Adjust)  # re-wrap items when the width changes
        self.warnings.setMaximumHeight(110)
        il.addWidget(self.warnings)

        self.adv_toggle = QToolButton(inner)
        self.adv_toggle.setObjectName("advanced_toggle")
        self.adv_toggle.setCheckable(True)
        self.adv_toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.adv_toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.adv_toggle.toggled.connect(self._toggle_advanced)
        il.addWidget(self.adv_toggle)
        self.adv = QWidget(inner)
        self.adv.setObjectName("advanced")
        form = QFormLayout(self.adv)
        self.torch_version = QComboBox(self.adv)
        self.torch_version.setEditable(True)
        self.torch_variant = QComboBox(self.adv)
        self.torch_variant.setEditable(True)
        self.want_toolkit = QCheckBox(self.adv)
        self.method = QComboBox(self.adv)
        for m in ("apt", "dnf", "runfile"):
            self.method.addItem(m, m)
        self.venv = QLineEdit(self.adv)
        self.pypi = QLineEdit(self.adv)
        self.torch_index = QLineEdit(self.adv)
        self.nvidia_repo = QLineEdit(self.adv)
        self.proxy = QLineEdit(self.adv)
        self.ca_bundle = QLineEdit(self.adv)
        from PySide6.QtWidgets import QStyle

        browse = self.ca_bundle.addAction(self.style().standardIcon(QStyle.StandardPixmap.SP_DirOpenIcon),
                                          QLineEdit.ActionPosition.TrailingPosition)
        browse.triggered.connect(self._choose_ca_bundle)
        self.ca_browse = browse
        self.form_labels: dict[str, QLabel] = {}
        for key, w in (("torch_version", self.torch_version), ("torch_variant", self.torch_variant),
                       ("want_toolkit", self.want_toolkit), ("method", self.method), ("venv", self.venv),
                       ("pypi", self.pypi), ("torch_index", self.torch_index), ("nvidia_repo", self.nvidia_repo),
                       ("proxy", self.proxy), ("ca_bundle", self.ca_bundle)):
            lab = QLabel(self.adv)
            lab.setBuddy(w)
            w.setObjectName(key)
            self.form_labels[key] = lab
            form.addRow(lab, w)
        btns = QHBoxLayout()
        self.apply_btn = QPushButton(self.adv)
        self.apply_btn.setObjectName("apply_choices")
        self.apply_btn.clicked.connect(self.apply_choices)
        self.reset_btn = QPushButton(self.adv)
        self.reset_btn.clicked.connect(self.reset_choices)
        btns.addWidget(self.apply_btn)
        btns.addWidget(self.reset_btn)
        btns.addStretch(1)
        form.addRow(btns)
        self.adv.hide()
        il.addWidget(self.adv)
        il.addStretch(1)
        scroll.setWidget(inner)
        self.layout_.addWidget(scroll, 1)
        for w in (self.torch_version, self.torch_variant, self.method):
            w.currentTextChanged.connect(self._edited)
        self.want_toolkit.toggled.connect(self._edited)
        for w in (self.venv, self.pypi, self.torch_index, self.nvidia_repo, self.proxy, self.ca_bundle):
            w.textEdited.connect(self._edited)
        self._loading = False
        self._load_choices(self.state.choices)

    # --- flow ----------------------------------------------------------------------------
    def enter(self) -> None:
        s = self.session
        if s.recommendation is not None:
            self._got(s.recommendation)
            return
        recorded = engine.report_value(s.report_data, "recommendation", Recommendation) if s.report_data else None
        if recorded is not None:
            self._got(recorded)
            return
        if s.source.kind == "report":  # never solved again here: the report is the user's machine
            self.show_error(tr("The report holds no recommendation: the user's wizard did not get that far."), "info")
            return
        self.run_recommend(self.state.choices)

    def run_recommend(self, choices: Choices) -> None:
        self._gen = getattr(self, "_gen", 0) + 1  # only the latest request's answer is shown (and planned from)
        gen = self._gen
        if self.session.facts is None:  # reached without the System page (Troubleshoot → network settings)
            svc = self.w.services
            system = svc.system if svc.system is not None or svc.report is not None else svc.get_system()
            self.state.busy = True
            self.retranslate_status()
            self.completeChanged.emit()

            def detected(facts) -> None:
                if self.session.facts is None:
                    self.session.facts = facts
                if gen == self._gen:
                    self.state.busy = False
                    self.run_recommend(choices)

            self.tasks.submit(svc.detect, system, self.session.overrides, svc.report, on_done=detected, on_error=self._failed)
            return
        self.state.busy = True
        self.state.error = None
        self.clear_error()
        self.apply_btn.setEnabled(False)
        self.completeChanged.emit()
        self.retranslate_status()
        def done(rec: Recommendation) -> None:
            if gen == self._gen:  # a later request replaced this one: its answer is dropped
                self._got(rec, choices)

        self.tasks.submit(self.w.services.recommend, self.session.facts, choices, on_done=done, on_error=self._failed)

    def _got(self, rec: Recommendation, choices: Optional[Choices] = None) -> None:
        self.state.busy = False
        self.state.recommendation = rec
        if choices is not None:
            self.state.choices = choices
        if not rec.refused:
            if rec is not self.session.recommendation or self.session.choices != self.state.choices:
                self.session.plan, self.session.plan_basis = None, None  # built from other choices: never run
                self.session.plan_confirmed = False
            self.session.recommendation = rec
            self.session.choices = self.state.choices
        self.state.dirty = False
        self.apply_btn.setEnabled(not self.session.read_only)
        for w in self.form_labels.values():  # a walkthrough shows the user's choices, read-only
            if w.buddy() is not None:
                w.buddy().setEnabled(not self.session.read_only)
        self.reset_btn.setEnabled(not self.session.read_only)
        self._fill_alternatives(rec)
        self.show_state()
        self.completeChanged.emit()

    def _failed(self, message: str, _d: str) -> None:
        self.state.busy = False
        self.state.error = message
        self.apply_btn.setEnabled(True)
        self.show_error(tr("No recommendation: {error}").format(error=message))
        self.retranslate_status()
        self.completeChanged.emit()

    def _edited(self, *_a) -> None:
        if not self._loading:
            self.state.dirty = True
            self.completeChanged.emit()
            self.retranslate_status()

    def _choose_ca_bundle(self) -> None:
        from PySide6.QtWidgets import QFileDialog

        path, _ = QFileDialog.getOpenFileName(self, tr("Choose the certificate bundle"), "",
                                              tr("Certificates (*.pem *.crt *.cer);;All files (*)"))
        if path:
            self.ca_bundle.setText(path)
            self._edited()

    def show_network_settings(self, field: str = "proxy") -> None:
        """Open Advanced at the proxy / mirror / certificate fields (a download of the wizard failed)."""
        self.adv_toggle.setChecked(True)
        target = {"ca_bundle": self.ca_bundle, "proxy": self.proxy, "pypi": self.pypi}.get(field, self.proxy)
        self.show_error(tr("The wizard could not download what it needs. Enter your proxy, a mirror or your "
                           "organisation's certificate bundle, press Apply, then Next: the plan is made again with them."),
                        "warning")
        self.scroll_area.ensureWidgetVisible(target)
        target.setFocus()

    def _toggle_advanced(self, on: bool) -> None:
        self.adv.setVisible(on)
        self.adv_toggle.setArrowType(Qt.ArrowType.DownArrow if on else Qt.ArrowType.RightArrow)

    def choices_from_form(self) -> Choices:
        c = self.state.choices
        ver_text = self.torch_version.currentText().strip()
        var_text = self.torch_variant.currentText().strip()
        return c.replace(
            torch_version=None if ver_text in ("", tr("recommended")) else ver_text,
            torch_variant=None if var_text in ("", tr("recommended")) else var_text,
            want_toolkit=self.want_toolkit.isChecked(),
            install_method=self.method.currentData() or "apt",
            venv_path=self.venv.text().strip() or Choices().venv_path,
            mirrors=Mirrors(pypi_index_url=_opt(self.pypi.text()), pytorch_index_url=_opt(self.torch_index.text()),
                            nvidia_repo_url=_opt(self.nvidia_repo.text()), https_proxy=_opt(self.proxy.text()),
                            ca_bundle=_opt(self.ca_bundle.text())))

    def apply_choices(self) -> None:
        self.state.dirty = False
        self.run_recommend(self.choices_from_form())

    def reset_choices(self) -> None:
        self._load_choices(Choices())
        self.apply_choices()

    def _load_choices(self, c: Choices) -> None:
        self._loading = True
        try:
            for combo, val in ((self.torch_version, c.torch_version), (self.torch_variant, c.torch_variant)):
                if val:
                    combo.setCurrentText(val)
                else:
                    combo.setCurrentIndex(0) if combo.count() else combo.setCurrentText("")
            self.want_toolkit.setChecked(c.want_toolkit)
            self.method.setCurrentIndex(max(0, self.method.findData(c.install_method)))
            self.venv.setText(c.venv_path)
            self.pypi.setText(c.mirrors.pypi_index_url or "")
            self.torch_index.setText(c.mirrors.pytorch_index_url or "")
            self.nvidia_repo.setText(c.mirrors.nvidia_repo_url or "")
            self.proxy.setText(c.mirrors.https_proxy or "")
            self.ca_bundle.setText(c.mirrors.ca_bundle or "")
        finally:
            self._loading = False

    def _fill_alternatives(self, rec: Recommendation) -> None:
        self._loading = True
        try:
            self.torch_version.clear()
            self.torch_variant.clear()
            self.torch_version.addItem(tr("recommended"), None)
            self.torch_variant.addItem(tr("recommended"), None)
            versions = [rec.pytorch.version] + [a.torch_version for a in rec.alternatives]
            for v in dict.fromkeys(x for x in versions if x):
                self.torch_version.addItem(v, v)
            for i in dict.fromkeys(x for x in [rec.pytorch.index] + [a.index for a in rec.alternatives] + ["cpu"] if x):
                self.torch_variant.addItem(i, i)
            c = self.state.choices
            self.torch_version.setCurrentText(c.torch_version or tr("recommended"))
            self.torch_variant.setCurrentText(c.torch_variant or tr("recommended"))
        finally:
            self._loading = False

    def isComplete(self) -> bool:  # noqa: N802
        return self.state.can_confirm()

    # --- rendering -----------------------------------------------------------------------
    def show_state(self) -> None:  # not QWidget.render
        rec = self.state.recommendation
        e = html.escape
        if rec is None:
            for _box, lab in self.cards.values():
                lab.setText("")
            self.retranslate_status()
            return
        d, t, c, p = rec.driver, rec.cuda_toolkit, rec.cudnn, rec.pytorch
        actions = {"keep": tr("keep the installed driver"), "upgrade": tr("upgrade the driver"),
                   "install": tr("install the driver"), "host": tr("the Windows host provides the driver"),
                   "none": tr("nothing to do")}
        dv = actions.get(d.action, d.action)
        if d.package:
            dv += f" — <b>{e(d.package)}</b>"
        elif d.current_version:
            dv += f" — <b>{e(d.current_version)}</b>"
        if d.min_version:
            dv += "<br>" + tr("needs at least {v}").format(v=e(d.min_version))
        self._card("driver", dv, d.reason, d.reason_code, d.reason_params)
        if t.wanted:
            tv = tr("install CUDA {v}").format(v=f"<b>{e(t.version or '?')}</b>") + (f" ({e(t.package)})" if t.package else "")
        else:
            tv = tr("not needed: the PyTorch wheel brings its own CUDA runtime")
        self._card("toolkit", tv, t.reason, t.reason_code, t.reason_params)
        src = {"wheel": tr("bundled with PyTorch"), "system": tr("system package")}.get(c.source or "", c.source or "")
        self._card("cudnn", f"<b>{e(c.version or '—')}</b> {e(src)}", c.reason, c.reason_code, c.reason_params)
        if p.version:
            pv = f"<b>torch {e(p.version)}</b> ({e(p.index or '')})"
            if p.cuda_runtime:
                pv += "<br>" + tr("CUDA runtime {v}").format(v=e(p.cuda_runtime))
            facts = self.session.facts
            if facts is not None and facts.os.platform == "windows":
                # the plan sets up WSL 2 and installs PyTorch inside it: no native pip command here
                pv += "<br>" + e(tr("Installed inside Ubuntu under WSL 2, as the plan sets up."))
            elif p.command:
                pv += f"<br><code>{e(p.command)}</code>"
        else:
            pv = tr("no PyTorch release can use this GPU here")
        self._card("pytorch", pv, p.reason, p.reason_code, p.reason_params)
        self.warnings.clear()
        for w in rec.warnings:
            sev = {"error": "error", "warning": "warning"}.get(w.severity, "info")
            text = rec_text(w.code, w.params, w.message)
            item = QListWidgetItem(status_icon(sev), text)
            en = rec_text(w.code, w.params, w.message, "en")  # the window's English, as the findings do
            item.setToolTip(en if text != en else "")
            self.warnings.addItem(item)
        self.warnings.setVisible(bool(rec.warnings))
        if rec.refused:
            detail = rec.refused_detail if len(rec.refused_detail) == len(rec.refused) else ()
            said = [rec_text(x.code, x.params, r) for x, r in zip(detail, rec.refused)] if detail else list(rec.refused)
            self.refused.setText(tr("This choice cannot be used:") + "\n• " + "\n• ".join(said) + "\n"
                                 + tr("Change it, or press Reset to go back to the recommendation."))
            self.refused.setAccessibleName(self.refused.text())
            self.refused.show()
            self.adv_toggle.setChecked(True)
        else:
            self.refused.hide()
        self.retranslate_status()

    def _card(self, key: str, value_html: str, reason: str, code: Optional[str] = None,
              params: Optional[dict[str, str]] = None) -> None:
        lab = self.cards[key][1]
        txt = value_html
        said = rec_text(code, params, reason) if reason else ""
        if said:
            txt += "<br><span>" + join_sentences([tr("Why:"), html.escape(said)]) + "</span>"
        terms = explain_terms(value_html + " " + said)
        if terms:
            txt += "<br><small>" + "<br>".join(html.escape(t) for t in terms) + "</small>"
        lab.setText(txt)
        en = rec_text(code, params, reason, "en") if reason else ""
        lab.setToolTip(en if said != en else "")  # the English sentence when translated
        lab.setAccessibleName(lab.text())

    def retranslate_status(self) -> None:
        if self.state.busy:
            self.status.setText(tr("Working out what fits this machine…"))
        elif self.state.dirty:
            self.status.setText(tr("You changed the advanced choices: press Apply to check them."))
        elif self.state.refused:
            self.status.setText(tr("The advanced choices do not work on this machine: see the red text under the cards."))
        elif self.state.recommendation is not None:
            db = self.state.recommendation.db_version
            self.status.setText(join_sentences([tr("Recommended for this machine."),
                                                tr("Compatibility data: {v}").format(v=db) if db else ""]))
        else:
            self.status.setText("")

    def retranslate(self) -> None:
        self.setTitle(tr("Recommendation"))
        self.setSubTitle(tr("Versions that work together on this machine, and why."))
        titles = {"driver": tr("NVIDIA driver"), "toolkit": tr("CUDA toolkit"), "cudnn": tr("cuDNN"), "pytorch": tr("PyTorch")}
        for k, (box, _lab) in self.cards.items():
            box.setTitle(titles[k])
        self.warnings.setAccessibleName(tr("Warnings"))
        self.scroll_area.setAccessibleName(tr("Recommendation details"))
        self.adv_toggle.setText(tr("&Advanced"))
        self.adv_toggle.setAccessibleName(tr("Show advanced choices"))
        names = {"torch_version": tr("PyTorch &version:"), "torch_variant": tr("PyTorch va&riant:"),
                 "want_toolkit": tr("Also install the CUDA &toolkit (nvcc):"), "method": tr("Toolkit install &method:"),
                 "venv": tr("Target &virtual environment:"), "pypi": tr("P&yPI mirror URL:"),
                 "torch_index": tr("PyTorch &index URL:"), "nvidia_repo": tr("NVIDIA &repository mirror:"),
                 "proxy": tr("HTTPS &proxy:"), "ca_bundle": tr("&Certificate bundle (CA file):")}
        for k, lab in self.form_labels.items():
            lab.setText(names[k])
            if lab.buddy() is not None:
                lab.buddy().setAccessibleName(names[k].replace("&", "").rstrip(":"))
        self.apply_btn.setText(tr("A&pply"))
        self.apply_btn.setAccessibleName(tr("Check these choices"))
        self.reset_btn.setText(tr("Rese&t"))
        self.reset_btn.setAccessibleName(tr("Back to the recommendation"))
        self.show_state()
