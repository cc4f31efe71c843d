"""GPU Setup Wizard engine. Never imports Qt (tests/unit/test_layering.py enforces it)."""

__version__ = "0.1.0"
