"""The SQL-building layer: what every stage uses to talk to PostgreSQL and to write SQL.

* :class:`Plpy`, :class:`Sql` and :class:`Plan` (defined in :mod:`madnb_pl.core.spi`, which
  errors.py uses too): the part of PL/Python's ``plpy`` module madnb uses, and the
  only text it runs -- a fragment built from identifiers quoted by
  :mod:`madnb_pl.core.names`, integers and floats madnb computed itself, and
  ``pg_catalog``-qualified names, never from user text;
* named ``pg_type`` OIDs (PostgreSQL's fixed OIDs of the built-in types) and the
  type groups madnb decides by;
* the few builders every stage shares: :func:`int_array`, :func:`float8_literal`,
  :func:`with_clause` and :func:`temp_name`; and :func:`setting`, a planner or
  executor setting for the statements of a ``with`` block.

Generated SQL runs under ``search_path = pg_catalog, pg_temp`` (see
:func:`madnb_pl.core.errors.entry_point`); it is qualified anyway, so that a view
created from it means the same on any search_path.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from typing import Any

from .errors import MadnbError
from .spi import Plpy, Sql

# ---------------------------------------------------------------------------
# pg_type OIDs of built-in types (fixed by PostgreSQL: src/include/catalog/pg_type.dat)
# ---------------------------------------------------------------------------

BOOL = 16
NAME = 19
INT8 = 20
INT2 = 21
INT4 = 23
TEXT = 25
FLOAT4 = 700
FLOAT8 = 701
BPCHAR = 1042
VARCHAR = 1043
DATE = 1082
TIMESTAMP = 1114
TIMESTAMPTZ = 1184
NUMERIC = 1700
UUID = 2950

INTEGER_TYPES = frozenset({INT8, INT2, INT4})
FLOAT_TYPES = frozenset({FLOAT4, FLOAT8})
TEXT_TYPES = frozenset({TEXT, VARCHAR, BPCHAR})
NAN_TYPES = {FLOAT4: "float4", FLOAT8: "float8", NUMERIC: "numeric"}
"""Types that hold NaN, with their SQL names."""
NUMERIC_ELEMENT_TYPES = {
    INT8: "bigint",
    INT2: "smallint",
    INT4: "integer",
    FLOAT4: "real",
    FLOAT8: "double precision",
    NUMERIC: "numeric",
}
"""Element types usable as Gaussian attributes."""

def quote_ident(name: str) -> Sql:
    """Always-quoted identifier, as ``format('%I')`` would quote a name that needs it.

    Only :mod:`madnb_pl.core.names` calls it on names from the caller (after parsing
    them); the other stages quote names madnb chose itself.
    """
    if "\x00" in name:
        raise MadnbError("42602", "identifier contains a NUL character")
    return Sql('"' + name.replace('"', '""') + '"')


# ---------------------------------------------------------------------------
# Qualified type names and builders
# ---------------------------------------------------------------------------

F8 = "pg_catalog.float8"
I8 = "pg_catalog.int8"
I4 = "pg_catalog.int4"
NUM = "pg_catalog.numeric"


def float8_literal(x: float | None) -> Sql:
    """A float8 SQL literal (``repr`` round-trips exactly through float8 input), NULL for None."""
    return Sql("NULL" if x is None else repr(float(x)))


def f8_const(x: float) -> Sql:
    """A float8 constant, exact: quoted ``repr`` (it round-trips through float8 input; 'inf', '-inf', 'nan' too), cast."""
    return Sql(f"'{float(x)!r}'::{F8}")


def f8_array_const(xs: Iterable[float]) -> Sql:
    """A float8[] constant of numbers madnb computed itself, each exact as in :func:`f8_const`."""
    return Sql("'{" + ",".join(repr(float(x)) for x in xs) + f"}}'::{F8}[]")


def int_array(values: Iterable[Any], elem: str = "int4") -> Sql:
    """An int4[] (or int8[]) literal of integers madnb computed itself, never user text."""
    return Sql("'{" + ",".join(str(int(i)) for i in values) + f"}}'::pg_catalog.{elem}[]")


def with_clause(ctes: Sequence[tuple[str, str]]) -> Sql:
    """A WITH clause of (name, body) common table expressions."""
    return Sql("WITH " + ",\n".join(f"{name} AS ({body})" for name, body in ctes) + "\n")


def once(expr: str) -> str:
    """float8, float8[] or int4 ``expr`` computed once in its level: ``madnb._once`` (sql/55_cross_validate.sql), an
    identity function declared VOLATILE, keeps the planner from flattening the level (a sub-select in FROM) into
    the one above, which would compute the expression once per reference there; it is PARALLEL SAFE (the level
    stays in the parallel workers, unlike OFFSET 0) and LANGUAGE sql, inlined once the level is planned (no call
    per row).

    Why OFFSET 0 keeps the levels above it in the leader: PostgreSQL 15 scans a sub-select with LIMIT / OFFSET in
    a worker only if ``limit_needed`` finds none (allpaths.c, set_rel_consider_parallel), and it asks before the
    literal's cast to int8 is folded, so ``OFFSET 0`` counts as an offset; ``OFFSET '0'::pg_catalog.int8``, a
    constant from the parser, does not (measured 2026-12-07: the levels of a prepared view then run below the
    Gather, at no gain on 2 cores, where the leader and two workers share the CPU)."""
    return f"madnb._once({expr})"


def temp_name(prefix: str) -> Sql:
    """A fresh name in ``pg_temp`` for a temporary table of one call (``prefix`` + random hex)."""
    return Sql("pg_temp." + quote_ident(prefix + secrets.token_hex(6)))



# ---------------------------------------------------------------------------
# A value's text without a cast another role can define (issue 17, A2)
# ---------------------------------------------------------------------------

BUILTIN_SQL = (
    "(b.typnamespace OPERATOR(pg_catalog.=) 'pg_catalog'::pg_catalog.regnamespace AND b.typtype OPERATOR(pg_catalog.<>) 'e')"
)
"""Whether type ``b`` (a pg_type row) is PostgreSQL's own: only a superuser can create a cast involving it
(CREATE CAST needs the ownership of one of its types), so casts between such types are pg_catalog's."""


