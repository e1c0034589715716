"""The one-row model of a view: subqueries over the model tables (or an ad hoc view's CTEs).

Each builder returns one-row subqueries that the scored forms cross join (or
read through scalar subqueries) as ``m0``, ``m1``, ...; :func:`model_parts`
puts together the ones a :class:`~madnb_pl.scoring.plan.ScoringPlan` needs and
the checks of the model's shape that make up the ``ready`` column.
"""

from __future__ import annotations

from collections.abc import Callable

from ..inputs.arrays import MAX_SMOOTHING
from .common import F8, GAUSS_CLIP_SDS, INTEGER_TYPES, MAX_CODE_SLOTS, VAR_FLOOR_FACTOR, dict_key, ln_or_minus_infinity
from .plan import ScoringPlan

Share = Callable[[str, str], str]
"""How a model builder reads a relation it needs more than once: ``share(name, select)`` gives the relation to
select from, the parenthesised ``select`` itself (:func:`inline`) or a common table expression ``name`` of it
(:func:`as_ctes`)."""


def inline(name: str, select: str) -> str:
    """The relation as a sub-select, repeated where it is read: a view over model tables, whose model every
    parallel worker builds for itself (a common table expression would keep the scoring in the leader)."""
    return select


def as_ctes(ctes: list[tuple[str, str]]) -> Share:
    """Each relation as a common table expression appended to ``ctes``: an ad hoc view, whose model the leader
    builds once from its CTEs anyway; PostgreSQL then plans, runs and JIT-compiles each relation once, not once per
    place that reads it."""

    def share(name: str, select: str) -> str:
        known = dict(ctes)
        if name not in known:
            ctes.append((name, select[1:-1]))
        elif known[name] != select[1:-1]:  # pragma: no cover
            raise ValueError(f"two relations named {name}")
        return name

    return share


def _cls(cp: str) -> str:
    """Classes with their position 1..K (in class order).

    Positions come from unnest ... WITH ORDINALITY over one aggregate rather than
    row_number(): a window function would make the model parallel-unsafe.
    """
    return (
        "(SELECT u.class, u.class_cnt, u.all_cnt, u.pos::pg_catalog.int4 AS pos FROM ("
        "SELECT pg_catalog.array_agg(m.class ORDER BY m.class) AS c, pg_catalog.array_agg(m.class_cnt ORDER BY m.class) AS n, "
        f"pg_catalog.array_agg(m.all_cnt ORDER BY m.class) AS a FROM {cp} AS m) AS s "
        "CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(s.c), pg_catalog.unnest(s.n), pg_catalog.unnest(s.a)) "
        "WITH ORDINALITY AS u(class, class_cnt, all_cnt, pos))"
    )


def value_log_probs(cp: str, fp: str, smoothing: float | str, share: Share = inline) -> str:
    """One row per (class, attr, value) of the feature table with its log-probability.

    ``smoothing`` is a number, or an SQL expression over the feature table's row
    ``f`` (e.g. its ``smoothing`` column, read live).  A smoothing factor above
    MAX_SMOOTHING (only possible by editing the table) is computed as
    (cnt / s + 1) / (n / s + attr_cnt), which cannot overflow.
    """
    s = f"({smoothing})" if isinstance(smoothing, str) else f"{float(smoothing)!r}::{F8}"
    usual = f"{ln_or_minus_infinity(f'f.cnt + {s}')} - {ln_or_minus_infinity(f'n.cnt + {s} * f.attr_cnt')}"
    scaled = f"{ln_or_minus_infinity(f'f.cnt / {s} + 1')} - {ln_or_minus_infinity(f'n.cnt / {s} + f.attr_cnt')}"
    return (
        "(SELECT f.attr, f.value, c.pos, "
        f"CASE WHEN {s} <= {MAX_SMOOTHING!r}::{F8} THEN {usual} ELSE {scaled} END AS lp "
        f"FROM {fp} AS f JOIN {share('cls', _cls(cp))} AS c ON c.class = f.class "
        # n_{c,a} by a grouped join, not a window function (which would make the model parallel-unsafe)
        f"JOIN (SELECT g.class, g.attr, pg_catalog.sum(g.cnt) AS cnt FROM {fp} AS g GROUP BY g.class, g.attr) AS n "
        "ON n.class = f.class AND n.attr = f.attr)"
    )



