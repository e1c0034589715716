"""Where MADlib is wrong, madnb is right: each difference listed in README."""

from __future__ import annotations

import math

import psycopg
import pytest

from helpers import MANUAL_TRAINING, relations, sqlstate_of


@pytest.fixture
def manual(db):
    db.execute(MANUAL_TRAINING)
    return db


# --- names are identifiers, never code -------------------------------------------------

HOSTILE = "v1 AS SELECT 1 AS a; DROP TABLE x; CREATE VIEW v2"


def test_a_hostile_dest_name_is_rejected_as_a_name_and_runs_nothing(manual):
    manual.execute("CREATE TABLE x (i int)")
    manual.execute("SELECT madnb.create_nb_prepared_data_tables('training', 'class', 'attributes', 3, 'fp', 'cp')")
    err = sqlstate_of(
        manual,
        "SELECT madnb.create_nb_classify_view('fp', 'cp', 'toclassify', 'id', 'attributes', 3, %s)",
        (HOSTILE,),
    )
    assert err.diag.sqlstate == "42602"
    assert "x" in relations(manual) and "v1" not in relations(manual) and "v2" not in relations(manual)


def test_a_hostile_name_quoted_as_an_identifier_is_just_a_strange_name(manual):
    manual.execute("CREATE TABLE x (i int)")
    manual.execute("SELECT madnb.create_nb_prepared_data_tables('training', 'class', 'attributes', 3, 'fp', 'cp')")
    quoted = '"' + HOSTILE + '"'
    manual.execute("SELECT madnb.create_nb_classify_view('fp', 'cp', 'toclassify', 'id', 'attributes', 3, %s)", (quoted,))
    assert HOSTILE in relations(manual) and "x" in relations(manual)
    assert manual.execute(psycopg.sql.SQL("SELECT count(*) FROM {}").format(psycopg.sql.Identifier(HOSTILE))).fetchone()[0] == 2


def test_hostile_source_and_column_names_are_not_executed(manual):
    manual.execute("CREATE TABLE x (i int)")
    for args in [
        ("training; DROP TABLE x", "class", "attributes"),
        ("training", "class) FROM training; DROP TABLE x; --", "attributes"),
        ("training", "class", "attributes[1]; DROP TABLE x"),
    ]:
        err = sqlstate_of(
            manual, "SELECT madnb.create_nb_prepared_data_tables(%s, %s, %s, 3, 'fp', 'cp')", args
        )
        assert err.diag.sqlstate == "42602"
    err = sqlstate_of(
        manual,
        "SELECT madnb.create_nb_prepared_data_tables('training', 'class', 'attributes', "
        "'1); DROP TABLE x; --', 3, 'fp', 'np', 'cp')",
    )
    assert err.diag.sqlstate == "22P02"
    assert {"x", "training"} <= relations(manual) and not {"fp", "cp", "np"} & relations(manual)


def test_quoted_mixed_case_names_with_spaces_and_schemas_work(db):
    db.execute('CREATE SCHEMA "Model Zoo"')
    db.execute('CREATE TABLE "Model Zoo"."Training Data" ("Class Label" text, "Attr Values" int[], "Row Id" int)')
    db.execute(
        """INSERT INTO "Model Zoo"."Training Data" VALUES ('a','{1,2}',1), ('a','{1,1}',2), ('b','{2,2}',3)"""
    )
    db.execute(
        """SELECT madnb.create_nb_prepared_data_tables('"Model Zoo"."Training Data"', '"Class Label"', '"Attr Values"', 2,
           '"Model Zoo"."Feature Probs"', '"Model Zoo"."Class Priors"')"""
    )
    db.execute(
        """SELECT madnb.create_nb_classify_view('"Model Zoo"."Feature Probs"', '"Model Zoo"."Class Priors"',
           '"Model Zoo"."Training Data"', '"Row Id"', '"Attr Values"', 2, '"Model Zoo"."Classified Rows"')"""
    )
    got = db.execute('SELECT key, nb_classification FROM "Model Zoo"."Classified Rows" ORDER BY key').fetchall()
    assert got == [(1, ["a"]), (2, ["a"]), (3, ["b"])]
    assert relations(db, "Model Zoo") == {"Training Data", "Feature Probs", "Class Priors", "Classified Rows"}


def test_unquoted_names_fold_to_lower_case_like_sql(manual):
    manual.execute("SELECT madnb.create_nb_prepared_data_tables('Public.TRAINING', 'Class', 'Attributes', 3, 'FP', 'Cp')")
    assert {"fp", "cp"} <= relations(manual)


