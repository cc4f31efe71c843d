"""Translations: the window's own words from resources/translations, the engine's from the catalogue.

Every user-visible string of the window's own (labels, buttons, page titles) goes through `tr()`
(or `N_()` for a string defined before a translator exists, translated later with `tr()`). One
context for the whole GUI keeps that catalogue simple: resources/translations/update_ts.py extracts
these calls, and a test checks each has a non-empty zh_CN translation.

What the engine says (findings, recommendation warnings and reasons, plan steps, verify checks,
diagnosis causes and fixes) is a code with its figures; `engine_text`, `rec_text`, `plan_text` and
`diag_text` say it in the window's language through the one message catalogue (app.messages,
resources/messages/*.json) that the CLI and the reports use too. There is no second copy here.
"""
from __future__ import annotations

import locale
import os
from typing import Any, Mapping, Optional

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from app import messages
from app.paths import resource

CONTEXT = "gpu_wizard"
LANGUAGES = ("en", "zh_CN")


def tr(text: str, disambiguation: Optional[str] = None, n: int = -1) -> str:
    return QCoreApplication.translate(CONTEXT, text, disambiguation, n)


def N_(text: str) -> str:
    """Mark a string for the catalogue without translating it now."""
    return text


normalise_lang = messages.normalise_lang
_current = {"lang": "en"}  # the language the installed Translator speaks (engine sentences follow it)


def current_language() -> str:
    return _current["lang"]


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
        _current["lang"] = self.lang
        return ok


# What the engine says, in the window's language (app.messages: one catalogue for window, CLI and reports).
# Each falls back to the engine's own English (which carries its figures) for a code the catalogue lacks.

GUI = "@gui"  # "<domain>.<code>@gui": the sentence as the window says it (no command-line flag, no terminal)


def _gui(domain: str, code: Optional[str]) -> Optional[str]:
    """The window's own wording of an engine sentence, where the catalogue has one."""
    if code and messages.has(domain, code + GUI, "en"):
        return code + GUI
    return None


def engine_text(code: Optional[str], english: str, domain: str = "finding", params: Optional[Mapping[str, Any]] = None) -> str:
    """A detection finding's (domain "finding") or verify check's (domain "check") sentence."""
    lang = current_language()
    gui = _gui(domain, code)
    if gui:
        return messages.render(domain, gui, params or {}, lang, fallback=english)
    if lang == "en" or not code:
        return english  # the engine's sentence, with its figures
    try:
        return messages.render_strict(domain, code, params or {}, lang)[0]
    except messages.MissingMessage:  # e.g. an older result without params: the code's short sentence
        return messages.template(f"{domain}.{code}_short", lang) or english


def hint_text(code: Optional[str], english: Optional[str], domain: str = "finding",
              params: Optional[Mapping[str, Any]] = None) -> Optional[str]:
    """A finding's (or check's) hint: what to do about it."""
    key = messages.hint_key(code, params or {}) if code else None
    gui = _gui(domain, key)
    if gui:
        p = {k: v for k, v in (params or {}).items() if k not in ("text_code", "hint_code")}
        return messages.render(domain, gui, p, current_language(), fallback=english)
    if current_language() == "en":
        return english
    return messages.render_hint(domain, code, params, current_language(), fallback=english)


def rec_text(code: Optional[str], params: Optional[Mapping[str, str]], english: str, lang: Optional[str] = None) -> str:
    """A recommendation warning or reason (its code and figures from app.recommend), as the window
    says it (`lang`: the window's language unless given)."""
    lang = lang or current_language()
    gui = _gui("rec", (params or {}).get("text_code") or code)
    if gui:
        p = {k: v for k, v in (params or {}).items() if k != "text_code"}
        return messages.render("rec", gui, p, lang, fallback=english)
    return messages.render("rec", code, params, lang, fallback=english)


def plan_text(code: Optional[str], params: Optional[Mapping[str, str]], english: str) -> str:
    """A plan step's title or why (Step.title_code / why_code with Step.params)."""
    return messages.render("plan", code, params, current_language(), fallback=english)


def diag_text(code: Optional[str], field_name: str, params: Optional[Mapping[str, str]], english: str) -> str:
    """A diagnosis match's root cause or fix (Match.root_cause_code / fix_code with Match.params)."""
    if not code:
        return english
    key = _gui("diagnose", f"{code}.{field_name}") or f"{code}.{field_name}"
    return messages.render("diagnose", key, params, current_language(), fallback=english)
