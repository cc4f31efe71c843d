#!/usr/bin/env bash
# Set up (once) and run the whole test suite, headless. Extra arguments go to pytest.
# Works as root (installs what the tests need with apt-get) and as a user (through sudo when it
# needs no password; otherwise it names what is missing, and the tests that need it skip).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup-lib.sh
bash scripts/sysdeps.sh --test || true  # what is missing was named; its tests skip
setup_venv '[test]' .installed-test 'app, PySide6, pyqtgraph, pytestqt, jsonschema' || exit 1
export QT_QPA_PLATFORM=offscreen
plugins=()
if ! err=$(.venv/bin/python -c 'import PySide6.QtWidgets, PySide6.QtTest' 2>&1); then
  # pytest-qt loads Qt when pytest starts: without Qt's system libraries it is left out and the GUI
  # tests skip, saying why
  echo "Qt cannot load here (${err##*$'\n'}): the GUI tests skip; scripts/sysdeps.sh names what to install" >&2
  plugins=(-p no:pytest-qt)
fi
# style, types and the import layers first (tools from the test extra; config in pyproject.toml)
for tool in "ruff check -q app ui tests bench" "mypy" "lint-imports --no-cache"; do
  .venv/bin/$tool >&2 || { echo "scripts/test.sh: ${tool%% *} found problems (above)" >&2; exit 1; }
done
# -rs: every skipped test says why (a tool or library this machine lacks)
exec .venv/bin/python -m pytest -q -rs "${plugins[@]}" "$@"