def _slot_rows(cp: str, n: int, n_classes: int, slotted: str, width: str, flat: bool = False, share: Share = inline) -> str:
    """Rows (pos, arr): class ``pos``'s log-probability table ``arr[attr][slot]`` of the
    unrolled and dictionary forms (0 where a slot holds no training value).

    ``slotted`` has rows (attr, pos, slot, lp) with slots 1..w; ``width`` is a
    one-row subquery with column ``w``.  ``flat``: one-dimensional tables,
    ``arr[(attr - 1) * w + slot]`` (the LATERAL form computes that index once
    per value; a two-dimensional subscript per class costs more).
    """
    rows = "r.arr ORDER BY r.a" if not flat else "e.lp ORDER BY r.a, e.s"
    unnest = "" if not flat else " CROSS JOIN LATERAL pg_catalog.unnest(r.arr) WITH ORDINALITY AS e(lp, s)"
    return (
        f"(SELECT r.pos, pg_catalog.array_agg({rows}) AS arr FROM ("
        f"SELECT c.pos, g.a, pg_catalog.array_agg(COALESCE(x.lp, 0::{F8}) ORDER BY s.s) AS arr "
        f"FROM {share('cls', _cls(cp))} AS c CROSS JOIN pg_catalog.generate_series(1, {n}) AS g(a) CROSS JOIN {width} AS b "
        # slots 1..w as the ordinality of an unnest: PostgreSQL estimates an array it cannot see at 10 elements
        # (generate_series of a column at 1,000), so the plan is costed at classes x attrs x 10 rows, not x 1,000
        "CROSS JOIN LATERAL pg_catalog.unnest(pg_catalog.array_fill(0, ARRAY[b.w::pg_catalog.int4])) WITH ORDINALITY AS s(z, s) "
        f"LEFT JOIN {slotted} AS x ON x.pos = c.pos AND x.attr = g.a AND x.slot = s.s "
        f"WHERE madnb._check_code_slots(b.w::pg_catalog.int8 * {n * n_classes}, {MAX_CODE_SLOTS}) > 0 "
        f"GROUP BY c.pos, g.a) AS r{unnest} GROUP BY r.pos)"
    )


def _slot_tables(
    cp: str, n: int, n_classes: int, slotted: str, width: str, flat: bool = False, per_class: bool = False, share: Share = inline,
) -> str:
    """One row: per class k, ``lut{k}``, class k's table of :func:`_slot_rows`; ``per_class``: those rows themselves."""
    rows = _slot_rows(cp, n, n_classes, slotted, width, flat, share)
    if per_class:
        return rows
    cols = ", ".join(f"pg_catalog.max(q.arr) FILTER (WHERE q.pos = {k}) AS lut{k}" for k in range(1, n_classes + 1))
    return f"(SELECT {cols} FROM {rows} AS q)"


def _rect_model(cp: str, fp: str, n: int, n_classes: int, smoothing: float | str, flat: bool = False, share: Share = inline) -> list[str]:
    """One-row subqueries for the codes form over one value range: lut{k}[attr][v - lo0],
    lo0, hi1 and the width w = hi1 - lo0 - 1 (``flat``: lut{k}[(attr - 1) * w + v - lo0])."""
    rect = share("rect", (
        "(SELECT pg_catalog.min(f.value)::pg_catalog.int8 - 1 AS lo0, pg_catalog.max(f.value)::pg_catalog.int8 + 1 AS hi1, "
        "pg_catalog.max(f.value)::pg_catalog.int8 - pg_catalog.min(f.value)::pg_catalog.int8 + 1 AS w "
        f"FROM {fp} AS f)"
    ))
    slotted = (
        "(SELECT x.attr, x.pos, (x.value::pg_catalog.int8 - b.lo0)::pg_catalog.int4 AS slot, x.lp "
        f"FROM {value_log_probs(cp, fp, smoothing, share)} AS x CROSS JOIN {rect} AS b)"
    )
    width = f"(SELECT b.hi1 - b.lo0 - 1 AS w FROM {rect} AS b)"
    return [_slot_tables(cp, n, n_classes, slotted, width, flat, share=share), rect]


