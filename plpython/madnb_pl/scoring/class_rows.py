"""The class-rows form of a view: a model of more than MAX_CLASSES classes, its classes as rows.

The other forms hold one column per class (l1..lK, and d1..dK in a probs view),
and a select list holds at most 1,664 columns.  Here each source row's scores are
one array ``ls`` (class order).  Per row, each value is looked up once -- a slot
of the integer codes' table (``codes``), a rank in the attribute's jsonb
dictionary (``dict``), or for other types its entry among the model's (attribute,
value) pairs by the type's own equality (``join``) -- and the classes'
log-probabilities there are unnested, one row per class; a Gaussian value gives
one term per class from the per-class parameters of its attribute.  The terms are
summed per class and added to the priors.  The cost per row grows with the values
times the classes.  A LATERAL subquery per row, as the LATERAL form: serial in
PostgreSQL 15.  The numbers are those of the other forms
(:mod:`madnb_pl.scoring.model`); the terms of a class may be added in another
order (Gaussian ones after categorical ones), so a score can differ from theirs
in the last place.
"""

from __future__ import annotations

from .common import shifted_or_null, tie_threshold
from .lateral import clipped_value, code_slot, dict_rank, row_values
from .model import Share, inline, model_parts, value_log_probs
from .plan import ScoringPlan


def model(plan: ScoringPlan, cp: str, fp: str, numeric_stats: str | None, share: Share = inline) -> tuple[list[str], list[str]]:
    """The one-row model subqueries and checks: classes and priors; the categorical tables as
    [class][...] arrays (``codes``: ``lut[class][slot]`` and the value ranges; ``dict``:
    ``lut[class][attr][rank]`` and the dictionaries ``jsall``; ``join``: the model's (attribute,
    value) entries ``cat_attr``, ``cat_value`` and ``cat_lp[entry][class]``); for Gaussian attributes
    ``mu``, ``r``, ``a`` as [class][attribute] arrays, the window and ``isnum``."""
    parts, checks = model_parts(plan, cp, fp, numeric_stats, per_class=True, share=share)
    if plan.strategy == "dict":  # the per-class rows (pos, arr[attr][rank]) as one array
        parts[1] = f"(SELECT pg_catalog.array_agg(q.arr ORDER BY q.pos) AS lut FROM {parts[1]} AS q)"
    if plan.strategy == "join":  # every (attribute, value) of the model, and its classes' log-probabilities
        entries = f"(SELECT DISTINCT f.attr, f.value FROM {fp} AS f)"
        lps = (
            f"(SELECT c.attr, c.value, pg_catalog.array_agg(x.lp ORDER BY g.pos) AS lps FROM {entries} AS c "
            f"CROSS JOIN pg_catalog.generate_series(1, {plan.k}) AS g(pos) LEFT JOIN {value_log_probs(cp, fp, plan.smoothing)} AS x "
            "ON x.attr = c.attr AND x.value = c.value AND x.pos = g.pos GROUP BY c.attr, c.value)"
        )
        parts.insert(1, (
            "(SELECT pg_catalog.array_agg(q.attr ORDER BY q.attr, q.value) AS cat_attr, "
            "pg_catalog.array_agg(q.value ORDER BY q.attr, q.value) AS cat_value, "
            f"pg_catalog.array_agg(q.lps ORDER BY q.attr, q.value) AS cat_lp FROM {lps} AS q)"
        ))
    if numeric_stats is not None:
        g = len(parts) - 3  # the per-class rows, window, isnum
        parts[g] = (
            "(SELECT pg_catalog.array_agg(q.mu ORDER BY q.pos) AS mu, pg_catalog.array_agg(q.r ORDER BY q.pos) AS r, "
            f"pg_catalog.array_agg(q.a ORDER BY q.pos) AS a FROM {parts[g]} AS q)"
        )
    return parts, checks


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
    """The rows (key, classes, ok, ls: the classes' joint log-likelihoods, in class order).

    ``joined`` and ``ready``: :func:`model`'s subqueries (``m0``, ``m1``, ...) and checks.
    """
    k = plan.k
    n = plan.num_attrs
    numeric = numeric_stats is not None
    values = row_values(attrs, n)
    uo = "u.o::pg_catalog.int4"
    terms: list[str] = []
    not_numeric = f" AND NOT m.isnum[{uo}]" if numeric else ""
    x = "u.v"
    if plan.strategy in ("codes", "dict"):
        # one slot per value (NULL: unseen or missing), then the classes' log-probabilities there
        if plan.strategy == "codes":
            slot = code_slot(x, uo, plan.source_elem_oid, "NULL")
            column = f"m.lut[1:{k}][w.i:w.i]"
        else:
            slot = dict_rank(x, plan.source_elem_oid)
            column = f"m.lut[1:{k}][w.o:w.o][w.i:w.i]"
        terms.append(
            f"SELECT e.pos::pg_catalog.int4 AS pos, e.lp AS t FROM (SELECT {uo} AS o, {slot} AS i FROM {values} "
            f"WHERE u.o <= {n}{not_numeric} OFFSET 0) AS w "
            f"CROSS JOIN LATERAL pg_catalog.unnest({column}) WITH ORDINALITY AS e(lp, pos) WHERE w.i IS NOT NULL"
        )
    elif plan.strategy == "join":
        # values of other types (no canonical text, not integral): found by their own equality among the
        # model's (attribute, value) entries, held in the one-row model (``cat_*``, see :func:`model`)
        entry = (
            "(SELECT pg_catalog.min(e.i) FROM ROWS FROM (pg_catalog.unnest(m.cat_attr), pg_catalog.unnest(m.cat_value)) "
            "WITH ORDINALITY AS e(a, v, i) WHERE e.a = u.o AND e.v = u.v)"
        )
        terms.append(
            f"SELECT e.pos::pg_catalog.int4 AS pos, e.lp AS t FROM (SELECT {entry} AS i FROM {values} "
            f"WHERE u.o <= {n} AND u.v IS NOT NULL{not_numeric} OFFSET 0) AS w "
            f"CROSS JOIN LATERAL pg_catalog.unnest(m.cat_lp[w.i:w.i][1:{k}]) WITH ORDINALITY AS e(lp, pos) WHERE w.i IS NOT NULL"
        )
    if numeric:
        # the value clipped to its attribute's window; NaN reads NULL (adds 0); a class without the
        # attribute has a = r = mu = 0 (adds 0)
        xc = clipped_value(x, uo)
        sliced = ", ".join(f"pg_catalog.unnest(m.{p}[1:{k}][w.o:w.o])" for p in ("a", "r", "mu"))
        terms.append(
            f"SELECT g.pos::pg_catalog.int4 AS pos, g.a - (g.r * (w.xc - g.mu)) ^ 2 AS t FROM ("
            f"SELECT {uo} AS o, {xc} AS xc FROM {values} WHERE u.o <= {n} AND m.isnum[{uo}] OFFSET 0) AS w "
            f"CROSS JOIN LATERAL ROWS FROM ({sliced}) WITH ORDINALITY AS g(a, r, mu, pos) WHERE w.xc IS NOT NULL"
        )
    sums = (
        f"LEFT JOIN (SELECT e.pos, pg_catalog.sum(e.t) AS s FROM ({' UNION ALL '.join(terms)}) AS e GROUP BY e.pos) AS s "
        "ON s.pos = g.pos"
    ) if terms else "LEFT JOIN (SELECT NULL::pg_catalog.int4 AS pos, NULL::pg_catalog.float8 AS s) AS s ON false"
    model_row = f"(SELECT {ready} AS ready, * FROM {joined} OFFSET 0)"
    return (
        f"SELECT src.{key} AS key, m.classes, {ok}, z.ls "
        f"FROM {source} AS src CROSS JOIN {model_row} AS m CROSS JOIN LATERAL ("
        f"SELECT pg_catalog.array_agg(m.prior[g.pos] + COALESCE(s.s, 0) ORDER BY g.pos) AS ls "
        f"FROM pg_catalog.generate_series(1, {k}) AS g(pos) {sums}) AS z WHERE m.ready OFFSET 0"
    )


