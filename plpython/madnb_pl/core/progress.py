"""Progress of long work: NOTICEs that a session asks for, naming phases only.

A session that sets ``madnb.progress = on`` (``SET madnb.progress = on``; off, or
unset, by default, so that scripts stay quiet) gets one NOTICE as each phase of a
long call begins, and one when it ends::

    NOTICE:  madnb progress: train adult_nb: statistics pass (1 of 4)
    DETAIL:  {"task": "train adult_nb", "phase": "statistics pass", "step": 1, "steps": 4, "fraction": 0.0}

The message is for a person reading psql; the DETAIL is the same as JSON, for a
client (the Python package turns it into a progress bar: ``madnb._progress``).
``fraction`` is the share of the call's phases already done.

What a progress message may say: a call's phases are fixed by its arguments
(the number of folds, of servers, of parts), never by the data, and nothing in a
message is computed from rows -- so a private release reports nothing that
depends on its data (its phases are the same for every table).
"""

from __future__ import annotations

import json
from typing import Any

from .sql import Plpy, Sql

SETTING = "madnb.progress"
"""The session setting that turns progress messages on (a customized option: ``SET madnb.progress = on``)."""
PREFIX = "madnb progress: "
"""How every progress message begins (what a client recognises)."""
_ON = ("on", "true", "yes", "1")


class Progress:
    """The progress of one call of ``steps`` phases, reported only when the session asked (:data:`SETTING`)."""

    def __init__(self, plpy: Plpy, task: str, steps: int) -> None:
        value = plpy.execute(Sql(f"SELECT pg_catalog.current_setting('{SETTING}', true) AS v"))[0]["v"]
        self.plpy: Any = plpy
        self.on = value is not None and str(value).strip().lower() in _ON
        self.task = task
        self.steps = max(1, steps)
        self.step = 0

    def phase(self, name: str) -> None:
        """Phase ``name`` begins (the next of the call's ``steps``)."""
        self.step += 1
        self._say(name, self.step, (self.step - 1) / self.steps)

    def done(self) -> None:
        """The call's work is done."""
        self._say("done", self.steps, 1.0)

    def _say(self, name: str, step: int, fraction: float) -> None:
        if not self.on:
            return
        detail = {"task": self.task, "phase": name, "step": step, "steps": self.steps, "fraction": round(fraction, 6)}
        where = "" if name == "done" else f" ({step} of {self.steps})"
        self.plpy.notice(f"{PREFIX}{self.task}: {name}{where}", detail=json.dumps(detail))


__all__ = ["PREFIX", "SETTING", "Progress"]
