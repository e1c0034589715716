"""The face users meet first, on issue 19's column table: madnb.train and the generated functions against their floors.

The table is mixed200k (bench/datagen.py) as ordinary columns (bench.evaluate's
``eval_text``): 200,000 rows, c1 .. c10 text (10 values each), f1 .. f5 float8,
class 0 / 1 / 2.  Every figure is the median of per-pair ratios, each timed run
preceded by a run of its baseline (:func:`bench.timing.measure`), in one session:

=====================  ==========================================================  ========
figure                 against (the baseline of each pair)                         target
=====================  ==========================================================  ========
col_train              the same statistics in plain SQL: one ``GROUP BY GROUPING   <= 1.3x
                       SETS ((class, c1), ..., (class, c10))`` and one ``GROUP BY
                       class`` with count / avg / var_samp of f1 .. f5
col_proba              (``CREATE TABLE AS SELECT id, <m>_predict_proba_array(t)``)  <= 2.5x
                       the unnest scan of the same 15 values as an array
                       (``SELECT sum(v) FROM mixed200k, unnest(attributes) v``)
col_predict            (``CREATE TABLE AS SELECT id, <m>_predict(t)``) the scan     <= 2.5x
col_evaluate           one batch ``_predict_proba_array`` pass (CREATE TEMP TABLE)  <= 1.2x
col_cross_validate     ``madnb.cross_validate``, 5 folds, against train + predict   <= 2x
                       (col_predict's CREATE TABLE AS) once
col_private_train      ``madnb.train`` with epsilon => 1, public bounds and domain  <= 1.5x
                       against the exact ``madnb.train``
col_vs_export          train + predict (col_predict's statement) against the        <= 0.5x
                       export path: fetch the rows (binary), encode the text
                       columns, ``CategoricalNB(alpha=1)`` + ``GaussianNB()``
                       fitted and predicting, COPY (id, prediction) back
col_floor_vs_export    its floor: the plain-SQL statistics + predict's 20
                       dictionary lookups alone (no Gaussian term, no arg-max),
                       against the same export path
col_cv_floor           the floor of col_cross_validate: col_train's two plain-SQL
                       statements grouped by each row's fold too (``madnb.fold`` of
                       the row's text, the default key) + col_predict's statement
                       with each row's fold beside its prediction, against the
                       same train + predict once
col_cv_key             col_cross_validate with ``key => 'id'`` (each row's fold
                       the md5 of its id's text, not of the whole row's), against
                       the same train + predict once (for reference)
=====================  ==========================================================  ========

Printed beside them: the plain scan of the text table with its 15 values as a
text array (a second, cheaper-to-beat scan); where batch prediction's time goes
(each part of the generated expression alone, × the scan: the dictionary lookups,
the per-row log-sum-exp); EXPLAIN (ANALYZE, BUFFERS) of the probability pass and
of the training floor, and of col_cv_floor's three statements.

    python -m bench.column_table [--runs 5] [--out bench/results]   # its own cluster, about 5 minutes on 2 cores
    python -m bench.column_table --only-cv [--runs 5]               # col_cross_validate alone, printed; its plans
                                                                    # (auto_explain) in bench/results/cross_validate_explain.md
    python -m bench.column_table --only-private [--runs 5]          # col_private_train alone, printed

``bench.run`` calls :func:`run` for the figure group ``columns``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import psycopg
from psycopg import sql

import madnb
from madnb._cluster import LocalCluster

from .datagen import DATASETS, SUPPORT_SQL
from .evaluate import text_table_sql, uptime
from .models import TARGET_EVALUATE, evaluate_figure
from .timing import Budget, Figure, measure, timed

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "plpython"))
from madnb_pl.models.cross_validation import ROW_KEY, fold_sql  # noqa: E402, I001

SOURCE = "mixed200k"
TABLE = "col_text"
MODEL = "bench_col"
PRIVATE = "bench_col_dp"
NCAT, NNUM, NCLASSES = 10, 5, 3
RESULTS = Path(__file__).resolve().parent / "results"
OUT = sql.Identifier("bench_col_pred")
EXPORT_OUT = "bench_col_export"
TARGETS = {
    "col_train": 1.3, "col_proba": 2.5, "col_predict": 2.5, "col_evaluate": TARGET_EVALUATE, "col_cross_validate": 2.0,
    "col_private_train": 1.5, "col_vs_export": 0.5,
}
CAT = [f"c{j}" for j in range(1, NCAT + 1)]
NUM = [f"f{j}" for j in range(1, NNUM + 1)]


COMPUTED = "SELECT count(s.*) FROM "
"""How a floor's statement returns one row and still computes every column of its sub-select: ``count(s.*)`` reads the
whole row.  Over ``count(*)`` the planner replaces the sub-select's unused outputs by NULL and drops their aggregates
(EXPLAIN VERBOSE: ``Output: class, NULL::bigint, NULL::double precision, ...``): until 2026-12-07 the floors' avg and
var_samp were never computed (col_train's Gaussian statement 18 ms instead of 40)."""


def floor_queries(table: str) -> list[sql.Composed]:
    """The statistics madnb.train computes, in plain SQL (the floor of col_train), every aggregate computed
    (:data:`COMPUTED`)."""
    t = sql.Identifier(table)
    sets = sql.SQL(", ").join(sql.SQL("(class, {})").format(sql.Identifier(c)) for c in CAT)
    cats = sql.SQL(", ").join(sql.Identifier(c) for c in CAT)
    aggs = sql.SQL(", ").join(
        sql.SQL("count({c}), avg({c}), var_samp({c})").format(c=sql.Identifier(c)) for c in NUM
    )
    return [
        sql.SQL(COMPUTED + "(SELECT class, {}, count(*) FROM {} GROUP BY GROUPING SETS ({})) AS s").format(cats, t, sets),
        sql.SQL(COMPUTED + "(SELECT class, count(*), {} FROM {} GROUP BY class) AS s").format(aggs, t),
    ]


FOLD = str(fold_sql(ROW_KEY, 5, 0))
"""Each row's fold as madnb.cross_validate computes it (its own rule) with the default key (the row's text form), 5 folds,
seed 0."""


def cv_floor_queries(table: str) -> list[sql.Composed]:
    """The floor of col_cross_validate, without a model per fold: col_train's two plain-SQL statements grouped by each
    row's fold too (the fold in a sub-select below the grouping, computed once per row of each), and col_predict's
    statement with each row's fold beside its prediction (a cross-validation scores each row with one model, its
    fold's).  Every aggregate computed (:data:`COMPUTED`); the Gaussian ones in a ``GROUP BY fold, class`` of their
    own, as col_train's floor: in the grouping sets as well (madnb's one pass, which keeps them in one aggregate,
    madnb._moments), avg and var_samp make PostgreSQL sort every set but one (1.0 s instead of 0.3 + 0.25 s)."""
    t = sql.Identifier(table)
    rows = sql.SQL("(SELECT " + FOLD + " AS f, t.* FROM {} AS t OFFSET 0) AS r").format(t)
    sets = sql.SQL(", ").join(sql.SQL("(r.f, r.class, r.{})").format(sql.Identifier(c)) for c in CAT)
    cats = sql.SQL(", ").join(sql.SQL("r.{}").format(sql.Identifier(c)) for c in CAT)
    aggs = sql.SQL(", ").join(sql.SQL("count(r.{c}), avg(r.{c}), var_samp(r.{c})").format(c=sql.Identifier(c)) for c in NUM)
    return [
        sql.SQL(COMPUTED + "(SELECT r.f, r.class, {}, count(*) FROM {} GROUP BY GROUPING SETS ({})) AS s").format(cats, rows, sets),
        sql.SQL(COMPUTED + "(SELECT r.f, r.class, count(*), {} FROM {} GROUP BY r.f, r.class) AS s").format(aggs, rows),
        sql.SQL("CREATE TABLE {} AS SELECT t.id, " + FOLD + " AS f, {}(t) AS p FROM {} AS t").format(
            OUT, sql.Identifier("madnb_models", f"{MODEL}_predict"), t),
    ]


def cv_floor_run(conn: psycopg.Connection[Any]) -> Any:
    """col_cv_floor's statements, timed; the statistics under the per-fold pass's settings (a tenth of
    parallel_tuple_cost: its fold computed in a parallel worker, as madnb's, column_pass.gather_factor; jit off)."""
    *stats, predict = cv_floor_queries(TABLE)

    def run() -> float:
        conn.execute(sql.SQL("DROP TABLE IF EXISTS {}").format(OUT))
        conn.execute("SET parallel_tuple_cost = 0.01")
        conn.execute("SET jit = off")
        t = timed(lambda: [conn.execute(q) for q in stats])
        conn.execute("RESET parallel_tuple_cost")
        conn.execute("RESET jit")
        return t + timed(lambda: conn.execute(predict))

    return run


def run_all(conn: psycopg.Connection[Any], queries: list[Any], params: tuple[Any, ...] | None = None) -> Any:
    return lambda: timed(lambda: [conn.execute(q, params) for q in queries])


def train_call(model: str, private: bool = False, table: str = TABLE) -> tuple[sql.Composed, tuple[Any, ...]]:
    if not private:
        return sql.SQL("SELECT madnb.train(%s, %s, 'class', exclude => ARRAY['id'], replace => true)").format(), (model, table)
    bounds = {c: [-10, 10] for c in NUM}
    domain = {"class": [0, 1, 2], **{c: [str(v) for v in range(10)] for c in CAT}}
    return (
        sql.SQL("SELECT madnb.train(%s, %s, 'class', exclude => ARRAY['id'], replace => true, epsilon => 1, "
                "bounds => %s::jsonb, domain => %s)").format(),
        (model, table, json.dumps(bounds), json.dumps(domain)),
    )


def predict_statement(fn: str) -> sql.Composed:
    return sql.SQL("CREATE TABLE {} AS SELECT t.id, {}(t) AS p FROM {} AS t").format(
        OUT, sql.Identifier("madnb_models", f"{MODEL}_{fn}"), sql.Identifier(TABLE))


def predict_run(conn: psycopg.Connection[Any], fn: str) -> Any:
    q = predict_statement(fn)

    def run() -> float:
        conn.execute(sql.SQL("DROP TABLE IF EXISTS {}").format(OUT))
        return timed(lambda: conn.execute(q))

    return run


def export_run(conn: psycopg.Connection[Any], table: str = TABLE, dest: str = EXPORT_OUT) -> float:
    """The export path of a column table, timed: fetch, encode, fit, predict, COPY back into ``dest`` (dropped first, untimed)."""
    from sklearn.naive_bayes import CategoricalNB, GaussianNB

    conn.execute(sql.SQL("DROP TABLE IF EXISTS {}").format(sql.Identifier(dest)))
    t0 = time.perf_counter()
    cols = sql.SQL(", ").join(sql.Identifier(c) for c in ["id", "class", *CAT, *NUM])
    with conn.cursor(binary=True) as cur:
        cur.execute(sql.SQL("SELECT {} FROM {}").format(cols, sql.Identifier(table)))
        rows = cur.fetchall()
    n = len(rows)
    ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=n)
    y = np.fromiter((r[1] for r in rows), dtype=np.int64, count=n)
    Xc = np.empty((n, NCAT), dtype=np.int64)
    for j in range(NCAT):
        _, Xc[:, j] = np.unique(np.array([r[2 + j] for r in rows], dtype=object).astype(str), return_inverse=True)
    Xn = np.array([r[2 + NCAT:] for r in rows], dtype=np.float64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cat, gauss = CategoricalNB(alpha=1.0).fit(Xc, y), GaussianNB().fit(Xn, y)
        jll = cat.predict_joint_log_proba(Xc) + gauss.predict_joint_log_proba(Xn) - cat.class_log_prior_
    pred = cat.classes_[np.argmax(jll, axis=1)]
    conn.execute(sql.SQL("CREATE TABLE {} (id integer, prediction integer)").format(sql.Identifier(dest)))
    with conn.cursor() as cur, cur.copy(sql.SQL("COPY {} (id, prediction) FROM STDIN").format(sql.Identifier(dest))) as cp:
        cp.write("".join(f"{i}\t{p}\n" for i, p in zip(ids.tolist(), pred.tolist(), strict=True)))
    return time.perf_counter() - t0


def _row(figure: str, fig: Figure, against: str, **more: Any) -> dict[str, Any]:
    row = {
        "dataset": TABLE, "kind": "columns", "figure": figure, "median_s": fig.median, "runs_s": fig.runs, "runs": len(fig.runs),
        "target_runs": fig.target_runs, "warmup_discarded": fig.warmup, "ratio": fig.ratio, "baseline_runs_s": fig.base_runs,
        "baseline_median_s": sorted(fig.base_runs)[len(fig.base_runs) // 2] if fig.base_runs else None,
        "target": TARGETS.get(figure), "note": against,
    }
    row.update(more)
    r = "" if fig.ratio is None else f"{fig.ratio:.2f}x"
    print(f"  {TABLE:10s} {figure:22s} {fig.median * 1000:9.1f} ms  {r:>8s}  ({len(fig.runs)} runs)", flush=True)
    return row


def setup(conn: psycopg.Connection[Any]) -> None:
    """The array table mixed200k (the scans' source) and its column copy."""
    d = DATASETS[SOURCE]
    conn.execute(SUPPORT_SQL)
    if conn.execute("SELECT to_regclass(%s) IS NULL", (d.name,)).fetchone()[0]:
        conn.execute(d.create_sql())
    conn.execute(sql.SQL("DROP TABLE IF EXISTS {}").format(sql.Identifier(TABLE)))
    conn.execute(text_table_sql(TABLE))
    conn.execute(sql.SQL("ALTER TABLE {} ADD PRIMARY KEY (id)").format(sql.Identifier(TABLE)))
    conn.execute(sql.SQL("VACUUM ANALYZE {}, {}").format(sql.Identifier(TABLE), sql.Identifier(d.name)))


def cross_validate_figure(conn: psycopg.Connection[Any], budget: Budget, reps: int) -> list[dict[str, Any]]:
    """col_cross_validate (madnb.cross_validate, 5 folds), col_cv_floor and col_cv_key, each × train + predict once."""
    tq, tp = train_call(MODEL)
    train = run_all(conn, [tq], tp)
    predict = predict_run(conn, "predict")

    def train_predict() -> float:
        return train() + predict()

    cv = sql.SQL("SELECT count(*) FROM madnb.cross_validate(%s, 'class', exclude => ARRAY['id'], folds => 5, seed => 0)")
    by_id = sql.SQL("SELECT count(*) FROM madnb.cross_validate(%s, 'class', exclude => ARRAY['id'], folds => 5, seed => 0, key => 'id')")
    return [
        _row("col_cross_validate", measure(lambda: timed(lambda: conn.execute(cv, (TABLE,))), reps, budget, train_predict),
             "madnb.cross_validate 5 folds × train + predict once"),
        _row("col_cv_floor", measure(cv_floor_run(conn), reps, budget, train_predict),
             "the floor of col_cross_validate: the plain-SQL statistics grouped by each row's fold too + predict with each "
             "row's fold (no model per fold, no metrics) × train + predict once"),
        _row("col_cv_key", measure(lambda: timed(lambda: conn.execute(by_id, (TABLE,))), reps, budget, train_predict),
             "madnb.cross_validate 5 folds, key => 'id' (the fold the md5 of the id's text, not of the row's) × train + predict once"),
    ]


def private_figure(conn: psycopg.Connection[Any], budget: Budget, reps: int) -> dict[str, Any]:
    """col_private_train: madnb.train with epsilon => 1, public bounds and domain × the exact madnb.train."""
    tq, tp = train_call(MODEL)
    pq, pp = train_call(PRIVATE, private=True)
    conn.execute(tq, tp)  # loads madnb's Python in this session (a no-op after run's first training)
    return _row("col_private_train", measure(run_all(conn, [pq], pp), reps, budget, run_all(conn, [tq], tp)),
                "madnb.train epsilon => 1, public bounds and domain × exact madnb.train")


def cross_validate_plans(conn: psycopg.Connection[Any], pg: LocalCluster) -> str:
    """EXPLAIN (ANALYZE) of madnb.cross_validate's statements on the column table that take 100 ms or more (its
    statistics pass and its scoring pass), through auto_explain (the bench's own cluster: a superuser), as markdown."""
    before = len(pg.log())
    conn.execute("LOAD 'auto_explain'")
    for name, value in (("log_min_duration", "100"), ("log_analyze", "on"), ("log_nested_statements", "on")):
        conn.execute(f"SET auto_explain.{name} = {value}")
    t0 = time.perf_counter()
    conn.execute(sql.SQL("SELECT count(*) FROM madnb.cross_validate(%s, 'class', exclude => ARRAY['id'], folds => 5, seed => 0)"), (TABLE,))
    total = time.perf_counter() - t0
    conn.execute("RESET auto_explain.log_min_duration")
    time.sleep(1)
    plans = [line[:400] for line in pg.log()[before:].splitlines()
             if "duration:" in line or "Query Text" in line or line.startswith(("\t", " "))]
    return ("# madnb.cross_validate on the column table: where the time goes\n\n"
            f"`python -m bench.column_table --only-cv`: one call (5 folds, the default key: each row's text form) took {total:.2f} s "
            "under auto_explain's ANALYZE (which adds to it); its statements of 100 ms or more, from the server log "
            "(lines cut at 400 characters):\n\n```\n" + "\n".join(plans) + "\n```\n")


def run(conn: psycopg.Connection[Any], budget: Budget, reps: int = 5) -> list[dict[str, Any]]:
    """Every figure of the module's docstring (rows as bench.run's)."""
    setup(conn)
    rows: list[dict[str, Any]] = []
    floor = run_all(conn, floor_queries(TABLE))
    scan = run_all(conn, [sql.SQL("SELECT sum(v) FROM {}, unnest(attributes) AS v").format(sql.Identifier(SOURCE))])
    cols = sql.SQL(", ").join([sql.Identifier(c) for c in CAT] + [sql.SQL("{}::text").format(sql.Identifier(c)) for c in NUM])
    text_scan = run_all(conn, [sql.SQL("SELECT sum(pg_catalog.length(v)) FROM {} AS t, unnest(ARRAY[{}]) AS v").format(
        sql.Identifier(TABLE), cols)])
    tq, tp = train_call(MODEL)
    conn.execute(tq, tp)  # loads madnb's Python in this session; the model exists for the other figures
    floor()
    scan()
    train = run_all(conn, [tq], tp)
    rows.append(_row("col_train", measure(train, reps, budget, floor), "plain-SQL statistics (GROUPING SETS + GROUP BY class)"))
    rows.append(_row("col_proba", measure(predict_run(conn, "predict_proba_array"), reps, budget, scan),
                     "CREATE TABLE AS SELECT id, <m>_predict_proba_array(t) × unnest scan of the same 15 values (float8[])"))
    rows.append(_row("col_proba_text_scan", measure(predict_run(conn, "predict_proba_array"), reps, budget, text_scan),
                     "the same × the unnest scan of the text table's 15 values as text[] (for reference)"))
    rows.append(_row("col_predict", measure(predict_run(conn, "predict"), reps, budget, scan),
                     "CREATE TABLE AS SELECT id, <m>_predict(t) × unnest scan"))
    rows.append(_row("col_evaluate", evaluate_figure(conn, MODEL, TABLE, reps, budget), "madnb.evaluate × one batch proba pass"))
    predict = predict_run(conn, "predict")

    def train_predict() -> float:
        return train() + predict()

    rows += cross_validate_figure(conn, budget, reps)
    rows.append(private_figure(conn, budget, reps))
    rows.append(_row("col_vs_export", measure(train_predict, reps, budget, lambda: export_run(conn)),
                     "train + predict × export path (fetch, encode, fit, predict, COPY back)"))
    lookups = sql.SQL("CREATE TABLE {} AS SELECT t.id, " + _lookups(NCLASSES - 1).replace("{", "{{").replace("}", "}}") + " AS p FROM {} AS t").format(
        OUT, sql.Identifier(TABLE))

    def floor_train_predict() -> float:
        conn.execute(sql.SQL("DROP TABLE IF EXISTS {}").format(OUT))
        return floor() + timed(lambda: conn.execute(lookups))

    rows.append(_row("col_floor_vs_export", measure(floor_train_predict, reps, budget, lambda: export_run(conn)),
                     "the floor of col_vs_export: the plain-SQL statistics + the 20 dictionary lookups of predict alone "
                     "(CREATE TABLE AS, no Gaussian term, no arg-max) × export path"))
    return rows


def _lookups(classes: int, parsed: bool = False) -> str:
    """Per row, ``classes`` dictionary lookups per text column as the generated functions make them (jsonb ->> to a
    rank written as one character, read by ascii(); ``parsed``: the rank's text cast to int4, as before; then a
    float8[] subscript), summed: the floor of a text model's scoring in one SQL expression."""
    lut = "'{" + ",".join(f"-2.30{v}" for v in range(10)) + "}'::pg_catalog.float8[]"
    if parsed:
        js = "'" + json.dumps({str(v): v + 1 for v in range(10)}) + "'::pg_catalog.jsonb"
        slot = "(" + js + " OPERATOR(pg_catalog.->>) (t.COLUMN COLLATE pg_catalog.\"C\"))::pg_catalog.int4"
    else:
        js = "'" + json.dumps({str(v): chr(v + 1) for v in range(10)}) + "'::pg_catalog.jsonb"
        slot = "pg_catalog.ascii(" + js + " OPERATOR(pg_catalog.->>) (t.COLUMN COLLATE pg_catalog.\"C\"))"
    terms = [f"COALESCE(({lut})[{slot.replace('COLUMN', c)}], 0)" for c in CAT for _ in range(classes)]
    return " OPERATOR(pg_catalog.+) ".join(terms)


FLOOR_PARTS = {
    "scan and write": "ARRAY[t.f1, t.f2, t.f3]",
    "20 dictionary lookups (2 classes x 10 text columns: what predict_proba_array and predict look up)": _lookups(2),
    "20 dictionary lookups, the rank's text cast to int4 (as before this wave)": _lookups(2, parsed=True),
    "madnb._nb_proba of 3 floats": "madnb._nb_proba(t.f1, t.f2, t.f3)",
    "madnb._nb_clear of 3 floats": "madnb._nb_clear(0, t.f1, t.f2, t.f3)",
}


def floor_evidence(conn: psycopg.Connection[Any], reps: int, budget: Budget) -> str:
    """Where batch prediction's time goes: each part alone, materialised as the figure's statement, × the scan; and
    EXPLAIN (ANALYZE, BUFFERS) of the probability pass and of the training floor (markdown)."""
    scan = run_all(conn, [sql.SQL("SELECT sum(v) FROM {}, unnest(attributes) AS v").format(sql.Identifier(SOURCE))])
    L = ["", "## Where batch prediction's time goes", "",
         "Each part alone as `CREATE TABLE ... AS SELECT t.id, <part> FROM col_text t`, × the same unnest scan, all in one "
         "process (max_parallel_workers_per_gather = 0, so that the parts' costs add up; the figures above run in "
         "parallel workers) and with jit off (a large synthetic expression would otherwise be compiled; the generated "
         "functions' plans are not):", "",
         "| part | median | ratio |", "|---|---:|---:|"]
    conn.execute("SET jit = off")
    conn.execute("SET max_parallel_workers_per_gather = 0")
    parts = dict(FLOOR_PARTS)
    parts["the whole batch probability pass (col_proba's statement)"] = f"madnb_models.{MODEL}_predict_proba_array(t)"
    for name, expr in parts.items():
        q = sql.SQL("CREATE TABLE {} AS SELECT t.id, " + expr.replace("{", "{{").replace("}", "}}") + " AS p FROM {} AS t").format(OUT, sql.Identifier(TABLE))

        def part(q: sql.Composed = q) -> float:
            conn.execute(sql.SQL("DROP TABLE IF EXISTS {}").format(OUT))
            return timed(lambda: conn.execute(q))

        fig = measure(part, reps, budget, scan)
        L.append(f"| {name} | {fig.median * 1000:.0f} ms | {fig.ratio:.2f}× |")
    conn.execute(sql.SQL("DROP TABLE IF EXISTS {}").format(OUT))
    explain = sql.SQL("EXPLAIN (ANALYZE, BUFFERS) ")
    for title, q, tuple_cost in (
        ("the batch probability pass", explain + predict_statement("predict_proba_array"), None),
        ("the training floor (plain SQL, its categorical part)", explain + floor_queries(TABLE)[0], None),
        ("col_cv_floor's categorical statistics (parallel_tuple_cost = 0.01)", explain + cv_floor_queries(TABLE)[0], "0.01"),
        ("col_cv_floor's Gaussian statistics (parallel_tuple_cost = 0.01)", explain + cv_floor_queries(TABLE)[1], "0.01"),
        ("col_cv_floor's prediction with each row's fold", explain + cv_floor_queries(TABLE)[2], None),
    ):
        conn.execute("RESET max_parallel_workers_per_gather")
        conn.execute("RESET parallel_tuple_cost" if tuple_cost is None else f"SET parallel_tuple_cost = {tuple_cost}")
        plan = "\n".join(r[0] for r in conn.execute(q))
        conn.execute(sql.SQL("DROP TABLE IF EXISTS {}").format(OUT))
        L += ["", f"EXPLAIN (ANALYZE, BUFFERS) of {title}:", "", "```", plan, "```"]
    conn.execute("RESET jit")
    conn.execute("RESET max_parallel_workers_per_gather")
    conn.execute("RESET parallel_tuple_cost")
    return "\n".join(L) + "\n"


def markdown(rows: list[dict[str, Any]], meta: dict[str, Any]) -> str:
    L = [
        "# madnb benchmark: the column table (madnb.train, generated functions, evaluate, cross-validate, export)",
        "",
        f"Command: `python -m bench.column_table` (also the `columns` figure group of `make bench`). Date: {meta['date']}. "
        f"PostgreSQL {meta['server_version']}, {meta['nproc']} cores, `LocalCluster(fast=True)`. Load before: {meta['load_before']}; "
        f"after: {meta['load_after']}.",
        "",
        f"Table `{TABLE}`: mixed200k as columns, 200,000 rows, c1 .. c10 text (10 values), f1 .. f5 float8, 3 classes. "
        "Each ratio is the median of per-pair ratios (each run after a run of what it is measured against).",
        "",
        "| figure | median | runs | against (median) | ratio | target | meets | against what |",
        "|---|---:|---:|---:|---:|---:|:--:|---|",
    ]
    for r in rows:
        tgt = r["target"]
        ok = "" if tgt is None else ("yes" if r["ratio"] <= tgt else "**no**")
        L.append(
            f"| {r['figure']} | {r['median_s'] * 1000:.0f} ms | {r['runs']} | {r['baseline_median_s'] * 1000:.0f} ms | "
            f"{r['ratio']:.2f}× | {'' if tgt is None else f'≤ {tgt}×'} | {ok} | {r['note']} |"
        )
    return "\n".join(L) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.column_table", description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--out", type=Path, default=RESULTS)
    ap.add_argument("--only-cv", action="store_true", help="only col_cross_validate, printed, and its plans in cross_validate_explain.md")
    ap.add_argument("--only-private", action="store_true", help="only col_private_train and its baseline (the exact madnb.train), printed")
    args = ap.parse_args(argv)
    with LocalCluster(fast=True) as pg, psycopg.connect(pg.url, autocommit=True) as conn:
        madnb.install(conn)
        if args.only_private:
            setup(conn)
            print(f"load before: {uptime()}", flush=True)
            row = private_figure(conn, Budget(per_figure=300.0, deadline=1200.0), args.runs)
            print(f"  against: the exact madnb.train, median {row['baseline_median_s'] * 1000:.1f} ms", flush=True)
            print(f"load after: {uptime()}", flush=True)
            return 0
        if args.only_cv:
            setup(conn)
            tq, tp = train_call(MODEL)
            conn.execute(tq, tp)  # loads madnb's Python in this session; the model the figure predicts with
            cross_validate_figure(conn, Budget(per_figure=300.0, deadline=1200.0), args.runs)  # printed by _row
            args.out.mkdir(parents=True, exist_ok=True)
            (args.out / "cross_validate_explain.md").write_text(cross_validate_plans(conn, pg))
            return 0
        before = uptime()
        budget = Budget(per_figure=120.0, deadline=1800.0)
        rows = run(conn, budget, args.runs)
        evidence = floor_evidence(conn, args.runs, budget)
        meta = {
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "server_version": conn.execute("SHOW server_version").fetchone()[0],
            "nproc": os.cpu_count(), "load_before": before, "load_after": uptime(),
        }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "column_table.json").write_text(json.dumps({"meta": meta, "rows": rows}, indent=1) + "\n")
    (args.out / "column_table.md").write_text(markdown(rows, meta) + evidence)
    print(markdown(rows, meta) + evidence)
    return 0


if __name__ == "__main__":
    sys.exit(main())
