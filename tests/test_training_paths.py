"""Numeric-only training reads attributes by subscript (one GROUP BY class, no unnest).

Arrays that are not one-dimensional and 1-based make it fall back to the unnest
pass; either way the tables must be MADlib's numbers, computed here with Python's
statistics module.
"""

from __future__ import annotations

import statistics

import pytest

from helpers import sqlstate_of

ROWS = [
    (1, "a", [1.0, 10.0]), (2, "a", [2.0, 14.0]), (3, "a", [4.0, None]), (4, "a", [None, 11.0]),
    (5, "b", [7.0, 1.0]), (6, "b", [9.0, 3.0]), (7, "b", [8.5, 2.0]),
    (8, "b", None),  # no attributes at all: counts for its class only
]


def _expected() -> dict[tuple[str, int], tuple[float, float, int]]:
    out = {}
    for c in ("a", "b"):
        for j in (0, 1):
            vals = [a[j] for _, k, a in ROWS if k == c and a is not None and a[j] is not None]
            out[(c, j + 1)] = (statistics.fmean(vals), statistics.variance(vals), len(vals))
    return out


def _check(db) -> None:
    cp = dict(db.execute("SELECT class, class_cnt FROM cp").fetchall())
    assert cp == {"a": 4, "b": 4}
    assert {r[0] for r in db.execute("SELECT all_cnt FROM cp")} == {8}
    got = {(c, a): (m, v, n) for c, a, m, v, n in db.execute("SELECT class, attr, attr_mean, attr_var, value_cnt FROM np")}
    want = _expected()
    assert got.keys() == want.keys()
    for key, (m, v, n) in want.items():
        assert got[key][0] == pytest.approx(m, rel=1e-12)
        assert got[key][1] == pytest.approx(v, rel=1e-12)
        assert got[key][2] == n


@pytest.mark.parametrize("lower_bound", [1, 0, 5])
def test_numeric_statistics_whatever_the_arrays_lower_bound(db, lower_bound):
    db.execute("CREATE TABLE t (id int, class text, attributes float8[])")
    with db.cursor() as cur:
        for i, c, a in ROWS:
            if a is None:
                cur.execute("INSERT INTO t VALUES (%s, %s, NULL)", (i, c))
            else:
                lit = "{" + ",".join("NULL" if x is None else repr(x) for x in a) + "}"
                if lower_bound != 1:
                    lit = f"[{lower_bound}:{lower_bound + len(a) - 1}]=" + lit
                cur.execute("INSERT INTO t VALUES (%s, %s, %s::float8[])", (i, c, lit))
    db.execute("SELECT madnb.create_nb_prepared_data_tables('t', 'class', 'attributes', '1,2', 2, 'fp', 'np', 'cp')")
    _check(db)


def test_numeric_statistics_of_an_empty_array_row(db):
    db.execute("CREATE TABLE t (id int, class text, attributes float8[])")
    with db.cursor() as cur:
        cur.executemany("INSERT INTO t VALUES (%s, %s, %s)", [(i, c, a if a is not None else []) for i, c, a in ROWS])
    db.execute("SELECT madnb.create_nb_prepared_data_tables('t', 'class', 'attributes', '1,2', 2, 'fp', 'np', 'cp')")
    _check(db)


@pytest.mark.parametrize("bad", ["{1,2,3}", "{1}", "{{1,2},{3,4}}"])
def test_numeric_arrays_of_the_wrong_shape_are_2202E_and_nothing_is_left(db, bad):
    db.execute("CREATE TABLE t (id int, class text, attributes float8[])")
    db.execute("INSERT INTO t VALUES (1, 'a', '{1,2}'), (2, 'b', '{3,4}'), (3, 'a', %s)", (bad,))
    err = sqlstate_of(db, "SELECT madnb.create_nb_prepared_data_tables('t', 'class', 'attributes', '1,2', 2, 'fp', 'np', 'cp')")
    assert err.diag.sqlstate == "2202E"
    assert db.execute("SELECT count(*) FROM pg_class WHERE relname IN ('fp', 'np', 'cp')").fetchone()[0] == 0
