"""The server programming interface madnb talks to: PL/Python's ``plpy``, as a type, and the SQL it accepts.

:class:`Plpy` is the part of the ``plpy`` module madnb uses (every function that runs SQL
takes one); :data:`Sql` is the only text it runs and :data:`Plan` a statement prepared
with parameters.  Nothing else is imported here, so that every module of :mod:`madnb_pl.core`
(the errors included) can type its SQL.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NewType, Protocol

Sql = NewType("Sql", str)
"""SQL text madnb built itself: the only text :meth:`Plpy.execute` and :meth:`Plpy.prepare` accept.

``Sql(text)`` is the one marked constructor: writing it vouches that ``text`` is
made only of SQL madnb wrote, identifiers quoted by :func:`quote_ident` (through
:mod:`madnb_pl.core.names`), numbers madnb computed and ``pg_catalog``-qualified
names -- never of a caller's text, which reaches a statement only as a parameter
of a prepared plan.  Builders return ``Sql``; an f-string of ``Sql`` pieces is a
``str`` again, and is marked ``Sql(...)`` where it is built or run.
"""

Plan = NewType("Plan", object)
"""A statement prepared by :meth:`Plpy.prepare` (PL/Python's PLyPlan): its values go in as parameters."""


class Plpy(Protocol):
    """The ``plpy`` module of PL/Python, as far as madnb uses it.

    Results of :meth:`execute` are sequences of rows (``dict``-like); statements
    from :meth:`prepare` take their values as parameters.
    """

    spiexceptions: Any
    SPIError: type[Exception]
    Error: type[Exception]

    def execute(self, query: Sql | Plan, args: Sequence[Any] | None = ..., limit: int = ...) -> Any: ...

    def prepare(self, query: Sql, types: Sequence[str] = ...) -> Plan: ...

    def quote_literal(self, value: str) -> Sql: ...

    def debug(self, *args: Any, **kwargs: Any) -> None: ...

    def notice(self, *args: Any, **kwargs: Any) -> None: ...

    def warning(self, *args: Any, **kwargs: Any) -> None: ...

    def error(self, *args: Any, **kwargs: Any) -> None: ...
