"""The scoring plan: how a view looks values up and which form it takes, chosen in one place.

:func:`choose_plan` reads what it needs from the catalog and the model (or the
ad hoc view's model CTEs) and returns a :class:`ScoringPlan`; the builders of
:mod:`madnb_pl.scoring` only read the plan.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..core.names import Relation
from ..core.sql import Plpy, Sql, quote_ident
from .common import DICT_TYPES, INTEGER_TYPES, INTEGRAL_CHECK_TYPES, MAX_CLASSES, MAX_CODE_SLOTS, TEXT_TYPES, UNROLL_MAX_ATTRS, UNROLL_MAX_TERMS


@dataclass(frozen=True)
class ScoringPlan:
    """Everything about a view's SQL that is chosen when the view is created.

    ``strategy``: how categorical values are looked up (``codes``: integer codes
    into per-class tables; ``dict``: jsonb dictionaries of ranks; ``join``: a join
    to the feature probabilities; ``none``: no categorical values).  ``unroll``:
    the parallel form rather than the per-row LATERAL one (see :func:`unroll_ok`).
    ``rectangle``: integer codes whose attributes share one value range (see
    :func:`code_layout`).  ``k`` classes and ``num_attrs`` attributes, the
    Gaussian ones ``numeric_attrs``; ``value_type_oid`` / ``source_elem_oid``:
    the element types of the training values and of the classify source's
    array; ``smoothing``: a number or an SQL expression over the feature table's
    row ``f``; ``check_numeric``: an unrolled view re-checks its Gaussian
    attributes on every query (a view over prepared tables); ``var_floor``: the
    variances are floored (MADlib's models, see :mod:`madnb_pl.scoring`), or
    used as they are (kind 'gaussian', whose variances hold scikit-learn's
    epsilon already).  ``class_rows``: more than MAX_CLASSES classes, scored with the
    classes as rows (:mod:`madnb_pl.scoring.class_rows`; integer codes in one table of slots, never a rectangle).
    """

    strategy: str
    unroll: bool
    rectangle: bool
    k: int
    num_attrs: int
    numeric_attrs: tuple[int, ...]
    value_type_oid: int | None
    source_elem_oid: int | None
    smoothing: float | str = 1.0
    check_numeric: bool = True
    var_floor: bool = True
    class_rows: bool = False


def choose_plan(
    plpy: Plpy,
    *,
    fp_sql: str,
    value_type_oid: int | None,
    has_cat: bool,
    num_attrs: int,
    k: int,
    source_elem_oid: int | None,
    collated: tuple[tuple[Relation, Any], ...],
    np_sql: str | None = None,
    numeric_attrs: tuple[int, ...] | list[int] = (),
    fp_oid: int | None = None,
    check_numeric: bool = True,
    prefix: str = "",
) -> ScoringPlan:
    """The plan of a view: its lookup strategy, its form and its shape, read from the catalog.

    Values of types with a canonical text form (text and varchar under
    deterministic collations, booleans, dates, timestamps, uuids, numeric) use
    jsonb dictionaries when they fit, provided every (relation, column) of
    ``collated`` (the training values and the classify source's array) compares
    under a deterministic collation; other non-integer values a join in the
    LATERAL form.  ``fp_sql`` is the feature table (or the name of the ad hoc
    view's CTE, with ``prefix`` its WITH clause).  The Gaussian attributes are
    read from ``np_sql`` when given, else they are ``numeric_attrs``; the
    smoothing factor from the feature table ``fp_oid`` when given (see
    :func:`smoothing_sql`), else 1.
    """
    n = int(num_attrs)
    class_rows = k > MAX_CLASSES  # one column per class would not fit a select list
    det = deterministic(plpy, *collated)
    strategy, rectangle = _strategy(plpy, fp_sql, value_type_oid, has_cat, n, k, prefix, source_elem_oid, det)
    if class_rows:  # one table of slots for every class (not one value range): at most MAX_CODE_SLOTS cells
        rectangle = False
        if strategy == "codes" and not _code_slots_fit(plpy, fp_sql, k, prefix):
            strategy = "join"
    if np_sql is not None:
        numeric_attrs = [int(r["attr"]) for r in plpy.execute(Sql(f"SELECT DISTINCT x.attr FROM {np_sql} AS x WHERE x.attr IS NOT NULL"))]
    return ScoringPlan(
        strategy=strategy,
        unroll=not class_rows and unroll_ok(strategy, rectangle, n, k),
        rectangle=rectangle,
        k=k,
        num_attrs=n,
        numeric_attrs=tuple(numeric_attrs),
        value_type_oid=value_type_oid,
        source_elem_oid=source_elem_oid,
        smoothing=1.0 if fp_oid is None else smoothing_sql(plpy, fp_oid),
        check_numeric=check_numeric,
        class_rows=class_rows,
    )


def _strategy(
    plpy: Plpy, fp_sql: str, value_type_oid: int | None, has_cat: bool, n: int, k: int, prefix: str,
    source_elem_oid: int | None, deterministic: bool,
) -> tuple[str, bool]:
    """The lookup strategy and whether integer codes share one value range."""
    if not has_cat:
        return "none", False
    codes, rectangle = code_layout(plpy, fp_sql, value_type_oid, n, k, prefix)
    if codes:
        return "codes", rectangle
    same_type = source_elem_oid == value_type_oid or {source_elem_oid, value_type_oid} <= TEXT_TYPES
    if value_type_oid in DICT_TYPES and same_type and deterministic and dict_layout_ok(plpy, fp_sql, n, k, prefix):
        return "dict", False
    return "join", False


def _code_slots_fit(plpy: Plpy, fp: str, n_classes: int, prefix: str = "") -> bool:
    """Whether the codes strategy's one table of slots (every attribute's value range) fits MAX_CODE_SLOTS for every class."""
    num = "pg_catalog.numeric"
    row = plpy.execute(
        Sql(f"{prefix}SELECT COALESCE(pg_catalog.sum(r.span), 0) * {int(n_classes)} <= {MAX_CODE_SLOTS} AS fits FROM ("
        f"SELECT pg_catalog.max(f.value)::{num} - pg_catalog.min(f.value)::{num} + 1 AS span FROM {fp} AS f GROUP BY f.attr) AS r")
    )[0]
    return bool(row["fits"])


def smoothing_sql(plpy: Plpy, fp_oid: int) -> float | str:
    """The smoothing factor as the view reads it: the feature table's ``smoothing`` column, live.

    Feature tables made before madnb recorded smoothing (or by MADlib) have no
    such column: they were trained for s = 1.
    """
    rows = plpy.execute(
        plpy.prepare(
            Sql("SELECT 1 FROM pg_catalog.pg_attribute WHERE attrelid = $1 AND attname = 'smoothing' "
            "AND attnum > 0 AND NOT attisdropped"),
            ["oid"],
        ),
        [fp_oid],
    )
    if not rows:
        return 1.0
    return f"COALESCE(f.{quote_ident('smoothing')}::pg_catalog.float8, 1::pg_catalog.float8)"


def deterministic(plpy: Plpy, *columns: tuple[Relation, Any]) -> bool:
    """Whether every given (relation, column) compares text under a deterministic collation."""
    for rel, col in columns:
        rows = plpy.execute(
            plpy.prepare(
                Sql("SELECT COALESCE(c.collisdeterministic, true) AS det FROM pg_catalog.pg_attribute AS a "
                "LEFT JOIN pg_catalog.pg_collation AS c ON c.oid = a.attcollation "
                "WHERE a.attrelid = $1 AND a.attname = $2"),
                ["oid", "name"],
            ),
            [rel.oid, col.name],
        )
        if not rows or not rows[0]["det"]:
            return False
    return True


def code_layout(plpy: Plpy, fp: str, value_type_oid: int | None, num_attrs: int, n_classes: int, prefix: str = "") -> tuple[bool, bool]:
    """Which integer-code layouts fit the feature table as it is now: (codes, rectangle).

    ``codes``: each attribute's values occupy a dense slot range of one table
    (the LATERAL form).  ``rectangle``: one value range [lo, hi] for every
    attribute, so that the unrolled form looks value v of attribute j up as
    ``lut_k[j][v - lo + 1]``; used when that rectangle is not much larger than
    the feature table.  Both need whole values within the int4 range (the
    arithmetic is done in numeric here, so huge or infinite values just rule
    the layouts out).
    """
    if value_type_oid not in INTEGER_TYPES | INTEGRAL_CHECK_TYPES:
        return False, False
    whole = "true" if value_type_oid in INTEGER_TYPES else "pg_catalog.bool_and(f.value = pg_catalog.trunc(f.value))"
    num = "pg_catalog.numeric"
    row = plpy.execute(
        Sql(f"{prefix}SELECT COALESCE(q.whole AND q.lo >= -2147483647 AND q.hi <= 2147483646 "
        f"AND q.slots <= 4 * q.n + 1024 AND q.slots <= {MAX_CODE_SLOTS}, false) AS codes, "
        f"COALESCE(q.whole AND q.lo >= -2147483647 AND q.hi <= 2147483646 "
        f"AND q.width * {int(num_attrs)} <= 4 * q.n + 4096 "
        f"AND q.width * {int(num_attrs) * int(n_classes)} <= {MAX_CODE_SLOTS}, false) AS rectangle FROM ("
        "SELECT pg_catalog.sum(r.span) AS slots, pg_catalog.sum(r.n) AS n, pg_catalog.bool_and(r.whole) AS whole, "
        "pg_catalog.min(r.lo) AS lo, pg_catalog.max(r.hi) AS hi, pg_catalog.max(r.hi) - pg_catalog.min(r.lo) + 1 AS width FROM ("
        f"SELECT pg_catalog.min(f.value)::{num} AS lo, pg_catalog.max(f.value)::{num} AS hi, "
        f"pg_catalog.max(f.value)::{num} - pg_catalog.min(f.value)::{num} + 1 AS span, pg_catalog.count(*) AS n, "
        f"{whole} AS whole FROM {fp} AS f GROUP BY f.attr) AS r) AS q")
    )[0]
    return bool(row["codes"]), bool(row["codes"] and row["rectangle"])


def dict_layout_ok(plpy: Plpy, fp: str, num_attrs: int, n_classes: int, prefix: str = "") -> bool:
    """Whether text values fit the unrolled form's dictionaries: a [attribute][rank] table per class.

    Each attribute's values get ranks 1..W_a; the table is num_attrs x max W_a.
    """
    row = plpy.execute(
        Sql(f"{prefix}SELECT pg_catalog.max(r.w) AS width, COALESCE(pg_catalog.sum(r.w), 0) AS pairs FROM ("
        f"SELECT pg_catalog.count(DISTINCT f.value) AS w FROM {fp} AS f GROUP BY f.attr) AS r")
    )[0]
    if row["width"] is None:
        return False
    cells = int(row["width"]) * int(num_attrs)
    return cells <= 4 * int(row["pairs"]) + 4096 and cells * int(n_classes) <= MAX_CODE_SLOTS


def unroll_ok(strategy: str, rectangle: bool, num_attrs: int, n_classes: int) -> bool:
    """Whether a view uses the unrolled (parallel) form rather than the LATERAL one."""
    if strategy == "join" or (strategy == "codes" and not rectangle):
        return False
    return num_attrs <= UNROLL_MAX_ATTRS and num_attrs * n_classes <= UNROLL_MAX_TERMS
