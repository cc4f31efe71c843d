#!/usr/bin/env bash
# Install the GPU Setup Wizard bundle for this user (no root needed):
#   ./install.sh               copy to ~/.local/share/gpu-wizard, add a menu entry and ~/.local/bin/gpu-wizard
#   ./install.sh --system      also install the polkit action for the privileged helper (asks for sudo)
#   ./install.sh --uninstall   remove what the user install added
# Set PREFIX to install elsewhere (default ~/.local).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
prefix=${PREFIX:-$HOME/.local}
dest=$prefix/share/gpu-wizard
apps=$prefix/share/applications
icons=$prefix/share/icons/hicolor/scalable/apps
bin=$prefix/bin
mode=user
case "${1:-}" in
  --system) mode=system ;;
  --uninstall) mode=uninstall ;;
  ""|--user) ;;
  *) echo "usage: $0 [--user|--system|--uninstall]" >&2; exit 2 ;;
esac
if [[ $mode == uninstall ]]; then
  rm -rf "$dest" "$apps/gpu-wizard.desktop" "$icons/gpu-wizard.svg" "$prefix/share/mime/packages/gpu-wizard.xml"
  [[ -L $bin/gpu-wizard ]] && rm -f "$bin/gpu-wizard"
  echo "GPU Setup Wizard removed from $prefix"
  exit 0
fi
if [[ $(id -u) -eq 0 && -z ${PREFIX:-} ]]; then
  echo "Run this as your own user, not root: the wizard itself never runs as root." >&2
  exit 2
fi
mkdir -p "$dest" "$apps" "$icons" "$bin"
# copy the bundle (everything beside this script) in place of an older one
tmp=$(mktemp -d "$prefix/share/.gpu-wizard.XXXXXX")
cp -a "$here/." "$tmp/"
rm -rf "$dest.old"; [[ -d $dest ]] && mv "$dest" "$dest.old"
mv "$tmp" "$dest"; rm -rf "$dest.old"
ln -sfn "$dest/gpu-wizard" "$bin/gpu-wizard"
install -m 0644 "$dest/gpu-wizard.svg" "$icons/gpu-wizard.svg"
sed "s|@EXEC@|$dest/gpu-wizard|" "$dest/gpu-wizard.desktop" > "$apps/gpu-wizard.desktop"
chmod 0644 "$apps/gpu-wizard.desktop"
if [[ -f $dest/gpu-wizard-mime.xml ]]; then  # reports and snapshots open in the wizard (never all HTML)
  mkdir -p "$prefix/share/mime/packages"
  install -m 0644 "$dest/gpu-wizard-mime.xml" "$prefix/share/mime/packages/gpu-wizard.xml"
  command -v update-mime-database >/dev/null && update-mime-database "$prefix/share/mime" >/dev/null 2>&1 || true
fi
command -v update-desktop-database >/dev/null && update-desktop-database "$apps" >/dev/null 2>&1 || true
echo "GPU Setup Wizard installed in $dest; it is in your applications menu and at $bin/gpu-wizard"
if [[ $mode == system ]]; then
  shopt -s nullglob
  policies=("$dest"/polkit/*.policy)
  if ((${#policies[@]})); then
    sudo=(); [[ $(id -u) -eq 0 ]] || sudo=(sudo)
    for p in "${policies[@]}"; do
      sed "s|@HELPER@|$dest/gpu-wizard|g" "$p" > "$dest/polkit/$(basename "$p").installed"
      "${sudo[@]}" install -m 0644 "$dest/polkit/$(basename "$p").installed" "/usr/share/polkit-1/actions/$(basename "$p")"
    done
    echo "polkit action installed: administrator steps will ask for your password through the system dialog"
  else
    echo "this bundle carries no polkit action; administrator steps will use sudo" >&2
  fi
fi
