"""What the pipeline gives the diagnosis in the CLI and the window: a recommender (the solve for the
facts a text implies) and the run's choices. Tests pass them the same way."""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Optional

from app.diagnose import diagnose as _diagnose
from app.facts import Facts


@lru_cache(maxsize=1)
def _db():
    from app.compat import load_db

    return load_db()


def recommender(facts: Facts) -> Any:
    from app.recommend import recommend

    return recommend(facts, _db())


def diagnose(text: str, facts: Optional[Facts] = None, live: Optional[dict] = None, **kw: Any):
    """app.diagnose.diagnose with the recommender the pipeline would give it."""
    kw.setdefault("recommender", recommender)
    return _diagnose(text, facts, live, **kw)
