#!/usr/bin/env bash
# Set up (once) and launch the wizard. Extra arguments go to gpu-wizard, e.g.
#   scripts/launch.sh --snapshot resources/snapshots/workstation-rtx4090-ubuntu2404.json
set -euo pipefail
cd "$(dirname "$0")/.."
PATH=$PATH:/usr/local/sbin:/usr/sbin:/sbin  # runuser lives in sbin, which a user's or a bare root's PATH may lack
source scripts/setup-lib.sh
rc=0; bash scripts/sysdeps.sh --ask || rc=$?
if ((rc == 3)); then
  echo "the wizard's window needs the system libraries named above; install them and run this again" >&2
  exit 1
fi
setup_venv '' .installed 'app, PySide6, pyqtgraph' || exit 1
if [[ $(id -u) -ne 0 ]]; then
  exec .venv/bin/gpu-wizard "$@"
fi
# Started as root (sudo, a container, a fresh VM): the wizard's window never runs as root, so it is
# started as the user who ran sudo, or GPU_WIZARD_USER, or else the unprivileged 'nobody'. Its
# administrator steps then ask through pkexec/sudo; as root, `gpu-wizard install` works headless.
user=${GPU_WIZARD_USER:-${SUDO_USER:-nobody}}
[[ $user != root ]] || { echo "GPU_WIZARD_USER must not be root" >&2; exit 2; }
getent passwd "$user" >/dev/null || { echo "no user '$user' on this machine: set GPU_WIZARD_USER to one" >&2; exit 2; }
home=$(getent passwd "$user" | cut -d: -f6)
if [[ -z $home || ! -d $home || $user == nobody ]] || ! runuser -u "$user" -- test -w "$home"; then
  home=$(mktemp -d /tmp/gpu-wizard-home.XXXXXX)
  chown "$user" "$home"
fi
# What the window runs: this checkout's venv Python importing the wizard, the GUI and its data,
# started as that user in the same folder (so exactly what exec below does, not a look at one file).
can_run() {  # CHECKOUT
  (cd "$1" && runuser -u "$user" -- env HOME="$home" QT_QPA_PLATFORM=offscreen "$1/.venv/bin/python" -c \
    'import app.cli, ui, PySide6.QtWidgets; from app.paths import resources_dir; import sys; sys.exit(0 if any(resources_dir().iterdir()) else 1)') \
    >/dev/null 2>"$check_log" && return 0
  why=$(tail -n 1 "$check_log" 2>/dev/null); why=${why:-it could not start}
  return 1
}
check_log=$(mktemp)  # root's own file (never one in the user's home: they could point it elsewhere)
trap 'rm -f "$check_log"' EXIT
here=$(pwd)
if ! can_run "$here"; then
  # The checkout is where that user cannot go (root's `git clone` lands in /root): run a root-owned,
  # world-readable copy in /var/lib/gpu-wizard (refreshed from this checkout on every start; the
  # user can read and run it but not change it).
  copy=${GPU_WIZARD_LAUNCH_COPY:-/var/lib/gpu-wizard/checkout}
  echo "user '$user' cannot run the wizard from $here ($why): starting it from a copy in $copy" >&2
  mkdir -p "$copy"; chmod 0755 "$(dirname "$copy")" "$copy"
  new=$(mktemp -d "$copy.new.XXXXXX")
  tar -C "$here" --exclude=./.venv --exclude=./build --exclude=./.git -cf - . | tar -C "$new" -xf -
  [[ -d $copy/.venv ]] && mv "$copy/.venv" "$new/.venv"
  [[ -d $copy/build/logs ]] && mkdir -p "$new/build" && mv "$copy/build/logs" "$new/build/logs"
  rm -rf "$copy"; mv "$new" "$copy"
  chown -R root:root "$copy"; chmod -R u+rwX,go+rX,go-w "$copy"; chmod 0755 "$copy"
  (cd "$copy" && SETUP_LOGS=$copy/build/logs setup_venv '' .installed 'app, PySide6, pyqtgraph') || exit 1
  chmod -R go+rX,go-w "$copy"
  if ! can_run "$copy"; then
    echo "user '$user' cannot run the wizard from $copy either ($why): set GPU_WIZARD_USER to another user," \
         "or clone the checkout as that user and run scripts/launch.sh as them" >&2
    exit 2
  fi
  here=$copy
fi
echo "The wizard's window never runs as root: starting it as '$user'." >&2
cd "$here"
rm -f "$check_log"; trap - EXIT
exec runuser -u "$user" -- env HOME="$home" XDG_RUNTIME_DIR="$home" ${DISPLAY:+DISPLAY="$DISPLAY"} \
  ${WAYLAND_DISPLAY:+WAYLAND_DISPLAY="$WAYLAND_DISPLAY"} ${QT_QPA_PLATFORM:+QT_QPA_PLATFORM="$QT_QPA_PLATFORM"} \
  ${LANG:+LANG="$LANG"} "$here/.venv/bin/gpu-wizard" "$@"
