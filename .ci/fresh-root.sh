#!/usr/bin/env bash
# CI: the README's test command on a freshly built Debian 12 root, as a new user would run it:
# a minimal root (debootstrap --variant=minbase) plus python3, git, sudo and ca-certificates, nothing
# else. The checkout is cloned into it twice and `scripts/test.sh` runs
#   1. as root, in /root/gpu-wizard (where root's `git clone` lands), in one fresh root;
#   2. as a user in the sudo group (sudo without a password, as on cloud images), in a second one;
#   3. (nosudo) as a user without sudo on a third: nothing can be installed, so the tests that touch
#      the machine's tools (a subset, to keep CI short) must skip with their reasons, never fail;
#   4. (password) as a user in the sudo group whose sudo asks for a password (Debian's default: no
#      NOPASSWD), on a fourth: the real-sudo tests (the password door, typed on a pty and into the
#      window's dialog) run there, not skipped; root installs the system packages first, as an
#      administrator would, and the user's password reaches the tests in GPU_WIZARD_TEST_SUDO_PASSWORD.
# The base root is built once per machine and cached as a tarball (GPU_WIZARD_CI_CACHE, default
# /var/cache/gpu-wizard-ci); each run unpacks a throw-away copy. The host's CA bundle is copied in
# (a corporate network's intercepting CA, as such a machine would have installed).
# Prints, per run, the wall time and the disk the command added (figures for the closing note).
#
# Usage: .ci/fresh-root.sh [root|user|nosudo|password|base]...   (default: all four; `base` only
# builds the cache)
# Needs root (chroot, mounts). Installs debootstrap when missing.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
suite=bookworm
mirror=${GPU_WIZARD_CI_MIRROR:-http://deb.debian.org/debian}
cache=${GPU_WIZARD_CI_CACHE:-/var/cache/gpu-wizard-ci}
work=${GPU_WIZARD_CI_WORK:-/var/tmp}
extra=python3,git,sudo,ca-certificates
base=$cache/$suite-minbase-$(printf %s "$mirror $extra" | sha256sum | cut -c1-12).tar.gz
host_ca=/etc/ssl/certs/ca-certificates.crt
say() { printf '[fresh-root] %s\n' "$*" >&2; }
die() { say "FAILED: $*"; exit 1; }

[[ $(id -u) -eq 0 ]] || die "needs root (debootstrap, chroot and mounts)"

build_base() {
  [[ -s $base ]] && { say "base root cached: $base"; return 0; }
  if ! command -v debootstrap >/dev/null && ! [[ -x /usr/sbin/debootstrap ]]; then
    say "installing debootstrap"
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap; } \
      >"$cache.apt.log" 2>&1 || die "could not install debootstrap (apt output: $cache.apt.log)"
  fi
  mkdir -p "$cache"
  local host=${mirror#*://}; host=${host%%/*}
  # reachability first, so an unreachable archive is one clear line, not a debootstrap trace
  local why
  if ! why=$(timeout 30 python3 - "$mirror/dists/$suite/Release" 2>&1 <<'EOF'
import sys, urllib.request
try:
    urllib.request.urlopen(sys.argv[1], timeout=20).read(64)
except Exception as e:
    sys.exit(f"{type(e).__name__}: {getattr(e, 'reason', None) or e}")
EOF
  ); then
    die "the Debian archive $mirror is not reachable from this machine ($host: ${why:-no answer in 30 s}): the fresh-root run needs it (set GPU_WIZARD_CI_MIRROR to a reachable mirror)"
  fi
  local d; d=$(mktemp -d "$work/gpu-wizard-ci-base.XXXXXX")
  say "building the base root ($suite minbase + $extra) from $mirror"
  local t0=$SECONDS
  if ! PATH=/usr/sbin:/sbin:$PATH debootstrap --variant=minbase --include="$extra" "$suite" "$d" "$mirror" \
       >"$cache/debootstrap.log" 2>&1; then
    rm -rf --one-file-system "$d"
    die "debootstrap failed (log: $cache/debootstrap.log): $(tail -n 3 "$cache/debootstrap.log" | tr '\n' ' ')"
  fi
  rm -rf "$d"/var/cache/apt/archives/*.deb "$d"/var/lib/apt/lists/*_* 2>/dev/null || true
  tar -czf "$base.tmp" -C "$d" . && mv "$base.tmp" "$base"
  rm -rf --one-file-system "$d"
  say "base root built in $((SECONDS - t0)) s: $base ($(du -m "$base" | cut -f1) MB)"
}

root_dir=""
cleanup() {
  [[ -n $root_dir && -d $root_dir ]] || return 0
  local m
  for m in dev/shm dev/pts dev sys proc; do
    mountpoint -q "$root_dir/$m" 2>/dev/null && umount -l "$root_dir/$m" 2>/dev/null || true
  done
  mountpoint -q "$root_dir" 2>/dev/null && umount -l "$root_dir" 2>/dev/null || true
  if mount | grep -q " $root_dir"; then say "mounts left under $root_dir; not removing it"; root_dir=""; return 0; fi
  rm -rf --one-file-system "$root_dir"
  root_dir=""
}
trap cleanup EXIT
trap 'exit 130' INT TERM  # so the EXIT trap unmounts and removes the root

new_root() {
  root_dir=$(mktemp -d "$work/gpu-wizard-ci-root.XXXXXX")
  tar -xzf "$base" -C "$root_dir"
  chmod 0755 "$root_dir"  # mktemp's 0700 would be the fresh root's / : no user could enter it
  # this network's CA (if it intercepts TLS) as the fresh machine's own: in the bundle, and where
  # update-ca-certificates finds it again when a package regenerates the bundle
  if [[ -s $host_ca ]]; then
    install -m 0644 "$host_ca" "$root_dir/etc/ssl/certs/ca-certificates.crt"
    install -m 0644 "$host_ca" "$root_dir/usr/local/share/ca-certificates/host-ca-bundle.crt"
  fi
  cp -L /etc/resolv.conf "$root_dir/etc/resolv.conf" 2>/dev/null || true
  cat > "$root_dir/etc/apt/sources.list" <<EOF
deb $mirror $suite main
deb $mirror $suite-updates main
deb ${mirror%/debian}/debian-security $suite-security main
EOF
  [[ $mirror == */debian ]] || sed -i '$d' "$root_dir/etc/apt/sources.list"
  # / a mount point of its own, as on a real machine (unshare's private mount namespaces need one)
  mount --bind "$root_dir" "$root_dir" && mount --make-private "$root_dir"
  mount -t proc proc "$root_dir/proc"
  mount --rbind /sys "$root_dir/sys" && mount --make-rslave "$root_dir/sys"
  mount --bind /dev "$root_dir/dev"
  mount -t devpts -o newinstance,ptmxmode=0666 devpts "$root_dir/dev/pts" 2>/dev/null || mount --bind /dev/pts "$root_dir/dev/pts"
  mount -t tmpfs -o mode=1777 tmpfs "$root_dir/dev/shm"
}

