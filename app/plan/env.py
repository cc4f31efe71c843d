"""Environment: /etc/profile.d/cuda.sh (CUDA_HOME follows the /usr/local/cuda link, so an upgrade only
moves the link), PATH, and the library path through ld.so.conf.d + ldconfig. Every edit is backed up."""
from __future__ import annotations

from app.choices import Choices
from app.facts import Facts
from app.recommendation import Recommendation

from .common import CUDA_LINK, LDCONF_FILE, PROFILE_FILE
from .model import Check, Edit, Step, coded_step
from .toolkit import wants_toolkit

PROFILE_CONTENT = f"""# Written by GPU Setup Wizard. CUDA_HOME is the {CUDA_LINK} link, so a toolkit upgrade only moves the link.
# Remove this file (or restore the wizard's backup) to undo.
export CUDA_HOME={CUDA_LINK}
case ":${{PATH}}:" in
  *":${{CUDA_HOME}}/bin:"*) ;;
  *) export PATH="${{CUDA_HOME}}/bin${{PATH:+:${{PATH}}}}" ;;
esac
"""
# The library path goes to the linker cache rather than LD_LIBRARY_PATH: a global LD_LIBRARY_PATH
# would win over the CUDA libraries PyTorch's wheels bring and can load mismatched ones.
LDCONF_CONTENT = f"# Written by GPU Setup Wizard\n{CUDA_LINK}/lib64\n"


def build_env_steps(facts: Facts, rec: Recommendation, choices: Choices) -> list[Step]:
    if facts.os.platform != "linux":
        return []
    have_toolkit = bool(facts.cuda.toolkits) and not choices.cleanup_old_cuda
    if not (wants_toolkit(rec, choices) or have_toolkit):
        return []
    return [coded_step(
        "write_cuda_env", "write_env", "write_cuda_env", "write_cuda_env_why", {"link": CUDA_LINK},
        needs_root=True, weight=1, timeout_s=120,
        edits=(Edit(path=PROFILE_FILE, content=PROFILE_CONTENT), Edit(path=LDCONF_FILE, content=LDCONF_CONTENT)),
        backups=(PROFILE_FILE, LDCONF_FILE),
        commands=(("ldconfig",),),
        done_when=(Check("file_contains", (PROFILE_FILE, f"export CUDA_HOME={CUDA_LINK}")),
                   Check("file_contains", (LDCONF_FILE, f"{CUDA_LINK}/lib64"))),
    )]
