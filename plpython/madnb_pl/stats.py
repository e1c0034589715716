"""The statistics core: one aggregation pass, and the model tables derived from it.

Every naive Bayes model here is a function of per-class sufficient statistics.
:func:`stats_select` is the single pass over the training table, executed by
PostgreSQL's own executor (``unnest WITH ORDINALITY`` and one ``GROUP BY``).  It
yields one row per (class, attribute, value) for categorical attributes and one
row per (class, attribute) for numeric ones:

    cls, o, v, n, nv, mean, var

``n`` counts rows in the group (for ``o = 1`` or ``o IS NULL`` these are the
class's rows); ``nv``, ``mean`` and ``var`` are the count, mean and sample
variance of the non-NULL values of a numeric attribute.  :func:`model_ctes`
derives MADlib's three tables from that relation; the same SQL serves the
prepared tables and the ad hoc views, so each formula lives in one place.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .errors import MadnbError
from .names import Column, Relation, quote_ident

NUMERIC_ELEMENT_TYPES = {
    # pg_type oids of element types usable as Gaussian attributes
    20: "bigint",
    21: "smallint",
    23: "integer",
    700: "real",
    701: "double precision",
    1700: "numeric",
}

_INDEX_LIST = re.compile(r"^\s*(?:array\s*\[(?P<a>.*)\]|\{(?P<b>.*)\}|(?P<c>.*))\s*$", re.IGNORECASE | re.DOTALL)


def parse_num_attrs(num_attrs: int | None) -> int:
    """numAttrs must be a positive integer (22023 otherwise)."""
    if num_attrs is None:
        raise MadnbError("22004", "numAttrs must not be NULL")
    if num_attrs < 1:
        raise MadnbError("22023", f"numAttrs must be at least 1, got {num_attrs}")
    return int(num_attrs)


def parse_numeric_indices(text: str | None, num_attrs: int) -> list[int]:
    """Parse numericAttrsColumnIndices: ``'ARRAY[1,2]'``, ``'{1,2}'`` or ``'1,2'``.

    The text is parsed, never executed.  Indices are 1-based, within numAttrs,
    without duplicates; the result is sorted.
    """
    if text is None:
        raise MadnbError("22004", "numericAttrsColumnIndices must not be NULL", hint="use the 6-argument form for categorical attributes only")
    m = _INDEX_LIST.match(text)
    body = next(g for g in (m.group("a"), m.group("b"), m.group("c")) if g is not None) if m else None
    if body is None:
        raise MadnbError("22P02", f"invalid numericAttrsColumnIndices: {text!r}")
    items = [s.strip() for s in body.split(",")] if body.strip() else []
    out: list[int] = []
    for s in items:
        if not re.fullmatch(r"[+]?\d+", s):
            raise MadnbError(
                "22P02",
                f"invalid numericAttrsColumnIndices: {text!r}",
                detail=f"{s!r} is not a positive integer",
                hint="write the indices as 'ARRAY[1,2]', '{1,2}' or '1,2' (1-based positions in the attribute array)",
            )
        i = int(s)
        if not 1 <= i <= num_attrs:
            raise MadnbError(
                "22023",
                f"numeric attribute index {i} is out of range 1..{num_attrs}",
                hint="indices are 1-based positions in the attribute array, at most numAttrs",
            )
        if i in out:
            raise MadnbError("22023", f"numeric attribute index {i} is given twice")
        out.append(i)
    return sorted(out)


@dataclass(frozen=True)
class Training:
    """A validated training specification."""

    source: Relation
    cls: Column
    attrs: Column
    num_attrs: int
    numeric: tuple[int, ...]

    @property
    def categorical_only(self) -> bool:
        return not self.numeric

    @property
    def numeric_only(self) -> bool:
        return len(self.numeric) == self.num_attrs

    @property
    def numeric_array_sql(self) -> str:
        """The numeric indices as an int[] literal (integers we parsed, not user text)."""
        return "'{" + ",".join(str(int(i)) for i in self.numeric) + "}'::pg_catalog.int4[]"


def check_attr_column(col: Column, numeric: tuple[int, ...] | list[int], what: str) -> None:
    """The attribute column must be an array; numeric attributes need a numeric element type."""
    if col.elem_sql is None:
        raise MadnbError(
            "42804",
            f'{what} "{col.name}" is of type {col.type_sql}, not an array',
            hint="attributes are one array column, e.g. integer[], float8[], numeric[] or text[]",
        )
    if numeric and col.elem_oid not in NUMERIC_ELEMENT_TYPES:
        raise MadnbError(
            "42804",
            f'numeric attributes need a numeric array, but "{col.name}" is {col.type_sql}',
            hint="use float8[], numeric[] or an integer array, or leave the attribute categorical",
        )


def stats_select(t: Training) -> str:
    """The one aggregation pass over the training table (see the module docstring)."""
    src, cls, attrs = t.source.sql, t.cls.sql, t.attrs.sql
    elem = t.attrs.elem_sql
    if t.categorical_only:
        v, nv, mean, var = "u.val", "NULL::pg_catalog.int8", "NULL::pg_catalog.float8", "NULL::pg_catalog.float8"
    elif t.numeric_only:
        v = f"NULL::{elem}"
        nv = "pg_catalog.count(u.val)"
        mean = "pg_catalog.avg(u.val::pg_catalog.float8)"
        var = "pg_catalog.var_samp(u.val::pg_catalog.float8)"
    else:
        isnum = f"u.o = ANY ({t.numeric_array_sql})"
        v = f"CASE WHEN {isnum} THEN NULL ELSE u.val END"
        nv = f"pg_catalog.count(u.val) FILTER (WHERE {isnum})"
        mean = f"pg_catalog.avg(u.val::pg_catalog.float8) FILTER (WHERE {isnum})"
        var = f"pg_catalog.var_samp(u.val::pg_catalog.float8) FILTER (WHERE {isnum})"
    return (
        f"SELECT t.{cls} AS cls, u.o::pg_catalog.int4 AS o, {v} AS v, pg_catalog.count(*) AS n, "
        f"{nv} AS nv, {mean} AS mean, {var} AS var "
        f"FROM {src} AS t LEFT JOIN LATERAL pg_catalog.unnest(t.{attrs}) WITH ORDINALITY AS u(val, o) ON true "
        f"GROUP BY 1, 2, 3"
    )


def stats_columns_sql(t: Training) -> str:
    """Column definitions of a relation holding :func:`stats_select`'s output."""
    return (
        f"cls {t.cls.type_sql}, o pg_catalog.int4, v {t.attrs.elem_sql}, n pg_catalog.int8, "
        f"nv pg_catalog.int8, mean pg_catalog.float8, var pg_catalog.float8"
    )


