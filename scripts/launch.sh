#!/usr/bin/env bash
# Set up (once) and launch the wizard. Extra arguments go to gpu-wizard, e.g.
#   scripts/launch.sh --snapshot resources/snapshots/workstation-rtx4090-ubuntu2404.json
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/sysdeps.sh
[[ -x .venv/bin/python ]] || "$(bash scripts/python.sh)" -m venv .venv
if ! .venv/bin/python -c 'import app, PySide6, pyqtgraph' 2>/dev/null || [[ pyproject.toml -nt .venv/.installed ]]; then
  .venv/bin/python -m pip install -q --upgrade pip
  .venv/bin/python -m pip install -q -e .
  touch .venv/.installed
fi
if [[ $(id -u) -ne 0 ]]; then
  exec .venv/bin/gpu-wizard "$@"
fi
# Started as root (sudo, a container, a fresh VM): the wizard's window never runs as root, so it is
# started as the user who ran sudo, or GPU_WIZARD_USER, or else the unprivileged 'nobody'. Its
# administrator steps then ask through pkexec/sudo; as root, `gpu-wizard install` works headless.
user=${GPU_WIZARD_USER:-${SUDO_USER:-nobody}}
[[ $user != root ]] || { echo "GPU_WIZARD_USER must not be root" >&2; exit 2; }
home=$(getent passwd "$user" | cut -d: -f6)
if [[ -z $home || ! -d $home || ! -w $home || $user == nobody ]]; then
  home=$(mktemp -d /tmp/gpu-wizard-home.XXXXXX)
  chown "$user" "$home"
fi
if ! runuser -u "$user" -- test -x .venv/bin/gpu-wizard; then
  echo "user '$user' cannot reach $(pwd)/.venv: put the checkout where that user can read it," \
       "or set GPU_WIZARD_USER to a user who can" >&2
  exit 2
fi
echo "The wizard's window never runs as root: starting it as '$user'." >&2
exec runuser -u "$user" -- env HOME="$home" XDG_RUNTIME_DIR="$home" ${DISPLAY:+DISPLAY="$DISPLAY"} \
  ${WAYLAND_DISPLAY:+WAYLAND_DISPLAY="$WAYLAND_DISPLAY"} ${QT_QPA_PLATFORM:+QT_QPA_PLATFORM="$QT_QPA_PLATFORM"} \
  ${LANG:+LANG="$LANG"} .venv/bin/gpu-wizard "$@"
