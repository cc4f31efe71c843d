import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
FIXTURES = ROOT / "tests" / "fixtures"

# Solver tests answer from a pinned copy of the compat data (tests/fixtures/compat-pinned/README.md);
# the data's own tests read resources/compat directly.
os.environ.setdefault("GPU_WIZARD_COMPAT_DIR", str(FIXTURES / "compat-pinned"))
# The suite never touches the network: live index reads are off unless a test turns them on and
# points them at its own 127.0.0.1 server.
os.environ.setdefault("GPU_WIZARD_LIVE", "0")

# A suite started in the background of a non-interactive shell (`nohup ... &`) inherits SIGINT ignored, and
# every program it starts would too: the Ctrl-C tests would press a key nobody hears. Give the tests, and what
# they start, the Ctrl-C a user's terminal has.
import signal  # noqa: E402

if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _no_window_prompt_left_behind():
    """A window registers its password dialog for root requests (app.run.askpass); a test's window may
    outlive the test without being destroyed, so the registration never leaks into the next test."""
    yield
    mod = sys.modules.get("app.run.askpass")
    if mod is not None:
        mod.set_window_prompt(None)


@pytest.fixture(autouse=True)
def _no_machine_lock_left_behind():
    """As root, a test's DirectPrivilege that nobody closed holds a share of this process's machine lock
    until it is collected; collect it here, so the next test's helper (another process) is not told
    "another run is changing this computer" by this test process itself."""
    yield
    mod = sys.modules.get("app.run.machinelock")
    if mod is not None and mod.held_here():
        import gc

        gc.collect()
