#!/usr/bin/env bash
# Set up (once) and run the whole test suite, headless. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/sysdeps.sh
# tests/integration/test_install_apt.py signs its local apt repository with a throw-away key when gpg
# is there (else it tests an unsigned repository); dpkg-deb comes with dpkg
if ! command -v gpg >/dev/null && command -v apt-get >/dev/null && [[ $(id -u) -eq 0 ]]; then
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends gnupg; } >/dev/null 2>&1 || true
fi
# The report's browser test (tests/integration/test_report_browser.py) needs Debian's chromium:
# installed once, as root, only when missing.
if ! command -v chromium >/dev/null && command -v apt-get >/dev/null && [[ $(id -u) -eq 0 ]]; then
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium; } \
    || echo "chromium could not be installed: the report browser test will skip" >&2
fi
[[ -x .venv/bin/python ]] || python3 -m venv .venv
if ! .venv/bin/python -c 'import app, PySide6, pyqtgraph, pytestqt, jsonschema' 2>/dev/null || [[ pyproject.toml -nt .venv/.installed-test ]]; then
  .venv/bin/python -m pip install -q --upgrade pip
  .venv/bin/python -m pip install -q -e '.[test]'
  touch .venv/.installed-test
fi
export QT_QPA_PLATFORM=offscreen
exec .venv/bin/python -m pytest -q "$@"
