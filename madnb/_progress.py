"""Progress bars from the database's progress messages.

madnb's long calls (``madnb.train``, ``madnb.evaluate``, ``madnb.cross_validate``,
federated and sharded pulls) report their phases as NOTICEs when the session sets
``madnb.progress = on`` (plpython/madnb_pl/core/progress.py): the message for
psql, its DETAIL as JSON (task, phase, step, steps, fraction).  :func:`reporting`
turns them on for one transaction of a psycopg connection and hands each to a
:class:`Reporter`: a tqdm bar when tqdm is installed (the ``progress`` extra; in
a notebook, tqdm's notebook bar), else one line per phase on standard error.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TextIO

import psycopg

PREFIX = "madnb progress: "
"""How every progress message begins (plpython/madnb_pl/core/progress.py's PREFIX)."""
PROGRESS_EXTRA = "progress"
"""The extra of pyproject.toml that brings tqdm."""


class Reporter:
    """Shows progress messages: a tqdm bar per task when tqdm can be imported (``bar="auto"``), else text lines.

    Parameters
    ----------
    bar : {"auto", "tqdm", "text"}
        "tqdm" insists on tqdm; "text" writes one line per phase.
    stream : file, default sys.stderr
        Where text lines go (and tqdm's bar).
    """

    def __init__(self, bar: str = "auto", stream: TextIO | None = None) -> None:
        if bar not in ("auto", "tqdm", "text"):
            raise ValueError(f"bar must be 'auto', 'tqdm' or 'text', not {bar!r}")
        self.stream = stream if stream is not None else sys.stderr
        self._tqdm: Any = None
        if bar != "text":
            try:
                from tqdm.auto import tqdm
            except ImportError:
                if bar == "tqdm":
                    raise ImportError(f"a progress bar needs tqdm: pip install 'madnb[{PROGRESS_EXTRA}]'") from None
            else:
                self._tqdm = tqdm
        self._bars: dict[str, Any] = {}
        self.seen: list[dict[str, Any]] = []
        """Every progress message received, as its DETAIL's JSON (task, phase, step, steps, fraction)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Reporter:
        """The reporter itself: it holds a stream and open bars, shared (not copied) by a ``clone`` of an estimator."""
        return self

    def notice(self, diag: psycopg.errors.Diagnostic) -> None:
        """A psycopg notice handler: the progress messages are shown, every other notice is left alone."""
        text = diag.message_primary or ""
        if not text.startswith(PREFIX) or not diag.message_detail:
            return
        try:
            event = json.loads(diag.message_detail)
        except ValueError:
            return
        self.seen.append(event)
        self.show(event)

    def show(self, event: dict[str, Any]) -> None:
        """Show one progress event."""
        task, phase, steps = str(event["task"]), str(event["phase"]), int(event["steps"])
        done = phase == "done"
        if self._tqdm is None:
            where = "" if done else f" ({event['step']} of {steps})"
            print(f"madnb: {task}: {phase}{where}", file=self.stream, flush=True)
            return
        bar = self._bars.get(task)
        if bar is None:
            bar = self._bars[task] = self._tqdm(total=steps, desc=task, file=self.stream, leave=True, unit="phase")
        bar.n = steps if done else int(event["step"]) - 1
        bar.set_postfix_str("" if done else phase, refresh=True)
        if done:
            bar.close()
            del self._bars[task]

    def close(self) -> None:
        """Close any bar left open (a call that failed)."""
        for bar in self._bars.values():
            bar.close()
        self._bars.clear()


@contextmanager
def reporting(conn: psycopg.Connection[Any], reporter: Reporter | None) -> Iterator[None]:
    """Inside: ``conn``'s transaction reports progress to ``reporter`` (nothing when it is None).

    ``madnb.progress`` is set to on, and ``client_min_messages`` to at most
    ``notice`` (so that the NOTICEs arrive), for the transaction only
    (``set_config(..., true)``) and set back to what they were on the way out:
    inside a caller's transaction they do not stay on until its commit.  (A call
    that failed leaves them to its savepoint's or transaction's rollback.)
    """
    if reporter is None:
        yield
        return
    (progress, level) = conn.execute(
        "SELECT pg_catalog.current_setting('madnb.progress', true), pg_catalog.current_setting('client_min_messages')"
    ).fetchone() or (None, "notice")
    quiet = str(level).lower() in _ABOVE_NOTICE
    conn.execute("SELECT pg_catalog.set_config('madnb.progress', 'on', true)")
    if quiet:
        conn.execute("SELECT pg_catalog.set_config('client_min_messages', 'notice', true)")
    conn.add_notice_handler(reporter.notice)
    try:
        yield
    finally:
        conn.remove_notice_handler(reporter.notice)
        reporter.close()
        if conn.info.transaction_status == psycopg.pq.TransactionStatus.INTRANS and not conn.closed:
            conn.execute("SELECT pg_catalog.set_config('madnb.progress', %s::pg_catalog.text, true)", [progress or ""])
            if quiet:
                conn.execute("SELECT pg_catalog.set_config('client_min_messages', %s::pg_catalog.text, true)", [level])


_ABOVE_NOTICE = frozenset({"warning", "error"})
"""The ``client_min_messages`` levels at which a NOTICE would not reach the client."""


__all__ = ["PREFIX", "PROGRESS_EXTRA", "Reporter", "reporting"]
