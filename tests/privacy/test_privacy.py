"""Differentially private training: interface, errors, released shape, accounting, secrecy.

The statistical properties of the noise are in test_privacy_statistics.py.
"""

from __future__ import annotations

import math
from decimal import Decimal

import psycopg
import pytest

import madnb
from conftest import ROOT
from helpers import MANUAL_GAUSSIAN, MANUAL_TRAINING, relations, sqlstate_of
from madnb_pl.inputs import arrays, privacy_parameters
from madnb_pl.privacy import private_release
from privacy_helpers import ledger, noise_calls, notices, pl_calls, use_seeded_noise

OLD_SCRIPT = ROOT / "tests" / "fixtures" / "madnb--0.0.1.sql"

# A small mixed table: class text, attributes {colour (categorical), size (numeric), shape (categorical)}.
MIXED = """
CREATE TABLE mixed (id int, c text, x float8[]);
INSERT INTO mixed SELECT i, CASE WHEN i % 3 = 0 THEN 'b' ELSE 'a' END,
    ARRAY[(i % 4)::float8, 10 + (i % 7), (i % 2)::float8] FROM generate_series(1, 300) i;
CREATE TABLE mixed_domain (attr int, value text);
INSERT INTO mixed_domain VALUES (0, 'a'), (0, 'b'), (0, 'c'),
    (1, '0'), (1, '1'), (1, '2'), (1, '3'), (1, '4'), (3, '0'), (3, '1');
"""
MIXED_CALL = (
    "SELECT madnb.create_nb_prepared_data_tables('mixed', 'c', 'x', '2', 3, 'fp', 'np', 'cp', "
    "epsilon => %s, bounds => %s, domain => %s)"
)


@pytest.fixture
def mixed(db):
    db.execute(MIXED)
    return db


@pytest.fixture
def manual(db):
    db.execute(MANUAL_TRAINING)
    db.execute("CREATE TABLE manual_domain (attr int, value text)")
    db.execute(
        "INSERT INTO manual_domain VALUES (0, '1'), (0, '2'), (1, '0'), (1, '1'), (2, '1'), (2, '2'), (2, '4'), "
        "(3, '1'), (3, '2'), (3, '3')"
    )
    return db


def model_rows(db, np: bool = True) -> dict[str, list[tuple]]:
    out = {
        "cp": db.execute("SELECT class, class_cnt, all_cnt FROM cp ORDER BY 1").fetchall(),
        "fp": db.execute("SELECT class, attr, value, cnt, attr_cnt, smoothing FROM fp ORDER BY 2, 3, 1").fetchall(),
    }
    if np:
        out["np"] = db.execute("SELECT class, attr, attr_mean, attr_var, value_cnt FROM np ORDER BY 1, 2").fetchall()
    return out


# ---------------------------------------------------------------------------
# Interface
# ---------------------------------------------------------------------------


def test_the_private_parameters_are_optional_and_named_on_both_overloads(db):
    rows = db.execute(
        "SELECT pronargs, proargnames[pronargs - 4:pronargs], pronargdefaults, "
        "pg_get_expr(proargdefaults, 0) FROM pg_proc "
        "WHERE pronamespace = 'madnb'::regnamespace AND proname = 'create_nb_prepared_data_tables' "
        "ORDER BY pronargs"
    ).fetchall()
    assert [(n, names, d) for n, names, d, _ in rows] == [
        (11, ["epsilon", "bounds", "domain", "smoothing", "delta"], 5),
        (13, ["epsilon", "bounds", "domain", "smoothing", "delta"], 5),
    ]
    assert all(
        expr == "NULL::double precision, NULL::double precision[], NULL::text, 1, NULL::double precision" for *_, expr in rows
    )


def test_madlib_calls_resolve_to_one_overload(db):
    db.execute(MANUAL_GAUSSIAN)
    # MADlib's documented forms: numAttrs is an integer, the rest untyped literals
    db.execute(
        "SELECT madnb.create_nb_prepared_data_tables('gaussian_data', 'sex', 'attributes', 'ARRAY[1,2]', 3, "
        "'fp', 'np', 'cp')"
    )
    db.execute("SELECT madnb.create_nb_prepared_data_tables('gaussian_data', 'sex', 'attributes', '3', 'fp6', 'cp6')")
    assert db.execute("SELECT count(*) FROM np").fetchone()[0] == 4
    assert db.execute("SELECT count(*) FROM cp6").fetchone()[0] == 2
    # Known limit (docs/privacy.md): with numAttrs quoted too, eight untyped literals fit both overloads
    with pytest.raises(psycopg.errors.AmbiguousFunction):
        db.execute(
            "SELECT madnb.create_nb_prepared_data_tables('gaussian_data', 'sex', 'attributes', 'ARRAY[1,2]', '3', "
            "'fp8', 'np8', 'cp8')"
        )


def test_upgrading_the_0_0_1_script_leaves_no_duplicate_overloads(empty_db):
    url, conn = empty_db
    madnb.install(conn, script=OLD_SCRIPT.read_text())
    old = conn.execute(
        "SELECT count(*) FROM pg_proc WHERE proname = 'create_nb_prepared_data_tables' AND pronamespace = 'madnb'::regnamespace"
    ).fetchone()[0]
    assert old == 2
    madnb.install(conn)
    sigs = [
        r[0] for r in conn.execute(
            "SELECT oid::regprocedure::text FROM pg_proc WHERE pronamespace = 'madnb'::regnamespace "
            "AND proname = 'create_nb_prepared_data_tables' ORDER BY pronargs"
        )
    ]
    assert sigs == [
        "madnb.create_nb_prepared_data_tables(text,text,text,integer,text,text,double precision,"
        "double precision[],text,double precision,double precision)",
        "madnb.create_nb_prepared_data_tables(text,text,text,text,integer,text,text,text,double precision,"
        "double precision[],text,double precision,double precision)",
    ]
    conn.execute(MANUAL_TRAINING)
    conn.execute("SELECT madnb.create_nb_prepared_data_tables('training', 'class', 'attributes', 3, 'fp', 'cp')")
    assert conn.execute("SELECT count(*) FROM madnb.privacy_ledger").fetchone()[0] == 0


