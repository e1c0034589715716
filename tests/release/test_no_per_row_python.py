"""Training and scoring never call PL/Python once per row.

The test cluster runs with track_functions = 'pl': PostgreSQL counts every call
of a PL function.  The number of calls a step makes must not grow with the rows.
"""

from __future__ import annotations

import pytest


def pl_calls(db) -> int:
    db.execute("SELECT pg_stat_force_next_flush()")
    db.execute("SELECT pg_stat_clear_snapshot()")
    # _load_python runs once per session (loading the embedded package), not per row
    return db.execute(
        "SELECT COALESCE(sum(calls), 0) FROM pg_stat_user_functions WHERE funcname <> '_load_python'"
    ).fetchone()[0]


def calls_for(db, sql: str) -> int:
    before = pl_calls(db)
    db.execute(sql)
    return pl_calls(db) - before


def make_tables(db, n: int, suffix: str) -> None:
    # 3 categorical attributes and 2 numeric ones, class-dependent
    db.execute(
        f"CREATE TABLE t{suffix} AS SELECT i AS id, i %% 3 AS c, "
        "ARRAY[(i %% 3)::float8, ((i * 7) %% 5)::float8, ((i * 13) %% 4)::float8, (i %% 3) * 2.5 + (i %% 11) / 10.0, "
        "(i %% 17)::float8] AS x FROM generate_series(1, %s) i",
        (n,),
    )


@pytest.mark.parametrize(
    "step",
    [
        "SELECT madnb.create_nb_prepared_data_tables('t{s}', 'c', 'x', '4,5', 5, 'fp{s}', 'np{s}', 'cp{s}')",
        "CREATE TABLE cls{s} AS SELECT * FROM cv{s}",
        "CREATE TABLE prb{s} AS SELECT * FROM pv{s}",
        "CREATE TABLE ahc{s} AS SELECT * FROM acv{s}",
        "CREATE TABLE ahp{s} AS SELECT * FROM apv{s}",
    ],
)
def test_pl_function_calls_do_not_grow_with_the_number_of_rows(db, step):
    counts = []
    for s, n in (("_small", 30), ("_large", 3000)):
        make_tables(db, n, s)
        if not step.startswith("SELECT madnb.create_nb_prepared"):
            db.execute(f"SELECT madnb.create_nb_prepared_data_tables('t{s}', 'c', 'x', '4,5', 5, 'fp{s}', 'np{s}', 'cp{s}')")
            db.execute(f"SELECT madnb.create_nb_classify_view('fp{s}', 'cp{s}', 't{s}', 'id', 'x', 5, 'np{s}', 'cv{s}')")
            db.execute(f"SELECT madnb.create_nb_probs_view('fp{s}', 'cp{s}', 't{s}', 'id', 'x', 5, 'np{s}', 'pv{s}')")
            db.execute(f"SELECT madnb.create_nb_classify_view('t{s}', 'c', 'x', '4,5', 't{s}', 'id', 'x', 5, 'acv{s}')")
            db.execute(f"SELECT madnb.create_nb_probs_view('t{s}', 'c', 'x', '4,5', 't{s}', 'id', 'x', 5, 'apv{s}')")
        counts.append(calls_for(db, step.format(s=s)))
    small, large = counts
    assert small >= 1  # the counter works: every step makes at least one PL call (entry point or check)
    assert large == small, f"{small} PL calls for 30 rows but {large} for 3000"
    # and the count itself is tiny: a handful of entry points and checks, not rows
    assert large < 30
