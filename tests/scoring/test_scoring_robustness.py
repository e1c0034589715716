"""Robustness of training and scoring: ties, NaN and infinities, extreme values, numAttrs, smoothing.

Expected values come from the maths (a Gaussian far beyond every class mean is
most likely under the widest class; with a huge smoothing factor every value is
equally likely in every class, so the posterior is the prior) and from MADlib's
own install-check (src/ports/postgres/modules/bayes/test/bayes.sql_in), whose
five cases are rebuilt here.
"""

from __future__ import annotations

import math

import pytest

from helpers import MANUAL_GAUSSIAN, MANUAL_TRAINING, relations, sqlstate_of


@pytest.fixture
def manual(db):
    db.execute(MANUAL_TRAINING)
    return db


@pytest.fixture
def gaussian(db):
    db.execute(MANUAL_GAUSSIAN)
    return db


def _probs(conn, view: str) -> dict[tuple[int, int], float]:
    return {(k, c): p for k, c, p in conn.execute(f"SELECT key, class, nb_prob FROM {view}")}


# --- ties (C11) ----------------------------------------------------------------------------

def _fill(i: int, p: float, total: int) -> int:
    """MADlib's fill_feature: 1 for the first total * p rows (integer threshold), else 0."""
    return 1 if i <= round(total * p) else 0


def _fill3(i: int, p1: float, p2: float, total: int) -> int:
    """MADlib's fill_feature3: 2, then 1, then 0."""
    if i <= round(total * p1):
        return 2
    return 1 if i <= round(total * (p1 + p2)) else 0


def _madlib_case(db, name: str, rows: list[tuple[int, list[float]]], tests: dict[int, tuple[str, list[float]]], elem: str = "int"):
    db.execute(f"CREATE TABLE {name} (class int, attrib float8[])")
    with db.cursor() as cur:
        cur.executemany(f"INSERT INTO {name} VALUES (%s, %s)", rows)
    db.execute(f"CREATE TABLE {name}_test (id int, attrib {elem}[])")
    with db.cursor() as cur:
        cur.executemany(f"INSERT INTO {name}_test VALUES (%s, %s::{elem}[])", [(k, a) for k, (a, _) in tests.items()])


def _percent(p: float) -> int:
    """PostgreSQL's (p * 100)::int: round half away from zero."""
    return int(math.floor(p * 100 + 0.5))


def _check_percent(db, view: str, tests: dict[int, tuple[str, list[float]]]):
    got = _probs(db, view)
    assert len(got) == sum(len(p) for _, p in tests.values())
    for key, (_, probs) in tests.items():
        for cls, p in enumerate(probs, start=1):
            assert _percent(got[(key, cls)]) == _percent(p), (key, cls)


INSTALL_1 = {1: ("{0,0}", [0.4, 0.6]), 2: ("{0,1}", [0.66666, 0.33333]), 3: ("{1,0}", [0.25, 0.75]), 4: ("{1,1}", [0.5, 0.5])}


def test_madlibs_install_check_tie_returns_both_classes_in_class_order(db):
    # class 1: P(1,1) = 4/12 * 9/12, class 2: 6/12 * 6/12 -- equal in rational arithmetic only
    rows = [(1, [_fill(i, 0.3, 10), _fill(i, 0.8, 10)]) for i in range(1, 11)]
    rows += [(2, [_fill(i, 0.5, 10), _fill(i, 0.5, 10)]) for i in range(1, 11)]
    _madlib_case(db, "data_1", rows, INSTALL_1)
    db.execute("SELECT madnb.create_nb_prepared_data_tables('data_1', 'class', 'attrib', 2, 'probs_1', 'priors_1')")
    db.execute("SELECT madnb.create_nb_classify_view('probs_1', 'priors_1', 'data_1_test', 'id', 'attrib', 2, 'results_1')")
    db.execute("SELECT madnb.create_nb_probs_view('probs_1', 'priors_1', 'data_1_test', 'id', 'attrib', 2, 'probs_view_1')")
    _check_percent(db, "probs_view_1", INSTALL_1)
    got = dict(db.execute("SELECT key, nb_classification FROM results_1").fetchall())
    assert got == {1: [2], 2: [1], 3: [2], 4: [1, 2]}