def test_upgrading_from_the_signatures_without_delta_leaves_no_duplicate_overloads(empty_db):
    url, conn = empty_db
    madnb.install(conn)
    # the database as the release before migration 0004 left it: the 10- and 12-argument signatures
    conn.execute("DROP FUNCTION madnb.create_nb_prepared_data_tables(text,text,text,integer,text,text,float8,float8[],text,float8,float8)")
    conn.execute(
        "DROP FUNCTION madnb.create_nb_prepared_data_tables(text,text,text,text,integer,text,text,text,float8,float8[],text,float8,float8)"
    )
    for args in ("text,text,text,integer,text,text", "text,text,text,text,integer,text,text,text"):
        conn.execute(
            f"CREATE FUNCTION madnb.create_nb_prepared_data_tables({args}, epsilon float8 DEFAULT NULL, "
            "bounds float8[] DEFAULT NULL, domain text DEFAULT NULL, smoothing float8 DEFAULT 1) RETURNS void "
            "LANGUAGE sql AS 'SELECT'"
        )
    conn.execute("DELETE FROM madnb._migrations WHERE name = '0004_private_domain'")
    madnb.install(conn)
    sigs = [
        r[0] for r in conn.execute(
            "SELECT oid::regprocedure::text FROM pg_proc WHERE pronamespace = 'madnb'::regnamespace "
            "AND proname = 'create_nb_prepared_data_tables' ORDER BY pronargs"
        )
    ]
    assert [s.count(",") + 1 for s in sigs] == [11, 13]
    conn.execute(MANUAL_GAUSSIAN)
    conn.execute(
        "SELECT madnb.create_nb_prepared_data_tables('gaussian_data', 'sex', 'attributes', 'ARRAY[1,2]', 3, 'fp', 'np', 'cp')"
    )
    conn.execute("SELECT madnb.create_nb_prepared_data_tables('gaussian_data', 'sex', 'attributes', 3, 'fp6', 'cp6')")


# ---------------------------------------------------------------------------
# Smoothing
# ---------------------------------------------------------------------------


def manual_prob(s: float) -> float:
    """P(class 1 | {0,2,1}) for the manual's data with smoothing s, from the counts worked out by hand.

    Class 1 (3 rows): attr1=0: 0, attr2=2: 2, attr3=1: 1; class 2 (3 rows): 2, 2, 0.
    attr_cnt = 2, 3, 3; priors 1/2 each.
    """
    def p(cnt: int, k: int) -> float:
        return (cnt + s) / (3 + s * k)

    l1 = p(0, 2) * p(2, 3) * p(1, 3)
    l2 = p(2, 2) * p(2, 3) * p(0, 3)
    return l1 / (l1 + l2)


def test_smoothing_is_recorded_in_the_feature_table_and_read_live_by_the_views(manual):
    manual.execute(
        "SELECT madnb.create_nb_prepared_data_tables('training', 'class', 'attributes', 3, 'fp', 'cp', smoothing => 2)"
    )
    assert manual.execute("SELECT DISTINCT smoothing FROM fp").fetchall() == [(2.0,)]
    manual.execute("SELECT madnb.create_nb_probs_view('fp', 'cp', 'toclassify', 'id', 'attributes', 3, 'pv')")
    manual.execute("SELECT madnb.create_nb_classify_view('fp', 'cp', 'toclassify', 'id', 'attributes', 3, 'cv')")
    got = manual.execute("SELECT nb_prob FROM pv WHERE key = 1 AND class = 1").fetchone()[0]
    assert got == pytest.approx(manual_prob(2.0), abs=1e-12)
    manual.execute("UPDATE fp SET smoothing = 0.5")
    got = manual.execute("SELECT nb_prob FROM pv WHERE key = 1 AND class = 1").fetchone()[0]
    assert got == pytest.approx(manual_prob(0.5), abs=1e-12)
    assert manual.execute("SELECT nb_classification FROM cv WHERE key = 1").fetchone()[0] == [1 if manual_prob(0.5) > 0.5 else 2]


def test_a_feature_table_without_a_smoothing_column_is_scored_with_s_1(manual):
    manual.execute(
        "SELECT madnb.create_nb_prepared_data_tables('training', 'class', 'attributes', 3, 'fp', 'cp', smoothing => 3)"
    )
    manual.execute("ALTER TABLE fp DROP COLUMN smoothing")
    manual.execute("SELECT madnb.create_nb_probs_view('fp', 'cp', 'toclassify', 'id', 'attributes', 3, 'pv')")
    got = manual.execute("SELECT nb_prob FROM pv WHERE key = 1 AND class = 1").fetchone()[0]
    assert got == pytest.approx(manual_prob(1.0), abs=1e-12)


@pytest.mark.parametrize("s", ["-1", "'NaN'", "'Infinity'"])
def test_a_negative_or_non_finite_smoothing_is_22023(manual, s):
    e = sqlstate_of(
        manual,
        f"SELECT madnb.create_nb_prepared_data_tables('training', 'class', 'attributes', 3, 'fp', 'cp', smoothing => {s})"
    )
    assert e.diag.sqlstate == "22023" and e.diag.message_hint
    assert "fp" not in relations(manual)


# ---------------------------------------------------------------------------
# Errors: 22023 with a hint, nothing written
# ---------------------------------------------------------------------------

BAD_CALLS = {
    "epsilon zero": ("0", "'{{0,8}}'", "'mixed_domain'"),
    "epsilon negative": ("-1", "'{{0,8}}'", "'mixed_domain'"),
    "epsilon NaN": ("'NaN'", "'{{0,8}}'", "'mixed_domain'"),
    "epsilon infinite": ("'Infinity'", "'{{0,8}}'", "'mixed_domain'"),
    "numeric attribute without bounds": ("1", "NULL", "'mixed_domain'"),
    "two pairs for one numeric attribute": ("1", "'{{0,8},{0,9}}'", "'mixed_domain'"),
    "a bound is NaN": ("1", "'{{0,NaN}}'", "'mixed_domain'"),
    "a bound is infinite": ("1", "'{{-Infinity,8}}'", "'mixed_domain'"),
    "lower equals upper": ("1", "'{{8,8}}'", "'mixed_domain'"),
    "lower above upper": ("1", "'{{9,8}}'", "'mixed_domain'"),
    "a bound is NULL": ("1", "'{{0,NULL}}'", "'mixed_domain'"),
    "no domain": ("1", "'{{0,8}}'", "NULL"),
    "bounds without epsilon": ("NULL", "'{{0,8}}'", "NULL"),
    "domain without epsilon": ("NULL", "NULL", "'mixed_domain'"),
    "domain lists values for the numeric attribute": ("1", "'{{0,8}}'", "'bad_numeric_domain'"),
    "domain lists an attribute out of range": ("1", "'{{0,8}}'", "'bad_range_domain'"),
    "domain has no class labels": ("1", "'{{0,8}}'", "'no_class_domain'"),
    "domain misses a categorical attribute": ("1", "'{{0,8}}'", "'missing_attr_domain'"),
    "domain has a NULL value": ("1", "'{{0,8}}'", "'null_domain'"),
}


