"""Experiments behind the proposed changes: faster SQL for the statistics pass and the views.

    python -m bench.experiments [--dsn URL] [--only stats,scoring,explain]

Starts its own throwaway cluster (or uses ``--dsn``, whose database must be
disposable), installs madnb from this tree, generates the benchmark tables it
needs, and measures, for each table, madnb's SQL today against alternative
formulations (``bench/alternatives.py``), every figure the median of per-run
ratios to the baseline ``SELECT sum(v) FROM t, unnest(attributes) v`` run just
before.  Each statement runs in a transaction that is rolled back.  Also saves
``EXPLAIN (ANALYZE, BUFFERS)`` of the statistics pass and of a classify
materialisation.  Writes ``bench/results/experiments.md`` and ``.json``.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg

import madnb
from madnb._cluster import LocalCluster

from . import alternatives as alt
from .datagen import DATASETS, SUPPORT_SQL, Dataset
from .run import RESULTS, machine, settings
from .timing import Budget, measure, timed

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "plpython"))
from madnb_pl.inputs import arrays as madnb_spec  # noqa: E402, I001
from madnb_pl.release import array_pass as madnb_stats  # noqa: E402
from madnb_pl.core.names import Column, Relation  # noqa: E402


def training(d: Dataset) -> Any:
    elem, oid = ("double precision", 701) if d.kind in ("num", "mixed") else ("integer", 23)
    return madnb_spec.Training(
        Relation(schema="public", name=d.name, oid=0),
        Column(name="class", type_sql="integer", type_oid=23, elem_sql=None, elem_oid=None),
        Column(name="attributes", type_sql=f"{elem}[]", type_oid=0, elem_sql=elem, elem_oid=oid), d.num_attrs, d.numeric)


def stats_columns(t: Any) -> str:
    """The columns of the statistics pass's relation (cls, o, v, n, nv, mean, var), for the INSERT variant."""
    return (f"cls {t.cls.type_sql}, o pg_catalog.int4, v {t.attrs.elem_sql}, n pg_catalog.int8, "
            "nv pg_catalog.int8, mean pg_catalog.float8, var pg_catalog.float8")


