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
Training computes the same relation faster where it can: numeric attributes by
subscript (:func:`_numeric_stats_by_subscript`), with the categorical ones of a
mixed table unnested from slices (:func:`_categorical_stats_by_slices`), and
categorical integer codes from one packed key per element
(:func:`packed_code_stats_select`).
"""

from __future__ import annotations

import contextlib
import re
import secrets
from collections.abc import Iterator
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


# The largest numAttrs accepted.  Checked before anything proportional to numAttrs
# is built (Python lists, SQL text, arrays in a view's model): PL/Python cannot be
# interrupted while it runs Python code, so no loop here may be unbounded.  With
# this bound the longest of them (the numeric indices, the categorical runs, a
# view's per-attribute SQL) takes well under a second.
MAX_NUM_ATTRS = 100_000


# The largest Laplace smoothing factor accepted at training (far beyond any useful
# value: s pulls every categorical probability towards uniform).  The views also
# compute a larger value edited into a feature table without overflow (see
# madnb_pl.scoring).
MAX_SMOOTHING = 1e6


def parse_num_attrs(num_attrs: int | None) -> int:
    """numAttrs must be an integer in 1..MAX_NUM_ATTRS (22023 / 54000 otherwise)."""
    if num_attrs is None:
        raise MadnbError("22004", "numAttrs must not be NULL")
    if num_attrs < 1:
        raise MadnbError("22023", f"numAttrs must be at least 1, got {num_attrs}")
    if num_attrs > MAX_NUM_ATTRS:
        raise MadnbError(
            "54000",
            f"numAttrs {num_attrs} is more than madnb supports ({MAX_NUM_ATTRS})",
            hint="numAttrs is the number of elements of each attribute array; "
            f"split wider data into several models of at most {MAX_NUM_ATTRS} attributes",
        )
    return int(num_attrs)


def parse_numeric_indices(text: str | None, num_attrs: int) -> list[int]:
    """Parse numericAttrsColumnIndices: ``'ARRAY[1,2]'``, ``'{1,2}'`` or ``'1,2'``.

    The text is parsed, never executed.  Indices are 1-based, within numAttrs,
    without duplicates; the result is sorted.
    """
    return sorted(numeric_indices_as_given(text, num_attrs))


def numeric_indices_as_given(text: str | None, num_attrs: int) -> list[int]:
    """:func:`parse_numeric_indices` in the order written (public bounds follow that order)."""
    if text is None:
        raise MadnbError("22004", "numericAttrsColumnIndices must not be NULL", hint="use the 6-argument form for categorical attributes only")
    m = _INDEX_LIST.match(text)
    body = next(g for g in (m.group("a"), m.group("b"), m.group("c")) if g is not None) if m else None
    if body is None:
        raise MadnbError("22P02", f"invalid numericAttrsColumnIndices: {text!r}")
    items = [s.strip() for s in body.split(",")] if body.strip() else []
    out: list[int] = []
    seen: set[int] = set()
    for s in items:
        # ASCII digits only: Python's \d (and int()) also accept other scripts' digits ('٣' = 3)
        if not re.fullmatch(r"[+]?[0-9]+", s):
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
        if i in seen:
            raise MadnbError("22023", f"numeric attribute index {i} is given twice")
        seen.add(i)
        out.append(i)
    return out


def int_array(values: Any, elem: str = "int4") -> str:
    """An int4[] (or int8[]) literal of integers we computed ourselves, never user text."""
    return "'{" + ",".join(str(int(i)) for i in values) + f"}}'::pg_catalog.{elem}[]"



@dataclass(frozen=True)
class Training:
    """A validated training specification."""

    source: Relation
    cls: Column
    attrs: Column
    num_attrs: int
    numeric: tuple[int, ...]
    given: tuple[int, ...] | None = None  # the numeric indices in the order written (default: sorted)

    @property
    def numeric_given(self) -> tuple[int, ...]:
        """The numeric indices in the order the caller wrote them (public bounds follow it)."""
        return self.numeric if self.given is None else self.given

    @property
    def categorical_only(self) -> bool:
        return not self.numeric

    @property
    def numeric_only(self) -> bool:
        return len(self.numeric) == self.num_attrs

    @property
    def numeric_array_sql(self) -> str:
        """The numeric indices as an int[] literal (integers we parsed, not user text)."""
        return int_array(self.numeric)


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


def numeric_value_sql(t: Training, x: str, nan_missing: bool) -> str:
    """A numeric attribute value as float8; with ``nan_missing`` NaN reads NULL (missing).

    Integer arrays hold no NaN.  Training runs its fast pass without the test and
    repeats it with the test only when a statistic came out NaN (see
    :func:`materialise`), so tables without NaN pay nothing for it.
    """
    nan_types = {700: "float4", 701: "float8", 1700: "numeric"}
    if nan_missing and t.attrs.elem_oid in nan_types:
        nan = f"'NaN'::pg_catalog.{nan_types[t.attrs.elem_oid]}"
        return f"(CASE WHEN {x} OPERATOR(pg_catalog.<>) {nan} THEN {x} END)::pg_catalog.float8"
    return f"{x}::pg_catalog.float8"


def _numeric_stats_by_subscript(t: Training, nan_missing: bool = False) -> str:
    """Numeric statistics by subscript: one GROUP BY class, no unnest.

    Yields the rows of the unnest pass for the numeric attributes of
    one-dimensional 1-based arrays (and for o IS NULL and, when some array is
    longer, o = its length), plus a row o = -1 counting arrays of any other
    shape, for which the caller reruns the unnest pass (:func:`odd_arrays`).
    With categorical attributes too, :func:`_categorical_stats_by_slices` adds
    theirs.
    """
    src, cls, a, n = t.source.sql, t.cls.sql, f"t.{t.attrs.sql}", t.num_attrs
    card = f"pg_catalog.cardinality({a})"
    aggs = [
        f"pg_catalog.count(*) FILTER (WHERE COALESCE({card}, 0) = 0) AS n_empty",
        f"pg_catalog.count(*) FILTER (WHERE {card} > 0) AS n_any",
        f"pg_catalog.count(*) FILTER (WHERE {card} >= {n}) AS n_full",
        f"pg_catalog.count(*) FILTER (WHERE {card} > {n}) AS n_long",
        f"pg_catalog.max({card})::pg_catalog.int4 AS max_len",
        f"pg_catalog.count(*) FILTER (WHERE pg_catalog.array_ndims({a}) > 1 OR pg_catalog.array_lower({a}, 1) <> 1) AS n_odd",
    ]
    rows = [
        "(NULL::pg_catalog.int4, g.n_empty, NULL::pg_catalog.int8, NULL::pg_catalog.float8, NULL::pg_catalog.float8)",
        "(g.max_len, g.n_long, NULL, NULL, NULL)",
        "(-1, g.n_odd, NULL, NULL, NULL)",
    ]
    for j in t.numeric:
        x = numeric_value_sql(t, f"{a}[{j}]", nan_missing)
        counted = x if nan_missing else f"{a}[{j}]"
        aggs.append(f"pg_catalog.count({counted}) AS c{j}, pg_catalog.avg({x}) AS m{j}, pg_catalog.var_samp({x}) AS v{j}")
        # rows with at least j elements: exact whenever every array has numAttrs
        # elements, which check_stats demands (it reports the others from o = 1 and o = numAttrs)
        rows.append(f"({j}, g.{'n_any' if j == 1 else 'n_full'}, g.c{j}, g.m{j}, g.v{j})")
    return (
        f"SELECT g.cls, x.o, NULL::{t.attrs.elem_sql} AS v, x.n, x.nv, x.mean, x.var FROM "
        f"(SELECT t.{cls} AS cls, {', '.join(aggs)} FROM {src} AS t GROUP BY t.{cls}) AS g "
        f"CROSS JOIN LATERAL (VALUES {', '.join(rows)}) AS x(o, n, nv, mean, var) "
        f"WHERE x.n > 0 AND (x.o IS NULL OR x.o BETWEEN 1 AND {n} OR x.o = g.max_len OR x.o = -1)"
    )


MAX_SUBSCRIPT_ATTRS = 500  # numeric attributes by subscript: 3 aggregates each, at most 1664 in a select list
MAX_SLICES = 16  # beyond, concatenating the slices of each row costs more than unnesting it whole


def _categorical_runs(t: Training) -> list[tuple[int, int]]:
    """The categorical positions as runs [p, q] of consecutive positions."""
    runs: list[list[int]] = []
    numeric = set(t.numeric)
    for j in range(1, t.num_attrs + 1):
        if j in numeric:
            continue
        if runs and runs[-1][1] == j - 1:
            runs[-1][1] = j
        else:
            runs.append([j, j])
    return [(p, q) for p, q in runs]


def _categorical_stats_by_slices(t: Training) -> str:
    """The unnest pass over the categorical attributes of a mixed table only.

    The categorical positions are cut out of each array as slices (one per run
    of consecutive positions) and unnested; the numeric ones are left to
    :func:`_numeric_stats_by_subscript`, whose o = -1 row sends arrays that are
    not one-dimensional and 1-based (where slices mean something else) back to
    the unnest pass.  An empty or NULL array yields no row here: the subscript
    pass counts it.
    """
    a = f"t.{t.attrs.sql}"
    runs = _categorical_runs(t)
    pieces = " || ".join(f"{a}[{p}:{q}]" for p, q in runs)
    where = int_array(j for p, q in runs for j in range(p, q + 1))
    return (
        f"SELECT t.{t.cls.sql} AS cls, ({where})[u.r] AS o, u.val AS v, pg_catalog.count(*) AS n, "
        "NULL::pg_catalog.int8 AS nv, NULL::pg_catalog.float8 AS mean, NULL::pg_catalog.float8 AS var "
        f"FROM {t.source.sql} AS t CROSS JOIN LATERAL pg_catalog.unnest({pieces}) WITH ORDINALITY AS u(val, r) "
        "GROUP BY 1, 2, 3"
    )


def odd_arrays(plpy: Any, stats: str) -> bool:
    """Whether the subscript pass met arrays that are not one-dimensional and 1-based."""
    return bool(plpy.execute(f"SELECT EXISTS (SELECT 1 FROM {stats} AS s WHERE s.o = -1) AS odd")[0]["odd"])


# ---------------------------------------------------------------------------
# Categorical integer codes: the same statistics from a packed key
# ---------------------------------------------------------------------------
#
# For categorical-only training on smallint[] or integer[] attributes the pass
# groups on one int8 per element, k = v * 2**27 + o (an array holds fewer than
# 2**27 elements, so o < 2**27; |v| < 2**31, so k fits an int8 and decodes as
# v = k >> 27, o = k & (2**27 - 1)).  Both come from set-returning functions in
# the select list, in lock-step: unnest(attributes) and unnest('{1..numAttrs}').
# That is about 20% cheaper than unnest ... WITH ORDINALITY in FROM (which
# materialises each row's elements in a tuplestore) and it still aggregates in
# parallel (measured in bench/results/scoring.md).  What the packed key cannot
# carry is taken from a cheap first pass per class (rows, empty arrays, arrays
# of another length): the NULL elements of attribute o are the class's
# full-length rows minus its non-NULL values at o.  A table with an array of
# another length goes through :func:`stats_select`, whose relation gives
# :func:`check_stats` what it needs for its error messages.

PACKED_CODE_TYPES = {21: "smallint", 23: "integer"}
PACKED_MAX_ATTRS = 10_000  # the positions are written as an array literal
_PACK = 1 << 27


def packs_codes(t: Training) -> bool:
    """Whether :func:`packed_code_stats_select` applies to this training."""
    return t.categorical_only and t.attrs.elem_oid in PACKED_CODE_TYPES and t.num_attrs <= PACKED_MAX_ATTRS


def code_shape_select(t: Training) -> str:
    """Per class: rows, rows with a NULL or empty array, rows with another number of elements."""
    a, n = f"t.{t.attrs.sql}", t.num_attrs
    card = f"pg_catalog.cardinality({a})"
    return (
        f"SELECT t.{t.cls.sql} AS cls, pg_catalog.count(*) AS n_rows, "
        f"pg_catalog.count(*) FILTER (WHERE COALESCE({card}, 0) = 0) AS n_empty, "
        f"pg_catalog.count(*) FILTER (WHERE {card} > 0 AND {card} <> {n}) AS n_other "
        f"FROM {t.source.sql} AS t GROUP BY 1"
    )


def packed_code_stats_select(t: Training) -> str:
    """The non-NULL (class, o, v) counts of the classed rows, shaped like :func:`stats_select`.

    Meant for a table whose arrays all have numAttrs elements (or none): the
    caller checks that with :func:`code_shape_select` first and adds the NULL
    and empty-array rows with :func:`packed_code_rest_select`.  PostgreSQL's
    planner costs a Gather above a set-returning function by the table's rows, so
    the caller scales parallel_tuple_cost by numAttrs for this statement: without
    that it gathers every element into the leader rather than aggregating in
    workers.
    (OFFSET 0 keeps ``k IS NOT NULL`` after the aggregate: pushed below it, the
    test would run once per element.)
    """
    positions = int_array(range(1, t.num_attrs + 1), "int8")
    key = f"pg_catalog.unnest(t.{t.attrs.sql})::pg_catalog.int8 * {_PACK} + pg_catalog.unnest({positions})"
    return (
        f"SELECT g.cls, (g.k & {_PACK - 1})::pg_catalog.int4 AS o, (g.k >> 27)::{t.attrs.elem_sql} AS v, g.n, "
        "NULL::pg_catalog.int8 AS nv, NULL::pg_catalog.float8 AS mean, NULL::pg_catalog.float8 AS var "
        f"FROM (SELECT e.cls, e.k, pg_catalog.count(*) AS n FROM (SELECT t.{t.cls.sql} AS cls, {key} AS k "
        f"FROM {t.source.sql} AS t WHERE t.{t.cls.sql} IS NOT NULL) AS e GROUP BY 1, 2 OFFSET 0) AS g "
        "WHERE g.k IS NOT NULL"
    )


def packed_code_rest_select(t: Training, stats: str, shape: str) -> str:
    """The rows :func:`packed_code_stats_select` leaves out, from the class shapes.

    Per class: (cls, o, NULL) with the NULL elements at o (full-length rows
    less the non-NULL values counted at o), (cls, NULL, NULL) with the rows
    whose array is NULL or empty, and for the NULL class one (NULL, NULL, NULL)
    row with its row count -- what :func:`stats_select` yields for them.
    """
    rest = "NULL::pg_catalog.int8, NULL::pg_catalog.float8, NULL::pg_catalog.float8"
    return (
        f"SELECT h.cls, g.o::pg_catalog.int4, NULL::{t.attrs.elem_sql}, (h.n_rows - h.n_empty - COALESCE(x.n, 0))::pg_catalog.int8, {rest} "
        f"FROM {shape} AS h CROSS JOIN pg_catalog.generate_series(1, {t.num_attrs}) AS g(o) "
        f"LEFT JOIN (SELECT s.cls, s.o, pg_catalog.sum(s.n) AS n FROM {stats} AS s GROUP BY 1, 2) AS x "
        "ON x.cls = h.cls AND x.o = g.o "
        "WHERE h.cls IS NOT NULL AND h.n_rows - h.n_empty - COALESCE(x.n, 0) > 0 "
        f"UNION ALL SELECT h.cls, NULL, NULL, h.n_empty, {rest} FROM {shape} AS h "
        "WHERE h.cls IS NOT NULL AND h.n_empty > 0 "
        f"UNION ALL SELECT h.cls, NULL, NULL, h.n_rows, {rest} FROM {shape} AS h WHERE h.cls IS NULL"
    )


def materialise(plpy: Any, t: Training) -> str:
    """Run the statistics pass into a temporary relation (dropped at commit); return its name.

    The pass is the fastest that fits the table: packed integer codes, numeric
    attributes by subscript (with categorical slices), or the general unnest pass,
    to which the first two fall back for arrays of another shape.  A finite
    numeric value too large for float8's sum of squares (beyond about 1e154) makes
    PostgreSQL's ``var_samp`` overflow: that is 22003 naming the source, with a hint.
    """
    try:
        return _materialise(plpy, t)
    except plpy.spiexceptions.NumericValueOutOfRange as e:
        if not t.numeric:
            raise
        raise MadnbError(
            "22003",
            f"a numeric attribute of {t.source.display} holds values too large for its mean and variance in float8",
            detail=f'column "{t.attrs.name}", numeric attributes {list(t.numeric_given)}',
            hint="Gaussian attributes need values whose squares fit a float8 (about within +-1e154): "
            "rescale the column in a view, or make the attribute categorical",
        ) from e


def _materialise(plpy: Any, t: Training) -> str:
    name = quote_ident("pg_temp") + "." + quote_ident("madnb_stats_" + secrets.token_hex(6))
    if packs_codes(t) and _packed_code_stats(plpy, t, name):
        return name
    # CREATE TABLE AS (unlike INSERT ... SELECT) may run the pass with parallel workers.
    plpy.execute(f"CREATE TEMPORARY TABLE {name} ON COMMIT DROP AS {stats_select(t)}")
    if not t.numeric:
        return name
    by_subscript = not odd_arrays(plpy, name)
    if by_subscript and _nonfinite_stats(plpy, name, t) is None:
        return name
    # NaN counts as a missing value.  The fast pass does not test for it: a NaN (or
    # infinite) statistic says there is one, and the pass runs again with the test.
    plpy.execute(f"DROP TABLE {name}")
    plpy.execute(
        f"CREATE TEMPORARY TABLE {name} ON COMMIT DROP AS {stats_select(t, by_subscript=by_subscript, nan_missing=True)}"
    )
    bad = _nonfinite_stats(plpy, name, t)
    if bad is not None:
        raise MadnbError(
            "22003",
            f"numeric attribute {bad['o']} of {t.source.display} has an infinite value",
            detail=f'column "{t.attrs.name}", class {bad["cls"]}',
            hint="Gaussian attributes need finite values: replace an infinity by NULL (a missing value) or clip it",
        )
    return name


def _nonfinite_stats(plpy: Any, stats: str, t: Training) -> dict[str, Any] | None:
    """The first numeric statistic that is NaN or infinite, if any (from the statistics only).

    Before NaN is treated as missing, such a statistic means a NaN or an
    infinite value; afterwards only an infinite one (avg and var_samp raise an
    error themselves when finite values overflow).
    """
    f8 = "pg_catalog.float8"
    rows = plpy.execute(
        "SELECT s.o, s.cls::pg_catalog.text AS cls, s.mean, s.var FROM "
        f"{stats} AS s WHERE s.o OPERATOR(pg_catalog.=) ANY ({t.numeric_array_sql}) AND ("
        f"s.mean OPERATOR(pg_catalog.=) ANY (ARRAY['NaN', 'Infinity', '-Infinity']::{f8}[]) "
        f"OR s.var OPERATOR(pg_catalog.=) ANY (ARRAY['NaN', 'Infinity']::{f8}[])) "
        "ORDER BY s.o LIMIT 1"
    )
    return rows[0] if rows else None


def _packed_code_stats(plpy: Any, t: Training, name: str) -> bool:
    """The pass for integer codes (see :func:`packs_codes`); False when an array's length is off."""
    shape = quote_ident("pg_temp") + "." + quote_ident("madnb_shape_" + secrets.token_hex(6))
    plpy.execute(f"CREATE TEMPORARY TABLE {shape} ON COMMIT DROP AS {code_shape_select(t)}")
    odd = plpy.execute(f"SELECT EXISTS (SELECT 1 FROM {shape} AS h WHERE h.cls IS NOT NULL AND h.n_other > 0) AS odd")[0]["odd"]
    if not odd:
        # PostgreSQL costs a Gather of every element by the table's rows, not the
        # numAttrs elements per row it would pass on (a 20,000 x 1,000 table was planned
        # as Gather + Sort of 20 million elements: 11 s instead of 1.6 s); a higher
        # per-tuple cost corrects that.  numAttrs / 2: the full factor also charges the
        # few partial groups so much that a 10,000 x 500 table was planned serially.
        with _gather_cost(plpy, max(1.0, t.num_attrs / 2)):
            plpy.execute(f"CREATE TEMPORARY TABLE {name} ON COMMIT DROP AS {packed_code_stats_select(t)}")
        plpy.execute(f"INSERT INTO {name} {packed_code_rest_select(t, name, shape)}")
    plpy.execute(f"DROP TABLE {shape}")
    return not odd