@pytest.mark.parametrize("case", list(BAD_CALLS))
def test_every_invalid_private_training_is_22023_with_a_hint_and_writes_nothing(mixed, case):
    mixed.execute("CREATE TABLE bad_numeric_domain AS SELECT * FROM mixed_domain UNION ALL SELECT 2, '10'")
    mixed.execute("CREATE TABLE bad_range_domain AS SELECT * FROM mixed_domain UNION ALL SELECT 4, 'x'")
    mixed.execute("CREATE TABLE no_class_domain AS SELECT * FROM mixed_domain WHERE attr <> 0")
    mixed.execute("CREATE TABLE missing_attr_domain AS SELECT * FROM mixed_domain WHERE attr <> 3")
    mixed.execute("CREATE TABLE null_domain AS SELECT * FROM mixed_domain UNION ALL SELECT 1, NULL")
    before = relations(mixed)
    eps, bounds, domain = BAD_CALLS[case]
    e = sqlstate_of(
        mixed,
        "SELECT madnb.create_nb_prepared_data_tables('mixed', 'c', 'x', '2', 3, 'fp', 'np', 'cp', "
        f"epsilon => {eps}, bounds => {bounds}, domain => {domain})"
    )
    assert e.diag.sqlstate == "22023", e.diag.message_primary
    assert e.diag.message_hint
    message = e.diag.message_primary.removeprefix("plpy.Error: ")  # PL/Python's prefix
    assert message == message.lower() or "NULL" in message
    assert relations(mixed) == before
    assert ledger(mixed) == []
    assert mixed.execute("SELECT count(*) FROM pg_class WHERE relpersistence = 't'").fetchone()[0] == 0


def test_bounds_on_a_categorical_only_model_are_22023(manual):
    e = sqlstate_of(
        manual,
        "SELECT madnb.create_nb_prepared_data_tables('training', 'class', 'attributes', 3, 'fp', 'cp', "
        "epsilon => 1, bounds => '{{0,1}}', domain => 'manual_domain')"
    )
    assert e.diag.sqlstate == "22023"


def test_a_domain_table_without_the_expected_columns_is_rejected_before_anything_is_written(manual):
    manual.execute("CREATE TABLE wrong (a int, value text)")
    e = sqlstate_of(
        manual,
        "SELECT madnb.create_nb_prepared_data_tables('training', 'class', 'attributes', 3, 'fp', 'cp', "
        "epsilon => 1, domain => 'wrong')"
    )
    assert e.diag.sqlstate == "42703"
    manual.execute("CREATE TABLE wrong_type (attr text, value text)")
    e = sqlstate_of(
        manual,
        "SELECT madnb.create_nb_prepared_data_tables('training', 'class', 'attributes', 3, 'fp', 'cp', "
        "epsilon => 1, domain => 'wrong_type')"
    )
    assert e.diag.sqlstate == "42804"
    assert ledger(manual) == []


# ---------------------------------------------------------------------------
# What is released
# ---------------------------------------------------------------------------


def test_the_released_rows_are_the_public_domain_whatever_the_data(mixed):
    mixed.execute(MIXED_CALL, (1.0, [[0, 30]], "mixed_domain"))
    first = model_rows(mixed)
    mixed.execute("DROP TABLE fp, np, cp")
    # other data, same public domain: fewer rows, a class and values missing, values outside the domain
    mixed.execute("DELETE FROM mixed WHERE c = 'b' OR id > 50")
    mixed.execute("UPDATE mixed SET x[1] = 9 WHERE id < 10")
    mixed.execute("INSERT INTO mixed VALUES (1000, 'zzz', '{1, 5, 1}'), (1001, NULL, '{1, 5, 1}')")
    mixed.execute(MIXED_CALL, (1.0, [[0, 30]], "mixed_domain"))
    second = model_rows(mixed)
    cells = {
        "cp": [("a",), ("b",), ("c",)],
        "fp": sorted([(c, 1, float(v)) for c in "abc" for v in range(5)] + [(c, 3, float(v)) for c in "abc" for v in range(2)],
                     key=lambda r: (r[1], r[2], r[0])),
        "np": [(c, 2) for c in "abc"],
    }
    for model in (first, second):
        assert [r[:1] for r in model["cp"]] == cells["cp"]
        assert [r[:3] for r in model["fp"]] == cells["fp"]
        assert [r[:2] for r in model["np"]] == cells["np"]
        assert {r[4] for r in model["fp"] if r[1] == 1} == {5} and {r[4] for r in model["fp"] if r[1] == 3} == {2}
        assert {r[5] for r in model["fp"]} == {1.0}
        total = sum(r[1] for r in model["cp"])
        assert all(r[2] == total for r in model["cp"]) and all(r[1] >= 0 for r in model["cp"])
        assert all(r[3] >= 0 for r in model["fp"])
        for _, _, mean, var, _cnt in model["np"]:
            assert 0 <= mean <= 30 and 0 < var <= 15 ** 2
        assert [r[4] for r in model["np"]] == [r[1] for r in model["cp"]]  # value_cnt is the class count