def text_sql(expr: str, builtin: bool) -> Sql:
    """``expr``'s text, NULL kept: a cast for a type of PostgreSQL's own (:data:`BUILTIN_SQL`), else its output function.

    ``format('%s', x)`` calls x's type's output function without looking up a
    cast, so an enum's (or a composite's, a range's) owner cannot plant one.
    """
    if builtin:
        return Sql(f"({expr})::pg_catalog.text")
    return Sql(
        f"CASE WHEN pg_catalog.num_nulls({expr}) OPERATOR(pg_catalog.=) 0 "
        f"THEN pg_catalog.format('%s'::pg_catalog.text, {expr}) END"
    )


@dataclass(frozen=True)
class BaseType:
    """A type as madnb takes its values: a domain (over a domain, ...) as its base type (:func:`base_type`)."""

    oid: int
    sql: str  # format_type
    name: str  # typname
    typtype: str  # 'b', 'c', 'e', 'r', ...
    builtin: bool  # PostgreSQL's own (:data:`BUILTIN_SQL`)


def _base_type_sql(start: str) -> Sql:
    return Sql(
        f"WITH RECURSIVE d(oid, base) AS (SELECT t.oid, t.typbasetype FROM pg_catalog.pg_type AS t WHERE t.oid OPERATOR(pg_catalog.=) {start} "
        "UNION ALL SELECT t.oid, t.typbasetype FROM d JOIN pg_catalog.pg_type AS t ON t.oid OPERATOR(pg_catalog.=) d.base) "
        "SELECT b.oid::pg_catalog.int8 AS oid, pg_catalog.format_type(b.oid, NULL) AS s, b.typname::pg_catalog.text AS name, "
        f"b.typtype::pg_catalog.text AS k, {BUILTIN_SQL} AS builtin "
        "FROM d JOIN pg_catalog.pg_type AS b ON b.oid OPERATOR(pg_catalog.=) d.oid WHERE d.base OPERATOR(pg_catalog.=) 0"
    )


def base_type(plpy: Plpy, of: int | str) -> BaseType | None:
    """Type ``of`` (an OID, or a type's SQL text) itself, or a domain's base type; None if there is no such type.

    The one place the domain chain is walked for one type. A domain's values are
    taken as its base type's: a value of the domain becomes one of its base type
    without a cast or a check, while a value coerced *to* the domain runs its
    CHECK, a function its owner wrote (so madnb never does that).
    """
    if isinstance(of, int):
        rows = plpy.execute(plpy.prepare(_base_type_sql("$1"), ["pg_catalog.oid"]), [of])
    else:
        rows = plpy.execute(plpy.prepare(_base_type_sql("pg_catalog.to_regtype($1)"), ["pg_catalog.text"]), [of])
    if not rows:
        return None
    r = rows[0]
    return BaseType(int(r["oid"]), str(r["s"]), str(r["name"]), str(r["k"]), bool(r["builtin"]))


def type_is_builtin(plpy: Plpy, type_sql: str) -> bool:
    """Whether type ``type_sql`` (a domain: its base type) is PostgreSQL's own (:data:`BUILTIN_SQL`)."""
    b = base_type(plpy, type_sql)
    return b is not None and b.builtin


@contextmanager
def setting(plpy: Plpy, name: str, value: str | Callable[[str], str]) -> Iterator[None]:
    """Setting ``name`` = ``value`` for the statements inside, then the caller's value again (also on an error).

    ``value``: the text to set, or a function of the caller's value (``parallel_tuple_cost`` times a factor).
    Set with ``is_local``: an error inside rolls it back with the statement's savepoint or transaction.
    """
    old = plpy.execute(plpy.prepare(Sql("SELECT pg_catalog.current_setting($1) AS v"), ["pg_catalog.text"]), [name])[0]["v"]
    set_it = plpy.prepare(Sql("SELECT pg_catalog.set_config($1, $2, true)"), ["pg_catalog.text", "pg_catalog.text"])
    plpy.execute(set_it, [name, value(old) if callable(value) else value])
    try:
        yield
    finally:
        plpy.execute(set_it, [name, old])


def without_jit(plpy: Plpy) -> AbstractContextManager[None]:
    """jit = off for the statements inside (:func:`setting`), for a statement whose expressions grow with the model or
    with the source's columns.

    PostgreSQL compiles a statement whose cost passes jit_above_cost in every process that runs it, and the
    compilation grows faster than the expressions: the column face's statistics query of 1,598 text columns (100
    values each), 2,000 rows, in 64 queries of grouping sets: 27 s with jit, 0.9 s without; evaluate's and
    cross-validation's scoring query (the model twice); a private release over a temporary domain the planner has
    no statistics of.  Where the expressions stay small (the array face's passes) the caller's setting holds.
    """
    return setting(plpy, "jit", "off")


__all__ = [
    "BUILTIN_SQL", "BaseType", "base_type", "text_sql", "type_is_builtin",
    "F8", "I4", "I8", "INTEGER_TYPES", "NUM", "NUMERIC_ELEMENT_TYPES", "Plpy", "Sql", "TEXT_TYPES",
    "float8_literal", "int_array", "quote_ident", "setting", "temp_name", "with_clause", "without_jit",
]
