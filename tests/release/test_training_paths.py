"""Training paths that must give the same tables as the general unnest pass.

Numeric-only training reads attributes by subscript (one GROUP BY class, no
unnest); arrays that are not one-dimensional and 1-based make it fall back to the
unnest pass.  Categorical integer codes are grouped on one packed int8 key per
element.  Either way the tables must be MADlib's numbers, computed here in Python.
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


# ---------------------------------------------------------------------------
# Categorical integer codes: one packed int8 key per element
# ---------------------------------------------------------------------------

CODE_ROWS = [
    (1, "a", [0, -3, 2147483647]), (2, "a", [1, -3, None]), (3, "a", [0, 5, -2147483648]),
    (4, "b", [1, 5, 2147483647]), (5, "b", [None, None, 0]), (6, "b", None), (7, "b", []),
    (8, "c", [2, -3, 0]),
    (9, None, [7, 7, 7]), (10, None, None),  # no class: ignored (with a NOTICE)
]


def _code_table(db, elem: str, rows) -> None:
    db.execute(f"CREATE TABLE t (id int, class text, attributes {elem}[])")
    with db.cursor() as cur:
        cur.executemany(f"INSERT INTO t VALUES (%s, %s, %s::{elem}[])", rows)


def _expected_codes(rows, num_attrs: int):
    """MADlib's tables counted in Python: every class x (attr, value seen), zeros included."""
    classed = [(c, a) for _, c, a in rows if c is not None]
    classes = sorted({c for c, _ in classed})
    seen = sorted({(j + 1, a[j]) for _, a in classed if a for j in range(num_attrs) if a[j] is not None})
    attr_cnt = {o: sum(1 for oo, _ in seen if oo == o) for o, _ in seen}
    fp = {
        (c, o, v): (sum(1 for cc, a in classed if cc == c and a and a[o - 1] == v), attr_cnt[o])
        for c in classes for o, v in seen
    }
    cp = {c: sum(1 for cc, _ in classed if cc == c) for c in classes}
    return fp, cp


@pytest.mark.parametrize("elem", ["int4", "int2"])
def test_integer_codes_count_nulls_empty_arrays_and_extreme_values(db, elem):
    rows = CODE_ROWS if elem == "int4" else [
        (i, c, None if a is None else [None if x is None else max(-32768, min(32767, x)) for x in a]) for i, c, a in CODE_ROWS
    ]
    _code_table(db, elem, rows)
    notices = []
    db.add_notice_handler(lambda d: notices.append(d.message_primary))
    db.execute("SELECT madnb.create_nb_prepared_data_tables('t', 'class', 'attributes', 3, 'fp', 'cp')")
    fp, cp = _expected_codes(rows, 3)
    got = {(c, o, v): (n, k) for c, o, v, n, k in db.execute("SELECT class, attr, value, cnt, attr_cnt FROM fp")}
    assert got == fp
    assert dict(db.execute("SELECT class, class_cnt FROM cp").fetchall()) == cp
    assert {r[0] for r in db.execute("SELECT all_cnt FROM cp")} == {sum(cp.values())}
    assert any("2 row(s)" in m and "NULL class" in m for m in notices)


@pytest.mark.parametrize(
    "bad, message",
    [("{1,2,3,4}", "up to 4 elements"), ("{1}", "1 attribute array(s) have fewer than numAttrs = 3"), ("{{1,2},{3,4}}", "up to 4 elements")],
)
def test_integer_codes_of_the_wrong_length_are_2202E_and_nothing_is_left(db, bad, message):
    _code_table(db, "int4", [(1, "a", [1, 2, 3]), (2, "b", [3, 4, 5]), (3, None, [1]), (4, "a", bad)])
    setting = db.execute("SELECT current_setting('parallel_tuple_cost')").fetchone()[0]
    err = sqlstate_of(db, "SELECT madnb.create_nb_prepared_data_tables('t', 'class', 'attributes', 3, 'fp', 'cp')")
    assert err.diag.sqlstate == "2202E"
    assert message in err.diag.message_primary
    assert db.execute("SELECT count(*) FROM pg_class WHERE relname IN ('fp', 'cp') OR relname LIKE 'madnb%'").fetchone()[0] == 0
    assert db.execute("SELECT current_setting('parallel_tuple_cost')").fetchone()[0] == setting