def test_the_tie_is_also_found_by_ad_hoc_views(db):
    rows = [(1, [_fill(i, 0.3, 10), _fill(i, 0.8, 10)]) for i in range(1, 11)]
    rows += [(2, [_fill(i, 0.5, 10), _fill(i, 0.5, 10)]) for i in range(1, 11)]
    _madlib_case(db, "data_1", rows, INSTALL_1)
    db.execute("SELECT madnb.create_nb_classify_view('data_1', 'class', 'attrib', 'data_1_test', 'id', 'attrib', 2, 'r')")
    assert db.execute("SELECT nb_classification FROM r WHERE key = 4").fetchone()[0] == [1, 2]


def test_madlibs_install_check_three_classes_and_unequal_priors(db):
    rows = [(1, [_fill(i, 0.3, 10), _fill(i, 0.8, 10)]) for i in range(1, 11)]
    rows += [(2, [_fill(i, 0.5, 10), _fill(i, 0.5, 10)]) for i in range(1, 11)]
    rows += [(3, [_fill3(i, 0.3, 0.5, 10), _fill(i, 0.6, 10)]) for i in range(1, 11)]
    tests = {
        1: ("{0,0}", [0.32, 0.48, 0.2]), 2: ("{0,1}", [0.5581, 0.279, 0.1627]), 3: ("{1,0}", [0.1538, 0.4615, 0.3846]),
        4: ("{1,1}", [0.3157, 0.3157, 0.3684]), 5: ("{2,0}", [0.1034, 0.2068, 0.6897]), 6: ("{2,1}", [0.2093, 0.1395, 0.6511]),
    }
    _madlib_case(db, "data_2", rows, tests)
    db.execute("SELECT madnb.create_nb_prepared_data_tables('data_2', 'class', 'attrib', 2, 'probs_2', 'priors_2')")
    db.execute("SELECT madnb.create_nb_probs_view('probs_2', 'priors_2', 'data_2_test', 'id', 'attrib', 2, 'pv2')")
    _check_percent(db, "pv2", tests)

    rows = [(1, [_fill(i, 0.3, 20), _fill(i, 0.8, 20)]) for i in range(1, 21)]
    rows += [(2, [_fill(i, 0.5, 10), _fill(i, 0.5, 10)]) for i in range(1, 11)]
    tests = {1: ("{0,0}", [0.5535, 0.4464]), 2: ("{0,1}", [0.8082, 0.1917]), 3: ("{1,0}", [0.3664, 0.6335]), 4: ("{1,1}", [0.6629, 0.337])}
    _madlib_case(db, "data_3", rows, tests)
    db.execute("SELECT madnb.create_nb_prepared_data_tables('data_3', 'class', 'attrib', 2, 'probs_3', 'priors_3')")
    db.execute("SELECT madnb.create_nb_probs_view('probs_3', 'priors_3', 'data_3_test', 'id', 'attrib', 2, 'pv3')")
    _check_percent(db, "pv3", tests)