def test_empty_cells_are_released_with_noise(db):
    # one categorical attribute, 2000 public values, the data uses 3 of them
    db.execute("CREATE TABLE t AS SELECT i AS id, (i % 2)::text AS c, ARRAY[(i % 3)::text] AS x FROM generate_series(1, 600) i")
    db.execute(
        "CREATE TABLE dom AS SELECT 0 AS attr, v::text AS value FROM generate_series(0, 1) v "
        "UNION ALL SELECT 1, v::text FROM generate_series(0, 1999) v"
    )
    db.execute(
        "SELECT madnb.create_nb_prepared_data_tables('t', 'c', 'x', 1, 'fp', 'cp', epsilon => 1, domain => 'dom')"
    )
    empty = [r[0] for r in db.execute("SELECT cnt FROM fp WHERE value NOT IN ('0', '1', '2')")]
    assert len(empty) == 2 * 1997
    # epsilon' = 1/2 (class counts + one attribute); clamped noise is positive with P = a / (1 + a), a = e^-1/2
    a = math.exp(-0.5)
    p = a / (1 + a)
    frac = sum(1 for c in empty if c > 0) / len(empty)
    assert abs(frac - p) < 5 * math.sqrt(p * (1 - p) / len(empty))


def test_a_huge_epsilon_gives_the_exact_statistics(db):
    db.execute(MANUAL_GAUSSIAN)
    db.execute(
        "SELECT madnb.create_nb_prepared_data_tables('gaussian_data', 'sex', 'attributes', 'ARRAY[1,2]', 3, "
        "'fp', 'np', 'cp', epsilon => 1e12, bounds => '{{4,8},{90,200}}', domain => 'observed')"
    )
    assert db.execute("SELECT class, class_cnt, all_cnt FROM cp ORDER BY 1").fetchall() == [(1, 4, 8), (2, 4, 8)]
    got = db.execute("SELECT class, attr, attr_mean, attr_var, value_cnt FROM np ORDER BY 1, 2").fetchall()
    rows = {1: [(6, 180), (5.92, 190), (5.58, 170), (5.92, 165)], 2: [(5, 100), (5.5, 150), (5.42, 130), (5.75, 150)]}
    for cls, attr, mean, var, cnt in got:
        xs = [r[attr - 1] for r in rows[cls]]
        m = sum(xs) / 4
        h = 2 if attr == 1 else 55
        assert cnt == 4
        assert mean == pytest.approx(m, abs=h / 2**19)  # fixed point: steps of h / 2**20
        assert var == pytest.approx(sum((x - m) ** 2 for x in xs) / 4, abs=h * h / 2**17)  # the paper's n-denominator


def test_numeric_values_are_clipped_to_their_bounds_before_aggregation(db):
    db.execute("CREATE TABLE t (id int, c int, x numeric[])")
    db.execute("INSERT INTO t SELECT i, 1, ARRAY[1e400] FROM generate_series(1, 10) i")  # far beyond float8
    db.execute(
        "SELECT madnb.create_nb_prepared_data_tables('t', 'c', 'x', '1', 1, 'fp', 'np', 'cp', "
        "epsilon => 1e12, bounds => '{{0,5}}', domain => 'observed')"
    )
    mean, var = db.execute("SELECT attr_mean, attr_var FROM np").fetchone()
    assert mean == 5.0 and 0 < var < 1e-9  # every value sits on the upper bound; the variance is its floor


# ---------------------------------------------------------------------------
# No property of one row decides whether a release succeeds (issue 9, B4)
# ---------------------------------------------------------------------------

# One odd row of class 'z' (in the domain, no other rows): (attribute array, the values it counts).
# Only a one-dimensional array is read, by position whatever its lower bound; any other shape is all missing.
ODD_ROWS = {
    "2-D, inner length 2": ("{{1,0},{1,1}}", {}),
    "2-D, inner length 1": ("{{1},{0}}", {}),
    "3-D": ("{{{1}}}", {}),
    "NULL": (None, {}),
    "empty": ("{}", {}),
    "lower bound 0": ("[0:2]={1,7,0}", {1: 1.0, 3: 0.0}),
    "longer than numAttrs": ("{0,7,1,1,1}", {1: 0.0, 3: 1.0}),
}


@pytest.mark.parametrize("shape", list(ODD_ROWS))
def test_a_row_of_any_array_shape_is_released_and_counts_for_its_class_only(mixed, shape):
    array, counted = ODD_ROWS[shape]
    mixed.execute("INSERT INTO mixed VALUES (999, 'c', %s::float8[])", (array,))
    mixed.execute(MIXED_CALL, (1e12, [[0, 30]], "mixed_domain"))  # epsilon' = 2e11: no noise in practice
    assert mixed.execute("SELECT class_cnt FROM cp WHERE class = 'c'").fetchone()[0] == 1
    got = {(a, float(v)): n for a, v, n in mixed.execute("SELECT attr, value, cnt FROM fp WHERE class = 'c'")}
    assert got == {(a, v): int(counted.get(a) == v) for a, v in got}
    # attribute 2 (numeric, bounds {0, 30}): the odd row holds 7 only where it is read by position
    mean = mixed.execute("SELECT attr_mean FROM np WHERE class = 'c'").fetchone()[0]
    assert mean == pytest.approx(7.0 if counted else 15.0, abs=1e-4)  # all missing: the midpoint
    assert mixed.execute("SELECT class_cnt FROM cp WHERE class = 'a'").fetchone()[0] == 200


@pytest.mark.parametrize("domain", ["observed", "private"])
def test_arrays_of_two_and_three_dimensions_do_not_fail_a_release_from_the_data(mixed, domain):
    mixed.execute("INSERT INTO mixed VALUES (998, 'c', '{{1,0},{1,1}}'), (999, 'c', '{{{1}}}')")
    mixed.execute(
        "SELECT madnb.create_nb_prepared_data_tables('mixed', 'c', 'x', '2', 3, 'fp', 'np', 'cp', "
        "epsilon => 1e6, bounds => '{{0,30}}', domain => %s, delta => %s)",
        (domain, 1e-6 if domain == "private" else None),
    )
    assert mixed.execute("SELECT class, class_cnt FROM cp ORDER BY 1").fetchall()[:2] == [("a", 200), ("b", 100)]
    assert len(ledger(mixed)) == 1


