"""The client's one error type for the database's answers: :class:`MadnbError`, carrying the SQLSTATE."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import psycopg


class MadnbError(RuntimeError):
    """A madnb call failed; ``sqlstate`` says why, as PostgreSQL's error codes do.

    Raised by :class:`madnb.NaiveBayes` and the ``madnb`` model commands, from
    the database's error (the psycopg error is the ``__cause__``) or, for an
    argument refused before anything is sent, with the SQLSTATE the server
    would give (22023 invalid parameter value, 42804 datatype mismatch, ...).

    Attributes
    ----------
    sqlstate : str or None
        The five-character SQLSTATE (``'42704'``: undefined object, e.g. an unknown model); None for an
        error of the client library that has none (psycopg's refusal of a query it cannot send).
    message : str
        The primary message, lower case as PostgreSQL writes it.
    detail, hint : str or None
        PostgreSQL's DETAIL and HINT, where the server gave them.
    """

    def __init__(self, sqlstate: str | None, message: str, *, detail: str | None = None, hint: str | None = None) -> None:
        self.sqlstate = sqlstate
        self.message = message
        self.detail = detail
        self.hint = hint
        super().__init__(str(self))

    def __str__(self) -> str:
        parts = [self.message if self.sqlstate is None else f"{self.message} (SQLSTATE {self.sqlstate})"]
        if self.detail:
            parts.append(f"DETAIL: {self.detail}")
        if self.hint:
            parts.append(f"HINT: {self.hint}")
        return "\n".join(parts)

    @classmethod
    def from_psycopg(cls, e: psycopg.Error) -> MadnbError:
        """The database's error ``e`` as a :class:`MadnbError`: its SQLSTATE; without one, ``08000`` when the
        connection itself failed (OperationalError, InterfaceError), else None."""
        diag = e.diag
        text = str(e).strip()
        message = diag.message_primary or (text.splitlines()[0] if text else type(e).__name__)
        sqlstate = e.sqlstate or ("08000" if isinstance(e, (psycopg.OperationalError, psycopg.InterfaceError)) else None)
        return cls(sqlstate, message, detail=diag.message_detail, hint=diag.message_hint)


@contextlib.contextmanager
def database_errors() -> Iterator[None]:
    """Turn a psycopg error raised inside into a :class:`MadnbError` (``from`` it)."""
    try:
        yield
    except psycopg.Error as e:
        raise MadnbError.from_psycopg(e) from e