class Lab:
    def __init__(self, conn: psycopg.Connection[Any], budget: Budget) -> None:
        self.conn = conn
        self.budget = budget
        self.rows: list[dict[str, Any]] = []
        self.checks: list[dict[str, Any]] = []

    def base_run(self, table: str) -> Any:
        q = f"SELECT sum(v) FROM {table}, unnest(attributes) AS v"
        return lambda: timed(lambda: self.conn.execute(q))

    def once(self, setup: list[str], stmt: str) -> float:
        """One timed run of ``stmt`` after ``setup``, in a transaction rolled back afterwards."""
        self.conn.execute("BEGIN")
        try:
            for s in setup:
                self.conn.execute(s)
            return timed(lambda: self.conn.execute(stmt))
        finally:
            self.conn.execute("ROLLBACK")

    def figure(self, group: str, table: str, name: str, stmt: str, setup: list[str] | None = None, reps: int = 5, note: str = "") -> None:
        fig = measure(lambda: self.once(setup or [], stmt), reps, self.budget, self.base_run(table))
        row = {"group": group, "table": table, "name": name, "median_s": fig.median, "ratio": fig.ratio, "runs": len(fig.runs),
               "runs_s": fig.runs, "baseline_runs_s": fig.base_runs, "setup": setup or [], "sql": stmt, "note": note}
        self.rows.append(row)
        print(f"  {group:8s} {table:10s} {name:55s} {fig.median * 1000:8.0f} ms {fig.ratio:6.2f}x ({len(fig.runs)})", flush=True)

    # -- statistics pass ------------------------------------------------------
    def stats(self, d: Dataset, reps: int) -> None:
        t = training(d)
        today = madnb_stats.stats_select(t)
        ddl = f'CREATE TEMPORARY TABLE "s" ({stats_columns(t)})'
        self.figure("stats", d.name, "CREATE TEMP TABLE + INSERT ... stats_select (madnb before ea93af6; serial)", f'INSERT INTO pg_temp."s" {today}', [ddl], reps)
        self.figure("stats", d.name, "CREATE TEMP TABLE AS stats_select (madnb since ea93af6; parallel)", f'CREATE TEMP TABLE "s" AS {today}', reps=reps)
        self.figure("stats", d.name, "CREATE TEMP TABLE AS stats_select, jit off", f'CREATE TEMP TABLE "s" AS {today}', ["SET LOCAL jit = off"], reps)
        src = d.name
        if d.kind == "num":
            self.figure("stats", d.name, "CREATE TEMP TABLE AS numeric by subscript, no unnest",
                        f'CREATE TEMP TABLE "s" AS {alt.stats_numeric_subscript(src, d.num_attrs, d.numeric)}', reps=reps)
            self.check_same_stats(today, alt.stats_numeric_subscript(src, d.num_attrs, d.numeric), d.name, "numeric by subscript")
        if d.kind == "mixed":
            self.figure("stats", d.name, "CREATE TEMP TABLE AS split: unnest categorical + subscript numeric",
                        f'CREATE TEMP TABLE "s" AS {alt.stats_mixed_split(src, d.num_attrs, d.numeric)}', reps=reps)
            self.check_same_stats(today, alt.stats_mixed_split(src, d.num_attrs, d.numeric), d.name, "mixed split")

    def check_same_stats(self, a: str, b: str, table: str, what: str) -> None:
        r = self.conn.execute(
            f"WITH a AS ({a}), b AS ({b} ) SELECT (SELECT count(*) FROM a), (SELECT count(*) FROM b WHERE o IS DISTINCT FROM -1), "
            "count(*), max(abs(a.mean - b.mean)), max(abs(a.var - b.var) / NULLIF(abs(a.var), 0)) FROM a JOIN b "
            "ON a.cls IS NOT DISTINCT FROM b.cls AND a.o IS NOT DISTINCT FROM b.o AND a.v IS NOT DISTINCT FROM b.v "
            "AND a.n = b.n AND a.nv IS NOT DISTINCT FROM b.nv").fetchone()
        ok = r[0] == r[1] == r[2] and (r[3] or 0) < 1e-9 and (r[4] or 0) < 1e-9
        self.checks.append({"table": table, "what": what, "same": ok,
                            "detail": f"{r[2]} of {r[0]} rows match, max |Δmean| {r[3] or 0:.1e}, max rel |Δvar| {r[4] or 0:.1e}"})

    # -- scoring --------------------------------------------------------------
    def scoring(self, d: Dataset, reps: int) -> None:
        fp = "x_fp" if d.kind != "num" else None
        np = "x_np" if d.numeric else None
        for kind, view in (("classify", "x_classify"), ("probs", "x_probs")):
            tree = f"CREATE TABLE x_out AS SELECT * FROM {view}"
            par = f"CREATE TABLE x_out AS {alt.view_parallel(kind, d.name, d.num_attrs, 3, 'x_cp', fp, np, d.numeric)}"
            self.figure("scoring", d.name, f"{kind}: today's view", tree, reps=reps)
            self.figure("scoring", d.name, f"{kind}: today's view, jit off", tree, ["SET LOCAL jit = off"], reps)
            self.figure("scoring", d.name, f"{kind}: parallel form (bench/alternatives.py)", par, reps=reps)
            self.figure("scoring", d.name, f"{kind}: parallel form, jit off", par, ["SET LOCAL jit = off"], reps)
            self.check_same_scores(kind, view, par[len("CREATE TABLE x_out AS "):], d.name)

    def check_same_scores(self, kind: str, view: str, select: str, table: str) -> None:
        with self.conn.transaction():
            self.conn.execute(f"CREATE TEMP TABLE a ON COMMIT DROP AS SELECT * FROM {view}")
            self.conn.execute(f"CREATE TEMP TABLE b ON COMMIT DROP AS {select}")
            if kind == "classify":
                r = self.conn.execute("SELECT count(*), count(*) FILTER (WHERE a.nb_classification IS DISTINCT FROM b.nb_classification), "
                                      "(SELECT count(*) FROM a), (SELECT count(*) FROM b) FROM a JOIN b USING (key)").fetchone()
                ok = r[1] == 0 and r[0] == r[2] == r[3]
                detail = f"{r[0] - r[1]} of {r[2]} classifications equal"
            else:
                r = self.conn.execute("SELECT count(*), max(abs(a.nb_prob - b.nb_prob)), (SELECT count(*) FROM a), (SELECT count(*) FROM b) "
                                      "FROM a JOIN b USING (key, class)").fetchone()
                ok = r[0] == r[2] == r[3] and (r[1] or 0) < 1e-9
                detail = f"{r[0]} of {r[2]} probabilities matched, max |Δ| {r[1] or 0:.1e}"
        self.checks.append({"table": table, "what": f"{kind} parallel form vs today's view", "same": ok, "detail": detail})

    # -- EXPLAIN --------------------------------------------------------------
    def explain(self, d: Dataset) -> list[tuple[str, str]]:
        t = training(d)
        out = []
        q = madnb_stats.stats_select(t)
        ddl = f'CREATE TEMPORARY TABLE "s" ({stats_columns(t)})'
        for title, setup, stmt in [
            (f"{d.name}: statistics pass as a plain SELECT", [], q),
            (f"{d.name}: statistics pass as INSERT INTO a temporary table (madnb before ea93af6)", [ddl], f'INSERT INTO "s" {q}'),
            (f"{d.name}: statistics pass as CREATE TEMP TABLE AS (madnb since ea93af6)", [], f'CREATE TEMP TABLE "s" AS {q}'),
            (f"{d.name}: classify view materialisation (today's view)", [], "CREATE TABLE x_out AS SELECT * FROM x_classify"),
            (f"{d.name}: classify materialisation, parallel form", [],
             f"CREATE TABLE x_out AS {alt.view_parallel('classify', d.name, d.num_attrs, 3, 'x_cp', 'x_fp' if d.kind != 'num' else None, 'x_np' if d.numeric else None, d.numeric)}"),
        ]:
            self.conn.execute("BEGIN")
            try:
                for s in setup:
                    self.conn.execute(s)
                plan = "\n".join(r[0] for r in self.conn.execute(f"EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) {stmt}").fetchall())
            finally:
                self.conn.execute("ROLLBACK")
            out.append((title, plan))
        return out


