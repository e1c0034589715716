"""madnb.feature_importance and explaining every row, against one batch probability pass (issue 22, point 1).

On UCI Adult (../shared/data: 32,561 training rows; every column but fnlwgt, as
the README's Quick start trains it), in one throwaway cluster: the model
``adult_nb`` is trained once; then, paired run by run (bench/timing.py: each run
after a baseline run, the ratio the median of the per-pair ratios):

baseline  ``CREATE TEMP TABLE x AS SELECT madnb_models.adult_nb_predict_proba_array(t) FROM adult t``
          (dropped after each run: one batch prediction pass, as bench.evaluate times it)
(a)       ``SELECT * FROM madnb.feature_importance('adult_nb', 'adult')``
(b)       the same figures as madnb computed them before it added up the terms as float8: the average of
          every row's jsonb explanation (``madnb_pl.models.importance.importance_sql``, run as it is)
(c)       ``CREATE TEMP TABLE x AS SELECT madnb_models.adult_nb_explain(t) FROM adult t``: every row's jsonb

    python -m bench.explain [--runs 5]     # writes bench/results/explain.md
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

import psycopg

import madnb
from madnb._cluster import LocalCluster

from .forget import load
from .timing import Budget, measure, pairs, timed, write_page

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "plpython"))
from madnb_pl.models.importance import importance_sql  # noqa: E402, I001

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results" / "explain.md"


def materialise(conn: psycopg.Connection[Any], select: str) -> float:
    """The time of ``CREATE TEMP TABLE x AS <select>`` (the table dropped afterwards, untimed)."""
    seconds = timed(lambda: conn.execute(f"CREATE TEMP TABLE x AS {select}"))
    conn.execute("DROP TABLE x")
    return seconds


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.explain", description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args(argv)
    with LocalCluster(fast=True) as pg, psycopg.connect(pg.url, autocommit=True) as conn:
        madnb.install(conn)
        load(conn)
        conn.execute("SELECT madnb.train('adult_nb', 'adult', 'income', exclude => ARRAY['fnlwgt', 'id'])")
        load_before = os.getloadavg()
        budget = Budget(per_figure=240.0, deadline=900.0)

        def proba() -> float:
            return materialise(conn, "SELECT madnb_models.adult_nb_predict_proba_array(t) AS p FROM adult AS t")

        importance = measure(lambda: timed(lambda: conn.execute("SELECT * FROM madnb.feature_importance('adult_nb', 'adult')")),
                             args.runs, budget, baseline=proba)
        jsonb = measure(lambda: timed(lambda: conn.execute(importance_sql("madnb_models.adult_nb_explain", "public.adult"))),
                        args.runs, budget, baseline=proba)
        explain = measure(lambda: materialise(conn, "SELECT madnb_models.adult_nb_explain(t) AS e FROM adult AS t"),
                          args.runs, budget, baseline=proba)
        load_after = os.getloadavg()
    bases = importance.base_runs + jsonb.base_runs + explain.base_runs
    proba_median = sorted(bases)[len(bases) // 2]
    lines = [
        "# madnb.feature_importance and explanations against one batch probability pass",
        "",
        "`python -m bench.explain` (bench/explain.py's docstring says what is timed): UCI Adult, 32,561 training rows, "
        "13 features, 2 classes; one throwaway cluster; each run paired with a batch `adult_nb_predict_proba_array` pass "
        "over the same table run just before it.",
        "",
        "| path | median | runs | / batch predict_proba_array, median of per-pair ratios |",
        "|---|---:|---:|---:|",
        f"| `CREATE TEMP TABLE x AS SELECT madnb_models.adult_nb_predict_proba_array(t) FROM adult t` | {proba_median:.3f} s | "
        f"{len(bases)} | 1 |",
        f"| `SELECT * FROM madnb.feature_importance('adult_nb', 'adult')` | {importance.median:.3f} s | {len(importance.runs)} | "
        f"{importance.ratio:.2f}x |",
        f"| the same, as the average of every row's jsonb explanation (before 2026-12-02) | {jsonb.median:.3f} s | {len(jsonb.runs)} | "
        f"{jsonb.ratio:.2f}x |",
        f"| `CREATE TEMP TABLE x AS SELECT madnb_models.adult_nb_explain(t) FROM adult t` | {explain.median:.3f} s | "
        f"{len(explain.runs)} | {explain.ratio:.2f}x |",
        "",
        f"Pairs feature_importance / proba: {pairs(importance, 2)}; "
        f"jsonb average / proba: {pairs(jsonb, 2)}; "
        f"explain / proba: {pairs(explain, 2)}.",
    ]
    return write_page(RESULTS, lines, load_before, load_after)


if __name__ == "__main__":
    sys.exit(main())
