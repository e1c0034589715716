"""The statistics pass over ordinary columns, into a statistics table with text values.

The pass (:func:`stats_select`) is one SELECT: per class its row count and
count, avg and var_samp of every Gaussian column; the categorical counts of
integer columns grouped on one packed int8 key per value (as training from
integer arrays does), those of other columns from one grouping set per column
(the value as text, :func:`madnb_pl.inputs.columns.value_text_sql`).  Each part
is one scan of the source; none calls Python per row.  Feature i (1-based, in the order of the ``ColumnTraining``) is
attribute i of the statistics table, so a column model is an ordinary madnb
model, merged and derived as every other.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TypeVar

from ..core.errors import MadnbError
from ..core.names import NewName
from ..core.sql import F8, INT2, INT4, Plpy, Sql, temp_name, without_jit
from ..inputs.columns import ColumnTraining, check_weights, column_text_sql, gaussian_value_sql, label_text_sql, weight_value_sql
from . import array_pass, statistics_table

T = TypeVar("T")

PACKED_TYPES = frozenset({INT2, INT4})  # |value| < 2**31: the key fits an int8


MAX_GAUSSIAN = 300  # nv, mean, var (24 bytes) each in one row of the pass's table, which holds at most 8160 bytes
MAX_WEIGHTED_FOLD_GAUSSIAN = MAX_GAUSSIAN // 2  # w, m, q, c, u, p (48 bytes) each in a row of weighted_fold_pass's table
"""(170 of them: "row is too big: size 8344, maximum size 8160")"""


def execute_wide(plpy: Plpy, statement: Sql) -> None:
    """Run a statement of the column face, whose expressions grow with the source's columns: jit off for it
    (:func:`madnb_pl.core.sql.without_jit`; 1,598 text columns: 27 s with jit, 0.9 s without)."""
    with without_jit(plpy):
        plpy.execute(statement)


def packed(training: ColumnTraining) -> list[int]:
    """The categorical features counted from a packed int8 key (integer columns of at most 32 bits)."""
    return [i for i, f in enumerate(training.features, start=1) if not f.gaussian and f.base_oid in PACKED_TYPES]


def stats_select(training: ColumnTraining, fold: str | None = None, branches: int = 1) -> Sql:
    """The statistics pass: rows (cls, o, v, n, c{j}, m{j}, v{j}), one SELECT of up to three parts.

    * o = 0, one row per class: its row count n and, per Gaussian feature j,
      count, avg and var_samp of the present values (c{j}, m{j}, v{j});
    * integer categorical features: per class and (feature, value) the count,
      grouped on one int8 key per element (array_pass.packed_key of the value at o), from ``unnest`` in
      the select list (the cheapest way PostgreSQL counts many columns per row);
    * other categorical features: one grouping set (class, value as text) per
      feature, hashed in one scan -- or, without folds, in ``branches`` scans
      (:func:`chunks`): grouping sets take no parallel workers, so the features
      are split among UNION ALL branches that parallel workers hash at the same
      time (:func:`grouping_branches`; issue 19's column table, 10 text columns, 2
      workers: that part 1.7x faster; one scan more per branch without workers);
      with folds too, in branches of at most :func:`sets_per_query` features each.

    Missing values (NULL) of categorical features are not counted.  The first two
    parts can run in parallel workers.  ``fold``: an SQL expression over the source's
    row ``t``; every row then also carries it as a first column ``f`` and is
    grouped by it too (cross-validation's per-fold statistics, in the same pass).
    With folds and grouping sets, the first part is one more grouping set of those
    (:func:`_per_class_in_grouping_sets`), so that one scan computes the fold.
    """
    gauss = list(training.numeric)
    if len(gauss) > MAX_GAUSSIAN:
        raise MadnbError(
            "54000", f"{len(gauss)} Gaussian features are more than madnb.train supports ({MAX_GAUSSIAN})",
            hint="train from a view with fewer numeric columns, or name some of them in categorical",
        )
    lab = f"t.{training.label.sql}"
    src = f"{training.source.sql} AS t"
    by, g_by, e_by, n_by = "", "", "", 0
    if fold is not None:
        # the fold, first column of every part and one of its grouping keys: a grouping key is computed
        # once per row (md5 costs microseconds).  Not in a LATERAL sub-select, which keeps a scan off
        # parallel workers, except for the grouping sets (which take none; see value_counts_sql).
        # The packed part unnests: its fold comes from a sub-select below the unnest (next to
        # unnest it would run once per element)
        by, g_by, e_by, n_by = f"{fold} AS f, ", "g.f, ", "e.f, ", 1
    nulls = "".join(f", NULL::pg_catalog.int8, NULL::{F8}, NULL::{F8}" for _ in gauss)
    aggs = "".join(
        f", pg_catalog.count({x}) AS c{j}, pg_catalog.avg({x}) AS m{j}, pg_catalog.var_samp({x}) AS v{j}"
        for j in gauss
        for x in [gaussian_value_sql(f"t.{training.features[j - 1].column.sql}", training.features[j - 1])]
    )
    others = _grouped(training)
    with_rows = ""
    per_class = fold is not None and _per_class_in_grouping_sets(len(gauss), len(others))
    parts = [] if per_class else [
        f"SELECT {by}{lab} AS cls, 0 AS o, NULL::pg_catalog.text AS v, pg_catalog.count(*) AS n{aggs} "
        f"FROM {src} GROUP BY {_group_by(1 + n_by)}"
    ]
    ints = packed(training)
    if ints:
        # one key per value: array_pass.packed_key with the feature's number as the position (features <= 1600)
        keys = ", ".join(array_pass.packed_key(f"t.{training.features[i - 1].column.sql}", str(i)) for i in ints)
        o, v = array_pass.unpacked("g.k")
        # OFFSET 0 keeps "k IS NOT NULL" above the aggregate (below it, it would run once per element)
        if fold is None:
            unnested = f"SELECT {lab} AS cls, pg_catalog.unnest(ARRAY[{keys}]) AS k FROM {src}"
        else:
            unnested = (f"SELECT r.f, r.cls, pg_catalog.unnest(r.a) AS k FROM (SELECT {fold} AS f, {lab} AS cls, "
                        f"ARRAY[{keys}] AS a FROM {src} OFFSET 0) AS r")
        parts.append(
            f"SELECT {g_by}g.cls, {o}, {v}::pg_catalog.text, g.n{nulls} "
            f"FROM (SELECT {e_by}e.cls, e.k, pg_catalog.count(*) AS n FROM ({unnested}) AS e "
            f"GROUP BY {_group_by(2 + n_by)} OFFSET 0) AS g "
            "WHERE g.k IS NOT NULL"
        )
    if others:
        if fold is None:
            gs_src, gs_fold, gs_lab = src, None, lab
            cols = [f"t.{training.features[i - 1].column.sql}" for i in others]
        else:
            # the fold in a sub-select below the grouping sets, so that parallel workers compute it (the grouping
            # sets take none; see gather_factor); x(f), a one-row sub-select's column, tells the planner that it
            # has few values (value_counts_sql)
            proj = "".join(f", t.{training.features[i - 1].column.sql} AS a{i}" for i in others)
            if per_class:
                proj += "".join(f", {gaussian_value_sql(f't.{training.features[j - 1].column.sql}', training.features[j - 1])} AS b{j}"
                                for j in gauss)
            with_rows, rows = fold_rows(f"(SELECT {fold} AS f, {lab} AS l{proj} FROM {src} OFFSET 0)", len(others))
            gs_src = f"{rows} AS t CROSS JOIN LATERAL (SELECT t.f OFFSET 0) AS x(f)"
            gs_fold, gs_lab = "x.f", "t.l"
            cols = [f"t.a{i}" for i in others]
        texts = list(zip(others, (column_text_sql(c, training.features[i - 1]) for c, i in zip(cols, others, strict=True)), strict=True))
        if per_class:
            counts = value_counts_sql(gs_lab, gs_src, texts, gs_fold, per_class=[(f"s{j}", f"madnb._moments(t.b{j})") for j in gauss])
            parts.insert(0, f"SELECT g.f, g.cls, g.o, g.v, g.n{''.join(_moment_columns('g', j) for j in gauss)} FROM ({counts}) AS g")
        else:
            for counts in value_counts_branches(gs_lab, gs_src, texts, 1 if fold is not None else branches, gs_fold):
                parts.append(f"SELECT {g_by}g.cls, g.o, g.v, g.n{nulls} FROM ({counts}) AS g")
    return Sql(with_rows + " UNION ALL ".join(parts))


PER_CLASS_MOMENTS = 100
"""At most this many (Gaussian features x grouping sets) moments per row in the grouping sets: see
:func:`_per_class_in_grouping_sets`."""


def _per_class_in_grouping_sets(gaussian: int, grouped: int) -> bool:
    """Whether a per-fold pass computes its per-class part (row counts, Gaussian moments) in the grouping sets of the
    ``grouped`` categorical features, as one more set, instead of in a scan of its own.

    A scan of its own computes every row's fold a second time: an md5 of the key's text, about 1 us a row for a
    short key, 2.5 us for the row's text form of issue 19's column table (16 columns, the default key).  In the
    grouping sets every set computes the moments: ``gaussian`` x ``grouped`` more per row, each about 6.5 ns (the
    column table: 72 ms for 200,000 rows x 55).  Up to PER_CLASS_MOMENTS of them (0.65 us a row) the sets cost
    less than the shortest key's md5 (the column table's per-fold pass: 795 -> 524 ms).  Only when the sets make
    one query (:func:`sets_per_query`).
    """
    return 0 < grouped <= sets_per_query(True) and gaussian * grouped <= PER_CLASS_MOMENTS


def _moment_columns(g: str, j: int) -> str:
    """Gaussian feature j's count, mean and variance (c{j}, m{j}, v{j}) from its moments ``g.s{j}`` (madnb._moments:
    {N, Sx, Sxx}, from which count, avg and var_samp return these numbers) in the per-class rows (o = 0) of ``g``;
    NULL in the others."""
    s, f8 = f"{g}.s{j}", F8
    per_class = f"{g}.o OPERATOR(pg_catalog.=) 0"
    return (f", CASE WHEN {per_class} THEN ({s}[1])::pg_catalog.int8 END AS c{j}"
            f", CASE WHEN {per_class} AND {s}[1] OPERATOR(pg_catalog.>) '0'::{f8} THEN {s}[2] OPERATOR(pg_catalog./) {s}[1] END AS m{j}"
            f", CASE WHEN {per_class} AND {s}[1] OPERATOR(pg_catalog.>) '1'::{f8} "
            f"THEN {s}[3] OPERATOR(pg_catalog./) ({s}[1] OPERATOR(pg_catalog.-) '1'::{f8}) END AS v{j}")


MAX_SETS = 32
"""At most this many grouping sets (categorical features) in one query of :func:`value_counts_branches`; half as
many grouped by fold too (:func:`sets_per_query`).