@contextlib.contextmanager
def _gather_cost(plpy: Any, factor: float) -> Iterator[None]:
    """parallel_tuple_cost times factor for the statements inside, then the caller's setting again."""
    old = plpy.execute("SELECT pg_catalog.current_setting('parallel_tuple_cost') AS v")[0]["v"]
    set_it = plpy.prepare("SELECT pg_catalog.set_config('parallel_tuple_cost', $1, true)", ["text"])
    plpy.execute(set_it, [repr(float(old) * factor)])
    try:
        yield
    finally:
        plpy.execute(set_it, [old])


def stats_select(t: Training, by_subscript: bool = True, nan_missing: bool = False) -> str:
    """The one aggregation pass over the training table (see the module docstring).

    ``nan_missing``: a NaN numeric value is a missing value.  The unnest pass
    (ad hoc views train with it on every query) always tests for NaN.
    """
    src, cls, attrs = t.source.sql, t.cls.sql, t.attrs.sql
    elem = t.attrs.elem_sql
    # three aggregates per numeric attribute in one select list, which holds at most 1664
    by_subscript = by_subscript and len(t.numeric) <= MAX_SUBSCRIPT_ATTRS
    if t.numeric_only and by_subscript:
        return _numeric_stats_by_subscript(t, nan_missing)
    if t.numeric and by_subscript and len(_categorical_runs(t)) <= MAX_SLICES:
        return f"{_categorical_stats_by_slices(t)} UNION ALL {_numeric_stats_by_subscript(t, nan_missing)}"
    x = numeric_value_sql(t, "u.val", True)
    if t.categorical_only:
        v, nv, mean, var = "u.val", "NULL::pg_catalog.int8", "NULL::pg_catalog.float8", "NULL::pg_catalog.float8"
    elif t.numeric_only:
        v = f"NULL::{elem}"
        nv = f"pg_catalog.count({x})"
        mean = f"pg_catalog.avg({x})"
        var = f"pg_catalog.var_samp({x})"
    else:
        isnum = f"u.o = ANY ({t.numeric_array_sql})"
        v = f"CASE WHEN {isnum} THEN NULL ELSE u.val END"
        nv = f"pg_catalog.count({x}) FILTER (WHERE {isnum})"
        mean = f"pg_catalog.avg({x}) FILTER (WHERE {isnum})"
        var = f"pg_catalog.var_samp({x}) FILTER (WHERE {isnum})"
    return (
        f"SELECT t.{cls} AS cls, u.o::pg_catalog.int4 AS o, {v} AS v, pg_catalog.count(*) AS n, "
        f"{nv} AS nv, {mean} AS mean, {var} AS var "
        f"FROM {src} AS t LEFT JOIN LATERAL pg_catalog.unnest(t.{attrs}) WITH ORDINALITY AS u(val, o) ON true "
        f"GROUP BY 1, 2, 3"
    )


