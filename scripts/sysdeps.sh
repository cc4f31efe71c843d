#!/usr/bin/env bash
# System packages on Debian/Ubuntu: what Qt (PySide6) needs, for the window (xcb) and offscreen,
# and with --test also the tools some tests use. Installs only what is missing: as root with
# apt-get; as a user through sudo, without a password prompt unless --ask and a terminal.
# What cannot be installed is named in one line, with the command that would install it.
# Exit 0: all there; 3: some of the Qt libraries are still missing (the window cannot open);
# missing test tools only make their tests skip (exit 0).
#   scripts/sysdeps.sh [--test] [--ask]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup-lib.sh
test_tools=0 ask=0
for a in "$@"; do
  case $a in --test) test_tools=1 ;; --ask) ask=1 ;; *) echo "usage: $0 [--test] [--ask]" >&2; exit 2 ;; esac
done
qt=(libegl1 libgl1 libxkbcommon0 libxkbcommon-x11-0 libfontconfig1 libdbus-1-3 libglib2.0-0
    libxcb-cursor0 libxcb-icccm4 libxcb-image0 libxcb-keysyms1 libxcb-randr0 libxcb-render-util0
    libxcb-shape0 libxcb-xinerama0 libxcb-xkb1 fonts-noto-cjk)
installed() {  # PKG (or its Ubuntu 24.04 t64 rename)
  local p
  for p in "$1" "${1}t64"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" && return 0
  done
  return 1
}
py=$(bash scripts/python.sh)
want_qt=()
command -v dpkg-query >/dev/null && for p in "${qt[@]}"; do installed "$p" || want_qt+=("$p"); done
# python3-venv only when this Python lacks ensurepip (Debian splits it out)
"$py" -c 'import ensurepip' 2>/dev/null || want_qt+=(python3-venv)
want_test=()
if ((test_tools)); then
  # gpg signs test_install_apt.py's local apt repository; chromium renders the report
  # (test_report_browser.py); objdump and Python's shared library let PyInstaller build the bundle
  # (test_bundle.py). Without them those tests skip and say why.
  command -v gpg >/dev/null || want_test+=(gnupg)
  command -v chromium >/dev/null || want_test+=(chromium)
  command -v objdump >/dev/null || [[ -x /usr/bin/objdump ]] || want_test+=(binutils)
  # sudo: the real-sudo tests (a password user in a private namespace, tests/realsudo.py)
  command -v sudo >/dev/null || want_test+=(sudo)
  # sshd: the fleet tests' SSH hosts on 127.0.0.x that ansible-core drives (test_fleet_ssh.py)
  command -v sshd >/dev/null || [[ -x /usr/sbin/sshd ]] || want_test+=(openssh-server)
  # a real X server, session bus and notification service: the missing-library line reaches a desktop
  # without dialog programs as a notification (test_gui_syslibs.py)
  command -v Xvfb >/dev/null || want_test+=(xvfb)
  command -v dbus-daemon >/dev/null || want_test+=(dbus-daemon)
  command -v gdbus >/dev/null || want_test+=(libglib2.0-bin)
  command -v dunst >/dev/null || want_test+=(dunst)
  libpy=$("$py" -c 'import sys, sysconfig, os; v = sys.version_info; so = sysconfig.get_config_var("INSTSONAME") or ""; d = sysconfig.get_config_var("LIBDIR") or ""; print("" if so and os.path.exists(os.path.join(d, so)) else f"libpython{v[0]}.{v[1]}")')
  [[ -z $libpy ]] || want_test+=("$libpy")
fi
want=("${want_qt[@]}" "${want_test[@]}")
((${#want[@]})) || exit 0
if ! command -v apt-get >/dev/null; then
  echo "not a Debian/Ubuntu system: install the equivalents of these yourself: ${want[*]}" >&2
  ((${#want_qt[@]})) && exit 3 || exit 0
fi
sudo=()
if [[ $(id -u) -ne 0 ]]; then
  if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    sudo=(sudo -n)
  elif ((ask)) && command -v sudo >/dev/null && [[ -t 0 ]]; then
    echo "Administrator rights are needed to install: ${want[*]}" >&2
    sudo=(sudo)
  else
    echo "missing: ${want[*]}; install them with: sudo apt-get install --no-install-recommends ${want[*]}" \
         "(this user cannot use sudo without a password here)" >&2
    ((${#want_qt[@]})) && exit 3 || exit 0
  fi
fi
export DEBIAN_FRONTEND=noninteractive
quiet apt.log "apt-get update" "${sudo[@]}" apt-get update -q || true
# only what this system's archive has (Ubuntu has no 'chromium' .deb, for one)
avail=() absent=()
for p in "${want[@]}"; do
  if apt-cache show --no-all-versions "$p" >/dev/null 2>&1; then avail+=("$p"); else absent+=("$p"); fi
done
((${#absent[@]})) && echo "not in this system's package archive: ${absent[*]} (what needs them will not work or its tests skip)" >&2
if ((${#avail[@]})); then
  echo "Installing system packages: ${avail[*]} (log: $SETUP_LOGS/apt.log)" >&2
  quiet apt.log "apt-get install" "${sudo[@]}" apt-get install -y -q --no-install-recommends "${avail[@]}" \
    || echo "could not install ${avail[*]}: what needs them will not work or its tests skip" >&2
fi
for p in "${want_qt[@]}"; do
  case $p in
    fonts-noto-cjk) ;;  # without it Chinese text shows as boxes, but the window opens
    python3-venv) "$py" -c 'import ensurepip' 2>/dev/null || exit 3 ;;
    *) installed "$p" || exit 3 ;;
  esac
done
exit 0
