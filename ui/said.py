"""What the engine says, in the window's language: Qt-free, so the page states (ui/state.py) and their tests
need no Qt. The engine emits (code, params); app.messages (one catalogue for the window, the CLI and the
reports) makes the sentence. ui.i18n's Translator sets the language here when the window's changes.
Each function falls back to the engine's own English (which carries its figures) for a code the catalogue lacks.
"""
from __future__ import annotations

from typing import Any, Mapping, Optional

from app import messages

_current = {"lang": "en"}  # the language the installed Translator speaks (engine sentences follow it)


def current_language() -> str:
    return _current["lang"]


def set_language(lang: str) -> None:
    _current["lang"] = messages.normalise_lang(lang)



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


def evidence_text(e: Any, **extra: Any) -> str:
    """A diagnosis evidence line in the window's language (app.messages.evidence_text)."""
    return messages.evidence_text(e, current_language(), **extra)


def diag_text(code: Optional[str], field_name: str, params: Optional[Mapping[str, str]], english: str) -> str:
    """A diagnosis match's root cause or fix (Match.root_cause_code / fix_code with Match.params)."""
    if not code:
        return english
    key = _gui("diagnose", f"{code}.{field_name}") or f"{code}.{field_name}"
    return messages.render("diagnose", key, params, current_language(), fallback=english)
