"""madnb.train on a table of 200 ordinary columns (100 text, 100 float8), 2,000 rows: the per-column costs.

``python -m bench.wide_columns`` (after ``make setup``) prints the median of six trainings
(``replace => true``; a first, untimed one creates the model).  With so few rows the time
is the per-column work -- catalog look-ups, the checks, the generated functions -- not the
scan, so it shows what a change to that work gains.  Compare two checkouts on the same
machine in the same minutes: absolute times drift with the machine's load.
"""

from __future__ import annotations

import statistics
import time

import psycopg

import madnb
from madnb._cluster import LocalCluster

COLUMNS = 100  # of each type


def main() -> None:
    with LocalCluster(fast=True) as pg, psycopg.connect(pg.url, autocommit=True) as conn:
        madnb.install(conn)
        cols = ", ".join([f"c{i} text" for i in range(COLUMNS)] + [f"g{i} float8" for i in range(COLUMNS)])
        conn.execute(f"CREATE TABLE w (y text, {cols})")
        values = ", ".join(
            [f"'v' || ((i * {i + 3}) % 10)" for i in range(COLUMNS)] + [f"((i * {i + 7}) % 97)::float8" for i in range(COLUMNS)]
        )
        conn.execute(f"INSERT INTO w SELECT 'c' || (i % 3), {values} FROM generate_series(1, 2000) AS i")
        conn.execute("ANALYZE w")
        conn.execute("SELECT madnb.train('w_nb', 'w', 'y')")
        times = []
        for _ in range(6):
            start = time.perf_counter()
            conn.execute("SELECT madnb.train('w_nb', 'w', 'y', replace => true)")
            times.append(time.perf_counter() - start)
        print(f"madnb.train, {2 * COLUMNS} columns x 2,000 rows: median {statistics.median(times) * 1000:.0f} ms of {len(times)}")


if __name__ == "__main__":
    main()