def model_ctes(stats: str, t: Training) -> list[tuple[str, str]]:
    """CTEs deriving MADlib's tables ``cp``, ``fp`` and ``np`` from a stats relation.

    * cp: (class, class_cnt, all_cnt)
    * fp: (class, attr, value, cnt, attr_cnt), a row for every class x (attr, value
      seen in training), zero counts included; attr_cnt = distinct values of attr.
    * np: (class, attr, attr_mean, attr_var, value_cnt) for numeric attributes.
    """
    num = t.numeric_array_sql
    return [
        (
            "cc",
            f"SELECT s.cls, pg_catalog.sum(s.n)::pg_catalog.int8 AS class_cnt FROM {stats} AS s "
            "WHERE s.cls IS NOT NULL AND (s.o = 1 OR s.o IS NULL) GROUP BY s.cls",
        ),
        (
            "cp",
            "SELECT cc.cls AS class, cc.class_cnt, (pg_catalog.sum(cc.class_cnt) OVER ())::pg_catalog.int8 AS all_cnt FROM cc",
        ),
        (
            "vals",
            f"SELECT DISTINCT s.o, s.v FROM {stats} AS s WHERE s.cls IS NOT NULL AND s.v IS NOT NULL",
        ),
        ("ac", "SELECT vals.o, pg_catalog.count(*)::pg_catalog.int8 AS attr_cnt FROM vals GROUP BY vals.o"),
        (
            "fp",
            "SELECT cc.cls AS class, vals.o AS attr, vals.v AS value, "
            "COALESCE(s.n, 0)::pg_catalog.int8 AS cnt, ac.attr_cnt "
            f"FROM cc CROSS JOIN vals JOIN ac ON ac.o = vals.o "
            f"LEFT JOIN {stats} AS s ON s.cls = cc.cls AND s.o = vals.o AND s.v = vals.v",
        ),
        (
            "np",
            "SELECT s.cls AS class, s.o AS attr, s.mean AS attr_mean, s.var AS attr_var, s.nv AS value_cnt "
            f"FROM {stats} AS s WHERE s.cls IS NOT NULL AND s.o = ANY ({num})",
        ),
    ]


