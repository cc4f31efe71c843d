"""An Ansible callback plugin (loaded by ansible-playbook, never imported by the wizard): what happened
to each host, as JSON for `fleet detect|run|verify` to record: which hosts started, the task that
failed and its message, why a host was unreachable, and the recap counts. Ansible has already
hidden the results of `no_log` tasks before a callback sees them.

It writes the file named by GPU_WIZARD_RECORD_OUT when the playbook ends (and at every failure, so a
run stopped early still says who failed)."""
from __future__ import annotations

import json
import os
from typing import Any

from ansible.plugins.callback import CallbackBase

DOCUMENTATION = """
    name: gpu_wizard_record
    type: aggregate
    short_description: per-host outcome for gpu-wizard's fleet record
    description: writes each host's started/failed/unreachable state and reason to GPU_WIZARD_RECORD_OUT
"""


def _msg(res: dict[str, Any]) -> str:
    parts = []
    for k in ("msg", "stderr", "module_stderr", "stdout"):
        v = res.get(k)
        if isinstance(v, str) and v.strip():
            parts.append(v.strip()[-1500:])
            if k in ("msg",) and len(parts[0]) > 20:
                break
    if not parts and isinstance(res.get("results"), list):  # a loop: its first failed item
        for item in res["results"]:
            if isinstance(item, dict) and item.get("failed"):
                return _msg(item)
    return " ".join(parts)[:3000]


class CallbackModule(CallbackBase):
    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = "aggregate"
    CALLBACK_NAME = "gpu_wizard_record"
    CALLBACK_NEEDS_ENABLED = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.out = os.environ.get("GPU_WIZARD_RECORD_OUT", "")
        self.hosts: dict[str, dict[str, Any]] = {}

    def _host(self, result: Any) -> dict[str, Any]:
        name = result._host.get_name()
        return self.hosts.setdefault(name, {"started": True, "failed": None, "unreachable": None, "rescued": 0})

    def v2_runner_on_ok(self, result: Any) -> None:
        self._host(result)

    def v2_runner_on_skipped(self, result: Any) -> None:
        self._host(result)

    def v2_runner_on_failed(self, result: Any, ignore_errors: bool = False) -> None:
        h = self._host(result)
        if ignore_errors:
            return
        h["failed"] = {"task": result._task.get_name(), "msg": _msg(result._result)}
        self._write()

    def v2_runner_on_unreachable(self, result: Any) -> None:
        h = self._host(result)
        h["unreachable"] = {"task": result._task.get_name(), "msg": _msg(result._result)}
        self._write()

    def v2_playbook_on_stats(self, stats: Any) -> None:
        for name in sorted(stats.processed):
            h = self.hosts.setdefault(name, {"started": True, "failed": None, "unreachable": None, "rescued": 0})
            h["recap"] = stats.summarize(name)
        self._write(done=True)

    def _write(self, done: bool = False) -> None:
        if not self.out:
            return
        try:  # read by the wizard once ansible-playbook has ended (a file it made for this run alone)
            with open(self.out, "w", encoding="utf-8") as f:
                json.dump({"done": done, "hosts": self.hosts}, f)
        except OSError:
            pass
