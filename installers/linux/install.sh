#!/usr/bin/env bash
# Install the GPU Setup Wizard bundle (the folder this script is in).
#   ./install.sh               for this user, no root needed: the program goes to ~/.local/lib/gpu-wizard,
#                              a menu entry and ~/.local/bin/gpu-wizard are added
#   ./install.sh --system      for every user: the program goes to /opt/gpu-wizard, owned by root and
#                              read-only for users (so the administrator helper that pkexec/sudo starts
#                              is a file no user can change); the polkit action points at that copy;
#                              pkexec is installed when missing, or it says that sudo is used instead
#   ./install.sh --uninstall [--system]   remove the program; your sessions and settings stay
#   ./install.sh --purge [--system]       remove the program and this user's sessions and settings
# Program files and user data live apart: the program in its own folder, the wizard's sessions
# (resume/undo state) in ~/.local/share/gpu-wizard, its settings in ~/.config/gpu-wizard and
# ~/.local/state/gpu-wizard (XDG folders), so a reinstall or an uninstall never touches them.
# PREFIX (default ~/.local; /opt with --system) installs elsewhere; DESTDIR stages a --system
# install under another root (the paths written into the menu entry and polkit action stay final).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mode=install scope=user
for a in "$@"; do
  case $a in
    --system) scope=system ;;
    --user) scope=user ;;
    --uninstall) mode=uninstall ;;
    --purge) mode=purge ;;
    -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "usage: $0 [--user|--system] [--uninstall|--purge]" >&2; exit 2 ;;
  esac
done
data=${XDG_DATA_HOME:-$HOME/.local/share}/gpu-wizard
state=${XDG_STATE_HOME:-$HOME/.local/state}/gpu-wizard
config=${XDG_CONFIG_HOME:-$HOME/.config}/gpu-wizard
D=${DESTDIR:-}
policy_dir=$D/usr/share/polkit-1/actions
if [[ $scope == system ]]; then
  final=${PREFIX:-/opt}/gpu-wizard
  dest=$D$final
  apps=$D/usr/share/applications icons=$D/usr/share/icons/hicolor/scalable/apps bin=$D/usr/local/bin mime=$D/usr/share/mime
else
  prefix=${PREFIX:-$HOME/.local}
  dest=$prefix/lib/gpu-wizard final=$dest
  apps=$prefix/share/applications icons=$prefix/share/icons/hicolor/scalable/apps bin=$prefix/bin mime=$prefix/share/mime
fi
# what an older bundle (before program and data were apart) put in the data folder: only these go
legacy=("$data/gpu-wizard" "$data/_internal" "$data/install.sh" "$data/gpu-wizard.desktop" "$data/gpu-wizard.svg" "$data/polkit"
        "$data/gpu-wizard-mime.xml")

