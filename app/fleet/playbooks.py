"""The detect and verify playbooks `fleet detect` / `fleet verify` run through ansible-playbook.

Both ship the engine (zipapp) with `ansible.builtin.copy`, run it with the host's `python3`
(`gpu_wizard_python` to choose another) and bring the results back with `ansible.builtin.fetch`.
A host with `gpu_wizard_snapshot` is never contacted: the same engine runs on the controller
(`delegate_to: localhost`) against that file. Paths of those files are resolved by the wizard
(relative to the inventory's folder) and passed in as extra variables.
"""
from __future__ import annotations

from typing import Any

from .ansible import dump_yaml

REMOTE_DIR = "{{ gpu_wizard_remote_dir | default('~/.cache/gpu-wizard/fleet') }}"
PY = "{{ gpu_wizard_python | default('python3') }}"
PYZ = "{{ gw_dir.path }}/gpu-wizard.pyz"
LOCAL_PY = "{{ ansible_playbook_python }}"
OUT = "{{ gw_out }}/{{ inventory_hostname }}"


def _ship() -> list[dict[str, Any]]:
    return [
        {"name": "Make the wizard's folder on the host", "ansible.builtin.file": {
            "path": REMOTE_DIR, "state": "directory", "mode": "0700"}, "register": "gw_dir"},
        {"name": "Copy the wizard's engine to the host (one zipapp; needs only Python 3)", "ansible.builtin.copy": {
            "src": "{{ gw_pyz }}", "dest": PYZ, "mode": "0755"}},
    ]


def detect_playbook() -> str:
    play = {
        "name": "gpu-wizard fleet detect: a redacted snapshot of every host",
        "hosts": "all", "gather_facts": False,
        "tasks": [
            {"name": "Record this host from its snapshot file (gpu_wizard_snapshot), redacted, on the controller",
             "delegate_to": "localhost", "ansible.builtin.command": {"argv": [
                 LOCAL_PY, "{{ gw_pyz }}", "--snapshot", "{{ gw_snapshots[inventory_hostname] }}", "snapshot",
                 "-o", OUT + ".json"]},
             "changed_when": False, "when": "inventory_hostname in gw_snapshots"},
            {"name": "Nothing to contact for a snapshot-backed host", "ansible.builtin.meta": "end_host",
             "when": "inventory_hostname in gw_snapshots"},
            *_ship(),
            {"name": "Record a snapshot of what detection reads (redacted)", "ansible.builtin.command": {
                "argv": [PY, PYZ, "snapshot", "-o", "{{ gw_dir.path }}/snapshot.json"]}, "changed_when": False},
            {"name": "Bring the snapshot back", "ansible.builtin.fetch": {
                "src": "{{ gw_dir.path }}/snapshot.json", "dest": OUT + ".json", "flat": True}},
        ],
    }
    return dump_yaml([play])


def verify_playbook(quick: bool = True, seconds: float | None = None, burn_in_s: float | None = None) -> str:
    opts = ["--quick"] if quick else []
    if seconds:
        opts += ["--seconds", str(seconds)]
    if burn_in_s:  # every host's GPUs at full load for this long, each result checked (verify --burn-in)
        opts += ["--burn-in", f"{float(burn_in_s):g}"]
    play = {
        "name": "gpu-wizard fleet verify: prove every host and bring back its verification and report",
        "hosts": "all", "gather_facts": False,
        "tasks": [
            {"name": "Judge this host's saved verification (gpu_wizard_verification) and write its report, on the controller",
             "delegate_to": "localhost", "ansible.builtin.command": {"argv": [
                 LOCAL_PY, "{{ gw_pyz }}", "fleet", "host-verify", "--prefix", OUT,
                 "--from-snapshot", "{{ gw_snapshots[inventory_hostname] }}",
                 "--verification", "{{ gw_verifications[inventory_hostname] | default('') }}"]},
             "changed_when": False, "when": "inventory_hostname in gw_snapshots"},
            {"name": "Nothing to contact for a snapshot-backed host", "ansible.builtin.meta": "end_host",
             "when": "inventory_hostname in gw_snapshots"},
            *_ship(),
            {"name": "Verify: device, bandwidth, PyTorch and a sustained load (read-only)", "ansible.builtin.command": {
                "argv": [PY, PYZ, "fleet", "host-verify", "--prefix", "{{ gw_dir.path }}/verify/host",
                         "--venv", "{{ gpu_wizard_venv | default('~/.venvs/gpu') }}", *opts]},
             "register": "gw_verify", "changed_when": False, "failed_when": "gw_verify.rc not in [0, 1]"},
            *[{"name": f"Bring back its {what}", "ansible.builtin.fetch": {
                "src": "{{ gw_dir.path }}/verify/host" + suffix, "dest": OUT + suffix, "flat": True}}
              for what, suffix in (("verification", ".verify.json"), ("report", ".report.html"), ("snapshot", ".json"))],
        ],
    }
    return dump_yaml([play])