The planner hashes a grouping set only while the hash tables it estimates fit in
hash_mem, and it sizes every set's entries by the width of the whole input row --
which holds every feature's text, an expression it counts as 32 bytes -- so the
estimate grows with the square of the sets in a query times their groups (values
per feature, and folds in a per-fold pass); the sets it does not hash it sorts,
each in a sort of every row.  Each query more scans the table (or the per-fold
pass's CTE) once more.  1,598 text columns, 2,000 rows, jit off, in queries of 63
/ 31 / 15 sets: 10 values per feature 0.56 / 0.63 / 0.69 s; 100 values 2.2 / 0.71
/ 0.87 s (799 sets: 97 s); 1,000 values 12 s (63) / 4.0 (24) / 3.3 s (15).  A
per-fold pass's sets have several times the groups (800 text columns, 3 folds, 64
sets per query: some sets of every query sorted, 1.4 s; 16: 0.55 s).
"""


def sets_per_query(by_fold: bool) -> int:
    """The most grouping sets in one query: :data:`MAX_SETS`, half as many grouped by fold too (``by_fold``: the
    estimate is quadratic in the sets, linear in their groups, which the folds multiply)."""
    return MAX_SETS // 2 if by_fold else MAX_SETS


def fold_rows(rows: str, grouped: int) -> tuple[str, str]:
    """A per-fold pass's rows (``rows``: a sub-select of each row and its fold) for ``grouped`` categorical features'
    grouping sets: (a WITH clause, the relation to read).  When the sets make several queries, the rows are one
    MATERIALIZED CTE that they all read, so that each row's fold (by default the md5 of the row's text, as long as
    the row) is computed once; otherwise the sub-select itself (no WITH)."""
    if grouped <= sets_per_query(True):
        return "", rows
    return f"WITH madnb_rows AS MATERIALIZED {rows} ", "madnb_rows"


def value_counts_branches(
    cls: str, src: str, values: Sequence[tuple[int, str]], branches: int, fold: str | None = None, where: str | None = None,
    count: str = "pg_catalog.count(*)",
) -> list[Sql]:
    """:func:`value_counts_sql` of ``values`` split into at least ``branches`` queries (:func:`chunks`), of at most
    :func:`sets_per_query` values each, to be UNION ALL'd: grouping sets take no parallel workers, so one query hashes
    every feature in one process, while branches of a Parallel Append are hashed by as many processes at once
    (see :func:`grouping_branches`)."""
    n = max(branches, -(-len(values) // sets_per_query(fold is not None)))
    return [value_counts_sql(cls, src, part, fold, where, count) for part in chunks(values, n)]


def chunks(items: Sequence[T], n: int) -> list[Sequence[T]]:
    """``items`` in at most ``n`` consecutive runs of sizes differing by at most one (the first ones longer)."""
    n = max(1, min(n, len(items)))
    size, extra = divmod(len(items), n)
    bounds = [i * size + min(i, extra) for i in range(n + 1)]
    return [items[bounds[i]:bounds[i + 1]] for i in range(n)]


def _grouped(training: ColumnTraining) -> list[int]:
    """The categorical features counted by grouping sets: those not counted from a packed key."""
    ints = packed(training)
    return [i for i, f in enumerate(training.features, start=1) if not f.gaussian and i not in ints]


def grouping_branches(plpy: Plpy, features: int) -> int:
    """How many branches the grouping sets of ``features`` categorical features get (:func:`value_counts_branches`):
    max_parallel_workers_per_gather (the leader and that many workers scan; the first part of the pass, per class,
    takes one of them), at least 1, at most one per feature (1, with no setting read, for fewer than two)."""
    if features < 2:
        return 1
    return max(1, int(plpy.execute(Sql("SELECT pg_catalog.current_setting('max_parallel_workers_per_gather')::pg_catalog.int4 AS w"))[0]["w"]))


def gather_factor(training: ColumnTraining, fold: str | None = None) -> float:
    """parallel_tuple_cost times this for :func:`stats_select` (madnb_pl.release.array_pass.gather_cost).

    * Packed keys: a Gather of them is costed per row, not per element (the
      factor is half their number, at least 1).
    * Folds with other categorical features: the Gather below the grouping sets
      carries a row per source row and moves the fold (an md5 per row, and the
      row's text form by default) into a worker; at the default cost the planner
      keeps it in the leader.  A tenth of it makes the planner use the worker
      (issue 19's column table, 5 folds, default key, one run each on the shared
      2-core machine: the statistics pass 2.37 s -> 1.79 s).
    """
    factor = max(1.0, len(packed(training)) / 2)
    if fold is not None and any(not f.gaussian and i not in packed(training) for i, f in enumerate(training.features, start=1)):
        factor /= 10
    return factor


def value_counts_sql(
    cls: str, src: str, values: Sequence[tuple[int, str]], fold: str | None = None, where: str | None = None,
    count: str = "pg_catalog.count(*)", per_class: Sequence[tuple[str, str]] | None = None,
) -> Sql:
    """Per class and categorical value, its number of rows: rows ([f,] cls, o, v, n), v a value's text (never NULL).

    ``values``: (o, the SQL of feature o's text form) over row ``t`` of ``src``;
    ``cls``: the class's SQL; ``fold``: a column of ``src`` to group by first (as
    ``f``); ``where``: a condition on the rows counted; ``count``: what n is (a weighted pass sums the weights).
    One grouping set (class, value) per feature: in the set of feature o
    every other feature's text is NULL, so GROUPING() names o and COALESCE of all
    the texts is o's value (NULL for a missing value, which is not counted).
    PostgreSQL hashes every set in one scan, without producing a row per (row,
    feature) as an unpivot does (1.4-1.5x faster on 2 cores, although grouping sets
    take no parallel workers).  The fold must be a sub-select's column, not an
    expression: the planner then knows it has few values and hashes every set (on
    an expression it assumes 200 and sorts for most).

    ``per_class``: (alias, aggregate) columns; the grouping sets then have one more,
    ([fold,] class), whose rows have o = 0 and v NULL.  Every set computes those
    aggregates: only the o = 0 rows' are what their name says.
    """
    os, texts = [o for o, _ in values], [x for _, x in values]
    named = len(texts) if per_class is not None else len(texts) - 1  # the sets GROUPING() names; ELSE the last
    which = "".join(f"WHEN GROUPING({x}) OPERATOR(pg_catalog.=) 0 THEN {o} " for o, x in zip(os[:named], texts[:named], strict=True))
    otherwise = 0 if per_class is not None else os[-1]
    which = f"CASE {which}ELSE {otherwise} END" if which else str(otherwise)
    key, by = (f"{fold}, ", f"{fold} AS f, ") if fold is not None else ("", "")
    sets = ", ".join(([f"({key}{cls})"] if per_class is not None else []) + [f"({key}{cls}, {x})" for x in texts])
    aggregates = "".join(f", {aggregate} AS {alias}" for alias, aggregate in per_class or ())
    kept = "g.v IS NOT NULL" if per_class is None else "(g.v IS NOT NULL OR g.o OPERATOR(pg_catalog.=) 0)"
    return Sql(
        f"SELECT {'g.f, ' if fold is not None else ''}g.cls, g.o, g.v, g.n{''.join(f', g.{a}' for a, _ in per_class or ())} "
        f"FROM (SELECT {by}{cls} AS cls, {which} AS o, "
        f"COALESCE({', '.join(texts)}) AS v, {count} AS n{aggregates} "
        f"FROM {src}{'' if where is None else f' WHERE {where}'} GROUP BY GROUPING SETS ({sets})) AS g WHERE {kept}"
    )


def _group_by(n: int) -> str:
    """GROUP BY's list of the first ``n`` output columns: 1, 2, ..."""
    return ", ".join(str(i) for i in range(1, n + 1))


def write_statistics(plpy: Plpy, training: ColumnTraining, dest: NewName) -> tuple[statistics_table.Header, int]:
    """The statistics pass of ``t`` into a new statistics table ``dest``; return its header and the training rows.

    The table has the format of :mod:`madnb_pl.release.statistics_table` (value type
    text), so that it merges and derives as any other.
    """
    s, labelled = statistics_pass(plpy, training)
    insert_cells(plpy, training, s, dest)
    plpy.execute(Sql(f"DROP TABLE {s}"))
    # the shifted pass read once, inside the UPDATE that stores it
    statistics_table.refine_far_from_zero(plpy, refinement(training), dest.sql, array_pass.Inline())
    header = exact_header(plpy, training)
    statistics_table.write_header(plpy, dest.sql, header)
    return header, labelled


def write_weighted_statistics(plpy: Plpy, training: ColumnTraining, dest: NewName) -> tuple[statistics_table.Header, int]:
    """The weighted statistics of ``training`` (madnb.train's ``weight``) into a new statistics table ``dest``; return
    its header (``weighted``) and the rows trained on.

    Every count is the sum of the rows' weights, as scikit-learn's ``sample_weight``
    weighs them: a class's (n of attr 0), a categorical value's (n), a Gaussian
    feature's present values' (nv), with their weighted mean and centred second
    moment M2 = sum w (x - mean)**2 (s2; var = M2 / (nv - 1) where nv > 1, so that
    weights all 1 give the unweighted numbers).  The Gaussian cells come from two
    scans in one statement: the weighted class means, then the deviations from
    them (the corrected two-pass formula, exact for values far from zero, where
    the unweighted pass needs its refinement).  Rows with a NULL label or weight
    are not trained on (a NOTICE counts them); a negative, NaN or infinite weight
    is 22023 (:func:`madnb_pl.inputs.columns.check_weights`).
    """
    assert training.weight is not None
    check_weights(plpy, training.source, training.label, training.weight)
    w = weight_value_sql(training.weight)
    lab = f"t.{training.label.sql}"
    src = f"{training.source.sql} AS t"
    kept = f"{lab} IS NOT NULL AND {w} IS NOT NULL"
    r = plpy.execute(
        Sql(f"SELECT pg_catalog.count(*) FILTER (WHERE {lab} IS NULL) AS unlabelled, "
            f"pg_catalog.count(*) FILTER (WHERE {kept}) AS labelled, "
            f"COALESCE(pg_catalog.sum({w}) FILTER (WHERE {kept}), '0'::{F8}) AS total FROM {src}")
    )[0]
    _weighted_rows(plpy, training, int(r["unlabelled"]), int(r["labelled"]))
    if not r["total"] > 0:
        raise MadnbError(
            "22023", f"the weights of the rows of {training.source.display} sum to 0",
            detail=f'weight column "{training.weight.name}"', hint="give some rows a weight > 0",
        )
    statistics_table.create_table(plpy, dest, training.shape(), weighted=True)
    exact = "::pg_catalog.text::pg_catalog.numeric"  # a float8 sum's shortest text: the numeric is that double exactly
    n = f"pg_catalog.sum({w})"
    parts = [f"SELECT {lab}, 0, NULL::pg_catalog.text, ({n}){exact}, NULL::pg_catalog.numeric, NULL::{F8}, NULL::{F8}, "
             f"NULL::pg_catalog.numeric FROM {src} WHERE {kept} GROUP BY 1"]
    cat = [i for i, f in enumerate(training.features, start=1) if not f.gaussian]
    if cat:
        texts = [(i, str(column_text_sql(f"t.{training.features[i - 1].column.sql}", training.features[i - 1]))) for i in cat]
        parts += [
            f"SELECT g.cls, g.o, g.v, (g.n){exact}, NULL, NULL, NULL, NULL FROM ({counts}) AS g WHERE g.cls IS NOT NULL"
            for counts in value_counts_branches(lab, src, texts, 1, where=kept, count=n)
        ]
    execute_wide(plpy, Sql(f"INSERT INTO {dest.sql} (cls, attr, value, n, nv, mean, var, s2) {' UNION ALL '.join(parts)}"))
    if training.numeric:
        xs = {j: str(gaussian_value_sql(f"t.{training.features[j - 1].column.sql}", training.features[j - 1])) for j in training.numeric}
        means = _weighted_means(w, xs)
        aggs, cells = [], []
        for j, (wj, c, s_, q_) in _weighted_sums(w, xs, "m").items():
            aggs.append(f"{wj} AS w{j}, {c} AS c{j}, {s_} AS s{j}, {q_} AS q{j}")
            cells.append(f"({j}, g.w{j}, g.c{j}, g.s{j}, g.q{j})")
        moments = (
            f"WITH m AS (SELECT {lab} AS cls, {means} FROM {src} WHERE {kept} GROUP BY 1) "
            f"SELECT {lab} AS cls, {', '.join(aggs)} FROM {src} JOIN m ON m.cls OPERATOR(pg_catalog.=) {lab} "
            f"WHERE {kept} GROUP BY 1"
        )
        mean, m2 = _mean_and_m2("x.w", "x.c", "x.s", "x.q")
        plpy.execute(
            Sql(f"INSERT INTO {dest.sql} (cls, attr, value, n, nv, mean, var, s2) "
                f"SELECT g.cls, x.j, NULL, NULL, COALESCE(x.w, '0'::{F8}){exact}, "
                f"{mean}, "
                f"CASE WHEN x.w OPERATOR(pg_catalog.>) '1'::{F8} THEN {m2} OPERATOR(pg_catalog./) (x.w OPERATOR(pg_catalog.-) '1'::{F8}) END, "
                f"({m2}){exact} "
                f"FROM ({moments}) AS g CROSS JOIN LATERAL (VALUES {', '.join(cells)}) AS x(j, w, c, s, q)")
        )
        refuse_infinite(plpy, training, f"{dest.sql} AS s CROSS JOIN LATERAL (VALUES (s.attr, s.mean, s.var)) AS x(j, m, v)", "s.nv IS NOT NULL")
    header = dataclasses.replace(exact_header(plpy, training), weighted=True)
    statistics_table.write_header(plpy, dest.sql, header)
    return header, int(r["labelled"])


def _weighted_rows(plpy: Plpy, training: ColumnTraining, unlabelled: int, labelled: int) -> None:
    """A weighted pass's rows: a NOTICE counts the unlabelled ones; none labelled with a weight is 22023."""
    assert training.weight is not None
    if unlabelled:
        plpy.notice(
            f"{unlabelled} row(s) of {training.source.display} with a NULL label were ignored", detail=f'label "{training.label.name}"',
        )
    if not labelled:
        raise MadnbError(
            "22023", f"source {training.source.display} has no rows with a non-NULL label and weight",
            detail=f'label "{training.label.name}", weight "{training.weight.name}"', hint="train on a table with at least one such row",
        )


def weighted_fold_pass(plpy: Plpy, training: ColumnTraining, fold: str) -> tuple[str, int]:
    """:func:`write_weighted_statistics`' statistics grouped by ``fold`` (an SQL expression over row ``t``) too, into
    a temporary table; return its name and the rows trained on (cross-validation with sample weights).

    Its rows (f, cls, o, v, r, n, w{j}, m{j}, q{j}, c{j}, u{j}, p{j}): o = 0 per fold and class the rows
    trained on r (a NULL label or weight: not trained on; cls NULL: the rows without a label, counted) and the
    sum of their weights n, and per Gaussian feature j the weights' sum of its present values w{j}, their
    weighted mean m{j} and centred second moment q{j} (:func:`write_weighted_statistics`' two scans, grouped by
    fold too), and the unweighted count c{j}, mean u{j} and centred second moment p{j} of the values (what
    GaussianNB's epsilon is computed from: :func:`complement_max_variance`); o > 0 per fold, class and
    categorical value v the sum of the weights n.  :func:`insert_weighted_complement` merges the other folds'.
    """
    assert training.weight is not None
    if len(training.numeric) > MAX_WEIGHTED_FOLD_GAUSSIAN:
        raise MadnbError(
            "54000", f"{len(training.numeric)} Gaussian features are more than a weighted madnb.cross_validate supports "
            f"({MAX_WEIGHTED_FOLD_GAUSSIAN})",
            hint="cross-validate from a view with fewer numeric columns, name some of them in categorical, or leave out weight",
        )
    check_weights(plpy, training.source, training.label, training.weight)
    w = weight_value_sql(training.weight)
    lab = f"t.{training.label.sql}"
    # the rows trained on, their fold computed once per row (a sub-select: each scan below reads it)
    feats = "".join(f", t.{f.column.sql} AS a{i}" for i, f in enumerate(training.features, start=1))
    # (a labelled row of NULL weight is left out here; an unlabelled one is counted for the NOTICE, as training does)
    rows = (f"(SELECT {fold} AS f, {lab} AS l, {w} AS wt{feats} FROM {training.source.sql} AS t "
            f"WHERE {lab} IS NULL OR {w} IS NOT NULL OFFSET 0)")
    cat = [i for i, f in enumerate(training.features, start=1) if not f.gaussian]
    with_rows, rows = fold_rows(rows, len(cat))
    src, kept = f"{rows} AS t", "t.l IS NOT NULL"
    xs = {j: str(gaussian_value_sql(f"t.a{j}", training.features[j - 1])) for j in training.numeric}
    nulls = "".join(f", NULL::{F8}, NULL::{F8}, NULL::{F8}, NULL::pg_catalog.int8, NULL::{F8}, NULL::{F8}" for _ in xs)
    n = "pg_catalog.sum(t.wt)"
    first = f"SELECT t.f, t.l AS cls, 0 AS o, NULL::pg_catalog.text AS v, pg_catalog.count(*) AS r, {n} AS n"
    if xs:
        means = _weighted_means("t.wt", xs)
        aggs = []
        sums = _weighted_sums("t.wt", xs, "m")
        for j, x in xs.items():
            wj, c, s_, q_ = sums[j]
            mean, m2 = _mean_and_m2(wj, c, s_, q_)
            aggs.append(
                f"{wj} AS w{j}, {mean} AS m{j}, {m2} AS q{j}, pg_catalog.count({x}) AS c{j}, pg_catalog.avg({x}) AS u{j}, "
                f"pg_catalog.var_pop({x}) OPERATOR(pg_catalog.*) pg_catalog.count({x})::{F8} AS p{j}"
            )
        first = (
            f"{first}, {', '.join(aggs)} FROM {src} LEFT JOIN (SELECT t.f, t.l, {means} FROM {src} WHERE {kept} GROUP BY 1, 2) AS m "
            f"ON m.f OPERATOR(pg_catalog.=) t.f AND m.l OPERATOR(pg_catalog.=) t.l GROUP BY 1, 2"
        )
    else:
        first += f" FROM {src} GROUP BY 1, 2"
    parts = [first]
    if cat:
        texts = [(i, str(column_text_sql(f"t.a{i}", training.features[i - 1]))) for i in cat]
        # the fold as a sub-select's column (value_counts_sql: the planner then hashes every grouping set)
        gs_src = f"{src} CROSS JOIN LATERAL (SELECT t.f OFFSET 0) AS x(f)"
        parts += [
            f"SELECT g.f, g.cls, g.o, g.v, NULL::pg_catalog.int8, g.n{nulls} FROM ({counts}) AS g"
            for counts in value_counts_branches("t.l", gs_src, texts, 1, fold="x.f", where=kept, count=n)
        ]
    s = temp_name("madnb_wfold_")
    execute_wide(plpy, Sql(f"CREATE TEMPORARY TABLE {s} ON COMMIT DROP AS {with_rows}{' UNION ALL '.join(parts)}"))
    r = plpy.execute(
        Sql(f"SELECT COALESCE(pg_catalog.sum(s.r) FILTER (WHERE s.cls IS NULL), 0)::pg_catalog.int8 AS unlabelled, "
            f"COALESCE(pg_catalog.sum(s.r) FILTER (WHERE s.cls IS NOT NULL), 0)::pg_catalog.int8 AS labelled, "
            f"COALESCE(pg_catalog.sum(s.n) FILTER (WHERE s.cls IS NOT NULL), '0'::{F8}) AS total FROM {s} AS s WHERE s.o OPERATOR(pg_catalog.=) 0")
    )[0]
    _weighted_rows(plpy, training, int(r["unlabelled"]), int(r["labelled"]))
    if xs:  # the unweighted moments: any value of a row trained on, weight 0 too
        per_feature = ", ".join(f"({j}, s.u{j}, s.p{j})" for j in xs)
        refuse_infinite(plpy, training, f"{s} AS s CROSS JOIN LATERAL (VALUES {per_feature}) AS x(j, m, v)",
                        "s.o OPERATOR(pg_catalog.=) 0 AND s.cls IS NOT NULL")
    return s, int(r["labelled"])


def insert_weighted_complement(plpy: Plpy, training: ColumnTraining, s: str, dest: NewName, fold: int) -> statistics_table.Header:
    """Create weighted statistics table ``dest`` (:func:`write_weighted_statistics`' cells) of the rows of
    :func:`weighted_fold_pass`'s table ``s`` outside fold ``fold``; return its header (written).

    Sums of weights add; a Gaussian cell is the merge of the folds' weighted moments (Chan's formula with weights:
    mean = sum w_g m_g / W, M2 = sum q_g + w_g (m_g - mean)**2), its var M2 / (W - 1) where W > 1.
    """
    exact = "::pg_catalog.text::pg_catalog.numeric"  # a float8 sum's shortest text, as write_weighted_statistics
    others = f"s.cls IS NOT NULL AND s.f IS NOT NULL AND s.f OPERATOR(pg_catalog.<>) {int(fold)}"
    statistics_table.create_table(plpy, dest, training.shape(), weighted=True)
    plpy.execute(
        Sql(f"INSERT INTO {dest.sql} (cls, attr, value, n, nv, mean, var, s2) "
            f"SELECT s.cls, s.o, s.v, (pg_catalog.sum(s.n)){exact}, NULL, NULL, NULL, NULL FROM {s} AS s "
            f"WHERE {others} GROUP BY 1, 2, 3")
    )
    if training.numeric:
        cells = ", ".join(f"({j}, s.w{j}, s.m{j}, s.q{j})" for j in training.numeric)
        g = (f"SELECT s.cls, x.j, x.w, x.m, x.q FROM {s} AS s CROSS JOIN LATERAL (VALUES {cells}) AS x(j, w, m, q) "
             f"WHERE {others} AND s.o OPERATOR(pg_catalog.=) 0")
        mean = _ratio("pg_catalog.sum(g.w OPERATOR(pg_catalog.*) g.m)", "pg_catalog.sum(g.w)")
        total = f"SELECT g.cls, g.j, pg_catalog.sum(g.w) AS w, {mean} AS m FROM g GROUP BY 1, 2"
        d = "(g.m OPERATOR(pg_catalog.-) c.m)"
        # parenthesised: OPERATOR(...) forms all have one precedence, left to right
        m2 = f"pg_catalog.sum(g.q OPERATOR(pg_catalog.+) (g.w OPERATOR(pg_catalog.*) {d} OPERATOR(pg_catalog.*) {d}))"
        plpy.execute(
            Sql(f"INSERT INTO {dest.sql} (cls, attr, value, n, nv, mean, var, s2) "
                f"WITH g AS ({g}), c AS ({total}) "
                f"SELECT c.cls, c.j, NULL, NULL, COALESCE(pg_catalog.min(c.w), '0'::{F8}){exact}, pg_catalog.min(c.m), "
                f"CASE WHEN pg_catalog.min(c.w) OPERATOR(pg_catalog.>) '1'::{F8} THEN COALESCE({m2}, '0'::{F8}) "
                f"OPERATOR(pg_catalog./) (pg_catalog.min(c.w) OPERATOR(pg_catalog.-) '1'::{F8}) END, (COALESCE({m2}, '0'::{F8})){exact} "
                f"FROM c LEFT JOIN g ON g.cls OPERATOR(pg_catalog.=) c.cls AND g.j OPERATOR(pg_catalog.=) c.j "
                f"AND g.w OPERATOR(pg_catalog.>) '0'::{F8} GROUP BY 1, 2")
        )
    header = dataclasses.replace(exact_header(plpy, training), weighted=True)
    statistics_table.write_header(plpy, dest.sql, header)
    return header


def complement_max_variance(plpy: Plpy, training: ColumnTraining, s: str, folds: int) -> list[float]:
    """Per fold f (1 to ``folds``) the largest population variance of a Gaussian feature over the rows of
    :func:`weighted_fold_pass`'s table ``s`` outside fold f, unweighted (GaussianNB's ``np.var(X, axis=0).max()``,
    which ignores the sample weights, as :func:`madnb_pl.models.kinds.table.derive_kind` reads it for training):
    the folds' and classes' counts, means and centred second moments merged by Chan's formula (0 for a feature
    without values)."""
    cells = ", ".join(f"({j}, s.c{j}, s.u{j}, s.p{j})" for j in training.numeric)
    rows = plpy.execute(
        Sql(f"SELECT s.f, x.j, x.c, x.u, x.p FROM {s} AS s CROSS JOIN LATERAL (VALUES {cells}) AS x(j, c, u, p) "
            "WHERE s.cls IS NOT NULL AND s.f IS NOT NULL AND s.o OPERATOR(pg_catalog.=) 0 AND x.c OPERATOR(pg_catalog.>) 0")
    )
    out = []
    for f in range(1, folds + 1):
        merged: dict[int, tuple[float, float, float]] = {}
        for r in rows:
            if int(r["f"]) == f:
                continue
            nb, mb, qb = float(r["c"]), float(r["u"]), float(r["p"])
            na, ma, qa = merged.get(int(r["j"]), (0.0, 0.0, 0.0))
            n = na + nb
            delta = mb - ma
            merged[int(r["j"])] = (n, ma + delta * nb / n, qa + qb + delta * delta * na * nb / n)
        out.append(max((q / n for n, _m, q in merged.values()), default=0.0))
    return out


def _weighted_means(w: str, xs: dict[int, str]) -> str:
    """The first scan of the weighted Gaussian cells: per Gaussian feature j (value ``xs[j]``, weight ``w``) the
    weighted mean of its present values, ``c{j}`` (:func:`write_weighted_statistics`, :func:`weighted_fold_pass`)."""
    return ", ".join(
        f"{_ratio(f'pg_catalog.sum({w} OPERATOR(pg_catalog.*) {x})', f'pg_catalog.sum({w}) FILTER (WHERE {x} IS NOT NULL)')} AS c{j}"
        for j, x in xs.items()
    )


def _weighted_sums(w: str, xs: dict[int, str], m: str) -> dict[int, tuple[str, str, str, str]]:
    """The second scan's aggregates per Gaussian feature j, over the first scan's means ``{m}.c{j}``: the present
    values' weight w, the mean c, and the weighted sums of the deviations s and of their squares q."""
    out = {}
    for j, x in xs.items():
        d = f"({x} OPERATOR(pg_catalog.-) {m}.c{j})"
        out[j] = (f"pg_catalog.sum({w}) FILTER (WHERE {x} IS NOT NULL)", f"pg_catalog.min({m}.c{j})",
                  f"pg_catalog.sum({w} OPERATOR(pg_catalog.*) {d})", f"pg_catalog.sum({w} OPERATOR(pg_catalog.*) {d} OPERATOR(pg_catalog.*) {d})")
    return out


def _mean_and_m2(w: str, c: str, s: str, q: str) -> tuple[str, str]:
    """A weighted Gaussian cell's mean and centred second moment from :func:`_weighted_sums`' w, c, s, q:
    mean = c + s / w and M2 = q - s**2 / w (s: the rounding of c, nearly 0; the corrected two-pass formula)."""
    return (f"{c} OPERATOR(pg_catalog.+) {_ratio(s, w)}",
            f"GREATEST({q} OPERATOR(pg_catalog.-) {_ratio(f'{s} OPERATOR(pg_catalog.*) {s}', w)}, '0'::{F8})")


def _ratio(a: str, b: str) -> str:
    """a / b, NULL where b is not > 0 (a class whose present values all weigh 0 has no mean)."""
    return f"CASE WHEN ({b}) OPERATOR(pg_catalog.>) '0'::{F8} THEN ({a}) OPERATOR(pg_catalog./) ({b}) END"


def exact_header(plpy: Plpy, training: ColumnTraining) -> statistics_table.Header:
    """The header of a fresh exact statistics table of ``t`` (a new id): :func:`madnb_pl.release.statistics_table.exact_header`
    of its shape."""
    return statistics_table.exact_header(training.shape(), statistics_table.now(plpy))


def statistics_pass(plpy: Plpy, training: ColumnTraining, fold: str | None = None) -> tuple[str, int]:
    """Run :func:`stats_select` into a temporary table and check it; return its name and the labelled rows.

    A NOTICE counts the rows with a NULL label; no labelled row, or an infinite
    Gaussian value, is an error.
    """
    overflow = MadnbError(
        "22003", f"a numeric feature of {training.source.display} holds values too large for its mean and variance in float8",
        hint="Gaussian features need values whose squares fit a float8 (about within +-1e154): "
        "rescale the column in a view, or make the feature categorical",
    )
    rels = array_pass.TempTables(plpy, {array_pass.PASS: "madnb_colstats_"})
    procs = 1 if fold is not None else grouping_branches(plpy, len(_grouped(training)))
    with without_jit(plpy):  # its expressions grow with the columns (execute_wide)
        rels.fill(array_pass.Scan(array_pass.PASS, stats_select(training, fold, procs), gather_factor(training, fold), overflow))
    s = rels.read(array_pass.PASS)
    r = plpy.execute(
        Sql("SELECT COALESCE(pg_catalog.sum(s.n) FILTER (WHERE s.cls IS NULL AND s.o OPERATOR(pg_catalog.=) 0), 0)::pg_catalog.int8 AS unlabelled, "
        "COALESCE(pg_catalog.sum(s.n) FILTER (WHERE s.cls IS NOT NULL AND s.o OPERATOR(pg_catalog.=) 0), 0)::pg_catalog.int8 AS labelled "
        f"FROM {s} AS s")
    )[0]
    if r["unlabelled"]:
        plpy.notice(
            f"{r['unlabelled']} row(s) of {training.source.display} with a NULL label were ignored", detail=f'label "{training.label.name}"',
        )
    if r["labelled"] == 0:
        raise MadnbError(
            "22023", f"source {training.source.display} has no rows with a non-NULL label",
            detail=f'label "{training.label.name}"', hint="train on a table with at least one labelled row",
        )
    if training.numeric:
        # every Gaussian feature in one query: the first (in feature order) whose mean or variance is not finite
        per_feature = ", ".join(f"({j}, s.m{j}, s.v{j})" for j in training.numeric)
        refuse_infinite(plpy, training, f"{s} AS s CROSS JOIN LATERAL (VALUES {per_feature}) AS x(j, m, v)",
                        "s.o OPERATOR(pg_catalog.=) 0 AND s.cls IS NOT NULL")
    return s, int(r["labelled"])


def refuse_infinite(plpy: Plpy, training: ColumnTraining, cells: str, where: str) -> None:
    """22003 naming the first Gaussian feature (in feature order) whose mean or variance is not finite, every feature
    in one query: a feature holds an infinite value.  ``cells``: a FROM list of rows ``s`` (class ``s.cls``) and ``x``
    (feature ``x.j``, its mean ``x.m`` and variance ``x.v``); ``where``: the cells to check."""
    f8 = F8
    bad = plpy.execute(
        Sql(f"SELECT x.j, {label_text_sql('s.cls', training)} AS cls FROM {cells} "
            f"WHERE {where} "
            f"AND (x.m OPERATOR(pg_catalog.=) ANY (ARRAY['NaN', 'Infinity', '-Infinity']::{f8}[]) "
            f"OR x.v OPERATOR(pg_catalog.=) ANY (ARRAY['NaN', 'Infinity']::{f8}[])) ORDER BY x.j LIMIT 1")
    )
    if bad:
        raise MadnbError(
            "22003", f'feature "{training.features[int(bad[0]["j"]) - 1].name}" of {training.source.display} has an infinite value',
            detail=f"label {bad[0]['cls']}",
            hint="Gaussian features need finite values: replace an infinity by NULL (a missing value) or clip it",
        )


def cells_select(training: ColumnTraining, s: str, fold: bool = False) -> Sql:
    """The labelled cells of pass table ``s`` as a statistics table's columns (cls, attr, value, n, nv, mean, var):
    the class rows, the categorical cells, the Gaussian cells; with ``fold`` (a pass grouped by fold) each cell's
    fold f first."""
    f8, i8 = F8, "pg_catalog.int8"
    f = "s.f, " if fold else ""
    labelled = "s.cls IS NOT NULL"
    # the Gaussian cells from the per-class rows in one scan (a scan of the pass table per feature: 300 Gaussian
    # and 1,298 text columns, 500 rows, 14.9 s)
    per_feature = ", ".join(f"({j}, s.c{j}, s.m{j}, s.v{j})" for j in training.numeric)
    numeric_cells = "" if not per_feature else (
        f" UNION ALL SELECT {f}s.cls, x.j, NULL, NULL, x.c, x.m, x.v FROM {s} AS s "
        f"CROSS JOIN LATERAL (VALUES {per_feature}) AS x(j, c, m, v) WHERE {labelled} AND s.o OPERATOR(pg_catalog.=) 0"
    )
    return Sql(
        f"SELECT {f}s.cls, 0, NULL, s.n, NULL::{i8}, NULL::{f8}, NULL::{f8} FROM {s} AS s "
        f"WHERE {labelled} AND s.o OPERATOR(pg_catalog.=) 0 "
        f"UNION ALL SELECT {f}s.cls, s.o, s.v, s.n, NULL, NULL, NULL FROM {s} AS s "
        f"WHERE {labelled} AND s.o OPERATOR(pg_catalog.>) 0 AND s.v IS NOT NULL"
        + numeric_cells
    )


def insert_cells(plpy: Plpy, training: ColumnTraining, s: str, dest: NewName) -> None:
    """Create statistics table ``dest`` and fill it with the labelled cells of pass table ``s`` (:func:`cells_select`)."""
    statistics_table.create_table(plpy, dest, training.shape())
    execute_wide(plpy, Sql(f"INSERT INTO {dest.sql} (cls, attr, value, n, nv, mean, var) {cells_select(training, s)}"))


def refinement(training: ColumnTraining) -> statistics_table.Refinement:
    """The refinement of the Gaussian cells of ``t`` far from zero (:func:`madnb_pl.release.statistics_table.refine_steps`),
    reading the feature columns of ``t.source``."""
    return statistics_table.Refinement(
        source=training.source.sql, cls=training.label.sql, numeric=training.numeric,
        value=lambda j: gaussian_value_sql(f"t.{training.features[j - 1].column.sql}", training.features[j - 1]),
        odd=None, pinned=True,
    )