# the checkout as committed, plus uncommitted changes to tracked files (a stash commit), cloned
clone_into() {  # DEST
  local rev; rev=$(git -C "$src" stash create 2>/dev/null || true); rev=${rev:-HEAD}
  git clone -q --no-hardlinks "$src" "$1"
  git -C "$1" checkout -q --detach "$(git -C "$src" rev-parse "$rev")"
}

# root's own PATH on Debian (sbin included); the user's comes from its login shell (no sbin)
in_root() { chroot "$root_dir" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 TERM=dumb "$@"; }

used_mb() { du -sxm "$root_dir" | cut -f1; }

timed() {  # LABEL CMD... : runs, prints wall time and disk added
  local label=$1; shift
  local before t0 rc=0 after
  before=$(used_mb); t0=$SECONDS
  "$@" || rc=$?
  after=$(used_mb)
  say "$label: exit $rc, $((SECONDS - t0)) s, +$((after - before)) MB on disk (root now $after MB)"
  printf '%s\t%s\t%s\t%s\n' "$label" "$rc" "$((SECONDS - t0))" "$((after - before))" >> "$figures"
  return "$rc"
}

figures=$(mktemp "$work/gpu-wizard-ci-figures.XXXXXX")
trap 'cleanup; rm -f "$figures"' EXIT
run_as_root() {
  new_root
  clone_into "$root_dir/root/gpu-wizard"
  say "root, checkout in /root/gpu-wizard: scripts/test.sh"
  timed "root: scripts/test.sh" in_root bash -c 'cd /root/gpu-wizard && scripts/test.sh -p no:cacheprovider' || fail=1
  timed "root: scripts/launch.sh --version" in_root bash -c 'cd /root/gpu-wizard && QT_QPA_PLATFORM=offscreen scripts/launch.sh --version' || fail=1
  cleanup
}

