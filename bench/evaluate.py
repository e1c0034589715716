"""madnb.evaluate against one batch probability pass, on issue 19's table (10 text columns, 5 float8, 3 classes).

The table is mixed200k (bench/datagen.py) as ordinary columns: its 10 categorical
attributes as text ('0' .. '9'), its 5 numeric ones float8, the class 0 / 1 / 2.
A model is trained on it (``madnb.train``), then, in one session, paired run by
run (alternating, as :func:`bench.timing.measure` does):

(a) ``CREATE TEMP TABLE x AS SELECT madnb_models.<m>_predict_proba_array(t) FROM t``
(b) ``SELECT madnb.evaluate('<m>', 't')``

The figure is the median of the per-pair ratios b / a (target <= 1.2x: every row
scored once).  Printed with it: the load (``uptime``) before and after, and, from
one more (untimed) evaluate, how many times per row the model was scored (calls of
``madnb._nb_proba`` and ``madnb._nb_best``, counted with track_functions = 'pl')
and whether the scan ran in parallel workers (its plan, from auto_explain).

    python -m bench.evaluate [--runs 5]     # its own cluster, one to two minutes on 2 cores
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from typing import Any

import psycopg
from psycopg import sql

import madnb
from madnb._cluster import LocalCluster

from .datagen import DATASETS, SUPPORT_SQL, Dataset
from .models import TARGET_EVALUATE, evaluate_figure
from .timing import Budget

SOURCE = "mixed200k"
TABLE = "eval_text"
MODEL = "bench_eval"


def text_table_sql(name: str, d: Dataset | None = None) -> str:
    """A 'mixed' array table (mixed200k unless ``d``) as columns: c1 .. c10 text, f1 .. f5 float8, class."""
    d = d or DATASETS[SOURCE]
    ncat = d.num_attrs - len(d.numeric)
    cols = [f"attributes[{j}]::int::text AS c{j}" for j in range(1, ncat + 1)]
    cols += [f"attributes[{j}] AS f{j - ncat}" for j in d.numeric]
    return f"CREATE TABLE {name} AS SELECT id, class, {', '.join(cols)} FROM {d.name}"


HELPERS = ("madnb._nb_proba(pg_catalog.float8[])", "madnb._nb_best(pg_catalog.float8[])")


def one_evaluate(conn: psycopg.Connection[Any]) -> tuple[dict[str, int], str]:
    """Calls of the per-row helpers (:data:`HELPERS`) during one madnb.evaluate, and the plan of the
    statement inside it that called them (auto_explain's, of nested statements, as notices)."""
    notes: list[str] = []
    conn.add_notice_handler(lambda d: notes.append(d.message_primary or ""))
    conn.execute("LOAD 'auto_explain'")
    for name, value in (("auto_explain.log_min_duration", "0"), ("auto_explain.log_nested_statements", "on"),
                        ("auto_explain.log_level", "notice"), ("track_functions", "pl")):
        conn.execute("SELECT set_config(%s, %s, false)", (name, value))
    calls = "SELECT coalesce(pg_stat_get_function_calls(%s::regprocedure), 0)"
    conn.execute("SELECT pg_stat_force_next_flush()")
    conn.execute("SELECT pg_stat_clear_snapshot()")
    start = {f: conn.execute(calls, (f,)).fetchone()[0] for f in HELPERS}
    conn.execute("SELECT madnb.evaluate(%s, %s)", (MODEL, TABLE))
    conn.execute("SELECT set_config('auto_explain.log_min_duration', '-1', false)")
    conn.execute("SELECT pg_stat_force_next_flush()")
    conn.execute("SELECT pg_stat_clear_snapshot()")
    used = {f: conn.execute(calls, (f,)).fetchone()[0] - start[f] for f in HELPERS}
    return used, max((n for n in notes if "_nb_proba(" in n or "_predict_proba_array" in n), key=len, default="")


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.evaluate", description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args(argv)
    d = DATASETS[SOURCE]
    with LocalCluster(fast=True) as pg, psycopg.connect(pg.url, autocommit=True) as conn:
        madnb.install(conn)
        conn.execute(SUPPORT_SQL)
        conn.execute(d.create_sql())
        conn.execute(text_table_sql(TABLE))
        conn.execute(sql.SQL("VACUUM ANALYZE {}").format(sql.Identifier(TABLE)))
        conn.execute("SELECT madnb.train(%s, %s, 'class', exclude => ARRAY['id'], replace => true)", (MODEL, TABLE))
        before = uptime()
        fig = evaluate_figure(conn, MODEL, TABLE, args.runs, Budget(per_figure=600.0, deadline=1200.0))
        after = uptime()
        calls, plan = one_evaluate(conn)
    print(f"| {TABLE} ({d.rows} rows: 10 text, 5 float8, 3 classes) | median | runs |\n|---|---:|---:|")
    print(f"| (a) batch proba pass | {sorted(fig.base_runs)[len(fig.base_runs) // 2]:.2f} s | {len(fig.base_runs)} |")
    print(f"| (b) madnb.evaluate | {fig.median:.2f} s | {len(fig.runs)} |")
    print(f"\nb / a, median of per-pair ratios: {fig.ratio:.2f}x (target <= {TARGET_EVALUATE}x); "
          f"pairs: {', '.join(f'{r / b:.2f}' for r, b in zip(fig.runs, fig.base_runs, strict=True))}")
    per_row = ", ".join(f"{f.split('(')[0]} {n / d.rows:.4f}" for f, n in calls.items())
    print(f"helper calls per row in one evaluate: {per_row}; its scan in parallel workers: {'Workers Planned' in plan}")
    print(f"load before: {before}\nload after:  {after}\n{os.cpu_count()} cores")
    return 0


if __name__ == "__main__":
    sys.exit(main())