def _ranks(fp: str) -> str:
    """Each attribute's distinct training values with ranks 1..W_a."""
    return (
        "(SELECT d.attr, u.value, u.rank::pg_catalog.int4 AS rank FROM ("
        f"SELECT f.attr, pg_catalog.array_agg(DISTINCT f.value) AS vals FROM {fp} AS f GROUP BY f.attr) AS d "
        "CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(d.vals)) WITH ORDINALITY AS u(value, rank))"
    )


def _dict_model(
    cp: str, fp: str, n: int, n_classes: int, smoothing: float | str, cat_attrs: list[int] | None, value_type_oid: int | None,
    per_class: bool = False, share: Share = inline,
) -> list[str]:
    """One-row subqueries for values looked up by their text form.

    ``lut{k}[a][rank]``: log-probabilities per class.  Dictionaries from training
    values to ranks 1..W_a (a jsonb key lookup is a binary search on the bytes: the
    equality of these types, see DICT_TYPES): for the unrolled form one column
    ``js{a}`` per attribute in ``cat_attrs``; for the LATERAL form (``cat_attrs``
    None) one object ``jsall`` keyed by attribute number.
    """
    ranks = share("ranks", _ranks(fp))
    key = dict_key("r.value", value_type_oid)
    if cat_attrs is None:
        dicts: str | None = (
            "(SELECT pg_catalog.jsonb_object_agg(d.attr::pg_catalog.text, d.js) AS jsall FROM ("
            f"SELECT r.attr, pg_catalog.jsonb_object_agg({key}, r.rank) AS js FROM {ranks} AS r GROUP BY r.attr) AS d)"
        )
    elif cat_attrs:
        cols = ", ".join(f"pg_catalog.jsonb_object_agg({key}, r.rank) FILTER (WHERE r.attr = {a}) AS js{a}" for a in cat_attrs)
        dicts = f"(SELECT {cols} FROM {ranks} AS r)"
    else:
        dicts = None
    slotted = (
        f"(SELECT c.attr, c.pos, r.rank AS slot, c.lp FROM {value_log_probs(cp, fp, smoothing, share)} AS c "
        f"JOIN {ranks} AS r ON r.attr = c.attr AND r.value = c.value)"
    )
    width = f"(SELECT pg_catalog.max(r.rank) AS w FROM {ranks} AS r)"
    return [_slot_tables(cp, n, n_classes, slotted, width, per_class=per_class, share=share)] + ([dicts] if dicts else [])


def _code_model(cp: str, fp: str, n: int, smoothing: float | str, share: Share = inline) -> list[str]:
    """One-row subqueries of the model for the ``codes`` strategy (joined, not scalar subqueries)."""
    value_lps = share("value_lps", value_log_probs(cp, fp, smoothing, share))
    rng = (
        "(SELECT c.attr, pg_catalog.min(c.value)::pg_catalog.int8 AS lo, pg_catalog.max(c.value)::pg_catalog.int8 AS hi "
        f"FROM {value_lps} AS c GROUP BY c.attr)"
    )
    offs = (
        "(SELECT r.attr, r.lo, r.hi, (pg_catalog.sum(r.hi - r.lo + 1) OVER (ORDER BY r.attr) - (r.hi - r.lo + 1))::pg_catalog.int8 AS base "
        f"FROM {rng} AS r)"
    )
    total = f"(SELECT COALESCE(pg_catalog.sum(r.hi - r.lo + 1), 0)::pg_catalog.int8 + 1 AS total FROM {rng} AS r)"
    slots = (
        "(SELECT c.pos, (o.base + (c.value::pg_catalog.int8 - o.lo) + 2)::pg_catalog.int4 AS slot, c.lp "
        f"FROM {value_lps} AS c JOIN {offs} AS o ON o.attr = c.attr)"
    )
    lut = (
        "(SELECT pg_catalog.array_agg(q.arr ORDER BY q.pos) AS lut FROM ("
        f"SELECT c.pos, pg_catalog.array_agg(COALESCE(sl.lp, 0::{F8}) ORDER BY g.slot) AS arr "
        f"FROM {share('cls', _cls(cp))} AS c CROSS JOIN {total} AS t "
        f"CROSS JOIN LATERAL pg_catalog.generate_series(1, madnb._check_code_slots(t.total, {MAX_CODE_SLOTS})) AS g(slot) "
        "LEFT JOIN " + slots + " AS sl ON sl.pos = c.pos AND sl.slot = g.slot GROUP BY c.pos) AS q)"
    )
    ranges = (
        "(SELECT pg_catalog.array_agg(COALESCE(o.lo, 1) ORDER BY g.a) AS lo, "
        "pg_catalog.array_agg(COALESCE(o.hi, 0) ORDER BY g.a) AS hi, "
        "pg_catalog.array_agg(COALESCE(o.base, 0) ORDER BY g.a) AS base "
        f"FROM pg_catalog.generate_series(1, {n}) AS g(a) LEFT JOIN {offs} AS o ON o.attr = g.a)"
    )
    return [lut, ranges]


