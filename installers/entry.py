"""Entry point of the bundled wizard (PyInstaller). Same as `gpu-wizard` / `python -m app`.
`gpu-wizard --gpu-wizard-helper` is the privileged helper (started by pkexec or sudo), so one
bundle serves both; the helper accepts only the step kinds in app/run/privileged.py."""
import sys

from app.cli import main
from app.run.privileged import maybe_run_helper

if __name__ == "__main__":
    rc = maybe_run_helper(sys.argv[1:])
    sys.exit(main() if rc is None else rc)
