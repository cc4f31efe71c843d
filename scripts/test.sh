#!/usr/bin/env bash
# Set up (once) and run the whole test suite, headless. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/sysdeps.sh
# System tools some integration tests use, installed once as root when missing (CI is root on a fresh
# Debian machine): gpg signs the local apt repository of test_install_apt.py (dpkg-deb comes with
# dpkg); chromium renders the report in test_report_browser.py; objdump checks the bundle's glibc
# needs in test_bundle.py. Without them those tests skip and say why.
want=()
command -v gpg >/dev/null || want+=(gnupg)
command -v chromium >/dev/null || want+=(chromium)
command -v objdump >/dev/null || want+=(binutils)
if ((${#want[@]})) && command -v apt-get >/dev/null && [[ $(id -u) -eq 0 ]]; then
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${want[@]}"; } \
    || echo "could not install ${want[*]}: the tests that need them will skip" >&2
fi
[[ -x .venv/bin/python ]] || "$(bash scripts/python.sh)" -m venv .venv
if ! .venv/bin/python -c 'import app, PySide6, pyqtgraph, pytestqt, jsonschema' 2>/dev/null || [[ pyproject.toml -nt .venv/.installed-test ]]; then
  .venv/bin/python -m pip install -q --upgrade pip
  .venv/bin/python -m pip install -q -e '.[test]'
  touch .venv/.installed-test
fi
export QT_QPA_PLATFORM=offscreen
exec .venv/bin/python -m pytest -q "$@"
