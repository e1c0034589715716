"""Where the estimator's rows are: a table or view, a SQLAlchemy selectable, or a pandas DataFrame, as a relation in the database.

:func:`relation` gives a :class:`Relation` for one call: a name madnb's SQL
functions take (``madnb.train``, ``madnb.evaluate``, ``madnb.cross_validate``
resolve it on the session's search_path), the same relation composed for a
query, and the ORDER BY that returns its rows in the source's order.

* A table or view name (a ``str``, or a SQLAlchemy ``Table``) is used where it
  is; nothing is copied.  Order: the ``key`` column when one is given (an SQL
  identifier, as madnb's SQL functions read column names: ``ID`` is column
  ``id``, ``'"Id"'`` column ``Id``); without
  it, a table's (or materialised view's) physical order (``ctid``: the order
  ``SELECT * FROM t`` returns while nothing writes to it); a view or a foreign
  table has no order of its own, so predicting on one needs ``key``.
* A selectable (``sqlalchemy.select(...)``) is run into a temporary table by
  ``CREATE TEMPORARY TABLE ... AS`` in the database, its parameters sent as
  parameters; order: the selectable's ORDER BY, if it has one.
* A DataFrame is streamed with COPY into a temporary table whose columns are
  typed from the frame's dtypes (:func:`column_type`) or, when predicting, as
  the model's features; order: the frame's rows as they are (its index order).

Temporary tables are dropped when the call ends; a failed call's transaction
rolls them back with everything else.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import psycopg
from psycopg import sql

from ._errors import MadnbError

ROW_NUMBER = "_madnb_row"
"""The ordinality column of an uploaded frame (a longer name if the frame has a column of that name)."""

TypeName = tuple[str, str]
"""A type as (schema, name), composed with ``sql.Identifier`` (``("pg_catalog", "int8")``)."""


@dataclass(frozen=True)
class Relation:
    """One call's rows in the database.

    Attributes
    ----------
    name : str
        The relation's name as madnb's SQL functions take it (resolved on the session's search_path).
    ident : psycopg.sql.Composable
        The same relation, composed for a query (``FROM {ident} AS {alias}``).
    columns : tuple of str
        Its columns' names.
    order : tuple of str or None
        The columns (or system columns: ``ctid``, ``tableoid``) whose order is the source's; None when it has none.
    """

    name: str
    ident: sql.Composable
    columns: tuple[str, ...]
    order: tuple[str, ...] | None

    @property
    def alias(self) -> sql.Identifier:
        """A table alias that is none of its column names (a row-form call ``f(t)`` would take a column ``t``)."""
        alias = "t"
        while alias in self.columns:
            alias += "_"
        return sql.Identifier(alias)

    def order_by(self) -> sql.Composable | None:
        """The ORDER BY list on :attr:`alias` (None when the source has no order)."""
        if self.order is None:
            return None
        return sql.SQL(", ").join(sql.SQL("{}.{}").format(self.alias, sql.Identifier(c)) for c in self.order)


def _columns(conn: psycopg.Connection[Any], ident: sql.Composable) -> tuple[str, ...]:
    """A relation's column names, read from the catalog."""
    rows = conn.execute(
        sql.SQL("SELECT a.attname FROM pg_catalog.pg_attribute AS a WHERE a.attrelid OPERATOR(pg_catalog.=) {}::pg_catalog.regclass "
                "AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped ORDER BY a.attnum").format(
            sql.Literal(ident.as_string(conn))),
    ).fetchall()
    return tuple(str(r[0]) for r in rows)


def is_frame(source: Any) -> bool:
    """Whether ``source`` is a pandas DataFrame (without importing pandas when it is not loaded)."""
    return type(source).__module__.split(".")[0] == "pandas" and hasattr(source, "columns") and hasattr(source, "dtypes")


def _is_sqlalchemy(source: Any) -> bool:
    return type(source).__module__.split(".")[0] == "sqlalchemy"


def column_type(name: str, series: Any) -> TypeName:
    """The column type of a frame's column uploaded for training, from its dtype.

    Integers -> ``int8``, floats -> ``float8``, booleans -> ``boolean``, a
    datetime -> ``timestamp`` (``timestamptz`` when it has a time zone),
    category, object and string -> ``text`` (each value's ``str``), but an
    object column of lists or arrays (a vector kind's counts) -> ``int8[]``, or
    ``float8[]`` when an element is not an integer; any other dtype is refused
    (42804: cast the column first).
    """
    import pandas as pd

    api, dtype = pd.api.types, series.dtype
    if api.is_bool_dtype(dtype):
        return ("pg_catalog", "bool")
    if api.is_integer_dtype(dtype):
        return ("pg_catalog", "int8")
    if api.is_float_dtype(dtype):
        return ("pg_catalog", "float8")
    if api.is_datetime64_any_dtype(dtype):
        return ("pg_catalog", "timestamptz" if getattr(dtype, "tz", None) is not None else "timestamp")
    if api.is_object_dtype(dtype):
        present = series.dropna()
        if len(present) and all(isinstance(v, (list, tuple, np.ndarray)) for v in present):
            whole = all(api.is_integer(x) for v in present for x in v)
            return ("pg_catalog", "_int8" if whole else "_float8")
    if isinstance(dtype, pd.CategoricalDtype) or api.is_object_dtype(dtype) or api.is_string_dtype(dtype):
        return ("pg_catalog", "text")
    raise MadnbError(
        "42804", f"column {name!r} of the DataFrame has dtype {dtype}, which madnb does not upload",
        hint="integers, floats, booleans, datetimes, strings, categories and lists of numbers are uploaded: cast the column to one of them",
    )


_TEXT_TYPES = frozenset({"text", "varchar", "bpchar", "name"})
_INTEGER_TYPES = frozenset({"int2", "int4", "int8"})


def _values(series: Any, type_name: TypeName) -> list[Any]:
    """A column's values as Python objects for COPY into a column of ``type_name``: None where missing."""
    import pandas as pd

    values: list[Any] = series.astype(object).where(pd.notna(series), None).tolist()
    if type_name[0] == "pg_catalog" and type_name[1] in _TEXT_TYPES:
        return [v if v is None or isinstance(v, str) else str(v) for v in values]
    if type_name[0] == "pg_catalog" and type_name[1] in _INTEGER_TYPES:  # a whole float (an int column with NaN) as its integer
        return [int(v) if isinstance(v, float) and v.is_integer() else v for v in values]
    if type_name[1].startswith("_"):  # an array: numpy arrays and tuples as lists of Python numbers
        return [v.tolist() if isinstance(v, np.ndarray) else list(v) if isinstance(v, tuple) else v for v in values]
    return values


def _temp_name() -> str:
    return "madnb_" + secrets.token_hex(8)


@contextlib.contextmanager
def _temporary(conn: psycopg.Connection[Any], table: str) -> Iterator[None]:
    try:
        yield
    finally:
        if conn.info.transaction_status != psycopg.pq.TransactionStatus.INERROR and not conn.closed:
            conn.execute(sql.SQL("DROP TABLE IF EXISTS {}").format(sql.Identifier("pg_temp", table)))


def upload(
    conn: psycopg.Connection[Any], frame: Any, types: Mapping[str, TypeName] | None = None, *, row_number: bool = False
) -> contextlib.AbstractContextManager[Relation]:
    """Stream ``frame`` into a temporary table (typed by ``types`` where given, else by dtype); dropped on exit.

    ``row_number``: add an ordinality column (1, 2, ... in the frame's order) and order by it.
    """
    return _upload(conn, frame, types or {}, row_number)


@contextlib.contextmanager
def _upload(conn: psycopg.Connection[Any], frame: Any, types: Mapping[str, TypeName], row_number: bool) -> Iterator[Relation]:
    names = list(frame.columns)
    for n in names:
        if not isinstance(n, str):
            raise TypeError(f"the DataFrame's column names must be strings (the table's column names): {n!r} is not")
    if len(set(names)) != len(names):
        raise MadnbError("42701", "the DataFrame has two columns of the same name", hint="rename one of them")
    col_types = [types.get(n) or column_type(n, frame[n]) for n in names]
    table = _temp_name()
    ident = sql.Identifier("pg_temp", table)
    columns = [sql.SQL("{} {}").format(sql.Identifier(n), sql.Identifier(*t)) for n, t in zip(names, col_types, strict=True)]
    ordinal = ROW_NUMBER
    while ordinal in names:
        ordinal += "_"
    if row_number:
        columns.append(sql.SQL("{} pg_catalog.int8").format(sql.Identifier(ordinal)))
    conn.execute(sql.SQL("CREATE TEMPORARY TABLE {} ({})").format(ident, sql.SQL(", ").join(columns)))
    with _temporary(conn, table):
        data = [_values(frame[n], t) for n, t in zip(names, col_types, strict=True)]
        if row_number:
            data.append(list(range(1, len(frame) + 1)))
        listed = sql.SQL(", ").join(sql.Identifier(n) for n in names + ([ordinal] if row_number else []))
        with conn.cursor().copy(sql.SQL("COPY {} ({}) FROM STDIN").format(ident, listed)) as copy:
            for row in zip(*data, strict=True):
                copy.write_row(row)
        conn.execute(sql.SQL("ANALYZE {}").format(ident))
        listed_names = tuple(names + ([ordinal] if row_number else []))
        yield Relation(f"pg_temp.{table}", ident, listed_names, (ordinal,) if row_number else None)


def column_identifier(conn: psycopg.Connection[Any], name: str, what: str) -> str:
    """The column that ``name`` names as SQL reads an identifier (the server's ``parse_ident``: ``ID`` is ``id``,
    ``'"Id"'`` is ``Id``); 42602 unless it is one identifier."""
    (parts,) = conn.execute("SELECT pg_catalog.parse_ident(%s::pg_catalog.text)", [name]).fetchone() or ([],)
    if len(parts) != 1:
        raise MadnbError("42602", f"{what} {name!r} is not one column name",
                         hint="a column name is one identifier: quote it if it has a dot (\"a.b\")")
    return str(parts[0])


def _named(conn: psycopg.Connection[Any], name: str, key: str | None) -> Relation:
    """A table or view by name, resolved on the session's search_path."""
    row = conn.execute(
        "SELECT n.nspname, c.relname, c.relkind FROM pg_catalog.pg_class AS c "
        "JOIN pg_catalog.pg_namespace AS n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace "
        "WHERE c.oid OPERATOR(pg_catalog.=) pg_catalog.to_regclass(%s::pg_catalog.text)",
        [name],
    ).fetchone()
    if row is None:
        raise MadnbError("42P01", f"relation {name!r} does not exist", hint="name a table or view (schema-qualified, or on your search_path)")
    schema, rel, relkind = row
    ident = sql.Identifier(schema, rel)
    order: tuple[str, ...] | None
    if key is not None:
        order = (column_identifier(conn, key, "key"),)
    elif relkind in ("r", "m"):
        order = ("ctid",)
    elif relkind == "p":
        order = ("tableoid", "ctid")
    else:
        order = None
    return Relation(name, ident, _columns(conn, ident), order)


@contextlib.contextmanager
def _selected(conn: psycopg.Connection[Any], selectable: Any, row_number: bool) -> Iterator[Relation]:
    """A SQLAlchemy selectable, run into a temporary table (``row_number``: its rows numbered in its order)."""
    from sqlalchemy.dialects.postgresql import psycopg as sa_psycopg

    # render_postcompile: an expanding parameter (column.in_([...])) becomes one placeholder per value
    compiled = selectable.compile(dialect=sa_psycopg.dialect(), compile_kwargs={"render_postcompile": True})  # type: ignore[no-untyped-call]
    table = _temp_name()
    ident = sql.Identifier("pg_temp", table)
    query = sql.SQL(str(compiled))  # SQLAlchemy's text with %(name)s placeholders: the values go as parameters
    numbered = sql.SQL(", pg_catalog.row_number() OVER () AS {}").format(sql.Identifier(ROW_NUMBER)) if row_number else sql.SQL("")
    conn.execute(
        sql.SQL("CREATE TEMPORARY TABLE {} AS SELECT s.*{} FROM ({}) AS s").format(ident, numbered, query), dict(compiled.params)
    )
    with _temporary(conn, table):
        # (a selectable's own column of that name: CREATE TABLE AS fails, 42701)
        yield Relation(f"pg_temp.{table}", ident, _columns(conn, ident), (ROW_NUMBER,) if row_number else None)


@contextlib.contextmanager
def relation(
    conn: psycopg.Connection[Any],
    source: Any,
    *,
    key: str | None = None,
    types: Mapping[str, TypeName] | None = None,
    columns: Sequence[str] | None = None,
    row_number: bool = False,
) -> Iterator[Relation]:
    """``source`` (a table or view name, a SQLAlchemy ``Table`` or selectable, a DataFrame) as a :class:`Relation`.

    ``key``: the column that orders a named source's rows (a TypeError with a selectable or a DataFrame,
    whose rows have their own order).  ``row_number``: a
    DataFrame's or selectable's rows get an ordinality column, their order (not
    when training: it would be a feature).  For a DataFrame: ``columns`` the
    columns uploaded (all when None), ``types`` their column types where given
    (else by dtype).
    """
    if isinstance(source, str):
        yield _named(conn, source, key)
    elif is_frame(source):
        if key is not None:
            raise TypeError("key orders a table's rows: a DataFrame's rows come back in its own order")
        frame = source if columns is None else source[list(columns)]
        with upload(conn, frame, types, row_number=row_number) as rel:
            yield rel
    elif _is_sqlalchemy(source) and hasattr(source, "fullname") and hasattr(source, "columns"):  # a Table
        yield _named(conn, str(sql.Identifier(*([source.schema] if source.schema else []), source.name).as_string(conn)), key)
    elif _is_sqlalchemy(source) and hasattr(source, "compile"):
        if key is not None:
            raise TypeError("key orders a table's rows: a selectable's rows come in its ORDER BY's order")
        with _selected(conn, source, row_number) as rel:
            yield rel
    else:
        raise TypeError(
            "a source is a table or view name, a SQLAlchemy Table or selectable, or a pandas DataFrame; "
            f"got {type(source).__name__}"
        )
