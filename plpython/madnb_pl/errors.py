"""PostgreSQL-style errors: a SQLSTATE, a lower-case message, DETAIL and HINT."""

from __future__ import annotations

import functools
from typing import Any, Callable, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


class MadnbError(Exception):
    """An error for the user, raised as a PostgreSQL error by :func:`entry_point`."""

    def __init__(self, sqlstate: str, message: str, detail: str | None = None, hint: str | None = None):
        super().__init__(message)
        self.sqlstate = sqlstate
        self.message = message
        self.detail = detail
        self.hint = hint


def entry_point(func: F) -> F:
    """Turn :class:`MadnbError` into ``plpy.error`` with its SQLSTATE.

    Errors raised by PostgreSQL itself (``plpy.SPIError``) propagate unchanged and
    keep their own SQLSTATE.  Anything else is a bug: it is reported as
    ``XX000 internal error`` with the exception's text, never a bare traceback.
    """

    @functools.wraps(func)
    def wrapper(plpy: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return func(plpy, *args, **kwargs)
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
