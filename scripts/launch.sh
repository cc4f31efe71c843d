#!/usr/bin/env bash
# Set up (once) and launch the wizard. Extra arguments go to gpu-wizard, e.g.
#   scripts/launch.sh --snapshot resources/snapshots/workstation-rtx4090-ubuntu2404.json
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/sysdeps.sh
[[ -x .venv/bin/python ]] || python3 -m venv .venv
if ! .venv/bin/python -c 'import app, PySide6, pyqtgraph' 2>/dev/null || [[ pyproject.toml -nt .venv/.installed ]]; then
  .venv/bin/python -m pip install -q --upgrade pip
  .venv/bin/python -m pip install -q -e .
  touch .venv/.installed
fi
exec .venv/bin/gpu-wizard "$@"
