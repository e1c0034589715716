"""Alternative SQL for the statistics pass and the scoring views (experiments).

Nothing here is used by madnb: these are the formulations measured by
``python -m bench.experiments`` against what madnb does today, to back proposed
changes to ``plpython/madnb_pl/release/array_pass.py``, ``api.py`` and ``scoring/`` with
numbers.  Names are trusted (benchmark tables), so SQL is built by formatting.
"""

from __future__ import annotations

import re

F8 = "pg_catalog.float8"


# -- statistics pass -----------------------------------------------------------

def stats_categorical(src: str, skip: tuple[int, ...] = ()) -> str:
    """madnb's pass today for categorical attributes (optionally skipping positions;
    then nv is 0 as in madnb's mixed pass, where it is a filtered count)."""
    where, nv = "", "NULL::int8"
    if skip:
        where = " WHERE u.o IS NULL OR u.o <> ALL ('{" + ",".join(map(str, skip)) + "}'::int4[])"
        nv = "0::int8"
    return (
        f"SELECT t.class AS cls, u.o::int4 AS o, u.val AS v, count(*) AS n, {nv} AS nv, NULL::float8 AS mean, NULL::float8 AS var "
        f"FROM {src} AS t LEFT JOIN LATERAL unnest(t.attributes) WITH ORDINALITY AS u(val, o) ON true{where} GROUP BY 1, 2, 3"
    )


def stats_numeric_subscript(src: str, n: int, numeric: tuple[int, ...], summary: bool = True, elem: str = "double precision") -> str:
    """Gaussian statistics by subscript: one GROUP BY class, no unnest.

    ``summary`` adds the rows the unnest pass has for the row structure (o IS NULL
    for empty arrays, o = length for too-long arrays, o = -1 counting arrays that
    are not one-dimensional and 1-based, for which the unnest pass must be rerun).
    """
    card = "cardinality(t.attributes)"
    aggs = [
        f"count(*) FILTER (WHERE COALESCE({card}, 0) = 0) AS n_empty",
        f"count(*) FILTER (WHERE {card} > 0) AS n_any",
        f"count(*) FILTER (WHERE {card} >= {n}) AS n_full",
        f"count(*) FILTER (WHERE {card} > {n}) AS n_long",
        f"max({card})::int4 AS max_len",
        "count(*) FILTER (WHERE array_ndims(t.attributes) > 1 OR array_lower(t.attributes, 1) <> 1) AS n_odd",
    ]
    rows = []
    if summary:
        rows = ["(NULL::int4, g.n_empty, NULL::int8, NULL::float8, NULL::float8)", "(g.max_len, g.n_long, NULL, NULL, NULL)",
                "(-1, g.n_odd, NULL, NULL, NULL)"]
    for j in numeric:
        x = f"t.attributes[{j}]::float8"
        aggs.append(f"count(t.attributes[{j}]) AS c{j}, avg({x}) AS m{j}, var_samp({x}) AS v{j}")
        rows.append(f"({j}, g.{'n_any' if j == 1 else 'n_full'}, g.c{j}, g.m{j}, g.v{j})")
    keep = f"x.o IS NULL OR x.o BETWEEN 1 AND {n} OR x.o = g.max_len OR x.o = -1" if summary else "x.o IS NOT NULL"
    return (
        f"SELECT g.cls, x.o, NULL::{elem} AS v, x.n, x.nv, x.mean, x.var FROM "
        f"(SELECT t.class AS cls, {', '.join(aggs)} FROM {src} AS t GROUP BY t.class) AS g "
        f"CROSS JOIN LATERAL (VALUES {', '.join(rows)}) AS x(o, n, nv, mean, var) WHERE x.n > 0 AND ({keep})"
    )


def stats_mixed_split(src: str, n: int, numeric: tuple[int, ...]) -> str:
    """Mixed attributes: the unnest pass over the categorical positions only, plus the
    subscript pass for the numeric ones (two scans of the table, less work per element)."""
    return f"{stats_categorical(src, numeric)} UNION ALL {stats_numeric_subscript(src, n, numeric, summary=False)}"


# -- scoring -------------------------------------------------------------------

