"""Diagnosis: error text + facts → ranked root causes with evidence and fix steps.

The API the GUI and the CLI call:

    from app.diagnose import diagnose, diagnose_file, diagnose_stream, fix_plan, analyze_utilization
    d = diagnose(text, facts, live=None, samples=None, recommendation=rec, recommender=fn, choices=choices)
    d.platform                                            # the machine the answer assumed (text first, then facts)
    d.matches[0].category, .root_cause, .evidence, .fix, .fix_steps
    steps = fix_plan(d, facts)                            # -> list[app.plan.model.Step]
    live = read_live(system)                              # GPU processes now (NVML, or nvidia-smi via System)
"""
from typing import TYPE_CHECKING, Any

# the API, imported on first use: a cold `gpu-wizard diagnose` needs neither the fix plan nor the OOM or
# utilization analyses unless the text asks for them
_API = {
    "RulesError": "engine", "diagnose": "engine", "diagnose_file": "engine", "diagnose_stream": "engine",
    "load_rules": "engine", "fix_plan": "fixplan", "read_live": "live", "CATEGORIES": "model", "Diagnosis": "model",
    "Match": "model", "Platform": "model", "analyze_oom": "oom", "analyze_utilization": "utilization",
}
__all__ = sorted(_API)

if TYPE_CHECKING:
    from app.diagnose.engine import RulesError, diagnose, diagnose_file, diagnose_stream, load_rules  # noqa: F401
    from app.diagnose.fixplan import fix_plan  # noqa: F401
    from app.diagnose.live import read_live  # noqa: F401
    from app.diagnose.model import CATEGORIES, Diagnosis, Match, Platform  # noqa: F401
    from app.diagnose.oom import analyze_oom  # noqa: F401
    from app.diagnose.utilization import analyze_utilization  # noqa: F401


def __getattr__(name: str) -> Any:
    mod = _API.get(name)
    if mod is None:
        raise AttributeError(f"module 'app.diagnose' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"app.diagnose.{mod}"), name)
    globals()[name] = value
    return value
