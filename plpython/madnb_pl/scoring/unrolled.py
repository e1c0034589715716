"""The unrolled (parallel) form of a view: one expression per class, evaluated in the scan of the source.

See :mod:`madnb_pl.scoring` for when it is used and what it computes.
"""

from __future__ import annotations

from .common import F8, INTEGER_TYPES, dict_key
from .plan import ScoringPlan


def log_likelihood_rows(
    plan: ScoringPlan,
    *,
    ctes: list[tuple[str, str]],
    via_ctes: bool,
    numeric_stats: str | None,
    source: str,
    key: str,
    attrs: str,
    ok: str,
    ready: str,
    joined: str,
) -> str:
    """The rows (key, classes, ok, l1..lK: class i's joint log-likelihood) of the unrolled form.

    ``joined``: the one-row model subqueries (``m0``, ``m1``, ...) and ``ready``
    their checks (:func:`madnb_pl.scoring.model.model_parts`).  ``via_ctes``: the
    model comes from the common table expressions of an ad hoc view, so it is
    read through scalar subqueries (the model row itself is appended to
    ``ctes`` as ``mdl``).
    """
    k = plan.k
    ks = range(1, k + 1)
    n = plan.num_attrs
    strategy = plan.strategy
    source_elem_oid = plan.source_elem_oid
    num = set(plan.numeric_attrs)
    cat_attrs = [j for j in range(1, n + 1) if j not in num]
    # One expression per class with a term per attribute, computed in the scan of
    # the source itself, so PostgreSQL can run it in parallel workers.  The model
    # row is hash-joined on an always-true key (a one-row hash table per worker);
    # DISTINCT ON keeps it one subquery without the OFFSET 0 that would stop
    # parallelism.
    #
    # The small per-class arrays are concatenated into one, g, and each number the
    # terms read is a column of the model row, g<position>: a term reads a column
    # of the joined row, not an array subscript (3 per Gaussian term; reading
    # columns made num200k's classify view 25-35% faster).
    flat = ["prior"] + ([f"{w}{i}" for i in ks for w in ("a", "r", "mu")] + ["nlo", "nhi"] if numeric_stats is not None else [])
    pos = {name: 1 + q * n for q, name in enumerate(flat[1:])}
    luts = ""
    if strategy == "codes":
        luts = "".join(f", lut{i}" for i in ks) + ", lo0, hi1"
    elif strategy == "dict":
        luts = "".join(f", lut{i}" for i in ks) + "".join(f", js{j}" for j in cat_attrs)

    def m(col: str) -> str:
        return f"m.{col}"
    used: set[int] = set()

    def g(position: int) -> str:
        """Number ``position`` of g: the model row's column g<position>."""
        used.add(position)
        return m(f"g{position}")

    # Each Gaussian value is cleaned once per row, not once per class: NaN reads
    # NULL (missing), values beyond the attribute's window are clipped to it (see
    # GAUSS_CLIP_SDS); so is each categorical value's slot looked up.  The cleaned values come from a LATERAL subquery on the
    # nullable side of a left join whose condition is not constant, so PostgreSQL
    # keeps them as one computation per row (placeholders) rather than copying the
    # expression into every term, and still runs it in the parallel workers
    # (measured: one check per term made classify 25-40% slower).
    cleaned: list[str] = []
    terms: dict[int, list[str]] = {i: [] for i in ks}
    for j in range(1, n + 1):
        x = f"src.{attrs}[{j}]"
        if j in num:
            lo, hi = (g(k + pos[w] + j - 1) for w in ("nlo", "nhi"))
            # NULLIF reads the value once; float8larger / float8smaller (max / min)
            # are strict, so NULL stays NULL
            cleaned.append(
                f"pg_catalog.float8smaller(pg_catalog.float8larger(NULLIF({x}::{F8}, 'NaN'::{F8}), {lo}), {hi}) AS x{j}"
            )
            for i in ks:
                a, r, mu = (g(k + pos[f"{w}{i}"] + j - 1) for w in ("a", "r", "mu"))
                terms[i].append(f"{a} - ({r} * (s.x{j} - {mu})) ^ 2")
        elif strategy in ("dict", "codes"):
            # a categorical value's slot in the per-class lookup tables, once per row as the Gaussian values
            if strategy == "dict":
                # a value missing from the dictionary reads NULL and adds 0
                idx = f"({m(f'js{j}')} -> {dict_key(x, source_elem_oid)})::pg_catalog.int4"
            else:
                # out-of-range values land on index 0 or width + 1: NULL, so they add 0
                idx = f"(LEAST(GREATEST({x}, {m('lo0')}), {m('hi1')}) - {m('lo0')})::pg_catalog.int4"
                if source_elem_oid not in INTEGER_TYPES:
                    idx = f"CASE WHEN {x} = pg_catalog.trunc({x}) THEN {idx} END"
            cleaned.append(f"{idx} AS i{j}")
            for i in ks:
                terms[i].append(f"{m(f'lut{i}')}[{j}][s.i{j}]")
        # else: a categorical attribute of a model without categorical values adds 0
    ls = ", ".join(g(i) + "".join(f" + COALESCE({term}, 0)" for term in terms[i]) + f" AS l{i}" for i in ks)
    row = f"{ready} AS ready, m0.classes, {' || '.join(flat)} AS g{luts} FROM {joined}"  # the model row, from its subqueries
    join = f"JOIN ({_model_row(row, luts, used, ctes if via_ctes else None)}) AS m ON m.ready = (pg_catalog.num_nulls(src.{key}) >= 0)"
    where = ""
    if via_ctes:
        join, where = f"LEFT {join}", " WHERE m.ready"  # see _model_row
    if cleaned:
        join = f"{join} LEFT JOIN LATERAL (SELECT {', '.join(cleaned)}) AS s ON m.ready"
    return f"SELECT src.{key} AS key, m.classes, {ok}, {ls} FROM {source} AS src {join}{where} OFFSET 0"


