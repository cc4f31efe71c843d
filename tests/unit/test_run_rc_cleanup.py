"""rc-file cleanup keeps shell files valid: CUDA lines inside if/fi, a function body, a `\\`
continuation, a loop, a case arm: the edited file passes real `bash -n` whenever the original did,
and the CUDA line no longer takes effect (checked by running the file in real bash)."""
from __future__ import annotations

import shutil
import subprocess

import pytest

from app.plan.model import Edit
from app.run.edits import MARKER, apply_edit, remove_lines, restore

BASH = shutil.which("bash")
pytestmark = pytest.mark.skipif(BASH is None, reason="needs real bash to check the edited files")
OLD = "/usr/local/cuda-11.8"

CASES = {
    "if_fi": (f'if [ -d {OLD} ]; then\n  export PATH={OLD}/bin:$PATH\nfi\necho "P=$PATH"\n',
              [f"export PATH={OLD}/bin:$PATH"]),
    "if_head_and_body": (f'if [ -d {OLD}/bin ]\nthen\n  export PATH={OLD}/bin:$PATH\nfi\necho "P=$PATH"\n',
                         [f"if [ -d {OLD}/bin ]", f"export PATH={OLD}/bin:$PATH"]),
    "function": (f'cuda_on() {{\n  export PATH={OLD}/bin:$PATH\n}}\ncuda_on\necho "P=$PATH"\n',
                 [f"export PATH={OLD}/bin:$PATH"]),
    "continuation": (f'export PATH={OLD}/bin:\\\n$PATH\necho "P=$PATH"\n', [f"export PATH={OLD}/bin:\\"]),
    "continuation_tail": (f'export LD_LIBRARY_PATH=/opt/x:\\\n{OLD}/lib64\necho "P=$LD_LIBRARY_PATH"\n',
                          [f"{OLD}/lib64"]),
    "while_loop": (f'while [ -d {OLD} ]; do\n  break\ndone\necho "P=$PATH"\n', [f"while [ -d {OLD} ]; do"]),
    "case_arm": (f'case "$TERM" in\n  *) export PATH={OLD}/bin:$PATH ;;\nesac\necho "P=$PATH"\n',
                 [f"*) export PATH={OLD}/bin:$PATH ;;"]),
    "plain": (f'alias ll="ls -l"\nexport PATH={OLD}/bin:$PATH\necho "P=$PATH"\n', [f"export PATH={OLD}/bin:$PATH"]),
}


def _bash_n(text: str) -> bool:
    return subprocess.run([BASH, "-n"], input=text.encode(), capture_output=True).returncode == 0


def _run(text: str) -> str:
    r = subprocess.run([BASH, "--norc", "--noprofile", "-c", text], capture_output=True, text=True,
                       env={"PATH": "/usr/bin:/bin", "TERM": "dumb"}, timeout=30)
    return r.stdout


@pytest.mark.parametrize("name", sorted(CASES))
def test_cleanup_keeps_bash_files_valid(name, tmp_path):
    text, lines = CASES[name]
    assert _bash_n(text)
    out = remove_lines(text, lines, "/home/u/.bashrc")
    assert _bash_n(out), out
    assert all(ln.strip() not in [o.strip() for o in out.splitlines()] for ln in lines)
    assert f"{OLD}/bin:/usr" not in _run(out) and f"{OLD}/lib64" not in _run(out).replace(MARKER, "")
    # and through apply_edit with a backup, then undone to the very bytes
    root = tmp_path / "r"
    f = root / "home/u/.bashrc"
    f.parent.mkdir(parents=True)
    f.write_text(text)
    apply_edit(Edit(path="/home/u/.bashrc", mode="remove_lines", lines=tuple(lines), needs_root=False), tmp_path / "b",
               str(root))
    assert _bash_n(f.read_text())
    restore(tmp_path / "b", str(root))
    assert f.read_text() == text


def test_a_plain_line_is_deleted_not_commented():
    text, lines = CASES["plain"]
    assert remove_lines(text, lines, "/home/u/.bashrc") == 'alias ll="ls -l"\necho "P=$PATH"\n'


def test_a_block_body_becomes_a_marked_noop():
    text, lines = CASES["if_fi"]
    out = remove_lines(text, lines, "/home/u/.bashrc")
    assert f":  # {MARKER} export PATH={OLD}/bin:$PATH" in out


def test_a_file_that_was_broken_before_is_not_judged(tmp_path):
    text = f"if true; then\nexport PATH={OLD}/bin:$PATH\n"  # no fi: broken already
    out = remove_lines(text, [f"export PATH={OLD}/bin:$PATH"], "/home/u/.bashrc")
    assert f"{OLD}/bin" not in out.replace(MARKER, "").split("#")[0]


def test_environment_file_just_loses_the_line():
    text = f"PATH=/usr/bin\nCUDA_HOME={OLD}\n"
    assert remove_lines(text, [f"CUDA_HOME={OLD}"], "/etc/environment") == "PATH=/usr/bin\n"
