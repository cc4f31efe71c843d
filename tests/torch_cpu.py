"""Where the tests that need a real PyTorch get its CPU build, the way a user would, without
gigabytes: PyPI's `torch` for Linux is the CUDA build (about 4.7 GB with its nvidia-* wheels), so it
is never used. In order:

1. pip's own configuration already resolves `torch==2.13.0` to a `+cpu` file (a local wheel in
   find-links, a CPU mirror): use it as it is;
2. else PyTorch's CPU index (https://download.pytorch.org/whl/cpu) when it answers, short timeout;
3. else the test skips, saying which of the two was tried and what happened.

Resolving uses `pip install --dry-run --no-deps --report`, which reads the wheel's metadata only
(PEP 658), never the wheel."""
from __future__ import annotations

import functools
import json
import subprocess
import sys
from typing import Optional
from urllib.parse import unquote

TORCH_VERSION = "2.13.0"
TORCH = f"torch=={TORCH_VERSION}"
CPU_INDEX = "https://download.pytorch.org/whl/cpu"


def _resolve(python: str, extra: list[str], timeout: float) -> tuple[Optional[str], str]:
    """(the file pip would install, '') or (None, why not)."""
    argv = [python, "-m", "pip", "install", "--dry-run", "--no-deps", "--ignore-installed", "--quiet",
            "--disable-pip-version-check", "--no-input", "--report", "-", *extra, TORCH]
    try:
        r = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, f"no answer within {timeout:g} s"
    if r.returncode != 0:
        lines = [ln for ln in (r.stderr or r.stdout).strip().splitlines() if ln.strip()]
        return None, lines[-1].strip() if lines else f"pip exit {r.returncode}"
    try:
        url = json.loads(r.stdout)["install"][0]["download_info"]["url"]
    except (ValueError, KeyError, IndexError, TypeError):
        return None, "pip's report names no file"
    return unquote(url), ""


@functools.lru_cache(maxsize=None)
def cpu_torch_source(python: str = sys.executable) -> tuple[Optional[list[str]], str]:
    """(extra pip arguments that install the CPU build of torch 2.13.0, '') or (None, why it cannot
    be had here). The arguments are [] when pip's configuration already gives the CPU build."""
    url, why = _resolve(python, ["--timeout", "15", "--retries", "1"], 150)
    if url and "+cpu" in url.rsplit("/", 1)[-1]:
        return [], ""
    first = f"pip resolves {TORCH} to {url.rsplit('/', 1)[-1]} (the CUDA build, gigabytes)" if url else \
        f"pip cannot resolve {TORCH} ({why})"
    extra = ["--index-url", CPU_INDEX]
    url2, why2 = _resolve(python, [*extra, "--timeout", "8", "--retries", "0"], 60)
    if url2 and "+cpu" in url2.rsplit("/", 1)[-1]:
        return extra, ""
    second = f"gives {url2.rsplit('/', 1)[-1]}, not a +cpu build" if url2 else f"is not reachable or lacks it ({why2})"
    return None, f"no CPU build of {TORCH} here: {first}, and PyTorch's CPU index {CPU_INDEX} {second}"
