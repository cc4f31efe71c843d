"""The detect and verify playbooks `fleet detect` / `fleet verify` run through ansible-playbook, for
the hosts Ansible contacts (hosts with `gpu_wizard_snapshot` are read by the wizard in-process: no
Ansible task, no engine process per host).

Both ship the engine (zipapp) with `ansible.builtin.copy`, run it with the host's `python3`
(`gpu_wizard_python` to choose another) and bring the results back with `ansible.builtin.fetch`
into the fleet folder (`gw_out`): the unredacted snapshot only into its private folder (mode 0700),
from which the controller writes the shared, redacted copy.
"""
from __future__ import annotations

from typing import Any, Optional

from .ansible import Tmpl, dump_yaml

REMOTE_DIR = Tmpl("{{ gpu_wizard_remote_dir | default('~/.cache/gpu-wizard/fleet') }}")
PY = Tmpl("{{ gpu_wizard_python | default('python3') }}")
PYZ = Tmpl("{{ gw_dir.path }}/gpu-wizard.pyz")
HOST_DIR = Tmpl("{{ gw_out }}/hosts/{{ inventory_hostname }}")
PRIVATE = Tmpl("{{ gw_out }}/private/{{ inventory_hostname }}.json")


def _ship() -> list[dict[str, Any]]:
    return [
        {"name": "Make the wizard's folder on the host", "ansible.builtin.file": {
            "path": REMOTE_DIR, "state": "directory", "mode": "0700"}, "register": "gw_dir"},
        {"name": "Copy the wizard's engine to the host (one zipapp; needs only Python 3)", "ansible.builtin.copy": {
            "src": Tmpl("{{ gw_pyz }}"), "dest": PYZ, "mode": "0755"}},
    ]


def _play(name: str, tasks: list[dict[str, Any]]) -> str:
    return dump_yaml([{"name": name, "hosts": "all", "gather_facts": False,
                       "vars": {"ansible_pipelining": Tmpl("{{ gpu_wizard_pipelining | default(true) }}")},
                       "tasks": tasks}])


def detect_playbook() -> str:
    return _play("GPU Setup Wizard fleet detect: a snapshot of every host", [
        *_ship(),
        {"name": "Record a snapshot of what detection reads (a private copy for planning and a redacted one)",
         "ansible.builtin.command": {"argv": [PY, PYZ, "fleet", "host-snapshot", "--prefix", Tmpl("{{ gw_dir.path }}/snapshot")]},
         "changed_when": False},
        {"name": "Bring the private snapshot back into the fleet folder's private part", "ansible.builtin.fetch": {
            "src": Tmpl("{{ gw_dir.path }}/snapshot.private.json"), "dest": PRIVATE, "flat": True}},
        {"name": "Bring the redacted snapshot back", "ansible.builtin.fetch": {
            "src": Tmpl("{{ gw_dir.path }}/snapshot.json"), "dest": Tmpl("{{ gw_out }}/hosts/{{ inventory_hostname }}/snapshot.json"),
            "flat": True}},
        {"name": "Remove the private snapshot from the host's folder", "ansible.builtin.file": {
            "path": Tmpl("{{ gw_dir.path }}/snapshot.private.json"), "state": "absent"}},
    ])


def verify_playbook(quick: bool = True, seconds: Optional[float] = None, burn_in_s: Optional[float] = None) -> str:
    opts = ["--quick"] if quick else []
    if seconds:
        opts += ["--seconds", str(float(seconds))]
    if burn_in_s:  # every host's GPUs at full load for this long, each result checked (verify --burn-in)
        opts += ["--burn-in", f"{float(burn_in_s):g}"]
    return _play("GPU Setup Wizard fleet verify: prove every host and bring back its verification and report", [
        *_ship(),
        {"name": "Verify: device, bandwidth, PyTorch and a sustained load (read-only)", "ansible.builtin.command": {
            "argv": [PY, PYZ, "fleet", "host-verify", "--prefix", Tmpl("{{ gw_dir.path }}/verify/host"),
                     "--venv", Tmpl("{{ gpu_wizard_venv | default('~/.venvs/gpu') }}"), *opts]},
         "register": "gw_verify", "changed_when": False, "failed_when": Tmpl("gw_verify.rc not in [0, 1]")},
        *[{"name": f"Bring back its {what}", "ansible.builtin.fetch": {
            "src": Tmpl("{{ gw_dir.path }}/verify/host" + suffix), "dest": Tmpl("{{ gw_out }}/hosts/{{ inventory_hostname }}/" + name),
            "flat": True}}
          for what, suffix, name in (("verification", ".verify.json", "verify.json"), ("report", ".report.html", "report.html"),
                                     ("snapshot", ".json", "snapshot.json"))],
    ])
