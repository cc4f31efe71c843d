#!/usr/bin/env bash
# The lead's GPU run (issue 28, mirrors as they are): on the H200 (torch 2.11.0+cu130 in /opt/torch/.venv, no internet)
# build local PEP 503 mirrors from the wheels there (PyTorch-style with +cu130 and %2B hrefs, PyPI-style without local
# tags, CPU-only), serve each on 127.0.0.1, run `gpu-wizard recommend` and `plan` against it, print the pinned builds
# and the times. Extra arguments go to bench/h200_mirror_e2e.py (--torch-python PY, --wheel FILE).
set -euo pipefail
cd "$(dirname "$0")/.."
TORCH_PY=${TORCH_PY:-/opt/torch/.venv/bin/python}
WIZ_PY=${WIZ_PY:-}
if [[ -z $WIZ_PY ]]; then
  if [[ -x .venv/bin/python ]]; then WIZ_PY=.venv/bin/python; else WIZ_PY=$TORCH_PY; fi
fi
"$WIZ_PY" -c 'import sys; assert sys.version_info >= (3, 10)' || { echo "h200_mirror_e2e: $WIZ_PY is not Python 3.10+" >&2; exit 2; }
exec "$WIZ_PY" bench/h200_mirror_e2e.py --torch-python "$TORCH_PY" --wizard-python "$WIZ_PY" "$@"
