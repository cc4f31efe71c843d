"""Findings from their code and figures: the sentence and the hint come from the message catalogue
(resources/messages, domain "finding"), so detection says (code, params) only and every language
has the same words. `text_code` picks another sentence shape for the code; `hint_code` another
hint ("" for none; the default is "<code>_hint" when the catalogue has one)."""
from __future__ import annotations

from typing import Any, Iterable, Optional

from app import messages
from app.facts import Finding


def finding_params(text_code: Optional[str] = None, hint_code: Optional[str] = None, **params: Any) -> dict[str, str]:
    p = {k: str(v) for k, v in params.items() if v is not None}
    if text_code:
        p["text_code"] = text_code
    if hint_code is not None:
        p["hint_code"] = hint_code
    return p


def finding(code: str, severity: str, evidence: Iterable[Any] = (), *, text_code: Optional[str] = None,
            hint_code: Optional[str] = None, **params: Any) -> Finding:
    p = finding_params(text_code, hint_code, **params)
    return Finding(code=code, severity=severity,  # type: ignore[arg-type]
                   message=messages.render("finding", code, p, "en", fallback=code),
                   evidence=tuple(str(e)[:300] for e in evidence if e),
                   hint=messages.render_hint("finding", code, p, "en"), params=p)
