"""Named models in the benchmark: madnb.train from columns and the generated prediction functions (issue 12).

The bench tables are attribute arrays; each is copied into a column version
(``<table>_cols``: id primary key, class, a1 .. aN) before timing.  Figures, each
paired with the usual baseline run of the array table (``sum(v)`` over
``unnest(attributes)``):

* ``model_train``: ``madnb.train`` from the column table (categorical columns
  named in ``categorical``, numeric ones Gaussian);
* ``model_predict``: batch prediction materialised,
  ``CREATE TABLE ... AS SELECT id, <model>_predict(t) FROM <table>_cols t``
  (target <= 2.5x; PostgreSQL runs the inlined prediction in parallel workers);
* ``model_evaluate``: ``madnb.evaluate(<model>, <table>_cols)``, each run paired
  with one batch probability pass ``CREATE TEMP TABLE ... AS SELECT
  <model>_predict_proba_array(t) FROM <table>_cols t`` instead of the baseline:
  its ratio is **evaluate / proba pass** (target <= 1.2x: every row scored once);
* ``model_one_row``: one row of a 1,000,000-row table selected by primary key and
  predicted, median of 1,000 prepared queries from the client (target <= 2 ms;
  not a ratio).

    python -m bench.models [--only cat200k,num200k,mixed200k]   # its own cluster; results in bench/results/models.md

``bench.run`` calls :func:`run` for the figure group ``models``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql

import madnb
from madnb._cluster import LocalCluster

from .datagen import DATASETS, SUPPORT_SQL, Dataset
from .timing import Budget, Figure, measure, timed

RESULTS = Path(__file__).resolve().parent / "results"
TABLES = ("cat200k", "num200k", "mixed200k")
ONE_ROW_TABLE = "mixed1m"
ONE_ROW_QUERIES = 1000
TARGET_PREDICT = 2.5
TARGET_EVALUATE = 1.2  # x one batch <model>_predict_proba_array pass
TARGET_ONE_ROW_MS = 2.0
OUT = sql.Identifier("bench_model_pred")
PROBA_OUT = sql.Identifier("bench_model_proba")


def columns_sql(d: Dataset, name: str) -> str:
    cols = ", ".join(f"attributes[{j}]{'::int' if d.kind == 'mixed' and j not in d.numeric else ''} AS a{j}" for j in range(1, d.num_attrs + 1))
    return f"CREATE TABLE {name} AS SELECT id, class, {cols} FROM {d.name}"


def model_of(d: Dataset) -> str:
    return f"bench_{d.name}"


def train_call(d: Dataset) -> tuple[sql.Composable, tuple[Any, ...]]:
    categorical = [f"a{j}" for j in range(1, d.num_attrs + 1) if j not in d.numeric]
    return (
        sql.SQL("SELECT madnb.train(%s, %s, 'class', exclude => ARRAY['id'], categorical => %s::text[], replace => true)"),
        (model_of(d), f"{d.name}_cols", categorical),
    )


def _base_run(conn: psycopg.Connection[Any], d: Dataset) -> Any:
    q = sql.SQL("SELECT sum(v) FROM {}, unnest(attributes) AS v").format(sql.Identifier(d.name))
    return lambda: timed(lambda: conn.execute(q))


def proba_pass(conn: psycopg.Connection[Any], model: str, table: str) -> Any:
    """One batch probability pass of ``model`` over ``table``, materialised in a temporary table (dropped first, untimed)."""
    q = sql.SQL("CREATE TEMP TABLE {} AS SELECT {}(t) AS p FROM {} AS t").format(
        PROBA_OUT, sql.Identifier("madnb_models", f"{model}_predict_proba_array"), sql.Identifier(table))

    def run() -> float:
        conn.execute(sql.SQL("DROP TABLE IF EXISTS {}").format(PROBA_OUT))
        return timed(lambda: conn.execute(q))

    return run


def evaluate_figure(conn: psycopg.Connection[Any], model: str, table: str, reps: int, budget: Budget) -> Figure:
    """``madnb.evaluate(model, table)``, each run paired with one :func:`proba_pass` (the figure's ratio is evaluate / pass)."""
    q = sql.SQL("SELECT madnb.evaluate(%s, %s)")
    return measure(lambda: timed(lambda: conn.execute(q, (model, table)).fetchone()), reps, budget, proba_pass(conn, model, table))


def _row(d: Dataset, figure: str, fig: Figure, target: float | None, note: str = "", **more: Any) -> dict[str, Any]:
    row = {
        "dataset": d.name, "kind": d.kind, "figure": figure, "median_s": fig.median, "runs_s": fig.runs, "runs": len(fig.runs),
        "target_runs": fig.target_runs, "warmup_discarded": fig.warmup, "ratio": fig.ratio, "baseline_runs_s": fig.base_runs,
        "target": target, "note": note,
    }
    row.update(more)
    r = "" if fig.ratio is None else f"{fig.ratio:.2f}x"
    print(f"  {d.name:10s} {figure:22s} {fig.median * 1000:9.2f} ms  {r:>8s}  ({len(fig.runs)} runs)", flush=True)
    return row


def run(conn: psycopg.Connection[Any], datasets: list[Dataset], budget: Budget, reps: int = 5) -> list[dict[str, Any]]:
    """The figures of every dataset in TABLES among ``datasets``, then the one-row latency (rows as bench.run's)."""
    rows: list[dict[str, Any]] = []
    done: list[Dataset] = []
    for d in datasets:
        if d.name not in TABLES:
            continue
        cols = f"{d.name}_cols"
        conn.execute(sql.SQL("DROP TABLE IF EXISTS {}").format(sql.Identifier(cols)))
        conn.execute(columns_sql(d, cols))
        conn.execute(sql.SQL("ALTER TABLE {} ADD PRIMARY KEY (id)").format(sql.Identifier(cols)))
        conn.execute(sql.SQL("VACUUM ANALYZE {}").format(sql.Identifier(cols)))
        base = _base_run(conn, d)
        base()  # read once
        tq, tp = train_call(d)
        fig = measure(lambda tq=tq, tp=tp: timed(lambda: conn.execute(tq, tp)), reps, budget, base)
        rows.append(_row(d, "model_train", fig, None, "madnb.train from the column table"))
        fn = sql.Identifier("madnb_models", f"{model_of(d)}_predict")
        q = sql.SQL("CREATE TABLE {} AS SELECT t.id, {}(t) AS p FROM {} AS t").format(OUT, fn, sql.Identifier(cols))

        def predict(q: sql.Composed = q) -> float:
            conn.execute(sql.SQL("DROP TABLE IF EXISTS {}").format(OUT))
            return timed(lambda: conn.execute(q))

        fig = measure(predict, reps, budget, base)
        plan = "\n".join(r[0] for r in conn.execute(sql.SQL("EXPLAIN ") + sql.SQL("SELECT t.id, {}(t) FROM {} AS t").format(fn, sql.Identifier(cols))))
        workers = "Gather" in plan
        acc = conn.execute(sql.SQL("SELECT avg((p.p = t.class)::int)::float8 FROM {} p JOIN {} t USING (id)").format(
            OUT, sql.Identifier(cols))).fetchone()[0]
        rows.append(_row(d, "model_predict", fig, TARGET_PREDICT, "CREATE TABLE AS SELECT id, <model>_predict(t)",
                         parallel=workers, accuracy=acc))
        fig = evaluate_figure(conn, model_of(d), cols, reps, budget)
        rows.append(_row(d, "model_evaluate", fig, TARGET_EVALUATE,
                         "madnb.evaluate × one batch <model>_predict_proba_array pass (CREATE TEMP TABLE AS), not × baseline"))
        done.append(d)
    mixed = next((d for d in done if d.kind == "mixed"), None)
    if mixed is not None:
        rows.append(one_row(conn, mixed))
    return rows


def one_row(conn: psycopg.Connection[Any], model_data: Dataset) -> dict[str, Any]:
    """One row of a 1,000,000-row table by primary key: median latency of ONE_ROW_QUERIES prepared queries."""
    big = Dataset(ONE_ROW_TABLE, 1_000_000, model_data.kind, model_data.num_attrs, model_data.numeric)
    cols = f"{big.name}_cols"
    if conn.execute("SELECT to_regclass(%s) IS NULL", (cols,)).fetchone()[0]:
        conn.execute(sql.SQL("DROP TABLE IF EXISTS {}").format(sql.Identifier(big.name)))
        conn.execute(big.create_sql())
        conn.execute(columns_sql(big, cols))
        conn.execute(sql.SQL("DROP TABLE {}").format(sql.Identifier(big.name)))
        conn.execute(sql.SQL("ALTER TABLE {} ADD PRIMARY KEY (id)").format(sql.Identifier(cols)))
        conn.execute(sql.SQL("VACUUM ANALYZE {}").format(sql.Identifier(cols)))
    fn = sql.Identifier("madnb_models", f"{model_of(model_data)}_predict")
    q = sql.SQL("SELECT {}(t) FROM {} AS t WHERE t.id = %s").format(fn, sql.Identifier(cols))
    plan = "\n".join(r[0] for r in conn.execute(sql.SQL("EXPLAIN ") + q, (1,)))
    cur = conn.cursor()
    for i in range(200):  # warm the cache and the prepared plan
        cur.execute(q, (1 + i * 4999,), prepare=True).fetchone()
    times = []
    for i in range(ONE_ROW_QUERIES):
        key = 1 + (i * 7919) % 1_000_000
        t = time.perf_counter()
        cur.execute(q, (key,), prepare=True).fetchone()
        times.append(time.perf_counter() - t)
    fig = Figure([statistics.median(times)], 1, False)
    return _row(big, "model_one_row", fig, None,
                f"median of {ONE_ROW_QUERIES} prepared queries by primary key (target ≤ {TARGET_ONE_ROW_MS} ms), "
                f"model trained on {model_data.name}", index_scan="Index Scan" in plan,
                p90_s=sorted(times)[int(0.9 * len(times))])


def markdown(rows: list[dict[str, Any]], meta: dict[str, Any]) -> str:
    L = [
        "# madnb benchmark: named models (madnb.train, generated prediction functions)",
        "",
        f"Command: `python -m bench.models` (also the `models` figure group of `make bench`). Date: {meta['date']}. "
        f"PostgreSQL {meta['server_version']}, {meta['nproc']} cores, default settings of `LocalCluster(fast=True)` "
        "(jit on, max_parallel_workers_per_gather = 2).",
        "",
        "Ratios are medians of per-pair ratios to the baseline `SELECT sum(v) FROM t, unnest(attributes) v` of the "
        "array table, as in bench/results/latest.md.",
        "",
        "| table | figure | median | runs | × baseline | target | meets | note |",
        "|---|---|---:|---:|---:|---:|:--:|---|",
    ]
    for r in rows:
        ratio = "" if r["ratio"] is None else f"{r['ratio']:.2f}×"
        if r["figure"] == "model_one_row":
            tgt, ok = f"≤ {TARGET_ONE_ROW_MS} ms", "yes" if r["median_s"] * 1000 <= TARGET_ONE_ROW_MS else "**no**"
            extra = f"; p90 {r['p90_s'] * 1000:.2f} ms; index scan: {r['index_scan']}"
        elif r["target"] is not None:
            tgt, ok = f"≤ {r['target']:.1f}×", "yes" if r["ratio"] is not None and r["ratio"] <= r["target"] else "**no**"
            extra = f"; parallel plan: {r['parallel']}; accuracy {r['accuracy']:.4f}" if "parallel" in r else ""
        else:
            tgt, ok, extra = "", "", ""
        L.append(f"| {r['dataset']} | {r['figure']} | {r['median_s'] * 1000:.2f} ms | {r['runs']} | {ratio} | {tgt} | {ok} | {r['note']}{extra} |")
    return "\n".join(L) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.models", description=__doc__.splitlines()[0])
    ap.add_argument("--only", default=",".join(TABLES), help="comma-separated tables among " + ", ".join(TABLES))
    ap.add_argument("--budget", type=float, default=20.0)
    ap.add_argument("--out", type=Path, default=RESULTS)
    args = ap.parse_args(argv)
    names = [n for n in TABLES if n in args.only.split(",")]
    budget = Budget(per_figure=args.budget, deadline=600.0)
    import datetime as dt
    import os

    with LocalCluster(fast=True) as pg, psycopg.connect(pg.url, autocommit=True) as conn:
        madnb.install(conn)
        conn.execute(SUPPORT_SQL)
        for n in names:
            conn.execute(DATASETS[n].create_sql())
            conn.execute(sql.SQL("VACUUM ANALYZE {}").format(sql.Identifier(n)))
        meta = {"date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"), "nproc": os.cpu_count(),
                "server_version": conn.execute("SHOW server_version").fetchone()[0]}
        rows = run(conn, [DATASETS[n] for n in names], budget)
    args.out.mkdir(parents=True, exist_ok=True)
    md = markdown(rows, meta)
    (args.out / "models.md").write_text(md, encoding="utf-8")
    (args.out / "models.json").write_text(json.dumps({"meta": meta, "figures": rows}, indent=2) + "\n", encoding="utf-8")
    print(md)
    return 0


if __name__ == "__main__":
    sys.exit(main())