# --- one-row classes and zero variance ------------------------------------------------------

def test_a_one_row_class_does_not_win_everything_and_keeps_its_true_variance(db):
    db.execute("CREATE TABLE t (id int, cls text, x float8[])")
    db.execute(
        "INSERT INTO t VALUES (1,'big','{1.0}'), (2,'big','{2.0}'), (3,'big','{3.0}'), (4,'big','{2.5}'), "
        "(5,'lonely','{100.0}')"
    )
    db.execute("SELECT madnb.create_nb_prepared_data_tables('t', 'cls', 'x', '{1}', 1, 'fp', 'np', 'cp')")
    # true sample variance of a single value is undefined: stored as NULL, not invented
    assert db.execute("SELECT attr_var, value_cnt FROM np WHERE class = 'lonely'").fetchone() == (None, 1)
    db.execute("SELECT madnb.create_nb_classify_view('fp', 'cp', 't', 'id', 'x', 1, 'np', 'cv')")
    got = dict(db.execute("SELECT key, nb_classification[1] FROM cv").fetchall())
    assert got == {1: "big", 2: "big", 3: "big", 4: "big", 5: "lonely"}


def test_zero_variance_in_a_class_scores_without_a_logarithm_error(db):
    db.execute("CREATE TABLE t (id int, cls int, x float8[])")
    db.execute("INSERT INTO t VALUES (1,1,'{5}'), (2,1,'{5}'), (3,2,'{1}'), (4,2,'{3}'), (5,2,'{2}')")
    db.execute("CREATE TABLE q (id int, x float8[])")
    db.execute("INSERT INTO q VALUES (1,'{5}'), (2,'{2}'), (3,'{4.9}')")
    db.execute("SELECT madnb.create_nb_prepared_data_tables('t', 'cls', 'x', '1', 1, 'fp', 'np', 'cp')")
    assert db.execute("SELECT attr_var FROM np WHERE class = 1").fetchone()[0] == 0.0
    db.execute("SELECT madnb.create_nb_probs_view('fp', 'cp', 'q', 'id', 'x', 1, 'np', 'pv')")
    rows = db.execute("SELECT key, class, nb_prob FROM pv ORDER BY key, class").fetchall()
    p = {(k, c): v for k, c, v in rows}
    assert p[(2, 2)] == pytest.approx(1.0, abs=1e-12)
    # The floor is 1e-9 times the attribute's total (population) variance over all rows.
    xs = [5, 5, 1, 3, 2]
    mean = sum(xs) / 5
    floor = 1e-9 * sum((x - mean) ** 2 for x in xs) / 5

    def logn(x, m, v):
        return -0.5 * math.log(2 * math.pi * v) - (x - m) ** 2 / (2 * v)

    for key, x in [(1, 5.0), (3, 4.9)]:
        l1 = math.log(2 / 5) + logn(x, 5, floor)
        l2 = math.log(3 / 5) + logn(x, 2, 1.0)
        m = max(l1, l2)
        expected = math.exp(l1 - m) / (math.exp(l1 - m) + math.exp(l2 - m))
        assert p[(key, 1)] == pytest.approx(expected, abs=1e-12)
    assert p[(3, 2)] == pytest.approx(1.0, abs=1e-12)  # 4.9 is far from 5 at the floored variance


# --- class labels of any type ---------------------------------------------------------------

@pytest.mark.parametrize(
    "ctype, a, b",
    [("text", "'dem'", "'rep'"), ("boolean", "false", "true"), ("bigint", "10000000000", "20000000000"),
     ("int", "1", "2"), ("date", "'2020-01-01'", "'2021-06-30'")],
)
def test_class_labels_of_any_type_work_in_every_view(db, ctype, a, b):
    db.execute(f"CREATE TABLE t (id int, c {ctype}, x int[])")
    db.execute(f"INSERT INTO t VALUES (1,{a},'{{1,1}}'), (2,{a},'{{1,2}}'), (3,{b},'{{2,2}}'), (4,{b},'{{2,2}}')")
    db.execute("SELECT madnb.create_nb_prepared_data_tables('t', 'c', 'x', 2, 'fp', 'cp')")
    db.execute("SELECT madnb.create_nb_classify_view('fp', 'cp', 't', 'id', 'x', 2, 'cv')")
    db.execute("SELECT madnb.create_nb_probs_view('fp', 'cp', 't', 'id', 'x', 2, 'pv')")
    db.execute("SELECT madnb.create_nb_classify_view('t', 'c', 'x', 't', 'id', 'x', 2, 'acv')")
    la, lb = db.execute(f"SELECT {a}::{ctype}, {b}::{ctype}").fetchone()
    for view in ("cv", "acv"):
        got = dict(db.execute(f"SELECT key, nb_classification FROM {view}").fetchall())
        assert got == {1: [la], 2: [la], 3: [lb], 4: [lb]}
    assert db.execute("SELECT format_type(atttypid, 0) FROM pg_attribute WHERE attrelid = 'cv'::regclass AND attname = 'nb_classification'").fetchone()[0] == db.execute(f"SELECT format_type('{ctype}[]'::regtype, 0)").fetchone()[0]
    assert db.execute("SELECT count(*) FROM pv").fetchone()[0] == 8