run_as_user() {
  new_root
  in_root useradd -m -s /bin/bash -G sudo ci
  echo 'ci ALL=(ALL) NOPASSWD:ALL' > "$root_dir/etc/sudoers.d/ci" && chmod 0440 "$root_dir/etc/sudoers.d/ci"
  clone_into "$root_dir/home/ci/gpu-wizard"
  chown -R "$(in_root id -u ci):$(in_root id -g ci)" "$root_dir/home/ci/gpu-wizard"
  say "user 'ci' (sudo group), checkout in ~/gpu-wizard: scripts/test.sh"
  timed "user: scripts/test.sh" in_root runuser -l ci -c 'cd ~/gpu-wizard && scripts/test.sh -p no:cacheprovider' || fail=1
  timed "user: scripts/launch.sh --version" in_root runuser -l ci -c 'cd ~/gpu-wizard && QT_QPA_PLATFORM=offscreen scripts/launch.sh --version' || fail=1
  cleanup
}

# the tests that depend on what the machine has (system tools, Qt's libraries, a CPU torch)
NOSUDO_TESTS="tests/unit/test_tools.py tests/unit/test_layering.py tests/unit/test_detect_python_venv.py
  tests/integration/test_bundle.py tests/integration/test_report_browser.py tests/integration/test_install_apt.py
  tests/integration/test_gui_syslibs.py tests/integration/test_verify_cpu_torch.py tests/integration/test_venv_repair.py
  tests/ui/test_widgets.py"
run_as_nosudo() {
  new_root
  in_root useradd -m -s /bin/bash plain
  clone_into "$root_dir/home/plain/gpu-wizard"
  chown -R "$(in_root id -u plain):$(in_root id -g plain)" "$root_dir/home/plain/gpu-wizard"
  say "user 'plain' (no sudo), checkout in ~/gpu-wizard: scripts/test.sh on the machine-dependent tests"
  timed "nosudo: scripts/test.sh (subset)" in_root runuser -l plain -c "cd ~/gpu-wizard && scripts/test.sh -p no:cacheprovider $(echo $NOSUDO_TESTS)" || fail=1
  cleanup
}

# the real-sudo tests (tests/realsudo.py): a password user's sudo, for real
PASSWORD_TESTS="tests/integration/test_door_terminal.py tests/ui/test_door_window.py tests/ui/test_door_journeys.py
  tests/unit/test_run_privileged.py tests/unit/test_run_rootboot.py tests/unit/test_run_askpass.py"
run_as_password_user() {
  new_root
  in_root useradd -m -s /bin/bash -G sudo door
  local pw; pw="door-$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')"
  printf 'door:%s\n' "$pw" | in_root chpasswd
  clone_into "$root_dir/home/door/gpu-wizard"
  say "root installs the system packages (as an administrator would): scripts/sysdeps.sh --test"
  in_root bash -c 'cd /home/door/gpu-wizard && bash scripts/sysdeps.sh --test' >&2 || true
  chown -R "$(in_root id -u door):$(in_root id -g door)" "$root_dir/home/door/gpu-wizard"  # its logs too
  say "user 'door' (sudo group, sudo asks for a password): the real-sudo tests"
  timed "password: scripts/test.sh (real sudo)" in_root runuser -l door -c \
    "cd ~/gpu-wizard && GPU_WIZARD_TEST_SUDO_PASSWORD='$pw' GPU_WIZARD_TEST_REQUIRE_REAL_SUDO=1 scripts/test.sh -p no:cacheprovider $(echo $PASSWORD_TESTS)" || fail=1
  cleanup
}

fail=0
modes=("$@"); ((${#modes[@]})) || modes=(root user nosudo password)
t_all=$SECONDS
build_base
for m in "${modes[@]}"; do
  case $m in
    base) ;;
    root) run_as_root ;;
    user) run_as_user ;;
    nosudo) run_as_nosudo ;;
    password) run_as_password_user ;;
    *) die "unknown mode '$m' (root, user, nosudo, password, base)" ;;
  esac
done
say "figures (label, exit, seconds, MB added):"
column -t -s $'\t' "$figures" >&2 2>/dev/null || cat "$figures" >&2
rm -f "$figures"
say "fresh-root part: $((SECONDS - t_all)) s in all"
exit "$fail"