def _model_row(row: str, luts: str, used: set[int], ctes: list[tuple[str, str]] | None) -> str:
    """The one-row model the scan of the source joins: ready, classes, each number g<p> of g read, the lookup tables
    ``luts``; ``row`` is the select list and FROM clause of the model row over its subqueries (a column g).

    ``ctes``: the common table expressions of an ad hoc view, to which the model row is appended as ``mdl``.  Those
    only the leader may scan; read through scalar subqueries, the model becomes InitPlan parameters, computed once in
    the leader and passed to the workers.  (Joined as a prepared view's model row, its subqueries would be below the
    Gather and the scoring serial.)  PostgreSQL neither shares equal sub-selects nor keeps a one-row VALUES list as
    a relation (its expressions are copied wherever its columns are read), and JIT compiles every sub-select's
    expressions: so each column of mdl is read by one sub-select in a VALUES list of two rows (the second all NULL,
    never joined), which each worker scans, and the numbers g<p> are taken out of g there, in a subquery on the
    nullable side of a left join: PostgreSQL computes such a subquery's non-strict expressions (the CASE) where it
    scans it, once per query, as placeholders the terms read.  (``WHERE m.ready`` makes the join an inner one again.)
    """
    cols = ["ready", "classes", "g"] + luts.split(", ")[1:]
    if ctes is None:
        columns = "".join(f", mm.g[{p}] AS g{p}" for p in sorted(used))
        return f"SELECT DISTINCT ON (mm.checked) mm.ready, mm.classes{columns}{luts.replace(', ', ', mm.')} FROM (SELECT m0.checked, {row}) AS mm"
    ctes.append(("mdl", f"SELECT DISTINCT ON (m0.checked) {row}"))
    values = ", ".join(f"(SELECT mdl.{c} FROM mdl)" for c in cols)
    nulls = ", ".join("NULL" for _ in cols)
    columns = "".join(f", CASE WHEN v.ready THEN v.g[{p}] END AS g{p}" for p in sorted(used))
    return f"SELECT v.ready, v.classes{columns}{luts.replace(', ', ', v.')} FROM (VALUES ({values}), ({nulls})) AS v({', '.join(cols)})"
