"""The benchmark's floors compute what they name: every aggregate of a floor's statement is in its plan;
bench.jit_views' one-row-model view returns what the view returns.

A floor (bench/column_table.py, bench/floors.py) returns one row, the count of
its sub-select's rows, so that nothing is sent to the client.  Over
``count(*)`` PostgreSQL replaces the sub-select's unused outputs by NULL and
drops their aggregates: the floors' avg and var_samp were not computed until
2026-12-07.  These tests read each floor's plan (EXPLAIN VERBOSE, not run) on
small tables of the benchmark tables' shapes.
"""

from __future__ import annotations

import re
import sys
from typing import Any

import psycopg
import pytest
from psycopg import sql

from conftest import ROOT

sys.path.insert(0, str(ROOT))  # the bench package lives beside madnb, not on the tests' path
from bench import column_table, floors, jit_views  # noqa: E402
from bench.datagen import DATASETS  # noqa: E402


def computed(conn: psycopg.Connection[Any], statement: Any) -> list[str]:
    """The aggregates the plan of ``statement`` computes: every ``avg(...)`` / ``var_samp(...)`` in its Output lines."""
    plan = "\n".join(r[0] for r in conn.execute(sql.SQL("EXPLAIN (VERBOSE, COSTS OFF) ") + statement))
    outputs = " ".join(line for line in plan.splitlines() if line.strip().startswith("Output:"))
    return re.findall(r"\b(?:avg|var_samp)\(", outputs)


@pytest.fixture
def column_tables(db: psycopg.Connection[Any]) -> psycopg.Connection[Any]:
    """col_text's shape (class, c1 .. c10 text, f1 .. f5 float8) and mixed200k's (class, attributes float8[]), a few rows each."""
    cols = ", ".join([f"c{j} text" for j in range(1, column_table.NCAT + 1)] + [f"f{j} float8" for j in range(1, column_table.NNUM + 1)])
    db.execute(f"CREATE TABLE col_text (id int PRIMARY KEY, class int, {cols})")
    values = ", ".join([f"'v' || (i % {j + 2})" for j in range(column_table.NCAT)] + [f"i * {j}.5" for j in range(column_table.NNUM)])
    db.execute(f"INSERT INTO col_text SELECT i, i % 3, {values} FROM generate_series(1, 30) AS i")
    db.execute("CREATE TABLE mixed200k (id int, class int, attributes float8[])")
    db.execute("INSERT INTO mixed200k SELECT i, i % 3, array_fill(i::float8, ARRAY[15]) FROM generate_series(1, 30) AS i")
    db.execute("ANALYZE col_text, mixed200k")
    return db


def test_the_column_tables_floors_compute_every_gaussian_aggregate(column_tables: psycopg.Connection[Any]) -> None:
    train_cats, train_gauss = column_table.floor_queries("col_text")
    cv_cats, cv_gauss, _predict = column_table.cv_floor_queries("col_text")
    assert computed(column_tables, train_cats) == []
    # avg and var_samp of each of f1 .. f5: in the plan's Output of the aggregation (and of the nodes that carry it)
    for gauss in (train_gauss, cv_gauss):
        found = computed(column_tables, gauss)
        assert found.count("avg(") >= column_table.NNUM and found.count("var_samp(") >= column_table.NNUM, found


def test_the_array_faces_floor_computes_every_gaussian_aggregate(column_tables: psycopg.Connection[Any]) -> None:
    numeric = len(DATASETS["mixed200k"].numeric)
    found = computed(column_tables, sql.SQL(floors.train_cat_floor("mixed200k")))
    assert numeric > 0 and found.count("avg(") >= numeric and found.count("var_samp(") >= numeric, found


def test_over_count_star_the_planner_drops_the_aggregates(column_tables: psycopg.Connection[Any]) -> None:
    # why the floors read count(s.*): the same statement over count(*) computes none of them
    _cats, gauss = column_table.floor_queries("col_text")
    pruned = sql.SQL(gauss.as_string(column_tables).replace(column_table.COMPUTED, "SELECT count(*) FROM ", 1))
    assert computed(column_tables, pruned) == []


def test_the_one_row_model_view_returns_the_views_rows_without_reading_the_model_tables(db: psycopg.Connection[Any]) -> None:
    # bench.jit_views measures how much a model read of fewer nodes could save with this view: the same rows, the model
    # read from a copy of its one row
    db.execute("CREATE TABLE num1m (id int PRIMARY KEY, class int, attributes float8[])")
    db.execute("INSERT INTO num1m SELECT i, i % 3, ARRAY(SELECT (i * j) % 17 + (i % 3) * 2.5 FROM generate_series(1, 10) AS j) "
               "FROM generate_series(1, 300) AS i")
    floors.prepare(db, "num1m")
    db.execute(floors.view_sql("num1m", "jit_view"))
    jit_views.one_row_model(db, "jit_view", "jit_model_row", "jit_view_one_row")
    rows = db.execute("SELECT key, nb_classification FROM jit_view ORDER BY key").fetchall()
    assert len(rows) == 300 and len({tuple(r[1]) for r in rows}) > 1
    assert db.execute("SELECT key, nb_classification FROM jit_view_one_row ORDER BY key").fetchall() == rows
    plan = "\n".join(r[0] for r in db.execute("EXPLAIN SELECT * FROM jit_view_one_row"))
    assert "jit_model_row" in plan and not re.search(rf"\b({floors.FP}|{floors.CP}|{floors.NP})\b", plan), plan