def test_madlibs_install_check_gaussian_cases(db):
    # numeric probabilities cancel (case 4), nominal ones cancel (case 5)
    rows = [(1, [_fill(i, 0.3, 10), _fill(i, 0.8, 10), i]) for i in range(1, 11)]
    rows += [(2, [_fill(i, 0.5, 10), _fill(i, 0.5, 10), i]) for i in range(1, 11)]
    tests = {1: ("{0,0,1.25}", [0.4, 0.6]), 2: ("{0,1,2.0}", [0.66666, 0.33333]), 3: ("{1,0,4}", [0.25, 0.75]), 4: ("{1,1,1.3}", [0.5, 0.5])}
    _madlib_case(db, "data_4", rows, tests, elem="numeric")
    db.execute(
        "SELECT madnb.create_nb_prepared_data_tables('data_4', 'class', 'attrib', 'ARRAY[3]', 3, 'c4', 'n4', 'p4')"
    )
    db.execute("SELECT madnb.create_nb_probs_view('c4', 'p4', 'data_4_test', 'id', 'attrib', 3, 'n4', 'pv4')")
    db.execute("SELECT madnb.create_nb_classify_view('c4', 'p4', 'data_4_test', 'id', 'attrib', 3, 'n4', 'cv4')")
    _check_percent(db, "pv4", tests)
    assert db.execute("SELECT nb_classification FROM cv4 WHERE key = 4").fetchone()[0] == [1, 2]

    rows = [(1, [_fill(i, 0.5, 10), _fill(i, 0.8, 10), i]) for i in range(1, 11)]
    rows += [(2, [_fill(i, 0.5, 10), _fill(i, 0.8, 10), i % 5]) for i in range(1, 11)]
    tests = {
        1: ("{0,0,3.5}", [0.3964055, 0.6035944]), 2: ("{0,1,4.5}", [0.6554700, 0.3445299]),
        3: ("{1,0,2.0}", [0.2015371, 0.7984628]), 4: ("{1,1,3.2}", [0.3378078, 0.6621921]),
    }
    _madlib_case(db, "data_5", rows, tests, elem="float8")
    db.execute(
        "SELECT madnb.create_nb_prepared_data_tables('data_5', 'class', 'attrib', 'ARRAY[3]', 3, 'c5', 'n5', 'p5')"
    )
    db.execute("SELECT madnb.create_nb_probs_view('c5', 'p5', 'data_5_test', 'id', 'attrib', 3, 'n5', 'pv5')")
    _check_percent(db, "pv5", tests)


def test_classes_further_apart_than_the_tolerance_are_not_tied(manual):
    # the manual's rows: probabilities 0.4 / 0.6 and 0.75 / 0.25, far from a tie
    manual.execute("SELECT madnb.create_nb_prepared_data_tables('training', 'class', 'attributes', 3, 'fp', 'cp')")
    manual.execute("SELECT madnb.create_nb_classify_view('fp', 'cp', 'toclassify', 'id', 'attributes', 3, 'cv')")
    assert manual.execute("SELECT key, nb_classification FROM cv ORDER BY key").fetchall() == [(1, [2]), (2, [1])]


# --- NaN and infinities in training (C12) -------------------------------------------------------

def _gaussian_table(db, name: str, elem: str, extra: str) -> None:
    db.execute(f"CREATE TABLE {name} (id int, sex int, attributes {elem}[])")
    db.execute(f"INSERT INTO {name} SELECT id, sex, attributes::{elem}[] FROM gaussian_data")
    db.execute(f"INSERT INTO {name} VALUES {extra}")


@pytest.mark.parametrize("elem", ["float8", "float4", "numeric"])
@pytest.mark.parametrize("indices, num_attrs", [("ARRAY[1,2]", 3), ("ARRAY[1,2,3]", 3)])
def test_a_nan_training_value_is_a_missing_value_like_null(gaussian, elem, indices, num_attrs):
    _gaussian_table(gaussian, "with_nan", elem, "(20, 1, '{NaN,175,12}'), (21, 2, '{5.1,NaN,7}')")
    _gaussian_table(gaussian, "with_null", elem, "(20, 1, '{NULL,175,12}'), (21, 2, '{5.1,NULL,7}')")
    for src in ("with_nan", "with_null"):
        gaussian.execute(
            f"SELECT madnb.create_nb_prepared_data_tables('{src}', 'sex', 'attributes', %s, %s, "
            f"'{src}_fp', '{src}_np', '{src}_cp')",
            (indices, num_attrs),
        )
    q = "SELECT class, attr, attr_mean, attr_var, value_cnt FROM {} ORDER BY class, attr"
    nan_model = gaussian.execute(q.format("with_nan_np")).fetchall()
    null_model = gaussian.execute(q.format("with_null_np")).fetchall()
    assert nan_model == null_model
    # class 1, attribute 1: the manual's four heights, the NaN left out
    c1a1 = next(r for r in nan_model if r[0] == 1 and r[1] == 1)
    assert c1a1[2] == pytest.approx(5.855, rel=1e-6) and c1a1[4] == 4
    gaussian.execute(
        "SELECT madnb.create_nb_probs_view('with_nan_fp', 'with_nan_cp', 'gaussian_test', 'id', 'attributes', 3, "
        "'with_nan_np', 'pv')"
    )
    probs = _probs(gaussian, "pv")
    assert all(math.isfinite(p) for p in probs.values())


