#!/usr/bin/env bash
# Print the Python that .venv is built from: the system's /usr/bin/python3 when it is 3.10+ with
# venv (any user can run it, which the wizard's window needs when launch.sh starts it for another
# user), else the first python3 on PATH.
for py in /usr/bin/python3 python3; do
  if "$py" -c 'import sys, venv, ensurepip; sys.exit(sys.version_info < (3, 10))' 2>/dev/null; then
    echo "$py"; exit 0
  fi
done
echo python3
