"""What JIT compiles in the MADlib face's classify view at a million rows: the view against its floor.

On num1m (1,000,000 rows × 10 Gaussian attributes, 3 classes) the classify view's
plan costs more than ``jit_above_cost`` (100,000, PostgreSQL's default), and JIT,
on by default, compiles it in every process; num200k's plan stays below.  This
times ``CREATE TABLE ... AS SELECT * FROM`` the view against make bench's baseline
(median of ``--runs``, paired run by run), and prints and writes EXPLAIN (ANALYZE, BUFFERS)
of it (its JIT lines among them), and of the same per-row expression with the model's numbers as
constants (bench.floors' hand-written floor of view_num, :func:`bench.floors.argmax_select`
over :func:`bench.floors.gaussian_terms`), and of the view with its model read
replaced by a scan of that model's one row, copied into a table (:func:`one_row_model`:
the fewest model-reading nodes a view could have, a measuring device and not a
view madnb makes, whose model would not follow the tables), each with jit on and
with jit off. Most of what JIT compiles is the view's model-reading nodes, which
read the model tables live inside the view's plan (with the view owner's rights);
the third statement measures how much of the view's time a model read of fewer
nodes could save.

    python -m bench.jit_views [--runs 5] [--out bench/results]   # its own cluster, about two minutes
"""

from __future__ import annotations

import argparse
import re
import time
from pathlib import Path
from typing import Any

import psycopg

import madnb
from madnb._cluster import LocalCluster

from . import floors, timing
from .datagen import DATASETS, SUPPORT_SQL

RESULTS = Path(__file__).resolve().parent / "results"
TABLE = "num1m"
VIEW = "bench_jit_classify"
OUT = "bench_jit_out"
MODEL_ROW = "bench_jit_model_row"
ONE_ROW_VIEW = "bench_jit_classify_one_row"
BASELINE = f"SELECT sum(v) FROM {TABLE}, unnest(attributes) AS v"
"""make bench's baseline of the views (bench.floors' view_num): one pass over every element of the table."""
BUDGET = timing.Budget(per_figure=120.0, deadline=3600.0)
"""Room for every run asked (a statement and its baseline take about 3 s on num1m)."""


def one_row_model(conn: psycopg.Connection[Any], view: str, table: str, out_view: str) -> None:
    """``out_view``: the prepared classify view ``view`` with its model read (the sub-select its source joins as
    ``m``) replaced by a scan of ``table``, that sub-select's one row copied; the rest of the view as it is."""
    text = conn.execute("SELECT pg_catalog.pg_get_viewdef(%s::regclass, false)", (view,)).fetchone()[0]
    found = re.search(r"JOIN \( ?SELECT DISTINCT ON \(mm\.checked\)", text)
    assert found, "the view's model row is not where bench.jit_views looks for it"
    start = found.start() + len("JOIN ")
    depth = 0
    for end in range(start, len(text)):
        depth += {"(": 1, ")": -1}.get(text[end], 0)
        if depth == 0:
            break
    conn.execute(f"CREATE TABLE {table} AS SELECT * FROM {text[start:end + 1]} AS m")
    conn.execute(f"ANALYZE {table}")
    conn.execute(f"CREATE VIEW {out_view} AS {text[:start]}(SELECT * FROM {table}){text[end + 1:]}")


def plan_lines(conn: psycopg.Connection[Any], query: str, jit: str) -> list[str]:
    """EXPLAIN (ANALYZE, BUFFERS) of ``CREATE TABLE OUT AS query`` under ``jit``: the whole plan, its JIT lines
    (functions compiled, compile times) among them."""
    conn.execute(f"DROP TABLE IF EXISTS {OUT}")
    conn.execute(f"SET jit = {jit}")
    try:
        return [r[0] for r in conn.execute(f"EXPLAIN (ANALYZE, BUFFERS) CREATE TABLE {OUT} AS {query}")]
    finally:
        conn.execute("RESET jit")
        conn.execute(f"DROP TABLE IF EXISTS {OUT}")


def timed_figure(conn: psycopg.Connection[Any], query: str, jit: str, baseline: str, runs: int) -> timing.Figure:
    """``CREATE TABLE OUT AS query`` under ``jit``, without EXPLAIN, measured as make bench measures (bench.timing:
    ``runs`` runs after a discarded warm-up, each paired with a run of ``baseline`` just before it, both under
    ``jit``; the ratio the median of the pairs' ratios)."""

    def run() -> float:
        conn.execute(f"DROP TABLE IF EXISTS {OUT}")
        return timing.timed(lambda: conn.execute(f"CREATE TABLE {OUT} AS {query}"))

    conn.execute(f"SET jit = {jit}")
    try:
        return timing.measure(run, runs, BUDGET, lambda: timing.timed(lambda: conn.execute(baseline)))
    finally:
        conn.execute("RESET jit")
        conn.execute(f"DROP TABLE IF EXISTS {OUT}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.jit_views", description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=RESULTS)
    ap.add_argument("--runs", type=int, default=5, help="timed runs of each statement (each after a baseline run)")
    args = ap.parse_args(argv)
    d = DATASETS[TABLE]
    with LocalCluster(fast=True) as pg, psycopg.connect(pg.url, autocommit=True) as conn:
        madnb.install(conn)
        conn.execute(SUPPORT_SQL)
        conn.execute(d.create_sql())
        conn.execute(f"VACUUM ANALYZE {TABLE}")
        floors.prepare(conn, TABLE)  # the prepared tables as bench.floors' view_num makes them
        conn.execute(floors.view_sql(TABLE, VIEW))
        one_row_model(conn, VIEW, MODEL_ROW, ONE_ROW_VIEW)
        floor = floors.argmax_select(TABLE, floors.gaussian_terms(conn, d.num_attrs))
        conn.execute(f"CREATE TABLE {OUT} AS SELECT * FROM {VIEW}")  # warm: the table and the model read once
        conn.execute(f"DROP TABLE {OUT}")
        L = ["# What JIT compiles in the classify view at a million rows", "",
             f"Command: `python -m bench.jit_views`. Date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}. "
             f"PostgreSQL {conn.execute('SHOW server_version').fetchone()[0]}, `LocalCluster(fast=True)`, jit_above_cost "
             f"{conn.execute('SHOW jit_above_cost').fetchone()[0]}. Table {TABLE}: 1,000,000 rows × 10 Gaussian attributes, "
             "3 classes. For each statement, as make bench measures (bench.timing): the median of "
             f"{args.runs} timed runs of `CREATE TABLE ... AS` it after a discarded warm-up (no EXPLAIN), each paired with a run of the baseline "
             f"`{BASELINE}` just before it (ratio: the median of the pairs' ratios), then EXPLAIN (ANALYZE, BUFFERS) "
             "of one more run, its JIT lines at the end (EXPLAIN's own timing of every node and row adds to its execution time).", ""]
        for title, query in (("madnb's classify view (prepared tables)", f"SELECT * FROM {VIEW}"),
                             ("the same view, its model read from a one-row table", f"SELECT * FROM {ONE_ROW_VIEW}"),
                             ("the floor: the same per-row expression, the model's numbers as constants", floor)):
            for jit in ("on", "off"):
                fig = timed_figure(conn, query, jit, BASELINE, args.runs)
                lines = plan_lines(conn, query, jit)
                L += [f"{title}, jit = {jit}: {fig.median * 1000:.0f} ms, {fig.ratio:.2f}× the baseline ({len(fig.runs)} runs)",
                      "", "```", *lines, "```", ""]
    text = "\n".join(L)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "jit_views.md").write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