# --- NULL classes and NULL elements -----------------------------------------------------------

def test_rows_with_a_null_class_are_excluded_with_a_notice(manual):
    manual.execute("INSERT INTO training VALUES (7, NULL, '{0,0,0}'), (8, NULL, '{1,1,1}')")
    notices: list[str] = []
    manual.add_notice_handler(lambda d: notices.append(d.message_primary or ""))
    manual.execute("SELECT madnb.create_nb_prepared_data_tables('training', 'class', 'attributes', 3, 'fp', 'cp')")
    assert any("2 row(s)" in n and "NULL class" in n for n in notices)
    assert manual.execute("SELECT class, class_cnt, all_cnt FROM cp ORDER BY 1").fetchall() == [(1, 3, 6), (2, 3, 6)]
    manual.execute("SELECT madnb.create_nb_probs_view('training', 'class', 'attributes', 'toclassify', 'id', 'attributes', 3, 'pv')")
    assert manual.execute("SELECT count(*), count(class) FROM pv").fetchone() == (4, 4)
    assert manual.execute("SELECT nb_prob FROM pv WHERE key = 1 AND class = 1").fetchone()[0] == pytest.approx(0.4, abs=1e-12)


def test_a_null_element_is_a_missing_value_for_that_attribute_only(manual):
    # Training: the row counts for its class and its other attributes.
    manual.execute("INSERT INTO training VALUES (7, 2, '{NULL,4,1}')")
    manual.execute("SELECT madnb.create_nb_prepared_data_tables('training', 'class', 'attributes', 3, 'fp', 'cp')")
    assert manual.execute("SELECT class_cnt FROM cp WHERE class = 2").fetchone()[0] == 4
    assert manual.execute("SELECT cnt FROM fp WHERE class = 2 AND attr = 2 AND value = 4").fetchone()[0] == 1
    assert manual.execute("SELECT sum(cnt) FROM fp WHERE class = 2 AND attr = 1").fetchone()[0] == 3
    # Scoring: a row with a NULL element keeps its place; that attribute is skipped.
    manual.execute("INSERT INTO toclassify VALUES (3, '{NULL,2,1}'), (4, '{NULL,NULL,NULL}')")
    manual.execute("SELECT madnb.create_nb_probs_view('fp', 'cp', 'toclassify', 'id', 'attributes', 3, 'pv')")
    p = {(k, c): v for k, c, v in manual.execute("SELECT key, class, nb_prob FROM pv")}
    assert len(p) == 8
    # key 3: class 1: 3/7 * (2+1)/(3+3) * (1+1)/(3+3); class 2: 4/7 * (2+1)/(4+3) * (1+1)/(4+3)
    # (attribute 1 of class 2 has 3 present values: denominators use rows with the attribute present)
    s1 = 3 / 7 * 3 / 6 * 2 / 6
    s2 = 4 / 7 * 3 / 7 * 2 / 7
    assert p[(3, 1)] == pytest.approx(s1 / (s1 + s2), abs=1e-12)
    # key 4: nothing known but the priors
    assert p[(4, 2)] == pytest.approx(4 / 7, abs=1e-12)


def test_a_value_not_seen_in_training_is_skipped(manual):
    manual.execute("SELECT madnb.create_nb_prepared_data_tables('training', 'class', 'attributes', 3, 'fp', 'cp')")
    manual.execute("INSERT INTO toclassify VALUES (3, '{0,99,1}')")
    manual.execute("SELECT madnb.create_nb_probs_view('fp', 'cp', 'toclassify', 'id', 'attributes', 3, 'pv')")
    # same as key 1 ({0,2,1}) without attribute 2: class 1: .5*.2*(2/6), class 2: .5*.6*(1/6)
    s1, s2 = 0.5 * 0.2 * 2 / 6, 0.5 * 0.6 * 1 / 6
    assert manual.execute("SELECT nb_prob FROM pv WHERE key = 3 AND class = 1").fetchone()[0] == pytest.approx(s1 / (s1 + s2), abs=1e-12)