def with_clause(ctes: list[tuple[str, str]]) -> str:
    return "WITH " + ",\n".join(f"{name} AS ({body})" for name, body in ctes) + "\n"


def check_stats(plpy: Any, stats: str, t: Training) -> dict[str, int]:
    """Validate the training data from the statistics alone (no second pass).

    Every row must have exactly numAttrs attributes (NULL elements allowed); a
    NULL or empty array counts as a row whose attributes are all missing.
    Returns counts, and emits a NOTICE for rows with a NULL class.
    """
    r = plpy.execute(
        "SELECT "
        f" COALESCE(pg_catalog.sum(n) FILTER (WHERE cls IS NULL AND (o = 1 OR o IS NULL)), 0)::int8 AS null_class_rows,"
        f" COALESCE(pg_catalog.sum(n) FILTER (WHERE cls IS NOT NULL AND (o = 1 OR o IS NULL)), 0)::int8 AS rows,"
        f" COALESCE(pg_catalog.sum(n) FILTER (WHERE cls IS NOT NULL AND o = 1), 0)::int8 AS with_attrs,"
        f" COALESCE(pg_catalog.sum(n) FILTER (WHERE cls IS NOT NULL AND o = {t.num_attrs}), 0)::int8 AS full_length,"
        f" COALESCE(pg_catalog.max(o) FILTER (WHERE cls IS NOT NULL), 0)::int8 AS max_len,"
        f" pg_catalog.count(DISTINCT cls)::int8 AS classes"
        f" FROM {stats} AS s"
    )[0]
    if r["null_class_rows"]:
        plpy.notice(
            f"{r['null_class_rows']} row(s) of {t.source.display} with a NULL class were ignored",
            detail=f'class column "{t.cls.name}"',
        )
    if r["rows"] == 0:
        raise MadnbError(
            "22023",
            f"training source {t.source.display} has no rows with a non-NULL class",
            hint="train on a table with at least one labelled row",
        )
    if r["max_len"] > t.num_attrs:
        raise MadnbError(
            "2202E",
            f"attribute arrays have up to {r['max_len']} elements but numAttrs is {t.num_attrs}",
            detail=f'column "{t.attrs.name}" of {t.source.display}',
            hint="set numAttrs to the length of the attribute arrays",
        )
    if r["full_length"] != r["with_attrs"]:
        raise MadnbError(
            "2202E",
            f"{r['with_attrs'] - r['full_length']} attribute array(s) have fewer than numAttrs = {t.num_attrs} elements",
            detail=f'column "{t.attrs.name}" of {t.source.display}',
            hint="every row needs exactly numAttrs attributes; use NULL elements for missing values",
        )
    return {k: int(v) for k, v in r.items()}


def stats_relation_ddl(name_sql: str, t: Training) -> str:
    return f"CREATE TEMPORARY TABLE {name_sql} ({stats_columns_sql(t)}) ON COMMIT DROP"


__all__ = [
    "Training",
    "check_attr_column",
    "check_stats",
    "model_ctes",
    "parse_num_attrs",
    "parse_numeric_indices",
    "quote_ident",
    "stats_select",
    "with_clause",
]
