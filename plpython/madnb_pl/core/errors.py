"""Entry points: PostgreSQL-style errors, and the search_path madnb's SQL runs under.

Errors: a SQLSTATE, a lower-case message, DETAIL and HINT (:class:`MadnbError`).

search_path: every entry point (:func:`entry_point`) runs under
``search_path = pg_catalog, pg_temp``, set when it starts and set back to the
caller's value when it returns (on an error the transaction or savepoint abort
restores it).  Only pg_catalog is searched for operators, functions and types
(pg_temp never is for operators and functions), so every one of them in the SQL
madnb generates, and in its views (which bind operators and functions when they
are created), is pg_catalog's, whatever the caller's search_path holds: an
object planted in a schema on that path never runs inside madnb.  The names a
user passes in are still looked up on the caller's search_path, by
:mod:`madnb_pl.core.names`, which switches back to it for exactly those lookups
(:func:`caller_search_path`).

Output settings: values madnb keeps as text (a model's classes, a categorical
value) must read back as the same value whatever the session's settings, so
every entry point also makes the text form of floats exact (extra_float_digits
at least 1: the shortest exact form) and dates and times ISO (DateStyle's output
part ISO, its field order kept for input; ISO's numeric UTC offset reads back
unambiguously where a zone abbreviation such as IST may not), and sets both back
when it returns.  Nothing else changes: input parsing and the time zone stay the
caller's, so a view over the source reads the same rows as the caller sees.

Types from outside pg_catalog: enums and domains compare with pg_catalog's
operators (anyenum's, the base type's) and work as they are.  A type with its
own equality elsewhere that casts implicitly to a pg_catalog type (citext) would
be compared with pg_catalog's operators after the cast, while GROUP BY uses the
type's own equality; madnb refuses such class and value columns (0A000, see
:func:`madnb_pl.core.names.resolve_column`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar, overload

from .spi import Plpy, Sql

F = TypeVar("F", bound=Callable[..., Any])

PINNED_SEARCH_PATH = "pg_catalog, pg_temp"
"""The search_path of every entry point's generated SQL."""

# The caller's search_path of each active entry point, innermost last.
_callers: list[str] = []


class MadnbError(Exception):
    """An error for the user, raised as a PostgreSQL error by :func:`entry_point`."""

    def __init__(self, sqlstate: str, message: str, detail: str | None = None, hint: str | None = None):
        super().__init__(message)
        self.sqlstate = sqlstate
        self.message = message
        self.detail = detail
        self.hint = hint


def set_search_path(plpy: Plpy, value: str) -> None:
    """``search_path = value`` until the end of the transaction (or of an aborted savepoint).

    Safe under any search_path: a schema-qualified function, a parameter of a
    schema-qualified type and no operator.
    """
    plan = plpy.prepare(Sql("SELECT pg_catalog.set_config('search_path', $1, true)"), ["pg_catalog.text"])
    plpy.execute(plan, [value])


def _set(plpy: Plpy, name: str, value: str) -> None:
    plan = plpy.prepare(Sql("SELECT pg_catalog.set_config($1, $2, true)"), ["pg_catalog.text", "pg_catalog.text"])
    plpy.execute(plan, [name, value])


def _pin_output(plpy: Plpy, float_digits: str, datestyle: str) -> list[tuple[str, str]]:
    """Exact float text and ISO date output (see the module docstring); the settings to set back."""
    restore: list[tuple[str, str]] = []
    if int(float_digits) < 1:
        _set(plpy, "extra_float_digits", "1")
        restore.append(("extra_float_digits", float_digits))
    output, _, order = datestyle.partition(",")
    if output.strip().upper() != "ISO":
        _set(plpy, "DateStyle", "ISO, " + order.strip())
        restore.append(("DateStyle", datestyle))
    return restore


def caller_search_path() -> str | None:
    """The search_path of the innermost active entry point's caller (None outside entry points)."""
    return _callers[-1] if _callers else None


@overload
def entry_point(func: F) -> F: ...


@overload
def entry_point(*, pin_search_path: bool = True) -> Callable[[F], F]: ...


def entry_point(func: Any = None, *, pin_search_path: bool = True) -> Any:
    """Decorate a function called by madnb's SQL functions.

    It runs under :data:`PINNED_SEARCH_PATH` (see the module docstring);
    ``pin_search_path=False`` is for an entry point that runs no SQL and whose SQL
    function pins search_path itself (``madnb.dp_laplace``, called once per
    released cell).

    :class:`MadnbError` becomes ``plpy.error`` with its SQLSTATE.  Errors raised
    by PostgreSQL itself (``plpy.SPIError``) propagate unchanged and keep their
    own SQLSTATE.  Anything else is a bug: it is reported as ``XX000 internal
    error`` with the exception's text, never a bare traceback.
    """
    if func is None:
        return lambda f: _wrap(f, pin_search_path)
    return _wrap(func, pin_search_path)


def _wrap(func: F, pin_search_path: bool) -> F:
    @functools.wraps(func)
    def wrapper(plpy: Plpy, *args: Any, **kwargs: Any) -> Any:  # PL/Python's plpy module
        pinned = False
        restore: list[tuple[str, str]] = []
        try:
            if pin_search_path:
                # pg_catalog's current_setting with a literal: nothing on the caller's path can intervene
                now = plpy.execute(
                    Sql("SELECT pg_catalog.current_setting('search_path') AS p, "
                    "pg_catalog.current_setting('extra_float_digits') AS f, pg_catalog.current_setting('DateStyle') AS d")
                )[0]
                caller = now["p"]
                set_search_path(plpy, PINNED_SEARCH_PATH)
                _callers.append(caller)
                pinned = True
                restore = _pin_output(plpy, now["f"], now["d"])
            try:
                result = func(plpy, *args, **kwargs)
            finally:
                if pinned:
                    _callers.pop()
            if pinned:
                set_search_path(plpy, caller)
                for name, value in restore:
                    _set(plpy, name, value)
            return result
        except MadnbError as e:
            extra = {k: v for k, v in (("detail", e.detail), ("hint", e.hint)) if v is not None}
            plpy.error(e.message, sqlstate=e.sqlstate, **extra)
        except (plpy.SPIError, plpy.Error):
            raise
        except Exception as e:  # pragma: no cover - a bug, reported cleanly
            plpy.error(
                f"internal error in madnb: {type(e).__name__}: {e}",
                hint="please report this with the call that caused it",
                sqlstate="XX000",
            )

    return wrapper  # type: ignore[return-value]
