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
# each screen: 1920x1080 (docs/screenshots/LANG/) and a 1366x768 laptop (docs/screenshots/1366x768/LANG/);
# the wizard picks its own size for the screen, as it does on a desktop
for screen in 1920x1080 1366x768; do
  display=":$((90 + RANDOM % 9))"
  Xvfb "$display" -screen 0 "${screen}x24" -nolisten tcp >/dev/null 2>&1 &
  xvfb_pid=$!
  trap 'kill "$xvfb_pid" 2>/dev/null || true' EXIT
  for _ in $(seq 50); do [[ -e /tmp/.X11-unix/X${display#:} ]] && break; sleep 0.1; done
  out=docs/screenshots
  [[ $screen == 1920x1080 ]] || out=docs/screenshots/$screen
  DISPLAY="$display" QT_QPA_PLATFORM=xcb LANG=C.UTF-8 .venv/bin/python -m ui.screenshots "$out" "$@"
  kill "$xvfb_pid" 2>/dev/null || true
  wait "$xvfb_pid" 2>/dev/null || true
  trap - EXIT
  echo "screenshots in $out/"
done
