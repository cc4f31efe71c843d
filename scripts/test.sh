#!/usr/bin/env bash
# Set up (once) and run the whole test suite, headless. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/sysdeps.sh
[[ -x .venv/bin/python ]] || python3 -m venv .venv
if ! .venv/bin/python -c 'import app, PySide6, pyqtgraph, pytestqt, jsonschema' 2>/dev/null || [[ pyproject.toml -nt .venv/.installed-test ]]; then
  .venv/bin/python -m pip install -q --upgrade pip
  .venv/bin/python -m pip install -q -e '.[test]'
  touch .venv/.installed-test
fi
export QT_QPA_PLATFORM=offscreen
exec .venv/bin/python -m pytest -q "$@"