# Categorical integer codes: (class, elements, lower bound) of each row; a nested list is a 2-D or 3-D array;
# "max" and "min" stand for the element type's extremes.
CODE_ROWS = [
    *[("a", [i % 4, i % 2], 1) for i in range(40)],
    *[("b", [-(i % 3), 1 - i % 2], 1) for i in range(21)],
    ("c", [[1, 0], [1, 1]], 1), ("c", [[[1]]], 1), ("c", None, 1), ("c", [], 1), ("c", [3, 1, 0], 0),
    ("c", [2, 1, 1, 1], 1), ("c", [None, 1], 1), ("c", [2], 1), ("c", ["max", "min"], 1), (None, [1, 1], 1),
]
CODE_DOMAIN = {0: ["a", "b", "c"], 1: ["-2", "-1", "0", "1", "2", "3", "4", "max"], 2: ["0", "1", "7", "min"]}
CODE_EXTREMES = {"smallint": 2**15, "integer": 2**31, "bigint": 2**63}


def _array_text(elements: list | None, lower: int) -> str | None:
    if elements is None:
        return None

    def text(xs: list) -> str:
        return "{" + ",".join(text(x) if isinstance(x, list) else "NULL" if x is None else str(x) for x in xs) + "}"

    return (f"[{lower}:{lower + len(elements) - 1}]=" if lower != 1 else "") + text(elements)


@pytest.mark.parametrize("elem", list(CODE_EXTREMES))
def test_integer_codes_release_the_counts_of_the_rows_read_by_position_whatever_their_shape(db, elem):
    # smallint and integer codes are counted from one packed key per element (private_release.dp_packed_stats_select),
    # bigint ones by unnest: the same counts by the same rules, worked out here from the rows
    extreme = {"max": CODE_EXTREMES[elem] - 1, "min": -CODE_EXTREMES[elem]}

    def value(x):
        return [value(y) for y in x] if isinstance(x, list) else extreme.get(x, x)

    rows = [(c, value(e), lo) for c, e, lo in CODE_ROWS]
    db.execute(f"CREATE TABLE codes (c text, x {elem}[])")
    for c, e, lo in rows:
        db.execute(f"INSERT INTO codes VALUES (%s, %s::{elem}[])", (c, _array_text(e, lo)))
    db.execute("CREATE TABLE codes_domain (attr int, value text)")
    domain = {a: [str(extreme.get(v, v)) for v in values] for a, values in CODE_DOMAIN.items()}
    for a, values in domain.items():
        for v in values:
            db.execute("INSERT INTO codes_domain VALUES (%s, %s)", (a, v))
    db.execute(
        "SELECT madnb.create_nb_prepared_data_tables('codes', 'c', 'x', 2, 'fp', 'cp', epsilon => 1e12, domain => 'codes_domain')"
    )
    # a one-dimensional array is read by position whatever its lower bound; any other shape is all missing
    read = [(c, e) for c, e, _ in rows if c is not None and e is not None and not any(isinstance(x, list) for x in e)]
    expected = {
        (c, a, int(v)): sum(1 for k, e in read if k == c and len(e) >= a and e[a - 1] == int(v))
        for c in domain[0] for a in (1, 2) for v in domain[a]
    }
    assert {(c, a, int(v)): n for c, a, v, n in db.execute("SELECT class, attr, value, cnt FROM fp")} == expected
    assert expected[("c", 1, 2)] == 2 and expected[("c", 2, 1)] == 3 and expected[("c", 1, extreme["max"])] == 1
    classes = [c for c, _, _ in rows if c is not None]
    assert db.execute("SELECT class, class_cnt FROM cp ORDER BY 1").fetchall() == [(c, classes.count(c)) for c in "abc"]
    assert len(ledger(db)) == 1


# ---------------------------------------------------------------------------
# Linear in the domain (issue 9, B8)
# ---------------------------------------------------------------------------


def test_the_domain_cells_join_the_statistics_by_hash(db):
    t = arrays.Training(
        madnb_relation("wide"), stats_column("c", "integer", 23), stats_column("x", "text[]", 1009, "text", 25), 1, (),
    )
    db.execute("CREATE TABLE wide AS SELECT i % 2 AS c, ARRAY[(i % 16000)::text] AS x FROM generate_series(1, 32000) i")
    db.execute("ANALYZE wide")
    db.execute("SELECT madnb._load_python()")
    db.execute("CREATE TEMP TABLE dom (o int4, cls int, v text)")
    db.execute("INSERT INTO dom SELECT 0, c, NULL FROM generate_series(0, 1) c UNION ALL SELECT 1, NULL, v::text FROM generate_series(0, 15999) v")
    db.execute("ANALYZE dom")
    plan = "\n".join(r[0] for r in db.execute("EXPLAIN " + private_release.dp_release_select(t, privacy_parameters.parse_bounds(None, []), "dom", 0.1)))
    assert "Hash Right Join" in plan or "Hash Left Join" in plan, plan
    assert "Merge" not in plan and "DISTINCT" not in plan, plan


# ---------------------------------------------------------------------------
# Validation before the charge; nothing after it can fail (issue 9, B9)
# ---------------------------------------------------------------------------

UNCHARGEABLE = {
    "bounds at +-1e308": (1.0, [[-1e308, 1e308]]),
    "bounds 1e-300 apart": (1.0, [[0.0, 1e-300]]),
    "epsilon 1e308": (1e308, [[0, 30]]),
    "epsilon 1e-300": (1e-300, [[0, 30]]),
}


@pytest.mark.parametrize("case", list(UNCHARGEABLE))
def test_extreme_bounds_and_epsilons_are_22023_before_the_budget_is_charged(mixed, case):
    eps, bounds = UNCHARGEABLE[case]
    mixed.execute("SELECT madnb.set_privacy_budget('mixed', 1000000)")
    before = budget(mixed)
    e = sqlstate_of(mixed, MIXED_CALL, (eps, bounds, "mixed_domain"))
    assert e.diag.sqlstate == "22023", e.diag.message_primary
    assert e.diag.message_hint
    assert ledger(mixed) == [] and budget(mixed) == before
    assert "cp" not in relations(mixed)


