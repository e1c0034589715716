"""The LATERAL (per-row) form of a view: each row's values unnested and summed in a subquery.

See :mod:`madnb_pl.scoring` for when it is used and what it computes.
"""

from __future__ import annotations

from ..core.sql import int_array
from .common import F8, INTEGER_TYPES, MAX_POSITION_LITERAL, dict_key
from .model import value_log_probs
from .plan import ScoringPlan


def row_values(attrs: str, n: int) -> str:
    """A source row's values with their positions, ``u(v, o)``: unnest in a select list (in lock-step with
    the positions), which costs less than in FROM, which materialises each row's values first (wide
    classify 3.9-4.5 s -> 3.3 s measured).  Past a row's end v is NULL, past numAttrs o is: both add
    nothing, as values that are missing or beyond numAttrs do."""
    if n <= MAX_POSITION_LITERAL:
        positions = f"pg_catalog.unnest({int_array(range(1, n + 1), 'int8')})"
    else:
        positions = f"pg_catalog.generate_series(1::pg_catalog.int8, {n})"
    return f"(SELECT pg_catalog.unnest(src.{attrs}) AS v, {positions} AS o) AS u"


def code_slot(x: str, uo: str, source_elem_oid: int | None, unseen: str) -> str:
    """The slot of integer code ``x`` of attribute ``uo`` in the codes strategy's one table (the model's
    ``lo``, ``hi``, ``base``): ``unseen`` for a value outside its attribute's range or not whole."""
    whole = "" if source_elem_oid in INTEGER_TYPES else f" AND {x} = pg_catalog.trunc({x})"
    return (
        f"CASE WHEN {x} >= m.lo[{uo}] AND {x} <= m.hi[{uo}]{whole} "
        f"THEN (m.base[{uo}] + ({x} - m.lo[{uo}]))::pg_catalog.int4 + 2 ELSE {unseen} END"
    )


def dict_rank(x: str, source_elem_oid: int | None) -> str:
    """The rank of value ``x`` of attribute ``u.o`` in the model's dictionaries ``jsall`` (NULL: unseen)."""
    return f"(m.jsall -> u.o::pg_catalog.text -> {dict_key(x, source_elem_oid)})::pg_catalog.int4"


def clipped_value(x: str, uo: str) -> str:
    """Gaussian value ``x`` of attribute ``uo`` clipped to its window (the model's ``nlo``, ``nhi``); NaN reads NULL."""
    return f"pg_catalog.float8smaller(pg_catalog.float8larger(NULLIF({x}::{F8}, 'NaN'::{F8}), m.nlo[{uo}]), m.nhi[{uo}])"


