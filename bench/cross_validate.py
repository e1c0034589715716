"""madnb.cross_validate in the benchmark: 5-fold cross-validation of mixed200k's column table.

Figures (ratios to the usual baseline, ``sum(v)`` over ``unnest(attributes)`` of
the array table, run just before each timed run):

* ``model_train``: ``madnb.train`` from the column table (for comparison);
* ``cross_validate``: ``madnb.cross_validate(..., folds => 5)`` on the same table:
  one statistics pass grouped by fold, five complement models derived from sums of
  statistics, one scoring pass.

    python -m bench.cross_validate     # its own cluster, about 30 s; prints a markdown table
"""

from __future__ import annotations

import sys
from typing import Any

import psycopg
from psycopg import sql

import madnb
from madnb._cluster import LocalCluster

from .datagen import DATASETS, SUPPORT_SQL
from .models import _base_run, columns_sql
from .timing import Budget, measure, timed

TABLE = "mixed200k"


def main() -> int:
    d = DATASETS[TABLE]
    cols = f"{d.name}_cols"
    categorical = [f"a{j}" for j in range(1, d.num_attrs + 1) if j not in d.numeric]
    budget = Budget(per_figure=12.0, deadline=120.0)
    with LocalCluster(fast=True) as pg, psycopg.connect(pg.url, autocommit=True) as conn:
        madnb.install(conn)
        conn.execute(SUPPORT_SQL)
        conn.execute(d.create_sql())
        conn.execute(columns_sql(d, cols))
        conn.execute(sql.SQL("ALTER TABLE {} ADD PRIMARY KEY (id)").format(sql.Identifier(cols)))
        conn.execute(sql.SQL("VACUUM ANALYZE {}, {}").format(sql.Identifier(d.name), sql.Identifier(cols)))
        base = _base_run(conn, d)
        base()
        calls: list[tuple[str, str, tuple[Any, ...]]] = [
            ("model_train", "SELECT madnb.train('bench_cv', %s, 'class', exclude => ARRAY['id'], "
             "categorical => %s::text[], replace => true)", (cols, categorical)),
            ("cross_validate", "SELECT * FROM madnb.cross_validate(%s, 'class', exclude => ARRAY['id'], "
             "categorical => %s::text[], key => 'id', folds => 5)", (cols, categorical)),
        ]
        print(f"| {TABLE} ({d.rows} rows) | median | × baseline |\n|---|---:|---:|")
        for name, q, params in calls:
            fig = measure(lambda q=q, params=params: timed(lambda: conn.execute(q, params)), 3, budget, base)
            print(f"| {name} | {fig.median:.2f} s | {fig.ratio:.2f}× |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