@pytest.mark.parametrize("eps", [6e-50, 4e50])  # epsilon' = 1.2e-50 and 8e49, inside [1e-50, 1e50]
@pytest.mark.parametrize("bounds", [[[-1e100, 1e100]], [[0.0, 2e-100]], [[1e100, 1e100 + 1e90]]])
def test_the_extremes_that_pass_validation_release_a_model_whatever_the_noise(mixed, eps, bounds):
    mixed.execute(MIXED_CALL, (eps, bounds, "mixed_domain"))
    (lo, hi), = bounds
    h2 = (hi / 2 - lo / 2) ** 2
    for _, _, mean, var, cnt in model_rows(mixed)["np"]:
        assert lo <= mean <= hi and 0 < var <= h2 and 0 <= cnt <= 2**50
    assert all(0 <= r[3] <= 2**50 for r in model_rows(mixed)["fp"])
    assert len(ledger(mixed)) == 1


# ---------------------------------------------------------------------------
# The ledger and budgets
# ---------------------------------------------------------------------------


def test_each_release_is_one_ledger_row_with_its_parameters(mixed):
    mixed.execute(MIXED_CALL, (1.0, [[0, 30]], "mixed_domain"))
    rows = mixed.execute(
        "SELECT source_oid = 'mixed'::regclass::oid, source_name, epsilon, mechanism, parameters, released_by = current_user, "
        "released_at <= clock_timestamp() FROM madnb.privacy_ledger"
    ).fetchall()
    assert len(rows) == 1
    same_oid, name, eps, mech, params, by_me, when = rows[0]
    assert (same_oid, name, eps, by_me, when) == (True, "public.mixed", Decimal(1), True, True)
    assert "discrete laplace" in mech
    # 1 class-count query, 2 categorical attributes, 2 queries for the numeric one
    # epsilon' = 1/5 rounded down to a float8, so that 5 of them never exceed epsilon
    assert params["queries"] == 5 and params["epsilon_per_query"] == math.nextafter(0.2, 0)
    assert params["bounds"] == {"2": [0.0, 30.0]} and params["domain"] == "public.mixed_domain"
    assert params["sensitivity"] == {"count": 1, "sum": 2**20, "sum_of_squares": 2**40}
    assert params["outputs"] == {"featureProbs": "public.fp", "numericFeatureStats": "public.np", "classPriors": "public.cp"}
    comment = mixed.execute("SELECT obj_description('cp'::regclass, 'pg_class')").fetchone()[0]
    assert "differentially private" in comment and "release 1" in comment


def budget(db) -> tuple:
    return db.execute(
        "SELECT total_epsilon, spent_epsilon, remaining_epsilon, releases, unrecorded_epsilon FROM madnb.privacy_budget_status"
    ).fetchone()


def test_a_release_that_would_exceed_the_budget_fails_before_any_noise_is_drawn(mixed):
    mixed.execute("SELECT madnb.set_privacy_budget('mixed', 1.0)")
    mixed.execute(MIXED_CALL, (0.6, [[0, 30]], "mixed_domain"))
    assert budget(mixed) == (1, Decimal("0.6"), Decimal("0.4"), 1, 0)
    mixed.execute("DROP TABLE fp, np, cp")
    draws = noise_calls(mixed)
    before = relations(mixed)
    e = sqlstate_of(mixed, MIXED_CALL, (0.5, [[0, 30]], "mixed_domain"))
    assert e.diag.sqlstate == "53400"
    assert "0.4" in e.diag.message_detail and e.diag.message_hint
    assert noise_calls(mixed) == draws  # no noise was drawn
    assert relations(mixed) == before and len(ledger(mixed)) == 1
    assert budget(mixed) == (1, Decimal("0.6"), Decimal("0.4"), 1, 0)
    mixed.execute(MIXED_CALL, (0.4, [[0, 30]], "mixed_domain"))  # exactly what is left
    assert budget(mixed) == (1, 1, 0, 2, 0)


def test_ten_releases_of_a_tenth_fit_a_budget_of_one_exactly(manual):
    manual.execute("SELECT madnb.set_privacy_budget('training', 1)")
    for i in range(10):
        manual.execute(
            "SELECT madnb.create_nb_prepared_data_tables('training', 'class', 'attributes', 3, %s, %s, "
            "epsilon => 0.1, domain => 'manual_domain')",
            (f"fp{i}", f"cp{i}"),
        )
    assert budget(manual) == (1, 1, 0, 10, 0)
    e = sqlstate_of(
        manual,
        "SELECT madnb.create_nb_prepared_data_tables('training', 'class', 'attributes', 3, 'fp', 'cp', "
        "epsilon => 1e-12, domain => 'manual_domain')"
    )
    assert e.diag.sqlstate == "53400"


def test_a_budget_set_later_counts_the_releases_already_in_the_ledger(manual):
    for i in range(2):
        manual.execute(
            "SELECT madnb.create_nb_prepared_data_tables('training', 'class', 'attributes', 3, %s, %s, "
            "epsilon => 0.3, domain => 'manual_domain')",
            (f"fp{i}", f"cp{i}"),
        )
    manual.execute("SELECT madnb.set_privacy_budget('training', 1)")
    assert budget(manual) == (1, Decimal("0.6"), Decimal("0.4"), 2, 0)
    manual.execute("SELECT madnb.set_privacy_budget('training', 2)")  # raising it keeps what was spent
    assert budget(manual) == (2, Decimal("0.6"), Decimal("1.4"), 2, 0)


def test_a_rolled_back_release_still_counts_against_the_budget(cluster, mixed):
    mixed.execute("SELECT madnb.set_privacy_budget('mixed', 1)")
    url = cluster.url_for(mixed.info.dbname)
    with psycopg.connect(url) as tx:  # not autocommit: the caller's own transaction
        tx.execute("SET search_path = public, madnb")
        tx.execute(MIXED_CALL, (0.6, [[0, 30]], "mixed_domain"))
        assert tx.execute("SELECT count(*) FROM cp").fetchone()[0] == 3  # the caller saw the noisy model ...
        tx.rollback()  # ... and rolls back
    assert "cp" not in relations(mixed) and ledger(mixed) == []
    assert budget(mixed) == (1, Decimal("0.6"), Decimal("0.4"), 0, Decimal("0.6"))
    e = sqlstate_of(mixed, MIXED_CALL, (0.5, [[0, 30]], "mixed_domain"))
    assert e.diag.sqlstate == "53400"


