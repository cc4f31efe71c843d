"""Section-aware INI edits (.wslconfig, /etc/wsl.conf): a key set inside the existing section, never a
second [wsl2]; comments, order, other keys, CRLF and a byte-order mark kept; backed up and undone.
The files look like real ones: the keys and sections are those of Microsoft's .wslconfig / wsl.conf
reference (learn.microsoft.com/windows/wsl/wsl-config), written the way Notepad saves them."""
from __future__ import annotations

import json
import subprocess

import pytest

from app.plan import Check, Edit, Plan, Step, evaluate
from app.plan.ini import get_value, set_in_bytes, set_values
from app.plan.script import plan_to_script
from app.plan.script_ps import plan_to_powershell
from app.run.edits import EditError, apply_edit, restore
from app.run.privileged import check_edit
from app.system import SnapshotSystem

WSLCONFIG = (
    "# Settings apply across all Linux distros running on WSL 2\r\n"
    "[wsl2]\r\n"
    "\r\n"
    "# Limits VM memory to use no more than 4 GB, this can be set as whole numbers using GB or MB\r\n"
    "memory=4GB \r\n"
    "\r\n"
    "# Sets the VM to use two virtual processors\r\n"
    "processors=2\r\n"
    "swap=8GB\r\n"
    "\r\n"
    "[experimental]\r\n"
    "autoMemoryReclaim=gradual\r\n"
)
WSL_CONF = (
    "[boot]\n"
    "systemd=true\n"
    "\n"
    "# Automatically mount Windows drive when the distribution is launched\n"
    "[automount]\n"
    "enabled = true\n"
    "options = \"metadata,uid=1000,gid=1000,umask=022,fmask=11,case=off\"\n"
    "\n"
    "[network]\n"
    "generateResolvConf = false\n"
)
MEM = Edit(path="/home/alex/.wslconfig", mode="ini_set", section="wsl2", settings=(("memory", "11GB"),), needs_root=False)


def _apply(tmp_path, data: bytes, edit=MEM):
    root = tmp_path / "root"
    target = root / edit.path.lstrip("/")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)
    apply_edit(edit, tmp_path / "backups", str(root))
    return target


def test_crlf_bom_wslconfig_gets_its_memory_replaced_in_place_and_undone(tmp_path):
    original = b"\xef\xbb\xbf" + WSLCONFIG.encode()
    target = _apply(tmp_path, original)
    new = target.read_bytes()
    assert new.startswith(b"\xef\xbb\xbf") and new.count(b"\xef\xbb\xbf") == 1
    text = new[3:].decode()
    assert "\n" not in text.replace("\r\n", "")  # every line still ends in CRLF
    assert text.count("[wsl2]") == 1 and "memory=11GB \r\n" in text and "memory=4GB" not in text
    # nothing else moved: the same lines in the same order, only the value changed
    assert text == WSLCONFIG.replace("memory=4GB ", "memory=11GB ")
    assert restore(tmp_path / "backups", str(tmp_path / "root")) == ["/home/alex/.wslconfig"]
    assert target.read_bytes() == original


def test_key_added_at_the_end_of_the_existing_section(tmp_path):
    text = WSLCONFIG.replace("memory=4GB \r\n", "")
    target = _apply(tmp_path, text.encode())
    out = target.read_bytes().decode()
    assert out.count("[wsl2]") == 1
    # after the section's last setting, before the blank line that separates it from [experimental]
    assert "processors=2\r\nswap=8GB\r\nmemory=11GB\r\n\r\n[experimental]\r\n" in out
    assert get_value(out, "wsl2", "memory") == "11GB" and get_value(out, "experimental", "memory") is None


def test_missing_section_or_file(tmp_path):
    target = _apply(tmp_path, b"[experimental]\nautoMemoryReclaim=gradual")  # no final newline
    assert target.read_text() == "[experimental]\nautoMemoryReclaim=gradual\n\n[wsl2]\nmemory=11GB\n"
    # no file at all: created, and undo removes it again
    root = tmp_path / "fresh"
    apply_edit(MEM, tmp_path / "b2", str(root))
    made = root / "home/alex/.wslconfig"
    assert made.read_text() == "[wsl2]\nmemory=11GB\n"
    restore(tmp_path / "b2", str(root))
    assert not made.exists()


def test_wsl_conf_automount_keeps_its_options_and_comments(tmp_path):
    edit = Edit(path="/etc/wsl.conf", mode="ini_set", section="automount", settings=(("ldconfig", "false"),))
    target = _apply(tmp_path, WSL_CONF.encode(), edit)
    out = target.read_text()
    assert out.count("[automount]") == 1
    assert out == WSL_CONF.replace('case=off"\n', 'case=off"\nldconfig=false\n')
    # an existing value keeps its spacing and trailing comment
    again = set_values("[automount]\nldconfig = true   # WSL default\n", "automount", (("ldconfig", "false"),))
    assert again == "[automount]\nldconfig = false   # WSL default\n"
    # a commented-out line is not a setting, and the same key in another section is left alone
    other = set_values("[boot]\nldconfig=true\n[automount]\n# ldconfig=true\n", "automount", (("ldconfig", "false"),))
    assert other == "[boot]\nldconfig=true\n[automount]\n# ldconfig=true\nldconfig=false\n"


