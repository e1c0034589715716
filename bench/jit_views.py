"""What JIT compiles in the MADlib face's classify view at a million rows: the view against its floor.

On num1m (1,000,000 rows × 10 Gaussian attributes, 3 classes) the classify view's
plan costs more than ``jit_above_cost`` (100,000, PostgreSQL's default), and JIT,
on by default, compiles it in every process; num200k's plan stays below.  This
prints and writes EXPLAIN (ANALYZE)'s JIT lines of ``CREATE TABLE ... AS SELECT *
FROM`` the view, and of the same per-row expression with the model's numbers as
constants (bench.floors' hand-written floor of view_num, :func:`bench.floors.argmax_select`
over :func:`bench.floors.gaussian_terms`), each with jit on and with jit off:
what JIT compiles is the view's model-reading nodes, which read the model tables
live inside the view's plan (with the view owner's rights), not its per-row
expression.

    python -m bench.jit_views [--out bench/results]   # its own cluster, about a minute
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

import psycopg

import madnb
from madnb._cluster import LocalCluster

from . import floors
from .datagen import DATASETS, SUPPORT_SQL

RESULTS = Path(__file__).resolve().parent / "results"
TABLE = "num1m"
VIEW = "bench_jit_classify"
OUT = "bench_jit_out"


def jit_lines(conn: psycopg.Connection[Any], query: str, jit: str) -> list[str]:
    """EXPLAIN (ANALYZE)'s JIT lines and execution time of ``CREATE TABLE OUT AS query`` under ``jit``."""
    conn.execute(f"DROP TABLE IF EXISTS {OUT}")
    conn.execute(f"SET jit = {jit}")
    try:
        plan = [r[0] for r in conn.execute(f"EXPLAIN (ANALYZE) CREATE TABLE {OUT} AS {query}")]
    finally:
        conn.execute("RESET jit")
        conn.execute(f"DROP TABLE IF EXISTS {OUT}")
    return [line.strip() for line in plan if line.strip().startswith(("Functions:", "Timing:", "Execution Time:"))]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.jit_views", description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=RESULTS)
    args = ap.parse_args(argv)
    d = DATASETS[TABLE]
    with LocalCluster(fast=True) as pg, psycopg.connect(pg.url, autocommit=True) as conn:
        madnb.install(conn)
        conn.execute(SUPPORT_SQL)
        conn.execute(d.create_sql())
        conn.execute(f"VACUUM ANALYZE {TABLE}")
        floors.prepare(conn, TABLE)  # the prepared tables as bench.floors' view_num makes them
        conn.execute(floors.view_sql(TABLE, VIEW))
        floor = floors.argmax_select(TABLE, floors.gaussian_terms(conn, d.num_attrs))
        conn.execute(f"CREATE TABLE {OUT} AS SELECT * FROM {VIEW}")  # warm: the table and the model read once
        conn.execute(f"DROP TABLE {OUT}")
        L = ["# What JIT compiles in the classify view at a million rows", "",
             f"Command: `python -m bench.jit_views`. Date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}. "
             f"PostgreSQL {conn.execute('SHOW server_version').fetchone()[0]}, `LocalCluster(fast=True)`, jit_above_cost "
             f"{conn.execute('SHOW jit_above_cost').fetchone()[0]}. Table {TABLE}: 1,000,000 rows × 10 Gaussian attributes, "
             "3 classes. EXPLAIN (ANALYZE) of `CREATE TABLE ... AS` each statement:", ""]
        for title, query in (("madnb's classify view (prepared tables)", f"SELECT * FROM {VIEW}"),
                             ("the floor: the same per-row expression, the model's numbers as constants", floor)):
            for jit in ("on", "off"):
                lines = jit_lines(conn, query, jit)
                L += [f"{title}, jit = {jit}:", "", "```", *lines, "```", ""]
    text = "\n".join(L)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "jit_views.md").write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
