"""Where bundled resources live (source tree, installed package or a PyInstaller bundle)."""
from __future__ import annotations

import os
import sys
from pathlib import Path


def resources_dir() -> Path:
    override = os.environ.get("GPU_WIZARD_RESOURCES")
    if override:
        return Path(override)
    frozen = getattr(sys, "_MEIPASS", None)
    if frozen:
        return Path(frozen) / "resources"
    return Path(__file__).resolve().parent.parent / "resources"


def resource(*parts: str) -> Path:
    return resources_dir().joinpath(*parts)


def demo_snapshots() -> list[Path]:
    d = resource("snapshots")
    return sorted(d.glob("*.json")) if d.is_dir() else []