def test_duplicate_keys_are_scored_row_by_row(manual):
    manual.execute("INSERT INTO toclassify VALUES (1, '{1,2,3}')")  # key 1 again, with other attributes
    manual.execute("SELECT madnb.create_nb_prepared_data_tables('training', 'class', 'attributes', 3, 'fp', 'cp')")
    manual.execute("SELECT madnb.create_nb_classify_view('fp', 'cp', 'toclassify', 'id', 'attributes', 3, 'cv')")
    manual.execute("SELECT madnb.create_nb_probs_view('fp', 'cp', 'toclassify', 'id', 'attributes', 3, 'pv')")
    assert sorted(manual.execute("SELECT key, nb_classification FROM cv").fetchall()) == [(1, [1]), (1, [2]), (2, [1])]
    probs = sorted(manual.execute("SELECT nb_prob FROM pv WHERE key = 1 AND class = 1").fetchall())
    assert [p for (p,) in probs] == pytest.approx([0.4, 0.75], abs=1e-12)


def test_tied_classes_are_all_returned(db):
    db.execute("CREATE TABLE t (id int, c text, x int[])")
    db.execute("INSERT INTO t VALUES (1,'a','{1}'), (2,'b','{2}')")
    db.execute("CREATE TABLE q (id int, x int[])")
    db.execute("INSERT INTO q VALUES (1,'{3}'), (2,'{1}')")
    db.execute("SELECT madnb.create_nb_prepared_data_tables('t', 'c', 'x', 1, 'fp', 'cp')")
    db.execute("SELECT madnb.create_nb_classify_view('fp', 'cp', 'q', 'id', 'x', 1, 'cv')")
    got = {k: sorted(v) for k, v in db.execute("SELECT key, nb_classification FROM cv")}
    assert got == {1: ["a", "b"], 2: ["a"]}


# --- numerics ---------------------------------------------------------------------------------

def test_two_thousand_attributes_do_not_underflow_and_probabilities_sum_to_one(db):
    n = 2000
    db.execute("CREATE TABLE t (id int, c int, x int[])")
    db.execute(
        # value = class for 60% of (row, attribute) pairs, else a pseudo-random 0..4
        "INSERT INTO t SELECT i, i %% 3, ARRAY(SELECT CASE WHEN (hashint4(i * 7919 + j) & 1023) < 614 THEN i %% 3 "
        "ELSE (hashint4(i * 104729 + j) & 1023) %% 5 END FROM generate_series(1, %s) j) "
        "FROM generate_series(1, 60) i",
        (n,),
    )
    db.execute(f"SELECT madnb.create_nb_prepared_data_tables('t', 'c', 'x', {n}, 'fp', 'cp')")
    db.execute(f"SELECT madnb.create_nb_probs_view('fp', 'cp', 't', 'id', 'x', {n}, 'pv')")
    rows = db.execute("SELECT key, sum(nb_prob), max(nb_prob), bool_and(nb_prob >= 0) FROM pv GROUP BY key").fetchall()
    assert len(rows) == 60
    for _, total, mx, nonneg in rows:
        assert abs(total - 1) < 1e-12 and nonneg and mx > 0.99
    db.execute(f"SELECT madnb.create_nb_classify_view('fp', 'cp', 't', 'id', 'x', {n}, 'cv')")
    right = db.execute("SELECT count(*) FROM cv JOIN t ON t.id = cv.key WHERE cv.nb_classification = ARRAY[t.c]").fetchone()[0]
    assert right == 60


# --- errors: SQLSTATE, actionable message, nothing left behind ---------------------------------

def test_an_existing_output_is_42P07_with_a_hint_and_nothing_is_left(manual):
    manual.execute("CREATE TABLE cp (i int)")
    err = sqlstate_of(manual, "SELECT madnb.create_nb_prepared_data_tables('training', 'class', 'attributes', 3, 'fp', 'cp')")
    assert err.diag.sqlstate == "42P07"
    assert "drop it" in (err.diag.message_hint or "")
    assert "Traceback" not in err.diag.message_primary
    assert "fp" not in relations(manual)


def test_missing_table_is_42P01(manual):
    err = sqlstate_of(manual, "SELECT madnb.create_nb_prepared_data_tables('nope', 'class', 'attributes', 3, 'fp', 'cp')")
    assert err.diag.sqlstate == "42P01"
    err = sqlstate_of(manual, "SELECT madnb.create_nb_classify_view('nofp', 'nocp', 'toclassify', 'id', 'attributes', 3, 'v')")
    assert err.diag.sqlstate == "42P01"