def _ln(e: str) -> str:
    return f"(CASE WHEN ({e}) > 0 THEN ln(({e})::float8) ELSE '-Infinity'::float8 END)"


def _exp(e: str) -> str:
    return f"(CASE WHEN ({e}) < -700 THEN 0::float8 ELSE exp({e}) END)"


def _classes(cp: str) -> str:
    return f"(SELECT c.class, c.class_cnt, c.all_cnt, row_number() OVER (ORDER BY c.class)::int AS pos FROM {cp} c)"


def model_categorical(cp: str, fp: str, n: int, k: int) -> str:
    """One row: classes, log priors p1..pk, and per class a lookup array c1..ck over
    (attribute, integer value) slots; attribute j's block is [0, lo..hi, 0] so that
    unseen, NULL and out-of-range values land on a 0 slot without a CASE."""
    ks = range(1, k + 1)
    cls = _classes(cp)
    catl = (f"(SELECT f.attr, f.value, c.pos, {_ln('f.cnt + 1.0')} - "
            f"{_ln('sum(f.cnt) OVER (PARTITION BY f.class, f.attr) + 1.0 * f.attr_cnt')} AS lp "
            f"FROM {fp} f JOIN {cls} c ON c.class = f.class)")
    pri = ", ".join(f"max({_ln('c.class_cnt::float8 / c.all_cnt')}) FILTER (WHERE c.pos = {i}) AS p{i}" for i in ks)
    arrs = ", ".join(f"array_agg(COALESCE(l.lp, 0) ORDER BY a.o, v.v) FILTER (WHERE q.pos = {i}) AS c{i}" for i in ks)
    return (
        f"SELECT pr.*, t.* FROM "
        f"(SELECT array_agg(c.class ORDER BY c.pos) AS classes, {pri}, madnb._check_class_count(count(*), {k}) AS checked FROM {cls} c) pr, "
        f"(SELECT d.lo, d.w, {arrs} FROM (SELECT min(f.value)::int8 AS lo, (max(f.value) - min(f.value) + 3)::int8 AS w FROM {fp} f) d "
        f"CROSS JOIN generate_series(1, {n}) a(o) CROSS JOIN generate_series(d.lo - 1, d.lo + d.w - 2) v(v) "
        f"CROSS JOIN generate_series(1, {k}) q(pos) LEFT JOIN {catl} l ON l.attr = a.o AND l.value = v.v AND l.pos = q.pos "
        f"GROUP BY d.lo, d.w) t"
    )


def model_numeric(cp: str, np: str, n: int, k: int) -> str:
    """One row: classes, log priors, and per class arrays mu, h = 1/(2 var), a = -ln(2 pi var)/2
    indexed by attribute (madnb's variance floor: 1e-9 of the attribute's total variance)."""
    ks = range(1, k + 1)
    cls = _classes(cp)
    pri = ", ".join(f"max({_ln('c.class_cnt::float8 / c.all_cnt')}) FILTER (WHERE c.pos = {i}) AS p{i}" for i in ks)
    numb = f"(SELECT x.attr, c.pos, x.attr_mean mu, x.attr_var var, x.value_cnt cnt FROM {np} x JOIN {cls} c ON c.class = x.class WHERE x.value_cnt > 0)"
    numg = f"(SELECT b.attr, sum(b.cnt * b.mu) / sum(b.cnt) gm, sum(b.cnt) tot FROM {numb} b GROUP BY b.attr)"
    numf = (f"(SELECT b.attr, sum(GREATEST(b.cnt - 1, 0) * COALESCE(b.var, 0) + b.cnt * (b.mu - g.gm) * (b.mu - g.gm)) / g.tot AS total_var "
            f"FROM {numb} b JOIN {numg} g ON g.attr = b.attr GROUP BY b.attr, g.tot)")
    numw = (f"(SELECT b.attr, b.pos, b.mu, GREATEST(COALESCE(b.var, 0), CASE WHEN f.total_var > 0 THEN 1e-9 * f.total_var ELSE 1 END) AS w "
            f"FROM {numb} b JOIN {numf} f ON f.attr = b.attr)")
    arrs = ", ".join(
        f"array_agg(COALESCE(w.mu, 0) ORDER BY a.o) FILTER (WHERE q.pos = {i}) AS mu{i}, "
        f"array_agg(COALESCE(0.5 / w.w, 0) ORDER BY a.o) FILTER (WHERE q.pos = {i}) AS h{i}, "
        f"array_agg(COALESCE(-0.5 * ln(2 * pi() * w.w), 0) ORDER BY a.o) FILTER (WHERE q.pos = {i}) AS a{i}" for i in ks)
    return (
        f"SELECT pr.*, t.* FROM "
        f"(SELECT array_agg(c.class ORDER BY c.pos) AS classes, {pri}, madnb._check_class_count(count(*), {k}) AS checked FROM {cls} c) pr, "
        f"(SELECT {arrs} FROM generate_series(1, {n}) a(o) CROSS JOIN generate_series(1, {k}) q(pos) "
        f"LEFT JOIN {numw} w ON w.attr = a.o AND w.pos = q.pos) t"
    )


