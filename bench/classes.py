"""Named models of many classes: training and the cost per predicted row at 10, 100, 1,000 and 2,000 classes.

``python -m bench.classes [--out DIR]`` (after ``make setup``; about 6 minutes) trains
``madnb.train`` on a table of two text columns (10 values each) and one float8 column,
the label spread over K classes, and materialises each prediction function over the
table (CREATE TABLE AS).  The cost per row is the *marginal* one: the time over
``LARGE`` rows less the time over ``SMALL`` rows, divided by the rows between, so that
what is paid once per query (planning, the compilation of a PL/pgSQL body) is left out.
Cost per row and class (the last columns) stays flat when the cost is linear in the classes.
PostgreSQL's settings are its defaults (jit = on).  Results: bench/results/classes.md.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import psycopg

import madnb
from madnb._cluster import LocalCluster

CLASSES = (10, 100, 1000, 2000)
SMALL, LARGE = 1000, 4000
FUNCTIONS = ("predict", "predict_proba", "predict_proba_array")


def _table(conn: psycopg.Connection, k: int, rows: int, name: str) -> None:
    conn.execute(f"DROP TABLE IF EXISTS {name}")
    conn.execute(
        f"CREATE TABLE {name} AS SELECT i AS id, 'c' || (i % {k}) AS y, 'a' || ((i * 7 + i / {k}) % 10) AS a, "
        f"'b' || ((i * 13 + i / {k}) % 10) AS b, ((i * 31) % 97)::float8 + i % {k} AS x FROM generate_series(1, {rows}) AS i"
    )
    conn.execute(f"ANALYZE {name}")


def _timed(conn: psycopg.Connection, statement: str) -> float:
    start = time.perf_counter()
    conn.execute(statement)
    return time.perf_counter() - start


def measure() -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    with LocalCluster(fast=True) as pg, psycopg.connect(pg.url, autocommit=True) as conn:
        madnb.install(conn)
        for k in CLASSES:
            _table(conn, k, max(LARGE, 10 * k), "t")  # training: at least 10 rows a class
            train = _timed(conn, "SELECT madnb.train('m', 't', 'y', exclude => ARRAY['id'], replace => true)")
            language = conn.execute(
                "SELECT string_agg(DISTINCT l.lanname::text, ', ') FROM pg_proc AS p JOIN pg_language AS l ON l.oid = p.prolang "
                "WHERE p.oid = 'madnb_models.m_predict(text, text, float8)'::regprocedure"
            ).fetchone()[0]
            row: dict[str, object] = {"classes": k, "train_s": train, "column_form": language}
            for n in (SMALL, LARGE):
                _table(conn, k, n, f"s{n}")
            for fn in FUNCTIONS:
                spent = {}
                for n in (SMALL, LARGE):
                    conn.execute("DROP TABLE IF EXISTS p")
                    spent[n] = _timed(conn, f"CREATE TABLE p AS SELECT madnb_models.m_{fn}(s) FROM s{n} AS s")
                row[f"{fn}_us_per_row"] = (spent[LARGE] - spent[SMALL]) / (LARGE - SMALL) * 1e6
            print(json.dumps(row), flush=True)
            out.append(row)
    return out


def report(rows: list[dict[str, object]]) -> str:
    lines = [
        "# Named models of many classes",
        "",
        f"Command: `python -m bench.classes`. Date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}. "
        "PostgreSQL defaults (jit = on), a throwaway `LocalCluster(fast=True)`.",
        "",
        "Table: two text columns of 10 values and one float8 column, the label over K classes. "
        f"Cost per row: the marginal time of CREATE TABLE AS over {LARGE:,} rows less over {SMALL:,} rows, per row. "
        "One run each: on a shared machine the figures move by ±25 %.",
        "",
        "| classes | column form | train | predict µs/row | proba µs/row | proba_array µs/row | "
        "predict µs/row/class | proba µs/row/class | proba_array µs/row/class |",
        "|---:|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        k = int(r["classes"])  # type: ignore[call-overload]
        per = [float(r[f"{fn}_us_per_row"]) for fn in FUNCTIONS]  # type: ignore[arg-type]
        lines.append(
            f"| {k:,} | {r['column_form']} | {float(r['train_s']):.2f} s | "  # type: ignore[arg-type]
            + " | ".join(f"{p:,.0f}" for p in per) + " | " + " | ".join(f"{p / k:.2f}" for p in per) + " |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "results")
    args = parser.parse_args()
    rows = measure()
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "classes.json").write_text(json.dumps(rows, indent=1) + "\n")
    (args.out / "classes.md").write_text(report(rows))
    print(report(rows))


if __name__ == "__main__":
    main()