def test_missing_column_is_42703(manual):
    err = sqlstate_of(manual, "SELECT madnb.create_nb_prepared_data_tables('training', 'klass', 'attributes', 3, 'fp', 'cp')")
    assert err.diag.sqlstate == "42703"
    assert "klass" in err.diag.message_primary


@pytest.mark.parametrize("num_attrs", [0, -1])
def test_bad_num_attrs_is_22023(manual, num_attrs):
    err = sqlstate_of(manual, "SELECT madnb.create_nb_prepared_data_tables('training', 'class', 'attributes', %s, 'fp', 'cp')", (num_attrs,))
    assert err.diag.sqlstate == "22023"


@pytest.mark.parametrize("num_attrs", [2, 4])
def test_num_attrs_not_matching_the_arrays_is_2202E_and_nothing_is_left(manual, num_attrs):
    err = sqlstate_of(manual, "SELECT madnb.create_nb_prepared_data_tables('training', 'class', 'attributes', %s, 'fp', 'cp')", (num_attrs,))
    assert err.diag.sqlstate == "2202E"
    assert not {"fp", "cp"} & relations(manual)
    assert manual.execute("SELECT count(*) FROM pg_class WHERE relname LIKE 'madnb_stats_%'").fetchone()[0] == 0


def test_ragged_arrays_are_2202E(manual):
    manual.execute("INSERT INTO training VALUES (7, 1, '{1,2}')")
    err = sqlstate_of(manual, "SELECT madnb.create_nb_prepared_data_tables('training', 'class', 'attributes', 3, 'fp', 'cp')")
    assert err.diag.sqlstate == "2202E"
    assert "fewer than numAttrs" in err.diag.message_primary


def test_bad_numeric_indices_are_rejected(db):
    db.execute("CREATE TABLE t (c int, x float8[], s text[])")
    db.execute("INSERT INTO t VALUES (1, '{1,2}', '{a,b}')")
    for idx, state in [("ARRAY[3]", "22023"), ("ARRAY[0]", "22023"), ("{1,1}", "22023"), ("one", "22P02")]:
        err = sqlstate_of(db, "SELECT madnb.create_nb_prepared_data_tables('t', 'c', 'x', %s, 2, 'fp', 'np', 'cp')", (idx,))
        assert err.diag.sqlstate == state, idx
    err = sqlstate_of(db, "SELECT madnb.create_nb_prepared_data_tables('t', 'c', 's', '{1}', 2, 'fp', 'np', 'cp')")
    assert err.diag.sqlstate == "42804"


def test_an_attribute_column_that_is_not_an_array_is_42804(db):
    db.execute("CREATE TABLE t (c int, x int)")
    err = sqlstate_of(db, "SELECT madnb.create_nb_prepared_data_tables('t', 'c', 'x', 1, 'fp', 'cp')")
    assert err.diag.sqlstate == "42804"


def test_a_failed_view_creation_leaves_nothing(manual):
    manual.execute("SELECT madnb.create_nb_prepared_data_tables('training', 'class', 'attributes', 3, 'fp', 'cp')")
    manual.execute("CREATE TABLE tc (id int, attributes text[])")
    err = sqlstate_of(manual, "SELECT madnb.create_nb_classify_view('fp', 'cp', 'tc', 'id', 'attributes', 3, 'cv')")
    assert err.diag.sqlstate == "42883"  # integer model values against text attributes
    assert "cv" not in relations(manual)


def test_a_view_whose_model_changed_its_classes_asks_to_be_recreated(manual):
    manual.execute("SELECT madnb.create_nb_prepared_data_tables('training', 'class', 'attributes', 3, 'fp', 'cp')")
    manual.execute("SELECT madnb.create_nb_classify_view('fp', 'cp', 'toclassify', 'id', 'attributes', 3, 'cv')")
    manual.execute("INSERT INTO cp VALUES (3, 1, 7)")
    err = sqlstate_of(manual, "SELECT * FROM cv")
    assert err.diag.sqlstate == "55000"
    assert "create it again" in (err.diag.message_hint or "")


def test_an_empty_training_table_is_an_error(db):
    db.execute("CREATE TABLE t (c int, x int[])")
    err = sqlstate_of(db, "SELECT madnb.create_nb_prepared_data_tables('t', 'c', 'x', 1, 'fp', 'cp')")
    assert err.diag.sqlstate == "22023"
