"""The names and colours of a verification's phases (the probe's layers and a burn-in's phases): one
place for the charts, their legend and the Verify page's status line. No pyqtgraph here (the page
imports it before its charts exist)."""
from __future__ import annotations

from ui.i18n import N_, tr

PHASE_COLOURS = {"pytorch": "#8e24aa", "device": "#546e7a", "bandwidth": "#00897b", "load": "#f9a825",
                 "memtest": "#26a69a", "matmul": "#ffb300", "membw": "#5c6bc0", "p2p": "#ec407a", "allreduce": "#ab47bc"}
PHASE_NAMES = {"pytorch": N_("PyTorch check"), "device": N_("device check"), "bandwidth": N_("copy tests"),
               "load": N_("load test"), "memtest": N_("memory test"), "matmul": N_("matrix products"),
               "membw": N_("memory bandwidth"), "p2p": N_("GPU-to-GPU copies"), "allreduce": N_("all-reduce")}


def phase_colour(name: str) -> str:
    return PHASE_COLOURS.get(name, PHASE_COLOURS.get(name.split("_")[0], "#9e9e9e"))


def phase_name(name: str) -> str:
    """A phase's words: "matrix products bf16" for matmul_bf16."""
    base, _sep, rest = name.partition("_")
    if name in PHASE_NAMES:
        return tr(PHASE_NAMES[name])
    if base in PHASE_NAMES:
        return tr(PHASE_NAMES[base]) + (f" {rest}" if rest else "")
    return name
