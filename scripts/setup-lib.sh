# Shared by scripts/launch.sh, scripts/test.sh and scripts/sysdeps.sh (sourced, not run).
# Output rule: apt and pip are quiet unless they fail; their full output goes to a log file under
# build/logs/ that the failure message names.
SETUP_LOGS=${GPU_WIZARD_SETUP_LOGS:-$PWD/build/logs}

# quiet LOGNAME WHAT CMD...: run CMD with its output in the log; on failure say so in a few lines
quiet() {
  local log=$SETUP_LOGS/$1 what=$2 rc=0; shift 2
  mkdir -p "$SETUP_LOGS"
  { printf '\n$ %s\n' "$*"; } >>"$log"
  "$@" >>"$log" 2>&1 || rc=$?
  if ((rc)); then
    echo "$what failed (exit $rc); the full output is in $log; its last lines:" >&2
    tail -n 8 "$log" | sed 's/^/  | /' >&2
  fi
  return "$rc"
}

# .venv with the wizard installed editable (plus EXTRA, e.g. "[test]"), reinstalled when
# pyproject.toml changed. MARK names the stamp file. Needs the Python from scripts/python.sh.
setup_venv() {  # EXTRA MARK IMPORTS
  local extra=$1 mark=$2 imports=$3 py
  if [[ ! -x .venv/bin/python ]] || ! .venv/bin/python -c 'import sys' 2>/dev/null; then
    py=$(bash scripts/python.sh)
    rm -rf .venv
    if "$py" -c 'import ensurepip' 2>/dev/null; then
      quiet setup.log "creating .venv with $py" "$py" -m venv .venv || { rm -rf .venv; return 1; }
    else
      # no ensurepip (python3-venv missing, and it could not be installed): a venv without pip, and
      # pip's own wheel from PyPI, checked against PyPI's sha256
      echo "$py has no ensurepip (python3-venv): putting pip into .venv from PyPI instead" >&2
      if ! quiet setup.log "creating .venv without pip" "$py" -m venv --without-pip .venv ||
         ! quiet setup.log "bootstrapping pip from PyPI" "$py" scripts/bootstrap-pip.py .venv/bin/python; then
        echo "could not set up .venv: install python3-venv (sudo apt-get install python3-venv) and run this again" >&2
        rm -rf .venv
        return 1
      fi
    fi
  fi
  if ! .venv/bin/python -m pip --version >/dev/null 2>&1; then  # a venv made before python3-venv was there
    quiet setup.log "repairing pip in .venv" .venv/bin/python -m ensurepip --upgrade || return 1
  fi
  if ! .venv/bin/python -c "import $imports" 2>/dev/null || [[ pyproject.toml -nt .venv/$mark ]]; then
    echo "Installing the wizard and its Python packages into .venv (log: $SETUP_LOGS/pip.log)" >&2
    quiet pip.log "pip install --upgrade pip" .venv/bin/python -m pip install --upgrade pip || return 1
    # setuptools' editable-install notice addresses package authors, not the user running this
    PYTHONWARNINGS=ignore:::setuptools.command.editable_wheel \
      quiet pip.log "pip install -e .$extra" .venv/bin/python -m pip install -e ".$extra" || return 1
    touch ".venv/$mark"
  fi
}
