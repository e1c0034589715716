"""Many features: 10,000 through the array face, and the column face up to a table's 1,600 columns (issue 19).

``python -m bench.features [--out bench/results]`` (after ``make setup``; about 4 minutes on 2 cores, its own
throwaway cluster, PostgreSQL's defaults) measures, on 2,000 rows:

* the array face (MADlib's interface): ``create_nb_prepared_data_tables`` and the classify and probs views
  (``CREATE TABLE AS SELECT * FROM <view>``) at 1,000 and 10,000 attributes, categorical (integer codes, 5 values)
  or Gaussian (float8), each against the scan of the same arrays (``SELECT sum(v) FROM t, unnest(attributes) v``)
  run just before it;
* the column face: ``madnb.train``, ``<m>_predict`` and ``<m>_predict_proba_array`` (CREATE TABLE AS),
  ``madnb.evaluate`` and ``madnb.cross_validate`` (3 folds) on tables of 200 to 1,599 text columns (10 values
  each) and of 300 float8 columns (the most Gaussian features madnb.train takes), each against the scan of the
  same values as one array per row (``SELECT count(v) FROM t, unnest(ARRAY[c1, ...]) v``).

A figure is the median of ``--runs`` runs (3), each after a run of its baseline, printed with the median of the
per-pair ratios and its cost per cell (rows x features): flat per-cell costs are linear time.  (Single runs on the
shared 2-core machine moved by up to 40 % from one run of the module to the next.)
Results: bench/results/features.md.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psycopg

import madnb
from madnb._cluster import LocalCluster

from .timing import write_page

ROWS = 2000
ARRAY_ATTRS = (1000, 10000)
TEXT_COLUMNS = (200, 400, 800, 1598)  # with id and the label: a table's 1,600 columns
FLOAT_COLUMNS = (300,)
RESULTS = Path(__file__).resolve().parent / "results"


RUNS = 3


def _timed(conn: psycopg.Connection[Any], statement: str) -> float:
    start = time.perf_counter()
    conn.execute(statement)
    return time.perf_counter() - start


def _ctas(conn: psycopg.Connection[Any], select: str) -> float:
    conn.execute("DROP TABLE IF EXISTS bench_features_out")
    return _timed(conn, f"CREATE TABLE bench_features_out AS {select}")


def array_table(conn: psycopg.Connection[Any], kind: str, attrs: int) -> str:
    """Table fa_<kind>_<attrs> (id, class 0..2, attributes int4[] of codes 0..4 or float8[]), ROWS rows."""
    name = f"fa_{kind}_{attrs}"
    value = ("((i * j + i / 7 + (i % 3) * j) % 5)" if kind == "cat"
             else "((i * j) % 97)::float8 + (i % 3) * (j % 4)")
    conn.execute(f"DROP TABLE IF EXISTS {name}")
    conn.execute(
        f"CREATE TABLE {name} AS SELECT i AS id, i % 3 AS class, ARRAY(SELECT {value} FROM generate_series(1, {attrs}) AS j) "
        f"AS attributes FROM generate_series(1, {ROWS}) AS i"
    )
    conn.execute(f"VACUUM ANALYZE {name}")
    return name


def array_figures(conn: psycopg.Connection[Any], kind: str, attrs: int, runs: int) -> list[dict[str, Any]]:
    t = array_table(conn, kind, attrs)
    scan = f"SELECT sum(v) FROM {t}, unnest(attributes) AS v"
    conn.execute(scan)  # warm the table
    conn.execute("DROP TABLE IF EXISTS bench_fa_fp, bench_fa_cp, bench_fa_np CASCADE")
    if kind == "cat":
        train = f"SELECT madnb.create_nb_prepared_data_tables('{t}', 'class', 'attributes', {attrs}, 'bench_fa_fp', 'bench_fa_cp')"
        view = f"'bench_fa_fp', 'bench_fa_cp', '{t}', 'id', 'attributes', {attrs}"
    else:
        numeric = "{" + ",".join(str(j) for j in range(1, attrs + 1)) + "}"
        train = (f"SELECT madnb.create_nb_prepared_data_tables('{t}', 'class', 'attributes', '{numeric}', {attrs}, "
                 "'bench_fa_fp', 'bench_fa_np', 'bench_fa_cp')")
        view = f"'bench_fa_fp', 'bench_fa_cp', '{t}', 'id', 'attributes', {attrs}, 'bench_fa_np'"

    def train_once() -> float:
        conn.execute("DROP TABLE IF EXISTS bench_fa_fp, bench_fa_cp, bench_fa_np CASCADE")
        return _timed(conn, train)

    rows = [_row("array", kind, attrs, "create_nb_prepared_data_tables", _pairs(lambda: _timed(conn, scan), train_once, runs))]
    for figure, view_kind in [("classify view", "classify"), ("probs view", "probs")]:
        conn.execute(f"SELECT madnb.create_nb_{view_kind}_view({view}, 'bench_fa_{view_kind}')")
        select = f"SELECT * FROM bench_fa_{view_kind}"
        rows.append(_row("array", kind, attrs, figure, _pairs(lambda: _timed(conn, scan), lambda: _ctas(conn, select), runs)))  # noqa: B023
    conn.execute(f"DROP TABLE {t}, bench_fa_fp, bench_fa_cp CASCADE")
    conn.execute("DROP TABLE IF EXISTS bench_fa_np CASCADE")
    return rows


def column_table(conn: psycopg.Connection[Any], kind: str, columns: int) -> str:
    """Table fc_<kind>_<columns> (id, y, c1 .. c<columns> text of 10 values, or float8), ROWS rows, 3 classes."""
    name = f"fc_{kind}_{columns}"
    typ = "text" if kind == "text" else "float8"
    value = ("'v' || ((i * {j} + i / 7 + (i % 3) * {j}) % 10)" if kind == "text"
             else "((i * {j}) % 97)::float8 + (i % 3) * ({j} % 4)")
    cols = ", ".join(f"c{j} {typ}" for j in range(1, columns + 1))
    conn.execute(f"DROP TABLE IF EXISTS {name}")
    conn.execute(f"CREATE TABLE {name} (id int, y text, {cols})")
    conn.execute(f"INSERT INTO {name} SELECT i, 'k' || (i % 3), {', '.join(value.format(j=j) for j in range(1, columns + 1))} "
                 f"FROM generate_series(1, {ROWS}) AS i")
    conn.execute(f"VACUUM ANALYZE {name}")
    return name


def column_figures(conn: psycopg.Connection[Any], kind: str, columns: int, runs: int) -> list[dict[str, Any]]:
    t = column_table(conn, kind, columns)
    scan = f"SELECT count(v) FROM {t} AS t, unnest(ARRAY[{', '.join(f't.c{j}' for j in range(1, columns + 1))}]) AS v"
    conn.execute(scan)
    rows = []
    for figure, statement in [
        ("madnb.train", f"SELECT madnb.train('bench_fc', '{t}', 'y', exclude => ARRAY['id'], replace => true)"),
        ("_predict", f"SELECT t.id, madnb_models.bench_fc_predict(t) FROM {t} AS t"),
        ("_predict_proba_array", f"SELECT t.id, madnb_models.bench_fc_predict_proba_array(t) FROM {t} AS t"),
        ("madnb.evaluate", f"SELECT madnb.evaluate('bench_fc', '{t}')"),
        ("madnb.cross_validate, 3 folds", f"SELECT madnb.cross_validate('{t}', 'y', exclude => ARRAY['id'], folds => 3)"),
    ]:
        rows.append(_row("column", kind, columns, figure, _pairs(
            lambda: _timed(conn, scan),
            (lambda: _ctas(conn, statement)) if figure.startswith("_") else (lambda: _timed(conn, statement)),  # noqa: B023 (called at once)
            runs,
        )))
    conn.execute("SELECT madnb.drop_model('bench_fc')")
    conn.execute(f"DROP TABLE {t}")
    return rows


def _pairs(baseline: Callable[[], float], run: Callable[[], float], runs: int) -> tuple[float, float, float]:
    """``runs`` (baseline, run) pairs: the median baseline, the median run and the median of the per-pair ratios."""
    pairs = [(baseline(), run()) for _ in range(runs)]
    return (statistics.median(b for b, _ in pairs), statistics.median(r for _, r in pairs),
            statistics.median(r / b for b, r in pairs))


def _row(face: str, kind: str, features: int, figure: str, measured: tuple[float, float, float]) -> dict[str, Any]:
    base, spent, ratio = measured
    row = {"face": face, "kind": kind, "features": features, "figure": figure, "s": spent, "baseline_s": base,
           "ratio": ratio, "us_per_cell": spent / (ROWS * features) * 1e6}
    print(f"{face:6} {kind:5} {features:6,} {figure:32} {spent:8.2f} s  {ratio:6.2f}x  "
          f"{row['us_per_cell']:7.3f} us/cell", flush=True)
    return row


def _table(rows: list[dict[str, Any]], face: str, features: str, kinds: dict[str, str]) -> list[str]:
    """The results table of one face: a line per figure."""
    return [
        f"| {features} | kind | figure | time | × the scan | µs per cell |", "|---:|---|---|---:|---:|---:|",
        *(f"| {r['features']:,} | {kinds[r['kind']]} | {r['figure']} | {r['s']:.2f} s | {r['ratio']:.2f} | {r['us_per_cell']:.3f} |"
          for r in rows if r["face"] == face),
    ]


def markdown(rows: list[dict[str, Any]], runs: int = RUNS) -> list[str]:
    settings = "PostgreSQL's defaults (work_mem 4 MB, jit = on, max_parallel_workers_per_gather 2)"
    lines = [
        "# Many features",
        "",
        f"Command: `python -m bench.features`. Date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}. "
        f"{ROWS:,} rows, 3 classes, a throwaway `LocalCluster(fast=True)`, {settings}. Each figure the median of "
        f"{runs} runs, each after a run of its baseline (the scan of the same values), its ratio the median of the "
        "per-pair ratios; a cell is a row's feature value.",
        "",
        "## The array face (MADlib's interface), 1,000 and 10,000 attributes",
        "",
        "Baseline: `SELECT sum(v) FROM t, unnest(attributes) v`. Categorical: integer codes 0..4; Gaussian: float8.",
        "",
        *_table(rows, "array", "attributes", {"cat": "categorical", "num": "Gaussian"}),
        "",
        "## The column face (`madnb.train` from ordinary columns) up to a table's 1,600 columns",
        "",
        "Limits (stated in docs/models.md): a table holds at most 1,600 columns, so at most 1,599 features beside the "
        "label; at most 300 of them Gaussian (a row of the statistics pass holds their count, mean and variance: "
        "8,160 bytes), 150 for a weighted cross-validation (six numbers each). Baseline: "
        "`SELECT count(v) FROM t, unnest(ARRAY[c1, ..., cN]) v`. Predictions: CREATE TABLE AS.",
        "",
        *_table(rows, "column", "columns", {"text": "text", "float": "float8"}),
        "",
        "Before this round the column face was quadratic in the text columns, and superlinear beyond about 200: "
        "1,598 text columns, 2,000 rows trained in 131.8 s (400: 22 s), and more than 831 text columns did not "
        "cross-validate at all (\"number of columns (1802) exceeds limit (1664)\" from the per-fold pass's one query "
        "of grouping sets; with a Gaussian column too, \"target lists can have at most 1664 entries\" from the "
        "scoring query, which carried each value beside its dictionary slot). The causes, each measured on its statement alone: the planner sizes every "
        "hashed grouping set by the width of the whole input row, so past about 100 sets in one query it sorted most "
        "of them, each a sort of every row (now at most 32 sets per query, 16 grouped by fold too: `column_pass.MAX_SETS`); jit = on compiled the statistics query in every process, 21 of its "
        "27 s (the column face's statements run with jit off: `core.sql.without_jit`); reading a model's "
        "dictionaries for its generated functions took one aggregate per feature over every feature's values (1.64 s "
        "of a 4.27 s training at 1,598 columns; one row per feature now); cross-validation computed each row's fold "
        "(the md5 of the row's text) once per query of grouping sets (one CTE now) and grouped the rows to score by "
        "sorting them on every lookup (1.83 s at 800 columns: rows are grouped only up to 64 lookups). With 300 "
        "Gaussian columns the statistics table was filled by a scan per Gaussian feature (14.9 s of a 19.7 s "
        "training, 1,298 text and 300 float8 columns, 500 rows; one scan now).",
        "",
    ]
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=RESULTS)
    parser.add_argument("--runs", type=int, default=RUNS)
    args = parser.parse_args(argv)
    runs = max(1, args.runs)
    before = os.getloadavg()
    rows: list[dict[str, Any]] = []
    with LocalCluster(fast=True) as pg, psycopg.connect(pg.url, autocommit=True) as conn:
        madnb.install(conn)
        for kind in ("cat", "num"):
            for attrs in ARRAY_ATTRS:
                rows += array_figures(conn, kind, attrs, runs)
        for columns in TEXT_COLUMNS:
            rows += column_figures(conn, "text", columns, runs)
        for columns in FLOAT_COLUMNS:
            rows += column_figures(conn, "float", columns, runs)
    args.out.mkdir(parents=True, exist_ok=True)
    return write_page(args.out / "features.md", markdown(rows, runs), before, os.getloadavg())


if __name__ == "__main__":
    raise SystemExit(main())