# --system: root's copy (which pkexec and sudo run as root) must sit where no user can swap it: every
# folder above it owned by root, writable by no one else, and no link on the way (a link in a user's
# folder could be pointed elsewhere later). Checked on the final path, before anything is written.
unsafe_parent() {  # FINAL: prints the first folder on the way that a user could change
  local path=$1 p="" part owner mode
  [[ $path == /* ]] || { echo "$path (not an absolute path)"; return 0; }
  IFS=/ read -ra parts <<<"${path#/}"
  for part in "" "${parts[@]:0:${#parts[@]}-1}"; do
    [[ -n $part ]] && p="${p%/}/$part" || p=${p:-/}
    [[ -e $p || -L $p ]] || break  # the rest is made by root below
    if [[ -L $p ]]; then echo "$p (a link)"; return 0; fi
    read -r owner mode < <(stat -c '%u %a' -- "$p")
    if [[ $owner != 0 ]] || (( 8#$mode & 8#022 )); then echo "$p (owner uid $owner, mode $mode)"; return 0; fi
  done
  return 1
}
if [[ $scope == system && $mode == install ]] && bad=$(unsafe_parent "${PREFIX:-/opt}/gpu-wizard"); then
  echo "--system: refusing PREFIX=${PREFIX:-/opt}: $bad could be changed by a user, and root runs the copy installed below it; choose a folder only root can change, such as /opt" >&2
  exit 2
fi

as_root=()
if [[ $scope == system && $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "--system needs root: run it with sudo (sudo is not installed here)" >&2; exit 2; }
  as_root=(sudo)
fi
R() { "${as_root[@]}" "$@"; }

remove_program() {
  if [[ $scope == system ]]; then
    R rm -rf "$dest" "$apps/gpu-wizard.desktop" "$icons/gpu-wizard.svg" "$policy_dir/org.gpuwizard.helper.policy" \
      "$mime/packages/gpu-wizard.xml"
    [[ -L $bin/gpu-wizard ]] && R rm -f "$bin/gpu-wizard"
  else
    rm -rf "$dest" "$apps/gpu-wizard.desktop" "$icons/gpu-wizard.svg" "$mime/packages/gpu-wizard.xml"
    [[ -L $bin/gpu-wizard ]] && rm -f "$bin/gpu-wizard"
  fi
  # an older per-user bundle inside the data folder: its program files only
  [[ -x $data/gpu-wizard && -d $data/_internal ]] && rm -rf "${legacy[@]}"
  return 0
}

if [[ $mode != install ]]; then
  remove_program
  echo "GPU Setup Wizard removed from $dest"
  if [[ $mode == purge ]]; then
    rm -rf "$data" "$state" "$config"
    echo "--purge: also removed your sessions and settings ($data, $state, $config)"
  else
    echo "your sessions and settings are kept ($data, $state, $config); ./install.sh --purge removes them too"
  fi
  exit 0
fi

if [[ $scope == user && $(id -u) -eq 0 && -z ${PREFIX:-} ]]; then
  echo "Run this as your own user, not root: the wizard's window never runs as root (./install.sh --system installs it for every user)." >&2
  exit 2
fi
[[ -x $here/gpu-wizard && -d $here/_internal ]] || { echo "this folder holds no bundle (gpu-wizard, _internal): build one with installers/linux/build.sh" >&2; exit 2; }

# the program: copied beside the old one, then swapped in (the user's data is elsewhere)
parent=$(dirname "$dest")
R mkdir -p "$parent" "$apps" "$icons" "$bin"
tmp=$(R mktemp -d "$parent/.gpu-wizard.XXXXXX")
R cp -a "$here/." "$tmp/"
if [[ $scope == system ]]; then
  R chown -R root:root "$tmp"
  R chmod -R u+rwX,go+rX,go-w "$tmp"
fi
R chmod 0755 "$tmp"
R rm -rf "$dest.old"
[[ -e $dest ]] && R mv "$dest" "$dest.old"
R mv "$tmp" "$dest"
R rm -rf "$dest.old"
[[ -x $data/gpu-wizard && -d $data/_internal ]] && rm -rf "${legacy[@]}"  # an older bundle's program files

R ln -sfn "$final/gpu-wizard" "$bin/gpu-wizard"
R install -m 0644 "$dest/gpu-wizard.svg" "$icons/gpu-wizard.svg"
sed "s|@EXEC@|$final/gpu-wizard|" "$dest/gpu-wizard.desktop" | R tee "$apps/gpu-wizard.desktop" >/dev/null
R chmod 0644 "$apps/gpu-wizard.desktop"
if [[ -f $dest/gpu-wizard-mime.xml ]]; then  # reports and snapshots open in the wizard (never all HTML)
  R mkdir -p "$mime/packages"
  R install -m 0644 "$dest/gpu-wizard-mime.xml" "$mime/packages/gpu-wizard.xml"
  command -v update-mime-database >/dev/null && R update-mime-database "$mime" >/dev/null 2>&1 || true
fi
command -v update-desktop-database >/dev/null && R update-desktop-database "$apps" >/dev/null 2>&1 || true
echo "GPU Setup Wizard installed in $dest; it is in the applications menu and at $bin/gpu-wizard"
if [[ $scope == system ]]; then
  echo "each user's sessions and settings live apart, in ~/.local/share/gpu-wizard and ~/.config/gpu-wizard (kept on reinstall and uninstall)"
else
  echo "your sessions and settings live apart, in $data and $config (kept on reinstall and uninstall)"
fi

if [[ $scope == system ]]; then
  shopt -s nullglob
  policies=("$dest"/polkit/*.policy)
  if ((${#policies[@]})); then
    R mkdir -p "$policy_dir"
    for p in "${policies[@]}"; do
      sed "s|@HELPER@|$final/gpu-wizard|g" "$p" | R tee "$policy_dir/$(basename "$p")" >/dev/null
      R chmod 0644 "$policy_dir/$(basename "$p")"
    done
  fi
  if [[ -n $D ]]; then
    echo "DESTDIR is set (a staged install): pkexec is not installed here; without it administrator steps use sudo"
  elif ! command -v pkexec >/dev/null && command -v apt-get >/dev/null; then
    pk=pkexec; apt-cache show --no-all-versions pkexec >/dev/null 2>&1 || pk=policykit-1  # Ubuntu 22.04's name
    log=$(mktemp "${TMPDIR:-/tmp}/gpu-wizard-install.XXXXXX.log")
    echo "installing $pk (the desktop's password dialog for administrator steps); log: $log"
    DEBIAN_FRONTEND=noninteractive R apt-get install -y -q "$pk" >"$log" 2>&1 || echo "could not install $pk (see $log)" >&2
  fi
  if [[ -n $D ]]; then :
  elif command -v pkexec >/dev/null && ((${#policies[@]})); then
    echo "administrator steps ask through the desktop's password dialog (pkexec, polkit action for $final/gpu-wizard)"
  else
    echo "pkexec is not available here: administrator steps fall back to sudo ($final/gpu-wizard under sudo)" >&2
  fi
fi