def test_utf16_and_odd_bytes_survive(tmp_path):
    data = "\ufeff[wsl2]\r\nmemory=4GB\r\n".encode("utf-16-le")  # Notepad's "Unicode"
    out = set_in_bytes(data, "wsl2", (("memory", "11GB"),))
    assert out == "\ufeff[wsl2]\r\nmemory=11GB\r\n".encode("utf-16-le")
    latin = b"# caf\xe9\n[wsl2]\nprocessors=2\n"  # not UTF-8: the byte comes back unchanged
    assert set_in_bytes(latin, "wsl2", (("memory", "8GB"),)) == b"# caf\xe9\n[wsl2]\nprocessors=2\nmemory=8GB\n"


def test_bad_settings_are_refused_before_any_backup(tmp_path):
    for bad in (Edit(path="/home/a/.wslconfig", mode="ini_set", section="wsl2", settings=(("memory", "8GB\n[x]"),)),
                Edit(path="/home/a/.wslconfig", mode="ini_set", section="ws]l2", settings=(("memory", "8GB"),)),
                Edit(path="/home/a/.wslconfig", mode="ini_set", section="wsl2", settings=(("mem ory", "8GB"),)),
                Edit(path="/home/a/.wslconfig", mode="ini_set", section="wsl2")):
        with pytest.raises(EditError):
            apply_edit(bad, tmp_path / "b", str(tmp_path / "r"))
    assert not (tmp_path / "b" / "backups.json").exists()


def test_ini_value_check_and_helper_policy():
    snap = SnapshotSystem({"format": "gpu-wizard-snapshot/1", "platform": "linux", "commands": {}, "dirs": {}, "links": {},
                           "files": {"/mnt/c/Users/alex/.wslconfig": "\ufeff[wsl2]\r\nmemory = 11GB\r\n", "/etc/wsl.conf": WSL_CONF}})
    assert evaluate(Check("ini_value", ("/mnt/c/Users/alex/.wslconfig", "wsl2", "memory", "11GB")), snap)
    assert not evaluate(Check("ini_value", ("/mnt/c/Users/alex/.wslconfig", "wsl2", "memory", "16GB")), snap)
    assert not evaluate(Check("ini_value", ("/etc/wsl.conf", "automount", "ldconfig", "false")), snap)
    assert not evaluate(Check("ini_value", ("/nope", "wsl2", "memory", "1GB")), snap)
    # the helper accepts the wsl.conf edit as the plan sends it (JSON), and still refuses other paths
    e = Edit.from_json(json.loads(json.dumps(Edit(path="/etc/wsl.conf", mode="ini_set", section="automount",
                                                  settings=(("ldconfig", "false"),)).to_json())))
    assert e.settings == (("ldconfig", "false"),)
    check_edit("wsl_fix", e)
    from app.run.privileged import PolicyError

    with pytest.raises(PolicyError):
        check_edit("wsl_fix", Edit(path="/etc/sudoers", mode="ini_set", section="x", settings=(("a", "b"),)))


def test_exported_bash_script_makes_the_same_edit(tmp_path):
    target = tmp_path / "home" / ".wslconfig"
    target.parent.mkdir()
    original = b"\xef\xbb\xbf" + WSLCONFIG.encode()
    target.write_bytes(original)
    edit = Edit(path=str(target), mode="ini_set", section="wsl2", settings=(("memory", "11GB"),), needs_root=False)
    st = Step(id="configure_wsl_memory", kind="wsl_fix", title="m", why="m", edits=(edit,), backups=(str(target),))
    script = tmp_path / "plan.sh"
    script.write_text(plan_to_script(Plan(steps=(st,))))
    assert subprocess.run(["bash", "-n", str(script)]).returncode == 0
    r = subprocess.run(["bash", str(script)], capture_output=True, text=True,
                       env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "GPU_WIZARD_DOWNLOADS": str(tmp_path / "dl")})
    assert r.returncode == 0, r.stderr
    assert target.read_bytes() == set_in_bytes(original, "wsl2", (("memory", "11GB"),))
    assert (tmp_path / "home" / ".wslconfig.gpu-wizard.bak").read_bytes() == original
    # and the PowerShell export calls its INI function for it, the values as literals
    ps = plan_to_powershell(Plan(platform="windows", steps=(st,)))
    assert "function Set-IniValue" in ps and f"Set-IniValue '{target}' 'wsl2' 'memory' '11GB'" in ps