def test_integer_codes_ignore_the_shape_of_unclassed_rows(db):
    """As the unnest pass does: a row without a class is not read for its attributes."""
    _code_table(db, "int4", [(1, "a", [1, 2]), (2, "b", [2, 1]), (3, None, [1, 2, 3, 4]), (4, None, [5])])
    db.execute("SELECT madnb.create_nb_prepared_data_tables('t', 'class', 'attributes', 2, 'fp', 'cp')")
    assert db.execute("SELECT count(*), sum(cnt) FROM fp").fetchone() == (8, 4)


@pytest.mark.parametrize("rows, attrs", [(200000, 3), (10000, 500)])
def test_integer_code_training_aggregates_in_parallel_and_restores_the_setting(db, rows, attrs):
    """The pass groups in the workers (Partial HashAggregate over the select-list unnest),
    narrow or wide; the scaled parallel_tuple_cost it plans with ends with the statement.
    (Planned with the plain setting, the wide table gathered and sorted every element.)"""
    db.execute(
        "CREATE TABLE t AS SELECT i AS id, (i %% 3)::text AS class, "
        "ARRAY(SELECT ((i / j) %% 5)::int4 FROM generate_series(1, %s) AS j) AS attributes "
        "FROM generate_series(1, %s) AS i",
        (attrs, rows),
    )
    db.execute("ANALYZE t")
    db.execute("SET parallel_tuple_cost = 0.25")
    db.execute("SET min_parallel_table_scan_size = 0")  # the wide table compresses to a few pages
    db.execute("LOAD 'auto_explain'")
    db.execute("SET auto_explain.log_min_duration = 0")
    db.execute("SET auto_explain.log_nested_statements = on")
    db.execute("SET auto_explain.log_level = notice")
    plans = []
    db.add_notice_handler(lambda d: plans.append(d.message_primary))
    db.execute(f"SELECT madnb.create_nb_prepared_data_tables('t', 'class', 'attributes', {attrs}, 'fp', 'cp')")
    db.execute("SET auto_explain.log_min_duration = -1")
    passes = [p for p in plans if "ProjectSet" in p]
    assert len(passes) == 1
    assert "Partial HashAggregate" in passes[0] and "Gather" in passes[0], passes[0]
    assert db.execute("SELECT current_setting('parallel_tuple_cost')").fetchone()[0] == "0.25"
    # class i % 3; attribute j = (i / j) % 5
    want_cp = {c: sum(1 for i in range(1, rows + 1) if str(i % 3) == c) for c in "012"}
    assert dict(db.execute("SELECT class, class_cnt FROM cp").fetchall()) == want_cp
    for j in (1, attrs):
        want = {(c, v): sum(1 for i in range(1, rows + 1) if str(i % 3) == c and (i // j) % 5 == v) for c in "012" for v in range(5)}
        got = {(c, v): n for c, v, n in db.execute("SELECT class, value, cnt FROM fp WHERE attr = %s", (j,))}
        assert got == want


# ---------------------------------------------------------------------------
# Mixed tables: categorical attributes by slices, numeric ones by subscript
# ---------------------------------------------------------------------------

MIXED_ROWS = [
    (1, "a", [1.0, 0.5, 2.0, 10.0, 3.0]), (2, "a", [1.0, 1.5, None, 14.0, 3.0]), (3, "a", [2.0, None, 2.0, 12.0, None]),
    (4, "b", [2.0, 7.0, 1.0, 1.0, 4.0]), (5, "b", [None, 9.0, 1.0, 3.0, 4.0]), (6, "b", [2.0, 8.5, 2.0, 2.5, 3.0]),
    (7, "b", None), (8, "a", []),  # no attributes at all: counts for its class only
    (9, None, [5.0, 5.0, 5.0, 5.0, 5.0]),  # no class: ignored
]
MIXED_NUMERIC = (2, 4)  # categorical 1, 3 and 5: two slices, [1:1] || [3:3] || [5:5]


def _mixed_expected(rows=MIXED_ROWS, numeric=MIXED_NUMERIC, width=5):
    classed = [(c, a) for _, c, a in rows if c is not None]
    fp, cp = _expected_codes([(0, c, a) for c, a in classed], width)
    fp = {key: val for key, val in fp.items() if key[1] not in numeric}
    cat_seen = sorted({(o, v) for (_, o, v) in fp})
    attr_cnt = {o: sum(1 for oo, _ in cat_seen if oo == o) for o, _ in cat_seen}
    fp = {key: (n, attr_cnt[key[1]]) for key, (n, _) in fp.items()}
    np = {}
    for c in sorted(cp):
        for j in numeric:
            vals = [a[j - 1] for cc, a in classed if cc == c and a and a[j - 1] is not None]
            np[(c, j)] = (statistics.fmean(vals), statistics.variance(vals), len(vals))
    return fp, cp, np


def _assert_mixed_tables(db, fp, cp, np) -> None:
    """fp, cp and np equal to the expected counts and moments (pytest.approx: rel and abs 1e-12)."""
    got = {(c, o, v): (n, k) for c, o, v, n, k in db.execute("SELECT class, attr, value, cnt, attr_cnt FROM fp")}
    assert got == fp
    assert dict(db.execute("SELECT class, class_cnt FROM cp").fetchall()) == cp
    got_np = {(c, a): (m, v, n) for c, a, m, v, n in db.execute("SELECT class, attr, attr_mean, attr_var, value_cnt FROM np")}
    assert got_np.keys() == np.keys()
    for key, (m, v, n) in np.items():
        assert got_np[key][0] == pytest.approx(m, rel=1e-12, abs=1e-12)
        assert got_np[key][1] == pytest.approx(v, rel=1e-12, abs=1e-12)
        assert got_np[key][2] == n


@pytest.mark.parametrize("lower_bound", [1, 0])
def test_mixed_statistics_by_slices_and_subscripts(db, lower_bound):
    db.execute("CREATE TABLE t (id int, class text, attributes float8[])")
    with db.cursor() as cur:
        for i, c, a in MIXED_ROWS:
            lit = None if a is None else "{" + ",".join("NULL" if x is None else repr(x) for x in a) + "}"
            if lit is not None and a and lower_bound != 1:
                lit = f"[{lower_bound}:{lower_bound + len(a) - 1}]=" + lit
            cur.execute("INSERT INTO t VALUES (%s, %s, %s::float8[])", (i, c, lit))
    db.execute("SELECT madnb.create_nb_prepared_data_tables('t', 'class', 'attributes', '2,4', 5, 'fp', 'np', 'cp')")
    fp, cp, np = _mixed_expected()
    _assert_mixed_tables(db, fp, cp, np)


@pytest.mark.parametrize(
    "bad, message",
    [("{1,2,3,4,5,6}", "up to 6 elements"), ("{1,2,3}", "1 attribute array(s) have fewer than numAttrs = 5")],
)
def test_mixed_arrays_of_the_wrong_length_are_2202E(db, bad, message):
    db.execute("CREATE TABLE t (id int, class text, attributes float8[])")
    db.execute("INSERT INTO t VALUES (1, 'a', '{1,2,3,4,5}'), (2, 'b', '{3,4,5,6,7}'), (3, 'a', %s)", (bad,))
    err = sqlstate_of(db, "SELECT madnb.create_nb_prepared_data_tables('t', 'class', 'attributes', '2,4', 5, 'fp', 'np', 'cp')")
    assert err.diag.sqlstate == "2202E"
    assert message in err.diag.message_primary
    assert db.execute("SELECT count(*) FROM pg_class WHERE relname IN ('fp', 'np', 'cp')").fetchone()[0] == 0


def test_mixed_statistics_with_many_categorical_runs(db):
    """40 attributes alternating categorical and numeric: 20 slices would cost more than
    unnesting each row whole, so this table takes the general pass; same tables."""
    numeric = tuple(range(2, 41, 2))
    rows = [
        (i, "ab"[i % 2], [float((i * j) % 3) if j % 2 else float((i + j) % 7) + 0.5 for j in range(1, 41)])
        for i in range(1, 25)
    ]
    db.execute("CREATE TABLE t (id int, class text, attributes float8[])")
    with db.cursor() as cur:
        cur.executemany("INSERT INTO t VALUES (%s, %s, %s)", rows)
    indices = ",".join(str(j) for j in numeric)
    db.execute(f"SELECT madnb.create_nb_prepared_data_tables('t', 'class', 'attributes', '{indices}', 40, 'fp', 'np', 'cp')")
    fp, cp, np = _mixed_expected(rows, numeric, 40)
    _assert_mixed_tables(db, fp, cp, np)


# ---------------------------------------------------------------------------
# Text columns: grouping sets split among branches that parallel workers hash
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("workers", [0, 1, 2, 3, 7])
def test_text_column_counts_are_the_same_whatever_the_grouping_sets_branches(db, workers):
    """madnb.train counts text columns with grouping sets split into max_parallel_workers_per_gather branches
    (at most one per column); every split gives the counts computed here in Python, and a missing value is
    not counted."""
    rows = [(i, "abc"[i % 3], None if i % 7 == 0 else f"v{i % 4}", f"w{i % 5}", f"x{(i // 3) % 2}", float(i % 11))
            for i in range(1, 301)]
    db.execute("CREATE TABLE t (id int, class text, c1 text, c2 text, c3 text, f float8)")
    with db.cursor().copy("COPY t FROM STDIN") as cp:
        for r in rows:
            cp.write_row(r)
    db.execute(f"SET max_parallel_workers_per_gather = {workers}")
    db.execute("SELECT madnb.train('m', 't', 'class', exclude => ARRAY['id'])")
    got = {(c, a, v): n for c, a, v, n in db.execute(
        "SELECT class, attr, value, cnt FROM madnb_models.m_feature_probs")}
    want = {}
    for _, c, *vals, _ in rows:
        for a, v in enumerate(vals, start=1):
            if v is not None:
                want[(c, a, v)] = want.get((c, a, v), 0) + 1
    assert got == want


def test_text_column_grouping_sets_are_hashed_by_parallel_workers_at_once(db):
    """With 2 workers the 4 text columns' grouping sets are two branches of one Parallel Append, each a
    HashAggregate of its own scan (grouping sets take no workers of their own)."""
    db.execute("CREATE TABLE t AS SELECT i AS id, (i % 3)::text AS class, (i % 4)::text AS c1, (i % 5)::text AS c2, "
               "(i % 6)::text AS c3, (i % 7)::text AS c4 FROM generate_series(1, 20000) AS i")
    db.execute("ANALYZE t")
    db.execute("SET max_parallel_workers_per_gather = 2")
    db.execute("SET parallel_setup_cost = 0")
    db.execute("SET min_parallel_table_scan_size = 0")
    db.execute("LOAD 'auto_explain'")
    db.execute("SET auto_explain.log_min_duration = 0")
    db.execute("SET auto_explain.log_nested_statements = on")
    db.execute("SET auto_explain.log_level = notice")
    plans = []
    db.add_notice_handler(lambda d: plans.append(d.message_primary))
    db.execute("SELECT madnb.train('m', 't', 'class', exclude => ARRAY['id'])")
    db.execute("SET auto_explain.log_min_duration = -1")
    passes = [p for p in plans if "madnb_colstats_" in p and "CREATE TEMPORARY TABLE" in p]
    assert len(passes) == 1
    plan = passes[0]
    assert "Parallel Append" in plan, plan
    keys_per_node, node = [], None
    for line in plan.splitlines():
        if "HashAggregate" in line:
            node = []
            keys_per_node.append(node)
        elif "->" in line:
            node = None
        elif "Hash Key:" in line and node is not None:
            node.append(line)
    assert sorted(len(k) for k in keys_per_node if k) == [2, 2], plan  # two branches of two columns each