CLASS_ROWS_OF_PASS = "(s.o = 1 OR s.o IS NULL)"
"""The rows of the statistics pass whose counts add up to a class's rows."""
CLASS_ROWS_OF_TABLE = "s.o OPERATOR(pg_catalog.=) 0"
"""The class-count rows of a statistics table (attr 0, see madnb_pl.statistics_table)."""


def model_ctes(stats: str, t: Training, class_rows: str = CLASS_ROWS_OF_PASS) -> list[tuple[str, str]]:
    """CTEs deriving MADlib's tables ``cp``, ``fp`` and ``np`` from a stats relation.

    ``class_rows`` selects the rows whose ``n`` add up to the class counts: those
    of the statistics pass (:data:`CLASS_ROWS_OF_PASS`), or the attr-0 rows of a
    (merged) statistics table (:data:`CLASS_ROWS_OF_TABLE`).

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
            f"WHERE s.cls IS NOT NULL AND {class_rows} GROUP BY s.cls",
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
    """A WITH clause of (name, body) common table expressions."""
    return "WITH " + ",\n".join(f"{name} AS ({body})" for name, body in ctes) + "\n"


def write_model_tables(plpy: Any, ctes: str, t: Training, cp: Any, fp: Any, np: Any, smoothing: float) -> None:
    """Create MADlib's tables (plus madnb's extra columns) and fill them from the
    ``cp``, ``fp`` and ``np`` CTEs of ``ctes`` (exact or noisy statistics alike)."""
    ctype, etype = t.cls.type_sql, t.attrs.elem_sql
    plpy.execute(f"CREATE TABLE {cp.sql} (class {ctype}, class_cnt pg_catalog.int8, all_cnt pg_catalog.int8)")
    plpy.execute(
        f"CREATE TABLE {fp.sql} (class {ctype}, attr pg_catalog.int4, value {etype}, "
        "cnt pg_catalog.int8, attr_cnt pg_catalog.int8, smoothing pg_catalog.float8)"
    )
    plpy.execute(f"{ctes} INSERT INTO {cp.sql} SELECT class, class_cnt, all_cnt FROM cp ORDER BY class")
    plpy.execute(
        f"{ctes} INSERT INTO {fp.sql} SELECT class, attr, value, cnt, attr_cnt, {float(smoothing)!r}::pg_catalog.float8 "
        "FROM fp ORDER BY attr, value, class"
    )
    if np is not None:
        plpy.execute(
            f"CREATE TABLE {np.sql} (class {ctype}, attr pg_catalog.int4, attr_mean pg_catalog.float8, "
            "attr_var pg_catalog.float8, value_cnt pg_catalog.int8)"
        )
        plpy.execute(f"{ctes} INSERT INTO {np.sql} SELECT class, attr, attr_mean, attr_var, value_cnt FROM np ORDER BY class, attr")


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


# ---------------------------------------------------------------------------
# Differentially private variant (see madnb_pl.dp for the privacy side)
# ---------------------------------------------------------------------------
#
# The private pass computes the same kind of statistics, shaped for noise:
#
#   cls, o, v, n, s1, s2
#
# with o = 0 for the class count (one per row), o = i for attribute i.  The
# attribute array is read by position when it is one-dimensional (whatever its
# lower bound); any other shape (NULL, empty, two or more dimensions) counts as
# all attributes missing, so no array can make the pass fail.  Numeric values
# are clipped to their public bounds [lo, hi] and encoded as integers
#
#   z = clip(round((x - m) / h * K), -K, K),   m = (lo + hi) / 2, h = (hi - lo) / 2,
#
# K = 2**bits, so one row moves s1 = sum(z) by at most K and s2 = sum(z*z) by at
# most K**2, whatever its value (the final integer clip makes this hold even
# where floating point rounds).  These exact statistics never leave the
# statement that computes them: :func:`dp_release_select` adds noise to every
# cell of the public domain in the same statement.

F8 = "pg_catalog.float8"


def _f8(x: float | None) -> str:
    """A float8 SQL literal (repr round-trips exactly through float8 input)."""
    return "NULL" if x is None else repr(float(x))


@dataclass(frozen=True)
class NumericBounds:
    """Public bounds of the numeric attributes and their fixed-point encoding."""

    bounds: tuple[tuple[int, float, float], ...]  # (attribute, lower, upper), attribute order
    bits: int

    @property
    def scale(self) -> int:
        """K: the encoded value of the upper bound."""
        return 1 << self.bits

    def mid(self, lo: float, hi: float) -> float:
        return lo / 2 + hi / 2

    def half(self, lo: float, hi: float) -> float:
        return hi / 2 - lo / 2

    @staticmethod
    def _array(values: dict[int, float], length: int, typ: str = "float8") -> str:
        """A float8[] (or numeric[]) literal indexed by ``o + 1`` (slot 1 is the class count)."""
        items = ["NULL"] + [_f8(values.get(i)) for i in range(1, length + 1)]
        return "'{" + ",".join(items) + "}'::pg_catalog." + typ + "[]"

    def arrays(self, length: int) -> dict[str, str]:
        """SQL array literals lo, hi, mid, step (= K / h) and numeric lo_n, hi_n."""
        lo = {a: x for a, x, _ in self.bounds}
        hi = {a: y for a, _, y in self.bounds}
        mid = {a: self.mid(x, y) for a, x, y in self.bounds}
        step = {a: self.scale / self.half(x, y) for a, x, y in self.bounds}
        out = {k: self._array(v, length) for k, v in (("lo", lo), ("hi", hi), ("mid", mid), ("step", step))}
        out["lo_n"] = self._array(lo, length, "numeric")
        out["hi_n"] = self._array(hi, length, "numeric")
        return out

    def values_sql(self) -> str:
        """``(VALUES (attr, lo, hi, mid, half), ...)`` for post-processing."""
        rows = ", ".join(
            f"({int(a)}, {_f8(x)}::{F8}, {_f8(y)}::{F8}, {_f8(self.mid(x, y))}::{F8}, {_f8(self.half(x, y))}::{F8})"
            for a, x, y in self.bounds
        )
        return f"(VALUES {rows})"


COUNT_CAP = 1 << 50
"""Noisy counts are clamped into [0, COUNT_CAP] (post-processing), so that no noise overflows a bigint."""

INT8_MAX = (1 << 63) - 1


def dp_attrs_sql(t: Training) -> str:
    """The attribute array of row ``t`` if it is one-dimensional, else NULL (all attributes missing).

    ``array_ndims`` is NULL for an empty or NULL array and 2 or more for a
    multi-dimensional one; only a one-dimensional array is unnested by position.
    """
    return f"CASE WHEN pg_catalog.array_ndims(t.{t.attrs.sql}) OPERATOR(pg_catalog.=) 1 THEN t.{t.attrs.sql} END"


def _dp_cells_unnest(t: Training) -> str:
    """``unnest`` of the class-count cell (o = 1) followed by the attributes (o = i + 1), never failing.

    ``ARRAY[NULL] || NULL`` is ``{NULL}``; concatenating two one-dimensional
    arrays works whatever their lower bounds.
    """
    elem = t.attrs.elem_sql
    return (
        f"pg_catalog.unnest(ARRAY[NULL::{elem}] OPERATOR(pg_catalog.||) ({dp_attrs_sql(t)})) "
        "WITH ORDINALITY AS u(val, o)"
    )


def dp_stats_select(t: Training, nb: NumericBounds) -> str:
    """The one exact pass for private training: class counts, value counts, encoded sums.

    Elements beyond numAttrs are ignored and missing ones are missing values (no
    validation error: an error would disclose something about the data).  An
    array that is not one-dimensional counts as all missing (the row still counts
    for its class).  Rows with a NULL class are left out.  NaN counts as missing.
    """
    src, cls = t.source.sql, t.cls.sql
    elem = t.attrs.elem_sql
    n = t.num_attrs
    # u.o is 1 for the leading NULL (the class-count cell) and i + 1 for attribute i.
    cat = [i + 1 for i in range(1, n + 1) if i not in t.numeric]
    num = [i + 1 for i in t.numeric]
    if t.categorical_only:  # every attribute is categorical: a cheaper test than = ANY per element
        v = "CASE WHEN u.o OPERATOR(pg_catalog.>) 1 THEN u.val END"
    else:
        v = f"CASE WHEN u.o = ANY ({int_array(cat)}) THEN u.val END" if cat else f"NULL::{elem}"
    if num:
        a = nb.arrays(n)
        k = nb.scale
        oid = t.attrs.elem_oid
        if oid == 1700:  # numeric: clip in numeric first (a huge numeric does not fit a float8)
            x = f"LEAST(GREATEST(u.val, ({a['lo_n']})[u.o]), ({a['hi_n']})[u.o])::{F8}"
            present = "u.val IS NOT NULL AND u.val <> 'NaN'::pg_catalog.numeric"
        elif oid in (700, 701):
            x = f"u.val::{F8}"
            present = f"u.val IS NOT NULL AND u.val::{F8} <> 'NaN'::{F8}"
        else:  # integers
            x = f"u.val::{F8}"
            present = "u.val IS NOT NULL"
        clipped = f"LEAST(GREATEST({x}, ({a['lo']})[u.o]), ({a['hi']})[u.o])"
        z = (
            f"(CASE WHEN u.o = ANY ({int_array(num)}) AND {present} THEN "
            f"LEAST(GREATEST(pg_catalog.round(({clipped} - ({a['mid']})[u.o]) * ({a['step']})[u.o]), -{k}), {k})"
            "::pg_catalog.int8 END)"
        )
        s1, s2 = f"pg_catalog.sum({z})", f"pg_catalog.sum({z} * {z})"
    else:
        s1 = s2 = "NULL::pg_catalog.numeric"
    return (
        f"SELECT t.{cls} AS cls, (u.o - 1)::pg_catalog.int4 AS o, {v} AS v, pg_catalog.count(*) AS n, "
        f"{s1} AS s1, {s2} AS s2 "
        f"FROM {src} AS t CROSS JOIN LATERAL {_dp_cells_unnest(t)} "
        f"WHERE t.{cls} IS NOT NULL AND u.o <= {n + 1} "
        "GROUP BY 1, 2, 3"
    )


def dp_selection_select(t: Training, epsilon_per_query: float, threshold: int) -> str:
    """domain => 'private': the candidates whose count plus discrete Laplace noise reaches ``threshold``.

    One pass: per class label its row count (o = 0), per categorical attribute
    and value present the number of rows (any class) holding it.  Each of these
    1 + F_cat queries counts at most one value per row.  The noisy count is
    compared with the threshold inside the statement and never leaves it.
    Yields rows (o, cls, v) for the domain table.
    """
    src, cls = t.source.sql, t.cls.sql
    n = t.num_attrs
    cat = [i + 1 for i in range(1, n + 1) if i not in t.numeric]
    eps = f"{_f8(epsilon_per_query)}::{F8}"
    return (
        "SELECT s.o, s.cls, s.v FROM ("
        f"SELECT (u.o OPERATOR(pg_catalog.-) 1)::pg_catalog.int4 AS o, "
        f"CASE WHEN u.o OPERATOR(pg_catalog.=) 1 THEN t.{cls} END AS cls, "
        f"CASE WHEN u.o OPERATOR(pg_catalog.>) 1 THEN u.val END AS v, pg_catalog.count(*) AS n "
        f"FROM {src} AS t CROSS JOIN LATERAL {_dp_cells_unnest(t)} "
        f"WHERE t.{cls} IS NOT NULL AND (u.o OPERATOR(pg_catalog.=) 1 "
        f"OR (u.o OPERATOR(pg_catalog.=) ANY ({int_array(cat, 'int8')}) AND u.val IS NOT NULL)) "
        "GROUP BY 1, 2, 3) AS s "
        f"WHERE madnb.dp_laplace(s.n, 1, {eps}) OPERATOR(pg_catalog.>=) {int(threshold)}::pg_catalog.numeric"
    )


def dp_domain_ddl(name_sql: str, t: Training) -> str:
    """The public domain: (0, class, NULL) per class label, (i, NULL, value) per categorical value."""
    return (
        f"CREATE TEMPORARY TABLE {name_sql} (o pg_catalog.int4 NOT NULL, cls {t.cls.type_sql}, "
        f"v {t.attrs.elem_sql}) ON COMMIT DROP"
    )


def dp_noisy_ddl(name_sql: str, t: Training) -> str:
    """Noisy statistics, one row per released cell (nothing exact is ever stored)."""
    return (
        f"CREATE TEMPORARY TABLE {name_sql} (cls {t.cls.type_sql}, o pg_catalog.int4, v {t.attrs.elem_sql}, "
        "n pg_catalog.numeric, s1 pg_catalog.numeric, s2 pg_catalog.numeric) ON COMMIT DROP"
    )


def dp_release_select(t: Training, nb: NumericBounds, dom: str, epsilon_per_query: float) -> str:
    """Every cell of the public domain with discrete Laplace noise, in one statement.

    Cells: (class) for the class counts, (class, attribute, value) for each
    categorical value of the domain, (class, attribute) for each numeric
    attribute.  The exact statistics of :func:`dp_stats_select` are joined to
    the cells (an empty cell gets 0; a hash join, linear in the domain) and each
    released number gets its noise exactly once, here; ``madnb.dp_laplace`` is VOLATILE, so the planner neither
    folds nor repeats it.
    """
    elem = t.attrs.elem_sql
    eps = f"{_f8(epsilon_per_query)}::{F8}"
    k = nb.scale
    num = int_array(t.numeric)
    cells = (
        f"SELECT c.cls, 0::pg_catalog.int4 AS o, NULL::{elem} AS v FROM {dom} AS c WHERE c.o = 0 "
        f"UNION ALL SELECT c.cls, a.o, a.v FROM {dom} AS c JOIN {dom} AS a ON a.o > 0 WHERE c.o = 0"
    )
    if t.numeric:
        cells += (
            f" UNION ALL SELECT c.cls, g.o, NULL::{elem} FROM {dom} AS c "
            f"CROSS JOIN pg_catalog.unnest({num}) AS g(o) WHERE c.o = 0"
        )
    isnum = f"x.o = ANY ({num})"
    return (
        f"SELECT x.cls, x.o, x.v, "
        f"CASE WHEN {isnum} THEN NULL ELSE madnb.dp_laplace(COALESCE(e.n, 0), 1, {eps}) END AS n, "
        f"CASE WHEN {isnum} THEN madnb.dp_laplace(COALESCE(e.s1, 0), {k}, {eps}) END AS s1, "
        f"CASE WHEN {isnum} THEN madnb.dp_laplace(COALESCE(e.s2, 0), {k * k}, {eps}) END AS s2 "
        f"FROM ({cells}) AS x LEFT JOIN ({dp_stats_select(t, nb)}) AS e "
        # ARRAY[v] = ARRAY[v] is true for two NULLs (the class and numeric cells) and hashable,
        # so the cells join the statistics by hash: linear in the domain (IS NOT DISTINCT FROM is not)
        # (both cast to the element type: a CASE over a domain yields its base type)
        f"ON e.cls = x.cls AND e.o = x.o AND ARRAY[e.v::{elem}] OPERATOR(pg_catalog.=) ARRAY[x.v::{elem}]"
    )


def dp_model_ctes(noisy: str, t: Training, nb: NumericBounds, epsilon_per_query: float) -> list[tuple[str, str]]:
    """Post-processing of the noisy cells into MADlib's tables (no data is read here).

    ``noisy`` holds every released cell of the public domain (summed over the
    parts of a merge, never clamped before): (cls, o, v, n, s1, s2) with o = 0
    for the class counts.  ``epsilon_per_query`` is the epsilon' of the variance
    floor: for a merge, the epsilon' whose noise variance is the parts' summed
    noise variance (:func:`madnb_pl.derive.effective_epsilon`).

    * class counts clamped into [0, COUNT_CAP] (all 1 if every one is 0, so that
      priors exist); all_cnt is their sum;
    * value counts clamped into [0, COUNT_CAP]; attr_cnt is the size of the
      attribute's domain (its distinct released values);
    * Gaussian parameters from the noisy sums over the noisy class count: the
      mean clamped into the bounds, the variance into [floor, h**2] with floor
      = min(h**2, sqrt(2) h**2 / (epsilon' n)), one standard deviation of the
      noise on the second moment; a class with count 0 gets (m, h**2).

    Nothing here can fail, whatever the noise: the noisy numerics are clamped
    (in numeric) before any float8 arithmetic, the sums to +-2 n K and +-2 n K**2,
    which changes no result (beyond +-n K the mean and variance are clamped
    anyway), and the validated ranges of h and epsilon' (``dp.HALF_WIDTH_*``,
    ``dp.EPSILON_PER_QUERY_*``) keep every float8 product and quotient normal.
    """
    k = float(nb.scale)
    eps = f"{_f8(epsilon_per_query)}::{F8}"
    cap = f"{COUNT_CAP}::pg_catalog.numeric"
    ctes = [
        ("cc0", f"SELECT x.cls, LEAST(GREATEST(x.n, 0), {cap}) AS c FROM {noisy} AS x WHERE x.o = 0"),
        (
            "cc",
            "SELECT cc0.cls, (CASE WHEN pg_catalog.sum(cc0.c) OVER () > 0 THEN cc0.c ELSE 1 END)::pg_catalog.int8 AS class_cnt "
            "FROM cc0",
        ),
        (
            "cp",
            "SELECT cc.cls AS class, cc.class_cnt, "
            f"LEAST(pg_catalog.sum(cc.class_cnt) OVER (), {INT8_MAX})::pg_catalog.int8 AS all_cnt FROM cc",
        ),
        # every cell of the domain is released, for every class: the attribute's domain
        # size is the number of distinct values among its released cells
        (
            "ac",
            f"SELECT d.o, pg_catalog.count(DISTINCT d.v)::pg_catalog.int8 AS attr_cnt FROM {noisy} AS d "
            "WHERE d.o > 0 AND d.v IS NOT NULL GROUP BY d.o",
        ),
        (
            "fp",
            f"SELECT x.cls AS class, x.o AS attr, x.v AS value, LEAST(GREATEST(x.n, 0), {cap})::pg_catalog.int8 AS cnt, ac.attr_cnt "
            f"FROM {noisy} AS x JOIN ac ON ac.o = x.o WHERE x.o > 0 AND x.v IS NOT NULL",
        ),
    ]
    if t.numeric:
        big1 = f"({2 * nb.scale}::pg_catalog.numeric * GREATEST(cc.class_cnt, 1))"
        big2 = f"({2 * nb.scale * nb.scale}::pg_catalog.numeric * GREATEST(cc.class_cnt, 1))"
        ctes += [
            (
                "nm",
                "SELECT x.cls, x.o, cc.class_cnt, b.lo, b.hi, b.mid, b.half, "
                f"GREATEST(cc.class_cnt, 1)::{F8} AS nn, "
                f"LEAST(GREATEST(x.s1, -{big1}), {big1})::{F8} / {k!r} AS m1, "
                f"LEAST(GREATEST(x.s2, -{big2}), {big2})::{F8} / {k * k!r} AS m2 "
                f"FROM {noisy} AS x JOIN cc ON cc.cls = x.cls "
                f"JOIN {nb.values_sql()} AS b(o, lo, hi, mid, half) ON b.o = x.o",
            ),
            (
                "nm2",
                "SELECT nm.*, CASE WHEN nm.class_cnt = 0 THEN nm.mid "
                "ELSE LEAST(GREATEST(nm.mid + nm.half * nm.m1 / nm.nn, nm.lo), nm.hi) END AS mean, "
                f"LEAST(nm.half * nm.half, pg_catalog.sqrt(2::{F8}) * nm.half * nm.half / ({eps} * nm.nn)) AS floor "
                "FROM nm",
            ),
            (
                "np",
                "SELECT nm2.cls AS class, nm2.o AS attr, nm2.mean AS attr_mean, "
                "CASE WHEN nm2.class_cnt = 0 THEN nm2.half * nm2.half ELSE "
                "LEAST(GREATEST(nm2.half * nm2.half * nm2.m2 / nm2.nn - (nm2.mean - nm2.mid) * (nm2.mean - nm2.mid), "
                "nm2.floor), nm2.half * nm2.half) END AS attr_var, nm2.class_cnt AS value_cnt FROM nm2",
            ),
        ]
    return ctes


__all__ = [
    "NumericBounds",
    "Training",
    "check_attr_column",
    "check_stats",
    "dp_domain_ddl",
    "dp_model_ctes",
    "dp_noisy_ddl",
    "dp_attrs_sql",
    "dp_release_select",
    "dp_selection_select",
    "dp_stats_select",
    "int_array",
    "materialise",
    "model_ctes",
    "parse_num_attrs",
    "parse_numeric_indices",
    "quote_ident",
    "stats_select",
    "with_clause",
]