def _with_max(rows: str) -> str:
    return f"SELECT q.*, (SELECT pg_catalog.max(e.l) FROM pg_catalog.unnest(q.ls) AS e(l)) AS mx FROM ({rows}) AS q OFFSET 0"


def classify(rows: str) -> str:
    """Every class within TIE_TOLERANCE of the best, in class order; NULL for a row that is not ok."""
    threshold = tie_threshold("q.mx")
    return (
        "SELECT q.key, CASE WHEN q.ok THEN ARRAY(SELECT q.classes[e.i] FROM pg_catalog.unnest(q.ls) WITH ORDINALITY AS e(l, i) "
        "WHERE e.l >= q.thr ORDER BY e.i) END AS nb_classification "
        f"FROM (SELECT q.*, {threshold} AS thr FROM ({_with_max(rows)}) AS q OFFSET 0) AS q"
    )


def probs(k: int, rows: str) -> str:
    """K rows (key, class, nb_prob) per source row; NULL probabilities for a row that is not ok.

    As the other forms: d_i = l_i - max (NULL below -700: probability 0), lse = ln of the sum
    of exp(d_i) in class order, probability exp(d_i - lse).
    """
    ds = (
        f"ARRAY(SELECT {shifted_or_null('e.l', 'q.mx')} "
        "FROM pg_catalog.unnest(q.ls) WITH ORDINALITY AS e(l, i) ORDER BY e.i) AS ds"
    )
    lse = (
        "(SELECT pg_catalog.ln(pg_catalog.sum(COALESCE(pg_catalog.exp(e.d), 0) ORDER BY e.i)) "
        "FROM pg_catalog.unnest(q.ds) WITH ORDINALITY AS e(d, i)) AS lse"
    )
    return (
        "SELECT q.key, q.classes[c.i] AS class, CASE WHEN q.ok THEN COALESCE(pg_catalog.exp(q.ds[c.i] - q.lse), 0) END AS nb_prob FROM ("
        f"SELECT q.*, {lse} FROM (SELECT q.key, q.classes, q.ok, {ds} FROM ({_with_max(rows)}) AS q OFFSET 0) AS q OFFSET 0"
        f") AS q CROSS JOIN pg_catalog.generate_series(1, {k}) AS c(i)"
    )
