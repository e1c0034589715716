"""Private training on the 16,000-value domain against its floor (issue 19; bench/results/private_train.md).

In one session, round after round: exact training, private training (epsilon 1, the public domain of
bench.datagen.domain_sql) and the noise alone -- one ``madnb._dp_laplace_array`` call of as many numbers as the
release draws, at the same epsilon per query -- on dom16k_64k and dom16k.  Prints the medians, private / exact
and (exact + noise alone) / exact, each the median of the per-round ratios.

    python -m bench.private_floor [--rounds 7]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from typing import Any

import psycopg
from psycopg import sql

import madnb
from madnb._cluster import LocalCluster

from .datagen import DATASETS, SUPPORT_SQL, domain_sql

DOMAIN = "bench_domain"


def timed(conn: psycopg.Connection[Any], q: sql.Composable, params: tuple[Any, ...] = (), drop: tuple[str, ...] = ()) -> float:
    for name in drop:
        conn.execute(sql.SQL("DROP TABLE IF EXISTS {}").format(sql.Identifier(name)))
    t = time.perf_counter()
    conn.execute(q, params)
    return (time.perf_counter() - t) * 1000


def table(conn: psycopg.Connection[Any], name: str, rounds: int) -> str:
    d = DATASETS[name]
    conn.execute(d.create_sql())
    conn.execute(sql.SQL("VACUUM ANALYZE {}").format(sql.Identifier(name)))
    conn.execute(sql.SQL("DROP TABLE IF EXISTS {}").format(sql.Identifier(DOMAIN)))
    conn.execute(domain_sql(d, DOMAIN))
    classes, values = conn.execute(sql.SQL("SELECT count(*) FILTER (WHERE attr = 0), count(*) FILTER (WHERE attr > 0) FROM {}").format(
        sql.Identifier(DOMAIN))).fetchone() or (0, 0)
    cells = classes * values + classes
    exact = sql.SQL("SELECT madnb.create_nb_prepared_data_tables(%s::text, 'class', 'attributes', %s::int, 'floor_efp', 'floor_ecp')")
    private = sql.SQL("SELECT madnb.create_nb_prepared_data_tables(%s::text, 'class', 'attributes', %s::int, 'floor_pfp', 'floor_pcp', "
                      "epsilon => 1, domain => %s)")
    # epsilon 1 split over the class counts and every attribute's counts: the release's epsilon per query
    noise = sql.SQL("SELECT pg_catalog.cardinality(madnb._dp_laplace_array(pg_catalog.array_agg(0::pg_catalog.numeric), 1, %s::float8)) "
                    "FROM pg_catalog.generate_series(1, %s::int)")
    runs: dict[str, list[float]] = {"exact": [], "private": [], "noise": []}
    for i in range(rounds + 1):  # the first round warms up
        e = timed(conn, exact, (name, d.num_attrs), ("floor_efp", "floor_ecp"))
        p = timed(conn, private, (name, d.num_attrs, DOMAIN), ("floor_pfp", "floor_pcp"))
        n = timed(conn, noise, (1 / (d.num_attrs + 1), cells))
        if i:
            runs["exact"].append(e)
            runs["private"].append(p)
            runs["noise"].append(n)
    med = {k: statistics.median(v) for k, v in runs.items()}
    ratio = statistics.median(p / e for p, e in zip(runs["private"], runs["exact"], strict=True))
    floor = statistics.median((e + n) / e for e, n in zip(runs["exact"], runs["noise"], strict=True))
    return (f"| {name} | {cells:,} | {med['exact']:.0f} ms | {med['private']:.0f} ms | {med['noise']:.0f} ms | "
            f"{ratio:.2f}x | {floor:.2f}x |")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.private_floor", description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=7)
    args = ap.parse_args(argv)
    with LocalCluster(fast=True) as pg, psycopg.connect(pg.url, autocommit=True) as conn:
        madnb.install(conn)
        conn.execute(SUPPORT_SQL)
        conn.execute("SELECT madnb._load_python()")
        print("| table | cells | exact | private | noise alone | private / exact | (exact + noise alone) / exact |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for name in ("dom16k_64k", "dom16k"):
            print(table(conn, name, args.rounds), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
