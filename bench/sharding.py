"""Sharded training: what distributing a table over servers costs (issue 11, point 3).

    python -m bench.sharding [--budget 20] [--kinds cat,num]   # this section alone
    make bench                                                 # runs it last (figure group "shards")

Three more throwaway clusters on localhost are the shards.  For each kind of
table (categorical codes, Gaussian) 600,000 rows are generated with
:mod:`bench.datagen`'s formulas, ids 1..600,000: once as one local table on the
coordinator, and in three id ranges of 200,000 rows, each both on a shard and
as a local table on the coordinator.  One partitioned table is then trained
with 0, 1, 2 and 3 of its three partitions foreign (the others local), each run
paired with a training of the one local table: the ratio is **sharded / one
local table** (target <= 1.3 with three foreign partitions).  The machine has
two cores shared by all four servers, so concurrency cannot show a gain here:
the figure measures what distribution costs.  Also measured: one shard's 200,000
rows alone (one foreign partition) against the 600,000-row local table, which
is what a shard per machine would take (every shard working at once on its own
cores, plus the merge), and the statistics that crossed the network per shard
(rows and bytes, from madnb's DEBUG2 report).  Writes
``bench/results/sharding.md`` and ``sharding.json``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import re
import statistics
import sys
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql

import madnb
from madnb._cluster import LocalCluster

from .datagen import SUPPORT_SQL, Dataset
from .timing import Budget, measure, timed

RESULTS = Path(__file__).resolve().parent / "results"
SHARDS = 3
SHARD_ROWS = 200_000
KINDS = {
    "cat": Dataset("shard_cat", SHARDS * SHARD_ROWS, "cat", 20, ()),
    "num": Dataset("shard_num", SHARDS * SHARD_ROWS, "num", 10, tuple(range(1, 11))),
}
LAYOUTS = ["lll", "fll", "ffl", "fff", "f"]  # per partition: l local, f foreign ("f": one shard's rows alone)
TARGET = 1.3
FP, NP, CP = "shard_fp", "shard_np", "shard_cp"
_REPORT = re.compile(r"^madnb: partition \S+ on server (\S+): ([0-9]+) rows, ([0-9]+) bytes of statistics received$")


def rows_sql(d: Dataset, name: str, lo: int, hi: int) -> str:
    """CREATE TABLE ``name`` with rows lo..hi of dataset ``d`` (the same rows wherever they are made)."""
    text = d.create_sql()
    whole = f"generate_series(1, {int(d.rows)}) AS id"
    assert whole in text
    return text.replace(f"CREATE TABLE {d.name} ", f"CREATE TABLE {name} ", 1).replace(whole, f"generate_series({lo}, {hi}) AS id")


def _train(conn: psycopg.Connection[Any], d: Dataset, source: str) -> None:
    for t in (FP, NP, CP):
        conn.execute(sql.SQL("DROP TABLE IF EXISTS {}").format(sql.Identifier(t)))
    if d.numeric:
        conn.execute(
            "SELECT madnb.create_nb_prepared_data_tables(%s, 'class', 'attributes', %s, %s, %s, %s, %s)",
            (source, d.numeric_text, d.num_attrs, FP, NP, CP),
        )
    else:
        conn.execute("SELECT madnb.create_nb_prepared_data_tables(%s, 'class', 'attributes', %s, %s, %s)", (source, d.num_attrs, FP, CP))


def _ranges() -> list[tuple[int, int]]:
    return [(k * SHARD_ROWS + 1, (k + 1) * SHARD_ROWS) for k in range(SHARDS)]


def setup(conn: psycopg.Connection[Any], shards: list[LocalCluster], d: Dataset) -> None:
    """The local table, the local copies of each range, each range on its shard, foreign tables for them."""
    conn.execute(SUPPORT_SQL)
    conn.execute("CREATE EXTENSION IF NOT EXISTS postgres_fdw")
    conn.execute("CREATE EXTENSION IF NOT EXISTS dblink")
    conn.execute(rows_sql(d, d.name, 1, d.rows))
    for k, ((lo, hi), pg) in enumerate(zip(_ranges(), shards), start=1):
        local = f"{d.name}_l{k}"
        conn.execute(rows_sql(d, local, lo, hi))
        with psycopg.connect(pg.url, autocommit=True) as shard:
            shard.execute(SUPPORT_SQL)
            shard.execute(rows_sql(d, d.name, lo, hi))
            shard.execute(sql.SQL("VACUUM ANALYZE {}").format(sql.Identifier(d.name)))
        server = f"bench_shard{k}"
        conn.execute(sql.SQL("DROP SERVER IF EXISTS {} CASCADE").format(sql.Identifier(server)))
        conn.execute(
            sql.SQL("CREATE SERVER {} FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host {}, port {}, dbname {})").format(
                sql.Identifier(server), sql.Literal(pg.host), sql.Literal(str(pg.port)), sql.Literal(pg.dbname)
            )
        )
        conn.execute(sql.SQL("CREATE USER MAPPING FOR CURRENT_USER SERVER {} OPTIONS (user 'postgres')").format(sql.Identifier(server)))
        conn.execute(
            sql.SQL("CREATE FOREIGN TABLE {} (id int, class int, attributes {}) SERVER {} OPTIONS (table_name {})").format(
                sql.Identifier(f"{d.name}_f{k}"), sql.SQL("float8[]" if d.numeric else "int[]"), sql.Identifier(server), sql.Literal(d.name)
            )
        )
    for t in [d.name] + [f"{d.name}_l{k}" for k in range(1, SHARDS + 1)]:
        conn.execute(sql.SQL("VACUUM ANALYZE {}").format(sql.Identifier(t)))


def _detach_all(conn: psycopg.Connection[Any], d: Dataset) -> None:
    """Detach the local and foreign range tables from the partitioned table of an earlier layout."""
    names = [f"public.{d.name}_{x}{k}" for x in "lf" for k in range(1, SHARDS + 1)]
    for parent, part in conn.execute(
        "SELECT i.inhparent::regclass::text, i.inhrelid::regclass::text FROM pg_inherits i "
        "WHERE i.inhrelid = ANY (ARRAY(SELECT to_regclass(n) FROM unnest(%s::text[]) AS n))",
        (names,),
    ).fetchall():
        conn.execute(sql.SQL("ALTER TABLE {} DETACH PARTITION {}").format(sql.SQL(parent), sql.SQL(part)))  # regclass text: quoted


def layout(conn: psycopg.Connection[Any], d: Dataset, shape: str) -> str:
    """A partitioned table whose k-th range is local ('l') or foreign ('f') as ``shape`` says; returns its name."""
    parent = f"{d.name}_{shape}"
    _detach_all(conn, d)
    conn.execute(sql.SQL("DROP TABLE IF EXISTS {}").format(sql.Identifier(parent)))
    elem = "float8[]" if d.numeric else "int[]"
    conn.execute(sql.SQL("CREATE TABLE {} (id int, class int, attributes {}) PARTITION BY RANGE (id)").format(sql.Identifier(parent), sql.SQL(elem)))
    for k, (kind, (lo, hi)) in enumerate(zip(shape, _ranges()), start=1):
        conn.execute(
            sql.SQL("ALTER TABLE {} ATTACH PARTITION {} FOR VALUES FROM ({}) TO ({})").format(
                sql.Identifier(parent), sql.Identifier(f"{d.name}_{kind}{k}"), sql.Literal(lo), sql.Literal(hi + 1)
            )
        )
    conn.execute(sql.SQL("ANALYZE {}").format(sql.Identifier(parent)))
    return parent


def network(conn: psycopg.Connection[Any], d: Dataset, source: str) -> dict[str, dict[str, int]]:
    """Rows and bytes of statistics each shard sent for one training (madnb's DEBUG2 report)."""
    seen: dict[str, dict[str, int]] = {}

    def on_notice(diag: psycopg.errors.Diagnostic) -> None:
        m = _REPORT.match(diag.message_primary or "")
        if m:
            seen[m.group(1)] = {"rows": int(m.group(2)), "bytes": int(m.group(3))}

    conn.add_notice_handler(on_notice)
    conn.execute("SET client_min_messages = debug2")
    try:
        _train(conn, d, source)
    finally:
        conn.execute("RESET client_min_messages")
        conn.remove_notice_handler(on_notice)
    return seen


def measure_kind(conn: psycopg.Connection[Any], shards: list[LocalCluster], d: Dataset, kind: str, budget: Budget, reps: int) -> list[dict[str, Any]]:
    """Every layout of one kind of table, each run paired with a training of the one local table."""
    setup(conn, shards, d)
    _train(conn, d, d.name)  # warm the local table and the code path

    def local() -> float:
        return timed(lambda: _train(conn, d, d.name))

    rows = []
    for shape in LAYOUTS:
        source = layout(conn, d, shape)
        net = network(conn, d, source) if "f" in shape else {}
        fig = measure(lambda source=source: timed(lambda: _train(conn, d, source)), reps, budget, local)
        rows.append({
            "kind": kind, "layout": shape, "rows": SHARD_ROWS * len(shape), "foreign_partitions": shape.count("f"),
            "median_s": fig.median, "local_600k_median_s": statistics.median(fig.base_runs), "ratio": fig.ratio,
            "runs": len(fig.runs), "network": net, "target": TARGET if shape == "fff" else None,
        })
        per = ", ".join(f"{s}: {v['rows']} rows / {v['bytes']:,} B" for s, v in sorted(net.items()))
        print(f"  sharding {kind} {shape:4s} {fig.median * 1000:8.1f} ms  {fig.ratio or 0:.2f}x of one local table  {per}", flush=True)
    _detach_all(conn, d)
    for t in [f"{d.name}_{s}" for s in LAYOUTS] + [d.name] + [f"{d.name}_l{k}" for k in range(1, SHARDS + 1)]:
        conn.execute(sql.SQL("DROP TABLE IF EXISTS {}").format(sql.Identifier(t)))
    for k in range(1, SHARDS + 1):
        conn.execute(sql.SQL("DROP SERVER IF EXISTS {} CASCADE").format(sql.Identifier(f"bench_shard{k}")))
    return rows


def section(conn: psycopg.Connection[Any], budget: Budget, out: Path, kinds: list[str] | None = None, reps: int = 5) -> list[dict[str, Any]]:
    """Start the shards, measure every layout of every kind, write sharding.md / .json; return the figures."""
    rows: list[dict[str, Any]] = []
    print("  sharding: starting 3 shard clusters", flush=True)
    with ExitStack() as stack:
        shards = [stack.enter_context(LocalCluster(fast=True)) for _ in range(SHARDS)]
        for kind in kinds or list(KINDS):
            rows += measure_kind(conn, shards, KINDS[kind], kind, budget, reps)
    write(out, rows)
    return rows


def markdown(rows: list[dict[str, Any]], date: str) -> str:
    desc = {"cat": "20 categorical int codes (0..9), 3 classes", "num": "10 float8 Gaussian attributes, 3 classes"}
    what = {
        "lll": "3 local partitions", "fll": "1 foreign + 2 local", "ffl": "2 foreign + 1 local", "fff": "3 foreign partitions",
        "f": "1 shard's 200,000 rows alone",
    }
    L = [
        "# Sharded training (make bench, section shards)", "",
        f"{date}; 600,000 rows as one local table on the coordinator vs the same rows in one partitioned table of "
        "three 200,000-row range partitions, of which 0-3 are postgres_fdw foreign tables on three other clusters "
        "on the same 2-core machine.  Ratio: median of per-run ratios to a training of the one local table run just "
        f"before (target <= {TARGET} with three shards).  Statistics received: per shard, from madnb's DEBUG2 report.", "",
        "| table | layout | training | one local table | ratio | target | statistics received per shard |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        net = "; ".join(f"{v['rows']} rows, {v['bytes']:,} B" for _, v in sorted(r["network"].items())) or "-"
        ok = "" if r["target"] is None else (f"<= {r['target']} {'ok' if r['ratio'] is not None and r['ratio'] <= r['target'] else 'MISSED'}")
        L.append(
            f"| {desc[r['kind']]} | {what[r['layout']]} | {r['median_s'] * 1000:.0f} ms | {r['local_600k_median_s'] * 1000:.0f} ms "
            f"| {r['ratio']:.2f}x | {ok} | {net} |"
        )
    L.append("")
    return "\n".join(L)


def write(out: Path, rows: list[dict[str, Any]]) -> None:
    date = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    out.mkdir(parents=True, exist_ok=True)
    (out / "sharding.md").write_text(markdown(rows, date), encoding="utf-8")
    (out / "sharding.json").write_text(json.dumps({"date": date, "figures": rows}, indent=2) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.sharding", description=__doc__.splitlines()[0])
    ap.add_argument("--budget", type=float, default=20.0, help="seconds of runs per figure (default 20)")
    ap.add_argument("--kinds", default="cat,num", help="comma-separated: cat, num")
    ap.add_argument("--out", type=Path, default=RESULTS)
    args = ap.parse_args(argv)
    budget = Budget(per_figure=args.budget, deadline=3600)
    with LocalCluster(fast=True) as pg, psycopg.connect(pg.url, autocommit=True) as conn:
        madnb.install(conn)
        section(conn, budget, args.out, args.kinds.split(","))
    print((args.out / "sharding.md").read_text(encoding="utf-8"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
