#!/usr/bin/env bash
# Save a PNG of every wizard page, in English and Simplified Chinese, to docs/screenshots/
# (a real X server in memory: Xvfb). Installs Xvfb and the CJK fonts when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/sysdeps.sh
if ! command -v Xvfb >/dev/null; then
  sudo=(); [[ $(id -u) -eq 0 ]] || sudo=(sudo)
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends xvfb xauth
fi
[[ -x .venv/bin/python ]] || { echo "run scripts/launch.sh or scripts/test.sh once first (creates .venv)" >&2; exit 2; }
display=":$((90 + RANDOM % 9))"
Xvfb "$display" -screen 0 1600x1000x24 -nolisten tcp >/dev/null 2>&1 &
xvfb_pid=$!
trap 'kill "$xvfb_pid" 2>/dev/null || true' EXIT
for _ in $(seq 50); do [[ -e /tmp/.X11-unix/X${display#:} ]] && break; sleep 0.1; done
out=docs/screenshots
DISPLAY="$display" QT_QPA_PLATFORM=xcb LANG=C.UTF-8 .venv/bin/python -m ui.screenshots "$out" "$@"
echo "screenshots in $out/"
