#!/usr/bin/env bash
# System packages Qt (PySide6) needs on Debian/Ubuntu, for the window (xcb) and offscreen.
# Installs only what is missing; uses sudo when not root. Safe to run repeatedly.
set -euo pipefail
pkgs=(python3-venv libegl1 libgl1 libxkbcommon0 libxkbcommon-x11-0 libfontconfig1 libdbus-1-3 libglib2.0-0
      libxcb-cursor0 libxcb-icccm4 libxcb-image0 libxcb-keysyms1 libxcb-randr0 libxcb-render-util0
      libxcb-shape0 libxcb-xinerama0 libxcb-xkb1 fonts-noto-cjk)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# python3-venv is only needed when this python3 lacks ensurepip
if python3 -c 'import ensurepip' 2>/dev/null; then
  missing=("${missing[@]/python3-venv}")
fi
want=()
for p in "${missing[@]}"; do [[ -n $p ]] && want+=("$p"); done
((${#want[@]})) || exit 0
command -v apt-get >/dev/null || { echo "not a Debian/Ubuntu system; install these yourself: ${want[*]}" >&2; exit 0; }
sudo=(); [[ $(id -u) -eq 0 ]] || sudo=(sudo)
echo "Installing system packages for Qt: ${want[*]}"
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${want[@]}"