def summarize_plan(plan: str) -> str:
    gather = "Gather" in plan
    launched = re.findall(r"Workers Launched: (\d+)", plan)
    partial = "Partial" in plan
    jit = re.search(r"Timing: .*Total ([0-9.]+) ms", plan)
    execution = re.search(r"Execution Time: ([0-9.]+) ms", plan)
    lateral_loops = re.search(r"Function Scan on unnest \w+ \(actual [^)]*loops=(\d+)\)", plan)
    bits = [f"Gather: {'yes, workers launched ' + '/'.join(launched) if gather else 'no (serial)'}",
            f"partial aggregation: {'yes' if partial else 'no'}",
            f"JIT: {jit.group(1) + ' ms' if jit else 'no'}"]
    if lateral_loops:
        bits.append(f"unnest rescanned {lateral_loops.group(1)} times")
    if execution:
        bits.append(f"execution {float(execution.group(1)):.0f} ms")
    return "; ".join(bits)


@contextlib.contextmanager
def database(dsn: str | None) -> Iterator[psycopg.Connection[Any]]:
    if dsn:
        with psycopg.connect(dsn, autocommit=True) as conn:
            yield conn
        return
    with LocalCluster(fast=True) as pg, psycopg.connect(pg.url, autocommit=True) as conn:
        yield conn


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.experiments", description=__doc__.splitlines()[0])
    ap.add_argument("--dsn", help="use this (disposable) database instead of a throwaway cluster")
    ap.add_argument("--only", default="stats,scoring,explain")
    ap.add_argument("--budget", type=float, default=20.0)
    ap.add_argument("--out", type=Path, default=RESULTS)
    args = ap.parse_args(argv)
    parts = set(args.only.split(","))
    budget = Budget(per_figure=args.budget, deadline=1e9)
    stats_tables = ["cat200k", "num200k", "mixed200k", "wide", "cat1m"]
    score_tables = ["cat200k", "num200k", "mixed200k"]
    explain_tables = ["cat200k", "num200k"]
    tables = sorted(set(stats_tables if "stats" in parts else []) | set(score_tables if "scoring" in parts else [])
                    | set(explain_tables if "explain" in parts else []), key=list(DATASETS).index)
    with database(args.dsn) as conn:
        madnb.install(conn)
        meta = {"date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"), "machine": machine(), "settings": settings(conn)}
        conn.execute(SUPPORT_SQL)
        for name in tables:
            d = DATASETS[name]
            if conn.execute("SELECT to_regclass(%s) IS NULL", (name,)).fetchone()[0]:  # type: ignore[index]
                conn.execute(d.create_sql())
                conn.execute(f"VACUUM ANALYZE {name}")
        lab = Lab(conn, budget)
        explains: list[tuple[str, str]] = []
        for name in tables:
            d = DATASETS[name]
            conn.execute(f"SELECT sum(v) FROM {name}, unnest(attributes) AS v")  # warm
            if "stats" in parts and name in stats_tables:
                lab.stats(d, 3 if name in ("wide", "cat1m") else 5)
            if name in score_tables and ({"scoring", "explain"} & parts):
                conn.execute("DROP TABLE IF EXISTS x_fp, x_cp, x_np CASCADE")
                if d.numeric:
                    conn.execute("SELECT madnb.create_nb_prepared_data_tables(%s::text, 'class', 'attributes', %s::text, %s::int, 'x_fp', 'x_np', 'x_cp')",
                                 (name, d.numeric_text, d.num_attrs))
                    args8 = "'x_fp', 'x_cp', %s::text, 'id', 'attributes', %s::int, 'x_np'"
                else:
                    conn.execute("SELECT madnb.create_nb_prepared_data_tables(%s::text, 'class', 'attributes', %s::int, 'x_fp', 'x_cp')", (name, d.num_attrs))
                    args8 = "'x_fp', 'x_cp', %s::text, 'id', 'attributes', %s::int"
                conn.execute(f"SELECT madnb.create_nb_classify_view({args8}, 'x_classify')", (name, d.num_attrs))
                conn.execute(f"SELECT madnb.create_nb_probs_view({args8}, 'x_probs')", (name, d.num_attrs))
                if "scoring" in parts:
                    lab.scoring(d, 3)
                if "explain" in parts and name in explain_tables:
                    explains += lab.explain(d)
        meta["elapsed_s"] = budget.elapsed()

    args.out.mkdir(parents=True, exist_ok=True)
    md = report(meta, lab.rows, lab.checks, explains)
    (args.out / "experiments.md").write_text(md, encoding="utf-8")
    (args.out / "experiments.json").write_text(json.dumps({"meta": meta, "figures": lab.rows, "checks": lab.checks,
                                                           "explain": [{"title": t, "plan": p} for t, p in explains]}, indent=2) + "\n")
    print(md)
    return 0


