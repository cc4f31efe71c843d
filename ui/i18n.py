"""Translations: the window's own words from resources/translations, the engine's from the catalogue.

Every user-visible string of the window's own (labels, buttons, page titles) goes through `tr()`
(or `N_()` for a string defined before a translator exists, translated later with `tr()`). One
context for the whole GUI keeps that catalogue simple: resources/translations/update_ts.py extracts
these calls, and a test checks each has a non-empty zh_CN translation.

What the engine says (findings, recommendation warnings and reasons, plan steps, verify checks,
diagnosis causes and fixes) is a code with its figures; `engine_text`, `rec_text`, `plan_text` and
`diag_text` (ui/said.py, Qt-free, so the page states use them without Qt) say it in the window's language
through the one message catalogue (app.messages, resources/messages/*.json) that the CLI and the reports
use too. There is no second copy here.
"""
from __future__ import annotations

import locale
import os
from typing import Optional

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from app import messages
from app.paths import resource
from ui import said
# the window's engine sentences live in ui/said.py (Qt-free); their names stay importable from here
from ui.said import GUI, current_language, diag_text, engine_text, evidence_text, hint_text, plan_text, rec_text  # noqa: F401

CONTEXT = "gpu_wizard"
LANGUAGES = ("en", "zh_CN")


def tr(text: str, disambiguation: Optional[str] = None, n: int = -1) -> str:
    return QCoreApplication.translate(CONTEXT, text, disambiguation, n)


def N_(text: str) -> str:
    """Mark a string for the catalogue without translating it now."""
    return text


normalise_lang = messages.normalise_lang


def system_language() -> str:
    for var in ("GPU_WIZARD_LANG", "LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        v = os.environ.get(var)
        if v and v not in ("C", "POSIX", "C.UTF-8"):
            return normalise_lang(v.split(":")[0])
    try:
        return normalise_lang(QLocale.system().name())
    except Exception:  # noqa: BLE001 - no locale is fine
        return normalise_lang((locale.getlocale()[0] or ""))


def qm_path(lang: str):
    return resource("translations", f"gpu_wizard_{lang}.qm")


class Translator:
    """Installs the wizard's and Qt's own translators; switchable at run time (Qt sends a
    LanguageChange event to every widget, pages re-translate themselves)."""

    def __init__(self, app: QCoreApplication):
        self.app = app
        self.lang = "en"
        self._ours = QTranslator(app)
        self._qt = QTranslator(app)
        self._installed = False

    def set_language(self, lang: str) -> bool:
        lang = normalise_lang(lang)
        if self._installed:
            self.app.removeTranslator(self._ours)
            self.app.removeTranslator(self._qt)
            self._installed = False
        ok = True
        if lang != "en":
            ok = self._ours.load(str(qm_path(lang)))
            self._qt.load(f"qtbase_{lang}", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath))
            if ok:
                self.app.installTranslator(self._qt)
                self.app.installTranslator(self._ours)
                self._installed = True
        self.lang = lang if ok else "en"
        said.set_language(self.lang)
        return ok
