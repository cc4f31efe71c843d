"""The report's language: its own words (catalogue "report.<label>") and the engine's sentences, said
in the language the report was built for (Report.lang). The renderers call `_t("Label")` for their
labels; the key is the label's words (lower case, "_" between), its English the label itself."""
from __future__ import annotations

import re
from contextvars import ContextVar
from typing import Any, Mapping, Optional

from app import messages

LANG: ContextVar[str] = ContextVar("report_lang", default="en")
_PREFIX = re.compile(r"^(#+ |▶ )?(.*)$", re.S)


def label_key(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")[:80]


def _t(label: str, /, **params: Any) -> str:
    """A label (or a sentence with {figures}) of the report in its language."""
    m = _PREFIX.match(label)
    prefix, body = ((m.group(1) or ""), m.group(2)) if m else ("", label)
    if not body.strip():
        return label
    english = body.format(**params) if params else body
    if LANG.get() == "en":
        return prefix + english
    return prefix + messages.render("report", label_key(body), params, LANG.get(), fallback=english)


def say(domain: str, item: Optional[Mapping[str, Any]], text_key: str = "message", code_key: str = "code",
        params_key: str = "params") -> str:
    """An engine sentence kept as JSON in the report (a finding, warning, step, check...) in the report's language."""
    if not item:
        return ""
    english = item.get(text_key) or ""
    return messages.say(domain, item.get(code_key) or "", item.get(params_key) or {}, LANG.get(), english)


def hint(domain: str, item: Optional[Mapping[str, Any]]) -> Optional[str]:
    if not item or not item.get("hint"):
        return None
    if LANG.get() == "en":
        return item["hint"]
    return messages.render_hint(domain, item.get("code") or "", item.get("params") or {}, LANG.get(), fallback=item["hint"])


def status(word: Optional[str]) -> str:
    """A step's or a run's status (the one vocabulary) in the report's language; None: not known."""
    return messages.status_word(word, LANG.get())


def reason(part: Optional[Mapping[str, Any]]) -> str:
    """A recommendation part's reason."""
    return say("rec", part, "reason", "reason_code", "reason_params") if part else ""


def step_text(step: Mapping[str, Any], which: str) -> str:
    return say("plan", step, which, f"{which}_code", "params")


def report_step(report: Any, st: Any, which: str) -> str:
    """A run step's title or why in the report's language: the plan's step of the same id carries its
    code and figures; without one, the step's English (a title falls back to its id)."""
    step = next((x for x in ((report.plan or {}).get("steps") or []) if x.get("id") == st.id), None)
    if step:
        return step_text(step, which)
    return getattr(st, which) or (st.id if which == "title" else "")


def layer_reason(layer: Mapping[str, Any]) -> str:
    """A verify layer's sentence in the report's language (the check it comes from, with its figures)."""
    english = str(layer.get("reason") or "")
    if LANG.get() == "en":
        return english
    try:
        from app.verify.model import Layer
        from app.verify.verdicts import layer_reason as said

        return said(Layer.from_json(dict(layer)), LANG.get())
    except Exception:  # noqa: BLE001 - an older or newer layer shape: its English
        return english


def evidence(e: Mapping[str, Any]) -> str:
    """A diagnosis evidence line of the report's JSON in the report's language."""
    return messages.evidence_text(e, LANG.get())


def oom_verdict(v: Mapping[str, Any], which: str) -> str:
    """An out-of-memory verdict's message ("root_cause") or fix of the report's JSON in the report's language."""
    english = v.get("fix" if which == "fix" else "message") or ""
    code = v.get("text_code") or ""
    if LANG.get() == "en" or not code:
        return english
    return messages.render("diagnose", f"oom.{code}.{which}", v.get("params") or {}, LANG.get(), fallback=english)


def match(m: Mapping[str, Any], which: str) -> str:
    code = m.get(f"{which}_code") or ""
    english = m.get(which) or ""
    if LANG.get() == "en" or not code:
        return english
    return messages.render("diagnose", f"{code}.{which}", m.get("params") or {}, LANG.get(), fallback=english)