def report(meta: dict[str, Any], rows: list[dict[str, Any]], checks: list[dict[str, Any]], explains: list[tuple[str, str]]) -> str:
    s = meta["settings"]
    L = ["# madnb experiments: faster SQL for the statistics pass and the views", "",
         f"Command: `python -m bench.experiments`. Date: {meta['date']}; {meta['machine']['nproc']} cores; {s['version()']}; "
         "settings: " + ", ".join(f"{k} = {s[k]}" for k in ("work_mem", "shared_buffers", "max_parallel_workers_per_gather", "jit")) + ".",
         "Each figure: median of per-run ratios to the table's baseline (`SELECT sum(v) FROM t, unnest(attributes) v`, run just before); "
         "statements run in a transaction that is rolled back. The SQL of every variant is in `experiments.json` "
         "(and generated by `bench/alternatives.py`).", ""]
    for group in ("stats", "scoring"):
        sel = [r for r in rows if r["group"] == group]
        if not sel:
            continue
        L += [f"## {'Statistics pass' if group == 'stats' else 'Scoring views (materialised with CREATE TABLE AS)'}", "",
              "| table | variant | median | × baseline | runs |", "|---|---|---:|---:|---:|"]
        L += [f"| {r['table']} | {r['name']} | {r['median_s'] * 1000:.0f} ms | {r['ratio']:.2f}× | {r['runs']} |" for r in sel]
        L.append("")
    if checks:
        L += ["## Same results", "", "| table | check | same | detail |", "|---|---|:--:|---|"]
        L += [f"| {c['table']} | {c['what']} | {'yes' if c['same'] else '**NO**'} | {c['detail']} |" for c in checks]
        L.append("")
    if explains:
        L += ["## EXPLAIN (ANALYZE, BUFFERS)", ""]
        for title, plan in explains:
            L += [f"### {title}", "", summarize_plan(plan), "", "```", plan, "```", ""]
    return "\n".join(L)


if __name__ == "__main__":
    sys.exit(main())