def test_concurrent_releases_from_one_source_are_serialised(cluster, mixed):
    mixed.execute("SELECT madnb.set_privacy_budget('mixed', 1)")
    url = cluster.url_for(mixed.info.dbname)
    with psycopg.connect(url) as first, psycopg.connect(url, autocommit=True) as second:
        first.execute(MIXED_CALL, (0.6, [[0, 30]], "mixed_domain"))  # holds the budget's row lock until it ends
        second.execute("SET lock_timeout = '200ms'")
        e = sqlstate_of(second, MIXED_CALL.replace("'fp', 'np', 'cp'", "'fp2', 'np2', 'cp2'"), (0.3, [[0, 30]], "mixed_domain"))
        assert e.diag.sqlstate == "55P03"
        first.commit()
        # sees the first charge now: 0.6 + 0.5 > 1
        e = sqlstate_of(second, MIXED_CALL.replace("'fp', 'np', 'cp'", "'fp2', 'np2', 'cp2'"), (0.5, [[0, 30]], "mixed_domain"))
        assert e.diag.sqlstate == "53400"
        second.execute(MIXED_CALL.replace("'fp', 'np', 'cp'", "'fp2', 'np2', 'cp2'"), (0.4, [[0, 30]], "mixed_domain"))
    assert budget(mixed) == (1, 1, 0, 2, 0)


@pytest.mark.parametrize("total", ["0", "-1", "'NaN'", "NULL", "2000000"])
def test_an_invalid_budget_is_22023(mixed, total):
    e = sqlstate_of(mixed, f"SELECT madnb.set_privacy_budget('mixed', {total})")
    assert e.diag.sqlstate == "22023" and e.diag.message_hint
    assert mixed.execute("SELECT count(*) FROM madnb.privacy_budget").fetchone()[0] == 0


# ---------------------------------------------------------------------------
# Randomness and secrecy
# ---------------------------------------------------------------------------


def test_setseed_has_no_effect_on_the_noise(mixed):
    runs = []
    for i in range(2):
        mixed.execute("SELECT setseed(0.25)")
        mixed.execute(MIXED_CALL.replace("'fp', 'np', 'cp'", f"'fp{i}', 'np{i}', 'cp{i}'"), (0.5, [[0, 30]], "mixed_domain"))
        runs.append(mixed.execute(f"SELECT array_agg(cnt ORDER BY attr, value, class) FROM fp{i}").fetchone()[0]
                + mixed.execute(f"SELECT array_agg(attr_mean ORDER BY class) FROM np{i}").fetchone()[0])
    assert runs[0] != runs[1]


def test_no_sql_function_lets_a_user_choose_the_noise(db):
    args = db.execute(
        "SELECT p.oid::regprocedure::text, p.proname::text, coalesce(array_to_string(p.proargnames, ','), '') FROM pg_proc p "
        "WHERE p.pronamespace = 'madnb'::regnamespace"
    ).fetchall()
    # cross-validation's seed chooses the folds (madnb.fold), never noise: no private training there
    fold_seeds = {"fold", "_fold_error", "cross_validate", "_cross_validate"}
    for sig, name, names in args:
        words = ("rng", "random", "source_of") if name in fold_seeds else ("seed", "rng", "random", "source_of")
        assert not any(w in names.lower() for w in words), sig
    vol = db.execute(
        "SELECT provolatile, proparallel, prosecdef FROM pg_proc WHERE oid = 'madnb.dp_laplace(numeric,numeric,float8)'::regprocedure"
    ).fetchone()
    assert vol == ("v", "u", False)


def test_dp_laplace_works_in_a_query_planned_with_parallel_workers_in_a_fresh_session(db):
    # the session's first PL/Python call loads madnb's Python through SPI, which a parallel operation refuses:
    # dp_laplace keeps its query off parallel workers, so it works whatever the session has called before
    db.execute("CREATE TABLE many AS SELECT i FROM generate_series(1, 20000) i")
    db.execute("ANALYZE many")
    with psycopg.connect(db.info.dsn, autocommit=True) as fresh:
        fresh.execute("SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0")
        assert "Gather" in "\n".join(r[0] for r in fresh.execute("EXPLAIN SELECT count(*) FROM many WHERE i < 100"))
        noisy = fresh.execute("SELECT count(madnb.dp_laplace(i, 1, 0.5)) FROM many WHERE i < 100").fetchone()[0]
    assert noisy == 99


def test_the_seeded_generator_is_for_tests_and_reproduces_a_model(mixed):
    models = []
    for i in range(2):
        use_seeded_noise(mixed, 7)
        mixed.execute(MIXED_CALL.replace("'fp', 'np', 'cp'", f"'fp{i}', 'np{i}', 'cp{i}'"), (0.5, [[0, 30]], "mixed_domain"))
        models.append(mixed.execute(f"SELECT array_agg(cnt ORDER BY attr, value, class) FROM fp{i}").fetchone()[0])
    assert models[0] == models[1]


def test_private_training_discloses_no_exact_statistic(db):
    # distinctive exact numbers: 1234 rows of class 'a', 4321 of 'b', 77 NULL-class rows, 1111 'a' rows with value 'v'
    db.execute(
        "CREATE TABLE t AS SELECT i AS id, CASE WHEN i <= 1234 THEN 'a' WHEN i <= 5555 THEN 'b' END AS c, "
        "ARRAY[CASE WHEN i <= 1111 THEN 'v' ELSE 'w' END] AS x FROM generate_series(1, 5632) i"
        )
    db.execute("CREATE TABLE dom (attr int, value text)")
    db.execute("INSERT INTO dom VALUES (0, 'a'), (0, 'b'), (1, 'v'), (1, 'w')")
    seen = notices(db)
    with db.transaction():
        db.execute(
            "SELECT madnb.create_nb_prepared_data_tables('t', 'c', 'x', 1, 'fp', 'cp', epsilon => 0.01, domain => 'dom')"
        )
        temps = db.execute("SELECT relname FROM pg_class WHERE relpersistence = 't'").fetchall()
    assert temps == []  # nothing left behind, exact or noisy
    exact = {"1234", "4321", "77", "1111", "5555", "5632"}
    texts = [n.message_primary or "" for n in seen] + [n.message_detail or "" for n in seen]
    texts += [str(r) for r in ledger(db)]
    texts += [db.execute(f"SELECT obj_description('{t}'::regclass, 'pg_class')").fetchone()[0] for t in ("fp", "cp")]
    for text in texts:
        for number in exact:
            assert number not in text.replace(".", " ").split(), (number, text)
    # the exact path would have said "77 row(s) ... with a NULL class were ignored"
    assert not any("NULL class" in (n.message_primary or "") for n in seen)
    db.execute("SELECT madnb.create_nb_prepared_data_tables('t', 'c', 'x', 1, 'fp_exact', 'cp_exact')")
    assert any("77" in (n.message_primary or "") for n in seen)