def test_ad_hoc_views_treat_a_nan_training_value_as_missing(gaussian):
    _gaussian_table(gaussian, "with_nan", "float8", "(20, 1, '{NaN,175,12}')")
    _gaussian_table(gaussian, "with_null", "float8", "(20, 1, '{NULL,175,12}')")
    for src in ("with_nan", "with_null"):
        gaussian.execute(
            f"SELECT madnb.create_nb_probs_view('{src}', 'sex', 'attributes', 'ARRAY[1,2]', 'gaussian_test', 'id', "
            f"'attributes', 3, '{src}_pv')"
        )
    nan_probs, null_probs = _probs(gaussian, "with_nan_pv"), _probs(gaussian, "with_null_pv")
    assert nan_probs.keys() == null_probs.keys()
    for kc, p in null_probs.items():
        assert nan_probs[kc] == pytest.approx(p, rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("value", ["Infinity", "-Infinity"])
@pytest.mark.parametrize("elem", ["float8", "numeric"])
def test_an_infinite_training_value_is_22003_naming_the_attribute(gaussian, value, elem):
    _gaussian_table(gaussian, "bad", elem, f"(20, 2, '{{5.1,{value},7}}')")
    before = relations(gaussian)
    err = sqlstate_of(
        gaussian,
        "SELECT madnb.create_nb_prepared_data_tables('bad', 'sex', 'attributes', 'ARRAY[1,2]', 3, 'fp', 'np', 'cp')",
    )
    assert err.diag.sqlstate == "22003"
    assert "numeric attribute 2" in err.diag.message_primary and "bad" in err.diag.message_primary
    assert err.diag.message_hint
    assert relations(gaussian) == before
    err = sqlstate_of(
        gaussian,
        "SELECT madnb.create_nb_classify_view('bad', 'sex', 'attributes', 'ARRAY[1,2]', 'gaussian_test', 'id', "
        "'attributes', 3, 'v')",
    )
    assert err.diag.sqlstate == "22003"


def test_a_nan_categorical_value_is_a_value_like_any_other(db):
    # PostgreSQL's float ordering makes NaN equal to itself: a categorical NaN is one more value
    db.execute("CREATE TABLE t (id int, c int, x float8[])")
    db.execute("INSERT INTO t VALUES (1, 1, '{NaN}'), (2, 1, '{NaN}'), (3, 2, '{0.5}'), (4, 2, '{0.5}')")
    db.execute("CREATE TABLE q (id int, x float8[])")
    db.execute("INSERT INTO q VALUES (1, '{NaN}'), (2, '{0.5}')")
    db.execute("SELECT madnb.create_nb_prepared_data_tables('t', 'c', 'x', 1, 'fp', 'cp')")
    assert db.execute("SELECT count(*) FROM fp WHERE value = 'NaN'").fetchone()[0] == 2
    db.execute("SELECT madnb.create_nb_classify_view('fp', 'cp', 'q', 'id', 'x', 1, 'cv')")
    assert db.execute("SELECT key, nb_classification FROM cv ORDER BY key").fetchall() == [(1, [1]), (2, [2])]


# --- extreme and NaN values in the rows to classify (C13) ------------------------------------------

EXTREME = ["{1e200,170,11}", "{1e308,170,11}", "{-1e308,170,11}", "{Infinity,170,11}", "{-Infinity,170,11}", "{5.8,1e300,11}"]


def _gaussian_views(conn, form: str) -> tuple[str, str]:
    """A probs and a classify view of gaussian_test: unrolled, LATERAL or ad hoc."""
    if form == "lateral":
        # a fractional categorical value sends the view to the per-row LATERAL form
        conn.execute("UPDATE gaussian_data SET attributes[3] = attributes[3] + 0.5 WHERE id = 1")
    if form == "adhoc":
        for kind in ("probs", "classify"):
            conn.execute(
                f"SELECT madnb.create_nb_{kind}_view('gaussian_data', 'sex', 'attributes', 'ARRAY[1,2]', 'gaussian_test', "
                f"'id', 'attributes', 3, '{kind}_v')"
            )
    else:
        conn.execute(
            "SELECT madnb.create_nb_prepared_data_tables('gaussian_data', 'sex', 'attributes', 'ARRAY[1,2]', 3, "
            "'fp', 'np', 'cp')"
        )
        for kind in ("probs", "classify"):
            conn.execute(
                f"SELECT madnb.create_nb_{kind}_view('fp', 'cp', 'gaussian_test', 'id', 'attributes', 3, 'np', '{kind}_v')"
            )
    return "probs_v", "classify_v"


@pytest.mark.parametrize("form", ["unrolled", "lateral", "adhoc"])
def test_an_extreme_value_scores_its_row_without_overflow_and_leaves_the_others_alone(gaussian, form):
    pv, cv = _gaussian_views(gaussian, form)
    before = _probs(gaussian, pv)
    with gaussian.cursor() as cur:
        cur.executemany("INSERT INTO gaussian_test VALUES (%s, NULL, %s)", [(100 + i, a) for i, a in enumerate(EXTREME)])
    after = _probs(gaussian, pv)
    for kc, p in before.items():
        assert after[kc] == p
    classes = dict(gaussian.execute(f"SELECT key, nb_classification FROM {cv}").fetchall())
    for i in range(len(EXTREME)):
        key = 100 + i
        p1, p2 = after[(key, 1)], after[(key, 2)]
        assert math.isfinite(p1) and math.isfinite(p2)
        assert p1 + p2 == pytest.approx(1, abs=1e-12)
        # far beyond every mean, the class with the larger variance (class 2, for height
        # and weight alike) is the more likely one
        assert p2 == pytest.approx(1, abs=1e-12)
        assert classes[key] == [2]


@pytest.mark.parametrize("form", ["unrolled", "lateral", "adhoc"])
def test_a_nan_value_to_classify_is_missing_for_that_row(gaussian, form):
    pv, cv = _gaussian_views(gaussian, form)
    gaussian.execute("INSERT INTO gaussian_test VALUES (20, NULL, '{NaN,170,11}'), (21, NULL, '{NULL,170,11}')")
    got = _probs(gaussian, pv)
    for c in (1, 2):
        assert got[(20, c)] == got[(21, c)]
        assert math.isfinite(got[(20, c)])


# --- numAttrs against the model and the rows (C14, A3) ---------------------------------------------

@pytest.mark.parametrize("kind", ["classify", "probs"])
@pytest.mark.parametrize("num_attrs", [2, 4])
def test_a_view_whose_num_attrs_is_not_the_models_is_22023(manual, kind, num_attrs):
    manual.execute("SELECT madnb.create_nb_prepared_data_tables('training', 'class', 'attributes', 3, 'fp', 'cp')")
    err = sqlstate_of(
        manual, f"SELECT madnb.create_nb_{kind}_view('fp', 'cp', 'toclassify', 'id', 'attributes', %s, 'v')", (num_attrs,)
    )
    assert err.diag.sqlstate == "22023"
    assert "numAttrs = 3" in err.diag.message_primary and "numAttrs = 3" in err.diag.message_hint
    assert "v" not in relations(manual)


@pytest.mark.parametrize("num_attrs", [2, 4])
def test_a_gaussian_view_whose_num_attrs_is_not_the_models_is_22023(gaussian, num_attrs):
    gaussian.execute(
        "SELECT madnb.create_nb_prepared_data_tables('gaussian_data', 'sex', 'attributes', 'ARRAY[1,2]', 3, 'fp', 'np', 'cp')"
    )
    err = sqlstate_of(
        gaussian,
        "SELECT madnb.create_nb_probs_view('fp', 'cp', 'gaussian_test', 'id', 'attributes', %s, 'np', 'v')",
        (num_attrs,),
    )
    assert err.diag.sqlstate == "22023"


def test_without_a_recorded_num_attrs_the_models_attributes_decide(manual):
    manual.execute("SELECT madnb.create_nb_prepared_data_tables('training', 'class', 'attributes', 3, 'fp', 'cp')")
    manual.execute("COMMENT ON TABLE fp IS NULL")  # as MADlib's tables: nothing recorded
    err = sqlstate_of(manual, "SELECT madnb.create_nb_classify_view('fp', 'cp', 'toclassify', 'id', 'attributes', 2, 'v')")
    assert err.diag.sqlstate == "22023" and "up to 3" in err.diag.message_primary
    manual.execute("SELECT madnb.create_nb_classify_view('fp', 'cp', 'toclassify', 'id', 'attributes', 3, 'v')")
    assert manual.execute("SELECT key, nb_classification FROM v ORDER BY key").fetchall() == [(1, [2]), (2, [1])]


def test_the_recorded_num_attrs_covers_a_last_attribute_without_values(db):
    db.execute("CREATE TABLE t (id int, c int, x int[])")
    db.execute("INSERT INTO t VALUES (1, 1, '{1,NULL}'), (2, 2, '{2,NULL}')")
    db.execute("CREATE TABLE q (id int, x int[])")
    db.execute("INSERT INTO q VALUES (1, '{1,5}')")
    db.execute("SELECT madnb.create_nb_prepared_data_tables('t', 'c', 'x', 2, 'fp', 'cp')")
    assert db.execute("SELECT max(attr) FROM fp").fetchone()[0] == 1
    db.execute("SELECT madnb.create_nb_classify_view('fp', 'cp', 'q', 'id', 'x', 2, 'v')")
    assert db.execute("SELECT nb_classification FROM v").fetchone()[0] == [1]
    assert sqlstate_of(db, "SELECT madnb.create_nb_classify_view('fp', 'cp', 'q', 'id', 'x', 1, 'w')").diag.sqlstate == "22023"


def test_a_private_model_records_its_num_attrs_too(manual):
    manual.execute(
        "SELECT madnb.create_nb_prepared_data_tables('training', 'class', 'attributes', 3, 'fp', 'cp', "
        "epsilon => 1.0, domain => 'observed')"
    )
    assert "numAttrs = 3" in manual.execute("SELECT obj_description('fp'::regclass, 'pg_class')").fetchone()[0]
    err = sqlstate_of(manual, "SELECT madnb.create_nb_classify_view('fp', 'cp', 'toclassify', 'id', 'attributes', 2, 'v')")
    assert err.diag.sqlstate == "22023"
    manual.execute("SELECT madnb.create_nb_classify_view('fp', 'cp', 'toclassify', 'id', 'attributes', 3, 'v')")
    assert manual.execute("SELECT count(*) FROM v").fetchone()[0] == 2


@pytest.mark.parametrize("form", ["unrolled", "lateral", "adhoc"])
def test_rows_of_another_length_get_null_output_and_others_are_scored(gaussian, form):
    pv, cv = _gaussian_views(gaussian, form)
    gaussian.execute(
        "INSERT INTO gaussian_test VALUES (30, NULL, '{5.8,180}'), (31, NULL, '{5.8,180,11,4}'), (32, NULL, '{}'), (33, NULL, NULL)"
    )
    classes = dict(gaussian.execute(f"SELECT key, nb_classification FROM {cv}").fetchall())
    assert classes[30] is None and classes[31] is None
    assert classes[9] == [1] and classes[10] == [2]
    # an empty or NULL array: every attribute missing, so the priors (1/2 each) decide: a tie
    assert classes[32] == [1, 2] and classes[33] == [1, 2]
    probs = _probs(gaussian, pv)
    assert probs[(30, 1)] is None and probs[(30, 2)] is None and probs[(31, 1)] is None
    assert probs[(32, 1)] == pytest.approx(0.5) and probs[(33, 2)] == pytest.approx(0.5)


def test_a_huge_num_attrs_is_54000_with_a_hint_before_any_work(manual):
    calls = [
        "SELECT madnb.create_nb_prepared_data_tables('training', 'class', 'attributes', %s, 'fp', 'cp')",
        "SELECT madnb.create_nb_prepared_data_tables('training', 'class', 'attributes', '1', %s, 'fp', 'np', 'cp')",
        "SELECT madnb.create_nb_classify_view('training', 'class', 'attributes', 'toclassify', 'id', 'attributes', %s, 'v')",
        "SELECT madnb.create_nb_probs_view('training', 'class', 'attributes', 'toclassify', 'id', 'attributes', %s, 'v')",
    ]
    for call in calls:
        err = sqlstate_of(manual, call, (2147483647,))
        assert err.diag.sqlstate == "54000", call
        assert err.diag.message_hint
    manual.execute("SELECT madnb.create_nb_prepared_data_tables('training', 'class', 'attributes', 3, 'fp', 'cp')")
    err = sqlstate_of(manual, "SELECT madnb.create_nb_classify_view('fp', 'cp', 'toclassify', 'id', 'attributes', %s, 'v')", (2147483647,))
    assert err.diag.sqlstate == "54000"


def test_the_largest_allowed_num_attrs_is_checked_against_the_data_and_the_model(manual):
    # every index of 100,000 given: parsed in linear time, then the arrays' length is the error
    indices = ",".join(str(i) for i in range(1, 100_001))
    err = sqlstate_of(
        manual,
        "SELECT madnb.create_nb_prepared_data_tables('training', 'class', 'attributes', %s, 100000, 'fp', 'np', 'cp')",
        (indices,),
    )
    assert err.diag.sqlstate == "2202E"
    err = sqlstate_of(manual, "SELECT madnb.create_nb_prepared_data_tables('training', 'class', 'attributes', 100000, 'fp', 'cp')")
    assert err.diag.sqlstate == "2202E"
    manual.execute("SELECT madnb.create_nb_prepared_data_tables('training', 'class', 'attributes', 3, 'fp', 'cp')")
    err = sqlstate_of(manual, "SELECT madnb.create_nb_probs_view('fp', 'cp', 'toclassify', 'id', 'attributes', 100000, 'v')")
    assert err.diag.sqlstate == "22023"


def test_a_thousand_numeric_attributes_train_and_score(db):
    # more aggregates than one select list holds (1664): the statistics pass must not build one
    n = 1000
    db.execute("CREATE TABLE t (id int, c int, x float8[])")
    db.execute(
        f"INSERT INTO t SELECT i, i % 2, ARRAY(SELECT ((i * j) % 7 + (i % 2) * (j % 3))::float8 FROM generate_series(1, {n}) j) "
        "FROM generate_series(1, 60) i"
    )
    indices = ",".join(str(i) for i in range(1, n + 1))
    db.execute(f"SELECT madnb.create_nb_prepared_data_tables('t', 'c', 'x', %s, {n}, 'fp', 'np', 'cp')", (indices,))
    expected = db.execute(
        "SELECT t.c, j, avg(t.x[j]), var_samp(t.x[j]) FROM t, generate_series(1, 1000) j GROUP BY 1, 2 ORDER BY 1, 2"
    ).fetchall()
    got = db.execute("SELECT class, attr, attr_mean, attr_var FROM np ORDER BY 1, 2").fetchall()
    assert [(c, a) for c, a, _, _ in got] == [(c, a) for c, a, _, _ in expected]
    for (_, _, m, v), (_, _, em, ev) in zip(got, expected):
        assert m == pytest.approx(em, rel=1e-12) and v == pytest.approx(ev, rel=1e-12, abs=1e-12)
    db.execute(f"SELECT madnb.create_nb_probs_view('fp', 'cp', 't', 'id', 'x', {n}, 'np', 'pv')")
    sums = db.execute("SELECT sum(nb_prob) FROM pv GROUP BY key").fetchall()
    assert len(sums) == 60 and all(s == pytest.approx(1, abs=1e-12) for (s,) in sums)


# --- smoothing and numeric indices (C15) ------------------------------------------------------------

@pytest.mark.parametrize("smoothing", [1e308, 1e7, -1.0])
def test_a_smoothing_out_of_range_is_22023_in_exact_and_private_training(manual, smoothing):
    err = sqlstate_of(
        manual,
        "SELECT madnb.create_nb_prepared_data_tables('training', 'class', 'attributes', 3, 'fp', 'cp', smoothing => %s)",
        (smoothing,),
    )
    assert err.diag.sqlstate == "22023" and err.diag.message_hint
    err = sqlstate_of(
        manual,
        "SELECT madnb.create_nb_prepared_data_tables('training', 'class', 'attributes', 3, 'fp', 'cp', "
        "epsilon => 1.0, domain => 'observed', smoothing => %s)",
        (smoothing,),
    )
    assert err.diag.sqlstate == "22023"
    assert not {"fp", "cp"} & relations(manual)


def test_the_largest_smoothing_trains_and_scores(manual):
    manual.execute(
        "SELECT madnb.create_nb_prepared_data_tables('training', 'class', 'attributes', 3, 'fp', 'cp', smoothing => 1e6)"
    )
    manual.execute("SELECT madnb.create_nb_probs_view('fp', 'cp', 'toclassify', 'id', 'attributes', 3, 'pv')")
    assert all(math.isfinite(p) for p in _probs(manual, "pv").values())


@pytest.mark.parametrize("edited", ["1e308", "Infinity"])
def test_a_huge_smoothing_edited_into_the_feature_table_scores_as_uniform(manual, edited):
    # with s -> infinity, P(value | class) -> 1 / attr_cnt for every class: the posterior is the prior
    manual.execute("SELECT madnb.create_nb_prepared_data_tables('training', 'class', 'attributes', 3, 'fp', 'cp')")
    manual.execute("SELECT madnb.create_nb_probs_view('fp', 'cp', 'toclassify', 'id', 'attributes', 3, 'pv')")
    manual.execute("SELECT madnb.create_nb_classify_view('fp', 'cp', 'toclassify', 'id', 'attributes', 3, 'cv')")
    manual.execute("UPDATE fp SET smoothing = %s::float8", (edited,))
    for p in _probs(manual, "pv").values():
        assert p == pytest.approx(0.5, abs=1e-12)
    assert manual.execute("SELECT key, nb_classification FROM cv ORDER BY key").fetchall() == [(1, [1, 2]), (2, [1, 2])]


@pytest.mark.parametrize("indices", ["\u0663", "{1,\u0662}", "ARRAY[\uff11]"])
def test_numeric_indices_accept_ascii_digits_only(gaussian, indices):
    err = sqlstate_of(
        gaussian,
        "SELECT madnb.create_nb_prepared_data_tables('gaussian_data', 'sex', 'attributes', %s, 3, 'fp', 'np', 'cp')",
        (indices,),
    )
    assert err.diag.sqlstate == "22P02"


# --- swapped model tables (D17) ---------------------------------------------------------------------

def test_swapped_model_tables_say_so(manual):
    manual.execute("SELECT madnb.create_nb_prepared_data_tables('training', 'class', 'attributes', 3, 'fp', 'cp')")
    err = sqlstate_of(manual, "SELECT madnb.create_nb_classify_view('cp', 'fp', 'toclassify', 'id', 'attributes', 3, 'v')")
    assert err.diag.sqlstate == "42703"
    assert "looks like a feature probabilities table" in err.diag.message_primary
    assert "swapped" in err.diag.message_hint
    err = sqlstate_of(manual, "SELECT madnb.create_nb_probs_view('cp', 'cp', 'toclassify', 'id', 'attributes', 3, 'v')")
    assert err.diag.sqlstate == "42703"
    assert "looks like a class priors table" in err.diag.message_primary


def test_a_finite_gaussian_value_too_large_to_square_is_22003_naming_the_source(gaussian):
    # 1e300 is finite, but var_samp's sum of squares (1e600) overflows float8
    gaussian.execute("INSERT INTO gaussian_data VALUES (99, 1, '{1e300,170,12}')")
    e = sqlstate_of(
        gaussian,
        "SELECT create_nb_prepared_data_tables('gaussian_data', 'sex', 'attributes', 'ARRAY[1,2]', 3, 'f', 'n', 'c')",
    )
    assert e.sqlstate == "22003"
    assert e.diag.message_primary == (
        "a numeric attribute of public.gaussian_data holds values too large for its mean and variance in float8"
    )
    assert "1e154" in (e.diag.message_hint or "")
    assert not {"f", "n", "c"} & relations(gaussian)
