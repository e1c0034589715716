"""madnb.forget of 1,000 rows of adult against retraining on the rows left (issue 22, point 2).

On UCI Adult (../shared/data: 32,561 training rows; every column but fnlwgt, as
the README's Quick start trains it), in one throwaway cluster: the model
``adult_nb`` is trained once; then each timed ``madnb.forget('adult_nb',
'erased')`` (1,000 rows chosen by the hash of their id) is paired with a timed
``madnb.train('adult_rest', 'remaining', ...)`` of the 31,561 rows left, run just
before it (bench/timing.py: the ratio is the median of the per-pair ratios).
Each forget runs in a transaction rolled back afterwards, so every run forgets
from the same model (the rollback is not timed).  The forget's cost is the
1,000 rows' statistics pass and the model's cells, plus what every training pays
whatever its rows (deriving the model tables, writing the prediction functions,
the catalog row and the version); retraining reads every row.  The same is
measured on adult ten times over (325,610 rows, the same 1,000 forgotten), where
retraining reads ten times the rows and forgetting the same.

    python -m bench.forget [--runs 5]     # writes bench/results/forget.md
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

import psycopg

import madnb
from madnb._cluster import LocalCluster

from .timing import Budget, measure, pairs, write_page

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
RESULTS = ROOT / "bench" / "results" / "forget.md"
COLUMNS = (
    "age int, workclass text, fnlwgt int, education text, education_num int, marital_status text, occupation text, "
    "relationship text, race text, sex text, capital_gain int, capital_loss int, hours_per_week int, "
    "native_country text, income text"
)
FORGOTTEN = 1000


def load(conn: psycopg.Connection[Any]) -> None:
    conn.execute(f"CREATE TABLE adult ({COLUMNS})")
    with conn.cursor().copy("COPY adult FROM STDIN WITH (FORMAT csv, HEADER, NULL '?')") as copy:
        copy.write((DATA / "adult_train.csv").read_bytes())
    conn.execute("ALTER TABLE adult ADD COLUMN id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY")
    conn.execute(f"CREATE TABLE erased AS SELECT * FROM adult ORDER BY pg_catalog.md5(id::text) LIMIT {FORGOTTEN}")
    conn.execute("CREATE TABLE remaining AS SELECT * FROM adult WHERE id NOT IN (SELECT id FROM erased)")
    conn.execute("CREATE TABLE adult_x10 AS SELECT a.* FROM adult AS a CROSS JOIN pg_catalog.generate_series(1, 10)")
    conn.execute("CREATE TABLE remaining_x10 AS SELECT * FROM adult_x10 WHERE id NOT IN (SELECT id FROM erased) "
                 "UNION ALL SELECT e.* FROM erased AS e CROSS JOIN pg_catalog.generate_series(1, 9)")
    for table in ("adult", "erased", "remaining", "adult_x10", "remaining_x10"):
        conn.execute(f"ANALYZE {table}")


def forget(conn: psycopg.Connection[Any], model: str) -> float:
    """One madnb.forget, in a transaction rolled back afterwards (untimed)."""
    conn.execute("BEGIN")
    t = time.perf_counter()
    conn.execute("SELECT madnb.forget(%s, 'erased')", [model])
    seconds = time.perf_counter() - t
    conn.execute("ROLLBACK")
    return seconds


def retrain(conn: psycopg.Connection[Any], source: str) -> float:
    t = time.perf_counter()
    conn.execute("SELECT madnb.train('adult_rest', %s, 'income', exclude => ARRAY['fnlwgt', 'id'], replace => true)", [source])
    return time.perf_counter() - t


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.forget", description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args(argv)
    with LocalCluster(fast=True) as pg, psycopg.connect(pg.url, autocommit=True) as conn:
        madnb.install(conn)
        load(conn)
        conn.execute("SELECT madnb.train('adult_nb', 'adult', 'income', exclude => ARRAY['fnlwgt', 'id'])")
        conn.execute("SELECT madnb.train('adult_x10_nb', 'adult_x10', 'income', exclude => ARRAY['fnlwgt', 'id'])")
        load_before = os.getloadavg()
        budget = Budget(per_figure=300.0, deadline=1200.0)
        fig = measure(lambda: forget(conn, "adult_nb"), args.runs, budget, baseline=lambda: retrain(conn, "remaining"))
        fig10 = measure(lambda: forget(conn, "adult_x10_nb"), args.runs, budget, baseline=lambda: retrain(conn, "remaining_x10"))
        load_after = os.getloadavg()
    retrain_median = sorted(fig.base_runs)[len(fig.base_runs) // 2]
    retrain10 = sorted(fig10.base_runs)[len(fig10.base_runs) // 2]
    lines = [
        "# madnb.forget: 1,000 rows of adult against retraining without them",
        "",
        "`python -m bench.forget` (bench/forget.py's docstring says what is timed): UCI Adult, 32,561 training rows, "
        "13 features; one throwaway cluster; each forget paired with a retraining run just before it.",
        "",
        "| path | median | runs | / retraining, median of per-pair ratios |",
        "|---|---:|---:|---:|",
        f"| retrain on the 31,561 rows left (`madnb.train ... replace => true`) | {retrain_median:.3f} s | {len(fig.base_runs)} | 1 |",
        f"| `madnb.forget('adult_nb', 'erased')`, 1,000 rows | {fig.median:.3f} s | {len(fig.runs)} | {fig.ratio:.3f}x |",
        f"| adult ten times over: retrain on the 324,610 rows left | {retrain10:.3f} s | {len(fig10.base_runs)} | 1 |",
        f"| adult ten times over: forget the same 1,000 rows | {fig10.median:.3f} s | {len(fig10.runs)} | {fig10.ratio:.3f}x |",
        "",
        f"Pairs forget / retrain: {pairs(fig)}; "
        f"ten times over: {pairs(fig10)}.",
    ]
    return write_page(RESULTS, lines, load_before, load_after)


if __name__ == "__main__":
    sys.exit(main())