def _numeric_model(
    cp: str, numeric_stats: str, n: int, n_classes: int, floor: bool = True, per_class: bool = False, share: Share = inline,
) -> list[str]:
    """One-row subqueries for Gaussian attributes: arrays [class][attribute].

    ``floor``: each variance is at least VAR_FLOOR_FACTOR times its attribute's
    variance over all classes; otherwise the table's variance is used as it is.
    ``per_class``: the first part is rows (pos, mu, r, a) instead of one row of
    columns mu{k}, r{k}, a{k}.
    """
    numb = share("numb", (
        "(SELECT x.attr, c.pos, x.attr_mean AS mu, x.attr_var AS var, x.value_cnt AS cnt "
        f"FROM {numeric_stats} AS x JOIN {share('cls', _cls(cp))} AS c ON c.class = x.class WHERE x.value_cnt > 0)"
    ))
    numg = (
        "(SELECT b.attr, pg_catalog.sum(b.cnt * b.mu) / pg_catalog.sum(b.cnt) AS gm, pg_catalog.sum(b.cnt) AS tot "
        f"FROM {numb} AS b GROUP BY b.attr)"
    )
    numf = (
        "(SELECT b.attr, pg_catalog.sum(GREATEST(b.cnt - 1, 0) * COALESCE(b.var, 0) + b.cnt * (b.mu - g.gm) * (b.mu - g.gm)) / g.tot AS total_var "
        f"FROM {numb} AS b JOIN {numg} AS g ON g.attr = b.attr GROUP BY b.attr, g.tot)"
    )
    numw = share("numw", (
        "(SELECT b.attr, b.pos, b.mu, GREATEST(COALESCE(b.var, 0), "
        f"CASE WHEN f.total_var > 0 THEN {VAR_FLOOR_FACTOR!r} * f.total_var ELSE 1 END) AS w "
        f"FROM {numb} AS b JOIN {numf} AS f ON f.attr = b.attr)"
    ) if floor else f"(SELECT b.attr, b.pos, b.mu, b.var AS w FROM {numb} AS b)")
    # the clipping window of each attribute (see GAUSS_CLIP_SDS)
    numr = (
        f"(SELECT w.attr, pg_catalog.min(w.mu) - {GAUSS_CLIP_SDS!r} * pg_catalog.sqrt(pg_catalog.min(w.w)) AS lo, "
        f"pg_catalog.max(w.mu) + {GAUSS_CLIP_SDS!r} * pg_catalog.sqrt(pg_catalog.min(w.w)) AS hi "
        f"FROM {numw} AS w GROUP BY w.attr)"
    )
    # one array per class, indexed by attribute; 0 where a class has no value of the
    # attribute (the term then adds 0).  A term is a - (r * (x - mu))^2 with
    # a = -ln(2 pi w) / 2 and r = sqrt(1 / (2 w)): r * (x - mu) stays finite where
    # (x - mu)^2 alone would not.
    rows = (
        f"(SELECT c.pos, pg_catalog.array_agg(COALESCE(w.mu, 0::{F8}) ORDER BY g.a) AS mu, "
        f"pg_catalog.array_agg(COALESCE(pg_catalog.sqrt(0.5 / w.w), 0::{F8}) ORDER BY g.a) AS r, "
        f"pg_catalog.array_agg(COALESCE(-0.5 * pg_catalog.ln(2 * pg_catalog.pi() * w.w), 0::{F8}) ORDER BY g.a) AS a "
        f"FROM {share('cls', _cls(cp))} AS c CROSS JOIN pg_catalog.generate_series(1, {n}) AS g(a) "
        f"LEFT JOIN {numw} AS w ON w.pos = c.pos AND w.attr = g.a GROUP BY c.pos)"
    )
    cols = ", ".join(
        f"pg_catalog.max(q.mu) FILTER (WHERE q.pos = {k}) AS mu{k}, pg_catalog.max(q.r) FILTER (WHERE q.pos = {k}) AS r{k}, "
        f"pg_catalog.max(q.a) FILTER (WHERE q.pos = {k}) AS a{k}"
        for k in range(1, n_classes + 1)
    )
    grids = rows if per_class else f"(SELECT {cols} FROM {rows} AS q)"
    window = (
        f"(SELECT pg_catalog.array_agg(COALESCE(b.lo, 0::{F8}) ORDER BY g.a) AS nlo, "
        f"pg_catalog.array_agg(COALESCE(b.hi, 0::{F8}) ORDER BY g.a) AS nhi "
        f"FROM pg_catalog.generate_series(1, {n}) AS g(a) LEFT JOIN {numr} AS b ON b.attr = g.a)"
    )
    isnum = (
        "(SELECT pg_catalog.array_agg(x.attr IS NOT NULL ORDER BY g.a) AS isnum "
        f"FROM pg_catalog.generate_series(1, {n}) AS g(a) LEFT JOIN (SELECT DISTINCT y.attr FROM {numeric_stats} AS y) AS x ON x.attr = g.a)"
    )
    return [grids, window, isnum]