def view_parallel(kind: str, src: str, n: int, k: int, cp: str, fp: str | None, np: str | None, numeric: tuple[int, ...] = ()) -> str:
    """Classify / probs SELECT that PostgreSQL 15 runs with parallel workers.

    * no LATERAL subquery (a subquery with outer references is never parallel safe);
    * the model is a MATERIALIZED CTE read through scalar subqueries, i.e. InitPlans
      evaluated once in the leader and passed to the workers ("Params Evaluated");
    * each class's log-likelihood is a target-list expression over subscripts
      ``attributes[j]`` in a subquery that a one-row SRF (``generate_series(1, 1)``)
      keeps from being flattened: computed once per row (classify and probs refer to
      it several times) and costed per row, so the planner puts it under Gather.
    Categorical values must be integers (the lookup arrays are indexed by value).
    """
    ks = range(1, k + 1)
    nums = set(numeric)
    ctes = []
    if fp is not None:
        ctes.append(f"mdl_m AS MATERIALIZED ({model_categorical(cp, fp, n, k)})")
    if np is not None:
        ctes.append(f"mdl_g AS MATERIALIZED ({model_numeric(cp, np, n, k)})")
    pm = "m" if fp is not None else "g"

    def term(i: int, j: int) -> str:
        if j in nums:
            x = f"src.attributes[{j}]::float8"
            return f"COALESCE(g.a{i}[{j}] - ({x} - g.mu{i}[{j}]) * ({x} - g.mu{i}[{j}]) * g.h{i}[{j}], 0)"
        return f"m.c{i}[{j - 1} * m.w + GREATEST(0, LEAST(COALESCE(src.attributes[{j}]::int8, m.lo - 1) - m.lo + 1, m.w - 1)) + 1]"

    ls = ", ".join(f"{pm}.p{i} + " + " + ".join(term(i, j) for j in range(1, n + 1)) + f" AS l{i}" for i in ks)
    scored = f"SELECT src.id AS key, {ls}, generate_series(1, 1) AS one FROM {src} AS src WHERE {pm}.checked"
    mx = f"GREATEST({', '.join(f'q.l{i}' for i in ks)})"
    if kind == "classify":
        picks = ", ".join(f"CASE WHEN q.l{i} = {mx} THEN {pm}.classes[{i}] END" for i in ks)
        body = f"SELECT q.key, array_remove(ARRAY[{picks}], NULL) AS nb_classification FROM ({scored}) AS q"
    else:
        lse = "ln(" + " + ".join(_exp(f"q.l{i} - {mx}") for i in ks) + ")"
        s2 = f"SELECT q.*, {mx} AS mx, {lse} AS lse, generate_series(1, 1) AS one2 FROM ({scored}) AS q"
        probs = ", ".join(_exp(f"q.l{i} - q.mx - q.lse") for i in ks)
        body = f"SELECT q.key, p.class, p.nb_prob FROM ({s2}) AS q CROSS JOIN LATERAL unnest({pm}.classes, ARRAY[{probs}]) AS p(class, nb_prob)"
    body = re.sub(r"\b([mg])\.([a-z]+[0-9]*)\b", lambda mm: f"(SELECT {mm.group(2)} FROM mdl_{mm.group(1)})", body)
    return "WITH " + ", ".join(ctes) + " " + body
