"""Entry point of the bundled wizard (PyInstaller). Same as `gpu-wizard` / `python -m app`.
One bundle, three programs: `gpu-wizard --gpu-wizard-helper` is the privileged helper (started by
pkexec or sudo; it accepts only the step kinds in app/run/privileged.py); with GPU_WIZARD_ASKPASS
set it is sudo's askpass program, the wizard's own password dialog (ui/askpass.py: SUDO_ASKPASS
must be one program, so the mode travels in the environment sudo passes it); else the wizard."""
import os
import sys

from app.cli import run
from app.run.askpass import ASKPASS_ENV
from app.run.privileged import maybe_run_helper
from app.run.rootboot import detach_from_terminal

if __name__ == "__main__":
    if sys.argv[1:2] == ["--gpu-wizard-helper"] and hasattr(os, "geteuid") and os.geteuid() == 0:
        detach_from_terminal()  # as root (pkexec, sudo): Ctrl-C or a closed terminal never stops a root step
    rc = maybe_run_helper(sys.argv[1:])
    if rc is None and os.environ.get(ASKPASS_ENV) and len(sys.argv) <= 2:
        from ui.askpass import main as askpass_main

        rc = askpass_main(sys.argv[1:])
    if rc is None:
        run()
    sys.exit(rc)
