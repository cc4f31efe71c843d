#!/usr/bin/env bash
# Build the Linux bundle: build/dist/gpu-wizard/ (one folder) and build/gpu-wizard-<version>-linux-<arch>.tar.gz.
# Usage: installers/linux/build.sh [PYTHON]   (PYTHON defaults to .venv/bin/python; it needs `pip install -e .[package]`)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
py=${1:-${PYTHON:-.venv/bin/python}}
# everything the build lacks is named in one line before anything starts (installers/linux/build_needs.py)
if ! "$py" -c 'import sys; sys.exit(sys.version_info < (3, 10))' 2>/dev/null; then
  echo "build.sh: cannot build the bundle: no Python 3.10+ at $py. Make one: python3 -m venv .venv && .venv/bin/python -m pip install -e '.[package]' (or pass PYTHON)" >&2
  exit 1
fi
"$py" installers/linux/build_needs.py --python-shown "$py" || exit 1
version=$("$py" -c 'import app; print(app.__version__)')
arch=$(uname -m)
"$py" -m PyInstaller --noconfirm --clean --log-level WARN \
  --distpath build/dist --workpath build/work installers/linux/gpu-wizard.spec
out=build/dist/gpu-wizard
# Qt's own message catalogues: keep only the languages the wizard speaks (English is built in)
qt_tr="$out/_internal/PySide6/Qt/translations"
if [[ -d $qt_tr ]]; then find "$qt_tr" -type f ! -name '*zh_CN*' -delete; fi
install -m 0755 installers/linux/install.sh "$out/install.sh"
install -m 0644 installers/linux/gpu-wizard.desktop "$out/gpu-wizard.desktop"
install -m 0644 installers/linux/gpu-wizard.svg "$out/gpu-wizard.svg"
install -m 0644 installers/linux/gpu-wizard-mime.xml "$out/gpu-wizard-mime.xml"
mkdir -p "$out/polkit"
if compgen -G "installers/polkit/*.policy" >/dev/null; then cp installers/polkit/*.policy "$out/polkit/"; fi
tarball="build/gpu-wizard-$version-linux-$arch.tar.gz"
tar -czf "$tarball" -C build/dist gpu-wizard
echo "bundle: $out ($(du -sm "$out" | cut -f1) MB unpacked)"
echo "tarball: $tarball ($(du -sm "$tarball" | cut -f1) MB)"
