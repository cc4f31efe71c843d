"""The helper's refusal: one exception both its allow-lists (privileged.py) and its content rules
(rootfiles.py) raise, so neither imports the other's module for it."""
from __future__ import annotations


class PolicyError(Exception):
    """A request the helper refuses (one line)."""