def test_the_observed_domain_warns_and_is_recorded_on_the_model(manual):
    seen = notices(manual)
    manual.execute(
        "SELECT madnb.create_nb_prepared_data_tables('training', 'class', 'attributes', 3, 'fp', 'cp', "
        "epsilon => 1, domain => 'observed')"
    )
    warnings = [n for n in seen if n.severity_nonlocalized == "WARNING"]
    assert len(warnings) == 1 and "discloses" in warnings[0].message_primary
    params = ledger(manual)[0][3]
    assert params["domain"] == "observed" and params["domain_disclosed"] is True
    for t in ("fp", "cp"):
        assert "disclosed" in manual.execute(f"SELECT obj_description('{t}'::regclass, 'pg_class')").fetchone()[0]
    # the observed domain is the values seen in training: the manual's counts
    assert manual.execute("SELECT count(*) FROM fp").fetchone()[0] == 16


def test_private_training_calls_pl_python_per_released_cell_not_per_row(db):
    db.execute("CREATE TABLE dom (attr int, value text)")
    db.execute("INSERT INTO dom SELECT 0, v::text FROM generate_series(0, 2) v UNION ALL SELECT 1, v::text FROM generate_series(0, 4) v")
    counts = []
    for s, n in (("_small", 30), ("_large", 3000)):
        db.execute(
            f"CREATE TABLE t{s} AS SELECT i AS id, i %% 3 AS c, ARRAY[(i %% 5)::float8, (i %% 17)::float8] AS x "
            "FROM generate_series(1, %s) i",
            (n,),
        )
        before = {f: pl_calls(db, f) for f in ("dp_laplace", "_dp_laplace_array")}
        db.execute(
            f"SELECT madnb.create_nb_prepared_data_tables('t{s}', 'c', 'x', '2', 2, 'fp{s}', 'np{s}', 'cp{s}', "
            "epsilon => 1, bounds => '{{0,20}}', domain => 'dom')"
        )
        counts.append({f: pl_calls(db, f) - n for f, n in before.items()})
    # one call per kind of released number (the 3 + 15 counts, the 3 sums, the 3 sums of squares), whatever the
    # rows: each number's own draw inside it (tests/privacy/test_privacy_statistics.py measures the noise)
    assert counts == [{"dp_laplace": 0, "_dp_laplace_array": 3}] * 2


def test_private_training_runs_with_a_parallel_plan(db):
    db.execute("CREATE TABLE big AS SELECT i AS id, i % 2 AS c, ARRAY[(i % 7)::float8, (i % 3)::float8] AS x FROM generate_series(1, 200000) i")
    db.execute("ANALYZE big")
    db.execute("SET parallel_setup_cost = 0")
    db.execute("SET parallel_tuple_cost = 0")
    db.execute("SET min_parallel_table_scan_size = 0")
    t = arrays.Training(
        madnb_relation("big"), stats_column("c", "integer", 23), stats_column("x", "double precision[]", 1022, "double precision", 701),
        2, (1,),
    )
    db.execute("SELECT madnb._load_python()")
    db.execute("CREATE TEMP TABLE dom (o int4, cls int, v float8)")
    db.execute("INSERT INTO dom VALUES (0, 0, NULL), (0, 1, NULL), (2, NULL, 0), (2, NULL, 1), (2, NULL, 2)")
    plan = "\n".join(r[0] for r in db.execute("EXPLAIN " + private_release.dp_release_select(t, privacy_parameters.parse_bounds([[0, 10]], [1]), "dom", 0.1)))
    assert "Partial" in plan and "Gather" in plan
    db.execute("DROP TABLE dom")
    db.execute(
        "SELECT madnb.create_nb_prepared_data_tables('big', 'c', 'x', '1', 2, 'fp', 'np', 'cp', "
        "epsilon => 100, bounds => '{{0,10}}', domain => 'observed')"
    )
    assert db.execute("SELECT class, round(attr_mean) FROM np ORDER BY 1").fetchall() == [(0, 3), (1, 3)]


def madnb_relation(name: str):
    from madnb_pl.core.names import Relation

    return Relation("public", name, 0)


def stats_column(name: str, typ: str, oid: int, elem: str | None = None, elem_oid: int | None = None):
    from madnb_pl.core.names import Column

    return Column(name, typ, oid, elem, elem_oid)




@pytest.mark.parametrize(
    ("call", "hint"),
    [
        ("SELECT madnb.train('m', 'pets', 'kind', features => ARRAY['colour'], bounds => '{}'::jsonb)", "set epsilon"),
        ("SELECT madnb.train('m', 'pets', 'kind', features => ARRAY['colour'], delta => 1e-6)", "set epsilon"),
        ("SELECT madnb.train('m', 'pets', 'kind', features => ARRAY['counts'], kind => 'multinomial', domain => 'observed')",
         "leave bounds, domain and delta out"),
        ("SELECT madnb.create_nb_statistics('pets', 'kind', 'codes', 2, 'st', domain => 'observed')", "set epsilon"),
    ],
)
def test_privacy_arguments_without_epsilon_are_refused_on_every_face(db, call, hint):
    # bounds, a domain or delta mean a private release: a call naming them never releases exact statistics instead
    db.execute("CREATE TABLE pets (kind text, colour text, codes int[], counts int[])")
    db.execute("INSERT INTO pets VALUES ('cat', 'black', ARRAY[1, 2], ARRAY[3, 0]), ('dog', 'brown', ARRAY[2, 1], ARRAY[0, 2])")
    with pytest.raises(psycopg.errors.InvalidParameterValue) as exc:
        db.execute(call)
    assert exc.value.diag.message_primary == "bounds, domain and delta are used only for a differentially private model"
    assert hint in exc.value.diag.message_hint
    assert db.execute("SELECT count(*) FROM madnb.models").fetchone()[0] == 0