def log_likelihood_rows(
    plan: ScoringPlan,
    *,
    ctes: list[tuple[str, str]],
    cp: str,
    fp: str,
    numeric_stats: str | None,
    source: str,
    key: str,
    attrs: str,
    ok: str,
    ready: str,
    joined: str,
) -> str:
    """The rows (key, classes, ok, l1..lK: class i's joint log-likelihood) of the LATERAL form.

    ``joined``: the one-row model subqueries (``m0``, ``m1``, ...) and ``ready``
    their checks (:func:`madnb_pl.scoring.model.model_parts`).  The ``join``
    strategy appends its per-value table to ``ctes`` as ``cat``.
    """
    ks = range(1, plan.k + 1)
    n = plan.num_attrs
    strategy = plan.strategy
    rectangle = plan.rectangle
    source_elem_oid = plan.source_elem_oid
    smoothing = plan.smoothing
    # The model is one row of arrays, built once per query from one-row aggregates.
    model = f"(SELECT {ready} AS ready, * FROM {joined} OFFSET 0)"
    x = "u.v"
    o = "w.o"
    joins = ""
    inner_cols = ["u.o::pg_catalog.int4 AS o", "u.v AS v"]
    if strategy == "codes" and rectangle:
        # one index per value into the flat per-class tables; NULL (adds 0) outside the range
        whole = "" if source_elem_oid in INTEGER_TYPES else f" AND {x} = pg_catalog.trunc({x})"
        inner_cols.append(
            f"(CASE WHEN {x} > m.lo0 AND {x} < m.hi1{whole} "
            f"THEN ((u.o - 1) * m.w + ({x} - m.lo0))::pg_catalog.int4 END) AS i"
        )
        cat_term = "m.lut{i}[w.i]"
    elif strategy == "codes":
        inner_cols.append(f"({code_slot(x, 'u.o::pg_catalog.int4', source_elem_oid, '1')}) AS i")
        cat_term = "m.lut[{i}][w.i]"
    elif strategy == "dict":
        inner_cols.append(f"{dict_rank(x, source_elem_oid)} AS r")
        cat_term = "m.lut{i}[w.o][w.r]"
    elif strategy == "join":
        ctes.append(
            (
                "cat",
                "SELECT c.attr, c.value, "
                + ", ".join(f"pg_catalog.max(c.lp) FILTER (WHERE c.pos = {i}) AS l{i}" for i in ks)
                + f" FROM {value_log_probs(cp, fp, smoothing)} AS c GROUP BY c.attr, c.value",
            )
        )
        # madnb._planner_hint() is an opaque true: it lowers the model's row estimate
        # so the planner always hashes the model (built once) rather than each row's values.
        joins = (
            " LEFT JOIN (SELECT * FROM cat WHERE madnb._planner_hint(cat.attr) AND madnb._planner_hint(cat.attr) "
            "AND madnb._planner_hint(cat.attr)) AS c ON c.attr = u.o AND c.value = u.v"
        )
        inner_cols += [f"c.l{i} AS c{i}" for i in ks]
        cat_term = "w.c{i}"
    elif strategy == "none":
        cat_term = ""
    else:  # pragma: no cover
        raise ValueError(strategy)
    if numeric_stats is None and strategy == "codes":
        inner_cols = inner_cols[2:]  # only the slot is read past the fence
    if numeric_stats is not None:
        # the value clipped to its attribute's window, once per value; NaN reads NULL
        uo = "u.o::pg_catalog.int4"
        xc = clipped_value(x, uo)
        inner_cols.append(f"{xc if strategy == 'none' else f'CASE WHEN m.isnum[{uo}] THEN {xc} END'} AS xc")
    xf = "w.xc"
    gauss = f"m.a{{i}}[{o}] - (m.r{{i}}[{o}] * ({xf} - m.mu{{i}}[{o}])) ^ 2"
    if numeric_stats is None:
        term = cat_term
    elif not cat_term:
        term = gauss
    else:
        term = f"CASE WHEN m.isnum[{o}] THEN {gauss} ELSE {cat_term} END"
    sums = ", ".join(f"pg_catalog.sum({term.format(i=i)}) AS s{i}" for i in ks)
    # per-value expressions (the slot, the cleaned Gaussian value) are computed once
    fence = " OFFSET 0" if strategy in ("codes", "dict") or (strategy == "none" and numeric_stats is not None) else ""
    if strategy == "join":
        values = f"pg_catalog.unnest(src.{attrs}) WITH ORDINALITY AS u(v, o)"
    else:
        values = row_values(attrs, n)
    ls = ", ".join(f"m.prior[{i}] + COALESCE(z.s{i}, 0) AS l{i}" for i in ks)
    # OFFSET 0 fences keep each per-value and per-row expression computed once
    # (PostgreSQL 15 runs a LATERAL subquery in the leader only, so this form is serial).
    return (
        f"SELECT src.{key} AS key, m.classes, {ok}, {ls} "
        f"FROM {source} AS src CROSS JOIN {model} AS m CROSS JOIN LATERAL ("
        f"SELECT {sums} FROM (SELECT {', '.join(inner_cols)} "
        f"FROM {values}{joins} "
        f"WHERE u.o <= {n}{fence}) AS w) AS z WHERE m.ready OFFSET 0"
    )
