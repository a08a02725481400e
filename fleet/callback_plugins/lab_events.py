# fleet/callback_plugins/lab_events.py: what ./lab fleet reads of a playbook's run, as events.
#
# Ansible loads a callback plugin found beside the playbook (fleet/callback_plugins/) on its own;
# this one needs no enabling and leaves the terminal to whatever stdout callback the user's
# ansible.cfg chooses (default, yaml, minimal, a result format of its own), which ./lab fleet keeps
# in the run's log and never reads. It writes nothing unless LAB_FLEET_EVENTS names a file: then
# one JSON object per line, appended, for every task result of every host (ok, failed,
# unreachable, skipped), named by the inventory host whatever the task was delegated to, and the
# play's recap at the end. A retry of an `until` loop is not an event (no poll lines).
#
# Each line: {"event": "ok"|"failed"|"unreachable"|"skipped"|"stats", "time" (s since 1970), "host", "task", "action",
# "delegated_to", "ignore_errors", "result": {rc, msg, stdout, stderr, failed, unreachable,
# changed, skipped, lab}} ("stats": {"hosts": {HOST: {ok, failures, unreachable, skipped,
# rescued, ignored, changed}}}). stdout and stderr keep their last 64 KiB; "lab" is a task's
# `set_fact: lab: ...` (check.yml's facts).
from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = """
    name: lab_events
    type: notification
    short_description: each host's task results as JSON lines, for ./lab fleet
    description:
      - Appends one JSON object per task result and one for the recap to the file named by
        the environment variable LAB_FLEET_EVENTS; does nothing when it is unset.
"""

import json
import os
import threading
import time

from ansible.plugins.callback import CallbackBase

KEEP = 64 * 1024


class CallbackModule(CallbackBase):
    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = "notification"
    CALLBACK_NAME = "lab_events"
    CALLBACK_NEEDS_ENABLED = False

    def __init__(self):
        super(CallbackModule, self).__init__()
        self._path = os.environ.get("LAB_FLEET_EVENTS")
        self._lock = threading.Lock()

    def _write(self, event):
        if not self._path:
            return
        event["time"] = round(time.time(), 3)
        line = json.dumps(event, sort_keys=True, default=str)
        with self._lock:
            with open(self._path, "a", encoding="utf-8") as f:
                f.write(line + "\n")

    @staticmethod
    def _tail(text):
        if not isinstance(text, str):
            return text
        return text if len(text) <= KEEP else text[-KEEP:]

    def _result(self, kind, result, ignore_errors=False):
        r = result._result
        facts = r.get("ansible_facts") or {}
        delegated = (r.get("_ansible_delegated_vars") or {}).get("ansible_host")
        self._write({
            "event": kind,
            "host": result._host.get_name(),
            "task": result.task_name or result._task.get_name(),
            "action": result._task.action,
            "delegated_to": delegated,
            "ignore_errors": bool(ignore_errors),
            "result": {
                "rc": r.get("rc"),
                "msg": r.get("msg"),
                "stdout": self._tail(r.get("stdout")),
                "stderr": self._tail(r.get("stderr")),
                "failed": bool(r.get("failed", kind == "failed")),
                "unreachable": bool(r.get("unreachable", kind == "unreachable")),
                "changed": bool(r.get("changed", False)),
                "skipped": bool(r.get("skipped", kind == "skipped")),
                "lab": facts.get("lab"),
            },
        })

    def v2_runner_on_ok(self, result):
        self._result("ok", result)

    def v2_runner_on_failed(self, result, ignore_errors=False):
        self._result("failed", result, ignore_errors)

    def v2_runner_on_unreachable(self, result):
        self._result("unreachable", result)

    def v2_runner_on_skipped(self, result):
        self._result("skipped", result)

    def v2_playbook_on_stats(self, stats):
        hosts = {}
        for h in sorted(stats.processed.keys()):
            s = stats.summarize(h)
            hosts[h] = {k: s.get(k, 0) for k in ("ok", "failures", "unreachable", "skipped", "rescued", "ignored", "changed")}
        self._write({"event": "stats", "hosts": hosts})