def model_parts(
    plan: ScoringPlan, cp: str, fp: str, numeric_stats: str | None, per_class: bool = False, share: Share = inline,
) -> tuple[list[str], list[str]]:
    """The one-row model subqueries a plan needs (``m0``, ``m1``, ... in this order) and
    the checks of the model's shape that make up its ``ready`` column.

    ``per_class`` (the dictionary strategy and the Gaussian attributes only): the per-class
    tables are rows, one per class -- (pos, arr) and (pos, mu, r, a) -- instead of one row
    with a column per class (a select list holds at most 1664 columns: any number of classes).
    """
    k = plan.k
    n = plan.num_attrs
    smoothing = plan.smoothing
    parts = [
        "(SELECT pg_catalog.array_agg(c.class ORDER BY c.pos) AS classes, "
        f"pg_catalog.array_agg({ln_or_minus_infinity(f'c.class_cnt::{F8} / c.all_cnt')} ORDER BY c.pos) AS prior, "
        f"madnb._check_class_count(pg_catalog.count(*), {k}) AS checked FROM {share('cls', _cls(cp))} AS c)"
    ]
    # Every check of the model's shape is part of ``ready``, the one column the
    # scoring query filters or joins on (unreferenced columns may be optimised away).
    checks = ["m0.checked"]
    num = set(plan.numeric_attrs)
    cat_attrs = [j for j in range(1, n + 1) if j not in num]
    if plan.strategy == "dict":
        parts += _dict_model(cp, fp, n, k, smoothing, cat_attrs if plan.unroll else None, plan.value_type_oid, per_class, share)
    if plan.strategy == "codes":
        assert plan.value_type_oid is not None
        if plan.unroll or plan.rectangle:
            parts += _rect_model(cp, fp, n, k, smoothing, flat=not plan.unroll, share=share)
        else:
            parts += _code_model(cp, fp, n, smoothing, share)
        if plan.value_type_oid not in INTEGER_TYPES:
            parts.append(
                "(SELECT madnb._check_whole_values(pg_catalog.bool_and(f.value = pg_catalog.trunc(f.value))) AS whole "
                f"FROM {fp} AS f)"
            )
            checks.append(f"m{len(parts) - 1}.whole")
    if numeric_stats is not None:
        parts += _numeric_model(cp, numeric_stats, n, k, plan.var_floor, per_class, share)
        if plan.unroll and plan.check_numeric:
            baked = "{" + ",".join("t" if j in num else "f" for j in range(1, n + 1)) + "}"
            checks.append(
                f"madnb._check_view_model(m{len(parts) - 1}.isnum IS NOT DISTINCT FROM '{baked}'::pg_catalog.bool[], "
                "'numeric attributes')"
            )
    return parts, checks
